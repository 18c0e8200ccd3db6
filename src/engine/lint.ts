/** The engine's entry point: runs the stages (discover, read, extract, parse docs, link, run rules, scope) with the rules it is given. */
import { declaredSiteUrls } from './site-urls.js';
import { extractJsonSchemas, schemaFileTypeName } from '../extract/jsonschema/index.js';
import { readPackageBins } from '../extract/package-bins.js';
import { pushAll, pushUnique } from '../shared/arrays.js';
import { SUMMARY_HEADING, SUMMARY_MARKER } from '../shared/report-marker.js';
import { withinRunCommandBound } from './manifest-budget.js';
import { alsoNotRead } from '../shared/strings.js';
import { MAX_PARSED_LINES, parsedPages, parseOrderBy, type OrderFacts } from './parse-order.js';
import { lineColumn, parseJsonText } from '../config/load.js';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { pathMatcher } from '../shared/path-match.js';
import { DEFAULT_CONFIG, isScriptProgram, type DocdriftConfig } from '../config/schema.js';
import { createDocParser, LARGE_DOCUMENT_LENGTH, LARGE_RUN_FILES, RUN_LARGE_DOCUMENTS_LENGTH, RUN_OVERRUN_LIMIT_MS, RUN_PARSE_BASE_MS, RUN_PARSE_CEILING_MS, RUN_PARSE_MS_PER_MIB, type DocParser, type ParseOutcome, type ParseWhat } from '../docs/bounded-parse.js';
import { docTexts, type DocTexts, type MentionMatcher } from './doc-texts.js';
import type { HeldPage } from './held-pages.js';
import { overLengthReason, overLimitsOutcome } from '../docs/limits.js';
import { trimTrailing, withoutExtras } from '../shared/strings.js';
import type { SuppressionDirective } from '../docs/directives.js';
import { parseEnvFile } from '../docs/env-file.js';
import { earlyRowCut, isRunRowsCut, runDocumentCap, runMentionBudget, unreadReferenceStub as unreadStub, withinMentionBudget, withoutRunRows, type MentionBudget } from './document-caps.js';
import { readEntryPoints } from '../extract/python/entry-points.js';
import { readDependencies, type PackageDependencies } from '../extract/dependencies.js';
import { readSetupPyEntryPoints } from '../extract/python/setup-py.js';
import { CLASS_FIELD_COST_NOTE, extractPython, MAX_PYTHON_CLASS_FIELDS, type PythonSource } from '../extract/python/index.js';
import { extractPythonFlags } from '../extract/python/flags.js';
import { routeFor } from '../extract/python/argv-dispatch.js';
import { flagSourceFilter } from '../extract/python/flag-sources.js';
import type { FlagCommand } from '../extract/python/types.js';
import { buildModel } from '../link/build.js';
import { ENV_HEADING_PATTERNS, envMentionNames } from '../link/environment.js';
import { collectEnvWords, MAX_ENV_WORD_SCAN } from '../shared/env-words.js';
import { scopedFileKeyReader } from './scoped-files.js';
import { foldNameAnyCase, INFERENCE_THRESHOLDS } from '../link/infer-sections.js';
import { isNonProductPath } from '../shared/paths.js';
import { declaredFlagProblems, type ConfigSource } from '../link/declared-flags.js';
import { createHeadingMatcher } from '../config/patterns.js';
import type { ConfigClass, DocFile, EnvExtraction, InputDiagnostic, InternalEnvVar, Model, ReferenceRow, UnreadProgram } from '../model/types.js';
import { cliLibraryUses, firstCliLibraryUse, type CliLibraryUse } from '../extract/cli-libraries.js';
import { moduleNameForFile } from '../extract/python/module-name.js';
import { importedModuleNames, pythonImports } from '../extract/python/imports.js';
import { flagEnvVars as pythonFlagEnvVars } from '../extract/python/env.js';
import { suggestNames } from '../shared/names.js';
import { discoveredInputs, discoverFiles, MAX_PATH_DEPTH, type DiscoveredFiles } from './discover.js';
import { FactCache, NO_CACHE } from './facts.js';
import type { PieceStore } from './pieces.js';
import { estimatedClassFields, PYTHON_SCAN_WORKER_MIN_CHARS, scanWorkerShare, startPythonFlags, startPythonScans, wantsPythonWorker, workerStopText } from './python-flags.js';
import { LARGE_PYTHON_SOURCE_CHARS, MAX_PYTHON_FLAG_RUN_TOKENS, MAX_PYTHON_SOURCE_CHARS, MAX_PYTHON_RUN_TOKENS, pythonFlagSourcesOverBudget, pythonFlagTokenBudget, pythonSourcesOverLimits, pythonTextFacts, type PythonTextFacts } from '../extract/python/text-facts.js';
import { cachedTypeScriptFacts, startTypeScriptFacts, type PendingTypeScriptFacts } from './typescript-facts.js';
import { typeScriptEnv } from './typescript-env.js';
import { envSourceFiles } from '../extract/typescript/env-filter.js';
import { countTypeScriptTokens, MAX_JS_FILE_BYTES, MAX_TYPESCRIPT_RUN_TOKENS } from '../extract/typescript/budget.js';
import { flagEnvVars, mergeEnv } from '../extract/env-merge.js';
import { scriptEnv } from '../extract/script-env.js';
import { linkedDocuments } from './link-prefetch.js';
import { escapesRoot } from '../shared/paths.js';
import { RunCancelled } from '../shared/cancelled.js';
import { MAX_READ_BYTES, ReadFileError, SourceCodingError, projectFileSize, pythonTextCodingError, readErrorText, readProjectFile, readRegularFile, unreadableDirectory, withPythonLineEnds } from '../shared/read-file.js';
import { runNotes } from './notes.js';
import { runVerdict, type RunVerdict } from './verdict.js';
import { selectDocVersions, versionNotes } from './versions.js';
import { engineRules, engineRuleSeverity, unusedSuppression } from './engine-rules.js';
import { applySuppressions } from './suppress.js';
import { runRules, runRulesFocused, sortMessages, type ConfiguredRule, type RuleFailure } from './run-rules.js';
import { scopeMessages, toProjectPath } from './scope.js';
import type { DriftMessage, Rule, Severity } from '../model/rule.js';
import { distinctClasses } from '../model/query.js';

/** What to lint. */
export interface LintOptions {
  /** Absolute project root; every path in messages is relative to it. */
  root: string;
  config: DocdriftConfig;
  /**
   * Report only findings located in these files (absolute or root-relative). The model is still
   * built from the whole project, so a README is checked against all code and references.
   */
  files?: string[];
  /** The config file `config` was loaded from (absolute), to point at its `commands.*.flags` entries. */
  configFile?: string;
  /**
   * Rules to run. The engine has no registry of its own: the CLI passes the built-in rules
   * (src/api.ts wires `rules/index.ts`), as ESLint's `Linter` is given its rule definitions.
   */
  rules: Rule[];
  /**
   * Rule ids a `docdrift-disable…` comment may name without being reported as unknown; default:
   * the ids of `rules` and of the engine's own rules (src/engine/engine-rules.ts).
   */
  knownRuleIds?: readonly string[];
  /** The project's files when already discovered (the run cache hashes them first); default: discovered here. */
  discovered?: DiscoveredFiles;
  /**
   * Texts to use instead of the files on disk, by project-relative POSIX path: `--fix` lints its
   * edited texts again before writing anything (src/fix/apply.ts).
   */
  overlay?: ReadonlyMap<string, string>;
  /**
   * Files the run must not read, by project-relative POSIX path, with the error a read of them
   * gives: each is reported as a file on disk that cannot be read is (`Cannot read <file>: …`),
   * and never read from disk. The language server's open buffers whose text it does not hold
   * (over {@link MAX_READ_BYTES}, which a CLI run refuses as `EFBIG`: src/lsp/big-text.ts).
   */
  unreadable?: ReadonlyMap<string, ReadFileError>;
  /**
   * The per-file cache's store (src/engine/pieces.ts): Python scans, CLI flags and parsed documents
   * of earlier runs, reused for files whose text is unchanged; this run's pieces are stored in it.
   * `lint()` builds the run's fact cache (src/engine/facts.ts) from it, `hashes`, `pythonFacts` and
   * `overlayHashed`; the stages ask that, never the store.
   */
  pieces?: PieceStore;
  /**
   * Pages at least this long (UTF-16 code units) are parsed in segments and their segments kept
   * in `pieces` (default 32 Ki, src/docs/segments.ts). `--fix` sets 0: its re-lint after the
   * edits parses only the edited sections of each page.
   */
  segmentMinLength?: number;
  /** Most bytes of segment trees kept for the pages parsed in segments (none: no limit); `--fix` sets 16 MiB. */
  segmentBudgetBytes?: number;
  /**
   * Content hashes of the discovered files by project-relative path, as the run cache computed
   * them (src/engine/cache.ts): with `pieces`, they key the whole extraction as one piece
   * (`FactCache.codeFacts`, src/engine/facts.ts), so a run in which only documents changed reads no code. Ignored
   * with an `overlay`.
   */
  hashes?: ReadonlyMap<string, string>;
  /** What cheap scans of each `.py` file's text found, as the run cache computed them with `hashes` (see `PythonTextFacts`). */
  pythonFacts?: ReadonlyMap<string, PythonTextFacts>;
  /**
   * `hashes` also name the `overlay`'s texts: an overlaid file's hash is of the overlay's text, not
   * of the file on disk (the language server, whose open buffers are the overlay, hashes them with
   * a `text:` prefix), and `pythonFacts` has no entry for an overlaid file. With it, `hashes` key
   * the per-file pieces and the whole extraction as in a cached CLI run, overlay or not; without
   * it, an overlay turns `hashes` off (they would name texts the run does not read).
   */
  overlayHashed?: boolean;
  /**
   * One `parse-error` warning on each page a run-wide document limit leaves unread (the documents
   * and lines limits), instead of one for the group on its first page: the language server sets it,
   * because an editor shows a page's own diagnostics only, and a page left without one looked
   * checked (s46: the line limit's group warning left 19 open pages with none).
   */
  warnEachUnreadPage?: boolean;
  /**
   * Open pages given by what the run's verdict on them needs instead of their text, by
   * project-relative path (src/engine/held-pages.ts): the language server holds no text of an open
   * page over the document limit. Such a page is never read from disk either (pass it in
   * `unreadable` too, for any other reader), nor parsed: one that names a command (or matches
   * `globalFiles` or `reference`) gets the "Not read: it is … MB, over the 1 MB limit" warning a
   * CLI run gives it.
   */
  heldPages?: ReadonlyMap<string, HeldPage>;
  /** Told the run's mention matcher (which pages are read: `PageFacts.mentions`) once the code is extracted; the language server judges the large pages that arrive later with it. */
  onMentionMatcher?: (matcher: MentionMatcher) => void;
  /**
   * A document parser the caller started early (its worker loads while the caller reads caches);
   * `lint` owns it from then on and closes it. Default: one started here.
   */
  docParser?: DocParser;
  /**
   * Filled with the project-relative path of every file this run reads from disk through its
   * reader (documents, Python sources, packaging and config files; not those the TypeScript
   * worker reads itself): the run cache checks those, and the files it hashed, for a change
   * during the run before it stores anything (src/engine/cache.ts).
   */
  readFiles?: Set<string>;
  /**
   * Filled with the text of every file this run's reader read from disk, by project-relative
   * path (the same files as `readFiles`; the strings the run holds anyway, not copies): the
   * language server keeps those that fixes target, so that a quick fix is offered only while the
   * file still holds the text its offsets were computed from (s29 sweep2 D3).
   */
  readTexts?: Map<string, string>;
  /**
   * Texts of files on disk known to be what the files hold now (by project-relative path): the
   * reader takes them instead of reading the file. The language server passes the texts its last
   * lint read whose content hash the stat pass found unchanged (NeMo Gym: the pages the rules
   * read for rows elsewhere and for the reference tables' columns, ~7 ms of each README edit).
   */
  diskTexts?: ReadonlyMap<string, string>;
  /** Told as the run moves through its stages and files (the CLI's status line; see {@link ProgressEvent}). */
  onProgress?: ProgressListener;
  /**
   * Asked between the run's stages (after extraction, after the documents are parsed, after the
   * model is built); when it answers true the run throws {@link RunCancelled} (src/shared/cancelled.ts).
   * The language server gives up a lint an edit made outdated (its document parser asks too,
   * while it waits for a document). Must be cheap.
   */
  cancelled?: () => boolean;
  /**
   * Where the Python CLI flags are extracted: in a worker thread on the second core
   * (`startPythonFlags`, src/engine/python-flags.ts) or on the main thread. `'auto'` (default):
   * in a worker when the machine has two cores and the flag files are large enough to repay it.
   * The findings are the same either way; `'always'`/`'never'` are for tests and benchmarks.
   */
  pythonWorker?: 'auto' | 'always' | 'never';
  /**
   * The files whose findings are wanted first (project-relative; the language server's open
   * pages, issue #36): once the model is built, the rules run for the findings located in them
   * ({@link runRulesFocused}), and `first` is given those, suppressions applied, sorted, before the
   * rules run for the other files. The run's result holds all the findings, as without it.
   * Awaited: the language server sends the first part's diagnostics before the rest is worked out.
   */
  focus?: {
    files: ReadonlySet<string>;
    first(part: { messages: DriftMessage[]; suppressed: DriftMessage[]; failures: RuleFailure[] }): Promise<void>;
  };
}

/**
 * Where a run is: its `stage` (`discover` files, `hash` their contents for the cache, `extract`
 * code facts, parse `docs`, build the `model`, run the `rules`) and, for stages that go file by
 * file, how many of `total` files are `done`.
 */
export interface ProgressEvent {
  stage: 'discover' | 'hash' | 'extract' | 'docs' | 'model' | 'rules';
  done?: number;
  total?: number;
}

/** Receives {@link ProgressEvent}s; must be cheap (it is called once per file) and never throw. */
export type ProgressListener = (event: ProgressEvent) => void;

/** Figures about one run, for `--debug` and the benchmark. Times in milliseconds. */
export interface LintStats {
  sources: number;
  docs: number;
  timings: Record<'discover' | 'extract' | 'docs' | 'model' | 'rules', number>;
  /** The TypeScript facts were computed in a worker thread, in parallel with the Python extraction (see {@link ExtractContext}). */
  typeScriptWorker: boolean;
  /** The Python CLI flags (and their files' scans) were extracted in a worker thread ({@link LintOptions.pythonWorker}). */
  pythonWorker: boolean;
  /** CPU time the document worker spent parsing, in milliseconds (what the run's parse budget counts); absent where it cannot be read. */
  parseCpuMs?: number;
  /** What parsing cost the run as its ceiling counts it (`RUN_PARSE_CEILING_MS`: `parseCpuMs` plus V8's helper threads' CPU while the run waited for the worker), in milliseconds; absent where it cannot be read. */
  parseCostMs?: number;
}

/** The outcome of one run. */
export interface LintResult {
  /** Findings, sorted by file, line, column, rule id; without those inline comments suppress. */
  messages: DriftMessage[];
  /** Findings (in scope) that `docdrift-disable…` comments suppressed, sorted like `messages`. */
  suppressed: DriftMessage[];
  /** Rules that threw (an internal error: the CLI exits 2). */
  failures: RuleFailure[];
  /**
   * Config entries that name something the project does not have (a `commands.*.config` class
   * found nowhere): the CLI prints them and exits 2, since the run checked less than asked.
   */
  configProblems: string[];
  /**
   * First-run notes (see `runNotes` in `notes.ts`): what this run could not check, one sentence
   * each, without the `docdrift: ` prefix. The CLI prints them on stderr.
   */
  notes: string[];
  /** Whether the run compared anything at all (see {@link RunVerdict}); the CLI exits 2 when it did not. */
  verdict: RunVerdict;
  model: Model;
  /** Every file the run discovered as input (documents, sources, packaging, YAML, schemas, env files, programs), project-relative, sorted. */
  inputs: string[];
  stats: LintStats;
}

