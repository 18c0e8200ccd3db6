/** The parse budgets of src/docs/bounded-parse.ts: per document, run-wide, and for large documents (#33 fresh sweep D1, D2, D4); their behaviour end to end is in the bad-input corpus. */
import { describe, expect, it } from 'vitest';
import {
  DOC_MAX_MS, DOC_MAX_MS_PER_KIB, docTimeBudgetMs, LARGE_DOCUMENT_LENGTH, pieceTimeBudgetMs, RUN_LARGE_DOCUMENTS_LENGTH, RUN_PARSE_BASE_MS, RUN_PARSE_CEILING_MS, RUN_PARSE_MS_PER_MIB, runParseBudgetMs,
  type DocParser, type ParseOutcome,
} from '../src/docs/bounded-parse.js';
import { MAX_DOCUMENT_LENGTH } from '../src/docs/limits.js';
import { parseDoc } from '../src/docs/parse.js';
import { parseDocs } from '../src/engine/lint.js';
import { docTexts } from '../src/engine/doc-texts.js';
import { NO_CACHE } from '../src/engine/facts.js';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import type { InputDiagnostic } from '../src/model/types.js';

describe('the per-piece parse budget (#33: the per-document budget alone could not tell a long real page on a loaded machine from a hostile one)', () => {
  it('leaves a real 8 KB piece ten times its cost and stops the superlinear pieces of the hostile inputs within 2 s', () => {
    // Measured with parseDoc on an idle 2-core machine: a piece of 500 table rows 58 ms, of prose 27 ms, of 999-column rows 14.6 ms per KB.
    expect(pieceTimeBudgetMs(8 * 1024)).toBeGreaterThan(10 * 8 * 14.6);
    // A short page parsed whole, cold (the worker's first document), has a second at least.
    expect(pieceTimeBudgetMs(1024)).toBeGreaterThanOrEqual(1000);
    // 30 KB of `*_` takes 5 s and 30 KB of setext underlines 11 s: stopped well before.
    expect(pieceTimeBudgetMs(30 * 1024)).toBeLessThan(2000);
  });
});

describe('the most a document may cost per KB parsed', () => {
  it('is twice a real table on a loaded machine (7.9 ms per KB idle) and under a page of slow pieces (8 KB of `*_`: about 60)', () => {
    expect(DOC_MAX_MS_PER_KIB).toBeGreaterThanOrEqual(2 * 2 * 7.9);
    expect(DOC_MAX_MS_PER_KIB).toBeLessThan(60);
  });
});

describe('the per-document parse budget (#33 fresh sweep D2)', () => {
  it('gives a long real page room on a loaded machine and bounds any document at 6 s of CPU (s24 sweep D1-D4)', () => {
    expect(docTimeBudgetMs(MAX_DOCUMENT_LENGTH)).toBe(DOC_MAX_MS);
    expect(DOC_MAX_MS).toBeLessThanOrEqual(6000);
    // A 487 KB table of 30,000 rows costs 1.0-1.7 s of CPU with the table-row fast path (4.6 s
    // without it): three times that fits.
    expect(docTimeBudgetMs(487 * 1024)).toBeGreaterThanOrEqual(3 * 1700);
  });
});

describe('the run-wide parse budget (#33 fresh sweep D1)', () => {
  it('grows with the text parsed at a rate real Markdown (4-10 s per MiB) stays under, and hostile pages (80 s per MiB) do not', () => {
    expect(runParseBudgetMs(0)).toBe(RUN_PARSE_BASE_MS);
    expect(runParseBudgetMs(1024 * 1024)).toBe(RUN_PARSE_BASE_MS + RUN_PARSE_MS_PER_MIB);
    // A 5 MB site of real pages (about 3.5 s per MiB measured) stays within it.
    expect(runParseBudgetMs(5 * 1024 * 1024)).toBeGreaterThan(5 * 3500 * 1.5);
    // Thirty 12 KB pages of `*_` (0.9 s each, each under its piece budget; 27 s in all) do not: the run stops after a few.
    expect(runParseBudgetMs(30 * 12 * 1024)).toBeLessThan(10_000);
  });

  it('lets a run read a few large documents, not any number (#33 fresh sweep D4)', () => {
    expect(RUN_LARGE_DOCUMENTS_LENGTH).toBeGreaterThanOrEqual(MAX_DOCUMENT_LENGTH);
    expect(RUN_LARGE_DOCUMENTS_LENGTH).toBeLessThan(2 * 546 * 1024);
    expect(LARGE_DOCUMENT_LENGTH).toBeLessThan(500 * 1024);
  });
});

