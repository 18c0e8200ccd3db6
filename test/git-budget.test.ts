/**
 * The time budget of git calls (src/engine/git.ts `GIT_TOTAL_MS`, #33 F6): inside one run
 * (`withGitBudget`) the calls made one after another add up, so a git that is slow at every call
 * cannot make a run take that slowness times the number of calls; outside a run (the language
 * server) only a busy stretch counts. A `git` that waits before running the real one is put first
 * on `PATH`, and the budget is shortened with `DOCDRIFT_TEST_GIT_TOTAL_MS`. Its own file: a call
 * stopped keeps later calls of the process from starting for a while (`GIT_STOPPED_HOLD_MS`).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError, inGitBudget, runGit, withGitBudget } from '../src/engine/git.js';
import { removeTempDirs, tempDir } from './helpers.js';

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

// In this order: the first call stopped holds off the calls after it, in this process.
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
