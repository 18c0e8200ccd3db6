/** oclif, clipanion and citty readers (issue #30 item 1): the forms the fixture twins do not cover, each on a small real-shaped program. */
import { describe, expect, it } from 'vitest';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';

type Files = Record<string, string>;

async function extract(files: Files, packageJson?: object): Promise<Awaited<ReturnType<typeof extractTypeScriptFlags>>> {
  const sources = Object.entries(files).map(([file, text]) => ({ file, text }));
  const pj = packageJson ? [{ file: 'package.json', text: JSON.stringify(packageJson, null, 2) }] : [];
  return extractTypeScriptFlags(sources, new Map(), pj);
}

/** `words → flag spellings` (`port|p`, `<file>` for positionals). */
function shape(commands: FlagCommand[]): Record<string, string[]> {
  // Sub-commands follow their program: they are named after the last program seen.
  let program = '';
  return Object.fromEntries(
    commands.map((c) => {
      if (c.path.length === 0) program = c.programName ?? '';
      return [[program, ...c.path].join(' ').trim(), c.params.map((p) => (p.positional ? `<${p.name}>` : [p.name, ...p.aliases].join('|')))];
    }),
  );
}

const OCLIF_PKG = { name: '@acme/tool', bin: { tool: './bin/run' }, oclif: { commands: './lib/commands' } };

