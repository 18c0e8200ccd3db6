/**
 * Parsing documents under a time and memory budget, so one hostile document can never stall or
 * kill a run.
 *
 * micromark and docdrift's readers take more than linear time on some inputs well under the
 * 1 MiB size cap (about 1 MB of `a\n===` setext pairs, a pipe-heavy table, 60 KB of setext
 * underlines, 100 KB of `*_`, an unclosed JSX tag in MDX: minutes and gigabytes). No cheap scan
 * of the text can tell all of them from a real page, so every document is parsed in one
 * long-lived worker thread with a V8 heap limit (`resourceLimits`), and the main thread waits for
 * each answer with a deadline ({@link docTimeBudgetMs}). A document that runs over is a
 * `parse-error` warning naming it; the worker is terminated and a fresh one parses the rest.
 * The run as a whole is bounded too: by the time documents over their budget may cost it
 * ({@link RUN_OVERRUN_LIMIT_MS}), by a parse budget for all documents ({@link runParseBudgetMs}),
 * by an absolute ceiling on what parsing costs it, garbage collection included
 * ({@link RUN_PARSE_CEILING_MS}), and by the text of large documents it reads ({@link RUN_LARGE_DOCUMENTS_LENGTH}).
 *
 * Why one worker and a synchronous wait: a worker per document costs its start-up (loading
 * remark, ~0.2 s) per document; one worker costs it once, and starts while the main thread
 * extracts code, so a normal run is not slower. The wait is synchronous (`Atomics.wait` on a
 * shared flag, then `receiveMessageOnPort`, as synckit does) because documents are also parsed
 * lazily, from inside the model builder, when a link points at one.
 *
 * When this module runs from TypeScript source (vitest), there is no compiled worker: documents
 * are parsed in the calling thread, without a budget (the built CLI, which the bad-input corpus
 * runs, always has one).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { DocFile, InputDiagnostic } from '../model/types.js';
import { RunCancelled } from '../shared/cancelled.js';
import { helperThreadsCpuMs, threadCpuMs, WALL_FACTOR } from '../shared/thread-cpu.js';
import { documentOverLimits, MAX_DOCUMENT_LENGTH, overLimitsOutcome } from './limits.js';
import type { SuppressionDirective } from './directives.js';
import type { MarkdownSegment } from './segments.js';

/** A request to the worker. */
export interface ParseRequest {
  id: number;
  file: string;
  text: string;
  /** Parse the document (parseDoc). */
  doc: boolean;
  /** Read its suppression comments (readDirectives). */
  directives: boolean;
  /** The document's stored segments, or null for none yet: parse it in segments (see `parseDoc`). */
  segments?: readonly MarkdownSegment[] | null;
}

/** The worker's answer to one request. */
export interface ParseResponse {
  id: number;
  doc?: DocFile;
  diagnostics: InputDiagnostic[];
  directives: SuppressionDirective[];
  /** The segments to store for the document's next parse, when the request asked for them and it could be cut. */
  segments?: MarkdownSegment[];
  /** A message when the readers threw (a bug): the document counts as unreadable. */
  error?: string;
  /**
   * Set by the main thread (never the worker) when the document itself ran over its budget, of
   * time or memory, and was stopped: its `parse-error` outcome says so (see `ownOverrun`).
   */
  overran?: true;
  /**
   * Set by the main thread (never the worker) when the document was stopped or not parsed because
   * the run's parse cost had reached {@link RUN_PARSE_CEILING_MS}: the caller reports such pages
   * together, in one `parse-error` warning (src/engine/lint.ts `parseDocs`).
   */
  runCeiling?: true;
}

/** What the run-wide limits of {@link createDocParser} cost so far (see {@link DocParser.overruns}). */
export interface ParseOverruns {
  /** Documents that ran over their own budget. */
  documents: number;
  /** Of those, how many ran with the shorter budget (after the first had run over its own). */
  shortened: number;
  /** Documents not parsed because overruns had cost {@link RUN_OVERRUN_LIMIT_MS}. */
  skipped: number;
  /** Documents stopped or not parsed because the run-wide parse budget ({@link runParseBudgetMs}) was spent. */
  runBudgetSkipped: number;
  /** Large documents not parsed because {@link RUN_LARGE_DOCUMENTS_LENGTH} was reached. */
  largeSkipped: number;
  /** Documents stopped or not parsed because the run's parse cost reached {@link RUN_PARSE_CEILING_MS}. */
  ceilingSkipped: number;
  /** CPU time the worker spent parsing, in milliseconds (0 where it cannot be read). */
  parseMs: number;
  /**
   * What parsing cost the run as {@link RUN_PARSE_CEILING_MS} counts it, in milliseconds of CPU
   * time: `parseMs` plus what V8's helper threads spent while the caller waited for the worker
   * (since the last {@link DocParser.startRun}); 0 where it cannot be read.
   */
  costMs: number;
}

/** What {@link DocParser.parse} returns: the DocFile when asked for, diagnostics and directives. */
export type ParseOutcome = Omit<ParseResponse, 'id' | 'error'>;

/** A parser of documents; {@link createDocParser}. */
export interface DocParser {
  /**
   * Parses one document and/or reads its suppression comments, within the budget. An overrun or
   * a crash of the worker gives an empty DocFile and a `parse-error` warning.
   *
   * @throws {ParserLoadError} only when the worker's own module cannot be loaded (a broken install)
   */
  parse(file: string, text: string, what: ParseWhat): ParseOutcome;
  /**
   * Starts parsing a document the caller will ask for later with the same arguments, so the
   * worker parses while the caller does other work; `parse` then only collects the answer. The
   * budget still applies per document. Optional: a parser without it parses on `parse`.
   */
  prefetch?(file: string, text: string, what: ParseWhat): void;
  /**
   * The stored outcome of `what` for the file on disk, found without its text (the per-file
   * cache's parser, `FactCache.docParser` in src/engine/facts.ts, keys it by the file's content
   * hash); `undefined` when none is stored. Optional: a parser without a store has none.
   */
  cached?(file: string, what: ParseWhat): ParseOutcome | undefined;
  /** True when {@link cached} would answer (nothing is decoded). */
  isCached?(file: string, what: ParseWhat): boolean;
  /**
   * Counts a document answered without parsing (a stored outcome) of `length` UTF-16 code units
   * toward the run's limit on large documents ({@link RUN_LARGE_DOCUMENTS_LENGTH}), as a parse
   * would: decided once per file. Returns the `parse-error` outcome to use instead of the stored
   * one when the limit refuses it, else undefined. Optional: a parser without the limit has none.
   */
  admit?(file: string, length: number, what: ParseWhat): ParseOutcome | undefined;
  /**
   * Decides, before any document is parsed, whether the stored outcome of `file` counts toward the
   * run's limits (see `FactCache.docParser` in src/engine/facts.ts), so that stored pages keep their
   * place ahead of pages parsed afresh. Optional.
   */
  reserve?(file: string, what: ParseWhat): void;
  /**
   * Replaces the stored outcome of `file` (parsed from `text`) by `outcome`, the same parse without
   * the reference rows the run's limit cut (`withoutRunRows`, src/engine/document-caps.ts), so that
   * the store does not hold rows no run reads while the limit stands. A stored outcome so cut is
   * answered by {@link cached} and `parse` as any other; the caller parses the page again with
   * {@link reparse} when its limit would not cut it. Does nothing when no outcome of `file` is
   * stored. Optional: a parser without a store has none.
   */
  storeCut?(file: string, text: string, what: ParseWhat, outcome: ParseOutcome): void;
  /** As `parse`, never answered from the store (its outcome replaces the stored one). Optional. */
  reparse?(file: string, text: string, what: ParseWhat): ParseOutcome;
  /**
   * Stores the outcomes parsed since the last call (a store's parser keeps them unstored until
   * then, so that `storeCut` can replace them uncopied); `close` does it too. Call it before
   * changing what `parse` returned. Optional: a parser without a store has none.
   */
  flush?(): void;
  /**
   * How many documents ran over their budget so far, how many of them after the first had
   * (with the shorter budget), and how many were not
   * parsed once {@link RUN_OVERRUN_LIMIT_MS} was. Optional: a parser without a budget has none.
   */
  overruns?(): ParseOverruns;
  /**
   * Starts a new run for {@link RUN_PARSE_CEILING_MS}: what was spent before no longer counts
   * toward it. The language server calls it before each lint (its parser serves up to
   * `PARSER_LINTS` of them); a CLI run's parser serves one run and needs no call. Optional.
   */
  startRun?(): void;
  /** Stops the worker (idempotent). */
  close(): void;
}

