/**
 * The per-file cache of the language server: a {@link PieceStore} in memory that keeps, from one
 * lint to the next, only the pieces the last lint used or stored. The CLI's `MemoryPieceStore`
 * keeps everything, right for `--fix`'s few passes; a server lints on every pause in typing,
 * and each version of an edited page would stay in memory for the life of the server.
 */
import { deserialize, serialize } from 'node:v8';
import type { PieceStore } from '../engine/pieces.js';
import { deepFreeze } from '../shared/memo.js';

/**
 * The piece kinds whose values are kept and handed out again (see `values`): parsed documents,
 * their stored segments, Python scans and the code facts, which nothing writes (the link stage
 * resolves a document's links on its own copies, `ownLinks` in src/engine/pieces.ts, and amends
 * its own copies of the code's parameters, `ownParameters` in src/link/build.ts).
 */
const LIVE_KINDS = ['doc:', 'doc-segments:', 'py-scan:', 'code:'];

/** Freeze what `get` hands out (tests): a caller that changes a stored value then throws (ES modules are strict). */
const FREEZE = process.env.DOCDRIFT_TEST_FREEZE_PIECES === '1';

/** A two-generation store: pieces read or written since the last {@link nextRun} survive it, the others are dropped. */
export class GenerationalPieceStore implements PieceStore {
  private current = new Map<string, Buffer>();
  private previous = new Map<string, Buffer>();
  /**
   * The value each stored buffer of a {@link LIVE_KINDS} piece was read back as, handed out again
   * by later lints: an unchanged page keeps its parsed outcome from one lint to the next, so it is
   * not deserialised again (NeMo Gym: ~60 ms of each lint after an edit). Callers must not change
   * what `get` returns: the tests freeze those values (`DOCDRIFT_TEST_FREEZE_PIECES=1`), so a
   * write throws.
   */
  private values = new WeakMap<Buffer, unknown>();
  hits = 0;
  misses = 0;
  /** Pieces read from the fallback store (the disk cache), over the server's life. */
  fromFallback = 0;

  /**
   * @param fallback a store asked for what this one does not hold: the project's per-file cache on
   *   disk, as the CLI left it (`openPieceStore`, src/engine/cache.ts), so that the first lint after
   *   the server starts reuses what the last CLI run computed. Read only: never written. A piece
   *   read from it joins this store's current generation.
   */
  constructor(private readonly fallback?: PieceStore) {}

  get empty(): boolean {
    return this.current.size === 0 && this.previous.size === 0 && (this.fallback?.empty ?? true);
  }

  /**
   * The bytes under `key`, moved into the current generation when found in the previous one, or
   * copied into it from the fallback store.
   */
  private bytes(key: string): Buffer | undefined {
    let bytes = this.current.get(key);
    if (bytes === undefined) {
      bytes = this.previous.get(key);
      if (bytes !== undefined) this.current.set(key, bytes);
      else if (this.fallback?.has(key)) {
        const value = this.fallback.get(key);
        if (value !== undefined) {
          this.fromFallback++;
          this.set(key, value);
          bytes = this.current.get(key);
          if (bytes !== undefined) this.remember(key, bytes, value);
        }
      }
    }
    return bytes;
  }

  get<T>(key: string): T | undefined {
    const bytes = this.bytes(key);
    let value: T | undefined;
    if (bytes !== undefined) {
      value = this.values.get(bytes) as T | undefined;
      if (value === undefined) {
        try {
          value = deserialize(bytes) as T;
        } catch {
          value = undefined;
        }
        if (value !== undefined) this.remember(key, bytes, value);
      }
    }
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  set(key: string, value: unknown): void {
    try {
      this.current.set(key, serialize(value));
    } catch {
      // A value V8 cannot serialise is not stored (as in MemoryPieceStore).
    }
  }

  /** Keeps `value` as what `bytes` read back as, for a {@link LIVE_KINDS} piece (frozen in tests). */
  private remember(key: string, bytes: Buffer, value: unknown): void {
    if (!LIVE_KINDS.some((p) => key.startsWith(p))) return;
    if (FREEZE) deepFreeze(value);
    this.values.set(bytes, value);
  }

  has(key: string): boolean {
    return this.current.has(key) || this.previous.has(key) || (this.fallback?.has(key) ?? false);
  }

  keep(kinds: readonly string[]): void {
    // A key is `kind:hash` (`pieceKey`): its kind looked up once, not tested against every prefix
    // (NeMo Gym: thousands of pieces, ~5 ms of each README edit's lint).
    const wanted = new Set(kinds);
    for (const [key, bytes] of this.previous) if (wanted.has(key.slice(0, key.indexOf(':')))) this.current.set(key, bytes);
  }

  retain(key: string): void {
    this.bytes(key);
  }

  /** Ends a lint: what it did not use is dropped at the end of the next one. */
  nextRun(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  /** Bytes held in both generations (for the server's log). */
  get size(): number {
    let n = 0;
    for (const b of this.previous.values()) n += b.length;
    for (const [k, b] of this.current) if (!this.previous.has(k)) n += b.length;
    return n;
  }
}
