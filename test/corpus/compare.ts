/**
 * Pure comparison of docdrift's `--format json` results with a corpus entry's hand-judged
 * expectations (test/corpus/README.md, "Matching" and "Metrics"). No I/O.
 */
import picomatch from 'picomatch';
import type { JsonCommand, JsonResult } from '../../src/report/json.js';
import type { CorpusEntry, ExpectedFinding, JudgedFinding } from './schema.js';

/** The finding fields matching reads (a {@link JsonResult} has them all). */
export type Finding = Pick<JsonResult, 'file' | 'line' | 'ruleId' | 'data'> & Partial<Pick<JsonResult, 'message' | 'column'>>;

/** Strips the leading `-`, `--`, `+`, `++`, `~` of a parameter as written (`--reload-dir` → `reload-dir`); case, `-` and `_` are kept. */
export function normaliseParam(param: string): string {
  return param.replace(/^[-+~]+/, '');
}

/**
 * The parameter names a finding is about: `data.name`, else `data.param`, else each backquoted
 * name in `data.params`. A finding about one spelling of a row's flag (`--skip-type-check`
 * documented for `-c`) is about `data.flag` as well as the row's `data.name`.
 */
export function paramsOf(finding: Finding): string[] {
  const d = finding.data ?? {};
  if (d.name !== undefined) return d.flag !== undefined && d.flag !== d.name ? [d.name, d.flag] : [d.name];
  if (d.param !== undefined) return [d.param];
  if (d.params !== undefined) return [...d.params.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return [];
}

/**
 * The commands of a finding that names several (`data.uses`: `` `a`, `b` to `tool x`; `c` to
 * `tool y` ``), each with its backquoted parameters; one group or none otherwise.
 */
export function commandGroupsOf(finding: Finding): Array<{ command: string; params: string }> {
  const uses = finding.data?.uses;
  if (uses === undefined) return [];
  const out: Array<{ command: string; params: string }> = [];
  for (const part of uses.split('; ')) {
    const m = /^(.*) to `([^`]+)`$/.exec(part);
    if (m) out.push({ params: m[1]!, command: m[2]! });
  }
  return out;
}

const globCache = new Map<string, (s: string) => boolean>();
function glob(pattern: string): (s: string) => boolean {
  let m = globCache.get(pattern);
  if (!m) globCache.set(pattern, (m = picomatch(pattern, { dot: true })));
  return m;
}

const isAny = (v: string | undefined): boolean => v === undefined || v === '*';

/**
 * Whether two command names name the same program: equal, or one is a script path whose last
 * segments are the other (`alpaca-lora/finetune.py` and `finetune.py`: a zero-config run names a
 * script by its path from the root, a person or a config by its file name).
 */
export function sameCommand(expected: string, found: string | undefined): boolean {
  if (found === undefined) return false;
  if (expected === found) return true;
  const [long, short] = expected.length > found.length ? [expected, found] : [found, expected];
  return short !== '' && !short.includes(' ') && !long.includes(' ') && long.endsWith(`/${short}`);
}

/**
 * Whether `finding` is the one `item` describes: same rule id; same file (or, when `fileGlob`,
 * a picomatch match); `command` the same as `data.command` ({@link sameCommand}) unless any; `param` equal after
 * {@link normaliseParam} to one of {@link paramsOf} unless any.
 */
export function matches(item: Pick<ExpectedFinding, 'ruleId' | 'file' | 'command' | 'param'>, finding: Finding, fileGlob: boolean): boolean {
  if (item.ruleId !== finding.ruleId) return false;
  if (item.file !== finding.file && !(fileGlob && glob(item.file)(finding.file))) return false;
  // A finding about several commands (`example-param-unexplained`, one per document) matches
  // when one of its commands, with one of that command's parameters, does.
  const groups = commandGroupsOf(finding);
  if (groups.length > 1) return groups.some((g) => matches(item, { ...finding, data: { command: g.command, params: g.params } }, fileGlob));
  if (!isAny(item.command) && !sameCommand(item.command!, finding.data?.command)) return false;
  if (!isAny(item.command) && !sameCommand(item.command!, finding.data?.command)) return false;
  if (!isAny(item.param)) {
    const want = normaliseParam(item.param!);
    if (!paramsOf(finding).some((p) => normaliseParam(p) === want)) return false;
  }
  return true;
}

/** How one reported finding was classified. */
export type Verdict = 'expected' | 'true' | 'false' | 'unjudged';

/** One run's comparison with its entry. */
export interface EntryScore {
  /** `entry.expected.length`. */
  expected: number;
  /** Expected items matched by at least one finding. */
  found: number;
  missed: ExpectedFinding[];
  /** Findings matching no expected item whose first matching `judged` item says "true" / "false". */
  judgedTrue: number;
  judgedFalse: number;
  /** The false positives with the judged item (hence its cause) that classified them. */
  falsePositives: Array<{ finding: Finding; judged: JudgedFinding }>;
  /** Findings matching neither an expected nor a judged item: they need a verdict. */
  unjudged: Finding[];
  /** "after" entries only: the pair's expected items some finding still matches. */
  leftovers: ExpectedFinding[];
  /** Per finding, in input order. */
  verdicts: Verdict[];
}

/**
 * Compares one run's findings with `entry`.
 * @param pairExpected For an "after" entry, its "before" twin's `expected` (leftovers are looked for among them).
 */
export function scoreEntry(entry: Pick<CorpusEntry, 'expected' | 'judged'>, findings: readonly Finding[], pairExpected: readonly ExpectedFinding[] = []): EntryScore {
  const missed = entry.expected.filter((item) => !findings.some((f) => matches(item, f, false)));
  const score: EntryScore = {
    expected: entry.expected.length,
    found: entry.expected.length - missed.length,
    missed,
    judgedTrue: 0,
    judgedFalse: 0,
    falsePositives: [],
    unjudged: [],
    leftovers: pairExpected.filter((item) => findings.some((f) => matches(item, f, false))),
    verdicts: [],
  };
  for (const f of findings) {
    if (entry.expected.some((item) => matches(item, f, false))) {
      score.verdicts.push('expected');
      continue;
    }
    const judged = entry.judged.find((j) => matches(j, f, true));
    if (!judged) {
      score.unjudged.push(f);
      score.verdicts.push('unjudged');
    } else if (judged.verdict === 'true') {
      score.judgedTrue++;
      score.verdicts.push('true');
    } else {
      score.judgedFalse++;
      score.falsePositives.push({ finding: f, judged });
      score.verdicts.push('false');
    }
  }
  return score;
}

/** How much of an entry's `reads` one run extracted. */
export interface ReadsScore {
  /** Parameter names listed in `reads`, over all its commands. */
  expected: number;
  /** Of those, the names the run extracted (in `parameterNames` of the command). */
  read: number;
  /** Commands listed in `reads`. */
  commands: number;
  /** Per command with a miss: the names the run did not extract, in the entry's order. */
  missed: Array<{ command: string; params: string[] }>;
  /** Commands of `reads` the run did not report, or reported with unknown parameters: all their names are missed. */
  commandsMissing: string[];
  /**
   * Per command of `reads` found: the names the run extracted that `reads` does not list (a field
   * of a config type merged into a CLI, a spelling other than the one written). Printed, not counted.
   */
  extra: Array<{ command: string; params: string[] }>;
}

/**
 * Compares an entry's `reads` (command → parameter names) with a run's JSON `commands`. A command
 * is found by its name or an alias ({@link sameCommand}) among those with `paramsKnown`; a name is
 * read when it equals one of the command's `parameterNames` after {@link normaliseParam}.
 * @param commands The report's `commands`; undefined (a failed run) = none.
 */
export function scoreReads(reads: Readonly<Record<string, readonly string[]>>, commands: readonly JsonCommand[] | undefined): ReadsScore {
  const score: ReadsScore = { expected: 0, read: 0, commands: 0, missed: [], commandsMissing: [], extra: [] };
  for (const [command, params] of Object.entries(reads)) {
    score.commands++;
    score.expected += params.length;
    const found = (commands ?? []).find((c) => c.paramsKnown && [c.name, ...c.aliases].some((n) => sameCommand(command, n)));
    if (!found) score.commandsMissing.push(command);
    const names = new Set((found?.parameterNames ?? []).map(normaliseParam));
    const missed = params.filter((p) => !names.has(normaliseParam(p)));
    score.read += params.length - missed.length;
    if (missed.length > 0) score.missed.push({ command, params: missed });
    const listed = new Set(params.map(normaliseParam));
    const extra = (found?.parameterNames ?? []).filter((n) => !listed.has(normaliseParam(n)));
    if (extra.length > 0) score.extra.push({ command, params: extra });
  }
  return score;
}

/** What the totals are computed from: one entry's kind and its two runs' scores (undefined = not run). */
export interface ScoredEntry {
  id: string;
  kind: CorpusEntry['kind'];
  /** The before/after twin's id, when the entry has one. */
  pair?: string;
  /** The run with the entry's config (the same as `zeroConfig` when the config is null). */
  configured?: EntryScore;
  zeroConfig?: EntryScore;
  /** Runs that failed (timeout, crash, unreadable output): their findings count as none. */
  failedRuns: number;
  /** The zero-config run against the entry's `reads`; absent when the entry has none. */
  reads?: ReadsScore;
}

/** Corpus totals; a ratio is null when its denominator is 0. Ratios are in [0, 1]. */
export interface Totals {
  entries: number;
  /** Σ found / Σ expected over "before" and "precision" entries, configured run. */
  recall: number | null;
  /** (Σ found + Σ judgedTrue) / (that + Σ judgedFalse + Σ unjudged) over all entries, configured run. */
  precision: number | null;
  /** "after" entries with zero leftovers / "after" entries, configured run. */
  afterClean: number | null;
  /** {@link recall} of the zero-config runs. */
  zeroConfigRecall: number | null;
  /** {@link precision} of the zero-config runs (printed; not guarded by the baseline). */
  zeroConfigPrecision: number | null;
  /** Σ names read / Σ names expected over the entries with `reads`, zero-config runs ({@link scoreReads}). */
  extraction: number | null;
  counts: {
    expected: number;
    found: number;
    judgedTrue: number;
    judgedFalse: number;
    unjudged: number;
    afterEntries: number;
    afterClean: number;
    /** "after" entries whose "before" twin found at least one expected finding (so "clean" means something). */
    afterDetected: number;
    /** Of {@link afterDetected}, those with zero leftovers. */
    afterCleanDetected: number;
    zeroConfigFound: number;
    zeroConfigExpected: number;
    /** Zero-config runs over all entries: expected found (every kind) + judged true, judged false, unjudged. */
    zeroConfigTrue: number;
    zeroConfigFalse: number;
    zeroConfigUnjudged: number;
    /** Over the entries with `reads`: names listed, names read, commands listed, commands missing. */
    readsExpected: number;
    readsRead: number;
    readsCommands: number;
    readsCommandsMissing: number;
  };
  failedRuns: number;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** Sums entries' scores into {@link Totals} (definitions on each field and in test/corpus/README.md). */
export function totals(entries: readonly ScoredEntry[]): Totals {
  const c = { expected: 0, found: 0, judgedTrue: 0, judgedFalse: 0, unjudged: 0, afterEntries: 0, afterClean: 0, afterDetected: 0, afterCleanDetected: 0, zeroConfigFound: 0, zeroConfigExpected: 0, zeroConfigTrue: 0, zeroConfigFalse: 0, zeroConfigUnjudged: 0, readsExpected: 0, readsRead: 0, readsCommands: 0, readsCommandsMissing: 0 };
  let failedRuns = 0;
  for (const e of entries) {
    failedRuns += e.failedRuns;
    const s = e.configured;
    if (s) {
      if (e.kind !== 'after') {
        c.expected += s.expected;
        c.found += s.found;
      }
      c.judgedTrue += s.judgedTrue;
      c.judgedFalse += s.judgedFalse;
      c.unjudged += s.unjudged.length;
      if (e.kind === 'after') {
        c.afterEntries++;
        if (s.leftovers.length === 0) c.afterClean++;
        // A pair whose before tree showed nothing is trivially clean after; count it apart.
        const before = entries.find((b) => b.id === e.pair);
        if ((before?.configured?.found ?? 0) > 0) {
          c.afterDetected++;
          if (s.leftovers.length === 0) c.afterCleanDetected++;
        }
      }
    }
    if (e.zeroConfig && e.kind !== 'after') {
      c.zeroConfigExpected += e.zeroConfig.expected;
      c.zeroConfigFound += e.zeroConfig.found;
    }
    if (e.zeroConfig) {
      c.zeroConfigTrue += e.zeroConfig.found + e.zeroConfig.judgedTrue;
      c.zeroConfigFalse += e.zeroConfig.judgedFalse;
      c.zeroConfigUnjudged += e.zeroConfig.unjudged.length;
    }
    if (e.reads) {
      c.readsExpected += e.reads.expected;
      c.readsRead += e.reads.read;
      c.readsCommands += e.reads.commands;
      c.readsCommandsMissing += e.reads.commandsMissing.length;
    }
  }
  // Precision's true positives: expected items found in every kind (an "after" entry's own expected too).
  const foundAll = entries.reduce((n, e) => n + (e.configured?.found ?? 0), 0);
  const tp = foundAll + c.judgedTrue;
  return {
    entries: entries.length,
    recall: ratio(c.found, c.expected),
    precision: ratio(tp, tp + c.judgedFalse + c.unjudged),
    afterClean: ratio(c.afterClean, c.afterEntries),
    zeroConfigRecall: ratio(c.zeroConfigFound, c.zeroConfigExpected),
    zeroConfigPrecision: ratio(c.zeroConfigTrue, c.zeroConfigTrue + c.zeroConfigFalse + c.zeroConfigUnjudged),
    extraction: ratio(c.readsRead, c.readsExpected),
    counts: c,
    failedRuns,
  };
}

/** The committed baseline: the totals of the last deliberate `--update`, and the entries they cover. */
export interface Baseline {
  entries: string[];
  totals: Pick<Totals, 'recall' | 'precision' | 'afterClean' | 'zeroConfigRecall' | 'failedRuns'> & Partial<Pick<Totals, 'extraction'>>;
}

/** The ratios a baseline guards. */
export const GUARDED = ['recall', 'precision', 'afterClean', 'zeroConfigRecall', 'extraction'] as const;

/** How far (in ratio units) a total may fall below the baseline: 0.5 percentage points. */
export const TOLERANCE = 0.005;

/**
 * The tolerance per guarded ratio: {@link TOLERANCE}, but none for `extraction` (a parameter
 * docdrift read yesterday and not today is a regression, and 0.5 points of ~500 names would let
 * two or three slip).
 */
export const TOLERANCES: Record<(typeof GUARDED)[number], number> = { recall: TOLERANCE, precision: TOLERANCE, afterClean: TOLERANCE, zeroConfigRecall: TOLERANCE, extraction: 0 };

/**
 * Regressions of `current` against `baseline`: a guarded ratio more than its {@link TOLERANCES} below
 * the baseline's, or a ratio the baseline has that is now null, or more failed runs.
 * @returns One line per regression; empty when none.
 */
export function regressions(current: Totals, baseline: Baseline): string[] {
  const out: string[] = [];
  for (const key of GUARDED) {
    const was = baseline.totals[key];
    const now = current[key];
    if (was === null || was === undefined) continue;
    if (now === null) out.push(`${key}: no longer measurable (baseline ${pct(was)})`);
    else if (now < was - TOLERANCES[key] - 1e-12) out.push(`${key}: ${pct(now)} < baseline ${pct(was)}`);
  }
  if (current.failedRuns > (baseline.totals.failedRuns ?? 0)) out.push(`failed runs: ${current.failedRuns} > baseline ${baseline.totals.failedRuns ?? 0}`);
  return out;
}

/** A ratio as a percentage with one decimal, or "n/a". */
export function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? 'n/a' : `${(v * 100).toFixed(1)}%`;
}
