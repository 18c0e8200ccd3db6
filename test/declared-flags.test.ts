/** Flags declared in the config (`commands.<name>.flags`, issue #4 items 3 and 4): parsing, validation, model join, exit codes. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyToTemp, removeTempDirs } from './helpers.js';
import { main } from '../src/cli.js';
import { ConfigError, loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';
import { declaredDefault, parseFlagSpellings } from '../src/link/declared-flags.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/frameworks');
afterEach(removeTempDirs);

/** A writable copy of a fixture directory. */
const copy = (fixture: string): string => copyToTemp(path.join(FIXTURES, fixture), 'docdrift-declared-');

function editJson(file: string, edit: (json: any) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: process.cwd(), isTTY: false });
  return { code, stdout, stderr };
}

describe('parseFlagSpellings', () => {
  it.each([
    ['--port', { name: 'port', aliases: [], negatable: false }],
    ['-p, --port <n>', { name: 'port', aliases: ['p'], negatable: false }],
    ['--port, -p', { name: 'port', aliases: ['p'], negatable: false }],
    ['-p --port N', { name: 'port', aliases: ['p'], negatable: false }],
    ['--out-dir [dir]', { name: 'out-dir', aliases: [], negatable: false }],
    ['--color/--no-color', { name: 'color', aliases: [], negatable: true }],
    ['--shout/--quiet', { name: 'shout', aliases: ['quiet'], negatable: false }],
    ['-v', { name: 'v', aliases: [], negatable: false }],
    ['dataset', { name: 'dataset', aliases: [], negatable: false }],
    ['--no-cache', { name: 'no-cache', aliases: [], negatable: false }],
  ])('%s', (raw, expected) => {
    expect(parseFlagSpellings(raw)).toEqual(expected);
  });
  it('adds extra aliases without duplicating spellings', () => {
    expect(parseFlagSpellings('-p, --port', ['-P', '-p'])).toEqual({ name: 'port', aliases: ['p', 'P'], negatable: false });
  });
});

describe('declaredDefault', () => {
  it.each([
    [8, '8'],
    [0.5, '0.5'],
    [true, 'true'],
    [null, 'None'],
    ['8_080', '8_080'],
    ['1e-3', '1e-3'],
    ["'fast'", "'fast'"],
    ['fast', '"fast"'],
    ['[1, 2]', '[1, 2]'],
    ['None', 'None'],
  ])('%j → %s', (value, text) => {
    expect(declaredDefault(value)).toEqual({ kind: 'literal', text });
  });
  it('is undefined when no default is declared', () => {
    expect(declaredDefault(undefined)).toBeUndefined();
  });
});

