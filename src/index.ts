/**
 * docdrift's Node.js API (package.json `exports`, documented in docs/api.md): `lint`, `fix`, the
 * formatters and the config loader. Everything exported here is public and follows semver;
 * nothing else in the package is (src/api.ts is the internal wiring tests use).
 *
 * `lint` and `fix` run exactly what the `docdrift` command runs (its `main`, with `--format json`
 * and the options turned into flags), so a program gets the same findings, exit code and notes
 * as the command line, and the same JSON report (docs/json-format.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VFileMessage } from 'vfile-message';
import { ruleIds as knownRuleIds } from './api.js';
import { main } from './cli.js';
import { ConfigError, loadConfig as loadConfigFile, validateRuleOptions } from './config/load.js';
import type { DocdriftConfig } from './config/schema.js';
import type { CommandSummary } from './engine/cache.js';
import { engineRules } from './engine/engine-rules.js';
import type { DriftMessage } from './model/rule.js';
import { formatGithub } from './report/github.js';
import { formatJson, type JsonCommand, type JsonReport, type JsonResult } from './report/json.js';
import { formatSarif } from './report/sarif.js';
import { formatStylish } from './report/stylish.js';
import type { ReportVerdict } from './report/types.js';
import { VERSION } from './shared/package-info.js';
import { rules } from '../rules/index.js';

export type { CommandConfig, DocdriftConfig, RuleSetting } from './config/schema.js';
export type { JsonCommand, JsonRelated, JsonReport, JsonResult, JsonVerdict } from './report/json.js';
export { ConfigError };

/** docdrift's version, as `docdrift --version` prints it (package.json `version`). */
export const version: string = VERSION;

/** Every rule id a config's `rules` or a suppression comment may name. */
export const ruleIds: readonly string[] = Object.freeze([...knownRuleIds]);

/** What to lint; each option is the command-line flag named in its description. */
export interface LintOptions {
  /** The project root (`--root`); default: `process.cwd()`. Relative paths are resolved from `process.cwd()`. */
  root?: string;
  /** A config file (`--config`); default: the one found in the root (docs/configuration.md). */
  config?: string;
  /**
   * Report findings in these files or directories only (the paths of `docdrift [paths…]`,
   * relative to `process.cwd()` or absolute); the whole project is still read.
   */
  files?: readonly string[];
  /** `false`: no run cache (`--no-cache`); a string: its directory (`--cache-location`); default: `.docdrift-cache/` in the root. */
  cache?: boolean | string;
  /** A baseline file (`--baseline`); `false`: none (`--no-baseline`); default: `.docdrift-baseline.json` in the root when it exists. */
  baseline?: string | false;
  /** Report only what changed since this git revision touches (`--changed-since`). */
  changedSince?: string;
  /** An unchecked run (nothing compared) is expected: exit code 0, not 2 (`--allow-unchecked`). */
  allowUnchecked?: boolean;
  /** More warnings than this make the exit code 1 (`--max-warnings`); default: no limit. */
  maxWarnings?: number;
}

/** The outcome of {@link lint}. */
export interface LintResult {
  /** The report `docdrift --format json` prints: findings, summary, notes, command coverage, verdict (docs/json-format.md). */
  report: JsonReport;
  /** The command's exit code: 0 no errors, 1 errors (or too many warnings), 2 nothing could be checked. */
  exitCode: 0 | 1 | 2;
  /** What the command prints on stderr (notes, warnings, `--fix`'s account), one line each, without the `docdrift: ` prefix. */
  log: string[];
}

/** Options of {@link fix}: those of {@link lint}, and `dryRun`. */
export interface FixOptions extends LintOptions {
  /** Compute the fixes and return them as a diff, writing nothing (`--fix-dry-run`). */
  dryRun?: boolean;
}

/** The outcome of {@link fix}: the findings that remain after fixing (in a dry run: after the fixes shown), and the diff of a dry run. */
export interface FixResult extends LintResult {
  /** A dry run's unified diff of the fixes (empty when there are none); absent when the fixes were written. */
  diff?: string;
}

