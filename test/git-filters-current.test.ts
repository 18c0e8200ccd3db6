/**
 * The filter drivers docdrift turns off (src/engine/git.ts, #33) are the ones the git
 * configuration defines when each git call starts, in a process that lives on: a
 * `filter.<name>.clean` added to `.git/config`, to a file it includes, to the global config or to
 * a submodule's own config after docdrift first called git there never runs, and neither does one
 * under a git replaced by an older one (before 2.31, which ignores `GIT_CONFIG_COUNT`). The
 * language server's case is in test/lsp.test.ts. Each driver touches a marker file when it runs.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint as engineLint, ruleIds } from '../src/api.js';
import { inGitBudget, runGit } from '../src/engine/git.js';
import { lint } from '../src/index.js';
import { contentCheckingGit, removeTempDirs, tempDir } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const saved = { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: process.env['GIT_CONFIG_GLOBAL'] };

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
afterAll(removeTempDirs);

/** Runs the real git in `cwd`, as the test's own tool (a committer set, file transport allowed). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync(REAL_GIT, ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** A committed copy of the bad-input base project (a Python command `tool` and a README), and a marker path beside it. */
function project(): { dir: string; marker: string } {
  const scratch = tempDir('docdrift-filters-current-');
  const dir = path.join(scratch, 'project');
  cpSync(BASE, dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return { dir, marker: path.join(scratch, 'FILTER-RAN') };
}

/** The clean filter command that leaves `marker` when git runs it (and passes the content through). */
const evil = (marker: string): string => `touch '${marker}'; cat`;

/**
 * Makes `*.md` under `dir` use the `evil` filter and gives README.md new times with the same
 * content: git must rehash it, through its clean filter, to tell whether it changed.
 */
function attributeAndTouch(dir: string): void {
  writeFileSync(path.join(dir, '.gitattributes'), '*.md filter=evil\n');
  const readme = path.join(dir, 'README.md');
  writeFileSync(readme, readFileSync(readme));
  const later = new Date(Date.now() + 5_000);
  execFileSync('touch', ['-d', later.toISOString(), readme]);
}

describe.skipIf(process.platform === 'win32')('a filter driver defined after docdrift first called git is turned off too', () => {
  it('two API runs in one process (--changed-since: git status and git diff rehash the touched README): the driver added between them never runs', { timeout: 60_000 }, async () => {
    const { dir, marker } = project();
    const first = await lint({ root: dir, cache: false, changedSince: 'HEAD' });
    expect(first.exitCode).not.toBe(2);
    git(dir, 'config', 'filter.evil.clean', evil(marker));
    attributeAndTouch(dir);
    const second = await lint({ root: dir, cache: false, changedSince: 'HEAD' });
    expect(existsSync(marker)).toBe(false);
    expect(second.log.join('\n')).not.toMatch(/changed-since|filter/);
  });

  it('two engine runs (src/api.ts lint) in one process: the git listing of the second one turns off the driver added after the first', { timeout: 60_000 }, async () => {
    const { dir, marker } = project();
    const log = path.join(dir, '..', 'calls');
    // The listing does not read file contents; this git runs `git status` with its options and environment first, which does.
    process.env['PATH'] = `${contentCheckingGit(REAL_GIT, log)}${path.delimiter}${saved.PATH ?? ''}`;
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    await engineLint({ root: dir, config, configFile: file });
    git(dir, 'config', 'filter.evil.clean', evil(marker));
    attributeAndTouch(dir);
    await engineLint({ root: dir, config, configFile: file });
    expect(readFileSync(log, 'utf8').split('\n').filter((line) => line === 'ls-files')).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);
  });

  // Outside a run, as the language server calls git.
  const places: Array<[string, (dir: string, marker: string) => void]> = [
    [
      '.git/config',
      (dir, marker) => {
        git(dir, 'config', 'filter.evil.clean', evil(marker));
      },
    ],
    [
      'a file .git/config includes, which did not exist then',
      (dir, marker) => {
        // Included before the first call: git skips an include.path whose file is missing.
        writeFileSync(path.join(dir, '.git', 'extra.config'), `[filter "evil"]\n\tclean = "${evil(marker)}"\n`);
      },
    ],
    [
      'the global config (GIT_CONFIG_GLOBAL)',
      (dir, marker) => {
        writeFileSync(process.env['GIT_CONFIG_GLOBAL']!, `[filter "evil"]\n\tclean = "${evil(marker)}"\n`);
      },
    ],
  ];
  for (const [where, add] of places) {
    it(`runGit status outside a run: a driver added after the first call to ${where}`, async () => {
      const { dir, marker } = project();
      git(dir, 'config', 'include.path', 'extra.config');
      process.env['GIT_CONFIG_GLOBAL'] = path.join(dir, '..', 'global.config');
      writeFileSync(process.env['GIT_CONFIG_GLOBAL'], '');
      expect(inGitBudget()).toBe(false);
      expect(await runGit(dir, ['status', '--porcelain'])).toBe('');
      add(dir, marker);
      attributeAndTouch(dir);
      expect(await runGit(dir, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
      expect(existsSync(marker)).toBe(false);
    });
  }

  it('runGit status outside a run in a submodule: a driver added to its own config (.git/modules/<sub>/config) after the first call', async () => {
    const { dir: inner } = project();
    const { dir: top, marker } = project();
    git(top, 'submodule', 'add', '-q', inner, 'vendor/sub');
    git(top, 'commit', '-qm', 'add sub');
    const sub = path.join(top, 'vendor', 'sub');
    expect(await runGit(sub, ['status', '--porcelain'])).toBe('');
    git(top, 'config', '-f', path.join(top, '.git', 'modules', 'vendor', 'sub', 'config'), 'filter.evil.clean', evil(marker));
    attributeAndTouch(sub);
    expect(await runGit(sub, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('runGit status outside a run: git replaced by one older than 2.31 (which ignores GIT_CONFIG_COUNT) after the first call still runs no driver', async () => {
    const { dir, marker } = project();
    git(dir, 'config', 'filter.evil.clean', evil(marker));
    attributeAndTouch(dir);
    expect(await runGit(dir, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
    // An older git: the environment's configuration is not read, and it says 2.30.
    const bin = tempDir('docdrift-old-git-');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nunset GIT_CONFIG_COUNT\nif [ "$1" = --version ]; then echo 'git version 2.30.9'; exit 0; fi\nexec '${REAL_GIT}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    process.env['PATH'] = `${bin}${path.delimiter}${saved.PATH ?? ''}`;
    attributeAndTouch(dir);
    expect(await runGit(dir, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
    expect(existsSync(marker)).toBe(false);
  });
});
