/**
 * Python sources too large to parse in bounded time and memory (s22 sweep D3: a 2 MB implicit
 * concatenation took 10 s and 650 MB) are refused from their text facts, one warning each, and a
 * module of data is skipped quietly (black's `profiling/*_huge.py`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  LARGE_PYTHON_SOURCE_CHARS,
  MAX_MIXED_RUN_TOKENS,
  MAX_PYTHON_FLAG_RUN_TOKENS,
  MAX_PYTHON_RUN_TOKENS,
  MAX_PYTHON_SOURCE_TOKENS,
  pythonFlagTokenBudget,
  pythonSourcesOverLimits,
  pythonTextFacts,
} from '../src/extract/python/text-facts.js';
import { readSetupPyEntryPoints } from '../src/extract/python/setup-py.js';
import { lintTwin, removeTempDirs, tempProject } from './helpers.js';

afterAll(removeTempDirs);

/** `n` string literals in one implicit concatenation: about `n` tokens, 4n characters. */
const literals = (n: number): string => Array(n).fill('"a"').join(' ');

describe('pythonTextFacts: size, tokens, data modules', () => {
  it('counts characters always and tokens only above the large-source size', () => {
    const small = pythonTextFacts('import os\nX = 1\n');
    expect(small.chars).toBe(16);
    expect(small.tokens).toBe(0);
    const large = pythonTextFacts(`import os\nX = ${literals(100_000)}\n`);
    expect(large.chars).toBeGreaterThan(LARGE_PYTHON_SOURCE_CHARS);
    // import, os, X, =, and the literals.
    expect(large.tokens).toBe(100_004);
  });

  it('counts a triple-quoted string, a comment and a one-line string as one token each', () => {
    const usage = `"""Usage:\n${'  tool run [--seed=<n>] [--name=<s>]\n'.repeat(10_000)}"""\n`;
    const facts = pythonTextFacts(`${usage}# a comment with many words in it\nX = 'a b c d'\n`);
    expect(facts.chars).toBeGreaterThan(LARGE_PYTHON_SOURCE_CHARS);
    expect(facts.tokens).toBe(5);
  });

  it('a large module with no import, definition, decorator or environment read is data', () => {
    // Judged only above the large-source size: a padding of data takes each text over it.
    const pad = `PAD = [${'0, '.repeat(100_000)}]\n`;
    expect(pythonTextFacts(`${pad}TABLE = {"a": 1, "b": [1, 2]}\n`).dataOnly).toBe(true);
    expect(pythonTextFacts(`"""from here on"""\n${pad}X = ["class", "def"]\n`).dataOnly).toBe(true);
    expect(pythonTextFacts('TABLE = {"a": 1}\n').dataOnly).toBe(false);
    for (const code of ['import os\n', 'from a import b\n', 'class A:\n    pass\n', 'def f():\n    pass\n', 'async def f():\n    pass\n', '@dataclass\nclass A: pass\n', 'X = os.environ["A"]\n', 'X = getenv("A")\n', 'if True:\n    import os\n']) {
      expect(pythonTextFacts(`${pad}X = 1\n${code}`).dataOnly, code).toBe(false);
    }
  });
});

describe('pythonFlagTokenBudget: one budget for the Python flag files and the TypeScript sources (#33 s31 D5)', () => {
  it('gives the flag files what the TypeScript sources leave, between 200,000 and 300,000 tokens, counting TypeScript only when it can matter', () => {
    let asked = 0;
    const ts = (n: number) => () => (asked++, n);
    expect(pythonFlagTokenBudget(150_000, ts(600_000))).toBe(MAX_PYTHON_FLAG_RUN_TOKENS);
    expect(asked).toBe(0);
    expect(pythonFlagTokenBudget(1_000_000, ts(0))).toBe(MAX_PYTHON_FLAG_RUN_TOKENS);
    expect(pythonFlagTokenBudget(1_000_000, ts(450_000))).toBe(MAX_MIXED_RUN_TOKENS - 150_000);
    expect(pythonFlagTokenBudget(1_000_000, ts(600_000))).toBe(200_000);
    expect(pythonFlagTokenBudget(1_000_000, ts(5_000_000))).toBe(200_000);
    // The real projects measured keep their budgets: nemo-gym's 229,000 flag-file tokens, gemini-cli's 446,000 TypeScript tokens.
    expect(pythonFlagTokenBudget(1_000_000, ts(446_000))).toBeGreaterThan(229_000);
    expect(asked).toBe(5);
  });
});

