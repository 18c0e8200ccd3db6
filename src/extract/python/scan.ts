/** Reads one parsed Python module into plain data: imports, config-class candidates with raw fields, and top-level functions. */
import { Query, type Language, type Node, type QueryMatch, type Tree } from 'web-tree-sitter';
import type { InputDiagnostic, SourceLocation } from '../../model/types.js';
import { readArgvDispatch, type ArgvBranch } from './argv-dispatch.js';
import { bindImport, nodeLocation, type Binding } from './bindings.js';
import { unknownNamedEscape } from './unicode-names.js';
import { allChildren, allNamedChildren, cleandoc, dottedName, identifierText, isOversized, namedChildren, pythonIdentifier, readCall, readValue, stringValue, unparen, type PyCall, type PyValue } from './values.js';
import { collectEnvWords, MAX_ENV_WORD_SCAN, obsoleteEnvNames } from '../../shared/env-words.js';
import { ENV_NAME_ARGUMENT, envHelperCall, mentionsEnv, scanEnvReads, SETTINGS_CONFIG_KEYS, type RawEnvCall, type RawEnvRead, type RawEnvWrite } from './env-scan.js';

export { bindImport, nodeLocation, type Binding } from './bindings.js';
export { pythonIdentifier } from './values.js';

/** An annotated class attribute, before anyone decides whether the class is a config class. */
export interface RawField {
  name: string;
  /** The name token. */
  location: SourceLocation;
  /** Annotation text as written. */
  annotation: string;
  /** Dotted head of the annotation (`ClassVar` in `ClassVar[int]`, also inside a string annotation). */
  annotationHead?: string[];
  /** Calls in `Annotated[T, …]` metadata, e.g. `Field(description=…)`. */
  annotatedCalls: PyCall[];
  /** The assigned value, when there is one. */
  value?: PyValue;
  /** The attribute docstring: a string statement right after the field, cleaned. */
  docstring?: string;
  /**
   * The comment lines right above the field, or above the run of fields it belongs to (no blank
   * line between them), without their `#`: `# Deprecated: kept for old configs` over two fields.
   */
  leadingComment?: string;
}

/** A class definition at module level or nested in another class. */
export interface RawClass {
  name: string;
  /** `module.Outer.Inner`. */
  qualifiedName: string;
  module: string;
  location: SourceLocation;
  /** Positional superclass expressions (keyword arguments such as `metaclass=` are dropped). */
  bases: Array<{ text: string; dotted?: string[] }>;
  decorators: PyValue[];
  fields: RawField[];
  /** Classes defined in the body, by name. */
  nested: Map<string, RawClass>;
  /** The enclosing class, for a nested class (its bases are looked up there first). */
  outer?: RawClass;
  /**
   * pydantic-settings options the class sets (issue #31), by key (`env_prefix`, `case_sensitive`,
   * `env_nested_delimiter`): from class keyword arguments, `model_config = SettingsConfigDict(…)`
   * (or `ConfigDict(…)`, a dict display) and a v1 `class Config:` body, later ones winning.
   * Absent when it sets none.
   */
  settingsConfig?: Map<string, PyValue>;
  /**
   * Methods of the body that change how pydantic builds or validates the class (issue #31): dunder
   * methods (`__init__`, `__new__`, `__get_validators__`, `__get_pydantic_core_schema__`) and
   * `settings_customise_sources`/`customise_sources` (the order of pydantic-settings sources).
   * Absent when none.
   */
  methods?: string[];
  /**
   * Fields that a validator method of the body names (`@validator("url", pre=True)`,
   * `@field_validator("url")`), and `*` for `"*"` or a model-wide one (`@model_validator`,
   * `@root_validator`): such a validator may turn any input into the field's value. Absent when none.
   */
  validators?: string[];
}

/** A function defined at module level (possibly decorated, sync or async). */
export interface RawFunction {
  name: string;
  /** Imports made inside the function body. */
  localBindings: Map<string, Binding>;
  /** Dotted names a parameter annotation names directly, or through `Optional[…]`, `Union[…]`, `X | None`, a string annotation. */
  annotationRefs: string[][];
  /** Calls in the body whose callee is a plain name chain, with the first positional argument when it is one too. */
  /** `splat`: the call passes `**mapping` (how a config class is built from a dict: `X(**cfg)`). */
  /** `source`: the text of what a builder call reads: `cfg` in `X.model_validate(cfg)` or `X(**cfg)`. */
  calls: Array<{ callee: string[]; firstArg?: string[]; splat?: boolean; source?: string }>;
  /** True when the function has decorators (`@hydra.main(…)`, `@draccus.wrap()`, `@app.command()`): CLI wrappers that parse the config into the annotated parameter. */
  decorated: boolean;
  /**
   * When the function switches on the name it was run as (`sys.argv[0]`): each script name it
   * compares with and the callees that branch runs (see `readArgvDispatch`). Absent otherwise.
   */
  argvDispatch?: ArgvBranch[];
}

