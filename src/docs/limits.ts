/** Input limits that keep the Markdown parser's run time bounded: a document too large or too deeply nested is skipped. */
import type { DocFile, InputDiagnostic } from '../model/types.js';

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

/**
 * Most columns a table may have: a delimiter row (`| --- | --- |`) with more cells, or a line
 * starting with `|` (a row) of more cells, makes the document skipped. micromark and the table
 * readers hold several objects per cell, so a table of 20,000 columns (460 KB) peaked at 665 MB
 * (#33 D8), and 150 rows of 5,000 cells under a two-column header at 684 MB (#33 D9: the cells a
 * row has beyond its header's are kept); real tables have a few dozen at most.
 */
export const MAX_TABLE_COLUMNS = 1000;

/**
 * Most table cells a document may have, counted on the rows that start with `|` (up to three
 * spaces before it) after a delimiter row. micromark's cost per cell is about the same however
 * the cells are laid out, so a page of tiny cells is slow for its size: 440 rows of 999 one-letter
 * cells (890 KB, 440,000 cells) took 11.6-17.2 s of CPU, about twice a 487 KB reference table of
 * 30,000 rows (60,000 cells, 4.6 s) per KB (#33 fresh sweep D2). A count of cells is the same on
 * every machine, where a time budget is not. Real tables stay well under it: a reference table
 * of 30,000 rows has 60,000 cells, a support matrix of 10,000 rows and 25 columns 250,000 (that
 * one was refused at 200,000: #33 fresh sweep s20 D2).
 */
export const MAX_TABLE_CELLS = 400_000;

/**
 * Most link reference definitions (`[id]: https://…`) a document may have. micromark keeps every
 * definition's events and identifiers to the end of the document: 20,000 of them (700 KB) took
 * 13.7 s and 638 MB (#33 D8). Long change logs have a few hundred.
 */
export const MAX_DEFINITIONS = 5000;

/**
 * Most text an MDX page's ESM blocks may hold, in UTF-16 code units (the `import`/`export` lines
 * at column 0 and the lines after each up to the next blank line; {@link mdxEsmOverLimits}).
 * remark-mdx parses every block with acorn, whose scope checks cost time quadratic in the names
 * one block declares, and gives each block a prefix declaring every name imported before it, so
 * the cost also grows with blocks × names: one 914 KB block of `import a from "b"` lines took
 * 14.8 s of CPU before the run's parse budget stopped it (#33 sweep s23 D1), 52,000 distinct
 * imports 213 s, 4,000 one-line blocks separated by blank lines (90 KB) 48 s, and 175 blocks
 * of 50 names (76 KB) 6.5 s. At both limits (50 blocks of 90 names, 31 KB) the parse takes
 * about 1.2 s, one 32 KB block 0.8 s. Real pages import a few components: at most 426
 * characters of ESM, in 2 blocks, in the 2,399 `.mdx` files of the corpus.
 */
export const MAX_MDX_ESM_LENGTH = 32 * 1024;

/**
 * Most ESM blocks (an `import`/`export` line at column 0 and the lines after it up to a blank
 * line) an MDX page may have: each block is parsed with every name imported before it declared
 * again (see {@link MAX_MDX_ESM_LENGTH}): 1,000 one-line blocks took 2.6-3.9 s of CPU, 175
 * blocks of 50 names 6.5 s. The corpus's `.mdx` files have at most 2.
 */
export const MAX_MDX_ESM_BLOCKS = 50;

/** A line that starts an MDX ESM block: `import` or `export` at column 0, then a blank. */
const ESM_START_RE = /^(?:import|export)[ \t]/;

