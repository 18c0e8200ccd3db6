/** typer flags: `typer.Typer()` apps, their `@app.command()`/`@app.callback()` functions, `app.add_typer(…)` sub-apps and `typer.run(f)`, with parameters read from function signatures. */
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import {
  boolOrString, callArgs, clickOptionNames, envVarNames, flagSpec, isSequenceAnnotation, isTrue, locate, MAX_COMMANDS_PER_PROGRAM, MAX_MODULE_COMMANDS, moduleCommandsCut, parseClickDecls, passesUnknown, spellings,
  subcommandTree, symbolKey, toDefault, type FlagContext, type FlagModule, type Symbol,
} from './flags-common.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import type { FlagCommand } from './types.js';
import { annotationCore } from './index.js';
import { dottedName, identifierText, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen } from './values.js';

const TYPER = new Set(['typer.Typer', 'typer.main.Typer']);
const RUN = new Set(['typer.run', 'typer.main.run']);
const OPTION = new Set(['typer.Option', 'typer.params.Option']);
const ARGUMENT = new Set(['typer.Argument', 'typer.params.Argument']);
/** Parameters typer fills in itself; they are not flags. */
const CONTEXT = new Set(['typer.Context', 'click.Context', 'click.core.Context', 'typer.CallbackParam', 'click.Parameter']);

/** A `typer.Typer()` app bound to a module-level variable. */
interface TyperApp {
  symbol: Symbol;
  /** `Typer(name=…)`. */
  name?: string;
  location: SourceLocation;
  /** `passes`: `context_settings={"ignore_unknown_options": True}` (unknown flags are passed on). */
  commands: Array<{ fn: Symbol; name: string; location: SourceLocation; passes?: boolean }>;
  callback?: { fn: Symbol; location: SourceLocation };
  subApps: Array<{ app: TyperApp; name?: string }>;
  added: boolean;
  /** False for `Typer(add_completion=False)`: no `--install-completion`/`--show-completion`. */
  completion: boolean;
  /** Some of its `@app.command()` functions were not read (their module passed {@link MAX_MODULE_COMMANDS}): its commands are not all known. */
  cut?: boolean;
}

/** How typer turns a Python name into a command or option name. */
type Naming = (identifier: string) => string;

/**
 * The identity naming when a module patches typer's `typer.main.get_command_name = lambda name:
 * name` (commands and options then keep underscores: `ns start_server --server_gpus`), as typer
 * derives both command names and default option names from that function. Undefined otherwise.
 */
function patchedNaming(ctx: FlagContext): Naming | undefined {
  for (const module of ctx.modules.values()) {
    for (const statement of module.statements) {
      const assignment = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
      if (assignment?.type !== 'assignment') continue;
      const left = assignment.childForFieldName('left');
      const right = assignment.childForFieldName('right');
      if (!left || !right || ctx.external(module, dottedName(left)) !== 'typer.main.get_command_name') continue;
      const fn = unparen(right);
      const params = fn.type === 'lambda' ? fn.childForFieldName('parameters') : null;
      const body = fn.type === 'lambda' ? fn.childForFieldName('body') : null;
      const only = params ? namedChildren(params) : [];
      if (only.length === 1 && only[0]?.type === 'identifier' && body && unparen(body).text === only[0].text) return (name) => name;
    }
  }
  return undefined;
}

/** typer's name for a command function: lower-cased, `_` → `-` (`typer.main.get_command_name`). */
export function typerCommandName(functionName: string): string {
  return functionName.toLowerCase().replaceAll('_', '-');
}

/**
 * Reads typer apps. Program target: `module:app` (the app variable), plus every top-level
 * function calling `app()`. A root app with exactly one command, no callback and no sub-apps is a
 * single command (path `[]`, as typer runs it); otherwise it is a group whose commands have path
 * `[name]`, the callback's parameters being the group's own. Sub-apps (`add_typer(sub, name=…)`,
 * else `Typer(name=…)`, else the callback's function name) add a path word; a sub-app with no name
 * at all has its commands merged into the parent, as recent typer versions do. `typer.run(f)`
 * is a single-command program whose target is the function calling `typer.run`, or `module:f`
 * at module level.
 *
 * Parameters: `typer.Option`/`typer.Argument` as the default (`x: int = typer.Option(3, "--x")`,
 * first positional argument = default) or in `Annotated[T, typer.Option("--x")]` (positional
 * strings = declarations, default = the parameter's); a parameter without either is an argument
 * when it has no default, else an option `--param-name`. Bool options without explicit
 * declarations are negatable (`--x/--no-x`). `Literal[…]` annotations give choices.
 *
 * A module's first {@link MAX_MODULE_COMMANDS} `@app.command()` functions are read: past them a
 * `parse-error` warning in `diagnostics` names the file and the cap, and the app is listed with
 * sub-commands docdrift does not know.
 *
 * Not read: `add_typer`/`command` calls inside functions, Enum choices, `typer.Typer` subclasses,
 * apps not bound to a module-level variable, declarations that are not string literals.
 */
