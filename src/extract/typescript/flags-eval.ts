/** A small abstract evaluator over syntax trees: follows yargs, commander, cac, sade and meow values through variables, parameters, imports and calls, applying definitions as it meets them. */
import { ts } from 'ts-morph';
import type { DefaultValue, InputDiagnostic, SourceLocation } from '../../model/types.js';
import { applyCac, cacProgram } from './flags-cac.js';
import { applyCommander, applyCommanderOption, commanderOption } from './flags-commander.js';
import { meowProgram } from './flags-meow.js';
import { applySade, sadeProgram } from './flags-sade.js';
import { newNode, type CommandNode } from './flags-node.js';
import { applyYargs } from './flags-yargs.js';
import type { Resolver } from './resolve.js';
import { dirname, findSource, joinPath, resolveSpecifier, type ModuleInfo } from './scan.js';
import { linearRegExp } from '../../shared/linear-regexp.js';
import { defaultOf, hasModifier, isLiteral, locationOf, propertyName, skipOuter, walkTree, sourceFileOf } from './syntax.js';
import type { Entry, FlagEvaluator, FunctionValueNode, OptionValue, Value } from './types.js';

/** What a name is bound to in its scope. */
type Binding =
  | { kind: 'var'; decl: ts.VariableDeclaration }
  | { kind: 'destructured'; decl: ts.VariableDeclaration; element: ts.BindingElement; property: string }
  | { kind: 'param'; decl: ts.ParameterDeclaration }
  | { kind: 'function'; node: ts.FunctionDeclaration }
  | { kind: 'class'; node: ts.ClassDeclaration }
  | { kind: 'import'; module: ModuleInfo; name: string }
  /**
   * A `for (const x of items)` variable, or the item parameter of a `.forEach`/`.map`/`.filter`
   * callback (`loop` is then the parameter), or one of its destructured properties: the current
   * item while the loop is unrolled.
   */
  | { kind: 'loop'; loop: ts.Node; property?: string; index?: number }
  /** A class declared in the scope: `new X()` gives an instance whose members are read (or a commander command, for a subclass of `Command`). */
  | { kind: 'class'; node: ts.ClassLikeDeclaration }
  /** Bound to something this evaluator does not follow (a loop variable, a destructured parameter). */
  | { kind: 'opaque' };

/** How many items of a literal array a `for … of` loop is unrolled over at most. */
const MAX_UNROLL = 300;
/**
 * How many loop iterations (`for … of` bodies and `.forEach` callbacks walked once per item) are
 * unrolled per file, nested loops and the functions they call included. Loops nest, so
 * {@link MAX_UNROLL} alone allowed 300³ = 27,000,000 commander options from a 2.5 KB file (s26
 * sweep D4). Past it the rest of the iterations are not read: the loop's body is walked once with
 * the item unknown, and the commands the loops defined flags on are partly known (`unreadFlags`).
 * The same number as the Python side's `MAX_COMMANDS_PER_PROGRAM`.
 */
export const MAX_UNROLLED_ITERATIONS = 10_000;

/** One item of an array known statically, with the callback parameters it went through bound to what they stood for (`.map((o) => …)`: `o` → the original item). */
interface Item {
  expr: ts.Expression;
  env: ReadonlyArray<readonly [ts.ParameterDeclaration, ts.Expression]>;
}

/** Array methods that change an array in a way {@link Evaluator.arrayItems} does not follow. */
const MUTATING_METHODS = new Set(['splice', 'pop', 'shift', 'fill', 'copyWithin', 'reverse', 'sort']);
/** Array methods whose callback gets each item as its first parameter. */
const CALLBACK_METHODS = new Set(['forEach', 'map', 'filter', 'flatMap', 'find', 'some', 'every']);

/** `Object.entries`/`keys`/`values`: arrays over an object's entries. */
const OBJECT_ITERATORS = new Set(['entries', 'keys', 'values']);

/** Calls that reorder an array without changing its items (lodash `sortBy`, `orderBy`). */
const ORDER_ONLY_FUNCTIONS = new Set(['sortBy', 'orderBy']);
const ORDER_ONLY_METHODS = new Set(['sort', 'slice', 'toSorted', 'reverse']);

/** A `slice` bound written as a number literal (`3`, `-2`, `(1)`), or undefined. */
function sliceBound(arg: ts.Expression): number | undefined {
  const e = skipOuter(arg);
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(skipOuter(e.operand))) return -Number((skipOuter(e.operand) as ts.NumericLiteral).text);
  return undefined;
}

/** Whether a class member is `static`. */
function isStatic(m: ts.ClassElement): boolean {
  return ts.getModifiers(m as ts.HasModifiers)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) ?? false;
}

/** The expression of `export default <expression>` in a file. */
function defaultExpression(sf: ts.SourceFile): ts.Expression | undefined {
  for (const statement of sf.statements) if (ts.isExportAssignment(statement) && !statement.isExportEquals) return statement.expression;
  return undefined;
}

const YARGS_SPECIFIER = /^yargs(?:\/yargs|\/index)?(?:\.[cm]?js)?$/;
const COMMANDER_SPECIFIERS = new Set(['commander', '@commander-js/extra-typings']);
const COMMANDER_MEMBERS = new Set(['Command', 'Option', 'Argument', 'createCommand', 'createOption', 'createArgument', 'program']);
/** Packages that export one factory making a program (as default export and, for cac, as `cac`/`CAC`). */
const FACTORIES: ReadonlyMap<string, 'cac' | 'sade' | 'meow'> = new Map([
  ['cac', 'cac'],
  ['sade', 'sade'],
  ['meow', 'meow'],
]);
/** Named exports that are the factory itself. */
const FACTORY_MEMBERS = new Set(['default', 'cac', 'CAC']);
/**
 * How many evaluations may nest (an expression whose value needs another's, and so on): deeper
 * values are unknown. Each level costs several stack frames; a call chain is evaluated link by
 * link from its innermost receiver (see `evaluateChain`), so its length does not count.
 */
export const MAX_EVAL_DEPTH = 400;
/**
 * How many levels of spreads an object's entries are read through (`{ ...o19, k19 }` where `o19`
 * spreads `o18`, …; also `Object.assign` arguments and conditional spreads). A deeper object is
 * cut: its entries are not read, and {@link Evaluator.spreadCut} names where, so that the command
 * is partly known (`CommandNode.unreadFlags`) instead of missing flags silently (#33 sweep D7).
 * Each object is read once per level (memoised per read), so objects that spread one another
 * twice (`{ ...a, ...a }` chains) cost the number of objects times this, not 2^levels.
 */
export const MAX_SPREAD_DEPTH = 32;
/** How many links of one call chain `evaluateChain` evaluates innermost first (a bound on the pre-pass; more links nest). */
const MAX_CHAIN = 100_000;

/**
 * Evaluates expressions lazily, memoised per node, so each definition is applied once however
 * often the walk meets it. A builder function is walked once per command it builds, with its first
 * parameter bound to that command (its memo entries are forgotten first).
 */
export class Evaluator implements FlagEvaluator {
  private readonly memo = new Map<ts.Node, Value>();
  private readonly busy = new Set<ts.Node>();
  /** How many `evaluate` calls are under way (see {@link MAX_EVAL_DEPTH}). */
  private depth = 0;
  /** Call-chain links `evaluateChain` has evaluated (forgotten with the memo). */
  private readonly chained = new Set<ts.Node>();
  private readonly params = new Map<ts.ParameterDeclaration, Value>();
  private readonly scopes = new Map<ts.Node, Map<string, Binding>>();
  private readonly singletons = new Map<string, CommandNode>();
  private readonly active = new Set<ts.Node>();
  private readonly loopItems = new Map<ts.Node, ts.Expression>();
  /** Nodes made for what the source implies (`Object.entries` pairs and keys), by source node and tag. */
  private readonly syntheticNodes = new Map<ts.Node, Map<string, ts.Node>>();
  /** `this` of the commander subclass constructors being walked ({@link applySubclass}). */
  private readonly thisBindings = new Map<ts.ClassLikeDeclaration, Value>();
  /** Every command node created, in creation order. */
  readonly nodes: CommandNode[] = [];
  /** During one outermost {@link entries} / {@link hasUnknownParts} read: results by object node and level. */
  private entriesMemo?: Map<ts.Node, Map<number, Entry[]>>;
  private unknownMemo?: Map<ts.Node, Map<number, boolean>>;
  /** Warnings from {@link warn}: definitions over a limit. */
  readonly diagnostics: InputDiagnostic[] = [];
  /** {@link writtenAsIs} by literal. */
  private readonly asIsMemo = new WeakMap<ts.Node, boolean>();
  /** Loop iterations unrolled per file (see {@link MAX_UNROLLED_ITERATIONS}). */
  private readonly unrolled = new Map<ts.SourceFile, number>();
  /** Files whose loops {@link MAX_UNROLLED_ITERATIONS} cut (warned once each). */
  private readonly unrollCut = new Set<ts.SourceFile>();
  /** While a loop is unrolled: the commands a method was called on (marked partly known if a loop is cut). */
  private touched?: Set<CommandNode>;

  constructor(
    private readonly resolver: Resolver,
    private readonly bySourceFile: ReadonlyMap<ts.SourceFile, ModuleInfo>,
    private readonly workspaces: ReadonlyMap<string, string> = new Map(),
  ) {}

  /**
   * The module a specifier names: a relative file, or a file of a sibling workspace package
   * (`@acme/plugin/lib/options` → `packages/plugin/src/lib/options.ts`; see `extractTypeScriptFlags`).
   */
  private moduleFor(from: ModuleInfo, specifier: string): ModuleInfo | undefined {
    return this.resolver.moduleFor(from, specifier) ?? this.workspaceModule(specifier);
  }

  private workspaceModule(specifier: string): ModuleInfo | undefined {
    if (specifier.startsWith('.') || this.workspaces.size === 0) return undefined;
    let best: [string, string] | undefined;
    for (const [name, dir] of this.workspaces) {
      if ((specifier === name || specifier.startsWith(`${name}/`)) && (!best || name.length > best[0].length)) best = [name, dir];
    }
    if (!best) return undefined;
    const [name, dir] = best;
    const rest = specifier.slice(name.length + 1);
    const prefix = dir === '' || dir === '.' ? '' : `${dir}/`;
    const files = new Set(this.resolver.modules.keys());
    const tries = rest === '' ? ['src/index', 'index', 'lib/index'] : [`src/${rest}`, rest];
    for (const t of tries) {
      const file = findSource(`${prefix}${t}`, files);
      if (file !== undefined) return this.resolver.modules.get(file);
    }
    return undefined;
  }

  /** Evaluates every call and `new` under `root` (and `.argv` reads), in source order. */
  walk(root: ts.Node): void {
    walkTree(root, (n) => {
      if (ts.isForOfStatement(n) && !this.loopItems.has(n) && this.unroll(n)) return false;
      if (ts.isCallExpression(n) && this.unrollForEach(n)) return false;
      if (ts.isCallExpression(n) || ts.isNewExpression(n) || (ts.isPropertyAccessExpression(n) && n.name.text === 'argv')) this.evaluateChain(n);
      return undefined;
    });
  }

