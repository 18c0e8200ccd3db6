/** Interprets a GFM table as a parameter reference table: column roles from header synonyms, names, types, defaults. */

import { memoByObject } from '../shared/memo.js';
import type { ColumnRole, DocTable, ParamSpec, ReferenceRow, SourceLocation } from '../model/types.js';
import { flagSpelling } from '../model/flag-spelling.js';
import { trimTrailing } from '../shared/strings.js';
import { pushUnique } from '../shared/arrays.js';
import { cellCodeLocation, cellLocation } from './position.js';

/**
 * Header synonyms (lower-case) for each column role. A header is matched after trimming,
 * lower-casing and stripping markdown emphasis/code marks and a trailing colon.
 */
export const HEADER_SYNONYMS: Readonly<Record<ColumnRole, readonly string[]>> = {
  name: [
    'parameter', 'parameters', 'option', 'options', 'flag', 'flags', 'name', 'argument', 'arguments', 'argument(s)', 'key', 'field',
    'setting', 'settings', 'override', 'property', 'properties', 'property name', 'parameter name', 'option name', 'setting name',
    'field name', 'key name', 'config key', 'configuration key', 'switch', 'switches', 'arg', 'args',
  ],
  type: ['type'],
  default: ['default', 'default value'],
  description: ['description', 'meaning', 'details', 'notes', 'help'],
  env: [
    'env', 'env var', 'env vars', 'environment variable', 'environment variables', 'environment', 'env variable',
    'variable', 'variables', 'variable name', 'envvar',
  ],
  flag: [
    'cli flag', 'cli flags', 'cli', 'command-line flag', 'command-line flags', 'command line flag', 'cli option',
    'cli options', 'command line', 'command-line', 'command-line option', 'cli argument',
  ],
};

/**
 * Name-column headers that mean "the CLI spelling" when the table also has a key-like name column
 * (`| Key | Flag |`): that column is then read as the `flag` role. Alone, they name the parameter.
 */
const FLAG_LIKE_NAME_HEADERS: ReadonlySet<string> = new Set(['flag', 'flags', 'option', 'options', 'argument', 'arguments', 'argument(s)', 'switch', 'switches', 'arg', 'args']);

const ROLE_BY_HEADER = new Map<string, ColumnRole>(
  (Object.entries(HEADER_SYNONYMS) as Array<[ColumnRole, readonly string[]]>).flatMap(([role, names]) =>
    names.map((n) => [n, role] as [string, ColumnRole])),
);

