/**
 * Environment variables a TypeScript/JavaScript file reads (issue #31), read statically from one
 * syntax tree per file (`ts.createSourceFile`: no program, no type checker, no other file).
 */
import { ts } from 'ts-morph';
import type { DefaultValue, DynamicEnvRead, EnvExtraction, InputDiagnostic, ParamSpec } from '../../model/types.js';
import { defaultOf, isLiteral, locationOf, propertyName, skipOuter, walkTree } from './syntax.js';
import { KEYWORD_TYPES, zodDefault } from './zod.js';
import { mayCallEnvHelper, MAY_READ_ENV } from './env-filter.js';
import { noEnv } from '../env-merge.js';
import { pushUnique } from '../../shared/arrays.js';

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

/**
 * What surrounds a read: a default after `??`/`||` (through a fallback chain and wrappers), a
 * number wrapper, or a write (`assigned` for `process.env.X = v`, not for `delete process.env.X`).
 */
function readContext(read: ts.Node, sf: ts.SourceFile): { write: boolean; assigned?: boolean; default?: DefaultValue; type?: string } {
  const first = outer(read);
  const p0 = first.parent;
  if (p0 && ts.isDeleteExpression(p0)) return { write: true };
  if (p0 && ts.isBinaryExpression(p0) && p0.left === first.child) {
    const op = p0.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken) return { write: true, assigned: true };
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
/** The literal end of a computed name: `_ID` of `` `${p}_ID` `` or of `p + '_ID'`; `''` if none. */
function literalSuffix(e: ts.Expression): string {
  const x = skipOuter(e);
  if (ts.isTemplateExpression(x)) return x.templateSpans[x.templateSpans.length - 1]?.literal.text ?? '';
  if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const right = skipOuter(x.right);
    return ts.isStringLiteralLike(right) ? right.text : '';
  }
  return '';
}

/** Most upper-case literals kept per file as the heads of computed names. */
const MAX_NAME_HEADS = 500;

