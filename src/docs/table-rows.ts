/**
 * A fast path for the body rows of GFM tables (issues #33, #35): a 500 KB reference table of
 * 30,000 rows cost ~5 s of the document worker's CPU in micromark and mdast-util-from-markdown,
 * though its rows are plain text and code spans. {@link simpleTableRows} builds the `tableRow`
 * nodes of such rows directly, node for node and position for position as remark-parse +
 * remark-gfm build them, and stops at the first line it cannot show it reads the same way; that
 * line and everything after it goes to the real parser (`parseInPieces`, src/docs/segments.ts,
 * is the only caller: it hands over the lines of a piece that continues a table the real parser
 * opened).
 *
 * What a row must be (GFM 0.29 "Tables (extension)", https://github.github.com/gfm/#tables-extension-;
 * CommonMark 0.31 "Code spans", https://spec.commonmark.org/0.31.2/#code-spans), checked against
 * micromark-extension-gfm-table 2.x and mdast-util-gfm-table 2.x:
 * - The line starts with `|` at column 1 and ends with `|` (no whitespace after it). No tab, no
 *   control character, no backslash anywhere (a backslash escapes a pipe, also inside code spans,
 *   where mdast-util-gfm-table rewrites `\|` and `\\`).
 * - Cells are split at every `|`, before any inline parsing (so a pipe between backticks splits
 *   the cell too; the halves then hold an unmatched backtick run, which is not simple). A row has
 *   as many cells as it has: mdast neither pads nor truncates to the header's count. A cell's node
 *   spans from the pipe before it to the pipe after it (excluded; included for the last cell);
 *   its content is the text between, without leading and trailing spaces.
 * - Content: code spans (a backtick run of length n closed by the next run of exactly n, its
 *   content stripped of one leading and one trailing space when it has both and is not all
 *   spaces; a run never closed is not simple) and text between them, as `inlineCode` and `text`
 *   nodes. Outside code spans the text holds none of `* [ ] < > & ! ~ $ @`, no `://` and no
 *   `www.` (any case), so no emphasis, strikethrough, link, image, HTML, character reference or
 *   GFM autolink literal can start; an `_` only between two ASCII letters or digits (intraword,
 *   it can neither open nor close emphasis).
 */
import type { AlignType, InlineCode, PhrasingContent, Root, RootContent, Table, TableCell, TableRow, Text } from 'mdast';
import { fencedLineTracker } from './fences.js';
import { lineStarts } from '../shared/strings.js';

/** Characters that may start an inline construct other than a code span, or a character micromark rewrites (tab, NUL, controls) or that escapes (`\`). */
const NOT_SIMPLE_LINE = /[\u0000-\u001f\u007f\\]/;
/** In text outside code spans: emphasis, strikethrough, links, images, HTML, references, autolink literals. */
const NOT_SIMPLE_TEXT = /[*[\]<>&!~$@]|:\/\/|www\./i;
const ALNUM = /[A-Za-z0-9]/;

/** A point of a position, as mdast-util-from-markdown writes it (key order included). */
interface Point {
  line: number;
  column: number;
  offset: number;
}

function point(line: number, lineStart: number, offset: number): Point {
  return { line, column: offset - lineStart + 1, offset };
}

/** True when every `_` of `text` sits between two ASCII letters or digits. */
function underscoresIntraword(text: string): boolean {
  for (let i = text.indexOf('_'); i !== -1; i = text.indexOf('_', i + 1)) {
    if (i === 0 || i === text.length - 1 || !ALNUM.test(text.charAt(i - 1)) || !ALNUM.test(text.charAt(i + 1))) return false;
  }
  return true;
}

/** Length of the backtick run of `text` starting at `at`. */
function runLength(text: string, at: number): number {
  let end = at;
  while (text.charCodeAt(end) === 96 /* ` */) end++;
  return end - at;
}

