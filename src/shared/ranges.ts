/** Range queries over sorted line numbers, so per-section checks stay O(log n) instead of scanning every heading or row (#33 D3). */

/**
 * Index of the first element of `sorted` (ascending numbers, or strings in code-unit order) that
 * is `>= value`; `sorted.length` when none is. O(log n); never throws.
 */
export function lowerBound<T extends number | string>(sorted: readonly T[], value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How many elements of `sorted` (ascending numbers, e.g. 1-based line numbers) lie in the
 * half-open range `(after, upTo]`: `0` when `upTo <= after`. O(log n); never throws.
 */
export function countWithin(sorted: readonly number[], after: number, upTo: number): number {
  if (upTo <= after) return 0;
  return lowerBound(sorted, upTo + 1) - lowerBound(sorted, after + 1);
}

/** `values` sorted ascending, as a new array (numbers compared as numbers). */
export function sortedNumbers(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * The union of closed line ranges `[a, b]` that blocks are added to as they are read, with an
 * O(log n) membership test: a scan of every range per block was quadratic on pages of 14,000
 * sections (#33 D3). Kept merged, sorted and disjoint; {@link LineRanges.add} may come between
 * tests (inferBlocks covers each block it assigns, and later blocks must see it).
 */
export class LineRanges {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(ranges: ReadonlyArray<readonly [number, number]>) {
    for (const [a, b] of ranges) this.add(a, b);
  }

  /** Adds `[a, b]` (nothing when `b < a`), merging it with the ranges it touches. O(n) at worst (a splice). */
  add(a: number, b: number): void {
    if (b < a) return;
    // First range that ends at or after `a`, and the first that starts after `b`: those between overlap.
    let lo = lowerBound(this.ends, a);
    const hi = lowerBound(this.starts, b + 1);
    if (lo < hi) {
      a = Math.min(a, this.starts[lo]!);
      b = Math.max(b, this.ends[hi - 1]!);
    } else lo = hi;
    this.starts.splice(lo, hi - lo, a);
    this.ends.splice(lo, hi - lo, b);
  }

  /** Whether `line` lies in one of the ranges. */
  has(line: number): boolean {
    const i = lowerBound(this.starts, line + 1) - 1;
    return i >= 0 && line <= this.ends[i]!;
  }
}
