/** runGit (src/engine/git.ts): the safe git call, piped or spooled to a temporary file. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitError, gitExitListeners, runGit } from '../src/engine/git.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'docdrift-git-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A repository with `n` tracked files under long names (a listing of ~n * 60 bytes) and a clean filter that must never run. */
function repo(n: number): string {
  const root = path.join(scratch, `repo-${n}`);
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(path.join(root, 'docs', `page-${String(i).padStart(5, '0')}-${'x'.repeat(40)}.md`), `# ${i}\n`);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  // A filter that would leave a mark if git ran it.
  git('config', 'filter.mark.clean', `touch ${path.join(root, 'FILTER-RAN')}; cat`);
  writeFileSync(path.join(root, '.gitattributes'), '*.md filter=mark\n');
  return root;
}

describe('runGit', () => {
  it('spooled: the whole of a listing larger than a pipe, though this thread was busy while git ran', async () => {
    const root = repo(3000);
    const spooled = runGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-per-directory=.gitignore'], undefined, true);
    // Busy for a while, as the run cache's reading is, before anyone waits for git.
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // spin
    }
    const out = await spooled;
    const piped = await runGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-per-directory=.gitignore']);
    expect(out.length).toBeGreaterThan(64 * 1024);
    expect(out).toBe(piped);
    expect(out.split('\0').filter(Boolean)).toHaveLength(3001);
    expect(readdirSync(root)).not.toContain('FILTER-RAN');
    // The temporary file was unlinked when made: nothing is left behind.
    expect(readdirSync(tmpdir()).some((f) => f.startsWith(`docdrift-git-${process.pid}-`))).toBe(false);
  });

  it('piped: a git waiting for this thread to read a full pipe is not stopped as stalled while this thread is busy for longer than the stall limit', async () => {
    const root = repo(3002);
    const piped = runGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-per-directory=.gitignore']);
    // git fills the 64 KB pipe and waits, using no CPU, while this thread runs synchronous work
    // past GIT_STALL_MS (4 s): waiting on this thread is not a stall. (The watch also starts over
    // on a sample that comes late; here git's CPU time before the pipe filled already tells.)
    const until = Date.now() + 4500;
    while (Date.now() < until) {
      // spin
    }
    const out = await piped;
    expect(out.split('\0').filter(Boolean)).toHaveLength(3003);
  }, 30_000);

  it('spooled or piped, a failing call rejects with git\'s message, and a missing directory is an error, not a crash', async () => {
    const root = repo(1);
    for (const spool of [false, true]) {
      const error = await runGit(root, ['ls-files', '--no-such-option'], undefined, spool).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitError);
      expect((error as GitError).stderr).toMatch(/no-such-option|unknown option/);
      await expect(runGit(path.join(scratch, 'missing'), ['ls-files'], undefined, spool)).rejects.toBeInstanceOf(GitError);
    }
  });

  it('one process exit listener while git runs, none after: a run of many call batches does not pile them up (s31 sweep D2)', async () => {
    const root = repo(2);
    const before = process.listeners('exit').length;
    // Twelve batches, each started after the last ended (a `--changed-since` with submodules), piped,
    // spooled, failing, and a spawn that fails (no such directory).
    for (let i = 0; i < 12; i++) {
      const calls = [
        runGit(root, ['ls-files']),
        runGit(root, ['ls-files'], undefined, true),
        runGit(root, ['ls-files', '--no-such-option']).catch(() => ''),
        runGit(path.join(scratch, 'missing'), ['ls-files'], undefined, i % 2 === 0).catch(() => ''),
      ];
      expect(process.listeners('exit').length).toBeLessThanOrEqual(before + 1);
      await Promise.all(calls);
      expect(process.listeners('exit').length).toBe(before);
    }
    expect(gitExitListeners()).toBe(0);
  });

  it('no git installed: the call rejects with ENOENT and leaves no timer behind, piped or spooled (s41 sweep D1: every run stayed alive 20 s)', async () => {
    const root = repo(6);
    const path0 = process.env.PATH;
    process.env.PATH = path.join(scratch, 'no-git-here');
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    try {
      for (const spool of [false, true]) {
        const error = await runGit(root, ['ls-files'], undefined, spool).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(GitError);
        expect((error as GitError).code).toBe('ENOENT');
      }
    } finally {
      process.env.PATH = path0;
    }
    expect(timers()).toBe(before);
  });

  it('a required filter (git-lfs sets filter.lfs.required) is emptied and not required: git neither runs it nor fails on it (s41 sweep D2)', async () => {
    const root = repo(7);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('config', 'filter.mark.required', 'true');
    git('config', 'filter.mark.smudge', `touch ${path.join(root, 'FILTER-RAN')}; cat`);
    // A tracked file changed since it was committed: git must rehash it through its filter.
    writeFileSync(path.join(root, 'docs', readdirSync(path.join(root, 'docs'))[0]!), '# changed\n');
    for (const spool of [false, true]) {
      const out = await runGit(root, ['diff', '--name-only', 'HEAD'], undefined, spool);
      expect(out.trim()).toMatch(/^docs\/page-00000-x+\.md$/);
    }
    expect(readdirSync(root)).not.toContain('FILTER-RAN');
  });

  it('spooled: an output over maxBuffer is refused', async () => {
    const root = repo(200);
    await expect(runGit(root, ['ls-files'], 100, true)).rejects.toThrow(/maxBuffer/);
  });
});