/**
 * Lints a project with the given rules. The stages run in order, each a function below with typed
 * inputs and outputs: {@link discoverFiles} (discover), {@link createReader} (read),
 * {@link extractCode} (extract), {@link parseDocs} (parse docs), {@link linkModel} (link),
 * {@link runRuleStage} (run rules) and {@link scopeStage} (scope). Never throws on bad project
 * input (unparseable or unreadable files become `parse-error` findings); throws only on
 * programming errors.
 */
export async function lint(given: LintOptions): Promise<LintResult> {
  // An open Python buffer is read as a Python file on disk is (`decodeText`): its lone CRs end lines.
  const options = given.overlay ? { ...given, overlay: withPythonLineEnds(given.overlay) } : given;
  const { root, config } = options;
  const t0 = performance.now();
  const progress = options.onProgress ?? (() => {});
  if (!options.discovered) progress({ stage: 'discover' });
  const discovered = options.discovered ?? (await discoverFiles(root, config.sources, config.docs, config.ignore));
  // Older versions of a versioned doc tree document old code: only the current one is checked (src/engine/versions.ts).
  const versions = selectDocVersions(root, discovered.docs, config.versions, discovered.packaging, [...config.reference, ...config.globalFiles]);
  const files = { ...discovered, docs: versions.docs };
  const t1 = performance.now();
  // One list for every stage, so input problems keep the order in which they were met.
  const diagnostics: InputDiagnostic[] = [];
  // Documents are parsed in a worker under a time and memory budget (src/docs/bounded-parse.ts);
  // it starts now, loading the parsers while the code is extracted.
  // With a filled per-file cache most documents need no parsing: the worker starts on demand.
  // The per-file cache is one layer under the stages (src/engine/facts.ts): they ask it for each
  // fact and never see the store. The hashes name the files on disk: with an overlay of edited
  // texts, facts are keyed by their texts (unless the hashes name the overlay's texts too, `overlayHashed`).
  const cache = new FactCache({ store: options.pieces, hashes: options.hashes, pythonFacts: options.pythonFacts, unhashedTexts: options.overlay !== undefined && !options.overlayHashed });
  const docParser = cache.docParser(options.docParser ?? (await createDocParser({ eager: cache.cold, files: files.docs.length + files.sources.length })), { ...(options.segmentMinLength !== undefined ? { segmentMinLength: options.segmentMinLength } : {}), ...(options.segmentBudgetBytes !== undefined ? { segmentBudgetBytes: options.segmentBudgetBytes } : {}) });
  try {
    const read = createReader(root, options.overlay, diagnostics, options.readFiles, options.readTexts, options.unreadable, options.diskTexts);
    for (const dir of files.unreadable ?? []) diagnostics.push(unreadableDirectory(dir));
    for (const { file, why } of files.notRead ?? []) {
      diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${file} is not read: ${why}`, location: { file, line: 1, column: 1 } });
    }
    for (const file of files.undecodable ?? []) {
      // Its own name, or a folder's on its path (docs/d<0xFF>/x.md: s31 sweep D7).
      const inFolder = !file.slice(file.lastIndexOf('/') + 1).includes('\uFFFD');
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message: `Cannot read ${file}: ${inFolder ? 'the name of a folder on its path' : 'its name'} is not valid UTF-8 (shown with U+FFFD), and docdrift reads file names as UTF-8; the file is not checked. Rename ${inFolder ? 'the folder' : 'it'}`,
        location: { file, line: 1, column: 1 },
      });
    }
    for (const dir of files.undecodableFolders ?? []) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message: `Cannot read the folder ${dir}: its name is not valid UTF-8 (shown with U+FFFD), and docdrift reads file names as UTF-8; the files in it are not checked. Rename it`,
        location: { file: dir, line: 1, column: 1 },
      });
    }
    // The worker parses the documents that surely name a command while the code is extracted.
    // Linked pages are guessed on a cold run only: later runs find them in the per-file cache, and a
    // page guessed in vain would be parsed again on every run (only pages asked for are stored).
    // Reads without reporting (guesses made before the run asks; the run's own read reports).
    const peek = createReader(root, options.overlay, [], options.readFiles, options.readTexts, options.unreadable, options.diskTexts);
    const pages = docTexts(read, peek, cache, options.heldPages);
    prefetchDocs(root, files, config, options.overlay, docParser, pages, cache.cold, options.unreadable);
    const context: ExtractContext = { root, overlay: options.overlay, ...(options.unreadable ? { unreadable: options.unreadable } : {}), peek, onProgress: progress, pythonWorker: options.pythonWorker ?? 'auto' };
    progress({ stage: 'extract', done: 0, total: files.sources.length });
    const code = await cache.codeFacts(files, () => discoveredInputs(files, { documents: false }), config, { read, peek: context.peek }, diagnostics, (reader) =>
      extractCode(files, config, reader, diagnostics, cache, context),
    );
    const goOn = (): void => {
      if (options.cancelled?.()) throw new RunCancelled();
    };
    goOn();
    const t2 = performance.now();
    // Scripts with a parser (`python tools/train.py`) may become commands named by their path.
    const scriptNames = code.flagCommands.filter((f) => f.path.length === 0 && code.runnableScripts.has(f.location.file)).flatMap((f) => [f.location.file, f.location.file.slice(f.location.file.lastIndexOf('/') + 1)]);
    // Env var names the code reads make a page worth parsing too (issue #31).
    const docs = parseDocs(files, config, [...code.entryPoints, ...[...scriptNames, ...(config.env.check ? envMentionNames(code.env) : [])].map((name) => ({ name, target: '', location: { file: '', line: 1, column: 1 } }))], pages, diagnostics, docParser, documentableKeys(code.classes), progress, options.overlay, options.warnEachUnreadPage === true, options.onMentionMatcher);
    // Every document is parsed by now: stopping the worker returns its heap (up to
    // WORKER_HEAP_MB plus its young generation, mostly garbage of the last pages) before the model
    // and the rules need memory (a 500 KB reference table: 523 MB peak once in CI, #33).
    docParser.close();
    goOn();
    const t3 = performance.now();
    progress({ stage: 'model' });
    const model = linkModel({ root, config, configFile: options.configFile, files, code, docs, diagnostics });
    goOn();
    const t4 = performance.now();
    progress({ stage: 'rules' });
    const ran = options.focus
      ? await focusedRuleStage(model, docs.directives, config, options.rules, options.knownRuleIds, options.focus, goOn)
      : runRuleStage(model, docs.directives, config, options.rules, options.knownRuleIds);
    const t5 = performance.now();
    const scoped = scopeStage(root, ran, options.files);
    const configProblems = [...unresolvedPrograms(config, files, code.entryPoints), ...unresolvedConfigClasses(config, code.classes, diagnostics, (file) => configFileProblem(root, file, new Set([...files.sources, ...(files.schemas ?? [])])), code.typeScriptUnread, configTypeMayBeIn(root, files, options.overlay, options.unreadable)), ...declaredFlagProblems(config, model.commands)];
    // The notes of the model (`runNotes`: coverage of every command, ~3 % of a language-server
    // lint on NeMo Gym) are worked out when first read: the language server never reads them. The
    // others are read now, while the document parser they ask is open.
    const before = [...(files.notes ?? []), ...reportNotes(docs.reports ?? [])];
    const after = [...versionNotes(versions.families), ...overrunNotes(docParser)];
    let notes: string[] | undefined;
    return {
      ...scoped,
      failures: ran.failures,
      configProblems,
      get notes(): string[] {
        return (notes ??= [...before, ...runNotes(model, config, files.docs, code.scriptLibraries), ...after]);
      },
      // Suppressed findings were compared too: a suppression silences a finding, not the check.
      verdict: runVerdict(model, [...ran.messages, ...ran.suppressed], files.docs.length),
      model,
      inputs: discoveredInputs(files, { documents: true }),
      stats: {
        sources: code.sourceCount,
        docs: docs.docs.length,
        timings: { discover: t1 - t0, extract: t2 - t1, docs: t3 - t2, model: t4 - t3, rules: t5 - t4 },
        typeScriptWorker: context.typeScript?.used ?? false,
        pythonWorker: context.pythonWorkerUsed ?? false,
        ...(docParser.overruns ? { parseCpuMs: docParser.overruns().parseMs, parseCostMs: docParser.overruns().costMs } : {}),
      },
    };
  } finally {
    docParser.close();
  }
}

/** The marker's opening words, quoted by {@link reportNotes}: not the whole marker, which the note would copy into each `--summary` report's notes. */
const MARKER_START = SUMMARY_MARKER.slice(0, SUMMARY_MARKER.indexOf(':'));

/**
 * One note naming the documents not read because they are files of docdrift's own `--summary`
 * reports (src/shared/report-marker.ts `isSummaryReport`), at most three by name: a page that
 * merely looks like one is not dropped without a word (s37 sweep D9).
 */
export function reportNotes(files: readonly string[]): string[] {
  if (files.length === 0) return [];
  const one = files.length === 1;
  const shown = `${files.slice(0, 3).join(', ')}${files.length > 3 ? `, and ${files.length - 3} more` : ''}`;
  return [
    `${one ? shown : `${files.length} documents (${shown})`} ${one ? 'is' : 'are'} not read as documentation: ${one ? 'it holds' : 'they hold'} docdrift's own \`--summary\` reports ` +
      `(each a \`${SUMMARY_HEADING}\` report ending with the \`${MARKER_START} …\` comment). Write reports outside the documentation, or remove the comments to have the page read.`,
  ];
}

/**
 * One note when documents ran over the parse budget after one had (with the shorter budget,
 * src/docs/bounded-parse.ts `strictDocTimeBudgetMs`), or were not parsed past its limit
 * (`RUN_OVERRUN_LIMIT_MS`), or past the run-wide parse budget (`runParseBudgetMs`) or the run's
 * limit on large documents (`RUN_LARGE_DOCUMENTS_LENGTH`): each document has its own
 * `parse-error` warning; the note says why, once.
 */
function overrunNotes(parser: DocParser): string[] {
  const overruns = parser.overruns?.();
  if (!overruns) return [];
  const notes: string[] = [];
  if (overruns.shortened > 0 || overruns.skipped > 0) {
    const shorter = overruns.shortened > 0 ? '; after the first, the others had a shorter budget' : '';
    const skipped = overruns.skipped > 0 ? `; once they had cost ${RUN_OVERRUN_LIMIT_MS / 1000} s, the run's limit, ${overruns.skipped} more ${overruns.skipped === 1 ? 'was' : 'were'} not parsed at all` : '';
    notes.push(`${overruns.documents} documents ran over the parse budget${shorter}${skipped}, so that the run ends (see their parse-error warnings; exclude such files with "ignore").`);
  }
  if (overruns.runBudgetSkipped > 0) {
    const n = overruns.runBudgetSkipped;
    notes.push(
      `parsing documents spent the run's budget (${RUN_PARSE_BASE_MS / 1000} s of CPU time plus ${RUN_PARSE_MS_PER_MIB / 1000} s per MiB parsed), so ${n} ${n === 1 ? 'document was' : 'documents were'} not read (see their parse-error warnings; exclude slow files with "ignore").`,
    );
  }
  if (overruns.ceilingSkipped > 0) {
    const n = overruns.ceilingSkipped;
    notes.push(
      `parsing documents reached the run's ceiling (${RUN_PARSE_CEILING_MS / 1000} s of CPU time, garbage collection included), so ${n} ${n === 1 ? 'document was' : 'documents were'} not read (see the parse-error warning; exclude slow files with "ignore").`,
    );
  }
  if (overruns.largeSkipped > 0) {
    const n = overruns.largeSkipped;
    notes.push(
      `${n} large ${n === 1 ? 'document was' : 'documents were'} not read: one run reads at most ${RUN_LARGE_DOCUMENTS_LENGTH / 1024} KB of documents of ${LARGE_DOCUMENT_LENGTH / 1024} KB or more (see their parse-error warnings; split such pages or exclude them with "ignore").`,
    );
  }
  return notes;
}

/**
 * A Python source whose text is read through `read` when first asked for, then kept: the
 * per-file cache keys its pieces by `hash` (the run cache's content hash), so most runs never
 * read it. A file that cannot be read by then reads as empty (`read` reports it).
 */
function lazySource(file: string, hash: string, read: ReadFile): PythonSource {
  let text: string | undefined;
  return {
    file,
    hash,
    get text(): string {
      text ??= read(file) ?? '';
      return text;
    },
  };
}

/**
 * Each Python source's {@link PythonTextFacts}, once per source: as the run cache computed them
 * from the hashed bytes (`known`, for a source with a content hash), else scanned from its text.
 */
function textFactsOf(known: ReadonlyMap<string, PythonTextFacts> | undefined): (source: PythonSource) => PythonTextFacts {
  const memo = new WeakMap<PythonSource, PythonTextFacts>();
  return (source) => {
    let facts = memo.get(source);
    if (!facts) {
      const stored = source.hash !== undefined ? known?.get(source.file) : undefined;
      // The run cache may have been written by another docdrift build: facts of another shape are scanned again.
      facts = stored !== undefined && isTextFacts(stored) ? stored : pythonTextFacts(source.text);
      memo.set(source, facts);
    }
    return facts;
  };
}

/** True for a {@link PythonTextFacts} of this build's shape. */
function isTextFacts(value: unknown): value is PythonTextFacts {
  const v = value as Partial<PythonTextFacts> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.framework === 'boolean' && typeof v.functionFramework === 'boolean' &&
    typeof v.mainGuard === 'boolean' && Array.isArray(v.imports) && v.imports.every((i) => typeof i === 'string') &&
    typeof v.chars === 'number' && typeof v.dataOnly === 'boolean' && typeof v.tokens === 'number'
  );
}

/** `package.json` at the root or in a workspace package. */
function isPackageJson(file: string): boolean {
  return file === 'package.json' || file.endsWith('/package.json');
}

/**
 * Starts the TypeScript facts in a worker thread ({@link startTypeScriptFacts}) when a
 * package.json declares `bin` commands or the config names script programs
 * (`commands.<name>.program`), so that {@link extractCode} will need them whatever the Python
 * sources say, with the inputs it will give them, and the per-file store does not hold them. Reads with `context.peek`, which reports
 * nothing: extraction reads the same files again in its usual order, and uses the worker's answer
 * only for the same texts. Returns `undefined` when nothing was started. Not on large runs
 * ({@link LARGE_RUN_FILES} documents and sources): there a second isolate holding ts-morph while
 * the Python scans are alive would cost more memory (synthetic 10x: peak RSS 367 -> ~400 MB)
 * than its time is worth.
 */
function startEarlyTypeScript(files: DiscoveredFiles, tsFiles: string[], context: ExtractContext, cache: FactCache, config: DocdriftConfig): PendingTypeScriptFacts | undefined {
  if (files.docs.length + files.sources.length >= LARGE_RUN_FILES) return undefined;
  const texts = (list: string[]): Array<{ file: string; text: string }> =>
    list.flatMap((file) => {
      const text = context.peek(file);
      return text === undefined ? [] : [{ file, text }];
    });
  const packageJsons = texts(files.packaging.filter(isPackageJson));
  // The same inputs extraction gives the TypeScript facts, or its answer is not used (a config
  // naming `program: "src/cli.ts"` had every project's TypeScript read twice, s47 sweep K1).
  const configBins = configPackageJson(configScriptPrograms(config));
  if (configBins) packageJsons.push(configBins);
  if (!packageJsons.some((pkg) => Object.keys(binEntries(pkg.text)).length > 0)) return undefined;
  const tsSources = texts(tsFiles);
  const programFiles = files.programs ?? [];
  const configTypes = configTypeNames(config);
  if (cache.hasTypeScriptFacts({ tsSources, packageJsons, programFiles, configTypes })) return undefined;
  // The worker reads compiled JavaScript, shims and manifests, never a document: an open page (the
  // language server's overlay holds every open buffer) is not copied to it.
  const overlay = [...(context.overlay ?? [])].filter(([file]) => !DOCUMENT_EXTENSION_RE.test(file));
  const pending = startTypeScriptFacts({ root: context.root, overlay, unreadable: [...(context.unreadable?.keys() ?? [])], tsSources, packageJsons, programFiles, configTypes });
  context.typeScript = pending;
  return pending;
}

