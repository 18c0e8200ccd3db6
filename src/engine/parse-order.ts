/**
 * The order in which a run parses its documents.
 *
 * Parsing is bounded per run (src/docs/bounded-parse.ts: the overrun limit, the run-wide parse
 * budget, the limit on large documents), and those bounds are spent in the order documents are
 * parsed. Parsed in path order, eight slow pages named `a*.md` spent them before
 * `docs/reference.md` (a few hundred bytes) was reached: the reference was skipped, every
 * parameter read as undocumented was not reported, and the run exited 0 (#33, s23 sweep O1).
 * So the pages most likely to hold the reference go first, and the cheap ones before the costly
 * ones: what a budget cuts is then the slow tail, not the page the run exists to check.
 */
import { MAX_DOCUMENT_LENGTH } from '../docs/limits.js';

/**
 * How likely a page is to hold a reference section, from its text alone (no parse): a GFM table
 * delimiter row (`| --- | --- |`, `--- | ---`), a reStructuredText table (`.. list-table::`,
 * `.. csv-table::`, a grid table border `+---+`, a simple table rule `=== ===`) or a Markdown
 * definition of an option at a line start (`` `--flag` ``, `- ``--flag`` `). One regular
 * expression, anchored at line starts, linear in the text: after the leading blanks, every
 * alternative starts with a character that is not a blank, so giving a blank back fails at once
 * (`\|?[ \t]*` after `^[ \t]*` rescanned them, quadratic in a line's leading blanks: one line of
 * 150,000 spaces took 29 s, s26 sweep D7).
 */
