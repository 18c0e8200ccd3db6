/**
 * CLI flags declared in the config (`commands.<name>.flags`): for frameworks docdrift does not
 * read, and to map a flag onto the config field it sets. Turned into the same {@link ParamSpec}s
 * the flag extractors produce, so every rule treats them alike.
 */
import type { DocdriftConfig, FlagDeclaration } from '../config/schema.js';
import { suggestNames } from '../shared/names.js';
import type { CommandSpec, DefaultValue, ParamSpec, SourceLocation } from '../model/types.js';

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
  for (const a of extraAliases) if (!spellings.includes(a)) spellings.push(a);
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

/** Where `needle` (a JSON/YAML string value) first appears in the config text, else its first line. */
function locate(source: ConfigSource | undefined, needle: string, after = 0): { location: SourceLocation; offset: number } {
  const file = source?.file ?? 'docdrift.config.json';
  if (!source) return { location: { file, line: 1, column: 1 }, offset: 0 };
  let at = source.text.indexOf(needle, after);
  if (at < 0) at = source.text.indexOf(needle);
  if (at < 0) return { location: { file, line: 1, column: 1 }, offset: after };
  const before = source.text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - (before.lastIndexOf('\n') + 1) + 1;
  return { location: { file, line, column, endLine: line, endColumn: column + needle.length }, offset: at + needle.length };
}

/** Amends `param` with the keys `decl` gives (the code keeps the rest). */
function amend(param: ParamSpec, decl: FlagDeclaration, spellings: FlagSpellings): void {
  for (const a of spellings.aliases) if (a !== param.name && !param.aliases.includes(a)) param.aliases.push(a);
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
  let cursor = 0;
  for (const [name, entry] of Object.entries(config.commands)) {
    if (!entry.flags || entry.flags.length === 0) continue;
    const cmd = commands.find((c) => c.name === name || c.aliases.includes(name));
    if (!cmd) continue;
    const owner = source ? source.file.split('/').pop()! : 'config';
    const entryAt = locate(source, JSON.stringify(name), cursor);
    cursor = entryAt.offset;
    for (const decl of entry.flags) {
      const spellings = parseFlagSpellings(decl.name, decl.aliases ?? []);
      const names = [spellings.name, ...spellings.aliases];
      const existing = cmd.params.find(
        (p) => p.origin === 'cli-flag' && names.some((n) => p.name === n || p.aliases.includes(n)),
      );
      if (existing) {
        amend(existing, decl, spellings);
        continue;
      }
      const at = locate(source, decl.name, cursor);
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
      const field = decl.field === undefined ? undefined : cmd.params.find((p) => p.origin !== 'cli-flag' && p.name === decl.field);
      if (field) {
        param.type ??= field.type;
        param.description ??= field.description;
        if (param.default === undefined && field.default !== undefined) param.default = field.default;
      }
      cmd.params.push(param);
    }
    cmd.paramsKnown = true;
  }
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
