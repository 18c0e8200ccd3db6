/**
 * Which command a section heading names: from an inline code span in the heading
 * (`` ## `slidev build [entry]` {#build} ``, `` ### `gym eval run --no-serve` ``), or from the
 * heading text matched against configured section names.
 */

/**
 * A word that ends the command words of a heading's code span: a flag (`--no-serve`, `-o`), a
 * positional placeholder (`[entry]`, `<entry>`, `[...entry]`, `{a,b}`, `ENTRY...`), an
 * assignment (`KEY=VALUE`, a Hydra override) or a pipe/redirect.
 */
function endsCommandWords(word: string): boolean {
  return /^[-[<{(|>&]/.test(word) || word.includes('=') || word.endsWith('...') || word.startsWith('...');
}

/**
 * The command an inline code span of a heading names, or `undefined`.
 *
 * Tried in order: the whole span (`` `gym eval run` ``, commands with odd names); the longest
 * run of leading command words (before the first flag or placeholder) that names a command
 * (`slidev build [entry]` → `slidev build`, `gym eval run --no-serve` → `gym eval run`); the
 * first word (`slidev …` → `slidev`). A leading `$ ` prompt is removed first.
 *
 * @param code - The inline code's text.
 * @param isCommand - Whether a name is a known command (name or alias).
 */
export function headingCodeCommand(code: string, isCommand: (name: string) => boolean): string | undefined {
  const text = code.trim().replace(/^\$\s+/, '');
  if (text === '') return undefined;
  if (isCommand(text)) return text;
  const words = text.split(/\s+/);
  let n = 0;
  while (n < words.length && !endsCommandWords(words[n]!)) n++;
  for (let k = n; k >= 1; k--) {
    const name = words.slice(0, k).join(' ');
    if (isCommand(name)) return name;
  }
  const first = words[0]!;
  return isCommand(first) ? first : undefined;
}
