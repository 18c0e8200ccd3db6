/** Programs that parse their arguments with one call of a declarative parser: Node's `util.parseArgs`, `yargs-parser`, `arg`, `mri` and `minimist`. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { addAlias, camelCase, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import type { ModuleInfo } from './scan.js';
import { skipOuter, walkTree, sourceFileOf } from './syntax.js';
import type { FlagEvaluator } from './types.js';

const UTIL = new Set(['node:util', 'util']);
const YARGS_PARSER = 'yargs-parser';
/** Packages whose default export parses the command line from an options object given to one call. */
const SPEC_PARSERS = new Set(['arg', 'mri', 'minimist']);
type ParserKind = 'parseArgs' | 'yargs-parser' | 'arg' | 'mri' | 'minimist';

/** `seedCount` → `seed-count`: the other spelling yargs' camel-case expansion accepts. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}-${b.toLowerCase()}`);
}

/**
 * The spelling yargs(-parser) camel-case expansion also accepts for `name` (`seed-count` ↔
 * `seedCount`), or undefined when there is none (one word).
 */
export function camelTwin(name: string): string | undefined {
  if (name.length <= 1) return undefined;
  const twin = name.includes('-') ? camelCase(name) : kebabCase(name);
  return twin === name ? undefined : twin;
}

/** Which parser a callee names in `module`: `parseArgs` imported from `node:util`, `util.parseArgs`, or the `yargs-parser` default import. */
function parserOf(module: ModuleInfo, callee: ts.Expression, requires: ReadonlyMap<string, string>): ParserKind | undefined {
  const from = (name: string): { specifier: string; imported: string } | undefined => {
    const imported = module.imports.get(name);
    if (imported) return imported;
    const required = requires.get(name);
    return required === undefined ? undefined : { specifier: required, imported: name === 'parseArgs' ? 'parseArgs' : 'default' };
  };
  if (ts.isIdentifier(callee)) {
    const b = from(callee.text);
    if (b && UTIL.has(b.specifier) && b.imported === 'parseArgs') return 'parseArgs';
    if (b && b.specifier === YARGS_PARSER && b.imported === 'default') return 'yargs-parser';
    if (b && SPEC_PARSERS.has(b.specifier) && (b.imported === 'default' || b.imported === '*')) return b.specifier as ParserKind;
    return undefined;
  }
  // `require('minimist')(process.argv.slice(2))`.
  if (ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'require') {
    const arg = callee.arguments[0];
    if (arg && ts.isStringLiteralLike(arg) && SPEC_PARSERS.has(arg.text)) return arg.text as ParserKind;
  }
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'parseArgs' && ts.isIdentifier(callee.expression)) {
    const b = from(callee.expression.text);
    if (b && UTIL.has(b.specifier) && (b.imported === '*' || b.imported === 'default')) return 'parseArgs';
  }
  return undefined;
}

/**
 * Top-level `const { parseArgs } = require('node:util')`, `const util = require('util')`,
 * `const parser = require('yargs-parser')`, and names assigned a `require()` anywhere
 * (`arg ??= require('arg')`): local name → specifier.
 */
function requiredNames(sf: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') continue;
      const arg = init.arguments[0];
      if (!arg || !ts.isStringLiteralLike(arg)) continue;
      if (ts.isIdentifier(d.name)) out.set(d.name.text, arg.text);
      else if (ts.isObjectBindingPattern(d.name)) {
        for (const e of d.name.elements) {
          const prop = e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : ts.isIdentifier(e.name) ? e.name.text : undefined;
          if (prop === 'parseArgs' && ts.isIdentifier(e.name)) out.set(e.name.text, arg.text);
        }
      }
    }
  }
  // `let arg; … arg ??= require('arg')` (a parser loaded lazily, ts-node).
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && ts.isIdentifier(n.left) && LAZY_ASSIGNMENTS.has(n.operatorToken.kind)) {
      const right = skipOuter(n.right);
      const arg = ts.isCallExpression(right) && ts.isIdentifier(right.expression) && right.expression.text === 'require' ? right.arguments[0] : undefined;
      if (arg && ts.isStringLiteralLike(arg) && !out.has(n.left.text)) out.set(n.left.text, arg.text);
    }
  };
  if (sf.text.includes('require(')) walkTree(sf, visit);
  return out;
}

