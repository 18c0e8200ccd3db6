/**
 * `--changed-since REF`: the files changed since a git ref, and the findings those changes
 * concern, either located in a changed file or made stale by a change to the code they rest on.
 */
import { lstat, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { CommandSpec, Model } from '../model/types.js';
import type { DriftMessage } from '../model/rule.js';
import { dubiousOwnershipText, GitError, runGit } from './git.js';

/**
 * `--changed-since` cannot be honoured: the root is not inside a git work tree, git is missing,
 * git refuses the repository (another user owns it), or the ref names no commit. The CLI prints
 * `message` and exits 2.
 */
export class ChangedSinceError extends Error {
  override name = 'ChangedSinceError';
  /** @param final the message stands as it is (a git call timed out): callers that reword a failure keep it */
  constructor(message: string, readonly final = false) {
    super(message);
  }
}

/** The one-line error of a git call of `--changed-since` stopped at its time limit (s29 sweep D2). */
function timedOut(error: GitError): ChangedSinceError {
  return new ChangedSinceError(`--changed-since: ${error.message}; no files were compared.`, true);
}

/** Runs git in `cwd` (src/engine/git.ts: no shell, no repository hooks); resolves to stdout, rejects with git's stderr as message. */
async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return await runGit(cwd, args, 256 * 1024 * 1024);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (error.timedOut) throw timedOut(error);
    if (error.code === 'ENOENT') throw new ChangedSinceError('--changed-since needs git, and no `git` program was found on PATH.');
    if (error.dubiousOwnership) throw new ChangedSinceError(`--changed-since: ${dubiousOwnershipText(error, cwd)}`);
    if (/promisor remote|lazy fetching disabled/i.test(error.stderr)) {
      // A partial clone lacks objects the diff needs; git would fetch them, running transport
      // commands from the repository's configuration, which docdrift never does (s26 sweep D1).
      throw new ChangedSinceError(
        '--changed-since needs git objects this partial clone has not fetched, and docdrift never fetches (a fetch can run commands from the repository\'s git configuration). Fetch the history first (`git fetch --unshallow --refetch`), or check out without a filter (actions/checkout: `fetch-depth: 0` and no `filter`).',
      );
    }
    throw new ChangedSinceError(error.message);
  }
}

/** NUL-separated git output (`-z`) as a list, the empty trailing entry dropped. */
function splitZ(text: string): string[] {
  return text.split('\0').filter((s) => s.length > 0);
}

/** Submodules nested deeper than this are not looked into (a guard against a cycle of links). */
const MAX_SUBMODULE_DEPTH = 16;

/** The gitlinks (submodules, mode 160000) in `git ls-files --stage -z` output, as listed. */
function gitlinks(staged: string): string[] {
  return splitZ(staged).flatMap((entry) => (entry.startsWith('160000 ') ? [entry.slice(entry.indexOf('\t') + 1)] : []));
}

/** `fn` over `items`, at most four at a time (each is a git process or two), results in input order. */
async function mapFew<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, items.length) }, worker));
  return results;
}

/** Whether `dir` is a checked-out work tree of its own (a submodule that was initialised has a `.git` file or folder). */
async function checkedOut(dir: string): Promise<boolean> {
  return lstat(path.join(dir, '.git')).then(() => true, () => false);
}

/**
 * Whether the work tree of the submodule at `dir` has edits: modified or untracked (not ignored)
 * files, or a nested submodule whose commit moved or whose own work tree has edits — what
 * `git diff --ignore-submodules=none` calls a modified submodule. Asked with {@link runGit} in
 * the submodule itself, so the filter drivers and fsmonitor of the submodule's own config are
 * disabled, rather than by a git that recurses and runs them. A submodule git cannot read counts
 * as edited (a finding too many rather than one hidden); one not checked out as not.
 */
