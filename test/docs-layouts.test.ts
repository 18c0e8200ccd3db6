/** Tests the reference layouts besides plain tables: multi-column tables, a heading per parameter, bullet lists. */

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isParamSpelling } from '../src/docs/layouts.js';
import { parseDoc } from '../src/docs/parse.js';
import { columnRole, columnRoles, readReferenceTable, splitAliases } from '../src/docs/reference-table.js';
import type { DocFile, ReferenceRow, SourceLocation } from '../src/model/types.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/docs/${name}`, import.meta.url), 'utf8');

/** The source text a location covers (single-line locations). */
function textAt(text: string, loc: SourceLocation | undefined): string | undefined {
  if (!loc) return undefined;
  const line = text.split('\n')[loc.line - 1] ?? '';
  return line.slice(loc.column - 1, (loc.endColumn ?? loc.column) - 1);
}

const blockOf = (doc: DocFile, headingText: string) => doc.blocks.find((b) => b.heading.text === headingText)!;
const byName = (rows: readonly ReferenceRow[] | undefined, name: string): ReferenceRow => rows!.find((r) => r.names[0] === name)!;

describe('multi-column tables: key, env var and CLI flag', () => {
  const text = [
    '# Settings',
    '',
    '| Key | Env var | CLI flag | Default | Description |',
    '| --- | --- | --- | --- | --- |',
    '| `log.level` | `MYTOOL_LOG_LEVEL` | `--log-level`, `-l` | `info` | Verbosity. |',
    '| `port` | MYTOOL_PORT | `--port <n>` | `8000` | Port. |',
    '| `token` | - | | | Secret token. |',
    '| | | `--dry-run` | | Only print. |',
    '',
  ].join('\n');
  const { doc } = parseDoc('docs/settings.md', text);
  const rows = readReferenceTable(doc.blocks[0]!.tables[0]!)!;

  test('the key is the primary name, flag spellings are aliases, the env var is read', () => {
    expect(rows.map((r) => [r.names, r.env, r.default, r.description])).toEqual([
      [['log.level', 'log-level', 'l'], 'MYTOOL_LOG_LEVEL', 'info', 'Verbosity.'],
      [['port'], 'MYTOOL_PORT', '8000', 'Port.'],
      [['token'], undefined, undefined, 'Secret token.'],
      [['dry-run'], undefined, undefined, 'Only print.'],
    ]);
    expect(rows[3]!.rawName).toBe('--dry-run');
  });

  test('positions stay exact', () => {
    expect(rows[0]!.location).toMatchObject({ line: 5, column: 1 });
    expect(textAt(text, rows[0]!.defaultLocation)).toBe('`info`');
    expect(rows[0]!.defaultLocation).toMatchObject({ line: 5, column: 60, endColumn: 66 });
  });

  test.each([
    ['Env', 'env'], ['Env var', 'env'], ['Environment variable', 'env'], ['environment', 'env'], ['Env variable', 'env'],
    ['Variable', 'env'], ['CLI flag', 'flag'], ['cli', 'flag'], ['Command-line flag', 'flag'], ['CLI option', 'flag'],
    ['Command line', 'flag'], ['Flag', 'name'], ['Option', 'name'],
  ])('columnRole(%j) → %s', (header, role) => {
    expect(columnRole(header)).toBe(role);
  });

  test.each([
    [['Setting', 'Environment variable', 'Flag'], ['name', 'env', 'flag']],
    [['Option', 'Env', 'Description'], ['name', 'env', 'description']],
    [['Flag', 'Default', 'Description'], ['name', 'default', 'description']],
    [['Key', 'Option', 'Type'], ['name', 'flag', 'type']],
    [['CLI flag', 'Description'], ['name', 'description']],
    [['Parameter', 'Flags'], ['name', 'flag']],
  ])('columnRoles(%j) → %j', (header, roles) => {
    expect(columnRoles(header)).toEqual(roles);
  });

  test('| Setting | Environment variable | Flag | rows', () => {
    const t = parseDoc('docs/s.md', [
      '# S', '', '| Setting | Environment variable | Flag |', '| --- | --- | --- |', '| `workers` | `APP_WORKERS` | `-w`, `--workers` |', '',
    ].join('\n')).doc.blocks[0]!.tables[0]!;
    expect(readReferenceTable(t)!.map((r) => [r.names, r.env])).toEqual([[['workers', 'w'], 'APP_WORKERS']]);
  });

  test('| Option | Env | Description |: the option is the name', () => {
    const t = parseDoc('docs/s.md', [
      '# S', '', '| Option | Env | Description |', '| --- | --- | --- |', '| `--verbose` | `APP_VERBOSE` | More logs. |', '',
    ].join('\n')).doc.blocks[0]!.tables[0]!;
    expect(readReferenceTable(t)!.map((r) => [r.names, r.env, r.description])).toEqual([[['verbose'], 'APP_VERBOSE', 'More logs.']]);
  });

  test('an env-only table is not a reference table', () => {
    const t = parseDoc('docs/s.md', ['# S', '', '| Variable | Description |', '| --- | --- |', '| `HOME` | Home. |', ''].join('\n'))
      .doc.blocks[0]!.tables[0]!;
    expect(readReferenceTable(t)).toBeUndefined();
  });
});

