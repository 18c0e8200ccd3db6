/** Reads console scripts from `setup.py` statically: the `entry_points` argument of a `setup(...)` call, never by running the file. */
import type { Node } from 'web-tree-sitter';
import type { EntryPoint, InputDiagnostic } from '../../model/types.js';
import { getPythonParser } from './parser.js';
import { dottedName, namedChildren, stringValue, unparen } from './values.js';

/** How many module-level names a value may go through (`ENTRY_POINTS = {"console_scripts": SCRIPTS}`). */
const MAX_NAME_HOPS = 4;

/**
 * Reads the console scripts a `setup.py` declares, as setuptools would see them, without running it.
 *
 * Finds every call of `setup` / `setuptools.setup` / `distutils.core.setup` (at module level or
 * inside `if __name__ == "__main__":` / a function) and reads its `entry_points=` keyword: a dict
 * literal or `dict(console_scripts=...)` call whose `console_scripts` value is a list or tuple of
 * `"name = module:function"` strings, or one multi-line string of such lines (the INI form
 * setuptools also accepts). Any of these may be a module-level name assigned once with such a
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
  if (files.length === 0) return { entryPoints, diagnostics: [] };
  const parser = await getPythonParser();
  for (const { file, text } of files) {
    const tree = parser.parse(text);
    if (!tree) continue;
    try {
      const assigns = moduleAssigns(tree.rootNode);
      for (const call of setupCalls(tree.rootNode)) {
        const value = keyword(call, 'entry_points');
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
          const raw = stringValue(node);
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
  }
  return { entryPoints, diagnostics: [] };
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
    if (left?.type === 'identifier' && right) out.set(left.text, right);
  }
  return out;
}

/** Follows a bare name to its module-level literal, a few hops at most. */
function follow(node: Node, assigns: Map<string, Node>): Node {
  let current = unparen(node);
  for (let hop = 0; hop < MAX_NAME_HOPS && current.type === 'identifier'; hop++) {
    const next = assigns.get(current.text);
    if (!next) break;
    current = unparen(next);
  }
  return current;
}

/** Every `setup(...)` call in the file, in source order. */
function setupCalls(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const name = fn ? dottedName(fn) : undefined;
      if (name && name[name.length - 1] === 'setup' && name.length <= 3) out.push(node);
    }
    for (const child of namedChildren(node)) {
      if (child.type === 'class_definition') continue;
      visit(child);
    }
  };
  visit(root);
  return out;
}

function keyword(call: Node, name: string): Node | undefined {
  const args = call.childForFieldName('arguments');
  if (!args) return undefined;
  for (const arg of namedChildren(args)) {
    if (arg.type === 'keyword_argument' && arg.childForFieldName('name')?.text === name) return arg.childForFieldName('value') ?? undefined;
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
    if (fn?.type === 'identifier' && fn.text === 'dict') return keyword(value, 'console_scripts');
  }
  return undefined;
}

/** The string literal nodes of a console-scripts list, tuple or single string. */
function scriptStrings(value: Node, assigns: Map<string, Node>): Node[] {
  if (stringValue(value) !== undefined) return [value];
  if (value.type !== 'list' && value.type !== 'tuple') return [];
  return namedChildren(value)
    .map((item) => follow(item, assigns))
    .filter((item) => stringValue(item) !== undefined);
}
