/** The `stylish` formatter: ESLint's default human-readable output, grouped by file with aligned columns. */
import path from 'node:path';
import { createColors } from 'picocolors';
import type { DriftMessage } from '../model/rule.js';
import { escapeControls, escapeLine } from '../shared/escape.js';
import { joinLines } from '../shared/strings.js';
import { severityOf, sortMessages } from './sort.js';
import type { FormatterOptions } from './types.js';

/** ANSI colours (picocolors); identity functions when colour is off. */
function palette(color: boolean) {
  const pc = createColors(color);
  const guard = (f: (s: string) => string) => (s: string) => (s ? f(s) : s);
  return { underline: guard(pc.underline), dim: guard(pc.dim), bold: guard(pc.bold), red: guard(pc.red), yellow: guard(pc.yellow) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Project-relative `file` shown relative to `cwd` when given (as a terminal would resolve it). */
function displayPath(file: string, options: FormatterOptions): string {
  if (!file) return '<unknown file>';
  if (options.cwd === undefined) return escapeLine(file);
  const abs = path.resolve(options.root, file);
  const rel = path.relative(options.cwd, abs);
  return escapeLine((rel === '' ? abs : rel).split(path.sep).join('/'));
}

/**
 * Widest message column (in UTF-16 code units) that rule ids are aligned after. When a file has a
 * longer message, its rule ids are not aligned (see {@link formatStylish}).
 */
export const MAX_ALIGNED_MESSAGE = 80;

/**
 * One line of text: newlines and runs of whitespace collapsed, so columns stay aligned; control
 * characters and direction overrides escaped (`\x1b`), so a document cannot drive the terminal.
 */
function oneLine(text: string): string {
  return escapeControls(joinLines(text).trim());
}

/**
 * Formats messages like ESLint's `stylish`:
 *
 * ```text
 *
 * docs/cli.mdx
 *    3:10  error    `foo` is not a parameter of `run`  example-param-unknown
 *     ↳ src/app/config.py:12:5 defined here
 *   12:1   warning  …                                  reference-param-missing
 *
 * ✖ 2 problems (1 error, 1 warning)
 *   1 error and 0 warnings potentially fixable with the `--fix` option.
 * ```
 *
 * Files are underlined and shown relative to `cwd` (project-relative without it); each row is
 * `line:column  severity  message  rule-id`, with the line right-aligned and the column and
 * severity left-aligned per file. Rule ids are aligned too when every message of the file fits in
 * {@link MAX_ALIGNED_MESSAGE} characters; otherwise each rule id follows its message after two
 * spaces, so one long message does not pad every row of the file. Related locations follow their
 * message as `    ↳ file:line:col message`, with `cwd`-relative paths like the file headers.
 * Messages without a position show `0:0`. No line ends in whitespace. Returns `''` when there are
 * no messages. The second summary line (ESLint's wording) appears only when some message carries
 * an automatic fix. Colours (ANSI, via picocolors) only when `options.color` is true.
 */
export function formatStylish(messages: DriftMessage[], options: FormatterOptions): string {
  if (messages.length === 0) return '';
  const c = palette(options.color === true);
  const groups = new Map<string, DriftMessage[]>();
  for (const m of sortMessages(messages)) {
    const key = m.file ?? '';
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }

  let errors = 0;
  let warnings = 0;
  let fixableErrors = 0;
  let fixableWarnings = 0;
  let output = '\n';
  for (const [file, group] of groups) {
    const rows = group.map((m) => ({
      m,
      line: String(m.line ?? 0),
      column: String(m.column ?? 0),
      severity: severityOf(m) === 'error' ? 'error' : 'warning',
      message: oneLine(m.reason),
      ruleId: escapeControls(m.ruleId ?? ''),
    }));
    const width = (get: (r: (typeof rows)[number]) => string) => Math.max(...rows.map((r) => get(r).length));
    const wLine = width((r) => r.line);
    const wColumn = width((r) => r.column);
    const wSeverity = width((r) => r.severity);
    const longest = width((r) => r.message);
    // Aligning rule ids after a long message would pad every row to it: align only short ones.
    const wMessage = longest <= MAX_ALIGNED_MESSAGE ? longest : 0;

    output += `${c.underline(displayPath(file, options))}\n`;
    for (const r of rows) {
      if (r.severity === 'error') errors++;
      else warnings++;
      if (r.m.fix) {
        if (r.severity === 'error') fixableErrors++;
        else fixableWarnings++;
      }
      const position = c.dim(`${r.line.padStart(wLine)}:${r.column.padEnd(wColumn)}`);
      const severity = (r.severity === 'error' ? c.red : c.yellow)(r.severity) + ' '.repeat(wSeverity - r.severity.length);
      const message = r.ruleId ? `${r.message.padEnd(wMessage)}  ${c.dim(r.ruleId)}` : r.message;
      output += `${`  ${position}  ${severity}  ${message}`.trimEnd()}\n`;
      for (const rel of r.m.related ?? []) {
        const where = `${displayPath(rel.file, options)}:${rel.line}:${rel.column}`;
        output += `${c.dim(`    ↳ ${where}${rel.message ? ` ${oneLine(rel.message)}` : ''}`)}\n`;
      }
    }
    output += '\n';
  }

  const total = errors + warnings;
  const summary = `✖ ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
  output += `${(errors > 0 ? c.red : c.yellow)(c.bold(summary))}\n`;
  if (fixableErrors + fixableWarnings > 0) {
    const fixable = `  ${plural(fixableErrors, 'error')} and ${plural(fixableWarnings, 'warning')} potentially fixable with the \`--fix\` option.`;
    output += `${(errors > 0 ? c.red : c.yellow)(c.bold(fixable))}\n`;
  }
  return output;
}
