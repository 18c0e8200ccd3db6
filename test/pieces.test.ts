/** The per-file cache on disk (src/engine/pieces.ts): its shards, and what a save rewrites. */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FilePieceStore, pieceKey, piecesFile } from '../src/engine/pieces.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function storeDir(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-pieces-'));
  dirs.push(dir);
  return { dir, file: piecesFile(dir, '/some/project') };
}

const KEY = Buffer.alloc(32, 7);
const CODE = 'build-1';
const names = (dir: string) => readdirSync(dir).sort();
const stamps = (dir: string) => new Map(names(dir).map((f) => [f, `${statSync(path.join(dir, f)).ino}:${statSync(path.join(dir, f)).mtimeMs}`]));

describe('FilePieceStore', () => {
  it('keeps documents and per-source pieces in shards by key, and gives them back in the next run', () => {
    const { dir, file } = storeDir();
    const first = new FilePieceStore(file, KEY, CODE);
    expect(first.empty).toBe(true);
    const docs = Array.from({ length: 40 }, (_, i) => pieceKey('doc', `docs/p${i}.md`, 'd', `# page ${i}\n`));
    const scans = Array.from({ length: 40 }, (_, i) => pieceKey('py-scan', `pkg/m${i}.py`, `pkg.m${i}`, 'hash', String(i)));
    docs.forEach((k, i) => first.set(k, { page: i }));
    scans.forEach((k, i) => first.set(k, { module: i }));
    first.set(pieceKey('code', 'all'), { whole: true });
    first.save();
    const files = names(dir);
    expect(files.every((f) => /^pieces-[0-9a-f]{16}-(?:whole|docs-[0-9a-f]|sources-[0-9a-f])\.bin$/.test(f))).toBe(true);
    // 40 random keys fall in more than one of the 16 shards of each family.
    expect(files.filter((f) => f.includes('-docs-')).length).toBeGreaterThan(4);
    expect(files.filter((f) => f.includes('-sources-')).length).toBeGreaterThan(4);
    const second = new FilePieceStore(file, KEY, CODE);
    expect(second.empty).toBe(false);
    expect(docs.map((k) => second.get<{ page: number }>(k)?.page)).toEqual(docs.map((_, i) => i));
    expect(scans.map((k) => second.get<{ module: number }>(k)?.module)).toEqual(scans.map((_, i) => i));
    expect(second.get(pieceKey('code', 'all'))).toEqual({ whole: true });
  });

  it('rewrites only the shard whose pieces changed, drops pieces nobody used, and removes the one-file-per-kind layout', () => {
    const { dir, file } = storeDir();
    const docs = Array.from({ length: 40 }, (_, i) => pieceKey('doc', `docs/p${i}.md`, 'd', `# page ${i}\n`));
    const first = new FilePieceStore(file, KEY, CODE);
    docs.forEach((k, i) => first.set(k, { page: i }));
    first.save();
    const legacy = file.replace(/\.bin$/, '-docs.bin');
    writeFileSync(legacy, 'an older docdrift wrote this');
    const before = stamps(dir);
    // Next run: every page but p0 is reused unchanged, p0 was edited (a new key), nothing else.
    const second = new FilePieceStore(file, KEY, CODE);
    docs.slice(1).forEach((k) => second.get(k));
    const edited = pieceKey('doc', 'docs/p0.md', 'd', '# page 0, edited\n');
    second.set(edited, { page: 0.5 });
    second.save();
    expect(existsSync(legacy)).toBe(false);
    const after = stamps(dir);
    const shardOf = (key: string) => [...after.keys()].find((f) => f.endsWith(`-docs-${key.charAt(4)}.bin`));
    const touched = new Set([shardOf(docs[0]!), shardOf(edited)]);
    for (const [f, stamp] of after) {
      if (touched.has(f)) continue;
      expect(stamp, f).toBe(before.get(f));
    }
    expect([...touched].some((f) => f !== undefined && after.get(f) !== before.get(f))).toBe(true);
    const third = new FilePieceStore(file, KEY, CODE);
    expect(third.get(edited)).toEqual({ page: 0.5 });
    expect(third.get(docs[0]!)).toBeUndefined();
    expect(third.get(docs[1]!)).toEqual({ page: 1 });
  });

  it('ignores the shards of another build or another signing key (misses, never a crash)', () => {
    const { file } = storeDir();
    const first = new FilePieceStore(file, KEY, CODE);
    const key = pieceKey('doc', 'README.md', 'd', '# a\n');
    first.set(key, { a: 1 });
    first.save();
    expect(new FilePieceStore(file, KEY, 'build-2').get(key)).toBeUndefined();
    const foreign = new FilePieceStore(file, Buffer.alloc(32, 9), CODE);
    expect(foreign.get(key)).toBeUndefined();
    expect(foreign.note).toMatch(/signature/);
  });
});
