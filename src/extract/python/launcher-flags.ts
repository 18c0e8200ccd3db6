/**
 * Flags a module parses by hand before (or instead of) a framework: a launcher that picks a config
 * with `--module`/`--config` and hands the rest of the words to tyro or draccus compares argv
 * words with string literals (`arg == "--module"`, `arg.startswith("--config=")`). Read from the
 * syntax tree only; Python is never run.
 */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec } from '../../model/types.js';
import { flagSpec, locate, moduleNodes, type FlagModule } from './flags-common.js';
import type { FlagCommand } from './types.js';
import { allChildren, identifierText, namedChildren, stringValue, unparen } from './values.js';

/** `--module`, `--config-name`: a long flag as a compared literal. */
const FLAG_RE = /^--[A-Za-z][\w.-]*$/;
/** `--module=`: the prefix a `startswith` test of the `--flag=value` form uses. */
const FLAG_EQ_RE = /^--[A-Za-z][\w.-]*=$/;
/** At most this many nodes are visited per module (a generated file is not walked to its end). */
const MAX_NODES = 200_000;

/**
 * The long flags one module compares a word with (`x == "--module"`, `"--module" == x`,
 * `x.startswith("--config=")`, where `x` is a name, an attribute or a subscript such as
 * `args[i]`): one {@link FlagCommand} per module that has any, with `path` [], the bare module
 * name as `target`, and `launcher` set, so that only commands that name the module (by name or
 * alias) take them as accepted flags. A flag compared in its `--x=` form takes a value; the others
 * are typed by nothing (a value is taken when the example gives one).
 */
export function extractLauncherFlags(modules: ReadonlyMap<string, FlagModule>): FlagCommand[] {
  const out: FlagCommand[] = [];
  for (const [name, module] of modules) {
    const found = new Map<string, { node: Node; takesValue: boolean }>();
    const note = (text: string, node: Node, takesValue: boolean): void => {
      const flag = text.replace(/=$/, '');
      const known = found.get(flag);
      if (!known) found.set(flag, { node, takesValue });
      else if (takesValue) known.takesValue = true;
    };
    for (const [text, lit, takesValue] of launcherNotes(module.root)) note(text, lit, takesValue);
    if (found.size === 0) continue;
    const params: ParamSpec[] = [...found]
      .sort((x, y) => x[1].node.startIndex - y[1].node.startIndex)
      .map(([flag, f]) => ({
        ...flagSpec({
          name: flag.slice(2),
          aliases: [],
          ...(f.takesValue ? { type: 'str' } : {}),
          required: false,
          deprecated: false,
          hidden: false,
          location: locate(module, f.node),
          dest: flag.slice(2).replaceAll('-', '_'),
        }),
        owner: name,
      }));
    out.push({ path: [], target: name, params, location: locate(module, module.root), launcher: true });
  }
  return out;
}

/** A flag a node compares a word with: its text (`--x` or `--x=`), the literal, whether it takes a value. */
export type LauncherNote = [text: string, literal: Node, takesValue: boolean];

/**
 * The flags the module under `root` compares words with, in the order of a walk of its named
 * nodes (comments left out) that takes each node before those inside it and, of two siblings,
 * the later one first (a stack of children pushed in order), visiting at most {@link MAX_NODES}
 * nodes: the first note of a flag locates it. `how` `'walk'` always walks (tests compare it
 * with the default).
 *
 * A module of at most {@link MAX_NODES} nodes in all (the walk is not cut) is not walked: the
 * nodes that note a flag are among its calls and comparisons (`moduleNodes`, one walk of the tree
 * for every flag reader), sorted into the walk's order (end descending, then start ascending:
 * the reverse of a post-order walk). The walk made a wrapper object for every named node: on NeMo
 * Gym's 178 flag modules (1.8 MB), 0.68 s of a 6.4 s CPU profile of the flag extraction (s41).
 */
export function launcherNotes(root: Node, how: 'auto' | 'walk' = 'auto'): LauncherNote[] {
  const out: LauncherNote[] = [];
  if (how === 'auto' && root.descendantCount <= MAX_NODES) {
    const { calls, comparisons } = moduleNodes(root);
    const noting: Array<{ start: number; end: number; notes: LauncherNote[] }> = [];
    for (const node of comparisons) {
      const notes = comparisonNotes(node);
      if (notes.length > 0) noting.push({ start: node.startIndex, end: node.endIndex, notes });
    }
    for (const node of calls) {
      const notes = startswithNotes(node);
      if (notes.length > 0) noting.push({ start: node.startIndex, end: node.endIndex, notes });
    }
    noting.sort((a, b) => b.end - a.end || a.start - b.start);
    for (const { notes } of noting) out.push(...notes);
    return out;
  }
  let visited = 0;
  const stack: Node[] = [root];
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const node = stack.pop()!;
    const type = node.type;
    if (type === 'comparison_operator') out.push(...comparisonNotes(node));
    else if (type === 'call') out.push(...startswithNotes(node));
    for (const child of namedChildren(node)) stack.push(child);
  }
  return out;
}

/** `x == "--module"` or `"--module" == x`: the flag compared (at most one per operand). */
function comparisonNotes(node: Node): LauncherNote[] {
  const notes: LauncherNote[] = [];
  const operands = namedChildren(node);
  const ops = allChildren(node).filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
  if (operands.length === 2 && ops.length === 1 && ops[0] === '==') {
    const [a, b] = operands.map((o) => unparen(o));
    for (const [lit, other] of [[a!, b!], [b!, a!]] as const) {
      const text = lit.type === 'string' ? stringValue(lit) : undefined;
      if (text !== undefined && FLAG_RE.test(text) && isWord(other)) notes.push([text, lit, false]);
    }
  }
  return notes;
}

/** `x.startswith("--config=")`: the flag, which takes a value. */
function startswithNotes(node: Node): LauncherNote[] {
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'attribute' || identifierText(fn.childForFieldName('attribute')) !== 'startswith') return [];
  const args = node.childForFieldName('arguments');
  if (!args) return [];
  const object = fn.childForFieldName('object');
  const [first, ...rest] = namedChildren(args);
  const text = first?.type === 'string' ? stringValue(first) : undefined;
  return rest.length === 0 && object && isWord(object) && text !== undefined && FLAG_EQ_RE.test(text) ? [[text, first!, true]] : [];
}

/** A word read from argv: a name (`arg`), an attribute (`self.arg`) or a subscript (`args[i]`). */
function isWord(node: Node): boolean {
  return node.type === 'identifier' || node.type === 'attribute' || node.type === 'subscript';
}
