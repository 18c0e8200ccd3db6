/** Property-based tests (fast-check): the docs parsers and the comparisons never throw, keep positions inside the input, and are reflexive/symmetric where that is meant. */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseArguments } from '../src/docs/arguments.js';
import { resolveLink } from '../src/docs/links.js';
import { parseDoc } from '../src/docs/parse.js';
import { namesOf, normalizeParamName, readReferenceTable, defaultFromDescription } from '../src/docs/reference-table.js';
import { tokenizeShell, type ShellSource } from '../src/docs/shell.js';
import { createHeadingSlugger, findHeadingBySlug, slugOf } from '../src/docs/slug.js';
import { compareDefault } from '../src/model/compare.js';
import { cellText, cellValue } from '../src/fix/reference-edits.js';
import { compareType, normaliseType } from '../src/model/type-compare.js';
import type { CodeBlock, DocFile, DocTable, Invocation, SourceLocation } from '../src/model/types.js';
import { cellCodeLocation, cellLocation } from '../src/docs/position.js';

/** Runs per property: enough to find the bugs below in well under a second each, on 2 shared cores. */
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) };

/** Any unicode text: lone surrogates and astral characters included (`unit: 'binary'`). */
const anyText = fc.string({ unit: 'binary', maxLength: 200 });

/** Pieces of shell syntax that the tokeniser treats specially, mixed with arbitrary text. */
const SHELL_PIECES = [
  ' ', '  ', '\t', '\n', '\r\n', '\\\n', '\\ \n', '\\', '"', "'", '`', '$', '$(', '${', '$((', ')', '}', '(', '#',
  '&&', '||', ';', ';;', '|', '|&', '&', '>', '>>', '2>&1', '&>', '<', '<<EOF', '<<-EOF', '\nEOF\n', '<<<', '<dir>',
  '<a', 'x>', 'ng_run', '+key=v', '++a.b=1', '~k', '--flag', '--flag=', '-x', '-1', '--', '=', 'choice(a,b)',
  'uv run', 'python -m', 'npx', '$ ', '> ', 'é', '😀', '\u0000', '\uE000', '\uD800',
];
const shellText = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SHELL_PIECES) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** A ShellSource for `text` as one code block starting at line 1, column 1 (positions are those of `text` itself). */
function source(text: string): ShellSource {
  const lines: number[] = [];
  const columns: number[] = [];
  let line = 1;
  let column = 1;
  for (const ch of text) {
    for (let k = 0; k < ch.length; k++) {
      lines.push(line);
      columns.push(column + k);
    }
    if (ch === '\n') {
      line++;
      column = 1;
    } else column += ch.length;
  }
  return { text, lines, columns };
}

/** Pieces of Markdown/MDX syntax: headings, tables, fences, lists, links, JSX, emphasis. */
const MD_PIECES = [
  '\n', '\n\n', '\r\n', '\r', '# ', '## ', '### `ng_run`', '#### ', '`', '``', '```', '```bash\n', '```sh\n', '~~~', '\n```\n',
  '| Parameter | Type | Default | Description |', '| --- | --- | --- | --- |', '|', ' | ', '|---|', ':--', '\\|',
  '- ', '* ', '1. ', '  ', '    ', '\t', '> ', '[x](#y)', '[a](../b.md#c)', '[r][id]', '[id]: http://x', '<a href="#z">',
  '<Tabs>', '</Tabs>', '{', '}', '<!--', '-->', '**', '_', '~~', '---\n', 'Default: `1`', 'ng_run +key=v --flag x',
  '`--out <dir>`', 'Common options', 'é', '😀', '\u0000', '\uFEFF', '\uD800',
];
const markdownText = fc
  .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...MD_PIECES) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) }), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** Every location a parsed document reports, with what it belongs to (for failure messages). */
