/** Upper-case words of a source text, for telling whether code mentions an environment variable (issue #31). */

/**
 * Adds to `into` every upper-case word with an underscore in `text` (`QDRANT_URL`, `"APP_PORT"`,
 * `APP_PORT: 8080` in YAML): the names a project may read its variables by. Linear in the text.
 */
export function collectEnvWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])/g)) into.add(m[0]);
}

/** Largest text scanned for env words: a bundle or generated file says nothing about a project's variables. */
export const MAX_ENV_WORD_SCAN = 1_000_000;
