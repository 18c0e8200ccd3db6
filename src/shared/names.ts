/**
 * Name suggestions for "did you mean" hints: every layer may use them (config validation,
 * suppression comments, rules, link problems), so they live below all of them and import nothing
 * of docdrift's.
 */
import { distance } from 'fastest-levenshtein';
import { lowerBound } from './ranges.js';

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
 * near-exact matches, and no name is more than three typos away). Results are sorted by distance,
 * then by raw edit distance, then alphabetically; duplicates are removed; an exact match is kept
 * (distance 0).
 *
 * `candidates` is a list, or a {@link NameIndex} built once from it: a caller asking about many
 * names against one list (every usage of a command against its parameters) builds the index once,
 * so each question costs a filtered pass over the candidates of a length within three of the
 * name's, not a pass over the whole list to key or normalise it. A plain list is indexed too, and
 * the index kept for the next question about an equal list, or about the same array: an array
 * must not be changed in place between questions (pass a new one, or a new {@link NameIndex}).
 *
 * Past {@link EXACT_WINDOW} candidates of a length within three of the name's (no real CLI or
 * config has that many), only the {@link SHORTLIST} of them that share the most character pairs
 * with the name are compared, found through an index of character pairs, so that N names asked
 * against N candidates stay near-linear (#33 D5: 10,000 of each took a minute of rules). A
 * typo shares most of its pairs with the name it misspells, so the hint is kept; a name far from
 * every candidate may lose a distance-3 suggestion it would have had.
 *
 * @param max Most suggestions returned (default 3).
 */
export function suggestNames(name: string, candidates: Iterable<string> | NameIndex, max = 3): string[] {
  if (max <= 0) return [];
  const index = candidates instanceof NameIndex ? candidates : candidateIndex(candidates);
  const memoKey = `${max}\0${name}`;
  const memo = index.answers.get(memoKey);
  if (memo) return [...memo];
  const answer = nearest(name, index, max);
  if (index.answers.size >= MAX_ANSWERS) index.answers.clear();
  index.answers.set(memoKey, answer);
  return [...answer];
}

/**
 * The one candidate that spells `name` with some of its words cut short, or the other way round:
 * `GITHUB_REPO` for `GITHUB_REPOSITORY`, `DB_CONN_TIMEOUT` for `DB_CONNECTION_TIMEOUT`. Words are
 * split at `_`, `-` and `.`, compared without case; each pair must be equal or one a prefix of at
 * least 3 letters of the other, with at least one pair unequal. Undefined when none or several
 * candidates match. Edit distance misses these (6 letters apart in 17).
 */
export function abbreviatedName(name: string, candidates: Iterable<string>): string | undefined {
  return abbreviationIndexOf(candidates).find(name);
}

/** An array's {@link AbbreviationIndex}, kept while its length is unchanged (a command's `paramNames` is asked per usage). */
const abbreviationIndexes = new WeakMap<readonly string[], { length: number; index: AbbreviationIndex }>();

function abbreviationIndexOf(candidates: Iterable<string>): AbbreviationIndex {
  if (!Array.isArray(candidates)) return new AbbreviationIndex(candidates);
  const list = candidates as readonly string[];
  const known = abbreviationIndexes.get(list);
  if (known?.length === list.length) return known.index;
  const index = new AbbreviationIndex(list);
  abbreviationIndexes.set(list, { length: list.length, index });
  return index;
}

/** Whether two lower-case words pair in {@link abbreviatedName}: equal, or one a prefix of at least 3 letters of the other. */
function wordsPair(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && long.startsWith(short);
}

/** The words of a name as {@link abbreviatedName} compares them: lower case, split at `-`, `_` and `.`. */
function abbreviationWords(name: string): string[] {
  return name.toLowerCase().split(/[-_.]+/).filter(Boolean);
}

/**
 * Candidates of {@link abbreviatedName} split into words once, by word count, with the
 * candidates holding each word at each position. A name is compared only with the candidates
 * that pair with it at its most selective position (the word itself, its prefixes of 3 letters or
 * more, the words it is a prefix of), not with every candidate: asked per env name an example
 * sets, the scan split every parameter's name per question (8,000 names x 8,000 fields: 4.4 s of
 * the rules' 12.4 s once D2's namespace scan was gone, s29 on the s28 sweep2 D2 input; under
 * 0.1 s after). Same answers as the scan.
 */
class AbbreviationIndex {
  private readonly byCount = new Map<number, { words: string[][]; names: string[]; positions: Array<{ ids: Map<string, number[]>; sorted: string[] }> }>();

  constructor(candidates: Iterable<string>) {
    for (const candidate of new Set(candidates)) {
      const words = abbreviationWords(candidate);
      if (words.length === 0) continue;
      let group = this.byCount.get(words.length);
      if (!group) this.byCount.set(words.length, (group = { words: [], names: [], positions: words.map(() => ({ ids: new Map(), sorted: [] })) }));
      const id = group.names.length;
      group.names.push(candidate);
      group.words.push(words);
      words.forEach((w, i) => {
        const ids = group.positions[i]!.ids;
        const list = ids.get(w);
        if (list) list.push(id);
        else ids.set(w, [id]);
      });
    }
    for (const group of this.byCount.values()) for (const pos of group.positions) pos.sorted = [...pos.ids.keys()].sort();
  }

  /** {@link abbreviatedName} of `name` among the candidates. */
  find(name: string): string | undefined {
    const words = abbreviationWords(name);
    const group = this.byCount.get(words.length);
    if (!group) return undefined;
    // The lists of candidate ids whose word at position i pairs with the name's word there.
    const pairing = (i: number, cap: number): { lists: number[][]; size: number } => {
      const { ids, sorted } = group.positions[i]!;
      const a = words[i]!;
      const lists: number[][] = [];
      let size = 0;
      const add = (list: number[] | undefined): void => {
        if (!list) return;
        lists.push(list);
        size += list.length;
      };
      add(ids.get(a));
      for (let k = 3; k < a.length; k++) add(ids.get(a.slice(0, k)));
      if (a.length >= 3) {
        for (let k = lowerBound(sorted, a); k < sorted.length && size <= cap && sorted[k]!.startsWith(a); k++) if (sorted[k] !== a) add(ids.get(sorted[k]!));
      }
      return { lists, size };
    };
    let best: number[][] | undefined;
    let bestSize = Infinity;
    for (let i = 0; i < words.length && bestSize > 0; i++) {
      const { lists, size } = pairing(i, bestSize);
      if (size < bestSize) [best, bestSize] = [lists, size];
    }
    let found: string | undefined;
    for (const list of best ?? []) {
      for (const id of list) {
        const candidate = group.names[id]!;
        if (candidate === name) continue;
        const other = group.words[id]!;
        let cut = false;
        let same = true;
        for (let i = 0; i < words.length && same; i++) {
          if (words[i] === other[i]) continue;
          if (wordsPair(words[i]!, other[i]!)) cut = true;
          else same = false;
        }
        if (!same || !cut) continue;
        if (found !== undefined && found !== candidate) return undefined;
        found = candidate;
      }
    }
    return found;
  }
}

/** Answers kept per {@link NameIndex} (the same name is asked about by several rules and the coverage count). */
const MAX_ANSWERS = 50_000;

/** {@link suggestNames} without its memo (`max` ≥ 1). */
function nearest(name: string, index: NameIndex, max: number): string[] {
  const target = normaliseName(name);
  const targetWords = sortedWords(target);
  const found = new Map<string, number>();
  const targetMask = charMask(target);
  const targetCounts = charCounts(target);
  let spent = index.work > MAX_INDEX_WORK;
  // The `max` smallest distances found so far, a candidate per entry (a form of several
  // candidates, `max-tokens` and `max_tokens`, fills several): a candidate whose distance is
  // surely above the last of them cannot be among the answers, so its distance is not computed
  // (#33 D12: OSA over 3,000 misspellings × 256 shortlisted names took most of 14 s).
  const best: number[] = [];
  /** The target's neighbouring pairs of two different characters, reversed (`ab` → `ba`). */
  const reversed = new Set<string>();
  for (let i = 0; i + 1 < target.length; i++) if (target[i] !== target[i + 1]) reversed.add(target[i + 1]! + target[i]!);
  const keep = (c: string, d: number): void => {
    found.set(c, d);
    for (let k = index.byNormalised.get(c)!.length; k > 0; k--) {
      let at = best.length;
      while (at > 0 && best[at - 1]! > d) at--;
      if (at < max) {
        best.splice(at, 0, d);
        if (best.length > max) best.pop();
      }
    }
  };
  const compare = (id: number): void => {
    const c = index.forms[id]!;
    // Typos are a few keystrokes; a larger distance suggests a different name, and a wrong
    // "did you mean" costs more trust than none.
    const threshold = Math.max(1, Math.min(MAX_EDITS, Math.floor(Math.max(c.length, target.length) * 0.3)));
    // One edit changes at most two bits of the set of characters present: a cheap exact filter.
    if (popcount(index.masks[id]! ^ targetMask) > 2 * threshold) return;
    // One edit changes the count of at most one character each way (the bag distance is a lower
    // bound of OSA): names of one length over one alphabet pass the mask but rarely this (s22 sweep D4).
    if (bagDistance(index.counts32, id, targetCounts) > threshold) return;
    // Each question against an index draws on its budget of work; once spent, no more suggestions.
    index.work += c.length * target.length;
    if (index.work > MAX_INDEX_WORK) {
      spent = true;
      return;
    }
    // Levenshtein ≤ 2 × OSA, so this cheap bound skips hopeless candidates.
    const lev = distance(c, target);
    const bound = best.length < max ? threshold : Math.min(threshold, best[max - 1]!);
    if (Math.ceil(lev / 2) > bound) return;
    // OSA is Levenshtein up to 1; at 2 it is 1 only for one swap of neighbours.
    // Past `bound` the distance does not matter: the row-wise DP stops as soon as it is over.
    // Below Levenshtein only through a swap: some neighbours `xy` of one name are `yx` in the other.
    const d = lev <= 1 ? lev : lev === 2 ? (adjacentSwap(c, target) ? 1 : 2) : !swappable(c, reversed) ? lev : osaDistance(c, target, bound);
    if (d <= bound) keep(c, d);
  };
  // Only lengths within MAX_EDITS of the target can be within MAX_EDITS edits (#33 item 5: every
  // candidate, normalised again per name, took 170 s on 3,000 misspellings × 3,000 names).
  const lengths: number[][] = [];
  let window = 0;
  for (let length = Math.max(0, target.length - MAX_EDITS); length <= target.length + MAX_EDITS; length++) {
    const ids = index.byLength.get(length);
    if (ids) {
      lengths.push(ids);
      window += ids.length;
    }
  }
  if (spent) return [];
  if (window <= EXACT_WINDOW) {
    for (const ids of lengths) for (const id of ids) compare(id);
  } else {
    for (const id of index.shortlist(target)) compare(id);
  }
  // A question the budget cut short has no answer: a partial one may not be the nearest names.
  if (spent) return [];
  // The same `_`-separated words in another order count as distance 1.
  for (const c of index.byWords.get(targetWords) ?? []) if ((found.get(c) ?? Infinity) > 1) keep(c, 1);
  const scored: Array<{ candidate: string; d: number; raw: number }> = [];
  for (const [c, d] of found) for (const candidate of index.byNormalised.get(c) ?? []) scored.push({ candidate, d, raw: distance(candidate, name) });
  scored.sort((a, b) => a.d - b.d || a.raw - b.raw || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  return scored.slice(0, Math.max(0, max)).map((s) => s.candidate);
}

/**
 * Work one {@link NameIndex} may spend on distances, in character pairs (the two names' lengths
 * multiplied, per distance computed): ~0.75 s. Real projects spend under 3 % of it; past it (3,000
 * misspelt 120-character names against 3,000 such names of one alphabet: 21 s of rules, s22
 * sweep D4) the index gives no more suggestions, and findings carry no "did you mean". Was 4e9
 * (~2 s) until 24,000 near-miss flags against 5,000 options sharing a long prefix spent all of it,
 * 2.8 s of a run's 4 s of rules (#33 s42 sweep E5: 10-13 s for the run).
 */
export const MAX_INDEX_WORK = 1_500_000_000;

/** Candidates of a length near the name's that are all compared; past it, a {@link SHORTLIST}. */
export const EXACT_WINDOW = 2000;
/**
 * How many candidates sharing the most character pairs are compared past {@link EXACT_WINDOW}: 128
 * (256 until the s42 sweep's E5). A name with up to three typos keeps all but at most six of its
 * character pairs, so the name it misspells ranks near the top even among thousands that share a
 * long prefix with it.
 */
export const SHORTLIST = 128;
/** Most candidate positions a {@link NameIndex.shortlist} counts, rarest pairs first. */
const PAIR_BUDGET = 2048;

/** No suggestion is more than this many edits away. */
const MAX_EDITS = 3;

/** The `_`-separated words of a normalised name, sorted (`resume_cache` and `cache_resume` agree). */
function sortedWords(normalised: string): string {
  return normalised.split('_').filter(Boolean).sort().join('_');
}

/**
 * Candidates prepared for {@link suggestNames}: normalised once, grouped by length (each form with
 * its {@link charMask}) and by words. Build one with `new NameIndex(list)` when many names are
 * asked about against one list; it is a snapshot (later changes to the list are not seen).
 */
export class NameIndex {
  /** Normalised form → the distinct candidates that have it. */
  readonly byNormalised = new Map<string, string[]>();
  /** The distinct normalised forms, in first-seen order, and the {@link charMask} of each. */
  readonly forms: string[] = [];
  readonly masks: number[] = [];
  /** Length → positions in `forms` of the forms of that length, ascending. */
  readonly byLength = new Map<number, number[]>();
  /** Sorted words → normalised forms holding `_`. */
  readonly byWords = new Map<string, string[]>();
  /** Per form, how often each character (by code & 31, as {@link charMask}) occurs: 32 counts per form. */
  counts32 = new Uint16Array(0);
  /** Work spent on distances so far (see {@link MAX_INDEX_WORK}). */
  work = 0;
  /** Answers of {@link suggestNames} by max and name (the index is a snapshot, so they stay right). */
  readonly answers = new Map<string, string[]>();
  /** Character pair → positions in `forms` holding it, ascending; built on the first shortlist. */
  private pairs: Map<string, number[]> | undefined;
  /** Per-form pair counts of the current shortlist (all zero between questions). */
  private counts: Uint32Array | undefined;
  /** The length of each form, for the shortlist's length window. */
  private lengths: Uint32Array | undefined;

  constructor(candidates: Iterable<string>) {
    for (const candidate of new Set(candidates)) {
      const normalised = normaliseName(candidate);
      const same = this.byNormalised.get(normalised);
      if (same) {
        same.push(candidate);
        continue;
      }
      this.byNormalised.set(normalised, [candidate]);
      const id = this.forms.length;
      this.forms.push(normalised);
      this.masks.push(charMask(normalised));
      const ids = this.byLength.get(normalised.length);
      if (ids) ids.push(id);
      else this.byLength.set(normalised.length, [id]);
      if (this.counts32.length < (id + 1) * 32) {
        const grown = new Uint16Array(Math.max(64, this.counts32.length * 2));
        grown.set(this.counts32);
        this.counts32 = grown;
      }
      this.counts32.set(charCounts(normalised), id * 32);
      if (normalised.includes('_')) {
        const words = sortedWords(normalised);
        const group = this.byWords.get(words);
        if (group) group.push(normalised);
        else this.byWords.set(words, [normalised]);
      }
    }
  }

  /**
   * Positions of the {@link SHORTLIST} forms of a length within {@link MAX_EDITS} of `target`'s
   * that share the most character pairs with it (the ends count as characters: `^a`, `z$`), most
   * first, ties in first-seen order. The name's pairs are counted rarest first until
   * {@link PAIR_BUDGET} positions are counted, so a question costs the same however many forms
   * there are.
   */
  shortlist(target: string): number[] {
    if (!this.pairs) {
      this.pairs = new Map();
      this.forms.forEach((form, id) => {
        for (const pair of pairsOf(form)) {
          const ids = this.pairs!.get(pair);
          if (ids) ids.push(id);
          else this.pairs!.set(pair, [id]);
        }
      });
      this.counts = new Uint32Array(this.forms.length);
      this.lengths = Uint32Array.from(this.forms, (f) => f.length);
    }
    const counts = this.counts!;
    const lengths = this.lengths!;
    const touched: number[] = [];
    // The rarest pairs first, while the budget lasts: a question costs at most PAIR_BUDGET steps,
    // however many candidates there are.
    const postings = [...pairsOf(target)].flatMap((pair) => { const ids = this.pairs!.get(pair); return ids ? [ids] : []; });
    postings.sort((a, b) => a.length - b.length);
    let budget = PAIR_BUDGET;
    for (const ids of postings) {
      if (ids.length > budget) break;
      budget -= ids.length;
      for (const id of ids) {
        if (Math.abs(lengths[id]! - target.length) > MAX_EDITS) continue;
        if (counts[id] === 0) touched.push(id);
        counts[id] = counts[id]! + 1;
      }
    }
    // Most shared pairs first, by buckets of counts (a sort would cost more than the counting).
    const byCount: number[][] = [];
    for (const id of touched) (byCount[counts[id]!] ??= []).push(id);
    const chosen: number[] = [];
    for (let n = byCount.length - 1; n > 0 && chosen.length < SHORTLIST; n--) {
      const ids = byCount[n];
      if (!ids) continue;
      ids.sort((a, b) => a - b);
      for (const id of ids) if (chosen.length < SHORTLIST) chosen.push(id);
    }
    for (const id of touched) counts[id] = 0;
    return chosen;
  }
}

/** The distinct character pairs of a normalised name, its ends included (`ab` → `^a`, `ab`, `b$`). */
function pairsOf(form: string): Set<string> {
  const padded = `^${form}$`;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < padded.length; i++) pairs.add(padded.slice(i, i + 2));
  return pairs;
}

/** Indexes of recent candidate lists, by their names joined: callers ask about many names against one list. */
const indexes = new Map<string, NameIndex>();
const MAX_INDEXES = 32;

/** Indexes of lists asked about again as the same array (with the length they had then). */
const byArray = new WeakMap<readonly string[], { length: number; index: NameIndex }>();

function candidateIndex(candidates: Iterable<string>): NameIndex {
  const same = Array.isArray(candidates) ? byArray.get(candidates) : undefined;
  if (same && same.length === (candidates as string[]).length) return same.index;
  const list = Array.isArray(candidates) ? (candidates as string[]) : [...candidates];
  const key = list.join('\0');
  const known = indexes.get(key);
  if (known) {
    // Most recently used last.
    indexes.delete(key);
    indexes.set(key, known);
    if (Array.isArray(candidates)) byArray.set(candidates, { length: list.length, index: known });
    return known;
  }
  const index = new NameIndex(list);
  if (Array.isArray(candidates)) byArray.set(candidates, { length: list.length, index });
  indexes.set(key, index);
  if (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!);
  return index;
}

/** The characters present in `s`, as 32 bits (code unit mod 32; several characters may share a bit). */
/** How often each character of `s` occurs, by code & 31 (the buckets of {@link charMask}); counts stop at 65,535. */
function charCounts(s: string): Uint16Array {
  const counts = new Uint16Array(32);
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i) & 31;
    if (counts[b]! < 65_535) counts[b]!++;
  }
  return counts;
}

