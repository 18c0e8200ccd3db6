/**
 * Name suggestions for "did you mean" hints: every layer may use them (config validation,
 * suppression comments, rules, link problems), so they live below all of them and import nothing
 * of docdrift's.
 */
import { distance } from 'fastest-levenshtein';

/**
 * Lower-cases, splits camelCase words with `_` and maps `-` to `_`, so `Resume-From-Cache`,
 * `resumeFromCache` and `resume_from_cache` are one name (a CLI flag and the config key it sets
 * live in different namespaces: `--seed-count` and `seedCount`).
 */
function normaliseName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/-/g, '_');
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function osaDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1).fill(0);
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n]!;
}

/**
 * Nearest names to `name` among `candidates`, for "did you mean" hints.
 *
 * Names are compared case-insensitively with `-` and `_` treated alike, by optimal string
 * alignment distance (Levenshtein from fastest-levenshtein, plus adjacent transpositions:
 * `temprature` → `temperature` is 1). A candidate whose `_`-separated words are the same in
 * another order (`cache_resume` ↔ `resume_cache`) counts as distance 1. Only candidates within
 * `max(1, min(3, floor(length × 0.3)))` edits of the longer name qualify (short names need
 * near-exact matches, and no name is more than three typos away). Results are sorted by distance, then by raw edit distance, then alphabetically;
 * duplicates are removed; an exact match is kept (distance 0).
 *
 * @param max Most suggestions returned (default 3).
 */
export function suggestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const target = normaliseName(name);
  const targetWords = target.split('_').filter(Boolean).sort().join('_');
  const scored: Array<{ candidate: string; d: number; raw: number }> = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    const c = normaliseName(candidate);
    // Typos are a few keystrokes; a larger distance suggests a different name, and a wrong
    // "did you mean" costs more trust than none.
    const threshold = Math.max(1, Math.min(3, Math.floor(Math.max(c.length, target.length) * 0.3)));
    // Levenshtein ≤ 2 × OSA, so this cheap bound skips hopeless candidates.
    const lev = distance(c, target);
    let d = lev <= 1 ? lev : lev / 2 > threshold ? Infinity : osaDistance(c, target);
    if (d > 1 && c.includes('_') && c.split('_').filter(Boolean).sort().join('_') === targetWords) d = 1;
    if (d <= threshold) scored.push({ candidate, d, raw: distance(candidate, name) });
  }
  scored.sort((a, b) => a.d - b.d || a.raw - b.raw || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  return scored.slice(0, Math.max(0, max)).map((s) => s.candidate);
}
