/**
 * Parameter names in prose (issue #13 items 10 and 12): which inline code spans of a paragraph
 * are parameter-like, which are explained by the prose after them, and which are flags.
 */
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';

/** `[code, explained, flag]` of each prose code span of a document. */
function prose(text: string): Array<[string, boolean, boolean]> {
  const { doc } = parseDoc('docs/guide.md', text);
  return (doc.proseCodes ?? []).map((p) => [p.code, p.explained, p.flag]);
}

describe('proseCodes', () => {
  it('marks a name followed by prose as explained, and a bare listed name as nothing', () => {
    expect(prose('`--workers` sets how many run at once.\n\nPass `--out` or `--speed`.\n')).toEqual([
      ['--workers', true, true],
      ['--out', false, true],
      ['--speed', false, true],
    ]);
    expect(prose('Pass `num_repeats` or `seed`.\n')).toEqual([]);
  });

  it('reads definitions after a colon, in list items, through bold, and Hydra placeholders', () => {
    expect(prose('- **`--sandbox` flag:** If you have Docker installed, it runs there.\n')).toEqual([['--sandbox', true, true]]);
    expect(prose('Set any field with `++responses_create_params.<field>`, which Hydra merges into each row.\n')).toEqual([
      ['++responses_create_params.<field>', true, false],
    ]);
  });

  it('does not take a mention for an explanation: a noun phrase going on, a file name, a command line', () => {
    expect(prose('Only `project` patterns suffixed with `!` count.\n')).toEqual([]);
    expect(prose('Sidecar files go next to the `--output` file, matching its name.\n')).toEqual([['--output', false, true]]);
    expect(prose('Edit `config.yaml` to change the defaults.\n')).toEqual([]);
    // A definition after the noun is one, though (the noun's match takes the blank before it).
    expect(prose('Use the `--with` flag to specify packages your server needs.\n')).toEqual([['--with', true, true]]);
    expect(prose('The `retries` setting that the worker reads caps the attempts.\n')).toEqual([['retries', true, false]]);
    expect(prose('Use the `--with` flag to the end.\n')).toEqual([['--with', false, true]]);
    // A prefix of flags' names is no flag.
    expect(prose('To turn a flag off, use the `--no` prefix.\n')).toEqual([]);
    // CSS custom units and properties are spelled like flags.
    expect(prose('To add a custom `--foo` unit to the length category, list it.\n')).toEqual([]);
    expect(prose('Set the `--brand-color` variable in your theme.\n')).toEqual([]);
    expect(prose('Any boolean option can be negated with `--no-`, e.g. `--no-peer`.\n')).toEqual([['--no-peer', false, true]]);
    expect(prose('Run `gym env start --workers 2` to start the servers.\n')).toEqual([]);
  });

  it('marks a bare flag that a sentence or an example caption introduces, but not a list or a flag with its value', () => {
    const introduced = (text: string): Array<[string, boolean]> =>
      (parseDoc('docs/guide.md', text).doc.proseCodes ?? []).map((p) => [p.code, p.introduced === true]);
    expect(introduced('You can change the output directory using `--out`.\n')).toEqual([['--out', true]]);
    expect(introduced('This can also be done with the CLI option `--download` (`boolean` only).\n')).toEqual([['--download', true]]);
    expect(introduced('Enable notifications with the `--notify` flag:\n')).toEqual([['--notify', true]]);
    expect(introduced('You can set a custom command with `--notify-command`:\n')).toEqual([['--notify-command', true]]);
    expect(introduced('Flags for the build: `--out`.\n')).toEqual([['--out', false]]);
    expect(introduced('To skip the login on a local server, pass `--auth none`.\n')).toEqual([['--auth none', false]]);
    expect(introduced('Useful flags for the build: `--out`, `--minify` and `--base`.\n')).toEqual([['--out', false], ['--minify', false], ['--base', false]]);
    expect(introduced('Use `--out`.\n')).toEqual([['--out', false]]);
  });

  it('marks spans a sentence names as options: short ones, lists of them, one with a value placeholder (llm corpus entry)', () => {
    const introduced = (text: string): Array<[string, boolean]> =>
      (parseDoc('docs/guide.md', text).doc.proseCodes ?? []).map((p) => [p.code, p.introduced === true]);
    expect(introduced('You can pass in binary data using the `-i` and `--binary` options:\n')).toEqual([['-i', true], ['--binary', true]]);
    expect(introduced('The easiest way to create a template is using the `--save template_name` option.\n')).toEqual([['--save template_name', true]]);
    // A list with no noun after it, or no words before it, is not an introduction.
    expect(introduced('Useful flags for the build: `--out`, `--minify` and `--base`.\n')).toEqual([['--out', false], ['--minify', false], ['--base', false]]);
    expect(introduced('`-i` options.\n')).toEqual([]);
  });

  it('reads a command line ending in its one flag, followed by what it does, as explaining that flag (llm corpus entry)', () => {
    expect(prose('Use `llm fragments --aliases` to see a full list of fragments that have aliases:\n')).toEqual([['--aliases', true, false]]);
    // A command line with a value, or with nothing said after it, is not.
    expect(prose('Run `gym env start --workers 2` to start the servers.\n')).toEqual([]);
    expect(prose('Then `llm fragments --aliases`.\n')).toEqual([]);
  });

  it('reads two spellings of a flag in one span, and a short flag with its value', () => {
    expect(prose('`-c/--content` sets the text to embed.\n')).toEqual([
      ['-c', true, false],
      ['--content', true, true],
    ]);
    expect(prose('`-m 3-small` specifies the model.\n')).toEqual([['-m 3-small', true, false]]);
  });

  it('reads a definition after a noun naming the code: a purpose clause or a verb (issue #29)', () => {
    // `flag` / `options` then `to <verb>` or a verb in the third person: the sentence defines the flag.
    expect(prose('**Packages**: Use the `--with` flag to specify the packages your server needs:\n')).toEqual([['--with', true, true]]);
    expect(prose('You can pass one or more `-q term` options to pick the first model matching those terms:\n')).toEqual([['-q term', true, false]]);
    expect(prose('The `-y` flag skips asking for confirmation.\n')).toEqual([['-y', true, false]]);
    expect(prose('That `--dry-run` option causes nothing to be written.\n')).toEqual([['--dry-run', true, true]]);
    // A noun phrase that goes on is still a mention.
    expect(prose('Write the `--out` file patterns first.\n')).toEqual([['--out', false, true]]);
  });

  it('reads a flag written with several values, alone or with its second spelling (issue #29)', () => {
    expect(prose("Here `--files docs '**/*.md'` scans the docs folder for Markdown files.\n")).toEqual([["--files docs '**/*.md'", true, true]]);
    expect(prose('You can pass these using `-o/--option name value` - for example, to set the speed.\n')).toEqual([
      ['-o name value', true, false],
      ['--option name value', true, true],
    ]);
    // Two flags in one span are a command line, not one flag with values.
    expect(prose('Run with `--fast --quiet` to skip the checks.\n')).toEqual([]);
  });

  it('ignores code in headings, tables and fenced blocks', () => {
    expect(prose('## `--workers` sets it\n\n| `--out` | sets the output file |\n| --- | --- |\n\n```\n`--x` does things\n```\n')).toEqual([]);
  });
});

describe('proseCodes before', () => {
  it('keeps the text of the sentence before a flag, code spans in backticks', () => {
    const { doc } = parseDoc('docs/guide.md', 'Install it first. For Node.js 20+, use the Node.js [`--disable-warning`](https://nodejs.org) option.\n\n`--out` sets the folder.\n');
    expect((doc.proseCodes ?? []).map((p) => [p.code, p.before])).toEqual([
      ['--disable-warning', 'For Node.js 20+, use the Node.js'],
      ['--out', undefined],
    ]);
  });
});
