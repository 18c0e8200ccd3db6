/** Compares documented types with code type annotations by meaning, across Python and TypeScript spellings. */
import type { Comparison } from './compare.js';

// ---------------------------------------------------------------------------------------------
// The normal form
// ---------------------------------------------------------------------------------------------

/**
 * A type in normal form, the same for every spelling of one meaning.
 *
 * - `name`: a named type. Built-in names are canonical (`str`, `int`, `float`, `number`, `bool`,
 *   `None`, `bytes`, `list`, `tuple`, `set`, `frozenset`, `sequence`, `iterable`, `dict`,
 *   `mapping`, `map`, `Any`); any other name is its last dotted segment as written (`Path`,
 *   `MyConfig`). `args` holds the type arguments (`list[str]` → `str`); absent for a bare name.
 * - `literal`: a literal type (`Literal["a"]`, TS `'a'`, `1`, `true`).
 * - `union`: two or more members, flattened, de-duplicated and sorted by {@link formatType};
 *   `Optional[X]` is `X | None`, and `Literal["a", "b"]` is `"a" | "b"`.
 * - `ellipsis`: the `...` of `Tuple[int, ...]`.
 */
export type TypeNode =
  | { kind: 'name'; name: string; args?: TypeNode[] }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'union'; members: TypeNode[] }
  | { kind: 'ellipsis' };

/** Longest type text considered; longer texts are prose or hostile, not types. */
const MAX_LENGTH = 2000;
/** Deepest bracket nesting considered (`List[List[...]]`). */
const MAX_DEPTH = 64;

/** Spellings of built-in types (looked up lower-cased, after dotted prefixes are dropped) → canonical name. */
const BUILTINS: Record<string, string> = {
  str: 'str',
  string: 'str',
  text: 'str',
  strictstr: 'str',
  int: 'int',
  integer: 'int',
  bigint: 'int',
  strictint: 'int',
  positiveint: 'int',
  negativeint: 'int',
  nonnegativeint: 'int',
  nonpositiveint: 'int',
  float: 'float',
  double: 'float',
  strictfloat: 'float',
  positivefloat: 'float',
  negativefloat: 'float',
  nonnegativefloat: 'float',
  nonpositivefloat: 'float',
  number: 'number',
  bool: 'bool',
  boolean: 'bool',
  strictbool: 'bool',
  none: 'None',
  nonetype: 'None',
  null: 'None',
  undefined: 'None',
  void: 'None',
  bytes: 'bytes',
  bytearray: 'bytes',
  list: 'list',
  array: 'list',
  readonlyarray: 'list',
  tuple: 'tuple',
  set: 'set',
  frozenset: 'frozenset',
  abstractset: 'set',
  sequence: 'sequence',
  mutablesequence: 'sequence',
  iterable: 'iterable',
  iterator: 'iterable',
  collection: 'iterable',
  dict: 'dict',
  dictionary: 'dict',
  record: 'dict',
  ordereddict: 'dict',
  defaultdict: 'dict',
  mapping: 'mapping',
  mutablemapping: 'mapping',
  map: 'map',
  any: 'Any',
  unknown: 'Any',
  object: 'Any',
};

/** Wrappers whose first argument is the type (`Annotated[int, Field(gt=0)]` → `int`). */
const TRANSPARENT = new Set(['annotated', 'final', 'classvar', 'required', 'notrequired', 'readonly', 'initvar']);

/** Families of canonical names: two different names of one family compare as `unknown`. */
const FAMILY: Record<string, string> = {
  str: 'str',
  bytes: 'str',
  int: 'num',
  float: 'num',
  number: 'num',
  bool: 'bool',
  None: 'None',
  list: 'seq',
  tuple: 'seq',
  set: 'seq',
  frozenset: 'seq',
  sequence: 'seq',
  iterable: 'seq',
  dict: 'map',
  mapping: 'map',
  map: 'map',
};

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

interface Token {
  /** `name` (dotted identifier), `str`, `num`, `punct` (one of `[]<>(),|` or `...`), `other` (anything else, one character). */
  type: 'name' | 'str' | 'num' | 'punct' | 'other';
  text: string;
  /** Decoded contents of a string token. */
  value?: string;
}