/** The names `commands.<name>.config` gives, each once, in the config's order (the TypeScript budget reads the files declaring them first). */
function configTypeNames(config: DocdriftConfig): string[] {
  const names = Object.values(config.commands).flatMap((c) => (c.config === undefined ? [] : Array.isArray(c.config) ? c.config : [c.config]));
  return [...new Set(names)];
}

/**
 * The tokens ({@link countTypeScriptTokens}) of the TypeScript sources and JavaScript programs a
 * run may parse, read with `peek` (which reports nothing: extraction reads them again); at most
 * {@link MAX_TYPESCRIPT_RUN_TOKENS}, the most one run parses (counting stops there). 0 when there
 * are none: a Python project's flag files keep their whole budget.
 */
function runTypeScriptTokens(tsFiles: readonly string[], programs: readonly string[], peek: ReadFile, root?: string): number {
  let n = 0;
  // A program file over its cap is never parsed: not read here either (a 57 MB bin/cli.js, #33 F11).
  const overCap = (i: number): boolean => i >= tsFiles.length && root !== undefined && (projectFileSize(root, programs[i - tsFiles.length]!) ?? 0) > MAX_JS_FILE_BYTES;
  for (const [i, file] of [...tsFiles, ...programs].entries()) {
    if (n >= MAX_TYPESCRIPT_RUN_TOKENS) break;
    if (overCap(i)) continue;
    const text = peek(file);
    if (text !== undefined) n += countTypeScriptTokens(text);
  }
  return Math.min(n, MAX_TYPESCRIPT_RUN_TOKENS);
}

/**
 * Reads a project file's text (stage "read"): the overlay's text when it has one, else the file
 * under `root` as UTF-8. A file that cannot be read becomes a `parse-error` diagnostic pushed to
 * `diagnostics`, and `undefined`.
 */
export type ReadFile = (file: string) => string | undefined;

/**
 * The reader of one run: `file` is a project-relative POSIX path. A file in `overlay` is taken
 * from there (a Python source whose coding comment declares a codec docdrift cannot decode is
 * refused, as on disk: `pythonTextCodingError`). Each file read from disk is
 * added to `record`, and its text to `texts`. A file in `unreadable` ({@link LintOptions.unreadable})
 * is reported with its error, never read. A file in `known` ({@link LintOptions.diskTexts}) is
 * taken from there, as if read.
 */
export function createReader(root: string, overlay: ReadonlyMap<string, string> | undefined, diagnostics: InputDiagnostic[], record?: Set<string>, texts?: Map<string, string>, unreadable?: ReadonlyMap<string, ReadFileError>, known?: ReadonlyMap<string, string>): ReadFile {
  return (file) => {
    const overlaid = overlay?.get(file);
    try {
      if (overlaid !== undefined) {
        // An open buffer declaring a codec docdrift cannot decode is refused as the file on disk is.
        const undecodable = pythonTextCodingError(file, overlaid);
        if (undecodable) throw undecodable;
        return overlaid;
      }
      const refused = unreadable?.get(file);
      if (refused) throw refused;
      record?.add(file);
      const text = known?.get(file) ?? readProjectFile(root, file, { maxBytes: MAX_READ_BYTES });
      texts?.set(file, text);
      return text;
    } catch (error) {
      const message = `Cannot read ${file}: ${readErrorText(error)}`;
      // Once per file: a TypeScript source is read by more than one extractor (a UTF-16 one
      // refused by `decodeText` was reported twice). Checked on the list, which a stage may cut back.
      if (diagnostics.some((d) => d.message === message && d.location.file === file)) return undefined;
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message,
        // A source refused for its declared codec is reported at its coding comment.
        location: { file, line: error instanceof SourceCodingError ? error.line : 1, column: 1 },
      });
      return undefined;
    }
  };
}

/** What the code says (stage "extract"): config classes, CLI flags, entry points, and the texts they came from. */
export interface CodeFacts {
  /** The config's `globalParameters` as they apply to these sources (see {@link effectiveGlobalParameters}). */
  globalParameters: string[];
  /** Config classes from Python and, when read, TypeScript. */
  classes: ConfigClass[];
  functionConfigs: Map<string, string[]>;
  functionSecondaryConfigs: ExtractedPython['functionSecondaryConfigs'];
  /** See `PythonExtraction.functionConfigsThroughCalls`. */
  functionConfigsThroughCalls: ExtractedPython['functionConfigsThroughCalls'];
  flagCommands: FlagCommand[];
  /** Flags modules compare argv words with by hand (see `FlagCommand.launcher`). */
  launcherFlags: FlagCommand[];
  /** Console scripts and `bin` commands (bins running one file share its first bin's target). */
  entryPoints: EntryPoint[];
  /** See `PythonExtraction.canonicalTarget`. */
  canonicalTarget: (target: string) => string;
  /** Python files with an `if __name__ == "__main__":` block (scripts run as `python file.py`). */
  runnableScripts: Set<string>;
  stringKeys: ExtractedPython['stringKeys'];
  /** Keys that YAML files read through OmegaConf interpolation. */
  interpolatedKeys: Set<string>;
  /** Python plus TypeScript sources read, for {@link LintStats}. */
  sourceCount: number;
  /**
   * Set when the TypeScript extraction ran past its worker's CPU budget: no TypeScript type was
   * read, so a config name that may be one is unknown, not misspelt ({@link unresolvedConfigClasses}).
   */
  typeScriptUnread?: true;
  /**
   * What was met in programs whose flags and config were not read, by target (`pkg.cli:main`,
   * `bin:tool`): the first CLI library each reaches, or a bin's file with no source. The model
   * keeps it on the commands whose parameters stay unknown.
   */
  unreadPrograms: Array<[string, UnreadProgram]>;
  /** CLI libraries used by Python scripts (`if __name__ == "__main__":`) that no command reads: said when no command is found. */
  scriptLibraries: CliLibraryUse[];
  /** Environment variables the Python and TypeScript/JavaScript sources read (issue #31), both languages merged. */
  env: EnvExtraction;
  /**
   * Upper-case words with an underscore in the code's text (see `collectEnvWords`), and the
   * upper-case names the project's scripts, Dockerfiles, Makefiles and justfiles read, set or
   * declare (`scriptEnv`): a documented variable mentioned there is not called unknown.
   */
  envWords: string[];
  /** The packages the project depends on and those it holds (`readDependencies`): sibling packages' env namespaces. */
  dependencies: PackageDependencies;
}

type ExtractedPython = Awaited<ReturnType<typeof extractPython>>;
type EntryPoint = ReturnType<typeof readEntryPoints>['entryPoints'][number];

/** What {@link extractCode} may use beyond the files: to start the TypeScript extraction early in a worker thread, and to skip reading unchanged Python files. */
export interface ExtractContext {
  root: string;
  overlay: ReadonlyMap<string, string> | undefined;
  /** {@link LintOptions.unreadable}. */
  unreadable?: ReadonlyMap<string, ReadFileError>;
  /** A reader that reports nothing. */
  peek: ReadFile;
  /** Set by {@link extractCode}: the TypeScript facts it started in a worker thread, if it did. */
  typeScript?: PendingTypeScriptFacts;
  /** Told of each source file read (stage `extract`); see {@link ProgressEvent}. */
  onProgress?: ProgressListener;
  /** {@link LintOptions.pythonWorker}. */
  pythonWorker?: 'auto' | 'always' | 'never';
  /** Set by {@link extractCode}: the Python flags came from the worker thread. */
  pythonWorkerUsed?: boolean;
}

/**
 * Stage "extract": reads packaging, Python sources and YAML, and (only when something can use
 * it) TypeScript, and extracts config classes, CLI flags and entry points. Problems go to
 * `diagnostics`. With a `context`, TypeScript facts that will surely be needed and are not stored
 * are computed in a worker thread while the Python sources are parsed, and Python files the run
 * cache hashed are read only when a piece is missing (same result either way). Every per-file
 * fact (Python scans, the CLI flags, the TypeScript facts and env reads) is asked of `cache`, the
 * run's fact cache (src/engine/facts.ts; default: none, every fact computed).
 */
