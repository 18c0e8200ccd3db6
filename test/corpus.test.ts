/**
 * The corpus tooling of issue #11 (test/corpus/): the entry schema and loader, the matching and
 * the metrics, and the fetch + run pipeline end to end on a tiny local project served from a local
 * bare repository (no network), with the built CLI (package.json `bin`, the bundle).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EntryScore, matches, normaliseParam, sameCommand, paramsOf, regressions, type ScoredEntry, scoreEntry, scoreReads, totals } from './corpus/compare.js';
import { fetchSnapshots } from './corpus/fetch.js';
import { formatReport, runCorpus, runDocdrift } from './corpus/run.js';
import { type CorpusEntry, CorpusError, checkEntries, loadEntries, parseEntry } from './corpus/schema.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const C1 = 'a'.repeat(40);
const C2 = 'b'.repeat(40);

const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-corpus-test-'));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

const precision = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'tool',
  repo: 'someone/tool',
  commit: C1,
  kind: 'precision',
  language: 'python',
  frameworks: ['argparse'],
  docs: 'github-markdown',
  config: null,
  expected: [],
  judged: [{ ruleId: 'example-param-unexplained', file: 'docs/**', verdict: 'false', cause: 'a Jinja include' }],
  notes: 'n',
  ...over,
});
const pair = (kind: 'before' | 'after', over: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...precision(),
  id: `tool-${kind}`,
  kind,
  commit: kind === 'before' ? C1 : C2,
  pair: kind === 'before' ? 'tool-after' : 'tool-before',
  fixedBy: 'https://github.com/someone/tool/pull/1',
  ...over,
});

function writeEntries(entries: Array<Record<string, unknown>>, names?: string[]): string {
  const dir = temp();
  entries.forEach((e, i) => writeFileSync(path.join(dir, names?.[i] ?? `${String(e.id)}.json`), JSON.stringify(e)));
  return dir;
}

function problemsOf(dir: string): string[] {
  try {
    loadEntries(dir);
  } catch (error) {
    if (error instanceof CorpusError) return error.problems;
    throw error;
  }
  return [];
}

describe('corpus entry schema', () => {
  it('loads good entries sorted by id', () => {
    const dir = writeEntries([pair('before'), pair('after'), precision({ config: { sources: 'src/**/*.py' } })]);
    const entries = loadEntries(dir);
    expect(entries.map((e) => e.id)).toEqual(['tool', 'tool-after', 'tool-before']);
    expect(entries[0]!.config).toEqual({ sources: 'src/**/*.py' }); // passed to docdrift as written, not normalised
  });

  it('names the file and the key of each problem', () => {
    const dir = writeEntries([
      precision({ id: 'short-commit', commit: 'abc123' }),
      precision({ id: 'paired', pair: 'x' }),
      pair('before', { id: 'no-fix', fixedBy: undefined, pair: 'no-fix-after' }),
      precision({ id: 'no-cause', judged: [{ ruleId: 'r', file: 'a.md', verdict: 'false' }] }),
      precision({ id: 'bad-config', config: { comands: {} } }),
      precision({ id: 'extra-key', verdcit: 'x' }),
      precision({ id: 'Not_Kebab' }),
      precision({ id: 'empty-reads', reads: { tool: [] } }),
    ]);
    const problems = problemsOf(dir).map((p) => path.relative(dir, p));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^short-commit\.json: commit: .*40-hex/),
        expect.stringMatching(/^paired\.json: pair: a "precision" entry has no pair/),
        expect.stringMatching(/^no-fix\.json: fixedBy: a "before" entry needs "fixedBy"/),
        expect.stringMatching(/^no-cause\.json: judged\[0\]\.cause: a "false" verdict needs a "cause"/),
        expect.stringMatching(/^bad-config\.json: config: .*comands/),
        expect.stringMatching(/^extra-key\.json: \(top level\): .*verdcit/),
        expect.stringMatching(/^Not_Kebab\.json: id: a kebab-case id/),
        expect.stringMatching(/^empty-reads\.json: reads\.tool: /),
      ]),
    );
  });

  it('reports invalid JSON and an id that differs from the file name', () => {
    const dir = writeEntries([precision({ id: 'named' })], ['other.json']);
    writeFileSync(path.join(dir, 'broken.json'), '{"id": ');
    const problems = problemsOf(dir).map((p) => path.relative(dir, p));
    expect(problems).toEqual([expect.stringMatching(/^broken\.json: \(top level\): not valid JSON/), expect.stringMatching(/^other\.json: id: "named" does not match the file name/)]);
  });

  it('checks that ids are unique and pairs symmetric, on one repository, other kind, other commit', () => {
    const parse = (raw: Record<string, unknown>): CorpusEntry => parseEntry(raw, 'x.json').entry!;
    expect(checkEntries([parse(pair('before')), parse(pair('after'))])).toEqual([]);
    expect(checkEntries([parse(precision()), parse(precision())])).toEqual(['tool.json: id: "tool" is used by more than one entry']);
    expect(checkEntries([parse(pair('before'))])).toEqual(['tool-before.json: pair: no entry has id "tool-after"']);
    const problems = checkEntries([parse(pair('before')), parse(pair('after', { pair: 'tool', repo: 'other/tool', commit: C1 })), parse(precision())]);
    expect(problems).toEqual([
      'tool-before.json: pair: "tool-after" names "tool" back, not "tool-before"',
      'tool-before.json: repo: "someone/tool" differs from its pair\'s "other/tool"',
      'tool-before.json: commit: same commit as its pair "tool-after"',
      'tool-after.json: pair: "tool" is a "precision" entry; the twin of an "after" entry is a "before" entry',
    ]);
  });
});