/** The file's upper-case string literals (`"OIDC"`, `'SYNOLOGY'`), distinct, at most {@link MAX_NAME_HEADS}: what may start a computed name. */
function nameHeads(state: FileState): string[] {
  if (state.heads) return state.heads;
  const heads = new Set<string>();
  for (const m of state.sf.text.matchAll(/["'`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)["'`]/g)) {
    heads.add(m[1]!);
    if (heads.size >= MAX_NAME_HEADS) break;
  }
  return (state.heads = [...heads]);
}

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

/**
 * A function whose parameter names the variable it reads (`const getEnv = (name, fallback) =>
 * process.env[name] ?? fallback`), as another file may import it: its calls with a literal name
 * are reads of that name (resolved across files by the engine, src/engine/typescript-env.ts).
 */
export interface EnvHelper {
  /** The names other modules import it by (`default`, `getEnv`). */
  exported: string[];
  /** The parameter holding the variable's name. */
  param: number;
  /** The parameter holding the fallback, when there is one. */
  defaultParam?: number;
  /** The helper's own read, a dynamic read unless every call names its variable with a literal. */
  dynamic: DynamicEnvRead;
  /** Calls in its own file that name the variable with a literal (absent: none). */
  literalCalls?: number;
}

/** A call of a function imported from a relative module (in a file that is parsed): it may be an env helper's. */
export interface EnvHelperCall {
  /** The import's module specifier as written (`./utils/env.js`). */
  specifier: string;
  /** The imported name (`default` for a default import or a plain `require`). */
  imported: string;
  /** Per argument: the literal name and its location (when it is one), and the argument as a default. */
  args: Array<{ name?: string; location?: ParamSpec['location']; default?: DefaultValue }>;
}

/** One file's extraction: its reads and dynamic reads, and what cross-file helper resolution needs. */
export interface FileEnv extends EnvExtraction {
  /** Exported env helpers this file defines. */
  helpers?: EnvHelper[];
  /** Calls of imported functions that may be env helpers. */
  calls?: EnvHelperCall[];
  /** Upper-case words with an underscore in the file's text (`collectEnvWords`, src/link/environment.ts), filled by the engine. */
  words?: string[];
  /** Why the file was not read (a `parse-error` warning: nested past what the parser takes); absent when it was. */
  diagnostics?: InputDiagnostic[];
}

/** A helper found in the walk: the parameter index, the fallback's, and its dynamic read. */
interface LocalHelper {
  param: number;
  defaultParam?: number;
  dynamic: DynamicEnvRead;
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
  /** Local names imported from relative modules: `{ specifier, imported }`. */
  imports: Map<string, { specifier: string; imported: string }>;
  /** Functions whose parameter is the name of the variable they read, by local name. */
  helpers: Map<string, LocalHelper>;
  out: EnvExtraction;
  /** The file's upper-case string literals, computed on first use ({@link nameHeads}). */
  heads?: string[];
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
  // `process.env.X = v`: the program sets X for itself and what it starts (issue #31: internal).
  if (context.assigned) (state.out.internal ??= []).push({ name, location, reason: `written by the code (${location.file}:${location.line})` });
  if (context.write) return;
  state.out.vars.push(envParam(state, name, location, 'read', { ...(context.default ? { default: context.default } : {}), ...(context.type !== undefined ? { type: context.type } : {}) }));
}

/** A literal a program sets a switch to: a string without substitutions, a number, `true`/`false`. */
function isConstantValue(node: ts.Expression): boolean {
  const value = skipOuter(node);
  return ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value) || ts.isNumericLiteral(value) || value.kind === ts.SyntaxKind.TrueKeyword || value.kind === ts.SyntaxKind.FalseKeyword;
}

/**
 * `Object.assign(process.env, { X: v, 'Y': w })`: each literal key is a variable the code writes.
 * With `constantsOnly` (an environment built for a child process, `{ ...process.env, X: '1' }`),
 * only keys set to a constant: a signal between the program and its child, where a value passed
 * on (`APP_ROOT: root`) may be a user's setting handed down.
 */
function addAssigned(state: FileState, object: ts.Expression, constantsOnly = false): void {
  if (!ts.isObjectLiteralExpression(object)) return;
  for (const prop of object.properties) {
    if (!ts.isPropertyAssignment(prop) && !ts.isShorthandPropertyAssignment(prop)) continue;
    if (constantsOnly && !(ts.isPropertyAssignment(prop) && isConstantValue(prop.initializer))) continue;
    const key = prop.name;
    if (!ts.isIdentifier(key) && !ts.isStringLiteralLike(key)) continue;
    const location = ts.isStringLiteralLike(key) ? textLocation(state, key) : locationOf(state.file, state.sf, key);
    (state.out.internal ??= []).push({ name: key.text, location, reason: `written by the code (${location.file}:${location.line})` });
  }
}

function addDynamic(state: FileState, key: ts.Expression, read: ts.Node): void {
  const context = readContext(read, state.sf);
  if (context.write) return;
  const text = read.getText(state.sf).replace(/\s+/g, ' ');
  const prefix = literalPrefix(key);
  // `` `${opts.envPrefix}_CLIENT_ID` ``: a name ending in a literal of a separator and a word.
  const suffix = prefix === '' ? literalSuffix(key) : '';
  const ends = /^_[A-Z0-9]+(?:_[A-Z0-9]+)*$/.test(suffix);
  const dynamic: DynamicEnvRead = {
    prefix,
    ...(ends ? { suffix, heads: nameHeads(state) } : {}),
    location: locationOf(state.file, state.sf, key),
    construct: text.length > MAX_CONSTRUCT ? `${text.slice(0, MAX_CONSTRUCT - 1)}…` : text,
  };
  // `(name, fallback) => process.env[name] ?? fallback`: a helper whose calls name the variable.
  const k = skipOuter(key);
  const fn = ts.isIdentifier(k) ? enclosingParameterOwner(k) : undefined;
  const name = fn && functionName(fn, state.sf);
  if (fn && ts.isIdentifier(k) && name !== undefined && !state.helpers.has(name)) {
    const params = fn.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : undefined));
    const param = params.indexOf(k.text);
    const fallback = context.default ? params.indexOf(context.default.text) : -1;
    const named = params.findIndex((p, i) => i > param && p !== undefined && /default|fallback|^def$/i.test(p));
    const defaultParam = fallback >= 0 ? fallback : named >= 0 ? named : undefined;
    state.helpers.set(name, { param, ...(defaultParam !== undefined ? { defaultParam } : {}), dynamic });
    return;
  }
  state.out.dynamic.push(dynamic);
}