export async function extractCode(found: DiscoveredFiles, config: DocdriftConfig, read: ReadFile, diagnostics: InputDiagnostic[], cache: FactCache = NO_CACHE, context?: ExtractContext): Promise<CodeFacts> {
  // Manifests past the run's bound on declared commands are not read at all (one warning).
  const bounded = withinRunCommandBound(found.packaging, context?.peek ?? read);
  if (bounded.problem) diagnostics.push(bounded.problem);
  const files: DiscoveredFiles = bounded.problem ? { ...found, packaging: bounded.packaging } : found;
  // Declaration files (`types/shared.d.ts`) are read too: a config type may extend an interface
  // declared there; their own types are listed only when another type reaches them (extract.ts).
  const tsFiles = files.sources.filter((f) => /\.(ts|mts|cts|tsx)$/.test(f));
  const pendingTs = context && startEarlyTypeScript(files, tsFiles, context, cache, config);
  // Packaging files of test fixtures (`tests/integration/dummy-project/pyproject.toml`) declare
  // no command of this project: test directories are not packages.
  const packaging = files.packaging.filter((f) => f !== 'package.json' && !f.endsWith('/package.json') && !TEST_DIR_RE.test(f)).flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  const entry = readEntryPoints(packaging.filter((f) => !f.file.endsWith('setup.py')));
  pushAll(diagnostics, entry.diagnostics);
  const setupPy = await readSetupPyEntryPoints(packaging.filter((f) => f.file === 'setup.py' || f.file.endsWith('/setup.py')));
  pushAll(entry.entryPoints, setupPy.entryPoints);
  pushAll(diagnostics, setupPy.diagnostics);

  // A Python file hashed by the run cache is read only when its text is needed: its stored scan
  // (keyed by the hash) and its text facts (recorded when it was hashed) spare it, so a run in which
  // one Python file changed reads that one, not the hundreds whose pieces are stored. An unhashed
  // or unreadable file is read now.
  const discovered: PythonSource[] = [];
  // Sources the reader could not read (each has its parse-error): an entry point in one is unread, not parser-less.
  const unreadSources = new Map<string, string>();
  let done = 0;
  for (const file of files.sources) {
    context?.onProgress?.({ stage: 'extract', done: ++done, total: files.sources.length });
    if (!file.endsWith('.py')) continue;
    const hash = cache.pieceHash(file);
    if (hash !== undefined) {
      discovered.push(lazySource(file, hash, read));
      continue;
    }
    const text = read(file);
    if (text !== undefined) discovered.push({ file, text });
    else unreadSources.set(file, '');
  }
  const factsOf = textFactsOf(cache.pythonFacts);
  // A source too large to parse in bounded time and memory is not read (its facts say so without
  // its text): one warning, except for a module of data, which can define nothing docdrift reads.
  // Sources that may define CLI flags get the run's budget for large sources first, test files last.
  const limits = pythonSourcesOverLimits(discovered, factsOf, (source) => (factsOf(source).framework ? 0 : TEST_DIR_RE.test(source.file) ? 2 : 1));
  const refused = new Map<string, string>();
  for (const [source, reason] of limits.refused) {
    refused.set(source.file, reason);
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Not read: ${reason}, which the Python parser cannot handle in bounded time and memory; its config classes, CLI flags and environment variables are unknown`,
      location: { file: source.file, line: 1, column: 1 },
    });
  }
  if (limits.overBudget.length > 0) {
    // One warning for all of them: a project of many large generated modules is one fact, not a cascade.
    const reason = `the Python sources over ${LARGE_PYTHON_SOURCE_CHARS / 1024} KB of this run hold more than ${MAX_PYTHON_RUN_TOKENS.toLocaleString('en-US')} tokens, the limit for one run`;
    for (const source of limits.overBudget) refused.set(source.file, reason);
    const [first, ...others] = limits.overBudget.map((s) => s.file);
    const more = alsoNotRead(others, 'large sources');
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Not read${more}: ${reason}; their config classes, CLI flags and environment variables are unknown`,
      location: { file: first!, line: 1, column: 1 },
      ...(others.length > 0 ? { alsoUnread: others } : {}),
    });
  }
  const sources = discovered.filter((source) => !limits.quiet.has(source) && !refused.has(source.file));
  const interpolatedKeys = new Set<string>();
  for (const file of files.yaml) {
    const text = read(file);
    if (text !== undefined) for (const key of interpolationKeys(text)) interpolatedKeys.add(key);
  }
  // CLI flags (argparse, click, typer, cyclopts, jsonargparse, decli): only files that can define them are read again, from the
  // syntax trees the class extraction keeps for them (each file is parsed once).
  const packageRoots = pythonPackageRoots(packaging.map((f) => f.file), sources);
  // The config's command names and aliases that are module names (`python -m pkg.launcher`) too.
  const entryModules = [
    ...entry.entryPoints.map((e) => e.target),
    ...Object.entries(config.commands).flatMap(([name, c]) => [c.program ?? '', name, ...(c.aliases ?? [])]),
  ]
    .map((t) => t.split(':')[0]!.trim())
    .filter((m) => /^[A-Za-z_][\w.]*$/.test(m));
  const mayDefineFlags = flagSourceFilter(sources, packageRoots, factsOf, entryModules);
  // Flag extraction holds the trees of all flag files at once: past the run's token budget the
  // largest are not read for flags, said once (s31 D1: 20 modules of 240 KB peaked at 757 MB).
  // That budget is shared with the TypeScript sources, whose trees the TypeScript extraction holds
  // at the same time (s31 D5: both near their own limits peaked at 486-518 MB).
  const entryFiles = new Set(entryModules);
  const flagCandidates = sources.filter(mayDefineFlags);
  let typeScriptTokens = 0;
  const flagBudget = pythonFlagTokenBudget(flagCandidates.reduce((n, s) => n + factsOf(s).chars, 0), () => (typeScriptTokens = runTypeScriptTokens(tsFiles, files.programs ?? [], context?.peek ?? read, context?.root)));
  const overFlagBudget = new Set(
    pythonFlagSourcesOverBudget(flagCandidates, (s) => factsOf(s).chars, (s) => s.text, (s) => (entryFiles.has(moduleNameForFile(s.file, packageRoots)) ? 0 : 1), flagBudget).map((s) => s.file),
  );
  const readsFlags = (source: PythonSource): boolean => mayDefineFlags(source) && !overFlagBudget.has(source.file);
  const flagSources = sources.filter(readsFlags);
  // Flags resolve across the files that may define them: stored as one piece for all of them.
  const flagsPiece = cache.pythonFlags<Awaited<ReturnType<typeof extractPythonFlags>>>(packageRoots, flagSources);
  const storedFlags = flagsPiece.get();
  // Flags not stored are extracted on the second core when that repays a worker (it sends the
  // flag files' scans first, so each file is parsed once); otherwise from the trees kept here.
  const flagChars = storedFlags || !context ? 0 : flagSources.reduce((n, s) => n + s.text.length, 0);
  const pending = flagChars > 0 && wantsPythonWorker(context?.pythonWorker ?? 'auto', flagChars)
    ? startPythonFlags({ sources: flagSources.map((s) => ({ file: s.file, text: s.text })), packageRoots })
    : undefined;
  // The run's budget of class fields (s45 G2: 60 generated modules of 10,000 pydantic fields took
  // 19-27 s and 651-774 MB) goes first to the entry modules, the modules the config names and
  // what they import, then to the smaller sources (hand-written before generated), test files
  // last. The files read for flags are always read: their own token budget bounds them.
  const budgetFirst = classFieldBudgetFirst(sources, (s) => factsOf(s).chars, MAX_PYTHON_CLASS_FIELDS, entryModules, config, packageRoots);
  const tier = (source: PythonSource): number => (budgetFirst.has(source) ? 0 : TEST_DIR_RE.test(source.file) ? 2 : 1);
  const rank = (source: PythonSource): number => tier(source) * (MAX_PYTHON_SOURCE_CHARS + 1) + factsOf(source).chars;
  // The sources under the class-field budget that the scan cache does not hold, in the order the
  // budget reads them (extractPython's: by rank, `.pyi` stubs after): the last half of their
  // text is scanned by a second thread meanwhile (#35, #33 s46 H15), when that repays a thread.
  const scanCache = cache.pythonScans();
  const mode = context?.pythonWorker ?? 'auto';
  // Cheap bounds first (lengths known without reading a text): the cache is asked, without decoding
  // its pieces or counting hits, only where a share may follow.
  const budgeted = !context || mode === 'never' ? [] : sources.filter((s) => !readsFlags(s));
  const toScan = mode !== 'always' && budgeted.reduce((n, s) => n + factsOf(s).chars, 0) < PYTHON_SCAN_WORKER_MIN_CHARS ? [] : budgeted
    .filter((s) => !scanCache?.has?.(s, moduleNameForFile(s.file, packageRoots)))
    .map((s, i) => ({ s, i, r: rank(s), stub: Number(s.file.endsWith('.pyi')) }))
    .sort((a, b) => a.r - b.r || a.stub - b.stub || a.i - b.i)
    .map((x) => x.s);
  // Not where the class-field budget may stop reading: the worker would scan what is then not read.
  const underBudget = (): boolean => toScan.reduce((n, s) => n + estimatedClassFields(s.text), 0) < MAX_PYTHON_CLASS_FIELDS;
  const candidates = mode === 'always' ? toScan.slice(Math.ceil(toScan.length / 2)) : scanWorkerShare(toScan, (s) => s.text.length, undefined, files.docs.length + files.sources.length);
  const share = candidates.length > 0 && (mode === 'always' || underBudget()) ? candidates : [];
  const scanning = share.length > 0 ? startPythonScans({ sources: share.map((s) => ({ file: s.file, text: s.text })), packageRoots }) : undefined;
  const python = await extractPython(sources, {
    ...(scanning ? { shared: { files: new Set(share.map((s) => s.file)), scans: scanning.scans } } : {}),
    retain: storedFlags || pending ? undefined : readsFlags,
    packageRoots,
    scans: scanCache,
    ...(pending ? { deferred: { files: new Set(flagSources.map((s) => s.file)), scans: pending.scans } } : {}),
    classFieldBudget: { exempt: readsFlags, rank },
  }).finally(() => scanning?.stop()); // scans the budget did not reach are not wanted
  pushAll(diagnostics, python.diagnostics);
  if (python.overClassFieldBudget) {
    // One warning for all of them, as for the large sources above: the classes of a name the
    // config gives that one of them may define are unread, not missing (`alsoUnread`).
    const { files: over, read: fieldsRead, limit } = python.overClassFieldBudget;
    const reason = `the Python sources read before ${over.length === 1 ? 'it' : 'them'} declare class fields counting ${fieldsRead.toLocaleString('en-US')} (${CLASS_FIELD_COST_NOTE}), over the limit of ${limit.toLocaleString('en-US')} for one run`;
    for (const file of over) refused.set(file, reason);
    const chars = sources.reduce((n, s) => (refused.get(s.file) === reason ? n + factsOf(s).chars : n), 0);
    const [first, ...others] = over;
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message:
        `Not read${alsoNotRead(others, 'Python sources')}: ${reason}; the config classes, functions and environment variables of ${over.length === 1 ? 'this file' : `these ${over.length.toLocaleString('en-US')} files`} ` +
        `(${(chars / (1024 * 1024)).toFixed(1)} MB) are unknown. Exclude generated modules with \`ignore\` or \`sources\` in the docdrift config`,
      location: { file: first!, line: 1, column: 1 },
      ...(others.length > 0 ? { alsoUnread: others } : {}),
    });
  }
  const fromWorker = await pending?.flags;
  if (fromWorker && context) context.pythonWorkerUsed = true;
  // A worker past its CPU budget is not followed by the same extraction in-thread (unbounded):
  // the flags of its files are unknown, said once, and their programs' parameters are unknown
  // (no finding about flags docdrift did not read).
  // Nor is one that V8 ended at its heap limit, or whose extraction threw (s28 sweep D5).
  const stopped = fromWorker || storedFlags ? undefined : pending?.stopped;
  const flagsUnread = new Map<string, string>();
  if (overFlagBudget.size > 0) {
    const reason = flagBudget < MAX_PYTHON_FLAG_RUN_TOKENS
      ? `the files that may define CLI flags hold more than ${flagBudget.toLocaleString('en-US')} tokens, the limit for one run next to ${typeScriptTokens.toLocaleString('en-US')} tokens of TypeScript and JavaScript sources`
      : `the files that may define CLI flags hold more than ${MAX_PYTHON_FLAG_RUN_TOKENS.toLocaleString('en-US')} tokens, the limit for one run`;
    for (const file of overFlagBudget) flagsUnread.set(file, reason);
    const [first, ...others] = [...overFlagBudget];
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `CLI flags not read${alsoNotRead(others, 'files that may define flags')}: ${reason}; the flags of the commands defined there are unknown and not checked. Declare them in \`commands.<name>.flags\` of the docdrift config, or exclude large generated modules from \`sources\``,
      location: { file: first!, line: 1, column: 1 },
    });
  }
  if (stopped !== undefined) {
    const reason = `extracting the CLI flags of ${flagSources.length === 1 ? 'this file' : `these ${flagSources.length} files`} (${(flagChars / 1024).toFixed(0)} KB) ${workerStopText(stopped)}`;
    for (const source of flagSources) flagsUnread.set(source.file, reason);
    const [first, ...others] = flagSources.map((s) => s.file);
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `CLI flags not read${alsoNotRead(others, 'files that may define flags')}: ${reason}; the flags of the commands defined there are unknown and not checked. Declare them in \`commands.<name>.flags\` of the docdrift config, or exclude a large generated module from \`sources\``,
      location: { file: first!, line: 1, column: 1 },
    });
  }
  const flags = storedFlags ?? fromWorker ?? (stopped !== undefined ? { commands: [], diagnostics: [] } : await extractPythonFlags(flagSources, { parsed: python.retained, packageRoots }));
  // An expiry depends on the machine's load, not on the texts: never stored.
  if (!storedFlags && stopped === undefined) flagsPiece.set(flags);
  // A file both passes read reports its syntax error once.
  const reported = new Set(python.diagnostics.map((d) => `${d.ruleId}:${d.location.file}`));
  pushAll(diagnostics, flags.diagnostics.filter((d) => !reported.has(`${d.ruleId}:${d.location.file}`)));
  const flagCommands: FlagCommand[] = [...flags.commands];

  // TypeScript: read only when something can use it (ts-morph costs ~0.5 s to load): the root
  // package.json declares `bin` commands, or the config maps a command to a class that the
  // Python sources do not define.
  const classes = [...python.classes];
  const functionConfigs = new Map(python.functionConfigs);
  const functionSecondaryConfigs = python.functionSecondaryConfigs;
  // Classes a program only reaches on the way (Python: by following calls; TypeScript: a value
  // a bin builds from its parsed input): the flags its CLI framework declares replace them.
  const functionConfigsThroughCalls = new Set(python.functionConfigsThroughCalls);
  // A console script naming a module that only re-exports the app reaches the app.
  // Scripts sharing one dispatcher that switches on `sys.argv[0]` run the function it picks.
  const entryPoints = entry.entryPoints.map((e) => {
    const canonical = python.canonicalTarget(e.target);
    const route = routeFor(python.argvDispatch.get(withoutExtras(canonical).trim()) ?? [], e.name);
    if (route) return { ...e, target: route.target, ...(route.words ? { subcommand: route.words } : {}) };
    return canonical === e.target ? e : { ...e, target: canonical };
  });
  // Every package.json (workspace packages too) may declare `bin` commands.
  const packageJsons = files.packaging.flatMap((file) => {
    if (!isPackageJson(file)) return [];
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  // A bin npm could not run is a warning naming why, rather than "no bin in package.json" over a silent pass.
  const bins = packageJsons.flatMap((pkg) => {
    const read = readPackageBins(pkg);
    if (read.problem) diagnostics.push(read.problem);
    return read.bins.map((bin) => ({ ...bin, packageJson: pkg.file }));
  });
  // `commands.<name>.program: "src/cli.ts"`: the file is read as the program of a bin of its own
  // (`bin:config:<name>`), as if a package.json declared it.
  const scriptPrograms = configScriptPrograms(config);
  const programTargets = new Map(scriptPrograms.map(([name, program]) => [program, `bin:${CONFIG_BIN_PREFIX}${name}`]));
  const configBins = configPackageJson(scriptPrograms);
  if (configBins) packageJsons.push(configBins);
  const pythonNames = new Set(python.classes.flatMap((c) => [c.name, c.qualifiedName]));
  const wantsTs =
    bins.length > 0 ||
    scriptPrograms.length > 0 ||
    Object.values(config.commands).some((c) => [c.config ?? []].flat().some((n) => !pythonNames.has(n)));
  let tsSourceCount = 0;
  // Flag commands of the TypeScript programs: their flags' env fallbacks are env vars too (issue #31).
  const tsFlagEnv: FlagCommand[] = [];
  const tsUnread: Array<[string, UnreadProgram]> = [];
  let typeScriptUnread = false;
  if ((tsFiles.length > 0 || bins.length > 0 || scriptPrograms.length > 0) && wantsTs) {
    const tsSources = tsFiles.flatMap((file) => {
      const text = read(file);
      return text === undefined ? [] : [{ file, text }];
    });
    const before = diagnostics.length;
    // A program file's size before it is read, as the worker's `size` gives it (the overlay's text, else its stat).
    const size =
      context &&
      ((file: string): number | undefined => {
        const overlaid = context.overlay?.get(file);
        return overlaid !== undefined ? Buffer.byteLength(overlaid) : context.unreadable?.has(file) ? undefined : projectFileSize(context.root, file);
      });
    const ts = await cachedTypeScriptFacts(cache, tsSources, packageJsons, files.programs ?? [], read, diagnostics, pendingTs, size, configTypeNames(config));
    // The TypeScript extractor reports an unreadable package.json as the bins above did: once is enough.
    const reported = new Set(diagnostics.slice(0, before).map((d) => `${d.ruleId}:${d.location.file}:${d.message}`));
    pushAll(diagnostics, diagnostics.splice(before).filter((d) => !reported.has(`${d.ruleId}:${d.location.file}:${d.message}`)));
    tsSourceCount = ts.sourceCount;
    pushAll(classes, ts.classes);
    for (const [bin, configs] of ts.binConfigs) functionConfigs.set(bin, configs);
    for (const bin of ts.binConfigsBuilt ?? []) functionConfigsThroughCalls.add(bin);
    pushAll(flagCommands, ts.flagCommands);
    pushAll(tsFlagEnv, ts.flagCommands);
    pushAll(tsUnread, ts.unreadPrograms ?? []);
    if (ts.overBudget) typeScriptUnread = true;
    pushAll(entryPoints, binEntryPoints(bins, new Set(entryPoints.map((e) => e.name)), new Set(ts.namedBins)));
  }
  const unreadPrograms = pythonUnreadPrograms(entryPoints, config, python.overClassFieldBudget ? sources.filter((s) => !refused.has(s.file)) : sources, packageRoots, flagCommands, functionConfigs, context?.root, refused, flagsUnread, unreadSources);
  const runnable = sources.filter((src) => factsOf(src).mainGuard);
  const flagFiles = new Set(flagCommands.map((f) => f.location.file));
  // Only said when no command is found: scanned only then.
  const scriptLibraries = entryPoints.length > 0 || Object.keys(config.commands).length > 0 ? [] : runnable.filter((src) => !flagFiles.has(src.file)).slice(0, MAX_SCRIPT_SCANS).flatMap((src) => cliLibraryUses(src.file, src.text).slice(0, 1));
  // JSON Schema files: their object schemas are config types too; a type the code declares wins.
  const schemaFiles = (files.schemas ?? []).flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  if (schemaFiles.length > 0) {
    const schemas = extractJsonSchemas(schemaFiles);
    pushAll(diagnostics, schemas.diagnostics);
    const declared = new Set(classes.map((c) => c.name));
    pushAll(classes, schemas.classes.filter((c) => !declared.has(c.name)));
  }
  // Env vars of every TypeScript/JavaScript source, bins or not (issue #31): only files that mention the environment are parsed.
  const tsEnv = await typeScriptEnv(envSourceFiles([...tsFiles, ...(files.programs ?? [])]), read, cache);
  // A file the env scan's parser could not take (nested too deeply, s28 sweep D7) is a parse-error warning.
  pushAll(diagnostics, tsEnv.diagnostics);
  const scripts = scriptsEnv(files.scripts ?? [], read);
  return {
    globalParameters: effectiveGlobalParameters(config.globalParameters, sources, factsOf),
    classes,
    functionConfigs,
    functionSecondaryConfigs,
    functionConfigsThroughCalls,
    flagCommands,
    launcherFlags: flags.launchers ?? [],
    entryPoints,
    canonicalTarget: programTargets.size === 0 ? python.canonicalTarget : (target) => programTargets.get(target) ?? python.canonicalTarget(target),
    runnableScripts: new Set(runnable.map((src) => src.file)),
    unreadPrograms: [...unreadPrograms, ...tsUnread],
    scriptLibraries,
    stringKeys: python.stringKeys,
    interpolatedKeys,
    sourceCount: discovered.length + tsSourceCount,
    ...(typeScriptUnread ? { typeScriptUnread: true as const } : {}),
    // Issue #31: the Python reads and flags' `envvar=`, then the TypeScript/JavaScript reads and flags' env fallbacks.
    // Then what the project's scripts say: names they read (words) and what its image sets (internal).
    env: mergeEnv(
      python.env,
      { vars: pythonFlagEnvVars(flags.commands), dynamic: [] },
      { vars: [...tsEnv.vars, ...flagEnvVars(tsFlagEnv)], dynamic: tsEnv.dynamic, ...(tsEnv.internal ? { internal: tsEnv.internal } : {}) },
      { vars: [], dynamic: [], ...(scripts.internal.length > 0 ? { internal: scripts.internal } : {}) },
    ),
    envWords: codeEnvWords([...python.envWords, ...tsEnv.words, ...scripts.words], files.yaml, read),
    dependencies: readDependencies([...packaging.filter((f) => f.file === 'pyproject.toml' || f.file.endsWith('/pyproject.toml')), ...packageJsons]),
  };
}


/**
 * What the project's shell scripts, Dockerfiles, Makefiles and justfiles say about the
 * environment (`scriptEnv`, src/extract/script-env.ts), in file order: the names they read, set or
 * declare, and the variables a Dockerfile's `ENV` sets in the project's image.
 */
function scriptsEnv(files: readonly string[], read: ReadFile): { words: string[]; internal: InternalEnvVar[] } {
  const words = new Set<string>();
  const internal: InternalEnvVar[] = [];
  for (const file of files) {
    const text = read(file);
    if (text === undefined) continue;
    const found = scriptEnv(file, text);
    for (const w of found.words) words.add(w);
    pushAll(internal, found.internal);
  }
  return { words: [...words], internal };
}

/**
 * The words a documented variable may be mentioned by, sorted: `sourceWords` (upper-case words
 * with an underscore of the Python and TypeScript/JavaScript sources, gathered by the per-file
 * passes, and the names the project's scripts use, see {@link scriptsEnv}) and the upper-case
 * words with an underscore of the project's YAML files (compose `environment:`, workflow `env:`,
 * Helm values), see `collectEnvWords`.
 */
function codeEnvWords(sourceWords: readonly string[], otherFiles: readonly string[], read: ReadFile): string[] {
  const words = new Set<string>(sourceWords);
  for (const file of otherFiles) {
    const text = read(file);
    if (text !== undefined && text.length <= MAX_ENV_WORD_SCAN) collectEnvWords(text, words);
  }
  return [...words].sort();
}

/**
 * The entry points of package.json bins. Bins running the same file (`concurrently` and `conc`)
 * are one command with aliases, as console scripts naming the same function are: they share one
 * target, that of the bin the program names (`.name('packgen')`, from `namedBins`), else of the
 * first bin, and that bin's entry point comes first (it names the command). So `{"pg", "packgen"}`
 * and `{"packgen", "pg"}` running one program named `packgen` are the same command.
 *
 * @param bins every bin of every package.json, in order
 * @param taken names already given to entry points (a bin of a taken name, or a second bin of one name, is left out); not changed
 * @param namedBins targets (`bin:<name>`) of bins named by the program they run
 */
function binEntryPoints(bins: ReadonlyArray<{ name: string; file: string; line: number; packageJson: string }>, taken: ReadonlySet<string>, namedBins: ReadonlySet<string>): EntryPoint[] {
  // Names taken, as a set (a scan of the list per bin was quadratic: 100,000 bins, #33 item 5).
  const named = new Set(taken);
  const kept: Array<{ name: string; line: number; packageJson: string; key: string }> = [];
  for (const { name, line, file, packageJson } of bins) {
    if (named.has(name)) continue;
    named.add(name);
    kept.push({ name, line, packageJson, key: path.posix.join(path.posix.dirname(packageJson), file) });
  }
  // The bin that names each file's command: the one its program names, else the first.
  const primary = new Map<string, string>();
  for (const bin of kept) {
    const current = primary.get(bin.key);
    if (current === undefined || (namedBins.has(`bin:${bin.name}`) && !namedBins.has(`bin:${current}`))) primary.set(bin.key, bin.name);
  }
  const out: EntryPoint[] = [];
  const started = new Set<string>();
  const entry = (bin: (typeof kept)[number]): EntryPoint => ({ name: bin.name, target: `bin:${primary.get(bin.key)!}`, location: { file: bin.packageJson, line: bin.line, column: 1 }, file: bin.key });
  const byName = new Map(kept.map((bin) => [bin.name, bin]));
  for (const bin of kept) {
    const first = primary.get(bin.key)!;
    // The command's bin takes the place of the file's first bin.
    if (!started.has(bin.key)) {
      started.add(bin.key);
      out.push(entry(byName.get(first)!));
    }
    if (bin.name !== first) out.push(entry(bin));
  }
  return out;
}

/** How many Python scripts without a read parser are scanned for CLI libraries (for the note when no command is found). */
const MAX_SCRIPT_SCANS = 50;
/** How many import hops from an entry's module are searched for a CLI library. */
const LIBRARY_HOPS = 2;

/**
 * The dotted names a Python source may import modules by ({@link pythonImports}, read with
 * patterns, never run): `from pkg import mod` gives `pkg` and `pkg.mod` (either may be the
 * module), `from . import x` in `pkg/a.py` gives `pkg` and `pkg.x`, `import pkg.mod` gives
 * `pkg.mod`. In the order read, possibly repeated; names of other projects included (the caller
 * looks them up).
 */
function importedModuleNamesOf(src: PythonSource, packageRoots: string[]): string[] {
  return importedModuleNames(pythonImports(src.text), moduleNameForFile(src.file, packageRoots).split('.'), /(^|\/)__init__\.py$/.test(src.file));
}

/** How many imports deep from the entry modules and the modules the config names the budget of class fields goes first: a config class's bases and field types are most often a hop or two away. */
const BUDGET_IMPORT_HOPS = 3;

/**
 * The sources the run's budget of Python class fields (`MAX_PYTHON_CLASS_FIELDS`) is spent on
 * first: the modules (and their packages) of `entryModules` and of the dotted config class names
 * of `config` (`pkg.mod.Options`), and the project modules these import, up to
 * {@link BUDGET_IMPORT_HOPS} imports deep (read with {@link importedModuleNamesOf}). A config class
 * and its bases are then read before generated modules that fill the budget. Empty when the
 * sources, at most one class field per 3 characters, cannot reach `limit`: their texts are not
 * read then (a run whose Python files come from the cache reads none).
 */
function classFieldBudgetFirst(sources: readonly PythonSource[], charsOf: (source: PythonSource) => number, limit: number, entryModules: readonly string[], config: DocdriftConfig, packageRoots: string[]): Set<PythonSource> {
  const first = new Set<PythonSource>();
  if (sources.reduce((n, s) => n + charsOf(s), 0) <= 3 * limit) return first;
  const named = new Set<string>();
  const addWithPackages = (parts: readonly string[], end: number): void => {
    for (let i = 1; i <= end; i++) named.add(parts.slice(0, i).join('.'));
  };
  for (const m of entryModules) addWithPackages(m.split('.'), m.split('.').length);
  for (const c of Object.values(config.commands)) {
    for (const name of [c.config ?? []].flat()) {
      // A dotted class name: its module and packages (a schema or TypeScript file named with `#` or `/` is none).
      if (!name.includes('#') && !name.includes('/')) addWithPackages(name.split('.'), name.split('.').length - 1);
    }
  }
  const byModule = new Map<string, PythonSource>();
  for (const src of sources) if (!byModule.has(moduleNameForFile(src.file, packageRoots))) byModule.set(moduleNameForFile(src.file, packageRoots), src);
  let level = [...named].flatMap((m) => byModule.get(m) ?? []);
  for (const src of level) first.add(src);
  for (let hop = 0; hop < BUDGET_IMPORT_HOPS && level.length > 0; hop++) {
    const next: PythonSource[] = [];
    for (const src of level) {
      for (const module of importedModuleNamesOf(src, packageRoots)) {
        const found = byModule.get(module);
        if (found && !first.has(found)) {
          first.add(found);
          next.push(found);
        }
      }
    }
    level = next;
  }
  return first;
}

/**
 * For each Python entry point and config `program` whose target got no flags and no config class:
 * the first CLI library its module reaches (the module, then the project modules it imports, up
 * to two hops, nearest first), found with {@link cliLibraryUses}. Read with patterns, never run.
 * A target whose module is among `refused` (too large to parse) or `unreadable` (the reader could
 * not read it) is said to be in that file instead.
 */
function pythonUnreadPrograms(
  entryPoints: readonly EntryPoint[],
  config: DocdriftConfig,
  sources: readonly PythonSource[],
  packageRoots: string[],
  flagCommands: readonly FlagCommand[],
  functionConfigs: ReadonlyMap<string, string[]>,
  root?: string,
  refused: ReadonlyMap<string, string> = new Map(),
  flagsUnread: ReadonlyMap<string, string> = new Map(),
  unreadable: ReadonlyMap<string, string> = new Map(),
): Array<[string, UnreadProgram]> {
  const targets = [
    ...entryPoints.map((e) => e.target),
    ...Object.values(config.commands).flatMap((c) => (c.program !== undefined && !c.program.startsWith('bin:') && !isScriptProgram(c.program) ? [c.program] : [])),
  ].filter((t) => !t.startsWith('bin:'));
  const read = new Set(flagCommands.map((f) => f.target));
  const pending = [...new Set(targets)].filter((t) => !read.has(t) && !functionConfigs.has(withoutExtras(t).trim()));
  if (pending.length === 0) return [];
  const byModule = new Map<string, PythonSource>();
  for (const src of sources) if (!byModule.has(moduleNameForFile(src.file, packageRoots))) byModule.set(moduleNameForFile(src.file, packageRoots), src);
  const moduleOf = (target: string): PythonSource | undefined => {
    const module = withoutExtras(target).split(':')[0]!.trim();
    if (module.endsWith('.py')) return sources.find((s) => s.file === module || s.file.endsWith(`/${module}`));
    return byModule.get(module);
  };
  const imports = (src: PythonSource): PythonSource[] => {
    const out: PythonSource[] = [];
    for (const module of importedModuleNamesOf(src, packageRoots)) {
      const found = byModule.get(module);
      if (found) pushUnique(out, found);
    }
    return out;
  };
  const out: Array<[string, UnreadProgram]> = [];
  for (const target of pending) {
    const start = moduleOf(target);
    const tooLarge = start ? undefined : refusedModule(target, refused, packageRoots);
    if (tooLarge) {
      out.push([target, { kind: 'too-large', file: tooLarge[0], reason: tooLarge[1] }]);
      continue;
    }
    const notRead = start ? undefined : refusedModule(target, unreadable, packageRoots);
    if (notRead) {
      out.push([target, { kind: 'unreadable', file: notRead[0] }]);
      continue;
    }
    if (!start) {
      // Discovery lists no symbolic link: an entry module linked out of the project is no source (#33 sweep).
      const outside = root === undefined ? undefined : moduleLinkedOutside(root, target, packageRoots);
      if (outside !== undefined) out.push([target, { kind: 'outside', file: outside }]);
      continue;
    }
    const seen = new Set<PythonSource>([start]);
    let level = [start];
    const ordered: PythonSource[] = [start];
    for (let hop = 0; hop < LIBRARY_HOPS; hop++) {
      const next: PythonSource[] = [];
      for (const src of level) for (const t of imports(src)) if (!seen.has(t)) {
        seen.add(t);
        next.push(t);
        ordered.push(t);
      }
      level = next;
    }
    // A program reaching a file whose flags ran past the flags worker's budget: that is why.
    const unreadFile = flagsUnread.size > 0 ? ordered.find((src) => flagsUnread.has(src.file)) : undefined;
    if (unreadFile) {
      out.push([target, { kind: 'over-budget', file: unreadFile.file, reason: flagsUnread.get(unreadFile.file)! }]);
      continue;
    }
    const use = firstCliLibraryUse(ordered);
    if (use) out.push([target, { kind: 'library', ...use }]);
  }
  return out;
}

/** The refused source (file, reason) holding a Python target's module (`tool.cli:main`, `tool/cli.py`), if one does. */
function refusedModule(target: string, refused: ReadonlyMap<string, string>, packageRoots: string[]): [string, string] | undefined {
  if (refused.size === 0) return undefined;
  const module = withoutExtras(target).split(':')[0]!.trim();
  for (const [file, reason] of refused) {
    if (module.endsWith('.py') ? file === module || file.endsWith(`/${module}`) : moduleNameForFile(file, packageRoots) === module) return [file, reason];
  }
  return undefined;
}

/**
 * The project-relative path of a Python target's module file (`tool/cli.py`, `tool/cli/__init__.py`,
 * under the project or a package root) when it, or a folder on its path, is a symbolic link that
 * resolves outside `root`; undefined otherwise (absent, inside, unreadable). Nothing is read.
 */
function moduleLinkedOutside(root: string, target: string, packageRoots: readonly string[]): string | undefined {
  const module = withoutExtras(target).split(':')[0]!.trim();
  if (module === '') return undefined;
  const rel = module.endsWith('.py') ? [module] : [`${module.split('.').join('/')}.py`, `${module.split('.').join('/')}/__init__.py`];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  for (const prefix of ['', ...packageRoots]) {
    for (const file of rel) {
      const candidate = prefix === '' ? file : `${prefix}/${file}`;
      if (escapesRoot(candidate)) continue;
      try {
        const real = realpathSync(path.join(root, candidate));
        if (escapesRoot(path.relative(realRoot, real))) return candidate;
      } catch {
        // absent or unreadable: not this candidate
      }
    }
  }
  return undefined;
}

/** The bins `commands.<name>.program` source paths become are named `config:<name>`, which no package.json bin can be. */
const CONFIG_BIN_PREFIX = 'config:';
/** Where those bins are declared, as the TypeScript extraction is told. */
const CONFIG_PACKAGE_JSON = 'docdrift config';

/** `commands.<name>.program` values that name a script file (`src/cli.ts`), as [command name, program]. */
function configScriptPrograms(config: DocdriftConfig): Array<readonly [string, string]> {
  return Object.entries(config.commands).flatMap(([name, c]) => (c.program !== undefined && isScriptProgram(c.program) ? [[name, c.program] as const] : []));
}

/** The package.json the TypeScript extraction is given for the config's script programs: a `bin` of its own per command (`bin:config:<name>`); none without such programs. */
function configPackageJson(scriptPrograms: ReadonlyArray<readonly [string, string]>): { file: string; text: string } | undefined {
  if (scriptPrograms.length === 0) return undefined;
  return { file: CONFIG_PACKAGE_JSON, text: JSON.stringify({ bin: Object.fromEntries(scriptPrograms.map(([name, program]) => [`${CONFIG_BIN_PREFIX}${name}`, program])) }) };
}

/**
 * `commands.<name>.program` values that name nothing in the project, one problem each (the run
 * exits 2): a source path (`src/cli.ts`) that is not among the sources or JavaScript files, a
 * `bin:<name>` no package.json declares, a Python `module:function` whose module no source file
 * is (`pkg/cli.py` or `pkg/cli/__init__.py`, under any folder) or a `script.py:function` whose
 * script is not there. Reading the program itself (its parser) is the extraction's job: one that
 * builds no parser docdrift reads is a note, not a config error.
 */
export function unresolvedPrograms(config: DocdriftConfig, files: DiscoveredFiles, entryPoints: readonly EntryPoint[]): string[] {
  const problems: string[] = [];
  const known = new Set([...files.sources, ...(files.programs ?? [])]);
  const python = files.sources.filter((f) => f.endsWith('.py'));
  const endsWith = (suffix: string): boolean => known.has(suffix) || python.some((f) => f.endsWith(`/${suffix}`));
  for (const [name, entry] of Object.entries(config.commands)) {
    const program = entry.program;
    if (program === undefined) continue;
    const key = `commands.${name}.program`;
    if (isScriptProgram(program)) {
      const file = path.posix.normalize(program.replace(/^\.\//, ''));
      if (!known.has(file)) {
        const near = suggestNames(file, [...known].filter((f) => /\.(?:[cm]?ts|tsx|[cm]?js)$/.test(f)), 3);
        problems.push(`${key}: no source file "${program}" was found (a path from the project root to the TypeScript or JavaScript file that builds the program, among the files \`sources\` matches)` + (near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : '.'));
      }
      continue;
    }
    if (program.startsWith('bin:')) {
      const bin = program.slice('bin:'.length);
      if (!entryPoints.some((e) => e.name === bin && e.target.startsWith('bin:'))) {
        problems.push(`${key}: no package.json declares a bin named "${bin}".`);
      }
      continue;
    }
    const [module] = program.split(':') as [string];
    const script = module.endsWith('.py');
    const found = script ? endsWith(module) : endsWith(`${module.split('.').join('/')}.py`) || endsWith(`${module.split('.').join('/')}/__init__.py`);
    if (!found) {
      problems.push(
        `${key}: ${script ? `no script "${module}"` : `no module "${module}"`} was found among the sources, so the program "${program}" cannot be read; ` +
          'name a module of this project (`pkg.cli:main`), or declare the flags in `flags`.',
      );
    }
  }
  return problems;
}

/** A path inside a test directory (`tests/`, `test/`, `__tests__/`, `fixtures/`, `testdata/`). */
const TEST_DIR_RE = /(^|\/)(tests?|__tests__|fixtures|testdata|test_data)\//;

/**
 * Import roots of a repository: `src` at the root (unless `src/__init__.py` makes it a package),
 * and, for a monorepo, the directory of every packaging file below the root and its `src/`
 * (`libs/cli/pyproject.toml` declares `dock = "dock.cli:cli"` for `libs/cli/dock/cli.py`). A
 * directory that is itself a package (has `__init__.py`) is not a root.
 */
export function pythonPackageRoots(packagingFiles: string[], sources: PythonSource[]): string[] {
  const files = new Set(sources.map((s) => s.file));
  const roots = files.has('src/__init__.py') ? [] : ['src'];
  // A set beside the list: `roots.includes` per folder cost roots × folders (s27 sweep D13).
  const seen = new Set(roots);
  for (const file of packagingFiles) {
    const dir = path.posix.dirname(file);
    if (dir === '.' || files.has(`${dir}/__init__.py`)) continue;
    for (const root of [dir, `${dir}/src`]) {
      if (seen.has(root)) continue;
      seen.add(root);
      roots.push(root);
    }
  }
  return roots;
}

/** What the documents say (stage "parse docs"). */
export interface DocFacts {
  /** Documents that name a command or are global files, parsed. */
  docs: DocFile[];
  /** Parses a document that was skipped (a link points at it); `undefined` when it was parsed or not read. */
  lazyDoc: (file: string) => DocFile | undefined;
  /** A document's text (project-relative path), read when first asked for; `undefined` when unreadable or not one of the run's documents. */
  text: (file: string) => string | undefined;
  /** `docdrift-disable…` comments in any document. */
  directives: SuppressionDirective[];
  /**
   * The example env files of the project (`.env.example`, `env.template`…; `DiscoveredFiles.envFiles`),
   * each with its rows (src/docs/env-file.ts `parseEnvFile`) and its number of lines: a reference
   * of the project's environment variables (layout `env-file`, issue #31). A file that cannot be
   * read is left out (the reader reports it). Optional so that hand-built facts may leave it out.
   */
  envFiles?: Array<{ file: string; rows: ReferenceRow[]; lines?: number }>;
  /**
   * Documents not read because they are files of docdrift's own `--summary` reports
   * (`PageFacts.report`), sorted: the run names them in a note ({@link reportNotes}).
   */
  reports?: string[];
}

/**
 * Most documents one run parses (those that name a command, or match `reference` or
 * `globalFiles`): 2,000, several times the most a real project in the corpus parses (NeMo Gym:
 * 361 of 792). Each costs a few milliseconds however short it is, so 15,000 pages of a table each
 * took 30 s (#33 s24 sweep D8). Pages past it, in parse order (src/engine/parse-order.ts), are not
 * parsed, with one `parse-error` warning for all.
 */
export const MAX_PARSED_DOCUMENTS = 2000;

/** The heading patterns that make a page worth parsing: `globalSections` and every `commands.*.sections`. */
function sectionPatterns(config: DocdriftConfig): string[] {
  return [...config.globalSections, ...Object.values(config.commands).flatMap((c) => c.sections ?? [])];
}

/** Pages a stub may stand for when discovery left them out ({@link unreadReferenceStub}). */
const DOCUMENT_EXTENSION_RE = /\.(?:md|mdx|markdown|rst|rest|txt)$/i;

/**
 * The outcome of `what` for `file`: stored (the per-file cache answers by the file's content
 * hash, without reading it), else parsed from its text. `undefined` when the text cannot be read
 * (`pages` reports it).
 */
function parsePage(docParser: DocParser, pages: DocTexts, file: string, what: ParseWhat): ParseOutcome | undefined {
  // A page given without its text is over the document limit: refused by its length, as the parser refuses it.
  const held = pages.held?.(file);
  if (held) return { ...overLimitsOutcome(file, { reason: overLengthReason(held.length), line: 1 }), directives: [] };
  const stored = docParser.cached?.(file, what);
  if (stored) return stored;
  const text = pages.text(file);
  return text === undefined ? undefined : docParser.parse(file, text, what);
}

/**
 * Stage "parse docs". Parsing Markdown is most of a run's time, and most documents of a large
 * repository never name a command. Only documents that name one (or hold a global-options
 * heading or a configured `commands.*.sections` heading, or match `globalFiles` or `reference`)
 * are parsed now; the rest only if a link points at them. Which pages name a command, and their
 * parses, come from the per-file cache when `pages` and `docParser` have it: a run after a
 * one-page edit reads that page only (src/engine/doc-texts.ts). A run parses at most
 * {@link MAX_PARSED_DOCUMENTS} documents and {@link MAX_PARSED_LINES} lines of them, in parse
 * order (src/engine/parse-order.ts); the pages left get `parse-error` warnings.
 *
 * @param openBuffers the texts open in an editor (the language server's overlay) or fixed by
 *   `--fix`: always read, whatever the line limit
 * @param eachPage one warning on each page a limit leaves, not one for the group (the language
 *   server: `LintOptions.warnEachUnreadPage`)
 * @param onMatcher told the run's mention matcher (`LintOptions.onMentionMatcher`)
 */
export function parseDocs(
  files: DiscoveredFiles,
  config: DocdriftConfig,
  entryPoints: CodeFacts['entryPoints'],
  pages: DocTexts,
  diagnostics: InputDiagnostic[],
  docParser: DocParser,
  keyNames: readonly string[] = [],
  onProgress?: ProgressListener,
  openBuffers?: ReadonlyMap<string, string>,
  eachPage = false,
  onMatcher?: (matcher: MentionMatcher) => void,
): DocFacts {
  // A page is read when it names a command, or holds a global heading or a heading the config ties
  // to a command (`commands.x.sections`), or matches `globalFiles` or `reference` (issue #13), or
  // names in inline code several fields of the project's config classes (a page of config keys
  // that names no command: reference inference by content, issue #29).
  const mentions = mentionMatcher(
    [...entryPoints.map((e) => e.name), ...Object.entries(config.commands).flatMap(([n, c]) => [n, ...(c.aliases ?? [])])],
    [...sectionPatterns(config), ...(config.env.check ? [...ENV_HEADING_PATTERNS, ...config.env.sections] : [])],
    keyNames,
    config.env.check,
  );
  onMatcher?.(mentions);
  const isGlobalFile = config.globalFiles.length > 0 ? pathMatcher(config.globalFiles, { dot: true }) : () => false;
  const isReferenceFile = config.reference.length > 0 ? pathMatcher(config.reference, { dot: true }) : () => false;
  // A page the run did not read may hold reference rows (a stub stands for it, and references read
  // without it are partial) only where the config lets reference sections be: with `reference`
  // set, in those documents and the `globalFiles` (s46 sweep H2: a dangling `notes.md` link, or a
  // guide too deep to parse, silenced every missing row of a configured reference, exit 0).
  const mayHoldReference = (file: string): boolean => config.reference.length === 0 || isReferenceFile(file) || isGlobalFile(file);
  // A page given without its text brings the stub its text made (src/engine/held-pages.ts).
  const unreadReferenceStub = (file: string, text: string | undefined, why?: string, budget?: MentionBudget): DocFile | undefined => {
    if (!mayHoldReference(file)) return undefined;
    const held = pages.held?.(file);
    if (!held) return unreadStub(file, text, why, budget);
    return held.stub && withinMentionBudget(held.stub, budget);
  };
  const docs: DocFile[] = [];
  const unparsed = new Set<string>();
  const directives: SuppressionDirective[] = [];
  let done = 0;
  const wantedOf = new Map<string, ParseWhat>();
  // Each wanted page's parse-order facts, stored with its triage: stored pages are ordered unread.
  const orderOf = new Map<string, OrderFacts>();
  const unreadable: DocFile[] = [];
  const reports: string[] = [];
  // The names the pages not parsed keep between them (src/engine/document-caps.ts MAX_RUN_MENTIONS).
  const mentionBudget = runMentionBudget();
  // Pages discovery did not read (a link out of the project, too deep: their warnings say why).
  const tooDeep = (files.tooDeep ?? []).filter((file) => DOCUMENT_EXTENSION_RE.test(file)).slice(0, 1);
  for (const { file, why } of [...(files.notRead ?? []), ...tooDeep.map((file) => ({ file, why: `it lies under more than ${MAX_PATH_DEPTH} folders: see the run's note` }))]) {
    if (!DOCUMENT_EXTENSION_RE.test(file)) continue;
    const stub = unreadReferenceStub(file, undefined, tooDeep.includes(file) ? why : undefined);
    if (stub) unreadable.push(stub);
  }
  for (const file of files.docs) {
    onProgress?.({ stage: 'docs', done: ++done, total: files.docs.length });
    const facts = pages.triage(file, mentions);
    if (facts === undefined) {
      // Not readable at all (its own warning says why: a link out of the project, too large, too
      // deep, no permission): its rows may document any command (s35 sweep D4).
      const stub = unreadReferenceStub(file, undefined);
      if (stub) unreadable.push(stub);
      continue;
    }
    // docdrift's own report: not a document at all, whatever names or patterns match it, nor parsed
    // when a link points at it (its tables would explain parameters); named in a note.
    if (facts.report) {
      reports.push(file);
      continue;
    }
    const wanted = { doc: facts.mentions || isGlobalFile(file) || isReferenceFile(file), directives: facts.directives };
    if (!wanted.doc) unparsed.add(file);
    if (!wanted.doc && !wanted.directives) continue;
    wantedOf.set(file, wanted);
    orderOf.set(file, facts.order);
  }
  // Pages to parse (not stored) are parsed likely references and short pages first, as
  // prefetchDocs sends them, so the run's parse bounds cut the slow tail (parse-order.ts); the
  // outcomes are then taken in path order, so output does not depend on it.
  const outcomes = new Map<string, ParseOutcome | undefined>();
  const documentCap = runDocumentCap();
  // Past MAX_PARSED_DOCUMENTS or MAX_PARSED_LINES, the first in parse order are read (cached or
  // not, so that a cached run reads the same pages); the others get one warning per limit, on the
  // first of them.
  const order = parseOrderBy([...wantedOf.keys()], (f) => orderOf.get(f), (f) => isReferenceFile(f) || isGlobalFile(f));
  const { overDocuments, overLines, lines } = parsedPages(order, (f) => orderOf.get(f)?.lines ?? 0, MAX_PARSED_DOCUMENTS, MAX_PARSED_LINES, (f) => openBuffers?.has(f) === true || pages.held?.(f) !== undefined);
  const leaveUnread = (left: string[], message: string): void => {
    if (left.length === 0) return;
    left.sort();
    for (const file of left) {
      wantedOf.delete(file);
      unparsed.add(file);
      const stub = unreadReferenceStub(file, pages.text(file), undefined, mentionBudget);
      if (stub) docs.push(stub);
    }
    if (eachPage) for (const file of left) diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `Not read: ${message}`, location: { file, line: 1, column: 1 } });
    else diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `Not read${alsoNotRead(left.slice(1), 'documents')}: ${message}`, location: { file: left[0]!, line: 1, column: 1 } });
  };
  leaveUnread(
    overDocuments,
    `one run parses at most ${MAX_PARSED_DOCUMENTS.toLocaleString('en-US')} documents that name a command, and ${order.length.toLocaleString('en-US')} do (likely references and short pages first); exclude generated or copied pages with "ignore"`,
  );
  leaveUnread(
    overLines,
    `one run parses at most ${MAX_PARSED_LINES.toLocaleString('en-US')} lines of documents that name a command (Markdown costs per line), and the ${lines.toLocaleString('en-US')} lines read before left no room for ${overLines.length === 1 ? 'this page' : `these ${overLines.length.toLocaleString('en-US')} pages`} (likely references and short pages first); exclude generated or copied pages with "ignore"`,
  );
  const fresh = [...wantedOf].filter(([file, what]) => !docParser.isCached?.(file, what)).map(([file]) => file);
  // Stored pages count toward the run's limit on large documents first (`DocParser.reserve`): they
  // were read by the run that stored them, so a warm run reads the pages a cold one read.
  if (docParser.reserve) for (const [file, what] of wantedOf) if (docParser.isCached?.(file, what)) docParser.reserve(file, what);
  // Rows of pages the run's row limit will surely cut are dropped as they come (earlyRowCut), and
  // from the store (s35 sweep D9: the stored parses of 60 pages of 4,400 rows took 196 MB).
  const storeCut = (file: string, what: ParseWhat, outcome: ParseOutcome): void => {
    const text = docParser.storeCut ? pages.text(file) : undefined;
    if (text !== undefined) docParser.storeCut!(file, text, what, outcome);
  };
  const rowCut = earlyRowCut(new Map([...wantedOf.keys()].map((f, i) => [f, i])), (file, doc) => {
    const outcome = outcomes.get(file);
    if (!outcome) return;
    outcomes.set(file, { ...outcome, doc });
    storeCut(file, wantedOf.get(file)!, { ...outcome, doc });
  });
  /**
   * A page's outcome in path order, with the run's row limit applied: a stored page whose rows an
   * earlier run's limit cut is parsed again when this run's limit would not cut it; one whose rows
   * the limit cuts now is stored without them.
   */
  const admitPage = (file: string, what: ParseWhat, parsed: ParseOutcome) => {
    if (parsed.doc && isRunRowsCut(parsed.doc) && !documentCap.cutsRows(parsed.doc)) {
      const text = pages.text(file);
      const again = text === undefined ? undefined : docParser.reparse ? docParser.reparse(file, text, what) : docParser.parse(file, text, what);
      if (again) parsed = again;
    }
    const admitted = parsed.doc && documentCap.admit(parsed.doc);
    if (admitted?.rowsCut) storeCut(file, what, { ...parsed, doc: withoutRunRows(parsed.doc!) });
    return { parsed, admitted };
  };
  // Pages the run's parse ceiling (RUN_PARSE_CEILING_MS) stopped or left: one warning for them all
  // (each its own with `eachPage`), as for the limits above.
  const ceilingLeft: string[] = [];
  // In the run's parse order (computed above from the stored triage facts, not from the texts again).
  const freshFiles = new Set(fresh);
  for (const file of order.filter((f) => freshFiles.has(f))) {
    const outcome = parsePage(docParser, pages, file, wantedOf.get(file)!);
    outcomes.set(file, outcome);
    if (outcome?.doc) rowCut.arrived(file, outcome.doc);
  }
  for (const [file, wanted] of wantedOf) {
    const outcome = outcomes.has(file) ? outcomes.get(file) : parsePage(docParser, pages, file, wanted);
    outcomes.delete(file);
    if (outcome === undefined) continue;
    const { parsed, admitted } = admitPage(file, wanted, outcome);
    pushAll(directives, parsed.directives);
    let doc = admitted?.doc;
    // Not parsed (a budget or limit: an empty page and a "Not read:" warning): rows it may hold
    // make every reference partial.
    if (wanted.doc && (!doc || parsed.diagnostics.some((d) => d.ruleId === 'parse-error' && d.message.startsWith('Not read:')))) {
      const stub = unreadReferenceStub(file, pages.text(file), undefined, mentionBudget);
      if (stub) doc = doc ? { ...doc, rowsCut: stub.rowsCut! } : stub;
    }
    if (doc) docs.push(doc);
    // A page the run's limit cut: its own limit's warning would claim more than is checked (the
    // run's one warning names it).
    const ownCut = admitted?.invocationsCut ? parsed.doc?.invocationsCut?.location : undefined;
    let own = ownCut ? parsed.diagnostics.filter((d) => !(d.ruleId === 'parse-error' && d.location.line === ownCut.line && d.location.column === ownCut.column)) : parsed.diagnostics;
    if (parsed.runCeiling && !eachPage) {
      ceilingLeft.push(file);
      own = own.filter((d) => !(d.ruleId === 'parse-error' && d.message.startsWith('Not read:')));
    }
    pushAll(diagnostics, own);
  }
  if (ceilingLeft.length > 0) {
    ceilingLeft.sort();
    const n = ceilingLeft.length;
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Not read${alsoNotRead(ceilingLeft.slice(1), 'documents')}: one run spends at most ${RUN_PARSE_CEILING_MS / 1000} s of CPU time parsing documents (garbage collection included), and parsing had spent it before ${n === 1 ? 'this page was' : `these ${n.toLocaleString('en-US')} pages were`} read (likely references and short pages first); exclude slow or generated pages with "ignore"`,
      location: { file: ceilingLeft[0]!, line: 1, column: 1 },
    });
  }
  pushAll(docs, unreadable);
  pushAll(diagnostics, documentCap.diagnostics());
  // Stored before the link stage resolves the pages' links in place.
  docParser.flush?.();
  pages.save();
  const lazyDoc = (file: string): DocFile | undefined => {
    if (!unparsed.has(file)) return undefined;
    const outcome = parsePage(docParser, pages, file, { doc: true, directives: false });
    if (outcome === undefined) return undefined;
    // An overrun is reported once, where the link points at the skipped page.
    pushAll(diagnostics, outcome.diagnostics.filter((d) => d.message.startsWith('Not read:')));
    // Its rows count toward the run's limit too (60 linked pages of 4,400 rows: 850 MB, s34 sweep D5).
    if (!outcome.doc) return undefined;
    const doc = admitPage(file, { doc: true, directives: false }, outcome).admitted?.doc;
    docParser.flush?.();
    if (!doc) return undefined;
    const late = doc.rowsCut ? documentCap.lateRowsCut(doc) : undefined;
    if (late) diagnostics.push(late);
    return doc;
  };
  // Example env files: small, read and parsed on every run (their content hashes key the run cache).
  const envFiles: NonNullable<DocFacts['envFiles']> = [];
  for (const file of files.envFiles ?? []) {
    const text = pages.text(file);
    if (text === undefined) continue;
    const parsed = parseEnvFile(file, text);
    pushAll(diagnostics, parsed.diagnostics);
    envFiles.push({ file, rows: parsed.rows, lines: text === '' ? 0 : text.replace(/(?:\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/).length });
  }
  // Only the run's documents and env files have a text here (a finding located in code or config has none).
  const documents = new Set([...files.docs, ...(files.envFiles ?? [])]);
  return { docs, lazyDoc, text: (file) => (documents.has(file) ? pages.text(file, true) : undefined), directives, envFiles, reports: reports.sort() };
}

/**
 * Before extraction: sends to the document worker (`DocParser.prefetch`) the documents that
 * {@link parseDocs} will surely parse, judged with the command names known before any code is
 * read (packaging entry points, the config's commands) and the `globalFiles`/`reference`
 * patterns, so the worker parses while the main thread extracts code; with `guessLinks`, then
 * the pages those link to (see `linkedDocuments`). A page whose parse is stored is not sent (nor
 * read). Reads quietly: a file that cannot be read is left to parseDocs, which reports it.
 */
export function prefetchDocs(
  root: string,
  files: DiscoveredFiles,
  config: DocdriftConfig,
  overlay: ReadonlyMap<string, string> | undefined,
  docParser: DocParser,
  pages: DocTexts,
  guessLinks = true,
  unreadable?: ReadonlyMap<string, ReadFileError>,
): void {
  if (!docParser.prefetch) return;
  const read = createReader(root, overlay, [], undefined, undefined, unreadable);
  const packaging = files.packaging.filter((f) => !f.endsWith('package.json') && !f.endsWith('setup.py') && !TEST_DIR_RE.test(f)).flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  const names = readEntryPoints(packaging).entryPoints.map((e) => e.name);
  const mentions = mentionMatcher([...names, ...Object.entries(config.commands).flatMap(([n, c]) => [n, ...(c.aliases ?? [])])], sectionPatterns(config));
  const isGlobalFile = config.globalFiles.length > 0 ? pathMatcher(config.globalFiles, { dot: true }) : () => false;
  const isReferenceFile = config.reference.length > 0 ? pathMatcher(config.reference, { dot: true }) : () => false;
  const surely = new Set<string>();
  const skipped = new Set<string>();
  const toParse = new Map<string, ParseWhat>();
  const orderOf = new Map<string, OrderFacts>();
  for (const file of files.docs) {
    const facts = pages.triage(file, mentions, true);
    if (facts === undefined || facts.report) continue;
    if (facts.mentions || isGlobalFile(file) || isReferenceFile(file)) {
      const what = { doc: true, directives: facts.directives };
      surely.add(file);
      orderOf.set(file, facts.order);
      if (!docParser.isCached?.(file, what)) toParse.set(file, what);
    } else if (!facts.directives) {
      // A page with suppression comments is asked for twice by parseDocs' lazy parse: not guessed.
      skipped.add(file);
    }
  }
  // A large page is not sent ahead while stored pages are read this run: those count toward the
  // run's limit on large documents first (parseDocs, `DocParser.reserve`), and a prefetch decides.
  const stored = docParser.reserve !== undefined && surely.size > toParse.size;
  // Likely references and short pages first: the run's parse bounds cut the slow tail (parse-order.ts).
  // Not the pages parseDocs will leave by its limits on documents and lines (counted over the
  // stored pages too, as it counts them).
  // One parse order for all of them (from the triage facts), the parsed ones in it sent ahead.
  const order = parseOrderBy([...surely], (f) => orderOf.get(f), (f) => isReferenceFile(f) || isGlobalFile(f));
  for (const file of parsedPages(order, (f) => orderOf.get(f)?.lines ?? 0, MAX_PARSED_DOCUMENTS, MAX_PARSED_LINES, (f) => overlay?.has(f) === true).kept) {
    if (!toParse.has(file)) continue;
    const text = pages.text(file, true);
    if (text !== undefined && !(stored && text.length >= LARGE_DOCUMENT_LENGTH)) docParser.prefetch(file, text, toParse.get(file)!);
  }
  // Then the pages those link to, which rules will likely ask for (src/engine/link-prefetch.ts),
  // as `parseDocs`' lazy parse asks.
  if (!guessLinks) return;
  const linking = [...surely].flatMap((file) => {
    const text = pages.text(file, true);
    return text === undefined ? [] : [{ file, text }];
  });
  for (const target of linkedDocuments(linking, files.docs, skipped)) {
    const text = pages.text(target, true);
    if (text !== undefined && !(stored && text.length >= LARGE_DOCUMENT_LENGTH)) docParser.prefetch(target, text, { doc: true, directives: false });
  }
}

/** Inputs of stage "link". */
export interface LinkInputs {
  root: string;
  config: DocdriftConfig;
  configFile?: string | undefined;
  files: DiscoveredFiles;
  code: CodeFacts;
  docs: DocFacts;
  diagnostics: InputDiagnostic[];
}

/** Stage "link": joins code facts, doc facts and the config into the {@link Model} (src/link/build.ts). */
export function linkModel({ root, config, configFile, files, code, docs, diagnostics }: LinkInputs): Model {
  return buildModel({
    root,
    config: { ...config, globalParameters: code.globalParameters },
    classes: code.classes,
    functionConfigs: code.functionConfigs,
    functionSecondaryConfigs: code.functionSecondaryConfigs,
    functionConfigsThroughCalls: code.functionConfigsThroughCalls,
    flagCommands: code.flagCommands,
    launcherFlags: code.launcherFlags,
    configSource: configSourceOf(root, configFile),
    entryPoints: code.entryPoints,
    canonicalTarget: code.canonicalTarget,
    runnableScripts: code.runnableScripts,
    unreadPrograms: new Map(code.unreadPrograms),
    stringKeys: code.stringKeys,
    interpolatedKeys: code.interpolatedKeys,
    docs: docs.docs,
    docFiles: files.docs,
    siteUrls: declaredSiteUrls(root, diagnostics),
    lazyDoc: docs.lazyDoc,
    scopedFileKeys: scopedFileKeyReader(root, files.yaml),
    source: docs.text,
    diagnostics,
    env: code.env,
    envWords: new Set(code.envWords),
    dependencies: code.dependencies,
    ...(docs.envFiles ? { envFiles: docs.envFiles } : {}),
  });
}

/** Output of stage "run rules": findings after inline suppressions, the suppressed ones, and rules that threw. */
export interface RuleStageResult {
  messages: DriftMessage[];
  suppressed: DriftMessage[];
  failures: RuleFailure[];
}

/**
 * Stage "run rules": runs `rules` (configured by `config.rules`) over the model, then applies the
 * documents' suppression comments (`unused-suppression` judges them). `knownRuleIds` are the ids
 * a suppression comment may name; default: `rules` and the engine's own rules.
 */
export function runRuleStage(
  model: Model,
  directives: SuppressionDirective[],
  config: DocdriftConfig,
  rules: Rule[],
  knownRuleIds: readonly string[] = [...rules, ...engineRules].map((r) => r.meta.id),
): RuleStageResult {
  const ran = runRules(model, configureRules(rules, config.rules));
  const suppression = applySuppressions(ran.messages, directives, [...knownRuleIds], engineRuleSeverity(unusedSuppression, config.rules));
  return { messages: suppression.messages, suppressed: suppression.suppressed, failures: ran.failures };
}

/**
 * {@link runRuleStage} in two parts (`LintOptions.focus`): the findings located in the focus files
 * first, handed to `focus.first` (and awaited), then, unless `goOn` throws meanwhile
 * ({@link RunCancelled}), those located elsewhere. Suppression comments apply per document, so
 * each part's are applied to it alone; the result is the one {@link runRuleStage} returns, in
 * another order (the scope stage sorts it).
 */
async function focusedRuleStage(
  model: Model,
  directives: SuppressionDirective[],
  config: DocdriftConfig,
  rules: Rule[],
  knownRuleIds: readonly string[] = [...rules, ...engineRules].map((r) => r.meta.id),
  focus: NonNullable<LintOptions['focus']>,
  goOn: () => void,
): Promise<RuleStageResult> {
  const inFocus = (file: string): boolean => focus.files.has(file);
  const severity = engineRuleSeverity(unusedSuppression, config.rules);
  const ran = runRulesFocused(model, configureRules(rules, config.rules), inFocus);
  const first = applySuppressions(ran.messages, directives.filter((d) => inFocus(d.file)), [...knownRuleIds], severity);
  await focus.first({ messages: sortMessages(first.messages), suppressed: sortMessages(first.suppressed), failures: ran.failures });
  // Given up between two rules when an edit made the lint outdated: the language server's next
  // edit waits for one rule at most, not for all of the rest.
  const rest = ran.rest(goOn);
  const others = applySuppressions(rest.messages, directives.filter((d) => !inFocus(d.file)), [...knownRuleIds], severity);
  return { messages: [...first.messages, ...others.messages], suppressed: [...first.suppressed, ...others.suppressed], failures: [...ran.failures, ...rest.failures] };
}

/** Stage "scope": keeps the findings located in `files` (all when undefined), sorted. */
export function scopeStage(root: string, ran: RuleStageResult, files: string[] | undefined): Pick<LintResult, 'messages' | 'suppressed'> {
  return {
    messages: sortMessages(scopeMessages(root, ran.messages, files)),
    suppressed: sortMessages(scopeMessages(root, ran.suppressed, files)),
  };
}

/** The config file's display path (project-relative when inside the root) and text, if readable. */
function configSourceOf(root: string, file: string | undefined): ConfigSource | undefined {
  if (file === undefined) return undefined;
  try {
    const rel = path.relative(root, file);
    const display = rel && !escapesRoot(rel) ? rel.split(path.sep).join('/') : file;
    return { file: display, text: readRegularFile(file) };
  } catch {
    return undefined;
  }
}

/**
 * For {@link unresolvedConfigClasses}: which of `names` a type may be named in `file`, one of the
 * run's sources or JSON Schema candidates that was not read (in full): those its text holds as
 * an identifier or string (`"title": "MutantOptions"`), the name a schema's root type takes from
 * its file name (`opts.json` → `Opts`), or all of them when its text cannot be read to tell.
 * Files other than sources and schemas (documents, manifests) define no config type. Each file
 * is read once per call, from the overlay first, and scanned once for all the names.
 */
export function configTypeMayBeIn(root: string, files: Pick<DiscoveredFiles, 'sources' | 'schemas'>, overlay?: ReadonlyMap<string, string>, unreadable?: ReadonlyMap<string, ReadFileError>): (file: string, names: ReadonlySet<string>) => ReadonlySet<string> {
  const inputs = new Set([...files.sources, ...(files.schemas ?? [])]);
  return (file, names) => {
    if (!inputs.has(file)) return new Set();
    let text: string | undefined;
    try {
      const refused = overlay?.has(file) ? undefined : unreadable?.get(file);
      if (refused) throw refused;
      text = overlay?.get(file) ?? readProjectFile(root, file);
    } catch {
      return names;
    }
    const found = identifiersAmong(text, names);
    const stemName = /\.json$/i.test(file) ? schemaFileTypeName(file) : undefined;
    if (stemName !== undefined && names.has(stemName)) found.add(stemName);
    return found;
  };
}

/**
 * Which of `names` `text` holds as whole identifiers (not inside a longer one: `Options` is not
 * in `MutantOptions`), in one pass over the text: a file that never names a type cannot define it.
 */
export function identifiersAmong(text: string, names: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (names.size === 0) return found;
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
    if (names.has(m[0])) {
      found.add(m[0]);
      if (found.size === names.size) break;
    }
  }
  return found;
}

/**
 * Why the file of a config name (`tool/cli.py` of `tool/cli.py#ToolConfig`) gave no class, when
 * the file says so by itself: it is outside the project (`../x.py`), it does not exist, it is a
 * symbolic link out of the project (not read, src/shared/read-file.ts), it cannot be read, a
 * `.json` file is not valid JSON (the parser's message), or it is not among `listed` (the run's
 * sources and schema candidates: a pattern, `ignore` or a built-in skip left it out).
 * `undefined` when it is readable and listed (then the name is what is wrong). Never throws.
 */
export function configFileProblem(root: string, file: string, listed?: ReadonlySet<string>): string | undefined {
  if (path.isAbsolute(file) || escapesRoot(path.posix.normalize(file))) return 'is outside the project, which docdrift does not read';
  let text: string;
  try {
    text = readProjectFile(root, file);
  } catch (error) {
    const code = error instanceof ReadFileError ? error.code : (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
    if (code === 'EOUTSIDE') return 'is a symbolic link to a file outside the project, which docdrift does not read (EOUTSIDE)';
    return `cannot be read (${readErrorText(error)})`;
  }
  if (/\.json$/i.test(file)) {
    // Where and why, quoting none of the text (a schema hard-linked to a file outside the project
    // had its first characters echoed by V8's message: s23 sweep D6).
    const syntax = parseJsonText(text, false);
    if (!syntax.ok) {
      const { line, column } = lineColumn(text, syntax.offset);
      return `is not valid JSON (line ${line}, column ${column}: ${syntax.problem})`;
    }
  }
  // Readable, but not one of the run's files: a pattern, `ignore` or a built-in skip left it out.
  if (listed && !listed.has(file)) {
    return /\.json$/i.test(file)
      ? 'is not read as a JSON Schema (it is not under a `schema(s)` folder or named `*schema.json`, or `ignore` or a built-in skip such as tests/ excludes it)'
      : 'is not among the sources docdrift reads (no `sources` pattern matches it, or `ignore` or a built-in skip such as tests/ or build/ excludes it)';
  }
  return undefined;
}

/**
 * Names in `commands.<name>.config` that match no config class found in the sources, each as a
 * sentence naming the key and the nearest class names; or, when the name's file
 * (`schemas/s.json` of `schemas/s.json#S`) has a `parse-error` among `diagnostics` (refused for
 * its depth or size, a syntax error), naming that file and why it was not read. With
 * `typeScriptUnread` (the TypeScript extraction ran past its CPU budget, and a warning said so),
 * a name that may be a TypeScript type (`src/options.ts#Options`, or a bare name) is not a
 * problem: its command's parameters are unknown, as its bin's are, and the run says that instead
 * of calling a type that was never read misspelt. A name without a file (`MutantOptions`, a
 * JSON Schema's `title`; `pkg.mod.Options`) that `mayDefine` says a file with a `parse-error`
 * may define (its text names it) is said to be unread, naming that file and why, not missing
 * (#33 s37 sweep D7: a refused schema's title was "not found in the sources", the file unnamed).
 */
export function unresolvedConfigClasses(
  config: DocdriftConfig,
  classes: ConfigClass[],
  diagnostics: readonly InputDiagnostic[] = [],
  fileProblem: (file: string) => string | undefined = () => undefined,
  typeScriptUnread = false,
  mayDefine: (file: string, names: ReadonlySet<string>) => ReadonlySet<string> = (_, names) => names,
): string[] {
  const problems: string[] = [];
  const qualified = new Set(classes.map((c) => c.qualifiedName));
  const bySimple = new Map<string, ConfigClass[]>();
  for (const c of classes) {
    const list = bySimple.get(c.name);
    if (list) list.push(c);
    else bySimple.set(c.name, [c]);
  }
  const simple = new Map([...bySimple].map(([name, list]) => [name, distinctClasses(list).length]));
  // The bare names found nowhere, by their last part (`Options` of `pkg.mod.Options`): the files
  // with a `parse-error` that may define each (see `unreadFilesOf`), each file read once for all.
  const lastPart = (name: string): string => name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf('/')) + 1);
  const wanted = new Set(
    Object.values(config.commands)
      .flatMap((entry) => (entry.config === undefined ? [] : Array.isArray(entry.config) ? entry.config : [entry.config]))
      .filter((name) => !name.includes('#') && !qualified.has(name) && (simple.get(name) ?? 0) === 0)
      .map(lastPart),
  );
  const mayBeIn = new Map<string, Array<[string, InputDiagnostic]>>();
  const unreadFiles = unreadFilesOf(diagnostics);
  if (wanted.size > 0) {
    for (const [file, d] of unreadFiles) {
      for (const name of mayDefine(file, wanted)) {
        const list = mayBeIn.get(name);
        if (list) list.push([file, d]);
        else mayBeIn.set(name, [[file, d]]);
      }
    }
  }
  for (const [command, entry] of Object.entries(config.commands)) {
    const names = entry.config === undefined ? [] : Array.isArray(entry.config) ? entry.config : [entry.config];
    for (const name of names) {
      if (qualified.has(name) || simple.get(name) === 1) continue;
      if ((simple.get(name) ?? 0) > 1) {
        const options = distinctClasses(bySimple.get(name) ?? []).map((c) => c.qualifiedName);
        problems.push(`commands.${command}.config: "${name}" names several classes (${options.join(', ')}); use the qualified name.`);
        continue;
      }
      // `schemas/s.json#S` in a file docdrift refused or could not parse (too deep, too large, a
      // syntax error): that is why, not a misspelt name.
      const hash = name.lastIndexOf('#');
      // The file may be one a group's warning names (`alsoUnread`: over a run's budget).
      const unread = hash > 0 ? diagnostics.find((d) => d.ruleId === 'parse-error' && d.location.file === name.slice(0, hash)) ?? unreadFiles.get(name.slice(0, hash)) : undefined;
      if (unread) {
        problems.push(`commands.${command}.config: no config class or type named "${name}" was found: ${name.slice(0, hash)} ${unreadHow(unread)}. Fix the file, or name a type docdrift can read.`);
        continue;
      }
      // The file itself: missing, a link out of the project, not valid JSON (#33 fresh sweep s19: each said only "not found").
      const why = hash > 0 ? fileProblem(name.slice(0, hash)) : undefined;
      if (why) {
        problems.push(`commands.${command}.config: no config class or type named "${name}" was found: ${name.slice(0, hash)} ${why}. Fix the file or the name.`);
        continue;
      }
      // A TypeScript file whose types were not read (the extraction ran past its budget).
      if (typeScriptUnread && hash > 0 && /\.[cm]?[jt]sx?$/i.test(name.slice(0, hash))) continue;
      // A file read that declares no config type at all (valid JSON that is no schema; a module of functions).
      if (hash > 0 && !classes.some((c) => c.module === name.slice(0, hash) || c.location.file === name.slice(0, hash))) {
        problems.push(`commands.${command}.config: no config class or type named "${name}" was found: ${name.slice(0, hash)} declares none docdrift reads (a pydantic model or dataclass; an interface, class, type alias or zod schema; a JSON Schema object with \`properties\`). Fix the file or the name.`);
        continue;
      }
      // A name without its file that a file docdrift did not read (in full) may define: too deep,
      // too large, not valid JSON, over a budget (#33 s37 sweep D7). That file and why, not "not found".
      // Not a bare name while the TypeScript types were not read: it may be one, unknown (below).
      if (hash < 0 && !(typeScriptUnread && !name.includes('.'))) {
        const candidates = mayBeIn.get(lastPart(name)) ?? [];
        if (candidates.length > 0) {
          const shown = candidates.slice(0, 3).map(([file, d]) => `${file}, which ${unreadHow(d)}`);
          const more = candidates.length > 3 ? `, or in ${candidates.length - 3} more files docdrift did not read in full (see their parse-error warnings)` : '';
          problems.push(
            `commands.${command}.config: no config class or type named "${name}" was read: it may be defined in ${shown.join(', or in ')}${more}. Fix ${candidates.length === 1 ? 'that file' : 'those files'}, or name a type docdrift can read.`,
          );
          continue;
        }
      }
      // A dotted Python name (`pkg.mod.Class`) whose module is not in the project.
      const dot = hash < 0 && !name.includes('/') ? name.lastIndexOf('.') : -1;
      if (dot > 0) {
        const modulePath = name.slice(0, dot).split('.').join('/');
        const candidates = [`${modulePath}.py`, `${modulePath}/__init__.py`, `src/${modulePath}.py`, `src/${modulePath}/__init__.py`];
        if (candidates.every((c) => fileProblem(c) === 'does not exist')) {
          problems.push(`commands.${command}.config: no config class or type named "${name}" was found: the module \`${name.slice(0, dot)}\` is not in the project (no ${candidates.slice(0, 2).join(' or ')}). Fix the name.`);
          continue;
        }
      }
      // A bare name may be one of the TypeScript types that were not read.
      if (typeScriptUnread && hash < 0 && dot < 0) continue;
      const near = suggestNames(name, [...qualified, ...simple.keys()], 3);
      problems.push(
        `commands.${command}.config: no config class or type named "${name}" was found in the sources (a Python pydantic model or dataclass, or a TypeScript interface, class, type alias or zod schema written "path/file.ts#Name")` +
          (near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : '.'),
      );
    }
  }
  return problems;
}

