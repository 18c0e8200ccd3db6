/**
 * The registry of built-in rules, one module per file in this folder. The engine does not import
 * it: src/api.ts hands these rules to the engine (and adds the engine's own rule ids to `ruleIds`).
 */
import type { Rule } from '../src/model/rule.js';
import commandUndocumented from './command-undocumented.js';
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
  commandUndocumented,
  exampleParamUndocumented,
  exampleParamUnexplained,
  exampleParamUnknown,
  parseError,
  referenceDefaultMismatch,
  referenceParamMissing,
  referenceParamUnknown,
  referenceTypeMismatch,
] as Rule[];
