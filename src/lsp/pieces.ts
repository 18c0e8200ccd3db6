/**
 * The per-file cache of the language server: a {@link PieceStore} in memory that keeps, from one
 * lint to the next, only the pieces the last lint used or stored. The CLI's `MemoryPieceStore`
 * keeps everything, right for `--fix`'s few passes; a server lints on every pause in typing,
 * and each version of an edited page would stay in memory for the life of the server.
 */
import { deserialize, serialize } from 'node:v8';
import type { PieceStore } from '../engine/pieces.js';

/** A two-generation store: pieces read or written since the last {@link nextRun} survive it, the others are dropped. */
export class GenerationalPieceStore implements PieceStore {
  private current = new Map<string, Buffer>();
  private previous = new Map<string, Buffer>();
  hits = 0;
  misses = 0;

  get empty(): boolean {
    return this.current.size === 0 && this.previous.size === 0;
  }

  /** The bytes under `key`, moved into the current generation when found in the previous one. */
  private bytes(key: string): Buffer | undefined {
    let bytes = this.current.get(key);
    if (bytes === undefined) {
      bytes = this.previous.get(key);
      if (bytes !== undefined) this.current.set(key, bytes);
    }
    return bytes;
  }

  get<T>(key: string): T | undefined {
    const bytes = this.bytes(key);
    let value: T | undefined;
    try {
      value = bytes === undefined ? undefined : (deserialize(bytes) as T);
    } catch {
      value = undefined;
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

  has(key: string): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  keep(kinds: readonly string[]): void {
    const prefixes = kinds.map((k) => `${k}:`);
    for (const [key, bytes] of this.previous) if (prefixes.some((p) => key.startsWith(p))) this.current.set(key, bytes);
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