/** A line that opens a fenced code block at the top level: up to three spaces, then three or more backticks or tildes. */
const FENCE_OPEN_RE = /^ {0,3}(`{3,}|~{3,})/;

/** A line that closes a fenced code block: up to three spaces, the fence, blanks only. */
const FENCE_CLOSE_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * Why an MDX page's ESM is over {@link MAX_MDX_ESM_LENGTH} or {@link MAX_MDX_ESM_BLOCKS}, or
 * `undefined`. A block starts at an `import`/`export` line at column 0 outside a top-level fenced
 * code block and runs to the next blank line (as in micromark-extension-mdxjs-esm, which also
 * needs a blank line or the page's start before it; counting every such line errs toward
 * counting more). Linear in the text; never throws.
 *
 * @returns a reason and the 1-based line of the block that goes over.
 */
export function mdxEsmOverLimits(text: string): { reason: string; line: number } | undefined {
  let lineNo = 0;
  let fence: string | undefined;
  let inEsm = false;
  let esmLength = 0;
  let blocks = 0;
  for (const line of text.split(/\r\n?|\n/)) {
    lineNo++;
    const blank = line.trim() === '';
    if (inEsm) {
      if (blank) inEsm = false;
      else esmLength += line.length + 1;
    } else if (fence !== undefined) {
      const close = FENCE_CLOSE_RE.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
      continue;
    } else if (ESM_START_RE.test(line)) {
      inEsm = true;
      esmLength += line.length + 1;
      if (++blocks > MAX_MDX_ESM_BLOCKS) {
        return { reason: `line ${lineNo} starts its ESM block (\`import\`/\`export\`) number ${blocks.toLocaleString('en-US')}, over the ${MAX_MDX_ESM_BLOCKS.toLocaleString('en-US')} limit for one MDX page`, line: lineNo };
      }
    } else {
      const open = FENCE_OPEN_RE.exec(line);
      // A backtick fence's info string has no backtick; such a line is no fence.
      if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) fence = open[1];
      continue;
    }
    if (esmLength > MAX_MDX_ESM_LENGTH) {
      const kb = Math.round(MAX_MDX_ESM_LENGTH / 1024);
      return { reason: `its ESM (\`import\`/\`export\` blocks) goes over ${kb} KB at line ${lineNo}, the limit for one MDX page`, line: lineNo };
    }
  }
  return undefined;
}

/** A line that opens a link reference definition: up to three spaces, then `[label]:`. */
const DEFINITION_RE = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:/;

/** A GFM table delimiter row: only pipes, dashes, colons and blanks, with a dash and a pipe. */
const DELIMITER_ROW_RE = /^[ \t|:-]*$/;

/** A line that is a table row starting with a pipe (up to three spaces before it). */
const PIPE_ROW_RE = /^ {0,3}\|/;

/** Cells of a table row line: its unescaped pipes, less the leading and trailing one. */
function rowCells(line: string): number {
  let pipes = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92) i++; // a backslash escapes the next character (`\|` is text in a cell)
    else if (c === 124) pipes++;
  }
  return line.trimEnd().endsWith('|') ? pipes - 1 : pipes;
}

/** Container markers at a line start: a list bullet or ordinal followed by a blank, or `>`. */
const CONTAINER_RE = /[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|>[ \t]?)/y;

/** Container markers at the start of `line` ({@link CONTAINER_RE}, counted). */
function containerDepth(line: string): number {
  let depth = 0;
  CONTAINER_RE.lastIndex = 0;
  while (CONTAINER_RE.lastIndex < line.length && CONTAINER_RE.test(line)) depth++;
  return depth;
}

/**
 * How many times {@link MAX_NESTING} a line inside a fenced code block may hold markers: the scan
 * finds fences by their lines alone, so a fence inside an HTML block or comment (not one to
 * micromark) could exempt real nesting; this keeps such nesting bounded (micromark parses 50
 * lines of 1,000 `>` in ~1 s).
 */
const FENCED_NESTING_FACTOR = 4;

/**
 * True when `line` holds three or more of one of `-`, `*`, `_` and only spaces or tabs besides: a
 * CommonMark thematic break (section 4.1) once the open containers' indentation is taken off, or
 * the content of an indented code block. A break wins over a list item (`- - -`), so such a line
 * opens no container at any indentation.
 */
