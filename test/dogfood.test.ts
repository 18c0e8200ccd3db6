/**
 * Dogfooding: docdrift's docs document its own CLI options (`CliOptions` in src/cli.ts, in
 * docs/cli.md) and config file (`DocdriftConfig` in src/config/schema.ts, in
 * docs/configuration.md) as references, and `npm run lint:docs` checks them and every other page.
 * These tests run the built CLI on this repository, and on a copy where an option was added to
 * the code without documenting it. The README stays short and links into docs/ (issue #32 item 5).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_KEYS, CONFIG_KEYS } from '../src/config/schema.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function lint(root: string) {
  const r = spawnSync(process.execPath, [BIN, '--root', root, '--format', 'json'], { encoding: 'utf8' });
  const results = r.stdout ? (JSON.parse(r.stdout) as { results: Array<{ ruleId: string; file: string; data: Record<string, string> }> }).results : [];
  return { code: r.status, results, stderr: r.stderr };
}

/** A copy of the parts of this repository that lint:docs reads. */
function copyRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-dogfood-'));
  temps.push(dir);
  for (const part of ['src', 'rules', 'docs', 'README.md', 'docdrift.config.json', 'package.json']) {
    cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  }
  return dir;
}

// Each test lints the whole repository in this process (~5-15 s alone); a loaded machine running
// the suite in parallel took over 30 s (s26), so these have a longer timeout than vitest's default.
describe('docdrift on its own documentation', { timeout: 120_000 }, () => {
  it('passes: docs/cli.md and docs/configuration.md document every CLI option and config key, with the right defaults', () => {
    const { code, results } = lint(ROOT);
    expect(results.filter((r) => r.ruleId !== 'example-param-unexplained')).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails when an option is added to the CLI without documenting it', () => {
    const dir = copyRepo();
    const cli = path.join(dir, 'src/cli.ts');
    const source = readFileSync(cli, 'utf8');
    const anchor = 'export interface CliOptions {\n';
    expect(source).toContain(anchor);
    writeFileSync(cli, source.replace(anchor, `${anchor}  /** Print what would change without writing. */\n  'dry-run': boolean;\n`));
    const { code, results } = lint(dir);
    expect(code).toBe(1);
    expect(results.filter((r) => r.ruleId === 'reference-param-missing').map((r) => [r.file, r.data.command, r.data.name])).toEqual([
      ['docs/cli.md', 'docdrift', 'dry-run'],
    ]);
  });

  it('fails when a config key is added without documenting it', () => {
    const dir = copyRepo();
    const schema = path.join(dir, 'src/config/schema.ts');
    const source = readFileSync(schema, 'utf8');
    const anchor = 'export interface DocdriftConfig {\n';
    expect(source).toContain(anchor);
    writeFileSync(schema, source.replace(anchor, `${anchor}  /** Fail on warnings too. */\n  strict: boolean;\n`));
    const { code, results } = lint(dir);
    expect(code).toBe(1);
    expect(results.filter((r) => r.ruleId === 'reference-param-missing').map((r) => [r.file, r.data.name])).toEqual([['docs/configuration.md', 'strict']]);
  });
});

describe('the config examples of the configuration reference (docs/configuration.md)', () => {
  const PAGE = path.join(ROOT, 'docs/configuration.md');
  /** Keys of every JSON code block of the page: top-level keys, and keys of `commands` entries. */
  function exampleKeys(): { top: Set<string>; command: Set<string> } {
    const readme = readFileSync(PAGE, 'utf8');
    const top = new Set<string>();
    const command = new Set<string>();
    for (const [, body] of readme.matchAll(/^```json[^\n]*\n([\s\S]*?)^```/gm)) {
      let value: unknown;
      try {
        value = JSON.parse(body!);
      } catch {
        continue; // a fragment, not a whole config
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      for (const key of Object.keys(value)) top.add(key);
      const commands = (value as { commands?: Record<string, object> }).commands;
      for (const entry of Object.values(commands ?? {})) if (entry && typeof entry === 'object') for (const key of Object.keys(entry)) command.add(key);
    }
    return { top, command };
  }

  it('give an example of every config key and every command key', () => {
    const { top, command } = exampleKeys();
    expect(CONFIG_KEYS.filter((k) => !top.has(k))).toEqual([]);
    expect(COMMAND_KEYS.filter((k) => !command.has(k))).toEqual([]);
  });

  it('say that `config` takes one class or a list', () => {
    const readme = readFileSync(PAGE, 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `commands` |'));
    expect(row).toMatch(/`config`[^|]*one class[^|]*or a list/);
  });
});

describe('the README', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it('stays short enough to read to the end (about 300 lines at most): details live in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links only to files that exist, and to every page of docs/', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.filter((t) => !existsSync(path.join(ROOT, t)))).toEqual([]);
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(pages.filter((p) => !targets.includes(p))).toEqual([]);
  });

  it('keeps its two set-up commands true: `npm start` runs the bundled example, `npm test` the tests', () => {
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(readme).toContain('npm install && npm start');
    expect(readme).toMatch(/^npm test\b/m);
    expect(scripts.start).toContain('--root fixtures/example-python');
    expect(scripts.test).toContain('vitest run');
  });
});
