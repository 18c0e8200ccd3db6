/**
 * meow semantics (https://github.com/sindresorhus/meow, read against meow 14's `source/index.js`
 * and `source/parser.js`): one call `meow(help, options)` or `meow(options)` declares the whole
 * program, and its help text is the program's own `--help` output.
 */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { addAlias, attach, camelCase, newNode, newParam, type CommandNode } from './flags-node.js';
import { kebabCase } from './flags-parsers.js';
import { skipOuter } from './syntax.js';
import type { Entry, FlagEvaluator } from './types.js';

const TYPES = new Set(['string', 'boolean', 'number']);

/**
 * The program a `meow(…)` call declares (framework `meow`, parsed): each key of `flags` is a
 * flag spelled in kebab case (`outDir` → `--out-dir`; meow also accepts `--outDir`, an alias),
 * with `type` (`isMultiple` makes `string[]`…), `shortFlag` (meow < 12: `alias`) and `aliases`
 * as aliases, `default`, `isRequired: true` (a function, which decides at run time, is not
 * read), `choices`; booleans are negatable (`--no-x`). meow has no description per flag: a
 * flag's description is its line in the help text (`--rainbow, -r  Include a rainbow`).
 * `commands: ['run', 'list']` (meow 14) gives sub-commands that take the program's flags.
 *
 * Without a `flags` object the help text is the declaration: each option line's first long
 * flag, its other spellings as aliases. With `flags`, an option line naming no declared flag is a
 * flag too (no type), unless `allowUnknownFlags: false`: meow passes undeclared flags to the
 * program, which may read them. With neither, or with `flags` docdrift cannot read (built at run
 * time), the program accepts flags docdrift does not know (`passesUnknownFlags`).
 */
export function meowProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode {
  const [a0, a1] = call.arguments;
  const node = ev.created(newNode('meow', ev.location(call), { program: true }));
  node.parsed = true;
  const first = a0 ? ev.objectEntries(a0) : undefined;
  const options = first ?? (a1 ? ev.objectEntries(a1) : undefined) ?? [];
  const helpNode = first ? options.find((e) => e.key === 'help')?.value : a0;
  const help = helpNode ? helpLines(ev, helpNode) : [];
  const flagsEntry = options.find((e) => e.key === 'flags');
  const flags = flagsEntry ? ev.objectEntries(flagsEntry.value) : undefined;
  if (flagsEntry && !flags) node.passesUnknownFlags = true;
  else if (flagsEntry) ev.markUnreadParts(node, ev.evaluate(flagsEntry.value));
  for (const flag of flags ?? []) node.params.push(meowFlag(ev, flag));
  // meow accepts flags `flags` does not declare unless `allowUnknownFlags: false`, and the program
  // may read them (`cli.flags.foo`): an option line of its help text is then a flag too.
  const strict = ev.booleanOf(options.find((e) => e.key === 'allowUnknownFlags')?.value) === false;
  if (!flagsEntry || (flags && !strict)) for (const line of help) node.params.push(...helpFlag(ev, line, node.params));
  if (!flagsEntry && node.params.length === 0) node.passesUnknownFlags = true;
  for (const spec of node.params) {
    if (spec.description !== undefined) continue;
    const line = help.find((l) => [spec.name, ...spec.aliases].some((n) => l.names.includes(n)));
    if (line && line.description !== '') spec.description = line.description;
  }
  const description = options.find((e) => e.key === 'description')?.value;
  const text = description ? ev.stringOf(description) : undefined;
  if (text) node.description = text;
  const commands = options.find((e) => e.key === 'commands')?.value;
  for (const name of (commands && ev.stringsOf(commands)) ?? []) attach(node, ev.created(newNode('meow', ev.location(commands as ts.Node), { name })));
  return node;
}

