/**
 * Environment variables in Python code, read statically (issue #31): pydantic-settings fields,
 * direct reads of `os.environ`/`os.getenv`, and the env fallbacks of click/typer flags.
 *
 * Two steps, so that the per-file cache holds the first: {@link scanEnvReads} runs while a file is
 * scanned (its result is part of the file's `ModuleInfo`), {@link pythonEnv} runs over all files
 * (names given by constants of other modules, settings classes through project bases).
 *
 * Semantics followed:
 * - pydantic-settings, "Environment variable names"
 *   (https://docs.pydantic.dev/latest/concepts/pydantic_settings/#environment-variable-names):
 *   the name is `env_prefix` + the field name; a field with `validation_alias` (else `alias`) is read
 *   under that name only, without the prefix (`AliasChoices("A", "B")`: each of them, the first
 *   found wins), and also under prefix + field name when `populate_by_name=True`; names are
 *   case-insensitive unless `case_sensitive=True`; with `env_nested_delimiter="__"` the field `db`
 *   of a nested model is also set field by field (`APP_DB__HOST`), and always as one JSON value
 *   (`APP_DB`). pydantic v1 `Field(env="X")`/`env=["X", "Y"]` names the variables outright.
 * - Python's `os` module: `os.environ[...]` raises when the variable is unset (required),
 *   `os.environ.get(k, d)`, `os.getenv(k, d)` and `os.environ.setdefault(k, d)` return `d`.
 * - click, "Values from Environment Variables"
 *   (https://click.palletsprojects.com/en/stable/options/#values-from-environment-variables):
 *   `envvar=` names the variable(s) of an option; see flags-click.ts for `auto_envvar_prefix`.
 */
import type { Node } from 'web-tree-sitter';
import type { DefaultValue, DynamicEnvRead, EnvExtraction, ParamSpec, SourceLocation } from '../../model/types.js';
import { fStringParts } from './partial-eval.js';
import type { Resolver } from './resolve.js';
import { bindImport, nodeLocation, type Binding, type ModuleInfo, type RawClass, type RawField } from './scan.js';
import type { FlagCommand } from './types.js';
import { dottedName, namedChildren, parameterParts, readValue, stringValue, unparen, type PyValue } from './values.js';

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
  helper?: { fn: string; keyIndex: number; keyParam: string; defaultIndex?: number; defaultParam?: string };
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
      const key = item.childForFieldName('name')?.text;
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
  const name = def.childForFieldName('name')?.text;
  const parameters = def.childForFieldName('parameters');
  if (name === undefined || !parameters) return undefined;
  const params = namedChildren(parameters).map((p) => parameterParts(p).name?.text ?? '');
  return { name, params };
}

/** Wrappers whose name is kept as the read's type. */
const WRAPPERS = new Set(['int', 'float', 'bool', 'str']);

