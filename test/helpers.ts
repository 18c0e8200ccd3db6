/**
 * Temporary-project helpers the test files share: a scratch directory with given files, a
 * writable copy of a fixture, and their removal. Each test file registers the clean-up itself
 * (`afterEach(removeTempDirs)` or `afterAll(removeTempDirs)`), since vitest isolates test files,
 * the list of directories is per file.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

/** Removes every directory made by this module's functions so far. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
