/**
 * The bundled CLI (rolldown.config.mjs → dist/cli/, package.json `bin`) against the compiled
 * modules it is made from (dist/src/bin.js): same output, its own code fingerprint, and the files
 * it locates next to itself. Needs `npm run build` (`npm test` does it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { ownCodeDirs } from '../src/engine/cache.js';
import { CLI_BIN, removeTempDirs, tempDir, tempProject } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST_BIN = path.join(ROOT, 'dist/src/bin.js');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

afterAll(removeTempDirs);

function run(bin: string, args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the bundled bin', () => {
  it('is package.json `bin`, with the document worker emitted next to it', () => {
    expect(path.relative(ROOT, CLI_BIN)).toBe(path.join('dist', 'cli', 'docdrift.js'));
    expect(existsSync(CLI_BIN), 'npm run build').toBe(true);
    expect(existsSync(path.join(path.dirname(CLI_BIN), 'parse-worker.js'))).toBe(true);
    // Starts with the shebang npm's bin links need.
    expect(readFileSync(CLI_BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('prints the same JSON report and exit code as dist/src/bin.js on fixtures/example-python', () => {
    const args = ['--root', EXAMPLE, '--format', 'json', '--no-cache'];
    const bundled = run(CLI_BIN, args);
    const compiled = run(DIST_BIN, args);
    expect(bundled.code, bundled.stderr).toBe(1);
    expect(bundled.code).toBe(compiled.code);
    // Findings from the Python extractor (tree-sitter wasm) and from the docs worker are both there.
    const results = (JSON.parse(bundled.stdout) as { results: Array<{ file: string }> }).results;
    expect(results.some((r) => r.file.endsWith('.md'))).toBe(true);
    expect(bundled.stdout).toBe(compiled.stdout);
    expect(bundled.stderr).toBe(compiled.stderr);
  });

  it('reads its version from package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run(CLI_BIN, ['--version']).stdout.trim()).toBe(pkg.version);
  });

  it('writes caches that dist/src/bin.js does not reuse (its code fingerprint covers the bundle), and reuses its own', () => {
    const cache = tempDir('docdrift-bundle-cache-');
    const args = ['--root', EXAMPLE, '--format', 'json', '--cache-location', cache, '--debug'];
    const status = (bin: string) => /docdrift: cache (\w+)/.exec(run(bin, args).stderr)?.[1];
    expect(status(CLI_BIN)).toBe('miss');
    expect(status(CLI_BIN)).toBe('hit');
    expect(status(DIST_BIN)).toBe('miss');
    expect(status(DIST_BIN)).toBe('hit');
    expect(status(CLI_BIN)).toBe('miss');
  });
});

/** Runs the CLI in this process: from the TypeScript sources, where every stage runs in-thread (no compiled workers). */
async function runInThread(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, isTTY: false });
  return { code, stdout, stderr };
}

