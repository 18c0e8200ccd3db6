/**
 * The per-file cache of the language server: a {@link PieceStore} in memory that keeps, from one
 * lint to the next, only the pieces the last lint used or stored. The CLI's `MemoryPieceStore`
 * keeps everything, right for `--fix`'s few passes; a server lints on every pause in typing,
 * and each version of an edited page would stay in memory for the life of the server.
 *
 * The documents' pieces it keeps are held to a byte budget ({@link KEPT_DOCUMENT_BYTES}): each
 * lint reads every page's parse outcome, and the store kept all of them, with the segments of each
 * large page's last parse, on top of the lint's own peak (#33 s47 sweep K3: 150 pages of 100 KB on
 * disk, `cache 193.8 MB`, 617-629 MB of RSS). Past the budget, pieces are let go at the end of a
 * lint, least recently used first, those of pages not open in the editor before those of open
 * ones; a page let go is parsed again when a lint next needs it.
 *
 * A piece of a {@link LIVE_KINDS} kind, once read back, is held as the value it was read back as,
 * and its serialised bytes are let go: every later lint is handed that value, so the bytes were
 * never read again, and they doubled what an unchanged page held between lints (#33 s49 K3: 150
 * pages of 100 KB on disk, whose lints parse up to the run's bounds and keep the outcomes, held
 * ~60 MB of serialised outcomes beside the same outcomes as values).
 */
import { deserialize, serialize } from 'node:v8';
import type { PieceStore } from '../engine/pieces.js';
import { deepFreeze } from '../shared/memo.js';

/**
 * The piece kinds whose values are kept and handed out again (see `Stored.value`): parsed documents,
 * Python scans and the code facts, which nothing writes (the link stage resolves a document's
 * links on its own copies, `ownLinks` in src/engine/pieces.ts, and amends its own copies of the
 * code's parameters, `ownParameters` in src/link/build.ts). Not a large page's stored segments
 * (`doc-segments`), read only when that page is parsed again: their value, a copy of their
 * serialised trees, doubled what they took (#33 s47 sweep K3).
 */
const LIVE_KINDS = ['doc:', 'py-scan:', 'code:'];

/**
 * Most bytes of document pieces (`doc:`, `doc-segments:`, `doc-triage:`) the server keeps from one
 * lint to the next, by their serialised size (also for a piece held as its value: see
 * {@link GenerationalPieceStore}): 64 MiB. A page of 100 KB of prose takes ~0.25 MB of
 * outcome and ~0.75 MB of segments (NeMo Gym's 321 pages: ~7 MB in all). The value a parse outcome
 * was read back as is not counted: the last lint's model holds it anyway. Tests set another
 * (`DOCDRIFT_TEST_KEPT_DOCUMENT_BYTES`).
 */
export const KEPT_DOCUMENT_BYTES = Number(process.env.DOCDRIFT_TEST_KEPT_DOCUMENT_BYTES) > 0 ? Number(process.env.DOCDRIFT_TEST_KEPT_DOCUMENT_BYTES) : 64 * 1024 * 1024;

/** During a lint, the budget is checked again each time this many bytes of document pieces were stored: 4 MiB. */
const TRIM_STEP_BYTES = 4 * 1024 * 1024;

/** The kinds of piece held to {@link KEPT_DOCUMENT_BYTES}, in the order they are let go (segments only speed up the next parse of an edited page). */
const BUDGETED_KINDS = ['doc-segments', 'doc', 'doc-triage'];

/** Freeze what `get` hands out (tests): a caller that changes a stored value then throws (ES modules are strict). */
const FREEZE = process.env.DOCDRIFT_TEST_FREEZE_PIECES === '1';

/**
 * One stored piece: its serialised bytes until it is read back, or, for a {@link LIVE_KINDS} piece
 * read back, the value it was read back as (`bytes` then let go). `length`: its serialised size in
 * bytes, which the budget counts either way.
 */
interface Stored {
  bytes?: Buffer;
  /**
   * The value a {@link LIVE_KINDS} piece was read back as, handed out again by later lints: an
   * unchanged page keeps its parsed outcome from one lint to the next, so it is not deserialised
   * again (NeMo Gym: ~60 ms of each lint after an edit). Callers must not change what `get`
   * returns: the tests freeze those values (`DOCDRIFT_TEST_FREEZE_PIECES=1`), so a write throws.
   */
  value?: unknown;
  length: number;
}

/** A two-generation store: pieces read or written since the last {@link nextRun} survive it, the others are dropped. */
export class GenerationalPieceStore implements PieceStore {
  private current = new Map<string, Stored>();
  private previous = new Map<string, Stored>();
  hits = 0;
  misses = 0;
  /** Pieces read from the fallback store (the disk cache), over the server's life. */
  fromFallback = 0;

  /** The document each budgeted piece is of (`owner`), by key. */
  private owners = new Map<string, string>();
  /** The project files open in the editor (set by the server before each lint): their pieces are let go last. */
  open: ReadonlySet<string> = new Set();
  /** Pieces let go for the budget, over the server's life. */
  evicted = 0;
  /** Bytes of document pieces stored since the last {@link trim}. */
  private setSinceTrim = 0;

  /**
   * @param fallback a store asked for what this one does not hold: the project's per-file cache on
   *   disk, as the CLI left it (`openPieceStore`, src/engine/cache.ts), so that the first lint after
   *   the server starts reuses what the last CLI run computed. Read only: never written. A piece
   *   read from it joins this store's current generation.
   * @param budgetBytes most bytes of document pieces kept between lints ({@link KEPT_DOCUMENT_BYTES}).
   */
  constructor(
    private readonly fallback?: PieceStore,
    private readonly budgetBytes: number = KEPT_DOCUMENT_BYTES,
  ) {}

