/** Finds the files a run reads: code sources, docs and Python packaging files, honouring .gitignore. */
import { createHash } from 'node:crypto';
import fs, { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { GitError, runGit } from './git.js';
import { globby } from 'globby';
import { hasLineTerminator, pathMatcher } from '../shared/path-match.js';
import createIgnore, { type Ignore } from 'ignore';
import { readPackageBins } from '../extract/package-bins.js';
import { ALWAYS_IGNORED, ALWAYS_IGNORED_GLOBS, DEFAULT_CONFIG } from '../config/schema.js';
import { escapesRoot } from '../shared/paths.js';
import { readFileHead, readProjectFile } from '../shared/read-file.js';
import { isShellShebang, scriptKind } from '../extract/script-env.js';
import { importedModuleNames, pythonImports } from '../extract/python/imports.js';


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
   * Files left out because their names are not valid UTF-8 (Node cannot open them by the name it
   * reads): each is a `parse-error` of the run. Absent when there are none.
   */
  undecodable?: string[];
  /**
   * Folders whose names are not valid UTF-8, met by the glob walk (patterns with `./`, `/` or
   * `\\`), whose files it cannot list: each is a `parse-error` of the run. (The git listing and
   * the tree walk name the files below such a folder in {@link undecodable}.) Absent when there are none.
   */
  undecodableFolders?: string[];
  /**
   * Documents and env files a pattern matched that are not read because they are no regular
   * file docdrift may read: a symbolic link whose target is outside the project or is no document
   * the run reads itself, a FIFO, socket or device. Each is a `parse-error` warning of the run
   * (they were dropped without a word: s26b sweep O1). Absent when there are none.
   */
  notRead?: Array<{ file: string; why: string }>;
  /**
   * Documents left out for lying under more than {@link MAX_PATH_DEPTH} folders (one note of the
   * run says so): rows they hold may document any command, so the run reads every reference as
   * partial (s35 sweep D4). Absent when there are none.
   */
  tooDeep?: string[];
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
  /**
   * Example env files that list the project's environment variables (`.env.example`,
   * `.env.sample`, `env.template`…; see {@link ENV_FILES}), read as a reference (issue #31). The
   * real `.env` is never listed. Optional, as {@link programs} is.
   */
  envFiles?: string[];
  /**
   * The project's shell scripts, Dockerfiles, Makefiles, justfiles and server configs (`*.ini`, `*.conf`, `*.service`, `Procfile`) (see {@link SCRIPTS}), read
   * for the environment variables they read and the ones a container image sets (issue #31).
   * Extensionless files are listed only when their first line is a shell shebang. Optional, as
   * {@link programs} is.
   */
  scripts?: string[];
  /**
   * Notes of discovery for the run to print (see `runNotes`): git's listing that did not finish
   * within its time limit, after which the tree was walked instead. Absent when there are none.
   */
  notes?: string[];
}

/**
 * Every discovered file a run reads, deduplicated and sorted (code-unit order): the inputs the
 * run cache hashes (src/engine/cache.ts). With `documents: false`, the code inputs only (every
 * list but `docs` and `envFiles`), which key the cached extraction (`FactCache.codeFacts`, src/engine/facts.ts).
 */
export function discoveredInputs(files: DiscoveredFiles, options: { documents: boolean }): string[] {
  const lists = [files.sources, ...(options.documents ? [files.docs, files.envFiles ?? []] : []), files.packaging, files.yaml, files.schemas ?? [], files.programs ?? [], files.scripts ?? []];
  return [...new Set(lists.flat())].sort();
}

/**
 * How {@link discoverFiles} lists files: `auto` tries git first and falls back to one directory
 * walk (`walk`); `globby` globs each pattern set on its own (the reference the others are tested
 * against).
 */
export type DiscoveryStrategy = 'auto' | 'git' | 'walk' | 'globby';

/** Every `package.json` is a workspace package that may declare `bin` commands; test fixtures are not. */
const PACKAGING = ['**/pyproject.toml', '**/setup.cfg', '**/setup.py', '**/package.json', '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata,test-fixtures}/**/package.json'];
/** JavaScript a bin may run (and `.jsx`, read for the env vars it reads, issue #31), and what maps compiled JavaScript to its source: tsconfig files and source maps. */
export const PROGRAMS = ['**/*.{js,mjs,cjs,jsx}', '**/bin/*', '**/tsconfig*.json', '**/*.{js,mjs,cjs}.map', '!**/*.min.js', '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata}/**'];
export const YAML = ['**/*.yaml', '**/*.yml'];
/**
 * Example env files, anywhere outside test folders (issue #31): the names projects give the file
 * that lists their environment variables for users to copy to `.env`. Never `.env` itself (it
 * holds secrets and is the user's, not the docs'). Dot folders (`.devcontainer/`) are not walked,
 * as for every list.
 */
export const ENV_FILES = [
  '**/{.env.example,.env.sample,.env.template,.env.dist,.env.defaults,env.example,example.env,.env.local.example,env.template,env.sample}',
  '!**/{test,tests,__tests__,fixtures,__fixtures__,testdata,test-fixtures}/**',
];
/**
 * Scripts that may read or set the project's environment variables (issue #31): shell scripts by
 * extension, Dockerfiles/Containerfiles, Makefiles, justfiles and server configs (`uwsgi.ini`, `supervisord.conf`) by name, and the extensionless
 * files at the top level and in `bin/`, `scripts/`, `script/`, `tools/`, `docker/` and `hack/`
 * folders, and process supervisors' service scripts (s6-overlay, runit: `run`, `finish`, files under
 * `s6-rc.d/`, `cont-init.d/`, `services.d/`), which are candidates for a shell script by shebang ({@link shellScripts}). Test
 * fixtures (other projects' files) are not read.
 */
export const SCRIPTS = [
  '**/*.{sh,bash,zsh,ksh}',
  '**/{Dockerfile,Containerfile,Dockerfile.*,Containerfile.*,*.Dockerfile,*.Containerfile,*.dockerfile}',
  '**/{Makefile,makefile,GNUmakefile,*.mk}',
  '**/{justfile,Justfile,.justfile,*.just}',
  '**/{*.ini,*.conf,*.service,Procfile}',
  '*',
  '**/{bin,scripts,script,tools,docker,hack}/*',
  // Service scripts of process supervisors in container images (s6-overlay's
  // `s6-rc.d/svc-flower/run`, runit and daemontools `run`/`finish`, `cont-init.d/*`): shell
  // scripts by shebang that read the variables the image's users set.
  '**/{run,finish,up,entrypoint,docker-entrypoint}',
  '**/{s6-rc.d,cont-init.d,cont-finish.d,services.d,sv}/**/*',
  '!**/{fixtures,__fixtures__,testdata,test-fixtures}/**',
];

/** How many extensionless candidates {@link shellScripts} opens (in path order): a bound on discovery's reads. */
export const MAX_SHEBANG_CANDIDATES = 256;

/**
 * Of the files {@link SCRIPTS} matched, those that are scripts: every file of a known name or
 * extension (`scriptKind`, src/extract/script-env.ts), and extensionless files whose first line is
 * a shell shebang (`#!/bin/sh`, `#!/usr/bin/env bash`…), reading the first 128 bytes of at most
 * {@link MAX_SHEBANG_CANDIDATES} of them. Other files (`LICENSE`, `CHANGELOG.md`) are dropped.
 *
 * @param head the first bytes of a file as text, undefined when it cannot be read
 */
export function shellScripts(matched: readonly string[], head: (file: string) => string | undefined): string[] {
  let opened = 0;
  return matched.filter((file) => {
    if (scriptKind(file) !== undefined) return true;
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (base.includes('.') || opened >= MAX_SHEBANG_CANDIDATES) return false;
    opened++;
    const text = head(file);
    return text !== undefined && isShellShebang(text);
  });
}

