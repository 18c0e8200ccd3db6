/** docopt flags: `docopt(__doc__)` / `docopt(USAGE)` programs, whose usage text is the declaration of the command line. */
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { MAX_DOCOPT_OPTIONS, MAX_DOCOPT_SHORTCUT_OPTIONS, parseDocopt, type DocoptOption } from './docopt-usage.js';
import { callsTo, flagSpec, locate, type FlagContext, type FlagModule } from './flags-common.js';
import { UNIVERSAL_SPELLINGS } from '../builtin-flags.js';
import type { FlagCommand } from './types.js';
import { allChildren, dottedName, identifierText, namedChildren, stringValue, unparen } from './values.js';
import { literalConst, strMethod } from './partial-eval.js';
import { lineIndexAt } from '../../shared/strings.js';

/** `docopt.docopt` (docopt 0.6 and docopt-ng, both imported as `docopt`). */
const DOCOPT = new Set(['docopt.docopt', 'docopt_ng.docopt']);

/**
 * Commands (distinct leading command paths) of one docopt program read at most (#33 fresh sweep
 * D5: 5,000 usage lines of 50 options each held 250,000 parameters, 378 MB). Past it the
 * program's own command has its other sub-commands unknown, and a warning names the file and the
 * cap. Real programs have a few dozen.
 */
export const MAX_DOCOPT_COMMANDS = 1000;

/** A usage text and how to place an offset of it in the file. */
interface UsageText {
  text: string;
  module: FlagModule;
  /** The source location of an offset in {@link text} (the string node's start when it cannot be exact). */
  at: (offset: number, length: number) => SourceLocation;
}

/**
 * Reads docopt programs: every `docopt(doc, …)` call (`from docopt import docopt`, `import
 * docopt; docopt.docopt(…)`, docopt-ng) whose first argument is `__doc__` (the module docstring),
 * `fn.__doc__` of a top-level function, a string literal, or a module-level constant holding one
 * (here or imported). The text is parsed as docopt parses it ({@link parseDocopt}): the usage
 * patterns give the sub-commands (their leading command words) and positional arguments, the
 * `Options:` sections the flags with their short/long spellings, whether they take a value
 * (`--speed=<kn>`, `-o FILE`) and their `[default: x]` (a string, as docopt returns it). `-h/--help`
 * and `--version` are docopt's own (known for every command, not repeated).
 *
 * Called at module level (also under `if __name__ == "__main__":`) the program's target is the
 * module; inside a top-level function, that function and its callers (`module:main`).
 *
 * `doc.format(…)` and `doc % …` are read as `doc` when no placeholder is in its usage or options
 * part (`cbeams v{version}` in the title). A text derived from a known one by `str` methods,
 * `'sep'.join(…)` and slicing is computed (`'\n\n\n'.join(__doc__.split('\n\n\n')[1:])`, grip). Not read, said once as a warning naming the file and
 * the call: a usage text built at run time (placeholders in the usage, f-strings, a name docdrift
 * cannot follow), or a text with no (or
 * several) `usage:` sections. Options given after a command that follows a positional
 * (`ship <name> move --speed=<kn>`) count for the leading words' command (`ship`).
 */
