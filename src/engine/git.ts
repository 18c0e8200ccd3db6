/**
 * Every git call docdrift makes goes through {@link runGit}: without a shell, and without the
 * programs a repository's own configuration could make git run.
 *
 * A repository's `.git/config` can name commands that git runs during ordinary read-only
 * commands: `core.fsmonitor` (run by `ls-files`, `diff`, `status` to learn what changed), an
 * external diff driver (`diff.external`, `diff.<driver>.command`), text conversion
 * (`diff.<driver>.textconv`), and clean filters (`filter.<driver>.clean` / `.process`, run by
 * `diff` when it rehashes a working-tree file). docdrift never executes code it reads, so each
 * call turns these off on the command line, which overrides every config file:
 * `-c core.fsmonitor=false`, `-c core.hooksPath=/dev/null`, `-c diff.external=`, and
 * `--no-ext-diff --no-textconv` for `diff`; the filter drivers the configuration defines are
 * listed first (`git config --get-regexp`, which runs nothing) and each is emptied
 * (`-c filter.<name>.clean= -c filter.<name>.process= -c filter.<name>.smudge=`), which git
 * treats as "no filter". `GIT_OPTIONAL_LOCKS=0` keeps the calls from rewriting the index.
 *
 * Source: https://git-scm.com/docs/git-config (core.fsmonitor, core.hooksPath, diff.external,
 * filter.<driver>.clean), https://git-scm.com/docs/git#Documentation/git.txt-GITOPTIONALLOCKS
 */
import { execFile } from 'node:child_process';

/** The `-c` options of every git call, before the subcommand. */
export const SAFE_GIT_CONFIG: readonly string[] = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'diff.external=',
  '-c', 'core.pager=cat',
  '-c', 'core.untrackedCache=false',
];

/** A failed git call: `stderr` is git's message (trimmed), `code` the spawn error code (`ENOENT`: no git) or exit status. */
export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: string | number | undefined,
  ) {
    super(message);
  }
  /** git refused the repository because another user owns it (CVE-2022-24765 protection). */
  get dubiousOwnership(): boolean {
    return /dubious ownership/i.test(this.stderr);
  }
}

/** Filter-driver names per repository root, so the config is listed once per run. */
const filterCache = new Map<string, Promise<string[]>>();

/** Runs git once, with {@link SAFE_GIT_CONFIG} and no shell. */
function exec(cwd: string, args: readonly string[], maxBuffer: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE_GIT_CONFIG, ...args],
      { cwd, encoding: 'utf8', maxBuffer, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' } },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const e = error as NodeJS.ErrnoException & { code?: string | number };
        reject(new GitError((stderr || error.message).trim(), String(stderr ?? '').trim(), e.code));
      },
    );
  });
}

/** The names of the filter drivers the repository's configuration defines (`filter.<name>.*`). */
function filterDrivers(cwd: string): Promise<string[]> {
  let listed = filterCache.get(cwd);
  if (!listed) {
    listed = exec(cwd, ['config', '--get-regexp', '^filter\\.'], 1 << 20).then(
      (out) => [...new Set(out.split('\n').flatMap((l) => /^filter\.(.+)\.[a-z]+ /i.exec(l)?.[1] ?? []))],
      () => [], // exit 1: none defined (or no repository: the real call reports it)
    );
    filterCache.set(cwd, listed);
  }
  return listed;
}

/**
 * Runs `git <args>` in `cwd` with the repository's hooks, fsmonitor, external diff, textconv and
 * filter commands disabled (see the module comment). Resolves to stdout.
 *
 * @param maxBuffer largest stdout accepted, in bytes (default 1 GiB)
 * @throws {GitError} when git is missing (`code` `ENOENT`) or exits non-zero
 */
export async function runGit(cwd: string, args: readonly string[], maxBuffer = 1 << 30): Promise<string> {
  const sub = args[0];
  let extra: string[] = [];
  if (sub === 'diff' || sub === 'ls-files' || sub === 'status') {
    extra = (await filterDrivers(cwd)).flatMap((name) => ['-c', `filter.${name}.clean=`, '-c', `filter.${name}.smudge=`, '-c', `filter.${name}.process=`]);
  }
  const rest = sub === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : [...args];
  return exec(cwd, [...extra, ...rest], maxBuffer);
}

/**
 * The sentence for a repository git refused because another user owns it, with the fix.
 * git's own message names the directory; it is kept.
 */
export function dubiousOwnershipText(error: GitError, root: string): string {
  const dir = /repository at '([^']+)'/.exec(error.stderr)?.[1] ?? root;
  return (
    `git refuses to read the repository at ${dir}: it is owned by another user ("dubious ownership"). ` +
    `If you trust it, run: git config --global --add safe.directory ${dir}`
  );
}
