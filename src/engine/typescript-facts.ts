/**
 * The TypeScript part of stage "extract" (see `extractCode` in lint.ts): the programs package.json
 * `bin`s run, their config types and CLI flags. Behind the per-file cache as one piece, since
 * ts-morph resolves across files and costs ~0.5 s to load: a run whose TypeScript inputs are
 * unchanged neither loads nor runs it. A run that must compute it starts it early in a worker
 * thread ({@link startTypeScriptFacts}), in parallel with the Python extraction. The worker runs
 * under a CPU budget ({@link typeScriptFactsBudgetMs}): past it the worker is ended and the facts
 * are NOT computed again in-thread (the same unbounded work): the run goes on with them unknown,
 * one warning says so, and every bin's parameters are unknown ({@link overBudgetFacts}).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { InputDiagnostic, ConfigClass, UnreadProgram } from '../model/types.js';
import { firstCliLibraryUse } from '../extract/cli-libraries.js';
import { readPackageBins } from '../extract/package-bins.js';
import { watchWorkerCpu, workerBudgetMs } from '../shared/thread-cpu.js';
import type { FlagCommand } from '../extract/python/types.js';
import { sameReads, typeScriptInputsKey, type FactCache } from './facts.js';
import { alsoNotRead } from '../shared/strings.js';
import { MAX_TYPESCRIPT_RUN_TOKENS, TYPESCRIPT_TOKENS_PER_FILE, typeScriptSourcesOverBudget } from '../extract/typescript/budget.js';
import type { ParsedFiles } from '../extract/typescript/syntax.js';

/** A source that may define a CLI: it names yargs, commander, `parseArgs`, yargs-parser, or imports/requires arg, mri or minimist. */
const USES_PARSER = /\b(yargs|commander|parseArgs|yargs-parser)\b|(?:from\s*|require\(\s*)['"](?:arg|mri|minimist)['"]/;

/** What the TypeScript sources say. */
export interface TypeScriptFacts {
  classes: ConfigClass[];
  /** `bin:<name>` → qualified names of the config types it uses. */
  binConfigs: Array<[string, string[]]>;
  /** Targets (`bin:<name>`) of {@link binConfigs} whose types the program only builds from its parsed input (see `TypeScriptExtraction.binConfigsBuilt`). */
  binConfigsBuilt?: string[];
  flagCommands: FlagCommand[];
  /**
   * Bins (`bin:<name>`) named by the program they run (`.name()`, `.scriptName()`): of several
   * bins running one file, the command's name (see `BinFlags.named` of the flag extraction).
   */
  namedBins?: string[];
  /** TypeScript and JavaScript sources read. */
  sourceCount: number;
  /**
   * Bins whose program gave no flags and no config type, by target (`bin:<name>`): the first CLI
   * library their program reaches (two import hops), or their file when no source was found.
   */
  unreadPrograms?: Array<[string, UnreadProgram]>;
  /** Set when the extraction ran past its worker's CPU budget ({@link overBudgetFacts}): no type or flag of the sources was read. */
  overBudget?: true;
}

/** A file's text as read: `undefined` when it could not be read. */
type Read = (file: string) => string | undefined;

/**
 * A project file's size in bytes from its `stat` (an overlaid file's: its text's), `undefined`
 * when unknown: JavaScript program files over the cap are refused on it, before being read
 * (`findBinPrograms`).
 */
export type FileSize = (file: string) => number | undefined;

/** What makes two diagnostics the same warning: rule, place and text. */
function diagnosticKey(d: InputDiagnostic): string {
  return `${d.ruleId}\0${d.location.file}\0${d.location.line}\0${d.location.column}\0${d.message}`;
}

/**
 * Extracts the TypeScript facts; problems go to `diagnostics` (reads that fail, through `read`).
 * `size` gives a program file's size before it is read: one over the cap is never read.
 * `configTypes` are the names the config's `commands.<name>.config` give (`Options`,
 * `src/options.ts#Options`): the files that declare them, and what those import, get the run's
 * token budget first, with the bins' programs.
 */
export async function typeScriptFacts(
  tsSources: Array<{ file: string; text: string }>,
  packageJsons: Array<{ file: string; text: string }>,
  programFiles: string[],
  read: Read,
  diagnostics: InputDiagnostic[],
  size?: FileSize,
  configTypes: readonly string[] = [],
): Promise<TypeScriptFacts> {
  // The program each bin runs: TypeScript behind compiled output or a shim, or plain JavaScript.
  const { findBinPrograms, reachable } = await import('../extract/typescript/programs.js');
  const programs = findBinPrograms(packageJsons, tsSources, new Set(programFiles), read, size);
  // JavaScript program files past the size caps were not read (s28 sweep2 D4): one warning each,
  // and the bins that reach one have unknown flags (below).
  for (const { file, reason } of programs.tooLarge) {
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Not read: ${reason}, which docdrift does not parse within its memory bound; the CLI flags and config types of the bins that run it are unknown. Declare them in \`commands.<name>.flags\` of the docdrift config`,
      location: { file, line: 1, column: 1 },
    });
  }
  const tooLarge = new Map(programs.tooLarge.map(({ file, reason }) => [file, reason]));
  // Command files of an oclif folder past its cap are not parsed at all (#33 fresh sweep defect 9).
  const { oclifCommandFolders, trimOclifFolders } = await import('../extract/typescript/flags-oclif.js');
  const oclifTotals = new Map<string, number>();
  const trimmed = trimOclifFolders([...tsSources, ...programs.javascript], oclifCommandFolders(packageJsons), oclifTotals);
  // The run's token budget (s31 D5: 20 generated 240 KB modules, 2 million tokens, took the worker
  // to its heap limit after ~20 s): the bins' programs and what they import first, nearest first,
  // then the smaller sources. The rest is not parsed, said once, and a bin whose program reaches a
  // file left out has unknown flags (below, as for the JavaScript files not read for their size).
  // The files declaring the config's types count as programs here (s47 sweep K1: the config's
  // type was in the last of 3,000 modules).
  const hops = new Map<string, number>();
  const roots = [...programs.bins.flatMap((bin) => (bin.source === undefined ? [] : [bin.source])), ...configTypeFiles(trimmed, configTypes)];
  for (const root of new Set(roots)) {
    for (const [file, depth] of reachable(programs.imports, root, trimmed.length)) if (depth < (hops.get(file) ?? Infinity)) hops.set(file, depth);
  }
  // The command files of oclif folders are bounded by their own cap (`trimOclifFolders`) and
  // nothing imports them: they are not counted here, so no oclif command is lost unsaid.
  const commandFolders = oclifCommandFolders(packageJsons);
  const inCommandFolder = (file: string): boolean => commandFolders.some((d) => file.startsWith(d));
  const overBudget = new Set(typeScriptSourcesOverBudget(trimmed.filter((s) => !inCommandFolder(s.file)), (file) => hops.get(file) ?? Number.MAX_SAFE_INTEGER));
  const allSources = overBudget.size === 0 ? trimmed : trimmed.filter((s) => !overBudget.has(s.file));
  if (overBudget.size > 0) {
    const reason = `the TypeScript and JavaScript sources hold more than ${MAX_TYPESCRIPT_RUN_TOKENS.toLocaleString('en-US')} tokens, the limit for one run (each file counting ${TYPESCRIPT_TOKENS_PER_FILE} more, for what every file costs to read)`;
    for (const file of overBudget) tooLarge.set(file, reason);
    const [first, ...others] = [...overBudget];
    // The others are named for the config check too (`alsoUnread`): a config type declared in one
    // of them is unread, not missing.
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `TypeScript not read${alsoNotRead(others, 'sources')}: ${reason}; the config types declared there and the CLI flags of the bins whose programs reach them are unknown and not checked. Declare the flags in \`commands.<name>.flags\` of the docdrift config, or exclude large generated sources from \`sources\``,
      location: { file: first!, line: 1, column: 1 },
      ...(others.length > 0 ? { alsoUnread: others } : {}),
    });
  }
  const binSources = new Map(programs.bins.flatMap((b) => (b.source === undefined ? [] : [[b.path, b.source] as const])));
  const { extractTypeScript } = await import('../extract/typescript/index.js');
  // Each file is parsed once for both extractors (config types here, CLI flags below).
  const parsed: ParsedFiles = new Map();
  const ts = await extractTypeScript(allSources, packageJsons, binSources, parsed);
  diagnostics.push(...ts.diagnostics);
  const facts: TypeScriptFacts = { classes: ts.classes, binConfigs: [...ts.binConfigs].map(([bin, configs]) => [`bin:${bin}`, configs]), flagCommands: [], sourceCount: allSources.length };
  if (ts.binConfigsBuilt.size > 0) facts.binConfigsBuilt = [...ts.binConfigsBuilt].map((bin) => `bin:${bin}`);
  // CLI flags (yargs, commander, util.parseArgs, yargs-parser, arg, mri, minimist, oclif, clipanion, citty, cac, sade, meow) of the programs the bins run.
  // Files that use a parser, and the files they import (options objects defined elsewhere), two hops.
  // The command modules a yargs `.commandDir()` loads are imported by nobody: their folders are added,
  // as are the oclif command folders package.json files name.
  const { withCommandDirs } = await import('../extract/typescript/command-dirs.js');
  const oclifFolders = oclifCommandFolders(packageJsons);
  const flagFiles = withCommandDirs(
    new Set(
      allSources
        .filter((s) => USES_PARSER.test(s.text) || /\b(clipanion|citty)\b|@oclif\/|['"](?:cac|sade|meow)['"]/.test(s.text) || oclifFolders.some((d) => s.file.startsWith(d)))
        .map((s) => s.file),
    ),
    allSources,
  );
  for (const file of [...flagFiles]) for (const [reached] of reachable(programs.imports, file, 2)) flagFiles.add(reached);
  const flagSources = allSources.filter((s) => flagFiles.has(s.file));
  if (flagSources.length > 0 && programs.bins.length > 0) {
    const { extractTypeScriptFlags } = await import('../extract/typescript/flags.js');
    const { binFlagCommands } = await import('../extract/typescript/flags-bins.js');
    const tsFlags = await extractTypeScriptFlags(flagSources, workspacePackages(packageJsons), packageJsons, parsed, oclifTotals);
    // Both extractors parse a program's files: a file they both fail on (nested past what the
    // parser takes, a syntax error) is said once, not twice.
    const said = new Set(ts.diagnostics.map(diagnosticKey));
    diagnostics.push(...tsFlags.diagnostics.filter((d) => !said.has(diagnosticKey(d))));
    const binFlags = binFlagCommands(programs.bins, tsFlags.commands, programs.imports);
    facts.flagCommands = binFlags.commands;
    if (binFlags.named.length > 0) facts.namedBins = binFlags.named;
    // Config fields the program sets from its flags travel on the program's root command.
    for (const fc of facts.flagCommands) {
      const fieldFlags = fc.path.length === 0 ? ts.binFieldFlags.get(fc.target.slice('bin:'.length)) : undefined;
      if (fieldFlags) fc.fieldFlags = fieldFlags;
    }
  }
  // Bins read to nothing: what their program imports to build its command line, or that no
  // source was found for their file (compiled output not in the project).
  const texts = new Map(allSources.map((s) => [s.file, s.text]));
  const withFlags = new Set(facts.flagCommands.map((f) => f.target));
  const withConfig = new Set(facts.binConfigs.map(([target]) => target));
  const unread: Array<[string, UnreadProgram]> = [];
  // Targets said already, as a set (a scan of `unread` per bin was quadratic: 30 package.json files
  // of 1,000 bins took 6 s here, s22 sweep D5).
  const unreadTargets = new Set<string>();
  const say = (entry: [string, UnreadProgram]): void => {
    unreadTargets.add(entry[0]);
    unread.push(entry);
  };
  // A bin whose program reaches a file not read for its size has unknown flags, even where the
  // files read gave some: its flags come partly from text docdrift did not read.
  const cut = new Set<string>();
  if (tooLarge.size > 0) {
    for (const bin of programs.bins) {
      const target = `bin:${bin.name}`;
      if (bin.source === undefined || unreadTargets.has(target)) continue;
      const refused = [...reachable(programs.imports, bin.source, 2)].sort((a, b) => a[1] - b[1]).find(([file]) => tooLarge.has(file));
      if (refused === undefined) continue;
      cut.add(target);
      say([target, { kind: 'too-large', file: refused[0], reason: tooLarge.get(refused[0])! }]);
    }
    facts.flagCommands = facts.flagCommands.filter((fc) => !cut.has(fc.target));
  }
  for (const bin of programs.bins) {
    const target = `bin:${bin.name}`;
    if (withFlags.has(target) || withConfig.has(target) || unreadTargets.has(target)) continue;
    if (bin.unread !== undefined) {
      say([target, { kind: 'not-javascript', ...bin.unread }]);
      continue;
    }
    if (bin.source === undefined) {
      say([target, { kind: 'no-source', file: bin.path }]);
      continue;
    }
    const reached = [...reachable(programs.imports, bin.source, 2)].sort((a, b) => a[1] - b[1]).flatMap(([file]) => {
      const text = texts.get(file);
      return text === undefined ? [] : [{ file, text }];
    });
    const use = firstCliLibraryUse(reached);
    if (use) say([target, { kind: 'library', ...use }]);
  }
  if (unread.length > 0) facts.unreadPrograms = unread;
  return facts;
}

/** The inputs of {@link typeScriptFacts} as the worker thread gets them (structured-cloned), and how it reads other files. */
export interface TypeScriptJob {
  /** Absolute project root: other files (compiled JavaScript, shims) are read under it. */
  root: string;
  /** Edited texts by project-relative path (`--fix` passes), read instead of the files on disk. */
  overlay: Array<[string, string]>;
  /** Files not to read (`LintOptions.unreadable` in lint.ts): read as unreadable, never from disk. */
  unreadable?: string[];
  tsSources: Array<{ file: string; text: string }>;
  packageJsons: Array<{ file: string; text: string }>;
  programFiles: string[];
  /** The config's type names ({@link typeScriptFacts}' `configTypes`); none when absent. */
  configTypes?: string[];
}

/** What the worker is given: the job, and where it stores its Linux thread id for the CPU budget (`tid[0]`). */
export interface TypeScriptWorkerData extends TypeScriptJob {
  tid: Int32Array;
}

/**
 * CPU time the worker may cost before any text, in ms: loading docdrift's bundle and ts-morph
 * (~0.5 s) and reading the compiled JavaScript bins run, with room for a machine whose other
 * thread competes for the same core. (The type checker runs in a worker of its own under its
 * own budget; waiting for it costs this thread no CPU.)
 */
export const TYPESCRIPT_WORKER_BUDGET_BASE_MS = 3000;

/**
 * CPU time the worker may cost per MiB of TypeScript sources and package.json text, in ms.
 * Measured (worker CPU, start-up included): the costliest worker run of the bad-input corpus (either
 * worker) 1.37 s for 0.52 MiB of input, against a budget of 5.1 s; the others under 0.7 s. Kept low so that a run stays within
 * #33's 10 s: a source that runs past it does work that grows faster than its text (s27 sweep2
 * D6: 989 KB of commander aliases, 16.4 s of CPU -> stopped at 6.9 s, the bin's flags unknown).
 */
export const TYPESCRIPT_WORKER_BUDGET_MS_PER_MIB = 4000;

/** The worker's CPU budget for inputs of `chars` code units in all, in ms (see {@link workerBudgetMs}). */
export function typeScriptFactsBudgetMs(chars: number): number {
  return workerBudgetMs(chars, TYPESCRIPT_WORKER_BUDGET_BASE_MS, TYPESCRIPT_WORKER_BUDGET_MS_PER_MIB);
}

/**
 * The worker's answer: the facts, the extractors' own diagnostics, and every other file it read,
 * in order, with its text's key (`null`: unreadable), so that the main thread can read them again
 * (reporting what cannot be read, in the same order as computing in-thread would). `error` when
 * the extraction threw (a bug): the main thread then computes in-thread.
 */
export type TypeScriptJobAnswer = { facts: TypeScriptFacts; diagnostics: InputDiagnostic[]; reads: Array<[string, string | null]> } | { error: string };

/** TypeScript facts being computed in a worker thread ({@link startTypeScriptFacts}). */
export interface PendingTypeScriptFacts {
  /** {@link typeScriptInputsKey} of the inputs the worker got: its answer is used only for the same inputs. */
  key: string;
  /** The answer; `undefined` when the worker could not run or died (then the caller computes in-thread). Never rejects. */
  answer: Promise<TypeScriptJobAnswer | undefined>;
  /** Set when the run used the worker's answer (false while pending, and after a fallback to in-thread). */
  used: boolean;
  /** Set (to the budget, in ms of CPU time) when the worker was ended for running past it, before `answer` settles (to `undefined`). */
  expired?: number;
  /**
   * Set (to {@link TYPESCRIPT_WORKER_HEAP_MB}) when V8 ended the worker at its heap limit, before
   * `answer` settles (to `undefined`): like {@link expired}, the facts are then unknown, never
   * computed again in-thread (the same work with no limit).
   */
  heapDeath?: number;
  /** The input the budget was sized for, in bytes or code units: sources, package.json files and the JavaScript programs the bins run. */
  inputSize: number;
}

/**
 * The sources that declare one of `names` (the config's types: `Options`, `pkg.Options`, or
 * `src/options.ts#Options`, whose file is taken as it is): a type, interface, class, enum,
 * function or variable of that name, found in the text without parsing it. Order: the sources'.
 */
export function configTypeFiles(sources: ReadonlyArray<{ file: string; text: string }>, names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const files = new Set<string>();
  const bare = new Set<string>();
  for (const name of names) {
    const hash = name.lastIndexOf('#');
    if (hash > 0) files.add(name.slice(0, hash));
    else {
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (last.length > 0) bare.add(last);
    }
  }
  return sources.filter((s) => files.has(s.file) || [...bare].some((name) => declaresName(s.text, name))).map((s) => s.file);
}

/** Keywords that declare the name after them. */
const DECLARING = ['interface', 'type', 'class', 'enum', 'function', 'const', 'let', 'var', 'namespace'];

/** Whether `text` has `name` as a whole word right after a declaring keyword ({@link DECLARING}) and white space. */
function declaresName(text: string, name: string): boolean {
  const word = (c: string | undefined): boolean => c !== undefined && /[\w$]/.test(c);
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (word(text[at - 1]) || word(text[at + name.length])) continue;
    const before = text.slice(Math.max(0, at - 24), at);
    const trimmed = before.trimEnd();
    if (trimmed.length === before.length) continue;
    if (DECLARING.some((k) => trimmed.endsWith(k) && !word(trimmed[trimmed.length - k.length - 1]))) return true;
  }
  return false;
}

