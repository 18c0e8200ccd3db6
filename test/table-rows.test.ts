/**
 * The table-row fast path of `parseInPieces` (src/docs/table-rows.ts, issues #33 and #35): the
 * rows it builds without micromark must be the nodes remark-parse + remark-gfm build, positions
 * included, and every row it cannot show simple must go to the real parser.
 */
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { markdownProcessor } from '../src/docs/markdown.js';
import { parseDoc } from '../src/docs/parse.js';
import { fastTableRows, parseInPieces } from '../src/docs/segments.js';
import { parseWithSimpleTables, simpleTableRows, simpleTables } from '../src/docs/table-rows.js';
import { lineStarts } from '../src/shared/strings.js';

const parse = (text: string): Root => markdownProcessor.parse(text);
/** The tree as JSON: key order and positions included. */
const json = (tree: unknown): string => JSON.stringify(tree);

/** A deterministic pseudo-random sequence (LCG), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Cell contents the fast path reads itself. */
const SIMPLE = [
  '`p1`', '`snake_case_name`', 'word', 'two  words', 'snake_case', 'a_b_c', '42', '3.14', '-1', 'héllo wörld', '日本語のテキスト', '😀 emoji 𝒳',
  '` a `', '`  `', '` `', '``a`b``', '```x``y```', '`x` and `y`', 'Default: `1`.', '-', '---', ':--', 'a-b', '(parens)', '"quoted"', "it's", '#hash',
  '100%', '+1', 'a = b', '', ' ', '   ', 'x\u00a0y', '`<b>&amp;*x*</b>`', '`[l](u) @ www.x`', '`a_`', 'ends with.', 'a:b', '{braces}', '^caret', '`` ` ``',
];
/** Cell contents it must leave to the real parser (each for its own reason). */
const NOT_SIMPLE = [
  '[link](http://x)', '[ref]', '*em*', '_em_', 'x_', '_x', '**b**', '\\|', '`a\\|b`', '\\*', '<b>x</b>', '<https://x.org>', 'https://example.com', 'see www.example.com',
  'a@b.co', 'mailto:a@b.co', '&amp;', '&#35;', '![i](x)', '~~s~~', '~s~', '$x$', 'a\tb', '`unclosed', '``a`', '`a|b`', 'foo\u0000', 'a\\b', 'x!', 'a > b', 'é_x',
];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)]!;
}

/** One body row: usually `cols` cells, sometimes fewer or more; sometimes a non-simple cell, or a row without its leading or trailing pipe. */
function row(next: () => number, cols: number, badRate: number): string {
  const n = next() < 0.9 ? cols : Math.max(1, cols + Math.floor(next() * 5) - 2);
  const cells = Array.from({ length: n }, () => (next() < badRate ? pick(next, NOT_SIMPLE) : pick(next, SIMPLE)));
  const pad = (c: string): string => (next() < 0.2 ? c : next() < 0.5 ? ` ${c} ` : `  ${c}`);
  let line = `|${cells.map(pad).join('|')}|`;
  const r = next();
  if (r < 0.01) line = line.slice(1);
  else if (r < 0.02) line = line.slice(0, -1);
  else if (r < 0.03) line += '  ';
  else if (r < 0.035) line = '|';
  else if (r < 0.04) line = '||';
  return line;
}

/** What may follow a table: its end (blank line, heading, other blocks) or lines that go on with it. */
const AFTER = ['', '\n', '\nText after.\n', '# Next\n', '## `tool`\n\nMore.\n', 'lazy line\n', '> quote\n', '- item\n', '    code\n', '```\nfence\n```\n', '<div>\n</div>\n', '---\n', '| lone |\n', '\n| a | b |\n|---|---|\n| c | d |\n', 'www.x.org\n', '[x]: https://example.com\n'];

/** A page of prose, headings and tables of random shape, size and contents. */
function page(next: () => number, badRate: number): string {
  const out: string[] = [];
  if (next() < 0.3) out.push('# Title\n\nIntro with `code`.\n\n');
  const tables = 1 + Math.floor(next() * 4);
  for (let t = 0; t < tables; t++) {
    if (next() < 0.5) out.push(`## Section ${t}\n\n`);
    const cols = 1 + Math.floor(next() * 4);
    const aligns = ['---', ':--', '--:', ':-:', '-'];
    out.push(`| ${Array.from({ length: cols }, (_, c) => `H${c}`).join(' | ')} |\n`);
    out.push(`|${Array.from({ length: cols }, () => pick(next, aligns)).join('|')}|\n`);
    const rows = 1 + Math.floor(next() * (next() < 0.2 ? 300 : 40));
    for (let r = 0; r < rows; r++) out.push(`${row(next, cols, badRate)}\n`);
    out.push(pick(next, AFTER));
    if (next() < 0.5) out.push('\n');
  }
  const text = out.join('');
  return next() < 0.15 ? text.replace(/\n/g, '\r\n') : next() < 0.05 ? text.replace(/\n$/, '') : text;
}