/**
 * CPU-time budget for one piece of work inside a document, in milliseconds: 1 s plus 24 ms per
 * KiB of the piece's text (UTF-16 code units). A piece is what the parser reports through
 * src/docs/progress.ts: a piece of about 8 KB of a long Markdown page (`parseInPieces`), a
 * shorter page or an MDX or reStructuredText page whole, or docdrift's readers over the finished
 * tree. Real pieces cost 4-8 ms per KiB on an idle 2-core machine (prose 3.7, a table of
 * 30,000 rows 7.9, a table of 999 columns 14.6; measured with `parseDoc`), so an 8 KB piece has
 * ten times its cost and more; the hostile inputs grow faster than their length inside one piece
 * that cannot be cut (30 KB of `*_`: 5 s, 60 KB: 35 s; 30 KB of setext underlines: 11 s), so
 * they are stopped within about 1-2 s. The fixed second covers a cold start (the worker's first
 * document runs before its code is optimised).
 */
export function pieceTimeBudgetMs(length: number): number {
  return 1000 + Math.ceil((24 * length) / 1024);
}

/**
 * The CPU time, in milliseconds, a piece that cannot be cut is predicted to cost when parsing its
 * first `probeLength` code units (its probe, `probedPiece` in src/docs/progress.ts) cost
 * `probeMs`: the probe's cost per code unit times the piece's `wholeLength`, after taking
 * {@link PROBE_COLD_MS} off the probe (a fresh worker's first parse runs before its code is
 * optimised). A lower bound where the parse grows faster than its length. The document is
 * stopped at once when what it cost plus this is over its budget: 391 KB of `- a` items, whose
 * 48 KB probe cost about 2 s, would have cost 16 s and died at the heap limit (#33 s42 sweep E2);
 * real pieces of that kind (a 338 KB change log parsed whole) probe in 0.25-0.6 s and are
 * predicted 2 s or less.
 */
export function probeWholeMs(probeMs: number, probeLength: number, wholeLength: number): number {
  if (probeLength <= 0) return 0;
  return Math.round((Math.max(0, probeMs - PROBE_COLD_MS) * wholeLength) / probeLength);
}

/**
 * How many times its own thread's CPU time V8's helper threads may spend on a document (garbage
 * collection and compilation, in parallel) before the rest counts toward its budgets: 1.25. Real
 * pages stay under it (NeMo Gym's 768 pages 1.13 in all; an 847 KB change log 1.13); a worker
 * whose heap nears its limit waits for them (a page that died at 192 MB: 1.7, most of it at the
 * end), and their time is then what makes the run long (#33 s42 sweep E2).
 */
export const HELPER_ALLOWANCE = 1.25;

/** What a document cost, in ms of CPU time, from its thread's time `own` and the helper threads' `helpers` since it started: `own` plus what `helpers` is over {@link HELPER_ALLOWANCE} times `own`. */
export function helpersBeyond(own: number, helpers: number): number {
  return own + Math.max(0, helpers - HELPER_ALLOWANCE * own);
}

/** CPU time, in milliseconds, {@link probeWholeMs} takes off a probe's cost for a cold start. */
export const PROBE_COLD_MS = 500;

/**
 * CPU-time budget for one document, in milliseconds: 2 s plus 16 s per MiB of text (UTF-16
 * code units), at most {@link DOC_MAX_MS} (6 s; 18 s for the largest document read before).
 * Superlinear pieces are stopped by {@link pieceTimeBudgetMs} long before, and a page of many
 * slow pieces, each under its own budget, by {@link DOC_MAX_MS_PER_KIB}; this bounds the rest.
 * Real pages parse at 4-10 s of CPU per MiB on an idle 2-core machine, readers included (a
 * 487 KB reference table of 30,000 rows: 4.6 s; 700 KB of 10,000 sections each with a table:
 * 4.8 s), and a loaded machine slows them further: with 2 s + 4 s per MiB, the 487 KB table ran
 * over on an idle machine and the 700 KB page in CI (#33, session 19). CPU time, read from `/proc/self/task/<tid>/stat` for the worker's thread, grows
 * less with the machine's load than wall-clock time; where `/proc` is missing,
 * {@link WALL_FACTOR} times the budget in wall-clock time applies.
 */
export function docTimeBudgetMs(length: number): number {
  return Math.min(DOC_MAX_MS, 2000 + Math.ceil((16_000 * length) / (1024 * 1024)));
}

/**
 * Most CPU time one document may cost, in milliseconds, whatever its length: 6 s. Without it a
 * page near the 1 MiB size limit had up to 18 s (2 s plus 16 s per MiB), and one such page
 * parsing at a real table's rate or a little slower (a 977 KB table of 100,000 rows, 792 KB of
 * setext headings, 977 KB of nested list markers) ran 16-32 s (#33 s24 sweep D1-D4), over the
 * 10 s a run may take. Real pages parse at 4-10 s of CPU per MiB, so a page over about 600 KB
 * that is all table may now be skipped with its `parse-error` warning; prose and code of 1 MiB
 * still parse (3.7 s per MiB).
 */
export const DOC_MAX_MS = 6000;

