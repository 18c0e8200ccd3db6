/**
 * The Python CLI-flag extraction on the second core: `extractPythonFlags` (argparse, click, typer,
 * cyclopts, jsonargparse, decli, docopt, fire; resolved across the files that may define flags)
 * runs in a worker thread (src/engine/python-worker.ts) while the main thread parses and scans
 * the other Python files and analyses config classes. The worker parses and scans the flag files
 * itself and sends those scans first, so the main thread reads each file once in all; then it
 * sends the flags. Both are what the main thread would compute: the flags are a function of the
 * flag files' texts and the package roots (the key of their cache piece, `flagsKey`), and a scan
 * of the text a file has. When the worker cannot start or fails, the main thread computes both.
 * The worker runs under a CPU budget ({@link pythonFlagsBudgetMs}): past it the worker is ended
 * and the flags are NOT computed again in-thread (that would run the same unbounded work with no
 * bound): the run goes on with the flags of those files unknown ({@link PendingPythonFlags.stopped}); so
 * does a worker that V8 ended at its heap limit, or whose extraction threw.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PythonFlagExtraction } from '../extract/python/flags.js';
import { FIELD_COST_CHARS, type ModuleInfo } from '../extract/python/scan.js';
import { LARGE_RUN_FILES } from '../docs/bounded-parse.js';
import { watchWorkerCpu, workerBudgetMs } from '../shared/thread-cpu.js';

/** The worker's input (structured-cloned): the flag files' texts, and the import roots naming their modules. */
export interface PythonFlagsJob {
  sources: Array<{ file: string; text: string }>;
  packageRoots: string[];
}

/** What the worker is given: the job, and where it stores its Linux thread id for the CPU budget (`tid[0]`). */
export interface PythonWorkerData extends PythonFlagsJob {
  tid: Int32Array;
  /** The scan worker ({@link startPythonScans}): scan the sources, post the scans, no flags. */
  scanOnly?: boolean;
}

/**
 * The worker's messages, in order: `scans` once (path, module name, scan of each flag file it
 * parsed), then `flags`; or `error` at any point (a bug or a grammar that would not load: the
 * main thread then computes what it has not received).
 */
export type PythonFlagsMessage =
  | { kind: 'scans'; scans: Array<[file: string, module: string, info: ModuleInfo]> }
  /** The scan worker ({@link startPythonScans}): a batch of its scans, posted as they are made (it keeps none). */
  | { kind: 'scan-batch'; scans: Array<[file: string, module: string, info: ModuleInfo]> }
  /** The scan worker: every batch is posted. */
  | { kind: 'scans-done' }
  | { kind: 'flags'; flags: PythonFlagExtraction }
  | { kind: 'error'; error: string };

/** A flag extraction running in a worker thread ({@link startPythonFlags}). Neither promise rejects. */
export interface PendingPythonFlags {
  /** Path → [module name, scan] of the flag files; `undefined` when the worker failed first. */
  scans: Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined>;
  /** The flags; `undefined` when the worker failed (then the caller extracts them in-thread) or was stopped ({@link stopped}). */
  flags: Promise<PythonFlagExtraction | undefined>;
  /**
   * Set, before `flags` settles, when the worker started running and then gave no flags: ended
   * for running past its CPU budget, ended by V8 at its heap limit ({@link PYTHON_WORKER_HEAP_MB}),
   * or its extraction threw. The caller must then not extract in-thread (the same work, with no
   * bound: s28 sweep D5, a heap death recomputed on the main thread ran to a 4.3 GB abort) but take
   * the flags of the job's files as unknown. A worker that failed before it ran (it could not
   * start) leaves this unset: the caller computes in-thread.
   */
  stopped?: PythonWorkerStop;
}

/** Why a started flags worker gave no flags ({@link PendingPythonFlags.stopped}). */
export type PythonWorkerStop = { kind: 'budget'; budgetMs: number } | { kind: 'heap'; heapMb: number } | { kind: 'error'; message: string };

/** The clause (after "extracting the CLI flags of these files (N KB)") saying why a started worker gave no flags. */
export function workerStopText(stop: PythonWorkerStop): string {
  if (stop.kind === 'budget') return `took more than ${(stop.budgetMs / 1000).toFixed(1)} s of CPU time, the budget for that much text`;
  if (stop.kind === 'heap') return `needed more than the ${stop.heapMb} MB of memory it is given`;
  return `failed (${stop.message.length > 200 ? `${stop.message.slice(0, 200)}…` : stop.message})`;
}