describe('oclif', () => {
  it('reads the older @oclif/command API: flags.x, args as an array, a JavaScript class with statics assigned after it, and ids joined with `:`', async () => {
    const { commands } = await extract(
      {
        'src/commands/config/set.ts': [
          "import { Command, flags } from '@oclif/command';",
          'export default class ConfigSet extends Command {',
          "  static description = 'Set a value';",
          "  static flags = { help: flags.help({ char: 'h' }), global: flags.boolean({ char: 'g', description: 'In the user file' }) };",
          "  static args = [{ name: 'key', required: true, description: 'The key' }, { name: 'value' }];",
          '  async run() {}',
          '}',
        ].join('\n'),
        'src/commands/login.js': [
          "const { Command, flags } = require('@oclif/command');",
          'class Login extends Command { async run() {} }',
          "Login.flags = { token: flags.string({ char: 't', env: 'TOKEN', required: true }) };",
          'module.exports = Login;',
        ].join('\n'),
        'src/commands/login.test.ts': "import Login from './login';\nexport default class X extends Login {}",
      },
      OCLIF_PKG,
    );
    expect(shape(commands)).toEqual({ tool: [], 'tool config:set': ['help|h', 'global|g', '<key>', '<value>'], 'tool login': ['token|t'] });
    const set = commands.find((c) => c.path[0] === 'config:set');
    expect(set?.description).toBe('Set a value');
    expect(set?.params.find((p) => p.name === 'key')?.required).toBe(true);
    expect(commands.find((c) => c.path[0] === 'login')?.params[0]?.required).toBe(true);
    // Nothing inherits the program's flags: oclif parses each command's own.
    expect(commands.every((c) => c.framework === 'oclif')).toBe(true);
  });

  it('follows Flags.custom/option factories, flags of another module, a base class flags spread and `super.flags`', async () => {
    const { commands } = await extract(
      {
        'src/flags.ts': [
          "import { Flags } from '@oclif/core';",
          "export const env = Flags.custom<string>({ char: 'e', description: 'Target environment', options: ['dev', 'prod'] });",
          "export const common = { 'dry-run': Flags.boolean({ description: 'Print only' }) };",
        ].join('\n'),
        'src/base.ts': [
          "import { Command, Flags } from '@oclif/core';",
          "import { common } from './flags';",
          "export abstract class Base extends Command { static flags = { ...common, debug: Flags.boolean({ hidden: true }) }; }",
        ].join('\n'),
        'src/commands/push.ts': [
          "import { Flags } from '@oclif/core';",
          "import { Base } from '../base';",
          "import { env } from '../flags';",
          'export default class Push extends Base {',
          '  static flags = {',
          '    ...super.flags,',
          '    env: env({ required: true }),',
          "    level: Flags.option({ options: ['a', 'b'] as const, char: 'l' })(),",
          "    retries: Flags.integer({ default: () => 3, aliases: ['tries'] }),",
          '  };',
          '  async run() {}',
          '}',
        ].join('\n'),
      },
      OCLIF_PKG,
    );
    expect(shape(commands)['tool push']).toEqual(['dry-run', 'debug', 'env|e', 'level|l', 'retries|tries']);
    const push = commands.find((c) => c.path[0] === 'push');
    const env = push?.params.find((p) => p.name === 'env');
    expect([env?.required, env?.choices, env?.description]).toEqual([true, ['dev', 'prod'], 'Target environment']);
    expect(push?.params.find((p) => p.name === 'level')?.choices).toEqual(['a', 'b']);
    // A default computed by a function is not a value docs can be compared with.
    expect(push?.params.find((p) => p.name === 'retries')?.default).toBeUndefined();
    expect(push?.params.find((p) => p.name === 'debug')?.hidden).toBe(true);
  });

  it('reads the explicit and single discovery strategies', async () => {
    const explicit = await extract(
      {
        'src/commands.ts': "import Hello from './hello';\nexport const COMMANDS = { 'greet:hello': Hello };",
        'src/hello.ts': "import { Command, Flags } from '@oclif/core';\nexport default class Hello extends Command { static flags = { name: Flags.string({ char: 'n' }) }; async run() {} }",
      },
      { name: 'greeter', bin: { greet: 'bin/run.js' }, oclif: { bin: 'greet', commands: { strategy: 'explicit', target: './dist/commands.js', identifier: 'COMMANDS' } } },
    );
    expect(shape(explicit.commands)).toEqual({ greet: [], 'greet greet:hello': ['name|n'] });
    const single = await extract(
      { 'src/index.ts': "import { Command, Flags } from '@oclif/core';\nexport default class Main extends Command { static flags = { out: Flags.string({ char: 'o' }) }; async run() {} }" },
      { name: 'one', bin: { one: 'bin/run.js' }, oclif: { commands: { strategy: 'single', target: './dist/index.js' } } },
    );
    expect(shape(single.commands)).toEqual({ one: ['out|o'] });
  });

  it('says what it cannot read: a commands folder with no sources, and flags that are no object', async () => {
    const missing = await extract({ 'src/other.ts': 'export {}' }, OCLIF_PKG);
    expect(missing.commands).toEqual([]);
    expect(missing.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('oclif commands folder `lib/commands` has no source files')]);
    const opaque = await extract(
      { 'src/commands/run.ts': "import { Command } from '@oclif/core';\nimport { makeFlags } from 'elsewhere';\nexport default class Run extends Command { static flags = makeFlags(); async run() {} }" },
      OCLIF_PKG,
    );
    expect(opaque.diagnostics.map((d) => [d.location.file, d.location.line, d.message])).toEqual([
      ['src/commands/run.ts', 3, expect.stringContaining('oclif `static flags` of command class Run (src/commands/run.ts) is not an object docdrift reads (`makeFlags()`)')],
    ]);
  });

  it('says when flags are spread from an object built at run time, keeps the others, and lets the command take flags it does not know', async () => {
    const { commands, diagnostics } = await extract(
      {
        'src/generator.ts': "import { Flags } from '@oclif/core';\nexport function makeFlags(p: Record<string, unknown>) { return Object.fromEntries(Object.keys(p).map((k) => [k, Flags.string()])); }",
        'src/commands/generate.ts': [
          "import { Command, Flags } from '@oclif/core';",
          "import { makeFlags } from '../generator';",
          'const PROMPTS = { author: {}, license: {} };',
          "export default class Generate extends Command { static flags = { ...makeFlags(PROMPTS), yes: Flags.boolean({ char: 'y' }) }; async run() {} }",
        ].join('\n'),
      },
      OCLIF_PKG,
    );
    const generate = commands.find((c) => c.path[0] === 'generate');
    expect([generate?.params.map((p) => p.name), generate?.passesUnknownFlags]).toEqual([['yes'], true]);
    expect(diagnostics.map((d) => [d.location.file, d.location.line, d.message])).toEqual([
      ['src/commands/generate.ts', 4, expect.stringContaining('spreads `makeFlags(PROMPTS)`, flags made at run time that docdrift does not read')],
    ]);
  });

  it('with topicSeparator " " spells ids as words and keeps the `:` spelling and aliases as other paths', async () => {
    const { commands } = await extract(
      { 'src/commands/db/migrate.ts': "import { Command } from '@oclif/core';\nexport default class M extends Command { static aliases = ['db:up', 'mig']; async run() {} }" },
      { ...OCLIF_PKG, oclif: { commands: './lib/commands', topicSeparator: ' ' } },
    );
    const migrate = commands.find((c) => c.path.join(' ') === 'db migrate');
    expect(migrate?.pathAliases).toEqual([['db:migrate'], ['db', 'up'], ['db:up'], ['mig']]);
    expect(commands.map((c) => c.path.join(' '))).toEqual(['', 'db', 'db migrate']);
  });
});

