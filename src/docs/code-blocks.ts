/** Finds command invocations (program word + argument tokens with exact file positions) in shell-like fenced code blocks. */

import type { Code } from 'mdast';
import type { CodeBlock, Invocation, SourceLocation, Usage } from '../model/types.js';
import { tokenizeShell, type ShellSource, type ShellWord } from './shell.js';
import { POWERSHELL_LANGS, shellEnvUsages } from './env-usages.js';

/** Info-string languages (lower-cased) whose fenced blocks are read as shell; an absent/empty language counts too. */
export const SHELL_LANGS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'shell', 'console', 'zsh', 'shell-session', 'shellsession', 'sh-session',
]);

/** Languages whose lines without a prompt are program output, not commands (Prism's `shell-session` and its aliases `sh-session`, `shellsession`; Linguist's `console`). */
const SESSION_LANGS: ReadonlySet<string> = new Set(['console', 'shell-session', 'shellsession', 'sh-session']);

/**
 * The language an info string's first word names, lower-cased, without what doc engines glue to
 * it: Pandoc's attribute form (`{.bash}`, `{bash}`, `{.bash .numberLines}`: the first class),
 * line highlights and options right after the name (`bash{1,2}`, `bash=`, `bash:title`,
 * `bash,ignore`). `shell-session`, `c++` and `objective-c` stay whole. (s46 sweep H14: such
 * blocks were not read, so their stale examples passed with no note.)
 */