async function submoduleEdited(dir: string, depth: number): Promise<boolean> {
  if (depth > MAX_SUBMODULE_DEPTH || !(await checkedOut(dir))) return false;
  try {
    const status = await runGit(dir, ['status', '--porcelain', '-z', '--untracked-files=normal', '--ignore-submodules=dirty'], 256 * 1024 * 1024);
    if (splitZ(status).length > 0) return true;
    const nested = gitlinks(await runGit(dir, ['ls-files', '--stage', '-z'], 256 * 1024 * 1024));
    return (await mapFew(nested, (m) => submoduleEdited(path.join(dir, m), depth + 1))).some(Boolean);
  } catch (error) {
    // A time-out is the run's error, not "edited": each submodule would wait its own limit.
    if (error instanceof GitError && error.timedOut) throw timedOut(error);
    if (error instanceof ChangedSinceError) throw error;
    return true;
  }
}

/**
 * Every file of the submodule at `dir` (tracked, and untracked ones its `.gitignore` files do not
 * exclude), and of the submodules nested in it, as paths under `prefix` (its path in the
 * project). Listed with {@link runGit} in each submodule rather than `ls-files
 * --recurse-submodules` (see {@link submoduleEdited}). A submodule git cannot read gives nothing.
 */
async function submoduleFiles(dir: string, prefix: string, depth: number): Promise<string[]> {
  if (depth > MAX_SUBMODULE_DEPTH || !(await checkedOut(dir))) return [];
  try {
    const [listed, staged] = await Promise.all([
      runGit(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], 256 * 1024 * 1024),
      runGit(dir, ['ls-files', '--stage', '-z'], 256 * 1024 * 1024),
    ]);
    const nested = gitlinks(staged);
    const inner = await mapFew(nested, (m) => submoduleFiles(path.join(dir, m), `${prefix}/${m}`, depth + 1));
    return [...splitZ(listed).map((f) => `${prefix}/${f}`), ...inner.flat()];
  } catch (error) {
    if (error instanceof GitError && error.timedOut) throw timedOut(error);
    if (error instanceof ChangedSinceError) throw error;
    return [];
  }
}

/**
 * Throws when an excludes file `git status` and `ls-files --exclude-standard` open is there but
 * no regular file: `$GIT_DIR/info/exclude` and `core.excludesFile` (by default
 * `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`). git blocks for ever opening a FIFO
 * there (s29 sweep D2: a hang, killed by `timeout 60`); named at once, instead of after git's
 * time limit (src/engine/git.ts), which still bounds what this cannot see (a FIFO `.gitignore` in
 * an untracked folder). Links are followed, as git does; a missing file is fine.
 *
 * @throws {ChangedSinceError} naming the file and what it is
 */
async function refuseIrregularExcludes(root: string): Promise<void> {
  const files = [path.resolve(root, (await git(root, ['rev-parse', '--git-path', 'info/exclude'])).trim())];
  let configured = '';
  try {
    configured = (await git(root, ['config', '--path', '--get', 'core.excludesFile'])).trim();
  } catch (error) {
    if (error instanceof ChangedSinceError && error.final) throw error;
    // exit 1: not set; git then reads the default below
  }
  const xdg = process.env['XDG_CONFIG_HOME'];
  files.push(configured !== '' ? path.resolve(root, configured) : path.join(xdg ? xdg : path.join(homedir(), '.config'), 'git', 'ignore'));
  for (const file of files) {
    const found = await stat(file).catch(() => undefined);
    if (found && !found.isFile()) {
      const what = found.isFIFO() ? 'a FIFO' : found.isDirectory() ? 'a directory' : found.isSocket() ? 'a socket' : 'a device';
      throw new ChangedSinceError(`--changed-since: git would read the excludes file ${file}, which is ${what}, not a regular file (git can wait for ever on it); docdrift does not run git on it. Remove it or replace it with a file.`, true);
    }
  }
}

