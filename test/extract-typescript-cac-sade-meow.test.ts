/** cac, sade and meow programs read by extractTypeScriptFlags (issue #30): the forms each library is written in, followed through the shared evaluator. */
import { describe, expect, it } from 'vitest';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';
import { cacBrackets } from '../src/extract/typescript/flags-cac.js';

type Sources = Array<{ file: string; text: string }>;

async function read(text: string | Sources, file = 'cli.ts'): Promise<FlagCommand[]> {
  const sources = typeof text === 'string' ? [{ file, text }] : text;
  return (await extractTypeScriptFlags(sources)).commands;
}

/** `path → [param name, …]` for compact assertions. */
function names(commands: FlagCommand[]): Record<string, string[]> {
  return Object.fromEntries(commands.map((c) => [c.path.join(' '), c.params.map((p) => (p.positional ? `<${p.name}>` : p.name))]));
}

function param(commands: FlagCommand[], path: string, name: string): Record<string, unknown> {
  const p = commands.find((c) => c.path.join(' ') === path)?.params.find((x) => x.name === name);
  if (!p) throw new Error(`no ${name} on '${path}'`);
  return { aliases: p.aliases, type: p.type, default: p.default?.text, required: p.required, negatable: p.negatable ?? false, dest: p.dest, description: p.description, choices: p.choices, hidden: p.hidden };
}

