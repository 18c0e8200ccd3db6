/** unist node positions as docdrift SourceLocations. */
import type { SourceLocation } from '../model/types.js';

/** A unist point (1-based line and column). */
export type Point = { line: number; column: number };

/** Anything with an optional unist `position`. */
export type Positioned = { position?: { start: Point; end: Point } | undefined };

/** The node's range in `file` (1-based, end exclusive); line 1, column 1 when the node has no position. */
export function locationOf(file: string, node: Positioned): SourceLocation {
  const p = node.position;
  if (!p) return { file, line: 1, column: 1 };
  return { file, line: p.start.line, column: p.start.column, endLine: p.end.line, endColumn: p.end.column };
}

/**
 * Appends `node`'s range to a packed span list (`TableRow.cellSpans`, src/model/types.ts):
 * `line, column, endLine, endColumn`; line 1, column 1 and no end when the node has no position.
 */
export function pushSpan(out: number[], node: Positioned): void {
  const p = node.position;
  if (!p) out.push(1, 1, 0, 0);
  else out.push(p.start.line, p.start.column, p.end.line, p.end.column);
}

/** Appends a location to a packed span list, as {@link pushSpan} does a node's range. */
export function pushLocation(out: number[], location: SourceLocation): void {
  out.push(location.line, location.column, location.endLine ?? 0, location.endColumn ?? 0);
}

/** The location of packed span `at` (its first number's index) in `file`. */
function spanLocation(file: string, spans: readonly number[], at: number): SourceLocation {
  const endLine = spans[at + 2]!;
  const endColumn = spans[at + 3]!;
  return { file, line: spans[at]!, column: spans[at + 1]!, ...(endLine > 0 ? { endLine } : {}), ...(endColumn > 0 ? { endColumn } : {}) };
}

/**
 * Where cell `col` of a table row is, in `file` (the table's: `DocTable.location.file`), built
 * from the row's packed `cellSpans`; undefined past the row's last cell.
 */
export function cellLocation(file: string, row: { cellSpans: readonly number[] }, col: number): SourceLocation | undefined {
  const at = col * 4;
  return col >= 0 && at + 3 < row.cellSpans.length ? spanLocation(file, row.cellSpans, at) : undefined;
}

/**
 * Where the `index`-th inline code span of cell `col` of a table row is (parallel to
 * `row.cellCodes[col]`), in `file`, built from the row's packed `codeSpans`; undefined when the
 * cell has no such span.
 */
export function cellCodeLocation(file: string, row: { codeSpans?: readonly number[] | undefined }, col: number, index: number): SourceLocation | undefined {
  const spans = row.codeSpans;
  if (spans === undefined) return undefined;
  let seen = 0;
  for (let at = 0; at + 4 < spans.length; at += 5) {
    if (spans[at] !== col) continue;
    if (seen++ === index) return spanLocation(file, spans, at + 1);
  }
  return undefined;
}

export { lineIndexAt } from '../shared/strings.js';
