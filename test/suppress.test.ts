/** Inline suppression comments (`docdrift-disable…`) in .md and .mdx documents, through the engine. */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempProject } from './helpers.js';
import { loadConfig } from '../src/config/load.js';
import { readDirectives } from '../src/docs/directives.js';
import { lint, ruleIds } from '../src/api.js';

afterAll(removeTempDirs);

// A small Hydra-style project: `tool` reads TrainConfig; its reference lacks `resume`, has a
// wrong `epochs` default and a stale `gone` row.
const PROJECT: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "pkg.main:main"\n',
  'pkg/__init__.py': '',
  'pkg/main.py': [
    'from pydantic import BaseModel, Field',
    '',
    '',
    'class TrainConfig(BaseModel):',
    '    name: str = Field(description="Run name.")',
    '    epochs: int = Field(default=10, description="Passes over the data.")',
    '    resume: bool = Field(default=False, description="Continue from the last checkpoint.")',
    '',
    '',
    'def main() -> None:',
    '    TrainConfig.model_validate({})',
    '',
  ].join('\n'),
};

function project(files: Record<string, string>): string {
  return tempProject({ ...PROJECT, ...files }, 'docdrift-suppress-');
}

async function run(dir: string) {
  const { config } = loadConfig(dir, undefined, ruleIds);
  const result = await lint({ root: dir, config });
  expect(result.failures).toEqual([]);
  const brief = (m: (typeof result.messages)[number]) => [m.file, m.line, m.ruleId, m.messageId, m.data.name ?? ''];
  return { reported: result.messages.map(brief), suppressed: result.suppressed.map(brief) };
}

const REFERENCE_MD = (heading: string, epochsRow: string) =>
  [
    '# CLI reference',
    '',
    heading,
    '### `tool`',
    '',
    '| Parameter | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    '| `name` | str |  | Run name. |',
    epochsRow,
    '| `gone` | int |  | Removed. |',
    '',
  ].join('\n');

