/**
 * The baseline (`--baseline`, `--write-baseline`): adoption on a copy of the bundled example, run
 * as a user would (the built CLI, spawned), and the file format's parser and writer.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BaselineError, finishBaseline, loadBaseline, MAX_BASELINE_BYTES, parseBaseline, serializeBaseline } from '../src/engine/baseline.js';
import type { DriftMessage } from '../src/model/rule.js';
import type { AtomicFs } from '../src/engine/write.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function copyExample(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-baseline-'));
  temps.push(dir);
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

interface Report {
  results: Array<{ file: string; line: number; ruleId: string; messageId: string; severity: string; data: Record<string, string> }>;
  summary: { errors: number; warnings: number; suppressedCount?: number };
}

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, '--format', 'json', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const report = r.stdout ? (JSON.parse(r.stdout) as Report) : undefined;
  return { code: r.status, report, stderr: r.stderr };
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  const abs = path.join(dir, file);
  writeFileSync(abs, change(readFileSync(abs, 'utf8')));
}

const BASELINE = '.docdrift-baseline.json';
// Each test spawns the CLI several times (about a second each on an idle machine).
const SLOW = 240_000;

describe('adopting docdrift with a baseline', () => {
  it('records the findings, then reports only new drift, stale entries, and survives line moves', () => {
    const dir = copyExample();
    const before = run([], dir);
    expect(before.code).toBe(1);
    const total = before.report!.results.length;
    expect(total).toBe(11);

    const written = run(['--write-baseline'], dir);
    expect(written.code).toBe(0);
    expect(written.report!.results).toEqual([]);
    expect(written.stderr).toContain(`wrote 11 baseline entries (11 findings) to ${BASELINE}`);
    const text = readFileSync(path.join(dir, BASELINE), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const file = JSON.parse(text) as { version: number; entries: Array<Record<string, unknown>> };
    expect(file.version).toBe(1);
    expect(Object.keys(file.entries[0]!)).toEqual(['file', 'ruleId', 'command', 'subject', 'count']);
    expect(file.entries).toContainEqual({
      file: 'benchmarks/gpqa/README.md',
      ruleId: 'example-param-unknown',
      command: 'ng_collect_rollouts',
      subject: 'num_repeat',
      count: 1,
    });
    // Sorted by file, and no line numbers anywhere.
    const files = file.entries.map((e) => String(e.file));
    expect(files).toEqual([...files].sort());
    expect(text).not.toMatch(/"line"/);

    // The default file is read without --baseline: the run is clean and says what it hid.
    const clean = run([], dir);
    expect(clean.code).toBe(0);
    expect(clean.report!.results).toEqual([]);
    expect(clean.report!.summary.suppressedCount).toBe(total);

    // Lines added above baselined findings change their lines, not their identity.
    edit(dir, 'benchmarks/gpqa/README.md', (t) => t.replace(/\n/, '\n\nAn added paragraph.\n\nAnother one.\n\n'));
    edit(dir, 'docs/reference/cli-commands.mdx', (t) => t.replace(/\n/, '\n\nIntroduction, rewritten.\n'));
    expect(run([], dir).report!.results).toEqual([]);

    // One new drift: only it is reported.
    edit(dir, 'benchmarks/gpqa/README.md', (t) => `${t}\n\`\`\`bash\nng_collect_rollouts +agent_name=a +num_sample=3\n\`\`\`\n`);
    const drift = run([], dir);
    expect(drift.code).toBe(1);
    expect(drift.report!.results.map((r) => [r.file, r.ruleId, r.data.name])).toEqual([
      ['benchmarks/gpqa/README.md', 'example-param-unknown', 'num_sample'],
    ]);

    // Fixing a baselined drift makes its entry stale: a warning at the entry's line in the baseline.
    edit(dir, 'docs/reference/cli-commands.mdx', (t) => t.replace(/^\| `max_retries` .*\n/m, ''));
    const fixed = run([], dir);
    const stale = fixed.report!.results.filter((r) => r.ruleId === 'baseline-entry-stale');
    const entryLine = text.split('\n').findIndex((l) => l.includes('"max_retries"')) + 1;
    expect(stale.map((r) => [r.file, r.line, r.severity, r.data])).toEqual([
      [
        BASELINE,
        entryLine,
        'warn',
        {
          actual: '0',
          command: 'ng_collect_rollouts',
          commandText: ' (`ng_collect_rollouts`)',
          expected: '1',
          file: 'docs/reference/cli-commands.mdx',
          name: 'max_retries',
          ruleId: 'reference-param-unknown',
        },
      ],
    ]);
    expect(run(['--max-warnings', '0'], dir).code).toBe(1);

    // Rewriting the baseline drops the stale entry and records the new drift.
    expect(run(['--write-baseline'], dir).code).toBe(0);
    const rewritten = readFileSync(path.join(dir, BASELINE), 'utf8');
    expect(rewritten).not.toContain('max_retries');
    expect(rewritten).toContain('"num_sample"');
    expect(run([], dir)).toMatchObject({ code: 0, report: { results: [] } });
  }, SLOW);

  it('counts findings per key: a fourth use of a baselined parameter in one README reports all four', () => {
    const dir = copyExample();
    const example = '\n```bash\nng_collect_rollouts +agent_name=a +resume_from_cache=True\n```\n';
    edit(dir, 'README.md', (t) => `${t}${example}${example}`);
    expect(run(['--write-baseline'], dir).code).toBe(0);
    const entries = parseBaseline(readFileSync(path.join(dir, BASELINE), 'utf8'), BASELINE);
    expect(entries.find((e) => e.file === 'README.md' && e.ruleId === 'example-param-undocumented')?.count).toBe(3);

    edit(dir, 'README.md', (t) => `${t}${example}`);
    const more = run([], dir);
    expect(more.code).toBe(1);
    // A count cannot tell which use is new, so all of them are shown (ESLint does the same).
    expect(more.report!.results.map((r) => [r.file, r.line, r.data.name])).toEqual([
      ['README.md', 25, 'resume_from_cache'],
      ['README.md', 29, 'resume_from_cache'],
      ['README.md', 33, 'resume_from_cache'],
      ['README.md', 37, 'resume_from_cache'],
    ]);

    // Two uses left of three recorded: clean, but the entry is stale (2 of 3).
    edit(dir, 'README.md', (t) => t.slice(0, t.length - 2 * example.length));
    const fewer = run([], dir);
    expect(fewer.code).toBe(0);
    expect(fewer.report!.results.map((r) => [r.ruleId, r.data.expected, r.data.actual])).toEqual([['baseline-entry-stale', '3', '2']]);
  }, SLOW);

  it('--no-baseline reports every finding despite a baseline in the root, and refuses --baseline/--write-baseline', () => {
    const dir = copyExample();
    const before = run(['--no-cache'], dir);
    expect(run(['--write-baseline'], dir).code).toBe(0);
    expect(run([], dir).report!.results).toEqual([]);
    const ignored = run(['--no-baseline'], dir);
    expect(ignored.code).toBe(before.code);
    expect(ignored.report!.results).toEqual(before.report!.results);
    expect(ignored.report!.results.length).toBeGreaterThan(0);
    for (const extra of [['--baseline', BASELINE], ['--write-baseline']]) {
      const r = run(['--no-baseline', ...extra], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--no-baseline cannot be combined');
    }
  }, SLOW);

  it('--write-baseline with paths keeps the entries of the other files', () => {
    const dir = copyExample();
    expect(run(['--write-baseline'], dir).code).toBe(0);
    edit(dir, 'docs/reference/cli-commands.mdx', (t) => t.replace(/^\| `max_retries` .*\n/m, ''));
    expect(run(['--write-baseline', 'docs'], dir).code).toBe(0);
    const entries = parseBaseline(readFileSync(path.join(dir, BASELINE), 'utf8'), BASELINE);
    expect(entries.some((e) => e.subject === 'max_retries')).toBe(false);
    expect(entries.filter((e) => e.file === 'README.md').length).toBe(1);
    expect(entries.length).toBe(10);
  }, SLOW);

  it('--baseline FILE is read from the current directory; a missing or malformed file is exit 2 naming it', () => {
    const dir = copyExample();
    expect(run(['--write-baseline', '--baseline', 'known.json'], dir).code).toBe(0);
    expect(run(['--baseline', 'known.json'], dir)).toMatchObject({ code: 0, report: { results: [] } });

    const missing = run(['--baseline', 'nope.json'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the baseline nope.json: ENOENT');

    writeFileSync(path.join(dir, 'bad.json'), '{\n  "version": 1,\n  "entries": [\n    { "file": "a.md", }\n  ]\n}\n');
    const bad = run(['--baseline', 'bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^docdrift: bad\.json:4:\d+: the baseline is not valid JSON/);

    writeFileSync(path.join(dir, 'v2.json'), '{ "version": 2, "entries": [] }\n');
    const v2 = run(['--baseline', 'v2.json'], dir);
    expect(v2.code).toBe(2);
    expect(v2.stderr).toContain('v2.json: version: Invalid input: expected 1');
    expect(v2.stderr).not.toMatch(/\n\s+at /);
  }, SLOW);
});

describe('the baseline file format', () => {
  const entry = { file: 'README.md', ruleId: 'example-param-undocumented', command: 'tool', subject: 'resume', count: 2 };

  it('round-trips, one sorted entry per line with a final newline', () => {
    const text = serializeBaseline([{ ...entry, file: 'z.md' }, entry]);
    expect(text).toBe(
      '{\n  "version": 1,\n  "entries": [\n' +
        '    { "file": "README.md", "ruleId": "example-param-undocumented", "command": "tool", "subject": "resume", "count": 2 },\n' +
        '    { "file": "z.md", "ruleId": "example-param-undocumented", "command": "tool", "subject": "resume", "count": 2 }\n' +
        '  ]\n}\n',
    );
    expect(parseBaseline(text, 'b.json')).toEqual([
      { ...entry, line: 4 },
      { ...entry, file: 'z.md', line: 5 },
    ]);
    expect(serializeBaseline([])).toBe('{\n  "version": 1,\n  "entries": []\n}\n');
  });

  it('merges duplicate keys (a merge of two branches) by adding their counts', () => {
    const text = JSON.stringify({ version: 1, entries: [entry, { ...entry, count: 1 }] });
    expect(parseBaseline(text, 'b.json').map((e) => e.count)).toEqual([3]);
  });

  it.each([
    [{ version: 1, entries: [{ ...entry, count: 0 }] }, 'entries[0].count: Too small'],
    [{ version: 1, entries: [{ ...entry, line: 3 }] }, 'entries[0]: Unrecognized key: "line"'],
    [{ version: 1 }, 'entries: Invalid input: expected array'],
    [[], '(the whole file): Invalid input: expected object'],
  ])('rejects %j with the key and the problem', (value, problem) => {
    expect(() => parseBaseline(JSON.stringify(value), 'b.json')).toThrow(BaselineError);
    expect(() => parseBaseline(JSON.stringify(value), 'b.json')).toThrow(`b.json: ${problem}`);
  });
});

describe('baseline keys stay put when unrelated docs change', () => {
  it('example-param-unexplained: a new reference row for another parameter of the example does not change the key', async () => {
    const { lint, ruleIds } = await import('../src/api.js');
    const { loadConfig } = await import('../src/config/load.js');
    const { findingKeyString } = await import('../src/engine/fingerprint.js');
    const root = mkdtempSync(path.join(tmpdir(), 'docdrift-baseline-key-'));
    try {
      cpSync(path.join(import.meta.dirname, '../fixtures/rules/example-param-unexplained/invalid/no-link'), root, { recursive: true });
      rmSync(path.join(root, 'expected.json'));
      // `seed` is used in the example and has no row yet: it is not part of this finding.
      const main = readFileSync(path.join(root, 'pkg/main.py'), 'utf8');
      writeFileSync(path.join(root, 'pkg/main.py'), main.replace(/(class \w+\(BaseModel\):\n)/, '$1    seed: int = Field(default=0, description="Random seed.")\n'));
      writeFileSync(path.join(root, 'README.md'), '# Tool\n\n```bash\ntool +name=demo +epochs=3 +resume=true +seed=1\n```\n');
      const keys = async () => {
        const r = await lint({ root, config: loadConfig(root, undefined, ruleIds).config });
        return r.messages.filter((m) => m.ruleId === 'example-param-unexplained').map((m) => [findingKeyString(m), m.data?.params]);
      };
      const before = await keys();
      expect(before).toHaveLength(1);
      const doc = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
      writeFileSync(path.join(root, 'docs/cli.md'), doc.replace('| `tags` |', '| `seed` | int | `0` | Random seed. |\n| `tags` |'));
      const after = await keys();
      expect(after[0]![1]).not.toBe(before[0]![1]); // `seed` joined the parameters named in the message
      expect(after[0]![0]).toBe(before[0]![0]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('writing the baseline safely (issue #17)', () => {
  it('refuses a committed baseline symlink that leads out of the project (exit 2, naming it) and writes nothing there', () => {
    const dir = copyExample();
    const outside = mkdtempSync(path.join(tmpdir(), 'docdrift-outside-'));
    temps.push(outside);
    writeFileSync(path.join(outside, 'victim.txt'), 'precious\n');
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(dir, BASELINE));
    const r = run(['--write-baseline'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${BASELINE} is a symlink`);
    expect(readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
    expect(fs.lstatSync(path.join(dir, BASELINE)).isSymbolicLink()).toBe(true);
  }, SLOW);

  it('a write that fails half-way (full disk) leaves the old baseline intact and no temporary file', () => {
    const dir = copyExample();
    const old = serializeBaseline([{ file: 'README.md', ruleId: 'example-param-unknown', command: 'ng_run', subject: 'x', count: 1 }]);
    writeFileSync(path.join(dir, BASELINE), old);
    const loaded = loadBaseline({ root: dir, cwd: dir, write: true, paths: [], staleSeverity: 'warn' });
    const full: AtomicFs = { ...fs, writeSync: () => { throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }); } };
    expect(() => finishBaseline([], loaded, full)).toThrow(new BaselineError(`cannot write the baseline ${BASELINE}: ENOSPC.`));
    expect(readFileSync(path.join(dir, BASELINE), 'utf8')).toBe(old);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  // #33 fresh sweep defect 6: baselines are read up to 4 MB, so none larger is written.
  it('refuses to write a baseline over the 4 MB read limit (the old file stays), and rewrites an oversized one whole', () => {
    const dir = copyExample();
    const big = `${serializeBaseline([])}${' '.repeat(MAX_BASELINE_BYTES)}`;
    writeFileSync(path.join(dir, BASELINE), big);
    expect(() => loadBaseline({ root: dir, cwd: dir, write: false, paths: [], staleSeverity: 'warn' })).toThrow(/cannot read the baseline \.docdrift-baseline\.json: EFBIG \(4\.0 MB, over the 4\.0 MB limit\)/);
    // Written whole, the oversized file need not be read.
    const loaded = loadBaseline({ root: dir, cwd: dir, write: true, paths: [], staleSeverity: 'warn' });
    const messages = Array.from({ length: 40_000 }, (_, i) => ({ ruleId: 'example-param-unknown', file: 'README.md', reason: 'r', data: { command: 'tool', name: `parameter_${i}` } }) as unknown as DriftMessage);
    expect(() => finishBaseline(messages, loaded)).toThrow(/cannot write the baseline \.docdrift-baseline\.json: its 40,000 entries take 4\.\d MB, over the 4 MB limit/);
    expect(readFileSync(path.join(dir, BASELINE), 'utf8')).toBe(big);
    expect(finishBaseline(messages.slice(0, 100), loaded).notice).toContain('wrote 100 baseline entries');
  });
});

describe('a baseline nested too deep (#33 sweep s19)', () => {
  it('is refused with its position before a recursive parse overflows the stack', () => {
    const deep = `{"version":1,"entries":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`;
    expect(() => parseBaseline(deep, '.docdrift-baseline.json')).toThrow(BaselineError);
    expect(() => parseBaseline(deep, '.docdrift-baseline.json')).toThrow(/\.docdrift-baseline\.json:1:\d+: the baseline nests objects or lists 10002 levels deep/);
  });
});