const LAZY_ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

/**
 * Every `parseArgs({ options: {…} })` (from `node:util`) and `yargsParser(argv, { boolean: […],
 * string: […], alias: {…}, default: {…} })` call in `module`, each as a parsed program
 * (framework `parseArgs` / `yargs-parser`). Option objects and lists are followed through
 * variables, imports and spreads by the evaluator.
 *
 * parseArgs: each key of `options` is a flag; `type` `'string'`/`'boolean'` (`multiple: true`
 * makes `string[]`/`boolean[]`), `short` an alias, `default` the default; with `allowNegative:
 * true` booleans are negatable. yargs-parser: each name in `boolean`/`string`/`number`/`array`/
 * `count` is a flag of that type, `alias` adds aliases, `default` defaults; camel-case
 * expansion makes `--seed-count` and `--seedCount` the same flag (the other spelling is an
 * alias).
 */
export function parserPrograms(ev: FlagEvaluator, module: ModuleInfo): CommandNode[] {
  const text = module.sf.text;
  if (!text.includes('parseArgs') && !text.includes(YARGS_PARSER) && ![...SPEC_PARSERS].some((p) => text.includes(`'${p}'`) || text.includes(`"${p}"`))) return [];
  const requires = requiredNames(module.sf);
  const out: CommandNode[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const kind = parserOf(module, n.expression, requires);
      const node =
        kind === 'parseArgs' ? parseArgsProgram(ev, n)
        : kind === 'yargs-parser' ? yargsParserProgram(ev, n)
        : kind === 'arg' ? argProgram(ev, n)
        : kind === 'mri' || kind === 'minimist' ? minimistProgram(ev, n, kind)
        : undefined;
      if (node) out.push(node);
    }
  };
  walkTree(module.sf, visit);
  return out;
}

function program(ev: FlagEvaluator, framework: CommandNode['framework'], call: ts.CallExpression): CommandNode {
  const node = newNode(framework, ev.location(call), { program: true });
  node.parsed = true;
  return node;
}

function parseArgsProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode | undefined {
  const configNode = call.arguments[0];
  if (!configNode) return undefined;
  const config = ev.objectEntries(configNode);
  if (!config) return undefined;
  const optionsEntry = config.find((e) => e.key === 'options');
  if (!optionsEntry) return undefined;
  const allowNegative = ev.booleanOf(config.find((e) => e.key === 'allowNegative')?.value) === true;
  // Options built at run time (`options: createOptions()`, filled by a loop) read as nothing:
  // the parameters are then unknown, not "none" (every flag would be reported unknown).
  const options = ev.objectEntries(optionsEntry.value);
  const literal = ts.isExpression(optionsEntry.value) && ts.isObjectLiteralExpression(skipOuter(optionsEntry.value));
  if (!options || (options.length === 0 && !literal)) return undefined;
  const node = program(ev, 'parseArgs', call);
  ev.markUnreadParts(node, ev.evaluate(optionsEntry.value));
  for (const option of options) {
    const spec = newParam(option.key, ev.location(option.keyNode));
    spec.dest = option.key;
    let type: string | undefined;
    let multiple = false;
    const strings = [`--${option.key}`];
    for (const e of ev.objectEntries(option.value) ?? []) {
      if (e.key === 'type') type = ev.stringOf(e.value);
      else if (e.key === 'short') {
        const short = ev.stringOf(e.value);
        if (short !== undefined) addAlias(spec, short);
        if (short !== undefined) strings.push(`-${short}`);
      } else if (e.key === 'multiple') multiple = ev.booleanOf(e.value) === true;
      else if (e.key === 'default' && ts.isExpression(e.value)) spec.default = ev.defaultOf(e.value);
    }
    if (type !== undefined) spec.type = multiple ? `${type}[]` : type;
    if (type === 'boolean' && allowNegative) spec.negatable = true;
    // Every key is a long option (`g` is `--g`; `-g` only as its `short`).
    const optionStrings = declaredOptionStrings(strings);
    if (optionStrings) spec.optionStrings = optionStrings;
    node.params.push(spec);
  }
  return node;
}

const YARGS_PARSER_TYPES = ['boolean', 'string', 'number', 'array', 'count'] as const;

function yargsParserProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode | undefined {
  const options = call.arguments[1] ? ev.objectEntries(call.arguments[1]) : undefined;
  if (!options) return undefined;
  const node = program(ev, 'yargs-parser', call);
  const byName = new Map<string, ParamSpec>();
  const ensure = (name: string, at: ts.Node): ParamSpec => {
    let spec = byName.get(name);
    if (!spec) {
      spec = newParam(name, ev.location(at));
      spec.dest = camelCase(name);
      byName.set(name, spec);
      node.params.push(spec);
    }
    return spec;
  };
  for (const e of options) {
    if (!(YARGS_PARSER_TYPES as readonly string[]).includes(e.key)) continue;
    const names = ev.stringsOf(e.value);
    const value = ev.evaluate(e.value);
    const elements = value?.kind === 'array' ? value.node.elements : undefined;
    (names ?? []).forEach((name, i) => {
      const spec = ensure(name, elements?.[i] ?? e.value);
      if (e.key === 'array') spec.type = spec.type === undefined ? 'array' : `${spec.type}[]`;
      else if (spec.type === 'array') spec.type = `${e.key}[]`;
      else spec.type = e.key;
      if (e.key === 'boolean') spec.negatable = true;
      if (e.key === 'count') spec.counted = true;
    });
  }
  for (const e of options) {
    if (e.key === 'alias') {
      for (const entry of ev.objectEntries(e.value) ?? []) {
        const spec = byName.get(entry.key) ?? ensure(entry.key, entry.keyNode);
        for (const alias of ev.stringsOf(entry.value) ?? []) addAlias(spec, alias);
      }
    } else if (e.key === 'default') {
      for (const entry of ev.objectEntries(e.value) ?? []) {
        const spec = byName.get(entry.key) ?? ensure(entry.key, entry.keyNode);
        if (ts.isExpression(entry.value)) spec.default = ev.defaultOf(entry.value);
      }
    }
  }
  for (const spec of node.params) {
    const twin = camelTwin(spec.name);
    if (twin !== undefined) addAlias(spec, twin);
  }
  return node;
}

/** `arg`'s type handlers that docdrift knows: the constructor names and what they give. */
const ARG_TYPES = new Map([
  ['String', 'string'],
  ['Number', 'number'],
  ['Boolean', 'boolean'],
]);

/**
 * `arg({ '--port': Number, '--tag': [String], '--verbose': arg.COUNT, '-p': '--port' }, opts)`:
 * every key is a flag as typed (a key must start with `-`); a string value makes the key an alias
 * of that flag (chains of aliases followed); `String`/`Number`/`Boolean` give the type
 * (`[String]` → `string[]`), `arg.COUNT` a counted flag, `arg.flag(fn)` a flag without a value (its type is the function's), any other
 * handler no type. `{ permissive: true }` accepts flags it does not declare. A spec that is no
 * literal object gives a program whose flags are unknown (`passesUnknownFlags`, no params).
 * See https://github.com/vercel/arg#usage.
 */
function argProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode | undefined {
  const specNode = call.arguments[0];
  if (!specNode) return undefined;
  const node = program(ev, 'arg', call);
  const entries = ev.objectEntries(specNode);
  if (!entries) node.passesUnknownFlags = true;
  else ev.markUnreadParts(node, ev.evaluate(specNode));
  const options = call.arguments[1] ? ev.objectEntries(call.arguments[1]) : undefined;
  if (options?.some((e) => e.key === 'permissive' && ev.booleanOf(e.value) === true)) node.passesUnknownFlags = true;
  const byKey = new Map<string, ParamSpec>();
  const keysOf = new Map<ParamSpec, string[]>();
  const aliases: Array<[string, string]> = [];
  for (const e of entries ?? []) {
    if (!/^-/.test(e.key)) continue; // arg throws: "argument key must start with '-'"
    const target = ev.stringOf(e.value);
    if (target !== undefined) {
      aliases.push([e.key, target]);
      continue;
    }
    const spec = newParam(e.key.replace(/^--?/, ''), ev.location(e.keyNode));
    const handler = ts.isExpression(e.value) ? skipOuter(e.value) : undefined;
    const array = handler && ts.isArrayLiteralExpression(handler) && handler.elements.length === 1 ? skipOuter(handler.elements[0] as ts.Expression) : undefined;
    const base = (array ?? handler)?.getText();
    const type = base !== undefined ? ARG_TYPES.get(base) : undefined;
    if (type !== undefined) spec.type = array ? `${type}[]` : type;
    if (handler && ts.isPropertyAccessExpression(handler) && handler.name.text === 'COUNT') {
      spec.type = 'number';
      spec.counted = true;
    }
    byKey.set(e.key, spec);
    keysOf.set(spec, [e.key]);
    node.params.push(spec);
  }
  // arg follows alias chains (`'-s': '--script-mode'`, `'--script-mode': '--scriptMode'`).
  const aliasOf = new Map(aliases);
  for (const [alias] of aliases) {
    let target = aliasOf.get(alias);
    for (let hops = 0; target !== undefined && !byKey.has(target) && hops < 8; hops++) target = aliasOf.get(target);
    const spec = target === undefined ? undefined : byKey.get(target);
    if (spec) addAlias(spec, alias.replace(/^--?/, ''));
    if (spec) keysOf.get(spec)?.push(alias);
  }
  // arg matches keys exactly: `'--g'` is typed as declared, `-g` is another option.
  for (const [spec, keys] of keysOf) {
    const optionStrings = declaredOptionStrings(keys);
    if (optionStrings) spec.optionStrings = optionStrings;
  }
  return node;
}