function locationsOf(doc: DocFile): Array<[string, SourceLocation]> {
  const out: Array<[string, SourceLocation]> = [];
  for (const h of doc.headings) out.push(['heading', h.location]);
  for (const b of doc.codeBlocks) out.push(['code block', b.location]);
  for (const inv of doc.invocations) {
    out.push(['invocation', inv.location]);
    for (const a of inv.args) out.push([`argument ${JSON.stringify(a.text)}`, a.location]);
  }
  for (const l of doc.links) out.push(['link', l.location]);
  for (const block of doc.blocks) {
    for (const t of block.tables) {
      out.push(['table', t.location]);
      for (const r of t.rows) {
        out.push(['row', r.location]);
        for (let col = 0; col < r.cells.length; col++) {
          out.push(['cell', cellLocation(t.location.file, r, col)!]);
          (r.cellCodes[col] ?? []).forEach((_, i) => out.push(['cell code', cellCodeLocation(t.location.file, r, col, i)!]));
        }
      }
    }
    for (const r of [...(block.headingRows ?? []), ...(block.listRows ?? [])]) out.push(['layout row', r.location]);
  }
  for (const d of doc.dataBlocks ?? []) out.push(['data block', d.location]);
  return out;
}

/** The problem with a location in a text of these lines (remark's line endings: CRLF, CR, LF), or undefined when it lies inside. */
function outside(loc: SourceLocation, lines: readonly string[]): string | undefined {
  const check = (line: number, column: number, what: string): string | undefined => {
    if (!Number.isInteger(line) || line < 1 || line > lines.length) return `${what} line ${line} not in 1..${lines.length}`;
    const max = lines[line - 1]!.length + 1;
    if (!Number.isInteger(column) || column < 1 || column > max) return `${what} column ${column} not in 1..${max} (line ${line})`;
    return undefined;
  };
  return check(loc.line, loc.column, 'start') ??
    (loc.endLine !== undefined ? check(loc.endLine, loc.endColumn ?? 1, 'end') : undefined);
}

describe('shell tokeniser (src/docs/shell.ts)', () => {
  test('never throws; words are in order, non-overlapping, inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(shellText, anyText), (text) => {
        const commands = tokenizeShell(source(text));
        let prevLast = -1;
        for (const c of commands) {
          expect(c.words.length).toBeGreaterThan(0);
          for (const w of c.words) {
            expect(w.start).toBeGreaterThan(prevLast);
            expect(w.last).toBeGreaterThanOrEqual(w.start);
            expect(w.last).toBeLessThan(text.length);
            prevLast = w.last;
          }
        }
      }),
      RUNS,
    );
  });

  test('a word of plain characters comes back as itself', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_+.=\/:,@%-]{1,20}$/);
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 8 }), (words) => {
        const text = words.join(' ');
        const commands = tokenizeShell(source(text));
        expect(commands.flatMap((c) => c.words.map((w) => w.text))).toEqual(words);
        for (const w of commands[0]!.words) expect(text.slice(w.start, w.last + 1)).toBe(w.raw);
      }),
      RUNS,
    );
  });

  test('quoting a plain word in single or double quotes gives the same word', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_+.=\/ :,@%-]{0,20}$/);
    fc.assert(
      fc.property(plain, fc.constantFrom("'", '"'), (word, q) => {
        const commands = tokenizeShell(source(`cmd ${q}${word}${q}`));
        expect(commands[0]!.words.map((w) => w.text)).toEqual(['cmd', word]);
      }),
      RUNS,
    );
  });
});

const block: CodeBlock = { file: 'a.md', lang: 'bash', location: { file: 'a.md', line: 1, column: 1 } };
function invocation(texts: string[]): Invocation {
  return {
    file: 'a.md',
    command: 'ng_run',
    index: 0,
    args: texts.map((text, i) => ({ text, location: { file: 'a.md', line: 1, column: i + 1 } })),
    location: { file: 'a.md', line: 1, column: 1 },
    block,
  };
}

