/**
 * The import graph follows docs/architecture.md: data flows one way (extract/docs → link → model
 * ← engine → report, rules given to the engine by the CLI), no folder imports a folder above it,
 * and no two folders (or files) import each other. Reads the relative imports of every `.ts` file
 * under src/ and rules/ with a regex over import/export lines (static `from '…'` and dynamic
 * `import('…')`); package imports are not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * What each folder may import (besides itself). `cli` is src/*.ts (cli.ts, bin.ts, init.ts,
 * api.ts): the wiring, which may import anything. Keep in step with docs/architecture.md.
 */
export const ALLOWED: Record<string, readonly string[]> = {
  shared: [],
  model: ['shared'],
  config: ['model', 'shared'],
  // Extractors and doc parsers describe what they read; options come in as arguments, not config imports.
  extract: ['model', 'shared'],
  docs: ['model', 'shared'],
  link: ['extract', 'docs', 'config', 'model', 'shared'],
  engine: ['link', 'extract', 'docs', 'config', 'model', 'shared'],
  // fix: edit builders the rules call (reference-edits, table, text) and `--fix` (apply, which lints again).
  fix: ['engine', 'docs', 'config', 'model', 'shared'],
  rules: ['fix', 'model', 'shared'],
  report: ['engine', 'rules', 'config', 'model', 'shared'],
  // lsp: the language server (src/lsp): the engine, rules and fixes wired like the CLI, without the CLI.
  lsp: ['report', 'rules', 'fix', 'engine', 'docs', 'config', 'model', 'shared'],
  cli: ['lsp', 'report', 'rules', 'fix', 'engine', 'link', 'extract', 'docs', 'config', 'model', 'shared'],
};

/**
 * File-level import cycles that are known and accepted, each with its reason. `cli.ts` runs
 * `docdrift init` (init.ts), which takes the CLI's I/O type from cli.ts (a type-only import).
 */
const ACCEPTED_FILE_CYCLES = new Set(['src/cli.ts -> src/init.ts -> src/cli.ts']);

/** Project-relative POSIX path → the project-relative `.ts` files it imports (relative specifiers only). */
export type ImportGraph = Map<string, string[]>;

const IMPORT = /(?:^|\n)[ \t]*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative import specifiers in a TypeScript source text, in order. */
export function importSpecifiers(text: string): string[] {
  // Comment lines (`// …`, ` * …`) may quote imports; they are not imports.
  const code = text.replace(/^[ \t]*(?:\/\/|\*).*$/gm, '');
  return [...code.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

function listTs(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.posix.join(path.relative(ROOT, e.parentPath).split(path.sep).join('/'), e.name));
}

/** The import graph of src/ and rules/. */
export function readImportGraph(): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of [...listTs('src'), ...listTs('rules')].sort()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const targets = importSpecifiers(text).map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** The folder (layer) a file belongs to: `rules`, `cli` for src/*.ts, else its first folder under src/. */
export function layerOf(file: string): string {
  if (file.startsWith('rules/')) return 'rules';
  const parts = file.split('/');
  return parts.length === 2 ? 'cli' : parts[1]!;
}

/** The node a file is in for the folder-cycle check: its layer, with extract/<language> apart. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[1] === 'extract' && parts.length > 3 ? `extract/${parts[2]}` : layerOf(file);
}

/** Imports that run against {@link ALLOWED}, as `from -> to (layer -> layer)`. */
export function flowViolations(graph: ImportGraph, allowed: Record<string, readonly string[]> = ALLOWED): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(from);
    for (const to of targets) {
      const b = layerOf(to);
      if (a === b) continue;
      if (!(allowed[a] ?? []).includes(b)) out.push(`${from} -> ${to} (${a} may not import ${b})`);
    }
  }
  return out;
}

/** Cycles in a graph whose nodes are `nodeOf(file)`, each as `a -> b -> a`, found by depth-first search. */
export function cycles(graph: ImportGraph, nodeOf: (file: string) => string = (f) => f): string[] {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = nodeOf(from);
      const b = nodeOf(to);
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
  }
  const found = new Set<string>();
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    stack.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      const at = stack.indexOf(next);
      if (at >= 0) found.add([...stack.slice(at), next].join(' -> '));
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    done.add(node);
  };
  for (const node of [...edges.keys()].sort()) if (!done.has(node)) visit(node);
  return [...found];
}

