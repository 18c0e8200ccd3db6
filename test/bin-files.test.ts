/**
 * What a package.json `bin` runs when its file name does not say (issue #30 item 3): an
 * extensionless script with a `node` shebang, a shell script handing over to `node`, bundled
 * output built from a JavaScript source by a build script or named like it.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { binFileKind, builtFrom, buildSteps, shebangInterpreter, shellTarget } from '../src/extract/typescript/bin-files.js';
import { findBinPrograms } from '../src/extract/typescript/programs.js';
import { declaredBinFiles, discoverFiles } from '../src/engine/discover.js';

describe('binFileKind', () => {
  it('tells JavaScript by a shebang, whatever the name', () => {
    expect(shebangInterpreter('#!/usr/bin/env node\nrequire("x")')).toBe('node');
    expect(shebangInterpreter('#!/usr/bin/env -S node --no-warnings\n')).toBe('node');
    expect(shebangInterpreter('#!/usr/local/bin/bun\n')).toBe('bun');
    expect(shebangInterpreter('require("x")')).toBeUndefined();
    expect(binFileKind('ezmesure-admin', '#!/usr/bin/env node\n')).toEqual({ kind: 'javascript' });
    expect(binFileKind('bin/x', '#!/usr/bin/env tsx\n')).toEqual({ kind: 'javascript' });
    expect(binFileKind('bin/x', '#!/usr/bin/env deno\n')).toEqual({ kind: 'javascript' });
    expect(binFileKind('bin/x.js', 'module.exports = 1')).toEqual({ kind: 'javascript' });
  });
  it('tells shell scripts by shebang or extension, and other interpreters', () => {
    expect(binFileKind('bin/run', '#!/bin/sh\nexec node x.js\n')).toEqual({ kind: 'shell', interpreter: 'sh' });
    expect(binFileKind('bin/run', '#!/usr/bin/env bash\n')).toEqual({ kind: 'shell', interpreter: 'bash' });
    expect(binFileKind('bin/create.sh', 'npx rdme@next openapi --github\n')).toEqual({ kind: 'shell', interpreter: 'sh' });
    expect(binFileKind('bin/tool', '#!/usr/bin/env python3\n')).toEqual({ kind: 'other', interpreter: 'python3' });
  });
});

describe('shellTarget', () => {
  const files = new Set(['lib/cli.js', 'bin/cli.js', 'pkg/dist/main.js']);
  const exists = (f: string): boolean => files.has(f);
  it('follows `node` to a literal path, from the script folder or the package', () => {
    expect(shellTarget('bin/run', '#!/bin/sh\nexec node "$(dirname "$0")/../lib/cli.js" "$@"\n', '', exists).target).toBe('lib/cli.js');
    expect(shellTarget('bin/run', '#!/bin/sh\nbasedir=x\nnode --no-warnings ${0%/*}/cli.js "$@"\n', '', exists).target).toBe('bin/cli.js');
    expect(shellTarget('bin/run', '#!/bin/bash\nexec node lib/cli.js "$@"\n', '', exists).target).toBe('lib/cli.js');
    expect(shellTarget('pkg/bin/run.sh', 'set -e\nNODE_OPTIONS=--x exec node `dirname $0`/../dist/main.js "$@"\n', 'pkg', exists).target).toBe('pkg/dist/main.js');
  });
  it('names the line when the path is not literal or no node runs', () => {
    expect(shellTarget('bin/run', '#!/bin/sh\nexec node "$APP_HOME/cli.js" "$@"\n', '', exists)).toEqual({ line: 'exec node "$APP_HOME/cli.js" "$@"', lineNumber: 2 });
    expect(shellTarget('packages/create/bin/create.sh', 'npx rdme@next openapi --github\n', 'packages/create', exists)).toEqual({ line: 'npx rdme@next openapi --github', lineNumber: 1 });
  });
});

describe('buildSteps', () => {
  it('reads bundler commands from package.json scripts', () => {
    const pkg = {
      file: 'package.json',
      text: JSON.stringify({
        scripts: {
          build: 'esbuild src/main.ts --bundle --platform=node --outfile=dist/cli.js && tsc',
          ncc: 'ncc build src/cli.js -o dist/ncc',
          tsup: 'tsup src/tool.ts --out-dir out',
          test: 'vitest run src/x.test.ts',
        },
      }),
    };
    const steps = buildSteps(pkg);
    expect(steps).toEqual([
      { input: 'src/main.ts', outFile: 'dist/cli.js' },
      { input: 'src/cli.js', outDir: 'dist/ncc' },
      { input: 'src/tool.ts', outDir: 'out' },
    ]);
    expect(builtFrom('dist/cli.js', steps)).toBe('src/main.ts');
    expect(builtFrom('dist/ncc/index.js', steps)).toBe('src/cli.js');
    expect(builtFrom('dist/ncc/cli.js', steps)).toBe('src/cli.js');
    expect(builtFrom('out/tool.js', steps)).toBe('src/tool.ts');
    expect(builtFrom('out/other.js', steps)).toBeUndefined();
  });
});

describe('findBinPrograms', () => {
  const run = (pkg: object, files: Record<string, string>, tsFiles: Record<string, string> = {}) =>
    findBinPrograms(
      [{ file: 'package.json', text: JSON.stringify(pkg) }],
      Object.entries(tsFiles).map(([file, text]) => ({ file, text })),
      new Set(Object.keys(files)),
      (f) => files[f] ?? tsFiles[f],
    );
  it('maps bundled output to the same-named JavaScript source (vercel/ncc)', () => {
    const found = run({ bin: { ncc: './dist/ncc/cli.js' } }, { 'src/cli.js': "require('arg')({ '--out': String })", 'src/index.js': '' });
    expect(found.bins[0]).toMatchObject({ name: 'ncc', source: 'src/cli.js' });
    expect(found.javascript.map((j) => j.file)).toContain('src/cli.js');
  });
  it('reads an extensionless root file with a node shebang', () => {
    const found = run({ bin: { tool: 'tool' } }, { tool: "#!/usr/bin/env node\nrequire('./lib/a')", 'lib/a.js': '' });
    expect(found.bins[0]?.source).toBe('tool');
    expect(found.javascript.map((j) => j.file)).toEqual(['tool', 'lib/a.js']);
  });
  it('follows a shell script to its JavaScript, or notes it without parsing it', () => {
    const followed = run({ bin: { x: 'bin/x.sh' } }, { 'bin/x.sh': '#!/bin/sh\nexec node "$(dirname "$0")/../lib/cli.js" "$@"\n', 'lib/cli.js': '' });
    expect(followed.bins[0]?.source).toBe('lib/cli.js');
    expect(followed.javascript.map((j) => j.file)).toEqual(['lib/cli.js']);
    const toTs = run({ bin: { x: 'bin/x' } }, { 'bin/x': '#!/bin/bash\nexec node "$(dirname "$0")/../dist/cli.js" "$@"\n' }, { 'src/cli.ts': '' });
    expect(toTs.bins[0]?.source).toBe('src/cli.ts');
    const noted = run({ bin: { create: './bin/create.sh' } }, { 'bin/create.sh': 'npx rdme@next openapi --github\n' });
    expect(noted.bins[0]).toMatchObject({ unread: { file: 'bin/create.sh', interpreter: 'sh', line: 1, construct: 'npx rdme@next openapi --github' } });
    expect(noted.bins[0]?.source).toBeUndefined();
    expect(noted.javascript).toEqual([]);
    const python = run({ bin: { p: 'bin/p' } }, { 'bin/p': '#!/usr/bin/env python3\nimport sys\n' });
    expect(python.bins[0]?.unread).toEqual({ file: 'bin/p', interpreter: 'python3' });
  });
});

describe('findBinPrograms with sizes', () => {
  it('refuses a program file over the cap on its size, never reading it (#33 F11), and an imported one too', () => {
    const read = vi.fn((f: string) => ({ 'bin/cli.js': "require('./big.js')", 'bin/big.js': '' })[f]);
    const sizes: Record<string, number> = { 'bin/huge.js': 60_000_000, 'bin/cli.js': 20, 'bin/big.js': 4 * 1024 * 1024 };
    const pkg = { file: 'package.json', text: JSON.stringify({ bin: { huge: 'bin/huge.js', cli: 'bin/cli.js' } }) };
    const found = findBinPrograms([pkg], [], new Set(Object.keys(sizes)), read, (f) => sizes[f]);
    expect(found.bins.map((b) => b.source)).toEqual(['bin/huge.js', 'bin/cli.js']);
    expect(found.tooLarge).toEqual([
      { file: 'bin/huge.js', reason: 'it is 58,594 KB, over the 3,072 KB limit for one JavaScript program file' },
      { file: 'bin/big.js', reason: 'it is 4,096 KB, over the 3,072 KB limit for one JavaScript program file' },
    ]);
    expect(read.mock.calls.map(([f]) => f).filter((f) => f === 'bin/huge.js' || f === 'bin/big.js')).toEqual([]);
    expect(found.imports.get('bin/cli.js')).toEqual(['bin/big.js']);
  });
});

describe('discovery lists the files bins name', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  it('adds an extensionless bin at the root, not one under an ignored folder', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tsgaps-bins-'));
    dirs.push(root);
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ bin: { a: 'ezmesure-admin', b: 'dist/b', c: 'missing' } }));
    writeFileSync(path.join(root, 'ezmesure-admin'), '#!/usr/bin/env node\n');
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist/b'), '#!/usr/bin/env node\n');
    const found = await discoverFiles(root, ['**/*.ts'], ['**/*.md'], [], 'globby');
    expect(found.programs).toContain('ezmesure-admin');
    expect(found.programs).not.toContain('dist/b');
    expect(declaredBinFiles(['package.json'], [], ['**/dist/**'], (f) => f === 'ezmesure-admin' || f === 'dist/b', () => JSON.stringify({ bin: { a: './ezmesure-admin', b: 'dist/b', up: '../x' } }))).toEqual(['ezmesure-admin']);
  });
});
