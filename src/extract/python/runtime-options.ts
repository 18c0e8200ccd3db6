/**
 * Options a program gets at run time from code its entry point reaches (issue #30): a config
 * library that turns a config object's entries into CLI options (OPAL's `Confi.cli()`, which
 * applies `click.option(*keys, **option_kwargs)(cli)` once per entry), a function that sets a
 * callback's `__signature__`. docdrift cannot know those options: the program is marked as taking
 * flags docdrift does not know, with the place and the construct, instead of staying silent.
 */
import type { Node } from 'web-tree-sitter';
import { callArgs, moduleCalls, moduleNodes, spellings, unreadAt, type FlagContext, type FlagModule } from './flags-common.js';
import type { FlagCommand, UnreadFlags } from './types.js';
import { dottedName, identifierText, namedChildren, unparen } from './values.js';

/** Option factories whose declarations name the flags: `click.option(...)`, `typer.Option(...)`, click's classes. */
const FACTORIES = new Set(['click', 'rich_click'].flatMap((lib) => [
  `${lib}.option`, `${lib}.argument`, `${lib}.decorators.option`, `${lib}.decorators.argument`,
  `${lib}.Option`, `${lib}.Argument`, `${lib}.core.Option`, `${lib}.core.Argument`,
]));

/** How many functions one entry point's walk visits at most: a bound, never a walk of the program. */
const MAX_VISITS = 300;

/** A function or method body the walk can enter, with the class it belongs to (for `self.x()`). */
interface Body {
  module: FlagModule;
  def: Node;
  /** The class of a method, as `module.Class` resolution needs it. */
  cls?: { module: FlagModule; def: Node };
}

/**
 * Marks each program (a command with `path: []`) whose entry function, or a function of its
 * module that uses the program (`config.cli(typer_app=app)`), reaches, through calls
 * of the repository's functions and methods (`self.m()`, `instance.m()` on a module-level
 * instance of a repository class, `Base` classes included; on a receiver it cannot follow, the
 * methods of that name of at most {@link MAX_NAMESAKES} classes it read), a construct that makes
 * options at run time:
 *
 * - a call of `click.option`/`click.argument` (or `click.Option`/`click.Argument`) whose
 *   declarations are not string literals (`click.option(*keys, **kwargs)`), outside decorators
 *   (a decorator's options belong to its command, see `extractClick`);
 * - an assignment to a function's `__signature__` (a signature built from data).
 *
 * The first such construct found is recorded as `unreadFlags` and the program is marked
 * `passesUnknownFlags`. The walk visits at most {@link MAX_VISITS} functions per entry point.
 * Mutates `commands`; never throws.
 */
export function markRuntimeOptions(ctx: FlagContext, commands: FlagCommand[]): void {
  const sites = new Map<number, UnreadFlags>();
  for (const module of ctx.modules.values()) {
    for (const call of moduleCalls(module.root)) {
      const args = callArgs(call);
      const external = ctx.external(module, args.callee);
      // The cheap test first: walking up from a node is a descent from the root per step.
      if (external === undefined || !FACTORIES.has(external) || inDecorator(call)) continue;
      const first = args.positional[0] ? unparen(args.positional[0]) : undefined;
      const listed = first && ['list', 'tuple'].includes(first.type) ? namedChildren(first) : args.positional;
      if (listed.length > 0 && spellings(listed)) continue;
      if (listed.length === 0 && !args.hasSplat) continue;
      const fn = enclosingDef(call);
      if (fn && !sites.has(fn.id)) sites.set(fn.id, site(module, call));
    }
    for (const assignment of moduleNodes(module.root).assignments) {
      const left = assignment.childForFieldName('left');
      if (left?.type !== 'attribute' || identifierText(left.childForFieldName('attribute')) !== '__signature__') continue;
      const fn = enclosingDef(assignment);
      if (fn && !sites.has(fn.id)) sites.set(fn.id, site(module, assignment));
    }
  }
  if (sites.size === 0) return;
  const found = new Map<string, UnreadFlags | undefined>();
  for (const command of commands) {
    if (command.path.length > 0 || command.unreadFlags) continue;
    if (!found.has(command.target)) found.set(command.target, reach(ctx, command.target, sites));
    const unread = found.get(command.target);
    if (!unread) continue;
    command.unreadFlags = unread;
    command.passesUnknownFlags = true;
  }
}

const site = unreadAt;

function inDecorator(node: Node): boolean {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === 'decorator') return true;
    if (n.type === 'function_definition' || n.type === 'class_definition') return false;
  }
  return false;
}

/** The innermost `def` around a node. */
function enclosingDef(node: Node): Node | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) if (n.type === 'function_definition') return n;
  return undefined;
}

