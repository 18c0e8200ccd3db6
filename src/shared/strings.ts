/** String helpers every layer may use. */

/** Compares strings by UTF-16 code units (locale-independent, so output is the same everywhere). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The heading text used to match section names: a trailing heading id (VitePress/Docusaurus
 * `{#build}`, MkDocs attr-list `{ #build }` / `{: #build .cls }`) and HTML comments
 * (`<!-- codespell:ignore -->`, Mintlify) removed, whitespace collapsed.
 *
 * @param text - The heading's plain text (mdast `toString`).
 * @returns The text without ids and comments; `''` when nothing else is left.
 */
export function headingMatchText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/\s*\{:?\s*#[^}]*\}\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
