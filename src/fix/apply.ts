/**
 * `--fix` and `--fix-dry-run` (issue #5): apply the rules' TextEdits in passes until nothing
 * fixable is left, then write each changed file atomically inside the project root, or print a
 * unified diff and write nothing.
 */
import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { lint, type LintOptions, type LintResult } from '../engine/lint.js';
import { MemoryPieceStore } from '../engine/pieces.js';
import type { DriftMessage, TextEdit } from '../model/rule.js';
import type { Model } from '../model/types.js';
import { findingKey, findingKeyString } from '../engine/fingerprint.js';
import { cleanStaleTemps, leavesBase, LockedError, lockFile, PathChangedError, sameStamp, stampOf, WriteError, writeFileAtomic, type AtomicFs, type FileStamp } from '../engine/write.js';
import { escapeLine } from '../shared/escape.js';
import { isRestructuredText } from '../shared/paths.js';

export { writeFileAtomic, type AtomicFs } from '../engine/write.js';

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
  if (rel === '' || leavesBase(rel)) throw new FixError(`${file} is outside the project root; not fixed`);
  let real: string;
  let realRoot: string;
  try {
    real = nodeFs.realpathSync(abs);
    realRoot = nodeFs.realpathSync(root);
  } catch (error) {
    throw new FixError(`${file} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)}); not fixed`);
  }
  const realRel = path.relative(realRoot, real);
  if (realRel === '' || leavesBase(realRel)) {
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
  /** True when the new text is on disk (always false in a dry run, or when the write was refused or failed). */
  written: boolean;
}

/** What {@link fixProject} did. */
export interface FixResult {
  /** The lint of the texts now on disk (in a dry run: of the fixed texts): the findings that remain. */
  result: LintResult;
  files: FixedFile[];
  /** Lint passes that applied edits (at most {@link MAX_FIX_PASSES}). */
  passes: number;
  /** Files that could not be fixed or written, each as a sentence naming the file (the CLI exits 2). */
  problems: string[];
  /**
   * Fixes not applied because their edit does not read back as meant (the re-lint still reports
   * the finding), each as a sentence naming the file and the finding. Their findings remain in
   * `result`, so the exit code is that of the findings, as after any fix (s22 sweep D8).
   */
  unapplied: string[];
  /** Stale temporary files of a killed run that were removed, project-relative. */
  cleaned: string[];
}

/** Options of {@link fixProject}: a lint run's options plus the fix settings. */
export interface FixOptions extends Omit<LintOptions, 'overlay' | 'unreadable'> {
  /** Compute the fixes but write nothing (`--fix-dry-run`). */
  dryRun?: boolean;
  maxPasses?: number;
  /** File-system calls of the atomic write (tests inject failures). */
  fs?: AtomicFs;
  /**
   * The findings in scope, of those the lint reports (`--changed-since` passes its selection):
   * only their fixes are applied. Default: all.
   */
  select?: (messages: DriftMessage[], model: Model) => DriftMessage[];
}

/** How many messages have each {@link findingKeyString}. */
function countKeys(messages: readonly DriftMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of messages) {
    const key = findingKeyString(m);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** A file's text as read for fixing, with the stamp it had then. */
interface ReadFile {
  abs: string;
  text: string;
  /** sha256 of the file's bytes: those the lint read and computed the edits from. */
  hash: string;
  stamp: FileStamp;
}

/** sha256 of bytes, hex. */
function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}


/**
 * Why a reStructuredText document is not fixed: the edits are computed for Markdown (a table
 * row `| `--x` | … |`, a code span `` `x` ``), which would damage a `.rst` file. Its findings
 * are still reported; the file is left as it is.
 */
function rstRefusal(file: string): string {
  return `${file} is reStructuredText, which --fix does not edit (its fixes are written for Markdown); not fixed, change it by hand`;
}

/**
 * Why a file is refused before anything is computed for it: read-only (its mode says so, or this
 * user cannot write it), or it has more than one name (hard links). The atomic write renames a
 * new file over the name, so a fix would reach this name only and leave every other one (which
 * may be outside the project) with the old text: a silent split, refused instead, as the default
 * baseline with hard links is (s24 sweep D13). Git stores no hard links: a checkout never has one.
 */
function refusal(abs: string, file: string, st: nodeFs.Stats): string | undefined {
  const mode = st.mode;
  if (st.nlink > 1) return `${file} has ${st.nlink} names (hard links): --fix writes a new file under this name only, which would leave the others with the old text; not fixed. Replace the link with a copy, or fix it by hand`;
  if ((mode & 0o222) === 0) return `${file} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); not fixed`;
  try {
    nodeFs.accessSync(abs, nodeFs.constants.W_OK);
  } catch {
    return `${file} is not writable by this user; not fixed`;
  }
  return undefined;
}