export function extractDocopt(ctx: FlagContext, diagnostics: InputDiagnostic[]): FlagCommand[] {
  const out: FlagCommand[] = [];
  for (const module of ctx.modules.values()) {
    if (![...module.info.bindings.values()].some((b) => (b.kind === 'module' ? b.target : b.module).startsWith('docopt'))) continue;
    for (const { call, args, fnName } of callsTo(ctx, module, DOCOPT)) {
      const first = args.positional[0] ?? args.keywords.get('doc');
      const usage = first ? usageText(ctx, module, first) : undefined;
      const program = usage ? parseDocopt(usage.text) : undefined;
      if (!usage || !program) {
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message: `${module.info.file}:${call.startPosition.row + 1}: the usage text of \`${call.childForFieldName('function')?.text ?? 'docopt'}(…)\` ${usage ? 'has no single `usage:` section' : 'is built at run time'}; docdrift does not read its flags`,
          location: locate(module, call),
        });
        continue;
      }
      const targets = fnName === undefined ? [module.info.module] : [`${module.info.module}:${fnName}`, ...ctx.callers({ module, name: fnName })];
      const label = program.name.replace(/\.py$/, '');
      const cut = program.commands.length > MAX_DOCOPT_COMMANDS;
      if (cut) {
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message: `${module.info.file}:${call.startPosition.row + 1}: the usage text of \`${call.childForFieldName('function')?.text ?? 'docopt'}(…)\` gives ${program.commands.length.toLocaleString('en-US')} commands; only the first ${MAX_DOCOPT_COMMANDS.toLocaleString('en-US')} are read, the others are unknown`,
          location: locate(module, call),
        });
      }
      if (program.optionsCut !== undefined) {
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message: `${module.info.file}:${call.startPosition.row + 1}: the usage text of \`${call.childForFieldName('function')?.text ?? 'docopt'}(…)\` declares more than ${MAX_DOCOPT_OPTIONS.toLocaleString('en-US')} options; only the first ${MAX_DOCOPT_OPTIONS.toLocaleString('en-US')} are read, the other ${program.optionsCut.toLocaleString('en-US')} are unknown`,
          location: locate(module, call),
        });
      }
      const omitted = program.commands.filter((c) => c.restOmitted).length;
      if (omitted > 0) {
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message: `${module.info.file}:${call.startPosition.row + 1}: the usage text of \`${call.childForFieldName('function')?.text ?? 'docopt'}(…)\` adds its options to more commands through \`[options]\` than docdrift expands (${MAX_DOCOPT_SHORTCUT_OPTIONS.toLocaleString('en-US')} options in all); the \`[options]\` of ${omitted.toLocaleString('en-US')} commands are unknown`,
          location: locate(module, call),
        });
      }
      // Past the option cap any flag may be one not read: unknown flags are no drift then.
      const unread = program.optionsCut !== undefined ? { passesUnknownFlags: true } : {};
      for (const command of cut ? program.commands.slice(0, MAX_DOCOPT_COMMANDS) : program.commands) {
        const owner = [label, ...command.path].join(' ');
        const params: ParamSpec[] = [];
        for (const option of command.options) {
          const spec = optionSpec(option, usage);
          if (spec) params.push({ ...spec, owner });
        }
        for (const p of command.positionals) {
          params.push({
            ...flagSpec({
              name: p.name, aliases: [], required: p.required, deprecated: false, hidden: false, location: usage.at(p.offset, p.length),
              dest: p.name, positional: true, ...(p.variadic ? { variadic: true } : {}),
            }),
            owner,
          });
        }
        const location = command.path.length === 0 ? locate(module, call) : usage.at(command.offset, program.name.length);
        const unknown = cut && command.path.length === 0 ? { dynamicSubcommands: true, dynamicSubcommandsBy: `a docopt usage text of more than ${MAX_DOCOPT_COMMANDS.toLocaleString('en-US')} commands` } : {};
        const restUnread = command.restOmitted ? { passesUnknownFlags: true } : {};
        for (const target of targets) out.push({ path: command.path, target, params, location, ...unknown, ...unread, ...restUnread });
      }
    }
  }
  return out;
}

/** One docopt option as a flag ParamSpec; undefined for docopt's own `--help`/`--version`. */
function optionSpec(option: DocoptOption, usage: UsageText): ParamSpec | undefined {
  const spellings = [option.long, option.short].filter((s): s is string => s !== undefined).map((s) => s.replace(/^--?/, ''));
  if (spellings.every((s) => UNIVERSAL_SPELLINGS.has(s))) return undefined;
  const [name, ...aliases] = spellings as [string, ...string[]];
  return flagSpec({
    name,
    aliases,
    ...(option.argcount === 0 ? { type: 'bool', default: { kind: 'literal' as const, text: 'False' } } : {}),
    ...(option.default !== undefined ? { default: { kind: 'literal' as const, text: JSON.stringify(option.default) } } : {}),
    required: false,
    ...(option.description !== undefined ? { description: option.description } : {}),
    deprecated: false,
    hidden: false,
    location: usage.at(option.offset, option.length),
    dest: option.long ?? option.short ?? name,
  });
}