/** Everything one Python file contributes. */
export interface ModuleInfo {
  file: string;
  module: string;
  /** True for `__init__.py` (relative imports resolve against the module itself). */
  isPackage: boolean;
  /** Module-level import bindings by local name. */
  bindings: Map<string, Binding>;
  /** Module-level `Name = dotted.name` assignments (type aliases such as `Base = pydantic.BaseModel`). */
  aliases: Map<string, string[]>;
  /** Absolute module names of `from m import *`. */
  starImports: string[];
  /** Module-level classes by name (nested ones hang off {@link RawClass.nested}). */
  classes: Map<string, RawClass>;
  /** Every class reachable by name (the first definition of each name), nested ones after their outer class. */
  allClasses: RawClass[];
  functions: Map<string, RawFunction>;
  /** Identifier-like string literals (`"policy_base_url"`): keys the code may read from a config dict. */
  stringKeys: Set<string>;
  /**
   * Module-level string constants (`ENV_VAR = "APP_TOKEN"`, `ENV_VAR: Final = "X"`) and the string
   * attributes of module-level classes (`Env.TOKEN`), the first assignment of each name: names
   * that environment reads use (issue #31). Strings of at most 200 characters.
   */
  constants: Map<string, string>;
  /** Environment reads of the file (issue #31), see `scanEnvReads` in env.ts; absent when none. */
  envReads?: RawEnvRead[];
  /** Variables the module writes into its environment (`os.environ["X"] = v`…; `scanEnvReads`); absent when none. */
  envWrites?: RawEnvWrite[];
  /**
   * Calls passing a string that looks like an environment variable's name (`env_int("APP_PORT", 8)`),
   * in case the callee is a helper that reads the variable its parameter names; absent when none.
   */
  envCalls?: RawEnvCall[];
  /**
   * Last names of the callees of calls that pass keyword arguments (`AppSettings(_env_file=…,
   * **{"SECRET": …})`), when the name starts upper-case as class names do, anywhere in the file:
   * the classes the file may build with init values (issue #31, see env-internal.ts). Absent when none.
   */
  kwargCallees?: string[];
  /** Upper-case words with an underscore in the file's text (`collectEnvWords`): names a documented variable may be mentioned by (issue #31); absent when none. */
  envWords?: string[];
  /** Variables the file names in a message saying they are obsolete (`obsoleteEnvNames`); absent when none. */
  envObsolete?: string[];
  /**
   * The cost of the class-body fields the scan read ({@link fieldCost}: one for `seed: int = 0`,
   * more for a field of a long annotation or value; a `model_config = …` counts as a field),
   * plus two per class (a class costs about as much as two plain fields), nested classes and
   * redefinitions (which {@link classes} drops) included: what the run's budget of Python class
   * fields counts (`MAX_PYTHON_CLASS_FIELDS` in index.ts). Absent: none.
   */
  classFields?: number;
  diagnostic?: InputDiagnostic;
}


/** The dotted head of an annotation expression (`typing.ClassVar` in `typing.ClassVar[int]`). */
function annotationHead(expr: Node): string[] | undefined {
  const n = unparen(expr);
  if (n.type === 'generic_type') {
    const head = namedChildren(n)[0];
    return head ? dottedName(head) : undefined;
  }
  if (n.type === 'subscript') {
    const value = n.childForFieldName('value');
    return value ? dottedName(value) : undefined;
  }
  if (n.type === 'string') {
    const text = stringValue(n)?.trim();
    if (!text) return undefined;
    const end = text.indexOf('[');
    return (end < 0 ? text : text.slice(0, end)).trim().split('.').map(pythonIdentifier);
  }
  return dottedName(n);
}

/** The type arguments of a subscripted annotation (`Optional[X]` → `[X]`). */
function typeArguments(expr: Node): Node[] {
  const n = unparen(expr);
  if (n.type === 'generic_type') {
    const params = namedChildren(n).find((c) => c.type === 'type_parameter');
    return params ? namedChildren(params).map((t) => (t.type === 'type' ? namedChildren(t)[0] ?? t : t)) : [];
  }
  if (n.type === 'subscript') return n.childrenForFieldName('subscript').filter((c): c is Node => c !== null);
  return [];
}

/** Dotted names an annotation designates as "this parameter is an X": `X`, `Optional[X]`, `Union[X, None]`, `X | None`, `"X"`. */
function collectAnnotationRefs(expr: Node, out: string[][]): void {
  const n = unparen(expr.type === 'type' ? namedChildren(expr)[0] ?? expr : expr);
  if (n.type === 'identifier' || n.type === 'attribute') {
    const dotted = dottedName(n);
    if (dotted) out.push(dotted);
    return;
  }
  if (n.type === 'binary_operator') {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left) collectAnnotationRefs(left, out);
    if (right) collectAnnotationRefs(right, out);
    return;
  }
  if (n.type === 'string') {
    const text = stringValue(n)?.trim();
    const parts = text?.split('.');
    if (parts && parts.every(isIdentifier)) out.push(parts.map(pythonIdentifier));
    return;
  }
  const head = annotationHead(n)?.at(-1);
  const args = typeArguments(n);
  if (head === 'Optional' || head === 'Union') for (const arg of args) collectAnnotationRefs(arg, out);
  else if (head === 'Annotated' && args[0]) collectAnnotationRefs(args[0], out);
}

