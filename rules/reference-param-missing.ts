/** Rule: a parameter the code defines has no row in the command's reference section. */
import type { Rule } from '../src/model/rule.js';
import { documentedElsewhere, globalSectionsFor, nestedKeys, rowsFor, spellingInRows, twinsOf, where, writtenReference } from '../src/model/query.js';
import type { CommandSpec, Model, ParamSpec, ReferenceSection } from '../src/model/types.js';
import { formatDefault } from '../src/model/compare.js';
import { paramSource, partialReference } from '../src/model/coverage.js';
import { unreadMayDocument } from '../src/model/unread.js';
import { referenceRowText, definedHere } from './util.js';
import { foldSpelling } from '../src/shared/names.js';
import { insertEnvLineEdit, insertRowEdit, nameCellSpelling, unspellableParam } from '../src/fix/reference-edits.js';

/**
 * Most missing rows reported one by one for a config file found by content alone (no config):
 * more, and they are one finding (see the `missingMany` message).
 */
const CASCADE_LIMIT = 10;

/** Whether `documented` names a dotted key below `name` (`m.a.b` below `m`). */
function documentsBelow(documented: ReadonlySet<string>, name: string): boolean {
  const prefix = `${name}.`;
  for (const d of documented) if (d.startsWith(prefix)) return true;
  return false;
}

interface Options {
  includeDeprecated: boolean;
}