/**
 * Reads a file's text and stamp, refusing one whose bytes would not survive a UTF-8 round trip
 * (writing it back would change other bytes), and one whose bytes are not those the lint read
 * (`linted`, the text the edits were computed from: a user edited it meanwhile, or another run
 * fixed it; issue #33 item 7).
 */
function readExact(abs: string, file: string, linted: string | undefined): ReadFile {
  const fd = nodeFs.openSync(abs, 'r');
  try {
    const st = nodeFs.fstatSync(fd);
    const bytes = nodeFs.readFileSync(fd);
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) throw new FixError(`${file} is not valid UTF-8; not fixed`);
    const hash = sha256(bytes);
    if (linted === undefined || sha256(Buffer.from(linted, 'utf8')) !== hash) throw new FixError(`${file} changed on disk while docdrift ran; not fixed`);
    return { abs, text, hash, stamp: stampOf(st) };
  } finally {
    nodeFs.closeSync(fd);
  }
}

/**
 * Writes one fixed file under its lock ({@link lockFile}: another `--fix` run writing it makes
 * this one refuse it): the file must still be the one the lint read (same inode, size and mtime,
 * bytes of the same sha256), checked on a descriptor held through the write, so the atomic write
 * can check the stamp right before and the replaced inode right after the rename (issues #18,
 * #33 item 7).
 *
 * @throws {FixError} when it changed, is locked, or the write was refused; the fs error when a step fails.
 */
function writeFixed(root: string, original: ReadFile, file: string, after: string, fs: AtomicFs): void {
  let unlock: () => void;
  try {
    unlock = lockFile(original.abs, root);
  } catch (error) {
    if (error instanceof LockedError) {
      const lock = error.lock === undefined ? undefined : path.relative(root, error.lock).split(path.sep).join('/');
      if (error.blocker !== undefined) {
        const folder = error.blocker === 'a folder';
        throw new FixError(`${file} was not fixed: its lock name ${lock ?? 'beside it'} is ${error.blocker}, not a lock a docdrift run wrote, and docdrift does not remove it; remove it${folder ? ' (a folder: `rm -r`)' : ''} and run again`);
      }
      throw new FixError(`${file} is being fixed by another docdrift run (pid ${error.pid}); not fixed${lock ? ` (if no docdrift run is going on, remove ${lock})` : ''}`);
    }
    throw error;
  }
  let fd: number | undefined;
  try {
    try {
      fd = nodeFs.openSync(original.abs, 'r');
    } catch {
      throw new FixError(`${file} changed on disk while docdrift ran (it is gone); not fixed`);
    }
    const st = nodeFs.fstatSync(fd);
    if (!sameStamp(stampOf(st), original.stamp) || sha256(nodeFs.readFileSync(fd)) !== original.hash) {
      throw new FixError(`${file} changed on disk while docdrift ran; not fixed`);
    }
    writeFileAtomic(original.abs, after, { fs, expect: original.stamp, held: fd, root });
  } catch (error) {
    // A folder on the way that became a link while the run linted: refused, and said so (s32 sweep D1).
    if (error instanceof PathChangedError) throw new FixError(`${file}: ${error.message.replace(/; nothing was written\.$/, '')}; not fixed`);
    if (error instanceof WriteError) {
      throw new FixError(/put back/.test(error.message) ? `${file} was edited while docdrift wrote it; the edit was kept and the file not fixed` : `${file} changed on disk while docdrift ran; not fixed`);
    }
    throw error;
  } finally {
    if (fd !== undefined) nodeFs.closeSync(fd);
    unlock();
  }
}

/**
 * Lints, applies every in-scope finding's fix, lints the edited texts again (in memory) and
 * repeats until no fix applies or {@link MAX_FIX_PASSES} passes ran; then, unless `dryRun`,
 * writes each changed file with {@link writeFileAtomic} (only when the file on disk is still
 * what was read, checked again around the rename). A file is fixed only when its bytes are those
 * the lint computed the edits from (sha256, when it is first read for fixing and again before
 * the rename, under its {@link lockFile} lock). A fix whose finding is still reported after the
 * re-lint (its edit does not read back as meant, issue #33 item 8) is not applied, and said so;
 * the file's other fixes are. Only findings the lint reports (the `files`
 * scope applies) and `select` keeps are fixed. Read-only files are refused. Before writing, the
 * temporary files a killed run left beside the documents are removed.
 *
 * When a file could not be written, the findings are those of the texts on disk (a last lint
 * with only the written files), so the report never shows a file as fixed that was not.
 *
 * Never throws for a file that cannot be fixed: that goes to `problems`.
 */