/** True when the module's text can contain an environment read (a cheap test before {@link scanEnvReads}). */
export function mentionsEnv(root: Node): boolean {
  const text = root.text;
  return text.includes('environ') || text.includes('getenv');
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
  for (const child of node.children) {
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
      const constant = ctx.constants.get(n.text);
      if (constant !== undefined) return { name: constant };
      const binding = ctx.bindings.get(n.text);
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
      const template = object && fn?.childForFieldName('attribute')?.text === 'format' ? stringValue(object) : undefined;
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
      const key = arg.childForFieldName('name')?.text;
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
 * `info.constants` and `info.bindings` must be filled (the module-level walk runs first).
 */
export function scanEnvReads(info: ModuleInfo, root: Node): RawEnvRead[] {
  const text = root.text;
  const bindings = new Map(info.bindings);
  for (const fn of info.functions.values()) for (const [name, binding] of fn.localBindings) if (!bindings.has(name)) bindings.set(name, binding);
  // Imports in methods and nested blocks (`from os import environ` in a method), rare: walked only then.
  if (/\bfrom\s+os\s+import\b|\bimport\s+os\s+as\b/.test(text)) {
    for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) if (node) bindImport(info, node, bindings, true);
  }
  // `from os import getenv as ge`: the local names of the environment, searched too.
  const names = new Set(['environ', 'getenv']);
  for (const [local, b] of bindings) if (b.kind === 'symbol' && b.module === 'os' && (b.name === 'environ' || b.name === 'getenv') && /^[A-Za-z_]\w*$/.test(local)) names.add(local);
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
    const read = qualified === 'os.environ' ? environRead(chain, ctx) : qualified === 'os.getenv' ? getenvRead(chain) : undefined;
    if (!read) continue;
    const value = evalName(read.key, ctx);
    const outer = wrapping(read.expr);
    const keyNode = unparen(read.key);
    const fn = 'prefix' in value && value.prefix === '' && keyNode.type === 'identifier' ? enclosingModuleFunction(read.expr) : undefined;
    const keyIndex = fn ? fn.params.indexOf(keyNode.text) : -1;
    const defaultNode = read.defaultNode ? unparen(read.defaultNode) : undefined;
    const defaultIndex = fn && defaultNode?.type === 'identifier' ? fn.params.indexOf(defaultNode.text) : -1;
    const helper = fn && keyIndex >= 0
      ? { fn: fn.name, keyIndex, keyParam: keyNode.text, ...(defaultIndex >= 0 ? { defaultIndex, defaultParam: defaultNode!.text } : {}) }
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
    if (parameters && namedChildren(parameters).some((p) => parameterParts(p).name?.text === id.text)) return undefined;
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
    if (left?.type !== 'identifier' || left.text !== id.text) continue;
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
    const method = parent.childForFieldName('attribute')?.text;
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
  if (callee?.type === 'identifier' && WRAPPERS.has(callee.text) && sameNode(namedChildren(args!)[0], outer)) out.type = callee.text;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Whole-project step

/** External bases that make a pydantic model a settings class read from the environment. */
const SETTINGS_BASES = new Set([
  'pydantic_settings.BaseSettings', 'pydantic_settings.main.BaseSettings',
  'pydantic.BaseSettings', 'pydantic.env_settings.BaseSettings',
  'pydantic.v1.BaseSettings', 'pydantic.v1.env_settings.BaseSettings',
]);

const PYDANTIC_FIELD = new Set(['pydantic.Field', 'pydantic.fields.Field', 'pydantic.v1.Field', 'pydantic.v1.fields.Field']);
const ALIAS_CHOICES = new Set(['pydantic.AliasChoices', 'pydantic.aliases.AliasChoices']);

/** What {@link pythonEnv} needs of the class analysis in index.ts. */
export interface SettingsHost {
  resolver: Resolver;
  modules: ReadonlyMap<string, ModuleInfo>;
  /** The class's MRO: repository classes, and external bases by qualified name. */
  mro(cls: RawClass): Array<RawClass | string>;
  /** The module that declares a repository class. */
  moduleOf(cls: RawClass): ModuleInfo | undefined;
}

/** One settings class as `extractPython` found it: its raw class and its resolved fields. */
export interface SettingsCandidate {
  cls: RawClass;
  fields: ParamSpec[];
  kind: string;
}

/** Value of a module constant by qualified name (`pkg.consts.TOKEN_VAR`), following `from … import` re-exports. */
function constantValue(modules: ReadonlyMap<string, ModuleInfo>, qualified: string, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  const segments = qualified.split('.');
  for (let i = segments.length - 1; i > 0; i--) {
    const module = modules.get(segments.slice(0, i).join('.'));
    if (!module) continue;
    const rest = segments.slice(i);
    const own = module.constants.get(rest.join('.'));
    if (own !== undefined) return own;
    const binding = module.bindings.get(rest[0]!);
    if (!binding) return undefined;
    const target = binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
    return constantValue(modules, [target, ...rest.slice(1)].join('.'), depth + 1);
  }
  return undefined;
}

/** A string option value: a literal, or a module constant (`env_prefix=PREFIX`). */
function stringOption(host: SettingsHost, module: ModuleInfo, value: PyValue | undefined): string | undefined {
  if (!value) return undefined;
  if (value.str !== undefined) return value.str;
  if (!value.dotted) return undefined;
  const local = module.constants.get(value.dotted.join('.'));
  if (local !== undefined) return local;
  const binding = module.bindings.get(value.dotted[0]!);
  if (!binding) return undefined;
  const target = binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
  return constantValue(host.modules, [target, ...value.dotted.slice(1)].join('.'));
}

/** Strings of a value: `"X"`, `["X", "Y"]`/`("X", "Y")` (by text), `AliasChoices("X", "Y")`. */
function stringsOf(host: SettingsHost, module: ModuleInfo, value: PyValue | undefined): string[] {
  if (!value) return [];
  if (value.str !== undefined) return [value.str];
  if (value.call?.callee) {
    const resolved = host.resolver.resolve(module, value.call.callee);
    if (resolved?.kind === 'external' && ALIAS_CHOICES.has(resolved.qualifiedName)) return value.call.args.flatMap((a) => (a.str !== undefined ? [a.str] : []));
    return [];
  }
  const list = /^\s*[[(]([\s\S]*)[\])]\s*$/.exec(value.text);
  if (!list) return [];
  const out: string[] = [];
  for (const m of list[1]!.matchAll(/(["'])((?:(?!\1)[^\\\n])*)\1/g)) out.push(m[2]!);
  return out;
}

/** The env names a field gives outright: `validation_alias`, else `alias`, else v1 `env=`. Undefined when none. */
function explicitNames(host: SettingsHost, module: ModuleInfo, field: RawField): string[] | undefined {
  const kwargs = new Map<string, PyValue>();
  const calls = [...field.annotatedCalls, ...(field.value?.call ? [field.value.call] : [])];
  for (const call of calls) {
    const resolved = call.callee ? host.resolver.resolve(module, call.callee) : undefined;
    if (resolved?.kind !== 'external' || !PYDANTIC_FIELD.has(resolved.qualifiedName)) continue;
    for (const [key, value] of call.kwargs) kwargs.set(key, value);
  }
  for (const key of ['validation_alias', 'alias', 'env']) {
    const names = stringsOf(host, module, kwargs.get(key));
    if (names.length > 0) return names;
  }
  return undefined;
}

interface SettingsOptions {
  prefix: string;
  caseSensitive: boolean;
  delimiter?: string;
  populateByName: boolean;
}

/** The class's options, its bases' first and its own last (pydantic merges `model_config` down the MRO). */
function settingsOptions(host: SettingsHost, cls: RawClass): SettingsOptions {
  const merged = new Map<string, { value: PyValue; module: ModuleInfo }>();
  const mro = host.mro(cls);
  for (let i = mro.length - 1; i >= 0; i--) {
    const entry = mro[i];
    if (entry === undefined || typeof entry === 'string') continue;
    const module = host.moduleOf(entry);
    if (module) for (const [key, value] of entry.settingsConfig ?? []) merged.set(key, { value, module });
  }
  const str = (key: string): string | undefined => {
    const item = merged.get(key);
    return item ? stringOption(host, item.module, item.value) : undefined;
  };
  const delimiter = str('env_nested_delimiter');
  return {
    prefix: str('env_prefix') ?? '',
    caseSensitive: merged.get('case_sensitive')?.value.bool === true,
    ...(delimiter ? { delimiter } : {}),
    populateByName: merged.get('populate_by_name')?.value.bool === true,
  };
}

/** The raw field `name` as the MRO resolves it (the most derived class declaring it) and its module. */
function rawField(host: SettingsHost, cls: RawClass, name: string): { field: RawField; module: ModuleInfo } | undefined {
  for (const entry of host.mro(cls)) {
    if (typeof entry === 'string') continue;
    const field = entry.fields.find((f) => f.name === name);
    const module = host.moduleOf(entry);
    if (field && module) return { field, module };
  }
  return undefined;
}

function isSettings(host: SettingsHost, cls: RawClass): boolean {
  return host.mro(cls).some((entry) => typeof entry === 'string' && SETTINGS_BASES.has(entry));
}

/** An `env-var` ParamSpec with the model's key order. */
function envSpec(base: ParamSpec, fields: { name: string; aliases: string[]; owner: string; dest?: string; location: SourceLocation; source: ParamSpec['envSource']; caseInsensitive: boolean; required?: boolean }): ParamSpec {
  return {
    name: fields.name,
    aliases: fields.aliases,
    ...(base.type !== undefined ? { type: base.type } : {}),
    ...(base.default ? { default: base.default } : {}),
    required: fields.required ?? base.required,
    ...(base.description !== undefined ? { description: base.description } : {}),
    deprecated: base.deprecated,
    hidden: base.hidden,
    origin: 'env-var',
    owner: fields.owner,
    location: fields.location,
    ...(fields.dest !== undefined ? { dest: fields.dest } : {}),
    envSource: fields.source,
    ...(fields.caseInsensitive ? { envCaseInsensitive: true } : {}),
  };
}

/**
 * The environment variables of the whole project: every direct read of every scanned module (names
 * given by other modules' constants resolved here; unresolved or computed names become dynamic
 * reads with their literal prefix), then every field of every pydantic-settings class (see the
 * file's docstring), `owner` its qualified name, `dest` the field path (`db.host` below a nested
 * model). Settings classes are the candidates whose MRO reaches `BaseSettings`, through project
 * bases too. Fields whose env names pydantic computes from something unread (an `AliasPath`, a
 * computed alias) get the prefix + field name.
 *
 * @param infos scanned modules, each once (shadowed duplicates left out)
 * @param candidates pydantic classes with their resolved fields (`ConfigClass.fields`), by qualified name
 */
export function pythonEnv(host: SettingsHost, infos: readonly ModuleInfo[], candidates: ReadonlyMap<string, SettingsCandidate>): EnvExtraction {
  const vars: ParamSpec[] = [];
  const dynamic: DynamicEnvRead[] = [];
  // Helpers (`def env_int(name, default)` reading `os.getenv(name, default)`), by `module:function`.
  const helpers = new Map<string, RawEnvRead & { helper: NonNullable<RawEnvRead['helper']> }>();
  for (const info of infos) {
    for (const read of info.envReads ?? []) if (read.helper && host.modules.get(info.module) === info) helpers.set(`${info.module}:${read.helper.fn}`, { ...read, helper: read.helper });
  }
  const usedHelpers = new Set<string>();
  const helperReads: ParamSpec[] = [];
  if (helpers.size > 0) {
    for (const info of infos) {
      for (const call of info.envCalls ?? []) {
        const resolved = host.resolver.resolve(info, call.callee);
        if (resolved?.kind !== 'function') continue;
        const key = `${resolved.module.module}:${resolved.fn.name}`;
        const helper = helpers.get(key);
        if (!helper) continue;
        const { keyIndex, keyParam, defaultIndex, defaultParam } = helper.helper;
        const arg = call.args[keyIndex] ?? call.kwargs.find(([k]) => k === keyParam)?.[1];
        if (arg?.str === undefined || !arg.location) continue;
        usedHelpers.add(key);
        const def = (defaultIndex !== undefined ? call.args[defaultIndex] : undefined) ?? call.kwargs.find(([k]) => k === defaultParam)?.[1];
        helperReads.push({
          name: arg.str,
          aliases: [],
          ...(helper.type !== undefined ? { type: helper.type } : {}),
          // The call's argument for the default parameter, else a default the helper writes itself (`os.environ.get(name, "0")`).
          ...(def ? { default: { kind: def.literal ? 'literal' : 'expression', text: def.text } } : defaultIndex === undefined && helper.default ? { default: helper.default } : {}),
          required: helper.required && !def,
          deprecated: false,
          hidden: false,
          origin: 'env-var',
          owner: info.module,
          location: arg.location,
          envSource: 'read',
        });
      }
    }
  }
  for (const info of infos) {
    for (const read of info.envReads ?? []) {
      if (read.helper && usedHelpers.has(`${info.module}:${read.helper.fn}`)) continue;
      const name = read.name ?? (read.ref !== undefined ? constantValue(host.modules, read.ref) : undefined);
      if (name === undefined) {
        dynamic.push({ prefix: read.prefix ?? '', location: read.location, construct: read.construct });
        continue;
      }
      vars.push({
        name,
        aliases: [],
        ...(read.type !== undefined ? { type: read.type } : {}),
        ...(read.default ? { default: read.default } : {}),
        required: read.required,
        deprecated: false,
        hidden: false,
        origin: 'env-var',
        owner: info.module,
        location: read.location,
        envSource: 'read',
      });
    }
  }
  vars.push(...helperReads);
  for (const { cls, fields, kind } of candidates.values()) {
    if (kind !== 'pydantic' || !isSettings(host, cls)) continue;
    const options = settingsOptions(host, cls);
    const spell = (name: string): string => (options.caseSensitive ? name : name.toUpperCase());
    for (const spec of fields) {
      const raw = rawField(host, cls, spec.name);
      const explicit = raw ? explicitNames(host, raw.module, raw.field) : undefined;
      const derived = spell(options.prefix + spec.name);
      const names = explicit ? [...explicit, ...(options.populateByName && !explicit.includes(derived) ? [derived] : [])] : [derived];
      const common = { owner: cls.qualifiedName, source: 'settings' as const, caseInsensitive: !options.caseSensitive };
      vars.push(envSpec(spec, { ...common, name: names[0]!, aliases: names.slice(1), dest: spec.name, location: spec.location }));
      if (options.delimiter !== undefined && spec.typeRef !== undefined) {
        nested(spec.typeRef, names[0]!, spec.name, spec.required, new Set([cls.qualifiedName]));
      }
      function nested(typeRef: string, envPrefix: string, path: string, required: boolean, seen: Set<string>): void {
        const model = candidates.get(typeRef);
        if (!model || seen.has(typeRef) || seen.size > 6) return;
        const inner = new Set(seen).add(typeRef);
        for (const sub of model.fields) {
          const name = envPrefix + options.delimiter! + (options.caseSensitive ? sub.name : sub.name.toUpperCase());
          const dest = `${path}.${sub.name}`;
          const subRequired = required && sub.required;
          vars.push(envSpec(sub, { ...common, name, aliases: [], dest, location: sub.location, required: subRequired }));
          if (sub.typeRef !== undefined) nested(sub.typeRef, name, dest, subRequired, inner);
        }
      }
    }
  }
  return { vars, dynamic };
}

/**
 * The env fallbacks of CLI flags (click/typer `envvar=`, click `auto_envvar_prefix`; see
 * `ParamSpec.envVars`) as `env-var` ParamSpecs with `envSource: 'flag'`: one per variable, `owner`
 * = the command's target (`pkg.cli:main`), `dest` = the flag's name as users type it (`--port`
 * → `port`), the flag's type, default, description and location. The first variable of a flag is
 * the name, the others its aliases (click tries them in order).
 */
export function flagEnvVars(commands: readonly FlagCommand[]): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const command of commands) {
    for (const param of command.params) {
      const [first, ...rest] = param.envVars ?? [];
      if (first === undefined) continue;
      out.push(envSpec({ ...param, required: false }, { name: first, aliases: rest, owner: command.target, dest: param.name, location: param.location, source: 'flag', caseInsensitive: false }));
    }
  }
  return out;
}

/** Both languages' extractions as one (either may be absent). */
export function mergeEnv(...parts: Array<EnvExtraction | undefined>): EnvExtraction {
  return { vars: parts.flatMap((p) => p?.vars ?? []), dynamic: parts.flatMap((p) => p?.dynamic ?? []) };
}
