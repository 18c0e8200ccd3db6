/**
 * Reads `--help` output pasted into a fenced or indented code block as a reference layout: the
 * command its usage line names and one ReferenceRow per option line, with exact positions. The
 * formats are those the frameworks print: argparse, click, typer (rich boxes), yargs, commander,
 * meow, cac, sade, oclif, citty, clipanion, docopt and fire (issue #30).
 */

import type { Code } from 'mdast';
import type { HelpBlock, ReferenceRow, SourceLocation, UnreadHelp } from '../model/types.js';
import { codeLines, type CodeLine } from './code-blocks.js';
import { flagSpellingsInText, normalizeParamName } from './reference-table.js';
import { pushUnique } from '../shared/arrays.js';

/** Info-string languages (lower-cased) a pasted `--help` block is written with; none counts too. */
const HELP_LANGS: ReadonlySet<string> = new Set([
  'text', 'txt', 'plain', 'plaintext', 'console', 'shell', 'sh', 'bash', 'zsh', 'shell-session', 'shellsession',
  'help', 'output', 'none', 'ansi', 'terminal', 'term', 'cli', 'log',
]);

/** Languages of shell scripts: a yargs-style unlabeled usage line there is a command with continuation lines. */
const SHELL_SCRIPT_LANGS: ReadonlySet<string> = new Set(['shell', 'sh', 'bash', 'zsh']);
/** `usage: quill [-h] …` / `Usage: llm prompt [OPTIONS]` (argparse, click, typer, commander). */
export const USAGE_RE = /^\s*usage:\s*(\S.*|)$/i; // `(\S.*|)`, not `(.*)`: the blank run is `\s*`'s alone (linear; s27)
/** A usage label alone on its line, the usage below it: `Usage:` (cac), `Usage` (meow, sade, clipanion), `USAGE` (oclif), `SYNOPSIS` (fire). */
export const USAGE_HEADER_RE = /^\s*(?:usage|synopsis)\s*(?::\s*)?$/i; // one blank run on each side of the colon (linear; s27)
/** citty's usage: the capital label and the usage on one line, no colon (`USAGE kiln serve [OPTIONS]`). */
const CAPS_USAGE_RE = /^\s*USAGE\s+(\S.*)$/;
/** At most this many non-blank lines (a version banner, a description, fire's `NAME` section) come before the usage label. */
const MAX_PREAMBLE = 12;
/**
 * Labels of sections that list no options (`Examples`, `DESCRIPTION`, `Commands:`, `ARGUMENTS`,
 * oclif's `FLAG DESCRIPTIONS` (long help of flags `FLAGS` lists), cac's and sade's `For more info,
 * run any command with the `--help` flag:`): a line there that starts with a flag is an example,
 * prose or a repeat, never an option line.
 */
