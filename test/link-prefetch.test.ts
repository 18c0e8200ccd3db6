/** Which skipped pages a run parses ahead because the pages it parses anyway link to them (src/engine/link-prefetch.ts). */
import { describe, expect, it } from 'vitest';
import { linkedDocuments } from '../src/engine/link-prefetch.js';

const DOCS = [
  'README.md',
  'docs/guide/setup.md',
  'docs/reference/cli-commands.mdx',
  'docs/reference/index.mdx',
  'docs/about/concepts/evaluation.mdx',
  'docs/about/ecosystem.mdx',
  'docs/changelog.md',
  'docs/faq.md',
];

describe('linkedDocuments', () => {
  it('follows relative links with and without extension, reference definitions, JSX href and site routes, as the link stage resolves them', () => {
    const readme = [
      '# Tool',
      'See [setup](docs/guide/setup.md#install) and the [CLI reference](docs/reference/cli-commands).',
      'Concepts: [evaluation](/about/concepts/evaluation), and the [ecosystem][eco].',
      '',
      '[eco]: https://docs.example.com/tool/main/about/ecosystem#related',
      '',
      '<a href="docs/reference/">all commands</a>',
      'Not a page: [issues](https://github.com/o/r/issues), [top](#tool), [missing](docs/nowhere.md).',
    ].join('\n');
    const candidates = new Set(DOCS.filter((d) => d !== 'README.md'));
    expect(linkedDocuments([{ file: 'README.md', text: readme }], DOCS, candidates)).toEqual([
      'docs/guide/setup.md',
      'docs/reference/cli-commands.mdx',
      'docs/about/concepts/evaluation.mdx',
      'docs/about/ecosystem.mdx',
    ]);
  });

  it('names only candidates (pages not parsed anyway), each once, in link order across documents', () => {
    const sources = [
      { file: 'docs/guide/setup.md', text: 'Read the [FAQ](../faq.md), then [the CLI](../reference/cli-commands.mdx) and [the FAQ again](../faq.md#top).' },
      { file: 'docs/faq.md', text: 'Back to [setup](guide/setup.md) and on to the [changelog](./changelog.md).' },
    ];
    const candidates = new Set(['docs/faq.md', 'docs/changelog.md']);
    expect(linkedDocuments(sources, DOCS, candidates)).toEqual(['docs/faq.md', 'docs/changelog.md']);
  });

  it('reads a long line of brackets in linear time and finds nothing in text without links', () => {
    const text = `${'[]('.repeat(50_000)}\n${'](x'.repeat(50_000)}`;
    expect(linkedDocuments([{ file: 'README.md', text }], DOCS, new Set(DOCS))).toEqual([]);
    expect(linkedDocuments([{ file: 'README.md', text: 'Plain prose about docs/faq.md.' }], DOCS, new Set(DOCS))).toEqual([]);
  });
});
