/**
 * Where a cold run's CPU time goes (`npm run bench -- --profile`): runs docdrift once under V8's
 * sampling profiler (`node --cpu-prof`, one `.cpuprofile` per thread: the main thread and the
 * document worker) and sums each thread's self time by area of work.
 *
 * Profile format: Chrome DevTools `Profiler.Profile` (nodes with call frames, `samples` and
 * `timeDeltas` in microseconds), https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The part of a `.cpuprofile` this reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
}

/** One thread's self time by area, in milliseconds, largest first. */
export interface ThreadProfile {
  /** `main` or `worker` (the document worker), by start order. */
  thread: string;
  totalMs: number;
  areas: Array<{ area: string; ms: number }>;
}

/**
 * The area a call frame's self time belongs to: docdrift's own stages by source folder, its
 * parsers by package, and the runtime's own work. The first matching rule wins.
 */
const AREAS: Array<[string, (url: string, fn: string) => boolean]> = [
  ['idle (waiting)', (u, f) => f === '(idle)' || (f === 'collect' && u.includes('/docs/bounded-parse.'))],
  ['garbage collection', (_, f) => f === '(garbage collector)'],
  ['tree-sitter (Python parsing, wasm)', (u) => u.startsWith('wasm://') || u.includes('/web-tree-sitter/')],
  ['Python extraction (src/extract/python)', (u) => u.includes('/extract/python/')],
  ['TypeScript (ts-morph, src/extract/typescript)', (u) => u.includes('/extract/typescript/') || u.includes('/ts-morph/') || u.includes('/typescript/')],
  ['Markdown parsing (micromark, mdast)', (u) => /\/node_modules\/(micromark|mdast-util|unist-util|remark|unified|acorn|estree|character-|decode-named|vfile)/.test(u)],
  ['document readers (src/docs)', (u) => u.includes('/src/docs/')],
  ['link, model, rules (src/link, src/model, rules)', (u) => /\/(src\/link|src\/model|rules)\//.test(u)],
  ['engine: discovery, caches, report (src/engine, src/report)', (u) => /\/src\/(engine|report|shared|config)\//.test(u) || u.includes('/picomatch/') || u.includes('/fastest-levenshtein/')],
  ['module loading and start-up', (u) => u.startsWith('node:internal/modules') || u.startsWith('node:internal/bootstrap') || u.includes('cjs-module-lexer')],
  ['YAML, TOML, JSON readers', (u) => /\/node_modules\/(yaml|smol-toml|jsonc-parser|zod)\//.test(u)],
];

/** Self time per area of one profile. */
export function summariseProfile(profile: CpuProfile, thread: string): ThreadProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const ms = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    total += delta;
    const area = frame ? (AREAS.find(([, test]) => test(frame.url, frame.functionName))?.[0] ?? 'other (Node built-ins, I/O)') : 'other (Node built-ins, I/O)';
    ms.set(area, (ms.get(area) ?? 0) + delta);
  });
  return { thread, totalMs: total, areas: [...ms].map(([area, t]) => ({ area, ms: t })).sort((a, b) => b.ms - a.ms) };
}

/**
 * Runs `node --cpu-prof <bin> --root <root> --format json --no-cache` and summarises each
 * thread's profile. Profiling slows the run (~10 %); the figures are shares, not timings.
 *
 * @throws Error when the run writes no profile
 */
export function profileColdRun(bin: string, root: string): ThreadProfile[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docdrift-profile-'));
  try {
    spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, bin, '--root', root, '--format', 'json', '--no-cache'], { cwd: root, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    // File names are CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile: sort by thread id.
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort((a, b) => Number(a.split('.').at(-3)) - Number(b.split('.').at(-3)));
    if (files.length === 0) throw new Error(`no CPU profile was written for ${root}`);
    return files.map((f, i) => summariseProfile(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile, i === 0 ? 'main' : i === 1 ? 'worker' : `worker ${i}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Markdown table of the summaries: thread, area, ms, share of the thread. */
export function profileTable(label: string, threads: ThreadProfile[]): string {
  const rows = [['thread', 'area', 'self ms', 'share']];
  for (const t of threads) {
    rows.push([`${label}: ${t.thread}`, 'total', t.totalMs.toFixed(0), '100 %']);
    for (const a of t.areas.filter((x) => x.ms >= t.totalMs * 0.01)) rows.push(['', a.area, a.ms.toFixed(0), `${((100 * a.ms) / t.totalMs).toFixed(0)} %`]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(rows[0]!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.slice(1).map(line)].join('\n');
}