/** The docstring node of a module or function body: its first statement when that is a string. */
function docstringNode(body: Node | null | undefined): Node | undefined {
  const first = body ? namedChildren(body)[0] : undefined;
  const expr = first?.type === 'expression_statement' ? namedChildren(first)[0] : undefined;
  return expr && (expr.type === 'string' || expr.type === 'concatenated_string') ? expr : undefined;
}

/** The usage text an argument of `docopt(…)` stands for, when it is known statically. */
function usageText(ctx: FlagContext, module: FlagModule, arg: Node, depth = 0): UsageText | undefined {
  const n = unparen(arg);
  if (depth > 16) return undefined;
  if (n.type === 'string' || n.type === 'concatenated_string') return fromString(module, n);
  // `doc.format(version=v)` / `doc % v`: the template, when no placeholder is in its usage or
  // options part (a version in the title changes no flag).
  const template = n.type === 'call' && n.childForFieldName('function')?.type === 'attribute' && identifierText(n.childForFieldName('function')?.childForFieldName('attribute')) === 'format'
    ? n.childForFieldName('function')!.childForFieldName('object')
    : n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '%' ? n.childForFieldName('left') : null;
  if (template) {
    const inner = usageText(ctx, module, template, depth + 1);
    const at = inner ? inner.text.search(/usage:/i) : -1;
    return inner && at >= 0 && !/\{[^{}]*\}|%[(\w]/.test(inner.text.slice(at)) ? inner : undefined;
  }
  if (n.type === 'call' || n.type === 'subscript') {
    const value = derivedText(ctx, module, n, depth + 1);
    return value && typeof value.value === 'string' ? placed(value.base, value.value) : undefined;
  }
  const dotted = dottedName(n);
  if (!dotted) return undefined;
  if (dotted.length === 1 && dotted[0] === '__doc__') {
    const doc = docstringNode(module.root);
    return doc ? fromString(module, doc) : undefined;
  }
  if (dotted.length >= 2 && dotted.at(-1) === '__doc__') {
    const fn = ctx.symbol(module, dotted.slice(0, -1));
    const def = fn?.module.functions.get(fn.name)?.def;
    const doc = def ? docstringNode(def.childForFieldName('body')) : undefined;
    return doc && fn ? fromString(fn.module, doc) : undefined;
  }
  const symbol = ctx.symbol(module, dotted);
  const right = symbol && !symbol.module.functions.has(symbol.name) ? symbol.module.assigns.get(symbol.name) : undefined;
  return symbol && right ? usageText(ctx, symbol.module, right, depth + 1) : undefined;
}

/** A text or list of texts computed from a known usage text `base` (see {@link derivedText}). */
interface Derived {
  value: string | string[];
  base: UsageText;
}

/**
 * A text derived from a known one by the `str` methods of `strMethod` (`doc.split('\n\n\n')`,
 * `doc.strip()`, `doc.replace(a, b)`), `'sep'.join(list)`, and indexing or slicing without a step
 * (`parts[1:]`, `parts[-1]`, `doc[10:]`), as grip builds its usage:
 * `'\n\n\n'.join(__doc__.split('\n\n\n')[1:])`. Computed exactly, as Python would; anything
 * else (other methods, unknown arguments) is unknown.
 */
/**
 * A slice without a step (`[1:]`, `[:-1]`, `[a:b]`), blanks around the bounds: each bound takes the
 * blanks after it, so no two blank runs meet (`\s*(-?\d+)?\s*:` split a blank run every way,
 * s27 recheck list).
 */
export const SLICE = /^\s*(?:(-?\d+)\s*)?:\s*(?:(-?\d+)\s*)?$/;

function derivedText(ctx: FlagContext, module: FlagModule, node: Node, depth: number): Derived | undefined {
  const n = unparen(node);
  if (depth > 16) return undefined;
  if (n.type === 'subscript') {
    const inner = derivedText(ctx, module, n.childForFieldName('value')!, depth + 1);
    const index = n.childForFieldName('subscript');
    if (!inner || !index) return undefined;
    if (index.type === 'slice') {
      const m = SLICE.exec(index.text);
      if (!m) return undefined;
      const start = m[1] === undefined ? 0 : Number(m[1]);
      const end = m[2] === undefined ? inner.value.length : Number(m[2]);
      return { value: inner.value.slice(start, end), base: inner.base };
    }
    const i = /^-?\d+$/.test(index.text.trim()) ? Number(index.text) : undefined;
    const item = i === undefined ? undefined : inner.value.at(i);
    return item === undefined ? undefined : { value: item, base: inner.base };
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    if (fn?.type !== 'attribute') return undefined;
    const method = identifierText(fn.childForFieldName('attribute')) ?? '';
    const object = fn.childForFieldName('object')!;
    const args = namedChildren(n.childForFieldName('arguments')!);
    if (method === 'join' && args.length === 1) {
      const sep = stringValue(unparen(object));
      const list = derivedText(ctx, module, args[0]!, depth + 1);
      return sep !== undefined && list && Array.isArray(list.value) ? { value: list.value.join(sep), base: list.base } : undefined;
    }
    const inner = derivedText(ctx, module, object, depth + 1);
    if (!inner || typeof inner.value !== 'string') return undefined;
    const consts = args.map((a) => literalConst(a));
    const value = consts.every((c) => c !== undefined) ? strMethod(inner.value, method, consts) : undefined;
    return value === undefined ? undefined : { value, base: inner.base };
  }
  const text = usageText(ctx, module, n, depth + 1);
  return text ? { value: text.text, base: text } : undefined;
}

/** `text` placed in `base`: exact positions when it is a part of the base text, else the base text's start. */
function placed(base: UsageText, text: string): UsageText {
  const at = base.text.indexOf(text);
  return at >= 0
    ? { text, module: base.module, at: (offset, length) => base.at(at + offset, length) }
    : { text, module: base.module, at: (_offset, length) => base.at(0, length) };
}

/**
 * A string literal's text, with exact positions when its source is the text itself (a plain
 * string without escapes, or a raw string); otherwise (escapes, implicit concatenation) the
 * decoded text, every position at the literal's start. f-strings are not read.
 */
function fromString(module: FlagModule, node: Node): UsageText | undefined {
  if (node.type === 'string' && allChildren(node).some((c) => c?.type === 'interpolation')) return undefined;
  const whole = locate(module, node);
  const fallback = (): SourceLocation => whole;
  if (node.type === 'string') {
    const raw = node.text;
    const open = /^([rRuUbBfF]*)("""|'''|"|')/.exec(raw);
    if (open) {
      const start = open[0].length;
      const content = raw.slice(start, raw.length - open[2]!.length);
      if (!content.includes('\\') || /r/i.test(open[1]!)) {
        // Offsets of the literal's line starts, found once: a position is a binary search, not a
        // scan of the text before it (5,000 usage lines of 50 options each took 19 s: #33 D5).
        let starts: number[] | undefined;
        return {
          text: content,
          module,
          at: (offset, length) => {
            if (!starts) {
              starts = [0];
              for (let i = raw.indexOf('\n'); i >= 0; i = raw.indexOf('\n', i + 1)) starts.push(i + 1);
            }
            const at = start + offset;
            const index = lineIndexAt(starts, at);
            const line = node.startPosition.row + index + 1;
            const column = index === 0 ? node.startPosition.column + at + 1 : at - starts[index]! + 1;
            return { file: module.info.file, line, column, endLine: line, endColumn: column + length };
          },
        };
      }
    }
  }
  const text = stringValue(node);
  return text === undefined ? undefined : { text, module, at: fallback };
}
