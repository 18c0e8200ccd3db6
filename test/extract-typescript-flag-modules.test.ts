/**
 * yargs command modules (`exports.command`/`builder`, `.commandDir()`, command classes,
 * `.usage(cmd, desc, builder)`), option lists built in the package (commander/yargs loops over
 * arrays filled by `push`, `.map`, `.filter`, `.concat`, `.forEach`), and arg/mri/minimist
 * option objects (issue #30). What the extractor reads is compared with what the real library
 * prints (`--help`) or parses, recorded in the fixture twins' programs.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listFiles } from './golden.js';
import { commandDirFolders, withCommandDirs } from '../src/extract/typescript/command-dirs.js';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';

const FRAMEWORKS = fileURLToPath(new URL('../fixtures/frameworks/', import.meta.url));

/** `path → ['name|alias…:type=default', …]`, the shape `--help` shows. */
function summary(commands: FlagCommand[]): Record<string, string[]> {
  return Object.fromEntries(
    commands.map((c) => [
      c.path.join(' ') + (c.aliases?.length ? ` (${c.aliases.join(',')})` : '') + (c.passesUnknownFlags ? ' [any flag]' : '') + (c.dynamicSubcommands ? ' [dynamic]' : ''),
      c.params.map((p) => `${p.positional ? '<' : ''}${[p.name, ...p.aliases].join('|')}${p.type ? `:${p.type}` : ''}${p.default ? `=${p.default.text}` : ''}${p.required ? '!' : ''}`),
    ]),
  );
}

async function read(files: Record<string, string>): Promise<Record<string, string[]>> {
  return summary((await extractTypeScriptFlags(Object.entries(files).map(([file, text]) => ({ file, text })))).commands);
}

async function fixture(name: string): Promise<Record<string, string[]>> {
  const dir = join(FRAMEWORKS, name, 'valid');
  const sources = listFiles(dir)
    .map((path) => relative(dir, path).split('\\').join('/'))
    .filter((f) => /\.[cm]?[jt]s$/.test(f))
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
  return summary((await extractTypeScriptFlags(sources)).commands);
}