/** The first 128 bytes of a listed file (discovery lists no symbolic link), as text; undefined when it is no regular file or cannot be read. */
function readHead(root: string, file: string): string | undefined {
  try {
    return readFileHead(path.join(root, file), 128);
  } catch {
    return undefined;
  }
}

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
 * @throws {DiscoveryLimitError} past {@link MAX_WALK_ENTRIES} entries to walk, {@link MAX_SOURCE_FILES} source files, or
 *   {@link MAX_GITIGNORE_WORK} of `.gitignore` matching in the walk
 */
export async function discoverFiles(
  root: string,
  sources: string[],
  docs: string[],
  ignore: string[],
  strategy: DiscoveryStrategy = 'auto',
  options: { lstats?: Map<string, Stats>; listing?: GitListing; memo?: DiscoveryMemo } = {},
): Promise<DiscoveredFiles> {
  const notes: string[] = [];
  const listed = await listFiles(root, sources, docs, ignore, strategy, options, notes);
  const shallow = withoutDeepPaths(listed, notes);
  const found = withoutUndecodable(root, notes.length > 0 ? { ...shallow, notes } : shallow);
  if (found.sources.length > MAX_SOURCE_FILES) throw new DiscoveryLimitError(root, `${found.sources.length.toLocaleString('en-US')} source files, over the ${MAX_SOURCE_FILES.toLocaleString('en-US')} one run reads`);
  return found;
}

/**
 * Why each of `files` (documents and env files a pattern matched, left out as no regular file) is
 * not read, for the ones whose content the run does not read by another name: a symbolic link to
 * a file outside the project or to one no pattern lists (`read`), a FIFO, socket or device. A
 * deleted file (git still lists it) and a link to a listed document are left out. Never throws.
 */
function notReadFiles(root: string, files: readonly string[], read: ReadonlySet<string>): Array<{ file: string; why: string }> {
  const out: Array<{ file: string; why: string }> = [];
  let realRoot: string | undefined;
  let work = 0;
  for (const file of files) {
    let stat: Stats;
    try {
      stat = lstatSync(path.join(root, file));
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      if (work > MAX_LINK_RESOLVE_WORK) {
        out.push({ file, why: 'it is a symbolic link, and docdrift follows no links' });
        continue;
      }
      let target: string;
      try {
        realRoot ??= fs.realpathSync(root);
        const real = fs.realpathSync(path.join(root, file));
        work += (real.split(path.sep).length - 1) ** 2;
        target = path.relative(realRoot, real).split(path.sep).join('/');
      } catch {
        out.push({ file, why: 'it is a symbolic link whose target does not exist or cannot be reached' });
        continue;
      }
      if (target === '' || target.startsWith('../') || target === '..' || path.isAbsolute(target)) out.push({ file, why: 'it is a symbolic link to a file outside the project, which docdrift does not read' });
      else if (!read.has(target)) out.push({ file, why: `it is a symbolic link (to ${target}), and docdrift follows no links; add ${target} to the \`docs\` patterns to check it` });
    } else if (!stat.isFile() && !stat.isDirectory()) {
      out.push({ file, why: `it is not a regular file (${stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : 'a device'})` });
    }
  }
  return out;
}

/**
 * Bound on the work of resolving symbolic links in {@link notReadFiles}, as the sum of the squared
 * folder depths of the real paths resolved: `realpathSync` lstats each folder above the target,
 * each lstat walking the path again. 4,000,000 is 1,000 links at depth 64 (about 0.2 s); past
 * it a link is named without its target. 100 links to one page 1,900 folders deep took 20 s of
 * discovery (s30, the D7 kind through a link; now 0.9 s).
 */
const MAX_LINK_RESOLVE_WORK = 4_000_000;

/** The lists of {@link DiscoveredFiles} that hold file paths. */
const PATH_LISTS = ['sources', 'docs', 'packaging', 'yaml', 'programs', 'schemas', 'envFiles', 'scripts'] as const;

/**
 * `found` without the files whose names are not valid UTF-8, listed in `undecodable` instead.
 * Node reads names as UTF-8: `docs/ref<0xFF>.md` is listed as `docs/ref\uFFFD.md`, a name no file
 * has, so reading it fails as a missing file and the document was dropped without a word (s25
 * sweep D11). Only a name holding U+FFFD is checked (one `lstat`).
 */
function withoutUndecodable(root: string, found: DiscoveredFiles): DiscoveredFiles {
  const bad = new Set<string>();
  for (const name of PATH_LISTS) {
    for (const file of found[name] ?? []) {
      if (!file.includes('\uFFFD') || bad.has(file)) continue;
      try {
        lstatSync(path.join(root, file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') bad.add(file);
      }
    }
  }
  if (bad.size === 0) return found;
  const out: DiscoveredFiles = { ...found, undecodable: [...bad].sort() };
  for (const name of PATH_LISTS) {
    const list = found[name];
    if (list) (out as unknown as Record<string, string[]>)[name] = list.filter((f) => !bad.has(f));
  }
  return out;
}

/**
 * Most folders a file the run reads may be under, from the root: 64, four times the deepest
 * document or source of the corpus. Reading a file checks its real path (`realpathSync`), which
 * `lstat`s each folder above it, and each `lstat` walks the path again: depth² a file. A folder
 * 1,900 levels deep holding 150 one-line pages took 20.4 s in the extract phase alone; left out,
 * the run takes 1.0 s CPU and 149 MB (was 30.3 s, 1,234 MB; s30 sweep D7).
 */
export const MAX_PATH_DEPTH = 64;

/**
 * `found` without the files under more than {@link MAX_PATH_DEPTH} folders, with one note in
 * `notes` naming how many and the first (its path shortened). The lists are left as they are
 * (the same object) when no file is that deep.
 */
export function withoutDeepPaths(found: DiscoveredFiles, notes: string[]): DiscoveredFiles {
  const deep = (file: string): boolean => {
    let slashes = 0;
    for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1)) if (++slashes > MAX_PATH_DEPTH) return true;
    return false;
  };
  if (!PATH_LISTS.some((name) => found[name]?.some(deep))) return found;
  const dropped = new Set<string>();
  const out: DiscoveredFiles = { ...found };
  for (const name of PATH_LISTS) {
    const list = found[name];
    if (!list) continue;
    (out as unknown as Record<string, string[]>)[name] = list.filter((f) => {
      if (!deep(f)) return true;
      dropped.add(f);
      return false;
    });
  }
  const deepDocs = [...(found.docs ?? []), ...(found.envFiles ?? [])].filter((f) => dropped.has(f));
  if (deepDocs.length > 0) out.tooDeep = deepDocs.sort();
  const first = [...dropped].sort()[0]!;
  const shown = first.length > 120 ? `${first.slice(0, 60)}…${first.slice(-40)}` : first;
  const count = dropped.size === 1 ? 'A file is' : `${dropped.size.toLocaleString('en-US')} files are`;
  notes.push(`${count} under more than ${MAX_PATH_DEPTH} folders (${shown}); ${dropped.size === 1 ? 'it is' : 'they are'} not read.`);
  return out;
}

/**
 * Most source files one run reads: 15,000, five times the most a project in the corpus has
 * (datamodel-code-generator: ~2,900) and twice issue #15's synthetic large project (8,010). A
 * tree of 21,000 Python files (`--root /usr`) took 205 s and 1.9 GB (#33 s24 sweep D15).
 */
export const MAX_SOURCE_FILES = 15_000;