describe('a heading per parameter (terraform-docs and Docusaurus shapes)', () => {
  const text = fixture('layouts-headings.md');
  const { doc, diagnostics } = parseDoc('docs/layouts-headings.md', text);
  const inputs = blockOf(doc, 'Inputs').headingRows!;
  const train = blockOf(doc, 'train options').headingRows!;

  test('parses without diagnostics; rows are attached to every enclosing block, never to their own', () => {
    expect(diagnostics).toEqual([]);
    expect(inputs.map((r) => r.names[0])).toEqual(['instance_type', 'tags']);
    expect(train.map((r) => r.names)).toEqual([['epochs'], ['log-level', 'l'], ['lr'], ['schedule'], ['warmup'], ['batch_size']]);
    expect(blockOf(doc, 'mytool reference').headingRows!.map((r) => r.names[0])).toEqual([
      'instance_type', 'tags', 'epochs', 'log-level', 'lr', 'schedule', 'warmup', 'batch_size',
    ]);
    expect(blockOf(doc, 'epochs {#epochs}').headingRows).toEqual([]);
    expect(train.every((r) => r.location.file === 'docs/layouts-headings.md')).toBe(true);
  });

  test('terraform-docs: bare link headings, Description/Type/Default lines, a default in a fenced block', () => {
    const it = byName(inputs, 'instance_type');
    expect(it).toMatchObject({
      rawName: 'instance_type',
      type: 'string',
      default: '"t3.micro"',
      description: 'EC2 instance type. See sizes.',
      location: { line: 5, column: 1, endLine: 5, endColumn: 80 },
      defaultLocation: { line: 11, column: 10, endLine: 11, endColumn: 22 },
    });
    expect(it.links.map((l) => l.url)).toEqual(['#input_instance_type', 'sizes.md#families']);
    const tags = byName(inputs, 'tags');
    expect(tags.description).toBeUndefined(); // "Description: n/a"
    expect(tags).toMatchObject({ type: 'map(string)', default: '{\n  "team": "ml"\n}', defaultLocation: { line: 21, column: 1, endLine: 25 } });
  });

  test('`- Type:` list items and a description paragraph; the {#id} anchor is not part of the name', () => {
    expect(byName(train, 'epochs')).toMatchObject({
      rawName: 'epochs',
      type: 'int',
      default: '10',
      description: 'Number of passes over the data.',
      location: { line: 29, column: 1, endLine: 29, endColumn: 23 },
      defaultLocation: { line: 32, column: 12, endLine: 32, endColumn: 16 },
    });
  });

  test('**Type**: lines in one paragraph; aliases in the heading; a plain-text default is located on its line', () => {
    const r = byName(train, 'log-level');
    expect(r).toMatchObject({ names: ['log-level', 'l'], rawName: '--log-level, -l', type: 'string', default: 'info', description: 'Verbosity of the logs.' });
    expect(r.defaultLocation).toEqual({ file: 'docs/layouts-headings.md', line: 39, column: 14, endLine: 39, endColumn: 18 });
    expect(textAt(text, r.defaultLocation)).toBe('info');
  });

  test('a two-column key/value table, and an Env var line', () => {
    const r = byName(train, 'lr');
    expect(r).toMatchObject({ type: 'float', default: '1e-3', env: 'MYTOOL_LR', description: 'Learning rate.' });
    expect(textAt(text, r.defaultLocation)).toBe('`1e-3`');
  });

  test('definition-list form; a value list under a parameter is not a reference list', () => {
    expect(byName(train, 'schedule')).toMatchObject({ type: 'str', description: 'Learning-rate schedule, one of:' });
    expect(byName(train, 'schedule').default).toBeUndefined();
    expect(blockOf(doc, 'train options').listRows).toEqual([]);
  });

  test('a parenthesised note in the heading gives type and default (before any phrase in the prose)', () => {
    const r = byName(train, 'warmup');
    expect(r).toMatchObject({ rawName: 'warmup (int, default: 0)', type: 'int', default: '0' });
    expect(r.defaultLocation).toMatchObject({ line: 62, column: 29, endColumn: 30 });
  });

  test('an identifier heading with `_` counts; its default comes from the description phrase', () => {
    const r = byName(train, 'batch_size');
    expect(r).toMatchObject({ default: '32', description: 'Examples per step (default: 32).', location: { line: 66, column: 1 } });
    expect(textAt(text, r.defaultLocation)).toBe('32');
  });

  test('not parameters: a plain word without attributes, section words, a heading with prose, a command run in its block', () => {
    const all = blockOf(doc, 'mytool reference').headingRows!.map((r) => r.names[0]);
    expect(all).not.toContain('seed');
    expect(all).not.toContain('Examples');
    expect(all).not.toContain('train');
    expect(doc.blocks.flatMap((b) => b.headingRows ?? []).map((r) => r.names[0])).not.toContain('run');
  });

  test('a plain lower-case word heading counts once its body states an attribute', () => {
    const md = [
      '# Options', '', '### steps', '', 'Type: int', '', 'Total steps.', '', '### usage', '', 'Type: int', '',
      '### --seed', '', 'Random seed.', '', '### Verbose', '', 'Type: bool', '',
    ].join('\n');
    const rows = parseDoc('docs/o.md', md).doc.blocks[0]!.headingRows!;
    expect(rows.map((r) => [r.names, r.type, r.description])).toEqual([
      [['steps'], 'int', 'Total steps.'],
      [['seed'], undefined, 'Random seed.'],
    ]);
    expect(rows[0]!.location).toMatchObject({ line: 3, column: 1, endColumn: 10 });
  });

  test('a flag heading with a variadic placeholder run (`--projects <path1> ... <pathN>`) names the flag (issue #29)', () => {
    const md = [
      '# CLI options', '', '### `--roots <dir1> ... <dirN>`', '', 'Folders to search.', '',
      '### `--only <name1> … <nameN>`', '', 'Run only these.', '', '### `--watch`', '', 'Watch files.', '',
    ].join('\n');
    const rows = parseDoc('docs/cli.md', md).doc.blocks[0]!.headingRows!;
    expect(rows.map((r) => r.names)).toEqual([['roots'], ['only'], ['watch']]);
  });

  test('a heading grouping parameter headings (or holding a reference table) is not itself a row', () => {
    const md = [
      '# Config', '', '## `data`', '', 'Dataset options.', '', '### `data.repo_id`', '', 'Type: `str`', '',
      '## `model`', '', '| Key | Description |', '| --- | --- |', '| `name` | Model name. |', '',
    ].join('\n');
    const rows = parseDoc('docs/c.md', md).doc.blocks[0]!.headingRows!;
    expect(rows.map((r) => [r.names, r.type])).toEqual([[['data.repo_id'], 'str']]);
  });

  test('MDX: headings inside JSX, horizontal | Type | Default | table', () => {
    const mdx = [
      '# `tool train`', '', '<Section>', '', '### `epochs`', '', 'Number of passes.', '',
      '| Type | Default |', '| --- | --- |', '| `int` | `10` |', '', '</Section>', '',
    ].join('\n');
    const { doc: d, diagnostics: diags } = parseDoc('docs/t.mdx', mdx);
    expect(diags).toEqual([]);
    const rows = d.blocks[0]!.headingRows!;
    expect(rows.map((r) => [r.names, r.type, r.default, r.description])).toEqual([[['epochs'], 'int', '10', 'Number of passes.']]);
    expect(rows[0]!.defaultLocation).toMatchObject({ line: 11, column: 11, endColumn: 15 });
  });
});

