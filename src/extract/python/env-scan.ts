/**
 * The per-file step of the Python environment extraction (issue #31; see env.ts for the semantics
 * followed): the environment reads of one parsed module and the calls that may go to env helpers,
 * as plain data stored with the module's scan in the per-file cache.
 */
import type { Node } from 'web-tree-sitter';
import type { DefaultValue, SourceLocation } from '../../model/types.js';
import { bindImport, nodeLocation, type Binding, type ImportingModule } from './bindings.js';
import { fStringParts } from './partial-eval.js';
import { allChildren, dottedName, identifierText, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen } from './values.js';

/** What {@link scanEnvReads} reads of a scanned module (a `ModuleInfo` has it). */
export interface EnvScanModule extends ImportingModule {
  file: string;
  bindings: Map<string, Binding>;
  /** Module-level string constants (`ModuleInfo.constants`). */
  constants: Map<string, string>;
  functions: Map<string, { localBindings: Map<string, Binding> }>;
}

/** The pydantic-settings options read from a settings class (see `RawClass.settingsConfig`). */
export const SETTINGS_CONFIG_KEYS: ReadonlySet<string> = new Set(['env_prefix', 'case_sensitive', 'env_nested_delimiter', 'populate_by_name']);

/**
 * One environment read as a file's scan found it (plain data, stored in the per-file cache).
 * Exactly one of `name` (known), `ref` (a constant of another module, resolved by {@link pythonEnv})
 * and `prefix` (a computed name: its literal start) is set.
 */
export interface RawEnvRead {
  name?: string;
  /** Qualified name of the constant giving the name (`pkg.consts.TOKEN_VAR`). */
  ref?: string;
  prefix?: string;
  default?: DefaultValue;
  /** The conversion the read is wrapped in (`int(os.getenv(…))`): `int`, `float`, `bool`, `str`. */
  type?: string;
  /** True for `os.environ[...]` (a `KeyError` when unset). */
  required: boolean;
  /** The name token (the key expression). */
  location: SourceLocation;
  /** Source text of the read (at most 160 characters). */
  construct: string;
  /**
   * The name is a parameter of the module-level function the read is in (`def env_int(name,
   * default): return int(os.getenv(name, default))`): calls of that function with a literal name
   * are the reads ({@link RawEnvCall}); `defaultIndex`/`defaultParam`: the parameter passed on as
   * the default. The read itself is dynamic only when no such call is found.
   */
  helper?: { fn: string; keyIndex: number; keyParam: string; defaultIndex?: number; defaultParam?: string; before?: string; after?: string };
}

/**
 * A variable the module writes into its own environment (`os.environ["X"] = v`,
 * `os.environ.update(X=v)`, `os.putenv("X", v)`) or sets to a constant in a copy of it built for a
 * child process (`{**os.environ, "X": "1"}`, `env = os.environ.copy(); env["X"] = "1"`), its name known in the file (a string, an
 * f-string or `+` of module constants, a module constant). Plain data, stored with the scan.
 */
export interface RawEnvWrite {
  name: string;
  /** The name token. */
  location: SourceLocation;
}

/** An argument of a {@link RawEnvCall}. */
export interface RawEnvArgument {
  str?: string;
  text: string;
  literal: boolean;
  location?: SourceLocation;
}

/** A call passing an env-like string, kept per file until helpers are known (see `ModuleInfo.envCalls`). */
export interface RawEnvCall {
  callee: string[];
  /** Positional arguments, up to the first splat. */
  args: RawEnvArgument[];
  kwargs: Array<[string, RawEnvArgument]>;
}

/** A string that may be an environment variable's name passed to a helper: upper case, digits and `_`. */
export const ENV_NAME_ARGUMENT = /^[A-Z][A-Z0-9_]{1,80}$/;

function envArgument(file: string, node: Node): RawEnvArgument {
  const value = readValue(node);
  const text = value.text.length > 160 ? `${value.text.slice(0, 157)}...` : value.text;
  return { ...(value.str !== undefined ? { str: value.str, location: nodeLocation(file, unparen(node)) } : {}), text, literal: value.literal };
}