/**
 * CPU time the worker may cost before any text, in ms: loading docdrift's bundle and the Python
 * grammar (~0.3 s), with room for a machine whose other thread competes for the same core.
 */
export const PYTHON_WORKER_BUDGET_BASE_MS = 3000;

/**
 * CPU time the worker may cost per MiB of flag-file text, in ms. Measured (worker CPU, start-up
 * included): a 586 KB argparse module of 1,100 sub-parsers and 6,600 options (near the
 * 120,000-token cap for one source) 1.14 s, about 2 s per MiB, against a budget of 5.2 s; every
 * worker run of the bad-input corpus stays under 30% of its budget. Base and rate are
 * kept low so that a run stays within #33's 10 s: a module that runs past them does work that
 * grows faster than its text (s27 sweep2 D1: 737 KB, 16.2 s of CPU -> stopped at 5.9 s, flags unknown).
 */
export const PYTHON_WORKER_BUDGET_MS_PER_MIB = 4000;

/** The worker's CPU budget for flag files of `chars` code units in all, in ms (see {@link workerBudgetMs}). */
export function pythonFlagsBudgetMs(chars: number): number {
  return workerBudgetMs(chars, PYTHON_WORKER_BUDGET_BASE_MS, PYTHON_WORKER_BUDGET_MS_PER_MIB);
}

/**
 * Least total text of the flag files (UTF-16 code units) for which a worker thread is started by
 * `'auto'`: any. Up to s27 it was 512 KB (a worker costs ~0.1-0.2 s of CPU to load docdrift's
 * bundle and the Python grammar), so smaller flag files were read on the main thread with no CPU
 * budget, and seven valid modules of 2-220 KB there cost 13-35 s of CPU or gigabytes (s28 sweep:
 * fire, decli, click, typer, jsonargparse fan-outs). In the worker, the budget and the heap limit
 * bound every one of them. Measured (medians of 7 runs, --no-cache, a loaded 2-core machine): the
 * bundled example 0.66 -> 0.76 s CPU; aider 3.79 -> 3.97 s; litgpt 2.10 -> 2.30 s, wall 4.25 ->
 * 3.45 s (the worker runs beside the main thread); datamodel-code-generator 8.02 -> 8.06 s.
 */
export const PYTHON_WORKER_MIN_CHARS = 1;

/**
 * The worker's V8 old-space limit in MB. Flag extraction makes much short-lived garbage (a
 * 2.5 MB argparse module of 5,000 sub-parsers: 186 MB of heap used at the end, 12 MB live) and V8
 * grows a heap lazily, so without a limit that module's run peaked at 640-660 MB; with 256 MB,
 * 531 MB (the 3,000-sub-parser bad-input case: 493 → 417 MB), at the same speed. A worker that
 * reaches the limit is ended by Node, and the flags of its files are unknown, with one warning
 * (recomputing them on the main thread, with no limit, ran to a 4.3 GB abort: s28 sweep D5): 160 MB
 * was too little for the 5,000-sub-parser module.
 */
export const PYTHON_WORKER_HEAP_MB = 256;

/**
 * The worker's V8 young generation in MB. V8's default for a 256 MB heap (semi-spaces of up to
 * 16 MB, ~32-48 MB committed) is resident memory the process pays while the worker runs beside
 * the document worker and the main thread: NeMo Gym (178 flag modules, 1.8 MB) peaked at
 * 437 -> 411 MB with 16 MB (the same findings, the same CPU time within noise), 8 MB measured no
 * lower. As the TypeScript worker's (`TYPESCRIPT_WORKER_YOUNG_MB`, 8 MB).
 */
export const PYTHON_WORKER_YOUNG_MB = 16;

/**
 * Least text (UTF-16 code units) of the sources a run would scan on the main thread under the
 * class-field budget for a share of them to go to the scan worker ({@link startPythonScans}):
 * below it, starting a thread (loading docdrift's bundle and the grammar, ~0.2-0.3 s of CPU)
 * costs about what the share saves.
 */
export const PYTHON_SCAN_WORKER_MIN_CHARS = 512 * 1024;

