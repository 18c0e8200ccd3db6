/** The same finding on copies of a page (translations, versions, mirrored folders) is reported once (issue #29). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from './helpers.js';
import { areCopies, copyKey, copyPath, foldCopies } from '../src/engine/copies.js';
import { createMessage } from '../src/engine/run-rules.js';
import { compareStrings } from '../src/shared/strings.js';
import type { DriftMessage, Rule } from '../src/model/rule.js';

const rule: Pick<Rule, 'meta'> = {
  meta: { id: 'example-param-unknown', description: 'x', defaultSeverity: 'error', fixable: false, options: {}, messages: { unknown: '`{{name}}` is not a parameter of `{{command}}`.' } },
};

function finding(file: string, line: number, name = 'warmup', command = 'tool'): DriftMessage {
  return createMessage(rule, 'error', { messageId: 'unknown', data: { name, command }, location: { file, line, column: 1 } });
}

describe('areCopies', () => {
  it.each([
    ['docs/cli.md', 'docs/zh/cli.md'],
    ['docs/en/cli.md', 'docs/zh-CN/cli.md'],
    ['docs/cli.md', 'docs/v1.2/cli.md'],
    ['website/docs/cli.md', 'website/versioned_docs/version-2.x/cli.md'],
    ['website/docs/cli.md', 'website/i18n/ja/docusaurus-plugin-content-docs/current/cli.md'],
    ['README.md', 'README.zh-CN.md'],
    ['README.md', 'README_ja.md'],
    ['.claude/skills/deploy/SKILL.md', '.agents/skills/deploy/SKILL.md'],
  ])('%s and %s are copies', (a, b) => {
    expect(areCopies(a, b)).toBe(true);
    expect(areCopies(b, a)).toBe(true);
  });

  it.each([
    ['README.md', 'benchmarks/gpqa/README.md'],
    ['benchmarks/aime24/README.md', 'benchmarks/gpqa/README.md'],
    ['packages/a/docs/cli.md', 'packages/b/docs/cli.md'],
    ['docs/cli.md', 'docs/usage.md'],
    ['docs/cli.md', 'docs/cli.md'],
  ])('%s and %s are not', (a, b) => {
    expect(areCopies(a, b)).toBe(false);
  });

  it('counts the folders that mark a copy, so the original is the one with fewest', () => {
    expect(copyPath('docs/cli.md')).toEqual({ segments: ['docs', 'cli.md'], markers: 0 });
    expect(copyPath('docs/zh/cli.md')).toEqual({ segments: ['docs', 'cli.md'], markers: 1 });
    expect(copyPath('README.zh-CN.md')).toEqual({ segments: ['README.md'], markers: 1 });
  });
});

describe('foldCopies', () => {
  it('reports the same finding on N copies once, on the original, the copies in related', () => {
    const ms = [finding('docs/ja/cli.md', 12), finding('docs/cli.md', 10), finding('docs/zh/cli.md', 14)];
    const out = foldCopies(ms);
    expect(out).toHaveLength(1);
    expect(out[0]!.file).toBe('docs/cli.md');
    expect(out[0]!.related.map((r) => [r.file, r.line, r.message])).toEqual([
      ['docs/ja/cli.md', 12, 'the same in the copy docs/ja/cli.md'],
      ['docs/zh/cli.md', 14, 'the same in the copy docs/zh/cli.md'],
    ]);
    // The input messages are not changed.
    expect(ms[1]!.related).toEqual([]);
  });

  it('keeps per-copy findings when the copies disagree', () => {
    // Only the translation still has the old flag, and the copies suggest different things.
    const ms = [finding('docs/cli.md', 10, 'warmup'), finding('docs/zh/cli.md', 10, 'warmup'), finding('docs/zh/cli.md', 20, 'seed')];
    const out = foldCopies(ms);
    expect(out.map((m) => [m.file, m.line, m.data.name])).toEqual([
      ['docs/cli.md', 10, 'warmup'],
      ['docs/zh/cli.md', 20, 'seed'],
    ]);
  });

  it('pairs repeated findings by position and keeps a copy\'s extra ones', () => {
    const ms = [finding('docs/cli.md', 10), finding('docs/cli.md', 30), finding('docs/zh/cli.md', 11), finding('docs/zh/cli.md', 31), finding('docs/zh/cli.md', 50)];
    const out = foldCopies(ms);
    expect(out.map((m) => [m.file, m.line, m.related.map((r) => r.line)])).toEqual([
      ['docs/cli.md', 10, [11]],
      ['docs/cli.md', 30, [31]],
      ['docs/zh/cli.md', 50, []],
    ]);
  });

  it('keeps the same finding in the READMEs of different folders', () => {
    const ms = [finding('README.md', 5), finding('benchmarks/gpqa/README.md', 10), finding('benchmarks/aime24/README.md', 10)];
    expect(foldCopies(ms)).toHaveLength(3);
  });
});

/**
 * The pairwise folding foldCopies did before it grouped files by copy key (#33 sweep 23, D7):
 * every file of a group compared with every other one. Kept here to check the grouping is the same.
 */
