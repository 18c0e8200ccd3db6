/**
 * Progress of the document parser inside one document, for the parse budgets of
 * src/docs/bounded-parse.ts: the parser says when it starts a piece of work (a piece of a long
 * Markdown text, a whole short one, the readers over the finished tree) and how long that
 * piece's text is, so the budget can be held per piece rather than only per document.
 *
 * Why per piece: the inputs the budgets guard against (`*_` runs, setext underlines, pipe-heavy
 * lines) are slow because their cost grows faster than their length, inside one piece that
 * cannot be cut; real pages are cut into pieces of about 8 KB (`parseInPieces`,
 * src/docs/segments.ts) that each parse in 30-120 ms. A budget per piece sized for its length
 * therefore stops a hostile piece within about a second and leaves a real one ten times its
 * cost, however loaded the machine; the budget per document can then be generous enough for a
 * long real page on a loaded machine (#33: a 500 KB table of 30,000 rows, 4.6 s of CPU on an
 * idle 2-core machine, ran over a per-document budget of 3.9 s).
 *
 * The observer is set once per thread (the parse worker sets it); without one, nothing is reported.
 */

/**
 * Called with the length (UTF-16 code units) of the piece of work that starts now and, when it
 * is a probe ({@link probedPiece}: a parse of a long piece's first part, whose result is thrown
 * away), the length of the piece it probes (else 0).
 */
export type PieceObserver = (length: number, probeOf: number) => void;

let observer: PieceObserver | undefined;

/** Sets (or, with undefined, clears) this thread's {@link PieceObserver}. */
export function setPieceObserver(next: PieceObserver | undefined): void {
  observer = next;
}

/** Reports that a piece of work over `length` code units of text starts now (a probe of a piece of `probeOf` code units when not 0). Never throws. */
export function pieceStarted(length: number, probeOf = 0): void {
  observer?.(length, probeOf);
}

/**
 * Pieces parsed whole of at least this length (UTF-16 code units) are probed first
 * ({@link probedPiece}): 128 Ki, the length from which a document is large
 * (`LARGE_DOCUMENT_LENGTH`, src/docs/bounded-parse.ts). Shorter pieces are held to their own
 * budget soon enough.
 */
export const PIECE_PROBE_MIN_LENGTH = 128 * 1024;

/** Length of a probe (UTF-16 code units): the first 48 Ki of the piece. */
export const PIECE_PROBE_LENGTH = 48 * 1024;

/**
 * Parses a piece of text that cannot be cut with `parse`; a piece of
 * {@link PIECE_PROBE_MIN_LENGTH} or more is probed first: its first {@link PIECE_PROBE_LENGTH}
 * code units (cut anywhere, a surrogate pair kept whole) are parsed and the result, or error, thrown away,
 * reported as a probe. The parse budgets (src/docs/bounded-parse.ts) hold a probe to the budget
 * per piece of its own length (1 s plus 24 ms per KB: 2.2 s), so a piece whose cost grows faster
 * than its length is stopped after about 2.2 s instead of its document's whole budget: a piece's
 * budget grows with its length, and one such piece of 400 KB ran to the 6 s budget per document,
 * 9-10 s of CPU with the V8 helper threads' garbage collection (#33 s41 sweep D4: a blockquote of
 * lazy setext lines, unclosed `<details>` blocks; their first 48 KB cost 4.3-4.8 s). The first
 * 48 KB of real pieces that cannot be cut (changelogs with link reference definitions, an MDX
 * changelog; corpus snapshots) cost 0.25-0.6 s on a loaded 2-core machine, cold. A real piece
 * pays the probe once, about a tenth of its parse. A thread with no {@link PieceObserver} (no
 * budget to hold) parses the piece once.
 *
 * @returns what `parse` returns for the whole `text`.
 * @throws what `parse` throws.
 */
export function probedPiece<T>(text: string, parse: (text: string) => T): T {
  // Only where budgets are held (a thread with an observer: the parse worker).
  if (observer !== undefined && text.length >= PIECE_PROBE_MIN_LENGTH) {
    let end = PIECE_PROBE_LENGTH;
    const c = text.charCodeAt(end);
    if (c >= 0xdc00 && c <= 0xdfff) end--;
    pieceStarted(end, text.length);
    try {
      parse(text.slice(0, end));
    } catch {
      // Only its cost counts: a prefix cut inside a construct may not parse (MDX), the whole may.
    }
  }
  pieceStarted(text.length);
  return parse(text);
}
