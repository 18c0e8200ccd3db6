/** Config-file example blocks: keys at any depth with exact document positions, for YAML, JSON and TOML. */
import { describe, expect, it } from 'vitest';
import { dataBlockKeys } from '../src/docs/config-keys.js';
import type { DataBlock } from '../src/model/types.js';

function block(lang: DataBlock['lang'], value: string, contentLine = 10, contentIndent = 0): DataBlock {
  return { file: 'docs/config.md', lang, value, contentLine, contentIndent, location: { file: 'docs/config.md', line: contentLine - 1, column: 1 } };
}

const summary = (b: DataBlock) => dataBlockKeys(b).map((k) => `${k.key}@${k.line}:${k.column}-${k.endColumn}`);

describe('dataBlockKeys', () => {
  it('reads YAML keys at any depth, looking through lists', () => {
    const yaml = ['logging:', '  level: info', '  rotate_bytes: 1000', 'servers:', '  - name: a', '    port: 1', '"quoted.key": 1', ''].join('\n');
    expect(summary(block('yaml', yaml))).toEqual([
      'logging@10:1-8',
      'logging.level@11:3-8',
      'logging.rotate_bytes@12:3-15',
      'servers@13:1-8',
      'servers.name@14:5-9',
      'servers.port@15:5-9',
      'quoted.key@16:1-13',
    ]);
  });

  it('reads JSON as YAML, and adds the fence indentation to columns', () => {
    const json = ['{', '  "sources": ["src/**/*.py"],', '  "rules": { "parse-error": "off" }', '}'].join('\n');
    expect(summary(block('json', json, 5, 3))).toEqual(['sources@6:6-15', 'rules@7:6-13', 'rules.parse-error@7:17-30']);
  });

  it('reads TOML tables and dotted keys line by line', () => {
    const toml = ['name = "x"', '[logging]', 'level = "info"', 'rotate.bytes = 1', '[[servers]]', '"port" = 1', '# comment = no'].join('\n');
    expect(summary(block('toml', toml, 1))).toEqual([
      'name@1:1-5',
      'logging.level@3:1-6',
      'logging.rotate.bytes@4:1-13',
      'servers.port@6:1-7',
    ]);
  });

  it('keeps the segments of a path whose map key contains a dot (a file name under `commands`)', () => {
    const json = ['{ "commands": {', '  "my_pkg.yaml": { "kind": "config-file" },', '  "train": { "config": "x" } } }'].join('\n');
    expect(dataBlockKeys(block('json', json)).map((k) => [k.key, k.segments])).toEqual([
      ['commands', undefined],
      ['commands.my_pkg.yaml', ['commands', 'my_pkg.yaml']],
      ['commands.my_pkg.yaml.kind', ['commands', 'my_pkg.yaml', 'kind']],
      ['commands.train', undefined],
      ['commands.train.config', undefined],
    ]);
    const toml = ['[commands."my_pkg.yaml"]', 'kind = "config-file"'].join('\n');
    expect(dataBlockKeys(block('toml', toml)).map((k) => k.segments)).toEqual([['commands', 'my_pkg.yaml', 'kind']]);
  });

  it('never throws on broken input', () => {
    expect(dataBlockKeys(block('yaml', 'a: [\n  b: {'))).toBeInstanceOf(Array);
    expect(dataBlockKeys(block('json', '{"a": '))).toBeInstanceOf(Array);
    expect(dataBlockKeys(block('toml', '[a\nb = '))).toBeInstanceOf(Array);
  });
});
