/**
 * CLI flags declared in the config (`commands.<name>.flags`): for frameworks docdrift does not
 * read, and to map a flag onto the config field it sets. Turned into the same {@link ParamSpec}s
 * the flag extractors produce, so every rule treats them alike.
 */
import type { DocdriftConfig, FlagDeclaration } from '../config/schema.js';
import { suggestNames } from '../shared/names.js';
import { lineIndexAt } from '../shared/strings.js';
import type { CommandSpec, DefaultValue, ParamSpec, SourceLocation } from '../model/types.js';
import { pushUnique } from '../shared/arrays.js';

/** The config file the declarations come from: its project-relative (or absolute) path and text, to point findings at the entry. */
export interface ConfigSource {
  file: string;
  text: string;
}

/** The spellings of a declaration's `name`: `"-p, --port <n>"` → name `port`, aliases `["p"]`. */
export interface FlagSpellings {
  /** The first long spelling without dashes, else the first short one, else the positional name. */
  name: string;
  aliases: string[];
  /** `"--color/--no-color"` (click's form) was written. */
  negatable: boolean;
}

/**
 * Splits a declared flag name into spellings. Tokens are separated by commas or spaces; value
 * placeholders (`<n>`, `[value]`, `N`-style all-caps metavariables after a flag) are dropped;
 * `--x/--no-x` declares `--x` as negatable. Never throws; an empty result keeps `raw` trimmed as name.
 */
export function parseFlagSpellings(raw: string, extraAliases: string[] = []): FlagSpellings {
  let negatable = false;
  const spellings: string[] = [];
  for (const token of raw.split(/[\s,]+/)) {
    if (token === '' || token.startsWith('<') || token.startsWith('[')) continue;
    for (const part of token.split('/')) {
      if (part === '') continue;
      if (/^--?no-/.test(part) && spellings.length > 0) {
        negatable = true;
        continue;
      }
      if (!part.startsWith('-') && spellings.some((s) => s.startsWith('-'))) continue; // a metavariable (`--port N`)
      spellings.push(part);
    }
  }
  for (const a of extraAliases) pushUnique(spellings, a);
  const bare = (s: string): string => s.replace(/^-+/, '');
  const long = spellings.find((s) => s.startsWith('--')) ?? spellings.find((s) => s.startsWith('-')) ?? spellings[0] ?? raw.trim();
  const name = bare(long);
  const aliases = [...new Set(spellings.map(bare).filter((s) => s !== name && s !== ''))];
  return { name, aliases, negatable };
}

/**
 * A declared default as a {@link DefaultValue}. JSON numbers, booleans and `null` are literals
 * (`null` reads as "no value"); a string that already reads as a literal's source text (a number,
 * a quoted string, `true`/`True`/`None`/`null`, a list or dict) is kept as written, any other string
 * is the string value itself (`fast` → `"fast"`).
 */