  /**
   * Evaluates `expr` after the receivers of its call chain, innermost first
   * (`program.option(…).option(…)…`): each link then finds its receiver's value memoised, so a
   * chain of 10,000 calls costs 10,000 shallow evaluations, not one 10,000-deep recursion.
   */
  private evaluateChain(expr: ts.Expression): Value | undefined {
    const links: ts.Expression[] = [];
    for (let e: ts.Expression = skipOuter(expr); links.length < MAX_CHAIN; ) {
      if (ts.isCallExpression(e) || ts.isNewExpression(e)) {
        // A link an outer call's pre-pass already evaluated ends this one: linear over a chain.
        if (this.chained.has(e)) break;
        this.chained.add(e);
        links.push(e);
      }
      if (ts.isCallExpression(e) || ts.isNewExpression(e) || ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isAwaitExpression(e)) e = skipOuter(e.expression);
      else break;
    }
    for (let i = links.length - 1; i > 0; i--) if (!this.memo.has(skipOuter(links[i] as ts.Expression))) this.evaluate(links[i] as ts.Expression);
    return this.evaluate(expr);
  }

  /** Walks a function's body with its parameters bound to `args` (a builder, a helper that adds options). */
  applyFunction(fn: FunctionValueNode, args: readonly (Value | undefined)[]): void {
    if (!fn.body || this.active.has(fn)) return;
    this.active.add(fn);
    try {
      fn.parameters.forEach((param, i) => {
        const arg = args[i];
        if (arg) this.params.set(param, arg);
        else this.params.delete(param);
      });
      this.forget(fn.body);
      this.walk(fn.body);
    } finally {
      this.active.delete(fn);
    }
  }

  private forget(n: ts.Node): void {
    walkTree(n, (c) => {
      this.memo.delete(c);
      this.chained.delete(c);
    });
  }

  /** The value of an expression (or of a function/method declaration), `undefined` when unknown. */
  evaluate(node: ts.Node): Value | undefined {
    const e = ts.isExpression(node) ? skipOuter(node) : node;
    const known = this.memo.get(e);
    if (known) return known;
    if (this.busy.has(e) || this.depth >= MAX_EVAL_DEPTH) return undefined;
    this.busy.add(e);
    this.depth++;
    let value: Value | undefined;
    try {
      value = this.compute(e);
    } finally {
      this.depth--;
      this.busy.delete(e);
    }
    if (value) this.memo.set(e, value);
    return value;
  }

