/** Turns tree-sitter Python expression nodes into plain values: decoded strings, literal checks, dotted names, call arguments. */
import type { Node } from 'web-tree-sitter';
import { pythonCharacterByName } from './unicode-names.js';

/** An expression as far as the extractor cares: its text plus whatever could be read statically. */
export interface PyValue {
  /** Source text as written. */
  text: string;
  /** True for a literal whose meaning can be compared (see {@link isLiteralNode}). */
  literal: boolean;
  /** True for the `...` (Ellipsis) literal. */
  ellipsis: boolean;
  /** Decoded value of a plain (possibly concatenated or parenthesised) string literal. */
  str?: string;
  /** Value of `True` / `False`. */
  bool?: boolean;
  /** Key/value pairs of a dict display (`{"deprecated": True}`), when every entry is a plain pair. */
  dict?: Array<[PyValue, PyValue]>;
  /** The call, when the expression is a call. */
  call?: PyCall;
  /** Segments of a name or attribute chain (`pydantic.Field` → `['pydantic', 'Field']`). */
  dotted?: string[];
}

/** A call expression with its arguments read into {@link PyValue}s. */
export interface PyCall {
  /** Dotted callee (`Field`, `pd.Field`), absent when the callee is not a plain name chain. */
  callee?: string[];
  args: PyValue[];
  kwargs: Map<string, PyValue>;
  /** True when the call passes `*args` or `**kwargs`. */
  hasSplat: boolean;
}

/** Named children without comments (comments are "extra" nodes that can appear anywhere). */
export function namedChildren(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of allNamedChildren(node)) if (child && child.type !== 'comment') out.push(child);
  return out;
}

/**
 * `node.children`, read without leaving the list on `node`. web-tree-sitter's `children` and
 * `namedChildren` getters keep the array they build, with a wrapper object per child, on the node
 * wrapper for as long as that wrapper lives; the flag readers' memos (the `call` nodes of every
 * module, each call's arguments) keep wrappers until the extraction ends, and through those
 * cached lists every child ever listed below them: NeMo Gym's 178 flag modules (1.8 MB) held
 * 56,000 such lists, 70 MB live of the Python worker's heap after the click reader (35 MB
 * without them) and 153 MB committed at its end. A caller that reads the list twice gets fresh
 * wrappers of the same nodes (compare nodes by `id`, never by identity). Where web-tree-sitter
 * keeps no such field, nothing is dropped.
 */
export function allChildren(node: Node): Array<Node | null> {
  const list = node.children;
  forget(node, '_children');
  return list;
}

/** `node.namedChildren`, read without leaving the list on `node` (see {@link allChildren}). */
export function allNamedChildren(node: Node): Array<Node | null> {
  const list = node.namedChildren;
  forget(node, '_namedChildren');
  return list;
}

/** Drops web-tree-sitter's cached child list `field` (an internal field of its `Node`) from `node`. */
function forget(node: Node, field: '_children' | '_namedChildren'): void {
  const cached = node as unknown as Record<string, unknown>;
  if (cached[field] !== undefined) cached[field] = undefined;
}

/** One parameter of a Python `def`: its name, annotation and default nodes (each when present). */
export interface ParameterParts {
  name?: Node;
  type?: Node;
  value?: Node;
  /** `*args` (typed or not); its `name` is the identifier after the star. */
  variadic: boolean;
}

/**
 * Splits a node of a tree-sitter-python `parameters` list (`identifier`, `typed_parameter`,
 * `default_parameter`, `typed_default_parameter`, `list_splat_pattern`). `**kwargs` and the `/`
 * and `*` separators give no `name`, or a name that is not an `identifier`.
 */
export function parameterParts(param: Node): ParameterParts {
  switch (param.type) {
    case 'identifier':
      return { name: param, variadic: false };
    case 'typed_parameter': {
      const first = namedChildren(param)[0];
      const type = param.childForFieldName('type') ?? undefined;
      if (first?.type === 'list_splat_pattern') return { name: namedChildren(first)[0], type, variadic: true };
      return { name: first, type, variadic: false };
    }
    case 'default_parameter':
    case 'typed_default_parameter':
      return {
        name: param.childForFieldName('name') ?? undefined,
        type: param.childForFieldName('type') ?? undefined,
        value: param.childForFieldName('value') ?? undefined,
        variadic: false,
      };
    case 'list_splat_pattern':
      return { name: namedChildren(param)[0], variadic: true };
    default:
      return { variadic: false };
  }
}

