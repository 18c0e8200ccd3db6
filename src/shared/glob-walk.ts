/**
 * Matching the glob path arguments of one command line with bounded work (#33 kind 6).
 *
 * globby walked each brace alternative's base again (`**\/x{1..999}.md` was 999 walks of the
 * whole tree: 8,000 files, 15.2 s CPU, s30 sweep D2), and picomatch's backtracking regular
 * expression cost a name's length to the power of a segment's wildcards, once per file met
 * (`notes/*a*a*a` over 5,000 files with 250-character names: 14.9 s, s30 sweep D1). Here each
 * base is walked once for all the alternatives that share it, a name is tried only by the
 * alternatives whose literal ending it has, a glob of three or more wildcards is tried first by a
 * linear-time superset of its expression (RE2), and the entries walked and the characters matched
 * across the command line are counted against fixed totals.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathRegExp, wildcardDegree, literalEnding, withoutLookarounds } from './path-match.js';
import { linearRegExp } from './linear-regexp.js';

/** Most directory entries the glob arguments of one command line may walk, all bases together. */
export const MAX_GLOB_WALK_ENTRIES = 500_000;

/**
 * Most characters of relative paths the glob arguments of one command line may try against their
 * patterns (a path tried by three alternatives counts three times): about 5 s of the linear
 * matcher at its slowest (~160 ns a character), far less with the native one.
 */
export const MAX_GLOB_MATCH_CHARS = 30_000_000;

/** Thrown when a walk passes {@link MAX_GLOB_WALK_ENTRIES} or {@link MAX_GLOB_MATCH_CHARS}. */
export class GlobWorkError extends Error {
  override name = 'GlobWorkError';
  constructor(
    /** Which total was passed. */
    readonly kind: 'entries' | 'characters',
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when a directory under a base cannot be read (not for a base that does not exist). */
export class GlobReadError extends Error {
  override name = 'GlobReadError';
  constructor(
    readonly code: string,
    /** The directory that could not be read (absolute). */
    readonly path: string,
  ) {
    super(code);
  }
}

/** The work done so far by the walks of one command line; pass the same object to every {@link walkGlobs} call. */
export interface GlobBudget {
  entries: number;
  chars: number;
}

/** A new, empty {@link GlobBudget}. */
export function globBudget(): GlobBudget {
  return { entries: 0, chars: 0 };
}

export { literalEnding, withoutLookarounds } from './path-match.js';

/** One compiled alternative: its literal ending and its test of a path relative to its base. */
interface Alternative {
  ending: string;
  test: (relative: string) => boolean;
}

/**
 * A test of a relative path (`/`-separated) against `glob` with picomatch's semantics as globby
 * used them (`dot: false`); a glob of degree 3 or more is first tried by a linear-time superset
 * of picomatch's expression, so a name it cannot match costs linear time.
 */
export function globTest(glob: string): (relative: string) => boolean {
  const re = pathRegExp(glob, { dot: false });
  if (wildcardDegree(glob) < 3) return (relative) => re.test(relative);
  const superset = linearRegExp(withoutLookarounds(re.source), re.flags);
  return superset ? (relative) => superset(relative) && re.test(relative) : (relative) => re.test(relative);
}

/**
 * How deep below its base `glob` can match: its segment count, or unbounded with a `**` (or a
 * brace or extglob group, which may hold a `/`).
 */
function depthOf(glob: string): number {
  if (glob.includes('**') || glob.includes('{') || glob.includes('(')) return Infinity;
  return glob.split('/').length;
}

/**
 * The files under `baseAbs` that any of `globs` (relative to the base) matches, each base walked
 * once however many globs share it: directories are read to the deepest any glob reaches,
 * symbolic links are neither followed nor returned (globby's `followSymbolicLinks: false`,
 * `onlyFiles: true`), dot entries are walked and left to the globs to match (`dot: false`).
 *
 * @param baseAbs absolute directory; one that does not exist, or is not a directory, matches nothing
 * @param globs picomatch globs relative to the base (the `glob` of `picomatch.scan`)
 * @param budget the command line's work so far, updated
 * @returns absolute paths of the matching files, in walk order
 * @throws {GlobWorkError} past {@link MAX_GLOB_WALK_ENTRIES} entries or {@link MAX_GLOB_MATCH_CHARS} characters
 * @throws {GlobReadError} a directory that exists but cannot be read (`EACCES`)
 */
export function walkGlobs(baseAbs: string, globs: readonly string[], budget: GlobBudget): string[] {
  const alternatives: Alternative[] = globs.map((glob) => ({ ending: literalEnding(glob), test: globTest(glob) }));
  const byEnding = new Map<string, Alternative[]>();
  for (const a of alternatives) byEnding.set(a.ending, [...(byEnding.get(a.ending) ?? []), a]);
  const endingLengths = [...new Set(alternatives.map((a) => a.ending.length))];
  const maxDepth = Math.max(...globs.map(depthOf));
  const out: string[] = [];
  const visit = (dirAbs: string, relDir: string, depth: number, isBase: boolean): void => {
    let entries;
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      // A base that is missing or a file matches nothing, as globby's walk did; ENOENT below it is a race.
      if (code === 'ENOENT' || (isBase && code === 'ENOTDIR')) return;
      throw new GlobReadError(code, dirAbs);
    }
    budget.entries += entries.length;
    if (budget.entries > MAX_GLOB_WALK_ENTRIES) throw new GlobWorkError('entries', `walks more than ${MAX_GLOB_WALK_ENTRIES.toLocaleString('en-US')} files and folders`);
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth + 1 < maxDepth) visit(path.join(dirAbs, entry.name), rel, depth + 1, false);
        continue;
      }
      if (!entry.isFile()) continue;
      for (const length of endingLengths) {
        const candidates = byEnding.get(rel.slice(rel.length - length));
        if (!candidates || rel.length < length) continue;
        let hit = false;
        for (const a of candidates) {
          budget.chars += rel.length;
          if (budget.chars > MAX_GLOB_MATCH_CHARS) throw new GlobWorkError('characters', `tries more than ${MAX_GLOB_MATCH_CHARS.toLocaleString('en-US')} characters of file paths against its patterns`);
          if (a.test(rel)) {
            hit = true;
            break;
          }
        }
        if (hit) {
          out.push(path.join(dirAbs, entry.name));
          break;
        }
      }
    }
  };
  visit(baseAbs, '', 0, true);
  return out;
}
