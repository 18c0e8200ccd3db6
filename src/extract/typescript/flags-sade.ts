/**
 * sade semantics (https://github.com/lukeed/sade, read against sade 1.8's `src/index.js`): the
 * program is one object whose `.option()`, `.describe()`, `.alias()` and `.action()` apply to
 * the command defined last, and to the program (global options) before any `.command()`.
 */
import { ts } from 'ts-morph';
import { builtInFlagSpecs } from '../builtin-flags.js';
import { addAlias, attach, newNode, newParam, type CommandNode } from './flags-node.js';
import type { FlagEvaluator, Value } from './types.js';
import { pushUnique } from '../../shared/arrays.js';

/**
 * How many words a command path may have (`'remote add <name>'` has 2); a longer one is no
 * command a user types, and reading it would make a sub-command per word.
 */
export const MAX_SADE_PATH_WORDS = 16;

/** Methods whose result is no program (the handler's result, printed help). */
const NOT_CHAINABLE = new Set(['parse', 'help', '_version']);

/**
 * `sade('name')`, or `sade('name <file>', true)` and `sade('name <file>')` (single-command
 * mode: the usage's arguments are the program's own). sade adds `-h, --help` and
 * `-v, --version` to every command.
 */
export function sadeProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode {
  const a0 = call.arguments[0];
  const usage = a0 ? ev.stringOf(a0) : undefined;
  const words = usage === undefined ? [] : [...usage.matchAll(/\S+/g)];
  const name = words[0]?.[0];
  const node = ev.created(newNode('sade', ev.location(call), name !== undefined ? { name, program: true } : { program: true }));
  if (a0) for (const w of words.slice(1)) positional(ev, node, a0, w[0], w.index ?? 0);
  node.params.push(...builtInFlagSpecs('sade', { root: true, location: ev.location(call) }));
  return node;
}

/** Applies a method of a sade program; every chainable one returns the program. */
export function applySade(ev: FlagEvaluator, program: CommandNode, method: string, call: ts.CallExpression): Value | undefined {
  const [a0, a1, a2] = call.arguments;
  const same: Value = { kind: 'command', node: program };
  const target = program.current ?? program;
  switch (method) {
    case 'command':
      sadeCommand(ev, program, a0, a1, a2);
      break;
    case 'option':
      addSadeOption(ev, target, a0, a1, a2);
      break;
    case 'describe': {
      const text = a0 ? (ev.stringsOf(a0) ?? []).join(' ') : '';
      if (text !== '') target.description = text;
      break;
    }
    case 'alias':
      for (const arg of call.arguments) for (const alias of ev.stringsOf(arg) ?? []) if (target !== program) pushUnique(target.aliases, alias);
      break;
    case 'parse':
      program.parsed = true;
      return undefined;
    default:
      if (NOT_CHAINABLE.has(method)) return undefined;
  }
  return same;
}

/** `<file>` (required) or `[dir]` (optional) in a usage string, as a positional argument of `node`. */
function positional(ev: FlagEvaluator, node: CommandNode, literal: ts.Node, token: string, index: number): void {
  const m = /^([<[])(\.\.\.)?([^<>[\].]+)(\.\.\.)?[>\]]$/.exec(token);
  const name = m?.[3];
  if (!m || !name) return;
  const spec = newParam(name, ev.tokenLocation(literal, index + 1 + (m[2] ? 3 : 0), name.length));
  spec.positional = true;
  spec.required = m[1] === '<';
  spec.type = m[2] || m[4] ? 'string[]' : 'string';
  node.params.push(spec);
}

/**
 * `.command('remote add <name> [url]', description?, { alias, default })`: the words before the
 * first argument are the command's path (a multi-word name nests under the first words), the
 * arguments its positionals; it becomes the current command.
 */
