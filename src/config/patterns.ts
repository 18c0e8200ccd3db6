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
  const normalise = (s: string) => headingMatchText(s).replace(/\s*:$/, '');
  const regexes = patterns.map((pattern) => {
    const source = [...normalise(pattern)]
      .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}$`, 'i');
  });
  return (text: string): boolean => {
    const t = normalise(text);
    return regexes.some((re) => re.test(t));
  };
}