/**
 * The worker's V8 old-space limit in MB (as the Python flags worker's, `PYTHON_WORKER_HEAP_MB`).
 * ts-morph's syntax trees take ~110 MB of heap per MB of JavaScript parsed, and V8 grows a heap
 * lazily: with no limit a 4.8 MB bin/cli.js peaked at 559 MB RSS (s28 sweep2 D4). A worker that
 * reaches the limit is ended by Node, and every bin's flags and config types are unknown, with one
 * warning ({@link overBudgetFacts}); nothing is recomputed on the main thread. Measured peaks of
 * the real projects stay well under it (see the commit introducing it). Not lower: an oclif CLI of
 * 1,000 parsed command files (bad-input case `ts-oclif-many-files`) needs more than 192 MB.
 */
export const TYPESCRIPT_WORKER_HEAP_MB = 320;
/** The worker's V8 young generation in MB: V8's default (up to 48 MB with its semi-spaces) is resident memory the process pays on top of the old space (s31 D5: ~10-20 MB less peak RSS measured). */
export const TYPESCRIPT_WORKER_YOUNG_MB = 8;

/** `true` when this module is the compiled JavaScript, next to which typescript-worker.js exists. */
const COMPILED = import.meta.url.endsWith('.js');

/** Total size in bytes of the project-relative `files` under `root` (those that cannot be read count 0). */
function programBytes(root: string, files: readonly string[]): number {
  let total = 0;
  for (const file of files) {
    try {
      total += statSync(path.join(root, file)).size;
    } catch {
      // missing or unreadable: the worker reports it
    }
  }
  return total;
}

