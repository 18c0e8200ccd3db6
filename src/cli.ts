/** The `docdrift` command: parses arguments, loads the config, runs the engine, prints a report, sets the exit code. */
import { isSummaryReport } from './shared/report-marker.js';
import { escapesRoot, isPackagingFile } from './shared/paths.js';
import { closeSync, constants as fsConstants, existsSync, fstatSync, ftruncateSync, lstatSync, openSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isDynamicPattern } from 'globby';
import picomatch from 'picomatch';
import { pathMatcher } from './shared/path-match.js';
import braces from 'braces';
import { checkGlobExpansion } from './shared/globs.js';
import { globBudget, GlobReadError, GlobWorkError, MAX_GLOB_MATCH_CHARS, MAX_GLOB_WALK_ENTRIES, walkGlobs, type GlobBudget } from './shared/glob-walk.js';
import { parseCommandLine, UsageError, type OptionSpec } from './cli-args.js';
import { VERSION } from './shared/package-info.js';
import { CONFIG_FILES, ConfigError, loadConfig, validateRuleOptions } from './config/load.js';
import { defaultCacheLocation, openPieceStore, summariseCommands } from './engine/cache.js';
import { ChangedSinceError, changedFiles, selectAffected } from './engine/changed.js';
import { toProjectPath } from './engine/lint.js';
import { foldCopies } from './engine/copies.js';
import { scopeMessages, unreadPaths } from './engine/scope.js';
import { runInit } from './init.js';
import { describeFix } from './fix/apply.js';
import { checkWriteTarget, leavesBase, linkTarget, openForWriteInside, WriteError } from './engine/write.js';
import { DiscoveryLimitError, discoverFiles, ENV_FILES, PROGRAMS, SCHEMAS, YAML } from './engine/discover.js';
import { DEFAULT_BASELINE_FILE } from './engine/baseline.js';
import { inGitBudget, withGitBudget } from './engine/git.js';
import { ParserLoadError } from './docs/bounded-parse.js';
import { BaselineError, finishBaseline, loadBaseline, type LoadedBaseline } from './engine/baseline.js';
import { baselineEntryStale, engineRules, engineRuleSeverity } from './engine/engine-rules.js';
import { formatters, type ReportSink, streamingFormatters } from './report/index.js';
import { formatNotes } from './report/notes.js';
import { fixProject, lintWithCache, ruleIds, rules } from './api.js';
import { escapeControls, escapeLine } from './shared/escape.js';
import type { DriftMessage } from './model/rule.js';
import type { Model } from './model/types.js';
import type { ReportVerdict } from './report/types.js';
import { createProgress, progressMode, type ProgressStream } from './report/progress.js';
import { uncheckedMessage } from './engine/verdict.js';

/**
 * Exit codes (ESLint's convention): 0 clean, 1 problems found, 2 usage, config or internal error,
 * or nothing could be checked (see `runVerdict` in src/engine/verdict.ts) unless that is allowed.
 */
export const EXIT = { ok: 0, problems: 1, error: 2 } as const;

const HELP = `Usage: docdrift [options] [--] [paths…]
       docdrift init [--root DIR] [--force] [--dry-run]   (write a starter config; see docdrift init --help)
       docdrift lsp [--stdio]   (language server for editors, on stdio; see docdrift lsp --help)

Checks that config classes in code, reference tables and README examples agree.
With paths (files, directories or globs such as 'docs/**/*.md', relative to the current
directory), only findings in them are reported; the whole project is still read. Arguments after
-- are always paths; a code or config file among them (or a directory holding some) also
reports the docs it makes stale.
To lint a path named "init" or "lsp", write ./init or ./lsp.

Options:
  --root DIR           project root (default: the current directory)
  --config FILE        config file (default: docdrift.config.json|yaml, .docdriftrc.*, package.json#docdrift)
  --format NAME        stylish | json | sarif | github (default: stylish)
  -o, --output-file FILE
                       write the report to FILE instead of stdout
  --summary FILE       append a Markdown summary with coverage tables to FILE (e.g. $GITHUB_STEP_SUMMARY; - for stdout)
  --max-warnings N     exit 1 when there are more than N warnings (default: -1, no limit)
  --quiet              report errors only, and print no notes on stderr
  --changed-since REF  report only findings in files changed since the git ref REF (merge base,
                       working tree and untracked files) or made stale by changed code
  --fix                apply the rules' fixes to the docs, then report what remains
  --fix-dry-run        print the fixes as a unified diff; write nothing
  --baseline FILE      report only findings this baseline does not record (default: .docdrift-baseline.json if present)
  --write-baseline     record the current findings in the baseline file and report none
  --no-baseline        ignore any baseline file: report every finding
  --color, --no-color  force colours on or off (FORCE_COLOR and NO_COLOR are honoured)
  --cache, --no-cache  reuse the result of an identical earlier run, keyed by file contents (default: on)
  --cache-location DIR
                       cache directory (default: node_modules/.cache/docdrift in the root, else .docdrift-cache)
  --allow-unchecked    exit 0, not 2, when nothing could be checked (no command found, no
                       parameters known, no document compared); also "allowUnchecked": true
  --progress, --no-progress
                       show or hide a status line on stderr during long runs (default: shown
                       on a terminal after a second, never when CI is set or stderr is not a terminal)
  --debug              print timings, the discovered commands, and stacks of internal errors
  -h, --help           show this help
  -v, --version        print the version

Flags that contradict each other (--fix with --fix-dry-run, --fix-dry-run with --write-baseline,
--no-baseline with --baseline, --color with --no-color, …) are refused.

Exit codes: 0 no errors, 1 problems found, 2 usage, config or internal error, or nothing could
be checked (unless --allow-unchecked).
`;

/**
 * The options of the `docdrift` command, one property per flag, as users spell them. This is the
 * config type docdrift's own reference (README "Usage") is checked against by `npm run lint:docs`;
 * {@link CLI_OPTIONS} must declare exactly these (a test keeps them in step).
 */
