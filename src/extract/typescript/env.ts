/**
 * Environment variables a TypeScript/JavaScript file reads (issue #31), read statically from one
 * syntax tree per file (`ts.createSourceFile`: no program, no type checker, no other file).
 */
import { ts } from 'ts-morph';
import type { DefaultValue, DynamicEnvRead, EnvExtraction, ParamSpec } from '../../model/types.js';
import { defaultOf, isLiteral, locationOf, propertyName, skipOuter, walkTree } from './syntax.js';
import { KEYWORD_TYPES, zodDefault } from './zod.js';
import { MAY_READ_ENV } from './env-filter.js';
import { mergeEnv, noEnv } from '../env-merge.js';

/** Wrappers whose result is a number (`Number(process.env.PORT ?? 3000)`): the read's `type`. */
const NUMBER_WRAPPERS = new Set(['Number', 'parseInt', 'parseFloat', 'Number.parseInt', 'Number.parseFloat']);
/** Other wrappers a default is looked for through (`String(process.env.X ?? 'a')`, `JSON.parse(…)`). */
const OTHER_WRAPPERS = new Set(['String', 'Boolean', 'JSON.parse', 'BigInt']);
/** t3-env `createEnv` keys whose object maps variable names to zod schemas. */
const T3_GROUPS = new Set(['server', 'client', 'shared']);
/** envalid validators and the type of the value they give (https://github.com/af/envalid#validator-types). */
const ENVALID_TYPES: Record<string, string> = {
  str: 'string',
  bool: 'boolean',
  num: 'number',
  port: 'number',
  email: 'string',
  host: 'string',
  url: 'string',
  json: 'json',
};
/** zod parse methods whose argument, when it is `process.env`, makes the schema an env schema. */
const ZOD_PARSES = new Set(['parse', 'safeParse', 'parseAsync', 'safeParseAsync']);
/** How many characters of a dynamic read's source are kept for notes. */
const MAX_CONSTRUCT = 80;

function scriptKind(file: string): ts.ScriptKind {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  // Plain JavaScript may hold JSX as well; the JS kind parses both.
  return ts.ScriptKind.JS;
}

/** A dotted callee (`Number.parseInt`, `envalid.str`), else `undefined`. */
function calleeName(e: ts.Expression): string | undefined {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return x.text;
  if (ts.isPropertyAccessExpression(x)) {
    const left = calleeName(x.expression);
    return left === undefined ? undefined : `${left}.${x.name.text}`;
  }
  return undefined;
}

/** The parent, through parentheses, `as`, `!` and `satisfies`, and the child it was reached from. */
function outer(node: ts.Node): { parent: ts.Node | undefined; child: ts.Node } {
  let child = node;
  let parent = node.parent;
  while (parent && (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isNonNullExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isTypeAssertionExpression(parent))) {
    child = parent;
    parent = parent.parent;
  }
  return { parent, child };
}

function isFallback(op: ts.SyntaxKind): boolean {
  return op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken;
}

/** What surrounds a read: a default after `??`/`||` (through a fallback chain and wrappers), a number wrapper, or a write. */
function readContext(read: ts.Node, sf: ts.SourceFile): { write: boolean; default?: DefaultValue; type?: string } {
  const first = outer(read);
  const p0 = first.parent;
  if (p0 && ts.isDeleteExpression(p0)) return { write: true };
  if (p0 && ts.isBinaryExpression(p0) && p0.left === first.child) {
    const op = p0.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken) return { write: true };
    // `process.env.X ??= 'd'` sets a default the rest of the program sees.
    if (op === ts.SyntaxKind.QuestionQuestionEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken) return { write: false, default: defaultOf(p0.right, sf) };
  }
  let type: string | undefined;
  let fallback: DefaultValue | undefined;
  let cur: ts.Node = read;
  for (let depth = 0; depth < 8; depth++) {
    const { parent, child } = outer(cur);
    if (!parent) break;
    if (ts.isBinaryExpression(parent) && isFallback(parent.operatorToken.kind)) {
      if (parent.left === child) {
        const right = skipOuter(parent.right);
        // `process.env.A ?? process.env.B`: B is another read, not A's default; B's own default applies to both.
        if (!isEnvReadExpression(right)) fallback ??= defaultOf(parent.right, sf);
        cur = parent;
        continue;
      }
      cur = parent; // the right end of a fallback chain: the chain's default is its default too
      continue;
    }
    if (ts.isCallExpression(parent) && parent.arguments[0] === child) {
      const name = calleeName(parent.expression);
      if (name !== undefined && NUMBER_WRAPPERS.has(name)) {
        type = 'number';
        cur = parent;
        continue;
      }
      if (name !== undefined && OTHER_WRAPPERS.has(name)) {
        cur = parent;
        continue;
      }
    }
    if (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.PlusToken) {
      type = 'number';
      cur = parent;
      continue;
    }
    break;
  }
  return { write: false, ...(fallback ? { default: fallback } : {}), ...(type !== undefined ? { type } : {}) };
}