/** Whether a `parse-error` says its file was not read at all (refused for its size, depth or syntax, over a budget, unreadable), not only in part. */
function refusesWholeFile(d: InputDiagnostic): boolean {
  return /\bis not read\b/.test(d.message) || d.message.startsWith('Not read') || d.message.startsWith('TypeScript not read');
}

/** How a file with `d`, its `parse-error`, was not read: "was refused (why)" or "could not be read in full (why)". */
function unreadHow(d: InputDiagnostic): string {
  return `${refusesWholeFile(d) ? 'was refused' : 'could not be read in full'} (${d.message.replace(/\.$/, '')})`;
}

/** Each file with a `parse-error` (its location's, or one of a group's `alsoUnread`), with its first one saying it was not read at all, else its first. */
function unreadFilesOf(diagnostics: readonly InputDiagnostic[]): Map<string, InputDiagnostic> {
  const out = new Map<string, InputDiagnostic>();
  for (const d of diagnostics) {
    if (d.ruleId !== 'parse-error') continue;
    for (const file of [d.location.file, ...(d.alsoUnread ?? [])]) {
      const seen = out.get(file);
      if (!seen || (!refusesWholeFile(seen) && refusesWholeFile(d))) out.set(file, d);
    }
  }
  return out;
}

/** Applies `rules` from the config (severity or `[severity, options]`) over each rule's defaults. */
export function configureRules(rules: Rule[], settings: DocdriftConfig['rules']): ConfiguredRule[] {
  return rules.map((rule) => {
    const setting = settings[rule.meta.id];
    let severity: Severity = rule.meta.defaultSeverity;
    let options: Record<string, unknown> = {};
    if (typeof setting === 'string') severity = setting;
    else if (Array.isArray(setting)) {
      severity = setting[0];
      options = setting[1] ?? {};
    }
    return { rule, severity, options };
  });
}

