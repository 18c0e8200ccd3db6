/** The `github` formatter: GitHub Actions workflow commands, one `::error`/`::warning` annotation per finding. */
import path from 'node:path';
import type { DriftMessage } from '../model/rule.js';
import { escapeControls } from '../shared/escape.js';
import { endOf, severityOf, sortMessages } from './sort.js';
import type { FormatterOptions } from './types.js';

/**
 * Escapes a workflow command's message (the text after the second `::`) exactly as actions/toolkit
 * does: `%` → `%25`, `\r` → `%0D`, `\n` → `%0A`. Source: `escapeData` in
 * https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts. With no raw line break
 * left, the message can never start a second command on a line of its own.
 */
export function escapeData(text: string): string {
  // Then other control characters and direction overrides become visible escapes (`\x1b`): the
  // raw log shows the line as is. `\r` and `\n` are taken by the toolkit's escaping first.
  return escapeControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/**
 * Escapes a workflow command's property value (`file=…`, `title=…`) exactly as actions/toolkit
 * does: like {@link escapeData}, plus `:` → `%3A` and `,` → `%2C`, so a value cannot end the
 * property list or the command. Source: `escapeProperty` in
 * https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts.
 */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One workflow command line, `::name key=value,key=value::message`, built as actions/toolkit's
 * `Command.toString` does: properties in the given order, empty ones left out.
 */
export function workflowCommand(name: string, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** A project-relative file as GitHub expects it: relative to the current directory (the workspace in Actions). */
function annotationPath(file: string, options: FormatterOptions): string {
  if (options.cwd === undefined) return file;
  const rel = path.relative(options.cwd, path.resolve(options.root, file));
  return rel.split(path.sep).join('/');
}

/**
 * Formats messages as GitHub Actions workflow commands
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands), one
 * line per finding:
 *
 * ```text
 * ::error file=docs/cli.md,line=3,col=10,endLine=3,endColumn=24,title=docdrift (example-param-unknown)::`foo` is not …
 * ```
 *
 * `warning` for warnings. `file` is relative to `options.cwd` when given (Actions runs steps in
 * the workspace, which is where GitHub resolves annotation paths), else project-relative. `line`
 * and `col` are left out when unknown (a whole-file finding); `endLine` and `endColumn` are given
 * when the finding is a range, `endColumn` being the column of its last character (docdrift's
 * ends are exclusive) and only on single-line ranges, since GitHub ignores columns across lines.
 * The message is the finding's text followed by its related locations, one per line
 * (`↳ file:line:col message`). Every value is escaped with {@link escapeProperty} or
 * {@link escapeData}, so hostile text in documents cannot inject workflow commands.
 * A run that checked nothing (`options.verdict` unchecked and not allowed) ends with one more
 * `::error` without a file saying so. Returns `''` when there is nothing to say.
 */
export function formatGithub(messages: DriftMessage[], options: FormatterOptions): string {
  const lines = sortMessages(messages).map((m) => {
    const line = m.line && m.line > 0 ? m.line : undefined;
    const col = line && m.column && m.column > 0 ? m.column : undefined;
    const end = endOf(m);
    const endLine = line && end.line !== undefined && end.line >= line ? end.line : undefined;
    const endColumn =
      col !== undefined && endLine === line && end.column !== undefined && end.column - 1 >= col ? end.column - 1 : undefined;
    const related = (m.related ?? []).map(
      (r) => `↳ ${annotationPath(r.file, options)}:${r.line}:${r.column}${r.message ? ` ${r.message}` : ''}`,
    );
    return workflowCommand(
      severityOf(m) === 'error' ? 'error' : 'warning',
      {
        file: m.file ? annotationPath(String(m.file), options) : undefined,
        line,
        col,
        endLine,
        endColumn,
        title: `docdrift (${m.ruleId ?? 'docdrift'})`,
      },
      [m.reason, ...related].join('\n'),
    );
  });
  // A run that checked nothing fails (exit 2): one annotation without a file says why on the run's page.
  const verdict = options.verdict;
  if (verdict?.status === 'unchecked' && !verdict.allowed) {
    lines.push(workflowCommand('error', { title: 'docdrift: nothing was checked' }, `nothing was checked: ${verdict.reason ?? 'no command was compared with any document'}. See the notes in the log; pass --allow-unchecked if that is expected.`));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
