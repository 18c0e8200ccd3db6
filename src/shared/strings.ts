/** String helpers every layer may use. */

/** Compares strings by UTF-16 code units (locale-independent, so output is the same everywhere). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