/** The function whose parameter `id` names, if it is one (the nearest enclosing function only). */
function enclosingParameterOwner(id: ts.Identifier): ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction | undefined {
  for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n)) {
      return n.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === id.text) ? n : undefined;
    }
  }
  return undefined;
}

/** The local name given to an anonymous default export. */
const DEFAULT_EXPORT = '*default*';

/** The local name a function is called by: its declaration's or its variable's; {@link DEFAULT_EXPORT} for `export default (…) => …` and `module.exports = …`. */
function functionName(fn: ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction, sf: ts.SourceFile): string | undefined {
  if (ts.isFunctionDeclaration(fn)) return fn.name?.text ?? DEFAULT_EXPORT;
  const { parent } = outer(fn);
  if (!parent) return undefined;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isExportAssignment(parent)) return DEFAULT_EXPORT;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left.getText(sf) === 'module.exports') return DEFAULT_EXPORT;
  return undefined;
}

/** Local name → the names it is exported by (`export function`, `export const`, `export default x`, `export { a as b }`, `module.exports = x`, `exports.b = a`, `module.exports = { a }`). */
function exportedNames(sf: ts.SourceFile): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (local: string, exported: string): void => {
    const list = out.get(local) ?? [];
    pushUnique(list, exported);
    out.set(local, list);
  };
  add(DEFAULT_EXPORT, 'default');
  for (const st of sf.statements) {
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) : undefined;
    const exported = mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    const isDefault = mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;
    if (ts.isFunctionDeclaration(st) && st.name && exported) add(st.name.text, isDefault ? 'default' : st.name.text);
    if (ts.isVariableStatement(st) && exported) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, d.name.text);
    if (ts.isExportAssignment(st) && ts.isIdentifier(skipOuter(st.expression))) add((skipOuter(st.expression) as ts.Identifier).text, 'default');
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) add((el.propertyName ?? el.name).text, el.name.text);
    }
    if (ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && st.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = st.expression.left.getText(sf);
      const right = skipOuter(st.expression.right);
      const property = /^(?:module\.)?exports\.([\w$]+)$/.exec(left)?.[1];
      if (ts.isIdentifier(right) && left === 'module.exports') add(right.text, 'default');
      if (ts.isIdentifier(right) && property !== undefined) add(right.text, property);
      if (left === 'module.exports' && ts.isObjectLiteralExpression(right)) {
        for (const p of right.properties) {
          if (ts.isShorthandPropertyAssignment(p)) add(p.name.text, p.name.text);
          else if (ts.isPropertyAssignment(p) && ts.isIdentifier(skipOuter(p.initializer))) {
            const key = propertyName(p.name);
            if (key !== undefined) add((skipOuter(p.initializer) as ts.Identifier).text, key);
          }
        }
      }
    }
  }
  return out;
}

/** What a variable name passed to a helper looks like (`'LOG_LEVEL'`, not a sentence). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A call's arguments as helper-call arguments: literal names (with their locations) and defaults. */
function callArgs(state: FileState, call: ts.CallExpression): EnvHelperCall['args'] {
  return call.arguments.map((a) => {
    const e = skipOuter(a);
    const literal = ts.isStringLiteralLike(e) && ENV_NAME.test(e.text) ? { name: e.text, location: textLocation(state, e) } : {};
    // An argument that may be a fallback: kept when short (a literal, a name), not a whole callback.
    const text = a.getText(state.sf);
    return { ...literal, ...(text.length <= MAX_CONSTRUCT ? { default: defaultOf(a, state.sf) } : {}) };
  });
}

/**
 * Calls of this file's helpers become reads (`getEnv('LOG_LEVEL', 'info')`: `LOG_LEVEL`, default
 * `'info'`); calls of functions imported from relative modules are kept for the engine. A
 * helper's own read stays dynamic when it is called with a computed name, or, when no module can
 * call it (not exported), when no call names its variable.
 */