describe('nested parameter headings (changesets config-file-options.md)', () => {
  const text = fixture('layouts-nested.md');
  const { doc, diagnostics } = parseDoc('docs/config-file-options.md', text);
  const rows = doc.blocks[0]!.headingRows!;
  const row = (name: string): ReferenceRow => byName(rows, name);

  test('a typed parameter heading holding parameter headings is a row and a group; children are dotted', () => {
    expect(diagnostics).toEqual([]);
    expect(rows.map((r) => r.names)).toEqual([
      ['commit'],
      ['snapshot'],
      ['snapshot.useCalculatedVersion', 'useCalculatedVersion'],
      ['snapshot.prereleaseTemplate', 'prereleaseTemplate'],
      ['privatePackages'],
      ['privatePackages.version', 'version'],
      ['privatePackages.tag', 'tag'],
      ['bumpVersionsWithWorkspaceProtocolOnly'],
      ['onlyUpdatePeerDependentsWhenOutOfRange', '___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH.onlyUpdatePeerDependentsWhenOutOfRange'],
      ['updateInternalDependents', '___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH.updateInternalDependents'],
    ]);
    // The snapshot block holds its children only, not its own row.
    expect(blockOf(doc, 'snapshot (object or undefined)').headingRows!.map((r) => r.names[0])).toEqual([
      'snapshot.useCalculatedVersion', 'snapshot.prereleaseTemplate',
    ]);
  });

  test('`## `snapshot` (object or undefined)` + "Default value:": type, default, body before the first sub-heading', () => {
    const r = row('snapshot');
    expect(r).toMatchObject({
      rawName: 'snapshot (object or undefined)',
      type: 'object or undefined',
      default: 'undefined',
      description: 'Some text about snapshot releases.',
      location: { file: 'docs/config-file-options.md', line: 11, column: 1, endLine: 11, endColumn: 36 },
      defaultLocation: { line: 13, column: 16, endLine: 13, endColumn: 27 },
    });
    expect(textAt(text, r.defaultLocation)).toBe('`undefined`');
    expect(r.links.map((l) => l.url)).toEqual(['./snapshot-releases.md']);
  });

  test('children keep their own type, default, description and exact positions', () => {
    expect(row('snapshot.useCalculatedVersion')).toMatchObject({
      rawName: 'useCalculatedVersion (boolean)',
      type: 'boolean',
      default: 'false',
      description: 'Use the calculated version as the snapshot version.',
      location: { line: 17, column: 1, endLine: 17, endColumn: 37 },
      defaultLocation: { line: 19, column: 16, endLine: 19, endColumn: 23 },
      links: [],
    });
    const pre = row('snapshot.prereleaseTemplate');
    expect(pre).toMatchObject({ type: 'string', default: 'undefined', location: { line: 23, column: 1, endColumn: 34 } });
    expect(pre.defaultLocation).toMatchObject({ line: 25, column: 16, endColumn: 27 });
    expect(textAt(text, pre.defaultLocation)).toBe('`undefined`');
  });

  test('a Type: line (no default) makes a group a row; children read Type/Default lines and a parenthesised note', () => {
    expect(row('privatePackages')).toMatchObject({ rawName: 'privatePackages', type: '{ version: boolean, tag: boolean } | false', location: { line: 29, column: 1, endColumn: 21 } });
    expect(row('privatePackages').default).toBeUndefined();
    expect(row('privatePackages.version')).toMatchObject({
      type: 'boolean', default: 'true', location: { line: 33, column: 1, endColumn: 14 }, defaultLocation: { line: 36, column: 10, endColumn: 16 },
    });
    expect(row('privatePackages.tag')).toMatchObject({ type: 'boolean', default: 'false', defaultLocation: { line: 38, column: 30, endColumn: 35 } });
  });

  test('an untyped parameter heading is a group only; its children keep the written name first, the dotted one as alias', () => {
    expect(rows.flatMap((r) => r.names)).not.toContain('___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH');
    const r = row('updateInternalDependents');
    expect(r.names).toEqual(['updateInternalDependents', '___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH.updateInternalDependents']);
    expect(r).toMatchObject({ type: '"out-of-range" | "always"', default: '"out-of-range"', location: { line: 52, column: 1, endColumn: 63 } });
    expect(textAt(text, r.defaultLocation)).toBe('`"out-of-range"`');
  });

  const read = (md: string[]) => parseDoc('docs/n.md', [...md, ''].join('\n')).doc.blocks[0]!.headingRows!;

  test('two levels of nesting: every level prefixes with its full name', () => {
    const md = [
      '# Config', '', '## `build` (object)', '', '### `cache` (object or undefined)', '', 'Default value: `undefined`', '',
      '#### `dir` (string)', '', 'Default value: `".cache"`', '', '#### `ttl` (number)', '', '### `minify` (boolean)', '',
      'Default: `true`', '', '## `out` (string | string[])', '', 'Default value: `"dist"`',
    ];
    const rows2 = read(md);
    expect(rows2.map((r) => [r.names, r.type, r.default])).toEqual([
      [['build'], 'object', undefined],
      [['build.cache', 'cache'], 'object or undefined', 'undefined'],
      [['build.cache.dir', 'dir'], 'string', '".cache"'],
      [['build.cache.ttl', 'ttl'], 'number', undefined],
      [['build.minify', 'minify'], 'boolean', 'true'],
      [['out'], 'string | string[]', '"dist"'],
    ]);
    expect(rows2.map((r) => r.location.line)).toEqual([3, 5, 9, 13, 15, 19]);
    expect(rows2[2]!.defaultLocation).toMatchObject({ line: 11, column: 16, endColumn: 26 });
  });

  test('names already written dotted are not prefixed again (nor a relative `cache.dir` under `build` › `cache`)', () => {
    const md = [
      '# Config', '', '## `snapshot` (object or undefined)', '', '### `snapshot.useCalculatedVersion` (boolean)', '',
      'Default value: `false`', '', '## `build` (object)', '', '### `cache`', '', 'Type: `object`', '', '#### `cache.dir`', '',
      'Type: `string`', '', '#### `build.cache.ttl`', '', 'Type: `number`', '', '### `other.key`', '', 'Type: `int`',
    ];
    expect(read(md).map((r) => [r.names, r.location.line])).toEqual([
      [['snapshot'], 3],
      [['snapshot.useCalculatedVersion'], 5],
      [['build'], 9],
      [['build.cache', 'cache'], 11],
      [['build.cache.dir', 'cache.dir'], 15],
      [['build.cache.ttl'], 19],
      [['other.key'], 23],
    ]);
  });

  test('plain group headings (### Options, ## Advanced) are neither rows nor prefixes', () => {
    const md = [
      '# Config', '', '## Advanced', '', '### `retries` (int)', '', 'Default: `3`', '', '### Options', '', '#### `verbose`', '',
      'Type: `bool`', '', '## `snapshot` (object)', '', '### Options', '', '#### `tag` (string)',
    ];
    expect(read(md).map((r) => [r.names, r.type, r.default])).toEqual([
      [['retries'], 'int', '3'],
      [['verbose'], 'bool', undefined],
      [['snapshot'], 'object', undefined],
      [['tag'], 'string', undefined], // not directly under `snapshot`
    ]);
  });

  test('under an untyped parameter heading (maybe a command: `### `train``) the written name stays first', () => {
    const md = [
      '# Reference', '', '### `train`', '', 'Trains a model.', '', '#### `batch_size`', '', 'Type: `int`', '',
      '#### `optim` (object)', '', '##### `lr`', '', 'Default: `0.001`',
    ];
    expect(read(md).map((r) => [r.names, r.location.line])).toEqual([
      [['batch_size', 'train.batch_size'], 7],
      [['optim', 'train.optim'], 11],
      [['optim.lr', 'train.optim.lr', 'lr'], 13],
    ]);
  });

  test('flags and command headings never prefix: `## `train`` run in an example, `### `--epochs``', () => {
    const md = [
      '# Reference', '', '## `train`', '', '```bash', 'mytool train --epochs 3', '```', '', '### `epochs`', '', 'Type: `int`', '',
      '## `serve`', '', '### `--port`', '', 'Type: `int`', '', '## `--config`', '', '### `path`', '', 'Type: `str`',
    ];
    expect(read(md).map((r) => r.names)).toEqual([['epochs'], ['port'], ['path']]);
  });
});