function isIdentifier(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const ok = code === 95 || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (i > 0 && code >= 48 && code <= 57) || code > 127;
    if (!ok) return false;
  }
  return true;
}

/** Reads an annotated assignment `name: T [= value]` in a class body, or returns undefined. */
function readField(file: string, statement: Node, next: Node | undefined, type = statement.type): RawField | undefined {
  if (type !== 'expression_statement') return undefined;
  const parts = namedChildren(statement);
  const assignment = parts[0];
  if (parts.length !== 1 || !assignment || assignment.type !== 'assignment') return undefined;
  const left = assignment.childForFieldName('left');
  const typeNode = assignment.childForFieldName('type');
  if (!left || left.type !== 'identifier' || !typeNode) return undefined;
  const right = assignment.childForFieldName('right');
  const expr = namedChildren(typeNode)[0] ?? typeNode;
  const head = annotationHead(expr);
  const annotatedCalls: PyCall[] = [];
  if (head?.at(-1) === 'Annotated') {
    for (const meta of typeArguments(expr).slice(1)) {
      const m = unparen(meta.type === 'type' ? namedChildren(meta)[0] ?? meta : meta);
      if (m.type === 'call') annotatedCalls.push(readCall(m));
    }
  }
  const field: RawField = { name: pythonIdentifier(left.text), location: nodeLocation(file, left), annotation: typeNode.text, annotatedCalls };
  if (head) field.annotationHead = head;
  // `x: int = y = 1` has another assignment as its right side; its value is the innermost one.
  let valueNode = right;
  while (valueNode && valueNode.type === 'assignment') valueNode = valueNode.childForFieldName('right');
  if (valueNode) field.value = readValue(valueNode);
  if (next && next.type === 'expression_statement') {
    const only = namedChildren(next);
    const doc = only.length === 1 && only[0] ? stringValue(only[0]) : undefined;
    if (doc !== undefined) field.docstring = cleandoc(doc);
  }
  return field;
}

