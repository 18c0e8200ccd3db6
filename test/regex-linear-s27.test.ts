/**
 * #33 s27: the regexes the recheck allow-list had called bounded, and that an adversarial sweep
 * showed were not (D1 a Default cell, D2 an entry-point target, D3 a TypeScript flag name), and
 * the rest of that list: each now linear, checked against the regex it replaced (kept here) on
 * every short string of its alphabet, and timed on a hostile input.
 */
import { describe, expect, it } from 'vitest';
import type { InlineCode } from 'mdast';
import { visit } from 'unist-util-visit';
import { createHeadingMatcher } from '../src/config/patterns.js';
import { NOT_NAMES_RE } from '../src/docs/layouts.js';
import { markdownProcessor } from '../src/docs/markdown.js';
import { withoutExtras } from '../src/shared/strings.js';
import { camelCase } from '../src/extract/typescript/flags-node.js';
import { stripCode } from '../src/extract/typescript/syntax.js';
import { codeSpans } from '../src/shared/code-spans.js';
import { joinLines } from '../src/shared/strings.js';
import { elapsedMs } from './helpers.js';

/** Every string over `alphabet` of length 0..`max`. */
function* strings(alphabet: string, max: number): Generator<string> {
  let level = [''];
  for (let n = 0; n <= max; n++) {
    yield* level;
    if (n < max) level = level.flatMap((s) => [...alphabet].map((c) => s + c));
  }
}

describe('codeSpans (was /(`+)([\\s\\S]*?[^`])\\1(?!`)/g, cubic: s27 sweep D1)', () => {
  it('finds the code spans remark finds', () => {
    const differ: string[] = [];
    for (const s of strings('`a ', 7)) {
      const text = `x${s}`;
      const tree = markdownProcessor.parse(text);
      const want: string[] = [];
      visit(tree, 'inlineCode', (n: InlineCode) => {
        want.push(`${n.position!.start.offset}+${n.position!.end.offset! - n.position!.start.offset!}`);
      });
      const got = codeSpans(text).map((c) => `${c.index}+${c.length}`);
      if (got.join() !== want.join()) differ.push(`${JSON.stringify(text)}: ${got.join()} vs ${want.join()}`);
    }
    expect(differ).toEqual([]);
  });

  it('gives what the regex gave on well-formed spans', () => {
    const OLD = /(`+)([\s\S]*?[^`])\1(?!`)/g;
    for (const text of ['`8080`', '`a` or `b`', '``a`b``', 'same as `model`', '`None` (disabled)', '`` ` ``', 'no span']) {
      expect(codeSpans(text).map((c) => [c.index, c.length, c.content])).toEqual([...text.matchAll(OLD)].map((m) => [m.index, m[0].length, m[2]]));
    }
  });

  it('reads 1,500 backticks then 6,000 letters, and 150,000 backticks, at once', () => {
    expect(elapsedMs(() => codeSpans(`${'`'.repeat(1500)}${'a'.repeat(6000)}`))).toBeLessThan(500);
    expect(elapsedMs(() => codeSpans(`${'`'.repeat(150_000)}a${'`'.repeat(149_999)}`))).toBeLessThan(500);
  });
});

describe('stripCode (was /^(`+)([\\s\\S]*)\\1$/)', () => {
  it('is the regex on every short string', () => {
    const OLD = /^(`+)([\s\S]*)\1$/;
    for (const s of strings('`a\n', 8)) {
      const m = OLD.exec(s);
      expect(stripCode(s), JSON.stringify(s)).toBe(s.startsWith('```') && /^```[^\n]*\n([\s\S]*?)\n?```$/.test(s) ? stripCode(s) : m ? (m[2] ?? '').trim() : s);
    }
  });
  it('is linear', () => {
    expect(elapsedMs(() => stripCode(`${'`'.repeat(100_000)}${'a'.repeat(100_000)}`))).toBeLessThan(500);
  });
});

describe('joinLines (was the global regex \\s*\\n\\s* replaced by a space)', () => {
  it('is the regex on every short string', () => {
    for (const s of strings(' \t\na\r', 7)) expect(joinLines(s), JSON.stringify(s)).toBe(s.replace(/\s*\n\s*/g, ' '));
  });
  it('is linear in a blank run without a line break', () => {
    expect(elapsedMs(() => joinLines(`a${' '.repeat(200_000)}b`))).toBeLessThan(500);
  });
});

describe('camelCase (was /-+([^-])/g: s27 sweep D3)', () => {
  it('is the regex on every short string', () => {
    for (const s of strings('-aB', 8)) expect(camelCase(s), JSON.stringify(s)).toBe(s.replace(/-+([^-])/g, (_, c: string) => c.toUpperCase()));
  });
  it('is linear in a run of dashes', () => {
    expect(elapsedMs(() => camelCase(`a${'-'.repeat(200_000)}`))).toBeLessThan(500);
  });
});

describe('withoutExtras (was /\\s*\\[.*\\]\\s*$/ replaced by nothing: s27 sweep D2)', () => {
  it('is the regex on every short string', () => {
    for (const s of strings(' [a]\n', 7)) expect(withoutExtras(s), JSON.stringify(s)).toBe(s.replace(/\s*\[.*\]\s*$/, ''));
    expect(withoutExtras('pkg.cli:main [cli, extra]')).toBe('pkg.cli:main');
  });
  it('is linear in a blank run', () => {
    expect(elapsedMs(() => withoutExtras(`pkg.cli:main${' '.repeat(200_000)}x`))).toBeLessThan(500);
  });
});

describe('NOT_NAMES_RE versions (was v?\\d+(?:\\.\\d+)*(?:[-.][\\w.]+)?)', () => {
  it('matches what the old pattern matched on every short string', () => {
    const OLD = /^(?:null|nil|none|true|false|undefined|nan|yes|no|on|off|v?\d+(?:\.\d+)*(?:[-.][\w.]+)?)$/i;
    for (const s of strings('v1.-a!', 7)) expect(NOT_NAMES_RE.test(s), JSON.stringify(s)).toBe(OLD.test(s));
  });
  it('is linear', () => {
    expect(elapsedMs(() => NOT_NAMES_RE.test(`1${'.1'.repeat(75_000)}-a-b`))).toBeLessThan(500);
  });
});

describe('heading patterns: a trailing colon (was /\\s*:$/)', () => {
  it('ignores a trailing colon and the blanks before it, and is linear in a blank run', () => {
    const matches = createHeadingMatcher(['Options:']);
    expect(matches('Options  :')).toBe(true);
    expect(matches('Options')).toBe(true);
    expect(matches('Options x')).toBe(false);
    const heading = `Options${' '.repeat(200_000)}x`;
    expect(elapsedMs(() => matches(heading))).toBeLessThan(500);
  });
});
