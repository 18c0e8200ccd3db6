/** JSON helpers shared by the caches. */

/**
 * JSON with object keys sorted at every depth, so two equal configs give the same key whatever
 * the order their file wrote them in.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/**
 * The deepest `{`/`[` nesting of a JSON (or JSONC) text and the offset of the bracket that
 * reaches it, found in one linear pass that skips strings and comments. Lets a reader refuse a
 * text nested deeper than it can follow before a recursive parser overflows the stack on it
 * (jsonc-parser's `parseTree` and `getNodeValue` recurse once per level: #33 item 4).
 */
export function jsonNesting(text: string): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let offset = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34 || d === 10) break;
      }
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        offset = i;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth = Math.max(0, depth - 1);
  }
  return { depth: max, offset };
}
