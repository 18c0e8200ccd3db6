/** Matchers for the config's pattern lists: dotted parameter keys (`ignoreParameters`) and heading texts (`globalSections`). */
import picomatch from 'picomatch';
import { headingMatchText } from '../shared/strings.js';

/**
 * Compiles `ignoreParameters`-style patterns into a predicate on dotted parameter keys.
 *
 * Keys and patterns are split on `.` into segments and matched with picomatch, so `*` matches
 * within one segment and `**` any number of segments (`**._target_` matches `_target_` and
 * `a.b._target_`). A key matches when the key itself or any leading part of it matches a
 * pattern: ignoring a namespace (`*_server`) ignores everything under it (`policy_server.host`).
 * An empty pattern list matches nothing.
 */
export function createParameterMatcher(patterns: readonly string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => false;
  const isMatch = picomatch(
    patterns.map((p) => p.split('.').join('/')),
    { dot: true },
  );
  return (key: string): boolean => {
    const segments = key.split('.');
    for (let n = 1; n <= segments.length; n++) {
      if (isMatch(segments.slice(0, n).join('/'))) return true;
    }
    return false;
  };
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
 * code units). The greedy scan with one backtrack point: at most pattern × text steps. A regular
 * expression with `.*` per `*` backtracks to the power of the number of `*`s:
 * `*a*a*a*a*a*a*a*a*a*a*a*a*c` against a 61-character heading ran past 120 s (s25 sweep D4).
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
