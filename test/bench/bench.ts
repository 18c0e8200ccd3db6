/** `npm run bench`: times docdrift (cold, warm and incremental when it has a cache) against markdownlint-cli2 and remark-cli on synthetic NeMo-Gym-sized repositories or given ones, and checks the targets of issues #6 and #15. */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { globby } from 'globby';
import { ALWAYS_IGNORED_GLOBS, DEFAULT_CONFIG } from '../../src/config/schema.js';
import { generateRepo } from './generate.js';
import { profileColdRun, profileTable, type ThreadProfile } from './profile.js';

const HELP = `Usage: npm run bench -- [--repo DIR]… [--runs N] [--scales LIST] [--quick] [--with-git-only] [--keep] [--json FILE] [--profile]

Times docdrift against markdownlint-cli2 and remark-cli (remark-gfm, remark-mdx for .mdx,
remark-frontmatter) on the same Markdown/MDX files, alternating tools, and prints medians.
With a cache, also "incremental" runs on a copy of each repository: before each timed run one
file is edited (untimed: a README, a reference page or a Python config file gets a new last
line), so the run re-parses that file and reuses the per-file cache for the rest; the bench then
checks that an incremental run's output equals a cold run's.

  --repo DIR      also benchmark this repository (repeatable); its docs are docdrift's
  --runs N        timed runs per tool and repository (default 5; one untimed warm-up first)
  --scales LIST   synthetic sizes relative to NeMo Gym, comma-separated (default 1,10)
  --quick         smoke mode: scales 0.1,1 and 1 run, unless given
  --no-synthetic  only the --repo repositories
  --with-git-only do not also time a copy of each --repo without its .git folder
  --keep          keep the synthetic repositories (their paths are printed)
  --json FILE     also write the results as JSON
  --profile       also profile one cold run per repository (node --cpu-prof) and print where
                  each thread's CPU time goes, by area (tree-sitter, Markdown parsing, rules, GC…)
  -h, --help      this help
`;

/** One timed process run. */
interface Sample {
  ms: number;
  /** Peak resident set size in MiB, when it could be measured. */
  rssMb?: number;
  exitCode: number;
}

/** One tool's figures on one repository. */
interface ToolResult {
  tool: string;
  medianMs: number;
  minMs: number;
  /** Largest peak RSS over the runs, MiB. */
  peakRssMb?: number;
  runs: number;
  exitCodes: number[];
}

