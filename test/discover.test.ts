/** File discovery: the `git ls-files` way gives exactly globby's answer, and globby is used where git cannot. */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import { discoverFiles, MAX_PATH_DEPTH, MAX_SHEBANG_CANDIDATES, shellScripts, startGitListing, withoutDeepPaths, type DiscoveryMemo } from '../src/engine/discover.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'docdrift-discover-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]): void => {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'ignore' });
};

/** A work tree with every case where a naive `git ls-files` would differ from globby. */
function makeRepo(name: string): string {
  const root = path.join(scratch, name);
  const files: Record<string, string> = {
    '.gitignore': 'ignored/\n*.log.md\nsecret_*.py\n!secret_ok.py\n',
    'README.md': '# r\n',
    'docs/guide.md': '# g\n',
    'docs/page.mdx': '# p\n',
    'docs/sub/.gitignore': 'local.md\n',
    'docs/sub/local.md': 'ignored by a nested .gitignore\n',
    'docs/sub/kept.md': 'kept\n',
    'docs/versioned_docs/old.md': 'frozen\n',
    'docs/versions/v1.2/old.md': 'frozen\n',
    'notes.log.md': 'ignored by pattern\n',
    'ignored/a.md': 'ignored dir\n',
    '.github/workflow.md': 'dot directory\n',
    'node_modules/pkg/readme.md': 'always ignored\n',
    'build/out.md': 'always ignored\n',
    'pkg/__init__.py': '',
    'pkg/cli.py': 'import argparse\n',
    'pkg/secret_key.py': 'ignored\n',
    'pkg/secret_ok.py': 're-included\n',
    'pkg/tests/test_cli.py': 'test code\n',
    'pkg/conftest.py': 'test code\n',
    'pkg/config.yaml': 'a: 1\n',
    'web/src/app.ts': 'export {};\n',
    'web/src/types.d.ts': 'declare const x: 1;\n',
    'web/src/app.test.ts': 'test\n',
    'pyproject.toml': '[project]\nname = "x"\n',
    'sub/setup.cfg': '[metadata]\n',
    'package.json': '{}\n',
    'deleted.md': 'deleted from the work tree after the commit\n',
    '.env.example': 'API_KEY=\n',
    '.env': 'API_KEY=secret\n',
    'services/api/.env.sample': 'PORT=8080\n',
    'deploy/env.template': 'REGION=eu\n',
    'web/example.env': 'VITE_URL=x\n',
    'ignored/.env.example': 'IGNORED=1\n',
    'node_modules/pkg/.env.example': 'VENDORED=1\n',
    'pkg/tests/.env.example': 'TEST_ONLY=1\n',
    '.devcontainer/.env.example': 'DOT_DIR=1\n',
    'bin/run.sh': 'echo "$APP_CACHE_DIR"\n',
    'wrapper': '#!/usr/bin/env bash\nexec tool "${TOOL_BIN:-tool}"\n',
    'scripts/release': '#!/bin/sh -e\necho "$VERSION"\n',
    'scripts/gen': '#!/usr/bin/env python3\nprint(1)\n',
    // A container's entrypoint and a process supervisor's service scripts are candidates by name,
    // in any folder (s6-overlay's `run` through its `with-contenv` wrapper); a Python one is no shell script.
    'deploy/entrypoint': '#!/bin/sh\nexec "$@"\n',
    'docker/rootfs/etc/s6-overlay/s6-rc.d/svc-flower/run': '#!/command/with-contenv /usr/bin/bash\n# shellcheck shell=bash\n',
    'docker/rootfs/etc/s6-overlay/s6-rc.d/svc-py/run': '#!/usr/bin/env python3\n',
    'deploy/notes': '#!/bin/sh\nnot a candidate folder\n',
    'LICENSE': 'MIT\n',
    'Dockerfile': 'FROM python:3\nENV APP_MODE=prod\n',
    'docker/Dockerfile.prod': 'FROM python:3\n',
    'docker/api.Dockerfile': 'FROM python:3\n',
    'Makefile': 'test:\n\t$(PYTHON) -m pytest\n',
    'make/rules.mk': 'X ?= 1\n',
    'justfile': 'run:\n  echo $APP_MODE\n',
    'fixtures/other.sh': 'echo $FOREIGN\n',
    'node_modules/pkg/install.sh': 'echo $VENDORED\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'add', '-f', 'ignored/a.md', 'notes.log.md'); // tracked although ignored: git keeps them, globby skips them
  git(root, 'commit', '-q', '-m', 'init');
  unlinkSync(path.join(root, 'deleted.md'));
  writeFileSync(path.join(root, 'untracked.md'), 'untracked, not ignored\n');
  writeFileSync(path.join(root, 'pkg/new_module.py'), 'untracked\n');
  symlinkSync('README.md', path.join(root, 'link.md'));
  symlinkSync('docs', path.join(root, 'docs-link'));
  return root;
}

/** The git listing without the two files the test repository tracks although .gitignore matches them (globby cannot see them). */
function untracking<T extends object>(found: T): T {
  const tracked = new Set(['ignored/a.md', 'notes.log.md']);
  return Object.fromEntries(Object.entries(found).map(([k, v]) => [k, Array.isArray(v) ? v.filter((f) => !tracked.has(f)) : v])) as T;
}

describe('discoverFiles', () => {
  it('names the documents a pattern matched but that are not read: a link outside the project or to an unlisted file (s26b sweep O1: dropped without a word)', async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'docdrift-notread-'));
    const outside = mkdtempSync(path.join(os.tmpdir(), 'docdrift-outside-'));
    try {
      mkdirSync(path.join(repo, 'docs'));
      mkdirSync(path.join(repo, 'data'));
      writeFileSync(path.join(outside, 'ref.md'), '# ref\n');
      writeFileSync(path.join(repo, 'docs/real.md'), '# real\n');
      writeFileSync(path.join(repo, 'data/notes.txt'), 'x\n');
      symlinkSync(path.join(outside, 'ref.md'), path.join(repo, 'docs/reference.md'));
      symlinkSync('real.md', path.join(repo, 'docs/alias.md'));
      symlinkSync('../data/notes.txt', path.join(repo, 'docs/notes.md'));
      git(repo, 'init', '-q');
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'x');
      const expected = [
        { file: 'docs/notes.md', why: 'it is a symbolic link (to data/notes.txt), and docdrift follows no links; add data/notes.txt to the `docs` patterns to check it' },
        { file: 'docs/reference.md', why: 'it is a symbolic link to a file outside the project, which docdrift does not read' },
      ];
      const found = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
      expect(found.docs).toEqual(['docs/real.md']);
      expect(found.notRead).toEqual(expected);
      // The directory walk (no git) named none of them (s26 note): the same, and a FIFO git cannot list.
      spawnSync('mkfifo', [path.join(repo, 'docs/pipe.md')]);
      const walked = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'walk');
      expect(walked.docs).toEqual(['docs/real.md']);
      expect(walked.notRead).toEqual([expected[0], { file: 'docs/pipe.md', why: 'it is not a regular file (a FIFO)' }, expected[1]]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  const root = makeRepo('repo');

  it('lists example env files (never .env; not in ignored, vendored, test or dot folders), the same with git as with globby', async () => {
    const viaGit = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
    const viaGlobby = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'globby');
    const expected = ['.env.example', 'deploy/env.template', 'services/api/.env.sample', 'web/example.env'];
    expect(viaGit.envFiles).toEqual(expected);
    expect(viaGlobby.envFiles).toEqual(expected);
    // A user `ignore` glob applies to them too.
    expect((await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, ['services/**'], 'git')).envFiles).toEqual(['.env.example', 'deploy/env.template', 'web/example.env']);
  });

  it('lists shell scripts, Dockerfiles, Makefiles and justfiles; extensionless files only with a shell shebang and in candidate folders; the same with git as with globby', async () => {
    const viaGit = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
    const viaGlobby = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'globby');
    const expected = ['Dockerfile', 'Makefile', 'bin/run.sh', 'deploy/entrypoint', 'docker/Dockerfile.prod', 'docker/api.Dockerfile', 'docker/rootfs/etc/s6-overlay/s6-rc.d/svc-flower/run', 'justfile', 'make/rules.mk', 'scripts/release', 'wrapper'];
    expect(viaGit.scripts).toEqual(expected);
    expect(viaGlobby.scripts).toEqual(expected);
    expect((await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, ['docker/**'], 'globby')).scripts).toEqual(expected.filter((f) => !f.startsWith('docker/')));
  });

  it('leaves out files under more than MAX_PATH_DEPTH folders from every list, with one note (s30 sweep D7)', () => {
    const at = (depth: number, name: string): string => `${Array.from({ length: depth }, () => 'a').join('/')}/${name}`;
    const deepest = at(MAX_PATH_DEPTH, 'kept.md');
    const found = { sources: [at(MAX_PATH_DEPTH + 1, 'x.py'), 'tool/cli.py'], docs: [deepest, at(MAX_PATH_DEPTH + 1, 'p.md'), at(300, 'q.md')], packaging: [], yaml: [] };
    const notes: string[] = [];
    const out = withoutDeepPaths(found, notes);
    expect(out.sources).toEqual(['tool/cli.py']);
    expect(out.docs).toEqual([deepest]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^3 files are under more than 64 folders \(a\/a\/.*….*\/a\/q\.md\); they are not read\.$/);
    const shallow = { sources: ['tool/cli.py'], docs: [deepest], packaging: [], yaml: [] };
    expect(withoutDeepPaths(shallow, notes)).toBe(shallow);
    expect(notes).toHaveLength(1);
  });

  it('opens at most MAX_SHEBANG_CANDIDATES extensionless files, reading their first bytes only', () => {
    const candidates = Array.from({ length: MAX_SHEBANG_CANDIDATES + 10 }, (_, i) => `bin/tool${String(i).padStart(4, '0')}`);
    const opened: string[] = [];
    const found = shellScripts(['Makefile', ...candidates, 'x.sh', 'README'], (f) => {
      opened.push(f);
      return '#!/bin/bash\n';
    });
    expect(opened).toHaveLength(MAX_SHEBANG_CANDIDATES);
    expect(found).toEqual(['Makefile', ...candidates.slice(0, MAX_SHEBANG_CANDIDATES), 'x.sh']);
  });

  it('lists the same files with git as with globby, for the default patterns, except tracked files a .gitignore matches', async () => {
    const viaGit = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
    const viaGlobby = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'globby');
    // git keeps what it tracks whatever .gitignore says; globby cannot know what is tracked.
    expect(viaGit).toEqual({ ...viaGlobby, docs: [...viaGlobby.docs, 'ignored/a.md', 'notes.log.md'].sort() });
    // The cases themselves, so a change to both ways at once is also caught. Versioned doc trees
    // are listed: the engine keeps their current version (src/engine/versions.ts).
    expect(viaGit.docs).toEqual(['README.md', 'docs/guide.md', 'docs/page.mdx', 'docs/sub/kept.md', 'docs/versioned_docs/old.md', 'docs/versions/v1.2/old.md', 'ignored/a.md', 'notes.log.md', 'untracked.md']);
    expect(viaGit.sources).toEqual(['pkg/__init__.py', 'pkg/cli.py', 'pkg/new_module.py', 'pkg/secret_ok.py', 'web/src/app.ts', 'web/src/types.d.ts']);
    expect(viaGit.packaging).toEqual(['package.json', 'pyproject.toml', 'sub/setup.cfg']);
    expect(viaGit.yaml).toEqual(['pkg/config.yaml']);
  });

  it('lists the same files with git as with globby, for custom patterns, dot patterns and ignores', async () => {
    const sources = ['pkg/**/*.py', '!**/new_*.py'];
    const docs = ['**/*.md', '.github/**/*.md', '!docs/**/kept.md'];
    const ignore = ['**/guide.*'];
    const viaGit = await discoverFiles(root, sources, docs, ignore, 'git');
    expect(untracking(viaGit)).toEqual(await discoverFiles(root, sources, docs, ignore, 'globby'));
    expect(viaGit.docs).toEqual(['.github/workflow.md', 'README.md', 'docs/versioned_docs/old.md', 'docs/versions/v1.2/old.md', 'ignored/a.md', 'notes.log.md', 'untracked.md']);
  });

  it('lists paths without the `./` a pattern starts with, each once, as the same patterns without it (the glob walk kept it: links to them were not followed)', async () => {
    const plain = await discoverFiles(root, ['pkg/**/*.py'], ['README.md', 'docs/**/*.md'], []);
    const dotted = await discoverFiles(root, ['./pkg/**/*.py'], ['README.md', './docs/**/*.md', './README.md'], []);
    expect(dotted.docs).toEqual(plain.docs);
    expect(dotted.sources).toEqual(plain.sources);
    expect(dotted.docs).toContain('README.md');
    expect(dotted.docs.some((f) => f.startsWith('docs/'))).toBe(true);
  });

  it('lists the same files walking the tree once (no git) as with globby, for default and custom patterns and from a subdirectory (#35 item 1)', async () => {
    for (const [sources, docs, ignore] of [
      [DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, []],
      [['pkg/**/*.py', '!**/new_*.py'], ['**/*.md', '.github/**/*.md', '!docs/**/kept.md'], ['**/guide.*']],
      [['pkg'], ['docs', '!**/sub'], ['ignored/**']],
    ] as const) {
      const walked = await discoverFiles(root, [...sources], [...docs], [...ignore], 'walk');
      expect(walked).toEqual(await discoverFiles(root, [...sources], [...docs], [...ignore], 'globby'));
    }
    const sub = path.join(root, 'docs');
    // The parent folder's .gitignore applies below it, as git reads it.
    expect(await discoverFiles(sub, ['**/*.py'], ['**/*.md'], [], 'walk')).toEqual(await discoverFiles(sub, ['**/*.py'], ['**/*.md'], [], 'globby'));
  });

  it('hands back the lstat of every file it found through git, and takes a listing started earlier only for its own root', async () => {
    const lstats = new Map<string, Stats>();
    const other = startGitListing(path.join(root, 'docs'));
    const listing = startGitListing(root);
    const found = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { lstats, listing });
    expect(found).toEqual(await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git'));
    const all = [...new Set(Object.values(found).flatMap((v) => (Array.isArray(v) ? v : [])))].sort();
    expect([...lstats.keys()].sort()).toEqual(all);
    for (const [file, stat] of lstats) expect(stat.ino).toBe(lstatSync(path.join(root, file)).ino);
    // A listing of another root is not used (its paths are relative to that root).
    expect(await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { listing: other })).toEqual(found);
  });

  it('takes the lists of the last run (its memo) only for the same listing, patterns and build', async () => {
    const repo = makeRepo('memo');
    const first: DiscoveryMemo = { salt: 'build-1' };
    const found = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { memo: first });
    // What git listed and the patterns matched, before files that are not regular are dropped.
    expect(first.next?.found.docs).toEqual(expect.arrayContaining(found.docs));
    // A memo that says something else shows when it is used: same listing, patterns and salt.
    const marked = { key: first.next!.key, found: { ...first.next!.found, docs: ['README.md'] } };
    const reused: DiscoveryMemo = { salt: 'build-1', previous: marked };
    expect((await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { memo: reused })).docs).toEqual(['README.md']);
    // Another build, other patterns, or a new file in the listing: matched again.
    expect((await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { memo: { salt: 'build-2', previous: marked } })).docs).toEqual(found.docs);
    expect((await discoverFiles(repo, DEFAULT_CONFIG.sources, [...DEFAULT_CONFIG.docs, '!nothing/**'], [], 'git', { memo: { salt: 'build-1', previous: marked } })).docs).toEqual(found.docs);
    writeFileSync(path.join(repo, 'docs/new-page.md'), '# new\n');
    const again: DiscoveryMemo = { salt: 'build-1', previous: marked };
    const after = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git', { memo: again });
    expect(after.docs).toEqual([...found.docs, 'docs/new-page.md'].sort());
    expect(again.next?.key).not.toBe(marked.key);
    // The memo keeps its own copies: a caller that edits the lists it got does not change it.
    after.docs.length = 0;
    expect(again.next?.found.docs).toContain('docs/new-page.md');
  });

  it('works from a subdirectory of a work tree, with the parent .gitignore applied', async () => {
    const sub = path.join(root, 'docs');
    const viaGit = await discoverFiles(sub, ['**/*.py'], ['**/*.md'], [], 'git');
    expect(viaGit).toEqual(await discoverFiles(sub, ['**/*.py'], ['**/*.md'], [], 'globby'));
    expect(viaGit.docs).toEqual(['guide.md', 'sub/kept.md', 'versioned_docs/old.md', 'versions/v1.2/old.md']);
  });

  it('keeps globby\'s pattern meaning: directory names expand, a negation applies only to the patterns before it', async () => {
    for (const [sources, docs] of [
      [['pkg'], ['docs', '!**/sub']],
      [['**/*.py', '!pkg', '**/cli.py'], ['!**/guide.md', '**/*.md']],
    ] as const) {
      const viaGit = await discoverFiles(root, [...sources], [...docs], [], 'git');
      expect(untracking(viaGit)).toEqual(await discoverFiles(root, [...sources], [...docs], [], 'globby'));
    }
    const expanded = await discoverFiles(root, ['pkg'], ['docs', '!**/sub'], [], 'git');
    expect(expanded.sources).toEqual(['pkg/__init__.py', 'pkg/cli.py', 'pkg/config.yaml', 'pkg/conftest.py', 'pkg/new_module.py', 'pkg/secret_ok.py', 'pkg/tests/test_cli.py']);
    expect(expanded.docs).toEqual(['docs/guide.md', 'docs/page.mdx', 'docs/versioned_docs/old.md', 'docs/versions/v1.2/old.md']);
    const reincluded = await discoverFiles(root, ['**/*.py', '!pkg', '**/cli.py'], ['!**/guide.md', '**/*.md'], [], 'git');
    expect(reincluded.sources).toEqual(['pkg/cli.py']);
    expect(reincluded.docs).toContain('docs/guide.md');
  });

  it('reads a workspace package whose folder is named build/ (its own package.json and src/), but not its output', async () => {
    const repo = path.join(scratch, 'build-package');
    const files: Record<string, string> = {
      'package.json': '{"workspaces": ["incubator/*"]}\n',
      'incubator/build/package.json': '{"bin": {"rnx-build": "lib/cli.js"}}\n',
      'incubator/build/src/cli.ts': 'export {};\n',
      'incubator/build/build/cli.ts': 'output\n',
      'incubator/build/README.md': '# rnx-build\n',
      'build/generated.ts': 'output\n',
      'app/build/index.ts': 'output: no package.json here\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    const found = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
    expect(found.sources).toEqual(['incubator/build/src/cli.ts']);
    expect(found.docs).toEqual(['incubator/build/README.md']);
    expect(found.packaging).toContain('incubator/build/package.json');
  });

  it('reads folders named build/, dist/, test/ that hold a package\'s source, by evidence, not by name (issue #30)', async () => {
    const repo = path.join(scratch, 'ambiguous');
    const files: Record<string, string> = {
      'mypkg/__init__.py': '',
      'mypkg/cli.py': 'from mypkg.build.options import add_build_args\nfrom .commands import test as test_command\n',
      // A subpackage named build: read whole.
      'mypkg/build/__init__.py': '',
      'mypkg/build/options.py': 'def add_build_args(p): ...\n',
      'mypkg/commands/__init__.py': 'from .test.run import add_test_args\n',
      // A sub-command package named test: the modules the package imports are read, not its tests.
      'mypkg/commands/test/__init__.py': '',
      // Two `from` lines in a row: both read (the first one's names once ran into the second line).
      'mypkg/commands/test/run.py': 'from .shared import X\nfrom .options import Y\n',
      'mypkg/commands/test/shared.py': 'X = 1\n',
      'mypkg/commands/test/options.py': 'Y = 1\n',
      'mypkg/commands/test/helpers.py': 'unused\n',
      'mypkg/commands/test/test_run.py': 'a test\n',
      // Tests inside the package that nothing imports: skipped.
      'mypkg/tests/__init__.py': '',
      'mypkg/tests/helpers.py': 'fixtures\n',
      // setuptools output, a virtual environment, tsc output: skipped.
      'build/lib/mypkg/__init__.py': '',
      'build/lib/mypkg/cli.py': 'copy\n',
      '.venv/lib/python3.12/site-packages/x/__init__.py': '',
      'web/dist/cli.d.ts': 'export {};\n',
      'web/src/vendor/dist/types.d.ts': 'export {};\n',
      // TypeScript under a source root: src/commands/build/ is source, src/test/ only when imported.
      'web/src/cli.ts': "import { build } from './commands/build/index.js';\n",
      'web/src/commands/build/index.ts': 'export const build = 1;\n',
      'web/src/test/suite.ts': 'tests\n',
      'web/test/cli.spec.ts': 'tests\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '-Af');
    const viaGit = await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git');
    expect(viaGit.sources).toEqual([
      'mypkg/__init__.py',
      'mypkg/build/__init__.py',
      'mypkg/build/options.py',
      'mypkg/cli.py',
      'mypkg/commands/__init__.py',
      'mypkg/commands/test/__init__.py',
      'mypkg/commands/test/options.py',
      'mypkg/commands/test/run.py',
      'mypkg/commands/test/shared.py',
      'web/src/cli.ts',
      'web/src/commands/build/index.ts',
    ]);
    expect(await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'globby')).toEqual(viaGit);
    // The user's sources win over the built-in skips, both ways.
    const asked = await discoverFiles(repo, ['build/lib/**/*.py'], ['**/*.md'], [], 'git');
    expect(asked.sources).toEqual(['build/lib/mypkg/__init__.py', 'build/lib/mypkg/cli.py']);
    expect(await discoverFiles(repo, ['build/lib/**/*.py'], ['**/*.md'], [], 'globby')).toEqual(asked);
    const strict = await discoverFiles(repo, ['**/*.py', '!**/test/**'], ['**/*.md'], [], 'git');
    expect(strict.sources.filter((f) => f.includes('/test/'))).toEqual([]);
  });

  it('lists the Markdown extensions GitHub renders besides .md by default (s46 sweep H9: README.markdown was not read, exit 0)', async () => {
    const repo = path.join(scratch, 'markdown-extensions');
    const files = ['README.markdown', 'docs/a.MD', 'docs/b.mdown', 'docs/c.mkd', 'docs/d.mkdn', 'docs/e.Markdown', 'docs/f.md', 'docs/g.mdtext', 'docs/h.txt'];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), '# x\n');
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    const expected = ['README.markdown', 'docs/a.MD', 'docs/b.mdown', 'docs/c.mkd', 'docs/d.mkdn', 'docs/e.Markdown', 'docs/f.md'];
    expect((await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'git')).docs).toEqual(expected);
    expect((await discoverFiles(repo, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, [], 'globby')).docs).toEqual(expected);
  });

  it('falls back to globby outside a work tree', async () => {
    const plain = path.join(scratch, 'plain');
    mkdirSync(path.join(plain, 'docs'), { recursive: true });
    writeFileSync(path.join(plain, 'docs/a.md'), '# a\n');
    writeFileSync(path.join(plain, '.gitignore'), 'docs/b.md\n');
    writeFileSync(path.join(plain, 'docs/b.md'), '# b\n');
    await expect(discoverFiles(plain, ['**/*.py'], ['**/*.md'], [], 'git')).rejects.toThrow(/git cannot list/);
    expect((await discoverFiles(plain, ['**/*.py'], ['**/*.md'], [])).docs).toEqual(['docs/a.md']);
  });

  it('falls back to globby when the repository has submodules', async () => {
    const withModules = makeRepo('modules');
    writeFileSync(path.join(withModules, '.gitmodules'), '[submodule "x"]\n\tpath = x\n\turl = ../x\n');
    await expect(discoverFiles(withModules, ['**/*.py'], ['**/*.md'], [], 'git')).rejects.toThrow(/git cannot list/);
  });
});

