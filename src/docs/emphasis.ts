/**
 * Emphasis-dense text: a bound on the Markdown parser's work that is the same on every machine.
 *
 * micromark (micromark-core-commonmark `attention`, and GFM's `strikethrough`) costs about 0.1 ms
 * of CPU per run of `*`, `_` or `~` that may open or close emphasis, whatever the run's length or
 * place: `*_` repeated costs ~100 ms per KB, emphasis-heavy prose (`*a* **b** _c_ …`) ~28 ms/KB,
 * where real pages cost 3-15 ms/KB in all (#33 fresh sweep s20 D1, D4: pages of such text stayed
 * under every time budget and ran 11-18 s). With emphasis turned off the same texts cost 2-4 ms/KB.
 * Real pages come nowhere near the limit below: the most runs in any 8 KB of NeMo Gym's 1,588
 * Markdown pages is 136 (a glossary in bold), and of this repository's docs fewer.
 *
 * A page with 8 KB over the limit is parsed with emphasis and strikethrough turned off
 * ({@link EMPHASIS_OFF}): its `*`, `_` and `~` stay in the text as characters, and everything
 * else (tables, code, links, headings) is read as always. The page gets one warning.
 */

import { lineIndexAt, lineStarts } from '../shared/strings.js';

/** Runs of emphasis markers allowed in a text before emphasis is not read: this many, plus {@link EMPHASIS_RUNS_PER_KIB} per KiB. */
export const EMPHASIS_RUNS_BASE = 200;
/** Runs of emphasis markers allowed per KiB of text (1,000 in an 8 KB piece, 7× the most seen on a real page). */
export const EMPHASIS_RUNS_PER_KIB = 100;

/** A micromark extension turning off the constructs whose cost grows with the markers: emphasis/strong (`attention`) and GFM strikethrough. */
export const EMPHASIS_OFF = { disable: { null: ['attention', 'strikethrough'] } };

const STAR = 42;
const UNDERSCORE = 95;
const TILDE = 126;

/** ASCII letters and digits: an `_` run between two of them is intraword (it can neither open nor close emphasis). */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Runs of `*`, `_` and `~` in `text[from, to)` that may open or close emphasis: every run, less
 * `_` runs between two ASCII letters or digits (`resume_from_cache`). Code spans and blocks are
 * counted too (`**kwargs`): the count is an upper bound, linear in the length.
 */
export function emphasisRuns(text: string, from = 0, to = text.length): number {
  let runs = 0;
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== STAR && c !== UNDERSCORE && c !== TILDE) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < to && text.charCodeAt(j) === c) j++;
    if (!(c === UNDERSCORE && i > 0 && j < text.length && isWordCode(text.charCodeAt(i - 1)) && isWordCode(text.charCodeAt(j)))) runs++;
    i = j;
  }
  return runs;
}

/** The most runs of emphasis markers a text of `length` code units may hold and still have its emphasis read. */
export function emphasisRunLimit(length: number): number {
  return EMPHASIS_RUNS_BASE + Math.floor((length / 1024) * EMPHASIS_RUNS_PER_KIB);
}

/** Length of the windows {@link denseEmphasisLine} counts markers in, in UTF-16 code units; they start every half window. */
export const EMPHASIS_WINDOW = 8192;

/**
 * The 1-based line where the first window of `text` too dense in emphasis markers starts
 * ({@link EMPHASIS_WINDOW} code units, one every half window; a shorter text is one window), or
 * undefined when none is: then the page is parsed with emphasis off ({@link EMPHASIS_OFF}), all
 * of it, so that every parse of the page (whole, in pieces, in reused segments) gives the same tree.
 */
export function denseEmphasisLine(text: string): number | undefined {
  for (let from = 0; from < text.length; from += EMPHASIS_WINDOW / 2) {
    const to = Math.min(text.length, from + EMPHASIS_WINDOW);
    if (emphasisRuns(text, from, to) > emphasisRunLimit(to - from)) return lineIndexAt(lineStarts(text), from) + 1;
    if (to === text.length) break;
  }
  return undefined;
}

/**
 * Runs of emphasis markers one paragraph (one block of lines, see {@link denseEmphasis}) may
 * hold and still have its emphasis read: 2,000. micromark resolves a paragraph's runs against
 * each other, and a run that closes nothing looks back over every run before it, so one long
 * paragraph costs the square of its runs: 396 KB of GFM `www.a_b_c_ ` on one line holds only
 * about 740 runs per 8 KB, under {@link emphasisRunLimit}, yet its first 49.5 KB (4,500 runs)
 * parse in 1.7 s and 99 KB (9,000) in 4.5 s; the whole page ran to its 6 s budget (#33 s41
 * sweep D4). 2,000 runs cost about 0.2 s; a real paragraph holds a few dozen.
 */
export const EMPHASIS_RUNS_PER_PARAGRAPH = 2000;

/** A line that starts a block of its own: a list item, table row, block quote, heading, fence, HTML block or thematic break. */
const BLOCK_START = /^ {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|[|>#<]|`{3}|~{3}|_{3})/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The 1-based first line of the first block of lines that holds more than
 * {@link EMPHASIS_RUNS_PER_PARAGRAPH} runs of emphasis markers, or undefined when none does. A
 * block is a run of non-blank lines outside fenced code, cut before each line that starts a block
 * of its own (a list item, table row, quote, heading: each is an inline context of its own, or
 * starts one); a line is counted with {@link emphasisRuns}. An upper bound of a paragraph's runs,
 * linear in the length.
 */
function denseParagraphLine(text: string): number | undefined {
  let runs = 0;
  let blockLine = 0;
  let fence: string | undefined;
  let line = 0;
  for (let from = 0; from <= text.length; line++) {
    const end = text.indexOf('\n', from);
    const to = end === -1 ? text.length : end;
    const head = text.slice(from, Math.min(to, from + 16));
    if (fence !== undefined) {
      const close = FENCE.exec(head);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
    } else if (head.trim() === '' && text.slice(from, to).trim() === '') {
      runs = 0;
    } else {
      const open = FENCE.exec(head);
      if (open) {
        fence = open[1];
        runs = 0;
      } else {
        if (runs === 0 || BLOCK_START.test(head)) {
          runs = 0;
          blockLine = line;
        }
        runs += emphasisRuns(text, from, to);
        if (runs > EMPHASIS_RUNS_PER_PARAGRAPH) return blockLine + 1;
      }
    }
    if (end === -1) break;
    from = end + 1;
  }
  return undefined;
}

/**
 * Where `text` is too dense in emphasis markers for the Markdown parser, or undefined: the line of
 * the first 8 KB window over {@link emphasisRunLimit} ({@link denseEmphasisLine}), else of the
 * first paragraph over {@link EMPHASIS_RUNS_PER_PARAGRAPH} (`paragraph` true). Either way the
 * page is parsed with emphasis off, all of it.
 */
export function denseEmphasis(text: string): { line: number; paragraph: boolean } | undefined {
  const windowLine = denseEmphasisLine(text);
  if (windowLine !== undefined) return { line: windowLine, paragraph: false };
  const paragraphLine = denseParagraphLine(text);
  return paragraphLine !== undefined ? { line: paragraphLine, paragraph: true } : undefined;
}