/** A header text lower-cased, emphasis/code marks, a trailing colon and extra blanks removed. */
function headerKey(header: string): string {
  return header.replace(/[*_`]/g, '').trim().replace(/:$/, '').trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The role of a header cell text, if it is one of the synonyms. This looks at one header alone:
 * `Flag` is a `name` here; {@link columnRoles} decides it is a `flag` next to a `Key` column.
 */
export function columnRole(header: string): ColumnRole | undefined {
  return ROLE_BY_HEADER.get(headerKey(header));
}

/**
 * The roles of all columns of a table header, by column index (`undefined` for unknown headers).
 *
 * Beyond {@link columnRole}: when a table has both a key-like name column (`Key`, `Name`,
 * `Parameter`, `Setting`…) and a flag-like one (`Flag`, `Option`, `Argument`), the latter is the
 * `flag` column (`| Setting | Environment variable | Flag |`); when the only name-like column is
 * flag-like, it stays the name (`| Option | Env | Description |`). A table with a `flag` column
 * (`CLI flag`) but no name column reads that column as the name.
 */
export function columnRoles(header: readonly string[]): Array<ColumnRole | undefined> {
  const roles = header.map(columnRole);
  const nameCols = roles.flatMap((r, i) => (r === 'name' ? [i] : []));
  const flagLike = (i: number): boolean => FLAG_LIKE_NAME_HEADERS.has(headerKey(header[i] ?? ''));
  if (nameCols.some((i) => !flagLike(i))) for (const i of nameCols) if (flagLike(i)) roles[i] = 'flag';
  if (!roles.includes('name')) {
    const flagCol = roles.indexOf('flag');
    if (flagCol >= 0) roles[flagCol] = 'name';
  }
  return roles;
}

/**
 * Separators between aliases in one name cell or code span: `,`, ` / `, ` | `, ` or `, and a `/`
 * right before a flag (click's `--shake/--no-shake`). The
 * blanks around them stay on the pieces (callers trim): a `\s*` or `\s+` here made splitting a
 * long run of blanks quadratic.
 */
export const ALIAS_SEPARATOR_RE = /,|\s\/\s|\s\|\s|\sor\s|\/(?=--?[A-Za-z])/;

/** Stand-ins for separator characters inside a value placeholder while a name text is split. */
const MASKS: Readonly<Record<string, string>> = { ',': '\u{F0000}', '/': '\u{F0001}', '|': '\u{F0002}', ' ': '\u{F0003}', '\t': '\u{F0004}' };
const UNMASK: ReadonlyMap<string, string> = new Map(Object.entries(MASKS).map(([k, v]) => [v, k]));

/**
 * Splits a name text into its alias pieces at {@link ALIAS_SEPARATOR_RE}, but never inside a
 * value placeholder: `--allowed-tools <tool1,tool2,...>` is one piece, `-i, --include <a|b>` two.
 * A placeholder is a bracketed group without nesting (`<…>`, `[…]`, `{…}`); an unclosed bracket
 * is plain text. Pieces keep their blanks (callers trim). Linear in the text's length.
 */
export function splitAliases(text: string): string[] {
  if (!/[<[{]/.test(text)) return text.split(ALIAS_SEPARATOR_RE);
  const masked = text.replace(/<[^<>\n]*>|\[[^[\]\n]*\]|\{[^{}\n]*\}/g, (group) => group.replace(/[,/| \t]/g, (c) => MASKS[c]!));
  return masked.split(ALIAS_SEPARATOR_RE).map((piece) => piece.replace(/[\u{F0000}-\u{F0004}]/gu, (c) => UNMASK.get(c)!));
}

/**
 * Normalises one documented parameter spelling to its name: drops the Hydra (`++`, `+`, `~`) or
 * flag (`--`, `-`) prefixes and a `[no-]` negation marker (repeatedly, so a normalised name
 * normalises to itself), then cuts at the first `=`, `[`, `<`,
 * blank or `:`… value placeholder (`--out <dir>`, `--n=<int>`, `key=value`, `--x[=Y]`).
 * Returns `''` when nothing name-like is left.
 */
export function normalizeParamName(spelling: string): string {
  let s = spelling.trim();
  // Until nothing changes, so the result is a fixed point (`----x`, `--[no-]--x` → `x`).
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/^(\+\+|\+|~|--|-|—|–)/, '').replace(/^\[no-?\]/i, '');
  }
  const cut = s.search(/[=[<\s{(]/);
  if (cut >= 0) s = s.slice(0, cut);
  return trimTrailing(s, ',;:.');
}

/**
 * Splits a name cell (or any name text) into normalised aliases, the first being the primary:
 * the inline code spans when there are any, else the text, split at {@link ALIAS_SEPARATOR_RE}
 * and normalised by {@link normalizeParamName}; empty results and duplicates are dropped.
 */
export function namesOf(text: string, codes: readonly string[]): string[] {
  const pieces = codes.length > 0 ? codes.flatMap((c) => splitAliases(c)) : splitAliases(text);
  const names: string[] = [];
  for (const p of pieces) {
    const n = normalizeParamName(p);
    if (n !== '') pushUnique(names, n);
  }
  return names;
}

/**
 * The parameter name a name-cell code span spells whole, as `lookup` (is `key` a parameter, or a
 * nested key, of the section's commands?) answers it: the span's text, else for a span written as
 * a flag (`--g<i>`) its text without the leading `--` or `-`.
 */
export function wholeNameOf(text: string, lookup: (key: string) => boolean): string | undefined {
  if (text !== '' && lookup(text)) return text;
  const flagless = /^--?(?!-)/.test(text) ? text.replace(/^--?/, '') : '';
  return flagless !== '' && lookup(flagless) ? flagless : undefined;
}

/** `list` with the `pieces` of a code span replaced by its whole name `name`, where the first piece stood (at the end when none is there). */
function withWhole(list: readonly string[], pieces: readonly string[], name: string): string[] {
  const gone = (n: string): boolean => pieces.includes(n) || n === name;
  const at = list.findIndex((n) => pieces.includes(n));
  const kept = list.filter((n) => !gone(n));
  kept.splice(at < 0 ? kept.length : list.slice(0, at).filter((n) => !gone(n)).length, 0, name);
  return kept;
}

/** A flag or override prefix (`-`, `--`, `+`, `++`, `~`, a dash): a span starting so is a spelling with a value or placeholder, never unknown text read whole. */
const SPELLING_PREFIX_RE = /^[-+~\u2013\u2014]/;

/**
 * The name one name-cell code span gives a row in place of the names the usual reading made of
 * it (`pieces`), or `undefined` to keep those: the parameter (or nested key) its whole text
 * spells ({@link wholeNameOf}); else, when none of the pieces is a parameter either and the span
 * is no flag or override spelling, its whole text, so that a stale row is reported as written
 * (`max tokenz`, not `max`). A span the usual reading found no name in (`` `<file>` ``) names
 * nothing unless it spells a parameter.
 */
function wholeSpanName(text: string, pieces: readonly string[], lookup: (key: string) => boolean): string | undefined {
  const name = wholeNameOf(text, lookup);
  if (name !== undefined) return pieces.length === 1 && pieces[0] === name ? undefined : name;
  if (pieces.length === 0 || SPELLING_PREFIX_RE.test(text) || pieces.some(lookup)) return undefined;
  return pieces.length === 1 && pieces[0] === text ? undefined : text;
}

/**
 * `row` (read from a table row whose name cell holds the code spans `codes`) with each span read
 * whole where {@link wholeSpanName} says so: `` `max tokens` ``, `` `p \| q` `` (GFM reads `\|` in
 * a cell as `|` before the code span is parsed) and `` `[l](x)` `` name the parameters so named,
 * not `max`, `p` and `q`, or nothing; `` `--out <dir>` `` stays the flag `out`. The names, the key
 * column's spellings and the span's flag spellings are replaced.
 *
 * @returns a new row when a span was read whole, else `row` itself (rows are shared: never changed).
 */
function readWhole(row: ReferenceRow, codes: readonly string[], lookup: (key: string) => boolean): ReferenceRow {
  let out: ReferenceRow | undefined;
  for (const text of codes) {
    if (text === '') continue;
    const pieces = namesOf('', [text]);
    const name = wholeSpanName(text, pieces, lookup);
    if (name === undefined) continue;
    const base: ReferenceRow = out ?? { ...row };
    base.names = withWhole(base.names, pieces, name);
    if (base.spellings) base.spellings = { ...base.spellings, keys: withWhole(base.spellings.keys, pieces, name) };
    if (base.flagSpellings) {
      const flags = base.flagSpellings.map((f) => (pieces.includes(f.name) ? { ...f, text, name } : f));
      base.flagSpellings = flags.filter((f, i) => flags.findIndex((g) => g.name === f.name) === i);
    }
    out = base;
  }
  return out ?? row;
}

/**
 * The rows of a reference table as {@link readReferenceTable} reads them, with each name-cell code
 * span read whole where it spells a parameter (s38 sweep D2). A code span is the author's exact
 * spelling, but the usual reading ({@link namesOf}) splits it into aliases and cuts placeholders
 * off (`-o, --out <dir>`): a JSON Schema property `max tokens` documented as `` `max tokens` ``
 * was read as `max`. `lookup` says whether a key is a parameter (or nested key) of the section's
 * commands, so only a name the code has is read whole, and a span none of whose pieces is one is
 * reported as written ({@link wholeSpanName}). A row whose spans gave no name at all
 * (`` `[l](x)` ``, `` `<x>` ``) is kept when one spells a parameter, in its place. Callers use it
 * only when a command has a name the usual reading cannot give ({@link nameCellSpelling}).
 *
 * @returns the rows, or `undefined` when no header names a parameter column.
 */
export function readReferenceTableWhole(table: DocTable, lookup: (key: string) => boolean): ReferenceRow[] | undefined {
  const read = referenceRowsOf(table);
  if (!read) return undefined;
  const nameCol = read.nameCol;
  const out: ReferenceRow[] = [];
  // The rows are in table order, each holding its table row's location object: walked side by side.
  let named = 0;
  let unnamed = 0;
  for (const source of table.rows) {
    const row = read.rows[named]?.location === source.location ? read.rows[named++] : read.unnamed[unnamed]?.location === source.location ? read.unnamed[unnamed++] : undefined;
    if (!row) continue;
    const codes = source.cellCodes[nameCol] ?? [];
    const whole = codes.length > 0 ? readWhole(row, codes, lookup) : row;
    if (whole.names.length > 0) out.push(whole);
  }
  return out;
}

/**
 * How a reference table's name cell can spell `spelled` (a parameter's documented spelling: `key`,
 * or `--key` for a flag) so that the table reader reads back `key`: `'split'` when the usual
 * reading of the cell ({@link namesOf}) gives `key`, `'code'` when only a code span read whole
 * does ({@link readWhole}: `max tokens`, `p | q`, `[l](x)`, ` lead`), `undefined` when no cell can.
 * A code span cannot hold an empty name, a line break (a table row is one line), or a backslash
 * right before a pipe (in a table `\|` is an escaped pipe, also inside a code span); and docdrift
 * neither writes nor asks for a control character in a name, however read (tab, ESC, U+2028:
 * `--fix` drops them, so such a row never read back as meant).
 */
export function nameCellSpelling(spelled: string, key: string): 'split' | 'code' | undefined {
  if (CONTROL_OR_BREAK_RE.test(spelled)) return undefined;
  if (namesOf(spelled, [spelled])[0] === key) return 'split';
  if (spelled === '' || spelled.includes('\\|')) return undefined;
  return wholeNameOf(spelled, (k) => k === key) === key ? 'code' : undefined;
}

/** A line break or a control character: C0 (tab included), DEL, C1, LINE and PARAGRAPH SEPARATOR. */
const CONTROL_OR_BREAK_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The spelling a reference row gives a parameter's name `key`: for a CLI flag the one the code
 * declares ({@link flagSpelling}: `--g` for argparse's `--g`, `-gx` for its `-gx`), else `--key`
 * (`-k` for one letter); `key` otherwise.
 */
export function rowSpelling(param: Pick<ParamSpec, 'origin' | 'positional' | 'optionStrings'>, key: string): string {
  return param.origin === 'cli-flag' && !param.positional ? flagSpelling(param, key) : key;
}

/**
 * Whether no reference row can name `param` by any of its names ({@link nameCellSpelling} of each,
 * spelt as {@link rowSpelling}): a name that is empty, or holds a line break, a control character
 * or a backslash before a pipe where the usual reading does not take it whole. Its row can be
 * neither written nor checked (a note says so).
 */
export function unspellableParam(param: Pick<ParamSpec, 'name' | 'aliases' | 'origin' | 'positional' | 'optionStrings'>): boolean {
  return [param.name, ...param.aliases].every((n) => nameCellSpelling(rowSpelling(param, n), n) === undefined);
}

/** A Default cell saying the parameter is required (`Required`, `(required)`, `**required**`). */
const REQUIRED_RE = /^[*_(]*required[*_)]*\.?$/i;
/** A description starting by saying the parameter is required (`(Required) The…`, `Required. The…`, `**Required**:`). */
const REQUIRED_LEAD_RE = /^[*_(\[]*required\b[*_)\]]*[.:]?(?:\s|$)/i;
/** A description starting by saying the parameter is deprecated (`Deprecated.`, `**Deprecated**:`, `⚠️ Deprecated`). */
export const DEPRECATED_LEAD_RE = /^(?:[^\p{L}\p{N}\s]{1,3}\s*)?[*_(\[]*deprecated\b/iu;
/** A description starting by saying the parameter is gone (`Removed in v4`, `(Removed since 2.0)`, `Obsolete:`; a bare `Removed.` is too vague). */
export const REMOVED_LEAD_RE = /^(?:[^\p{L}\p{N}\s]{1,3}\s*)?[*_(\[]*(?:obsolete\b|removed\s+(?:in|since|as\s+of)\b)/iu;
/** Text saying a deprecated parameter is gone (`no longer needed`, `You can remove it from your configuration`, `is removed since Stryker 4`). */
export const REMOVAL_TEXT_RE = /\b(?:no\s+longer\s+(?:needed|supported|used|has\s+any\s+effect|available|exists?)|(?:you\s+(?:can|should|may)|can\s+be)\s+(?:safely\s+)?remove(?:d)?\b|(?:is|was|has\s+been)\s+removed\b|obsolete\b)/i;

/**
 * Whether a row's docs say its parameter is gone ({@link ReferenceRow.removed}): marked removed or
 * obsolete, a description starting so, or marked deprecated (by a note or the description's first
 * word) with text saying it is no longer needed or can be removed.
 */
export function saysRemoved(description: string | undefined, marked: { deprecated?: boolean; removed?: boolean } = {}): boolean {
  if (marked.removed) return true;
  if (description === undefined) return false;
  if (REMOVED_LEAD_RE.test(description)) return true;
  return (marked.deprecated === true || DEPRECATED_LEAD_RE.test(description)) && REMOVAL_TEXT_RE.test(description);
}

/** Cell texts (lower-cased) meaning "nothing documented": no default, no env var, no description. */
export const NO_VALUE: ReadonlySet<string> = new Set(['', '-', '—', '–', 'n/a']);
/** "Default: x", "Defaults to x", "default value is x", "(default: x)", "default = x". */
const DEFAULT_PHRASE_RE = /\bdefault(?:s| value)?\s*(?::|=|\bis\b\s*:?|\bto\b)\s*/i;

/** "(default `x`)", "[default `x`]": the word right after an opening bracket, then a blank. */
const BARE_DEFAULT_RE = /[([]\s*default\s+/i;

/**
 * Finds a documented default in a description: the value after a default phrase (or, with no
 * colon, `(default `x`)` when a code span of the cell is the whole parenthesis). When an inline
 * code span of the cell starts right there, its text is the value (so `1.0` or `a b` stay whole);
 * else a quoted value (`[default: "project"]` → `"project"`), else the next word, trailing
 * `.`/`,`/`)`/`]`/`;` removed (`(default: 4)` → `4`).
 */
export function defaultFromDescription(text: string, codes: readonly string[]): string | undefined {
  // `(default `/ctcache`)`, `[default `0.1`]`: a bracketed "default" and a code span, no colon,
  // taken only when the code span fills the bracket.
  const phrase = DEFAULT_PHRASE_RE.exec(text);
  const m = phrase ?? BARE_DEFAULT_RE.exec(text);
  if (!m) return undefined;
  const bare = phrase === null;
  const rest = text.slice(m.index + m[0].length);
  let best: string | undefined;
  for (const c of codes) {
    if (c !== '' && rest.startsWith(c) && (!bare || /^\s*[)\]]/.test(rest.slice(c.length))) && (best === undefined || c.length > best.length)) best = c;
  }
  if (best !== undefined || bare) return best;
  // A quoted value is whole, quotes kept: `[default: "project"]`, `(default: 'a b')`.
  const quoted = /^(["'])[^"'\n]*\1/.exec(rest);
  if (quoted) return quoted[0];
  const word = trimTrailing(/^[^\s,;)\]]+/.exec(rest)?.[0] ?? '', '.');
  return word ? word : undefined;
}

/**
 * When two columns could hold the names (`| Option | Flag | Description |`) and the chosen name
 * column holds prose labels (`Port Name`) in most rows while another holds code spans
 * (`` `--port`, `-p` ``), the code column names the parameters and the prose one is left out.
 */
function preferCodeNameColumn(table: DocTable, roles: Array<ColumnRole | undefined>): Array<ColumnRole | undefined> {
  const candidates = roles.flatMap((r, i) => (r === 'name' || r === 'flag' ? [i] : []));
  const nameCol = roles.indexOf('name');
  if (candidates.length < 2 || nameCol < 0 || table.rows.length === 0) return roles;
  const codeShare = (col: number): number => table.rows.filter((r) => (r.cellCodes[col] ?? []).length > 0).length / table.rows.length;
  if (codeShare(nameCol) >= 0.5) return roles;
  const better = candidates.find((i) => i !== nameCol && codeShare(i) >= 0.5);
  if (better === undefined) return roles;
  return roles.map((r, i) => (i === better ? 'name' : r === 'name' || r === 'flag' ? undefined : r));
}

/**
 * The flag spellings of a CLI-flag cell, each as written (`--no-metrics`), normalised
 * (`no-metrics`) and placed at its inline code span (else the cell): `` `--metrics` / `--no-metrics` ``,
 * `` `--metrics/--no-metrics` `` and `` `-m`, `--metrics` `` all give two or more. Pieces that do
 * not start with `-` (a placeholder, prose) are left out.
 */
function flagSpellingsOf(row: DocTable['rows'][number], col: number): NonNullable<ReferenceRow['spellings']>['flags'] {
  const file = row.location.file;
  const codes = row.cellCodes[col] ?? [];
  const cellLoc = cellLocation(file, row, col) ?? row.location;
  const sources = codes.length > 0
    ? codes.map((c, i) => ({ text: c, location: cellCodeLocation(file, row, col, i) ?? cellLoc }))
    : [{ text: row.cells[col] ?? '', location: cellLoc }];
  const out: NonNullable<ReferenceRow['spellings']>['flags'] = [];
  for (const { text, location } of sources) {
    for (const piece of splitAliases(text)) {
      const written = piece.trim().split(/[\s=<[]/)[0] ?? '';
      const name = normalizeParamName(written);
      if (!/^-{1,2}[A-Za-z]/.test(written) || name === '' || out.some((f) => f.text === written)) continue;
      out.push({ text: written, name, location });
    }
  }
  return out;
}

/**
 * The spellings written as CLI flags in a name text (`-h, --host`, `--color/--no-color`), each as
 * written and normalised, all placed at `location`; pieces not starting with `-` are left out.
 */
export function flagSpellingsInText(text: string, location: SourceLocation): NonNullable<ReferenceRow['spellings']>['flags'] {
  const out: NonNullable<ReferenceRow['spellings']>['flags'] = [];
  for (const piece of splitAliases(text.replace(/`/g, ''))) {
    const written = piece.trim().split(/[\s=<[]/)[0] ?? '';
    const name = normalizeParamName(written);
    if (!/^-{1,2}[A-Za-z]/.test(written) || name === '' || out.some((f) => f.text === written)) continue;
    out.push({ text: written, name, location });
  }
  return out;
}

