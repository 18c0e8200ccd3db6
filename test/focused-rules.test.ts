/**
 * A focused rule run (issue #36: the language server works out the open pages' findings first,
 * src/engine/run-rules.ts `runRulesFocused`, `LintOptions.focus`) must report, in its first part,
 * exactly the findings a full run locates in the focus files, and in both parts together exactly
 * the full run's findings. Checked on every rule fixture with each of its documents as the focus,
 * and through `lint` itself (suppression comments split between the parts) on the fixtures that
 * hold suppression comments and on the bundled example.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { ruleIds, rules } from '../src/api.js';
import { configureRules, lint } from '../src/engine/lint.js';
import { runRules, runRulesFocused } from '../src/engine/run-rules.js';
import type { DriftMessage } from '../src/model/rule.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** Every rule fixture case, as `<rule-id>/<valid|invalid>/<case>`. */
function ruleCases(): string[] {
  const out: string[] = [];
  for (const rule of readdirSync(path.join(FIXTURES, 'rules')).sort()) {
    for (const kind of ['valid', 'invalid']) {
      const dir = path.join(FIXTURES, 'rules', rule, kind);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).sort()) if (!name.startsWith('.')) out.push(`${rule}/${kind}/${name}`);
    }
  }
  return out;
}

/** A finding as compared: everything a reporter shows of it. */
const key = (m: DriftMessage): string => JSON.stringify([m.file, m.line, m.column, m.place, m.ruleId, m.messageId, m.severity, m.data, m.related, m.suggestion, m.fix]);
const keys = (ms: readonly DriftMessage[]): string[] => ms.map(key).sort();

describe('runRulesFocused', () => {
  const cases = ruleCases();
  it('finds rule fixtures to check', () => {
    expect(cases.length).toBeGreaterThan(100);
  });
  for (const name of cases) {
    it(`equals a full run on ${name}, each document as the focus`, async () => {
      const root = path.join(FIXTURES, 'rules', name);
      const { config } = loadConfig(root, undefined, ruleIds);
      // The model alone (no rules), so that each rule run below starts from the same model.
      const { model } = await lint({ root, config, rules: [] });
      const configured = configureRules(rules, config.rules);
      const full = runRules(model, configured);
      expect(full.failures).toEqual([]);
      const files = [...new Set([...model.docs.map((d) => d.file), ...full.messages.flatMap((m) => (m.file ? [m.file] : []))])];
      for (const file of files) {
        const inFocus = (f: string): boolean => f === file;
        const run = runRulesFocused(model, configured, inFocus);
        expect(keys(run.messages), `first part, focus ${file}`).toEqual(keys(full.messages.filter((m) => m.file === file)));
        const rest = run.rest();
        expect([...run.failures, ...rest.failures]).toEqual([]);
        expect(keys(rest.messages), `second part, focus ${file}`).toEqual(keys(full.messages.filter((m) => m.file !== file)));
      }
    });
  }

  it('runs the second part only once', () => {
    const run = runRulesFocused({ usages: [], sections: [], commands: [], docs: [] } as never, [], () => true);
    run.rest();
    expect(() => run.rest()).toThrow(/twice/);
  });
});

describe('lint with a focus', () => {
  const roots = [
    path.join(FIXTURES, 'example-python'),
    ...['valid', 'invalid'].flatMap((kind) => {
      const dir = path.join(FIXTURES, 'rules', 'unused-suppression', kind);
      return existsSync(dir) ? readdirSync(dir).map((n) => path.join(dir, n)) : [];
    }),
  ];
  for (const root of roots) {
    it(`gives the focus files' findings first and the whole run's in its result: ${path.relative(FIXTURES, root)}`, async () => {
      const { config } = loadConfig(root, undefined, ruleIds);
      const full = await lint({ root, config, rules });
      const files = [...new Set([...full.model.docs.map((d) => d.file)])];
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const parts: Array<{ messages: DriftMessage[]; suppressed: DriftMessage[] }> = [];
        const focused = await lint({ root, config, rules, focus: { files: new Set([file]), first: async (part) => void parts.push(part) } });
        expect(parts).toHaveLength(1);
        expect(keys(parts[0]!.messages), `first part, focus ${file}`).toEqual(keys(full.messages.filter((m) => m.file === file)));
        expect(keys(parts[0]!.suppressed)).toEqual(keys(full.suppressed.filter((m) => m.file === file)));
        expect(keys(focused.messages)).toEqual(keys(full.messages));
        expect(keys(focused.suppressed)).toEqual(keys(full.suppressed));
        // Sorted as a full run's result is.
        expect(focused.messages.map(key)).toEqual(full.messages.map(key));
      }
    });
  }
});
