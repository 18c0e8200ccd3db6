/**
 * Evaluators bounded by size, depth and total work (#33 items 2–5): hostile inputs that CPython
 * or a JSON parser accepts give "value unknown" (or a diagnostic), never a crash or a hang, and
 * real values around them are still read. The spawned-CLI forms are in the bad-input corpus
 * (fixtures/bad-input/python-eval-*, python-deep-expressions, schema-*, …).
 */
import { describe, expect, it } from 'vitest';
import { extractPythonFlags } from '../src/extract/python/flags.js';
import { extractTypeScriptFlags } from '../src/extract/typescript/flags.js';
import { extractTypeScript } from '../src/extract/typescript/index.js';
import { readSetupPyEntryPoints } from '../src/extract/python/setup-py.js';
import { typeScriptFacts } from '../src/engine/typescript-facts.js';
import type { InputDiagnostic } from '../src/model/types.js';

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

describe('Python partial evaluator: loops run an unknown number of times (#33 sweep D2)', () => {
  /** Flags and the unread construct of `tool/cli.py`'s one program. */
  async function program(text: string): Promise<{ names: string[]; unread?: string }> {
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    expect(commands).toHaveLength(1);
    const c = commands[0]!;
    return { names: c.params.map((p) => p.name).sort(), ...(c.unreadFlags ? { unread: c.unreadFlags.construct } : {}) };
  }
  const main = (lines: string[]): string =>
    `def main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed")\n${lines.map((l) => `    ${l}\n`).join('')}    parser.parse_args()\n`;

  it('gives a value carried through `while True:` the value unknown, not that of one pass', async () => {
    const text = `import argparse\ns = "a"\nwhile True:\n    s = s + s\n${main(['parser.add_argument("--x" + s)'])}`;
    expect(await program(text)).toEqual({ names: ['seed'], unread: 'parser.add_argument("--x" + s)' });
  });

  it('counts nothing through a `while` on an unknown condition (a counter, an augmented assignment, a walrus)', async () => {
    const body = [
      'i = 0', 'n = ""', 'while i < len(sys.argv):', '    i = i + 1', '    n += "a"', '    if (w := i) > 2:', '        break',
      'parser.add_argument(f"--v{i}")', 'parser.add_argument("--n" + n)', 'parser.add_argument(f"--w{w}")',
    ];
    const { names, unread } = await program(`import argparse, sys\n${main(body)}`);
    expect(names).toEqual(['seed']);
    expect(unread).toBe('parser.add_argument(f"--v{i}")');
  });

  it('keeps names a `while False:` body would assign, and runs its `else:`', async () => {
    const text = `import argparse\nt = "b"\nwhile False:\n    t = "c"\nelse:\n    u = "d"\n${main(['parser.add_argument("--t" + t)', 'parser.add_argument("--u" + u)'])}`;
    expect(await program(text)).toEqual({ names: ['seed', 'tb', 'ud'] });
  });

  it('reads the flags of a `for` over an unknown collection once, but not values carried between its passes', async () => {
    const body = [
      'acc = "a"', 'last = "z"', 'for name in load_names():', '    acc = acc + name', '    last = "--fixed"', '    parser.add_argument(last)',
      'parser.add_argument("--a" + acc)', 'parser.add_argument(last + "x")',
    ];
    const { names, unread } = await program(`import argparse\n${main(body)}`);
    expect(names).toEqual(['fixed', 'seed']);
    expect(unread).toBe('parser.add_argument("--a" + acc)');
  });

  it('still unrolls a `for` over a known list', async () => {
    const body = ['acc = ""', 'for part in ["a", "b", "c"]:', '    acc = acc + part', 'parser.add_argument("--" + acc)'];
    expect(await program(`import argparse\n${main(body)}`)).toEqual({ names: ['abc', 'seed'] });
  });
});

