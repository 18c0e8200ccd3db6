/** Rule: a documented default differs in meaning from the default in code. */
import { definedHere } from './util.js';
import type { Rule } from '../src/model/rule.js';
import { compareDefault, formatDefault } from '../src/model/compare.js';
import { rowParam, where } from '../src/model/query.js';
import type { CommandSpec, DefaultValue, ParamSpec, ReferenceRow } from '../src/model/types.js';
import { replaceDefaultEdit } from '../src/fix/reference-edits.js';

/** Code defaults that mean "no value": a parameter defaulting to one of these may well be required in practice. */
const NO_DEFAULT_RE = /^(?:None|null|undefined|\.\.\.|Ellipsis|MISSING|\?\?\?|""|'')$/;

/** A documented default saying nothing is set: `None`, `null`, "unset", "not set", "empty", `_(unset)_`. */
const UNSET_RE = /^[`_*(]*(?:none|null|nil|unset|not set|empty|"")[`_*)]*\.?$/i;

/** A documented default that is a value, not prose: a number, a boolean, or a quoted string. */
function isConcreteValue(documented: string): boolean {
  const t = documented.trim().replace(/^`|`$/g, '');
  return /^(?:-?\d[\d_.]*(?:e[+-]?\d+)?|true|false|"[^"]*"|'[^']*')$/i.test(t);
}

/**
 * An object literal documented (`{ minutes: 10 }`) for a code default that is a boolean or a
 * number (`@default true`): different, though the object's keys are not quoted JSON.
 */
function objectVersusScalar(code: DefaultValue | undefined, documented: string): boolean {
  if (!code) return false;
  const doc = documented.trim().replace(/^`|`$/g, '').trim();
  return /^\{[\s\S]*\}$/.test(doc) && doc !== '{}' && /^(?:true|false|True|False|-?\d[\d_.]*)$/.test(code.text.trim());
}

const rule: Rule = {
  meta: {
    id: 'reference-default-mismatch',
    description: 'Report reference rows whose documented default differs from the default in code, compared by meaning.',
    defaultSeverity: 'error',
    fixable: true,
    options: {},
    messages: {
      mismatch:
        'The `{{command}}` reference documents `{{name}}` with default `{{documented}}`, but the code ({{definition}}) defaults to `{{actual}}`.',
      required:
        'The `{{command}}` reference documents `{{name}}` with default `{{documented}}`, but the code ({{definition}}) makes it required (no default).',
      documentedRequired:
        'The `{{command}}` reference says `{{name}}` is required, but the code ({{definition}}) gives it the default `{{actual}}`.',
    },
  },
  check({ model, report, inScope }) {
    for (const section of model.sections) {
      // A table of one named config file's keys (`configs/agent.yaml`) shows that file's values,
      // which override the code's defaults on purpose; a changelog shows past releases' defaults.
      if (section.global || section.scopedFile !== undefined || section.history || !inScope(section.file)) continue;
      const cmds = section.commands.map((n) => model.commandByName(n)).filter((c): c is CommandSpec => c !== undefined);
      // The docs say "required"; the code gives a real default (not None/undefined, which often
      // stands for "must be given").
      const reportDocumentedRequired = (row: ReferenceRow): void => {
        for (const cmd of cmds) {
          const found = rowParam(model, cmd, row);
          if (!found) continue;
          const { key, param } = found;
          if (param.required || !param.default || NO_DEFAULT_RE.test(param.default.text.trim())) return;
          report({
            messageId: 'documentedRequired',
            data: { name: key, command: cmd.name, actual: formatDefault(param.default), definition: where(param.location) },
            location: row.location,
            related: [{ ...param.location, message: `\`${param.name}\` is defined here (${param.owner})` }],
          });
          return;
        }
      };
      const defaultsElsewhere = declaresNoDefaults(model, cmds, section.rows);
      for (const row of section.rows) {
        if (row.required) {
          reportDocumentedRequired(row);
          continue;
        }
        if (row.default === undefined) continue;
        for (const cmd of cmds) {
          const found = rowParam(model, cmd, row);
          if (!found) continue;
          const { key, param } = found;
          // An environment variable is text: "None" documented for a variable read with `""` as its
          // default (`os.getenv("X", "")`) says the same, nothing set.
          // Nor is "unset" for a switch whose fallback is off (`strtobool(os.getenv("X", "0"))`, pipx).
          if (cmd.kind === 'environment' && param.default && /^(?:""|''|["']?(?:0|false|no|off)["']?)$/i.test(param.default.text.trim()) && UNSET_RE.test(row.default.trim())) break;
          // A default written as one code span is a value even with spaces (`` `openid email profile` ``).
          const documented = row.defaultCode && !row.default.includes('`') ? `\`${row.default}\`` : row.default;
          const verdict = objectVersusScalar(param.default, row.default) || outsideChoices(param, row.default) ? 'different' : compareDefault(param.default, documented);
          const required = param.default === undefined;
          if (verdict !== 'different' && !(required && param.required && isConcreteValue(row.default) && !defaultsElsewhere)) break;
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

/**
 * True when the section documents defaults for at least {@link DEFAULTS_ELSEWHERE_MIN} parameters the
 * code declares with none, and those are at least half of the rows whose documented default could be
 * compared: the class is filled from defaults kept elsewhere (a defaults dict merged before
 * validation, a packaged defaults file), which docdrift does not read, so "the code makes it
 * required" would be said of every row and be wrong each time.
 */
function declaresNoDefaults(model: Parameters<Rule['check']>[0]['model'], cmds: readonly CommandSpec[], rows: readonly ReferenceRow[]): boolean {
  let compared = 0;
  let none = 0;
  for (const row of rows) {
    if (row.default === undefined || row.required || !isConcreteValue(row.default)) continue;
    const found = cmds.map((c) => rowParam(model, c, row)).find((f) => f !== undefined);
    if (!found) continue;
    compared++;
    if (found.param.default === undefined && found.param.required) none++;
  }
  return none >= DEFAULTS_ELSEWHERE_MIN && none * 2 >= compared;
}

/** See {@link declaresNoDefaults}. */
const DEFAULTS_ELSEWHERE_MIN = 3;

/**
 * A documented default that is a bare word outside the parameter's declared `choices`, while the
 * code's default is one of them: a value the code no longer accepts (`auto` after the choices
 * became `remote-first`/`local-only`), not a word describing the default.
 */
function outsideChoices(param: ParamSpec, documented: string): boolean {
  if (!param.choices || param.choices.length === 0 || !param.default) return false;
  const word = documented.trim().replace(/^(['"`])(.*)\1$/, '$2');
  const code = param.default.text.trim().replace(/^(['"`])(.*)\1$/, '$2');
  return /^[A-Za-z][\w-]*$/.test(word) && !param.choices.includes(word) && param.choices.includes(code);
}

export default rule;