export function infoLanguage(lang: string): string {
  const l = lang.trim().toLowerCase();
  const pandoc = /^\{\s*\.?([\w+-]+)/.exec(l);
  if (pandoc) return pandoc[1]!;
  return /^[\w+-]+/.exec(l)?.[0] ?? l;
}

/**
 * True when a fenced block with this info-string language is read for invocations: a POSIX shell
 * ({@link SHELL_LANGS}), none, or PowerShell (`powershell`, `pwsh`, `ps1`: a program's flags are
 * passed as in a POSIX shell; its backtick continuations and `PS C:\>` prompts are read by
 * {@link shellSource}; s47 sweep J2: such blocks were not read and nothing said so).
 */
export function isShellLang(lang: string | null | undefined): boolean {
  if (lang === null || lang === undefined || lang === '') return true;
  const l = infoLanguage(lang);
  return SHELL_LANGS.has(l) || POWERSHELL_LANGS.has(l);
}

/** True when the block's language is PowerShell. */
function isPowerShell(lang: string | undefined): boolean {
  return lang !== undefined && POWERSHELL_LANGS.has(infoLanguage(lang));
}

/** A PowerShell prompt (`PS> `, `PS C:\work> `) at a line start. */
const PS_PROMPT_RE = /^\s*PS(?:\s[^>\n]*)?>(?: |$)/;

/** Most lines an indented block may have to be read as command lines ({@link looksLikeCommandLines}). */
const MAX_COMMAND_BLOCK_LINES = 60;
/** A command line: `VAR=1` prefixes, a program word starting with a lower-case letter, `_`, `.`, `/` or `~`, then arguments. */
const COMMAND_LINE_RE = /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*[a-z_.\/~][\w.\/@+~-]*(?:\s+\S.*)?$/;
/** The marks of code, data or output rather than a command line. */
const NOT_COMMAND_RE = /^(?:def|class|import|from|return|if|elif|else|for|while|with|try|except|async|await|print|var|let|const|function|public|private|package|fn|func)\b|[:{(\[,;=]\s*$|^[\w.-]+\s*(?:=|:)(?:\s|$)|^[<{\["']|>>>|=>|==|\S {2,}\S/;

/**
 * True when the content of an indented block (Markdown's indented code, a reStructuredText `::`
 * literal block), which says no language, looks like command lines, so it is read as examples:
 * its first line that is neither blank nor a `#` comment has a `$`/`%` prompt (a session: only
 * prompt lines are commands), or, in a block of at most {@link MAX_COMMAND_BLOCK_LINES} lines,
 * every such line is a command (a program word that starts lower-case, `./x` or `~/x`, then
 * arguments; `\` continuation lines belong to the line above) and at least one has an argument.
 * Code (`def`, `import`, `x = 1`, a line ending in `:` or `{`), data (`key: value`, `{`, `[`),
 * REPL sessions (`>>>`) and output in aligned columns are not.
 */
export function looksLikeCommandLines(value: string): boolean {
  const lines = value.split(/\r?\n/);
  const code = lines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (code.length === 0) return false;
  if (/^(?:\([^()\s]*\)\s+)?(?:[\w.-]+@[\w.-]+(?::\S*?)?\s*)?[$%](?: |$)/.test(code[0]!)) return true;
  if (lines.length > MAX_COMMAND_BLOCK_LINES) return false;
  let argument = false;
  let continued = false;
  for (const line of code) {
    const wasContinued = continued;
    continued = /\\$/.test(line);
    if (wasContinued) continue;
    if (!COMMAND_LINE_RE.test(line) || NOT_COMMAND_RE.test(line)) return false;
    if (/\s/.test(line.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*/, ''))) argument = true;
  }
  return argument;
}

/** One line of code content and where its first character sits in the file. */
export interface CodeLine {
  line: number;
  column: number;
  text: string;
}

/**
 * Maps each line of a fenced code node's `value` back to the raw file line it came from.
 * remark removes container prefixes (list indentation, `>` markers, fence indentation) from
 * each line, so a value line is a suffix of its raw line; where tab expansion broke that, the
 * line's non-blank part is searched for instead. Returns `undefined` for indented (unfenced) code,
 * unless `indented` is set: its value lines then start on the node's first line (pasted `--help`
 * output in an old README is often an indented block).
 */
export function codeLines(node: Code, rawLines: readonly string[], indented = false): CodeLine[] | undefined {
  const pos = node.position;
  if (!pos) return undefined;
  const open = rawLines[pos.start.line - 1]?.slice(pos.start.column - 1) ?? '';
  const fenced = open.startsWith('```') || open.startsWith('~~~');
  if (!fenced && !indented) return undefined;
  if (node.value === '') return [];
  const out: CodeLine[] = [];
  const valueLines = node.value.split(/\r?\n/);
  for (let k = 0; k < valueLines.length; k++) {
    const lineNo = pos.start.line + (fenced ? 1 : 0) + k;
    const raw = rawLines[lineNo - 1];
    if (raw === undefined) break;
    const v = valueLines[k]!;
    if (raw.endsWith(v)) {
      out.push({ line: lineNo, column: raw.length - v.length + 1, text: v });
      continue;
    }
    const trimmed = v.trimStart();
    const at = trimmed === '' ? -1 : raw.lastIndexOf(trimmed);
    out.push(at < 0 ? { line: lineNo, column: raw.length + 1, text: '' } : { line: lineNo, column: at + 1, text: trimmed });
  }
  return out;
}

/**
 * A prompt at a line start: `$ `, `% `, `> `, optionally after a virtualenv marker and a
 * `user@host:path` (`(.venv) $ `, `me@box:~/repo$ `). Group 1 is the prompt character.
 */
const PROMPT_RE = /^\s*(?:\([^()\s]*\)\s+)?(?:[\w.-]+@[\w.-]+(?::\S*?)?\s*)?([$%>])(?: |$)/;
/** A line that ends in an unescaped `\` (trailing blanks tolerated: a common slip in docs). */
const CONTINUED_RE = /(^|[^\\])(\\\\)*\\[ \t]*$/;

/**
 * Whether a block's lines are a shell session (prompts, and output lines without one): a
 * `console`/`shell-session` block that has at least one `$`/`%` prompt (authors often tag plain
 * commands `console`), or any block whose first line that is neither blank nor a comment starts
 * with a `$`/`%` prompt.
 */
function isSessionBlock(lines: readonly CodeLine[], lang: string | undefined): boolean {
  if (isPowerShell(lang)) return lines.some((l) => PS_PROMPT_RE.test(l.text));
  const isDollarPrompt = (text: string): boolean => {
    const m = PROMPT_RE.exec(text);
    return m !== null && m[1] !== '>';
  };
  const firstCode = lines.find((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#'));
  return lang !== undefined && SESSION_LANGS.has(infoLanguage(lang))
    ? lines.some((l) => isDollarPrompt(l.text))
    : firstCode !== undefined && isDollarPrompt(firstCode.text);
}

/**
 * Builds the shell source of a block: prompts (`$ `, `% `, and `> ` in session blocks) are cut,
 * and in session blocks lines without a prompt are output and left out, unless they continue
 * the previous command (that line ended in `\`). `session`: {@link isSessionBlock} of the whole
 * block (given when `lines` are its first lines only).
 */
function shellSource(lines: readonly CodeLine[], lang: string | undefined, session = isSessionBlock(lines, lang)): ShellSource {
  let text = '';
  const lineOf: number[] = [];
  const colOf: number[] = [];
  let continues = false;
  let first = true;
  // Just past the last character of the previous code line kept: where a joining `\n` sits.
  let prevEnd = { line: 1, column: 1 };
  const powershell = isPowerShell(lang);
  for (const l of lines) {
    let body = l.text;
    let offset = 0;
    // PowerShell: `PS C:\> ` is the prompt, and its escape and line-continuation character is the
    // backtick, read as the POSIX backslash (one character for one, so positions hold).
    if (powershell) body = body.replaceAll('`', '\\');
    const m = powershell ? PS_PROMPT_RE.exec(body) : PROMPT_RE.exec(body);
    // `> ` is a prompt in sessions (PS2 on continuation lines), a redirection elsewhere.
    const isPrompt = m !== null && (continues ? session && m[1] === '>' : session || m[1] !== '>');
    if (isPrompt) {
      offset = Math.min(m[0].length, body.length);
      body = body.slice(offset);
    } else if (session && !continues) {
      continue; // output line
    }
    if (!first) {
      text += '\n';
      lineOf.push(prevEnd.line);
      colOf.push(prevEnd.column);
    }
    first = false;
    prevEnd = { line: l.line, column: l.column + offset + body.length };
    for (let k = 0; k < body.length; k++) {
      lineOf.push(l.line);
      colOf.push(l.column + offset + k);
    }
    text += body;
    continues = CONTINUED_RE.test(body);
  }
  return { text, lines: lineOf, columns: colOf };
}

const ASSIGNMENT_RE = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Reserved words that introduce a command (`if cmd; then cmd; fi`, `for …; do cmd; done`). */
const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{']);
/** Commands that are shell syntax, not programs. */
const SYNTAX_WORDS = new Set(['for', 'case', 'select', 'function', 'fi', 'done', 'esac', '}', '[', '[[', ']]', 'in']);
const PYTHON_RE = /^python(\d+(\.\d+)*)?$/;

/** Skips options (words starting with `-`) from `i`; words in `takesValue` consume the next word; `--` ends the options. */
function skipOptions(words: readonly ShellWord[], i: number, takesValue: ReadonlySet<string> = new Set()): number {
  while (i < words.length) {
    const t = words[i]!.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    i += takesValue.has(t) ? 2 : 1;
  }
  return i;
}

const UV_RUN_VALUE_OPTS = new Set([
  '--with', '--with-editable', '--with-requirements', '--project', '--directory', '--python', '-p',
  '--extra', '--group', '--only-group', '--package', '--env-file', '--index', '--index-url',
  '--extra-index-url', '--from', '--config-file', '--cache-dir',
]);
const PIPX_RUN_VALUE_OPTS = new Set(['--spec', '--python', '--index-url', '--pip-args']);
const NPX_VALUE_OPTS = new Set(['-p', '--package', '-c', '--call']);
const SUDO_VALUE_OPTS = new Set(['-u', '-g', '-C', '-h', '-p', '-U', '-D', '-R', '-T']);
const PYTHON_VALUE_OPTS = new Set(['-W', '-X', '-Q']);
/** `docker run` / `podman run` options that take a value (the rest are switches: `--rm`, `-it`, `-d`…). */
const DOCKER_RUN_VALUE_OPTS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '-p', '--publish', '--name', '-w', '--workdir', '-u', '--user',
  '--network', '--net', '--mount', '--platform', '-l', '--label', '--label-file', '-h', '--hostname', '--add-host',
  '--cpus', '-m', '--memory', '--gpus', '--restart', '--log-driver', '--log-opt', '--device', '--cap-add', '--cap-drop',
  '--ulimit', '--shm-size', '--pull', '--runtime', '--ipc', '--pid', '--security-opt', '--tmpfs', '--dns', '--expose',
  '--link', '--volumes-from', '--cidfile', '--group-add', '--stop-signal', '--stop-timeout', '--health-cmd', '--userns',
  '--cgroupns', '--uts', '--cpu-shares', '-c', '--cpuset-cpus', '--memory-swap', '--attach', '-a',
]);
/** Node (and bun, tsx, ts-node) options that take a value before the script file. */
const NODE_VALUE_OPTS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '-C', '--conditions', '--inspect-port', '--title', '--stack-size', '--max-old-space-size']);

/** Where the program of a simple command is. */
export interface ProgramWord {
  /** Index of the program word in the command's words; `-1` when there is none. */
  index: number;
  /** True when a package runner (`npx`, `bunx`, `uvx`, `pipx run`, `pnpm dlx`…) named it, so a `@version` suffix is not part of the name. */
  fromPackage: boolean;
  /** How the program was named when not by its own name (see {@link Invocation.via}). */
  via?: 'module' | 'image' | 'file';
}

/**
 * Finds the program word of a simple command, behind env assignments, reserved words and
 * wrappers (`sudo`, `time`, `env`, `nohup`, `exec`, `command`, `uv run`, `uv tool run`, `uvx`,
 * `poetry run`, `pdm run`, `hatch run`, `rye run`, `pipx run`, `npx`, `bunx`, `pnpm exec|dlx`,
 * `yarn exec|dlx`, `python -m X`, the distributed launchers `torchrun`, `deepspeed` and
 * `accelerate launch`, whose program is the script or `-m` module they run); index `-1` when the command has no program (`FOO=1` alone,
 * `for …`). `python script.py` is the program `python`. Programs named otherwise than by their
 * name say how in `via`: `python -m X` (`module`), `docker|podman [container] run [options] IMAGE`
 * (`image`: the image word; its options skipped, none when `--entrypoint` replaces the program) and
 * `node|bun|tsx|ts-node [options] path/cli.js` (`file`: the script word; `node -e` stays `node`).
 */
export function programWord(words: readonly ShellWord[]): ProgramWord {
  let fromPackage = false;
  let via: ProgramWord['via'];
  const at = (index: number): ProgramWord => ({ index, fromPackage, ...(via ? { via } : {}) });
  let i = 0;
  for (let guard = 0; guard < 64 && i < words.length; guard++) {
    while (i < words.length && ASSIGNMENT_RE.test(words[i]!.text)) i++;
    const w = words[i]?.text;
    if (w === undefined) return at(-1);
    if (LEADING_KEYWORDS.has(w)) {
      i++;
      continue;
    }
    if (SYNTAX_WORDS.has(w)) return at(-1);
    const base = w.slice(w.lastIndexOf('/') + 1);
    const next = words[i + 1]?.text;
    switch (base) {
      case 'sudo':
        i = skipOptions(words, i + 1, SUDO_VALUE_OPTS);
        continue;
      case 'time': case 'nohup': case 'exec': case 'command': case 'builtin':
        i = skipOptions(words, i + 1);
        continue;
      case 'env':
        i = skipOptions(words, i + 1, new Set(['-u', '--unset', '-C', '--chdir', '-S']));
        continue;
      case 'uvx':
        fromPackage = true;
        i = skipOptions(words, i + 1, UV_RUN_VALUE_OPTS);
        continue;
      case 'uv':
        if (next === 'run') i = skipOptions(words, i + 2, UV_RUN_VALUE_OPTS);
        else if (next === 'tool' && words[i + 2]?.text === 'run') {
          fromPackage = true;
          i = skipOptions(words, i + 3, UV_RUN_VALUE_OPTS);
        } else return at(i);
        continue;
      case 'poetry': case 'pdm': case 'hatch': case 'rye':
        if (next !== 'run') return at(i);
        i = skipOptions(words, i + 2, new Set(['-e', '--env']));
        continue;
      case 'pipx':
        if (next !== 'run') return at(i);
        fromPackage = true;
        i = skipOptions(words, i + 2, PIPX_RUN_VALUE_OPTS);
        continue;
      case 'npx': case 'bunx':
        fromPackage = true;
        i = skipOptions(words, i + 1, NPX_VALUE_OPTS);
        continue;
      case 'docker': case 'podman': {
        // `docker run [options] IMAGE [args]`, `docker container run …`: the image is the program.
        const run = next === 'run' ? i + 2 : next === 'container' && words[i + 2]?.text === 'run' ? i + 3 : -1;
        if (run < 0) return at(i);
        let j = run;
        while (j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-') {
          const t = words[j]!.text;
          // `--entrypoint` replaces the image's program: what runs is not known from the image.
          if (t === '--entrypoint' || t.startsWith('--entrypoint=')) return at(-1);
          j += !t.includes('=') && DOCKER_RUN_VALUE_OPTS.has(t) ? 2 : 1;
        }
        if (j >= words.length) return at(-1);
        via = 'image';
        return at(j);
      }
      case 'node': case 'nodejs': case 'bun': case 'tsx': case 'ts-node': {
        // `node [options] path/cli.js [args]`: the script file is the program.
        let j = i + 1;
        while (j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-') {
          const t = words[j]!.text;
          if (t === '-e' || t === '--eval' || t === '-p' || t === '--print') return at(i);
          j += !t.includes('=') && NODE_VALUE_OPTS.has(t) ? 2 : 1;
        }
        const file = words[j]?.text;
        if (file === undefined || !/\.[cm]?[jt]sx?$/.test(file)) return at(i);
        via = 'file';
        return at(j);
      }
      case 'torchrun': case 'deepspeed': case 'accelerate': {
        // Distributed launchers run a Python script or module on each worker:
        // `torchrun [options] train.py [args]`, `torchrun [options] -m pkg.train`,
        // `accelerate launch [options] train.py`, `deepspeed [options] train.py`. A launcher option
        // takes the next word as its value unless it is `--x=v`, or the next word is an option or
        // the script.
        if (base === 'accelerate' && next !== 'launch') return at(i);
        let j = base === 'accelerate' ? i + 2 : i + 1;
        while (j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-') {
          const t = words[j]!.text;
          if ((t === '-m' || t === '--module') && j + 1 < words.length) {
            via = 'module';
            return at(j + 1);
          }
          const value = words[j + 1]?.text;
          j += !t.includes('=') && value !== undefined && !value.startsWith('-') && !/\.py$/.test(value) ? 2 : 1;
        }
        const script = words[j]?.text;
        return script !== undefined && /\.py$/.test(script) ? at(j) : at(i);
      }
      case 'pnpm': case 'yarn':
        if (next !== 'exec' && next !== 'dlx') return at(i);
        fromPackage = next === 'dlx';
        i = skipOptions(words, i + 2, NPX_VALUE_OPTS);
        continue;
      default:
        break;
    }
    if (PYTHON_RE.test(base)) {
      let j = i + 1;
      while (j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-') {
        const t = words[j]!.text;
        if (t === '-m' && j + 1 < words.length) {
          fromPackage = false;
          via = 'module';
          return at(j + 1);
        }
        if (t === '-m') return at(i);
        if (t === '-c' || t === '--') return at(i);
        j += PYTHON_VALUE_OPTS.has(t) ? 2 : 1;
      }
      return at(i);
    }
    return at(i);
  }
  return at(i < words.length ? i : -1);
}

/**
 * The file location of a word (start of its first character to just past its last). A word that
 * ends on a joining `\n` (an unterminated `` ` `` or `$(` runs to the end of the block) ends
 * where that newline sits, just past its line.
 */
function wordLocation(file: string, src: ShellSource, w: ShellWord): SourceLocation {
  const endsOnNewline = src.text[w.last] === '\n';
  return {
    file,
    line: src.lines[w.start] ?? 1,
    column: src.columns[w.start] ?? 1,
    endLine: src.lines[w.last] ?? src.lines[w.start] ?? 1,
    endColumn: (src.columns[w.last] ?? src.columns[w.start] ?? 0) + (endsOnNewline ? 0 : 1),
  };
}

/**
 * Reads one fenced code node: returns its {@link CodeBlock}, the invocations in it, numbered
 * from `firstIndex`, and the environment variables they set (`shellEnvUsages`, src/docs/env-usages.ts).
 * Returns `undefined` when the node is not a fenced block of a shell-like (or
 * absent) language. `rawLines` are the document's lines (split on `\r?\n`). With `unfenced`, an
 * indented block (Markdown's indented code, a reStructuredText literal block or code directive,
 * whose node starts at its first content line) is read too. Never throws on odd shell syntax;
 * unreadable parts yield no invocation.
 */
export function readCodeBlock(
  file: string,
  node: Code,
  rawLines: readonly string[],
  firstIndex: number,
  unfenced = false,
  maxWords?: number,
): { block: CodeBlock; invocations: Invocation[]; envUsages: Usage[] } | undefined {
  if (!isShellLang(node.lang) || !node.position) return undefined;
  const lines = codeLines(node, rawLines, unfenced);
  if (!lines) return undefined;
  const location: SourceLocation = {
    file,
    line: node.position.start.line,
    column: node.position.start.column,
    endLine: node.position.end.line,
    endColumn: node.position.end.column,
  };
  return readCodeLines(file, lines, node.lang ?? undefined, location, firstIndex, maxWords);
}

/**
 * The invocations of a code block given as lines already mapped to the file (an HTML `<pre>`
 * block, see `src/docs/html-blocks.ts`); {@link readCodeBlock} for fenced blocks.
 *
 * @param lines the block's content lines with the file line and column of each line's first character.
 * @param lang the block's language, if any (the caller checks {@link isShellLang}).
 * @param location the whole block.
 */
export function readCodeLines(
  file: string,
  lines: readonly CodeLine[],
  lang: string | undefined,
  location: SourceLocation,
  firstIndex: number,
  maxWords?: number,
): { block: CodeBlock; invocations: Invocation[]; envUsages: Usage[] } {
  const session = isSessionBlock(lines, lang);
  // A block longer than the words its page may still read (`maxWords`): its first `maxWords + 1`
  // lines are read alone first. When they hold more words than that, the invocations up to the
  // limit are the ones the whole block gives (a command cut at the end of those lines is past
  // it); otherwise the whole block is read. A 4,400-line block cost more than its page's Markdown.
  if (maxWords !== undefined && lines.length > maxWords + 1) {
    const head = readLines(file, lines.slice(0, maxWords + 1), lang, location, firstIndex, session);
    if (invocationsWithin(head.invocations, maxWords).kept < head.invocations.length) return head;
  }
  return readLines(file, lines, lang, location, firstIndex, session);
}

/**
 * How many of `invocations`, from the first, fit in `room` words (a command's program and each
 * argument are one word each), and how many words those take.
 */
export function invocationsWithin(invocations: readonly Invocation[], room: number): { kept: number; words: number } {
  let words = 0;
  for (const [i, invocation] of invocations.entries()) {
    const next = words + 1 + invocation.args.length;
    if (next > room) return { kept: i, words };
    words = next;
  }
  return { kept: invocations.length, words };
}

/** {@link readCodeLines} of all `lines`, a session block or not as `session` says. */
function readLines(
  file: string,
  lines: readonly CodeLine[],
  lang: string | undefined,
  location: SourceLocation,
  firstIndex: number,
  session: boolean,
): { block: CodeBlock; invocations: Invocation[]; envUsages: Usage[] } {
  const block: CodeBlock = { file, ...(lang ? { lang } : {}), location };
  const invocations: Invocation[] = [];
  const envUsages: Usage[] = [];
  const src = shellSource(lines, lang, session);
  let commands;
  try {
    commands = tokenizeShell(src);
  } catch {
    return { block, invocations, envUsages };
  }
  for (const cmd of commands) {
    const { index: p, fromPackage, via } = programWord(cmd.words);
    if (p < 0) continue;
    const program = cmd.words[p]!;
    // PowerShell: a line starting with a variable is an expression or assignment (`$env:X = 1`), not a program run.
    if (program.raw.startsWith('$') && isPowerShell(lang)) continue;
    // `npx docdrift@1.2.0`, `uvx ruff@0.6`: the version pins the package, the command is the name.
    const command = fromPackage ? program.text.replace(/(.)@[^@/]*$/, '$1') : program.text;
    if (command === '') continue;
    envUsages.push(...shellEnvUsages(file, src, cmd.words, p, firstIndex + invocations.length, block));
    invocations.push({
      file,
      command,
      index: firstIndex + invocations.length,
      args: cmd.words.slice(p + 1).map((w) => ({ text: w.text, location: wordLocation(file, src, w), ...(w.raw !== w.text ? { quoted: true as const } : {}), ...(/^["']/.test(w.raw) ? { quotedWord: true as const } : {}) })),
      location: wordLocation(file, src, program),
      block,
      ...(via ? { via } : {}),
    });
  }
  return { block, invocations, envUsages };
}
