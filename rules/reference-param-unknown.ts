/** Rule: a reference row names a parameter that the code no longer (or never) defined. */
import type { Rule, TextEdit } from '../src/model/rule.js';
import { suggestNames } from '../src/shared/names.js';
import { configClassNames, definedBy, paramNames, resolveKey } from '../src/model/query.js';
import type { CommandSpec, ReferenceRow, ReferenceSection } from '../src/model/types.js';
import { removeRowEdit } from '../src/fix/reference-edits.js';

interface Options {
  fixRemove: boolean;
}

const rule: Rule<Options> = {
  meta: {
    id: 'reference-param-unknown',
    description: 'Report reference rows that document a parameter the command\'s code does not define, suggesting the nearest real name.',
    defaultSeverity: 'error',
    fixable: true,
    options: {
      fixRemove: {
        type: 'boolean',
        description: 'Let `--fix` remove stale table rows (off by default: a stale row may be a renamed parameter whose text is worth keeping).',
        default: false,
      },
    },
    messages: {
      staleWithSuggestion:
        '`{{name}}` is documented in the `{{command}}` reference but is not a parameter in the code (config: {{classes}}). Did you mean `{{suggestion}}`? Rename or remove the row.',
      staleSubkeyWithSuggestion:
        '`{{name}}` is documented in the `{{command}}` reference, but `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}`). Did you mean `{{suggestion}}`?',
      staleSubkey:
        '`{{name}}` is documented in the `{{command}}` reference, but `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}`). Remove or rename the row.',
      stale:
        '`{{name}}` is documented in the `{{command}}` reference but is not a parameter in the code (config: {{classes}}). Remove the row, or add it to `globalParameters` if every command accepts it.',
      staleFlagWithSuggestion:
        '`{{flag}}` is documented as the CLI flag of `{{name}}` in the `{{command}}` reference, but `{{command}}` has no such flag. Did you mean `{{suggestion}}`?',
      staleFlag:
        '`{{flag}}` is documented as the CLI flag of `{{name}}` in the `{{command}}` reference, but `{{command}}` has no such flag. Fix or remove the spelling.',
    },
  },
  check({ model, options, report }) {
    const removal = (section: ReferenceSection, row: ReferenceRow): { fix?: TextEdit } => {
      const fix = options.fixRemove ? removeRowEdit(model, section, row) : undefined;
      return fix ? { fix } : {};
    };
    for (const section of model.sections) {
      if (section.global) continue;
      const cmds = [...new Set(section.commands.map((n) => model.commandByName(n)))].filter(
        (c): c is CommandSpec => c !== undefined,
      );
      // Judge only when every command the section documents has known parameters.
      if (cmds.length === 0 || cmds.some((c) => !c.paramsKnown)) continue;
      const known = new Set(cmds.flatMap(paramNames));
      const all = cmds.flatMap((c) => [...c.params, ...(c.acceptedParams ?? [])]);
      // A row with a key column and a CLI-flag column names one setting in two namespaces: the key
      // is judged as a config key when the code has config fields, each flag against the program's flags.
      const hasFields = all.some((p) => p.origin === 'config-field');
      const flagParams = all.filter((p) => p.origin === 'cli-flag' && !p.positional);
      const flagSpellings = new Set(flagParams.flatMap((p) => [p.name, ...p.aliases, ...(p.negatable ? [`no-${p.name}`] : [])]));
      for (const row of section.rows) {
        if (row.spellings && flagParams.length > 0) {
          for (const f of row.spellings.flags) {
            if (flagSpellings.has(f.name) || f.name === 'help' || model.globalParams.has(f.name) || model.isIgnored(f.name)) continue;
            const [near] = suggestNames(f.name, [...flagSpellings], 1);
            const suggestion = near === undefined ? undefined : `${near.length === 1 ? '-' : '--'}${near}`;
            report({
              messageId: suggestion ? 'staleFlagWithSuggestion' : 'staleFlag',
              data: { flag: f.text, name: row.spellings.keys[0] ?? row.rawName, command: cmds[0]!.name, ...(suggestion ? { suggestion } : {}) },
              location: f.location,
              related: definedBy(model, cmds[0]!),
              suggestion,
            });
          }
        }
        const judged = row.spellings && hasFields ? row.spellings.keys : row.names;
        const documented = judged.some((n) => {
          const first = n.split('.')[0] ?? n;
          if (model.globalParams.has(first) || model.isIgnored(n)) return true;
          return cmds.some((c) => resolveKey(model, c, n).status !== 'unknown-subkey' && known.has(first));
        });
        if (documented) continue;
        const dottedName = row.names.find((n) => n.includes('.') && known.has(n.split('.')[0] ?? n));
        if (dottedName) {
          // The first segment is a parameter; a later segment names no field of its config class.
          const cmd = cmds.find((c) => resolveKey(model, c, dottedName).status === 'unknown-subkey')!;
          const resolved = resolveKey(model, cmd, dottedName);
          if (resolved.status !== 'unknown-subkey') continue;
          const segment = dottedName.split('.')[resolved.index] ?? '';
          const [near] = suggestNames(segment, resolved.owner.fields.map((f) => f.name), 1);
          report({
            messageId: near ? 'staleSubkeyWithSuggestion' : 'staleSubkey',
            data: {
              name: dottedName,
              segment,
              prefix: resolved.prefix,
              owner: resolved.owner.name,
              command: cmd.name,
              ...(near ? { suggestion: `${resolved.prefix}.${near}` } : {}),
            },
            location: row.location,
            related: [{ ...resolved.owner.location, message: `\`${resolved.prefix}\` is typed by ${resolved.owner.name}` }],
            suggestion: near ? `${resolved.prefix}.${near}` : undefined,
            ...removal(section, row),
          });
          continue;
        }
        const name = row.names[0] ?? row.rawName;
        const [suggestion] = suggestNames(name, known, 1);
        const primary = cmds[0]!;
        const classes = configClassNames(cmds, model);
        report({
          messageId: suggestion ? 'staleWithSuggestion' : 'stale',
          data: { name, command: primary.name, classes, ...(suggestion ? { suggestion } : {}) },
          location: row.location,
          related: definedBy(model, primary),
          suggestion,
          ...removal(section, row),
        });
      }
    }
  },
};

export default rule;
