/**
 * Discovery without git (#35 item 1): the one directory walk lists what `git ls-files` lists in a
 * fresh repository of the same tree (no file tracked, so git's answer is its `.gitignore` rules
 * alone), on every fixture project and on a tree of nested `.gitignore` files; and
 * `compileGitignore` answers as one `ignore` instance of the whole file does.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import createIgnore from 'ignore';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import { compileGitignore, discoverFiles, DiscoveryLimitError, MAX_GITIGNORE_RULES, MAX_GITIGNORE_WORK } from '../src/engine/discover.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'docdrift-walk-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
/** Files that make a folder a project: packaging files and docdrift configs. */
const MARKERS = new Set(['pyproject.toml', 'setup.py', 'setup.cfg', 'package.json', 'docdrift.config.json', 'docdrift.config.yaml', '.docdriftrc.json', '.docdriftrc.yaml']);

/** The outermost folders under `dir` holding a {@link MARKERS} file. */
function projects(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && MARKERS.has(e.name))) return [dir];
  return entries.filter((e) => e.isDirectory() && e.name !== 'node_modules').flatMap((e) => projects(path.join(dir, e.name)));
}

/** Patterns that list nearly every file (dot files and folders too), so the lists compare the listings themselves. */
const EVERYTHING = { sources: ['**/*.py', '**/*.ts', '**/*.js'], docs: ['**/*', '**/.*', '.*/**', '**/.*/**'] };

/** The walk's lists and git's for `root`, with the default patterns and with {@link EVERYTHING}. */
async function bothWays(root: string): Promise<{ walked: unknown[]; listed: unknown[] }> {
  const sets = [[DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs], [EVERYTHING.sources, EVERYTHING.docs]] as const;
  const walked: unknown[] = [];
  const listed: unknown[] = [];
  for (const [sources, docs] of sets) {
    walked.push(await discoverFiles(root, [...sources], [...docs], [], 'walk'));
    listed.push(await discoverFiles(root, [...sources], [...docs], [], 'git'));
  }
  return { walked, listed };
}

/** A copy of `dir` in a fresh git repository (nothing tracked): git's list is what its .gitignore files leave. */
function gitCopy(dir: string, name: string): string {
  const copy = path.join(scratch, name);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  execFileSync('git', ['init', '-q'], { cwd: copy, stdio: 'ignore' });
  return copy;
}

describe('discovery without git', () => {
  it('lists what git lists on every fixture project', async () => {
    // One repository holding a copy of fixtures/, each project discovered from its own folder:
    // git lists that folder, the walk finds the .git above it (one `git init`, not 460).
    const copy = gitCopy(FIXTURES, 'fixtures');
    const found = projects(copy);
    expect(found.length).toBeGreaterThan(100);
    for (const project of found) {
      const walked = await discoverFiles(project, EVERYTHING.sources, EVERYTHING.docs, [], 'walk');
      expect(walked, path.relative(copy, project)).toEqual(await discoverFiles(project, EVERYTHING.sources, EVERYTHING.docs, [], 'git'));
    }
  }, 120_000);

  it('lists what git lists with nested .gitignore files, negations, folder and anchored patterns, and a .gitignore in an ignored folder', async () => {
    const files: Record<string, string> = {
      '.gitignore': '# top\n*.log.md\n/docs/gen\ngen-out/\nvendor/\nsecret*.md\n!secret-ok.md\ndocs/**/draft-*.md\nREADME.md   \n',
      'README.md': 'ignored: trailing blanks are dropped\n',
      'guide.md': 'kept\n',
      'run.log.md': 'ignored by name\n',
      'secret-key.md': 'ignored\n',
      'secret-ok.md': 're-included by a negation\n',
      'docs/.gitignore': '!keep.log.md\nlocal/\n*.tmp.md\n/anchored.md\n',
      'docs/keep.log.md': 're-included by the deeper .gitignore\n',
      'docs/other.log.md': 'ignored by the root .gitignore\n',
      'docs/a.tmp.md': 'ignored\n',
      'docs/anchored.md': 'ignored: anchored to docs/\n',
      'docs/gen/x.md': 'ignored: /docs/gen is anchored to the root\n',
      'docs/local/x.md': 'ignored folder\n',
      'docs/draft-1.md': 'ignored: ** matches no folder too\n',
      'docs/sub/draft-2.md': 'ignored\n',
      'docs/sub/.gitignore': '!*.tmp.md\n',
      'docs/sub/b.tmp.md': 're-included deeper\n',
      'docs/sub/anchored.md': 'kept: /anchored.md is docs/anchored.md only\n',
      'docs/sub/README.md': 'ignored by name at any depth\n',
      'notes/.gitignore': '*.md\n!keep.md\n',
      'notes/keep.md': 're-included\n',
      'notes/drop.md': 'ignored\n',
      'pkg/docs/gen/y.md': 'kept: not the anchored docs/gen\n',
      'pkg/gen-out': 'a file, which a folder pattern does not match\n',
      'pkg/gen-out.md': 'kept\n',
      'gen-out/a.md': 'ignored folder\n',
      'pkg/gen-out-dir/gen-out/b.md': 'ignored folder at depth\n',
      'vendor/.gitignore': '!*\n!*/\n',
      'vendor/a.md': 'ignored: a .gitignore inside an ignored folder is not read\n',
      'vendor/deep/b.md': 'ignored\n',
      'build/x.md': 'a built-in skip\n',
      'app/cli.py': 'import argparse\n',
      'app/.gitignore': '__pycache__/\n*.pyc\n/generated.py\n',
      'app/generated.py': 'ignored\n',
      'app/sub/generated.py': 'kept\n',
    };
    const tree = path.join(scratch, 'tree');
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), text);
    }
    const plain = path.join(scratch, 'tree-plain');
    cpSync(tree, plain, { recursive: true });
    const { walked, listed } = await bothWays(gitCopy(tree, 'tree-git'));
    expect(walked).toEqual(listed);
    // Without .git (auto finds no work tree and walks), the same lists.
    const docs = (await discoverFiles(plain, EVERYTHING.sources, EVERYTHING.docs, [])).docs;
    expect(docs).toEqual((listed[1] as { docs: string[] }).docs);
    expect(docs.filter((f) => f.endsWith('.md'))).toEqual([
      'docs/keep.log.md',
      'docs/sub/anchored.md',
      'docs/sub/b.tmp.md',
      'guide.md',
      'notes/keep.md',
      'pkg/docs/gen/y.md',
      'pkg/gen-out.md',
      'secret-ok.md',
    ]);
    expect(docs).toContain('pkg/gen-out');
    expect(docs).toContain('app/sub/generated.py');
    expect(docs).not.toContain('app/generated.py');
  });
});

