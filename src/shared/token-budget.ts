/**
 * A run's budget on the tokens of the sources an extraction holds at once (syntax trees of every
 * file, so memory and time follow tokens): which sources are left out. Shared by the Python flag
 * files (src/extract/python/text-facts.ts) and the TypeScript sources (src/extract/typescript/budget.ts).
 */

/**
 * Splits `sources` into those read and those over `budget` tokens. The budget goes first to the
 * sources `rank` ranks lowest, then to the smaller, then in the given order: the result depends
 * on the texts alone. Tokens are counted only when the sources' `chars` (an upper bound of their
 * tokens) exceed the budget, so a project under it reads no text here.
 *
 * @param sources the sources, in a fixed order (discovery's).
 * @param measure a source's length in UTF-16 code units (`chars`), its token count (`tokens`,
 *   called only past the length check) and its rank (`rank`, lower first).
 * @param budget the most tokens read.
 * @returns the sources over the budget, in the given order (empty when all fit).
 */
export function sourcesOverTokenBudget<S>(sources: readonly S[], measure: { chars: (source: S) => number; tokens: (source: S) => number; rank: (source: S) => number }, budget: number): S[] {
  if (sources.reduce((n, s) => n + measure.chars(s), 0) <= budget) return [];
  const ranked = sources.map((source, i) => ({ source, i, rank: measure.rank(source), tokens: measure.tokens(source) })).sort((a, b) => a.rank - b.rank || a.tokens - b.tokens || a.i - b.i);
  let spent = 0;
  const over = new Set<S>();
  for (const { source, tokens } of ranked) {
    if (spent + tokens > budget) over.add(source);
    else spent += tokens;
  }
  return sources.filter((source) => over.has(source));
}
