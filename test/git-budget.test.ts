/**
 * The time budget of git calls (src/engine/git.ts `GIT_TOTAL_MS`, #33 F6): inside one run
 * (`withGitBudget`) the calls made one after another add up, so a git that is slow at every call
 * cannot make a run take that slowness times the number of calls; outside a run (the language
 * server) only a busy stretch counts. A `git` that waits before running the real one is put first
 * on `PATH`, and the budget is shortened with `DOCDRIFT_TEST_GIT_TOTAL_MS`. Its own file: a call
 * stopped outside a run keeps later calls of the process from starting for a while
 * (`GIT_STOPPED_HOLD_MS`); one stopped in a run, the later calls of that run only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError, gitCallName, inGitBudget, runGit, withGitBudget } from '../src/engine/git.js';
import { lint } from '../src/index.js';
import { removeTempDirs, tempDir } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

const saved = { path: process.env['PATH'], total: process.env['DOCDRIFT_TEST_GIT_TOTAL_MS'] };
let repo: string;

beforeAll(() => {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  repo = tempDir('docdrift-git-budget-');
  execFileSync(real, ['init', '-q'], { cwd: repo });
  const bin = tempDir('docdrift-git-budget-bin-');
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nsleep 0.4\nexec '${real}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  process.env['PATH'] = `${bin}${path.delimiter}${saved.path ?? ''}`;
  process.env['DOCDRIFT_TEST_GIT_TOTAL_MS'] = '1000';
});

afterAll(() => {
  for (const [key, value] of [['PATH', saved.path], ['DOCDRIFT_TEST_GIT_TOTAL_MS', saved.total]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  removeTempDirs();
});

/** Four `git rev-parse` calls one after another (0.4 s each with the slow git); the outcome of each. */
async function fourCalls(): Promise<string[]> {
  const outcomes: string[] = [];
  for (let i = 0; i < 4; i++) {
    try {
      outcomes.push((await runGit(repo, ['rev-parse', '--is-inside-work-tree'])).trim());
    } catch (error) {
      outcomes.push(error instanceof GitError && error.timedOut ? `stopped: ${error.message}` : `failed: ${String(error)}`);
    }
  }
  return outcomes;
}

// In this order: the calls outside a run first, before any call is stopped.
describe.skipIf(process.platform === 'win32')('the git time budget', () => {
  it('outside a run, calls one after another (1.6 s of git) each start a busy stretch of their own', { timeout: 30_000 }, async () => {
    expect(inGitBudget()).toBe(false);
    expect(await fourCalls()).toEqual(['true', 'true', 'true', 'true']);
  });

  it('inside a run, they share it: the third call is stopped when the run has spent 1 s, the fourth not started', { timeout: 30_000 }, async () => {
    const started = performance.now();
    const outcomes = await withGitBudget(async () => {
      expect(inGitBudget()).toBe(true);
      // A nested run joins the outer one's budget.
      return withGitBudget(fourCalls);
    });
    const seconds = (performance.now() - started) / 1000;
    expect(outcomes.slice(0, 2)).toEqual(['true', 'true']);
    expect(outcomes[2]).toMatch(/^stopped: git rev-parse was stopped: the git calls of this run took 1 s in all, the most they may/);
    expect(outcomes[3]).toMatch(/^stopped: .*; later git calls of this run were not started$/);
    expect(seconds).toBeLessThan(1.8);
  });
});

/** The real git, found on the `PATH` the tests started with. */
function realGit(): string {
  return execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8', env: { ...process.env, PATH: saved.path ?? '' } }).trim();
}

/**
 * A folder holding a `git` that logs its arguments to `log`, then never ends while `when` (a shell
 * test) is true, else runs the real git.
 */
function switchableGit(log: string, when: string): string {
  const bin = tempDir('docdrift-git-switch-bin-');
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nif ${when}; then exec sleep 3600; fi\nexec '${realGit()}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  return bin;
}

