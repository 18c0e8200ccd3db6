/** Bounds on Python literals read by the extractors (#33 fresh sweep defect 8): huge literals are values unknown, read without walking them. */
import { describe, expect, it } from 'vitest';
import { getPythonParser } from '../src/extract/python/parser.js';
import { isLiteralNode, MAX_CONCATENATED_PARTS, MAX_LITERAL_CHARS, readValue, stringValue } from '../src/extract/python/values.js';

/** The expression of `x = <source>`, parsed. */
async function expression(source: string) {
  const parser = await getPythonParser();
  const tree = parser.parse(`x = ${source}\n`)!;
  const assignment = tree.rootNode.namedChildren[0]!.namedChildren[0]!;
  return { node: assignment.childForFieldName('right')!, done: () => tree.delete() };
}

describe('Python literal caps', () => {
  it('an implicit concatenation of more than 1,000 pieces has no known value; 1,000 pieces have', async () => {
    const over = await expression(Array(MAX_CONCATENATED_PARTS + 1).fill('"a"').join(' '));
    expect(stringValue(over.node)).toBeUndefined();
    over.done();
    const at = await expression(Array(MAX_CONCATENATED_PARTS).fill('"a"').join(' '));
    expect(stringValue(at.node)).toBe('a'.repeat(MAX_CONCATENATED_PARTS));
    at.done();
  });

  it('a list literal over 64 KB of source is an expression of unknown value, its text cut', async () => {
    const items = Math.ceil(MAX_LITERAL_CHARS / 5) + 1;
    const big = await expression(`[${Array(items).fill('"a"').join(', ')}]`);
    const value = readValue(big.node);
    expect(value.literal).toBe(false);
    expect(value.text.length).toBeLessThanOrEqual(81);
    expect(value.text.endsWith('…')).toBe(true);
    expect(isLiteralNode(big.node)).toBe(false);
    big.done();
    const small = await expression('["a", "b"]');
    expect(readValue(small.node)).toMatchObject({ text: '["a", "b"]', literal: true });
    small.done();
  });

  it('a single long string literal is still read (a docopt usage text may be long)', async () => {
    const long = await expression(`"""${'usage line\n'.repeat(10_000)}"""`);
    expect(stringValue(long.node)?.length).toBe(110_000);
    long.done();
  });
});

describe('the module scan reads a large module in runs of statements', () => {
  it('finds every function\'s calls and every string key past the first 64 KB, with non-ASCII text before them', async () => {
    const { scanModule } = await import('../src/extract/python/scan.js');
    const parser = await getPythonParser();
    const filler = Array.from({ length: 6000 }, (_, i) => `v${i} = "é😀 ${'x'.repeat(20)}"  # ü\n`).join('');
    const functions = Array.from({ length: 50 }, (_, i) => `def f${i}(cfg):\n    Config${i}.model_validate(cfg)\n    return cfg.get("key_${i}")\n`).join('');
    const text = `${filler}${functions}`;
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    const tree = parser.parse(text)!;
    const info = scanModule('m.py', 'm', tree);
    for (let i = 0; i < 50; i++) {
      expect(info.functions.get(`f${i}`)!.calls.map((c) => c.callee.join('.'))).toEqual([`Config${i}.model_validate`, 'cfg.get']);
      expect(info.stringKeys.has(`key_${i}`)).toBe(true);
    }
    tree.delete();
  });
});
