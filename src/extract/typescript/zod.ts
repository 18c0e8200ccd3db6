/** Reads zod object schemas (`z.object({…})`, `.extend`, `.merge`, `.pick`/`.omit`, `.partial`) and their fields' types, defaults and descriptions, statically. */
import { ts } from 'ts-morph';
import type { ConfigClass, DefaultValue, ParamSpec } from '../../model/types.js';
import type { ConfigAnalysis, Owner, Shape } from './types.js';
import type { ModuleInfo } from './scan.js';
import { defaultOf, dottedName, isLiteral, locationOf, propertyName, readDoc, skipOuter } from './syntax.js';

/** Factories that build an object schema (zod 3 and 4). */
const OBJECT_FACTORIES = new Set(['object', 'strictObject', 'looseObject']);
/** Schema methods that return an object schema with the same keys (possibly different strictness or optionality). */
const SAME_KEYS = new Set([
  'strict', 'strip', 'passthrough', 'catchall', 'describe', 'meta', 'readonly', 'brand', 'refine', 'superRefine',
  'check', 'transform', 'default', 'prefault', 'optional', 'nullable', 'nullish', 'catch', 'pipe',
]);
/** Schema methods that change an object schema's keys; a field schema ending in one of them is an object. */
const OBJECT_METHODS = new Set(['extend', 'safeExtend', 'merge', 'pick', 'omit', 'partial', 'deepPartial', 'required', 'strict', 'strip', 'passthrough', 'catchall']);
/** Factories whose schema type is a keyword (also read by the env-schema reader, env.ts). */
export const KEYWORD_TYPES: Record<string, string> = {
  string: 'string', number: 'number', boolean: 'boolean', bigint: 'bigint', symbol: 'symbol', date: 'Date',
  undefined: 'undefined', null: 'null', void: 'void', never: 'never', nan: 'number', int: 'number', int32: 'number',
  float32: 'number', float64: 'number', email: 'string', url: 'string', uuid: 'string', guid: 'string', stringbool: 'boolean',
};
/** `Schema.parse`-like methods: the result is an instance of the schema's type. */
export const ZOD_PARSE_METHODS = new Set(['parse', 'safeParse', 'parseAsync', 'safeParseAsync']);

/** What a field schema says about the field. */
interface ZodInfo {
  type?: string;
  optional: boolean;
  default?: DefaultValue;
  description?: string;
  deprecated?: boolean | string;
  typeRef?: string;
  openNamespace?: boolean;
  /** `z.record(z.string(), Server)`: the config type of the values (see `ParamSpec.valueTypeRef`). */
  valueTypeRef?: string;
}

/** Where a field schema sits: nested inline objects become synthetic types named after it. */
interface FieldContext {
  owner: Owner;
  field: string;
  nameNode: ts.Node;
}

function isZodSpecifier(specifier: string): boolean {
  return specifier === 'zod' || specifier.startsWith('zod/') || specifier === '@zod/mini';
}

/**
 * True when `name` is the zod namespace in `module`: imported from a `zod` module as `z`, as a
 * namespace or default import, or any import named `z` (a project re-export such as
 * `import { z } from './zod.js'`), or an unbound `z` (a global).
 */
function isZodNamespace(module: ModuleInfo, name: string): boolean {
  const binding = module.imports.get(name);
  if (binding) return binding.imported === 'z' || (isZodSpecifier(binding.specifier) && (binding.imported === '*' || binding.imported === 'default'));
  return name === 'z' && !module.values.has('z');
}

/** The zod factory a callee names (`z.object`, `z.coerce.number`, `object` imported from `zod`), else `undefined`. */
function zodFactory(module: ModuleInfo, callee: ts.Expression): string | undefined {
  if (ts.isPropertyAccessExpression(callee)) {
    const base = callee.expression;
    if (ts.isIdentifier(base) && isZodNamespace(module, base.text)) return callee.name.text;
    if (ts.isPropertyAccessExpression(base) && base.name.text === 'coerce' && ts.isIdentifier(base.expression) && isZodNamespace(module, base.expression.text)) {
      return callee.name.text;
    }
    return undefined;
  }
  if (ts.isIdentifier(callee)) {
    const binding = module.imports.get(callee.text);
    if (binding && isZodSpecifier(binding.specifier) && binding.imported !== '*' && binding.imported !== 'default') return binding.imported;
  }
  return undefined;
}

