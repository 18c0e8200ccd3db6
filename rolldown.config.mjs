// Bundles the `docdrift` bin (issue #15: start-up cost). `tsc` first compiles src/ and rules/ to
// dist/ (tests and the bench use dist/src); this config then bundles the compiled CLI into
// dist/cli/: `docdrift.js` (the `bin` of package.json), `index.js` (the Node.js API, package.json
// `exports`), `parse-worker.js` (the document worker, which src/docs/bounded-parse.ts starts as
// `./parse-worker.js` next to itself),
// `typescript-worker.js` (started the same way by src/engine/typescript-facts.ts), `python-worker.js`
// (src/engine/python-flags.ts), `checker-worker.js` (the type checker's, src/extract/typescript/checked.ts) and the
// chunks they share or load lazily (`import()` at a call site becomes a chunk loaded on demand).
// Loading one bundle costs a fraction of resolving and linking ~300 separate ESM files.
//
// Everything the bundle locates relative to `import.meta.url` must keep working from dist/cli/:
// - package.json (src/shared/package-info.ts): two levels up, as from dist/src/shared/;
// - codeFingerprint (src/engine/cache.ts): hashes dist/cli/ when running from it;
// - the worker: emitted next to the chunks (chunks are not put in a sub-folder);
// - the Python grammar's wasm: grammars/ under the package root (src/extract/python/parser.ts).
//
// Every dependency is inlined except web-tree-sitter (issue #34) and unicode-name (the character
// names of Python's `\N{name}` escapes, 1.7 MB, loaded with `import()` only by a run whose Python
// sources hold a `\N{`: src/extract/python/unicode-names.ts), the package's runtime dependencies.
// ts-morph, with the TypeScript compiler it carries (~10 MB), is inlined too: it lands in a
// chunk of its own that only TypeScript/JavaScript projects load. Kept external, it and its
// dependencies made 11 of the 13 packages and 14 of the 26 MB an install of docdrift took;
// inlined, the install is 2 packages and 22 MB. Its cost: the 12 MB chunk is an ES module, which
// Node 20 loads ~0.1 s of CPU slower than `require` of ts-morph's CommonJS files; on Node
// 22+ the compile cache the bin enables (src/shared/compile-cache.ts) skips compiling it on later
// runs, which saves more than that (docs/caching.md).
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: {
    docdrift: 'dist/src/bin.js',
    // The Node.js API (package.json `exports`; its types: scripts/bundle.mjs writes index.d.ts).
    index: 'dist/src/index.js',
    'parse-worker': 'dist/src/docs/parse-worker.js',
    'typescript-worker': 'dist/src/engine/typescript-worker.js',
    'python-worker': 'dist/src/engine/python-worker.js',
    // The language server's thread (src/lsp/server.ts starts it as `./lsp-worker.js`, under a heap limit).
    'lsp-worker': 'dist/src/lsp/lsp-worker.js',
    'checker-worker': 'dist/src/extract/typescript/checker-worker.js',
  },
  platform: 'node',
  external: [
    // web-tree-sitter's emscripten glue finds tree-sitter.wasm next to its own module
    // (new URL('tree-sitter.wasm', import.meta.url)) and uses direct eval: loaded from node_modules as is.
    /^web-tree-sitter(\/|$)/,
    // Not inlined, so that the bundle does not carry its 1.6 MB of tables (#33 sweep H12).
    /^unicode-name(\/|$)/,
  ],
  resolve: {
    // jsonc-parser's `main` is a UMD build with dynamic requires (`require('./impl/format')`) that a
    // bundle cannot follow; its ESM build is the same code as static imports.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  },
  transform: {
    // CommonJS code bundled into ES modules (TypeScript's compiler, through ts-morph) reads these.
    define: { __filename: 'import.meta.filename', __dirname: 'import.meta.dirname' },
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
