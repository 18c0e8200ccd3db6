/** clipanion CLIs: command classes (`static paths`, `Option.String('-p,--port')` properties) registered with a `Cli`. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { addAlias, attach, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import type { ModuleInfo } from './scan.js';
import { propertyName, skipOuter, walkTree, sourceFileOf } from './syntax.js';
import type { Entry, FlagEvaluator, Value } from './types.js';

const CLIPANION = 'clipanion';
/** Option kinds that take a dashed descriptor first. */
const DESCRIBED = new Set(['String', 'Boolean', 'Counter', 'Array']);

/** The local name `module` binds clipanion's export `name` to (`Option`, `Cli`, `runExit`), if it imports it. */
function localName(module: ModuleInfo, name: string): string | undefined {
  for (const [local, b] of module.imports) if (b.specifier === CLIPANION && b.imported === name) return local;
  return undefined;
}

/**
 * Every clipanion program in `module`: each `new Cli({ binaryName })` (and `Cli.from([…])`) with
 * the command classes given to its `.register(X)` (also in a `for … of` loop over a literal array
 * or `Object.values(ns)` of a namespace import), and each `runExit([...])`/`run([...])`. A command
 * class's `static paths` (`[['build'], ['b']]`: the first is its words, the others other paths;
 * `[Command.Default]` or none: the program itself) places it in the tree; `static usage =
 * Command.Usage({ description })` describes it.
 *
 * clipanion 2 is read too: options are properties decorated `@Command.String('-p,--port', {
 * description })` (also `Boolean`, `Counter`, `Array`, `Rest`, `Proxy`; `@Command.String()` and
 * `@Command.String({ required: false })` are positional arguments), the property's initializer
 * being the default, and paths are the `@Command.Path('remote', 'add')` decorators of a method
 * (the bottom one, applied first, is the main path; `@Command.Path()` the default command).
 *
 * Options are the class's instance properties (a base class's first, through imports) set with
 * `Option.String/Boolean/Counter/Array(descriptor, initial?, { description, required, hidden,
 * validator })`: the descriptor's long name is the flag's name (`'-p,--port'` → `port`, alias
 * `p`), the property name its `dest`; booleans and counters are negatable (`--no-x`); `Option.String()` with
 * no descriptor, and `Option.Rest()` (variadic), are positional arguments named by the property;
 * `Option.Proxy()` makes the command pass every flag on. A `validator: t.isNumber()` gives type
 * `number`. A program whose commands cannot be listed (registration docdrift cannot follow) is
 * marked `dynamicSubcommands`.
 */
export function clipanionPrograms(ev: FlagEvaluator, module: ModuleInfo): CommandNode[] {
  if (!module.sf.text.includes(CLIPANION)) return [];
  const cliName = localName(module, 'Cli');
  const runNames = new Set([localName(module, 'runExit'), localName(module, 'run')].filter((n): n is string => n !== undefined));
  if (cliName === undefined && runNames.size === 0) return [];
  const out: CommandNode[] = [];
  const byVariable = new Map<string, { node: CommandNode; registered: number }>();
  const program = (call: ts.Node, options: ts.Node | undefined): CommandNode => {
    const name = options ? ev.objectEntries(options)?.find((e) => e.key === 'binaryName') : undefined;
    const text = name ? ev.stringOf(name.value) : undefined;
    const node = newNode('clipanion', ev.location(call), text !== undefined ? { name: text, program: true } : { program: true });
    node.parsed = true;
    out.push(node);
    return node;
  };
  const register = (root: CommandNode, expr: ts.Node): number => {
    let count = 0;
    for (const cls of classesOf(ev, expr)) {
      addCommand(ev, root, cls);
      count++;
    }
    return count;
  };
  const visit = (n: ts.Node): void => {
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === cliName) {
      const node = program(n, n.arguments?.[0]);
      const decl = n.parent;
      if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) byVariable.set(decl.name.text, { node, registered: 0 });
    } else if (ts.isCallExpression(n)) {
      const callee = skipOuter(n.expression);
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
        if (callee.expression.text === cliName && callee.name.text === 'from') {
          const node = program(n, n.arguments[1]);
          const registered = n.arguments[0] ? register(node, n.arguments[0]) : 0;
          const decl = n.parent;
          if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) byVariable.set(decl.name.text, { node, registered });
          else if (registered === 0) node.dynamicSubcommands = true;
        } else if (callee.name.text === 'register' && n.arguments[0]) {
          const cli = byVariable.get(callee.expression.text);
          if (cli) cli.registered += register(cli.node, loopArray(n.arguments[0]) ?? n.arguments[0]);
        }
      } else if (ts.isIdentifier(callee) && runNames.has(callee.text)) {
        // `runExit(commands)`, `runExit(options, commands)`, `run(options, commands, argv)`.
        const [a, b] = n.arguments;
        const first = a ? ev.evaluate(a) : undefined;
        const options = first?.kind === 'object' ? a : undefined;
        const commands = options ? b : a;
        const node = program(n, options);
        if (!commands || register(node, commands) === 0) node.dynamicSubcommands = true;
      }
    }
  };
  walkTree(module.sf, visit);
  for (const { node, registered } of byVariable.values()) if (registered === 0) node.dynamicSubcommands = true;
  return out;
}

