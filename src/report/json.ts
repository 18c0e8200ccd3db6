/** The `json` formatter: a stable, versioned, machine-readable report (documented in docs/json-format.md). */
import type { DriftMessage } from '../model/rule.js';
import { compareStrings, endOf, severityOf, sortMessages } from './sort.js';
import { type ReportSink, streamJsonDocument } from './stream.js';
import type { FormatterOptions, ReportVerdict } from './types.js';

/** A related location in {@link JsonResult.related}. Positions are 1-based; ends are exclusive. */
export interface JsonRelated {
  /** Project-relative POSIX path. */
  file: string;
  line: number;
  column: number;
  /** Omitted when unknown. */
  endLine?: number;
  /** Omitted when unknown. */
  endColumn?: number;
  /** What this location is ("defined here", "reference section"). */
  message: string;
}

/** One finding. Every key is always present except `suggestion`, `fix` and `url`, which are omitted when absent. */
export interface JsonResult {
  /** Project-relative POSIX path (never cwd-relative, so reports compare across machines). */
  file: string;
  /** 1-based; 0 when the finding concerns the whole file. */
  line: number;
  /** 1-based, UTF-16 code units; 0 when unknown. */
  column: number;
  /** End of the range (exclusive), or null when the finding is a point. */
  endLine: number | null;
  endColumn: number | null;
  ruleId: string;
  /** Key into the rule's messages; stable across wording changes. */
  messageId: string;
  severity: 'error' | 'warn';
  /** The rendered message. */
  message: string;
  /** Values interpolated into the message, keys sorted. */
  data: Record<string, string>;
  related: JsonRelated[];
  /** Suggested replacement or text to add. */
  suggestion?: string;
  /** Automatic fix: replace UTF-16 offsets `[start, end)` of `file` with `text`. */
  fix?: { file: string; start: number; end: number; text: string };
  /** Documentation of the rule. */
  url?: string;
}

/**
 * The whole report: `{ version: 1, results, summary }`. `results` are sorted by file, line,
 * column, rule id (then message id and text). `version` changes only when a key is removed or
 * changes meaning; new optional keys may appear within a version.
 */
export interface JsonReport {
  version: 1;
  results: JsonResult[];
  /** `suppressedCount`: findings dropped by suppression comments and the baseline (present when the CLI knows it). */
  summary: { errors: number; warnings: number; suppressedCount?: number };
  /** What the run could not check, one sentence each, as printed on stderr (present when the CLI knows it; may be empty). */
  notes?: string[];
  /** Coverage per command, in discovery order (present when the CLI knows it). */
  commands?: JsonCommand[];
  /**
   * Whether the run checked anything (present when the CLI knows it): `status` `checked` or
   * `unchecked` (nothing was compared: exit 2 unless `allowed`), the commands compared with a
   * document and the others, and for an unchecked run the `reason`.
   */
  verdict?: JsonVerdict;
}

/** {@link JsonReport.verdict}; `reason` is present when `status` is `unchecked`. */
export interface JsonVerdict {
  status: 'checked' | 'unchecked';
  checkedCommands: number;
  uncheckedCommands: number;
  reason?: string;
  /** An unchecked run that `--allow-unchecked` or `allowUnchecked: true` made expected (exit 0). */
  allowed: boolean;
}

function jsonVerdict(v: ReportVerdict): JsonVerdict {
  return {
    status: v.status,
    checkedCommands: v.checkedCommands,
    uncheckedCommands: v.uncheckedCommands,
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    allowed: v.allowed,
  };
}

/**
 * One command in {@link JsonReport.commands}. `parameters`, `documented`, `used`, `explained` are
 * present when `paramsKnown` is true: parameters in code (hidden, positional, global and ignored
 * ones left out), of those documented by a reference row, used in examples, and explained in
 * every document that uses them; `parameterNames` are the canonical names of the `parameters`
 * counted, sorted by code point. `unknownReason` is present when `paramsKnown` is false.
 */
export interface JsonCommand {
  name: string;
  aliases: string[];
  paramsKnown: boolean;
  /** Reference sections documenting it (global sections excluded). */
  sections: number;
  /** Where its parameters came from (`pydantic class X (file:line)`, `CLI flags in file:line`). */
  source?: string;
  unknownReason?: string;
  parameters?: number;
  documented?: number;
  used?: number;
  explained?: number;
  /** The names counted in `parameters` (a flag's long name without dashes), sorted; present when `paramsKnown` is true. */
  parameterNames?: string[];
}

