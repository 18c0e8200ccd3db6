/** Deterministic ordering of messages, shared by every formatter. */
import type { DriftMessage } from '../model/rule.js';
import { compareStrings } from '../shared/strings.js';

export { compareStrings } from '../shared/strings.js';

/**
 * Returns a sorted copy: by file, line, column, rule id, then message id and text (a total order,
 * so equal-looking messages from different runs always print in the same order). Messages
 * without a position sort before positioned ones in their file.
 */
export function sortMessages(messages: readonly DriftMessage[]): DriftMessage[] {
  return [...messages].sort(
    (a, b) =>
      compareStrings(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      compareStrings(a.ruleId ?? '', b.ruleId ?? '') ||
      compareStrings(a.messageId ?? '', b.messageId ?? '') ||
      compareStrings(a.reason, b.reason),
  );
}

/** A message's severity; falls back to `fatal` for plain VFileMessages. */
export function severityOf(message: DriftMessage): 'error' | 'warn' {
  if (message.severity === 'error' || message.severity === 'warn') return message.severity;
  return message.fatal ? 'error' : 'warn';
}

/** End point of a message's place, when it is a range. */
export function endOf(message: DriftMessage): { line?: number; column?: number } {
  const place = message.place;
  if (place && 'end' in place) return { line: place.end.line, column: place.end.column };
  return {};
}