/** {@link discoverFiles} without its bound on source files. */
async function listFiles(
  root: string,
  sources: string[],
  docs: string[],
  ignore: string[],
  strategy: DiscoveryStrategy,
  { lstats, listing, memo }: { lstats?: Map<string, Stats>; listing?: GitListing; memo?: DiscoveryMemo },
  notes: string[],
): Promise<DiscoveredFiles> {
  const ignored = [...ALWAYS_IGNORED_GLOBS, ...ignore];
  // The user's `sources` wins over the built-in skips: a pattern naming `build` reads it.
  const sourceIgnored = [...ALWAYS_IGNORED.filter((dir) => !namedBy(sources, dir)).map((dir) => `**/${dir}/**`), ...ignore];
  const lifted = liftedSkips(sources, ignore);
  if (strategy !== 'globby' && [...sources, ...docs, ...ignore].every(isRelativePattern)) {
    const walkDenied = new Set<string>();
    const git = strategy === 'walk' ? undefined : await (listing?.root === root ? listing.files : gitFiles(root));
    let listed = git?.files;
    if (git?.timedOut) notes.push(`${git.timedOut}; the project's files were listed by walking its folders instead.`);
    // Without git (a tarball, a container build context, submodules): one walk of the tree lists
    // every candidate, matched below as git's list is, instead of one globby walk per pattern set
    // (nine, each reading every .gitignore: 2.4-4.5 s on NeMo Gym's 4,140 files, #35 item 1).
    let walked = false;
    if (!listed && strategy !== 'git') {
      listed = walkFiles(root, [...sources, ...docs], ignore, walkDenied);
      walked = true;
    }
    if (listed) {
      const expandedIgnore = await expandDirectories(root, ignored);
      const expandedSourceIgnore = sourceIgnored.length === ignored.length ? expandedIgnore : await expandDirectories(root, sourceIgnored);
      // A workspace package whose folder is named like output (`incubator/build/` with its own
      // package.json and src/) is source: inside it, only its own output folders are skipped.
      const packages = outputNamedPackages(listed);
      const inPackage = (f: string): string | undefined => packages.find((d) => f.startsWith(`${d}/`));
      const pick = (expanded: string[], listIgnore = expandedIgnore): string[] => {
        const matches = globbyMatcher(expanded, listIgnore);
        if (packages.length === 0) return listed.filter(matches).sort();
        const inside = globbyMatcher(expanded, listIgnore.filter((g) => !OUTPUT_NAMED_GLOBS.has(g)));
        return listed
          .filter((f) => {
            const pkg = inPackage(f);
            if (pkg === undefined) return matches(f);
            return inside(f) && !f.slice(pkg.length + 1).split('/').slice(0, -1).some((part) => OUTPUT_NAMED.has(part));
          })
          .sort();
      };
      // In the order of MATCHED_LIST_NAMES.
      const sets = await Promise.all([sources, docs, PACKAGING, YAML, PROGRAMS, SCHEMAS, ENV_FILES, SCRIPTS].map((patterns) => expandDirectories(root, patterns)));
      // Matching every listed file against six pattern sets is most of discovery's time (NeMo Gym's
      // 4,140 files: ~70 ms; synthetic 10x: ~300 ms): a run whose listing and patterns are the
      // same as the last one's takes the last one's lists.
      const memoKey = memo && discoveryMemoKey(memo.salt, listed, [...expandedIgnore, '\0', ...expandedSourceIgnore], sets);
      let matched = memo?.previous?.key === memoKey ? memo?.previous?.found : undefined;
      matched ??= Object.fromEntries(MATCHED_LIST_NAMES.map((name, i) => [name, pick(sets[i]!, name === 'sources' ? expandedSourceIgnore : expandedIgnore)])) as MatchedLists;
      // Copies: the caller may reorder or filter the lists it is handed.
      if (memo && memoKey) memo.next = { key: memoKey, found: Object.fromEntries(MATCHED_LIST_NAMES.map((name) => [name, [...matched[name]]])) as MatchedLists };
      // Shebangs are file contents: read outside the memo (an irregular file is dropped below).
      const found: MatchedLists = { ...matched, scripts: shellScripts(matched.scripts, (f) => readHead(root, f)) };
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
          // A name that is not UTF-8, read with U+FFFD, which no file has: kept, for withoutUndecodable to report.
          else if ((error as NodeJS.ErrnoException).code === 'ENOENT' && f.includes('\uFFFD')) return true;
          return false;
        }
      });
      const irregular = new Set(all.filter((_, i) => !regular[i]));
      for (const dir of walkDenied) denied.add(dir);
      const unreadable = denied.size > 0 ? { unreadable: [...denied].sort() } : {};
      // Files under a folder named like output or tests that holds a package's source (see
      // liftedSkips): matched here, outside the memo, since the evidence may be in file contents.
      const ambiguous = listed.filter((f) => AMBIGUOUS_PATH.test(f));
      const maybe = ambiguous.length === 0 ? [] : await (async () => {
        const [expanded, expandedLifted] = await Promise.all([expandDirectories(root, lifted.sources), expandDirectories(root, lifted.ignore)]);
        const matches = globbyMatcher(expanded, expandedLifted);
        const have = new Set(found.sources);
        return ambiguous.filter((f) => !have.has(f) && matches(f) && isRegularFile(root, f, lstats));
      })();
      const rescued = packageSourceFiles(maybe, found.sources, (f) => readText(root, f));
      const sourcesOut = rescued.length === 0 ? found.sources : [...found.sources, ...rescued].sort();
      const listedSet = new Set(listed);
      // A bin package.json declares is the project's even when a .gitignore matches it (mocha's
      // `mocha.js` pattern and its `bin/mocha.js`): git lists it when tracked; a walk cannot tell, so it takes it as globby does.
      const bins = declaredBinFiles(found.packaging, found.programs, ignored, (f) => (walked || listedSet.has(f)) && !irregular.has(f) && isRegularFile(root, f, lstats), (f) => readText(root, f));
      const programsOut = bins.length === 0 ? found.programs : [...found.programs, ...bins].sort();
      if (irregular.size === 0) return { ...found, sources: sourcesOut, programs: programsOut, ...unreadable };
      const keep = (list: string[]): string[] => list.filter((f) => !irregular.has(f));
      const docsKept = keep(found.docs);
      const notRead = notReadFiles(root, [...found.docs, ...found.envFiles].filter((f) => irregular.has(f)), new Set([...docsKept, ...keep(found.envFiles)]));
      return { sources: keep(sourcesOut), docs: docsKept, packaging: keep(found.packaging), yaml: keep(found.yaml), programs: keep(programsOut), schemas: keep(found.schemas), envFiles: keep(found.envFiles), scripts: keep(found.scripts), ...unreadable, ...(notRead.length > 0 ? { notRead } : {}) };
    }
    if (strategy === 'git') throw new Error(`discoverFiles: git cannot list the files of ${root}`);
  }
  // A directory that cannot be read (EACCES) is recorded and walked as empty, instead of failing
  // the whole run: fast-glob's `fs` option replaces its readdir.
  const denied = new Set<string>();
  // fast-glob matches with its own picomatch, whose `**` cannot take the `s` flag pathMatcher
  // gives (see shared/path-match.ts): below a folder whose name holds a line break it matches
  // nothing. Such folders are recorded here, and those no listed file lies under are named in a note.
  const lineBreakFolders = new Set<string>();
  // A folder whose name is not valid UTF-8 is read with U+FFFD, a name no folder has: fast-glob's
  // readdir of it fails (ENOENT), which it ignores, and the documents and sources below it were
  // skipped without a word (s31 sweep D7). The folders the docs and sources walks meet so are
  // recorded, each a parse-error of the run (the walk above names the files themselves).
  // Each walk records the folders it met in its own set: only those that hold a file its patterns
  // match are named (below), not every such folder a `**` walk enters.
  const sourceFolders = new Set<string>();
  const docFolders = new Set<string>();
  type Readdir = (dir: string, options: unknown, callback: (error: NodeJS.ErrnoException | null, entries?: unknown[]) => void) => void;
  const readdirFor = (undecodableFolders?: Set<string>): Readdir => (dir, opts, callback) =>
    (fs.readdir as unknown as Readdir)(dir, opts, (error, entries) => {
      if (error && (error.code === 'EACCES' || error.code === 'EPERM')) {
        denied.add(path.relative(root, dir).split(path.sep).join('/') || '.');
        callback(null, []);
        return;
      }
      if (error && error.code === 'ENOENT' && undecodableFolders) {
        const rel = path.relative(root, dir).split(path.sep).join('/');
        if (rel.includes('\uFFFD') && !rel.startsWith('..')) undecodableFolders.add(rel);
      }
      for (const entry of entries ?? []) {
        const dirent = entry as { name?: unknown; isDirectory?: () => boolean };
        if (typeof dirent.name === 'string' && hasLineTerminator(dirent.name) && dirent.isDirectory?.()) {
          lineBreakFolders.add(path.relative(root, path.join(dir, dirent.name)).split(path.sep).join('/'));
        }
      }
      callback(error, entries);
    });
  const options = {
    cwd: root,
    gitignore: true,
    ignore: ignored,
    followSymbolicLinks: false,
    onlyFiles: true,
    dot: false,
    // globby also stats through this adapter (directory patterns, gitignore files): every method stays Node's but readdir.
    fs: { ...fs, promises: fs.promises, readdir: readdirFor() } as unknown as Record<string, never>,
  };
  const recording = (folders: Set<string>) => ({ ...options, fs: { ...fs, promises: fs.promises, readdir: readdirFor(folders) } as unknown as Record<string, never> });
  // globby keeps a pattern's `./` in the paths it matches (`./docs/**/*.md` gives `./docs/a.md`):
  // every path is project-relative without it, as git lists it, so that links, findings, cache keys
  // and a second pattern naming the same file (`README.md`, `./README.md`) agree.
  const glob = async (patterns: string[], globOptions: typeof options): Promise<string[]> => [...new Set((await globby(patterns, globOptions)).map(withoutDotSlash))];
  const [src, doc, pkg, yaml, programs, schemas, envFiles, scripts, maybe] = await Promise.all([
    glob(sources, { ...recording(sourceFolders), ignore: sourceIgnored }),
    glob(docs, recording(docFolders)),
    glob(PACKAGING, options),
    glob(YAML, options),
    glob(PROGRAMS, options),
    glob(SCHEMAS, options),
    glob(ENV_FILES, options),
    glob(SCRIPTS, options),
    glob(lifted.sources, { ...options, ignore: lifted.ignore }),
  ]);
  const have = new Set(src);
  const rescued = packageSourceFiles(maybe.filter((f) => AMBIGUOUS_PATH.test(f) && !have.has(f)), src, (f) => readText(root, f));
  const bins = declaredBinFiles(pkg, programs, ignored, (f) => isRegularFile(root, f, undefined), (f) => readText(root, f));
  const found = { sources: [...src, ...rescued].sort(), docs: doc.sort(), packaging: pkg.sort(), yaml: yaml.sort(), programs: [...programs, ...bins].sort(), schemas: schemas.sort(), envFiles: envFiles.sort(), scripts: shellScripts(scripts.sort(), (f) => readHead(root, f)) };
  const listedAll = Object.values(found).flat();
  const unmatched = [...lineBreakFolders].filter((dir) => !dir.startsWith('..') && !listedAll.some((f) => f.startsWith(`${dir}/`))).sort();
  if (unmatched.length > 0) notes.push(lineBreakFolderNote(unmatched));
  const undecodableFolders = new Set([...(await foldersHoldingMatches(root, sourceFolders, sources, sourceIgnored)), ...(await foldersHoldingMatches(root, docFolders, docs, ignored))]);
  return { ...found, ...(denied.size > 0 ? { unreadable: [...denied].sort() } : {}), ...(undecodableFolders.size > 0 ? { undecodableFolders: [...undecodableFolders].sort() } : {}) };
}