const isIdentStart = (c: string): boolean => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Splits type text into tokens in one linear pass; unterminated strings yield undefined. */
function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '\\' && text[i + 1] === '|') {
      // An escaped table pipe (`int \| None`) that reached us unescaped.
      i++;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      // Dotted names: `typing.Optional`, `collections.abc.Sequence`.
      for (;;) {
        while (j < n && isIdentPart(text[j]!)) j++;
        if (text[j] === '.' && j + 1 < n && isIdentStart(text[j + 1]!)) {
          j++;
          continue;
        }
        break;
      }
      tokens.push({ type: 'name', text: text.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < n) {
        const d = text[j]!;
        if (d === '\\' && j + 1 < n) {
          value += text[j + 1];
          j += 2;
          continue;
        }
        if (d === c) {
          closed = true;
          j++;
          break;
        }
        value += d;
        j++;
      }
      if (!closed) return undefined;
      tokens.push({ type: 'str', text: text.slice(i, j), value });
      i = j;
      continue;
    }
    if (isDigit(c) || (c === '-' && i + 1 < n && isDigit(text[i + 1]!))) {
      let j = i + 1;
      while (j < n && /[0-9_.eE]/.test(text[j]!)) j++;
      tokens.push({ type: 'num', text: text.slice(i, j) });
      i = j;
      continue;
    }
    if (text.startsWith('...', i)) {
      tokens.push({ type: 'punct', text: '...' });
      i += 3;
      continue;
    }
    tokens.push({ type: '[]<>(),|'.includes(c) ? 'punct' : 'other', text: c });
    i++;
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

/** Thrown inside the parser to abandon unparseable text; never escapes this module. */
class NotAType extends Error {}

/**
 * A recursive-descent parser over the tokens. Grammar (Python and TypeScript spellings):
 *
 * ```
 * union   := '|'? postfix ('|' postfix)*
 * postfix := primary ('[' ']')*                     TS arrays: string[]
 * primary := 'readonly' postfix | '(' union ')' | '[' items? ']' (TS tuple)
 *          | string | number | '...' | name ('[' items ']' | '<' items '>')?
 * items   := union (',' union)* ','?
 * ```
 *
 * Depth is bounded by {@link MAX_DEPTH}; each token is consumed once, so time is linear.
 */
class TypeParser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parseAll(): TypeNode {
    // A whole annotation in quotes is a forward reference: `"MyConfig"`, `'list[int]'`.
    if (this.tokens.length === 1 && this.tokens[0]!.type === 'str') return this.forwardRef(this.tokens[0]!);
    const node = this.union();
    if (this.i !== this.tokens.length) throw new NotAType();
    return node;
  }

  private peek(text: string): boolean {
    const t = this.tokens[this.i];
    return t !== undefined && t.type === 'punct' && t.text === text;
  }

  private eat(text: string): boolean {
    if (!this.peek(text)) return false;
    this.i++;
    return true;
  }

  private expect(text: string): void {
    if (!this.eat(text)) throw new NotAType();
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new NotAType();
  }

  private union(): TypeNode {
    this.enter();
    this.eat('|'); // TS allows a leading pipe
    const members = [this.postfix()];
    while (this.eat('|')) members.push(this.postfix());
    this.depth--;
    return members.length === 1 ? members[0]! : makeUnion(members);
  }

  private postfix(): TypeNode {
    let node = this.primary();
    while (this.peek('[') && this.tokens[this.i + 1]?.text === ']') {
      this.i += 2;
      node = { kind: 'name', name: 'list', args: [node] };
    }
    return node;
  }

  private items(close: string): TypeNode[] {
    const out: TypeNode[] = [];
    while (!this.eat(close)) {
      out.push(this.union());
      if (!this.eat(',')) {
        this.expect(close);
        break;
      }
    }
    return out;
  }

  private primary(): TypeNode {
    const tok = this.tokens[this.i];
    if (!tok) throw new NotAType();
    this.i++;
    switch (tok.type) {
      case 'str':
        return { kind: 'literal', value: tok.value! };
      case 'num': {
        const v = Number(tok.text.replace(/_/g, ''));
        if (Number.isNaN(v)) throw new NotAType();
        return { kind: 'literal', value: v };
      }
      case 'other':
        throw new NotAType();
      case 'punct':
        if (tok.text === '...') return { kind: 'ellipsis' };
        if (tok.text === '(') {
          this.enter();
          const inner = this.union();
          this.expect(')');
          this.depth--;
          return inner;
        }
        if (tok.text === '[') {
          this.enter();
          const items = this.items(']');
          this.depth--;
          return { kind: 'name', name: 'tuple', args: items };
        }
        throw new NotAType();
      case 'name':
        return this.named(tok.text);
    }
  }

  private named(raw: string): TypeNode {
    const simple = raw.slice(raw.lastIndexOf('.') + 1);
    const lower = simple.toLowerCase();
    if (lower === 'readonly' && !this.peek('[') && !this.peek('<')) return this.postfix(); // TS `readonly string[]`
    if (lower === 'true' || lower === 'false') return { kind: 'literal', value: lower === 'true' };
    let args: TypeNode[] | undefined;
    let python = false;
    if (this.peek('[') && this.tokens[this.i + 1]?.text !== ']') {
      this.i++;
      this.enter();
      python = true;
      args = lower === 'annotated' ? this.annotated() : lower === 'literal' ? this.literalArgs() : this.items(']');
      this.depth--;
    } else if (this.eat('<')) {
      this.enter();
      args = this.items('>');
      this.depth--;
    }
    if (args && python && lower !== 'literal') args = args.map((a) => (a.kind === 'literal' && typeof a.value === 'string' ? this.forwardRef({ type: 'str', text: '', value: a.value }) : a));
    if (lower === 'literal') {
      if (!args || args.length === 0) throw new NotAType();
      return args.length === 1 ? args[0]! : makeUnion(args);
    }
    if (lower === 'optional') {
      if (!args || args.length !== 1) throw new NotAType();
      return makeUnion([args[0]!, { kind: 'name', name: 'None' }]);
    }
    if (lower === 'union') {
      if (!args || args.length === 0) throw new NotAType();
      return args.length === 1 ? args[0]! : makeUnion(args);
    }
    if (TRANSPARENT.has(lower)) {
      if (!args || args.length !== 1) throw new NotAType();
      return args[0]!;
    }
    const canonical = BUILTINS[lower];
    const name = canonical ?? simple;
    return args && args.length > 0 ? { kind: 'name', name, args } : { kind: 'name', name };
  }

  /** `Annotated[T, metadata…]`: the type, then the metadata skipped with balanced brackets. */
  private annotated(): TypeNode[] {
    const first = this.union();
    let depth = 0;
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i++]!;
      if (t.text === '[' || t.text === '(' || t.text === '{') depth++;
      else if (t.text === ']' || t.text === ')' || t.text === '}') {
        if (depth === 0) {
          if (t.text !== ']') throw new NotAType();
          return [first];
        }
        depth--;
      }
    }
    throw new NotAType();
  }

  /** `Literal[...]` arguments: literals, `None`, enum members (kept as names). */
  private literalArgs(): TypeNode[] {
    const out: TypeNode[] = [];
    while (!this.eat(']')) {
      const tok = this.tokens[this.i];
      if (tok?.type === 'str') {
        this.i++;
        out.push({ kind: 'literal', value: tok.value! });
      } else out.push(this.union());
      if (!this.eat(',')) {
        this.expect(']');
        break;
      }
    }
    return out;
  }

  /** A quoted type inside a Python annotation (`List["Node"]`): parsed as the type it names. */
  private forwardRef(tok: Token): TypeNode {
    const inner = tokenize(tok.value ?? '');
    if (!inner || inner.length === 0) throw new NotAType();
    const parser = new TypeParser(inner);
    parser.depth = this.depth + 1;
    if (parser.depth > MAX_DEPTH) throw new NotAType();
    const node = parser.union();
    if (parser.i !== inner.length) throw new NotAType();
    return node;
  }
}

