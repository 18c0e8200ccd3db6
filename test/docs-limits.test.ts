/** Tests the document limits (src/docs/limits.ts) and that parseDoc skips, with a warning, a document over them. */

import { describe, expect, test } from 'vitest';
import { documentOverLimits, MAX_DEFINITIONS, MAX_DOCUMENT_LENGTH, MAX_MDX_ESM_BLOCKS, MAX_MDX_ESM_LENGTH, MAX_NESTING, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from '../src/docs/limits.js';
import { parseDoc } from '../src/docs/parse.js';

describe('documentOverLimits', () => {
  test('ordinary documents, lists a few levels deep and indented code are within the limits', () => {
    expect(documentOverLimits('# t\n\n- a\n  - b\n    - c\n\n> quote\n> - item\n\n```\n        deep code\n```\n')).toBeUndefined();
    expect(documentOverLimits('- '.repeat(MAX_NESTING) + 'x')).toBeUndefined();
    expect(documentOverLimits('x'.repeat(MAX_DOCUMENT_LENGTH))).toBeUndefined();
  });

  test('too long, too many containers on one line, too deep an indentation: the reason and the line', () => {
    expect(documentOverLimits('x'.repeat(MAX_DOCUMENT_LENGTH + 1))?.reason).toMatch(/it is 1\.0 MB, over the 1 MB limit/);
    expect(documentOverLimits('# a\n' + '- '.repeat(MAX_NESTING + 1) + 'x')).toEqual({ reason: `line 2 is nested more than ${MAX_NESTING} levels deep`, line: 2 });
    expect(documentOverLimits('a\n\nb\n' + '> '.repeat(5000))?.line).toBe(4);
    expect(documentOverLimits('1. '.repeat(200))?.line).toBe(1);
    expect(documentOverLimits('x\n' + ' '.repeat(MAX_NESTING * 2 + 1) + '- deep')?.line).toBe(2);
  });
});

describe('documentOverLimits: markers that open no container (s49 sweep L4)', () => {
  const ruler = (c: string, n: number): string => `${c} `.repeat(n).trimEnd();
  test('a thematic break of 120 markers, at any indentation, and a fenced block of marker lines are read', () => {
    for (const c of ['-', '*', '_']) expect(documentOverLimits(`# t\n\n${ruler(c, 120)}\n\ntext\n`)).toBeUndefined();
    expect(documentOverLimits(`# t\n\n    ${ruler('-', 120)}\n`)).toBeUndefined();
    for (const fence of ['```text', '~~~~', '  ```']) {
      const close = fence.trim().startsWith('~') ? '~~~~' : '```';
      expect(documentOverLimits(`# t\n\n${fence}\n${'> '.repeat(120)}\n${'1. '.repeat(120)}\n${close}\n`)).toBeUndefined();
    }
  });

  test('real nesting stays refused: after a fence closes, in a fence within a container, past the fenced bound, or a ruler of mixed markers', () => {
    expect(documentOverLimits(`\`\`\`\nx\n\`\`\`\n${'> '.repeat(120)}x\n`)?.line).toBe(4);
    // A backtick fence's info string may not hold a backtick: this line is no fence.
    expect(documentOverLimits(`\`\`\` a\`b\n${'> '.repeat(120)}x\n`)?.line).toBe(2);
    // A shorter closing run does not close a longer fence; a longer one does.
    expect(documentOverLimits(`\`\`\`\`\n\`\`\`\n${'> '.repeat(120)}\n\`\`\`\`\`\n${'> '.repeat(120)}x\n`)?.line).toBe(5);
    expect(documentOverLimits(`- \`\`\`\n${'  > '.repeat(120)}x\n`)?.line).toBe(2);
    expect(documentOverLimits(`\`\`\`\n${'> '.repeat(MAX_NESTING * 4 + 1)}\n\`\`\`\n`)?.line).toBe(2);
    expect(documentOverLimits(`${'- * '.repeat(60)}\n`)?.line).toBe(1);
  });
});

describe('documentOverLimits: table columns and link reference definitions (#33 D8: 665 MB and 638 MB)', () => {
  const table = (n: number): string => `# t\n\n|${' c |'.repeat(n)}\n|${' --- |'.repeat(n)}\n|${' v |'.repeat(n)}\n`;
  const definitions = (n: number): string => `# t\n\n${Array.from({ length: n }, (_, i) => `[d${i}]: https://example.com/${i}\n`).join('')}`;

  test('tables and definitions of real pages are within the limits', () => {
    expect(documentOverLimits(table(MAX_TABLE_COLUMNS))).toBeUndefined();
    expect(documentOverLimits(table(30).replace(/---/g, ':--:'))).toBeUndefined();
    expect(documentOverLimits(definitions(MAX_DEFINITIONS))).toBeUndefined();
    // A line of pipes and dashes that is long but not a delimiter row (prose, a rule).
    expect(documentOverLimits(`${'-'.repeat(5000)}\n${'a | '.repeat(3000)}\n`)).toBeUndefined();
  });

  test('a table of 20,000 columns and 20,000 definitions are refused at the offending line', () => {
    expect(documentOverLimits(table(20_000))).toEqual({ reason: 'line 4 is the delimiter row of a table of 20,000 columns, over the 1,000 limit', line: 4 });
    expect(documentOverLimits(`| a | b |\n${'|-'.repeat(1001)}|\n`)?.line).toBe(2);
    // #33 D9: rows of 5,000 cells under a two-column header (684 MB); escaped pipes are text.
    expect(documentOverLimits(`| a | b |\n| - | - |\n${'|'.repeat(5000)}\n`)).toEqual({ reason: 'line 3 is a table row of 4,999 cells, over the 1,000 limit', line: 3 });
    expect(documentOverLimits(`| a | b |\n| - | - |\n| ${'x | '.repeat(MAX_TABLE_COLUMNS)}\n`)).toBeUndefined();
    expect(documentOverLimits(`| a | b |\n| - | - |\n| ${'x \\| '.repeat(3000)} |\n`)).toBeUndefined();
    expect(documentOverLimits(definitions(20_000))).toEqual({
      reason: `line ${MAX_DEFINITIONS + 3} is its link reference definition number 5,001, over the 5,000 limit`,
      line: MAX_DEFINITIONS + 3,
    });
    expect(documentOverLimits(`x\n${'   [a\\]b]: <u>\n'.repeat(MAX_DEFINITIONS + 1)}`)?.line).toBe(MAX_DEFINITIONS + 2);
  });
});

describe('documentOverLimits: table cells in one document (#33 fresh sweep D2: 999 columns, 11.6-17.2 s)', () => {
  const rows = (n: number, cells: number): string => Array.from({ length: n }, () => `|${'x|'.repeat(cells)}\n`).join('');

  test('the longest real reference tables are within it: 30,000 rows of 2 cells, 10,000 sections of a table each', () => {
    expect(documentOverLimits(`| a | b |\n| - | - |\n${rows(30_000, 2)}`)).toBeUndefined();
    expect(documentOverLimits('### `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | d |\n\n'.repeat(10_000))).toBeUndefined();
    // A support matrix of 10,000 rows and 25 columns (#33 fresh sweep s20 D2: refused at 200,000 cells).
    expect(documentOverLimits(`|${' h |'.repeat(25)}\n|${'-|'.repeat(25)}\n${rows(10_000, 25)}`)).toBeUndefined();
  });

  test('440 rows of 999 one-letter cells are refused at the row that passes the limit, counted over every table', () => {
    const header = `|${' c |'.repeat(999)}\n|${'-|'.repeat(999)}\n`;
    const over = Math.floor(MAX_TABLE_CELLS / 999) + 1;
    expect(documentOverLimits(header + rows(440, 999))).toEqual({ reason: `line ${2 + over} takes its tables over 400,000 cells, the limit for one document`, line: 2 + over });
    // Split into two tables, the same cells still pass it.
    const half = header + rows(220, 999);
    expect(documentOverLimits(`${half}\ntext\n\n${half}`)?.reason).toContain('over 400,000 cells');
  });
});

describe('parseDoc over the limits', () => {
  test('5,000 nested list levels on one line: skipped with a warning at that line, quickly', () => {
    const start = performance.now();
    const { doc, diagnostics } = parseDoc('a.md', '# `tool`\n\n' + '- '.repeat(5000) + 'item\n');
    expect(performance.now() - start).toBeLessThan(2000);
    expect(doc.headings).toEqual([]);
    expect(diagnostics).toEqual([
      {
        ruleId: 'parse-error',
        severity: 'warn',
        message: 'Not read: line 3 is nested more than 100 levels deep, which the Markdown parser cannot handle in bounded time',
        location: { file: 'a.md', line: 3, column: 1 },
      },
    ]);
  });
});

describe('parseDoc over the limits names the parser of the document\'s kind (s31 sweep N6)', () => {
  test('a reStructuredText page over the length limit: the reStructuredText parser, not the Markdown one', () => {
    const { diagnostics } = parseDoc('docs/a.rst', 'Title\n=====\n\n' + 'word '.repeat(MAX_DOCUMENT_LENGTH / 5 + 10));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toMatch(/^Not read: .*, which the reStructuredText parser cannot handle in bounded time$/);
  });
});

describe('documentOverLimits: MDX ESM (#33 sweep s23 D1: 914 KB of import lines, ~15 s)', () => {
  const imports = (n: number, blank = ''): string => Array.from({ length: n }, (_, i) => `import C${i} from "./c${i}.js"\n${blank}`).join('');

  test('a real page’s imports and exports, and import lines in a code block, are within the limits', () => {
    const page = `import { Tabs, Tab } from '@site/components';\nexport const meta = { title: 'x' };\n\n# Title\n\n<Tabs>\n<Tab>\n\nText.\n\n</Tab>\n</Tabs>\n`;
    expect(documentOverLimits(page, true)).toBeUndefined();
    expect(documentOverLimits(`# t\n\n${imports(MAX_MDX_ESM_BLOCKS, '\n')}`, true)).toBeUndefined();
    // Code blocks showing imports are not ESM, however many.
    expect(documentOverLimits(`# t\n\n${'```js\nimport x from "y";\n```\n\n'.repeat(MAX_MDX_ESM_BLOCKS * 2)}`, true)).toBeUndefined();
    expect(documentOverLimits(`# t\n\n~~~~\n${imports(5000)}~~~~\n`, true)).toBeUndefined();
    // Markdown pages are not bounded by it: `import` lines are prose there.
    expect(documentOverLimits(`# t\n\n${imports(5000)}`)).toBeUndefined();
  });

  test('too much ESM text, or too many blocks, is refused at the line that goes over', () => {
    const text = `# T\n\n${'import a from "b"\n'.repeat(52_000)}`;
    const over = documentOverLimits(text, true);
    expect(over?.reason).toMatch(/its ESM \(`import`\/`export` blocks\) goes over 32 KB at line \d+, the limit for one MDX page/);
    expect(over!.line).toBe(3 + Math.floor(MAX_MDX_ESM_LENGTH / 'import a from "b"\n'.length));
    expect(documentOverLimits(`# t\n\n${imports(MAX_MDX_ESM_BLOCKS + 1, '\n')}`, true)).toEqual({
      reason: `line ${3 + 2 * MAX_MDX_ESM_BLOCKS} starts its ESM block (\`import\`/\`export\`) number ${MAX_MDX_ESM_BLOCKS + 1}, over the ${MAX_MDX_ESM_BLOCKS} limit for one MDX page`,
      line: 3 + 2 * MAX_MDX_ESM_BLOCKS,
    });
    // An unclosed fence runs to the end; a closed one does not hide the imports after it.
    expect(documentOverLimits(`# t\n\n\`\`\`\ncode\n\`\`\`\n\n${imports(MAX_MDX_ESM_BLOCKS + 1, '\n')}`, true)?.reason).toMatch(/ESM block/);
  });

  test('parseDoc skips such an MDX page at once with a parse-error warning', () => {
    const started = process.hrtime.bigint();
    const { doc, diagnostics } = parseDoc('docs/x.mdx', `# T\n\n${'import a from "b"\n'.repeat(52_000)}\n\n\`\`\`bash\ntool +sed=2\n\`\`\`\n`);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
    expect(doc.codeBlocks).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ ruleId: 'parse-error', severity: 'warn', message: expect.stringMatching(/^Not read: its ESM .* goes over 32 KB/) })]);
  });
});
