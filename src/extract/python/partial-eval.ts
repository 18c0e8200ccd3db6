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
import { allChildren, MAX_VALUE_DEPTH, namedChildren, stringValue, unescapePython, unparen } from './values.js';

/** A scalar Python literal: `str`, `int`/`float`, `bool`, `None` (null). `node` = where a string came from, for locations. */
export interface ConstValue {
  kind: 'const';
  value: string | number | boolean | null;
  node?: Node;
}

/** Limits that keep the evaluator bounded on any input. */
export const EVAL_LIMITS = {
  /** Evaluation steps (statements + expressions) per file: its module code and every function followed from it share them; past it everything is unknown. */
  steps: 200_000,
  /**
   * Evaluation steps of one whole run over all files; past it everything is unknown. A step costs
   * ~3 µs, so 5,000,000 cost 17 s of CPU (60 modules of a 512³ loop, s22 sweep D1); NVIDIA NeMo
   * Gym (1,592 Python files) uses 48,000.
   */
  runSteps: 1_500_000,
  /** Iterations of one `for` loop over a known collection; a longer collection is not unrolled. */
  loopIterations: 512,
  /** Characters of one computed string (f-string, `+`, `str` method result); a longer one is unknown. */
  stringLength: 10_000,
  /** Items of one computed list (`+`, `split`, literal, `list(...)`); a longer one is unknown. */
  listLength: 10_000,
  /** Characters and list items computed per file (a memory budget: each new string or list charges its size). */
  allocation: 2_000_000,
  /** Characters and list items computed in one whole run. */
  runAllocation: 20_000_000,
} as const;

/**
 * A budget of evaluation steps and of computed size (string characters and list items):
 * `tick()` is false once the steps are spent, `allocate(n)` false once the size is. A budget
 * with a `parent` (the whole run's) also spends from it, so each file has its own budget and the
 * run a total one (#33 item 2: the step budget used to restart per function, and `+` had no size
 * cap: 30 doublings of a string crashed the run, of a list ran V8 out of memory).
 */
export class Budget {
  private used = 0;
  private allocated = 0;
  constructor(
    private readonly limit: number = EVAL_LIMITS.steps,
    private readonly parent?: Budget,
    private readonly allocationLimit: number = EVAL_LIMITS.allocation,
  ) {}
  /** Spends one step; false once this budget (or its parent's) is spent. */
  tick(): boolean {
    this.used++;
    if (this.used > this.limit) return false;
    return this.parent ? this.parent.tick() : true;
  }
  /** Charges `units` characters or list items; false once this budget (or its parent's) is spent. */
  allocate(units: number): boolean {
    this.allocated += units;
    if (this.allocated > this.allocationLimit) return false;
    return this.parent ? this.parent.allocate(units) : true;
  }
  /** Steps left here and in the parent (the fewer). */
  get remaining(): number {
    const own = Math.max(0, this.limit - this.used);
    return this.parent ? Math.min(own, this.parent.remaining) : own;
  }
  /** True once no step is left (here or in the parent). */
  get spent(): boolean {
    return this.used >= this.limit || (this.parent?.spent ?? false);
  }
  reset(): void {
    this.used = 0;
    this.allocated = 0;
  }
}

/**
 * The value of a literal node (`"x"`, `3`, `-1.5`, `True`, `None`), else undefined. `depth` is the
 * nesting of unary operators so far: a chain deeper than {@link MAX_VALUE_DEPTH} (`----…1`) is
 * unknown, as other expressions nested that deep are (20,000 of them overflowed the stack).
 */
export function literalConst(node: Node, depth = 0): ConstValue | undefined {
  if (depth > MAX_VALUE_DEPTH) return undefined;
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
      const inner = arg ? literalConst(arg, depth + 1) : undefined;
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
 * or format spec, whose result the evaluator does not compute) or holds a `\N{name}` escape whose
 * character is not known.
 */
export function fStringParts(node: Node): Array<string | Node> | undefined {
  const n = unparen(node);
  if (n.type !== 'string') return undefined;
  let start = '';
  const parts: Array<string | Node> = [];
  let interpolated = false;
  for (const child of allChildren(n)) {
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
  const out: Array<string | Node> = [];
  for (const p of parts) {
    if (typeof p !== 'string') {
      out.push(p);
      continue;
    }
    const text = raw ? p : unescapePython(p);
    if (text === undefined) return undefined; // a `\N{name}` whose character is not known
    out.push(text.replaceAll('{{', '{').replaceAll('}}', '}'));
  }
  return out;
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
 * Returns a string, a list of strings, or undefined (unknown method or arguments, or a result
 * longer than `EVAL_LIMITS.stringLength` characters or `EVAL_LIMITS.listLength` items).
 */
export function strMethod(self: string, method: string, args: Array<ConstValue | undefined>): string | string[] | undefined {
  const s = (i: number): string | undefined => (typeof args[i]?.value === 'string' ? (args[i]!.value as string) : undefined);
  switch (method) {
    case 'replace': {
      const from = s(0);
      const to = s(1);
      if (from === undefined || to === undefined || args.length !== 2 || from === '') return undefined;
      // The result's length before building it: a replacement that grows it past the cap is unknown.
      const count = countOccurrences(self, from, EVAL_LIMITS.stringLength + 1);
      if (self.length + count * (to.length - from.length) > Math.max(self.length, EVAL_LIMITS.stringLength)) return undefined;
      return self.split(from).join(to);
    }
    case 'split': {
      if (args.length === 0 || (args.length === 1 && args[0]?.value === null)) {
        const words = self.split(/\s+/, EVAL_LIMITS.listLength + 2).filter((w) => w !== '');
        return words.length > EVAL_LIMITS.listLength ? undefined : words;
      }
      const sep = s(0);
      if (sep === undefined || sep === '' || args.length !== 1) return undefined;
      const parts = self.split(sep, EVAL_LIMITS.listLength + 1);
      return parts.length > EVAL_LIMITS.listLength ? undefined : parts;
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

/** Occurrences of `needle` (non-empty) in `haystack`, counted up to `max`. */
function countOccurrences(haystack: string, needle: string, max: number): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1 && count < max; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
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
