/** The bad-input corpus (fixtures/bad-input/): the built CLI on hostile projects gives a diagnostic or a clean skip, the documented exit code, no stack trace, in bounded time. */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'dist/src/bin.js');
const CORPUS = path.join(ROOT, 'fixtures/bad-input');
const BASE = path.join(CORPUS, '_base');
/** Root ignores file permissions, so an unreadable file is readable to it. */
const IS_ROOT = process.getuid?.() === 0;

/** One expected finding: every given field must match (`messageIncludes` is a substring of the message). */
interface ExpectedFinding {
  ruleId: string;
  file: string;
  line?: number;
  column?: number;
  severity?: 'error' | 'warn';
  messageIncludes?: string;
}

/** The shape of fixtures/bad-input/<case>/expected.json (see fixtures/bad-input/README.md). */
interface Expected {
  description: string;
  /** Copy fixtures/bad-input/_base first (a clean one-command Python project). */
  base: boolean;
  /** Name of a generator below that writes files too large, or too odd, to commit. */
  generate?: string;
  exitCode: number;
  /** Hang guard in wall-clock seconds (generous: the CI machine is shared). */
  maxSeconds: number;
  findings?: ExpectedFinding[];
  /** Findings expected instead of `findings` when the test runs as root. */
  findingsAsRoot?: ExpectedFinding[];
  /** Every finding has one of these rule ids. */
  onlyRules?: string[];
  /** Exact number of findings. */
  count?: number;
  stderrIncludes?: string[];
}

interface JsonResult {
  file: string;
  line: number;
  column: number;
  ruleId: string;
  severity: string;
  message: string;
}

/** Generators for inputs built at test time, by `generate` name; each writes into the project dir. */
const GENERATORS: Record<string, (dir: string) => void> = {
  'large-markdown': (dir) => {
    const para = 'Run `tool` with `+seed=1`; see the [reference](reference.md#tool). Some **bold** prose and a `code` span.\n\n';
    const chunk = para.repeat(Math.ceil((1024 * 1024) / para.length));
    const file = path.join(dir, 'docs/huge.md');
    writeFileSync(file, '# tool\n\n');
    for (let i = 0; i < 50; i++) appendFileSync(file, chunk);
  },
  'large-table': (dir) => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `| \`extra_${i}\` | int | \`${i}\` | Stale row ${i}. |`);
    appendFileSync(path.join(dir, 'docs/reference.md'), `${rows.join('\n')}\n`);
  },
  'deep-nesting': (dir) => {
    writeFileSync(path.join(dir, 'docs/deep-list.md'), `# \`tool\`\n\n${'- '.repeat(5000)}\`seed\`\n`);
    const lines = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- level ${i}`);
    writeFileSync(path.join(dir, 'docs/deep-indent.md'), `# \`tool\`\n\n${lines.join('\n')}\n`);
    writeFileSync(path.join(dir, 'docs/deep-quote.md'), `# \`tool\`\n\n${'> '.repeat(5000)}\`seed\`\n`);
  },
  'symlink-loop': (dir) => {
    symlinkSync('b', path.join(dir, 'a'));
    symlinkSync('a', path.join(dir, 'b'));
    symlinkSync('.', path.join(dir, 'docs/self'));
    symlinkSync('..', path.join(dir, 'docs/parent'));
    symlinkSync('loop.md', path.join(dir, 'docs/loop.md'));
  },
  'unreadable-file': (dir) => {
    const file = path.join(dir, 'docs/secret.md');
    writeFileSync(file, '# tool\n\n```bash\ntool +sed=1\n```\n');
    chmodSync(file, 0o000);
  },
};

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) {
    try {
      chmodSync(path.join(t, 'docs/secret.md'), 0o644);
    } catch {
      // only the unreadable-file case has it
    }
    rmSync(t, { recursive: true, force: true });
  }
});

const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();

describe('bad-input corpus', () => {
  it('has every case the corpus README lists, each with an expected.json', () => {
    const readme = readFileSync(path.join(CORPUS, 'README.md'), 'utf8');
    for (const name of cases) expect(readme).toContain(`\`${name}\``);
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  for (const name of cases) {
    const expected = JSON.parse(readFileSync(path.join(CORPUS, name, 'expected.json'), 'utf8')) as Expected;
    it(`${name}: ${expected.description}`, { timeout: (expected.maxSeconds + 60) * 1000 }, () => {
      const dir = mkdtempSync(path.join(tmpdir(), `docdrift-bad-${name}-`));
      temps.push(dir);
      if (expected.base) cpSync(BASE, dir, { recursive: true });
      cpSync(path.join(CORPUS, name), dir, { recursive: true, filter: (src) => path.basename(src) !== 'expected.json' });
      mkdirSync(path.join(dir, 'docs'), { recursive: true });
      if (expected.generate) {
        const generate = GENERATORS[expected.generate];
        expect(generate, `generator ${expected.generate}`).toBeDefined();
        generate!(dir);
      }
      const started = performance.now();
      const r = spawnSync(process.execPath, [BIN, '--root', dir, '--format', 'json'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        timeout: expected.maxSeconds * 1000,
        maxBuffer: 256 * 1024 * 1024,
      });
      const seconds = (performance.now() - started) / 1000;
      expect(r.error, `spawn error (a timeout means a hang): ${String(r.error)}`).toBeUndefined();
      expect(seconds).toBeLessThan(expected.maxSeconds);
      expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
      expect(r.status, r.stderr).toBe(expected.exitCode);
      for (const s of expected.stderrIncludes ?? []) expect(r.stderr).toContain(s);
      if (expected.exitCode === 2) return;
      const results = (JSON.parse(r.stdout) as { results: JsonResult[] }).results;
      const wanted = IS_ROOT && expected.findingsAsRoot ? expected.findingsAsRoot : expected.findings ?? [];
      for (const f of wanted) {
        const match = results.find((m) =>
          m.ruleId === f.ruleId && m.file === f.file && (f.line === undefined || m.line === f.line) &&
          (f.column === undefined || m.column === f.column) && (f.severity === undefined || m.severity === f.severity) &&
          (f.messageIncludes === undefined || m.message.includes(f.messageIncludes)));
        expect(match, `${JSON.stringify(f)} among ${JSON.stringify(results.slice(0, 10), null, 1)}`).toBeDefined();
      }
      if (expected.onlyRules) for (const m of results) expect(expected.onlyRules).toContain(m.ruleId);
      if (expected.count !== undefined) expect(results).toHaveLength(expected.count);
    });
  }
});