/**
 * Which of `ranked` (the sources the class-field budget reads, in its order, none yet scanned)
 * the scan worker takes: the last ones, about half of their text, so that the main thread scans
 * the first ones meanwhile and reaches the worker's share last. None under
 * {@link PYTHON_SCAN_WORKER_MIN_CHARS} in all, with fewer than two cores, or on a large run
 * (`runFiles`, documents and sources, at least {@link LARGE_RUN_FILES}): there the second isolate
 * and the scans in flight cost more memory than the time is worth (synthetic 10x, 12,200 files:
 * peak RSS 454 -> 504 MB measured).
 *
 * @param ranked sources in the budget's order
 * @param chars text length of a source (UTF-16 code units)
 */
export function scanWorkerShare<S>(ranked: readonly S[], chars: (source: S) => number, cores = availableParallelism(), runFiles = 0): S[] {
  if (cores < 2 || runFiles >= LARGE_RUN_FILES) return [];
  const total = ranked.reduce((n, s) => n + chars(s), 0);
  if (total < PYTHON_SCAN_WORKER_MIN_CHARS) return [];
  let tail = 0;
  let i = ranked.length;
  while (i > 0 && tail + chars(ranked[i - 1] as S) <= total / 2) tail += chars(ranked[--i] as S);
  return ranked.slice(i);
}

/** Python scans being computed by the scan worker ({@link startPythonScans}). The promise never rejects. */
export interface PendingPythonScans {
  /** Path → [module name, scan]; `undefined` when the worker failed, was stopped or could not start. */
  scans: Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined>;
  /** Ends the worker if it still runs (its scans are no longer wanted); `scans` then gives `undefined` if it had not answered. */
  stop: () => void;
}

/** An annotated name at the start of an indented line (`    seed: int = 0`), to the line's end: about one class field (function parameters on lines of their own count too). */
const FIELD_LINE_RE = /^[ \t]+[A-Za-z_]\w*[ \t]*:[ \t]*[^\s=:][^\n]*/gm;
/** A `model_config = …` line in a class body (the class-field budget counts it as a field), to the line's end. */
const MODEL_CONFIG_LINE_RE = /^[ \t]+model_config[ \t]*=[^\n]*/gm;
/** A class statement (the class-field budget counts each class two fields). */
const CLASS_LINE_RE = /^[ \t]*class[ \t]/gm;

/**
 * About how many class fields the class-field budget would count in `text` (annotated names and
 * `model_config` at the start of indented lines, each weighed by {@link estimatedFieldCost}, plus
 * two per class): an over-estimate for fields on one line each, read from the text alone. The
 * scan worker is used only when the sources it could share hold fewer than the budget: where the
 * budget may stop reading (generated model modules), the worker would scan files that are then not
 * read (s47: sixty 165 KB model modules, 10 s bound missed).
 */
export function estimatedClassFields(text: string): number {
  let estimate = 2 * (text.match(CLASS_LINE_RE)?.length ?? 0);
  for (const [line] of text.matchAll(FIELD_LINE_RE)) estimate += estimatedFieldCost(line.trimStart());
  for (const [line] of text.matchAll(MODEL_CONFIG_LINE_RE)) estimate += estimatedFieldCost(line.trimStart());
  return estimate;
}

/**
 * About what a field on one line costs the budget (`fieldCost` in scan.ts), from its text: one per
 * `FIELD_COST_CHARS` characters, or one per 4 brackets, commas, colons, equals signs and quotes
 * (each comes with two or three syntax nodes), at least one.
 */
function estimatedFieldCost(line: string): number {
  let marks = 0;
  for (let i = 0; i < line.length; i++) if (COST_MARKS.has(line.charCodeAt(i))) marks++;
  return Math.max(1, Math.ceil(line.length / FIELD_COST_CHARS), Math.ceil(marks / 4));
}
const COST_MARKS = new Set([...'[](){},=:\'"'].map((c) => c.charCodeAt(0)));

/**
 * Starts the scan worker: the Python worker thread in `scanOnly` mode, parsing and scanning
 * `job.sources` while the main thread scans the others (`ExtractPythonOptions.shared`). Under the
 * same CPU budget per MiB and heap limit as the flags worker; a worker that runs past either, or
 * fails, gives `undefined` and the main thread scans those files itself (the scans are the same,
 * only slower). `undefined` where no compiled worker exists or it cannot start.
 */