describe('bullet lists (mkdocs-like)', () => {
  const text = fixture('layouts-list.md');
  const { doc } = parseDoc('docs/layouts-list.md', text);
  const serve = blockOf(doc, 'mytool serve').listRows!;

  test('a list where most items start with a parameter counts; the prose item is skipped', () => {
    expect(serve.map((r) => r.names)).toEqual([['host'], ['p', 'port'], ['log.level'], ['reload']]);
    expect(serve.map((r) => r.location.line)).toEqual([7, 8, 9, 10]);
  });

  test('`--host` (str, default: `127.0.0.1`): …', () => {
    const r = serve[0]!;
    expect(r).toMatchObject({
      rawName: '--host',
      type: 'str',
      default: '127.0.0.1',
      description: 'address to bind.',
      location: { file: 'docs/layouts-list.md', line: 7, column: 1, endLine: 7, endColumn: 57 },
      defaultLocation: { line: 7, column: 27, endLine: 7, endColumn: 38 },
    });
  });

  test('`-p`, `--port` (int): … Default: 8000.', () => {
    const r = serve[1]!;
    expect(r).toMatchObject({ rawName: '-p, --port', type: 'int', default: '8000', description: 'port to listen on. Default: 8000.' });
    expect(r.defaultLocation).toMatchObject({ line: 8, column: 53, endColumn: 57 });
    expect(textAt(text, r.defaultLocation)).toBe('8000');
  });

  test('`log.level` — verbosity. Defaults to `info`.', () => {
    const r = serve[2]!;
    expect(r).toMatchObject({ default: 'info', description: 'verbosity. Defaults to info.' });
    expect(r.type).toBeUndefined();
    expect(textAt(text, r.defaultLocation)).toBe('`info`');
  });

  test('`--reload` enable auto-reload (a blank as separator)', () => {
    expect(serve[3]).toMatchObject({ description: 'enable auto-reload' });
    expect(serve[3]!.default).toBeUndefined();
  });

  test('prose lists do not count: one code-led item of three, commands, file names', () => {
    expect(blockOf(doc, 'Notes').listRows).toEqual([]);
    expect(blockOf(doc, 'Install').listRows).toEqual([]);
  });

  test('a list nested in a reference item lists values, not parameters', () => {
    expect(blockOf(doc, 'Nested').listRows!.map((r) => r.names[0])).toEqual(['data', 'model']);
    expect(blockOf(doc, 'Nested').listRows![0]!.location).toMatchObject({ line: 27, endLine: 29 });
  });

  test('the document block holds every reference list of the page', () => {
    expect(blockOf(doc, 'mytool').listRows!.map((r) => r.names[0])).toEqual(['host', 'p', 'log.level', 'reload', 'data', 'model']);
  });

  test('bold-wrapped names and links in items', () => {
    const md = ['# R', '', '- **`alpha`**: first, see [a](a.md).', '- **`beta`**: second.', ''].join('\n');
    const rows = parseDoc('docs/r.md', md).doc.blocks[0]!.listRows!;
    expect(rows.map((r) => [r.names, r.description])).toEqual([[['alpha'], 'first, see a.'], [['beta'], 'second.']]);
    expect(rows[0]!.links.map((l) => l.targetFile)).toEqual(['docs/a.md']);
  });

  test('a single key item is not a reference list', () => {
    const md = ['# R', '', '- `alpha`: first.', ''].join('\n');
    expect(parseDoc('docs/r.md', md).doc.blocks[0]!.listRows).toEqual([]);
  });

  test('a single flag item with an explicit separator is a reference list (options split by prose)', () => {
    const md = ['# R', '', 'Supported options:', '', '- `--seed N`: the seed.', '', 'Also:', '', '- `--shake/--no-shake` - shake it.', ''].join('\n');
    expect(parseDoc('docs/r.md', md).doc.blocks[0]!.listRows!.map((r) => r.names)).toEqual([['seed'], ['shake', 'no-shake']]);
  });

  test('a bold-code item takes its description from the nested list; the nested value list gives no rows', () => {
    const md = ['# R', '', '- **`--format <fmt>`**:', '  - Output format, one of:', '    - `text`', '    - `json`', '- **`--quiet`**: less output.', ''].join('\n');
    const rows = parseDoc('docs/r.md', md).doc.blocks[0]!.listRows!;
    expect(rows.map((r) => [r.names, r.description])).toEqual([[['format'], 'Output format, one of:'], [['quiet'], 'less output.']]);
  });
});

