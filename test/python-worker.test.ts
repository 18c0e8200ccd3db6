/**
 * The Python flag extraction on the second core (src/engine/python-flags.ts): a run that extracts
 * the flags in the worker thread finds exactly what a run on the main thread finds. Runs the
 * compiled engine (dist/src, written by `npm test`'s build): the worker exists only there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist/src');
type Api = typeof import('../src/api.js');
type Load = typeof import('../src/config/load.js');
type Flags = typeof import('../src/engine/python-flags.js');
const compiled = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(DIST, file)).href)) as T;

/** Project folders with Python sources: every framework fixture, the first-run and unread-CLI fixtures, the example (the layout fixtures test where docs are, not code). */
function pythonProjects(): string[] {
  const folders = ['fixtures/frameworks', 'fixtures/first-run', 'fixtures/unread-cli'].flatMap((parent) =>
    readdirSync(path.join(ROOT, parent)).map((name) => path.join(ROOT, parent, name)).filter((dir) => statSync(dir).isDirectory()));
  const hasPython = (dir: string): boolean => readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.py'));
  return [path.join(ROOT, 'fixtures/example-python'), ...folders.filter(hasPython)];
}

/** The data of a value: Maps and Sets as arrays, functions (the model's lookups, closures of each run) left out. */
function plain(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value === 'function') return '[function]';
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  const out = value instanceof Map ? [...value].map(([k, v]) => [k, plain(v, seen)])
    : value instanceof Set || Array.isArray(value) ? [...value].map((v) => plain(v, seen))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, seen)]));
  seen.delete(value);
  return out;
}

describe('Python flags in a worker thread', () => {
  it('is started for any flag file, on any number of cores (its CPU budget bounds the extraction), unless told not to', async () => {
    const { wantsPythonWorker } = await compiled<Flags>('engine/python-flags.js');
    expect(wantsPythonWorker('auto', 512 * 1024, 2)).toBe(true);
    expect(wantsPythonWorker('auto', 1, 2)).toBe(true);
    expect(wantsPythonWorker('auto', 1, 1)).toBe(true);
    expect(wantsPythonWorker('auto', 0, 2)).toBe(false);
    expect(wantsPythonWorker('always', 1, 1)).toBe(true);
    expect(wantsPythonWorker('never', 512 * 1024 * 10, 8)).toBe(false);
  });

  it('gives the same findings, notes and model as the main thread on every Python fixture project', async () => {
    const { lint, ruleIds } = await compiled<Api>('api.js');
    const { loadConfig } = await compiled<Load>('config/load.js');
    const projects = pythonProjects();
    expect(projects.length).toBeGreaterThan(40);
    let usedWorker = 0;
    for (const root of projects) {
      let config;
      try {
        config = loadConfig(root, undefined, ruleIds).config;
      } catch {
        continue; // a fixture of a bad config (exit 2): nothing is extracted
      }
      const here = await lint({ root, config, pythonWorker: 'never' });
      const there = await lint({ root, config, pythonWorker: 'always' });
      expect(here.stats.pythonWorker, root).toBe(false);
      if (there.stats.pythonWorker) usedWorker++;
      expect(plain({ messages: there.messages, notes: there.notes, model: there.model, verdict: there.verdict }), root)
        .toEqual(plain({ messages: here.messages, notes: here.notes, model: here.model, verdict: here.verdict }));
    }
    // Projects whose Python files may define flags (most of them) used the worker.
    expect(usedWorker).toBeGreaterThan(projects.length / 2);
  }, 300_000);
});

describe('Python scans in a second thread (the scan worker)', () => {
  type PythonIndex = typeof import('../src/extract/python/index.js');

  it('takes the last sources of the budget order, about half of their text, with two cores and enough text', async () => {
    const { scanWorkerShare, PYTHON_SCAN_WORKER_MIN_CHARS } = await compiled<Flags>('engine/python-flags.js');
    const size = PYTHON_SCAN_WORKER_MIN_CHARS / 4;
    const files = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, chars: size }));
    expect(scanWorkerShare(files, (f) => f.chars, 2).map((f) => f.name)).toEqual(['d', 'e', 'f']);
    expect(scanWorkerShare(files, (f) => f.chars, 1)).toEqual([]);
    expect(scanWorkerShare(files, (f) => f.chars, 2, 4000)).toEqual([]);
    expect(scanWorkerShare(files, (f) => f.chars, 2, 3999).length).toBe(3);
    expect(scanWorkerShare(files.slice(0, 3), (f) => f.chars, 2)).toEqual([]);
    // One large source last: it alone is over half, so the worker takes nothing rather than more than half.
    expect(scanWorkerShare([...files, { name: 'big', chars: 10 * PYTHON_SCAN_WORKER_MIN_CHARS }], (f) => f.chars, 8)).toEqual([]);
  });

  it('estimates the class fields of a text from its annotated lines, over rather than under', async () => {
    const { estimatedClassFields } = await compiled<Flags>('engine/python-flags.js');
    const text = ['class A(BaseModel):', '    seed: int = 0', '    name: str', '    x = 1', 'class B:', '    def f(self, a: int) -> None:', '        y: int = 2', 'z: int = 3', ''].join('\n');
    // seed, name, the annotated local y; two classes count two each; x (no annotation) and z (module level) do not.
    expect(estimatedClassFields(text)).toBe(3 + 4);
  });

  it('gives the scans the main thread computes, and extractPython the same result with them', async () => {
    const { startPythonScans } = await compiled<Flags>('engine/python-flags.js');
    const { extractPython, scanPythonSources } = await compiled<PythonIndex>('extract/python/index.js');
    const roots = pythonProjects();
    const sources = roots.flatMap((root) =>
      readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.py'))
        .map((f) => ({ file: `${path.basename(root)}/${f.split(path.sep).join('/')}`, text: readFileSync(path.join(root, f), 'utf8') })),
    );
    expect(sources.length).toBeGreaterThan(100);
    const share = sources.filter((_, i) => i % 2 === 1);
    const pending = startPythonScans({ sources: share, packageRoots: [] });
    expect(pending).toBeDefined();
    const theirs = await pending!.scans;
    expect(theirs?.size).toBeGreaterThan(0);
    const here = await scanPythonSources(share, []);
    expect(plain([...theirs!].map(([file, [module, info]]) => [file, module, info]))).toEqual(plain(here));
    const alone = await extractPython(sources, { packageRoots: [] });
    const shared = await extractPython(sources, { packageRoots: [], shared: { files: new Set(share.map((s) => s.file)), scans: Promise.resolve(theirs) } });
    expect(plain(shared)).toEqual(plain(alone));
    // A worker that gave nothing: the main thread scans those files itself, to the same result.
    const failed = await extractPython(sources, { packageRoots: [], shared: { files: new Set(share.map((s) => s.file)), scans: Promise.resolve(undefined) } });
    expect(plain(failed)).toEqual(plain(alone));
  }, 120_000);
});
