/** Tests of the stylish and json formatters (src/report). */
import { describe, expect, it } from 'vitest';
import { VFileMessage } from 'vfile-message';
import type { DriftMessage, RelatedLocation } from '../src/model/rule.js';
import { formatters } from '../src/report/index.js';

interface Spec {
  file: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  ruleId: string;
  messageId?: string;
  severity: 'error' | 'warn';
  reason: string;
  data?: Record<string, string>;
  related?: RelatedLocation[];
  suggestion?: string;
}

function message(spec: Spec): DriftMessage {
  const place =
    spec.line === undefined
      ? undefined
      : spec.endLine !== undefined
        ? { start: { line: spec.line, column: spec.column ?? 1 }, end: { line: spec.endLine, column: spec.endColumn ?? 1 } }
        : { line: spec.line, column: spec.column ?? 1 };
  const m = new VFileMessage(spec.reason, { place, ruleId: spec.ruleId, source: 'docdrift' }) as DriftMessage;
  m.file = spec.file;
  m.messageId = spec.messageId ?? 'default';
  m.data = spec.data ?? {};
  m.severity = spec.severity;
  m.fatal = spec.severity === 'error';
  m.related = spec.related ?? [];
  if (spec.suggestion !== undefined) m.suggestion = spec.suggestion;
  return m;
}

// Deliberately out of order: formatters sort.
const sample = (): DriftMessage[] => [
  message({
    file: 'docs/cli.mdx',
    line: 118,
    column: 3,
    endLine: 118,
    endColumn: 25,
    ruleId: 'example-param-undocumented',
    messageId: 'undocumented',
    severity: 'warn',
    reason: '`resume_from_cache` is used here but has no row in the `ng_collect_rollouts` reference.',
    data: { name: 'resume_from_cache', command: 'ng_collect_rollouts' },
    related: [
      { file: 'nemo_gym/config.py', line: 12, column: 5, message: 'defined here' },
      { file: 'docs/cli.mdx', line: 40, column: 1, endLine: 60, endColumn: 1, message: 'reference section' },
    ],
  }),
  message({
    file: 'README.md',
    line: 7,
    column: 14,
    ruleId: 'example-param-unknown',
    messageId: 'unknown',
    severity: 'error',
    reason: '`limt` is not a parameter of `ng_run`.',
    data: { name: 'limt', command: 'ng_run' },
    suggestion: 'limit',
  }),
  message({
    file: 'docs/cli.mdx',
    line: 9,
    column: 1,
    ruleId: 'reference-default-mismatch',
    messageId: 'mismatch',
    severity: 'error',
    reason: 'Default of `top_p` is documented as `0.9`\nbut the code says `1.0`.',
    data: { name: 'top_p', documented: '0.9', code: '1.0' },
  }),
];

