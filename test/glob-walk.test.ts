import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globbySync } from 'globby';
import { afterAll, describe, expect, it } from 'vitest';
import { globBudget, GlobWorkError, literalEnding, walkGlobs, withoutLookarounds } from '../src/shared/glob-walk.js';

const root = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'glob-walk-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('walkGlobs', () => {
  // Parity with the globby walk it replaces (one globbySync per alternative, dot: false, no links).
  const patterns = ['*.md', '**/*.md', 'docs/**/*.md', 'fixtures/*/expected.json', 'src/*/*.ts', 'src/**/*glob*', '**/*a*b*c*', 'test/**/*.test.ts', '**/README.md', '**/.gitkeep', '.changeset/*.md', 'src/**/+(cli|glob)*.ts', 'src/[a-f]*/*.ts', 'fixtures/**/tool/?li.py'];
  for (const pattern of patterns) {
    it(`matches what globby matched: ${pattern}`, () => {
      // node_modules and .git at any depth are left out of both sides the same way: a checkout that
      // ran `npm run vsix` has editors/vscode/node_modules, whose READMEs globby's top-level ignore kept.
      const old = globbySync(pattern, { cwd: root, absolute: true, dot: false, onlyFiles: true, gitignore: false, followSymbolicLinks: false, ignore: ['**/node_modules/**', '**/.git/**'] }).map((m) => path.resolve(m)).sort();
      const now = walkGlobs(root, [pattern], globBudget()).filter((m) => !/(?:^|[/\\])(?:node_modules|\.git)[/\\]/.test(path.relative(root, m))).sort();
      expect(now).toEqual(old);
    });
  }

  it('walks a base once for many alternatives and skips links', () => {
    mkdirSync(path.join(tmp, 'a/b'), { recursive: true });
    writeFileSync(path.join(tmp, 'a/x1.md'), '');
    writeFileSync(path.join(tmp, 'a/b/x7.md'), '');
    writeFileSync(path.join(tmp, 'a/b/y7.md'), '');
    symlinkSync(path.join(tmp, 'a/x1.md'), path.join(tmp, 'a/b/x2.md'));
    const globs = Array.from({ length: 999 }, (_, i) => `**/x${i + 1}.md`);
    const budget = globBudget();
    expect(walkGlobs(tmp, globs, budget).map((m) => path.relative(tmp, m)).sort()).toEqual(['a/b/x7.md', 'a/x1.md']);
    expect(budget.entries).toBe(6);
    expect(walkGlobs(path.join(tmp, 'missing'), ['*.md'], budget)).toEqual([]);
  });

  it('refuses past the total of characters tried', () => {
    mkdirSync(path.join(tmp, 'n'), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(path.join(tmp, 'n', `${i}${'a'.repeat(200)}.md`), '');
    const budget = { entries: 0, chars: 29_999_000 };
    expect(() => walkGlobs(path.join(tmp, 'n'), ['*a*a*.md'], budget)).toThrow(GlobWorkError);
  });
});

describe('glob helpers', () => {
  it('literalEnding', () => {
    expect(literalEnding('**/x1.md')).toBe('x1.md');
    expect(literalEnding('*.md')).toBe('.md');
    expect(literalEnding('docs/**')).toBe('');
    expect(literalEnding('a\\*b')).toBe('b');
    expect(literalEnding('+(a|b)')).toBe('');
  });
  it('withoutLookarounds keeps classes and escapes', () => {
    expect(withoutLookarounds('^(?:(?!\\.)(?=.)[^/]*?a)$')).toBe('^(?:[^/]*?a)$');
    expect(withoutLookarounds('^(?:(?:(?!(?:^|\\/)\\.).)*?)x[(?!]\\(?!$')).toBe('^(?:(?:.)*?)x[(?!]\\(?!$');
  });
});
