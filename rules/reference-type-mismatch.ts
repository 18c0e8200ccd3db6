/** Rule: a documented type differs in meaning from the type annotation in code. */
import { definedHere } from './util.js';
import type { Rule } from '../src/model/rule.js';
import { rowParam, where } from '../src/model/query.js';
import { compareType } from '../src/model/type-compare.js';
import type { CommandSpec } from '../src/model/types.js';

const rule: Rule = {
  meta: {
    id: 'reference-type-mismatch',
    description: 'Report reference rows whose documented type differs in meaning from the type annotation in code.',
    defaultSeverity: 'warn',
    fixable: false,
    options: {},
    messages: {
      mismatch:
        'The `{{command}}` reference documents `{{name}}` as `{{documented}}`, but the code ({{definition}}) declares it `{{actual}}`.',
    },
  },
  check({ model, report, inScope }) {
    for (const section of model.sections) {
      // A changelog or upgrade guide shows past releases' types.
      if (section.global || section.history || !inScope(section.file)) continue;
      const cmds = section.commands.map((n) => model.commandByName(n)).filter((c): c is CommandSpec => c !== undefined);
      for (const row of section.rows) {
        if (row.type === undefined) continue;
        for (const cmd of cmds) {
          const found = rowParam(model, cmd, row);
          if (!found) continue;
          const { key, param } = found;
          // One verdict per row: the first command that defines the parameter decides.
          if (compareType(param.type, row.type) !== 'different') break;
          const actual = param.type!.replace(/\s+/g, ' ').trim();
          report({
            messageId: 'mismatch',
            data: {
              name: key,
              command: cmd.name,
              documented: row.type,
              actual,
              definition: where(param.location),
            },
            location: row.location,
            related: [{ ...param.location, message: definedHere(param.name, param.owner) }],
            suggestion: actual,
          });
          break;
        }
      }
    }
  },
};

export default rule;
