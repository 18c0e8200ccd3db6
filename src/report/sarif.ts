/** The `sarif` formatter: a SARIF 2.1.0 log for code-scanning services (GitHub, Azure DevOps, IDE viewers). */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import { fingerprints } from '../engine/fingerprint.js';
import { PROJECT_URL, ruleDocsUrl } from '../engine/rule-docs.js';
import type { DriftMessage, RuleMeta } from '../model/rule.js';
import { rules as builtinRules } from '../../rules/index.js';
import { engineRules } from '../engine/engine-rules.js';
import { endOf, severityOf, sortMessages } from './sort.js';
import { type ReportSink, streamJsonDocument } from './stream.js';
import type { FormatterOptions } from './types.js';

/** The JSON schema URI a SARIF 2.1.0 log names in `$schema` (SARIF 2.1.0 §3.13.3). */
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The `partialFingerprints` key under which the line-free finding identity is stored. */
export const SARIF_FINGERPRINT_KEY = 'docdriftFinding/v1';

/**
 * The `uriBaseId` every artifact location is relative to: the current directory when the project
 * root is inside it (in GitHub Actions, the workspace, i.e. the repository root, also when the
 * action's `root` is a subdirectory, so code scanning and annotations name the same paths), else
 * the project root.
 */
export const SARIF_SRCROOT = '%SRCROOT%';

/**
 * A root-relative POSIX path as a relative URI reference: each segment percent-encoded, so spaces,
 * `#`, `%` and `:` (which would read as a scheme) survive (SARIF 2.1.0 §3.4.3, RFC 3986 §4.2).
 */
