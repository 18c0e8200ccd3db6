/** commentedYamlRows: which YAML blocks are a reference, and the rows they give (issue #13 item 9). */
import { describe, expect, it } from 'vitest';
import { commentedYamlRows } from '../src/docs/yaml-reference.js';
import type { DataBlock } from '../src/model/types.js';

function block(value: string, lang: DataBlock['lang'] = 'yaml'): DataBlock {
  return { file: 'docs/config.md', lang, value, contentLine: 10, contentIndent: 2, location: { file: 'docs/config.md', line: 9, column: 3 } };
}

describe('commentedYamlRows', () => {
  it('reads frontmatter-fenced keys with comments above and at the end of the line', () => {
    const rows = commentedYamlRows(block(['---', '# custom clicks count', '# Learn more: https://x.dev', 'clicks: 0', "title: undefined # or string", '---'].join('\n')))!;
    expect(rows.map((r) => [r.names[0], r.default, r.description])).toEqual([
      ['clicks', '0', 'custom clicks count Learn more: https://x.dev'],
      ['title', 'undefined', 'or string'],
    ]);
    // Key and value positions are document positions: content line + indent added.
    expect(rows[0]!.location).toMatchObject({ line: 13, column: 3, endColumn: 9 });
    expect(rows[0]!.defaultLocation).toMatchObject({ line: 13, column: 11, endColumn: 12 });
  });

  it('reads a block once: a second call gives equal rows of its own (the link stage builds sections of them)', () => {
    const b = block(['# The port', 'port: 8080', '# The host', 'host: localhost'].join('\n'));
    const first = commentedYamlRows(b)!;
    first[0]!.names.push('changed');
    first[0]!.location.line = 1;
    const second = commentedYamlRows(b)!;
    expect(second.map((r) => [r.names, r.location.line])).toEqual([[['port'], 11], [['host'], 13]]);
    expect(second[0]).not.toBe(first[0]);
    // Not a reference stays not a reference.
    const plain = block('port: 8080\nhost: localhost');
    expect(commentedYamlRows(plain)).toBeUndefined();
    expect(commentedYamlRows(plain)).toBeUndefined();
  });

  it('takes the default a comment states, the value then being an example (generated jsonargparse configs)', () => {
    const rows = commentedYamlRows(block([
      '# The LoRA rank. (type: int, default: 8)', 'lora_r: 32', '',
      '# Directory to save to. (type: <class \'Path\'>, default: out/lora)', 'out_dir: out/finetune/x', '',
      '# The precision. (type: Optional[str], default: null)', 'precision: bf16-true', '',
      '# Seconds to wait', 'timeout: 30',
    ].join('\n')))!;
    expect(rows.map((r) => [r.names[0], r.default])).toEqual([['lora_r', '8'], ['out_dir', 'out/lora'], ['precision', 'null'], ['timeout', '30']]);
  });

  it('dots nested keys and makes a key holding a mapping a group, not a row', () => {
    const rows = commentedYamlRows(block(['# the server', 'server:', '  host: 0.0.0.0  # bind address', '  tls: {}  # certificates', 'tags: [] # labels'].join('\n')))!;
    expect(rows.map((r) => [r.names[0], r.default])).toEqual([['server.host', '0.0.0.0'], ['server.tls', '{}'], ['tags', '[]']]);
  });

  it('gives no row for a non-scalar default and drops a comment that only names the file', () => {
    const rows = commentedYamlRows(block(['# app.yaml', 'hosts:  # every host', '  - a', '  - b'].join('\n')))!;
    expect(rows).toEqual([expect.objectContaining({ names: ['hosts'], description: 'every host' })]);
    expect(rows[0]!.default).toBeUndefined();
  });

  it('is undefined for an ordinary example: fewer than half of the keys commented, a list, TOML', () => {
    expect(commentedYamlRows(block(['name: billing  # the service', 'workers: 8', 'port: 9000'].join('\n')))).toBeUndefined();
    expect(commentedYamlRows(block('- repo: x  # a hook'))).toBeUndefined();
    expect(commentedYamlRows(block('port = 1  # p', 'toml'))).toBeUndefined();
    expect(commentedYamlRows(block('key: [unclosed'))).toBeUndefined();
  });
});
