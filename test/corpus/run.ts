/**
 * `npm run corpus`: runs the built docdrift CLI on each corpus snapshot, compares its findings
 * with the entries' hand-judged expectations (./compare.ts), prints a table per repository and the
 * totals, and checks them against the committed baseline (test/corpus/README.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONFIG_FILES } from '../../src/config/load.js';
import type { JsonCommand, JsonReport, JsonResult } from '../../src/report/json.js';
import { type Baseline, type EntryScore, GUARDED, pct, regressions, type ScoredEntry, scoreEntry, scoreReads, type Totals, totals } from './compare.js';
import { type CorpusEntry, CorpusError, loadEntries } from './schema.js';

const HELP = `Usage: npm run corpus -- --snapshots DIR [--only ID]… [--update] [--json FILE]

Runs the built docdrift CLI (--no-cache --no-baseline --format json) on each corpus snapshot
DIR/<id> twice (with the entry's config, and with an empty config), compares the findings with
the entry's expected and judged findings, prints a table and the totals, and compares the
totals with test/corpus/baseline.json (exit 1 when one fell by more than 0.5 points).

  --snapshots DIR  folder of snapshots made by npm run corpus:fetch (required)
  --only ID        run only this entry (repeatable); the totals are then not compared
  --update         rewrite test/corpus/baseline.json with this run's totals
  --json FILE      also write the full report as JSON
  --repos DIR      entries folder (default test/corpus/repos)
  --timeout S      seconds per docdrift run before it is killed and counted failed (default 300)
  --rescore FILE   take each entry's docdrift runs from FILE (a --json report of an earlier run
                   of the same build) instead of running docdrift, and score them against the
                   entries' current judgements; entries FILE lacks are run as usual
  -h, --help       this help
`;

/** The package root (the folder of docdrift's package.json), from this file in test/corpus or dist/test/corpus. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'docdrift') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the docdrift package root');
    dir = up;
  }
}

/** One docdrift process run. */
export interface RunOutcome {
  /** The findings; empty when the run failed. */
  results: JsonResult[];
  /** The report's `commands` (with `parameterNames`); absent when the run failed or the report has none. */
  commands?: JsonCommand[];
  /** Wall time in ms. */
  ms: number;
  exitCode: number | null;
  /** Why the run counts as failed (timeout, crash, no JSON on stdout); undefined when it did not. */
  failure?: string;
  /** docdrift's stderr (config problems, notes), trimmed. */
  stderr: string;
}

/**
 * Runs `node bin --root root --config <temp file> --no-cache --no-baseline --format json`.
 * The config (`{}` when null, so a docdrift config inside the snapshot is never read) is written
 * to a temporary folder outside the snapshot; config globs resolve against --root, not the config
 * file's folder. Exit codes 0, 1 and 2 with a JSON report on stdout count as a run.
 */
export async function runDocdrift(bin: string, root: string, config: object | null, timeoutMs: number): Promise<RunOutcome> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'docdrift-corpus-'));
  const configFile = path.join(tmp, 'docdrift.config.json');
  writeFileSync(configFile, JSON.stringify(config ?? {}, null, 2));
  const args = [bin, '--root', root, '--config', configFile, '--no-cache', '--no-baseline', '--no-color', '--format', 'json'];
  const started = performance.now();
  try {
    return await new Promise<RunOutcome>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ results: [], ms: performance.now() - started, exitCode: null, failure: `cannot start: ${error.message}`, stderr: '' });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const ms = performance.now() - started;
        const stderr = Buffer.concat(err).toString('utf8').trim();
        if (timedOut) return resolve({ results: [], ms, exitCode: code, failure: `timed out after ${Math.round(timeoutMs / 1000)} s`, stderr });
        const stdout = Buffer.concat(out).toString('utf8');
        let report: JsonReport | undefined;
        try {
          report = JSON.parse(stdout) as JsonReport;
        } catch {
          report = undefined;
        }
        if (!report || !Array.isArray(report.results)) {
          const why = stderr.split('\n').find((l) => l.trim()) ?? 'no output';
          return resolve({ results: [], ms, exitCode: code, failure: `exit ${code}, no JSON report: ${why.slice(0, 200)}`, stderr });
        }
        resolve({ results: report.results, ...(Array.isArray(report.commands) ? { commands: report.commands } : {}), ms, exitCode: code, stderr });
      });
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** One entry's outcome: the two runs, their scores, and what the runner noticed. */
export interface EntryOutcome extends ScoredEntry {
  entry: CorpusEntry;
  configuredRun: RunOutcome;
  /** The same object as `configuredRun` when the entry's config is null. */
  zeroConfigRun: RunOutcome;
  /** Things a reader should know: the snapshot has its own docdrift config, the run changed the snapshot. */
  notes: string[];
}

