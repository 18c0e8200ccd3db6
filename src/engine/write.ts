/**
 * The one way docdrift writes a file (issues #17, #18): atomically (temporary file in the same
 * directory, fsync, rename), never through a symlink inside the project, keeping the replaced
 * file's owner and mode, with an optional check that nobody edited the file in between. The
 * baseline, the run cache, `init`'s config and `--fix` all write through here.
 */
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { readRegularFile, ReadFileError } from '../shared/read-file.js';

/** The file-system calls {@link writeFileAtomic} makes; tests inject failures and races. */
export type AtomicFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'closeSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'fchmodSync'
  | 'statSync'
  | 'lstatSync'
  | 'fstatSync'
  | 'readSync'
  | 'fchownSync'
>;

/** A write docdrift refuses (a symlink or non-regular file in the way, a file edited meanwhile); the message names the path. */
export class WriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriteError';
  }
}

/**
 * A {@link WriteError} for a path that could not be checked at all (`lstat` failed with
 * `EACCES`, `ELOOP`, `ENAMETOOLONG`…), as opposed to one found to be a symlink: a caller that can
 * do without the file (the run cache) goes on without it, where a refused symlink stops the run.
 */
export class UncheckablePathError extends WriteError {
  /** The `lstat` error code (`EACCES`), or the error's message when it has none. */
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'UncheckablePathError';
    this.code = code;
  }
}

/**
 * The stat fields that change when a file is edited in place or replaced: device and inode
 * (a rename-over by an editor), size and modification time in ms (an in-place write).
 */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The {@link FileStamp} of a stat result. */