/** Marked by the walk: expressions that are reads of one variable (to tell `A ?? process.env.B` from a default). */
const readNodes = new WeakSet<ts.Node>();

function isEnvReadExpression(e: ts.Expression): boolean {
  return readNodes.has(e);
}

/** The literal start of a computed name (`` `APP_${k}` `` → `APP_`, `'APP_' + k` → `APP_`), `''` when none. */
function literalPrefix(e: ts.Expression): string {
  const x = skipOuter(e);
  if (ts.isTemplateExpression(x)) return x.head.text;
  if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = skipOuter(x.left);
    if (ts.isStringLiteralLike(left)) return left.text;
    return literalPrefix(left);
  }
  return '';
}

/** Per-file state of one extraction. */
interface FileState {
  file: string;
  sf: ts.SourceFile;
  /** Local names bound to an env object (`const env = process.env`, `import { env } from 'node:process'`). */
  aliases: Set<string>;
  /** `const NAME = 'literal'` anywhere in the file: computed keys that are constants. */
  constants: Map<string, string>;
  /** `const X = <expr>` anywhere in the file: schema objects defined apart from their use. */
  values: Map<string, ts.Expression>;
  out: EnvExtraction;
}

/** True for an expression that is an env object: `process.env`, `import.meta.env`, `Bun.env`, an alias. */
function isEnvObject(state: FileState, expr: ts.Expression): boolean {
  const e = skipOuter(expr);
  if (ts.isIdentifier(e)) return state.aliases.has(e.text);
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'env') return false;
  const base = skipOuter(e.expression);
  if (ts.isMetaProperty(base)) return base.keywordToken === ts.SyntaxKind.ImportKeyword;
  if (ts.isIdentifier(base)) return base.text === 'process' || base.text === 'Bun';
  // `globalThis.process.env`, `global.process.env`
  return ts.isPropertyAccessExpression(base) && base.name.text === 'process' && ts.isIdentifier(base.expression) && (base.expression.text === 'globalThis' || base.expression.text === 'global');
}

/** `Deno.env.get(...)`. */
function isDenoGet(call: ts.CallExpression): boolean {
  const callee = skipOuter(call.expression);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'get' && calleeName(callee.expression) === 'Deno.env';
}

function textLocation(state: FileState, literal: ts.StringLiteralLike): ParamSpec['location'] {
  // The name inside the quotes.
  const at = locationOf(state.file, state.sf, literal);
  return { ...at, column: at.column + 1, ...(at.endColumn !== undefined ? { endColumn: at.endColumn - 1 } : {}) };
}

function envParam(state: FileState, name: string, location: ParamSpec['location'], source: NonNullable<ParamSpec['envSource']>, extra: Partial<ParamSpec> = {}): ParamSpec {
  const spec: ParamSpec = {
    name,
    aliases: [],
    ...(extra.type !== undefined ? { type: extra.type } : {}),
    ...(extra.default !== undefined ? { default: extra.default } : {}),
    required: extra.required ?? extra.default === undefined,
    ...(extra.description !== undefined ? { description: extra.description } : {}),
    deprecated: extra.deprecated ?? false,
    hidden: false,
    origin: 'env-var',
    owner: state.file,
    location,
    ...(extra.choices !== undefined ? { choices: extra.choices } : {}),
    envSource: source,
  };
  return spec;
}

function addRead(state: FileState, name: string, location: ParamSpec['location'], readNode: ts.Node): void {
  const context = readContext(readNode, state.sf);
  if (context.write) return;
  state.out.vars.push(envParam(state, name, location, 'read', { ...(context.default ? { default: context.default } : {}), ...(context.type !== undefined ? { type: context.type } : {}) }));
}

