/**
 * Evaluators bounded by size, depth and total work (#33 items 2–5): hostile inputs that CPython
 * or a JSON parser accepts give "value unknown" (or a diagnostic), never a crash or a hang, and
 * real values around them are still read. The spawned-CLI forms are in the bad-input corpus
 * (fixtures/bad-input/python-eval-*, python-deep-expressions, schema-*, …).
 */
import { describe, expect, it } from 'vitest';
import { extractPythonFlags } from '../src/extract/python/flags.js';

/** Flag names of the program `tool` read from `tool/cli.py` holding `text`. */
async function flagNames(text: string): Promise<string[]> {
  const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
  return commands.flatMap((c) => c.params.map((p) => p.name)).sort();
}

const loop = (n: number): string => `for _ in [${Array(n).fill('1').join(', ')}]:`;

describe('Python partial evaluator: size and work budgets (#33 item 2)', () => {
  it('gives a string doubled 30 times by `+` the value unknown, and still reads the other flags', { timeout: 10_000 }, async () => {
    const text = `import argparse\n\ndef build():\n    s = "ab"\n    ${loop(30)}\n        s = s + s\n    p = argparse.ArgumentParser()\n    p.add_argument("--seed")\n    p.add_argument("--x" + s)\n    p.add_argument("--y" + s[:0])\n    return p\n`;
    expect(await flagNames(text)).toEqual(['seed']);
  });

  it('does not build a string past the cap with `.replace` or a list with `.split`', { timeout: 10_000 }, async () => {
    const text = `import argparse\n\ndef build():\n    s = "ab"\n    ${loop(13)}\n        s = s + s\n    t = s.replace("a", "${'b'.repeat(5000)}")\n    parts = s.split("a")\n    p = argparse.ArgumentParser()\n    p.add_argument("--seed")\n    p.add_argument("--" + parts[1] + "x")\n    return p\n`;
    // s is 16,384 characters: over the cap, so neither t nor parts is known; --seed still is.
    expect(await flagNames(text)).toEqual(['seed']);
  });

  it('shares one step budget among the functions of a file (200 functions × 512² loop steps end at once)', { timeout: 10_000 }, async () => {
    const functions = Array.from({ length: 200 }, (_, i) => `def f${i}():\n    p = argparse.ArgumentParser()\n    for a in L:\n        for b in L:\n            x = a\n`);
    const text = `import argparse\nL = [${Array.from({ length: 512 }, (_, i) => i).join(', ')}]\n${functions.join('')}`;
    const started = performance.now();
    await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    expect(performance.now() - started).toBeLessThan(8000);
  });
});

describe('Python partial evaluator: deep expressions (#33 item 3)', () => {
  it('adds a left-nested `+` chain of 2,000 strings without recursion', { timeout: 10_000 }, async () => {
    const text = `import argparse\n\ndef build():\n    p = argparse.ArgumentParser()\n    p.add_argument("--" + "na" + ${Array(2000).fill('""').join(' + ')} + "me")\n    p.add_argument("--seed")\n    return p\n`;
    expect(await flagNames(text)).toEqual(['name', 'seed']);
  });

  for (const [kind, expression] of [
    ['lists', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['calls', `${'f('.repeat(5000)}${')'.repeat(5000)}`],
    ['not chains', `${'not '.repeat(5000)}True`],
    ['attribute chains', `a${'.b'.repeat(5000)}`],
  ] as const) {
    it(`reads ${kind} 5,000 deep as unknown and keeps the other flags`, { timeout: 10_000 }, async () => {
      const text = `import argparse\n\nDEEP = ${expression}\n\ndef build():\n    p = argparse.ArgumentParser()\n    p.add_argument("--seed", default=${expression}, help="Seed.")\n    if ${expression}:\n        p.add_argument("--maybe")\n    return p\n`;
      const names = await flagNames(text);
      expect(names).toContain('seed');
    });
  }
});