function foldPairwise(messages: readonly DriftMessage[]): Array<[string, number, string[]]> {
  const groups = new Map<string, Map<string, DriftMessage[]>>();
  for (const m of messages) {
    const key = JSON.stringify([m.ruleId, m.data.name, m.data.command]);
    let files = groups.get(key);
    if (!files) groups.set(key, (files = new Map()));
    let list = files.get(m.file as string);
    if (!list) files.set(m.file as string, (list = []));
    list.push(m);
  }
  const first = (a: string, b: string) => copyPath(a).markers - copyPath(b).markers || a.split('/').length - b.split('/').length || compareStrings(a, b);
  const pos = (a: DriftMessage, b: DriftMessage) => (a.line ?? 0) - (b.line ?? 0);
  const dropped = new Set<DriftMessage>();
  const related = new Map<DriftMessage, string[]>();
  for (const files of groups.values()) {
    const names = [...files.keys()].sort(first);
    const joined = new Set<string>();
    for (const original of names) {
      if (joined.has(original)) continue;
      const copies = names.filter((f) => f !== original && !joined.has(f) && areCopies(original, f));
      for (const f of copies) joined.add(f);
      [...files.get(original)!].sort(pos).forEach((m, i) => {
        const folded = copies.map((f) => [...files.get(f)!].sort(pos)[i]).filter((t) => t !== undefined);
        for (const t of folded) dropped.add(t);
        if (folded.length > 0) related.set(m, folded.map((t) => `${t.file as string}:${t.line}`));
      });
    }
  }
  return messages.filter((m) => !dropped.has(m)).map((m) => [m.file as string, m.line!, related.get(m) ?? []]);
}