describe('override/flag parser (src/docs/arguments.ts)', () => {
  const arg = fc.oneof(
    anyText,
    fc.constantFrom('--', '-', '-1', '--x', '--x=', '+a=1', '++a.b=', '~a', 'a/b@p=1', '=', '+', '~', '--no-x', '-abc'),
    fc.tuple(fc.constantFrom('', '+', '++', '~', '-', '--'), fc.stringMatching(/^[\w.$/@-]{0,12}$/), fc.constantFrom('', '=', '=v'))
      .map(([p, k, v]) => p + k + v),
  );
  test('never throws; each usage is one argument, with its location, and a key that starts with its name', () => {
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 10 }), (texts) => {
        const inv = invocation(texts);
        const usages = parseArguments(inv);
        const stop = texts.indexOf('--');
        for (const u of usages) {
          const i = inv.args.findIndex((a) => a.location === u.location);
          expect(i).toBeGreaterThanOrEqual(0);
          if (stop >= 0) expect(i).toBeLessThan(stop);
          expect(u.raw).toBe(texts[i]);
          expect(u.name).not.toBe('');
          expect(u.key.startsWith(u.name)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('table reader (src/docs/reference-table.ts)', () => {
  const header = fc.array(
    fc.oneof(fc.constantFrom('Parameter', 'Name', 'Key', 'Flag', 'CLI flag', 'Type', 'Default', 'Description', 'Env var', '**Option**', ''), anyText),
    { minLength: 1, maxLength: 6 },
  );
  const cell = fc.oneof(anyText, fc.constantFrom('`--out <dir>`, `-o`', '`a` / `b`', '-', 'n/a', 'Default: `1`', '`x` or `y`'));
  test('never throws on any header and cells; every row it returns has names, none empty', () => {
    fc.assert(
      fc.property(header, fc.array(fc.tuple(fc.array(cell, { maxLength: 7 }), fc.array(fc.array(anyText, { maxLength: 2 }), { maxLength: 7 })), { maxLength: 5 }), (h, rows) => {
        const loc: SourceLocation = { file: 'a.md', line: 1, column: 1 };
        const table: DocTable = {
          header: h,
          location: loc,
          rows: rows.map(([cells, cellCodes]) => ({ cells, cellCodes, links: [], location: loc, cellSpans: cells.flatMap(() => [1, 1, 0, 0]) })),
        };
        for (const r of readReferenceTable(table) ?? []) {
          expect(r.names.length).toBeGreaterThan(0);
          for (const n of r.names) expect(n).not.toBe('');
        }
      }),
      RUNS,
    );
  });

  test('normalizeParamName is idempotent; namesOf never throws', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, shellText), (s) => {
        const once = normalizeParamName(s);
        expect(normalizeParamName(once)).toBe(once);
        namesOf(s, []);
        namesOf(s, [s]);
        defaultFromDescription(s, [s]);
      }),
      RUNS,
    );
  });
});

describe('cells --fix writes (src/fix/reference-edits.ts)', () => {
  // Types and defaults as code gives them: words, brackets, quotes, every ASCII punctuation mark.
  const value = fc
    .array(fc.oneof(fc.constantFrom(...'abcXYZ019 _-*`\\|[]()<>&#;!~"\'.,:/@{}=+?$%^'.split('')), fc.constantFrom('Optional[int]', 'Literal["a"]', 'e\\f', '&amp;', '<div>', '](x)', '_x_', '**b**', 'http://e.com', 'www.e.com', 'a@b.co')), { minLength: 1, maxLength: 12 })
    .map((parts) => parts.join('').trim())
    .filter((v) => v !== '');
  test('a type or default written into a table cell reads back as the same text (#33 s24 sweep D10)', () => {
    fc.assert(
      fc.property(value, (v) => {
        const text = `# t\n\n| Parameter | Type |\n| --- | --- |\n| \`p\` | ${cellValue(v)} |\n`;
        const table = parseDoc('a.md', text).doc.blocks.flatMap((b) => b.tables)[0];
        expect(table?.rows[0]?.cells[1], JSON.stringify({ v, cell: cellValue(v) })).toBe(v);
      }),
      RUNS,
    );
  });
  test('a description written into a table cell has no raw HTML tag or directional control in the source, and renders its own text (s25 sweep O5)', () => {
    const words = fc.array(fc.constantFrom('see', ' ', '<path>', '<script>x</script>', '<!-- c -->', '</b>', '<?x?>', 'a < b', '<3', '\u202e', '\u2066', 'abc\u202d', 'List<int>', 'e|f', 'x'), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(words, (parts) => {
        const v = parts.join('').replace(/\s+/g, ' ').trim();
        fc.pre(v !== '');
        const cell = cellText(v);
        expect(cell).not.toMatch(/<[A-Za-z/!?]|[\u202a-\u202e\u2066-\u2069]/);
        const text = `# t\n\n| Parameter | Description |\n| --- | --- |\n| \`p\` | ${cell} |\n`;
        const table = parseDoc('a.md', text).doc.blocks.flatMap((b) => b.tables)[0];
        expect(table?.rows[0]?.cells[1], JSON.stringify({ v, cell })).toBe(v);
      }),
      RUNS,
    );
  });
});

describe('cells --fix writes into MDX tables (src/fix/reference-edits.ts, s26b sweep D3)', () => {
  test('a description or value with braces written into an .mdx table compiles and reads back as the same text', () => {
    const words = fc.array(fc.constantFrom('see', ' ', '{', '}', '{a}', '{1+1}', 'x{', '}y', '<b>', 'a|b', 'e\\f', '`c`', 'w'), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(words, (parts) => {
        const v = parts.join('').replace(/\s+/g, ' ').trim();
        fc.pre(v !== '' && !v.includes('`'));
        for (const cell of [cellText(v, true), cellValue(v, true)]) {
          const text = `# t\n\n| Parameter | Description |\n| --- | --- |\n| \`p\` | ${cell} |\n`;
          const parsed = parseDoc('a.mdx', text);
          expect(parsed.diagnostics, JSON.stringify({ v, cell })).toEqual([]);
          const table = parsed.doc.blocks.flatMap((b) => b.tables)[0];
          expect(table?.rows[0]?.cells[1], JSON.stringify({ v, cell })).toBe(v);
        }
      }),
      RUNS,
    );
  });
});

describe('default and type comparison (src/model/compare.ts, src/model/type-compare.ts)', () => {
  /** Python literals as extractors read them. */
  const pyLiteral: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
      fc.constantFrom('True', 'False', 'None', '0.001', '1e-3', '-0', '0x10', '1_000'),
      fc.stringMatching(/^[\w .:/-]{0,12}$/).map((s) => JSON.stringify(s)),
      fc.stringMatching(/^[\w .:/-]{0,12}$/).map((s) => `'${s}'`),
      fc.array(tie('v'), { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
      fc.array(tie('v'), { maxLength: 3 }).map((xs) => `(${xs.join(', ')}${xs.length === 1 ? ',' : ''})`),
      fc.array(fc.tuple(fc.stringMatching(/^\w{1,6}$/), tie('v')), { maxLength: 3 }).map((kv) => `{${kv.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`),
    ),
  })).v;

  test('compareDefault never throws, and a literal documented as written is the same', () => {
    fc.assert(
      fc.property(pyLiteral, fc.constantFrom('literal', 'factory', 'expression') as fc.Arbitrary<'literal' | 'factory' | 'expression'>, (text, kind) => {
        expect(compareDefault({ kind, text }, text)).toBe('same');
        expect(compareDefault({ kind, text }, `\`${text}\``)).toBe('same');
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.oneof(anyText, pyLiteral), fc.oneof(anyText, pyLiteral, markdownText), (code, documented) => {
        expect(['same', 'different', 'unknown']).toContain(compareDefault({ kind: 'literal', text: code }, documented));
        expect(['same', 'different', 'unknown']).toContain(compareDefault({ kind: 'expression', text: code }, documented));
      }),
      RUNS,
    );
  });

  /** Type texts in Python and TypeScript spellings. */
  const typeText: fc.Arbitrary<string> = fc.letrec<{ t: string }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('int', 'str', 'float', 'bool', 'None', 'Any', 'string', 'number', 'boolean', 'null', 'undefined', 'Path', 'dict', 'list', '"a"', "'b'", '1'),
      tie('t').map((t) => `Optional[${t}]`),
      tie('t').map((t) => `List[${t}]`),
      tie('t').map((t) => `list[${t}]`),
      tie('t').map((t) => `${t}[]`),
      tie('t').map((t) => `Array<${t}>`),
      fc.tuple(tie('t'), tie('t')).map(([a, b]) => `${a} | ${b}`),
      fc.tuple(tie('t'), tie('t')).map(([a, b]) => `Union[${a}, ${b}]`),
      fc.tuple(tie('t'), tie('t')).map(([a, b]) => `Dict[${a}, ${b}]`),
      fc.tuple(tie('t'), tie('t')).map(([a, b]) => `Record<${a}, ${b}>`),
      fc.array(fc.constantFrom('"x"', '"y"', '1', 'True'), { minLength: 1, maxLength: 3 }).map((xs) => `Literal[${xs.join(', ')}]`),
    ),
  })).t;

  test('compareType never throws, never finds a type different from itself, and a type written two ways is the same both ways', () => {
    fc.assert(
      fc.property(fc.oneof(typeText, anyText), fc.oneof(typeText, anyText), (a, b) => {
        const ab = compareType(a, b);
        expect(['same', 'different', 'unknown']).toContain(ab);
        expect(compareType(a, a)).not.toBe('different');
        // Docs may be narrower or broader than the code (then `unknown`), but never both equal and contradicting.
        if (ab === 'different') expect(compareType(b, a)).not.toBe('same');
      }),
      RUNS,
    );
    fc.assert(
      fc.property(spelledTwice, ([x, y]) => {
        expect(compareType(x, y), `${x} vs ${y}`).toBe('same');
        expect(compareType(y, x), `${y} vs ${x}`).toBe('same');
      }),
      RUNS,
    );
  });
});

