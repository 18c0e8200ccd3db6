/**
 * docdrift wired with its built-in rules: the one place (with the CLI, which imports it) where the
 * rule registry (`rules/index.ts`) meets the engine. The engine takes its rules as an argument, as
 * ESLint's `Linter` takes rule definitions; these functions pass the built-in ones unless the
 * caller gives others. Tests and programmatic callers import from here. Each call is one run for
 * the time budget of its git calls (src/engine/git.ts `GIT_TOTAL_MS`).
 */
import { lintWithCache as engineLintWithCache, type CachedLintOptions, type CachedLintResult } from './engine/cache.js';
import { engineRules } from './engine/engine-rules.js';
import { withGitBudget } from './engine/git.js';
import { proposeConfig as engineProposeConfig, type InitProposal } from './engine/init.js';
import { lint as engineLint, type LintOptions, type LintResult } from './engine/lint.js';
import { fixProject as engineFixProject, type FixOptions, type FixResult } from './fix/apply.js';
import type { Rule } from './model/rule.js';
import { rules } from '../rules/index.js';

export { rules };

/**
 * Every rule id a config's `rules` or a suppression comment may name: the built-in rules and the
 * rules the engine reports itself (`unused-suppression`, `baseline-entry-stale`; see
 * src/engine/engine-rules.ts for why they are not in `rules`).
 */
export const ruleIds: string[] = [...rules, ...engineRules].map((r) => r.meta.id);

/** Options whose `rules` default to the built-in ones. */
type WithDefaultRules<T extends { rules: Rule[] }> = Omit<T, 'rules'> & { rules?: Rule[] };

/**
 * {@link engineLint} with the built-in rules by default; suppression comments may name any
 * built-in rule id even when `rules` is a subset.
 */
export function lint(options: WithDefaultRules<LintOptions>): Promise<LintResult> {
  return withGitBudget(() => engineLint({ knownRuleIds: ruleIds, ...options, rules: options.rules ?? rules }));
}

/** The run cache ({@link engineLintWithCache}) with the built-in rules by default. */
export function lintWithCache(options: WithDefaultRules<CachedLintOptions>): Promise<CachedLintResult> {
  return withGitBudget(() => engineLintWithCache({ ...options, rules: options.rules ?? rules }));
}

/** `--fix` ({@link engineFixProject}) with the built-in rules by default. */
export function fixProject(options: WithDefaultRules<FixOptions>): Promise<FixResult> {
  return withGitBudget(() => engineFixProject({ ...options, rules: options.rules ?? rules }));
}

/** `docdrift init`'s proposal ({@link engineProposeConfig}), linting with the built-in rules. */
export function proposeConfig(root: string): Promise<InitProposal> {
  return withGitBudget(() => engineProposeConfig(root, rules));
}