const NON_OPTION_LABEL_RE = /^(?:examples?|example usage|description|details|flag descriptions|(?:available |sub-?)?commands|(?:positional )?arguments|positionals|usage|synopsis|name|notes?|see also|environment(?: variables)?|aliases|topics|version|for more info\b.*)\s*:?$/i;
/** Labels of option lists: `Options:`, `OPTIONS`, `FLAGS`, `GLOBAL FLAGS`, `optional arguments:`, `General Options`. */
const OPTION_LABEL_RE = /^(?:[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3}\s+)?(?:options|flags|optional arguments|switches)\s*:?$/i;
/** yargs' usage line has no label: `concurrently [options] <command ...>`. */
const BARE_USAGE_RE = /^\s*([A-Za-z][\w.@/-]*(?:\s+[a-z][\w:.-]*)*)\s+[[<]/;
/**
 * A prompt line asking for help (`$ quill --help`, `> llm prompt -h`, a shell's full prompt
 * `[root@host ~]# quill -h`, `user@host:~/src$ quill --help`, `(venv) $ quill -h`): the
 * transcript's command.
 */
const HELP_PROMPT_RE = /^\s*(?:\([^)\s]*\)\s*)?(?:\[[^\]]*\]\s*[$#%>]|[\w.-]+@[\w.-]+(?::\S*)?\s*[$#%>]|[$%>])\s+(.+?)\s+(?:--help|-h|help)\s*$/;
/**
 * Characters of the longest line {@link HELP_PROMPT_RE} is tried on. Its blank runs around the
 * command backtrack cubically (a 2,000-character line of tabs took 2.8 s, 300 characters up to
 * 24 ms, 200 characters ~3 ms; s27); a prompt line asking for help is a prompt and a command of
 * a few words, far shorter than this.
 */
const MAX_HELP_PROMPT_LINE = 200;
/** The same command line pasted without a prompt (`mytool serve --help`), as the first line of a block. */
const BARE_HELP_PROMPT_RE = /^\s*([A-Za-z][\w.@/-]*(?:\s+[A-Za-z][\w.:-]*){0,3})\s+(?:--help|-h)\s*$/;
/** A flag token at the start of an option line (`-m`, `--max-processes`, `--[no-]color`, `-?`). */
const FLAG_START_RE = /^-{1,2}(?:\[no-?\])?[A-Za-z0-9?]/;
/** A column after the flags that is a value placeholder, not a description (`TEXT`, `<dir>`, `{a,b}`, `INTEGER RANGE`). */
const METAVAR_COLUMN_RE = /^(?:[A-Z][A-Z0-9_-]*(?:\s+[A-Z][A-Z0-9_-]*)?(?:\.\.\.)?|<[^>]+>(?:\.\.\.)?|\[[^\]]+\]|\{[^}]+\})$/;
/** Built-in option lines every framework prints; they document no parameter of the program. */
const BUILT_IN_NAMES: ReadonlySet<string> = new Set(['help', 'h', '?']);
/**
 * Box-drawing characters, replaced by blanks so columns keep their places: the sides of rich
 * (typer) panels, and their borders (`╭─ Options ──╮` becomes the label `Options`, `╰───╯` a blank
 * line), as clipanion's `━━━ Usage ━━━` labels.
 */
const BOX_CHARS_RE = /[│┃║╭╮╰╯┌┐└┘┏┓┗┛─━]/g;

/** The command words a usage text names: program path, `.py`/`.js` and interpreter prefixes dropped. */
export function usageCommand(usage: string): string[] {
  const tokens = usage.trim().split(/\s+/);
  while (tokens.length > 0 && /^(?:[$%>]|python3?|py|node|npx|uvx|pipx|-m)$/.test(tokens[0]!)) tokens.shift();
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
  /** Columns of indent (tabs expanded). */
  indent: number;
  /** Characters of indent, where the flag part starts in `text`. */
  lead: number;
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
 * The documented default in an option's help text: `[default: x]` (click, yargs, typer, oclif,
 * docopt), `(default: x)` (argparse's ArgumentDefaultsHelpFormatter, commander, cac, meow),
 * `(default x)` (sade), `(Default: x)` (citty), or a continuation line that is only `Default: x`
 * with its capital (fire; commander's wrapped `(choices: …,` / `default: x)` is no such line);
 * quotes kept as written.
 */
function helpDefault(texts: ReadonlyArray<{ line: CodeLine; text: string }>, file: string): { value: string; location?: SourceLocation } | undefined {
  for (const [k, { line, text }] of texts.entries()) {
    // A bracket without its closing one makes the pattern below rescan the rest of the line from
    // each `[default:` (quadratic: 2.6 s on 100 KB, s27); no option line of a help text is this long.
    if (text.length > MAX_HELP_OPTION_LINE) continue;
    // Greedy groups, trimmed below, and a line without trailing blanks: the lazy `(…)*?\s*\]` and
    // `(\S.*?)\s*$` rescanned a blank run from each of its positions (s26b sweep O2).
    const m = /\[default:((?:[^[\]]|\[[^\]]*\])*)\]|\(default:?(?=\s)((?:[^()]|\([^)]*\))*)\)/i.exec(text)
      ?? (k > 0 ? /^\s*Default:\s+(\S.*)$/.exec(text.trimEnd()) : null);
    if (!m) continue;
    const value = (m[1] ?? m[2] ?? '').trim();
    if (value === '') return undefined;
    const loc = locate(file, line, text, value, m.index);
    return loc ? { value, location: loc } : { value };
  }
  return undefined;
}

