/** The run cache's signing key file (src/engine/cache.ts `cacheKey`): made atomically, refused when others own or can read it (#33 item 14). */
import { chmodSync, chownSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

/** When set, the next `writeSync` throws, as a process killed between creating the key file and filling it. */
const fail = vi.hoisted(() => ({ nextWrite: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (fail.nextWrite) {
      fail.nextWrite = false;
      throw Object.assign(new Error('killed'), { code: 'EINTR' });
    }
    return (fs.writeSync as (...a: unknown[]) => number)(...args);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

const { cacheKey } = await import('../src/engine/cache.js');
const { main } = await import('../src/cli.js');

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
afterEach(() => {
  fail.nextWrite = false;
});

/** A fresh directory outside any project, and a project root beside it. */
function scratch(): { dir: string; keyFile: string; root: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-key-'));
  temps.push(dir);
  const root = path.join(dir, 'project');
  mkdirSync(root);
  return { dir, keyFile: path.join(dir, 'home', 'docdrift', 'cache-key'), root };
}

const HEX = /^[0-9a-f]{64}\n$/;

describe('cacheKey (#33 item 14)', () => {
  it('is written whole or not at all: a write that dies leaves no empty key behind, and the next run makes one', () => {
    const { keyFile, root } = scratch();
    fail.nextWrite = true;
    expect(() => cacheKey(keyFile, root)).toThrow();
    expect(existsSync(keyFile)).toBe(false);
    // No temporary file is left beside it either.
    expect(readdirSync(path.dirname(keyFile))).toEqual([]);
    const key = cacheKey(keyFile, root);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${key.toString('hex')}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(cacheKey(keyFile, root).equals(key)).toBe(true);
  });

  it('makes at most the two last folders of the key file (.cache/docdrift), never a missing base above them (s31 sweep D3)', () => {
    const { dir, root } = scratch();
    const deep = path.join(dir, 'missing-base', '.cache', 'docdrift', 'cache-key');
    expect(() => cacheKey(deep, root)).toThrow(`${path.join(dir, 'missing-base')} does not exist; docdrift makes only its own folders (.cache/docdrift) under an existing one`);
    expect(existsSync(path.join(dir, 'missing-base'))).toBe(false);
    mkdirSync(path.join(dir, 'missing-base'));
    expect(cacheKey(deep, root)).toHaveLength(32);
  });

  it('a key file with a second name (a hard link) is refused, as the config loader refuses such a config; one name again, it is used (s41 sweep D6)', () => {
    const { dir, root } = scratch();
    mkdirSync(path.join(root, 'docs'));
    const keyFile = path.join(dir, 'home', 'docdrift', 'cache-key');
    const key = cacheKey(keyFile, root);
    linkSync(keyFile, path.join(root, 'docs', 'k'));
    expect(() => cacheKey(keyFile, root)).toThrow(`the cache key file ${keyFile} has 2 names (hard links)`);
    unlinkSync(path.join(root, 'docs', 'k'));
    expect(cacheKey(keyFile, root)).toEqual(key);
  });

  it('a key file reached through a symbolic link into the project is refused, as one inside it is, and nothing is made there (s40 sweep D5)', () => {
    const { dir, root } = scratch();
    mkdirSync(path.join(root, 'docs'));
    // `$XDG_CACHE_HOME/docdrift` -> `<project>/docs/.k` (not made yet): the key would be a project file.
    mkdirSync(path.join(dir, 'xdg'));
    symlinkSync(path.join(root, 'docs', '.k'), path.join(dir, 'xdg', 'docdrift'));
    const linked = path.join(dir, 'xdg', 'docdrift', 'cache-key');
    expect(() => cacheKey(linked, root)).toThrow(`the cache key file ${linked} is inside the project (through a symbolic link, at ${path.join(realpathSync(root), 'docs', '.k', 'cache-key')})`);
    expect(existsSync(path.join(root, 'docs', '.k'))).toBe(false);
    // The project itself reached through a link: the key beside it is still outside.
    const alias = path.join(dir, 'alias');
    symlinkSync(root, alias);
    expect(cacheKey(path.join(dir, 'home', 'docdrift', 'cache-key'), alias)).toHaveLength(32);
    expect(() => cacheKey(path.join(alias, '.k', 'cache-key'), root)).toThrow('is inside the project (through a symbolic link');
  });

  it('an empty key (left by an older docdrift killed while making it) is made again, not called malformed', () => {
    const { keyFile, root } = scratch();
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, '', { mode: 0o600 });
    const key = cacheKey(keyFile, root);
    expect(readFileSync(keyFile, 'utf8')).toMatch(HEX);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${key.toString('hex')}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // A key with other text in it was put there by someone: still refused, not overwritten.
    writeFileSync(keyFile, 'not a key\n');
    expect(() => cacheKey(keyFile, root)).toThrow(/malformed/);
    expect(readFileSync(keyFile, 'utf8')).toBe('not a key\n');
  });

  it('refuses a key that others can read or write: whoever reads it can sign cache entries', () => {
    const { keyFile, root } = scratch();
    const key = cacheKey(keyFile, root);
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602]) {
      chmodSync(keyFile, mode);
      expect(() => cacheKey(keyFile, root), mode.toString(8)).toThrow(/readable or writable by other users/);
    }
    chmodSync(keyFile, 0o600);
    expect(cacheKey(keyFile, root).equals(key)).toBe(true);
    chmodSync(keyFile, 0o400);
    expect(cacheKey(keyFile, root).equals(key)).toBe(true);
  });

  it.runIf(process.geteuid?.() === 0)('refuses a key another user owns (run as root)', () => {
    const { keyFile, root } = scratch();
    cacheKey(keyFile, root);
    chownSync(keyFile, 65534, 65534);
    expect(() => cacheKey(keyFile, root)).toThrow(/owned by another user \(uid 65534\)/);
  });

  it('refuses to make a key in a directory every user may write (not sticky); a sticky or group-writable one is used (#33 s23 sweep O5)', () => {
    const { keyFile, root } = scratch();
    const dir = path.dirname(keyFile);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    expect(() => cacheKey(keyFile, root)).toThrow(/writable by every user \(mode 0777\) and not sticky/);
    expect(existsSync(keyFile)).toBe(false);
    chmodSync(dir, 0o1777);
    const key = cacheKey(keyFile, root);
    rmSync(keyFile);
    chmodSync(dir, 0o770);
    expect(cacheKey(keyFile, root).equals(key)).toBe(false);
  });

  it.runIf(process.geteuid?.() === 0)('refuses to make a key in a directory another user owns (run as root)', () => {
    const { keyFile, root } = scratch();
    const dir = path.dirname(keyFile);
    mkdirSync(dir, { recursive: true });
    chownSync(dir, 65534, 65534);
    expect(() => cacheKey(keyFile, root)).toThrow(/cache key directory .* is owned by another user \(uid 65534, mode \d{4}\)/);
    expect(existsSync(keyFile)).toBe(false);
  });

  it('a refused key turns the cache off for the run with one line; the findings are those of --no-cache', { timeout: 60_000 }, async () => {
    const { dir, keyFile, root } = scratch();
    cpSync(path.resolve(import.meta.dirname, '../fixtures/example-python'), root, { recursive: true, filter: (src) => path.basename(src) !== '.docdrift-cache' });
    cacheKey(keyFile, root);
    chmodSync(keyFile, 0o644);
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = path.join(dir, 'home');
    const run = async (args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await main(['--format', 'json', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: root, isTTY: false });
      return { code, stdout, stderr };
    };
    try {
      const cached = await run(['--cache-location', path.join(dir, 'cache')]);
      const plain = await run(['--no-cache']);
      expect(cached.code).toBe(plain.code);
      expect(cached.stdout).toBe(plain.stdout);
      const lines = cached.stderr.split('\n').filter((l) => /cache key/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^docdrift: cache not used: .*readable or writable by other users.*chmod 600/);
      expect(cached.stderr).not.toMatch(/\n\s+at /);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });
});
