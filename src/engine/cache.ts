/**
 * The run cache: a whole run's result stored under a key made of every input file's content
 * hash, docdrift's version and code, the project root and the loaded config, so a run with
 * nothing changed prints the same report without extracting, parsing or running rules.
 *
 * Two signed files per project in the cache directory: `run-<hash of root>.json` (the key, each
 * input's stat and content hash, the discovery memo), read by every run, and
 * `result-<hash of root>.json` (the findings), read only when the key matches.
 */
import { escapesRoot } from '../shared/paths.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { checkWriteTarget, cleanStaleTemps, leavesBase, UncheckablePathError, WriteError, writeFileAtomic } from './write.js';
import path from 'node:path';
import { pathMatcher } from '../shared/path-match.js';
import { fileURLToPath } from 'node:url';
import { VFileMessage, type Options as VFileMessageOptions } from 'vfile-message';
import type { DocdriftConfig } from '../config/schema.js';
import { coverageCounts, parameterNames, paramSource, unknownReason, type CoverageCounts } from '../model/coverage.js';
import type { Model } from '../model/types.js';
import { discoveredInputs, discoverFiles, MATCHED_LIST_NAMES, startGitListing, type DiscoveredFiles, type DiscoveryMemo, type MatchedLists } from './discover.js';
import { FactCache } from './facts.js';
import { FilePieceStore, piecesFile } from './pieces.js';
import { createDocParser, type DocParser } from '../docs/bounded-parse.js';
import { mayHaveDirectives } from '../docs/directive-text.js';
import type { LintOptions, LintResult, LintStats } from './lint.js';
import { decodeText, isDirectory, readErrorText, readRegularFile, readRegularFileBytes, SourceCodingError } from '../shared/read-file.js';
import { pythonTextFacts, type PythonTextFacts } from '../extract/python/text-facts.js';
import { scopeMessages } from './scope.js';
import { stableStringify } from '../shared/json.js';
import type { DriftMessage } from '../model/rule.js';
import type { RunVerdict } from './verdict.js';
import type { ProgressListener } from './lint.js';

/**
 * Version of the cache file's layout. A file of another layout is a miss and is rewritten; bump
 * this whenever {@link CacheFile} or the serialised result changes shape.
 */
export const CACHE_FORMAT = 5;

/**
 * A stat shortcut is trusted only for files whose last change (ctime) is at least this long
 * before the moment they were hashed. A file changed within the file system's timestamp
 * granularity of being hashed could be changed again without its stat changing (git calls such
 * entries "racily clean"), so it is read and hashed again. 2 s covers FAT's 2-second mtimes.
 */
export const RACY_WINDOW_MS = 2000;

/** What the CLI needs to know about one command for `--debug` and the "nothing was checked" notes. */
export interface CommandSummary {
  /** Primary name. */
  name: string;
  aliases: string[];
  /** Qualified names of its config classes. */
  configClasses: string[];
  /** See `CommandSpec.paramsKnown`. */
  paramsKnown: boolean;
  /** Number of parameters. */
  params: number;
  /** Number of reference sections documenting it (global sections excluded). */
  sections: number;
  /** Where its parameters came from (`pydantic class X (file:line)`, `CLI flags in file:line`); absent when unknown. */
  source?: string;
  /** Why its parameters are unknown and which config key fixes it; absent when known. */
  unknownReason?: string;
  /** Coverage of its parameters (see `coverageCounts`); absent when the parameters are unknown. */
  coverage?: CoverageCounts;
  /** The names counted in `coverage.parameters`, sorted (see `parameterNames`); absent when the parameters are unknown. */
  parameterNames?: string[];
}

/** How the cache served one run. */
export interface CacheInfo {
  /** `hit`: the result came from the cache; `miss`: computed (and stored when `written`); `off`: caching disabled. */
  status: 'hit' | 'miss' | 'off';
  /** Absolute path of the cache file; undefined when caching is off. */
  file?: string;
  /** True when this run stored its result. */
  written: boolean;
  /** Why the cache file was not used or not written (unreadable, corrupt, not writable), for `--debug`. */
  note?: string;
  /** Number of input files whose content was read and hashed (the others matched their cached stat). */
  hashed: number;
  /** Milliseconds spent hashing inputs and reading the cache file. */
  ms: number;
  /** How the per-file cache served a miss: pieces reused and computed, and why the stored ones were not used. */
  pieces?: { hits: number; misses: number; note?: string };
}

/**
 * The outcome of {@link lintWithCache}: a {@link LintResult} without the model (a cache hit has
 * none) plus a summary of the commands and how the cache served the run.
 */
export interface CachedLintResult extends Omit<LintResult, 'model'> {
  /** The model, only when the run computed it (a miss or caching off). */
  model?: Model;
  commands: CommandSummary[];
  cache: CacheInfo;
}

/** Options of {@link lintWithCache}. */
export interface CachedLintOptions {
  /** Absolute project root. */
  root: string;
  /** The loaded, normalised config: part of the key. */
  config: DocdriftConfig;
  /** Report only findings in these files (absolute or root-relative); applied after the cache. */
  files?: string[];
  /**
   * The config file `config` was loaded from (absolute). Findings may point into it (a declared
   * flag), so its path and content are part of the key, like a discovered file's.
   */
  configFile?: string;
  /** Rules to run (the CLI passes the built-in ones; see src/api.ts). */
  rules: LintOptions['rules'];
  /** Use and update the cache; false runs {@link lint} and leaves the cache alone. */
  cache: boolean;
  /**
   * The caller reads the result's `model` (`--summary`, `--changed-since`, code paths from
   * pre-commit), which a run-cache hit does not store: the stored run result is not reused, but
   * the per-file cache is (only changed files are parsed again), and both caches are updated.
   */
  needModel?: boolean;
  /** Told as the run moves through its stages and files (see `ProgressEvent` in lint.ts). */
  onProgress?: ProgressListener;
  /** Absolute cache directory; default {@link defaultCacheLocation}. */
  location?: string;
  /** docdrift's version: part of the key. */
  version: string;
  /**
   * A fingerprint of docdrift's own code: part of the key, so a rebuilt docdrift with an
   * unchanged version number never reuses results. Default {@link codeFingerprint}.
   */
  codeFingerprint?: string;
  /**
   * The file holding this machine's cache signing key; default {@link defaultCacheKeyFile}.
   * Must lie outside the project (tests point it into a temporary directory).
   */
  keyFile?: string;
  /**
   * Largest result file stored, in bytes; default and most {@link MAX_CACHE_BYTES}, the most a
   * run reads (tests lower it). A larger result is not stored, and the cache note says so.
   */
  resultLimitBytes?: number;
}

/** One input file as last hashed: its stat, and the content hash that is the truth. */
export interface FileEntry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** `Date.now()` when the file was stat'ed before hashing. */
  hashedAt: number;
  /** sha1 of the bytes, hex. */
  hash: string;
  /** For a `.py` file: what cheap scans of its text found, computed from the hashed bytes (so a later run need not read an unchanged file). */
  py?: PythonTextFacts;
}