/**
 * Starts {@link typeScriptFacts} in a worker thread (src/engine/typescript-worker.ts), so that
 * loading ts-morph (~0.25 s) and extracting run while the main thread parses Python: on two
 * cores the document worker is idle for most of that time. Returns `undefined` where no compiled
 * worker exists (running from TypeScript source, as vitest does): the caller computes in-thread.
 * The worker keeps the process alive until it answers, so a started job is always awaited or
 * ends on its own.
 */
export function startTypeScriptFacts(job: TypeScriptJob): PendingTypeScriptFacts | undefined {
  if (!COMPILED) return undefined;
  let worker: Worker;
  const tid = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(new URL('./typescript-worker.js', import.meta.url), {
      workerData: { ...job, tid } satisfies TypeScriptWorkerData,
      resourceLimits: { maxOldGenerationSizeMb: TYPESCRIPT_WORKER_HEAP_MB, maxYoungGenerationSizeMb: TYPESCRIPT_WORKER_YOUNG_MB },
    });
  } catch {
    return undefined;
  }
  // The JavaScript programs the bins run are parsed too (a bundled 4.8 MB bin/cli.js is most of
  // the work): their sizes count, or such a project got the 3 s base and a false "not read"
  // (s28 sweep2 D4).
  const inputSize = [...job.tsSources, ...job.packageJsons].reduce((n, s) => n + s.text.length, 0) + programBytes(job.root, job.programFiles);
  const budget = typeScriptFactsBudgetMs(inputSize);
  const pending: PendingTypeScriptFacts = { key: typeScriptInputsKey(job.tsSources, job.packageJsons, job.programFiles, job.configTypes), answer: Promise.resolve(undefined), used: false, inputSize };
  const stopWatch = watchWorkerCpu(worker, tid, budget, () => {
    pending.expired = budget;
  });
  pending.answer = new Promise<TypeScriptJobAnswer | undefined>((resolve) => {
    const end = (message: TypeScriptJobAnswer | undefined): void => {
      stopWatch();
      resolve(message);
    };
    worker.once('message', (message: TypeScriptJobAnswer) => end(message));
    // A worker that cannot load or dies answers nothing: the caller computes in-thread (unless
    // it was ended for its budget, `expired`, or at its heap limit, `heapDeath`).
    worker.once('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') pending.heapDeath = TYPESCRIPT_WORKER_HEAP_MB;
      end(undefined);
    });
    worker.once('exit', () => end(undefined));
  });
  return pending;
}