/**
 * A run that could not go ahead: a bad option or config, a missing file, an internal error (the
 * command's exit code 2 without a report). `message` is what the command prints on stderr.
 */
export class DocdriftError extends Error {
  /** The command's exit code (2). */
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'DocdriftError';
    this.exitCode = exitCode;
  }
}

/** The command-line arguments for `options`, ending with `--` and the paths. */
function toArgs(options: LintOptions): string[] {
  const args: string[] = ['--format', 'json', '--no-progress', '--no-color'];
  if (options.root !== undefined) args.push('--root', options.root);
  if (options.config !== undefined) args.push('--config', options.config);
  if (options.cache === false) args.push('--no-cache');
  else if (typeof options.cache === 'string') args.push('--cache-location', options.cache);
  if (options.baseline === false) args.push('--no-baseline');
  else if (options.baseline !== undefined) args.push('--baseline', options.baseline);
  if (options.changedSince !== undefined) args.push('--changed-since', options.changedSince);
  if (options.allowUnchecked) args.push('--allow-unchecked');
  if (options.maxWarnings !== undefined) args.push('--max-warnings', String(options.maxWarnings));
  return [...args, '--', ...(options.files ?? [])];
}

/** Runs the command in this process; returns its exit code, stdout and stderr lines. */
async function run(args: string[]): Promise<{ code: number; stdout: string; log: string[] }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: process.cwd(),
    isTTY: false,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const log = stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^docdrift: /, ''));
  return { code, stdout, log };
}

/** The report of a run, or a {@link DocdriftError} when it wrote none. */
function reportOf(code: number, json: string, log: string[]): JsonReport {
  if (json.trim() === '') throw new DocdriftError(log.join('\n') || `docdrift exited with code ${code}`, code);
  return JSON.parse(json) as JsonReport;
}

/**
 * Lints a project as `docdrift --format json` does.
 *
 * @returns the JSON report, the exit code the command would exit with, and its stderr lines.
 * @throws {DocdriftError} when the run wrote no report: a bad option, config or baseline, a path
 *   outside the root, or an internal error (the command's exit code 2).
 */
export async function lint(options: LintOptions = {}): Promise<LintResult> {
  const { code, stdout, log } = await run(toArgs(options));
  return { report: reportOf(code, stdout, log), exitCode: code as LintResult['exitCode'], log };
}

/**
 * Applies the automatic fixes (`docdrift --fix`), or with `dryRun` computes them as a diff and
 * writes nothing (`--fix-dry-run`), then lints the result.
 *
 * @throws {DocdriftError} as {@link lint} does.
 */