/** A message as stored: the VFileMessage's own fields (minus stack, cause, ancestors) and docdrift's. */
type StoredMessage = Record<string, unknown> & { reason: string };

/** The cache file. */
interface CacheFile {
  format: number;
  /**
   * HMAC-SHA256, hex, over the rest of the file (the JSON of {@link CacheFile} without `mac`, as
   * written: `mac` is the file's first key, see {@link signedCacheText}), keyed by this machine's
   * cache key ({@link cacheKey}). A file without a valid `mac` was not
   * written by docdrift on this machine (committed, edited, copied) and is never used.
   */
  mac?: string;
  /** sha256 over everything the result depends on. */
  key: string;
  /** Input files by project-relative path. */
  files: Record<string, FileEntry>;
  /** What discovery matched from its git listing, for the next run's (see `DiscoveryMemo`). */
  discovery?: { key: string; found: MatchedLists };
}

/** A run's result as stored. */
interface StoredResult {
  messages: StoredMessage[];
  /** Findings that inline suppressions silenced (counted in the JSON summary). */
  suppressed: StoredMessage[];
  configProblems: string[];
  notes: string[];
  verdict: RunVerdict;
  commands: CommandSummary[];
  stats: LintStats;
}

/** A stored {@link RunVerdict} of this build's shape (a result stored without one is of another layout). */
function isVerdict(value: unknown): value is RunVerdict {
  const v = value as Partial<RunVerdict> | null;
  return typeof v === 'object' && v !== null && (v.status === 'checked' || v.status === 'unchecked') && typeof v.checkedCommands === 'number' && typeof v.uncheckedCommands === 'number';
}

/**
 * The result file, `result-<hash of root>.json` beside the cache file, signed the same way: read
 * only when the cache file's key matches the run's (a hit), so a run after an edit does not parse
 * the stored findings it cannot use (synthetic 10x: 3.5 of 6.5 MB). `key` must equal the cache
 * file's: a result written by another run is not used.
 */
interface ResultFile {
  format: number;
  mac?: string;
  key: string;
  result: StoredResult;
}

/**
 * The default cache directory of a project, after the find-cache-dir convention that Prettier,
 * Babel and AVA follow: `<root>/node_modules/.cache/docdrift` when the root has a
 * `node_modules` directory; otherwise `<root>/.docdrift-cache`, which {@link lintWithCache}
 * creates with a `.gitignore` of `*` and a `CACHEDIR.TAG` (as Ruff, mypy and pytest do), so it
 * never shows in `git status` nor in backups. docdrift never creates `node_modules` in a project
 * that has none (a Python repository).
 *
 * @param root absolute project root
 * @returns an absolute directory path (not created here)
 * @see https://github.com/sindresorhus/find-cache-dir
 * @see https://bford.info/cachedir/ (CACHEDIR.TAG)
 */
export function defaultCacheLocation(root: string): string {
  try {
    // lstat: a node_modules symlink is not followed (the cache would land outside the project).
    if (lstatSync(path.join(root, 'node_modules')).isDirectory()) return path.join(root, 'node_modules', '.cache', 'docdrift');
  } catch {
    // no node_modules: fall through
  }
  return path.join(root, '.docdrift-cache');
}

let ownCode: string | undefined;

/**
 * The folders of docdrift's own code that this process runs, relative to `dist`'s parent: the
 * bundled CLI (`dist/cli`, see rolldown.config.mjs) when this module was bundled into it, else
 * the compiled modules (`dist/src`, `dist/rules`), or under vitest the sources (`src`, `rules`).
 *
 * @param moduleDir the directory of this module (`dist/cli`, `dist/src/engine` or `src/engine`), absolute.
 * @returns absolute directories, in the order they are hashed.
 */
export function ownCodeDirs(moduleDir: string): string[] {
  if (path.basename(moduleDir) === 'cli' && path.basename(path.dirname(moduleDir)) === 'dist') return [moduleDir];
  // This module is dist/src/engine/cache.js (or src/engine/cache.ts); the compiled code is dist/{src,rules}.
  const dist = path.resolve(moduleDir, '..', '..');
  return [path.join(dist, 'src'), path.join(dist, 'rules')];
}

/**
 * sha256 over the contents of docdrift's own code that runs ({@link ownCodeDirs}: the bundle in
 * `dist/cli`, or `dist/src` and `dist/rules`), so a rebuilt docdrift never serves results
 * computed by another build, even with the same version number. Its dependencies are pinned
 * exactly, so the version stands for them. Computed once per process (~1.5–3 MB of JavaScript).
 */
export function codeFingerprint(): string {
  if (ownCode !== undefined) return ownCode;
  const hash = createHash('sha256');
  for (const dir of ownCodeDirs(path.dirname(fileURLToPath(import.meta.url)))) {
    let entries: string[];
    try {
      entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    const label = path.basename(dir);
    for (const rel of entries.filter((e) => /\.(js|ts|wasm|json)$/.test(e)).sort()) {
      hash.update(`${label}/${rel}\0`);
      try {
        hash.update(readFileSync(path.join(dir, rel)));
      } catch {
        hash.update('unreadable');
      }
    }
  }
  ownCode = hash.digest('hex');
  return ownCode;
}

export { stableStringify } from '../shared/json.js';

/**
 * Every discovered file once, sorted (a file may be both a source and a YAML file), the
 * JavaScript programs a package.json `bin` may run among them: their flags are read too.
 */
/** Every discovered input the run cache hashes (documents included), project-relative. */
export function inputFiles(files: DiscoveredFiles): string[] {
  return discoveredInputs(files, { documents: true });
}

/**
 * Reads one signed cache file (`what` names it in notes): the parsed data when it is this layout
 * (`format`, a string `key`, and what `valid` asks) and signed with `key`; otherwise undefined and
 * a note. A missing file gives neither when `missingOk`.
 */
function readSignedJson<T extends { format: number; key: string }>(file: string, key: Buffer, what: string, valid: (data: Partial<T>) => boolean, missingOk: boolean): { data?: T; note?: string } {
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: MAX_CACHE_BYTES });
  } catch (error) {
    if (missingOk && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { note: `cannot read ${what} (${readErrorText(error)}); it will be rewritten` };
  }
  // The signature is checked before the text is parsed: a committed 200 MB file was parsed whole
  // first (2.5 GB peak, s28 sweep2 D1); an HMAC over the text is linear and allocates nothing.
  if (!verifySignature(text, key)) {
    return { note: `${what} was not written by docdrift on this machine (no valid signature: committed, copied, edited or corrupt); not used, it will be rewritten` };
  }
  try {
    const data = JSON.parse(text) as Partial<T> | null;
    if (data === null || typeof data !== 'object' || data.format !== CACHE_FORMAT || typeof data.key !== 'string' || !valid(data)) {
      return { note: `${what} has another layout; it will be rewritten` };
    }
    return { data: data as T };
  } catch {
    return { note: `${what} is corrupt (not JSON); it will be rewritten` };
  }
}

/**
 * Reads and validates a cache file; any problem (missing, unreadable, not a regular file, too
 * large, corrupt, other layout, not signed with `key`) gives undefined and a note.
 */