/** What {@link runCorpus} returns. */
export interface CorpusReport {
  outcomes: EntryOutcome[];
  /** Selected entries without a snapshot folder. */
  missing: string[];
  totals: Totals;
}

/** Options of {@link runCorpus}. */
export interface RunCorpusOptions {
  entries: CorpusEntry[];
  snapshots: string;
  /** Entry ids to run; all when empty/undefined. */
  only?: string[];
  bin: string;
  timeoutMs: number;
  /** Progress lines (to stderr in the CLI). */
  log?: (line: string) => void;
  /**
   * Runs saved by an earlier `--json` report, by entry id (`--rescore`): used instead of running
   * docdrift, so judgements written after a run are scored without a second run of the same build.
   */
  saved?: Map<string, { configuredRun: RunOutcome; zeroConfigRun: RunOutcome }>;
}

function ownConfig(root: string): string | undefined {
  const found = CONFIG_FILES.find((f) => existsSync(path.join(root, f)));
  if (found) return found;
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (pkg && typeof pkg === 'object' && 'docdrift' in pkg) return 'package.json#docdrift';
  } catch {
    // no package.json, or not JSON: nothing to report
  }
  return undefined;
}

function gitStatus(root: string): string | undefined {
  const r = spawnSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=all', '--ignored'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Runs the selected entries whose snapshot `snapshots/<id>` exists, sequentially, and scores them.
 * @throws {Error} when `only` names an unknown id.
 */
export async function runCorpus(options: RunCorpusOptions): Promise<CorpusReport> {
  const byId = new Map(options.entries.map((e) => [e.id, e]));
  const unknown = (options.only ?? []).filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new Error(`--only: no entry has id ${unknown.map((u) => `"${u}"`).join(', ')}`);
  const selected = options.only && options.only.length > 0 ? options.entries.filter((e) => options.only!.includes(e.id)) : options.entries;
  const outcomes: EntryOutcome[] = [];
  const missing: string[] = [];
  for (const entry of selected) {
    const root = path.resolve(options.snapshots, entry.id);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      missing.push(entry.id);
      continue;
    }
    const notes: string[] = [];
    const own = ownConfig(root);
    if (own) notes.push(`the snapshot has its own docdrift config (${own}); both runs pass --config, so it was not read`);
    const before = gitStatus(root);
    const saved = options.saved?.get(entry.id);
    if (saved) notes.push('runs taken from the --rescore report, not run again');
    else options.log?.(`${entry.id}: running docdrift${entry.config ? ' (config, then zero-config)' : ' (zero-config)'}…`);
    const zeroConfigRun = saved ? saved.zeroConfigRun : await runDocdrift(options.bin, root, null, options.timeoutMs);
    const configuredRun = saved ? (entry.config ? saved.configuredRun : zeroConfigRun) : entry.config ? await runDocdrift(options.bin, root, entry.config, options.timeoutMs) : zeroConfigRun;
    const after = gitStatus(root);
    if (before !== undefined && after !== undefined && after !== before) notes.push(`the run changed the snapshot (git status: ${after.split('\n').slice(0, 3).join('; ')})`);
    for (const [label, run] of [['', configuredRun], [' (zero-config)', zeroConfigRun]] as const) {
      if (label && !entry.config) continue;
      const said = run.stderr.split('\n').filter((l) => l.trim());
      if (!run.failure && said.length > 0) notes.push(`docdrift said${label}: ${said[0]!.slice(0, 240)}${said.length > 1 ? ` (+${said.length - 1} lines)` : ''}`);
    }
    const pairExpected = entry.kind === 'after' && entry.pair ? (byId.get(entry.pair)?.expected ?? []) : [];
    const score = (run: RunOutcome): EntryScore => scoreEntry(entry, run.results, pairExpected);
    const failedRuns = (zeroConfigRun.failure ? 1 : 0) + (entry.config && configuredRun.failure ? 1 : 0);
    outcomes.push({
      id: entry.id,
      kind: entry.kind,
      ...(entry.pair ? { pair: entry.pair } : {}),
      entry,
      configuredRun,
      zeroConfigRun,
      configured: score(configuredRun),
      zeroConfig: score(zeroConfigRun),
      failedRuns,
      ...(entry.reads ? { reads: scoreReads(entry.reads, zeroConfigRun.commands) } : {}),
      notes,
    });
  }
  return { outcomes, missing, totals: totals(outcomes) };
}