describe('suppression comments in Markdown', () => {
  it('next-line, disable-line in a table cell and a disable/enable block suppress exactly their findings', async () => {
    const dir = project({
      'docs/cli.md': REFERENCE_MD(
        '<!-- docdrift-disable-next-line reference-param-missing -- resume is documented elsewhere -->',
        '| `epochs` | int | `5` | Passes over the data. <!-- docdrift-disable-line reference-default-mismatch --> |',
      ),
      'README.md': [
        '# Tool',
        '',
        '<!-- docdrift-disable example-param-undocumented -- experimental flag -->',
        '```bash',
        'tool +name=demo +resume=true',
        '```',
        '<!-- docdrift-enable example-param-undocumented -->',
        '',
        '```bash',
        'tool +name=again +resume=false',
        '```',
        '',
        'See the [reference](docs/cli.md#tool).',
        '',
      ].join('\n'),
    });
    const { reported, suppressed } = await run(dir);
    expect(suppressed).toEqual([
      ['docs/cli.md', 4, 'reference-param-missing', 'missing', 'resume'],
      ['docs/cli.md', 9, 'reference-default-mismatch', 'mismatch', 'epochs'],
      ['README.md', 5, 'example-param-undocumented', 'undocumented', 'resume'],
    ]);
    // After the `enable`, the same drift is reported again; the stale row had no comment.
    expect(reported).toEqual([
      ['docs/cli.md', 10, 'reference-param-unknown', 'stale', 'gone'],
      ['README.md', 10, 'example-param-undocumented', 'undocumented', 'resume'],
    ]);
  });

  it('a disable comment without rule ids covers every rule up to the end of the file', async () => {
    const dir = project({
      'docs/cli.md': `<!-- docdrift-disable -- the whole page is being rewritten -->\n${REFERENCE_MD('', '| `epochs` | int | `5` | Passes. |')}`,
    });
    const { reported, suppressed } = await run(dir);
    expect(reported).toEqual([]);
    expect(suppressed.map((s) => s[2])).toEqual(['reference-param-missing', 'reference-default-mismatch', 'reference-param-unknown']);
  });

  it('`enable <rule>` inside a disable of every rule re-enables that rule only (ESLint semantics)', async () => {
    const dir = project({
      'docs/cli.md': `<!-- docdrift-disable -->\n<!-- docdrift-enable reference-param-unknown -->\n${REFERENCE_MD('', '| `epochs` | int | `5` | Passes. |')}`,
    });
    const { reported } = await run(dir);
    expect(reported).toEqual([['docs/cli.md', 12, 'reference-param-unknown', 'stale', 'gone']]);
  });

  it('a comment inside a code fence or inline code is not a directive', async () => {
    const dir = project({
      'docs/cli.md': REFERENCE_MD('', '| `epochs` | int | `10` | Passes. |').replace('| `gone` | int |  | Removed. |\n', '| `gone` | int |  | Removed. |\n| `resume` | bool | `false` | Continue. |\n'),
      'README.md': [
        '# Tool',
        '',
        'Write `<!-- docdrift-disable-next-line example-param-unknown -->` to silence one line.',
        '```bash',
        '# <!-- docdrift-disable-next-line example-param-unknown -->',
        'tool +name=demo +epoch=3',
        '```',
        '',
        'See the [reference](docs/cli.md#tool).',
      ].join('\n'),
    });
    const { reported, suppressed } = await run(dir);
    expect(suppressed).toEqual([]);
    expect(reported).toEqual([
      ['docs/cli.md', 10, 'reference-param-unknown', 'stale', 'gone'],
      ['README.md', 6, 'example-param-unknown', 'unknownWithSuggestion', 'epoch'],
    ]);
  });

  it('reports unused directives per rule id, and unknown rule ids as errors with a suggestion', async () => {
    const dir = project({
      'docs/cli.md': REFERENCE_MD(
        '<!-- docdrift-disable-next-line reference-param-missing, reference-type-mismatch, refrence-param-unknown -->',
        '| `epochs` | int | `10` | Passes. |',
      ),
      'docs/other.md': '# Other\n\n<!-- docdrift-disable-next-line -->\nNothing to see.\n',
    });
    const { config } = loadConfig(dir, undefined, ruleIds);
    const result = await lint({ root: dir, config });
    const engine = result.messages.filter((m) => m.ruleId === 'unused-suppression');
    expect(engine.map((m) => [m.file, m.line, m.column, m.messageId, m.severity, m.data])).toEqual([
      ['docs/cli.md', 3, 58, 'unused', 'warn', { kind: 'disable-next-line', name: 'reference-type-mismatch' }],
      [
        'docs/cli.md',
        3,
        83,
        'unknownRule',
        'error',
        { kind: 'disable-next-line', name: 'refrence-param-unknown', hint: 'Did you mean `reference-param-unknown`?' },
      ],
      ['docs/other.md', 3, 1, 'unusedAll', 'warn', { kind: 'disable-next-line' }],
    ]);
    // The used rule id of the same comment is not reported, and its finding is gone.
    expect(result.suppressed.map((m) => m.ruleId)).toEqual(['reference-param-missing']);
  });

  it('`"unused-suppression": "off"` silences those reports but keeps suppressing', async () => {
    const dir = project({
      'docdrift.config.json': JSON.stringify({ rules: { 'unused-suppression': 'off' } }),
      'docs/cli.md': REFERENCE_MD('<!-- docdrift-disable-next-line reference-param-missing, reference-type-mismatch -->', '| `epochs` | int | `10` | Passes. |'),
    });
    const { reported, suppressed } = await run(dir);
    expect(reported).toEqual([['docs/cli.md', 10, 'reference-param-unknown', 'stale', 'gone']]);
    expect(suppressed.map((s) => s[2])).toEqual(['reference-param-missing']);
  });
});

describe('suppression comments in reStructuredText', () => {
  it('`.. docdrift-disable` / `.. docdrift-enable` comment lines suppress the findings between them; a `..` line in a literal block is text', async () => {
    const dir = project({
      'docs/cli.rst': [
        'CLI reference', '=============', '',
        '``tool``', '--------', '',
        '=============  ====  =======  =====================',
        'Parameter      Type  Default  Description',
        '=============  ====  =======  =====================',
        '``name``       str            Run name.',
        '``epochs``     int   ``10``   Passes over the data.',
        '``resume``     bool  ``no``   Continue.',
        '``gone``       int            Removed.',
        '=============  ====  =======  =====================',
        '',
        'Run it::',
        '',
        '    .. not a comment here: literal text',
        '',
        '.. docdrift-disable example-param-unknown -- a planned key',
        '',
        '::',
        '',
        '    tool +name=a +planned=1',
        '',
        '.. docdrift-enable example-param-unknown',
        '',
        '::',
        '',
        '    tool +planned=2',
        '',
      ].join('\n'),
    });
    const { reported, suppressed } = await run(dir);
    expect(reported).toEqual([
      ['docs/cli.rst', 13, 'reference-param-unknown', 'stale', 'gone'],
      ['docs/cli.rst', 30, 'example-param-unknown', 'unknown', 'planned'],
    ]);
    expect(suppressed).toEqual([['docs/cli.rst', 24, 'example-param-unknown', 'unknown', 'planned']]);
  });
});

