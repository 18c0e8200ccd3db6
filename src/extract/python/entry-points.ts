/** Reads console-script entry points from pyproject.toml ([project.scripts], [tool.poetry.scripts]) and setup.cfg ([options.entry_points] console_scripts). */
import { parse as parseToml, TomlError } from 'smol-toml';
import type { EntryPoint, InputDiagnostic, SourceLocation } from '../../model/types.js';
import { MAX_BINS } from '../package-bins.js';

/**
 * Reads the console scripts a Python project declares.
 *
 * - `pyproject.toml` (any directory): `[project.scripts]` (PEP 621,
 *   https://packaging.python.org/en/latest/specifications/pyproject-toml/#entry-points), the same
 *   scripts written as `[project.entry-points.console_scripts]` (accepted by setuptools), and
 *   `[tool.poetry.scripts]` (a string, or a table with `callable`/`reference`). Parsed with
 *   smol-toml; a TOML syntax error gives one `parse-error` diagnostic at the parser's position.
 * - `setup.cfg`: the `console_scripts` key of `[options.entry_points]`
 *   (https://setuptools.pypa.io/en/latest/userguide/declarative_config.html), whose value is a
 *   multi-line list of `name = module:function`. This file is read with a configparser-style line
 *   scanner rather than the `ini` package, because `ini` turns continuation lines into keys and
 *   splits dotted section names, which loses the structure and the positions; a line configparser
 *   would reject gives a `parse-error` diagnostic.
 *
 * Targets keep `module:function` as declared, with surrounding blanks and a trailing `[extras]`
 * list removed. Locations point at the script name on its declaring line (1-based; columns in
 * UTF-16 units). Other file names are ignored. Never throws for bad input.
 *
 * @param files Project-relative POSIX paths with their text.
 * @returns Entry points in declaration order, file by file, and diagnostics.
 */
export function readEntryPoints(files: { file: string; text: string }[]): { entryPoints: EntryPoint[]; diagnostics: InputDiagnostic[] } {
  const entryPoints: EntryPoint[] = [];
  const diagnostics: InputDiagnostic[] = [];
  for (const { file, text } of files) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    const read: EntryPoint[] = [];
    if (base === 'pyproject.toml') readPyproject(file, text, read, diagnostics);
    else if (base === 'setup.cfg') readSetupCfg(file, text, read, diagnostics);
    // A script with an empty or blank name cannot be run (TOML allows `"" = "tool.cli:main"`):
    // said once, not made a command (its empty alias made `init`'s config fail to load, #33 s38 sweep D10).
    const blank = read.findIndex((e) => e.name.trim() === '');
    if (blank >= 0) {
      const at = read[blank]!.location;
      diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${file}:${at.line}:${at.column}: a console script with an empty name is not a command anyone can run; it is not read`, location: at });
      for (let i = read.length - 1; i >= 0; i--) if (read[i]!.name.trim() === '') read.splice(i, 1);
    }
    // Real packages declare a handful; 40,000 aliases cost the model stage seconds each run (#33
    // sweep D6). As for package.json `bin`, the first MAX_BINS are read and the rest said.
    if (read.length > MAX_BINS) {
      const first = read[MAX_BINS]!.location;
      diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${file}:${first.line}:${first.column}: declares ${read.length} console scripts; only the first ${MAX_BINS} are read`, location: first });
      read.length = MAX_BINS;
    }
    for (const e of read) entryPoints.push(e);
  }
  return { entryPoints, diagnostics };
}

function cleanTarget(target: string): string {
  const trimmed = target.trim();
  const bracket = trimmed.indexOf('[');
  return (bracket < 0 ? trimmed : trimmed.slice(0, bracket)).trim();
}

function parseError(file: string, line: number, column: number, message: string): InputDiagnostic {
  return { ruleId: 'parse-error', severity: 'error', message: `${file}:${line}:${column}: ${message}`, location: { file, line, column } };
}

// ---------------------------------------------------------------- pyproject.toml

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function readPyproject(file: string, text: string, out: EntryPoint[], diagnostics: InputDiagnostic[]): void {
  let data: Record<string, unknown>;
  try {
    data = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : 1;
    const column = error instanceof TomlError ? error.column : 1;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    diagnostics.push(parseError(file, line, column, message.startsWith('Invalid TOML') ? message : `Invalid TOML document: ${message}`));
    return;
  }
  const keyLines = tomlKeyPositions(text);
  const locate = (path: string[]): SourceLocation => {
    // The entry's own line, else the closest enclosing key or table (inline tables), else line 1.
    for (let n = path.length; n > 0; n--) {
      const position = keyLines.get(path.slice(0, n).join('\0'));
      if (position) return { file, ...position };
    }
    return { file, line: 1, column: 1 };
  };
  const project = data['project'];
  const scripts = isTable(project) ? project['scripts'] : undefined;
  if (isTable(scripts)) {
    for (const [name, target] of Object.entries(scripts)) {
      if (typeof target === 'string') out.push({ name, target: cleanTarget(target), location: locate(['project', 'scripts', name]) });
    }
  }
  // `[project.entry-points.console_scripts]`: the same scripts in the entry-point group form, which
  // setuptools accepts (PEP 621 reserves it; simonw's projects declare their CLIs this way).
  const groups = isTable(project) ? project['entry-points'] : undefined;
  const consoleScripts = isTable(groups) ? groups['console_scripts'] : undefined;
  if (isTable(consoleScripts)) {
    const declared = new Set(out.map((e) => e.name));
    for (const [name, target] of Object.entries(consoleScripts)) {
      if (typeof target === 'string' && !declared.has(name)) {
        out.push({ name, target: cleanTarget(target), location: locate(['project', 'entry-points', 'console_scripts', name]) });
      }
    }
  }
  const tool = data['tool'];
  const poetry = isTable(tool) ? tool['poetry'] : undefined;
  const poetryScripts = isTable(poetry) ? poetry['scripts'] : undefined;
  if (isTable(poetryScripts)) {
    for (const [name, value] of Object.entries(poetryScripts)) {
      const target = typeof value === 'string' ? value : isTable(value) ? (value['callable'] ?? value['reference']) : undefined;
      if (typeof target === 'string') out.push({ name, target: cleanTarget(target), location: locate(['tool', 'poetry', 'scripts', name]) });
    }
  }
}