describe('matching a finding to an expected or judged item', () => {
  const finding = (data: Record<string, string>, over: Partial<{ ruleId: string; file: string }> = {}) => ({ ruleId: 'example-param-unknown', file: 'docs/a.md', line: 3, data, ...over });

  it('normalises parameters as written, keeping case, - and _', () => {
    expect(['--reload-dir', '-v', '+db.url', '++x', '~y', 'reload_dir'].map(normaliseParam)).toEqual(['reload-dir', 'v', 'db.url', 'x', 'y', 'reload_dir']);
  });

  it('reads the parameter from data.name, else data.param, else data.params', () => {
    expect(paramsOf(finding({ name: 'a', param: 'b' }))).toEqual(['a']);
    expect(paramsOf(finding({ param: 'b' }))).toEqual(['b']);
    expect(paramsOf(finding({ params: '`--a`, `b_c`' }))).toEqual(['--a', 'b_c']);
    expect(paramsOf(finding({}))).toEqual([]);
    // A wrong spelling of a row's flag is about that spelling as well as the row's parameter.
    expect(paramsOf(finding({ name: '-c', flag: '--skip-type-check' }))).toEqual(['-c', '--skip-type-check']);
  });

  it('a script command named by its path is the command named by its file name, nothing looser', () => {
    expect(sameCommand('finetune.py', 'alpaca-lora/finetune.py')).toBe(true);
    expect(sameCommand('alpaca-lora/finetune.py', 'finetune.py')).toBe(true);
    expect(sameCommand('finetune.py', 'tune.py')).toBe(false);
    expect(sameCommand('run', 'fastapi run')).toBe(false);
    expect(sameCommand('x', undefined)).toBe(false);
    const f = finding({ name: 'base_model', command: 'alpaca-lora/finetune.py' });
    expect(matches({ ruleId: 'example-param-unknown', file: 'docs/a.md', command: 'finetune.py', param: 'base_model' }, f, false)).toBe(true);
  });

  it('matches rule id, file, command and parameter; "*" or omitted is any', () => {
    const f = finding({ name: 'reload-dir', command: 'fastapi run' });
    const item = { ruleId: 'example-param-unknown', file: 'docs/a.md', command: 'fastapi run', param: '--reload-dir' };
    expect(matches(item, f, false)).toBe(true);
    expect(matches({ ...item, param: '--reload_dir' }, f, false)).toBe(false);
    expect(matches({ ...item, param: '--Reload-dir' }, f, false)).toBe(false);
    expect(matches({ ...item, command: 'fastapi dev' }, f, false)).toBe(false);
    expect(matches({ ...item, command: '*', param: undefined }, f, false)).toBe(true);
    expect(matches({ ...item, ruleId: 'reference-param-unknown' }, f, false)).toBe(false);
    expect(matches({ ...item, param: 'b' }, finding({ params: '`a`, `b`', command: 'fastapi run' }), false)).toBe(true);
    expect(matches({ ...item, param: 'x' }, finding({ command: 'fastapi run' }), false)).toBe(false);
  });

  it('treats file as a picomatch glob only for judged items', () => {
    const f = finding({ name: 'x' }, { file: 'docs/guide/.hidden/a.md' });
    expect(matches({ ruleId: 'example-param-unknown', file: 'docs/**' }, f, true)).toBe(true);
    expect(matches({ ruleId: 'example-param-unknown', file: 'docs/**' }, f, false)).toBe(false);
    expect(matches({ ruleId: 'example-param-unknown', file: 'docs/*.md' }, f, true)).toBe(false);
  });

  it('scores one run: expected first, then the first matching judged item, else unjudged; leftovers from the pair', () => {
    const findings = [finding({ name: 'a' }), finding({ name: 'a' }), finding({ name: 'b' }), finding({ name: 'c' }), finding({ name: 'd' })];
    const score = scoreEntry(
      {
        expected: [
          { ruleId: 'example-param-unknown', file: 'docs/a.md', param: 'a', why: 'w' },
          { ruleId: 'command-undocumented', file: 'README.md', why: 'planned rule' },
        ],
        judged: [
          { ruleId: 'example-param-unknown', file: 'docs/*', param: 'b', verdict: 'true' },
          { ruleId: 'example-param-unknown', file: 'docs/*', param: 'c', verdict: 'false', cause: 'alias' },
          { ruleId: 'example-param-unknown', file: 'docs/*', verdict: 'true' },
        ],
      },
      findings.slice(0, 4),
      [{ ruleId: 'example-param-unknown', file: 'docs/a.md', param: 'c', why: 'w' }, { ruleId: 'example-param-unknown', file: 'docs/a.md', param: 'd', why: 'w' }],
    );
    expect(score).toMatchObject({ expected: 2, found: 1, judgedTrue: 1, judgedFalse: 1, unjudged: [], verdicts: ['expected', 'expected', 'true', 'false'] });
    expect(score.missed.map((m) => m.ruleId)).toEqual(['command-undocumented']);
    expect(score.falsePositives[0]!.judged.cause).toBe('alias');
    expect(score.leftovers.map((l) => l.param)).toEqual(['c']);
    expect(scoreEntry({ expected: [], judged: [] }, findings.slice(4)).unjudged).toEqual([findings[4]]);
  });

  it('scores reads: a command by its name, an alias or a script path, with known parameters; names after normalisation; extra names apart', () => {
    const cmd = (name: string, parameterNames: string[] | undefined, over: Record<string, unknown> = {}) => ({
      name,
      aliases: [],
      paramsKnown: parameterNames !== undefined,
      sections: 0,
      ...(parameterNames ? { parameterNames } : {}),
      ...over,
    });
    const commands = [cmd('vite', ['base', 'config', 'root']), cmd('vite dev', ['port'], { aliases: ['vite serve'] }), cmd('vite build', undefined), cmd('tools/train.py', ['epochs'])];
    const reads = { vite: ['--base', 'config', 'mode'], 'vite serve': ['port'], 'vite build': ['out-dir'], 'train.py': ['epochs'], 'vite preview': ['port', 'open'] };
    expect(scoreReads(reads, commands)).toEqual({
      expected: 8,
      read: 4,
      commands: 5,
      missed: [
        { command: 'vite', params: ['mode'] },
        { command: 'vite build', params: ['out-dir'] },
        { command: 'vite preview', params: ['port', 'open'] },
      ],
      commandsMissing: ['vite build', 'vite preview'],
      extra: [{ command: 'vite', params: ['root'] }],
    });
    // A failed run (no report) reads nothing.
    expect(scoreReads({ vite: ['base'] }, undefined)).toMatchObject({ expected: 1, read: 0, commandsMissing: ['vite'] });
  });

  it('sums the totals as test/corpus/README.md defines them, and guards them with a 0.5-point tolerance', () => {
    const s = (o: Partial<EntryScore>): EntryScore => ({ expected: 0, found: 0, missed: [], judgedTrue: 0, judgedFalse: 0, falsePositives: [], unjudged: [], leftovers: [], verdicts: [], ...o });
    const f = { ruleId: 'r', file: 'f', line: 1, data: {} };
    const entries: ScoredEntry[] = [
      { id: 'b', kind: 'before', configured: s({ expected: 4, found: 3 }), zeroConfig: s({ expected: 4, found: 1 }), failedRuns: 0 },
      { id: 'a', kind: 'after', configured: s({ expected: 1, found: 1, leftovers: [{ ruleId: 'r', file: 'f', why: 'w' }], unjudged: [f] }), zeroConfig: s({}), failedRuns: 0 },
      { id: 'a2', kind: 'after', configured: s({}), zeroConfig: s({}), failedRuns: 1 },
      {
        id: 'p',
        kind: 'precision',
        configured: s({ expected: 1, found: 0, judgedTrue: 2, judgedFalse: 3 }),
        zeroConfig: s({ expected: 1, found: 1 }),
        failedRuns: 0,
        reads: { expected: 10, read: 7, commands: 3, missed: [], commandsMissing: ['x'], extra: [] },
      },
    ];
    const t = totals(entries);
    expect(t.recall).toBe(3 / 5); // after entries' own expected are not in recall
    expect(t.zeroConfigRecall).toBe(2 / 5);
    expect(t.precision).toBe((4 + 2) / (4 + 2 + 3 + 1)); // found in every kind + judged true
    expect(t.afterClean).toBe(1 / 2);
    expect(t.failedRuns).toBe(1);
    expect(t.extraction).toBe(7 / 10);
    expect(t.counts).toMatchObject({ readsExpected: 10, readsRead: 7, readsCommands: 3, readsCommandsMissing: 1 });
    expect(totals([]).recall).toBeNull();
    expect(totals([]).extraction).toBeNull();
    // Extraction is guarded once the baseline has it (an older baseline does not).
    const withExtraction = { entries: [], totals: { recall: 0.6, precision: 0.6, afterClean: 0.5, zeroConfigRecall: 0.4, extraction: 0.71, failedRuns: 1 } };
    expect(regressions(t, withExtraction)).toEqual(['extraction: 70.0% < baseline 71.0%']);
    // No tolerance for extraction: one name fewer is a regression.
    expect(regressions(t, { ...withExtraction, totals: { ...withExtraction.totals, extraction: 0.704 } })).toEqual(['extraction: 70.0% < baseline 70.4%']);
    expect(regressions(t, { ...withExtraction, totals: { ...withExtraction.totals, extraction: 0.7 } })).toEqual([]);
    const baseline = { entries: [], totals: { recall: 0.604, precision: 0.606, afterClean: null, zeroConfigRecall: 0.4, failedRuns: 1 } };
    expect(regressions(t, baseline)).toEqual(['precision: 60.0% < baseline 60.6%']);
    expect(regressions(totals([]), { entries: [], totals: { ...baseline.totals, failedRuns: 0 } })).toEqual([
      'recall: no longer measurable (baseline 60.4%)',
      'precision: no longer measurable (baseline 60.6%)',
      'zeroConfigRecall: no longer measurable (baseline 40.0%)',
    ]);
  });
});

