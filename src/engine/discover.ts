/** Finds the files a run reads: code sources, docs and Python packaging files, honouring .gitignore. */
import { createHash } from 'node:crypto';
import fs, { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './git.js';
import { globby } from 'globby';
import picomatch from 'picomatch';
import { ALWAYS_IGNORED_GLOBS } from '../config/schema.js';


/** The files of one run, project-relative POSIX paths, sorted. */
export interface DiscoveredFiles {
  sources: string[];
  docs: string[];
  /** `pyproject.toml`, `setup.cfg` and `setup.py` files, which declare console scripts, and the root `package.json` (`bin`). */
  packaging: string[];
  /** YAML config files, whose `${key}` interpolations read keys of a Hydra/OmegaConf config. */
  yaml: string[];
  /**
   * Directories (project-relative POSIX paths, sorted) that could not be listed or entered
   * (EACCES): their files were not checked, which the engine reports as `parse-error`s.
   * Absent when there are none.
   */
  unreadable?: string[];
  /**
   * JavaScript files and extensionless files in `bin/` folders: candidates for what a `bin` runs
   * (a shim, or a plain JavaScript program). Only those a bin reaches are read. Optional so that
   * callers building the lists by hand may leave it out.
   */
  programs?: string[];
  /**
   * JSON files that may hold a JSON Schema (`*.schema.json`, `*-schema.json`, files in `schema/`
   * or `schemas/` folders, outside test folders). Optional, as {@link programs} is.
   */
  schemas?: string[];
}

/**
 * Every discovered file a run reads, deduplicated and sorted (code-unit order): the inputs the
 * run cache hashes (src/engine/cache.ts). With `documents: false`, the code inputs only (every
 * list but `docs`), which key the cached extraction (src/engine/code-facts.ts).
 */
export function discoveredInputs(files: DiscoveredFiles, options: { documents: boolean }): string[] {
  const lists = [files.sources, ...(options.documents ? [files.docs] : []), files.packaging, files.yaml, files.schemas ?? [], files.programs ?? []];
  return [...new Set(lists.flat())].sort();
}

/** How {@link discoverFiles} lists files: `auto` tries git first and falls back to globby. */
export type DiscoveryStrategy = 'auto' | 'git' | 'globby';

/** Every `package.json` is a workspace package that may declare `bin` commands; test fixtures are not. */
const PACKAGING = ['**/pyproject.toml', '**/setup.cfg', '**/setup.py', '**/package.json', '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata,test-fixtures}/**/package.json'];
const PROGRAMS = ['**/*.{js,mjs,cjs}', '**/bin/*', '!**/*.min.js', '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata}/**'];
export const YAML = ['**/*.yaml', '**/*.yml'];
/** JSON files named or placed as schemas: candidates for JSON Schema config types. */
export const SCHEMAS = ['**/*{.,-,_}schema.json', '**/{schema,schemas}/**/*.json', '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata}/**'];

/**
 * Globs the project. Patterns are globby/fast-glob patterns relative to `root`; `.gitignore`
 * files are honoured (as globby `gitignore: true`: every `.gitignore` from the repository root
 * down, not `.git/info/exclude` nor the global excludes file); symbolic links are neither listed
 * nor followed; dot files match only patterns that name the dot.
 *
 * In a git work tree the candidate files come from one `git ls-files` (tracked files, also those
 * a `.gitignore` pattern matches, as git itself keeps them; untracked files minus what
 * `.gitignore` ignores) and are matched with picomatch, instead of four directory
 * walks by globby, which cost seconds on a NeMo-Gym-sized repository. The patterns keep globby's
 * meaning (directory expansion, negations that apply to the patterns before them). globby is
 * used whenever git cannot give the same answer: git missing or `root` not in a work tree,
 * submodules or nested repositories (globby walks into them, `git ls-files` does not), or a
 * pattern that leaves the root (`../`, absolute).
 *
 * @param root absolute project root
 * @param sources globs of code files
 * @param docs globs of Markdown/MDX files
 * @param ignore extra globs to skip, added to {@link ALWAYS_IGNORED_GLOBS}
 * @param strategy `auto` (default); `git` or `globby` force one way (tests compare them; `git`
 *   rejects when git cannot be used)
 * @param lstats when given, receives the `lstat` of each file found, by project-relative path,
 *   when the git listing took them (to tell regular files); the globby walk leaves it empty.
 *   The run cache hashes with them instead of a second `stat` per file: for a regular file the
 *   two are the same. Stats already in it (taken by the caller moments before) are used as they are.
 * @param listing the `git ls-files` of {@link startGitListing}, started earlier for this root
 *   (used only when git is the way; otherwise its processes just end)
 * @param memo the lists an earlier run matched from its git listing (see {@link DiscoveryMemo}):
 *   reused when the listing, the expanded patterns and `memo.salt` are the same; this run's are
 *   left in `memo.next`
 */
export async function discoverFiles(
  root: string,
  sources: string[],
  docs: string[],
  ignore: string[],
  strategy: DiscoveryStrategy = 'auto',
  { lstats, listing, memo }: { lstats?: Map<string, Stats>; listing?: GitListing; memo?: DiscoveryMemo } = {},
): Promise<DiscoveredFiles> {
  const ignored = [...ALWAYS_IGNORED_GLOBS, ...ignore];
  if (strategy !== 'globby' && [...sources, ...docs, ...ignore].every(isRelativePattern)) {
    const listed = await (listing?.root === root ? listing.files : gitFiles(root));
    if (listed) {
      const expandedIgnore = await expandDirectories(root, ignored);
      // A workspace package whose folder is named like output (`incubator/build/` with its own
      // package.json and src/) is source: inside it, only its own output folders are skipped.
      const packages = outputNamedPackages(listed);
      const inPackage = (f: string): string | undefined => packages.find((d) => f.startsWith(`${d}/`));
      const packageIgnore = expandedIgnore.filter((g) => !OUTPUT_NAMED_GLOBS.has(g));
      const pick = (expanded: string[]): string[] => {
        const matches = globbyMatcher(expanded, expandedIgnore);
        if (packages.length === 0) return listed.filter(matches).sort();
        const inside = globbyMatcher(expanded, packageIgnore);
        return listed
          .filter((f) => {
            const pkg = inPackage(f);
            if (pkg === undefined) return matches(f);
            return inside(f) && !f.slice(pkg.length + 1).split('/').slice(0, -1).some((part) => OUTPUT_NAMED.has(part));
          })
          .sort();
      };
      // In the order of MATCHED_LIST_NAMES.
      const sets = await Promise.all([sources, docs, PACKAGING, YAML, PROGRAMS, SCHEMAS].map((patterns) => expandDirectories(root, patterns)));
      // Matching every listed file against six pattern sets is most of discovery's time (NeMo Gym's
      // 4,140 files: ~70 ms; synthetic 10x: ~300 ms): a run whose listing and patterns are the
      // same as the last one's takes the last one's lists.
      const memoKey = memo && discoveryMemoKey(memo.salt, listed, expandedIgnore, sets);
      let found = memo?.previous?.key === memoKey ? memo?.previous?.found : undefined;
      found ??= Object.fromEntries(MATCHED_LIST_NAMES.map((name, i) => [name, pick(sets[i]!)])) as MatchedLists;
      // Copies: the caller may reorder or filter the lists it is handed.
      if (memo && memoKey) memo.next = { key: memoKey, found: Object.fromEntries(MATCHED_LIST_NAMES.map((name) => [name, [...found[name]]])) as MatchedLists };
      // Deleted tracked files, symbolic links and gitlinks are not regular files: globby skips them.
      const all = [...new Set(Object.values(found).flat())];
      const denied = new Set<string>();
      // Synchronous lstat: a few microseconds each, where a promise per file costs 4x as much in all
      // (NeMo Gym's 2,400 files: 11 ms against 45 ms).
      const regular = all.map((f) => {
        try {
          const stat = lstats?.get(f) ?? lstatSync(path.join(root, f));
          if (!stat.isFile()) return false;
          lstats?.set(f, stat);
          return true;
        } catch (error) {
          // A file git lists but that cannot be reached: its directory cannot be entered.
          if ((error as NodeJS.ErrnoException).code === 'EACCES') denied.add(path.posix.dirname(f));
          return false;
        }
      });
      const irregular = new Set(all.filter((_, i) => !regular[i]));
      const unreadable = denied.size > 0 ? { unreadable: [...denied].sort() } : {};
      if (irregular.size === 0) return { ...found, ...unreadable };
      const keep = (list: string[]): string[] => list.filter((f) => !irregular.has(f));
      return { sources: keep(found.sources), docs: keep(found.docs), packaging: keep(found.packaging), yaml: keep(found.yaml), programs: keep(found.programs), schemas: keep(found.schemas), ...unreadable };
    }
    if (strategy === 'git') throw new Error(`discoverFiles: git cannot list the files of ${root}`);
  }
  // A directory that cannot be read (EACCES) is recorded and walked as empty, instead of failing
  // the whole run: fast-glob's `fs` option replaces its readdir.
  const denied = new Set<string>();
  type Readdir = (dir: string, options: unknown, callback: (error: NodeJS.ErrnoException | null, entries?: unknown[]) => void) => void;
  const readdir: Readdir = (dir, opts, callback) =>
    (fs.readdir as unknown as Readdir)(dir, opts, (error, entries) => {
      if (error && (error.code === 'EACCES' || error.code === 'EPERM')) {
        denied.add(path.relative(root, dir).split(path.sep).join('/') || '.');
        callback(null, []);
      } else callback(error, entries);
    });
  const options = {
    cwd: root,
    gitignore: true,
    ignore: ignored,
    followSymbolicLinks: false,
    onlyFiles: true,
    dot: false,
    // globby also stats through this adapter (directory patterns, gitignore files): every method stays Node's but readdir.
    fs: { ...fs, promises: fs.promises, readdir } as unknown as Record<string, never>,
  };
  const [src, doc, pkg, yaml, programs, schemas] = await Promise.all([
    globby(sources, options),
    globby(docs, options),
    globby(PACKAGING, options),
    globby(YAML, options),
    globby(PROGRAMS, options),
    globby(SCHEMAS, options),
  ]);
  const found = { sources: src.sort(), docs: doc.sort(), packaging: pkg.sort(), yaml: yaml.sort(), programs: programs.sort(), schemas: schemas.sort() };
  return denied.size > 0 ? { ...found, unreadable: [...denied].sort() } : found;
}

/** Always-ignored folder names that a workspace package may also be called. */
const OUTPUT_NAMED: ReadonlySet<string> = new Set(['dist', 'build']);
const OUTPUT_NAMED_GLOBS: ReadonlySet<string> = new Set([...OUTPUT_NAMED].map((d) => `**/${d}/**`));

/**
 * Folders named like output (`build`, `dist`) that are workspace packages: they hold a tracked
 * `package.json` and tracked files under `src/`, and sit in no other output folder.
 */
function outputNamedPackages(listed: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of listed) {
    const m = /^(.*(?:^|\/)(?:dist|build))\/package\.json$/.exec(f);
    const dir = m?.[1];
    if (dir === undefined || dir.split('/').slice(0, -1).some((part) => OUTPUT_NAMED.has(part) || part === 'node_modules')) continue;
    if (listed.some((x) => x.startsWith(`${dir}/src/`))) out.push(dir);
  }
  return out;
}