const rule: Rule<Options> = {
  meta: {
    id: 'reference-param-missing',
    description: 'Report parameters defined in code that have no row in their command\'s reference section.',
    defaultSeverity: 'error',
    fixable: true,
    options: {
      includeDeprecated: {
        type: 'boolean',
        description: 'Also require rows for deprecated parameters (a deprecated field may be left undocumented by default).',
        default: false,
      },
    },
    messages: {
      missing:
        '`{{name}}` ({{definition}}) is a parameter of `{{command}}` but has no row in its reference.',
      missingEnv:
        'Environment variable `{{name}}` is read by the code ({{definition}}) but has no row in the env reference.',
      missingEnvFile:
        'Environment variable `{{name}}` is read by the code ({{definition}}) and documented elsewhere, but `{{file}}` does not list it.',
      missingMany:
        '{{count}} parameters of `{{command}}` ({{source}}) have no row in the reference docdrift found by its content: {{params}}.',
    },
  },
  check({ model, options, report, inScope }) {
    for (const cmd of model.commands) {
      if (!cmd.paramsKnown) continue;
      const sections = model.sectionsFor(cmd);
      const primary = sections[0];
      if (!primary) continue;
      // Its findings sit at one of the command's sections.
      if (!sections.some((s) => inScope(s.file))) continue;
      // A reference that says it lists a selection ("Here is a list of common options"), a
      // changelog, or one found by its content that lists under half of the parameters is not
      // known to be complete: nothing is missing (a run note says so).
      // Env vars (issue #31): a reference that misses one or two of the variables a small program
      // reads is no selection; it missed them.
      const partial = partialReference(model, cmd);
      if (partial && !(cmd.kind === 'environment' && partial.reason === 'inferred' && partial.parameters - partial.documented <= 2)) continue;
      // Sections that each document one shipped config file (`configs/agent.yaml` in the heading
      // or lead) need rows only for the keys those files set; a file docdrift could not read
      // leaves its table a selection.
      const scoped = sections.every((s) => s.scopedFile !== undefined);
      if (scoped && sections.some((s) => s.scopedKeys === undefined)) continue;
      const scopedKeys = scoped ? new Set(sections.flatMap((s) => s.scopedKeys ?? [])) : undefined;
      const inferredOnly = sections.every((s) => s.inferred);
      const documented = new Set(
        [...sections, ...globalSectionsFor(model, cmd)].flatMap((s) => s.rows.flatMap((r) => r.names)),
      );
      // A nested config parameter is documented by its own row, or key by key: once a reference
      // documents some `logging.*` keys, it must document every leaf key of `logging`.
      const missing: Array<{ key: string; param: ParamSpec; section?: ReferenceSection }> = [];
      const required = cmd.params.filter(
        (param) =>
          // Hidden flags need no row; positional arguments are described in usage lines more often
          // than in parameter tables, so they are not required either.
          !(param.hidden || param.undemanded || param.positional || model.globalParams.has(param.name) || model.isIgnored(param.name)) &&
          (param.deprecated === false || options.includeDeprecated) &&
          (scopedKeys === undefined || [param.name, ...param.aliases].some((n) => scopedKeys.has(n))),
      );
      // A pasted `--help` lists what the program printed: a hand-written reference beside it that
      // promises every parameter must still have a row for each (uvicorn's settings page against
      // the `uvicorn --help` pasted in its index page).
      // An example env file (`.env.example`) is what users copy to set up: one that lists most
      // variables must list every one, wherever else they are documented.
      if (cmd.kind === 'environment') reportEnvFileGaps(model, cmd, sections, required, report);
      const written = writtenReference(model, cmd, sections, required);
      for (const param of required) {
        // A name no reference row can spell (a tab, a line break, an empty name) cannot be
        // documented: a run note says so, instead of a finding no row could answer (s38 sweep D2).
        if (unspellableParam(param)) continue;
        const rows = rowsFor(model, cmd, param);
        if (written && rows.length > 0 && rows.every(({ section }) => section.layout === 'help')) {
          missing.push({ key: spellingInRows(param, written.rows), param, section: written });
          continue;
        }
        if (rows.length > 0) continue;
        // A page whose rows were not read shows it as code: its row may be there (s35 sweep D1-D4).
        if (unreadMayDocument(model.docs, [param.name, ...param.aliases])) continue;
        // Documented elsewhere: on a page the reference defers to ("Every one of the Configuration
        // options can also be specified through the CLI"), in another part of its page, or on a
        // page it links to (`documentedElsewhere`).
        if (documentedElsewhere(model, cmd, param)) continue;
        // A field set by a flag (`--resume` → `resume_from_cache`) is one parameter: the flag,
        // which users type, carries the finding.
        if (param.origin !== 'cli-flag' && twinsOf(cmd, param).length > 0) continue;
        const nested = nestedKeys(model, param);
        const leaves = nested.keys.filter(({ param: leaf }) => !leaf.hidden && (leaf.deprecated === false || options.includeDeprecated));
        // A reference found only by its content documents the keys it shows: one nested row
        // (`judge.max_output_tokens`) there is no promise to document every leaf of that model.
        if (inferredOnly && leaves.some(({ key }) => documented.has(key))) continue;
        // Keys past the nested-key budget are unknown (a warning says so): a parameter with a
        // documented key below it is partly documented, not a cascade of the listed leaves.
        if (nested.cut && documentsBelow(documented, param.name)) continue;
        if (leaves.some(({ key }) => documented.has(key))) {
          for (const leaf of leaves) if (!documented.has(leaf.key) && !model.isIgnored(leaf.key) && nameCellSpelling(leaf.key, leaf.key) !== undefined) missing.push(leaf);
        } else {
          // In the spelling the reference's rows use (`max-connections`, not yargs' `maxConnections` key).
          missing.push({ key: spellingInRows(param, primary.rows), param });
        }
      }
      // A config file docdrift tied to a class by content alone, missing more rows than a
      // maintainer leaves out by oversight: the class likely holds more than the file's keys (an
      // argv mirror, internals). One finding names them all, instead of a cascade of errors.
      if (cmd.kind === 'config-file' && cmd.mappedBy === 'inferred' && inferredOnly && missing.length > CASCADE_LIMIT) {
        report({
          messageId: 'missingMany',
          data: {
            command: cmd.name,
            count: String(missing.length),
            params: missing.map((m) => `\`${m.key}\``).join(', '),
            source: paramSource(model, cmd) ?? 'its class',
            // One finding per command: its identity must not change as rows are added.
            subject: `rows of ${cmd.name}`,
          },
          location: primary.heading.location,
          related: missing.slice(0, 20).map((m) => ({ ...m.param.location, message: definedHere(m.key, m.param.owner) })),
        });
        continue;
      }
      // Fixes insert rows into the primary section's table. Insertions at one place are applied
      // in report order (src/fix/apply.ts), so a sorted table gets its new rows in sorted order;
      // otherwise code order is kept.
      const insertion = (section: ReferenceSection, param: ParamSpec, key: string) => (section.layout === 'env-file' ? insertEnvLineEdit(model, section, param) : insertRowEdit(model, section, cmd, param, key));
      const planned = missing.map((m) => ({ ...m, insertion: insertion(m.section ?? primary, m.param, m.key) }));
      if (planned.some((p) => p.insertion?.sorted)) planned.sort((a, b) => (a.key.toLowerCase() < b.key.toLowerCase() ? -1 : a.key.toLowerCase() > b.key.toLowerCase() ? 1 : 0));
      for (const { key, param, insertion, section: target = primary } of planned) {
        // An env file of one workspace package (`apps/web/.env.example`) lists that package's variables.
        if (outsideEnvFile(target, param)) continue;
        // The row as the fix writes it: one cell per column of the table it goes into.
        const row = insertion?.row ?? referenceRowText(param, key);
        report({
          messageId: cmd.kind === 'environment' ? 'missingEnv' : 'missing',
          data: {
            name: key,
            command: cmd.name,
            definition: where(param.location),
            type: param.type ?? '',
            default: param.default ? formatDefault(param.default) : '',
            description: param.description ?? '',
            row,
          },
          location: target.heading.location,
          related: [
            { ...param.location, message: definedHere(key, param.owner) },
            ...sections.filter((s) => s !== target).map((s) => ({ ...s.heading.location, message: s.layout === 'help' ? `a pasted \`--help\` of \`${cmd.name}\`` : `another \`${cmd.name}\` reference section` })),
          ],
          suggestion: row,
          ...(insertion ? { fix: insertion.edit } : {}),
        });
      }
    }
  },
};