describe('config validation of flags', () => {
  it('accepts string and object entries', () => {
    const dir = copy('declared/valid');
    const { config } = loadConfig(dir, undefined, ruleIds);
    expect(config.commands.gymctl!.flags!.map((f) => f.name)).toEqual([
      '-o, --output <path>',
      '--resume',
      '--workers',
      '--color/--no-color',
      '--internal-trace',
    ]);
  });
  it('names the offending key of a bad entry', () => {
    const dir = copy('declared/valid');
    editJson(path.join(dir, 'docdrift.config.json'), (j) => {
      j.commands.gymctl.flags[2].defualt = 3;
    });
    let error: unknown;
    try {
      loadConfig(dir, undefined, ruleIds);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('commands.gymctl.flags[2]');
    expect((error as ConfigError).message).toContain('defualt');
  });
});

describe('declared flags in the model', () => {
  it('locates each declared flag at its line in the config file', async () => {
    const dir = copy('declared/valid');
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    const { model } = await lint({ root: dir, config, configFile: file });
    const cmd = model.commandByName('gymctl')!;
    const workers = cmd.params.find((p) => p.name === 'workers')!;
    expect(workers).toMatchObject({ origin: 'cli-flag', type: 'int', default: { kind: 'literal', text: '8' }, owner: 'docdrift.config.json' });
    expect(workers.location).toMatchObject({ file: 'docdrift.config.json', line: 8 });
    const resume = cmd.params.find((p) => p.name === 'resume')!;
    expect(resume).toMatchObject({ dest: 'resume_from_cache', type: 'bool', description: 'Skip tasks whose results are cached.' });
    expect(cmd.params.find((p) => p.name === 'output')!.aliases).toEqual(['o']);
    expect(cmd.params.find((p) => p.name === 'color')!.negatable).toBe(true);
    expect(model.commandByName('gymctl serve')!.params.map((p) => p.name)).toEqual(['port']);
  });

  it('amends a flag read from code with only the keys the config gives (argparse --lr)', async () => {
    const dir = copy('argparse/valid');
    writeFileSync(
      path.join(dir, 'docdrift.config.json'),
      JSON.stringify({ commands: { 'trainer fit': { flags: [{ name: '--lr', description: 'Peak learning rate.', default: 0.01 }] } } }),
    );
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    const result = await lint({ root: dir, config, configFile: file });
    const fit = result.model.commandByName('trainer fit')!;
    const lr = fit.params.filter((p) => p.name === 'lr');
    expect(lr).toHaveLength(1);
    expect(lr[0]).toMatchObject({ description: 'Peak learning rate.', type: 'float', default: { text: '0.01' }, location: { file: 'trainer/cli.py' } });
    // The docs say 0.0003, the amended default says 0.01: the mismatch is now reported.
    expect(result.messages.filter((m) => m.ruleId === 'reference-default-mismatch').map((m) => m.data)).toMatchObject([
      { name: 'lr', documented: '0.0003', actual: '0.01' },
    ]);
  });

  it('a field that is no config field is a config problem (exit 2, naming the key)', async () => {
    const dir = copy('declared/valid');
    editJson(path.join(dir, 'docdrift.config.json'), (j) => {
      j.commands.gymctl.flags[1].field = 'resume_from_cash';
    });
    const { code, stderr } = await runCli(['--root', dir]);
    expect(code).toBe(2);
    expect(stderr).toContain('commands."gymctl".flags[1].field: "resume_from_cash" is not a field of RolloutConfig; did you mean "resume_from_cache"?');
  });

  it('without the declarations, every flag of the examples is unknown', async () => {
    const dir = copy('declared/invalid');
    editJson(path.join(dir, 'docdrift.config.json'), (j) => {
      delete j.commands['gymctl serve'];
      delete j.commands.gymctl.flags;
    });
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    const result = await lint({ root: dir, config, configFile: file });
    // Only the config class is known now: most flags in the examples are unknown, so they are
    // reported once, as a partlyRead warning naming them all (rules/partly-read.ts); `resume`,
    // which shares a word with a config field (a likely rename), stays its own error.
    const unknown = result.messages.filter((m) => m.ruleId === 'example-param-unknown');
    expect(unknown.map((m) => [m.messageId, m.data.name ?? m.data.params])).toEqual([
      ['partlyRead', '`workers`, `o`, `no-colour`, `internal_trace`, `port`, `host`'],
      ['unknown', 'resume'],
    ]);
  });
});

describe('where a program comes from', () => {
  it('bins running the same file are one command with aliases', async () => {
    const dir = copy('yargs/valid');
    editJson(path.join(dir, 'package.json'), (j) => {
      j.bin = { sitegen: 'dist/cli.js', sg: './dist/cli.js' };
    });
    const { config } = loadConfig(dir, undefined, ruleIds);
    const result = await lint({ root: dir, config });
    expect(result.model.commands.map((c) => [c.name, ...c.aliases].join(' / '))).toEqual([
      'sitegen / sg',
      'sitegen serve / sg serve',
      'sitegen build / sg build',
    ]);
    expect(result.messages).toEqual([]);
  });

  it('commands.<name>.program names the function a console script declared elsewhere runs', async () => {
    const dir = copy('typer/invalid');
    rmSync(path.join(dir, 'pyproject.toml'));
    const before = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    expect(before.model.commands).toEqual([]);
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { evalctl: { program: 'evalctl.main:app' } } }));
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    const after = await lint({ root: dir, config, configFile: file });
    const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'typer/invalid/expected.json'), 'utf8')) as Array<{ ruleId: string; line: number }>;
    expect(after.messages.map((m) => [m.ruleId, m.line])).toEqual(expected.map((m) => [m.ruleId, m.line]));
  });

  it('commands.<name>.program takes the TypeScript file that builds the program (issue #30)', async () => {
    const dir = copy('commander/invalid');
    // No bin: nothing tells docdrift where the program is, until the config names its source.
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'deployer', type: 'module' }));
    const before = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    expect(before.model.commands).toEqual([]);
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { deploy: { program: 'src/main.ts' } } }));
    const { config, file } = loadConfig(dir, undefined, ruleIds);
    const after = await lint({ root: dir, config, configFile: file });
    expect(after.configProblems).toEqual([]);
    const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'commander/invalid/expected.json'), 'utf8')) as Array<{ ruleId: string; line: number }>;
    expect(after.messages.map((m) => [m.ruleId, m.line])).toEqual(expected.map((m) => [m.ruleId, m.line]));
  });

  it('a program naming no file, module or bin of the project is a config error naming the key (exit 2)', async () => {
    const dir = copy('commander/valid');
    const problems = async (program: string): Promise<string[]> => {
      writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { deploy: { program } } }));
      const { config, file } = loadConfig(dir, undefined, ruleIds);
      return (await lint({ root: dir, config, configFile: file })).configProblems;
    };
    expect(await problems('src/mian.ts')).toEqual(['commands.deploy.program: no source file "src/mian.ts" was found (a path from the project root to the TypeScript or JavaScript file that builds the program, among the files `sources` matches); did you mean "src/main.ts"?']);
    expect(await problems('deployer.cli:main')).toEqual([expect.stringMatching(/^commands\.deploy\.program: no module "deployer\.cli" was found among the sources/)]);
    expect(await problems('bin:deploy')).toEqual([]);
    expect(await problems('bin:deployer')).toEqual(['commands.deploy.program: no package.json declares a bin named "deployer".']);
    const out: string[] = [];
    const code = await main(['--root', dir, '--no-cache'], { stdout: (s) => out.push(s), stderr: (s) => out.push(s), cwd: dir, isTTY: false });
    expect(code).toBe(2);
    expect(out.join('')).toContain('commands.deploy.program: no package.json declares a bin named "deployer"');
  });

  it('refuses a program that is not a module:function target', () => {
    const dir = copy('typer/valid');
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { evalctl: { program: 'evalctl/main.py' } } }));
    expect(() => loadConfig(dir, undefined, ruleIds)).toThrow(/commands\.evalctl\.program/);
  });
});