/** `z.infer<typeof S>` (also `z.input`, `z.output`, `z.TypeOf`, or those names imported from zod) → the config type of schema `S`. */
export function zodInferTarget(analysis: ConfigAnalysis, module: ModuleInfo, ref: ts.TypeReferenceNode): ConfigClass | undefined {
  const name = dottedName(ref.typeName);
  const query = ref.typeArguments?.[0];
  if (!name || !query || !ts.isTypeQueryNode(query)) return undefined;
  const [head, last] = [name[0] as string, name.at(-1) as string];
  const inferName = name.length === 2 ? isZodNamespace(module, head) : name.length === 1 && isZodSpecifier(module.imports.get(head)?.specifier ?? '');
  if (!inferName || !['infer', 'input', 'output', 'TypeOf', 'Infer'].includes(name.length === 2 ? last : (module.imports.get(head)?.imported ?? ''))) return undefined;
  const target = dottedName(query.exprName);
  return target ? schemaConfig(analysis, module, target) : undefined;
}

/** The zod object config type a value name (`Options`, `ns.Options`) resolves to, if it has fields. */
export function schemaConfig(analysis: ConfigAnalysis, module: ModuleInfo, dotted: string[]): ConfigClass | undefined {
  const resolved = analysis.resolver.resolve(module, dotted, 'values');
  if (resolved?.kind !== 'declaration' || resolved.decl.kind !== 'variable') return undefined;
  const config = analysis.configOrPending(resolved.module, resolved.decl);
  return config && (config.fields.length > 0 || analysis.isPending(resolved.decl)) ? config : undefined;
}

/**
 * Reads an object-schema expression into its fields, or `undefined` when it is not one.
 * Follows zod's semantics (https://zod.dev/api#objects): `.extend({…})` and
 * `.extend(Y.shape)` add or replace keys after the base's, `.merge(Y)` likewise with Y's
 * keys, `.pick`/`.omit` filter by the keys of their mask, `.partial()` makes every (or every
 * masked) key optional, `.required()` the reverse, and modifiers that keep the keys
 * (`.strict()`, `.describe()`, `.refine()`, …) pass through. A name resolving to another
 * schema contributes that schema's fields and becomes a base.
 */
export function readZodObject(analysis: ConfigAnalysis, module: ModuleInfo, expr: ts.Expression, owner: Owner, seen: Set<ts.Node>): Shape | undefined {
  const e = skipOuter(expr);
  if (seen.has(e)) return undefined;
  seen.add(e);
  if (ts.isCallExpression(e)) {
    const factory = zodFactory(module, e.expression);
    if (factory !== undefined) {
      if (OBJECT_FACTORIES.has(factory)) {
        const arg = e.arguments[0];
        const fields = new Map<string, ParamSpec>();
        if (arg) addLiteralFields(analysis, module, arg, owner, fields, seen);
        return { fields, bases: [] };
      }
      if (factory === 'lazy') {
        const body = lazyBody(e.arguments[0]);
        return body ? readZodObject(analysis, module, body, owner, seen) : undefined;
      }
      return undefined;
    }
    if (!ts.isPropertyAccessExpression(e.expression)) return undefined;
    const method = e.expression.name.text;
    const base = readZodObject(analysis, module, e.expression.expression, owner, seen);
    if (!base) return undefined;
    const arg = e.arguments[0];
    const fields = new Map(base.fields);
    switch (method) {
      case 'extend':
      case 'safeExtend':
        if (arg) addLiteralFields(analysis, module, arg, owner, fields, seen);
        return { fields, bases: base.bases };
      case 'merge': {
        const other = arg ? readZodObject(analysis, module, arg, owner, seen) : undefined;
        if (!other) return { fields, bases: [...base.bases, ...(arg ? [arg.getText(module.sf)] : [])] };
        for (const spec of other.fields.values()) fields.set(spec.name, spec);
        return { fields, bases: [...base.bases, ...other.bases] };
      }
      case 'pick':
      case 'omit': {
        const keys = arg ? maskKeys(arg) : undefined;
        if (!keys) return base;
        for (const key of [...fields.keys()]) if (keys.has(key) !== (method === 'pick')) fields.delete(key);
        return { fields, bases: base.bases };
      }
      case 'partial':
      case 'deepPartial':
      case 'required': {
        const keys = arg ? maskKeys(arg) : undefined;
        for (const [key, spec] of fields) {
          if (keys && !keys.has(key)) continue;
          if (method === 'required') fields.set(key, !spec.required && !spec.default ? { ...spec, required: true } : spec);
          else if (spec.required) fields.set(key, { ...spec, required: false });
        }
        return { fields, bases: base.bases };
      }
      default:
        return SAME_KEYS.has(method) ? base : undefined;
    }
  }
  const dotted = dottedName(e);
  if (dotted) {
    const config = schemaConfig(analysis, module, dotted);
    if (config) return { fields: new Map(config.fields.map((f) => [f.name, f])), bases: [config.qualifiedName] };
  }
  return undefined;
}

