/**
 * s27 regex group "misc": the super-linear patterns recheck listed in config/load, fix/reference-edits,
 * link/build, model/query and shared/env-words, replaced by linear code. Each replacement is
 * compared with the pattern it replaced (kept here) on random strings of the pattern's own
 * characters and on real-shaped examples, and timed on recheck's attack string scaled to 100-200 KB.
 * Times in the comments were measured in the s27 clone (Node 20.20, one run each): before = the old
 * pattern, after = the new code, on the same input.
 */
import { describe, expect, it } from 'vitest';
import { hasDocdriftTable } from '../src/config/load.js';
import { cellText, escapePipes, foldLineBreaks, stripCode, withoutLastWord } from '../src/fix/reference-edits.js';
import { isSignatureHeading } from '../src/link/build.js';
import { codeSpellings, explainingComment, splitSpellings } from '../src/model/query.js';
import { collectEnvWords, envPrefixLiterals } from '../src/shared/env-words.js';
import { seededRandom } from './helpers.js';

/** `count` random strings of up to `maxLength` pieces drawn from `alphabet` (pieces may be several characters). */
function randomStrings(alphabet: readonly string[], count: number, maxLength: number, seed = 27): string[] {
  const next = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * (maxLength + 1));
    let s = '';
    for (let j = 0; j < length; j++) s += alphabet[Math.floor(next() * alphabet.length)]!;
    out.push(s);
  }
  return out;
}

/**
 * Asserts that `next` and `old` agree on every input, and that the inputs exercise the pattern:
 * some of them match it (or are changed by it) and some do not.
 */
function parity<T>(inputs: readonly string[], next: (s: string) => T, old: (s: string) => T): void {
  let hits = 0;
  for (const s of inputs) {
    const want = old(s);
    expect(next(s), JSON.stringify(s)).toEqual(want);
    if (want === true || (typeof want === 'string' && want !== s) || (Array.isArray(want) && (want.length !== 1 || want[0] !== s) && want.length > 0)) hits++;
  }
  expect(hits, 'inputs the old pattern matched').toBeGreaterThan(20);
  expect(inputs.length - hits, 'inputs the old pattern did not match').toBeGreaterThan(20);
}

function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** Generous: every attack below runs in a few milliseconds now and took seconds to minutes before. */
const BOUND_MS = 2000;
const N = 100_000;

describe('config/load.ts:266 [tool.docdrift] table in pyproject.toml (a)', () => {
  const OLD = /^[ \t]*\[tool\.docdrift(?:\.[^\]]*)?\]/m;
  it('agrees with the old pattern', () => {
    const alphabet = ['[tool.docdrift', '[tool.docdrift.', '[tool.docdrifts]', ']', '.', '[', ' ', '\t', '\n', '\r\n', 'x', 'tool', '#', '='];
    const real = ['[tool.docdrift]\nx = 1\n', '  [tool.docdrift.rules]\n', '[tool.ruff]\n[tool.docdrift', '# [tool.docdrift]\n', 'a\n\t[tool.docdrift.a\nb]\n', '[tool.docdrift.\n[tool.x]', '[tool.docdrift.a.b]', '[tool.docdriftx]', ''];
    parity([...real, ...randomStrings(alphabet, 10_000, 12)], hasDocdriftTable, (s) => OLD.test(s));
  });
  it('is linear on lines of `[tool.docdrift.` without a `]`', () => {
    // before: 100 KB 920 ms, 256 KB (MAX_CONFIG_BYTES) 7.0 s; after: 0.2 ms.
    const attack = '[tool.docdrift.\n'.repeat(12_500);
    expect(timed(() => hasDocdriftTable(attack))).toBeLessThan(BOUND_MS);
    expect(hasDocdriftTable(attack)).toBe(false);
  });
});

