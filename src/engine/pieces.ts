/**
 * The per-file cache ("pieces"): what extraction and parsing found in each input file, keyed by
 * a hash of the file's path and content (and the options that shaped the result), so a run after
 * a small change re-parses only the files that changed and rebuilds the model and runs the rules
 * from stored pieces. Cross-file facts (a base class in another module, imports, links, site
 * routes) are recomputed from the pieces whenever any file they span changes: the one piece that
 * spans files, the whole extraction (`FactCache.codeFacts` in src/engine/facts.ts), is keyed by the content hashes of
 * every code input, so a run in which only documents changed reads no code. One kind is keyed by
 * path alone: the segments of a large Markdown page's last parse (`doc-segments`, see
 * src/docs/segments.ts), each checked against the new text by its hash before it is reused.
 *
 * The store is a set of files per project next to the run cache, `pieces-<hash of root>-<segment>.bin`:
 * the whole extraction (`whole`), and the per-source pieces and the documents' each in 16 shards
 * by the first hex digit of the piece's key (`sources-0` … `sources-f`, `docs-0` … `docs-f`), so
 * that a run after one edited file rewrites one shard, not every piece of its kind (NeMo Gym:
 * 7 MB of documents were serialised and written again after each README edit). Each is a 32-byte HMAC-SHA256 (this
 * machine's cache key, see `cacheKey` in cache.ts) followed by a V8 serialisation of
 * `{ format, code, segment, entries }`. A file that is missing, unreadable, of another layout,
 * segment or docdrift build, or whose signature does not verify is ignored (its pieces are then
 * misses, i.e. the cold path) and rewritten; it is never deserialised before its signature
 * verifies. Files are written through the run cache's atomic writer only, each holding the pieces
 * the last run that read it used (so renamed and deleted files drop out).
 *
 * This file is the stores. What is stored under which key, and when a stored piece is used, is
 * the fact cache's (src/engine/facts.ts): the one module the stages ask, so that no stage sees a
 * store or computes a key.
 */
