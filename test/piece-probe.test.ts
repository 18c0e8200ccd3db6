/**
 * The probe of a long piece that cannot be cut (#33 s41 sweep D4, src/docs/progress.ts
 * `probedPiece`): its first 48 KB are parsed first and reported as a probe, so the parse budgets
 * stop a piece whose cost grows faster than its length after about 2.2 s; the result is the
 * whole piece's parse, whatever the probe did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { PIECE_PROBE_LENGTH, PIECE_PROBE_MIN_LENGTH, probedPiece, setPieceObserver } from '../src/docs/progress.js';
import { pieceTimeBudgetMs } from '../src/docs/bounded-parse.js';

const seen: Array<[number, boolean]> = [];
afterEach(() => {
  setPieceObserver(undefined);
  seen.length = 0;
});
function observe(): void {
  setPieceObserver((length, probe) => seen.push([length, probe]));
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
      [PIECE_PROBE_LENGTH, true],
      [200_000, false],
    ]);
  });

  it('parses a piece shorter than the minimum once, without a probe', () => {
    observe();
    const parsed: number[] = [];
    probedPiece('a'.repeat(PIECE_PROBE_MIN_LENGTH - 1), (t) => parsed.push(t.length));
    expect(parsed).toEqual([PIECE_PROBE_MIN_LENGTH - 1]);
    expect(seen).toEqual([[PIECE_PROBE_MIN_LENGTH - 1, false]]);
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
    expect(seen.filter(([, probe]) => probe)).toEqual([[PIECE_PROBE_LENGTH, true]]);
    expect(seen).toContainEqual([text.length, false]);
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
    expect(seen.filter(([, probe]) => probe)).toHaveLength(1);
    expect(diagnostics.filter((d) => d.ruleId === 'parse-error')).toEqual([]);
  });
});
