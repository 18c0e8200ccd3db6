/**
 * Golden-file fixtures shared by the extractor tests: each folder under a cases directory is one
 * case whose result must equal its `expected.json`; `UPDATE_EXPECTED=1` rewrites the files
 * instead (review the diff by hand).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file below `dir`, recursively, as absolute paths. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

/** One test per case folder of `casesDir`, comparing `runCase(caseDir)` with its expected.json. */
export function describeGoldenCases(title: string, casesDir: string, runCase: (caseDir: string) => Promise<unknown>): void {
  describe(title, () => {
    const cases = readdirSync(casesDir).filter((name) => statSync(join(casesDir, name)).isDirectory()).sort();
    it('has fixture cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });
    for (const name of cases) {
      it(name, async () => {
        const caseDir = join(casesDir, name);
        const actual = await runCase(caseDir);
        const expectedPath = join(caseDir, 'expected.json');
        if (process.env.UPDATE_EXPECTED === '1') {
          writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
          return;
        }
        expect(actual).toEqual(JSON.parse(readFileSync(expectedPath, 'utf8')) as unknown);
      });
    }
  });
}
