/** Faults around a run (#17 item 11, #18 items 5, 6, 9): a closed or full stdout, odd encodings, odd names. Spawns the built CLI. */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const BASE = path.join(ROOT, 'fixtures/bad-input/_base');

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function copy(from: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-faults-'));
  temps.push(dir);
  cpSync(from, dir, { recursive: true, filter: (src) => path.basename(src) !== '.docdrift-cache' });
  return dir;
}

function run(dir: string, args: string[] = []) {
  return spawnSync(process.execPath, [BIN, '--root', dir, '--no-cache', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

describe('stdout that cannot be written (#17 item 11, #18 item 5)', { timeout: 120_000 }, () => {
  it('a full disk (ENOSPC on /dev/full): one line on stderr, exit 2, no stack', () => {
    const dir = copy(EXAMPLE);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, '--root', dir, '--no-cache'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // The run's notes (the example's `ng_run` has unknown parameters) come first; the error is one line, last.
      const lines = r.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe('docdrift: cannot write the report to standard output (ENOSPC).');
      expect(lines.filter((l) => l.includes('ENOSPC'))).toHaveLength(1);
      expect(r.status).toBe(2);
    } finally {
      closeSync(full);
    }
  });

  it('a closed pipe (`| head` that exited: EPIPE): exit 2, no stack', async () => {
    const dir = copy(EXAMPLE);
    const child = spawn(process.execPath, [BIN, '--root', dir, '--no-cache'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).toContain('cannot write the report to standard output (EPIPE)');
    expect(code).toBe(2);
  });
});

describe('an unreadable directory (#17 item 11)', { timeout: 120_000 }, () => {
  it('is a parse-error naming the directory, not an internal error (globby walk, outside git)', () => {
    const dir = copy(BASE);
    chmodSync(dir, 0o755);
    mkdirSync(path.join(dir, 'docs/private'));
    writeFileSync(path.join(dir, 'docs/private/notes.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    chmodSync(path.join(dir, 'docs/private'), 0o000);
    try {
      // Root ignores permissions: run as nobody then (setpriv, util-linux).
      const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
      const once = () => {
        const [cmd, ...pre] = asUser.length > 0 ? asUser : [process.execPath];
        const args = [...(asUser.length > 0 ? [...pre, process.execPath] : pre), BIN, '--root', dir, '--no-cache', '--format', 'json'];
        return spawnSync(cmd!, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      };
      const r = once();
      expect(r.stderr).not.toContain('internal error');
      expect(r.status, r.stderr).toBe(1);
      const results = (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; message: string }> }).results;
      expect(results).toEqual([expect.objectContaining({ file: 'docs/private', ruleId: 'parse-error', message: expect.stringContaining('Cannot read the directory docs/private: EACCES') })]);
    } finally {
      chmodSync(path.join(dir, 'docs/private'), 0o755);
    }
  });
});

describe('an unreadable docs/ folder (s24 sweep notes)', { timeout: 120_000 }, () => {
  it('is one parse-error, not one per site config probed in it; a path argument under it is not "missing"', () => {
    const dir = copy(BASE);
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, 'docs'), 0o000);
    try {
      const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
      const once = (extra: string[]) => {
        const [cmd, ...pre] = asUser.length > 0 ? asUser : [process.execPath];
        const args = [...(asUser.length > 0 ? [...pre, process.execPath] : pre), BIN, '--root', dir, '--no-cache', '--format', 'json', ...extra];
        return spawnSync(cmd!, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      };
      const r = once([]);
      expect(r.status, r.stderr).toBe(1);
      const results = (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; message: string }> }).results;
      // Before: eight more warnings, "Cannot read docs/mkdocs.yml: EACCES" and the like, for files that did not exist.
      expect(results.map((m) => `${m.file}: ${m.message}`)).toEqual(['docs: Cannot read the directory docs: EACCES; the files in it were not checked']);
      const named = once(['docs/reference.md']);
      expect(named.status).toBe(2);
      // Before: "no such file or directory: docs/reference.md".
      expect(named.stderr).toBe('docdrift: cannot read docs/reference.md: EACCES (permission denied, on it or on a folder above it).\n');
    } finally {
      chmodSync(path.join(dir, 'docs'), 0o755);
    }
  });
});

describe('encodings (#18 item 6)', { timeout: 120_000 }, () => {
  it('a UTF-16 reference page (with BOM) is decoded and checked', () => {
    const dir = copy(BASE);
    const page = '# `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Seed. |\n| `name` | str | `""` | Name. |\n| `stale_param` | int |  | Gone. |\n';
    for (const [file, bytes] of [
      ['docs/utf16le.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page.replace('stale_param', 'stale_le'), 'utf16le')])],
      ['docs/utf16be.md', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(page.replace('stale_param', 'stale_be'), 'utf16le').swap16()])],
    ] as const) writeFileSync(path.join(dir, file), bytes);
    const r = run(dir, ['--format', 'json']);
    const names = (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; data: { name?: string } }> }).results.map((m) => `${m.file} ${m.data.name}`);
    expect(names).toContain('docs/utf16le.md stale_le');
    expect(names).toContain('docs/utf16be.md stale_be');
  });

  it('a baseline with a UTF-8 BOM is read', () => {
    const dir = copy(EXAMPLE);
    expect(run(dir, ['--write-baseline']).status).toBe(0);
    const file = path.join(dir, '.docdrift-baseline.json');
    const text = spawnSync('cat', [file], { encoding: 'utf8' }).stdout;
    writeFileSync(file, `\uFEFF${text}`);
    const r = run(dir);
    expect(r.stderr).not.toMatch(/baseline/i);
    expect(r.status).toBe(0);
  });
});

describe('paths (#18 item 9)', { timeout: 120_000 }, () => {
  it('a root-level path named `..x.md` is inside the root', () => {
    const dir = copy(BASE);
    writeFileSync(path.join(dir, '..x.md'), '# Notes\n\n```bash\ntool +sed=1\n```\n');
    const r = run(dir, ['--format', 'json', '..x.md']);
    expect(r.stderr).not.toContain('outside the project root');
    // A dot file is not among the default docs globs: the run reports nothing for it, and succeeds.
    expect(r.status).toBe(0);
    const outside = run(dir, ['--format', 'json', '../x.md']);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('outside the project root');
  });
});