/** Why a started TypeScript worker gave no facts: past its CPU budget (ms), or ended by V8 at its heap limit (MB). */
export type TypeScriptWorkerStop = { kind: 'budget'; budgetMs: number } | { kind: 'heap'; heapMb: number };

/**
 * The facts of a run whose worker ran past its CPU budget (`stop` a number of ms, or
 * `{ kind: 'budget' }`) or was ended at its heap limit (`{ kind: 'heap' }`): no config types and
 * no flags, every bin of `packageJsons` an unread program (`over-budget`, at its file), so that
 * its parameters are unknown rather than all missing. Pushes one `parse-error` warning to `diagnostics`.
 */
export function overBudgetFacts(
  tsSources: ReadonlyArray<{ file: string; text: string }>,
  packageJsons: ReadonlyArray<{ file: string; text: string }>,
  stop: number | TypeScriptWorkerStop,
  diagnostics: InputDiagnostic[],
  inputSize = [...tsSources, ...packageJsons].reduce((n, s) => n + s.text.length, 0),
): TypeScriptFacts {
  const why = typeof stop === 'number' ? { kind: 'budget' as const, budgetMs: stop } : stop;
  const clause = why.kind === 'budget' ? `took more than ${(why.budgetMs / 1000).toFixed(1)} s of CPU time, the budget for that much text` : `needed more than the ${why.heapMb} MB of memory it is given`;
  // The size counts the JavaScript programs the bins run too: a plain-JS bin was said to be "0 KB" (s28 sweep2 D4).
  const reason = `extracting the config types and CLI flags of the ${tsSources.length} TypeScript source${tsSources.length === 1 ? '' : 's'}, ${packageJsons.length} package.json file${packageJsons.length === 1 ? '' : 's'} and the programs the bins run (${(inputSize / 1024).toFixed(0)} KB) ${clause}`;
  const unread: Array<[string, UnreadProgram]> = [];
  const seen = new Set<string>();
  for (const pkg of packageJsons) {
    for (const bin of readPackageBins(pkg).bins) {
      const target = `bin:${bin.name}`;
      if (seen.has(target)) continue;
      seen.add(target);
      unread.push([target, { kind: 'over-budget', file: path.posix.join(path.posix.dirname(pkg.file), bin.file), reason }]);
    }
  }
  const at = tsSources[0]?.file ?? packageJsons[0]?.file ?? 'package.json';
  diagnostics.push({
    ruleId: 'parse-error',
    severity: 'warn',
    message: `TypeScript not read: ${reason}; the flags and config types of the ${unread.length} bin${unread.length === 1 ? '' : 's'} are unknown and not checked. Declare the flags in \`commands.<name>.flags\` of the docdrift config, or exclude large generated sources from \`sources\``,
    location: { file: at, line: 1, column: 1 },
  });
  return { classes: [], binConfigs: [], flagCommands: [], sourceCount: tsSources.length, overBudget: true, ...(unread.length > 0 ? { unreadPrograms: unread } : {}) };
}

