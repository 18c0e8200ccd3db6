#!/usr/bin/env node
/**
 * Copies the Python grammar's WebAssembly build into grammars/ (issue #34 item 1): docdrift parses
 * Python with web-tree-sitter and needs only `tree-sitter-python.wasm`, while the
 * `tree-sitter-python` package also carries an install script that builds a native addon docdrift
 * never loads (and npm warns about it in every project that installs docdrift). So the package is
 * not a dependency: this script fetches its tarball from the npm registry (`npm pack`), takes the
 * `.wasm` from it, and writes next to it `tree-sitter-python.json` with the package version, the
 * tarball's integrity and the file's sha256, which test/grammar.test.ts checks against the file.
 *
 * Usage: node scripts/vendor-grammar.mjs [version]   (default: the version recorded in
 * grammars/tree-sitter-python.json; pick one whose ABI web-tree-sitter supports, and run
 * test/grammar.test.ts and the Python extractor tests after changing it). Commit both files.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recordFile = path.join(root, 'grammars/tree-sitter-python.json');
const wasmFile = path.join(root, 'grammars/tree-sitter-python.wasm');
const recorded = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : undefined;
const version = process.argv[2] ?? recorded?.version;
if (!version) {
  console.error('vendor-grammar: give the tree-sitter-python version to take (no grammars/tree-sitter-python.json yet)');
  process.exit(2);
}

const work = mkdtempSync(path.join(tmpdir(), 'docdrift-grammar-'));
try {
  // --ignore-scripts: the package's own scripts never run; only its published files are read.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `tree-sitter-python@${version}`, '--json', '--ignore-scripts', '--pack-destination', work], { cwd: work, encoding: 'utf8' }),
  )[0];
  execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work, 'package/tree-sitter-python.wasm']);
  const wasm = readFileSync(path.join(work, 'package/tree-sitter-python.wasm'));
  writeFileSync(wasmFile, wasm);
  const record = {
    package: 'tree-sitter-python',
    version: packed.version,
    file: 'tree-sitter-python.wasm',
    tarballIntegrity: packed.integrity,
    sha256: createHash('sha256').update(wasm).digest('hex'),
    bytes: wasm.length,
  };
  writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`vendor-grammar: grammars/tree-sitter-python.wasm from tree-sitter-python@${record.version} (sha256 ${record.sha256})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