export interface CliOptions {
  /**
   * The project root; paths in JSON output and in message text are relative to it.
   * @default "."
   */
  root: string;
  /** The config file (JSON or YAML); default: found in the root. */
  config?: string;
  /**
   * Output format: `stylish`, `json`, `sarif` (SARIF 2.1.0) or `github` (Actions annotations).
   * @default "stylish"
   */
  format: string;
  /** Write the report to this file instead of stdout (created or replaced; colours off unless `--color`). */
  'output-file'?: string;
  /** Append a Markdown summary (totals, findings per rule, per-command coverage tables) to this file, e.g. `$GITHUB_STEP_SUMMARY`. */
  summary?: string;
  /**
   * Exit 1 when there are more than this many warnings; -1 means no limit.
   * @default -1
   */
  'max-warnings': number;
  /**
   * Report errors only, and print no notes on stderr (the JSON report and `--summary` keep them).
   * @default false
   */
  quiet: boolean;
  /**
   * Report only findings in files changed since this git ref (committed since the merge base
   * with HEAD, uncommitted, or untracked), and findings in other files made stale by changed
   * code. See `src/engine/changed.ts`.
   */
  'changed-since'?: string;
  /**
   * Apply the fixes of fixable rules to the documents (atomically, inside the root), then report
   * the findings that remain.
   * @default false
   */
  fix: boolean;
  /**
   * Print the fixes `--fix` would make as a unified diff and write nothing.
   * @default false
   */
  'fix-dry-run': boolean;
  /** The baseline file (docs/baseline.md); default: `.docdrift-baseline.json` in the root, when it exists. */
  baseline?: string;
  /**
   * Record the current findings in the baseline file and report none.
   * @default false
   */
  'write-baseline': boolean;
  /**
   * Ignore any baseline file (also `.docdrift-baseline.json` in the root) and report every finding.
   * @default false
   */
  'no-baseline': boolean;
  /** Force colours on. */
  color?: boolean;
  /**
   * Force colours off (`NO_COLOR` also does).
   * @default false
   */
  'no-color': boolean;
  /**
   * Reuse the result of an earlier run when every input file's content, the config and
   * docdrift's version are the same (a content-hash cache, always identical to a cold run).
   * @default true
   */
  cache: boolean;
  /**
   * Do not read or write the cache.
   * @default false
   */
  'no-cache': boolean;
  /** The cache directory; default: `node_modules/.cache/docdrift` in the root, else `.docdrift-cache`. */
  'cache-location'?: string;
  /**
   * Exit 0 instead of 2 when the run could check nothing: no command found, the parameters of
   * none known, or no document compared with any (the config key `allowUnchecked` does the same).
   * @default false
   */
  'allow-unchecked': boolean;
  /** Show a status line (stage, files done / total) on stderr during the run, also when stderr is not a terminal or `CI` is set; default: on a terminal only, after about a second. */
  progress?: boolean;
  /**
   * Never show the status line.
   * @default false
   */
  'no-progress': boolean;
  /**
   * Print timings, the discovered commands, and stacks of internal errors.
   * @default false
   */
  debug: boolean;
  /**
   * Show the help.
   * @default false
   */
  help: boolean;
  /**
   * Print the version.
   * @default false
   */
  version: boolean;
}

/** The options the CLI accepts ({@link parseCommandLine} form); keys are those of {@link CliOptions}. */
export const CLI_OPTIONS = {
  root: { type: 'string', valueName: 'dir' },
  config: { type: 'string', valueName: 'file' },
  format: { type: 'string', default: 'stylish', valueName: 'name' },
  'output-file': { type: 'string', short: 'o', valueName: 'file' },
  summary: { type: 'string', valueName: 'file' },
  'max-warnings': { type: 'string', default: '-1', valueName: 'n' },
  quiet: { type: 'boolean', default: false },
  'changed-since': { type: 'string', valueName: 'ref' },
  fix: { type: 'boolean', default: false },
  'fix-dry-run': { type: 'boolean', default: false },
  baseline: { type: 'string', valueName: 'file' },
  'write-baseline': { type: 'boolean', default: false },
  'no-baseline': { type: 'boolean', default: false },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean', default: false },
  cache: { type: 'boolean', default: true },
  'no-cache': { type: 'boolean', default: false },
  'cache-location': { type: 'string', valueName: 'dir' },
  'allow-unchecked': { type: 'boolean', default: false },
  progress: { type: 'boolean' },
  'no-progress': { type: 'boolean', default: false },
  debug: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const satisfies Record<keyof CliOptions, OptionSpec>;

/**
 * Pairs of flags that cannot go together; a run giving both exits 2 naming them. `--fix-dry-run`
 * writes nothing, so it refuses `--fix` and `--write-baseline`; `--no-x` refuses `--x`;
 * `--cache-location` means nothing without the cache.
 */
export const CONFLICTING_FLAGS = [
  ['fix', 'fix-dry-run'],
  ['fix-dry-run', 'write-baseline'],
  ['no-baseline', 'baseline'],
  ['no-baseline', 'write-baseline'],
  ['color', 'no-color'],
  ['cache', 'no-cache'],
  ['no-cache', 'cache-location'],
  ['progress', 'no-progress'],
] as const satisfies ReadonlyArray<readonly [keyof CliOptions, keyof CliOptions]>;

/** Output streams, injectable for tests. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  isTTY: boolean;
  /** Environment for `FORCE_COLOR`/`NO_COLOR`/`CI`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * The stream the status line of a long run goes to (`process.stderr` in the `docdrift` bin; see
   * src/report/progress.ts); none: no status line.
   */
  progressStream?: ProgressStream;
}

/**
 * Whether to colour the output. `--color`/`--no-color` win; then `FORCE_COLOR` (any value but
 * `0`/`false` turns colour on, those two turn it off, as in Node and supports-color); then a
 * non-empty `NO_COLOR` (https://no-color.org) turns it off; otherwise colour when writing to a
 * terminal.
 */
export function useColor(flags: { color: boolean; noColor: boolean }, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flags.noColor) return false;
  if (flags.color) return true;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return !/^(0|false)$/i.test(force);
  if (env['NO_COLOR']) return false;
  return isTTY;
}

/**
 * Expands the positional path arguments: an existing file or directory is taken as is; an
 * argument with glob syntax (`*`, `?`, `[…]`, `{…}`) that names no file is matched with globby
 * from `cwd`, inside `root` only: a pattern whose fixed base is outside the root (`/` of an absolute
 * pattern, `..` of `../**`), or whose pattern part climbs with `..`, is refused before anything is
 * walked (#33 item 6). Throws a {@link UsageError} (exit 2, one line) for a missing path, a glob
 * matching nothing, a glob outside the root or a directory the glob cannot read.
 */
