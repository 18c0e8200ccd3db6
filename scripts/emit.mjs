#!/usr/bin/env node
/**
 * Builds dist/ without the development dependencies: transpiles each file of the build
 * (tsconfig.build.json) with the TypeScript compiler that ts-morph, a production dependency,
 * already bundles. The GitHub Action installs with `npm ci --omit=dev` and runs this, so it needs
 * neither `typescript` nor a committed build.
 *
 * Each file is transpiled on its own (`ts.transpileModule`: no type information, seconds rather
 * than the minute a full program takes on a busy runner). tsconfig.json sets `isolatedModules`,
 * so `npm run typecheck` refuses code that would not transpile alone; test/package.test.ts runs
 * the result. Type errors are not reported here: `npm run typecheck` and `npm run build` (tsc)
 * do that in development and CI.
 *
 * Usage: node scripts/emit.mjs   (from any directory; writes <package>/dist). Exit 1 when the
 * config cannot be read or a file does not transpile.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
const rootDir = parsed.options.rootDir ?? root;
const outDir = parsed.options.outDir ?? path.join(root, 'dist');
// "type": "module" makes every .ts file an ES module: ESNext output is what NodeNext emits for them.
const compilerOptions = {
  ...parsed.options,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  sourceMap: false,
  declaration: false,
  isolatedModules: true,
};
let failed = 0;
for (const file of parsed.fileNames) {
  if (file.endsWith('.d.ts')) continue;
  const out = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file, reportDiagnostics: true });
  for (const d of out.diagnostics ?? []) {
    console.error(`emit: ${path.relative(root, file)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    failed++;
  }
  const target = path.join(outDir, path.relative(rootDir, file)).replace(/\.([mc]?)ts$/, '.$1js');
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, out.outputText);
}
if (failed > 0 || parsed.fileNames.length === 0) process.exit(1);