describe('stylish', () => {
  it('prints ESLint-style aligned output, grouped by file', () => {
    const out = formatters.stylish(sample(), { root: '/repo' });
    expect(out).toBe(
      [
        '',
        'README.md',
        '  7:14  error  `limt` is not a parameter of `ng_run`.  example-param-unknown',
        '',
        'docs/cli.mdx',
        '    9:1  error    Default of `top_p` is documented as `0.9` but the code says `1.0`.  reference-default-mismatch',
        '  118:3  warning  `resume_from_cache` is used here but has no row in the `ng_collect_rollouts` reference.  example-param-undocumented',
        '    ↳ nemo_gym/config.py:12:5 defined here',
        '    ↳ docs/cli.mdx:40:1 reference section',
        '',
        '✖ 3 problems (2 errors, 1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('aligns rule ids in a file whose messages are all short', () => {
    const msgs = [
      message({ file: 'docs/a.md', line: 3, column: 10, ruleId: 'example-param-unknown', severity: 'error', reason: '`limt` is not a parameter of `ng_run`.' }),
      message({ file: 'docs/a.md', line: 12, column: 1, ruleId: 'reference-param-missing', severity: 'warn', reason: '`seed` has no row.' }),
      message({ file: 'docs/a.md', line: 140, column: 7, ruleId: 'reference-default-mismatch', severity: 'warn', reason: 'Default differs.' }),
    ];
    expect(formatters.stylish(msgs, { root: '/repo' })).toBe(
      [
        '',
        'docs/a.md',
        '    3:10  error    `limt` is not a parameter of `ng_run`.  example-param-unknown',
        '   12:1   warning  `seed` has no row.                      reference-param-missing',
        '  140:7   warning  Default differs.                        reference-default-mismatch',
        '',
        '✖ 3 problems (1 error, 2 warnings)',
        '',
      ].join('\n'),
    );
  });

  it('does not pad to a long message: rule ids follow messages after two spaces', () => {
    const long = `\`${'x'.repeat(150)}\` is used here but has no row in the \`ng_collect_rollouts\` reference (docs/reference/cli-commands.mdx:118).`;
    const msgs = [
      message({ file: 'docs/b.md', line: 2, column: 1, ruleId: 'example-param-undocumented', severity: 'warn', reason: long }),
      message({ file: 'docs/b.md', line: 9, column: 4, ruleId: 'example-param-unknown', severity: 'error', reason: 'Short one.' }),
      message({ file: 'docs/c.md', line: 1, column: 1, ruleId: 'reference-param-missing', severity: 'warn', reason: 'Short.' }),
      message({ file: 'docs/c.md', line: 2, column: 1, ruleId: 'example-param-unknown', severity: 'warn', reason: 'A bit longer.' }),
    ];
    const out = formatters.stylish(msgs, { root: '/repo' });
    expect(out).toBe(
      [
        '',
        'docs/b.md',
        `  2:1  warning  ${long}  example-param-undocumented`,
        '  9:4  error    Short one.  example-param-unknown',
        '',
        // Alignment is decided per file: c.md's messages are short.
        'docs/c.md',
        '  1:1  warning  Short.         reference-param-missing',
        '  2:1  warning  A bit longer.  example-param-unknown',
        '',
        '✖ 4 problems (1 error, 3 warnings)',
        '',
      ].join('\n'),
    );
    // The one long line is as long as its content requires, and no line ends in whitespace.
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBe(`  2:1  warning  ${long}  example-param-undocumented`.length);
    expect(out.split('\n').filter((l) => /\s$/.test(l))).toEqual([]);
  });

  it('aligns a message of exactly 80 characters, not one of 81', () => {
    const at = (n: number) => [
      message({ file: 'a.md', line: 1, column: 1, ruleId: 'r1', severity: 'warn', reason: 'm'.repeat(n) }),
      message({ file: 'a.md', line: 2, column: 1, ruleId: 'r2', severity: 'warn', reason: 'short' }),
    ];
    expect(formatters.stylish(at(80), { root: '/' }).split('\n')[3]).toBe(`  2:1  warning  short${' '.repeat(75)}  r2`);
    expect(formatters.stylish(at(81), { root: '/' }).split('\n')[3]).toBe('  2:1  warning  short  r2');
  });

  it('never emits trailing whitespace, with or without colour', () => {
    const msgs = [
      ...sample(),
      message({ file: 'a.md', line: 1, column: 1, ruleId: '', severity: 'warn', reason: 'no rule id' }),
      message({ file: 'a.md', line: 10, column: 12, ruleId: 'r', severity: 'error', reason: 'x' }),
    ];
    for (const color of [false, true]) {
      // eslint-disable-next-line no-control-regex
      const plain = formatters.stylish(msgs, { root: '/repo', color }).replace(/\u001B\[\d+m/g, '');
      expect(plain.split('\n').filter((l) => /\s$/.test(l))).toEqual([]);
    }
  });

  it('shows paths relative to cwd when given', () => {
    const out = formatters.stylish(sample().slice(1, 2), { root: '/repo', cwd: '/repo/docs' });
    expect(out.split('\n')[1]).toBe('../README.md');
  });

  it('singular and plural in the summary', () => {
    const one = [message({ file: 'a.md', line: 1, column: 1, ruleId: 'r', severity: 'warn', reason: 'x' })];
    expect(formatters.stylish(one, { root: '/' }).trimEnd().split('\n').at(-1)).toBe('✖ 1 problem (0 errors, 1 warning)');
    const two = [
      message({ file: 'a.md', line: 1, column: 1, ruleId: 'r', severity: 'error', reason: 'x' }),
      message({ file: 'a.md', line: 2, column: 1, ruleId: 'r', severity: 'warn', reason: 'y' }),
    ];
    expect(formatters.stylish(two, { root: '/' }).trimEnd().split('\n').at(-1)).toBe('✖ 2 problems (1 error, 1 warning)');
  });

  it('shows 0:0 for a message without a position', () => {
    const out = formatters.stylish([message({ file: 'a.md', ruleId: 'parse-error', severity: 'error', reason: 'bad' })], { root: '/' });
    expect(out.split('\n')[2]).toBe('  0:0  error  bad  parse-error');
  });

  it('returns an empty string for no messages', () => {
    expect(formatters.stylish([], { root: '/repo' })).toBe('');
  });

  it('colours only when asked', () => {
    expect(formatters.stylish(sample(), { root: '/repo' })).not.toContain('\u001B[');
    const out = formatters.stylish(sample(), { root: '/repo', color: true });
    expect(out).toContain('\u001B[4mREADME.md\u001B[24m');
    expect(out).toContain('\u001B[31merror\u001B[39m');
    expect(out).toContain('\u001B[33mwarning\u001B[39m');
    expect(out).toContain('\u001B[31m\u001B[1m✖ 3 problems (2 errors, 1 warning)\u001B[22m\u001B[39m');
    // Stripping colours gives the plain output back.
    // eslint-disable-next-line no-control-regex
    expect(out.replace(/\u001B\[\d+m/g, '')).toBe(formatters.stylish(sample(), { root: '/repo' }));
  });

  it('is independent of input order', () => {
    expect(formatters.stylish([...sample()].reverse(), { root: '/repo' })).toBe(formatters.stylish(sample(), { root: '/repo' }));
  });
});

describe('json', () => {
  it('has the documented shape, sorted by file, line, column, rule id', () => {
    const report = JSON.parse(formatters.json(sample(), { root: '/repo' }));
    expect(report).toEqual({
      version: 1,
      results: [
        {
          file: 'README.md',
          line: 7,
          column: 14,
          endLine: null,
          endColumn: null,
          ruleId: 'example-param-unknown',
          messageId: 'unknown',
          severity: 'error',
          message: '`limt` is not a parameter of `ng_run`.',
          data: { command: 'ng_run', name: 'limt' },
          related: [],
          suggestion: 'limit',
        },
        {
          file: 'docs/cli.mdx',
          line: 9,
          column: 1,
          endLine: null,
          endColumn: null,
          ruleId: 'reference-default-mismatch',
          messageId: 'mismatch',
          severity: 'error',
          message: 'Default of `top_p` is documented as `0.9`\nbut the code says `1.0`.',
          data: { code: '1.0', documented: '0.9', name: 'top_p' },
          related: [],
        },
        {
          file: 'docs/cli.mdx',
          line: 118,
          column: 3,
          endLine: 118,
          endColumn: 25,
          ruleId: 'example-param-undocumented',
          messageId: 'undocumented',
          severity: 'warn',
          message: '`resume_from_cache` is used here but has no row in the `ng_collect_rollouts` reference.',
          data: { command: 'ng_collect_rollouts', name: 'resume_from_cache' },
          related: [
            { file: 'nemo_gym/config.py', line: 12, column: 5, message: 'defined here' },
            { file: 'docs/cli.mdx', line: 40, column: 1, endLine: 60, endColumn: 1, message: 'reference section' },
          ],
        },
      ],
      summary: { errors: 2, warnings: 1 },
    });
  });

  it('is stable: same text for any input order, keys in a fixed order', () => {
    const a = formatters.json(sample(), { root: '/repo' });
    expect(formatters.json([...sample()].reverse(), { root: '/repo' })).toBe(a);
    expect(Object.keys(JSON.parse(a).results[0])).toEqual([
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'ruleId',
      'messageId',
      'severity',
      'message',
      'data',
      'related',
      'suggestion',
    ]);
    expect(a.endsWith('}\n')).toBe(true);
  });

  it('sorts by rule id when positions are equal', () => {
    const msgs = [
      message({ file: 'a.md', line: 1, column: 1, ruleId: 'z-rule', severity: 'warn', reason: 'z' }),
      message({ file: 'a.md', line: 1, column: 1, ruleId: 'a-rule', severity: 'warn', reason: 'a' }),
    ];
    expect(JSON.parse(formatters.json(msgs, { root: '/' })).results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['a-rule', 'z-rule']);
  });

  it('an empty report still has the full shape', () => {
    expect(JSON.parse(formatters.json([], { root: '/' }))).toEqual({ version: 1, results: [], summary: { errors: 0, warnings: 0 } });
  });
});

describe('control characters from documents (#17 item 8)', () => {
  // A parameter name holding a terminal reset, a window title, an OSC 52 clipboard write, a CSI
  // (C1), a carriage return and a right-to-left override.
  const hostile = 'seed\u001bc\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBoaQ==\u0007\u009b31m\rX\u202Egnp.exe';
  const messages = (): DriftMessage[] => [
    message({
      file: 'docs/evil\u001b[2J.md',
      line: 3,
      column: 1,
      ruleId: 'example-param-unknown',
      severity: 'error',
      reason: `\`${hostile}\` is not a parameter`,
      related: [{ file: 'src/a\u0007.py', line: 1, column: 1, message: `defined as ${hostile}` }],
    }),
  ];

  it('stylish (with and without colour) writes no raw C0/C1 control or bidi override, only visible escapes', () => {
    for (const color of [false, true]) {
      const out = formatters.stylish(messages(), { root: '/p', color });
      // Only the formatter's own SGR colour sequences may contain ESC.
      const withoutOwnColours = out.replace(/\u001b\[(?:\d+)m/g, '');
      expect(withoutOwnColours).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
      expect(out).toContain('seed\\x1bc\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBoaQ==\\x07\\x9b31m\\x0dX\\u202egnp.exe');
      expect(out).toContain('docs/evil\\x1b[2J.md');
      expect(out).toContain('src/a\\x07.py');
    }
  });

  it('github keeps the toolkit escaping (%, CR, LF) and escapes the other controls', () => {
    const out = formatters.github(messages(), { root: '/p' });
    expect(out).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
    expect(out).toContain('\\x1b]52;c;ZWNobyBoaQ==\\x07');
    expect(out).toContain('%0DX');
  });

  it('json and sarif keep the exact text (JSON escapes it; machines read it)', () => {
    const out = formatters.json(messages(), { root: '/p' });
    expect(JSON.parse(out).results[0].message).toContain(hostile);
  });
});
