/** Table-driven tests of compareDefault, formatDefault and suggestNames (src/model/compare.ts). */
import { describe, expect, it } from 'vitest';
import { compareDefault, formatDefault, suggestNames } from '../src/model/compare.js';
import type { DefaultValue } from '../src/model/types.js';

const lit = (text: string): DefaultValue => ({ kind: 'literal', text });
const fac = (text: string): DefaultValue => ({ kind: 'factory', text });
const expr = (text: string): DefaultValue => ({ kind: 'expression', text });

type Row = [DefaultValue | undefined, string, 'same' | 'different' | 'unknown'];

const table: Array<[string, Row[]]> = [
  [
    'booleans',
    [
      [lit('True'), 'true', 'same'],
      [lit('True'), 'True', 'same'],
      [lit('True'), 'TRUE', 'same'],
      [lit('True'), '`True`', 'same'],
      [lit('True'), '`true`', 'same'],
      [lit('False'), 'false', 'same'],
      [lit('False'), '**False**', 'same'],
      [lit('False'), 'False.', 'same'],
      [lit('True'), 'false', 'different'],
      [lit('False'), '`True`', 'different'],
      [lit('True'), 'yes', 'same'],
      [lit('False'), 'off', 'same'],
      [lit('False'), 'on', 'unknown'], // plain yes/no/on/off may be prose: they can agree, never contradict
      [lit('True'), 'No', 'unknown'],
      [lit('True'), '"true"', 'same'],
      [lit('True'), '1', 'different'],
      [lit('True'), 'enabled', 'unknown'],
      [lit('True'), 'None', 'different'],
    ],
  ],
  [
    'None',
    [
      [lit('None'), 'None', 'same'],
      [lit('None'), 'null', 'same'],
      [lit('None'), '~', 'same'],
      [lit('None'), 'none', 'same'],
      [lit('None'), '"None"', 'same'],
      [lit('None'), '`null`', 'same'],
      [lit('None'), 'None (disabled)', 'same'],
      [lit('None'), '`None` (no limit)', 'same'],
      // None usually means "computed at run time": a documented value is not a contradiction.
      [lit('None'), '8', 'unknown'],
      [lit('None'), '`gpt-4o`', 'unknown'],
      [lit('None'), '[]', 'unknown'],
      [lit('8'), 'None', 'different'],
      [lit('8'), '`null`', 'different'],
      [lit('8'), 'none', 'unknown'], // plain "none" may be prose ("no limit")
      [lit('"x"'), '`None`', 'different'],
      [lit('[]'), 'None', 'different'],
    ],
  ],
  [
    'numbers',
    [
      [lit('1e-3'), '0.001', 'same'],
      [lit('1e-3'), '.001', 'same'],
      [lit('0.001'), '1e-3', 'same'],
      [lit('0.001'), '1E-03', 'same'],
      [lit('10_000'), '10000', 'same'],
      [lit('10000'), '10_000', 'same'],
      [lit('10000'), '10,000', 'same'],
      [lit('1.0'), '1', 'same'],
      [lit('1'), '1.0', 'same'],
      [lit('1.'), '1', 'same'],
      [lit('-1'), '-1', 'same'],
      [lit('-1'), '−1', 'same'], // U+2212 minus sign
      [lit('+3'), '3', 'same'],
      [lit('0x10'), '16', 'same'],
      [lit('0o17'), '15', 'same'],
      [lit('0b101'), '5', 'same'],
      [lit('3'), '`3`', 'same'],
      [lit('3'), '"3"', 'same'],
      [lit('3'), '4', 'different'],
      [lit('0.1'), '0.01', 'different'],
      [lit('-1'), '1', 'different'],
      [lit('0'), 'False', 'different'],
      [lit('5'), 'auto', 'unknown'],
      [lit('5'), 'unlimited', 'unknown'],
      [lit('10'), '10s', 'unknown'],
      [lit('10'), '10 seconds', 'unknown'],
      [lit('1000'), '1k', 'unknown'],
      [lit('1'), 'yes', 'unknown'],
      [lit("float('inf')"), 'inf', 'same'],
      [lit('float("inf")'), '`.inf`', 'same'],
      [expr('math.inf'), 'infinity', 'same'],
      [lit("float('nan')"), 'nan', 'same'],
      [expr('60 * 60'), '3600', 'same'],
      [expr('2**20'), '1048576', 'same'],
      [expr('1 << 10'), '1024', 'same'],
      [expr('10 // 3'), '3', 'same'],
      [expr('1 / 4'), '0.25', 'same'],
      [expr('60 * 60'), '3000', 'different'],
      [lit('12345678901234567890'), '12345678901234567890', 'same'],
      [lit('12345678901234567890'), '12345678901234567891', 'different'],
    ],
  ],
  [
    'strings',
    [
      [lit('"abc"'), 'abc', 'same'],
      [lit("'abc'"), '"abc"', 'same'],
      [lit('"abc"'), "'abc'", 'same'],
      [lit('"abc"'), '`abc`', 'same'],
      [lit('"abc"'), '`"abc"`', 'same'],
      [lit('"abc"'), "``'abc'``", 'same'],
      [lit('"abc"'), 'abd', 'different'],
      [lit('"gpt-4o"'), '`gpt-4o-mini`', 'different'],
      [lit('"auto"'), 'auto', 'same'],
      [lit('"required"'), '`required`', 'same'],
      [lit('"INFO"'), 'info', 'unknown'],
      [lit('""'), '""', 'same'],
      [lit("''"), '`""`', 'same'],
      [lit('""'), 'empty string', 'same'],
      [lit('""'), 'empty', 'same'],
      [lit('"x"'), 'empty string', 'different'],
      [lit('"a b"'), 'a b', 'same'],
      [lit('"You are helpful."'), 'You are a helpful assistant', 'unknown'],
      [lit('"You are helpful."'), '`You are a helpful assistant`', 'different'],
      [lit('"8"'), '8', 'same'],
      [lit('"0.5"'), '.5', 'same'],
      [lit('"abc"'), '8', 'different'],
      [lit('"None"'), 'None', 'same'],
      [lit('"none"'), '`None`', 'unknown'],
      [lit('"fast"'), 'Fast', 'unknown'],
      [lit('"true"'), 'true', 'same'],
      [lit('"x"'), 'True', 'different'],
      [lit('r"\\d+"'), '`\\d+`', 'same'],
      [lit('"a\\nb"'), '`a\\nb`', 'same'],
      [lit('"a" "b"'), 'ab', 'same'],
      [lit("'it\\'s'"), "it's", 'same'],
      [lit('f"{x}/out"'), '`{x}/out`', 'unknown'],
      [expr('Path("out")'), '`out`', 'same'],
      [expr('Path("out")'), '`out2`', 'different'],
      [lit('"./out"'), './out', 'same'],
    ],
  ],
  [
    'containers',
    [
      [lit('[]'), '[]', 'same'],
      [lit('[]'), 'list()', 'same'],
      [lit('list()'), '[]', 'same'],
      [lit('[]'), 'empty list', 'same'],
      [lit('[]'), 'an empty list', 'same'],
      [lit('[]'), '`[]`', 'same'],
      [lit('{}'), '{}', 'same'],
      [lit('{}'), 'dict()', 'same'],
      [lit('dict()'), '`{}`', 'same'],
      [lit('{}'), 'empty dict', 'same'],
      [lit('[1]'), 'empty list', 'different'],
      [lit('{}'), 'empty list', 'unknown'],
      [lit('{}'), '[]', 'unknown'],
      [lit('[1, 2]'), '[1,2]', 'same'],
      [lit('[1, 2]'), '[1, 2, 3]', 'different'],
      [lit('[1, 2]'), '[2, 1]', 'different'],
      [lit('["a", "b"]'), '[a, b]', 'same'],
      [lit("['a', 'b']"), '["a", "b"]', 'same'],
      [lit('["a", "b"]'), '[a, c]', 'different'],
      [lit('(1, 2)'), '[1, 2]', 'same'],
      [lit('(1,)'), '[1]', 'same'],
      [lit('()'), '[]', 'same'],
      [lit('[1, 2,]'), '[1, 2]', 'same'],
      [lit('[\n    "a",  # first\n    "b",\n]'), '[a, b]', 'same'],
      [lit('{"a": 1, "b": True}'), '{b: true, a: 1}', 'same'],
      [lit('{"a": 1}'), '{"a": 2}', 'different'],
      [lit('{"a": 1}'), '{"b": 1}', 'different'],
      [lit('{"a": 1}'), '{}', 'different'],
      [lit('{"a", "b"}'), '[b, a]', 'same'],
      [lit('[0.001]'), '[1e-3]', 'same'],
      [lit('[None]'), '[null]', 'same'],
      [lit('["a"]'), 'a', 'unknown'],
      [lit('["a"]'), 'all models', 'unknown'],
      [lit('[]'), '0', 'different'],
    ],
  ],
  [
    'factories',
    [
      [fac('list'), '[]', 'same'],
      [fac('list'), 'empty list', 'same'],
      [fac('dict'), '{}', 'same'],
      [fac('dict'), '`dict()`', 'same'],
      [fac('set'), '[]', 'same'],
      [fac('lambda: [1, 2]'), '[1, 2]', 'same'],
      [fac('lambda: ["x"]'), '[y]', 'different'],
      [fac('list'), '[1]', 'different'],
      [fac('list'), 'None', 'different'],
      [fac('MyConfig'), '{}', 'unknown'],
      [fac('MyConfig'), 'MyConfig', 'same'],
    ],
  ],
  [
    'expressions and prose',
    [
      [undefined, '1', 'unknown'],
      [expr('os.cpu_count()'), '8', 'unknown'],
      [expr('os.cpu_count()'), '`os.cpu_count()`', 'same'],
      [expr('Color.RED'), 'RED', 'unknown'],
      [expr('get_default()'), 'None', 'unknown'],
      [lit('1'), '', 'unknown'],
      [lit('1'), '   ', 'unknown'],
      [lit('1'), 'see below', 'unknown'],
      [lit('1'), 'See the table below', 'unknown'],
      [lit('1'), 'auto', 'unknown'],
      [lit('1'), 'required', 'unknown'],
      [lit('1'), '*required*', 'unknown'],
      [lit('1'), '-', 'unknown'],
      [lit('1'), '—', 'unknown'],
      [lit('1'), 'n/a', 'unknown'],
      [lit('1'), 'N/A', 'unknown'],
      [lit('None'), 'same as `model`', 'unknown'],
      [lit('1'), '`1` or `2`', 'unknown'],
      [lit('"x"'), 'see below', 'unknown'],
      [lit('True'), 'depends on the backend', 'unknown'],
      [lit('1'), 'Defaults to the number of GPUs', 'unknown'],
      [lit('3'), '`3` (per worker)', 'same'],
      [lit('3'), '`4`.', 'different'],
      [lit('3'), '<code>3</code>', 'same'],
      [lit('lambda x: x'), 'x', 'unknown'],
      [lit('"???"'), '???', 'same'], // Hydra's MISSING
      [expr('MISSING'), '`???`', 'unknown'],
      [lit('1'), '???', 'unknown'],
      [lit('"${oc.env:HOME}"'), '`${oc.env:HOME}`', 'same'],
      [expr('Mode.FAST'), '`Mode.FAST`', 'same'],
      [lit('None'), '(none)', 'same'],
      [lit('5'), 'None, meaning unlimited', 'unknown'],
      [lit('True'), '`True`, to resume', 'unknown'],
      [lit('1j'), '1j', 'same'],
      [lit('1j'), '2j', 'unknown'],
    ],
  ],
];

