/**
 * Reference-layout fixtures (issue #13): `fixtures/layouts/<kind>/{valid,invalid}/` are twin mini
 * repositories with the same code and the same documentation shape (a pasted `--help` block, a
 * list split by prose, a content tab…). Every rule runs: the valid twin must give no message and
 * must have its reference read (a section with rows), the invalid twin exactly `expected.json`.
 * `UPDATE_EXPECTED=1` rewrites the expected files, to be reviewed as a diff.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, lintTwin as run } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/layouts');

for (const kind of readdirSync(FIXTURES).filter((d) => !d.startsWith('.')).sort()) {
  describe(kind, () => {
    it('valid twin: no message of any rule, and the reference was read', async () => {
      const { result, messages } = await run(path.join(FIXTURES, kind, 'valid'));
      expect(result.failures).toEqual([]);
      expect(result.configProblems).toEqual([]);
      expect(messages).toEqual([]);
      expect(result.model.sections.some((s) => s.rows.length > 0)).toBe(true);
    });
    it('invalid twin: exactly the expected findings', async () => {
      const dir = path.join(FIXTURES, kind, 'invalid');
      const { result, messages } = await run(dir);
      expect(result.failures).toEqual([]);
      expectGolden(dir, messages);
    });
  });
}
