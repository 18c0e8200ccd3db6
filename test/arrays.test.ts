/** pushUnique / pushAllUnique (src/shared/arrays.ts): the same list as `if (!list.includes(x)) list.push(x)`, in linear time (s27 sweep2 D6). */
import { describe, expect, it } from 'vitest';
import { pushAllUnique, pushUnique } from '../src/shared/arrays.js';
import { seededRandom } from './random.js';

/** The old deduplication, for parity. */
function byIncludes<T>(list: T[], items: readonly T[]): T[] {
  for (const item of items) if (!list.includes(item)) list.push(item);
  return list;
}

describe('pushUnique', () => {
  it('keeps the first occurrence of each item, in order, like includes + push, short and long lists', () => {
    const next = seededRandom(7);
    for (const [n, range] of [[10, 5], [40, 30], [500, 200], [5000, 100_000]] as const) {
      const items = Array.from({ length: n }, () => `a${Math.floor(next() * range)}`);
      const start = ['a1', 'a1', 'x'];
      expect(pushAllUnique([...start], items)).toEqual(byIncludes([...start], items));
    }
  });

  it('says whether it appended, and treats NaN, 0 and -0 as includes does (SameValueZero)', () => {
    const list: number[] = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(pushUnique(list, NaN)).toBe(true);
    expect(pushUnique(list, NaN)).toBe(false);
    expect(pushUnique(list, 0)).toBe(true);
    expect(pushUnique(list, -0)).toBe(false);
    expect(pushUnique(list, 40)).toBe(false);
    expect(list).toHaveLength(42);
  });

  it('notices a list changed behind its back (pushed to directly, truncated)', () => {
    const list = Array.from({ length: 50 }, (_, i) => `a${i}`);
    pushUnique(list, 'b');
    list.push('c');
    expect(pushUnique(list, 'c')).toBe(false);
    list.length = 10;
    expect(pushUnique(list, 'a20')).toBe(true);
    expect(list.filter((x) => x === 'a20')).toHaveLength(1);
  });

  it('appends 110,000 distinct aliases in linear time', () => {
    const list: string[] = [];
    const t = performance.now();
    for (let i = 0; i < 110_000; i++) pushUnique(list, `a${i}`);
    for (let i = 0; i < 110_000; i++) pushUnique(list, `a${i}`);
    expect(list).toHaveLength(110_000);
    // includes + push took about 15 s for this; the Set, a few ms. Generous for a shared machine.
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
