/**
 * Pure helpers for fixes in GFM reference tables: find the table a section's rows come from,
 * read its source layout (indent, outer pipes, padding, aligned columns) and write a row in it.
 * Tables follow GFM 0.29 §4.10 (https://github.github.com/gfm/#tables-extension-).
 */
import { readEnvTable } from '../docs/reference-table.js';
import type { DocFile, DocTable, Model, ReferenceRow, ReferenceSection, TableRow } from '../model/types.js';
import { lineExtent, lineStarts } from './text.js';
import { trimTrailing, trimLeading } from '../shared/strings.js';

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
  const body = trimTrailing(line.slice(indent.length), ' \t');
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
  // Blanks counted by index: `/ *$/` rescanned a run of spaces not at the end from each position.
  const spaces = (count: (seg: string) => number) => body.segments.map((seg) => (seg.trim() === '' ? (seg.length > 0 ? 1 : 0) : Math.min(1, count(seg))));
  const style: TableStyle = {
    indent: prefix,
    leadingPipe: body.leadingPipe,
    trailingPipe: body.trailingPipe,
    lead: spaces((seg) => seg.length - trimLeading(seg, ' ').length),
    trail: spaces((seg) => seg.length - trimTrailing(seg, ' ').length),
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

/** What every fix in one table needs, computed once per table (a model and its tables are rebuilt each lint pass). */
interface TableFacts {
  rows: ReferenceRow[] | undefined;
  /** The table's rows by `line:column`. */
  at?: Map<string, TableRow>;
  style?: { text: string; style: TableStyle | undefined };
  codeColumns: Map<number, boolean>;
}

const tableFacts = new WeakMap<DocTable, TableFacts>();

function factsOf(table: DocTable): TableFacts {
  let facts = tableFacts.get(table);
  if (!facts) tableFacts.set(table, (facts = { rows: readEnvTable(table), codeColumns: new Map() }));
  return facts;
}

/** Per model: line starts by file, heading blocks by file and line, tables by section. */
interface ModelFacts {
  starts: Map<string, { text: string; starts: number[] }>;
  blocks: Map<string, Map<number, DocFile['blocks'][number]>>;
  sections: Map<ReferenceSection, SectionTable | undefined>;
}

const modelFacts = new WeakMap<Model, ModelFacts>();

function modelFactsOf(model: Model): ModelFacts {
  let facts = modelFacts.get(model);
  if (!facts) modelFacts.set(model, (facts = { starts: new Map(), blocks: new Map(), sections: new Map() }));
  return facts;
}

/**
 * {@link lineStarts} of a document's text, computed once per model and file, so a fix per
 * finding does not rescan the whole document (issue #18: 10,000 findings in one page).
 */
export function documentLineStarts(model: Model, file: string, text: string): number[] {
  const memo = modelFactsOf(model).starts;
  const known = memo.get(file);
  if (known && known.text === text) return known.starts;
  const starts = lineStarts(text);
  memo.set(file, { text, starts });
  return starts;
}

/** The heading block of a document that starts at `line`. */
export function blockAt(model: Model, file: string, line: number): DocFile['blocks'][number] | undefined {
  const memo = modelFactsOf(model).blocks;
  let byLine = memo.get(file);
  if (!byLine) {
    byLine = new Map();
    for (const b of model.doc(file)?.blocks ?? []) if (!byLine.has(b.heading.location.line)) byLine.set(b.heading.location.line, b);
    memo.set(file, byLine);
  }
  return byLine.get(line);
}

/** The table read as reference rows (`readEnvTable`: `readReferenceTable`, or an env-only table with its env column as the name), once per table. */
export function referenceRowsOf(table: DocTable): ReferenceRow[] | undefined {
  return factsOf(table).rows;
}

/** {@link tableStyle}, once per table and text. */
export function tableStyleOf(text: string, starts: readonly number[], table: DocTable): TableStyle | undefined {
  const facts = factsOf(table);
  if (facts.style?.text !== text) facts.style = { text, style: tableStyle(text, starts, table) };
  return facts.style.style;
}

/**
 * The reference table of a section whose rows it documents: the section's own table in its
 * heading block that holds the most of the section's rows. `undefined` when the section has no
 * table rows, or the model cannot give the document or its text (no `Model.source`). Computed
 * once per section of a model: every fix of a section's findings shares it.
 */
export function sectionTable(model: Model, section: ReferenceSection): SectionTable | undefined {
  const memo = modelFactsOf(model).sections;
  if (memo.has(section)) return memo.get(section);
  const found = findSectionTable(model, section);
  memo.set(section, found);
  return found;
}

function findSectionTable(model: Model, section: ReferenceSection): SectionTable | undefined {
  const text = model.source?.(section.file);
  if (text === undefined || !model.doc(section.file)) return undefined;
  const block = blockAt(model, section.file, section.heading.location.line);
  if (!block) return undefined;
  const sectionLines = new Set(section.rows.map((r) => r.location.line));
  let best: { table: DocTable; rows: ReferenceRow[]; score: number } | undefined;
  for (const table of block.tables) {
    const rows = referenceRowsOf(table);
    if (!rows || rows.length === 0) continue;
    let score = 0;
    for (const r of rows) if (sectionLines.has(r.location.line)) score++;
    if (score > 0 && (!best || score > best.score)) best = { table, rows, score };
  }
  return best ? { table: best.table, rows: best.rows, text, starts: documentLineStarts(model, section.file, text) } : undefined;
}

/** The table row at a reference row's line, if the row comes from a table (a map lookup, built once per table). */
export function tableRowAt(table: DocTable, row: ReferenceRow): TableRow | undefined {
  const facts = factsOf(table);
  if (!facts.at) {
    facts.at = new Map();
    for (const r of table.rows) {
      const key = `${r.location.line}:${r.location.column}`;
      if (!facts.at.has(key)) facts.at.set(key, r);
    }
  }
  return facts.at.get(`${row.location.line}:${row.location.column}`);
}

/** True when most body rows that have text in column `col` write it as an inline code span (once per table and column). */
export function columnUsesCode(table: DocTable, col: number): boolean {
  const facts = factsOf(table);
  let uses = facts.codeColumns.get(col);
  if (uses === undefined) {
    const filled = table.rows.filter((r) => (r.cells[col] ?? '').trim() !== '');
    uses = filled.length > 0 && filled.filter((r) => (r.cellCodes[col] ?? []).length > 0).length * 2 > filled.length;
    facts.codeColumns.set(col, uses);
  }
  return uses;
}