/** Removes redundant parentheses around an expression. */
export function unparen(node: Node): Node {
  return unparenTyped(node).node;
}

/**
 * {@link unparen}, with the type of the node it returns: each `type` read is a call into wasm
 * (marshalling the node), so callers that switch on the type read it once through this.
 */
function unparenTyped(node: Node): { node: Node; type: string } {
  let current = node;
  let type = current.type;
  while (type === 'parenthesized_expression') {
    const inner = namedChildren(current)[0];
    if (!inner) break;
    current = inner;
    type = current.type;
  }
  return { node: current, type };
}

/**
 * An identifier as CPython reads it: NFKC-normalised (PEP 3131 "Supporting Non-ASCII Identifiers";
 * the CPython tokenizer normalises every identifier token it reads: `ｎame`, with a fullwidth n,
 * `ﬁle`, with a ligature, and `ℌello` are `name`, `file` and `Hello` to Python, so to pydantic,
 * argparse and click). Plain ASCII, nearly every identifier, is returned as is. Applied wherever
 * the extractor reads a name it compares with another: fields, classes, functions, parameters,
 * keyword arguments, attributes, imports (s46 sweep H3); positions stay the source's.
 */
export function pythonIdentifier(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKC');
}

/**
 * The name an identifier node stands for ({@link pythonIdentifier} of its text), `undefined` for
 * no node. Also right for a `dotted_name` (`pkg.ｍod`: NFKC keeps the dots) and a keyword
 * argument's or parameter's name.
 */
export function identifierText(node: Node | null | undefined): string | undefined {
  return node ? pythonIdentifier(node.text) : undefined;
}

/** `a.b.c` as `['a', 'b', 'c']` (each name as CPython reads it: {@link pythonIdentifier}), or `undefined` when the node is not a plain name chain. */
export function dottedName(node: Node): string[] | undefined {
  // Iterative (an attribute chain may be thousands deep); `unparen` inline, reading each node's type once: every `type` read is a call into wasm.
  const tail: string[] = [];
  let n = node;
  for (;;) {
    let type = n.type;
    while (type === 'parenthesized_expression') {
      const inner = namedChildren(n)[0];
      if (!inner) break;
      n = inner;
      type = n.type;
    }
    if (type === 'identifier') {
      tail.push(pythonIdentifier(n.text));
      return tail.reverse();
    }
    if (type !== 'attribute') return undefined;
    const object = n.childForFieldName('object');
    const attribute = n.childForFieldName('attribute');
    if (!object || !attribute) return undefined;
    tail.push(pythonIdentifier(attribute.text));
    n = object;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
};

/**
 * Applies Python string-literal escapes (Python language reference, "String and Bytes literals",
 * https://docs.python.org/3/reference/lexical_analysis.html#escape-sequences) to the body of a
 * non-raw str literal. Unknown escapes stay as written, like Python does. `\N{name}` is the
 * character of that Unicode name or alias ({@link pythonCharacterByName}); when it is not known
 * (a name CPython refuses, a malformed `\N`, or the name table not loaded: the extractors await
 * `loadUnicodeNames` of unicode-names.ts before parsing a text that holds a `\N{`), the whole value is unknown and
 * `undefined` is returned rather than a wrong spelling.
 */
export function unescapePython(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1] as string;
    if (next === '\n') { i += 1; continue; }
    if (next === '\r') { i += body[i + 2] === '\n' ? 2 : 1; continue; }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) { out += simple; i += 1; continue; }
    if (next >= '0' && next <= '7') {
      let j = i + 1;
      let digits = '';
      while (j < body.length && digits.length < 3 && (body[j] as string) >= '0' && (body[j] as string) <= '7') digits += body[j++];
      out += String.fromCodePoint(parseInt(digits, 8));
      i = j - 1;
      continue;
    }
    const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const hex = body.slice(i + 2, i + 2 + hexLength);
      const code = hex.length === hexLength && /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
      if (!Number.isNaN(code) && code <= 0x10ffff) {
        out += String.fromCodePoint(code);
        i += 1 + hexLength;
        continue;
      }
    }
    if (next === 'N') {
      // CPython: `\N` not followed by `{name}` is a syntax error ("malformed \N character escape").
      const close = body[i + 2] === '{' ? body.indexOf('}', i + 3) : -1;
      const char = close > i + 3 ? pythonCharacterByName(body.slice(i + 3, close)) : undefined;
      if (char === undefined) return undefined;
      out += char;
      i = close;
      continue;
    }
    out += ch; // unknown escape: kept verbatim
  }
  return out;
}

