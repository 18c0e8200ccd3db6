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
 * listed first (`git config --name-only -z --get-regexp`, which runs nothing) and each is emptied
 * (`filter.<name>.clean`, `.process` and `.smudge` set to the empty string, and `.required` to
 * false, since git fails a required filter that is empty), which git treats as "no filter".
 * These are passed in the environment (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`,
 * `GIT_CONFIG_VALUE_<n>`, git 2.31 and later), not with `-c`: `-c` splits its argument at the
 * first `=`, so for a driver named `x=y` it set the key `filter.x` and left the driver running.
 * The drivers are listed again before every call that could run one, never remembered: a process
 * that lives on (the language server, an API caller) would otherwise not turn off a driver added
 * since to `.git/config`, to a file it includes, to the global config or to a submodule's config
 * (#33). The same listing tells whether this git reads `GIT_CONFIG_COUNT` (see `filterDrivers`).
 * `GIT_OPTIONAL_LOCKS=0` keeps the calls from rewriting the index.
 *
 * A submodule has a config of its own (`.git/modules/<sub>/config`) whose drivers the listing
 * above never sees, so docdrift never lets git recurse into a submodule's work tree (no
 * `--ignore-submodules=none`, no `--recurse-submodules`): a question about a submodule is a
 * `runGit` in the submodule's directory, which lists and empties that config's drivers
 * (src/engine/changed.ts).
 *
 * Source: https://git-scm.com/docs/git-config (core.fsmonitor, core.hooksPath, diff.external,
 * filter.<driver>.clean), https://git-scm.com/docs/git#Documentation/git.txt-GITOPTIONALLOCKS
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile, execFileSync, spawn, type ChildProcess, type ExecFileException } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processCpuMs } from '../shared/thread-cpu.js';

/** The `-c` options of every git call, before the subcommand. */
export const SAFE_GIT_CONFIG: readonly string[] = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'diff.external=',
  '-c', 'core.pager=cat',
  '-c', 'core.untrackedCache=false',
  // No transport: in a partial clone git fetches missing objects from the promisor remote on
  // demand, which runs `core.sshCommand`, `remote.*.uploadpack` or a credential helper from the
  // repository's config (s26 sweep D1). Each protocol is named, since a repository's
  // `protocol.<name>.allow` overrides the default; `GIT_NO_LAZY_FETCH` (git 2.44+) is set too.
  '-c', 'protocol.allow=never',
  ...['file', 'git', 'ssh', 'http', 'https', 'ext', 'fd'].flatMap((name) => ['-c', `protocol.${name}.allow=never`]),
  '-c', 'core.sshCommand=false',
  '-c', 'credential.helper=',
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
  /** git did not finish within {@link gitTimeLimitMs} and was killed (`code` `ETIMEDOUT`). */
  get timedOut(): boolean {
    return this.code === 'ETIMEDOUT';
  }
  /** git refused the repository because another user owns it (CVE-2022-24765 protection). */
  get dubiousOwnership(): boolean {
    return /dubious ownership/i.test(this.stderr);
  }
}

/**
 * The wall-clock limit of one git call, in milliseconds: 20 s, plus 2 s per MB of the
 * repository's index (`.git/index`, ~130 bytes per tracked file: NeMo Gym's 4,140 files are
 * 535 KB). git blocks for ever when a file it opens is a FIFO with no writer (a `.gitignore` in an
 * untracked folder, `.git/info/exclude`, `core.excludesFile`: s29 sweep D1, D2), and no call had
 * a limit. The real listings are far below it: `git ls-files` of NeMo Gym takes 0.04 s, and a
 * 100,000-file repository (~13 MB of index) gets 46 s. `DOCDRIFT_TEST_GIT_TIMEOUT_MS` (a
 * positive integer) replaces it, for tests only.
 *
 * @param cwd the directory git runs in; its index is found by walking up to the nearest `.git`
 *   (a folder, or a file `gitdir: <path>`); when none is found, or it cannot be read, the base
 */
export function gitTimeLimitMs(cwd: string): number {
  const test = process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'];
  if (test !== undefined && /^\d{1,9}$/.test(test) && Number(test) > 0) return Number(test);
  const base = 20_000;
  try {
    for (let dir = path.resolve(cwd), depth = 0; depth < 64; depth++) {
      const dotGit = path.join(dir, '.git');
      let stat;
      try {
        stat = lstatSync(dotGit);
      } catch {
        const up = path.dirname(dir);
        if (up === dir) return base;
        dir = up;
        continue;
      }
      let gitDir = dotGit;
      if (stat.isFile()) {
        // A worktree or submodule: `gitdir: <path>`. Read only a small regular file (a FIFO would block).
        if (stat.size > 4096) return base;
        const line = readFileSync(dotGit, 'utf8').split('\n').find((l) => l.startsWith('gitdir:'));
        if (line === undefined || line.slice(7).trim() === '') return base;
        gitDir = path.resolve(dir, line.slice(7).trim());
      } else if (!stat.isDirectory()) return base;
      const index = lstatSync(path.join(gitDir, 'index'), { throwIfNoEntry: false });
      return index?.isFile() ? base + Math.ceil((index.size / (1 << 20)) * 2000) : base;
    }
  } catch {
    // unreadable: the base
  }
  return base;
}

/**
 * Most time, in milliseconds, a git call may go without progress (no CPU time used by git, no
 * byte of output) before it is stopped as stalled: 4 s. git blocked opening a FIFO, or a program
 * named `git` that never ends, would otherwise run to {@link gitTimeLimitMs} (20 s), and several
 * calls one after another (s42 sweep E1: 20-40 s, and more under `--changed-since`). A real
 * listing progresses all along (NeMo Gym's `git ls-files`: 0.04 s; a cold `git status` of a large
 * repository stats its files, system time that counts). Progress is read from
 * `/proc/<pid>/stat`; where it cannot be, only {@link gitTimeLimitMs} applies (which
 * `DOCDRIFT_TEST_GIT_TIMEOUT_MS` shortens; this does not change).
 */
export const GIT_STALL_MS = 4000;

/** The limit of the synchronous git call (the filter listing, `git config --get-regexp`), in milliseconds: 4 s (it takes ~3-10 ms). */
export const GIT_SYNC_LIMIT_MS = 4000;

/**
 * How long, in milliseconds, a git call stopped at a limit outside a run (the language server)
 * keeps later calls from starting: 30 s. They are rejected at once with its error (the caller
 * walks the folders), instead of each waiting for a limit of its own in turn; the server tries
 * git again after it. Inside a run ({@link withGitBudget}) a call stopped keeps the later calls
 * of that run from starting, for the rest of the run, and no other run's: the next run of the
 * same process (an API caller's, a test's) starts with a fresh budget and calls git again.
 */
export const GIT_STOPPED_HOLD_MS = 30_000;

/**
 * Most wall-clock time, in milliseconds, the git calls of one run may take in all: 5 s, plus the
 * 2 s per MB of `.git/index` of {@link gitTimeLimitMs}. The time counted is the time any git runs
 * (calls that run at once share it: a run's listing and its `--changed-since` calls start
 * together), added up over the run's calls one after another. A git busy matching every path
 * against every rule of a huge `.gitignore` uses CPU all along, so {@link GIT_STALL_MS} never
 * stops it: `git ls-files` of 40,000 wildcard rules over 6,000 untracked files took 37 s, which
 * its own limit (20 s) cut, and then the walk ran (s43 sweep F1). And a git that is slow at every
 * call but never stalled (3 s each) made the nine calls of a `--changed-since` run take 28 s
 * (#33 F6). Past it the calls are stopped as at their own limit, the calls after them are not
 * started ({@link GIT_STOPPED_HOLD_MS}), and the files are listed by walking the folders (whose
 * `.gitignore` matching is bounded, src/engine/discover.ts `MAX_GITIGNORE_WORK`), or
 * `--changed-since` exits 2. Real calls are far below it (NeMo Gym's listing: 0.04 s).
 *
 * A run is what {@link withGitBudget} runs (a CLI or API run). git called outside one (the
 * language server, which runs for hours, a test process) is bounded per busy stretch instead: the
 * count starts again whenever no git runs, so thousands of calls over a process's life never
 * reach it. `DOCDRIFT_TEST_GIT_TOTAL_MS` (a positive integer) replaces it, for tests only.
 */
export const GIT_TOTAL_MS = 5000;

/** The limit of {@link GIT_TOTAL_MS} for a repository holding `cwd`. */
function gitTotalLimitMs(cwd: string): number {
  const test = process.env['DOCDRIFT_TEST_GIT_TOTAL_MS'];
  if (test !== undefined && /^\d{1,9}$/.test(test) && Number(test) > 0) return Number(test);
  // The index allowance of the per-call limit (its base is 20 s); a test override of that one (shorter) leaves it out.
  return GIT_TOTAL_MS + Math.max(0, gitTimeLimitMs(cwd) - 20_000);
}

/**
 * The time git has run, for {@link GIT_TOTAL_MS}: since when git runs without a pause (`since`),
 * how many calls run, and (a run's clock only, `run`) the time of the stretches that ended.
 */
interface GitClock {
  spent: number;
  since: number;
  running: number;
  run: boolean;
  /** A call stopped at a limit on this clock, and until when it keeps later calls from starting ({@link GIT_STOPPED_HOLD_MS}). */
  stopped?: { error: GitError; until: number };
}

/** The clock of git called outside a run: each busy stretch starts from 0. */
const stretchClock: GitClock = { spent: 0, since: 0, running: 0, run: false };

/** The clock of the run the current asynchronous call chain belongs to ({@link withGitBudget}). */
const runClock = new AsyncLocalStorage<GitClock>();

/**
 * Runs `fn` as one run for {@link GIT_TOTAL_MS}: the git calls it makes, however deep in its
 * asynchronous calls (and those it starts without awaiting), share one budget. Inside a run
 * already, `fn` joins that run's budget.
 */
export function withGitBudget<T>(fn: () => Promise<T>): Promise<T> {
  if (runClock.getStore()) return fn();
  return runClock.run({ spent: 0, since: 0, running: 0, run: true }, fn);
}

/** Whether the current asynchronous call chain is inside a run of {@link withGitBudget}. */
export function inGitBudget(): boolean {
  return runClock.getStore() !== undefined;
}

/** The clock git calls count on now: the run's, or outside a run the busy-stretch one. */
function gitClock(): GitClock {
  return runClock.getStore() ?? stretchClock;
}

/** Counts a git call started on `clock`; returns the function that counts it ended (once). */
function busyStart(clock: GitClock): () => void {
  if (clock.running++ === 0) clock.since = Date.now();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--clock.running === 0 && clock.run) clock.spent += Date.now() - clock.since;
  };
}

/** How long git has run on `clock`, in milliseconds: over the run, or (outside a run) since the last pause. */
function busyMs(clock: GitClock): number {
  return clock.spent + (clock.running > 0 ? Date.now() - clock.since : 0);
}

/** A limit of {@link GIT_TOTAL_MS} a call ran into: its milliseconds, and whether it is a run's (else a busy stretch's). */
interface TotalLimit {
  ms: number;
  run: boolean;
}

/**
 * Remembers `error` on `clock` when it is a call stopped at a limit: for the rest of a run, or
 * outside a run for {@link GIT_STOPPED_HOLD_MS}.
 */
function holdIfStopped(error: unknown, clock: GitClock): void {
  if (error instanceof GitError && error.timedOut) clock.stopped = { error, until: clock.run ? Infinity : Date.now() + GIT_STOPPED_HOLD_MS };
}

/** The error for a call not started because a call on `clock` was stopped at a limit (see {@link holdIfStopped}). */
function heldError(clock: GitClock): GitError | undefined {
  const { stopped } = clock;
  if (!stopped || Date.now() >= stopped.until) return undefined;
  const later = clock.run ? 'later git calls of this run were not started' : `git calls in the ${GIT_STOPPED_HOLD_MS / 1000} s after it are not started`;
  return new GitError(`${stopped.error.message}; ${later}`, '', 'ETIMEDOUT');
}

/**
 * Calls `onStall` once when `child` has used no CPU time and `output()` (bytes written so far)
 * has not grown for {@link GIT_STALL_MS}, sampled every 250 ms while this process waits for
 * events; a sample that comes more than a second late (this thread ran synchronous work) starts
 * the count again. Returns the function that stops watching. Does nothing where `/proc` cannot
 * be read.
 */
function watchStall(child: ChildProcess, output: () => number, onStall: () => void): () => void {
  const pid = child.pid;
  const first = pid === undefined ? undefined : processCpuMs(pid);
  if (pid === undefined || first === undefined) return () => {};
  let last = { ticks: first, bytes: output(), at: Date.now() };
  let tick = Date.now();
  const timer = setInterval(() => {
    const ticks = processCpuMs(pid);
    // Gone: its 'close' settles the call.
    if (ticks === undefined) return;
    const bytes = output();
    const now = Date.now();
    // This thread was busy (the sample is late): git may have waited for it to read its output
    // (a full pipe, whose data this turn of the event loop has not read yet), so it starts over.
    const late = now - tick > 1000;
    tick = now;
    if (late || ticks !== last.ticks || bytes !== last.bytes) {
      last = { ticks, bytes, at: now };
      return;
    }
    if (Date.now() - last.at >= GIT_STALL_MS) {
      clearInterval(timer);
      onStall();
    }
  }, 250);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * After `child` exits, settles its call within 500 ms even when its output pipes stay open (a
 * program it left behind holds them: s42 sweep E1), by closing this process's ends of them.
 */
function closeAfterExit(child: ChildProcess): void {
  child.once('exit', () => {
    setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, 500).unref();
  });
}

/** The git processes still running, killed when this process exits (see {@link track}). */
const live = new Set<ChildProcess>();

/**
 * Keeps `child` in {@link live} until it exits. A run that ends (a `--changed-since` error is
 * exit 2) while a git started early still runs left that git behind, blocked for ever on a FIFO
 * (s29 sweep, observation on D1/D2): on exit each one left is killed.
 *
 * One process `exit` listener is registered while any git runs and removed when the last one
 * ends. It was added each time the set went from empty to one and never removed, so a run with
 * more than ten batches of git calls (`--changed-since` with submodules) made Node print
 * `MaxListenersExceededWarning` on standard error (s31 sweep D2).
 */
function track(child: ChildProcess): void {
  if (live.size === 0) process.on('exit', killLive);
  live.add(child);
  child.once('exit', () => untrack(child));
  // A spawn that failed (no pid) may send 'error' without 'exit'.
  child.once('error', () => {
    if (child.pid === undefined) untrack(child);
  });
}

/** Drops `child` from {@link live}; the last one out removes the process `exit` listener. */
function untrack(child: ChildProcess): void {
  if (!live.delete(child)) return;
  if (live.size === 0) process.removeListener('exit', killLive);
}

function killLive(): void {
  for (const child of live) kill(child);
  live.clear();
  process.removeListener('exit', killLive);
}

/** How many process `exit` listeners the git helpers hold now: 1 while a git runs, else 0 (for tests). */
export function gitExitListeners(): number {
  return process.listeners('exit').filter((l) => l === killLive).length;
}

/**
 * SIGKILL to `child` (a blocked `open` of a FIFO ignores nothing else reliably). Only the child:
 * the git commands docdrift runs start no programs of their own (hooks, fsmonitor, filters,
 * diff drivers and transports are off, see the module comment), so there is no process group to
 * reach, and a git in docdrift's own group still gets the terminal's Ctrl-C.
 */
function kill(child: ChildProcess): void {
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * The GitError of a call killed at its time limit, or (`limit` undefined) for making no progress
 * for {@link GIT_STALL_MS}, or (`total` given) at the limit of all git calls of the run ({@link GIT_TOTAL_MS}).
 */
function timeoutError(args: readonly string[], limit: number | undefined, total?: TotalLimit): GitError {
  const call = gitCallName(args);
  if (total !== undefined) {
    return new GitError(
      `${call} was stopped: the git calls ${total.run ? 'of this run ' : ''}took ${Math.round(total.ms / 100) / 10} s ${total.run ? 'in all' : 'without a pause'}, the most they may (each git call may be slow, git may be matching the files against a very large .gitignore, a file git reads may be a FIFO, or the file system may be stalled)`,
      '',
      'ETIMEDOUT',
    );
  }
  const what = limit === undefined ? `made no progress for ${GIT_STALL_MS / 1000} s (no CPU time used, no output)` : `did not finish within ${Math.round(limit / 100) / 10} s`;
  return new GitError(
    `${call} ${what} and was stopped (a file git reads, such as a .gitignore or an excludes file, may be a FIFO, or the file system may be stalled)`,
    '',
    'ETIMEDOUT',
  );
}

/**
 * How a message names the git call of `args`: `git <subcommand>`, the subcommand being the first
 * word that is neither an option nor the value of `-c` / `-C`; without one (`--version`), or when
 * it is empty or `git` itself, `git` and the call's first option (`git --version`), or `git`.
 */
export function gitCallName(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-')) {
      if (arg !== '' && arg !== 'git') return `git ${arg}`;
      break;
    }
  }
  const option = args.find((a) => a.startsWith('--') && a.length > 2);
  return option === undefined ? 'git' : `git ${option}`;
}

/** The limit of a synchronous call in `cwd`: {@link GIT_SYNC_LIMIT_MS}, or {@link gitTimeLimitMs} when shorter (the test override). */
function syncLimitMs(cwd: string): number {
  return Math.min(GIT_SYNC_LIMIT_MS, gitTimeLimitMs(cwd));
}

/**
 * The environment of every git call, with `config` (key, value pairs) added as command-line
 * configuration after any the caller's environment already holds (`GIT_CONFIG_COUNT`).
 */
function gitEnv(config: ReadonlyArray<readonly [string, string]> = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_NO_LAZY_FETCH: '1' };
  if (config.length > 0) {
    const given = env['GIT_CONFIG_COUNT'];
    let n = given !== undefined && /^\d+$/.test(given) ? Number(given) : 0;
    for (const [key, value] of config) {
      env[`GIT_CONFIG_KEY_${n}`] = key;
      env[`GIT_CONFIG_VALUE_${n}`] = value;
      n++;
    }
    env['GIT_CONFIG_COUNT'] = String(n);
  }
  return env;
}

/**
 * Runs git once, with {@link SAFE_GIT_CONFIG} and no shell, killed (SIGKILL) after `limit` ms.
 * The limit is a timer of this process: while it runs synchronous work the timer waits, and it
 * fires when the caller awaits the call (the only time a hang could show); a git that ended
 * meanwhile still succeeds.
 */
function exec(cwd: string, args: readonly string[], maxBuffer: number, env: NodeJS.ProcessEnv = gitEnv(), limit = gitTimeLimitMs(cwd), total?: TotalLimit): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stalled = false;
    let unwatch = (): void => {};
    const settle = (error: ExecFileException | null, stdout: string, stderr: string): void => {
      unwatch();
      if (!error) return resolve(stdout);
      if (stalled) return reject(timeoutError(args, undefined));
      if (error.killed && error.signal === 'SIGKILL') return reject(timeoutError(args, limit, total));
      const e = error as NodeJS.ErrnoException & { code?: string | number };
      // A git that exited without a word: say how (execFile's message is the whole command line).
      const how = typeof e.code === 'string' ? error.message : `git exited with ${error.signal ?? e.code ?? 'an error'}`;
      reject(new GitError((stderr || how).trim(), String(stderr ?? '').trim(), e.code));
    };
    let child: ChildProcess;
    try {
      // execFile's own time limit: SIGKILL after `limit` ms (a blocked `open` of a FIFO ignores nothing else reliably).
      child = execFile('git', [...SAFE_GIT_CONFIG, ...args], { cwd, encoding: 'utf8', maxBuffer, env, timeout: limit, killSignal: 'SIGKILL' }, settle);
    } catch (error) {
      // spawn throws some errors at once (ELOOP: a `git` on PATH that is a link loop, s42 sweep E4).
      reject(new GitError((error as Error).message, '', (error as NodeJS.ErrnoException).code));
      return;
    }
    track(child);
    closeAfterExit(child);
    let bytes = 0;
    const count = (chunk: string | Buffer): void => {
      bytes += chunk.length;
    };
    child.stdout?.on('data', count);
    child.stderr?.on('data', count);
    unwatch = watchStall(
      child,
      () => bytes,
      () => {
        stalled = true;
        kill(child);
      },
    );
  });
}

/**
 * As {@link exec}, but git writes its standard output to an anonymous temporary file (created
 * with O_EXCL and mode 0600 in the system's temporary directory, unlinked at once) rather than a
 * pipe. A pipe holds 64 KiB: a listing larger than that (NeMo Gym's is ~200 KB) stops git until
 * this process reads, which it does not while it runs synchronous work, so a call started early
 * to overlap that work would not. Falls back to {@link exec} when no temporary file can be made.
 */
function execSpooled(cwd: string, args: readonly string[], maxBuffer: number, env: NodeJS.ProcessEnv = gitEnv(), limit = gitTimeLimitMs(cwd), total?: TotalLimit): Promise<string> {
  let fd: number;
  try {
    const file = path.join(tmpdir(), `docdrift-git-${process.pid}-${randomBytes(8).toString('hex')}`);
    fd = openSync(file, 'wx+', 0o600);
    try {
      unlinkSync(file);
    } catch {
      // left behind in the temporary directory; harmless
    }
  } catch {
    return exec(cwd, args, maxBuffer, env, limit, total);
  }
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    let stalled = false;
    let unwatch = (): void => {};
    // The time limit is a timer of this call, cleared however the call ends: spawn's own `timeout`
    // is cleared only by an 'exit' event, which a git that could not start (ENOENT: no git
    // installed) never sends, so every run without git stayed alive 20 s after its report (s41 sweep D1).
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unwatch();
      try {
        fn();
      } finally {
        closeSync(fd);
      }
    };
    let stderr = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('git', [...SAFE_GIT_CONFIG, ...args], { cwd, env, stdio: ['ignore', fd, 'pipe'] });
    } catch (error) {
      finish(() => reject(new GitError((error as Error).message, '', (error as NodeJS.ErrnoException).code)));
      return;
    }
    timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    track(child);
    closeAfterExit(child);
    let stderrBytes = 0;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrBytes += chunk.length;
      if (stderr.length < 1 << 16) stderr += chunk;
    });
    unwatch = watchStall(
      child,
      () => {
        try {
          return fstatSync(fd).size + stderrBytes;
        } catch {
          return stderrBytes;
        }
      },
      () => {
        stalled = true;
        child.kill('SIGKILL');
      },
    );
    child.on('error', (error: NodeJS.ErrnoException) => finish(() => reject(new GitError(error.message, '', error.code))));
    child.on('close', (code, signal) => {
      finish(() => {
        if (code !== 0 && stalled && signal === 'SIGKILL') {
          reject(timeoutError(args, undefined));
          return;
        }
        if (code !== 0 && timedOut && signal === 'SIGKILL') {
          reject(timeoutError(args, limit, total));
          return;
        }
        if (code !== 0) {
          reject(new GitError((stderr || `git exited with ${code ?? signal}`).trim(), stderr.trim(), code ?? signal ?? undefined));
          return;
        }
        const size = fstatSync(fd).size;
        if (size > maxBuffer) {
          reject(new GitError('stdout maxBuffer length exceeded', '', 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'));
          return;
        }
        const bytes = Buffer.allocUnsafe(size);
        let filled = 0;
        while (filled < size) {
          const n = readSync(fd, bytes, filled, size - filled, filled);
          if (n === 0) break;
          filled += n;
        }
        resolve(bytes.subarray(0, filled).toString('utf8'));
      });
    });
  });
}

/**
 * Filter-driver names in `git config --name-only -z --get-regexp` output: the keys, each ended by
 * a NUL, `filter.<name>.<variable>`, where the name may hold dots, spaces and `=` and the variable
 * holds none (a listing with values could not be split: `filter.a b.clean x.y z`).
 */
function driverNames(out: string): string[] {
  return [...new Set(out.split('\0').flatMap((key) => /^filter\.(.+)\.[^.]+$/is.exec(key)?.[1] ?? []))];
}

/**
 * A configuration key that no configuration file holds (its name is random, per process), given
 * to the listing of {@link filterDrivers} in the environment (`GIT_CONFIG_COUNT`): a git that
 * lists it reads that environment (2.31 and later).
 */
const ENV_PROBE_KEY = `docdrift.probe${randomBytes(8).toString('hex')}`;

/** What {@link filterDrivers} found: the drivers' names, and whether this git reads `GIT_CONFIG_COUNT`. */
interface FilterDrivers {
  names: string[];
  envRead: boolean;
}

/**
 * The names of the filter drivers the configuration git reads in `cwd` defines now
 * (`filter.<name>.*`, from every file git reads there: system, global, the repository's and the
 * files they include, or a submodule's own), and whether this git reads `GIT_CONFIG_COUNT`: one
 * synchronous `git config --get-regexp` (~3 ms), which runs nothing, so the call that needs them
 * starts at once rather than when this process next waits for events (see `spool`). Asked for
 * every call that could run a driver, never remembered: what git reads may change between two
 * calls of a process that lives on, and no key (the stat of the files listed) would tell, since a
 * file an include names, or the global one, may not exist yet, and an `includeIf` may start to
 * match. Whether git reads the environment is asked of the git that lists the drivers, not
 * remembered from `git --version` either: the git on `PATH` may be replaced meanwhile.
 */
function filterDrivers(cwd: string): FilterDrivers {
  const probe = ENV_PROBE_KEY.replace('.', '\\.');
  try {
    const out = syncGit(cwd, [...SAFE_GIT_CONFIG, 'config', '--name-only', '-z', '--get-regexp', `^(filter\\.|${probe}$)`], ['config'], 64 << 20, [[ENV_PROBE_KEY, '1']]);
    return { names: driverNames(out), envRead: out.split('\0').includes(ENV_PROBE_KEY) };
  } catch (error) {
    if (error instanceof GitError && error.timedOut) throw error;
    const { status, code } = error as { status?: number | null; code?: string };
    // Exit 1: none defined (and the probe not read: a git before 2.31); 128: no repository; no
    // git: the real call reports those two. Any other failure (a listing over the buffer, a
    // signal) fails closed: read as "none", it let `git diff` run the repository's clean filter
    // (s25 sweep D1: a 1.2 MB listing).
    if (!(status === 1 || status === 128 || code === 'ENOENT')) {
      throw new GitError(`cannot list the filter drivers the git configuration defines (${code ?? (status === null ? 'killed' : `exit ${status}`)}), so docdrift cannot tell git not to run them; it does not run git here. Remove the unused \`filter.*\` entries from the configuration.`, '', code ?? status ?? undefined);
    }
    return { names: [], envRead: false };
  }
}

