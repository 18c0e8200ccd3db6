/**
 * The per-file cache as one layer under the engine: every fact the stages derive from one file (a
 * parsed document, a page's triage row, a Python scan, a TypeScript file's env reads) or from a set
 * of files (the CLI flags of the flag files, the TypeScript facts, the whole extraction) is asked
 * of one {@link FactCache}, built once at the top of `lint()` (src/engine/lint.ts) from the run's
 * caching options. It owns every piece key (what a fact was computed from) and every read, write
 * and keep of the store (src/engine/pieces.ts); the stages hand it the function that computes a
 * fact and never see the store. Without a store it is the "no cache" policy: each fact is computed
 * directly, nothing is hashed or copied.
 *
 * Shapes: a piece key is `<kind>:<sha256>` (`pieceKey` in pieces.ts) over the fact's inputs, each
 * file given by its content hash when the run cache computed one that names the text the run reads
 * (`hashes`, project-relative path → hash), else by its text. Kinds: `doc`, `doc-segments`,
 * `doc-triage`, `py-scan`, `py-flags`, `ts`, `ts-env`, `code`. A fact that read files beyond its
 * key's inputs remembers them as `[file, key]` pairs ({@link textKey}, {@link sizeKey}) and is used
 * only when each reads the same again ({@link sameReads}).
 *
 * The stores: `FilePieceStore` (the CLI's, on disk: `lintWithCache` in cache.ts, `--fix` in
 * cli.ts), `MemoryPieceStore` (the passes of `--fix`, src/fix/apply.ts) and the language server's
 * `GenerationalPieceStore` (src/lsp/pieces.ts). Each gives `lint()` its store as
 * `LintOptions.pieces`; the language server also asks the cache of its early prefetch here.
 */
import type { DocdriftConfig } from '../config/schema.js';
import { LARGE_DOCUMENT_LENGTH, type DocParser, type ParseOutcome, type ParseWhat } from '../docs/bounded-parse.js';
import { SEGMENTED_MIN_LENGTH, segmentable, type MarkdownSegment } from '../docs/segments.js';
import type { PythonSource, ScanCache } from '../extract/python/index.js';
import type { ModuleInfo } from '../extract/python/scan.js';
import type { PythonTextFacts } from '../extract/python/text-facts.js';
import type { InputDiagnostic } from '../model/types.js';
import { stableStringify } from '../shared/json.js';
import { CODE_PIECE_KINDS, pieceKey, type PieceStore } from './pieces.js';

/** Reads a project file (project-relative POSIX path): its text, or `undefined` when unreadable (see `ReadFile` in lint.ts). */
type ReadFile = (file: string) => string | undefined;

/**
 * A project file's size in bytes from its `stat` (an overlaid file's: its text's), `undefined`
 * when unknown (`FileSize` in typescript-facts.ts).
 */
type FileSize = (file: string) => number | undefined;

/**
 * The key of a file's text as read (`null` when it could not be read): how a piece remembers the
 * files it read beyond its own key's inputs, to check them again before it is used.
 */
export function textKey(text: string | undefined): string | null {
  return text === undefined ? null : pieceKey('text', text);
}

/** Prefix of the key a size asked for is recorded with among the reads (a text's key starts `text:`). */
const SIZE_KEY = 'size:';

/** The key a size asked for ({@link FileSize}) is recorded with among the reads of an extraction. */
export function sizeKey(bytes: number | undefined): string {
  return `${SIZE_KEY}${bytes ?? '-'}`;
}

/** True when every recorded read (a text's {@link textKey}, or a size's {@link sizeKey}) gives the same again through `read` and `size`. */
export function sameReads(reads: ReadonlyArray<[string, string | null]>, read: ReadFile, size: FileSize | undefined): boolean {
  return reads.every(([file, expected]) => (expected?.startsWith(SIZE_KEY) ? sizeKey(size?.(file)) === expected : textKey(read(file)) === expected));
}