describe('cac', () => {
  it('reads global options, commands with positionals, aliases, and the built-in -v of cli.version()', async () => {
    const commands = await read([
      "import { cac } from 'cac';",
      "const cli = cac('bundle');",
      "cli.option('-c, --config <file>', 'Use this config file').option('--log-level <level>', 'Level', { default: 'info' });",
      "cli.command('build <entry> [...more]', 'Build it').alias('b').option('--out-dir <dir>', 'Output', { default: 'dist' }).action(() => {});",
      "cli.command('preview', 'Serve').option('--strictPort', 'Fail if taken');",
      "cli.help();",
      "cli.version('1.0.0');",
      'cli.parse();',
    ].join('\n'));
    expect(names(commands)).toEqual({ '': ['config', 'log-level', 'v'], build: ['<entry>', '<more>', 'out-dir'], preview: ['strictPort'] });
    expect(commands.map((c) => [c.framework, c.programName, c.aliases, c.description])).toEqual([
      ['cac', 'bundle', undefined, undefined],
      ['cac', undefined, ['b'], 'Build it'],
      ['cac', undefined, undefined, 'Serve'],
    ]);
    expect(param(commands, '', 'config')).toMatchObject({ aliases: ['c'], type: 'string', dest: 'config', description: 'Use this config file' });
    // cac camel-cases option names: `--out-dir` sets `outDir`, and `--outDir` is the same option.
    expect(param(commands, 'build', 'out-dir')).toMatchObject({ aliases: ['outDir'], default: "'dist'", dest: 'outDir' });
    expect(param(commands, 'preview', 'strictPort')).toMatchObject({ aliases: ['strict-port'], type: 'boolean', negatable: true, dest: 'strictPort' });
    expect(param(commands, '', 'v')).toMatchObject({ hidden: true });
    const build = commands[1]?.params ?? [];
    expect(build.filter((p) => p.positional).map((p) => [p.name, p.required, p.type])).toEqual([['entry', true, 'string'], ['more', false, 'string[]']]);
  });

  it('merges the default command into the program; its aliases become a sub-command taking its arguments', async () => {
    const commands = await read([
      "const cli = require('cac')('vite');",
      "cli.option('-m, --mode <mode>', 'env mode');",
      "cli.command('[root]', 'start dev server').alias('serve').alias('dev').option('--port <port>', 'port').option('--open [path]', 'open');",
      "cli.command('build [root]').option('-w, --watch', 'watch');",
      'cli.parse();',
    ].join('\n'), 'cli.js');
    expect(names(commands)).toEqual({ '': ['mode', '<root>', 'port', 'open'], build: ['<root>', 'watch'], serve: ['<root>'] });
    expect(commands.find((c) => c.path[0] === 'serve')?.aliases).toEqual(['dev']);
    expect(param(commands, '', 'open')).toMatchObject({ type: 'string | boolean' });
  });

  it("`.alias('!')` makes a named command the default sub-command", async () => {
    const commands = await read("import cac from 'cac';\nconst cli = cac('t');\ncli.command('run', 'Run').alias('!').option('--fast', 'x');\ncli.parse();");
    expect(commands[0]?.defaultSubcommand).toBe('run');
    expect(commands[1]?.aliases).toBeUndefined();
  });

  it('reads --no-x as a negatable x (merged with --x), array types, numeric defaults through constants, and leaves custom types unknown', async () => {
    const commands = await read([
      "import { cac } from 'cac';",
      'const PORT = 5173;',
      "const opts = { default: PORT };",
      "const cli = cac('t');",
      "cli.option('--minify', 'Minify').option('--no-minify', 'Do not minify')",
      "  .option('--clear-screen', 'Clear').option('--no-open', 'Do not open')",
      "  .option('--port <port>', 'Port', opts)",
      "  .option('--target <t>', 'Targets', { type: [String] })",
      "  .option('--host [host]', 'Host', { type: [convertHost] });",
      'cli.parse();',
    ].join('\n'));
    expect(names(commands)).toEqual({ '': ['minify', 'clear-screen', 'open', 'port', 'target', 'host'] });
    expect(param(commands, '', 'minify')).toMatchObject({ type: 'boolean', negatable: true, description: 'Minify' });
    expect(param(commands, '', 'open')).toMatchObject({ type: 'boolean', negatable: true, aliases: [] });
    expect(param(commands, '', 'port')).toMatchObject({ type: 'number', default: '5173' });
    expect(param(commands, '', 'target')).toMatchObject({ type: 'string[]' });
    expect(param(commands, '', 'host').type).toBeUndefined();
  });

  it('follows options added by a helper and in a loop over a literal array; a flags string it cannot read makes the command accept unknown flags', async () => {
    const commands = await read([
      "import { cac } from 'cac';",
      "const COMMON = [{ flag: '--verbose', desc: 'Talk' }, { flag: '--quiet', desc: 'Hush' }];",
      "function withCommon(cmd) { for (const o of COMMON) cmd.option(o.flag, o.desc); return cmd; }",
      "const cli = cac('t');",
      "withCommon(cli.command('a'));",
      "cli.command('b').option(makeFlag(), 'dynamic');",
      "for (const name of names()) cli.command(name);",
      'cli.parse();',
    ].join('\n'));
    expect(names(commands)).toEqual({ '': [], a: ['verbose', 'quiet'], b: [] });
    expect(commands.find((c) => c.path[0] === 'b')?.passesUnknownFlags).toBe(true);
    expect(commands[0]?.dynamicSubcommands).toBe(true);
  });

  it('reads `new CAC()`, `const { cac } = require("cac")` and a default-import namespace call', async () => {
    const a = await read("const { cac } = require('cac');\nconst cli = cac('x');\ncli.option('--a', 'A');\ncli.parse();", 'a.js');
    const b = await read("import { CAC } from 'cac';\nconst cli = new CAC('y');\ncli.option('--b', 'B');\ncli.parse();", 'b.ts');
    expect([names(a), a[0]?.programName, names(b), b[0]?.programName]).toEqual([{ '': ['a'] }, 'x', { '': ['b'] }, 'y']);
  });
  it('reads 10,000 sub-commands of a program at most: past them a warning names the call and the cap, and the others are unknown (#33 fresh sweep: 50,000 took 507 MB)', async () => {
    const calls = Array.from({ length: 10_050 }, (_, i) => `cli.command('c${i}', 'x').option('--o${i}', 'o');`).join('\n');
    const result = await extractTypeScriptFlags([{ file: 'cli.ts', text: `import { cac } from 'cac';\nconst cli = cac('big');\ncli.option('--g', 'global');\n${calls}\ncli.parse();\n` }]);
    const program = result.commands.find((c) => c.path.length === 0);
    expect(program).toMatchObject({ dynamicSubcommands: true, dynamicSubcommandsBy: 'a cac program of more than 10,000 `.command()` calls' });
    expect(result.commands.filter((c) => c.path.length > 0)).toHaveLength(10_000);
    expect(result.commands.find((c) => c.path.join(' ') === 'c9999')?.params.map((p) => p.name)).toEqual(['o9999']);
    expect(result.commands.some((c) => c.path[0] === 'c10000')).toBe(false);
    // The options of the commands past the cap go to no command (not to the program).
    expect(program?.params.map((p) => p.name)).toEqual(['g']);
    expect(result.diagnostics.map((d) => d.message)).toEqual(['cli.ts:10004:13: cac program `big` defines more than 10,000 sub-commands; only the first 10,000 are read, the others are unknown']);
  }, 120_000);

  it('reads brackets as cac\'s regex does, in linear time (s26 sweep D5: 150,000 unclosed `<` took 20.6 s, 40,000 positionals 15.2 s)', async () => {
    const regex = (raw: string): string[] => [...raw.matchAll(/<([^>]+)>|\[([^\]]+)\]/g)].map((m) => `${m.index}:${m[1] !== undefined ? '<' : '['}${m[1] ?? m[2]}`);
    const scanned = (raw: string): string[] => [...cacBrackets(raw)].map((m) => `${m.index}:${m.required ? '<' : '['}${m.text}`);
    for (const raw of ['build <a> [b]', '<>x<a>', '[]<[a]>', '<a [b]> [c <d>]', '<<a>', '[[a]]', 'x <a', 'x [a <b>', '<a\nb>', '< >', ''] as const) expect(scanned(raw), raw).toEqual(regex(raw));
    let seed = 7;
    const alphabet = '<>[] a.';
    for (let n = 0; n < 2000; n++) {
      let raw = '';
      for (let i = 0; i < 12; i++) raw += alphabet[(seed = (seed * 1103515245 + 12345) % 2147483648) % alphabet.length];
      expect(scanned(raw), raw).toEqual(regex(raw));
    }
    const started = performance.now();
    const usage = Array.from({ length: 40_000 }, (_, i) => `<a${i}>`).join(' ');
    const commands = await read([
      "import { cac } from 'cac';",
      "const cli = cac('tsapp');",
      `cli.command('build ${'<'.repeat(150_000)}', 'Build');`,
      `cli.command('run ${usage} <a0>', 'Run');`,
      'cli.parse();',
    ].join('\n'));
    expect(performance.now() - started).toBeLessThan(8000);
    expect(names(commands).build).toEqual([]);
    expect(names(commands).run).toHaveLength(40_000);
  });
});

