/** src/shared/memo.ts: derived values kept with the node or text they were computed from (issue #36). */
import { describe, expect, it } from 'vitest';
import { deepFreeze, memoByObject, memoByText } from '../src/shared/memo.js';
import { readReferenceTable } from '../src/docs/reference-table.js';
import type { DocTable } from '../src/model/types.js';

describe('memoByObject', () => {
  it('computes once per key object, keeps undefined results, and a new object misses', () => {
    let calls = 0;
    const rows = memoByObject((t: { n: number }) => (calls++, t.n > 0 ? [t.n] : undefined));
    const a = { n: 1 };
    const z = { n: 0 };
    expect(rows(a)).toBe(rows(a));
    expect(rows(z)).toBeUndefined();
    expect(rows(z)).toBeUndefined();
    expect(calls).toBe(2);
    expect(rows({ n: 1 })).toEqual([1]);
    expect(calls).toBe(3);
  });

  it('a table node\'s reference rows are read once and shared', () => {
    const at = (line: number, column: number) => ({ file: 'docs/cli.md', line, column });
    const table = { header: ['Name', 'Description'], rows: [{ cells: ['`out`', 'Where to write'], cellCodes: [['out'], []], links: [], location: at(3, 1), cellSpans: [3, 3, 3, 10, 3, 11, 3, 25] }], location: at(1, 1) } satisfies DocTable;
    const first = readReferenceTable(table);
    expect(first?.map((r) => r.names)).toEqual([['out']]);
    expect(readReferenceTable(table)).toBe(first);
  });
});

describe('memoByText', () => {
  it('computes once per string and drops the oldest half past its bound', () => {
    const seen: string[] = [];
    const upper = memoByText((s: string) => (seen.push(s), s.toUpperCase()), 4);
    for (const s of ['a', 'b', 'a', 'c', 'd']) upper(s);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    upper('e'); // full (4): 'a' and 'b' dropped, then 'e' kept
    upper('c');
    upper('a');
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);
  });

  it('does not keep a key over its length bound', () => {
    let calls = 0;
    const len = memoByText((s: string) => (calls++, s.length), 10, 3);
    len('abcd');
    len('abcd');
    expect(calls).toBe(2);
  });
});

describe('deepFreeze', () => {
  it('freezes nested arrays, objects, maps\' entries, any depth', () => {
    let deep: { next?: unknown; list: number[] } = { list: [1] };
    for (let i = 0; i < 50_000; i++) deep = { next: deep, list: [i] };
    const value = { deep, map: new Map([['k', { v: 1 }]]) };
    deepFreeze(value);
    expect(Object.isFrozen(value.map.get('k'))).toBe(true);
    let node: { next?: unknown; list: number[] } | undefined = value.deep;
    let n = 0;
    while (node) {
      expect(Object.isFrozen(node.list)).toBe(true);
      node = node.next as typeof node;
      n++;
    }
    expect(n).toBe(50_001);
  });
});