/** Identifies the inputs of a TypeScript extraction: the key of its stored piece. The config's type names count only when given (they rank the sources for the run's budget). */
export function typeScriptInputsKey(tsSources: Array<{ file: string; text: string }>, packageJsons: Array<{ file: string; text: string }>, programFiles: string[], configTypes: readonly string[] = []): string {
  const programs = configTypes.length > 0 ? JSON.stringify([programFiles, configTypes]) : JSON.stringify(programFiles);
  return pieceKey('ts', programs, ...[...tsSources, ...packageJsons].flatMap((s) => [s.file, s.text]));
}

/** The inputs of a TypeScript extraction, as {@link typeScriptInputsKey} takes them. */
export interface TypeScriptInputs {
  tsSources: Array<{ file: string; text: string }>;
  packageJsons: Array<{ file: string; text: string }>;
  programFiles: string[];
  configTypes: readonly string[];
}

/** What the whole extraction returns (`CodeFacts` in lint.ts): plain data, but for the function that follows re-exports to a target. */
interface WholeFacts {
  canonicalTarget: (target: string) => string;
}

/** Facts as stored: `canonicalTarget` becomes the table of the targets it is asked for. */
type StoredWholeFacts<F extends WholeFacts> = Omit<F, 'canonicalTarget'> & { canonicalTargets: Array<[string, string]> };

/** The stored whole extraction: the facts, the diagnostics extraction reported (in order), and the files it read that are not hashed inputs. */
interface StoredCodePiece<F extends WholeFacts> {
  facts: StoredWholeFacts<F>;
  diagnostics: InputDiagnostic[];
  /** Files read during extraction outside the hashed inputs (compiled JavaScript a `bin` runs), with their texts' keys (`null`: unreadable). */
  reads: Array<[string, string | null]>;
}

/** A stored fact with the diagnostics it came with and the other files read on the way (with their keys, see {@link sameReads}). */
interface StoredWithReads<F> {
  facts: F;
  diagnostics: InputDiagnostic[];
  reads: Array<[string, string | null]>;
}

/** One fact of the store, for a stage that computes it itself: `get` what is stored, `set` what it computed. */
export interface FactSlot<T> {
  /** The stored value, or undefined (always, without a store). */
  get(): T | undefined;
  /** Stores `value` (a copy; nothing without a store). */
  set(value: T): void;
}

/** What a {@link FactCache} is built from: a run's caching options (`LintOptions` in lint.ts). */
export interface FactCacheOptions {
  /** The per-file store; none: every fact is computed. */
  store?: PieceStore | undefined;
  /** Content hashes of the discovered files by project-relative path, as the run cache computed them (src/engine/cache.ts). */
  hashes?: ReadonlyMap<string, string> | undefined;
  /** What cheap scans of each hashed `.py` file's text found, from the same bytes as `hashes`. */
  pythonFacts?: ReadonlyMap<string, PythonTextFacts> | undefined;
  /**
   * The run reads other texts than the hashed ones (an overlay of edited texts whose hashes are
   * not in `hashes`: `--fix`): `hashes` and `pythonFacts` are then not used, and facts are keyed by
   * their texts.
   */
  unhashedTexts?: boolean;
}

/**
 * The per-file cache of one run (see the file's comment). Build one per run
 * (`new FactCache(options)`); {@link NO_CACHE} computes everything.
 */
export class FactCache {
  private readonly store: PieceStore | undefined;
  /** The hashes that name the texts this run reads (none with `unhashedTexts`). */
  readonly hashes: ReadonlyMap<string, string> | undefined;
  /** {@link FactCacheOptions.pythonFacts}, when {@link hashes} are used. */
  readonly pythonFacts: ReadonlyMap<string, PythonTextFacts> | undefined;

  constructor(options: FactCacheOptions = {}) {
    this.store = options.store;
    this.hashes = options.unhashedTexts ? undefined : options.hashes;
    this.pythonFacts = this.hashes ? options.pythonFacts : undefined;
  }

  /** True when there is no store, or it held nothing when the run started (a cold run: parse eagerly, guess linked pages). */
  get cold(): boolean {
    return this.store?.empty ?? true;
  }

