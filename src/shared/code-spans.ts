/**
 * Code spans in a short text (a table cell, a documented default), found in linear time.
 *
 * A span opens at a backtick run of length n and closes at the next run of exactly n backticks
 * (CommonMark 0.31 "Code spans", https://spec.commonmark.org/0.31.2/#code-spans; backslash
 * escapes are not read, as inside a span). A run that no later run of its length closes is
 * literal text. This replaced `/(`+)([\s\S]*?[^`])\1(?!`)/g`, which is cubic in a backtick run
 * with no closing run (a 7.5 KB Default cell of 1,500 backticks then 6,000 letters: over 60 s,
 * #33 s27 sweep D1), and which also read spans CommonMark does not (it backed off to a shorter
 * opening run: ``` ``a` ``` gave the span `` `a ``; here it is no span, as remark reads it).
 */

/** One code span of {@link codeSpans}. */
export interface CodeSpan {
  /** Offset of its opening run in the text (UTF-16 code units). */
  index: number;
  /** Length of the whole span, both runs included. */
  length: number;
  /** The text between the runs, as written (not stripped). */
  content: string;
}

/**
 * The code spans of `text`, in order. Linear in the text's length: each run is looked at a
 * bounded number of times (the closing run of an opening one is found through a precomputed
 * "next run of the same length" index).
 */
export function codeSpans(text: string): CodeSpan[] {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = 0; i < text.length; ) {
    if (text.charCodeAt(i) !== 96) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && text.charCodeAt(j) === 96) j++;
    runs.push({ start: i, length: j - i });
    i = j;
  }
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastByLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    nextSame[k] = lastByLength.get(runs[k]!.length) ?? -1;
    lastByLength.set(runs[k]!.length, k);
  }
  const spans: CodeSpan[] = [];
  for (let k = 0; k < runs.length; ) {
    const close = nextSame[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    const open = runs[k]!;
    const end = runs[close]!.start + runs[close]!.length;
    spans.push({ index: open.start, length: end - open.start, content: text.slice(open.start + open.length, runs[close]!.start) });
    k = close + 1;
  }
  return spans;
}
