/** Pasted `--help` output as a reference layout (issue #13): the help formats of typer (rich panels) and commander, and what is not help. */
import { describe, expect, test } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { usageCommand } from '../src/docs/help-text.js';

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

  test('not help: a shell example, a code block in another language, options without a usage line', () => {
    expect(help(['mytool --seed 1 --out x'], 'bash')).toEqual([]);
    expect(help(['usage: x [-h]', '  --seed SEED  the seed'], 'python')).toEqual([]);
    expect(help(['Options:', '  --seed SEED  the seed', '  --out OUT  the out'])).toEqual([]);
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