export function stampOf(st: nodeFs.Stats): FileStamp {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

/** True when two stamps describe the same, unedited file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** True when `rel` (a `path.relative` result) leaves its base: `..` or `../x`, or absolute; `..x.md` stays inside. */
export function leavesBase(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/**
 * Checks that writing `file` cannot leave the project: when `file` lies lexically inside `root`,
 * no existing component of its path below the root may be a symlink (a committed
 * `.docdrift-cache` → `/home/me/.ssh` link, or a `.docdrift-baseline.json` link). A path outside
 * the root was named by the user (`--baseline /tmp/b.json`, `--cache-location`) and is not
 * checked beyond what the rename does (it replaces a link, never follows it).
 *
 * @param root absolute project root.
 * @param file absolute path to be written.
 * @throws {WriteError} naming the offending path (root-relative) and what it is: an
 *   {@link UncheckablePathError} when a component could not be `lstat`ed (other than `ENOENT`).
 */
export function checkWriteTarget(root: string, file: string): void {
  const rel = path.relative(root, file);
  if (rel === '' || leavesBase(rel)) return;
  let current = root;
  const parts = rel.split(path.sep);
  for (let i = 0; i < parts.length; i++) {
    current = path.join(current, parts[i]!);
    const shown = path.relative(root, current).split(path.sep).join('/');
    let st: nodeFs.Stats;
    try {
      st = nodeFs.lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new UncheckablePathError(`cannot check ${shown} before writing it (${code}); nothing was written.`, code);
    }
    if (st.isSymbolicLink()) {
      throw new WriteError(`${shown} is a symlink (to ${linkTarget(current)}); docdrift writes only regular files inside the project and does not follow it. Remove the link; nothing was written.`);
    }
    // A file where a directory should be fails the write itself (ENOTDIR), and an existing
    // non-regular file is refused by writeFileAtomic: neither can lead out of the project.
    if (!st.isDirectory()) return;
  }
}

/** What the symbolic link at `file` points to, for a message; `?` when it cannot be read (the link is reported either way). */
export function linkTarget(file: string): string {
  try {
    return nodeFs.readlinkSync(file);
  } catch {
    return '?';
  }
}

/** The identity of a file: its device and inode numbers (as `fstat`/`lstat` give them). */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/**
 * A write refused because the path changed between docdrift's check and its write: a folder on it
 * became a symbolic link, or the path no longer names the file docdrift opened. Nothing was
 * written (what the write had created is removed).
 */
export class PathChangedError extends WriteError {
  constructor(message: string) {
    super(message);
    this.name = 'PathChangedError';
  }
}

/** The file-system calls {@link checkOpenedPath} makes; tests swap a folder for a link in between. */
export type CheckFs = Pick<typeof nodeFs, 'lstatSync'>;

/** The file-system calls {@link openForWriteInside} makes. */
export type OpenFs = Pick<typeof nodeFs, 'openSync' | 'fstatSync' | 'lstatSync' | 'unlinkSync' | 'closeSync'>;

/**
 * Checks, once a file is open (or created) at `file`, that what was opened is where `file` names
 * it inside `root` NOW: no component of the path below the root is a symbolic link, each folder on
 * it is one, and the path names the very file opened (its `lstat` has `opened`'s device and
 * inode). The folders are looked at a second time after that, and must be the same ones, so a link
 * put in and taken out again meanwhile is seen too. Node has no openat(2): this check after the
 * open stands in for opening each component without following links. {@link checkWriteTarget}
 * checks the path when the run starts; a folder replaced by a link while the run lints (`out/` of
 * `-o out/report.txt` made a link to a folder outside the project) was followed at write time
 * (#33 item 10, s32 sweep D1). Whatever is written after this check goes into the open file, an
 * inode inside the project.
 *
 * A `file` outside `root`, or the root itself, is not checked, as in {@link checkWriteTarget}.
 *
 * @param root absolute project root.
 * @param file absolute path the file was opened at.
 * @param opened the identity of the open file (`fstat` of its descriptor).
 * @param options `fs`: the `lstat` to use (tests); `shown`: the name in messages (default: `file`
 *   relative to the root), e.g. the file a temporary file stands for.
 * @throws {PathChangedError} naming the component and what it became.
 */
export function checkOpenedPath(root: string, file: string, opened: FileIdentity, options: { fs?: CheckFs; shown?: string } = {}): void {
  const rel = path.relative(root, file);
  if (rel === '' || leavesBase(rel)) return;
  const fs = options.fs ?? nodeFs;
  const parts = rel.split(path.sep);
  const shown = options.shown ?? parts.join('/');
  const walk = (): FileIdentity[] => {
    const seen: FileIdentity[] = [];
    let current = root;
    for (let i = 0; i < parts.length; i++) {
      current = path.join(current, parts[i]!);
      const name = parts.slice(0, i + 1).join('/');
      const last = i === parts.length - 1;
      let st: nodeFs.Stats;
      try {
        st = fs.lstatSync(current);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new PathChangedError(`${last ? shown : `${name} (on the way to ${shown})`} cannot be checked after docdrift opened it (${code}): its path changed while docdrift ran; nothing was written.`);
      }
      if (st.isSymbolicLink()) {
        throw new PathChangedError(`${last ? shown : `${name} (on the way to ${shown})`} became a symlink (to ${linkTarget(current)}) while docdrift ran; docdrift writes only regular files inside the project and does not follow it. Remove the link; nothing was written.`);
      }
      if (!last && !st.isDirectory()) throw new PathChangedError(`${name} (on the way to ${shown}) is no longer a folder: its path changed while docdrift ran; nothing was written.`);
      seen.push({ dev: st.dev, ino: st.ino });
    }
    return seen;
  };
  const first = walk();
  const leaf = first[first.length - 1]!;
  if (leaf.dev !== opened.dev || leaf.ino !== opened.ino) throw new PathChangedError(`${shown} no longer names the file docdrift opened: its path changed while docdrift ran; nothing was written.`);
  const again = walk();
  if (again.some((id, i) => id.dev !== first[i]!.dev || id.ino !== first[i]!.ino)) throw new PathChangedError(`the folders on the way to ${shown} changed while docdrift checked them; nothing was written.`);
}

/** True when the file at `file` (the path resolved as it is now) is `opened`. */
function names(fs: Pick<AtomicFs, 'lstatSync'>, file: string, opened: FileIdentity): boolean {
  try {
    const st = fs.lstatSync(file);
    return st.dev === opened.dev && st.ino === opened.ino;
  } catch {
    return false;
  }
}

/**
 * Opens `file` for writing inside `root` and checks it where it was opened
 * ({@link checkOpenedPath}): created exclusively when it is missing (O_CREAT | O_EXCL), so docdrift
 * knows whether it made the file; opened as it is otherwise (never truncated by the open: a caller
 * truncates after its own checks). When the check fails, a file this call created is removed (when
 * the path, as it resolves now, still names it), the descriptor is closed and the error thrown:
 * nothing is written.
 *
 * @param flags the open flags without O_CREAT, O_EXCL and O_TRUNC (O_WRONLY, O_APPEND,
 *   O_NOFOLLOW, O_NONBLOCK…).
 * @param mode the mode of a new file (before the umask).
 * @param fs the file-system calls (tests swap a folder for a link in between).
 * @returns the open descriptor, for the caller to write and close.
 * @throws {PathChangedError} when the check fails; the `open` error (ELOOP for a link as the last
 *   component under O_NOFOLLOW, EACCES, ENOENT for a missing folder…).
 */
export function openForWriteInside(root: string, file: string, flags: number, mode = 0o666, fs: OpenFs = nodeFs): number {
  let fd: number | undefined;
  let created = false;
  // A file removed between the two opens is created by the next try; a third failure is thrown.
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = fs.openSync(file, flags | nodeFs.constants.O_CREAT | nodeFs.constants.O_EXCL, mode);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        fd = fs.openSync(file, flags, mode);
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 2) throw again;
      }
    }
  }
  try {
    const st = fs.fstatSync(fd);
    checkOpenedPath(root, file, st, { fs });
    return fd;
  } catch (error) {
    if (created) {
      const st = fs.fstatSync(fd);
      if (names(fs, file, st)) {
        try {
          fs.unlinkSync(file);
        } catch {
          // gone already
        }
      }
    }
    fs.closeSync(fd);
    throw error;
  }
}

