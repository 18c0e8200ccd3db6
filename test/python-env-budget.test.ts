/** The run's budget of Python environment reads (#33 s49 sweep L7): which sources are scanned for them, and that every source of scans agrees. */
import { describe, expect, it } from 'vitest';
import { countEnvMentions, MAX_PYTHON_ENV_MENTIONS, pythonSourcesOverEnvBudget } from '../src/extract/python/env-scan.js';
import { extractPython, scanPythonSources, type PythonSource, type ScanCache } from '../src/extract/python/index.js';
import type { ModuleInfo } from '../src/extract/python/scan.js';

/** A module of `n` reads `V{i} = os.environ.get("{tag}_{i}", "d")`, the shape of the sweep's generated modules. */
function reads(file: string, tag: string, n: number): PythonSource {
  return { file, text: `import os\n${Array.from({ length: n }, (_, i) => `V${i} = os.environ.get("${tag}_${i}", "d")\n`).join('')}` };
}

/** A scan cache over a map (what the engine's per-file cache does), keyed by file and module. */
function mapCache(): ScanCache & { map: Map<string, ModuleInfo> } {
  const map = new Map<string, ModuleInfo>();
  return { map, get: (s, m) => map.get(`${s.file}:${m}`), set: (s, m, info) => void map.set(`${s.file}:${m}`, info) };
}

const names = (vars: ReadonlyArray<{ name: string }>): string[] => [...new Set(vars.map((v) => v.name))].sort();

describe('countEnvMentions', () => {
  it('counts the words environ, getenv and putenv, not longer words holding them', () => {
    expect(countEnvMentions('import os\nA = os.environ["A"]\nB = os.getenv("B")\nos.putenv("C", "1")\nenvironment = 1\nmy_getenv = 2\n')).toBe(3);
    expect(countEnvMentions('x = 1\n')).toBe(0);
  });
});

describe('pythonSourcesOverEnvBudget', () => {
  const a = reads('pkg/a.py', 'A', 4);
  const b = reads('pkg/b.py', 'B', 4);
  const c = reads('pkg/c.py', 'C', 2);
  it('keeps the sources in order while their mentions fit, skips one that would pass the limit, and takes a later one that fits', () => {
    expect(pythonSourcesOverEnvBudget([a, b, c], undefined, 7)).toEqual({ files: new Set(['pkg/b.py']), counted: 6 });
  });
  it('counts the sources always scanned first, and never leaves them out', () => {
    expect(pythonSourcesOverEnvBudget([a, b, c], (s) => s.file === 'pkg/c.py', 7)).toEqual({ files: new Set(['pkg/b.py']), counted: 6 });
    expect(pythonSourcesOverEnvBudget([a, b, c], (s) => s.file === 'pkg/b.py', 5)).toEqual({ files: new Set(['pkg/a.py', 'pkg/c.py']), counted: 4 });
  });
  it('leaves nothing out under the limit, nor in a project of real size', () => {
    expect(pythonSourcesOverEnvBudget([a, b, c], undefined, 10).files.size).toBe(0);
    expect(pythonSourcesOverEnvBudget(Array.from({ length: 40 }, (_, i) => reads(`pkg/m${i}.py`, `E${i}`, 50))).files.size).toBe(0);
  });
  it('leaves out the sweep-shaped modules past 10,000 mentions', () => {
    const generated = Array.from({ length: 25 }, (_, i) => reads(`pkg/m${String(i).padStart(2, '0')}.py`, `E${i}`, 500));
    const over = pythonSourcesOverEnvBudget(generated);
    expect(MAX_PYTHON_ENV_MENTIONS).toBe(10_000);
    expect(over.counted).toBe(10_000);
    expect([...over.files]).toEqual(generated.slice(20).map((s) => s.file));
  });
});

describe('extractPython with a budget of environment reads', () => {
  const sources = [reads('pkg/a.py', 'A', 4), reads('pkg/b.py', 'B', 4), reads('pkg/c.py', 'C', 2)];
  const budget = { ...pythonSourcesOverEnvBudget(sources, undefined, 7), limit: 7 };

  it('reads no variable of a source left out, and says which sources those are', async () => {
    const out = await extractPython(sources, { packageRoots: [], envBudget: budget });
    expect(names(out.env.vars)).toEqual(['A_0', 'A_1', 'A_2', 'A_3', 'C_0', 'C_1']);
    expect(out.overEnvBudget).toEqual({ files: ['pkg/b.py'], counted: 6, limit: 7 });
    const full = await extractPython(sources, { packageRoots: [] });
    expect(full.overEnvBudget).toBeUndefined();
    expect(names(full.env.vars)).toHaveLength(10);
  });

  it('gives the same result from cached scans made with or without the budget', async () => {
    const expected = await extractPython(sources, { packageRoots: [], envBudget: budget });
    // Scans stored by a run with no budget: the left-out source's reads are dropped.
    const fullCache = mapCache();
    await extractPython(sources, { packageRoots: [], scans: fullCache });
    const fromFull = await extractPython(sources, { packageRoots: [], scans: fullCache, envBudget: budget });
    expect(fromFull.env).toEqual(expected.env);
    expect(fromFull.overEnvBudget).toEqual(expected.overEnvBudget);
    // Scans stored by a run with the budget: a later run without it scans that source again.
    const cutCache = mapCache();
    await extractPython(sources, { packageRoots: [], scans: cutCache, envBudget: budget });
    expect(cutCache.map.get('pkg/b.py:pkg.b')?.envUnscanned).toBe(true);
    const fromCut = await extractPython(sources, { packageRoots: [], scans: cutCache });
    expect(names(fromCut.env.vars)).toHaveLength(10);
    expect(fromCut.overEnvBudget).toBeUndefined();
  });

  it('takes the scan worker\'s scans made with `noEnv` as its own', async () => {
    const expected = await extractPython(sources, { packageRoots: [], envBudget: budget });
    const theirs = await scanPythonSources(sources.map((s) => ({ ...s, ...(budget.files.has(s.file) ? { noEnv: true } : {}) })), []);
    expect(theirs.find(([file]) => file === 'pkg/b.py')?.[2].envReads).toBeUndefined();
    expect(theirs.find(([file]) => file === 'pkg/a.py')?.[2].envReads).toHaveLength(4);
    const shared = await extractPython(sources, { packageRoots: [], envBudget: budget, shared: { files: new Set(sources.map((s) => s.file)), scans: Promise.resolve(new Map(theirs.map(([f, m, info]) => [f, [m, info] as const]))) } });
    expect(shared.env).toEqual(expected.env);
  });
});