function readClass(info: ModuleInfo, node: Node, decorators: Node[], prefix: string, outer?: RawClass): RawClass | undefined {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return undefined;
  const name = pythonIdentifier(nameNode.text);
  const qualifiedName = `${prefix}${name}`;
  const bases: RawClass['bases'] = [];
  const settings = new Map<string, PyValue>();
  const superclasses = node.childForFieldName('superclasses');
  if (superclasses) {
    for (const arg of namedChildren(superclasses)) {
      if (arg.type === 'keyword_argument') {
        // `class Settings(BaseSettings, env_prefix="APP_")`: pydantic v2 class keyword config.
        const key = identifierText(arg.childForFieldName('name'));
        const value = arg.childForFieldName('value');
        if (key !== undefined && value && SETTINGS_CONFIG_KEYS.has(key)) settings.set(key, readValue(value));
        continue;
      }
      if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') continue;
      let target = unparen(arg);
      if (target.type === 'subscript') target = target.childForFieldName('value') ?? target; // Generic[T], Base[int]
      const dotted = dottedName(target);
      bases.push(dotted ? { text: arg.text, dotted } : { text: arg.text });
    }
  }
  const cls: RawClass = {
    name,
    qualifiedName,
    module: info.module,
    location: nodeLocation(info.file, nameNode),
    bases,
    decorators: decorators.map((d) => readValue(namedChildren(d)[0] ?? d)),
    fields: [],
    nested: new Map(),
  };
  if (outer) cls.outer = outer;
  info.classFields = (info.classFields ?? 0) + 2;
  const body = node.childForFieldName('body');
  if (settings.size > 0) cls.settingsConfig = settings;
  if (!body) return cls;
  // Comments kept (a field's leading comment); `namedChildren` drops them.
  const statements = allNamedChildren(body).filter((c): c is Node => c !== null);
  // The next statement that is no comment, per index (one backward pass: linear in the body).
  const nextCode: Array<Node | undefined> = new Array(statements.length);
  for (let i = statements.length - 2, next: Node | undefined; i >= 0; i--) {
    const after = statements[i + 1]!;
    if (after.type !== 'comment') next = after;
    nextCode[i] = next;
  }
  const nextStatement = (i: number): Node | undefined => nextCode[i];
  // What the class's fields cost the run's budget (`fieldCost`), counted below.
  let cost = 0;
  // Comment lines just read (text, last row), and the comment of the run of fields being read.
  let pending: { text: string; end: number } | undefined;
  let group: { text: string; end: number } | undefined;
  for (let i = 0; i < statements.length; i++) {
    const statement = statements[i] as Node;
    const type = statement.type;
    const row = statement.startPosition.row;
    if (type === 'comment') {
      const text = statement.text.replace(/^#+\s?/, '').trim();
      pending = pending && pending.end === row - 1 ? { text: `${pending.text} ${text}`.trim(), end: row } : { text, end: row };
      continue;
    }
    if (pending && pending.end === row - 1) group = pending;
    else if (!(group && group.end === row - 1)) group = undefined;
    pending = undefined;
    if (group) group = { text: group.text, end: statement.endPosition.row };
    if (type === 'function_definition' || type === 'decorated_definition') {
      const [def, decos] = unwrapDecorated(statement);
      if (def?.type === 'function_definition') {
        readMethod(cls, def, decos);
        continue;
      }
    }
    if (type === 'class_definition' || type === 'decorated_definition') {
      const [def, decos] = unwrapDecorated(statement);
      if (def?.type === 'class_definition') {
        const nested = readClass(info, def, decos, `${qualifiedName}.`, cls);
        // A name defined twice (e.g. in both branches of an `if`): the first definition wins.
        if (nested && !cls.nested.has(nested.name)) cls.nested.set(nested.name, nested);
        // pydantic v1 `class Config: env_prefix = "APP_"` (pydantic-settings still reads it).
        if (nested?.name === 'Config') for (const [key, value] of plainClassAssignments(def, SETTINGS_CONFIG_KEYS)) settings.set(key, value);
      }
      continue;
    }
    const modelConfig = modelConfigEntries(statement);
    if (modelConfig) {
      for (const [key, value] of modelConfig) settings.set(key, value);
      cost += fieldCost(statement);
    }
    const field = readField(info.file, statement, nextStatement(i), type);
    if (field && group && group.text !== '') field.leadingComment = group.text;
    if (field) {
      cls.fields.push(field);
      cost += fieldCost(statement);
    }
  }
  if (settings.size > 0) cls.settingsConfig = settings;
  info.classFields = (info.classFields ?? 0) + cost;
  return cls;
}

/** Syntax nodes (named or not) of a class field's statement per unit of the run's class-field budget: `seed: int = 0` has 8 (see {@link fieldCost}). */
export const FIELD_COST_NODES = 12;
/** Characters of a class field's statement per unit of the run's class-field budget (see {@link fieldCost}). */
export const FIELD_COST_CHARS = 64;

/**
 * What one class-body field (or `model_config = …`) statement costs the run's budget of Python
 * class fields ({@link ModuleInfo.classFields}): one unit per {@link FIELD_COST_NODES} syntax
 * nodes or per {@link FIELD_COST_CHARS} characters of the statement, whichever is more, at least
 * one. Reading a field costs memory and time in proportion to the objects its annotation and
 * value make (#33 K5-heavy: `seed: int = 0`, 8 nodes, about 2.7 KB of peak memory over a run;
 * `Annotated[Optional[int], Field(default, ge, le, alias, description)]`, 57 nodes, about 13 KB)
 * and to the text it copies (a 3 KB `description` about 100 KB): a plain field costs 1, that
 * `Annotated` field 5, the long description 47. Both counts are read from the tree in constant time.
 */
export function fieldCost(statement: Node): number {
  return Math.max(1, Math.ceil(statement.descendantCount / FIELD_COST_NODES), Math.ceil((statement.endIndex - statement.startIndex) / FIELD_COST_CHARS));
}

/** Method names recorded in {@link RawClass.methods}: dunders and the pydantic-settings source hooks. */
const NOTED_METHOD = /^(?:__\w+__|settings_customise_sources|customise_sources|_settings_build_values)$/;
/** Decorators of pydantic validators: per field (named by string arguments) and model-wide. */
const FIELD_VALIDATORS = new Set(['validator', 'field_validator']);
const MODEL_VALIDATORS = new Set(['root_validator', 'model_validator']);

/** Records a method of a class body in {@link RawClass.methods} and {@link RawClass.validators}. */
function readMethod(cls: RawClass, def: Node, decorators: Node[]): void {
  const name = identifierText(def.childForFieldName('name'));
  if (name !== undefined && NOTED_METHOD.test(name)) (cls.methods ??= []).push(name);
  for (const decorator of decorators) {
    const value = readValue(namedChildren(decorator)[0] ?? decorator);
    const last = (value.call?.callee ?? value.dotted)?.at(-1);
    if (last !== undefined && MODEL_VALIDATORS.has(last)) (cls.validators ??= []).push('*');
    else if (last !== undefined && FIELD_VALIDATORS.has(last)) for (const arg of value.call?.args ?? []) (cls.validators ??= []).push(arg.str ?? '*');
  }
}

/** The single assignment of an expression statement (`x = v`, `x: T = v`), or undefined. */
function assignmentOf(statement: Node): Node | undefined {
  if (statement.type !== 'expression_statement') return undefined;
  const parts = namedChildren(statement);
  return parts.length === 1 && parts[0]?.type === 'assignment' ? parts[0] : undefined;
}

/**
 * `model_config = SettingsConfigDict(env_prefix="APP_")` (any call: `ConfigDict`, `dict`) or
 * `model_config = {"env_prefix": "APP_"}`, annotated or not: its entries whose key is in
 * {@link SETTINGS_CONFIG_KEYS}. Undefined for any other statement.
 */
function modelConfigEntries(statement: Node): Array<[string, PyValue]> | undefined {
  const assignment = assignmentOf(statement);
  if (!assignment || identifierText(assignment.childForFieldName('left')) !== 'model_config') return undefined;
  const right = assignment.childForFieldName('right');
  if (!right) return undefined;
  // Only the settings keys' values are read (as `readValue(right)` would read them: a value 64 KB
  // or longer is none), not the rest (#33 K5-heavy: a `json_schema_extra` dict of 300 entries in
  // each of 1,100 classes took 42 s of CPU when read whole).
  const out: Array<[string, PyValue]> = [];
  const n = unparen(right);
  const type = n.type;
  if ((type !== 'call' && type !== 'dictionary') || isOversized(n)) return out;
  if (type === 'call') {
    const args = n.childForFieldName('arguments');
    if (!args || args.type !== 'argument_list') return out;
    // The last value of a keyword given twice, in the order of its first (as `PyCall.kwargs`).
    const kwargs = new Map<string, PyValue>();
    for (const arg of namedChildren(args)) {
      if (arg.type !== 'keyword_argument') continue;
      const name = arg.childForFieldName('name');
      const value = arg.childForFieldName('value');
      const key = name ? pythonIdentifier(name.text) : undefined;
      if (key !== undefined && value && SETTINGS_CONFIG_KEYS.has(key)) kwargs.set(key, readValue(value, 1));
    }
    out.push(...kwargs);
    return out;
  }
  for (const entry of namedChildren(n)) {
    const key = entry.type === 'pair' ? entry.childForFieldName('key') : null;
    const value = entry.type === 'pair' ? entry.childForFieldName('value') : null;
    const str = key && value ? readValue(key, 1).str : undefined;
    if (str !== undefined && SETTINGS_CONFIG_KEYS.has(str)) out.push([str, readValue(value!, 1)]);
  }
  return out;
}

/** `name = value` statements (annotated or not) directly in a class body whose name is in `keys`. */
function plainClassAssignments(def: Node, keys: ReadonlySet<string>): Array<[string, PyValue]> {
  const out: Array<[string, PyValue]> = [];
  const body = def.childForFieldName('body');
  for (const statement of body ? namedChildren(body) : []) {
    const assignment = assignmentOf(statement);
    const left = assignment?.childForFieldName('left');
    const right = assignment?.childForFieldName('right');
    const name = left?.type === 'identifier' ? pythonIdentifier(left.text) : undefined;
    if (name !== undefined && right && keys.has(name)) out.push([name, readValue(right)]);
  }
  return out;
}

function unwrapDecorated(node: Node): [Node | undefined, Node[]] {
  if (node.type !== 'decorated_definition') return [node, []];
  const decorators = namedChildren(node).filter((c) => c.type === 'decorator');
  return [node.childForFieldName('definition') ?? undefined, decorators];
}

/** A function and its body node, read after the module-level walk. */
interface FunctionRange {
  fn: RawFunction;
  body: Node;
}

function readFunction(node: Node, ranges: FunctionRange[], decorated = false): RawFunction | undefined {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return undefined;
  const fn: RawFunction = { name: pythonIdentifier(nameNode.text), localBindings: new Map(), annotationRefs: [], calls: [], decorated };
  const parameters = node.childForFieldName('parameters');
  if (parameters) {
    for (const param of namedChildren(parameters)) {
      if (param.type !== 'typed_parameter' && param.type !== 'typed_default_parameter') continue;
      const type = param.childForFieldName('type');
      if (type) collectAnnotationRefs(type, fn.annotationRefs);
    }
  }
  const body = node.childForFieldName('body');
  if (body) ranges.push({ fn, body });
  return fn;
}

/**
 * Captures every string literal's content, every call with a name-chain callee and every import
 * statement in one query run per file: crossing into wasm once per file, rather than once per
 * function body plus once for the strings, keeps large repositories fast.
 */
const MODULE_QUERY = `
(string_content) @s
(call function: [(identifier) (attribute)] @callee) @call
(import_statement) @import
(import_from_statement) @import
`;

const queries = new WeakMap<Language, Query>();

/** A string literal that could be a config key: a Python identifier, possibly dotted. */
const IDENTIFIER_KEY = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** The {@link MODULE_QUERY} of `language`, compiled once per language. */
export function moduleQuery(language: Language): Query {
  let query = queries.get(language);
  if (!query) {
    query = new Query(language, MODULE_QUERY);
    queries.set(language, query);
  }
  return query;
}

/**
 * `a.b.c` → segments, reading the node text when it is a plain chain (the common case) to avoid
 * walking the node; a plain chain seen before in the module (`seen`, by text) returns the same array.
 */
function calleeSegments(node: Node, seen: Map<string, string[]>): string[] | undefined {
  const text = node.text;
  const known = seen.get(text);
  if (known) return known;
  let plain = true;
  for (let i = 0; i < text.length && plain; i++) {
    const code = text.charCodeAt(i);
    plain = code === 46 || code === 95 || (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;
  }
  if (plain) {
    const parts = pythonIdentifier(text).split('.');
    if (parts.every((p) => p !== '')) {
      seen.set(text, parts);
      return parts;
    }
  }
  return dottedName(node);
}

/** Source characters of top-level statements whose matches {@link chunkedMatches} asks for at once. */
const CAPTURE_CHUNK = 64 * 1024;

/**
 * `query.matches(root)` in document order, asked for a run of top-level statements of about
 * {@link CAPTURE_CHUNK} characters at a time: the captures of a whole 2.4 MB module (187,000
 * objects, each with a node) were alive at once, most of the JS heap's peak (#33 fresh sweep
 * defect 7). No node spans two runs (each lies inside one top-level statement, and runs are cut
 * between statements), so each match comes once.
 *
 * Matches, not captures: web-tree-sitter's `captures` wraps every node of a match once per
 * capture it returns (a call and its callee: four node wrappers, where a match makes two), and the
 * call of a callee had to be found again. For {@link MODULE_QUERY} the matches of each pattern come
 * in the order `captures` gave their captures (each match finishes on entering its last node, a
 * callee being the first child of its call; checked on 5,156 files of the corpus).
 */
function* chunkedMatches(query: Query, root: Node): Generator<QueryMatch> {
  const count = root.childCount;
  if (root.endIndex - root.startIndex <= CAPTURE_CHUNK || count === 0) {
    yield* query.matches(root);
    return;
  }
  let i = 0;
  while (i < count) {
    const start = root.child(i)!.startIndex;
    let end = root.child(i)!.endIndex;
    i++;
    while (i < count && end - start < CAPTURE_CHUNK) end = root.child(i++)!.endIndex;
    // A node touching a cut (a comment right after a statement) could be given to both runs: each keeps its own.
    // The query's range is in bytes of the UTF-16 text web-tree-sitter parses: two per code unit of `startIndex`.
    // Every capture of a match starts where the match's first one does (a callee starts its call).
    for (const match of query.matches(root, { startIndex: start * 2, endIndex: end * 2 })) {
      const first = match.captures[0]?.node;
      if (first && first.startIndex >= start && first.startIndex < end) yield match;
    }
  }
}

/**
 * Fills in the string keys of the module, and the calls and local imports of each top-level
 * function: calls and imports count only inside a function body (byte ranges), so method bodies
 * and module-level code contribute none.
 */
function readFunctionBodies(info: ModuleInfo, root: Node, ranges: FunctionRange[]): void {
  // One query run over the whole module (string literals, calls, imports) instead of one per
  // function body: each match goes to the bodies that contain it, in document order as before.
  const spans = ranges.map(({ fn, body }) => ({ fn, start: body.startIndex, end: body.endIndex })).sort((a, b) => a.start - b.start);
  let first = 0;
  // Large modules repeat the same calls (`cfg.get(...)`, `print(...)`) hundreds of times: equal
  // callee chains and equal call records are shared within the module (nothing mutates them),
  // which keeps the scans of a big repository small while they are all alive.
  const callees = new Map<string, string[]>();
  const records = new Map<string, RawFunction['calls'][number]>();
  const envCallsSeen = new Set<number>();
  const kwargCallees = new Set<string>();
  for (const match of chunkedMatches(moduleQuery(root.tree.language), root)) {
    const captures = match.captures;
    let node = captures[0]!.node;
    let kind = captures[0]!.name;
    // The call pattern's match holds the call and its callee (the call's `function` field).
    let call: Node | undefined;
    if (captures.length > 1) {
      for (const capture of captures) {
        if (capture.name === 'call') call = capture.node;
        else {
          node = capture.node;
          kind = capture.name;
        }
      }
    }
    if (kind === 's') {
      const text = node.text;
      if (text.length <= 80 && IDENTIFIER_KEY.test(text)) info.stringKeys.add(text);
      // `env_int("APP_PORT", 8000)`: a call that may go to a helper reading the environment.
      if (ENV_NAME_ARGUMENT.test(text)) {
        const envCall = envHelperCall(info.file, node, envCallsSeen);
        if (envCall) (info.envCalls ??= []).push(envCall);
      }
      continue;
    }
    // The call's argument list, read once when wanted.
    let args: Node | null | undefined;
    const argumentsOf = (): Node | null => (args === undefined ? (args = (call ?? node.parent)?.childForFieldName('arguments') ?? null) : args);
    if (kind === 'callee') noteKwargCallee(node, argumentsOf, kwargCallees);
    const start = node.startIndex;
    const end = node.endIndex;
    while (first < spans.length && spans[first]!.end <= start) first++;
    for (let i = first; i < spans.length && spans[i]!.start <= start; i++) {
      const { fn, end: bodyEnd } = spans[i]!;
      if (end > bodyEnd) continue;
      if (kind === 'import') {
        bindImport(info, node, fn.localBindings, false);
        continue;
      }
      const callee = calleeSegments(node, callees);
      if (!callee) continue;
      let firstArg: string[] | undefined;
      const argList = argumentsOf();
      // Each argument's type is read once (a call into wasm): the first one, the first `**x`,
      // the first positional argument. Comments are not arguments.
      let firstType: string | undefined;
      let firstNode: Node | undefined;
      let splatNode: Node | undefined;
      let positional: Node | undefined;
      if (argList?.type === 'argument_list') {
        for (const arg of allNamedChildren(argList)) {
          if (!arg) continue;
          const type = arg.type;
          if (type === 'comment') continue;
          if (firstNode === undefined) {
            firstNode = arg;
            firstType = type;
          }
          if (type === 'dictionary_splat') {
            splatNode = arg;
            break; // the positional argument, if any, came before it
          }
          if (positional === undefined && type !== 'keyword_argument') positional = arg;
        }
      }
      if (callee.at(-1) === 'TypeAdapter') {
        firstArg = firstNode && firstType !== 'keyword_argument' ? dottedName(firstNode) : undefined;
      }
      const source = splatNode ? splatNode.text.replace(/^\*\*\s*/, '') : positional?.text;
      const kept = source !== undefined && source.length <= 200 ? source : undefined;
      // Names never hold NUL; the source, last, may hold anything.
      const key = `${callee.join('.')}\0${firstArg ? `=${firstArg.join('.')}` : ''}\0${splatNode ? 1 : 0}\0${kept === undefined ? '' : `=${kept}`}`;
      let record = records.get(key);
      if (!record) {
        record = {
          callee,
          ...(firstArg ? { firstArg } : {}),
          ...(splatNode ? { splat: true } : {}),
          ...(kept !== undefined ? { source: kept } : {}),
        };
        records.set(key, record);
      }
      fn.calls.push(record);
    }
  }
  if (kwargCallees.size > 0) info.kwargCallees = [...kwargCallees];
}

/**
 * Adds to `into` the last name of `callee` when it starts upper-case and its call passes a keyword
 * argument or a dict splat (`**{…}`, `**dict(…)`): see {@link ModuleInfo.kwargCallees}.
 * `argumentsOf` gives the call's `arguments` node.
 */
function noteKwargCallee(callee: Node, argumentsOf: () => Node | null, into: Set<string>): void {
  const text = pythonIdentifier(callee.text);
  const dot = text.lastIndexOf('.');
  const head = text.charCodeAt(dot + 1);
  if (head < 65 || head > 90) return;
  const name = text.slice(dot + 1).trim();
  if (into.has(name)) return;
  const args = argumentsOf();
  if (args?.type !== 'argument_list') return;
  // Most such calls pass positional arguments only (`ValueError("…")`): their text says so.
  const argsText = args.text;
  if (!argsText.includes('=') && !argsText.includes('**')) return;
  for (const arg of allNamedChildren(args)) {
    if (arg?.type === 'keyword_argument' || arg?.type === 'dictionary_splat') {
      into.add(name);
      return;
    }
  }
}

const CONTAINERS = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause',
  'finally_clause', 'with_statement', 'block', 'ERROR',
]);

