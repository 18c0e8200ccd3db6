/** Rule: a parameter used in an example exists in code but has no row in its command's reference. */
import type { Rule } from '../src/engine/types.js';
import { findParam, rowsFor, where } from '../src/model/query.js';
import { formatDefault } from '../src/model/compare.js';
import { referenceRowText } from './util.js';

const rule: Rule = {
  meta: {
    id: 'example-param-undocumented',
    description: 'Report parameters that examples use and the code defines but the command reference does not document.',
    defaultSeverity: 'error',
    fixable: false,
    options: {},
    messages: {
      undocumented:
        '`{{name}}` is used in this `{{command}}` example but has no row in the `{{command}}` reference ({{section}}). Add a row; the code ({{definition}}) describes it as: {{description}}',
      undocumentedNoDescription:
        '`{{name}}` is used in this `{{command}}` example but has no row in the `{{command}}` reference ({{section}}). Add a row; the code ({{definition}}) gives it no description, so write one there too.',
    },
  },
  check({ model, report }) {
    for (const usage of model.usages) {
      const cmd = model.commandByName(usage.command);
      if (!cmd?.paramsKnown || model.globalParams.has(usage.name)) continue;
      const param = findParam(cmd, usage.name);
      if (!param || param.hidden) continue;
      const sections = model.sectionsFor(cmd);
      const primary = sections[0];
      if (!primary || rowsFor(model, cmd, param).length > 0) continue;
      report({
        messageId: param.description ? 'undocumented' : 'undocumentedNoDescription',
        data: {
          name: param.name,
          command: cmd.name,
          section: where(primary.heading.location),
          definition: where(param.location),
          description: param.description ?? '',
          type: param.type ?? '',
          default: param.default ? formatDefault(param.default) : '',
        },
        location: usage.location,
        related: [
          { ...param.location, message: `\`${param.name}\` is defined here (${param.owner})` },
          ...sections.map((s) => ({ ...s.heading.location, message: `\`${cmd.name}\` reference section` })),
        ],
        suggestion: referenceRowText(param),
      });
    }
  },
};

export default rule;
