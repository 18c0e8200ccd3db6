/**
 * The edits behind fixable reference rules (issue #5): insert a missing row into a reference
 * table in the table's own layout, replace a documented default, remove a stale row. Pure
 * functions of the model (the document text comes from `Model.source`); `undefined` means "no
 * safe fix", and the finding is then reported without one.
 */
import { columnRoles, defaultFromDescription, nameCellSpelling, NO_VALUE, rowSpelling } from '../docs/reference-table.js';
import type { TextEdit } from '../model/rule.js';
import { formatDefault } from '../model/compare.js';
import type { CommandSpec, DocTable, Model, ParamSpec, ReferenceRow, ReferenceSection, SourceLocation } from '../model/types.js';
import { blockAt, columnUsesCode, documentLineStarts, formatTableLine, sectionTable, tableRowAt, tableStyleOf, type SectionTable } from './table.js';
import { codeSpan, eolOf, lineExtent, rangeOf } from './text.js';

// What a reference row can spell, for the rules (which read the docs through this module).
export { nameCellSpelling, rowSpelling, unspellableParam } from '../docs/reference-table.js';

/**
 * Unicode's explicit directional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069): in a file's source they reorder what a reviewer sees (CVE-2021-42574, "Trojan
 * Source"; GitHub warns on them in diffs).
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` without control characters, for whatever `--fix` writes into a document: a tab and the
 * Unicode line breaks NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR (U+0085, U+2028, U+2029) become
 * a space; the other C0 controls (but LF and CR, which the cell writers fold), DEL and the C1
 * controls are dropped. A description's NUL, ESC, VT or FF was written raw (s30 sweep D5: git
 * then showed the page as binary, and ESC put terminal escapes into the docs); a numeric
 * character reference would not do, as CommonMark reads `&#x1B;` as U+FFFD. Linear.
 */
export function withoutControls(text: string): string {
  if (!hasControls(text)) return text;
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code === 9 || code === 0x85 || code === 0x2028 || code === 0x2029) out += ' ';
    else if (!isControl(code)) out += c;
  }
  return out;
}

/** True when `text` holds a character {@link withoutControls} changes. Linear. */
export function hasControls(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 9 || code === 0x2028 || code === 0x2029 || isControl(code)) return true;
  }
  return false;
}

/** A C0 control but LF and CR, DEL, or a C1 control (NEL included). */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 10 && code !== 13) || (code >= 0x7f && code <= 0x9f);
}

/**
 * Escapes plain text for a GFM table cell (https://github.github.com/gfm/#tables-extension-):
 * `|` → `\|`, and each backslash right before a pipe doubled, since a table row reads `\\` as
 * an escaped backslash and the pipe after it as a cell border (micromark, remark-gfm): `e\|f` is
 * written `e\\\|f`. Line breaks are folded into one space. Text from code is not HTML: a `<`
 * that would open a tag, a comment or an autolink (`<path>`, `<script>`, `<!--`) is written
 * `&lt;`, so the cell shows it rather than the page running or hiding it, and a directional
 * control ({@link BIDI_CONTROLS}) as its numeric character reference (`&#x202E;`), which renders
 * as the character but cannot reorder the Markdown source (s25 sweep O5). Both read back as the
 * text itself. In MDX (`mdx`), `{` and `}` are escaped too (`\{`): there they open and close a
 * JavaScript expression, so an unbalanced one broke the page's build and a balanced one ran as
 * code (s26b sweep D3).
 */