function isMarkerRuler(line: string): boolean {
  let marker = 0;
  let count = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    if (marker === 0 && (c === 45 || c === 42 || c === 95)) marker = c;
    if (c !== marker) return false;
    count++;
  }
  return count >= 3;
}

/**
 * The fence a line opens at the top level (CommonMark section 4.5: up to three spaces of
 * indentation, three or more backticks or tildes; a backtick fence's info string holds no
 * backtick), or undefined. `indent` is the line's {@link indentWidth}.
 */
function fenceOpening(line: string, indent: number): { char: number; length: number } | undefined {
  if (indent > 3) return undefined;
  const at = line.length - line.trimStart().length;
  const char = line.charCodeAt(at);
  if (char !== 96 && char !== 126) return undefined;
  let length = 0;
  while (line.charCodeAt(at + length) === char) length++;
  if (length < 3 || (char === 96 && line.indexOf('`', at + length) !== -1)) return undefined;
  return { char, length };
}

/** True when `line` closes `fence`: up to three spaces, at least as many of its marker, then only blanks. */
function isFenceClosing(line: string, indent: number, fence: { char: number; length: number }): boolean {
  if (indent > 3) return false;
  const at = line.length - line.trimStart().length;
  let length = 0;
  while (line.charCodeAt(at + length) === fence.char) length++;
  return length >= fence.length && line.slice(at + length).trim() === '';
}

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
 * What `parseDoc` (src/docs/parse.ts) gives a document over the limits ({@link documentOverLimits}'s
 * answer `over`): an empty DocFile and one `parse-error` warning, at `over.line`, that says why
 * it was not read. The document parser answers a document over {@link MAX_DOCUMENT_LENGTH} with it
 * without sending the text to its worker (src/docs/bounded-parse.ts).
 */
export function overLimitsOutcome(file: string, over: { reason: string; line: number }): { doc: DocFile; diagnostics: InputDiagnostic[] } {
  const kind: DocFile['kind'] = /\.mdx$/i.test(file) ? 'mdx' : /\.(?:rst|rest)$/i.test(file) ? 'rst' : 'md';
  return {
    doc: { file, kind, headings: [], blocks: [], codeBlocks: [], invocations: [], links: [] },
    diagnostics: [
      {
        ruleId: 'parse-error',
        severity: 'warn',
        message: `Not read: ${over.reason}, which the ${kind === 'rst' ? 'reStructuredText' : kind === 'mdx' ? 'MDX' : 'Markdown'} parser cannot handle in bounded time`,
        location: { file, line: over.line, column: 1 },
      },
    ],
  };
}

/**
 * The reason {@link documentOverLimits} gives for a text of `length` UTF-16 code units over
 * {@link MAX_DOCUMENT_LENGTH} ("it is 52.4 MB, over the 1 MB limit for one document"; MB of 2^20
 * code units), for a caller that holds the length and not the text (the language server's large
 * open pages, src/engine/held-pages.ts).
 */
export function overLengthReason(length: number): string {
  return `it is ${(length / (1024 * 1024)).toFixed(1)} MB, over the ${MAX_DOCUMENT_LENGTH / (1024 * 1024)} MB limit for one document`;
}

/**
 * Why a document is not parsed, or `undefined` when it is within the limits
 * ({@link MAX_DOCUMENT_LENGTH}, {@link MAX_NESTING}, {@link MAX_TABLE_COLUMNS},
 * {@link MAX_DEFINITIONS}; a row starting with `|` of more than {@link MAX_TABLE_COLUMNS} cells,
 * or more than {@link MAX_TABLE_CELLS} such cells in all; for an MDX page, `mdx`, its ESM blocks,
 * {@link mdxEsmOverLimits}). Linear in the text; never throws. Lines inside code fences are counted
 * too (a page showing 5,000 definitions in a code block is as hostile).
 *
 * @param mdx the document is an MDX page: its ESM blocks are bounded too.
 * @returns a sentence for a `parse-error` warning, e.g. "it is 52.4 MB, over the 1 MB limit
 *   for one document", with the 1-based line of the offending nesting when that is the reason.
 */
