import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverFiles, lineBreakFolderNote } from '../src/engine/discover.js';
import { globBudget, globTest, walkGlobs } from '../src/shared/glob-walk.js';
import { hasLineTerminator, pathMatcher, pathRegExp } from '../src/shared/path-match.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'path-match-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Folder names holding each character JavaScript's `.` skips without the `s` flag, and U+0085 (which it matches). */
const BREAKS = ['n\nl', 'c\rr', 'u\u2028x', 'p\u2029q', 'e\u0085l'];

describe('pathMatcher', () => {
  it('matches paths under folders whose names hold a line terminator (s30 sweep2 D2)', () => {
    for (const dot of [false, true]) {
      const isDoc = pathMatcher(['docs/**/*.md', '!docs/drafts/**'], { dot });
      for (const folder of BREAKS) {
        expect(isDoc(`docs/${folder}/r.md`), JSON.stringify(folder)).toBe(true);
        expect(isDoc(`docs/${folder}/${folder}/r.md`), JSON.stringify(folder)).toBe(true);
        expect(pathMatcher(`**/${folder}/**`, { dot })(`a/${folder}/b/c.py`)).toBe(true);
        expect(pathMatcher('docs/*/r.md', { dot })(`docs/${folder}/r.md`)).toBe(true);
        expect(pathMatcher('docs/?????/r.md', { dot })(`docs/${folder}x/r.md`)).toBe(folder.length === 3 ? false : true);
      }
    }
    // The plain picomatch it replaces missed them (LF, CR, U+2028, U+2029).
    const old = picomatch('docs/**/*.md', { dot: true });
    expect(BREAKS.map((f) => old(`docs/${f}/r.md`))).toEqual([false, false, false, false, true]);
  });

  it('gives picomatch\'s answers on paths without a line terminator', () => {
    const globs = ['docs/**/*.md', '**/*.{md,mdx}', '*.md', 'src/**', '**/node_modules/**', '**/.*/**', 'docs/[a-f]*/*.rst', 'tool/?li.py', '**/+(cli|main).py', 'README*', '**/*a*b*c*', 'a/**/b/**/c.md'];
    const paths = ['README.md', 'docs/index.md', 'docs/a/b/c.mdx', 'docs/.hidden/x.md', '.github/x.md', 'src/a.ts', 'src/x/.y/z.ts', 'node_modules/p/README.md', 'a/node_modules/b.js', 'docs/beta/x.rst', 'docs/zeta/x.rst', 'tool/cli.py', 'tool/main.py', 'pkg/cli.py', 'xaybzc.txt', 'a/b/c.md', 'a/x/b/y/c.md', 'DOCS/INDEX.MD', ''];
    for (const glob of globs) {
      for (const dot of [false, true]) {
        for (const nocase of [false, true]) {
          const old = picomatch(glob, { dot, nocase });
          const now = pathMatcher(glob, { dot, nocase });
          for (const p of paths) expect(now(p), `${glob} ${p} dot=${dot} nocase=${nocase}`).toBe(old(p));
        }
      }
    }
  });

  it('gives picomatch\'s answers behind its pre-filters, on a table of real-shaped globs and paths (#33 F2)', () => {
    const globs = [
      'docs/**/*.md', '**/CHANGELOG.md', '{a,b}/**', '!x', '!docs/drafts/**', '*.md', 'README*', '**/*.{md,mdx}', 'docs/[a-f]*/*.rst',
      'docs/[!a-f]*.md', 'tool/?li.py', '**/+(cli|main).py', '**/@(a|b)c.md', '**/*a*b*c*', '**/*a*a*aq0', 'docs/**/*a*a*aq7.md', '**/*a*b*[c]',
      '**/*x*y*z.md', 'a/**/b/**/c.md', './README.md', '**/.env', '**/.env.*', '**/"q".md', 'docs/\\*.md', '[x]', 'x/[ab].md', 'docs/', 'docs/**',
      '**/node_modules/**', 'src/**/*.ts', '**/*.test.ts', 'a.b', '**/x$.md', '**/^x.md', 'q,r.md', '**/*.[jt]s', '**/[[:alpha:]]*.md', '*/*/*.md', '**',
    ];
    const paths = [
      'README.md', 'README', 'docs/index.md', 'docs/a/b/c.mdx', 'docs/.hidden/x.md', '.github/x.md', 'a/x', 'b/y/z.md', 'x', 'x/y', 'docs/drafts/a.md',
      'docs/beta/x.rst', 'docs/zeta.md', 'tool/cli.py', 'pkg/cli.py', 'pkg/main.py', 'xac.md', 'bc.md', 'xaybzc.txt', 'xaybzc', 'aaaaq0', 'a/aaaq0', 'a/aaaq10',
      'docs/x/aaaaq7.md', 'docs/x/aaaaq17.md', 'xxaybc', 'xaybzd', 'p/xqyqz.md', 'a/b/c.md', 'a/x/b/y/c.md', '.env', 'app/.env', 'app/.env.local', 'q.md',
      'a/q.md', 'a/"q".md', 'docs/*.md', 'docs/a.md', '[x]', 'x/a.md', 'x/c.md', 'docs', 'docs/a/b', 'n/node_modules/p.js', 'src/a/b.ts', 'src/x.test.ts',
      'a.b', 'axb', 'z/x$.md', 'z/^x.md', 'q,r.md', 'lib/a.js', 'lib/a.ts', 'lib/a.cs', 'docs/x.md/', 'CHANGELOG.md', 'pkg/CHANGELOG.md', 'pkg/CHANGELOG.mdx', '',
    ];
    let compared = 0;
    for (const dot of [false, true]) {
      for (const nocase of [false, true]) {
        const all = pathMatcher(globs, { dot, nocase });
        const old = picomatch(globs, { dot, nocase });
        for (const glob of globs) {
          const was = picomatch(glob, { dot, nocase });
          const now = pathMatcher(glob, { dot, nocase });
          for (const p of [...paths, glob]) {
            expect(now(p), `${glob} ${p} dot=${dot} nocase=${nocase}`).toBe(was(p));
            compared++;
          }
        }
        for (const p of paths) expect(all(p), `${p} dot=${dot} nocase=${nocase}`).toBe(old(p));
      }
    }
    expect(compared).toBeGreaterThan(9000);
  });

  it('rejects in linear time the long names 1,000 globs of three wildcards cannot match (#33 F2)', () => {
    const names = Array.from({ length: 300 }, (_, i) => `${'a'.repeat(150 + (i % 95))}${i}`);
    const ignore = pathMatcher(Array.from({ length: 1000 }, (_, i) => `**/*a*a*aq${i}`), { dot: true });
    const docs = pathMatcher(Array.from({ length: 1000 }, (_, i) => `docs/**/*a*a*aq${i}.md`));
    // No literal ending: the linear superset rejects them (picomatch alone: ~245³ steps a name).
    const classes = pathMatcher(Array.from({ length: 200 }, (_, i) => `**/*a*a*[q]${i % 10 === 0 ? '' : '?'}`), { dot: true });
    const start = performance.now();
    for (const name of names) {
      expect(ignore(`docs/x/${name}`)).toBe(false);
      expect(docs(`docs/x/${name}.md`)).toBe(false);
      expect(classes(`docs/x/${name}`)).toBe(false);
    }
    expect(ignore('docs/x/aaaq999')).toBe(true);
    expect(docs('docs/x/y/aaaaq3.md')).toBe(true);
    expect(classes('docs/x/aaaq')).toBe(true);
    // 20 of the ignore globs alone took 5.6 s through picomatch.
    expect(performance.now() - start).toBeLessThan(4000);
  });

  it('builds its expressions with the s flag (is with nocase)', () => {
    expect(pathRegExp('docs/**/*.md').flags).toBe('s');
    expect(pathRegExp('docs/**/*.md', { nocase: true }).flags).toBe('is');
    expect(pathRegExp('docs/**/*.md', { nocase: true }).test('DOCS/N\nL/R.MD')).toBe(true);
    expect(pathRegExp('docs/**/*.md').source).toBe(picomatch.makeRe('docs/**/*.md').source);
  });

  it('hasLineTerminator', () => {
    expect(BREAKS.map(hasLineTerminator)).toEqual([true, true, true, true, false]);
    expect(hasLineTerminator('docs/a b\t/c.md')).toBe(false);
  });

  it('is the only place src compiles a picomatch matcher', () => {
    const src = path.resolve(import.meta.dirname, '../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== path.join('shared', 'path-match.ts'));
    const offenders = files.filter((f) => /\bpicomatch(?:\.makeRe|\.isMatch|\.matchBase|\.compileRe)?\(|\bmicromatch\b|\bminimatch\b/.test(readFileSync(path.join(src, f), 'utf8').replace(/^\s*(?:\/\/|\*).*$/gm, '')));
    expect(offenders).toEqual([]);
  });
});

describe('globTest and walkGlobs under line-break folders', () => {
  it('match what pathMatcher matches, through the linear superset too', () => {
    for (const folder of BREAKS) {
      expect(globTest('docs/**/*.md')(`docs/${folder}/r.md`)).toBe(true);
      expect(globTest('**/*a*b*c*.md')(`${folder}/xaybzc.md`)).toBe(true); // degree 4: the RE2 superset runs first
    }
    const base = path.join(tmp, 'walk');
    for (const folder of BREAKS) {
      mkdirSync(path.join(base, 'docs', folder), { recursive: true });
      writeFileSync(path.join(base, 'docs', folder, 'r.md'), '# r\n');
    }
    const found = walkGlobs(base, ['docs/**/*.md'], globBudget()).map((f) => path.relative(base, f).split(path.sep).join('/')).sort();
    expect(found).toEqual(BREAKS.map((f) => `docs/${f}/r.md`).sort());
  });
});

describe('discoverFiles under line-break folders', () => {
  const root = path.join(tmp, 'project');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docs/index.md'), '# i\n');
  for (const folder of BREAKS) {
    mkdirSync(path.join(root, 'docs', folder), { recursive: true });
    writeFileSync(path.join(root, 'docs', folder, 'r.md'), '# r\n');
  }
  const all = ['docs/index.md', ...BREAKS.map((f) => `docs/${f}/r.md`)].sort();

  it('the walk lists every document', async () => {
    const found = await discoverFiles(root, ['**/*.py'], ['docs/**/*.md'], [], 'walk');
    expect(found.docs).toEqual(all);
    expect(found.notes).toBeUndefined();
  });

  it('git\'s listing gives the same documents', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    const found = await discoverFiles(root, ['**/*.py'], ['docs/**/*.md'], [], 'git');
    expect(found.docs).toEqual(all);
    rmSync(path.join(root, '.git'), { recursive: true, force: true });
  });

  it('the globby walk, which cannot match below them, names each such folder in one note', async () => {
    const found = await discoverFiles(root, ['**/*.py'], ['docs/**/*.md'], [], 'globby');
    // globby's micromatch matches U+0085 (a `.` matches it) but not the other four.
    expect(found.docs).toEqual(['docs/e\u0085l/r.md', 'docs/index.md']);
    expect(found.notes).toEqual([lineBreakFolderNote(['docs/c\rr', 'docs/n\nl', 'docs/p\u2029q', 'docs/u\u2028x'])]);
    expect(found.notes![0]).toContain('4 folders whose name holds a line break ("docs/c\\rr", "docs/n\\nl", "docs/p\u2029q", "docs/u\u2028x")'); // U+2028/U+2029 stay raw here: stderr escapes them
  });

  it('lineBreakFolderNote names ten and counts the rest', () => {
    const note = lineBreakFolderNote(Array.from({ length: 12 }, (_, i) => `d${i}\n`));
    expect(note).toContain('12 folders');
    expect(note).toContain('"d9\\n" and 2 more)');
    expect(lineBreakFolderNote(['a\nb'])).toMatch(/^a folder whose name holds a line break \("a\\nb"\)/);
  });
});
