/**
 * The corpus entry format of issue #11 (`test/corpus/repos/<id>.json`, described in
 * test/corpus/README.md) as a zod schema, and the loader that reads every entry and checks the
 * cross-entry rules (unique ids, symmetric before/after pairs on the same repository).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { configFileSchema } from '../../src/config/schema.js';

const nonEmpty = z.string().min(1);
/** `"*"` or omitted = any command / any parameter. */
const anyable = nonEmpty.optional();

/** A hand-judged drift that is in the entry's tree; `file` is project-relative and exact. */
export const expectedFindingSchema = z.strictObject({
  ruleId: nonEmpty,
  file: nonEmpty,
  command: anyable,
  param: anyable,
  /** Why this is drift (commit, PR, what changed). */
  why: nonEmpty,
});

/** A verdict on findings docdrift reports that are not in `expected`; `file` may be a picomatch glob. */
export const judgedFindingSchema = z
  .strictObject({
    ruleId: nonEmpty,
    file: nonEmpty,
    command: anyable,
    param: anyable,
    verdict: z.enum(['true', 'false']),
    /** Required for a false positive: why docdrift got it wrong. */
    cause: nonEmpty.optional(),
    why: nonEmpty.optional(),
  })
  .refine((j) => j.verdict === 'true' || j.cause !== undefined, {
    message: 'a "false" verdict needs a "cause" (why docdrift got it wrong)',
    path: ['cause'],
  });

/** One corpus entry, exactly the shape of test/corpus/README.md. {@link parseEntry} keeps `config` as written. */
export const corpusEntrySchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a kebab-case id, e.g. "pipx-argparse-before"'),
    repo: z.string().regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, 'owner/name on GitHub'),
    commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex-digit commit (lower case)'),
    kind: z.enum(['before', 'after', 'precision']),
    pair: nonEmpty.optional(),
    fixedBy: z.url().optional(),
    language: z.enum(['python', 'typescript', 'javascript']),
    frameworks: z.array(nonEmpty),
    docs: z.enum(['github-markdown', 'mkdocs-material', 'docusaurus', 'fern', 'sphinx-myst', 'sphinx-rst', 'vitepress', 'jekyll', 'other']),
    tags: z.array(nonEmpty).optional(),
    /** null = zero-config; else the docdrift.config.json contents. */
    config: configFileSchema.nullable(),
    expected: z.array(expectedFindingSchema),
    judged: z.array(judgedFindingSchema),
    notes: z.string().optional(),
    /**
     * What docdrift must extract zero-config, written by hand from the code at `commit`: command
     * name (as docdrift names it) → the canonical names of its parameters (`out-dir`, no dashes).
     */
    reads: z.record(nonEmpty, z.array(nonEmpty).min(1)).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.kind === 'precision') {
      if (e.pair !== undefined) ctx.addIssue({ code: 'custom', path: ['pair'], message: 'a "precision" entry has no pair' });
      if (e.fixedBy !== undefined) ctx.addIssue({ code: 'custom', path: ['fixedBy'], message: 'a "precision" entry has no fixedBy' });
    } else {
      if (e.pair === undefined) ctx.addIssue({ code: 'custom', path: ['pair'], message: `a "${e.kind}" entry needs "pair" (its twin's id)` });
      if (e.fixedBy === undefined) ctx.addIssue({ code: 'custom', path: ['fixedBy'], message: `a "${e.kind}" entry needs "fixedBy" (the PR or commit that fixed the docs)` });
    }
  });

export type ExpectedFinding = z.output<typeof expectedFindingSchema>;
export type JudgedFinding = z.output<typeof judgedFindingSchema>;
export type CorpusEntry = z.output<typeof corpusEntrySchema>;

/** The entries could not be loaded; `problems` are lines "file: key: problem". */
export class CorpusError extends Error {
  constructor(readonly problems: string[]) {
    super(`bad corpus entries:\n  ${problems.join('\n  ')}`);
    this.name = 'CorpusError';
  }
}

function keyOf(p: ReadonlyArray<PropertyKey>): string {
  if (p.length === 0) return '(top level)';
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/**
 * Validates one parsed entry.
 * @param file Shown in problems (e.g. `test/corpus/repos/x.json`).
 * @returns The entry, or the problems as "file: key: message".
 */
export function parseEntry(raw: unknown, file: string): { entry?: CorpusEntry; problems: string[] } {
  const result = corpusEntrySchema.safeParse(raw);
  if (!result.success) return { problems: result.error.issues.map((i) => `${file}: ${keyOf(i.path)}: ${i.message}`) };
  // The config is passed to docdrift as written (validated above, not normalised: a string stays a string).
  const config = (raw as { config: CorpusEntry['config'] }).config;
  return { entry: { ...result.data, config }, problems: [] };
}

const article = (kind: string): string => (/^[aeiou]/.test(kind) ? 'an' : 'a');

/**
 * Checks the rules that span entries: unique ids, each `pair` names an existing entry of the
 * other kind (before↔after) on the same repository that names this one back.
 * @returns Problems as "file: key: message" (file = `<id>.json`).
 */
export function checkEntries(entries: readonly CorpusEntry[]): string[] {
  const problems: string[] = [];
  const byId = new Map<string, CorpusEntry>();
  for (const e of entries) {
    if (byId.has(e.id)) problems.push(`${e.id}.json: id: "${e.id}" is used by more than one entry`);
    else byId.set(e.id, e);
  }
  for (const e of entries) {
    if (e.kind === 'precision' || e.pair === undefined) continue;
    const twin = byId.get(e.pair);
    const other = e.kind === 'before' ? 'after' : 'before';
    if (!twin) {
      problems.push(`${e.id}.json: pair: no entry has id "${e.pair}"`);
      continue;
    }
    if (twin.kind !== other) {
      problems.push(`${e.id}.json: pair: "${e.pair}" is ${article(twin.kind)} "${twin.kind}" entry; the twin of ${article(e.kind)} "${e.kind}" entry is ${article(other)} "${other}" entry`);
      continue;
    }
    if (twin.pair !== e.id) problems.push(`${e.id}.json: pair: "${e.pair}" names ${twin.pair === undefined ? 'no pair' : `"${twin.pair}"`} back, not "${e.id}"`);
    if (twin.repo !== e.repo) problems.push(`${e.id}.json: repo: "${e.repo}" differs from its pair's "${twin.repo}"`);
    if (twin.commit === e.commit) problems.push(`${e.id}.json: commit: same commit as its pair "${e.pair}"`);
  }
  return problems;
}

/**
 * Reads every `*.json` in `dir`, validates each and checks {@link checkEntries}.
 * @returns The entries sorted by id.
 * @throws {CorpusError} listing every problem (file + key), when any entry is bad.
 */
export function loadEntries(dir: string): CorpusEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    throw new CorpusError([`${dir}: cannot read the entries folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  const problems: string[] = [];
  const entries: CorpusEntry[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${file}: (top level): not valid JSON: ${(error as Error).message}`);
      continue;
    }
    const parsed = parseEntry(raw, file);
    problems.push(...parsed.problems);
    if (!parsed.entry) continue;
    if (`${parsed.entry.id}.json` !== name) problems.push(`${file}: id: "${parsed.entry.id}" does not match the file name (expected ${name.slice(0, -5)})`);
    entries.push(parsed.entry);
  }
  problems.push(...checkEntries(entries).map((p) => path.join(dir, p)));
  if (problems.length > 0) throw new CorpusError(problems);
  return entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