function visitModuleLevel(info: ModuleInfo, node: Node, inExcept: boolean, ranges: FunctionRange[]): void {
  for (const child of namedChildren(node)) {
    switch (child.type) {
      case 'import_statement':
      case 'import_from_statement':
        bindImport(info, child, info.bindings, inExcept);
        break;
      case 'class_definition':
      case 'function_definition':
      case 'decorated_definition': {
        const [def, decorators] = unwrapDecorated(child);
        // `try: from ._main import main` / `except ImportError: def main(): print("pip install x[cli]")`:
        // the stub in the except clause stands in for the import when an optional dependency is
        // missing; the name is the imported one (httpx's CLI).
        const defined = identifierText(def?.childForFieldName('name'));
        if (inExcept && defined !== undefined && info.bindings.has(defined)) break;
        if (def?.type === 'class_definition') {
          const cls = readClass(info, def, decorators, info.module === '' ? '' : `${info.module}.`);
          // `class Env: TOKEN = "APP_TOKEN"`: names read as `Env.TOKEN`.
          const body = cls ? def.childForFieldName('body') : null;
          for (const statement of body ? namedChildren(body) : []) {
            const assignment = assignmentOf(statement);
            if (assignment) recordConstant(info.constants, `${cls!.name}.`, assignment);
          }
          if (cls && !info.classes.has(cls.name)) info.classes.set(cls.name, cls);
        } else if (def?.type === 'function_definition') {
          const fn = readFunction(def, ranges, decorators.length > 0);
          if (fn && !info.functions.has(fn.name)) info.functions.set(fn.name, fn);
        }
        break;
      }
      case 'expression_statement': {
        const assignment = namedChildren(child)[0];
        if (assignment?.type === 'assignment') recordConstant(info.constants, '', assignment);
        if (assignment?.type !== 'assignment' || assignment.childForFieldName('type')) break;
        const left = assignment.childForFieldName('left');
        const right = assignment.childForFieldName('right');
        const target = right ? dottedName(right) : undefined;
        const name = left?.type === 'identifier' ? pythonIdentifier(left.text) : undefined;
        if (name !== undefined && target && !info.aliases.has(name)) info.aliases.set(name, target);
        break;
      }
      default:
        if (CONTAINERS.has(child.type)) {
          visitModuleLevel(info, child, inExcept || child.type === 'except_clause' || child.type === 'except_group_clause', ranges);
        }
    }
  }
}