/**
 * `mri(argv, { alias, boolean, string, default, unknown })` and `minimist(argv, { string,
 * boolean, alias, default, unknown, '--' })`: each name in `boolean`/`string` is a flag of that
 * type, `alias` joins names (both ways), `default` adds defaults (and, for mri, the type of a
 * boolean or string default). Every flag not declared a string is negatable (both read `--no-x`
 * as `x: false`). The flag is named by its longest spelling. Both accept any flag unless an
 * `unknown` handler is given, so without one the program `passesUnknownFlags`, and the
 * properties the code reads from the result (`argv.port`, `argv['dry-run']`, `const { port } =
 * argv`) are flags too, a short and a long name read as alternatives (`argv.p || argv.port`,
 * `!argv.s && !argv.silent`) one flag; when the whole result is handed on (spread, passed to a function,
 * returned, assigned; logging it aside) the program has no params: its flags are unknown.
 * See https://github.com/lukeed/mri#options and https://github.com/minimistjs/minimist#methods.
 */
function minimistProgram(ev: FlagEvaluator, call: ts.CallExpression, kind: 'mri' | 'minimist'): CommandNode {
  const node = program(ev, kind, call);
  const optionsNode = call.arguments[1];
  const options = optionsNode ? ev.objectEntries(optionsNode) : [];
  if (!options) node.passesUnknownFlags = true;
  const specs: ParamSpec[] = [];
  const find = (name: string): ParamSpec | undefined => specs.find((p) => p.name === name || p.aliases.includes(name));
  const ensure = (name: string, at: ts.Node): ParamSpec => {
    let spec = find(name);
    if (!spec) {
      spec = newParam(name, ev.location(at));
      spec.dest = name;
      specs.push(spec);
    }
    return spec;
  };
  const typed = (spec: ParamSpec, type: string): void => {
    spec.type = type;
    if (type === 'boolean') spec.negatable = true;
    else delete spec.negatable;
  };
  for (const e of options ?? []) {
    if (e.key !== 'boolean' && e.key !== 'string') continue;
    const value = ev.evaluate(e.value);
    const elements = value?.kind === 'array' ? value.node.elements : undefined;
    (ev.stringsOf(e.value) ?? []).forEach((name, i) => typed(ensure(name, elements?.[i] ?? e.value), e.key));
  }
  for (const e of options ?? []) {
    if (e.key !== 'alias') continue;
    for (const entry of ev.objectEntries(e.value) ?? []) {
      const names = [entry.key, ...(ev.stringsOf(entry.value) ?? [])];
      const existing = names.map(find).filter((p): p is ParamSpec => p !== undefined);
      const spec = existing[0] ?? ensure(entry.key, entry.keyNode);
      for (const other of existing.slice(1)) {
        if (other === spec) continue;
        specs.splice(specs.indexOf(other), 1);
        for (const n of [other.name, ...other.aliases]) addAlias(spec, n);
        if (spec.type === undefined && other.type !== undefined) typed(spec, other.type);
      }
      for (const n of names) addAlias(spec, n);
    }
  }
  for (const e of options ?? []) {
    if (e.key === 'unknown') delete node.passesUnknownFlags;
    if (e.key !== 'default') continue;
    for (const entry of ev.objectEntries(e.value) ?? []) {
      const spec = ensure(entry.key, entry.keyNode);
      if (!ts.isExpression(entry.value)) continue;
      spec.default = ev.defaultOf(entry.value);
      const literal = skipOuter(entry.value);
      if (kind === 'mri' && spec.type === undefined) {
        if (literal.kind === ts.SyntaxKind.TrueKeyword || literal.kind === ts.SyntaxKind.FalseKeyword) typed(spec, 'boolean');
        else if (ts.isStringLiteralLike(literal)) typed(spec, 'string');
      }
    }
  }
  if (!(options ?? []).some((e) => e.key === 'unknown')) {
    node.passesUnknownFlags = true;
    const reads = resultReads(call);
    // The whole result handed on (`fn({ ...argv })`, `run(argv)`): which flags it reads is the
    // consumer's business, so the program's flags are unknown rather than the few declared here.
    if (reads === 'escapes') return node;
    for (const [name, at] of reads.names) if (!find(name)) ensure(name, at);
    // `argv.p || argv.port`: two spellings of one flag.
    for (const [a, b] of reads.pairs) {
      const [first, second] = [find(a), find(b)];
      if (!first || !second || first === second) continue;
      // The one declared (or read) first keeps its place.
      const [x, y] = specs.indexOf(first) < specs.indexOf(second) ? [first, second] : [second, first];
      specs.splice(specs.indexOf(y), 1);
      for (const n of [y.name, ...y.aliases]) addAlias(x, n);
      if (x.type === undefined && y.type !== undefined) typed(x, y.type);
      x.default ??= y.default;
    }
  }
  // Both read `--no-x` as `x: false` for any flag that is not declared a string.
  for (const spec of specs) if (spec.type !== 'string') spec.negatable = true;
  // Named by the longest spelling (`alias: { p: 'port' }` → `port`, alias `p`).
  for (const spec of specs) {
    const longest = [spec.name, ...spec.aliases].reduce((a, b) => (b.length > a.length ? b : a));
    if (longest !== spec.name) {
      spec.aliases = [spec.name, ...spec.aliases.filter((a) => a !== longest)];
      spec.name = longest;
      spec.dest = longest;
    }
  }
  node.params.push(...specs);
  return node;
}