function readCache(file: string, key: Buffer): { cache?: CacheFile; note?: string } {
  const read = readSignedJson<CacheFile>(file, key, 'the cache file', (d) => d.files !== null && typeof d.files === 'object', true);
  return read.data ? { cache: read.data } : read.note ? { note: read.note } : {};
}

/**
 * Reads the result file of a run whose cache file's key is `expectedKey`: its stored result, or
 * undefined and a note when it is missing, unreadable, of another layout, not signed with `key`,
 * or written for another key.
 */
function readResult(file: string, key: Buffer, expectedKey: string): { result?: StoredResult; note?: string } {
  const read = readSignedJson<ResultFile>(file, key, "the cache's result file", (d) => {
    const r = d.result;
    return r !== null && typeof r === 'object' && [r.messages, r.suppressed, r.configProblems, r.notes, r.commands].every(Array.isArray) && isVerdict(r.verdict);
  }, false);
  if (!read.data) return { note: read.note };
  if (read.data.key !== expectedKey) return { note: "the cache's result file belongs to another run; it will be rewritten" };
  return { result: read.data.result };
}

/** The result file beside a cache file `run-<hash>.json`: `result-<hash>.json`. */
function resultFileOf(file: string): string {
  return path.join(path.dirname(file), path.basename(file).replace(/^run-/, 'result-'));
}

/** Largest cache file read: 64 MiB (a 10,000-finding run stores a few MB; 256 MiB let a committed file cost 2.5 GB, s28 sweep2 D1). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The default file of this machine's cache signing key: `$XDG_CACHE_HOME/docdrift/cache-key`,
 * else `~/.cache/docdrift/cache-key`, i.e. in the user's cache directory, never in a project a
 * pull request controls.
 *
 * The base (`$XDG_CACHE_HOME`, else the home directory) must already be a directory: docdrift
 * makes only its own folders under it (`docdrift`, or `.cache/docdrift`), never the base. A
 * missing `HOME` was not made (#33 item 15), but an `XDG_CACHE_HOME` under it was, from the
 * file system's root down (`HOME=/nonexistent XDG_CACHE_HOME=$HOME/.cache`, a service user's
 * setting run as root: s31 sweep D3).
 *
 * @throws {Error} when the base is not set or not an existing directory (the caller then runs
 *   without the cache rather than create it).
 */
export function defaultCacheKeyFile(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) {
    if (!isDirectory(xdg)) throw new Error(`the cache directory ${xdg} (XDG_CACHE_HOME) does not exist; no cache key is made`);
    return path.join(xdg, 'docdrift', 'cache-key');
  }
  const home = homedir();
  if (!isDirectory(home)) throw new Error(home === '' ? 'the home directory is not set (HOME is empty); no cache key is made' : `the home directory ${home} does not exist; no cache key is made`);
  return path.join(home, '.cache', 'docdrift', 'cache-key');
}

/**
 * `p` with symbolic links resolved as far as it exists: the real path of its nearest existing
 * ancestor, joined with the part below it that does not exist yet (a key file not made yet).
 */
