/** Rule: a parameter the code defines has no row in the command's reference section. */
import type { Rule } from '../src/engine/types.js';
import { rowsFor, where } from '../src/model/query.js';
import { formatDefault } from '../src/model/compare.js';
import { referenceRowText } from './util.js';

interface Options {
  includeDeprecated: boolean;
}

const rule: Rule<Options> = {
  meta: {
    id: 'reference-param-missing',
    description: 'Report parameters defined in code that have no row in their command\'s reference section.',
    defaultSeverity: 'error',
    fixable: false,
    options: {
      includeDeprecated: {
        type: 'boolean',
        description: 'Also require rows for deprecated parameters (a deprecated field may be left undocumented by default).',
        default: false,
      },
    },
    messages: {
      missing:
        '`{{name}}` ({{definition}}) is a parameter of `{{command}}` but has no row in its reference. Add a row: {{row}}',
    },
  },
  check({ model, options, report }) {
    for (const cmd of model.commands) {
      if (!cmd.paramsKnown) continue;
      const sections = model.sectionsFor(cmd);
      const primary = sections[0];
      if (!primary) continue;
      for (const param of cmd.params) {
        if (param.hidden || model.globalParams.has(param.name) || model.isIgnored(param.name)) continue;
        if (param.deprecated !== false && !options.includeDeprecated) continue;
        if (rowsFor(model, cmd, param).length > 0) continue;
        const row = referenceRowText(param);
        report({
          messageId: 'missing',
          data: {
            name: param.name,
            command: cmd.name,
            definition: where(param.location),
            type: param.type ?? '',
            default: param.default ? formatDefault(param.default) : '',
            description: param.description ?? '',
            row,
          },
          location: primary.heading.location,
          related: [
            { ...param.location, message: `\`${param.name}\` is defined here (${param.owner})` },
            ...sections.slice(1).map((s) => ({ ...s.heading.location, message: `another \`${cmd.name}\` reference section` })),
          ],
          suggestion: row,
        });
      }
    }
  },
};

export default rule;