describe('the glob walk and folders whose names are not valid UTF-8 (s31 sweep D7, left)', () => {
  it('names such a folder only when it holds a file the walk could match (listed by its bytes), nested or not, ignores aside', async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'docdrift-undecodable-'));
    try {
      /** Makes `dir` (segments joined with `/`, each a string or bytes) and writes `file` in it. */
      const make = (segments: Array<string | number[]>, file: string): void => {
        const dir = Buffer.concat([Buffer.from(repo), ...segments.flatMap((s) => [Buffer.from(path.sep), typeof s === 'string' ? Buffer.from(s) : Buffer.from(s)])]);
        mkdirSync(dir, { recursive: true });
        writeFileSync(Buffer.concat([dir, Buffer.from(path.sep + file)]), '# x\n');
      };
      make(['docs', [0x61, 0xff], 'deep', [0x62, 0xfe]], 'x.md'); // docs/a\uFFFD: a matching page two folders down
      make(['docs', [0x69, 0xff]], 'pic.png'); // docs/i\uFFFD: nothing a pattern matches
      make(['docs', [0x73, 0xff]], 'x.md'); // docs/s\uFFFD: matching, but ignored
      make(['tool', [0x70, 0xff]], 'm.py'); // tool/p\uFFFD: a source
      make(['data', [0x62, 0xff]], 'blob.bin'); // data/b\uFFFD: nothing
      // `./` in a pattern makes discovery take the glob walk.
      const found = await discoverFiles(repo, ['./**/*.py'], ['./docs/**/*.md'], ['docs/s*/**'], 'globby');
      expect(found.undecodableFolders).toEqual(['docs/a\uFFFD', 'tool/p\uFFFD']);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