/**
 * The facts for these inputs: the pending worker's when it computed the same inputs and every
 * file it read reads the same again through `read` (which reports unreadable ones to the run, as
 * computing in-thread does), else computed in-thread. The extractors' diagnostics go to `own`.
 */
async function factsFor(
  tsSources: Array<{ file: string; text: string }>,
  packageJsons: Array<{ file: string; text: string }>,
  programFiles: string[],
  read: Read,
  diagnostics: InputDiagnostic[],
  own: InputDiagnostic[],
  pending: PendingTypeScriptFacts | undefined,
  forgetReads?: () => void,
  size?: FileSize,
  configTypes: readonly string[] = [],
): Promise<{ facts: TypeScriptFacts; store: boolean }> {
  if (pending && pending.key === typeScriptInputsKey(tsSources, packageJsons, programFiles, configTypes)) {
    const answer = await pending.answer;
    // Past its budget: not computed again in-thread, and not stored (it depends on the machine's load).
    if (!answer && pending.expired !== undefined) return { facts: overBudgetFacts(tsSources, packageJsons, pending.expired, own, pending.inputSize), store: false };
    // Ended at its heap limit: not recomputed in-thread either (the same work with no limit: s28 sweep2 D4).
    if (!answer && pending.heapDeath !== undefined) return { facts: overBudgetFacts(tsSources, packageJsons, { kind: 'heap', heapMb: pending.heapDeath }, own, pending.inputSize), store: false };
    if (answer && !('error' in answer)) {
      const before = diagnostics.length;
      if (sameReads(answer.reads, read, size)) {
        own.push(...answer.diagnostics);
        pending.used = true;
        return { facts: answer.facts, store: true };
      }
      // A file changed while the worker ran: compute again, reporting (and recording) its reads once.
      diagnostics.length = before;
      forgetReads?.();
    }
  }
  return { facts: await typeScriptFacts(tsSources, packageJsons, programFiles, read, own, size, configTypes), store: true };
}

