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
import type { InlineCode, PhrasingContent, TableCell, TableRow, Text } from 'mdast';

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
    let end = nextStart;
    if (end > at && text.charCodeAt(end - 1) === 10) end--;
    if (end > at && text.charCodeAt(end - 1) === 13) end--;
    const row = simpleRow(text, at, end, i + 1);
    if (!row) break;
    rows.push(row);
    at = nextStart;
    i++;
  }
  return { rows, next: at };
}