export function extractTyper(ctx: FlagContext, diagnostics: InputDiagnostic[] = []): FlagCommand[] {
  const naming = patchedNaming(ctx) ?? typerCommandName;
  const apps = new Map<string, TyperApp>();
  for (const module of ctx.modules.values()) {
    for (const [name, right] of module.assigns) {
      const call = unparen(right);
      if (call.type !== 'call') continue;
      const args = callArgs(call);
      const external = ctx.external(module, args.callee);
      if (external === undefined || !TYPER.has(external)) continue;
      const nameNode = args.keywords.get('name');
      const appName = nameNode ? stringValue(nameNode) : undefined;
      apps.set(`${module.info.module}:${name}`, {
        symbol: { module, name },
        ...(appName !== undefined ? { name: appName } : {}),
        location: locate(module, call),
        commands: [],
        subApps: [],
        added: false,
        completion: readValue(args.keywords.get('add_completion') ?? call).bool !== false,
      });
    }
  }
  const factoryTargets = readFactories(ctx, apps, naming);
  const appOf = (module: FlagModule, dotted: string[] | undefined): TyperApp | undefined => {
    const symbol = ctx.symbol(module, dotted);
    return symbol ? apps.get(symbolKey(symbol)) : undefined;
  };
  const runs: FlagCommand[] = [];
  for (const module of ctx.modules.values()) {
    let read = 0;
    for (const [name, { decorators }] of module.functions) {
      for (const decorator of decorators) {
        const expr = unparen(namedChildren(decorator)[0] ?? decorator);
        if (expr.type !== 'call') continue;
        const args = callArgs(expr);
        const method = args.callee?.at(-1);
        if (!args.callee || args.callee.length < 2 || (method !== 'command' && method !== 'callback')) continue;
        const app = appOf(module, args.callee.slice(0, -1));
        if (!app) continue;
        const fn = { module, name };
        if (method === 'callback') {
          app.callback = { fn, location: locate(module, decorator) };
        } else {
          // Commands per module are bounded: past the cap, the app's other commands are unknown.
          if (read >= MAX_MODULE_COMMANDS) {
            if (!app.cut) diagnostics.push(moduleCommandsCut(module, decorator, 'typer'));
            app.cut = true;
            continue;
          }
          read++;
          const nameNode = args.positional[0] ?? args.keywords.get('name');
          const explicit = nameNode ? stringValue(nameNode) : undefined;
          const passes = passesUnknown(args.keywords.get('context_settings'), module);
          app.commands.push({ fn, name: explicit ?? naming(name), location: locate(module, decorator), ...(passes ? { passes } : {}) });
        }
      }
    }
    for (const statement of module.statements) {
      if (statement.type === 'for_statement') loopCommands(ctx, module, statement, (name) => appOf(module, [name]), naming);
      for (const expr of statement.type === 'expression_statement' ? namedChildren(statement) : []) {
        const call = unparen(expr);
        if (call.type !== 'call') continue;
        const args = callArgs(call);
        const inner = call.childForFieldName('function');
        if (inner?.type === 'call') {
          // `app.command("name")(func)` / `app.callback()(func)`: the decorator applied by hand.
          const innerArgs = callArgs(inner);
          const method = innerArgs.callee?.at(-1);
          const app = innerArgs.callee && innerArgs.callee.length > 1 && (method === 'command' || method === 'callback')
            ? appOf(module, innerArgs.callee.slice(0, -1)) : undefined;
          const first = args.positional[0];
          const fn = first ? ctx.symbol(module, dottedName(first)) : undefined;
          if (app && fn && fn.module.functions.has(fn.name)) {
            if (method === 'callback') app.callback = { fn, location: locate(module, call) };
            else {
              const nameNode = innerArgs.positional[0] ?? innerArgs.keywords.get('name');
              const explicit = nameNode ? stringValue(nameNode) : undefined;
              app.commands.push({ fn, name: explicit ?? naming(fn.name), location: locate(module, call) });
            }
          }
          continue;
        }
        if (args.callee?.at(-1) === 'add_typer' && args.callee.length > 1) {
          const parent = appOf(module, args.callee.slice(0, -1));
          const first = args.positional[0];
          const sub = first ? appOf(module, dottedName(first)) : undefined;
          if (!parent || !sub || sub === parent) continue;
          const nameNode = args.keywords.get('name');
          const subName = nameNode ? stringValue(nameNode) : undefined;
          parent.subApps.push({ app: sub, ...(subName !== undefined ? { name: subName } : {}) });
          sub.added = true;
        } else if (RUN.has(ctx.external(module, args.callee) ?? '')) {
          const run = typerRun(ctx, module, call, naming);
          if (run) runs.push(run);
        }
      }
    }
    // `def main(): typer.run(app_main)`: the console script names the caller.
    for (const [name, fn] of module.info.functions) {
      for (const call of fn.calls) {
        const external = ctx.external(module, call.callee, fn.localBindings);
        if (external === undefined || !RUN.has(external) || call.source === undefined) continue;
        const target = ctx.symbol(module, call.source.split('.'), fn.localBindings);
        const run = target ? typerRunOf(ctx, target, `${module.info.module}:${name}`, naming) : undefined;
        if (run) runs.push(run);
      }
    }
  }
  const out: FlagCommand[] = [...runs];
  for (const app of apps.values()) {
    if (app.added) continue;
    const targets = factoryTargets.get(app) ?? [symbolKey(app.symbol), ...ctx.callers(app.symbol)];
    const label = app.name ?? app.symbol.name;
    const push = (path: string[], params: ParamSpec[], location: SourceLocation, passes = false, cut = false): void => {
      const owner = [label, ...path].join(' ');
      const owned = params.map((spec) => ({ ...spec, owner }));
      const unknown = cut ? { dynamicSubcommands: true, dynamicSubcommandsBy: `a module of more than ${MAX_MODULE_COMMANDS.toLocaleString('en-US')} typer commands` } : {};
      for (const target of targets) out.push({ path, target, params: owned, location, ...(passes ? { passesUnknownFlags: true } : {}), ...unknown });
    };
    const single = app.commands.length === 1 && !app.callback && app.subApps.length === 0 && !app.cut;
    const only = app.commands[0];
    const builtIns = app.completion ? completionFlags(app.location) : [];
    if (single && only) {
      push([], [...signature(ctx, only.fn, naming), ...builtIns], only.location, only.passes);
      continue;
    }
    // A group is listed with its callback's parameters; its commands are leaves.
    for (const { node, path, cut } of subcommandTree<TyperNode>({ app }, (n) => (n.app ? typerMembers(n.app, naming) : []))) {
      if (node.command) {
        push(path, signature(ctx, node.command.fn, naming), node.command.location, node.command.passes);
        continue;
      }
      const group = node.app!;
      const own = group.callback ? signature(ctx, group.callback.fn, naming) : [];
      const params = path.length === 0 ? [...own, ...builtIns] : own;
      const location = group.callback?.location ?? group.location;
      if (!cut) push(path, params, location, false, group.cut);
      else for (const target of targets) out.push({ path, target, params: params.map((spec) => ({ ...spec, owner: [label, ...path].join(' ') })), location, dynamicSubcommands: true });
    }
  }
  return out;
}

