/** Inline suppressions: drops findings covered by `docdrift-disable…` comments and reports unused ones. */
import { suggestNames } from '../shared/names.js';
import type { Point } from '../docs/position.js';
import type { SuppressionDirective } from '../docs/directives.js';
import { unusedSuppression } from './engine-rules.js';
import { createMessage } from './run-rules.js';
import type { DriftMessage, Severity } from '../model/rule.js';

/** What {@link applySuppressions} returns. */
export interface SuppressionOutcome {
  /** Findings no directive covers, then the `unused-suppression` reports (unsorted). */
  messages: DriftMessage[];
  /** Findings a directive covers; they appear in no report, only in `suppressedCount`. */
  suppressed: DriftMessage[];
}

function before(a: Point, b: Point): boolean {
  return a.line < b.line || (a.line === b.line && a.column <= b.column);
}

/** Which directive (and which of its rule entries, `'*'` for all) covers one finding, if any. */
function coveringDirective(
  directives: readonly SuppressionDirective[],
  message: DriftMessage,
): { index: number; rule: string } | undefined {
  const ruleId = message.ruleId ?? '';
  const line = message.line ?? 0;
  const at: Point = { line, column: message.column ?? 0 };
  const names = (d: SuppressionDirective): { index: number; rule: string } | undefined =>
    d.rules.length === 0 ? { index: -1, rule: '*' } : d.rules.some((r) => r.id === ruleId) ? { index: -1, rule: ruleId } : undefined;
  // Line directives first: they say the most about this one line.
  for (const [index, d] of directives.entries()) {
    const onLine =
      (d.kind === 'disable-next-line' && line === d.end.line + 1) ||
      (d.kind === 'disable-line' && line >= d.start.line && line <= d.end.line);
    const hit = onLine ? names(d) : undefined;
    if (hit) return { index, rule: hit.rule };
  }
  // Blocks: replay disable/enable comments before the finding (ESLint's semantics: `enable x`
  // inside a `disable` of every rule re-enables x alone).
  let all: number | undefined;
  const exceptions = new Set<string>();
  const byRule = new Map<string, number>();
  for (const [index, d] of directives.entries()) {
    if ((d.kind !== 'disable' && d.kind !== 'enable') || !before(d.end, at)) continue;
    if (d.kind === 'disable' && d.rules.length === 0) {
      all = index;
      exceptions.clear();
      byRule.clear();
    } else if (d.kind === 'enable' && d.rules.length === 0) {
      all = undefined;
      exceptions.clear();
      byRule.clear();
    } else {
      for (const r of d.rules) {
        if (d.kind === 'disable') {
          byRule.set(r.id, index);
          exceptions.delete(r.id);
        } else {
          byRule.delete(r.id);
          if (all !== undefined) exceptions.add(r.id);
        }
      }
    }
  }
  const own = byRule.get(ruleId);
  if (own !== undefined) return { index: own, rule: ruleId };
  if (all !== undefined && !exceptions.has(ruleId)) return { index: all, rule: '*' };
  return undefined;
}

/**
 * Applies inline suppressions (markdownlint/ESLint style comments, read by `readDirectives`).
 *
 * A finding is suppressed when it has a line and a directive of its file covers it: a
 * `disable-next-line` comment ending on the line before, a `disable-line` comment on its line,
 * or a `disable` comment before it with no `enable` for its rule in between; with rule ids only
 * findings of those rules, without any every finding. Findings without a line (0) are never
 * suppressed.
 *
 * Unless `severity` is `off`, each `disable*` directive is then checked the way ESLint's
 * `reportUnusedDisableDirectives` does (https://eslint.org/docs/latest/use/configure/rules#report-unused-eslint-disable-comments):
 * - a rule id that is not in `knownRuleIds` is an `unused-suppression` `unknownRule` finding at
 *   the id, always of severity `error` (a typo that silently suppresses nothing is a config
 *   mistake), with the nearest rule id suggested;
 * - a known rule id that suppressed nothing is an `unused` finding at the id (`data.name` the id);
 * - a directive without rule ids that suppressed nothing is an `unusedAll` finding at the comment.
 * `enable` comments are never reported.
 *
 * @param messages every rule's findings (any files).
 * @param directives the directives of every document that has some, each in document order.
 * @param knownRuleIds the rule ids a directive may name.
 * @param severity the configured severity of `unused-suppression`.
 */
export function applySuppressions(
  messages: readonly DriftMessage[],
  directives: readonly SuppressionDirective[],
  knownRuleIds: readonly string[],
  severity: Severity,
): SuppressionOutcome {
  const byFile = new Map<string, SuppressionDirective[]>();
  for (const d of directives) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const used = new Map<string, Set<string>>();
  const kept: DriftMessage[] = [];
  const suppressed: DriftMessage[] = [];
  for (const m of messages) {
    const list = m.file === undefined ? undefined : byFile.get(m.file);
    const hit = list && (m.line ?? 0) > 0 ? coveringDirective(list, m) : undefined;
    if (!hit) {
      kept.push(m);
      continue;
    }
    suppressed.push(m);
    const key = `${m.file}#${hit.index}`;
    const set = used.get(key) ?? new Set<string>();
    set.add(hit.rule);
    used.set(key, set);
  }
  if (severity === 'off') return { messages: kept, suppressed };

  const known = new Set(knownRuleIds);
  for (const [file, list] of byFile) {
    for (const [index, d] of list.entries()) {
      if (d.kind === 'enable') continue;
      const usedHere = used.get(`${file}#${index}`) ?? new Set<string>();
      if (d.rules.length === 0) {
        if (!usedHere.has('*')) {
          kept.push(
            createMessage(unusedSuppression, severity, {
              messageId: 'unusedAll',
              data: { kind: d.kind },
              location: { file, line: d.start.line, column: d.start.column, endLine: d.end.line, endColumn: d.end.column },
            }),
          );
        }
        continue;
      }
      for (const r of d.rules) {
        const location = { file, line: r.line, column: r.column, endLine: r.line, endColumn: r.column + r.id.length };
        if (!known.has(r.id)) {
          const near = suggestNames(r.id, [...known], 1)[0];
          kept.push(
            createMessage(unusedSuppression, 'error', {
              messageId: 'unknownRule',
              data: { kind: d.kind, name: r.id, hint: near ? `Did you mean \`${near}\`?` : 'The rules are listed in docs/rules.md.' },
              location,
              ...(near ? { suggestion: near } : {}),
            }),
          );
        } else if (!usedHere.has(r.id)) {
          kept.push(createMessage(unusedSuppression, severity, { messageId: 'unused', data: { kind: d.kind, name: r.id }, location }));
        }
      }
    }
  }
  return { messages: kept, suppressed };
}
