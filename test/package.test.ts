/**
 * docdrift as users install it (issues #16 and #34), with no network beyond the npm registry:
 * - `npm pack` → `npm install ./docdrift-x.y.z.tgz` into an empty project: only the runtime
 *   dependency (web-tree-sitter) at the newest version its caret range allows, no install-script
 *   warning; `npx docdrift` (the `bin`: the rolldown bundle, dist/cli/docdrift.js) on the
 *   example, compared with the checkout's build;
 * - the GitHub Action's install (.github/action/install.sh): build, pack, install the tarball,
 *   then run.sh runs the installed bin.
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
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  repository: { url: string };
  dependencies: Record<string, string>;
};
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

const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false' };
function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: NPM_ENV });
}

/** JSON results of a docdrift run on the example, as `[file, line, ruleId]` rows. */
function findings(stdout: string): Array<[string, number, string]> {
  return (JSON.parse(stdout) as { results: Array<{ file: string; line: number; ruleId: string }> }).results.map((r) => [r.file, r.line, r.ruleId]);
}

const reference = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/bin.js'), '--root', EXAMPLE, '--format', 'json', '--no-cache'], { encoding: 'utf8' });

/** The packages installed under `project` (`npm ls --all --parseable`), by `name@version`, without the project itself. */
function installed(project: string): string[] {
  const paths = npm(['ls', '--all', '--parseable', '--long'], project).trim().split('\n').slice(1);
  return [...new Set(paths.map((line) => line.split(':')[1]!))].sort();
}

describe('npm pack → npm install → npx docdrift', () => {
  let tarball = '';
  /** The empty project the tarball was installed into (by the second test). */
  let project = '';
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
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli/docdrift.js',
      'dist/cli/parse-worker.js',
      'dist/cli/typescript-worker.js',
      'grammars/tree-sitter-python.wasm',
      'grammars/tree-sitter-python.json',
      'rules/example-param-unknown.md',
      'docs/json-format.md',
    ]) {
      expect(files, f).toContain(f);
    }
    const ruleSources = files.filter((f) => /^rules\/[^/]+\.ts$/.test(f));
    expect(ruleSources).toEqual([]);
    // Only the bundle: no compiled modules (dist/src, dist/rules), tests, fixtures or source maps.
    expect(files.filter((f) => /^(src|test|fixtures|scripts|dist\/(src|rules|test))\//.test(f) || f.endsWith('.map'))).toEqual([]);
    const ruleDocs = files.filter((f) => /^rules\/.*\.md$/.test(f));
    expect(ruleDocs.length).toBeGreaterThanOrEqual(8);
  });

  it('passes publint and arethetypeswrong (release checks of package.json, exports and types)', () => {
    const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
    const publint = spawnSync(bin('publint'), ['--strict', tarball], { encoding: 'utf8' });
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    // cjs-resolves-to-esm: `require('docdrift')` loads the ES module, which Node does from 20.19
    // on (engines); the test below requires it from CommonJS.
    const attw = spawnSync(bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'ascii'], { encoding: 'utf8' });
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
  }, 120_000);

  it('installed as a dev dependency of an empty project: its runtime dependencies only, newest in range, no install-script warning; `npx docdrift` lints like the checkout does', () => {
    expect(reference.status).toBe(1);
    project = tmp('docdrift-consumer-');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
    // --prefer-online: the registry's newest versions within the ranges, not a cached listing.
    // The default log level, so that npm's warnings (install scripts not allowed) are seen.
    const install = spawnSync('npm', ['install', '-D', tarball, '--prefer-online', '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8', env: NPM_ENV });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout + install.stderr).not.toMatch(/install.?script|allowScripts|node-gyp/i);
    const packages = installed(project);
    expect(packages).toContain(`docdrift@${pkg.version}`);
    // The direct dependencies are package.json's, each at the newest version its range allows.
    for (const [name, range] of Object.entries(pkg.dependencies)) {
      expect(range, name).toMatch(/^\^\d/);
      const versions = JSON.parse(npm(['view', `${name}@${range}`, 'version', '--json', '--prefer-online'], project)) as string | string[];
      const newest = Array.isArray(versions) ? versions.at(-1) : versions;
      expect(packages, name).toContain(`${name}@${newest}`);
    }
    // Nothing the bundle inlines (remark, globby, zod, …), and no native grammar package.
    for (const inlined of ['unified', 'remark-parse', 'globby', 'zod', 'yaml', 'commander', 'ts-morph', 'typescript', 'tree-sitter-python']) {
      expect(packages.some((p) => p.startsWith(`${inlined}@`)), inlined).toBe(false);
    }
    cpSync(EXAMPLE, path.join(project, 'example'), { recursive: true });
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

  it('is importable by name from ESM and from CommonJS (the Node.js API), with type declarations', () => {
    expect(project, 'the install test ran').not.toBe('');
    // ESM: import; CommonJS: require of the ES module (Node >= 20.19).
    writeFileSync(
      path.join(project, 'esm.mjs'),
      "import { lint, formatters, version } from 'docdrift';\n" +
        "const r = await lint({ root: 'example', cache: false });\n" +
        "console.log(JSON.stringify({ version, exitCode: r.exitCode, results: r.report.results.length, stylish: formatters.stylish(r.report, { root: 'example' }).length > 0 }));\n",
    );
    writeFileSync(
      path.join(project, 'cjs.cjs'),
      "const { lint, loadConfig, ruleIds } = require('docdrift');\n" +
        "lint({ root: 'example', cache: false }).then((r) => console.log(JSON.stringify({ exitCode: r.exitCode, results: r.report.results.length, rules: ruleIds.length > 0, config: typeof loadConfig('example').config })));\n",
    );
    const expected = findings(reference.stdout).length;
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const r = spawnSync(process.execPath, [file], { cwd: project, encoding: 'utf8' });
      expect(r.status, `${file}: ${r.stderr}`).toBe(0);
      const out = JSON.parse(r.stdout) as { exitCode: number; results: number };
      expect(out, file).toMatchObject({ exitCode: 1, results: expected });
    }
    // The declarations type-check a consumer (strict, nodenext resolution through `exports`,
    // the package's own .d.ts checked too: skipLibCheck false).
    writeFileSync(
      path.join(project, 'check.mts'),
      [
        "import { lint, fix, formatters, loadConfig, DocdriftError, type JsonReport, type LintResult } from 'docdrift';",
        "const result: LintResult = await lint({ root: 'example', files: ['example/README.md'], cache: false });",
        'const report: JsonReport = result.report;',
        'const errors: number = report.summary.errors;',
        "const text: string = formatters.sarif(report, { root: 'example' });",
        "const fixed = await fix({ root: 'example', dryRun: true });",
        "const diff: string | undefined = fixed.diff;",
        "const docs: string[] = loadConfig('example').config.docs;",
        'const code: number = new DocdriftError("x", 2).exitCode;',
        'export { errors, text, diff, docs, code };',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: [] }, files: ['check.mts'] }),
    );
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  }, 120_000);
});