/**
 * The bag distance of form `id` (its counts at `id * 32` in `all`) and the target's counts: the
 * larger of the characters one has more of and those the other has more of. An insertion,
 * deletion or substitution changes each side by at most one, so it never exceeds the edit distance.
 */
function bagDistance(all: Uint16Array, id: number, target: Uint16Array): number {
  let more = 0;
  let fewer = 0;
  for (let b = 0, at = id * 32; b < 32; b++, at++) {
    const d = all[at]! - target[b]!;
    if (d > 0) more += d;
    else fewer -= d;
  }
  return Math.max(more, fewer);
}

function charMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) mask |= 1 << (s.charCodeAt(i) & 31);
  return mask;
}

/** True when some neighbouring pair of `form` is in `reversed` (a swap could shorten its distance to the target). */
function swappable(form: string, reversed: ReadonlySet<string>): boolean {
  if (reversed.size === 0) return false;
  for (let i = 0; i + 1 < form.length; i++) if (reversed.has(form[i]! + form[i + 1]!)) return true;
  return false;
}

/** True when `a` and `b` differ only by two neighbouring characters swapped (`ab` ↔ `ba`). */
function adjacentSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** Bits set in a 32-bit number. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Work counters, read by tests: how many OSA distances {@link suggestNames} computed (the costly step). */
export const nameStats = { osaDistances: 0 };