describe('fetch and run on a tiny local project', () => {
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
  const files = (dir: string, content: Record<string, string>): void => {
    for (const [name, text] of Object.entries(content)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
  };
  const README = (flags: string, rows: string) =>
    `# tool\n\n\`\`\`sh\ntool --name bob --size 1 --mode a --level 2${flags}\n\`\`\`\n\n## Options\n\n| Option | Default | Description |\n|---|---|---|\n| \`--name\` | \`x\` | who |\n| \`--count\` | \`1\` | how many |\n${rows}`;

  it('exports the commits from a mirror, runs both configs, and counts found, judged, unjudged and leftovers', async () => {
    // A project whose README example and table still list --colour, removed from the code; fixed in a second commit.
    const work = temp();
    git(work, 'init', '-q', '-b', 'main');
    files(work, {
      'pyproject.toml': '[project]\nname = "tool"\nversion = "1.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n',
      'tool/__init__.py': '',
      'tool/cli.py':
        'import argparse\n\n\ndef main() -> None:\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--name", default="x", help="who")\n' +
        '    parser.add_argument("--count", type=int, default=1, help="how many")\n' +
        // More known flags in the examples than unknown ones, so that the unknown flags are reported
        // one by one rather than as one partlyRead summary (rules/partly-read.ts).
        '    parser.add_argument("--size", type=int, default=1)\n    parser.add_argument("--mode", default="a")\n    parser.add_argument("--level", type=int, default=1)\n' +
        '    print(parser.parse_args())\n',
      'README.md': README(' --colour red', '| `--colour` | `red` | the colour |\n'),
      'docs/usage.md': '# Usage\n\n```sh\ntool --verbose\ntool --debug\n```\n',
      'docdrift.config.json': '{"ignore": ["**"]}\n', // the project's own config must not be read by either run
      'media/demo.gif': 'GIF89a large media the mirror does not have',
    });
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', 'before');
    const before = git(work, 'rev-parse', 'HEAD');
    files(work, { 'README.md': README('', '') });
    git(work, 'commit', '-qam', 'fix the README');
    const after = git(work, 'rev-parse', 'HEAD');
    const mirrors = temp();
    const mirror = path.join(mirrors, 'someone+tool', 'repo');
    git(mirrors, 'clone', '-q', '--bare', '--no-local', work, mirror);
    // Mirrors made by the fetch tool can lack large blobs: drop one (unpack, then delete its loose object).
    const gif = git(work, 'rev-parse', `${before}:media/demo.gif`);
    const pack = git(mirror, 'rev-parse', '--git-path', 'objects/pack');
    for (const p of readdirSync(path.resolve(mirror, pack)).filter((f) => f.endsWith('.pack'))) {
      const packFile = path.resolve(mirror, pack, p);
      execFileSync('sh', ['-c', `mv "${packFile}" "${packFile}.x" && rm "${packFile.replace(/\.pack$/, '.idx')}" && git --git-dir="${mirror}" unpack-objects -q < "${packFile}.x" && rm "${packFile}.x"`]);
    }
    rmSync(path.join(mirror, 'objects', gif.slice(0, 2), gif.slice(2)));

    const base = { repo: 'someone/tool', language: 'python', frameworks: ['argparse'], docs: 'github-markdown', notes: 'test', fixedBy: 'https://github.com/someone/tool/pull/1' };
    const reposDir = writeEntries([
      {
        ...base,
        id: 'tool-before',
        kind: 'before',
        pair: 'tool-after',
        commit: before,
        config: { ignore: ['docs/**'] }, // globs resolve against --root, not the temporary config file's folder
        expected: [
          { ruleId: 'example-param-unknown', file: 'README.md', command: 'tool', param: '--colour', why: 'flag removed from the code' },
          { ruleId: 'reference-param-unknown', file: 'README.md', command: 'tool', param: '--colour', why: 'the table row stayed' },
        ],
        judged: [{ ruleId: 'example-param-unknown', file: 'docs/**', param: 'verbose', verdict: 'false', cause: 'test: pretend alias' }],
        // Checked on the zero-config run: five flags are read, `verbose` is not in the code and
        // `tool serve` does not exist (test only: real entries list what the code declares).
        reads: { tool: ['--name', 'count', 'size', 'mode', 'level', 'verbose'], 'tool serve': ['port'] },
      },
      { ...base, id: 'tool-after', kind: 'after', pair: 'tool-before', commit: after, config: null, expected: [], judged: [] },
      { ...base, id: 'gone', kind: 'precision', fixedBy: undefined, repo: 'nobody/gone', commit: C1, config: null, expected: [], judged: [] },
    ]);
    const entries = loadEntries(reposDir);
    const snapshots = temp();
    const fetched = fetchSnapshots(entries, snapshots, mirrors, () => {}, () => path.join(snapshots, 'no-such-remote'));
    expect(fetched.made.sort()).toEqual(['tool-after', 'tool-before']);
    expect(fetched.failed).toEqual([{ id: 'gone', why: expect.stringContaining('no mirror') }]);
    expect(fetched.skipped).toEqual([
      { id: 'tool-after', files: ['media/demo.gif'] },
      { id: 'tool-before', files: ['media/demo.gif'] },
    ]);
    const tracked = git(path.join(snapshots, 'tool-before'), 'ls-files').split('\n');
    expect(tracked).toContain('tool/cli.py');
    expect(tracked).toContain('docs/usage.md');
    expect(tracked).not.toContain('media/demo.gif');
    expect(existsSync(path.join(snapshots, 'tool-before.partial'))).toBe(false);
    expect(fetchSnapshots(entries.filter((e) => e.id !== 'gone'), snapshots, mirrors).present.sort()).toEqual(['tool-after', 'tool-before']);

    const report = await runCorpus({ entries, snapshots, bin: BIN, timeoutMs: 120_000 });
    expect(report.missing).toEqual(['gone']);
    const byId = Object.fromEntries(report.outcomes.map((o) => [o.id, o]));
    const b = byId['tool-before']!;
    expect(b.failedRuns).toBe(0);
    // With its config (docs/** ignored): the example's --colour is found; the stale table row is not reported today.
    expect(b.configured).toMatchObject({ expected: 2, found: 1, judgedTrue: 0, judgedFalse: 0, unjudged: [] });
    expect(b.configured!.missed.map((m) => m.ruleId)).toEqual(['reference-param-unknown']);
    // Zero-config also reads docs/usage.md: --verbose is a judged false positive, --debug is unjudged.
    expect(b.zeroConfig).toMatchObject({ found: 1, judgedFalse: 1 });
    expect(b.zeroConfig!.unjudged.map((u) => u.data.name)).toEqual(['debug']);
    // The runner keeps docdrift's stderr as notes: the README's table is under no heading naming
    // `tool`, which the first-run note says in both runs.
    expect(b.notes).toEqual([
      expect.stringContaining('its own docdrift config (docdrift.config.json)'),
      expect.stringContaining('docdrift said: docdrift: command `tool` has 5 parameters (CLI flags in tool/cli.py:6) but no reference section was found'),
      expect.stringContaining('docdrift said (zero-config): docdrift: command `tool` has 5 parameters'),
    ]);
    const a = byId['tool-after']!;
    expect(a.configured).toMatchObject({ expected: 0, found: 0, leftovers: [] });
    expect(a.configured!.unjudged.map((u) => u.data.name)).toEqual(['verbose', 'debug']);
    expect(a.zeroConfigRun).toBe(a.configuredRun);
    expect(report.totals).toMatchObject({ recall: 1 / 2, zeroConfigRecall: 1 / 2, afterClean: 1, precision: 1 / 3, failedRuns: 0, extraction: 5 / 7 });
    expect(b.zeroConfigRun.commands?.map((c) => [c.name, c.parameterNames])).toEqual([['tool', ['count', 'level', 'mode', 'name', 'size']]]);
    expect(b.reads).toEqual({ expected: 7, read: 5, commands: 2, missed: [{ command: 'tool', params: ['verbose'] }, { command: 'tool serve', params: ['port'] }], commandsMissing: ['tool serve'], extra: [] });
    expect(a.reads).toBeUndefined();
    expect(git(path.join(snapshots, 'tool-before'), 'status', '--porcelain', '-uall')).toBe('');

    const printed = formatReport(report);
    expect(printed).toMatch(/^tool-before\s+before\s+yes\s+1\/2\s+0\s+0\s+0\s+-\s+1\/2\s+0\/1\/1\s+5\/7\s/m);
    expect(printed).toMatch(/^tool-after\s+after\s+no\s+0\/0\s+0\s+0\s+2\s+0\s+0\/0/m);
    expect(printed).toContain('missed: reference-param-unknown README.md (command tool, param --colour)');
    expect(printed).toContain('no snapshot, skipped (1): gone');
    expect(printed).toMatch(/recall\s+50\.0%/);
    expect(printed).toContain('  not read (zero-config): tool: verbose');
    expect(printed).toContain('  command missing (zero-config): tool serve (not reported, or its parameters unknown)');
    expect(printed).toContain('extraction         71.4%  (5/7 expected parameters read zero-config, 1 of 2 commands missing, entries with "reads")');

    // --rescore: the saved runs are scored against judgements written after the run; docdrift
    // is not run again (the bin does not exist), and the newly judged `debug` counts as judged.
    const saved = new Map(report.outcomes.map((o) => [o.id, { configuredRun: o.configuredRun, zeroConfigRun: o.zeroConfigRun }]));
    const judgedLater = entries.map((e) => (e.id === 'tool-before' ? { ...e, judged: [...e.judged, { ruleId: 'example-param-unknown', file: 'docs/**', param: 'debug', verdict: 'true' as const, cause: 'test: judged after the run' }] } : e));
    const rescored = await runCorpus({ entries: judgedLater, snapshots, bin: path.join(snapshots, 'no-such-bin.js'), timeoutMs: 1_000, saved });
    const rb = rescored.outcomes.find((o) => o.id === 'tool-before')!;
    expect(rb.failedRuns).toBe(0);
    expect(rb.zeroConfig).toMatchObject({ found: 1, judgedFalse: 1, judgedTrue: 1, unjudged: [] });
    expect(rb.notes).toContain('runs taken from the --rescore report, not run again');
    expect(rescored.totals.extraction).toBe(report.totals.extraction);
  });

  it('counts a run that hangs or prints no JSON as failed, not as a hang', async () => {
    const dir = temp();
    const hang = path.join(dir, 'hang.mjs');
    writeFileSync(hang, 'setInterval(() => {}, 1000);\n');
    const garbage = path.join(dir, 'garbage.mjs');
    writeFileSync(garbage, 'console.error("boom"); process.exitCode = 2;\n');
    const hung = await runDocdrift(hang, dir, null, 300);
    expect(hung).toMatchObject({ results: [], failure: 'timed out after 0 s' });
    expect(await runDocdrift(garbage, dir, null, 60_000)).toMatchObject({ results: [], exitCode: 2, failure: 'exit 2, no JSON report: boom' });
  });
});
