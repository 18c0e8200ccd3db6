/**
 * V8 tuning for a short-lived CLI run, applied when the `docdrift` bin starts (imported first by
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

const flag = tieringFlag(process.execArgv, process.versions.v8);
if (flag !== undefined) setFlagsFromString(flag);