/** A node of a typer program's tree: a group (an app) or a command (a leaf). */
interface TyperNode {
  app?: TyperApp;
  command?: TyperApp['commands'][number];
}

/** One wrapper per app, so that the tree walk sees a sub-app met again as the same node (a cycle). */
const appNodes = new WeakMap<TyperApp, TyperNode>();

/**
 * An app's members as typer lists them: its commands, then its sub-apps; a sub-app with no name
 * at all has its members merged in its place (followed with an explicit stack, each app once,
 * at most {@link MAX_COMMANDS_PER_PROGRAM} members).
 */
function typerMembers(app: TyperApp, naming: Naming): Array<{ node: TyperNode; name: string }> {
  const out: Array<{ node: TyperNode; name: string }> = [];
  const merged = new Set<TyperApp>([app]);
  const stack: Array<{ group: TyperApp; next: number }> = [{ group: app, next: 0 }];
  for (const command of app.commands) out.push({ node: { command }, name: command.name });
  while (stack.length > 0 && out.length < MAX_COMMANDS_PER_PROGRAM) {
    const top = stack.at(-1)!;
    const sub = top.group.subApps[top.next++];
    if (!sub) {
      stack.pop();
      continue;
    }
    const name = sub.name ?? sub.app.name ?? (sub.app.callback ? naming(sub.app.callback.fn.name) : undefined);
    if (name !== undefined) {
      let node = appNodes.get(sub.app);
      if (!node) appNodes.set(sub.app, (node = { app: sub.app }));
      out.push({ node, name });
    } else if (!merged.has(sub.app)) {
      merged.add(sub.app);
      for (const command of sub.app.commands) out.push({ node: { command }, name: command.name });
      stack.push({ group: sub.app, next: 0 });
    }
  }
  return out;
}

