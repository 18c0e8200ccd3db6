/** Tests readReferenceTable: header synonyms, name normalisation and aliases, defaults from a column or a phrase. */

import { describe, expect, test } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { columnRole, defaultFromDescription, nameCellSpelling, normalizeParamName, readReferenceTable, readReferenceTableWhole } from '../src/docs/reference-table.js';
import type { DocTable } from '../src/model/types.js';
import { cellLocation } from '../src/docs/position.js';

/** The first table of a Markdown snippet, parsed for real. */
function table(lines: string[]): DocTable {
  const { doc } = parseDoc('docs/ref.md', ['# Ref', '', ...lines, ''].join('\n'));
  return doc.blocks[0]!.tables[0]!;
}

describe('header synonyms', () => {
  test.each([
    ['Parameter', 'name'], ['parameters', 'name'], [' Option ', 'name'], ['Options', 'name'], ['Flag', 'name'],
    ['Flags', 'name'], ['NAME', 'name'], ['Argument', 'name'], ['Arguments', 'name'], ['Key', 'name'],
    ['Field', 'name'], ['Setting', 'name'], ['Override', 'name'], ['**Parameter**', 'name'], ['`Key`', 'name'],
    ['Type', 'type'], ['Default', 'default'], ['Default value', 'default'], ['default  value:', 'default'],
    ['Description', 'description'], ['Meaning', 'description'], ['Details', 'description'], ['Notes', 'description'],
    ['Help', 'description'], ['Example', undefined], ['Required', undefined],
  ])('%j → %s', (header, role) => {
    expect(columnRole(header)).toBe(role);
  });

  test('a table without a name column is not a reference table', () => {
    expect(readReferenceTable(table(['| Model | Score |', '| --- | --- |', '| a | 1 |']))).toBeUndefined();
  });
});

describe('names', () => {
  test.each([
    ['+key', 'key'], ['++key', 'key'], ['~key', 'key'], ['--flag', 'flag'], ['-v', 'v'], ['key=value', 'key'],
    ['--flag <n>', 'flag'], ['--flag=<n>', 'flag'], ['--out[=DIR]', 'out'], ['--[no-]cache', 'cache'],
    ['+responses_create_params.temperature=0.7', 'responses_create_params.temperature'], ['', ''], ['--', ''],
    // Found by the property test (normalising is idempotent): every prefix goes, not only the first.
    ['----flag=', 'flag'], ['--[no-]--x', 'x'],
  ])('normalizeParamName(%j) → %j', (spelling, name) => {
    expect(normalizeParamName(spelling)).toBe(name);
  });

  test('names come from the name cell\'s codes; several in one cell are aliases, the first primary', () => {
    const rows = readReferenceTable(table([
      '| Option | Description |',
      '| --- | --- |',
      '| `--out <dir>`, `-o` | Output directory. |',
      '| `a` / `b` | Either. |',
      '| `x, y` | Both in one code. |',
      '| `+limit=5` (optional) | A limit. |',
      '| plain_name | No code. |',
      '| | Empty name row is skipped. |',
    ]))!;
    expect(rows.map((r) => [r.names, r.rawName])).toEqual([
      [['out', 'o'], '--out <dir>, -o'],
      [['a', 'b'], 'a / b'],
      [['x', 'y'], 'x, y'],
      [['limit'], '+limit=5 (optional)'],
      [['plain_name'], 'plain_name'],
    ]);
  });
});

describe('types, descriptions, defaults', () => {
  const t = table([
    '| Parameter | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    '| `+limit` | `int \\| None` | `None` | Stop after this many tasks. |',
    '| `+resume_from_cache` | `bool` | | Skip finished tasks. Default: `False`. |',
    '| `+temperature` | float | — | Sampling temperature (default: 1.0). |',
    '| `+seed` | int | `0` (fixed) | Seed. |',
    '| `+name` | | | A name. |',
  ]);
  const rows = readReferenceTable(t)!;

  test('type and description cells', () => {
    expect(rows[0]).toMatchObject({ names: ['limit'], type: 'int | None', description: 'Stop after this many tasks.' });
    expect(rows[4]!.type).toBeUndefined();
  });

  test('a Default column wins; its first code is the value', () => {
    expect(rows[0]!.default).toBe('None');
    // The code span holding the value, not the whole cell.
    expect(rows[0]!.defaultLocation).toMatchObject({ line: 5, column: 30, endColumn: 36 });
    expect(rows[3]!.default).toBe('0');
  });

  test('an empty or dash Default cell falls back to a "Default: `x`" phrase in the description', () => {
    expect(rows[1]!.default).toBe('False');
    expect(rows[1]!.defaultLocation).toMatchObject({ line: 6, column: 67, endColumn: 74 });
    // Without a code span, the value's cell.
    expect(rows[2]!.defaultLocation).toEqual(cellLocation(t.location.file, t.rows[2]!, 3));
    expect(rows[2]!.defaultLocation).toMatchObject({ line: expect.any(Number), endColumn: expect.any(Number) });
    expect(rows[2]!.default).toBe('1.0');
  });

  test('no default anywhere → undefined', () => {
    expect(rows[4]!.default).toBeUndefined();
    expect(rows[4]!.defaultLocation).toBeUndefined();
  });

  test('rows keep their links and location', () => {
    const r = readReferenceTable(table([
      '| Key | Notes |',
      '| --- | --- |',
      '| `agent_name` | See [agents](agents.md#servers). |',
    ]))!;
    expect(r[0]!.links.map((l) => [l.url, l.targetFile, l.fragment])).toEqual([['agents.md#servers', 'docs/agents.md', 'servers']]);
    expect(r[0]!.location).toMatchObject({ file: 'docs/ref.md', line: 5, column: 1 });
  });
});