/** Flattens, de-duplicates and sorts union members; one member left is returned as itself. */
function makeUnion(members: TypeNode[]): TypeNode {
  const flat: TypeNode[] = [];
  for (const m of members) {
    if (m.kind === 'union') flat.push(...m.members);
    else flat.push(m);
  }
  const byKey = new Map<string, TypeNode>();
  for (const m of flat) byKey.set(formatType(m), m);
  const unique = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, m]) => m);
  return unique.length === 1 ? unique[0]! : { kind: 'union', members: unique };
}

/** Documented remarks that are not part of the type: `int, optional`, `str (optional)`. */
const OPTIONAL_REMARK_RE = /(?:,\s*optional|\s*\(\s*optional\s*\))\s*$/i;

/**
 * Parses type text into its normal form.
 *
 * Accepts Python annotations (`Optional[int]`, `int | None`, `typing.List[str]`,
 * `Annotated[int, Field(gt=0)]`, `Literal["a", "b"]`, quoted forward references) and TypeScript
 * types (`string[]`, `Array<string>`, `Record<string, unknown>`, `'a' | 'b'`, `readonly T[]`,
 * `[string, number]`). Backticks and surrounding whitespace are ignored, and so is a trailing
 * numpydoc-style `, optional` / `(optional)` remark. Dotted prefixes (`typing.`, `t.`,
 * `collections.abc.`) are dropped.
 *
 * @returns the normal form, or `undefined` when the text is not a type: prose ("path to a
 *   file"), empty, a dash, several types separated by commas or words, unbalanced brackets,
 *   object or function type literals, text longer than 2000 characters or nested deeper than 64
 *   levels.
 */