/**
 * `for cmd in COMMANDS: app.command()(cmd)`: the functions of a list or tuple literal (here, a
 * module constant, or one imported) registered one by one, as OPAL's `get_typer_app()` does. Only
 * a loop whose body applies `app.command(…)` to the loop variable itself is read; each item must
 * name a function docdrift finds, else the loop is skipped.
 */
function loopCommands(
  ctx: FlagContext, module: FlagModule, loop: Node, appNamed: (name: string) => TyperApp | undefined, naming: Naming,
  local?: Parameters<FlagContext['symbol']>[2],
): void {
  const variable = loop.childForFieldName('left');
  const iterable = loop.childForFieldName('right');
  const body = loop.childForFieldName('body');
  if (variable?.type !== 'identifier' || !iterable || !body) return;
  for (const call of body.descendantsOfType('call')) {
    const inner = call?.childForFieldName('function');
    if (!call || inner?.type !== 'call') continue;
    const innerArgs = callArgs(inner);
    const args = callArgs(call);
    if (innerArgs.callee?.length !== 2 || innerArgs.callee[1] !== 'command' || args.positional[0]?.text !== variable.text) continue;
    const app = appNamed(innerArgs.callee[0]!);
    if (!app) continue;
    let items: Node[] | undefined;
    const it = unparen(iterable);
    if (it.type === 'list' || it.type === 'tuple') items = namedChildren(it);
    else {
      const symbol = ctx.symbol(module, dottedName(it), local);
      const right = symbol ? symbol.module.assigns.get(symbol.name) : undefined;
      const literal = right ? unparen(right) : undefined;
      if (symbol && literal && (literal.type === 'list' || literal.type === 'tuple')) {
        const home = symbol.module;
        const fns = namedChildren(literal).map((item) => ctx.symbol(home, dottedName(unparen(item))));
        if (fns.every((fn) => fn && fn.module.functions.has(fn.name))) {
          for (const fn of fns) app.commands.push({ fn: fn!, name: naming(fn!.name), location: locate(module, call) });
        }
        continue;
      }
    }
    const fns = (items ?? []).map((item) => ctx.symbol(module, dottedName(unparen(item)), local));
    if (items && fns.every((fn) => fn && fn.module.functions.has(fn.name))) {
      for (const fn of fns) app.commands.push({ fn: fn!, name: naming(fn!.name), location: locate(module, call) });
    }
  }
}

/** Command functions defined inside a factory (`make_app.<locals>.hello`), by module: {@link signature} reads them. */
const NESTED = new WeakMap<FlagModule, Map<string, Node>>();

/** A module-level `variable = callee(…)`. */
interface AssignedCall {
  other: FlagModule;
  variable: string;
  callee: Node;
}

/**
 * Every module's module-level assignments of a call ({@link AssignedCall}), in module then
 * assignment order, indexed by what the callee resolves to (module, then name) and by the
 * attribute a method call names (`Factory().build()` under `build`). Built once per extraction:
 * looking over every assignment of every module for each factory cost factories x assignments,
 * with a RegExp compiled per assignment (s27 sweep2 O1: 1,200 factory methods and 11,000
 * `xJ = FI().build()`: 39.1 s -> 2.6 s CPU for the run; 1,500 factory functions and 15,000 calls:
 * 23.4 s -> 2.2 s).
 */
interface AssignedCalls {
  bySymbol: Map<FlagModule, Map<string, AssignedCall[]>>;
  byMethod: Map<string, AssignedCall[]>;
  /** By method, then by each whole word of the callee's text (`Factory` in `Factory().build`): what `\bOwner\b` finds. */
  byMethodWord: Map<string, Map<string, AssignedCall[]>>;
}