describe('Python partial evaluator: a spent budget degrades values, not literal flags (#33 sweep D1)', () => {
  const L = `[${Array.from({ length: 512 }, (_, i) => i).join(', ')}]`;

  it('still reads main()\'s literal flags after a module-level loop spends the file\'s budget, and says where it ran out', { timeout: 20_000 }, async () => {
    const text = `import argparse\nn = 0\nfor a in ${L}:\n    for b in ${L}:\n        for c in ${L}:\n            n = n + 1\n` +
      `def add_common(p):\n    p.add_argument("--verbose")\n` +
      `def main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed", default=0)\n    parser.add_argument("--name", default="run")\n` +
      `    add_common(parser)\n    parser.add_argument(f"--n{n}")\n    parser.parse_args()\n`;
    const started = performance.now();
    const { commands, diagnostics } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    expect(performance.now() - started).toBeLessThan(8000);
    expect(commands.map((c) => c.params.map((p) => p.name).sort())).toEqual([['name', 'seed', 'verbose']]);
    expect(commands[0]!.unreadFlags?.construct).toBe('parser.add_argument(f"--n{n}")');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'tool/cli.py', line: 3, column: 1 } });
    expect(diagnostics[0]!.message).toContain('budget of tool/cli.py (200,000 steps, 2,000,000 characters or items computed) ran out');
    expect(diagnostics[0]!.message).not.toMatch(/no reader/);
  });

  it('reads the flags added after a loop in the same function that spends the budget', { timeout: 20_000 }, async () => {
    const text = `import argparse\nL = ${L}\ndef main():\n    parser = argparse.ArgumentParser(prog="tool")\n    k = "a"\n    for a in L:\n        for b in L:\n            k = a\n` +
      `    parser.add_argument("--seed")\n    for c in ["x", "y"]:\n        parser.add_argument("--" + c)\n    parser.add_argument("--k" + k)\n    parser.parse_args()\n`;
    const { commands, diagnostics } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    // A small loop after the budget ran out is still unrolled; what the big one computed is unknown.
    expect(commands.map((c) => c.params.map((p) => p.name).sort())).toEqual([['seed', 'x', 'y']]);
    expect(commands[0]!.unreadFlags?.construct).toBe('parser.add_argument("--k" + k)');
    expect(diagnostics.map((d) => d.location.line)).toEqual([6]);
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

describe('did-you-mean over many names (#33 item 5)', () => {
  /** The scan suggestNames did before its index: every candidate's OSA distance, the same thresholds and order. */
  function reference(name: string, candidates: string[], max: number): string[] {
    const norm = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/-/g, '_');
    const osa = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    const lev = (a: string, b: string): number => {
      let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[b.length]!;
    };
    const target = norm(name);
    const words = target.split('_').filter(Boolean).sort().join('_');
    const scored = [...new Set(candidates)].flatMap((candidate) => {
      const c = norm(candidate);
      const threshold = Math.max(1, Math.min(3, Math.floor(Math.max(c.length, target.length) * 0.3)));
      let d = osa(c, target);
      if (d > 1 && c.includes('_') && c.split('_').filter(Boolean).sort().join('_') === words) d = 1;
      return d <= threshold ? [{ candidate, d, raw: lev(candidate, name) }] : [];
    });
    scored.sort((a, b) => a.d - b.d || a.raw - b.raw || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
    return scored.slice(0, max).map((s) => s.candidate);
  }

  it('suggests what the scan of every candidate suggested (random names, typos, reordered words, case and dashes)', async () => {
    const { suggestNames } = await import('../src/shared/names.js');
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const word = (): string => Array.from({ length: 1 + random(6) }, () => 'abcdeT_-'[random(8)]).join('');
    const candidates = Array.from({ length: 300 }, () => (random(3) === 0 ? `${word()}_${word()}` : word()));
    candidates.push('resume_from_cache', 'cache_from_resume', 'seedCount', 'seed-count', 'temperature');
    const names = [...candidates.slice(0, 150).map((c) => (c.length > 2 ? c[1]! + c[0]! + c.slice(2) : `${c}x`)), ...Array.from({ length: 150 }, word), 'from_cache_resume', 'temprature', 'SEED_COUNT'];
    for (const name of names) expect(suggestNames(name, candidates, 3), name).toEqual(reference(name, candidates, 3));
    // Fewer answers prune more candidates (#33 D12), and a repeated question is answered from the index's memo.
    for (const max of [1, 2]) for (const name of names) expect(suggestNames(name, candidates, max), `${name} ${max}`).toEqual(reference(name, candidates, max));
    for (const name of names.slice(0, 50)) expect(suggestNames(name, candidates, 3), name).toEqual(reference(name, candidates, 3));
  });

  it('answers 3,000 misspellings of 3,000 names that differ in digits, three times each, in a few seconds (#33 D12)', { timeout: 60_000 }, async () => {
    const names = await import('../src/shared/names.js');
    const { NameIndex, suggestNames } = names;
    const fields = Array.from({ length: 3000 }, (_, i) => `field_${String(i).padStart(5, '0')}_abc`);
    const index = new NameIndex(fields);
    const stats = (names as { nameStats?: { osaDistances: number } }).nameStats;
    const before = stats?.osaDistances ?? 0;
    const started = performance.now();
    for (const [pass, max] of [1, 3, 1].entries()) {
      for (let i = 0; i < 3000; i++) {
        const n = String(i).padStart(5, '0');
        expect(suggestNames(`field_${n}_ab${pass === 1 ? 'x' : 'z'}`, index, max)[0]).toBe(`field_${n}_abc`);
      }
    }
    // The costly DP runs for some 220,000 of the 3 × 3,000 × 256 shortlisted names (nearly all,
    // over 2 million, before: 8 s); a repeated question is not computed again.
    expect(stats, 'nameStats counter').toBeDefined();
    expect(stats!.osaDistances - before).toBeLessThan(400_000);
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('answers 3,000 misspellings against 3,000 names of one length in well under the old minutes', { timeout: 30_000 }, async () => {
    const { suggestNames } = await import('../src/shared/names.js');
    const word = (i: number): string => {
      let s = '';
      for (let k = 0, x = i * 7919 + 13; k < 8; k++, x = (x * 48271) % 2147483647) s += 'abcdefghijklmnopqrstuvwxyz'[x % 26];
      return `${s}_${i}`;
    };
    const fields = Array.from({ length: 3000 }, (_, i) => word(i));
    const started = performance.now();
    let hits = 0;
    for (const f of fields) if (suggestNames(f[0]! + f[2]! + f[1]! + f.slice(3), [...fields], 1).length > 0) hits++;
    expect(hits).toBe(3000);
    // ~1 s on an idle machine (the scan of every candidate: over a minute).
    expect(performance.now() - started).toBeLessThan(8000);
  });
});

describe('TypeScript flags objects built by chains of spreads (#33 sweep D7)', () => {
  /** `const o0 = { seed }; const o1 = { ...o0, k0 }; …` then `use(o<n>)`; with `twice`, each object spreads the previous one twice. */
  const chain = (n: number, use: (last: string) => string, twice = false): string =>
    `const o0 = { seed: { type: 'string' } };\n${Array.from({ length: n }, (_, i) => `const o${i + 1} = { ...o${i}, ${twice ? `...o${i}, ` : ''}k${i}: { type: 'string' } };`).join('\n')}\n${use(`o${n}`)}\n`;
  const yargs = (last: string): string => `import yargs from 'yargs';\nyargs(process.argv.slice(2)).scriptName('tsapp').options(${last}).parse();`;
  async function read(text: string) {
    const { commands } = await extractTypeScriptFlags([{ file: 'src/cli.ts', text }]);
    expect(commands).toHaveLength(1);
    return commands[0]!;
  }

  it('reads every key of an options object spread 20 levels deep', async () => {
    const c = await read(chain(20, yargs));
    expect(c.params.map((p) => p.name).sort()).toEqual(['seed', ...Array.from({ length: 20 }, (_, i) => `k${i}`)].sort());
    expect(c.unreadFlags).toBeUndefined();
    expect(c.passesUnknownFlags).toBeUndefined();
  });

  it('makes the command partly known, naming the spread where 32 levels cut the read of a 40-level chain', async () => {
    const c = await read(chain(40, yargs));
    expect(c.params).toHaveLength(33); // the object read and 32 levels of spreads below it
    expect(c.passesUnknownFlags).toBe(true);
    expect(c.unreadFlags).toMatchObject({ construct: '...o7', cut: '32 levels of spreads', location: { file: 'src/cli.ts', line: 9 } });
  });

  it('reads objects that spread the previous one twice, 60 levels, in bounded time (not 2^60 entries)', async () => {
    const started = performance.now();
    const c = await read(chain(60, yargs, true));
    expect(performance.now() - started).toBeLessThan(8000);
    expect(c.params).toHaveLength(33); // the object read and 32 levels of spreads below it
    expect(c.unreadFlags?.cut).toBeDefined();
  });

  it('marks meow, citty and parseArgs flags objects cut by the limit the same way', async () => {
    for (const use of [
      (last: string) => `import meow from 'meow';\nconst cli = meow('help', { importMeta: import.meta, flags: ${last} });`,
      (last: string) => `import { defineCommand, runMain } from 'citty';\nrunMain(defineCommand({ meta: { name: 'tsapp' }, args: ${last} }));`,
      (last: string) => `import { parseArgs } from 'node:util';\nparseArgs({ options: ${last} });`,
    ]) {
      const c = await read(chain(40, use));
      expect(c.unreadFlags?.construct, use('X')).toBe('...o7');
    }
  });
});

describe('TypeScript `extends` chains (#33 sweep D13)', () => {
  /** Interfaces I0…I(n-1), each extending the one before and adding a key, then `Config extends I(n-1)`; `reversed` declares them far end first. */
  const chain = (n: number, reversed = false): string => {
    const lines = [`export interface I0 { seed: number }`, ...Array.from({ length: n - 1 }, (_, i) => `export interface I${i + 1} extends I${i} { k${i + 1}?: string }`)];
    return `${(reversed ? lines.reverse() : lines).join('\n')}\nexport interface Config extends I${n - 1} {}\n`;
  };

  it('reads every inherited field of a chain 40 deep, with no note', async () => {
    const { classes, diagnostics } = await extractTypeScript([{ file: 'src/config.ts', text: chain(40) }]);
    const config = classes.find((c) => c.name === 'Config')!;
    expect(config.fields).toHaveLength(40);
    expect(config.unreadFields).toBeUndefined();
    expect(diagnostics).toEqual([]);
  });

  it('bounds a chain 5,000 deep: 64 levels of inherited fields per type, one warning, the type partly known', { timeout: 60_000 }, async () => {
    const started = performance.now();
    const { classes, diagnostics } = await extractTypeScript([{ file: 'src/config.ts', text: chain(5000) }]);
    expect(performance.now() - started).toBeLessThan(20_000);
    // n²/2 = 12.5 million inherited fields on main; now at most 65 per type.
    expect(Math.max(...classes.map((c) => c.fields.length))).toBeLessThanOrEqual(65);
    expect(classes.find((c) => c.name === 'I64')?.fields).toHaveLength(65);
    expect(classes.find((c) => c.name === 'Config')?.unreadFields).toMatchObject({ cut: '64 levels of bases' });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'src/config.ts', line: 66 } });
    expect(diagnostics[0]!.message).toContain('`I65 extends I64` is past 64 levels of bases');
  });

  it('does not recurse 5,000 deep when the chain is declared from its far end', { timeout: 60_000 }, async () => {
    const { classes, diagnostics } = await extractTypeScript([{ file: 'src/config.ts', text: chain(5000, true) }]);
    expect(classes.find((c) => c.name === 'Config')?.unreadFields).toBeDefined();
    expect(diagnostics).toHaveLength(1);
  });
});

describe('setup.py with many console scripts (#33 sweep D6)', () => {
  it('reads the first 1,000 of 1,500 and says so, as pyproject.toml and setup.cfg do', async () => {
    const scripts = Array.from({ length: 1500 }, (_, i) => `"t${i}=tool.cli:main"`).join(',\n    ');
    const { entryPoints, diagnostics } = await readSetupPyEntryPoints([{ file: 'setup.py', text: `from setuptools import setup\nsetup(entry_points={"console_scripts": [\n    ${scripts}]})\n` }]);
    expect(entryPoints).toHaveLength(1000);
    expect(entryPoints.at(-1)?.name).toBe('t999');
    expect(diagnostics).toEqual([
      { ruleId: 'parse-error', severity: 'warn', message: 'setup.py:1003:5: declares 1500 console scripts; only the first 1000 are read', location: { file: 'setup.py', line: 1003, column: 5 } },
    ]);
  });
});

describe('a TypeScript program file nested past the parser (#33 sweep item 6)', () => {
  it('is one parse-error warning, not one per extractor that reads it', { timeout: 30_000 }, async () => {
    const text = `import yargs from 'yargs';\nyargs(process.argv.slice(2)).option('x', { type: 'string' }).parse();\nexport const x = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\n`;
    const diagnostics: InputDiagnostic[] = [];
    const packageJson = { file: 'package.json', text: JSON.stringify({ name: 'tsapp', bin: { tsapp: 'dist/cli.js' } }) };
    await typeScriptFacts([{ file: 'src/cli.ts', text }], [packageJson], [], () => undefined, diagnostics);
    expect(diagnostics.map((d) => `${d.location.file}:${d.location.line} ${d.message}`)).toEqual([
      'src/cli.ts:1 src/cli.ts: the TypeScript parser failed (nested too deeply for it: Maximum call stack size exceeded); the file is not read',
    ]);
  });
});

describe('Python partial evaluator: module lists and dicts mutated by calls (#33 sweep D10)', () => {
  /** Flags and the unread construct of `tool/cli.py`'s one program, `main()` adding `--x` + `suffix` after `prelude` at module level. */
  async function program(prelude: string, suffix = 'str(V)'): Promise<{ names: string[]; unread?: string }> {
    const text = `import argparse\n${prelude}\ndef main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed")\n    parser.add_argument("--x" + ${suffix})\n    parser.parse_args()\n`;
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    expect(commands).toHaveLength(1);
    const c = commands[0]!;
    return { names: c.params.map((p) => p.name).sort(), ...(c.unreadFlags ? { unread: c.unreadFlags.construct } : {}) };
  }
  const unknown = { names: ['seed'], unread: 'parser.add_argument("--x" + str(V))' };

  it('does not read a module list appended to by a called function as unchanged (CPython: --x1)', async () => {
    expect(await program('G = []\ndef f():\n    G.append(1)\nf()\nV = len(G)')).toEqual(unknown);
  });

  it('treats every kind of mutation in a called function the same: extend, insert, [k]=, update, del, global +=, through another function', async () => {
    for (const body of ['G.extend([1])', 'G.insert(0, 1)', 'G[0] = 2', 'G.pop()', 'del G[0]', 'global G\n    G += [1]', 'global G\n    G = [1, 2]', 'g()']) {
      const prelude = `G = [1]\ndef g():\n    G.append(3)\ndef f():\n    ${body}\nf()\nV = len(G)`;
      expect(await program(prelude), body).toEqual(unknown);
    }
    expect(await program('D = {"a": 1}\ndef f():\n    D.update(b=2)\nf()\nV = len(D)')).toEqual(unknown);
    expect(await program('D = {"a": 1}\ndef f():\n    D["b"] = 2\nf()\nV = len(D)')).toEqual(unknown);
  });

  it('follows a list passed to a function it runs, and treats a dict passed to one it does not run as unknown after the call', async () => {
    expect(await program('G = []\ndef f(xs):\n    xs.append(1)\nf(G)\nV = len(G)')).toEqual({ names: ['seed', 'x1'] });
    expect(await program('D = {}\ndef f(d):\n    d["k"] = 1\nf(D)\nV = len(D)')).toEqual({ names: ['seed', 'x1'] });
    // With an unknown argument the helper is not run: what it does to `D` is unknown.
    expect(await program('D = {}\ndef f(d, other):\n    d["k"] = other\nf(D, load())\nV = len(D)')).toEqual(unknown);
  });

  it('follows mutations it can run: append, extend and insert in straight-line code, a list aliased by another name', async () => {
    expect(await program('G = []\nH = G\nG.append("a")\nG.extend(["b", "c"])\nG.insert(0, "z")\nV = "".join(H) if False else H[0] + H[1] + str(len(H))')).toEqual({ names: ['seed', 'xza4'] });
    // A function that only reads the list, or rebinds a local of the same name, changes nothing.
    expect(await program('G = [1]\ndef f():\n    G = []\n    G.append(2)\n    return len(G)\nf()\nV = len(G)')).toEqual({ names: ['seed', 'x1'] });
  });

  it('makes a list appended to in a loop of unknown trips or an unknown branch unknown, not one pass\'s value', async () => {
    expect(await program('import sys\nG = []\nfor a in sys.argv:\n    G.append(a)\nV = len(G)')).toEqual(unknown);
    expect(await program('import sys\nG = []\nif sys.argv:\n    G.append(1)\nV = len(G)')).toEqual(unknown);
  });
});

describe('Python partial evaluator: module lists changed out of order (#33 fresh sweep s19 item 4)', () => {
  /** As in the D10 cases above: the flag names of `main()` adding `--x` + str(V) after `prelude`. */
  async function program(prelude: string): Promise<{ names: string[]; unread?: string }> {
    const text = `import argparse\n${prelude}\ndef main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed")\n    parser.add_argument("--x" + str(V))\n    parser.parse_args()\n`;
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const c = commands[0]!;
    return { names: c.params.map((p) => p.name).sort(), ...(c.unreadFlags ? { unread: c.unreadFlags.construct } : {}) };
  }
  const unknown = { names: ['seed'], unread: 'parser.add_argument("--x" + str(V))' };

  // Each prelude is one the fresh sweep ran through CPython (its flag in the comment): docdrift read `--x0` for all of them.
  const cases: Array<[string, string]> = [
    ['a decorator (--x1)', 'G = []\ndef reg(f):\n    G.append(f.__name__)\n    return f\n@reg\ndef a():\n    pass\nV = len(G)'],
    ['a class body (--x2)', 'G = []\nclass C:\n    G.append(1)\n    G.append(2)\nV = len(G)'],
    ['a method called on an instance (--x1)', 'G = []\nclass R:\n    def add(self):\n        G.append(1)\nR().add()\nV = len(G)'],
    ['a lambda run by map (--x5)', 'G = []\nlist(map(lambda x: G.append(x), range(5)))\nV = len(G)'],
    ['a comprehension (--x6)', 'G = []\n[G.append(i) for i in range(6)]\nV = len(G)'],
    ['exec (--x1)', "G = []\nexec('G.append(1)')\nV = len(G)"],
    ['a bound method handed to map (--x3)', 'G = []\nlist(map(G.append, range(3)))\nV = len(G)'],
    ['a repository function passed as a callback (--x4)', 'G = []\ndef f(x):\n    G.append(x)\nlist(map(f, range(4)))\nV = len(G)'],
    // #33 fresh sweep s20 D6-D8: handed to a call that keeps or changes it, a default argument, the module as an object.
    ['an unbound list method (--x4)', 'G = ["a"]\nlist.append(G, "b")\nlist.extend(G, ["c", "d"])\nV = len(G)'],
    ['operator.iadd (--x3)', 'import operator\nG = ["a"]\noperator.iadd(G, ["b", "c"])\nV = len(G)'],
    ['functools.partial (--x2)', 'import functools\nG = ["a"]\nadd = functools.partial(list.append, G)\nadd(1)\nV = len(G)'],
    ['an instance that keeps it (--x3)', 'G = ["a"]\nclass Reg:\n    def __init__(self, target):\n        self.t = target\n    def add(self, x):\n        self.t.append(x)\nr = Reg(G)\nr.add(1)\nr.add(2)\nV = len(G)'],
    ['a default argument (--x3)', 'G = ["a"]\ndef reg(x, acc=G):\n    acc.append(x)\nreg(1)\nreg(2)\nV = len(G)'],
    ['globals() (--x3)', 'G = ["a"]\nglobals()["G"] = ["a", "b", "c"]\nV = len(G)'],
    ['setattr on sys.modules (--x3)', 'import sys\nG = ["a"]\nsetattr(sys.modules[__name__], "G", ["a", "b", "c"])\nV = len(G)'],
    ['the module importing itself (--x2)', 'G = ["a"]\nimport tool.cli as me\nme.G.append("b")\nV = len(G)'],
  ];
  for (const [what, prelude] of cases) {
    it(`treats a list changed by ${what} as unknown, never as unchanged`, async () => {
      expect(await program(prelude)).toEqual(unknown);
    });
  }

  it('still reads what it follows in order, and a method\'s own local list of the same name', async () => {
    expect(await program('G = []\nG.append(1)\nV = len(G)')).toEqual({ names: ['seed', 'x1'] });
    // Read by a call that only reads it: still known.
    expect(await program('G = ["a", "b"]\nprint(len(G), sorted(G))\nV = len(G)')).toEqual({ names: ['seed', 'x2'] });
    expect(await program('G = []\nclass C:\n    def m(self):\n        G = []\n        G.append(1)\nV = len(G)')).toEqual({ names: ['seed', 'x0'] });
    expect(await program('G = []\ndef f():\n    G.append(1)\nf()\nH = [len(x) for x in ["ab"]]\nV = len(G)')).toEqual(unknown);
    // A lambda, a comprehension or a class ends where its text does: module code after it runs in order (s41: scopes by range).
    expect(await program('G = []\nh = lambda: 0\nK = [i for i in range(2)]\nclass C:\n    pass\nG.append(1)\nV = len(G)')).toEqual({ names: ['seed', 'x1'] });
  });
});
