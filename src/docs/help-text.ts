/**
 * Reads `--help` output pasted into a fenced block (argparse, click, typer incl. rich boxes,
 * yargs, commander) as a reference layout: the command its usage line names and one
 * ReferenceRow per option line, with exact positions.
 */

import type { Code } from 'mdast';
import type { HelpBlock, ReferenceRow, SourceLocation } from '../model/types.js';
import { codeLines, type CodeLine } from './code-blocks.js';
import { flagSpellingsInText, normalizeParamName } from './reference-table.js';

/** Info-string languages (lower-cased) a pasted `--help` block is written with; none counts too. */
const HELP_LANGS: ReadonlySet<string> = new Set([
  'text', 'txt', 'plain', 'plaintext', 'console', 'shell', 'sh', 'bash', 'zsh', 'shell-session', 'shellsession',
  'help', 'output', 'none', 'ansi', 'terminal', 'term', 'cli', 'log',
]);

/** Languages of shell scripts: a yargs-style unlabeled usage line there is a command with continuation lines. */
const SHELL_SCRIPT_LANGS: ReadonlySet<string> = new Set(['shell', 'sh', 'bash', 'zsh']);
/** `usage: quill [-h] …` / `Usage: llm prompt [OPTIONS]` (argparse, click, typer, commander). */
const USAGE_RE = /^\s*usage:\s*(.*)$/i;
/** yargs' usage line has no label: `concurrently [options] <command ...>`. */
const BARE_USAGE_RE = /^\s*([A-Za-z][\w.@/-]*(?:\s+[a-z][\w:.-]*)*)\s+[[<]/;
/**
 * A prompt line asking for help (`$ quill --help`, `> llm prompt -h`, a shell's full prompt
 * `[root@host ~]# quill -h`, `user@host:~/src$ quill --help`, `(venv) $ quill -h`): the
 * transcript's command.
 */
const HELP_PROMPT_RE = /^\s*(?:\([^)\s]*\)\s*)?(?:\[[^\]]*\]\s*[$#%>]|[\w.-]+@[\w.-]+(?::\S*)?\s*[$#%>]|[$%>])\s+(.+?)\s+(?:--help|-h|help)\s*$/;
/** The same command line pasted without a prompt (`mytool serve --help`), as the first line of a block. */
const BARE_HELP_PROMPT_RE = /^\s*([A-Za-z][\w.@/-]*(?:\s+[A-Za-z][\w.:-]*){0,3})\s+(?:--help|-h)\s*$/;
/** A flag token at the start of an option line (`-m`, `--max-processes`, `--[no-]color`, `-?`). */
const FLAG_START_RE = /^-{1,2}(?:\[no-?\])?[A-Za-z0-9?]/;
/** A column after the flags that is a value placeholder, not a description (`TEXT`, `<dir>`, `{a,b}`, `INTEGER RANGE`). */
const METAVAR_COLUMN_RE = /^(?:[A-Z][A-Z0-9_-]*(?:\s+[A-Z][A-Z0-9_-]*)?(?:\.\.\.)?|<[^>]+>(?:\.\.\.)?|\[[^\]]+\]|\{[^}]+\})$/;
/** Built-in option lines every framework prints; they document no parameter of the program. */
const BUILT_IN_NAMES: ReadonlySet<string> = new Set(['help', 'h', '?']);
/** Box-drawing characters of rich (typer) panels, replaced by blanks so columns keep their places. */
const BOX_CHARS_RE = /[│┃║]/g;
/** A rich panel's border line (`╭─ Options ──╮`, `╰────╯`). */
const BOX_BORDER_RE = /^\s*[╭╰┌└┏┗─━]/;