describe('value placeholders holding separators', () => {
  test('a comma or bar inside `<…>`/`[…]`/`{…}` does not split the spelling into aliases', () => {
    const md = [
      '# R', '',
      '- **`--allowed-tools <tool1,tool2,...>`**:', '  - Tools that skip the confirmation.',
      '- **`--include-directories <dir1,dir2,...>`**: extra directories.',
      '- **`--mode {fast|slow}`**: the mode.',
      '- **`-o, --out [a, b]`**: the output.', '',
    ].join('\n');
    const rows = parseDoc('docs/r.md', md).doc.blocks[0]!.listRows!;
    expect(rows.map((r) => r.names)).toEqual([['allowed-tools'], ['include-directories'], ['mode'], ['o', 'out']]);
  });

  test('splitAliases keeps placeholders whole and still splits at top-level separators', () => {
    expect(splitAliases('--x <a,b>, -x').map((p) => p.trim())).toEqual(['--x <a,b>', '-x']);
    expect(splitAliases('--color/--no-color').map((p) => p.trim())).toEqual(['--color', '--no-color']);
    expect(splitAliases('a < b, c').map((p) => p.trim())).toEqual(['a < b', 'c']);
  });
});

describe('Python-Markdown field lists under bare parameter headings (bump-my-version style docs)', () => {
  const md = [
    '# Global configuration', '',
    '## commit', '',
    '::: field-list', '    required', '    :   No', '', '    default', '    :   `False`', '', '    type', '    :   boolean', '',
    'Whether to create a commit.', '',
    '## allow_hooks (compatibility opt-in)', '',
    '::: field-list', '', '    default', '    :   `false`', '',
    'Whether hooks may use the shell.', '',
    '## Upgrading (from 1.x)', '',
    'Read the notes.', '',
  ].join('\n');
  const rows = parseDoc('docs/global.md', md).doc.blocks[0]!.headingRows!;

  test('the indented `::: field-list` body is read as label/value pairs, so a plain-word heading is a parameter', () => {
    expect(byName(rows, 'commit').default).toBe('False');
    expect(byName(rows, 'commit').type).toBe('boolean');
    expect(byName(rows, 'commit').description).toBe('Whether to create a commit.');
  });

  test('a bare name with a prose note in parentheses is a parameter when its body states attributes; the note is no type', () => {
    expect(byName(rows, 'allow_hooks').default).toBe('false');
    expect(byName(rows, 'allow_hooks').type).toBeUndefined();
    expect(rows.map((r) => r.names[0])).toEqual(['commit', 'allow_hooks']);
  });

  test('a `::: name` with a closing fence after its indented body stays as it was', () => {
    const fenced = ['# R', '', '## commit', '', '::: note', '    default', '    :   `False`', ':::', ''].join('\n');
    expect(parseDoc('docs/r.md', fenced).doc.blocks[0]!.headingRows ?? []).toEqual([]);
  });
});