describe('defaults written as code', () => {
  test('a default cell or phrase that is one code span is marked defaultCode; plain text and code among words are not', () => {
    const r = readReferenceTable(table([
      '| Key | Default | Description |',
      '| --- | --- | --- |',
      '| `scopes` | `openid email profile` | Scopes. |',
      '| `mode` | openid email | Mode. |',
      '| `level` | `info` (or `debug`) | Level. |',
      '| `retries` | - | Retries. Default: `3 times`. |',
    ]))!;
    expect(r.map((row) => [row.default, row.defaultCode ?? false])).toEqual([
      ['openid email profile', true],
      ['openid email', false],
      ['info', false],
      ['3 times', true],
    ]);
  });
});

describe('default phrases', () => {
  test.each([
    ['Skip finished tasks. Default: False.', ['False'], 'False'],
    ['Defaults to 1.0 when unset.', ['1.0'], '1.0'],
    ['Sampling temperature (default: 0.7).', [], '0.7'],
    ['Default is a b.', ['a b'], 'a b'],
    ['Default value: [].', ['[]'], '[]'],
    ['Used by default, when set.', [], undefined],
    ['No phrase here.', [], undefined],
    // "is:" with or without a blank: the colon is no part of the value.
    ['Set the default QA model; the default is:gpt-5.', ['gpt-5'], 'gpt-5'],
    ['The default is: https://api.openai.com/v1/chat/completions', [], 'https://api.openai.com/v1/chat/completions'],
    // ctcache's env table: "(default `x`)" with no colon, when the code span fills the parenthesis.
    ['namespace to store objects in Redis (default /ctcache)', ['/ctcache'], '/ctcache'],
    ['Socket connect timeout, seconds, parsed as float [default 0.1]', ['0.1'], '0.1'],
    ['Uses the (default profile) unless set.', [], undefined],
    ['(default /a when b)', ['/a'], undefined],
  ])('%j → %j', (text, codes, value) => {
    expect(defaultFromDescription(text, codes)).toBe(value);
  });
});

describe('s38 sweep D2: name-cell code spans read whole', () => {
  const odd = table([
    '| Name | Description |',
    '| --- | --- |',
    '| `max tokens` | A space. |',
    '| `p \\| q` | An escaped pipe. |',
    '| `&amp;` | An entity. |',
    '| `[l](x)` | A link. |',
    '| `<file>` | A placeholder. |',
    '| `-o`, `--out <dir>` | A flag with a placeholder. |',
    '| `--g<i>` | A flag spelt with brackets. |',
    '| seed (alias) | Plain text. |',
    '| `maxx (int)` | Stale. |',
    '| `seed (int)` | Typed. |',
  ]);
  const params = new Set(['max tokens', 'p | q', '&amp;', '[l](x)', 'out', 'g<i>', 'seed']);

  test('the usual reading is unchanged', () => {
    expect(readReferenceTable(odd)!.map((r) => r.names)).toEqual([['max'], ['p', 'q'], ['&amp'], ['o', 'out'], ['g'], ['seed'], ['maxx'], ['seed']]);
  });

  test('a span spelling a parameter is one name; a span none of whose pieces is one is read as written; a placeholder alone or a flag spelling stays as read', () => {
    expect(readReferenceTableWhole(odd, (k) => params.has(k))!.map((r) => r.names)).toEqual([
      ['max tokens'], ['p | q'], ['&amp;'], ['[l](x)'], ['o', 'out'], ['g<i>'], ['seed'], ['maxx (int)'], ['seed'],
    ]);
  });

  test.each([
    ['seed', 'seed', 'split'], ['--seed', 'seed', 'split'], ['max tokens', 'max tokens', 'code'], ['p | q', 'p | q', 'code'],
    ['[l](x)', '[l](x)', 'code'], [' lead', ' lead', 'code'], ['--g<i>', 'g<i>', 'code'], ['e\\|f', 'e\\|f', 'split'],
    ['', '', undefined], ['a\tb', 'a\tb', undefined], ['x\ny', 'x\ny', undefined], ['e\\| f', 'e\\| f', undefined], ['esc\u001bq', 'esc\u001bq', undefined],
  ])('nameCellSpelling(%j, %j) → %s', (spelled, key, how) => {
    expect(nameCellSpelling(spelled, key)).toBe(how);
  });
});
