/**
 * Node's module compile cache (Node 22.1 and newer; `module.enableCompileCache`) for the `docdrift`
 * bin and its worker threads. Node keeps V8's compiled code of the modules a process loads on disk
 * (keyed by each file's content, so a new docdrift never gets stale code), and a later run skips
 * compiling them: the bundle is ~3 MB, plus a 12 MB chunk (TypeScript's compiler) for projects
 * with TypeScript or JavaScript. Node 20 has no compile cache; `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off.
 *
 * Node's default folder, `os.tmpdir()/node-compile-cache`, is shared by every user of the machine,
 * and Node checks neither its owner nor its mode: whoever creates it first controls the code bytes
 * V8 loads into every later docdrift run (#33 s26 sweep3 O4). docdrift uses a folder of its own
 * per user instead ({@link compileCacheDirectory}), and no compile cache at all when that folder
 * is not safely the user's. A `NODE_COMPILE_CACHE` the user set is the user's choice and is used.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `module.enableCompileCache`'s result (Node 22.1+); absent on older Node. */
interface CompileCacheResult {
  status: number;
  directory?: string;
}
const enable = (module as { enableCompileCache?: (dir?: string) => CompileCacheResult }).enableCompileCache;

/**
 * The compile cache folder for user `uid`: `<base>/docdrift-compile-cache-<uid>`, created with mode
 * 0700 when missing. Returns undefined (no compile cache) when it cannot be created, or when what
 * is there is not a real directory (a symbolic link, a file), is owned by another user, or is
 * writable by group or others. Where there are no user ids (Windows, whose temporary folder is
 * per user), Node's own default folder, `<base>/node-compile-cache`.
 *
 * @param base the parent folder, `os.tmpdir()` by default.
 * @param uid the user id, `process.getuid()` by default (undefined where there is none).
 * @returns an absolute path, or undefined. Never throws.
 */
export function compileCacheDirectory(base: string = tmpdir(), uid: number | undefined = process.getuid?.()): string | undefined {
  if (uid === undefined) return path.join(base, 'node-compile-cache');
  const dir = path.join(base, `docdrift-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns the compile cache on for this process (the bin calls it before loading the rest of
 * docdrift), in the user's `NODE_COMPILE_CACHE` when set, else in {@link compileCacheDirectory}
 * (none when that is not safe). A worker thread does not inherit it, so the folder is put in
 * `NODE_COMPILE_CACHE` (Node's own variable, which workers see in their copy of the environment)
 * for {@link enableCompileCacheInWorker}. Does nothing on Node without a compile cache, or with
 * `NODE_DISABLE_COMPILE_CACHE` set.
 */
export function enableCompileCache(): void {
  if (!enable || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const dir = process.env.NODE_COMPILE_CACHE || compileCacheDirectory();
  if (dir === undefined) return;
  const result = enable(dir);
  if (result?.directory !== undefined && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = result.directory;
}

/**
 * In a worker thread: turns the compile cache on when `NODE_COMPILE_CACHE` names a directory (the
 * bin's {@link enableCompileCache}, or the user's own setting), so the modules the worker loads
 * from then on (its dynamic imports: TypeScript's compiler in the TypeScript worker) are cached.
 * The Node.js API enables nothing itself: a host process that set no cache gets none.
 */
export function enableCompileCacheInWorker(): void {
  const dir = process.env.NODE_COMPILE_CACHE;
  if (dir) enable?.(dir);
}