function sadeCommand(ev: FlagEvaluator, program: CommandNode, a0: ts.Node | undefined, a1: ts.Node | undefined, a2: ts.Node | undefined): void {
  const usage = a0 ? ev.stringOf(a0) : undefined;
  if (!a0 || usage === undefined) {
    if (a0) {
      program.dynamicSubcommands = true;
      program.dynamicSubcommandsBy = 'sade `.command(name)` with a name docdrift cannot read';
    }
    delete program.current;
    return;
  }
  const tokens = [...usage.matchAll(/\S+/g)];
  const words = tokens.filter((t) => !/^[<[]/.test(t[0]));
  if (words.length === 0) return;
  if (words.length > MAX_SADE_PATH_WORDS) {
    ev.warn(a0, `sade \`.command()\` names a path of ${words.length} words, over the limit of ${MAX_SADE_PATH_WORDS}: the command and its options are not read`);
    // Its `.option()`, `.describe()` and `.alias()` calls go to a command of no program.
    program.current = newNode('sade', ev.location(a0), { name: words[0]?.[0] ?? '' });
    return;
  }
  let parent = program;
  for (const w of words.slice(0, -1)) {
    let next = parent.children.find((c) => c.name === w[0]);
    if (!next) {
      next = ev.created(newNode('sade', ev.tokenLocation(a0, w.index ?? 0, w[0].length), { name: w[0] }));
      attach(parent, next);
    }
    parent = next;
  }
  const last = words[words.length - 1] as RegExpMatchArray;
  const child = ev.created(newNode('sade', ev.tokenLocation(a0, last.index ?? 0, last[0].length), { name: last[0] }));
  attach(parent, child);
  for (const t of tokens) if (/^[<[]/.test(t[0])) positional(ev, child, a0, t[0], t.index ?? 0);
  const description = a1 ? ev.stringOf(a1) : undefined;
  if (description) child.description = description;
  for (const e of ev.objectEntries(a2) ?? []) {
    if (e.key === 'alias') for (const alias of ev.stringsOf(e.value) ?? []) pushUnique(child.aliases, alias);
    if (e.key === 'default' && ev.booleanOf(e.value) === true && words.length === 1) program.defaultCommand = last[0];
  }
  program.current = child;
}

/**
 * `.option('-p, --port', description?, value?)`, as sade splits it: two spellings, the longer
 * the name and the one-letter one its alias (value placeholders, which sade does not support,
 * are skipped). The type is the default value's (`3000` → `number`, `'dist'` → `string`,
 * `false` → `boolean`, which mri also accepts as `--no-x`); without a default it is unknown.
 * A flags string docdrift cannot read makes the command accept flags it does not know.
 */
function addSadeOption(ev: FlagEvaluator, node: CommandNode, a0: ts.Node | undefined, a1: ts.Node | undefined, a2: ts.Node | undefined): void {
  const text = a0 ? ev.stringOf(a0) : undefined;
  if (!a0 || text === undefined) {
    if (a0) node.passesUnknownFlags = true;
    return;
  }
  const parts = [...text.matchAll(/[^\s,]+/g)].filter((m) => !/^[<[]/.test(m[0]) && m[0].replace(/^-+/, '') !== '');
  let [first, second] = parts;
  if (!first) return;
  const bare = (m: RegExpMatchArray): string => m[0].replace(/^-+/, '');
  if (second && bare(second).length > 1) [first, second] = [second, first];
  const name = bare(first);
  const dashes = first[0].length - name.length;
  const spec = newParam(name, ev.tokenLocation(a0, (first.index ?? 0) + dashes, name.length));
  spec.dest = name;
  if (second) addAlias(spec, bare(second));
  const description = a1 ? ev.stringOf(a1) : undefined;
  if (description !== undefined) spec.description = description;
  if (a2 && ts.isExpression(a2)) {
    spec.default = ev.defaultOf(a2);
    const type = spec.default.kind === 'literal' ? literalType(spec.default.text) : undefined;
    if (type !== undefined) spec.type = type;
    if (type === 'boolean') spec.negatable = true;
  }
  if (!node.params.some((p) => !p.positional && p.name === spec.name)) node.params.push(spec);
}

/** The type of a literal as written (`3000` → `number`, `'dist'` → `string`, `false` → `boolean`, `[]` → `array`). */
function literalType(text: string): string | undefined {
  if (/^[-+]?(?:\d|\.\d)/.test(text)) return 'number';
  if (/^['"`]/.test(text)) return 'string';
  if (text === 'true' || text === 'false') return 'boolean';
  if (text.startsWith('[')) return 'array';
  return undefined;
}