/** Characters of the longest option or continuation line {@link helpDefault} reads a default from. */
const MAX_HELP_OPTION_LINE = 2000;

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
    if (n !== '') pushUnique(names, n);
  };
  for (const f of [...long, ...short]) add(normalizeParamName(f));
  for (const f of long) {
    if (/^--\[no-?\]/.test(f)) add(`no-${normalizeParamName(f)}`);
    else if (f.startsWith('--no-')) add(f.slice(5));
  }
  return names;
}


/** Columns a line is indented by, a tab advancing to the next multiple of 4. */
function indentWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** The first word of a usage pattern (its program), a `$ ` prompt dropped. */
function programWord(text: string): string {
  return text.trim().replace(/^[$%>]\s+/, '').split(/\s+/)[0] ?? '';
}

/** The command words every usage pattern shares (docopt lists one pattern per sub-command: the block documents their program). */
function commonWords(patterns: readonly string[]): string[] {
  const all = patterns.map((p) => usageCommand(p));
  const first = all[0] ?? [];
  let n = first.length;
  for (const words of all.slice(1)) {
    let k = 0;
    while (k < n && k < words.length && words[k] === first[k]) k++;
    n = k;
  }
  return first.slice(0, n);
}

/** Where the usage is: the command words, the lines of the usage part `[start, end)`, whether it had a label. */
interface UsagePart {
  words: string[];
  start: number;
  end: number;
  labelled: boolean;
}

/**
 * Finds the usage part among a block's first lines, after a `$ cmd --help` prompt, shell comments
 * and up to {@link MAX_PREAMBLE} lines of preamble (a version banner, a description):
 * `usage: x …` with its continuation lines (patterns that start with the same program, as docopt
 * aligns them, count too); a label alone (`Usage:`, `Usage`, `USAGE`, `SYNOPSIS`) with its
 * patterns below; citty's `USAGE x …`; yargs' unlabeled `x [options] <arg>` as the first line.
 */
function findUsage(texts: readonly string[], lang: string | undefined): { usage?: UsagePart; prompted: string[] } {
  let prompted: string[] = [];
  let seen = 0;
  const nextNonBlank = (from: number): number => {
    let j = from;
    while (j < texts.length && texts[j]!.trim() === '') j++;
    return j;
  };
  for (let i = 0; i < texts.length && seen <= MAX_PREAMBLE; i++) {
    const t = texts[i]!;
    if (t.trim() === '') continue;
    seen++;
    // A first line `tool --help` with no prompt is the command that printed what follows, when a
    // usage line comes next.
    const bare = seen === 1 ? BARE_HELP_PROMPT_RE.exec(t) : null;
    const next = texts.slice(i + 1).find((x) => x.trim() !== '');
    const prompt = (t.length <= MAX_HELP_PROMPT_LINE ? HELP_PROMPT_RE.exec(t) : null) ?? (bare && next !== undefined && (USAGE_RE.test(next) || USAGE_HEADER_RE.test(next)) ? bare : null);
    if (prompt) {
      prompted = usageCommand(prompt[1]!);
      continue;
    }
    // A shell comment above the transcript (`# TODO: update`) is no part of the output.
    if (/^\s*#\s/.test(t) && !USAGE_RE.test(t)) {
      seen--;
      continue;
    }
    const inline = USAGE_RE.exec(t);
    if (inline && inline[1]!.trim() !== '') {
      // argparse wraps the synopsis on deeper lines; docopt aligns one pattern per line under the first.
      const patterns = [inline[1]!];
      const program = programWord(inline[1]!);
      let k = i + 1;
      for (; k < texts.length; k++) {
        const x = texts[k]!;
        if (x.trim() === '' || !/^\s/.test(x)) break;
        if (programWord(x) === program) patterns.push(x);
      }
      return { usage: { words: commonWords(patterns), start: i, end: k, labelled: true }, prompted };
    }
    if (inline || USAGE_HEADER_RE.test(t)) {
      // The patterns below the label: one per line at the first one's indent, deeper lines continue it.
      const first = nextNonBlank(i + 1);
      if (first >= texts.length) return { prompted };
      const indent = indentWidth(texts[first]!);
      const program = programWord(texts[first]!);
      const patterns = [texts[first]!];
      let k = first + 1;
      for (; k < texts.length; k++) {
        const x = texts[k]!;
        if (x.trim() === '') break;
        const w = indentWidth(x);
        if (w < indent || (w === indent && programWord(x) !== program)) break;
        if (w === indent) patterns.push(x);
      }
      return { usage: { words: commonWords(patterns), start: i, end: k, labelled: true }, prompted };
    }
    const caps = CAPS_USAGE_RE.exec(t);
    if (caps) return { usage: { words: usageCommand(caps[1]!), start: i, end: i + 1, labelled: true }, prompted };
    if ((seen === 1 || prompted.length > 0) && !SHELL_SCRIPT_LANGS.has(lang ?? '')) {
      const bareUsage = BARE_USAGE_RE.exec(t);
      // yargs: a group label (`General`, `Options:`) at the margin follows before the first option.
      const after = texts.slice(i + 1).find((x) => x.trim() !== '');
      if (bareUsage && !FLAG_START_RE.test(t.trim()) && !/\\\s*$/.test(t) && after !== undefined && /^\S/.test(after)) {
        return { usage: { words: usageCommand(bareUsage[1]!), start: i, end: i + 1, labelled: false }, prompted };
      }
    }
    // Preamble (a banner, a description) goes on; a flag line or a command line means this is no help.
    if (FLAG_START_RE.test(t.trim()) || /^\s*[$%>]\s/.test(t) || /\\\s*$/.test(t)) return { prompted };
  }
  return { prompted };
}

