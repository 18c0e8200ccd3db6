/** The formatter contract shared by every reporter. */
import type { CommandSummary } from '../engine/cache.js';
import type { RunVerdict } from '../engine/verdict.js';
import type { DriftMessage } from '../model/rule.js';

/** The run's {@link RunVerdict} as reported: `allowed` when `--allow-unchecked` or `allowUnchecked: true` made an `unchecked` run expected (exit 0, not 2). */
export interface ReportVerdict extends RunVerdict {
  allowed: boolean;
}

/** Options every formatter receives. */
export interface FormatterOptions {
  /** Absolute project root; message files are relative to it. */
  root: string;
  /** Directory paths are shown relative to (stylish); defaults to showing project-relative paths. */
  cwd?: string;
  /** Emit ANSI colours (stylish only). */
  color?: boolean;
  /** docdrift's version (package.json), for reports that name the tool (SARIF `tool.driver.version`). */
  version?: string;
  /** Findings that suppression comments or the baseline dropped (json `summary.suppressedCount`). */
  suppressedCount?: number;
  /** First-run notes of the run (json `notes`): what it could not check. */
  notes?: readonly string[];
  /** The run's commands with their coverage (json `commands`). */
  commands?: readonly CommandSummary[];
  /** Whether the run checked anything (json `verdict`, SARIF `invocations`). */
  verdict?: ReportVerdict;
}

/**
 * Turns messages into the text written to stdout. Pure: no I/O, deterministic for a given
 * input (messages are sorted by the formatter, whatever their input order).
 */
export type Formatter = (messages: DriftMessage[], options: FormatterOptions) => string;