describe('sade', () => {
  it('applies .option/.describe/.alias to the command defined last, and options before any command to the program', async () => {
    const commands = await read([
      "const sade = require('sade');",
      'const PORT = 3000;',
      "const prog = sade('srv');",
      "prog.version('1.0.0').option('-c, --config', 'Config file', 'srv.config.js');",
      "prog.command('dev [dir]').describe(['Start a server.', 'More text.']).option('--port, -p', 'Port', PORT).option('--open', 'Open', false).alias('d', 'develop');",
      "prog.command('build <src>', 'Build', { alias: 'b', default: true }).option('-m, --minify', 'Minify', true).option('--out-dir', 'Where');",
      "prog.command('remote add <name>').option('--url', 'URL');",
      'prog.parse(process.argv);',
    ].join('\n'), 'bin.js');
    expect(names(commands)).toEqual({ '': ['v', 'config'], dev: ['<dir>', 'port', 'open'], build: ['<src>', 'minify', 'out-dir'], remote: [], 'remote add': ['<name>', 'url'] });
    expect(commands.map((c) => [c.framework, c.programName, c.aliases, c.description, c.defaultSubcommand])).toEqual([
      ['sade', 'srv', undefined, undefined, 'build'],
      ['sade', undefined, ['d', 'develop'], 'Start a server. More text.', undefined],
      ['sade', undefined, ['b'], 'Build', undefined],
      ['sade', undefined, undefined, undefined, undefined],
      ['sade', undefined, undefined, undefined, undefined],
    ]);
    expect(param(commands, '', 'config')).toMatchObject({ aliases: ['c'], type: 'string', default: "'srv.config.js'" });
    // The type is the default value's; mri accepts `--no-x` for booleans.
    expect(param(commands, 'dev', 'port')).toMatchObject({ aliases: ['p'], type: 'number', default: '3000' });
    expect(param(commands, 'dev', 'open')).toMatchObject({ type: 'boolean', negatable: true });
    expect(param(commands, 'build', 'out-dir')).toMatchObject({ type: undefined, default: undefined, dest: 'out-dir' });
    expect(param(commands, '', 'v')).toMatchObject({ hidden: true });
  });

  it('reads single-command mode: the usage arguments and every option are the program\'s', async () => {
    const commands = await read([
      "import sade from 'sade';",
      "sade('uvu [dir] [pattern]')",
      "  .option('-b, --bail', 'Exit on first failure')",
      "  .option('-C, --cwd', 'Resolve from', '.')",
      '  .action(() => {})',
      '  .parse(process.argv);',
    ].join('\n'));
    expect(names(commands)).toEqual({ '': ['<dir>', '<pattern>', 'v', 'bail', 'cwd'] });
    expect(commands[0]?.programName).toBe('uvu');
    expect(param(commands, '', 'cwd')).toMatchObject({ aliases: ['C'], type: 'string', default: "'.'" });
  });
});