  get empty(): boolean {
    return this.current.size === 0 && this.previous.size === 0 && (this.fallback?.empty ?? true);
  }

  /**
   * The piece under `key`, moved into the current generation when found in the previous one, or
   * copied into it from the fallback store.
   */
  private entry(key: string): Stored | undefined {
    let stored = this.current.get(key);
    if (stored === undefined) {
      stored = this.previous.get(key);
      if (stored !== undefined) this.current.set(key, stored);
      else if (this.fallback?.has(key)) {
        const value = this.fallback.get(key);
        if (value !== undefined) {
          this.fromFallback++;
          this.set(key, value);
          stored = this.current.get(key);
          if (stored !== undefined) this.remember(key, stored, value);
        }
      }
    }
    return stored;
  }

  get<T>(key: string): T | undefined {
    const stored = this.entry(key);
    let value: T | undefined;
    if (stored !== undefined) {
      value = stored.value as T | undefined;
      if (value === undefined && stored.bytes !== undefined) {
        try {
          value = deserialize(stored.bytes) as T;
        } catch {
          value = undefined;
        }
        if (value !== undefined) this.remember(key, stored, value);
      }
    }
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  set(key: string, value: unknown): void {
    let bytes: Buffer;
    try {
      bytes = serialize(value);
    } catch {
      // A value V8 cannot serialise is not stored (as in MemoryPieceStore).
      return;
    }
    this.current.set(key, { bytes, length: bytes.length });
    // Within a lint too: the segments of every page it parses were all kept until it ended (#33
    // s47 sweep K3: 200 open pages of 100 KB, 644 MB at peak).
    if (BUDGETED_KINDS.includes(key.slice(0, key.indexOf(':')))) {
      this.setSinceTrim += bytes.length;
      if (this.setSinceTrim > TRIM_STEP_BYTES) this.trim();
    }
  }

  /** Keeps `value` as what `stored` read back as, in place of its bytes, for a {@link LIVE_KINDS} piece (frozen in tests). */
  private remember(key: string, stored: Stored, value: unknown): void {
    if (!LIVE_KINDS.some((p) => key.startsWith(p))) return;
    if (FREEZE) deepFreeze(value);
    stored.value = value;
    stored.bytes = undefined;
  }

  has(key: string): boolean {
    return this.current.has(key) || this.previous.has(key) || (this.fallback?.has(key) ?? false);
  }

  keep(kinds: readonly string[]): void {
    // A key is `kind:hash` (`pieceKey`): its kind looked up once, not tested against every prefix
    // (NeMo Gym: thousands of pieces, ~5 ms of each README edit's lint).
    const wanted = new Set(kinds);
    for (const [key, stored] of this.previous) if (wanted.has(key.slice(0, key.indexOf(':')))) this.current.set(key, stored);
  }

  retain(key: string): void {
    this.entry(key);
  }

  owner(key: string, file: string): void {
    this.owners.set(key, file);
  }

  /** Ends a lint: what it did not use is dropped at the end of the next one; past the budget, document pieces go now. */
  nextRun(): void {
    this.previous = this.current;
    this.current = new Map();
    this.trim();
  }

  /**
   * Lets document pieces go until those kept fit {@link budgetBytes}: those of pages not open
   * first, segments before outcomes, each least recently used first (those the lint running has
   * not used yet, then those it has, in the order it first used them). At the end of a lint and,
   * during one, every {@link TRIM_STEP_BYTES} stored: a piece let go while a lint runs is one it
   * has read or stored already (it holds the outcome), or will parse again.
   */
  private trim(): void {
    this.setSinceTrim = 0;
    const kindOf = (key: string): string => key.slice(0, key.indexOf(':'));
    let total = 0;
    for (const [key, stored] of this.previous) if (BUDGETED_KINDS.includes(kindOf(key))) total += stored.length;
    for (const [key, stored] of this.current) if (!this.previous.has(key) && BUDGETED_KINDS.includes(kindOf(key))) total += stored.length;
    for (const key of this.owners.keys()) if (!this.previous.has(key) && !this.current.has(key)) this.owners.delete(key);
    if (total <= this.budgetBytes) return;
    for (const open of [false, true]) {
      for (const kind of BUDGETED_KINDS) {
        for (const generation of [this.previous, this.current]) {
          for (const [key, stored] of generation) {
            if (kindOf(key) !== kind) continue;
            const file = this.owners.get(key);
            if ((file !== undefined && this.open.has(file)) !== open) continue;
            total -= stored.length;
            this.previous.delete(key);
            this.current.delete(key);
            this.owners.delete(key);
            this.evicted++;
            if (total <= this.budgetBytes) return;
          }
        }
      }
    }
  }

  /** Serialised bytes of the pieces held in both generations, as bytes or as values (for the server's log). */
  get size(): number {
    let n = 0;
    for (const stored of this.previous.values()) n += stored.length;
    for (const [k, stored] of this.current) if (!this.previous.has(k)) n += stored.length;
    return n;
  }

  /** Of {@link size}, the bytes held serialised (pieces not read back, and those of kinds not held as values), for the server's log. */
  get serialisedSize(): number {
    let n = 0;
    for (const stored of this.previous.values()) n += stored.bytes?.length ?? 0;
    for (const [k, stored] of this.current) if (!this.previous.has(k)) n += stored.bytes?.length ?? 0;
    return n;
  }
}
