/**
 * A flag typed as the code declares it (#33 F10): argparse `--g` (a long option of one letter) and
 * `-gx` (a single-dash long option), click/typer/cyclopts and the TypeScript libraries' `--g`, kept
 * as `ParamSpec.optionStrings` and used by the `--fix` row, messages, hovers and example matching.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixProject, lint, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { extractPythonFlags } from '../src/extract/python/flags.js';
import { extractTypeScriptFlags } from '../src/extract/typescript/flags.js';
import { hoverMarkdown, paramAt } from '../src/lsp/navigate.js';
import { acceptsSpelling, declaredOptionStrings, flagSpelling, flagSpellingsOf, usualFlagSpelling } from '../src/model/flag-spelling.js';
import type { ParamSpec } from '../src/model/types.js';
import { removeTempDirs, tempProject } from './helpers.js';

afterEach(removeTempDirs);

/** `name → optionStrings` of every flag (not positional) of the extracted commands, `-` when absent. */
function spellings(commands: ReadonlyArray<{ params: ParamSpec[] }>): Record<string, string> {
  return Object.fromEntries(commands.flatMap((c) => c.params.filter((p) => !p.positional).map((p) => [p.name, p.optionStrings?.join(' ') ?? '-'])));
}

async function python(text: string): Promise<Record<string, string>> {
  return spellings((await extractPythonFlags([{ file: 'tool/cli.py', text }])).commands);
}

async function typescript(text: string, files: Record<string, string> = {}, packageJson?: object): Promise<Record<string, string>> {
  const sources = [{ file: 'src/cli.ts', text }, ...Object.entries(files).map(([file, t]) => ({ file, text: t }))];
  const pj = packageJson ? [{ file: 'package.json', text: JSON.stringify(packageJson) }] : [];
  return spellings((await extractTypeScriptFlags(sources, new Map(), pj)).commands);
}

describe('spelling helpers', () => {
  it('keeps declared strings only when one is not the usual spelling of its name', () => {
    expect(usualFlagSpelling('g')).toBe('-g');
    expect(usualFlagSpelling('gx')).toBe('--gx');
    expect(declaredOptionStrings(['-p', '--port'])).toBeUndefined();
    expect(declaredOptionStrings(['--g'])).toEqual(['--g']);
    expect(declaredOptionStrings(['-gx', '-gx'])).toEqual(['-gx']);
    expect(declaredOptionStrings(['-g', '--g'])).toEqual(['-g', '--g']);
    // Other prefix characters (argparse `prefix_chars="+"`) are not dash spellings.
    expect(declaredOptionStrings(['+g', '--gx'])).toBeUndefined();
  });

  it('shows the first long declared string, else the first, else the usual spelling; accepts only declared dashes', () => {
    const g = { optionStrings: ['-x', '--g'] };
    expect(flagSpelling(g, 'g')).toBe('--g');
    expect(flagSpelling(g, 'x')).toBe('-x');
    expect(flagSpelling({ optionStrings: ['-gx'] }, 'gx')).toBe('-gx');
    expect(flagSpelling({}, 'g')).toBe('-g');
    expect(flagSpelling({ optionStrings: ['--g'] }, 'no-g')).toBe('--no-g');
    expect(flagSpellingsOf({ optionStrings: ['--g', '-g'] }, 'g')).toEqual(['--g', '-g']);
    expect(acceptsSpelling(g, 'g', '--')).toBe(true);
    expect(acceptsSpelling(g, 'g', '-')).toBe(false);
    expect(acceptsSpelling({ optionStrings: ['-gx'] }, 'gx', '--')).toBe(false);
    // A flag of usual spellings keeps docdrift's lenient matching of dashes.
    expect(acceptsSpelling({}, 'port', '-')).toBe(true);
    expect(acceptsSpelling(g, 'no-g', '--')).toBe(true);
  });
});

