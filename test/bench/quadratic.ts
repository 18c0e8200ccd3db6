/**
 * `npm run bench:quadratic`: the inputs of issue #18 item 3 that once took quadratic time or
 * memory in docdrift's own code — `--fix` removing N stale rows (`fixRemove`) and adding N
 * missing rows, N missing rows beside N unknown ones (each row's fix), N section headings in one page (`sectionsOfDoc`), and an N-class inheritance
 * chain — timed at each size, with peak RSS. `--before BIN` also times another build (e.g. main's
 * `dist/src/bin.js`) on the same inputs, so the figures print side by side. Doubling N should
 * double the time of a linear path (the ratio column), not quadruple it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HELP = `Usage: npm run bench:quadratic -- [--sizes LIST] [--before BIN] [--only TEXT] [--timeout S] [--keep]

  --sizes LIST   N for every case, comma-separated (default 2000,4000)
  --before BIN   also time this docdrift bin.js (an older build) on the same inputs
  --timeout S    give up on one run after S seconds (default 300); shown as "> S s"
  --only TEXT    only the cases whose name contains TEXT
  --keep         keep the generated projects (their paths are printed)
`;

const here = path.dirname(fileURLToPath(import.meta.url));
const after = path.resolve(here, '../../src/bin.js'); // dist/test/bench → dist/src/bin.js
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** A generated project and the CLI arguments of the case. */
interface Case {
  name: string;
  args: string[];
  make: (root: string, n: number) => void;
}

const PYPROJECT = '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "pkg.main:main"\n';

/** A one-command project: `pkg/main.py` holds `classes` (Python source) and `main()` builds `config`. */
function pythonProject(root: string, classes: string, config: string, doc: string, docdrift?: unknown): void {
  mkdirSync(path.join(root, 'pkg'), { recursive: true });
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'pyproject.toml'), PYPROJECT);
  writeFileSync(path.join(root, 'pkg/__init__.py'), '');
  writeFileSync(path.join(root, 'pkg/main.py'), `from pydantic import BaseModel, Field\n\n\n${classes}\n\ndef main() -> None:\n    ${config}.model_validate({})\n`);
  writeFileSync(path.join(root, 'docs/cli.md'), doc);
  if (docdrift !== undefined) writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify(docdrift));
}

const TABLE_HEAD = '| Name | Type | Description |\n|---|---|---|\n';

const cases: Case[] = [
  {
    name: '--fix removes N stale rows (fixRemove)',
    args: ['--fix', '--no-cache'],
    make: (root, n) => {
      const rows = Array.from({ length: n }, (_, i) => `| \`stale_${i}\` | int | Gone ${i}. |\n`).join('');
      pythonProject(root, 'class ToolConfig(BaseModel):\n    alpha: int = Field(default=1, description="First.")\n', 'ToolConfig',
        `# CLI\n\n### \`tool\`\n\n${TABLE_HEAD}| \`alpha\` | int | First. Default: \`1\`. |\n${rows}`,
        { rules: { 'reference-param-unknown': ['error', { fixRemove: true }] } });
    },
  },
  {
    name: '--fix adds N missing rows',
    args: ['--fix', '--no-cache'],
    make: (root, n) => {
      const fields = Array.from({ length: n }, (_, i) => `    f_${i}: int = Field(default=${i}, description="Field ${i}.")\n`).join('');
      pythonProject(root, `class ToolConfig(BaseModel):\n${fields}`, 'ToolConfig', `# CLI\n\n### \`tool\`\n\n${TABLE_HEAD}| \`f_0\` | int | Field 0. Default: \`0\`. |\n`);
    },
  },
  {
    // s25 sweep D9: every missing row's fix scanned the whole table (12-15 s of rules for 14,000).
    name: 'N missing rows beside N unknown rows (plain run)',
    args: ['--no-cache'],
    make: (root, n) => {
      const fields = Array.from({ length: n }, (_, i) => `    field_${i}_x: int = Field(default=0, description="F.")\n`).join('');
      const rows = Array.from({ length: n }, (_, i) => `| \`x_${i}_dleif\` | int | \`0\` | F. |\n`).join('');
      pythonProject(root, `class ToolConfig(BaseModel):\n${fields}`, 'ToolConfig', `# CLI\n\n### \`tool\`\n\n| Name | Type | Default | Description |\n|---|---|---|---|\n${rows}`);
    },
  },
  {
    // Headings that open sections, most without rows: cheap to parse, so sectionsOfDoc shows.
    name: 'N section headings in one page',
    args: ['--no-cache'],
    make: (root, n) => {
      const sections = Array.from({ length: n }, (_, i) => `## \`tool\` part ${i}\n\nText.\n\n`).join('') + `## \`tool\`\n\n${TABLE_HEAD}| \`alpha\` | int | First. Default: \`1\`. |\n`;
      pythonProject(root, 'class ToolConfig(BaseModel):\n    alpha: int = Field(default=1, description="First.")\n', 'ToolConfig', `# CLI\n\n${sections}`);
    },
  },
  {
    name: 'N-class inheritance chain',
    args: ['--no-cache'],
    make: (root, n) => {
      const chain = ['class C0(BaseModel):\n    alpha: int = Field(default=1, description="First.")\n'];
      for (let i = 1; i < n; i++) chain.push(`class C${i}(C${i - 1}):\n    pass\n`);
      pythonProject(root, chain.join('\n'), `C${n - 1}`, `# CLI\n\n### \`tool\`\n\n${TABLE_HEAD}| \`alpha\` | int | First. Default: \`1\`. |\n`);
    },
  },
];

