/** Rule: a reference row names a parameter that the code no longer (or never) defined. */
import type { ReportDescriptor, Rule, TextEdit } from '../src/model/rule.js';
import { NameIndex, suggestNames } from '../src/shared/names.js';
import { configClassNames, definedBy, paramNames, resolveKey, splitKey } from '../src/model/query.js';
import type { CommandSpec, ParamSpec, ReferenceRow, ReferenceSection } from '../src/model/types.js';
import { removeRowEdit, replaceSpellingEdit } from '../src/fix/reference-edits.js';
import { partlyRead, sharesWord, summaryData, wordsOf, type Judged } from './partly-read.js';
import { acceptsSpelling, bareFlagName, flagSpelling, usualFlagSpelling } from '../src/model/flag-spelling.js';

interface Options {
  fixRemove: boolean;
  summarizeAtUnknown: number;
  summarizeBelowKnownShare: number;
}

/** What "the code never reads it" covers, in env messages. */
const ENV_SOURCES = 'no `os.environ`/`os.getenv`/pydantic-settings field, no `process.env`/`import.meta.env` read, no mention in a script, Dockerfile or Makefile';

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
      summarizeAtUnknown: {
        type: 'number',
        description:
          'When at least this many rows of one reference section name no parameter of its command and are close to none, and the rows docdrift can match are less than `summarizeBelowKnownShare` of them, the section most likely documents something docdrift did not read (or another command): those rows are reported once, as one `partlyRead` warning at the section\'s heading, instead of once per row. 0 never summarizes.',
        default: 3,
      },
      summarizeBelowKnownShare: {
        type: 'number',
        description:
          'The share (0 to 1) of a section\'s rows that must match a parameter (or be close to one) for its unknown rows to be reported one by one; see `summarizeAtUnknown`.',
        default: 0.5,
      },
    },
    messages: {
      staleWithSuggestion:
        '`{{name}}` is documented in the `{{command}}` reference but is not a parameter in the code (config: {{classes}}). Did you mean `{{suggestion}}`?',
      staleSubkeyWithSuggestion:
        '`{{name}}` is documented in the `{{command}}` reference, but `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}`). Did you mean `{{suggestion}}`?',
      staleSubkey:
        '`{{name}}` is documented in the `{{command}}` reference, but `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}`).',
      stale:
        '`{{name}}` is documented in the `{{command}}` reference but is not a parameter in the code (config: {{classes}}).',
      staleFlagWithSuggestion:
        '`{{flag}}` is documented as the CLI flag of `{{name}}` in the `{{command}}` reference, but `{{command}}` has no such flag. Did you mean `{{suggestion}}`?',
      staleFlag:
        '`{{flag}}` is documented as the CLI flag of `{{name}}` in the `{{command}}` reference, but `{{command}}` has no such flag.',
      partlyRead:
        '{{count}} names in the {{rows}} rows of this `{{command}}` reference section are no parameter docdrift finds in its code (config: {{classes}}): {{names}} (rows naming one: {{known}}), so they are reported once, here.',
      staleEnvWithSuggestion:
        '`{{name}}` is documented as an environment variable, but the code never reads it ({{source}}). Did you mean `{{suggestion}}`?',
      staleEnv:
        '`{{name}}` is documented as an environment variable, but the code never reads it ({{source}}).',
      flagOfOther:
        '`{{flag}}` is documented as a spelling of `{{name}}` in the `{{command}}` reference, but in the code it is the flag of `{{other}}`.',
      misspeltFlag:
        '`{{flag}}` is documented as a flag of `{{command}}`, but the code declares it as `{{declared}}`, and its parser rejects other dashes.',
    },
  },
  check({ model, options, report: emit, inScope }) {
    const removal = (section: ReferenceSection, row: ReferenceRow): { fix?: TextEdit } => {
      const fix = options.fixRemove ? removeRowEdit(model, section, row) : undefined;
      return fix ? { fix } : {};
    };
    for (const section of model.sections) {
      // A changelog or upgrade guide names removed flags on purpose (`--preset` was removed).
      // Its findings (and a section's summary) sit in the section.
      if (section.global || section.history || section.mentionsOnly || !inScope(section.file)) continue;
      const cmds = [...new Set(section.commands.map((n) => model.commandByName(n)))].filter(
        (c): c is CommandSpec => c !== undefined,
      );
      // Judge only when every command the section documents has known parameters.
      if (cmds.length === 0 || cmds.some((c) => !c.paramsKnown)) continue;
      const known = new Set(cmds.flatMap(paramNames));
      const isEnv = cmds.some((c) => c.kind === 'environment');
      const all = cmds.flatMap((c) => [...c.params, ...(c.acceptedParams ?? [])]);
      // A row with a key column and a CLI-flag column names one setting in two namespaces: the key
      // is judged as a config key when the code has config fields, each flag against the program's flags.
      const hasFields = all.some((p) => p.origin === 'config-field');
      const flagParams = all.filter((p) => p.origin === 'cli-flag' && !p.positional);
      const flagSpellings = new Set(flagParams.flatMap((p) => [p.name, ...p.aliases, ...(p.negatable ? [`no-${p.name}`] : [])]));
      // Indexed once per section, asked per row (#33 D5: per-row scans made 5,000 rows quadratic).
      let flagIndex: NameIndex | undefined;
      let knownIndex: NameIndex | undefined;
      const spellingsOf = (p: ParamSpec): string[] => [p.name, ...p.aliases, ...(p.negatable ? [p.name, ...p.aliases].map((n) => `no-${n}`) : [])];
      let flagsBySpelling: Map<string, number[]> | undefined;
      /** Positions in `flagParams` of the flags spelt `name`, ascending. */
      const flagsSpelt = (name: string): number[] => {
        if (!flagsBySpelling) {
          flagsBySpelling = new Map();
          flagParams.forEach((p, i) => {
            for (const n of new Set(spellingsOf(p))) {
              const list = flagsBySpelling!.get(n);
              if (list) list.push(i);
              else flagsBySpelling!.set(n, [i]);
            }
          });
        }
        return flagsBySpelling.get(name) ?? [];
      };
      // Findings are held until the whole section is seen: a section whose rows mostly match
      // nothing gets one summary instead (see partly-read.ts).
      const held: Judged[] = [];
      const runtimeOptions = cmds.some((c) => c.unreadFlags !== undefined);
      // A reading limit cut the flags (`unreadFlags.cut`): any row may name one of those not read.
      const cutFlags = cmds.some((c) => c.unreadFlags?.cut !== undefined);
      let knownRows = 0;
      let row: ReferenceRow;
      const words = new Set([...known, ...flagSpellings].flatMap(wordsOf));
      const report = (d: ReportDescriptor): void => {
        const name = d.messageId.startsWith('staleFlag') ? (d.data?.flag ?? '') : (row.names[0] ?? row.rawName);
        // A did-you-mean (or a flag of another command) ties the row to a name docdrift read.
        const suggested = d.messageId !== 'stale' && d.messageId !== 'staleFlag' && d.messageId !== 'staleEnv';
        // An env var shares its project's first word with every other one: only a did-you-mean makes it near.
        const near = suggested || (d.messageId !== 'staleEnv' && sharesWord(name, words));
        // A command whose options are partly made at run time (`unreadFlags`, said in a note) may
        // have a row's name among those: only a near miss of a name docdrift read is drift. A shared
        // word is not one there: sqlite-utils' `insert` documents `--empty-null`, one of the options
        // its decorators add at run time, beside the `--not-null` docdrift read.
        if ((!suggested && runtimeOptions) || cutFlags) return;
        held.push({ name, near, descriptor: d });
      };
      for (row of section.rows) {
        if (row.spellings && flagParams.length > 0) {
          for (const f of row.spellings.flags) {
            if (flagSpellings.has(f.name) || f.name === 'help' || model.globalParams.has(f.name) || model.isIgnored(f.name)) continue;
            const [near] = suggestNames(f.name, (flagIndex ??= new NameIndex(flagSpellings)), 1);
            // Spelt as the code declares it (`--g`, `-gx`), else `-k`/`--key`.
            const nearParam = near === undefined ? undefined : flagParams[flagsSpelt(near)[0] ?? -1];
            const suggestion = near === undefined ? undefined : nearParam ? flagSpelling(nearParam, near) : usualFlagSpelling(near);
            report({
              messageId: suggestion ? 'staleFlagWithSuggestion' : 'staleFlag',
              data: { flag: f.text, name: row.spellings.keys[0] ?? row.rawName, command: cmds[0]!.name, ...(suggestion ? { suggestion } : {}) },
              location: f.location,
              related: definedBy(model, cmds[0]!),
              suggestion,
            });
          }
        }
        // `` `-h`/`--host` ``: every spelling of the row names the parameter its other spellings name;
        // a short alias the code does not have is drift even when the long spelling is right.
        if (row.flagSpellings && !row.spellings && flagParams.length > 0) {
          // A section shared by sibling sub-commands holds one `--name` per command: one parameter.
          const named = (long: boolean): ParamSpec[] => {
            const at = new Set(row.flagSpellings!.flatMap((f) => (!long || f.text.startsWith('--') ? flagsSpelt(f.name) : [])));
            const hits = [...at].sort((a, b) => a - b).map((i) => flagParams[i]!);
            return hits.filter((p, i) => hits.findIndex((q) => q.name === p.name) === i);
          };
          // The parameter the row documents: the one its long spellings name, else the one any spelling
          // names; a row naming none, or several by its long spellings, is judged as a whole below.
          const byLong = named(true);
          const owners = byLong.length > 0 ? byLong : named(false);
          if (owners.length === 1) {
            const owner = owners[0]!;
            const own = spellingsOf(owner);
            const shown = row.flagSpellings.find((f) => own.includes(f.name) && f.text.startsWith('--')) ?? row.flagSpellings.find((f) => own.includes(f.name))!;
            for (const f of row.flagSpellings) {
              // A one-letter spelling that is global (`-h`, help in argparse) still cannot be this parameter's.
              if (own.includes(f.name) || f.name === 'help' || (f.name.length > 1 && model.globalParams.has(f.name)) || model.isIgnored(f.name)) continue;
              const first = flagsSpelt(f.name)[0];
              const other = first === undefined ? undefined : flagParams[first];
              const base = { flag: f.text, name: shown.text, command: cmds[0]!.name };
              if (other) {
                report({
                  messageId: 'flagOfOther',
                  data: { ...base, other: flagSpelling(other, other.name) },
                  location: f.location,
                  related: [{ ...other.location, message: `\`${f.text}\` is declared here, for \`${flagSpelling(other, other.name)}\`` }, { ...owner.location, message: `\`${shown.text}\` is declared here` }],
                });
                continue;
              }
              // A short spelling has no near name worth suggesting; a long one may be a typo of the parameter's own.
              const [near] = f.name.length > 1 ? suggestNames(f.name, own.filter((n) => n.length > 1), 1) : [];
              const suggestion = near === undefined ? undefined : flagSpelling(owner, near);
              // A misspelt long flag of the row's own parameter is renamed in place, in the row's own spelling.
              const fix = suggestion ? replaceSpellingEdit(model, f.location, f.text, suggestion) : undefined;
              report({
                messageId: suggestion ? 'staleFlagWithSuggestion' : 'staleFlag',
                data: { ...base, ...(suggestion ? { suggestion } : {}) },
                location: f.location,
                related: [{ ...owner.location, message: `\`${shown.text}\` is declared here` }, ...definedBy(model, cmds[0]!)],
                suggestion,
                ...(fix ? { fix } : {}),
              });
            }
          }
        }
        // `-g` where the code declares only `--g` (`--gx` for `-gx`): the name is the parameter's,
        // its dashes are not, and the program rejects them (#33 F10, as example-param-unknown's
        // `misspeltFlag`). A flag whose option strings are all usual keeps the lenient dashes.
        if (flagParams.length > 0) {
          for (const f of writtenFlags(row)) {
            const dashes = f.text.slice(0, f.text.length - bareFlagName(f.text).length);
            const owners = flagsSpelt(f.name).map((i) => flagParams[i]!);
            if (owners.length === 0 || owners.some((p) => acceptsSpelling(p, f.name, dashes))) continue;
            const declared = flagSpelling(owners[0]!, f.name);
            const fix = replaceSpellingEdit(model, f.location, f.text, declared);
            report({
              messageId: 'misspeltFlag',
              data: { flag: f.text, name: f.name, command: cmds[0]!.name, declared },
              location: f.location,
              related: [{ ...owners[0]!.location, message: `\`${declared}\` is declared here` }, ...definedBy(model, cmds[0]!)],
              suggestion: declared,
              ...(fix ? { fix } : {}),
            });
          }
        }
        const judged = row.spellings && hasFields ? row.spellings.keys : row.names;
        // A row names a parameter by its own name or alias, dots and all (a JSON Schema property or
        // pydantic alias `log.level`), else a nested field by its path (`optim.lr`): see `splitKey`.
        const documented = judged.some((n) => {
          const first = n.split('.')[0] ?? n;
          if (model.globalParams.has(first) || model.isIgnored(n)) return true;
          return cmds.some((c) => resolveKey(model, c, n).status !== 'unknown-subkey' && known.has(splitKey(c, n)[0]!));
        });
        if (documented) {
          knownRows++;
          continue;
        }
        // Issue #31: a documented env var the code does not read is judged only in the project's own
        // namespace (not `OPENAI_API_KEY`, which an SDK reads), and never when the code mentions it.
        if (isEnv) {
          const status = model.envNameStatus?.(row.names[0] ?? row.rawName) ?? 'excluded';
          if (status === 'excluded' || (status === 'foreign' && suggestNames(row.names[0] ?? row.rawName, (knownIndex ??= new NameIndex(known)), 1).length === 0)) {
            knownRows++;
            continue;
          }
        }
        // A row whose docs say the parameter is gone is a tombstone kept on purpose (`### `x` (DEPRECATED)`
        // + "no longer needed, you can remove it", "Removed in v4"): the code dropping the name is what it announces.
        if (row.removed) {
          knownRows++;
          continue;
        }
        const dottedName = row.names.find((n) => n.includes('.') && cmds.some((c) => known.has(splitKey(c, n)[0]!)));
        if (dottedName) {
          // The first segment is a parameter; a later segment names no field of its config class.
          const cmd = cmds.find((c) => resolveKey(model, c, dottedName).status === 'unknown-subkey');
          const resolved = cmd ? resolveKey(model, cmd, dottedName) : undefined;
          if (!cmd || resolved?.status !== 'unknown-subkey') continue;
          const segment = resolved.segment;
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
        const [suggestion] = suggestNames(name, (knownIndex ??= new NameIndex(known)), 1);
        const primary = cmds[0]!;
        const classes = configClassNames(cmds, model);
        report({
          messageId: isEnv ? (suggestion ? 'staleEnvWithSuggestion' : 'staleEnv') : suggestion ? 'staleWithSuggestion' : 'stale',
          data: { name, command: primary.name, classes, ...(isEnv ? { source: ENV_SOURCES } : {}), ...(suggestion ? { suggestion } : {}) },
          location: row.location,
          related: definedBy(model, primary),
          suggestion,
          ...removal(section, row),
        });
      }
      const verdict = partlyRead(held, knownRows, options.summarizeAtUnknown, options.summarizeBelowKnownShare);
      for (const j of verdict.single) emit(j.descriptor);
      if (verdict.folded.length === 0) continue;
      const summary = summaryData(verdict.folded);
      const primary = cmds[0]!;
      emit({
        messageId: 'partlyRead',
        data: {
          command: primary.name,
          key: JSON.stringify(primary.name),
          classes: configClassNames(cmds, model),
          rows: String(section.rows.length),
          known: String(knownRows),
          ...summary.data,
        },
        location: section.heading.location,
        related: [...summary.related.map((r) => ({ ...r, message: `${r.message} has a row here` })), ...definedBy(model, primary)],
        severity: 'warn',
      });
    }
  },
};

/**
 * The CLI flag spellings a row writes, each with its dashes (`-w`, `--no-color`): those of its
 * CLI-flag column or of its several spellings, else its name cell when that starts with a dash
 * and spells the row's first name (`-w` or `-w WORKERS` for `w`), at the row.
 */
function writtenFlags(row: ReferenceRow): Array<{ text: string; name: string; location: ReferenceRow['location'] }> {
  const listed = row.spellings?.flags ?? row.flagSpellings;
  if (listed) return listed.filter((f) => f.text.startsWith('-'));
  const name = row.names[0];
  const text = /^-{1,2}[^\s=,[<]+/.exec(row.rawName)?.[0];
  return name !== undefined && text !== undefined && bareFlagName(text) === name ? [{ text, name, location: row.location }] : [];
}

export default rule;