/**
 * The phrasing nodes of one cell's content `text[from, to)` (already trimmed, non-empty), on line
 * `line` starting at `lineStart`; undefined when the content is not simple (see the module comment).
 */
function cellContent(text: string, from: number, to: number, line: number, lineStart: number): PhrasingContent[] | undefined {
  const out: PhrasingContent[] = [];
  let textFrom = from;
  const pushText = (end: number): boolean => {
    if (end === textFrom) return true;
    const value = text.slice(textFrom, end);
    if (NOT_SIMPLE_TEXT.test(value) || !underscoresIntraword(value)) return false;
    const node: Text = { type: 'text', value, position: { start: point(line, lineStart, textFrom), end: point(line, lineStart, end) } };
    out.push(node);
    return true;
  };
  let i = text.indexOf('`', from);
  while (i !== -1 && i < to) {
    const n = runLength(text, i);
    // The closing run: the next run of exactly n backticks.
    let j = text.indexOf('`', i + n);
    while (j !== -1 && j < to && runLength(text, j) !== n) j = text.indexOf('`', j + runLength(text, j));
    if (j === -1 || j >= to) return undefined;
    if (!pushText(i)) return undefined;
    let value = text.slice(i + n, j);
    if (value.length >= 2 && value.startsWith(' ') && value.endsWith(' ') && /[^ ]/.test(value)) value = value.slice(1, -1);
    const code: InlineCode = { type: 'inlineCode', value, position: { start: point(line, lineStart, i), end: point(line, lineStart, j + n) } };
    out.push(code);
    textFrom = j + n;
    i = text.indexOf('`', textFrom);
  }
  return pushText(to) ? out : undefined;
}

/**
 * The `tableRow` node of the line `text[from, end)` (line ending excluded), line number `line`;
 * undefined when the row is not simple (see the module comment).
 */
function simpleRow(text: string, from: number, end: number, line: number): TableRow | undefined {
  if (end - from < 2 || text.charCodeAt(from) !== 124 /* | */ || text.charCodeAt(end - 1) !== 124) return undefined;
  const raw = text.slice(from, end);
  if (NOT_SIMPLE_LINE.test(raw)) return undefined;
  const cells: TableCell[] = [];
  let pipe = from;
  while (pipe < end - 1) {
    const next = text.indexOf('|', pipe + 1);
    let a = pipe + 1;
    let b = next;
    while (a < b && text.charCodeAt(a) === 32) a++;
    while (b > a && text.charCodeAt(b - 1) === 32) b--;
    const children = a < b ? cellContent(text, a, b, line, from) : [];
    if (!children) return undefined;
    const cellEnd = next === end - 1 ? end : next;
    cells.push({ type: 'tableCell', children, position: { start: point(line, from, pipe), end: point(line, from, cellEnd) } });
    pipe = next;
  }
  return { type: 'tableRow', children: cells, position: { start: point(line, from, from), end: point(line, from, end) } };
}

/** The end of line `i` of `text` (line starts `starts`), its line ending (`\n`, `\r\n`) excluded. */
function lineEndAt(text: string, starts: readonly number[], i: number): number {
  let end = i + 1 < starts.length ? starts[i + 1]! : text.length;
  if (end > starts[i]! && text.charCodeAt(end - 1) === 10) end--;
  if (end > starts[i]! && text.charCodeAt(end - 1) === 13) end--;
  return end;
}

/** Tables whose rows (all or some) were built by this module instead of the parser (see {@link builtByFastPath}). */
const fastBuilt = new WeakSet<Table>();

/**
 * Records that rows of `table` were built by the fast path ({@link simpleTableRows} or
 * {@link parseWithSimpleTables}), so that {@link builtByFastPath} knows it.
 */
export function markFastBuilt(table: Table): void {
  fastBuilt.add(table);
}

