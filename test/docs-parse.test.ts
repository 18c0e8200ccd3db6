/** Tests parseDoc: MDX fallback, headings and slugs, heading blocks, tables, links, on real-shaped documents. */

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { openIndentedContainers, parseDoc } from '../src/docs/parse.js';
import { cellLocation } from '../src/docs/position.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/docs/${name}`, import.meta.url), 'utf8');

describe('parser choice and diagnostics', () => {
  test('an .mdx with an HTML comment falls back to Markdown with a warning at the MDX error', () => {
    const text = ['# Setup', '', '<!-- TODO: screenshots -->', '', '## Run', '', 'Text.', ''].join('\n');
    const { doc, diagnostics } = parseDoc('docs/setup.mdx', text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      ruleId: 'parse-error',
      severity: 'warn',
      location: { file: 'docs/setup.mdx', line: 3, column: 2 },
    });
    expect(diagnostics[0]!.message).toMatch(/parsed as plain Markdown/);
    expect(doc.kind).toBe('mdx');
    expect(doc.headings.map((h) => h.slug)).toEqual(['setup', 'run']);
  });

  test('an .mdx with a bare `{` falls back and still yields tables and invocations', () => {
    const text = [
      '# Config',
      '',
      'Pass a dict like {a: 1 to the tool.',
      '',
      '| Name | Description |',
      '| --- | --- |',
      '| `x` | X. |',
      '',
      '```bash',
      'tool +x=1',
      '```',
      '',
    ].join('\n');
    const { doc, diagnostics } = parseDoc('docs/config.mdx', text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.severity).toBe('warn');
    expect(diagnostics[0]!.location.line).toBe(3);
    expect(doc.blocks[0]!.tables).toHaveLength(1);
    expect(doc.invocations.map((i) => i.command)).toEqual(['tool']);
  });

  test('a .md with <br>, { and an HTML comment parses without diagnostics (never through MDX)', () => {
    const { doc, diagnostics } = parseDoc('docs/plain.md', fixture('plain.md'));
    expect(diagnostics).toEqual([]);
    expect(doc.kind).toBe('md');
    expect(doc.headings.map((h) => [h.depth, h.text, h.slug])).toEqual([
      [1, 'Notes  and {braces}', 'notes--and-braces'],
      [2, 'Install', 'install'],
    ]);
  });

  test('a valid .mdx with ESM, JSX and frontmatter parses without diagnostics', () => {
    const { diagnostics } = parseDoc('docs/cli-commands.mdx', fixture('cli-commands.mdx'));
    expect(diagnostics).toEqual([]);
  });

  test('an empty document gives empty lists', () => {
    expect(parseDoc('a.md', '')).toEqual({
      doc: { file: 'a.md', kind: 'md', headings: [], blocks: [], codeBlocks: [], invocations: [], dataBlocks: [], links: [] },
      diagnostics: [],
    });
  });
});

describe('headings', () => {
  const { doc } = parseDoc('docs/cli-commands.mdx', fixture('cli-commands.mdx'));

  test('a heading with two inline codes keeps both and gets GitHub\'s slug', () => {
    const h = doc.headings.find((x) => x.depth === 3)!;
    expect(h).toEqual({
      depth: 3,
      text: 'ng_collect_rollouts / nemo_gym_collect_rollouts',
      codes: ['ng_collect_rollouts', 'nemo_gym_collect_rollouts'],
      slug: 'ng_collect_rollouts--nemo_gym_collect_rollouts',
      location: { file: 'docs/cli-commands.mdx', line: 13, column: 1, endLine: 13, endColumn: 56 },
    });
  });

  test('duplicate headings get -1 like GitHub', () => {
    expect(doc.headings.map((h) => h.slug)).toEqual([
      'cli-commands',
      'rollout-collection',
      'ng_collect_rollouts--nemo_gym_collect_rollouts',
      'ng_run',
      'common-options',
      'common-options-1',
    ]);
  });

  test('slugs are per document', () => {
    const a = parseDoc('a.md', '# Usage\n\n# Usage\n').doc.headings.map((h) => h.slug);
    const b = parseDoc('b.md', '# Usage\n').doc.headings.map((h) => h.slug);
    expect(a).toEqual(['usage', 'usage-1']);
    expect(b).toEqual(['usage']);
  });
});

