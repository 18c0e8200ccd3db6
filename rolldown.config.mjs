// Bundles the `docdrift` bin (issue #15: start-up cost). `tsc` first compiles src/ and rules/ to
// dist/ (tests, the API and the bench use dist/src); this config then bundles the compiled CLI
// into dist/cli/: `docdrift.js` (the `bin` of package.json), `index.js` (the Node.js API, package.json
// `exports`), `parse-worker.js` (the document
// worker, which src/docs/bounded-parse.ts starts as `./parse-worker.js` next to itself),
// `typescript-worker.js` (started the same way by src/engine/typescript-facts.ts) and the
// chunks they share or load lazily (`import()` at a call site becomes a chunk loaded on demand).
// Loading one bundle costs a fraction of resolving and linking ~300 separate ESM files.
//
// Everything the bundle locates relative to `import.meta.url` must keep working from dist/cli/:
// - package.json (src/shared/package-info.ts): two levels up, as from dist/src/shared/;
// - codeFingerprint (src/engine/cache.ts): hashes dist/cli/ when running from it;
// - the worker: emitted next to the chunks (chunks are not put in a sub-folder);
// - tree-sitter-python's wasm: createRequire(import.meta.url).resolve from dist/cli/ finds the
//   same node_modules as from dist/src/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'rolldown';

/** The names the .js files under dist/src import from `specifier` with `import { a, b as c } from '…'` (value imports; tsc drops type-only ones). */
function importedNames(specifier) {
  const names = new Set();
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g');
  for (const file of readdirSync('dist/src', { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    for (const match of readFileSync(path.join('dist/src', file), 'utf8').matchAll(pattern)) {
      for (const part of (match[1] ?? '').split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/**
 * ts-morph is CommonJS (~12 MB with its copy of TypeScript). Imported from an ES module, Node 20
 * loads it through the ESM loader, which for every file the package requires runs its format
 * detection and cjs-module-lexer over the source before compiling it: ~150 ms of CPU more than
 * `require` (measured: `await import('ts-morph')` 600-780 ms vs `createRequire(...)('ts-morph')`
 * 460-550 ms of CPU, 8 runs each). This plugin turns the bundle's `import … from 'ts-morph'` into
 * a module that requires it.
 */
function requireTsMorph() {
  const id = '\0ts-morph-required';
  return {
    name: 'require-ts-morph',
    resolveId(source) {
      return source === 'ts-morph' ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      return [
        "import { createRequire } from 'node:module';",
        "const tsMorph = createRequire(import.meta.url)('ts-morph');",
        // Only the names dist/src imports (rolldown stops with MISSING_EXPORT if one is left out).
        ...[...importedNames('ts-morph')].map((name) => `export const ${name} = tsMorph.${name};`),
      ].join('\n');
    },
  };
}

export default defineConfig({
  input: {
    docdrift: 'dist/src/bin.js',
    // The Node.js API (package.json `exports`; its types: scripts/bundle.mjs writes index.d.ts).
    index: 'dist/src/index.js',
    'parse-worker': 'dist/src/docs/parse-worker.js',
    'typescript-worker': 'dist/src/engine/typescript-worker.js',
  },
  platform: 'node',
  plugins: [requireTsMorph()],
  external: [
    // ts-morph bundles TypeScript (~10 MB) and is loaded lazily, only for TypeScript projects:
    // `ts-morph` itself goes through requireTsMorph() above, so it is never bundled.
    /^ts-morph\//,
    /^typescript(\/|$)/,
    // web-tree-sitter's emscripten glue finds tree-sitter.wasm next to its own module
    // (new URL('tree-sitter.wasm', import.meta.url)) and uses direct eval: loaded from node_modules as is.
    /^web-tree-sitter(\/|$)/,
  ],
  resolve: {
    // jsonc-parser's `main` is a UMD build with dynamic requires (`require('./impl/format')`) that a
    // bundle cannot follow; its ESM build is the same code as static imports.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  },
  treeshake: {
    // zod declares "sideEffects": false, yet its index sets the English error messages with
    // config(en()) at load: dropped, a bad config/baseline says "Invalid input" without the detail.
    moduleSideEffects: [{ test: /[\\/]node_modules[\\/]zod[\\/]/, sideEffects: true }],
  },
  output: {
    dir: 'dist/cli',
    format: 'esm',
    // Stale chunks of an earlier build would otherwise stay, and count in codeFingerprint().
    cleanDir: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});
