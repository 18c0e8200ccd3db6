/** String helpers every layer may use. */
import { memoByText } from './memo.js';

/** Compares strings by UTF-16 code units (locale-independent, so output is the same everywhere). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The heading text used to match section names: a trailing heading id (VitePress/Docusaurus
 * `{#build}`, MkDocs attr-list `{ #build }` / `{: #build .cls }`) and HTML comments
 * (`<!-- codespell:ignore -->`, Mintlify) removed, whitespace collapsed.
 *
 * @param text - The heading's plain text (mdast `toString`).
 * @returns The text without ids and comments; `''` when nothing else is left.
 */
export function headingMatchText(text: string): string {
  return headingMatchTextOf(text);
}

/** {@link headingMatchText}, once per heading text (src/shared/memo.ts): asked for every heading by several stages, in every lint of the language server. */
const headingMatchTextOf = memoByText((text: string): string =>
  withoutHeadingId(text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' '))
    .replace(/\s+/g, ' ')
    .trim(),
);

/** The opening of a heading id: `{`, an optional `:`, blanks, `#` (tested at one position: sticky). */
const HEADING_ID_OPEN = /\{:?\s*#/y;

/**
 * `text` without a trailing heading id (`{#build}`, `{: #build .cls }`), as the pattern
 * `/\s*\{:?\s*#[^}]*\}\s*$/` removes it, in linear time: that pattern, unanchored, rescanned a
 * heading's blank runs from each of their positions (four headings of 60,000 blanks: 28 s on the
 * main thread, s26b sweep D8). The id is the leftmost `{` after the last `}` but the closing one
 * that opens as `{#` / `{: #`; each candidate's test stops at the first character that is not a
 * blank, so the runs it reads do not overlap.
 */
function withoutHeadingId(text: string): string {
  const end = text.trimEnd();
  if (!end.endsWith('}')) return text;
  const from = end.lastIndexOf('}', end.length - 2) + 1;
  for (let i = end.indexOf('{', from); i !== -1 && i < end.length; i = end.indexOf('{', i + 1)) {
    HEADING_ID_OPEN.lastIndex = i;
    if (HEADING_ID_OPEN.test(end)) return end.slice(0, i);
  }
  return text;
}

/**
 * Index of the line holding `offset`, given the offsets where lines start (ascending, first 0):
 * the last start at or before `offset`, by binary search. 0-based; add 1 for a line number.
 */
export function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Offsets (UTF-16 code units) where each line of `text` starts; index 0 is line 1. Lines end at
 * `\r\n`, `\r` or `\n`, as in CommonMark (https://spec.commonmark.org/0.31.2/#line-ending).
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) starts.push(i + 1);
  }
  return starts;
}

/**
 * `text` without trailing characters from `chars` (`trimTrailing('a.,', '.,')` → `a`). Linear,
 * unlike `/[.,]+$/`, which a regex engine retries from every position of a long run (a
 * Docusaurus `url` of 199,000 slashes then `x/`: 31 s, s26c sweep D5).
 *
 * @param chars the characters to strip, each one UTF-16 code unit.
 */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without leading characters from `chars` (see {@link trimTrailing}). */
export function trimLeading(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text.charAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

/**
 * `text` with every run of whitespace that holds a line break made one space: what
 * replacing every match of the global regex `\s*\n\s*` by a space gives, in linear time (that
 * regex is quadratic in a run of blanks without a line break: a 100 KB string literal of spaces,
 * #33 s27).
 */
export function joinLines(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}

/**
 * An entry-point target without its extras (`pkg.cli:main [cli, extra]` → `pkg.cli:main`): what
 * replacing the regex `\s*\[.*\]\s*$` by nothing gives, in linear time (it was quadratic in a
 * blank run of the target, a pyproject value, #33 s27 sweep D2). The extras are the last line's
 * first `[` to a final `]`, with the blanks before them.
 */
export function withoutExtras(target: string): string {
  const end = target.trimEnd();
  if (!end.endsWith(']')) return target;
  const lineStart = Math.max(end.lastIndexOf('\n'), end.lastIndexOf('\r'), end.lastIndexOf('\u2028'), end.lastIndexOf('\u2029')) + 1;
  const open = end.indexOf('[', lineStart);
  return open < 0 ? target : end.slice(0, open).trimEnd();
}

/** The first `n` UTF-16 code units of `text`, one fewer when the n-th is the first half of a surrogate pair (a pair is never split). */
export function headOf(text: string, n: number): string {
  return text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(n - 1)) ? n - 1 : n);
}

/** `text` from offset `from`, one further when it starts on the second half of a surrogate pair (a pair is never split). */
export function tailFrom(text: string, from: number): string {
  return text.slice(/[\uDC00-\uDFFF]/.test(text.charAt(from)) ? from + 1 : from);
}

/**
 * The clause naming the other files one "Not read" warning stands for: `''` for none, ` (nor a.py)`
 * for one, ` (nor 12 other <noun>: a.py, b.py, c.py, …)` for more (the first three named).
 */
export function alsoNotRead(others: readonly string[], noun: string): string {
  if (others.length === 0) return '';
  if (others.length === 1) return ` (nor ${others[0]})`;
  return ` (nor ${others.length.toLocaleString('en-US')} other ${noun}: ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''})`;
}