/** Results for one repository. */
interface RepoResult {
  label: string;
  root: string;
  files: number;
  tools: ToolResult[];
  /** Per edited file kind: did an incremental run print exactly what a cold run prints? */
  identical?: Record<string, boolean>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..'); // dist/test/bench → the package root
// What users run: package.json `bin` (the rolldown bundle, dist/cli/docdrift.js), so start-up cost counts as it does for them.
const bin = path.join(repoRoot, (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { bin: { docdrift: string } }).bin.docdrift);
const require = createRequire(import.meta.url);
const binOf = (pkg: string, name: string): string => {
  const manifest = path.join(repoRoot, 'node_modules', pkg, 'package.json'); // not every package exports ./package.json
  const json = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  const rel = typeof json.bin === 'string' ? json.bin : json.bin[name];
  if (!rel) throw new Error(`${pkg} has no bin ${name}`);
  return path.join(path.dirname(manifest), rel);
};

/** `/usr/bin/time -f %M` reports peak RSS in KiB; without it a preload reads `process.resourceUsage()` in each Node child. */
const gnuTime = ['/usr/bin/time', '/bin/time'].find((p) => existsSync(p) && probeGnuTime(p));

function probeGnuTime(p: string): boolean {
  try {
    execFileSync(p, ['-f', '%M', 'true'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Runs `node args…` in `cwd` once and measures wall time and peak RSS (largest of the process tree's Node processes for the fallback). */
async function runOnce(args: string[], cwd: string, scratch: string): Promise<Sample> {
  const rssFile = path.join(scratch, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  let command = process.execPath;
  let argv = args;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  if (gnuTime) {
    command = gnuTime;
    argv = ['-f', '%M', '-o', rssFile, process.execPath, ...args];
  } else {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preloadFile(scratch))}`.trim();
    env.DOCDRIFT_BENCH_RSS = rssFile;
  }
  const start = performance.now();
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== null && code > 1) process.stderr.write(`bench: ${path.basename(args[0] ?? '')} exited ${code} in ${cwd}:\n${stderr}\n`);
      resolve(code ?? -1);
    });
  });
  const ms = performance.now() - start;
  let rssMb: number | undefined;
  if (existsSync(rssFile)) {
    const kib = readFileSync(rssFile, 'utf8').trim().split(/\s+/).map(Number).filter(Number.isFinite);
    if (kib.length > 0) rssMb = Math.max(...kib) / 1024;
    rmSync(rssFile, { force: true });
  }
  return { ms, rssMb, exitCode };
}

let preload: string | undefined;
function preloadFile(scratch: string): string {
  preload ??= (() => {
    const file = path.join(scratch, 'rss-preload.cjs');
    // resourceUsage().maxRSS is in KiB (getrusage(2)); appended so several Node processes add lines.
    writeFileSync(file, "process.on('exit', () => { const f = process.env.DOCDRIFT_BENCH_RSS; if (f) require('fs').appendFileSync(f, process.resourceUsage().maxRSS + '\\n'); });\n");
    return file;
  })();
  return preload;
}

/** A tool run: one or more node invocations whose times add up (remark runs twice: .md without MDX, .mdx with it). */
interface Tool {
  name: string;
  invocations: string[][];
  /** Untimed step before each run (an incremental run's edit). */
  prepare?: () => void;
  /** Working directory, when not the repository's root (incremental runs use a copy). */
  cwd?: string;
}

async function runTool(tool: Tool, root: string, scratch: string): Promise<Sample> {
  tool.prepare?.();
  const cwd = tool.cwd ?? root;
  let ms = 0;
  let rssMb: number | undefined;
  let exitCode = 0;
  for (const args of tool.invocations) {
    const s = await runOnce(args, cwd, scratch);
    ms += s.ms;
    if (s.rssMb !== undefined) rssMb = Math.max(rssMb ?? 0, s.rssMb);
    exitCode = Math.max(exitCode, s.exitCode);
  }
  return { ms, rssMb, exitCode };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The docdrift options its `--help` offers, to find a cache switch another branch may add. */
function docdriftHelp(): string {
  try {
    return execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

/** The Markdown/MDX files docdrift reads in `root` (its default `docs` globs, `.gitignore` and always-ignored folders honoured). */
async function docFiles(root: string): Promise<string[]> {
  const files = await globby(DEFAULT_CONFIG.docs, { cwd: root, gitignore: true, ignore: [...ALWAYS_IGNORED_GLOBS], onlyFiles: true, followSymbolicLinks: false });
  return files.sort();
}

async function benchRepo(label: string, root: string, runs: number, scratch: string, cache: { on?: string; off?: string }): Promise<RepoResult> {
  const files = await docFiles(root);
  const md = files.filter((f) => !f.endsWith('.mdx'));
  const mdx = files.filter((f) => f.endsWith('.mdx'));
  // One file list for both peers, so each reads exactly docdrift's documents (`:` = literal path).
  const listFile = path.join(scratch, `${label.replace(/\W+/g, '_')}-files.txt`);
  writeFileSync(listFile, files.join('\n'));
  const markdownlint = binOf('markdownlint-cli2', 'markdownlint-cli2');
  const remark = binOf('remark-cli', 'remark');
  const remarkArgs = (mdxToo: boolean, list: string[]): string[] => [
    remark, '--no-config', '--no-ignore', '--quiet', '--no-stdout', '--no-color',
    // Absolute plugin paths: the repository being read has no node_modules of its own.
    '--use', require.resolve('remark-gfm'), '--use', require.resolve('remark-frontmatter'), ...(mdxToo ? ['--use', require.resolve('remark-mdx')] : []), ...list,
  ];
  const docdriftArgs = [bin, '--root', root, '--format', 'json', ...(cache.off ? [cache.off] : [])];
  const tools: Tool[] = [
    { name: 'docdrift cold', invocations: [docdriftArgs] },
    { name: 'markdownlint-cli2', invocations: [[markdownlint, ...files.map((f) => `:${f}`)]] },
    {
      name: 'remark-cli',
      invocations: [...(md.length > 0 ? [remarkArgs(false, md)] : []), ...(mdx.length > 0 ? [remarkArgs(true, mdx)] : [])],
    },
  ];
  const incremental = cache.on ? incrementalTools(label, root, files, scratch, cache.on) : undefined;
  if (cache.on) {
    // The cache goes to the scratch directory, never into the repository being measured.
    tools.push({ name: 'docdrift warm', invocations: [[bin, '--root', root, '--format', 'json', cache.on, '--cache-location', path.join(scratch, `${label.replace(/\W+/g, '_')}-warm-cache`)]] });
    tools.push(...(incremental?.tools ?? []));
  }
  const samples = new Map<string, Sample[]>(tools.map((t) => [t.name, []]));
  // Warm-up (untimed): fills the page cache for everyone and, with a cache, docdrift's cache.
  for (const tool of tools) await runTool(tool, root, scratch);
  for (let r = 0; r < runs; r++) {
    // Alternate and rotate the order, so load from other processes falls on every tool alike.
    const order = tools.map((_, i) => tools[(i + r) % tools.length]!);
    for (const tool of order) {
      const s = await runTool(tool, root, scratch);
      samples.get(tool.name)!.push(s);
      process.stderr.write('.');
    }
  }
  process.stderr.write('\n');
  return {
    label,
    root,
    files: files.length,
    identical: incremental?.identical(),
    tools: tools.map((t) => {
      const list = samples.get(t.name)!;
      const rss = list.flatMap((s) => (s.rssMb === undefined ? [] : [s.rssMb]));
      return {
        tool: t.name,
        medianMs: median(list.map((s) => s.ms)),
        minMs: Math.min(...list.map((s) => s.ms)),
        peakRssMb: rss.length > 0 ? Math.max(...rss) : undefined,
        runs: list.length,
        exitCodes: [...new Set(list.map((s) => s.exitCode))],
      };
    }),
  };
}

/** The files an incremental run edits: a README, a reference page, a Python config file (those that exist). */
function editTargets(root: string, docs: string[]): Array<{ kind: string; file: string; line: (n: number) => string }> {
  const out: Array<{ kind: string; file: string; line: (n: number) => string }> = [];
  const readme = docs.find((f) => f === 'README.md') ?? docs.find((f) => /(^|\/)README\.md$/i.test(f));
  if (readme) out.push({ kind: 'README', file: readme, line: (n) => `\nBench edit ${n}.\n` });
  const reference = docs.find((f) => /(^|\/)reference\//.test(f)) ?? docs.find((f) => f.endsWith('.mdx'));
  if (reference && reference !== readme) out.push({ kind: 'reference', file: reference, line: (n) => `\nBench edit ${n}.\n` });
  let python: string | undefined;
  try {
    const listed = spawnSync('git', ['ls-files', '*.py'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const pys = (listed.status === 0 ? listed.stdout.split('\n') : []).filter(Boolean).sort();
    python = pys.find((f) => /^class \w+\((?:\w+\.)?BaseModel\)/m.test(readFileSync(path.join(root, f), 'utf8')));
  } catch {
    python = undefined;
  }
  if (python) out.push({ kind: 'Python config', file: python, line: (n) => `\n# bench edit ${n}\n` });
  return out;
}

/**
 * Tools that time docdrift after one edited file, on a copy of `root` with its own cache
 * directory, and a check (run after the timed runs) that an incremental run's output equals a
 * cold run's.
 */
function incrementalTools(label: string, root: string, docs: string[], scratch: string, cacheOn: string): { tools: Tool[]; identical: () => Record<string, boolean> } {
  const slug = label.replace(/\W+/g, '_');
  const copy = path.join(scratch, `${slug}-incremental`);
  const cacheDir = path.join(scratch, `${slug}-incremental-cache`);
  cpSync(root, copy, { recursive: true, filter: (src) => !/[\\/](\.docdrift-cache|node_modules)$/.test(src) });
  const targets = editTargets(copy, docs);
  let edits = 0;
  const edit = (t: (typeof targets)[number]) => appendFileSync(path.join(copy, t.file), t.line(++edits));
  const args = (more: string[]) => [bin, '--root', copy, '--format', 'json', ...more];
  const tools = targets.map((t) => ({
    name: `docdrift incremental (${t.kind})`,
    invocations: [args([cacheOn, '--cache-location', cacheDir])],
    prepare: () => edit(t),
    cwd: copy,
  }));
  const identical = (): Record<string, boolean> => {
    const out: Record<string, boolean> = {};
    for (const t of targets) {
      edit(t);
      const inc = spawnSync(process.execPath, args([cacheOn, '--cache-location', cacheDir]), { cwd: copy, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      const cold = spawnSync(process.execPath, args(['--no-cache']), { cwd: copy, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      out[t.kind] = inc.stdout === cold.stdout && inc.status === cold.status && inc.stdout.length > 0;
    }
    return out;
  };
  return { tools, identical };
}

/** One target of issues #6, #15 and #35 and whether it was met. */
interface Check {
  target: string;
  value: string;
  pass: boolean | undefined;
}

function checks(results: RepoResult[], scales: number[]): Check[] {
  const out: Check[] = [];
  const find = (r: RepoResult, tool: string) => r.tools.find((t) => t.tool === tool);
  for (const r of results) {
    const cold = find(r, 'docdrift cold');
    const peer = find(r, 'markdownlint-cli2');
    const warm = find(r, 'docdrift warm');
    if (cold && peer) {
      const ratio = cold.medianMs / peer.medianMs;
      // #35: ≤ 0.5× on a real repository (with and without git); ≤ 0.6× on the synthetic ones.
      const limit = r.label.startsWith('synthetic ') ? 0.6 : 0.5;
      out.push({ target: `${r.label}: cold ≤ ${limit}× markdownlint-cli2`, value: `${ratio.toFixed(2)}×`, pass: ratio <= limit });
    }
    for (const t of r.tools.filter((t) => t.tool.startsWith('docdrift incremental'))) {
      if (!peer) continue;
      const ratio = t.medianMs / peer.medianMs;
      out.push({ target: `${r.label}: ${t.tool.replace('docdrift ', '')} ≤ 0.2× markdownlint-cli2 (full run)`, value: `${ratio.toFixed(2)}×`, pass: ratio <= 0.2 });
    }
    for (const [kind, same] of Object.entries(r.identical ?? {})) {
      out.push({ target: `${r.label}: incremental output after a ${kind} edit identical to a cold run`, value: same ? 'identical' : 'differs', pass: same });
    }
    out.push(
      warm && peer
        ? { target: `${r.label}: warm ≤ 0.1× markdownlint-cli2`, value: `${(warm.medianMs / peer.medianMs).toFixed(2)}×`, pass: warm.medianMs / peer.medianMs <= 0.1 }
        : { target: `${r.label}: warm ≤ 0.1× markdownlint-cli2`, value: 'n/a (no --cache option)', pass: undefined },
    );
  }
  const synthetic = results.filter((r) => r.label.startsWith('synthetic '));
  if (synthetic.length >= 2 && scales.length >= 2) {
    const small = synthetic[0]!;
    const big = synthetic[synthetic.length - 1]!;
    const factor = scales[scales.length - 1]! / scales[0]!;
    const a = find(small, 'docdrift cold')!.medianMs;
    const b = find(big, 'docdrift cold')!.medianMs;
    const limit = factor * 1.1;
    out.push({ target: `${big.label} ≤ ${limit.toFixed(1)}× ${small.label} (docdrift cold)`, value: `${(b / a).toFixed(2)}×`, pass: b / a <= limit });
    const rss = find(big, 'docdrift cold')!.peakRssMb;
    out.push({ target: `${big.label}: docdrift peak RSS ≤ 400 MB`, value: rss === undefined ? 'n/a' : `${rss.toFixed(0)} MB`, pass: rss === undefined ? undefined : rss <= 400 });
  }
  return out;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(rows[0]!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.slice(1).map(line)].join('\n');
}

function report(results: RepoResult[], list: Check[]): string {
  const rows: string[][] = [['repository (docs)', 'tool', 'median ms', 'min ms', 'vs markdownlint-cli2', 'vs remark-cli', 'peak RSS MB', 'ms/file']];
  for (const r of results) {
    const ml = r.tools.find((t) => t.tool === 'markdownlint-cli2')!.medianMs;
    const rm = r.tools.find((t) => t.tool === 'remark-cli')!.medianMs;
    for (const t of r.tools) {
      rows.push([
        `${r.label} (${r.files})`, t.tool, t.medianMs.toFixed(0), t.minMs.toFixed(0), `${(t.medianMs / ml).toFixed(2)}×`, `${(t.medianMs / rm).toFixed(2)}×`,
        t.peakRssMb === undefined ? 'n/a' : t.peakRssMb.toFixed(0), (t.medianMs / Math.max(1, r.files)).toFixed(2),
      ]);
    }
  }
  const targets = [['target', 'measured', 'result'], ...list.map((c) => [c.target, c.value, c.pass === undefined ? 'n/a' : c.pass ? 'pass' : 'FAIL'])];
  return `${table(rows)}\n\n${table(targets)}\n`;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        repo: { type: 'string', multiple: true, default: [] },
        runs: { type: 'string' },
        scales: { type: 'string' },
        quick: { type: 'boolean', default: false },
        'no-synthetic': { type: 'boolean', default: false },
        'with-git-only': { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        json: { type: 'string' },
        profile: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const runs = Number(values.runs ?? (values.quick ? 1 : 5));
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`bench: --runs must be a positive integer, got "${values.runs}"\n`);
    return 2;
  }
  const scales = (values.scales ?? (values.quick ? '0.1,1' : '1,10')).split(',').map(Number);
  if (scales.some((s) => !(s > 0))) {
    process.stderr.write(`bench: --scales must be positive numbers separated by commas, got "${values.scales}"\n`);
    return 2;
  }
  for (const repo of values.repo) {
    if (!existsSync(repo)) {
      process.stderr.write(`bench: --repo ${repo}: no such directory\n`);
      return 2;
    }
  }
  if (!existsSync(bin)) {
    process.stderr.write(`bench: ${bin} is missing; run npm run build first\n`);
    return 2;
  }
  const help = docdriftHelp();
  const cache = { on: /--cache\b/.test(help) ? '--cache' : undefined, off: /--no-cache\b/.test(help) ? '--no-cache' : undefined };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'docdrift-bench-'));
  const results: RepoResult[] = [];
  try {
    if (!values['no-synthetic']) {
      for (const scale of scales) {
        const root = path.join(scratch, `synthetic-${scale}x`);
        const t = performance.now();
        const repo = generateRepo(root, { scale, seed: 1 });
        process.stderr.write(`bench: synthetic ${scale}× in ${root}: ${repo.docs.length} docs, ${repo.pythonFiles} Python, ${repo.typescriptFiles} TypeScript files (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
        results.push(await benchRepo(`synthetic ${scale}×`, root, runs, scratch, cache));
      }
    }
    for (const repo of values.repo) {
      const root = path.resolve(repo);
      results.push(await benchRepo(path.basename(root), root, runs, scratch, cache));
      // A tarball, a container build context or an exported tree has no .git: discovery then
      // walks the tree itself (#35). The same repository is timed again as such a copy.
      if (values['with-git-only'] || !existsSync(path.join(root, '.git'))) continue;
      const copy = path.join(scratch, `${path.basename(root)}-no-git`);
      cpSync(root, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== path.join(root, '.git') });
      results.push(await benchRepo(`${path.basename(root)} (no git)`, copy, runs, scratch, cache));
    }
    const list = checks(results, values['no-synthetic'] ? [] : scales);
    process.stdout.write(`\ndocdrift bench: ${runs} run(s) per tool, medians; node ${process.version}, ${os.cpus().length} CPU(s), load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; RSS via ${gnuTime ? gnuTime : 'process.resourceUsage()'}\n\n`);
    process.stdout.write(report(results, list));
    let profiles: Array<{ label: string; threads: ThreadProfile[] }> = [];
    if (values.profile) {
      // One profiled cold run per repository (the smallest synthetic scale and each --repo).
      const profiled = results.filter((r, i) => !r.label.startsWith('synthetic ') || i === 0);
      // The unbundled modules (tsc's dist/src), not the bundle: areas are told apart by module
      // path, and the bundle inlines node_modules into chunks. The work done is the same.
      const unbundled = path.join(repoRoot, 'dist', 'src', 'bin.js');
      profiles = profiled.map((r) => ({ label: r.label, threads: profileColdRun(unbundled, r.root) }));
      process.stdout.write(`\nWhere a cold run's CPU time goes (node --cpu-prof, self time by area; profiling adds ~10 %):\n\n`);
      for (const p of profiles) process.stdout.write(`${profileTable(p.label, p.threads)}\n\n`);
    }
    if (values.json) writeFileSync(values.json, JSON.stringify({ runs, scales, results, checks: list, ...(values.profile ? { profiles } : {}) }, null, 2) + '\n');
    return 0;
  } finally {
    if (values.keep) process.stderr.write(`bench: kept ${scratch}\n`);
    else {
      // A failed removal must not hide the error that ended the bench, if one did.
      try {
        rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
      } catch (error) {
        process.stderr.write(`bench: could not remove ${scratch}: ${(error as Error).message}\n`);
      }
    }
  }
}

process.exitCode = await main();