function expandPaths(args: readonly string[], cwd: string, root: string): string[] {
  // Brace groups multiply (`{a,b}` twenty times is a million patterns, each matched in full:
  // 52 s and 2.2 GB before, #33 sweep D4): refused before anything is expanded, one glob and all together.
  // A negated pattern (`!README.md`, `!**/*.md`) says what not to check, which a path argument
  // cannot: it crashed in picomatch or was read as if the `!` were not there (s46 sweep H6). A
  // file whose name starts with `!` is still a path.
  for (const p of args) {
    if (p.startsWith('!') && statCode(path.resolve(cwd, p)) !== undefined) {
      throw new UsageError(`path arguments name files, folders or patterns to check, not ones to leave out: ${p.length > 80 ? `${p.slice(0, 77)}…` : p}. Leave files out with "ignore" in the docdrift config.`);
    }
  }
  const globs = args.filter((p) => isDynamicPattern(p));
  const tooMany = checkGlobExpansion(globs);
  if (tooMany) {
    const pattern = globs[tooMany.index]!;
    const shown = pattern.length > 80 ? `${pattern.slice(0, 77)}…` : pattern;
    throw new UsageError(`the pattern ${shown} ${tooMany.problem}; ${tooMany.kind === 'braces' ? 'write fewer brace groups or a wildcard' : 'write a shorter pattern with fewer wildcards per segment'}.`);
  }
  const out: string[] = [];
  const budget = globBudget();
  for (const p of args) {
    const abs = path.resolve(cwd, p);
    let code: string | undefined;
    // Outside the root is the more useful message, whether or not the path exists.
    if (!isDynamicPattern(p) && escapesRoot(path.relative(root, abs))) out.push(abs);
    else if ((code = statCode(abs)) === undefined) {
      // `docs/ol/o.md` where `docs/ol` links outside: discovery skips such files, so the run
      // passed having read nothing (s23 sweep D5).
      if (linksOutside(root, abs)) throw new UsageError(`${p} is reached through a symbolic link to a place outside the project root ${root}; docdrift does not read it.`);
      out.push(abs);
    }
    else if (isDynamicPattern(p)) for (const match of expandGlob(p, cwd, root, budget)) out.push(match);
    else {
      // A folder on the way this user may not search (EACCES) is not a missing file (s24 sweep note).
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`no such file or directory: ${p} (paths are resolved from the current directory, ${cwd}).`);
      throw new UsageError(`cannot read ${p}: ${code}${code === 'EACCES' ? ' (permission denied, on it or on a folder above it)' : ''}.`);
    }
  }
  return out;
}

/** The error code of `stat` on `abs` (`ENOENT`, `EACCES`, …), `undefined` when it exists (links followed). */
function statCode(abs: string): string | undefined {
  try {
    statSync(abs);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'ENOENT';
  }
}

/**
 * The files glob `p` (relative to `cwd`) matches inside `root`; see {@link expandPaths}. Brace
 * groups are expanded first (`braces`, the expander micromatch and fast-glob use) and each
 * alternative is checked as a pattern of its own, so `{/usr,docs}/**` or `{/,docs/}**` is refused
 * before anything is walked (the fixed base of the whole pattern is `.`: it walked `/usr`, s22
 * sweep D6). The number of alternatives is bounded by `checkGlobExpansion` before this is called;
 * the walks and the matching of all the globs of one command line share `budget` (see `walkGlobs`).
 */
function expandGlob(p: string, cwd: string, root: string, budget: GlobBudget): string[] {
  const alternatives = braces.expand(p);
  const scanned = alternatives.map((alternative) => ({ alternative, ...picomatch.scan(alternative) }));
  for (const { base, glob } of scanned) {
    const baseAbs = path.resolve(cwd, base);
    // A base through a link out of the root (`docs/rootlink/usr/**` where `docs/rootlink -> /`)
    // is refused too: globby would walk /usr (s23 sweep D5).
    if (escapesRoot(path.relative(root, baseAbs)) || /(?:^|[/{,])\.\.(?:$|[/},])/.test(glob) || path.isAbsolute(glob) || linksOutside(root, baseAbs)) {
      throw new UsageError(`the pattern ${p} reaches outside the project root ${root}; patterns are matched inside it (paths are resolved from the current directory, ${cwd}).`);
    }
  }
  const matches = new Set<string>();
  // Each base is walked once for all the alternatives that share it, not once per alternative
  // (s30 sweep D2: `**/x{1..999}.md` over 8,000 files, 999 walks, 15.2 s -> one walk), and the
  // walk and the matching are counted against the command line's totals (D1: `notes/*a*a*a`
  // over 5,000 files of 250-character names, 14.9 s of backtracking).
  const byBase = new Map<string, string[]>();
  for (const { alternative, base, glob } of scanned) {
    const baseAbs = path.resolve(cwd, base);
    // A literal alternative (`{README.md,docs/*.md}`) names a file or nothing.
    if (!isDynamicPattern(alternative)) {
      if (existsSync(baseAbs) && statSync(baseAbs).isFile()) matches.add(baseAbs);
      continue;
    }
    byBase.set(baseAbs, [...(byBase.get(baseAbs) ?? []), glob]);
  }
  for (const [baseAbs, globs] of byBase) {
    try {
      // Matched from the pattern's base, so nothing above it is walked.
      for (const m of walkGlobs(baseAbs, globs, budget)) matches.add(path.resolve(m));
    } catch (error) {
      if (error instanceof GlobWorkError) throw new UsageError(`the pattern ${p} ${error.message} (the glob arguments of one run may walk at most ${MAX_GLOB_WALK_ENTRIES.toLocaleString('en-US')} entries and try at most ${MAX_GLOB_MATCH_CHARS.toLocaleString('en-US')} characters of paths); give a narrower base folder or fewer alternatives.`);
      if (error instanceof GlobReadError) throw new UsageError(`cannot match the pattern ${p}: ${error.code} reading ${path.relative(cwd, error.path) || error.path}.`);
      throw error;
    }
  }
  if (matches.size === 0) throw new UsageError(`no files match the pattern ${p} (paths are resolved from the current directory, ${cwd}).`);
  return [...matches];
}

/**
 * Whether `abs` (inside `root` as written) resolves outside it through a symbolic link: the real
 * path of its deepest existing ancestor (itself when it exists) is compared with the root's. A
 * path that cannot be resolved at all is not judged here (reading it reports why).
 */
function linksOutside(root: string, abs: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  for (let at = abs; ; at = path.dirname(at)) {
    try {
      return escapesRoot(path.relative(realRoot, realpathSync(at)));
    } catch {
      if (path.dirname(at) === at) return false;
    }
  }
}

/**
 * Why `abs` (given as `given`) cannot receive a report, or `undefined` when it can: an empty value
 * (an unset `$GITHUB_STEP_SUMMARY` expands to one), a directory, or a missing parent directory.
 */
function outputFileProblem(abs: string, given: string): string | undefined {
  if (given.trim() === '') return 'needs a file path; got an empty value (is the variable it came from set?).';
  try {
    const stat = statSync(abs);
    if (stat.isDirectory()) return `takes a file; ${abs} is a directory.`;
    // A FIFO blocked the run forever in open() (sweep15 D11); a device or socket is no report file either.
    if (!stat.isFile()) return `takes a regular file; ${abs} is ${nonRegularKind(stat)}. Name a regular file.`;
  } catch {
    // A new file: its directory must exist.
    const dir = path.dirname(abs);
    try {
      if (!statSync(dir).isDirectory()) return `cannot create ${abs}: ${dir} is not a directory.`;
    } catch {
      return `cannot create ${abs}: the directory ${dir} does not exist.`;
    }
  }
  return undefined;
}