/** Splits a TOML dotted key (`a."b.c".d`) into its segments; `undefined` when it is not a key. */
function splitTomlKey(raw: string): string[] | undefined {
  const parts: string[] = [];
  let i = 0;
  const s = raw.trim();
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    const quote = s[i];
    if (quote === '"' || quote === "'") {
      let j = i + 1;
      let value = '';
      while (j < s.length && s[j] !== quote) {
        if (quote === '"' && s[j] === '\\' && j + 1 < s.length) {
          value += s[j + 1];
          j += 2;
          continue;
        }
        value += s[j++];
      }
      if (j >= s.length) return undefined;
      parts.push(value);
      i = j + 1;
    } else {
      let j = i;
      while (j < s.length && s[j] !== '.' && s[j] !== ' ' && s[j] !== '\t') j++;
      if (j === i) return undefined;
      parts.push(s.slice(i, j));
      i = j;
    }
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i < s.length) {
      if (s[i] !== '.') return undefined;
      i++;
    }
  }
  return parts.length > 0 ? parts : undefined;
}

/** Index of the first `=` outside quotes, or -1. */
function keyEnd(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '=') return i;
    else if (ch === '#') return -1;
  }
  return -1;
}

/**
 * Maps each table header and key path (segments joined by NUL) to the position of its first
 * declaration. A line-level scan, good for the simple shape of packaging tables; values spanning
 * lines (multi-line strings, arrays) are skipped over only as far as their lines do not look like keys.
 */
function tomlKeyPositions(text: string): Map<string, { line: number; column: number }> {
  const positions = new Map<string, { line: number; column: number }>();
  let table: string[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const trimmed = line.trimStart();
    const column = line.length - trimmed.length + 1;
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (trimmed.startsWith('[')) {
      const double = trimmed.startsWith('[[');
      const close = trimmed.indexOf(double ? ']]' : ']');
      const header = close < 0 ? undefined : splitTomlKey(trimmed.slice(double ? 2 : 1, close));
      if (header) {
        table = header;
        const key = header.join('\0');
        if (!positions.has(key)) positions.set(key, { line: index + 1, column });
      }
      return;
    }
    const end = keyEnd(trimmed);
    const key = end > 0 ? splitTomlKey(trimmed.slice(0, end)) : undefined;
    if (!key) return;
    for (let n = 1; n <= key.length; n++) {
      const path = [...table, ...key.slice(0, n)].join('\0');
      if (!positions.has(path)) positions.set(path, { line: index + 1, column });
    }
  });
  return positions;
}

// ---------------------------------------------------------------- setup.cfg

function readSetupCfg(file: string, text: string, out: EntryPoint[], diagnostics: InputDiagnostic[]): void {
  let section: string | undefined;
  let currentKey: string | undefined;
  const lines = text.split(/\r?\n/);
  const addEntry = (raw: string, lineIndex: number, offset: number): void => {
    const eq = raw.indexOf('=');
    if (eq < 0) return;
    const name = raw.slice(0, eq).trim();
    const target = cleanTarget(raw.slice(eq + 1));
    if (name === '' || target === '') return;
    const column = offset + (raw.length - raw.trimStart().length) + 1;
    out.push({ name, target, location: { file, line: lineIndex + 1, column } });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const indented = line[0] === ' ' || line[0] === '\t';
    if (indented && currentKey !== undefined) {
      // configparser continuation line: part of the current key's value
      if (section === 'options.entry_points' && currentKey === 'console_scripts') addEntry(line, i, 0);
      continue;
    }
    if (trimmed.startsWith('[')) {
      const close = trimmed.indexOf(']');
      if (close < 0) {
        diagnostics.push(parseError(file, i + 1, line.indexOf('[') + 1, 'invalid INI: section header without `]`'));
        return;
      }
      section = trimmed.slice(1, close).trim();
      currentKey = undefined;
      continue;
    }
    const separator = [line.indexOf('='), line.indexOf(':')].filter((n) => n >= 0).sort((a, b) => a - b)[0];
    if (separator === undefined || section === undefined) {
      const why = section === undefined ? 'a key before any [section] header' : 'a line that is neither `key = value` nor a continuation';
      diagnostics.push(parseError(file, i + 1, line.length - line.trimStart().length + 1, `invalid INI: ${why}`));
      return;
    }
    currentKey = line.slice(0, separator).trim().toLowerCase();
    if (section === 'options.entry_points' && currentKey === 'console_scripts') {
      const rest = line.slice(separator + 1);
      if (rest.trim() !== '') addEntry(rest, i, separator + 1);
    }
  }
}
