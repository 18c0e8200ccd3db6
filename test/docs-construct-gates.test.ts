/** Tests src/docs/construct-gates.ts: where the gates let GFM's literal-autolink and table constructs be tried, and that the trees stay those of remark's plugins unchanged. */

import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, test } from 'vitest';
import { gateConstructs, gateText } from '../src/docs/construct-gates.js';
import { markdownProcessor, mdxProcessor, parseMarkdownText } from '../src/docs/markdown.js';

// The plugins as remark ships them: the trees the readers saw before the gates.
const plainMarkdown = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
const plainMdx = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).use(remarkMdx).freeze();

/** The offsets marked in a gate's array. */
const marked = (marks: Uint8Array | undefined): number[] => (marks ? [...marks.keys()].filter((i) => marks[i] === 1) : []);

/** A README of the kind the gates see most: prose, links, code, an e-mail, URLs, and tables in and out of containers. */
const README = [
  '---',
  'title: Quickstart',
  '---',
  '',
  '# Quickstart',
  '',
  'Install the package and run `gym eval run --resume`; see the [CLI reference](../reference/cli.md#run)',
  'or https://docs.nvidia.com/nemo/gym/latest/ (mirrored at WWW.Example.org/gym), and write to',
  'gym-team@example.com with questions. A slash before an address: a/b@example.com, and',
  'an open bracket [before team@example.com and http://x.example.com/a_b.',
  '',
  '| Flag | Default | Description |',
  '| :--- | ---: | --- |',
  '| `--resume` | `false` | Continue an interrupted run. |',
  'A lazy line after the table.',
  '',
  '> | Quoted | Table |',
  '> |--------|-------|',
  '> | a      | b     |',
  '',
  '- Item with a table:',
  '',
  '  | a | b |',
  '  | - | - |',
  '  | 1 | 2 |',
  '',
  'Head without pipes',
  ':--',
  '',
  'Not a table: a setext heading',
  '---',
  '',
  'one | two',
  '--- | ---',
  'three | four',
  '',
  '```bash',
  'curl -s https://example.com/health  # ops@example.com',
  '```',
  '',
].join('\n');

describe('gate texts', () => {
  test('e-mail literal starts: every offset of the run of atext characters right before an `@`', () => {
    const text = 'mail gym-team@example.com, x/y@z.io or @handle';
    const gate = gateText(text);
    const run = text.indexOf('gym-team');
    const marks = marked(gate.email);
    // `gym-team` (8 characters) and `y` (after the slash: the run stops at `/`), nothing for `@handle`.
    expect(marks).toEqual([...Array.from({ length: 8 }, (_, i) => run + i), text.indexOf('y@')]);
    expect(gateText('no address here').email).toBeUndefined();
  });

  test('protocol and www starts, in either case; a leading byte order mark is dropped as micromark drops it', () => {
    const text = '\uFEFFSee HTTPS://a.example and http://b, not ftp://c or https:/d; WwW.example.org and www-x.';
    const gate = gateText(text);
    const body = text.slice(1);
    expect(gate.text).toBe(body);
    expect(marked(gate.protocol)).toEqual([body.indexOf('HTTPS'), body.indexOf('http://b')]);
    expect(marked(gate.www)).toEqual([body.indexOf('WwW')]);
  });

  test('delimiter rows: only `-`, `:`, `|` and blanks after a container prefix, with a `-` and a `:` or `|`', () => {
    const lines = ['| a | b |', '| - | :-: |', '> |---|---|', '---', ':--', '- item', '  | --- |', 'a - b | c', '-:'];
    expect([...(gateText(lines.join('\n')).delimiterLines ?? [])].sort((a, b) => a - b)).toEqual([2, 3, 5, 7, 9]);
    // Line numbers count CRLF and CR line endings once.
    expect([...(gateText('a | b\r\n--|--\rx\n:-\n').delimiterLines ?? [])]).toEqual([2, 4]);
    expect(gateText('no dash at all | here').delimiterLines).toBeUndefined();
  });
});