/**
 * {@link typeScriptFacts} through the run's fact cache (`FactCache.typeScriptFacts`,
 * src/engine/facts.ts): keyed by the TypeScript sources, the package.json files and the program
 * list, and used only when every other file read on the way (compiled JavaScript, shims) reads the
 * same text again (and each file refused on its `size` has that size again). A run that uses it
 * reports the same diagnostics in the same order as one that computes.
 */
export async function cachedTypeScriptFacts(
  cache: FactCache,
  tsSources: Array<{ file: string; text: string }>,
  packageJsons: Array<{ file: string; text: string }>,
  programFiles: string[],
  read: Read,
  diagnostics: InputDiagnostic[],
  pending?: PendingTypeScriptFacts,
  size?: FileSize,
  configTypes: readonly string[] = [],
): Promise<TypeScriptFacts> {
  return cache.typeScriptFacts({ tsSources, packageJsons, programFiles, configTypes }, { read, size }, diagnostics, (io, own) =>
    factsFor(tsSources, packageJsons, programFiles, io.read, diagnostics, own, pending, io.forgetReads, io.size, configTypes),
  );
}

/** Package name → project-relative directory, for every package.json with a string `name` (the first of a name wins). */
function workspacePackages(packageJsons: ReadonlyArray<{ file: string; text: string }>): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, text } of packageJsons) {
    let name: unknown;
    try {
      name = (JSON.parse(text) as { name?: unknown } | null)?.name;
    } catch {
      continue; // reported where package.json files are read
    }
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    if (typeof name === 'string' && name !== '' && !out.has(name)) out.set(name, dir);
  }
  return out;
}