describe('TypeScript facts in a worker thread', () => {
  // A package.json `bin` running compiled JavaScript built from a commander program, a second `bin`
  // whose program cannot be read (over the 64 MB read limit: a `parse-error` the main thread must
  // report although the worker read it), and a README with a misspelled flag.
  const project = () => {
    const root = tempProject({
      'package.json': JSON.stringify({ name: 'srv', version: '1.0.0', type: 'module', bin: { srv: 'dist/cli.js', big: 'bin/big.js' } }),
      'src/cli.ts': [
        "import { Command } from 'commander';",
        'const program = new Command();',
        "program.name('srv').option('--port <n>', 'Port to listen on', '8080').option('--host <name>', 'Host name');",
        'program.parse();',
        '',
      ].join('\n'),
      'dist/cli.js': "#!/usr/bin/env node\nimport './../src/cli.js';\n",
      'bin/big.js': '',
      'README.md': ['# srv', '', '## `srv`', '', '| Option | Description |', '| --- | --- |', '| `--port` | Port to listen on. |', '', '```bash', 'npx srv --prot 80', '```', ''].join('\n'),
    });
    truncateSync(path.join(root, 'bin/big.js'), 65 * 1024 * 1024); // sparse: nothing is written
    return root;
  };

  it('gives the bundled bin the same report, notes and exit code as computing in-thread', async () => {
    const root = project();
    const args = ['--root', root, '--format', 'json', '--no-cache', '--debug'];
    const bundled = run(CLI_BIN, args);
    expect(bundled.stderr).toContain('; TypeScript facts in a worker thread\n');
    const inThread = await runInThread(args, root);
    expect(inThread.stderr).not.toContain('TypeScript facts in a worker thread');
    // The flag typo is found from the commander program the worker read.
    const results = (JSON.parse(bundled.stdout) as { results: Array<{ ruleId: string; message: string; file: string }> }).results;
    expect(results.some((r) => r.ruleId === 'example-param-unknown' && r.message.includes('`prot`'))).toBe(true);
    expect(results.some((r) => r.ruleId === 'parse-error' && r.file === 'bin/big.js')).toBe(true);
    expect(bundled.code).toBe(inThread.code);
    expect(bundled.stdout).toBe(inThread.stdout);
    const withoutTimings = (text: string) => text.replace(/^docdrift: \d+ source files.*\n/m, '');
    expect(withoutTimings(bundled.stderr)).toBe(withoutTimings(inThread.stderr));
  });

  // s47 sweep K1: the early worker was given the package.json files only, extraction also the
  // config's `program` as a bin of its own: the answer never matched, and every such run read
  // its TypeScript twice (3,000 modules: 19 s of CPU and 1 GB).
  it('uses the worker\'s answer when the config names the program (`commands.<name>.program`)', async () => {
    const root = project();
    writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify({ commands: { srvx: { program: 'src/cli.ts' } } }));
    const args = ['--root', root, '--format', 'json', '--no-cache', '--debug'];
    const bundled = run(CLI_BIN, args);
    expect(bundled.stderr).toContain('; TypeScript facts in a worker thread\n');
    const inThread = await runInThread(args, root);
    expect(bundled.code).toBe(inThread.code);
    expect(bundled.stdout).toBe(inThread.stdout);
  });

  it('falls back to computing in-thread when the worker module is missing, with the same report, and --debug does not claim the worker', () => {
    const root = project();
    const pkg = tempDir('docdrift-no-ts-worker-');
    cpSync(path.join(ROOT, 'dist', 'cli'), path.join(pkg, 'dist', 'cli'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
    symlinkSync(path.join(ROOT, 'grammars'), path.join(pkg, 'grammars'));
    rmSync(path.join(pkg, 'dist', 'cli', 'typescript-worker.js'));
    const args = ['--root', root, '--format', 'json', '--no-cache', '--debug'];
    const broken = run(path.join(pkg, 'dist', 'cli', 'docdrift.js'), args);
    const whole = run(CLI_BIN, args);
    expect(whole.stderr).toContain('TypeScript facts in a worker thread');
    expect(broken.stderr).not.toContain('TypeScript facts in a worker thread');
    expect(broken.code).toBe(whole.code);
    expect(broken.stdout).toBe(whole.stdout);
  });

  it('is not started when the per-file cache holds the facts, and the cached run reports the same', () => {
    const root = project();
    const cache = tempDir('docdrift-ts-worker-cache-');
    const args = ['--root', root, '--format', 'json', '--cache-location', cache, '--debug'];
    const first = run(CLI_BIN, args);
    expect(first.stderr).toContain('TypeScript facts in a worker thread');
    // A changed document misses the run cache but not the TypeScript piece.
    writeFileSync(path.join(root, 'README.md'), readFileSync(path.join(root, 'README.md'), 'utf8') + '\nMore text.\n');
    const second = run(CLI_BIN, args);
    expect(second.stderr).toMatch(/docdrift: cache miss/);
    expect(second.stderr).not.toContain('TypeScript facts in a worker thread');
    expect(second.stdout).toBe(run(CLI_BIN, ['--root', root, '--format', 'json', '--no-cache']).stdout);
  });
});

describe('a broken install', () => {
  it('without the document worker module exits 2 naming the problem, instead of waiting for the worker', () => {
    // A copy of the package whose dist/cli lost parse-worker.js (the dependencies and the grammar are linked).
    const pkg = tempDir('docdrift-broken-install-');
    cpSync(path.join(ROOT, 'dist', 'cli'), path.join(pkg, 'dist', 'cli'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
    symlinkSync(path.join(ROOT, 'grammars'), path.join(pkg, 'grammars'));
    rmSync(path.join(pkg, 'dist', 'cli', 'parse-worker.js'));
    const r = spawnSync(process.execPath, [path.join(pkg, 'dist', 'cli', 'docdrift.js'), '--root', EXAMPLE, '--no-cache'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      // Before the fix the run waited 60 s per worker start; a hang fails here with status null.
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^docdrift: the document parser could not start \(.*parse-worker\.js.*\); reinstall docdrift\n$/);
  });
});

describe('ownCodeDirs', () => {
  it('is the bundle folder when running from dist/cli', () => {
    expect(ownCodeDirs('/pkg/dist/cli')).toEqual(['/pkg/dist/cli']);
  });

  it('is dist/src and dist/rules when running from the compiled modules, src and rules from the sources', () => {
    expect(ownCodeDirs('/pkg/dist/src/engine')).toEqual(['/pkg/dist/src', '/pkg/dist/rules']);
    expect(ownCodeDirs('/pkg/src/engine')).toEqual(['/pkg/src', '/pkg/rules']);
  });
});