describe('meow', () => {
  const HELP = [
    '`',
    '\tUsage',
    '\t  $ greet <name>',
    '',
    '\tOptions',
    '\t  --greeting, -g  Greeting to use',
    '\t  --out-dir       Where to write',
    '\t  --loud          Shout it',
    '`',
  ].join('\n');

  it('reads each key of flags as a kebab-case flag with its camel-case key as an alias, descriptions from the help text', async () => {
    const commands = await read([
      "import meow from 'meow';",
      'const DEFAULT = 1;',
      `const cli = meow(${HELP}, {`,
      '  importMeta: import.meta,',
      '  flags: {',
      "    greeting: { type: 'string', shortFlag: 'g', default: 'Hello' },",
      "    times: { type: 'number', default: DEFAULT, isRequired: true },",
      "    outDir: { type: 'string', isRequired: (flags) => flags.loud },",
      "    loud: { type: 'boolean', aliases: ['shout'] },",
      "    color: { type: 'string', choices: ['red', 'green'], isMultiple: true },",
      "    legacy: { type: 'string', alias: 'l' },",
      '  },',
      '});',
    ].join('\n'), 'cli.js');
    expect(names(commands)).toEqual({ '': ['greeting', 'times', 'out-dir', 'loud', 'color', 'legacy'] });
    expect(commands[0]?.framework).toBe('meow');
    expect(param(commands, '', 'greeting')).toMatchObject({ aliases: ['g'], type: 'string', default: "'Hello'", description: 'Greeting to use' });
    expect(param(commands, '', 'times')).toMatchObject({ type: 'number', default: '1', required: true, description: undefined });
    expect(param(commands, '', 'out-dir')).toMatchObject({ aliases: ['outDir'], required: false, dest: 'outDir', description: 'Where to write' });
    expect(param(commands, '', 'loud')).toMatchObject({ aliases: ['shout'], type: 'boolean', negatable: true });
    expect(param(commands, '', 'color')).toMatchObject({ type: 'string[]', choices: ['red', 'green'] });
    expect(param(commands, '', 'legacy')).toMatchObject({ aliases: ['l'] });
  });

  it('reads meow({ help, flags }) with flags from another module, and commands as sub-commands', async () => {
    const commands = await read([
      { file: 'flags.js', text: "export const base = { verbose: { type: 'boolean' } };\nexport const flags = { ...base, port: { type: 'number', default: 3000 } };" },
      { file: 'cli.js', text: "import meow from 'meow';\nimport { flags } from './flags.js';\nconst cli = meow({ importMeta: import.meta, help: '  --port  The port', flags, commands: ['run', 'list'] });" },
    ]);
    expect(names(commands)).toEqual({ '': ['verbose', 'port'], run: [], list: [] });
    expect(param(commands, '', 'port')).toMatchObject({ description: 'The port', default: '3000' });
  });

  it('takes the help text as the declaration without a flags object, and says the flags are unknown when it cannot read them', async () => {
    const fromHelp = await read(`const meow = require('meow');\nconst cli = meow(${HELP});`, 'a.js');
    expect(names(fromHelp)).toEqual({ '': ['greeting', 'out-dir', 'loud'] });
    expect(param(fromHelp, '', 'greeting')).toMatchObject({ aliases: ['g'], description: 'Greeting to use' });
    expect(fromHelp[0]?.passesUnknownFlags).toBeUndefined();
    const built = await read("import meow from 'meow';\nconst cli = meow('Usage: x', { flags: buildFlags() });", 'b.js');
    expect([names(built), built[0]?.passesUnknownFlags]).toEqual([{ '': [] }, true]);
    const none = await read("import meow from 'meow';\nconst cli = meow('Usage: x');", 'c.js');
    expect(none[0]?.passesUnknownFlags).toBe(true);
  });
});

