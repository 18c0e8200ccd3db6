/**
 * The Python readers list a node's children without leaving the list on the node's wrapper
 * (web-tree-sitter caches it there): the flag readers' memos keep wrappers of every `call` until
 * the extraction ends, and the cached lists kept every child below them (NeMo Gym's Python worker:
 * 153 MB committed heap, 70 MB live, issue #35).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { getPythonParser } from '../src/extract/python/parser.js';
import { allChildren, allNamedChildren, namedChildren } from '../src/extract/python/values.js';

const SOURCE = 'import argparse\n# a comment\nparser = argparse.ArgumentParser(prog="x")\nparser.add_argument("--flag", default=1)  # trailing\n';

/** The child-list caches web-tree-sitter keeps on a node wrapper. */
function cachedLists(node: Node): unknown[] {
  const fields = node as unknown as { _children?: unknown; _namedChildren?: unknown };
  return [fields._children, fields._namedChildren].filter((list) => list !== undefined);
}

describe('child lists of Python syntax nodes', () => {
  it('list the same nodes as the getters, in order, and leave no list cached on the node', async () => {
    const parser = await getPythonParser();
    const tree = parser.parse(SOURCE)!;
    try {
      const root = tree.rootNode;
      const ids = (list: Array<Node | null>): number[] => list.map((n) => n!.id);
      const named = allNamedChildren(root);
      expect(cachedLists(root)).toEqual([]);
      const all = allChildren(root);
      expect(cachedLists(root)).toEqual([]);
      const reference = parser.parse(SOURCE)!;
      try {
        // Same shape as the caching getters of a second parse (ids differ between trees: compare types and offsets).
        const shape = (list: Array<Node | null>): string[] => list.map((n) => `${n!.type}@${n!.startIndex}`);
        expect(shape(named)).toEqual(shape(reference.rootNode.namedChildren));
        expect(shape(all)).toEqual(shape(reference.rootNode.children));
      } finally {
        reference.delete();
      }
      // The helper without comments: the same nodes (by id), the comment left out.
      const call = namedChildren(root)[1]!.firstNamedChild!.childForFieldName('right')!;
      const args = call.childForFieldName('arguments')!;
      expect(namedChildren(args).map((n) => n.type)).toEqual(['keyword_argument']);
      expect(cachedLists(args)).toEqual([]);
      expect(ids(namedChildren(root))).toEqual(ids(named.filter((n) => n!.type !== 'comment')));
      expect(cachedLists(root)).toEqual([]);
    } finally {
      tree.delete();
    }
  });
});