  /**
   * The content hash the pieces of `file` are keyed by: its run-cache hash when there is a store
   * and the hash names the text the run reads and is not an error (`error:…`, an unreadable file,
   * which is read and reported); otherwise undefined, and the file is read.
   */
  pieceHash(file: string): string | undefined {
    const hash = this.store ? this.hashes?.get(file) : undefined;
    return hash !== undefined && !hash.startsWith('error:') ? hash : undefined;
  }

  /**
   * The document parser of the run: `parser` answered from the store when the same text was
   * parsed with the same request before (see {@link cachedDocParser}); `parser` itself without a store.
   */
  docParser(parser: DocParser, options: { segmentMinLength?: number; segmentBudgetBytes?: number } = {}): DocParser {
    return cachedDocParser(parser, this.store, this.hashes, options);
  }

  /** True when the segments of the last parse of the large page `file` are stored (src/docs/segments.ts): a parse of its edited text reuses them. */
  hasSegments(file: string): boolean {
    return this.store?.has(pieceKey('doc-segments', file)) ?? false;
  }

  /**
   * The stored table of page facts (`doc-triage`) for the mention matcher of key `matcherKey`
   * (src/engine/doc-texts.ts), or undefined. Its rows are valid for a page whose
   * {@link pieceHash} is the row's.
   */
  triageTable<Row>(matcherKey: string): Row[] | undefined {
    const stored = this.store?.get<Row[]>(pieceKey('doc-triage', matcherKey));
    return Array.isArray(stored) ? stored : undefined;
  }

  /** Stores the table of page facts for the matcher of key `matcherKey` (nothing without a store). */
  setTriageTable(matcherKey: string, rows: unknown[]): void {
    this.store?.set(pieceKey('doc-triage', matcherKey), rows);
  }

  /**
   * Stage "extract" as one piece (`extract`: `extractCode` in lint.ts), or answered from the
   * store: when no code input changed since the last run (only documents did, the common pull
   * request), a run neither reads nor hashes the Python, TypeScript, YAML and packaging files
   * again, nor resolves classes and flags across them; it reuses the whole facts of that run, and
   * keeps the per-file pieces below them (`CODE_PIECE_KINDS`) for the run in which a code file
   * changes.
   *
   * The piece's key covers the config, the discovered file lists (documents aside) and the
   * content hash of every code input (`codeInputs()`: every discovered file but the documents,
   * `discoveredInputs(files, { documents: false })`). Files extraction reads beyond those (the
   * compiled program a package.json `bin` runs) are remembered with their texts' keys and read
   * again to check them on a hit. A hit pushes the stored diagnostics into `diagnostics`, so a run
   * reports what a computing run reports, in the same order. The store belongs to one docdrift
   * build, so no key needs docdrift's code.
   *
   * Only `config.commands.*.program` targets are ever passed to `canonicalTarget` after extraction
   * (src/link/build.ts), so the piece stores its answers for those; for any other target a reused
   * `canonicalTarget` returns the target unchanged. Without a store or without {@link hashes}
   * the piece is neither used nor stored.
   *
   * @param io `read` reads a file for extraction (reporting a file it cannot read); `peek` reads
   *   one silently, to check a remembered read
   */
  async codeFacts<F extends WholeFacts>(
    files: { docs: string[] },
    codeInputs: () => string[],
    config: DocdriftConfig,
    io: { read: ReadFile; peek: ReadFile },
    diagnostics: InputDiagnostic[],
    extract: (read: ReadFile) => Promise<F>,
  ): Promise<F> {
    const { read, peek } = io;
    const { store, hashes } = this;
    if (!store || !hashes) return extract(read);
    const inputs = codeInputs();
    const key = pieceKey(
      'code',
      stableStringify({ config, files: { ...files, docs: [] } }),
      ...inputs.flatMap((file) => [file, hashes.get(file) ?? 'unhashed']),
    );
    const stored = store.get<StoredCodePiece<F>>(key);
    if (stored && stored.reads.every(([file, expected]) => textKey(peek(file)) === expected)) {
      // The pieces this one was built from stay stored for the run in which a code file changes.
      store.keep(CODE_PIECE_KINDS);
      diagnostics.push(...stored.diagnostics);
      const table = new Map(stored.facts.canonicalTargets);
      const { canonicalTargets: _, ...facts } = stored.facts;
      return { ...facts, canonicalTarget: (target: string) => table.get(target) ?? target } as unknown as F;
    }
    const hashed = new Set(inputs);
    const reads = new Map<string, string | null>();
    const start = diagnostics.length;
    const facts = await extract((file) => {
      const text = read(file);
      if (!hashed.has(file)) reads.set(file, textKey(text));
      return text;
    });
    const programs = [...new Set(Object.values(config.commands).flatMap((c) => (c.program === undefined ? [] : [c.program])))];
    const { canonicalTarget, ...rest } = facts;
    store.set(key, {
      facts: { ...rest, canonicalTargets: programs.map((p) => [p, canonicalTarget(p)]) },
      diagnostics: diagnostics.slice(start),
      reads: [...reads],
    } satisfies StoredCodePiece<F>);
    return facts;
  }

