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

describe('nested loops', () => {
  it('unroll at most 10,000 iterations per file, then the commands are partly known with one warning (s26 sweep D4: 300³ options never finished)', async () => {
    const items = `[${Array.from({ length: 300 }, (_, i) => `'a${i}'`).join(', ')}]`;
    const started = performance.now();
    const { commands, diagnostics } = await extractTypeScriptFlags([
      { file: 'src/cli.ts', text: `import { Command } from 'commander';\nconst program = new Command('tsapp');\nconst A = ${items};\nfor (const a of A) for (const b of A) for (const c of A) program.option(\`--x-\${a}-\${b}-\${c}\`, 'd');\nprogram.parse();\n` },
      { file: 'src/y.ts', text: `import yargs from 'yargs';\nlet y = yargs(process.argv.slice(2)).scriptName('other');\nconst A = ${items};\nA.forEach((a) => A.forEach((b) => A.forEach((c) => { y = y.option(a + b + c, { type: 'string' }); })));\ny.parse();\n` },
      { file: 'src/small.ts', text: `import { Command } from 'commander';\nconst program = new Command('small');\nconst B = [${Array.from({ length: 50 }, (_, i) => `'b${i}'`).join(', ')}];\nfor (const a of B) for (const b of B) program.option(\`--y-\${a}-\${b}\`, 'd');\nprogram.parse();\n` },
    ]);
    expect(performance.now() - started).toBeLessThan(20_000);
    const byFile = (file: string): FlagCommand | undefined => commands.find((c) => c.file === file && c.path.length === 0);
    for (const file of ['src/cli.ts', 'src/y.ts']) {
      const command = byFile(file);
      expect(command?.params.length).toBeGreaterThan(9000);
      expect(command?.params.length).toBeLessThanOrEqual(10_000);
      expect(command?.unreadFlags?.cut).toBe(`10,000 unrolled loop iterations in ${file}`);
      const warnings = diagnostics.filter((d) => d.ruleId === 'parse-error' && d.location.file === file);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain('more than 10,000 iterations');
    }
    // 50 × 50 is read whole.
    expect(byFile('src/small.ts')?.params).toHaveLength(2500);
    expect(byFile('src/small.ts')?.unreadFlags).toBeUndefined();
  });
});

describe('loops over a slice of an option table', () => {
  const table = "const OPTIONS = [{ flags: '--alpha' }, { flags: '--beta' }, { flags: '--gamma' }, { flags: '--delta' }];";
  const cli = (loop: string): string => ["import { Command } from 'commander';", table, 'const program = new Command();', `for (const o of ${loop}) program.option(o.flags);`, 'program.parse();'].join('\n');

  it('reads the items `slice` keeps (number literals, negative ones too), not the whole table', async () => {
    expect(names(await read(cli('OPTIONS.slice(0, 2)')))).toEqual({ '': ['alpha', 'beta'] });
    expect(names(await read(cli('OPTIONS.slice(-1)')))).toEqual({ '': ['delta'] });
    expect(names(await read(cli('OPTIONS.slice(1, -1)')))).toEqual({ '': ['beta', 'gamma'] });
    expect(names(await read(cli('OPTIONS.slice()')))).toEqual({ '': ['alpha', 'beta', 'gamma', 'delta'] });
  });

  it('leaves the flags unknown when a bound is not a literal (it was read as the whole table)', async () => {
    const commands = await read(cli('OPTIONS.slice(0, process.argv.length)'));
    expect(names(commands)).toEqual({ '': [] });
    expect(commands[0]!.passesUnknownFlags).toBe(true);
  });
});