describe('compareDefault', () => {
  for (const [group, rows] of table) {
    describe(group, () => {
      it.each(rows.map(([code, doc, want]) => [code ? `${code.kind} ${JSON.stringify(code.text)}` : 'undefined', JSON.stringify(doc), want, code, doc] as const))(
        '%s vs %s → %s',
        (_c, _d, want, code, doc) => {
          expect(compareDefault(code, doc)).toBe(want);
        },
      );
    });
  }
});

describe('formatDefault', () => {
  it.each([
    [lit('True'), 'True'],
    [lit("'abc'"), "'abc'"],
    [lit('  1e-3 '), '1e-3'],
    [lit('[\n    "a",\n    "b",\n]'), '["a", "b"]'],
    [lit('(\n  1,\n)'), '(1,)'],
    [lit('{\n  "a": -1,\n  "b": [1, 2],\n}'), '{"a": -1, "b": [1, 2]}'],
    [fac('list'), '[]'],
    [fac('dict'), '{}'],
    [fac('lambda: [1, 2]'), '[1, 2]'],
    [fac('MyConfig'), 'MyConfig()'],
    [expr('os.cpu_count()'), 'os.cpu_count()'],
    [expr('dict(\n  a=1,\n)'), 'dict(a=1)'],
  ])('%j → %s', (code, want) => {
    expect(formatDefault(code)).toBe(want);
  });
});

