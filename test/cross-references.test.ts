/** Tests links by label, document name and published URL (src/link/cross-references.ts, src/engine/site-urls.ts), heading anchors, and historical pages (src/docs/page-kind.ts). */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isContributorPage, isHistoricalPage, isPartialPage } from '../src/docs/page-kind.js';
import { parseDoc } from '../src/docs/parse.js';
import { findHeadingBySlug } from '../src/docs/slug.js';
import { declaredSiteUrls } from '../src/engine/site-urls.js';
import { resolveCrossReferences, resolveSiteUrls } from '../src/link/cross-references.js';
import type { DocLink } from '../src/model/types.js';

const link = (file: string, url: string): DocLink => ({ file, url, location: { file, line: 1, column: 1 } });

describe('heading anchors', () => {
  it('reads an explicit {#id} and MyST (label)= targets as anchors of the heading', () => {
    const { doc } = parseDoc('docs/cli.md', ['# CLI', '', '(help-build)=', '## shipit build --help', '', '## Export {#export}', '', '(far-label)=', '', 'Text.', '', '## Other', ''].join('\n'));
    expect(doc.headings.map((h) => h.anchors)).toEqual([undefined, ['help-build'], ['export'], undefined]);
    expect(findHeadingBySlug(doc, 'export')?.text).toMatch(/^Export/);
    expect(findHeadingBySlug(doc, 'help-build')?.text).toBe('shipit build --help');
  });
});

describe('attribute lists after headings (Python-Markdown, MkDocs)', () => {
  it('reads `{: #id }` and `{ #id .class }` as anchors, and the heading as a parameter heading', () => {
    const { doc } = parseDoc('templates/docs/config.md', ['# Configuration', '', 'Settings come from environment variables.', '', '## `SITE_ROOT` {: #SITE_ROOT }', '', 'Default: `http://localhost:8000`', '', '## `SITE_NAME` { #site-name .setting }', '', 'Default: `Mychecks`', ''].join('\n'));
    expect(doc.headings.map((h) => h.anchors)).toEqual([undefined, ['SITE_ROOT'], ['site-name']]);
    expect(doc.blocks[0]!.headingRows!.map((r) => [r.names, r.default])).toEqual([[['SITE_ROOT'], 'http://localhost:8000'], [['SITE_NAME'], 'Mychecks']]);
  });
});

describe('cross-reference roles', () => {
  it('reads MyST and Sphinx roles as links and resolves them by label and document name', () => {
    const { doc: guide } = parseDoc(
      'docs/guide/intro.md',
      ['# Intro', '', 'See {ref}`the build options <help-build>`, :ref:`help-build`, {doc}`../cli` and {doc}`/cli`, and {ref}`nowhere`.', ''].join('\n'),
    );
    const { doc: cli } = parseDoc('docs/cli.md', ['# CLI', '', '(help-build)=', '## shipit build', ''].join('\n'));
    expect(guide.links.map((l) => [l.role, l.url, l.targetFile])).toEqual([
      ['ref', 'help-build', undefined],
      ['ref', 'help-build', undefined],
      ['doc', '../cli', undefined],
      ['doc', '/cli', undefined],
      ['ref', 'nowhere', undefined],
    ]);
    resolveCrossReferences([guide, cli], ['docs/guide/intro.md', 'docs/cli.md']);
    expect(guide.links.map((l) => [l.targetFile, l.fragment])).toEqual([
      ['docs/cli.md', 'help-build'],
      ['docs/cli.md', 'help-build'],
      ['docs/cli.md', undefined],
      ['docs/cli.md', undefined],
      [undefined, undefined],
    ]);
  });
});

describe('links to the published site', () => {
  const files = ['docs/index.md', 'docs/usage.md', 'docs/cli-reference/index.md', 'docs/cli-reference/base.md', 'docs/plugins/usage.md'];

  it('maps URLs under a declared site URL to pages, with Read the Docs prefixes, .html and trailing slashes', () => {
    const page = {
      links: [
        link('README.md', 'https://tool.example.dev/cli-reference/'),
        link('README.md', 'https://tool.example.dev/cli-reference/base/#input'),
        link('README.md', 'https://tool.example.dev/en/stable/cli-reference/base.html'),
        link('README.md', 'https://tool.example.dev/usage.html'), // two pages end with usage: ambiguous
        link('README.md', 'https://other.example.org/cli-reference/'), // another site
        link('README.md', 'https://tool.example.dev/'), // the home page: no route
      ],
    };
    resolveSiteUrls([page], files, ['https://tool.example.dev']);
    expect(page.links.map((l) => l.targetFile)).toEqual(['docs/cli-reference/index.md', 'docs/cli-reference/base.md', 'docs/cli-reference/base.md', undefined, undefined, undefined]);
  });

  it('leaves a locale segment out and matches the route case-insensitively when nothing matches as written (issue #29)', () => {
    const page = {
      links: [
        link('README.md', 'https://tool.example.dev/docs/en/cli'), // Docusaurus 1: /docs/<locale>/<id>
        link('README.md', 'https://tool.example.dev/docs/pt-BR/configuration#roots'),
        link('README.md', 'https://tool.example.dev/docs/en/missing'),
      ],
    };
    resolveSiteUrls([page], ['docs/CLI.md', 'docs/Configuration.md', 'docs/en/intro.md'], ['https://tool.example.dev/']);
    expect(page.links.map((l) => l.targetFile)).toEqual(['docs/CLI.md', 'docs/Configuration.md', undefined]);
  });

  it('reads the url of a Docusaurus 1 siteConfig.js, not a nested url of a video', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'docdrift-site-'));
    mkdirSync(path.join(root, 'website'));
    writeFileSync(path.join(root, 'website/siteConfig.js'), "const videos = [\n  {\n    url: 'https://video.example.com/embed/x',\n  },\n];\nconst siteConfig = {\n  url: 'https://tool.example.dev',\n  baseUrl: '/',\n};\n");
    expect(declaredSiteUrls(root)).toEqual(['https://tool.example.dev/']);
  });

  it('reads the site URLs a project declares, leaving code hosts out', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'docdrift-site-'));
    mkdirSync(path.join(root, 'website'));
    writeFileSync(path.join(root, 'mkdocs.yml'), 'site_name: t\nsite_url: https://t.example.dev/\n');
    writeFileSync(path.join(root, 'website/docusaurus.config.ts'), "export default {\n  url: 'https://d.example.com',\n  baseUrl: '/tool/',\n};\n");
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ homepage: 'https://github.com/o/t#readme' }));
    writeFileSync(path.join(root, 'pyproject.toml'), '[project]\nname = "t"\n\n[project.urls]\nHomepage = "https://github.com/o/t"\nDocumentation = "https://t.readthedocs.io/"\n');
    expect(declaredSiteUrls(root).sort()).toEqual(['https://d.example.com/tool/', 'https://t.example.dev/', 'https://t.readthedocs.io/']);
  });
});

