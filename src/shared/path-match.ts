/**
 * The one place docdrift compiles a glob into a path matcher (#33 kind 13).
 *
 * picomatch builds `**` (and the leading part of `*`-segments under `dot: true`) from `.`, which
 * in a JavaScript regular expression matches no line terminator (`\n`, `\r`, U+2028, U+2029):
 * a document under a folder named `n\nl` or `u\u2028x` was never matched by `docs/**\/*.md`
 * and was skipped with no finding and no note, while `docs/f\nile.md` (matched by `[^/]*`) was
 * read (s30 sweep2 D2: 2 of 3 stale copies reported -> 3 of 3). Every matcher built here carries
 * the `s` (dotAll) flag, so `.` matches any character but what picomatch's own expression
 * excludes; on a path without a line terminator the flag changes nothing.
 */
import picomatch from 'picomatch';

/** Options docdrift passes to picomatch: the two it uses. `flags` is always set here. */
export interface PathMatchOptions {
  /** Match names that start with `.` (picomatch's `dot`); default false. */
  dot?: boolean;
  /** Ignore case (picomatch's `nocase`, kept as the `i` flag since `flags` overrides it). */
  nocase?: boolean;
}

/** Line terminators JavaScript's `.` does not match without the `s` flag. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** True when `text` holds a character that a `.` without the `s` flag does not match (`\n`, `\r`, U+2028, U+2029). */
export function hasLineTerminator(text: string): boolean {
  return LINE_TERMINATOR.test(text);
}

/** picomatch's options for {@link pathMatcher} and {@link pathRegExp}: `dot` as given, flags `s` (plus `i` for `nocase`). */
function toPicomatch(options: PathMatchOptions): picomatch.PicomatchOptions {
  return { dot: options.dot ?? false, flags: options.nocase ? 'is' : 's' };
}

/**
 * A predicate on `/`-separated paths: true when any of `globs` matches the whole path, with
 * picomatch's semantics and `.` matching line terminators too (see the module comment).
 *
 * @param globs one glob or several (several: a match of any); each non-empty
 * @param options `dot` (default false), `nocase` (default false)
 * @throws {TypeError} as picomatch does, for an empty glob
 */
export function pathMatcher(globs: string | readonly string[], options: PathMatchOptions = {}): (file: string) => boolean {
  const isMatch = picomatch(typeof globs === 'string' ? globs : [...globs], toPicomatch(options));
  return (file) => isMatch(file);
}

/**
 * picomatch's regular expression for `glob` (its `makeRe`), compiled with the `s` flag (`is`
 * with `nocase`), for callers that run the expression themselves.
 *
 * @param glob a non-empty glob
 * @param options `dot` (default false), `nocase` (default false)
 */
export function pathRegExp(glob: string, options: PathMatchOptions = {}): RegExp {
  return picomatch.makeRe(glob, toPicomatch(options));
}