function resolveHelperCalls(state: FileState, out: FileEnv): void {
  const calls: EnvHelperCall[] = [];
  const counts = new Map<string, { literal: number; other: number }>();
  walkTree(state.sf, (node) => {
    if (!ts.isCallExpression(node) || !ts.isIdentifier(skipOuter(node.expression))) return;
    const callee = (skipOuter(node.expression) as ts.Identifier).text;
    const helper = state.helpers.get(callee);
    if (helper) {
      const count = counts.get(callee) ?? { literal: 0, other: 0 };
      counts.set(callee, count);
      const args = callArgs(state, node);
      const arg = args[helper.param];
      if (arg?.name === undefined || arg.location === undefined) {
        count.other++;
        return;
      }
      count.literal++;
      const fallback = helper.defaultParam !== undefined ? args[helper.defaultParam]?.default : undefined;
      out.vars.push(envParam(state, arg.name, arg.location, 'read', fallback ? { default: fallback } : {}));
      return;
    }
    const imported = state.imports.get(callee);
    if (imported && node.arguments.length > 0) calls.push({ ...imported, args: callArgs(state, node) });
  });
  const exports = exportedNames(state.sf);
  const helpers: EnvHelper[] = [];
  for (const [local, helper] of state.helpers) {
    const exported = local === DEFAULT_EXPORT || exports.has(local) ? (exports.get(local) ?? []) : [];
    const count = counts.get(local);
    if (exported.length > 0) {
      // Other modules may call it: the engine decides whether its read stays dynamic.
      helpers.push({
        exported,
        param: helper.param,
        ...(helper.defaultParam !== undefined ? { defaultParam: helper.defaultParam } : {}),
        dynamic: helper.dynamic,
        ...(count && count.literal > 0 ? { literalCalls: count.literal } : {}),
      });
      if (count && count.other > 0) out.dynamic.push(helper.dynamic);
    } else if (!count || count.other > 0 || count.literal === 0) out.dynamic.push(helper.dynamic);
  }
  if (helpers.length > 0) out.helpers = helpers;
  if (calls.length > 0) out.calls = calls;
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

/**
 * What a zod field schema says (`z.string().url().optional().default('x').describe('…')`), read
 * without the rest of the project. `.prefault(x)` (zod 4) and `.catch(x)` give a default too. A
 * schema built by a call of the project's own function (`stringBool("true")`, whose body may add
 * `.prefault(defaultValue)`) is `opaque`: its default and whether it is required are unknown.
 */
function zodField(state: FileState, expr: ts.Expression, depth = 0): { type?: string; optional: boolean; default?: DefaultValue; description?: string; choices?: string[]; opaque?: boolean; prefault?: boolean } {
  const e = skipOuter(expr);
  if (depth > 40) return { optional: false };
  // A schema kept in a file constant (`const port = z.coerce.number()`).
  const value = ts.isIdentifier(e) ? state.values.get(e.text) : undefined;
  if (value) return zodField(state, value, depth + 1);
  if (!ts.isCallExpression(e)) return { optional: false };
  const callee = skipOuter(e.expression);
  if (!ts.isPropertyAccessExpression(callee)) return { optional: false, opaque: true, type: e.getText(state.sf).replace(/\s+/g, ' ') };
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
    case 'catch':
      return a0 ? { ...inner, default: zodDefault(a0, state.sf) } : inner;
    case 'prefault':
      // The input before parsing: a later `.transform(…)` makes the value something else.
      return a0 ? { ...inner, default: zodDefault(a0, state.sf), prefault: true } : inner;
    case 'transform':
    case 'pipe': {
      // `z.string().prefault("").transform((s) => s.split(","))`: documented as `[]`, the output;
      // the input default is no longer the value, and the field is still not required.
      if (!inner.prefault) return inner;
      const { default: _input, prefault: _p, ...rest } = inner;
      return { ...rest, opaque: true };
    }
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
        required: !info.optional && !info.opaque && info.default === undefined,
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
    // `import getEnv from './env.js'`, `const { getEnv } = require('./env')`: candidates for env helpers.
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.name) state.imports.set(clause.name.text, { specifier, imported: 'default' });
      const named = clause?.namedBindings;
      if (named && ts.isNamedImports(named)) for (const el of named.elements) state.imports.set(el.name.text, { specifier, imported: (el.propertyName ?? el.name).text });
    }
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const init = skipOuter(node.initializer);
      const first = ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' ? init.arguments[0] : undefined;
      const specifier = first && ts.isStringLiteralLike(first) && first.text.startsWith('.') ? first.text : undefined;
      if (specifier !== undefined && ts.isIdentifier(node.name)) state.imports.set(node.name.text, { specifier, imported: 'default' });
      if (specifier !== undefined && ts.isObjectBindingPattern(node.name)) {
        for (const el of node.name.elements) {
          const key = el.propertyName ? propertyName(el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : undefined;
          if (!el.dotDotDotToken && ts.isIdentifier(el.name) && key !== undefined) state.imports.set(el.name.text, { specifier, imported: key });
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
 * **Writes** (`internal`, reason `written by the code (file:line)`): `process.env.X = v`,
 * `process.env['X'] = v` (and through the aliases above), `Object.assign(process.env, { X: v })`:
 * variables the program sets for itself and the processes it starts; in an environment copied for
 * a child (`{ ...process.env, X: '1' }`, `Object.assign({}, process.env, { X: '1' })`) the keys
 * set to a constant. Not writes: `??=`/`||=`
 * (a default: users still set the variable), `delete`, a computed key.
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
 * A file the parser or the walk cannot take (an expression nested so deeply that the recursive
 * parser overflows the call stack, a `RangeError`) gives no reads and one `parse-error` warning
 * naming the file in `diagnostics`, as the other TypeScript extractors say it (extract.ts): the
 * scan runs on the main thread, where the error ended the whole run as an internal error
 * (s28 sweep D7: 40 KB, parentheses nested 20,000 deep: exit 2 -> a warning, exit 0).
 *
 * @param file project-relative POSIX path (`owner` and locations)
 * @param text the file's text
 */
export function extractFileEnv(file: string, text: string): FileEnv {
  if (!MAY_READ_ENV.test(text) && !mayCallEnvHelper(text)) return noEnv();
  try {
    return scanFileEnv(file, text);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { ...noEnv(), diagnostics: [tooDeepDiagnostic(file, error)] };
  }
}

/** The `parse-error` warning for a file the parser gave up on with `error` (see {@link extractFileEnv}). */
function tooDeepDiagnostic(file: string, error: RangeError): InputDiagnostic {
  return {
    ruleId: 'parse-error',
    severity: 'warn',
    message: `${file}: the TypeScript parser failed (nested too deeply for it: ${error.message}); its environment variables are not read`,
    location: { file, line: 1, column: 1 },
  };
}

/** {@link extractFileEnv} of a file that may read the environment; throws what the parser throws. */
function scanFileEnv(file: string, text: string): FileEnv {
  const out: FileEnv = noEnv();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const state: FileState = { file, sf, aliases: new Set(), constants: new Map(), values: new Map(), imports: new Map(), helpers: new Map(), out };
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
    // `{ ...process.env, X: '1' }`: an environment built for a process the code starts.
    if (!mark && ts.isSpreadAssignment(node) && ts.isObjectLiteralExpression(node.parent) && isEnvObject(state, skipOuter(node.expression))) addAssigned(state, node.parent, true);
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
      if (name === 'Object.assign' && node.arguments[0] && isEnvObject(state, node.arguments[0])) {
        for (const arg of node.arguments.slice(1)) addAssigned(state, skipOuter(arg));
        return;
      }
      // `Object.assign({}, process.env, { X: '1' })`: a copy for a child process.
      const envAt = name === 'Object.assign' ? node.arguments.findIndex((a) => isEnvObject(state, skipOuter(a))) : -1;
      if (envAt > 0) for (const arg of node.arguments.slice(envAt + 1)) addAssigned(state, skipOuter(arg), true);
      if (last === 'createEnv') readCreateEnv(state, node);
      else if (last === 'cleanEnv' || last === 'customCleanEnv') readCleanEnv(state, node);
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
  resolveHelperCalls(state, out);
  return out;
}

/**
 * {@link extractFileEnv} over several files, in their order, merged.
 *
 * @param sources project-relative POSIX paths and texts
 */
export function extractTypeScriptEnv(sources: ReadonlyArray<{ file: string; text: string }>): EnvExtraction {
  // Appended in place: merging file by file copied the growing lists once per file, and a
  // spread of one argument per file overflows the stack on a huge project.
  const out = noEnv();
  for (const s of sources) {
    const one = extractFileEnv(s.file, s.text);
    for (const v of one.vars) out.vars.push(v);
    for (const d of one.dynamic) out.dynamic.push(d);
    if (one.internal) (out.internal ??= []).push(...one.internal);
  }
  return out;
}
