/** Rule: a parameter used in an example exists in code but has no row in its command's reference. */
import type { Rule } from '../src/model/rule.js';
import type { CommandSpec, DocFile, ParamSpec } from '../src/model/types.js';
import { documentedElsewhere, explainedInSection, findParam, globalSectionsFor, keyPrefixes, rowsFor, spellingInRows, where } from '../src/model/query.js';
import { partialReference } from '../src/model/coverage.js';
import { unreadMayDocument } from '../src/model/unread.js';
import { formatDefault } from '../src/model/compare.js';
import { referenceRowText, definedHere } from './util.js';
import { insertRowEdit } from '../src/fix/reference-edits.js';

const rule: Rule = {
  meta: {
    id: 'example-param-undocumented',
    description: 'Report parameters that examples use and the code defines but the command reference does not document.',
    defaultSeverity: 'error',
    fixable: false,
    options: {},
    messages: {
      undocumented:
        '`{{name}}` is used in this `{{command}}` example but has no row in the `{{command}}` reference ({{section}}).',
      undocumentedNoDescription:
        '`{{name}}` is used in this `{{command}}` example but has no row in the `{{command}}` reference ({{section}}), and the code ({{definition}}) gives it no description.',
    },
  },
  check({ model, report, inScope }) {
    const seen = new Set<string>();
    const partial = new Map<CommandSpec, boolean>();
    // Every start of a row name before a `.` (`logging` and `logging.file` of
    // `logging.file.path`) in the command's sections and the global ones, once per command: a
    // row `x.…` documents the parameter `x` (a parameter whose own name holds a dot, `log.level`,
    // is one segment: `keyPrefixes`). Was a scan of every row per undocumented usage
    // (4,000 rows x 8,000 example flags: 0.8 s of the rules, s29 audit).
    const keyHeads = new Map<CommandSpec, Set<string>>();
    const keyHeadsOf = (cmd: CommandSpec): Set<string> => {
      let heads = keyHeads.get(cmd);
      if (heads) return heads;
      heads = new Set();
      for (const sec of [...model.sectionsFor(cmd), ...globalSectionsFor(model, cmd)]) {
        for (const r of sec.rows) for (const n of r.names) if (n.includes('.')) for (const prefix of keyPrefixes(cmd, n)) heads.add(prefix);
      }
      keyHeads.set(cmd, heads);
      return heads;
    };
    // Only a reference that says so (a selection, a changelog) is partial here: one inferred and
    // short may still be the command's whole reference, and its examples' flags are worth a row.
    // Env vars (issue #31): an env reference is found by its content, and one listing under half
    // of the variables the code reads is a selection too (as for a missing row).
    const declaredPartial = (cmd: CommandSpec): boolean => {
      let p = partial.get(cmd);
      if (p === undefined) {
        const reason = partialReference(model, cmd)?.reason;
        partial.set(cmd, (p = reason === 'selection' || reason === 'history' || reason === 'cut' || (cmd.kind === 'environment' && reason !== undefined)));
      }
      return p;
    };
    for (const usage of model.usages) {
      // Its finding sits at the usage.
      if (!inScope(usage.file)) continue;
      const cmd = model.commandByName(usage.command);
      if (!cmd?.paramsKnown || model.globalParams.has(usage.name)) continue;
      const param = findParam(cmd, usage.name);
      if (!param || param.hidden || param.undemanded) continue;
      // A contributor guide sets the variables of the project's own tooling (`KEEP_OUTPUT=true npm run test:e2e`).
      if (usage.syntax === 'env' && (model.doc(usage.file)?.contributor || model.doc(usage.file)?.partial)) continue;
      const sections = model.sectionsFor(cmd);
      const primary = sections[0];
      if (!primary || rowsFor(model, cmd, param).length > 0) continue;
      // It is documented elsewhere (a page the reference defers to or links to, another part of
      // its page), or the reference says it lists a selection (a missing row there is no evidence).
      if (documentedElsewhere(model, cmd, param) || declaredPartial(cmd)) continue;
      // A page whose rows were not read shows it as code: its row may be there (s35 sweep D1-D4).
      if (unreadMayDocument(model.docs, [param.name, ...param.aliases, usage.name])) continue;
      // The example's own page has a row for it, written as the example writes it (a flag row for
      // a flag): a table under a label docdrift does not take as the command's section
      // ("**Options specific to stdio:**"); the reader finds it right there.
      if (rowOnPage(model.doc(usage.file), param)) continue;
      // Rows for its keys (`logging.level`) document a nested parameter too.
      const heads = keyHeadsOf(cmd);
      if (heads.has(param.name) || param.aliases.some((a) => heads.has(a))) continue;
      // The reference explains it in prose (`` `++responses_create_params.<field>` sets… ``).
      if ([...sections, ...globalSectionsFor(model, cmd)].some((sec) => explainedInSection(model, sec, param))) continue;
      // One finding per parameter per example (a YAML block's nested keys share their parent).
      const once = `${usage.file}\0${usage.invocation}\0${param.name}`;
      if (seen.has(once)) continue;
      seen.add(once);
      // The parameter as this example spells it (`max-connections`), else as the code names it
      // (`--no-cache` is about `cache`); the suggested row in the reference's own spelling.
      const name = [param.name, ...param.aliases].includes(usage.name) && usage.name.length > 1 ? usage.name : param.name;
      const rowKey = spellingInRows(param, primary.rows);
      report({
        messageId: param.description ? 'undocumented' : 'undocumentedNoDescription',
        data: {
          name,
          command: cmd.name,
          section: where(primary.heading.location),
          definition: where(param.location),
          description: param.description ?? '',
          type: param.type ?? '',
          default: param.default ? formatDefault(param.default) : '',
        },
        location: usage.location,
        related: [
          { ...param.location, message: definedHere(param.name, param.owner) },
          ...sections.map((s) => ({ ...s.heading.location, message: `\`${cmd.name}\` reference section` })),
        ],
        // The row in the reference table's own columns when it has one.
        suggestion: insertRowEdit(model, primary, cmd, param, rowKey)?.row ?? referenceRowText(param, rowKey),
      });
    }
  },
};

/**
 * Whether a page documents the parameter as a row of any layout (its `parameterRows`), in one of
 * its spellings and written as the parameter is (a flag row for a CLI flag, a key row for a
 * config field).
 */
function rowOnPage(doc: DocFile | undefined, param: ParamSpec): boolean {
  const spellings = new Set([param.name, ...param.aliases]);
  const flag = param.origin === 'cli-flag';
  return (doc?.parameterRows ?? []).some((r) => r.flag === flag && !r.override && r.names.some((n) => spellings.has(n)));
}

export default rule;