function addDynamic(state: FileState, key: ts.Expression, read: ts.Node): void {
  if (readContext(read, state.sf).write) return;
  const text = read.getText(state.sf).replace(/\s+/g, ' ');
  state.out.dynamic.push({
    prefix: literalPrefix(key),
    location: locationOf(state.file, state.sf, key),
    construct: text.length > MAX_CONSTRUCT ? `${text.slice(0, MAX_CONSTRUCT - 1)}…` : text,
  } satisfies DynamicEnvRead);
}

/** A computed key: a string literal, or a file constant naming one. */
function keyName(state: FileState, key: ts.Expression): { name: string; literal?: ts.StringLiteralLike } | undefined {
  const k = skipOuter(key);
  if (ts.isStringLiteralLike(k)) return { name: k.text, literal: k };
  if (ts.isIdentifier(k)) {
    const name = state.constants.get(k.text);
    if (name !== undefined) return { name };
  }
  return undefined;
}

/** The object literal an expression is, through `as const`, parentheses and file constants. */
function objectLiteral(state: FileState, expr: ts.Expression | undefined, depth = 0): ts.ObjectLiteralExpression | undefined {
  if (!expr || depth > 4) return undefined;
  const e = skipOuter(expr);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (ts.isIdentifier(e)) return objectLiteral(state, state.values.get(e.text), depth + 1);
  return undefined;
}

/** What a zod field schema says (`z.string().url().optional().default('x').describe('…')`), read without the rest of the project. */
function zodField(state: FileState, expr: ts.Expression, depth = 0): { type?: string; optional: boolean; default?: DefaultValue; description?: string; choices?: string[] } {
  const e = skipOuter(expr);
  if (depth > 40) return { optional: false };
  // A schema kept in a file constant (`const port = z.coerce.number()`).
  const value = ts.isIdentifier(e) ? state.values.get(e.text) : undefined;
  if (value) return zodField(state, value, depth + 1);
  if (!ts.isCallExpression(e)) return { optional: false };
  const callee = skipOuter(e.expression);
  if (!ts.isPropertyAccessExpression(callee)) return { optional: false, type: e.getText(state.sf).replace(/\s+/g, ' ') };
  const method = callee.name.text;
  const base = skipOuter(callee.expression);
  // The factory: `z.string()`, `z.coerce.number()`, `z.enum([...])` (`z` being no file constant).
  const factoryBase = ts.isPropertyAccessExpression(base) && base.name.text === 'coerce' ? skipOuter(base.expression) : base;
  if (ts.isIdentifier(factoryBase) && !state.values.has(factoryBase.text)) {
    const keyword = KEYWORD_TYPES[method];
    if (keyword !== undefined) return { optional: false, type: keyword };
    if (method === 'enum' || method === 'literal') {
      const a0 = e.arguments[0] ? skipOuter(e.arguments[0]) : undefined;
      const items = a0 && ts.isArrayLiteralExpression(a0) ? a0.elements.map(skipOuter) : a0 ? [a0] : [];
      const choices = items.filter(ts.isStringLiteralLike).map((s) => s.text);
      return { optional: false, type: items.map((x) => x.getText(state.sf)).join(' | ') || method, ...(choices.length === items.length && choices.length > 0 ? { choices } : {}) };
    }
    return { optional: false, type: e.getText(state.sf).replace(/\s+/g, ' ') };
  }
  const inner = zodField(state, base, depth + 1);
  const a0 = e.arguments[0];
  switch (method) {
    case 'optional':
    case 'nullish':
      return { ...inner, optional: true };
    case 'default':
      return a0 ? { ...inner, default: zodDefault(a0, state.sf) } : inner;
    case 'describe':
      return a0 && ts.isStringLiteralLike(skipOuter(a0)) ? { ...inner, description: (skipOuter(a0) as ts.StringLiteralLike).text } : inner;
    default:
      // `.url()`, `.min(1)`, `.transform(…)`, `.refine(…)`: the type as far as the factory says.
      return inner;
  }
}

