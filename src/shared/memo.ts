/**
 * Derived values kept with the inputs they were computed from: the small incremental layer of the
 * engine (issue #36). A value derived from a parsed document's node (a table's reference rows) is
 * keyed on that node's identity: the language server hands an unchanged page's parsed outcome out
 * again from one lint to the next (src/lsp/pieces.ts `LIVE_KINDS`), so the page's tables are the
 * same objects and their rows are not read again; an edited page is a new outcome, whose nodes
 * miss. A value derived from a string (a config file's text, a heading's text) is keyed on the
 * string, in a bounded map.
 *
 * Memoised values are shared by every caller, across lints: callers must not change them. The
 * tests freeze them (`DOCDRIFT_TEST_FREEZE_PIECES=1`, as the server's live pieces), so a write throws.
 */

/** Freeze what is handed out (tests): a caller that changes a memoised value then throws. */
const FREEZE = process.env.DOCDRIFT_TEST_FREEZE_PIECES === '1';

/**
 * Freezes `value` and everything reachable from it (objects, arrays, maps' and sets' entries; typed
 * arrays and buffers are left writable, they cannot be frozen). Iterative: any depth.
 */
export function deepFreeze(value: unknown, seen = new Set<object>()): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) continue;
    seen.add(v);
    Object.freeze(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof Set) for (const x of v) stack.push(x);
    else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
}

/** `value`, deep-frozen when the tests ask for it (see {@link FREEZE}). */
function shared<V>(value: V): V {
  if (FREEZE) deepFreeze(value);
  return value;
}

/**
 * `fn` computed once per key object, for as long as the key lives (a `WeakMap`: nothing is kept
 * for a node no one holds).
 *
 * @param fn a pure function of its argument's content, which must never change (a parsed node).
 * @returns `fn`, memoised; `undefined` results are kept too.
 */
export function memoByObject<K extends object, V>(fn: (key: K) => V): (key: K) => V {
  const memo = new WeakMap<K, { value: V }>();
  return (key) => {
    let hit = memo.get(key);
    if (hit === undefined) memo.set(key, (hit = { value: shared(fn(key)) }));
    return hit.value;
  };
}

/**
 * `fn` computed once per string, keeping at most `maxEntries` results: past the bound the oldest
 * half is dropped (insertion order), so a long-lived server holds what recent lints asked for.
 *
 * @param fn a pure function of the string.
 * @param maxEntries entries kept (default 10,000); a string longer than `maxKeyLength` characters
 *   (default 1 MiB) is not kept.
 */
export function memoByText<V>(fn: (text: string) => V, maxEntries = 10_000, maxKeyLength = 1 << 20): (text: string) => V {
  const memo = new Map<string, { value: V }>();
  return (text) => {
    const hit = memo.get(text);
    if (hit !== undefined) return hit.value;
    const value = shared(fn(text));
    if (text.length > maxKeyLength) return value;
    if (memo.size >= maxEntries) {
      let drop = memo.size >> 1;
      for (const k of memo.keys()) {
        if (drop-- <= 0) break;
        memo.delete(k);
      }
    }
    memo.set(text, { value });
    return value;
  };
}
