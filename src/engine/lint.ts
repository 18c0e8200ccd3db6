/** The engine's entry point: read the project, build the model, run the rules, scope the messages. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DocdriftConfig } from '../config/schema.js';
import { parseDoc } from '../docs/parse.js';
import { readEntryPoints } from '../extract/python/entry-points.js';
import { extractPython, type PythonSource } from '../extract/python/index.js';
import { buildModel } from '../model/build.js';
import type { DocFile, InputDiagnostic, Model } from '../model/types.js';
import { rules as allRules } from '../../rules/index.js';
import { discoverFiles } from './discover.js';
import { runRules, sortMessages, type ConfiguredRule, type RuleFailure } from './run-rules.js';
import type { DriftMessage, Rule, Severity } from './types.js';

/** What to lint. */
export interface LintOptions {
  /** Absolute project root; every path in messages is relative to it. */
  root: string;
  config: DocdriftConfig;
  /**
   * Report only findings located in these files (absolute or root-relative). The model is still
   * built from the whole project, so a README is checked against all code and references.
   */
  files?: string[];
  /** Rules to run; defaults to every rule in `rules/`. */
  rules?: Rule[];
}

/** Figures about one run, for `--debug` and the benchmark. Times in milliseconds. */
export interface LintStats {
  sources: number;
  docs: number;
  timings: Record<'discover' | 'extract' | 'docs' | 'model' | 'rules', number>;
}

/** The outcome of one run. */
export interface LintResult {
  /** Findings, sorted by file, line, column, rule id. */
  messages: DriftMessage[];
  /** Rules that threw (an internal error: the CLI exits 2). */
  failures: RuleFailure[];
  model: Model;
  stats: LintStats;
}

/**
 * Lints a project. Never throws on bad project input (unparseable or unreadable files become
 * `parse-error` findings); throws only on programming errors.
 */
export async function lint(options: LintOptions): Promise<LintResult> {
  const { root, config } = options;
  const t0 = performance.now();
  const files = await discoverFiles(root, config.sources, config.docs, config.ignore);
  const t1 = performance.now();
  const diagnostics: InputDiagnostic[] = [];

  const read = (file: string): string | undefined => {
    try {
      return readFileSync(path.join(root, file), 'utf8');
    } catch (error) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message: `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        location: { file, line: 1, column: 1 },
      });
      return undefined;
    }
  };

  const packaging = files.packaging.flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  const entry = readEntryPoints(packaging);
  diagnostics.push(...entry.diagnostics);

  const sources: PythonSource[] = [];
  for (const file of files.sources) {
    if (!file.endsWith('.py')) continue;
    const text = read(file);
    if (text !== undefined) sources.push({ file, text });
  }
  const python = await extractPython(sources);
  diagnostics.push(...python.diagnostics);
  const t2 = performance.now();

  const docs: DocFile[] = [];
  for (const file of files.docs) {
    const text = read(file);
    if (text === undefined) continue;
    const parsed = parseDoc(file, text);
    docs.push(parsed.doc);
    diagnostics.push(...parsed.diagnostics);
  }
  const t3 = performance.now();

  const model = buildModel({
    root,
    config,
    classes: python.classes,
    functionConfigs: python.functionConfigs,
    entryPoints: entry.entryPoints,
    codeNames: python.codeNames,
    docs,
    diagnostics,
  });
  const t4 = performance.now();

  const configured = configureRules(options.rules ?? allRules, config.rules);
  const { messages, failures } = runRules(model, configured);
  const t5 = performance.now();

  let scoped = messages;
  if (options.files && options.files.length > 0) {
    const wanted = new Set(options.files.map((f) => toProjectPath(root, f)));
    scoped = messages.filter((m) => m.file !== undefined && wanted.has(m.file));
  }
  return {
    messages: sortMessages(scoped),
    failures,
    model,
    stats: {
      sources: sources.length,
      docs: docs.length,
      timings: { discover: t1 - t0, extract: t2 - t1, docs: t3 - t2, model: t4 - t3, rules: t5 - t4 },
    },
  };
}

/** Applies `rules` from the config (severity or `[severity, options]`) over each rule's defaults. */
export function configureRules(rules: Rule[], settings: DocdriftConfig['rules']): ConfiguredRule[] {
  return rules.map((rule) => {
    const setting = settings[rule.meta.id];
    let severity: Severity = rule.meta.defaultSeverity;
    let options: Record<string, unknown> = {};
    if (typeof setting === 'string') severity = setting;
    else if (Array.isArray(setting)) {
      severity = setting[0];
      options = setting[1] ?? {};
    }
    return { rule, severity, options };
  });
}

/** An absolute or root-relative path as a project-relative POSIX path. */
export function toProjectPath(root: string, file: string): string {
  const abs = path.resolve(root, file);
  return path.relative(root, abs).split(path.sep).join('/');
}