/** Names that are no flag in a parsed result: positionals, the rest after `--`, and object methods. */
const NOT_FLAGS = new Set(['_', '--', 'hasOwnProperty', 'toString', 'valueOf', 'constructor']);

/**
 * The properties the code reads from a parser's result held in a variable, in its scope:
 * `argv.port`, `argv['dry-run']`, `const { port, p: short } = argv` (and the result destructured
 * in place, `const { port } = minimist(…)`), each with where it is read, and the names read as
 * alternatives (`argv.p || argv.port`, `argv.port ?? argv.p`: `pairs`, one flag). A name another variable
 * shadows in a nested scope is not told apart.
 */
function resultReads(call: ts.CallExpression): { names: Array<[string, ts.Node]>; pairs: Array<[string, string]> } | 'escapes' {
  const out: Array<[string, ts.Node]> = [];
  const pairs: Array<[string, string]> = [];
  const add = (name: string | undefined, at: ts.Node): void => {
    if (name !== undefined && !NOT_FLAGS.has(name) && !out.some(([n]) => n === name)) out.push([name, at]);
  };
  const destructured = (pattern: ts.ObjectBindingPattern): void => {
    for (const el of pattern.elements) {
      if (el.dotDotDotToken) continue;
      const key = el.propertyName ?? el.name;
      add(ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined, key);
    }
  };
  let e: ts.Node = call;
  while (ts.isParenthesizedExpression(e.parent) || ts.isAsExpression(e.parent) || ts.isAwaitExpression(e.parent)) e = e.parent;
  const decl = e.parent;
  // A result not held in a variable is handed on (`main(minimist(argv))`), unless it is dropped.
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== e) return ts.isExpressionStatement(decl) ? { names: out, pairs } : 'escapes';
  if (ts.isObjectBindingPattern(decl.name)) {
    destructured(decl.name);
    return decl.name.elements.some((el) => el.dotDotDotToken) ? 'escapes' : { names: out, pairs };
  }
  if (!ts.isIdentifier(decl.name)) return { names: out, pairs };
  const name = decl.name.text;
  const scope = decl.parent.parent?.parent;
  let escapes = false;
  const readName = (x: ts.Expression): string | undefined => {
    const e = skipOuter(x);
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name) return e.name.text;
    if (ts.isElementAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
    return undefined;
  };
  const visit = (n: ts.Node): void => {
    // `argv.p || argv.port`, `argv.port ?? argv.p`, `!argv.s && !argv.silent` (also the last two of a longer chain).
    const op = ts.isBinaryExpression(n) ? n.operatorToken.kind : undefined;
    if (ts.isBinaryExpression(n) && (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.AmpersandAmpersandToken)) {
      const not = op === ts.SyntaxKind.AmpersandAmpersandToken;
      const side = (x: ts.Expression): string | undefined => {
        const e = skipOuter(x);
        if (!not) return readName(e);
        return ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken ? readName(e.operand) : undefined;
      };
      const left = skipOuter(n.left);
      const a = side(left) ?? (ts.isBinaryExpression(left) && left.operatorToken.kind === op ? side(left.right) : undefined);
      const b = side(n.right);
      if (a !== undefined && b !== undefined && spellingsOfOne(a, b)) pairs.push([a, b]);
    }
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === name && !ts.isCallExpression(n.parent)) add(n.name.text, n.name);
    else if (ts.isElementAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === name && ts.isStringLiteralLike(n.argumentExpression)) add(n.argumentExpression.text, n.argumentExpression);
    else if (ts.isVariableDeclaration(n) && ts.isObjectBindingPattern(n.name) && n.initializer && ts.isIdentifier(skipOuter(n.initializer)) && (skipOuter(n.initializer) as ts.Identifier).text === name) {
      if (n.name.elements.some((el) => el.dotDotDotToken)) escapes = true;
      destructured(n.name);
    } else if (ts.isIdentifier(n) && n.text === name && n !== decl.name && handsOn(n)) escapes = true;
  };
  if (scope) walkTree(scope, visit);
  return escapes ? 'escapes' : { names: out, pairs };
}