/** `for (const c of COMMANDS) cli.register(c)`: the array the loop goes over, when `expr` is its variable. */
function loopArray(expr: ts.Node): ts.Expression | undefined {
  if (!ts.isIdentifier(expr)) return undefined;
  for (let n: ts.Node | undefined = expr.parent; n; n = n.parent) {
    if (ts.isForOfStatement(n) && ts.isVariableDeclarationList(n.initializer)) {
      const name = n.initializer.declarations[0]?.name;
      if (name && ts.isIdentifier(name) && name.text === expr.text) return n.expression;
    }
    if (ts.isFunctionLike(n)) break;
  }
  return undefined;
}

/** The classes an expression gives: a class, an array of them (spreads followed), `Object.values(ns)` of a namespace or object. */
function classesOf(ev: FlagEvaluator, expr: ts.Node, depth = 0): ts.ClassLikeDeclaration[] {
  if (depth > 6 || !ts.isExpression(expr)) return [];
  const e = skipOuter(expr);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'values' && e.expression.expression.getText(sourceFileOf(e.expression.expression)) === 'Object' && e.arguments[0]) {
    const v = ev.evaluate(e.arguments[0]);
    if (v?.kind === 'namespace') {
      const names = [...v.module.exports.keys(), ...v.module.reexports.keys()];
      return names.flatMap((name) => {
        const m = ev.member(v, name, e);
        return m?.kind === 'class' ? [m.node] : [];
      });
    }
    if (v?.kind === 'object') return ev.entries(v).flatMap((en) => classesOf(ev, en.value, depth + 1));
    return [];
  }
  const v: Value | undefined = ev.evaluate(e);
  if (v?.kind === 'class') return [v.node];
  if (v?.kind === 'array') return v.node.elements.flatMap((el) => classesOf(ev, ts.isSpreadElement(el) ? el.expression : el, depth + 1));
  return [];
}

/** The node of `path` under `root`, making the missing words' nodes. */
function nodeAt(root: CommandNode, path: string[], at: CommandNode['location']): CommandNode {
  let node = root;
  for (const word of path) {
    let child = node.children.find((c) => c.name === word);
    if (!child) {
      child = newNode('clipanion', at, { name: word });
      attach(node, child);
    }
    node = child;
  }
  return node;
}

/** clipanion 2's property decorators (`@Command.String(…)`) and the one naming a path (`@Command.Path(…)` on `execute`). */
const OPTION_DECORATORS = new Set(['String', 'Boolean', 'Counter', 'Array', 'Rest', 'Proxy']);

/** The call of a `@<commandName>.<kind>(…)` decorator of `member` whose kind is in `kinds`, if it has one. */
function decoratorCall(member: ts.ClassElement, commandName: string, kinds: ReadonlySet<string>): { kind: string; call: ts.CallExpression } | undefined {
  for (const d of ts.canHaveDecorators(member) ? (ts.getDecorators(member) ?? []) : []) {
    const call = d.expression;
    if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) continue;
    const recv = call.expression.expression;
    if (ts.isIdentifier(recv) && recv.text === commandName && kinds.has(call.expression.name.text)) return { kind: call.expression.name.text, call };
  }
  return undefined;
}

/**
 * clipanion 2's paths: each `@Command.Path('remote', 'add')` decorator of a method (`execute`),
 * its own class's or a base's; `@Command.Path()` is the default command. Undefined when there is
 * none; a path word that is no known string makes the paths unknown (`null`).
 */
