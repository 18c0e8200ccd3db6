/**
 * V8 tuning for a short-lived CLI run (tier-up, and heap growth: {@link HEAP_GROWING_PERCENT}), applied when the `docdrift` bin starts (imported first by
 * src/bin.ts; V8 flags are per process, so the document and TypeScript worker threads started
 * later get it too). In the bundle, the chunks the bin imports are evaluated before this module,
 * but evaluating them only defines functions: a function gets its tier-up budget when it first
 * collects feedback, which is after this has run, once the run starts.
 *
 * `--interrupt-budget` is how much bytecode a function runs before V8 considers optimising it
 * with TurboFan (default 67,584 in Node 20's V8 11.3; V8 12 and 13, in Node 22 and 24, have no
 * such flag, see tieringFlag). A docdrift run lasts a few seconds: at the default, TurboFan compiled hundreds of functions that ran only a little longer afterwards, and
 * its compile threads took ~15 % of a cold run's CPU (`perf record`, synthetic 1x), on a 2-core
 * runner time the parsing threads did not get. With a budget of 1,000,000 only the really hot
 * functions (micromark's tokenizer, the Python scan) are optimised. Measured on the bench's
 * synthetic 1x repository (3 runs each, 2 cores): 2.30-2.42 -> 2.05-2.11 s wall-clock, 4.0 ->
 * 3.4 s of CPU; budgets from 300,000 to 3,000,000 measure the same, 10,000,000 is slower again.
 *
 * Not applied when the user set the flag on node's command line (`node --interrupt-budget=N
 * $(which docdrift)`; Node refuses it in NODE_OPTIONS), nor when the library is used through the
 * API (only the bin imports this module).
 * See https://v8.dev/blog/sparkplug (tiers) and V8's `flag-definitions.h` (`interrupt_budget`).
 */
import { setFlagsFromString } from 'node:v8';

/** The interrupt budget docdrift's bin runs with (bytecode units; see the module comment). */
export const INTERRUPT_BUDGET = 1_000_000;

/**
 * The V8 flag to set, given node's own command-line options (`process.execArgv`) and V8's version
 * (`process.versions.v8`); undefined when they already choose an interrupt budget (V8 accepts
 * `--interrupt-budget` and `--interrupt_budget`), and on V8 12 and newer (Node 22 and 24), which
 * have no such flag: there `setFlagsFromString` printed `Error: unrecognized flag
 * --interrupt-budget=1000000` on stderr on every run (found running the tests on Node 22 and 24,
 * issue #34 item 5). V8 12 tiers up by invocation counts instead; no tuning is set there.
 */
export function tieringFlag(execArgv: readonly string[], v8Version: string): string | undefined {
  const major = Number.parseInt(v8Version, 10);
  if (!(major <= 11)) return undefined;
  const userSet = execArgv.some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg));
  return userSet ? undefined : `--interrupt-budget=${INTERRUPT_BUDGET}`;
}

/**
 * How much V8 lets the old generation grow past what the last full collection kept before it
 * collects again, in percent: 20 (V8's own factor is 1.1 to 4, chosen by how fast the program
 * allocates; a run that allocates fast gets up to 4 times its live data). Past 100 MB or so of
 * live data this is what bounds a run's memory: 60 pages of 4,400-row reference tables (the
 * run keeps 50,000 rows, under 150 MB live) peaked at 745 MB with V8's factor and 400-470 MB at 10-30 %
 * (#33 s33 sweep D2), the same CPU. Small runs are not affected (V8 does not collect below its
 * minimum limit however the factor is set): NeMo Gym's cold run, 8.3 s and about 380 MB either way.
 * The flag is read at every full collection, so setting it at start-up works (the heap's size
 * limits, `--max-old-space-size`, do not: they are fixed when the isolate is made). Node 20, 22 and
 * 24 (V8 11 to 13) have it. Not set when node's command line sets it.
 */
export const HEAP_GROWING_PERCENT = 20;

/** The heap-growing flag to set, given node's own command-line options; undefined when they set it (`--heap-growing-percent`, `--heap_growing_percent`). */
export function heapGrowingFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg)) ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

const flag = tieringFlag(process.execArgv, process.versions.v8);
if (flag !== undefined) setFlagsFromString(flag);
const growing = heapGrowingFlag(process.execArgv);
if (growing !== undefined) setFlagsFromString(growing);