export async function fixProject(options: FixOptions): Promise<FixResult> {
  const { dryRun = false, maxPasses = MAX_FIX_PASSES, fs = nodeFs, select, ...lintOptions } = options;
  const root = lintOptions.root;
  const overlay = new Map<string, string>();
  const originals = new Map<string, ReadFile>();
  const counts = new Map<string, number>();
  const refused = new Set<string>();
  /** Finding keys whose fix did not read back as meant: never applied again (the file's other fixes are). */
  const unfixable = new Set<string>();
  const problems: string[] = [];
  const unapplied: string[] = [];
  // Each pass lints the whole project again: files whose text the last pass read are not parsed again.
  const pieces = lintOptions.pieces ?? new MemoryPieceStore();
  // Every page in segments, so that a pass's re-lint parses only the sections it edited; at most
  // 16 MiB of segment trees (then short pages are no longer asked for them) (a 500-page site of 10 KB pages: 414 MB before, 639 MB with no limit, 472 MB with this one,
  // #33 fresh sweep s20 D9): pages past it are parsed whole again.
  lintOptions.segmentMinLength ??= 0;
  lintOptions.segmentBudgetBytes ??= 16 * 1024 * 1024;
  let result = await lint({ ...lintOptions, overlay, pieces });
  let passes = 0;
  while (passes < maxPasses) {
    const byFile = new Map<string, DriftMessage[]>();
    for (const m of select ? select(result.messages, result.model) : result.messages) {
      if (!m.fix || refused.has(m.fix.file) || unfixable.has(findingKeyString(m))) continue;
      const list = byFile.get(m.fix.file) ?? [];
      list.push(m);
      byFile.set(m.fix.file, list);
    }
    let applied = 0;
    // The texts and counts before this pass, to take back one file's pass when a fix misreads.
    const overlayBefore = new Map(overlay);
    const countsBefore = new Map(counts);
    // Per finding key whose fix was applied: the file, how many findings had the key (with a fix
    // or not: a sibling without one stays), how many fixes applied.
    const counted = countKeys(result.messages);
    const fixedKeys = new Map<string, { file: string; message: DriftMessage; before: number; applied: number }>();
    for (const [file, fixing] of byFile) {
      let original = originals.get(file);
      if (!original) {
        try {
          // Rules attach no fix to .rst documents (createMessage); a fix made by hand is refused still.
          if (isRestructuredText(file)) throw new FixError(rstRefusal(file));
          const abs = resolveInsideRoot(root, file);
          const why = dryRun ? undefined : refusal(abs, file, nodeFs.statSync(abs));
          if (why) throw new FixError(why);
          // The edits were computed from the text this lint read (Model.source): only those bytes are patched.
          original = readExact(abs, file, overlay.get(file) ?? result.model.source?.(file));
          originals.set(file, original);
        } catch (error) {
          refused.add(file);
          problems.push(error instanceof FixError ? error.message : `${file}: ${(error as Error).message}; not fixed`);
          continue;
        }
      }
      const out = applyEdits(overlay.get(file) ?? original.text, fixing.map((m) => m.fix!));
      if (out.applied.length === 0) continue;
      const done = new Set(out.applied);
      for (const m of fixing) {
        const key = findingKeyString(m);
        const entry = fixedKeys.get(key) ?? { file, message: m, before: counted.get(key) ?? 0, applied: 0 };
        if (done.has(m.fix!)) entry.applied++;
        fixedKeys.set(key, entry);
      }
      overlay.set(file, out.text);
      counts.set(file, (counts.get(file) ?? 0) + out.applied.length);
      applied += out.applied.length;
    }
    if (applied === 0) break;
    passes++;
    result = await lint({ ...lintOptions, overlay, pieces });
    // Re-linted, a fixed finding must be gone (as markdownlint re-lints its fixes): one still
    // there means the edit does not read back as meant (a row whose name the table splits), and
    // applying it again would add junk on every pass and every run (issue #33 item 8). That
    // finding is not fixed and said so; its file's pass is taken back and done again without it,
    // so the file's other fixes still apply (#33 sweep: one such name blocked its whole file).
    const left = countKeys(result.messages);
    const unread = new Map<string, DriftMessage[]>();
    for (const [key, entry] of fixedKeys) {
      if (entry.applied === 0 || (left.get(key) ?? 0) <= entry.before - entry.applied) continue;
      unfixable.add(key);
      unread.set(entry.file, [...(unread.get(entry.file) ?? []), entry.message]);
    }
    if (unread.size > 0) {
      for (const [file, messages] of unread) {
        const before = overlayBefore.get(file);
        if (before === undefined) overlay.delete(file);
        else overlay.set(file, before);
        const count = countsBefore.get(file);
        if (count === undefined) counts.delete(file);
        else counts.set(file, count);
        for (const m of messages) unapplied.push(`${file}: the fix of ${m.ruleId} \`${findingKey(m).subject}\` does not read back as meant (re-linted, the finding is still there); not fixed`);
      }
      result = await lint({ ...lintOptions, overlay, pieces });
    }
  }

  const files: FixedFile[] = [];
  for (const [file, after] of overlay) {
    const original = originals.get(file)!;
    if (after === original.text) continue;
    files.push({ file, before: original.text, after, edits: counts.get(file) ?? 0, written: false });
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  const cleaned: string[] = [];
  if (!dryRun) {
    const dirs = new Set([...result.model.docs.map((d) => d.file), ...files.map((f) => f.file)].map((f) => path.posix.dirname(f)));
    for (const dir of dirs) cleaned.push(...cleanStaleTemps(path.join(root, dir)).map((name) => path.posix.join(dir, name)));
    for (const f of files) {
      try {
        writeFixed(root, originals.get(f.file)!, f.file, f.after, fs);
        f.written = true;
      } catch (error) {
        problems.push(error instanceof FixError ? error.message : `${f.file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); left unchanged`);
      }
    }
    if (files.some((f) => !f.written)) {
      // Report what is on disk: drop the texts that were not written and lint once more.
      const onDisk = new Map(files.filter((f) => f.written).map((f) => [f.file, f.after]));
      result = await lint({ ...lintOptions, overlay: onDisk, pieces });
    }
  }
  return { result, files, passes, problems, unapplied, cleaned };
}

/**
 * What the CLI prints on stderr about a fix run: one summary line and every problem, e.g.
 * `docdrift: fixed 3 problems in 2 files (2 passes)`. After a real run the summary counts only
 * what was written, and says how many files were not. (A dry run's diff, on stdout, is
 * {@link unifiedDiff} in `./diff.ts`.)
 */
export function describeFix(fix: FixResult, dryRun: boolean): { stderr: string } {
  const counted = dryRun ? fix.files : fix.files.filter((f) => f.written);
  // Every file not fixed is one problem line (below): those whose write failed, and those refused
  // before their fixes were computed (changed on disk since the lint, read-only, a link), which
  // are not among `files` (#33 s44 sweep G4: "4 files with fixes not written" above 7 refusals).
  const notWritten = dryRun ? 0 : Math.max(fix.files.length - counted.length, fix.problems.length);
  const edits = counted.reduce((n, f) => n + f.edits, 0);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : /[sx]$/.test(word) ? 'es' : 's'}`;
  const verb = dryRun ? 'would fix' : 'fixed';
  const rest = notWritten > 0 || fix.unapplied.length > 0
    ? `; ${[notWritten > 0 ? `${plural(notWritten, 'file')} with fixes not written` : '', fix.unapplied.length > 0 ? `${plural(fix.unapplied.length, 'fix')} not applied` : ''].filter(Boolean).join(', ')} (below)`
    : '';
  // "Nothing to fix" above a refusal would read as all clear: a refused file had fixes. Refused
  // files are counted as files, fixes that do not read back as fixes (several may be in one file).
  const notApplied = fix.unapplied.length > 0 ? `${plural(fix.unapplied.length, 'fix')} not applied (below)` : '';
  // Fixes a rule gave but docdrift did not keep (`fixWithheld`): their findings remain and say why.
  const withheldCount = fix.result.messages.filter((m) => m.fixWithheld !== undefined).length;
  const withheld = withheldCount > 0 ? `${plural(withheldCount, 'fix')} withheld (their findings say why)` : '';
  const refusedOnly = fix.files.length === 0 && fix.problems.length + fix.unapplied.length + withheldCount > 0
    ? `; ${[fix.problems.length > 0 ? `${plural(fix.problems.length, 'file')} not fixed${notApplied ? '' : ' (below)'}` : '', notApplied, withheld].filter(Boolean).join(', ')}`
    : '';
  const summary = refusedOnly
    ? `docdrift: fixed nothing${refusedOnly}.\n`
    : fix.files.length === 0
    ? 'docdrift: nothing to fix.\n'
    : counted.length === 0
      ? `docdrift: fixed nothing${rest}.\n`
      : `docdrift: ${verb} ${plural(edits, 'problem')} in ${plural(counted.length, 'file')} (${plural(fix.passes, 'pass')})${dryRun ? '; nothing was written' : ''}${rest}${withheld ? `; ${withheld}` : ''}.\n`;
  const cleaned = fix.cleaned.length > 0 ? `docdrift: removed ${plural(fix.cleaned.length, 'stale temporary file')} of an interrupted run.\n` : '';
  // Each problem is one line: a file name or parameter name holding a line feed is written `\n`
  // (it forged whole lines on stderr, s22 sweep D7), as stylish output writes it.
  const problems = [...fix.problems, ...fix.unapplied].map((p) => `docdrift: ${escapeLine(p)}\n`).join('');
  return { stderr: cleaned + summary + problems };
}