/** One run: wall time in ms and peak RSS in MiB, or `undefined` ms after the timeout. */
function timeRun(bin: string, root: string, args: string[], timeoutS: number): { ms?: number; rssMb?: number; code: number | null } {
  const rssFile = path.join(os.tmpdir(), `docdrift-quadratic-rss-${process.pid}`);
  const argv = [bin, '--root', root, '--format', 'json', ...args];
  const start = performance.now();
  const r = gnuTime
    ? spawnSync(gnuTime, ['-f', '%M', '-o', rssFile, process.execPath, ...argv], { stdio: 'ignore', timeout: timeoutS * 1000 })
    : spawnSync(process.execPath, argv, { stdio: 'ignore', timeout: timeoutS * 1000 });
  const ms = performance.now() - start;
  let rssMb: number | undefined;
  if (existsSync(rssFile)) {
    const kib = Number(readFileSync(rssFile, 'utf8').trim().split(/\s+/).pop());
    if (Number.isFinite(kib)) rssMb = kib / 1024;
    rmSync(rssFile, { force: true });
  }
  return { ms: r.error ? undefined : ms, rssMb, code: r.status };
}

function main(): number {
  const { values } = parseArgs({
    options: { sizes: { type: 'string' }, before: { type: 'string' }, only: { type: 'string' }, timeout: { type: 'string' }, keep: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const sizes = (values.sizes ?? '2000,4000').split(',').map(Number);
  const timeoutS = Number(values.timeout ?? 300);
  if (sizes.some((n) => !Number.isInteger(n) || n < 2) || !Number.isFinite(timeoutS)) {
    process.stderr.write(HELP);
    return 2;
  }
  const bins: Array<[string, string]> = [...(values.before ? [['before', path.resolve(values.before)] as [string, string]] : []), ['after', after]];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'docdrift-quadratic-'));
  const rows: string[][] = [['case', 'N', ...bins.flatMap(([label]) => [`${label} s`, `${label} MiB`, `${label} ×prev`])]];
  for (const c of cases.filter((k) => values.only === undefined || k.name.includes(values.only))) {
    const previous = new Map<string, number>();
    for (const n of sizes) {
      const row = [c.name, String(n)];
      for (const [label, bin] of bins) {
        // A fresh project per run: --fix edits it.
        const root = path.join(scratch, `${c.name.replace(/\W+/g, '-')}-${n}-${label}`);
        c.make(root, n);
        const t = timeRun(bin, root, c.args, timeoutS);
        const s = t.ms === undefined ? undefined : t.ms / 1000;
        const prev = previous.get(label);
        row.push(s === undefined ? `> ${timeoutS}` : s.toFixed(2), t.rssMb === undefined || s === undefined ? '?' : t.rssMb.toFixed(0), s !== undefined && prev ? (s / prev).toFixed(1) : '');
        if (s !== undefined) previous.set(label, s);
        if (t.code !== null && t.code > 1) process.stderr.write(`bench: ${label} exited ${t.code} on ${root}\n`);
        if (!values.keep) rmSync(root, { recursive: true, force: true });
      }
      rows.push(row);
      process.stderr.write(`${row.join('  ')}\n`);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  process.stdout.write(`${rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n')}\n`);
  if (values.keep) process.stdout.write(`projects kept in ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
  return 0;
}

process.exitCode = main();
