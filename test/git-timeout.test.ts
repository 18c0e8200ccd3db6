/**
 * Every git call has a wall-clock limit (src/engine/git.ts `gitTimeLimitMs`): git blocks for ever
 * opening a FIFO it reads as an excludes file, and runs hung (s29 sweep D1: a FIFO `.gitignore`
 * in an untracked folder under a plain run; D2: `.git/info/exclude` or `core.excludesFile` a FIFO
 * under `--changed-since`). The built CLI on a git twin of the bad-input base project, with the
 * limit shortened for tests (`DOCDRIFT_TEST_GIT_TIMEOUT_MS`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GIT_STALL_MS, GIT_TOTAL_MS, gitTimeLimitMs } from '../src/engine/git.js';
import { CLI_BIN, removeTempDirs, tempDir } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
const HAS_FIFO = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).error === undefined;

afterAll(removeTempDirs);

/** A committed copy of the base project (one Python command `tool`, a README example). */
function repository(): string {
  const dir = tempDir('docdrift-git-timeout-');
  cpSync(BASE, dir, { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return dir;
}

/**
 * The built CLI in `dir`. `limitMs`: the test override of git's time limit, or null for the real
 * limits; `bin`: a folder put first on `PATH`.
 */
function run(dir: string, args: string[], limitMs: number | null = 2000, bin?: string): { code: number | null; stdout: string; stderr: string; seconds: number; error?: Error } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  if (limitMs === null) delete env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'];
  else env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'] = String(limitMs);
  if (bin) env['PATH'] = `${bin}${path.delimiter}${env['PATH'] ?? ''}`;
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI_BIN, '--no-cache', ...args], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, seconds: (performance.now() - started) / 1000, ...(r.error ? { error: r.error } : {}) };
}

/** A folder holding a program named `git` that starts and never ends (s42 sweep E1: `sleep`). */
function hangingGit(): string {
  const bin = tempDir('docdrift-git-hang-bin-');
  writeFileSync(path.join(bin, 'git'), '#!/bin/sh\nexec sleep 3600\n');
  chmodSync(path.join(bin, 'git'), 0o755);
  return bin;
}

const HAS_PROC = spawnSync('cat', ['/proc/self/stat']).status === 0;

describe('git stalls (s42 sweep E1): stopped after 4 s without progress, and the calls after it are not started', () => {
  it.skipIf(!HAS_FIFO || !HAS_PROC)('a FIFO .gitignore without the test override: the listing is stopped after 4 s, not 20, and the tree is walked', { timeout: 90_000 }, () => {
    const dir = repository();
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\ntool --seed 1 --bogus 2\n```\n');
    mkdirSync(path.join(dir, 'sub'));
    execFileSync('mkfifo', [path.join(dir, 'sub/.gitignore')]);
    const r = run(dir, [], null);
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.seconds).toBeLessThan(10);
    expect(r.stderr).toContain(`docdrift: git ls-files made no progress for ${GIT_STALL_MS / 1000} s (no CPU time used, no output) and was stopped`);
    expect(r.stderr).toContain("the project's files were listed by walking its folders instead");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bogus');
  });

  it.skipIf(process.platform === 'win32' || !HAS_PROC)('a git that never ends: a plain run walks the tree within 10 s with one note; --changed-since exits 2 with one line', { timeout: 90_000 }, () => {
    const dir = repository();
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\ntool --seed 1 --bogus 2\n```\n');
    const bin = hangingGit();
    const plain = run(dir, [], null, bin);
    expect(plain.error, 'a hang').toBeUndefined();
    // One call ran to a limit (4 s); the listing after it was not started (it waited 20 s, then 20 s more).
    expect(plain.seconds).toBeLessThan(10);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('bogus');
    expect(plain.stderr.match(/and was stopped/g)).toHaveLength(1);
    expect(plain.stderr).toContain("the project's files were listed by walking its folders instead");
    const changed = run(dir, ['--changed-since', 'HEAD'], null, bin);
    expect(changed.error, 'a hang').toBeUndefined();
    expect(changed.seconds).toBeLessThan(10);
    expect(changed.code).toBe(2);
    expect(changed.stderr.trim().split('\n')).toHaveLength(1);
    expect(changed.stderr).toMatch(/^docdrift: --changed-since: git .* and was stopped/);
  });
});