describe('the GitHub Action: install.sh packs the checkout and installs the tarball, run.sh runs its bin', () => {
  it('installs the packed bundle with the runtime dependencies only, and run.sh reports like the checkout does', () => {
    // A copy of the checkout as `uses:` gets it (the tracked files), without dist/ or node_modules.
    const action = tmp('docdrift-action-');
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && !f.startsWith('fixtures/') && !f.startsWith('test/') && existsSync(path.join(ROOT, f)));
    for (const f of tracked) {
      mkdirSync(path.dirname(path.join(action, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(action, f));
    }
    const runnerTemp = tmp('docdrift-runner-temp-');
    const output = path.join(runnerTemp, 'github-output');
    writeFileSync(output, '');
    const install = spawnSync('bash', [path.join(action, '.github/action/install.sh')], {
      encoding: 'utf8',
      env: { ...NPM_ENV, GITHUB_ACTION_PATH: action, RUNNER_TEMP: runnerTemp, GITHUB_OUTPUT: output },
    });
    expect(install.status, install.stderr).toBe(0);
    const bin = /^bin=(.*)$/m.exec(readFileSync(output, 'utf8'))?.[1] ?? '';
    expect(bin).toBe(path.join(runnerTemp, 'docdrift-action/install/node_modules/docdrift/dist/cli/docdrift.js'));
    // The installed package is the tarball's: its bundle only, beside its runtime dependencies.
    const installDir = path.join(runnerTemp, 'docdrift-action/install');
    expect(existsSync(path.join(installDir, 'node_modules/docdrift/dist/src'))).toBe(false);
    expect(existsSync(path.join(installDir, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(path.join(installDir, 'node_modules/unified'))).toBe(false);
    const r = spawnSync('bash', [path.join(action, '.github/action/run.sh')], {
      cwd: EXAMPLE,
      encoding: 'utf8',
      env: { ...process.env, DOCDRIFT_BIN: bin, INPUT_FORMAT: 'json', INPUT_SUMMARY: 'false', GITHUB_OUTPUT: output },
    });
    expect(r.status, r.stderr).toBe(1);
    expect(findings(r.stdout)).toEqual(findings(reference.stdout));
    expect(readFileSync(output, 'utf8')).toContain('exit-code=1');
  }, 600_000);
});
