/** Line-by-line tracking of fenced code blocks, for the text rewrites done before parsing. */

/** An opening or closing code fence (group 1: the backtick or tilde run). */
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Follows CommonMark fenced code blocks (https://spec.commonmark.org/0.31.2/#fenced-code-blocks)
 * over a document's lines: call the returned function once per line, in order, with the line
 * without its line ending. It returns true when the line opens or closes a fence or lies inside
 * one (a fence closes at a line of only the same character, at least as long as the opening run).
 */
export function fencedLineTracker(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const f = FENCE_RE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]!;
      else if (f[1]!.startsWith(fence[0]!) && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      return true;
    }
    return fence !== undefined;
  };
}