/** Records `NAME = "text"` (annotated or not) under `prefix + NAME` unless the name is known already. */
function recordConstant(constants: Map<string, string>, prefix: string, assignment: Node): void {
  const left = assignment.childForFieldName('left');
  const right = assignment.childForFieldName('right');
  if (left?.type !== 'identifier' || (right?.type !== 'string' && right?.type !== 'concatenated_string')) return;
  const key = `${prefix}${pythonIdentifier(left.text)}`;
  if (constants.has(key) || right.endIndex - right.startIndex > 210) return;
  const value = stringValue(right);
  if (value !== undefined && value.length <= 200) constants.set(key, value);
}

/** Fills {@link RawFunction.argvDispatch} of the functions whose body reads `sys.argv[0]`. */
function readArgvDispatchers(root: Node, ranges: FunctionRange[]): void {
  let dicts: Map<string, Node> | undefined;
  const moduleDict = (name: string): Node | undefined => {
    if (!dicts) {
      dicts = new Map();
      for (const statement of namedChildren(root)) {
        const assignment = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
        const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
        const right = assignment?.childForFieldName('right');
        const name = left?.type === 'identifier' ? pythonIdentifier(left.text) : undefined;
        if (name !== undefined && right?.type === 'dictionary' && !dicts.has(name)) dicts.set(name, right);
      }
    }
    return dicts.get(name);
  };
  for (const { fn, body } of ranges) {
    const branches = readArgvDispatch(body, moduleDict);
    if (branches.length > 0) fn.argvDispatch = branches;
  }
}

