/**
 * Gates on GFM constructs that micromark tries far more often than they can match: each is tried
 * only where one look at the text being parsed says it may match, and everywhere else fails at
 * once, as it would have after reading on. The tree is the same; the work saved is the failed
 * tries.
 *
 * - GFM literal autolinks (micromark-extension-gfm-autolink-literal 2.x): the e-mail construct is
 *   keyed on every ASCII letter, digit, `+`, `-`, `.` and `_`, so the text tokenizer stops at the
 *   start of every word and tries it (saving and restoring its state, reading the word to its
 *   end), and `h`/`w` words try the `http(s)://` and `www.` constructs too. An e-mail literal
 *   needs an `@` right after its run of such characters, a protocol literal `http://` or
 *   `https://` where it starts, a `www` literal `www.` (letters in either case): the gate marks
 *   those start offsets in the text once per parse.
 * - GFM tables (micromark-extension-gfm-table 2.x): the construct is keyed on every code (`null`),
 *   so it is tried at the start of every flow line and of every paragraph's continuation lines,
 *   and reads the whole line as a head row before it looks at the next one for a delimiter row. A
 *   head row needs that next line to be a delimiter row: after its container prefix (blanks and
 *   `>`), only `-`, `:`, `|`, spaces and tabs, with a `-` and a `:` or `|` (micromark: "there was
 *   no `:` or `|` at all: it's a thematic break or setext underline instead"). The gate keeps the
 *   lines followed by such a line; body rows (after a head or row) are tried as before.
 *
 * Positions: the gates read the tokenizer's current point (`now()`: `offset`, 0-based in the text
 * after a leading byte order mark, which micromark drops; `line`, 1-based). A gate that cannot
 * trust what it reads (no text known, an offset whose character is not the one being tokenized)
 * lets the construct run as before: a needless try, never a wrong failure.
 *
 * Measured on NeMo Gym's 380 parsed pages (issue #35): about 15 % of the Markdown parser's CPU
 * time, the trees identical (positions included).
 */
import type { Root } from 'mdast';
import type { Processor } from 'unified';

/** The parts of a micromark construct the gates read and wrap (micromark-util-types `Construct`). */
interface Construct {
  name?: string;
  tokenize: (this: TokenizeContext, effects: unknown, ok: State, nok: State) => State;
  previous?: (this: TokenizeContext, code: number | null) => boolean;
  [key: string]: unknown;
}
/** A micromark state function. */
type State = (code: number | null) => unknown;
/** The parts of micromark's tokenize context the gates read. */
interface TokenizeContext {
  now(): { line: number; offset: number };
  previous: number | null;
  events: Array<[string, { type: string }, unknown]>;
}
/** A micromark syntax extension: construct records by content type, each by character code (or `null`). */
type Extension = Record<string, Record<string, Construct | Construct[] | undefined> | undefined>;

/** What one parse's gates know of its text (see {@link prepareGates}). */
interface GateText {
  text: string;
  /** Offsets where a GFM e-mail literal may start: a run of `[A-Za-z0-9+\-._]` right before an `@` (every offset of the run). */
  email: Uint8Array | undefined;
  /** Offsets where `http://` or `https://` starts (either case). */
  protocol: Uint8Array | undefined;
  /** Offsets where `www.` starts (either case). */
  www: Uint8Array | undefined;
  /** 1-based numbers of the lines that may be a table's delimiter row. */
  delimiterLines: Set<number> | undefined;
}

/** The text being parsed (innermost parse last); the gates are open when it is empty. */
const parsing: GateText[] = [];

/** `+`, `-`, `.`, `_` and ASCII letters and digits: the characters of a GFM e-mail literal's local part (`gfmAtext`). */
function isAtext(c: number): boolean {
  return c === 43 || c === 45 || c === 46 || c === 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Marks every start offset of `re` (global) in `text`; undefined when there is none. */
function starts(text: string, re: RegExp): Uint8Array | undefined {
  let marks: Uint8Array | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) (marks ??= new Uint8Array(text.length))[m.index] = 1;
  return marks;
}

/** `http://` or `https://`, either case. */
const PROTOCOL_RE = /https?:\/\//gi;
/** `www.`, either case. */
const WWW_RE = /www\./gi;
/** A line that may be a table's delimiter row once its container prefix (blanks, `>`) is off: only `-`, `:`, `|`, blanks. */
const DELIMITER_ROW_RE = /^[-:| \t]+$/;

/** What {@link GateText} holds for `source` (a leading byte order mark dropped, as micromark does). */
export function gateText(source: string): GateText {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let email: Uint8Array | undefined;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    // Walked back once per offset: a run already marked ends here too.
    for (let i = at - 1; i >= 0 && isAtext(text.charCodeAt(i)) && !email?.[i]; i--) (email ??= new Uint8Array(text.length))[i] = 1;
  }
  let delimiterLines: Set<number> | undefined;
  if (text.includes('-')) {
    let line = 1;
    let from = 0;
    while (from <= text.length) {
      let end = from;
      while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
      let rest = from;
      while (rest < end && (text.charCodeAt(rest) === 32 || text.charCodeAt(rest) === 9 || text.charCodeAt(rest) === 62)) rest++;
      if (rest < end) {
        const body = text.slice(rest, end);
        if (body.includes('-') && (body.includes(':') || body.includes('|')) && DELIMITER_ROW_RE.test(body)) (delimiterLines ??= new Set()).add(line);
      }
      if (end >= text.length) break;
      from = text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      line++;
    }
  }
  return { text, email, protocol: starts(text, PROTOCOL_RE), www: starts(text, WWW_RE), delimiterLines };
}