function assignedCalls(ctx: FlagContext): AssignedCalls {
  const out: AssignedCalls = { bySymbol: new Map(), byMethod: new Map(), byMethodWord: new Map() };
  const add = <K>(map: Map<K, AssignedCall[]>, key: K, call: AssignedCall): void => {
    const list = map.get(key);
    if (list) list.push(call);
    else map.set(key, [call]);
  };
  for (const other of ctx.modules.values()) {
    for (const [variable, right] of other.assigns) {
      const call = unparen(right);
      const callee = call.type === 'call' ? call.childForFieldName('function') : undefined;
      if (!callee) continue;
      const entry = { other, variable, callee };
      const symbol = ctx.symbol(other, dottedName(callee));
      if (symbol) {
        let byName = out.bySymbol.get(symbol.module);
        if (!byName) out.bySymbol.set(symbol.module, (byName = new Map()));
        add(byName, symbol.name, entry);
      }
      const attribute = callee.type === 'attribute' ? identifierText(callee.childForFieldName('attribute')) : undefined;
      if (attribute !== undefined) {
        add(out.byMethod, attribute, entry);
        let byWord = out.byMethodWord.get(attribute);
        if (!byWord) out.byMethodWord.set(attribute, (byWord = new Map()));
        for (const word of new Set(callee.text.match(/\w+/g))) add(byWord, word, entry);
      }
    }
  }
  return out;
}

/**
 * Whether `word` stands in `text` between word boundaries, as `new RegExp(`\\b${word}\\b`)` would
 * find it (ASCII `\\w`, no `u` flag) for a word without regex syntax, without compiling one.
 */
export function hasWord(text: string, word: string): boolean {
  if (word === '') return /\b/.test(text);
  const isWord = (at: number): boolean => at >= 0 && at < text.length && /\w/.test(text[at]!);
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (isWord(at - 1) !== isWord(at) && isWord(at + word.length - 1) !== isWord(at + word.length)) return true;
  }
  return false;
}

/**
 * Apps built inside a top-level function or a method of a top-level class and returned or run
 * there (`def make_app(): app = typer.Typer(); @app.command() def hello(…): …; return app`): each
 * `name = typer.Typer(…)` in the body is an app whose `@name.command()`/`@name.callback()`
 * functions and `name.add_typer(sub, name=…)` calls (sub local or module-level) in the same body
 * are read, and `for cmd in COMMANDS: app.command()(cmd)` loops ({@link loopCommands}). Its
 * targets: the function (`module:make_app`) and its callers. A module-level name bound to its
 * result (`app = make_app()`, `app = Factory().build()`) is an app of its own, added to `apps`
 * under that name with the factory's commands, so that the `@app.command()` its module adds
 * below are its own (each call builds a new app). Returns the factory apps' targets; the apps
 * are added to `apps`.
 */
