/**
 * Console scripts that share one dispatcher function (issue 12, item 4): several
 * `[project.scripts]` entries name `pkg.cli:main`, and `main` switches on the name it was run as:
 *
 * ```python
 * COMMANDS = {"tool-train": train, "tool-eval": evaluate}
 * def main():
 *     COMMANDS[Path(sys.argv[0]).name]()
 * ```
 *
 * or `prog = os.path.basename(sys.argv[0])` then `if prog == "tool-train": return train()`.
 * This module reads, from one function body, which script name leads to which callee. It reads
 * the syntax tree only (keys through the partial evaluator's literal reader); Python is never run.
 */
import type { Node } from 'web-tree-sitter';
import { literalConst } from './partial-eval.js';
import { dottedName, namedChildren, unparen } from './values.js';

/** One branch of a dispatcher: the script name compared with, and the callees (dotted, in source order) it may run. */
export interface ArgvBranch {
  /** The program name as compared (`tool-train`). */
  name: string;
  /** Candidate callees, first is likeliest: the dict value, or the calls in the `if` branch. */
  callees: string[][];
}

/** Calls in a branch that never name the dispatched command. */
const NOT_COMMANDS = new Set(['print', 'exit', 'sys.exit', 'len', 'str', 'int', 'repr', 'Path', 'pathlib.Path', 'os.path.basename', 'basename', 'SystemExit']);

/** At most this many branches are read from one function. */
const MAX_BRANCHES = 256;

/** `sys.argv[0]` (or `argv[0]` after `from sys import argv`). */
function isArgv0(node: Node): boolean {
  const n = unparen(node);
  if (n.type !== 'subscript') return false;
  const value = n.childForFieldName('value');
  const index = n.childForFieldName('subscript');
  const dotted = value ? dottedName(value)?.join('.') : undefined;
  return (dotted === 'sys.argv' || dotted === 'argv') && index?.type === 'integer' && index.text === '0';
}

/**
 * The program name a script was run as: `sys.argv[0]`, `os.path.basename(sys.argv[0])`,
 * `Path(sys.argv[0]).name` / `.stem`, a variable holding one of these, or `.lower()` of one.
 */
function isProgramName(node: Node, variables: Set<string>): boolean {
  const n = unparen(node);
  if (n.type === 'identifier') return variables.has(n.text);
  if (isArgv0(n)) return true;
  if (n.type === 'attribute') {
    const attr = n.childForFieldName('attribute')?.text;
    const object = n.childForFieldName('object');
    if ((attr === 'name' || attr === 'stem') && object && unparen(object).type === 'call') {
      const call = unparen(object);
      const callee = dottedName(call.childForFieldName('function') ?? call)?.at(-1);
      const first = firstArgument(call);
      return callee === 'Path' && first !== undefined && isArgv0(first);
    }
    return false;
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    const callee = fn ? dottedName(fn) : undefined;
    const first = firstArgument(n);
    if (callee?.at(-1) === 'basename' && first !== undefined) return isArgv0(first) || isProgramName(first, variables);
    if (fn?.type === 'attribute' && ['lower', 'casefold', 'strip'].includes(fn.childForFieldName('attribute')?.text ?? '') && first === undefined) {
      const object = fn.childForFieldName('object');
      return object !== null && isProgramName(object, variables);
    }
  }
  return false;
}

function firstArgument(call: Node): Node | undefined {
  const list = call.childForFieldName('arguments');
  const first = list ? namedChildren(list).find((a) => a.type !== 'comment') : undefined;
  return first && first.type !== 'keyword_argument' ? first : undefined;
}

/** The string keys and dotted values of a dict literal (`{"tool-train": train}`), skipping other entries. */
function dictEntries(node: Node): ArgvBranch[] {
  const out: ArgvBranch[] = [];
  for (const pair of namedChildren(unparen(node))) {
    if (pair.type !== 'pair') continue;
    const key = pair.childForFieldName('key');
    const value = pair.childForFieldName('value');
    const name = key ? literalConst(key) : undefined;
    const callee = value ? dottedName(unparen(value)) : undefined;
    if (typeof name?.value === 'string' && callee) out.push({ name: name.value, callees: [callee] });
  }
  return out;
}