describe('extractors keep the option strings the code declares', () => {
  it('argparse, click, typer and cyclopts', async () => {
    expect(await python([
      'import argparse',
      'parser = argparse.ArgumentParser(prog="tool")',
      'parser.add_argument("--g", type=int)',
      'parser.add_argument("-gx", type=int)',
      'parser.add_argument("-k", "--k", type=int)',
      'parser.add_argument("-p", "--port", type=int)',
      'parser.parse_args()',
    ].join('\n'))).toEqual({ g: '--g', gx: '-gx', k: '-k --k', port: '-' });
    expect(await python([
      'import click',
      '@click.command()',
      '@click.option("--g", type=int)',
      '@click.option("-gx", type=int)',
      '@click.option("-p", "--port", type=int)',
      'def main(g, gx, port):',
      '    pass',
    ].join('\n'))).toEqual({ g: '--g', gx: '-gx', port: '-' });
    expect(await python([
      'import typer',
      'app = typer.Typer()',
      '@app.command()',
      'def main(g: int = 1, seed: int = 0, x: int = typer.Option(0, "-x")):',
      '    pass',
    ].join('\n'))).toEqual({ g: '--g', seed: '-', x: '-', 'install-completion': '-', 'show-completion': '-' });
    expect(await python([
      'from cyclopts import App',
      'app = App()',
      '@app.default',
      'def main(*, g: int = 1, seed: int = 0):',
      '    pass',
    ].join('\n'))).toEqual({ g: '--g', seed: '-' });
  });

  it('commander, cac, util.parseArgs, arg, oclif, clipanion and citty', async () => {
    expect(await typescript([
      "import { Command } from 'commander';",
      'const program = new Command();',
      "program.option('--g <n>', 'GPUs').option('-p, --port <n>', 'Port').option('-x, --gy', 'Y');",
      'program.parse();',
    ].join('\n'))).toEqual({ g: '--g', port: '-', gy: '-' });
    // mri, which cac parses with, reads `-g` as `--g`: both accepted, `--g` shown.
    expect(await typescript([
      "import { cac } from 'cac';",
      "const cli = cac('tool');",
      "cli.option('--g <n>', 'GPUs');",
      'cli.parse();',
    ].join('\n'))).toEqual({ g: '--g -g' });
    expect(await typescript([
      "import { parseArgs } from 'node:util';",
      "const { values } = parseArgs({ options: { g: { type: 'string' }, port: { type: 'string', short: 'p' }, v: { type: 'boolean', short: 'v' } } });",
    ].join('\n'))).toEqual({ g: '--g', port: '-', v: '--v -v' });
    expect(await typescript([
      "import arg from 'arg';",
      "const args = arg({ '--g': Number, '--port': Number, '-p': '--port' });",
    ].join('\n'))).toEqual({ g: '--g', port: '-' });
    // oclif names a flag by its key (`--g`), its `char` is the short one.
    expect(await typescript('', {
      'src/commands/run.ts': "import { Command, Flags } from '@oclif/core';\nexport default class Run extends Command {\n  static flags = { g: Flags.integer({ description: 'GPUs' }), port: Flags.integer({ char: 'p' }), v: Flags.boolean({ char: 'v' }) };\n  async run() {}\n}\n",
    }, { name: 'tool', bin: { tool: './bin/run' }, oclif: { commands: './lib/commands' } })).toEqual({ g: '--g', port: '-', v: '--v -v' });
    expect(await typescript([
      "import { Command, Option, runExit } from 'clipanion';",
      "class Main extends Command { g = Option.String('--g'); force = Option.Boolean('-f,--force'); async execute() {} }",
      'runExit(Main);',
    ].join('\n'))).toEqual({ g: '--g', force: '-' });
    // citty shows every key as `--<key>`; its parser reads `-g` as the same key.
    expect(await typescript([
      "import { defineCommand, runMain } from 'citty';",
      "runMain(defineCommand({ meta: { name: 'tool' }, args: { g: { type: 'string' }, seed: { type: 'string' } } }));",
    ].join('\n'))).toEqual({ g: '--g -g', seed: '-' });
  });
});

