/** Pasted `--help` output as a reference layout (issues #13, #30): the help formats of the frameworks (real outputs in fixtures/help-text), and what is not help. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { usageCommand } from '../src/docs/help-text.js';
import type { HelpBlock } from '../src/model/types.js';
import { lintTwin } from './helpers.js';

const help = (lines: string[], lang = '') => parseDoc('docs/cli.md', ['# CLI', '', `\`\`\`${lang}`, ...lines, '```', ''].join('\n')).doc.helpBlocks ?? [];

describe('pasted --help output', () => {
  test('typer rich panels: box characters, the required star, a short flag column and a type column', () => {
    const [block] = help([
      ' Usage: jerboa run [OPTIONS] NAME',
      '',
      '╭─ Arguments ──────────────────────────────────────────────╮',
      '│ *    name      TEXT  The run name. [required]              │',
      '╰──────────────────────────────────────────────────────────╯',
      '╭─ Options ────────────────────────────────────────────────╮',
      '│ *  --model   -m      TEXT     Model to use. [required]     │',
      '│    --epochs          INTEGER  Passes. [default: 3]         │',
      '│    --help                     Show this message and exit.  │',
      '╰──────────────────────────────────────────────────────────╯',
    ]);
    expect(block!.usage).toEqual(['jerboa', 'run']);
    expect(block!.rows.map((r) => [r.names, r.default, r.required ?? false])).toEqual([
      [['model', 'm'], undefined, true],
      [['epochs'], '3', false],
    ]);
    expect(block!.rows[1]!.defaultLocation).toMatchObject({ line: 11, column: 51 });
  });

  test('an indented (unfenced) block of pasted --help output, as old READMEs have it', () => {
    const text = ['# kiln', '', '### Sample Usage', '', '    $ kiln --help', '    usage: kiln [-h] [--cone CONE] clay', '', '    optional arguments:', '      -h, --help   show this help message and exit', '      --cone CONE  Firing cone.', ''].join('\n');
    const [block] = parseDoc('README.md', text).doc.helpBlocks ?? [];
    expect(block?.usage).toEqual(['kiln']);
    expect(block?.rows.map((r) => [r.names, r.location.line, r.location.column])).toEqual([[['cone'], 10, 7]]);
  });

  test('a flag the argparse usage synopsis names and no option line lists is a row, located in the synopsis', () => {
    const [block] = help([
      'usage: kiln fire [-h] [--cone CONE]',
      '                 --glaze GLAZE [--kiln-id KILN_ID]',
      '',
      'options:',
      '  -h, --help     show this help message and exit',
      '  --cone CONE    Firing cone.',
      '  --glaze GLAZE  Glaze name.',
    ]);
    expect(block!.rows.map((r) => [r.names, r.location.line, r.location.column])).toEqual([[['cone'], 9, 3], [['glaze'], 10, 3], [['kiln-id'], 5, 33]]);
  });

  test('full shell prompts (`[root@host ~]#`, `user@host:~/src$`, `(venv) $`) and a comment line above the transcript', () => {
    for (const prompt of ['[root@localhost ]# kiln fire --help', 'potter@wheel:~/src$ kiln fire -h', '(venv) $ kiln fire --help']) {
      const [block] = help(['# TODO: refresh', prompt, 'usage: kiln fire [-h] [--cone CONE]', '', 'options:', '  -h, --help   show this help message and exit', '  --cone CONE  Firing cone.'], 'bash');
      expect({ prompt, usage: block?.usage, rows: block?.rows.map((r) => r.names) }).toEqual({ prompt, usage: ['kiln', 'fire'], rows: [['cone']] });
    }
  });

  test('a first line `tool sub --help` with no prompt, then the usage line: the block is help output (MinerU README)', () => {
    const [block] = help([
      'mytool-api --help',
      'Usage: mytool-api [OPTIONS]',
      '',
      'Options:',
      '  --host TEXT     Host to bind.  [default: 127.0.0.1]',
      '  --port INTEGER  Port.  [default: 8000]',
      '  --help          Show this message and exit.',
    ]);
    expect(block!.usage).toEqual(['mytool-api']);
    expect(block!.rows.map((r) => [r.names, r.default])).toEqual([[['host'], '127.0.0.1'], [['port'], '8000']]);
    // A command line alone, with no usage line after it, is an example, not help.
    expect(help(['mytool-api --help', 'mytool-api --port 9000'])).toEqual([]);
  });

  test('options only, no usage line: flag lines at the margin with indented descriptions (ts-json-schema-generator README)', () => {
    const [block] = help([
      "-p, --path 'index.ts'",
      '    The path to the TypeScript source file.',
      '',
      '-e, --expose <all|none|export>',
      '    all: Create shared $ref definitions for all types.',
      '    export (default): Create shared $ref definitions only for exported types.',
      '',
      '-c, --skip-type-check',
      '    Skip type checks for better performance.',
    ]);
    expect(block!.usage).toEqual([]);
    expect(block!.rows.map((r) => r.names)).toEqual([['path', 'p'], ['expose', 'e'], ['skip-type-check', 'c']]);
    expect(block!.location).toMatchObject({ line: 4, column: 1 });
    // Anything else in the block (a prose line at the margin) makes it not an options block.
    expect(help(['-p, --path FILE', '    The path.', 'Run it twice to be sure.', '-t, --type NAME', '    The type.'])).toEqual([]);
  });

  test('commander: `<value>` placeholders, `--no-x`, `(default: …)`', () => {
    const [block] = help([
      'Usage: pizza [options]',
      '',
      'Options:',
      '  -p, --port <number>  port to listen on (default: 3000)',
      '  --no-sauce           remove sauce',
      '  -V, --version        output the version number',
      '  -h, --help           display help for command',
    ], 'text');
    expect(block!.rows.map((r) => [r.names, r.default])).toEqual([
      [['port', 'p'], '3000'],
      [['no-sauce', 'sauce'], undefined],
      [['version', 'V'], undefined],
    ]);
  });

  test('not help: a shell example, a code block in another language', () => {
    expect(help(['mytool --seed 1 --out x'], 'bash')).toEqual([]);
    expect(help(['usage: x [-h]', '  --seed SEED  the seed'], 'python')).toEqual([]);
  });

  test('usage words: program path, `.py` and interpreter prefixes dropped; placeholders end the command', () => {
    expect(usageCommand('python -m quill [-h]')).toEqual(['quill']);
    expect(usageCommand('./bin/quill.py sub [OPTIONS] ARG')).toEqual(['quill', 'sub']);
    expect(usageCommand('llm prompt [OPTIONS] [PROMPT]')).toEqual(['llm', 'prompt']);
  });
});

describe('shell examples with continuation lines are not help', () => {
  test('`cmd [known options] \\` then indented flags', () => {
    expect(help(['datamodel-codegen [known options] \\', '  --generate-prompt "x" \\', '  --output-format json'], 'bash')).toEqual([]);
    expect(help(['datamodel-codegen [known options] \\', '  --generate-prompt "x" \\', '  --output-format json'])).toEqual([]);
  });
});

test('an excerpt of help output (a `...` line) is not a reference', () => {
  expect(help(['usage: dcg [-h] [--input INPUT] ...', '', 'options:', '  -h, --help     show help', '  --input INPUT  Input file', '  ...'], 'text')).toEqual([]);
});

/** Real `--help` output of each framework (fixtures/help-text/README.md says how it was captured). */
const real = (name: string): string[] => readFileSync(path.join(HELP_TEXT, name), 'utf8').replace(/\n+$/, '').split('\n');
const HELP_TEXT = path.resolve(import.meta.dirname, '../fixtures/help-text');
/** What a block gives, one line per row: `names default [required]`. */
const summary = (block: HelpBlock | undefined) => block && { usage: block.usage, rows: block.rows.map((r) => [r.names.join('|'), r.default ?? '', r.required ? 'required' : ''].filter((x) => x !== '').join(' ')) };