/** Runs `fn` with `vars` in the environment (undefined: unset), then puts the file's values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  set(vars);
  try {
    return await fn();
  } finally {
    set(before);
  }
}

/** A committed copy of the bad-input base project (one Python command `tool`, a README), made with the real git. */
function committedProject(): string {
  const dir = tempDir('docdrift-git-budget-project-');
  cpSync(BASE, dir, { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync(realGit(), ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return dir;
}

/** What `fn` settles to: the value, or a stopped call's message (`stopped: …`), or another failure's. */
async function outcome(fn: () => Promise<string>): Promise<string> {
  try {
    return await fn();
  } catch (error) {
    return error instanceof GitError && error.timedOut ? `stopped: ${error.message}` : `failed: ${String(error)}`;
  }
}

describe.skipIf(process.platform === 'win32')('a git call stopped belongs to its run', () => {
  it('two API runs in one process: the first one\'s git is stopped, the second one\'s git is fast and used', { timeout: 60_000 }, async () => {
    const project = committedProject();
    const dir = tempDir('docdrift-git-budget-switch-');
    const log = path.join(dir, 'calls');
    const hang = path.join(dir, 'hang');
    writeFileSync(hang, '');
    const bin = switchableGit(log, `[ -e '${hang}' ]`);
    await withEnv({ PATH: `${bin}${path.delimiter}${saved.path ?? ''}`, DOCDRIFT_TEST_GIT_TOTAL_MS: '1000' }, async () => {
      const first = await lint({ root: project, cache: false });
      expect(first.log.join('\n')).toMatch(/git [a-z-]+ was stopped: the git calls of this run took 1 s in all.*; the project's files were listed by walking its folders instead\./);
      rmSync(hang);
      rmSync(log);
      const second = await lint({ root: project, cache: false });
      // The second run listed the files with git: no walk, and `git ls-files` ran.
      expect(second.log.join('\n')).not.toContain('walking its folders');
      expect(second.log.join('\n')).not.toContain('was stopped');
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toContain('ls-files');
      expect(second.exitCode).toBe(first.exitCode);
    });
  });

  it('outside a run, a call stopped holds off the next calls for a while, and says so without "of this run"', { timeout: 30_000 }, async () => {
    const dir = tempDir('docdrift-git-budget-switch-');
    const log = path.join(dir, 'calls');
    const bin = switchableGit(log, 'true');
    await withEnv({ PATH: `${bin}${path.delimiter}${saved.path ?? ''}`, DOCDRIFT_TEST_GIT_TOTAL_MS: '600' }, async () => {
      expect(inGitBudget()).toBe(false);
      const stopped = await outcome(() => runGit(repo, ['rev-parse', '--is-inside-work-tree']));
      expect(stopped).toMatch(/^stopped: git rev-parse was stopped: the git calls took 0\.6 s without a pause, the most they may/);
      const held = await outcome(() => runGit(repo, ['rev-parse', '--is-inside-work-tree']));
      expect(held).toMatch(/^stopped: git rev-parse was stopped: .*; git calls in the 30 s after it are not started$/);
      expect(held).not.toContain('of this run');
      // The second call was not started.
      expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
      // A run is not held off by it: it starts with a fresh budget.
      const inRun = await withEnv({ PATH: saved.path }, () => withGitBudget(() => outcome(() => runGit(repo, ['rev-parse', '--is-inside-work-tree']))));
      expect(inRun.trim()).toBe('true');
    });
  });
});

describe.skipIf(process.platform === 'win32')('the filter listing stopped (git config: which drivers to turn off, and whether this git reads GIT_CONFIG_COUNT)', () => {
  it('names a call without a subcommand once: "git --version", never "git git"', () => {
    expect(gitCallName(['--version'])).toBe('git --version');
    expect(gitCallName(['git', 'status'])).toBe('git');
    expect(gitCallName([''])).toBe('git');
    expect(gitCallName([])).toBe('git');
    expect(gitCallName(['-c', 'filter.a.clean=', 'ls-files', '-z'])).toBe('git ls-files');
    expect(gitCallName(['config', '--name-only'])).toBe('git config');
  });

  /** A shell test true when git is called to list the filter drivers (`git … config --name-only …`). */
  const listing = `case " $* " in *" config --name-only "*) true ;; *) false ;; esac`;

  it('a listing that does not finish: the call after it is not started, and the message names git config', { timeout: 30_000 }, async () => {
    const project = committedProject();
    execFileSync(realGit(), ['config', 'filter.lfs.clean', 'git-lfs clean -- %f'], { cwd: project });
    const log = path.join(tempDir('docdrift-git-budget-listing-'), 'calls');
    const bin = switchableGit(log, listing);
    await withEnv({ PATH: `${bin}${path.delimiter}${saved.path ?? ''}`, DOCDRIFT_TEST_GIT_TIMEOUT_MS: '500', DOCDRIFT_TEST_GIT_TOTAL_MS: '60000' }, async () => {
      const result = await withGitBudget(() => outcome(() => runGit(project, ['ls-files', '-z'])));
      expect(result).toMatch(/^stopped: git config did not finish within 0\.5 s and was stopped \(.*\); later git calls of this run were not started$/);
      expect(readFileSync(log, 'utf8')).not.toContain('ls-files');
    });
  });

  it('is not remembered as "no drivers" or as an old git: the next run lists again and runs git (a driver named with "=" needs 2.31)', { timeout: 30_000 }, async () => {
    const project = committedProject();
    // git before 2.31 cannot be told not to run a driver whose name holds "=": docdrift refuses to run git there.
    execFileSync(realGit(), ['config', 'filter.a=b.clean', 'cat'], { cwd: project });
    const dir = tempDir('docdrift-git-budget-listing-');
    const log = path.join(dir, 'calls');
    const hang = path.join(dir, 'hang');
    writeFileSync(hang, '');
    const bin = switchableGit(log, `[ -e '${hang}' ] && ${listing}`);
    await withEnv({ PATH: `${bin}${path.delimiter}${saved.path ?? ''}`, DOCDRIFT_TEST_GIT_TIMEOUT_MS: '500', DOCDRIFT_TEST_GIT_TOTAL_MS: '60000' }, async () => {
      const first = await withGitBudget(() => outcome(() => runGit(project, ['ls-files', '-z'])));
      expect(first).toMatch(/^stopped: git config did not finish/);
      expect(first).not.toContain('older than 2.31');
      rmSync(hang);
      const second = await withGitBudget(() => outcome(() => runGit(project, ['ls-files', '-z'])));
      expect(second.split('\0')).toContain('README.md');
      expect(readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('config --name-only'))).toHaveLength(2);
    });
  });
});