function readFactories(ctx: FlagContext, apps: Map<string, TyperApp>, naming: Naming): Map<TyperApp, string[]> {
  const targets = new Map<TyperApp, string[]>();
  /** Module-level `name = call(…)` of every module, indexed once, on the first factory that needs them. */
  let calls: AssignedCalls | undefined;
  for (const module of ctx.modules.values()) {
    const defs: Array<{ def: Node; key: string; owner?: string; method: string }> = [];
    for (const [name, { def }] of module.functions) defs.push({ def, key: name, method: name });
    for (const child of namedChildren(module.root)) {
      const cls = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
      if (cls?.type !== 'class_definition') continue;
      const className = identifierText(cls.childForFieldName('name')) ?? '';
      for (const m of namedChildren(cls.childForFieldName('body') ?? cls)) {
        const def = m.type === 'decorated_definition' ? m.childForFieldName('definition') : m;
        const method = def?.type === 'function_definition' ? identifierText(def.childForFieldName('name')) : undefined;
        if (def && method !== undefined) defs.push({ def, key: `${className}.${method}`, owner: className, method });
      }
    }
    for (const { def, key, owner, method } of defs) {
      const body = def.childForFieldName('body');
      if (!body || !body.text.includes('Typer')) continue;
      const local = owner === undefined ? module.info.functions.get(key)?.localBindings : undefined;
      const own = new Map<string, TyperApp>();
      for (const assignment of body.descendantsOfType('assignment')) {
        const left = assignment?.childForFieldName('left');
        const right = assignment?.childForFieldName('right');
        if (left?.type !== 'identifier' || !right || unparen(right).type !== 'call') continue;
        const args = callArgs(unparen(right));
        if (!TYPER.has(ctx.external(module, args.callee, local) ?? '')) continue;
        const nameNode = args.keywords.get('name');
        const appName = nameNode ? stringValue(nameNode) : undefined;
        const app: TyperApp = {
          symbol: { module, name: `${key}.<locals>.${pythonIdentifier(left.text)}` },
          ...(appName !== undefined ? { name: appName } : {}),
          location: locate(module, unparen(right)),
          commands: [],
          subApps: [],
          added: false,
          completion: readValue(args.keywords.get('add_completion') ?? right).bool !== false,
        };
        own.set(pythonIdentifier(left.text), app);
        apps.set(symbolKey(app.symbol), app);
      }
      if (own.size === 0) continue;
      let nested = NESTED.get(module);
      if (!nested) NESTED.set(module, (nested = new Map()));
      for (const d of body.descendantsOfType('decorated_definition')) {
        const inner = d?.childForFieldName('definition');
        const fname = inner?.type === 'function_definition' ? identifierText(inner.childForFieldName('name')) : undefined;
        if (!d || !inner || fname === undefined) continue;
        for (const decorator of namedChildren(d).filter((c) => c.type === 'decorator')) {
          const expr = unparen(namedChildren(decorator)[0] ?? decorator);
          const args = expr.type === 'call' ? callArgs(expr) : undefined;
          const callee = args?.callee;
          const app = callee?.length === 2 ? own.get(callee[0]!) : undefined;
          if (!args || !app || (callee![1] !== 'command' && callee![1] !== 'callback')) continue;
          const fn = { module, name: `${key}.<locals>.${fname}` };
          nested.set(fn.name, inner);
          if (callee![1] === 'callback') app.callback = { fn, location: locate(module, decorator) };
          else {
            const nameNode = args.positional[0] ?? args.keywords.get('name');
            const explicit = nameNode ? stringValue(nameNode) : undefined;
            app.commands.push({ fn, name: explicit ?? naming(fname), location: locate(module, decorator) });
          }
        }
      }
      for (const loop of body.descendantsOfType('for_statement')) {
        if (loop) loopCommands(ctx, module, loop, (name) => own.get(name), naming, local);
      }
      for (const call of body.descendantsOfType('call')) {
        const args = call ? callArgs(call) : undefined;
        const parent = args?.callee?.length === 2 && args.callee[1] === 'add_typer' ? own.get(args.callee[0]!) : undefined;
        const first = args?.positional[0];
        if (!args || !parent || !first) continue;
        const ref = dottedName(unparen(first));
        const symbol = ref?.length === 1 && own.has(ref[0]!) ? undefined : ctx.symbol(module, ref, local);
        const sub = ref?.length === 1 && own.has(ref[0]!) ? own.get(ref[0]!) : symbol ? apps.get(symbolKey(symbol)) : undefined;
        if (!sub || sub === parent) continue;
        const nameNode = args.keywords.get('name');
        const subName = nameNode ? stringValue(nameNode) : undefined;
        parent.subApps.push({ app: sub, ...(subName !== undefined ? { name: subName } : {}) });
        sub.added = true;
      }
      // The program: the app the body returns (else the only one), under the factory's names.
      const returned = body.descendantsOfType('return_statement').map((r) => (r ? namedChildren(r)[0]?.text : undefined)).find((t) => t !== undefined && own.has(t));
      const root = returned !== undefined ? own.get(returned) : own.size === 1 ? [...own.values()][0] : undefined;
      if (!root || root.added) continue;
      const names: string[] = owner === undefined ? [`${module.info.module}:${key}`, ...ctx.callers({ module, name: key })] : [];
      calls ??= assignedCalls(ctx);
      const hits = owner === undefined
        ? calls.bySymbol.get(module)?.get(key) ?? []
        : /^\w+$/.test(owner) ? calls.byMethodWord.get(method)?.get(owner) ?? [] : (calls.byMethod.get(method) ?? []).filter((c) => hasWord(c.callee.text, owner));
      for (const { other, variable } of hits) {
        // Each call makes a new app: `app = make_app()` is an app of its own, with the factory's
        // commands and those its module adds (`@app.command()` below it, read with the others).
        apps.set(`${other.info.module}:${variable}`, {
          ...root, symbol: { module: other, name: variable }, commands: [...root.commands], subApps: [...root.subApps],
        });
      }
      // Nothing else runs it (it is not a program itself), or it runs only through `app = make_app()`.
      if (names.length > 0) targets.set(root, names);
      else root.added = true;
    }
  }
  return targets;
}