describe('suggestNames', () => {
  it('suggests nothing for a different name that merely shares a suffix', () => {
    // Seen on NeMo Gym: a stale `input_jsonl_fpath` row is not a typo of `rollouts_jsonl_fpath`.
    expect(suggestNames('input_jsonl_fpath', ['rollouts_jsonl_fpath', 'materialized_inputs_jsonl_fpath'])).toEqual([]);
    expect(suggestNames('output_jsonl_fpath', ['rollouts_jsonl_fpath'])).toEqual([]);
    expect(suggestNames('num_repeat', ['num_repeats'])).toEqual(['num_repeats']);
  });

  const names = ['resume_from_cache', 'temperature', 'top_p', 'num_samples_in_parallel', 'output_jsonl_fpath', 'limit', 'max_tokens'];
  it.each([
    ['resume-from-cache', ['resume_from_cache']],
    ['Resume_From_Cache', ['resume_from_cache']],
    ['temprature', ['temperature']],
    ['tempreature', ['temperature']],
    ['temperatur', ['temperature']],
    ['resume_from_cach', ['resume_from_cache']],
    ['cache_from_resume', ['resume_from_cache']],
    ['top_k', ['top_p']],
    ['limt', ['limit']],
    ['xyz', []],
    ['completely_different_name', []],
    ['max_token', ['max_tokens']],
  ])('%s → %j', (name, want) => {
    expect(suggestNames(name, names)).toEqual(want);
  });

  it('sorts by distance, limits to max, dedupes', () => {
    expect(suggestNames('abcd', ['abce', 'abcd', 'abxd', 'abcd', 'zzzz'], 2)).toEqual(['abcd', 'abce']);
    expect(suggestNames('abcd', ['abxd', 'abce'])).toEqual(['abce', 'abxd']);
    expect(suggestNames('abcd', ['abce'], 0)).toEqual([]);
  });

  it('prefers case/separator variants over edits', () => {
    expect(suggestNames('top-p', ['top_k', 'top_p', 'TOP_P'])).toEqual(['top_p', 'TOP_P', 'top_k'].slice(0, 3));
  });
});