function realPathOfNearest(p: string): string {
  const below: string[] = [];
  // A link to a folder not made yet (dangling) is followed by its text; 40 links at most, as Linux's ELOOP.
  let links = 0;
  for (let at = path.resolve(p); ; ) {
    try {
      return path.join(realpathSync(at), ...[...below].reverse());
    } catch {
      let target: string | undefined;
      try {
        if (links < 40 && lstatSync(at).isSymbolicLink()) target = path.resolve(path.dirname(at), readlinkSync(at));
      } catch {
        // missing: its parent is tried
      }
      if (target !== undefined) {
        links++;
        at = target;
        continue;
      }
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      below.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * How many folders {@link cacheKey} makes at most above its key file: `.cache/docdrift` under a
 * home directory. A key file deeper under missing folders is refused, so whatever names it
 * (`keyFile`, or a base {@link defaultCacheKeyFile} did not check) never makes a tree from the root.
 */
const KEY_FOLDER_LEVELS = 2;

/**
 * This machine's cache key: 32 random bytes kept (hex) in `keyFile`, mode 0600, made on first
 * use. Cache files are signed with it ({@link signedCacheText}), so a cache entry committed to
 * the repository, restored from another machine or edited by hand is never trusted.
 *
 * The key is written whole or not at all: to a temporary file beside it (O_EXCL, mode 0600,
 * fsync), then hard-linked into place, which fails when another run made its key meanwhile (that
 * one is used), or renamed where the file system has no hard links. A zero-length key file can
 * only be what an older docdrift left when killed between creating and filling it (nothing was
 * ever signed with it), so it is replaced; a key file with other wrong text was put there by
 * someone and is refused (#33 item 14).
 *
 * A key is secret only if nobody else can read or replace it: one owned by another user, or
 * whose mode lets the group or others read or write it, is refused (on POSIX systems).
 *
 * @throws {Error} with a one-line message saying what to do, when the key file cannot be read or
 *   created, is malformed, is owned by another user or open to others, or lies inside `root` (a
 *   key the repository could commit is no key); the caller then runs without the cache.
 */
export function cacheKey(keyFile: string, root: string): Buffer {
  const rel = path.relative(root, keyFile);
  if (!escapesRoot(rel)) throw new Error(`the cache key file ${keyFile} is inside the project`);
  // The same with links followed: `$XDG_CACHE_HOME/docdrift` may link into the project (s40 sweep D5).
  const realRoot = realPathOfNearest(root);
  const real = path.relative(realRoot, realPathOfNearest(keyFile));
  if (!escapesRoot(real)) throw new Error(`the cache key file ${keyFile} is inside the project (through a symbolic link, at ${path.join(realRoot, real)})`);
  const found = readKeyFile(keyFile);
  if (found instanceof Buffer) return found;
  makeDirectories(path.dirname(keyFile), 0o700, KEY_FOLDER_LEVELS);
  keyDirectoryProblem(path.dirname(keyFile));
  const key = randomBytes(32);
  const temp = path.join(path.dirname(keyFile), `.${path.basename(keyFile)}.docdrift-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      const bytes = Buffer.from(`${key.toString('hex')}\n`);
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (found === 'empty') {
      renameSync(temp, keyFile);
      return key;
    }
    try {
      linkSync(temp, keyFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        // Another run made its key meanwhile: use theirs.
        const theirs = readKeyFile(keyFile);
        if (theirs instanceof Buffer) return theirs;
        throw new Error(`the cache key file ${keyFile} is being made by another run; this run goes without the cache`);
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
      renameSync(temp, keyFile); // no hard links here
    }
    return key;
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // renamed into place, or never made
    }
  }
}

/**
 * Refuses to make a key in a directory another user controls: one owned by another user (root
 * aside), or one every user may write unless its sticky bit keeps them from replacing files they
 * do not own (`/tmp`); a group-writable directory is allowed (user private groups). There another user could swap the key file between its checks
 * and its use (#33, s23 sweep O5); OpenSSH refuses such directories for its keys (`StrictModes`).
 * POSIX only.
 *
 * @throws {Error} naming the directory, its owner and mode
 */
function keyDirectoryProblem(dir: string): void {
  if (process.platform === 'win32') return;
  const uid = process.geteuid?.();
  if (uid === undefined) return;
  const st = statSync(dir);
  const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
  if (st.uid !== uid && st.uid !== 0) {
    throw new Error(`the cache key directory ${dir} is owned by another user (uid ${st.uid}, mode ${mode}), who could replace its key; set XDG_CACHE_HOME to a directory of your own`);
  }
  if ((st.mode & 0o002) !== 0 && (st.mode & 0o1000) === 0) {
    throw new Error(`the cache key directory ${dir} is writable by every user (mode ${mode}) and not sticky, so its key could be replaced; run chmod 700 ${dir}`);
  }
}

/**
 * The key in `keyFile`, `'missing'` when there is none, or `'empty'` for a zero-length file
 * (see {@link cacheKey}).
 *
 * @throws {Error} when the file cannot be read, is owned by another user, can be read or written
 *   by the group or others, or holds anything but 64 hex digits
 */
function readKeyFile(keyFile: string): Buffer | 'missing' | 'empty' {
  let bytes: Buffer;
  try {
    bytes = readRegularFileBytes(keyFile, { maxBytes: 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new Error(`the cache key file ${keyFile} cannot be read (${readErrorText(error)})`);
  }
  if (process.platform !== 'win32') {
    const st = statSync(keyFile);
    const uid = process.geteuid?.();
    if (uid !== undefined && st.uid !== uid) {
      throw new Error(`the cache key file ${keyFile} is owned by another user (uid ${st.uid}); docdrift signs its cache only with a key of its own user's. Delete it (a new one is made)`);
    }
    // A second name (a hard link) may be inside the project, where the key could be read or
    // committed: refused, as the config loader refuses a config file with two names (s41 sweep D6).
    if (bytes.length > 0 && st.nlink > 1 && hasSecondName(keyFile)) {
      throw new Error(`the cache key file ${keyFile} has ${st.nlink} names (hard links), so it may also be a file inside the project; delete it (a new one is made)`);
    }
    if (bytes.length > 0 && (st.mode & 0o066) !== 0) {
      throw new Error(`the cache key file ${keyFile} is readable or writable by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}), so anyone who reads it can forge cache entries; run chmod 600 ${keyFile}, or delete it (a new one is made)`);
    }
  }
  if (bytes.length === 0) return 'empty';
  const hex = bytes.toString('utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`the cache key file ${keyFile} is malformed; delete it (a new one is made)`);
  return Buffer.from(hex, 'hex');
}

/**
 * Whether the key file, seen with more than one name, still has them 50 ms later: a run making the
 * key links it from its temporary name and then removes that name (`cacheKey`).
 */
function hasSecondName(keyFile: string): boolean {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  try {
    return statSync(keyFile).nlink > 1;
  } catch {
    return false;
  }
}

/** Length of the text `{"mac":"<64 hex digits>",` that opens a signed cache file. */
const MAC_PREFIX_LENGTH = 8 + 64 + 2;

/**
 * The cache file's text: `data` as JSON with `mac` put first, the HMAC-SHA256 under `key` of the
 * JSON of `data` (the text after the prefix, with its `{` back). Signed as written, so reading
 * verifies the bytes without serialising the result again.
 */
function signedCacheText(data: Omit<CacheFile, 'mac'>, key: Buffer): string {
  const body = JSON.stringify(data);
  const mac = createHmac('sha256', key).update(body).digest('hex');
  return `{"mac":"${mac}",${body.slice(1)}`;
}

/** True when `text` opens with a `mac` that is the signature of the rest (see {@link signedCacheText}) under `key`. */
function verifySignature(text: string, key: Buffer): boolean {
  const mac = /^\{"mac":"([0-9a-f]{64})",/.exec(text.slice(0, MAC_PREFIX_LENGTH))?.[1];
  if (mac === undefined) return false;
  const expected = createHmac('sha256', key).update(`{${text.slice(MAC_PREFIX_LENGTH)}`).digest();
  return timingSafeEqual(expected, Buffer.from(mac, 'hex'));
}

/**
 * Hashes the inputs. A file whose size, mtime, ctime and inode equal its cached entry, and whose
 * ctime was at least {@link RACY_WINDOW_MS} older than the moment it was hashed, keeps its
 * cached hash; every other file is read and hashed. A file that cannot be stat'ed or read hashes
 * as the error code, so the run that follows reports it as the engine does. `known` holds stats
 * taken by discovery moments before (its `lstat` of a regular file): they are used instead of a
 * second `stat` (a file changed since is caught by the check after the run, `unchangedSince`).
 * The language server keeps `entries` from one lint to the next the same way (src/lsp/server.ts).
 *
 * @param files project-relative POSIX paths
 * @returns `entries` by path (`hash`: sha1 hex of the bytes, or `error:<code>`), and how many files were read and hashed
 */
export function hashFiles(root: string, files: string[], previous: Record<string, FileEntry> | undefined, known?: ReadonlyMap<string, Stats>, onProgress?: ProgressListener): { entries: Record<string, FileEntry>; hashed: number } {
  const entries: Record<string, FileEntry> = {};
  let hashed = 0;
  let done = 0;
  for (const file of files) {
    onProgress?.({ stage: 'hash', done: ++done, total: files.length });
    const abs = path.join(root, file);
    let stat: Stats;
    try {
      stat = known?.get(file) ?? statSync(abs);
    } catch (error) {
      entries[file] = { size: -1, mtimeMs: 0, ctimeMs: 0, ino: 0, hashedAt: 0, hash: `error:${(error as NodeJS.ErrnoException).code}` };
      continue;
    }
    const old = previous?.[file];
    if (
      old !== undefined &&
      old.size === stat.size &&
      old.mtimeMs === stat.mtimeMs &&
      old.ctimeMs === stat.ctimeMs &&
      old.ino === stat.ino &&
      old.ctimeMs < old.hashedAt - RACY_WINDOW_MS &&
      old.mtimeMs < old.hashedAt - RACY_WINDOW_MS
    ) {
      entries[file] = old;
      continue;
    }
    const hashedAt = Date.now();
    let hash: string;
    let py: PythonTextFacts | undefined;
    try {
      const bytes = readRegularFileBytes(abs);
      hash = createHash('sha1').update(bytes).digest('hex');
      try {
        if (file.endsWith('.py')) py = pythonTextFacts(decodeText(bytes, file));
      } catch (error) {
        // A source refused for its declared codec is read (and reported) by the run, as an
        // unreadable one is; its bytes stay in the hash, so that an edit (another codec, another
        // line) is a new run key and not the stored report of the old text.
        if (!(error instanceof SourceCodingError)) throw error;
        hash = `error:${error.code}:${hash}`;
      }
    } catch (error) {
      hash = `error:${(error as NodeJS.ErrnoException).code}`;
    }
    hashed++;
    entries[file] = { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, hashedAt, hash, ...(py ? { py } : {}) };
  }
  return { entries, hashed };
}

/**
 * The files of the stored run that `docs` (the config's document globs, negations aside) matches
 * whose stat changed since, that are gone or are no longer regular files (an `lstat`), in the
 * stored order: a hint, before discovery, that the run will parse a document, so its worker can
 * start early (and be sent the edited pages). `storedDocs`, the documents the stored run
 * discovered, replaces the matching when given (synthetic 10x: 10,500 stored files, ~100 ms of
 * matching). The stats are recorded in `lstats`, for discovery to use instead of a second call.
 * One `lstat` per stored document.
 */
export function changedStoredDocuments(root: string, files: Record<string, FileEntry>, docs: string[], storedDocs?: readonly string[], lstats?: Map<string, Stats>): string[] {
  const isDoc = storedDocs ? undefined : pathMatcher(docs.filter((g) => !g.startsWith('!')), { dot: true });
  const candidates = storedDocs ?? Object.keys(files).filter((file) => isDoc!(file));
  return candidates.filter((file) => {
    const e = files[file];
    if (e === undefined || e.size < 0) return false;
    let s: Stats;
    try {
      s = lstatSync(path.join(root, file));
    } catch {
      return true;
    }
    lstats?.set(file, s);
    return !s.isFile() || statDiffers(s, e);
  });
}

/** At most this many edited documents are sent to the parser before discovery (see {@link prefetchEditedDocuments}). */
export const EARLY_PREFETCH_LIMIT = 8;

/**
 * Sends the parser's worker, before discovery, the documents among `changed` (stored documents
 * whose stat changed) whose content changed too (sha1 of the bytes differs from the stored hash),
 * at most {@link EARLY_PREFETCH_LIMIT} of them (a checkout that touches many is left to the run's
 * own prefetch): the worker parses an edited page while discovery, hashing and the cached pieces
 * load, instead of after them (NeMo Gym's 200 KB README took ~400 ms of waiting at the docs
 * stage). The request is the usual one for a page that names a command (`doc`, and directives
 * when its text may hold some); the run asks again, and waits, only when it wants another.
 * Returns the files sent. Unreadable files are skipped: the run reports them.
 */
export function prefetchEditedDocuments(root: string, parser: DocParser, changed: readonly string[], files: Record<string, FileEntry>): string[] {
  if (!parser.prefetch) return [];
  const sent: string[] = [];
  for (const file of changed) {
    if (sent.length === EARLY_PREFETCH_LIMIT) break;
    let bytes: Buffer;
    try {
      bytes = readRegularFileBytes(path.join(root, file));
    } catch {
      continue;
    }
    if (createHash('sha1').update(bytes).digest('hex') === files[file]?.hash) continue;
    const text = decodeText(bytes);
    parser.prefetch(file, text, { doc: true, directives: mayHaveDirectives(text) });
    sent.push(file);
  }
  return sent;
}

/**
 * True when no input that could have shaped this run's result changed since it was hashed (so
 * the result, and the pieces computed meanwhile, belong to those hashes). Checked: the files
 * hashed by this run (their entry is not `previous`'s), the files the run read (`read.files`,
 * filled by lint's reader), and every input but the discovered documents and `.py`/`.pyi`
 * sources, which a run reads only through that reader (a page or module neither hashed nor read
 * was used through its stored pieces, which its hash keys: a change to it since is the next
 * run's, found by its stat). Packaging, YAML and TypeScript files (the TypeScript worker reads
 * on its own) are always checked. Without `read`, every input.
 * One `stat` per file checked (synthetic 10x: checking all 10,540 inputs took ~100 ms).
 */
function unchangedSince(root: string, entries: Record<string, FileEntry>, previous: Record<string, FileEntry> | undefined, read?: { files: ReadonlySet<string>; discovered: DiscoveredFiles }): boolean {
  const readOnlyThroughReader = read && new Set([...read.discovered.docs, ...read.discovered.sources.filter((f) => /\.pyi?$/.test(f))]);
  return !Object.entries(entries).some(
    ([file, e]) =>
      e.size >= 0 &&
      (!read || !readOnlyThroughReader!.has(file) || e !== previous?.[file] || read.files.has(file)) &&
      statChanged(root, file, e),
  );
}

/** The stored discovery memo when it has its shape (a key and the lists of paths), else undefined. */
function storedDiscovery(stored: unknown): { key: string; found: MatchedLists } | undefined {
  if (stored === null || typeof stored !== 'object') return undefined;
  const { key, found } = stored as { key?: unknown; found?: Record<string, unknown> };
  if (typeof key !== 'string' || found === null || typeof found !== 'object') return undefined;
  if (!MATCHED_LIST_NAMES.every((k) => Array.isArray(found[k]) && (found[k] as unknown[]).every((f) => typeof f === 'string'))) return undefined;
  return { key, found: Object.fromEntries(MATCHED_LIST_NAMES.map((k) => [k, found[k]])) as MatchedLists };
}

/** True when the file's size, mtime, ctime or inode differs from its entry's, or it cannot be stat'ed. */
function statChanged(root: string, file: string, e: FileEntry): boolean {
  try {
    return statDiffers(statSync(path.join(root, file)), e);
  } catch {
    return true;
  }
}

/** True when `s` has another size, mtime, ctime or inode than the entry recorded. */
function statDiffers(s: Stats, e: FileEntry): boolean {
  return s.size !== e.size || s.mtimeMs !== e.mtimeMs || s.ctimeMs !== e.ctimeMs || s.ino !== e.ino;
}

/**
 * The run's key: sha256 over the layout, version, code, root, config, the config file's path and
 * content hash, the four discovered lists and each file's hash.
 */
function runKey(options: CachedLintOptions, files: DiscoveredFiles, entries: Record<string, FileEntry>): string {
  const hash = createHash('sha256');
  let configText = '';
  if (options.configFile !== undefined) {
    try {
      configText = createHash('sha1').update(readRegularFileBytes(options.configFile)).digest('hex');
    } catch (error) {
      configText = `error:${(error as NodeJS.ErrnoException).code}`;
    }
  }
  hash.update(stableStringify({
    format: CACHE_FORMAT,
    version: options.version,
    code: options.codeFingerprint ?? codeFingerprint(),
    root: options.root,
    config: options.config,
    configFile: options.configFile ?? null,
    configText,
    files,
  }));
  for (const file of Object.keys(entries).sort()) hash.update(`\0${file}\0${entries[file]!.hash}`);
  return hash.digest('hex');
}

/** A message as plain JSON: every own field but the stack, cause and ancestors. */
export function serialiseMessage(message: DriftMessage): StoredMessage {
  return JSON.parse(storedMessageText(message)) as StoredMessage;
}

/** The JSON text of {@link serialiseMessage}'s value (as the result file holds it). */
function storedMessageText(message: DriftMessage): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === 'stack' || key === 'cause' || key === 'ancestors' || value === undefined) continue;
    out[key] = value;
  }
  return JSON.stringify(out);
}

/** Thrown by {@link writeResultFile} when the result would be larger than a run reads. */
class ResultTooLargeError extends Error {}

/** Text pieces below this many UTF-16 code units are gathered before they are encoded and written. */
const RESULT_CHUNK = 1 << 20;

/**
 * Writes a run's result file (see {@link ResultFile}), signed as {@link signedCacheText} signs,
 * without ever holding it whole: each finding is serialised on its own, the text goes to the
 * file in chunks of about 1 MiB as the signature is computed over them, and the signature is
 * written over a placeholder at the start once the end is reached. The result used to be copied
 * into a second object tree and one string (twice, with the signature), and 72,000 findings (a
 * 56 MB file) took a run with the cache on to 628 MB (#33 s31 D6; 350 MB with `--no-cache`).
 * Reading is unchanged: the file is the JSON of {@link ResultFile} with `mac` first.
 *
 * @param limit the most bytes written, at most {@link MAX_CACHE_BYTES} (the most a run reads)
 * @throws {ResultTooLargeError} when the text would pass `limit`: nothing is written (the
 *   temporary file is removed; the caller removes an older result file).
 * @throws {WriteError} or an errno exception as {@link writeFileAtomic} does.
 */
function writeResultFile(root: string, file: string, runKeyHex: string, result: Omit<StoredResult, 'messages' | 'suppressed'> & { messages: readonly DriftMessage[]; suppressed: readonly DriftMessage[] }, key: Buffer, limit = MAX_CACHE_BYTES): void {
  const { messages, suppressed, ...rest } = result;
  // The JSON of ResultFile without `mac` and without its opening brace (signed as `{` + this).
  function* body(): Generator<string> {
    yield `"format":${CACHE_FORMAT},"key":${JSON.stringify(runKeyHex)},"result":{"messages":[`;
    for (let i = 0; i < messages.length; i++) yield `${i > 0 ? ',' : ''}${storedMessageText(messages[i]!)}`;
    yield '],"suppressed":[';
    for (let i = 0; i < suppressed.length; i++) yield `${i > 0 ? ',' : ''}${storedMessageText(suppressed[i]!)}`;
    yield `],${JSON.stringify(rest).slice(1)}}`;
  }
  const hmac = createHmac('sha256', key).update('{');
  function* chunks(): Generator<Uint8Array> {
    let total = MAC_PREFIX_LENGTH;
    yield Buffer.from(`{"mac":"${'0'.repeat(64)}",`);
    let parts: string[] = [];
    let size = 0;
    const encode = (): Buffer => {
      const bytes = Buffer.from(parts.join(''), 'utf8');
      parts = [];
      size = 0;
      total += bytes.length;
      if (total > limit) throw new ResultTooLargeError(`the result is over ${Number((limit / 1024 / 1024).toPrecision(3))} MiB`);
      hmac.update(bytes);
      return bytes;
    };
    for (const piece of body()) {
      parts.push(piece);
      size += piece.length;
      if (size >= RESULT_CHUNK) yield encode();
    }
    yield encode();
  }
  writeFileAtomic(file, chunks(), { durable: false, root, header: () => Buffer.from(`{"mac":"${hmac.digest('hex')}",`) });
}

/** The inverse of {@link serialiseMessage}: a VFileMessage with the stored fields. */
export function deserialiseMessage(stored: StoredMessage): DriftMessage {
  const place = stored.place as VFileMessageOptions['place'];
  const message = new VFileMessage(stored.reason, {
    place,
    ruleId: stored.ruleId as string | undefined,
    source: stored.source as string | undefined,
  });
  return Object.assign(message, stored) as unknown as DriftMessage;
}

/** Summaries of a model's commands (what the CLI prints under `--debug`). */
export function summariseCommands(model: Model): CommandSummary[] {
  return model.commands.map((cmd) => ({
    name: cmd.name,
    aliases: [...cmd.aliases],
    configClasses: [...cmd.configClasses],
    paramsKnown: cmd.paramsKnown,
    params: cmd.params.length,
    sections: model.sectionsFor(cmd).length,
    ...(cmd.paramsKnown
      ? { source: paramSource(model, cmd)!, coverage: coverageCounts(model, cmd), parameterNames: parameterNames(model, cmd) }
      : { unknownReason: unknownReason(cmd)! }),
  }));
}

/**
 * `mkdir -p`: creates `dir` and the missing folders above it, one `mkdir` each, from the deepest
 * existing one down. Node 20's `mkdirSync(dir, { recursive: true })` never returns for a folder
 * under `/proc` (it retries ENOENT forever: `HOME=/proc` hung every run, s25 sweep D8); here each
 * level is tried once and any error is thrown, so the caller runs without the cache.
 *
 * @param mode the mode of each folder created (before the umask)
 * @param maxLevels the most folders it may create (the last levels of `dir`); when more are
 *   missing it creates none and throws (code `ENOENT`) naming the first missing one
 * @param root the project root: each folder made inside it is checked once made
 *   ({@link checkWriteTarget}): when a folder on the way became a symbolic link meanwhile, the
 *   folder just made (through it) is removed again and the {@link WriteError} thrown (s32 sweep D1)
 * @throws the `mkdir` error of the first level that could not be made (EACCES, ENOENT, ENOTDIR, …)
 */
export function makeDirectories(dir: string, mode = 0o777, maxLevels = Infinity, root?: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(at);
      missing.push(at);
      if (missing.length > maxLevels) {
        throw Object.assign(new Error(`${at} does not exist; docdrift makes only its own folder${maxLevels === 1 ? '' : 's'} (${path.relative(at, path.resolve(dir))}) under an existing one`), { code: 'ENOENT' });
      }
      if (parent === at) break;
      at = parent;
    }
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by another run: fine.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
      continue;
    }
    if (root === undefined) continue;
    try {
      checkWriteTarget(root, folder);
    } catch (error) {
      try {
        rmdirSync(folder);
      } catch {
        // not empty (not only ours) or gone: left
      }
      throw error;
    }
  }
}

