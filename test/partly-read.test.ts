/** Confidence instead of cascades (issue #29 item 2): when unknown names are folded into one summary. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';
import { partlyRead, sharesWord, summaryData, wordsOf, type Judged } from '../rules/partly-read.js';

function judged(name: string, near: boolean, file = 'README.md', line = 1): Judged {
  return { name, near, descriptor: { messageId: near ? 'unknownWithSuggestion' : 'unknown', location: { file, line, column: 1 } } };
}

describe('partlyRead', () => {
  it('keeps a lone typo among mostly known names single', () => {
    const verdict = partlyRead([judged('outptu', true)], 6, 3, 0.5);
    expect(verdict.folded).toEqual([]);
    expect(verdict.single.map((j) => j.name)).toEqual(['outptu']);
  });

  it('keeps removed flags single while the known names explain half of what the examples pass', () => {
    // 3 unknown, 3 known: docdrift read enough of the CLI for the 3 to be drift.
    const list = ['a', 'b', 'c'].map((n) => judged(n, false));
    expect(partlyRead(list, 3, 3, 0.5).folded).toEqual([]);
    expect(partlyRead(list, 2, 3, 0.5).folded.map((j) => j.name)).toEqual(['a', 'b', 'c']);
  });

  it('needs at least `atUnknown` distinct unexplained names, however few are known', () => {
    const list = [judged('a', false), judged('a', false, 'docs/x.md'), judged('b', false)];
    expect(partlyRead(list, 0, 3, 0.5).folded).toEqual([]);
    expect(partlyRead([...list, judged('c', false)], 0, 3, 0.5).folded).toHaveLength(4);
  });

  it('counts near misses as explained and never folds them', () => {
    const list = [judged('x', false), judged('y', false), judged('z', false), judged('modle', true)];
    const verdict = partlyRead(list, 0, 3, 0.5);
    expect(verdict.single.map((j) => j.name)).toEqual(['modle']);
    expect(verdict.folded.map((j) => j.name)).toEqual(['x', 'y', 'z']);
    // With two known names, 3 of 6 are explained: reported one by one.
    expect(partlyRead(list, 2, 3, 0.5).folded).toEqual([]);
  });

  it('never folds when `atUnknown` is 0', () => {
    const list = ['a', 'b', 'c', 'd'].map((n) => judged(n, false));
    expect(partlyRead(list, 0, 0, 0.5).folded).toEqual([]);
  });
});

describe('sharesWord', () => {
  const words = new Set(['materialized_inputs_jsonl_fpath', 'rollouts_jsonl_fpath', 'allowPartialRollouts'].flatMap(wordsOf));

  it('splits snake, kebab and camel case', () => {
    expect(wordsOf('allowPartialRollouts')).toEqual(['allow', 'partial', 'rollouts']);
    expect(wordsOf('--dry-run')).toEqual(['dry', 'run']);
  });

  it('takes a stale name that keeps a word of a parameter for a rename, not for a part docdrift did not read', () => {
    expect(sharesWord('input_jsonl_fpath', words)).toBe(true);
    expect(sharesWord('pass_threshold', words)).toBe(false);
    // Words shorter than four letters say nothing.
    expect(sharesWord('run-dir', new Set(['run', 'dir']))).toBe(false);
  });
});

describe('summaryData', () => {
  it('is placed at the first folded finding, shows the most used names first and lists them all in params', () => {
    const list = [
      judged('b', false, 'docs/z.md', 3),
      judged('a', false, 'README.md', 9),
      judged('c', false, 'README.md', 4),
      judged('a', false, 'docs/z.md', 1),
      ...['d', 'e', 'f', 'g', 'h'].map((n, i) => judged(n, false, 'docs/z.md', 10 + i)),
    ];
    const s = summaryData(list);
    expect(s.location).toEqual({ file: 'README.md', line: 4, column: 1 });
    expect(s.data).toEqual({
      count: '8',
      names: '`a`, `c`, `b`, `d`, `e`, `f` and 2 more',
      params: '`a`, `c`, `b`, `d`, `e`, `f`, `g`, `h`',
      uses: '9',
      pages: '2',
    });
    expect(s.related[0]).toMatchObject({ file: 'README.md', line: 9, message: '`a` (2 uses)' });
  });
});

describe('a command and a section docdrift reads only partly (fixtures)', () => {
  const fixtures = path.resolve(import.meta.dirname, '../fixtures/rules');

  async function run(dir: string) {
    const root = path.join(fixtures, dir);
    const { config } = loadConfig(root, undefined, ruleIds);
    return (await lint({ root, config })).messages;
  }

  it('reports the unknown example flags once, as a warning naming them and where they are used, and the typo as before', async () => {
    const messages = (await run('example-param-unknown/invalid/partly-read-helper-options')).filter((m) => m.ruleId === 'example-param-unknown');
    expect(messages.map((m) => [m.messageId, m.severity])).toEqual([
      ['partlyRead', 'warn'],
      ['unknownWithSuggestion', 'error'],
    ]);
    expect(messages[0]!.related.map((r) => `${r.file}:${r.line}`)).toEqual(['README.md:6', 'README.md:6', 'README.md:6', 'README.md:7', 'docs/guide.md:4']);
  });

  it('reports the unknown rows of a section once, at its heading, as a warning', async () => {
    const messages = (await run('reference-param-unknown/invalid/partly-read-section')).filter((m) => m.ruleId === 'reference-param-unknown');
    expect(messages.map((m) => [m.messageId, m.severity, m.line])).toEqual([
      ['partlyRead', 'warn', 3],
      ['staleWithSuggestion', 'error', 13],
    ]);
    expect(messages[0]!.fix).toBeUndefined();
  });

  it('reports every unknown flag when the summary is turned off', async () => {
    const root = path.join(fixtures, 'example-param-unknown/invalid/partly-read-helper-options');
    const { config } = loadConfig(root, undefined, ruleIds);
    config.rules['example-param-unknown'] = ['error', { summarizeAtUnknown: 0 }];
    const messages = (await lint({ root, config })).messages.filter((m) => m.ruleId === 'example-param-unknown');
    expect(messages.map((m) => m.data.name).sort()).toEqual(['format', 'height', 'height', 'outptu', 'quality', 'sharpen', 'width', 'width', 'width']);
  });
});