/**
 * Decodes one `string` node. Returns `undefined` for bytes literals, for f-strings with
 * interpolations, whose value is not known statically, and for a `\N{name}` escape whose
 * character is not known (see {@link unescapePython}).
 */
function decodeStringNode(node: Node): string | undefined {
  return decodeStringParts(node, stringParts(node));
}

/** The delimiters of a `string` node (`f"`, `"""`…; empty when missing) and whether it holds an interpolation, from one pass over its children. */
interface StringParts {
  start: string;
  end: string;
  interpolated: boolean;
}

function stringParts(node: Node): StringParts {
  let start = '';
  let end = '';
  let interpolated = false;
  for (const child of allChildren(node)) {
    if (!child) continue;
    const type = child.type;
    if (type === 'string_start') start = child.text;
    else if (type === 'string_end') end = child.text;
    else if (type === 'interpolation') {
      interpolated = true;
      break; // the value is unknown, and the node no literal: nothing more is read
    }
  }
  return { start, end, interpolated };
}

/** {@link decodeStringNode} from the node's {@link stringParts}. */
function decodeStringParts(node: Node, { start, end, interpolated }: StringParts): string | undefined {
  if (interpolated) return undefined;
  const quoteAt = start.search(/['"]/);
  const prefix = (quoteAt < 0 ? '' : start.slice(0, quoteAt)).toLowerCase();
  if (prefix.includes('b')) return undefined;
  const text = node.text;
  if (start === '' || end === '' || text.length < start.length + end.length) return undefined;
  const body = text.slice(start.length, text.length - end.length);
  return prefix.includes('r') ? body : unescapePython(body);
}

/**
 * Decoded value of a string literal expression: a `string`, an implicit concatenation
 * (`"a" "b"`), or either in parentheses. `undefined` for anything else.
 */
export function stringValue(node: Node): string | undefined {
  const { node: n, type } = unparenTyped(node);
  return stringValueTyped(n, type);
}

/** {@link stringValue} of an unparenthesised node `n` of type `type`. */
function stringValueTyped(n: Node, type: string): string | undefined {
  if (type === 'string') return decodeStringNode(n);
  if (type === 'concatenated_string') {
    // 100,000 implicitly concatenated pieces were each decoded, then joined (#33 fresh sweep defect 8).
    if (n.namedChildCount > MAX_CONCATENATED_PARTS) return undefined;
    let out = '';
    for (const part of namedChildren(n)) {
      const value = part.type === 'string' ? decodeStringNode(part) : undefined;
      if (value === undefined) return undefined;
      out += value;
    }
    return out;
  }
  return undefined;
}

/**
 * Most pieces of an implicit string concatenation (`"a" "b"`) read: a longer one's value is
 * unknown. Real code joins a few lines of a help text or usage.
 */
export const MAX_CONCATENATED_PARTS = 1000;

/**
 * Most source characters of one expression {@link readValue} and {@link isLiteralNode} read
 * into: a larger one (a 100,000-element list literal as a default, 1 MB) is an expression whose
 * value is unknown, its text cut to its first 80 characters and `…`, so that no extractor or
 * rule walks, copies or tokenizes it (595 MB before: #33 fresh sweep defect 8). A single string
 * literal is not cut here (a docopt usage text may be long: {@link stringValue} reads it).
 */
export const MAX_LITERAL_CHARS = 64 * 1024;

/** True when `node`'s source is over {@link MAX_LITERAL_CHARS} characters. */
export function isOversized(node: Node): boolean {
  return node.endIndex - node.startIndex > MAX_LITERAL_CHARS;
}

/**
 * True for a literal whose meaning can be compared with documentation: numbers (optionally
 * signed), strings without interpolation, `True`/`False`/`None`, `...`, and list, tuple, set and
 * dict displays made only of literals. Names, attributes, calls and operators are not literals.
 */
export function isLiteralNode(node: Node, depth = 0): boolean {
  if (depth > MAX_VALUE_DEPTH) return false;
  const { node: n, type } = unparenTyped(node);
  return isLiteralTyped(n, type, depth);
}

/** {@link isLiteralNode} of an unparenthesised node `n` of type `type`, `depth` deep. */
function isLiteralTyped(n: Node, type: string, depth: number): boolean {
  if (type !== 'string' && isOversized(n)) return false;
  const inner = (child: Node): boolean => isLiteralNode(child, depth + 1);
  switch (type) {
    case 'integer':
    case 'float':
    case 'true':
    case 'false':
    case 'none':
    case 'ellipsis':
      return true;
    case 'string':
      return !allChildren(n).some((c) => c?.type === 'interpolation');
    case 'concatenated_string':
      return namedChildren(n).every(inner);
    case 'unary_operator': {
      const argument = n.childForFieldName('argument');
      const operand = argument ? unparenTyped(argument).type : undefined;
      return operand === 'integer' || operand === 'float';
    }
    case 'list':
    case 'tuple':
    case 'set':
      return namedChildren(n).every(inner);
    case 'dictionary':
      return namedChildren(n).every((entry) => {
        if (entry.type !== 'pair') return false;
        const key = entry.childForFieldName('key');
        const value = entry.childForFieldName('value');
        return key !== null && value !== null && inner(key) && inner(value);
      });
    default:
      return false;
  }
}

/**
 * How deep {@link readValue}, {@link readCall} and {@link isLiteralNode} follow nested values; a
 * deeper value is read as an unknown expression (its text only), so that no nesting overflows the
 * stack (#33 item 3).
 */
export const MAX_VALUE_DEPTH = 100;

/** Reads a call's arguments (`f(a, k=v, *xs, **kw)`); `depth` is the nesting of the call in the value being read. */
export function readCall(node: Node, depth = 0): PyCall {
  const fn = node.childForFieldName('function');
  const call: PyCall = { callee: fn ? dottedName(fn) : undefined, args: [], kwargs: new Map(), hasSplat: false };
  const argList = node.childForFieldName('arguments');
  if (!argList || argList.type !== 'argument_list') return call; // generator-expression argument
  for (const arg of namedChildren(argList)) {
    const type = arg.type;
    if (type === 'keyword_argument') {
      const name = arg.childForFieldName('name');
      const value = arg.childForFieldName('value');
      if (name && value) call.kwargs.set(pythonIdentifier(name.text), readValue(value, depth + 1));
    } else if (type === 'list_splat' || type === 'dictionary_splat') {
      call.hasSplat = true;
    } else {
      call.args.push(readValue(arg, depth + 1));
    }
  }
  return call;
}

/** Reads an expression node into a {@link PyValue}; nested deeper than {@link MAX_VALUE_DEPTH}, only its text. */
export function readValue(node: Node, depth = 0): PyValue {
  if (depth > MAX_VALUE_DEPTH) return { text: node.text, literal: false, ellipsis: false };
  // The type is read once (each read is a call into wasm); a string's children once, for both
  // whether it is a literal and its value.
  const { node: n, type } = unparenTyped(node);
  if (type !== 'string' && isOversized(n)) return { text: `${node.text.slice(0, 80)}…`, literal: false, ellipsis: false };
  let literal: boolean;
  let str: string | undefined;
  if (type === 'string') {
    const parts = stringParts(n);
    literal = !parts.interpolated;
    str = decodeStringParts(n, parts);
  } else {
    literal = isLiteralTyped(n, type, 0);
    str = type === 'concatenated_string' ? stringValueTyped(n, type) : undefined;
  }
  const value: PyValue = { text: node.text, literal, ellipsis: type === 'ellipsis' };
  if (str !== undefined) value.str = str;
  if (type === 'true') value.bool = true;
  else if (type === 'false') value.bool = false;
  else if (type === 'call') value.call = readCall(n, depth);
  else if (type === 'identifier' || type === 'attribute') value.dotted = dottedName(n);
  else if (type === 'dictionary') {
    const pairs: Array<[PyValue, PyValue]> = [];
    for (const entry of namedChildren(n)) {
      const pair = entry.type === 'pair';
      const key = pair ? entry.childForFieldName('key') : null;
      const val = pair ? entry.childForFieldName('value') : null;
      if (key && val) pairs.push([readValue(key, depth + 1), readValue(val, depth + 1)]);
    }
    value.dict = pairs;
  }
  return value;
}

/**
 * Cleans a docstring the way `inspect.cleandoc` does (tabs expanded, the first line's leading
 * blanks and the common indentation of the other lines removed, blank lines at both ends dropped),
 * then trims trailing whitespace.
 */
export function cleandoc(doc: string): string {
  const lines = doc.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  let margin = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const stripped = line.trimStart();
    if (stripped !== '') margin = Math.min(margin, line.length - stripped.length);
  }
  const out = lines.map((line, i) => (i === 0 ? line.trimStart() : margin === Infinity ? line : line.slice(margin)));
  while (out.length > 0 && (out[0] as string).trim() === '') out.shift();
  while (out.length > 0 && (out[out.length - 1] as string).trim() === '') out.pop();
  return out.join('\n').trimEnd();
}