/**
 * Whether the construct gated by `marks` may start at the tokenizer's current point: true when no
 * text is known or the offset is not trustworthy (`code`, when given, is the character being
 * tokenized; else the previous one is compared).
 */
function mayStart(context: TokenizeContext, key: 'email' | 'protocol' | 'www', code?: number | null): boolean {
  const gate = parsing[parsing.length - 1];
  if (!gate) return true;
  const { offset } = context.now();
  const text = gate.text;
  if (code !== undefined) {
    if (code === null || code < 0 || text.charCodeAt(offset) !== code) return true;
  } else {
    const previous = context.previous;
    if (previous !== null && previous >= 0 && text.charCodeAt(offset - 1) !== previous) return true;
    if (offset >= text.length) return true;
  }
  return gate[key]?.[offset] === 1;
}

/** The autolink construct `construct`, gated by the marks of `key`. */
function gatedAutolink(construct: Construct, key: 'email' | 'protocol' | 'www'): Construct {
  const { previous, tokenize } = construct;
  return {
    ...construct,
    ...(previous ? { previous: function (this: TokenizeContext, code: number | null): boolean { return previous.call(this, code) && mayStart(this, key); } } : {}),
    tokenize(this: TokenizeContext, effects, ok, nok) {
      const start = tokenize.call(this, effects, ok, nok);
      return (code) => (mayStart(this, key, code) ? start(code) : nok(code));
    },
  };
}

/** Event types micromark's table construct skips back over to find the last construct (its `start`). */
const BETWEEN_ROWS: ReadonlySet<string> = new Set(['lineEnding', 'linePrefix']);

/** The table construct, trying a head row only on a line followed by a possible delimiter row. */
function gatedTable(construct: Construct): Construct {
  const { tokenize } = construct;
  return {
    ...construct,
    tokenize(this: TokenizeContext, effects, ok, nok) {
      const start = tokenize.call(this, effects, ok, nok);
      return (code) => {
        const gate = parsing[parsing.length - 1];
        if (!gate) return start(code);
        const events = this.events;
        let index = events.length - 1;
        while (index > -1 && BETWEEN_ROWS.has(events[index]![1].type)) index--;
        const tail = index > -1 ? events[index]![1].type : undefined;
        // A body row (after the head or a row) is tried as before.
        if (tail === 'tableHead' || tail === 'tableRow') return start(code);
        return gate.delimiterLines?.has(this.now().line + 1) ? start(code) : nok(code);
      };
    },
  };
}

/** `construct` gated, when it is one of the gated constructs (by name). */
function gated(construct: Construct, made: Map<Construct, Construct>): Construct {
  let out = made.get(construct);
  if (out) return out;
  switch (construct.name) {
    case 'emailAutolink':
      out = gatedAutolink(construct, 'email');
      break;
    case 'protocolAutolink':
      out = gatedAutolink(construct, 'protocol');
      break;
    case 'wwwAutolink':
      out = gatedAutolink(construct, 'www');
      break;
    case 'table':
      out = gatedTable(construct);
      break;
    default:
      out = construct;
  }
  made.set(construct, out);
  return out;
}

/** `extension` with its gated constructs replaced (a new object; the original is left as it is). */
function gatedExtension(extension: Extension, made: Map<Construct, Construct>): Extension {
  const out: Extension = {};
  for (const [field, record] of Object.entries(extension)) {
    if (field === 'disable' || field === 'insideSpan' || field === 'attentionMarkers' || !record || typeof record !== 'object') {
      out[field] = record;
      continue;
    }
    const next: Record<string, Construct | Construct[] | undefined> = {};
    for (const [code, value] of Object.entries(record)) {
      next[code] = Array.isArray(value) ? value.map((c) => gated(c, made)) : value && typeof value === 'object' && 'tokenize' in value ? gated(value, made) : value;
    }
    out[field] = next;
  }
  return out;
}

/**
 * A unified plugin, used after remark-parse and the plugins that add micromark extensions: gates
 * their literal-autolink and table constructs (see the module comment) and wraps the parser so
 * that each parse knows its text.
 */
export function gateConstructs(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: Array<Extension | Extension[]> };
  const made = new Map<Construct, Construct>();
  data.micromarkExtensions = (data.micromarkExtensions ?? []).map((e) => (Array.isArray(e) ? e.map((x) => gatedExtension(x, made)) : gatedExtension(e, made)));
  const self = this as unknown as { parser?: (document: string, file: unknown) => Root };
  const parser = self.parser;
  if (!parser) return;
  self.parser = (document, file) => {
    parsing.push(gateText(document));
    try {
      return parser(document, file);
    } finally {
      parsing.pop();
    }
  };
}
