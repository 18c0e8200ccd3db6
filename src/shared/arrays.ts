/** Array helpers that stay safe for arrays of any length. */

/**
 * Appends `items` to `target` in order and returns `target`. Unlike `target.push(...items)`, it
 * does not pass each item as a call argument, which throws `RangeError: Maximum call stack size
 * exceeded` past roughly 100,000 items (V8 puts spread arguments on the stack): 130 package.json
 * files of 1,000 `bin` entries each crashed a run so (#33 s23 sweep D3).
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** Below this length a list is searched with `includes`: a Set beside every short alias list would cost more memory than it saves. */
const UNIQUE_SCAN_MAX = 32;

/** The Set kept beside each long list {@link pushUnique} appends to, with the length it mirrors. */
const members = new WeakMap<readonly unknown[], { set: Set<unknown>; length: number }>();

/**
 * Appends `item` to `list` unless the list already holds it (SameValueZero, as `includes`), and
 * says whether it was appended. O(1) a call: past {@link UNIQUE_SCAN_MAX} items a Set is kept
 * beside the list (in a WeakMap, so callers keep their plain arrays). Deduplicating with
 * `if (!list.includes(x)) list.push(x)` is O(n^2): 110,000 commander aliases took 16 s of CPU
 * (s27 sweep2 D6: 989 KB src/cli.ts, whole run 19.4 s -> 1.8 s CPU). Meant for lists only appended to;
 * a list changed otherwise (spliced, truncated, pushed to directly) is noticed by its length and
 * read again, but one whose items are replaced in place at the same length is not.
 */
export function pushUnique<T>(list: T[], item: T): boolean {
  if (list.length < UNIQUE_SCAN_MAX) {
    if (list.includes(item)) return false;
    list.push(item);
    return true;
  }
  let known = members.get(list);
  if (known?.length !== list.length) {
    known = { set: new Set<unknown>(list), length: list.length };
    members.set(list, known);
  }
  if (known.set.has(item)) return false;
  list.push(item);
  known.set.add(item);
  known.length = list.length;
  return true;
}

/** {@link pushUnique} for each of `items`, in order; returns `list`. */
export function pushAllUnique<T>(list: T[], items: Iterable<T>): T[] {
  for (const item of items) pushUnique(list, item);
  return list;
}
