/** Loads the tree-sitter Python grammar once (web-tree-sitter + tree-sitter-python wasm) and hands out the shared parser. */
import path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { PACKAGE_ROOT } from '../../shared/package-info.js';

/**
 * The Python grammar's WebAssembly build, shipped in docdrift's own package (`grammars/`, written by
 * scripts/vendor-grammar.mjs with its version and sha256): the `tree-sitter-python` package is not a
 * dependency, since its install script builds a native addon docdrift never loads.
 */
export const PYTHON_GRAMMAR_WASM: string = path.join(PACKAGE_ROOT, 'grammars', 'tree-sitter-python.wasm');

let parserPromise: Promise<Parser> | undefined;

/**
 * Returns the process-wide tree-sitter parser set to the Python grammar, initialising the wasm
 * runtime and loading {@link PYTHON_GRAMMAR_WASM} on the first call only.
 *
 * @throws Error (rejected promise) when the wasm runtime or the grammar cannot be loaded.
 */
export function getPythonParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    await Parser.init();
    const language = await Language.load(PYTHON_GRAMMAR_WASM);
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })().catch((error: unknown) => {
    // Let a later call retry instead of caching the failure forever.
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}

/** Consecutive full-line comments from which a run is flattened (see {@link flattenCommentRuns}). */
export const COMMENT_RUN_MIN_LINES = 64;
/** Comment lines kept at the end of a flattened run: a field's or function's leading comment. */
export const COMMENT_RUN_KEPT_LINES = 16;

/**
 * Parses Python source `text` with `parser` (see {@link getPythonParser}), after
 * {@link flattenCommentRuns}: the tree's positions and the text of every node but the blanked
 * comments are those of `text`. Returns `null` when tree-sitter gives no tree.
 */
export function parsePython(parser: Parser, text: string): Tree | null {
  return parser.parse(flattenCommentRuns(text));
}

/**
 * `text` with long runs of full-line comments blanked. tree-sitter-python's external scanner
 * looks ahead over the comment lines that follow each line break (to learn the next line's
 * indentation), so a run of N comment lines costs O(N²) (s22 sweep D2: 3,000 lines of
 * `# xxx…` took 17 s to parse, 5,000 took 42 s; CPython compiles them at once; a commented-out
 * block of that size is ordinary). In a run of at least {@link COMMENT_RUN_MIN_LINES} comment
 * lines (blank lines between them belong to the run), each comment line but the last
 * {@link COMMENT_RUN_KEPT_LINES} has every character replaced by a space: the length, the lines
 * and every other character stay, so positions and the text of every other node are unchanged,
 * and the comment kept above a field still reads. A `#` line inside a string literal is not a
 * comment: strings (single, triple, prefixed) are followed by a small lexer.
 */
export function flattenCommentRuns(text: string): string {
  // Cheap gate: few lines start with `#` at all.
  let candidates = 0;
  for (const _ of text.matchAll(/^[ \t]*#/gm)) if (++candidates >= COMMENT_RUN_MIN_LINES) break;
  if (candidates < COMMENT_RUN_MIN_LINES) return text;
  const commentLines = fullLineComments(text);
  // Runs: comment lines separated only by blank lines.
  const blank: Array<[number, number]> = [];
  let run: Array<[number, number]> = [];
  const close = (): void => {
    if (run.length >= COMMENT_RUN_MIN_LINES) blank.push(...run.slice(0, run.length - COMMENT_RUN_KEPT_LINES));
    run = [];
  };
  let previousEnd = -1;
  for (const line of commentLines) {
    if (run.length > 0 && !/^\s*$/.test(text.slice(previousEnd, line[0]))) close();
    run.push(line);
    previousEnd = line[1];
  }
  close();
  if (blank.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of blank) {
    parts.push(text.slice(at, start), ' '.repeat(end - start));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** [start, end) of each full-line comment of Python `text` (from its `#` to the line's end), outside string literals. */
function fullLineComments(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = text.length;
  let i = 0;
  let lineStart = true;
  while (i < n) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      let end = i;
      while (end < n && text[end] !== '\n' && text[end] !== '\r') end++;
      if (lineStart) out.push([i, end]);
      i = end;
      continue;
    }
    lineStart = false;
    if (c === '"' || c === "'") {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
      i += 2; // a continued line is not a line start
      continue;
    }
    i++;
  }
  return out;
}

/** The index after the string literal whose opening quote is at `i` (a prefix before it is code: it needs no care). */
function stringEnd(text: string, i: number): number {
  const q = text[i]!;
  const triple = text[i + 1] === q && text[i + 2] === q;
  const n = text.length;
  let j = i + (triple ? 3 : 1);
  while (j < n) {
    const c = text[j]!;
    if (c === '\\') {
      j += 2; // escapes the next character, also in raw strings as far as where the string ends
      continue;
    }
    if (triple) {
      if (c === q && text[j + 1] === q && text[j + 2] === q) return j + 3;
    } else if (c === q) return j + 1;
    else if (c === '\n' || c === '\r') return j; // an unterminated single-quoted string ends at its line
    j++;
  }
  return n;
}
