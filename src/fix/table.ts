/**
 * Pure helpers for fixes in GFM reference tables: find the table a section's rows come from,
 * read its source layout (indent, outer pipes, padding, aligned columns) and write a row in it.
 * Tables follow GFM 0.29 §4.10 (https://github.github.com/gfm/#tables-extension-).
 */
import { readReferenceTable } from '../docs/reference-table.js';
import type { DocTable, Model, ReferenceRow, ReferenceSection, TableRow } from '../model/types.js';
import { lineExtent, lineStarts } from './text.js';

/** The source layout of one table, read from its lines. */
export interface TableStyle {
  /**
   * The container prefix before the first pipe or cell, as every line after the header has it:
   * whitespace in a list item, `> ` in a block quote, `>   ` in a list in a block quote.
   */
  indent: string;
  leadingPipe: boolean;
  trailingPipe: boolean;
  /** Spaces before and after each cell's text, by column, as the first body row has them (at most 1; 0 for `|a|b|`). */
  lead: number[];
  trail: number[];
  /**
   * Width of each column's segment between pipes, when every line of the table has the same
   * segment widths (an aligned, "pretty" table); `undefined` for a compact table.
   */
  widths?: number[];
}

/** A reference table of a section with everything a fix needs. */
export interface SectionTable {
  table: DocTable;
  /** The table read as reference rows, parallel to the table's rows that have a name. */
  rows: ReferenceRow[];
  /** The document's text and its line starts. */
  text: string;
  starts: number[];
}

/**
 * The container prefix of a table line: indentation and block-quote markers (a line of a table
 * cannot start with `>` otherwise, since CommonMark reads that as a block quote).
 */
const CONTAINER_PREFIX = /^(?:[ \t]*>)*[ \t]*/;

/** Splits one table line into its container prefix and its cell segments between unescaped pipes (GFM: pipes inside code spans split cells too). */
export function splitTableLine(line: string): { indent: string; leadingPipe: boolean; trailingPipe: boolean; segments: string[] } {
  const indent = CONTAINER_PREFIX.exec(line)![0];
  const body = line.slice(indent.length).replace(/[ \t]+$/, '');
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '\\' && i + 1 < body.length) {
      current += ch + body[i + 1]!;
      i++;
    } else if (ch === '|') {
      segments.push(current);
      current = '';
    } else current += ch;
  }
  segments.push(current);
  const leadingPipe = body.startsWith('|');
  if (leadingPipe) segments.shift();
  const trailingPipe = segments.length > 0 && body.length > (leadingPipe ? 1 : 0) && segments[segments.length - 1] === '' && body.endsWith('|');
  if (trailingPipe) segments.pop();
  return { indent, leadingPipe, trailingPipe, segments };
}

/**
 * The table's source layout, from its header, delimiter and body lines.
 *
 * @returns `undefined` when the lines after the header do not share one container prefix (a
 *   lazy block-quote line, mixed indentation): a row written there could not be put back exactly,
 *   so the finding gets no fix.
 */
export function tableStyle(text: string, starts: readonly number[], table: DocTable): TableStyle | undefined {
  const lineText = (line: number): string => {
    const ext = lineExtent(text, starts, line);
    return ext ? text.slice(ext.start, ext.end) : '';
  };
  const lines = [table.location.line, table.location.line + 1, ...table.rows.map((r) => r.location.line)].map(lineText);
  const split = lines.map(splitTableLine);
  const body = split[2] ?? split[0]!;
  // The header line may carry a list marker (`- | a |`); the lines after it show the container.
  const prefix = split[1]?.indent ?? body.indent;
  if (split.slice(1).some((sp) => sp.indent !== prefix)) return undefined;
  const spaces = (re: RegExp) => body.segments.map((seg) => (seg.trim() === '' ? (seg.length > 0 ? 1 : 0) : Math.min(1, re.exec(seg)![0].length)));
  const style: TableStyle = {
    indent: prefix,
    leadingPipe: body.leadingPipe,
    trailingPipe: body.trailingPipe,
    lead: spaces(/^ */),
    trail: spaces(/ *$/),
  };
  // Without a closing pipe the last column is ragged even in an aligned table.
  const compared = (segs: string[]): string[] => (body.trailingPipe ? segs : segs.slice(0, -1));
  const widths = split[0]!.segments.map((seg) => seg.length);
  const aligned = split.length >= 3 && compared(widths.map(String)).length > 0
    && split.every((sp) => sp.segments.length === widths.length && compared(sp.segments).every((seg, i) => seg.length === widths[i]));
  if (aligned) style.widths = widths;
  return style;
}

/** Writes one table line in `style` from cell texts (already escaped for a table cell). */
export function formatTableLine(style: TableStyle, cells: readonly string[]): string {
  const last = cells.length - 1;
  const segments = cells.map((cell, i) => {
    const lead = ' '.repeat(style.lead[i] ?? style.lead[0] ?? 1);
    const trail = ' '.repeat(style.trail[i] ?? style.trail[0] ?? 1);
    const width = style.widths?.[i];
    const plain = `${lead}${cell}${trail}`;
    if (width === undefined || (i === last && !style.trailingPipe)) return plain;
    return plain.length < width ? `${lead}${cell}`.padEnd(width) : plain;
  });
  return `${style.indent}${style.leadingPipe ? '|' : ''}${segments.join('|')}${style.trailingPipe ? '|' : ''}`;
}

/**
 * The reference table of a section whose rows it documents: the section's own table in its
 * heading block that holds the most of the section's rows. `undefined` when the section has no
 * table rows, or the model cannot give the document or its text (no `Model.source`).
 */
export function sectionTable(model: Model, section: ReferenceSection): SectionTable | undefined {
  const text = model.source?.(section.file);
  const doc = model.doc(section.file);
  if (text === undefined || !doc) return undefined;
  const block = doc.blocks.find((b) => b.heading.location.line === section.heading.location.line);
  if (!block) return undefined;
  const sectionLines = new Set(section.rows.map((r) => r.location.line));
  let best: { table: DocTable; rows: ReferenceRow[]; score: number } | undefined;
  for (const table of block.tables) {
    const rows = readReferenceTable(table);
    if (!rows || rows.length === 0) continue;
    const score = rows.filter((r) => sectionLines.has(r.location.line)).length;
    if (score > 0 && (!best || score > best.score)) best = { table, rows, score };
  }
  return best ? { table: best.table, rows: best.rows, text, starts: lineStarts(text) } : undefined;
}

/** The table row at a reference row's line, if the row comes from a table. */
export function tableRowAt(table: DocTable, row: ReferenceRow): TableRow | undefined {
  return table.rows.find((r) => r.location.line === row.location.line && r.location.column === row.location.column);
}

/** True when most body rows that have text in column `col` write it as an inline code span. */
export function columnUsesCode(table: DocTable, col: number): boolean {
  const filled = table.rows.filter((r) => (r.cells[col] ?? '').trim() !== '');
  if (filled.length === 0) return false;
  return filled.filter((r) => (r.cellCodes[col] ?? []).length > 0).length * 2 > filled.length;
}