export async function fix(options: FixOptions = {}): Promise<FixResult> {
  const args = toArgs(options);
  if (!options.dryRun) {
    const { code, stdout, log } = await run(['--fix', ...args]);
    return { report: reportOf(code, stdout, log), exitCode: code as LintResult['exitCode'], log };
  }
  // A dry run prints the diff on stdout: the report goes to a file.
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-fix-'));
  try {
    const reportFile = path.join(dir, 'report.json');
    const { code, stdout, log } = await run(['--fix-dry-run', '--output-file', reportFile, ...args]);
    let json = '';
    try {
      json = readFileSync(reportFile, 'utf8');
    } catch {
      // no report written: reportOf throws with the log
    }
    return { report: reportOf(code, json, log), exitCode: code as LintResult['exitCode'], log, diff: stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The inverse of the JSON formatter for one result: a message the other formatters accept. */
function toMessage(result: JsonResult): DriftMessage {
  const start = { line: result.line, column: result.column };
  const place =
    result.line === 0 ? undefined : result.endLine !== null && result.endColumn !== null ? { start, end: { line: result.endLine, column: result.endColumn } } : start;
  const message = new VFileMessage(result.message, { ...(place ? { place } : {}), ruleId: result.ruleId, source: 'docdrift' }) as DriftMessage;
  message.file = result.file;
  message.fatal = result.severity === 'error';
  message.severity = result.severity;
  message.messageId = result.messageId;
  message.data = { ...result.data };
  message.related = result.related.map((r) => ({ ...r }));
  if (result.suggestion !== undefined) message.suggestion = result.suggestion;
  if (result.fix !== undefined) message.fix = { ...result.fix };
  if (result.url !== undefined) message.url = result.url;
  return message;
}

/** Options of a {@link Formatter}. */
export interface FormatOptions {
  /** The project root the report's paths are relative to (SARIF's `originalUriBaseIds`, stylish's paths); default: `process.cwd()`. */
  root?: string;
  /** ANSI colours (stylish only); default: none. */
  color?: boolean;
}

/** Turns a {@link JsonReport} (from {@link lint}, {@link fix} or a saved `--format json` file) into the text a `--format` prints. */
export type Formatter = (report: JsonReport, options?: FormatOptions) => string;

function formatter(format: (messages: DriftMessage[], options: Parameters<typeof formatStylish>[1]) => string): Formatter {
  return (report, options = {}) => {
    const root = path.resolve(options.root ?? process.cwd());
    const verdict: ReportVerdict | undefined = report.verdict && {
      status: report.verdict.status,
      checkedCommands: report.verdict.checkedCommands,
      uncheckedCommands: report.verdict.uncheckedCommands,
      ...(report.verdict.reason !== undefined ? { reason: report.verdict.reason } : {}),
      allowed: report.verdict.allowed,
    };
    return format(report.results.map(toMessage), {
      root,
      color: options.color ?? false,
      version: VERSION,
      ...(report.summary.suppressedCount !== undefined ? { suppressedCount: report.summary.suppressedCount } : {}),
      ...(report.notes ? { notes: report.notes } : {}),
      ...(report.commands ? { commands: report.commands.map(commandSummary) } : {}),
      ...(verdict ? { verdict } : {}),
    });
  };
}

/** A JSON command entry back in the shape the formatters read. */
function commandSummary(c: JsonCommand): CommandSummary {
  return {
    name: c.name,
    aliases: [...c.aliases],
    configClasses: [],
    paramsKnown: c.paramsKnown,
    params: c.parameters ?? 0,
    sections: c.sections,
    ...(c.source !== undefined ? { source: c.source } : {}),
    ...(c.unknownReason !== undefined ? { unknownReason: c.unknownReason } : {}),
    ...(c.parameters !== undefined
      ? { coverage: { parameters: c.parameters, documented: c.documented ?? 0, used: c.used ?? 0, explained: c.explained ?? 0 } }
      : {}),
    ...(c.parameterNames !== undefined ? { parameterNames: [...c.parameterNames] } : {}),
  };
}

/** The formatters by the name `--format` takes: `stylish` (people), `json`, `sarif` (code scanning), `github` (Actions annotations). */
export const formatters: Readonly<Record<'stylish' | 'json' | 'sarif' | 'github', Formatter>> = Object.freeze({
  stylish: formatter(formatStylish),
  json: formatter(formatJson),
  sarif: formatter(formatSarif),
  github: formatter(formatGithub),
});

/** The outcome of {@link loadConfig}. */
export interface LoadedConfig {
  /** The config with every default filled in. */
  config: DocdriftConfig;
  /** The file it was read from (absolute); absent when none was found (the defaults). */
  file?: string;
  /** What was ignored or looks wrong (a file named like a config docdrift does not read), one sentence each. */
  warnings: string[];
}

/**
 * Reads and validates a project's docdrift config as the command does: `file` when given
 * (resolved from `root`), else the config file found in `root` (docs/configuration.md), else the
 * defaults.
 *
 * @throws {ConfigError} when the file is missing (an explicit one), cannot be parsed, or holds an
 *   unknown key, a wrong value or an unknown rule; the message names the file, the key and the fix.
 */
export function loadConfig(root: string = process.cwd(), file?: string): LoadedConfig {
  const absRoot = path.resolve(root);
  const loaded = loadConfigFile(absRoot, file === undefined ? undefined : path.resolve(absRoot, file), [...knownRuleIds]);
  validateRuleOptions(loaded.config, [...rules, ...engineRules], loaded.file);
  return { config: loaded.config, ...(loaded.file !== undefined ? { file: loaded.file } : {}), warnings: loaded.warnings ?? [] };
}
