/** Golden-file tests for yargs/commander flag extraction (fixtures/extract/typescript-flags/<case>/expected.json), plus edge-case unit tests. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeGoldenCases, listFiles } from './golden.js';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';

const casesDir = fileURLToPath(new URL('../fixtures/extract/typescript-flags/', import.meta.url));
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;


/** Runs the extractor over a case folder and serialises the result stably. */
async function runCase(caseDir: string): Promise<unknown> {
  const files = listFiles(caseDir).map((path) => relative(caseDir, path).split('\\').join('/'));
  const sources = files.filter((f) => SOURCE.test(f)).map((file) => ({ file, text: readFileSync(join(caseDir, file), 'utf8') }));
  const result = await extractTypeScriptFlags(sources);
  return JSON.parse(JSON.stringify(result));
}

describeGoldenCases('typescript flag extraction fixtures', casesDir, runCase);

/** `path → [param name, …]` for compact assertions. */
function names(commands: FlagCommand[]): Record<string, string[]> {
  return Object.fromEntries(commands.map((c) => [c.path.join(' '), c.params.map((p) => p.name)]));
}

describe('extractTypeScriptFlags edge cases', () => {
  it('returns nothing for no input and never throws on garbage', async () => {
    expect(await extractTypeScriptFlags([])).toEqual({ commands: [], diagnostics: [] });
    const result = await extractTypeScriptFlags([{ file: 'a.ts', text: "\u0000 yargs(.option('x' ]]] new Command(" }]);
    expect(result.diagnostics.map((d) => [d.location.file, d.severity, d.ruleId])).toEqual([['a.ts', 'warn', 'parse-error']]);
  });

  it('reads parseArgs options from a literal, and gives no program when they are built at run time (parameters unknown, not none)', async () => {
    const literal = [
      "import { parseArgs } from 'node:util';",
      "parseArgs({ options: { lines: { type: 'string', short: 'n' } }, strict: false });",
    ].join('\n');
    expect(names((await extractTypeScriptFlags([{ file: 'cli.ts', text: literal }])).commands)).toEqual({ '': ['lines'] });
    const built = [
      "const { parseArgs } = require('node:util');",
      'const createOptions = (types) => {',
      '  const options = {};',
      "  Object.entries(types).forEach(([name, type]) => { options[name] = { type: type === 'boolean' ? 'boolean' : 'string' }; });",
      '  return options;',
      '};',
      "parseArgs({ args: process.argv.slice(2), options: createOptions(TYPES), allowNegative: true, strict: false });",
    ].join('\n');
    expect((await extractTypeScriptFlags([{ file: 'lib/cli/parse-args.js', text: built }])).commands).toEqual([]);
  });

  it('applies a shared builder to each command, and one helper that takes a command to each caller', async () => {
    const text = [
      "import yargs from 'yargs';",
      "const common = (y) => y.option('verbose', { type: 'boolean' }).command('inner', 'x', (z) => z.option('deep'));",
      'function withOut(y) {',
      "  return y.option('out', { alias: 'o' });",
      '}',
      "yargs().command('a', 'A', common).command('b', 'B', common).command('c', 'C', (y) => withOut(y).option('c-only')).parse();",
    ].join('\n');
    const { commands } = await extractTypeScriptFlags([{ file: 'cli.ts', text }]);
    expect(names(commands)).toEqual({ '': [], a: ['verbose'], 'a inner': ['deep'], b: ['verbose'], 'b inner': ['deep'], c: ['out', 'c-only'] });
  });

  it('keeps no type for a yargs option with a coerce function (the program sees what it returns)', async () => {
    const text = [
      "import yargs from 'yargs';",
      "yargs().option('extra-files', { type: 'string', coerce: (v) => v.split(',') })",
      "  .option('labels', { type: 'string' }).coerce('labels', (v) => v.split(','))",
      "  .option('plain', { type: 'string' }).parse();",
    ].join('\n');
    const { commands } = await extractTypeScriptFlags([{ file: 'cli.ts', text }]);
    const types = Object.fromEntries((commands[0]?.params ?? []).map((p) => [p.name, p.type]));
    expect(types).toEqual({ 'extra-files': undefined, labels: undefined, plain: 'string' });
  });

  it('locates a yargs key at its definition, names one-letter keys by their long alias, ignores built-in help/version aliases', async () => {
    const text = [
      "const yargs = require('yargs/yargs');",
      "yargs(process.argv.slice(2)).demandOption('p').alias('h', 'help').alias('V', 'version')",
      "  .option('p', { alias: 'port', type: 'number' }).default('port', 80).parse();",
    ].join('\n');
    const { commands } = await extractTypeScriptFlags([{ file: 'bin/cli.cjs', text }]);
    expect(commands).toHaveLength(1);
    expect(commands[0]?.params).toEqual([
      {
        name: 'port',
        aliases: ['p'],
        type: 'number',
        default: { kind: 'literal', text: '80' },
        required: true,
        deprecated: false,
        hidden: false,
        origin: 'cli-flag',
        owner: '',
        location: { file: 'bin/cli.cjs', line: 3, column: 11, endLine: 3, endColumn: 14 },
        dest: 'port',
      },
    ]);
  });

  it('lists the yargs singleton only when it defines something or is parsed', async () => {
    const unused = await extractTypeScriptFlags([{ file: 'a.ts', text: "import yargs from 'yargs';\nconsole.log(yargs.terminalWidth());\n" }]);
    expect(unused.commands).toEqual([]);
    // One singleton per file, however often it is required.
    const defined = await extractTypeScriptFlags([{ file: 'a.js', text: "require('yargs').option('x', {});\nconst { argv } = require('yargs').option('y');\n" }]);
    expect(defined.commands.map((c) => [c.location.line, c.params.map((p) => p.name)])).toEqual([[1, ['x', 'y']]]);
    const parsed = await extractTypeScriptFlags([{ file: 'b.js', text: "console.log(require('yargs').argv);\n" }]);
    expect(parsed.commands.map((c) => [c.path, c.params])).toEqual([[[], []]]);
  });

  it('reads commander through require, namespaces and re-exports, and merges --x with --no-x', async () => {
    const sources = [
      {
        file: 'src/program.ts',
        text: [
          "const { program, Option } = require('commander');",
          "program.option('--no-cache', 'Skip the cache').option('--cache', 'Use the cache').addOption(new Option('-q, --quiet'));",
          'export { program };',
        ].join('\n'),
      },
      { file: 'src/index.ts', text: "export * from './program.js';\n" },
      { file: 'src/bin.ts', text: "import { program } from './index.js';\nprogram.command('sub').option('-x');\nprogram.parse();\n" },
    ];
    const { commands } = await extractTypeScriptFlags(sources);
    expect(commands.map((c) => [c.path, c.file, c.params.map((p) => [p.name, p.aliases, p.type, p.negatable ?? false, p.dest])])).toEqual([
      [[], 'src/program.ts', [['cache', [], 'boolean', true, 'cache'], ['quiet', ['q'], 'boolean', false, 'quiet']]],
      [['sub'], 'src/program.ts', [['x', [], 'boolean', false, 'x']]],
    ]);
    expect(commands[0]?.params[0]?.description).toBe('Skip the cache');
  });

  it('keeps commander option arguments apart: parsers, defaults, variadic and optional values', async () => {
    const text = [
      "import { Command } from '@commander-js/extra-typings';",
      "const DEFAULT_LIMIT = 10;",
      "const toList = (v: string) => v.split(',');",
      'new Command()',
      "  .option('-l, --limit <n>', 'Limit', DEFAULT_LIMIT)",
      "  .option('--ids <ids>', 'Ids', toList)",
      "  .option('--level [n]', 'Level', parseInt, 1)",
      "  .option('--files <files...>')",
      "  .option('-v')",
      "  .argument('<inputs...>')",
      '  .parse();',
    ].join('\n');
    const { commands } = await extractTypeScriptFlags([{ file: 'x.mts', text }]);
    expect(commands[0]?.params.map((p) => [p.name, p.type, p.default?.text, p.required, p.positional ?? false])).toEqual([
      ['limit', 'string', '10', false, false], // the constant's literal value
      ['ids', undefined, undefined, false, false],
      ['level', 'number | boolean', '1', false, false],
      ['files', 'string[]', undefined, false, false],
      ['v', 'boolean', undefined, false, false],
      ['inputs', 'string[]', undefined, true, true],
    ]);
    expect(commands[0]?.params[0]?.default?.kind).toBe('literal'); // read through the const
  });

  it('does not confuse other libraries or unbound names with yargs/commander', async () => {
    const text = [
      "import { Command } from './my-command.js';",
      "import meow from 'meow';",
      "new Command('x').option('--a').parse();",
      "meow().option('b');",
      "yargs().option('c').parse();",
      "program.option('--d').parse();",
    ].join('\n');
    // meow is read (its own program, declaring no flag: any is accepted), but `.option` is no meow method.
    const { commands } = await extractTypeScriptFlags([{ file: 'a.ts', text }]);
    expect(commands.map((c) => [c.framework, c.params.length, c.passesUnknownFlags])).toEqual([['meow', 0, true]]);
  });

  it('extracts ~300 generated files that import each other', async () => {
    await extractTypeScriptFlags([{ file: 'warm.ts', text: "import yargs from 'yargs';\nyargs().option('a').parse();" }]);
    const sources: { file: string; text: string }[] = [];
    for (let i = 0; i < 300; i++) {
      const lines = ["import { Command } from 'commander';", `export const cmd${i} = new Command('c${i}');`];
      for (let j = 0; j < 10; j++) lines.push(`cmd${i}.option('--opt-${j} <v>', 'Option ${j}', '${j}');`, `function helper${j}(x: number) { return Math.max(x, ${j}); }`);
      sources.push({ file: `src/c${i}.ts`, text: lines.join('\n') });
    }
    sources.push({
      file: 'src/cli.ts',
      text: ["import { program } from 'commander';", ...sources.map((_, i) => `import { cmd${i} } from './c${i}.js';`), ...sources.map((_, i) => `program.addCommand(cmd${i});`), 'program.parse();'].join('\n'),
    });
    const result = await extractTypeScriptFlags(sources);
    expect(result.commands).toHaveLength(301);
    expect(result.commands[300]?.params).toHaveLength(10);
  });
});
