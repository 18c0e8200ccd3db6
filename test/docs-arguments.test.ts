/** Tests parseArguments on every Hydra override and flag form, and on invocations read from a real code block. */

import { describe, expect, test } from 'vitest';
import { parseArguments } from '../src/docs/arguments.js';
import { parseDoc } from '../src/docs/parse.js';
import type { CodeBlock, Invocation } from '../src/model/types.js';

const block: CodeBlock = { file: 'docs/a.md', lang: 'bash', location: { file: 'docs/a.md', line: 1, column: 1 } };

/** An invocation whose tokens sit on line 2, one column apart per token index (positions are not under test here). */
function inv(...args: string[]): Invocation {
  return {
    file: 'docs/a.md',
    command: 'ng_run',
    index: 3,
    args: args.map((text, i) => ({ text, location: { file: 'docs/a.md', line: 2, column: i + 1 } })),
    location: { file: 'docs/a.md', line: 2, column: 1 },
    block,
  };
}

/** The parsed usages without the shared fields. */
function parsed(...args: string[]) {
  return parseArguments(inv(...args)).map(({ name, key, syntax, prefix, value, raw }) =>
    value === undefined ? { raw, name, key, syntax, prefix } : { raw, name, key, syntax, prefix, value });
}

describe('Hydra overrides', () => {
  test.each([
    ['key=v', { name: 'key', key: 'key', prefix: '', value: 'v' }],
    ['+key=v', { name: 'key', key: 'key', prefix: '+', value: 'v' }],
    ['++key=v', { name: 'key', key: 'key', prefix: '++', value: 'v' }],
    ['~key', { name: 'key', key: 'key', prefix: '~' }],
    ['~key=v', { name: 'key', key: 'key', prefix: '~', value: 'v' }],
    ['key=', { name: 'key', key: 'key', prefix: '', value: '' }],
    ['+responses_create_params.temperature=0.7', { name: 'responses_create_params', key: 'responses_create_params.temperature', prefix: '+', value: '0.7' }],
    ['a.0.b=1', { name: 'a', key: 'a.0.b', prefix: '', value: '1' }],
    ['db=mysql', { name: 'db', key: 'db', prefix: '', value: 'mysql' }],
    ['server/db=mysql', { name: 'server', key: 'server/db', prefix: '', value: 'mysql' }],
    ['db@backup=mysql', { name: 'db', key: 'db@backup', prefix: '', value: 'mysql' }],
    ['+db@_global_=mysql', { name: 'db', key: 'db@_global_', prefix: '+', value: 'mysql' }],
    ['+config_paths=[a,b]', { name: 'config_paths', key: 'config_paths', prefix: '+', value: '[a,b]' }],
    ['+msg=a=b c', { name: 'msg', key: 'msg', prefix: '+', value: 'a=b c' }],
    ['lr=choice(0.1,0.01)', { name: 'lr', key: 'lr', prefix: '', value: 'choice(0.1,0.01)' }],
    ['$name=1', { name: '$name', key: '$name', prefix: '', value: '1' }],
  ])('%s', (token, expected) => {
    expect(parsed(token)).toEqual([{ raw: token, syntax: 'hydra-override', ...expected }]);
  });

  test.each([['train'], ['data/file.jsonl'], ['+key'], ['++key'], ['https://x.org/?a=b'], ['=v'], ['1=2'], ['.a=1']])(
    'not an override: %s', (token) => {
      expect(parsed(token)).toEqual([]);
    });
});

