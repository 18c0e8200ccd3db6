/**
 * Pure conversions between docdrift's findings and the Language Server Protocol's shapes, for the
 * `docdrift lsp` server (src/lsp/server.ts): positions, diagnostics, and the WorkspaceEdit of a
 * finding's fix. No I/O, no connection: unit-tested on their own (test/lsp-convert.test.ts).
 */
import type { DriftMessage } from '../model/rule.js';
import { lineIndexAt, lineStarts } from '../shared/strings.js';

/** An LSP position: 0-based line, 0-based character in UTF-16 code units (the protocol's default encoding). */
export interface LspPosition {
  line: number;
  character: number;
}

/** An LSP range; `end` is exclusive. */
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** LSP `DiagnosticSeverity`: Error 1, Warning 2, Information 3, Hint 4. */
export type LspSeverity = 1 | 2 | 3 | 4;

/** The subset of an LSP `Diagnostic` the server publishes. */
export interface LspDiagnostic {
  range: LspRange;
  severity: LspSeverity;
  /** The rule id (`example-param-unknown`, …). */
  code: string;
  /** Always `docdrift`. */
  source: 'docdrift';
  message: string;
  /** The rule's documentation, when the finding has a URL. */
  codeDescription?: { href: string };
  /** A key the caller attaches to the diagnostic (the server attaches none: its code actions find the finding by file and range in its last run). */
  data?: { key: string };
}

/**
 * A finding's severity as an LSP severity: `error` → Error (1), `warn` → Warning (2), `info` →
 * Information (3); anything else (a plain VFileMessage) by its `fatal` flag.
 */
export function lspSeverity(severity: string | undefined, fatal?: boolean | null): LspSeverity {
  if (severity === 'error') return 1;
  if (severity === 'warn') return 2;
  if (severity === 'info') return 3;
  return fatal ? 1 : 2;
}

/**
 * A 1-based docdrift point (line, column in UTF-16 code units, as the stylish and JSON reports
 * give it) as a 0-based LSP position. Line or column 0 or missing (a finding about the whole file,
 * an unknown column) becomes 0.
 */
export function toLspPosition(line: number | undefined | null, column: number | undefined | null): LspPosition {
  return { line: Math.max(0, (line ?? 0) - 1), character: Math.max(0, (column ?? 0) - 1) };
}

/**
 * The LSP range of a finding: its place's start to its end (exclusive, as docdrift's ends are);
 * a point finding is an empty range at the point (editors widen it to the word).
 */
export function findingRange(message: DriftMessage): LspRange {
  const start = toLspPosition(message.line, message.column);
  const place = message.place;
  if (place && 'end' in place && place.end.line !== undefined) {
    const end = toLspPosition(place.end.line, place.end.column);
    // A malformed place (end before start) is shown as a point rather than refused by the client.
    if (end.line > start.line || (end.line === start.line && end.character >= start.character)) return { start, end };
  }
  return { start, end: start };
}

/** A finding as an LSP diagnostic: range, severity, `code` = rule id, `source` = `docdrift`, the rendered message. */
export function toDiagnostic(message: DriftMessage, key?: string): LspDiagnostic {
  return {
    range: findingRange(message),
    severity: lspSeverity(message.severity, message.fatal),
    code: message.ruleId ?? 'docdrift',
    source: 'docdrift',
    message: message.reason,
    ...(message.url ? { codeDescription: { href: message.url } } : {}),
    ...(key !== undefined ? { data: { key } } : {}),
  };
}

/**
 * The line starts of a text, computed once per text so that {@link offsetToPosition} is a binary
 * search, not a scan from the top per offset (s29 sweep2 D2: a whole-document code action on a 1 MB
 * page with 20,000 fixes below 80,000 lines cost 30.5 s; now 0.71 s wall). Lines end at `\r\n`,
 * `\r` or `\n`, which are also LSP's line endings.
 */
export { lineStarts };

/**
 * The 0-based LSP position of a UTF-16 offset in `text` (docdrift's `TextEdit` offsets), lines as
 * {@link lineStarts} ends them. An offset past the end is
 * clamped to the end. `starts`: {@link lineStarts} of `text`, when the caller converts many
 * offsets of one text (computed here otherwise).
 */
export function offsetToPosition(text: string, offset: number, starts: readonly number[] = lineStarts(text)): LspPosition {
  const at = Math.max(0, Math.min(offset, text.length));
  const line = lineIndexAt(starts, at);
  return { line, character: at - starts[line]! };
}

/** Whether two LSP ranges overlap or touch (a cursor at a finding's edge still asks for its fix). */
export function rangesTouch(a: LspRange, b: LspRange): boolean {
  const before = (p: LspPosition, q: LspPosition): boolean => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** The title of the quick fix of a finding: what the edit does, in the words of the rule's fix. */
export function fixTitle(message: DriftMessage): string {
  const fix = message.fix!;
  const rule = message.ruleId ?? 'docdrift';
  if (fix.start === fix.end) return `docdrift: insert ${firstLine(fix.text)} (${rule})`;
  if (fix.text === '') return `docdrift: delete the text (${rule})`;
  return `docdrift: replace with ${firstLine(fix.text)} (${rule})`;
}

function firstLine(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
