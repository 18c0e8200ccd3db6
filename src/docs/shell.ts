/** Position-keeping shell tokeniser for example code: finds word and operator boundaries, delegates quote removal to shell-quote. */

import { parse as shellQuoteParse } from 'shell-quote';

/**
 * Shell source text whose every character knows where it sits in the Markdown file.
 * `lines[i]`/`columns[i]` are the 1-based file line and UTF-16 column of `text[i]`; a `\n`
 * joining two code lines gets the position just past the end of its line.
 */
export interface ShellSource {
  text: string;
  lines: number[];
  columns: number[];
}

/** One shell word: its unquoted text, the text as written, and its index range in {@link ShellSource.text}. */
export interface ShellWord {
  /** The word after quote removal (`"+a=[1,2]"` → `+a=[1,2]`); `$VAR`, `${VAR}`, `$(...)` and backquotes are kept as written. */
  text: string;
  /** The word as written, line continuations (`\` + newline) removed. */
  raw: string;
  /** Index of the word's first character (the opening quote of a quoted word). */
  start: number;
  /** Index of the word's last character (inclusive). */
  last: number;
}

/** A simple command: the words between two control operators (`&&`, `||`, `;`, `|`, `&`, newline, `(`, `)`). Redirections and heredoc bodies are left out. */
export interface ShellCommand {
  words: ShellWord[];
}

/** First code point of the private-use range used to protect substitutions from shell-quote. */
const PROTECT_BASE = 0xe000;
const PROTECTED_RE = /[\uE000-\uF8FF]/g;
/** `<placeholder>` as docs write it (`--out <dir>`): a word, not two redirections. */
const PLACEHOLDER_RE = /<[A-Za-z_][^<>\s|;&'"`]*>/y;
const IO_NUMBER_RE = /^\d+$/;

/**
 * Splits shell source into simple commands of words, keeping each word's index range.
 *
 * Grammar handled (POSIX sh, as far as examples need): blanks, `\`-newline continuations, `#`
 * comments (at a word start only, as in sh), single and double quotes (may span lines),
 * backslash escapes, `$name`, `${...}`, `$(...)`, `$((...))` and backquotes (kept verbatim
 * inside the word), control operators `&& || ; ;; | |& & ( )`, redirections (`> >> < <> >| >&
 * <& &> &>> <<<` with an optional io-number, target dropped) and heredocs (`<<WORD`, `<<-WORD`,
 * body skipped up to the delimiter line). Doc placeholders such as `<path>` are words.
 * Quote removal of each word is done by `shell-quote`.
 *
 * Never throws: an unterminated quote ends at the end of its line (a typo must not swallow the
 * rest of the block); an unterminated substitution runs to the end of the source.
 */
export function tokenizeShell(src: ShellSource): ShellCommand[] {
  const s = src.text;
  const n = s.length;
  const commands: ShellCommand[] = [];
  let current: ShellWord[] = [];
  const heredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let i = 0;

  const endCommand = (): void => {
    if (current.length > 0) commands.push({ words: current });
    current = [];
  };
  const skipBlanks = (): void => {
    while (i < n) {
      const c = s[i];
      if (c === ' ' || c === '\t' || c === '\r') i++;
      else if (c === '\\' && continuationEnd(s, i) > 0) i = continuationEnd(s, i);
      else break;
    }
  };
  const skipHeredocBodies = (): void => {
    for (const h of heredocs) {
      while (i < n) {
        let end = s.indexOf('\n', i);
        if (end < 0) end = n;
        let line = s.slice(i, end);
        if (h.stripTabs) line = line.replace(/^\t+/, '');
        i = end + 1;
        if (line.trim() === h.delimiter) break;
      }
    }
    heredocs.length = 0;
  };

  while (i < n) {
    const c = s[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && continuationEnd(s, i) > 0) {
      i = continuationEnd(s, i);
      continue;
    }
    if (c === '\n') {
      endCommand();
      i++;
      if (heredocs.length > 0) skipHeredocBodies();
      continue;
    }
    if (c === '#') {
      while (i < n && s[i] !== '\n') i++;
      continue;
    }
    if (c === '&' || c === '|' || c === ';' || c === '(' || c === ')') {
      if (c === '&' && s[i + 1] === '>') {
        i += s[i + 2] === '>' ? 3 : 2;
        skipRedirectTarget();
        continue;
      }
      endCommand();
      const two = s.slice(i, i + 2);
      i += two === '&&' || two === '||' || two === ';;' || two === '|&' ? 2 : 1;
      continue;
    }
    if ((c === '<' && !isPlaceholderAt(s, i)) || c === '>') {
      readRedirection();
      continue;
    }
    const word = scanWord(s, i);
    i = word.next;
    const nextChar = s[i];
    if ((nextChar === '<' || nextChar === '>') && IO_NUMBER_RE.test(word.word.raw) && !isPlaceholderAt(s, i)) {
      continue; // `2>&1`: the digits are an io-number, not an argument
    }
    current.push(word.word);
  }
  endCommand();
  return commands;

  function skipRedirectTarget(): void {
    skipBlanks();
    if (i < n && !isOperatorStart(s, i)) i = scanWord(s, i).next;
  }

  function readRedirection(): void {
    if (s.startsWith('<<<', i)) {
      i += 3;
      skipRedirectTarget();
      return;
    }
    if (s.startsWith('<<', i)) {
      const stripTabs = s[i + 2] === '-';
      i += stripTabs ? 3 : 2;
      skipBlanks();
      if (i < n && !isOperatorStart(s, i)) {
        const delim = scanWord(s, i);
        i = delim.next;
        if (delim.word.text !== '') heredocs.push({ delimiter: delim.word.text, stripTabs });
      }
      return;
    }
    const three = s.slice(i, i + 2);
    i += three === '>>' || three === '>&' || three === '<&' || three === '<>' || three === '>|' ? 2 : 1;
    skipRedirectTarget();
  }
}

function isPlaceholderAt(s: string, i: number): boolean {
  PLACEHOLDER_RE.lastIndex = i;
  return PLACEHOLDER_RE.test(s);
}

function isOperatorStart(s: string, i: number): boolean {
  const c = s[i];
  return c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '#' ||
    c === '>' || (c === '<' && !isPlaceholderAt(s, i));
}

/** Index just past the `)` closing the `(` at `open`, skipping quoted text; `s.length` if unclosed. */
function matchParen(s: string, open: number, close = ')', openChar = '('): number {
  let depth = 0;
  let i = open;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDoubleQuoted(s, i);
      continue;
    }
    if (c === openChar) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return s.length;
}

