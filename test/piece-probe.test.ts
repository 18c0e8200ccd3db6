/**
 * The probe of a long piece that cannot be cut (#33 s41 sweep D4, src/docs/progress.ts
 * `probedPiece`): its first 48 KB are parsed first and reported as a probe, so the parse budgets
 * stop a piece whose cost grows faster than its length after about 2.2 s; the result is the
 * whole piece's parse, whatever the probe did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { PIECE_PROBE_LENGTH, PIECE_PROBE_MIN_LENGTH, probedPiece, setPieceObserver } from '../src/docs/progress.js';
import { docTimeBudgetMs, helpersBeyond, HELPER_ALLOWANCE, pieceTimeBudgetMs, probeWholeMs, PROBE_COLD_MS, strictDocTimeBudgetMs } from '../src/docs/bounded-parse.js';

const seen: Array<[number, number]> = [];
afterEach(() => {
  setPieceObserver(undefined);
  seen.length = 0;
});
function observe(): void {
  setPieceObserver((length, probeOf) => seen.push([length, probeOf]));
}

describe('probedPiece', () => {
  it('parses the first 48 KB of a long piece as a probe, then the whole, and returns the whole parse', () => {
    observe();
    const text = 'a'.repeat(200_000);
    const parsed: number[] = [];
    const result = probedPiece(text, (t) => {
      parsed.push(t.length);
      return t.length;
    });
    expect(result).toBe(200_000);
    expect(parsed).toEqual([PIECE_PROBE_LENGTH, 200_000]);
    expect(seen).toEqual([
      [PIECE_PROBE_LENGTH, 200_000],
      [200_000, 0],
    ]);
  });

  it('parses a piece shorter than the minimum once, without a probe', () => {
    observe();
    const parsed: number[] = [];
    probedPiece('a'.repeat(PIECE_PROBE_MIN_LENGTH - 1), (t) => parsed.push(t.length));
    expect(parsed).toEqual([PIECE_PROBE_MIN_LENGTH - 1]);
    expect(seen).toEqual([[PIECE_PROBE_MIN_LENGTH - 1, 0]]);
  });

  it('ignores an error of the probe (a prefix cut inside a construct) and parses the whole', () => {
    observe();
    const text = 'b'.repeat(PIECE_PROBE_MIN_LENGTH);
    const result = probedPiece(text, (t) => {
      if (t.length < text.length) throw new Error('unexpected end of input');
      return 'whole';
    });
    expect(result).toBe('whole');
  });

  it('does not probe where no observer holds a budget (parsed once)', () => {
    const parsed: number[] = [];
    probedPiece('a'.repeat(200_000), (t) => parsed.push(t.length));
    expect(parsed).toEqual([200_000]);
  });

  it('keeps a surrogate pair whole at the cut', () => {
    observe();
    const text = `${'a'.repeat(PIECE_PROBE_LENGTH - 1)}😀${'a'.repeat(PIECE_PROBE_MIN_LENGTH)}`;
    const parsed: string[] = [];
    probedPiece(text, (t) => parsed.push(t));
    expect(parsed[0]!.length).toBe(PIECE_PROBE_LENGTH - 1);
    expect(parsed[0]!.endsWith('a')).toBe(true);
  });

  it('is held to the budget of a piece of its length: 2.2 s for 48 KB, far above a real piece (0.25-0.6 s)', () => {
    expect(pieceTimeBudgetMs(PIECE_PROBE_LENGTH)).toBe(1000 + 24 * 48);
  });
});

describe('parseDoc with a long piece that cannot be cut', () => {
  /** A changelog with link reference definitions (parsed whole, as `]:` may define any link on the page), about 200 KB. */
  function changelog(): string {
    const releases: string[] = [];
    for (let i = 2000; i > 0; i--) releases.push(`## [1.${i}.0] - 2026-01-01\n\n### Fixed\n\n- The \`--cache-dir\` flag is read from \`DOCDRIFT_CACHE\` again (#${i}).\n`);
    const links = Array.from({ length: 2000 }, (_, i) => `[1.${i + 1}.0]: https://example.com/compare/v1.${i}.0...v1.${i + 1}.0`);
    return `# Changelog\n\n${releases.join('\n')}\n${links.join('\n')}\n`;
  }

  it('probes it once and reads the whole page', () => {
    const text = changelog();
    expect(text.length).toBeGreaterThan(PIECE_PROBE_MIN_LENGTH);
    observe();
    const { doc, diagnostics } = parseDoc('CHANGELOG.md', text);
    expect(seen.filter(([, probeOf]) => probeOf > 0)).toEqual([[PIECE_PROBE_LENGTH, text.length]]);
    expect(seen).toContainEqual([text.length, 0]);
    expect(diagnostics).toEqual([]);
    expect(doc.headings.filter((h) => h.depth === 2)).toHaveLength(2000);
    expect(doc.headings.find((h) => h.depth === 2)!.text).toBe('1.2000.0 - 2026-01-01');
  });

  it('probes an MDX page parsed whole, and a prefix that is not valid MDX does not make it plain Markdown', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `<Note>\nRelease ${i}: \`--flag-${i}\` added.\n</Note>\n`).join('\n');
    const text = `# Changes\n\n${body}`;
    expect(text.length).toBeGreaterThan(PIECE_PROBE_MIN_LENGTH);
    observe();
    const { diagnostics } = parseDoc('docs/changes.mdx', text);
    expect(seen.filter(([, probeOf]) => probeOf > 0)).toHaveLength(1);
    expect(diagnostics.filter((d) => d.ruleId === 'parse-error')).toEqual([]);
  });
});

