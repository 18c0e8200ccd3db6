/** Rule: a documented default differs in meaning from the default in code. */
import { definedHere } from './util.js';
import type { Rule } from '../src/model/rule.js';
import { compareDefault, formatDefault } from '../src/model/compare.js';
import { rowParam, where } from '../src/model/query.js';
import type { CommandSpec } from '../src/model/types.js';
import { replaceDefaultEdit } from '../src/fix/reference-edits.js';

const rule: Rule = {
  meta: {
    id: 'reference-default-mismatch',
    description: 'Report reference rows whose documented default differs from the default in code, compared by meaning.',
    defaultSeverity: 'error',
    fixable: true,
    options: {},
    messages: {
      mismatch:
        'The `{{command}}` reference documents `{{name}}` with default `{{documented}}`, but the code ({{definition}}) defaults to `{{actual}}`. Change the documented default to `{{actual}}`.',
      required:
        'The `{{command}}` reference documents `{{name}}` with default `{{documented}}`, but the code ({{definition}}) makes it required (no default). Say it is required.',
    },
  },
  check({ model, report }) {
    for (const section of model.sections) {
      if (section.global) continue;
      const cmds = section.commands.map((n) => model.commandByName(n)).filter((c): c is CommandSpec => c !== undefined);
      for (const row of section.rows) {
        if (row.default === undefined) continue;
        for (const cmd of cmds) {
          const found = rowParam(model, cmd, row);
          if (!found) continue;
          const { key, param } = found;
          const verdict = compareDefault(param.default, row.default);
          if (verdict !== 'different') break;
          const required = param.default === undefined;
          // A required parameter has no value to write; saying so is left to the author.
          const fix = param.default && row.defaultLocation
            ? replaceDefaultEdit(model, row.defaultLocation, row.default, formatDefault(param.default))
            : undefined;
          report({
            messageId: required ? 'required' : 'mismatch',
            data: {
              name: key,
              command: cmd.name,
              documented: row.default,
              actual: param.default ? formatDefault(param.default) : '',
              definition: where(param.location),
            },
            location: row.defaultLocation ?? row.location,
            related: [{ ...param.location, message: definedHere(param.name, param.owner) }],
            suggestion: param.default ? formatDefault(param.default) : undefined,
            ...(fix ? { fix } : {}),
          });
          break;
        }
      }
    }
  },
};

export default rule;