/**
 * Runs `git <args>` in `cwd` synchronously and returns its stdout (stderr is dropped), counted on
 * the clock of {@link GIT_TOTAL_MS} like any call, and killed at {@link GIT_SYNC_LIMIT_MS} or at
 * what is left of that budget, whichever is sooner. A synchronous call's limit is kept by the
 * system (spawnSync), not a timer: `.git/config` or a file it includes may be a FIFO too.
 *
 * @param name the words naming the call in a message (`['config']`)
 * @param config configuration given in the environment (see {@link gitEnv})
 * @throws {GitError} `ETIMEDOUT` (remembered for the run, see {@link GIT_STOPPED_HOLD_MS}) when
 *   it was stopped or the budget was spent before it; execFileSync's error for any other failure
 */
function syncGit(cwd: string, args: readonly string[], name: readonly string[], maxBuffer = 1 << 20, config: ReadonlyArray<readonly [string, string]> = []): string {
  const clock = gitClock();
  const own = syncLimitMs(cwd);
  const total: TotalLimit = { ms: gitTotalLimitMs(cwd), run: clock.run };
  const left = total.ms - busyMs(clock);
  const stopped = (error: GitError): GitError => {
    holdIfStopped(error, clock);
    return error;
  };
  if (left <= 0) throw stopped(timeoutError(name, undefined, total));
  const ended = busyStart(clock);
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer, env: gitEnv(config), stdio: ['ignore', 'pipe', 'ignore'], timeout: Math.min(own, left), killSignal: 'SIGKILL' });
  } catch (error) {
    if ((error as { code?: string }).code === 'ETIMEDOUT') throw stopped(left < own ? timeoutError(name, undefined, total) : timeoutError(name, own));
    throw error;
  } finally {
    ended();
  }
}

