/** Rule: a file docdrift had to read could not be parsed (or read); the run went on without it. */
import type { Rule } from '../src/model/rule.js';

const rule: Rule = {
  meta: {
    id: 'parse-error',
    description: 'Report files that cannot be read or parsed, with the parser\'s position.',
    defaultSeverity: 'error',
    fixable: false,
    options: {},
    messages: {
      parseError: '{{message}}',
    },
  },
  check({ model, report }) {
    for (const d of model.diagnostics) {
      report({
        messageId: 'parseError',
        data: { message: d.message },
        location: d.location,
        severity: d.severity === 'warn' ? 'warn' : undefined,
      });
    }
  },
};

export default rule;