function decoratedPaths(ev: FlagEvaluator, cls: ts.ClassLikeDeclaration, depth = 0): string[][] | null | undefined {
  if (depth > 8) return undefined;
  const module = ev.moduleOf(cls);
  const commandName = module ? (localName(module, 'Command') ?? 'Command') : 'Command';
  const out: string[][] = [];
  for (const m of cls.members) {
    if (!ts.isMethodDeclaration(m)) continue;
    // Decorators apply bottom-up, and clipanion takes the first path attached as the main one
    // (checked with clipanion 2.6: `@Command.Path('serve') @Command.Path('s')` prints `site s`).
    for (const d of [...(ts.canHaveDecorators(m) ? (ts.getDecorators(m) ?? []) : [])].reverse()) {
      const call = d.expression;
      if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'Path') continue;
      const recv = call.expression.expression;
      if (!ts.isIdentifier(recv) || recv.text !== commandName) continue;
      const words = call.arguments.map((a) => ev.stringOf(a));
      if (words.some((w) => w === undefined)) return null;
      out.push(words as string[]);
    }
  }
  if (out.length > 0) return out;
  const base = ev.baseClass(cls);
  return base ? decoratedPaths(ev, base.node, depth + 1) : undefined;
}

/** The paths of a class's `static paths` (its own or inherited), else of its `@Command.Path(…)` decorators (clipanion 2); `[[]]` when it has none (the default command). */
function pathsOf(ev: FlagEvaluator, cls: ts.ClassLikeDeclaration): string[][] | undefined {
  const node = ev.memberNode({ kind: 'class', node: cls }, 'paths');
  if (!node) {
    const decorated = decoratedPaths(ev, cls);
    if (decorated === null) return undefined;
    return decorated ?? [[]];
  }
  const v = ev.evaluate(node);
  if (v?.kind !== 'array') return undefined;
  const out: string[][] = [];
  for (const el of v.node.elements) {
    // `Command.Default` is `[]`: the program itself.
    if (ts.isPropertyAccessExpression(el) && el.name.text === 'Default') out.push([]);
    else {
      const words = ev.stringsOf(el);
      if (words === undefined) return undefined;
      out.push(words);
    }
  }
  return out.length > 0 ? out : [[]];
}

function addCommand(ev: FlagEvaluator, root: CommandNode, cls: ts.ClassLikeDeclaration): void {
  let paths = pathsOf(ev, cls);
  if (!paths) {
    root.dynamicSubcommands = true;
    return;
  }
  // `static paths = [['-v'], ['--version']]` (a command standing for a program flag): those are flags of the program.
  const flagPaths = paths.filter((p) => p.length === 1 && (p[0] as string).startsWith('-'));
  if (flagPaths.length > 0) {
    const names = flagPaths.map((p) => (p[0] as string).replace(/^-+/, ''));
    const long = names.find((n) => n.length > 1) ?? (names[0] as string);
    if (!root.params.some((p) => p.name === long)) {
      const spec = newParam(long, ev.location(cls.name ?? cls));
      for (const n of names) addAlias(spec, n);
      spec.type = 'boolean';
      spec.hidden = true;
      root.params.push(spec);
    }
    paths = paths.filter((p) => !flagPaths.includes(p));
    if (paths.length === 0) return;
  }
  const at = ev.location(cls.name ?? cls);
  const [first, ...others] = paths as [string[], ...string[][]];
  const node = nodeAt(root, first, at);
  if (first.length > 0) node.location = at;
  if (others.length > 0) node.pathAliases = [...(node.pathAliases ?? []), ...others];
  const usage = ev.memberNode({ kind: 'class', node: cls }, 'usage');
  const usageCall = usage && ts.isExpression(usage) ? skipOuter(usage) : undefined;
  if (usageCall && ts.isCallExpression(usageCall)) {
    const d = ev.objectEntries(usageCall.arguments[0])?.find((e) => e.key === 'description');
    const text = d ? ev.stringOf(d.value) : undefined;
    if (text !== undefined) node.description = text;
  }
  const seen = new Set(node.params.map((p) => p.dest ?? p.name));
  for (const spec of optionsOf(ev, cls, 0)) {
    if (spec === 'proxy') {
      node.passesUnknownFlags = true;
      continue;
    }
    if (seen.has(spec.dest ?? spec.name)) continue;
    seen.add(spec.dest ?? spec.name);
    node.params.push(spec);
  }
}

