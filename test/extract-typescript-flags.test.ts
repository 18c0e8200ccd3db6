/** Golden-file tests for yargs/commander flag extraction (fixtures/extract/typescript-flags/<case>/expected.json), plus edge-case unit tests. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractTypeScriptFlags, type FlagCommand } from '../src/extract/typescript/flags.js';

const casesDir = fileURLToPath(new URL('../fixtures/extract/typescript-flags/', import.meta.url));
const update = process.env['UPDATE_EXPECTED'] === '1';
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

/** Runs the extractor over a case folder and serialises the result stably. */
async function runCase(caseDir: string): Promise<unknown> {
  const files = listFiles(caseDir).map((path) => relative(caseDir, path).split('\\').join('/'));
  const sources = files.filter((f) => SOURCE.test(f)).map((file) => ({ file, text: readFileSync(join(caseDir, file), 'utf8') }));
  const result = await extractTypeScriptFlags(sources);
  return JSON.parse(JSON.stringify(result));
}

describe('typescript flag extraction fixtures', () => {
  const cases = readdirSync(casesDir).filter((name) => statSync(join(casesDir, name)).isDirectory()).sort();
  it('has fixture cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  for (const name of cases) {
    it(name, async () => {
      const caseDir = join(casesDir, name);
      const actual = await runCase(caseDir);
      const expectedPath = join(caseDir, 'expected.json');
      if (update) {
        writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
        return;
      }
      const expected: unknown = JSON.parse(readFileSync(expectedPath, 'utf8'));
      expect(actual).toEqual(expected);
    });
  }
});

/** `path → [param name, …]` for compact assertions. */
function names(commands: FlagCommand[]): Record<string, string[]> {
  return Object.fromEntries(commands.map((c) => [c.path.join(' '), c.params.map((p) => p.name)]));
}

describe('extractTypeScriptFlags edge cases', () => {
  it('returns nothing for no input and never throws on garbage', async () => {
    expect(await extractTypeScriptFlags([])).toEqual({ commands: [], diagnostics: [] });
    const result = await extractTypeScriptFlags([{ file: 'a.ts', text: "\u0000 yargs(.option('x' ]]] new Command(" }]);
    expect(result.diagnostics.map((d) => [d.location.file, d.severity, d.ruleId])).toEqual([['a.ts', 'warn', 'parse-error']]);
  });
});
