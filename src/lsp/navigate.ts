/**
 * Hover and go-to-definition of the language server (issue #36): the parameter under the cursor in
 * an example's argument (`+resume_from_cache=True`, `--out dir`) or in a reference row, looked up
 * in the last lint's model. Pure: the server passes the model and the position.
 */
import { findParam, rowParam, rowsFor, where } from '../model/query.js';
import type { CommandSpec, Model, ParamSpec, SourceLocation } from '../model/types.js';

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

/** Markdown for a hover: the parameter as the code defines it (type, default, description, where) and its reference rows. */
export function hoverMarkdown(model: Model, found: ParamAt): string {
  const { command, param } = found;
  const lines = [`**\`${param.name}\`**: parameter of \`${command.name}\` (${param.origin === 'cli-flag' ? 'CLI flag' : param.origin === 'env-var' ? 'environment variable' : `field of \`${param.owner}\``})`, ''];
  const facts: string[] = [];
  if (param.type) facts.push(`type \`${param.type}\``);
  if (param.default) facts.push(`default \`${param.default.text}\``);
  else if (param.required) facts.push('required');
  if (param.deprecated) facts.push(typeof param.deprecated === 'string' ? `deprecated: ${param.deprecated}` : 'deprecated');
  if (facts.length > 0) lines.push(`${facts.join(' · ')}`, '');
  if (param.description) lines.push(param.description, '');
  lines.push(`Defined at ${where(param.location)}.`);
  if (found.on === 'example') {
    const rows = rowsFor(model, command, param);
    if (rows.length === 0) lines.push('', 'No reference row documents it.');
    for (const { row } of rows.slice(0, 3)) lines.push('', `Reference row at ${where(row.location)}${row.description ? `: ${row.description}` : ''}`);
  }
  return lines.join('\n');
}
