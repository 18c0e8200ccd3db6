/** The run-wide bound on commands declared by manifests (s23 sweep D3/D4), and pushAll for arrays of any length. */
import { describe, expect, it } from 'vitest';
import { MAX_RUN_COMMANDS, withinRunCommandBound } from '../src/engine/manifest-budget.js';
import { pushAll } from '../src/shared/arrays.js';

const packageJson = (n: number, prefix: string): string => JSON.stringify({ name: prefix, bin: Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `bin/${i}.js`])) });
const pyproject = (n: number, prefix: string): string => `[project]\nname = "${prefix}"\n\n[project.scripts]\n${Array.from({ length: n }, (_, i) => `${prefix}${i} = "pkg.cli:main"\n`).join('')}`;

describe('withinRunCommandBound', () => {
  it('keeps every manifest while the project declares at most the bound', () => {
    const texts: Record<string, string> = { 'package.json': packageJson(3, 'a'), 'pyproject.toml': pyproject(2, 'b'), 'sub/package.json': packageJson(500, 'c'), 'requirements.txt': 'x\n' };
    const r = withinRunCommandBound(Object.keys(texts), (f) => texts[f]);
    expect(r.problem).toBeUndefined();
    expect(r.packaging).toEqual(Object.keys(texts));
  });

  it('reads root manifests first, then in order until the bound, and says which manifests were left out', () => {
    const texts: Record<string, string> = {
      'a/package.json': packageJson(MAX_RUN_COMMANDS, 'a'),
      'b/pyproject.toml': pyproject(10, 'b'),
      'c/package.json': packageJson(0, 'c'),
      'd/setup.cfg': '[options.entry_points]\nconsole_scripts =\n    d = pkg.cli:main\n',
      'pyproject.toml': pyproject(1, 'root'),
      'setup.py': 'from setuptools import setup\nsetup()\n',
    };
    const r = withinRunCommandBound(Object.keys(texts), (f) => texts[f]);
    // The root pyproject (1) and a/package.json (1,000) reach the bound; b and d are left out,
    // c declares nothing and setup.py is bounded by its own reader: both kept.
    expect(r.packaging).toEqual(['a/package.json', 'c/package.json', 'pyproject.toml', 'setup.py']);
    expect(r.problem).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'b/pyproject.toml', line: 1 } });
    expect(r.problem!.message).toBe("Not read (nor d/setup.cfg): the project's manifests declare more than 1,000 commands, the limit for one run (1,001 read, 11 more in the manifests left out); their commands and dependencies are unknown");
  });
});

describe('pushAll', () => {
  it('appends arrays too long to spread as call arguments, in order', () => {
    const items = Array.from({ length: 300_000 }, (_, i) => i);
    const target = [-1];
    expect(pushAll(target, items)).toBe(target);
    expect(target.length).toBe(300_001);
    expect(target[300_000]).toBe(299_999);
  });
});
