/** Upper-case words of a source text, for telling whether code mentions an environment variable (issue #31). */

/**
 * Adds to `into` every upper-case word with an underscore in `text` (`QDRANT_URL`, `"APP_PORT"`,
 * `APP_PORT: 8080` in YAML): the names a project may read its variables by. Linear in the text.
 */
export function collectEnvWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])/g)) into.add(m[0]);
  for (const m of text.matchAll(ENV_PREFIX_LITERAL)) into.add(m[1]!);
}

/**
 * A literal env prefix passed as such: `Confi(prefix="OPAL_")`, `env.prefixed("APP_")`,
 * `ENV_PREFIX = 'APP_'`, `{ envPrefix: "VITE_" }`. Collected as the word `OPAL_` (with its
 * trailing underscore, which no variable name has), so that a documented `OPAL_BUNDLE_IGNORE`
 * counts as mentioned when the code names `BUNDLE_IGNORE` (see {@link mentionedEnvName}).
 */
const ENV_PREFIX_LITERAL = /[Pp][Rr][Ee][Ff][Ii][Xx]\w{0,64}["']?\s*[=:(,]\s*["']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)["']/g;

/**
 * Whether the code mentions a variable, given its env words ({@link collectEnvWords}): by its
 * name (`"APP_PORT"`), or by a literal env prefix and the rest of the name
 * (`Confi(prefix="OPAL_")` and `confi.list("BUNDLE_IGNORE", …)` read `OPAL_BUNDLE_IGNORE`, as
 * confi, environs' `prefixed` and similar loaders join them at run time).
 *
 * @param prefixes the words of `words` that end in `_` (computed once by the caller)
 */
export function mentionedEnvName(name: string, words: ReadonlySet<string>, prefixes: readonly string[]): boolean {
  if (name.endsWith('_')) return false;
  if (words.has(name)) return true;
  for (const p of prefixes) if (name.length > p.length && name.startsWith(p) && words.has(name.slice(p.length))) return true;
  return false;
}

/**
 * A message naming a variable as obsolete, in one string literal: the name, then within 60
 * characters on its line "has no effect", "is deprecated", "is no longer used/supported/read",
 * "was/has been removed", "is obsolete" or "is ignored".
 */
const OBSOLETE_ENV_MESSAGE = /["'`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b[^"'`\n]{0,60}?\b(?:has no effect|is deprecated|is no longer (?:used|supported|read)|(?:was|has been) removed|is obsolete|is ignored)\b/g;

/**
 * The variables a source text names in a message saying they are obsolete, for
 * `EnvExtraction.obsolete`: paperless-ngx's checks.py reads `PAPERLESS_OCR_SKIP_ARCHIVE_FILE` only
 * to warn `"PAPERLESS_OCR_SKIP_ARCHIVE_FILE is set but has no effect. Use …"`. Linear in the text.
 */
export function obsoleteEnvNames(text: string): string[] {
  return [...new Set([...text.matchAll(OBSOLETE_ENV_MESSAGE)].map((m) => m[1]!))];
}

/** Largest text scanned for env words: a bundle or generated file says nothing about a project's variables. */
export const MAX_ENV_WORD_SCAN = 1_000_000;
