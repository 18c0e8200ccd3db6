/**
 * CPU time of one thread of this process, read from Linux's `/proc` (the documents' parse worker,
 * the type checker's worker): a budget in CPU time holds on a loaded machine, where wall-clock time
 * grows with the load. Where `/proc` is missing (not Linux) every function returns `undefined` and
 * callers fall back to a wall-clock deadline.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** Clock ticks per second of `/proc` CPU times (`sysconf(_SC_CLK_TCK)`, 100 on Linux). */
const CLOCK_TICKS = 100;

/** The user + system CPU time in a `/proc/.../stat` text, in milliseconds (fields 14 and 15, after the command name in parentheses). */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU time (user + system) of thread `tid` of this process, in milliseconds (10 ms steps);
 * `undefined` when it cannot be read: no `/proc`, or the thread has ended (a worker that V8
 * stopped at its heap limit is noticed so).
 */
export function threadCpuMs(tid: number): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system, ms) of process `pid` so far, from `/proc/<pid>/stat` (a child process,
 * such as a git call), or undefined where it cannot be read (no `/proc`, the process gone).
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Linux ids of the threads this process had when this module was loaded in its main thread, the
 * main thread left out: V8's platform workers (Node starts four before any JavaScript runs; they
 * do the parallel and concurrent parts of every isolate's garbage collection and compile optimised
 * code) and libuv's pool if started. No `Worker` exists yet then (every module that starts one
 * imports this one), so none is among them. Empty in a worker thread or without `/proc`.
 */
let helperThreads: readonly number[] = (() => {
  if (!isMainThread) return [];
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid > 0 && tid !== process.pid);
  } catch {
    return [];
  }
})();

/**
 * CPU time (user + system, ms) the process's helper threads have spent so far: V8's platform
 * workers (garbage collection and compilation for every isolate: the main thread's and the
 * workers'), see `helperThreads`. A worker thread whose heap nears its limit spends most
 * of its time there, not on its own thread: a 391 KB page of `- a` items that died at the
 * document worker's 192 MB cost 4.6 s on the worker's thread and 7.8 s on these (#33 s42 sweep
 * E2). `undefined` where it cannot be read (no `/proc`, or called from a worker thread not given them: {@link adoptHelperThreads}).
 */
export function helperThreadsCpuMs(): number | undefined {
  if (helperThreads.length === 0) return undefined;
  let sum = 0;
  for (const tid of helperThreads) sum += threadCpuMs(tid) ?? 0;
  return sum;
}

/** The Linux ids of the helper threads {@link helperThreadsCpuMs} reads (empty in a worker thread that was not given them, or without `/proc`). */
export function helperThreadIds(): readonly number[] {
  return helperThreads;
}

/**
 * Gives a worker thread the helper threads' ids its process's main thread found
 * ({@link helperThreadIds} there, passed in the worker's data), so that {@link helperThreadsCpuMs}
 * works in it: the language server runs in a worker thread (src/lsp/launch.ts) and parses
 * documents from there.
 */
export function adoptHelperThreads(tids: readonly number[]): void {
  if (isMainThread) return;
  helperThreads = tids.filter((tid) => Number.isInteger(tid) && tid > 0);
}

/** The calling thread's Linux thread id (`/proc/thread-self` is `<pid>/task/<tid>`), or 0 without `/proc`. */
export function currentThreadId(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  } catch {
    return 0;
  }
}

/**
 * A wall-clock deadline is this many times a CPU budget: it stops a worker thread that is starved
 * rather than busy, and is the only deadline where the thread's CPU time cannot be read.
 */
export const WALL_FACTOR = 6;

/** How many times longer than the plain wall-clock deadline {@link watchWorkerCpu} waits when it can read the thread's CPU time. */
const HANG_FACTOR = 5;

/** How often {@link watchWorkerCpu} reads a worker thread's CPU time, in milliseconds. */
const WATCH_POLL_MS = 50;

/**
 * Watches a worker thread against a CPU budget while the calling thread goes on asynchronously
 * (the Python flags worker, the TypeScript facts worker): every 50 ms it reads the CPU time of
 * the thread whose Linux id the worker stored in `tid[0]` (see {@link publishThreadId}; 0 until
 * then), and once that is over `budgetMs`, or {@link WALL_FACTOR} × `budgetMs` of wall-clock time
 * has passed since the call (the only deadline without `/proc`; {@link HANG_FACTOR} times that where the CPU time is read), it calls `onExpiry` (before the
 * worker's `exit` event, so listeners can tell a budget stop from a crash) and terminates the
 * worker. The timer does not keep the process alive. Returns a function that stops watching
 * (call it when the worker has answered or ended).
 */
export function watchWorkerCpu(worker: { terminate(): Promise<number> }, tid: Int32Array, budgetMs: number, onExpiry: () => void): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const id = Atomics.load(tid, 0);
    const cpu = id > 0 ? threadCpuMs(id) : undefined;
    // Where the thread's CPU time is read, wall-clock time only guards against a thread that
    // hangs without computing ({@link HANG_FACTOR} x the wall deadline): on a loaded machine (a
    // niced run beside a CI job) a worker waiting for its core passed 6 x the budget in wall time
    // with 1.5 s of CPU, and a project was reported "not read" (s28 corpus run).
    const wallLimit = budgetMs * WALL_FACTOR * (cpu === undefined ? 1 : HANG_FACTOR);
    if ((cpu !== undefined && cpu > budgetMs) || Date.now() > started + wallLimit) {
      clearInterval(timer);
      onExpiry();
      void worker.terminate().catch(() => {});
    }
  }, WATCH_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Called first in a worker thread that {@link watchWorkerCpu} watches: stores its Linux thread id in `tid[0]`. */
export function publishThreadId(tid: Int32Array): void {
  Atomics.store(tid, 0, currentThreadId());
}

/**
 * The CPU budget a worker of the extraction stage gets for `chars` code units of input text:
 * `baseMs` plus `perMibMs` per MiB; the environment variable `DOCDRIFT_TEST_WORKER_BUDGET_MS`
 * (tests only: a tiny budget that any work exceeds) replaces it when it is a positive number.
 */
export function workerBudgetMs(chars: number, baseMs: number, perMibMs: number): number {
  const forced = Number(process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS);
  if (Number.isFinite(forced) && forced > 0) return forced;
  return Math.round(baseMs + (perMibMs * chars) / (1024 * 1024));
}
