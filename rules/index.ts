/** The registry of built-in rules, one module per file in this folder. */
import { engineRules } from '../src/engine/engine-rules.js';
import type { Rule } from '../src/engine/types.js';
import exampleParamUndocumented from './example-param-undocumented.js';
import exampleParamUnexplained from './example-param-unexplained.js';
import exampleParamUnknown from './example-param-unknown.js';
import parseError from './parse-error.js';
import referenceDefaultMismatch from './reference-default-mismatch.js';
import referenceParamMissing from './reference-param-missing.js';
import referenceParamUnknown from './reference-param-unknown.js';
import referenceTypeMismatch from './reference-type-mismatch.js';

/** Every built-in rule, sorted by id. */
export const rules: Rule[] = [
  exampleParamUndocumented,
  exampleParamUnexplained,
  exampleParamUnknown,
  parseError,
  referenceDefaultMismatch,
  referenceParamMissing,
  referenceParamUnknown,
  referenceTypeMismatch,
] as Rule[];

/**
 * Rule ids, for config validation and suppression comments: every rule above, and the rules the
 * engine reports itself after these ran (`unused-suppression`, `baseline-entry-stale`; see
 * src/engine/engine-rules.ts for why they are not in `rules`).
 */
export const ruleIds: string[] = [...rules, ...engineRules].map((r) => r.meta.id);