/**
 * The default `globalParameters` name Hydra's and draccus's own flags (`-h`, `-m`, `--cfg`,
 * `--config_path`). They only mean something in projects that use those libraries: elsewhere a
 * documented `-p` or `--version` must not be excused as a Hydra flag. So, when the config keeps
 * the defaults, the Hydra entries apply only if a Python source imports `hydra` or `omegaconf`,
 * and `config_path` only if one imports `draccus`; `help`, `h` and `version`, which nearly every
 * CLI accepts, always apply. An explicit list is used as given. `factsOf` gives a source's
 * imports of those libraries (default: scanned from its text, see `pythonTextFacts`).
 */
export function effectiveGlobalParameters<S extends { text: string }>(
  configured: string[],
  sources: S[],
  factsOf: (source: S) => Pick<PythonTextFacts, 'imports'> = (source) => pythonTextFacts(source.text),
): string[] {
  const defaults = DEFAULT_CONFIG.globalParameters;
  if (configured.length !== defaults.length || configured.some((p, i) => p !== defaults[i])) return configured;
  const imports = (lib: string): boolean => sources.some((s) => factsOf(s).imports.includes(lib));
  const hydra = imports('hydra') || imports('omegaconf');
  const draccus = imports('draccus');
  const universal = new Set(['help', 'h', 'version']);
  return configured.filter((p) => universal.has(p) || (p === 'config_path' ? draccus : hydra));
}