describe('suppression comments in MDX', () => {
  const REFERENCE_MDX = [
    '# CLI reference',
    '',
    '{/* docdrift-disable-next-line reference-param-missing -- resume is documented in the guide */}',
    '### `tool`',
    '',
    '| Parameter | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    '| `name` | str |  | Run name. |',
    '| `epochs` | int | `5` | Passes. {/* docdrift-disable-line reference-default-mismatch */} |',
    '| `gone` | int |  | Removed. |',
    '',
    '{/* docdrift-disable example-param-undocumented */}',
    '```bash',
    'tool +name=demo +resume=true',
    '```',
    '{/* docdrift-enable example-param-undocumented */}',
    '',
    '```bash',
    '{/* docdrift-disable-next-line example-param-undocumented */}',
    'tool +name=demo +resume=true',
    '```',
    '',
  ].join('\n');

  it('reads {/* … */} expressions (flow and in a table cell) and ignores them inside code fences', async () => {
    const dir = project({ 'docs/cli.mdx': REFERENCE_MDX });
    const { reported, suppressed } = await run(dir);
    expect(suppressed).toEqual([
      ['docs/cli.mdx', 4, 'reference-param-missing', 'missing', 'resume'],
      ['docs/cli.mdx', 9, 'reference-default-mismatch', 'mismatch', 'epochs'],
      ['docs/cli.mdx', 14, 'example-param-undocumented', 'undocumented', 'resume'],
    ]);
    expect(reported).toEqual([
      ['docs/cli.mdx', 10, 'reference-param-unknown', 'stale', 'gone'],
      ['docs/cli.mdx', 20, 'example-param-undocumented', 'undocumented', 'resume'],
    ]);
  });

  it('readDirectives gives kind, rule ids with positions, reason and range', () => {
    const directives = readDirectives('docs/cli.mdx', REFERENCE_MDX);
    expect(directives.map((d) => [d.kind, d.rules, d.reason, d.start, d.end])).toEqual([
      [
        'disable-next-line',
        [{ id: 'reference-param-missing', line: 3, column: 32 }],
        'resume is documented in the guide',
        { line: 3, column: 1 },
        { line: 3, column: 96 },
      ],
      ['disable-line', [{ id: 'reference-default-mismatch', line: 9, column: 60 }], '', { line: 9, column: 34 }, { line: 9, column: 90 }],
      ['disable', [{ id: 'example-param-undocumented', line: 12, column: 22 }], '', { line: 12, column: 1 }, { line: 12, column: 52 }],
      ['enable', [{ id: 'example-param-undocumented', line: 16, column: 21 }], '', { line: 16, column: 1 }, { line: 16, column: 51 }],
    ]);
  });

  it('an HTML comment spanning lines: "next line" is the line after its last line', () => {
    const text = '# T\n\n<!--\n  docdrift-disable-next-line reference-param-unknown\n  -- kept for v1 users\n-->\n| a | b |\n';
    const [d] = readDirectives('a.md', text);
    expect(d).toMatchObject({ kind: 'disable-next-line', reason: 'kept for v1 users', start: { line: 3, column: 1 }, end: { line: 6, column: 4 } });
    expect(d!.rules).toEqual([{ id: 'reference-param-unknown', line: 4, column: 30 }]);
  });
});

describe('suppression comments only in real HTML comments (#18 item 7)', () => {
  it('ignores a directive inside an HTML attribute or a <script> string, and keeps a real comment', () => {
    const text = [
      '<a title="<!-- docdrift-disable -->">link</a>',
      '',
      '<script>',
      'var s = "<!-- docdrift-disable example-param-unknown -->";',
      '</script>',
      '',
      'Inline <script>var t = "</p><!-- docdrift-disable-line -->";</script> text.',
      '',
      "<img alt='<!-- docdrift-disable-next-line -->' src=x>",
      '',
      '<!-- docdrift-disable-next-line example-param-unknown -->',
      'tool +epoch=3',
    ].join('\n');
    const found = readDirectives('README.md', text);
    expect(found.map((d) => [d.kind, d.start.line])).toEqual([['disable-next-line', 11]]);
  });

  it('a disable comment inside an attribute suppresses nothing in a run', async () => {
    const dir = project({
      'docs/cli.md': REFERENCE_MD('', '| `epochs` | int | `10` | Passes. |').replace('| `gone` | int |  | Removed. |\n', '| `resume` | bool | `false` | Continue. |\n'),
      'README.md': ['# Tool', '', '<div title="<!-- docdrift-disable -->"></div>', '', '```bash', 'tool +name=demo +epoch=3', '```', ''].join('\n'),
    });
    const { reported, suppressed } = await run(dir);
    expect(suppressed).toEqual([]);
    expect(reported.map((r) => r[4])).toContain('epoch');
  });
});