/**
 * Reads one fenced (or indented) block as pasted `--help` output, or returns `undefined` when it
 * is not one.
 *
 * A block counts when its language is none or a text/shell one ({@link HELP_LANGS}) and it has a
 * usage part ({@link findUsage}) — `usage: …`/`Usage: …` (argparse, click, typer, commander), a
 * label alone with the patterns below (`Usage:` + `$ kiln serve [root]` in cac, `Usage` in meow,
 * sade and clipanion, `USAGE` in oclif, `SYNOPSIS` in fire, several docopt patterns naming their
 * common program), citty's `USAGE kiln serve [OPTIONS]`, or yargs' unlabeled `cmd [options] <arg>`
 * as its first line in a block that is not a shell script, not ending in `\`, and followed by a
 * group label at the margin — then option lines: at least one after a labelled usage, two after
 * an unlabeled one. A version banner, a description or fire's `NAME` section may come first.
 *
 * An option line starts, after at most 12 columns of indent (a tab counting to the next multiple
 * of 4; rich's `│` and `*` required marker blanked), with a flag (`-m, --max`, `--port, -p`,
 * `--ink_colour INK_COLOUR`, `-n NIB, --nib NIB`, `--shake / --no-shake`, `-p, --port <n>`,
 * `-p, --port=<value>`, `-p,--port #0`, `-h --help`, `--[no-]open`, `--name  -n  TEXT` in rich
 * panels), not deeper than 6 columns past the block's first option line, or deeper when its flag
 * part ends where its section's first option's does (citty right-aligns them); deeper non-flag
 * lines continue its description. Sections whose label says they list no options (`Examples`,
 * `DESCRIPTION`, `Commands:`, `ARGUMENTS`, …) give no rows, nor do positional arguments or
 * `-h, --help` lines.
 *
 * A block with no usage line counts when it is option lines only: its first line is a flag line
 * (at the margin or indented ≤ 12), every other line an option line or a deeper continuation, two
 * options or more; or its first line is an option-list label (`Options:`, `options:`,
 * `optional arguments:`, `FLAGS`) followed by option lines and other such labels, one option or
 * more. It documents the command of the section around it.
 *
 * An excerpt — a line of just `...` among the options — is not a reference (it lists some options).
 * A block docdrift recognises but cannot follow — in a labelled option list, a line at the options'
 * own indent that is not an option line — gives no rows and says so in `unread`.
 *
 * Each row: `names` from the flags (long ones first; `--no-x` also names `x`), `rawName` the flag
 * part as written, `description` the help text, `default` from `[default: x]`, `(default: x)`,
 * `(default x)` or a `Default: x` continuation line (quotes kept), `required` from `[required]`,
 * `(required)` or rich's `*`, `location` the flag part, `defaultLocation` the value.
 */