/** The first run-time options site the function named by `target` (`module:function`) reaches. */
function reach(ctx: FlagContext, target: string, sites: Map<number, UnreadFlags>): UnreadFlags | undefined {
  const colon = target.indexOf(':');
  const module = colon > 0 ? ctx.modules.get(target.slice(0, colon)) : undefined;
  const name = target.slice(colon + 1);
  if (!module) return undefined;
  const entry = module.functions.get(name);
  const queue: Body[] = [];
  if (entry) queue.push({ module, def: entry.def });
  if (entry || module.assigns.has(name)) {
    // The module's functions that use the program (`config.cli(typer_app=app)`, `settings.cli(main)()`,
    // `app.callback()(make_callback())`: they may wrap it or add to it before it runs) run it too.
    for (const [fnName, fn] of module.functions) {
      if (fnName === name) continue;
      const uses = fn.def.childForFieldName('body')?.descendantsOfType('identifier').some((id) => id?.text === name);
      if (uses) queue.push({ module, def: fn.def });
    }
  }
  const seen = new Set<number>();
  let methods: Map<string, Body[]> | undefined;
  while (queue.length > 0 && seen.size < MAX_VISITS) {
    const body = queue.shift()!;
    if (seen.has(body.def.id)) continue;
    seen.add(body.def.id);
    for (const def of [body.def, ...body.def.descendantsOfType('function_definition').filter((d): d is Node => d !== null)]) {
      const hit = sites.get(def.id);
      if (hit) return hit;
    }
    const fnName = identifierText(body.def.childForFieldName('name'));
    const local = body.cls === undefined && fnName !== undefined ? body.module.info.functions.get(fnName)?.localBindings : undefined;
    for (const call of body.def.descendantsOfType('call')) {
      const callee = call ? callArgs(call).callee : undefined;
      if (!callee) continue;
      const symbol = ctx.symbol(body.module, callee, local);
      const fn = symbol?.module.functions.get(symbol.name);
      if (symbol && fn) {
        queue.push({ module: symbol.module, def: fn.def });
        continue;
      }
      if (callee.length < 2) continue;
      const method = callee.at(-1)!;
      const owner = callee.slice(0, -1);
      // `self.m()` in a method; `instance.m()` on a module-level `instance = RepoClass(…)`.
      const own = owner.length === 1 && (owner[0] === 'self' || owner[0] === 'cls');
      const cls = own ? body.cls : instanceClass(ctx, body.module, owner, local);
      const found = cls ? findMethod(ctx, cls, method, 0) : undefined;
      if (found) queue.push(found);
      else if (!own && !symbol) {
        // A receiver docdrift cannot follow (an instance defined in a module the flag pass does
        // not read: `opal_server_config.cli(…)`): the methods of that name of the classes it
        // read, when at most a few define one.
        const candidates = (methods ??= methodIndex(ctx)).get(method) ?? [];
        if (candidates.length <= MAX_NAMESAKES) queue.push(...candidates);
      }
    }
  }
  return undefined;
}

/** How many classes may define a method of a name for a call on an unknown receiver to follow them all. */
const MAX_NAMESAKES = 3;

/** Method name → the methods of that name of the top-level classes of the modules read. */
function methodIndex(ctx: FlagContext): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const module of ctx.modules.values()) {
    for (const child of namedChildren(module.root)) {
      const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
      if (def?.type !== 'class_definition') continue;
      const cls = { module, def };
      const body = def.childForFieldName('body');
      for (const member of body ? namedChildren(body) : []) {
        const method = member.type === 'decorated_definition' ? member.childForFieldName('definition') : member;
        const name = method?.type === 'function_definition' ? identifierText(method.childForFieldName('name')) : undefined;
        if (!method || name === undefined || name.startsWith('__')) continue;
        const list = out.get(name) ?? [];
        list.push({ module, def: method, cls });
        out.set(name, list);
      }
    }
  }
  return out;
}

/** The repository class of a module-level instance (`config = AppConfig(prefix="X_")`), here or imported. */
function instanceClass(ctx: FlagContext, module: FlagModule, owner: string[], local: Parameters<FlagContext['symbol']>[2]): Body['cls'] {
  const symbol = ctx.symbol(module, owner, local);
  const right = symbol?.module.assigns.get(symbol.name);
  const call = right ? unparen(right) : undefined;
  if (!symbol || call?.type !== 'call') return undefined;
  return classBody(ctx, symbol.module, dottedName(call.childForFieldName('function') ?? call));
}

function classBody(ctx: FlagContext, module: FlagModule, dotted: string[] | undefined): Body['cls'] {
  const resolved = dotted ? ctx.resolver.resolve(module.info, dotted) : undefined;
  if (resolved?.kind !== 'class') return undefined;
  const home = ctx.modules.get(resolved.cls.module);
  if (!home) return undefined;
  for (const child of namedChildren(home.root)) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type === 'class_definition' && identifierText(def.childForFieldName('name')) === resolved.cls.name) return { module: home, def };
  }
  return undefined;
}

/** A method of a class or of its repository base classes (a few levels). */
function findMethod(ctx: FlagContext, cls: NonNullable<Body['cls']>, name: string, depth: number): Body | undefined {
  if (depth > 4) return undefined;
  const body = cls.def.childForFieldName('body');
  for (const child of body ? namedChildren(body) : []) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type === 'function_definition' && identifierText(def.childForFieldName('name')) === name) return { module: cls.module, def, cls };
  }
  const bases = cls.def.childForFieldName('superclasses');
  for (const base of bases ? namedChildren(bases) : []) {
    const parent = classBody(ctx, cls.module, dottedName(base));
    const found = parent ? findMethod(ctx, parent, name, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}
