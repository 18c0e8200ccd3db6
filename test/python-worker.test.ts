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
