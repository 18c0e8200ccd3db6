/**
 * cac semantics (https://github.com/cacjs/cac, read against cac 6.7/7.1's `src/Option.ts`,
 * `src/Command.ts`, `src/CAC.ts`): what `cac(name)`, `cli.option`, `cli.command` and each
 * Command method do to a command node.
 */
import { ts } from 'ts-morph';
import { builtInFlagSpecs } from '../builtin-flags.js';
import { addAlias, attach, camelCase, mergeOptionStrings, mriSpellings, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { skipOuter, sourceFileOf } from './syntax.js';
import type { FlagEvaluator, Value } from './types.js';
import { pushUnique } from '../../shared/arrays.js';

/** Methods whose result is no command (the parsed argv, help text, a promise). */
/**
 * Sub-commands of one cac program read at most, as for Python programs (#33 fresh sweep: 50,000
 * `cli.command()` calls peaked at 507 MB). Past it a warning names the call and the cap, and the
 * program's other sub-commands are unknown (`dynamicSubcommands`).
 */
export const MAX_CAC_COMMANDS = 10_000;

const NOT_CHAINABLE = new Set(['parse', 'runMatchedCommand', 'outputHelp', 'outputVersion', 'isMatched', 'hasOption', 'checkUnknownOptions', 'checkOptionValue', 'checkRequiredArgs']);

/**
 * `cac(name?)` (also `require('cac')(name)`, `new CAC(name)`): a program named `name`. Its
 * `.option()` calls are global options, which cac accepts on every command.
 */
export function cacProgram(ev: FlagEvaluator, call: ts.CallExpression | ts.NewExpression): CommandNode {
  const a0 = call.arguments?.[0];
  const name = a0 ? ev.stringOf(a0) : undefined;
  return ev.created(newNode('cac', ev.location(call), name ? { name, program: true } : { program: true }));
}

/**
 * Applies a method of the cac program or of one of its commands; returns what the chain
 * continues on. `cli.command('build [root]')` returns the new command; the default command (a
 * name that is only brackets or empty, `cli.command('[...files]')`) is a node of its own that
 * {@link finishCacProgram} merges into the program.
 */
export function applyCac(ev: FlagEvaluator, node: CommandNode, method: string, call: ts.CallExpression): Value | undefined {
  const [a0, a1, a2] = call.arguments;
  const same: Value = { kind: 'command', node };
  switch (method) {
    case 'option':
      addCacOption(ev, node, a0, a1, a2);
      break;
    case 'command':
      if (!node.program) return undefined; // only the CAC instance has commands
      return cacCommand(ev, node, call) ?? same;
    case 'alias': {
      const alias = a0 && ev.stringOf(a0);
      if (alias === undefined || node.program) break;
      // `.alias('!')` makes the command the default one.
      if (alias === '!') {
        if (node.parent && node.name !== undefined) node.parent.defaultCommand = node.name;
      } else pushUnique(node.aliases, alias);
      break;
    }
    case 'version': {
      if (!a0) return undefined;
      // `-v, --version` unless the second argument spells it otherwise; a global option.
      const flags = a1 ? ev.stringOf(a1) : undefined;
      const names = flags === undefined ? ['version', 'v'] : cacNames(flags).map((n) => n.name);
      node.params.push(...builtInFlagSpecs('cac', { root: true, version: true, location: ev.location(callName(call)), spellings: { version: names } }));
      break;
    }
    case 'allowUnknownOptions':
      node.passesUnknownFlags = true;
      break;
    case 'parse':
      node.parsed = true;
      return undefined;
    default:
      if (NOT_CHAINABLE.has(method)) return undefined;
  }
  return same;
}

function callName(call: ts.CallExpression): ts.Node {
  return ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call;
}

/** One spelling of a cac option: the name without dashes and its place in the raw name. */
interface CacName {
  name: string;
  index: number;
  length: number;
  negated: boolean;
  /** The spelling with its dashes (`--g`, `--no-x`), `.*` dropped. */
  spelling: string;
}

/** The spellings of a raw option name as cac's `Option` reads them: brackets and `.*` dropped, split at commas, `no-` stripped. */
function cacNames(rawName: string): CacName[] {
  const cut = rawName.search(/[<[]/);
  const head = cut < 0 ? rawName : rawName.slice(0, cut);
  const out: CacName[] = [];
  for (const m of head.matchAll(/[^,\s]+/g)) {
    const spelling = m[0].replace(/\.\*$/, '');
    const dashes = /^-{0,2}/.exec(spelling)?.[0].length ?? 0;
    const token = spelling.slice(dashes);
    if (token === '') continue;
    const negated = token.startsWith('no-');
    const name = negated ? token.slice(3) : token;
    out.push({ name, index: (m.index ?? 0) + dashes + (negated ? 3 : 0), length: name.length, negated, spelling });
  }
  return out;
}

/**
 * `.option(rawName, description?, { default, type })`: the longest spelling names the option
 * (cac's `names` sorted by length), others are aliases; `--no-x` is a negatable `x` (merged with
 * `--x`), and so is every boolean (mri reads `--no-x` for any flag); `<v>` takes a value (`string`), `[v]` an optional one (`string | boolean`), none is a
 * `boolean`; `type: [Number]` makes `number[]`, `type: [String]` `string[]`, another function no
 * known type. `dest` is cac's
 * camel-case key (`--out-dir` → `outDir`, which cac also accepts as `--outDir`). A flags string
 * docdrift cannot read makes the command accept flags it does not know (no false "unknown").
 */
function addCacOption(ev: FlagEvaluator, node: CommandNode, a0: ts.Node | undefined, a1: ts.Node | undefined, a2: ts.Node | undefined): void {
  const raw = a0 ? ev.stringOf(a0) : undefined;
  if (!a0 || raw === undefined) {
    if (a0) node.passesUnknownFlags = true;
    return;
  }
  const names = cacNames(raw);
  if (names.length === 0) return;
  const long = names.reduce((best, n) => (n.name.length > best.name.length ? n : best));
  const spec = newParam(long.name, ev.tokenLocation(a0, long.index, long.length));
  for (const n of names) addAlias(spec, n.name);
  spec.dest = camelCase(long.name);
  // `--g`, a one-letter name after two dashes, is shown as declared; mri, which cac parses with,
  // reads `-g` as the same option, so both are accepted.
  const declared = declaredOptionStrings(names.map((n) => n.spelling));
  if (declared) spec.optionStrings = mriSpellings(declared);
  const negated = names.some((n) => n.negated);
  const value = /</.test(raw) ? 'required' : /\[/.test(raw) ? 'optional' : 'none';
  spec.type = value === 'none' ? 'boolean' : value === 'required' ? 'string' : 'string | boolean';
  // mri, which cac parses with, reads `--no-x` as `x: false` for any option.
  if (negated || spec.type === 'boolean') spec.negatable = true;
  const description = a1 ? ev.stringOf(a1) : undefined;
  if (description !== undefined) spec.description = description;
  for (const e of ev.objectEntries(a2) ?? []) {
    if (e.key === 'default' && ts.isExpression(e.value)) spec.default = ev.defaultOf(e.value);
    else if (e.key === 'type') {
      const v = ts.isExpression(e.value) ? skipOuter(e.value) : undefined;
      const item = v && ts.isArrayLiteralExpression(v) ? v.elements[0] : undefined;
      const text = item ? item.getText(sourceFileOf(item)) : undefined;
      if (text === 'Number' || text === 'String' || text === 'Boolean') spec.type = `${text.toLowerCase()}[]`;
      // A function of its own (`type: [convertHost]`) makes whatever it returns.
      else delete spec.type;
    }
  }
  if (spec.type === 'string' && spec.default?.kind === 'literal' && /^-?\d/.test(spec.default.text)) spec.type = 'number';
  const existing = node.params.find((p) => !p.positional && (p.name === spec.name || p.dest === spec.dest));
  if (!existing) {
    node.params.push(spec);
    return;
  }
  // `--x` and `--no-x` are one option.
  if (negated || spec.negatable) existing.negatable = true;
  if (!negated && existing.type === 'boolean' && spec.type !== 'boolean') existing.type = spec.type;
  for (const alias of [spec.name, ...spec.aliases]) addAlias(existing, alias);
  mergeOptionStrings(existing, spec);
  existing.description ??= spec.description;
  existing.default ??= spec.default;
}

/** `cli.command('build [root]', description?, config?)`: a sub-command with its positional arguments; an empty name is the default command (the program). */
function cacCommand(ev: FlagEvaluator, program: CommandNode, call: ts.CallExpression): Value | undefined {
  const [a0, a1] = call.arguments;
  const raw = a0 ? ev.stringOf(a0) : undefined;
  if (!a0 || raw === undefined) {
    if (a0) {
      program.dynamicSubcommands = true;
      program.dynamicSubcommandsBy = 'cac `.command(name)` with a name docdrift cannot read';
    }
    return undefined;
  }
  const cut = raw.search(/[<[]/);
  const name = (cut < 0 ? raw : raw.slice(0, cut)).trim();
  if (name !== '' && program.children.length >= MAX_CAC_COMMANDS) {
    if (!program.dynamicSubcommands) {
      ev.warn(a0, `cac program \`${program.name ?? ''}\` defines more than ${MAX_CAC_COMMANDS.toLocaleString('en-US')} sub-commands; only the first ${MAX_CAC_COMMANDS.toLocaleString('en-US')} are read, the others are unknown`);
    }
    program.dynamicSubcommands = true;
    program.dynamicSubcommandsBy = `a cac program of more than ${MAX_CAC_COMMANDS.toLocaleString('en-US')} \`.command()\` calls`;
    // Its `.option()`, `.alias()` calls go to a command of no program (garbage once read).
    return { kind: 'command', node: newNode('cac', ev.location(a0), { name }) };
  }
  let target: CommandNode;
  const description = a1 ? ev.stringOf(a1) : undefined;
  if (name !== '') {
    const at = raw.indexOf(name);
    target = ev.created(newNode('cac', ev.tokenLocation(a0, at, name.length), { name }));
    attach(program, target);
  } else {
    // The default command: one per program (cac runs the first one it finds).
    target = program.defaultNode ??= newNode('cac', ev.location(a0));
  }
  if (description) target.description ??= description;
  const seen = new Set(target.params.filter((p) => p.positional).map((p) => p.name));
  for (const m of cacBrackets(raw)) {
    let arg = m.text.trim();
    const variadic = arg.startsWith('...');
    if (variadic) arg = arg.slice(3);
    if (arg === '' || seen.has(arg)) continue;
    seen.add(arg);
    const spec = newParam(arg, ev.tokenLocation(a0, m.index + 1 + (variadic ? 3 : 0), arg.length));
    spec.positional = true;
    spec.required = m.required;
    spec.type = variadic ? 'string[]' : 'string';
    target.params.push(spec);
  }
  return { kind: 'command', node: target };
}

/**
 * The `<required>` and `[optional]` brackets of a cac command string, left to right, as
 * `/<([^>]+)>|\[([^\]]+)\]/g` finds them (`text` between the brackets, `index` of the opener),
 * in linear time: that regex rescanned to the end from every opener with no closer (150,000 `<`:
 * 20.6 s, s26 sweep D5); here a closer not found once is not searched for again.
 */
export function* cacBrackets(raw: string): Generator<{ text: string; index: number; required: boolean }> {
  let noAngle = false;
  let noSquare = false;
  for (let i = 0; i < raw.length; ) {
    const c = raw[i];
    const required = c === '<';
    if ((required && !noAngle) || (c === '[' && !noSquare)) {
      const close = raw.indexOf(required ? '>' : ']', i + 1);
      if (close < 0) {
        if (required) noAngle = true;
        else noSquare = true;
      } else if (close > i + 1) {
        yield { text: raw.slice(i + 1, close), index: i, required };
        i = close + 1;
        continue;
      }
    }
    i++;
  }
}

/**
 * Merges a cac program's default command into it, once every definition is read: its options
 * and arguments become the program's (cac runs it when no sub-command is named; docdrift then
 * also accepts them after a sub-command word, which cac does not), and its aliases
 * (`cli.command('[root]').alias('serve').alias('dev')`) become one sub-command `serve` (alias
 * `dev`) that takes the same arguments and, as a sub-command, the program's options: cac runs
 * the default command under those names too. Its options stay the program's only, so that one
 * reference section (the program's) documents them.
 */
export function finishCacProgram(ev: FlagEvaluator, program: CommandNode): void {
  const d = program.defaultNode;
  if (!d) return;
  delete program.defaultNode;
  const had = new Set(program.params.map((q) => `${q.positional ? 'p' : 'o'}:${q.name}`));
  program.params.push(...d.params.filter((p) => !had.has(`${p.positional ? 'p' : 'o'}:${p.name}`)));
  if (d.description !== undefined) program.description ??= d.description;
  if (d.passesUnknownFlags) program.passesUnknownFlags = true;
  const [first, ...rest] = d.aliases;
  if (first === undefined || program.children.some((c) => c.name === first)) return;
  const child = ev.created(newNode('cac', d.location, { name: first }));
  child.aliases = rest;
  child.params = d.params.filter((p) => p.positional);
  if (d.description !== undefined) child.description = d.description;
  if (d.passesUnknownFlags) child.passesUnknownFlags = true;
  attach(program, child);
}