import { createHash, createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { readSignedFileBytes, type SignedRead } from '../shared/read-file.js';
import { writeFileAtomic } from './write.js';

/** Layout of the pieces file; bump when a stored piece changes shape (4: table rows keep packed `cellSpans`/`codeSpans`). */
export const PIECES_FORMAT = 4;

/** Largest pieces file read: 256 MiB. */
const MAX_PIECES_BYTES = 256 * 1024 * 1024;

/**
 * Most bytes of pieces files one store reads, all its files together (each file's size counted
 * as it is opened, its signature checked by streaming): 512 MiB, the run's memory bound. A file
 * that would pass it is not read (its pieces are misses).
 */
const MAX_PIECES_TOTAL_BYTES = 512 * 1024 * 1024;

/** A per-file store of extraction results: `get` after `set` in one run returns an equal copy. */
export interface PieceStore {
  /**
   * The piece stored under `key`, or undefined: a fresh copy, except that the language server's
   * store hands out again the value it read back for parsed documents and Python scans
   * (src/lsp/pieces.ts `LIVE_KINDS`), so no caller may change what `get` returns.
   */
  get<T>(key: string): T | undefined;
  /** Stores a copy of `value` (taken now, so later mutation of `value` is not stored). */
  set(key: string, value: unknown): void;
  /** True when a piece is stored under `key` (counts as neither hit nor miss). */
  has(key: string): boolean;
  /**
   * Keeps every stored piece of these kinds (see {@link pieceKey}) for the next run although this
   * run did not read them: a run that reused a piece built from them needs them no more, but the
   * next run, in which one of their files changes, does.
   */
  keep(kinds: readonly string[]): void;
  /** Keeps the piece stored under `key` for the next run, without reading it (as {@link keep}, for one piece). */
  retain(key: string): void;
  /**
   * Tells the store that the piece under `key` is of the document `file` (project path), as the
   * document parser reads or stores it: the language server's store, which keeps pieces within a
   * byte budget, lets the pieces of the pages open in the editor go last (src/lsp/pieces.ts).
   */
  owner?(key: string, file: string): void;
  /** True when the store held nothing when the run started (a cold run). */
  readonly empty: boolean;
}

/**
 * The key of one piece: `<kind>:` then sha256 over `kind` and each part, separated so that no two
 * part lists give the same bytes. Parts are the file's path, its text and whatever else shaped the
 * result. The kind stays readable so that {@link PieceStore.keep} can select pieces by kind.
 */
export function pieceKey(kind: string, ...parts: string[]): string {
  const hash = createHash('sha256').update(kind);
  for (const part of parts) hash.update(`\0${part.length}\0`).update(part);
  return `${kind}:${hash.digest('hex')}`;
}

/** The kinds of piece the whole-extraction piece (`FactCache.codeFacts`, src/engine/facts.ts) is built from. */
export const CODE_PIECE_KINDS: readonly string[] = ['py-scan', 'py-flags', 'ts', 'ts-env'];

/**
 * The families of files the store is split into, by kind of piece: the whole extraction (`code`),
 * the per-file pieces it is built from (Python scans, flags, TypeScript facts), and the documents.
 * A run in which only documents changed reads the first and last and neither reads nor
 * rewrites the second, the largest on a Python repository (7 of 17 MB on NeMo Gym).
 */
type Family = 'whole' | 'sources' | 'docs';

/** Shards of the `sources` and `docs` families: one per first hex digit of a piece key's hash. */
const SHARD_DIGITS = '0123456789abcdef';

/** Every file of the store, by name: `whole`, `sources-0` … `sources-f`, `docs-0` … `docs-f`. */
const SEGMENTS: readonly string[] = ['whole', ...[...SHARD_DIGITS].map((d) => `sources-${d}`), ...[...SHARD_DIGITS].map((d) => `docs-${d}`)];
type Segment = string;

/** The family of a piece key, or of a `<kind>:` prefix. */
function familyOf(key: string): Family {
  if (key.startsWith('code:')) return 'whole';
  if (key.startsWith('doc:') || key.startsWith('doc-segments:') || key.startsWith('doc-triage:')) return 'docs';
  return 'sources';
}

function familyOfSegment(segment: Segment): Family {
  return segment === 'whole' ? 'whole' : segment.startsWith('docs-') ? 'docs' : 'sources';
}

/** The file a piece key belongs to (a key whose hash does not start with a hex digit goes to shard 0). */
function segmentOf(key: string): Segment {
  const family = familyOf(key);
  if (family === 'whole') return family;
  const digit = key.charAt(key.indexOf(':') + 1);
  return `${family}-${SHARD_DIGITS.includes(digit) && digit !== '' ? digit : '0'}`;
}

/** Files of the store's earlier layout (one file per family), removed when the store is saved. */
const LEGACY_SEGMENTS = ['sources', 'docs'] as const;

/** One file of the store, read when a piece of its kinds is first asked for. */
interface SegmentState {
  file: string;
  /** Pieces read from disk, by key (V8-serialised); undefined until read. */
  stored?: Map<string, Buffer>;
  /** Pieces this run read or wrote: what {@link FilePieceStore.save} keeps. */
  used: Map<string, Buffer>;
  /** A piece was stored by this run (the file must be written). */
  changed: boolean;
  /** {@link PieceStore.keep} asked for this file's pieces while it was not read: it stays as it is. */
  keptUnread: boolean;
  /** The file on disk could not be used (unreadable, foreign, corrupt): it is rewritten. */
  bad: boolean;
}

/** A piece's bytes (V8's serializer), or undefined for a value V8 cannot serialise: such a value is simply not stored. */
function encodePiece(value: unknown): Buffer | undefined {
  try {
    return serialize(value);
  } catch {
    return undefined;
  }
}

/** A piece read back, or undefined when its bytes do not deserialise: a miss (the cold path), never a crash. */
function decodePiece<T>(bytes: Buffer): T | undefined {
  try {
    return deserialize(bytes) as T;
  } catch {
    return undefined;
  }
}

/**
 * A {@link PieceStore} on disk, with the pieces used by this run to write back. Its files are
 * read lazily, each when a piece of its kinds is first asked for, and only the files whose
 * pieces changed are written.
 */
export class FilePieceStore implements PieceStore {
  private readonly segments: Record<Segment, SegmentState>;
  private readonly base: string;
  readonly empty: boolean;
  private readonly notes = new Set<string>();
  /** Bytes of pieces files opened so far (see {@link MAX_PIECES_TOTAL_BYTES}). */
  private bytesRead = 0;
  hits = 0;
  misses = 0;

  /**
   * @param file absolute path of the store's first file (see {@link piecesFile}); the others
   *   are named after it
   * @param signingKey this machine's cache key
   * @param code docdrift's code fingerprint: pieces of another build are never used
   * @param root the project root, when the store lies inside it: each file is checked where its
   *   temporary file is made ({@link writeFileAtomic}'s `root`)
   */
  constructor(
    readonly file: string,
    private readonly signingKey: Buffer,
    private readonly code: string,
    private readonly root?: string,
  ) {
    const base = file.replace(/\.bin$/, '');
    this.base = base;
    const state = (segment: Segment): SegmentState => ({ file: `${base}-${segment}.bin`, used: new Map(), changed: false, keptUnread: false, bad: false });
    this.segments = Object.fromEntries(SEGMENTS.map((segment) => [segment, state(segment)]));
    // Every run parses or reuses documents: those files are read now, and tell a cold run.
    let empty = true;
    for (const segment of SEGMENTS) if (familyOfSegment(segment) === 'docs' && this.load(segment).size > 0) empty = false;
    this.empty = empty;
  }

  /** Why a file on disk was not used, for `--debug`. */
  get note(): string | undefined {
    return this.notes.size > 0 ? [...this.notes].join('; ') : undefined;
  }

  /** The files of the store (absolute paths), for the caller's write-target check. */
  get files(): string[] {
    return SEGMENTS.map((s) => this.segments[s]!.file);
  }

  private load(segment: Segment): Map<string, Buffer> {
    const state = this.segments[segment]!;
    if (state.stored) return state.stored;
    const read = this.read(segment, state.file);
    if (read.note) {
      this.notes.add(read.note);
      state.bad = true;
    }
    state.stored = read.entries;
    return state.stored;
  }

  private read(segment: Segment, file: string): { entries: Map<string, Buffer>; note?: string } {
    // Size and signature are checked before the body is held in memory, and the files of one
    // store are read up to a total (s30 sweep D3: eight forged sparse 250 MB files were each read
    // whole before their HMAC was checked: 620 MB peak -> streamed, and past the total refused unread).
    let read: SignedRead;
    try {
      read = readSignedFileBytes(file, { maxBytes: Math.min(MAX_PIECES_BYTES, MAX_PIECES_TOTAL_BYTES - this.bytesRead), macBytes: 32, mac: () => createHmac('sha256', this.signingKey) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EFBIG') return { entries: new Map(), note: `the per-file cache is larger than its limit (${MAX_PIECES_BYTES / 1024 / 1024} MiB a file, ${MAX_PIECES_TOTAL_BYTES / 1024 / 1024} MiB in all); not used, it will be rewritten` };
      return { entries: new Map(), note: code === 'ENOENT' ? undefined : 'the per-file cache is unreadable; it will be rewritten' };
    }
    this.bytesRead += read.size;
    const bad = (why: string) => ({ entries: new Map<string, Buffer>(), note: `the per-file cache ${why}; not used, it will be rewritten` });
    if ('refused' in read) return bad(read.refused === 'truncated' ? 'is truncated' : 'was not written by docdrift on this machine (no valid signature)');
    const body = read.body;
    try {
      const data = deserialize(body) as { format?: unknown; code?: unknown; segment?: unknown; entries?: unknown };
      if (data === null || typeof data !== 'object' || data.format !== PIECES_FORMAT || data.segment !== segment || !(data.entries instanceof Map)) return bad('has another layout');
      if (data.code !== this.code) return bad('was written by another docdrift build');
      const entries = new Map<string, Buffer>();
      for (const [k, v] of data.entries as Map<unknown, unknown>) if (typeof k === 'string' && v instanceof Uint8Array) entries.set(k, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      return { entries };
    } catch {
      return bad('is corrupt');
    }
  }

  has(key: string): boolean {
    const segment = segmentOf(key);
    return this.segments[segment]!.used.has(key) || this.load(segment).has(key);
  }

  /**
   * Keeps every stored piece for the next run, used by this run or not (see {@link keep}): for a
   * run whose pieces are keyed otherwise than a plain run's (`--fix` reads through an overlay of
   * edited texts, so it keys documents and sources by their text, not by the run cache's content
   * hashes), which would otherwise drop what the next plain run needs.
   */
  keepAll(): void {
    this.keepWhere(() => true, () => true);
  }

  keep(kinds: readonly string[]): void {
    const prefixes = kinds.map((k) => `${k}:`);
    this.keepWhere(
      (segment) => prefixes.some((p) => familyOf(p) === familyOfSegment(segment)),
      (key) => prefixes.some((p) => key.startsWith(p)),
    );
  }

  /** Keeps the stored pieces whose key `wanted` accepts, in the files `segment` accepts; a file not read yet stays as it is. */
  private keepWhere(segment: (segment: Segment) => boolean, wanted: (key: string) => boolean): void {
    for (const name of SEGMENTS) {
      if (!segment(name)) continue;
      const state = this.segments[name]!;
      if (!state.stored) {
        state.keptUnread = true;
        continue;
      }
      for (const [key, bytes] of state.stored) if (!state.used.has(key) && wanted(key)) state.used.set(key, bytes);
    }
  }

  retain(key: string): void {
    const state = this.segments[segmentOf(key)]!;
    const bytes = state.used.get(key) ?? this.load(segmentOf(key)).get(key);
    if (bytes !== undefined) state.used.set(key, bytes);
  }

  get<T>(key: string): T | undefined {
    const segment = segmentOf(key);
    const state = this.segments[segment]!;
    const bytes = state.used.get(key) ?? this.load(segment).get(key);
    if (bytes === undefined) {
      this.misses++;
      return undefined;
    }
    const value = decodePiece<T>(bytes);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    state.used.set(key, bytes);
    this.hits++;
    return value;
  }

  set(key: string, value: unknown): void {
    const bytes = encodePiece(value);
    if (bytes === undefined) return;
    const segment = segmentOf(key);
    const state = this.segments[segment]!;
    // Read first, so that save knows what the file held (a piece set without a get before it).
    this.load(segment);
    state.used.set(key, bytes);
    state.changed = true;
  }

  /**
   * Writes, signed and atomically (temporary file + rename), each file whose pieces this run
   * changed: a piece stored, or a stored one not used (a renamed or deleted file's). A file that
   * was kept unread stays as it is; one neither read nor kept is removed (nothing of it was used),
   * and so is a shard left with no piece. The files of the earlier one-file-per-family layout are
   * removed. Ends the store's use: the pieces of a written file are dropped from memory (a run
   * saves once, last).
   * @throws what `writeFileAtomic` throws (the caller treats it as "not written")
   */
  save(): void {
    for (const legacy of LEGACY_SEGMENTS) rmSync(`${this.base}-${legacy}.bin`, { force: true });
    for (const segment of SEGMENTS) {
      const state = this.segments[segment]!;
      if (state.keptUnread && !state.stored) continue;
      if (!state.stored || (state.used.size === 0 && segment !== 'whole')) {
        // Nothing of it was used; a shard without pieces has no file (an empty one would be read on every run).
        if (!state.stored || state.stored.size > 0 || state.bad) rmSync(state.file, { force: true });
        continue;
      }
      const same = !state.changed && !state.bad && state.used.size === state.stored.size;
      if (same) continue;
      const body = serialize({ format: PIECES_FORMAT, code: this.code, segment, entries: state.used });
      // The body holds a copy of every piece: the run's own copies are let go before the write,
      // and signature and body are written as two chunks rather than joined into a third copy
      // (a first cached run at synthetic 10x peaked ~80 MB above a run without the cache).
      state.used = new Map();
      state.stored = new Map();
      const mac = createHmac('sha256', this.signingKey).update(body).digest();
      writeFileAtomic(state.file, [mac, body], { durable: false, ...(this.root === undefined ? {} : { root: this.root }) });
    }
  }
}

/**
 * A {@link PieceStore} in memory, for several runs of one process over texts that differ in a
 * few files: the passes of `--fix` (src/fix/apply.ts), where a pass after an edit parses only the
 * edited files. Pieces are copied in and out with V8's serializer, as {@link FilePieceStore} does,
 * so no run sees another's objects. `empty` is true until the first piece is stored.
 */
export class MemoryPieceStore implements PieceStore {
  private readonly pieces = new Map<string, Buffer>();
  hits = 0;
  misses = 0;

  get empty(): boolean {
    return this.pieces.size === 0;
  }

  get<T>(key: string): T | undefined {
    const bytes = this.pieces.get(key);
    const value = bytes === undefined ? undefined : decodePiece<T>(bytes);
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  set(key: string, value: unknown): void {
    const bytes = encodePiece(value);
    if (bytes !== undefined) this.pieces.set(key, bytes);
  }

  has(key: string): boolean {
    return this.pieces.has(key);
  }

  keep(): void {
    // Nothing is dropped from memory between runs.
  }

  retain(): void {
    // Nothing is dropped from memory between runs.
  }
}

/** The first file of a project's per-file cache in cache directory `dir` (see {@link FilePieceStore}). */
export function piecesFile(dir: string, root: string): string {
  return path.join(dir, `pieces-${createHash('sha1').update(root).digest('hex').slice(0, 16)}.bin`);
}
