/**
 * The s25 fresh sweep of issue #33 (a tester who had not seen the fixes): defects it found that
 * are fixed, as the spawned CLI on a project built from fixtures/bad-input/_base, or as the unit
 * they were in. Others have their tests beside the code they changed: D1 in
 * test/changed-since.test.ts, D2 in test/cli-conventions.test.ts, D3 and D4 in
 * test/config.test.ts, D5 in test/extract-typescript-flag-modules.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectories } from '../src/engine/cache.js';
import { CLI_BIN, projectBesideOutside, removeTempDirs } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
afterAll(removeTempDirs);

function run(project: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [CLI_BIN, ...args], { cwd: project, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', ...env } });
}

/** Lines of `text` that a CI log would read as a GitHub workflow command. */
const forged = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('::'));

describe('s25 sweep D7: init and config errors cannot be made to print a forged line', () => {
  it('a reference page whose name holds a line feed is escaped in init\'s summary and review', () => {
    const { project } = projectBesideOutside(BASE, 'docdrift-s25-');
    renameSync(path.join(project, 'docs/reference.md'), path.join(project, 'docs/x\n::error file=README.md::FORGED.md'));
    for (const args of [['init', '--dry-run'], ['init']]) {
      const r = run(project, args);
      expect(r.status, r.stderr).toBe(0);
      expect(forged(r.stdout + r.stderr)).toEqual([]);
    }
    expect(existsSync(path.join(project, 'docdrift.config.json'))).toBe(true);
  });

  it('--config and init --root holding a line feed', () => {
    const { project } = projectBesideOutside(BASE, 'docdrift-s25-');
    const config = run(project, ['--no-cache', '--config', 'a\n::error::FORGED-CONFIG']);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain('Invalid docdrift config in a\\n::error::FORGED-CONFIG');
    expect(forged(config.stderr)).toEqual([]);
    const root = run(project, ['init', '--root', '/nonexistent\n::error::FORGED-ROOT']);
    expect(root.status).toBe(2);
    expect(forged(root.stderr)).toEqual([]);
  });
});

describe('s25 sweep D8: a cache folder under /proc is an error, not a hang', () => {
  it('makeDirectories throws at once where Node 20\'s recursive mkdir retried forever; it makes missing levels elsewhere', () => {
    const started = performance.now();
    expect(() => makeDirectories('/proc/self/docdrift-x/y')).toThrow(/ENOENT|EACCES|EPERM|ENOTDIR/);
    expect(performance.now() - started).toBeLessThan(5000);
    const scratch = mkdtempSync(path.join(tmpdir(), 'docdrift-mkdirs-'));
    try {
      makeDirectories(path.join(scratch, 'a/b/c'), 0o700);
      expect(statSync(path.join(scratch, 'a/b/c')).isDirectory()).toBe(true);
      expect(statSync(path.join(scratch, 'a/b')).mode & 0o777).toBe(0o700);
      makeDirectories(path.join(scratch, 'a/b/c')); // exists: nothing to do
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('HOME=/proc, XDG_CACHE_HOME=/proc/self and --cache-location /proc/self/x run without the cache', () => {
    const { project } = projectBesideOutside(BASE, 'docdrift-s25-');
    for (const [args, env] of [[[], { HOME: '/proc', XDG_CACHE_HOME: '' }], [[], { XDG_CACHE_HOME: '/proc/self' }], [['--cache-location', '/proc/self/x'], {}]] as const) {
      const r = run(project, [...args], env);
      expect(r.error, 'a timeout is a hang').toBeUndefined();
      expect(r.status, r.stderr).toBe(0);
    }
  });
});

describe('s25 sweep D11: a document whose name is not UTF-8 is named, not dropped', () => {
  it('is a parse-error naming it (walked and git-listed), and the run fails instead of passing', () => {
    const { project } = projectBesideOutside(BASE, 'docdrift-s25-');
    const page = readFileSync(path.join(project, 'docs/reference.md'));
    unlinkSync(path.join(project, 'docs/reference.md'));
    // `docs/ref<0xFF>.md`: Node reads the name as `docs/ref\uFFFD.md`, which no file has.
    writeFileSync(Buffer.concat([Buffer.from(`${project}/docs/ref`), Buffer.from([0xff]), Buffer.from('.md')]), page);
    for (const git of [false, true]) {
      if (git) for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'x']]) spawnSync('git', args, { cwd: project });
      const r = run(project, ['--no-cache', '--format', 'json']);
      expect(r.status, r.stderr).toBe(1);
      const results = (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; message: string }> }).results;
      expect(results.filter((m) => m.ruleId === 'parse-error')).toEqual([
        expect.objectContaining({ file: 'docs/ref\uFFFD.md', message: expect.stringContaining('its name is not valid UTF-8') }),
      ]);
    }
  });
});