/**
 * The options typer adds to an app's root command by itself (`add_completion=True`, the
 * default): `--install-completion` and `--show-completion`, from `BUILT_IN_FLAGS.typer`. Hidden
 * flags, so they are known in examples and need no reference row. (`--help` is known everywhere.)
 */
function completionFlags(location: SourceLocation): ParamSpec[] {
  return builtInFlagSpecs('typer', { root: true, location });
}

/** `typer.run(main)` at module level. */
function typerRun(ctx: FlagContext, module: FlagModule, call: Node, naming: Naming): FlagCommand | undefined {
  const first = callArgs(call).positional[0];
  const target = first ? ctx.symbol(module, dottedName(first)) : undefined;
  return target ? typerRunOf(ctx, target, symbolKey(target), naming) : undefined;
}

function typerRunOf(ctx: FlagContext, fn: Symbol, target: string, naming: Naming): FlagCommand | undefined {
  const entry = fn.module.functions.get(fn.name);
  if (!entry) return undefined;
  const owner = fn.name;
  return {
    path: [],
    target,
    params: signature(ctx, fn, naming).map((spec) => ({ ...spec, owner })),
    location: locate(fn.module, entry.def.childForFieldName('name') ?? entry.def),
  };
}

/** The type arguments of a subscripted annotation (`Annotated[int, X]` → `[int, X]`). */
export function typeArguments(expr: Node): Node[] {
  const n = unparen(expr);
  if (n.type === 'generic_type') {
    const params = namedChildren(n).find((c) => c.type === 'type_parameter');
    return params ? namedChildren(params).map((t) => (t.type === 'type' ? namedChildren(t)[0] ?? t : t)) : [];
  }
  if (n.type === 'subscript') return n.childrenForFieldName('subscript').filter((c): c is Node => c !== null);
  return [];
}

/** The dotted head of an annotation (`Annotated[int, X]` → `['Annotated']`, `int` → `['int']`). */
export function annotationHead(expr: Node): string[] | undefined {
  const n = unparen(expr);
  if (n.type === 'generic_type') {
    const head = namedChildren(n)[0];
    return head ? dottedName(head) : undefined;
  }
  if (n.type === 'subscript') {
    const value = n.childForFieldName('value');
    return value ? dottedName(value) : undefined;
  }
  return dottedName(n);
}

/** The parameters of a command function, as typer turns them into click parameters. */
function signature(ctx: FlagContext, fn: Symbol, naming: Naming): ParamSpec[] {
  const module = fn.module;
  const def = module.functions.get(fn.name)?.def ?? NESTED.get(module)?.get(fn.name);
  const parameters = def?.childForFieldName('parameters');
  const out: ParamSpec[] = [];
  for (const param of parameters ? namedChildren(parameters) : []) {
    const { name: nameNode, type: typeNode, value: valueNode, variadic } = parameterParts(param);
    if (variadic || !nameNode || nameNode.type !== 'identifier') continue; // *args, **kwargs, separators
    if (pythonIdentifier(nameNode.text) === 'self' && def !== module.functions.get(fn.name)?.def) continue;
    const spec = readParameter(ctx, module, nameNode, typeNode, valueNode, naming);
    if (spec) out.push(spec);
  }
  return out;
}

