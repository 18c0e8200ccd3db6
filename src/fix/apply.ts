/**
 * `--fix` and `--fix-dry-run` (issue #5): apply the rules' TextEdits in passes until nothing
 * fixable is left, then write each changed file atomically inside the project root, or print a
 * unified diff and write nothing.
 */
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { lint, type LintOptions, type LintResult } from '../engine/lint.js';
import type { TextEdit } from '../engine/types.js';

/** ESLint's limit on fix passes (https://eslint.org/docs/latest/integrate/nodejs-api#linterverifyandfix). */
export const MAX_FIX_PASSES = 10;

/**
 * Applies the edits of one text. Edits are taken by start offset (ties in the given order); one
 * that starts inside the range an earlier accepted edit replaces is skipped, as ESLint skips
 * overlapping fixes (source-code-fixer.js), to be retried on the next pass. Unlike ESLint, several
 * insertions at one offset are all kept, in the given order (rows added under one anchor).
 *
 * @param edits UTF-16 offsets into `text`; their `file` is not looked at.
 * @returns the new text and the edits applied and skipped; edits with a negative or inverted
 *   range or past the end of `text` are skipped.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): { text: string; applied: TextEdit[]; skipped: TextEdit[] } {
  const order = edits.map((edit, index) => ({ edit, index }));
  order.sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
  const applied: TextEdit[] = [];
  const skipped: TextEdit[] = [];
  let lastEnd = -1;
  let out = '';
  let cursor = 0;
  for (const { edit } of order) {
    const bad = edit.start < 0 || edit.end < edit.start || edit.end > text.length;
    if (bad || edit.start < lastEnd) {
      skipped.push(edit);
      continue;
    }
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
    lastEnd = edit.end;
    applied.push(edit);
  }
  return { text: out + text.slice(cursor), applied, skipped };
}

/** The file-system calls {@link writeFileAtomic} makes; tests inject failures. */
export type AtomicFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'renameSync' | 'unlinkSync' | 'fchmodSync' | 'statSync'
>;

/**
 * Replaces a file's contents atomically: writes a temporary file in the same directory, fsyncs
 * it, gives it the original's permission bits and renames it over the original (POSIX rename(2)
 * is atomic within one file system). On any failure the temporary file is removed and the
 * original is left as it was.
 *
 * @param file absolute path of an existing regular file.
 * @throws the underlying `NodeJS.ErrnoException` when a step fails.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, fs: AtomicFs = nodeFs): void {
  const mode = fs.statSync(file).mode & 0o7777;
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.docdrift-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', mode);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    // open() applies the umask; the original's bits are restored explicitly.
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    }
    try {
      fs.unlinkSync(temp);
    } catch {
      // never created, or already gone
    }
    throw error;
  }
}

/** Why a file was not fixed. */
export class FixError extends Error {}

/**
 * The absolute path to write for a project-relative file: inside `root` lexically and, after
 * resolving symlinks, inside the real root, and a regular file. A symlink inside the project is
 * followed to its (in-project) target, so the link itself stays a link.
 *
 * @throws {FixError} for a path outside the root (also through a symlink) or not a regular file.
 */
export function resolveInsideRoot(root: string, file: string): string {
  const abs = path.resolve(root, file);
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw new FixError(`${file} is outside the project root; not fixed`);
  let real: string;
  let realRoot: string;
  try {
    real = nodeFs.realpathSync(abs);
    realRoot = nodeFs.realpathSync(root);
  } catch (error) {
    throw new FixError(`${file} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)}); not fixed`);
  }
  const realRel = path.relative(realRoot, real);
  if (realRel === '' || realRel.startsWith('..') || path.isAbsolute(realRel)) {
    throw new FixError(`${file} is a symlink to ${real}, outside the project root; not fixed`);
  }
  if (!nodeFs.statSync(real).isFile()) throw new FixError(`${file} is not a regular file; not fixed`);
  return real;
}

/** One file `--fix` changed (or would change). */
export interface FixedFile {
  /** Project-relative POSIX path. */
  file: string;
  before: string;
  after: string;
  /** Edits applied to it over all passes. */
  edits: number;
}

/** What {@link fixProject} did. */
export interface FixResult {
  /** The lint of the fixed texts: the findings that remain. */
  result: LintResult;
  files: FixedFile[];
  /** Lint passes that applied edits (at most {@link MAX_FIX_PASSES}). */
  passes: number;
  /** Files that could not be fixed or written, each as a sentence naming the file. */
  problems: string[];
}