/** One type in the shape {@link compareType} documents as "equal in meaning", as a tree. */
type TypeTree =
  | { k: 'prim'; p: number }
  | { k: 'opt' | 'list'; t: TypeTree }
  | { k: 'union'; a: TypeTree; b: TypeTree }
  | { k: 'dict'; v: TypeTree }
  | { k: 'lit' };
const PRIMS = [['str', 'string'], ['bool', 'boolean'], ['int', 'int'], ['float', 'float'], ['Path', 'Path']] as const;
const typeTree: fc.Arbitrary<TypeTree> = fc.letrec<{ t: TypeTree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: PRIMS.length - 1 }).map((p): TypeTree => ({ k: 'prim', p })),
    tie('t').map((t): TypeTree => ({ k: 'list', t })),
    tie('t').map((t): TypeTree => ({ k: 'opt', t })),
    fc.tuple(tie('t'), tie('t')).map(([a, b]): TypeTree => ({ k: 'union', a, b })),
    tie('t').map((v): TypeTree => ({ k: 'dict', v })),
    fc.constant<TypeTree>({ k: 'lit' }),
  ),
})).t;
/** Renders a tree, choosing among equivalent spellings with `pick` (Python and TypeScript forms). */
function spell(t: TypeTree, pick: () => number): string {
  const one = (options: string[]): string => options[pick() % options.length]!;
  switch (t.k) {
    case 'prim':
      return one([...PRIMS[t.p]!]);
    case 'opt': {
      const inner = spell(t.t, pick);
      return one([`Optional[${inner}]`, `${inner} | None`, `Union[${inner}, None]`, `None | ${inner}`]);
    }
    case 'list': {
      const inner = spell(t.t, pick);
      return one([`List[${inner}]`, `list[${inner}]`, `Array<${inner}>`, ...(t.t.k === 'prim' ? [`${inner}[]`] : [])]);
    }
    case 'union': {
      const a = spell(t.a, pick);
      const b = spell(t.b, pick);
      return one([`${a} | ${b}`, `Union[${a}, ${b}]`, `${b} | ${a}`]);
    }
    case 'dict': {
      const v = spell(t.v, pick);
      return one([`Dict[str, ${v}]`, `dict[str, ${v}]`, `Record<string, ${v}>`]);
    }
    case 'lit':
      return one(['Literal["a", "b"]', '"a" | "b"', "Literal['b', 'a']"]);
  }
}
const spelledTwice = fc.tuple(typeTree, fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), fc.array(fc.nat(), { minLength: 64, maxLength: 64 }))
  .map(([t, c1, c2]) => {
    let i = 0;
    let j = 0;
    return [spell(t, () => c1[i++ % 64]!), spell(t, () => c2[j++ % 64]!)] as const;
  });

