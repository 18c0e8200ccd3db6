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
 * Tokens each TypeScript or JavaScript source counts against {@link MAX_TYPESCRIPT_RUN_TOKENS}
 * beyond its own: what a file costs whatever its length (ts-morph's `SourceFile` and its symbol
 * table, the scan of its declarations and imports, its env scan, its copy for the type checker),
 * so that the budget bounds the number of files too. Measured (#33 s47 sweep K1): 3,000 modules
 * of 1.3 KB (about 190 tokens each, 570,000 in all, under the token budget alone) took 10-13 s of
 * CPU and 516-545 MB, where 600,000 tokens of dense code in six 240 KB modules took 3.1 s and
 * 333 MB: about 60 KB and 1.5 ms more per file. At 100 such a project is read up to about 2,000
 * modules (420-460 MB), as costly as the largest real projects measured, which stay under the
 * budget with it: gemini-cli 491,000 tokens in 591 sources (550,000 counted), knip 268,000 in
 * 2,090 (477,000 counted); at 200 both would lose sources.
 */
export const TYPESCRIPT_TOKENS_PER_FILE = 100;

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

/** The tokens `text` counts against the run's budget: its own ({@link countTypeScriptTokens}) and {@link TYPESCRIPT_TOKENS_PER_FILE}. */
export function budgetedTypeScriptTokens(text: string): number {
  return countTypeScriptTokens(text) + TYPESCRIPT_TOKENS_PER_FILE;
}

/**
 * Splits the sources into those parsed and those over the run's budget
 * ({@link MAX_TYPESCRIPT_RUN_TOKENS}), each source counting {@link TYPESCRIPT_TOKENS_PER_FILE}
 * beyond its own tokens (so the budget bounds the number of files too). The budget goes first to
 * the sources `rank` ranks lowest (the bins' programs and the files declaring the config's types,
 * then what they import, nearest first), then to the smaller, then in the given order: the result
 * depends on the texts alone. Tokens are counted only when the texts' lengths plus the per-file
 * count (an upper bound of what they count) exceed the budget, so a project under it costs nothing.
 *
 * @param sources the sources in a fixed order (discovery's), paths project-relative.
 * @param rank a rank per file, lower first (a bin program's distance in imports; unreached files last).
 * @param budget the token budget (default {@link MAX_TYPESCRIPT_RUN_TOKENS}).
 * @returns the files over the budget, in the given order (empty when all fit).
 */
export function typeScriptSourcesOverBudget(sources: ReadonlyArray<{ file: string; text: string }>, rank: (file: string) => number, budget = MAX_TYPESCRIPT_RUN_TOKENS): string[] {
  const measure = { chars: (s: { text: string }) => s.text.length + TYPESCRIPT_TOKENS_PER_FILE, tokens: (s: { text: string }) => budgetedTypeScriptTokens(s.text), rank: (s: { file: string }) => rank(s.file) };
  return sourcesOverTokenBudget(sources, measure, budget).map((s) => s.file);
}