const REFERENCE_LIKE = /^[ \t]*(?:(?:\|[ \t]*)?:?-+:?[ \t]*\||\.\. (?:list|csv)-table::|\+-{3,}\+|={3,}[ \t]+={3,}|(?:[-*+][ \t]+)?`{1,2}--?[A-Za-z])/m;

/** A Markdown ATX heading line's start. */
const ATX_START = /^#{1,6}[ \t]/;
/** Inline code in a line: a backtick, at least one other character, a backtick (linear: each run of non-backticks is read once). */
const INLINE_CODE = /`[^`]+`/;
/** RST inline literal in a line: two backticks, text, two backticks. */
const RST_LITERAL = /``[^`]+``/;
/** An RST title underline of `=`, `-` or `~`. */
const RST_UNDERLINE = /^[=~-]{3,}[ \t]*$/;

/**
 * True when `text` has a heading holding inline code (`` ### `tool` ``, `` ## `--seed` ``), as
 * reference sections are headed: a Markdown ATX heading with a code span, or an RST title holding
 * an inline literal over a line of `=`, `-` or `~`. Line by line, linear in the text (the one
 * regular expression it replaced backtracked over each line's backtick pairs, quadratic in a
 * long line of them).
 */
export function hasCodeHeading(text: string): boolean {
  let previous = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (ATX_START.test(line) && INLINE_CODE.test(line)) return true;
    if (previous !== '' && RST_UNDERLINE.test(line) && RST_LITERAL.test(previous)) return true;
    previous = line;
  }
  return false;
}

/** True when `text` looks like it may hold a reference table or list ({@link REFERENCE_LIKE}). */
export function looksLikeReference(text: string): boolean {
  return REFERENCE_LIKE.test(text);
}

/** The project's front page: a README at the root (`README.md`, `readme.mdx`, `README.rst`, …), where most examples are. */
const FRONT_PAGE = /^readme\.(?:md|mdx|markdown|rst|txt)$/i;

/**
 * What {@link parseOrder} and the run's line limit need of a page's text, kept with the page's
 * triage in the per-file cache (src/engine/doc-texts.ts) so that a run ordering stored pages does
 * not read them: `length` in UTF-16 code units, `lines` as {@link lineCount} counts them, `group`
 * 1 for a page that looks like a reference under a heading holding inline code, 2 for one that
 * looks like a reference, 3 otherwise (a text over the parser's length limit is not scanned: 3).
 */
export interface OrderFacts {
  length: number;
  lines: number;
  group: 1 | 2 | 3;
}

/** The {@link OrderFacts} of a page's text. */
export function orderFacts(text: string): OrderFacts {
  const scanned = text.length <= MAX_DOCUMENT_LENGTH;
  const like = scanned && looksLikeReference(text);
  return { length: text.length, lines: lineCount(text), group: like && hasCodeHeading(text) ? 1 : like ? 2 : 3 };
}

/**
 * `files` in the order to parse them: first those `isReference` accepts (the config's
 * `reference` and `globalFiles` patterns) and the root README (its examples are what users copy:
 * past the run's document limit, 30,000 pages left it unread, s31 sweep N4), then pages whose text looks like a reference
 * ({@link looksLikeReference}) under a heading holding inline code (`` ### `tool` ``: how
 * reference sections are headed), then the other pages that look like one, then the rest;
 * shorter texts first within each group, path order
 * among equals (the sort is stable). A file whose text is `undefined` (unreadable) keeps its
 * group's end, and one over the parser's length limit (`MAX_DOCUMENT_LENGTH`, which is not
 * parsed) is not scanned. Returns a new array; `files` is not changed.
 */
export function parseOrder(files: readonly string[], textOf: (file: string) => string | undefined, isReference: (file: string) => boolean): string[] {
  return parseOrderBy(
    files,
    (file) => {
      const text = textOf(file);
      return text === undefined ? undefined : orderFacts(text);
    },
    isReference,
  );
}

/** {@link parseOrder} from each page's {@link OrderFacts} (`undefined`: an unreadable page). */
export function parseOrderBy(files: readonly string[], factsOf: (file: string) => OrderFacts | undefined, isReference: (file: string) => boolean): string[] {
  const keyed = files.map((file, index) => {
    const facts = factsOf(file);
    const group = isReference(file) || FRONT_PAGE.test(file) ? 0 : (facts?.group ?? 3);
    return { file, index, group, length: facts?.length ?? Number.MAX_SAFE_INTEGER };
  });
  keyed.sort((a, b) => a.group - b.group || a.length - b.length || a.index - b.index);
  return keyed.map((k) => k.file);
}

/**
 * Most lines of documents one run parses (lines of the pages it parses, cached or not; a page
 * refused by its length, never parsed, counts none). Markdown costs per line as much as per byte:
 * micromark takes 15-25 µs of CPU for each line however short, so 16 pages just under the large
 * page size, each within its own parse budget, of one- or two-character lines with hard breaks
 * (693,000 lines in 2 MB) took 16-20 s on an idle 2-core machine (#33 s45 sweep G1). Real
 * projects parse far fewer: the most in the corpus is NeMo Gym, 48,347 lines of 386 pages (then
 * fastmcp 47,321, datamodel-code-generator 46,399; measured on every entry in s46), so the limit
 * is about 3 times that. Pages past it, in parse order
 * ({@link parseOrder}: likely references and short pages first), are not parsed, with one
 * `parse-error` warning for all; each page that would cross it is left and the next ones tried.
 */
export const MAX_PARSED_LINES = 150_000;

/**
 * Lines of `text` as {@link MAX_PARSED_LINES} counts them: line endings (LF, CRLF or a lone CR, as
 * CommonMark ends lines) plus one for a last line without one; 0 for no text or one over the
 * parser's length limit.
 */
export function lineCount(text: string | undefined): number {
  if (text === undefined || text.length === 0 || text.length > MAX_DOCUMENT_LENGTH) return 0;
  let n = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  const last = text.charCodeAt(end - 1);
  return last === 10 || last === 13 ? n : n + 1;
}

/**
 * Which of `order` (pages in {@link parseOrder}; `linesOf` their {@link lineCount}) one run parses: at most `maxDocuments` of them,
 * the first; and of those, in order, each whose lines keep the run within `maxLines`. `overDocuments`
 * and `overLines` are the pages left by each limit (in `order`'s order), `lines` those of `kept`.
 * Pages `alwaysRead` accepts (the buffers open in an editor: the page the user looks at must get
 * its findings, s46) count toward the limit but are never left by it.
 */
export function parsedPages(
  order: readonly string[],
  linesOf: (file: string) => number,
  maxDocuments: number,
  maxLines: number = MAX_PARSED_LINES,
  alwaysRead: (file: string) => boolean = () => false,
): { kept: string[]; overDocuments: string[]; overLines: string[]; lines: number } {
  const kept: string[] = [];
  const overLines: string[] = [];
  let lines = 0;
  for (const file of order.slice(0, maxDocuments)) {
    const n = linesOf(file);
    if (lines + n > maxLines && !alwaysRead(file)) {
      overLines.push(file);
      continue;
    }
    lines += n;
    kept.push(file);
  }
  return { kept, overDocuments: order.slice(maxDocuments), overLines, lines };
}
