/** Range queries over sorted line numbers, so per-section checks stay O(log n) instead of scanning every heading or row (#33 D3). */

/**
 * Index of the first element of `sorted` (ascending numbers) that is `>= value`; `sorted.length`
 * when none is. O(log n); never throws.
 */
export function lowerBound(sorted: readonly number[], value: number): number {
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
