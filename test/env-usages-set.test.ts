/**
 * s28 sweep D10: Windows batch `set` lines are read by `matchBatchSet` (src/docs/env-usages.ts) in
 * linear time; the former `SET_RE`, kept here, ended in `(.*?)\s*$`, quadratic on a blank run
 * inside the value. Parity with it on random and real-shaped lines, and a 100 KB attack.
 */
import { describe, expect, it } from 'vitest';
import { matchBatchSet, windowsEnvUsages, type BlockContent } from '../src/docs/env-usages.js';
import { elapsedMs } from './helpers.js';
import { seededRandom } from './random.js';

const WIN_PROMPT = String.raw`(?:PS\s[^>\n]*>\s*|[A-Za-z]:\\[^>\n]*>\s*)?`;
const OLD_SET_RE = new RegExp(String.raw`^(\s*${WIN_PROMPT})(?:@?set|setx)\s+("?)([A-Za-z_][A-Za-z0-9_]*)(=|\s+)(.*?)\s*$`, 'i');

/** The old regex's groups, in the shape {@link matchBatchSet} returns. */
function oldMatch(line: string): unknown {
  const m = OLD_SET_RE.exec(line);
  return m ? { prompt: m[1], quote: m[2], name: m[3], separator: m[4], value: m[5] } : undefined;
}

/** `count` lines of up to `max` pieces drawn from `pieces`, seeded. */
function randomLines(pieces: readonly string[], count: number, max: number, seed: number): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    let s = '';
    const len = Math.floor(next() * (max + 1));
    for (let j = 0; j < len; j++) s += pieces[Math.floor(next() * pieces.length)]!;
    return s;
  });
}

describe('matchBatchSet reads what SET_RE read', () => {
  it('on real-shaped lines', () => {
    const real = [
      'set API_KEY=abc123',
      '@set API_KEY=abc123  ',
      'SET "API_KEY=a b c"',
      'set "API_KEY=a b c"   ',
      'setx AZURE_KEY abc',
      'setx AZURE_KEY "a b"',
      'C:\\work> setx AZURE_KEY abc',
      'C:\\> set TOOL_HOME=C:\\Program Files\\tool',
      'PS C:\\> set X=1',
      '  set  TOOL_A = 1 ',
      'set TOOL_A',
      'set TOOL_A=',
      'set /p NAME=Prompt: ',
      'set TOOL_A=%PATH%;C:\\bin',
      'echo set TOOL_A=1',
      'set TOOL_A=1\u2028',
      'set TOOL_A=1\u2028x',
      'set TOOL_A \u2028x',
      'set TOOL_A\u2028 x\u2029',
      'set TOOL_A=a\u00a0\ufeff\t',
      'setx',
      '',
    ];
    for (const line of real) expect(matchBatchSet(line), JSON.stringify(line)).toEqual(oldMatch(line));
  });

  it('on 20,000 random lines of set heads, names, quotes, blanks, line separators and prompts', () => {
    const heads = ['set ', '@set ', 'SETX ', 'setx', 'C:\\> ', 'PS C:\\> ', 'PS ', '>', ' '];
    const body = ['A', 'TOOL_A', '_', '1', '=', '"', "'", ' ', '\t', '\u00a0', '\u2028', '\u2029', '\ufeff', 'x', '%', ':', '\\', '\v'];
    const lines = [...randomLines([...heads, ...body], 10_000, 12, 28), ...randomLines(body, 10_000, 14, 29).map((s, i) => `${heads[i % heads.length]!}${s}`)];
    const differ = lines.filter((line) => JSON.stringify(matchBatchSet(line)) !== JSON.stringify(oldMatch(line)));
    expect(differ.map((l) => JSON.stringify(l))).toEqual([]);
    // The sample reaches both outcomes, and values with inner blanks.
    expect(lines.filter((l) => matchBatchSet(l)?.value.includes(' ')).length).toBeGreaterThan(100);
    expect(lines.filter((l) => matchBatchSet(l) === undefined).length).toBeGreaterThan(100);
  });
});

describe('a blank run inside a set value is read in linear time', () => {
  const block = (value: string): BlockContent => ({ value, contentLine: 2, contentIndent: 0, block: {} as BlockContent['block'] });

  it('set TOOL_A=<100,000 blanks>x: the old regex took seconds (minutes when it fails), now under a ms', () => {
    const line = `set TOOL_A=${' '.repeat(100_000)}x`;
    // Measured: SET_RE 11.7 s on this line (3.9 s at 60,000 blanks); matchBatchSet 0.4 ms. On a
    // line it cannot match (`setx TOOL_B <10,000 tabs>y\u2028z`) it backtracked cubically: 450 s; now 0.2 ms.
    expect(elapsedMs(() => matchBatchSet(line))).toBeLessThan(200);
    expect(matchBatchSet(line)?.value).toBe(`${' '.repeat(100_000)}x`);
    let usages: ReturnType<typeof windowsEnvUsages> = [];
    expect(elapsedMs(() => (usages = windowsEnvUsages('README.md', block(`${line}\nsetx TOOL_B ${'\t'.repeat(100_000)}y\u2028z`), 'bat', 0)))).toBeLessThan(500);
    expect(usages.map((u) => u.name)).toEqual(['TOOL_A']);
  });
});