  /** Python scans by file path, module name and content (see {@link contentParts}); undefined without a store. */
  pythonScans(): ScanCache | undefined {
    const store = this.store;
    if (store === undefined) return undefined;
    const key = (source: PythonSource, module: string) => pieceKey('py-scan', source.file, module, ...contentParts(source));
    return {
      get: (source, module) => store.get<ModuleInfo>(key(source, module)),
      set: (source, module, info) => store.set(key(source, module), info),
      has: (source, module) => store.has(key(source, module)),
    };
  }

  /**
   * The CLI-flag extraction of `sources` (src/engine/python-flags.ts): flags are resolved across
   * the files that may define them, so the piece belongs to all of them together (and to the
   * package roots that name their modules). Without a store, a slot that holds nothing.
   */
  pythonFlags<T>(packageRoots: string[], sources: PythonSource[]): FactSlot<T> {
    const store = this.store;
    if (store === undefined) return EMPTY_SLOT as FactSlot<T>;
    const key = pieceKey('py-flags', JSON.stringify(packageRoots), ...sources.flatMap((s) => [s.file, ...contentParts(s)]));
    return { get: () => store.get<T>(key), set: (value) => store.set(key, value) };
  }

  /**
   * True when the TypeScript facts of these inputs are stored (read as a hit, so that they stay
   * for the next run): the run need not start them early in a worker.
   */
  hasTypeScriptFacts(inputs: TypeScriptInputs): boolean {
    return this.store?.get(typeScriptInputsKey(inputs.tsSources, inputs.packageJsons, inputs.programFiles, inputs.configTypes)) !== undefined;
  }

  /**
   * The TypeScript facts of `inputs` (src/engine/typescript-facts.ts) through the store. The piece
   * is keyed by {@link typeScriptInputsKey} and remembers every other file read on the way
   * (compiled JavaScript, shims) and every size asked: it is used only when each reads the same
   * again ({@link sameReads}). A run that uses it reports the same diagnostics in the same order as
   * one that computes.
   *
   * @param compute computes through the reader and size it is given (recording ones with a
   *   store), pushing the extractors' own diagnostics to `own` (read errors go to `diagnostics`
   *   through `read`); `forgetReads` drops what was recorded (a computation started again).
   *   Returns the facts and whether they may be stored (not when they depend on the machine's load).
   */
  async typeScriptFacts<F>(
    inputs: TypeScriptInputs,
    io: { read: ReadFile; size?: FileSize | undefined },
    diagnostics: InputDiagnostic[],
    compute: (io: { read: ReadFile; size?: FileSize | undefined; forgetReads?: () => void }, own: InputDiagnostic[]) => Promise<{ facts: F; store: boolean }>,
  ): Promise<F> {
    const { read, size } = io;
    const store = this.store;
    if (!store) {
      const own: InputDiagnostic[] = [];
      const { facts } = await compute({ read, size }, own);
      diagnostics.push(...own);
      return facts;
    }
    const key = typeScriptInputsKey(inputs.tsSources, inputs.packageJsons, inputs.programFiles, inputs.configTypes);
    const stored = store.get<StoredWithReads<F>>(key);
    if (stored) {
      const before = diagnostics.length;
      // The same reads, in the same order, push the same read errors as computing would.
      if (sameReads(stored.reads, read, size)) {
        diagnostics.push(...stored.diagnostics);
        return stored.facts;
      }
      diagnostics.length = before;
    }
    const reads: Array<[string, string | null]> = [];
    const recording: ReadFile = (file) => {
      const text = read(file);
      reads.push([file, textKey(text)]);
      return text;
    };
    const recordingSize: FileSize | undefined =
      size &&
      ((file) => {
        const bytes = size(file);
        reads.push([file, sizeKey(bytes)]);
        return bytes;
      });
    const own: InputDiagnostic[] = [];
    const { facts, store: storable } = await compute({
      read: recording,
      size: recordingSize,
      forgetReads: () => {
        reads.length = 0;
      },
    }, own);
    // Read errors went to `diagnostics` (through `read`); the extractors' own ones follow them, as before.
    diagnostics.push(...own);
    if (storable) store.set(key, { facts, diagnostics: own, reads } satisfies StoredWithReads<F>);
    return facts;
  }