describe('git time limit', () => {
  it('is 20 s plus 2 s per MB of the index, or the test override', () => {
    const dir = repository();
    const saved = process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'];
    delete process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'];
    try {
      const limit = gitTimeLimitMs(path.join(dir, 'tool'));
      expect(limit).toBeGreaterThan(20_000);
      expect(limit).toBeLessThan(20_100); // a few files: a tiny index
      expect(gitTimeLimitMs(path.parse(dir).root)).toBe(20_000);
      process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'] = '1500';
      expect(gitTimeLimitMs(dir)).toBe(1500);
      process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'] = 'soon';
      expect(gitTimeLimitMs(path.parse(dir).root)).toBe(20_000);
    } finally {
      if (saved === undefined) delete process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'];
      else process.env['DOCDRIFT_TEST_GIT_TIMEOUT_MS'] = saved;
    }
  });

  it.skipIf(!HAS_FIFO)('a FIFO .gitignore in an untracked folder: the listing stops at the limit, the tree is walked, one note (D1)', { timeout: 90_000 }, () => {
    const dir = repository();
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\ntool --seed 1 --bogus 2\n```\n');
    mkdirSync(path.join(dir, 'sub'));
    execFileSync('mkfifo', [path.join(dir, 'sub/.gitignore')]);
    const r = run(dir, []);
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.seconds).toBeLessThan(30);
    expect(r.stderr).toContain('docdrift: git ls-files did not finish within 2 s and was stopped');
    expect(r.stderr).toContain("the project's files were listed by walking its folders instead");
    expect(r.stderr.match(/did not finish/g)).toHaveLength(1);
    // The walk read the project: the example's wrong flag is still found.
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bogus');
  });

  it.skipIf(!HAS_FIFO)('--changed-since with a FIFO .gitignore in an untracked folder: a one-line error at the limit, exit 2 (D2)', { timeout: 90_000 }, () => {
    const dir = repository();
    mkdirSync(path.join(dir, 'sub'));
    execFileSync('mkfifo', [path.join(dir, 'sub/.gitignore')]);
    const r = run(dir, ['--changed-since', 'HEAD']);
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.seconds).toBeLessThan(30);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^docdrift: --changed-since: git [a-z-]+ did not finish within 2 s and was stopped .*; no files were compared\.\n$/);
  });

  it.skipIf(!HAS_FIFO)('--changed-since refuses a FIFO .git/info/exclude or core.excludesFile at once, naming it (D2)', { timeout: 90_000 }, () => {
    const dir = repository();
    appendFileSync(path.join(dir, 'README.md'), '# more\n');
    const exclude = path.join(dir, '.git/info/exclude');
    rmSync(exclude, { force: true });
    mkdirSync(path.dirname(exclude), { recursive: true });
    execFileSync('mkfifo', [exclude]);
    // A limit no test would wait for: the refusal comes before git opens the file.
    const r = run(dir, ['--changed-since', 'HEAD'], 120_000);
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.code).toBe(2);
    expect(r.seconds).toBeLessThan(15);
    expect(r.stderr).toBe(`docdrift: --changed-since: git would read the excludes file ${exclude}, which is a FIFO, not a regular file (git can wait for ever on it); docdrift does not run git on it. Remove it or replace it with a file.\n`);

    rmSync(exclude);
    writeFileSync(exclude, '');
    const fifo = path.join(dir, 'excludes-fifo');
    execFileSync('mkfifo', [fifo]);
    execFileSync('git', ['config', 'core.excludesFile', fifo], { cwd: dir });
    const r2 = run(dir, ['--changed-since', 'HEAD'], 120_000);
    expect(r2.error, 'a hang').toBeUndefined();
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`the excludes file ${fifo}, which is a FIFO`);

    // A regular excludes file: the run goes on.
    rmSync(fifo);
    writeFileSync(fifo, '*.tmp\n');
    const r3 = run(dir, ['--changed-since', 'HEAD'], 120_000);
    expect(r3.code, r3.stderr).not.toBe(2);
  });
});

describe('a busy git (s43 sweep F1): the git calls of one run may take GIT_TOTAL_MS in all', () => {
  it.skipIf(process.platform === 'win32')('a git listing that uses CPU without end (a huge .gitignore) is stopped at the total limit, not its own 20 s, and the tree is walked', { timeout: 90_000 }, () => {
    const dir = repository();
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\ntool --seed 1 --bogus 2\n```\n');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = tempDir('docdrift-git-busy-bin-');
    // `git ls-files` spins (CPU rising, no output: never "stalled"); every other call is git's own.
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\ncase "$*" in *ls-files*) while :; do :; done ;; esac\nexec '${real}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const r = run(dir, [], null, bin);
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.stderr).toContain(`git ls-files was stopped: the git calls of this run took ${GIT_TOTAL_MS / 1000} s in all`);
    expect(r.stderr).toContain("the project's files were listed by walking its folders instead");
    expect(r.seconds).toBeLessThan(GIT_TOTAL_MS / 1000 + 5);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bogus');
  });
});

/** A folder holding a `git` that waits `seconds` (no CPU, no output: not yet "stalled"), then runs the real git; each call appends a line to `log`. */
function slowGit(seconds: number, log: string): string {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = tempDir('docdrift-git-slow-bin-');
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho call >> '${log}'\nsleep ${seconds}\nexec '${real}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  return bin;
}

describe('a slow git (#33 F6): all git calls of one run share GIT_TOTAL_MS', () => {
  it.skipIf(process.platform === 'win32')('--changed-since with a git that takes 3 s a call stops at the budget with one line, not after its nine calls (28 s)', { timeout: 90_000 }, () => {
    const dir = repository();
    const log = path.join(tempDir('docdrift-git-slow-log-'), 'calls');
    const r = run(dir, ['--changed-since', 'HEAD'], null, slowGit(3, log));
    expect(r.error, 'a hang').toBeUndefined();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^docdrift: --changed-since: git [a-z-]+ was stopped: the git calls of this run took ${GIT_TOTAL_MS / 1000} s in all, the most they may \\(.*\\); no files were compared\\.\\n$`));
    // Budget plus start-up and slack; each call was within its own limits (3 s < GIT_STALL_MS).
    expect(r.seconds).toBeLessThan(GIT_TOTAL_MS / 1000 + 3);
    // The calls after the budget was spent were not started.
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
  });
});