describe('the real --help output of each framework (issue #30)', () => {
  test.each([
    ['meow/help.txt', ['kiln'], ['port|p 3000', 'host', 'open']],
    ['cac/root.txt', ['kiln'], ['config', 'version|v']],
    ['cac/serve.txt', ['kiln', 'serve'], ['port|p 3000', 'host', 'open', 'config']],
    ['oclif/serve.txt', ['kiln', 'serve'], ['mode|m required', 'port|p 3000', 'host', 'json', 'open|no-open']],
    ['sade/root.txt', ['kiln'], ['config|c', 'version|v']],
    ['sade/serve.txt', ['kiln', 'serve'], ['port|p 3000', 'host', 'open', 'config|c']],
    ['citty/root.txt', ['kiln'], ['config']],
    ['citty/serve.txt', ['kiln', 'serve'], ['port|p 3000', 'host', 'open', 'mode required']],
    ['clipanion/serve.txt', ['kiln', 'serve'], ['port|p', 'host', 'open']],
    ['commander/serve.txt', ['kiln', 'serve'], ['port|p "3000"', 'host', 'no-open|open']],
    ['docopt/help.txt', ['naval_fate'], ['version', 'speed 10', 'moored', 'drifting']],
    ['click/serve.txt', ['clk', 'serve'], ['port|p 3000', 'host', 'open|no-open']],
    ['fire/fn.txt', ['fir'], ["root|r '.'", 'port|p 3000', 'host|h None', 'open|o False']],
    ['fire/serve.txt', ['fir', 'serve'], ['port|p 3000', 'host|h None']],
  ])('%s', (file, usage, rows) => {
    const blocks = help(real(file));
    expect(blocks.map(summary)).toEqual([{ usage, rows }]);
    expect(blocks[0]!.unread).toBeUndefined();
  });

  test('help that lists commands and no options (oclif, clipanion at the top level) documents nothing', () => {
    expect(help(real('oclif/root.txt'))).toEqual([]);
    expect(help(real('clipanion/root.txt'))).toEqual([]);
  });

  test('positions: the usage label of each form, the flag part and the default of a row', () => {
    // cac: the banner and the `Usage:` label come first; the block is located at the label.
    const [cac] = help(real('cac/serve.txt'));
    expect(cac!.location).toMatchObject({ line: 6, column: 1 });
    expect(cac!.rows[0]!.location).toMatchObject({ line: 10, column: 3, endColumn: 20 });
    expect(cac!.rows[0]!.defaultLocation).toMatchObject({ line: 10, column: 50 });
    // oclif: `[default: 3000]` before the description; citty: the right-aligned `--open`.
    const [oclif] = help(real('oclif/serve.txt'));
    expect(oclif!.rows[1]!.defaultLocation).toMatchObject({ line: 16, column: 34 });
    const [citty] = help(real('citty/serve.txt'));
    expect(citty!.rows[2]!.location).toMatchObject({ line: 16, column: 14, endColumn: 20 });
    // fire: `Default: 3000` on its own line under the flag.
    const [fire] = help(real('fire/serve.txt'));
    expect(fire!.rows[0]!.defaultLocation).toMatchObject({ line: 16, column: 18 });
    // commander's choices wrapped onto a line of their own are no fire `Default:` line (cspell's README).
    const [wrapped] = help(['Usage: cspell dictionaries [options]', '', 'Options:', '  --path-format <format>  Configure how to display the path.', '                          (choices: "hide", "short",', '                          default: Display most of the path.)', '  --color                 Force color.']);
    expect(summary(wrapped)).toEqual({ usage: ['cspell', 'dictionaries'], rows: ['path-format', 'color'] });
  });

  test("meow's help as its source writes it: tab-indented, in a fenced block and in an indented block", () => {
    const template = ['\tUsage', '\t  $ kiln <input>', '', '\tOptions', '\t  --port, -p  Port to listen on (default: 3000)', '\t  --open      Open the browser', '', '\tExamples', '\t  $ kiln src --port 8080'];
    expect(help(template).map(summary)).toEqual([{ usage: ['kiln'], rows: ['port|p 3000', 'open'] }]);
    const indented = ['# kiln', '', '## Usage', '', ...real('meow/help.txt').map((l) => (l === '' ? '' : `    ${l}`)), ''].join('\n');
    const blocks = parseDoc('README.md', indented).doc.helpBlocks ?? [];
    expect(blocks.map(summary)).toEqual([{ usage: ['kiln'], rows: ['port|p 3000', 'host', 'open'] }]);
    expect(blocks[0]!.rows[0]!.location).toMatchObject({ line: 10, column: 9 });
  });

  test("clipanion's rich labels (`━━━ Usage ━━━`) and docopt patterns aligned under an inline `Usage:`", () => {
    const rich = ['━━━ Usage ━━━━━━━━━━━━━━━━━━━━━━━━━━━', '', '$ kiln serve [root]', '', '━━━ Options ━━━━━━━━━━━━━━━━━━━━━━━━━', '', '  -p,--port #0    Port to listen on', '  --open          Open the browser'];
    expect(help(rich).map(summary)).toEqual([{ usage: ['kiln', 'serve'], rows: ['port|p', 'open'] }]);
    const docopt = ['Usage: naval_fate.py ship new <name>...', '       naval_fate.py ship <name> move <x> <y> [--speed=<kn>]', '       naval_fate.py -h | --help', '', 'Options:', '  -h --help     Show this screen.', '  --speed=<kn>  Speed in knots [default: 10].'];
    expect(help(docopt).map(summary)).toEqual([{ usage: ['naval_fate'], rows: ['speed 10'] }]);
  });

  test('an options part with its label and no usage line (`options:`, `optional arguments:`, `Options:`, `FLAGS`)', () => {
    for (const label of ['options:', 'optional arguments:', 'Options:', 'FLAGS']) {
      const blocks = help([label, '  -h, --help   show this help message and exit', '  --cone CONE  Firing cone. (default: 6)']);
      expect({ label, read: blocks.map(summary) }).toEqual({ label, read: [{ usage: [], rows: ['cone 6'] }] });
      // Located at its first option line.
      expect(blocks[0]!.location).toMatchObject({ line: 5, column: 3 });
    }
    // Groups: another option-list label may follow; anything else makes it no options part.
    expect(help(['Options:', '  --cone CONE  Firing cone.', '', 'Advanced options:', '  --glaze G    Glaze.']).map(summary)).toEqual([{ usage: [], rows: ['cone', 'glaze'] }]);
    expect(help(['Options:', '  --cone CONE  Firing cone.', '', 'Then run it twice.'])).toEqual([]);
  });

  test('sections that list no options give no rows: a flag line under `EXAMPLES`, `DESCRIPTION` or oclif\'s `FLAG DESCRIPTIONS` is no option', () => {
    const [block] = help(['USAGE', '  $ kiln build [--minify]', '', 'FLAGS', '  --minify  Minify output', '', 'DESCRIPTION', '  --minify is off by default.', '', 'EXAMPLES', '  --minify --out-dir public', '', 'FLAG DESCRIPTIONS', '  --minify  Minify output', '', '    Uses terser.']);
    expect(summary(block)).toEqual({ usage: ['kiln', 'build'], rows: ['minify'] });
  });

  test('a labelled options list with a line docdrift cannot follow reads nothing and says why', () => {
    const [block] = help(['Usage: kiln serve [options]', '', 'Options:', '  --port <n>   Port to listen on', '  host         Host to bind', '  --open       Open the browser']);
    expect(block!.usage).toEqual(['kiln', 'serve']);
    expect(block!.rows).toEqual([]);
    expect(block!.unread).toEqual({ reason: 'a line of its options list is not an option line docdrift reads', location: { file: 'docs/cli.md', line: 8, column: 3 } });
    // A label left of the options ends the list: what follows it is another section (mocha's
    // `Mocha Resources`, create-rslib's `Available templates:`), not an option line.
    const [ended] = help(['Usage: kiln [dir] [options]', '', 'Options:', '', '  -d, --dir <dir>  create it there', '  --no-git         skip git', '', 'Available templates:', '  node-js, node-ts', 'Kiln Resources', '  GitHub: https://github.com/kiln/kiln']);
    expect(summary(ended)).toEqual({ usage: ['kiln'], rows: ['dir|d', 'no-git|git'] });
  });

  test('not help: a description and prose around flags with no usage part, a command line before a `Usage:` line', () => {
    expect(help(['Start the dev server.', '', '  --port  the port', '  --open  open it'])).toEqual([]);
    expect(help(['$ kiln build', 'Usage: kiln build [options]', 'Options:', '  --minify  Minify'])).toEqual([]);
  });
});