/** What a non-regular file is, for a message: "a FIFO (named pipe)", "a character device", .... */
function nonRegularKind(stat: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isSymbolicLink(): boolean }): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Whether `abs` is a regular file holding a report `--summary` wrote ({@link isSummaryReport}); read up to 64 MiB. */
function summaryReportAt(abs: string): boolean {
  try {
    const stat = lstatSync(abs);
    return stat.isFile() && stat.size <= 64 * 1024 * 1024 && isSummaryReport(readFileSync(abs, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * What a report written to `abs` would destroy, or `undefined`: the configuration file, the
 * baseline, a configuration or packaging file name in `root` even before it exists, or an
 * existing file inside `root` that the run reads (a document or source the config's globs match,
 * negations aside; a `pyproject.toml`, `setup.cfg`, `setup.py` or `package.json`). `-o README.md`
 * used to replace the README with the report.
 */
function inputOverwritten(abs: string, root: string, config: { docs: string[]; sources: string[] }, configFile: string | undefined, baselineFile: string): string | undefined {
  if (configFile !== undefined && path.resolve(configFile) === abs) return 'the configuration file';
  // Even before one exists: a report written there is read as the baseline by every later run (s24 sweep D11).
  if (path.resolve(baselineFile) === abs) return existsSync(abs) ? 'the baseline file' : 'the path of the baseline file, which later runs would read';
  const rel = path.relative(root, abs);
  if (rel === '' || escapesRoot(rel)) return undefined;
  const file = rel.split(path.sep).join('/');
  const segments = file.split('/');
  // Git's own data (`-o .git/config` emptied the repository's config) and the files git and
  // discovery read by name in every folder (`-o .gitignore` emptied the ignore list the next run
  // reads), existing or not (s30 sweep2 D1); and the per-file cache folder.
  if (segments.includes('.git')) return "a file of git's own data (inside .git)";
  if (GIT_NAMED_FILES.has(segments[segments.length - 1]!)) return 'the path of a file git and docdrift read (.gitignore, .gitattributes, .gitmodules)';
  if (!escapesRoot(path.relative(defaultCacheLocation(root), abs))) return 'a file of the cache folder, which later runs read';
  // Names later runs read by name, whether or not the file exists yet: a report written there
  // becomes docdrift's config or a manifest (s25 sweep D2: `-o docdrift.config.json`, then every
  // run exits 2 on its keys).
  if (!existsSync(abs)) {
    if (CONFIG_FILES.includes(file)) return 'the path of a configuration file, which later runs would read';
    if (isPackagingFile(file)) return 'the path of a packaging file, which later runs would read';
    return undefined;
  }
  if (statSync(abs).isDirectory()) return undefined;
  const matches = (globs: string[]) => pathMatcher(globs.filter((g) => !g.startsWith('!')), { dot: true })(file);
  if (matches(config.docs)) return 'a document docdrift checks';
  if (matches(config.sources)) return 'a source file docdrift reads';
  if (isPackagingFile(file)) return 'a packaging file docdrift reads';
  if (pathMatcher(YAML, { dot: true })(file)) return 'a YAML file docdrift reads';
  if (pathMatcher(SCHEMAS.filter((g) => !g.startsWith('!')), { dot: true })(file)) return 'a JSON Schema file docdrift reads';
  if (pathMatcher(ENV_FILES.filter((g) => !g.startsWith('!')), { dot: true })(file)) return 'an example env file docdrift reads';
  // JavaScript programs, tsconfig files and source maps, which discovery lists, and the doc
  // engines' version and site files read by name: `-o docusaurus.config.js`, `sidebars.js`,
  // `website/siteConfig.js` or `tsconfig.json` replaced them (#33 s38 sweep D4).
  if (pathMatcher(PROGRAMS.filter((g) => !g.startsWith('!')), { dot: true })(file)) return 'a JavaScript program, tsconfig or source map docdrift reads';
  if (DOC_ENGINE_FILES.has(segments[segments.length - 1]!)) return "a doc engine's version or site file docdrift reads";
  return undefined;
}

/** Files the doc engines' version and site readers read by name (src/engine/versions.ts, src/engine/site-urls.ts). */
const DOC_ENGINE_FILES: ReadonlySet<string> = new Set(['versions.json', 'docs.json', 'mint.json']);

/** Files git reads by name in any folder, and discovery reads too (`.gitignore`): never a report's place. */
const GIT_NAMED_FILES: ReadonlySet<string> = new Set(['.gitignore', '.gitattributes', '.gitmodules']);

/**
 * Why a report must not be written to `abs` through a link, or `undefined`: the file itself is a
 * symbolic link (anywhere: `-o /tmp/report` planted as a link by someone else), or, inside
 * `root`, a component of its path below the root is one (`ln -s ../victim results.sarif`, a
 * `reports → /etc` directory link): the policy of every other write (#33 item 10).
 */
function linkProblem(abs: string, root: string): string | undefined {
  try {
    if (lstatSync(abs).isSymbolicLink()) {
      return `${abs} is a symbolic link (to ${linkTarget(abs)}); docdrift does not write reports through links. Remove the link or name another file.`;
    }
  } catch {
    // a new file
  }
  try {
    checkWriteTarget(root, abs);
  } catch (error) {
    if (error instanceof WriteError) return error.message;
    throw error;
  }
  return undefined;
}

/**
 * Why a report must not be written to the existing file `abs`, or `undefined`: it has more than
 * one name (a hard link), so it may be a file the run reads under another name, which the check of
 * names in {@link inputOverwritten} cannot see (`ln README.md report.txt; docdrift -o report.txt`
 * replaced the README). The file's own name is checked again with every link followed, in it and
 * in the root.
 */
function hardLinkProblem(abs: string, check: (real: string) => string | undefined): string | undefined {
  let stat;
  try {
    stat = statSync(abs);
  } catch {
    return undefined; // a new file
  }
  // Only a regular file's link count names one file twice (a directory's counts its subfolders).
  if (stat.isFile() && stat.nlink > 1) return `${abs} has ${stat.nlink} names (hard links): it may be a file docdrift reads under another name, and the report would be written into it. Write the report to another file.`;
  // Also when `abs` has no link in it but the root has (`--root link-to-project -o project/README.md`).
  const real = realOr(abs);
  const what = check(real);
  return what ? `${abs} is ${real === abs ? '' : `${real}, `}${what}; the report would be written into it. Write the report to another file.` : undefined;
}

/** `p` with every link followed, or `p` itself when it cannot be resolved (a missing file). */
function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** Throws when the open report file `fd` has more than one name (see {@link hardLinkProblem}; checked again on the file opened). */
function refuseHardLink(fd: number): void {
  const links = fstatSync(fd).nlink;
  if (links > 1) throw new Error(`the file has ${links} names (hard links); docdrift does not write reports into a file with other names`);
}

/** Writes all of `text` (UTF-8) to `fd`, however many calls it takes. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

/**
 * Opens `file` for a report, never through a symbolic link as its last component (O_NOFOLLOW where
 * the system has it), nor through a folder inside `root` that became a link after the start-time
 * check ({@link openForWriteInside}: checked on the file opened, s32 sweep D1), nor into a file
 * with other names, and writes `text`, or what the writer `text` gives its sink piece by piece (a
 * large report is never one string).
 *
 * @throws {WriteError} when the path changed (nothing written; a file it created is removed); the
 *   fs error otherwise.
 */
function writeReport(root: string, file: string, text: string | ((sink: ReportSink) => void), append: boolean): void {
  // Truncated after the check, not by open(O_TRUNC): a hard link to an input is left whole.
  // O_NONBLOCK: a FIFO put there after the check fails to open (ENXIO) instead of blocking the run.
  const flags = fsConstants.O_WRONLY | (append ? fsConstants.O_APPEND : 0) | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);
  const fd = openForWriteInside(root, file, flags, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file; docdrift writes reports into regular files only');
    refuseHardLink(fd);
    if (!append) ftruncateSync(fd, 0);
    if (typeof text === 'string') writeSync(fd, text);
    else text((chunk) => writeAll(fd, chunk));
  } finally {
    closeSync(fd);
  }
}

/** Documents, as opposed to code and config files, among the paths given (see `codePaths` in {@link main}). */
const DOC_FILE = /\.(md|mdx|markdown)$/i;

/** docdrift's version, from its package.json. */
function version(): string {
  return VERSION;
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code.
 * Never throws: every failure is a message on stderr and exit code 2.
 */
export async function main(argv: string[], rawIO: CliIO): Promise<number> {
  // One run's git calls share one time budget (src/engine/git.ts GIT_TOTAL_MS); the language
  // server runs for hours, and bounds each busy stretch of git instead.
  if (argv[0] !== 'lsp' && !inGitBudget()) return withGitBudget(() => main(argv, rawIO));
  // Names and texts from the repository reach stderr in notes and --debug lines: never raw controls.
  // A status line on the terminal is taken off before any other stderr text (see `progress` below).
  let clearProgress = (): void => {};
  const io: CliIO = {
    ...rawIO,
    stderr: (text) => {
      clearProgress();
      rawIO.stderr(escapeControls(text));
    },
  };
  if (argv[0] === 'init') return runInit(argv.slice(1), io);
  // Loaded here: the protocol libraries are needed by the language server only.
  if (argv[0] === 'lsp') return (await import('./lsp/launch.js')).runLanguageServer(argv.slice(1), io);
  let args;
  try {
    args = parseCommandLine('docdrift', argv, CLI_OPTIONS, { conflicts: CONFLICTING_FLAGS });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`docdrift: ${error.message}\nRun \`docdrift --help\` for the options.\n`);
    return EXIT.error;
  }
  const { positionals } = args;
  // `-o -` is stdout, as `--summary -` is (it wrote a file named `-`: s24 sweep D16).
  const values = args.values['output-file'] === '-' ? { ...args.values, 'output-file': undefined } : args.values;
  if (values.help) {
    io.stdout(HELP);
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout(`${version()}\n`);
    return EXIT.ok;
  }
  const format = values.format as string;
  // Own keys only: `toString`, `__proto__` and `constructor` are not formats.
  if (!Object.hasOwn(formatters, format)) {
    io.stderr(`docdrift: --format must be one of ${Object.keys(formatters).join(', ')}; got "${escapeLine(format)}".\n`);
    return EXIT.error;
  }
  const maxWarningsText = values['max-warnings'] as string;
  // ESLint's meaning: a count, or -1 for no limit; -2 is no number of warnings (s23 sweep O3).
  if (!/^-?\d+$/.test(maxWarningsText) || !Number.isSafeInteger(Number(maxWarningsText)) || Number(maxWarningsText) < -1) {
    io.stderr(`docdrift: --max-warnings takes a whole number (-1 for no limit); got "${escapeLine(maxWarningsText)}".\n`);
    return EXIT.error;
  }
  const maxWarnings = Number(maxWarningsText);
  if (values['fix-dry-run'] && format !== 'stylish' && values['output-file'] === undefined) {
    io.stderr(`docdrift: --fix-dry-run prints a diff on stdout, which would corrupt the ${format} report; add --output-file FILE for the report.\n`);
    return EXIT.error;
  }
  // `--summary -` prints the summary on stdout after the report (a file named `-` is never meant).
  const summaryToStdout = values.summary === '-';
  if (summaryToStdout && format !== 'stylish' && values['output-file'] === undefined) {
    io.stderr(`docdrift: --summary - prints Markdown on stdout, which would corrupt the ${format} report; add --output-file FILE for the report.\n`);
    return EXIT.error;
  }
  // One file for both reports held the JSON or SARIF report with the Markdown summary after it:
  // neither parses (s39 sweep D4).
  if (values.summary !== undefined && !summaryToStdout && values['output-file'] !== undefined && path.resolve(io.cwd, values.summary) === path.resolve(io.cwd, values['output-file'])) {
    io.stderr(`docdrift: --summary and --output-file name the same file (${escapeLine(values.summary)}); give each report its own file.\n`);
    return EXIT.error;
  }
  for (const flag of ['summary', 'output-file'] as const) {
    const file = values[flag];
    if (file === undefined || (flag === 'summary' && summaryToStdout)) continue;
    const problem = outputFileProblem(path.resolve(io.cwd, file), file);
    if (problem) {
      io.stderr(`docdrift: --${flag} ${escapeLine(problem)}\n`);
      return EXIT.error;
    }
  }
  // `--root ''` (an unset variable expanded) is refused like the other empty paths below: taken as
  // the current directory it linted whatever that was (all of /tmp, run from there; s22 sweep D10).
  if (typeof values.root === 'string' && values.root.trim() === '') {
    io.stderr(`docdrift: --root needs a directory; got an empty value (is the variable it came from set?).\n`);
    return EXIT.error;
  }
  const root = path.resolve(io.cwd, (values.root as string | undefined) ?? '.');
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    io.stderr(`docdrift: --root ${escapeLine(root)} is not a directory.\n`);
    return EXIT.error;
  }

  // An empty value (an unset variable expanded) is refused, as `-o ''` is: `--config ''` was
  // ignored silently and `--cache-location ''` wrote the cache into the root (#33 item 15).
  for (const flag of ['config', 'cache-location', 'baseline'] as const) {
    const given = values[flag] as string | undefined;
    if (given !== undefined && given.trim() === '') {
      io.stderr(`docdrift: --${flag} needs a path; got an empty value (is the variable it came from set?).\n`);
      return EXIT.error;
    }
  }
  const cacheLocation = values['cache-location'] === undefined ? undefined : path.resolve(io.cwd, values['cache-location'] as string);
  if (cacheLocation !== undefined && existsSync(cacheLocation) && !statSync(cacheLocation).isDirectory()) {
    io.stderr(`docdrift: --cache-location takes a directory; ${escapeLine(cacheLocation)} is a file.\n`);
    return EXIT.error;
  }
  // Outside the project docdrift makes the cache folder itself, not its missing parents (as
  // --output-file makes none); inside, it makes them (a link on the way is refused by the cache).
  if (cacheLocation !== undefined && leavesBase(path.relative(root, cacheLocation)) && !existsSync(path.dirname(cacheLocation))) {
    io.stderr(`docdrift: --cache-location cannot create ${escapeLine(cacheLocation)}: the directory ${escapeLine(path.dirname(cacheLocation))} does not exist (outside the project docdrift makes only the cache folder itself).\n`);
    return EXIT.error;
  }

  let config;
  let configFile: string | undefined;
  try {
    const explicit = values.config ? path.resolve(io.cwd, values.config as string) : undefined;
    const loaded = loadConfig(root, explicit, ruleIds);
    config = loaded.config;
    configFile = loaded.file;
    for (const warning of loaded.warnings ?? []) io.stderr(`docdrift: warning: ${warning}\n`);
    validateRuleOptions(config, [...rules, ...engineRules], loaded.file);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`docdrift: ${error.message}\n`);
      return EXIT.error;
    }
    io.stderr(`docdrift: cannot load the configuration: ${(error as Error).message}\n`);
    return EXIT.error;
  }

  // The baseline in effect: reports may not overwrite it, and a path argument naming it is read.
  const baselineFile = values.baseline === undefined ? path.join(root, DEFAULT_BASELINE_FILE) : path.resolve(io.cwd, values.baseline as string);
  for (const flag of ['summary', 'output-file'] as const) {
    const file = values[flag];
    if (file === undefined || (flag === 'summary' && values.summary === '-')) continue;
    const abs = path.resolve(io.cwd, file);
    // A report --summary wrote before is appended to, not replaced (SUMMARY_MARKER, s35 sweep D8).
    const unlessOwnReport = (target: string, what: string | undefined): string | undefined => (what !== undefined && flag === 'summary' && summaryReportAt(target) ? undefined : what);
    const what = unlessOwnReport(abs, inputOverwritten(abs, root, config, configFile, baselineFile));
    if (what) {
      io.stderr(`docdrift: --${flag} ${escapeLine(file)} is ${escapeLine(what)}; the report would replace it. Write the report to another file.\n`);
      return EXIT.error;
    }
    const link = linkProblem(abs, root) ?? hardLinkProblem(abs, (real) => unlessOwnReport(real, inputOverwritten(real, realOr(root), config, configFile && realOr(configFile), realOr(baselineFile))));
    if (link) {
      io.stderr(`docdrift: --${flag} ${escapeLine(link)}\n`);
      return EXIT.error;
    }
  }

  // An empty path argument (`docdrift -- "$CHANGED"` with the variable unset) is refused as the
  // empty option values are; it reached globby, which threw a TypeError (#33 part 3, D11).
  if (positionals.some((p) => p.trim() === '')) {
    io.stderr('docdrift: a path argument is empty (is the variable it came from set?); name a file, a directory or a glob.\n');
    return EXIT.error;
  }
  let files: string[];
  try {
    files = expandPaths(positionals, io.cwd, root);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`docdrift: ${escapeLine(error.message)}\n`);
    return EXIT.error;
  }
  for (const abs of files) {
    const rel = path.relative(root, abs);
    if (escapesRoot(rel)) {
      io.stderr(`docdrift: ${escapeLine(path.relative(io.cwd, abs) || abs)} is outside the project root ${escapeLine(root)}; paths are resolved from the current directory.
`);
      return EXIT.error;
    }
  }

  let changed: Set<string> | undefined;
  if (values['changed-since'] !== undefined) {
    try {
      changed = await changedFiles(root, values['changed-since'] as string);
    } catch (error) {
      const text = error instanceof ChangedSinceError ? error.message : `--changed-since: ${(error as Error).message}`;
      io.stderr(`docdrift: ${escapeLine(text)}\n`);
      return EXIT.error;
    }
  }

  const noBaseline = values['no-baseline'] === true;
  let baseline: LoadedBaseline | undefined;
  if (!noBaseline) {
    try {
      baseline = loadBaseline({
        root,
        cwd: io.cwd,
        file: values.baseline as string | undefined,
        write: values['write-baseline'] === true,
        paths: files.map((f) => toProjectPath(root, f)),
        staleSeverity: engineRuleSeverity(baselineEntryStale, config.rules),
      });
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      io.stderr(`docdrift: ${escapeLine(error.message)}\n`);
      return EXIT.error;
    }
  }

  // Code and config files among the paths (as pre-commit and lint-staged pass staged files): a
  // change there can make untouched docs stale, so their findings are reported too.
  const codePaths = files
    .filter((f) => !DOC_FILE.test(f) && statSync(f).isFile())
    .map((f) => toProjectPath(root, f));
  // A directory stands for the files in it, as its glob `dir/**` does: `docdrift tool` reported
  // nothing where `docdrift 'tool/**'` reported the docs the code made stale (sweep13 D10). Its
  // code and config files are those the project's discovery finds in it (not every file below it:
  // `docdrift .` need not walk node_modules).
  const dirs = files.filter((f) => statSync(f).isDirectory()).map((f) => toProjectPath(root, f));
  if (dirs.length > 0) {
    const found = await discoverFiles(root, config.sources, config.docs, config.ignore);
    const inDir = (f: string): boolean => dirs.some((d) => d === '' || d === '.' || f.startsWith(`${d}/`));
    const known = new Set(codePaths);
    for (const f of [...found.sources, ...found.packaging, ...found.yaml, ...(found.programs ?? []), ...(found.schemas ?? []), ...(found.envFiles ?? []), ...(found.scripts ?? []), ...(configFile ? [toProjectPath(root, configFile)] : [])]) {
      if (!DOC_FILE.test(f) && inDir(f) && !known.has(f)) {
        known.add(f);
        codePaths.push(f);
      }
    }
  }
  const widen = codePaths.length > 0;
  const configPath = configFile && toProjectPath(root, configFile);
  /** The findings in `paths` and those the code paths among them make stale (the whole project's findings in, those to report out). */
  const inPaths = (messages: DriftMessage[], model: Model): DriftMessage[] => {
    const located = new Set(scopeMessages(root, messages, files));
    const affected = new Set(selectAffected(messages, model, new Set(codePaths), configPath));
    return messages.filter((m) => located.has(m) || affected.has(m));
  };

  const progress = createProgress(
    progressMode({ progress: values.progress, noProgress: values['no-progress'] === true, quiet: values.quiet === true }, rawIO.progressStream, io.env ?? process.env),
    rawIO.progressStream,
  );
  clearProgress = () => progress.clear();
  try {
    const dryRun = values['fix-dry-run'] === true;
    // --changed-since and code paths scope the fixes as they scope the report (issue #33 item 9:
    // `--fix tool/cli.py` fixes and reports the docs the code makes stale, as the plain run reports them).
    const scope = changed;
    const select = scope || widen
      ? (ms: DriftMessage[], model: Model): DriftMessage[] => {
          const kept = widen ? inPaths(ms, model) : ms;
          return scope ? selectAffected(kept, model, scope, configPath) : kept;
        }
      : undefined;
    // The passes of --fix reuse the per-file cache of earlier runs, and leave theirs in it
    // (a dry run only reads it: it writes nothing).
    const fixPieces = (values.fix || dryRun) && !values['no-cache'] ? openPieceStore({ root, location: cacheLocation, version: version() }) : undefined;
    const fixed = values.fix || dryRun
      ? await fixProject({
          root, config, files: widen ? [] : files, configFile, dryRun,
          ...(fixPieces ? { pieces: fixPieces.store } : {}),
          ...(select ? { select } : {}),
          onProgress: progress.update,
        })
      : undefined;
    if (!dryRun) fixPieces?.save();
    const result = fixed
      ? { ...fixed.result, commands: summariseCommands(fixed.result.model), cache: { status: 'off' as const, written: false, hashed: 0, ms: 0 } }
      : await lintWithCache({
          root,
          config,
          files: widen ? [] : files,
          configFile,
          cache: !values['no-cache'],
          // The --summary coverage table, --changed-since and code paths read the whole model,
          // which a run-cache hit does not store: such runs reuse the per-file cache only.
          needModel: values.summary !== undefined || changed !== undefined || widen,
          location: cacheLocation,
          version: version(),
          onProgress: progress.update,
        });
    // The status line is erased before the report and the notes are written.
    progress.stop();
    if (fixed) {
      if (dryRun) {
        // Loaded here: the diff package is needed by --fix-dry-run only.
        const diff = (await import('./fix/diff.js')).unifiedDiff(fixed.files);
        if (diff) io.stdout(diff);
      }
      // With a config problem nothing was checked as asked (exit 2): "nothing to fix." above its
      // lines would read as an all-clear (s33 sweep D4); what was fixed or refused is still said.
      const said = describeFix(fixed, dryRun).stderr;
      io.stderr(result.configProblems.length > 0 ? said.replace(/^docdrift: nothing to fix\.\n/m, '') : said);
    }
    // Each note once per run (two passes or two sources may say the same thing), in every report.
    const notes = [...new Set(result.notes)];
    // A path argument that names no file the run read can have no finding: said once, so a run
    // given only such paths is no silent pass (#33, s23 sweep O6), as ESLint warns of an ignored file.
    if (files.length > 0) {
      const unread = unreadPaths(root, files, result.inputs, [...(configFile ? [configFile] : []), baselineFile]);
      if (unread.length > 0) {
        const shown = unread.slice(0, 5).join(', ') + (unread.length > 5 ? `, and ${unread.length - 5} more` : '');
        notes.push(
          `nothing was checked for ${unread.length === files.length ? (files.length === 1 ? 'the path given' : `the ${files.length} paths given`) : `${unread.length} of the ${files.length} paths given`} (${shown}): ` +
            `${unread.length === 1 ? 'it names' : 'they name'} no document, source or packaging file docdrift reads (see "docs", "sources" and "ignore" in the config).`,
        );
      }
    }
    let messages = result.messages;
    let suppressedCount = result.suppressed.length;
    if (widen) {
      messages = inPaths(messages, result.model!);
      suppressedCount = scopeMessages(root, result.suppressed, files).length;
    }
    if (!baseline) {
      // --no-baseline: every finding is reported.
    } else if (values['write-baseline'] && (result.failures.length > 0 || result.configProblems.length > 0)) {
      io.stderr('docdrift: the baseline was not written, because this run did not check everything (see below).\n');
    } else {
      try {
        const outcome = finishBaseline(messages, baseline);
        messages = outcome.messages;
        suppressedCount += outcome.suppressed.length;
        if (outcome.notice) io.stderr(`docdrift: ${outcome.notice}\n`);
      } catch (error) {
        if (!(error instanceof BaselineError)) throw error;
        io.stderr(`docdrift: ${error.message}\n`);
        return EXIT.error;
      }
    }
    if (changed) messages = selectAffected(messages, result.model!, changed, configFile && toProjectPath(root, configFile));
    if (values.quiet) messages = messages.filter((m) => m.severity === 'error');
    // The same finding on copies of a page (translations, versions, mirrored folders) is reported once.
    messages = foldCopies(messages);
    const outputFile = values['output-file'] === undefined ? undefined : path.resolve(io.cwd, values['output-file']);
    // A report file is uncoloured unless --color asks: FORCE_COLOR is about the terminal.
    const color =
      outputFile !== undefined
        ? values.color === true
        : useColor({ color: values.color === true, noColor: values['no-color'] === true }, io.env ?? process.env, io.isTTY);
    // Whether the run checked anything, and whether checking nothing was declared expected.
    const verdict: ReportVerdict = { ...result.verdict, allowed: result.verdict.status === 'unchecked' && (values['allow-unchecked'] === true || config.allowUnchecked) };
    const formatOptions = {
      root,
      cwd: io.cwd,
      color,
      suppressedCount,
      notes,
      commands: result.commands,
      verdict,
      ...(format === 'sarif' ? { version: version() } : {}),
    };
    // JSON and SARIF are written piece by piece, one finding at a time (72,000 findings made a
    // 100 MB report string after its object tree: #33 s31 D6); the others as one text.
    const stream = streamingFormatters[format as keyof typeof formatters];
    // A config problem means the run checked less than asked: exit 2 with no report (the problems follow on stderr).
    const out = result.configProblems.length > 0 || stream ? '' : formatters[format as keyof typeof formatters](messages, formatOptions);
    const report = out ? (out.endsWith('\n') ? out : `${out}\n`) : '';
    if (outputFile !== undefined && result.configProblems.length === 0) {
      try {
        writeReport(root, outputFile, stream ? (sink) => stream(messages, formatOptions, sink) : report, false);
      } catch (error) {
        // As the check at the start refuses it: one line naming the link (s32 sweep D1).
        if (error instanceof WriteError) {
          io.stderr(`docdrift: --output-file ${escapeLine(error.message)}\n`);
          return EXIT.error;
        }
        io.stderr(`docdrift: --output-file cannot write ${escapeLine(outputFile)}: ${escapeLine((error as NodeJS.ErrnoException).code ?? (error as Error).message)}.\n`);
        return EXIT.error;
      }
    } else if (stream && result.configProblems.length === 0) stream(messages, formatOptions, io.stdout);
    else if (report) io.stdout(report);
    else if (format === 'stylish' && io.isTTY && verdict.status === 'checked' && result.configProblems.length === 0) {
      // On a terminal an empty report reads as "did it run?": one line says what was checked.
      // Not for pipes and files, where an empty stylish report means no findings (as ESLint's).
      const n = result.commands.length;
      io.stdout(`docdrift: no problems (${n} command${n === 1 ? '' : 's'} checked against ${result.stats.docs} document${result.stats.docs === 1 ? '' : 's'}).\n`);
    }
    if (values.summary !== undefined) {
      const summaryFile = path.resolve(io.cwd, values.summary);
      // Loaded here: mdast-util-to-markdown (~50 modules) is needed by --summary only.
      const { appendSummary, formatSummary } = await import('./report/summary.js');
      try {
        if (values.summary === '-') io.stdout(formatSummary(messages, result.model!, notes, verdict));
        else appendSummary(summaryFile, formatSummary(messages, result.model!, notes, verdict), root);
      } catch (error) {
        if (error instanceof WriteError) {
          io.stderr(`docdrift: --summary ${escapeLine(error.message)}\n`);
          return EXIT.error;
        }
        io.stderr(`docdrift: --summary cannot write ${escapeLine(summaryFile)}: ${escapeLine((error as NodeJS.ErrnoException).code ?? (error as Error).message)}.\n`);
        return EXIT.error;
      }
    }
    if (values.debug) {
      const t = result.stats.timings;
      io.stderr(
        `docdrift: ${result.stats.sources} source files, ${result.stats.docs} docs; ` +
          `discover ${t.discover.toFixed(0)} ms, extract ${t.extract.toFixed(0)} ms, docs ${t.docs.toFixed(0)} ms, ` +
          `model ${t.model.toFixed(0)} ms, rules ${t.rules.toFixed(0)} ms` +
          `${result.stats.parseCpuMs !== undefined ? ` (documents parsed in ${result.stats.parseCpuMs.toFixed(0)} ms of worker CPU${result.stats.parseCostMs !== undefined ? `, ${result.stats.parseCostMs.toFixed(0)} ms with garbage collection on V8's helper threads` : ''})` : ''}` +
          `${result.stats.typeScriptWorker ? '; TypeScript facts in a worker thread' : ''}${result.stats.pythonWorker ? '; Python flags in a worker thread' : ''}\n`,
      );
      const c = result.cache;
      if (c.status !== 'off') {
        io.stderr(`${escapeLine(`docdrift: cache ${c.status} (${c.file}; ${c.hashed} files hashed in ${c.ms.toFixed(0)} ms${c.pieces ? `; per-file cache ${c.pieces.hits} reused, ${c.pieces.misses} computed${c.pieces.note ? ` (${c.pieces.note})` : ''}` : ''}${c.written ? ', written' : ''}${c.note ? `; ${c.note}` : ''})`)}\n`);
      }
      for (const cmd of result.commands) {
        // Names come from the project (a console-script key may hold a line feed): one line each (s24 sweep D14).
        io.stderr(
          `${escapeLine(
            `  command ${[cmd.name, ...cmd.aliases].join(' / ')} → ${cmd.configClasses.join(', ') || (cmd.paramsKnown ? '(CLI flags)' : '(parameters unknown)')}` +
              ` [${cmd.params} params${cmd.coverage && cmd.coverage.parameters !== cmd.params ? ` (${cmd.coverage.parameters} to document: positional, hidden and ignored ones and second spellings are not)` : ''}, ${cmd.sections} reference sections]`,
          )}\n`,
        );
      }
    }
    if (values.debug && result.model) {
      // Reference inference (issue #29): what each candidate block was matched to, and why not.
      const considered = (result.model.inferences ?? []).filter((i) => i.command !== undefined || (i.shared ?? 0) > 0);
      for (const i of considered.slice(0, 50)) {
        io.stderr(`${escapeLine(`  inferred ${i.file}:${i.line} "${i.heading}" → ${i.command ?? '(not assigned)'}: ${i.evidence}`)}\n`);
      }
      if (considered.length > 50) io.stderr(`  … and ${considered.length - 50} more blocks considered by reference inference\n`);
    }
    for (const failure of result.failures) {
      const err = failure.error as Error;
      io.stderr(`docdrift: internal error in rule ${failure.ruleId}: ${escapeLine(err?.message ?? String(err))}\n`);
      if (values.debug && err?.stack) io.stderr(`${err.stack}\n`);
    }
    for (const problem of result.configProblems) io.stderr(`docdrift: ${escapeLine(problem)}\n`);
    // Saying nothing when nothing was checked would read as "all clear" (src/engine/notes.ts).
    // --quiet silences them (JSON, SARIF and --summary keep them), except when they explain the
    // exit 2 of a run that checked nothing.
    if (!values.quiet || (verdict.status === 'unchecked' && !verdict.allowed)) io.stderr(formatNotes(notes));
    // A cache asked for but unusable makes every run a full one: say why.
    if (result.cache.status === 'off' && result.cache.note) io.stderr(`docdrift: cache ${result.cache.note}; this run parsed every file.\n`);
    if (result.failures.length > 0 || result.configProblems.length > 0 || (fixed?.problems.length ?? 0) > 0) return EXIT.error;
    // Nothing compared: exit 0 would read as "the docs are in sync" (issue #32 item 1).
    if (verdict.status === 'unchecked') {
      if (!verdict.allowed) {
        io.stderr(`docdrift: ${uncheckedMessage(verdict, false)}\n`);
        return EXIT.error;
      }
      if (!values.quiet) io.stderr(`docdrift: ${uncheckedMessage(verdict, true)}\n`);
    }
    const errors = messages.filter((m) => m.severity === 'error').length;
    const warnings = messages.length - errors;
    if (errors > 0) return EXIT.problems;
    if (maxWarnings >= 0 && warnings > maxWarnings) {
      io.stderr(`docdrift: too many warnings (${warnings}); the maximum is ${maxWarnings}.\n`);
      return EXIT.problems;
    }
    return EXIT.ok;
  } catch (error) {
    progress.stop();
    if (error instanceof WriteError) {
      io.stderr(`docdrift: ${error.message}\n`);
      return EXIT.error;
    }
    if (error instanceof DiscoveryLimitError) {
      io.stderr(`docdrift: ${escapeLine(error.message)}\n`);
      return EXIT.error;
    }
    if (error instanceof ParserLoadError) {
      // A broken installation, not a bug to report: the message says what to do.
      io.stderr(`docdrift: ${error.message}\n`);
      return EXIT.error;
    }
    const err = error as Error;
    io.stderr(`docdrift: internal error: ${err?.message ?? String(err)}\n`);
    if (values.debug && err?.stack) io.stderr(`${err.stack}\n`);
    else io.stderr('Run again with --debug for the stack trace, and report it.\n');
    return EXIT.error;
  }
}