describe('heading blocks', () => {
  const { doc } = parseDoc('docs/cli-commands.mdx', fixture('cli-commands.mdx'));
  const block = (slug: string) => doc.blocks.find((b) => b.heading.slug === slug)!;

  test('a block runs to the line before the next heading of the same or higher rank', () => {
    expect(doc.blocks.map((b) => [b.heading.slug, b.endLine])).toEqual([
      ['cli-commands', 60],
      ['rollout-collection', 51],
      ['ng_collect_rollouts--nemo_gym_collect_rollouts', 43],
      ['ng_run', 51],
      ['common-options', 57],
      ['common-options-1', 60],
    ]);
  });

  test('tables inside JSX elements and nested sub-headings belong to the block', () => {
    expect(block('ng_collect_rollouts--nemo_gym_collect_rollouts').tables.map((t) => t.location.line)).toEqual([17, 37]);
    expect(block('rollout-collection').tables.map((t) => t.location.line)).toEqual([17, 37]);
    expect(block('cli-commands').tables.map((t) => t.location.line)).toEqual([17, 37, 54]);
    expect(block('ng_run').tables).toEqual([]);
  });

  test('blocks list the inline codes in their range', () => {
    expect(block('common-options').codes).toEqual(['--help']);
    expect(block('ng_run').codes).toEqual(['ng_run']);
  });

  test('the last block ends at the last line even without a trailing newline', () => {
    expect(parseDoc('a.md', '# A\n\ntext').doc.blocks[0]!.endLine).toBe(3);
    expect(parseDoc('a.md', '# A\n\ntext\n').doc.blocks[0]!.endLine).toBe(3);
  });
});

describe('tables', () => {
  const { doc } = parseDoc('docs/cli-commands.mdx', fixture('cli-commands.mdx'));
  const table = doc.blocks[2]!.tables[0]!;

  test('header, cell texts, cell codes', () => {
    expect(table.header).toEqual(['Parameter', 'Type', 'Default', 'Description']);
    expect(table.location).toEqual({ file: 'docs/cli-commands.mdx', line: 17, column: 1, endLine: 23, endColumn: 86 });
    expect(table.rows).toHaveLength(5);
    expect(table.rows[2]!.cells).toEqual(['+limit', 'int | None', 'None', 'Stop after this many tasks.']);
    expect(table.rows[2]!.cellCodes).toEqual([['+limit'], ['int | None'], ['None'], []]);
    expect(table.rows[3]!.cells[2]).toBe('');
  });

  test('row and cell locations', () => {
    const row = table.rows[0]!;
    expect(row.location).toEqual({ file: 'docs/cli-commands.mdx', line: 19, column: 1, endLine: 19, endColumn: 99 });
    expect([0, 1, 2, 3].map((col) => cellLocation(row.location.file, row, col)).map((l) => [l?.line, l?.column])).toEqual([[19, 1], [19, 17], [19, 25], [19, 29]]);
    expect(cellLocation(row.location.file, row, 4)).toBeUndefined();
  });

  test('rows keep their links, resolved', () => {
    expect(table.rows[0]!.links).toEqual([
      {
        file: 'docs/cli-commands.mdx',
        url: '../concepts/agents.md#agent-servers',
        targetFile: 'concepts/agents.md',
        fragment: 'agent-servers',
        location: { file: 'docs/cli-commands.mdx', line: 19, column: 51, endLine: 19, endColumn: 96 },
      },
    ]);
    expect(table.rows[1]!.links).toEqual([]);
  });
});