describe('headings, slugs and links (src/docs/slug.ts, src/docs/links.ts)', () => {
  test('every heading is found by its own slug, in any case, and slugs are unique per document', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyText, fc.constantFrom('Options', 'options', 'Options 1', 'A-b', '`ng_run` / `x`')), { maxLength: 8 }), (texts) => {
        const slugger = createHeadingSlugger();
        const headings = texts.map((text, i) => ({ depth: 2 as const, text, codes: [], slug: slugger(text), location: { file: 'a.md', line: i + 1, column: 1 } }));
        expect(new Set(headings.map((h) => h.slug)).size).toBe(headings.length);
        for (const h of headings) {
          expect(findHeadingBySlug({ headings }, h.slug)).toBeDefined();
          expect(findHeadingBySlug({ headings }, h.slug)!.slug).toBe(h.slug);
          expect(findHeadingBySlug({ headings }, `user-content-${h.slug}`)?.slug).toBe(h.slug);
          expect(slugOf(slugOf(h.text))).toBe(slugOf(h.text));
        }
      }),
      RUNS,
    );
  });

  test('resolveLink never throws and never targets a file outside the project', () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', '', 'docs', 'a.md', '%2e%2e', '%', 'x#y', '?q'), fc.string({ unit: 'binary', maxLength: 5 }));
    const url = fc.oneof(anyText, fc.array(segment, { maxLength: 8 }).map((s) => s.join('/')));
    const file = fc.oneof(fc.constantFrom('README.md', 'docs/a.md', 'a/b/c.mdx'), fc.array(fc.stringMatching(/^[\w.-]{1,5}$/), { minLength: 1, maxLength: 3 }).map((s) => s.join('/')));
    fc.assert(
      fc.property(file, url, (f, u) => {
        const t = resolveLink(f, u);
        if (t.targetFile !== undefined) {
          expect(t.targetFile === '..' || t.targetFile.startsWith('../')).toBe(false);
          expect(t.targetFile.startsWith('/')).toBe(false);
          expect(t.targetFile.split('/')).not.toContain('..');
        }
      }),
      RUNS,
    );
  });
});

describe('whole documents (src/docs/parse.ts): shell, tables, links and headings together', () => {
  test('parseDoc never throws and every position it reports lies inside the document', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 4, arbitrary: markdownText }, { weight: 1, arbitrary: anyText }), fc.constantFrom('a.md', 'a.mdx'), (text, file) => {
        const { doc } = parseDoc(file, text);
        const lines = text.split(/\r\n|\r|\n/);
        for (const [what, loc] of locationsOf(doc)) {
          const problem = outside(loc, lines);
          expect(problem, `${what} at ${JSON.stringify(loc)}`).toBeUndefined();
        }
      }),
      RUNS,
    );
  });
});