describe('flags', () => {
  test('--name=v, --name v, --no-name, -x, -x v', () => {
    expect(parsed('--limit=5', '--output', 'out.jsonl', '--no-cache', '-v', '-n', '3')).toEqual([
      { raw: '--limit=5', name: 'limit', key: 'limit', syntax: 'flag', prefix: '--', value: '5' },
      { raw: '--output', name: 'output', key: 'output', syntax: 'flag', prefix: '--', value: 'out.jsonl' },
      { raw: '--no-cache', name: 'no-cache', key: 'no-cache', syntax: 'flag', prefix: '--' },
      { raw: '-v', name: 'v', key: 'v', syntax: 'flag', prefix: '-' },
      { raw: '-n', name: 'n', key: 'n', syntax: 'flag', prefix: '-', value: '3' },
    ]);
  });

  test('a dotted flag addresses a nested field: name is the first segment, key the whole path', () => {
    expect(parsed('--data.repo_id=lerobot/pusht', '--optim.lr', '0.1')).toEqual([
      { raw: '--data.repo_id=lerobot/pusht', name: 'data', key: 'data.repo_id', syntax: 'flag', prefix: '--', value: 'lerobot/pusht' },
      { raw: '--optim.lr', name: 'optim', key: 'optim.lr', syntax: 'flag', prefix: '--', value: '0.1' },
    ]);
  });

  test('a following flag or override is not a value; a negative number is', () => {
    expect(parsed('--verbose', '+a=1', '--dry-run', '--offset', '-1', '--x', '~b')).toEqual([
      { raw: '--verbose', name: 'verbose', key: 'verbose', syntax: 'flag', prefix: '--' },
      { raw: '+a=1', name: 'a', key: 'a', syntax: 'hydra-override', prefix: '+', value: '1' },
      { raw: '--dry-run', name: 'dry-run', key: 'dry-run', syntax: 'flag', prefix: '--' },
      { raw: '--offset', name: 'offset', key: 'offset', syntax: 'flag', prefix: '--', value: '-1' },
      { raw: '--x', name: 'x', key: 'x', syntax: 'flag', prefix: '--' },
      { raw: '~b', name: 'b', key: 'b', syntax: 'hydra-override', prefix: '~' },
    ]);
  });

  test('`--` ends option parsing; `-` and bare words yield nothing', () => {
    expect(parsed('run', '-', '+a=1', '--', '+b=2', '--c')).toEqual([
      { raw: '+a=1', name: 'a', key: 'a', syntax: 'hydra-override', prefix: '+', value: '1' },
    ]);
  });
});

describe('usages carry the invocation context', () => {
  test('file, command, invocation index, block and the token location', () => {
    const [u] = parseArguments(inv('x', '+k=1'));
    expect(u).toEqual({
      file: 'docs/a.md',
      command: 'ng_run',
      invocation: 3,
      raw: '+k=1',
      name: 'k',
      key: 'k',
      syntax: 'hydra-override',
      prefix: '+',
      value: '1',
      location: { file: 'docs/a.md', line: 2, column: 2 },
      block,
    });
  });

  test('from a real code block: quoted forms arrive unquoted, positions are the quoted word\'s', () => {
    const text = [
      '```bash',
      'uv run ng_collect_rollouts +agent_name=simple_agent \\',
      '    "+config_paths=[configs/a.yaml,configs/b.yaml]" \\',
      "    '++responses_create_params.max_output_tokens=512' --limit 5",
      '```',
    ].join('\n');
    const { doc } = parseDoc('README.md', text);
    const usages = parseArguments(doc.invocations[0]!);
    expect(usages.map((u) => [u.command, u.key, u.prefix, u.value, `${u.location.line}:${u.location.column}`])).toEqual([
      ['ng_collect_rollouts', 'agent_name', '+', 'simple_agent', '2:28'],
      ['ng_collect_rollouts', 'config_paths', '+', '[configs/a.yaml,configs/b.yaml]', '3:5'],
      ['ng_collect_rollouts', 'responses_create_params.max_output_tokens', '++', '512', '4:5'],
      ['ng_collect_rollouts', 'limit', '--', '5', '4:55'],
    ]);
    expect(usages[1]!.block).toBe(doc.codeBlocks[0]);
  });
});

describe('a quoted word that looks like a flag', () => {
  const fromDoc = (line: string) => {
    const { doc } = parseDoc('docs/a.md', ['# a', '', '```bash', line, '```', ''].join('\n'));
    return doc.invocations.flatMap((i) => parseArguments(i)).map((u) => (u.value === undefined ? u.key : `${u.key}=${u.value}`));
  };
  test('is the value of the flag before it (shot-scraper: --browser-arg "--disable-gpu")', () => {
    expect(fromDoc('shot-scraper shot x --browser-arg "--font-render-hinting=none" --browser-arg \'--disable-gpu\' --width 800')).toEqual([
      'browser-arg=--font-render-hinting=none',
      'browser-arg=--disable-gpu',
      'width=800',
    ]);
  });
  test('a flag with a quoted inline value after a switch is still a flag of its own', () => {
    expect(fromDoc('tool --verbose --name="a b"')).toEqual(['verbose', 'name=a b']);
  });
});