function jsonCommands(commands: NonNullable<FormatterOptions['commands']>): JsonCommand[] {
  return commands.map((c) => ({
    name: c.name,
    aliases: [...c.aliases],
    paramsKnown: c.paramsKnown,
    sections: c.sections,
    ...(c.source !== undefined ? { source: c.source } : {}),
    ...(c.unknownReason !== undefined ? { unknownReason: c.unknownReason } : {}),
    ...(c.coverage ?? {}),
    ...(c.parameterNames !== undefined ? { parameterNames: [...c.parameterNames] } : {}),
  }));
}

function sortedData(data: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(data ?? {}).sort(compareStrings)) out[key] = String(data![key]);
  return out;
}

/** One message as a {@link JsonResult}. */
function jsonResult(m: DriftMessage): JsonResult {
  const end = endOf(m);
  const result: JsonResult = {
    file: m.file ?? '',
    line: m.line ?? 0,
    column: m.column ?? 0,
    endLine: end.line ?? null,
    endColumn: end.column ?? null,
    ruleId: m.ruleId ?? '',
    messageId: m.messageId ?? '',
    severity: severityOf(m),
    message: m.reason,
    data: sortedData(m.data),
    related: (m.related ?? []).map(
      (r): JsonRelated => ({
        file: r.file,
        line: r.line,
        column: r.column,
        ...(r.endLine !== undefined ? { endLine: r.endLine } : {}),
        ...(r.endColumn !== undefined ? { endColumn: r.endColumn } : {}),
        message: r.message,
      }),
    ),
  };
  if (m.suggestion !== undefined) result.suggestion = m.suggestion;
  if (m.fix) result.fix = { file: m.fix.file, start: m.fix.start, end: m.fix.end, text: m.fix.text };
  if (m.url) result.url = m.url;
  return result;
}

/** The report's `summary` from the messages (each counted, whatever the report carries). */
function jsonSummary(messages: readonly DriftMessage[], suppressedCount: number | undefined): JsonReport['summary'] {
  let errors = 0;
  for (const m of messages) if (severityOf(m) === 'error') errors++;
  const summary: JsonReport['summary'] = { errors, warnings: messages.length - errors };
  if (suppressedCount !== undefined) summary.suppressedCount = suppressedCount;
  return summary;
}

/** Builds the {@link JsonReport} object (what {@link formatJson} serialises); `suppressedCount` goes into the summary when given. */
export function toJsonReport(messages: readonly DriftMessage[], suppressedCount?: number): JsonReport {
  return { version: 1, results: sortMessages(messages).map(jsonResult), summary: jsonSummary(messages, suppressedCount) };
}

/** The report without its results (an empty array), with the options' `notes`, `commands` and `verdict`. */
function jsonSkeleton(messages: readonly DriftMessage[], options: FormatterOptions | undefined): JsonReport {
  const report: JsonReport = { version: 1, results: [], summary: jsonSummary(messages, options?.suppressedCount) };
  if (options?.notes) report.notes = [...options.notes];
  if (options?.commands) report.commands = jsonCommands(options.commands);
  if (options?.verdict) report.verdict = jsonVerdict(options.verdict);
  return report;
}

/**
 * Writes the {@link formatJson} text to `sink` piece by piece, each result serialised on its own
 * (the whole report is never one object nor one string: #33 s31 D6). The pieces joined equal
 * {@link formatJson}'s text; `sink`'s errors propagate.
 */
export function streamJson(messages: readonly DriftMessage[], options: FormatterOptions | undefined, sink: ReportSink): void {
  const sorted = sortMessages(messages);
  streamJsonDocument(sink, jsonSkeleton(messages, options), ['results'], sorted.length, (i) => jsonResult(sorted[i]!));
}

/**
 * Formats messages as a {@link JsonReport}, pretty-printed with two-space indentation and a final
 * newline. Of the options only `suppressedCount`, `notes`, `commands` and `verdict` are used; paths stay project-relative.
 */
export function formatJson(messages: DriftMessage[], options?: FormatterOptions): string {
  const parts: string[] = [];
  streamJson(messages, options, (chunk) => parts.push(chunk));
  return parts.join('');
}
