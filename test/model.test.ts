/** Model join helpers: site-route link resolution and the choice of a command's primary section. */
import { describe, expect, it } from 'vitest';
import { resolveSiteRoutes, namesBase } from '../src/link/build.js';
import type { DocFile, DocLink } from '../src/model/types.js';

function docWithLinks(file: string, urls: Array<[string, string | undefined]>): DocFile {
  const links: DocLink[] = urls.map(([url, targetFile]) => ({
    file,
    url,
    ...(targetFile ? { targetFile } : {}),
    location: { file, line: 1, column: 1 },
  }));
  return { file, kind: 'md', headings: [], blocks: [], codeBlocks: [], invocations: [], links };
}

describe('resolveSiteRoutes', () => {
  const files = [
    'fern/pages/reference/cli-commands.mdx',
    'fern/pages/get-started/index.mdx',
    'docs/setup/README.md',
    'a/intro.md',
    'b/intro.md',
  ];

  it('maps root-relative routes to the one document whose path ends with them', () => {
    const doc = docWithLinks('README.md', [
      ['/reference/cli-commands#ng_run', undefined],
      ['/get-started/', undefined],
      ['/docs/setup', undefined],
      ['/intro', undefined],
      ['https://example.com/reference/cli-commands', undefined],
      ['/nowhere', undefined],
    ]);
    resolveSiteRoutes([doc], files);
    expect(doc.links.map((l) => l.targetFile)).toEqual([
      'fern/pages/reference/cli-commands.mdx',
      'fern/pages/get-started/index.mdx',
      'docs/setup/README.md',
      undefined, // two documents end with /intro: ambiguous, left alone
      'fern/pages/reference/cli-commands.mdx', // the published page of that document
      undefined,
    ]);
  });

  it('maps a published-site URL whose path ends with a route of one document (two segments or more)', () => {
    const doc = docWithLinks('README.md', [
      ['https://docs.example.com/nemo/gym/main/reference/cli-commands#ng_run', undefined],
      ['https://docs.example.com/setup.html', undefined],
      ['https://example.com/get-started/index.html', undefined],
    ]);
    resolveSiteRoutes([doc], files);
    expect(doc.links.map((l) => l.targetFile)).toEqual([
      'fern/pages/reference/cli-commands.mdx',
      undefined, // one segment is too generic to trust
      undefined,
    ]);
  });

  it('maps a Jekyll-style .html route or relative link to the Markdown page it is published from', () => {
    const doc = docWithLinks('fern/pages/guide.mdx', [
      ['/pages/reference/cli-commands.html#ng_run', undefined],
      ['./reference/cli-commands.html', 'fern/pages/reference/cli-commands.html'],
    ]);
    resolveSiteRoutes([doc], files);
    expect(doc.links.map((l) => l.targetFile)).toEqual(['fern/pages/reference/cli-commands.mdx', 'fern/pages/reference/cli-commands.mdx']);
  });

  it('adds a missing .md/.mdx extension to a relative link', () => {
    const doc = docWithLinks('fern/pages/guide.mdx', [['./reference/cli-commands', 'fern/pages/reference/cli-commands']]);
    resolveSiteRoutes([doc], files);
    expect(doc.links[0]?.targetFile).toBe('fern/pages/reference/cli-commands.mdx');
  });
});

describe('package.json bins and the flags of their programs', () => {
  it('a bin whose program has no parser gets no flags of another bin (the only one whose flags were read)', async () => {
    const { lintTwin, removeTempDirs, tempProject } = await import('./helpers.js');
    const root = tempProject({
      'package.json': JSON.stringify({ name: 'tools', version: '1.0.0', type: 'module', bin: { gen: 'bin/gen.js', serve: 'bin/serve.js' } }),
      'bin/gen.js': [
        "import yargs from 'yargs';",
        "yargs(process.argv.slice(2)).scriptName('gen').options({ out: { type: 'string', description: 'output directory' } }).parse();",
        '',
      ].join('\n'),
      // No parser docdrift reads: its flags are unknown, not gen's.
      'bin/serve.js': "const port = process.argv[process.argv.indexOf('--port') + 1];\nconsole.log(port);\n",
      'README.md': ['# tools', '', '```bash', 'gen --out site', 'serve --port 8080', '```', '', '## `gen`', '', '| Flag | Description |', '|---|---|', '| `--out` | output directory |', ''].join('\n'),
    });
    try {
      const { result, messages } = await lintTwin(root);
      const commands = Object.fromEntries(result.model.commands.map((c) => [c.name, c.params.map((p) => p.name)]));
      expect(commands).toEqual({ gen: ['out'], serve: [] });
      expect(messages.filter((m) => m.ruleId === 'example-param-unknown')).toEqual([]);
    } finally {
      removeTempDirs();
    }
  });
});

describe('namesBase', () => {
  it('tells the base class a heading names after "inherits"/"extends" from its subject', () => {
    const heading = 'ServerConfig inherits BundlerPlugins';
    expect(namesBase(heading, 'BundlerPlugins')).toBe(true);
    expect(namesBase(heading, 'ServerConfig')).toBe(false);
    expect(namesBase('Options extends BaseOptions', 'BaseOptions')).toBe(true);
    expect(namesBase('Plan (derived from Settings)', 'Settings')).toBe(true);
    // Two subjects joined by "and" are both the heading's.
    expect(namesBase('tool build and tool watch', 'tool watch')).toBe(false);
  });
});