/** Lints a throwaway commander project `kiln` (`--port`, `--open`) whose README is `readme`. */
async function lintKiln(readme: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'helpfmt-kiln-'));
  try {
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'kiln', version: '1.0.0', type: 'module', bin: { kiln: 'dist/cli.js' } }));
    writeFileSync(path.join(dir, 'src/cli.ts'), "import { Command } from 'commander';\nconst program = new Command();\nprogram.name('kiln').option('--port <n>', 'Port').option('--open', 'Open');\nprogram.parse();\n");
    writeFileSync(path.join(dir, 'README.md'), [...readme, ''].join('\n'));
    return await lintTwin(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a pasted help with no usage line documents the command of its section', () => {
  test('when one of its options at least is that command\'s: its other rows are checked', async () => {
    const { messages } = await lintKiln(['# `kiln`', '', '```', 'Options:', '  --port <n>  Port', '  --host <h>  Host', '  --open      Open', '```']);
    expect(messages.map((m) => [m.ruleId, m.data?.name])).toEqual([['reference-param-unknown', 'host']]);
  });
  test('when none is, it is another program\'s help pasted there: no finding', async () => {
    const { messages } = await lintKiln(['# `kiln`', '', 'The `glaze` helper:', '', '```', 'Options:', '  --rootPath <p>  Root', '  --json          JSON', '```', '', 'Run `kiln --port 1 --open`.']);
    expect(messages).toEqual([]);
  });
});

describe('a pasted help docdrift cannot follow is said once in the run notes', () => {
  test('the note names the block, the command and the line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'helpfmt-note-'));
    try {
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'kiln', version: '1.0.0', type: 'module', bin: { kiln: 'dist/cli.js' } }));
      writeFileSync(path.join(dir, 'src/cli.ts'), "import { Command } from 'commander';\nconst program = new Command();\nprogram.name('kiln').option('--port <n>', 'Port').option('--open', 'Open');\nprogram.parse();\n");
      writeFileSync(path.join(dir, 'README.md'), ['# kiln', '', '```', 'Usage: kiln [options]', '', 'Options:', '  --port <n>  Port', '  open        Open', '```', ''].join('\n'));
      const { result, messages } = await lintTwin(dir);
      expect(messages).toEqual([]);
      expect(result.notes).toContain('README.md:4: pasted `--help` output of `kiln` was not compared: a line of its options list is not an option line docdrift reads (line 8). Paste the output as the program prints it, or document its options in a table.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