/**
 * The call a string content node is a direct argument of (`f("APP_PORT", 8)`, `f(name="APP_PORT")`),
 * when its callee is a plain name chain; `seen` holds the calls already recorded (by start index).
 */
export function envHelperCall(file: string, content: Node, seen: Set<number>): RawEnvCall | undefined {
  const string = content.parent;
  let arg = string?.type === 'string' ? string : undefined;
  if (arg?.parent?.type === 'keyword_argument') arg = arg.parent;
  const list = arg?.parent;
  const call = list?.type === 'argument_list' ? list.parent : undefined;
  if (!call || call.type !== 'call' || seen.has(call.startIndex)) return undefined;
  const callee = dottedName(call.childForFieldName('function') ?? call);
  if (!callee) return undefined;
  seen.add(call.startIndex);
  const args: RawEnvArgument[] = [];
  const kwargs: Array<[string, RawEnvArgument]> = [];
  let splat = false;
  for (const item of namedChildren(list!)) {
    if (item.type === 'list_splat' || item.type === 'dictionary_splat') splat = true;
    else if (item.type === 'keyword_argument') {
      const key = identifierText(item.childForFieldName('name'));
      const value = item.childForFieldName('value');
      if (key !== undefined && value) kwargs.push([key, envArgument(file, value)]);
    } else if (!splat && args.length < 8) args.push(envArgument(file, item));
  }
  return { callee, args, kwargs };
}

/** The module-level function a node is directly in (not a method, nor a nested function or lambda), with its parameter names in order. */
function enclosingModuleFunction(node: Node): { name: string; params: string[] } | undefined {
  let def: Node | null = node.parent;
  while (def && def.type !== 'function_definition') {
    if (def.type === 'lambda' || def.type === 'class_definition' || def.type === 'module') return undefined;
    def = def.parent;
  }
  if (!def) return undefined;
  const up = def.parent?.type === 'decorated_definition' ? def.parent.parent : def.parent;
  if (up?.type !== 'module') return undefined;
  const name = identifierText(def.childForFieldName('name'));
  const parameters = def.childForFieldName('parameters');
  if (name === undefined || !parameters) return undefined;
  const params = namedChildren(parameters).map((p) => identifierText(parameterParts(p).name) ?? '');
  return { name, params };
}

/** Wrappers whose name is kept as the read's type. */
const WRAPPERS = new Set(['int', 'float', 'bool', 'str']);

/** True when the module's text can contain an environment read (a cheap test before {@link scanEnvReads}). */
export function mentionsEnv(root: Node): boolean {
  const text = root.text;
  return text.includes('environ') || text.includes('getenv') || text.includes('putenv');
}


/** How a name expression evaluates: a known name, a constant of another module, or a computed name's literal start. */
type NameEval = { name: string } | { ref: string } | { prefix: string };

interface ScanContext {
  constants: Map<string, string>;
  bindings: Map<string, Binding>;
}