describe('clipanion', () => {
  it('reads Cli.from and runExit programs, Option.Proxy, and a default command', async () => {
    const { commands } = await extract({
      'src/cli.ts': [
        "import { Cli, Command, Option, runExit } from 'clipanion';",
        "class Exec extends Command { static paths = [['exec'], ['x']]; args = Option.Proxy(); async execute() {} }",
        "class Main extends Command { name = Option.String(); force = Option.Boolean('-f,--force'); async execute() {} }",
        "export const cli = Cli.from([Exec, Main], { binaryName: 'runner' });",
        "class Solo extends Command { static paths = [Command.Default]; level = Option.String('-l', '1'); async execute() {} }",
        'runExit(Solo);',
      ].join('\n'),
    });
    expect(shape(commands)).toEqual({ runner: ['<name>', 'force|f'], 'runner exec': [], '': ['l'] });
    const exec = commands.find((c) => c.path[0] === 'exec');
    expect([exec?.passesUnknownFlags, exec?.pathAliases]).toEqual([true, [['x']]]);
    expect(commands.find((c) => c.programName === 'runner')?.params[0]?.required).toBe(true);
  });

  it('marks a program whose registered commands it cannot list', async () => {
    const { commands } = await extract({
      'src/cli.ts': "import { Cli } from 'clipanion';\nimport { plugins } from './plugins';\nconst cli = new Cli({ binaryName: 'yarn' });\nfor (const p of plugins()) cli.register(p);\ncli.runExit(process.argv.slice(2));",
    });
    expect(commands.map((c) => [c.programName, c.dynamicSubcommands])).toEqual([['yarn', true]]);
  });
});

describe('citty', () => {
  it('follows lazy sub-commands in their usual spellings and nested sub-commands', async () => {
    const { commands } = await extract({
      'src/index.ts': [
        "import { defineCommand, runMain } from 'citty';",
        'const main = defineCommand({',
        "  meta: { name: 'nuxi' },",
        '  subCommands: {',
        "    add: () => import('./add').then((r) => r.default),",
        "    init: async () => (await import('./init')).default,",
        "    info: () => import('./info'),",
        '    module: { meta: { name: "module" }, subCommands: { add: () => import("./add").then((m) => m.default) } },',
        '  },',
        '});',
        'runMain(main);',
      ].join('\n'),
      'src/add.ts': "import { defineCommand } from 'citty';\nexport default defineCommand({ args: { force: { type: 'boolean', alias: ['f'] } } });",
      'src/init.ts': "export default { args: { template: { type: 'string', alias: 't', required: true }, dir: { type: 'positional', default: '.' } } };",
      'src/info.ts': "import { defineCommand } from 'citty';\nexport default defineCommand({ args: { json: { type: 'boolean' } } });",
    });
    expect(shape(commands)).toEqual({ nuxi: [], 'nuxi add': ['force|f'], 'nuxi init': ['template|t', '<dir>'], 'nuxi info': ['json'], 'nuxi module': [], 'nuxi module add': ['force|f'] });
    const init = commands.find((c) => c.path[0] === 'init');
    expect(init?.params.map((p) => p.required)).toEqual([true, false]);
  });

  it('adds the camel/kebab twin citty also accepts, and marks sub-commands it cannot read', async () => {
    const { commands } = await extract({
      'src/cli.ts': [
        "import { defineCommand, runMain } from 'citty';",
        "import { loadCommands } from './load';",
        "const main = defineCommand({ args: { 'log-level': { type: 'string' } }, subCommands: loadCommands() });",
        'runMain(main);',
      ].join('\n'),
    });
    expect(shape(commands)).toEqual({ '': ['log-level|logLevel'] });
    expect(commands[0]?.dynamicSubcommands).toBe(true);
  });
});