/** Options of {@link fixProject}: a lint run's options plus the fix settings. */
export interface FixOptions extends Omit<LintOptions, 'overlay'> {
  /** Compute the fixes but write nothing (`--fix-dry-run`). */
  dryRun?: boolean;
  maxPasses?: number;
  /** File-system calls of the atomic write (tests inject failures). */
  fs?: AtomicFs;
}

/** Reads a file's text, refusing one whose bytes would not survive a UTF-8 round trip (writing it back would change other bytes). */
function readExact(abs: string, file: string): string {
  const bytes = nodeFs.readFileSync(abs);
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new FixError(`${file} is not valid UTF-8; not fixed`);
  return text;
}

/**
 * Lints, applies every finding's fix, lints the edited texts again (in memory) and repeats until
 * no fix applies or {@link MAX_FIX_PASSES} passes ran; then, unless `dryRun`, writes each changed
 * file with {@link writeFileAtomic} (only when the file on disk is still what was read). Only
 * findings the lint reports (the `files` scope applies) are fixed.
 *
 * Never throws for a file that cannot be fixed: that goes to `problems`.
 */
export async function fixProject(options: FixOptions): Promise<FixResult> {
  const { dryRun = false, maxPasses = MAX_FIX_PASSES, fs = nodeFs, ...lintOptions } = options;
  const root = lintOptions.root;
  const overlay = new Map<string, string>();
  const originals = new Map<string, { abs: string; text: string }>();
  const counts = new Map<string, number>();
  const refused = new Set<string>();
  const problems: string[] = [];
  let result = await lint({ ...lintOptions, overlay });
  let passes = 0;
  while (passes < maxPasses) {
    const byFile = new Map<string, TextEdit[]>();
    for (const m of result.messages) {
      if (!m.fix || refused.has(m.fix.file)) continue;
      const list = byFile.get(m.fix.file) ?? [];
      list.push(m.fix);
      byFile.set(m.fix.file, list);
    }
    let applied = 0;
    for (const [file, edits] of byFile) {
      let original = originals.get(file);
      if (!original) {
        try {
          const abs = resolveInsideRoot(root, file);
          original = { abs, text: readExact(abs, file) };
          originals.set(file, original);
        } catch (error) {
          refused.add(file);
          problems.push(error instanceof FixError ? error.message : `${file}: ${(error as Error).message}; not fixed`);
          continue;
        }
      }
      const out = applyEdits(overlay.get(file) ?? original.text, edits);
      if (out.applied.length === 0) continue;
      overlay.set(file, out.text);
      counts.set(file, (counts.get(file) ?? 0) + out.applied.length);
      applied += out.applied.length;
    }
    if (applied === 0) break;
    passes++;
    result = await lint({ ...lintOptions, overlay });
  }

  const files: FixedFile[] = [];
  for (const [file, after] of overlay) {
    const original = originals.get(file)!;
    if (after === original.text) continue;
    files.push({ file, before: original.text, after, edits: counts.get(file) ?? 0 });
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  if (!dryRun) {
    for (const f of files) {
      const { abs } = originals.get(f.file)!;
      try {
        if (readExact(abs, f.file) !== f.before) throw new FixError(`${f.file} changed on disk while docdrift ran; not fixed`);
        writeFileAtomic(abs, f.after, fs);
      } catch (error) {
        problems.push(error instanceof FixError ? error.message : `${f.file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); left unchanged`);
      }
    }
  }
  return { result, files, passes, problems };
}

/** The changes as one unified diff (`diff` package, `--- a/file` / `+++ b/file` headers, 3 lines of context). */
export function unifiedDiff(files: readonly FixedFile[]): string {
  return files.map((f) => createTwoFilesPatch(`a/${f.file}`, `b/${f.file}`, f.before, f.after, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY })).join('');
}

/**
 * What the CLI prints about a fix run: for a dry run the unified diff (stdout), then one summary
 * line and every problem (stderr), e.g. `docdrift: fixed 3 problems in 2 files (2 passes)`.
 */
export function describeFix(fix: FixResult, dryRun: boolean): { stdout: string; stderr: string } {
  const edits = fix.files.reduce((n, f) => n + f.edits, 0);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : word.endsWith('s') ? 'es' : 's'}`;
  const verb = dryRun ? 'would fix' : 'fixed';
  const summary = fix.files.length === 0
    ? 'docdrift: nothing to fix.\n'
    : `docdrift: ${verb} ${plural(edits, 'problem')} in ${plural(fix.files.length, 'file')} (${plural(fix.passes, 'pass')})${dryRun ? '; nothing was written' : ''}.\n`;
  const problems = fix.problems.map((p) => `docdrift: ${p}\n`).join('');
  return { stdout: dryRun ? unifiedDiff(fix.files) : '', stderr: summary + problems };
}
