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

/** Called with the length (UTF-16 code units) of the piece of work that starts now. */
export type PieceObserver = (length: number) => void;

let observer: PieceObserver | undefined;

/** Sets (or, with undefined, clears) this thread's {@link PieceObserver}. */
export function setPieceObserver(next: PieceObserver | undefined): void {
  observer = next;
}

/** Reports that a piece of work over `length` code units of text starts now. Never throws. */
export function pieceStarted(length: number): void {
  observer?.(length);
}