function describe(f: { ruleId: string; file: string; line: number; data: Record<string, string> }): string {
  const what = [f.data.command && `command ${f.data.command}`, (f.data.name ?? f.data.param ?? f.data.params) && `param ${f.data.name ?? f.data.param ?? f.data.params}`].filter(Boolean).join(', ');
  return `${f.ruleId} ${f.file}:${f.line}${what ? ` (${what})` : ''}`;
}

/** " (command c, param p)" of an expected item, the any ("*" or omitted) parts left out. */
function where(item: { command?: string; param?: string }): string {
  const parts = [item.command && item.command !== '*' && `command ${item.command}`, item.param && item.param !== '*' && `param ${item.param}`].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** The printed report: a row per entry, the details a judge needs (misses, false positives, unjudged findings, leftovers, failures), and the totals. */
export function formatReport(report: CorpusReport): string {
  const lines: string[] = [];
  const rows = [['entry', 'kind', 'cfg', 'found/exp', 'true', 'false', 'unjudged', 'leftovers', '0-cfg found', '0-cfg t/f/u', '0-cfg reads', 'time s']];
  for (const o of report.outcomes) {
    const s = o.configured!;
    const z = o.zeroConfig!;
    const fail = (r: RunOutcome): string => (r.failure ? ' FAIL' : '');
    rows.push([
      o.id,
      o.kind,
      o.entry.config ? 'yes' : 'no',
      `${s.found}/${s.expected}${fail(o.configuredRun)}`,
      String(s.judgedTrue),
      String(s.judgedFalse),
      String(s.unjudged.length),
      o.kind === 'after' ? String(s.leftovers.length) : '-',
      `${z.found}/${z.expected}${o.entry.config ? fail(o.zeroConfigRun) : ''}`,
      `${z.judgedTrue}/${z.judgedFalse}/${z.unjudged.length}`,
      o.reads ? `${o.reads.read}/${o.reads.expected}` : '-',
      ((o.configuredRun.ms + (o.entry.config ? o.zeroConfigRun.ms : 0)) / 1000).toFixed(1),
    ]);
  }
  lines.push(table(rows), '');
  for (const o of report.outcomes) {
    const s = o.configured!;
    const details: string[] = [];
    for (const r of [o.configuredRun, ...(o.entry.config ? [o.zeroConfigRun] : [])]) {
      if (r.failure) details.push(`  FAILED run${r === o.zeroConfigRun && o.entry.config ? ' (zero-config)' : ''}: ${r.failure}`);
    }
    for (const m of s.missed) details.push(`  missed: ${m.ruleId} ${m.file}${where(m)}`);
    for (const fp of s.falsePositives) details.push(`  false: ${describe(fp.finding)} — ${fp.judged.cause}`);
    for (const u of s.unjudged) details.push(`  unjudged: ${describe(u)}: ${(u.message ?? '').split('\n')[0]!.slice(0, 160)}`);
    // The zero-config run's own findings need judging too (the same finding in both runs is listed once).
    if (o.entry.config) {
      const z = o.zeroConfig!;
      const seen = new Set([...s.unjudged, ...s.falsePositives.map((fp) => fp.finding)].map((u) => describe(u)));
      for (const fp of z.falsePositives) if (!seen.has(describe(fp.finding))) details.push(`  false (zero-config): ${describe(fp.finding)} — ${fp.judged.cause}`);
      for (const u of z.unjudged) if (!seen.has(describe(u))) details.push(`  unjudged (zero-config): ${describe(u)}: ${(u.message ?? '').split('\n')[0]!.slice(0, 160)}`);
    }
    for (const l of s.leftovers) details.push(`  leftover: ${l.ruleId} ${l.file}${where(l)}`);
    if (o.reads) {
      for (const c of o.reads.commandsMissing) details.push(`  command missing (zero-config): ${c} (not reported, or its parameters unknown)`);
      for (const m of o.reads.missed) if (!o.reads.commandsMissing.includes(m.command)) details.push(`  not read (zero-config): ${m.command}: ${m.params.join(', ')}`);
      for (const x of o.reads.extra) {
        const shown = x.params.length > 12 ? `${x.params.slice(0, 12).join(', ')}, … (${x.params.length})` : x.params.join(', ');
        details.push(`  also read (zero-config, not in reads): ${x.command}: ${shown}`);
      }
    }
    for (const n of o.notes) details.push(`  note: ${n}`);
    if (details.length > 0) lines.push(`${o.id}:`, ...details);
  }
  if (report.missing.length > 0) lines.push('', `no snapshot, skipped (${report.missing.length}): ${report.missing.join(', ')}`);
  const t = report.totals;
  const c = t.counts;
  lines.push(
    '',
    `entries run: ${t.entries}; failed runs: ${t.failedRuns}`,
    `recall            ${pct(t.recall).padStart(6)}  (${c.found}/${c.expected} expected found, before + precision entries, with config)`,
    `precision         ${pct(t.precision).padStart(6)}  (true positives = expected found in all entries + ${c.judgedTrue} judged true; false = ${c.judgedFalse} judged false + ${c.unjudged} unjudged)`,
    `after-clean       ${pct(t.afterClean).padStart(6)}  (${c.afterClean}/${c.afterEntries} after entries with no leftovers)`,
    `  of pairs whose before run found something: ${c.afterCleanDetected}/${c.afterDetected}`,
    `zero-config recall ${pct(t.zeroConfigRecall).padStart(5)}  (${c.zeroConfigFound}/${c.zeroConfigExpected} with no config)`,
    `zero-config precision ${pct(t.zeroConfigPrecision).padStart(2)}  (${c.zeroConfigTrue} true; ${c.zeroConfigFalse} judged false + ${c.zeroConfigUnjudged} unjudged; not guarded)`,
    `extraction        ${pct(t.extraction).padStart(6)}  (${c.readsRead}/${c.readsExpected} expected parameters read zero-config, ${c.readsCommandsMissing} of ${c.readsCommands} commands missing, entries with "reads")`,
  );
  return lines.join('\n');
}

function readBaseline(file: string): Baseline | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Baseline;
}

