/** Compares code defaults with documented defaults by meaning, formats defaults for messages, and suggests near names. */
import type { DefaultValue } from './types.js';
import { codeSpans } from '../shared/code-spans.js';

/** Result of {@link compareDefault}. `unknown` is always a safe answer: rules stay silent on it. */
export type Comparison = 'same' | 'different' | 'unknown';

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/**
 * A default's meaning. `weak` marks documented words that are only probably values (`none`,
 * `yes`, `off` written as plain prose): they can agree with the code but never contradict it
 * across types. `bare` marks an unquoted documented word taken as a string.
 */
type Value =
  | { t: 'null'; weak?: boolean }
  | { t: 'bool'; v: boolean; weak?: boolean }
  | { t: 'num'; v: number; big?: bigint }
  | { t: 'str'; v: string; raw?: string; bare?: boolean }
  | { t: 'list'; items: Value[]; set?: boolean }
  | { t: 'dict'; entries: Array<[Value, Value]> };

const NULL: Value = { t: 'null' };

/**
 * Deepest nesting of a default docdrift evaluates (brackets, calls, unary signs, `**` chains), on
 * either side. Real defaults nest a few levels; a default nested 1,500 deep overflowed the stack
 * of the recursive readers below ("internal error in rule reference-default-mismatch": sweep15
 * D3). A deeper value is not comparable: {@link compareDefault} answers `unknown`.
 */
const MAX_VALUE_DEPTH = 100;

/** Thrown by the readers below past {@link MAX_VALUE_DEPTH}; caught by {@link compareDefault}. */
class TooDeep extends Error {}