/** A pattern relative to the root and inside it (globby rebases `../` patterns and their ignores; that case is left to globby). */
function isRelativePattern(pattern: string): boolean {
  const p = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  return p !== '' && !p.startsWith('/') && !p.startsWith('./') && !p.startsWith('../') && !p.includes('\\');
}

/**
 * globby's `expandDirectories`: a globstar followed by one bare name without wildcards or
 * extension (`tests` in `!**` + `/tests`), and a pattern that names an existing directory, match
 * everything below it (pattern + `/**`). Negations keep their `!`.
 * Source: globby 16 `directoryToGlob` (https://github.com/sindresorhus/globby#expanddirectories).
 */
async function expandDirectories(root: string, patterns: string[]): Promise<string[]> {
  return Promise.all(
    patterns.map(async (pattern) => {
      const bare = pattern.startsWith('!') ? pattern.slice(1) : pattern;
      const match = /\*\*\/([^/]+)$/.exec(bare);
      const globstarDir = match !== null && !/[*?[\]{}]/.test(match[1]!) && !(path.extname(match[1]!) && !match[1]!.startsWith('.'));
      const isDir = globstarDir || (await lstat(path.join(root, bare)).then((s) => s.isDirectory(), () => false));
      return isDir ? path.posix.join(pattern, '**') : pattern;
    }),
  );
}

