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
import { literalConst, strMethod } from './partial-eval.js';
import { allChildren, dottedName, identifierText, namedChildren, pythonIdentifier, unparen } from './values.js';

/** A `str` method applied to the program name before it is compared (`.removeprefix("ng_")`). */
export interface NameOp {
  method: string;
  args: string[];
}

/** One branch of a dispatcher: the script name compared with, and what it runs. */
export interface ArgvBranch {
  /** The program name as compared (`tool-train`), after {@link transform}. */
  name: string;
  /** The `str` methods applied, in order, to the script name before the comparison; empty for none. */
  transform: NameOp[];
  /**
   * Candidate callees, first is likeliest: the dict value, or the calls in the `if` branch; for a
   * {@link words} branch, the calls that re-enter another program after `sys.argv` is rewritten.
   */
  callees: string[][];
  /** `"module:function"` string literals the branch passes to a call (a dispatcher that imports its target by name): tried before {@link callees}. */
  targets?: string[];
  /**
   * Sub-command words the branch puts in front of the arguments before re-entering another
   * program (`LEGACY = {"collect_rollouts": ["eval", "run", "--no-serve"]}` then
   * `sys.argv = [sys.argv[0], *tokens, *sys.argv[1:]]`): the leading words that are not flags.
   */
  words?: string[];
}

/** `str` methods a dispatcher may apply to its program name (see `strMethod`). */
const NAME_METHODS = new Set(['lower', 'casefold', 'strip', 'removeprefix', 'removesuffix', 'replace']);

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
 * `Path(sys.argv[0]).name` / `.stem`, a variable holding one of these, or one of these with
 * `str` methods applied (`.lower()`, `.removeprefix("ng_")`): the methods, in order; undefined
 * when the expression is not the program name.
 */
function programName(node: Node, variables: Map<string, NameOp[]>): NameOp[] | undefined {
  const n = unparen(node);
  if (n.type === 'identifier') return variables.get(pythonIdentifier(n.text));
  if (isArgv0(n)) return [];
  if (n.type === 'attribute') {
    const attr = identifierText(n.childForFieldName('attribute'));
    const object = n.childForFieldName('object');
    if ((attr === 'name' || attr === 'stem') && object && unparen(object).type === 'call') {
      const call = unparen(object);
      const callee = dottedName(call.childForFieldName('function') ?? call)?.at(-1);
      const first = firstArgument(call);
      return callee === 'Path' && first !== undefined && isArgv0(first) ? [] : undefined;
    }
    return undefined;
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    const callee = fn ? dottedName(fn) : undefined;
    const first = firstArgument(n);
    if (callee?.at(-1) === 'basename' && first !== undefined) return isArgv0(first) ? [] : programName(first, variables);
    const method = fn?.type === 'attribute' ? identifierText(fn.childForFieldName('attribute')) : undefined;
    const object = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
    if (method !== undefined && NAME_METHODS.has(method) && object) {
      const list = n.childForFieldName('arguments');
      const args = (list ? namedChildren(list) : []).filter((a) => a.type !== 'comment').map((a) => literalConst(a)?.value);
      if (!args.every((a): a is string => typeof a === 'string')) return undefined;
      const before = programName(object, variables);
      return before === undefined ? undefined : [...before, { method, args }];
    }
  }
  return undefined;
}

function firstArgument(call: Node): Node | undefined {
  const list = call.childForFieldName('arguments');
  const first = list ? namedChildren(list).find((a) => a.type !== 'comment') : undefined;
  return first && first.type !== 'keyword_argument' ? first : undefined;
}

/**
 * The string keys of a dict literal with their values: a function (`{"tool-train": train}`), or
 * a list of string tokens (`{"collect_rollouts": ["eval", "run", "--no-serve"]}`), which re-enter
 * the program `routers` names. Other entries are skipped.
 */
function dictEntries(node: Node, transform: NameOp[], routers: string[][]): ArgvBranch[] {
  const out: ArgvBranch[] = [];
  for (const pair of namedChildren(unparen(node))) {
    if (pair.type !== 'pair') continue;
    const key = pair.childForFieldName('key');
    const value = pair.childForFieldName('value');
    const name = key ? literalConst(key) : undefined;
    if (typeof name?.value !== 'string' || !value) continue;
    const v = unparen(value);
    if (v.type === 'list' || v.type === 'tuple') {
      const tokens = namedChildren(v).map((item) => literalConst(item)?.value);
      if (routers.length === 0 || !tokens.every((t): t is string => typeof t === 'string')) continue;
      const words: string[] = [];
      for (const t of tokens) {
        if (t.startsWith('-')) break;
        words.push(t);
      }
      out.push({ name: name.value, transform, callees: routers, words });
      continue;
    }
    const callee = dottedName(v);
    if (callee) out.push({ name: name.value, transform, callees: [callee] });
  }
  return out;
}

/** The calls made after `sys.argv = […]` is assigned, in the statements that follow it: the program re-entered with the new arguments. */
function routersOf(body: Node): string[][] {
  const out: string[][] = [];
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment?.childForFieldName('left');
    if (!left || dottedName(left)?.join('.') !== 'sys.argv') continue;
    for (let next = assignment!.parent?.nextNamedSibling ?? null; next; next = next.nextNamedSibling) out.push(...callsIn(next).callees);
  }
  return out;
}

