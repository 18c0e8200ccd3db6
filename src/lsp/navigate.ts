/**
 * Hover and go-to-definition of the language server (issue #36): the parameter under the cursor in
 * an example's argument (`+resume_from_cache=True`, `--out dir`) or in a reference row, looked up
 * in the last lint's model. Pure: the server passes the model and the position.
 */
import { findParam, rowParam, rowsFor, where } from '../model/query.js';
import type { CommandSpec, Model, ParamSpec, SourceLocation } from '../model/types.js';
import { flagSpelling } from '../model/flag-spelling.js';

/** A parameter found at a position, with the command it belongs to and what the cursor is on. */
export interface ParamAt {
  command: CommandSpec;
  param: ParamSpec;
  /** The example argument or reference row the cursor is on. */
  on: 'example' | 'reference row';
  location: SourceLocation;
}

/** Whether a 1-based `line`/`column` lies in a location (its end exclusive; a point location covers its line from its column on). */
function contains(loc: SourceLocation, line: number, column: number): boolean {
  const endLine = loc.endLine ?? loc.line;
  if (line < loc.line || line > endLine) return false;
  if (line === loc.line && column < loc.column) return false;
  if (loc.endLine !== undefined && loc.endColumn !== undefined && line === endLine && column >= loc.endColumn) return false;
  return true;
}

/**
 * The parameter at a 1-based position of a project file (`file` project-relative POSIX): an
 * example's argument whose command is known and has the parameter, else a reference row of a
 * section for a known command whose row resolves to one of its parameters. Undefined elsewhere.
 */
export function paramAt(model: Model, file: string, line: number, column: number): ParamAt | undefined {
  for (const usage of model.usages) {
    if (usage.file !== file || !contains(usage.location, line, column)) continue;
    const command = model.commandByName(usage.command);
    const param = command && findParam(command, usage.name);
    if (command && param) return { command, param, on: 'example', location: usage.location };
  }
  for (const section of model.sections) {
    if (section.file !== file) continue;
    for (const row of section.rows) {
      if (!contains(row.location, line, column)) continue;
      for (const name of section.commands) {
        const command = model.commandByName(name);
        const found = command && rowParam(model, command, row);
        if (command && found) return { command, param: found.param, on: 'reference row', location: row.location };
      }
    }
  }
  return undefined;
}

/**
 * `text` (a description, a deprecation note, a path: the project's words) as plain text inside
 * Markdown: the characters that start inline constructs (links, images, HTML, emphasis, code,
 * tables, strikethrough) are backslash-escaped, and so are the marks that start a block at a
 * line's start (heading, quote, list, setext underline). A description with
 * `![](https://host/x)` would otherwise load a remote image in the editor's hover (s29 sweep2 O3).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>!&|~]/g, '\\$&')
    .replace(/^([ \t]*)([#>+=-])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)([.)])/gm, '$1\\$2');
}

/**
 * `text` as one Markdown code span: fenced with one more backtick than its longest run of
 * backticks, padded with a space when it starts or ends with one (CommonMark), newlines as spaces.
 * A parameter name with a backtick no longer breaks the hover's formatting.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Markdown for a hover: the parameter as the code defines it (a CLI flag as users type it, with
 * the dashes the code declares: `--g`, `-gx`, `--port`; type, default, description, where) and
 * its reference rows. Names, types and defaults are code spans ({@link codeSpan}); the project's
 * prose is plain text ({@link escapeMarkdown}).
 */
export function hoverMarkdown(model: Model, found: ParamAt): string {
  const { command, param } = found;
  const shown = param.origin === 'cli-flag' && !param.positional ? flagSpelling(param, param.name) : param.name;
  const lines = [`**${codeSpan(shown)}**: parameter of ${codeSpan(command.name)} (${param.origin === 'cli-flag' ? 'CLI flag' : param.origin === 'env-var' ? 'environment variable' : `field of ${codeSpan(param.owner)}`})`, ''];
  const facts: string[] = [];
  if (param.type) facts.push(`type ${codeSpan(param.type)}`);
  if (param.default) facts.push(`default ${codeSpan(param.default.text)}`);
  else if (param.required) facts.push('required');
  if (param.deprecated) facts.push(typeof param.deprecated === 'string' ? `deprecated: ${escapeMarkdown(param.deprecated)}` : 'deprecated');
  if (facts.length > 0) lines.push(`${facts.join(' · ')}`, '');
  if (param.description) lines.push(escapeMarkdown(param.description), '');
  lines.push(`Defined at ${escapeMarkdown(where(param.location))}.`);
  if (found.on === 'example') {
    const rows = rowsFor(model, command, param);
    if (rows.length === 0) lines.push('', 'No reference row documents it.');
    for (const { row } of rows.slice(0, 3)) lines.push('', `Reference row at ${escapeMarkdown(where(row.location))}${row.description ? `: ${escapeMarkdown(row.description)}` : ''}`);
  }
  return lines.join('\n');
}
