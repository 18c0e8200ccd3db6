/**
 * Helpers the test files share: a scratch directory with given files, a writable copy of a
 * fixture, and their removal; linting a fixture twin and comparing it with its `expected.json`. Each test file registers the clean-up itself
 * (`afterEach(removeTempDirs)` or `afterAll(removeTempDirs)`), since vitest isolates test files,
 * the list of directories is per file.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');

/**
 * The CLI as users run it: package.json's `bin.docdrift` (the rolldown bundle,
 * `dist/cli/docdrift.js`), absolute. End-to-end tests spawn this, not `dist/src/bin.js`.
 */
export const CLI_BIN: string = path.join(REPO, (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: { docdrift: string } }).bin.docdrift);

const created: string[] = [];

/** A new empty directory under the OS temporary directory, removed by {@link removeTempDirs}. */
export function tempDir(prefix = 'docdrift-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Writes `files` (project-relative POSIX path → text) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

/** A temporary project holding `files`; see {@link writeFiles}. */
export function tempProject(files: Record<string, string>, prefix?: string): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}

/** A writable temporary copy of the directory `source` (absolute, e.g. a fixture). */
export function copyToTemp(source: string, prefix?: string): string {
  const dir = tempDir(prefix);
  cpSync(source, dir, { recursive: true });
  return dir;
}

/**
 * A temporary folder holding `project/`, a copy of `source` (absolute, e.g. the bad-input base
 * project), and an empty `outside/` beside it: for tests of what docdrift must not read or write
 * outside the project. Removed by {@link removeTempDirs}.
 */
export function projectBesideOutside(source: string, prefix?: string): { project: string; outside: string } {
  const dir = tempDir(prefix);
  const project = path.join(dir, 'project');
  const outside = path.join(dir, 'outside');
  cpSync(source, project, { recursive: true });
  mkdirSync(outside);
  return { project, outside };
}

/** Removes every directory made by this module's functions so far. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Lints a fixture twin (a mini repository) with every built-in rule and its own config file, as
 * the framework and layout twin tests do. Returns the result and its messages reduced to the
 * fields an `expected.json` holds (file, line, column, ruleId, severity, messageId, data).
 * `overrides` replaces top-level keys of the loaded config (`{ versions: "all" }`).
 */
export async function lintTwin(dir: string, overrides: Partial<import('../src/config/schema.js').DocdriftConfig> = {}) {
  const { loadConfig } = await import('../src/config/load.js');
  const { lint, ruleIds } = await import('../src/api.js');
  const { config, file } = loadConfig(dir, undefined, ruleIds);
  const result = await lint({ root: dir, config: { ...config, ...overrides }, configFile: file });
  return {
    result,
    messages: result.messages.map((m) => ({
      file: m.file,
      line: m.line,
      column: m.column,
      ruleId: m.ruleId,
      severity: m.severity,
      messageId: m.messageId,
      data: m.data,
    })),
  };
}

/**
 * Compares `messages` with `<dir>/expected.json`, which must list at least one finding. With
 * `UPDATE_EXPECTED=1` (or when the file is missing) it first rewrites the file, so a change is
 * reviewed as a diff.
 */
export function expectGolden(dir: string, messages: unknown[]): void {
  const expectedFile = path.join(dir, 'expected.json');
  if (process.env.UPDATE_EXPECTED === '1' || !existsSync(expectedFile)) writeFileSync(expectedFile, `${JSON.stringify(messages, null, 2)}\n`);
  const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as unknown[];
  expect(expected.length).toBeGreaterThan(0);
  expect(messages).toEqual(expected);
}

export { seededRandom } from './random.js';

/** Wall-clock milliseconds `fn()` takes (for generous bounds on hostile inputs only). */
export function elapsedMs(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/**
 * A folder holding a `git` for `PATH` that logs the subcommand of each `ls-files` call to `log`
 * and, before running it with the real git `realGit`, runs `git status` with the options and the
 * environment docdrift gave that call: a stand-in for a call that reads file contents (`status`,
 * `diff`, `ls-files -m` rehash a file whose times changed, through its clean filter), to check
 * that the filter drivers docdrift turned off for the listing are the ones defined then.
 */
export function contentCheckingGit(realGit: string, log: string): string {
  const bin = tempDir('docdrift-content-git-');
  writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in *" ls-files "*) echo ls-files >> '${log}'; '${realGit}' -c core.fsmonitor=false -c core.hooksPath=/dev/null status --porcelain >/dev/null 2>&1 ;; esac\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  return bin;
}

/** Every `.py` file under fixtures/, as [fixtures-relative path, text], sorted by path. */
export function fixturePython(): Array<[string, string]> {
  const dir = path.join(REPO, 'fixtures');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]);
}