/**
 * A cheap test on raw document text: does it name one of the commands as a word (not inside a
 * longer identifier), or hold an ATX heading that one of `headingPatterns` (`globalSections`-style,
 * see `createHeadingMatcher`) accepts?
 */
export function mentionMatcher(names: string[], headingPatterns: readonly string[], keyNames: readonly string[] = [], envProse = false): MentionMatcher {
  const unique = [...new Set(names.filter((n) => n.length > 0))].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  const escaped = unique.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const word = escaped.length > 0 ? new RegExp(`(?<![\\w-])(?:${escaped.join('|')})(?![\\w-])`) : undefined;
  const isGlobalHeading = createHeadingMatcher(headingPatterns);
  const keys = new Set(keyNames.map(foldNameAnyCase).filter((k) => k.length > 0));
  return {
    key: JSON.stringify([unique, headingPatterns, ...(keys.size > 0 ? [[...keys].sort()] : []), ...(envProse ? ['env-prose'] : [])]),
    test(text) {
      if (word?.test(text)) return true;
      if (envProse && ENV_PROSE_RE.test(text)) return true;
      if (keys.size > 0 && namesKeys(text, keys)) return true;
      // `(.*)` then a trim, not `(.+?)[ \t#]*$`: that retried every split of a long `#` run.
      for (const match of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*)$/gm)) {
        const heading = trimTrailing(match[1] ?? '', ' \t#');
        if (heading !== '' && isGlobalHeading(heading.replace(/[`*_]/g, ''))) return true;
      }
      return false;
    },
  };
}

/**
 * The config keys a YAML file reads through OmegaConf interpolation: `${judge_base_url}`,
 * `${oc.select:judge_base_url,default}`, `${policy.model_name}` (first segment). Resolver calls
 * other than `oc.select`/`oc.env`-style ones with a key argument are not keys.
 * Source: https://omegaconf.readthedocs.io/en/latest/usage.html#variable-interpolation
 */
export function interpolationKeys(text: string): string[] {
  const keys: string[] = [];
  for (const match of text.matchAll(/\$\{([A-Za-z_][\w.]{0,100}:)?([A-Za-z_][A-Za-z0-9_]*)[.,}\[]/g)) {
    const resolver = match[1];
    // `${oc.env:HOME}`, `${now:%H}`: a resolver's argument is not a config key; `oc.select` is.
    if (resolver === undefined || resolver === 'oc.select:') keys.push(match[2]!);
  }
  return keys;
}

/**
 * The `bin` commands of a package.json by name, each with the 1-based line that declares it and
 * the file it runs as written (see {@link readPackageBins}, which also says what cannot be read).
 */
export function binEntries(packageJson: string): Record<string, { line: number; file: string }> {
  return Object.fromEntries(readPackageBins({ file: 'package.json', text: packageJson }).bins.map((b) => [b.name, { line: b.line, file: b.file }]));
}

/** An absolute or root-relative path as a project-relative POSIX path. */
export { toProjectPath };

/**
 * A sentence naming an environment variable in inline code as such, either way round (`` the
 * `APP_MODE` environment variable ``, `` set the env var `$APP_MODE` ``, reStructuredText's double
 * backticks too): a page worth reading
 * for the variables its prose names (issue #31), even when it names no command.
 */
const ENV_PROSE_RE = /`\$?\{?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\}?(?:=[^`\s]*)?``?[^.!?\n`]{0,60}\b[Ee]nv(?:ironment)?[\s_-]*[Vv]ar|\b[Ee]nv(?:ironment)?[\s_-]*[Vv]ar(?:iable)?s?\b[^.!?\n`]{0,60}``?\$?\{?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+/;

/** Distinct config-class field names in inline code that make a page worth reading by content: as many as inference needs. */
const KEY_MENTIONS = INFERENCE_THRESHOLDS.minShared;

/**
 * True when `text` names in inline code at least {@link KEY_MENTIONS} distinct names of `keys`
 * (folded with `foldNameAnyCase`, src/link/infer-sections.ts: `` `--max-tokens` ``, `` `max_tokens` `` and `` `maxTokens` `` are
 * one name). One pass over the page's code spans; spans longer than 80 characters are examples,
 * not names.
 */
function namesKeys(text: string, keys: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (const match of text.matchAll(/`([^`\n]{1,80})`/g)) {
    const name = /^[-+~]*[A-Za-z_][\w.-]*/.exec(match[1]!.trim())?.[0];
    if (name === undefined) continue;
    const folded = foldNameAnyCase(name);
    if (keys.has(folded) && !seen.has(folded)) {
      seen.add(folded);
      if (seen.size >= KEY_MENTIONS) return true;
    }
  }
  return false;
}

/**
 * The field names of the config classes a page could document as keys without naming any command
 * (the classes reference inference considers: at least three documentable fields, tests left out).
 * @returns raw field names and aliases; {@link mentionMatcher} folds them.
 */
export function documentableKeys(classes: Iterable<ConfigClass>): string[] {
  const out = new Set<string>();
  for (const cls of classes) {
    if (cls.kind === 'typeddict' || isNonProductPath(cls.location.file)) continue;
    const fields = cls.fields.filter((f) => !f.hidden && !f.positional);
    if (fields.length < INFERENCE_THRESHOLDS.minShared) continue;
    for (const f of fields) out.add(f.name);
  }
  return [...out];
}
