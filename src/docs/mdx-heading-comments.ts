import { fencedLineTracker } from './fences.js';

/**
 * Blanks the HTML comments of ATX heading lines (`## Run <!-- codespell:ignore -->`) in an MDX
 * document, outside fenced code and inline code spans. Mintlify and other MDX-based engines accept
 * such comments, but remark-mdx rejects `<!--`, so the whole page would fall back to plain Markdown
 * with a parse-error. Each comment character becomes a blank, so every line and column stays where
 * it is; an unclosed comment is left alone.
 *
 * @param text - The MDX source.
 * @returns The source with heading comments blanked (the same string when there are none).
 */
export function blankHeadingComments(text: string): string {
  if (!text.includes('<!--')) return text;
  const lines = text.split(/(?<=\n)/);
  const inFence = fencedLineTracker();
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const body = line.replace(/\r?\n$/, '');
    if (inFence(body) || !/^ {0,3}#{1,6}[ \t]/.test(body) || !body.includes('<!--')) continue;
    // Walk the line, skipping inline code spans (a run of backticks up to the same run).
    let out = '';
    let k = 0;
    while (k < body.length) {
      if (body[k] === '`') {
        const run = /^`+/.exec(body.slice(k))![0];
        const close = body.indexOf(run, k + run.length);
        const end = close === -1 ? k + run.length : close + run.length;
        out += body.slice(k, end);
        k = end;
      } else if (body.startsWith('<!--', k)) {
        const close = body.indexOf('-->', k + 4);
        if (close === -1) {
          out += body.slice(k);
          k = body.length;
        } else {
          out += ' '.repeat(close + 3 - k);
          k = close + 3;
          changed = true;
        }
      } else out += body[k++];
    }
    lines[i] = out + line.slice(body.length);
  }
  return changed ? lines.join('') : text;
}