export function readHelpBlock(file: string, node: Code, rawLines: readonly string[]): HelpBlock | undefined {
  const lang = node.lang?.toLowerCase();
  if (lang && !HELP_LANGS.has(lang)) return undefined;
  if (!/usage|synopsis|--|\s-[A-Za-z]/i.test(node.value)) return undefined;
  const lines = codeLines(node, rawLines, true);
  if (!lines || lines.length === 0) return undefined;
  const texts = lines.map((l) => l.text.replace(BOX_CHARS_RE, ' '));

  const found = findUsage(texts, lang);
  let usage = found.usage;
  // No usage line: a block of option lines only (flag lines, descriptions indented under them),
  // as READMEs paste the options part of `--help` under an `Options` heading; or that part with
  // its label (`options:`, `optional arguments:`, `FLAGS`).
  let optionsOnly = false;
  let labelledOptions = false;
  if (!usage && found.prompted.length === 0) {
    const first = texts.findIndex((x) => x.trim() !== '');
    if (first >= 0 && FLAG_START_RE.test(texts[first]!.trim()) && indentWidth(texts[first]!) <= 12) {
      optionsOnly = true;
      usage = { words: [], start: first - 1, end: first, labelled: false };
    } else if (first >= 0 && OPTION_LABEL_RE.test(texts[first]!.trim())) {
      optionsOnly = true;
      labelledOptions = true;
      usage = { words: [], start: first, end: first + 1, labelled: true };
    }
  }
  if (!usage) return undefined;
  const words = usage.words.length === 0 ? found.prompted : usage.words;
  const labelled = usage.labelled;

  // Option lines and their continuations.
  const options: OptionLines[] = [];
  let firstIndent: number | undefined;
  let current: OptionLines | undefined;
  /** Indent of a section label whose section lists no options, while in that section. */
  let skipping: number | undefined;
  /** The labelled option list being read: its first option's indent and where its flag part ends. */
  let list: { labelled: boolean; indent?: number; specEnd?: number } = { labelled: labelledOptions };
  let unread: UnreadHelp | undefined;
  for (let i = usage.end; i < texts.length; i++) {
    let t = texts[i]!;
    if (t.trim() === '') {
      current = undefined;
      continue;
    }
    const starred = /^\s*\*\s/.test(t);
    t = t.replace(/^(\s*)\*(\s)/, '$1 $2'); // rich's required marker
    const lead = /^\s*/.exec(t)![0].length;
    const indent = indentWidth(t);
    const body = t.slice(lead);
    if (skipping !== undefined) {
      if (indent > skipping) continue;
      skipping = undefined;
    }
    const flagged = FLAG_START_RE.test(body);
    const label = flagged ? '' : body.trim();
    if (!flagged && NON_OPTION_LABEL_RE.test(label)) {
      skipping = indent;
      current = undefined;
      list = { labelled: false };
      continue;
    }
    if (!flagged && OPTION_LABEL_RE.test(label)) {
      current = undefined;
      list = { labelled: true };
      continue;
    }
    const specEnd = flagged ? indent + splitOption(body).spec.length : undefined;
    const aligned = list.specEnd !== undefined && specEnd === list.specEnd && indent <= 40 && /\S\s{2,}\S/.test(body);
    const isOption = flagged && (aligned || (indent >= (optionsOnly ? 0 : 1) && indent <= 12
      && (firstIndent === undefined || indent <= firstIndent + 6)
      && !(current && indent > current.indent + 2 && indent >= 16)));
    if (isOption) {
      firstIndent ??= indent;
      list.indent ??= indent;
      list.specEnd ??= specEnd;
      current = { line: lines[i]!, text: t, indent, lead, more: [], required: starred };
      options.push(current);
    } else if (current && indent > current.indent) {
      current.more.push({ line: lines[i]!, text: t });
    } else {
      current = undefined;
      // In a labelled option list, a line at the options' own indent that is no option line: the
      // list is not understood, and a half-read list would report every option it hides.
      // A line left of the options (`Mocha Resources`, `Available templates:`) ends the list.
      if (list.indent !== undefined && indent < list.indent) list = { labelled: false };
      else if (list.labelled && list.indent !== undefined && indent === list.indent) {
        unread ??= { reason: 'a line of its options list is not an option line docdrift reads', location: { file, line: lines[i]!.line, column: lines[i]!.column + lead } };
      }
      // An options-only block is nothing but option lines, their descriptions and option-list labels.
      if (optionsOnly) return undefined;
    }
  }
  if (options.length < (labelled ? 1 : 2)) return undefined;
  // An excerpt (`  ...` in place of the other options) documents some options, not all of them.
  if (texts.slice(usage.end).some((x) => /^\s*(?:\.\.\.|…|\[\.\.\.\])\s*$/.test(x))) return undefined;

  const rows: ReferenceRow[] = [];
  for (const o of options) {
    const { spec, description } = splitOption(o.text);
    const names = specNames(spec);
    if (names.length === 0 || names.every((n) => BUILT_IN_NAMES.has(n))) continue;
    const location = locate(file, o.line, o.text, spec, o.lead) ?? { file, line: o.line.line, column: o.line.column };
    const fullDescription = [description, ...o.more.map((m) => m.text.trim())].filter((d) => d !== '').join(' ').replace(/\s+/g, ' ').trim();
    const row: ReferenceRow = { names, rawName: spec, links: [], location };
    // `-c, --skip-type-check`: each spelling is checked against the flag the others name, as in tables.
    const written = flagSpellingsInText(spec, location);
    if (written.length >= 2) row.flagSpellings = written;
    if (fullDescription !== '') row.description = fullDescription;
    if (/\[required\]|\(required\)/i.test(fullDescription) || o.required) row.required = true;
    const def = helpDefault([{ line: o.line, text: o.text }, ...o.more], file);
    if (def) {
      row.default = def.value;
      if (def.location) row.defaultLocation = def.location;
    }
    rows.push(row);
  }
  // The usage synopsis names every optional (argparse's `[--ssh-username SSH_USERNAME]`, docopt's
  // patterns): a flag it names that no option line lists (a line deleted by hand) is documented
  // there all the same.
  if (labelled && !optionsOnly) {
    const listed = new Set(rows.flatMap((r) => r.names));
    for (let i = usage.start; i < usage.end; i++) {
      const t = texts[i]!;
      const from = i === usage.start ? Math.max(0, t.search(/usage:?/i)) : 0;
      for (const m of t.slice(from).matchAll(/(?<![\w-])--[A-Za-z][\w-]*/g)) {
        const name = normalizeParamName(m[0]);
        if (listed.has(name) || BUILT_IN_NAMES.has(name) || name === 'version') continue;
        listed.add(name);
        const location = locate(file, lines[i]!, t, m[0], from + m.index) ?? { file, line: lines[i]!.line, column: lines[i]!.column };
        rows.push({ names: [name], rawName: m[0], links: [], location });
      }
    }
  }
  // An options-only block is located at its first option line, else at the usage line.
  const usageLine = optionsOnly ? options[0]!.line : lines[usage.start]!;
  const usageText = optionsOnly ? options[0]!.text : texts[usage.start]!;
  const start = /\S/.exec(usageText)?.index ?? 0;
  const block: HelpBlock = {
    usage: words,
    location: { file, line: usageLine.line, column: usageLine.column + start, endLine: usageLine.line, endColumn: usageLine.column + usageText.trimEnd().length },
    endLine: node.position?.end.line ?? usageLine.line,
    rows: unread ? [] : rows,
  };
  if (unread) block.unread = unread;
  return block;
}