/**
 * Runs `git <args>` in `cwd` with the repository's hooks, fsmonitor, external diff, textconv and
 * filter commands disabled (see the module comment). Resolves to stdout.
 *
 * @param maxBuffer largest stdout accepted, in bytes (default 1 GiB)
 * @param spool write stdout to a temporary file instead of a pipe (see `execSpooled`), for a
 *   large output of a call whose caller is busy while git runs
 * @throws {GitError} when git is missing (`code` `ENOENT`) or exits non-zero; `code`
 *   `ETIMEDOUT` when it ran past {@link gitTimeLimitMs}, made no progress for {@link GIT_STALL_MS},
 *   ran past what is left of {@link GIT_TOTAL_MS}, or a call of this run stopped (outside a run:
 *   one stopped less than {@link GIT_STOPPED_HOLD_MS} ago) keeps this one from starting
 */
export function runGit(cwd: string, args: readonly string[], maxBuffer = 1 << 30, spool = false): Promise<string> {
  const clock = gitClock();
  const held = heldError(clock);
  if (held) return Promise.reject(held);
  const sub = args[0];
  // In the environment, not `-c`: `-c filter.x=y.clean=` sets `filter.x` (see the module comment).
  let drivers: FilterDrivers = { names: [], envRead: true };
  try {
    // Listed for this call (see `filterDrivers`): a driver defined since the last call is off too.
    if (sub === 'diff' || sub === 'ls-files' || sub === 'status') drivers = filterDrivers(cwd);
  } catch (error) {
    // The listing was stopped (held on the clock): this call is not started.
    return Promise.reject(heldError(clock) ?? error);
  }
  // `required` off too: git fails a required filter whose command is empty (git-lfs sets
  // `filter.lfs.required=true`: "fatal: logo.png: clean filter 'lfs' failed", s41 sweep D2);
  // not required, an empty filter is no filter, and git reads the file as it is.
  const off = drivers.names.flatMap((name) => [...(['clean', 'smudge', 'process'] as const).map((v) => [`filter.${name}.${v}`, ''] as const), [`filter.${name}.required`, 'false'] as const]);
  const rest = sub === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : [...args];
  let env = gitEnv(off);
  let extra: string[] = [];
  if (off.length > 0 && !drivers.envRead) {
    // git before 2.31 ignores GIT_CONFIG_COUNT: `-c`, which cannot name a driver with `=`.
    const bad = off.find(([key]) => key.includes('='));
    if (bad) {
      const name = bad[0].slice('filter.'.length, bad[0].lastIndexOf('.'));
      return Promise.reject(new GitError(`the git configuration defines a filter driver named "${name}", which this git (older than 2.31) cannot be told not to run; docdrift does not run it. Upgrade git, or rename the driver.`, '', undefined));
    }
    extra = off.flatMap(([key, value]) => ['-c', `${key}=${value}`]);
    env = gitEnv();
  }
  // The time left of all git calls of the run (GIT_TOTAL_MS), when shorter than this call's own limit.
  const own = gitTimeLimitMs(cwd);
  const total: TotalLimit = { ms: gitTotalLimitMs(cwd), run: clock.run };
  const left = total.ms - busyMs(clock);
  if (left <= 0) {
    const error = timeoutError(rest, undefined, total);
    holdIfStopped(error, clock);
    return Promise.reject(error);
  }
  const ended = busyStart(clock);
  // git starts before this returns: a call started early runs beside the caller's synchronous work.
  const call = left < own ? (spool ? execSpooled : exec)(cwd, [...extra, ...rest], maxBuffer, env, left, total) : (spool ? execSpooled : exec)(cwd, [...extra, ...rest], maxBuffer, env, own);
  return call.finally(ended).catch((error: unknown) => {
    // A call stopped keeps the later calls of its run (outside a run, of the next 30 s) from starting.
    holdIfStopped(error, clock);
    // Thousands of drivers (or very long names) make the environment that disables them too large to start git.
    if ((error as { code?: unknown }).code === 'E2BIG' && off.length > 0) {
      throw new GitError(`the git configuration defines ${off.length / 4} filter drivers, too many to tell git not to run them (the environment is over the system's limit); docdrift does not run git here. Remove the unused \`filter.*\` entries from the configuration.`, '', 'E2BIG');
    }
    throw error;
  });
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