/**
 * True when `node` is a table whose rows were built by this module's fast path in this process:
 * rebuilding such a table from its text costs less than reading back its stored tree (a 546 KB
 * table of 30,000 simple rows: 71-163 ms to build, 270-380 ms to deserialise its 18 MB tree,
 * 160-175 ms to serialise it), so src/docs/segments.ts does not store it.
 */
export function builtByFastPath(node: RootContent): boolean {
  return node.type === 'table' && fastBuilt.has(node);
}

/** What {@link simpleTableRows} read. */
export interface SimpleRows {
  /** The rows built, in order (positions absolute in the text). */
  rows: TableRow[];
  /** Offset where reading stopped: the start of the first line not read (`to` when every line was). */
  next: number;
}

/**
 * Builds the body rows of a GFM table directly, for the lines of `text` from offset `from` (a
 * line start inside a top-level table the real parser opened: its header and delimiter rows are
 * before it, and it goes on at least to the line before `from`) up to `to` (a line start or the
 * end of the text), stopping at the first line that is not a simple row (see the module comment).
 * Each row built is the node remark-parse + remark-gfm give for that line in that table, with the
 * same positions (line 1-based, column 1-based in UTF-16 code units, offset 0-based).
 *
 * @param starts the line start offsets of `text` (`lineStarts`, src/shared/strings.ts).
 * @param lineIndex the index in `starts` of the line starting at `from`.
 * @returns the rows read and where reading stopped; no rows when the first line is not simple. Never throws.
 */
export function simpleTableRows(text: string, from: number, to: number, starts: readonly number[], lineIndex: number): SimpleRows {
  const rows: TableRow[] = [];
  let i = lineIndex;
  let at = from;
  while (at < to) {
    const nextStart = i + 1 < starts.length ? starts[i + 1]! : text.length;
    const row = simpleRow(text, at, lineEndAt(text, starts, i), i + 1);
    if (!row) break;
    rows.push(row);
    at = nextStart;
    i++;
  }
  return { rows, next: at };
}

/** A GFM delimiter row in the simple form: `|` at column 1, cells of optional spaces, an optional colon, hyphens, an optional colon and optional spaces, each closed by `|`, nothing after the last. */
const DELIMITER_ROW = /^\|(?: *:?-+:? *\|)+$/;
/** A blank line (CommonMark: spaces and tabs only). */
const BLANK_LINE = /^[ \t]*$/;

/** The alignment of one delimiter cell, as mdast-util-gfm-table writes it. */
function alignOf(cell: string): AlignType {
  const c = cell.trim();
  const left = c.startsWith(':');
  const right = c.endsWith(':');
  return left && right ? 'center' : left ? 'left' : right ? 'right' : null;
}

/** One whole table {@link simpleTables} built: its node and the text it spans. */
export interface SimpleTable {
  /** Offset of its header row's first character. */
  from: number;
  /** Offset just after its last row (line ending excluded). */
  to: number;
  /** The `table` node, positions absolute in the text. */
  node: Table;
}

/**
 * Finds the whole GFM tables of `text` that can be built without micromark (issues #33, #35: a
 * page of 10,000 small tables cost ~2.3 s of CPU per 300 KB in micromark, s25 sweep D6): a blank
 * line or the start of the text, a header row and a body row per line that are simple rows (see
 * the module comment), a delimiter row of as many cells as the header in the form
 * {@link DELIMITER_ROW}, and then a blank line or the end of the text. Lines inside fenced code
 * (`fencedLineTracker`) are never read as a table.
 *
 * Where such lines sit in the block structure is not decided here: a table found may lie inside
 * an HTML block that a blank line does not close, or be read differently for a reason this scan
 * does not see. {@link parseWithSimpleTables} checks that on the real parser's tree.
 *
 * @param starts the line start offsets of `text` (`lineStarts`, src/shared/strings.ts).
 * @returns the tables, in text order, each as remark-parse + remark-gfm build it at the top level
 *   of a document (positions: line 1-based, column 1-based in UTF-16 code units, offset 0-based).
 *   Never throws.
 */