/** A Python project with an argparse console script `gridtool` (`--g`, `-gx`, `--seed`) and the README `readme`. */
function argparseProject(readme: string, allowAbbrev = true): string {
  return tempProject({
    'pyproject.toml': '[project]\nname = "gridtool"\nversion = "1.0.0"\n\n[project.scripts]\ngridtool = "gridtool.cli:main"\n',
    'gridtool/__init__.py': '',
    'gridtool/cli.py': [
      'import argparse',
      '',
      '',
      'def main() -> None:',
      `    parser = argparse.ArgumentParser(prog="gridtool"${allowAbbrev ? '' : ', allow_abbrev=False'})`,
      '    parser.add_argument("--seed", type=int, default=0, help="Random seed.")',
      '    parser.add_argument("--g", type=int, default=1, help="Number of GPUs.")',
      '    parser.add_argument("-gx", type=int, default=2, help="Grid extent.")',
      '    parser.parse_args()',
      '',
    ].join('\n'),
    'README.md': readme,
  });
}

const TABLE = '# gridtool\n\n## `gridtool`\n\n| Flag | Type | Default | Description |\n| --- | --- | --- | --- |\n| `--seed` | int | `0` | Random seed. |\n';

async function lintRoot(root: string) {
  return lint({ root, config: loadConfig(root, undefined, ruleIds).config });
}

describe('examples are matched to the option strings the code declares', () => {
  it('argparse: `--g` and `-gx` match; `-g` is unknown without abbreviations, `-gx` abbreviated with them; `--gx` is unknown', async () => {
    const rows = '| `--g` | int | `1` | Number of GPUs. |\n| `-gx` | int | `2` | Grid extent. |\n';
    const examples = '\n```bash\ngridtool --seed 1 --g 2 -gx 3\ngridtool -g 2\ngridtool --gx 3\n```\n';
    const strict = await lintRoot(argparseProject(TABLE + rows + examples, false));
    const unknown = (messages: typeof strict.messages) => messages.filter((m) => m.ruleId === 'example-param-unknown').map((m) => [m.line, m.messageId, m.data.written, m.data.flag, m.message]);
    expect(unknown(strict.messages)).toEqual([
      [13, 'misspeltFlag', '-g', '--g', '`-g` is not a flag of `gridtool` (config: its CLI flags): the code declares it as `--g`, and its parser rejects other dashes.'],
      [14, 'misspeltFlag', '--gx', '-gx', '`--gx` is not a flag of `gridtool` (config: its CLI flags): the code declares it as `-gx`, and its parser rejects other dashes.'],
    ]);
    expect(strict.messages.filter((m) => m.ruleId !== 'example-param-unknown')).toEqual([]);
    // argparse (`allow_abbrev`, its default) reads `-g` as the one option string it starts: `-gx`.
    const abbreviating = await lintRoot(argparseProject(TABLE + rows + examples));
    expect(unknown(abbreviating.messages).map(([line, id, written]) => [line, id, written])).toEqual([[14, 'misspeltFlag', '--gx']]);
    expect(abbreviating.model.usages.filter((u) => u.location.line === 13).map((u) => [u.raw, u.name])).toEqual([['-g', 'gx']]);
  });

  it('a did-you-mean for a flag named in prose spells the suggestion as declared', async () => {
    const rows = '| `--g` | int | `1` | Number of GPUs. |\n| `-gx` | int | `2` | Grid extent. |\n';
    const { messages } = await lintRoot(argparseProject(`${TABLE}${rows}\nSet the grid extent with \`--gxy 4\`.\n`));
    expect(messages.map((m) => [m.messageId, m.data.flag, m.suggestion, m.message.replace(/.*(Did you mean)/, '$1')])).toEqual([
      ['unknownInProseWithSuggestion', '-gx', '-gx 4', 'Did you mean `-gx`?'],
    ]);
  });

  it('commander: `--g` is not `-g`; cac reads both', async () => {
    const files = (cli: string, examples: string): Record<string, string> => ({
      'package.json': JSON.stringify({ name: 'grid', version: '1.0.0', type: 'module', bin: { grid: 'dist/cli.js' } }),
      'src/cli.ts': cli,
      'README.md': `# grid\n\n## \`grid\`\n\n| Option | Default | Description |\n| --- | --- | --- |\n| \`--g <n>\` | \`1\` | Number of GPUs. |\n\n\`\`\`bash\n${examples}\n\`\`\`\n`,
    });
    const commander = await lintRoot(tempProject(files("import { Command } from 'commander';\nconst program = new Command();\nprogram.name('grid').option('--g <n>', 'Number of GPUs', '1');\nprogram.parse();\n", 'grid --g 2\ngrid -g 2')));
    expect(commander.messages.map((m) => [m.ruleId, m.line, m.messageId, m.data.flag])).toEqual([['example-param-unknown', 11, 'misspeltFlag', '--g']]);
    const cac = await lintRoot(tempProject(files("import { cac } from 'cac';\nconst cli = cac('grid');\ncli.option('--g <n>', 'Number of GPUs', { default: 1 });\ncli.parse();\n", 'grid --g 2\ngrid -g 2')));
    expect(cac.messages).toEqual([]);
  });
});