/**
 * Most CPU time a document may cost per KiB of the text its parser has reached (the pieces
 * started so far, src/docs/progress.ts), in milliseconds, once it has cost
 * {@link DOC_RATE_GRACE_MS}: 40, five times a real table's cost on an idle 2-core machine (7.9;
 * prose 3.7) and twice it on a loaded one. A page of many pieces that are each slow but under
 * their own budget (8 KB of `*_`: about 60 ms per KB) is stopped after about 2 s instead of its
 * whole {@link docTimeBudgetMs}.
 */
export const DOC_MAX_MS_PER_KIB = 40;

/** CPU time, in milliseconds, a document may cost before {@link DOC_MAX_MS_PER_KIB} applies (a short page's cold start). */
export const DOC_RATE_GRACE_MS = 2000;

/**
 * The run-wide parse budget, in milliseconds of the document worker's CPU time: 4 s plus 12 s
 * per MiB of the documents parsed so far (UTF-16 code units, the document in progress
 * included; documents over their own budget are left out, time and text, as the overrun limits
 * below bound them). Real Markdown parses at 4-10 s per MiB (see {@link docTimeBudgetMs}), so a
 * run of real pages, however many, stays within it; pages that each stay under their own budget but parse at 20 times that
 * rate (24 KB of `*_`, 2 s each: #33 fresh sweep D1, 30 pages took 74 s) spend it after a few:
 * the page in progress is stopped, and every document not parsed by then is skipped, each with a
 * `parse-error` warning that says so. Not applied where the worker's CPU time cannot be read. It
 * grows with the text parsed, so it bounds no run by itself: {@link RUN_PARSE_CEILING_MS} does.
 */
export function runParseBudgetMs(parsedLength: number): number {
  return RUN_PARSE_BASE_MS + Math.ceil((RUN_PARSE_MS_PER_MIB * parsedLength) / (1024 * 1024));
}

/** The fixed part of {@link runParseBudgetMs}, in milliseconds. */
export const RUN_PARSE_BASE_MS = 4000;

/** The part of {@link runParseBudgetMs} per MiB of documents parsed, in milliseconds. */
export const RUN_PARSE_MS_PER_MIB = 12_000;

/**
 * Most CPU time, in milliseconds, parsing documents may cost one run, whatever their number and
 * size: 8 s. {@link runParseBudgetMs} grows with the text parsed and so bounds nothing absolute:
 * 40 pages of 30 KB of nested `> - ` took 23 s, 80 took 39 s, 600 real-looking 50 KB pages 50 s
 * (#33 s46 sweep H11). What is counted is the whole cost of parsing: the document worker's thread
 * CPU time (every document, those over their own budget included), plus the CPU time of V8's
 * helper threads while the caller waits for the worker (garbage collection and compilation, done
 * in parallel for the worker's heap; nothing else runs then). Pages of nested quotes and lists
 * spend more there than on the worker's thread (one 190 KB page: 2.5 s on it, 3.7 s on the
 * helpers, #33 s46 sweep H7), which the thread's clock does not see. The garbage collector's
 * pauses hold the worker's thread while the helpers work, so on an idle machine the parse's
 * wall-clock time is at most about this cost; the rest of a run over a small project (start-up,
 * discovery, extraction, model, rules, output) takes under 1 s, so 8 s keeps it within the 10 s a
 * run may take. Real projects cost at most half of it: of the corpus's 131 entries, paperless-ngx-env
 * 4.0 s counted so, fastmcp and NeMo Gym (the most lines of documents, 48,000) 3.5 s,
 * datamodel-code-generator 3.3 s, every other under 2.2 s (s47, a loaded 2-core machine). Pages past it, in parse order (src/engine/parse-order.ts: likely references and short
 * pages first), are not parsed, the one in progress is stopped, and the run reports them in one
 * `parse-error` warning. Not applied where the worker's CPU time cannot be read (no `/proc`).
 */
export const RUN_PARSE_CEILING_MS = 8000;

/**
 * Documents of at least this length (UTF-16 code units) are "large": their lengths count
 * toward {@link RUN_LARGE_DOCUMENTS_LENGTH}.
 */
export const LARGE_DOCUMENT_LENGTH = 128 * 1024;

/**
 * Most text of large documents ({@link LARGE_DOCUMENT_LENGTH} or more) one run parses, in UTF-16
 * code units: 1 Mi, one page at the size limit or a few of 200-300 KB. Each parses within its
 * budget, but the parse, model, rules and findings of many of them do not fit 10 s and 512 MB
 * (#33 fresh sweep D4: five 500 KB reference tables of 30,000 rows, 25-31 s and 693-726 MB; two
 * of them still took 11-12 s of CPU on a loaded 2-core machine). A large document that would go
 * over it is skipped with a `parse-error` warning naming the limit, decided in the order the run
 * meets them; smaller documents are still parsed.
 */
export const RUN_LARGE_DOCUMENTS_LENGTH = 1024 * 1024;

/**
 * CPU time, in milliseconds, that documents running over their budget may cost one run in all,
 * once at least {@link RUN_OVERRUN_LIMIT_DOCUMENTS} did: every document not parsed yet is then
 * skipped, unparsed, with a `parse-error` warning naming this limit (#33 D10: with the shorter
 * budget alone, 20 such pages still took 22 s, N pages about 1 s each). Two documents of about
 * 100 KB over their budget (2.4 s each) and one over the shorter budget, or one over the full
 * {@link DOC_MAX_MS} and one over {@link RUN_FINAL_DOC_MS}, reach it; a run of real
 * pages, where a document over budget is rare (a page near the 1 MiB limit), never does. Was 8 s
 * until the fresh sweep's 10 s bound for a whole run (#33 fresh sweep D1), then 5 s until two
 * pages stopped by {@link DOC_MAX_MS_PER_KIB} (2.4 and 2.5 s) let a third run (#33 s39 sweep D3:
 * twelve hostile pages, 6.5 s of the worker's CPU, 9-11.5 s wall). Documents within their
 * budget that are slow for their size are bounded by {@link runParseBudgetMs} instead.
 */
export const RUN_OVERRUN_LIMIT_MS = 4000;

/**
 * Documents that must have run over their budget before {@link RUN_OVERRUN_LIMIT_MS} stops parsing
 * (one large slow page alone never does). Was 3 until two 410 KB hostile pages and a third took
 * 9-10 s of CPU (#33 s39 sweep D3).
 */
export const RUN_OVERRUN_LIMIT_DOCUMENTS = 2;

/**
 * The most CPU time, in milliseconds, a document may cost once documents over their budget have
 * cost the run {@link RUN_OVERRUN_LIMIT_MS} (one page at the full {@link DOC_MAX_MS}) and fewer
 * than {@link RUN_OVERRUN_LIMIT_DOCUMENTS} did: the {@link strictDocTimeBudgetMs} budget, at most
 * 1 s. A real page of 150 KB parses within it (4-6 ms per KiB on an idle 2-core machine); a second
 * hostile page costs 1 s instead of its 2.1 s shorter budget, so a run of two 410 KB hostile pages
 * spends about 7 s of the worker's CPU instead of 8.9 (#33 s39 sweep D3: 10.5 s wall on an idle
 * machine, 19-20 s on a loaded one).
 */
