/**
 * A finding's identity that survives edits: rule id, command, parameter and file, never a line
 * number. Shared by the baseline (`--baseline`) and SARIF `partialFingerprints`, so both agree
 * on what "the same finding" is. (`--changed-since` selects by changed files instead: see
 * `changed.ts`.)
 */
import { createHash } from 'node:crypto';
import type { DriftMessage } from '../model/rule.js';

/** The parts of a finding's identity. `subject` is the parameter (or key, or message for parse errors). */
export interface FindingKey {
  ruleId: string;
  /** Root-relative file, `/`-separated. */
  file: string;
  /** The command the finding is about; '' for findings not about one (parse errors). */
  command: string;
  /** The parameter name, example key, or (for parse errors) the message text. */
  subject: string;
}

/**
 * The identity of `message`: `data.subject` (a rule's explicit identity, when its other data
 * can change without the finding changing), else `data.name`, else `data.key`, else
 * `data.params`, else the reason, as subject. Several findings may share a key (one parameter used in three examples of one
 * README); callers that need uniqueness count occurrences (see {@link fingerprints}).
 */
export function findingKey(message: DriftMessage): FindingKey {
  const data = message.data ?? {};
  return {
    ruleId: message.ruleId ?? '',
    file: String(message.file ?? '').split('\\').join('/'),
    command: data.command ?? '',
    subject: data.subject ?? data.name ?? data.key ?? data.params ?? data.message ?? message.reason,
  };
}

/** `findingKey` as one string, `ruleId|file|command|subject`. */
export function findingKeyString(message: DriftMessage): string {
  const k = findingKey(message);
  return [k.ruleId, k.file, k.command, k.subject].join('|');
}

/**
 * A stable fingerprint per message, in input order: sha256 of the key string plus the
 * occurrence index among messages with the same key (`…|0`, `…|1`), hex, 32 characters.
 * Sort messages first (`sortMessages`) so occurrence order is deterministic.
 */
export function fingerprints(messages: DriftMessage[]): string[] {
  const seen = new Map<string, number>();
  return messages.map((m) => {
    const key = findingKeyString(m);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return createHash('sha256').update(`${key}|${n}`).digest('hex').slice(0, 32);
  });
}