/** `.<name>.docdrift-<pid>-<random>.tmp`: the temporary file of {@link writeFileAtomic} (`s`: a name may hold a line break, #33 kind 13). */
const TEMP_NAME = /^\..+\.docdrift-(\d+)-[a-z0-9]+\.tmp$/s;
/** The cache's temporary files before they went through {@link writeFileAtomic}: `run-<hash>.json.<pid>.<random>.tmp`. */
const OLD_CACHE_TEMP = /^run-[0-9a-f]+\.json\.(\d+)\.[a-z0-9]+\.tmp$/;

/** `.<name>.docdrift.lock`: the lock of {@link lockFile}; it holds the pid of the run that took it (`s`: a name may hold a line break). */
const LOCK_NAME = /^\..+\.docdrift\.lock$/s;

/** The temporary name for `file` in its own directory. */
function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.docdrift-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
}

/** True when process `pid` is running on this machine (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  // kill(0, 0) signals this process's own group, and succeeds: a lock of pid 0 (none written) is dead.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a killed docdrift run left in `dir` (named by
 * {@link writeFileAtomic}, or the cache's older `run-*.json.<pid>.<rand>.tmp`), when the process
 * that made them no longer runs. Never throws: a directory that cannot be read is left alone.
 *
 * @returns the names removed.
 */
