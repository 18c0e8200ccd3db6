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

export { lineIndexAt } from '../shared/strings.js';
