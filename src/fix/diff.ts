/**
 * The unified diff that `--fix-dry-run` prints. In a module of its own so that the `diff` package
 * is loaded only by a dry run (the CLI imports this module at that call site).
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { escapeControls, escapeLine } from '../shared/escape.js';
import type { FixedFile } from './apply.js';

/**
 * The changes as one unified diff (`diff` package, `--- a/file` / `+++ b/file` headers, 3 lines
 * of context). It goes to a terminal or a CI log, so what a document holds is escaped as in every
 * other output (`escapeControls`, src/shared/escape.ts): ESC, OSC and CSI sequences, BEL, a bare
 * CR, directional overrides and line separators are written visibly (`\x1b`), and a file name's
 * line feed as `\n` (s26 sweep O2). A CR before a line feed (a CRLF document) is kept, so such a
 * diff still applies; one holding an escaped character does not, and shows where it was.
 */
export function unifiedDiff(files: readonly FixedFile[]): string {
  return files
    .map((f) => {
      const name = escapeLine(f.file);
      const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, f.before, f.after, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY });
      return patch.split('\r\n').map(escapeControls).join('\r\n');
    })
    .join('');
}