/**
 * Whether two names read as alternatives can be two spellings of one flag: a short one-letter
 * name and a long one (`p`/`port`), or a name and a longer one it begins (`user`/`username`).
 * `argv.gzip || argv.brotli` reads two flags.
 */
function spellingsOfOne(a: string, b: string): boolean {
  if (a === b || NOT_FLAGS.has(a) || NOT_FLAGS.has(b)) return false;
  if ((a.length === 1) !== (b.length === 1)) return true;
  return a.length > 1 && b.length > 1 && (a.startsWith(b) || b.startsWith(a));
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.InKeyword,
]);

/**
 * Whether a use of the variable holding a parsed result hands the whole of it on: anything but a
 * property read, a destructuring, a `typeof`/comparison, or an argument of `console.*()` and
 * `JSON.stringify()` (logging reads no flag).
 */
function handsOn(id: ts.Identifier): boolean {
  let e: ts.Node = id;
  while (ts.isParenthesizedExpression(e.parent) || ts.isAsExpression(e.parent) || ts.isNonNullExpression(e.parent)) e = e.parent;
  const p = e.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === e) return false;
  // Not the variable: a property name (`process.argv`), a key (`{ argv: 1 }`), a declaration's name.
  if ((ts.isPropertyAccessExpression(p) && p.name === e) || ((ts.isPropertyAssignment(p) || ts.isBindingElement(p) || ts.isParameter(p) || ts.isFunctionLike(p)) && p.name === e)) return false;
  if (ts.isVariableDeclaration(p) && (p.name === e || ts.isObjectBindingPattern(p.name))) return false;
  if (ts.isTypeOfExpression(p) || ts.isPrefixUnaryExpression(p) || ts.isIfStatement(p)) return false;
  if (ts.isBinaryExpression(p) && COMPARISONS.has(p.operatorToken.kind)) return false;
  if (ts.isCallExpression(p) && p.expression !== e) {
    const callee = p.expression.getText(sourceFileOf(p.expression));
    if (/^console\.\w+$/.test(callee) || callee === 'JSON.stringify') return false;
  }
  return true;
}