export function normaliseType(text: string): TypeNode | undefined {
  if (text.length > MAX_LENGTH) return undefined;
  const cleaned = text.replace(/`/g, '').trim().replace(OPTIONAL_REMARK_RE, '').trim();
  if (cleaned === '') return undefined;
  const tokens = tokenize(cleaned);
  if (!tokens || tokens.length === 0) return undefined;
  try {
    return new TypeParser(tokens).parseAll();
  } catch (e) {
    if (e instanceof NotAType || e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * Canonical text of a normal form, used to sort union members and in messages: Python spelling
 * (`list[str]`, `dict[str, Any]`, `Literal['a']`), `None` last in a union (`int | None`).
 */
export function formatType(node: TypeNode): string {
  switch (node.kind) {
    case 'ellipsis':
      return '...';
    case 'literal':
      return typeof node.value === 'string' ? `Literal[${JSON.stringify(node.value)}]` : `Literal[${typeof node.value === 'boolean' ? (node.value ? 'True' : 'False') : node.value}]`;
    case 'name':
      return node.args ? `${node.name}[${node.args.map(formatType).join(', ')}]` : node.name;
    case 'union': {
      const parts = node.members.filter((m) => !isNone(m)).map(formatType);
      if (node.members.some(isNone)) parts.push('None');
      return parts.join(' | ');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

const isNone = (n: TypeNode): boolean => n.kind === 'name' && n.name === 'None' && !n.args;
const isAny = (n: TypeNode): boolean => n.kind === 'name' && n.name === 'Any';
const isBuiltin = (name: string): boolean => FAMILY[name] !== undefined;

/** Worst of several results: any `different` wins, then `unknown`. */
function combine(results: Comparison[]): Comparison {
  if (results.includes('different')) return 'different';
  if (results.includes('unknown')) return 'unknown';
  return 'same';
}

/** Best of several results: any `same` wins, then `unknown`. */
function best(results: Comparison[]): Comparison {
  if (results.includes('same')) return 'same';
  if (results.includes('unknown')) return 'unknown';
  return 'different';
}

/** The built-in name a literal belongs to (`"a"` → `str`, `1` → `int`, `0.5` → `float`). */
function literalBase(value: string | number | boolean): string {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  return Number.isInteger(value) ? 'int' : 'float';
}

/** Compares two built-in canonical names without their arguments. */
function compareBuiltinNames(code: string, doc: string): Comparison {
  if (code === doc) return 'same';
  // TypeScript `number` is Python's `int` and `float` alike.
  if ((code === 'number' && (doc === 'int' || doc === 'float')) || (doc === 'number' && (code === 'int' || code === 'float'))) return 'same';
  // A `float` field accepts ints (PEP 484 numeric tower): documenting `int` is narrower, not wrong.
  if (code === 'float' && doc === 'int') return 'unknown';
  if (code === 'int' && doc === 'float') return 'different';
  // Neighbours: `list` vs `Sequence`, `dict` vs `Mapping`, `str` vs `bytes`.
  return FAMILY[code] === FAMILY[doc] ? 'unknown' : 'different';
}

function compareArgs(code: TypeNode[] | undefined, doc: TypeNode[] | undefined): Comparison {
  if (!code || !doc) return 'same'; // a bare `Dict` or `list` leaves its arguments open
  if (code.length !== doc.length) return 'unknown';
  return combine(code.map((c, k) => compareNodes(c, doc[k]!, true)));
}

/** Compares two non-union nodes. */
function compareAtoms(code: TypeNode, doc: TypeNode, nested: boolean): Comparison {
  if (isAny(code) || isAny(doc)) return nested ? 'same' : 'unknown';
  if (code.kind === 'ellipsis' || doc.kind === 'ellipsis') return code.kind === doc.kind ? 'same' : 'unknown';
  if (code.kind === 'literal' && doc.kind === 'literal') {
    if (code.value === doc.value) return 'same';
    return 'different';
  }
  if (code.kind === 'literal' || doc.kind === 'literal') {
    const lit = (code.kind === 'literal' ? code : doc) as { value: string | number | boolean };
    const other = code.kind === 'literal' ? doc : code;
    if (other.kind !== 'name' || !isBuiltin(other.name)) return 'unknown';
    // A literal is narrower than its base type: never `same`, and `different` only across kinds
    // (`"a"` vs `int`), not within a numeric family (`1` vs `float`).
    const base = literalBase(lit.value);
    return compareBuiltinNames(base, other.name) === 'different' && compareBuiltinNames(other.name, base) === 'different' ? 'different' : 'unknown';
  }
  if (code.kind !== 'name' || doc.kind !== 'name') return 'unknown';
  if (code.name === doc.name) return compareArgs(code.args, doc.args);
  if (!isBuiltin(code.name) || !isBuiltin(doc.name)) return 'unknown'; // a class, an alias, an enum: we cannot tell
  const names = compareBuiltinNames(code.name, doc.name);
  if (names === 'same') return compareArgs(code.args, doc.args);
  if (names === 'different') return 'different';
  // Same family (`list[int]` vs `Sequence[str]`): the element types can still contradict.
  return compareArgs(code.args, doc.args) === 'different' ? 'different' : 'unknown';
}

function compareNodes(code: TypeNode, doc: TypeNode, nested: boolean): Comparison {
  let codeMembers = code.kind === 'union' ? code.members : [code];
  let docMembers = doc.kind === 'union' ? doc.members : [doc];
  if (codeMembers.length === 1 && docMembers.length === 1) return compareAtoms(code, doc, nested);
  if (codeMembers.some(isAny) || docMembers.some(isAny)) return nested ? 'same' : 'unknown';
  // Docs commonly omit optionality (`int` for `Optional[int]`): None is set aside.
  const codeHasNone = codeMembers.some(isNone);
  const docHasNone = docMembers.some(isNone);
  const codeRest = codeMembers.filter((m) => !isNone(m));
  const docRest = docMembers.filter((m) => !isNone(m));
  if (codeRest.length > 0 && docRest.length > 0) {
    codeMembers = codeRest;
    docMembers = docRest;
  }
  // Each documented member must be accepted by some code member.
  const perDoc = docMembers.map((d) => best(codeMembers.map((c) => compareAtoms(c, d, nested))));
  if (perDoc.includes('different')) return 'different';
  if (perDoc.includes('unknown')) return 'unknown';
  // Every documented member is in the code; a code member the docs leave out makes them narrower.
  const covered = codeMembers.every((c) => docMembers.some((d) => compareAtoms(c, d, nested) === 'same'));
  if (!covered) return 'unknown';
  // The docs allow None where the code does not: often "optional" meaning "has a default".
  if (docHasNone && !codeHasNone) return 'unknown';
  return 'same';
}

/**
 * Compares a documented type with the code's type annotation by meaning.
 *
 * Equal in meaning (`same`): `Optional[int]` = `int | None` = `Union[int, None]` = `None | int`
 * = `number | undefined` (across languages); `List[str]` = `list[str]` = `string[]` =
 * `Array<string>`; `Dict` = `dict[str, Any]` = `Record<string, unknown>`; `str` = `string`;
 * `bool` = `boolean`; `number` = `int` = `float` across languages; `Literal["a", "b"]` =
 * `"a" | "b"` in any order; `typing.`/`t.` prefixes, backticks and union order ignored. A
 * documented type that leaves out the code's `None` (`int` for `Optional[int]`) is `same`: docs
 * commonly omit optionality.
 *
 * `unknown` (never reported): either side missing or not a type (prose, `-`, several types);
 * `Any`/`unknown`/`object` at the top level; a class, alias or enum name other than the other
 * side's (`Path` vs `str`); neighbours of one family (`list` vs `Sequence`, `dict` vs `Mapping`,
 * `str` vs `bytes`); docs narrower than the code (`int` for `float`, `"a" | "b"` for `str`,
 * `int` for `int | str`); docs adding `None` the code does not accept.
 *
 * `different` only when both sides parse and contradict: unrelated built-ins (`int` vs `str`,
 * `bool` vs `float`, `list` vs `dict`), `float` documented for `int`, a documented union member
 * or literal the code does not accept, or contradicting element types (`list[int]` vs
 * `list[str]`).
 *
 * @param codeType The annotation text as the extractor read it; `undefined` yields `unknown`.
 * @param documented The documented type text as written.
 */
export function compareType(codeType: string | undefined, documented: string): Comparison {
  if (codeType === undefined) return 'unknown';
  const code = normaliseType(codeType);
  const doc = normaliseType(documented);
  if (!code || !doc) return 'unknown';
  return compareNodes(code, doc, false);
}
