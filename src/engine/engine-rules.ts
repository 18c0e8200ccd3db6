/**
 * Rules the engine reports itself, after every rule in `rules/` ran: they judge other rules'
 * findings (was a suppression used? does a baseline entry still match?), which a rule, a pure
 * function of the model, cannot see. So they are not in `rules/index.ts`'s `rules`; they have the
 * same `meta` (id, messages, default severity, doc page `rules/<id>.md`) and are configured like
 * any rule under `rules` in the config (`"unused-suppression": "off"`).
 */
import type { RuleMeta, Severity } from '../model/rule.js';
import type { DocdriftConfig } from '../config/schema.js';

/** `unused-suppression`: a `docdrift-disable…` comment that suppressed nothing, or names no rule. */
export const unusedSuppression: { meta: RuleMeta } = {
  meta: {
    id: 'unused-suppression',
    description: 'Reports docdrift-disable comments that suppress no finding, and rule ids in them that do not exist.',
    defaultSeverity: 'warn',
    fixable: false,
    options: {},
    messages: {
      unused: 'This `docdrift-{{kind}}` comment suppresses no `{{name}}` finding here. Remove `{{name}}` from it, or the comment.',
      unusedAll: 'This `docdrift-{{kind}}` comment suppresses no finding here. Remove it.',
      unknownRule:
        '`{{name}}` in this `docdrift-{{kind}}` comment is not a docdrift rule, so it suppresses nothing. {{hint}}',
    },
  },
};

/** `baseline-entry-stale`: a baseline entry (or part of its count) that no finding matches any more. */
export const baselineEntryStale: { meta: RuleMeta } = {
  meta: {
    id: 'baseline-entry-stale',
    description: 'Reports baseline entries that match fewer findings than they allow, so the baseline shrinks as drift is fixed.',
    defaultSeverity: 'warn',
    fixable: false,
    options: {},
    messages: {
      stale:
        'The baseline allows {{expected}} `{{ruleId}}` finding(s) for `{{name}}`{{commandText}} in {{file}}, but {{actual}} remain. ' +
        'Run `docdrift --write-baseline` to record the smaller count, so the fixed drift cannot come back unnoticed.',
    },
  },
};

/** The engine's own rules, by id order. */
export const engineRules: Array<{ meta: RuleMeta }> = [baselineEntryStale, unusedSuppression];

/** The severity `config.rules` gives an engine rule (its default when unset). */
export function engineRuleSeverity(rule: { meta: RuleMeta }, settings: DocdriftConfig['rules']): Severity {
  const setting = settings[rule.meta.id];
  if (typeof setting === 'string') return setting;
  if (Array.isArray(setting)) return setting[0];
  return rule.meta.defaultSeverity;
}