  private compute(e: ts.Node): Value | undefined {
    if (ts.isIdentifier(e)) return this.identifier(e);
    if (ts.isCallExpression(e)) return this.call(e);
    if (ts.isNewExpression(e)) return this.construct(e);
    if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.SuperKeyword) {
      // `static flags = { ...super.flags, x }`: the base class's static member.
      const cls = enclosingClass(e);
      const base = cls ? this.baseClass(cls) : undefined;
      return base ? this.member(base, e.name.text, e) : undefined;
    }
    if (e.kind === ts.SyntaxKind.ThisKeyword) {
      // `this` inside a commander subclass's constructor being applied (`this.option('--a')`).
      const cls = enclosingClass(e);
      return cls ? this.thisBindings.get(cls) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = enclosingClass(e);
      const bound = cls ? this.thisBindings.get(cls) : undefined;
      if (bound) return undefined;
      return this.classMember(e, e.name.text);
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) return this.property(e.expression, e.name.text);
    if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return this.property(e.expression, e.argumentExpression.text);
    if (ts.isElementAccessExpression(e)) {
      // `options[key]` with `key` a loop's known key (`Object.keys(options).forEach((key) => …)`).
      const key = this.stringOf(e.argumentExpression);
      return key === undefined ? undefined : this.property(e.expression, key);
    }
    if (ts.isObjectLiteralExpression(e)) return { kind: 'object', node: e };
    if (ts.isArrayLiteralExpression(e)) return { kind: 'array', node: e };
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isFunctionDeclaration(e) || ts.isMethodDeclaration(e)) return { kind: 'function', node: e };
    if (ts.isClassExpression(e) || ts.isClassDeclaration(e)) return { kind: 'class', node: e };
    if (ts.isAwaitExpression(e)) return this.evaluate(e.expression);
    if (ts.isClassDeclaration(e) || ts.isClassExpression(e)) return { kind: 'class', node: e };
    return undefined;
  }

  /** The class a class extends (`class X extends Base`), when it is one the evaluator can follow. */
  baseClass(cls: ts.ClassLikeDeclaration): Extract<Value, { kind: 'class' }> | undefined {
    const heritage = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    const base = heritage ? this.evaluate(heritage.expression) : undefined;
    return base?.kind === 'class' ? base : undefined;
  }

  /**
   * The expression a value is defined by: an identifier followed to its variable's initializer
   * (also imported), a property of a known object or a class's static member to its initializer;
   * at most 6 steps. Anything else is returned as it is (without parentheses and type assertions).
   */
  definition(expr: ts.Expression, depth = 0): ts.Expression {
    const e = skipOuter(expr);
    if (depth > 6) return e;
    if (ts.isIdentifier(e)) {
      const b = this.binding(e);
      if (b?.kind === 'var' && b.decl.initializer) return this.definition(b.decl.initializer, depth + 1);
      if (b?.kind === 'import') {
        const resolved = this.resolver.resolve(b.module, [e.text], 'values');
        if (resolved?.kind === 'declaration' && resolved.decl.kind === 'variable') return this.definition(resolved.decl.node.initializer, depth + 1);
      }
      return e;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      const owner = this.evaluate(e.expression);
      const node = owner ? this.memberNode(owner, e.name.text) : undefined;
      if (node && ts.isExpression(node)) return this.definition(node, depth + 1);
    }
    return e;
  }

  // ── names ──────────────────────────────────────────────────────────────────

  private identifier(id: ts.Identifier): Value | undefined {
    const b = this.binding(id);
    return b ? this.bindingValue(b, id) : undefined;
  }

  private bindingValue(b: Binding, at: ts.Node): Value | undefined {
    switch (b.kind) {
      case 'var':
        return b.decl.initializer ? this.evaluate(b.decl.initializer) : undefined;
      case 'destructured': {
        const from = b.decl.initializer ? this.evaluate(b.decl.initializer) : undefined;
        return from ? this.member(from, b.property, b.element) : undefined;
      }
      case 'param':
        return this.params.get(b.decl);
      case 'function':
        return { kind: 'function', node: b.node };
      case 'class':
        return { kind: 'class', node: b.node };
      case 'import':
        return this.imported(b.module, b.name, at);
      case 'loop': {
        const node = this.loopNode(b);
        return node ? this.evaluate(node) : undefined;
      }
      case 'opaque':
        return undefined;
    }
  }

  /** The node a loop binding stands for in the current iteration: the item, or its property's value; `null` when the item lacks the property; `undefined` outside an unrolled loop. */
  private loopNode(b: Extract<Binding, { kind: 'loop' }>): ts.Node | null | undefined {
    const item = this.loopItems.get(b.loop);
    if (!item) return undefined;
    if (b.index !== undefined) {
      // `for (const [key, value] of Object.entries(o))`: an element of the item.
      const value = this.evaluate(item);
      if (value?.kind !== 'array') return undefined;
      const el = value.node.elements[b.index];
      return el === undefined || ts.isSpreadElement(el) || ts.isOmittedExpression(el) ? undefined : el;
    }
    if (b.property === undefined) return item;
    const value = this.evaluate(item);
    if (value?.kind !== 'object') return undefined;
    return this.entries(value).find((e) => e.key === b.property)?.value ?? null;
  }

  /**
   * Unrolls `for (const { long, short } of OPTIONS) program.option(…)` over a literal array
   * (through variables, imports, spreads and order-only calls: `sortBy(x, …)`, `x.sort()`,
   * `x.slice()`): the body is walked once per item with the loop variable bound to it.
   * False when the array is not known.
   */
  private unroll(loop: ts.ForOfStatement): boolean {
    const items = this.arrayItems(loop.expression, 0);
    if (!items || items.length === 0 || items.length > MAX_UNROLL) return false;
    this.walk(loop.expression);
    this.unrollBody(loop, loop.statement, items);
    return true;
  }

  /** `OPTIONS.forEach((o) => program.option(o.flags, o.description))` over a known array: as a `for … of` loop. */
  private unrollForEach(call: ts.CallExpression): boolean {
    const callee = skipOuter(call.expression);
    const fn = call.arguments[0] && skipOuter(call.arguments[0]);
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'forEach' || !fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return false;
    const param = fn.parameters[0];
    if (!param || this.loopItems.has(param)) return false;
    const items = this.arrayItems(callee.expression, 0);
    if (!items || items.length === 0 || items.length > MAX_UNROLL) return false;
    this.walk(callee.expression);
    this.unrollBody(param, fn.body, items);
    return true;
  }

  /** Walks `body` once per item with `key` (a loop or a callback's parameter) bound to it, and the callbacks the item went through bound too. */
  private unrollBody(key: ts.Node, body: ts.Node, items: readonly Item[]): void {
    const outermost = this.touched === undefined;
    if (outermost) this.touched = new Set();
    try {
      const sf = sourceFileOf(key);
      let cut = false;
      for (const item of items) {
        const spent = this.unrolled.get(sf) ?? 0;
        if (spent >= MAX_UNROLLED_ITERATIONS) {
          cut = true;
          break;
        }
        this.unrolled.set(sf, spent + 1);
        this.bindItem(key, item);
        this.forget(body);
        this.walk(body);
      }
      this.unbindItem(key, items);
      this.forget(body);
      if (cut) this.cutLoop(key, body);
    } finally {
      if (outermost) this.touched = undefined;
    }
  }

  /**
   * A loop {@link MAX_UNROLLED_ITERATIONS} stopped: its body is walked once with the item unknown
   * (as for a loop over an array docdrift cannot read), the commands the loops being unrolled
   * defined anything on are partly known, and the file gets one warning.
   */
  private cutLoop(key: ts.Node, body: ts.Node): void {
    this.walk(body);
    this.forget(body);
    const loop = ts.isParameter(key) ? key.parent.parent : key;
    const sf = sourceFileOf(loop);
    const at = this.location(loop);
    if (this.touched && this.touched.size > 0) {
      const text = sf.text.slice(loop.getStart(sf), Math.min(loop.end, loop.getStart(sf) + 200)).replace(/\s+/g, ' ');
      const construct = text.length > 60 ? `${text.slice(0, 57)}...` : text;
      for (const node of this.touched) node.unreadFlags ??= { location: at, construct, cut: `${MAX_UNROLLED_ITERATIONS.toLocaleString('en-US')} unrolled loop iterations in ${at.file}` };
    }
    if (this.unrollCut.has(sf)) return;
    this.unrollCut.add(sf);
    this.warn(loop, `loops here unroll to more than ${MAX_UNROLLED_ITERATIONS.toLocaleString('en-US')} iterations in this file (nested loops multiply): the rest are not read, and the commands they define flags on are partly known`);
  }

  private bindItem(key: ts.Node, item: Item): void {
    this.loopItems.set(key, item.expr);
    for (const [param, expr] of item.env) {
      this.loopItems.set(param, expr);
      this.forget(param.parent);
    }
  }

  private unbindItem(key: ts.Node, items: readonly Item[]): void {
    this.loopItems.delete(key);
    for (const item of items) {
      for (const [param] of item.env) {
        this.loopItems.delete(param);
        this.forget(param.parent);
      }
    }
  }

  /**
   * The items of an array known statically, at most {@link MAX_UNROLL} deep in calls: a literal
   * (spreads of known arrays inlined) and what a `const X = []` declaration's `X.push(…)`/
   * `X.unshift(…)` calls in its scope add; through variables, imports and default exports;
   * order-only calls (`sortBy(x, …)`, `x.sort()`, `x.slice()`), `a.concat(b, c)`,
   * `x.map((o) => …)` (each item is the callback's result, with `o` bound to the item) and
   * `x.filter((o) => …)` whose predicate is known for every item. Undefined when any part is not
   * known (an array also mutated otherwise, a predicate that reads run-time values).
   */
  private arrayItems(expr: ts.Expression, depth: number): Item[] | undefined {
    if (depth > 6) return undefined;
    const e = skipOuter(expr);
    if (ts.isCallExpression(e)) {
      const callee = skipOuter(e.expression);
      if (ts.isIdentifier(callee) && ORDER_ONLY_FUNCTIONS.has(callee.text) && e.arguments[0]) return this.arrayItems(e.arguments[0], depth + 1);
      if (!ts.isPropertyAccessExpression(callee)) return undefined;
      if (ts.isIdentifier(callee.expression) && callee.expression.text === 'Object' && !this.binding(callee.expression) && OBJECT_ITERATORS.has(callee.name.text)) {
        return this.objectItems(callee.name.text as 'entries' | 'keys' | 'values', e.arguments[0]);
      }
      const method = callee.name.text;
      if (method === 'slice' && e.arguments.length > 0) {
        // `x.slice(0, 50)`: those items only (was read as all of `x`); bounds that are not number literals: unknown.
        const bounds = e.arguments.map(sliceBound);
        if (e.arguments.length > 2 || bounds.some((b) => b === undefined)) return undefined;
        return this.arrayItems(callee.expression, depth + 1)?.slice(bounds[0], bounds[1]);
      }
      if (ORDER_ONLY_METHODS.has(method)) return this.arrayItems(callee.expression, depth + 1);
      if (method === 'concat') {
        const out = this.arrayItems(callee.expression, depth + 1);
        for (const arg of e.arguments) {
          if (!out) return undefined;
          const items = this.arrayItems(arg, depth + 1);
          if (items) out.push(...items);
          else if (this.evaluate(arg)?.kind === 'object') out.push({ expr: arg, env: [] });
          else return undefined;
        }
        return out;
      }
      if (method === 'map' || method === 'filter') {
        const fn = e.arguments[0] && skipOuter(e.arguments[0]);
        const param = fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn.parameters[0] : undefined;
        const result = fn && param ? returnedExpression(fn as ts.ArrowFunction | ts.FunctionExpression) : undefined;
        const items = result ? this.arrayItems(callee.expression, depth + 1) : undefined;
        if (!items || !param || !result) return undefined;
        const out: Item[] = [];
        for (const item of items) {
          const env = [...item.env, [param, item.expr] as const];
          if (method === 'map') {
            out.push({ expr: result, env });
            continue;
          }
          const next = { expr: item.expr, env: item.env };
          this.bindItem(param, { expr: item.expr, env: item.env });
          this.forget(param.parent);
          const keep = this.truthOf(result, 0);
          this.unbindItem(param, [next]);
          if (keep === undefined) return undefined;
          if (keep) out.push(next);
        }
        return out;
      }
      return undefined;
    }
    let array: ts.ArrayLiteralExpression | undefined;
    if (ts.isArrayLiteralExpression(e)) array = e;
    else {
      const value = this.evaluate(e);
      if (value?.kind === 'array') array = value.node;
      else if (ts.isIdentifier(e)) {
        // `const sorted = sortBy(options, …)`: follow the initializer.
        const b = this.binding(e);
        if (b?.kind === 'var' && b.decl.initializer) return this.arrayItems(b.decl.initializer, depth + 1);
        if (b?.kind === 'import') {
          const resolved = this.resolver.resolve(b.module, [e.text], 'values');
          if (resolved?.kind === 'declaration' && resolved.decl.kind === 'variable') return this.arrayItems(resolved.decl.node.initializer, depth + 1);
          const target = this.moduleFor(b.module, b.module.imports.get(e.text)?.specifier ?? '');
          const local = target?.exports.get(b.module.imports.get(e.text)?.imported ?? '');
          const decl = local !== undefined ? target?.values.get(local) : undefined;
          if (decl?.kind === 'variable') return this.arrayItems(decl.node.initializer, depth + 1);
          const defaultExport = target && b.module.imports.get(e.text)?.imported === 'default' ? defaultExpression(target.sf) : undefined;
          if (defaultExport) return this.arrayItems(defaultExport, depth + 1);
        }
      }
    }
    if (!array) return undefined;
    const out: Item[] = [];
    const additions = this.pushes(array);
    if (!additions) return undefined;
    for (const el of [...additions.front, ...array.elements, ...additions.back]) {
      if (ts.isSpreadElement(el)) {
        const spread = this.arrayItems(el.expression, depth + 1);
        if (!spread) return undefined;
        out.push(...spread);
      } else if (!ts.isOmittedExpression(el)) out.push({ expr: el, env: [] });
    }
    return out;
  }

  /**
   * The items of `Object.entries(obj)` (`[key, value]` pairs), `Object.keys(obj)` or
   * `Object.values(obj)` over an object known statically (a literal, through variables, imports,
   * spreads and `Object.assign`), in its entries' order. Keys are string literals placed at the
   * key in the source (so locations point there). Undefined when the object, or a spread in it, is
   * not known.
   */
  private objectItems(method: 'entries' | 'keys' | 'values', arg: ts.Expression | undefined): Item[] | undefined {
    if (!arg) return undefined;
    const value = this.evaluate(arg);
    if (value?.kind !== 'object' || this.hasUnknownParts(value)) return undefined;
    const out: Item[] = [];
    for (const entry of this.entries(value)) {
      if (!ts.isExpression(entry.value) && method !== 'keys') continue;
      const key = this.keyLiteral(entry);
      if (method === 'keys') out.push({ expr: key, env: [] });
      else if (method === 'values') out.push({ expr: entry.value as ts.Expression, env: [] });
      else out.push({ expr: this.synthetic(entry.keyNode, `${entry.key}\0pair`, () => ts.factory.createArrayLiteralExpression([key, entry.value as ts.Expression])), env: [] });
    }
    return out;
  }

  /** A string literal for an entry's key, placed at the key in the source. */
  private keyLiteral(entry: Entry): ts.StringLiteral {
    return this.synthetic(entry.keyNode, `${entry.key}\0key`, () => ts.factory.createStringLiteral(entry.key));
  }

  /** A node made once per source node and tag, given the source node's range and parent so that locations and scopes resolve as for it. */
  private synthetic<T extends ts.Node>(at: ts.Node, tag: string, make: () => T): T {
    let byTag = this.syntheticNodes.get(at);
    if (!byTag) this.syntheticNodes.set(at, (byTag = new Map()));
    const known = byTag.get(tag);
    if (known) return known as T;
    const node = ts.setTextRange(make(), at);
    (node as { parent: ts.Node }).parent = at.parent;
    byTag.set(tag, node);
    return node;
  }

  /**
   * What `X.push(…)` (`back`) and `X.unshift(…)` (`front`, in the order they end up) add to the
   * array literal that initialises `const X`/`let X`, anywhere in the declaration's scope; none for
   * a literal that initialises no variable. Undefined when `X` is changed in another way there
   * (assigned, spliced, popped, its length set).
   */
  private pushes(array: ts.ArrayLiteralExpression): { front: ts.Expression[]; back: ts.Expression[] } | undefined {
    const out = { front: [] as ts.Expression[], back: [] as ts.Expression[] };
    const decl = array.parent;
    if (!ts.isVariableDeclaration(decl) || decl.initializer !== array || !ts.isIdentifier(decl.name)) return out;
    const name = decl.name.text;
    const scope = decl.parent.parent?.parent;
    if (!scope || !sourceFileOf(array).text.includes(`${name}.`)) return out;
    let changed = false;
    const visit = (n: ts.Node): 'stop' | undefined => {
      if (changed) return 'stop';
      if (ts.isIdentifier(n) && n.text === name && n !== decl.name) {
        const parent = n.parent;
        const b = this.binding(n);
        if (b?.kind === 'var' && b.decl === decl) {
          if (ts.isPropertyAccessExpression(parent) && parent.expression === n) {
            const method = parent.name.text;
            const call = parent.parent;
            if ((method === 'push' || method === 'unshift') && ts.isCallExpression(call) && call.expression === parent) {
              const items = [...call.arguments];
              if (method === 'push') out.back.push(...items);
              else out.front.unshift(...items);
            } else if (MUTATING_METHODS.has(method) || (method === 'length' && isAssigned(parent))) changed = true;
          } else if (isAssigned(n)) changed = true;
        }
      }
      return undefined;
    };
    walkTree(scope, visit);
    return changed ? undefined : out;
  }

  /** The binding of an identifier, found by walking up its scopes (no checker). */
  private binding(id: ts.Identifier): Binding | undefined {
    for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
      const found = this.scopeOf(n).get(id.text);
      if (found) return found;
    }
    return undefined;
  }

  private scopeOf(n: ts.Node): Map<string, Binding> {
    let scope = this.scopes.get(n);
    if (scope) return scope;
    scope = new Map();
    this.scopes.set(n, scope);
    const add = (name: string, b: Binding): void => {
      if (!scope.has(name)) scope.set(name, b);
    };
    const addDeclarations = (list: ts.VariableDeclarationList, loop: boolean): void => {
      for (const decl of list.declarations) {
        if (ts.isIdentifier(decl.name)) add(decl.name.text, loop ? { kind: 'opaque' } : { kind: 'var', decl });
        else if (ts.isObjectBindingPattern(decl.name)) {
          for (const el of decl.name.elements) {
            if (!ts.isIdentifier(el.name)) continue;
            const property = el.propertyName ? propertyName(el.propertyName) : el.name.text;
            add(el.name.text, loop || el.dotDotDotToken || property === undefined ? { kind: 'opaque' } : { kind: 'destructured', decl, element: el, property });
          }
        }
      }
    };
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && isItemCallback(n)) {
      // `items.forEach((o) => …)`, `items.map(({ flags }) => …)`: the item parameter, bound while unrolled.
      n.parameters.forEach((param, i) => {
        if (i === 0 && ts.isIdentifier(param.name)) add(param.name.text, { kind: 'loop', loop: param });
        else if (i === 0 && ts.isArrayBindingPattern(param.name)) {
          param.name.elements.forEach((el, index) => {
            if (ts.isBindingElement(el) && ts.isIdentifier(el.name)) add(el.name.text, el.dotDotDotToken ? { kind: 'opaque' } : { kind: 'loop', loop: param, index });
          });
        } else if (i === 0 && ts.isObjectBindingPattern(param.name)) {
          for (const el of param.name.elements) {
            if (!ts.isIdentifier(el.name)) continue;
            const property = el.propertyName ? propertyName(el.propertyName) : el.name.text;
            add(el.name.text, el.dotDotDotToken || property === undefined ? { kind: 'opaque' } : { kind: 'loop', loop: param, property });
          }
        } else for (const name of boundNames(param.name)) add(name, { kind: 'opaque' });
      });
    } else if (ts.isFunctionLike(n)) {
      for (const param of n.parameters) {
        if (ts.isIdentifier(param.name)) add(param.name.text, { kind: 'param', decl: param });
        else for (const name of boundNames(param.name)) add(name, { kind: 'opaque' });
      }
      if ((ts.isFunctionExpression(n) || ts.isClassExpression(n)) && n.name) add(n.name.text, { kind: 'opaque' });
    } else if (ts.isSourceFile(n) || ts.isBlock(n) || ts.isModuleBlock(n) || ts.isCaseClause(n) || ts.isDefaultClause(n)) {
      for (const statement of n.statements) {
        if (ts.isVariableStatement(statement)) addDeclarations(statement.declarationList, false);
        else if (ts.isFunctionDeclaration(statement) && statement.name) add(statement.name.text, { kind: 'function', node: statement });
        else if (ts.isClassDeclaration(statement) && statement.name) add(statement.name.text, { kind: 'class', node: statement });
      }
      if (ts.isSourceFile(n)) {
        const module = this.bySourceFile.get(n);
        if (module) for (const name of module.imports.keys()) add(name, { kind: 'import', module, name });
      }
    } else if (ts.isForOfStatement(n) && ts.isVariableDeclarationList(n.initializer) && n.initializer.declarations.length === 1) {
      const name = (n.initializer.declarations[0] as ts.VariableDeclaration).name;
      if (ts.isIdentifier(name)) add(name.text, { kind: 'loop', loop: n });
      else if (ts.isArrayBindingPattern(name)) {
        name.elements.forEach((el, index) => {
          if (ts.isBindingElement(el) && ts.isIdentifier(el.name)) add(el.name.text, el.dotDotDotToken ? { kind: 'opaque' } : { kind: 'loop', loop: n, index });
        });
      } else if (ts.isObjectBindingPattern(name)) {
        for (const el of name.elements) {
          if (!ts.isIdentifier(el.name)) continue;
          const property = el.propertyName ? propertyName(el.propertyName) : el.name.text;
          add(el.name.text, el.dotDotDotToken || property === undefined ? { kind: 'opaque' } : { kind: 'loop', loop: n, property });
        }
      } else addDeclarations(n.initializer, true);
    } else if ((ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) && n.initializer && ts.isVariableDeclarationList(n.initializer)) {
      addDeclarations(n.initializer, true);
    } else if (ts.isCatchClause(n) && n.variableDeclaration) {
      for (const name of boundNames(n.variableDeclaration.name)) add(name, { kind: 'opaque' });
    }
    return scope;
  }

  private imported(module: ModuleInfo, name: string, at: ts.Node): Value | undefined {
    const binding = module.imports.get(name);
    if (!binding) return undefined;
    // Package values are located at the import (`import yargs from 'yargs'`), in the importing file.
    const declared = importNode(module.sf, name) ?? at;
    const pkg = packageValue(binding.specifier, binding.imported, module.file, this.location(declared));
    if (pkg !== null && (pkg !== undefined || !this.workspaceModule(binding.specifier))) return pkg === 'program' ? { kind: 'command', node: this.commanderProgram(declared) } : pkg;
    const target = this.moduleFor(module, binding.specifier);
    if (!target) return undefined;
    return binding.imported === '*' ? { kind: 'namespace', module: target } : this.exportedValue(target, binding.imported, at, new Set());
  }

  /**
   * The value a module exports under `name`, through `export { a as b }`, `export … from`,
   * `export *` and `export default <expression>`; the exported binding may be any local one
   * (`const { program } = require('commander'); export { program }`).
   */
  private exportedValue(module: ModuleInfo, name: string, at: ts.Node, seen: Set<string>): Value | undefined {
    const key = `${module.file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const local = module.exports.get(name);
    const b = local === undefined ? undefined : this.scopeOf(module.sf).get(local);
    if (b) return this.bindingValue(b, at);
    const re = module.reexports.get(name);
    if (re) {
      const pkg = packageValue(re.specifier, re.imported, module.file, this.location(at));
      if (pkg !== null && (pkg !== undefined || !this.workspaceModule(re.specifier))) return pkg === 'program' ? { kind: 'command', node: this.commanderProgram(at) } : pkg;
      const target = this.moduleFor(module, re.specifier);
      if (!target) return undefined;
      return re.imported === '*' ? { kind: 'namespace', module: target } : this.exportedValue(target, re.imported, at, seen);
    }
    if (name === 'default') return this.defaultExport(module);
    for (const specifier of module.starExports) {
      const target = this.moduleFor(module, specifier);
      const found = target ? this.exportedValue(target, name, at, seen) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  /** `export default <expression>` (an identifier is handled by the resolver), or `export default class extends …`. */
  private defaultExport(module: ModuleInfo): Value | undefined {
    for (const s of module.sf.statements) {
      if (ts.isExportAssignment(s) && !s.isExportEquals) return this.evaluate(s.expression);
      if (ts.isClassDeclaration(s) && hasModifier(s, ts.SyntaxKind.DefaultKeyword) && hasModifier(s, ts.SyntaxKind.ExportKeyword)) return { kind: 'class', node: s };
    }
    return undefined;
  }

  /** `require('x')`: a package value, or a relative CommonJS/ES module. */
  private required(call: ts.CallExpression, specifier: string): Value | undefined {
    const module = this.moduleOf(call);
    // `require('yargs')` is one singleton per process; one per file here.
    const pkg = packageValue(specifier, 'default', module?.file ?? '', this.location(call));
    if (pkg !== null) return pkg === 'program' ? { kind: 'command', node: this.commanderProgram(call) } : pkg;
    if (!module) return undefined;
    const files = new Set(this.resolver.modules.keys());
    let file = resolveSpecifier(module.file, specifier, files);
    for (const ext of ['.js', '.cjs', '.mjs', '/index.js']) file ??= resolveSpecifier(module.file, specifier + ext, files);
    const target = file === undefined ? undefined : this.resolver.modules.get(file);
    return target ? this.moduleValue(target) : undefined;
  }

  /** See {@link FlagEvaluator.commandDirModules}. */
  commandDirModules(call: ts.CallExpression): Array<{ value: Value; name: string; at: ts.Node }> | undefined {
    const [dirArg, optionsArg] = call.arguments;
    const module = this.moduleOf(call);
    const written = dirArg ? this.pathOf(dirArg, 0) : undefined;
    if (!module || written === undefined || written.startsWith('/')) return undefined;
    const dir = joinPath(dirname(module.file), written);
    if (dir === undefined) return undefined;
    let extensions = ['js'];
    let recurse = false;
    let unwrapDefault = false;
    const filters: Array<{ test: (name: string) => boolean; keep: boolean }> = [];
    for (const e of (optionsArg ? this.objectEntries(optionsArg) : []) ?? []) {
      if (e.key === 'extensions') extensions = this.stringsOf(e.value) ?? extensions;
      else if (e.key === 'recurse') recurse = this.booleanOf(e.value) === true;
      else if ((e.key === 'include' || e.key === 'exclude') && ts.isRegularExpressionLiteral(skipOuter(e.value as ts.Expression))) {
        const m = /^\/(.*)\/([a-z]*)$/s.exec((skipOuter(e.value as ts.Expression) as ts.RegularExpressionLiteral).text);
        // The project's regular expression runs on RE2's engine, in time linear in the name: with
        // JavaScript's backtracking one, `/^(a+)+$/` against a 31-character file name took 50 s (s25 sweep D5).
        const test = m ? linearRegExp(m[1] ?? '', m[2] ?? '') : undefined;
        // A pattern RE2 does not take (a lookaround, a back-reference): no filter.
        if (test) filters.push({ test, keep: e.key === 'include' });
      } else if (e.key === 'visit') {
        // `visit: (m) => m.default` (an ES module's default export); any other visitor makes modules docdrift cannot follow.
        const fn = this.evaluate(e.value);
        if (fn?.kind !== 'function' || !returnsDefaultOf(fn.node)) return undefined;
        unwrapDefault = true;
      }
    }
    const out: Array<{ value: Value; name: string; at: ts.Node }> = [];
    for (const [file, target] of [...this.resolver.modules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!file.startsWith(`${dir}/`) || file.endsWith('.d.ts') || target === module) continue;
      const rel = file.slice(dir.length + 1);
      if (!recurse && rel.includes('/')) continue;
      // yargs loads the compiled `x.js` of a TypeScript source `x.ts`.
      const compiled = rel.replace(/\.tsx?$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs');
      const spellings = [rel, compiled];
      if (!extensions.some((ext) => spellings.some((f) => f.endsWith(ext)))) continue;
      if (filters.some((f) => spellings.some((x) => f.test(x)) !== f.keep)) continue;
      let value = this.moduleValue(target);
      if (value && unwrapDefault) value = this.member(value, 'default', call);
      if (!value) continue;
      const base = compiled.slice(compiled.lastIndexOf('/') + 1);
      out.push({ value, name: base.replace(/\.[^.]*$/, ''), at: target.sf.statements[0] ?? target.sf });
    }
    return out;
  }

  /** A path written relative to the calling file: a literal, `__dirname`, `path.join`/`path.resolve(__dirname, …)`, templates and `+` of those. */
  private pathOf(node: ts.Node, depth: number): string | undefined {
    if (depth > 6 || !ts.isExpression(node)) return undefined;
    const e = skipOuter(node);
    if (ts.isIdentifier(e) && e.text === '__dirname' && !this.binding(e)) return '.';
    const literal = this.stringOf(e);
    if (literal !== undefined) return literal;
    if (ts.isCallExpression(e)) {
      const callee = skipOuter(e.expression);
      const fn = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
      if ((fn !== 'join' && fn !== 'resolve') || e.arguments.length === 0) return undefined;
      const parts = e.arguments.map((a) => this.pathOf(a, depth + 1));
      return parts.every((p): p is string => p !== undefined) ? parts.join('/') : undefined;
    }
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const part = this.pathOf(span.expression, depth + 1);
        if (part === undefined) return undefined;
        out += part + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.pathOf(e.left, depth + 1);
      const right = left === undefined ? undefined : this.pathOf(e.right, depth + 1);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    return undefined;
  }

  /** What `require()` of a project module gives: `module.exports = …` wins; else its `exports.x = …` assignments; else an ES module's namespace. */
  private moduleValue(target: ModuleInfo): Value | undefined {
    let exportsAssigned = false;
    for (const s of target.sf.statements) {
      if (!ts.isExpressionStatement(s) || !ts.isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
      const left = s.expression.left.getText(target.sf);
      if (left === 'module.exports') return this.evaluate(s.expression.right);
      if (/^(?:module\.)?exports\.\w+$/.test(left)) exportsAssigned = true;
    }
    return exportsAssigned ? { kind: 'cjs-exports', module: target } : { kind: 'namespace', module: target };
  }

  // ── members ────────────────────────────────────────────────────────────────

  private property(receiver: ts.Expression, name: string): Value | undefined {
    const recv = this.evaluate(receiver);
    if (!recv) return undefined;
    if (recv.kind === 'command' || recv.kind === 'yargs') {
      if (name === 'argv') (recv.kind === 'yargs' ? this.yargsSingleton(recv) : recv.node).parsed = true;
      return undefined;
    }
    return this.member(recv, name, receiver);
  }

  /**
   * `this.program` inside a class: the member's initial value, from a property initializer
   * (`program = new Command()`), a constructor parameter property's default
   * (`constructor(private readonly program: Command = new Command())`) or the constructor's
   * `this.program = …` assignment; the first found in that order. Undefined outside a class,
   * for a member with none of these, or one the class reassigns elsewhere (a method's
   * `this.program = …` is not followed).
   */
  private classMember(at: ts.PropertyAccessExpression, name: string): Value | undefined {
    let cls: ts.Node | undefined = at.parent;
    // Arrow functions keep the class's `this`; any other function has its own.
    while (cls && !ts.isClassLike(cls)) {
      if (ts.isFunctionDeclaration(cls) || ts.isFunctionExpression(cls)) return undefined;
      cls = cls.parent;
    }
    if (!cls || !ts.isClassLike(cls)) return undefined;
    for (const m of cls.members) {
      if (ts.isPropertyDeclaration(m) && propertyName(m.name) === name && !isStatic(m)) return m.initializer ? this.evaluate(m.initializer) : undefined;
    }
    const ctor = cls.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
    if (!ctor) return undefined;
    for (const p of ctor.parameters) {
      if (ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length) return p.initializer ? this.evaluate(p.initializer) : undefined;
    }
    for (const s of ctor.body?.statements ?? []) {
      if (!ts.isExpressionStatement(s) || !ts.isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
      const left = skipOuter(s.expression.left);
      if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && left.name.text === name) return this.evaluate(s.expression.right);
    }
    return undefined;
  }

  /** A member of a module-like value: an object literal's property, a namespace's export, a commander export. */
  member(value: Value, name: string, at: ts.Node): Value | undefined {
    if (value.kind === 'commander' && value.member === undefined) {
      if (!COMMANDER_MEMBERS.has(name)) return undefined;
      return name === 'program' ? { kind: 'command', node: this.commanderProgram(at) } : { ...value, member: name };
    }
    if (value.kind === 'namespace') return this.exportedValue(value.module, name, at, new Set());
    if (value.kind === 'class') {
      // A method is no value this evaluator follows; a static property is its initializer.
      const node = this.memberNode(value, name);
      return node && ts.isExpression(node) ? this.evaluate(node) : undefined;
    }
    if (value.kind === 'factory') return FACTORY_MEMBERS.has(name) ? value : undefined;
    const node = this.memberNode(value, name);
    return node ? this.evaluate(node) : undefined;
  }

  /** The syntax node that gives a module-like value's member: a property initializer, an exported declaration. */
  memberNode(value: Value, name: string): ts.Node | undefined {
    if (value.kind === 'class') return this.staticMember(value.node, name, 0) ?? this.classMemberNode(value.node, name, true);
    if (value.kind === 'instance') return this.classMemberNode(value.node, name, false);
    if (value.kind === 'object') {
      const entries = this.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.key === name) return entries[i]?.value;
      return undefined;
    }
    if (value.kind === 'namespace') {
      const resolved = this.resolver.exported(value.module, name, 'values', new Set());
      if (resolved?.kind !== 'declaration') return name === 'default' ? defaultExportNode(value.module) : undefined;
      const decl = resolved.decl;
      if (decl.kind === 'variable') return decl.node.initializer;
      if (decl.kind === 'function') return ts.isFunctionDeclaration(decl.node) ? decl.node : decl.node.initializer;
      if (decl.kind === 'class') return decl.node;
      return undefined;
    }
    if (value.kind === 'cjs-exports') {
      let found: ts.Node | undefined;
      for (const s of value.module.sf.statements) {
        if (!ts.isExpressionStatement(s) || !ts.isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
        const left = s.expression.left.getText(value.module.sf);
        if (left === `exports.${name}` || left === `module.exports.${name}`) found = s.expression.right;
      }
      return found;
    }
    return undefined;
  }

  /** The initializer of a class's static property `name`, its own or (JavaScript's static inheritance) a base class's, ≤ 8 bases up. */
  private staticMember(cls: ts.ClassLikeDeclaration, name: string, depth: number): ts.Node | undefined {
    if (depth > 8) return undefined;
    for (const m of cls.members) {
      if (ts.isPropertyDeclaration(m) && isStatic(m) && propertyName(m.name) === name) return m.initializer;
      if (ts.isGetAccessorDeclaration(m) && isStatic(m) && propertyName(m.name) === name && m.body) {
        const ret = m.body.statements.find(ts.isReturnStatement);
        return ret?.expression;
      }
    }
    // `X.flags = {…}` after the class (JavaScript written without class fields).
    const sf = sourceFileOf(cls);
    const className = cls.name?.text;
    if (className !== undefined) {
      for (const s of sf.statements) {
        if (!ts.isExpressionStatement(s) || !ts.isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
        const left = skipOuter(s.expression.left);
        if (ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.expression) && left.expression.text === className && left.name.text === name) return s.expression.right;
      }
    }
    const base = this.baseClass(cls);
    return base ? this.staticMember(base.node, name, depth + 1) : undefined;
  }

  /**
   * A default as written; when it is not a literal, the literal it stands for through constants:
   * a `const` (also imported), an element `X[0]` of a literal array (`as const` tuples too), a
   * property `X.y` of a literal object; at most 6 steps. Anything else (`process.arch`, a call)
   * stays the expression as written.
   */
  defaultOf(expr: ts.Expression): DefaultValue {
    const chosen = this.knownBranch(expr);
    if (chosen !== expr) return this.defaultOf(chosen);
    const written = defaultOf(expr, sourceFileOf(expr));
    if (written.kind === 'literal') return written;
    const literal = this.constantLiteral(expr, 0);
    return literal ? { kind: 'literal', text: literal.getText(sourceFileOf(literal)) } : written;
  }

  /**
   * The branch a conditional takes when its condition is known (`'default' in o ? o.default :
   * undefined` in an unrolled loop), followed through nested conditionals; else `expr` itself.
   */
  knownBranch(expr: ts.Expression): ts.Expression {
    let e = expr;
    for (let i = 0; i < 6; i++) {
      const inner = skipOuter(e);
      if (!ts.isConditionalExpression(inner)) break;
      const truth = this.truthOf(inner.condition, 0);
      if (truth === undefined) break;
      e = truth ? inner.whenTrue : inner.whenFalse;
    }
    return e;
  }

  private constantLiteral(expr: ts.Expression, depth: number): ts.Expression | undefined {
    if (depth > 6) return undefined;
    const e = skipOuter(expr);
    if (isLiteral(e)) return e;
    if (ts.isIdentifier(e)) {
      const b = this.binding(e);
      if (b?.kind === 'loop') {
        const node = this.loopNode(b);
        return node && ts.isExpression(node) ? this.constantLiteral(node, depth + 1) : undefined;
      }
      if (b?.kind === 'var' && b.decl.initializer && isConst(b.decl)) return this.constantLiteral(b.decl.initializer, depth + 1);
      if (b?.kind === 'import') {
        const resolved = this.resolver.resolve(b.module, [e.text], 'values');
        if (resolved?.kind === 'declaration' && resolved.decl.kind === 'variable' && resolved.decl.node.initializer && isConst(resolved.decl.node)) {
          return this.constantLiteral(resolved.decl.node.initializer, depth + 1);
        }
      }
      return undefined;
    }
    if (ts.isElementAccessExpression(e) && ts.isNumericLiteral(skipOuter(e.argumentExpression))) {
      const items = this.arrayItems(e.expression, 0);
      const item = items?.[Number((skipOuter(e.argumentExpression) as ts.NumericLiteral).text)];
      return item && item.env.length === 0 && !ts.isSpreadElement(item.expr) ? this.constantLiteral(item.expr, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      const value = this.evaluate(e.expression);
      const node = value?.kind === 'object' ? this.memberNode(value, e.name.text) : undefined;
      return node && ts.isExpression(node) ? this.constantLiteral(node, depth + 1) : undefined;
    }
    return undefined;
  }

  /**
   * The entries a spread adds: a known object's, a called function's returned object's, and for
   * `...(cond ? { a } : { b })` / `...(cond && { a })` those of every branch (which one runs is
   * not known statically: each may be given).
   */
  private spreadEntries(expr: ts.Expression, depth: number): Entry[] {
    const e = skipOuter(expr);
    if (ts.isConditionalExpression(e)) return [...this.spreadEntries(e.whenTrue, depth + 1), ...this.spreadEntries(e.whenFalse, depth + 1)];
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken || e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) {
      return [...(e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ? [] : this.spreadEntries(e.left, depth + 1)), ...this.spreadEntries(e.right, depth + 1)];
    }
    return this.entries(this.evaluate(e) ?? this.returnedObject(e), depth);
  }

  /**
   * The spreads of an object literal (also inside the objects it spreads) whose entries are not
   * known: `...makeFlags(PROMPTS)` over a computed object, `...require(x)`; empty when every entry is known.
   */
  unreadSpreads(obj: ts.ObjectLiteralExpression | ts.CallExpression, depth = 0): ts.Expression[] {
    if (depth > MAX_SPREAD_DEPTH) return [obj]; // cut: its entries are not read
    const out: ts.Expression[] = [];
    const visit = (expr: ts.Expression, d: number): void => {
      const e = skipOuter(expr);
      if (ts.isConditionalExpression(e)) {
        visit(e.whenTrue, d + 1);
        visit(e.whenFalse, d + 1);
        return;
      }
      if (ts.isBinaryExpression(e) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)) {
        if (e.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) visit(e.left, d + 1);
        visit(e.right, d + 1);
        return;
      }
      const value = this.evaluate(e) ?? this.returnedObject(e);
      if (value?.kind === 'object') out.push(...this.unreadSpreads(value.node, d + 1));
      else out.push(e);
    };
    // `Object.assign({}, shared, {…})`: each argument is read as a spread of it.
    if (ts.isCallExpression(obj)) for (const a of obj.arguments) visit(a, depth);
    else for (const p of obj.properties) if (ts.isSpreadAssignment(p)) visit(p.expression, depth);
    return out;
  }

  /** The entries of an object literal (spreads of known objects inlined, in order), or `[]` for a value that is not one. */
  entries(value: Value | undefined, depth = 0): Entry[] {
    if (value?.kind !== 'object' || depth > MAX_SPREAD_DEPTH) return [];
    const outermost = this.entriesMemo === undefined;
    const memo = (this.entriesMemo ??= new Map());
    try {
      const known = memo.get(value.node)?.get(depth);
      if (known) return known;
      const out = this.ownEntries(value, depth);
      let byDepth = memo.get(value.node);
      if (!byDepth) memo.set(value.node, (byDepth = new Map()));
      byDepth.set(depth, out);
      return out;
    } finally {
      if (outermost) this.entriesMemo = undefined;
    }
  }

  /**
   * The entries of one object, spreads inlined. A key met again keeps its first place and takes
   * the later entry, as a JavaScript object does (`{ ...a, x: 1 }`), so objects that spread one
   * another twice give each key once, not 2^levels entries.
   */
  private ownEntries(value: Extract<Value, { kind: 'object' }>, depth: number): Entry[] {
    const byKey = new Map<string, Entry>();
    const add = (entries: Entry[]): void => {
      for (const e of entries) byKey.set(e.key, e);
    };
    if (ts.isCallExpression(value.node)) {
      for (const arg of value.node.arguments) add(this.entries(this.evaluate(arg), depth + 1));
      return [...byKey.values()];
    }
    for (const p of value.node.properties) {
      if (ts.isSpreadAssignment(p)) add(this.spreadEntries(p.expression, depth + 1));
      else if (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) {
        const key = propertyName(p.name);
        if (key !== undefined) add([{ key, keyNode: p.name, value: ts.isPropertyAssignment(p) ? p.initializer : p }]);
      } else if (ts.isShorthandPropertyAssignment(p)) add([{ key: p.name.text, keyNode: p.name, value: p.name }]);
    }
    return [...byKey.values()];
  }

  /** Whether an object value has parts docdrift cannot read: a spread (`...getCommon()`) that is no known object. */
  hasUnknownParts(value: Value | undefined, depth = 0): boolean {
    if (value?.kind !== 'object') return false;
    if (depth > MAX_SPREAD_DEPTH) return true; // cut: its entries are not read
    const outermost = this.unknownMemo === undefined;
    const memo = (this.unknownMemo ??= new Map());
    try {
      const known = memo.get(value.node)?.get(depth);
      if (known !== undefined) return known;
      const node = value.node;
      const result = ts.isCallExpression(node)
        ? node.arguments.some((a) => this.hasUnknownParts(this.evaluate(a), depth + 1))
        : node.properties.some((p) => {
            if (!ts.isSpreadAssignment(p)) return false;
            const spread = this.evaluate(p.expression);
            return spread?.kind !== 'object' || this.hasUnknownParts(spread, depth + 1);
          });
      let byDepth = memo.get(node);
      if (!byDepth) memo.set(node, (byDepth = new Map()));
      byDepth.set(depth, result);
      return result;
    } finally {
      if (outermost) this.unknownMemo = undefined;
    }
  }

  /**
   * The first spread (or `Object.assign` argument) past {@link MAX_SPREAD_DEPTH} levels of an
   * object, whose entries are therefore not read; undefined when no level limit cuts it.
   */
  spreadCut(value: Value | undefined): ts.Expression | undefined {
    const seen = new Set<string>();
    const visit = (v: Value | undefined, depth: number): ts.Expression | undefined => {
      if (v?.kind !== 'object') return undefined;
      const key = `${depth}:${v.node.pos}:${v.node.end}:${sourceFileOf(v.node).fileName}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      const parts = ts.isCallExpression(v.node) ? [...v.node.arguments] : v.node.properties.filter(ts.isSpreadAssignment).map((p) => p.expression);
      for (const part of parts) {
        const inner = this.evaluate(part);
        if (inner?.kind !== 'object') continue;
        if (depth + 1 > MAX_SPREAD_DEPTH) return part;
        const cut = visit(inner, depth + 1);
        if (cut) return cut;
      }
      return undefined;
    };
    return visit(value, 0);
  }

  /**
   * Marks `node` for a flags object `value` whose entries were not all read: it takes flags
   * docdrift does not know (`passesUnknownFlags`), and when a level limit cut the read
   * ({@link spreadCut}) it is partly known, said once in a note (`unreadFlags` with `cut`).
   */
  markUnreadParts(node: CommandNode, value: Value | undefined): void {
    if (!this.hasUnknownParts(value)) return;
    node.passesUnknownFlags = true;
    const cut = this.spreadCut(value);
    if (!cut || node.unreadFlags) return;
    const text = cut.getText(sourceFileOf(cut)).replace(/\s+/g, ' ');
    node.unreadFlags = {
      location: this.location(cut),
      construct: `...${text.length > 60 ? `${text.slice(0, 57)}...` : text}`,
      cut: `${MAX_SPREAD_DEPTH} levels of spreads`,
    };
  }

  /**
   * `...branchFlag(['…'])`: the object literal a called function returns (its expression body or
   * its first top-level `return`), read without binding the arguments; undefined for anything else.
   */
  private returnedObject(expr: ts.Expression): Value | undefined {
    const e = skipOuter(expr);
    if (!ts.isCallExpression(e)) return undefined;
    const fn = this.evaluate(e.expression);
    if (fn?.kind !== 'function' || !fn.node.body || this.active.has(fn.node)) return undefined;
    const body = fn.node.body;
    const returned = ts.isBlock(body) ? body.statements.find(ts.isReturnStatement)?.expression : body;
    if (!returned) return undefined;
    const value = this.evaluate(returned);
    return value?.kind === 'object' ? value : undefined;
  }

  /** The entries of an expression that evaluates to an object literal (also one a called function returns: {@link returnedObject}). */
  objectEntries(expr: ts.Node | undefined): Entry[] | undefined {
    if (!expr) return undefined;
    const value = this.evaluate(expr) ?? (ts.isExpression(expr) ? this.returnedObject(expr) : undefined);
    return value?.kind === 'object' ? this.entries(value) : undefined;
  }

  // ── calls ──────────────────────────────────────────────────────────────────

  private call(call: ts.CallExpression): Value | undefined {
    const callee = skipOuter(call.expression);
    const first = call.arguments[0];
    if (ts.isIdentifier(callee) && callee.text === 'require' && !this.binding(callee)) {
      return first && ts.isStringLiteralLike(first) ? this.required(call, first.text) : undefined;
    }
    // `Object.assign({}, shared, { … })`: the entries of every argument, later ones winning; unknown when one is no known object.
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'assign' && ts.isIdentifier(callee.expression) && callee.expression.text === 'Object' && !this.binding(callee.expression)) {
      return call.arguments.length > 0 && call.arguments.every((a) => this.evaluate(a)?.kind === 'object') ? { kind: 'object', node: call } : undefined;
    }
    let method: string | undefined;
    let receiver: ts.Expression | undefined;
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) [receiver, method] = [callee.expression, callee.name.text];
    else if (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)) [receiver, method] = [callee.expression, callee.argumentExpression.text];
    if (receiver && method !== undefined) {
      const recv = this.evaluate(receiver);
      return recv ? this.invoke(recv, method, call) : undefined;
    }
    const fn = this.evaluate(callee);
    if (!fn) return undefined;
    if (fn.kind === 'yargs') return { kind: 'command', node: this.created(newNode('yargs', this.location(call), { program: true })) };
    if (fn.kind === 'commander' && fn.member !== undefined) return this.createCommander(fn.member, call);
    if (fn.kind === 'factory') return this.createFactory(fn.framework, call);
    if (fn.kind === 'function') {
      // A helper that takes a command and adds to it (`withCommon(y)`): walk it with the arguments
      // bound. A factory (`makeUserCommand()`) gives what it returns.
      const args = call.arguments.map((a) => this.evaluate(a));
      const command = args.find((a) => a?.kind === 'command' || a?.kind === 'option');
      if (command) this.applyFunction(fn.node, args);
      return this.returned(fn.node) ?? command;
    }
    return undefined;
  }

  /** The first command or option a function returns (its expression body, or a `return` not inside a nested function). */
  private returned(fn: FunctionValueNode): Value | undefined {
    if (!fn.body || this.active.has(fn)) return undefined;
    if (!ts.isBlock(fn.body)) return commandLike(this.evaluate(fn.body));
    let found: Value | undefined;
    const body = fn.body;
    const visit = (n: ts.Node): boolean | 'stop' => {
      if (found) return 'stop';
      if (n === body) return true;
      if (ts.isFunctionLike(n) || ts.isClassLike(n)) return false;
      if (ts.isReturnStatement(n) && n.expression) {
        found = commandLike(this.evaluate(n.expression));
        return false;
      }
      return true;
    };
    this.active.add(fn);
    try {
      walkTree(body, visit);
    } finally {
      this.active.delete(fn);
    }
    return found;
  }

  private invoke(recv: Value, method: string, call: ts.CallExpression): Value | undefined {
    switch (recv.kind) {
      case 'command':
        this.touched?.add(recv.node);
        switch (recv.node.framework) {
          case 'yargs':
            return applyYargs(this, recv.node, method, call);
          case 'cac':
            return applyCac(this, recv.node, method, call);
          case 'sade':
            return applySade(this, recv.node, method, call);
          case 'meow':
            return undefined; // `cli.showHelp()`, `cli.flags`: nothing to add
          default:
            return applyCommander(this, recv.node, method, call);
        }
      case 'option':
        return applyCommanderOption(this, recv.option, method, call);
      case 'yargs':
        return applyYargs(this, this.touch(this.yargsSingleton(recv)), method, call);
      case 'commander':
        if (recv.member === undefined) {
          if (method.startsWith('create') && COMMANDER_MEMBERS.has(method)) return this.createCommander(method, call);
          // commander < 7: the module itself is the global program.
          return applyCommander(this, this.touch(this.commanderProgram(call)), method, call);
        }
        return undefined;
      default:
        return undefined;
    }
  }

  /** Notes a command a method is called on while a loop is unrolled (see {@link touched}). */
  private touch(node: CommandNode): CommandNode {
    this.touched?.add(node);
    return node;
  }

  private construct(e: ts.NewExpression): Value | undefined {
    const ctor = this.evaluate(e.expression);
    if (ctor?.kind === 'class') return this.extendsCommand(ctor.node, 0) ? this.constructCommand(ctor.node, e) : { kind: 'instance', node: ctor.node };
    if (ctor?.kind === 'factory' && ctor.framework === 'cac') return { kind: 'command', node: cacProgram(this, e) };
    if (ctor?.kind !== 'commander' || ctor.member === undefined) return undefined;
    return this.createCommander(ctor.member, e);
  }

  /**
   * `new MyCommand(…)` of a project class extending commander's `Command`: a command named by the
   * `new`'s first argument or, without one, by the literal its constructor passes to `super('x')`,
   * with what each constructor (base classes first) adds to `this` (`this.option('--a')`,
   * `this.addOption(…)`, `this.command('sub')`), its parameters bound to the `new`'s arguments.
   * A class that overrides `createCommand` makes `.command('x')` return an instance of it: its
   * sub-commands are built by that method (see {@link subclassChild}).
   */
  private constructCommand(cls: ts.ClassLikeDeclaration, e: ts.NewExpression): Value | undefined {
    const value = this.createCommander('Command', e);
    if (value?.kind !== 'command') return value;
    if ((e.arguments ?? []).length === 0) {
      const named = this.superName(cls, 0);
      if (named !== undefined) {
        value.node.name = named.name;
        value.node.program = false;
        value.node.location = this.location(named.at);
      }
    }
    this.applySubclass(value.node, cls, e.arguments ?? ts.factory.createNodeArray());
    return value;
  }

  /**
   * A `.command('x')` child of an instance of a commander subclass that overrides
   * `createCommand(name)`: commander builds the child with that method, so its body is walked
   * (`this` bound to the parent) and what the command it returns was given (its constructor's
   * options, options added before `return`) is given to `child` too, ahead of the child's own.
   */
  subclassChild(parent: CommandNode, child: CommandNode): void {
    const cls = parent.subclass;
    const chain: ts.ClassLikeDeclaration[] = [];
    for (let c: ts.ClassLikeDeclaration | undefined = cls; c && chain.length < 8 && !chain.includes(c); ) {
      chain.push(c);
      const base = this.baseOf(c);
      c = base?.kind === 'class' ? base.node : undefined;
    }
    const method = createCommandOverride(chain);
    if (!method || this.active.has(method)) return;
    const owner = method.parent as ts.ClassLikeDeclaration;
    this.thisBindings.set(owner, { kind: 'command', node: parent });
    let made: Value | undefined;
    try {
      this.applyFunction(method, []);
      made = this.returned(method);
    } finally {
      this.thisBindings.delete(owner);
      if (method.body) this.forget(method.body);
    }
    if (made?.kind !== 'command' || made.node === parent || made.node === child) return;
    child.params.unshift(...made.node.params.filter((p) => !child.params.some((q) => q.name === p.name)));
    if (made.node.subclass) child.subclass = made.node.subclass;
  }

  /** The literal name a constructor passes to `super(…)`, in this class or the nearest base that passes one. */
  private superName(cls: ts.ClassLikeDeclaration, depth: number): { name: string; at: ts.Node } | undefined {
    if (depth > 8) return undefined;
    const ctor = cls.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
    for (const st of ctor?.body?.statements ?? []) {
      const call = ts.isExpressionStatement(st) ? skipOuter(st.expression) : undefined;
      if (call && ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword) {
        const arg = call.arguments[0];
        const name = arg ? this.stringOf(arg) : undefined;
        return name !== undefined && arg ? { name, at: arg } : undefined;
      }
    }
    const base = this.baseOf(cls);
    return base?.kind === 'class' ? this.superName(base.node, depth + 1) : undefined;
  }

  /**
   * Walks the constructors of `cls` and of its project base classes (base first) with `this`
   * bound to `node`; the derived class's parameters bound to `args`. Records `cls` on the node
   * when it (or a base) overrides `createCommand`, so that its `.command(…)` children get the same.
   */
  private applySubclass(node: CommandNode, cls: ts.ClassLikeDeclaration, args: readonly ts.Expression[]): void {
    const chain: ts.ClassLikeDeclaration[] = [];
    for (let c: ts.ClassLikeDeclaration | undefined = cls; c && chain.length < 8 && !chain.includes(c); ) {
      chain.unshift(c);
      const base = this.baseOf(c);
      c = base?.kind === 'class' ? base.node : undefined;
    }
    for (const c of chain) {
      const ctor = c.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
      if (!ctor?.body || this.active.has(ctor)) continue;
      this.thisBindings.set(c, { kind: 'command', node });
      this.active.add(ctor);
      try {
        if (c === cls) ctor.parameters.forEach((param, i) => {
          const arg = args[i] && this.evaluate(args[i]);
          if (arg) this.params.set(param, arg);
          else this.params.delete(param);
        });
        this.forget(ctor.body);
        this.walk(ctor.body);
      } finally {
        this.active.delete(ctor);
        this.thisBindings.delete(c);
        this.forget(ctor.body);
      }
    }
    if (createCommandOverride(chain) !== undefined) node.subclass = cls;
  }

  /** The class a class `extends`, when it is a known value (a project class or a commander export). */
  private baseOf(cls: ts.ClassLikeDeclaration): Value | undefined {
    const clause = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    const base = clause?.types[0]?.expression;
    return base ? this.evaluate(base) : undefined;
  }

  /** Whether a class extends commander's `Command`, directly or through project classes (`class MyCommand extends Command`). */
  private extendsCommand(cls: ts.ClassLikeDeclaration, depth: number): boolean {
    const base = depth > 8 ? undefined : this.baseOf(cls);
    if (base?.kind === 'commander') return base.member === 'Command';
    return base?.kind === 'class' ? this.extendsCommand(base.node, depth + 1) : false;
  }

  /**
   * The node that gives a class member: an instance's (or, `statics`, the class's own `static`)
   * property initializer, the expression a getter returns, a method; for instances also a
   * constructor's `this.name = …`; then the base class's. Undefined when none is found.
   */
  private classMemberNode(cls: ts.ClassLikeDeclaration, name: string, statics: boolean, depth = 0): ts.Node | undefined {
    if (depth > 8) return undefined;
    for (const m of cls.members) {
      if (isStatic(m) !== statics || !m.name || propertyName(m.name as ts.PropertyName) !== name) continue;
      if (ts.isPropertyDeclaration(m)) return m.initializer;
      if (ts.isMethodDeclaration(m)) return m;
      if (ts.isGetAccessorDeclaration(m) && m.body) {
        const ret = m.body.statements.find((x): x is ts.ReturnStatement => ts.isReturnStatement(x));
        return ret?.expression;
      }
    }
    if (!statics) {
      const ctor = cls.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
      for (const st of ctor?.body?.statements ?? []) {
        if (!ts.isExpressionStatement(st) || !ts.isBinaryExpression(st.expression) || st.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
        const left = skipOuter(st.expression.left);
        if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && left.name.text === name) return st.expression.right;
      }
    }
    const base = this.baseOf(cls);
    return base?.kind === 'class' ? this.classMemberNode(base.node, name, statics, depth + 1) : undefined;
  }

  /** `new Command(name?)`, `createCommand(name?)`, `new Option(flags, description?)`, `new Argument(name, description?)` and the create* forms. */
  private createCommander(member: string, call: ts.CallExpression | ts.NewExpression): Value | undefined {
    const args = call.arguments ?? ts.factory.createNodeArray();
    if (member === 'Command' || member === 'createCommand') {
      const arg = args[0];
      const name = arg ? this.stringOf(arg) : undefined;
      const location = arg && name !== undefined ? this.location(arg) : this.location(call);
      // `new Command(name)` with a name docdrift cannot read (a subclass's `createCommand(name)`) is a program only once parsed.
      const node = newNode('commander', location, name !== undefined ? { name } : arg === undefined ? { program: true } : {});
      return { kind: 'command', node: this.created(node) };
    }
    if (member === 'Option' || member === 'createOption' || member === 'Argument' || member === 'createArgument') {
      const option = commanderOption(this, member.endsWith('Option') ? 'option' : 'argument', args);
      return option ? { kind: 'option', option } : undefined;
    }
    return undefined;
  }

  /** `cac(name)`, `sade(usage, single?)`, `meow(help, options)`: the program the call makes. */
  private createFactory(framework: 'cac' | 'sade' | 'meow', call: ts.CallExpression): Value {
    const node = framework === 'cac' ? cacProgram(this, call) : framework === 'sade' ? sadeProgram(this, call) : meowProgram(this, call);
    return { kind: 'command', node };
  }

  /** Registers a node so that programs among them can be found at the end. */
  created(node: CommandNode): CommandNode {
    this.nodes.push(node);
    return node;
  }

  private yargsSingleton(value: Extract<Value, { kind: 'yargs' }>): CommandNode {
    let node = this.singletons.get(value.key);
    if (!node) this.singletons.set(value.key, (node = this.created(newNode('yargs', value.location, { singleton: true }))));
    return node;
  }

  /** The commander global program as one file uses it (one per file: see the limits in `flags.ts`). */
  private commanderProgram(at: ts.Node): CommandNode {
    const file = this.moduleOf(at)?.file ?? '';
    let node = this.singletons.get(`${file}\0program`);
    if (!node) this.singletons.set(`${file}\0program`, (node = this.created(newNode('commander', this.location(at), { singleton: true }))));
    return node;
  }

  // ── literals ───────────────────────────────────────────────────────────────

  /** A string a node stands for: literals, templates and `+` of known strings, `const` names bound to those. */
  stringOf(node: ts.Node, depth = 0): string | undefined {
    if (depth > 8 || !ts.isExpression(node)) return undefined;
    const e = skipOuter(node);
    if (ts.isStringLiteralLike(e)) return e.text;
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const part = this.stringOf(span.expression, depth + 1);
        if (part === undefined) return undefined;
        out += part + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.stringOf(e.left, depth + 1);
      const right = left === undefined ? undefined : this.stringOf(e.right, depth + 1);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    if (ts.isConditionalExpression(e)) {
      const truth = this.truthOf(e.condition, depth + 1);
      return truth === undefined ? undefined : this.stringOf(truth ? e.whenTrue : e.whenFalse, depth + 1);
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      // `o.flags` of the current loop item, `OPTIONS.port` of a literal object.
      const found = this.itemValue(e);
      if (found) return this.stringOf(found, depth + 1);
      if (found === null) return undefined;
      const value = this.evaluate(e.expression);
      const member = value?.kind === 'object' ? this.memberNode(value, e.name.text) : undefined;
      return member ? this.stringOf(member, depth + 1) : undefined;
    }
    if (ts.isIdentifier(e)) {
      const b = this.binding(e);
      if (b?.kind === 'loop') {
        const node = this.loopNode(b);
        return node ? this.stringOf(node, depth + 1) : undefined;
      }
      if (b?.kind === 'var' && b.decl.initializer && isConst(b.decl)) return this.stringOf(b.decl.initializer, depth + 1);
      if (b?.kind === 'import') {
        const resolved = this.resolver.resolve(b.module, [e.text], 'values');
        if (resolved?.kind === 'declaration' && resolved.decl.kind === 'variable' && isConst(resolved.decl.node)) return this.stringOf(resolved.decl.node.initializer, depth + 1);
      }
    }
    return undefined;
  }

  /** Strings of a string or an array of strings (numbers as written when `numbers`); `undefined` if any element is unknown. */
  stringsOf(node: ts.Node | undefined, numbers = false, depth = 0): string[] | undefined {
    if (!node || depth > 8 || !ts.isExpression(node)) return undefined;
    const e = skipOuter(node);
    const one = this.scalarOf(e, numbers);
    if (one !== undefined) return [one];
    let array: ts.ArrayLiteralExpression | undefined;
    if (ts.isArrayLiteralExpression(e)) array = e;
    else if (ts.isIdentifier(e)) {
      const value = this.evaluate(e);
      if (value?.kind === 'array') array = value.node;
    }
    if (!array) return undefined;
    const out: string[] = [];
    for (const el of array.elements) {
      if (ts.isSpreadElement(el)) {
        const spread = this.stringsOf(el.expression, numbers, depth + 1);
        if (!spread) return undefined;
        out.push(...spread);
        continue;
      }
      const s = this.scalarOf(el, numbers);
      if (s === undefined) return undefined;
      out.push(s);
    }
    return out;
  }

  private scalarOf(node: ts.Expression, numbers: boolean): string | undefined {
    const e = skipOuter(node);
    if (numbers && ts.isNumericLiteral(e)) return e.text;
    if (numbers && ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return `-${e.operand.text}`;
    return this.stringOf(e);
  }

  /**
   * Whether a condition holds in the current loop iteration: a property the item lacks is false,
   * a known string is its truthiness; `!`, `&&`, `||`, `===`/`!==` of known values and
   * `[…].includes(x)` of known strings are followed; `undefined` when unknown.
   */
  private truthOf(node: ts.Expression, depth: number): boolean | undefined {
    if (depth > 8) return undefined;
    const e = skipOuter(node);
    if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
      const inner = this.truthOf(e.operand, depth + 1);
      return inner === undefined ? undefined : !inner;
    }
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
        const left = this.truthOf(e.left, depth + 1);
        const and = op === ts.SyntaxKind.AmpersandAmpersandToken;
        if (left === !and) return left;
        const right = this.truthOf(e.right, depth + 1);
        return left === undefined ? (right === !and ? right : undefined) : right;
      }
      if (op === ts.SyntaxKind.InKeyword) {
        // `'short' in o`: whether a known object has the key (spreads known too).
        const key = this.stringOf(e.left, depth + 1);
        const value = key === undefined ? undefined : this.evaluate(e.right);
        if (key === undefined || value?.kind !== 'object' || this.hasUnknownParts(value)) return undefined;
        return this.entries(value).some((entry) => entry.key === key);
      }
      const equal = op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken;
      if (equal || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken) {
        const [left, right] = [this.comparable(e.left, depth + 1), this.comparable(e.right, depth + 1)];
        return left === undefined || right === undefined ? undefined : (left === right) === equal;
      }
    }
    if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'includes' && e.arguments.length === 1) {
      const list = this.stringsOf(e.expression.expression);
      const wanted = this.comparable(e.arguments[0] as ts.Expression, depth + 1);
      return list === undefined || wanted === undefined ? undefined : list.some((x) => `s:${x}` === wanted);
    }
    const found = this.itemValue(e);
    if (found === null) return false;
    const bool = this.booleanOf(found ?? e);
    if (bool !== undefined) return bool;
    const text = this.stringOf(found ?? e, depth + 1);
    return text === undefined ? undefined : text !== '';
  }

  /**
   * What a loop variable, or a property of one (`o.hidden`), stands for in the current
   * iteration: the node, `null` when the item lacks it, `undefined` when it is no such read.
   */
  private itemValue(e: ts.Expression): ts.Node | null | undefined {
    if (ts.isIdentifier(e)) {
      const b = this.binding(e);
      return b?.kind === 'loop' ? this.loopNode(b) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      const inner = this.itemValue(skipOuter(e.expression));
      if (!inner) return inner;
      const value = this.evaluate(inner);
      if (value?.kind !== 'object') return undefined;
      return this.memberNode(value, e.name.text) ?? null;
    }
    return undefined;
  }

  /** A value as a comparable key (`s:text`, `b:true`, `undefined` for a property the item lacks), or `undefined` when unknown. */
  private comparable(node: ts.Expression, depth: number): string | undefined {
    const e = skipOuter(node);
    if (e.kind === ts.SyntaxKind.UndefinedKeyword || (ts.isIdentifier(e) && e.text === 'undefined')) return 'undefined';
    const found = this.itemValue(e);
    if (found === null) return 'undefined';
    const target = found ?? e;
    const bool = this.booleanOf(target);
    if (bool !== undefined) return `b:${bool}`;
    const text = this.stringOf(target, depth);
    return text === undefined ? undefined : `s:${text}`;
  }

  /** `true`/`false` literals; `undefined` for anything else. */
  booleanOf(node: ts.Node | undefined): boolean | undefined {
    if (!node || !ts.isExpression(node)) return undefined;
    const e = skipOuter(node);
    return e.kind === ts.SyntaxKind.TrueKeyword ? true : e.kind === ts.SyntaxKind.FalseKeyword ? false : undefined;
  }

  // ── positions ──────────────────────────────────────────────────────────────

  moduleOf(node: ts.Node): ModuleInfo | undefined {
    return this.bySourceFile.get(sourceFileOf(node));
  }

  moduleAt(from: ts.Node, specifier: string): ModuleInfo | undefined {
    const module = this.moduleOf(from);
    return module ? this.moduleFor(module, specifier) : undefined;
  }

  /** The node's range (leading trivia excluded). */
  warn(node: ts.Node, message: string): void {
    const at = this.location(node);
    this.diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${at.file}:${at.line}:${at.column}: ${message}`, location: { file: at.file, line: at.line, column: at.column } });
  }

  location(node: ts.Node): SourceLocation {
    const sf = sourceFileOf(node);
    return locationOf(this.bySourceFile.get(sf)?.file ?? sf.fileName.replace(/^\//, ''), sf, node);
  }

  /** Whether a string literal's value is its source text between the quotes (memoised: 40,000 cac positionals each compared a 349 KB literal, s26 sweep D5). */
  private writtenAsIs(literal: ts.StringLiteralLike, sf: ts.SourceFile): boolean {
    let asIs = this.asIsMemo.get(literal);
    if (asIs === undefined) {
      asIs = literal.getText(sf).slice(1, -1) === literal.text;
      this.asIsMemo.set(literal, asIs);
    }
    return asIs;
  }

  /**
   * The range of `length` characters at `index` of a string literal's value, when the literal
   * is written without escapes (else the whole literal).
   */
  tokenLocation(literal: ts.Node, index: number, length: number): SourceLocation {
    const sf = sourceFileOf(literal);
    const whole = this.location(literal);
    if (!ts.isStringLiteralLike(literal) || !this.writtenAsIs(literal, sf)) return whole;
    const start = literal.getStart(sf) + 1 + index;
    const from = sf.getLineAndCharacterOfPosition(start);
    const to = sf.getLineAndCharacterOfPosition(start + length);
    return { file: whole.file, line: from.line + 1, column: from.character + 1, endLine: to.line + 1, endColumn: to.character + 1 };
  }
}

/** `null` when the specifier is relative; otherwise the value its export stands for (`'program'`: the commander global program). */
function packageValue(specifier: string, imported: string, key: string, location: SourceLocation): Value | 'program' | undefined | null {
  if (YARGS_SPECIFIER.test(specifier)) return imported === 'default' || imported === '*' ? { kind: 'yargs', key, location } : undefined;
  if (COMMANDER_SPECIFIERS.has(specifier)) {
    if (imported === 'default' || imported === '*') return { kind: 'commander', key, location };
    if (imported === 'program') return 'program';
    return COMMANDER_MEMBERS.has(imported) ? { kind: 'commander', key, member: imported, location } : undefined;
  }
  const factory = FACTORIES.get(specifier);
  if (factory !== undefined) return imported === 'default' || imported === '*' || FACTORY_MEMBERS.has(imported) ? { kind: 'factory', framework: factory, location } : undefined;
  return specifier.startsWith('.') ? null : undefined;
}

/** The identifier an import declaration binds `name` with. */
function importNode(sf: ts.SourceFile, name: string): ts.Identifier | undefined {
  for (const s of sf.statements) {
    if (ts.isImportEqualsDeclaration(s) && s.name.text === name) return s.name;
    const clause = ts.isImportDeclaration(s) ? s.importClause : undefined;
    if (!clause) continue;
    if (clause.name?.text === name) return clause.name;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === name) return bindings.name;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (el.name.text === name) return el.name;
  }
  return undefined;
}

function commandLike(value: Value | undefined): Value | undefined {
  return value?.kind === 'command' || value?.kind === 'option' ? value : undefined;
}

function defaultExportNode(module: ModuleInfo): ts.Node | undefined {
  for (const s of module.sf.statements) if (ts.isExportAssignment(s) && !s.isExportEquals) return s.expression;
  return undefined;
}

/** `(m) => m.default`, `(m) => m.default || m`, `function (m) { return m.default; }`: a visitor that takes an ES module's default export. */
function returnsDefaultOf(fn: FunctionValueNode): boolean {
  const param = fn.parameters[0]?.name;
  if (!param || !ts.isIdentifier(param) || !fn.body) return false;
  let returned: ts.Expression | undefined;
  if (!ts.isBlock(fn.body)) returned = fn.body;
  else if (fn.body.statements.length === 1 && ts.isReturnStatement(fn.body.statements[0]!)) returned = fn.body.statements[0].expression;
  if (!returned) return false;
  let e = skipOuter(returned);
  if (ts.isBinaryExpression(e) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)) e = skipOuter(e.left);
  return ts.isPropertyAccessExpression(e) && e.name.text === 'default' && ts.isIdentifier(e.expression) && e.expression.text === param.text;
}

/** Whether a function is the callback of an array method that passes it each item (`items.forEach((o) => …)`). */
function isItemCallback(fn: ts.ArrowFunction | ts.FunctionExpression): boolean {
  const call = fn.parent;
  if (!ts.isCallExpression(call) || call.arguments[0] !== fn) return false;
  const callee = skipOuter(call.expression);
  return ts.isPropertyAccessExpression(callee) && CALLBACK_METHODS.has(callee.name.text);
}

/** The expression a callback returns: its expression body, or the `return` of a body that is only that. */
function returnedExpression(fn: ts.ArrowFunction | ts.FunctionExpression): ts.Expression | undefined {
  if (!ts.isBlock(fn.body)) return fn.body;
  const only = fn.body.statements.length === 1 ? fn.body.statements[0] : undefined;
  return only && ts.isReturnStatement(only) ? only.expression : undefined;
}

/** Whether an expression is the target of an assignment (`x = …`, `x += …`, `x++`). */
function isAssigned(n: ts.Expression): boolean {
  const p = n.parent;
  if (ts.isBinaryExpression(p) && p.left === n) return p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  return (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken);
}

/** The class a node is in (arrow functions and static blocks included), if any. */
/** The `createCommand` method the nearest class of `chain` (derived first) declares with a body. */
function createCommandOverride(chain: readonly ts.ClassLikeDeclaration[]): ts.MethodDeclaration | undefined {
  for (const c of chain) {
    const m = c.members.find((x): x is ts.MethodDeclaration => ts.isMethodDeclaration(x) && x.body !== undefined && propertyName(x.name) === 'createCommand' && !isStatic(x));
    if (m) return m;
  }
  return undefined;
}

function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

function isConst(decl: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(decl.parent) && (decl.parent.flags & ts.NodeFlags.Const) !== 0;
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const out: string[] = [];
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) out.push(...boundNames(el.name));
  return out;
}