describe('compileGitignore', () => {
  // Real-shaped rules: a Python template, NeMo Gym's data rules, path rules and negations.
  const text = [
    '# Byte-compiled', '__pycache__/', '*.py[cod]', '*$py.class', '.Python', 'build/', 'develop-eggs/', 'dist/', '*.egg-info/', '.eggs/',
    '*.jsonl', '!example.jsonl', '*validation.jsonl', '*train_prepare.jsonl', 'data/*.csv', '!data/keep.csv', '/site', 'tests/data',
    'examples/*/outputs', '**/.claude_node/', '.env', '.venv', 'env/', '!env/README.md', 'results/', '*.log', '!important.log', 'docs/_build/',
    'resources_servers/cvdp/data/big.jsonl', 'Cache', '\\#notacomment', ' leading-blank', 'trailing   ',
  ].join('\n');
  const whole = createIgnore().add(text);
  const compiled = compileGitignore(text);
  const names = ['a.py', 'a.pyc', 'example.jsonl', 'x_validation.jsonl', 'data', 'site', 'build', 'env', 'README.md', 'keep.csv', 'b.csv', 'important.log', 'c.log', '.env', 'outputs', '.claude_node', 'cache', 'Cache', '#notacomment', ' leading-blank', 'trailing', 'big.jsonl', 'results', '_build'];
  const folders = ['', 'tests', 'examples/one', 'resources_servers/cvdp/data', 'docs', 'pkg/sub', 'env', 'data'];

  it('gives the verdict one ignore instance of the whole file gives, for files and folders in folders the walk enters', () => {
    let asked = 0;
    for (const folder of folders) {
      // The walk asks only about paths whose folders it entered (none of them ignored).
      const parts = folder === '' ? [] : folder.split('/');
      if (parts.some((_, i) => whole.ignores(`${parts.slice(0, i + 1).join('/')}/`))) continue;
      for (const name of names) {
        for (const dir of [false, true]) {
          const local = folder === '' ? name : `${folder}/${name}`;
          const verdict = whole.test(dir ? `${local}/` : local);
          expect(compiled(local, dir), `${local}${dir ? '/' : ''}`).toBe(verdict.ignored ? 1 : verdict.unignored ? -1 : 0);
          asked++;
        }
      }
    }
    expect(asked).toBeGreaterThan(200);
  });

  it('memoises name rules per name, not per path: the same name in another folder gets the same verdict', () => {
    const only = compileGitignore('*.jsonl\n!keep.jsonl\n');
    expect(only('a/b/x.jsonl', false)).toBe(1);
    expect(only('c/x.jsonl', false)).toBe(1);
    expect(only('c/keep.jsonl', false)).toBe(-1);
    expect(only('c/x.md', false)).toBe(0);
  });
});

describe('the walk bounds its .gitignore matching (s43 sweep F1)', () => {
  it(`refuses more than ${MAX_GITIGNORE_RULES.toLocaleString('en-US')} rules before compiling them, naming the file`, async () => {
    const root = path.join(scratch, 'many-rules');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    writeFileSync(path.join(root, '.gitignore'), Array.from({ length: MAX_GITIGNORE_RULES - 10 }, (_, i) => `*q${i}*z${i}*`).join('\n'));
    writeFileSync(path.join(root, 'sub/.gitignore'), '# comment\n\n' + Array.from({ length: 20 }, (_, i) => `x${i}`).join('\n'));
    writeFileSync(path.join(root, 'sub/a.md'), '# a\n');
    const found = discoverFiles(root, ['**/*.py'], ['**/*.md'], [], 'walk');
    await expect(found).rejects.toBeInstanceOf(DiscoveryLimitError);
    await expect(found).rejects.toThrow(`sub/.gitignore has 20 rules (${(MAX_GITIGNORE_RULES + 10).toLocaleString('en-US')} read so far)`);
  });

  it('counts the rule tests weighted by the path length, a name already answered costing nothing', () => {
    const work = { units: 0 };
    const match = compileGitignore('*.log\n*.tmp\ndocs/_build/\n# c\n', work);
    match('a/b.py', false); // the path rule (6 characters), then the two name rules on `b.py` (4)
    expect(work.units).toBe(6 + 2 * 4);
    match('c/b.py', false); // `b.py` answered: the path rule only
    expect(work.units).toBe(6 + 2 * 4 + 6);
    expect(MAX_GITIGNORE_WORK).toBeGreaterThan(100_000_000);
  });
});