/**
 * Creates the cache directory; a `.docdrift-cache` directory also gets its `.gitignore` and
 * `CACHEDIR.TAG`. Inside the project its missing parents are made too (`--cache-location
 * .cache/a/b`, as ESLint makes its cache file's folder; {@link checkWriteTarget} has refused a
 * path through a link). Outside, only the cache folder itself, under an existing directory: a
 * mistyped `--cache-location /tmp/a/b/c` makes no tree of folders outside the project, as
 * `--output-file` makes none (the CLI refuses it first; `ENOENT` here).
 */
function prepareDirectory(root: string, dir: string): void {
  makeDirectories(dir, 0o777, leavesBase(path.relative(root, dir)) ? 1 : Infinity, root);
  cleanStaleTemps(dir);
  if (path.basename(dir) !== '.docdrift-cache') return;
  const gitignore = path.join(dir, '.gitignore');
  try {
    lstatSync(gitignore);
  } catch {
    checkWriteTarget(root, gitignore);
    writeFileAtomic(gitignore, '# Created by docdrift: its run cache, safe to delete.\n*\n', { root });
    checkWriteTarget(root, path.join(dir, 'CACHEDIR.TAG'));
    writeFileAtomic(
      path.join(dir, 'CACHEDIR.TAG'),
      'Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by docdrift.\n# For information about cache directory tags see https://bford.info/cachedir/\n',
      { root },
    );
  }
}