/** A canonical string for a value (dict keys and set items are matched by it). */
function canonical(v: Value): string {
  switch (v.t) {
    case 'null':
      return 'null';
    case 'bool':
      return `b:${v.v}`;
    case 'num':
      return v.big !== undefined ? `n:${v.big}` : `n:${Object.is(v.v, -0) ? 0 : v.v}`;
    case 'str':
      return `s:${JSON.stringify(v.v)}`;
    case 'list': {
      const items = v.items.map(canonical);
      return v.set ? `{${items.sort().join(',')}}` : `[${items.join(',')}]`;
    }
    case 'dict':
      return `{${v.entries.map(([k, x]) => `${canonical(k)}:${canonical(x)}`).sort().join(',')}}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Python side: a tiny evaluator for literal expressions
// ---------------------------------------------------------------------------------------------

interface Token {
  type: 'num' | 'str' | 'name' | 'op';
  text: string;
  /** Decoded string contents (str tokens). */
  value?: string;
  /** String contents as written, escapes not decoded (str tokens). */
  inner?: string;
  /** An f-string with placeholders: not evaluable. */
  dynamic?: boolean;
}

const NUMBER_RE =
  /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?)/;
const STRING_START_RE = /^([rRbBuUfF]{0,2})('''|"""|'|")/;
const NAME_RE = /^[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*/;
const OPS = ['**', '//', '<<', '>>', '==', '(', ')', '[', ']', '{', '}', ',', ':', '+', '-', '*', '/', '%', '~', '='];

function decodeEscapes(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\\'"abfnrtv\n])/g, (_, e: string) => {
    switch (e[0]) {
      case 'x':
      case 'u':
      case 'U':
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'a':
        return '\x07';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case '\n':
        return '';
      default:
        return /[0-7]/.test(e) ? String.fromCodePoint(parseInt(e, 8)) : e;
    }
  });
}

/** Tokenises Python source text; returns undefined on anything it does not understand. */
function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ws = /^(?:\s+|#[^\n]*|\\\n)+/.exec(rest);
    if (ws) {
      i += ws[0].length;
      continue;
    }
    const str = STRING_START_RE.exec(rest);
    if (str) {
      const prefix = str[1]!.toLowerCase();
      const quote = str[2]!;
      const raw = prefix.includes('r');
      let j = str[0].length;
      let inner = '';
      let closed = false;
      while (j < rest.length) {
        if (!raw && rest[j] === '\\') {
          inner += rest.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (raw && rest[j] === '\\' && j + 1 < rest.length) {
          inner += rest.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (rest.startsWith(quote, j)) {
          closed = true;
          j += quote.length;
          break;
        }
        if (quote.length === 1 && rest[j] === '\n') return undefined;
        inner += rest[j];
        j++;
      }
      if (!closed) return undefined;
      const dynamic = prefix.includes('f') && /\{(?!\{)/.test(inner.replace(/\{\{/g, ''));
      const value = raw ? inner : decodeEscapes(inner);
      tokens.push({ type: 'str', text: rest.slice(0, j), value: prefix.includes('f') ? value.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : value, inner, dynamic });
      i += j;
      continue;
    }
    const num = NUMBER_RE.exec(rest);
    if (num && num[0].length > 0) {
      if (/^[A-Za-z_]/.test(rest.slice(num[0].length))) return undefined;
      tokens.push({ type: 'num', text: num[0] });
      i += num[0].length;
      continue;
    }
    const name = NAME_RE.exec(rest);
    if (name) {
      tokens.push({ type: 'name', text: name[0].replace(/\s+/g, '') });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => rest.startsWith(o));
    if (!op) return undefined;
    tokens.push({ type: 'op', text: op });
    i += op.length;
  }
  return tokens;
}

/** Parses a Python numeric literal (no sign). */
function parseNumber(text: string): Value | undefined {
  const t = text.replace(/_/g, '');
  if (/[jJ]$/.test(t)) return undefined; // complex
  if (/^0[xX]/.test(t) || /^0[oO]/.test(t) || /^0[bB]/.test(t)) {
    const big = BigInt(t.toLowerCase());
    return { t: 'num', v: Number(big), big };
  }
  if (/^\d+$/.test(t)) {
    const big = BigInt(t);
    return { t: 'num', v: Number(big), big };
  }
  const v = Number(t.endsWith('.') ? `${t}0` : t);
  return Number.isNaN(v) ? undefined : { t: 'num', v };
}

class PyParser {
  private i = 0;
  /** Nesting of {@link unary}, through which every nested expression passes. */
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  /** Parses the whole token list as one expression. */
  parseAll(): Value | undefined {
    const v = this.expr();
    return v && this.i === this.tokens.length ? v : undefined;
  }

  private peek(text?: string): Token | undefined {
    const t = this.tokens[this.i];
    return text === undefined || t?.text === text ? t : undefined;
  }

  private eat(text: string): boolean {
    if (this.tokens[this.i]?.text === text && this.tokens[this.i]?.type === 'op') {
      this.i++;
      return true;
    }
    return false;
  }

  private expr(): Value | undefined {
    let left = this.sum();
    while (left && (this.peek('<<') || this.peek('>>'))) {
      const op = this.tokens[this.i++]!.text;
      const right = this.sum();
      left = right && arith(op, left, right);
    }
    return left;
  }

  private sum(): Value | undefined {
    let left = this.term();
    while (left && (this.peek('+') || this.peek('-'))) {
      const op = this.tokens[this.i++]!.text;
      const right = this.term();
      left = right && arith(op, left, right);
    }
    return left;
  }

  private term(): Value | undefined {
    let left = this.unary();
    while (left && (this.peek('*') || this.peek('/') || this.peek('//') || this.peek('%'))) {
      const op = this.tokens[this.i++]!.text;
      const right = this.unary();
      left = right && arith(op, left, right);
    }
    return left;
  }

  private unary(): Value | undefined {
    if (this.depth >= MAX_VALUE_DEPTH) throw new TooDeep();
    this.depth++;
    try {
      return this.signed();
    } finally {
      this.depth--;
    }
  }

  private signed(): Value | undefined {
    if (this.eat('-')) {
      const v = this.unary();
      if (v?.t !== 'num') return undefined;
      return v.big !== undefined ? { t: 'num', v: -v.v, big: -v.big } : { t: 'num', v: -v.v };
    }
    if (this.eat('+')) {
      const v = this.unary();
      return v?.t === 'num' ? v : undefined;
    }
    return this.power();
  }

  private power(): Value | undefined {
    const base = this.atom();
    if (base && this.eat('**')) {
      const exp = this.unary();
      return exp && arith('**', base, exp);
    }
    return base;
  }

  /** Comma-separated items up to `close`; returns undefined on error. */
  private items(close: string): { items: Value[]; trailingComma: boolean } | undefined {
    const items: Value[] = [];
    let trailingComma = false;
    while (!this.eat(close)) {
      const v = this.expr();
      if (!v) return undefined;
      items.push(v);
      trailingComma = this.eat(',');
      if (!trailingComma) {
        if (!this.eat(close)) return undefined;
        break;
      }
    }
    return { items, trailingComma };
  }

  private atom(): Value | undefined {
    const tok = this.tokens[this.i];
    if (!tok) return undefined;
    this.i++;
    if (tok.type === 'num') return parseNumber(tok.text);
    if (tok.type === 'str') {
      if (tok.dynamic) return undefined;
      let value = tok.value!;
      let inner = tok.inner!;
      // Implicit concatenation: "a" "b"
      while (this.peek()?.type === 'str') {
        const next = this.tokens[this.i++]!;
        if (next.dynamic) return undefined;
        value += next.value!;
        inner += next.inner!;
      }
      return { t: 'str', v: value, raw: inner };
    }
    if (tok.type === 'name') return this.nameOrCall(tok.text);
    switch (tok.text) {
      case '[': {
        const r = this.items(']');
        return r && { t: 'list', items: r.items };
      }
      case '(': {
        const r = this.items(')');
        if (!r) return undefined;
        if (r.items.length === 1 && !r.trailingComma) return r.items[0];
        return { t: 'list', items: r.items };
      }
      case '{':
        return this.braces();
      default:
        return undefined;
    }
  }

  private braces(): Value | undefined {
    if (this.eat('}')) return { t: 'dict', entries: [] };
    const first = this.expr();
    if (!first) return undefined;
    if (this.eat(':')) {
      const entries: Array<[Value, Value]> = [];
      let key: Value | undefined = first;
      for (;;) {
        const value = this.expr();
        if (!key || !value) return undefined;
        entries.push([key, value]);
        if (this.eat('}')) return { t: 'dict', entries };
        if (!this.eat(',')) return undefined;
        if (this.eat('}')) return { t: 'dict', entries };
        key = this.expr();
        if (!this.eat(':')) return undefined;
      }
    }
    const items = [first];
    for (;;) {
      if (this.eat('}')) return { t: 'list', items, set: true };
      if (!this.eat(',')) return undefined;
      if (this.eat('}')) return { t: 'list', items, set: true };
      const v = this.expr();
      if (!v) return undefined;
      items.push(v);
    }
  }

  private nameOrCall(name: string): Value | undefined {
    switch (name) {
      case 'True':
        return { t: 'bool', v: true };
      case 'False':
        return { t: 'bool', v: false };
      case 'None':
        return NULL;
      case 'math.inf':
      case 'numpy.inf':
      case 'np.inf':
        return { t: 'num', v: Infinity };
      case 'math.nan':
      case 'numpy.nan':
      case 'np.nan':
        return { t: 'num', v: NaN };
    }
    if (!this.eat('(')) return undefined;
    const r = this.items(')');
    if (!r) return undefined;
    const [arg, ...more] = r.items;
    if (more.length > 0) return undefined;
    const simple = name.replace(/^(?:builtins|typing|collections|pathlib|math)\./, '');
    switch (simple) {
      case 'list':
      case 'tuple':
        if (!arg) return { t: 'list', items: [] };
        return arg.t === 'list' ? { t: 'list', items: arg.items } : undefined;
      case 'set':
      case 'frozenset':
        if (!arg) return { t: 'list', items: [], set: true };
        return arg.t === 'list' ? { t: 'list', items: arg.items, set: true } : undefined;
      case 'dict':
      case 'OrderedDict':
        if (!arg) return { t: 'dict', entries: [] };
        return arg.t === 'dict' ? arg : undefined;
      case 'float':
        if (arg?.t === 'str') {
          const s = arg.v.trim().toLowerCase();
          if (/^[+-]?(inf|infinity)$/.test(s)) return { t: 'num', v: s.startsWith('-') ? -Infinity : Infinity };
          if (s === 'nan') return { t: 'num', v: NaN };
          const n = Number(s);
          return s !== '' && !Number.isNaN(n) ? { t: 'num', v: n } : undefined;
        }
        if (!arg) return { t: 'num', v: 0 };
        return arg.t === 'num' ? { t: 'num', v: arg.v } : undefined;
      case 'int':
        if (!arg) return { t: 'num', v: 0, big: 0n };
        return arg.t === 'num' && Number.isInteger(arg.v) ? arg : undefined;
      case 'str':
      case 'Path':
      case 'PurePath':
      case 'PosixPath':
        if (!arg) return simple === 'str' ? { t: 'str', v: '' } : undefined;
        return arg.t === 'str' ? arg : undefined;
      default:
        return undefined;
    }
  }
}

/** Arithmetic on numbers only; anything else (string repetition, overflow to huge ints) is not evaluated. */
function arith(op: string, a: Value, b: Value): Value | undefined {
  if (a.t !== 'num' || b.t !== 'num') return undefined;
  if (a.big !== undefined && b.big !== undefined) {
    const x = a.big;
    const y = b.big;
    let r: bigint | undefined;
    switch (op) {
      case '+':
        r = x + y;
        break;
      case '-':
        r = x - y;
        break;
      case '*':
        r = x * y;
        break;
      case '//':
        if (y === 0n) return undefined;
        r = x / y - ((x % y !== 0n && (x < 0n) !== (y < 0n)) ? 1n : 0n);
        break;
      case '%':
        if (y === 0n) return undefined;
        r = ((x % y) + y) % y;
        break;
      case '**':
        if (y < 0n || y > 4096n) return y < 0n ? { t: 'num', v: a.v ** b.v } : undefined;
        r = x ** y;
        break;
      case '<<':
        if (y < 0n || y > 4096n) return undefined;
        r = x << y;
        break;
      case '>>':
        if (y < 0n) return undefined;
        r = x >> y;
        break;
      case '/':
        if (y === 0n) return undefined;
        return { t: 'num', v: Number(x) / Number(y) };
    }
    return r === undefined ? undefined : { t: 'num', v: Number(r), big: r };
  }
  switch (op) {
    case '+':
      return { t: 'num', v: a.v + b.v };
    case '-':
      return { t: 'num', v: a.v - b.v };
    case '*':
      return { t: 'num', v: a.v * b.v };
    case '/':
      return b.v === 0 ? undefined : { t: 'num', v: a.v / b.v };
    case '//':
      return b.v === 0 ? undefined : { t: 'num', v: Math.floor(a.v / b.v) };
    case '%':
      return b.v === 0 ? undefined : { t: 'num', v: a.v - b.v * Math.floor(a.v / b.v) };
    case '**':
      return { t: 'num', v: a.v ** b.v };
    default:
      return undefined;
  }
}

/**
 * Evaluates a Python literal expression; undefined when it is not one docdrift understands.
 *
 * @throws {TooDeep} when it nests deeper than {@link MAX_VALUE_DEPTH}.
 */
function evalPython(text: string): Value | undefined {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return undefined;
  return new PyParser(tokens).parseAll();
}

/** The meaning of a code default, or undefined when it cannot be evaluated. */
function codeValue(code: DefaultValue): Value | undefined {
  const text = code.text.trim();
  if (code.kind === 'factory') {
    const lambda = /^lambda\s*:\s*([\s\S]+)$/.exec(text);
    if (lambda) return evalPython(lambda[1]!);
    const simple = text.replace(/^(?:builtins|typing|collections)\./, '');
    switch (simple) {
      case 'list':
      case 'tuple':
      case 'List':
        return { t: 'list', items: [] };
      case 'set':
      case 'frozenset':
      case 'Set':
        return { t: 'list', items: [], set: true };
      case 'dict':
      case 'Dict':
      case 'OrderedDict':
        return { t: 'dict', entries: [] };
      case 'str':
        return { t: 'str', v: '' };
      case 'int':
        return { t: 'num', v: 0, big: 0n };
      case 'float':
        return { t: 'num', v: 0 };
      case 'bool':
        return { t: 'bool', v: false };
      default:
        return undefined;
    }
  }
  return evalPython(text);
}

// ---------------------------------------------------------------------------------------------
// Documented side
// ---------------------------------------------------------------------------------------------

/** Documented texts that state no value: they are never compared. */
const PROSE_RE =
  /^(?:see\b.*|same as\b.*|refer to\b.*|auto(?:matic(?:ally)?)?|required|optional|mandatory|n\/?a|tbd|todo|varies|computed|dynamic|derived|inherited|unset|not set|no default|depends\b.*|\(?none given\)?|[-–—?*_.]+|…)$/i;

/** `empty`, `an empty list`, `empty dict`… */
const EMPTY_RE = /^(?:an?\s+)?empty(?:\s+(list|array|sequence|tuple|set|dict|dictionary|map|mapping|object|string|str))?$/i;

/** Words YAML and prose use for values, by lower-cased spelling. */
function keyword(word: string, formatted: boolean): Value | undefined {
  const w = word.toLowerCase();
  switch (w) {
    case 'true':
      return { t: 'bool', v: true };
    case 'false':
      return { t: 'bool', v: false };
    case 'null':
    case '~':
      return NULL;
    case 'none':
      // `None` (Python) and anything in code/quotes is a value; plain "none" may be prose.
      return word === 'None' || formatted ? NULL : { t: 'null', weak: true };
    case 'nil':
      return { t: 'null', weak: true };
    case 'yes':
    case 'on':
      return { t: 'bool', v: true, weak: true };
    case 'no':
    case 'off':
      return { t: 'bool', v: false, weak: true };
    case 'inf':
    case '.inf':
    case '+inf':
    case '+.inf':
    case 'infinity':
    case '+infinity':
      return { t: 'num', v: Infinity };
    case '-inf':
    case '-.inf':
    case '-infinity':
      return { t: 'num', v: -Infinity };
    case 'nan':
    case '.nan':
      return { t: 'num', v: NaN };
    default:
      return undefined;
  }
}

/** Splits on commas outside brackets and quotes. */
function splitTopLevel(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0 || quote) return undefined;
  parts.push(text.slice(start));
  return parts;
}

function unquote(text: string): { inner: string; quoted: boolean } {
  const m = /^(["'])([\s\S]*)\1$/.exec(text);
  if (!m) return { inner: text, quoted: false };
  return { inner: m[1] === '"' ? decodeEscapes(m[2]!) : m[2]!.replace(/\\'/g, "'"), quoted: true };
}

/**
 * Parses a documented value leniently (JSON, YAML flow style, Hydra's unquoted list items,
 * Python literals). Unquoted words become `bare` strings; the result is never undefined for a
 * non-empty text.
 */
function docValue(text: string, formatted: boolean, depth = 0): Value {
  if (depth >= MAX_VALUE_DEPTH) throw new TooDeep();
  const t = text.trim();
  const { inner, quoted } = unquote(t);
  if (quoted) {
    // Quotes are ignored: "None" is None, "5" is 5, "abc" is abc.
    const v = docValue(inner, true, depth + 1);
    return v.t === 'str' ? { t: 'str', v: inner, raw: inner } : v;
  }
  const kw = keyword(t, formatted);
  if (kw) return kw;
  const normalisedNumber = t.replace(/^\+/, '');
  if (/^-?(?:\d|\.\d)/.test(normalisedNumber) && NUMBER_RE.exec(normalisedNumber.replace(/^-/, ''))?.[0] === normalisedNumber.replace(/^-/, '')) {
    const n = parseNumber(normalisedNumber.replace(/^-/, ''));
    if (n?.t === 'num') return normalisedNumber.startsWith('-') ? { t: 'num', v: -n.v, ...(n.big !== undefined ? { big: -n.big } : {}) } : n;
  }
  if (/^-?\d{1,3}(?:,\d{3})+$/.test(t)) {
    const big = BigInt(t.replace(/,/g, ''));
    return { t: 'num', v: Number(big), big };
  }
  const container = /^([[({])([\s\S]*)([\])}])$/.exec(t);
  if (container && '[({'.indexOf(container[1]!) === '])}'.indexOf(container[3]!)) {
    const body = container[2]!.trim();
    const parts = body === '' ? [] : splitTopLevel(body, ',');
    if (parts) {
      if (parts.length > 1 && parts.at(-1)!.trim() === '') parts.pop();
      if (parts.every((p) => p.trim() !== '')) {
        if (container[1] === '{') {
          const pairs = parts.map((p) => splitTopLevel(p, ':'));
          if (parts.length === 0) return { t: 'dict', entries: [] };
          if (pairs.every((p) => p && p.length >= 2)) {
            return {
              t: 'dict',
              entries: pairs.map((p) => {
                const key = p![0]!;
                const value = p!.slice(1).join(':');
                return [docValue(key, true, depth + 1), docValue(value, true, depth + 1)];
              }),
            };
          }
          if (pairs.every((p) => p && p.length === 1)) {
            return { t: 'list', items: parts.map((p) => docValue(p, true, depth + 1)), set: true };
          }
        } else if (container[1] === '[' || parts.length !== 1 || /,\s*$/.test(body)) {
          return { t: 'list', items: parts.map((p) => docValue(p, true, depth + 1)) };
        } else {
          return docValue(body, formatted, depth + 1); // (x) is x
        }
      }
    }
  }
  const py = evalPython(t);
  if (py) return py;
  return formatted ? { t: 'str', v: t, raw: t } : { t: 'str', v: t, raw: t, bare: true };
}

/** Cleans a documented default: unwraps code spans and emphasis, drops trailing remarks. */
function cleanDocumented(documented: string): { text: string; formatted: boolean } | undefined {
  let t = documented.replace(/\u2212/g, '-').trim();
  t = t.replace(/^<code>([\s\S]*)<\/code>$/i, '`$1`');
  for (;;) {
    const m = /^(\*\*|\*|__)([\s\S]+)\1$/.exec(t);
    if (!m) break;
    t = m[2]!.trim();
  }
  const spans = codeSpans(t);
  if (spans.length > 1) return undefined; // "`a` or `b`": a choice, not a value
  if (spans.length === 1) {
    const span = spans[0]!;
    const before = t.slice(0, span.index).trim();
    const after = t
      .slice(span.index + span.length)
      .trim()
      .replace(/^[.,;]\s*/, '')
      .replace(/^(?:\([^)]*\)|[—–-]\s.*)$/, '')
      .replace(/[.,;]$/, '')
      .trim();
    if (before !== '' || after !== '') return undefined; // "same as `model`"
    return { text: span.content.trim(), formatted: true };
  }
  // Plain text: drop a trailing remark in parentheses ("None (disabled)") and a final period.
  const remark = /^(.*\S)\s+\([^()]*\)\.?$/.exec(t);
  if (remark) t = remark[1]!;
  if (/^[A-Za-z_]\w*\.$/.test(t)) t = t.slice(0, -1); // "True." but not "1."
  return { text: t.trim(), formatted: false };
}

function isEmptyValue(v: Value): boolean {
  return (v.t === 'list' && v.items.length === 0) || (v.t === 'dict' && v.entries.length === 0) || (v.t === 'str' && v.v === '');
}

/** Compares two evaluated values. */
function compareValues(code: Value, doc: Value): Comparison {
  if (code.t === 'str' && doc.t === 'str') {
    if (code.v === doc.v || (code.raw !== undefined && code.raw === doc.v)) return 'same';
    if (code.v.toLowerCase() === doc.v.toLowerCase()) return 'unknown'; // INFO vs info: probably read case-insensitively
    if (doc.bare && /\s/.test(doc.v)) return 'unknown'; // prose
    return 'different';
  }
  if (code.t === 'null') return doc.t === 'null' ? 'same' : 'unknown'; // None often means "computed at run time"
  if (doc.t === 'null') return doc.weak ? 'unknown' : 'different';
  if (doc.t === 'str') {
    if (code.t === 'num') {
      const n = Number(doc.v.replace(/_/g, ''));
      if (doc.v.trim() !== '' && !Number.isNaN(n) && /^[-+.\d_eE]+$/.test(doc.v)) return n === code.v ? 'same' : 'different';
    }
    if (code.t === 'bool' && /^(true|false)$/i.test(doc.v)) return (doc.v.toLowerCase() === 'true') === code.v ? 'same' : 'different';
    return 'unknown'; // "auto", "all", "unlimited": words that describe, not contradict
  }
  if (code.t === 'str') {
    if (doc.t === 'num') {
      const n = Number(code.v.replace(/_/g, ''));
      if (code.v.trim() !== '' && !Number.isNaN(n) && n === doc.v) return 'same';
    }
    if (doc.t === 'bool' && doc.weak) return 'unknown';
    return 'different';
  }
  if (code.t === 'bool') {
    if (doc.t === 'bool') return code.v === doc.v ? 'same' : doc.weak ? 'unknown' : 'different';
    return 'different';
  }
  if (code.t === 'num') {
    if (doc.t === 'num') {
      if (code.big !== undefined && doc.big !== undefined) return code.big === doc.big ? 'same' : 'different';
      if (Number.isNaN(code.v) && Number.isNaN(doc.v)) return 'same';
      return code.v === doc.v ? 'same' : 'different';
    }
    if (doc.t === 'bool' && doc.weak) return 'unknown';
    return 'different';
  }
  // Containers.
  if (code.t === 'list' && doc.t === 'list') {
    if (code.items.length !== doc.items.length) return 'different';
    if (code.set || doc.set) {
      const a = code.items.map(canonical).sort();
      const b = doc.items.map(canonical).sort();
      if (a.every((x, i) => x === b[i])) return 'same';
      return compareSequences(code.items, doc.items) === 'same' ? 'same' : 'unknown';
    }
    return compareSequences(code.items, doc.items);
  }
  if (code.t === 'dict' && doc.t === 'dict') {
    if (code.entries.length !== doc.entries.length) return 'different';
    let result: Comparison = 'same';
    for (const [k, v] of code.entries) {
      const match = doc.entries.find(([dk]) => compareValues(k, dk) === 'same');
      if (!match) return 'different';
      const r = compareValues(v, match[1]);
      if (r === 'different') return 'different';
      if (r === 'unknown') result = 'unknown';
    }
    return result;
  }
  if (isEmptyValue(code) && isEmptyValue(doc)) return 'unknown'; // {} vs []: sloppy, not clearly wrong
  if (doc.t === 'bool' && doc.weak) return 'unknown';
  return 'different';
}

function compareSequences(a: Value[], b: Value[]): Comparison {
  let result: Comparison = 'same';
  for (let i = 0; i < a.length; i++) {
    const r = compareValues(a[i]!, b[i]!);
    if (r === 'different') return 'different';
    if (r === 'unknown') result = 'unknown';
  }
  return result;
}

/**
 * Compares a code default with a documented default by meaning.
 *
 * - Booleans: `True`/`true`/`TRUE` (and, as prose only, `yes`/`on`, `no`/`off`).
 * - None: `None`, `null`, `~`, `none`, `"None"` are all null.
 * - Numbers by value: `1e-3` = `0.001` = `.001`; `10_000` = `10000` = `10,000`; `1.0` = `1`;
 *   hex/octal/binary; `inf`/`nan`; simple arithmetic in code (`60 * 60`, `2**20`, `1 << 10`).
 * - Strings with quotes or backticks ignored (`'abc'` = `"abc"` = `` `abc` `` = `abc`).
 * - Containers: `[]` = `list()` = "empty list"; `{}` = `dict()`; tuples and sets ≈ lists;
 *   Hydra-style unquoted items (`[a, b]` = `["a", "b"]`); dict keys in any order.
 * - `default_factory`: `list` ≈ `[]`, `dict` ≈ `{}`, `lambda: [1]` ≈ `[1]`.
 * - Any default whose text equals the documented text is the same (`os.cpu_count()`).
 *
 * It answers `unknown` — never `different` — when unsure: the code default is missing or an
 * expression it cannot evaluate; the documented text is empty or prose ("see below", "auto",
 * "required", "-", "n/a", "same as `x`", two code spans); the code default is `None` and the
 * docs give a value (often the value computed at run time); a number or boolean is documented
 * by a word ("auto", "unlimited"); two strings differ only in case.
 *
 * @param code The default as the extractor read it; `undefined` yields `unknown`.
 * @param documented The documented default text as written (backticks, quotes, emphasis and a
 *   trailing remark in parentheses are tolerated).
 */
export function compareDefault(code: DefaultValue | undefined, documented: string): Comparison {
  try {
    return compareDefaultValues(code, documented);
  } catch (error) {
    if (error instanceof TooDeep) return 'unknown'; // nested too deep to compare: not comparable, no finding
    throw error;
  }
}

/** {@link compareDefault}, throwing {@link TooDeep} for a value nested too deep. */
function compareDefaultValues(code: DefaultValue | undefined, documented: string): Comparison {
  if (!code) return 'unknown';
  const cleaned = cleanDocumented(documented);
  if (!cleaned || cleaned.text === '') return 'unknown';
  const { text, formatted } = cleaned;
  const codeText = code.text.trim().replace(/\s+/g, ' ');
  if (codeText === text.replace(/\s+/g, ' ')) return 'same';

  const value = codeValue(code);
  if (!value) return 'unknown';
  const unquoted = unquote(text);
  // A string default documented as its bare contents ("auto" for "auto") before prose checks.
  if (value.t === 'str' && (value.v === unquoted.inner || value.raw === unquoted.inner)) return 'same';
  // "none" for None-the-string, "Fast" for "fast": sloppy, not clearly wrong.
  if (value.t === 'str' && value.v.toLowerCase() === unquoted.inner.toLowerCase()) return 'unknown';
  if (!unquoted.quoted && PROSE_RE.test(text)) return 'unknown';

  const empty = EMPTY_RE.exec(text);
  if (empty && !formatted) {
    const kind = (empty[1] ?? '').toLowerCase();
    const wants: Value['t'] | undefined = /^(list|array|sequence|tuple|set)$/.test(kind)
      ? 'list'
      : /^(dict|dictionary|map|mapping|object)$/.test(kind)
        ? 'dict'
        : /^(string|str)$/.test(kind)
          ? 'str'
          : undefined;
    if (isEmptyValue(value) && (!wants || wants === value.t)) return 'same';
    if (wants && wants === value.t) return 'different';
    return 'unknown';
  }

  return compareValues(value, docValue(text, formatted));
}

// ---------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------

/** Joins tokens back into one line: `[\n 1,\n 2,\n]` → `[1, 2]`. */
function renderTokens(tokens: Token[]): string {
  let out = '';
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!;
    const next = tokens[k + 1];
    const prev = tokens[k - 1];
    // Drop a trailing comma before a closing bracket (but keep the one-tuple's comma).
    if (tok.text === ',' && next && /^[\])}]$/.test(next.text)) {
      const isOneTuple = next.text === ')' && countItemsBack(tokens, k) === 1;
      if (!isOneTuple) continue;
    }
    if (out !== '' && prev) {
      const noSpaceAfter = /^[([{=]$/.test(prev.text) || (prev.type === 'op' && /^[-+~]$/.test(prev.text) && isUnary(tokens, k - 1));
      const noSpaceBefore = /^[\])},:=]$/.test(tok.text) || (tok.text === '(' && prev.type === 'name') || (tok.text === '[' && prev.type === 'name');
      if (!noSpaceAfter && !noSpaceBefore) out += ' ';
    }
    out += tok.text;
  }
  return out;
}

function isUnary(tokens: Token[], k: number): boolean {
  const prev = tokens[k - 1];
  return !prev || (prev.type === 'op' && !/^[\])}]$/.test(prev.text));
}

/**
 * Items in the bracket that the comma at `k` belongs to (top level only, up to `k`); 0 when the
 * bracket is a call's argument list, whose trailing comma never matters.
 */
function countItemsBack(tokens: Token[], k: number): number {
  let depth = 0;
  let commas = 0;
  for (let j = k; j >= 0; j--) {
    const t = tokens[j]!.text;
    if (/^[\])}]$/.test(t)) depth++;
    else if (/^[([{]$/.test(t)) {
      if (depth === 0) return tokens[j - 1]?.type === 'name' ? 0 : commas;
      depth--;
    } else if (t === ',' && depth === 0) commas++;
  }
  return commas;
}

/**
 * Normalises a code default for display in messages and suggested fixes. The text stays as the
 * code writes it (Python `True` stays `True`, `'abc'` keeps its quotes); a multi-line literal is
 * joined onto one line (`[1, 2]`). Factories read as their value: `list` → `[]`, `dict` → `{}`,
 * `set` → `set()`, `lambda: [1]` → `[1]`, `MyConfig` → `MyConfig()`.
 */
export function formatDefault(code: DefaultValue): string {
  const text = code.text.trim();
  if (code.kind === 'factory') {
    const lambda = /^lambda\s*:\s*([\s\S]+)$/.exec(text);
    if (lambda) return formatDefault({ kind: 'expression', text: lambda[1]! });
    switch (text) {
      case 'list':
        return '[]';
      case 'dict':
        return '{}';
      case 'tuple':
        return '()';
      default:
        return `${text}()`;
    }
  }
  if (!/\n/.test(text)) return text;
  const tokens = tokenize(text);
  return tokens ? renderTokens(tokens) : text.replace(/\s+/g, ' ');
}

/** Kept here for callers written before src/shared/names.ts held it. */
export { suggestNames } from '../shared/names.js';