describe('what a probe predicts (#33 s42 sweep E2)', () => {
  const KB = 1024;
  it('predicts the whole piece from the probe cost per code unit, a cold start taken off', () => {
    // 391 KB of `- a` items: the 48 KB probe cost about 2 s, the whole would cost about 16 s.
    expect(probeWholeMs(2000, 48 * KB, 391 * KB)).toBe(Math.round((1500 * 391) / 48));
    expect(probeWholeMs(2000, 48 * KB, 391 * KB)).toBeGreaterThan(docTimeBudgetMs(391 * KB));
    // Stopped mid-probe, once what it cost so far predicts more than the budget: by 1.2 s.
    expect(1200 + probeWholeMs(1200, 48 * KB, 391 * KB)).toBeGreaterThan(docTimeBudgetMs(391 * KB));
    // A 338 KB change log parsed whole probes in 0.25-0.6 s cold: predicted well within its budget,
    // also when a document before it has run over its own (the shorter budget), at 0.55 s.
    expect(600 + probeWholeMs(600, 48 * KB, 338 * KB)).toBeLessThan(docTimeBudgetMs(338 * KB) / 2);
    expect(550 + probeWholeMs(550, 48 * KB, 338 * KB)).toBeLessThan(strictDocTimeBudgetMs(338 * KB));
  });

  it('predicts nothing from a probe cheaper than a cold start, or of no length', () => {
    expect(probeWholeMs(PROBE_COLD_MS, 48 * KB, 900 * KB)).toBe(0);
    expect(probeWholeMs(100, 48 * KB, 900 * KB)).toBe(0);
    expect(probeWholeMs(3000, 0, 900 * KB)).toBe(0);
  });
});

describe('helper threads in a document\'s cost (#33 s42 sweep E2)', () => {
  it('counts only what the helper threads spend beyond their allowance of the thread\'s own time', () => {
    // NeMo Gym's pages: 15.3 s on the worker's thread, 17.3 s on the helpers: the thread's time alone.
    expect(helpersBeyond(15_300, 17_300)).toBe(15_300);
    expect(helpersBeyond(1000, HELPER_ALLOWANCE * 1000)).toBe(1000);
    // A page that died at the heap limit: 4.6 s on its thread, 7.8 s on the helpers.
    expect(helpersBeyond(4600, 7800)).toBe(4600 + 7800 - HELPER_ALLOWANCE * 4600);
    // A thread that only waits (0 s of its own): every helper millisecond counts.
    expect(helpersBeyond(0, 2500)).toBe(2500);
  });
});
