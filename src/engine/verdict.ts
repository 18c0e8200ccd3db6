/**
 * The run's verdict (issue #32 item 1): whether it compared anything at all. A run that found no
 * command, knew the parameters of none, or compared none of those it knew with any document has
 * checked nothing, and exit 0 would read as "the docs are in sync"; the CLI exits 2 for it unless
 * `--allow-unchecked` (or `allowUnchecked: true`) says that is expected. Pure: reads the model and
 * the run's findings.
 */
import { globalSectionsFor } from '../model/query.js';
import type { DriftMessage } from '../model/rule.js';
import { ENVIRONMENT_COMMAND, type CommandSpec, type Model } from '../model/types.js';

/**
 * Whether a run checked anything. `checked` counts the commands (config files included) with
 * known parameters that a document compared with the code: a reference section of theirs (their
 * own or a global one), an example that runs them or passes them a parameter, or a flag named in
 * prose on their page. A run is `unchecked` when that count is 0 and no rule reported a drift
 * finding (a `parse-error` or a suppression bookkeeping finding compares nothing).
 */
export interface RunVerdict {
  /** `checked`: something was compared (exit 0 or 1 by the findings); `unchecked`: nothing was. */
  status: 'checked' | 'unchecked';
  /** Commands and config files with known parameters that some document was compared with. */
  checkedCommands: number;
  /** Discovered commands and config files that no document was compared with, or whose parameters are unknown. */
  uncheckedCommands: number;
  /** When `unchecked`: why, as one sentence without a final full stop (the notes say what to do). */
  reason?: string;
}

/** Findings that do not come from comparing code with docs: they never make a run "checked". */
const BOOKKEEPING_RULES: ReadonlySet<string> = new Set(['parse-error', 'unused-suppression', 'baseline-entry-stale']);

/** The names an example or a prose flag may use for `cmd`. */
function namesOf(cmd: CommandSpec): string[] {
  return [cmd.name, ...cmd.aliases];
}

/**
 * The verdict of a run over `model` whose rules reported `messages` (before suppression and path
 * scoping: the verdict is about the whole project, as the notes are). `docCount` is the number of
 * documents the run read, for the reason.
 */
export function runVerdict(model: Model, messages: readonly DriftMessage[], docCount: number): RunVerdict {
  const ran = new Set<string>();
  for (const doc of model.docs) for (const inv of doc.invocations) ran.add(inv.command);
  for (const usage of model.usages) ran.add(usage.command);
  for (const flag of model.proseFlags ?? []) ran.add(flag.command);
  // Environment variables a sentence names as such were compared with those the code reads (issue #31).
  if (model.docs.some((doc) => !doc.historical && doc.proseCodes?.some((p) => p.envName !== undefined))) ran.add(ENVIRONMENT_COMMAND);
  const known = model.commands.filter((c) => c.paramsKnown);
  const compared = known.filter(
    (cmd) => model.sectionsFor(cmd).length > 0 || globalSectionsFor(model, cmd).length > 0 || namesOf(cmd).some((n) => ran.has(n)),
  );
  const checkedCommands = compared.length;
  const uncheckedCommands = model.commands.length - checkedCommands;
  const findings = messages.some((m) => m.ruleId !== undefined && m.ruleId !== null && !BOOKKEEPING_RULES.has(m.ruleId));
  if (checkedCommands > 0 || findings) return { status: 'checked', checkedCommands, uncheckedCommands };
  let reason: string;
  if (model.commands.length === 0) reason = 'no command or config class was found';
  else if (known.length === 0) reason = `the parameters of none of the ${model.commands.length} command(s) found are known`;
  else if (docCount === 0) reason = `${known.length} command(s) have known parameters, but no document was found (see \`docs\` in the config)`;
  else reason = `${known.length} command(s) have known parameters, but none of the ${docCount} document(s) has a reference section, an example or a flag of theirs`;
  return { status: 'unchecked', checkedCommands, uncheckedCommands, reason };
}

/**
 * The stderr line (without `docdrift: `) for an `unchecked` verdict: the reason and what to do,
 * as ESLint says "No files matching the pattern". `allowed` when `--allow-unchecked` or
 * `allowUnchecked: true` made it expected (said, but not an error).
 */
export function uncheckedMessage(verdict: RunVerdict, allowed: boolean): string {
  const what = `nothing was checked: ${verdict.reason ?? 'no command was compared with any document'}`;
  if (allowed) return `${what} (allowed by --allow-unchecked or "allowUnchecked": true).`;
  return (
    `${what}, so this run cannot say the docs are in sync (exit 2). Follow the notes above to map a command or a reference; ` +
    'if checking nothing is expected here (docs not written yet), pass --allow-unchecked or set "allowUnchecked": true in the config.'
  );
}
