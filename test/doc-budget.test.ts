/** The parse budgets of src/docs/bounded-parse.ts: per document, run-wide, and for large documents (#33 fresh sweep D1, D2, D4); their behaviour end to end is in the bad-input corpus. */
import { describe, expect, it } from 'vitest';
import {
  docTimeBudgetMs, LARGE_DOCUMENT_LENGTH, RUN_LARGE_DOCUMENTS_LENGTH, RUN_PARSE_BASE_MS, RUN_PARSE_MS_PER_MIB, runParseBudgetMs,
} from '../src/docs/bounded-parse.js';
import { MAX_DOCUMENT_LENGTH } from '../src/docs/limits.js';

describe('the per-document parse budget (#33 fresh sweep D2)', () => {
  it('gives the largest document read at most 6 s of CPU, so one page and its run stay under 10 s (was 3 s + 10 s/MiB: 13 s)', () => {
    expect(docTimeBudgetMs(MAX_DOCUMENT_LENGTH)).toBeLessThanOrEqual(6000);
    // A 500 KB reference table parses in 2.5-3.5 s on a loaded machine: it keeps room.
    expect(docTimeBudgetMs(500 * 1024)).toBeGreaterThanOrEqual(3900);
  });
});

describe('the run-wide parse budget (#33 fresh sweep D1)', () => {
  it('grows with the text parsed at a rate real Markdown (1-4 s per MiB) stays under, and hostile pages (80 s per MiB) do not', () => {
    expect(runParseBudgetMs(0)).toBe(RUN_PARSE_BASE_MS);
    expect(runParseBudgetMs(1024 * 1024)).toBe(RUN_PARSE_BASE_MS + RUN_PARSE_MS_PER_MIB);
    // A 5 MB site of real pages (about 3.5 s per MiB measured) stays within it.
    expect(runParseBudgetMs(5 * 1024 * 1024)).toBeGreaterThan(5 * 3500 * 1.5);
    // Thirty 24 KB pages of `*_` (2 s each, 60 s in all) do not: the run stops after a few.
    expect(runParseBudgetMs(30 * 24 * 1024)).toBeLessThan(12_000);
  });

  it('lets a run read a few large documents, not any number (#33 fresh sweep D4)', () => {
    expect(RUN_LARGE_DOCUMENTS_LENGTH).toBeGreaterThanOrEqual(MAX_DOCUMENT_LENGTH);
    expect(RUN_LARGE_DOCUMENTS_LENGTH).toBeLessThan(2 * 546 * 1024);
    expect(LARGE_DOCUMENT_LENGTH).toBeLessThan(500 * 1024);
  });
});