/** `p` without its leading `./` (one or more): how a path or pattern is compared, as git lists paths. */
function withoutDotSlash(p: string): string {
  return p.replace(/^(?:\.\/)+/, '');
}

/** Most entries {@link foldersHoldingMatches} lists below the folders of one walk; past it, a folder not yet seen to hold a match is named anyway. */
const MAX_UNDECODABLE_ENTRIES = 10_000;

/**
 * Of the folders whose names are not valid UTF-8 that a glob walk met (`folders`, root-relative
 * with U+FFFD), those holding a file that `patterns` match, `ignore` aside (as globby would list
 * it, gitignore aside). fast-glob cannot list such a folder (Node opens it by a name with U+FFFD,
 * which no folder has), so each is listed here by its bytes, as the tree walk lists it: a `**`
 * walk enters every folder, and a folder of data named every time was noise (s31 sweep D7, left).
 * At most {@link MAX_UNDECODABLE_ENTRIES} entries are listed in all; a folder not yet seen to hold a
 * match past that, or whose bytes cannot be found or listed, is named (it could hold one).
 *
 * @returns the folders to name, sorted.
 */
async function foldersHoldingMatches(root: string, folders: ReadonlySet<string>, patterns: readonly string[], ignore: readonly string[]): Promise<string[]> {
  if (folders.size === 0) return [];
  const bare = (p: string): string => (p.startsWith('!') ? `!${withoutDotSlash(p.slice(1))}` : withoutDotSlash(p));
  const matches = globbyMatcher(await expandDirectories(root, patterns.map(bare)), [...ignore]);
  let budget = MAX_UNDECODABLE_ENTRIES;
  /** Whether a file below `raw` (whose root-relative path reads `rel`) is matched; undefined when that cannot be told. */
  const holdsMatch = (raw: Buffer, rel: string): boolean | undefined => {
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(raw, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      return undefined;
    }
    budget -= entries.length;
    if (budget < 0) return undefined;
    let unknown = false;
    for (const entry of entries) {
      const child = `${rel}/${entry.name.toString('utf8')}`;
      if (entry.isDirectory()) {
        const below = holdsMatch(Buffer.concat([raw, Buffer.from(path.sep), entry.name]), child);
        if (below === true) return true;
        if (below === undefined) unknown = true;
      } else if (matches(child)) return true;
    }
    return unknown ? undefined : false;
  };
  const named: string[] = [];
  for (const folder of [...folders].sort()) {
    const raws = rawPaths(root, folder);
    if (raws.length === 0 || raws.some((raw) => holdsMatch(raw, folder) !== false)) named.push(folder);
  }
  return named;
}

/**
 * The absolute paths, as bytes, of the folders whose root-relative path reads `rel` when decoded
 * as UTF-8 (U+FFFD for the bytes that are not): each segment holding U+FFFD is found among its
 * parent's entries read as bytes (two names that differ only in undecodable bytes read the same:
 * both are returned). Empty when none is found.
 */
function rawPaths(root: string, rel: string): Buffer[] {
  let at: Buffer[] = [Buffer.from(root)];
  for (const segment of rel.split('/')) {
    const next: Buffer[] = [];
    for (const dir of at) {
      if (!segment.includes('\uFFFD')) {
        next.push(Buffer.concat([dir, Buffer.from(path.sep + segment)]));
        continue;
      }
      try {
        for (const name of fs.readdirSync(dir, { encoding: 'buffer' })) if (name.toString('utf8') === segment) next.push(Buffer.concat([dir, Buffer.from(path.sep), name]));
      } catch {
        // gone or unreadable: not found
      }
    }
    at = next;
  }
  return at;
}

/** Most folders {@link lineBreakFolderNote} names before it counts the rest. */
const MAX_NAMED_LINE_BREAK_FOLDERS = 10;

/**
 * The note for folders (root-relative) whose names hold a line break and under which the globby
 * walk matched no file: their files are not read. At most {@link MAX_NAMED_LINE_BREAK_FOLDERS}
 * are named (JSON-quoted, so the break shows as `\n`), the rest counted.
 */
