/**
 * HTML in Markdown (issue #13): `<table>` references and `<pre>` example blocks, in `.md` (raw
 * HTML blocks) and `.mdx` (JSX elements), read from the document's text.
 *
 * No HTML parser is among docdrift's dependencies, so this is a small reader for the subset docs
 * use: tags are found by one linear scan (`<name …>` / `</name>`, a `<` before the `>` abandons a
 * tag), `<table>`/`<thead>`/`<tr>`/`<th>`/`<td>` give rows and cells (an unclosed cell ends at the
 * next cell or row), `<code>` and backtick spans in a cell give its code spans, and the common
 * character references (`&lt;`, `&gt;`, `&amp;`, `&quot;`, `&#39;`, `&nbsp;`, numeric ones) are
 * decoded. Comments, scripts and nested tables are not understood. Every scan stops at
 * {@link MAX_HTML_CHARS} characters after the element's start.
 */
import type { DocTable, SourceLocation, TableRow } from '../model/types.js';
import type { CodeLine } from './code-blocks.js';
import { lineIndexAt, pushLocation } from './position.js';

/** The longest stretch of text read for one `<table>` or `<pre>` element. */
export const MAX_HTML_CHARS = 200_000;

/** Maps offsets of a text to 1-based lines and columns. */
export interface OffsetMap {
  (offset: number): { line: number; column: number };
}

/** An offset → line/column map for a text (line starts found once, binary search per lookup). */
export function offsetMap(text: string): OffsetMap {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    const index = lineIndexAt(starts, offset);
    return { line: index + 1, column: offset - starts[index]! + 1 };
  };
}

interface Tag {
  /** Lower-cased tag name. */
  name: string;
  closing: boolean;
  /** Offset of `<`. */
  start: number;
  /** Offset after `>`. */
  end: number;
  /** The text between the name and `>`. */
  attrs: string;
}

/** The tags of `text` between two offsets, in order; linear in the length scanned. */
function scanTags(text: string, from: number, to: number): Tag[] {
  const tags: Tag[] = [];
  let i = from;
  while (i < to) {
    const lt = text.indexOf('<', i);
    if (lt < 0 || lt >= to) break;
    let j = lt + 1;
    while (j < to && text[j] !== '>' && text[j] !== '<') j++;
    if (j >= to || text[j] === '<') {
      i = j;
      continue;
    }
    const m = /^<(\/?)([A-Za-z][\w-]*)/.exec(text.slice(lt, Math.min(j + 1, lt + 64)));
    if (m) tags.push({ name: m[2]!.toLowerCase(), closing: m[1] === '/', start: lt, end: j + 1, attrs: text.slice(lt + m[0].length, j) });
    i = j + 1;
  }
  return tags;
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Decodes the common character references (`&lt;`, `&#45;`, `&#x2d;`); unknown ones stay. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8}|#39);/gi, (all, ref: string) => {
    const named = NAMED_REFERENCES[ref.toLowerCase()];
    if (named !== undefined) return named;
    if (ref[0] !== '#') return all;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** `text` with each tag replaced by `fill(tag length)`. */
function replaceTags(text: string, fill: (length: number) => string): string {
  let out = '';
  let at = 0;
  for (const t of scanTags(text, 0, text.length)) {
    out += text.slice(at, t.start) + fill(t.end - t.start);
    at = t.end;
  }
  return out + text.slice(at);
}

/** `text` with tags removed, references decoded and blanks collapsed. */
function cellText(text: string): string {
  return decodeEntities(replaceTags(text, () => '')).replace(/\s+/g, ' ').trim();
}

/**
 * Reads the `<table>` element that starts at `start` (the offset of `<table`).
 *
 * Header: the rows in `<thead>`, else a first row made of `<th>` cells, else, when at least two
 * rows and 60% of them start with a flag cell (`<td>--cache</td>`), `Option | Description`. A cell's code spans are
 * its `<code>` elements and its backtick spans, each located at its content. Cell texts have
 * tags removed (`<br>`, `<b>`), references decoded and blanks collapsed.
 *
 * @returns the table and the offset after `</table>` (or the end of what was scanned), or
 *   `undefined` when no row was found.
 */