/** The command words a usage text names: program path, `.py`/`.js` and interpreter prefixes dropped. */
export function usageCommand(usage: string): string[] {
  const tokens = usage.trim().split(/\s+/);
  while (tokens.length > 0 && /^(?:python3?|py|node|npx|uvx|pipx|-m)$/.test(tokens[0]!)) tokens.shift();
  const words: string[] = [];
  for (const token of tokens) {
    const t = words.length === 0 ? token.replace(/^.*\//, '').replace(/\.(?:py|js|mjs|cjs|ts)$/, '') : token;
    if (!/^[A-Za-z0-9][\w.:@-]*$/.test(t) || /^[A-Z][A-Z0-9_-]+$/.test(t) || t.endsWith('...')) break;
    words.push(t);
  }
  return words;
}

/** One option line with its continuation lines. */
interface OptionLines {
  line: CodeLine;
  /** The line's text with box characters blanked. */
  text: string;
  indent: number;
  more: Array<{ line: CodeLine; text: string }>;
  /** Marked required by rich's `*` before the flag. */
  required: boolean;
}

/** Where `value` is in a code line, as a location (first occurrence at or after `from`). */
function locate(file: string, line: CodeLine, text: string, value: string, from = 0): SourceLocation | undefined {
  const at = text.indexOf(value, from);
  if (at < 0 || value === '') return undefined;
  const column = line.column + at;
  return { file, line: line.line, column, endLine: line.line, endColumn: column + value.length };
}

/**
 * The documented default in an option's help text: `[default: x]` (click, yargs, typer), `(default: x)`
 * (argparse's ArgumentDefaultsHelpFormatter, commander), quotes kept as written.
 */
function helpDefault(texts: ReadonlyArray<{ line: CodeLine; text: string }>, file: string): { value: string; location?: SourceLocation } | undefined {
  for (const { line, text } of texts) {
    const m = /\[default:\s*((?:[^[\]]|\[[^\]]*\])*?)\s*\]|\(default:\s*((?:[^()]|\([^)]*\))*?)\s*\)/i.exec(text);
    if (!m) continue;
    const value = (m[1] ?? m[2] ?? '').trim();
    if (value === '') return undefined;
    const loc = locate(file, line, text, value, m.index);
    return loc ? { value, location: loc } : { value };
  }
  return undefined;
}

/** Splits an option line into its flag part and its description (after the first run of 2+ blanks that is not a placeholder column). */
function splitOption(text: string): { spec: string; description: string } {
  const columns = text.trim().split(/\s{2,}/);
  let spec = columns.shift() ?? '';
  while (columns.length > 0 && (FLAG_START_RE.test(columns[0]!) || METAVAR_COLUMN_RE.test(columns[0]!))) spec += ` ${columns.shift()!}`;
  return { spec, description: columns.join(' ') };
}

/** The parameter names an option's flag part spells: long names first, `--no-x` adding `x`. */
function specNames(spec: string): string[] {
  const flags = [...spec.matchAll(/(?:^|[\s,/|])(--?(?:\[no-?\])?[A-Za-z0-9?][\w.-]*)/g)].map((m) => m[1]!);
  const long = flags.filter((f) => f.startsWith('--'));
  const short = flags.filter((f) => !f.startsWith('--'));
  const names: string[] = [];
  const add = (n: string): void => {
    if (n !== '' && !names.includes(n)) names.push(n);
  };
  for (const f of [...long, ...short]) add(normalizeParamName(f));
  for (const f of long) {
    if (/^--\[no-?\]/.test(f)) add(`no-${normalizeParamName(f)}`);
    else if (f.startsWith('--no-')) add(f.slice(5));
  }
  return names;
}

/**
 * Reads one fenced block as pasted `--help` output, or returns `undefined` when it is not one.
 *
 * A block counts when its language is none or a text/shell one ({@link HELP_LANGS}) and it has a
 * usage line — `usage: …` / `Usage: …` among its first lines (after a `$ cmd --help` prompt
 * line), or yargs' unlabeled `cmd [options] <arg>` as its first line, in a block that is not a
 * shell script, not ending in `\`, and followed by a group label at the margin — then option lines:
 * at least one after a labelled usage line, two after an unlabeled one. An option line starts,
 * after at most 12 blanks (and rich's `│` and `*` required marker), with a flag (`-m, --max`,
 * `--ink_colour INK_COLOUR`, `-n NIB, --nib NIB`, `--shake / --no-shake`, `-p, --port <n>`,
 * `--name  -n  TEXT` in rich panels), not deeper than 6 columns past the block's first option
 * line; deeper non-flag lines continue its description. Section labels (`options:`, `General`),
 * positional arguments, sub-command lists and examples give no rows; nor do `-h, --help` lines.
 * A block with no usage line counts when it is option lines only: its first line is a flag line
 * (at the margin or indented ≤ 12), every other line an option line or a deeper continuation, two
 * options or more; it documents the command of the section around it.
 * An excerpt — a line of just `...` among the options — is not a reference (it lists some options).
 *
 * Each row: `names` from the flags (long ones first; `--no-x` also names `x`), `rawName` the flag
 * part as written, `description` the help text, `default` from `[default: x]` or `(default: x)`
 * in it (quotes kept), `location` the flag part, `defaultLocation` the value.
 */