export const RUN_FINAL_DOC_MS = 1000;

/**
 * The budget per document once one has run over its own: 0.5 s plus 4 s
 * per MiB (about 0.9 s for 100 KB, 4.5 s for the largest document read). Real pages of that size
 * parse in a fraction of it; a long reference table near 1 MiB may not, and is then skipped with
 * a warning that says why. N hostile pages then cost about 1 s each instead of 3.5 s (#33 D7: ten
 * pages of `*_` took 145 s on a loaded machine). Until the s40 sweep it began once overruns had
 * cost the run 2.5 s: a first page that died at the heap limit after 2.3 s, or one stopped by its
 * rate after 2.4 s, left the next one its full 6 s (five 400 KB pages: 11.8 s wall and 16 s of
 * CPU on a quiet machine, the V8 helper threads' garbage collection included).
 */
export function strictDocTimeBudgetMs(length: number): number {
  return 500 + Math.ceil((4000 * length) / (1024 * 1024));
}

/**
 * Heap limit of the worker (V8 old generation), in MiB. Long pages are parsed in pieces
 * (`parseInPieces`, src/docs/segments.ts), so a real page needs far less: a 500 KB table of
 * 30,000 rows peaks under 128 MB, 10,000 sections under 96 MB. A page parsed whole (one with
 * link reference definitions) that needs more is skipped with a warning; with 512 MB, the run of
 * one such page peaked at 667 MB resident (#33 D9), over the 512 MB the bad-input corpus allows
 * (the main thread and the young generations come on top). Shared by all documents in turn.
 */
export const WORKER_HEAP_MB = 192;

/**
 * Young-generation sizes of the worker's heap, in MiB, and the run size that picks between them
 * ({@link workerYoungGenerationMb}).
 */
export const YOUNG_GENERATION_MB = { small: 16, large: 32 } as const;

/** Runs with at least this many documents and source files get the small young generation. */
export const LARGE_RUN_FILES = 4000;

/**
 * Young-generation size of the worker's heap for a run over `files` documents and source files
 * (as discovered), in MiB: 32 below {@link LARGE_RUN_FILES}, else 16.
 *
 * Parsing makes short-lived garbage fast: with 16 MiB, mdast trees outlive the nursery and
 * garbage collection took 20 % of the worker's time on NeMo Gym (~1.1 s); with 64 MiB the cold
 * run took 5.8 instead of 6.5 s (767 documents, 1,052 sources; peak RSS 295 → 378 MB). The
 * larger nursery is ~55 MB more resident memory, which a large repository, whose main thread
 * holds more facts at the peak, cannot afford within issue #15's 400 MB (synthetic 10×, 4,200
 * documents and 8,010 sources: 367 → 422 MB). 64 MiB was the large size until NeMo Gym, whose
 * run also has a Python flag worker beside the document worker, peaked at 415-421 MB with it and
 * 370-373 MB with 32 MiB (issue #35; worker live heap ~13 MB, its committed heap ~110 MB),
 * at the same cold time on a loaded 2-core machine (3 alternating runs each, medians 34.4 and
 * 30.3 s wall, 17.7 and 16.0 s CPU).
 */
export function workerYoungGenerationMb(files: number | undefined): number {
  return files !== undefined && files < LARGE_RUN_FILES ? YOUNG_GENERATION_MB.large : YOUNG_GENERATION_MB.small;
}

/** How long the main thread waits for a fresh worker to load the parsers before its first document's budget starts. */
const WORKER_START_MS = 60_000;

/** `true` when this module is the compiled JavaScript (so the compiled worker exists next to it). */
const COMPILED = import.meta.url.endsWith('.js');

/** The overrun diagnostic. */
/**
 * {@link overrun} of a document that itself ran over its budget (time per document or piece, rate,
 * memory), marked `overran`: not one the run's limits stopped or skipped for what other documents
 * cost. Such an outcome is kept for the page's unchanged text: by the language server in memory
 * (src/lsp/server.ts) and by the per-file cache (`FactCache.docParser`, src/engine/facts.ts).
 */
function ownOverrun(file: string, text: string, reason: string): ParseOutcome {
  return { ...overrun(file, text, reason), overran: true };
}

function overrun(file: string, text: string | number, reason: string): ParseOutcome {
  const length = typeof text === 'number' ? text : text.length;
  const kind: DocFile['kind'] = /\.mdx$/i.test(file) ? 'mdx' : /\.(?:rst|rest)$/i.test(file) ? 'rst' : 'md';
  return {
    doc: { file, kind, headings: [], blocks: [], codeBlocks: [], invocations: [], links: [] },
    diagnostics: [
      {
        ruleId: 'parse-error',
        severity: 'warn',
        message: `Not read: ${reason}; the document (${(length / 1024).toFixed(0)} KB) is skipped so that the run ends. Simplify or split it, or exclude it with "ignore"`,
        location: { file, line: 1, column: 1 },
      },
    ],
    directives: [],
  };
}

/**
 * The worker's first code (CommonJS, run with `eval`): it imports parse-worker.js and, if that
 * fails (a broken install: the file missing or unloadable), sets the loaded flag to -1 with the
 * reason on the port, so the waiting main thread stops at once instead of waiting out
 * {@link WORKER_START_MS}.
 */