/** Reads `{ NAME: <zod schema>, … }` into schema variables. */
function readZodShape(state: FileState, shape: ts.ObjectLiteralExpression): void {
  for (const prop of shape.properties) {
    if (!ts.isPropertyAssignment(prop)) continue;
    const name = propertyName(prop.name);
    if (name === undefined) continue;
    const info = zodField(state, prop.initializer);
    const location = ts.isStringLiteralLike(prop.name) ? textLocation(state, prop.name) : locationOf(state.file, state.sf, prop.name);
    state.out.vars.push(
      envParam(state, name, location, 'schema', {
        ...(info.type !== undefined ? { type: info.type } : {}),
        ...(info.default ? { default: info.default } : {}),
        required: !info.optional && info.default === undefined,
        ...(info.description !== undefined ? { description: info.description } : {}),
        ...(info.choices ? { choices: info.choices } : {}),
      }),
    );
  }
}

/** t3-env `createEnv({ server: {…}, client: {…}, shared: {…} })` (https://env.t3.gg/docs/core). */
function readCreateEnv(state: FileState, call: ts.CallExpression): void {
  const options = objectLiteral(state, call.arguments[0]);
  if (!options) return;
  for (const prop of options.properties) {
    // `server: {…}`, `server: serverVars`, and the shorthand `{ server }`.
    const value = ts.isPropertyAssignment(prop) ? prop.initializer : ts.isShorthandPropertyAssignment(prop) ? prop.name : undefined;
    const key = value && prop.name ? propertyName(prop.name) : undefined;
    if (!value || key === undefined || !T3_GROUPS.has(key)) continue;
    const group = objectLiteral(state, value);
    if (group) readZodShape(state, group);
  }
}

/** envalid `cleanEnv(process.env, { X: str({ default, desc, choices }) })` (https://github.com/af/envalid#api). */
function readCleanEnv(state: FileState, call: ts.CallExpression): void {
  const specs = objectLiteral(state, call.arguments[1]);
  if (!specs) return;
  for (const prop of specs.properties) {
    if (!ts.isPropertyAssignment(prop)) continue;
    const name = propertyName(prop.name);
    if (name === undefined) continue;
    const value = skipOuter(prop.initializer);
    const validator = ts.isCallExpression(value) ? calleeName(value.expression)?.split('.').pop() : undefined;
    const options = ts.isCallExpression(value) ? objectLiteral(state, value.arguments[0]) : undefined;
    const extra: Partial<ParamSpec> = {};
    if (validator !== undefined) extra.type = ENVALID_TYPES[validator] ?? validator;
    for (const o of options?.properties ?? []) {
      if (!ts.isPropertyAssignment(o)) continue;
      const key = propertyName(o.name);
      const v = skipOuter(o.initializer);
      if (key === 'default') extra.default = defaultOf(o.initializer, state.sf);
      else if (key === 'desc' && ts.isStringLiteralLike(v)) extra.description = v.text;
      else if (key === 'choices' && ts.isArrayLiteralExpression(v)) {
        const choices = v.elements.map(skipOuter).filter(isLiteral).map((x) => (ts.isStringLiteralLike(x) ? x.text : x.getText(state.sf)));
        if (choices.length === v.elements.length) extra.choices = choices;
      }
    }
    // envalid: a default (even `undefined`) makes the variable optional; `devDefault` only outside production.
    extra.required = extra.default === undefined;
    const location = ts.isStringLiteralLike(prop.name) ? textLocation(state, prop.name) : locationOf(state.file, state.sf, prop.name);
    state.out.vars.push(envParam(state, name, location, 'schema', extra));
  }
}

/** The object shapes of a zod object schema (`z.object({…})`, `.extend({…})`, `.strict()`…), through file constants. */
function zodObjectShapes(state: FileState, expr: ts.Expression, depth = 0): ts.ObjectLiteralExpression[] {
  if (depth > 20) return [];
  const e = skipOuter(expr);
  if (ts.isIdentifier(e)) {
    const value = state.values.get(e.text);
    return value ? zodObjectShapes(state, value, depth + 1) : [];
  }
  if (!ts.isCallExpression(e)) return [];
  const callee = skipOuter(e.expression);
  if (!ts.isPropertyAccessExpression(callee)) return [];
  const method = callee.name.text;
  const shape = objectLiteral(state, e.arguments[0]);
  if (method === 'object' || method === 'strictObject' || method === 'looseObject') return shape && ts.isIdentifier(skipOuter(callee.expression)) ? [shape] : [];
  const inner = zodObjectShapes(state, callee.expression, depth + 1);
  if ((method === 'extend' || method === 'merge') && shape && inner.length > 0) return [...inner, shape];
  return inner;
}