describe('pythonSourcesOverLimits', () => {
  type Source = { file: string; chars: number; tokens: number; dataOnly: boolean; framework?: boolean };
  const run = (sources: Source[]) => pythonSourcesOverLimits(sources, (s) => s, (s) => (s.framework ? 0 : 1));
  const large = LARGE_PYTHON_SOURCE_CHARS + 1;

  it('parses every source of at most 256 KB, however dense', () => {
    const r = run([{ file: 'a.py', chars: LARGE_PYTHON_SOURCE_CHARS, tokens: 0, dataOnly: true }]);
    expect([r.quiet.size, r.refused.size, r.overBudget.length]).toEqual([0, 0, 0]);
  });

  it('skips a large module of data quietly, and refuses one over 1 MB or over the token limit with a reason', () => {
    const data: Source = { file: 'data.py', chars: 5 * large, tokens: 10 * MAX_PYTHON_RUN_TOKENS, dataOnly: true };
    const huge: Source = { file: 'huge.py', chars: 2 * 1024 * 1024, tokens: 1000, dataOnly: false };
    const dense: Source = { file: 'dense.py', chars: large, tokens: MAX_PYTHON_SOURCE_TOKENS + 1, dataOnly: false };
    const fine: Source = { file: 'fine.py', chars: large, tokens: MAX_PYTHON_SOURCE_TOKENS, dataOnly: false };
    const r = run([data, huge, dense, fine]);
    expect([...r.quiet]).toEqual([data]);
    expect(r.refused.get(huge)).toBe('it is 2.0 MB, over the 1 MB limit for one Python source');
    expect(r.refused.get(dense)).toBe('it holds about 120,001 tokens, over the limit of 120,000 for one Python source');
    expect(r.refused.has(fine)).toBe(false);
    expect(r.overBudget).toEqual([]);
  });

  it('spends the run budget on files that may define flags first, then in order, and says which are left', () => {
    const third = Math.floor(MAX_PYTHON_RUN_TOKENS / 3);
    const sources: Source[] = ['a.py', 'b.py', 'c.py', 'd.py'].map((file) => ({ file, chars: large, tokens: third, dataOnly: false }));
    sources[3]!.framework = true;
    const r = run(sources);
    expect(r.overBudget.map((s) => s.file)).toEqual(['c.py']);
    expect(r.refused.size).toBe(0);
  });
});

describe('a project with a Python source too large to parse', () => {
  const docs = '# tool\n\n## `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `--seed` | Random seed. |\n';
  const cli = 'import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed", default=0, help="Random seed.")\n    parser.parse_args()\n';
  const pyproject = '[project]\nname = "tool"\nversion = "1"\n\n[project.scripts]\ntool = "tool.cli:main"\n';

  it('warns once for the module, says why its command is unread, and checks the rest', async () => {
    const dir = tempProject({
      'pyproject.toml': pyproject,
      'tool/__init__.py': '',
      'tool/cli.py': `${cli}\nHELP = ${literals(300_000)}\n`,
      'docs/reference.md': docs,
    });
    const { result } = await lintTwin(dir);
    const warnings = result.messages.filter((m) => m.ruleId === 'parse-error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: 'tool/cli.py', line: 1, severity: 'warn' });
    expect(warnings[0]!.message).toContain('Not read: it is 1.1 MB, over the 1 MB limit for one Python source');
    expect(result.notes.join('\n')).toContain('its entry point `tool.cli:main` is in tool/cli.py, which docdrift did not read: it is 1.1 MB');
    expect(result.notes.join('\n')).not.toContain('builds no CLI parser docdrift reads');
  });

  it('skips a large data module with no warning and still reads the CLI beside it', async () => {
    const dir = tempProject({
      'pyproject.toml': pyproject,
      'tool/__init__.py': '',
      'tool/cli.py': cli.replace('help="Random seed.")', 'help="Random seed.")\n    parser.add_argument("--name", default="run", help="Name.")'),
      'tool/table.py': `TABLE = {${Array.from({ length: 40_000 }, (_, i) => `"k${i}": ${i}`).join(', ')}}\n`,
      'docs/reference.md': docs,
    });
    const { result } = await lintTwin(dir);
    expect(result.messages.filter((m) => m.ruleId === 'parse-error')).toEqual([]);
    expect(result.messages.map((m) => `${m.ruleId} ${m.message}`).join('\n')).toMatch(/reference-param-missing `name` \(tool\/cli\.py/);
  });

  it('a setup.py over the limit is not parsed for console scripts, with a warning', async () => {
    const text = `from setuptools import setup\nsetup(name="tool", entry_points={"console_scripts": ["tool=tool.cli:main"]}, description=${literals(300_000)})\n`;
    const read = await readSetupPyEntryPoints([{ file: 'setup.py', text }]);
    expect(read.entryPoints).toEqual([]);
    expect(read.diagnostics).toHaveLength(1);
    expect(read.diagnostics[0]!.message).toContain('Not read: it is 1.1 MB, over the 1 MB limit for one Python source');
    expect(read.diagnostics[0]!.message).toContain('its console scripts are unknown');
  });
});