/** The options of a class and its bases (base first), in declaration order; `'proxy'` for `Option.Proxy()`. */
function optionsOf(ev: FlagEvaluator, cls: ts.ClassLikeDeclaration, depth: number): Array<ParamSpec | 'proxy'> {
  if (depth > 8) return [];
  const base = ev.baseClass(cls);
  const out = base ? optionsOf(ev, base.node, depth + 1) : [];
  const module = ev.moduleOf(cls);
  const optionName = module ? (localName(module, 'Option') ?? 'Option') : 'Option';
  const commandName = module ? (localName(module, 'Command') ?? 'Command') : 'Command';
  for (const m of cls.members) {
    if (!ts.isPropertyDeclaration(m) || ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
    // clipanion 2: `@Command.String('-p,--port', { description }) port = '8080';`, the initializer the default.
    const decorated = decoratorCall(m, commandName, OPTION_DECORATORS);
    if (decorated) {
      const prop = propertyName(m.name);
      if (prop === undefined) continue;
      if (decorated.kind === 'Proxy') {
        out.push('proxy');
        continue;
      }
      const spec = optionSpec(ev, decorated.kind, prop, m.name, decorated.call.arguments);
      if (!spec.positional && spec.default === undefined && m.initializer) spec.default = ev.defaultOf(m.initializer);
      const i = out.findIndex((o) => o !== 'proxy' && (o.dest ?? o.name) === (spec.dest ?? spec.name));
      if (i >= 0) out[i] = spec;
      else out.push(spec);
      continue;
    }
    if (!m.initializer) continue;
    const init = skipOuter(m.initializer);
    if (!ts.isCallExpression(init) || !ts.isPropertyAccessExpression(init.expression)) continue;
    const recv = init.expression.expression;
    if (!ts.isIdentifier(recv) || recv.text !== optionName) continue;
    const kind = init.expression.name.text;
    const prop = propertyName(m.name);
    if (prop === undefined) continue;
    if (kind === 'Proxy') {
      out.push('proxy');
      continue;
    }
    const spec = optionSpec(ev, kind, prop, m.name, init.arguments);
    const i = out.findIndex((o) => o !== 'proxy' && o.dest === spec.dest);
    if (i >= 0) out[i] = spec;
    else out.push(spec);
  }
  return out;
}

function optionSpec(ev: FlagEvaluator, kind: string, prop: string, propNode: ts.Node, args: ts.NodeArray<ts.Expression>): ParamSpec {
  const descriptor = args[0] ? ev.stringOf(args[0]) : undefined;
  const isOption = DESCRIBED.has(kind) && descriptor !== undefined && descriptor.startsWith('-');
  let spec: ParamSpec;
  let rest: readonly ts.Expression[] = args;
  if (isOption) {
    const names = descriptor.split(',').map((n) => n.trim()).filter((n) => n !== '');
    const long = names.find((n) => n.startsWith('--')) ?? names[0] ?? `--${prop}`;
    spec = newParam(long.replace(/^-+/, ''), ev.tokenLocation(args[0] as ts.Expression, descriptor.indexOf(long), long.length));
    for (const n of names) addAlias(spec, n.replace(/^-+/, ''));
    // clipanion matches option names exactly: `--g` is typed as declared.
    const optionStrings = declaredOptionStrings(names);
    if (optionStrings) spec.optionStrings = optionStrings;
    spec.dest = prop;
    rest = args.slice(1);
  } else {
    spec = newParam(prop, ev.location(propNode));
    spec.positional = true;
    spec.required = kind === 'String';
    if (kind === 'Rest') spec.variadic = true;
  }
  // `(descriptor, initialValue, opts)` or `(descriptor, opts)`.
  let opts: Entry[] | undefined;
  for (const a of rest) {
    const entries = ts.isObjectLiteralExpression(skipOuter(a)) ? ev.objectEntries(a) : undefined;
    if (entries) opts = entries;
    else if (isOption && opts === undefined) spec.default = ev.defaultOf(a);
  }
  spec.type = kind === 'Boolean' ? 'boolean' : kind === 'Counter' ? 'number' : kind === 'Array' ? 'string[]' : kind === 'Rest' ? 'string[]' : 'string';
  // clipanion resets a boolean or a counter with `--no-x` (checked with clipanion 3.2).
  if (kind === 'Boolean' || (kind === 'Counter' && isOption)) spec.negatable = true;
  if (kind === 'Counter') spec.counted = true;
  for (const o of opts ?? []) {
    if (o.key === 'description') spec.description = ev.stringOf(o.value);
    else if (o.key === 'required') spec.required = ev.booleanOf(o.value) === true;
    else if (o.key === 'hidden') spec.hidden = ev.booleanOf(o.value) === true;
    else if (o.key === 'validator' && /\bisNumber\b/.test(o.value.getText(sourceFileOf(o.value)))) spec.type = kind === 'Array' ? 'number[]' : 'number';
  }
  return spec;
}