describe('the program a bin runs', () => {
  it('is the JavaScript file itself when a declaration file (.d.ts) sits beside what it requires', async () => {
    const { findBinPrograms } = await import('../src/extract/typescript/programs.js');
    const files: Record<string, string> = {
      'bin.js': "const sade = require('sade');\nconst { parse } = require('./parse');\nsade('uvu [dir]').option('-b, --bail').parse(process.argv);",
      'parse/index.js': 'exports.parse = () => {};',
    };
    const found = findBinPrograms([{ file: 'package.json', text: '{"name":"uvu","bin":{"uvu":"bin.js"}}' }], [{ file: 'parse/index.d.ts', text: 'export function parse(): void;' }], new Set(Object.keys(files)), (f) => files[f]);
    expect(found.bins.map((b) => [b.name, b.source])).toEqual([['uvu', 'bin.js']]);
    expect(found.javascript.map((j) => j.file)).toEqual(['bin.js', 'parse/index.js']);
  });
});

describe('meow help text beside flags', () => {
  it('adds an option line the flags object does not declare (meow passes it on), unless allowUnknownFlags is false', async () => {
    const text = (strict: string): string =>
      `import meow from 'meow';\nconst cli = meow(\`\n  Options\n    --rainbow, -r  Include a rainbow\n    --no-sparkles  Exclude sparkles\n    --cake         Bake one\n\`, { ${strict}flags: { rainbow: { type: 'boolean', shortFlag: 'r' }, sparkles: { type: 'boolean', default: true } } });`;
    const lenient = await read(text(''), 'a.js');
    expect(names(lenient)).toEqual({ '': ['rainbow', 'sparkles', 'cake'] });
    expect(param(lenient, '', 'sparkles')).toMatchObject({ description: 'Exclude sparkles', negatable: true });
    expect(param(lenient, '', 'cake')).toMatchObject({ type: undefined, description: 'Bake one' });
    expect(names(await read(text('allowUnknownFlags: false, '), 'b.js'))).toEqual({ '': ['rainbow', 'sparkles'] });
  });
});

describe('a sub-command the config names', () => {
  it('stays the program\'s sub-command: it gets neither the program\'s flags nor sub-commands of its own', async () => {
    const { lintTwin } = await import('./helpers.js');
    const dir = new URL('../fixtures/frameworks/cac/valid', import.meta.url).pathname;
    const { result, messages } = await lintTwin(dir, { commands: { 'bundle preview': { complete: true } } });
    expect(messages).toEqual([]);
    expect(result.model.commands.map((c) => c.name).sort()).toEqual(['bundle', 'bundle build', 'bundle preview', 'bundle serve']);
    expect(result.model.commands.find((c) => c.name === 'bundle preview')?.params.map((p) => p.name)).toEqual(['files', 'strict-port']);
  });
});