/** The first ERROR or MISSING node in document order, descending only into subtrees that contain one. */
function firstErrorNode(root: Node): Node | undefined {
  let node: Node = root;
  for (;;) {
    if (node.isMissing) return node;
    // An ERROR node often wraps the whole statement it could not finish (`class …:` down to the
    // bad token); a nested ERROR inside it is closer to the real mistake, so keep descending.
    let nextNode: Node | undefined;
    for (const child of allChildren(node)) {
      if (child && (child.hasError || child.isMissing)) {
        nextNode = child;
        break;
      }
    }
    if (!nextNode) return node === root ? undefined : node;
    node = nextNode;
  }
}

/**
 * Scans one parsed module. The caller owns `tree` and deletes it afterwards; nothing returned here
 * keeps a reference to tree-sitter nodes.
 */
export function scanModule(file: string, module: string, tree: Tree): ModuleInfo {
  const info: ModuleInfo = {
    file,
    module,
    isPackage: /(^|\/)__init__\.pyi?$/.test(file),
    bindings: new Map(),
    aliases: new Map(),
    starImports: [],
    classes: new Map(),
    allClasses: [],
    functions: new Map(),
    stringKeys: new Set(),
    constants: new Map(),
  };
  const root = tree.rootNode;
  const ranges: FunctionRange[] = [];
  visitModuleLevel(info, root, false, ranges);
  readFunctionBodies(info, root, ranges);
  if (mentionsEnv(root)) {
    const writes: RawEnvWrite[] = [];
    const reads = scanEnvReads(info, root, writes);
    if (reads.length > 0) info.envReads = reads;
    if (writes.length > 0) info.envWrites = writes;
  }
  if (root.text.length <= MAX_ENV_WORD_SCAN) {
    const words = new Set<string>();
    collectEnvWords(root.text, words);
    if (words.size > 0) info.envWords = [...words];
    const obsolete = words.size > 0 ? obsoleteEnvNames(root.text) : [];
    if (obsolete.length > 0) info.envObsolete = obsolete;
  }
  readArgvDispatchers(root, ranges);
  const collect = (classes: Iterable<RawClass>): void => {
    for (const cls of classes) {
      info.allClasses.push(cls);
      collect(cls.nested.values());
    }
  };
  collect(info.classes.values());
  if (root.hasError) {
    const bad = firstErrorNode(root);
    const location = nodeLocation(file, bad ?? root);
    const what = bad?.isMissing ? `missing \`${bad.type}\`` : 'unexpected syntax';
    info.diagnostic = {
      ruleId: 'parse-error',
      // A broken .py file is Python's own tooling's finding, not drift: the run reads what
      // tree-sitter recovers and reports it as a warning, so it cannot block a docs check.
      severity: 'warn',
      message: `${file}:${location.line}:${location.column}: Python syntax error (${what}); definitions in the rest of the file are read where the parser recovers`,
      location: { file, line: location.line, column: location.column },
    };
  }
  // An unknown `\N{name}` escape: CPython refuses the file (s47 sweep J3).
  info.diagnostic ??= unknownNamedEscape(file, root);
  return info;
}