describe('foldCopies on many files', () => {
  const shape = (ms: DriftMessage[]) => ms.map((m): [string, number, string[]] => [m.file as string, m.line!, m.related.map((r) => `${r.file}:${r.line}`)]);

  it('joins the same copies as comparing every pair of files', () => {
    // Translations, versions, Docusaurus trees, suffixed READMEs, mirrored and generic folders.
    const folders = ['docs', 'docs/zh', 'docs/ja', 'docs/zh-CN', 'docs/v1.2', 'website/docs', 'website/versioned_docs/version-2.x',
      'website/i18n/ja/docusaurus-plugin-content-docs/current', 'i18n/fr', '.claude/skills/deploy', '.agents/skills/deploy',
      'skills/deploy', 'a/docs', 'b/docs', 'a/guide', 'b/Guide', 'pkg/a', 'pkg/b', 'versions', ''];
    const pages = ['cli.md', 'SKILL.md', 'README.md', 'README.zh-CN.md', 'README_ja.md', 'usage.mdx', 'index.ja.mdx', 'index.mdx'];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const ms: DriftMessage[] = [];
    for (let i = 0; i < 1500; i++) {
      const folder = folders[random(folders.length)]!;
      const file = `${folder ? `${folder}/` : ''}${pages[random(pages.length)]!}`;
      ms.push(finding(file, 1 + random(40), ['warmup', 'seed', 'limit'][random(3)]!));
    }
    const expected = foldPairwise(ms);
    // Some 290 findings take in copies of theirs.
    expect(expected.filter((e) => e[2].length > 0).length).toBeGreaterThan(200);
    expect(shape(foldCopies(ms))).toEqual(expected);
  });

  it('keys copies as areCopies joins them', () => {
    const files = ['docs/cli.md', 'docs/zh/cli.md', 'a/docs/cli.md', '.claude/skills/deploy/SKILL.md', 'x/Skills/deploy/SKILL.md', 'README.md', 'README_ja.md', 'a/README.md'];
    for (const a of files) for (const b of files) expect(areCopies(a, b)).toBe(a !== b && copyKey(copyPath(a).segments) === copyKey(copyPath(b).segments));
  });

  it('is linear in the number of files: 20,000 pages in 100 folders, and 5,000 mirrored copies', () => {
    // Before, every pair of files was compared (with regexes): 1,800 such pages took 7 s in a run.
    const ms: DriftMessage[] = [];
    for (let i = 0; i < 100; i++) for (let j = 0; j < 200; j++) ms.push(finding(`docs/d${i}/f${j}.md`, 4));
    for (let i = 0; i < 5000; i++) ms.push(finding(`p${i}/skills/run/SKILL.md`, 9));
    const start = performance.now();
    const out = foldCopies(ms);
    expect(performance.now() - start).toBeLessThan(3000);
    expect(out).toHaveLength(20_001);
    const skill = out[20_000]!;
    expect(skill.file).toBe('p0/skills/run/SKILL.md');
    expect(skill.related).toHaveLength(4999);
    expect(skill.related[0]!.file).toBe('p1/skills/run/SKILL.md');
  });
});

describe('docdrift on a project with translated and mirrored pages (built CLI)', () => {
  const root = path.resolve(import.meta.dirname, '../fixtures/copies/translated-pages');
  const run = (args: string[]) => spawnSync(process.execPath, [CLI_BIN, '--root', root, '--no-cache', '--format', 'json', ...args], { cwd: root, encoding: 'utf8' });

  interface Result { file: string; line: number; ruleId: string; data: Record<string, string>; related: Array<{ file: string; line: number; message: string }> }

  it('reports each drift once with the copies in related, and per copy only where the copies disagree', () => {
    const r = run([]);
    expect(r.status).toBe(1);
    const results = (JSON.parse(r.stdout) as { results: Result[] }).results;
    const copiesOf = (x: Result) => x.related.filter((l) => l.message.startsWith('the same in the copy')).map((l) => `${l.file}:${l.line}`);
    expect(results.map((x) => [x.ruleId, x.file, x.line, x.data.name ?? x.data.params, copiesOf(x)])).toEqual([
      // The typo is in the page and both translations.
      ['example-param-unknown', 'docs/cli.md', 12, 'shard-idd', ['docs/ja/cli.md:12', 'docs/zh/cli.md:14']],
      // The translations have no reference table docdrift reads, but their own table names
      // `--limit`: the page explains it (example-param-unexplained), so nothing more is reported.
      // Only the Japanese copy has `--warmup`: the copies disagree.
      ['example-param-unknown', 'docs/ja/cli.md', 12, 'warmup', []],
      // A mirrored agent skill folder.
      ['example-param-unknown', 'skills/run-eval/SKILL.md', 9, 'resume', ['plugins/evaltool/skills/run-eval/SKILL.md:9']],
    ]);
  });

  it('still reports the copy a path argument names', () => {
    const results = (JSON.parse(run(['docs/zh/cli.md']).stdout) as { results: Result[] }).results;
    expect(results.map((x) => [x.file, x.line, x.data.name ?? x.data.params])).toEqual([
      ['docs/zh/cli.md', 14, 'shard-idd'],
    ]);
  });
});