describe('a section word as a parameter heading', () => {
  test('`### description` with a Type line is a parameter; `### usage` never is', () => {
    const md = [
      '# Site config', '', '## Metadata', '',
      '### title', '', '- Type: `string`', '', 'The site title.', '',
      '### description', '', '- Type: `string`', '- Default: `A VitePress site`', '', 'The site description.', '',
      '## Options', '', 'Every key below.', '',
      '### usage', '', 'How to use it.', '',
    ].join('\n');
    const rows = parseDoc('docs/site.md', md).doc.blocks[0]!.headingRows!;
    expect(rows.map((r) => r.names[0])).toEqual(['title', 'description']);
    expect(byName(rows, 'description').default).toBe('A VitePress site');
  });
});

describe('a table comparing runs', () => {
  test('settings written with values against measurement columns are no reference; `--out DIR` rows are', () => {
    const bench = ['# B', '', '| Settings | Memory | Time |', '| --- | --- | --- |', '| Default (bf16-mixed) | 26 GB | 1.3 min |',
      '| --precision bf16-true | 9 GB | 1.2 min |', '| --precision bf16-true --quantize bnb.nf4 | 6 GB | 1.8 min |', ''].join('\n');
    expect(readReferenceTable(parseDoc('docs/b.md', bench).doc.blocks[0]!.tables[0]!)).toBeUndefined();
    const ref = ['# R', '', '| Option | Short |', '| --- | --- |', '| --out DIR | -o |', '| --level <n> | -l |', ''].join('\n');
    expect(readReferenceTable(parseDoc('docs/r.md', ref).doc.blocks[0]!.tables[0]!)!.map((r) => r.names[0])).toEqual(['out', 'level']);
  });
});