/** The names a file binds to env objects and string constants, before the walk. */
function collectBindings(state: FileState): void {
  walkTree(state.sf, (node) => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.name)) {
        const init = skipOuter(node.initializer);
        if (ts.isStringLiteralLike(init)) state.constants.set(node.name.text, init.text);
        state.values.set(node.name.text, node.initializer);
      } else if (ts.isObjectBindingPattern(node.name) && ts.isIdentifier(skipOuter(node.initializer)) && (skipOuter(node.initializer) as ts.Identifier).text === 'process') {
        // `const { env } = process`
        for (const el of node.name.elements) {
          if (!el.dotDotDotToken && ts.isIdentifier(el.name) && (el.propertyName ? propertyName(el.propertyName) : el.name.text) === 'env') state.aliases.add(el.name.text);
        }
      }
    }
    // `import { env } from 'node:process'`
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /^(?:node:)?process$/.test(node.moduleSpecifier.text)) {
      const named = node.importClause?.namedBindings;
      if (named && ts.isNamedImports(named)) for (const el of named.elements) if ((el.propertyName ?? el.name).text === 'env') state.aliases.add(el.name.text);
    }
  });
  // Aliases of aliases (`const env = process.env; const e = env`), in declaration order, until nothing changes.
  for (let changed = true, rounds = 0; changed && rounds < 4; rounds++) {
    changed = false;
    for (const [name, value] of state.values) {
      if (!state.aliases.has(name) && isEnvObject(state, value)) {
        state.aliases.add(name);
        changed = true;
      }
    }
  }
}

/**
 * The environment variables one file reads, without running it or reading any other file.
 *
 * **Reads** (`envSource: 'read'`, one spec per read site, `owner` = the file, `location` = the
 * name token): `process.env.X`, `process.env['X']`, `process.env?.X`, `process.env[K]` with `K` a
 * file constant naming a string, `globalThis.process.env.X`, destructuring
 * `const { X, Y = 'd', Z: z } = process.env` (`Y`'s default), aliases (`const env = process.env`,
 * `const { env } = process`, `import { env } from 'node:process'`, then `env.X`), Vite's
 * `import.meta.env.VITE_X`, `Deno.env.get('X')`, `Bun.env.X`. Defaults: the right side of
 * `?? d` or `|| d` (through a chain of reads, `process.env.A ?? process.env.B ?? 'd'`, and
 * wrappers: `Number(process.env.X ?? 5)`, `parseInt(process.env.X || '3000', 10)`,
 * `Number(process.env.X) || 3000`), `process.env.X ??= d`; `type` is `number` under `Number`,
 * `parseInt`, `parseFloat` or unary `+`. `required` is true without a default. Writes
 * (`process.env.X = …`) and `delete process.env.X` are not reads.
 *
 * **Dynamic reads:** `process.env[name]`, `` process.env[`APP_${k}`] ``, `process.env['APP_' + k]`,
 * `Deno.env.get(name)`: one {@link DynamicEnvRead} with the literal prefix (`''` if none).
 *
 * **Schemas** (`envSource: 'schema'`): t3-env `createEnv({ server, client, shared })` whose groups
 * map names to zod schemas (https://env.t3.gg/docs/core), envalid `cleanEnv(env, { X: str({…}) })`
 * (https://github.com/af/envalid), and a zod object schema parsed from an env object
 * (`z.object({…}).parse(process.env)`, `safeParse`, `parseAsync`, a file constant holding the
 * schema, `.extend({…})`). zod fields: `type` from the factory (`z.string()` → `string`,
 * `z.coerce.number()` → `number`, `z.enum(['a', 'b'])` → `"a" | "b"` with `choices`),
 * `.default(x)` → default, `.optional()`/`.nullish()`/a default → not required, `.describe('…')` →
 * description. envalid: the validator's type (`str` → `string`, `port` → `number`), `default`,
 * `desc`, `choices`; a variable with a `default` key is not required.
 *
 * **Not read:** names built from other files' constants, schema objects imported from another
 * file, t3-env `extends: [preset()]`, Vite's `ImportMetaEnv` declarations (`.d.ts`), libraries such
 * as `env-var` (`get('X').required()`), and `process.env` passed whole to a function. A file the
 * parser cannot make sense of is read as far as it parses (the parser recovers).
 *
 * @param file project-relative POSIX path (`owner` and locations)
 * @param text the file's text
 */