function meowFlag(ev: FlagEvaluator, flag: Entry): ParamSpec {
  const spec = newParam(kebabCase(flag.key), ev.location(flag.keyNode));
  spec.dest = camelCase(flag.key);
  let type: string | undefined;
  let multiple = false;
  for (const e of ev.objectEntries(flag.value) ?? []) {
    switch (e.key) {
      case 'type': {
        const t = ev.stringOf(e.value);
        if (t !== undefined && TYPES.has(t)) type = t;
        break;
      }
      case 'shortFlag':
      case 'alias':
      case 'aliases':
        for (const alias of ev.stringsOf(e.value) ?? []) addAlias(spec, alias);
        break;
      case 'default':
        if (ts.isExpression(e.value)) spec.default = ev.defaultOf(e.value);
        break;
      case 'isRequired':
        spec.required = ev.booleanOf(e.value) === true;
        break;
      case 'isMultiple':
        multiple = ev.booleanOf(e.value) === true;
        break;
      case 'choices': {
        const choices = ev.stringsOf(e.value, true);
        if (choices) spec.choices = choices;
        break;
      }
      default:
        break;
    }
  }
  if (type !== undefined) spec.type = multiple ? `${type}[]` : type;
  if (type === 'boolean') spec.negatable = true;
  return spec;
}

/** An option line of a help text: its flag spellings without dashes, its description, and where its first flag is. */
interface HelpLine {
  names: string[];
  description: string;
  /** The first long flag (else the first flag) and its offset in the help literal's value. */
  main: { name: string; index: number };
  literal: ts.Node;
}

/**
 * A flag column followed by a description after two spaces or a tab: `--rainbow, -r  Include a
 * rainbow`, `-p, --port <n>  Port (default 3000)`, `--out-dir=<dir>  Output`.
 */
const OPTION_LINE = /^([ \t]*)(-{1,2}[A-Za-z0-9][\w.-]*(?:[= ]?(?:<[^>\n]*>|\[[^\]\n]*\]))?(?:,?[ \t]+-{1,2}[A-Za-z0-9][\w.-]*(?:[= ]?(?:<[^>\n]*>|\[[^\]\n]*\]))?)*)(?: {2,}|\t+)(\S.*)$/;

/** Longest help-text line read as an option line, in UTF-16 code units (s27 recheck list). */
const MAX_OPTION_LINE = 2000;

/** The option lines of a help text given as a string or a template (substitutions that are no known string read as nothing). */
function helpLines(ev: FlagEvaluator, node: ts.Node): HelpLine[] {
  const literal = ts.isExpression(node) ? skipOuter(node) : node;
  const text = ev.stringOf(literal) ?? (ts.isTemplateExpression(literal) ? literal.head.text + literal.templateSpans.map((s) => (ev.stringOf(s.expression) ?? '') + s.literal.text).join('') : undefined);
  if (text === undefined) return [];
  const out: HelpLine[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    // OPTION_LINE is quadratic in a long run of flags; an option line of a help text is short
    // (at most MAX_OPTION_LINE characters: 2,000 cost under 5 ms at worst).
    const m = line.length > MAX_OPTION_LINE ? null : OPTION_LINE.exec(line);
    if (m) {
      const column = (m[1] ?? '').length;
      const flags = [...(m[2] ?? '').matchAll(/-{1,2}([A-Za-z0-9][\w.-]*)/g)];
      const names = flags.map((f) => (f[1] as string).replace(/^no-/, ''));
      const main = flags.find((f) => f[0].startsWith('--')) ?? flags[0];
      if (main) {
        const name = (main[1] as string).replace(/^no-/, '');
        const at = offset + column + (main.index ?? 0) + main[0].length - name.length;
        out.push({ names, description: (m[3] ?? '').trim(), main: { name, index: at }, literal });
      }
    }
    offset += line.length + 1;
  }
  return out;
}

/** A flag the help text names and `flags` does not declare; `--help`/`--version` are meow's own. */
function helpFlag(ev: FlagEvaluator, line: HelpLine, have: readonly ParamSpec[]): ParamSpec[] {
  const { name } = line.main;
  if (name === 'help' || name === 'version' || have.some((p) => line.names.some((n) => n === p.name || p.aliases.includes(n)))) return [];
  const spec = newParam(name, ev.tokenLocation(line.literal, line.main.index, name.length));
  spec.dest = camelCase(name);
  for (const n of line.names) addAlias(spec, n);
  return [spec];
}