function skipDoubleQuoted(s: string, open: number): number {
  let i = open + 1;
  while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, s.length);
}

/**
 * For a `\` at `i` that ends its line (only blanks after it), the index just past the newline;
 * else `-1`. sh requires the newline right after the `\`; blanks in between are tolerated
 * because docs often have them by accident.
 */
function continuationEnd(s: string, i: number): number {
  let j = i + 1;
  while (s[j] === ' ' || s[j] === '\t' || s[j] === '\r') j++;
  return s[j] === '\n' ? j + 1 : -1;
}

/** Index of the `\n` ending the line that holds `i`, or `s.length`. */
function lineEnd(s: string, i: number): number {
  const j = s.indexOf('\n', i);
  return j < 0 ? s.length : j;
}

/** Index just past a `$` expansion starting at `i` (`$x`, `${...}`, `$(...)`, `$((...))`, `$?`). */
function dollarEnd(s: string, i: number): number {
  const next = s[i + 1];
  if (next === '(') return matchParen(s, i + 1);
  if (next === '{') return matchParen(s, i + 1, '}', '{');
  if (next !== undefined && /[A-Za-z_]/.test(next)) {
    let j = i + 2;
    while (j < s.length && /\w/.test(s[j]!)) j++;
    return j;
  }
  if (next !== undefined && /[0-9@*#?$!-]/.test(next)) return i + 2;
  return i + 1;
}

function backquoteEnd(s: string, i: number): number {
  let j = i + 1;
  while (j < s.length && s[j] !== '`') j += s[j] === '\\' ? 2 : 1;
  return Math.min(j + 1, s.length);
}

/**
 * Scans one word starting at `start`. Builds `raw` (as written) and `prot`, a copy in which
 * every expansion and every character shell-quote would misread (`#`, `(`, `<`…) is replaced by
 * one private-use character, so shell-quote sees exactly one plain word and only removes quotes.
 */
function scanWord(s: string, start: number): { word: ShellWord; next: number } {
  const n = s.length;
  let raw = '';
  let prot = '';
  let quoted = false;
  let last = start;
  const protectedTexts: string[] = [];
  const protect = (text: string): void => {
    prot += String.fromCharCode(PROTECT_BASE + protectedTexts.length);
    protectedTexts.push(text);
    raw += text;
  };
  const literal = (text: string): void => {
    raw += text;
    prot += text;
  };
  let i = start;
  while (i < n) {
    const c = s[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
    if (c === '\\') {
      const after = continuationEnd(s, i);
      if (after > 0) {
        // `\`-newline glues words in sh; with blanks before the newline it separates them.
        const glued = after - i === 2;
        i = after;
        if (!glued) break;
        continue;
      }
      quoted = true;
      literal(s.slice(i, i + 2));
      last = Math.min(i + 1, n - 1);
      i += 2;
      continue;
    }
    if (c === "'") {
      quoted = true;
      const j = s.indexOf("'", i + 1);
      const end = j < 0 ? lineEnd(s, i) : j + 1;
      literal(s.slice(i, end));
      if (j < 0) prot += "'";
      last = end - 1;
      i = end;
      continue;
    }
    if (c === '"') {
      quoted = true;
      // An unterminated quote is a typo in a doc: end it at its line, not at the end of the block.
      const close = skipDoubleQuoted(s, i);
      const closed = close - 1 > i && s[close - 1] === '"';
      const limit = closed ? n : lineEnd(s, i);
      literal('"');
      i++;
      while (i < limit && s[i] !== '"') {
        const d = s[i]!;
        if (d === '\\' && s[i + 1] === '\n') {
          i += 2;
          continue;
        }
        if (d === '\\') {
          literal(s.slice(i, i + 2));
          i += 2;
          continue;
        }
        if (d === '$' || d === '`') {
          const end = d === '$' ? dollarEnd(s, i) : backquoteEnd(s, i);
          protect(s.slice(i, end));
          i = end;
          continue;
        }
        if (d === '#') protect(d);
        else literal(d);
        i++;
      }
      if (i < limit) {
        literal('"');
        last = i;
        i++;
      } else {
        prot += '"';
        last = limit - 1;
      }
      continue;
    }
    if (c === '$' || c === '`') {
      const end = c === '$' ? dollarEnd(s, i) : backquoteEnd(s, i);
      protect(s.slice(i, end));
      last = end - 1;
      i = end;
      continue;
    }
    if (c === '<') {
      PLACEHOLDER_RE.lastIndex = i;
      const m = PLACEHOLDER_RE.exec(s);
      if (!m) break;
      protect(m[0]);
      last = i + m[0].length - 1;
      i += m[0].length;
      continue;
    }
    if (c === '(' && i > start) {
      // `choice(a,b)`, `interval(0,1)`: Hydra sweep functions written unquoted.
      const end = matchParen(s, i);
      protect(s.slice(i, end));
      last = end - 1;
      i = end;
      continue;
    }
    if (c === '>' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')') break;
    if (c === '#') protect(c);
    else literal(c);
    last = i;
    i++;
  }
  const text = quoted ? unquote(prot, protectedTexts, raw) : raw;
  return { word: { text, raw, start, last }, next: i };
}

/** Removes quotes and escapes with shell-quote, then puts the protected texts back. */
function unquote(prot: string, protectedTexts: string[], raw: string): string {
  let parsed;
  try {
    parsed = shellQuoteParse(prot);
  } catch {
    return raw;
  }
  let out: string;
  if (parsed.length === 0) out = '';
  else if (parsed.length === 1) {
    const entry = parsed[0]!;
    if (typeof entry === 'string') out = entry;
    else if ('pattern' in entry) out = entry.pattern;
    else return raw;
  } else return raw;
  return out.replace(PROTECTED_RE, (ch) => protectedTexts[ch.charCodeAt(0) - PROTECT_BASE] ?? ch);
}