export function extractFileEnv(file: string, text: string): EnvExtraction {
  const out = noEnv();
  if (!MAY_READ_ENV.test(text)) return out;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const state: FileState = { file, sf, aliases: new Set(), constants: new Map(), values: new Map(), out };
  collectBindings(state);
  // Reads first marked (so `A ?? process.env.B` knows B is a read), then visited in source order.
  const visit = (mark: boolean) => (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isEnvObject(state, node.expression)) {
      // `process.env.hasOwnProperty('X')`: a method of the object, not a variable.
      if (ts.isCallExpression(node.parent) && node.parent.expression === node) return;
      if (mark) return void readNodes.add(node);
      // `const env = process.env` declares an alias; `env.X` is the read.
      addRead(state, node.name.text, locationOf(file, sf, node.name), node);
      return;
    }
    if (ts.isElementAccessExpression(node) && isEnvObject(state, node.expression)) {
      const key = keyName(state, node.argumentExpression);
      if (mark) {
        if (key) readNodes.add(node);
        return;
      }
      if (key) addRead(state, key.name, key.literal ? textLocation(state, key.literal) : locationOf(file, sf, node.argumentExpression), node);
      else addDynamic(state, node.argumentExpression, node);
      return;
    }
    if (ts.isCallExpression(node)) {
      if (isDenoGet(node)) {
        const a0 = node.arguments[0];
        if (!a0) return;
        const key = keyName(state, a0);
        if (mark) {
          if (key) readNodes.add(node);
          return;
        }
        if (key) addRead(state, key.name, key.literal ? textLocation(state, key.literal) : locationOf(file, sf, a0), node);
        else addDynamic(state, a0, node);
        return;
      }
      if (mark) return;
      const name = calleeName(node.expression);
      const last = name?.split('.').pop();
      if (last === 'createEnv') readCreateEnv(state, node);
      else if (last === 'cleanEnv' || last === 'cleanEnvironment') readCleanEnv(state, node);
      else if (ts.isPropertyAccessExpression(skipOuter(node.expression)) && ZOD_PARSES.has((skipOuter(node.expression) as ts.PropertyAccessExpression).name.text) && node.arguments[0] && isEnvObject(state, node.arguments[0])) {
        for (const shape of zodObjectShapes(state, (skipOuter(node.expression) as ts.PropertyAccessExpression).expression)) readZodShape(state, shape);
      }
      return;
    }
    if (!mark && ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name) && isEnvObject(state, node.initializer)) {
      for (const el of node.name.elements) {
        if (el.dotDotDotToken) continue;
        const keyNode = el.propertyName ?? el.name;
        const name = ts.isIdentifier(keyNode) || ts.isStringLiteralLike(keyNode) ? keyNode.text : ts.isComputedPropertyName(keyNode) ? keyName(state, keyNode.expression)?.name : undefined;
        if (name === undefined) {
          if (ts.isComputedPropertyName(keyNode)) addDynamic(state, keyNode.expression, el);
          continue;
        }
        const location = ts.isStringLiteralLike(keyNode) ? textLocation(state, keyNode) : locationOf(file, sf, keyNode);
        state.out.vars.push(envParam(state, name, location, 'read', el.initializer ? { default: defaultOf(el.initializer, sf) } : {}));
      }
    }
  };
  walkTree(sf, (node) => void visit(true)(node));
  walkTree(sf, (node) => void visit(false)(node));
  return out;
}

/**
 * {@link extractFileEnv} over several files, in their order, merged.
 *
 * @param sources project-relative POSIX paths and texts
 */
export function extractTypeScriptEnv(sources: ReadonlyArray<{ file: string; text: string }>): EnvExtraction {
  let out = noEnv();
  for (const s of sources) out = mergeEnv(out, extractFileEnv(s.file, s.text));
  return out;
}