export function lineBreakFolderNote(folders: readonly string[]): string {
  const named = folders.slice(0, MAX_NAMED_LINE_BREAK_FOLDERS).map((f) => JSON.stringify(f)).join(', ');
  const more = folders.length > MAX_NAMED_LINE_BREAK_FOLDERS ? ` and ${folders.length - MAX_NAMED_LINE_BREAK_FOLDERS} more` : '';
  return (
    `${folders.length === 1 ? 'a folder' : `${folders.length} folders`} whose name holds a line break (${named}${more}): ` +
    'the glob walk used when a pattern starts with `./` or `/` or holds a `\\` cannot match files below them, so none was read. Rename the folder, or write the patterns without those.'
  );
}

/**
 * Most directory entries (files and folders, not skipped or ignored) one walk of the root
 * visits: 300,000, about three times the largest real project walked (a Linux kernel tree holds
 * ~90,000 files). A root holding more is almost always a wrong `--root` (`/`, a home or `/tmp`):
 * its walk never ended, or ended in minutes past 700 MB (#33 s24 sweep D15).
 */
export const MAX_WALK_ENTRIES = 300_000;

/** Thrown when a root holds more than {@link MAX_WALK_ENTRIES} entries to walk, more than {@link MAX_SOURCE_FILES} sources, or `.gitignore` rules that cost more than {@link MAX_GITIGNORE_WORK} to match: the CLI exits 2 with its message. */
export class DiscoveryLimitError extends Error {
  /** `what`: what the root holds past a limit (default: past {@link MAX_WALK_ENTRIES} entries to walk); `advice`: what to do, when not the default (name the project folder, narrow what is read). */
  constructor(root: string, what = `more than ${MAX_WALK_ENTRIES.toLocaleString('en-US')} files and folders to walk (not ignored)`, advice?: string) {
    super(
      advice !== undefined
        ? `the root ${root} holds ${what}. ${advice}`
        : `the root ${root} holds ${what}; is it the project you meant? ` +
            'Name the project folder with --root, narrow "sources", or exclude large folders with "ignore" (`data/**`) or a .gitignore.',
    );
    this.name = 'DiscoveryLimitError';
  }
}

/**
 * The error of a walk whose `.gitignore` rules cost more than {@link MAX_GITIGNORE_WORK}: names the
 * `.gitignore` in force with the most rules (`rules`: those in force where the walk stopped) and
 * the numbers.
 */
function gitignoreLimit(root: string, rules: ReadonlyArray<{ file: string; count: number }>, units: number): DiscoveryLimitError {
  const biggest = [...rules].sort((a, b) => b.count - a.count)[0];
  const total = rules.reduce((n, r) => n + r.count, 0);
  const named = biggest ? `${biggest.file} (${biggest.count.toLocaleString('en-US')} rules${rules.length > 1 ? `, ${total.toLocaleString('en-US')} in the ${rules.length} .gitignore files in force` : ''})` : 'its .gitignore files';
  return new DiscoveryLimitError(
    root,
    `files whose .gitignore rules cost more than docdrift matches in one run: ${named}, tested ${units.toLocaleString('en-US')} rule-characters against the files and folders walked, over the ${MAX_GITIGNORE_WORK.toLocaleString('en-US')} a run allows`,
    'Shorten the .gitignore (a real one has tens to a few hundred rules: a folder rule such as `data/` stands for everything under it), or name the project folder with --root.',
  );
}

/**
 * Most `.gitignore` rules (lines neither blank nor a comment) one walk reads, in all its
 * `.gitignore` files: 5,000, seven times NeMo Gym's 668 (173 files). Each rule is a regular
 * expression of its own that runs slowly the first times (V8 interprets a new one before it
 * compiles it): 40,000 wildcard rules cost 1.3 s to read and 5 s for the first two paths tested,
 * before any budget of tests could stop them (s43 sweep F1). Past it the walk stops with a
 * {@link DiscoveryLimitError} naming the `.gitignore`, before compiling it.
 */
export const MAX_GITIGNORE_RULES = 5_000;

/** The error of a walk whose `.gitignore` files hold more than {@link MAX_GITIGNORE_RULES} rules in all: `file` (with `count` rules) is the one that went past. */
function gitignoreRulesLimit(root: string, file: string, count: number, total: number): DiscoveryLimitError {
  return new DiscoveryLimitError(
    root,
    `.gitignore files with more rules than docdrift reads in one run: ${file} has ${count.toLocaleString('en-US')} rules (${total.toLocaleString('en-US')} read so far), over the ${MAX_GITIGNORE_RULES.toLocaleString('en-US')} a run allows`,
    'Shorten the .gitignore (a real one has tens to a few hundred rules: a folder rule such as `data/` stands for everything under it), or name the project folder with --root.',
  );
}

/**
 * Every file under `root` for {@link discoverFiles} to match, in one directory walk: dot files
 * included (patterns that name a dot folder match them later), symbolic links and other entries
 * that are no regular file listed (for the caller to drop, naming the documents among them) but
 * never followed nor entered, and not entered: the built-in skips that no pattern names and that hold no package
 * source (`node_modules`, `.venv`, `__pycache__`, …; not `build`, `dist` or test folders, see
 * {@link liftedSkips}), the user's folder ignores (`data/**`), and folders a `.gitignore` ignores.
 * Each `.gitignore` applies to its own folder and below, the deeper one deciding, as git reads
 * them (each file compiled once by {@link compileGitignore}, with the `ignore` package globby's
 * `gitignore: true` uses); a file or folder a `.gitignore` ignores is not listed, and nothing
 * under an ignored folder is re-included (its own `.gitignore` is not read, as git does not).
 * Not `.git/info/exclude` nor git's global excludes file (`core.excludesFile`), and the git
 * listing leaves them out too (`--exclude-per-directory=.gitignore`, not `--exclude-standard`):
 * a tree without `.git` (a tarball, a container build context) has no `info/exclude`, and the
 * global file is one user's machine, not the project, so a run lists the same files with git and
 * without, on a laptop and in CI (test/discover-walk.test.ts). Checking each path against its
 * own folders' rules only, and not entering ignored folders, is what makes one walk of NeMo Gym
 * (4,127 files, 245 `.gitignore` files) take about 0.1 s where globby's took 1.6 s (#35 item 1).
 * A directory that cannot be read is walked as empty and added to `denied` (project-relative,
 * `.` for the root). Never throws for an unreadable `.gitignore` (it is skipped).
 */