/**
 * A predicate that accepts a root-relative file exactly when globby would list it for
 * `patterns` (gitignore aside): as globby's tasks, each positive pattern is excluded by the
 * negations that follow it (not those before it) and by `ignore`; positive patterns match with
 * fast-glob's `dot: false`, negative ones with `dot: true`.
 */
function globbyMatcher(expanded: string[], ignore: string[]): (file: string) => boolean {
  const tasks: Array<{ include: (f: string) => boolean; exclude: (f: string) => boolean }> = [];
  expanded.forEach((pattern, i) => {
    if (pattern.startsWith('!')) return;
    const negative = [...ignore, ...expanded.slice(i + 1).filter((p) => p.startsWith('!')).map((p) => p.slice(1))];
    tasks.push({
      include: picomatch(pattern, { dot: false }),
      exclude: negative.length > 0 ? picomatch(negative, { dot: true }) : () => false,
    });
  });
  return (file) => tasks.some((t) => t.include(file) && !t.exclude(file));
}

/** git without the repository's hooks, fsmonitor or filters (src/engine/git.ts). */
function git(root: string, args: string[], spool = false): Promise<string> {
  return runGit(root, args, undefined, spool);
}

/** The names of the lists {@link discoverFiles} matches from a git listing, in matching order. */
export const MATCHED_LIST_NAMES = ['sources', 'docs', 'packaging', 'yaml', 'programs', 'schemas'] as const;