export function documentOverLimits(text: string, mdx = false): { reason: string; line: number } | undefined {
  if (text.length > MAX_DOCUMENT_LENGTH) return { reason: overLengthReason(text.length), line: 1 };
  if (mdx) {
    const esm = mdxEsmOverLimits(text);
    if (esm) return esm;
  }
  let lineNo = 0;
  let start = 0;
  let definitions = 0;
  let cellsSeen = 0;
  /** A table's delimiter row was seen: from then on a long `|` line may be one of its rows (a header row is counted on its delimiter row). */
  let delimiterSeen = false;
  /** The top-level fenced code block the scan is in (its marker character and length). */
  let fence: { char: number; length: number } | undefined;
  // Lines end at `\n`, `\r\n` or a lone `\r`, as CommonMark's: a CR-only file is many lines, not one.
  const lineEnd = /\r\n?|\n/g;
  while (start <= text.length) {
    lineNo++;
    lineEnd.lastIndex = start;
    const found = lineEnd.exec(text);
    const end = found ? found.index : text.length;
    const line = text.slice(start, end);
    const indent = indentWidth(line);
    const inFence = fence !== undefined;
    if (fence === undefined) fence = fenceOpening(line, indent);
    else if (isFenceClosing(line, indent, fence)) fence = undefined;
    // A thematic break (`- - - …`, `* * …`) and a line of a fenced code block's content open no
    // container, so their markers are no nesting (s49 sweep L4: a 120-marker ruler in a code block
    // left the page unread). A fence this scan misreads (one inside an HTML block) still gets the
    // bound times FENCED_NESTING_FACTOR.
    if (indent > MAX_NESTING * 2 || (!isMarkerRuler(line) && containerDepth(line) > MAX_NESTING * (inFence ? FENCED_NESTING_FACTOR : 1))) {
      return { reason: `line ${lineNo} is nested more than ${MAX_NESTING} levels deep`, line: lineNo };
    }
    if (line.length > MAX_TABLE_COLUMNS && line.includes('-') && DELIMITER_ROW_RE.test(line)) {
      const columns = line.replace(/^[ \t]*\|/, '').replace(/\|[ \t]*$/, '').split('|').length;
      if (columns > MAX_TABLE_COLUMNS) {
        return { reason: `line ${lineNo} is the delimiter row of a table of ${columns.toLocaleString('en-US')} columns, over the ${MAX_TABLE_COLUMNS.toLocaleString('en-US')} limit`, line: lineNo };
      }
    }
    if (delimiterSeen && PIPE_ROW_RE.test(line)) {
      const cells = rowCells(line);
      if (cells > MAX_TABLE_COLUMNS) {
        return { reason: `line ${lineNo} is a table row of ${cells.toLocaleString('en-US')} cells, over the ${MAX_TABLE_COLUMNS.toLocaleString('en-US')} limit`, line: lineNo };
      }
      cellsSeen += cells;
      if (cellsSeen > MAX_TABLE_CELLS) {
        return { reason: `line ${lineNo} takes its tables over ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells, the limit for one document`, line: lineNo };
      }
    }
    if (!delimiterSeen && line.includes('-') && line.includes('|') && DELIMITER_ROW_RE.test(line)) delimiterSeen = true;
    if (line.includes(']:') && DEFINITION_RE.test(line) && ++definitions > MAX_DEFINITIONS) {
      return { reason: `line ${lineNo} is its link reference definition number ${definitions.toLocaleString('en-US')}, over the ${MAX_DEFINITIONS.toLocaleString('en-US')} limit`, line: lineNo };
    }
    start = found ? found.index + found[0].length : text.length + 1;
  }
  return undefined;
}
