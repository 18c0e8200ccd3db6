/**
 * CLI-framework fixtures (issue #4): `fixtures/frameworks/<framework>/{valid,invalid}/` are twin
 * mini repositories with the same code. Every rule runs: the valid twin must give no message at
 * all, the invalid twin exactly `expected.json` (sub-commands, `--no-x` negation, hidden flags,
 * dash/underscore misspellings, stale and missing rows, and defaults written in another number
 * format). `UPDATE_EXPECTED=1` rewrites the expected files, to be reviewed as a diff.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, lintTwin as run } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/frameworks');

for (const framework of readdirSync(FIXTURES).filter((d) => !d.startsWith('.')).sort()) {
  describe(framework, () => {
    it('valid twin: no message of any rule, and every command has known parameters', async () => {
      const { result, messages } = await run(path.join(FIXTURES, framework, 'valid'));
      expect(result.failures).toEqual([]);
      expect(result.configProblems).toEqual([]);
      expect(messages).toEqual([]);
      expect(result.model.commands.length).toBeGreaterThan(0);
      for (const cmd of result.model.commands) expect({ name: cmd.name, known: cmd.paramsKnown }).toEqual({ name: cmd.name, known: true });
      // The twin is not vacuous: its examples were read as usages of the commands.
      expect(result.model.usages.length).toBeGreaterThan(2);
    });
    it('invalid twin: exactly the expected findings', async () => {
      const dir = path.join(FIXTURES, framework, 'invalid');
      const { result, messages } = await run(dir);
      expect(result.failures).toEqual([]);
      expectGolden(dir, messages);
    });
  });
}