/** `parseInPieces` with short pieces and the fast path on or off; `parsed` counts the characters handed to the real parser. */
function pieces(text: string, fastRows: boolean, pieceLength: number, parsed = { chars: 0 }): Root {
  return parseInPieces(
    text,
    (t) => {
      parsed.chars += t.length;
      return parse(t);
    },
    { pieceLength, minLength: 0, fastRows },
  );
}

describe('table-row fast path (parseInPieces)', () => {
  it('gives the tree of the real parser for random tables of every shape, with simple and non-simple cells, at random places', () => {
    const failures: string[] = [];
    /** Characters handed to micromark with and without the fast path, on pages without non-simple cells. */
    let fastChars = 0;
    let slowChars = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const next = random(seed);
      const text = page(next, seed % 3 === 0 ? 0 : seed % 3 === 1 ? 0.01 : 0.1);
      const pieceLength = pick(next, [40, 100, 400, 2048]);
      const fast = { chars: 0 };
      const slow = { chars: 0 };
      const withFast = json(pieces(text, true, pieceLength, fast));
      const without = json(pieces(text, false, pieceLength, slow));
      if (withFast !== without || withFast !== json(parse(text))) failures.push(`seed ${seed}, piece length ${pieceLength}`);
      if (seed % 3 === 0) {
        fastChars += fast.chars;
        slowChars += slow.chars;
      }
    }
    expect(failures).toEqual([]);
    // The fast path really ran: less text went to micromark (a table within one piece is all micromark's).
    expect(fastChars).toBeLessThan(slowChars * 0.8);
  }, 120_000);

  it('reads the same DocFile from a 10,000-row reference table (160 KB, parsed in pieces) with and without the fast path, and parses little of it', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `| \`p${i}\` | d |\n`).join('');
    const text = `# CLI\n\n### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n${rows}\nClosing words.\n`;
    const fast = parseDoc('docs/a.md', text);
    fastTableRows.enabled = false;
    let slow: ReturnType<typeof parseDoc>;
    try {
      slow = parseDoc('docs/a.md', text);
    } finally {
      fastTableRows.enabled = true;
    }
    expect(fast.doc).toEqual(slow.doc);
    expect(fast.diagnostics).toEqual(slow.diagnostics);
    expect(fast.doc.blocks.flatMap((b) => b.tables).reduce((n, t) => Math.max(n, t.rows.length), 0)).toBe(10_000);
    const parsed = { chars: 0 };
    expect(json(pieces(text, true, 8192, parsed))).toBe(json(parse(text)));
    expect(parsed.chars).toBeLessThan(12_000);
  }, 120_000);

  it('builds the nodes of simple rows and stops at the first row that is not simple, for each reason', () => {
    const head = '| A | B |\n| --- | :-: |\n';
    const simple = Array.from({ length: 40 }, (_, i) => `| \`p${i}\` | word ${i} |\n`).join('');
    for (const cell of NOT_SIMPLE) {
      const bad = `| ${cell} | x |\n`;
      const text = `${head}${simple}${bad}${simple}\nAfter.\n`;
      const seen: string[] = [];
      const tree = parseInPieces(
        text,
        (t) => {
          seen.push(t);
          return parse(t);
        },
        { pieceLength: 64, minLength: 0 },
      );
      expect(json(tree), cell).toBe(json(parse(text)));
      // The non-simple row went to the real parser (under the header and delimiter rows).
      expect(seen.some((t) => t.startsWith(head) && t.includes(bad)), cell).toBe(true);
      const starts = lineStarts(bad);
      expect(simpleTableRows(bad, 0, bad.length, starts, 0).rows, cell).toEqual([]);
    }
    // Row shapes the fast path leaves alone: no leading pipe, no trailing pipe, whitespace after the last pipe, a lone pipe.
    for (const line of ['`p` | x |', '| `p` | x', '| `p` | x |  ', '|', '| a\t| b |', '']) {
      expect(simpleTableRows(`${line}\n`, 0, line.length + 1, [0, line.length + 1], 0).rows, JSON.stringify(line)).toEqual([]);
    }
  });

  it('builds rows with as many cells as the line has (no padding or truncation to the header), empty cells and code-span spaces as the parser does', () => {
    const head = '| A | B | C |\n|---|---|---|\n';
    const body = ['| x |', '| 1 | 2 | 3 | 4 | 5 |', '||', '| |', '|  |  |', '| ` a ` | `  ` | ``a`b`` |', '| `x` y `z` | a_b | 日本 😀 |'].join('\n');
    const text = `${head}| first | row | here |\n${body}\n`;
    const tree = parse(text);
    const table = tree.children[0];
    expect(table?.type).toBe('table');
    const starts = lineStarts(text);
    const from = starts[3]!;
    const read = simpleTableRows(text, from, text.length, starts, 3);
    expect(read.next).toBe(text.length);
    expect(json(read.rows)).toBe(json((table as { children: unknown[] }).children.slice(2)));
  });

  it('can fail: a row built with a wrong position or value differs from the parser', () => {
    const text = '| A |\n|---|\n| `p` |\n| ` q ` |\n';
    const starts = lineStarts(text);
    const rows = simpleTableRows(text, starts[2]!, text.length, starts, 2).rows;
    const real = (parse(text).children[0] as { children: unknown[] }).children.slice(1);
    expect(json(rows)).toBe(json(real));
    (rows[1]!.children[0]!.children[0] as { value: string }).value = ' q ';
    expect(json(rows)).not.toBe(json(real));
  });
});

