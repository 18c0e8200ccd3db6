/**
 * Reads `.env.example`-style files (issue #31): each variable they list is a reference row of the
 * project's environment variables, its comment lines its description. The same line scanner reads
 * `.env` code blocks in documents (src/docs/env-usages.ts).
 */
import type { InputDiagnostic, ReferenceRow, SourceLocation } from '../model/types.js';

/** Most lines of an env file read; the rest is left out with a `warn` `parse-error`. */
export const MAX_ENV_FILE_LINES = 20_000;
/** Most characters of an env file read (UTF-16 code units); the rest is left out likewise. */
export const MAX_ENV_FILE_CHARS = 1024 * 1024;
/** Most lines a quoted value may span (dotenv allows multi-line quoted values). */
const MAX_VALUE_LINES = 200;

/** One `KEY=value` line of an env file or `.env` block, as written. */
export interface EnvLine {
  key: string;
  /** The value after quote removal (dotenv's rules), `''` for `KEY=`; absent only when not written (`export KEY`). */
  value?: string;
  /** The value was written in quotes (`'…'`, `"…"`, `` `…` ``). */
  quoted: boolean;
  /** The line is commented out (`# KEY=value`): listed but not set. */
  commented: boolean;
  /** 0-based index of the key's line, and 0-based column (UTF-16) of the key's first character. */
  line: number;
  column: number;
  /** 0-based line and column of the value's first character (the opening quote), when there is a value. */
  valueLine?: number;
  valueColumn?: number;
  /** The value's length as written on its first line (quotes included). */
  valueLength?: number;
  /** The comment lines right above (no blank line between), `#` removed, joined with blanks. */
  above?: string;
  /** The `# …` after the value on the same line. */
  trailing?: string;
}

/** What {@link scanEnvLines} read, and where it stopped when over the limits. */
export interface EnvScan {
  lines: EnvLine[];
  /** Set when the text was over {@link MAX_ENV_FILE_LINES} or {@link MAX_ENV_FILE_CHARS}: the 0-based line where reading stopped. */
  stoppedAt?: number;
}