/** `npm run corpus` itself. @returns The exit code: 0 fine, 1 regression against the baseline, 2 usage or bad entries. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        snapshots: { type: 'string' },
        only: { type: 'string', multiple: true },
        update: { type: 'boolean' },
        json: { type: 'string' },
        repos: { type: 'string' },
        timeout: { type: 'string' },
        rescore: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`corpus: ${(error as Error).message}\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!values.snapshots) {
    process.stderr.write(`corpus: --snapshots DIR is required (make it with npm run corpus:fetch).\n${HELP}`);
    return 2;
  }
  const timeoutS = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!(timeoutS > 0)) {
    process.stderr.write(`corpus: --timeout takes a positive number of seconds; got "${values.timeout}".\n`);
    return 2;
  }
  const pkg = packageRoot();
  const only = values.only ?? [];
  if (values.update && only.length > 0) {
    process.stderr.write('corpus: --update with --only would record the totals of a subset; run all entries to update the baseline.\n');
    return 2;
  }
  const reposDir = path.resolve(values.repos ?? path.join(pkg, 'test/corpus/repos'));
  let entries: CorpusEntry[];
  try {
    entries = loadEntries(reposDir);
  } catch (error) {
    if (error instanceof CorpusError) {
      process.stderr.write(`corpus: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const bin = path.join(pkg, 'dist/src/bin.js');
  let saved: RunCorpusOptions['saved'];
  if (values.rescore !== undefined) {
    try {
      const data = JSON.parse(readFileSync(values.rescore, 'utf8')) as { entries?: Array<{ id: string; configuredRun: RunOutcome; zeroConfigRun: RunOutcome }> };
      if (!Array.isArray(data.entries)) throw new Error('it has no "entries" array');
      saved = new Map(data.entries.map((e) => [e.id, { configuredRun: e.configuredRun, zeroConfigRun: e.zeroConfigRun }]));
    } catch (error) {
      process.stderr.write(`corpus: --rescore ${values.rescore}: not a --json report of npm run corpus (${(error as Error).message}).\n`);
      return 2;
    }
  }
  let report: CorpusReport;
  try {
    report = await runCorpus({ entries, snapshots: path.resolve(values.snapshots), only, bin, timeoutMs: timeoutS * 1000, log: (l) => process.stderr.write(`${l}\n`), ...(saved ? { saved } : {}) });
  } catch (error) {
    process.stderr.write(`corpus: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`${formatReport(report)}\n`);
  if (values.json) {
    const { outcomes, ...rest } = report;
    const data = { ...rest, entries: outcomes.map(({ entry, ...o }) => ({ ...o, repo: entry.repo, commit: entry.commit, hasConfig: entry.config !== null })) };
    writeFileSync(values.json, `${JSON.stringify(data, null, 2)}\n`);
  }
  const baselineFile = path.join(pkg, 'test/corpus/baseline.json');
  const ran = report.outcomes.map((o) => o.id).sort();
  if (values.update) {
    const t = report.totals;
    const baseline: Baseline = { entries: ran, totals: { recall: t.recall, precision: t.precision, afterClean: t.afterClean, zeroConfigRecall: t.zeroConfigRecall, extraction: t.extraction, failedRuns: t.failedRuns } };
    writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
    process.stdout.write(`\nbaseline written: ${path.relative(process.cwd(), baselineFile)}${report.missing.length > 0 ? ` (WITHOUT the ${report.missing.length} entries that have no snapshot)` : ''}\n`);
    return 0;
  }
  if (only.length > 0) {
    process.stdout.write('\n--only: a subset was run, so the totals are not compared with the baseline.\n');
    return 0;
  }
  const baseline = readBaseline(baselineFile);
  if (!baseline) {
    process.stdout.write('\nno baseline yet (test/corpus/baseline.json); write one with --update.\n');
    return 0;
  }
  const wasRun = new Set(ran);
  const notRun = baseline.entries.filter((id) => !wasRun.has(id));
  const added = ran.filter((id) => !baseline.entries.includes(id));
  if (notRun.length > 0 || added.length > 0) {
    const few = (ids: string[]): string => `${ids.length} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`;
    const diff = [notRun.length > 0 && `not run: ${few(notRun)}`, added.length > 0 && `not in it: ${few(added)}`].filter(Boolean).join('; ');
    process.stdout.write(
      `\nthe totals are not compared with the baseline: it covers other entries (${diff}). Fetch the missing snapshots, or run with --update when entries were added or removed on purpose.\n`,
    );
    return 0;
  }
  const found = regressions(report.totals, baseline);
  if (found.length > 0) {
    process.stdout.write(`\nREGRESSION against test/corpus/baseline.json (tolerance 0.5 points):\n  ${found.join('\n  ')}\n`);
    return 1;
  }
  process.stdout.write(`\nno regression against the baseline (${GUARDED.map((k) => `${k} ${pct(baseline.totals[k])}`).join(', ')}).\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`corpus: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