describe('`--fix` rows and hovers spell the flag as declared', () => {
  it('argparse: the missing rows are `--g` and `-gx`, and the fixed page is clean', async () => {
    const root = argparseProject(`${TABLE}\n\`\`\`bash\ngridtool --seed 1 --g 2 -gx 3\n\`\`\`\n`);
    const config = loadConfig(root, undefined, ruleIds).config;
    const before = await lint({ root, config });
    expect(before.messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data.row)).toEqual([
      '| `--g` | int | `1` | Number of GPUs. |',
      '| `-gx` | int | `2` | Grid extent. |',
    ]);
    await fixProject({ root, config });
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain('| `--seed` | int | `0` | Random seed. |\n| `--g` | int | `1` | Number of GPUs. |\n| `-gx` | int | `2` | Grid extent. |\n');
    expect((await lint({ root, config })).messages).toEqual([]);
  });

  it('commander: the missing row is `--g`', async () => {
    const root = tempProject({
      'package.json': JSON.stringify({ name: 'grid', version: '1.0.0', type: 'module', bin: { grid: 'dist/cli.js' } }),
      'src/cli.ts': "import { Command } from 'commander';\nconst program = new Command();\nprogram.name('grid').option('-p, --port <n>', 'Port to listen on', '8080').option('--g <n>', 'Number of GPUs', '1');\nprogram.parse();\n",
      'README.md': '# grid\n\n## `grid`\n\n| Option | Default | Description |\n| --- | --- | --- |\n| `-p`, `--port <n>` | `8080` | Port to listen on. |\n',
    });
    const config = loadConfig(root, undefined, ruleIds).config;
    await fixProject({ root, config });
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toMatch(/\n\| `--g` \|[^\n]*Number of GPUs[^\n]*\|\n$/);
    expect((await lint({ root, config })).messages).toEqual([]);
  });

  it('the hover on an example flag names it with its declared dashes', async () => {
    const root = argparseProject(`${TABLE}| \`--g\` | int | \`1\` | Number of GPUs. |\n| \`-gx\` | int | \`2\` | Grid extent. |\n\n\`\`\`bash\ngridtool --seed 1 --g 2 -gx 3\n\`\`\`\n`);
    const { model, messages } = await lintRoot(root);
    expect(messages).toEqual([]);
    const hover = (column: number): string => hoverMarkdown(model, paramAt(model, 'README.md', 12, column)!);
    expect(hover(19)).toContain('**`--g`**: parameter of `gridtool` (CLI flag)');
    expect(hover(25)).toContain('**`-gx`**: parameter of `gridtool` (CLI flag)');
    expect(hover(11)).toContain('**`--seed`**: parameter of `gridtool` (CLI flag)');
  });
});