describe('gated constructs', () => {
  test('Markdown and MDX trees equal those of the unchanged plugins, positions included', () => {
    const crlf = README.replace(/\n/g, '\r\n');
    for (const text of [README, crlf, `\uFEFF${README}`, README.replace(/ {2}\|/g, '\t|'), '', 'a@b.co\n', 'x|y\n-|-\n']) {
      expect(markdownProcessor.parse(text)).toEqual(plainMarkdown.parse(text));
    }
    const mdx = README.replace(/^---[\s\S]*?---\n/, 'import { Tabs } from "./tabs"\n\n<Tabs>\n  Mail ops@example.com or see https://example.com.\n</Tabs>\n\n');
    expect(mdxProcessor.parse(mdx)).toEqual(plainMdx.parse(mdx));
    // The gated constructs still match where they may: literal links and tables are in the tree.
    const tree = JSON.stringify(markdownProcessor.parse(README));
    expect(tree.match(/"type":"table"/g)).toHaveLength(5);
    expect(tree).toContain('"url":"mailto:gym-team@example.com"');
    expect(tree).toContain('"url":"https://docs.nvidia.com/nemo/gym/latest/"');
    expect(tree).toContain('"url":"http://WWW.Example.org/gym"');
  });

  test('random texts of the gated constructs\' characters parse as with the unchanged plugins', () => {
    const atoms = ['a', 'x.y', '@', '.', 'h', 'http', 'HTTPS', ':', '//', '/', 'www', 'W', '|', '-', ':-', ' ', '\t', '\n', '\n', '\r\n', '> ', '- ', '1. ', '*', '_', '[', ']', '(', ')', '`', '\\', '<', 'a@b.co', 'www.x.org', 'http://x.y/z', '| a | b |\n| - | - |\n', '    ', '\uFEFF'];
    let seed = 35;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (let i = 0; i < 200; i++) {
      let text = '';
      for (let n = 1 + Math.floor(next() * 40); n > 0; n--) text += atoms[Math.floor(next() * atoms.length)];
      expect(markdownProcessor.parse(text), JSON.stringify(text)).toEqual(plainMarkdown.parse(text));
    }
  });

  test('an e-mail construct is tried only where an address may start', () => {
    // A stand-in for GFM's e-mail construct (keyed on `a`, any previous character): the gate wraps it by name.
    let tried = 0;
    const construct = {
      name: 'emailAutolink',
      previous: () => true,
      tokenize: (_effects: unknown, _ok: unknown, nok: (code: number | null) => unknown) => (code: number | null) => {
        tried++;
        return nok(code);
      },
    };
    const processor = unified()
      .use(remarkParse)
      .use(function (this: { data(): { micromarkExtensions?: unknown[] } }) {
        const data = this.data();
        data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { text: { 97: construct } }];
      })
      .use(gateConstructs)
      .freeze();
    processor.parse('a paragraph about a cat and a hat, with no address in it\n');
    expect(tried).toBe(0);
    processor.parse('a paragraph about a cat, then ask@example.com\n');
    // Only the `a` that starts `ask`.
    expect(tried).toBe(1);
  });

  test('every Markdown and MDX processor, emphasis off included, has the gated constructs', () => {
    const gfmEmail = (plainMarkdown.data('micromarkExtensions') as Array<{ text?: Record<number, Array<{ name?: string }>> }>).flat().find((e) => e.text?.[97])!.text![97]![0]!;
    for (const processor of [markdownProcessor, mdxProcessor]) {
      const extensions = (processor.data('micromarkExtensions') ?? []).flat() as Array<{ text?: Record<number, Array<{ name?: string }>>; flow?: Record<string, Array<{ name?: string }>> }>;
      const email = extensions.find((e) => e.text?.[97])!.text![97]!.find((c) => c.name === 'emailAutolink');
      expect(email).toBeDefined();
      expect(email).not.toBe(gfmEmail);
      expect(extensions.some((e) => e.flow?.null?.some((c) => c.name === 'table'))).toBe(true);
    }
    // With emphasis off (a page dense in `*`), the gates hold too: the same tree as the plugins'.
    const text = 'Mail a@b.co about | this\n--|--\n';
    expect(parseMarkdownText(text, false, { emphasisOff: true })).toEqual(plainMarkdown.parse(text));
  });
});