describe('yargs command modules', () => {
  it('reads the fixture as yargs 17 prints its --help (commandDir with exclude, exports.*, module.exports, Object.assign and spread builders, a class)', async () => {
    // `shipit --help`, `shipit deploy --help`, …: the same flags, aliases and defaults (the
    // built-in --help/--version aside); `_helpers.js` is excluded; `logs` is named by its file.
    expect(await fixture('yargs-command-modules')).toEqual({
      '': ['config|c:string=\'shipit.json\''],
      deploy: ['<ref', 'target|t:string=\'staging\'', 'verbose|v:boolean=false', 'force|f:boolean=false', 'timeout:number=300'],
      logs: ['lines|n:number=100', 'follow:boolean'],
      'rollback (rb)': ['<release!', 'target|t:string=\'staging\'', 'verbose|v:boolean=false', 'keep-data|keepData:boolean=true'],
      status: ['<env', 'json:boolean=false'],
    });
  });

  it('reads ES module command modules, imported command classes with getters and static members, and .usage(cmd, desc, builder)', async () => {
    expect(
      await read({
        'src/cli.ts': [
          "import yargs from 'yargs';",
          "import * as serve from './serve.js';",
          "import { CleanCommand, Info } from './classes.js';",
          "yargs(process.argv.slice(2)).usage('$0 <entry>', 'Bundle an entry', (y) => y.option('minify', { type: 'boolean' }))",
          '  .command(serve).command(new CleanCommand()).command(Info).parse();',
        ].join('\n'),
        'src/serve.ts': ["export const command = ['serve [port]', 's'];", "export const describe = 'Serve';", "export const builder = { host: { type: 'string', default: 'localhost' } };", 'export const handler = () => {};'].join('\n'),
        'src/classes.ts': [
          'export class CleanCommand {',
          "  command = 'clean';",
          "  get describe() { return 'Remove the output'; }",
          "  get builder() { return { all: { type: 'boolean', alias: 'a' } }; }",
          '  handler() {}',
          '}',
          "export class Info { static command = 'info'; static builder(y) { return y.option('json', { type: 'boolean' }); } }",
        ].join('\n'),
      }),
    ).toEqual({
      '': ['<entry!', 'minify:boolean'],
      'serve (s)': ['<port', "host:string='localhost'"],
      clean: ['all|a:boolean'],
      info: ['json:boolean'],
    });
  });

  it('follows .commandDir() options: recurse, extensions, include/exclude patterns, path.join(__dirname, …), visit: m => m.default', async () => {
    const files = {
      'src/cli.ts': [
        "import yargs from 'yargs';",
        "import path from 'node:path';",
        "yargs(process.argv.slice(2)).commandDir(path.join(__dirname, 'cmds'), { extensions: ['js', 'ts'], recurse: true, exclude: /\\.test\\.ts$/, visit: (m) => m.default }).parse();",
      ].join('\n'),
      'src/cmds/a.ts': "export default { command: 'alpha', builder: (y) => y.commandDir('a-cmds') };",
      'src/cmds/a-cmds/x.ts': "export default { command: 'x', builder: { deep: { type: 'number' } } };",
      'src/cmds/b.test.ts': "export default { command: 'not-a-command' };",
      'src/cmds/types.d.ts': 'export interface Nope {}',
      'src/other/c.ts': "export default { command: 'elsewhere' };",
    };
    // recurse flattens `a-cmds/x.ts` onto the top level as well, as yargs' recursive readdir does;
    // the nested `.commandDir('a-cmds')` (default visit: the namespace, no `command` → file name)
    // gives `alpha x`.
    expect(await read(files)).toEqual({ '': [], alpha: [], 'alpha x': [], x: ['deep:number'] });
  });

  // s25 sweep D5: the project's include pattern ran on JavaScript's backtracking engine (50 s for this name).
  it('runs an include pattern in linear time: a nested quantifier against a long almost-matching name', async () => {
    const started = performance.now();
    const files = {
      'src/cli.ts': "import yargs from 'yargs';\nyargs(process.argv.slice(2)).commandDir('cmds', { extensions: ['ts'], include: /^(a+)+$|ok\\.ts$/i }).parse();",
      [`src/cmds/${'a'.repeat(30)}!.ts`]: "export const command = 'skipped';",
      'src/cmds/OK.ts': "export const command = 'kept';",
    };
    expect(await read(files)).toEqual({ '': [], kept: [] });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('says so when a .commandDir() cannot be read (a computed folder, a visitor that transforms modules), and when a builder cannot be followed', async () => {
    expect(
      await read({
        'cli.js': [
          "const yargs = require('yargs');",
          "yargs.commandDir(process.env.CMDS).commandDir('cmds', { visit: (m) => m.build() })",
          "  .command('run', 'Run', Object.assign({}, loadShared(), { x: {} }))",
          "  .command('go', 'Go', { ...loadShared(), y: { type: 'string' } })",
          '  .argv;',
        ].join('\n'),
        'cmds/one.js': "exports.command = 'one';",
      }),
    ).toEqual({ ' [dynamic]': [], 'run [any flag]': [], 'go [any flag]': ['y:string'] });
  });
});

describe('option lists built in the package', () => {
  it('unrolls loops over arrays filled by push/unshift, .map, .filter with known predicates, .concat and .forEach, also across modules', async () => {
    expect(
      await read({
        'cli.ts': [
          "import { Command } from 'commander';",
          "import { COMMON, EXTRA } from './options.js';",
          'const OPTIONS = [];',
          "OPTIONS.push({ flags: '-p, --port <n>', description: 'Port' });",
          "OPTIONS.push({ flags: '--host <h>' }, ...EXTRA.filter((o) => !o.internal && o.name !== 'skip'));",
          "OPTIONS.unshift({ flags: '--first' });",
          'const program = new Command();',
          'for (const o of OPTIONS) program.option(o.flags, o.description);',
          "const sub = program.command('sub');",
          "COMMON.map((o) => ({ flags: `--${o.name} <v>`, description: o.help })).concat([{ flags: '--last' }]).forEach(({ flags, description }) => sub.option(flags, description));",
          'program.parse();',
        ].join('\n'),
        'options.ts': [
          "export const COMMON = [{ name: 'alpha', help: 'A' }, { name: 'beta' }];",
          "export const EXTRA = [{ flags: '--pub', name: 'pub' }, { flags: '--secret', internal: true }, { flags: '--skip', name: 'skip' }];",
        ].join('\n'),
      }),
    ).toEqual({ '': ['first:boolean', 'port|p:string', 'host:string', 'pub:boolean'], sub: ['alpha:string', 'beta:string', 'last:boolean'] });
  });

  it('reads yargs options looped from a mapped list and leaves an array it cannot follow unread, saying so', async () => {
    expect(
      await read({
        'cli.js': [
          "const yargs = require('yargs/yargs');",
          "const NAMES = ['one', 'two'].map((n) => `opt-${n}`);",
          'const y = yargs(process.argv.slice(2));',
          "for (const name of NAMES) y.option(name, { type: 'string' });",
          "const DYNAMIC = []; DYNAMIC.push('kept'); DYNAMIC.splice(0, 1);",
          'for (const name of DYNAMIC) y.option(name);',
          "for (const o of EXTERNAL.filter((o) => o.enabled)) y.option(o.name);",
          'y.parse();',
        ].join('\n'),
      }),
    ).toEqual({ ' [any flag]': ['opt-one|optOne:string', 'opt-two|optTwo:string'] });
  });

  it('still reads .addOption(new Option(…)) and .requiredOption, and commander subclasses whose createCommand makes the subclass', async () => {
    expect(
      await read({
        'cli.ts': [
          "import { Command, Option } from 'commander';",
          'class MyCommand extends Command {',
          '  createCommand(name) { return new MyCommand(name); }',
          '}',
          "const program = new MyCommand('tool');",
          "program.addOption(new Option('-x, --mode <m>', 'Mode').choices(['a', 'b']).default('a')).requiredOption('--token <t>', 'Token');",
          "program.command('inner').option('--deep');",
          'program.parse();',
        ].join('\n'),
      }),
    ).toEqual({ '': ["mode|x:string='a'", 'token:string!'], inner: ['deep:boolean'] });
  });
});

describe('arg, mri and minimist', () => {
  it('reads the fixtures as the parsers accept them', async () => {
    // `node bin/servo.js -p 3000 -H a -H b -vv` → {"--port":3000,"--header":["a","b"],"--verbose":2};
    // `--hostname` and `--no-cors` are errors (arg accepts only what it declares).
    expect(await fixture('arg')).toEqual({ '': ['port|p:number', 'host:string', 'cors:boolean', 'header|H:string[]', 'verbose|v:number'] });
    // mri: `-w --no-minify --out=x --target es5` → {w,watch:true, minify,m:false, out,o:'x', target:'es5', format:'esm', sourcemap:true}.
    expect(await fixture('mri')).toEqual({ ' [any flag]': ['watch|w:boolean', 'minify|m:boolean', "out|o:string='dist'", "format:string='esm'", 'sourcemap:boolean=true', 'quiet'] });
    // minimist: `-e txt --depth 2` → {e,ext:'txt', depth:2, json:false, recursive,r:false, limit:10}.
    expect(await fixture('minimist')).toEqual({ ' [any flag]': ["ext|e:string='md'", 'ignore|i:string', 'json:boolean', 'recursive|r:boolean=false', 'limit'] });
  });

  it('reads arg aliases, types and handlers, permissive mode, and a spec it cannot read as a program with unknown flags', async () => {
    expect(
      await read({
        'a.ts': [
          "import arg from 'arg';",
          "arg({ '--date': (v) => new Date(v), '--flag': arg.flag(() => true), '-q': Boolean, 'bad': String, '--n': '--date' }, { permissive: true });",
        ].join('\n'),
      }),
    ).toEqual({ ' [any flag]': ['date|n', 'flag', 'q:boolean'] });
    expect(await read({ 'b.js': "const arg = require('arg');\nconst args = arg(buildSpec());" })).toEqual({ ' [any flag]': [] });
  });

  it('reads minimist/mri through variables, require() calls and destructured results; an unknown handler makes them strict', async () => {
    expect(
      await read({
        'a.mjs': ["import minimist from 'minimist';", 'const { size, quiet: q } = minimist(process.argv.slice(2));'].join('\n'),
        'b.js': [
          "const OPTS = { boolean: ['x'], alias: { x: 'extra' }, unknown: (a) => false };",
          "const argv = require('mri')(process.argv.slice(2), OPTS);",
          "console.log(argv.other, argv['x']);",
        ].join('\n'),
      }),
    ).toEqual({ ' [any flag]': ['size', 'quiet'], '': ['extra|x:boolean'] });
  });

  it('joins a short and a long name read as alternatives (http-server: argv.p || argv.port, !argv.s && !argv.silent), not two long ones', async () => {
    const text = [
      "var argv = require('minimist')(process.argv.slice(2), { alias: { tls: 'ssl' } });",
      'var port = argv.p || argv.port, tls = argv.S || argv.tls, user = argv.user ?? argv.username;',
      'if (!argv.s && !argv.silent) log();',
      'if (argv.gzip || argv.brotli) compress();',
    ].join('\n');
    expect(await read({ 'bin/http-server': text })).toEqual({ ' [any flag]': ['tls|ssl|S', 'port|p', 'username|user', 'silent|s', 'gzip', 'brotli'] });
    expect(await read({ 'cli.js': "main(require('minimist')(process.argv.slice(2), { boolean: ['x'] }));" })).toEqual({ ' [any flag]': [] });
  });

  it('leaves the flags unknown when the whole result is handed on (pretty-quick spreads it into its options), not when it is only logged', async () => {
    const handedOn = ["import mri from 'mri';", "const args = mri(process.argv.slice(2), { alias: { 'ignore-path': 'ignorePath' } });", 'run({ ...args, onDone() {} });'].join('\n');
    expect(await read({ 'cli.mts': handedOn })).toEqual({ ' [any flag]': [] });
    const logged = ["const argv = require('minimist')(process.argv.slice(2), { boolean: ['x'] });", 'console.log(JSON.stringify(argv), typeof argv.y, argv === null);'].join('\n');
    const { commands } = await extractTypeScriptFlags([{ file: 'cli.js', text: logged }]);
    expect(commands[0]?.params.map((p) => [p.name, p.negatable ?? false])).toEqual([['x', true], ['y', true]]);
  });
});

describe('commandDir discovery', () => {
  it('lists the folders .commandDir() names, relative to the calling file, and adds their files (again for nested calls)', () => {
    expect(commandDirFolders('bin/cli.js', "y.commandDir('../lib/cmds').commandDir(path.join(__dirname, 'more'), {}).commandDir(`${__dirname}/t`)")).toEqual(['lib/cmds', 'bin/more', 'bin/t']);
    expect(commandDirFolders('cli.js', 'y.commandDir(dir)')).toEqual([]);
    const sources = [
      { file: 'bin/cli.js', text: "y.commandDir('../cmds')" },
      { file: 'cmds/a.js', text: "exports.builder = (y) => y.commandDir('a')" },
      { file: 'cmds/a/deep.js', text: '' },
      { file: 'other/x.js', text: '' },
    ];
    expect([...withCommandDirs(new Set(['bin/cli.js']), sources)]).toEqual(['bin/cli.js', 'cmds/a.js', 'cmds/a/deep.js']);
  });
});
