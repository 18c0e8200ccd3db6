/** Reads console scripts from `setup.py` statically: the `entry_points` argument of a `setup(...)` call, never by running the file. */
import type { Node } from 'web-tree-sitter';
import type { EntryPoint, InputDiagnostic } from '../../model/types.js';
import { getPythonParser, parsePython } from './parser.js';
import { loadUnicodeNames, mayHoldNamedEscape } from './unicode-names.js';
import { pythonSourceOverOwnLimits, pythonTextFacts } from './text-facts.js';
import { dottedName, identifierText, namedChildren, pythonIdentifier, stringValue, unparen } from './values.js';
import { fStringParts } from './partial-eval.js';
import { MAX_BINS } from '../package-bins.js';

/** How many module-level names a value may go through (`ENTRY_POINTS = {"console_scripts": SCRIPTS}`). */
const MAX_NAME_HOPS = 4;

/**
 * Reads the console scripts a `setup.py` declares, as setuptools would see them, without running it.
 *
 * Finds every call of `setup` / `setuptools.setup` / `distutils.core.setup` (at module level or
 * inside `if __name__ == "__main__":` / a function) and reads its `entry_points=` keyword: a dict
 * literal or `dict(console_scripts=...)` call whose `console_scripts` value is a list or tuple of
 * `"name = module:function"` strings, or one multi-line string of such lines (the INI form
 * setuptools also accepts). An entry may be computed from module-level string constants
 * (`'{0}={0}.__main__:main'.format(NAME)`, f-strings, `+`, `%`; see {@link computedString}), and
 * `entry_points` may come through `setup(**CONFIG)` or `setup(**get_config())` ({@link splatKeyword}). Any of these may be a module-level name assigned once with such a
 * literal (`entry_points=ENTRY_POINTS`, `"console_scripts": CONSOLE_SCRIPTS`). Values built any
 * other way (comprehensions, `+` of lists, function calls) are skipped, not guessed. The whole
 * `entry_points=` value may also be one INI string (`"[console_scripts]\nname = module:func"`):
 * its lines under `[console_scripts]` are read.
 *
 * Targets are trimmed and lose a trailing `[extras]`. The location is the string literal holding
 * the entry (1-based line/column). A file that does not parse gives what its intact parts hold;
 * never throws for bad input.
 *
 * @param files Project-relative POSIX paths of `setup.py` files with their text.
 * @throws Error only when the tree-sitter runtime or grammar cannot be loaded.
 */
