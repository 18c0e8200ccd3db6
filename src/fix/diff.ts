/**
 * The unified diff that `--fix-dry-run` prints. In a module of its own so that the `diff` package
 * is loaded only by a dry run (the CLI imports this module at that call site).
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { FixedFile } from './apply.js';

/** The changes as one unified diff (`diff` package, `--- a/file` / `+++ b/file` headers, 3 lines of context). */
export function unifiedDiff(files: readonly FixedFile[]): string {
  return files.map((f) => createTwoFilesPatch(`a/${f.file}`, `b/${f.file}`, f.before, f.after, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY })).join('');
}
