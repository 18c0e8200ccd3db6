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
import { linearRegExp } from './linear-regexp.js';

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
 * Glob spec: picomatch's (`*`, `?`, `**`, `[…]` classes, `{a,b}` braces, extglobs, a leading `!`
 * negation). picomatch answers every path that reaches it, so the answers are picomatch's; but its
 * expression backtracks on a path it cannot match, up to the name's length to the power of a
 * segment's wildcards (`**\/*a*a*aq0` against a 245-character name: ~245³ steps, and 1,000 such
 * `ignore` globs over 300 names ran past 20 s, #33 F2). So each glob that is not negated and not
 * `nocase` first rejects, in linear time, a path that cannot match it: one that does not end with
 * its {@link literalEnding} (`q0`), and for a glob of {@link wildcardDegree} 3 or more one that RE2
 * rejects under picomatch's expression without its lookarounds (a superset of it). Both are
 * necessary conditions of picomatch's match, so no answer changes (test/path-match.test.ts
 * compares them on a table of real-shaped globs and paths).
 *
 * @param globs one glob or several (several: a match of any); each non-empty
 * @param options `dot` (default false), `nocase` (default false)
 * @throws {TypeError} as picomatch does, for an empty glob
 */
export function pathMatcher(globs: string | readonly string[], options: PathMatchOptions = {}): (file: string) => boolean {
  const list = typeof globs === 'string' ? [globs] : [...globs];
  const tests = list.map((glob) => globMatcher(glob, options));
  if (tests.length === 1) return tests[0]!;
  return (file) => tests.some((test) => test(file));
}

/** One glob's test for {@link pathMatcher}: picomatch's, behind the linear pre-filters where they are sound. */
function globMatcher(glob: string, options: PathMatchOptions): (file: string) => boolean {
  const isMatch = picomatch(glob, toPicomatch(options));
  // A negated glob matches what its body does not, and `nocase` folds case as JavaScript's `i`
  // does (not as `endsWith` or RE2 would): neither is pre-filtered.
  if (glob.startsWith('!') || options.nocase) return (file) => isMatch(file);
  const ending = literalEnding(glob);
  const degree = wildcardDegree(glob);
  if (ending === '' && degree < 3) return (file) => isMatch(file);
  // Compiled at the first path past the ending, once.
  let superset: ((text: string) => boolean) | null | undefined = degree < 3 ? null : undefined;
  return (file) => {
    // picomatch takes a path equal to the glob as it is (`[x]` matches the file `[x]`).
    if (file === glob) return isMatch(file);
    if (!file.endsWith(ending)) return false;
    if (superset === undefined) {
      const re = pathRegExp(glob, options);
      superset = linearRegExp(withoutLookarounds(re.source), re.flags) ?? null;
    }
    if (superset !== null && !superset(file)) return false;
    return isMatch(file);
  };
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

/** Characters that end a glob's literal ending (wildcards, classes, groups, escapes, separators, and `"`, which picomatch drops). */
const SPECIAL = new Set(['*', '?', '[', ']', '{', '}', '(', ')', '!', '+', '@', '\\', '/', '|', '"']);

/**
 * The literal characters a glob ends with, after its last wildcard, class, group, escape or `/`
 * (`**\/x1.md` → `x1.md`, `*.md` → `.md`, `docs/**` → empty): every file path the glob matches
 * ends with them, so a path that does not is never tried. Linear.
 */
export function literalEnding(glob: string): string {
  let i = glob.length;
  while (i > 0 && !SPECIAL.has(glob[i - 1]!)) i--;
  return glob.slice(i);
}

/**
 * `source` (a JavaScript regular expression's) without its lookaround groups (`(?=…)`, `(?!…)`,
 * `(?<=…)`, `(?<!…)`): a zero-width assertion only narrows what matches, so the result accepts
 * every text the original accepts, and RE2 (which has no lookarounds) can run it. Escapes and
 * character classes are skipped whole. Linear.
 */
export function withoutLookarounds(source: string): string {
  let out = '';
  let depth = 0; // > 0 while inside a lookaround being dropped
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let token = c;
    if (c === '\\') token = source.slice(i, i + 2);
    else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      token = source.slice(i, j + 1);
    } else if (c === '(') {
      const look = source.startsWith('(?=', i) || source.startsWith('(?!', i) || source.startsWith('(?<=', i) || source.startsWith('(?<!', i);
      if (depth > 0 || look) depth++;
    } else if (c === ')' && depth > 0) {
      depth--;
      i += token.length - 1;
      continue;
    }
    if (depth === 0) out += token;
    i += token.length - 1;
  }
  return out;
}

/**
 * How many times picomatch's expression for `glob` may rescan a name: each run of `*` and each
 * extglob group in a segment, and each `**` segment, counts one. At 3 or more a name costs up to
 * its length cubed (D1), so such a glob is tried by a linear superset first.
 */
export function wildcardDegree(glob: string): number {
  let degree = 0;
  for (const segment of glob.split('/')) {
    if (segment === '**') {
      degree++;
      continue;
    }
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i]!;
      if (c === '\\') i++;
      else if (c === '*' || ('+?@!'.includes(c) && segment[i + 1] === '(')) {
        degree++;
        while (segment[i + 1] === '*') i++;
      }
    }
  }
  return degree;
}