export function cellText(text: string, mdx = false): string {
  text = withoutControls(text);
  const escaped = mdx ? text.replace(/[{}]/g, (c) => `\\${c}`) : text;
  return foldLineBreaks(
    escapePipes(escaped)
      .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
      .replace(BIDI_CONTROLS, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`),
  ).trim();
}

/**
 * `text` with each `|` escaped as `\|` and the backslashes right before it doubled (`a\|b` →
 * `a\\\|b`), as `text.replace(/(\\*)\|/g, …)` did in linear time: that pattern tried each
 * position of a run of backslashes that no pipe follows and rescanned the run from there
 * (100,000 backslashes: 18 s). Each pipe's backslashes are read back only to the previous pipe.
 */
export function escapePipes(text: string): string {
  let out = '';
  let from = 0;
  for (let bar = text.indexOf('|'); bar !== -1; bar = text.indexOf('|', bar + 1)) {
    let start = bar;
    while (start > from && text.charCodeAt(start - 1) === 92 /* \\ */) start--;
    out += `${text.slice(from, bar)}${text.slice(start, bar)}\\|`;
    from = bar + 1;
  }
  return out + text.slice(from);
}

/**
 * `text` with each run of whitespace that holds a line break (`\r`, `\n`) folded into one space,
 * as replacing each match of the pattern `\s*[\r\n]+\s*` (global) by a space did, in linear time: that pattern rescanned a run of
 * blanks without a line break from each of its positions (100,000 tabs: 18 s). Each whitespace
 * run is matched once, whole, and replaced when it holds a line break.
 */
export function foldLineBreaks(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') || run.includes('\r') ? ' ' : run));
}

/**
 * `text` as a code span in a GFM table cell: {@link codeSpan} with each `|` escaped as `\|` (in a
 * table a pipe splits the cell even inside a code span; the parser drops the backslash again).
 * A backslash right before a pipe cannot be written inside a code span (`\\|` ends the cell),
 * so such text is written as escaped plain text ({@link cellText}) instead. Control characters
 * are dropped first ({@link withoutControls}): a code span cannot escape them.
 */
export function cellCode(text: string): string {
  text = withoutControls(text);
  if (/\\\|/.test(text) || /[\r\n]/.test(text)) return cellLiteral(text);
  return codeSpan(text).replace(/\|/g, '\\|');
}

/**
 * What may start Markdown syntax inside a table cell's inline content, so that a value holding
 * it may not read back as itself (CommonMark https://spec.commonmark.org/0.31.2/, GFM): a
 * backslash (an escape before punctuation), a backtick (a code span), `*` or `~` (emphasis,
 * GFM strikethrough), `_` at a word's edge (intraword `_` is never emphasis), `](` or `][` (an
 * inline or full reference link), `<` before a letter, `/`, `!` or `?` (an autolink or raw
 * HTML), `&` before a name or `#` (an entity), `://`, `www.` or `@` (GFM autolink literals, which
 * take a backslash or pipe after them into the link). `Optional[int]` and `dict[str, int]` are plain.
 */
const INLINE_SYNTAX = /[\\`*~]|(?:^|[^\p{L}\p{N}])_|_(?:$|[^\p{L}\p{N}])|\]\(|\]\[|<[A-Za-z/!?]|&(?:[A-Za-z][A-Za-z0-9]*;|#)|:\/\/|www\.|@/iu;

/**
 * A value (a type, a default) for a GFM table cell so that it reads back as the same text: as
 * plain text ({@link cellText}) when it holds no Markdown syntax, else as a code span
 * ({@link cellCode}), whose content is literal. Was plain text always: `Literal["a", "e\\f"]`
 * read back as `e\f` (a backslash escape), and the next run reported the row `--fix` wrote as
 * a type mismatch (#33 s24 sweep D10).
 */
export function cellValue(text: string, mdx = false): string {
  return INLINE_SYNTAX.test(text) || (mdx && /[{}]/.test(text)) ? cellCode(text) : cellText(text, mdx);
}

/**
 * `text` as literal plain text in a GFM table cell, for what a code span cannot hold (a
 * backslash right before a pipe, a line break): every ASCII punctuation character is
 * backslash-escaped (CommonMark 2.4: any may be; escaping `:` `.` `@` also keeps GFM autolink
 * literals from forming), `|` included, and line breaks are folded into one space; control
 * characters are dropped ({@link withoutControls}).
 */
export function cellLiteral(text: string): string {
  return foldLineBreaks(withoutControls(text).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)).trim();
}

/** The key a table is sorted by: the name lower-cased, leading dashes dropped. */
function sortKey(name: string): string {
  return name.replace(/^-+/, '').toLowerCase();
}

/** True when the table's rows are sorted by name (two or more rows, non-decreasing keys). */
export function isSortedByName(rows: readonly ReferenceRow[]): boolean {
  if (rows.length < 2) return false;
  for (let i = 1; i < rows.length; i++) if (sortKey(rows[i - 1]!.names[0] ?? '') > sortKey(rows[i]!.names[0] ?? '')) return false;
  return true;
}

/**
 * Facts about one table that every insertion into it shares, computed once (issue #18: one
 * insertion per finding used to rescan the table, quadratic in its rows).
 */
interface InsertionFacts {
  sorted: boolean;
  /** The rows' sort keys, in table order (non-decreasing when `sorted`). */
  keys: string[];
  noneMarks: Map<number, string>;
  /** Per column: its cells' texts without an enclosing code span (see {@link defaultCellValue}). */
  columns: Map<number, string[]>;
  /** Per column: the cell that marks a required parameter (`required`, `**Required**`), when one does. */
  requiredMarks: Map<number, string | undefined>;
  /** Per column: the table's own yes/no words of a `Required` column. */
  requiredWords: Map<number, { yes: string | undefined; no: string | undefined }>;
  /** True when every row writes its name as a flag (`--port`). */
  flagRows?: boolean;
  /** Per command: the row each parameter goes after (that of the nearest preceding parameter with a row). */
  anchors: WeakMap<CommandSpec, Map<ParamSpec, ReferenceRow | undefined>>;
}

const insertionFacts = new WeakMap<DocTable, InsertionFacts>();

/** The longest type or default `--fix` writes into a new row's cell; a longer one leaves the cell empty. */
export const MAX_FIX_VALUE_CHARS = 200;
/** The longest description `--fix` writes into a new row; a longer one is cut at a word, with "…". */
export const MAX_FIX_DESCRIPTION_CHARS = 1000;

function insertionFactsOf(table: DocTable, rows: readonly ReferenceRow[]): InsertionFacts {
  let facts = insertionFacts.get(table);
  if (!facts) {
    facts = { sorted: isSortedByName(rows), keys: rows.map((r) => sortKey(r.names[0] ?? '')), noneMarks: new Map(), columns: new Map(), requiredMarks: new Map(), requiredWords: new Map(), anchors: new WeakMap() };
    insertionFacts.set(table, facts);
  }
  return facts;
}

/** For each of `cmd`'s parameters, the last row naming the nearest parameter before it in code order that has a row. */
function anchorsFor(facts: InsertionFacts, cmd: CommandSpec, rows: readonly ReferenceRow[]): Map<ParamSpec, ReferenceRow | undefined> {
  let anchors = facts.anchors.get(cmd);
  if (anchors) return anchors;
  const lastByName = new Map<string, number>();
  rows.forEach((r, i) => {
    for (const n of r.names) lastByName.set(n, i);
  });
  anchors = new Map();
  let carry: ReferenceRow | undefined;
  for (const p of cmd.params) {
    if (!anchors.has(p)) anchors.set(p, carry);
    let at = -1;
    for (const n of [p.name, ...p.aliases]) at = Math.max(at, lastByName.get(n) ?? -1);
    if (at >= 0) carry = rows[at];
  }
  facts.anchors.set(cmd, anchors);
  return anchors;
}

/** The first index whose key is greater than `key` in non-decreasing `keys` (binary search). */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! > key) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A planned row insertion: the edit and how it orders against other insertions at the same place. */
export interface RowInsertion {
  edit: TextEdit;
  /** The inserted row as it will read in the document (one cell per column of the table). */
  row: string;
  /** True when the row goes to its sorted position (the table is sorted by name). */
  sorted: boolean;
}

/**
 * The edit that adds a row for `param` (documented as `key`) to the section's reference table.
 *
 * The row has the table's columns in the table's order: the name (spelled `--key` for a CLI flag;
 * in a table with both a key and a flag column a flag goes in the flag column), the type, the
 * default in the table's own style ({@link defaultCellValue}: `out.csv` rather than
 * `"out.csv"` when no row quotes its strings; for a required parameter the table's own
 * "required" mark when a row has one, else its "none" mark such as `-`), a `Required` column
 * filled with the table's own yes/no words, the description (with "Default: `x`." appended when the table has no Default
 * column), other columns empty. Names, types and defaults are code spans when most rows of that
 * column use them. The row is written in the table's source layout ({@link tableStyle}) and goes
 * (1) in sorted position when the rows are sorted by name, else (2) after the row of the nearest
 * parameter that precedes `param` in code order, else (3) after the last row. The inserted line
 * ending is the file's own.
 *
 * @returns `undefined` when the section has no reference table (heading and list layouts are not
 *   fixed) or the model has no document text.
 */
export function insertRowEdit(model: Model, section: ReferenceSection, cmd: CommandSpec, param: ParamSpec, key: string): RowInsertion | undefined {
  const found = sectionTable(model, section);
  if (!found) return undefined;
  const { table, rows, text, starts } = found;
  // An env table whose name column is headed as an env one (`| Variable | … |`, issue #31).
  const headed = columnRoles(table.header);
  const envNamed = cmd.kind === 'environment' && !headed.includes('name') && !headed.includes('flag');
  const roles = envNamed ? headed.map((r) => (r === 'env' ? 'name' : r)) : headed;
  // An env var documented in a flag table's env column gets no row of its own there.
  if (cmd.kind === 'environment' && !envNamed && (roles.includes('env') || roles.includes('flag'))) return undefined;
  const hasDefaultCol = roles.includes('default');
  const hasNameAndFlag = roles.includes('name') && roles.includes('flag');
  const isFlag = param.origin === 'cli-flag' && !param.positional;
  // A config field documented in a table that writes every parameter as a flag (`--port`: the
  // fields are passed on the command line) gets a row in that spelling too.
  // What the table's rows say is computed once per table, not once per row added: 14,000 rows
  // added to a table of 14,000 took 12-15 s of rules (s25 sweep D9).
  const facts = insertionFactsOf(table, rows);
  facts.flagRows ??= rows.length > 0 && rows.every((r) => /^-{1,2}[A-Za-z]/.test(stripCode(r.rawName.trim())));
  const flagTable = !isFlag && facts.flagRows;
  const spelled = isFlag ? rowSpelling(param, key) : flagTable ? rowSpelling({ origin: 'cli-flag' }, key) : key;
  // A name the reference reader would not take whole from the usual reading of a name cell
  // (`max tokens` reads as `max`, `p | q` as two aliases, `--g<i>` as flag `--g` with a
  // placeholder) is written as a code span, which the reader takes whole where the code has a
  // parameter spelt so (s38 sweep D2). One no cell can hold (a tab, a line break: `nameCellSpelling`)
  // gets no row: --fix would refuse it on every run while each lint counted it as fixable (s27
  // sweep2 D4); reference-param-missing leaves it to a note. A flag column is read the usual way only.
  const spelling = nameCellSpelling(spelled, key);
  if (spelling === undefined || (spelling === 'code' && hasNameAndFlag && isFlag)) return undefined;
  const noneMark = (col: number): string => {
    let mark = facts.noneMarks.get(col);
    if (mark === undefined) {
      mark = table.rows.map((r) => (r.cells[col] ?? '').trim()).find((c) => c !== '' && NO_VALUE.has(c.toLowerCase())) ?? '';
      facts.noneMarks.set(col, mark);
    }
    return mark;
  };
  // MDX reads `{…}` as a JavaScript expression: values and descriptions are written so it reads them as text.
  const mdx = /\.mdx$/i.test(section.file);
  const asCode = (col: number, value: string): string => (value !== '' && columnUsesCode(table, col) ? cellCode(value) : cellValue(value, mdx));
  // A type or default longer than a table cell can show (a `Union` of 8,000 `Literal`s wrote a
  // 142,921-character row, and the page then ran over its parse budget on every run: s23 sweep D9)
  // is left for the maintainer to write: the cell stays empty, the row is still added.
  const fits = (value: string | undefined): string | undefined => (value !== undefined && value.length <= MAX_FIX_VALUE_CHARS ? value : undefined);
  const typeText = fits(param.type);
  const fullDefault = param.default ? formatDefault(param.default) : undefined;
  const defaultText = fits(fullDefault);
  const columnCells = (col: number): string[] => {
    let cells = facts.columns.get(col);
    if (!cells) facts.columns.set(col, (cells = table.rows.map((r) => stripCode((r.cells[col] ?? '').trim()))));
    return cells;
  };
  const requiredMark = (col: number): string | undefined => {
    if (!facts.requiredMarks.has(col)) facts.requiredMarks.set(col, table.rows.map((r) => (r.cells[col] ?? '').trim()).find((c) => /^[*_]*required[*_]*$/i.test(stripCode(c))));
    return facts.requiredMarks.get(col);
  };
  const requiredWord = (col: number, required: boolean): string => {
    let words = facts.requiredWords.get(col);
    if (!words) {
      const cells = columnCells(col);
      words = { yes: cells.find((w) => /^(yes|true|required|✓|✔|✅|x)$/i.test(w)), no: cells.find((w) => /^(no|false|optional|-|—|✗|❌)$/i.test(w)) };
      facts.requiredWords.set(col, words);
    }
    const { yes, no } = words;
    return required ? (yes ?? 'yes') : (no ?? (yes ? '' : 'no'));
  };
  const cells = table.header.map((header, col) => {
    if (roles[col] === undefined && /^\s*required\??\s*$/i.test(header)) return requiredWord(col, param.required && defaultText === undefined);
    switch (roles[col]) {
      case 'name':
        return hasNameAndFlag && isFlag ? '' : spelling === 'code' ? cellCode(spelled) : asCode(col, spelled);
      case 'flag':
        return hasNameAndFlag && isFlag ? asCode(col, spelled) : '';
      case 'type':
        return asCode(col, typeText ?? '');
      case 'default':
        if (fullDefault !== undefined && defaultText === undefined) return ''; // has one, too long to write
        if (defaultText === undefined) return (param.required && requiredMark(col)) || noneMark(col);
        return asCode(col, defaultCellValue(defaultText, columnCells(col)));
      case 'description': {
        const full = param.description ?? '';
        const desc = cellText(full.length <= MAX_FIX_DESCRIPTION_CHARS ? full : `${withoutLastWord(full.slice(0, MAX_FIX_DESCRIPTION_CHARS))} …`, mdx);
        // A description that already states its default ("(default: False)") gets no second one.
        const stated = defaultFromDescription(desc, []) !== undefined;
        const phrase = !hasDefaultCol && !stated && defaultText !== undefined ? `Default: ${cellCode(defaultText)}.` : '';
        const sentence = phrase && desc && !/[.!?:)]$/.test(desc) ? `${desc}.` : desc;
        return [sentence, phrase].filter(Boolean).join(' ');
      }
      default:
        return '';
    }
  });
  const style = tableStyleOf(text, starts, table);
  if (!style) return undefined;
  const line = formatTableLine(style, cells);
  const eol = eolOf(text);
  const sorted = facts.sorted;
  const lastRow = rows[rows.length - 1]!;
  let anchor: { row: ReferenceRow; before: boolean } = { row: lastRow, before: false };
  if (sorted) {
    const next = rows[upperBound(facts.keys, sortKey(key))];
    if (next) anchor = { row: next, before: true };
  } else {
    const hit = anchorsFor(facts, cmd, rows).get(param);
    if (hit) anchor = { row: hit, before: false };
  }
  const ext = lineExtent(text, starts, anchor.row.location.line);
  if (!ext) return undefined;
  const edit: TextEdit = anchor.before
    ? { file: section.file, start: ext.start, end: ext.start, text: `${line}${eol}` }
    : { file: section.file, start: ext.end, end: ext.end, text: `${eol}${line}` };
  return { edit, sorted, row: line };
}

/**
 * `text` without its last word and the whitespace before it, as `text.replace(/\s+\S*$/, '')`
 * did (a trailing run of whitespace counts as the last word; text without whitespace is kept) in
 * linear time: the pattern rescanned a run of blanks from each of its positions.
 */
export function withoutLastWord(text: string): string {
  let end = text.length;
  while (end > 0 && !isSpace(text[end - 1]!)) end--;
  if (end === 0) return text;
  while (end > 0 && isSpace(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** Whether a UTF-16 code unit is whitespace as a regex's `\s` reads it. */
function isSpace(unit: string): boolean {
  return /\s/.test(unit);
}

/**
 * `` `x` `` → `x`: a cell's text without one enclosing code span, as
 * `/^(`+)\s?([\s\S]*?)\s?\1$/` read it, in linear time: that pattern's lazy middle rescanned
 * the cell to its end once per length of the opening backtick run it tried (a cell of 10,000
 * backticks and a tab: 27 s; cubic). The same choices in the pattern's order: the longest opening run
 * that the cell also ends with (the closing run must not overlap it), a blank after the opening
 * taken when the rest still fits, and a blank before the closing run dropped when there is one.
 */
export function stripCode(cell: string): string {
  const length = cell.length;
  let open = 0;
  while (open < length && cell.charCodeAt(open) === 96 /* ` */) open++;
  if (open === 0) return cell;
  let close = 0;
  while (close < length && cell.charCodeAt(length - 1 - close) === 96) close++;
  for (let k = Math.min(open, close); k >= 1; k--) {
    const end = length - k;
    const starts = k < length && isSpace(cell[k]!) ? [k + 1, k] : [k];
    for (const start of starts) {
      if (end - 1 >= start && isSpace(cell[end - 1]!)) return cell.slice(start, end - 1);
      if (end >= start) return cell.slice(start, end);
    }
  }
  return cell;
}

/**
 * A default as the table writes its defaults: a quoted string literal (`"result.csv"`, `'a'`)
 * loses its quotes when the column writes strings bare, i.e. some default there is neither
 * quoted nor a number, boolean, null or collection literal (`out.csv`) and none is quoted;
 * anything else is kept as `formatDefault` wrote it (so a column of numbers still gets `"m"`).
 *
 * @param value the code's default, from `formatDefault`
 * @param column the column's existing cell texts, code spans removed
 */
export function defaultCellValue(value: string, column: readonly string[]): string {
  const literal = /^(["'])((?:(?!\1)[^\\])*)\1$/.exec(value);
  if (!literal) return value;
  let unquoted = unquotedColumns.get(column);
  if (unquoted === undefined) {
    const written = column.filter((c) => c !== '' && !NO_VALUE.has(c.toLowerCase()));
    const quoted = written.some((c) => /^(["']).*\1$/.test(c));
    const nonString = /^(?:[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+|0x[\da-f]+|inf|nan)|true|false|none|null|undefined|\[.*\]|\{.*\}|\(.*\))$/i;
    const bare = written.some((c) => !nonString.test(c) && !/^(["']).*\1$/.test(c) && !/^[*_]*required[*_]*$/i.test(c));
    unquoted = bare && !quoted;
    unquotedColumns.set(column, unquoted);
  }
  return unquoted ? literal[2]! : value;
}

/** Per column array (the cached one of {@link InsertionFacts}): whether its strings are written without quotes. */
const unquotedColumns = new WeakMap<readonly string[], boolean>();

/**
 * The edit that replaces a documented default with the code's (`actual`, as `formatDefault`
 * writes it), keeping its formatting: inside a code span only the span's content changes (a
 * longer fence when the value holds backticks); in plain text the documented value is replaced
 * where it stands (`**False**` → `**True**`), as {@link cellValue} writes it: a code span when it
 * holds Markdown syntax (`zz` → `` `"<b>"` ``), so that it reads back as the value.
 *
 * @returns `undefined` when the location has no end, spans lines, or does not contain the
 *   documented value, or the new value cannot sit in a table cell (`|`, line breaks, control
 *   characters: dropped, the value would not read back as itself).
 */
export function replaceDefaultEdit(model: Model, location: SourceLocation, documented: string, actual: string): TextEdit | undefined {
  const text = model.source?.(location.file);
  if (text === undefined || /[\r\n|]/.test(actual) || actual === '' || hasControls(actual)) return undefined;
  const range = rangeOf(text, documentLineStarts(model, location.file, text), location);
  if (!range) return undefined;
  const [start, end] = range;
  const written = text.slice(start, end);
  if (/[\r\n]/.test(written)) return undefined;
  const fence = /^`+/.exec(written)?.[0];
  if (fence && written.length > 2 * fence.length && written.endsWith(fence)) {
    const inner = written.slice(fence.length, written.length - fence.length);
    if (actual.includes('`')) return { file: location.file, start, end, text: codeSpan(actual) };
    const padded = inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '';
    const value = padded ? ` ${actual} ` : actual;
    return { file: location.file, start: start + fence.length, end: end - fence.length, text: value };
  }
  const at = written.indexOf(documented);
  if (at < 0 || documented === '') return undefined;
  // In plain text a value holding Markdown syntax would not read back as itself (`"<b>"` is inline
  // HTML, `"*a*"` emphasis): it is written as a code span, whose content is literal, as new rows
  // are ({@link cellValue}). Written raw, the re-lint refused the fix on every --fix while the
  // summary counted it as fixable (s26 sweep D4).
  return { file: location.file, start: start + at, end: start + at + documented.length, text: cellValue(actual, /\.mdx$/i.test(location.file)) };
}

/**
 * The edit that replaces one spelling written in a name (`--worker` → `--workers`) where it stands
 * inside `location` (an inline code span or a cell), the rest of the text kept (`-w, --worker`).
 *
 * @returns `undefined` when the location has no end, spans lines, or does not contain `written`
 *   as a whole spelling, or the replacement cannot sit in a table cell (`|`, `` ` ``, line breaks,
 *   control characters).
 */
export function replaceSpellingEdit(model: Model, location: SourceLocation, written: string, replacement: string): TextEdit | undefined {
  const text = model.source?.(location.file);
  if (text === undefined || /[\r\n|`]/.test(replacement) || replacement === '' || written === '' || hasControls(replacement)) return undefined;
  const range = rangeOf(text, documentLineStarts(model, location.file, text), location);
  if (!range) return undefined;
  const [start, end] = range;
  const inside = text.slice(start, end);
  if (/[\r\n]/.test(inside)) return undefined;
  for (let at = inside.indexOf(written); at >= 0; at = inside.indexOf(written, at + 1)) {
    const before = inside[at - 1] ?? '';
    const after = inside[at + written.length] ?? '';
    if (/[\w-]/.test(before) || /[\w-]/.test(after)) continue;
    return { file: location.file, start: start + at, end: start + at + written.length, text: replacement };
  }
  return undefined;
}

/**
 * The edit that removes a reference table row: its whole line, line ending included.
 *
 * @returns `undefined` when the row is not a row of one of the section's tables (heading and list
 *   layouts are not removed) or the row does not start its line.
 */
export function removeRowEdit(model: Model, section: ReferenceSection, row: ReferenceRow): TextEdit | undefined {
  const found: SectionTable | undefined = sectionTable(model, section);
  if (!found) return undefined;
  const tables = blockAt(model, section.file, section.heading.location.line)?.tables ?? [];
  const tableRow = tables.map((t) => tableRowAt(t, row)).find((r) => r !== undefined);
  if (!tableRow) return undefined;
  const { text, starts } = found;
  const ext = lineExtent(text, starts, tableRow.location.line);
  if (!ext || text.slice(ext.start, ext.end).trim() === '' || tableRow.location.endLine !== tableRow.location.line) return undefined;
  // The last line of a file without a final line ending: remove the line ending before it instead.
  if (ext.next === ext.end && ext.start > 0) {
    const before = text[ext.start - 1] === '\n' && text[ext.start - 2] === '\r' ? 2 : 1;
    return { file: section.file, start: ext.start - before, end: ext.end, text: '' };
  }
  return { file: section.file, start: ext.start, end: ext.next, text: '' };
}

/**
 * The edit that adds a missing variable to an example env file (`.env.example`, layout
 * `env-file`, issue #31): a `# description` line when the code has a description, then
 * `NAME=value`, appended at the end of the file in its own line endings (a final line ending is
 * added first when the file has none). The value is the code's default when it is a plain literal
 * (a string without blanks, quotes or `#`, a number, a boolean), else empty: a sample value is the
 * maintainer's choice. Dotenv syntax: https://github.com/motdotla/dotenv#what-rules-does-the-parsing-engine-follow
 *
 * @returns `undefined` when the file's text is not known to the model.
 */
export function insertEnvLineEdit(model: Model, section: ReferenceSection, param: ParamSpec): RowInsertion | undefined {
  const text = model.source?.(section.file);
  if (text === undefined) return undefined;
  const eol = eolOf(text);
  const raw = param.default?.kind === 'literal' ? formatDefault(param.default) : '';
  const unquoted = /^(["'])(.*)\1$/.exec(raw)?.[2] ?? raw;
  const value = /^[\w.:/@+-]*$/.test(unquoted) && !/^(None|null|undefined)$/.test(unquoted) ? unquoted : '';
  const description = withoutControls(param.description ?? '').replace(/\s+/g, ' ').trim();
  const line = `${param.name}=${value}`;
  const lines = [...(description ? [`# ${description}`] : []), line];
  const lead = text.length > 0 && !/[\r\n]$/.test(text) ? eol : '';
  return { edit: { file: section.file, start: text.length, end: text.length, text: `${lead}${lines.join(eol)}${eol}` }, sorted: false, row: line };
}
