/**
 * The per-module scan reads its one query run (string literals, calls with their callee, imports)
 * as matches rather than captures (issue #35): web-tree-sitter's `captures` wraps every node of a
 * match once per capture it returns, so a call and its callee cost four node wrappers, and the
 * call of each callee had to be searched for again. The scan relies on the matches of each
 * pattern coming in the order the captures did; checked here on every Python file of the
 * fixtures and on a module of nested callee chains, and on what the scan then records.
 */
import { describe, expect, it } from 'vitest';
import { fixturePython } from './helpers.js';
import { getPythonParser, parsePython } from '../src/extract/python/parser.js';
import { moduleQuery, scanModule } from '../src/extract/python/scan.js';



/** Calls whose callees start where other callees do (`foo("x").bar(…)`), in arguments, decorators, comprehensions, f-strings and a broken line. */
const CHAINS = `import os
from a import (b, c)

def f(x=g("d").h(i("e")), *a, **k):
    import json
    foo("x").bar(g("y").h(k("z")))(m("q"))[n("r")].s("t")
    a.b.c("u")(v("w"))(x("y"))
    Settings(A=1, **{"K": os.environ.get("ENV_X")})
    z = [q(p("r")) for p in r(s("t"))]
    f"{g(h('i'))}" "j"
    @dec(d("e"))
    def inner(): return o("p").q("r").s("t")
    if foo(: bar("x")
    return Cls(x=foo(bar(baz="q")))
`;

describe('the module scan reads its query as matches', () => {
  it("gets each pattern's nodes in the order the captures give them", async () => {
    const parser = await getPythonParser();
    const query = moduleQuery(parser.language!);
    const sources: Array<[string, string]> = [...fixturePython(), ['chains.py', CHAINS]];
    expect(sources.length).toBeGreaterThan(50);
    for (const [file, text] of sources) {
      const tree = parsePython(parser, text)!;
      try {
        const byCaptures: Record<string, number[]> = { s: [], call: [], callee: [], import: [] };
        const byMatches: Record<string, number[]> = { s: [], call: [], callee: [], import: [] };
        for (const capture of query.captures(tree.rootNode)) byCaptures[capture.name]!.push(capture.node.startIndex, capture.node.endIndex);
        for (const match of query.matches(tree.rootNode)) for (const capture of match.captures) byMatches[capture.name]!.push(capture.node.startIndex, capture.node.endIndex);
        expect(byMatches, file).toEqual(byCaptures);
      } finally {
        tree.delete();
      }
    }
  });

  it('records the calls of nested callee chains in document order, each with its own arguments', async () => {
    const parser = await getPythonParser();
    const tree = parsePython(parser, CHAINS)!;
    try {
      const info = scanModule('chains.py', 'chains', tree);
      const calls = info.functions.get('f')!.calls.map((c) => [c.callee.join('.'), c.source, c.splat ?? false]);
      // A callee that is no plain name chain (`foo("x").bar`) gives no call record; the calls inside it do.
      expect(calls.slice(0, 12)).toEqual([
        ['foo', '"x"', false],
        ['g', '"y"', false],
        ['k', '"z"', false],
        ['m', '"q"', false],
        ['n', '"r"', false],
        ['a.b.c', '"u"', false],
        ['v', '"w"', false],
        ['x', '"y"', false],
        ['Settings', '{"K": os.environ.get("ENV_X")}', true],
        ['os.environ.get', '"ENV_X"', false],
        ['q', 'p("r")', false],
        ['p', '"r"', false],
      ]);
      expect(info.kwargCallees).toEqual(['Settings', 'Cls']);
      expect(info.functions.get('f')!.localBindings.has('json')).toBe(true);
    } finally {
      tree.delete();
    }
  });
});
