/**
 * commander forms of issue #30 item 1 read by the evaluator: options a `Command` subclass adds in
 * its constructor (and to the children its `createCommand` override builds), and option tables
 * looped in from `Object.entries`/`keys`/`values` of an object literal of the same package.
 */
import { describe, expect, it } from 'vitest';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';

function names(commands: FlagCommand[]): Record<string, string[]> {
  return Object.fromEntries(commands.map((c) => [c.path.join(' '), c.params.map((p) => [p.name, ...p.aliases].join('|'))]));
}

async function read(text: string, more: Record<string, string> = {}): Promise<FlagCommand[]> {
  const sources = [{ file: 'src/cli.ts', text }, ...Object.entries(more).map(([file, t]) => ({ file, text: t }))];
  return (await extractTypeScriptFlags(sources)).commands;
}

describe('commander subclasses', () => {
  it('reads what the constructor adds to this, the name its super() call gives, and createCommand children', async () => {
    const text = [
      "import { Command } from 'commander';",
      'class BaseCommand extends Command {',
      '  constructor(name?: string) {',
      '    super(name);',
      "    this.option('--verbose', 'Log more');",
      '  }',
      '  createCommand(name?: string) { return new BaseCommand(name); }',
      '}',
      'class Deploy extends BaseCommand {',
      '  constructor() {',
      "    super('deploy');",
      "    this.option('-e, --env <name>', 'Target', 'staging').requiredOption('--token <t>', 'Secret');",
      '  }',
      '}',
      'const program = new BaseCommand();',
      "program.option('--config <file>');",
      "program.command('push').option('--force');",
      'program.addCommand(new Deploy());',
      'program.parse();',
    ].join('\n');
    const commands = await read(text);
    expect(names(commands)).toEqual({ '': ['verbose', 'config'], push: ['verbose', 'force'], deploy: ['verbose', 'env|e', 'token'] });
    const env = commands.find((c) => c.path[0] === 'deploy')?.params.find((p) => p.name === 'env');
    expect(env?.default).toMatchObject({ text: "'staging'" });
    expect(commands.find((c) => c.path[0] === 'deploy')?.params.find((p) => p.name === 'token')?.required).toBe(true);
  });

  it('leaves a subclass without a createCommand override out of its children', async () => {
    const text = [
      "import { Command } from 'commander';",
      "class Tool extends Command { constructor() { super(); this.option('--global-flag'); } }",
      'const program = new Tool();',
      "program.command('sub').option('--x');",
      'program.parse();',
    ].join('\n');
    expect(names(await read(text))).toEqual({ '': ['global-flag'], sub: ['x'] });
  });
});

describe('option tables from Object.entries / keys / values', () => {
  const table = [
    'export const OPTIONS = {',
    "  port: { short: 'p', description: 'Port to listen on', default: '8080' },",
    "  host: { description: 'Host to bind' },",
    "  'dry-run': { description: 'Print only', boolean: true },",
    '};',
  ].join('\n');
  it('for … of Object.entries with [key, value]', async () => {
    const text = [
      "import { Command } from 'commander';",
      "import { OPTIONS } from './options.js';",
      'const program = new Command();',
      'for (const [name, o] of Object.entries(OPTIONS)) {',
      "  program.option(`${o.short ? `-${o.short}, ` : ''}--${name}${o.boolean ? '' : ' <value>'}`, o.description, o.default);",
      '}',
      'program.parse();',
    ].join('\n');
    const commands = await read(text, { 'src/options.ts': table });
    expect(names(commands)).toEqual({ '': ['port|p', 'host', 'dry-run'] });
    expect(commands[0]?.params[0]?.default).toMatchObject({ text: "'8080'" });
  });
  it('Object.entries(…).forEach(([k, v]) => …), Object.keys with obj[k], Object.values', async () => {
    const entries = "import { Command } from 'commander';\nimport { OPTIONS } from './options.js';\nconst program = new Command();\nObject.entries(OPTIONS).forEach(([k, v]) => program.option(`--${k}`, v.description));\nprogram.parse();";
    expect(names(await read(entries, { 'src/options.ts': table }))).toEqual({ '': ['port', 'host', 'dry-run'] });
    const keys = "import { Command } from 'commander';\nimport { OPTIONS } from './options.js';\nconst program = new Command();\nObject.keys(OPTIONS).forEach((k) => { program.option(`--${k}`, OPTIONS[k].description); });\nprogram.parse();";
    expect(names(await read(keys, { 'src/options.ts': table }))).toEqual({ '': ['port', 'host', 'dry-run'] });
    const values = "import { Command } from 'commander';\nconst FLAGS = { a: { flags: '-a, --all' }, b: { flags: '--brief' } };\nconst program = new Command();\nfor (const f of Object.values(FLAGS)) program.option(f.flags);\nprogram.parse();";
    expect(names(await read(values))).toEqual({ '': ['all|a', 'brief'] });
  });
  it('an object built at run time is not unrolled: the command says its flags are computed', async () => {
    const text = "import { Command } from 'commander';\nimport { load } from './load.js';\nconst program = new Command();\nfor (const [k] of Object.entries(load())) program.option(`--${k}`);\nprogram.parse();";
    const commands = await read(text, { 'src/load.ts': 'export function load(): Record<string, unknown> { return JSON.parse("{}"); }' });
    expect(commands[0]?.params).toEqual([]);
    expect(commands[0]?.passesUnknownFlags).toBe(true);
  });
});
