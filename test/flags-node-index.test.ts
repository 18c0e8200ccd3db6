import { describe, expect, it } from 'vitest';
import { addAlias, findParam, newNode, newParam } from '../src/extract/typescript/flags-node.js';

const at = { file: 'src/cli.ts', line: 1, column: 1 };

describe('findParam (indexed)', () => {
  it('finds what a scan by name, then by alias, finds, as params and aliases are added', () => {
    const node = newNode('yargs', at);
    const a = newParam('alpha', at);
    node.params.push(a);
    expect(findParam(node, 'alpha')).toBe(a);
    expect(findParam(node, 'a')).toBeUndefined();
    addAlias(a, 'a');
    expect(findParam(node, 'a')).toBe(a);
    const b = newParam('beta', at);
    addAlias(b, 'a');
    node.params.push(b);
    // `a` is alpha's alias first: the lower position wins, as Array.prototype.find would.
    expect(findParam(node, 'a')).toBe(a);
    const c = newParam('a', at);
    node.params.push(c);
    // A name beats an alias.
    expect(findParam(node, 'a')).toBe(c);
    addAlias(b, 'bb');
    expect(findParam(node, 'bb')).toBe(b);
    // A new array (the node's params replaced): indexed again.
    node.params = [b];
    expect(findParam(node, 'alpha')).toBeUndefined();
    expect(findParam(node, 'a')).toBe(b);
  });

  it('never returns a stale entry: an alias removed in place is not found', () => {
    const node = newNode('yargs', at);
    const a = newParam('alpha', at);
    node.params.push(a);
    addAlias(a, 'x');
    expect(findParam(node, 'x')).toBe(a);
    a.aliases = [];
    expect(findParam(node, 'x')).toBeUndefined();
  });

  it('finds each of 20,000 params and their aliases added in a loop (yargs options)', () => {
    const node = newNode('yargs', at);
    for (let i = 0; i < 20_000; i++) {
      if (findParam(node, `o${i}`) === undefined) node.params.push(newParam(`o${i}`, at));
      addAlias(node.params[i]!, `s${i}`);
    }
    expect(node.params).toHaveLength(20_000);
    expect(findParam(node, 's19999')?.name).toBe('o19999');
    expect(findParam(node, 'o0')?.aliases).toEqual(['s0']);
  });
});
