/** Pure text helpers for `--fix` edits: line starts, line/column → UTF-16 offset, the file's own line ending. */
import type { SourceLocation } from '../model/types.js';
import { lineStarts } from '../shared/strings.js';

export { lineStarts };

/** A UTF-8 byte order mark as JavaScript reads it (U+FEFF). */
const BOM = '\uFEFF';


/**
 * The UTF-16 offset of a 1-based line and column (as remark gives them) in `text`, or `undefined`
 * when the line does not exist. micromark skips a leading byte order mark without counting it in
 * line 1's columns, so it is added back here.
 */
export function offsetAt(text: string, starts: readonly number[], line: number, column: number): number | undefined {
  const start = starts[line - 1];
  if (start === undefined) return undefined;
  const bom = line === 1 && text.startsWith(BOM) ? 1 : 0;
  return Math.min(text.length, start + bom + column - 1);
}

/** The `[start, end)` offsets of a location (end exclusive), or `undefined` without an end or past the text. */
export function rangeOf(text: string, starts: readonly number[], loc: SourceLocation): [number, number] | undefined {
  if (loc.endLine === undefined || loc.endColumn === undefined) return undefined;
  const start = offsetAt(text, starts, loc.line, loc.column);
  const end = offsetAt(text, starts, loc.endLine, loc.endColumn);
  return start === undefined || end === undefined || end < start ? undefined : [start, end];
}

/**
 * The extent of 1-based line `line`: `start` (first character), `end` (before its line ending)
 * and `next` (after its line ending: the next line's start, or the text's length).
 */
export function lineExtent(text: string, starts: readonly number[], line: number): { start: number; end: number; next: number } | undefined {
  const start = starts[line - 1];
  if (start === undefined) return undefined;
  const next = starts[line] ?? text.length;
  let end = next;
  if (end > start && text[end - 1] === '\n') end--;
  if (end > start && text[end - 1] === '\r') end--;
  return { start, end, next };
}

/** The file's own line ending: the first one it uses, `\n` when it has none. */
export function eolOf(text: string): '\r\n' | '\r' | '\n' {
  const m = /\r\n|\r|\n/.exec(text);
  return (m?.[0] as '\r\n' | '\r' | '\n' | undefined) ?? '\n';
}

/**
 * A Markdown code span holding `text` (CommonMark 6.1, https://spec.commonmark.org/0.31.2/#code-spans):
 * fenced by one more backtick than the longest run inside it, padded with a space when the text
 * starts or ends with a backtick, or both starts and ends with a space and is not all spaces (a
 * parser strips one space from each end of such content: `` `  a  ` `` reads as ` a `; s38 sweep
 * D2, a JSON Schema property ` lead ` written as `` ` lead ` `` read back as `lead`).
 */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const stripped = text.length >= 2 && text.startsWith(' ') && text.endsWith(' ') && /[^ ]/.test(text);
  const pad = text.startsWith('`') || text.endsWith('`') || stripped ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
