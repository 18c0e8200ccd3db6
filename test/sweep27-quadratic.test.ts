/**
 * #33 s27 sweep D9 and D13: quadratic work on a config of many declared flags and on a monorepo of
 * many Python packages. Each fix is checked against the implementation it replaced (kept here as
 * the reference) on varied inputs, and at the sweep's size against a generous time bound.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { moduleNameForFile } from '../src/extract/python/module-name.js';
import { pythonPackageRoots } from '../src/engine/lint.js';
import { trimTrailing } from '../src/shared/strings.js';

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

// ---------------------------------------------------------------------------------------------
// D13: the reference, as src/extract/python/module-name.ts and src/engine/lint.ts had it.

function oldModuleNameForFile(file: string, packageRoots: string[] = ['src']): string {
  let p = file.replace(/\\/g, '/').replace(/^\.\//, '');
  let bestRoot = '';
  for (const raw of packageRoots) {
    const root = trimTrailing(raw.replace(/\\/g, '/').replace(/^\.\/?/, ''), '/');
    if (root !== '' && p.startsWith(`${root}/`) && root.length > bestRoot.length) bestRoot = root;
  }
  if (bestRoot !== '') p = p.slice(bestRoot.length + 1);
  p = p.replace(/\.pyi?$/, '');
  const parts = p.split('/').filter((x) => x !== '');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}

function oldPythonPackageRoots(packagingFiles: string[], sources: Array<{ file: string }>): string[] {
  const files = new Set(sources.map((s) => s.file));
  const roots = files.has('src/__init__.py') ? [] : ['src'];
  for (const file of packagingFiles) {
    const dir = path.posix.dirname(file);
    if (dir === '.' || files.has(`${dir}/__init__.py`)) continue;
    for (const root of [dir, `${dir}/src`]) if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

const SEGMENTS = ['src', 'libs', 'cli', 'pkg', 'a', 'b', 'tool', 'x.y', ''];

function d13Case(seed: number): { files: string[]; roots: string[]; packaging: string[] } {
  const r = rng(seed);
  const dir = (): string => Array.from({ length: Math.floor(r() * 4) }, () => pick(r, SEGMENTS)).join('/');
  const files = Array.from({ length: 40 }, () => {
    const d = dir();
    const leaf = pick(r, ['m.py', '__init__.py', 'stub.pyi', 'cli.py', 'notpy.txt', '__init__.pyi']);
    const f = d === '' ? leaf : `${d}/${leaf}`;
    return pick(r, [f, f, `./${f}`, f.replace(/\//g, '\\'), `/${f}`]);
  });
  const roots = Array.from({ length: Math.floor(r() * 10) }, () => pick(r, [dir(), `${dir()}/`, `./${dir()}`, `.${dir()}`, `${dir()}//`, dir().replace(/\//g, '\\'), '', '.', './']));
  const packaging = Array.from({ length: Math.floor(r() * 12) }, () => `${pick(r, [dir(), '.', 'libs/cli', 'libs/cli'])}/pyproject.toml`);
  return { files, roots, packaging };
}

describe('D13: Python module names and package roots, compared with the quadratic reference', () => {
  it('names every file alike for varied roots', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const { files, roots } = d13Case(seed);
      for (const file of files) {
        expect(moduleNameForFile(file, roots), `seed ${seed}: ${file} under ${JSON.stringify(roots)}`).toBe(oldModuleNameForFile(file, roots));
        // Asked again (the per-file memo answers): the same.
        expect(moduleNameForFile(file, roots)).toBe(oldModuleNameForFile(file, roots));
        expect(moduleNameForFile(file)).toBe(oldModuleNameForFile(file));
      }
    }
  });

  it('keeps the longest matching root', () => {
    const roots = ['libs', 'libs/cli', 'libs/cli/src', 'src'];
    expect(moduleNameForFile('libs/cli/src/dock/cli.py', roots)).toBe('dock.cli');
    expect(moduleNameForFile('libs/cli/dock/__init__.py', roots)).toBe('dock');
    expect(moduleNameForFile('libs/other/m.py', roots)).toBe('other.m');
    expect(moduleNameForFile('libsx/m.py', roots)).toBe('libsx.m');
  });

  it('lists the same roots in the same order', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { files, packaging } = d13Case(seed);
      const sources = files.map((file) => ({ file, text: '' }));
      if (seed % 3 === 0) sources.push({ file: 'src/__init__.py', text: '' }, { file: 'libs/cli/__init__.py', text: '' });
      expect(pythonPackageRoots(packaging, sources as never), `seed ${seed}`).toEqual(oldPythonPackageRoots(packaging, sources));
    }
  });

  it('names 5,000 files under 10,000 package roots in well under the budget', () => {
    const packaging = Array.from({ length: 5000 }, (_, i) => `pk/p${i}/pyproject.toml`);
    const sources = Array.from({ length: 5000 }, (_, i) => ({ file: `pk/p${i}/m.py`, text: 'x = 1\n' }));
    const started = performance.now();
    const roots = pythonPackageRoots(packaging, sources as never);
    // Several callers ask for every file.
    for (let round = 0; round < 4; round++) for (const s of sources) moduleNameForFile(s.file, roots);
    const ms = performance.now() - started;
    expect(roots).toHaveLength(10001);
    expect(moduleNameForFile('pk/p4999/m.py', roots)).toBe('m');
    expect(moduleNameForFile('pk/p7/src/pkg/__init__.py', roots)).toBe('pkg');
    expect(ms).toBeLessThan(3000);
  });
});
