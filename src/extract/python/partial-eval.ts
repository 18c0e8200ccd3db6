/**
 * A small, bounded partial evaluator for the Python values that CLI code builds its flags from:
 * literals, tuples/lists, dicts, f-strings over known values, a few `str`/`dict` methods, `len`,
 * comparisons and truth tests. It computes values from the syntax tree only; Python is never run.
 * Anything it cannot compute is `undefined` ("unknown"), never a guess.
 *
 * The statement-level part (helper calls, lambdas, `for` over literal collections, `if` on known
 * conditions) lives with the framework that needs it (`flags-argparse.ts`); this module holds the
 * value kinds and the operations on them, so that they stay pure and testable.
 */
import type { Node } from 'web-tree-sitter';
import { namedChildren, stringValue, unescapePython, unparen } from './values.js';

/** A scalar Python literal: `str`, `int`/`float`, `bool`, `None` (null). `node` = where a string came from, for locations. */
export interface ConstValue {
  kind: 'const';
  value: string | number | boolean | null;
  node?: Node;
}

/** Limits that keep the evaluator bounded on any input. */
export const EVAL_LIMITS = {
  /** Evaluation steps (statements + expressions) per top-level run; past it everything is unknown. */
  steps: 200_000,
  /** Iterations of one `for` loop over a known collection; a longer collection is not unrolled. */
  loopIterations: 512,
  /** Characters of one computed string. */
  stringLength: 10_000,
} as const;

/** A step counter: `tick()` is false once the budget is spent. */
export class Budget {
  private used = 0;
  constructor(private readonly limit: number = EVAL_LIMITS.steps) {}
  tick(): boolean {
    this.used++;
    return this.used <= this.limit;
  }
  reset(): void {
    this.used = 0;
  }
}

/** The value of a literal node (`"x"`, `3`, `-1.5`, `True`, `None`), else undefined. */
export function literalConst(node: Node): ConstValue | undefined {
  const n = unparen(node);
  switch (n.type) {
    case 'string':
    case 'concatenated_string': {
      const s = stringValue(n);
      return s === undefined ? undefined : { kind: 'const', value: s, node: n };
    }
    case 'integer': {
      const v = Number(n.text.replaceAll('_', ''));
      return Number.isFinite(v) ? { kind: 'const', value: v } : undefined;
    }
    case 'float': {
      const v = Number(n.text.replaceAll('_', ''));
      return Number.isFinite(v) ? { kind: 'const', value: v } : undefined;
    }
    case 'true':
      return { kind: 'const', value: true };
    case 'false':
      return { kind: 'const', value: false };
    case 'none':
      return { kind: 'const', value: null };
    case 'unary_operator': {
      const arg = n.childForFieldName('argument');
      const op = n.childForFieldName('operator')?.text;
      const inner = arg ? literalConst(arg) : undefined;
      if (typeof inner?.value === 'number' && (op === '-' || op === '+')) return { kind: 'const', value: op === '-' ? -inner.value : inner.value };
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The pieces of an f-string (`f"--{name}"`): literal text and interpolated expressions, in order.
 * Undefined when the node is not a plain f-string (bytes, or an interpolation with a conversion
 * or format spec, whose result the evaluator does not compute).
 */
export function fStringParts(node: Node): Array<string | Node> | undefined {
  const n = unparen(node);
  if (n.type !== 'string') return undefined;
  let start = '';
  const parts: Array<string | Node> = [];
  let interpolated = false;
  for (const child of n.children) {
    if (!child) continue;
    if (child.type === 'string_start') start = child.text;
    else if (child.type === 'string_content') parts.push(child.text);
    else if (child.type === 'escape_interpolation') parts.push(child.text.slice(0, 1));
    else if (child.type === 'interpolation') {
      interpolated = true;
      const expr = child.childForFieldName('expression');
      if (!expr || child.childForFieldName('type_conversion') || child.childForFieldName('format_specifier')) return undefined;
      parts.push(expr);
    }
  }
  if (!interpolated) return undefined;
  const prefix = start.slice(0, Math.max(0, start.search(/['"]/))).toLowerCase();
  if (prefix.includes('b') || !prefix.includes('f')) return undefined;
  const raw = prefix.includes('r');
  return parts.map((p) => (typeof p === 'string' ? (raw ? p : unescapePython(p)).replaceAll('{{', '{').replaceAll('}}', '}') : p));
}

/** `str(value)` as Python prints a scalar (`True`, `None`, `3`), or undefined for other kinds. */
export function pyStr(value: ConstValue): string {
  const v = value.value;
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return String(v);
}

/** Python truthiness of a scalar. */
export function constTruthy(value: ConstValue): boolean {
  const v = value.value;
  return !(v === null || v === false || v === 0 || v === '');
}

/** `a == b` on scalars (Python: `1 == True`, `"1" != 1`). */
export function constEquals(a: ConstValue, b: ConstValue): boolean {
  const norm = (v: ConstValue['value']): ConstValue['value'] => (typeof v === 'boolean' ? Number(v) : v);
  return norm(a.value) === norm(b.value);
}

/**
 * The `str` methods flag helpers use on names: `replace`, `split` (with or without a separator),
 * `strip`/`lstrip`/`rstrip` without arguments, `lower`, `upper`, `removeprefix`, `removesuffix`.
 * Returns a string, a list of strings, or undefined (unknown method or arguments).
 */
export function strMethod(self: string, method: string, args: Array<ConstValue | undefined>): string | string[] | undefined {
  const s = (i: number): string | undefined => (typeof args[i]?.value === 'string' ? (args[i]!.value as string) : undefined);
  switch (method) {
    case 'replace': {
      const from = s(0);
      const to = s(1);
      if (from === undefined || to === undefined || args.length !== 2 || from === '') return undefined;
      return self.split(from).join(to);
    }
    case 'split': {
      if (args.length === 0 || (args.length === 1 && args[0]?.value === null)) return self.split(/\s+/).filter((w) => w !== '');
      const sep = s(0);
      if (sep === undefined || sep === '' || args.length !== 1) return undefined;
      return self.split(sep);
    }
    case 'strip':
      return args.length === 0 ? self.trim() : undefined;
    case 'lstrip':
      return args.length === 0 ? self.trimStart() : undefined;
    case 'rstrip':
      return args.length === 0 ? self.trimEnd() : undefined;
    case 'lower':
      return args.length === 0 ? self.toLowerCase() : undefined;
    case 'upper':
      return args.length === 0 ? self.toUpperCase() : undefined;
    case 'removeprefix': {
      const p = s(0);
      return p === undefined ? undefined : self.startsWith(p) ? self.slice(p.length) : self;
    }
    case 'removesuffix': {
      const p = s(0);
      return p === undefined ? undefined : p !== '' && self.endsWith(p) ? self.slice(0, -p.length) : self;
    }
    default:
      return undefined;
  }
}

/**
 * The config key a Hydra/OmegaConf override string starts with: `"+resume_from_cache="` →
 * `resume_from_cache`, `"++a.b=1"` → `a.b`, `"key=v"` → `key`. The string may be a prefix (the
 * known part of an f-string). Undefined when it does not start with `[+|++|~]key=`.
 */
export function overrideKey(prefix: string): string | undefined {
  const m = /^(?:\+\+|\+|~)?([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)=/.exec(prefix);
  return m?.[1];
}

/** Statement nodes of a lambda body or expression, for scanning: every string node below `node`. */
export function stringNodes(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: Node): void => {
    if (n.type === 'string') {
      out.push(n);
      return;
    }
    for (const child of namedChildren(n)) visit(child);
  };
  visit(node);
  return out;
}