  /**
   * One TypeScript/JavaScript file's env facts (src/engine/typescript-env.ts), keyed by its path
   * and content: by its {@link pieceHash} when known (the file is then not read on a hit), else by
   * its text. `undefined` when the file cannot be read; without a store, computed from the text.
   */
  async typeScriptFileEnv<T>(file: string, read: ReadFile, compute: (text: string) => Promise<T>): Promise<T | undefined> {
    const store = this.store;
    const hash = this.pieceHash(file);
    const hashKey = hash !== undefined ? pieceKey(TS_ENV_PIECE, file, 'hash', hash) : undefined;
    const stored = hashKey === undefined ? undefined : store?.get<T>(hashKey);
    if (stored) return stored;
    const text = read(file);
    if (text === undefined) return undefined;
    const key = hashKey ?? (store ? pieceKey(TS_ENV_PIECE, file, 'text', text) : undefined);
    const again = key === undefined || key === hashKey ? undefined : store?.get<T>(key);
    if (again) return again;
    const result = await compute(text);
    if (key !== undefined) store?.set(key, result);
    return result;
  }
}

/** The kind of the per-file env pieces of TypeScript/JavaScript files (see `CODE_PIECE_KINDS` in pieces.ts). */
const TS_ENV_PIECE = 'ts-env';

/** A slot of no store: holds nothing. */
const EMPTY_SLOT: FactSlot<unknown> = { get: () => undefined, set: () => undefined };

/** The cache of a run without a store: every fact is computed. */
export const NO_CACHE = new FactCache();

/** What identifies a source's content in a piece key: its content hash when known (so the text need not be read), else its text. */
function contentParts(source: Pick<PythonSource, 'text' | 'hash'>): string[] {
  return source.hash !== undefined ? ['hash', source.hash] : ['text', source.text];
}

/**
 * The document parser of a run, answering from `store` when the same text was parsed with the same
 * request before. A document is keyed by its content hash when `hashes` (the run cache's, of the
 * files on disk) has it, else by its text: hashing every page's text again cost ~20 ms on NeMo
 * Gym's 321 pages per run. Pass `hashes` only when the texts parsed are the files on disk (no
 * overlay of edited texts); a file that changes during the run is caught by the run cache, which
 * then stores nothing.
 */