describe('import graph', () => {
  const graph = readImportGraph();

  it('reads the real imports of src/ and rules/', () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(graph.get('src/link/build.ts')).toContain('src/docs/reference-table.ts');
    // A dynamic import (ts-morph is loaded on first use) counts as an import.
    expect(graph.get('src/engine/typescript-facts.ts')).toContain('src/extract/typescript/index.ts');
    // Every import resolves to a file that exists.
    const missing = [...graph].flatMap(([from, targets]) => targets.filter((t) => !graph.has(t)).map((t) => `${from} -> ${t}`));
    expect(missing).toEqual([]);
  });

  it('has no import against the flow', () => {
    expect(flowViolations(graph)).toEqual([]);
  });

  it('has no folder-level cycle', () => {
    expect(cycles(graph, folderOf)).toEqual([]);
  });

  it('has no file-level cycle, type-only ones included, beyond the accepted ones', () => {
    expect(cycles(graph).filter((c) => !ACCEPTED_FILE_CYCLES.has(c))).toEqual([]);
  });

  it('the engine and the model do not import the rule registry', () => {
    const registryUsers = [...graph].filter(([, targets]) => targets.includes('rules/index.ts')).map(([from]) => from);
    expect(registryUsers.filter((f) => ['engine', 'model', 'link'].includes(layerOf(f)))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('finds an import against the flow and a folder cycle in a made-up graph', () => {
    const bad: ImportGraph = new Map([
      ['src/model/build.ts', ['src/docs/parse.ts']],
      ['src/docs/parse.ts', ['src/model/types.ts']],
      ['src/model/types.ts', []],
      ['src/engine/lint.ts', ['rules/index.ts']],
      ['rules/index.ts', ['src/engine/types.ts']],
      ['src/engine/types.ts', []],
    ]);
    expect(flowViolations(bad)).toEqual([
      'src/model/build.ts -> src/docs/parse.ts (model may not import docs)',
      'src/engine/lint.ts -> rules/index.ts (engine may not import rules)',
      'rules/index.ts -> src/engine/types.ts (rules may not import engine)',
    ]);
    expect(cycles(bad, folderOf).sort()).toEqual(['docs -> model -> docs', 'engine -> rules -> engine']);
  });

  it('reads static, type-only, re-export, multi-line and dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      'import {\n  d,\n  type E,\n} from "./d.js";',
      "const m = await import('./lazy.js');",
      "import x from 'picomatch';",
      " * `import { z } from './zod.js'` in a doc comment",
      "  // as in `await import('./cli.js')`",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './lazy.js']);
  });
});

/** The names each file imports from `target` (static imports, type-only ones included; a dynamic import counts as `*`). */
function namesImportedFrom(target: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const named = /(?:^|\n)[ \t]*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g;
  const dynamic = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const file of [...listTs('src'), ...listTs('rules')].sort()) {
    const code = readFileSync(path.join(ROOT, file), 'utf8').replace(/^[ \t]*(?:\/\/|\*).*$/gm, '');
    const resolve = (spec: string) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    const names: string[] = [];
    for (const m of code.matchAll(named)) {
      if (resolve(m[2]!) === target) names.push(...m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '')).filter((n) => n !== ''));
    }
    for (const m of code.matchAll(dynamic)) if (resolve(m[1]!) === target) names.push('*');
    if (names.length > 0) out.set(file, names.sort());
  }
  return out;
}

describe('the per-file cache is one layer under the stages (src/engine/facts.ts)', () => {
  it('only the fact cache imports the store API and its keys; the wiring imports the stores it hands to lint()', () => {
    expect(Object.fromEntries(namesImportedFrom('src/engine/pieces.ts'))).toEqual({
      // The layer itself: piece keys, the store's interface, the kinds kept under the whole extraction.
      'src/engine/facts.ts': ['CODE_PIECE_KINDS', 'PieceStore', 'pieceKey'],
      // The stores and who makes them: the CLI's on disk, `--fix`'s in memory, the language server's.
      'src/engine/cache.ts': ['FilePieceStore', 'piecesFile'],
      'src/fix/apply.ts': ['MemoryPieceStore'],
      'src/lsp/pieces.ts': ['PieceStore'],
      // The type of `LintOptions.pieces`, the store a caller gives.
      'src/engine/lint.ts': ['PieceStore'],
    });
  });

  it('lint() reads its caching options once, to build the fact cache, and passes nothing of the store down', () => {
    const code = readFileSync(path.join(ROOT, 'src/engine/lint.ts'), 'utf8').replace(/^[ \t]*(?:\/\/|\*).*$/gm, '');
    for (const option of ['pieces', 'hashes', 'pythonFacts', 'overlayHashed']) {
      expect([...code.matchAll(new RegExp(`\\boptions\\.${option}\\b`, 'g'))].length, option).toBe(1);
    }
    expect(code).toMatch(/new FactCache\(\{ store: options\.pieces, hashes: options\.hashes, pythonFacts: options\.pythonFacts, unhashedTexts: [^}]*options\.overlayHashed \}\)/);
    // No stage function takes a store.
    for (const file of ['src/engine/lint.ts', 'src/engine/doc-texts.ts', 'src/engine/typescript-facts.ts', 'src/engine/typescript-env.ts']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^[ \t]*(?:\/\/|\*).*$/gm, '');
      expect(text.match(/\w+\??: PieceStore\b(?! \| undefined;)/g) ?? [], file).toEqual(file === 'src/engine/lint.ts' ? ['pieces?: PieceStore'] : []);
    }
  });
});