describe('parameter spellings', () => {
  test.each([
    ['epochs', true], ['--log-level', true], ['-o', true], ['+limit=5', true], ['--out <dir>', true], ['--out DIR', true],
    ['log.level', true], ['--x[=Y]', true], ['pip install foo', false], ['mytool --help', false], ['src/a.py', false],
    ['README.md', false], ['config.yaml', false], ['--', false], ['', false], ['null', false], ['True', false],
    ['v1.0.0', false], ['2.1', false], ['--no', true], ['--yes', true], ['yes', false], ['v', true],
    // aider's option headings: digit-led long flags and KEY=VALUE / A:B placeholders.
    ['--4o', true], ['--35turbo', true], ['-1', false], ['-4', false], ['--api-key PROVIDER=KEY', true],
    ['--set-env ENV_VAR_NAME=value', true], ['--alias ALIAS:MODEL', true], ['--x a:b', false],
    // click's variadic metavars.
    ['--grain TEXT...', true], ['-o <TEXT TEXT>...', true],
    // paperless-ngx's env headings: a placeholder of words after `=`; a value with blanks is still prose.
    ['PAPERLESS_CONSUMER_TAG_BARCODE_MAPPING=<json dict>', true], ['APP_X=<bool>', true], ['x=1 2', false],
  ])('isParamSpelling(%j) → %s', (spelling, ok) => {
    expect(isParamSpelling(spelling)).toBe(ok);
  });
});

describe('list rows with a digit short flag', () => {
  test('`-0/--null` is the short and long spelling of one flag; `-1` alone is no flag (simonw/files-to-prompt)', () => {
    const { doc } = parseDoc('README.md', '# x\n\n### Options\n\n- `-n/--line-numbers`: Include line numbers.\n- `-0/--null`: Use NUL as separator.\n- `-1`: a value.\n');
    const rows = doc.blocks.find((b) => b.heading.text === 'Options')!.listRows!;
    expect(rows.map((r) => r.names)).toEqual([['n', 'line-numbers'], ['0', 'null']]);
  });
});