describe('isHistoricalPage', () => {
  it('tells change logs, release notes and blog posts from current docs', () => {
    for (const f of ['CHANGELOG.md', 'docs/changelog.md', 'HISTORY.md', 'docs/release-notes.mdx', 'website/_posts/2024-03-08-claude-3.md', 'docs/blog/knip-v5.mdx', 'posts/2025-01-02-launch.md']) {
      expect(isHistoricalPage(f), f).toBe(true);
    }
    for (const f of ['README.md', 'docs/guides/migrate-to-v2.md', 'docs/upgrading.md', 'docs/changes-to-config.md', 'docs/cli.md']) {
      expect(isHistoricalPage(f), f).toBe(false);
    }
    // Towncrier fragments, a page per release, notes of a major version, reStructuredText change logs.
    for (const f of ['changelog.d/1946.removal.md', 'newsfragments/12.feature.rst', 'doc/changes/2.0.rst', 'docs/releases/v1.4.0.md', 'docs/development/v3-notes/v3-features.mdx', 'CHANGES.rst']) {
      expect(isHistoricalPage(f), f).toBe(true);
    }
    for (const f of ['doc/changes/index.rst', 'docs/releases/how-we-release.md', 'docs/notes/v3.md', 'docs/usage/2.0-migration.rst']) expect(isHistoricalPage(f), f).toBe(false);
    expect(isHistoricalPage('docs/history.md')).toBe(true);
    expect(isHistoricalPage('docs/whats-new.md', 'Release notes')).toBe(true);
  });
  it('takes a page named like a change log as one only when its headings read like one', () => {
    // Version or date headings, at any depth of the path.
    expect(isHistoricalPage('packages/create-vite/CHANGELOG.md', '6.5.0 (2025-05-12)', ['6.5.0 (2025-05-12)', 'Features'])).toBe(true);
    expect(isHistoricalPage('packages/a/CHANGELOG.md', 'create-vite@6.5.0', ['create-vite@6.5.0', 'Minor Changes'])).toBe(true);
    expect(isHistoricalPage('CHANGELOG.md', 'Changelog', ['Changelog', 'v2.0.0', '[1.9.1](https://x/compare)'])).toBe(true);
    expect(isHistoricalPage('NEWS.md', 'Unreleased', ['Unreleased'])).toBe(true);
    expect(isHistoricalPage('docs/changelog.md', 'Releases of May', ['Releases of May', 'March 8, 2024'])).toBe(true);
    expect(isHistoricalPage('CHANGELOG.md', undefined, [])).toBe(true);
    // oclif's generated page for a `changelog` command is a command page.
    expect(isHistoricalPage('documentation/commands/changelog.md', 'rdme changelog', ['rdme changelog', 'rdme changelog upload PATH'])).toBe(false);
    expect(isHistoricalPage('docs/commands/news.md', 'tool news', ['tool news', 'Options'])).toBe(false);
  });
});

describe('isPartialPage', () => {
  it('tells included fragments from pages', () => {
    for (const f of ['website/_includes/get-started.md', 'docs/snippets/install.mdx', 'docs/_partials/setup.md', 'docs/guides/_setup.mdx']) expect(isPartialPage(f), f).toBe(true);
    for (const f of ['docs/_index.md', 'docs/guides/setup.mdx', 'README.md', 'docs/include-files.md']) expect(isPartialPage(f), f).toBe(false);
  });
});

describe('isContributorPage', () => {
  it('tells guides for contributors from user docs', () => {
    for (const f of ['CONTRIBUTING.md', 'docs/contributing.md', 'DEVELOPMENT.md', 'HACKING.md', 'docs/contributing/setup.md', 'docs/development-contributing.md', 'docs/development/v3-notes/v3-features.mdx', 'docs/internals/cache.md', 'docs/dev/initiative-c-params.md']) expect(isContributorPage(f), f).toBe(true);
    for (const f of ['README.md', 'docs/usage.md', 'docs/plugins/developing-plugins.md', 'docs/contributors-guide-to-flags/x.md', 'docs/developing/serve.md', 'docs/app-development/run.md', 'docs/guide/dev/server.md']) expect(isContributorPage(f), f).toBe(false);
  });
});
