/** Matchers for the config's pattern lists: dotted parameter keys (`ignoreParameters`) and heading texts (`globalSections`). */
import { pathMatcher } from '../shared/path-match.js';
import { headingMatchText } from '../shared/strings.js';

/**
 * Compiles `ignoreParameters`-style patterns into a predicate on dotted parameter keys.
 *
 * Keys and patterns are split on `.` into segments and matched with picomatch, so `*` matches
 * within one segment and `**` any number of segments (`**._target_` matches `_target_` and
 * `a.b._target_`). A key matches when the key itself or any leading part of it matches a
 * pattern: ignoring a namespace (`*_server`) ignores everything under it (`policy_server.host`).
 * An empty pattern list matches nothing. The predicate is pure; it keeps its answers (at most
 * {@link MAX_KEPT_ANSWERS} keys at a time).
 */
export function createParameterMatcher(patterns: readonly string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => false;
  const simple = patterns.filter((p) => !RICH_GLOB_RE.test(p)).map((p) => p.split('.'));
  const rich = patterns.filter((p) => RICH_GLOB_RE.test(p));
  const isRichMatch = rich.length > 0 ? pathMatcher(rich.map((p) => p.split('.').join('/')), { dot: true }) : undefined;
  // Each key's answer is kept (a model asks for the same names many times: NeMo Gym's rules asked
  // ~6 ms of each README edit's lint), up to a bound, so that hostile pages of many distinct
  // keys do not grow it without end.
  const answers = new Map<string, boolean>();
  return (key: string): boolean => {
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size >= MAX_KEPT_ANSWERS) answers.clear();
      answers.set(key, (answer = matches(key)));
    }
    return answer;
  };
  function matches(key: string): boolean {
    const segments = key.split('.');
    if (simple.some((pattern) => matchesLeadingPart(pattern, segments))) return true;
    // picomatch's expression runs in time up to the segment's length to the power of its
    // wildcards: a key with a segment longer than any parameter name is not tried against it.
    if (isRichMatch === undefined || segments.some((s) => s.length > MAX_RICH_SEGMENT_LENGTH)) return false;
    for (let n = 1; n <= segments.length; n++) {
      if (isRichMatch(segments.slice(0, n).join('/'))) return true;
    }
    return false;
  }
}

/** Most answers one {@link createParameterMatcher} predicate keeps (then it starts again empty). */
const MAX_KEPT_ANSWERS = 50_000;

/**
 * Glob syntax beyond `*`, `?` and `**` segments (brace groups, classes, extglobs, escapes): such
 * `ignoreParameters` patterns are matched by picomatch, the others by {@link matchesLeadingPart}.
 */
const RICH_GLOB_RE = /[[\](){}!+@\\]/;

/**
 * The longest key segment a pattern with {@link RICH_GLOB_RE} syntax is tried against, in UTF-16
 * code units. picomatch compiles `*a*a*b` to `[^/]*?a[^/]*?a[^/]*?b`, which backtracks: five example
 * keys of 3,000 characters took a run 30 s (#33 s38 sweep D5).
 */
const MAX_RICH_SEGMENT_LENGTH = 256;

/**
 * Whether the dotted-key segments `pattern` match `segments` or a leading part of them, as
 * picomatch matches the pattern joined with `/` (with `dot`): a `**` segment matches any number
 * of segments, none included; another segment matches one key segment by {@link wildcardMatch}
 * (`*` a run of characters, `?` one), a segment of only `*`s a non-empty one. Time: about the
 * pattern's segments × the key's × a segment's length, whatever the wildcards.
 */
export function matchesLeadingPart(pattern: readonly string[], segments: readonly string[]): boolean {
  // reach[j]: pattern[0..i) can match segments[0..j). Row by row over the pattern's segments.
  let reach = new Array<boolean>(segments.length + 1).fill(false);
  reach[0] = true;
  for (const seg of pattern) {
    const next = new Array<boolean>(segments.length + 1).fill(false);
    if (seg === '**') {
      let any = false;
      for (let j = 0; j <= segments.length; j++) next[j] = any ||= reach[j]!;
    } else {
      const glob = seg.replace(/\*{2,}/g, '*');
      const onlyStars = glob === '*';
      for (let j = 0; j < segments.length; j++) {
        if (!reach[j]) continue;
        const text = segments[j]!;
        if (onlyStars ? text !== '' : wildcardMatch(glob, text)) next[j + 1] = true;
      }
    }
    reach = next;
  }
  return reach.some((r, j) => r && j > 0);
}

/**
 * Compiles `globalSections`-style heading patterns into a predicate on heading texts.
 * Matching is case-insensitive and ignores surrounding whitespace, runs of inner whitespace, a
 * trailing colon, a trailing heading id and HTML comments (see `headingMatchText`);
 * `*` matches any run of characters (slashes included), `?` one character.
 */
export function createHeadingMatcher(patterns: readonly string[]): (text: string) => boolean {
  // A trailing colon and the blanks before it (what /\s*:$/ removed, in quadratic time on a
  // heading with a long blank run, #33 s27).
  const normalise = (s: string) => {
    const t = headingMatchText(s);
    return (t.endsWith(':') ? t.slice(0, -1).trimEnd() : t).toLowerCase();
  };
  const compiled = patterns.map(normalise);
  return (text: string): boolean => {
    const t = normalise(text);
    return compiled.some((pattern) => wildcardMatch(pattern, t));
  };
}

/**
 * Whether `text` matches `pattern` in full, `*` matching any run of characters and `?` one (UTF-16
 * code units). The pattern is cut at its `*`s: the first piece must start the text, the last end
 * it, and each piece between is found leftmost after the one before (leftmost is always right for
 * `*`-only wildcards). A piece without `?` is found with `indexOf` (V8's string search moves to
 * Boyer-Moore on hard inputs: linear), so a pattern costs about its length plus the text's; a
 * piece with `?` is tried at each place (its length × the text's).
 *
 * History: a regular expression with `.*` per `*` backtracked to the power of the number of `*`s
 * (`*a*a*a*a*a*a*a*a*a*a*a*a*c` against a 61-character heading ran past 120 s, s25 sweep D4); the
 * greedy scan with one backtrack point that replaced it was pattern × text per pair, which 40
 * patterns of 2,000 characters over 20 headings of 3,000 made minutes (#33 s27 sweep D4).
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  const pieces = pattern.split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return text.length === first.length && pieceAt(first, text, 0);
  const last = pieces.at(-1)!;
  if (first.length + last.length > text.length || !pieceAt(first, text, 0) || !pieceAt(last, text, text.length - last.length)) return false;
  const end = text.length - last.length;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = findPiece(piece, text, at, end);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

/** Whether `piece` (`?` matching any one code unit) matches `text` at `at` (the caller keeps it within the text). */
function pieceAt(piece: string, text: string, at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c !== 63 && c !== text.charCodeAt(at + i)) return false;
  }
  return true;
}

/** The leftmost offset in [`from`, `end` − its length] where `piece` matches `text`, or −1. */
function findPiece(piece: string, text: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const i = text.indexOf(piece, from);
    return i >= 0 && i + piece.length <= end ? i : -1;
  }
  for (let i = from; i + piece.length <= end; i++) if (pieceAt(piece, text, i)) return i;
  return -1;
}