/** The calls of a block in source order (their dotted callees), builtins and exits left out. */
function callsIn(block: Node): string[][] {
  const out: string[][] = [];
  for (const call of block.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    const callee = fn ? dottedName(fn) : undefined;
    if (callee && !NOT_COMMANDS.has(callee.join('.'))) out.push(callee);
  }
  return out;
}

/**
 * The script names a function body compares its program name with, each with the callees it
 * runs: dict lookups (`COMMANDS[name]()`, `COMMANDS.get(name)`) over a dict literal assigned in
 * the body or at module level (`dicts`), and `if`/`elif` branches testing `name == "x"`,
 * `"x" == name` or `name in ("x", "y")`. Empty when the body does not read `sys.argv[0]`.
 *
 * @param dicts module-level `NAME = {…}` dict literals by name.
 */
export function readArgvDispatch(body: Node, dicts: (name: string) => Node | undefined): ArgvBranch[] {
  if (!body.text.includes('argv')) return [];
  const variables = new Set<string>();
  const localDicts = new Map<string, Node>();
  // Assignments in order: `prog = Path(sys.argv[0]).name`, `handlers = {...}`.
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment?.childForFieldName('left');
    const right = assignment?.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    if (isProgramName(right, variables)) variables.add(left.text);
    else if (unparen(right).type === 'dictionary') localDicts.set(left.text, right);
  }
  const dictNamed = (node: Node | null): Node | undefined => {
    const n = node ? unparen(node) : undefined;
    if (n?.type === 'dictionary') return n;
    return n?.type === 'identifier' ? (localDicts.get(n.text) ?? dicts(n.text)) : undefined;
  };
  const out: ArgvBranch[] = [];
  const add = (branch: ArgvBranch): void => {
    if (out.length < MAX_BRANCHES && !out.some((b) => b.name === branch.name)) out.push(branch);
  };
  // `D[name]` and `D.get(name[, default])`.
  for (const subscript of body.descendantsOfType('subscript')) {
    const index = subscript?.childForFieldName('subscript');
    if (!subscript || !index || !isProgramName(index, variables)) continue;
    const dict = dictNamed(subscript.childForFieldName('value'));
    if (dict) dictEntries(dict).forEach(add);
  }
  for (const call of body.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    if (!call || fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'get') continue;
    const first = firstArgument(call);
    if (!first || !isProgramName(first, variables)) continue;
    const dict = dictNamed(fn.childForFieldName('object'));
    if (dict) dictEntries(dict).forEach(add);
  }
  // `if name == "x": …` / `elif "y" == name: …` / `if name in ("a", "b"): …`.
  for (const clause of [...body.descendantsOfType('if_statement'), ...body.descendantsOfType('elif_clause')]) {
    const condition = clause?.childForFieldName('condition');
    const consequence = clause?.childForFieldName('consequence');
    if (!condition || !consequence) continue;
    const test = unparen(condition);
    if (test.type !== 'comparison_operator') continue;
    const operands = namedChildren(test);
    const operators = test.children.filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
    if (operands.length !== 2 || operators.length !== 1) continue;
    const [a, b] = operands as [Node, Node];
    const op = operators[0];
    let names: string[] = [];
    if (op === '==') {
      const other = isProgramName(a, variables) ? b : isProgramName(b, variables) ? a : undefined;
      const value = other ? literalConst(other) : undefined;
      if (typeof value?.value === 'string') names = [value.value];
    } else if (op === 'in' && isProgramName(a, variables)) {
      const set = unparen(b);
      if (['tuple', 'list', 'set'].includes(set.type)) {
        names = namedChildren(set).map((item) => literalConst(item)?.value).filter((v): v is string => typeof v === 'string');
      }
    }
    const callees = names.length > 0 ? callsIn(consequence) : [];
    if (callees.length > 0) for (const name of names) add({ name, callees });
  }
  return out;
}