/** The per-file cache of `root` in cache directory `dir`, holding only pieces of this build (cache format, version, code). */
function projectPieceStore(root: string, dir: string, signingKey: Buffer, build: { version: string; codeFingerprint?: string }): FilePieceStore {
  return new FilePieceStore(piecesFile(dir, root), signingKey, `${CACHE_FORMAT}:${build.version}:${build.codeFingerprint ?? codeFingerprint()}`, root);
}

/**
 * The project's per-file cache (the store {@link lintWithCache} keeps beside the run cache),
 * for runs that lint through another path: `--fix` lints every pass with it, so a fix after a
 * plain run parses only what changed. `save` writes the pieces the run used and keeps every
 * piece stored before (the passes key what they parse by text, a plain run by content hash: the
 * plain run after a fix then reuses the pieces of the files the fix did not touch). It never
 * throws: a store that cannot be written is only not written. Undefined when the store cannot be trusted
 * or placed: no signing key, or a symlink or other non-regular file on the way to it.
 *
 * @param options `location` and `keyFile` as for {@link lintWithCache}; `version` and
 *   `codeFingerprint` name the build whose pieces are used
 */
export function openPieceStore(options: { root: string; location?: string; keyFile?: string; version: string; codeFingerprint?: string }): { store: FilePieceStore; save(): void } | undefined {
  const { root } = options;
  const dir = options.location ?? defaultCacheLocation(root);
  try {
    const signingKey = cacheKey(options.keyFile ?? defaultCacheKeyFile(), root);
    const store = projectPieceStore(root, dir, signingKey, options);
    for (const file of store.files) checkWriteTarget(root, file);
    return {
      store,
      save: () => {
        try {
          prepareDirectory(root, dir);
          for (const file of store.files) checkWriteTarget(root, file);
          // The pieces of the plain run before stay: this run keyed what it parsed by text.
          store.keepAll();
          store.save();
        } catch {
          // not written: the next run computes these pieces again
        }
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * Lints a project through the run cache. The discovered files (after `.gitignore`, the config's
 * globs and ignores) are the inputs: each is hashed, and the result is reused only when the
 * version, docdrift's code, the root, the normalised config, the discovered file lists and every
 * file's content hash are all equal to those of the cached run, so a hit is always identical
 * to a cold run. Nothing else on disk is read by a run (links resolve against the discovered
 * documents only), so nothing else needs to be keyed.
 *
 * A missing, unreadable, corrupt or foreign cache file is a miss (`cache.note` says why) and
 * is rewritten. The write is atomic (temporary file + rename), so a concurrent or interrupted
 * run never leaves a half-written file. A cache that cannot be written is not an error. A run
 * whose rules threw is not stored. `files` scoping is applied after the cache, so runs on
 * different paths share one entry.
 *
 * The cache directory and file are written only as regular files inside the root: with a symlink
 * on the way (a committed `.docdrift-cache` link) nothing is read or written there, and the run
 * goes on without the cache (`cache.status` `off`, with a note). Temporary files a killed run
 * left in the directory are removed.
 *
 * @throws {WriteError} when a cache file turns into a link or non-regular file while the run
 *   writes it; otherwise only what {@link lint} throws (programming errors)
 */
export async function lintWithCache(options: CachedLintOptions): Promise<CachedLintResult> {
  const { root, config } = options;
  const t0 = performance.now();
  // lint.js loads the parsers and extractors (most of start-up): a cache hit never imports it.
  const load = async () => (await import('./lint.js')).lint;

  options.onProgress?.({ stage: 'discover' });
  if (!options.cache) {
    const discovered = await discoverFiles(root, config.sources, config.docs, config.ignore);
    const tDiscovered = performance.now();
    const lint = await load();
    const result = await lint({ root, config, files: options.files, configFile: options.configFile, discovered, rules: options.rules, onProgress: options.onProgress });
    // lint() timed only the version selection as its discover phase (it was given the files):
    // added, not replaced, so `--debug` shows it (s27 sweep2 O2: an 18 s selection showed as 0.3 s).
    result.stats.timings.discover += tDiscovered - t0;
    return { ...result, commands: summariseCommands(result.model), cache: { status: 'off', written: false, hashed: 0, ms: 0 } };
  }

  // git lists the files while the cache is read and the document worker starts.
  const listing = startGitListing(root);
  const dir = options.location ?? defaultCacheLocation(root);
  const file = path.join(dir, `run-${createHash('sha1').update(root).digest('hex').slice(0, 16)}.json`);
  // A committed `.docdrift-cache` symlink (or one on the way to it, or a cache file that is one)
  // is never followed, and a cache path that cannot even be checked (a directory the user may not
  // read: EACCES) is not used: the run goes on without the cache, as without a key, and says so.
  // A link used to be exit 2, so one committed link failed every run of everyone (s25 sweep O1).
  let unusable: string | undefined;
  try {
    checkWriteTarget(root, file);
  } catch (error) {
    if (error instanceof UncheckablePathError) unusable = `the cache directory ${dir} cannot be read (${error.code})`;
    else if (error instanceof WriteError) unusable = error.message.replace(/; nothing was written\.$/, ' (nothing is read from it or written to it)');
    else throw error;
  }
  const tRead = performance.now();
  let signingKey: Buffer | undefined;
  let keyError: unknown;
  if (unusable === undefined) {
    try {
      signingKey = cacheKey(options.keyFile ?? defaultCacheKeyFile(), root);
    } catch (error) {
      keyError = error;
    }
  }
  const previous = signingKey ? readCache(file, signingKey) : {};
  // A document the last run read was edited since (its stat changed), so it will be parsed again:
  // the parser's worker starts loading now, while discovery and hashing run, instead of after them
  // (synthetic 1x, README edited: 0.42-0.44 -> 0.38-0.40 s). Only stats are compared; a new
  // document is found by hashing, after which the worker starts as before. A run whose documents
  // are unchanged (a cache hit) starts no worker.
  const lstats = new Map<string, Stats>();
  const storedMemo = storedDiscovery(previous.cache?.discovery);
  const changedDocs = previous.cache ? changedStoredDocuments(root, previous.cache.files, config.docs, storedMemo?.found.docs, lstats) : [];
  let docParser = previous.cache && changedDocs.length > 0 ? await createDocParser({ eager: true, files: Object.keys(previous.cache.files).length }) : undefined;
  // The per-file cache is opened now when a page is sent early: a large page is parsed in
  // segments, reusing those of its last parse that it still has (src/docs/segments.ts).
  let pieces = docParser && signingKey ? projectPieceStore(root, dir, signingKey, options) : undefined;
  if (docParser && previous.cache) prefetchEditedDocuments(root, new FactCache({ store: pieces }).docParser(docParser), changedDocs, previous.cache.files);
  const readMs = performance.now() - tRead;
  const memo: DiscoveryMemo = { salt: `${CACHE_FORMAT}:${options.version}:${options.codeFingerprint ?? codeFingerprint()}`, previous: storedMemo };
  const discovered = await discoverFiles(root, config.sources, config.docs, config.ignore, 'auto', { lstats, listing, memo });
  const tDiscovered = performance.now();
  if (!signingKey) {
    docParser?.close();
    // No key, no trust: run without the cache rather than read entries nobody can vouch for.
    const lint = await load();
    const result = await lint({ root, config, files: options.files, configFile: options.configFile, discovered, rules: options.rules, onProgress: options.onProgress });
    result.stats.timings.discover += tDiscovered - t0; // plus the version selection, as above
    const note = `not used: ${unusable ?? `no cache key (${(keyError as Error).message})`}`;
    return { ...result, commands: summariseCommands(result.model), cache: { status: 'off', file, written: false, hashed: 0, ms: 0, note } };
  }
  const tHash = performance.now();
  const { entries, hashed } = hashFiles(root, inputFiles(discovered), previous.cache?.files, lstats, options.onProgress);
  const key = runKey(options, discovered, entries);
  const hashMs = readMs + performance.now() - tHash;

  const resultFile = resultFileOf(file);
  const storedResult = previous.cache?.key === key && !options.needModel ? readResult(resultFile, signingKey, key) : undefined;
  if (previous.cache && storedResult?.result) {
    docParser?.close();
    const stored = storedResult.result;
    // Files whose stat changed but not their content (a touch, a checkout, chmod -R) were hashed
    // again: their new stats are stored, else every later run hashes them again (and, for a
    // document, starts the parser early for nothing). Same key and result; not when a file
    // changes meanwhile; a file that cannot be written is no error.
    let written = false;
    if (hashed > 0 && unchangedSince(root, entries, previous.cache?.files, { files: new Set(), discovered })) {
      const { mac: _mac, ...unsigned } = previous.cache;
      try {
        prepareDirectory(root, dir);
        writeFileAtomic(file, signedCacheText({ ...unsigned, files: entries, ...(memo.next ? { discovery: memo.next } : {}) }, signingKey), { durable: false, root });
        written = true;
      } catch {
        // the stored entry stays valid; the next run hashes those files again
      }
    }
    const messages = stored.messages.map(deserialiseMessage);
    return {
      messages: scopeMessages(root, messages, options.files),
      suppressed: scopeMessages(root, stored.suppressed.map(deserialiseMessage), options.files),
      failures: [],
      configProblems: stored.configProblems,
      // Discovery's notes are this run's (git's listing may have timed out now and not then): stored without them.
      notes: [...(discovered.notes ?? []), ...stored.notes],
      verdict: stored.verdict,
      commands: stored.commands,
      inputs: inputFiles(discovered),
      stats: { ...stored.stats, timings: { discover: tDiscovered - t0, extract: 0, docs: 0, model: 0, rules: 0 }, typeScriptWorker: false, pythonWorker: false },
      cache: { status: 'hit', file, written, hashed, ms: hashMs },
    };
  }

  // A document changed since the last run: its parser's worker starts loading now (if the stats
  // did not tell before discovery), while the engine's modules and the stored pieces load,
  // instead of when the first document is asked for. (Starting it before discovery on every run
  // was measured: warm runs +30 ms.)
  const docsChanged = discovered.docs.some((doc) => previous.cache?.files[doc]?.hash !== entries[doc]?.hash);
  if (!docsChanged) {
    docParser?.close();
    docParser = undefined;
  } else docParser ??= await createDocParser({ eager: true, files: discovered.docs.length + discovered.sources.length });
  const lint = await load();
  // The per-file cache: files whose text is unchanged are not parsed again (src/engine/pieces.ts).
  pieces ??= projectPieceStore(root, dir, signingKey, options);
  const hashes = new Map(Object.entries(entries).map(([f, e]) => [f, e.hash]));
  const pythonFacts = new Map(Object.entries(entries).flatMap(([f, e]) => (e.py ? [[f, e.py] as const] : [])));
  const readFiles = new Set<string>();
  const result = await lint({ root, config, configFile: options.configFile, discovered, rules: options.rules, pieces, hashes, pythonFacts, docParser, readFiles, onProgress: options.onProgress });
  result.stats.timings.discover += tDiscovered - t0; // plus the version selection, as above
  const commands = summariseCommands(result.model);
  const info: CacheInfo = {
    status: 'miss', file, written: false, hashed, ms: hashMs,
    note: storedResult?.note ?? (previous.cache?.key === key ? 'the stored result was not used: this run reads the model (--summary, --changed-since or code paths); the per-file cache was' : previous.note),
    pieces: { hits: pieces.hits, misses: pieces.misses, ...(pieces.note ? { note: pieces.note } : {}) },
  };
  if (result.failures.length > 0) {
    info.note = 'not stored: a rule threw';
  } else if (!unchangedSince(root, entries, previous.cache?.files, { files: readFiles, discovered })) {
    info.note = 'not stored: an input file changed during the run';
  } else {
    const data: Omit<CacheFile, 'mac'> = {
      format: CACHE_FORMAT,
      key,
      files: entries,
      ...(memo.next ? { discovery: memo.next } : {}),
    };
    const stored = {
      messages: result.messages,
      suppressed: result.suppressed,
      configProblems: result.configProblems, notes: result.notes.filter((n) => !discovered.notes?.includes(n)), verdict: result.verdict, commands, stats: result.stats,
    };
    try {
      prepareDirectory(root, dir);
      // The result first: a cache file is never newer than the result its key names. A result
      // that cannot be written (a directory or a link in its place) costs the next run its hit,
      // not its per-file cache: the cache file and the pieces are still written.
      try {
        checkWriteTarget(root, resultFile);
        writeResultFile(root, resultFile, key, stored, signingKey, Math.min(options.resultLimitBytes ?? MAX_CACHE_BYTES, MAX_CACHE_BYTES));
      } catch (error) {
        if (error instanceof ResultTooLargeError) {
          // An older result names another key: the next run would read it only to learn that.
          try {
            unlinkSync(resultFile);
          } catch {
            // none
          }
          info.note = [info.note, `the cache's result file was not written: ${error.message} (${result.messages.length + result.suppressed.length} findings), more than a run reads; the next run computes the findings again, from the per-file cache`].filter(Boolean).join('; ');
        } else info.note = [info.note, `cannot write the cache's result file (${(error as NodeJS.ErrnoException).code ?? String(error)})`].filter(Boolean).join('; ');
      }
      writeFileAtomic(file, signedCacheText(data, signingKey), { durable: false, root });
      info.written = true;
    } catch (error) {
      // Keep why the old file was not read (a symlink to /dev/zero, a FIFO): both matter.
      info.note = [info.note, `cannot write the cache file (${(error as NodeJS.ErrnoException).code ?? String(error)})`].filter(Boolean).join('; ');
    }
    if (info.written) {
      try {
        for (const piecesPath of pieces.files) checkWriteTarget(root, piecesPath);
        pieces.save();
      } catch (error) {
        info.note = [info.note, `cannot write the per-file cache (${(error as NodeJS.ErrnoException).code ?? String(error)})`].filter(Boolean).join('; ');
      }
    }
  }
  return {
    ...result,
    messages: scopeMessages(root, result.messages, options.files),
    suppressed: scopeMessages(root, result.suppressed, options.files),
    commands,
    cache: info,
  };
}
