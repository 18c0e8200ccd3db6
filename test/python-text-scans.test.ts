/** One pass over a module's text instead of one regex per item (#33, s27 sweep2 D1 and O1): the new scans give the old regexes' answers. */
import { describe, expect, it } from 'vitest';
import { someContainerChanged } from '../src/extract/python/flags-argparse.js';
import { hasWord } from '../src/extract/python/flags-typer.js';
import { wordPositions } from '../src/extract/python/env-internal.js';
import { extractPython } from '../src/extract/python/index.js';
import { seededRandom } from './random.js';

/** The per-name test escapingMutations() ran before s28 (one RegExp per container over the module). */
function changedByRegex(text: string, name: string): boolean {
  const n = name.replace(/[^\w]/g, '');
  return new RegExp(`(?<![\\w.])${n}\\s*(?:\\.\\s*[A-Za-z_]|\\[|[-+|&^*]=)|[(,=]\\s*${n}\\s*[,)]`).test(text);
}

/** Random Python-ish text over a small alphabet, so that names, dots, brackets and operators meet often. */
function randomText(random: () => number, length: number): string {
  const pieces = ['G', 'H', 'GH', 'x', '.', ' ', '\n', '\t', '(', ')', ',', '=', '[', ']', '+=', '|=', '-', '*', 'append', '1', '_', 'é', '\u00a0', '#'];
  let out = '';
  while (out.length < length) out += pieces[Math.floor(random() * pieces.length)];
  return out;
}

describe('someContainerChanged', () => {
  const cases: Array<[string, string[]]> = [
    ['G = []\nG.append(1)\n', ['G']],
    ['G = []\nx = G\n', ['G']],
    ['G = []\nprint(len(G))\n', ['G']],
    ['G = []\nf(a, G)\n', ['G']],
    ['G = []\nf(\n  G\n)\n', ['G']],
    ['G = []\nGG.append(1)\nobj.G.append(1)\n', ['G']],
    ['G = []\nG += [1]\n', ['G']],
    ['G = {}\nG["k"] = 1\n', ['G']],
    ['G = []\ndef f(acc=G): pass\n', ['G']],
    ['G = []\nH = {}\n# G .x\n', ['G', 'H']],
    ['9G.x\n', ['G']],
    ['é = []\né.append(1)\n', ['é']],
    ['é = []\n', ['é']],
    ['gé = []\ng.append(1)\n', ['gé']],
  ];
  it('agrees with the per-name regexes on hand-written modules', () => {
    for (const [text, names] of cases) expect(someContainerChanged(text, names), text).toBe(names.some((n) => changedByRegex(text, n)));
  });

  it('agrees with them on random text', () => {
    const random = seededRandom(28);
    for (let i = 0; i < 5000; i++) {
      const text = randomText(random, 40);
      const r = random();
      const names = r < 0.4 ? ['G'] : r < 0.8 ? ['G', 'GH', 'H'] : r < 0.9 ? ['é'] : ['H', 'é'];
      expect(someContainerChanged(text, names), JSON.stringify(text)).toBe(names.some((n) => changedByRegex(text, n)));
    }
  });

  it('reads 20,000 names over a 700 KB module in one pass (s27 sweep2 D1: 15.5 s before)', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `c${i}`);
    const text = `${names.map((n) => `${n} = []`).join('\n')}\n${Array(2500).fill(`# ${'x'.repeat(200)}`).join('\n')}\n`;
    const started = performance.now();
    expect(someContainerChanged(text, names)).toBe(false);
    expect(someContainerChanged(`${text}c19999.append(1)\n`, names)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('hasWord', () => {
  it('agrees with new RegExp(`\\b${word}\\b`)', () => {
    const random = seededRandom(33);
    const words = ['G', 'GH', 'x', 'é', 'Gé', '_', 'append'];
    for (let i = 0; i < 3000; i++) {
      const text = randomText(random, 20);
      for (const word of words) expect(hasWord(text, word), `${JSON.stringify(text)} ${word}`).toBe(new RegExp(`\\b${word}\\b`).test(text));
    }
    expect(hasWord('Factory().build', 'Factory')).toBe(true);
    expect(hasWord('MyFactory().build', 'Factory')).toBe(false);
    expect(hasWord('x', '')).toBe(true);
  });
});

describe('wordPositions', () => {
  it('finds what `\\bword\\b` finds, in order, in one pass', () => {
    const text = 'S = S1(S)\nS1.x; XS1 S1_ "S1" S\n';
    const found = wordPositions(text, new Set(['S', 'S1', 'T']));
    for (const word of ['S', 'S1']) expect(found.get(word)).toEqual([...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))].map((m) => m.index));
    expect(found.has('T')).toBe(false);
  });
});

describe('settings constructions read once per scope (s27 sweep2 D2)', () => {
  const settings = (rest: string) => `from pydantic_settings import BaseSettings


class AppSettings(BaseSettings):
    SECRET: str
    PORT: int = 8000


${rest}`;
  const internal = async (text: string) => (await extractPython([{ file: 'app/settings.py', text }])).env.internal?.map((v) => v.name);

  it('a dict splatted twice in one scope may be changed by the first call: keys unknown, as before', async () => {
    expect(await internal(settings('def build():\n    d = {"SECRET": "a"}\n    AppSettings(**d)\n    return AppSettings(**d)\n'))).toBeUndefined();
  });

  it('dicts of one name in two functions are each their own', async () => {
    const two = 'def one():\n    d = {"SECRET": "a"}\n    return AppSettings(**d)\n\n\ndef two():\n    d = {}\n    d["SECRET"] = "b"\n    return AppSettings(**d)\n';
    expect(await internal(settings(two))).toEqual(['SECRET']);
    const other = 'def one():\n    d = {"SECRET": "a"}\n    return AppSettings(**d)\n\n\ndef two():\n    d = {"PORT": 1}\n    return AppSettings(**d)\n';
    expect(await internal(settings(other))).toBeUndefined();
  });

  it('follows re-imports of an alias through modules (classesToFollow: one list of symbol bindings)', async () => {
    const env = (await extractPython([
      { file: 'app/settings.py', text: settings('') },
      { file: 'app/b.py', text: 'from app.settings import AppSettings as A\n' },
      { file: 'app/c.py', text: 'from app.b import A as B\n\n\ndef build():\n    return B(SECRET="a")\n' },
    ])).env;
    expect(env.internal?.map((v) => v.name)).toEqual(['SECRET']);
  });

  it('an alias imported in a function is followed (`AppSettings as S`)', async () => {
    const text = settings('def build():\n    from app.settings import AppSettings as S\n    return S(SECRET="a")\n');
    expect(await internal(text)).toEqual(['SECRET']);
  });
});