describe('fix/reference-edits.ts cellText, description trim, stripCode (a)', () => {
  const OLD_PIPES = (s: string): string => s.replace(/(\\*)\|/g, (_, slashes: string) => `${slashes}${slashes}\\|`);
  const OLD_FOLD = (s: string): string => s.replace(/\s*[\r\n]+\s*/g, ' ');
  const OLD_LAST_WORD = (s: string): string => s.replace(/\s+\S*$/, '');
  const OLD_STRIP = (cell: string): string => {
    const m = /^(`+)\s?([\s\S]*?)\s?\1$/.exec(cell);
    return m ? m[2]! : cell;
  };

  it('escapePipes (line 37) agrees with the old pattern', () => {
    const real = ['a|b', 'e\\|f', 'x\\\\|y', '|', '\\', '\\|\\|', 'no pipe', 'a \\ b | c'];
    parity([...real, ...randomStrings(['\\', '|', 'a', ' ', '\\\\'], 10_000, 14)], escapePipes, (s) => OLD_PIPES(s));
  });
  it('foldLineBreaks (line 40) agrees with the old pattern', () => {
    const real = ['line one\nline two', 'a \r\n  b', 'a\t\tb', 'x\n', '\n', ' a  b ', 'a\u2028b', 'a \u00a0\n\u3000b'];
    const alphabet = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff', 'a', 'b'];
    parity([...real, ...randomStrings(alphabet, 10_000, 12)], foldLineBreaks, (s) => OLD_FOLD(s));
  });
  it('withoutLastWord (line 271) agrees with the old pattern', () => {
    const real = ['A long description that is cut in the mid', 'word', 'trailing blank ', '', ' lead', 'a\tb\nc'];
    const alphabet = [' ', '\t', '\n', '\u00a0', '\u2028', 'a', 'b', '.', '\ud83d\ude00'];
    parity([...real, ...randomStrings(alphabet, 10_000, 12)], withoutLastWord, (s) => OLD_LAST_WORD(s));
  });
  it('stripCode (line 306) agrees with the old pattern', () => {
    const real = ['`x`', '`` a`b ``', '```', '````', '`', '``', 'plain', '`--port`', '` x `', '`  x  `', '`a``', '``a`', '`x` and `y`', '`` ` ``', '`\tx\t`', '`\n`'];
    const alphabet = ['`', '`', '``', ' ', '\t', '\n', '\u00a0', 'a', 'b'];
    parity([...real, ...randomStrings(alphabet, 15_000, 10)], stripCode, (s) => OLD_STRIP(s));
  });
  it('cellText keeps its output on real cells', () => {
    expect(cellText('a|b\\|c\n  next line')).toBe('a\\|b\\\\\\|c next line');
    // A tab is written as a space since s30 sweep D5 (no control characters in what --fix writes).
    expect(cellText('  spaced\t\ttext  ')).toBe('spaced  text');
  });
  it('is linear on the attacks', () => {
    // escapePipes: 100,000 backslashes, no pipe after them. before 17.6 s; after 0.3 ms.
    expect(timed(() => cellText(`${'\\'.repeat(N)}\u0000|`))).toBeLessThan(BOUND_MS);
    // foldLineBreaks: 100,000 tabs, then a line break. before 18.5 s; after 0.4 ms.
    expect(timed(() => cellText(`${'\t'.repeat(N)}\u0000\n`))).toBeLessThan(BOUND_MS);
    // withoutLastWord: 100,000 tabs. before 44 s (the call site caps it at MAX_FIX_DESCRIPTION_CHARS = 1,000: 6 ms); after 0.1 ms.
    expect(timed(() => withoutLastWord(`${'\t'.repeat(N)}\u0000\t`))).toBeLessThan(BOUND_MS);
    // stripCode: 100,000 backticks and a tab. before: 10,000 backticks 27 s, 20,000 over 2 min (cubic); after: 100,000 in 0.5 ms.
    expect(timed(() => stripCode(`${'`'.repeat(N)}\t`))).toBeLessThan(BOUND_MS);
  });
});

describe('link/build.ts:1424 signature headings (a)', () => {
  const OLD = /^`?(?:new\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:<[^>]*>)?\s*\([^)]*\)(?:\s*(?::|=>)\s*.*)?`?$/;
  it('agrees with the old pattern', () => {
    const real = [
      'uvu.suite<T>(name: string, context?: T)',
      'suite.run()',
      '`test(name, fn)`',
      'new Foo(x)',
      'new (x)',
      'a.b(c) => void',
      'a.b(c): Promise<void>',
      'f(x) and more',
      'Options',
      '`--port`',
      'f()`',
      'f() :\n x',
      'f() : \n\n',
      'f():x\ny',
    ];
    const alphabet = ['a', 'new', 'new ', '$', '_', '.', '<', '>', '(', ')', ':', '=>', '=', '`', ' ', '\t', '\n', '\r', '\u2028', 'T', '1'];
    parity([...real, ...randomStrings(alphabet, 15_000, 12)], isSignatureHeading, (s) => OLD.test(s));
  });
  it('is linear on blanks before a line break after the `:`', () => {
    // before: 19 s; after: 0.2 ms. (Headings reach it through headingMatchText, which
    // folds blank runs, but the pattern had no such guard of its own.)
    const attack = `$():${'\t'.repeat(N)})\n:`;
    expect(timed(() => isSignatureHeading(attack))).toBeLessThan(BOUND_MS);
    expect(isSignatureHeading(attack)).toBe(OLD.test(`$():${'\t'.repeat(200)})\n:`));
  });
});

