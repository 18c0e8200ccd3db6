/** Readers that were quadratic in the number of sections of one page (#33 fresh sweep D3: 14,000 sections of 1.0 MB, 12.6-14.4 s): sorted line ranges instead of a scan per section. */
import type { Root, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { readLayoutRows } from '../src/docs/layouts.js';
import { parseMarkdown } from '../src/docs/markdown.js';
import { countWithin, LineRanges, lowerBound } from '../src/shared/ranges.js';

/** CPU time (user + system) `run` takes, in milliseconds. */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('sorted line ranges', () => {
  it('counts the lines in (after, upTo]', () => {
    const lines = [1, 3, 3, 7, 10];
    expect(lowerBound(lines, 3)).toBe(1);
    expect(lowerBound(lines, 11)).toBe(5);
    expect(countWithin(lines, 1, 7)).toBe(3);
    expect(countWithin(lines, 0, 1)).toBe(1);
    expect(countWithin(lines, 10, 20)).toBe(0);
    expect(countWithin(lines, 7, 7)).toBe(0);
    expect(countWithin([], 0, 100)).toBe(0);
  });

  it('tests membership in a union of ranges that grows between tests (inferBlocks covers each block it assigns)', () => {
    const covered = new LineRanges([[10, 20], [30, 40], [5, 8]]);
    expect([4, 5, 8, 9, 10, 20, 21, 35, 41].map((l) => covered.has(l))).toEqual([false, true, true, false, true, true, false, true, false]);
    // A range added after the first tests is seen by the next ones (a snapshot index missed it:
    // giget, rnx-kit and ezmesure read blocks under an assigned one as references of their own).
    covered.add(21, 29);
    expect([21, 25, 29, 41].map((l) => covered.has(l))).toEqual([true, true, true, false]);
    covered.add(1, 100);
    expect([1, 50, 100, 101].map((l) => covered.has(l))).toEqual([true, true, true, false]);
    covered.add(200, 199);
    expect(covered.has(199)).toBe(false);
    // Against a plain scan over random ranges.
    const ranges: Array<[number, number]> = [];
    const set = new LineRanges([]);
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 300; i++) {
      const a = rand(1000);
      const b = a + rand(30);
      ranges.push([a, b]);
      set.add(a, b);
      const line = rand(1100);
      expect(set.has(line)).toBe(ranges.some(([x, y]) => line >= x && line <= y));
    }
  });
});

/** A tree of `n` copies of `unit`'s top-level nodes, each copy `lines` lines below the one before (as a page of `n` such sections parses). */
function repeatedTree(unit: string, n: number): { tree: Root; lastLine: number } {
  const one = parseMarkdown(unit);
  const lines = unit.split('\n').length - 1;
  const shift = (node: unknown, by: number): unknown => {
    if (Array.isArray(node)) return node.map((x) => shift(x, by));
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'start' || k === 'end') && v && typeof v === 'object' && 'line' in v) {
        const p = v as { line: number; column: number; offset?: number };
        out[k] = { line: p.line + by, column: p.column, offset: (p.offset ?? 0) + by * 1000 };
      } else out[k] = shift(v, by);
    }
    return out;
  };
  const children: RootContent[] = [];
  for (let i = 0; i < n; i++) children.push(...(shift(one.children, i * lines) as RootContent[]));
  return { tree: { type: 'root', children }, lastLine: n * lines };
}

describe('parameter headings of a page of many sections are read in near-linear time (#33 fresh sweep D3)', () => {
  it('reads 60,000 parameter headings, each with a link, in seconds (each scanned every other: quadratic)', { timeout: 120_000 }, () => {
    const n = 60_000;
    const { tree, lastLine } = repeatedTree('### `seed`\n\nType: `int`. Default: `1`. See [x](#x).\n\n', n);
    const links = Array.from({ length: n }, (_, i) => ({ text: 'x', url: '#x', location: { file: 'a.md', line: 3 + i * 4, column: 32 } }));
    let rows = 0;
    const ms = cpuMs(() => {
      rows = readLayoutRows(tree, { file: 'a.md', rawLines: [], links: links as never, tables: [], invocations: [], lastLine }).headingRows.length;
    });
    expect(rows).toBe(n);
    // Well under a second on an idle machine; the scans per heading (params, links) took minutes.
    expect(ms).toBeLessThan(20_000);
  });
});
