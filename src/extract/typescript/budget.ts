/**
 * The run's budget on the TypeScript (and JavaScript) sources the extraction parses. ts-morph
 * holds the syntax trees of all of them at once (config types resolve across files, and the flag
 * extractor reuses the trees), so memory and time follow their tokens, not their bytes.
 */
import { sourcesOverTokenBudget } from '../../shared/token-budget.js';

/**
 * The most tokens ({@link countTypeScriptTokens}) of TypeScript and JavaScript sources one run
 * parses. Measured (s31 D5): 20 generated 240 KB modules of dense code (2.0 million tokens) took the
 * worker to its heap limit after ~20 s, and next to the Python flag worker the process peaked at
 * 595 MB. The largest real projects measured stay well under it: gemini-cli 446,000 tokens (546
 * sources, 3.2 MB), openapi-typescript 375,000 (5.2 MB, mostly one 3.5 MB generated type file),
 * vite 247,000, knip 276,000, rnx-kit 212,000, jest 211,000.
 */
export const MAX_TYPESCRIPT_RUN_TOKENS = 600_000;

/**
 * Largest JavaScript program file parsed, in bytes: 3 MiB. ts-morph's syntax trees take ~110 MB
 * of heap per MB of JavaScript, so a 4.8 MB bundled bin/cli.js took the run to 559 MB peak RSS
 * (s28 sweep2 D4); refused before parsing, 207 MB (and, with no cap, the worker's heap limit
 * ended it at 467 MB after 8 s of CPU). A 3.0 MB one is read: 484 -> 431 MB with the heap limit.
 * The largest program file of the 128 real projects of the corpus is 40 KB (nemoclaw's
 * bin/lib/onboard.js).
 */
export const MAX_JS_FILE_BYTES = 3 * 1024 * 1024;

/** One token: a comment, a string or template without substitutions, a word or number, or another visible character. */
const TOKEN_RE = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\w+|[^\s\w]/g;

/** Counts the tokens of a TypeScript or JavaScript text by {@link TOKEN_RE}: about one per syntax-tree leaf, never more than its length. */
export function countTypeScriptTokens(text: string): number {
  let n = 0;
  TOKEN_RE.lastIndex = 0;
  while (TOKEN_RE.exec(text) !== null) n++;
  return n;
}

/**
 * Splits the sources into those parsed and those over the run's budget
 * ({@link MAX_TYPESCRIPT_RUN_TOKENS}). The budget goes first to the sources `rank` ranks lowest
 * (the bins' programs, then what they import, nearest first), then to the smaller, then in the
 * given order: the result depends on the texts alone. Tokens are counted only when the texts'
 * lengths (an upper bound of their tokens) exceed the budget, so a project under it costs nothing.
 *
 * @param sources the sources in a fixed order (discovery's), paths project-relative.
 * @param rank a rank per file, lower first (a bin program's distance in imports; unreached files last).
 * @param budget the token budget (default {@link MAX_TYPESCRIPT_RUN_TOKENS}).
 * @returns the files over the budget, in the given order (empty when all fit).
 */
export function typeScriptSourcesOverBudget(sources: ReadonlyArray<{ file: string; text: string }>, rank: (file: string) => number, budget = MAX_TYPESCRIPT_RUN_TOKENS): string[] {
  return sourcesOverTokenBudget(sources, { chars: (s) => s.text.length, tokens: (s) => countTypeScriptTokens(s.text), rank: (s) => rank(s.file) }, budget).map((s) => s.file);
}
