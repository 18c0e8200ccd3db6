#!/usr/bin/env node
/**
 * Executable entry of the `docdrift` bin: turns on Node's compile cache where Node has one
 * (src/shared/compile-cache.ts), then loads and runs the CLI (src/run-bin.ts), or, for
 * `docdrift lsp`, the language server's process alone (src/lsp/run.ts: its main thread only
 * moves bytes; with the CLI loaded there, the server held 184-187 MB of RSS after its first lint of
 * fixtures/example-python, without it 155-158 MB).
 * The cache must be on before those modules load, hence the dynamic imports.
 */
import { enableCompileCache } from './shared/compile-cache.js';

enableCompileCache();
if (process.argv[2] === 'lsp') await import('./lsp/run.js');
else await import('./run-bin.js');