/** A flag followed by a concrete value, not a placeholder (`--precision bf16-true`, not `--out DIR`, `--out <dir>`). */
const SETTING_WITH_VALUE_RE = /(?:^|\s)--?[A-Za-z][\w-]*[ =](?![A-Z][A-Z0-9_]*\b|[<[{])[a-z0-9.][^\s|]*/;

/** A key with its value (`format: "email"`, `type: string`): an example of a value, not a parameter name. */
const KEY_VALUE_RE = /^[A-Za-z_][\w.-]*:[ \t]+\S/;

/**
 * Interprets a table as a reference table.
 *
 * Columns are found by header synonyms ({@link columnRoles}); the first matching column of
 * each role is used. Each body row becomes a {@link ReferenceRow}:
 * - `names`: from the inline code spans of the name cell (else its text), split into aliases at
 *   `,` ` / ` ` | ` ` or ` (`--out`, `-o`), each normalised by {@link normalizeParamName}; the first
 *   is the primary. The spellings of a flag column follow as aliases (`| `log.level` | `--log-level` |`
 *   → `['log.level', 'log-level']`). Rows with no name are skipped. {@link readReferenceTableWhole}
 *   reads a code span whole (`max tokens`, not `max`) where the code has a parameter spelt so.
 * - `env`: the env column's first inline code, else its text (empty or `-` mean none).
 * - `type`, `description`: the cell texts, trimmed; absent when empty or when there is no such column.
 * - `default`: the Default cell's first inline code, else its text (empty, `-`, `—`, `n/a` mean
 *   none), else a default phrase in the
 *   description ({@link defaultFromDescription}); `defaultLocation` is the code span holding the
 *   value when there is one, else the cell it came from.
 * - `links`: the row's links; `location`: the row.
 *
 * @returns the rows, or `undefined` when no header names a parameter column.
 */
export function readReferenceTable(table: DocTable): ReferenceRow[] | undefined {
  return referenceRowsOf(table)?.rows;
}

/** {@link readReferenceTable}, once per table node (src/shared/memo.ts): the rows are shared, never to be changed. */
const referenceRowsOf = memoByObject((table: DocTable): ReadRows | undefined => readReferenceRows(table));

/** What {@link readReferenceRows} reads of one table. */
interface ReadRows {
  /** The rows with a name. */
  rows: ReferenceRow[];
  /** The rows whose name cell holds code spans the usual reading found no name in (`` `[l](x)` ``), `names` empty: for {@link readReferenceTableWhole}. */
  unnamed: ReferenceRow[];
  /** The name column. */
  nameCol: number;
}

/** {@link readReferenceTable}'s work, uncached. */
function readReferenceRows(table: DocTable): ReadRows | undefined {
  const roles = preferCodeNameColumn(table, columnRoles(table.header));
  const col = (role: ColumnRole): number => roles.indexOf(role);
  const nameCol = col('name');
  if (nameCol < 0) return undefined;
  const typeCol = col('type');
  const defaultCol = col('default');
  const descCol = col('description');
  const envCol = col('env');
  const flagCol = col('flag');
  // A table with no description, type or default column whose name cells are mostly settings
  // written with values (`--precision bf16-true --quantize bnb.nf4` against memory and time
  // columns) compares runs: it is no reference of the flags.
  if (descCol < 0 && typeCol < 0 && defaultCol < 0 && table.rows.length > 0
    && table.rows.filter((r) => SETTING_WITH_VALUE_RE.test((r.cells[nameCol] ?? '').replace(/`/g, ''))).length * 2 >= table.rows.length) return undefined;
  const rows: ReferenceRow[] = [];
  const unnamed: ReferenceRow[] = [];
  // A table of flags (`--type-mappings`, `--strict-types`, …) may close with rows naming values of
  // the input format rather than options (`` `format: "email"` ``): a `key: value` pair there is
  // no parameter.
  const nameCode = (r: DocTable['rows'][number]): string => (r.cellCodes[nameCol]?.[0] ?? r.cells[nameCol] ?? '').trim();
  const flagTable = table.rows.filter((r) => /^--?[A-Za-z]/.test(nameCode(r))).length * 2 > table.rows.length;
  for (const row of table.rows) {
    if (flagTable && KEY_VALUE_RE.test(nameCode(row))) continue;
    let rawName = row.cells[nameCol] ?? '';
    const nameCodes = row.cellCodes[nameCol] ?? [];
    const names = namesOf(rawName, nameCodes);
    // A row documenting only a flag (empty key cell) is named by the flag.
    if (rawName.trim() === '' && flagCol >= 0) rawName = row.cells[flagCol] ?? '';
    const keys = [...names];
    if (flagCol >= 0) {
      for (const n of namesOf(row.cells[flagCol] ?? '', row.cellCodes[flagCol] ?? [])) pushUnique(names, n);
    }
    // A row with no name may still be one a code span names whole (`` `[l](x)` ``): kept apart.
    if (names.length === 0 && !nameCodes.some((c) => c !== '')) continue;
    const out: ReferenceRow = { names, rawName, links: row.links, location: row.location };
    if (flagCol >= 0 && keys.length > 0) {
      const flags = flagSpellingsOf(row, flagCol);
      if (flags.length > 0) out.spellings = { keys, flags };
    }
    const written = flagSpellingsOf(row, nameCol);
    if (written.length >= 2) out.flagSpellings = written;
    if (envCol >= 0) {
      const envText = row.cells[envCol]?.trim() ?? '';
      const env = row.cellCodes[envCol]?.[0] ?? (NO_VALUE.has(envText.toLowerCase()) ? undefined : envText);
      if (env) out.env = env;
    }
    const type = typeCol >= 0 ? row.cells[typeCol]?.trim() : undefined;
    if (type) out.type = type;
    const description = descCol >= 0 ? row.cells[descCol]?.trim() : undefined;
    if (description) out.description = description;
    const defaultCell = defaultCol >= 0 ? row.cells[defaultCol]?.trim() ?? '' : '';
    const defaultCodes = defaultCol >= 0 ? row.cellCodes[defaultCol] ?? [] : [];
    // "Required for email" leading a description whose row gives a default (`587`) is a condition, not "required".
    const givesDefault = defaultCell !== '' && !NO_VALUE.has(defaultCell.toLowerCase());
    if (REQUIRED_RE.test(defaultCell) || (description !== undefined && REQUIRED_LEAD_RE.test(description) && !givesDefault)) out.required = true;
    if (saysRemoved(description)) out.removed = true;
    if (REQUIRED_RE.test(defaultCell)) {
      // "Required" in the Default column: no default, and the row says so.
    } else if (!NO_VALUE.has(defaultCell.toLowerCase())) {
      // "`None` (required)": the code span is the value, the rest is commentary.
      out.default = defaultCodes[0] ?? defaultCell;
      if (defaultCodes.length === 1 && defaultCodes[0]!.trim() === defaultCell) out.defaultCode = true;
      const loc = (defaultCodes.length > 0 ? cellCodeLocation(row.location.file, row, defaultCol, 0) : undefined) ?? cellLocation(row.location.file, row, defaultCol);
      if (loc) out.defaultLocation = loc;
    } else if (description) {
      const fromText = defaultFromDescription(description, row.cellCodes[descCol] ?? []);
      if (fromText !== undefined) {
        out.default = fromText;
        // Point at the code span holding the value when there is one ("Default: `False`").
        const codes = row.cellCodes[descCol] ?? [];
        const at = codes.lastIndexOf(fromText);
        if (at >= 0) out.defaultCode = true;
        const loc = (at >= 0 ? cellCodeLocation(row.location.file, row, descCol, at) : undefined) ?? cellLocation(row.location.file, row, descCol);
        if (loc) out.defaultLocation = loc;
      }
    }
    (names.length > 0 ? rows : unnamed).push(out);
  }
  return { rows, unnamed, nameCol };
}

/**
 * A table's rows for an env section (issue #31): as {@link readReferenceTable} reads them, or,
 * when its only name-like column is an env one (`| Variable | Description |`, `| Environment
 * variable | Default |`) and it has no flag column, with that column read as the name.
 */
export function readEnvTable(table: DocTable): ReferenceRow[] | undefined {
  return envRowsOf(table);
}

/** {@link readEnvTable}, once per table node: the rows are shared, never to be changed. */
const envRowsOf = memoByObject((table: DocTable): ReferenceRow[] | undefined => readEnvRows(table));

/** {@link readEnvTable}'s work, uncached. */
function readEnvRows(table: DocTable): ReferenceRow[] | undefined {
  const rows = readReferenceTable(table);
  if (rows) return rows;
  const roles = columnRoles(table.header);
  const envCol = roles.indexOf('env');
  if (envCol < 0 || roles.includes('flag')) return undefined;
  return readReferenceTable({ ...table, header: table.header.map((h, i) => (i === envCol ? 'Name' : h)) });
}