function cachedDocParser(parser: DocParser, store: PieceStore | undefined, hashes?: ReadonlyMap<string, string>, options: { segmentMinLength?: number; segmentBudgetBytes?: number } = {}): DocParser {
  /** Bytes of segment trees stored by this parser, against `options.segmentBudgetBytes`. */
  let segmentBytes = 0;
  if (store === undefined) return parser;
  const flags = (what: { doc: boolean; directives: boolean }) => `${what.doc ? 'd' : ''}${what.directives ? 'x' : ''}`;
  // The key of a file on disk whose content hash is known; found without its text.
  const hashKeyOf = (file: string, what: { doc: boolean; directives: boolean }): string | undefined => {
    const hash = hashes?.get(file);
    return hash === undefined || hash.startsWith('error:') ? undefined : pieceKey('doc', file, flags(what), ...contentParts({ text: '', hash }));
  };
  const keyOf = (file: string, text: string, what: { doc: boolean; directives: boolean }) =>
    hashKeyOf(file, what) ?? pieceKey('doc', file, flags(what), ...contentParts({ text }));
  // A large Markdown page is parsed in segments, the last parse's kept by path (src/docs/segments.ts).
  const segmentsKey = (file: string, text: string, what: ParseWhat): string | undefined =>
    what.doc && segmentable(file, text, options.segmentMinLength) && (options.segmentBudgetBytes === undefined || segmentBytes < options.segmentBudgetBytes || text.length >= SEGMENTED_MIN_LENGTH)
      ? pieceKey('doc-segments', file)
      : undefined;
  const withSegments = (what: ParseWhat, key: string | undefined): ParseWhat =>
    key === undefined ? what : { ...what, segments: store.get<MarkdownSegment[]>(key) ?? null };
  /**
   * A stored outcome as the run uses it. A large document's is stored with its length (`length`),
   * and counts toward the run's limit on large documents as its parse did (`DocParser.admit`):
   * answered from the store, such pages went past it, run after run (s32 sweep D5: the language
   * server, and warm CLI runs, read 4 more 216 KB pages each time; 10 pages: 96,000 findings,
   * then 192,000, 831 MB). A page the limit refuses gets the parser's `parse-error` outcome.
   */
  const answer = (file: string, what: ParseWhat, stored: (ParseOutcome & { length?: number }) | undefined): ParseOutcome | undefined => {
    if (stored === undefined) return undefined;
    const { length, ...outcome } = stored;
    const refused = length !== undefined ? parser.admit?.(file, length, what) : undefined;
    return refused ?? ownLinks(outcome);
  };
  /**
   * Outcomes parsed and not stored yet, by key: `flush` (or `close`) stores them. Until then
   * `storeCut` replaces one in place, so that the rows a run's limit cuts are never copied into
   * the store (s35 sweep D9: 60 pages of 4,400 rows, 196 MB of copies, ~100 MB over a run
   * without the cache). Callers flush before they change what `parse` returned (the link stage).
   */
  const unstored = new Map<string, ParseOutcome & { length?: number }>();
  /** Keys whose stored outcome `parse` does not answer with (during `reparse`). */
  const refused = new Set<string>();
  /** Stores the outcome waiting under `key`, if any: a caller asking for it again gets a copy, as from the store. */
  const storeNow = (key: string): void => {
    const value = unstored.get(key);
    if (value === undefined) return;
    unstored.delete(key);
    store.set(key, value);
  };
  const flush = (): void => {
    for (const [key, value] of unstored) store.set(key, value);
    unstored.clear();
  };
  /** Stored outcomes already answered by `reserve`, by key, for the `cached` call that follows. */
  const reserved = new Map<string, ParseOutcome>();
  const cached = (file: string, what: ParseWhat): ParseOutcome | undefined => {
    const key = hashKeyOf(file, what);
    if (key !== undefined && reserved.has(key)) {
      const early = reserved.get(key);
      reserved.delete(key);
      return early;
    }
    if (key !== undefined) storeNow(key);
    // `has` first: a page not stored is parsed next, and `parse` counts its miss.
    const hit = key === undefined || !store.has(key) ? undefined : answer(file, what, store.get<ParseOutcome>(key));
    if (hit !== undefined) store.owner?.(key!, file);
    // Kept for the run after the next edit of this page (a page under the threshold has none).
    if (hit !== undefined && what.doc && !/\.mdx$/i.test(file)) {
      store.retain(pieceKey('doc-segments', file));
      store.owner?.(pieceKey('doc-segments', file), file);
    }
    return hit;
  };
  return {
    cached,
    reserve(file, what) {
      const key = hashKeyOf(file, what);
      if (key === undefined || reserved.has(key)) return;
      const hit = cached(file, what);
      if (hit !== undefined) reserved.set(key, hit);
    },
    isCached(file, what) {
      const key = hashKeyOf(file, what);
      return key !== undefined && (unstored.has(key) || store.has(key));
    },
    prefetch(file, text, what) {
      if (!parser.prefetch || store.has(keyOf(file, text, what))) return;
      parser.prefetch(file, text, withSegments(what, segmentsKey(file, text, what)));
    },
    storeCut(file, text, what, outcome) {
      const key = keyOf(file, text, what);
      const value = what.doc && text.length >= LARGE_DOCUMENT_LENGTH ? { ...outcome, length: text.length } : outcome;
      if (unstored.has(key)) unstored.set(key, value);
      else if (store.has(key)) store.set(key, value);
    },
    flush,
    reparse(file, text, what) {
      const key = keyOf(file, text, what);
      storeNow(key);
      refused.add(key);
      try {
        return this.parse(file, text, what);
      } finally {
        refused.delete(key);
      }
    },
    parse(file, text, what) {
      const key = keyOf(file, text, what);
      const segments = segmentsKey(file, text, what);
      store.owner?.(key, file);
      if (segments !== undefined) store.owner?.(segments, file);
      storeNow(key);
      // A page stored without the rows a run's limit cut (storeCut) is parsed again once the
      // caller's limit no longer cuts it (`reparse`).
      const hit = refused.has(key) ? undefined : answer(file, what, store.get<ParseOutcome>(key));
      if (hit !== undefined) {
        // Kept for the run after the next edit of this page.
        if (segments !== undefined) store.retain(segments);
        return hit;
      }
      const { segments: parsedSegments, ...outcome } = parser.parse(file, text, withSegments(what, segments));
      if (segments !== undefined && parsedSegments !== undefined) {
        // The budget is for the pages segmented only because `segmentMinLength` asked (short ones):
        // past it, such a page keeps no segments and its next parse is whole (memory stays bounded).
        const extra = options.segmentBudgetBytes !== undefined && text.length < SEGMENTED_MIN_LENGTH;
        const bytes = extra ? parsedSegments.reduce((n, s) => n + (s.tree?.byteLength ?? 0), 0) : 0;
        if (!extra || segmentBytes + bytes <= options.segmentBudgetBytes!) {
          segmentBytes += bytes;
          store.set(segments, parsedSegments);
        }
      }
      // A page the run's limits skipped for what other pages cost is not stored: the next run may
      // read it. A page that itself ran over its budget (`overran`) is stored, as the result cache
      // stores a run with it: a run after an edit of another page does not pay for it again (s41
      // sweep D5: 8.5 s of CPU per cached run for one unchanged 400 KB hostile page), nor does the
      // language server's first lint. An edit of the page, or `--no-cache`, parses it again
      // (docs/caching.md).
      // Stored by `flush`, so that a page whose rows the run's limit cuts is copied without them.
      if (outcome.overran || !outcome.diagnostics.some((d) => d.message.startsWith('Not read:'))) unstored.set(key, what.doc && text.length >= LARGE_DOCUMENT_LENGTH ? { ...outcome, length: text.length } : outcome);
      return outcome;
    },
    ...(parser.overruns ? { overruns: () => parser.overruns!() } : {}),
    ...(parser.admit ? { admit: (file: string, length: number, what: ParseWhat) => parser.admit!(file, length, what) } : {}),
    close: () => {
      flush();
      parser.close();
    },
  };
}

/**
 * A stored outcome whose document has links of its own: the link stage resolves links in place
 * (`targetFile`, `fragment`: src/link/cross-references.ts, `resolveSiteRoutes` in src/link/build.ts),
 * and a store may hand the same value out again (the language server's keeps what it read back,
 * src/lsp/pieces.ts), so a target resolved in one lint would stay for the next. The rest of the
 * document is shared, and never written.
 */
function ownLinks(outcome: ParseOutcome | undefined): ParseOutcome | undefined {
  const doc = outcome?.doc;
  if (!outcome || !doc) return outcome;
  return { ...outcome, doc: { ...doc, links: doc.links.map((link) => ({ ...link })) } };
}