export function simpleTables(text: string, starts: readonly number[]): SimpleTable[] {
  const out: SimpleTable[] = [];
  const fenced = fencedLineTracker();
  const lineEnd = (i: number): number => lineEndAt(text, starts, i);
  const lineText = (i: number): string => text.slice(starts[i]!, lineEnd(i));
  let previousBlank = true;
  for (let i = 0; i < starts.length; i++) {
    const line = lineText(i);
    if (fenced(line)) {
      previousBlank = false;
      continue;
    }
    const blankBefore = previousBlank;
    previousBlank = BLANK_LINE.test(line);
    if (!blankBefore || text.charCodeAt(starts[i]!) !== 124 /* | */ || i + 1 >= starts.length) continue;
    const delimiter = lineText(i + 1);
    if (!DELIMITER_ROW.test(delimiter)) continue;
    const header = simpleRow(text, starts[i]!, lineEnd(i), i + 1);
    const delimiterCells = delimiter.slice(1, -1).split('|');
    if (!header || header.children.length !== delimiterCells.length) continue;
    const rows: TableRow[] = [header];
    let j = i + 2;
    let ended = false;
    for (; j < starts.length; j++) {
      const rowText = lineText(j);
      if (BLANK_LINE.test(rowText)) {
        ended = true;
        break;
      }
      const row = simpleRow(text, starts[j]!, lineEnd(j), j + 1);
      if (!row) break;
      rows.push(row);
    }
    if (!ended && j < starts.length) continue;
    const last = j - 1;
    const to = lineEnd(last);
    const node: Table = {
      type: 'table',
      align: delimiterCells.map(alignOf),
      children: rows,
      position: { start: point(i + 1, starts[i]!, starts[i]!), end: point(last + 1, starts[last]!, to) },
    };
    out.push({ from: starts[i]!, to, node });
    // Every line of the table is read: none opens a fence (each starts with `|`).
    for (let k = i + 1; k <= last; k++) fenced(lineText(k));
    i = last;
    previousBlank = false;
  }
  return out;
}

/**
 * Parses a Markdown text with `parse`, building its simple whole tables ({@link simpleTables})
 * directly instead (issues #33, #35). The text is parsed with each such table's characters
 * replaced by spaces (line endings kept, so every offset, line and column stays), which makes
 * its lines blank; the tables are then put among the tree's top-level nodes. A table is taken
 * only when no node of that tree overlaps its lines: then nothing before it was still open
 * across them (fenced code, an HTML block, a list item or indented code that blank lines do not
 * close, front matter), so the real parser read the table at the top level, as built, and the
 * blank lines closed what the table's first line closes. When a table fails that check, the
 * whole original text is parsed instead. The tree is the one `parse(text)` gives, node for node
 * and position for position (test/table-rows.test.ts compares them on random documents).
 *
 * Markdown only: MDX reads `{` and `<` in cells as expressions and JSX.
 *
 * @throws what `parse` throws.
 */
export function parseWithSimpleTables(text: string, parse: (text: string) => Root): Root {
  if (!text.includes('|')) return parse(text);
  const tables = simpleTables(text, lineStarts(text));
  if (tables.length === 0) return parse(text);
  const parts: string[] = [];
  let at = 0;
  for (const t of tables) {
    parts.push(text.slice(at, t.from), text.slice(t.from, t.to).replace(/[^\r\n]/g, ' '));
    at = t.to;
  }
  parts.push(text.slice(at));
  const tree = parse(parts.join(''));
  const children: RootContent[] = [];
  let k = 0;
  for (const node of tree.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return parse(text);
    while (k < tables.length && tables[k]!.to <= start) children.push(tables[k++]!.node);
    if (k < tables.length && tables[k]!.from < end) return parse(text);
    children.push(node);
  }
  while (k < tables.length) children.push(tables[k++]!.node);
  for (const t of tables) fastBuilt.add(t.node);
  tree.children = children;
  return tree;
}
