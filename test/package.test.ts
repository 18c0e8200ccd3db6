/**
 * docdrift as users install it (issue #16 item 1 and 2), with no network beyond the npm registry
 * (packages come from npm's cache when it has them: --prefer-offline):
 * - `npm pack` → `npm install -D ./docdrift-x.y.z.tgz` into an empty project → `npx docdrift` (the
 *   `bin`: the rolldown bundle, dist/cli/docdrift.js) on the example, compared with the
 *   checkout's dist/src build;
 * - the GitHub Action's install: production dependencies only (`npm ci --omit=dev
 *   --ignore-scripts`), built with scripts/emit.mjs, then run.
 * Needs dist/ built first (`npm test` does); the tarball is packed with --ignore-scripts so the
 * test does not rebuild.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; repository: { url: string } };
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
}, 120_000);
function tmp(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

/** JSON results of a docdrift run on the example, as `[file, line, ruleId]` rows. */
function findings(stdout: string): Array<[string, number, string]> {
  return (JSON.parse(stdout) as { results: Array<{ file: string; line: number; ruleId: string }> }).results.map((r) => [r.file, r.line, r.ruleId]);
}

const reference = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/bin.js'), '--root', EXAMPLE, '--format', 'json', '--no-cache'], { encoding: 'utf8' });

describe('npm pack → npm install → npx docdrift', () => {
  let tarball = '';
  let files: string[] = [];
  beforeAll(() => {
    expect(existsSync(path.join(ROOT, 'dist/src/bin.js')), 'build first (npm run build)').toBe(true);
    const dest = tmp('docdrift-pack-');
    const out = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dest], ROOT)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(dest, out[0]!.filename);
    files = out[0]!.files.map((f) => f.path);
  }, 120_000);

  it('packs the built CLI, the rule pages, docs/, README and LICENSE, and no sources, tests or fixtures', () => {
    expect(path.basename(tarball)).toBe(`${pkg.name}-${pkg.version}.tgz`);
    for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/cli/docdrift.js', 'dist/cli/parse-worker.js', 'dist/src/bin.js', 'dist/src/cli.js', 'dist/rules/index.js', 'rules/example-param-unknown.md', 'docs/json-format.md']) {
      expect(files, f).toContain(f);
    }
    const ruleSources = files.filter((f) => /^rules\/[^/]+\.ts$/.test(f));
    expect(ruleSources).toEqual([]);
    expect(files.filter((f) => /^(src|test|fixtures|dist\/test)\//.test(f))).toEqual([]);
    const ruleDocs = files.filter((f) => /^rules\/.*\.md$/.test(f));
    expect(ruleDocs.length).toBeGreaterThanOrEqual(8);
  });

  it('installed as a dev dependency of an empty project, `npx docdrift` lints like the checkout does', () => {
    expect(reference.status).toBe(1);
    const project = tmp('docdrift-consumer-');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
    npm(['install', '-D', tarball, ...NPM_FLAGS], project);
    cpSync(EXAMPLE, path.join(project, 'example'), { recursive: true });
    // The grammar's WebAssembly build comes with the installed dependency, not from the checkout.
    expect(existsSync(path.join(project, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'))).toBe(true);
    const run = (args: string[]) => spawnSync('npx', ['--no-install', 'docdrift', ...args], { cwd: project, encoding: 'utf8' });
    const version = run(['--version']);
    expect(version.stdout.trim()).toBe(pkg.version);
    const r = run(['--root', 'example', '--format', 'json', '--no-cache']);
    expect(r.status, r.stderr).toBe(1);
    expect(findings(r.stdout)).toEqual(findings(reference.stdout));
    // Rule links derive from package.json `repository`.
    const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const sarif = run(['--root', 'example', '--format', 'sarif', '--no-cache']);
    expect(sarif.stdout).toContain(`"helpUri": "${repo}/blob/main/rules/example-param-unknown.md"`);
    // The rule pages the links name are in the package too.
    expect(existsSync(path.join(project, 'node_modules/docdrift/rules/example-param-unknown.md'))).toBe(true);
  }, 300_000);
});

describe('the GitHub Action install: production dependencies only', () => {
  it('npm ci --omit=dev --ignore-scripts, then scripts/emit.mjs, gives a working CLI without typescript or vitest', () => {
    const action = tmp('docdrift-action-');
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && !f.startsWith('fixtures/') && !f.startsWith('test/') && existsSync(path.join(ROOT, f)));
    for (const f of tracked) {
      mkdirSync(path.dirname(path.join(action, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(action, f));
    }
    npm(['ci', '--omit=dev', '--ignore-scripts', ...NPM_FLAGS], action);
    expect(existsSync(path.join(action, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(path.join(action, 'node_modules/vitest'))).toBe(false);
    execFileSync(process.execPath, [path.join(action, 'scripts/emit.mjs')], { cwd: action, stdio: 'pipe' });
    const r = spawnSync(process.execPath, [path.join(action, 'dist/src/bin.js'), '--root', EXAMPLE, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(1);
    expect(findings(r.stdout)).toEqual(findings(reference.stdout));
  }, 300_000);
});
