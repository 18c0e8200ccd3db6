/** Upper-case words of a source text, for telling whether code mentions an environment variable (issue #31). */

/**
 * Adds to `into` every upper-case word with an underscore in `text` (`QDRANT_URL`, `"APP_PORT"`,
 * `APP_PORT: 8080` in YAML): the names a project may read its variables by. Linear in the text.
 */
export function collectEnvWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])/g)) into.add(m[0]);
  for (const word of envPrefixLiterals(text)) into.add(word);
}

/**
 * A literal env prefix passed as such: `Confi(prefix="OPAL_")`, `env.prefixed("APP_")`,
 * `ENV_PREFIX = 'APP_'`, `{ envPrefix: "VITE_" }`. Collected as the word `OPAL_` (with its
 * trailing underscore, which no variable name has), so that a documented `OPAL_BUNDLE_IGNORE`
 * counts as mentioned when the code names `BUNDLE_IGNORE` (see {@link mentionedEnvName}).
 */
const PREFIX_WORD = /[Pp][Rr][Ee][Ff][Ii][Xx]/g;
/** A run of word characters (sticky). */
const WORD_RUN = /\w*/y;
/** What follows the word holding `prefix`: `="OPAL_"`, `: 'APP_'`, `("APP_"` (sticky; each piece's end is forced by the next). */
const PREFIX_VALUE = /["']?\s*[=:(,]\s*["']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)["']/y;
/** Most word characters after `prefix` (`Prefix` of `envPrefix`, `_PREFIX` of `ENV_PREFIX`, up to the `=`). */
const MAX_PREFIX_TAIL = 64;

/**
 * The literal env prefixes of a text (see above), as
 * `text.matchAll(/[Pp][Rr][Ee][Ff][Ii][Xx]\w{0,64}["']?\s*[=:(,]\s*["']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)["']/g)`
 * finds them (the captured words, leftmost first, matches not overlapping), without that
 * pattern's rescanning: each `prefix` of a long word read up to 65 word characters and backed off
 * over them (1 MB of `PreFix0`: 170 ms; recheck flags it as polynomial). `\w{0,64}` must reach
 * the end of the word (what follows it is no word character), so every `prefix` of one word has
 * the same rest: the word's end is found once and its value tested once.
 */
export function envPrefixLiterals(text: string): string[] {
  const out: string[] = [];
  let wordEnd = -1;
  let value: RegExpExecArray | null = null;
  PREFIX_WORD.lastIndex = 0;
  for (let m = PREFIX_WORD.exec(text); m !== null; m = PREFIX_WORD.exec(text)) {
    const after = m.index + m[0].length;
    if (m.index >= wordEnd) {
      // A new word: `prefix` starts one, or a word that no earlier `prefix` was part of.
      WORD_RUN.lastIndex = after;
      WORD_RUN.test(text);
      wordEnd = WORD_RUN.lastIndex;
      PREFIX_VALUE.lastIndex = wordEnd;
      value = PREFIX_VALUE.exec(text);
    }
    if (value === null || wordEnd - after > MAX_PREFIX_TAIL) {
      PREFIX_WORD.lastIndex = m.index + 1;
      continue;
    }
    out.push(value[1]!);
    PREFIX_WORD.lastIndex = value.index + value[0].length;
  }
  return out;
}

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
