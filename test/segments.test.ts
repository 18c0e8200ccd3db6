/**
 * Incremental parsing of large Markdown documents (src/docs/segments.ts, issue #15): the tree put
 * together from reused and freshly parsed segments must equal a parse of the whole text, after
 * edits of every kind, and the reuse must really happen.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { markdownProcessor, parseMarkdown } from '../src/docs/markdown.js';
import { parseDoc } from '../src/docs/parse.js';
import { parseInPieces, parseSegmented, SEGMENTED_MIN_LENGTH, type MarkdownSegment } from '../src/docs/segments.js';

const REPO = path.resolve(import.meta.dirname, '..');
const parse = (text: string): Root => markdownProcessor.parse(text);
/** The tree as JSON: key order and positions included, so "equal" means what a whole parse gives. */
const json = (tree: Root): string => JSON.stringify(tree);

/** Every `.md` file under `dir` (fixtures, docs, rules): real-shaped pages of every layout docdrift reads. */
function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) markdownFiles(full, out);
    else if (name.endsWith('.md')) out.push(full);
  }
  return out;
}

/** A deterministic pseudo-random sequence (LCG), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Text that opens, closes or continues blocks: what an edit can do to the structure around it. */
const SNIPPETS = [
  '# Heading\n', '## Sub `x`\n', '- item\n', '    code\n', '```\n', '~~~\n', '---\n', '+++\n', '| a | b |\n|---|---|\n| 1 | 2 |\n',
  'para text\n', '\n', '\n\n', '[x]: https://example.com\n', '<!--\n', '-->\n', '  continued\n', '===\n', '> quote\n', '<pre>\n',
  '</pre>\n', '<div>\n', '1. one\n', 'www.example.com\n', 'x', '#', '\uFEFF', '\r\n', '  # indented\n', '***\n', '[^1]: note\n',
];

function edit(text: string, next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const r = next();
  const lines = text.split(/(?<=\n)/);
  if (r < 0.35) {
    lines.splice(Math.floor(next() * (lines.length + 1)), 0, pick(SNIPPETS));
    return lines.join('');
  }
  if (r < 0.5) {
    const at = Math.floor(next() * (text.length + 1));
    return text.slice(0, at) + pick(SNIPPETS) + text.slice(at);
  }
  if (r < 0.7) {
    lines.splice(Math.floor(next() * lines.length), 1 + Math.floor(next() * 3));
    return lines.join('');
  }
  if (r < 0.85) {
    const at = Math.floor(next() * text.length);
    return text.slice(0, at) + text.slice(Math.min(text.length, at + Math.floor(next() * 40)));
  }
  return text + pick(SNIPPETS);
}

/** A long page with front matter and every block kind, sections separated as real pages are. */
function longPage(sections: number): string {
  const parts = ['---\ntitle: Tool\n---\n\n# Tool\n\nIntro paragraph with https://example.com and a `--flag`.\n'];
  for (let i = 0; i < sections; i++) {
    parts.push(
      `\n## Section ${i}\n\nText of section ${i}, see [the reference](#section-${i}).\n\n` +
        `| Parameter | Default | Description |\n| --- | --- | --- |\n| \`param_${i}\` | \`${i}\` | What it does. |\n\n` +
        (i % 3 === 0 ? '```bash\ntool --param_' + i + ' 1 +resume_from_cache=True\n```\n\n' : '') +
        (i % 4 === 1 ? '- a list item\n- another\n\n    indented code\n\n' : '') +
        (i % 5 === 2 ? '<!-- a comment\n\nwith a blank line -->\n\n' : '') +
        (i % 6 === 3 ? '> a quote\n> more\n\n***\n' : 'Closing words.\n'),
    );
  }
  return parts.join('');
}