/** What may come before a table: top-level blocks it follows, and containers and code that may take its lines in (the check must then fall back). */
const BEFORE = [
  '', 'Para.\n\n', 'Para right before.\n', '- item\n\n', '- item\n', '1. one\n\n   more\n\n', '> quote\n\n', '> quote\n', '    code\n\n', '```\n',
  '```md\n\n', '~~~\n\n', '<pre>\n\n', '<!--\n\n', '<div>\n\n', '<script>\n\n', '---\ntitle: x\n---\n\n', '---\n\n', '[^1]: note\n\n', '# H\n',
  '[x]: https://example.com\n\n', '<details>\n', '* a\n  * b\n\n',
];
/** What may come after it: blank lines, blocks, and continuations of what came before (closing fences and HTML, indented list content). */
const AFTER_WHOLE = ['', '\n', '\nText.\n', '\n```\n', '\n~~~\n', '\n</pre>\n', '\n-->\n', '\n</div>\n', '\n</script>\n', '\n   continued item\n', '\n    indented\n', '\n- next\n', '\n> more\n', 'lazy\n', '| more | row |\n', '\n---\n', '\n</details>\n'];

/** A page of tables, each after a random context and before another. */
function tablePage(next: () => number, badRate: number): string {
  const out: string[] = [];
  const tables = 1 + Math.floor(next() * 6);
  for (let t = 0; t < tables; t++) {
    out.push(pick(next, BEFORE));
    const cols = 1 + Math.floor(next() * 4);
    const aligns = ['---', ':--', '--:', ':-:', '-', ' - ', '  :---:  '];
    out.push(next() < 0.05 ? `| ${cols} |\n` : `| ${Array.from({ length: cols }, (_, c) => pick(next, SIMPLE) || `H${c}`).join(' | ')} |\n`);
    out.push(`|${Array.from({ length: cols }, () => pick(next, aligns)).join('|')}|\n`);
    const rows = Math.floor(next() * 6);
    for (let r = 0; r < rows; r++) out.push(`${row(next, cols, badRate)}\n`);
    out.push(pick(next, AFTER_WHOLE));
  }
  const text = out.join('');
  return next() < 0.15 ? text.replace(/\n/g, '\r\n') : next() < 0.05 ? text.replace(/\n$/, '') : text;
}

describe('whole-table fast path (parseWithSimpleTables)', () => {
  it('gives the tree of the real parser for tables after and before every kind of block, container, code and HTML, and builds most of them itself', () => {
    const failures: string[] = [];
    let built = 0;
    let fellBack = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const text = tablePage(next, seed % 2 === 0 ? 0 : 0.05);
      const texts: string[] = [];
      const fast = json(
        parseWithSimpleTables(text, (t) => {
          texts.push(t);
          return parse(t);
        }),
      );
      if (fast !== json(parse(text))) failures.push(`seed ${seed}: ${JSON.stringify(text)}`);
      if (texts.length === 2) fellBack++;
      else if (texts[0] !== text) built++;
    }
    expect(failures.slice(0, 5)).toEqual([]);
    // Both ways were taken many times: tables built, and tables inside something else left to the parser.
    expect(built).toBeGreaterThan(1000);
    expect(fellBack).toBeGreaterThan(100);
  }, 120_000);

  it('builds a page of 2,000 small tables without handing a table to the parser', () => {
    const text = `# x\n\n${'| a | b |\n| - | :-: |\n| `c` | d |\n\n'.repeat(2000)}`;
    const texts: string[] = [];
    const tree = parseWithSimpleTables(text, (t) => {
      texts.push(t);
      return parse(t);
    });
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('|');
    expect(tree.children.filter((n) => n.type === 'table')).toHaveLength(2000);
    expect(json(tree)).toBe(json(parse(text)));
  });

  it('leaves tables in fenced code to the parser, and finds none without a blank line before or after, or with a header of another width', () => {
    const find = (text: string): number => simpleTables(text, lineStarts(text)).length;
    expect(find('| a |\n|---|\n| b |\n')).toBe(1);
    expect(find('```\n| a |\n|---|\n```\n')).toBe(0);
    expect(find('Para.\n| a |\n|---|\n')).toBe(0);
    expect(find('| a |\n|---|\nlazy\n')).toBe(0);
    expect(find('| a | b |\n|---|\n')).toBe(0);
    expect(find('| a |\n|---|---|\n')).toBe(0);
    expect(find('| *a* |\n|---|\n')).toBe(0);
  });
});
