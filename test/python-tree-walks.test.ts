/**
 * The flag readers find the nodes they look for in one walk of each module (`moduleNodes`) and
 * the nodes inside a function body by a binary search (`nodesWithin`), instead of a walk of the
 * tree per reader and per body (issue #35, s41: ~0.8 s of NeMo Gym's Python worker); the launcher
 * reader takes its notes from those lists instead of walking every named node. Each fast path
 * must find exactly what the walk it replaces finds, in the same order: checked on every Python
 * file of the fixtures and on a module written to tell the orders apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { moduleNodes, nodesWithin } from '../src/extract/python/flags-common.js';
import { launcherNotes } from '../src/extract/python/launcher-flags.js';
import { getPythonParser, parsePython } from '../src/extract/python/parser.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Every `.py` file under fixtures/, as [path, text]. */
function fixturePython(): Array<[string, string]> {
  const dir = path.join(ROOT, 'fixtures');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]);
}

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
    return other == "--y" == third
`;

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