/** Parses `text`, then `edits` successive edits, each through the segments of the parse before. */
function editChain(text: string, seed: number, edits: number): { failures: string[]; reused: number } {
  const next = random(seed);
  let stored = parseSegmented(text, parse, null).segments;
  const failures: string[] = [];
  let reused = 0;
  for (let e = 0; e < edits; e++) {
    const before = text;
    text = edit(text, next);
    const result = parseSegmented(text, parse, stored);
    reused += result.reused;
    if (json(result.tree) !== json(parse(text))) {
      failures.push(`seed ${seed}, edit ${e}: ${JSON.stringify(before.slice(0, 80))} -> ${text.length} chars`);
      break;
    }
    stored = result.segments;
  }
  return { failures, reused };
}

describe('parseSegmented', () => {
  it('gives the whole parse for every Markdown page of this repository, cut into segments', () => {
    const files = [...markdownFiles(path.join(REPO, 'fixtures')), ...markdownFiles(path.join(REPO, 'docs')), path.join(REPO, 'README.md')];
    expect(files.length).toBeGreaterThan(100);
    let cut = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const result = parseSegmented(text, parse, null);
      expect(json(result.tree), file).toBe(json(parse(text)));
      if ((result.segments?.length ?? 0) > 1) cut++;
    }
    // Not vacuous: most pages have several sections.
    expect(cut).toBeGreaterThan(50);
  });

  it('gives the whole parse after chains of random edits (front matter, fences, lists, HTML, definitions, line endings), reusing segments', () => {
    const pages = [longPage(40), readFileSync(path.join(REPO, 'README.md'), 'utf8'), ...markdownFiles(path.join(REPO, 'docs')).map((f) => readFileSync(f, 'utf8'))];
    const failures: string[] = [];
    let reused = 0;
    pages.forEach((page, p) => {
      for (let seed = 1; seed <= 3; seed++) {
        const chain = editChain(page, p * 100 + seed, 8);
        failures.push(...chain.failures);
        reused += chain.reused;
      }
    });
    expect(failures).toEqual([]);
    expect(reused).toBeGreaterThan(250);
    // ~15 s on a quiet 2-core machine; CI runs other test files beside it.
  }, 180_000);

  it('reuses every segment but the edited one when a line is appended or a section edited', () => {
    const page = longPage(30);
    const first = parseSegmented(page, parse, null);
    const n = first.segments!.length;
    expect(n).toBeGreaterThan(20);
    const appended = `${page}\nOne more line.\n`;
    const again = parseSegmented(appended, parse, first.segments);
    expect(json(again.tree)).toBe(json(parse(appended)));
    expect(again.reused).toBe(n - 1);
    const edited = page.replace('Text of section 7,', 'Text of section seven,');
    const third = parseSegmented(edited, parse, first.segments);
    expect(json(third.tree)).toBe(json(parse(edited)));
    expect(third.reused).toBe(n - 1);
  });

  it('stores no tree for a segment whose table the fast path built (cheaper to build again than to read back), and parses it with the changed region', () => {
    // parseMarkdown builds simple tables without micromark (src/docs/table-rows.ts); a 546 KB
    // table of 30,000 rows took 71-163 ms to build and 270-380 ms to deserialise (18 MB).
    const rows = Array.from({ length: 300 }, (_, i) => `| \`p_${i}\` | d |\n`).join('');
    const page = `${longPage(12)}\n## Big\n\n| Parameter | Description |\n| --- | --- |\n${rows}\n## After\n\nA *slow* | table |\n\n| a | b |\n| --- | --- |\n| *emphasis* | x |\n`;
    const first = parseSegmented(page, parseMarkdown, null);
    expect(json(first.tree)).toBe(json(parse(page)));
    const segments = first.segments!;
    const treeless = segments.filter((s) => s.tree === undefined);
    // Every section of longPage has a one-row simple table too: each such segment is rebuilt.
    expect(treeless.length).toBe(13);
    // The table with emphasis went through micromark: its segment is stored.
    expect(segments.at(-1)!.tree).toBeDefined();
    const edited = page.replace('A *slow*', 'A *quick*');
    const again = parseSegmented(edited, parseMarkdown, segments);
    expect(json(again.tree)).toBe(json(parse(edited)));
    // Reused: the front-matter segment before the first treeless one; nothing after the big table
    // but the edited segment itself would be, and the suffix scan stops at the edit.
    expect(again.reused).toBeGreaterThanOrEqual(1);
    expect(again.reused).toBeLessThan(segments.length - treeless.length);
    // Without the fast path (micromark for every table) every segment keeps its tree.
    const whole = parseSegmented(page, parse, null);
    expect(whole.segments!.every((s) => s.tree !== undefined)).toBe(true);
  });

  it('parses the whole text when front matter loses its closing fence (a later `---` may close it)', () => {
    const page = longPage(10);
    const stored = parseSegmented(page, parse, null).segments;
    // The closing fence gone, and a `---` line further down (a thematic break until now): the
    // whole parse reads everything up to it as front matter.
    const unclosed = page.replace('title: Tool\n---\n', 'title: Tool\n').replace('> more\n\n***\n', '> more\n\n---\n');
    expect(parse(unclosed).children[0]!.type).toBe('yaml');
    const result = parseSegmented(unclosed, parse, stored);
    expect(json(result.tree)).toBe(json(parse(unclosed)));
    // No `---` further down: no front matter, and still not cut (a later edit may add one).
    const open = page.replace('title: Tool\n---\n', 'title: Tool\n');
    expect(parse(open).children[0]!.type).toBe('thematicBreak');
    expect(parseSegmented(open, parse, null).segments).toBeUndefined();
  });

  it('does not reuse a later segment when the edit leaves a list open before it, or joins it to the line before', () => {
    const page = longPage(10);
    const stored = parseSegmented(page, parse, null).segments;
    // A list at the end of section 3, with no closing paragraph: the heading after it still
    // ends the list, so the whole parse and the segments agree.
    const listed = page.replace('Closing words.\n\n## Section 4', '- open item\n\n## Section 4');
    const a = parseSegmented(listed, parse, stored);
    expect(json(a.tree)).toBe(json(parse(listed)));
    // The blank line before a heading removed and no newline left: the heading joins a paragraph line.
    const joined = page.replace('Closing words.\n\n## Section 4', 'Closing words. ## Section 4');
    const b = parseSegmented(joined, parse, stored);
    expect(json(b.tree)).toBe(json(parse(joined)));
  });

  it('reuses a segment that ends in a list only where a heading still follows it (an indented line would continue the list)', () => {
    const page = longPage(12).replace('\n## Section 5\n', '\n- last item of section 4\n\n## Section 5\n');
    const first = parseSegmented(page, parse, null);
    let at = 0;
    const listEnded = first.segments!.find((s) => page.slice(at, (at += s.length)).endsWith('- last item of section 4\n\n'));
    expect(listEnded?.open).toBe(true);
    // The heading after the list becomes a line the list item takes in.
    const continued = page.replace('\n## Section 5\n', '\n  continued in the item\n');
    const result = parseSegmented(continued, parse, first.segments);
    expect(json(result.tree)).toBe(json(parse(continued)));
    // Only the heading's text changed: the segment before is reused.
    const renamed = page.replace('\n## Section 5\n', '\n## Section five\n');
    const again = parseSegmented(renamed, parse, first.segments);
    expect(json(again.tree)).toBe(json(parse(renamed)));
    expect(again.reused).toBe(first.segments!.length - 1);
  });

  it('never cuts a text with link or footnote definitions (they are read across the whole page)', () => {
    const page = `${longPage(10)}\n[ref]: https://example.com/docs\n`;
    const result = parseSegmented(page, parse, null);
    expect(result.segments).toBeUndefined();
    expect(json(result.tree)).toBe(json(parse(page)));
  });

  it('ignores stored segments that do not deserialise (a miss, never a crash)', () => {
    const page = longPage(10);
    const stored = parseSegmented(page, parse, null).segments!;
    const broken: MarkdownSegment[] = stored.map((s) => ({ ...s, tree: new Uint8Array([1, 2, 3]) }));
    const edited = `${page}\nMore.\n`;
    const result = parseSegmented(edited, parse, broken);
    expect(json(result.tree)).toBe(json(parse(edited)));
  });

  it('holds a tree no larger than a whole parse does: cutting it into segments leaves every position a small integer (s38 sweep D6: -0 made them heap numbers, 1.2x the heap)', () => {
    // The table of s38 sweep D6 (300 columns under a 2-column header), 200 rows: its segment is built by the
    // table fast path, the first segment's nodes moved by -0 lines and -0 code units.
    const text = `# tool\n\n| a | b |\n| - | - |\n${`|${'x|'.repeat(300)}\n`.repeat(200)}\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const base = held();
    let tree: Root | undefined = parseMarkdown(text);
    const whole = held() - base;
    tree = undefined;
    const base2 = held();
    tree = parseSegmented(text, parseMarkdown, null).tree;
    const segmented = held() - base2;
    expect(tree.children.map((n) => n.type)).toEqual(['heading', 'table', 'code']);
    // 0.99 now; 1.19-1.21 before, at 50 and 200 rows.
    expect(segmented / whole).toBeLessThan(1.1);
  });
});

/** A page of long tables (rows at column 1 with `|`), with tables in a list, a quote and a fence, and headings between. */
function tablePage(tables: number, rows: number): string {
  const out = ['# Reference\n\nIntro.\n\n'];
  for (let t = 0; t < tables; t++) {
    out.push(`## Table ${t}\n\n| Parameter | Type | Default | Description |\n| :-- | --- | --: | --- |\n`);
    for (let r = 0; r < rows; r++) out.push(`| \`p${t}_${r}\` | int | \`${r}\` | Row ${r} with *emphasis*, a \\| pipe and www.example.com. |\n`);
    if (t % 4 === 1) out.push('| extra | cells | than | the | header |\n|\n');
    out.push(t % 3 === 0 ? '\n' : t % 3 === 1 ? '- a list\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n\n' : '```md\n| a | b |\n| - | - |\n| 1 | 2 |\n# not a heading\n```\n\n');
    if (t % 5 === 4) out.push('> | a | b |\n> | - | - |\n> | 1 | 2 |\n\n<div>\n| x |\n| y |\n</div>\n\n');
  }
  return out.join('');
}

describe('parseInPieces (#33 D9: micromark holds its events for the whole text)', () => {
  const pieces = (text: string, pieceLength = 64): Root => parseInPieces(text, parse, { pieceLength, minLength: 0 });

  it('gives the whole parse for every Markdown page of this repository, cut into short pieces', () => {
    const files = [...markdownFiles(path.join(REPO, 'fixtures')), ...markdownFiles(path.join(REPO, 'docs')), path.join(REPO, 'README.md')];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(json(pieces(text)), file).toBe(json(parse(text)));
    }
  });

  it('gives the whole parse for long tables cut between rows, and after random edits', () => {
    const failures: string[] = [];
    for (const [p, page] of [tablePage(12, 30), longPage(30), tablePage(3, 5).replace(/\n/g, '\r\n')].entries()) {
      expect(json(pieces(page)), `page ${p}`).toBe(json(parse(page)));
      const next = random(p + 7);
      let text = page;
      for (let e = 0; e < 25; e++) {
        text = edit(text, next);
        if (json(pieces(text, 48)) !== json(parse(text))) {
          failures.push(`page ${p}, edit ${e}`);
          break;
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('parses no piece much longer than the piece length in a 150 KB table or a page of many sections', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `| \`extra_${i}\` | int | \`${i}\` | Stale row ${i}. |\n`).join('');
    const sections = Array.from({ length: 2000 }, () => '### `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | d |\n\n').join('');
    for (const text of [`# Reference\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n${rows}`, sections]) {
      let longest = 0;
      let calls = 0;
      // The table-row fast path off: with it, the table's later rows are never parsed (test/table-rows.test.ts).
      const tree = parseInPieces(
        text,
        (t) => {
          calls++;
          longest = Math.max(longest, t.length);
          return parse(t);
        },
        { fastRows: false },
      );
      expect(longest).toBeLessThan(40 * 1024);
      expect(calls).toBeGreaterThan(3);
      expect(json(tree)).toBe(json(parse(text)));
    }
  }, 120_000);

  it('parses a page with one-line definitions in pieces, each with the definitions after it, and gives the whole parse (#33 fresh sweep s20 D3)', () => {
    const lengths: number[] = [];
    const spy = (t: string): Root => {
      lengths.push(t.length);
      return parse(t);
    };
    // References in many pieces, to definitions at the end and in the middle.
    const page = `${tablePage(2, 40).replace(/Stale/g, 'See [the guide][g] and [x]')}\n[g]: https://example.com/guide "Guide"\n\n# Later\n\nMore [x] text.\n\n[x]: <https://example.com/x>\n`;
    expect(json(parseInPieces(page, spy, { pieceLength: 64, minLength: 0 }))).toBe(json(parse(page)));
    expect(lengths.length).toBeGreaterThan(3);
    expect(Math.max(...lengths)).toBeLessThan(page.length);
  });

  it('parses a text with definitions it cannot take line by line, or a cut it cannot show safe, whole', () => {
    const lengths: number[] = [];
    const spy = (t: string): Root => {
      lengths.push(t.length);
      return parse(t);
    };
    const page = tablePage(2, 40);
    // A definition in a block quote, and one whose destination is on the next line.
    for (const tail of ['\n> [x]: https://example.com\n', '\n[x]:\n  https://example.com\n']) {
      const text = `${page}${tail}`;
      expect(json(parseInPieces(text, spy, { pieceLength: 64, minLength: 0 }))).toBe(json(parse(text)));
      expect(lengths.at(-1)).toBe(text.length);
    }
    lengths.length = 0;
    // An unclosed fence takes in every heading after it: the first check fails, the text is parsed whole.
    const fenced = `# a\n\n\`\`\`\n${'# b\n\ntext\n\n'.repeat(40)}`;
    expect(json(parseInPieces(fenced, spy, { pieceLength: 32, minLength: 0 }))).toBe(json(parse(fenced)));
    expect(lengths.at(-1)).toBe(fenced.length);
  });
});

describe('parseDoc in segments', () => {
  it('reads the same DocFile from a large page parsed in segments as from a whole parse, after edits', () => {
    let page = longPage(200);
    expect(page.length).toBeGreaterThan(SEGMENTED_MIN_LENGTH);
    let segments: MarkdownSegment[] | null | undefined = parseDoc('README.md', page, { segments: null }).segments;
    expect(segments?.length).toBeGreaterThan(100);
    const next = random(42);
    for (let e = 0; e < 12; e++) {
      page = edit(page, next);
      const incremental = parseDoc('README.md', page, { segments });
      const whole = parseDoc('README.md', page);
      expect(incremental.doc).toEqual(whole.doc);
      expect(incremental.diagnostics).toEqual(whole.diagnostics);
      expect(whole.segments).toBeUndefined();
      segments = incremental.segments ?? null;
    }
  }, 120_000);

  it('parses an MDX page whole (no segments); a short page in segments when the caller asks (--fix does), with the same DocFile', () => {
    expect(parseDoc('a.mdx', longPage(200), { segments: null }).segments).toBeUndefined();
    const short = '# A\n\ntext\n\n## B\n\n| a | b |\n| - | - |\n| 1 | 2 |\n';
    const segmented = parseDoc('a.md', short, { segments: null });
    expect(segmented.segments).toHaveLength(2);
    expect(segmented.doc).toEqual(parseDoc('a.md', short).doc);
  });
});