describe('the run\'s parse ceiling (#33 s46 sweep H7, H11)', () => {
  it('is absolute, under the 10 s a run may take, where the run budget grows with the text, and twice what the costliest corpus entry spends', () => {
    // The rest of a run over a small project (start-up, discovery, extraction, model, rules) takes under 1 s.
    expect(RUN_PARSE_CEILING_MS).toBeLessThanOrEqual(8000);
    // The costliest corpus entries, counted with the helper threads (s47, loaded machine):
    // paperless-ngx-env 3.96 s, fastmcp and NeMo Gym 3.5 s, datamodel-code-generator 3.3 s.
    expect(RUN_PARSE_CEILING_MS).toBeGreaterThanOrEqual(2 * 3960);
    // 2.6 MB of nested quotes and lists (80 pages, 39 s before) had a run budget of 34 s.
    expect(runParseBudgetMs(2.6 * 1024 * 1024)).toBeGreaterThan(4 * RUN_PARSE_CEILING_MS);
  });

  /** parseDocs over three pages naming `tool`, with a parser that reads a.md and answers b.md and c.md as the ceiling leaves them. */
  const run = (eachPage: boolean): InputDiagnostic[] => {
    const texts: Record<string, string> = {
      'docs/a.md': '# a\n\n```bash\ntool +seed=1\n```\n',
      'docs/b.md': '# b\n\n```bash\ntool +seed=2\n```\n',
      'docs/c.md': '# c\n\n```bash\ntool +seed=3\n```\n',
    };
    const read = (file: string): string | undefined => texts[file];
    const left = (file: string, text: string): ParseOutcome => ({
      doc: { file, kind: 'md', headings: [], blocks: [], codeBlocks: [], invocations: [], links: [] },
      diagnostics: [{ ruleId: 'parse-error', severity: 'warn', message: `Not read: it was not parsed: parsing documents had cost the run 8.1 s (${text.length} characters)`, location: { file, line: 1, column: 1 } }],
      directives: [],
      runCeiling: true,
    });
    const parser: DocParser = {
      parse: (file, text) => (file === 'docs/a.md' ? { ...parseDoc(file, text), directives: [] } : left(file, text)),
      close: () => {},
    };
    const diagnostics: InputDiagnostic[] = [];
    const files = { sources: [], docs: Object.keys(texts), packaging: [], yaml: [] };
    const facts = parseDocs(files, DEFAULT_CONFIG, [{ name: 'tool', target: '', location: { file: '', line: 1, column: 1 } }], docTexts(read, read, NO_CACHE), diagnostics, parser, [], undefined, undefined, eachPage);
    // The page read has its example; the pages left have none.
    expect(facts.docs.find((d) => d.file === 'docs/a.md')?.invocations.length).toBe(1);
    return diagnostics.filter((d) => d.ruleId === 'parse-error');
  };

  it('leaves the pages past it with one parse-error warning naming how many', () => {
    const warnings = run(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.location).toEqual({ file: 'docs/b.md', line: 1, column: 1 });
    expect(warnings[0]!.message).toMatch(/^Not read \(nor docs\/c\.md\): one run spends at most 8 s of CPU time parsing documents \(garbage collection included\), and parsing had spent it before these 2 pages were read/);
  });

  it('gives each page its own warning in the language server (eachPage)', () => {
    expect(run(true).map((w) => w.location.file)).toEqual(['docs/b.md', 'docs/c.md']);
  });
});