/** `os.environ`/`os.getenv` as written in the file, qualified through its imports (`environ` from `from os import environ`). */
function qualify(dotted: string[], bindings: Map<string, Binding>): string | undefined {
  const [head, ...rest] = dotted;
  if (head === undefined) return undefined;
  const binding = bindings.get(head);
  const base = binding ? (binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`) : head === 'os' ? 'os' : undefined;
  if (base === undefined) return undefined;
  return rest.length === 0 ? base : `${base}.${rest.join('.')}`;
}

function sameNode(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return !!a && !!b && a.id === b.id;
}

/** The literal text an f-string or `%`/`.format` template starts with, up to its first placeholder. */
function leadingLiteral(node: Node): string {
  let out = '';
  for (const child of allChildren(node)) {
    if (!child || child.type === 'string_start') continue;
    if (child.type !== 'string_content' && child.type !== 'escape_sequence') break;
    out += child.text;
  }
  return out;
}

function evalName(node: Node, ctx: ScanContext, depth = 0): NameEval {
  if (depth > 8) return { prefix: '' };
  const n = unparen(node);
  switch (n.type) {
    case 'string':
    case 'concatenated_string': {
      const s = stringValue(n);
      if (s !== undefined) return { name: s };
      const parts = n.type === 'string' ? fStringParts(n) : undefined;
      if (!parts) return { prefix: n.type === 'string' ? leadingLiteral(n) : '' };
      let out = '';
      for (const part of parts) {
        if (typeof part === 'string') {
          out += part;
          continue;
        }
        const value = evalName(part, ctx, depth + 1);
        if (!('name' in value)) return { prefix: out + ('prefix' in value ? value.prefix : '') };
        out += value.name;
      }
      return { name: out };
    }
    case 'identifier': {
      const constant = ctx.constants.get(pythonIdentifier(n.text));
      if (constant !== undefined) return { name: constant };
      const binding = ctx.bindings.get(pythonIdentifier(n.text));
      if (binding?.kind === 'symbol') return { ref: `${binding.module}.${binding.name}` };
      return { prefix: '' };
    }
    case 'attribute': {
      const dotted = dottedName(n);
      if (!dotted) return { prefix: '' };
      const constant = ctx.constants.get(dotted.join('.'));
      if (constant !== undefined) return { name: constant };
      const qualified = ctx.bindings.has(dotted[0]!) ? qualify(dotted, ctx.bindings) : undefined;
      return qualified !== undefined ? { ref: qualified } : { prefix: '' };
    }
    case 'binary_operator': {
      const op = n.childForFieldName('operator')?.text;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (!left || !right) return { prefix: '' };
      if (op === '+') {
        const l = evalName(left, ctx, depth + 1);
        if (!('name' in l)) return 'prefix' in l ? l : { prefix: '' };
        const r = evalName(right, ctx, depth + 1);
        if ('name' in r) return { name: l.name + r.name };
        return { prefix: l.name + ('prefix' in r ? r.prefix : '') };
      }
      if (op === '%') {
        const template = stringValue(left);
        return { prefix: template === undefined ? '' : template.slice(0, Math.max(0, template.indexOf('%'))) };
      }
      return { prefix: '' };
    }
    case 'call': {
      // `"APP_{}".format(k)`
      const fn = n.childForFieldName('function');
      const object = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
      const template = object && identifierText(fn?.childForFieldName('attribute')) === 'format' ? stringValue(object) : undefined;
      return { prefix: template === undefined ? '' : template.slice(0, Math.max(0, template.indexOf('{'))) };
    }
    default:
      return { prefix: '' };
  }
}

function toDefault(node: Node): DefaultValue {
  const value = readValue(node);
  return { kind: value.literal ? 'literal' : 'expression', text: value.text };
}

/** Positional arguments of a call (no keywords, splats or comments) and its keywords. */
function callArguments(call: Node): { positional: Node[]; keywords: Map<string, Node> } {
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  const args = call.childForFieldName('arguments');
  for (const arg of args ? namedChildren(args) : []) {
    if (arg.type === 'keyword_argument') {
      const key = identifierText(arg.childForFieldName('name'));
      const value = arg.childForFieldName('value');
      if (key !== undefined && value) keywords.set(key, value);
    } else if (arg.type !== 'list_splat' && arg.type !== 'dictionary_splat') {
      positional.push(arg);
    }
  }
  return { positional, keywords };
}

/**
 * The environment reads of one parsed module: `os.environ[K]` (not as an assignment or `del`
 * target), `os.environ.get(K, d)`, `os.environ.setdefault(K, d)`, `K in os.environ`,
 * `os.getenv(K, d)` (also `default=d`), with `os`/`environ`/`getenv` bound by any import of the
 * file (`import os as o`, `from os import environ, getenv`). `K` is a string, an f-string or `+`
 * over module constants, a module constant (`ENV_VAR = "X"`), a class constant (`Env.X`) or an
 * imported name (resolved later); anything else is a computed name whose literal start is kept.
 * A read wrapped in `int(…)`/`float(…)`/`bool(…)`/`str(…)` gets that type, and `… or d` the default `d`.
 * Passing the whole environment on (`dict(os.environ)`, `os.environ.copy()`) reads no variable.
 *
 * With `writes`, the variables the module writes are appended to it ({@link RawEnvWrite}; see
 * `writtenKeys` for the forms).
 *
 * `info.constants` and `info.bindings` must be filled (the module-level walk runs first).
 */
export function scanEnvReads(info: EnvScanModule, root: Node, writes?: RawEnvWrite[]): RawEnvRead[] {
  const text = root.text;
  const bindings = new Map(info.bindings);
  for (const fn of info.functions.values()) for (const [name, binding] of fn.localBindings) if (!bindings.has(name)) bindings.set(name, binding);
  // Imports in methods and nested blocks (`from os import environ` in a method), rare: walked only then.
  if (/\bfrom\s+os\s+import\b|\bimport\s+os\s+as\b/.test(text)) {
    for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) if (node) bindImport(info, node, bindings, true);
  }
  // `from os import getenv as ge`: the local names of the environment, searched too.
  const names = new Set(['environ', 'getenv', 'putenv']);
  for (const [local, b] of bindings) if (b.kind === 'symbol' && b.module === 'os' && (b.name === 'environ' || b.name === 'getenv' || b.name === 'putenv') && /^[A-Za-z_]\w*$/.test(local)) names.add(local);
  // The identifiers, found in the text (a query with a text predicate marshals every identifier of the file).
  const ids: Node[] = [];
  for (const match of text.matchAll(new RegExp(`\\b(?:${[...names].join('|')})\\b`, 'g'))) {
    const node = root.descendantForIndex(match.index, match.index + match[0].length);
    if (node?.type === 'identifier' && node.startIndex === match.index && node.endIndex === match.index + match[0].length) ids.push(node);
  }
  const ctx: ScanContext = { constants: info.constants, bindings };
  const reads: RawEnvRead[] = [];
  for (const id of ids) {
    const parent = id.parent;
    // The chain ending at this name: `os.environ` (the attribute) or a bare `environ`.
    let chain: Node = id;
    if (parent?.type === 'attribute' && sameNode(parent.childForFieldName('attribute'), id)) chain = parent;
    else if (parent?.type === 'attribute' && !sameNode(parent.childForFieldName('object'), id)) continue;
    const dotted = dottedName(chain);
    const qualified = dotted ? qualify(dotted, bindings) : undefined;
    if (writes && (qualified === 'os.environ' || qualified === 'os.putenv')) {
      const keys = [...writtenKeys(chain, qualified), ...(qualified === 'os.environ' ? childEnvKeys(chain) : [])];
      for (const key of keys) {
        const value = key.keyword !== undefined ? { name: key.keyword } : evalName(key.node, ctx);
        if ('name' in value) writes.push({ name: value.name, location: nodeLocation(info.file, key.node) });
      }
    }
    const read = qualified === 'os.environ' ? environRead(chain, ctx) : qualified === 'os.getenv' ? getenvRead(chain) : undefined;
    if (!read) continue;
    const value = evalName(read.key, ctx);
    const outer = wrapping(read.expr);
    const keyNode = unparen(read.key);
    // The key is a parameter, or a parameter with literal text around it (`os.getenv(name + "_FILE")`,
    // `os.environ[f"APP_{name}"]`): the helper reads the variable its callers name, so affixed.
    const computed = 'prefix' in value ? value.prefix : undefined;
    const param = computed !== undefined ? paramKey(keyNode) : undefined;
    const fn = param && computed === param.before ? enclosingModuleFunction(read.expr) : undefined;
    const keyIndex = fn && param ? fn.params.indexOf(param.name) : -1;
    const defaultNode = read.defaultNode ? unparen(read.defaultNode) : undefined;
    const defaultIndex = fn && defaultNode?.type === 'identifier' ? fn.params.indexOf(pythonIdentifier(defaultNode.text)) : -1;
    const helper = fn && param && keyIndex >= 0
      ? {
          fn: fn.name, keyIndex, keyParam: param.name,
          ...(defaultIndex >= 0 ? { defaultIndex, defaultParam: defaultNode!.text } : {}),
          ...(param.before !== '' ? { before: param.before } : {}), ...(param.after !== '' ? { after: param.after } : {}),
        }
      : undefined;
    const defaultValue = read.default ?? outer.default;
    const text = read.expr.text;
    // A local variable (`env_var = f"SLURM_HOST_{i}"`, `for key in ("HF_HOME", "HF_TOKEN")`): its values.
    const values = !helper && 'prefix' in value && value.prefix === '' && keyNode.type === 'identifier' ? localValues(keyNode, ctx) : undefined;
    for (const each of values ?? [value]) {
      reads.push({
        ...each,
        ...(defaultValue ? { default: defaultValue } : {}),
        ...(outer.type !== undefined ? { type: outer.type } : {}),
        required: read.required,
        location: nodeLocation(info.file, read.key),
        construct: text.length > 160 ? `${text.slice(0, 157)}...` : text,
        ...(helper ? { helper } : {}),
      });
    }
  }
  return reads;
}

/**
 * A read's key made of one identifier (a parameter of the enclosing function, checked by the
 * caller) with literal text before or after it: `name`, `name + "_FILE"`, `"APP_" + name`,
 * `f"{name}_FILE"`, `f"APP_{name}"`. Undefined for any other key.
 */
function paramKey(key: Node): { name: string; before: string; after: string } | undefined {
  const n = unparen(key);
  if (n.type === 'identifier') return { name: pythonIdentifier(n.text), before: '', after: '' };
  if (n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '+') {
    const left = unparen(n.childForFieldName('left')!);
    const right = unparen(n.childForFieldName('right')!);
    const leftText = left.type === 'identifier' ? undefined : stringValue(left);
    const rightText = right.type === 'identifier' ? undefined : stringValue(right);
    if (left.type === 'identifier' && rightText !== undefined) return { name: pythonIdentifier(left.text), before: '', after: rightText };
    if (right.type === 'identifier' && leftText !== undefined) return { name: pythonIdentifier(right.text), before: leftText, after: '' };
    return undefined;
  }
  if (n.type === 'string') {
    const parts = fStringParts(n);
    const ids = parts?.filter((p): p is Node => typeof p !== 'string') ?? [];
    if (!parts || ids.length !== 1 || ids[0]!.type !== 'identifier') return undefined;
    const at = parts.indexOf(ids[0]!);
    return { name: ids[0]!.text, before: parts.slice(0, at).join(''), after: parts.slice(at + 1).join('') };
  }
  return undefined;
}

/** How many assignments of one local name are read before giving up. */
const MAX_LOCAL_ASSIGNMENTS = 16;

/**
 * The values a local name can hold where it is read, from its assignments in the enclosing
 * function (or the module, outside any function): `x = "A"`, `x = "A" if c else "B"`,
 * `x = f"P_{i}"` (a prefix), `x = None` (no name), and `for x in ("A", "B")` over a literal list, tuple or set (also in
 * a comprehension). Undefined when the name is assigned anything else (a call, a parameter's
 * value, a loop over a run-time collection) or not at all. Distinct values, in source order.
 */
function localValues(id: Node, ctx: ScanContext): NameEval[] | undefined {
  let scope: Node | null = id.parent;
  while (scope && scope.type !== 'function_definition' && scope.type !== 'module') scope = scope.parent;
  if (!scope) return undefined;
  if (scope.type === 'function_definition') {
    const parameters = scope.childForFieldName('parameters');
    if (parameters && namedChildren(parameters).some((p) => identifierText(parameterParts(p).name) === pythonIdentifier(id.text))) return undefined;
  }
  const out: NameEval[] = [];
  const add = (value: NameEval): void => {
    const key = JSON.stringify(value);
    if (!out.some((o) => JSON.stringify(o) === key)) out.push(value);
  };
  const addExpr = (node: Node, depth = 0): boolean => {
    const n = unparen(node);
    if (n.type === 'conditional_expression' && depth < 4) {
      const [then, , otherwise] = namedChildren(n);
      return !!then && !!otherwise && addExpr(then, depth + 1) && addExpr(otherwise, depth + 1);
    }
    if (n.type === 'none') return true; // `x: Optional[str] = None` before the branches that name it
    const value = evalName(n, ctx);
    if ('ref' in value || ('prefix' in value && value.prefix === '')) return false;
    add(value);
    return true;
  };
  let seen = 0;
  for (const node of scope.descendantsOfType(['assignment', 'augmented_assignment', 'for_statement', 'for_in_clause'])) {
    if (!node) continue;
    const left = node.childForFieldName('left');
    if (left?.type !== 'identifier' || pythonIdentifier(left.text) !== id.text) continue;
    if (++seen > MAX_LOCAL_ASSIGNMENTS || node.type === 'augmented_assignment') return undefined;
    const right = node.childForFieldName('right');
    if (!right) return undefined;
    if (node.type === 'assignment') {
      if (!addExpr(right)) return undefined;
      continue;
    }
    const items = unparen(right);
    if (items.type !== 'list' && items.type !== 'tuple' && items.type !== 'set') return undefined;
    for (const item of namedChildren(items)) if (!addExpr(item)) return undefined;
  }
  return out.length > 0 ? out : undefined;
}

interface ReadSite {
  /** The whole read expression (subscript, call, comparison). */
  expr: Node;
  key: Node;
  default?: DefaultValue;
  /** The default's expression, when the read passes one. */
  defaultNode?: Node;
  required: boolean;
}

function environRead(chain: Node, _ctx: ScanContext): ReadSite | undefined {
  const parent = chain.parent;
  if (!parent) return undefined;
  if (parent.type === 'subscript' && sameNode(parent.childForFieldName('value'), chain)) {
    const key = parent.childForFieldName('subscript');
    const up = parent.parent;
    if (!key) return undefined;
    // Writes and deletions: `os.environ["X"] = v`, `+=`, `del os.environ["X"]`.
    if ((up?.type === 'assignment' || up?.type === 'augmented_assignment') && sameNode(up.childForFieldName('left'), parent)) return undefined;
    if (up?.type === 'delete_statement' || (up?.type === 'expression_list' && up.parent?.type === 'delete_statement')) return undefined;
    return { expr: parent, key, required: true };
  }
  if (parent.type === 'attribute' && sameNode(parent.childForFieldName('object'), chain)) {
    const method = identifierText(parent.childForFieldName('attribute'));
    const call = parent.parent;
    if ((method !== 'get' && method !== 'setdefault') || call?.type !== 'call' || !sameNode(call.childForFieldName('function'), parent)) return undefined;
    const { positional } = callArguments(call);
    const key = positional[0];
    if (!key) return undefined;
    return { expr: call, key, ...(positional[1] ? { default: toDefault(positional[1]), defaultNode: positional[1] } : {}), required: false };
  }
  if (parent.type === 'comparison_operator') {
    const operands = namedChildren(parent);
    const key = operands[0];
    if (operands.length !== 2 || !key || !sameNode(operands[1], chain)) return undefined;
    const op = parent.text.slice(key.endIndex - parent.startIndex, chain.startIndex - parent.startIndex).replace(/\s+/g, ' ').trim();
    if (op !== 'in' && op !== 'not in') return undefined;
    return { expr: parent, key, required: false };
  }
  return undefined;
}

/**
 * The name expressions `os.environ`/`os.putenv` (the `chain`) is written with: `os.environ[K] = v`
 * (also one of several targets, `a = os.environ[K] = v`), `os.environ.update(K=v, …)`,
 * `os.environ.update({K: v, …})` and `update(dict(K=v))` (the keywords' names are the variables,
 * as strings), `os.putenv(K, v)`. Not writes: `os.environ.setdefault(K, d)` (a default: users may
 * still set it), `del os.environ[K]`, `os.environ.pop(K)`, `os.environ[K] += v`.
 */
function writtenKeys(chain: Node, qualified: string): Array<{ node: Node; keyword?: string }> {
  const parent = chain.parent;
  if (!parent) return [];
  if (qualified === 'os.putenv') {
    if (parent.type !== 'call' || !sameNode(parent.childForFieldName('function'), chain)) return [];
    const key = callArguments(parent).positional[0];
    return key ? [{ node: key }] : [];
  }
  if (parent.type === 'subscript' && sameNode(parent.childForFieldName('value'), chain)) {
    const key = parent.childForFieldName('subscript');
    // `a = os.environ[K] = v` nests as `a = (os.environ[K] = v)`: the subscript is a left side too.
    const up = parent.parent;
    return key && up?.type === 'assignment' && sameNode(up.childForFieldName('left'), parent) ? [{ node: key }] : [];
  }
  if (parent.type === 'attribute' && sameNode(parent.childForFieldName('object'), chain) && identifierText(parent.childForFieldName('attribute')) === 'update') {
    const call = parent.parent;
    if (call?.type !== 'call' || !sameNode(call.childForFieldName('function'), parent)) return [];
    const keys: Array<{ node: Node; keyword?: string }> = [];
    const keywordNames = (list: Node | null): void => {
      for (const arg of list ? namedChildren(list) : []) {
        const name = arg.type === 'keyword_argument' ? arg.childForFieldName('name') : null;
        if (name) keys.push({ node: name, keyword: pythonIdentifier(name.text) });
      }
    };
    keywordNames(call.childForFieldName('arguments'));
    const positional = callArguments(call).positional[0];
    const first = positional ? unparen(positional) : undefined;
    if (first?.type === 'dictionary') {
      for (const pair of namedChildren(first)) {
        const key = pair.type === 'pair' ? pair.childForFieldName('key') : null;
        if (key) keys.push({ node: key });
      }
    } else if (first?.type === 'call' && identifierText(first.childForFieldName('function')) === 'dict') {
      keywordNames(first.childForFieldName('arguments'));
    }
    return keys;
  }
  return [];
}

/** A literal a program sets a switch to: a plain string (no f-string field), a number, `True`/`False`. */
function isConstantValue(node: Node | null): boolean {
  const value = node ? unparen(node) : undefined;
  if (!value) return false;
  if (value.type === 'string') return !namedChildren(value).some((c) => c.type === 'interpolation');
  return value.type === 'integer' || value.type === 'float' || value.type === 'true' || value.type === 'false';
}

/** The keys of a dict display whose values are constants (`{"X": "1", **rest}` gives `"X"`). */
function constantPairs(dict: Node): Array<{ node: Node }> {
  const keys: Array<{ node: Node }> = [];
  for (const pair of namedChildren(dict)) {
    if (pair.type !== 'pair' || !isConstantValue(pair.childForFieldName('value'))) continue;
    const key = pair.childForFieldName('key');
    if (key) keys.push({ node: key });
  }
  return keys;
}

/**
 * The variables the code sets to a constant in an environment it builds from its own for a
 * process it starts: `{**os.environ, "X": "1"}`, `os.environ | {"X": "1"}` (fastmcp's
 * `FASTMCP_UV_SPAWNED`), and `env = os.environ.copy()` (or `dict(os.environ)`) followed by
 * `env["X"] = "1"` in the same function (MinerU's `MINERU_API_DISABLE_ACCESS_LOG`). A constant
 * marks a signal between the program and its child; a value passed on (`env["APP_ROOT"] =
 * str(root)`) may be a user's setting handed down, so it is not taken.
 */
function childEnvKeys(chain: Node): Array<{ node: Node; keyword?: string }> {
  const keys: Array<{ node: Node; keyword?: string }> = [];
  let expr = chain;
  const up = (): Node | null => {
    let p = expr.parent;
    while (p?.type === 'parenthesized_expression') p = p.parent;
    return p;
  };
  // `{**os.environ, "X": "1"}`
  let parent = up();
  if (parent?.type === 'dictionary_splat' && parent.parent?.type === 'dictionary') {
    keys.push(...constantPairs(parent.parent));
    expr = parent.parent;
  }
  // `os.environ.copy()`, `os.environ.items()`, then `dict(…)` around it.
  parent = up();
  if (parent?.type === 'attribute' && /^(?:copy|items)$/.test(identifierText(parent.childForFieldName('attribute')) ?? '') && parent.parent?.type === 'call') expr = parent.parent;
  parent = up();
  if (parent?.type === 'argument_list' && parent.parent?.type === 'call' && identifierText(parent.parent.childForFieldName('function')) === 'dict') expr = parent.parent;
  // `… | {"X": "1"} | …`
  for (parent = up(); parent?.type === 'binary_operator' && parent.childForFieldName('operator')?.text === '|'; parent = up()) {
    for (const side of [parent.childForFieldName('left'), parent.childForFieldName('right')]) {
      const operand = side ? unparen(side) : undefined;
      if (operand?.type === 'dictionary') keys.push(...constantPairs(operand));
    }
    expr = parent;
  }
  // `env = <that>` then `env["X"] = "1"` in the same function (or module).
  parent = up();
  const target = parent?.type === 'assignment' && sameNode(parent.childForFieldName('right'), expr) ? parent.childForFieldName('left') : null;
  if (target?.type !== 'identifier' || expr === chain) return keys;
  let scope: Node | null = parent;
  while (scope && scope.type !== 'function_definition' && scope.type !== 'module') scope = scope.parent;
  for (const assignment of scope ? scope.descendantsOfType('assignment') : []) {
    const left = assignment?.childForFieldName('left');
    if (left?.type !== 'subscript' || left.childForFieldName('value')?.text !== target.text || !isConstantValue(assignment!.childForFieldName('right'))) continue;
    const key = left.childForFieldName('subscript');
    if (key) keys.push({ node: key });
  }
  return keys;
}

function getenvRead(chain: Node): ReadSite | undefined {
  const call = chain.parent;
  if (call?.type !== 'call' || !sameNode(call.childForFieldName('function'), chain)) return undefined;
  const { positional, keywords } = callArguments(call);
  const key = positional[0] ?? keywords.get('key');
  if (!key) return undefined;
  const def = positional[1] ?? keywords.get('default');
  return { expr: call, key, ...(def ? { default: toDefault(def), defaultNode: def } : {}), required: false };
}

/** `os.getenv("X") or "d"` (default `"d"`) and `int(…)` around the read (type `int`). */
function wrapping(expr: Node): { default?: DefaultValue; type?: string } {
  let outer = expr;
  const out: { default?: DefaultValue; type?: string } = {};
  const up = outer.parent;
  if (up?.type === 'boolean_operator' && up.childForFieldName('operator')?.text === 'or' && sameNode(up.childForFieldName('left'), outer)) {
    const right = up.childForFieldName('right');
    if (right) out.default = toDefault(right);
    outer = up;
  }
  const args = outer.parent;
  const call = args?.type === 'argument_list' ? args.parent : null;
  const callee = call?.type === 'call' ? call.childForFieldName('function') : null;
  if (callee?.type === 'identifier' && WRAPPERS.has(pythonIdentifier(callee.text)) && sameNode(namedChildren(args!)[0], outer)) out.type = pythonIdentifier(callee.text);
  return out;
}