export async function readSetupPyEntryPoints(files: { file: string; text: string }[]): Promise<{ entryPoints: EntryPoint[]; diagnostics: InputDiagnostic[] }> {
  const entryPoints: EntryPoint[] = [];
  const diagnostics: InputDiagnostic[] = [];
  if (files.length === 0) return { entryPoints, diagnostics };
  const parser = await getPythonParser();
  for (const { file, text } of files) {
    // Bounded as every Python source is (a setup.py of 100,000 literal console scripts is 2.4 MB).
    const over = pythonSourceOverOwnLimits(pythonTextFacts(text));
    if (over !== undefined) {
      diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `Not read: ${over}, which the Python parser cannot handle in bounded time and memory; its console scripts are unknown`, location: { file, line: 1, column: 1 } });
      continue;
    }
    if (mayHoldNamedEscape(text)) await loadUnicodeNames(); // `\N{name}` in a string literal
    const tree = parsePython(parser, text);
    if (!tree) continue;
    const before = entryPoints.length;
    try {
      const assigns = moduleAssigns(tree.rootNode);
      for (const call of setupCalls(tree.rootNode)) {
        const value = keyword(call, 'entry_points') ?? splatKeyword(call, 'entry_points', tree.rootNode, assigns);
        if (!value) continue;
        const followed = follow(value, assigns);
        // `entry_points="""[console_scripts]\nuvicorn=uvicorn.main:main"""`: the INI form as one
        // string, read under its `[console_scripts]` section only.
        const ini = stringValue(followed);
        if (ini !== undefined) {
          let section = '';
          ini.split('\n').forEach((line, index) => {
            const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
            if (header) {
              section = header[1]!.trim();
              return;
            }
            const eq = line.indexOf('=');
            if (section !== 'console_scripts' || eq < 0) return;
            const name = line.slice(0, eq).trim();
            const target = cleanTarget(line.slice(eq + 1));
            if (name === '' || target === '' || name.startsWith('#') || name.startsWith(';')) return;
            const column = index === 0 ? followed.startPosition.column + 1 : line.length - line.trimStart().length + 1;
            entryPoints.push({ name, target, location: { file, line: followed.startPosition.row + 1 + index, column } });
          });
          continue;
        }
        const scripts = consoleScripts(followed, assigns);
        if (!scripts) continue;
        for (const node of scriptStrings(follow(scripts, assigns), assigns)) {
          const raw = computedString(node, assigns, 0);
          if (raw === undefined) continue;
          raw.split('\n').forEach((line, index) => {
            const eq = line.indexOf('=');
            if (eq < 0) return;
            const name = line.slice(0, eq).trim();
            const target = cleanTarget(line.slice(eq + 1));
            if (name === '' || target === '' || name.startsWith('#')) return;
            // A multi-line string's later lines start at column 1 of the file (plus their indentation).
            const column = index === 0 ? node.startPosition.column + 1 : line.length - line.trimStart().length + 1;
            entryPoints.push({ name, target, location: { file, line: node.startPosition.row + 1 + index, column } });
          });
        }
      }
    } finally {
      tree.delete();
    }
    // As for pyproject.toml, setup.cfg and package.json `bin`: the first MAX_BINS are read, the rest said (#33 sweep D6).
    const read = entryPoints.length - before;
    if (read > MAX_BINS) {
      const first = entryPoints[before + MAX_BINS]!.location;
      diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${file}:${first.line}:${first.column}: declares ${read} console scripts; only the first ${MAX_BINS} are read`, location: first });
      entryPoints.length = before + MAX_BINS;
    }
  }
  return { entryPoints, diagnostics };
}

function cleanTarget(target: string): string {
  const trimmed = target.trim();
  const bracket = trimmed.indexOf('[');
  return (bracket < 0 ? trimmed : trimmed.slice(0, bracket)).trim();
}

/** Module-level `NAME = value` assignments, the last one of each name winning (as Python would at `setup()` time). */
function moduleAssigns(root: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'expression_statement') continue;
    const assignment = namedChildren(statement)[0];
    if (assignment?.type !== 'assignment') continue;
    const left = assignment.childForFieldName('left');
    const right = assignment.childForFieldName('right');
    if (left?.type === 'identifier' && right) out.set(pythonIdentifier(left.text), right);
  }
  return out;
}

/** Follows a bare name to its module-level literal, a few hops at most. */
function follow(node: Node, assigns: Map<string, Node>): Node {
  let current = unparen(node);
  for (let hop = 0; hop < MAX_NAME_HOPS && current.type === 'identifier'; hop++) {
    const next = assigns.get(pythonIdentifier(current.text));
    if (!next) break;
    current = unparen(next);
  }
  return current;
}

/** Every `setup(...)` call in the file, in source order. */
function setupCalls(root: Node): Node[] {
  const out: Node[] = [];
  // An explicit stack, not recursion: a value nested 3,000 deep in setup.py (`entry_points={"a":
  // {"a": ...}}`) overflowed the call stack, an internal error for the whole run (fresh sweep D6b).
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const name = fn ? dottedName(fn) : undefined;
      if (name && name[name.length - 1] === 'setup' && name.length <= 3) out.push(node);
    }
    // A string holds no `setup()` call: its parts are not walked (100,000 console-script strings
    // are 400,000 nodes otherwise).
    if (node.type === 'string' || node.type === 'concatenated_string') continue;
    // Children pushed last first, so they are visited in source order.
    const children = namedChildren(node);
    for (let k = children.length - 1; k >= 0; k--) if (children[k]!.type !== 'class_definition') stack.push(children[k]!);
  }
  return out;
}

function keyword(call: Node, name: string): Node | undefined {
  const args = call.childForFieldName('arguments');
  if (!args) return undefined;
  for (const arg of namedChildren(args)) {
    if (arg.type === 'keyword_argument' && identifierText(arg.childForFieldName('name')) === name) return arg.childForFieldName('value') ?? undefined;
  }
  return undefined;
}

/**
 * A keyword passed through `setup(**CONFIG)` / `setup(**get_config())` (cbeams): `CONFIG` a
 * module-level name bound to a dict literal or `dict(...)` call, or a top-level function of the
 * file whose last `return` gives one. Undefined otherwise.
 */
