/**
 * Versioned doc trees (issue #13 item 11): which version of a Docusaurus, Fern or Redocly tree is
 * checked, read from the engine's own version files, and the run note naming what was skipped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load.js';
import { areCopies } from '../src/engine/copies.js';
import { compareVersions, isVersionFolder, selectDocVersions, versionNotes } from '../src/engine/versions.js';
import { lintTwin } from './helpers.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A project with these files (path → content); returns its root. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'docdrift-versions-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('selectDocVersions', () => {
  it('Redocly: versions.yaml `default` wins over the highest folder', () => {
    const root = project({ 'docs/versions.yaml': "default: 'v2'\nversions:\n  - version: v1\n  - version: v2\n  - version: v3\n" });
    const docs = ['README.md', 'docs/@v1/a.md', 'docs/@v2/a.md', 'docs/@v2/b.md', 'docs/@v3/a.md'];
    const got = selectDocVersions(root, docs);
    expect(got.docs).toEqual(['README.md', 'docs/@v2/a.md', 'docs/@v2/b.md']);
    expect(got.families).toEqual([
      {
        engine: 'redocly',
        dir: 'docs',
        current: 'docs/@v2',
        currentFrom: 'docs/versions.yaml `default`',
        skipped: [
          { dir: 'docs/@v1', docs: 1 },
          { dir: 'docs/@v3', docs: 1 },
        ],
      },
    ]);
  });

  it('a page named with a version beside the same page without one is an older copy, unless it names the package major', () => {
    const docs = ['docs/configuration.md', 'docs/configuration-v1.md', 'docs/api_v2.mdx', 'docs/setup-v1.md'];
    // `setup-v1.md` has no `setup.md` beside it: a page of its own. `api_v2.mdx` has no `api.mdx`.
    const plain = selectDocVersions(project({ 'package.json': '{"version": "0.9.1", "bin": {"x": "x.js"}}' }), docs, 'current', ['package.json']);
    expect(plain.docs).toEqual(['docs/configuration.md', 'docs/api_v2.mdx', 'docs/setup-v1.md']);
    expect(plain.families).toEqual([{ engine: 'page', dir: 'docs/configuration.md', current: 'docs/configuration.md', currentFrom: 'package.json `version` 0.9.1', skipped: [{ dir: 'docs/configuration-v1.md', docs: 1 }] }]);
    expect(versionNotes(plain.families)[0]).toContain('docs/configuration-v1.md (1 file)');
    // In a 1.x package the `-v1` page is the current major's: kept.
    expect(selectDocVersions(project({ 'package.json': '{"version": "1.2.0"}' }), docs, 'current', ['package.json']).docs).toEqual(docs);
    // `versions: "all"`, a named version or a config glob naming the page keeps it.
    expect(selectDocVersions(project({}), docs, 'all').docs).toEqual(docs);
    expect(selectDocVersions(project({}), docs, ['v1']).docs).toEqual(docs);
    expect(selectDocVersions(project({}), docs, 'current', [], ['docs/configuration-v1.md']).docs).toEqual(docs);
    expect(selectDocVersions(project({}), docs).docs).not.toContain('docs/configuration-v1.md');
  });

  it('Redocly without versions.yaml: the highest version, compared numerically', () => {
    const root = project({});
    const got = selectDocVersions(root, ['docs/@v9/a.md', 'docs/@v10/a.md']);
    expect(got.docs).toEqual(['docs/@v10/a.md']);
    expect(got.families[0]!.currentFrom).toBe('the highest version');
  });

  it('Docusaurus: docs/ is the current version; every versioned_docs tree is skipped', () => {
    const root = project({ 'website/versions.json': '["2.1.0", "2.0.0"]', 'website/docusaurus.config.js': 'module.exports = {};' });
    const docs = ['website/docs/cli.md', 'website/versioned_docs/version-2.0.0/cli.md', 'website/versioned_docs/version-2.1.0/cli.md'];
    const got = selectDocVersions(root, docs);
    expect(got.docs).toEqual(['website/docs/cli.md']);
    expect(got.families[0]).toMatchObject({ engine: 'docusaurus', dir: 'website/versioned_docs', current: 'website/docs' });
  });

  it('Docusaurus with includeCurrentVersion: false: lastVersion, else the first entry of versions.json', () => {
    const withLast = project({
      'versions.json': '["2.1.0", "2.0.0"]',
      'docusaurus.config.ts': "export default { presets: [['classic', { docs: { includeCurrentVersion: false, lastVersion: '2.0.0' } }]] };",
    });
    const docs = ['versioned_docs/version-2.0.0/cli.md', 'versioned_docs/version-2.1.0/cli.md'];
    expect(selectDocVersions(withLast, docs).docs).toEqual(['versioned_docs/version-2.0.0/cli.md']);
    const newestFirst = project({ 'versions.json': '["2.1.0", "2.0.0"]', 'docusaurus.config.js': 'module.exports = { includeCurrentVersion: false };' });
    const got = selectDocVersions(newestFirst, docs);
    expect(got.docs).toEqual(['versioned_docs/version-2.1.0/cli.md']);
    expect(got.families[0]!.currentFrom).toBe('versions.json (first entry, the newest)');
  });

  it('Fern: the first entry of docs.yml `versions`', () => {
    const root = project({
      'fern/docs.yml': 'versions:\n  - display-name: v1\n    path: ./versions/v1.yml\n  - display-name: v2\n    path: ./versions/v2.yml\n',
    });
    const got = selectDocVersions(root, ['fern/versions/v1/cli.mdx', 'fern/versions/v2/cli.mdx', 'fern/pages/intro.mdx']);
    // The project lists v1 first, so v1 is its default version even though v2 is higher.
    expect(got.docs).toEqual(['fern/versions/v1/cli.mdx', 'fern/pages/intro.mdx']);
    expect(got.families[0]).toMatchObject({ engine: 'fern', current: 'fern/versions/v1', currentFrom: 'fern/docs.yml `versions` (first entry)' });
  });

  it('Fern: the folder that the first version navigation file lays out (versions/main.yml lists ./latest/pages)', () => {
    const root = project({
      'fern/docs.yml': 'versions:\n  - display-name: Main\n    path: versions/main.yml\n  - display-name: "0.3.0"\n    path: versions/v0.3.0.yml\n',
      'fern/versions/main.yml': 'navigation:\n  - section: Docs\n    contents:\n      - folder: ./latest/pages/about\n      - page: CLI\n        path: ./latest/pages/reference/cli.mdx\n',
    });
    const got = selectDocVersions(root, ['fern/versions/latest/pages/reference/cli.mdx', 'fern/versions/v0.3.0/pages/reference/cli.mdx']);
    expect(got.docs).toEqual(['fern/versions/latest/pages/reference/cli.mdx']);
    expect(got.families[0]).toMatchObject({ current: 'fern/versions/latest', skipped: [{ dir: 'fern/versions/v0.3.0', docs: 1 }] });
  });

  it('keeps every tree with "all", and the named ones with a list', () => {
    const root = project({});
    const docs = ['docs/@v1/a.md', 'docs/@v2/a.md', 'docs/@v3/a.md'];
    expect(selectDocVersions(root, docs, 'all').docs).toEqual(docs);
    expect(selectDocVersions(root, docs, ['v1']).docs).toEqual(['docs/@v1/a.md', 'docs/@v3/a.md']);
    expect(selectDocVersions(root, docs, ['@v2']).docs).toEqual(['docs/@v2/a.md', 'docs/@v3/a.md']);
  });

  it('leaves projects without version trees alone (an `@` scope folder without a version is not one)', () => {
    const root = project({});
    const docs = ['docs/@scope/pkg.md', 'docs/versions.md', 'versions/notes.md'];
    expect(selectDocVersions(root, docs)).toEqual({ docs, families: [] });
  });
});

describe('plain version folders (docs/v1, docs/3.x): Mintlify config and package version', () => {
  const twin = (name: string): string => path.resolve(import.meta.dirname, '../fixtures/versions', name);

  it('Mintlify docs.json: the first navigation version is current, a $ref version whose pages sit in v1/ is skipped', async () => {
    const { result, messages } = await lintTwin(twin('mintlify-folder'));
    // docs/v1 documents the removed --temp: without the version check it is an unknown flag twice.
    expect(messages.filter((m) => m.file?.startsWith('docs/v1/'))).toEqual([]);
    expect(result.notes.filter((n) => n.includes('non-current'))).toEqual([
      'skipped 1 non-current version of the docs: docs/v1 (1 file); checked docs (current version: docs/docs.json `navigation.versions`). Set "versions": "all" (or a list of version names) in the config to check them too.',
    ]);
    const all = selectDocVersions(twin('mintlify-folder'), ['docs/cli/reference.mdx', 'docs/v1/cli/reference.mdx'], ['v1']);
    expect(all.docs).toEqual(['docs/cli/reference.mdx', 'docs/v1/cli/reference.mdx']);
    // A config glob pointing into the version folder maps it: checked.
    const mapped = selectDocVersions(twin('mintlify-folder'), ['docs/cli/reference.mdx', 'docs/v1/cli/reference.mdx'], 'current', [], ['docs/v1/cli/*.mdx']);
    expect(mapped.docs).toEqual(['docs/cli/reference.mdx', 'docs/v1/cli/reference.mdx']);
  });

  it('package version: docs/3.x beside a 4.1.0 package with a bin is skipped; a 4.x folder is kept', async () => {
    const { result, messages } = await lintTwin(twin('package-major'));
    expect(messages.filter((m) => m.file?.startsWith('docs/3.x/'))).toEqual([]);
    expect(result.notes.some((n) => n.startsWith('skipped 1 non-current version of the docs: docs/3.x (1 file); checked docs (current version: package.json `version` 4.1.0)'))).toBe(true);
    const got = selectDocVersions(twin('package-major'), ['docs/cli.md', 'docs/3.x/cli.md', 'docs/4.x/cli.md'], 'current', ['package.json']);
    expect(got.docs).toEqual(['docs/cli.md', 'docs/4.x/cli.md']);
  });

  it('a page\'s older copy beside it (docs/cli-v1.md next to docs/cli.md in a 0.x package) is skipped with a note', async () => {
    const { result, messages } = await lintTwin(twin('page-copy'));
    // docs/cli-v1.md documents the removed --legacy-paths: without the version check it is an unknown flag.
    expect(messages).toEqual([]);
    expect(result.notes.filter((n) => n.includes('non-current'))).toEqual([
      'skipped 1 non-current version of the docs: docs/cli-v1.md (1 file); checked docs/cli.md (current version: package.json `version` 0.8.0). Set "versions": "all" (or a list of version names) in the config to check them too.',
    ]);
    const all = await lintTwin(twin('page-copy'), { versions: 'all' });
    expect(all.messages.map((m) => [m.file, m.ruleId, m.data?.name])).toEqual([['docs/cli-v1.md', 'reference-param-unknown', 'legacy-paths']]);
  });

  it('without a doc engine config or a package version, a lone version folder beside unversioned pages is checked', () => {
    const root = project({ 'pyproject.toml': '[project]\nname = "x"\ndynamic = ["version"]\n' });
    const docs = ['docs/index.md', 'docs/v1/endpoints.md'];
    expect(selectDocVersions(root, docs, 'current', ['pyproject.toml']).docs).toEqual(docs);
    // Version folders alone: the highest is checked.
    expect(selectDocVersions(root, ['docs/v1/a.md', 'docs/v2/a.md'], 'current', ['pyproject.toml']).docs).toEqual(['docs/v2/a.md']);
    // Outside a docs folder a `v1` folder is code (an API module), not a version of the docs.
    expect(selectDocVersions(root, ['src/api/v1/README.md', 'src/api/v2/README.md']).docs).toEqual(['src/api/v1/README.md', 'src/api/v2/README.md']);
  });

  it('Mintlify mint.json: listed versions match folders by bare name (`2` is `v2`, `version-1` is `1`); unlisted folders are checked', () => {
    const root = project({ 'docs/mint.json': JSON.stringify({ versions: ['v3', '2', 'V1', 'w9'] }) });
    const docs = ['docs/v3/a.md', 'docs/v2/a.md', 'docs/version-1/a.md', 'docs/v4/a.md', 'docs/index.md'];
    const chosen = selectDocVersions(root, docs);
    expect(chosen.docs).toEqual(['docs/v3/a.md', 'docs/v4/a.md', 'docs/index.md']);
    expect(chosen.families[0]).toMatchObject({ current: 'docs/v3', currentFrom: 'docs/mint.json `versions`', skipped: [{ dir: 'docs/v2', docs: 1 }, { dir: 'docs/version-1', docs: 1 }] });
    // The current version is never skipped, even when listed again among the others.
    const again = project({ 'docs/mint.json': JSON.stringify({ versions: ['v3', 'v2', '3'] }) });
    expect(selectDocVersions(again, ['docs/v3/a.md', 'docs/v2/a.md']).docs).toEqual(['docs/v3/a.md']);
  });

  it('a page outside the version folders, at any depth below the docs folder, counts as unversioned', () => {
    const root = project({ 'pyproject.toml': '[project]\nname = "x"\ndynamic = ["version"]\n' });
    // A lone version folder beside unversioned pages is checked; without them the highest is kept.
    expect(selectDocVersions(root, ['docs/guide/deep/x.md', 'docs/v1/a.md', 'docs/v2/a.md'], 'current', ['pyproject.toml']).docs).toEqual(['docs/guide/deep/x.md', 'docs/v1/a.md', 'docs/v2/a.md']);
    expect(selectDocVersions(root, ['site/x.md', 'docs/v1/a.md', 'docs/v2/a.md'], 'current', ['pyproject.toml']).docs).toEqual(['site/x.md', 'docs/v2/a.md']);
  });

  it('one predicate names a version folder for version selection and copy folding', () => {
    for (const seg of ['v2', '6.x', 'version-1.2', '@v1', '1.2.0']) expect(isVersionFolder(seg)).toBe(true);
    for (const seg of ['cli', 'v', 'vitest', '2024', 'zh']) expect(isVersionFolder(seg)).toBe(false);
    expect(areCopies('docs/6.x/cli.md', 'docs/cli.md')).toBe(true);
  });
});

describe('versionNotes', () => {
  it('names the skipped trees, the checked one and how to check them all', () => {
    const root = project({ 'docs/versions.yaml': 'default: v2\n' });
    const { families } = selectDocVersions(root, ['docs/@v1/a.md', 'docs/@v1/b.md', 'docs/@v2/a.md']);
    expect(versionNotes(families)).toEqual([
      'skipped 1 non-current version of the docs: docs/@v1 (2 files); checked docs/@v2 (current version: docs/versions.yaml `default`). ' +
        'Set "versions": "all" (or a list of version names) in the config to check them too.',
    ]);
    expect(versionNotes(selectDocVersions(root, ['docs/@v2/a.md']).families)).toEqual([]);
  });
});

describe('compareVersions', () => {
  it('orders numerically, with latest/next above every number', () => {
    expect(['v10', 'v9', 'v1.2', 'latest', 'v1.10'].sort(compareVersions)).toEqual(['v1.2', 'v1.10', 'v9', 'v10', 'latest']);
  });
});

describe('the `versions` config key', () => {
  it('accepts "current", "all" and a list of names, and refuses anything else naming the key', () => {
    expect(loadConfig(project({})).config.versions).toBe('current');
    expect(loadConfig(project({ 'docdrift.config.json': '{"versions": "all"}' })).config.versions).toBe('all');
    expect(loadConfig(project({ 'docdrift.config.json': '{"versions": ["v1"]}' })).config.versions).toEqual(['v1']);
    let error: unknown;
    try {
      loadConfig(project({ 'docdrift.config.json': '{"versions": "newest"}' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).key).toBe('versions');
    expect((error as ConfigError).expected).toContain('"current", "all"');
  });
});
