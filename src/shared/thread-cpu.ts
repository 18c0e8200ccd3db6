/**
 * CPU time of one thread of this process, read from Linux's `/proc` (the documents' parse worker,
 * the type checker's worker): a budget in CPU time holds on a loaded machine, where wall-clock time
 * grows with the load. Where `/proc` is missing (not Linux) every function returns `undefined` and
 * callers fall back to a wall-clock deadline.
 */
import { readFileSync, readlinkSync } from 'node:fs';

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