describe('abbreviatedName (issue #31: env names with a word cut short)', () => {
  it('matches a word cut short or spelled out, word by word, only when one candidate does', async () => {
    const { abbreviatedName } = await import('../src/shared/names.js');
    expect(abbreviatedName('GITHUB_REPOSITORY', ['GITHUB_REPO', 'GITHUB_SECRET'])).toBe('GITHUB_REPO');
    expect(abbreviatedName('DB_CONN_TIMEOUT', ['DB_CONNECTION_TIMEOUT'])).toBe('DB_CONNECTION_TIMEOUT');
    // Two letters are no abbreviation; a different word count or an equal name is no match.
    expect(abbreviatedName('APP_DI', ['APP_DIRECTORY'])).toBeUndefined();
    expect(abbreviatedName('APP_REPO', ['APP_REPOSITORY_URL'])).toBeUndefined();
    expect(abbreviatedName('APP_REPO', ['APP_REPO'])).toBeUndefined();
    // Ambiguous: two candidates spell it out.
    expect(abbreviatedName('APP_REPO', ['APP_REPOSITORY', 'APP_REPORT'])).toBeUndefined();
    // A word that differs otherwise is no match.
    expect(abbreviatedName('GITHUB_REPOSITORY', ['GITLAB_REPO'])).toBeUndefined();
  });
});