describe('model/query.ts explaining comments and flag spellings (a)', () => {
  const OLD_COMMENT = /=\S*\s+#\s*[A-Za-z][\w'-]*\s+[A-Za-z/][^\n]*$/;
  const OLD_SPELLINGS = /^-{1,2}[A-Za-z][\w-]*(?:[ \t]*[/,|][ \t]*-{1,2}[A-Za-z][\w-]*)+(?:[ \t].*)?$/;
  const OLD_SPLIT = /[ \t]*[/,|][ \t]*/;

  it('explainingComment (line 288) agrees with the old pattern', () => {
    const real = [
      'SANDBOX_SET_UID_GID=true   # Force host UID/GID',
      'APP_X=1 # one',
      'APP_X=1 # one word',
      'APP_X="a b" # Sets the thing',
      'APP_X=1\n# a b',
      'APP_X=1 # a b\n',
      'X==y  #  it\'s on /path',
      'X: 1 # a b',
    ];
    const alphabet = ['=', '==', ' ', '\t', '\n', '\r', '#', 'a', 'B', '1', "'", '-', '/', '_', 'x=', '# a b'];
    parity([...real, ...randomStrings(alphabet, 15_000, 14)], explainingComment, (s) => OLD_COMMENT.test(s));
  });
  it('codeSpellings (line 833) agrees with the old pattern and split', () => {
    const OLD = (code: string): string[] => (OLD_SPELLINGS.test(code) ? code.split(OLD_SPLIT) : [code]);
    const real = ['--td/--tools-debug', '-p, --port', '-p,--port PORT', '-v | --verbose', '--port', '-p, --port\n', '-a,-b!', '-a,-b\t,-c!', '--x/ --y  z', 'port'];
    const alphabet = ['-', '--', '-a', '--b-c', '-X1', 'a', 'B', '1', '_', '/', ',', '|', ' ', '\t', ', ', ' / ', '\n', '\u2028', '!'];
    parity([...real, ...randomStrings(alphabet, 15_000, 14)], codeSpellings, (s) => OLD(s));
    parity(randomStrings(['a', '/', ',', '|', ' ', '\t', '-'], 10_000, 14, 8), splitSpellings, (s) => s.split(OLD_SPLIT));
  });
  it('is linear on the attacks', () => {
    // explainingComment: 100,000 `=`. before 42 s (the call site skips lines over
    // MAX_ENV_COMMENT_LINE = 2,000: 16-20 ms per line); after 0.3 ms.
    expect(timed(() => explainingComment(`${'='.repeat(N)}\t=\t#A\tA`))).toBeLessThan(BOUND_MS);
    // codeSpellings: spellings separated by tabs, then a line break. before: 2.6 s; after: 0.2 ms.
    expect(timed(() => codeSpellings(`-A,--${'A\t,--'.repeat(N / 5)}\n`))).toBeLessThan(BOUND_MS);
    // The split of a matching span with a long blank run: before: 23 s; after: 8 ms.
    expect(timed(() => codeSpellings(`-a,-b${'\t'.repeat(N)}x`))).toBeLessThan(BOUND_MS);
  });
});

describe('shared/env-words.ts:18 literal env prefixes (a)', () => {
  const OLD = /[Pp][Rr][Ee][Ff][Ii][Xx]\w{0,64}["']?\s*[=:(,]\s*["']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)["']/g;
  const old = (text: string): string[] => [...text.matchAll(OLD)].map((m) => m[1]!);
  it('agrees with the old pattern', () => {
    const real = [
      'Confi(prefix="OPAL_")',
      'env.prefixed("APP_")',
      "ENV_PREFIX = 'APP_'",
      '{ envPrefix: "VITE_" }',
      'prefix="PREFIX_", "B_"',
      `prefix${'x'.repeat(64)}="A_"`,
      `prefix${'x'.repeat(65)}="A_"`,
      `prefix${'x'.repeat(60)}prefix${'x'.repeat(10)}="A_"`,
      'prefixprefix = "A_B_" prefix("C_")',
    ];
    const alphabet = ['prefix', 'PREFIX', 'Prefix', 'ENV_PREFIX', 'x', 'x'.repeat(30), '_', 'A', 'B1', 'APP_', 'A_B_', '"', "'", '="', "('", ' ', '=', ':', '(', ',', '\n'];
    parity([...real, ...randomStrings(alphabet, 15_000, 14)], envPrefixLiterals, (s) => old(s));
  });
  it('is linear on a long word of `prefix`es', () => {
    // 1 MB (MAX_ENV_WORD_SCAN) of `PreFix0`: before 170 ms (145 KB: 9 ms); after: 10 ms.
    const attack = `${'PreFix0'.repeat(150_000)}\u0000`;
    expect(timed(() => collectEnvWords(attack, new Set()))).toBeLessThan(BOUND_MS);
    expect(envPrefixLiterals(attack)).toEqual([]);
  });
});
