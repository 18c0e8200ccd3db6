/**
 * Key scopes in a config file's reference (issue #13 item 9): a heading such as "All fields under
 * `login`" inside the reference of a config file makes the keys of the tables, lists and
 * parameter headings below it `login.*` (`timeout` documents `login.timeout`).
 */
import type { HeadingBlock, ReferenceRow } from '../model/types.js';
import { trimTrailing } from '../shared/strings.js';

/** "fields under `login`", "keys of `login`", "options in `server.tls`", "settings for `login`". */
const SCOPE_RE = /\b(?:fields|keys|options|settings|properties|parameters|entries)\s+(?:under|in|of|for|inside)\s+(\S+)/i;

/** The key a heading scopes its rows to, when its text says so with the key in inline code. */
export function headingKeyScope(block: HeadingBlock): string | undefined {
  const m = SCOPE_RE.exec(block.heading.text);
  if (!m) return undefined;
  const word = trimTrailing(m[1]!, '.,:;)');
  return block.heading.codes.map((c) => c.trim()).find((c) => c === word && /^[\w-]+(?:\.[\w-]+)*$/.test(c));
}

/**
 * Prefixes the names of rows that lie below a key-scope heading inside a section (the innermost
 * such heading wins), unless they already start with the key. Returns new row objects for the
 * rows it changes; the others are returned as they are.
 *
 * @param blocks the document's heading blocks
 * @param section the section's own block: only headings nested in it count
 */
export function scopeRowKeys(blocks: readonly HeadingBlock[], section: HeadingBlock, rows: readonly ReferenceRow[]): ReferenceRow[] {
  const start = section.heading.location.line;
  const scopes = blocks
    .filter((b) => b.heading.location.line > start && b.endLine <= section.endLine)
    .map((b) => ({ b, key: headingKeyScope(b) }))
    .filter((s): s is { b: HeadingBlock; key: string } => s.key !== undefined);
  if (scopes.length === 0) return [...rows];
  return rows.map((row) => {
    const line = row.location.line;
    const scope = scopes.filter((s) => s.b.heading.location.line < line && line <= s.b.endLine).sort((a, b) => b.b.heading.location.line - a.b.heading.location.line)[0];
    if (!scope || row.names.some((n) => n === scope.key || n.startsWith(`${scope.key}.`))) return row;
    return { ...row, names: row.names.map((n) => `${scope.key}.${n}`) };
  });
}
