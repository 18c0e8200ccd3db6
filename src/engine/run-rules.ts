/** Runs rule modules over a model and turns their reports into DriftMessages. */
import { VFileMessage } from 'vfile-message';
import type { Model } from '../model/types.js';
import { ruleDocsUrl } from './rule-docs.js';
import { isRestructuredText } from '../shared/paths.js';
import { headOf } from '../shared/strings.js';
import type { DriftMessage, ReportDescriptor, Rule, Severity } from '../model/rule.js';

/** A rule with the severity and options the config gives it. */
export interface ConfiguredRule {
  rule: Rule;
  severity: Severity;
  options: Record<string, unknown>;
}

/** A rule that threw: reported to the user by name, the stack only under `--debug`. */
export interface RuleFailure {
  ruleId: string;
  error: unknown;
}

/** Fills `{{key}}` placeholders from `data`; a missing key stays visible as `{{key}}`. */
export function interpolate(template: string, data: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? (data[key] ?? '') : whole));
}

/**
 * The longest a value (a name, a default, a cell) is shown in a message, in UTF-16 code units;
 * past it the message shows its first 1,000 and `…`. Real values reach a few hundred (a list of
 * parameters a command takes: 487 on NeMo Gym); a name is never near that long in a real project;
 * a hostile one (a 150,000-character command name) was printed whole in every finding (s26
 * sweep3 O2: 600 KB of stylish output for 5 findings). The message's `data` keeps the whole
 * value, so a finding's identity (baseline, fingerprints) does not change.
 */
export const MAX_SHOWN_VALUE_LENGTH = 2000;

/** The longest a related location's message is shown, in UTF-16 code units (see {@link MAX_SHOWN_VALUE_LENGTH}). */
export const MAX_SHOWN_RELATED_LENGTH = 3000;

/** `text`, or its first `keep` code units and `…` when it is longer than `max` (a surrogate pair is not split). */
function shown(text: string, max = MAX_SHOWN_VALUE_LENGTH, keep = 1000): string {
  return text.length <= max ? text : `${headOf(text, keep)}…`;
}

/**
 * Builds one DriftMessage (a VFileMessage with docdrift's fields) from a rule's report. Only the
 * rule's `meta` is read, so the engine's own reports (unused suppressions, stale baseline
 * entries) use it too.
 * @throws Error when `d.messageId` is not among the rule's messages (a programming error).
 */
export function createMessage(rule: Pick<Rule, 'meta'>, severity: Exclude<Severity, 'off'>, d: ReportDescriptor): DriftMessage {
  const template = rule.meta.messages[d.messageId];
  if (template === undefined) throw new Error(`rule ${rule.meta.id} reported unknown messageId "${d.messageId}"`);
  const data = d.data ?? {};
  const loc = d.location;
  const place =
    loc.endLine !== undefined && loc.endColumn !== undefined
      ? { start: { line: loc.line, column: loc.column }, end: { line: loc.endLine, column: loc.endColumn } }
      : { line: loc.line, column: loc.column };
  // A fix that would write U+FFFD is withheld, and the message says why (see `undecodedFixNote`).
  const undecoded = d.fix !== undefined && d.fix.text.includes('\uFFFD') ? undecodedFixNote(d) : '';
  const reason = interpolate(template, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, shown(String(v))]))) + undecoded;
  // A VFileMessage is an Error: its constructor captured a stack trace that vfile-message then
  // replaces with ''. Not captured at all, 72,000 findings are built in half the time (s31 D6).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let message: VFileMessage;
  try {
    message = new VFileMessage(reason, { place, ruleId: rule.meta.id, source: 'docdrift' });
  } finally {
    Error.stackTraceLimit = limit;
  }
  const effective = d.severity === 'warn' ? 'warn' : severity;
  return Object.assign(message, {
    file: loc.file,
    fatal: effective === 'error',
    url: ruleDocsUrl(rule.meta.id),
    messageId: d.messageId,
    data,
    severity: effective,
    related: (d.related ?? []).map((r) => (r.message.length > MAX_SHOWN_RELATED_LENGTH ? { ...r, message: shown(r.message, MAX_SHOWN_RELATED_LENGTH, MAX_SHOWN_RELATED_LENGTH - 1000) } : r)),
    suggestion: d.suggestion,
    // --fix refuses .rst documents: a fix there would only be counted as "potentially fixable"
    // by every run, --fix runs included (s24 sweep note).
    fix: d.fix && !isRestructuredText(d.fix.file) && undecoded === '' ? d.fix : undefined,
    ...(undecoded !== '' ? { fixWithheld: 'undecoded' as const } : {}),
  }) as DriftMessage;
}

/**
 * Why a finding's fix was not applied when its text holds U+FFFD, as a sentence appended to its
 * message. U+FFFD is what docdrift reads for bytes that are not valid in a file's encoding (a
 * Python source saved in latin-1 with no coding comment, which CPython itself refuses to
 * compile): written into the docs, the value would be a replacement character where the code has
 * a letter (#33). The file named is the first related location outside the fixed document (the
 * definition the value comes from), when there is one.
 */