describe('links', () => {
  test('inline, fragment-only, reference and external links', () => {
    const mdx = parseDoc('docs/cli-commands.mdx', fixture('cli-commands.mdx')).doc;
    expect(mdx.links.map((l) => [l.url, l.targetFile, l.fragment, l.location.line, l.location.column])).toEqual([
      ['#common-options', 'docs/cli-commands.mdx', 'common-options', 9, 25],
      ['../concepts/agents.md#agent-servers', 'concepts/agents.md', 'agent-servers', 19, 51],
    ]);
    const md = parseDoc('docs/plain.md', fixture('plain.md')).doc;
    expect(md.links).toEqual([
      {
        file: 'docs/plain.md',
        url: './cli-commands.mdx#ng_collect_rollouts--nemo_gym_collect_rollouts',
        targetFile: 'docs/cli-commands.mdx',
        fragment: 'ng_collect_rollouts--nemo_gym_collect_rollouts',
        location: { file: 'docs/plain.md', line: 21, column: 5, endLine: 21, endColumn: 25 },
      },
      {
        file: 'docs/plain.md',
        url: 'https://example.com/#top',
        fragment: 'top',
        location: { file: 'docs/plain.md', line: 21, column: 30, endLine: 21, endColumn: 62 },
      },
    ]);
  });

  test('links in headings, query strings, percent-encoding, MDX <Link href>', () => {
    const text = [
      '## See [the guide](../guide/Getting%20Started.md?plain=1#Step%201)',
      '',
      '<Link href="./other.mdx#x">other</Link> and <a href="mailto:a@b.c">mail</a>',
      '',
    ].join('\n');
    const { doc } = parseDoc('docs/ref/page.mdx', text);
    expect(doc.links.map((l) => [l.url, l.targetFile, l.fragment])).toEqual([
      ['../guide/Getting%20Started.md?plain=1#Step%201', 'docs/guide/Getting Started.md', 'Step 1'],
      ['./other.mdx#x', 'docs/ref/other.mdx', 'x'],
      ['mailto:a@b.c', undefined, undefined],
    ]);
  });
});

describe('doc-engine containers (issue #13)', () => {
  test('MkDocs content tabs and admonitions: the indented content is read; fenced code is left alone', () => {
    const md = [
      '# T', '', '=== "Options"', '', '    | Option | Description |', '    | --- | --- |', '    | `--seed` | The seed. |', '',
      '```md', '=== "Not a tab"', '', '    indented code', '```', '',
    ].join('\n');
    expect(openIndentedContainers(md).split('\n')[2]).toBe('-   "Options"');
    expect(openIndentedContainers(md).split('\n')[9]).toBe('=== "Not a tab"');
    const doc = parseDoc('docs/t.md', md).doc;
    expect(doc.blocks[0]!.tables.map((t) => [t.header, t.location.line, t.location.column])).toEqual([[['Option', 'Description'], 5, 5]]);
  });

  test('MyST {code-block} bash is a bash block', () => {
    const md = ['# T', '', '```{code-block} bash', 'mytool --seed 1', '```', ''].join('\n');
    expect(parseDoc('docs/t.md', md).doc.invocations.map((i) => [i.command, i.args.map((a) => a.text)])).toEqual([['mytool', ['--seed', '1']]]);
  });
});

describe('parameter rows of a page (documented elsewhere)', () => {
  test('a table that maps Hydra overrides to flags documents each override key and its first segment', () => {
    const text = [
      '## Replacing Hydra overrides with flags',
      '',
      '| Legacy Hydra override | New flag |',
      '| --- | --- |',
      '| `+agent_name=...` | `--agent` |',
      '| `++responses_create_params.temperature=...` | `--temperature` |',
      '| `~wandb_project` | none |',
      '| `plain_text` | `--plain` |',
      '',
    ].join('\n');
    const rows = (parseDoc('docs/cli.md', text).doc.parameterRows ?? []).map((r) => [r.line, r.names, r.flag, r.override === true]);
    expect(rows).toEqual([
      [5, ['agent_name'], false, true],
      [6, ['responses_create_params.temperature', 'responses_create_params'], false, true],
      [7, ['wandb_project'], false, true],
    ]);
  });
});