/** The lists {@link discoverFiles} matched from a git listing (before dropping files that are not regular). */
export type MatchedLists = Record<(typeof MATCHED_LIST_NAMES)[number], string[]>;

/**
 * What one run's discovery leaves for the next (the run cache stores it): the matched lists and
 * the key of what they were matched from. `salt` names the build (a docdrift whose matching
 * changed must not take an older build's lists).
 */
export interface DiscoveryMemo {
  salt: string;
  previous?: { key: string; found: MatchedLists } | undefined;
  next?: { key: string; found: MatchedLists };
}

/** sha256 over the salt, the expanded ignore and pattern sets, and the listed paths. */
function discoveryMemoKey(salt: string, listed: string[], ignore: string[], sets: string[][]): string {
  const hash = createHash('sha256').update(JSON.stringify([salt, ignore, sets]));
  for (const file of listed) hash.update('\0').update(file);
  return hash.digest('hex');
}

/** A `git ls-files` of a root, started before {@link discoverFiles} needs it. */
export interface GitListing {
  root: string;
  /** As `gitFiles` answers: the listed files, or undefined when git cannot give globby's list. Never rejects. */
  files: Promise<string[] | undefined>;
}

/**
 * Starts the git processes of discovery now, so they run while the caller reads its cache and
 * starts workers (two process starts, ~50-200 ms of waiting on a slow machine, were spent idle
 * at the start of discovery). Hand the result to {@link discoverFiles} for the same root.
 */
export function startGitListing(root: string): GitListing {
  return { root, files: gitFiles(root) };
}

/**
 * The files under `root` that git tracks (even when a `.gitignore` pattern matches them: git
 * applies ignore rules to untracked files only; globby, which cannot know, drops them) or sees
 * untracked and not ignored, root-relative POSIX paths; undefined when git cannot give the
 * same list as globby otherwise (see {@link discoverFiles}).
 */
async function gitFiles(root: string): Promise<string[] | undefined> {
  try {
    const exclude = '--exclude-per-directory=.gitignore';
    // The two git processes run at once (each costs a process start, ~10 ms).
    const [listed, modules] = await Promise.all([
      // Spooled to a file: the listing outgrows a pipe while the caller reads its cache meanwhile.
      git(root, ['ls-files', '-z', '--cached', '--others', exclude], true),
      git(root, ['rev-parse', '--show-toplevel']).then((top) => lstat(path.join(top.trim(), '.gitmodules')).then(() => true, () => false)),
    ]);
    if (modules) return undefined;
    // A tracked file is part of the project even when a .gitignore pattern matches it (git's own
    // rule: ts-json-schema-generator tracks its program `ts-json-schema-generator.ts` under `/*.ts`).
    const files = [...new Set(listed.split('\0'))].filter((f) => f !== '');
    if (files.some((f) => f.endsWith('/'))) return undefined; // a nested repository
    return files;
  } catch {
    return undefined;
  }
}
