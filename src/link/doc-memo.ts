/**
 * Per-document values of the link stage kept from one model to the next (issue #36): the
 * language server builds a model on every pause in typing, and an unchanged page's parsed outcome
 * is handed out again from one lint to the next (src/lsp/pieces.ts `LIVE_KINDS`), so a value
 * derived from that page and from the code side alone need not be derived again. On NeMo Gym
 * (361 pages read), inferring reference sections by content and reading the examples' arguments
 * took ~145 ms of every lint, whichever page was edited.
 *
 * A value is keyed on one of the page's parsed arrays (`doc.blocks`, `doc.invocations`), which
 * an edited page replaces, and kept with its context: {@link codeToken} (the code facts and the
 * config it was built from) and a string of what else it read from the rest of the model (the
 * commands' names, the headings that name commands). Any difference computes it again. A CLI run
 * builds one model: every value is computed once and never reused.
 */
import { stableStringify } from '../shared/json.js';
import { deepFreeze } from '../shared/memo.js';

/** Freeze what is handed out again (tests, as src/shared/memo.ts): a caller that changes a kept value then throws. */
const FREEZE = process.env.DOCDRIFT_TEST_FREEZE_PIECES === '1';

/** The code side of the last model input (see {@link codeToken}). */
let lastCode: { refs: readonly unknown[]; config: string; token: number } | undefined;
let tokens = 0;

/**
 * A number that stays the same while successive models are built from the same code side, and
 * changes otherwise: `refs` are the code facts (the same objects, or arrays of the same objects,
 * while the server reuses its `code:` piece because no code file changed; extraction builds new
 * ones for any change of the code), `content` what is compared by value (the config, the config
 * file's text). Only the last code side is remembered.
 */
export function codeToken(refs: readonly unknown[], content: unknown): number {
  const config = stableStringify(content);
  if (lastCode !== undefined && lastCode.config === config && lastCode.refs.length === refs.length && lastCode.refs.every((r, i) => sameRef(r, refs[i]))) return lastCode.token;
  lastCode = { refs, config, token: ++tokens };
  return lastCode.token;
}

/** The same object, or arrays of the same objects (the facts of several extractors are joined into new arrays). */
function sameRef(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * A memo of values derived from one page: `get(key, deps, context, compute)` returns the value
 * kept under `key` when it was computed with the same `deps` (compared by identity) and the same
 * `context` string, else computes, keeps and returns it. Keys are held weakly: a page no one holds
 * drops its values.
 *
 * @param freeze deep-freeze kept values in the tests (set for values handed out as they are;
 *   values rebuilt on every hit need not be)
 */
export function docMemo<V>(freeze: boolean): (key: object, deps: readonly unknown[], context: string, compute: () => V) => V {
  const memo = new WeakMap<object, { deps: readonly unknown[]; context: string; value: V }>();
  return (key, deps, context, compute) => {
    const hit = memo.get(key);
    if (hit !== undefined && hit.context === context && hit.deps.length === deps.length && hit.deps.every((d, i) => d === deps[i])) return hit.value;
    const value = compute();
    if (freeze && FREEZE) deepFreeze(value);
    memo.set(key, { deps, context, value });
    return value;
  };
}