export function declaredDefault(value: FlagDeclaration['default']): DefaultValue | undefined {
  if (value === undefined) return undefined;
  if (value === null) return { kind: 'literal', text: 'None' };
  if (typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', text: String(value) };
  const t = value.trim();
  const literal =
    /^[-+]?(\d[\d_]*(?:\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|0[xX][\da-fA-F]+)$/.test(t) ||
    /^(["']).*\1$/s.test(t) ||
    /^(true|false|True|False|None|null|undefined)$/.test(t) ||
    /^[[{(].*[\]})]$/s.test(t);
  return { kind: 'literal', text: literal ? t : JSON.stringify(value) };
}

/**
 * Offsets where the lines of `text` start, counting `\n` only (as `locate` always has: a lone `\r`
 * ends no line here, unlike {@link lineStarts} of shared/strings).
 */
function newlineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A config source, its line starts and its k-gram positions, each computed once when first needed. */
interface Located {
  source: ConfigSource;
  starts?: number[];
  /** Searches so far; the k-gram index is built past {@link SCANS_BEFORE_INDEX}. */
  searches: number;
  /** Length k (1 to {@link GRAM}) → each k-character string of the text → its positions, ascending. */
  grams: Map<number, Map<string, number[]>>;
}

/** Longest prefix of a needle the positions are indexed by. */
const GRAM = 6;
/** Plain `indexOf` searches before the positions are indexed (small configs never pay for it). */
const SCANS_BEFORE_INDEX = 64;
/** Positions of one prefix tried before falling back to `indexOf` from there. */
const GRAM_TRIES = 256;

/**
 * `located.source.text.indexOf(needle, after)`, the same answer: every flag of an entry is searched
 * from the entry's start, so a config of many flags rescanned its tail once per flag (26,000 flags:
 * 6 s, s27 sweep D9). Past a few searches, the text's positions are indexed by their first
 * min(needle length, {@link GRAM}) characters; a needle's first occurrence at or after `after` is
 * the first indexed position there that starts with it.
 */
function indexOfFrom(located: Located, needle: string, after: number): number {
  const text = located.source.text;
  if (needle === '' || ++located.searches <= SCANS_BEFORE_INDEX) return text.indexOf(needle, after);
  const k = Math.min(needle.length, GRAM);
  let byGram = located.grams.get(k);
  if (!byGram) {
    byGram = new Map();
    for (let i = 0; i + k <= text.length; i++) {
      const gram = text.slice(i, i + k);
      const list = byGram.get(gram);
      if (list) list.push(i);
      else byGram.set(gram, [i]);
    }
    located.grams.set(k, byGram);
  }
  const list = byGram.get(needle.slice(0, k));
  if (!list) return -1;
  let lo = 0;
  let hi = list.length;
  const from = Math.max(0, after);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo, tries = 0; i < list.length; i++, tries++) {
    if (tries === GRAM_TRIES) return text.indexOf(needle, list[i]);
    if (text.startsWith(needle, list[i])) return list[i]!;
  }
  return -1;
}

/**
 * Where `needle` (a JSON/YAML string value) first appears in the config text, else its first line.
 * The line is found by binary search in the line starts: counting the lines before each flag cost
 * flags × config (26,000 declared flags: 29 s, s27 sweep D9).
 */
function locate(located: Located | undefined, needle: string, after = 0): { location: SourceLocation; offset: number } {
  const source = located?.source;
  const file = source?.file ?? 'docdrift.config.json';
  if (!located || !source) return { location: { file, line: 1, column: 1 }, offset: 0 };
  let at = indexOfFrom(located, needle, after);
  if (at < 0) at = indexOfFrom(located, needle, 0);
  if (at < 0) return { location: { file, line: 1, column: 1 }, offset: after };
  const starts = (located.starts ??= newlineStarts(source.text));
  const index = lineIndexAt(starts, at);
  const line = index + 1;
  const column = at - starts[index]! + 1;
  return { location: { file, line, column, endLine: line, endColumn: column + needle.length }, offset: at + needle.length };
}

/** Amends `param` with the keys `decl` gives (the code keeps the rest). */
function amend(param: ParamSpec, decl: FlagDeclaration, spellings: FlagSpellings): void {
  for (const a of spellings.aliases) if (a !== param.name) pushUnique(param.aliases, a);
  if (decl.type !== undefined) param.type = decl.type;
  const def = declaredDefault(decl.default);
  if (def) param.default = def;
  if (decl.description !== undefined) param.description = decl.description;
  if (decl.required !== undefined) param.required = decl.required;
  if (decl.hidden !== undefined) param.hidden = decl.hidden;
  if (decl.deprecated !== undefined) param.deprecated = decl.deprecated;
  if (decl.choices !== undefined) param.choices = [...decl.choices];
  if (decl.negatable !== undefined || spellings.negatable) param.negatable = decl.negatable ?? true;
  if (decl.positional !== undefined) param.positional = decl.positional;
  if (decl.field !== undefined) param.dest = decl.field;
}

/**
 * Applies `commands.<name>.flags` of `config` to `commands` (mutated): a declaration naming a flag
 * the command already has (by name or alias) amends it; others become new `cli-flag` parameters
 * owned by the config file, located at their entry. A command with declared flags has known
 * parameters. Commands are matched by name or alias. A multi-word name (`tool serve`) whose
 * program (`tool`) is no command needs no stand-in: the model treats `tool` as an implied parent
 * when it splits examples at sub-command words.
 */
export function applyDeclaredFlags(commands: CommandSpec[], config: DocdriftConfig, source?: ConfigSource): void {
  const located: Located | undefined = source ? { source, searches: 0, grams: new Map() } : undefined;
  // Lookups by name instead of a linear `find` per flag (flags × params, s27 sweep D9); each keeps
  // the first match in list order, as `find` did.
  let commandByName: Map<string, CommandSpec> | undefined;
  const commandNamed = (name: string): CommandSpec | undefined => {
    if (!commandByName) {
      commandByName = new Map();
      for (const c of commands) for (const n of [c.name, ...c.aliases]) if (!commandByName.has(n)) commandByName.set(n, c);
    }
    return commandByName.get(name);
  };
  // By parameter list: two commands may share one.
  const indexes = new Map<ParamSpec[], ParamIndex>();
  let cursor = 0;
  for (const [name, entry] of Object.entries(config.commands)) {
    if (!entry.flags || entry.flags.length === 0) continue;
    const cmd = commandNamed(name);
    if (!cmd) continue;
    let index = indexes.get(cmd.params);
    if (!index) indexes.set(cmd.params, (index = paramIndex(cmd.params)));
    const owner = source ? source.file.split('/').pop()! : 'config';
    const entryAt = locate(located, JSON.stringify(name), cursor);
    cursor = entryAt.offset;
    for (const decl of entry.flags) {
      const spellings = parseFlagSpellings(decl.name, decl.aliases ?? []);
      const names = [spellings.name, ...spellings.aliases];
      const existing = index.flag(names);
      if (existing) {
        amend(existing, decl, spellings);
        index.noteFlag(existing);
        continue;
      }
      const at = locate(located, decl.name, cursor);
      const param: ParamSpec = {
        name: spellings.name,
        aliases: [],
        required: false,
        deprecated: false,
        hidden: false,
        origin: 'cli-flag',
        owner,
        location: at.location,
      };
      amend(param, decl, spellings);
      if (decl.positional) param.required = decl.required ?? true;
      // A flag that sets a config field says what the field says, unless declared otherwise.
      const field = decl.field === undefined ? undefined : index.field(decl.field);
      if (field) {
        param.type ??= field.type;
        param.description ??= field.description;
        if (param.default === undefined && field.default !== undefined) param.default = field.default;
      }
      cmd.params.push(param);
      index.noteFlag(param);
    }
    cmd.paramsKnown = true;
  }
}

/**
 * A command's parameters by name, kept in step as declarations amend and add flags (only through
 * `noteFlag`): `flag(names)` is the first `cli-flag` parameter, in list order, whose name or an
 * alias is one of `names`; `field(name)` the first other parameter named `name`.
 */
interface ParamIndex {
  flag(names: readonly string[]): ParamSpec | undefined;
  field(name: string): ParamSpec | undefined;
  /** Records `param` (already in the list, or about to be pushed last) under its name and aliases. */
  noteFlag(param: ParamSpec): void;
}

function paramIndex(params: readonly ParamSpec[]): ParamIndex {
  /** Spelling → the first `cli-flag` parameter, in list order, that has it. */
  const flags = new Map<string, ParamSpec>();
  const position = new Map<ParamSpec, number>();
  const fields = new Map<string, ParamSpec>();
  const noteFlag = (param: ParamSpec): void => {
    let at = position.get(param);
    if (at === undefined) position.set(param, (at = position.size));
    for (const n of [param.name, ...param.aliases]) {
      const known = flags.get(n);
      if (known === undefined || at < position.get(known)!) flags.set(n, param);
    }
  };
  for (const p of params) {
    if (p.origin === 'cli-flag') noteFlag(p);
    else {
      position.set(p, position.size);
      if (!fields.has(p.name)) fields.set(p.name, p);
    }
  }
  return {
    flag(names) {
      let best: ParamSpec | undefined;
      for (const n of names) {
        const found = flags.get(n);
        if (found && (!best || position.get(found)! < position.get(best)!)) best = found;
      }
      return best;
    },
    field: (name) => fields.get(name),
    noteFlag,
  };
}

/**
 * Config problems of declared flags, one sentence each naming the key: a `field` that is not a
 * parameter of the command's config classes (the mapping would silently do nothing).
 */
export function declaredFlagProblems(config: DocdriftConfig, commands: CommandSpec[]): string[] {
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(config.commands)) {
    (entry.flags ?? []).forEach((decl, i) => {
      if (decl.field === undefined) return;
      const cmd = commands.find((c) => c.name === name || c.aliases.includes(name));
      const fields = (cmd?.params ?? []).filter((p) => p.origin !== 'cli-flag');
      if (fields.some((p) => p.name === decl.field || p.aliases.includes(decl.field!))) return;
      // `extra.seed` names a key under a dict-typed field (an open namespace) or a nested config
      // field: the flag sets that key.
      const head = decl.field.split('.')[0]!;
      const parent = decl.field.includes('.') ? fields.find((p) => p.name === head || p.aliases.includes(head)) : undefined;
      if (parent && (parent.openNamespace || parent.typeRef !== undefined)) return;
      const key = `commands.${JSON.stringify(name)}.flags[${i}].field`;
      const classes = cmd!.configClasses.map((q) => q.split(/[.#]/).pop()).join(', ');
      // A dotted field is suggested by its first segment (`extras.seed` → `extra.seed`).
      const rest = decl.field.slice(head.length);
      const nearHead = suggestNames(head, fields.map((p) => p.name), 1)[0];
      const near = nearHead === undefined ? undefined : `${nearHead}${rest}`;
      problems.push(
        fields.length === 0
          ? `${key}: "${decl.field}" cannot be mapped: command "${name}" has no config class (set "config" for it).`
          : `${key}: "${decl.field}" is not a field of ${classes}${near ? `; did you mean "${near}"?` : '.'}`,
      );
    });
  }
  return problems;
}