export function readHtmlTable(file: string, text: string, start: number, at: OffsetMap): { table: DocTable; end: number } | undefined {
  const limit = Math.min(text.length, start + MAX_HTML_CHARS);
  const tags = scanTags(text, start, limit);
  const loc = (from: number, to: number): SourceLocation => {
    const a = at(from);
    const b = at(to);
    return { file, line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  };
  interface Cell { from: number; to: number; head: boolean }
  interface Row { from: number; to: number; cells: Cell[]; inHead: boolean }
  const rows: Row[] = [];
  let row: Row | undefined;
  let cell: { from: number; head: boolean } | undefined;
  let inHead = false;
  let depth = 0;
  let end = limit;
  const closeCell = (to: number): void => {
    if (cell && row) row.cells.push({ from: cell.from, to, head: cell.head });
    cell = undefined;
  };
  const closeRow = (to: number): void => {
    closeCell(to);
    if (row) {
      row.to = to;
      if (row.cells.length > 0) rows.push(row);
    }
    row = undefined;
  };
  for (const t of tags) {
    if (t.name === 'table') {
      depth += t.closing ? -1 : 1;
      if (depth === 0) {
        closeRow(t.start);
        end = t.end;
        break;
      }
      continue;
    }
    if (depth !== 1) continue;
    if (t.name === 'thead') inHead = !t.closing;
    else if (t.name === 'tr') {
      closeRow(t.start);
      if (!t.closing) row = { from: t.start, to: t.end, cells: [], inHead };
    } else if (t.name === 'td' || t.name === 'th') {
      closeCell(t.start);
      if (!t.closing) {
        row ??= { from: t.start, to: t.end, cells: [], inHead };
        cell = { from: t.end, head: t.name === 'th' };
      }
    } else if (t.name === 'tbody' || t.name === 'tfoot') {
      closeRow(t.start);
      inHead = false;
    }
  }
  closeRow(end);
  if (rows.length === 0) return undefined;
  const codesOf = (c: Cell): Array<{ text: string; location: SourceLocation }> => {
    const out: Array<{ text: string; location: SourceLocation; from: number }> = [];
    let open: number | undefined;
    for (const t of scanTags(text, c.from, c.to)) {
      if (t.name !== 'code') continue;
      if (!t.closing) open = t.end;
      else if (open !== undefined) {
        out.push({ text: cellText(text.slice(open, t.start)), location: loc(open, t.start), from: open });
        open = undefined;
      }
    }
    const re = /`([^`\n]{1,500})`/g;
    const inner = text.slice(c.from, c.to);
    for (let m = re.exec(inner); m; m = re.exec(inner)) {
      const from = c.from + m.index + 1;
      out.push({ text: decodeEntities(m[1]!.trim()), location: loc(from, from + m[1]!.length), from });
    }
    return out.sort((a, b) => a.from - b.from).map(({ text: t, location }) => ({ text: t, location }));
  };
  const headRows = rows.filter((r) => r.inHead);
  const headerRow = headRows[0] ?? (rows[0]!.cells.every((c) => c.head) ? rows[0] : undefined);
  let header = headerRow ? headerRow.cells.map((c) => cellText(text.slice(c.from, c.to))) : [];
  // A table without a header whose first cells are flags (`<td>--cache</td><td>Cache versions…</td>`,
  // as npm-check-updates generates it) reads as `Option | Description`.
  if (!headerRow) {
    const flagLike = rows.filter((r) => r.cells.length >= 2 && /^--?[A-Za-z]/.test(cellText(text.slice(r.cells[0]!.from, r.cells[0]!.to)).replace(/^`/, '')));
    if (rows.length >= 2 && flagLike.length >= 0.6 * rows.length) header = ['Option', 'Description'];
  }
  const body: TableRow[] = rows
    .filter((r) => r !== headerRow && !r.inHead)
    .map((r) => {
      const codes = r.cells.map(codesOf);
      const cellSpans: number[] = [];
      for (const c of r.cells) pushLocation(cellSpans, loc(c.from, c.to));
      const codeSpans: number[] = [];
      codes.forEach((cs, col) => {
        for (const x of cs) {
          codeSpans.push(col);
          pushLocation(codeSpans, x.location);
        }
      });
      return {
        cells: r.cells.map((c) => cellText(text.slice(c.from, c.to).replace(/`/g, ''))),
        cellCodes: codes.map((cs) => cs.map((x) => x.text)),
        links: [],
        location: loc(r.from, r.to),
        cellSpans,
        ...(codeSpans.length > 0 ? { codeSpans } : {}),
      };
    });
  return { table: { header, rows: body, location: loc(start, end) }, end };
}

/**
 * Reads the `<pre>` element that starts at `start` (the offset of `<pre`) as code lines: the
 * content up to `</pre>`, tags inside (`<code class="language-bash">`, `<span>`, `<b>`) replaced
 * by as many blanks so columns stay right, then references decoded (a line holding one shifts
 * the columns after it). The language is the `language-x`/`lang-x` class of the `<pre>` or its
 * first `<code>`. The first line is dropped when it is blank (HTML ignores a newline right after
 * `<pre>`).
 *
 * @returns the lines (each with its file line and column), the language, the block's location
 *   and the offset after `</pre>`; `undefined` when `</pre>` is not found within the limit.
 */
export function readHtmlPre(
  file: string,
  text: string,
  start: number,
  at: OffsetMap,
): { lines: CodeLine[]; lang?: string; location: SourceLocation; end: number } | undefined {
  const limit = Math.min(text.length, start + MAX_HTML_CHARS);
  const tags = scanTags(text, start, limit);
  const open = tags[0];
  const close = tags.find((t) => t.name === 'pre' && t.closing);
  if (!open || open.name !== 'pre' || open.closing || !close) return undefined;
  const firstCode = tags.find((t) => t.name === 'code' && !t.closing && t.start < close.start);
  const langOf = (attrs: string | undefined): string | undefined => (attrs ? /\b(?:language|lang)-([\w+-]+)/.exec(attrs)?.[1] : undefined);
  const lang = langOf(open.attrs) ?? langOf(firstCode?.attrs);
  const content = replaceTags(text.slice(open.end, close.start), (n) => ' '.repeat(n));
  const lines: CodeLine[] = [];
  let offset = open.end;
  const pieces = content.split('\n');
  pieces.forEach((piece, k) => {
    const p = at(offset);
    offset += piece.length + 1;
    if (k === 0 && piece.trim() === '') return;
    const body = piece.replace(/\r$/, '');
    const lead = body.length - body.trimStart().length;
    lines.push({ line: p.line, column: p.column + lead, text: decodeEntities(body.slice(lead)) });
  });
  const a = at(start);
  const b = at(close.end);
  return { lines, ...(lang ? { lang } : {}), location: { file, line: a.line, column: a.column, endLine: b.line, endColumn: b.column }, end: close.end };
}