export function toRelativeUri(file: string): string {
  return file
    .split('\\')
    .join('/')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** `example-param-unknown` → `ExampleParamUnknown`: SARIF recommends a Pascal-case `name` (§3.49.7). */
function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

function sarifLevel(severity: 'error' | 'warn'): 'error' | 'warning' {
  return severity === 'error' ? 'error' : 'warning';
}

/**
 * A region from 1-based positions with an exclusive end (docdrift's convention, which is also
 * SARIF's for text regions, §3.30.5–§3.30.8). Undefined when the line is unknown (0): the
 * location is then the whole file. A column of 0 (unknown) gives a line-only region.
 */
function region(line: number | undefined, column: number | undefined, endLine?: number, endColumn?: number): Sarif.Region | undefined {
  if (!line || line < 1) return undefined;
  const r: Sarif.Region = { startLine: line };
  if (column && column >= 1) r.startColumn = column;
  if (endLine !== undefined && endLine >= line) {
    r.endLine = endLine;
    if (r.startColumn !== undefined && endColumn !== undefined && endColumn >= 1 && (endLine > line || endColumn >= column!)) {
      r.endColumn = endColumn;
    }
  }
  return r;
}

/** The directory `%SRCROOT%` stands for, and the root's path below it (`''` or `sub/dir/`). */
function sarifBase(options: FormatterOptions): { base: string; prefix: string } {
  if (options.cwd !== undefined) {
    const rel = path.relative(options.cwd, options.root);
    if (rel === '') return { base: options.root, prefix: '' };
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return { base: options.cwd, prefix: `${rel.split(path.sep).join('/')}/` };
  }
  return { base: options.root, prefix: '' };
}

function physicalLocation(prefix: string, file: string, r: Sarif.Region | undefined): Sarif.PhysicalLocation {
  return {
    artifactLocation: { uri: toRelativeUri(prefix + file), uriBaseId: SARIF_SRCROOT },
    ...(r ? { region: r } : {}),
  };
}

/**
 * A rule's `help` (SARIF §3.49.13; GitHub shows it on the alert page and asks for it): what the
 * rule checks, whether `--fix` corrects it, its options and the link to its page, as plain text
 * and as Markdown.
 */
export function ruleHelp(meta: RuleMeta): Sarif.MultiformatMessageString {
  const url = ruleDocsUrl(meta.id);
  const options = Object.entries(meta.options);
  const fix = meta.fixable ? 'docdrift --fix can correct it.' : '';
  const text = [meta.description, fix, options.length > 0 ? `Options: ${options.map(([k, o]) => `${k} (${o.description})`).join('; ')}.` : '', `Examples and options: ${url}`]
    .filter(Boolean)
    .join('\n');
  const markdown = [
    `**${meta.id}**: ${meta.description}`,
    meta.fixable ? '`docdrift --fix` can correct it.' : '',
    options.length > 0 ? `Options:\n\n${options.map(([k, o]) => `- \`${k}\`: ${o.description}`).join('\n')}` : '',
    `[Examples and options](${url})`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { text, markdown };
}

/** One `reportingDescriptor` (SARIF §3.49) from a rule's meta. */
export function sarifRule(meta: RuleMeta): Sarif.ReportingDescriptor {
  return {
    id: meta.id,
    name: pascalCase(meta.id),
    shortDescription: { text: meta.description },
    fullDescription: {
      text: `${meta.description}${meta.fixable ? ' `--fix` can correct it.' : ''} See ${ruleDocsUrl(meta.id)} for examples and options.`,
    },
    helpUri: ruleDocsUrl(meta.id),
    help: ruleHelp(meta),
    defaultConfiguration: { level: sarifLevel(meta.defaultSeverity) },
    properties: {
      fixable: meta.fixable,
      messageIds: Object.keys(meta.messages),
      options: Object.keys(meta.options),
    },
  };
}

/** Builds a SARIF `result` (§3.27) from one message. */
function sarifResult(m: DriftMessage, fingerprint: string, ruleIndex: Map<string, number>, prefix: string): Sarif.Result {
  const ruleId = m.ruleId ?? 'docdrift';
  const end = endOf(m);
  const result: Sarif.Result = {
    ruleId,
    ...(ruleIndex.has(ruleId) ? { ruleIndex: ruleIndex.get(ruleId)! } : {}),
    level: sarifLevel(severityOf(m)),
    message: { text: m.reason },
    locations: m.file ? [{ physicalLocation: physicalLocation(prefix, String(m.file), region(m.line, m.column, end.line, end.column)) }] : [],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint },
  };
  const related = m.related ?? [];
  if (related.length > 0) {
    result.relatedLocations = related.map((rel, id) => ({
      id,
      physicalLocation: physicalLocation(prefix, rel.file, region(rel.line, rel.column, rel.endLine, rel.endColumn)),
      message: { text: rel.message || 'related location' },
    }));
  }
  if (m.fix) {
    result.fixes = [
      {
        description: { text: m.suggestion !== undefined ? `Replace with: ${m.suggestion}` : 'Apply the suggested edit.' },
        artifactChanges: [
          {
            artifactLocation: { uri: toRelativeUri(prefix + m.fix.file), uriBaseId: SARIF_SRCROOT },
            replacements: [
              {
                deletedRegion: { charOffset: m.fix.start, charLength: Math.max(0, m.fix.end - m.fix.start) },
                insertedContent: { text: m.fix.text },
              },
            ],
          },
        ],
      },
    ];
  }
  return result;
}

/** The `descriptor.id` of the notification that says a run checked nothing. */
export const SARIF_UNCHECKED_ID = 'nothing-checked';

/**
 * The run's `invocation` (SARIF 2.1.0 §3.20): `executionSuccessful` is false when the run checked
 * nothing and that was not allowed (the CLI exits 2, §3.20.14); the run's notes are
 * `toolExecutionNotifications` (§3.20.21, §3.58) of level `note`, and an unchecked verdict one of
 * level `error` (`warning` when allowed) with descriptor id {@link SARIF_UNCHECKED_ID}.
 */
export function sarifInvocation(verdict: NonNullable<FormatterOptions['verdict']>, notes: readonly string[]): Sarif.Invocation {
  const notifications: Sarif.Notification[] = notes.map((text) => ({ level: 'note', message: { text } }));
  if (verdict.status === 'unchecked') {
    notifications.push({
      level: verdict.allowed ? 'warning' : 'error',
      message: { text: `nothing was checked: ${verdict.reason ?? 'no command was compared with any document'}.` },
      descriptor: { id: SARIF_UNCHECKED_ID },
    });
  }
  return {
    executionSuccessful: verdict.status === 'checked' || verdict.allowed,
    ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
    properties: { checkedCommands: verdict.checkedCommands, uncheckedCommands: verdict.uncheckedCommands },
  };
}

/**
 * Builds a SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html) with
 * one run:
 * - `tool.driver`: name `docdrift`, `version` (from `options.version`), `informationUri`, and
 *   `rules[]` with every rule's meta (id, Pascal-case name, descriptions, `helpUri` = the rule's
 *   docs, `help` ({@link ruleHelp}), `defaultConfiguration.level`, `properties.fixable`);
 * - `results[]`, sorted like every formatter: `ruleId` + `ruleIndex`, `level` (`error`/`warning`),
 *   `message.text`, one `physicalLocation` whose `artifactLocation.uri` is relative to
 *   `%SRCROOT%` (see {@link SARIF_SRCROOT}), a region (end included when known; none when the line is unknown),
 *   `relatedLocations` (ids 0…n-1) from the message's related locations, `partialFingerprints`
 *   `{ "docdriftFinding/v1": … }` from {@link fingerprints} (line-free, so a finding keeps its
 *   identity when lines move), and `fixes` when the message carries an automatic fix;
 * - `invocations` ({@link sarifInvocation}) when the run's verdict is given;
 * - `originalUriBaseIds` mapping `%SRCROOT%` to its directory's `file:` URI, and `columnKind`
 *   `utf16CodeUnits` (docdrift's columns, like remark's, count UTF-16 code units).
 *
 * @param ruleMetas the rules to describe; defaults to every built-in rule, then the engine's own
 *   (`unused-suppression`, `baseline-entry-stale`).
 */
export function toSarifLog(
  messages: readonly DriftMessage[],
  options: FormatterOptions,
  ruleMetas: readonly RuleMeta[] = defaultRuleMetas(),
): Sarif.Log {
  const { log, count, result } = sarifParts(messages, options, ruleMetas);
  log.runs[0]!.results = Array.from({ length: count }, (_, i) => result(i));
  return log;
}

/** Every built-in rule's meta, then the engine's own (`unused-suppression`, `baseline-entry-stale`). */
function defaultRuleMetas(): RuleMeta[] {
  return [...builtinRules, ...engineRules].map((r) => r.meta);
}

/** The log with an empty `results` array, and how to build each of its `count` results (in report order). */
function sarifParts(
  messages: readonly DriftMessage[],
  options: FormatterOptions,
  ruleMetas: readonly RuleMeta[],
): { log: Sarif.Log & { runs: [Sarif.Run] }; count: number; result: (index: number) => Sarif.Result } {
  const sorted = sortMessages(messages);
  const prints = fingerprints(sorted);
  const ruleIndex = new Map(ruleMetas.map((meta, i) => [meta.id, i]));
  const { base, prefix } = sarifBase(options);
  const rootUri = pathToFileURL(base).href;
  const log: Sarif.Log & { runs: [Sarif.Run] } = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'docdrift',
            ...(options.version ? { version: options.version, semanticVersion: options.version } : {}),
            informationUri: PROJECT_URL,
            rules: ruleMetas.map(sarifRule),
          },
        },
        originalUriBaseIds: {
          [SARIF_SRCROOT]: { uri: rootUri.endsWith('/') ? rootUri : `${rootUri}/` },
        },
        columnKind: 'utf16CodeUnits',
        results: [],
        ...(options.verdict ? { invocations: [sarifInvocation(options.verdict, options.notes ?? [])] } : {}),
      },
    ],
  };
  return { log, count: sorted.length, result: (i) => sarifResult(sorted[i]!, prints[i]!, ruleIndex, prefix) };
}

/**
 * Writes the {@link formatSarif} text to `sink` piece by piece, each result serialised on its own
 * (the log is never one object tree nor one string: #33 s31 D6). The pieces joined equal
 * {@link formatSarif}'s text; `sink`'s errors propagate.
 */
export function streamSarif(messages: readonly DriftMessage[], options: FormatterOptions, sink: ReportSink, ruleMetas: readonly RuleMeta[] = defaultRuleMetas()): void {
  const { log, count, result } = sarifParts(messages, options, ruleMetas);
  streamJsonDocument(sink, log, ['runs', 0, 'results'], count, result);
}

/** Formats messages as a SARIF 2.1.0 log ({@link toSarifLog}), two-space indented, final newline. */
export function formatSarif(messages: DriftMessage[], options: FormatterOptions): string {
  const parts: string[] = [];
  streamSarif(messages, options, (chunk) => parts.push(chunk));
  return parts.join('');
}