/** The body of `() => X` or `() => { return X }`. */
function lazyBody(arg: ts.Expression | undefined): ts.Expression | undefined {
  if (!arg || !(ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) return undefined;
  if (!ts.isBlock(arg.body)) return arg.body;
  const ret = arg.body.statements.find(ts.isReturnStatement);
  return ret?.expression;
}

/** `{ a: true, b: true }` → {a, b}. */
function maskKeys(arg: ts.Expression): Set<string> | undefined {
  const e = skipOuter(arg);
  if (!ts.isObjectLiteralExpression(e)) return undefined;
  const keys = new Set<string>();
  for (const p of e.properties) {
    const name = p.name ? propertyName(p.name as ts.PropertyName) : undefined;
    if (name !== undefined) keys.add(name);
  }
  return keys;
}

/** Fields from a shape argument: an object literal (spreads of `X.shape` included) or `X.shape`. */
function addLiteralFields(analysis: ConfigAnalysis, module: ModuleInfo, arg: ts.Expression, owner: Owner, fields: Map<string, ParamSpec>, seen: Set<ts.Node>): void {
  const e = skipOuter(arg);
  if (ts.isPropertyAccessExpression(e) && e.name.text === 'shape') {
    const shape = readZodObject(analysis, module, e.expression, owner, seen);
    for (const spec of shape?.fields.values() ?? []) fields.set(spec.name, spec);
    return;
  }
  if (!ts.isObjectLiteralExpression(e)) return;
  for (const prop of e.properties) {
    if (ts.isSpreadAssignment(prop)) {
      addLiteralFields(analysis, module, prop.expression, owner, fields, seen);
      continue;
    }
    if (!ts.isPropertyAssignment(prop) && !ts.isShorthandPropertyAssignment(prop)) continue;
    const name = propertyName(prop.name);
    if (name === undefined) continue;
    const value = ts.isPropertyAssignment(prop) ? prop.initializer : prop.name;
    fields.set(name, zodFieldSpec(analysis, module, owner, prop, name, value));
  }
}

/**
 * One field of a zod object. `required` is false for `.optional()`, `.nullish()`,
 * `.default(x)` and `z.optional(…)`; the default is the JSDoc `@default` tag on the property,
 * else `.default(x)` (`() => literal` counts as that literal; another function is a `factory`);
 * the description is `.describe("…")` or `.meta({ description })`, else the JSDoc summary;
 * `deprecated` comes from `.meta({ deprecated })` or `@deprecated`; `type` is the TypeScript
 * type the schema infers, spelled from the source (`string`, `'a' | 'b'`, `number[]`). A nested
 * object schema becomes a synthetic config type `<owner>.<field>` referenced by `typeRef`;
 * `z.record`, `z.map`, `z.any` and `z.unknown` give `openNamespace`.
 */
export function zodFieldSpec(analysis: ConfigAnalysis, module: ModuleInfo, owner: Owner, prop: ts.ObjectLiteralElementLike, name: string, expr: ts.Expression): ParamSpec {
  const nameNode = prop.name ?? prop;
  const info = zodInfo(analysis, module, expr, { owner, field: name, nameNode }, new Set());
  const doc = readDoc(prop);
  const defaultValue: DefaultValue | undefined = doc.defaultText !== undefined ? { kind: 'literal', text: doc.defaultText } : info.default;
  const description = info.description ?? doc.summary;
  return {
    name,
    aliases: [],
    ...(info.type !== undefined ? { type: info.type } : {}),
    ...(defaultValue ? { default: defaultValue } : {}),
    required: !info.optional && defaultValue === undefined,
    ...(description !== undefined ? { description } : {}),
    deprecated: info.deprecated ?? doc.deprecated ?? false,
    hidden: doc.hidden,
    origin: 'config-field',
    owner: owner.name,
    location: locationOf(module.file, module.sf, nameNode),
    ...(info.typeRef !== undefined ? { typeRef: info.typeRef } : {}),
    ...(info.openNamespace ? { openNamespace: true } : {}),
    ...(info.valueTypeRef !== undefined ? { valueTypeRef: info.valueTypeRef } : {}),
  };
}

function union(types: Array<string | undefined>): string {
  return types.map((t) => t ?? 'unknown').join(' | ');
}

function arrayOf(type: string | undefined): string {
  const t = type ?? 'unknown';
  return /[|&]/.test(t) ? `(${t})[]` : `${t}[]`;
}

/** What a field schema expression says; `ctx` is absent inside unions and arrays, where nested objects get no synthetic type. */
function zodInfo(analysis: ConfigAnalysis, module: ModuleInfo, expr: ts.Expression, ctx: FieldContext | undefined, seen: Set<ts.Node>): ZodInfo {
  const e = skipOuter(expr);
  const text = (n: ts.Node): string => n.getText(module.sf);
  if (seen.has(e)) return { optional: false, type: text(e) };
  seen.add(e);
  const sub = (x: ts.Expression | undefined): ZodInfo => (x ? zodInfo(analysis, module, x, undefined, seen) : { optional: false });
  if (ts.isCallExpression(e)) {
    const args = e.arguments;
    const factory = zodFactory(module, e.expression);
    if (factory !== undefined) {
      if (OBJECT_FACTORIES.has(factory)) return objectInfo(analysis, module, e, ctx);
      const keyword = KEYWORD_TYPES[factory];
      if (keyword !== undefined) return { optional: false, type: keyword };
      const a0 = args[0];
      switch (factory) {
        case 'any':
        case 'unknown':
          // zod infers `key?: unknown` for these: the key may be left out.
          return { optional: true, type: factory, openNamespace: true };
        case 'literal':
          return { optional: false, type: a0 && ts.isArrayLiteralExpression(a0) ? a0.elements.map(text).join(' | ') : a0 ? text(a0) : 'unknown' };
        case 'enum':
          return { optional: false, type: a0 && ts.isArrayLiteralExpression(a0) ? a0.elements.map(text).join(' | ') : a0 ? text(a0) : 'unknown' };
        case 'nativeEnum':
        case 'instanceof':
          return { optional: false, type: a0 ? text(a0) : 'unknown' };
        case 'array':
          return { optional: false, type: arrayOf(sub(a0).type) };
        case 'set':
          return { optional: false, type: `Set<${sub(a0).type ?? 'unknown'}>` };
        case 'record':
        case 'partialRecord': {
          const valueInfo = args.length >= 2 ? sub(args[1]) : sub(a0);
          const [key, value] = args.length >= 2 ? [sub(args[0]).type, valueInfo.type] : ['string', valueInfo.type];
          const valueTypeRef = valueInfo.typeRef !== undefined && !valueInfo.openNamespace ? valueInfo.typeRef : undefined;
          return { optional: false, type: `Record<${key ?? 'string'}, ${value ?? 'unknown'}>`, openNamespace: true, ...(valueTypeRef !== undefined ? { valueTypeRef } : {}) };
        }
        case 'map':
          return { optional: false, type: `Map<${sub(a0).type ?? 'unknown'}, ${sub(args[1]).type ?? 'unknown'}>`, openNamespace: true };
        case 'union':
        case 'discriminatedUnion': {
          const list = factory === 'union' ? a0 : args[1];
          return { optional: false, type: list && ts.isArrayLiteralExpression(list) ? union(list.elements.map((x) => sub(x).type)) : text(e) };
        }
        case 'tuple':
          return { optional: false, type: a0 && ts.isArrayLiteralExpression(a0) ? `[${a0.elements.map((x) => sub(x).type ?? 'unknown').join(', ')}]` : text(e) };
        case 'optional':
          return { ...(a0 ? zodInfo(analysis, module, a0, ctx, seen) : { optional: false }), optional: true };
        case 'nullable': {
          const inner = a0 ? zodInfo(analysis, module, a0, ctx, seen) : { optional: false };
          return { ...inner, type: `${inner.type ?? 'unknown'} | null` };
        }
        case 'lazy': {
          const body = lazyBody(a0);
          return body ? zodInfo(analysis, module, body, ctx, seen) : { optional: false, type: text(e) };
        }
        case 'custom':
          return { optional: false, type: e.typeArguments?.[0] ? text(e.typeArguments[0]) : 'unknown' };
        case 'function':
          return { optional: false, type: 'Function' };
        default:
          return { optional: false, type: text(e) };
      }
    }
    if (ts.isPropertyAccessExpression(e.expression)) {
      const method = e.expression.name.text;
      if (OBJECT_METHODS.has(method)) return objectInfo(analysis, module, e, ctx);
      const inner = zodInfo(analysis, module, e.expression.expression, ctx, seen);
      return applyMethod(analysis, module, inner, method, e.arguments, seen);
    }
    return { optional: false, type: text(e) };
  }
  const dotted = dottedName(e);
  if (dotted) {
    const config = schemaConfig(analysis, module, dotted);
    if (config) return { optional: false, type: text(e), typeRef: config.qualifiedName };
    const resolved = analysis.resolver.resolve(module, dotted, 'values');
    if (resolved?.kind === 'declaration' && resolved.decl.kind === 'variable') {
      return zodInfo(analysis, resolved.module, resolved.decl.node.initializer, undefined, seen);
    }
  }
  return { optional: false, type: text(e) };
}

/** An inline object schema: a synthetic config type `<owner>.<field>` when it sits directly in a field and has fields. */
function objectInfo(analysis: ConfigAnalysis, module: ModuleInfo, e: ts.Expression, ctx: FieldContext | undefined): ZodInfo {
  if (!ctx) return { optional: false, type: 'object' };
  const qualifiedName = `${ctx.owner.qualifiedName}.${ctx.field}`;
  if (analysis.synthetic.has(qualifiedName)) return { optional: false, type: 'object', typeRef: qualifiedName };
  const owner: Owner = { name: `${ctx.owner.name}.${ctx.field}`, qualifiedName, kind: 'zod', module };
  const shape = readZodObject(analysis, module, e, owner, new Set());
  if (!shape || shape.fields.size === 0) return { optional: false, type: 'object' };
  analysis.synthetic.set(qualifiedName, {
    name: owner.name,
    qualifiedName,
    module: module.file,
    kind: 'zod',
    bases: shape.bases,
    fields: [...shape.fields.values()],
    location: locationOf(module.file, module.sf, ctx.nameNode),
  });
  return { optional: false, type: 'object', typeRef: qualifiedName };
}

/** Applies one schema method, innermost first, so the outermost `.default()`/`.describe()` wins, as at runtime. */
function applyMethod(analysis: ConfigAnalysis, module: ModuleInfo, inner: ZodInfo, method: string, args: ts.NodeArray<ts.Expression>, seen: Set<ts.Node>): ZodInfo {
  const a0 = args[0];
  switch (method) {
    case 'optional':
      return { ...inner, optional: true };
    case 'nullable':
      return { ...inner, type: `${inner.type ?? 'unknown'} | null` };
    case 'nullish':
      return { ...inner, optional: true, type: `${inner.type ?? 'unknown'} | null` };
    case 'default':
      return a0 ? { ...inner, default: zodDefault(a0, module.sf) } : inner;
    case 'describe':
      return a0 && ts.isStringLiteralLike(a0) ? { ...inner, description: a0.text } : inner;
    case 'meta': {
      const out = { ...inner };
      const obj = a0 ? skipOuter(a0) : undefined;
      if (obj && ts.isObjectLiteralExpression(obj)) {
        for (const p of obj.properties) {
          if (!ts.isPropertyAssignment(p)) continue;
          const key = propertyName(p.name);
          const value = skipOuter(p.initializer);
          if (key === 'description' && ts.isStringLiteralLike(value)) out.description = value.text;
          if (key === 'deprecated') {
            if (value.kind === ts.SyntaxKind.TrueKeyword) out.deprecated = true;
            else if (ts.isStringLiteralLike(value)) out.deprecated = value.text;
          }
        }
      }
      return out;
    }
    case 'array': {
      const { typeRef: _r, openNamespace: _o, valueTypeRef: _v, ...rest } = inner;
      return { ...rest, type: arrayOf(inner.type) };
    }
    case 'or': {
      const { typeRef: _r, openNamespace: _o, valueTypeRef: _v, ...rest } = inner;
      const other = a0 ? zodInfo(analysis, module, a0, undefined, seen) : undefined;
      return { ...rest, type: union([inner.type, other?.type]) };
    }
    default:
      return inner;
  }
}

/** `.default(x)`: a literal or expression; `() => literal` is that literal (zod calls the function for each parse); another function is a factory. */
export function zodDefault(arg: ts.Expression, sf: ts.SourceFile): DefaultValue {
  const e = skipOuter(arg);
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) {
    const body = lazyBody(e);
    if (body && isLiteral(body) && e.parameters.length === 0) return { kind: 'literal', text: body.getText(sf) };
    return { kind: 'factory', text: e.getText(sf) };
  }
  return defaultOf(arg, sf);
}