export function startPythonScans(job: PythonFlagsJob): PendingPythonScans | undefined {
  if (!COMPILED || job.sources.length === 0) return undefined;
  let worker: Worker;
  const tid = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(new URL('./python-worker.js', import.meta.url), {
      workerData: { ...job, tid, scanOnly: true } satisfies PythonWorkerData,
      resourceLimits: { maxOldGenerationSizeMb: PYTHON_WORKER_HEAP_MB, maxYoungGenerationSizeMb: PYTHON_WORKER_YOUNG_MB },
    });
  } catch {
    return undefined;
  }
  let give!: (scans: ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined) => void;
  const scans = new Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined>((resolve) => (give = resolve));
  const stopWatch = watchWorkerCpu(worker, tid, pythonFlagsBudgetMs(job.sources.reduce((n, s) => n + s.text.length, 0)), () => give(undefined));
  const end = (value: ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined): void => {
    stopWatch();
    give(value);
  };
  // Batches arrive as the worker scans (neither thread holds a second copy of all the scans).
  const received = new Map<string, readonly [string, ModuleInfo]>();
  worker.on('message', (message: PythonFlagsMessage) => {
    if (message.kind === 'scan-batch') for (const [file, module, info] of message.scans) received.set(file, [module, info]);
    else end(message.kind === 'scans-done' ? received : undefined);
  });
  worker.once('error', () => end(undefined));
  worker.once('exit', () => end(undefined));
  return {
    scans,
    stop: () => {
      end(undefined);
      void worker.terminate().catch(() => {});
    },
  };
}

/** `true` when this module is the compiled JavaScript, next to which python-worker.js exists. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * Whether a run should extract Python flags in a worker: `'always'` and `'never'` decide
 * (tests compare both), `'auto'` when the flag files hold at least {@link PYTHON_WORKER_MIN_CHARS}
 * of text, whatever the number of cores (`cores` is kept for callers; it no longer decides). Never
 * when running from TypeScript source.
 */
export function wantsPythonWorker(mode: 'auto' | 'always' | 'never', totalChars: number, _cores = availableParallelism()): boolean {
  if (!COMPILED || mode === 'never') return false;
  // On one core too: the budget, not the second core, is what the worker is for now.
  return mode === 'always' || totalChars >= PYTHON_WORKER_MIN_CHARS;
}

/**
 * Starts the flag extraction of `job` in a worker thread. Returns `undefined` when no compiled
 * worker exists (running from TypeScript source, as vitest does) or it cannot start: the caller
 * computes in-thread. The worker ends on its own once it has answered.
 */
export function startPythonFlags(job: PythonFlagsJob): PendingPythonFlags | undefined {
  if (!COMPILED) return undefined;
  let worker: Worker;
  const tid = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(new URL('./python-worker.js', import.meta.url), { workerData: { ...job, tid } satisfies PythonWorkerData, resourceLimits: { maxOldGenerationSizeMb: PYTHON_WORKER_HEAP_MB, maxYoungGenerationSizeMb: PYTHON_WORKER_YOUNG_MB } });
  } catch {
    return undefined;
  }
  let giveScans!: (scans: ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined) => void;
  let giveFlags!: (flags: PythonFlagExtraction | undefined) => void;
  const scans = new Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined>((resolve) => (giveScans = resolve));
  const flags = new Promise<PythonFlagExtraction | undefined>((resolve) => (giveFlags = resolve));
  // A promise already settled ignores later calls: whatever ends the worker first settles both.
  const pending: PendingPythonFlags = { scans, flags };
  const budget = pythonFlagsBudgetMs(job.sources.reduce((n, s) => n + s.text.length, 0));
  const stopWatch = watchWorkerCpu(worker, tid, budget, () => {
    pending.stopped ??= { kind: 'budget', budgetMs: budget };
  });
  // Whether the worker began running code: a failure after that is the extraction's, and is not
  // run again in-thread; one before (the thread could not start) is computed in-thread.
  let online = false;
  worker.once('online', () => (online = true));
  const fail = (stop?: PythonWorkerStop): void => {
    stopWatch();
    if (online && stop) pending.stopped ??= stop;
    giveScans(undefined);
    giveFlags(undefined);
  };
  worker.on('message', (message: PythonFlagsMessage) => {
    if (message.kind === 'scans') giveScans(new Map(message.scans.map(([file, module, info]) => [file, [module, info] as const])));
    else if (message.kind === 'flags') {
      stopWatch();
      giveFlags(message.flags);
    } else if (message.kind === 'error') fail({ kind: 'error', message: message.error });
  });
  worker.once('error', (error: Error & { code?: string }) =>
    fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'heap', heapMb: PYTHON_WORKER_HEAP_MB } : { kind: 'error', message: error.message }),
  );
  worker.once('exit', () => fail({ kind: 'error', message: 'the worker thread ended without an answer' }));
  return pending;
}
