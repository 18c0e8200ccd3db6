/**
 * The limits on example commands a page and a run read (#33 s33): 60 pages of 4,400 example lines
 * built 264,000 invocations and 792,000 findings (62 s, 2.3 GB). A page is read up to
 * MAX_INVOCATION_WORDS_PER_DOCUMENT words, a run up to MAX_RUN_INVOCATION_WORDS, pages in path
 * order, the same with or without the cache.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, lintWithCache, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { readCodeLines, type CodeLine } from '../src/docs/code-blocks.js';
import { MAX_INVOCATION_WORDS_PER_DOCUMENT, parseDoc } from '../src/docs/parse.js';
import { MAX_RUN_INVOCATION_WORDS } from '../src/engine/document-caps.js';
import { copyToTemp, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
const LINE = 'tool +sed=1 +nme=2 +sedd=3\n';
const block = (lines: number, lang = 'bash'): string => `\`\`\`${lang}\n${LINE.repeat(lines)}\`\`\`\n`;

describe('example words a page reads', () => {
  it('keeps the commands within the limit, warns once at the first one not checked, and reads no later block', () => {
    expect(MAX_INVOCATION_WORDS_PER_DOCUMENT).toBe(5000);
    // 1,300 lines of 4 words: 1,250 fit; the second block (its own commands) is not read.
    const text = `# P\n\n${block(1300)}\nMore:\n\n\`\`\`bash\nother --x 1\n\`\`\`\n`;
    const { doc, diagnostics } = parseDoc('docs/p.md', text);
    expect(doc.invocations).toHaveLength(1250);
    expect(doc.invocations.at(-1)!.location.line).toBe(1253);
    expect(doc.invocations.some((i) => i.command === 'other')).toBe(false);
    expect(doc.invocationsCut).toEqual({ location: expect.objectContaining({ file: 'docs/p.md', line: 1254, column: 1 }) });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { line: 1254 } });
    expect(diagnostics[0]!.message).toContain('only the first 1,250 example commands of this page are checked (docdrift reads at most 5,000 words of example commands from one page)');
  });

  it('a page within the limit is read whole, without a warning', () => {
    const { doc, diagnostics } = parseDoc('docs/p.md', `# P\n\n${block(1250)}`);
    expect(doc.invocations).toHaveLength(1250);
    expect(doc.invocationsCut).toBeUndefined();
    expect(diagnostics).toEqual([]);
  });

  it('reading only the first lines of a long block gives the commands reading it whole gives, up to the limit', () => {
    // Continuation lines, a heredoc, env assignments and a session prompt among 3,000 lines.
    for (const [lang, prompt] of [['bash', ''], ['console', '$ ']] as const) {
      const texts = [`${prompt}A=1 tool --x 1 \\`, '  --y 2', '# a comment', `${prompt}B=2 tool --z`, ...Array.from({ length: 2995 }, (_, i) => `${prompt}tool --n${i} ${i}`)];
      const lines: CodeLine[] = texts.map((text, i) => ({ text, line: 10 + i, column: 1 }));
      const location = { file: 'docs/p.md', line: 9, column: 1 };
      const whole = readCodeLines('docs/p.md', lines, lang, location, 0);
      const head = readCodeLines('docs/p.md', lines, lang, location, 0, 100);
      expect(head.invocations.length).toBeLessThan(whole.invocations.length);
      expect(head.invocations.length).toBeGreaterThan(30);
      expect(JSON.stringify(head.invocations)).toBe(JSON.stringify(whole.invocations.slice(0, head.invocations.length)));
      expect(JSON.stringify(head.envUsages)).toBe(JSON.stringify(whole.envUsages.filter((u) => u.invocation < head.invocations.length)));
    }
  });
});

describe('example words a run reads', () => {
  it('a page the run cuts gets the run\'s warning only, and the pages after it no warning of their own (s33 sweep D3)', async () => {
    const root = copyToTemp(BAD_BASE);
    // 14 pages of 1,300 lines: each over its own limit (1,250 kept); the run's limit falls in page 12.
    for (let i = 0; i < 14; i++) writeFileSync(path.join(root, `docs/o${String(i).padStart(2, '0')}.md`), `# P\n\n${block(1300)}`);
    const { config } = loadConfig(root, undefined, ruleIds);
    const warnings = (await lint({ root, config })).messages.filter((m) => m.ruleId === 'parse-error');
    expect(warnings.map((w) => `${w.file}:${w.line}`)).toEqual([...Array.from({ length: 11 }, (_, i) => `docs/o${String(i).padStart(2, '0')}.md:1254`), 'docs/o11.md:1253']);
    expect(warnings[10]!.message).toContain('only the first 1,250 example commands of this page are checked (docdrift reads at most 5,000 words');
    expect(warnings[11]!.message).toContain('only the first 1,249 example commands of this page are checked (one run reads at most 60,000 words');
  }, 120_000);

  it('cuts the page that reaches the limit and reads no later page, the same with the cache as without', async () => {
    expect(MAX_RUN_INVOCATION_WORDS).toBe(60_000);
    const root = copyToTemp(BAD_BASE);
    // 14 pages of 1,250 lines (5,000 words each); the README has 3 words: page 12 (o11) is cut.
    for (let i = 0; i < 14; i++) writeFileSync(path.join(root, `docs/o${String(i).padStart(2, '0')}.md`), `# P\n\n${block(1250)}`);
    const { config } = loadConfig(root, undefined, ruleIds);
    const plain = await lint({ root, config });
    const cut = plain.messages.filter((m) => m.ruleId === 'parse-error');
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ file: 'docs/o11.md', line: 1253 });
    expect(cut[0]!.message).toContain('only the first 1,249 example commands of this page are checked (one run reads at most 60,000 words of example commands from all pages; the examples of 2 more pages after it (docs/o12.md, docs/o13.md) are not checked either)');
    const perPage = (messages: typeof plain.messages) => Object.fromEntries(['docs/o00.md', 'docs/o11.md', 'docs/o12.md'].map((f) => [f, messages.filter((m) => m.file === f && m.ruleId === 'example-param-unknown').length]));
    expect(perPage(plain.messages)).toEqual({ 'docs/o00.md': 3750, 'docs/o11.md': 3747, 'docs/o12.md': 0 });
    // With the cache: a cold run, then a page edited (the others' stored parses are used).
    const location = tempDir('docdrift-words-cache-');
    const shape = (messages: typeof plain.messages) => messages.map((m) => `${m.file}:${m.line}:${m.column}:${m.ruleId}:${m.message}`);
    const cold = await lintWithCache({ root, config, cache: true, location, version: '1.0.0', codeFingerprint: 'a' });
    expect(shape(cold.messages)).toEqual(shape(plain.messages));
    appendFileSync(path.join(root, 'docs/o05.md'), '\nAn edit.\n');
    const warm = await lintWithCache({ root, config, cache: true, location, version: '1.0.0', codeFingerprint: 'a' });
    expect(warm.cache.status).toBe('miss');
    expect(shape(warm.messages)).toEqual(shape((await lint({ root, config })).messages));
    expect(shape(warm.messages)).toEqual(shape(plain.messages));
  }, 120_000);
});
