/**
 * Tests src/docs/emphasis.ts: text too dense in emphasis markers is parsed with emphasis off
 * (#33 fresh sweep s20 D1, D4: pages of such text cost micromark ~0.1 ms per marker run, up to
 * 100 ms per KB, under every time budget), with one warning, and real pages never are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { denseEmphasis, denseEmphasisLine, EMPHASIS_RUNS_PER_PARAGRAPH, EMPHASIS_WINDOW, emphasisRunLimit, emphasisRuns } from '../src/docs/emphasis.js';
import { parseDoc } from '../src/docs/parse.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('emphasisRuns', () => {
  test('counts runs of *, _ and ~ that may open or close emphasis; an _ run inside a word is none', () => {
    expect(emphasisRuns('plain text')).toBe(0);
    expect(emphasisRuns('*a* **b** _c_ ~~d~~')).toBe(8);
    expect(emphasisRuns('resume_from_cache and MAX__LEN')).toBe(0);
    expect(emphasisRuns('_private and trailing_ ')).toBe(2);
    expect(emphasisRuns('*_'.repeat(10))).toBe(20);
    expect(emphasisRuns('ab*cd*ef', 2, 6)).toBe(2);
  });

  test('the limit grows with the text: 1,000 runs in 8 KB', () => {
    expect(emphasisRunLimit(EMPHASIS_WINDOW)).toBe(1000);
    expect(emphasisRunLimit(0)).toBe(200);
  });
});

describe('denseEmphasisLine', () => {
  test('the line where the first dense window starts; none on ordinary text', () => {
    expect(denseEmphasisLine('# Title\n\nSome *emphasis* and **strong** text.\n')).toBeUndefined();
    const filler = 'A line of ordinary prose with no markers at all in it.\n'.repeat(300);
    expect(denseEmphasisLine(`${filler}${'*_'.repeat(2000)}\n`)).toBeGreaterThan(1);
    expect(denseEmphasisLine(`${'*_'.repeat(2000)}\n`)).toBe(1);
    // Many markers spread thin stay under the limit.
    expect(denseEmphasisLine(`${'Use *this* and _that_ here.\n'.repeat(40)}`)).toBeUndefined();
  });

  test("no Markdown page of this repository's docs, README and fixtures is dense (the most seen on NeMo Gym: 136 runs in 8 KB)", () => {
    const pages: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name === 'node_modules' || e.name === 'bad-input' || e.name.startsWith('.')) continue;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.mdx?$/.test(e.name)) pages.push(p);
      }
    };
    walk(path.join(ROOT, 'docs'));
    walk(path.join(ROOT, 'fixtures'));
    walk(path.join(ROOT, 'rules'));
    pages.push(path.join(ROOT, 'README.md'));
    expect(pages.length).toBeGreaterThan(50);
    for (const page of pages) expect(denseEmphasisLine(readFileSync(page, 'utf8')), page).toBeUndefined();
  });
});

describe('parseDoc on a page too dense in emphasis markers', () => {
  const dense = `${'*_'.repeat(3000)}\n`;
  const page = `# \`tool\`\n\nRead *this* first.\n\n${dense}\n| Parameter | Description |\n| --- | --- |\n| \`seed\` | the **seed** |\n\n\`\`\`bash\ntool --seed 1\n\`\`\`\n`;

  test('is read with emphasis off: one warning at the dense text; headings, tables and examples read as always', () => {
    const { doc, diagnostics } = parseDoc('docs/a.md', page);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'docs/a.md', line: 1 } });
    expect(diagnostics[0]!.message).toContain('Emphasis not read');
    expect(doc.headings.map((h) => h.text)).toEqual(['tool']);
    const rows = doc.blocks.flatMap((b) => b.tables.flatMap((t) => t.rows));
    expect(rows.map((r) => r.cells[0])).toEqual(['seed']);
    expect(doc.invocations.map((i) => i.command)).toEqual(['tool']);
  });

  test('the same page without the dense text has its emphasis read, and no warning', () => {
    const { diagnostics } = parseDoc('docs/a.md', page.replace(dense, ''));
    expect(diagnostics).toEqual([]);
  });

  test('costs what plain text costs: 200 KB of `*_` in well under a second of parsing (was ~20 s)', () => {
    const started = performance.now();
    const { doc } = parseDoc('docs/b.md', `# \`tool\`\n\n${'*_'.repeat(100_000)}\n\n\`\`\`bash\ntool --seed 1\n\`\`\`\n`);
    // A bound against a hang, not a benchmark: the text was ~100 ms per KB with emphasis on.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(doc.invocations).toHaveLength(1);
  });
});

describe('denseEmphasis: one paragraph with more runs than the parser resolves in time (#33 s41 sweep D4)', () => {
  test('a one-line paragraph of GFM `www.` autolinks with `_`, under the limit per 8 KB: emphasis off, from its line', () => {
    const text = `# tool\n\nIntro.\n\n${'www.a_b_c_ '.repeat(36_000)}\n`;
    expect(denseEmphasisLine(text)).toBeUndefined();
    expect(denseEmphasis(text)).toEqual({ line: 5, paragraph: true });
  });

  test('a paragraph over lines counts as one; a blank line ends it', () => {
    // 100 runs per line, about 740 per 8 KB: under the limit per 8 KB.
    const line = '*a* lorem ipsum dolor '.repeat(50);
    const lines = (n: number) => Array.from({ length: n }, () => line).join('\n');
    // 21 lines of 100 runs: 2,100, over 2,000 (and under the limit per 8 KB, which counts 1,000).
    expect(EMPHASIS_RUNS_PER_PARAGRAPH).toBe(2000);
    const one = `# t\n\n${lines(21)}\n`;
    expect(denseEmphasisLine(one)).toBeUndefined();
    expect(denseEmphasis(one)?.paragraph).toBe(true);
    expect(denseEmphasis(`# t\n\n${lines(10)}\n\n${lines(11)}\n`)).toBeUndefined();
  });

  test('list items, table rows, quotes and fenced code are blocks of their own or not counted: a long real-shaped page is read with emphasis', () => {
    // About 4 runs per 80-character line (400 per 8 KB): 12,000 in each page.
    const list = Array.from({ length: 3000 }, (_, i) => `- **item ${i}**: the _flag_ \`--x${i}\` sets how many samples are read per batch.`).join('\n');
    const table = `| Name | Note |\n| --- | --- |\n${Array.from({ length: 3000 }, (_, i) => `| **p${i}** | the _n_ value of the parameter, described at some length |`).join('\n')}`;
    const code = `\`\`\`python\n${'def f(*args, **kwargs): return the_sum_of(args) + other_value(kwargs)\n'.repeat(3000)}\`\`\``;
    for (const text of [list, table, code]) expect(denseEmphasis(`# t\n\n${text}\n`), text.slice(0, 30)).toBeUndefined();
  });

  test('parseDoc reads the page with emphasis off and one warning naming the paragraph', () => {
    const { doc, diagnostics } = parseDoc('docs/links.md', `# tool\n\n${'www.a_b_c_ '.repeat(8_000)}\n\n\`tool --seed 1\`\n`);
    expect(diagnostics).toEqual([expect.objectContaining({ ruleId: 'parse-error', severity: 'warn', location: { file: 'docs/links.md', line: 3, column: 1 } })]);
    expect(diagnostics[0]!.message).toContain('the paragraph from here has more than 2,000 runs');
    expect(doc.headings.map((h) => h.text)).toEqual(['tool']);
  });
});