/** Three reusable DP rows for {@link osaDistance}. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `limit + 1`
 * when it is over `limit`. Only the band of cells within `limit` of the diagonal is computed (a
 * cell off it is over the limit), and the walk stops as soon as every cell of a row is over it
 * (no later row can come back under it).
 */
function osaDistance(a: string, b: string, limit: number): number {
  nameStats.osaDistances++;
  const m = a.length;
  const n = b.length;
  const over = limit + 1;
  if (Math.abs(m - n) > limit) return over;
  if (rows[0]!.length <= n + 1) rows = [new Int32Array(n + 2), new Int32Array(n + 2), new Int32Array(n + 2)];
  let prev2 = rows[0]!;
  let prev = rows[1]!;
  let cur = rows[2]!;
  for (let j = 0; j <= n; j++) prev[j] = j <= limit ? j : over;
  for (let i = 1; i <= m; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(n, i + limit);
    cur[0] = i <= limit ? i : over;
    // The cell left of the band and the one right of it (read by the next row) count as over.
    cur[lo - 1] = lo - 1 === 0 ? cur[0]! : over;
    if (hi < n) cur[hi + 1] = over;
    let least = over;
    for (let j = lo; j <= hi; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2]! + 1);
      if (d > over) d = over;
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > limit) return over;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return Math.min(prev[n]!, over);
}