function undecodedFixNote(d: ReportDescriptor): string {
  const from = d.related?.find((r) => r.file !== d.fix!.file)?.file;
  const python = from !== undefined && /\.pyi?$/i.test(from);
  return (
    ` Not fixed: the text --fix would write holds U+FFFD, the character docdrift reads for bytes that are not valid in their file's encoding${from === undefined ? '' : ` (here ${from})`}; ` +
    (python ? `save ${from} as UTF-8 or declare its encoding (\`# -*- coding: latin-1 -*-\`), as CPython requires, then run --fix again.` : `correct that file's encoding, then run --fix again.`)
  );
}

/**
 * Runs every enabled rule over the model. A rule that throws does not stop the others; it is
 * returned in `failures`. With `inScope` (project-relative file → wanted), only the findings
 * located in the files it answers true for are returned, and rules may skip the work for the
 * others (`RuleContext.inScope`); they are the same findings a full run reports in those files.
 */
export function runRules(model: Model, rules: ConfiguredRule[], inScope?: (file: string) => boolean): { messages: DriftMessage[]; failures: RuleFailure[] } {
  const messages: DriftMessage[] = [];
  const failures: RuleFailure[] = [];
  for (const configured of rules) {
    const { rule, severity } = configured;
    if (severity === 'off') continue;
    const report = inScope ? (d: ReportDescriptor): void => void (inScope(d.location.file) && messages.push(createMessage(rule, severity, d))) : (d: ReportDescriptor): void => void messages.push(createMessage(rule, severity, d));
    const failure = checkRule(model, configured, report, inScope ?? everyFile);
    if (failure) failures.push(failure);
  }
  return { messages, failures };
}

/** Runs one configured rule with its options' defaults filled in; returns the failure when it throws. */
function checkRule(model: Model, { rule, options }: ConfiguredRule, report: (d: ReportDescriptor) => void, inScope: (file: string) => boolean): RuleFailure | undefined {
  const defaults = Object.fromEntries(Object.entries(rule.meta.options).map(([k, v]) => [k, v.default]));
  try {
    rule.check({ model, options: { ...defaults, ...options }, report, inScope });
    return undefined;
  } catch (error) {
    return { ruleId: rule.meta.id, error };
  }
}

/** {@link RuleContext.inScope} of a full run. */
const everyFile = (): boolean => true;

/** The first part of a focused rule run ({@link runRulesFocused}) and the way to the rest. */
export interface FocusedRuleRun {
  /** The findings located in the focus files: the same a full run reports there. */
  messages: DriftMessage[];
  failures: RuleFailure[];
  /**
   * The findings located elsewhere, with the failures of rules run again for them (a rule that
   * threw in the first part is not run again). The two parts together are a full run's findings.
   * `between` is called before each rule run again (the language server gives up there, by
   * throwing, when an edit made the lint outdated); what it throws is thrown. Call at most once.
   */
  rest(between?: () => void): { messages: DriftMessage[]; failures: RuleFailure[] };
}

/**
 * Runs the rules in two parts (issue #36): first for the findings located in the files `inFocus`
 * answers true for (the pages open in an editor, whose author waits for them), then, when
 * `rest()` is called, for the others. A rule that consults `RuleContext.inScope` in the first part
 * may have skipped work for the files out of focus, so it runs again in the second with the
 * complement; a rule that never consults it did all its work, and the findings it reported out of
 * focus are kept for `rest()` as they are. On NeMo Gym, a README edit's first part costs the rules
 * that judge usages and sections one by one nothing but the README's own.
 */
export function runRulesFocused(model: Model, rules: ConfiguredRule[], inFocus: (file: string) => boolean): FocusedRuleRun {
  const messages: DriftMessage[] = [];
  const held: DriftMessage[] = [];
  const failures: RuleFailure[] = [];
  const again: ConfiguredRule[] = [];
  for (const configured of rules) {
    const { rule, severity } = configured;
    if (severity === 'off') continue;
    let consulted = false;
    const own: DriftMessage[] = [];
    const failure = checkRule(model, configured, (d) => own.push(createMessage(rule, severity, d)), (file) => {
      consulted = true;
      return inFocus(file);
    });
    if (failure) {
      failures.push(failure);
      continue;
    }
    // Out of focus, a rule that consulted the scope may have skipped work: its findings there come
    // from its second run (`rest`); those of a rule that did not are complete and kept.
    for (const m of own) {
      if (m.file !== undefined && inFocus(m.file)) messages.push(m);
      else if (!consulted) held.push(m);
    }
    if (consulted) again.push(configured);
  }
  let done = false;
  return {
    messages,
    failures,
    rest(between) {
      if (done) throw new Error('runRulesFocused: rest() was called twice');
      done = true;
      const outside = (file: string): boolean => !inFocus(file);
      const ran: { messages: DriftMessage[]; failures: RuleFailure[] } = { messages: [], failures: [] };
      for (const configured of again) {
        between?.();
        const one = runRules(model, [configured], outside);
        ran.messages.push(...one.messages);
        ran.failures.push(...one.failures);
      }
      return { messages: [...held, ...ran.messages], failures: ran.failures };
    },
  };
}

/** Sorts messages by file, line, column, rule id (stable output for every formatter). */
export function sortMessages(messages: DriftMessage[]): DriftMessage[] {
  return [...messages].sort(
    (a, b) =>
      String(a.file).localeCompare(String(b.file)) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      String(a.ruleId).localeCompare(String(b.ruleId)),
  );
}