/** `[export ]KEY` then `=` (or dotenv's `KEY: value`); keys as dotenv accepts them (`[\w.-]+`), not starting with a digit or `.`/`-`. */
const ACTIVE_RE = /^([ \t]*)(?:export[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*(=|:(?=[ \t]))/;
/** A commented-out assignment: `# KEY=value`, `#KEY=`, `# export KEY=v`. Upper-case keys only (prose is not read as keys). */
const COMMENTED_RE = /^([ \t]*#+[ \t]*)(?:export[ \t]+)?([A-Z_][A-Z0-9_]*)=/;
/** `export KEY` alone (no value): declares the variable. */
const EXPORT_ONLY_RE = /^([ \t]*)export[ \t]+([A-Za-z_]\w*)[ \t]*(?:#.*)?$/;
const COMMENT_RE = /^[ \t]*#/;
/** A comment that starts or ends with a rule of `-`, `=`, `*`, `#`, `~` or `_` (three or more). */
const BANNER_RE = /^[-=*#~_]{3}|[-=*#~_]{3}$/;

/**
 * Scans env-file text line by line, following the parsing rules of the `dotenv` npm package
 * (https://github.com/motdotla/dotenv#what-rules-does-the-parsing-engine-follow, v16/v17):
 * blank lines and `#` comment lines are skipped; `export ` before a key is allowed; `KEY=value`
 * and `KEY: value`; an unquoted value ends at `#` and is trimmed; a value in single, double or back
 * quotes keeps its inner blanks and `#`, may span lines (up to 200 here) and may be followed by a
 * comment; in a double-quoted value `\n` and `\r` become newline and carriage return; a quote
 * never closed makes the value unquoted (the rest of the line). Beyond dotenv, commented-out
 * assignments of upper-case keys (`# LOG_LEVEL=info`, how `.env.example` files list optional
 * variables) are returned with `commented`, and `export KEY` alone gives a key without value.
 * A leading byte-order mark is skipped (columns count from after it); CRLF and CR line ends are
 * accepted. Reads at most {@link MAX_ENV_FILE_LINES} lines and {@link MAX_ENV_FILE_CHARS}
 * characters; linear in the text read. Never throws.
 */
export function scanEnvLines(source: string): EnvScan {
  let text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  let stoppedAt: number | undefined;
  if (text.length > MAX_ENV_FILE_CHARS) {
    text = text.slice(0, MAX_ENV_FILE_CHARS);
    const cut = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    text = text.slice(0, Math.max(cut, 0));
    stoppedAt = text === '' ? 0 : countLines(text) + 1;
  }
  const rows = text.split(/\r\n|\r|\n/, MAX_ENV_FILE_LINES + 1);
  if (rows.length > MAX_ENV_FILE_LINES) {
    rows.length = MAX_ENV_FILE_LINES;
    stoppedAt = MAX_ENV_FILE_LINES;
  }
  const out: EnvLine[] = [];
  let comments: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.trim() === '') {
      comments = [];
      continue;
    }
    const active = ACTIVE_RE.exec(row);
    const commented = active ? null : COMMENTED_RE.exec(row);
    const m = active ?? commented;
    if (!m) {
      const exported = EXPORT_ONLY_RE.exec(row);
      if (exported) {
        out.push({ key: exported[2]!, quoted: false, commented: false, line: i, column: keyColumnOf(row, exported[1]!.length, exported[2]!), ...describe(comments) });
        comments = [];
      } else if (COMMENT_RE.test(row)) {
        const comment = row.replace(/^[ \t]*#+[ \t]?/, '').trim();
        // A banner or section title (`# ------ Database ------`, `# =====`) describes a group, not the next key.
        if (BANNER_RE.test(comment)) comments = [];
        else comments.push(comment);
      } else comments = [];
      continue;
    }
    const key = m[2]!;
    const keyColumn = keyColumnOf(row, m[1]!.length, key);
    let rest = row.slice(m[0].length);
    let valueColumn = m[0].length;
    const lead = /^[ \t]*/.exec(rest)![0].length;
    rest = rest.slice(lead);
    valueColumn += lead;
    const entry: EnvLine = { key, quoted: false, commented: commented !== null, line: i, column: keyColumn, ...describe(comments) };
    comments = [];
    const q = rest[0];
    let handled = false;
    if (q === '"' || q === "'" || q === '`') {
      const close = closingQuote(rows, i, valueColumn, q);
      if (close) {
        const inner = close.line === i
          ? rows[i]!.slice(valueColumn + 1, close.column)
          : [rows[i]!.slice(valueColumn + 1), ...rows.slice(i + 1, close.line), rows[close.line]!.slice(0, close.column)].join('\n');
        entry.value = q === '"' ? inner.replace(/\\n/g, '\n').replace(/\\r/g, '\r') : inner;
        entry.quoted = true;
        entry.valueLine = i;
        entry.valueColumn = valueColumn;
        entry.valueLength = (close.line === i ? close.column + 1 : rows[i]!.length) - valueColumn;
        const after = rows[close.line]!.slice(close.column + 1);
        const tail = /^[ \t]*#[ \t]?(.*)$/.exec(after);
        if (tail && tail[1]!.trim() !== '' && !commented) entry.trailing = tail[1]!.trim();
        i = close.line;
        handled = true;
      }
    }
    if (!handled) {
      const hash = rest.indexOf('#');
      const raw = hash < 0 ? rest : rest.slice(0, hash);
      const value = raw.trim();
      entry.value = value;
      if (value !== '') {
        entry.valueLine = i;
        entry.valueColumn = valueColumn;
        entry.valueLength = value.length;
      }
      if (hash >= 0 && !commented) {
        const tail = rest.slice(hash + 1).replace(/^#+/, '').trim();
        if (tail !== '') entry.trailing = tail;
      }
    }
    out.push(entry);
  }
  return { lines: out, ...(stoppedAt !== undefined ? { stoppedAt } : {}) };
}

/** Column of `key` in `row`, whose text before it is `lead` characters then an optional `export `. */
function keyColumnOf(row: string, lead: number, key: string): number {
  const ex = /^export[ \t]+/.exec(row.slice(lead));
  return ex && row.startsWith(key, lead + ex[0].length) ? lead + ex[0].length : lead;
}

function describe(comments: readonly string[]): { above?: string } {
  const text = comments.filter((c) => c !== '').join(' ').trim();
  return text === '' ? {} : { above: text };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/** The closing quote of a value opened at `rows[line][column]`, on that line or up to {@link MAX_VALUE_LINES} later; a `\`-escaped quote does not close. */
function closingQuote(rows: readonly string[], line: number, column: number, quote: string): { line: number; column: number } | undefined {
  for (let l = line; l < rows.length && l < line + MAX_VALUE_LINES; l++) {
    const row = rows[l]!;
    for (let c = l === line ? column + 1 : 0; c < row.length; c++) {
      if (row[c] === '\\') {
        c++;
        continue;
      }
      if (row[c] === quote) return { line: l, column: c };
    }
  }
  return undefined;
}

/**
 * Parses an env file (`.env.example`, `.env.sample`, `env.template`, …; see
 * `ENV_FILE_PATTERNS` in src/engine/discover.ts) into reference rows of the project's environment
 * variables (layout `env-file`), one per `KEY=value` line read by {@link scanEnvLines}, in line
 * order, commented-out assignments (`# KEY=value`) included: they are how such files list the
 * optional variables.
 *
 * Each row: `names` `[KEY]`, `rawName` the key as written, `default` the value when not empty
 * (quotes removed), `defaultLocation` the value as written, `description` the comment lines right
 * above the line (no blank line between; banner lines such as `# ------ Database ------` and the
 * lines above them left out), else the `# …` after the value, and `location` the key.
 * A key listed twice gives two rows (describing the file, not judging it).
 *
 * @param file project-relative POSIX path, used in every location.
 * @param text the file's contents.
 * @returns the rows, and a `warn` `parse-error` diagnostic when the file is over the limits
 *   (the rows of its first part are kept). Never throws.
 */
export function parseEnvFile(file: string, text: string): { rows: ReferenceRow[]; diagnostics: InputDiagnostic[] } {
  const diagnostics: InputDiagnostic[] = [];
  let scan: EnvScan;
  try {
    scan = scanEnvLines(text);
  } catch (error) {
    return {
      rows: [],
      diagnostics: [{ ruleId: 'parse-error', severity: 'error', message: `Could not read the env file: ${error instanceof Error ? error.message : String(error)}`, location: { file, line: 1, column: 1 } }],
    };
  }
  if (scan.stoppedAt !== undefined) {
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Env file read up to line ${scan.stoppedAt} only: it is over ${MAX_ENV_FILE_LINES} lines or ${MAX_ENV_FILE_CHARS} characters`,
      location: { file, line: scan.stoppedAt + 1, column: 1 },
    });
  }
  const rows = scan.lines.map((l): ReferenceRow => {
    const location: SourceLocation = { file, line: l.line + 1, column: l.column + 1, endLine: l.line + 1, endColumn: l.column + 1 + l.key.length };
    const description = l.above ?? l.trailing;
    return {
      names: [l.key],
      rawName: l.key,
      ...(l.value !== undefined && l.value !== '' ? { default: l.value } : {}),
      ...(l.value !== undefined && l.value !== '' && l.valueLine !== undefined && l.valueColumn !== undefined
        ? { defaultLocation: { file, line: l.valueLine + 1, column: l.valueColumn + 1, endLine: l.valueLine + 1, endColumn: l.valueColumn + 1 + (l.valueLength ?? 0) } }
        : {}),
      ...(description !== undefined ? { description } : {}),
      links: [],
      location,
    };
  });
  return { rows, diagnostics };
}
