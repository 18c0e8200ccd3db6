/**
 * `npm run bench:tables`: the parse cost of large reference tables (issues #33, #35) with the
 * table fast paths (src/docs/table-rows.ts: rows of `parseInPieces`, whole simple tables) on and
 * off, in one process: `parseDoc` (what the document worker runs per page) on a page holding one
 * table of 30,000 rows (~500 KB), on three pages of 10,000 small tables, on twenty pages of one
 * 125 KB table each, and on the Markdown pages of a synthetic
 * NeMo-Gym-sized repository (test/bench/generate.ts), which should not change. Prints the median
 * wall and CPU time of each (CPU: `process.cpuUsage`, user + system, all threads: GC included) and
 * whether the DocFiles are identical both ways.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDoc } from '../../src/docs/parse.js';
import { fastTableRows } from '../../src/docs/segments.js';
import { generateRepo } from './generate.js';

const HELP = `Usage: npm run bench:tables -- [--runs N] [--only TEXT]

  --runs N     timed runs per case and setting (default 3; one untimed warm-up first), alternating on/off
  --only TEXT  only the cases whose name contains TEXT
`;

/** One case: pages to parse, each as (file, text). */
interface Case {
  name: string;
  pages: () => Array<[string, string]>;
}

const ROW = (i: number): string => `| \`p${i}\` | d |\n`;
const tablePage = (rows: number, from = 0): string =>
  `### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n${Array.from({ length: rows }, (_, i) => ROW(from + i)).join('')}`;

/** Rows of {@link ROW} that make about `bytes` of table. */
function rowsFor(bytes: number, from: number): number {
  let rows = 0;
  let length = 0;
  while (length < bytes) length += ROW(from + rows++).length;
  return rows;
}

const cases: Case[] = [
  { name: 'one 30,000-row table (500 KB)', pages: () => [['docs/a.md', tablePage(30_000)]] },
  {
    name: 'three pages of 10,000 small tables (303 KB each; whole-table fast path)',
    pages: () => Array.from({ length: 3 }, (_, p) => [`docs/s${p}.md`, `# x\n\n${'| a | b |\n| - | - |\n| `c` | d |\n\n'.repeat(10_000)}`] as [string, string]),
  },
  { name: 'twenty 125 KB tables (one per page)', pages: () => Array.from({ length: 20 }, (_, p) => [`docs/t${p}.md`, tablePage(rowsFor(125 * 1024, p * 100_000), p * 100_000)] as [string, string]) },
  {
    name: 'NeMo-Gym-like pages (scale 1)',
    pages: () => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'docdrift-bench-tables-'));
      try {
        const repo = generateRepo(root, { scale: 1, git: false });
        return repo.docs.filter((d) => d.endsWith('.md')).map((d) => [d, readFileSync(path.join(root, d), 'utf8')] as [string, string]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  },
];

/** Parses every page once; wall and CPU ms, and the DocFiles as JSON. */
function run(pages: Array<[string, string]>, fast: boolean): { wallMs: number; cpuMs: number; out: string[] } {
  fastTableRows.enabled = fast;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const out = pages.map(([file, text]) => JSON.stringify(parseDoc(file, text)));
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  fastTableRows.enabled = true;
  return { wallMs, cpuMs: (used.user + used.system) / 1000, out };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function main(): number {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const runs = Number(values.runs ?? 3);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(HELP);
    return 2;
  }
  const rows: string[][] = [['case', 'pages', 'KB', 'off wall s', 'off CPU s', 'on wall s', 'on CPU s', 'CPU on/off', 'identical']];
  for (const c of cases.filter((k) => values.only === undefined || k.name.includes(values.only))) {
    const pages = c.pages();
    const kb = pages.reduce((n, [, t]) => n + t.length, 0) / 1024;
    run(pages, false);
    run(pages, true);
    const times = { off: { wall: [] as number[], cpu: [] as number[] }, on: { wall: [] as number[], cpu: [] as number[] } };
    let identical = true;
    for (let r = 0; r < runs; r++) {
      const off = run(pages, false);
      const on = run(pages, true);
      times.off.wall.push(off.wallMs);
      times.off.cpu.push(off.cpuMs);
      times.on.wall.push(on.wallMs);
      times.on.cpu.push(on.cpuMs);
      identical &&= off.out.every((o, i) => o === on.out[i]);
    }
    const s = (ms: number): string => (ms / 1000).toFixed(2);
    const row = [c.name, String(pages.length), kb.toFixed(0), s(median(times.off.wall)), s(median(times.off.cpu)), s(median(times.on.wall)), s(median(times.on.cpu)), (median(times.on.cpu) / median(times.off.cpu)).toFixed(2), identical ? 'yes' : 'NO'];
    rows.push(row);
    process.stderr.write(`${row.join('  ')}\n`);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  process.stdout.write(`${rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n')}\n`);
  return rows.slice(1).every((r) => r.at(-1) === 'yes') ? 0 : 1;
}

process.exitCode = main();