export function cleanStaleTemps(dir: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name) ?? OLD_CACHE_TEMP.exec(name);
    const lock = !m && LOCK_NAME.test(name) ? readLock(path.join(dir, name)) : undefined;
    const pid = m ? Number(m[1]) : lock?.pid;
    if (pid === undefined || (lock ? lockHeld(path.join(dir, name), lock) : alive(pid))) continue;
    try {
      const st = nodeFs.lstatSync(path.join(dir, name));
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      nodeFs.unlinkSync(path.join(dir, name));
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** Largest lock file read, in bytes: docdrift writes a pid and a line feed. */
const MAX_LOCK_BYTES = 64;

/**
 * The pid written in a lock file, `undefined` when it is gone or cannot be read; anything at a
 * lock's name that is not a regular file of at most {@link MAX_LOCK_BYTES} (a FIFO, a link to
 * /dev/zero, a large file) is no lock docdrift wrote and reads as pid 0, never alive. Read with
 * `readRegularFile` (src/shared/read-file.ts), which opens without blocking on a FIFO and reads
 * no more than the cap (a committed `.x.docdrift.lock` link to /dev/zero grew the run to 9 GB, a
 * FIFO hung it: s26 sweep D2).
 */
function lockOwner(lock: string): number | undefined {
  return readLock(lock)?.pid;
}

/** A lock's content: the pid of the run that took it and, where known, that process's start time ({@link processStart}). */
interface LockContent {
  pid: number;
  start?: string;
}

/**
 * The start time of process `pid` (`/proc/<pid>/stat` field 22, clock ticks after boot: proc(5)),
 * which tells the run that wrote a lock from a later process given the same pid; `undefined`
 * where `/proc` cannot tell (another OS, a process gone).
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = nodeFs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs docdrift, by its command line (`/proc/<pid>/cmdline`); `undefined` where `/proc` cannot tell. */
function runsDocdrift(pid: number): boolean | undefined {
  try {
    return nodeFs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('docdrift');
  } catch {
    return undefined;
  }
}

/** Locks this process holds (absolute paths): a lock naming this process's pid that it does not hold is another process's, before a restart gave this one its pid. */
const heldHere = new Set<string>();

/**
 * Whether the lock at `lock` with content `content` is held: its process runs, and is the process
 * that took it. A pid alone is not enough (s46 sweep H1: a committed or CI-restored lock naming
 * pid 1, or a killed run's lock whose pid a container gave the next run, blocked `--fix` for
 * good): the process must have the start time the lock recorded, or, for a lock without one,
 * run docdrift. Where `/proc` cannot tell, a running pid holds it.
 */
function lockHeld(lock: string, content: LockContent): boolean {
  const { pid } = content;
  if (pid === process.pid) return heldHere.has(lock);
  if (!alive(pid)) return false;
  const now = processStart(pid);
  if (now === undefined) return true;
  if (content.start !== undefined) return content.start === now;
  return runsDocdrift(pid) ?? true;
}

/** {@link lockOwner} with the start time the lock recorded. */
function readLock(lock: string): LockContent | undefined {
  let text: string;
  try {
    text = readRegularFile(lock, { maxBytes: MAX_LOCK_BYTES });
  } catch (error) {
    const code = error instanceof ReadFileError ? error.code : undefined;
    if (code === 'ENOTREG' || code === 'EFBIG' || code === 'EISDIR' || code === 'ELOOP') return { pid: 0 };
    // Gone, or a link whose target is gone (which is no lock either).
    return code === 'ENOENT' && nodeFs.lstatSync(lock, { throwIfNoEntry: false }) !== undefined ? { pid: 0 } : undefined;
  }
  const [first, start] = text.trim().split(/\s+/);
  const pid = Number(first);
  if (!Number.isSafeInteger(pid) || pid <= 0) return { pid: 0 };
  return start !== undefined && /^\d+$/.test(start) ? { pid, start } : { pid };
}

/**
 * A lock {@link lockFile} could not take: another live process holds it, or (`pid` 0, `blocker`
 * set) something that is no lock a docdrift run wrote sits at the lock's name and could not be
 * removed (a folder: s47 sweep J6, whose message blamed a run of pid 0).
 */
export class LockedError extends WriteError {
  /** The pid of the process holding the lock; 0 when no process does (see {@link LockedError.blocker}). */
  readonly pid: number;
  /** The lock file's absolute path. */
  readonly lock: string | undefined;
  /** What is at the lock's name when it is no lock a run wrote and could not be taken over (`a folder`, `a FIFO`…). */
  readonly blocker: string | undefined;
  constructor(file: string, pid: number, lock?: string, blocker?: string) {
    super(blocker === undefined ? `${file} is locked by another docdrift run (pid ${pid})` : `${file} cannot be locked: its lock name holds ${blocker}, not a lock a docdrift run wrote`);
    this.name = 'LockedError';
    this.pid = pid;
    this.lock = lock;
    this.blocker = blocker;
  }
}

/** What `lstat` finds at `file`, in words (`a folder`, `a FIFO`, `a symbolic link`, `a file`…); `something` when it cannot tell. */
function whatIsAt(file: string): string {
  const stat = nodeFs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return 'something';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a file that holds no pid';
}

/**
 * Takes the exclusive lock of `file` for this process: `.<name>.docdrift.lock` beside it, made
 * complete (a temporary file holding the pid, hard-linked to the lock name, which fails if it
 * exists), so another process never reads a half-written lock. A lock whose process no longer
 * runs (a killed run) is taken over. Two `--fix` runs thus never check and replace one file at
 * the same time (issue #33 item 7). Advisory: only docdrift honours it.
 *
 * @param file absolute path of the file to lock (it need not exist).
 * @param root the project root, when `file` lies inside it: the lock's temporary file is checked
 *   where it was made ({@link checkOpenedPath}) before the pid is written into it.
 * @returns a function that releases the lock (removes it if it is still this process's).
 * @throws {LockedError} when a live process holds the lock; the fs error when the lock cannot be
 *   made (EACCES on the directory…).
 */
export function lockFile(file: string, root?: string): () => void {
  const lock = path.join(path.dirname(file), `.${path.basename(file)}.docdrift.lock`);
  const temp = tempName(lock);
  const fd = nodeFs.openSync(temp, 'wx', 0o600);
  const made = nodeFs.fstatSync(fd);
  try {
    // Made where the lock goes, not through a folder that became a link meanwhile (s32 sweep D1).
    if (root !== undefined) checkOpenedPath(root, temp, made, { shown: path.relative(root, file).split(path.sep).join('/') });
    const start = processStart(process.pid);
    nodeFs.writeSync(fd, start === undefined ? `${process.pid}\n` : `${process.pid} ${start}\n`);
  } catch (error) {
    nodeFs.closeSync(fd);
    if (names(nodeFs, temp, made)) nodeFs.rmSync(temp, { force: true });
    throw error;
  }
  nodeFs.closeSync(fd);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        nodeFs.linkSync(temp, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = readLock(lock);
        if (owner === undefined) {
          // Released meanwhile: try again (a lock that cannot be read at all fails the third time).
          if (attempt < 2) continue;
          throw error;
        }
        // No run's lock (pid 0) that could not be removed: say what is there, not "a run of pid 0".
        if (attempt > 0 && owner.pid === 0) throw new LockedError(file, 0, lock, whatIsAt(lock));
        if (lockHeld(lock, owner) || attempt > 0) throw new LockedError(file, owner.pid, lock);
        // A killed run's lock: taken over once.
        try {
          nodeFs.unlinkSync(lock);
        } catch {
          // removed by someone else meanwhile
        }
      }
    }
  } finally {
    nodeFs.rmSync(temp, { force: true });
  }
  heldHere.add(lock);
  return () => {
    heldHere.delete(lock);
    if (lockOwner(lock) === process.pid) nodeFs.rmSync(lock, { force: true });
  };
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File-system calls (tests inject failures and races). */
  fs?: AtomicFs;
  /**
   * The stamp the file had when its text was read (`--fix`): checked again right before the
   * rename, and, through `held`, after it.
   */
  expect?: FileStamp;
  /**
   * A descriptor open on the file that is replaced (the inode with stamp `expect`): after the
   * rename its stamp must be unchanged, else an edit landed in the replaced file while it was
   * being replaced; that text is then put back and the write is refused.
   */
  held?: number;
  /**
   * Flush the data and the directory entry to the disk before returning (fsync(2)); default true.
   * The caches pass false: their files are signed and checked on every read, so one that a
   * power loss truncates is only a miss, and two fsyncs cost more than a whole incremental run's
   * rules on some disks. The rename is atomic either way.
   */
  durable?: boolean;
  /**
   * Called once every chunk is written: bytes it returns are written at offset 0, over the first
   * bytes of the new text (a header whose value is known only once the rest is: the caches'
   * signature of a body that is streamed, never held whole). Same length as what they replace.
   */
  header?: () => Uint8Array;
  /**
   * The project root, when `file` lies inside it: the temporary file is checked where it was
   * created, right after it is, and again right before the rename ({@link checkOpenedPath}), so a
   * folder on the way that became a symbolic link while the run linted puts neither the temporary
   * file nor the written one outside the project; the write is refused with a
   * {@link PathChangedError} and the temporary file removed. Without it only the start-time check
   * of the caller ({@link checkWriteTarget}) applies.
   */
  root?: string;
}

