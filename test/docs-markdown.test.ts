/** Tests src/docs/markdown.ts: the guarded literal-autolink transform gives the same trees as remark's plugins unchanged. */

import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, test } from 'vitest';
import { hasAutolinkCandidate, markdownProcessor, mdxProcessor } from '../src/docs/markdown.js';

// The plugins as remark ships them: the trees the readers saw before the guard.
const plainMarkdown = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
const plainMdx = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).use(remarkMdx).freeze();

/** A README whose URLs sit only in link destinations, autolinks in angle brackets and code. */
const NO_CANDIDATE = [
  '---',
  'title: Quickstart',
  '---',
  '',
  '# Quickstart',
  '',
  'See the [CLI reference](../reference/cli-commands.md#gym-eval-run) and the',
  '[published docs][docs]. Run `gym eval run` with `--resume`:',
  '',
  '```bash',
  'gym eval run +output_jsonl_fpath=results/out.jsonl  # see https://docs.nvidia.com/nemo/gym',
  'curl -s https://example.com/health',
  '```',
  '',
  '| Flag | Description |',
  '| --- | --- |',
  '| `--resume` | Continue an interrupted run ([details](./resume.md)). |',
  '',
  '[docs]: https://docs.nvidia.com/nemo/gym/latest/index.html',
  '',
].join('\n');

/** Prose with literal URLs, www. hosts and e-mail addresses, one of them written with a character reference. */
const CANDIDATES = [
  '# Support',
  '',
  'Docs live at https://docs.nvidia.com/nemo/gym/latest/ and www.example.com/path, mirrored at HTTP://MIRROR.example.org.',
  'Mail gym-team@example.com, mailto:help@example.com or xmpp:bot@example.com/res; escaped: ops&#64;example.com.',
  '',
  '- A list item naming https://github.com/NVIDIA-NeMo/Gym/issues.',
  '',
  '| Contact | Address |',
  '| --- | --- |',
  '| Team | team@example.com |',
  '',
  'An [explicit link https://x.example.com](https://x.example.com) is left alone.',
  '',
].join('\n');

/** An MDX page with JSX, an expression and a literal URL inside a JSX element. */
const MDX_PAGE = [
  'import { Tabs } from "./tabs"',
  '',
  '# Install',
  '',
  '<Tabs>',
  '  Use the wheel from https://pypi.org/project/nemo-gym/ or build from source.',
  '</Tabs>',
  '',
  'Version {props.version}; report bugs to bugs@example.com.',
  '',
  '<Link href="/reference/cli-commands">CLI reference</Link>',
  '',
].join('\n');

describe('guarded literal autolinks', () => {
  test('Markdown trees equal those of the unguarded plugins, with and without candidates', () => {
    for (const text of [NO_CANDIDATE, CANDIDATES, '', 'plain text\n']) {
      expect(markdownProcessor.parse(text)).toEqual(plainMarkdown.parse(text));
    }
    // The candidates did become links (so the transform ran where it had to).
    const links = JSON.stringify(markdownProcessor.parse(CANDIDATES)).match(/"type":"link"/g) ?? [];
    expect(links.length).toBeGreaterThanOrEqual(8);
  });

  test('MDX trees equal those of the unguarded plugins', () => {
    for (const text of [MDX_PAGE, NO_CANDIDATE.replace(/^---[\s\S]*?---\n/, '')]) {
      expect(mdxProcessor.parse(text)).toEqual(plainMdx.parse(text));
    }
  });

  test('a candidate is looked for in text node values, after character references are decoded', () => {
    expect(hasAutolinkCandidate(plainMarkdown.parse(NO_CANDIDATE) as Root)).toBe(false);
    expect(hasAutolinkCandidate(plainMarkdown.parse('Write to ops&#64;example.com.\n') as Root)).toBe(true);
    expect(hasAutolinkCandidate(plainMarkdown.parse('See WWW.EXAMPLE.COM.\n') as Root)).toBe(true);
    // In inline code it is no text node: the transform never looks there.
    expect(hasAutolinkCandidate(plainMarkdown.parse('Run `curl https://example.com`.\n') as Root)).toBe(false);
  });

  test('the guard wraps exactly the literal-autolink transform, the only mdast transform of the plugins', () => {
    for (const processor of [markdownProcessor, mdxProcessor]) {
      const extensions = (processor.data('fromMarkdownExtensions') ?? []).flat() as Array<{ enter?: object; transforms?: Array<{ name: string }> }>;
      const withTransforms = extensions.filter((e) => (e.transforms ?? []).length > 0);
      expect(withTransforms).toHaveLength(1);
      expect(Object.keys(withTransforms[0]!.enter ?? {})).toContain('literalAutolink');
      // Wrapped: remark-gfm's own function is named transformGfmAutolinkLiterals.
      expect(withTransforms[0]!.transforms!.map((t) => t.name)).not.toContain('transformGfmAutolinkLiterals');
    }
  });
});
