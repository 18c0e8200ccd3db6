#!/usr/bin/env node
/**
 * Builds dist/ without the development dependencies: compiles the project (tsconfig.build.json)
 * with the TypeScript compiler that ts-morph, a production dependency, already bundles. The GitHub
 * Action installs with `npm ci --omit=dev` and runs this, so it needs neither `typescript` nor a
 * committed build. Type errors are not reported here (`npm run typecheck` and `npm run build` do
 * that in development and CI); the emitted JavaScript is the same as tsc's.
 *
 * Usage: node scripts/emit.mjs   (from any directory; writes <package>/dist). Exit 1 when the
 * config cannot be read or nothing was emitted.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const configPath = path.join(root, 'tsconfig.build.json');
const read = ts.readConfigFile(configPath, ts.sys.readFile);
if (read.error) {
  console.error(`emit: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  process.exit(1);
}
const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
// @types/* are development dependencies: without them, emit needs no type information at all.
const options = { ...parsed.options, types: [], noEmitOnError: false, skipLibCheck: true, noCheck: true };
const program = ts.createProgram({ rootNames: parsed.fileNames, options });
const result = program.emit();
const written = result.emitSkipped ? 0 : parsed.fileNames.length;
if (written === 0) {
  console.error('emit: nothing was emitted');
  process.exit(1);
}