/**
 * Whether `param` (an env var, where it is first read) is read outside the folder of an example
 * env file kept in a sub-folder (`apps/web/.env.example`): a monorepo's package lists the variables
 * of its own code. Env files at the root cover the whole project.
 */
function outsideEnvFile(section: ReferenceSection, param: ParamSpec): boolean {
  if (section.layout !== 'env-file') return false;
  const dir = section.file.includes('/') ? section.file.slice(0, section.file.lastIndexOf('/')) : '';
  return dir !== '' && !param.location.file.startsWith(`${dir}/`);
}

/**
 * Whether another example env file, in a sub-folder of `file`'s that holds the code reading `param`
 * (`apps/mobile/.env.sample` for `apps/mobile/store/auth.ts`), is that code's own: the nearest env
 * file lists a package's variables, the root one need not repeat them.
 */
function ownedByDeeperEnvFile(sections: readonly ReferenceSection[], file: ReferenceSection, param: ParamSpec): boolean {
  const dirOf = (f: string): string => (f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : '');
  const own = dirOf(file.file);
  return sections.some((s) => {
    if (s.layout !== 'env-file' || s === file) return false;
    const dir = dirOf(s.file);
    return dir.length > own.length && dir.startsWith(own) && param.location.file.startsWith(dir);
  });
}

/**
 * For each `.env.example`-style section that lists at least half of the variables the code reads
 * (`required`), the variables it lacks that another env reference documents (one not documented
 * anywhere is reported once, at the primary section, by the main check).
 */
function reportEnvFileGaps(model: Model, cmd: CommandSpec, sections: readonly ReferenceSection[], required: readonly ParamSpec[], report: Parameters<Rule<Options>['check']>[0]['report']): void {
  for (const file of sections.filter((s) => s.layout === 'env-file')) {
    const listed = new Set(file.rows.flatMap((r) => r.names.map((n) => foldSpelling(n))));
    const lacks = required.filter((p) => ![p.name, ...p.aliases].some((n) => listed.has(foldSpelling(n))));
    if ((required.length - lacks.length) * 2 < required.length) continue;
    for (const param of lacks) {
      if (rowsFor(model, cmd, param).length === 0 || outsideEnvFile(file, param) || ownedByDeeperEnvFile(sections, file, param)) continue;
      const fix = insertEnvLineEdit(model, file, param);
      report({
        messageId: 'missingEnvFile',
        data: { name: param.name, command: cmd.name, definition: where(param.location), file: file.file },
        location: file.heading.location,
        related: [{ ...param.location, message: definedHere(param.name, param.owner) }],
        suggestion: `${param.name}=`,
        ...(fix ? { fix: fix.edit } : {}),
      });
    }
  }
}

export default rule;
