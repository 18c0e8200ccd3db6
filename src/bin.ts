#!/usr/bin/env node
/**
 * Executable entry of the `docdrift` bin: turns on Node's compile cache where Node has one
 * (src/shared/compile-cache.ts), then loads and runs the CLI (src/run-bin.ts). The cache must be
 * on before those modules load, hence the dynamic import.
 */
import { enableCompileCache } from './shared/compile-cache.js';

enableCompileCache();
await import('./run-bin.js');