/**
 * The project files changed since `ref`, as root-relative POSIX paths:
 * - every path that differs between the working tree and the merge base of `ref` and `HEAD`
 *   (`git diff --name-only --no-renames $(git merge-base REF HEAD)`), i.e. the commits of
 *   `REF...HEAD` plus staged and unstaged edits, deleted files included; a rename counts as its
 *   old and its new path. Merge-base semantics mean commits that landed on `REF` after the branch
 *   forked are not "changes" of the branch (https://git-scm.com/docs/git-diff, `A...B`);
 * - plus untracked files that `.gitignore` does not exclude (`git ls-files --others --exclude-standard`);
 * - plus every file of a submodule whose commit moved or whose work tree has edits (nested
 *   submodules too), each submodule asked by its own {@link runGit}, never by a git that
 *   recurses into it with the submodule's own filters and fsmonitor enabled.
 *
 * Only paths under `root` are returned (git's `--relative`), relative to it. git runs with
 * `execFile` in `root`, never through a shell.
 *
 * @param root absolute project root, inside a git work tree
 * @param ref any commit-ish git understands (`main`, `origin/main`, `HEAD~3`, a SHA)
 * @throws {ChangedSinceError} when `root` is not in a git work tree, `ref` is not a commit, or
 *   `ref` and `HEAD` share no history
 */
export async function changedFiles(root: string, ref: string): Promise<Set<string>> {
  if (ref.length === 0 || ref.startsWith('-')) {
    throw new ChangedSinceError(`--changed-since takes a git ref such as "main" or "HEAD~1"; got "${ref}".`);
  }
  try {
    await git(root, ['rev-parse', '--is-inside-work-tree']);
  } catch (error) {
    if (error instanceof ChangedSinceError && (error.final || /needs git|dubious ownership/.test(error.message))) throw error;
    // git's own answer outside a work tree: "fatal: not a git repository (or any of the parent directories)".
    const message = error instanceof Error ? error.message : String(error);
    if (/not a git repository|must be run in a work tree/i.test(message)) throw new ChangedSinceError(`--changed-since ${ref}: ${root} is not inside a git repository.`);
    // Anything else is git failing, not an answer (s42 sweep E4: a `git` that is a link loop, or killed by a signal).
    throw new ChangedSinceError(`--changed-since ${ref}: git could not tell whether ${root} is inside a git repository (${message.split('\n')[0]!.slice(0, 200)}).`);
  }
  let commit: string;
  try {
    // Named first, then peeled to a commit: `${ref}^{commit}` would turn a commit named by its
    // message (`:/fix typo`) into a search for "fix typo^{commit}" (s25 sweep O3).
    const object = (await git(root, ['rev-parse', '--verify', '--quiet', ref])).trim();
    commit = object ? (await git(root, ['rev-parse', '--verify', '--quiet', `${object}^{commit}`])).trim() : '';
  } catch (error) {
    if (error instanceof ChangedSinceError && error.final) throw error;
    commit = '';
  }
  if (!commit) {
    throw new ChangedSinceError(
      `--changed-since ${ref}: "${ref}" is not a commit in the repository at ${root}. ` +
        'Give a branch, tag or commit, e.g. --changed-since main (in CI, fetch it first: git fetch origin main).',
    );
  }
  let base: string;
  try {
    base = (await git(root, ['merge-base', commit, 'HEAD'])).trim();
  } catch (error) {
    if (error instanceof ChangedSinceError && error.final) throw error;
    base = '';
  }
  if (!base) {
    throw new ChangedSinceError(`--changed-since ${ref}: "${ref}" and HEAD have no common ancestor (or HEAD has no commit yet).`);
  }
  await refuseIrregularExcludes(root);
  const [diff, untracked, staged] = await Promise.all([
    // `dirty`, not `none`: with `none` git asks each submodule whether its work tree has edits by
    // running `git status` inside it, a process that reads the submodule's own config
    // (`.git/modules/<sub>/config`), whose filter drivers this process never listed and so never
    // emptied. A moved submodule commit still shows (git reads the submodule's HEAD, running
    // nothing); edits inside are found below, one `runGit` per submodule (#33 item 11).
    git(root, ['diff', '--name-only', '--no-renames', '--relative', '--ignore-submodules=dirty', '-z', base, '--']),
    git(root, ['ls-files', '--others', '--exclude-standard', '-z']),
    git(root, ['ls-files', '--stage', '-z']),
  ]);
  // git prints POSIX paths; with -z they are not quoted, so a name holding a backslash, a
  // newline or non-ASCII bytes comes through as it is on disk.
  const changed = new Set([...splitZ(diff), ...splitZ(untracked)]);
  // A submodule (a gitlink, mode 160000) shows in the diff as one path when its commit moved or
  // its work tree has edits; its own files do not. Every file of a changed submodule counts as
  // changed (docdrift cannot tell which moved without reading the submodule's history).
  const submodules = gitlinks(staged);
  const unmoved = submodules.filter((m) => !changed.has(m));
  const edited = await mapFew(unmoved, (m) => submoduleEdited(path.join(root, m), 1));
  unmoved.forEach((m, i) => {
    if (edited[i]) changed.add(m);
  });
  const changedSubmodules = submodules.filter((m) => changed.has(m));
  for (const files of await mapFew(changedSubmodules, (m) => submoduleFiles(path.join(root, m), m, 1))) {
    for (const f of files) changed.add(f);
  }
  return changed;
}