function walkFiles(root: string, patterns: readonly string[], ignore: readonly string[], denied: Set<string>): string[] {
  const skippedNames = new Set(ALWAYS_IGNORED.filter((dir) => !AMBIGUOUS_OUTPUT.has(dir) && !namedBy(patterns, dir)));
  const skippedFolders = ignore.filter((g) => !g.startsWith('!') && g.endsWith('/**')).map((g) => g.slice(0, -3));
  const folderSkipped = skippedFolders.length > 0 ? pathMatcher(skippedFolders, { dot: true }) : () => false;
  const out: string[] = [];
  /** The `.gitignore` rules in force: each with the folder it sits in ('' for the root) or, above the root, the path from it down to the root (`prefix`). */
  const rules: Array<{ base: string; prefix?: string; matcher: GitignoreMatcher; file: string; count: number }> = [];
  const work: GitignoreWork = { units: 0 };
  /** The rules of a `.gitignore`'s text (lines neither blank nor a comment). */
  const ruleCount = (text: string): number => text.split(/\r?\n/).filter((l) => l.trimEnd() !== '' && !l.startsWith('#')).length;
  let rulesRead = 0;
  /** The rules of `text` (the `.gitignore` at `file`), counted against {@link MAX_GITIGNORE_RULES} before they are compiled. */
  const counted = (text: string, file: string): number => {
    const count = ruleCount(text);
    rulesRead += count;
    if (rulesRead > MAX_GITIGNORE_RULES) throw gitignoreRulesLimit(root, file, count, rulesRead);
    return count;
  };
  // A root below a repository's top (a `.git` in a folder above): the .gitignore files of the
  // folders between apply too, as in git (and globby). Outside a repository, only the root's own.
  if (!fs.existsSync(path.join(root, '.git'))) {
    const above: Array<{ prefix: string; dir: string }> = [];
    let dir = path.resolve(root);
    let down = '';
    for (;;) {
      const up = path.dirname(dir);
      if (up === dir) {
        above.length = 0; // no repository above
        break;
      }
      down = down === '' ? path.basename(dir) : `${path.basename(dir)}/${down}`;
      dir = up;
      above.push({ prefix: down, dir });
      if (fs.existsSync(path.join(dir, '.git'))) break;
    }
    for (const { prefix, dir: folder } of above.reverse()) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(folder, '.gitignore'), 'utf8');
      } catch {
        continue; // no .gitignore there
      }
      const count = counted(text, path.join(folder, '.gitignore'));
      rules.push({ base: '', prefix, matcher: compileGitignore(text, work), file: path.join(folder, '.gitignore'), count });
    }
  }
  /** Whether `rel` (a folder when `dir`) is ignored: the deepest `.gitignore` with a say decides. */
  const gitIgnored = (rel: string, dir: boolean): boolean => {
    let ignored = false;
    for (const { base, prefix, matcher } of rules) {
      const local = prefix !== undefined ? `${prefix}/${rel}` : base === '' ? rel : rel.slice(base.length + 1);
      const verdict = matcher(local, dir);
      if (verdict !== 0) ignored = verdict > 0;
    }
    if (work.units > MAX_GITIGNORE_WORK) throw gitignoreLimit(root, rules, work.units);
    return ignored;
  };
  let visited = 0;
  /**
   * Walks folder `rel`. `raw` is its path as bytes, below a folder whose name is not valid UTF-8:
   * Node reads such a name with U+FFFD, a name no folder has, so the folder is listed by its bytes
   * and its files get their names as read (with U+FFFD), which discovery reports as undecodable
   * when a pattern matches them. They were skipped without a word (s31 sweep D7).
   */
  const visit = (rel: string, raw?: Buffer): void => {
    const abs = rel === '' ? root : path.join(root, rel);
    let entries: Array<{ name: string; raw?: Buffer; isDirectory(): boolean; isFile(): boolean }>;
    try {
      entries = raw ? fs.readdirSync(raw, { withFileTypes: true, encoding: 'buffer' }).map((e) => ({ name: e.name.toString('utf8'), raw: e.name, isDirectory: () => e.isDirectory(), isFile: () => e.isFile() })) : fs.readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') denied.add(rel || '.');
      return;
    }
    visited += entries.length;
    if (visited > MAX_WALK_ENTRIES) throw new DiscoveryLimitError(root);
    /** A child's path as bytes, when it must be reached by them: under `raw`, or its own name is not UTF-8. */
    let rawNames: Map<string, Buffer[]> | undefined;
    const rawChild = (name: string, own?: Buffer): Buffer[] | undefined => {
      if (raw) return [Buffer.concat([raw, Buffer.from(path.sep), own!])];
      if (!name.includes('\uFFFD')) return undefined;
      if (!rawNames) {
        rawNames = new Map();
        try {
          for (const n of fs.readdirSync(abs, { encoding: 'buffer' })) {
            const text = n.toString('utf8');
            if (text.includes('\uFFFD')) rawNames.set(text, [...(rawNames.get(text) ?? []), Buffer.concat([Buffer.from(abs + path.sep), n])]);
          }
        } catch {
          // gone meanwhile: nothing below it is listed
        }
      }
      return rawNames.get(name) ?? [];
    };
    let pushed = false;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      let text: string | undefined;
      try {
        text = fs.readFileSync(raw ? Buffer.concat([raw, Buffer.from(`${path.sep}.gitignore`)]) : path.join(abs, '.gitignore'), 'utf8');
      } catch {
        // unreadable: no rules from it
      }
      if (text !== undefined) {
        const file = rel === '' ? '.gitignore' : `${rel}/.gitignore`;
        const count = counted(text, file);
        rules.push({ base: rel, matcher: compileGitignore(text, work), file, count });
        pushed = true;
      }
    }
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (skippedNames.has(entry.name) || folderSkipped(child) || gitIgnored(child, true)) continue;
        const bytes = rawChild(entry.name, entry.raw);
        if (bytes === undefined) visit(child);
        // Two folders whose names differ only in their undecodable bytes read the same: both walked.
        else for (const b of bytes) visit(child, b);
      } else if (!gitIgnored(child, false)) {
        // Symbolic links, FIFOs, sockets and devices too (not followed, not read): the caller
        // drops them as not regular, and says why of a document or env file a pattern matched,
        // as for git's listing (they were left out silently, s26 note).
        out.push(child);
      }
    }
    if (pushed) rules.pop();
  };
  visit('');
  return out;
}

/**
 * A `.gitignore`'s verdict on a path relative to its folder (POSIX, no trailing slash; `dir` when
 * it is a folder): 1 ignored, -1 re-included by a negation, 0 no rule matches.
 */
export type GitignoreMatcher = (local: string, dir: boolean) => 1 | -1 | 0;

/**
 * Compiles the text of one `.gitignore` once, for {@link walkFiles}: the verdicts of one `ignore`
 * instance of the whole text (the package globby's `gitignore: true` uses) for a path whose
 * folders the walk entered, at a fraction of the cost. Most of a `.gitignore` is name rules (no
 * slash but a trailing one: git matches them against the last path segment only; NeMo Gym's root
 * file: 110 of its 127 rules), and `ignore` runs every rule's regular expression on every path.
 * Here a path that none of the other rules (path rules) matches gets the verdict of the name rules
 * alone, which depends on its name only and is memoised per name (a walk meets `__init__.py` or
 * `README.md` hundreds of times); a path a path rule matches is asked of the whole file, as before.
 * The last rule that matches decides, so when no path rule matches, the last name rule that
 * matches does. The name rules are asked about the name only, not the folders above it: the walk
 * enters no folder that is ignored, so that check (which `ignore` makes per file of rules) is moot.
 * (NeMo Gym without .git, 4,140 files, 245 `.gitignore` files: the rule tests took 110 ms of
 * the walk's 170 ms of CPU in a warm run.)
 *
 * @param text the file's content (any line ends)
 */
export function compileGitignore(text: string, work?: GitignoreWork): GitignoreMatcher {
  const nameLines: string[] = [];
  const pathLines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    // git drops a line's trailing blanks, not its leading ones (` #x` is a pattern, not a comment).
    const body = line.trimEnd();
    if (body === '' || body.startsWith('#')) continue;
    (isNameRule(body) ? nameLines : pathLines).push(line);
  }
  const all = nameLines.length + pathLines.length;
  /** Counts `rules` rules tested on `file` in `work` (each path is at least one character's work). */
  const spend = work ? (rules: number, file: string): void => void (work.units += rules * Math.max(1, file.length)) : (): void => {};
  const whole = createIgnore().add(text);
  if (nameLines.length === 0) {
    return (local, dir) => {
      const file = dir ? `${local}/` : local;
      spend(all, file);
      return verdictOf(whole, file);
    };
  }
  const names = createIgnore().add(nameLines.join('\n'));
  const paths = pathLines.length > 0 ? createIgnore().add(pathLines.join('\n')) : undefined;
  const memo = new Map<string, 1 | -1 | 0>();
  return (local, dir) => {
    const file = dir ? `${local}/` : local;
    if (paths !== undefined) {
      spend(pathLines.length, file);
      if (verdictOf(paths, file) !== 0) {
        spend(all, file);
        return verdictOf(whole, file);
      }
    }
    const name = file.slice(file.lastIndexOf('/', file.length - 2) + 1);
    let verdict = memo.get(name);
    if (verdict === undefined) {
      spend(nameLines.length, name);
      memo.set(name, (verdict = verdictOf(names, name)));
    }
    return verdict;
  };
}

/** The work of the `.gitignore` matchers {@link compileGitignore} made with it, counted as they test paths (see {@link MAX_GITIGNORE_WORK}). */
export interface GitignoreWork {
  /** Rule tests so far, each weighted by the length of the path (or name) tested: a rule tested on a 40-character path is 40. */
  units: number;
}

