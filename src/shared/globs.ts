/** Bounds on glob patterns from config files and the command line, checked before any glob library expands them. */

/**
 * Most patterns one glob may expand to by its brace groups (`{a,b}{c,d}` is 4). fast-glob (under
 * globby) expands braces into one pattern each before walking: `{a,b}` twenty times in a
 * 123-byte config was a million patterns, 37 s and 2.6 GB; thirty times, a V8 heap abort
 * (#33 fresh sweep defect 5). Real globs have a handful (`**\/*.{md,mdx}` is 2).
 */
export const MAX_BRACE_ALTERNATIVES = 1000;

/**
 * Most patterns all the globs of one config file (or of one command line) may expand to together:
 * a 4 MB config of globs each just under {@link MAX_BRACE_ALTERNATIVES} must not add up to millions.
 */
export const MAX_EXPANDED_PATTERNS = 10_000;

/**
 * An upper bound of how many patterns brace expansion makes of `pattern`: the product of every
 * group's alternatives (`{a,b}` 2, `{1..50}` 50, `{1..9..2}` counted as 9; a nested group is
 * multiplied in as a group of its own, so `{a,{b,c}}` counts 4 where it makes 3), stopping once
 * past `limit`. Backslash-escaped characters are literal; a group never closed, or without a
 * comma or range (`{a}`), counts 1, as micromatch leaves it literal. Linear in the pattern's length.
 *
 * Counted by hand: the brace parser fast-glob uses (`braces`, through micromatch) is not one of
 * docdrift's dependencies, and it offers no count without expanding.
 *
 * @param pattern a glob (a leading `!` is fine)
 * @param limit counting stops once the product passes it (default {@link MAX_BRACE_ALTERNATIVES})
 * @returns at least 1; a number over `limit` means "more than `limit`"
 */
export function braceAlternatives(pattern: string, limit = MAX_BRACE_ALTERNATIVES): number {
  let total = 1;
  const open: Array<{ start: number; commas: number }> = [];
  for (let i = 0; i < pattern.length && total <= limit; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') open.push({ start: i, commas: 0 });
    else if (c === ',' && open.length > 0) open[open.length - 1]!.commas++;
    else if (c === '}' && open.length > 0) {
      const group = open.pop()!;
      const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.-?\d+)?$/.exec(pattern.slice(group.start + 1, i));
      const count = range ? Math.abs(rangeValue(range[2]!) - rangeValue(range[1]!)) + 1 : group.commas + 1;
      total *= Math.max(1, count);
    }
  }
  return total;
}

function rangeValue(end: string): number {
  return /^-?\d+$/.test(end) ? Number(end) : end.charCodeAt(0);
}

/**
 * Longest glob accepted: picomatch refuses patterns over 65,536 characters with an error naming
 * no key (#33 sweep s19); a real glob is a line.
 */
export const MAX_GLOB_LENGTH = 4096;

/**
 * Most `*` wildcards in one path segment (`*test*` is 2; a segment that is `**` is none). The
 * matcher's regular expression backtracks over each: `docs/*a*a*a*a*a*a*a*a*b.md` against one
 * file named with 60 `a`s ran past 40 s (#33 sweep s19); with 3, a 255-character name costs at
 * most about 255³ steps.
 */
export const MAX_SEGMENT_WILDCARDS = 3;

/**
 * The most repeating wildcards in one `/`-separated segment of `pattern`: each run of `*` and each
 * extglob group (`*(…)`, `+(…)`, `?(…)`, `@(…)`, `!(…)`: picomatch compiles `+(a)` to `(?:a)+`)
 * counts one, a bare `**` segment none. Linear.
 */
export function maxSegmentWildcards(pattern: string): number {
  return scanWildcards(pattern).most;
}

/**
 * True when an extglob group sits inside another (`+(+(a))`): picomatch compiles it to nested
 * quantifiers (`(?:(?:a)+)+`), which backtrack exponentially on a name that almost matches (a
 * 40-byte config key hung the run past 30 s, s25 sweep D3). Linear.
 */
export function hasNestedExtglob(pattern: string): boolean {
  return scanWildcards(pattern).nested;
}

/** One pass over a glob: see {@link maxSegmentWildcards} and {@link hasNestedExtglob}. */
function scanWildcards(pattern: string): { most: number; nested: boolean } {
  let most = 0;
  let nested = false;
  for (const segment of pattern.split('/')) {
    if (segment === '**' || segment === '!**') continue;
    let count = 0;
    // Open parentheses, each true when it opened an extglob group.
    const open: boolean[] = [];
    let extglobs = 0;
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i]!;
      if (c === '\\') {
        i++;
        continue;
      }
      if ('*+?@!'.includes(c) && segment[i + 1] === '(') {
        count++;
        if (extglobs > 0) nested = true;
        open.push(true);
        extglobs++;
        i++;
        continue;
      }
      if (c === '*') {
        count++;
        while (segment[i + 1] === '*') i++;
        continue;
      }
      if (c === '(') open.push(false);
      else if (c === ')' && open.length > 0 && open.pop()) extglobs--;
    }
    if (count > most) most = count;
  }
  return { most, nested };
}

/** Why a list of globs is refused by {@link checkGlobExpansion}: which pattern, and a sentence. */
export interface GlobExpansionProblem {
  /** Index of the pattern at fault in the list checked. */
  index: number;
  /** Which bound it breaks: its length, the wildcards of one segment, or its brace expansion. */
  kind: 'length' | 'wildcards' | 'braces';
  /** `expands to more than 1,000 patterns by its brace groups` (no subject, no full stop). */
  problem: string;
}

/**
 * Checks globs before they reach globby: each is at most {@link MAX_GLOB_LENGTH} characters with
 * at most {@link MAX_SEGMENT_WILDCARDS} `*` runs per path segment, expands (by braces) to at most
 * {@link MAX_BRACE_ALTERNATIVES} patterns, and all of them together to at most
 * {@link MAX_EXPANDED_PATTERNS}.
 *
 * @param patterns the globs, in order (several config keys may be passed one after another; `index` counts through them all)
 * @returns the first pattern at fault, or undefined when all are within the bounds
 */
export function checkGlobExpansion(patterns: readonly string[]): GlobExpansionProblem | undefined {
  let sum = 0;
  for (const [index, pattern] of patterns.entries()) {
    const n = braceAlternatives(pattern);
    if (n > MAX_BRACE_ALTERNATIVES) return { index, kind: 'braces', problem: `expands to more than ${MAX_BRACE_ALTERNATIVES.toLocaleString('en-US')} patterns by its brace groups` };
    if (pattern.length > MAX_GLOB_LENGTH) return { index, kind: 'length', problem: `is longer than ${MAX_GLOB_LENGTH.toLocaleString('en-US')} characters` };
    const { most: stars, nested } = scanWildcards(pattern);
    if (nested) return { index, kind: 'wildcards', problem: 'has an extglob group inside another (such as `+(+(a))`): the glob matcher tries it in time that grows exponentially with the name\'s length' };
    if (stars > MAX_SEGMENT_WILDCARDS) return { index, kind: 'wildcards', problem: `has ${stars} repeating wildcards (\`*\` runs and extglob groups) in one path segment (at most ${MAX_SEGMENT_WILDCARDS}): the glob matcher tries such a segment in time that grows with the file name's length to that power` };
    sum += n;
    if (sum > MAX_EXPANDED_PATTERNS) return { index, kind: 'braces', problem: `brings the globs' expansions (by brace groups, one pattern per glob without them) past ${MAX_EXPANDED_PATTERNS.toLocaleString('en-US')} patterns in all` };
  }
  return undefined;
}
