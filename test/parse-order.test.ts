/**
 * The order a run parses its documents in (src/engine/parse-order.ts) and the note when a
 * reference was not read (src/engine/notes.ts): #33, s23 sweep O1. The spawned-CLI case with the
 * budgets is `budget-slow-pages-before-reference` in the bad-input corpus.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasCodeHeading, lineCount, looksLikeReference, MAX_PARSED_LINES, parsedPages, parseOrder } from '../src/engine/parse-order.js';
import { MAX_DOCUMENT_LENGTH } from '../src/docs/limits.js';
import { lint } from '../src/index.js';
import { removeTempDirs, tempDir } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

afterAll(removeTempDirs);

describe('looksLikeReference', () => {
  it.each([
    ['a GFM table', '# t\n\n| Flag | Meaning |\n| --- | --- |\n| `--a` | b |\n'],
    ['a table without outer pipes', 'Flag | Meaning\n:--- | ---:\nx | y\n'],
    ['an option list item', '## Options\n\n- `--seed` (int): the seed.\n'],
    ['an option at a line start', '``--seed``\n   The seed.\n'],
    ['an RST list-table', 'Options\n=======\n\n.. list-table::\n   :header-rows: 1\n'],
    ['an RST grid table', '+------+------+\n| a    | b    |\n+------+------+\n'],
    ['an RST simple table', '=====  =====\nflag   help\n=====  =====\n'],
  ])('accepts %s', (_, text) => {
    expect(looksLikeReference(text)).toBe(true);
  });

  it.each([
    ['prose', '# Guide\n\nRun the tool with a seed, then look at the output.\n'],
    ['a setext heading', 'Title\n=====\n\nText.\n'],
    ['nested lists', '- - - - - x\n'.repeat(50)],
    ['front matter', '---\ntitle: a\n---\n\n# A\n'],
    ['a flag inside a sentence', 'Pass `--seed` to fix the seed.\n'],
  ])('refuses %s', (_, text) => {
    expect(looksLikeReference(text)).toBe(false);
  });

  it('is linear on a page of a million characters without a line that matches', () => {
    const text = `${'| | | | | | | | | |'.repeat(50_000)}\n`;
    const started = performance.now();
    expect(looksLikeReference(text)).toBe(false);
    // Not a speed target, a guard against backtracking: a catastrophic pattern takes minutes here.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('hasCodeHeading', () => {
  it.each([
    ['an ATX heading with a code span', '# Ref\n\n### `tool`\n', true],
    ['a heading naming a flag', '## `--seed` option\n', true],
    ['an RST title with an inline literal', 'Ref\n===\n\n``tool``\n--------\n', true],
    ['an RST title with CRLF line ends', '``tool``\r\n~~~~~~~~\r\n', true],
    ['a heading without code', '# Tool\n\nRun `tool`.\n', false],
    ['an inline literal not over an underline', '``tool`` runs.\n\nText\n', false],
    ['an empty code span', '# a `` b\n', false],
  ])('%s', (_, text, expected) => {
    expect(hasCodeHeading(text)).toBe(expected);
  });
});

describe('the scans are linear in a long line (s26 sweep D7)', () => {
  // Not speed targets, guards against backtracking: the patterns they replaced took 29 s (a line
  // of 150,000 blanks) and about 17 s (a line of 25,000 inline literals without an underline).
  it.each([
    ['leading blanks', () => looksLikeReference(`# t\n${' '.repeat(150_000)}k: 1\n`), false],
    ['leading tabs before a pipe', () => looksLikeReference(`${'\t'.repeat(150_000)}|x\n`), false],
    ['inline literals', () => hasCodeHeading(`${'``a`` '.repeat(25_000)}\nx\n`), false],
    ['backticks in a heading', () => hasCodeHeading(`# ${'`'.repeat(150_000)}\n`), false],
  ])('%s', (_, scan, expected) => {
    const started = performance.now();
    expect(scan()).toBe(expected);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('parseOrder', () => {
  const texts: Record<string, string> = {
    'docs/a-slow.md': `# tool\n\n${'- - - - - x\n'.repeat(5000)}`,
    'docs/b-guide.md': '# Guide\n\nRun `tool`.\n',
    'docs/c-reference.md': '### `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | Seed. |\n'.repeat(20),
    'docs/d-options.md': '## Options\n\n- `--seed`: the seed.\n',
    'docs/e-configured.md': `# Tool\n\n${'Long prose. '.repeat(10_000)}`,
  };
  const textOf = (file: string): string | undefined => texts[file];

  it('puts configured references first, then reference-like pages under a heading in inline code, then other reference-like pages, then the rest; shorter first in each group', () => {
    const order = parseOrder(Object.keys(texts), textOf, (file) => file === 'docs/e-configured.md');
    expect(order).toEqual(['docs/e-configured.md', 'docs/c-reference.md', 'docs/d-options.md', 'docs/b-guide.md', 'docs/a-slow.md']);
  });

  it('puts a reference headed `tool` before many shorter pages of tables under plain headings (#33 s24 sweep D8)', () => {
    const tiny: Record<string, string> = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`docs/d/n${i}.md`, '# tool\n\n| Parameter | Description |\n|---|---|\n| `seed` | s |\n']));
    tiny['docs/reference.md'] = '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n';
    tiny['docs/rst.rst'] = 'Reference\n=========\n\n``tool``\n--------\n\n.. list-table::\n';
    const order = parseOrder(Object.keys(tiny), (f) => tiny[f], () => false);
    expect(order.slice(0, 2)).toEqual(['docs/rst.rst', 'docs/reference.md']);
  });

  it('puts the root README with the configured references: past the run\'s document limit it is still read (s31 sweep N4)', () => {
    const many: Record<string, string> = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`docs/p${i}.md`, '# tool\n\n| Parameter | Description |\n|---|---|\n| `seed` | s |\n']));
    many['README.md'] = `# tool\n\n${'Install it, then run `tool +seed=1`.\n'.repeat(200)}`;
    many['pkg/README.md'] = '# pkg\n\nRun `tool`.\n';
    const order = parseOrder(Object.keys(many), (f) => many[f], () => false);
    expect(order[0]).toBe('README.md');
    // Only the root README: a package's README is a page like others.
    expect(order.at(-1)).toBe('pkg/README.md');
  });

  it('keeps path order among pages of one group and length, puts unreadable pages last in their group, and does not change its input', () => {
    const files = ['docs/z.md', 'docs/y.md', 'docs/gone.md', 'docs/x.md'];
    const same: Record<string, string> = { 'docs/z.md': 'abc', 'docs/y.md': 'abc', 'docs/x.md': 'ab' };
    expect(parseOrder(files, (f) => same[f], () => false)).toEqual(['docs/x.md', 'docs/z.md', 'docs/y.md', 'docs/gone.md']);
    expect(files).toEqual(['docs/z.md', 'docs/y.md', 'docs/gone.md', 'docs/x.md']);
  });
});

describe('a reference that was not read', () => {
  it('is said in a note, not only as "no reference section was found"', async () => {
    const root = tempDir('docdrift-unread-reference-');
    cpSync(BASE, root, { recursive: true });
    // Over the 1 MiB size limit (src/docs/limits.ts): a parse-error warning "Not read: …".
    const reference = readFileSync(path.join(root, 'docs/reference.md'), 'utf8');
    writeFileSync(path.join(root, 'docs/reference.md'), `${reference}\n${'Notes about the tool and its parameters. '.repeat(30_000)}\n`);
    const result = await lint({ root, cache: false });
    const warnings = result.report.results.filter((r) => r.ruleId === 'parse-error' && r.file === 'docs/reference.md');
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^Not read: /)]);
    const stderr = result.log.join('\n');
    expect(stderr).toContain('no reference section was found');
    expect(stderr).toContain('1 document was not read (docs/reference.md: see its parse-error warning), so a reference section there was not seen');
  });

  it('is not assumed of a page the config does not let hold reference sections (s46 sweep H2: a dangling link or an unparsed guide silenced every missing row, exit 0)', async () => {
    const root = tempDir('docdrift-configured-reference-');
    cpSync(BASE, root, { recursive: true });
    const reference = readFileSync(path.join(root, 'docs/reference.md'), 'utf8');
    writeFileSync(path.join(root, 'docs/reference.md'), reference.replace(/\| `name` .*\n/, ''));
    writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify({ reference: ['docs/reference.md'] }));
    symlinkSync('nowhere', path.join(root, 'notes.md'));
    // Not parsed: nested past the parser's depth limit; it names `name` in inline code.
    writeFileSync(path.join(root, 'docs/guide.md'), `# Guide\n\nRun \`tool\` with \`name\`.\n\n${'- '.repeat(150)}deep\n`);
    const result = await lint({ root, cache: false });
    const got = result.report.results.map((r) => `${r.file} ${r.ruleId}`);
    expect(got).toContain('docs/reference.md reference-param-missing');
    expect(got).toContain('README.md example-param-undocumented');
    expect(got).toContain('notes.md parse-error');
    expect(got).toContain('docs/guide.md parse-error');
    // Without the `reference` setting every page may hold reference rows: the unread guide, which
    // names `name`, makes the reference partial (said in a note), as before.
    writeFileSync(path.join(root, 'docdrift.config.json'), '{}');
    const open = await lint({ root, cache: false });
    expect(open.report.results.map((r) => r.ruleId)).not.toContain('reference-param-missing');
    expect(open.log.join('\n')).toContain('docs/guide.md');
  });

  it('is not said when the reference was read', async () => {
    const root = tempDir('docdrift-read-reference-');
    cpSync(BASE, root, { recursive: true });
    const result = await lint({ root, cache: false });
    expect(result.log.join('\n')).not.toContain('was not read');
    expect(result.log.join('\n')).not.toContain('were not read');
  });
});

describe('lineCount and parsedPages: the run-wide limit on lines of documents (#33 s45 sweep G1)', () => {
  it('counts lines as CommonMark ends them: LF, CRLF, a lone CR, a last line without an ending', () => {
    expect(lineCount(undefined)).toBe(0);
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\r\nb\r\n')).toBe(2);
    expect(lineCount('a\rb\rc')).toBe(3);
    expect(lineCount('\n\n\n')).toBe(3);
    // A page over the parser's length limit is refused unparsed: it costs no lines.
    expect(lineCount('a\n'.repeat(MAX_DOCUMENT_LENGTH))).toBe(0);
  });

  it('keeps pages in order while their lines fit, leaves each that would cross the limit and tries the next', () => {
    const texts: Record<string, string> = { 'ref.md': 'a\n'.repeat(40), 'big.md': 'a\n'.repeat(70), 'small.md': 'a\n'.repeat(50), 'last.md': 'a\n'.repeat(20) };
    const got = parsedPages(['ref.md', 'big.md', 'small.md', 'last.md'], (f) => lineCount(texts[f]), 10, 100);
    expect(got).toEqual({ kept: ['ref.md', 'small.md'], overDocuments: [], overLines: ['big.md', 'last.md'], lines: 90 });
    // Open buffers (always read) count but are never left.
    expect(parsedPages(['ref.md', 'big.md', 'small.md', 'last.md'], (f) => lineCount(texts[f]), 10, 100, (f) => f === 'big.md')).toEqual({ kept: ['ref.md', 'big.md'], overDocuments: [], overLines: ['small.md', 'last.md'], lines: 110 });
    // The document limit first: pages past it are not counted.
    expect(parsedPages(['ref.md', 'big.md', 'small.md', 'last.md'], (f) => lineCount(texts[f]), 2, 1000)).toEqual({ kept: ['ref.md', 'big.md'], overDocuments: ['small.md', 'last.md'], overLines: [], lines: 110 });
  });

  it('is several times what the real project parsing the most reads (NeMo Gym, 48,347 lines of 386 pages; fastmcp 47,321)', () => {
    expect(MAX_PARSED_LINES).toBeGreaterThanOrEqual(3 * 48_347);
  });

  it('in a run: 16 pages of 127 KB of hard-break lines are read until 150,000 lines, the reference first; one warning for the rest', async () => {
    const root = tempDir('lines-');
    cpSync(BASE, root, { recursive: true });
    for (let i = 0; i < 16; i++) writeFileSync(path.join(root, `docs/hb${String(i).padStart(2, '0')}.md`), `# Page\n\nRun \`tool +seed=1\`.\n\n${'a\\\n'.repeat(43_000)}`);
    writeFileSync(path.join(root, 'docs/reference.md'), `${readFileSync(path.join(BASE, 'docs/reference.md'), 'utf8').replace(/\| `name` .*\n/, '')}`);
    const result = await lint({ root, cache: false });
    const warnings = result.report.results.filter((r) => r.ruleId === 'parse-error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^Not read \(nor 12 other documents: .*\): one run parses at most 150,000 lines of documents that name a command \(Markdown costs per line\), and the 129,\d{3} lines read before left no room for these 13 pages/);
    // The reference was read: its missing row is reported.
    expect(result.report.results.some((r) => r.ruleId === 'reference-param-missing' && r.message.includes('`name`'))).toBe(true);
  }, 60_000);
});
