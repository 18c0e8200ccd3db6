/** Input limits that keep the Markdown parser's run time bounded: a document too large or too deeply nested is skipped. */

/**
 * Largest document parsed, in UTF-16 code units (≈ characters): 1 Mi. micromark needs about
 * 8 s of CPU and 500 MB per megabyte of Markdown, and more than linear time on some inputs, so a
 * 50 MB file would run for minutes and exhaust the heap. Real reference pages and READMEs are
 * far smaller.
 */
export const MAX_DOCUMENT_LENGTH = 1024 * 1024;

/**
 * Deepest container nesting accepted on one line: list items and block quotes opened at the
 * start of a line (`- - - x`, `> > x`), or indentation wider than this many columns × 2 (a list
 * nested by indentation). micromark's container handling costs time quadratic in the depth
 * (5,000 levels do not finish) and its tree builders recurse per level; real documents nest a few
 * levels.
 */
export const MAX_NESTING = 100;

/** Container markers at a line start: a list bullet or ordinal followed by a blank, or `>`. */
const CONTAINER_RE = /[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|>[ \t]?)/y;

/** Indentation width of a line (a tab advances to the next multiple of 4, as in CommonMark). */
function indentWidth(line: string): number {
  let w = 0;
  for (const c of line) {
    if (c === ' ') w++;
    else if (c === '\t') w += 4 - (w % 4);
    else break;
  }
  return w;
}

/**
 * Why a document is not parsed, or `undefined` when it is within the limits
 * ({@link MAX_DOCUMENT_LENGTH}, {@link MAX_NESTING}). Linear in the text; never throws.
 *
 * @returns a sentence for a `parse-error` warning, e.g. "it is 52.4 MB, over the 1 MB limit
 *   for one document", with the 1-based line of the offending nesting when that is the reason.
 */
export function documentOverLimits(text: string): { reason: string; line: number } | undefined {
  if (text.length > MAX_DOCUMENT_LENGTH) {
    const mb = (text.length / (1024 * 1024)).toFixed(1);
    return { reason: `it is ${mb} MB, over the ${MAX_DOCUMENT_LENGTH / (1024 * 1024)} MB limit for one document`, line: 1 };
  }
  let lineNo = 0;
  let start = 0;
  // Lines end at `\n`, `\r\n` or a lone `\r`, as CommonMark's: a CR-only file is many lines, not one.
  const lineEnd = /\r\n?|\n/g;
  while (start <= text.length) {
    lineNo++;
    lineEnd.lastIndex = start;
    const found = lineEnd.exec(text);
    const end = found ? found.index : text.length;
    const line = text.slice(start, end);
    let depth = 0;
    CONTAINER_RE.lastIndex = 0;
    while (CONTAINER_RE.lastIndex < line.length && CONTAINER_RE.test(line)) depth++;
    if (depth > MAX_NESTING || indentWidth(line) > MAX_NESTING * 2) {
      return { reason: `line ${lineNo} is nested more than ${MAX_NESTING} levels deep`, line: lineNo };
    }
    start = found ? found.index + found[0].length : text.length + 1;
  }
  return undefined;
}