/**
 * Most work the `.gitignore` rules of one walk may cost ({@link GitignoreWork} units: rule tests
 * times the length of the path tested; a name already answered costs nothing): 200,000,000, about
 * 2.6 s of CPU at the slowest rules measured (`*q1*z1*` on 150-character names, ~13 ns a unit).
 * Real trees are far below it: NeMo Gym without `.git` (4,140 files, 245 `.gitignore` files) costs
 * ~3,000,000, and a few hundred rules on tens of thousands of paths tens of millions. The cost
 * is rules × paths with nothing else to bound it: a `.gitignore` of 10,000 wildcard rules over
 * 2,000 untracked files took 32 s, 40,000 over 6,000 minutes (s43 sweep F1). Past it the walk
 * stops with a {@link DiscoveryLimitError} naming the `.gitignore` files and the numbers.
 */
export const MAX_GITIGNORE_WORK = 200_000_000;

/** A `.gitignore` line (without its trailing blanks, not blank nor a comment) that git matches against a path's last segment only. */
function isNameRule(body: string): boolean {
  const pattern = body.startsWith('!') ? body.slice(1) : body;
  const bare = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  return bare !== '' && !bare.includes('/') && !bare.includes('**') && !bare.includes('\\');
}

function verdictOf(instance: Ignore, file: string): 1 | -1 | 0 {
  const { ignored, unignored } = instance.test(file);
  return ignored ? 1 : unignored ? -1 : 0;
}

/**
 * Built-in skips whose folder name is ambiguous: build output (`build/`, `dist/`) or test code
 * (`test/`, `tests/`) in most projects, a package's own source in some (`mypkg/build/`,
 * `src/commands/test/`). Files under them are read when {@link packageSourceFiles} finds evidence.
 */
const AMBIGUOUS_OUTPUT: ReadonlySet<string> = new Set(['build', 'dist']);
const AMBIGUOUS_TEST: ReadonlySet<string> = new Set(['test', 'tests']);
const AMBIGUOUS_PATH = /(?:^|\/)(?:build|dist|tests?)\//;
/** The default `sources` negations of test folders, lifted when a test folder holds imported source. */
const TEST_NEGATIONS: ReadonlySet<string> = new Set(['!**/test/**', '!**/tests/**']);
const SOURCE_EXT = /\.(?:py|ts|mts|cts|tsx)$/;

/** A positive pattern names `dir` as a literal path segment (`build/**\/*.py`, `pkg/dist/*.ts`). */
function namedBy(patterns: readonly string[], dir: string): boolean {
  return patterns.some((p) => !p.startsWith('!') && p.split('/').includes(dir));
}

/**
 * The `sources` patterns and the ignore globs with the ambiguous built-in skips lifted: the
 * always-ignored `build`/`dist` folders, and the default `sources`' test-folder negations (a
 * `sources` list the user wrote keeps its own negations: it wins).
 */
function liftedSkips(sources: readonly string[], ignore: readonly string[]): { sources: string[]; ignore: string[] } {
  const defaults = JSON.stringify(sources) === JSON.stringify(DEFAULT_CONFIG.sources);
  return {
    sources: defaults ? sources.filter((p) => !TEST_NEGATIONS.has(p)) : [...sources],
    ignore: [...ALWAYS_IGNORED.filter((dir) => !AMBIGUOUS_OUTPUT.has(dir)).map((dir) => `**/${dir}/**`), ...ignore],
  };
}

function isRegularFile(root: string, file: string, lstats: Map<string, Stats> | undefined): boolean {
  try {
    const stat = lstats?.get(file) ?? lstatSync(path.join(root, file));
    return stat.isFile();
  } catch {
    return false;
  }
}

/**
 * Files a package.json `bin` names that the program patterns miss (an extensionless script at a
 * package's root: ezmesure-admin's `"bin": {"ezmesure-admin": "ezmesure-admin"}`): what a bin
 * runs is known from the package.json, not from its file name, so each one that exists as a
 * regular file, stays inside the project and is not under an ignored folder (`dist/`,
 * `node_modules/`, the user's `ignore`) is a program. Its content decides how it is read (a
 * `node` shebang or JavaScript text; a shell script is followed or noted: extract/typescript/programs.ts).
 *
 * @param packaging the packaging files found (only `package.json` files are read)
 * @param programs the programs already found (not listed twice)
 * @param ignored globs of what is never read
 * @param exists whether a project-relative path is a regular file of the listing
 * @param read a file's text
 */
export function declaredBinFiles(packaging: readonly string[], programs: readonly string[], ignored: readonly string[], exists: (file: string) => boolean, read: (file: string) => string | undefined): string[] {
  const have = new Set(programs);
  const isIgnored = pathMatcher([...ignored], { dot: true });
  const out: string[] = [];
  for (const file of packaging) {
    if (!(file === 'package.json' || file.endsWith('/package.json'))) continue;
    const text = read(file);
    if (text === undefined) continue;
    const dir = path.posix.dirname(file);
    for (const bin of readPackageBins({ file, text }).bins) {
      const target = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, bin.file));
      if (escapesRoot(target) || have.has(target)) continue;
      if (isIgnored(target) || !exists(target)) continue;
      have.add(target);
      out.push(target);
    }
  }
  return out;
}

/** A file's text as a project file ({@link readProjectFile}: regular, inside the root, capped), or undefined. */
function readText(root: string, file: string): string | undefined {
  try {
    return readProjectFile(root, file);
  } catch {
    return undefined;
  }
}

/**
 * Of `candidates` (source files under a folder named `build`, `dist`, `test` or `tests` that a
 * built-in skip left out), those that are a package's source, by evidence rather than by name;
 * every such folder on a file's path must show it:
 *
 * - `build/`, `dist/`: the folder holds code (not only `.d.ts` files) and is a Python subpackage
 *   (it and its parent hold `__init__.py`: `mypkg/build/`) or lies under a source root
 *   (`src/mypkg/build/`, `src/commands/dist/`). setuptools' `build/lib/`, tsc's `dist/` and
 *   wheels in `dist/` show neither.
 * - `test/`, `tests/`: the project's other sources import a module of it (Python
 *   `from mypkg.commands.test import main`, relative `from .test import run`; TypeScript
 *   `import { test } from './commands/test/index.js'`): those modules, the folder's
 *   `__init__.py` and what they import inside the folder are read; the rest (the tests) is not.
 *
 * @param known the sources found without the lifted skips (they give the import evidence)
 * @param read a file's text (`undefined` when unreadable)
 */
