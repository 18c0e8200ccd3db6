/**
 * The flag readers find the nodes they look for in one walk of each module (`moduleNodes`) and
 * the nodes inside a function body by a binary search (`nodesWithin`), instead of a walk of the
 * tree per reader and per body (issue #35, s41: ~0.8 s of NeMo Gym's Python worker); the launcher
 * reader takes its notes from those lists instead of walking every named node. Each fast path
 * must find exactly what the walk it replaces finds, in the same order: checked on every Python
 * file of the fixtures and on a module written to tell the orders apart.
 */
import { describe, expect, it } from 'vitest';
import { fixturePython } from './helpers.js';
import type { Node } from 'web-tree-sitter';
import { moduleNodes, nodesWithin } from '../src/extract/python/flags-common.js';
import { stackWalkOrder } from '../src/extract/python/flags-argparse.js';
import { launcherNotes } from '../src/extract/python/launcher-flags.js';
import { getPythonParser, parsePython } from '../src/extract/python/parser.js';
import { namedChildren } from '../src/extract/python/values.js';



/** Flags compared with argv words, the same one several times, nested and side by side: the first note of each decides its location. */
const LAUNCHER = `import sys

def main(argv):
    for i, arg in enumerate(argv):
        if arg == "--module" or (arg.startswith("--module=") and argv[i] == "--config"):
            pass
        elif "--config" == arg:
            picked = [a for a in argv if a == "--module"]
    if sys.argv[1].startswith("--config="):
        check(wrap(a == "--x"), b == "--x", self.word.startswith("--x="))(make(1)(2))
    # a comment: arg == "--not-code"
    while True:
        for k, v in items():
            total += v
            def inner(q):
                hidden = q
            grab = lambda z: (w := z)
            with open(k) as (fh, other):
                pass
        else:
            last = [y for y in range(3)]
    return other == "--y" == third
`;

/** The walk `stackWalkOrder` stands for: pop a node, take it when its type is asked for, push its named children unless its type is pruned. */
function stackWalk(roots: Node[], types: string[], prune: ReadonlySet<string> = new Set()): Node[] {
  const out: Node[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (types.includes(node.type)) out.push(node);
    if (prune.has(node.type)) continue;
    for (const child of namedChildren(node)) stack.push(child);
  }
  return out;
}

const ids = (nodes: readonly (Node | null)[]): number[] => nodes.map((n) => n!.id);
const notes = (root: Node, how: 'auto' | 'walk'): string[] => launcherNotes(root, how).map(([text, lit, takesValue]) => `${text}@${lit.startIndex}:${takesValue}`);

describe('one walk of a module for the flag readers', () => {
  it('lists the nodes of each type as descendantsOfType does, and those inside each definition as a walk of it does', async () => {
    const parser = await getPythonParser();
    const files = fixturePython();
    expect(files.length).toBeGreaterThan(300);
    let bodies = 0;
    for (const [file, text] of [...files, ['launcher.py', LAUNCHER] as [string, string]]) {
      const tree = parsePython(parser, text)!;
      try {
        const root = tree.rootNode;
        const nodes = moduleNodes(root);
        expect(ids(nodes.calls), file).toEqual(ids(root.descendantsOfType('call')));
        expect(ids(nodes.functionDefs), file).toEqual(ids(root.descendantsOfType('function_definition')));
        expect(ids(nodes.classDefs), file).toEqual(ids(root.descendantsOfType('class_definition')));
        expect(ids(nodes.decorated), file).toEqual(ids(root.descendantsOfType('decorated_definition')));
        expect(ids(nodes.assignments), file).toEqual(ids(root.descendantsOfType('assignment')));
        expect(ids(nodes.comparisons), file).toEqual(ids(root.descendantsOfType('comparison_operator')));
        // The same lists again (one walk per tree).
        expect(moduleNodes(root)).toBe(nodes);
        for (const def of [...nodes.functionDefs, ...nodes.classDefs, ...nodes.decorated]) {
          const body = def.childForFieldName('body') ?? def;
          for (const scope of [def, body]) {
            expect(ids(nodesWithin(nodes.calls, scope)), `${file}:${scope.startPosition.row + 1}`).toEqual(ids(scope.descendantsOfType('call')));
            expect(ids(nodesWithin(nodes.decorated, scope)), `${file}:${scope.startPosition.row + 1}`).toEqual(ids(scope.descendantsOfType('decorated_definition')));
          }
          bodies++;
        }
        // The stack walks of the argparse reader (effectsOf over a body, assignedNames over a loop's blocks, nested scopes not entered).
        const effectTypes = ['call', 'assignment', 'augmented_assignment', 'delete_statement'];
        const bindingTypes = ['function_definition', 'class_definition', 'lambda', 'assignment', 'augmented_assignment', 'for_statement', 'named_expression', 'as_pattern_target'];
        const scopes = new Set(['function_definition', 'class_definition', 'lambda']);
        const loops = root.descendantsOfType(['for_statement', 'while_statement', 'function_definition']).map((n) => n!);
        for (const scope of [root, ...nodes.functionDefs.map((d) => d.childForFieldName('body')!)]) {
          expect(ids(stackWalkOrder([scope], effectTypes).map((e) => e.node)), file).toEqual(ids(stackWalk([scope], effectTypes)));
        }
        for (const loop of loops) {
          const roots = namedChildren(loop).filter((c) => c.type === 'block' || c.type === 'else_clause');
          const got = stackWalkOrder(roots, bindingTypes, scopes);
          expect(ids(got.map((e) => e.node)), `${file}:${loop.startPosition.row + 1}`).toEqual(ids(stackWalk(roots, bindingTypes, scopes)));
          expect(got.map((e) => e.type)).toEqual(got.map((e) => e.node.type));
        }
        // A call whose callee is a call (`f(x)(y)`): the inner one does not hold the outer one.
        for (const call of nodes.calls) expect(ids(nodesWithin(nodes.calls, call)), file).toEqual(ids(call.descendantsOfType('call')));
        expect(notes(root, 'auto'), file).toEqual(notes(root, 'walk'));
      } finally {
        tree.delete();
      }
    }
    expect(bodies).toBeGreaterThan(500);
  });

  it('takes the launcher notes in the walk order: enclosing nodes first, later siblings first', async () => {
    const parser = await getPythonParser();
    const tree = parsePython(parser, LAUNCHER)!;
    try {
      const got = launcherNotes(tree.rootNode).map(([text, , takesValue]) => `${text}${takesValue ? ' (value)' : ''}`);
      expect(got).toEqual([
        // The last statement first (the chained comparison compares nothing with one word), then
        // the body of the second `if` before its condition, the last argument of `check(…)` first.
        '--x= (value)', '--x', '--x', '--config= (value)',
        // The loop's body: the `elif` (its body before its condition), then the `if`'s condition, right operand first.
        '--module', '--config', '--config', '--module= (value)', '--module',
      ]);
      expect(got).toEqual(launcherNotes(tree.rootNode, 'walk').map(([text, , takesValue]) => `${text}${takesValue ? ' (value)' : ''}`));
    } finally {
      tree.delete();
    }
  });
});