function splatKeyword(call: Node, name: string, root: Node, assigns: Map<string, Node>): Node | undefined {
  const args = call.childForFieldName('arguments');
  for (const arg of args ? namedChildren(args) : []) {
    if (arg.type !== 'dictionary_splat') continue;
    let value = follow(namedChildren(arg)[0] ?? arg, assigns);
    if (value.type === 'call' && value.childForFieldName('function')?.type === 'identifier') {
      const fnName = identifierText(value.childForFieldName('function'))!;
      const def = namedChildren(root).map((c) => (c.type === 'decorated_definition' ? c.childForFieldName('definition') : c))
        .find((c) => c?.type === 'function_definition' && identifierText(c.childForFieldName('name')) === fnName);
      if (def) {
        const returned = def.descendantsOfType('return_statement').at(-1);
        const expr = returned ? namedChildren(returned)[0] : undefined;
        if (!expr) continue;
        value = follow(expr, assigns);
      }
    }
    if (value.type === 'dictionary') {
      for (const pair of namedChildren(value)) {
        const key = pair.type === 'pair' ? pair.childForFieldName('key') : null;
        if (key && stringValue(follow(key, assigns)) === name) return pair.childForFieldName('value') ?? undefined;
      }
    } else if (value.type === 'call' && identifierText(value.childForFieldName('function')) === 'dict') {
      const found = keyword(value, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** The `console_scripts` value of an entry-points dict literal or `dict(...)` call. */
function consoleScripts(value: Node, assigns: Map<string, Node>): Node | undefined {
  if (value.type === 'dictionary') {
    for (const pair of namedChildren(value)) {
      if (pair.type !== 'pair') continue;
      const key = pair.childForFieldName('key');
      const keyNode = key ? follow(key, assigns) : undefined;
      if (keyNode && stringValue(keyNode) === 'console_scripts') return pair.childForFieldName('value') ?? undefined;
    }
    return undefined;
  }
  if (value.type === 'call') {
    const fn = value.childForFieldName('function');
    if (fn?.type === 'identifier' && pythonIdentifier(fn.text) === 'dict') return keyword(value, 'console_scripts');
  }
  return undefined;
}

/** The string nodes of a console-scripts list, tuple or single string (literal or computed: {@link computedString}). */
function scriptStrings(value: Node, assigns: Map<string, Node>): Node[] {
  if (computedString(value, assigns, 0) !== undefined) return [value];
  if (value.type !== 'list' && value.type !== 'tuple') return [];
  return namedChildren(value)
    .map((item) => follow(item, assigns))
    .filter((item) => computedString(item, assigns, 0) !== undefined);
}

/**
 * The value of a string expression built from literals and module-level string constants, as
 * Python computes it: a literal, a name, `'{0}={0}.__main__:main'.format(NAME)` (positional and
 * keyword fields without conversions or format specs, `{{`/`}}`), an f-string whose fields are
 * such expressions (`f"{NAME}={NAME}.cli:main"`), `a + b`, and `'%s=%s:main' % (NAME, NAME)`
 * (`%s` only). Undefined for anything else (cbeams builds its console script the first way).
 */
function computedString(node: Node, assigns: Map<string, Node>, depth: number): string | undefined {
  if (depth > 8) return undefined;
  const n = follow(node, assigns);
  const literal = stringValue(n);
  if (literal !== undefined) return literal;
  const parts = fStringParts(n);
  if (parts) {
    const values = parts.map((p) => (typeof p === 'string' ? p : computedString(p, assigns, depth + 1)));
    return values.every((v) => v !== undefined) ? values.join('') : undefined;
  }
  if (n.type === 'binary_operator') {
    const op = n.childForFieldName('operator')?.text;
    const left = computedString(n.childForFieldName('left')!, assigns, depth + 1);
    const rightNode = unparen(n.childForFieldName('right')!);
    if (left === undefined) return undefined;
    if (op === '+') {
      const right = computedString(rightNode, assigns, depth + 1);
      return right === undefined ? undefined : left + right;
    }
    if (op === '%') {
      const items = rightNode.type === 'tuple' ? namedChildren(rightNode) : [rightNode];
      const values = items.map((i) => computedString(i, assigns, depth + 1));
      if (values.some((v) => v === undefined)) return undefined;
      let i = 0;
      let bad = false;
      const out = left.replace(/%(%|s|[^%s]?)/g, (_m, spec: string) => {
        if (spec === '%') return '%';
        if (spec !== 's' || i >= values.length) bad = true;
        return values[i++] ?? '';
      });
      return bad || i !== values.length ? undefined : out;
    }
    return undefined;
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    if (fn?.type !== 'attribute' || identifierText(fn.childForFieldName('attribute')) !== 'format') return undefined;
    const template = computedString(fn.childForFieldName('object')!, assigns, depth + 1);
    if (template === undefined) return undefined;
    const positional: string[] = [];
    const named = new Map<string, string>();
    for (const arg of namedChildren(n.childForFieldName('arguments')!)) {
      const isKeyword = arg.type === 'keyword_argument';
      const value = computedString(isKeyword ? arg.childForFieldName('value')! : arg, assigns, depth + 1);
      if (value === undefined || arg.type === 'list_splat' || arg.type === 'dictionary_splat') return undefined;
      if (isKeyword) named.set(identifierText(arg.childForFieldName('name'))!, value);
      else positional.push(value);
    }
    let auto = 0;
    let bad = false;
    const out = template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (m, field: string | undefined) => {
      if (m === '{{') return '{';
      if (m === '}}') return '}';
      const key = field ?? '';
      const value = key === '' ? positional[auto++] : /^\d+$/.test(key) ? positional[Number(key)] : named.get(key);
      if (value === undefined) bad = true;
      return value ?? '';
    });
    return bad ? undefined : out;
  }
  return undefined;
}
