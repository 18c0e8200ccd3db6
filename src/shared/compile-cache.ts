/**
 * Node's module compile cache (Node 22.1 and newer; `module.enableCompileCache`) for the `docdrift`
 * bin and its worker threads. Node keeps V8's compiled code of the modules a process loads on disk
 * (by default in `os.tmpdir()/node-compile-cache`, keyed by each file's content, so a new docdrift
 * never gets stale code), and a later run skips compiling them: the bundle is ~3 MB, plus a 12 MB
 * chunk (TypeScript's compiler) for projects with TypeScript or JavaScript. Node 20 has no compile
 * cache; `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
import module from 'node:module';

/** `module.enableCompileCache`'s result (Node 22.1+); absent on older Node. */
interface CompileCacheResult {
  status: number;
  directory?: string;
}
const enable = (module as { enableCompileCache?: (dir?: string) => CompileCacheResult }).enableCompileCache;

/**
 * Turns the compile cache on for this process (the bin calls it before loading the rest of
 * docdrift). A worker thread does not inherit it, so the cache directory is put in
 * `NODE_COMPILE_CACHE` (Node's own variable, which workers see in their copy of the environment)
 * for {@link enableCompileCacheInWorker}. Does nothing on Node without a compile cache.
 */
export function enableCompileCache(): void {
  const result = enable?.();
  if (result?.directory !== undefined && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = result.directory;
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
