/**
 * The Node.js API (src/index.ts, package.json `exports`, docs/api.md) against the command line:
 * `lint` gives the report `--format json` prints and the same exit code, the formatters turn that
 * report into what `--format stylish|sarif|github` print, `fix` fixes (or shows a diff) like
 * `--fix`, `loadConfig` reads configs as the command does. From the sources, in this process; the
 * packed package is imported from a fresh project (ESM and CommonJS) in test/package.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DocdriftError, fix, formatters, lint, loadConfig, ruleIds, version } from '../src/index.js';
import { CLI_BIN, removeTempDirs, tempDir } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

afterAll(removeTempDirs);

/** The bundled command on the example, as users run it. */
function cli(args: string[], cwd = EXAMPLE) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('lint', () => {
  it('returns the report `docdrift --format json` prints, its exit code and its stderr lines', async () => {
    const result = await lint({ root: EXAMPLE, cache: false });
    const command = cli(['--format', 'json', '--no-cache']);
    expect(result.exitCode).toBe(command.code);
    expect(result.exitCode).toBe(1);
    expect(result.report).toEqual(JSON.parse(command.stdout));
    expect(result.report.results.length).toBeGreaterThan(0);
    expect(result.log).toEqual(command.stderr.trim().split('\n').map((l) => l.replace(/^docdrift: /, '')));
  });

  it('reports only in `files`, as `docdrift [paths…]` does', async () => {
    const result = await lint({ root: EXAMPLE, cache: false, files: [path.join(EXAMPLE, 'benchmarks/gpqa')] });
    expect(new Set(result.report.results.map((r) => r.file))).toEqual(new Set(['benchmarks/gpqa/README.md']));
  });

  it('throws a DocdriftError with the command message and exit code 2 when no report can be made', async () => {
    const error = await lint({ root: EXAMPLE, config: path.join(EXAMPLE, 'missing.json') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocdriftError);
    expect((error as DocdriftError).exitCode).toBe(2);
    expect((error as DocdriftError).message).toContain('missing.json');
  });
});

describe('formatters', () => {
  it('turn a lint report into exactly what the command prints with --format', async () => {
    const { report } = await lint({ root: EXAMPLE, cache: false });
    for (const format of ['stylish', 'sarif', 'github'] as const) {
      const text = formatters[format](report, { root: EXAMPLE });
      // The command ends what it prints with a newline.
      expect(text.endsWith('\n') ? text : `${text}\n`, format).toBe(cli(['--format', format, '--no-cache']).stdout);
    }
    expect(JSON.parse(formatters.json(report, { root: EXAMPLE }))).toEqual(report);
  });
});

describe('fix', () => {
  it('with dryRun returns the diff of --fix-dry-run and writes nothing', async () => {
    const root = tempDir('docdrift-api-fix-');
    cpSync(EXAMPLE, root, { recursive: true });
    const page = path.join(root, 'docs/reference/cli-commands.mdx');
    const before = readFileSync(page, 'utf8');
    const result = await fix({ root, cache: false, dryRun: true });
    expect(result.diff).toContain('+| `resume_from_cache` | bool |');
    expect(result.diff).toBe(cli(['--fix-dry-run', '--no-cache', '--output-file', path.join(tempDir('docdrift-api-out-'), 'r.json')], root).stdout);
    expect(readFileSync(page, 'utf8')).toBe(before);
  });

  it('writes the fixes and returns the findings that remain', async () => {
    const root = tempDir('docdrift-api-fix-');
    cpSync(EXAMPLE, root, { recursive: true });
    const before = await lint({ root, cache: false });
    const result = await fix({ root, cache: false });
    expect(result.diff).toBeUndefined();
    expect(readFileSync(path.join(root, 'docs/reference/cli-commands.mdx'), 'utf8')).toContain('| `resume_from_cache` | bool |');
    expect(result.report.results.length).toBeLessThan(before.report.results.length);
    expect(result.report).toEqual((await lint({ root, cache: false })).report);
  });
});

describe('loadConfig', () => {
  it('reads the config found in the root, with the defaults filled in', () => {
    const root = tempDir('docdrift-api-config-');
    writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify({ rules: { 'example-param-unexplained': 'off' } }));
    const loaded = loadConfig(root);
    expect(loaded.file).toBe(path.join(root, 'docdrift.config.json'));
    expect(loaded.config.rules['example-param-unexplained']).toBe('off');
    expect(loaded.config.docs.length).toBeGreaterThan(0);
    expect(loaded.warnings).toEqual([]);
    expect(loadConfig(EXAMPLE).file).toBeUndefined();
  });

  it('throws ConfigError naming the key for a bad config', () => {
    const root = tempDir('docdrift-api-config-');
    writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify({ rulez: {} }));
    expect(() => loadConfig(root)).toThrow(ConfigError);
    expect(() => loadConfig(root)).toThrow(/rulez/);
  });
});

it('exports the version and the rule ids', () => {
  expect(version).toBe((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  expect(ruleIds).toContain('example-param-unknown');
});
