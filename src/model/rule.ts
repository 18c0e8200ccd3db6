/**
 * Rule and message types: what a rule module exports, what it receives, and the message it
 * reports. Messages are `VFileMessage`s (vfile-message 4) extended with docdrift's fields.
 */
import type { VFileMessage } from 'vfile-message';
import type { Model, SourceLocation } from './types.js';

/** Severity of a configured rule. `off` disables it. */
export type Severity = 'off' | 'warn' | 'error';

/** A location related to a finding: the definition in code, the reference section. SARIF `relatedLocations`. */
export interface RelatedLocation extends SourceLocation {
  /** What this location is, e.g. "defined here", "reference section". */
  message: string;
}

/** A text edit of one file: replace `[start, end)` (UTF-16 offsets) with `text`. Used by `--fix` (issue #5). */
export interface TextEdit {
  file: string;
  start: number;
  end: number;
  text: string;
}

/**
 * One finding. A `VFileMessage` (`reason`, `line`, `column`, `place`, `file`, `ruleId`,
 * `source: 'docdrift'`, `fatal`, `url`) plus:
 */
export interface DriftMessage extends VFileMessage {
  /** Key into the rule's `meta.messages`; tests assert this, not the wording. */
  messageId: string;
  /** Values interpolated into the message template (strings only, for stable JSON). */
  data: Record<string, string>;
  severity: Exclude<Severity, 'off'>;
  /** Cross-file evidence. */
  related: RelatedLocation[];
  /** A suggested replacement or text to add, when the rule has one. */
  suggestion?: string;
  /** An automatic fix, when the rule is fixable (issue #5 applies them). */
  fix?: TextEdit;
  /**
   * Set when the rule gave a fix that was not kept: `'undecoded'`, its text holds U+FFFD, read
   * for bytes not valid in their file's encoding. The message says why; `--fix` counts them.
   */
  fixWithheld?: 'undecoded';
}

/** What a rule passes to `context.report`. */
export interface ReportDescriptor {
  messageId: string;
  data?: Record<string, string>;
  /** Where the finding is. */
  location: SourceLocation;
  related?: RelatedLocation[];
  suggestion?: string;
  fix?: TextEdit;
  /** Lowers the configured severity for this one finding (an MDX file parsed as plain Markdown is a warning). */
  severity?: 'warn';
}

/** The rule's view of the run: the model, its options, and `report`. */
export interface RuleContext<Options = Record<string, unknown>> {
  model: Model;
  options: Options;
  report(descriptor: ReportDescriptor): void;
  /**
   * Whether findings located in `file` (project-relative) are wanted by this run. A hint, never a
   * verdict: the runner drops findings located elsewhere itself, so a rule may ignore it; a rule
   * whose findings are worked out one document or one section at a time skips the work for the
   * others (the language server first lints only the page being edited: issue #36). Must not
   * change what a rule reports in the files it answers true for: a finding that depends on
   * usages or rows across files (folded summaries, counts) is worked out whole. Always true in a
   * full run.
   */
  inScope(file: string): boolean;
}

/** A JSON-Schema-like description of one rule option, shown in the rule's doc. */
export interface RuleOptionSchema {
  type: 'string' | 'number' | 'boolean' | 'array';
  description: string;
  default: unknown;
  items?: { type: 'string' | 'number' };
}

/** Static facts about a rule. The docs URL is derived from `id`. */
export interface RuleMeta {
  /** kebab-case id that says what is wrong (`example-param-undocumented`). */
  id: string;
  /** One sentence starting with a verb. */
  description: string;
  defaultSeverity: Exclude<Severity, 'off'>;
  fixable: boolean;
  /** Options, by name. */
  options: Record<string, RuleOptionSchema>;
  /** Message templates by messageId; `{{name}}` placeholders are filled from `data`. */
  messages: Record<string, string>;
}

/** A rule module: `rules/<id>.ts` default-exports one of these. Rules do no I/O. */
export interface Rule<Options = Record<string, unknown>> {
  meta: RuleMeta;
  check(context: RuleContext<Options>): void;
}