function readParameter(ctx: FlagContext, module: FlagModule, nameNode: Node, typeNode: Node | undefined, valueNode: Node | undefined, naming: Naming): ParamSpec | undefined {
  const pyName = pythonIdentifier(nameNode.text);
  let annotation = typeNode ? namedChildren(typeNode)[0] ?? typeNode : undefined;
  let info: { kind: 'option' | 'argument'; call: ReturnType<typeof callArgs>; annotated: boolean } | undefined;
  const infoOf = (node: Node, annotated: boolean): typeof info => {
    const call = unparen(node);
    if (call.type !== 'call') return undefined;
    const args = callArgs(call);
    const external = ctx.external(module, args.callee);
    if (external === undefined) return undefined;
    if (OPTION.has(external)) return { kind: 'option', call: args, annotated };
    if (ARGUMENT.has(external)) return { kind: 'argument', call: args, annotated };
    return undefined;
  };
  if (annotation) {
    const head = annotationHead(annotation);
    const headName = head ? ctx.external(module, head) : undefined;
    if (headName !== undefined && CONTEXT.has(headName)) return undefined;
    if (head?.at(-1) === 'Annotated') {
      const [inner, ...meta] = typeArguments(annotation);
      for (const m of meta) info ??= infoOf(m, true);
      if (inner) annotation = inner;
      const innerHead = inner ? annotationHead(inner) : undefined;
      const innerName = innerHead ? ctx.external(module, innerHead) : undefined;
      if (innerName !== undefined && CONTEXT.has(innerName)) return undefined;
    }
  }
  if (!info && valueNode) info = infoOf(valueNode, false);
  const kw = (key: string): Node | undefined => info?.call.keywords.get(key);
  // The default: the parameter's own for Annotated (or no typer call); the call's first argument otherwise.
  let decls: readonly Node[] = [];
  let defaultNode: Node | undefined;
  if (info && !info.annotated) {
    defaultNode = info.call.positional[0] ?? kw('default');
    decls = info.call.positional.slice(1);
  } else {
    defaultNode = valueNode;
    decls = info ? info.call.positional : [];
  }
  const defaultValue = defaultNode ? readValue(defaultNode) : undefined;
  const hasDefault = defaultValue !== undefined && !defaultValue.ellipsis;
  const kind = info?.kind ?? (valueNode ? 'option' : 'argument');
  const type = annotation?.text;
  const core = type !== undefined ? annotationCore(type) : undefined;
  const help = kw('help');
  const description = help ? stringValue(help) : undefined;
  const choices = annotation ? literalChoices(ctx, module, annotation) : undefined;
  const common = {
    ...(type !== undefined ? { type } : {}),
    ...(hasDefault && defaultValue ? { default: toDefault(defaultValue) } : {}),
    required: !hasDefault,
    ...(description !== undefined ? { description } : {}),
    deprecated: boolOrString(kw('deprecated')) ?? false,
    hidden: isTrue(kw('hidden')),
    envVars: envVarNames(kw('envvar'), module),
  };
  const counted = isTrue(kw('count'));
  if (kind === 'argument') {
    return flagSpec({
      name: pyName,
      aliases: [],
      ...common,
      location: locate(module, nameNode),
      dest: pyName,
      ...(choices ? { choices } : {}),
      positional: true,
      ...(isSequenceAnnotation(type) ? { variadic: true } : {}),
    });
  }
  const spelled = spellings(decls);
  if (!spelled) return undefined; // declarations built at run time
  const isBool = core === 'bool';
  if (spelled.length === 0) {
    // typer declares `--<name>` for every parameter, one letter long too (`g` → `--g`).
    const optionStrings = declaredOptionStrings([`--${naming(pyName)}`]);
    return flagSpec({
      name: naming(pyName),
      aliases: [],
      ...common,
      location: locate(module, nameNode),
      dest: pyName,
      ...(choices ? { choices } : {}),
      negatable: isBool,
      ...(optionStrings ? { optionStrings } : {}),
      counted,
    });
  }
  const parsed = parseClickDecls(spelled);
  const names = clickOptionNames(parsed);
  if (!names) return undefined;
  return flagSpec({
    name: names.name,
    aliases: names.aliases,
    ...common,
    location: locate(module, names.location),
    // typer passes the Python name as click's parameter name.
    dest: pyName,
    ...(choices ? { choices } : {}),
    negatable: names.negatable,
    ...(names.optionStrings ? { optionStrings: names.optionStrings } : {}),
    counted,
  });
}

/** `Literal["a", "b"]` (also inside `Optional[…]`): the allowed values. */
export function literalChoices(ctx: FlagContext, module: FlagModule, annotation: Node): string[] | undefined {
  const head = annotationHead(annotation);
  const external = head ? ctx.external(module, head) : undefined;
  if (external === 'typing.Literal' || external === 'typing_extensions.Literal') {
    const out: string[] = [];
    for (const arg of typeArguments(annotation)) {
      const value = readValue(arg);
      if (!value.literal) return undefined;
      out.push(value.str ?? value.text);
    }
    return out;
  }
  if (head?.at(-1) === 'Optional') {
    const inner = typeArguments(annotation)[0];
    return inner ? literalChoices(ctx, module, inner) : undefined;
  }
  return undefined;
}