const WORKER_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.url).catch((error) => {
  workerData.port.postMessage({ id: 0, loadError: String((error && error.message) || error) });
  Atomics.store(workerData.flag, 1, -1);
  Atomics.notify(workerData.flag, 1);
});
`;

/**
 * Thrown when the document worker cannot load its module (parse-worker.js next to
 * bounded-parse.js): docdrift's installation is broken, which no input can cause or fix.
 */
export class ParserLoadError extends Error {
  constructor(reason: string) {
    super(`the document parser could not start (${reason}); reinstall docdrift`);
    this.name = 'ParserLoadError';
  }
}

/** One live worker and its channel. */
interface Live {
  worker: Worker;
  port: MessagePort;
  /** [0]: id of the last answered request (starts at the id before the worker's first request); [1]: 1 once the worker has loaded; [2]: the worker's thread id (Linux), or 0; [3]: its thread's CPU time in ms once loaded; [4]: how many pieces of work it has started (src/docs/progress.ts); [5]: the length of the last one; [6]: the lengths of the pieces of the document in progress, summed; [7]: while the piece is a probe, the length of the piece it probes, else 0. */
  flag: Int32Array;
  ready: boolean;
  /** The worker thread's CPU time last read, in ms (kept for when the thread is gone). */
  lastCpu?: number;
}

/**
 * A document parser: a budgeted worker in the built CLI, the calling thread under vitest
 * (see the module comment). The worker is started now (unless `eager` is false: then on the
 * first document), so it loads while the caller does other work; it never keeps the process alive.
 * `files`, the number of documents and source files the run discovered, sizes the worker's
 * young generation ({@link workerYoungGenerationMb}; unknown: the small one).
 * `keepAfterSegmented`: a large document parsed from stored segments does not retire the worker
 * (see `drain`); for the language server, whose edits of a large page re-parse a segment or two:
 * retiring and restarting the worker after every edit of NeMo Gym's 209 KB README cost ~100 ms
 * of each lint (scripts/lsp-latency.mjs). The CLI keeps the default (a run's peak memory).
 * `cancelled`: asked while the parser waits for a document (every 200 ms at most); when it
 * answers true, the worker is stopped and the waiting `parse` throws {@link RunCancelled} (the
 * language server, whose lint gives way to an edit that makes it outdated).
 */
export async function createDocParser(options: { eager?: boolean; files?: number; keepAfterSegmented?: boolean; cancelled?: () => boolean } = {}): Promise<DocParser> {
  if (!COMPILED) {
    const { parseDoc } = await import('./parse.js');
    const { readDirectives } = await import('./directives.js');
    return {
      parse: (file, text, what) => {
        const parsed = what.doc ? parseDoc(file, text, what.segments !== undefined ? { segments: what.segments } : {}) : undefined;
        return {
          ...(parsed ? { doc: parsed.doc, diagnostics: parsed.diagnostics, ...(parsed.segments ? { segments: parsed.segments } : {}) } : { diagnostics: [] }),
          directives: what.directives ? readDirectives(file, text) : [],
        };
      },
      close: () => {},
    };
  }
  const youngGenerationMb = workerYoungGenerationMb(options.files);
  let live: Live | undefined;
  let nextId = 1;
  /** Requests posted to the live worker and not yet collected, by id (the worker answers in id order). */
  const outstanding = new Map<number, { file: string; text: string; what: ParseWhat }>();
  /** Answers (or overrun outcomes) received before their request was collected, by id. */
  const answers = new Map<number, ParseOutcome>();
  /** Prefetched requests by {@link requestKey}, so `parse` collects them instead of posting again. */
  const prefetched = new Map<string, { id: number; text: string }>();
  /** The budgets of the documents that ran over, summed, and how many did (after the run's budget was spent: `shortened`). */
  const overran = { ms: 0, documents: 0, shortened: 0, skipped: 0, runBudgetSkipped: 0, largeSkipped: 0, ceilingSkipped: 0 };
  /**
   * The run-wide parse budget ({@link runParseBudgetMs}): CPU spent by workers already stopped, text
   * parsed, and whether it is spent (`ceiling`: by {@link RUN_PARSE_CEILING_MS}, which also counts
   * `helpersMs`, the helper threads' CPU time while the caller waited for the worker, from
   * `ceilingBase`, what was spent before the run started: {@link DocParser.startRun}).
   */
  const run = { stoppedMs: 0, parsedLength: 0, spent: false, spentMs: 0, spentAtLength: 0, largeLength: 0, overranOwnMs: 0, helpersMs: 0, ceiling: false, ceilingBase: 0 };
  /** Large documents admitted (true) or refused (false) under {@link RUN_LARGE_DOCUMENTS_LENGTH}, decided once per file. */
  const large = new Map<string, boolean>();
  /** CPU time the worker `current` has spent parsing (since it loaded), in ms; undefined where it cannot be read. */
  const workerMs = (current: Live): number | undefined => {
    const tid = Atomics.load(current.flag, 2);
    if (tid <= 0) return undefined;
    const cpu = threadCpuMs(tid) ?? current.lastCpu;
    if (cpu === undefined) return undefined;
    current.lastCpu = cpu;
    return Math.max(0, cpu - Atomics.load(current.flag, 3));
  };
  /**
   * What parsing has cost since the run started, as {@link RUN_PARSE_CEILING_MS} counts it, in ms:
   * the workers' thread CPU time, every document's, and the helper threads' while the caller
   * waited; undefined where the live worker's CPU time cannot be read.
   */
  const ceilingCost = (): number | undefined => {
    const current = live ? workerMs(live) : 0;
    return current === undefined ? undefined : run.stoppedMs + current + run.helpersMs - run.ceilingBase;
  };
  /** True once documents over budget have cost the run {@link RUN_OVERRUN_LIMIT_MS}, or the run-wide parse budget is spent: nothing more is parsed. */
  const limitReached = (): boolean => run.spent || (overran.ms >= RUN_OVERRUN_LIMIT_MS && overran.documents >= RUN_OVERRUN_LIMIT_DOCUMENTS);
  const seconds = (ms: number): string => (ms / 1000).toFixed(1).replace(/\.0$/, '');
  /** The reason the run-wide parse budget gives for a document it stops or skips. */
  const runBudgetReason = (spentMs: number, parsedLength: number): string =>
    `the run's parse budget was spent (parsing documents had cost ${seconds(spentMs)} s of CPU time; the budget is ${RUN_PARSE_BASE_MS / 1000} s plus ${RUN_PARSE_MS_PER_MIB / 1000} s per MiB of documents parsed, here ${seconds(runParseBudgetMs(parsedLength))} s)`;
  /** The reason {@link RUN_PARSE_CEILING_MS} gives for a document it stops or skips. */
  const ceilingReason = (costMs: number): string =>
    `parsing documents had cost the run ${seconds(costMs)} s of CPU time, garbage collection included, and one run spends at most ${RUN_PARSE_CEILING_MS / 1000} s parsing documents (likely references and short pages first)`;
  /** The outcome of a document not parsed because of {@link limitReached}. */
  const skipped = (file: string, text: string): ParseOutcome => {
    if (run.ceiling) {
      overran.ceilingSkipped++;
      return { ...overrun(file, text, `it was not parsed: ${ceilingReason(run.spentMs)}`), runCeiling: true };
    }
    if (run.spent) {
      overran.runBudgetSkipped++;
      return overrun(file, text, `it was not parsed: ${runBudgetReason(run.spentMs, run.spentAtLength)}`);
    }
    overran.skipped++;
    return overrun(
      file,
      text,
      `it was not parsed: ${overran.documents} documents over the parse budget had already cost the run ${seconds(overran.ms)} s of CPU time, over the limit of ${RUN_OVERRUN_LIMIT_MS / 1000} s per run`,
    );
  };
  /**
   * Whether a document to parse is refused by {@link RUN_LARGE_DOCUMENTS_LENGTH}; decided once per
   * file (its first prefetch or parse), in that order.
   */
  const refusedLarge = (file: string, text: string | number, what: ParseWhat): boolean => {
    const length = typeof text === 'number' ? text : text.length;
    if (!what.doc || length < LARGE_DOCUMENT_LENGTH) return false;
    let admitted = large.get(file);
    // A document over the limits (src/docs/limits.ts: size, nesting, columns, definitions) is
    // refused by the parser at once, with its own reason: it neither uses nor meets this limit.
    // (A stored outcome, known by its length only, was parsed: it is within them.)
    if (admitted === undefined) {
      const overLimits = typeof text === 'string' && documentOverLimits(text, /\.mdx$/i.test(file)) !== undefined;
      admitted = overLimits || run.largeLength + length <= RUN_LARGE_DOCUMENTS_LENGTH;
      if (admitted && !overLimits) run.largeLength += length;
      large.set(file, admitted);
    }
    return !admitted;
  };
  /** The outcome of a large document refused by {@link refusedLarge}. */
  const largeSkipped = (file: string, text: string | number): ParseOutcome => {
    overran.largeSkipped++;
    return overrun(
      file,
      text,
      `it was not parsed: the run had already parsed ${(run.largeLength / 1024).toFixed(0)} KB of documents of ${LARGE_DOCUMENT_LENGTH / 1024} KB or more, and one run reads at most ${RUN_LARGE_DOCUMENTS_LENGTH / 1024} KB of such documents`,
    );
  };
  /** The CPU budget of a document of `length` code units, by what overruns have cost the run so far. */
  const budgetOf = (length: number): { ms: number; kind: 'full' | 'shorter' | 'final' } => {
    if (overran.documents === 0) return { ms: docTimeBudgetMs(length), kind: 'full' };
    const shorter = strictDocTimeBudgetMs(length);
    return overran.ms >= RUN_OVERRUN_LIMIT_MS && shorter > RUN_FINAL_DOC_MS ? { ms: RUN_FINAL_DOC_MS, kind: 'final' } : { ms: shorter, kind: 'shorter' };
  };

  const start = (): Live => {
    const flag = new Int32Array(new SharedArrayBuffer(32));
    // Request ids count on across workers: a fresh worker's first request is the next id, so its
    // "last answered" starts just below it (starting at 0 would blame a stale id for the request in
    // progress and post the real one again, forever, when two documents overrun: #33 item 1).
    flag[0] = nextId - 1;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(WORKER_BOOTSTRAP, {
      eval: true,
      workerData: { port: port2, flag, url: new URL('./parse-worker.js', import.meta.url).href },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: youngGenerationMb, stackSizeMb: 8 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    port1.unref();
    // A worker that dies (out of memory) is noticed by its missing answer; the event is only logged away.
    worker.on('error', () => {});
    return { worker, port: port1, flag, ready: false };
  };
  /** Stops the worker; requests it had not answered are forgotten (a later `parse` posts them to a fresh one). */
  const stop = (): void => {
    if (!live) return;
    // What it spent counts on for the run-wide budget.
    run.stoppedMs += workerMs(live) ?? 0;
    void live.worker.terminate().catch(() => {});
    live.port.close();
    live = undefined;
    outstanding.clear();
    largeOutstanding.clear();
  };
  const post = (file: string, text: string, what: ParseWhat): number => {
    live ??= start();
    const id = nextId++;
    outstanding.set(id, { file, text, what });
    if (what.doc && text.length >= LARGE_DOCUMENT_LENGTH && !(options.keepAfterSegmented && what.segments)) largeOutstanding.add(id);
    live.worker.postMessage({ id, file, text, ...what } satisfies ParseRequest);
    return id;
  };
  /** Ids of the requests for a document of {@link LARGE_DOCUMENT_LENGTH} or more posted to the live worker and not yet collected. */
  const largeOutstanding = new Set<number>();
  /**
   * Moves every answer waiting on the port into `answers`.
   *
   * When the worker has answered a document of {@link LARGE_DOCUMENT_LENGTH} or more, it is
   * stopped first, and its thread waited for (at most 1 s), before the answers are read: its heap,
   * grown to that document's tree (a 546 KB table of 30,000 rows: 170 MB committed, all garbage
   * once answered), is then returned before the main thread deserialises the answer (messages
   * posted stay on the port). Requests it had not answered are forgotten, as by `stop`, and
   * posted again to a fresh worker (about 70 ms to load) when collected; a run reads at most
   * {@link RUN_LARGE_DOCUMENTS_LENGTH} of such documents, so at most 8 restarts. Peak of such a run: 494 -> 390 MB with the per-file
   * cache (#33 budget-many-large-documents, 514 MB in one fresh-clone CI).
   */
  const drain = (current: Live): void => {
    const answered = Atomics.load(current.flag, 0);
    const retiring = live === current && [...largeOutstanding].some((id) => id <= answered);
    if (retiring) {
      const tid = Atomics.load(current.flag, 2);
      run.stoppedMs += workerMs(current) ?? 0;
      void current.worker.terminate().catch(() => {});
      const until = Date.now() + 1000;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (tid > 0 && threadCpuMs(tid) !== undefined && Date.now() < until) Atomics.wait(pause, 0, 0, 5);
    }
    for (let m = receiveMessageOnPort(current.port); m; m = receiveMessageOnPort(current.port)) {
      const message = m.message as ParseResponse;
      const request = outstanding.get(message.id);
      if (!request) continue;
      outstanding.delete(message.id);
      run.parsedLength += request.text.length;
      largeOutstanding.delete(message.id);
      const { id: _id, error, ...outcome } = message;
      answers.set(message.id, error !== undefined ? overrun(request.file, request.text, `the parser failed (${error})`) : outcome);
    }
    if (retiring) {
      // Terminated above, and its time counted: what stop() does besides.
      current.port.close();
      live = undefined;
      outstanding.clear();
      largeOutstanding.clear();
    }
  };

  /**
   * Waits until request `id` is answered, enforcing the budget on whichever document the worker
   * is parsing meanwhile (it answers in order, so that is the request after the last answered
   * one): a document over its budget gets the overrun outcome, the worker is replaced, and `id`
   * is posted again if it was not the culprit. Returns `id`'s outcome.
   */
  const collect = (id: number, file: string, text: string, what: ParseWhat): ParseOutcome => {
    for (;;) {
      const done = answers.get(id);
      if (done) {
        answers.delete(id);
        return done;
      }
      if (!live || !outstanding.has(id)) {
        // The worker that had the request was replaced: post it again.
        id = post(file, text, what);
      }
      const current = live!;
      if (!current.ready) {
        const bootUntil = Date.now() + WORKER_START_MS;
        // Index 1 turns 1 when the worker has loaded (parse-worker.ts sets it before its first answer); its loading time is no document's.
        while (Atomics.load(current.flag, 1) === 0 && Atomics.load(current.flag, 0) < id && Date.now() < bootUntil) {
          Atomics.wait(current.flag, 1, 0, 50);
        }
        if (Atomics.load(current.flag, 1) === -1) {
          const message = receiveMessageOnPort(current.port)?.message as { loadError?: string } | undefined;
          stop();
          throw new ParserLoadError(message?.loadError ?? 'its module did not load');
        }
        current.ready = true;
      }
      // The helper threads' CPU time while this thread waits for the worker (nothing else runs
      // then: extraction is over, or this is a lazy parse), counted toward the run's ceiling.
      let lastHelpers = helperThreadsCpuMs();
      const observeHelpers = (): void => {
        const now = helperThreadsCpuMs();
        if (now !== undefined && lastHelpers !== undefined) run.helpersMs += Math.max(0, now - lastHelpers);
        lastHelpers = now;
      };
      const tid = Atomics.load(current.flag, 2);
      // The budget of the document in progress: reset whenever the worker moves on to the next one.
      let answered = Atomics.load(current.flag, 0);
      let progress = { answered, cpu: tid > 0 ? threadCpuMs(tid) : undefined, helpers: helperThreadsCpuMs(), wall: Date.now() };
      // The piece of work in progress (src/docs/progress.ts): its count when first seen, the CPU
      // time then (its thread's, and the document's as `docMs` below), and, as last seen, its
      // length and whether it is a probe.
      let piece: { seq: number; cpu: number | undefined; ms?: number; length?: number; probeOf?: number } = { seq: Atomics.load(current.flag, 4), cpu: progress.cpu, ms: 0 };
      let culprit: { id: number; outcome: ParseOutcome } | undefined;
      while (answered < id) {
        observeHelpers();
        if (answered !== progress.answered) {
          progress = { answered, cpu: tid > 0 ? threadCpuMs(tid) : undefined, helpers: helperThreadsCpuMs(), wall: Date.now() };
          piece = { seq: Atomics.load(current.flag, 4), cpu: progress.cpu, ms: 0 };
        }
        const inProgress = answered + 1;
        const request = outstanding.get(inProgress);
        const length = request?.text.length ?? text.length;
        const { ms: budget, kind } = budgetOf(length);
        const over = `parsing it took more than ${(budget / 1000).toFixed(1).replace(/\.0$/, '')} s of CPU time`;
        const per = {
          full: `the budget per document (2 s plus 16 s per MiB, at most ${DOC_MAX_MS / 1000} s)`,
          shorter: 'the shorter budget per document once a document has run over its own',
          final: `the most a document may cost once documents over budget have cost the run ${RUN_OVERRUN_LIMIT_MS / 1000} s`,
        }[kind];
        const victim = request ?? { file, text };
        // `ms`: what the document cost, its thread's CPU time and the helper threads' beyond their allowance (see `docMs`);
        // `own`: its thread's part, which the run-wide budget leaves out (it counts that thread only).
        const charge = (ms = budget, own = ms): void => {
          overran.ms += ms;
          run.overranOwnMs += Math.min(ms, own);
          overran.documents++;
          if (kind !== 'full') overran.shortened++;
        };
        if (Date.now() >= progress.wall + budget * WALL_FACTOR) {
          charge();
          culprit = { id: inProgress, outcome: ownOverrun(victim.file, victim.text, `${over} (or ${((budget * WALL_FACTOR) / 1000).toFixed(0)} s of wall-clock time), ${per}`) };
          break;
        }
        if (progress.cpu !== undefined) {
          const cpu = threadCpuMs(tid);
          // The CPU time of V8's helper threads since the document started (garbage collection
          // and compilation, in parallel with the worker's thread). They normally work about as
          // much as the thread they serve, up to {@link HELPER_ALLOWANCE} times (NeMo Gym's 768
          // pages: 15.3 s on the worker's thread, 17.3 s there; an 847 KB change log 5.4 and
          // 6.1 s), which the budgets below were set with; when the heap nears its limit, the
          // thread mostly waits for them (#33 s42 sweep E2: a page that died at 192 MB cost 4.6 s
          // on its thread and 7.8 s there, 10.4 s of wall-clock time). What they spend beyond
          // that allowance counts as the document's.
          const helpers = progress.helpers === undefined ? 0 : Math.max(0, (helperThreadsCpuMs() ?? progress.helpers) - progress.helpers);
          /** What the document has cost so far, in ms of CPU time: its thread's, and the helper threads' beyond their allowance. */
          const docMs = cpu === undefined ? undefined : helpersBeyond(cpu - progress.cpu, helpers);
          if (cpu === undefined && Atomics.load(current.flag, 0) === answered) {
            // The thread is gone without an answer: V8 stopped it at the heap limit. What it
            // spent is charged as an overrun, so the run-wide budget leaves it out like the
            // others' (s24 sweep D1: a 977 KB table died of memory after 4.5 s, and the run's
            // budget, spent by it, then skipped the README).
            const own = Math.max(0, (current.lastCpu ?? progress.cpu) - progress.cpu);
            charge(helpersBeyond(own, helpers), own);
            culprit = { id: inProgress, outcome: ownOverrun(victim.file, victim.text, `parsing it needed more than ${WORKER_HEAP_MB} MB of memory, the budget per document`) };
            break;
          }
          if (docMs !== undefined && docMs > budget) {
            charge(budget, cpu! - progress.cpu);
            culprit = { id: inProgress, outcome: ownOverrun(victim.file, victim.text, `${over}, ${per}`) };
            break;
          }
          if (docMs !== undefined && docMs > DOC_RATE_GRACE_MS) {
            const reached = Atomics.load(current.flag, 6);
            if (reached > 0 && docMs > (DOC_MAX_MS_PER_KIB * reached) / 1024) {
              charge(docMs, cpu! - progress.cpu);
              culprit = {
                id: inProgress,
                outcome: ownOverrun(victim.file, victim.text, `parsing its first ${(reached / 1024).toFixed(0)} KB took ${seconds(docMs)} s of CPU time, over ${DOC_MAX_MS_PER_KIB} ms per KB, the most a document may cost`),
              };
              break;
            }
          }
          if (cpu !== undefined) {
            const seq = Atomics.load(current.flag, 4);
            const own = cpu - progress.cpu;
            /** A probe (`probedPiece`, src/docs/progress.ts) whose cost so far, `probeMs`, predicts that its piece would take the document over its budget: stop it now. */
            const overPredicted = (probeLength: number, wholeLength: number, probeMs: number): boolean => {
              const predicted = probeWholeMs(probeMs, probeLength, wholeLength);
              // What the probe cost is counted again in the prediction, as the piece parses the probe's text again.
              if (docMs! + predicted <= budget) return false;
              charge(Math.min(budget, docMs!), own);
              culprit = {
                id: inProgress,
                outcome: ownOverrun(
                  victim.file,
                  victim.text,
                  `parsing its first ${(probeLength / 1024).toFixed(0)} KB, of a part (${(wholeLength / 1024).toFixed(0)} KB) that cannot be cut, took ${seconds(probeMs)} s of CPU time, so the document would cost about ${seconds(docMs! + predicted)} s or more, over ${seconds(budget)} s, ${per}`,
                ),
              };
              return true;
            };
            if (seq !== piece.seq) {
              const previous = piece;
              piece = { seq, cpu, ms: docMs };
              // A probe ended between two looks, and the piece it probed started: its whole cost predicts that piece's.
              if (previous.probeOf && previous.length && previous.ms !== undefined && seq === previous.seq + 1 && overPredicted(previous.length, previous.probeOf, docMs! - previous.ms)) break;
            } else {
              const pieceLength = Atomics.load(current.flag, 5);
              const probeOf = Atomics.load(current.flag, 7);
              piece.length = pieceLength;
              piece.probeOf = probeOf;
              // A probe in progress: even if it ended now, what it cost so far predicts the piece it probes.
              if (probeOf > 0 && piece.ms !== undefined && overPredicted(pieceLength, probeOf, docMs! - piece.ms)) break;
              // A probe (the first part of a long piece that cannot be cut) has the budget of a piece of its length.
              const pieceBudget = pieceTimeBudgetMs(pieceLength);
              if (piece.cpu !== undefined && cpu - piece.cpu > pieceBudget) {
                // Charged what the document cost so far, not its whole budget.
                charge(Math.min(budget, docMs!), cpu - progress.cpu);
                const part = pieceLength < length ? `one part of it (${(pieceLength / 1024).toFixed(0)} KB)` : 'it';
                culprit = {
                  id: inProgress,
                  outcome: ownOverrun(
                    victim.file,
                    victim.text,
                    probeOf > 0
                      ? `parsing its first ${(pieceLength / 1024).toFixed(0)} KB, of a part that cannot be cut, took more than ${seconds(pieceBudget)} s of CPU time, the budget per piece of a document (1 s plus 24 ms per KB), so the whole would run over its own`
                      : `parsing ${part} took more than ${seconds(pieceBudget)} s of CPU time, the budget per piece of a document (1 s plus 24 ms per KB)`,
                  ),
                };
                break;
              }
            }
          }
          // The run-wide budget: what every worker spent against the text parsed so far, the
          // answered documents not collected yet and the one in progress included. Documents
          // over their own budget are left out, time and text: the overrun limits above bound
          // them, and one such page must not stop the run's other documents.
          // The run's ceiling: every document's cost, garbage collection included, whatever the text parsed.
          const cost = cpu !== undefined ? ceilingCost() : undefined;
          if (cost !== undefined && cost > RUN_PARSE_CEILING_MS) {
            run.spent = true;
            run.ceiling = true;
            run.spentMs = cost;
            culprit = { id: inProgress, outcome: { ...overrun(victim.file, victim.text, `it was stopped: ${ceilingReason(cost)}`), runCeiling: true } };
            overran.ceilingSkipped++;
            break;
          }
          const spent = cpu !== undefined ? Math.max(0, run.stoppedMs + (workerMs(current) ?? 0) - run.overranOwnMs) : undefined;
          if (spent !== undefined) {
            let parsedLength = run.parsedLength;
            for (const [pending, r] of outstanding) if (pending <= inProgress) parsedLength += r.text.length;
            if (spent > runParseBudgetMs(parsedLength)) {
              run.spent = true;
              run.spentMs = spent;
              run.spentAtLength = parsedLength;
              culprit = { id: inProgress, outcome: overrun(victim.file, victim.text, `it was stopped: ${runBudgetReason(spent, parsedLength)}`) };
              overran.runBudgetSkipped++;
              break;
            }
          }
        }
        Atomics.wait(current.flag, 0, answered, 200);
        answered = Atomics.load(current.flag, 0);
        if (answered < id && options.cancelled?.()) {
          // What the worker spent counts for nothing: the caller gives the run up.
          stop();
          throw new RunCancelled();
        }
      }
      observeHelpers();
      drain(current);
      if (culprit) {
        stop();
        answers.set(culprit.id, culprit.outcome);
        // The run-wide budget is spent: `id`, unless it was the culprit or already answered, is not parsed.
        if (run.spent && !answers.has(id)) return skipped(file, text);
        continue;
      }
      if (!answers.has(id)) {
        const request = outstanding.get(id);
        stop();
        answers.set(id, overrun(request?.file ?? file, request?.text ?? text, 'the parser stopped without an answer'));
      }
    }
  };

  /**
   * A document over {@link MAX_DOCUMENT_LENGTH} whose suppression comments are not asked for: the
   * worker would refuse it by its length (`parseDoc`), so it is answered here, and its text (up to
   * the 64 MiB a run reads) is not copied to the worker, whose heap it would fill (#33 s38 sweep D7:
   * the language server's 60 and 90 MB pages). Its length counts toward the run's parse budget as
   * when the worker answered it.
   */
  const refusedByLength = (file: string, text: string, what: ParseWhat): ParseOutcome | undefined => {
    if (!what.doc || what.directives || text.length <= MAX_DOCUMENT_LENGTH) return undefined;
    run.parsedLength += text.length;
    return { ...overLimitsOutcome(file, documentOverLimits(text)!), directives: [] };
  };

  // Eager (the default): the worker loads the parsers while the caller extracts code.
  if (options.eager ?? true) live = start();

  return {
    prefetch(file, text, what) {
      if (limitReached() || refusedLarge(file, text, what)) return;
      // Answered without the worker by `parse`.
      if (what.doc && !what.directives && text.length > MAX_DOCUMENT_LENGTH) return;
      const key = requestKey(file, what);
      if (!prefetched.has(key)) prefetched.set(key, { id: post(file, text, what), text });
    },
    parse(file, text, what) {
      const key = requestKey(file, what);
      const early = prefetched.get(key);
      prefetched.delete(key);
      if (refusedLarge(file, text, what)) return largeSkipped(file, text);
      if (limitReached()) {
        // An answer that already came (a prefetched page parsed meanwhile) is used; nothing more is waited for.
        if (live) drain(live);
        // Nothing more is posted or waited for: a worker still busy (on a prefetched page) is stopped.
        if (outstanding.size > 0) stop();
        const ready = early !== undefined && early.text === text ? answers.get(early.id) : undefined;
        if (ready) {
          answers.delete(early!.id);
          return ready;
        }
        return skipped(file, text);
      }
      const refused = refusedByLength(file, text, what);
      if (refused) return refused;
      const id = early !== undefined && early.text === text && (outstanding.has(early.id) || answers.has(early.id)) ? early.id : post(file, text, what);
      return collect(id, file, text, what);
    },
    admit: (file, length, what) => (refusedLarge(file, length, what) ? largeSkipped(file, length) : undefined),
    overruns: () => ({ ...overran, parseMs: run.stoppedMs + (live ? (workerMs(live) ?? 0) : 0), costMs: Math.max(0, ceilingCost() ?? 0) }),
    startRun() {
      run.ceilingBase += ceilingCost() ?? 0;
    },
    close: stop,
  };
}

/** What to read of a document, and its stored segments when it is to be parsed in segments (not part of the request's identity). */
export type ParseWhat = { doc: boolean; directives: boolean; segments?: readonly MarkdownSegment[] | null };

function requestKey(file: string, what: ParseWhat): string {
  return `${what.doc ? 'd' : ''}${what.directives ? 'x' : ''}\0${file}`;
}