export function packageSourceFiles(candidates: readonly string[], known: readonly string[], read: (file: string) => string | undefined): string[] {
  const files = candidates.filter((f) => SOURCE_EXT.test(f));
  if (files.length === 0) return [];
  const all = new Set([...known, ...files]);
  const isPackage = (dir: string): boolean => all.has(`${dir}/__init__.py`);
  // Folders holding code a compiler reads (not only `.d.ts` files, which tsc writes into its output).
  const withCode = new Set<string>();
  for (const f of files) {
    if (/\.d\.[cm]?ts$/.test(f)) continue;
    for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) withCode.add(f.slice(0, i));
  }
  const outputOk = (dir: string): boolean => {
    const parts = dir.split('/');
    return withCode.has(dir) && (parts.slice(0, -1).includes('src') || (isPackage(dir) && parts.length > 1 && isPackage(parts.slice(0, -1).join('/'))));
  };
  // Folders named like tests, each with the files a source outside it imports.
  const testDirs = new Map<string, Set<string>>();
  const out: string[] = [];
  for (const file of files) {
    const parts = file.split('/');
    let ok = true;
    let test: string | undefined;
    for (let i = 0; i < parts.length - 1 && ok; i++) {
      const dir = parts.slice(0, i + 1).join('/');
      if (AMBIGUOUS_OUTPUT.has(parts[i]!)) ok = outputOk(dir);
      else if (AMBIGUOUS_TEST.has(parts[i]!)) test ??= dir;
    }
    if (!ok) continue;
    if (test === undefined) out.push(file);
    else if (!testDirs.has(test) && testMayBeSource(test, isPackage)) testDirs.set(test, new Set());
  }
  if (testDirs.size > 0) {
    const inside = (dir: string): string[] => files.filter((f) => f.startsWith(`${dir}/`));
    for (const [dir, wanted] of testDirs) {
      const members = new Set(inside(dir));
      // Importers: the known sources of the same language directly in the folder's parent and
      // grandparent (`mypkg/commands/__init__.py`, `mypkg/cli.py`; `src/commands/index.ts`,
      // `src/cli.ts`): a bounded read, only for folders that may be source.
      const python = [...members].some((f) => f.endsWith('.py'));
      const parent = path.posix.dirname(dir);
      const scopes = new Set([parent, path.posix.dirname(parent)]);
      const importers = known.filter((f) => (python ? f.endsWith('.py') : /\.(?:[cm]?ts|tsx)$/.test(f)) && scopes.has(path.posix.dirname(f)));
      const queue: string[] = [];
      const add = (f: string | undefined): void => {
        if (f !== undefined && members.has(f) && !wanted.has(f)) {
          wanted.add(f);
          queue.push(f);
        }
      };
      for (const importer of importers) for (const f of importedFiles(importer, read(importer) ?? '', members, isPackage)) add(f);
      while (queue.length > 0) {
        const f = queue.shift()!;
        for (const g of importedFiles(f, read(f) ?? '', members, isPackage)) add(g);
      }
      if (wanted.size > 0 && python) add(`${dir}/__init__.py`);
      out.push(...wanted);
    }
  }
  return [...new Set(out)];
}

/**
 * A test-named folder that may hold source: a Python subpackage (`mypkg/commands/test/` with
 * `__init__.py` in it and its parent) or a folder under a source root (`src/commands/test/`).
 * A top-level `tests/` is the project's tests.
 */
function testMayBeSource(dir: string, isPackage: (dir: string) => boolean): boolean {
  const parts = dir.split('/');
  if (parts.length < 2) return false;
  return parts.slice(0, -1).includes('src') || (isPackage(dir) && isPackage(parts.slice(0, -1).join('/')));
}

/** The Python dotted module of a file through its `__init__.py` chain (`src/pkg/a/b.py` → `pkg.a.b`). */
function pythonModule(file: string, isPackage: (dir: string) => boolean): string[] {
  const parts = file.replace(/\.py$/, '').split('/');
  if (parts.at(-1) === '__init__') parts.pop();
  let start = parts.length - 1;
  while (start > 0 && isPackage(parts.slice(0, start).join('/'))) start--;
  return parts.slice(start);
}

const TS_SPECIFIER = /\bfrom\s*['"](\.{1,2}\/[^'"\n]*)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"\n]*)['"]\s*\)|\brequire\s*\(\s*['"](\.{1,2}\/[^'"\n]*)['"]\s*\)|^[ \t]*import\s+['"](\.{1,2}\/[^'"\n]*)['"]/gm;

/** The files of `members` that `file`'s imports name (Python absolute and relative imports, TypeScript relative specifiers); read with patterns, never run. */
function importedFiles(file: string, text: string, members: ReadonlySet<string>, isPackage: (dir: string) => boolean): string[] {
  const out: string[] = [];
  if (file.endsWith('.py')) {
    const byModule = new Map<string, string>();
    for (const m of members) if (m.endsWith('.py')) byModule.set(pythonModule(m, isPackage).join('.'), m);
    const own = pythonModule(file, isPackage);
    const take = (module: string): void => {
      const f = byModule.get(module);
      if (f !== undefined) out.push(f);
    };
    // Plain imports with their packages: `import a.b` runs `a/__init__.py` too.
    for (const module of importedModuleNames(pythonImports(text), own, file.endsWith('__init__.py'), true)) take(module);
    return out;
  }
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  for (const m of text.matchAll(TS_SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
    const target = path.posix.normalize(dir === '' ? spec : `${dir}/${spec}`);
    const stem = target.replace(/\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/, '');
    for (const c of [target, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, `${stem}/index.ts`, `${stem}/index.tsx`]) {
      if (members.has(c)) {
        out.push(c);
        break;
      }
    }
  }
  return out;
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
 * everything below it (pattern + `/**
 * A predicate on project-relative POSIX paths: true when the `docs` patterns list the path and
 * no `ignore` pattern drops it, as the glob matching of discovery decides (a folder pattern
 * stands for everything under it; `.gitignore` and the folders always skipped are not applied).
 * For a path discovery cannot see: an editor's buffer of a page not saved yet, or deleted while
 * open (the language server lints it as the CLI would once it is saved).
 *
 * @param root the project root (folder patterns are told from file patterns on disk)
 */
export async function docPatternMatcher(root: string, docs: readonly string[], ignore: readonly string[]): Promise<(file: string) => boolean> {
  return globbyMatcher(await expandDirectories(root, [...docs]), [...ignore]);
}

/**`). Negations keep their `!`.
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
      include: pathMatcher(pattern, { dot: false }),
      exclude: negative.length > 0 ? pathMatcher(negative, { dot: true }) : () => false,
    });
  });
  return (file) => tasks.some((t) => t.include(file) && !t.exclude(file));
}

/** git without the repository's hooks, fsmonitor or filters (src/engine/git.ts). */
function git(root: string, args: string[], spool = false): Promise<string> {
  return runGit(root, args, undefined, spool);
}

/** The names of the lists {@link discoverFiles} matches from a git listing, in matching order. */
export const MATCHED_LIST_NAMES = ['sources', 'docs', 'packaging', 'yaml', 'programs', 'schemas', 'envFiles', 'scripts'] as const;

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
  /** As `gitFiles` answers. Never rejects. */
  files: Promise<GitFiles>;
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
 * What {@link gitFiles} found: `files`, or undefined when git cannot give globby's list; and
 * `timedOut`, git's message when that is because a git call ran past its time limit.
 */
export interface GitFiles {
  files: string[] | undefined;
  timedOut?: string;
}

/**
 * The files under `root` that git tracks (even when a `.gitignore` pattern matches them: git
 * applies ignore rules to untracked files only; globby, which cannot know, drops them) or sees
 * untracked and not ignored, root-relative POSIX paths; undefined when git cannot give the
 * same list as globby otherwise (see {@link discoverFiles}). Never rejects. A git call past its
 * time limit (src/engine/git.ts: a FIFO `.gitignore` in an untracked folder blocked the listing
 * for ever, s29 sweep D1) gives undefined with the message, so the caller walks the tree.
 */
async function gitFiles(root: string): Promise<GitFiles> {
  try {
    const exclude = '--exclude-per-directory=.gitignore';
    // The two git processes run at once (each costs a process start, ~10 ms).
    const [listed, modules] = await Promise.all([
      // Spooled to a file: the listing outgrows a pipe while the caller reads its cache meanwhile.
      git(root, ['ls-files', '-z', '--cached', '--others', exclude], true),
      git(root, ['rev-parse', '--show-toplevel']).then((top) => lstat(path.join(top.trim(), '.gitmodules')).then(() => true, () => false)),
    ]);
    if (modules) return { files: undefined };
    // A tracked file is part of the project even when a .gitignore pattern matches it (git's own
    // rule: ts-json-schema-generator tracks its program `ts-json-schema-generator.ts` under `/*.ts`).
    const files = [...new Set(listed.split('\0'))].filter((f) => f !== '');
    if (files.some((f) => f.endsWith('/'))) return { files: undefined }; // a nested repository
    return { files };
  } catch (error) {
    return error instanceof GitError && error.timedOut ? { files: undefined, timedOut: error.message } : { files: undefined };
  }
}