/**
 * The calls of a block in source order (their dotted callees), builtins and exits left out, and
 * the `"module:function"` string literals passed to them (`dispatch("pkg.mod:fn", argv)`).
 */
function callsIn(block: Node): { callees: string[][]; targets: string[] } {
  const callees: string[][] = [];
  const targets: string[] = [];
  for (const call of block.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    const callee = fn ? dottedName(fn) : undefined;
    if (!call || !callee || NOT_COMMANDS.has(callee.join('.'))) continue;
    callees.push(callee);
    const first = firstArgument(call);
    const literal = first ? literalConst(first)?.value : undefined;
    if (typeof literal === 'string' && /^[A-Za-z_][\w.]*:[A-Za-z_]\w*$/.test(literal)) targets.push(literal);
  }
  return { callees, targets };
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
  const variables = new Map<string, NameOp[]>();
  const localDicts = new Map<string, Node>();
  // Assignments in order: `prog = Path(sys.argv[0]).name`, `key = prog.removeprefix("ng_")`, `handlers = {...}`.
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment?.childForFieldName('left');
    const right = assignment?.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    const ops = programName(right, variables);
    if (ops !== undefined) variables.set(pythonIdentifier(left.text), ops);
    else if (unparen(right).type === 'dictionary') localDicts.set(pythonIdentifier(left.text), right);
  }
  const dictNamed = (node: Node | null): Node | undefined => {
    const n = node ? unparen(node) : undefined;
    if (n?.type === 'dictionary') return n;
    return n?.type === 'identifier' ? (localDicts.get(pythonIdentifier(n.text)) ?? dicts(pythonIdentifier(n.text))) : undefined;
  };
  const routers = routersOf(body);
  const out: ArgvBranch[] = [];
  const add = (branch: ArgvBranch): void => {
    if (out.length < MAX_BRANCHES && !out.some((b) => b.name === branch.name)) out.push(branch);
  };
  // `D[name]` and `D.get(name[, default])`.
  for (const subscript of body.descendantsOfType('subscript')) {
    const index = subscript?.childForFieldName('subscript');
    const ops = index ? programName(index, variables) : undefined;
    if (!subscript || ops === undefined) continue;
    const dict = dictNamed(subscript.childForFieldName('value'));
    if (dict) dictEntries(dict, ops, routers).forEach(add);
  }
  for (const call of body.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    if (!call || fn?.type !== 'attribute' || identifierText(fn.childForFieldName('attribute')) !== 'get') continue;
    const first = firstArgument(call);
    const ops = first ? programName(first, variables) : undefined;
    if (ops === undefined) continue;
    const dict = dictNamed(fn.childForFieldName('object'));
    if (dict) dictEntries(dict, ops, routers).forEach(add);
  }
  // `if name == "x": …` / `elif "y" == name: …` / `if name in ("a", "b"): …`.
  for (const clause of [...body.descendantsOfType('if_statement'), ...body.descendantsOfType('elif_clause')]) {
    const condition = clause?.childForFieldName('condition');
    const consequence = clause?.childForFieldName('consequence');
    if (!condition || !consequence) continue;
    const test = unparen(condition);
    if (test.type !== 'comparison_operator') continue;
    const operands = namedChildren(test);
    const operators = allChildren(test).filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
    if (operands.length !== 2 || operators.length !== 1) continue;
    const [a, b] = operands as [Node, Node];
    const op = operators[0];
    let names: string[] = [];
    let transform: NameOp[] | undefined;
    if (op === '==') {
      const left = programName(a, variables);
      const right = left === undefined ? programName(b, variables) : undefined;
      transform = left ?? right;
      const value = transform === undefined ? undefined : literalConst(left !== undefined ? b : a);
      if (typeof value?.value === 'string') names = [value.value];
    } else if (op === 'in') {
      transform = programName(a, variables);
      const set = unparen(b);
      if (transform !== undefined && ['tuple', 'list', 'set'].includes(set.type)) {
        names = namedChildren(set).map((item) => literalConst(item)?.value).filter((v): v is string => typeof v === 'string');
      }
    }
    if (names.length === 0 || transform === undefined) continue;
    const { callees, targets } = callsIn(consequence);
    if (callees.length === 0) continue;
    for (const name of names) add({ name, transform, callees, ...(targets.length > 0 ? { targets } : {}) });
  }
  return out;
}

/**
 * The branch of a dispatcher that a console script named `script` takes: the first whose
 * name equals `script` after the branch's `str` methods (computed by the partial evaluator's
 * `strMethod`; a method it cannot compute matches nothing).
 */
export function routeFor<T extends { name: string; transform: NameOp[] }>(routes: readonly T[], script: string): T | undefined {
  return routes.find((route) => {
    let value: string | undefined = script;
    for (const op of route.transform) {
      const next: string | string[] | undefined = value === undefined ? undefined : strMethod(value, op.method === 'casefold' ? 'lower' : op.method, op.args.map((a) => ({ kind: 'const' as const, value: a })));
      value = typeof next === 'string' ? next : undefined;
    }
    return value === route.name;
  });
}
