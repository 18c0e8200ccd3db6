/**
 * Name suggestions for "did you mean" hints: every layer may use them (config validation,
 * suppression comments, rules, link problems), so they live below all of them and import nothing
 * of docdrift's.
 */
import { distance } from 'fastest-levenshtein';

/**
 * A name with case, `-` and `_` left out, so that `max_tokens`, `max-tokens` and `maxTokens` are
 * one key (`maxtokens`). Leading dashes and dotted parts are the caller's to strip.
 */
export function foldSpelling(name: string): string {
  return name.replace(/[-_]/g, '').toLowerCase();
}

/**
 * Lower-cases, splits camelCase words with `_` and maps `-` to `_`, so `Resume-From-Cache`,
 * `resumeFromCache` and `resume_from_cache` are one name (a CLI flag and the config key it sets
 * live in different namespaces: `--seed-count` and `seedCount`).
 */
function normaliseName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/-/g, '_');
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
 * duplicates are removed; an exact match is kept (distance 0). The candidates are indexed once
 * per distinct list (normalised once, grouped by length), so asking about many names against
 * one list costs little per name; only candidates of a length within three of the name's are compared.
 *
 * @param max Most suggestions returned (default 3).
 */
export function suggestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const target = normaliseName(name);
  const targetWords = sortedWords(target);
  const index = candidateIndex(candidates);
  const found = new Map<string, number>();
  // Only lengths within MAX_EDITS of the target can be within MAX_EDITS edits (#33 item 5: every
  // candidate, normalised again per name, took 170 s on 3,000 misspellings × 3,000 names).
  const targetMask = charMask(target);
  for (let length = Math.max(0, target.length - MAX_EDITS); length <= target.length + MAX_EDITS; length++) {
    const group = index.byLength.get(length) ?? [];
    const masks = index.masks.get(length) ?? [];
    for (let i = 0; i < group.length; i++) {
      const c = group[i]!;
      // Typos are a few keystrokes; a larger distance suggests a different name, and a wrong
      // "did you mean" costs more trust than none.
      const threshold = Math.max(1, Math.min(MAX_EDITS, Math.floor(Math.max(c.length, target.length) * 0.3)));
      // One edit changes at most two bits of the set of characters present: a cheap exact filter.
      if (popcount(masks[i]! ^ targetMask) > 2 * threshold) continue;
      // Levenshtein ≤ 2 × OSA, so this cheap bound skips hopeless candidates.
      const lev = distance(c, target);
      const d = lev <= 1 ? lev : lev / 2 > threshold ? Infinity : osaDistance(c, target, threshold);
      if (d <= threshold) found.set(c, d);
    }
  }
  // The same `_`-separated words in another order count as distance 1.
  for (const c of index.byWords.get(targetWords) ?? []) if ((found.get(c) ?? Infinity) > 1) found.set(c, 1);
  const scored: Array<{ candidate: string; d: number; raw: number }> = [];
  for (const [c, d] of found) for (const candidate of index.byNormalised.get(c) ?? []) scored.push({ candidate, d, raw: distance(candidate, name) });
  scored.sort((a, b) => a.d - b.d || a.raw - b.raw || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  return scored.slice(0, Math.max(0, max)).map((s) => s.candidate);
}

/** No suggestion is more than this many edits away. */
const MAX_EDITS = 3;

/** The `_`-separated words of a normalised name, sorted (`resume_cache` and `cache_resume` agree). */
function sortedWords(normalised: string): string {
  return normalised.split('_').filter(Boolean).sort().join('_');
}

/** Candidates prepared for {@link suggestNames}: normalised once, grouped by length and by words. */
interface CandidateIndex {
  /** Normalised form → the distinct candidates that have it. */
  byNormalised: Map<string, string[]>;
  /** Length → normalised forms of that length. */
  byLength: Map<number, string[]>;
  /** Length → the {@link charMask} of each form in `byLength`, in the same order. */
  masks: Map<number, number[]>;
  /** Sorted words → normalised forms holding `_`. */
  byWords: Map<string, string[]>;
}

/** Indexes of recent candidate lists, by their names joined: callers ask about many names against one list. */
const indexes = new Map<string, CandidateIndex>();
const MAX_INDEXES = 32;

function candidateIndex(candidates: Iterable<string>): CandidateIndex {
  const list = Array.isArray(candidates) ? (candidates as string[]) : [...candidates];
  const key = list.join('\0');
  const known = indexes.get(key);
  if (known) {
    // Most recently used last.
    indexes.delete(key);
    indexes.set(key, known);
    return known;
  }
  const index: CandidateIndex = { byNormalised: new Map(), byLength: new Map(), masks: new Map(), byWords: new Map() };
  const add = (map: Map<string | number, string[]>, key: string | number, value: string): void => {
    const group = map.get(key);
    if (group) group.push(value);
    else map.set(key, [value]);
  };
  for (const candidate of new Set(list)) {
    const normalised = normaliseName(candidate);
    const same = index.byNormalised.get(normalised);
    if (same) {
      same.push(candidate);
      continue;
    }
    index.byNormalised.set(normalised, [candidate]);
    add(index.byLength as Map<string | number, string[]>, normalised.length, normalised);
    const masks = index.masks.get(normalised.length);
    if (masks) masks.push(charMask(normalised));
    else index.masks.set(normalised.length, [charMask(normalised)]);
    if (normalised.includes('_')) add(index.byWords as Map<string | number, string[]>, sortedWords(normalised), normalised);
  }
  indexes.set(key, index);
  if (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!);
  return index;
}

/** The characters present in `s`, as 32 bits (code unit mod 32; several characters may share a bit). */
function charMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) mask |= 1 << (s.charCodeAt(i) & 31);
  return mask;
}

/** Bits set in a 32-bit number. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Three reusable DP rows for {@link osaDistance}. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `limit + 1`
 * as soon as every entry of a row is over `limit` (no later row can come back under it).
 */
function osaDistance(a: string, b: string, limit: number): number {
  const m = a.length;
  const n = b.length;
  if (rows[0]!.length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let prev2 = rows[0]!;
  let prev = rows[1]!;
  let cur = rows[2]!;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let least = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > limit) return limit + 1;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return prev[n]!;
}
