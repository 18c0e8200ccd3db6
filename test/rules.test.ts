/**
 * Rule fixtures: every `fixtures/rules/<rule-id>/{valid,invalid}/<case>/` is a mini repository.
 * Valid cases must produce no message of that rule; invalid cases exactly the messages in
 * `expected.json`. `UPDATE_EXPECTED=1 npx vitest run test/rules.test.ts` rewrites the expected
 * files, to be reviewed as a diff.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/rules');
const update = process.env.UPDATE_EXPECTED === '1';

function cases(ruleId: string, kind: 'valid' | 'invalid'): string[] {
  const dir = path.join(FIXTURES, ruleId, kind);
  return existsSync(dir) ? readdirSync(dir).filter((d) => !d.startsWith('.')).sort() : [];
}

async function messagesOf(ruleId: string, dir: string) {
  const { config } = loadConfig(dir, undefined, ruleIds);
  const result = await lint({ root: dir, config });
  expect(result.failures).toEqual([]);
  return result.messages
    .filter((m) => m.ruleId === ruleId)
    .map((m) => ({ file: m.file, line: m.line, column: m.column, ruleId: m.ruleId, messageId: m.messageId, data: m.data }));
}

for (const ruleId of ruleIds) {
  // Every rule module must have fixtures (test/rules-meta.test.ts); of the engine's own rules,
  // `baseline-entry-stale` needs a baseline file and is tested in test/baseline.test.ts.
  if (cases(ruleId, 'valid').length + cases(ruleId, 'invalid').length === 0) continue;
  describe(ruleId, () => {
    for (const name of cases(ruleId, 'valid')) {
      it(`valid: ${name}`, async () => {
        expect(await messagesOf(ruleId, path.join(FIXTURES, ruleId, 'valid', name))).toEqual([]);
      });
    }
    for (const name of cases(ruleId, 'invalid')) {
      it(`invalid: ${name}`, async () => {
        const dir = path.join(FIXTURES, ruleId, 'invalid', name);
        const actual = await messagesOf(ruleId, dir);
        const expectedFile = path.join(dir, 'expected.json');
        if (update) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
        const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as unknown[];
        expect(expected.length).toBeGreaterThan(0);
        expect(actual).toEqual(expected);
      });
    }
  });
}