export function readHelpBlock(file: string, node: Code, rawLines: readonly string[]): HelpBlock | undefined {
  const lang = node.lang?.toLowerCase();
  if (lang && !HELP_LANGS.has(lang)) return undefined;
  if (!/usage|--|\s-[A-Za-z]/i.test(node.value)) return undefined;
  const lines = codeLines(node, rawLines, true);
  if (!lines || lines.length === 0) return undefined;
  const texts = lines.map((l) => l.text.replace(BOX_CHARS_RE, ' '));

  // The usage line: among the first non-blank lines, after a `$ cmd --help` prompt.
  let usage: string[] | undefined;
  let usageAt = -1;
  let labelled = false;
  let prompted: string[] = [];
  let seen = 0;
  for (let i = 0; i < texts.length && seen < 4 && usageAt < 0; i++) {
    const t = texts[i]!;
    if (t.trim() === '' || BOX_BORDER_RE.test(t)) continue;
    seen++;
    // A first line `tool --help` with no prompt is the command that printed what follows, when a
    // usage line comes next.
    const bare = seen === 1 ? BARE_HELP_PROMPT_RE.exec(t) : null;
    const next = texts.slice(i + 1).find((x) => x.trim() !== '');
    const prompt = HELP_PROMPT_RE.exec(t) ?? (bare && next !== undefined && USAGE_RE.test(next) ? bare : null);
    if (prompt) {
      prompted = usageCommand(prompt[1]!);
      continue;
    }
    // A shell comment above the transcript (`# TODO: update`) is no part of the output.
    if (/^\s*#\s/.test(t) && !USAGE_RE.test(t)) {
      seen--;
      continue;
    }
    const m = USAGE_RE.exec(t);
    if (m) {
      let rest = m[1]!;
      if (rest.trim() === '') rest = texts.slice(i + 1).find((x) => x.trim() !== '') ?? '';
      usage = usageCommand(rest);
      usageAt = i;
      labelled = true;
    } else if ((seen === 1 || prompted.length > 0) && !SHELL_SCRIPT_LANGS.has(lang ?? '')) {
      const bare = BARE_USAGE_RE.exec(t);
      // yargs: a group label (`General`, `Options:`) at the margin follows before the first option.
      const labelled = texts.slice(i + 1).find((x) => x.trim() !== '');
      if (bare && !FLAG_START_RE.test(t.trim()) && !/\\\s*$/.test(t) && labelled !== undefined && /^\S/.test(labelled)) {
        usage = usageCommand(bare[1]!);
        usageAt = i;
      }
      break;
    } else {
      break;
    }
  }
  // No usage line: a block of option lines only (flag lines, descriptions indented under them),
  // as READMEs paste the options part of `--help` under an `Options` heading.
  let optionsOnly = false;
  if (usageAt < 0 && prompted.length === 0) {
    const first = texts.findIndex((x) => x.trim() !== '');
    if (first >= 0 && FLAG_START_RE.test(texts[first]!.trim()) && /^\s{0,12}\S/.test(texts[first]!)) {
      optionsOnly = true;
      usage = [];
      usageAt = first - 1;
    }
  }
  if (usageAt < 0 && !optionsOnly) return undefined;
  if (usage === undefined) return undefined;
  if (usage.length === 0) usage = prompted;

  // Option lines and their continuations.
  const options: OptionLines[] = [];
  let firstIndent: number | undefined;
  let current: OptionLines | undefined;
  for (let i = usageAt + 1; i < texts.length; i++) {
    let t = texts[i]!;
    if (t.trim() === '' || BOX_BORDER_RE.test(t)) {
      current = undefined;
      continue;
    }
    const starred = /^\s*\*\s/.test(t);
    t = t.replace(/^(\s*)\*(\s)/, '$1 $2'); // rich's required marker
    const indent = /^\s*/.exec(t)![0].length;
    const body = t.slice(indent);
    const isOption = indent >= (optionsOnly ? 0 : 1) && indent <= 12 && FLAG_START_RE.test(body)
      && (firstIndent === undefined || indent <= firstIndent + 6)
      && !(current && indent > current.indent + 2 && indent >= 16);
    if (isOption) {
      firstIndent ??= indent;
      current = { line: lines[i]!, text: t, indent, more: [], required: starred };
      options.push(current);
    } else if (current && indent > current.indent) {
      current.more.push({ line: lines[i]!, text: t });
    } else {
      current = undefined;
      // An options-only block is nothing but option lines and their descriptions.
      if (optionsOnly) return undefined;
    }
  }
  if (options.length < (labelled ? 1 : 2)) return undefined;
  // An excerpt (`  ...` in place of the other options) documents some options, not all of them.
  if (texts.slice(usageAt + 1).some((x) => /^\s*(?:\.\.\.|…|\[\.\.\.\])\s*$/.test(x))) return undefined;

  const rows: ReferenceRow[] = [];
  for (const o of options) {
    const { spec, description } = splitOption(o.text);
    const names = specNames(spec);
    if (names.length === 0 || names.every((n) => BUILT_IN_NAMES.has(n))) continue;
    const location = locate(file, o.line, o.text, spec, o.indent) ?? { file, line: o.line.line, column: o.line.column };
    const fullDescription = [description, ...o.more.map((m) => m.text.trim())].filter((d) => d !== '').join(' ').replace(/\s+/g, ' ').trim();
    const row: ReferenceRow = { names, rawName: spec, links: [], location };
    // `-c, --skip-type-check`: each spelling is checked against the flag the others name, as in tables.
    const written = flagSpellingsInText(spec, location);
    if (written.length >= 2) row.flagSpellings = written;
    if (fullDescription !== '') row.description = fullDescription;
    if (/\[required\]/i.test(fullDescription) || o.required) row.required = true;
    const def = helpDefault([{ line: o.line, text: o.text }, ...o.more], file);
    if (def) {
      row.default = def.value;
      if (def.location) row.defaultLocation = def.location;
    }
    rows.push(row);
  }
  // argparse's usage synopsis names every optional (`[--ssh-username SSH_USERNAME]`): a flag it
  // names that no option line lists (a line deleted by hand) is documented there all the same.
  if (labelled) {
    const listed = new Set(rows.flatMap((r) => r.names));
    for (let i = usageAt; i < texts.length; i++) {
      const t = texts[i]!;
      // The synopsis runs to the first blank or unindented line.
      if (i > usageAt && (t.trim() === '' || !/^\s/.test(t))) break;
      const from = i === usageAt ? Math.max(0, t.search(/usage:/i)) : 0;
      for (const m of t.slice(from).matchAll(/(?<![\w-])--[A-Za-z][\w-]*/g)) {
        const name = normalizeParamName(m[0]);
        if (listed.has(name) || BUILT_IN_NAMES.has(name) || name === 'version') continue;
        listed.add(name);
        const location = locate(file, lines[i]!, t, m[0], from + m.index) ?? { file, line: lines[i]!.line, column: lines[i]!.column };
        rows.push({ names: [name], rawName: m[0], links: [], location });
      }
    }
  }
  // An options-only block is located at its first option line.
  const anchor = optionsOnly ? usageAt + 1 : usageAt;
  const usageLine = lines[anchor]!;
  const usageText = texts[anchor]!;
  const start = /\S/.exec(usageText)?.index ?? 0;
  return {
    usage,
    location: { file, line: usageLine.line, column: usageLine.column + start, endLine: usageLine.line, endColumn: usageLine.column + usageText.trimEnd().length },
    endLine: node.position?.end.line ?? usageLine.line,
    rows,
  };
}
