/** `docdrift init` end to end: the built CLI on copies of the bundled Python example and TypeScript fixtures. */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, loadConfigText } from '../src/config/load.js';
import { fitProposal, ProposalError, type StarterConfig } from '../src/engine/init.js';
import { ruleIds } from '../src/api.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const TS_INTERFACE = path.join(ROOT, 'fixtures/rules/reference-param-missing/invalid/ts-interface-jsdoc');
const TS_COMMANDER = path.join(ROOT, 'fixtures/rules/example-param-unknown/invalid/commander-subcommands');

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** A copy of a fixture without its docdrift config and test expectations. */
function copy(fixture: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-init-'));
  temps.push(dir);
  cpSync(fixture, dir, { recursive: true });
  rmSync(path.join(dir, 'docdrift.config.json'), { force: true });
  rmSync(path.join(dir, 'expected.json'), { force: true });
  return dir;
}

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Written {
  $comment: string[];
  sources: string[];
  reference?: string[];
  commands: Record<string, { $comment: string; aliases?: string[]; config?: string[] }>;
}

const written = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')) as Written;

describe('docdrift init', { timeout: 120_000 }, () => {
  it('writes a config for the Python example that loads back and gives the same findings', () => {
    const dir = copy(EXAMPLE);
    const before = run(['--format', 'json'], dir);
    expect(before.code).toBe(1);

    const init = run(['init'], dir);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain('wrote docdrift.config.json');
    expect(init.stderr).toContain('ng_collect_rollouts → nemo_gym.rollout_collection.RolloutCollectionConfig');
    expect(init.stderr).toMatch(/Review:\n\s+- ng_run: no config class found/);

    const config = written(dir);
    expect(config.commands.ng_collect_rollouts).toMatchObject({
      aliases: ['nemo_gym_collect_rollouts'],
      config: ['nemo_gym.rollout_collection.RolloutCollectionConfig'],
    });
    expect(config.commands.ng_collect_rollouts!.$comment).toContain('docs/reference/cli-commands.mdx:23');
    expect(config.commands.ng_e2e_collect_rollouts!.config).toEqual(['nemo_gym.e2e.E2ERolloutCollectionConfig']);
    // No class found: a placeholder note, no made-up class name (which would fail the next run).
    expect(config.commands.ng_run!.config).toBeUndefined();
    expect(config.commands.ng_run!.$comment).toMatch(/^TODO: .*Set "config"/);
    expect(config.reference).toEqual(['docs/reference/cli-commands.mdx']);
    expect(config.sources).toContain('**/*.py');
    expect(config.sources.some((g) => g.includes('.ts'))).toBe(false);

    const loaded = loadConfig(dir, undefined, ruleIds);
    expect(loaded.file).toBe(path.join(dir, 'docdrift.config.json'));
    expect(loaded.config.commands.ng_collect_rollouts!.config).toEqual(['nemo_gym.rollout_collection.RolloutCollectionConfig']);

    const after = run(['--format', 'json'], dir);
    expect(after.code).toBe(before.code);
    expect(after.stdout).toBe(before.stdout);
    expect(after.stderr).toBe(before.stderr);
  });

  it('writes what reference inference found (sections of a command, a config file) and keeps the findings', () => {
    for (const fixture of ['inferred-cli-options', 'inferred-config-file']) {
      const dir = copy(path.join(ROOT, 'fixtures/layouts', fixture, 'invalid'));
      const before = run(['--format', 'json'], dir);
      expect(before.code).toBe(1);
      expect(run(['init'], dir).code).toBe(0);
      const config = written(dir) as Written & { commands: Record<string, { sections?: string[]; kind?: string }> };
      if (fixture === 'inferred-cli-options') {
        expect(config.commands.mixer).toMatchObject({ sections: ['Command Line Arguments'] });
        expect(config.commands.mixer!.$comment).toContain('found by its content: 3 of its 4 rows are parameters of `mixer`');
      } else {
        expect(config.commands['mixer.toml']).toMatchObject({ kind: 'config-file', config: ['mixer.settings.Settings'], sections: ['Settings'] });
      }
      const after = run(['--format', 'json'], dir);
      expect(after.code).toBe(before.code);
      expect(JSON.parse(after.stdout).results).toEqual(JSON.parse(before.stdout).results);
    }
  });

  it('refuses to overwrite a config, overwrites with --force, and prints without writing with --dry-run', () => {
    const dir = copy(EXAMPLE);
    const mine = '{ "rules": { "example-param-unexplained": "off" } }\n';
    writeFileSync(path.join(dir, 'docdrift.config.json'), mine);

    const refused = run(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('docdrift.config.json already configures docdrift');
    // One line, no escaped `\n` printed as text (s46 sweep H8).
    expect(refused.stderr).not.toContain('\\n');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')).toBe(mine);

    const dry = run(['init', '--dry-run'], dir);
    expect(dry.code).toBe(0);
    expect((JSON.parse(dry.stdout) as Written).commands.ng_e2e_collect_rollouts!.config).toEqual(['nemo_gym.e2e.E2ERolloutCollectionConfig']);
    expect(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')).toBe(mine);

    const forced = run(['init', '--force', '--root', dir], tmpdir());
    expect(forced.code).toBe(0);
    expect(written(dir).commands.ng_collect_rollouts!.config).toEqual(['nemo_gym.rollout_collection.RolloutCollectionConfig']);
  });

  it('counts a package.json "docdrift" key as an existing config', () => {
    const dir = copy(TS_COMMANDER);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, docdrift: { rules: {} } }));
    const refused = run(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('package.json already configures docdrift');
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
  });

  it('counts a dangling link at a config name as an existing config, as a run does (s49 sweep L1)', () => {
    const dir = copy(TS_COMMANDER);
    symlinkSync(path.join(dir, 'no-such-file'), path.join(dir, '.docdriftrc.yaml'));
    const refused = run(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('.docdriftrc.yaml already configures docdrift');
    expect(refused.stderr).toContain('is not a file docdrift can read');
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
    // Init and a run agree: the run refuses the same link.
    const later = run(['--format', 'json'], dir);
    expect(later.code).toBe(2);
    expect(later.stderr).toContain('.docdriftrc.yaml');
  });

  it('names a packaging file it could not read instead of "no command found", and writes nothing when that leaves no command (s49 sweep L6)', () => {
    const dir = copy(path.join(ROOT, 'fixtures/bad-input/_base'));
    writeFileSync(path.join(dir, 'pyproject.toml'), `${readFileSync(path.join(dir, 'pyproject.toml'), 'utf8')}[project\n`);
    const refused = run(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^docdrift init: nothing was written: no command was found, and a packaging file that may declare them could not be read\.\n {2}pyproject\.toml:\d+:\d+ could not be read \(Invalid TOML document: [^)]*\), so the commands it declares are not in this proposal/);
    expect(refused.stderr).not.toContain('no command found: add one');
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
  });

  it('writes no command key a later run refuses: constructor, prototype and __proto__ are skipped and named (#33 item 16)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-init-proto-'));
    temps.push(dir);
    mkdirSync(path.join(dir, 'tool'));
    const names = ['constructor', 'prototype', '__proto__', 'ok_tool'];
    // One function per script, so each is a command of its own rather than an alias of another.
    writeFileSync(path.join(dir, 'pyproject.toml'), `[project]\nname = "proto-tool"\nversion = "0.1.0"\n\n[project.scripts]\n${names.map((n, i) => `${n} = "tool.cli:main${i}"`).join('\n')}\n`);
    writeFileSync(path.join(dir, 'tool/__init__.py'), '');
    writeFileSync(
      path.join(dir, 'tool/cli.py'),
      `import argparse\n\n${names.map((_, i) => `\ndef main${i}():\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--name${i}", help="Who to greet.")\n    parser.parse_args()\n`).join('\n')}`,
    );
    writeFileSync(path.join(dir, 'README.md'), '# Tool\n\n```bash\nok_tool --name3 x\n```\n');
    const init = run(['init'], dir);
    expect(init.stderr).not.toMatch(/not allowed/);
    expect(init.code).toBe(0);
    const config = written(dir);
    expect(Object.keys(config.commands)).toEqual(['ok_tool']);
    for (const name of ['constructor', 'prototype', '__proto__']) expect(init.stderr).toContain(`"${name}"`);
    expect(init.stderr).toMatch(/docdrift init: skipped the commands "constructor", "prototype", "__proto__": a docdrift config file cannot hold these names as keys/);
    // The config it wrote is one every later run accepts.
    const later = run(['--format', 'json'], dir);
    expect(later.stderr).not.toMatch(/Invalid docdrift config/);
    expect(later.code).not.toBe(2);
  });

  it('init --force beside another config file refuses (exit 2, naming it) instead of making every later run exit 2 (#33 item 16)', () => {
    const dir = copy(EXAMPLE);
    const mine = 'rules:\n  example-param-unexplained: "off"\n';
    writeFileSync(path.join(dir, '.docdriftrc.yaml'), mine);
    expect(run(['--format', 'json'], dir).code).toBe(1);
    const forced = run(['init', '--force'], dir);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('.docdriftrc.yaml');
    expect(forced.stderr).toMatch(/more than one config file/);
    expect(forced.stderr).not.toMatch(/takes precedence/);
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
    expect(readFileSync(path.join(dir, '.docdriftrc.yaml'), 'utf8')).toBe(mine);
    // Later runs still work with the one config there is.
    expect(run(['--format', 'json'], dir).code).toBe(1);
    // Beside a docdrift.config.json of its own and another file (already two: every run exits 2),
    // --force still refuses: overwriting one of the two fixes nothing.
    writeFileSync(path.join(dir, 'docdrift.config.json'), '{}\n');
    const both = run(['init', '--force'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('.docdriftrc.yaml');
    expect(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')).toBe('{}\n');
    // A package.json "docdrift" key is another config file too.
    rmSync(path.join(dir, '.docdriftrc.yaml'));
    rmSync(path.join(dir, 'docdrift.config.json'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', docdrift: { rules: {} } }));
    const pkg = run(['init', '--force'], dir);
    expect(pkg.code).toBe(2);
    expect(pkg.stderr).toContain('package.json');
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
  });

  it('maps a TypeScript bin to its interface and keeps the findings', () => {
    const dir = copy(TS_INTERFACE);
    const before = run(['--format', 'json'], dir);
    expect(before.code).toBe(1);
    expect(run(['init'], dir).code).toBe(0);
    const config = written(dir);
    expect(config.commands).toEqual({
      tool: { $comment: expect.stringContaining('docs/cli.md:3') as unknown as string, config: ['src/options.ts#ToolOptions'] },
    });
    expect(config.sources).toContain('**/*.{ts,mts,cts,tsx}');
    expect(config.sources).not.toContain('**/*.py');
    const after = run(['--format', 'json'], dir);
    expect(after.stdout).toBe(before.stdout);
    expect(after.code).toBe(1);
  });

  it('leaves a commander program with sub-commands to discovery and names the sub-commands', () => {
    const dir = copy(TS_COMMANDER);
    const before = run(['--format', 'json'], dir);
    expect(JSON.parse(before.stdout).results.length).toBeGreaterThan(0);
    expect(run(['init'], dir).code).toBe(0);
    const srv = written(dir).commands.srv!;
    expect(srv.config).toBeUndefined();
    expect(srv.$comment).toMatch(/CLI flags, defined in src\/cli\.ts/);
    expect(srv.$comment).toContain('Sub-commands from its CLI flags: srv build');
    expect(Object.keys(written(dir).commands)).toEqual(['srv']);
    expect(run(['--format', 'json'], dir).stdout).toBe(before.stdout);
  });

  it('lints a directory named init when written ./init, and rejects unknown init options', () => {
    const dir = copy(EXAMPLE);
    mkdirSync(path.join(dir, 'init'));
    writeFileSync(path.join(dir, 'init/README.md'), '# x\n\n```bash\nng_collect_rollouts +agent_nam=x\n```\n');
    const lint = run(['./init', '--format', 'json'], dir);
    expect(lint.code).toBe(1);
    expect((JSON.parse(lint.stdout) as { results: Array<{ file: string; data: { name: string } }> }).results.map((r) => [r.file, r.data.name])).toEqual([
      ['init/README.md', 'agent_nam'],
    ]);
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);

    const bad = run(['init', '--frce'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--frce'");
    expect(bad.stderr).toContain('Did you mean --force?');
    expect(existsSync(path.join(dir, 'docdrift.config.json'))).toBe(false);
  });
});

describe('binEntries: each command at the line of its bin entry', () => {
  it('not at the first line that mentions its name (the package name)', async () => {
    const { binEntries } = await import('../src/engine/lint.js');
    const pkg = '{\n  "name": "tool",\n  "description": "tool runs tool",\n  "bin": {\n    "tool": "dist/cli.js",\n    "tool-admin": "dist/admin.js"\n  }\n}\n';
    expect(binEntries(pkg)).toEqual({ tool: { line: 5, file: 'dist/cli.js' }, 'tool-admin': { line: 6, file: 'dist/admin.js' } });
    expect(binEntries('{\n  "name": "@scope/tool",\n  "bin": "cli.js"\n}\n')).toEqual({ tool: { line: 3, file: 'cli.js' } });
    expect(binEntries('{ "bin": ')).toEqual({});
  });
});

describe('docdrift init writes only inside the project (issue #17)', { timeout: 120_000 }, () => {
  it('refuses a committed docdrift.config.json symlink (exit 2, naming it), with or without --force, and writes nothing outside', () => {
    const dir = copy(EXAMPLE);
    const outside = mkdtempSync(path.join(tmpdir(), 'docdrift-outside-'));
    temps.push(outside);
    writeFileSync(path.join(outside, 'victim.json'), '{"precious": true}\n');
    symlinkSync(path.join(outside, 'victim.json'), path.join(dir, 'docdrift.config.json'));
    const forced = run(['init', '--force'], dir);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('docdrift.config.json is a symlink');
    // A dangling link is not an existing config, and is refused all the same.
    rmSync(path.join(outside, 'victim.json'));
    const dangling = run(['init'], dir);
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toContain('docdrift.config.json is a symlink');
    expect(existsSync(path.join(outside, 'victim.json'))).toBe(false);
    expect(lstatSync(path.join(dir, 'docdrift.config.json')).isSymbolicLink()).toBe(true);
  });
});

describe('docdrift init and environment variables (issue #31)', { timeout: 120_000 }, () => {
  /** A service whose pydantic-settings variables a "Configuration" table documents (found by content), one row stale. */
  function envProject(table: boolean): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-init-env-'));
    temps.push(dir);
    mkdirSync(path.join(dir, 'svc'));
    writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["pydantic-settings"]\n');
    writeFileSync(path.join(dir, 'svc/__init__.py'), '');
    writeFileSync(
      path.join(dir, 'svc/settings.py'),
      'from pydantic_settings import BaseSettings, SettingsConfigDict\n\n\nclass Settings(BaseSettings):\n    model_config = SettingsConfigDict(env_prefix="SVC_")\n\n    url: str = "http://localhost"\n    token: str = ""\n    timeout: int = 30\n',
    );
    const rows = '| Variable | Description |\n|---|---|\n| `SVC_URL` | Server URL |\n| `SVC_TOKEN` | API token |\n| `SVC_TIMEOUT` | Seconds |\n| `SVC_RETRIES` | Retries |\n';
    writeFileSync(path.join(dir, 'README.md'), `# svc\n\nA service.\n\n## Configuration\n\n${table ? rows : 'Set variables as you like.\n'}`);
    return dir;
  }

  it('names the headings of env references found by their content in env.sections, and the run with it finds the same', () => {
    const dir = envProject(true);
    const before = run(['--format', 'json'], dir);
    const init = run(['init'], dir);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain('environment → 3 environment variables read by the code [1 env reference section: README.md]');
    // The env pseudo-command is no config file: a `commands.environment` entry made the next run check nothing.
    expect(init.stderr).not.toContain("(config file)");
    const config = JSON.parse(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')) as Written & { env?: { sections: string[] } };
    expect(config.env).toEqual({ sections: ['Configuration'] });
    expect(config.$comment.some((c) => c.startsWith('environment: 3 environment variables read by the code, documented in README.md:5 ("Configuration"'))).toBe(true);
    expect(loadConfig(dir, undefined, ruleIds).config.env.sections).toEqual(['Configuration']);
    const after = run(['--format', 'json'], dir);
    const ids = (out: string) => (JSON.parse(out) as { results: Array<{ ruleId: string; message: string }> }).results.map((r) => `${r.ruleId} ${r.message}`);
    expect(ids(after.stdout)).toEqual(ids(before.stdout));
    expect(ids(after.stdout).some((m) => m.includes('SVC_RETRIES'))).toBe(true);
  });

  it('asks for an env reference when the code reads variables no document lists', () => {
    const init = run(['init'], envProject(false));
    expect(init.code).toBe(0);
    expect(init.stderr).toMatch(/Review:[\s\S]*- environment: 3 environment variables read by the code, but no env reference was found/);
  });
});

/** A project of `n` console scripts, each a distinct function validating one pydantic class (s26 sweep D3). */
function manyScripts(n: number, name: (i: number) => string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-init-many-'));
  temps.push(dir);
  mkdirSync(path.join(dir, 'tool'));
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'tool/__init__.py'), '');
  const fns = Array.from({ length: n }, (_, i) => `\ndef f${i}(cfg: dict) -> None:\n    ToolConfig.model_validate(cfg)\n`).join('');
  writeFileSync(path.join(dir, 'tool/cli.py'), `from pydantic import BaseModel\n\n\nclass ToolConfig(BaseModel):\n    seed: int = 0\n${fns}`);
  const scripts = Array.from({ length: n }, (_, i) => `${name(i)} = "tool.cli:f${i}"`).join('\n');
  writeFileSync(path.join(dir, 'pyproject.toml'), `[project]\nname = "tool"\nversion = "1"\n\n[project.scripts]\n${scripts}\n`);
  writeFileSync(path.join(dir, 'docs/reference.md'), '# Reference\n\n## `tool`\n\n| Parameter | Default |\n|---|---|\n| `seed` | `0` |\n');
  return dir;
}

describe('docdrift init: a proposal within the limits every run enforces (s26 sweep D3)', { timeout: 120_000 }, () => {
  it('leaves out the per-command notes when they would take the file over 256 KB; --dry-run prints the text written; --force replaces a config only with one that loads', () => {
    const dir = manyScripts(990, (i) => `command-number-${i}-with-a-longish-name`);
    const dry = run(['init', '--dry-run'], dir);
    expect(dry.code).toBe(0);
    expect(Buffer.byteLength(dry.stdout)).toBeLessThanOrEqual(256 * 1024);
    const mine = '{ "rules": { "example-param-unexplained": "off" } }\n';
    writeFileSync(path.join(dir, 'docdrift.config.json'), mine);
    const forced = run(['init', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('The notes ("$comment") of each command were left out');
    expect(readFileSync(path.join(dir, 'docdrift.config.json'), 'utf8')).toBe(dry.stdout);
    const config = written(dir);
    expect(Object.keys(config.commands)).toHaveLength(990);
    expect(config.commands['command-number-7-with-a-longish-name']).toEqual({ config: ['tool.cli.ToolConfig'] });
    expect(loadConfig(dir, undefined, ruleIds).config.commands['command-number-989-with-a-longish-name']!.config).toEqual(['tool.cli.ToolConfig']);
    const after = run([], dir);
    expect(after.stderr).not.toContain('Invalid docdrift config');
  });

  it('caps the entries with one line saying how many commands were left out and how to add one', () => {
    // 1,000 console scripts (as many as are read) whose names alone take the entries over 256 KB.
    const dir = manyScripts(1000, (i) => `command-${i}-${'x'.repeat(240)}`);
    const init = run(['init'], dir);
    expect(init.code).toBe(0);
    expect(statSync(path.join(dir, 'docdrift.config.json')).size).toBeLessThanOrEqual(256 * 1024);
    const config = written(dir);
    const kept = Object.keys(config.commands).length;
    expect(kept).toBeGreaterThan(500);
    expect(kept).toBeLessThan(1000);
    const line = config.$comment.at(-1)!;
    expect(line).toContain(`${(1000 - kept).toLocaleString('en-US')} of the 1,000 commands found were left out of "commands"`);
    expect(line).toContain('"commands": { "<name>": { "config": ["pkg.module.Class"] } }');
    expect(init.stderr).toContain('commands found were left out of "commands"');
    expect(loadConfig(dir, undefined, ruleIds).file).toBe(path.join(dir, 'docdrift.config.json'));
  });
});

describe('fitProposal', () => {
  const base = (commands: StarterConfig['commands'], extra: Partial<StarterConfig> = {}): StarterConfig => ({
    $comment: ['Written by `docdrift init`.'],
    sources: ['**/*.py'],
    docs: ['**/*.md'],
    commands,
    ...extra,
  });
  const entries = (n: number, comment: string) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`cmd-${i}`, { $comment: comment, config: ['tool.cli.ToolConfig'] }]));

  it('returns the text unchanged when it fits', () => {
    const config = base(entries(3, 'A note.'));
    const review: string[] = [];
    expect(fitProposal(config, review)).toBe(`${JSON.stringify(base(entries(3, 'A note.')), null, 2)}\n`);
    expect(review).toEqual([]);
  });

  it('cuts the notes short when that is enough, and says so', () => {
    const config = base(entries(800, `Parameters: the fields of tool.cli.ToolConfig. ${'Documented in docs/a-long-page-name.md:12 ("x"). '.repeat(6)}`));
    const review: string[] = [];
    const text = fitProposal(config, review);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256 * 1024);
    expect(config.commands['cmd-0']!.$comment).toMatch(/^Parameters: the fields of tool\.cli\.ToolConfig\. .*…$/);
    expect(config.commands['cmd-0']!.$comment!.length).toBeLessThanOrEqual(160);
    expect(review).toEqual([expect.stringContaining('The notes ("$comment") of each command were cut short')]);
    expect(loadConfigText(text, 'docdrift.config.json').commands['cmd-799']!.config).toEqual(['tool.cli.ToolConfig']);
  });

  it('leaves out a list over the 1,000 items a config list may hold', () => {
    const config = base(entries(1, 'A note.'), { reference: Array.from({ length: 1001 }, (_, i) => `docs/p${i}.md`) });
    const review: string[] = [];
    const text = fitProposal(config, review);
    expect(config.reference).toBeUndefined();
    expect(review).toEqual([expect.stringContaining('"reference" left out: reference sections were found in 1,001 documents')]);
    expect(loadConfigText(text, 'docdrift.config.json').reference).toEqual([]);
  });

  it('refuses, writing nothing, when even a config without commands is over the limit', () => {
    const config = base(entries(1, 'A note.'), { reference: Array.from({ length: 900 }, (_, i) => `docs/${'d'.repeat(300)}/p${i}.md`) });
    expect(() => fitProposal(config, [])).toThrow(ProposalError);
    expect(() => fitProposal(config, [])).toThrow(/over the 256 KB a config file may be even without any "commands" entry/);
  });
});