/** Reads all bytes of an open descriptor from offset 0. */
function readAll(fs: AtomicFs, fd: number): Buffer {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const chunk = Buffer.alloc(1 << 16);
    const n = fs.readSync(fd, chunk, 0, chunk.length, offset);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    offset += n;
  }
  return Buffer.concat(chunks);
}

/**
 * Replaces (or creates) a file atomically: writes a temporary file
 * `.<name>.docdrift-<pid>-<random>.tmp` in the same directory (created exclusively, so never
 * through a link), gives it the replaced file's owner (uid/gid) and permission bits, fsyncs it
 * (unless `durable: false`),
 * renames it over `file` (POSIX rename(2) is atomic within one file system and replaces a
 * symlink rather than following it) and fsyncs the directory. A new file gets the umask's mode.
 * On any failure the temporary file is removed and `file` is left as it was, so a full disk
 * never leaves a truncated file.
 *
 * With `expect`, the file's stamp is compared right before the rename; with `held`, the
 * replaced inode's stamp right after it (see {@link AtomicWriteOptions}).
 *
 * @param file absolute path; an existing one must be a regular file (not a symlink).
 * @param data the new content: text (written as UTF-8), bytes, or chunks of bytes written in order
 *   (an iterable: a generator's chunks are made one at a time while they are written; what it
 *   throws is thrown here, after the temporary file is removed).
 * @throws {WriteError} when `file` is not a regular file or was edited meanwhile; the
 *   underlying `NodeJS.ErrnoException` when a step fails (EACCES, ENOSPC, EPERM for an owner
 *   that cannot be kept).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<Uint8Array>, options: AtomicWriteOptions | AtomicFs = {}): void {
  const opts: AtomicWriteOptions = 'openSync' in options ? { fs: options } : options;
  const fs = opts.fs ?? nodeFs;
  let existing: nodeFs.Stats | undefined;
  try {
    existing = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing && !existing.isFile()) throw new WriteError(`${file} is not a regular file${existing.isSymbolicLink() ? ' (a symlink)' : ''}; not written`);
  const temp = tempName(file);
  const shown = opts.root === undefined ? file : path.relative(opts.root, file).split(path.sep).join('/');
  let fd: number | undefined;
  /** The temporary file made, once it is: only that file is removed on a failure. */
  let made: FileIdentity | undefined;
  try {
    fd = fs.openSync(temp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
    made = fs.fstatSync(fd);
    // Where the kernel put it, not where the caller checked before the run (s32 sweep D1).
    if (opts.root !== undefined) checkOpenedPath(opts.root, temp, made, { fs, shown });
    // Chunks are written in order, so a caller need not join them into one copy (the per-file cache's signature and body).
    for (const bytes of typeof data === 'string' ? [Buffer.from(data, 'utf8')] : data instanceof Uint8Array ? [data] : data) {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    }
    if (opts.header) {
      const head = opts.header();
      let written = 0;
      while (written < head.length) written += fs.writeSync(fd, head, written, head.length - written, written);
    }
    if (existing) {
      // Running as root (or as a member of the file's group) the replacement would otherwise be
      // owned by docdrift's user: keep the owner. chown clears set-id bits, so chmod follows it.
      const uid = process.geteuid?.();
      if (uid !== undefined && (existing.uid !== uid || existing.gid !== process.getegid?.())) fs.fchownSync(fd, existing.uid, existing.gid);
      // open() applied the umask; the original's bits are restored explicitly.
      fs.fchmodSync(fd, existing.mode & 0o7777);
    }
    if (opts.durable !== false) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    if (opts.expect) {
      let now: FileStamp | undefined;
      try {
        now = stampOf(fs.statSync(file));
      } catch {
        // gone: changed
      }
      if (!now || !sameStamp(now, opts.expect)) throw new WriteError(`${file} changed on disk while docdrift ran; not written`);
    }
    // The rename resolves the folder again: it must still be the one the temporary file was made in.
    if (opts.root !== undefined) checkOpenedPath(opts.root, temp, made, { fs, shown });
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    }
    // Only the file this write made, wherever the path leads now (through a link put in its way too).
    if (made && names(fs, temp, made)) {
      try {
        fs.unlinkSync(temp);
      } catch {
        // already gone
      }
    }
    throw error;
  }
  if (opts.durable !== false) syncDirectory(fs, path.dirname(file));
  if (opts.held !== undefined && opts.expect) {
    const after = stampOf(fs.fstatSync(opts.held));
    if (!sameStamp(after, opts.expect)) {
      // An edit landed in the old file between the check and the rename: the user's text wins.
      writeFileAtomic(file, readAll(fs, opts.held), { fs, ...(opts.root === undefined ? {} : { root: opts.root }) });
      throw new WriteError(`${file} was edited while docdrift replaced it; the edited text was put back; not written`);
    }
  }
}

/** fsyncs a directory so the rename survives a crash; platforms that cannot do it are skipped. */
function syncDirectory(fs: AtomicFs, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // EISDIR/EINVAL/EPERM on some platforms: the data itself is already synced
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // nothing to do
      }
    }
  }
}