/**
 * The files a command's parameters come from: its declaration (the console script or `bin`
 * line), each of its config classes and every class they nest, and every parameter definition
 * (config fields, inherited ones in their base's file, and CLI flags).
 */
export function commandSourceFiles(model: Model, command: CommandSpec): Set<string> {
  const files = new Set<string>();
  if (command.location) files.add(command.location.file);
  const seen = new Set<string>();
  const addClass = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const cls = model.classes.get(name);
    if (!cls) return;
    files.add(cls.location.file);
    for (const field of cls.fields) {
      files.add(field.location.file);
      if (field.typeRef) addClass(field.typeRef);
      if (field.valueTypeRef) addClass(field.valueTypeRef);
    }
  };
  for (const name of command.configClasses) addClass(name);
  for (const param of [...command.params, ...(command.acceptedParams ?? [])]) {
    files.add(param.location.file);
    if (param.typeRef) addClass(param.typeRef);
    if (param.valueTypeRef) addClass(param.valueTypeRef);
  }
  return files;
}

/**
 * The findings a change touches, in input order. A message is kept when
 * - its own file changed (a finding in an edited doc), or
 * - one of its `related` locations lies in a changed file (the definition in code, the reference
 *   section an example is checked against), or
 * - its `data.command` names a command whose parameters come from a changed file
 *   ({@link commandSourceFiles}): a renamed, removed or re-defaulted field makes rows and
 *   examples in untouched docs stale, even when the finding points at no code location, or
 * - `configFile` (the docdrift config in use, root-relative) changed: everything may differ.
 *
 * @param messages findings of a full run
 * @param model the model of that run
 * @param changed root-relative POSIX paths, as from {@link changedFiles}
 * @param configFile root-relative path of the config file the run used, if any
 */
export function selectAffected(messages: DriftMessage[], model: Model, changed: Set<string>, configFile?: string): DriftMessage[] {
  if (configFile !== undefined && changed.has(configFile)) return messages;
  const stale = new Map<string, boolean>();
  const commandChanged = (name: string): boolean => {
    let hit = stale.get(name);
    if (hit === undefined) {
      const command = model.commandByName(name);
      hit = command !== undefined && [...commandSourceFiles(model, command)].some((f) => changed.has(f));
      stale.set(name, hit);
    }
    return hit;
  };
  return messages.filter((m) => {
    if (m.file !== undefined && changed.has(String(m.file))) return true;
    if ((m.related ?? []).some((r) => changed.has(r.file))) return true;
    const command = m.data?.command;
    return command !== undefined && command !== '' && commandChanged(command);
  });
}