/** The commands of a `--format json` run whose parameters are known, with their parameter names. */
function knownCommands(stdout: string): Map<string, string[]> {
  const commands = (JSON.parse(stdout) as { commands?: Array<{ name: string; paramsKnown: boolean; parameterNames?: string[] }> }).commands ?? [];
  return new Map(commands.filter((c) => c.paramsKnown).map((c) => [c.name, [...(c.parameterNames ?? [])].sort()]));
}

describe('init round trip (s29 sweep D3)', { timeout: 180_000 }, () => {
  /** A twin of NeMo Gym's benchmarks/*\/prepare.py: an argparse `__main__` script in a package folder, an example with a wrong flag. */
  function packageScript(): string {
    const dir = copy(path.join(ROOT, 'fixtures/bad-input/_base'));
    mkdirSync(path.join(dir, 'benchmarks/aime'), { recursive: true });
    writeFileSync(path.join(dir, 'benchmarks/aime/__init__.py'), '');
    writeFileSync(
      path.join(dir, 'benchmarks/aime/prepare.py'),
      'import argparse\n\n\nif __name__ == "__main__":\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--languages", default="en", nargs="+")\n    parser.add_argument("--prompt_language", default="target")\n    args = parser.parse_args()\n',
    );
    writeFileSync(path.join(dir, 'README.md'), `${readFileSync(path.join(dir, 'README.md'), 'utf8')}\n\`\`\`bash\npython benchmarks/aime/prepare.py --languages en --bogus 1\n\`\`\`\n`);
    return dir;
  }

  it('lint with the config init wrote knows every command the run on the defaults knows, with the same parameters', () => {
    const dirs = [packageScript(), copy(EXAMPLE), copy(path.join(ROOT, 'fixtures/layouts/inferred-cli-options/invalid')), copy(TS_COMMANDER)];
    for (const dir of dirs) {
      const before = run(['--no-cache', '--format', 'json'], dir);
      expect(run(['init'], dir).code).toBe(0);
      const after = run(['--no-cache', '--format', 'json'], dir);
      const known = knownCommands(before.stdout);
      expect(known.size, dir).toBeGreaterThan(0);
      const knownAfter = knownCommands(after.stdout);
      for (const [name, params] of known) expect(knownAfter.get(name), `${dir}: ${name}`).toEqual(params);
      expect(after.code, `${dir}: ${after.stderr}`).toBe(before.code);
    }
    // The package script: init writes it with its path, file name and module as aliases, and the
    // next run reads its flags (was "parameters unknown", the wrong flag unreported, exit 0).
    const twin = dirs[0]!;
    expect(written(twin).commands['benchmarks/aime/prepare.py']).toMatchObject({ aliases: ['prepare.py', 'benchmarks.aime.prepare'] });
    const after = run(['--no-cache', '--format', 'json'], twin);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain('bogus');
    expect(after.stderr).not.toContain('parameters of 1 command are unknown');
  });
});
