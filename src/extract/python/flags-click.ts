/** click flags: `@click.command()`/`@click.group()` functions, their `@click.option`/`@click.argument` decorators, and sub-commands attached with `@group.command()` or `group.add_command(…)`. */
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import {
  bindParameters, boolOrString, branchReach, callArgs, knownCondition, callsTo, clickOptionNames, enclosingFunction, envVarNames, flagSpec, isTrue, literalDefault, locate, moduleCalls, moduleNodes, nodesWithin, parseClickDecls, passesUnknown, readChoices, spellings,
  MAX_ATTACHED_PROGRAM_COMMANDS, MAX_COMMANDS_PER_PROGRAM, MAX_MODULE_COMMANDS, moduleCommandsCut, stripPrefix, subcommandTree, symbolKey, toDefault, unreadAt, type CallArgs, type FlagContext, type FlagModule, type Symbol,
} from './flags-common.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import type { Binding } from './scan.js';
import type { FlagCommand, UnreadFlags } from './types.js';
import { dottedName, identifierText, namedChildren, pythonIdentifier, readValue, stringValue, unparen } from './values.js';

/** Libraries read as click: click itself and rich-click, a drop-in wrapper. */
const LIBRARIES = ['click', 'rich_click'];
const qualified = (...names: string[]): Set<string> =>
  new Set(LIBRARIES.flatMap((lib) => names.flatMap((name) => [`${lib}.${name}`, `${lib}.decorators.${name}`])));
const COMMAND = qualified('command');
const GROUP = qualified('group');
const OPTION = qualified('option');
const ARGUMENT = qualified('argument');
const VERSION_OPTION = qualified('version_option');
/** click-default-group's group class: a group that runs a default sub-command when none is named. */
const DEFAULT_GROUP = new Set(['click_default_group.DefaultGroup']);
/** `click.CommandCollection(sources=[…])`: a group whose sub-commands are those of its source groups. */
const COLLECTION = new Set(LIBRARIES.flatMap((lib) => [`${lib}.CommandCollection`, `${lib}.core.CommandCollection`]));
const CHOICE = new Set(LIBRARIES.flatMap((lib) => [`${lib}.Choice`, `${lib}.types.Choice`]));

/** A click command or group function. */
interface ClickCommand {
  symbol: Symbol;
  /** The name click gives it (`name=` or derived from the function name). */
  name: string;
  isGroup: boolean;
  params: ParamSpec[];
  location: SourceLocation;
  /** `@parent.command()`: the parent as written, resolved when every module has been read. */
  parentRef?: Symbol;
  /** Sub-commands (from `@x.command()` and `x.add_command(…)`), in source order. */
  children: Array<{ command: ClickCommand; name: string }>;
  attached: boolean;
  /** `cls=DefaultGroup, default="run"` (click-default-group): the sub-command run when none is named. */
  defaultCommand?: string;
  /** `context_settings={"ignore_unknown_options": True}` (or `allow_extra_args`): unknown flags are passed on. */
  passesUnknownFlags?: boolean;
  /** Defined inside a function (`def register(group): @group.command() …`): a command only once attached. */
  nested?: boolean;
  /** `hidden=True`: left out of the group's help. */
  hidden?: boolean;
  /** `deprecated=True` (or a message): marked deprecated in help. */
  deprecated?: boolean;
  /**
   * Also has sub-commands made at run time (a `cls=` group class whose `list_commands`/
   * `get_command` computes them, a `CommandCollection` over sources docdrift cannot follow).
   */
  dynamic?: boolean;
  /** Its module has more than {@link MAX_MODULE_COMMANDS} commands, the others not read: it may have sub-commands among them. */
  cut?: boolean;
  /** `cls=` group class whose `list_commands`/`get_command` merge other groups: those groups (resolved after reading). */
  mergedFrom?: Symbol[];
  /** `mergedFrom` are a `CommandCollection`'s sources: one that is no group read here makes the group dynamic. */
  strictSources?: boolean;
  /**
   * Commands a lazy group imports by name at run time (a repository group class given
   * `lazy_subcommands={"serve": "pkg.mod.serve_cmd"}` or `import_name="pkg.mod:cli"`): a
   * `name` is a sub-command, a reference without one stands for the whole group (its
   * sub-commands and options). Resolved once every module has been read.
   */
  lazyRefs?: Array<{ name?: string; ref: string; node: Node; module: FlagModule }>;
  /** `commands=` of a `click.Group(...)` object: its sub-commands, resolved once every command is read. */
  objectChildren?: Array<{ name?: string; node: Node; module: FlagModule }>;
  /** The first construct that adds options docdrift cannot read (see {@link FlagCommand.unreadFlags}). */
  unreadFlags?: UnreadFlags;
  /**
   * click's `auto_envvar_prefix`, from `context_settings={"auto_envvar_prefix": "P"}` (or
   * `dict(auto_envvar_prefix="P")`) or a call running the command (`cli(auto_envvar_prefix="P")`,
   * `cli.main(auto_envvar_prefix="P")`).
   */
  autoEnvPrefix?: string;
}

/**
 * click's name for a command function (click ≥ 8.2): lower-cased, `_` → `-`, and a trailing
 * `_command`, `_cmd`, `_group` or `_grp` removed (`init_data_command` → `init-data`).
 */
export function clickCommandName(functionName: string): string {
  const name = functionName.toLowerCase().replaceAll('_', '-');
  const dash = name.lastIndexOf('-');
  if (dash > 0 && ['command', 'cmd', 'group', 'grp'].includes(name.slice(dash + 1))) return name.slice(0, dash);
  return name;
}

/**
 * Reads click (and rich-click) commands. Top-level functions decorated with `click.command`/
 * `click.group` (called or bare) are programs; `@g.command()`/`@g.group()` and module-level
 * `g.add_command(f[, name])` attach them to groups, possibly in other modules. Options declared as
 * module-level variables (`verbose = click.option(...)`, then `@verbose`) are read too, and so are
 * decorator factories (`@shared` whose body applies `click.option(…)` calls, or loops over a
 * module-level list of them: `for opt in reversed(OPTIONS): fn = opt(fn)`). A factory called with
 * literal arguments (`@standard_options(hidden=True)`) is read with its parameters bound, following
 * the branches whose conditions are then known ({@link factoryParams}); project wrappers of
 * `click.option` make options, hidden when the wrapper hides them ({@link optionWrapper}).
 *
 * Commands registered by a function that receives the group (`def register(cli): @cli.command()
 * …` or `cli.add_command(x)`) join every group the function is called with (`register(main)`,
 * pluggy's `pm.hook.register_commands(cli=main)`). A group's default sub-command comes from
 * click-default-group (`cls=DefaultGroup, default="x"`) or from a repository `click.Group` subclass
 * whose `parse_args`/`resolve_command` inserts a literal name. A command with
 * `context_settings={"ignore_unknown_options": True}` is marked as passing unknown flags on.
 *
 * `click.CommandCollection(sources=[…])` and repository `Group` subclasses whose
 * `list_commands`/`get_command` merge other groups have those groups' sub-commands; when such a
 * class computes commands otherwise (a folder, imports), the group is marked dynamic.
 *
 * Commands built by calling click's classes (`click.Command("serve", params=[click.Option([…])])`,
 * `click.Group(commands={…})`, `cmd.params.append(…)`: {@link readObjects}) are read, and so are
 * lazy groups: a repository group class given import paths (`lazy_subcommands={"serve":
 * "pkg.mod.serve_cmd"}`, `import_name="pkg.cli:cli"`) has the commands those paths name.
 * Options whose declarations docdrift cannot read (`click.option(*names)`, a decorator loop over
 * a list built at run time, `params=make_params()`) mark the command `unreadFlags` (it takes
 * flags docdrift does not know), with the place and the construct.
 *
 * A module's first {@link MAX_MODULE_COMMANDS} commands are read: past them a `parse-error` warning
 * in `diagnostics` names the file and the cap, and the module's groups are marked as having
 * sub-commands docdrift does not know.
 *
 * Not read: `help_option`, class-based commands (a `Command` subclass overriding `get_params`),
 * where passed-on flags are parsed again. `version_option` adds click's version flag,
 * hidden (see `BUILT_IN_FLAGS.click`).
 */
export function extractClick(ctx: FlagContext, diagnostics: InputDiagnostic[] = []): FlagCommand[] {
  const commands = new Map<string, ClickCommand>();
  for (const module of ctx.modules.values()) {
    const read: ClickCommand[] = [];
    for (const [name, { def, decorators }] of module.functions) {
      if (decorators.length === 0) continue;
      const command = readCommand(ctx, module, name, def, decorators);
      if (!command) continue;
      if (read.length >= MAX_MODULE_COMMANDS) {
        // The rest of the module is not read: its groups may have sub-commands among them.
        diagnostics.push(moduleCommandsCut(module, decorators[0]!, 'click'));
        for (const c of read) if (c.isGroup) c.dynamic = c.cut = true;
        break;
      }
      read.push(command);
      commands.set(symbolKey(command.symbol), command);
    }
  }
  readObjects(ctx, commands);
  const attach = (group: ClickCommand | undefined, command: ClickCommand, name: string): void => {
    if (!group || !group.isGroup || group === command) return;
    group.children.push({ command, name });
    command.attached = true;
  };
  for (const command of commands.values()) {
    if (command.parentRef) attach(commands.get(symbolKey(command.parentRef)), command, command.name);
  }
  for (const module of ctx.modules.values()) {
    // `group.add_command(cmd[, name])` at module level, or in a function body where `group` is a
    // module-level group (a parameter `group` is a registration: see attachRegistered).
    for (const call of moduleCalls(module.root)) {
      const args = callArgs(call);
      const autoPrefix = args.keywords.get('auto_envvar_prefix');
      if (autoPrefix && args.callee) {
        // `cli(auto_envvar_prefix="P")` / `cli.main(auto_envvar_prefix="P")`: the program run with it.
        const prefix = stringValue(autoPrefix) ?? (unparen(autoPrefix).type === 'identifier' ? module.info.constants.get(unparen(autoPrefix).text) : undefined);
        const runs = args.callee.at(-1) === 'main' && args.callee.length > 1 ? args.callee.slice(0, -1) : args.callee;
        const symbol = prefix === undefined ? undefined : ctx.symbol(module, runs);
        const command = symbol ? commands.get(symbolKey(symbol)) : undefined;
        if (command && prefix !== undefined) command.autoEnvPrefix ??= prefix;
      }
      if (args.callee?.at(-1) !== 'add_command' || args.callee.length < 2) continue;
      const fnName = enclosingFunction(call, module.root);
      const fn = fnName !== undefined ? module.functions.get(fnName) : undefined;
      if (fn && parameterNames(fn.def).includes(args.callee[0]!)) continue;
      const local = fnName !== undefined ? module.info.functions.get(fnName)?.localBindings : undefined;
      {
        const group = ctx.symbol(module, args.callee.slice(0, -1), local);
        const first = args.positional[0];
        const child = first ? ctx.symbol(module, dottedName(first), local) : undefined;
        const command = child ? commands.get(symbolKey(child)) : undefined;
        if (!group || !command) continue;
        const nameNode = args.positional[1] ?? args.keywords.get('name');
        const name = (nameNode ? stringValue(nameNode) : undefined) ?? command.name;
        attach(commands.get(symbolKey(group)), command, name);
      }
    }
  }
  attachRegistered(ctx, commands, attach);
  readCollections(ctx, commands);
  for (const command of commands.values()) {
    for (const child of command.objectChildren ?? []) {
      const symbol = ctx.symbol(child.module, dottedName(unparen(child.node)));
      const found = symbol ? commands.get(symbolKey(symbol)) : undefined;
      if (found) attach(command, found, child.name ?? found.name);
      else command.dynamic = true;
    }
    // The group class's `get_command` imports these by name: that is the run-time part the class
    // adds (it made the group dynamic when its methods were read); one not found here keeps it so.
    if (command.lazyRefs) command.dynamic = false;
    for (const lazy of command.lazyRefs ?? []) {
      const symbol = importPathSymbol(ctx, lazy.ref);
      const found = symbol ? commands.get(symbolKey(symbol)) : undefined;
      if (!found) command.dynamic = true;
      else if (lazy.name !== undefined) attach(command, found, lazy.name);
      else {
        // The group stands for the one it imports: its sub-commands and options are that group's.
        (command.mergedFrom ??= []).push(symbol!);
        const have = new Set(command.params.map((p) => p.name));
        command.params.push(...found.params.filter((p) => !have.has(p.name)));
        found.attached = true;
        if (found.unreadFlags) command.unreadFlags ??= found.unreadFlags;
        if (found.passesUnknownFlags) command.passesUnknownFlags = true;
        if (found.dynamic) command.dynamic = true;
      }
    }
  }
  mergeSources(commands);
  const out: FlagCommand[] = [];
  let attachedListed = 0;
  for (const root of commands.values()) {
    if (root.nested) continue;
    // A command attached to a group is also a program of its own when an entry point names it
    // (`pip-compile = "piptools.scripts.compile:cli"` beside `pip-tools compile`): it is listed
    // under its own target too, and a caller's target only when it is no group's child.
    const targets = root.attached ? [symbolKey(root.symbol)] : [symbolKey(root.symbol), ...ctx.callers(root.symbol)];
    // The auto prefix of each level of the current path: the tree comes in pre-order, so a
    // command's parent is the latest command one level up (no per-path keys: trees can list
    // 10,000 commands for each of thousands of roots).
    const autoPrefixes: Array<string | undefined> = [];
    const limit = root.attached ? Math.max(1, MAX_ATTACHED_PROGRAM_COMMANDS - attachedListed) : MAX_COMMANDS_PER_PROGRAM;
    for (const { node: command, path, cut } of subcommandTree(root, (c) => c.children.map((child) => ({ node: child.command, name: child.name })), limit)) {
      if (root.attached) attachedListed++;
      const owner = path.length === 0 ? root.name : `${root.name} ${path.join(' ')}`;
      const parentPrefix = path.length === 0 ? undefined : autoPrefixes[path.length - 1];
      const autoPrefix = autoEnvPrefixAt(command.autoEnvPrefix, parentPrefix, path.at(-1));
      autoPrefixes[path.length] = autoPrefix;
      const params = command.params.map((spec) => withAutoEnvVar({ ...spec, owner }, autoPrefix));
      const defaults = command.defaultCommand !== undefined && command.children.some((c) => c.name === command.defaultCommand)
        ? { defaultSubcommand: command.defaultCommand } : {};
      const passes = command.passesUnknownFlags ? { passesUnknownFlags: true } : {};
      const dynamic = command.dynamic || cut ? { dynamicSubcommands: true, ...(command.cut ? { dynamicSubcommandsBy: `a module of more than ${MAX_MODULE_COMMANDS.toLocaleString('en-US')} click commands` } : {}) } : {};
      const unread = command.unreadFlags ? { unreadFlags: command.unreadFlags } : {};
      const shown = { ...(command.hidden && path.length > 0 ? { hidden: true } : {}), ...(command.deprecated && path.length > 0 ? { deprecated: true } : {}) };
      for (const target of targets) out.push({ path, target, params, location: command.location, ...defaults, ...passes, ...dynamic, ...unread, ...shown });
    }
  }
  return out;
}

/**
 * click's `auto_envvar_prefix` of a command's context (click, "Values from Environment Variables",
 * https://click.palletsprojects.com/en/stable/options/#values-from-environment-variables): its own
 * setting, else the parent's prefix + `_` + its name upper-cased (`-` → `_`); upper-cased, as click
 * does since 7.0. Undefined when neither is set.
 */
function autoEnvPrefixAt(own: string | undefined, parent: string | undefined, word: string | undefined): string | undefined {
  if (own !== undefined) return own.toUpperCase();
  if (parent === undefined || word === undefined) return undefined;
  return `${parent}_${word.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * An option with its automatic variable `PREFIX_NAME` (click's parameter name upper-cased) after
 * any explicit `envvar=` ones (click tries the explicit one first). Arguments and the built-in
 * `--help`/`--version` flags get none.
 */
function withAutoEnvVar(spec: ParamSpec, prefix: string | undefined): ParamSpec {
  if (prefix === undefined || spec.positional || spec.dest === undefined || spec.name === 'help' || spec.name === 'version') return spec;
  const name = `${prefix}_${spec.dest.toUpperCase()}`;
  const envVars = spec.envVars ?? [];
  return envVars.includes(name) ? spec : { ...spec, envVars: [...envVars, name] };
}

/** Groups merged through more `CommandCollection`/merging-class levels than this are marked dynamic (sub-commands unknown). */
export const MAX_SOURCE_DEPTH = 50;

/**
 * Gives every merging group (a `CommandCollection`, a `cls=` group class whose `list_commands`
 * merges other groups) the sub-commands of its sources, after the sources' own merges: a
 * collection over a collection has the sub-commands of both, whatever order they were read in.
 * Each group is merged once (memoised; an explicit stack, no recursion), so a chain of 5,000
 * collections is linear work; a source in a cycle adds what it has so far. A group more than
 * {@link MAX_SOURCE_DEPTH} merge levels above a plain group gets no sub-commands from the source
 * past the limit and is marked dynamic (docdrift says its sub-commands are not all known).
 */
function mergeSources(commands: Map<string, ClickCommand>): void {
  /** Merge levels below a group, once merged (0: merges nothing); absent: not visited; -1: on the stack. */
  const depth = new Map<ClickCommand, number>();
  const merge = (command: ClickCommand): void => {
    const names = new Set(command.children.map((c) => c.name));
    let below = 0;
    for (const ref of command.mergedFrom ?? []) {
      const source = commands.get(symbolKey(ref));
      if (!source && command.strictSources) command.dynamic = true;
      if (!source || source === command) continue;
      const level = depth.get(source) ?? 0;
      below = Math.max(below, level + 1);
      if (level >= MAX_SOURCE_DEPTH) {
        command.dynamic = true;
        continue;
      }
      if (source.dynamic) command.dynamic = true;
      for (const child of source.children) {
        if (names.has(child.name)) continue;
        names.add(child.name);
        command.children.push(child);
      }
    }
    depth.set(command, below);
  };
  for (const start of commands.values()) {
    if (depth.has(start) || !start.mergedFrom?.length) continue;
    const stack: Array<{ command: ClickCommand; next: number }> = [{ command: start, next: 0 }];
    depth.set(start, -1);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const refs = top.command.mergedFrom ?? [];
      if (top.next < refs.length) {
        const source = commands.get(symbolKey(refs[top.next++]!));
        if (source && !depth.has(source) && source.mergedFrom?.length) {
          depth.set(source, -1);
          stack.push({ command: source, next: 0 });
        }
        continue;
      }
      stack.pop();
      merge(top.command);
    }
  }
}

/**
 * Reads one decorated function. `locals`: names that are local to an enclosing function (its
 * parameters and nested functions): `@group.command()` with such a `group` records it in
 * `localParent` instead of resolving it at module level.
 */
function readCommand(
  ctx: FlagContext, module: FlagModule, name: string, def: Node, decorators: Node[], locals?: Set<string>, bindings?: Map<string, Binding>,
): (ClickCommand & { localParent?: string }) | undefined {
  let command: (ClickCommand & { localParent?: string }) | undefined;
  const params: ParamSpec[] = [];
  let unread: UnreadFlags | undefined;
  for (const decorator of decorators) {
    const expr = unparen(namedChildren(decorator)[0] ?? decorator);
    const args = expr.type === 'call' ? callArgs(expr) : undefined;
    const callee = args ? args.callee : dottedName(expr);
    if (!callee) continue;
    const external = ctx.external(module, callee, bindings);
    if (!command && external !== undefined && (COMMAND.has(external) || GROUP.has(external))) {
      command = newCommand(ctx, module, name, decorator, args, GROUP.has(external));
      continue;
    }
    const last = callee.at(-1);
    if (!command && external === undefined && (last === 'command' || last === 'group') && callee.length === 2 && locals?.has(callee[0]!)) {
      command = newCommand(ctx, module, name, decorator, args, last === 'group');
      command.localParent = callee[0]!;
      continue;
    }
    if (!command && external === undefined && (last === 'command' || last === 'group') && callee.length > 1) {
      const parent = ctx.symbol(module, callee.slice(0, -1));
      // A typer app's `@app.command()` is typer's; only functions can be click groups.
      if (parent && (parent.module.functions.has(parent.name) || isGroupObject(ctx, parent))) {
        command = newCommand(ctx, module, name, decorator, args, last === 'group');
        command.parentRef = parent;
        continue;
      }
    }
    if (args && external !== undefined && VERSION_OPTION.has(external)) {
      params.push(...versionFlags(module, args, decorator));
      continue;
    }
    const param = readParam(ctx, module, expr, args, external, bindings);
    if (param) params.push(param);
    else if (args && external !== undefined && (OPTION.has(external) || ARGUMENT.has(external))) unread ??= unreadAt(module, decorator);
    else if (external === undefined) {
      const found = args ? helperCallParams(ctx, module, expr, bindings, 0, (u) => (unread ??= u)) : bundledParams(ctx, module, expr, bindings, 0, (u) => (unread ??= u));
      params.push(...found);
    }
  }
  if (command) {
    command.params = params;
    if (unread) {
      command.unreadFlags = unread;
      command.passesUnknownFlags = true;
    }
  }
  return command;
}

/** click's `deprecated=`: `True` or a message string (click ≥ 8.2). */
function isDeprecated(node: Node | undefined): boolean {
  return node !== undefined && (isTrue(node) || node.type === 'string');
}

function newCommand(ctx: FlagContext, module: FlagModule, name: string, decorator: Node, args: CallArgs | undefined, isGroup: boolean): ClickCommand {
  const nameNode = args?.positional[0] ?? args?.keywords.get('name');
  const explicit = nameNode ? stringValue(nameNode) : undefined;
  const clsNode = args?.keywords.get('cls');
  const defaultNode = args?.keywords.get('default');
  const defaultCommand = isGroup && clsNode ? groupDefault(ctx, module, clsNode, defaultNode) : undefined;
  const passes = passesUnknown(args?.keywords.get('context_settings'), module);
  const autoEnvPrefix = contextSetting(args?.keywords.get('context_settings'), module, 'auto_envvar_prefix');
  const merged = isGroup && clsNode ? collectionSources(ctx, module, clsNode, args) ?? mergedGroups(ctx, module, clsNode) : undefined;
  const lazy = isGroup && clsNode && args && ctx.external(module, dottedName(clsNode)) === undefined ? lazyReferences(module, args) : [];
  return {
    ...(lazy.length > 0 ? { lazyRefs: lazy } : {}),
    ...(merged ? { mergedFrom: merged.groups, ...(merged.dynamic ? { dynamic: true } : {}), ...('strict' in merged ? { strictSources: true } : {}) } : {}),
    ...(defaultCommand !== undefined ? { defaultCommand } : {}),
    ...(passes ? { passesUnknownFlags: true } : {}),
    ...(autoEnvPrefix !== undefined ? { autoEnvPrefix } : {}),
    ...(isTrue(args?.keywords.get('hidden')) ? { hidden: true } : {}),
    ...(isDeprecated(args?.keywords.get('deprecated')) ? { deprecated: true } : {}),
    symbol: { module, name },
    name: explicit ?? clickCommandName(name),
    isGroup,
    params: [],
    location: locate(module, decorator),
    children: [],
    attached: false,
  };
}

/** A string entry of `context_settings=dict(key="v")` / `{"key": "v"}` (also through a module-level name of the same module). */
function contextSetting(node: Node | undefined, module: FlagModule, key: string, depth = 0): string | undefined {
  if (!node || depth > 2) return undefined;
  const n = unparen(node);
  if (n.type === 'identifier') return contextSetting(module.assigns.get(pythonIdentifier(n.text)), module, key, depth + 1);
  if (n.type === 'call') {
    const args = callArgs(n);
    const value = args.callee?.join('.') === 'dict' ? args.keywords.get(key) : undefined;
    return value ? stringValue(value) : undefined;
  }
  if (n.type === 'dictionary') {
    for (const pair of namedChildren(n)) {
      const k = pair.type === 'pair' ? pair.childForFieldName('key') : null;
      const v = pair.type === 'pair' ? pair.childForFieldName('value') : null;
      if (k && v && stringValue(k) === key) return stringValue(v);
    }
  }
  return undefined;
}

/** `pkg.mod.attr` or `pkg.mod:attr`: how lazy groups name the object they import. */
const IMPORT_PATH = /^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?::[A-Za-z_]\w*|\.[A-Za-z_]\w*)$/;

/**
 * The objects a repository group class is told to import by name (click's "lazily loading
 * subcommands" recipe): keyword arguments whose value is an import path string
 * (`import_name="pkg.cli.plugins:cli"`, the whole group) or a dictionary of sub-command name →
 * import path (`lazy_subcommands={"serve": "pkg.serve.cli"}`). Other keywords are ignored.
 */
function lazyReferences(module: FlagModule, args: CallArgs): NonNullable<ClickCommand['lazyRefs']> {
  const out: NonNullable<ClickCommand['lazyRefs']> = [];
  for (const [key, value] of args.keywords) {
    if (['name', 'cls', 'help', 'short_help', 'epilog', 'default', 'context_settings'].includes(key)) continue;
    const node = unparen(value);
    const single = stringValue(node);
    if (single !== undefined) {
      if (IMPORT_PATH.test(single)) out.push({ ref: single, node, module });
      continue;
    }
    if (node.type !== 'dictionary') continue;
    for (const pair of namedChildren(node)) {
      if (pair.type !== 'pair') continue;
      const name = stringValue(pair.childForFieldName('key') ?? pair);
      const ref = stringValue(pair.childForFieldName('value') ?? pair);
      if (name !== undefined && ref !== undefined && IMPORT_PATH.test(ref)) out.push({ name, ref, node: pair, module });
    }
  }
  return out;
}

/** The repository object an import path names (`pkg.mod:attr`, or `pkg.mod.attr` with the longest module prefix read). */
function importPathSymbol(ctx: FlagContext, ref: string): Symbol | undefined {
  const colon = ref.indexOf(':');
  if (colon >= 0) {
    const module = ctx.modules.get(ref.slice(0, colon));
    return module ? ctx.symbol(module, ref.slice(colon + 1).split('.')) : undefined;
  }
  const parts = ref.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const module = ctx.modules.get(parts.slice(0, i).join('.'));
    if (module) return ctx.symbol(module, parts.slice(i));
  }
  return undefined;
}

/**
 * `@click.version_option(version, *param_decls)`: click's own version flag, as a hidden flag
 * (`BUILT_IN_FLAGS.click`); the default `--version` is known everywhere, so only other spellings
 * (`version_option("1.0", "-V", "--version")` → `V`) are added.
 */
function versionFlags(module: FlagModule, args: CallArgs, decorator: Node): ParamSpec[] {
  const decls = spellings(args.positional.slice(1));
  if (!decls) return [];
  const names = decls.map((d) => stripPrefix(d.text)).filter((n) => n !== '');
  return builtInFlagSpecs('click', { root: true, version: true, location: locate(module, decorator), ...(names.length > 0 ? { spellings: { version: names } } : {}) });
}

/** One `@click.option(…)`/`@click.argument(…)` decorator, or a module-level variable holding one. */
function readParam(
  ctx: FlagContext, module: FlagModule, expr: Node, args: CallArgs | undefined, external: string | undefined, bindings?: Map<string, Binding>,
): ParamSpec | undefined {
  if (args && external !== undefined) {
    if (OPTION.has(external)) return readOption(ctx, module, args);
    if (ARGUMENT.has(external)) return readArgument(ctx, module, args);
    return undefined;
  }
  if (args || (expr.type !== 'identifier' && expr.type !== 'attribute')) return undefined;
  // `@verbose` where `verbose = click.option(...)` at module level (here or imported).
  const symbol = ctx.symbol(module, dottedName(expr), bindings);
  const right = symbol?.module.assigns.get(symbol.name);
  const call = right ? unparen(right) : undefined;
  if (!symbol || !call || call.type !== 'call') return undefined;
  const inner = callArgs(call);
  const innerExternal = ctx.external(symbol.module, inner.callee);
  if (innerExternal === undefined) return undefined;
  if (OPTION.has(innerExternal)) return readOption(ctx, symbol.module, inner);
  if (ARGUMENT.has(innerExternal)) return readArgument(ctx, symbol.module, inner);
  return undefined;
}

/** What a callee used like `click.option(…)` makes: an option or an argument, hidden from help or not. */
interface ParamMaker {
  kind: 'option' | 'argument';
  hidden: boolean;
}

/**
 * The maker a dotted callee stands for: click's `option`/`argument`, or a repository wrapper of
 * `click.option` ({@link optionWrapper}). Undefined for anything else.
 */
function paramMaker(ctx: FlagContext, module: FlagModule, dotted: readonly string[] | undefined, local?: Map<string, Binding>): ParamMaker | undefined {
  const external = ctx.external(module, dotted, local);
  if (external !== undefined) return OPTION.has(external) ? { kind: 'option', hidden: false } : ARGUMENT.has(external) ? { kind: 'argument', hidden: false } : undefined;
  const symbol = ctx.symbol(module, dotted, local);
  return symbol ? optionWrapper(ctx, symbol) : undefined;
}

/** Reads one option or argument with a maker, hidden when the maker hides it. */
function readMade(ctx: FlagContext, module: FlagModule, maker: ParamMaker, args: CallArgs): ParamSpec | undefined {
  const spec = maker.kind === 'option' ? readOption(ctx, module, args) : readArgument(ctx, module, args);
  return spec && maker.hidden ? { ...spec, hidden: true } : spec;
}

/**
 * A repository function that wraps click's option decorator, passing its declarations and
 * keywords on: `def opt(*decls, **attrs)` whose body calls `click.option(*decls, …, **attrs)`,
 * or builds a `click.Option` (or a repository subclass of it) from `decls` (OctoPrint's
 * `hidden_option`: `_param_memo(f, HiddenOption(param_decls, **attrs))`). Hidden when it passes
 * `hidden=True`, sets `attrs["hidden"] = True` or `attrs.setdefault("hidden", True)`, or builds a
 * subclass whose `get_help_record` returns nothing (click leaves such an option out of --help).
 * Undefined for any other function (one that declares fixed options is a factory, read by
 * {@link factoryParams}).
 */
function optionWrapper(ctx: FlagContext, symbol: Symbol): ParamMaker | undefined {
  const def = symbol.module.functions.get(symbol.name)?.def;
  const body = def?.childForFieldName('body');
  const parameters = def?.childForFieldName('parameters');
  if (!def || !body || !parameters) return undefined;
  let decls: string | undefined;
  let attrs: string | undefined;
  for (const param of namedChildren(parameters)) {
    if (param.type === 'list_splat_pattern') decls = namedChildren(param)[0]?.text;
    if (param.type === 'dictionary_splat_pattern') attrs = namedChildren(param)[0]?.text;
  }
  if (decls === undefined) return undefined;
  const local = symbol.module.info.functions.get(symbol.name)?.localBindings;
  let made: ParamMaker | undefined;
  for (const call of body.descendantsOfType('call')) {
    if (!call) continue;
    const args = callArgs(call);
    const list = call.childForFieldName('arguments');
    const passesDecls = (list ? namedChildren(list) : []).some((a) => a.text === decls || a.text === `*${decls}`);
    if (!passesDecls) continue;
    const external = ctx.external(symbol.module, args.callee, local);
    if (external !== undefined && (OPTION.has(external) || OPTION_OBJECT.has(external))) {
      made = { kind: 'option', hidden: isTrue(args.keywords.get('hidden')) };
      break;
    }
    const optionClass = external === undefined ? optionSubclass(ctx, symbol.module, args.callee, local) : undefined;
    if (optionClass) {
      made = { kind: 'option', hidden: optionClass.hidesHelp || isTrue(args.keywords.get('hidden')) };
      break;
    }
  }
  if (!made) return undefined;
  if (!made.hidden && attrs !== undefined && setsHidden(body, attrs)) made.hidden = true;
  return made;
}

/** `attrs["hidden"] = True` or `attrs.setdefault("hidden", True)` in a function body. */
function setsHidden(body: Node, attrs: string): boolean {
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment?.childForFieldName('left');
    const right = assignment?.childForFieldName('right');
    if (left?.type !== 'subscript' || !right || !isTrue(right)) continue;
    const key = left.childForFieldName('subscript');
    if (left.childForFieldName('value')?.text === attrs && key && stringValue(key) === 'hidden') return true;
  }
  for (const call of body.descendantsOfType('call')) {
    const args = call ? callArgs(call) : undefined;
    if (args?.callee?.length === 2 && args.callee[0] === attrs && args.callee[1] === 'setdefault'
      && args.positional.length === 2 && stringValue(args.positional[0]!) === 'hidden' && isTrue(args.positional[1])) return true;
  }
  return false;
}

/**
 * A repository class derived (within a few levels) from click's `Option`; `hidesHelp` when one
 * of them defines `get_help_record` with a body that returns nothing (`pass`, `return`,
 * `return None`), which leaves the option out of --help.
 */
function optionSubclass(ctx: FlagContext, module: FlagModule, dotted: readonly string[] | undefined, local?: Map<string, Binding>, depth = 0): { hidesHelp: boolean } | undefined {
  if (!dotted || depth > 4) return undefined;
  const resolved = ctx.resolver.resolve(module.info, dotted, depth === 0 ? local : undefined);
  if (resolved?.kind !== 'class') return undefined;
  const home = ctx.modules.get(resolved.cls.module);
  const classDef = home ? classNode(home, resolved.cls.name) : undefined;
  if (!home || !classDef) return undefined;
  const own = hidesHelpRecord(classDef);
  for (const base of resolved.cls.bases) {
    const external = ctx.external(home, base.dotted);
    if (external !== undefined && OPTION_OBJECT.has(external)) return { hidesHelp: own };
    const inherited = optionSubclass(ctx, home, base.dotted, undefined, depth + 1);
    if (inherited) return { hidesHelp: own || inherited.hidesHelp };
  }
  return undefined;
}

/** A class body defining `get_help_record` whose body returns nothing. */
function hidesHelpRecord(classDef: Node): boolean {
  const body = classDef.childForFieldName('body');
  for (const child of body ? namedChildren(body) : []) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type !== 'function_definition' || identifierText(def.childForFieldName('name')) !== 'get_help_record') continue;
    const statements = namedChildren(def.childForFieldName('body') ?? def).filter((s) => !(s.type === 'expression_statement' && namedChildren(s)[0]?.type === 'string'));
    return statements.every((s) => s.type === 'pass_statement' || (s.type === 'return_statement' && (namedChildren(s).length === 0 || namedChildren(s)[0]?.type === 'none')));
  }
  return false;
}

/**
 * A decorator factory (`@shared_options` where `def shared_options(fn): fn = click.option(…)(fn);
 * return fn`, or a tuple of `click.option(…)` applied in a loop): the options and arguments
 * its body declares, read from the `click.option`/`click.argument` calls in it (one level, not
 * run). Called with arguments (`@standard_options(hidden=True)`), its parameters are bound to
 * their literal values (defaults, positionals, keywords; {@link bindParameters}) while its body
 * is read: a branch whose condition is known not taken (`if hidden: factory = hidden_option`)
 * is skipped, and a local name assigned a maker (`factory = click.option`, or a repository
 * wrapper that hides options, {@link optionWrapper}) makes what the last assignment that runs
 * gives it; under a condition that is not known, what it was first bound to. Nothing for other
 * decorators.
 */
function factoryParams(
  ctx: FlagContext, module: FlagModule, expr: Node, bindings?: Map<string, Binding>, onUnread?: (u: UnreadFlags) => void, called?: CallArgs, depth = 0,
): ParamSpec[] {
  if (depth > FACTORY_DEPTH || (expr.type !== 'identifier' && expr.type !== 'attribute')) return [];
  const symbol = ctx.symbol(module, dottedName(expr), bindings);
  const entry = symbol ? symbol.module.functions.get(symbol.name) : undefined;
  const body = entry?.def.childForFieldName('body');
  if (!symbol || !entry || !body) return [];
  const local = symbol.module.info.functions.get(symbol.name)?.localBindings;
  const env = bindParameters(entry.def, called);
  // `factory = click.option` (OctoPrint's `standard_options()`, which swaps in a hidden variant
  // when asked: `if hidden: factory = hidden_option`): calls of such a local name are calls of
  // the maker it is bound to.
  const aliases = new Map<string, ParamMaker>();
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment?.childForFieldName('left');
    const right = assignment?.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    const reach = branchReach(assignment!, body, env);
    if (reach === 'never' || (aliases.has(pythonIdentifier(left.text)) && reach === 'maybe')) continue;
    let value = unparen(right);
    if (value.type === 'conditional_expression') {
      const [yes, cond, no] = namedChildren(value);
      const known = cond ? knownCondition(cond, env) : undefined;
      if (known === undefined) continue;
      value = unparen((known === false ? no : yes) ?? value);
    }
    const maker = value.type === 'identifier' || value.type === 'attribute' ? paramMaker(ctx, symbol.module, dottedName(value), local) : undefined;
    // A later binding to something else (`factory = functools.partial(click.option, …)`) keeps the maker.
    if (maker) aliases.set(pythonIdentifier(left.text), maker);
  }
  const out: ParamSpec[] = [];
  /** A name among the decorators a loop applies: `verbose` (`verbose = click.option(…)`) or a decorator function (`load_extension_option`). */
  const namedDecorator = (where: FlagModule, name: Node): ParamSpec[] => {
    const spec = readParam(ctx, where, name, undefined, undefined);
    if (spec) return [spec];
    const made = factoryParams(ctx, where, name, undefined, onUnread, undefined, depth + 1);
    if (made.length === 0 && (name.type === 'identifier' || name.type === 'attribute')) onUnread?.(unreadAt(where, name));
    return made;
  };
  for (const call of body.descendantsOfType('call')) {
    if (!call || branchReach(call, body, env) === 'never') continue;
    const inner = callArgs(call);
    const head = inner.callee?.length === 1 ? inner.callee[0]! : undefined;
    const maker = (head !== undefined ? aliases.get(head) : undefined) ?? paramMaker(ctx, symbol.module, inner.callee, local);
    if (!maker) continue;
    const spec = readMade(ctx, symbol.module, maker, inner);
    if (spec) out.push(spec);
    else onUnread?.(unreadAt(symbol.module, call));
  }
  // `for opt in reversed(OPTIONS): fn = opt(fn)` over a module-level list of `click.option(…)`
  // calls (or of variables holding them), here or imported, over a tuple literal of them, or over
  // a `+` of those.
  for (const loop of body.descendantsOfType('for_statement')) {
    let over = loop?.childForFieldName('right');
    while (over && unparen(over).type === 'call') {
      const wrap = callArgs(unparen(over));
      if (wrap.callee?.length !== 1 || !['reversed', 'list', 'tuple'].includes(wrap.callee[0]!) || wrap.positional.length !== 1) break;
      over = wrap.positional[0];
    }
    // `fn = opt(fn)` in the loop body: the loop applies what it iterates over as decorators; over
    // anything but a module-level list docdrift reads, those options are unknown.
    const variable = identifierText(loop?.childForFieldName('left'));
    const applies = variable !== undefined && (loop?.childForFieldName('body')?.descendantsOfType('call') ?? [])
      .some((c) => identifierText(c?.childForFieldName('function')) === variable);
    const unknown = (): void => {
      if (applies && loop) onUnread?.(unreadAt(symbol.module, loop.childForFieldName('right') ?? loop));
    };
    if (!over) {
      unknown();
      continue;
    }
    // sqlite-utils: `reversed((click.argument("path"), click.option("--pk"), …) + _import_options + (…))`:
    // a `+` of tuple or list literals (whose calls were read above) and module-level names.
    const operands: Node[] = [];
    const pending: Node[] = [unparen(over)];
    while (pending.length > 0 && operands.length <= MAX_LOOP_OPERANDS) {
      const node = pending.pop()!;
      if (node.type === 'binary_operator' && node.childForFieldName('operator')?.text === '+') {
        const [left, right] = [node.childForFieldName('left'), node.childForFieldName('right')];
        if (right) pending.push(unparen(right));
        if (left) pending.push(unparen(left));
      } else operands.push(node);
    }
    if (pending.length > 0) {
      unknown();
      continue;
    }
    for (const operand of operands) {
      if (operand.type === 'tuple' || operand.type === 'list') {
        // Its calls were read above; a name in it is an option variable or a decorator function.
        for (const item of namedChildren(operand)) if (unparen(item).type !== 'call') out.push(...namedDecorator(symbol.module, unparen(item)));
        continue;
      }
      if (operand.type !== 'identifier' && operand.type !== 'attribute') {
        unknown();
        continue;
      }
      const head = dottedName(operand)?.[0] ?? '';
      // A local list or tuple literal (`decorators = (click.option(…), …)`): its calls were read above.
      const localLiteral = body.descendantsOfType('assignment').some((a) => a !== null && identifierText(a.childForFieldName('left')) === head
        && ['list', 'tuple'].includes(unparen(a.childForFieldName('right') ?? a).type));
      if (localLiteral) continue;
      if (local?.has(head)) {
        unknown();
        continue;
      }
      const listSymbol = ctx.symbol(symbol.module, dottedName(operand));
      const list = listSymbol ? listSymbol.module.assigns.get(listSymbol.name) : undefined;
      if (!listSymbol || !list || !['list', 'tuple'].includes(unparen(list).type)) {
        unknown();
        continue;
      }
      for (const item of namedChildren(unparen(list))) {
        const element = unparen(item);
        if (element.type !== 'call') {
          out.push(...namedDecorator(listSymbol.module, element));
          continue;
        }
        const args = callArgs(element);
        const spec = readParam(ctx, listSymbol.module, element, args, ctx.external(listSymbol.module, args.callee));
        if (spec) out.push(spec);
      }
    }
  }
  return out;
}

/** How many decorator functions deep {@link factoryParams} follows names in the lists a loop applies. */
const FACTORY_DEPTH = 3;

/** The most `+` operands of a decorator loop's iterable that are read (more: its options are unknown). */
const MAX_LOOP_OPERANDS = 64;

/** How deep {@link helperCallParams} follows names and nested lists: a bound, never a walk of the program. */
const HELPER_DEPTH = 4;

/**
 * Options bundled by a call of one of the project's own helpers, used as a decorator:
 * `@add_options(shared_options)`, `@add_options(click.option(…), verbose_option)`, or a name bound
 * to such a call (`common_options = add_options(quiet_option, verbose_option)`, then
 * `@common_options`). The helper's arguments are read, not the helper: each `click.option(…)` /
 * `click.argument(…)` call, a list or tuple of them (spread with `*` or not), a module-level name
 * bound to one of those, or a decorator function whose body applies options
 * ({@link factoryParams}). When the arguments give none, the helper's own body is read
 * (`@standard_options()`, whose body lists `click.option(…)` calls and returns a decorator
 * applying them). Bounded by {@link HELPER_DEPTH}; nothing for a callee that is not a
 * function of the repository.
 */
function helperCallParams(ctx: FlagContext, module: FlagModule, call: Node, bindings?: Map<string, Binding>, depth = 0, onUnread?: (u: UnreadFlags) => void): ParamSpec[] {
  if (depth > HELPER_DEPTH || unparen(call).type !== 'call') return [];
  const node = unparen(call);
  const callee = callArgs(node).callee;
  const helper = callee ? ctx.symbol(module, callee, bindings) : undefined;
  if (!helper || !helper.module.functions.has(helper.name)) return [];
  const list = node.childForFieldName('arguments');
  const out: ParamSpec[] = [];
  for (const arg of list ? namedChildren(list) : []) out.push(...bundledParams(ctx, module, arg, bindings, depth + 1, onUnread));
  // `@standard_options()`: a helper whose own body declares the options and returns the decorator.
  const fn = node.childForFieldName('function');
  // `@hidden_option("--debug")`: a repository wrapper of `click.option` is that option.
  const wrapper = optionWrapper(ctx, helper);
  if (wrapper) {
    const spec = readMade(ctx, module, wrapper, callArgs(node));
    if (spec) return [spec];
    onUnread?.(unreadAt(module, node));
    return [];
  }
  if (out.length === 0 && fn) out.push(...factoryParams(ctx, module, fn, bindings, onUnread, callArgs(node)));
  return out;
}

/** The options one argument of a bundling helper stands for (see {@link helperCallParams}). */
function bundledParams(
  ctx: FlagContext, module: FlagModule, arg: Node, bindings: Map<string, Binding> | undefined, depth: number, onUnread?: (u: UnreadFlags) => void,
): ParamSpec[] {
  if (depth > HELPER_DEPTH) return [];
  let node = unparen(arg);
  if (node.type === 'list_splat' || node.type === 'parenthesized_list_splat') node = unparen(namedChildren(node)[0] ?? node);
  if (node.type === 'keyword_argument') return [];
  if (node.type === 'list' || node.type === 'tuple') return namedChildren(node).flatMap((item) => bundledParams(ctx, module, item, bindings, depth + 1, onUnread));
  if (node.type === 'call') {
    const args = callArgs(node);
    const external = ctx.external(module, args.callee, bindings);
    if (external !== undefined) {
      const spec = OPTION.has(external) ? readOption(ctx, module, args) : ARGUMENT.has(external) ? readArgument(ctx, module, args) : undefined;
      if (!spec && (OPTION.has(external) || ARGUMENT.has(external))) onUnread?.(unreadAt(module, node));
      return spec ? [spec] : [];
    }
    return helperCallParams(ctx, module, node, bindings, depth, onUnread);
  }
  if (node.type !== 'identifier' && node.type !== 'attribute') return [];
  const symbol = ctx.symbol(module, dottedName(node), bindings);
  if (!symbol) return [];
  if (symbol.module.functions.has(symbol.name)) return factoryParams(ctx, module, node, bindings, onUnread);
  const value = symbol.module.assigns.get(symbol.name);
  return value ? bundledParams(ctx, symbol.module, value, undefined, depth + 1, onUnread) : [];
}

/**
 * The default sub-command of a group class (`cls=`): click-default-group's `DefaultGroup` (or a
 * repository subclass of it) with `default="x"`, or a repository `click.Group` subclass whose
 * `resolve_command`/`parse_args` inserts a literal name in front of the arguments
 * (`args.insert(0, "run")`, `["run", *args]`, `["run"] + args`). Undefined otherwise.
 */
function groupDefault(ctx: FlagContext, module: FlagModule, clsNode: Node, defaultNode: Node | undefined): string | undefined {
  const fromDefault = defaultNode ? stringValue(defaultNode) : undefined;
  const seen = new Set<string>();
  const visit = (info: FlagModule, dotted: string[] | undefined, depth: number): string | undefined => {
    if (!dotted || depth > 6) return undefined;
    const external = ctx.external(info, dotted);
    if (external !== undefined) return DEFAULT_GROUP.has(external) ? fromDefault : undefined;
    const resolved = ctx.resolver.resolve(info.info, dotted);
    if (resolved?.kind !== 'class' || seen.has(resolved.cls.qualifiedName)) return undefined;
    seen.add(resolved.cls.qualifiedName);
    const home = ctx.modules.get(resolved.cls.module);
    const def = home ? classNode(home, resolved.cls.name) : undefined;
    if (!home || !def) return undefined;
    const inserted = insertedName(def);
    if (inserted !== undefined) return inserted;
    for (const base of resolved.cls.bases) {
      const found = visit(home, base.dotted, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(module, dottedName(clsNode), 0);
}

/**
 * `@click.group(cls=click.CommandCollection, sources=[a, b])`: the group decorator passes
 * `sources` on to the collection, so the group has the sub-commands of `a` and `b`, as
 * `click.CommandCollection(sources=[…])` does (see {@link readCollections}). A source that is not a
 * name docdrift follows to a group, or sources that are not a list/tuple literal, make it dynamic
 * (a source named here that turns out to be no group is made dynamic when merging). Undefined when
 * `cls` is not click's `CommandCollection`.
 */
function collectionSources(ctx: FlagContext, module: FlagModule, clsNode: Node, args: CallArgs | undefined): { groups: Symbol[]; dynamic: boolean; strict: true } | undefined {
  if (!COLLECTION.has(ctx.external(module, dottedName(clsNode)) ?? '')) return undefined;
  const sourcesNode = args?.keywords.get('sources');
  const listed = sourcesNode && ['list', 'tuple'].includes(unparen(sourcesNode).type) ? namedChildren(unparen(sourcesNode)) : undefined;
  const groups: Symbol[] = [];
  let dynamic = sourcesNode !== undefined && listed === undefined;
  for (const item of listed ?? []) {
    const symbol = ctx.symbol(module, dottedName(unparen(item)));
    if (symbol) groups.push(symbol);
    else dynamic = true;
  }
  return { groups, dynamic, strict: true };
}

/**
 * A repository group class (`cls=`, or the class of a `cli = MyGroup(…)` instance) that overrides
 * `list_commands`/`get_command` (or `resolve_command`): the module-level names its bodies use that
 * may be click groups (`group_a.list_commands(ctx) + group_b.list_commands(ctx)`), to merge once
 * every command is read, and `dynamic` when its commands may also come from elsewhere (it does
 * not only merge such groups: a folder listing, `importlib`, entry points). Undefined when the
 * class overrides neither method (its base's commands are the group's own).
 */
/** What calls a group class's base `list_commands`/`get_command`: the group itself or click's classes. */
const CLICK_BASE_CALLERS: ReadonlySet<string> = new Set([
  'self', 'super', 'click', 'Group', 'MultiCommand', 'click.Group', 'click.MultiCommand', 'click.CommandCollection', 'CommandCollection',
]);

function mergedGroups(ctx: FlagContext, module: FlagModule, clsNode: Node): { groups: Symbol[]; dynamic: boolean } | undefined {
  const dotted = dottedName(clsNode);
  const resolved = dotted ? ctx.resolver.resolve(module.info, dotted) : undefined;
  if (resolved?.kind !== 'class') return undefined;
  const home = ctx.modules.get(resolved.cls.module);
  const def = home ? classNode(home, resolved.cls.name) : undefined;
  if (!home || !def) return undefined;
  const body = def.childForFieldName('body');
  const groups: Symbol[] = [];
  let overrides = false;
  let dynamic = false;
  for (const child of body ? namedChildren(body) : []) {
    const method = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    const name = method?.type === 'function_definition' ? identifierText(method.childForFieldName('name')) : undefined;
    if (!method || (name !== 'list_commands' && name !== 'get_command')) continue;
    overrides = true;
    let mergesOnly = true;
    for (const call of method.descendantsOfType('call')) {
      if (!call) continue;
      const callee = callArgs(call).callee;
      const last = callee?.at(-1);
      if (callee && callee.length >= 2 && (last === 'list_commands' || last === 'get_command')) {
        const symbol = ctx.symbol(home, callee.slice(0, -1));
        if (symbol) groups.push(symbol);
        // The base class's own method (`super().get_command`, `self.list_commands`, `click.Group.get_command`)
        // lists the group's own commands; another object's (`self._impl.get_command`, a group imported at
        // run time, OctoPrint's LazyGroup) lists commands made at run time.
        else if (!CLICK_BASE_CALLERS.has(callee.slice(0, -1).join('.')) && !/^super\(/.test(call.text)) mergesOnly = false;
      } else if (!/^(?:sorted|set|list|super|len|isinstance|getattr|dict|tuple)$/.test(callee?.join('.') ?? '') && callee?.[0] !== 'super' && !call.text.startsWith('super(')) {
        // Another call (`os.listdir`, `importlib.import_module`, entry points): commands made at run time.
        mergesOnly = false;
      }
    }
    if (!mergesOnly) dynamic = true;
  }
  return overrides ? { groups, dynamic } : undefined;
}

/**
 * `cli = click.CommandCollection(sources=[cli1, cli2])` (module level or in a function: then the
 * function is the program) and `cli.add_source(g)`: a group whose sub-commands are its sources'.
 * Sources that are not repository groups (a list built at run time) make it dynamic.
 */
function readCollections(ctx: FlagContext, commands: Map<string, ClickCommand>): void {
  for (const module of ctx.modules.values()) {
    let addSources: Map<string, Node[]> | undefined;
    for (const { call, args, fnName, local } of callsTo(ctx, module, COLLECTION)) {
      const assignment = call.parent?.type === 'assignment' ? call.parent : undefined;
      const left = assignment?.childForFieldName('left');
      const name = fnName ?? (left?.type === 'identifier' ? pythonIdentifier(left.text) : undefined);
      if (name === undefined) continue;
      const nameNode = args.keywords.get('name');
      const collection: ClickCommand = {
        symbol: { module, name },
        name: (nameNode ? stringValue(nameNode) : undefined) ?? clickCommandName(name),
        isGroup: true,
        params: [],
        location: locate(module, call),
        children: [],
        attached: false,
        mergedFrom: [],
      };
      const sourcesNode = args.keywords.get('sources') ?? args.positional[1];
      const listed = sourcesNode && ['list', 'tuple'].includes(unparen(sourcesNode).type) ? namedChildren(unparen(sourcesNode)) : undefined;
      if (sourcesNode && !listed) collection.dynamic = true;
      // A source read later (another module, a collection further down) is merged too: the
      // merge runs once every group is known (mergeSources); one that is no group makes it dynamic.
      collection.strictSources = true;
      for (const item of listed ?? []) {
        const symbol = ctx.symbol(module, dottedName(unparen(item)), local);
        if (symbol) collection.mergedFrom!.push(symbol);
        else collection.dynamic = true;
      }
      // `cli.add_source(g)` on a module-level collection (the module's calls scanned once, not per collection).
      if (fnName === undefined) {
        if (!addSources) {
          addSources = new Map();
          for (const other of moduleCalls(module.root)) {
            const a = callArgs(other);
            if (a?.callee?.length !== 2 || a.callee[1] !== 'add_source' || !a.positional[0]) continue;
            const list = addSources.get(a.callee[0]!) ?? [];
            list.push(a.positional[0]);
            addSources.set(a.callee[0]!, list);
          }
        }
        for (const source of addSources.get(name) ?? []) {
          const symbol = ctx.symbol(module, dottedName(unparen(source)));
          if (symbol) collection.mergedFrom!.push(symbol);
          else collection.dynamic = true;
        }
      }
      commands.set(symbolKey(collection.symbol), collection);
    }
    // `cli = MyGroup(help=…)`: an instance of a repository `click.Group`/`MultiCommand` subclass.
    for (const [name, right] of module.assigns) {
      const call = unparen(right);
      if (call.type !== 'call' || commands.has(`${module.info.module}:${name}`)) continue;
      const fn = call.childForFieldName('function');
      if (!fn || !isGroupClass(ctx, module, dottedName(fn), 0)) continue;
      const merged = mergedGroups(ctx, module, fn);
      const nameNode = callArgs(call).keywords.get('name');
      const lazy = lazyReferences(module, callArgs(call));
      commands.set(`${module.info.module}:${name}`, {
        ...(lazy.length > 0 ? { lazyRefs: lazy } : {}),
        symbol: { module, name },
        name: (nameNode ? stringValue(nameNode) : undefined) ?? clickCommandName(name),
        isGroup: true,
        params: [],
        location: locate(module, call),
        children: [],
        attached: false,
        ...(merged ? { mergedFrom: merged.groups, ...(merged.dynamic ? { dynamic: true } : {}) } : {}),
      });
    }
  }
}

const objectClasses = (...names: string[]): Set<string> => new Set(LIBRARIES.flatMap((lib) => names.flatMap((n) => [`${lib}.${n}`, `${lib}.core.${n}`])));
/** click's classes called directly: `click.Command(...)`, `click.Group(...)`, and their parameters. */
const COMMAND_OBJECT = objectClasses('Command');
const GROUP_OBJECT = objectClasses('Group', 'MultiCommand');
const OPTION_OBJECT = objectClasses('Option');
const ARGUMENT_OBJECT = objectClasses('Argument');

/**
 * Commands built by calling click's classes (module level): `cmd = click.Command("serve",
 * params=[click.Option(["--port", "-p"], default=8080)], callback=serve)` and `cli =
 * click.Group("tool", commands={"serve": cmd})` (or `commands=[cmd]`); and parameters added to
 * any command read here with `cmd.params.append(click.Option([...]))` / `.extend([...])` /
 * `.insert(i, ...)`. A parameter whose declarations are not a literal list of strings, or a
 * `params` value that is not a literal list, is unknown: the command is marked
 * (`unreadFlags`), never guessed at.
 */
function readObjects(ctx: FlagContext, commands: Map<string, ClickCommand>): void {
  const parameter = (module: FlagModule, item: Node): ParamSpec | undefined => {
    const node = unparen(item);
    if (node.type !== 'call') return undefined;
    const args = callArgs(node);
    const external = ctx.external(module, args.callee);
    const decls = args.positional[0] ? unparen(args.positional[0]) : args.keywords.get('param_decls');
    if (external === undefined || !decls || !['list', 'tuple'].includes(unparen(decls).type)) return undefined;
    const spelled = { ...args, positional: namedChildren(unparen(decls)) };
    if (OPTION_OBJECT.has(external)) return readOption(ctx, module, spelled);
    if (ARGUMENT_OBJECT.has(external)) return readArgument(ctx, module, spelled);
    return undefined;
  };
  const addParams = (command: ClickCommand, module: FlagModule, list: Node): void => {
    const node = unparen(list);
    const items = ['list', 'tuple'].includes(node.type) ? namedChildren(node) : undefined;
    if (!items) {
      command.unreadFlags ??= unreadAt(module, list);
      command.passesUnknownFlags = true;
      return;
    }
    for (const item of items) {
      const spec = parameter(module, item);
      if (spec) command.params.push(spec);
      else {
        command.unreadFlags ??= unreadAt(module, item);
        command.passesUnknownFlags = true;
      }
    }
  };
  for (const module of ctx.modules.values()) {
    for (const [name, right] of module.assigns) {
      const call = unparen(right);
      const key = `${module.info.module}:${name}`;
      if (call.type !== 'call' || commands.has(key)) continue;
      const args = callArgs(call);
      const external = ctx.external(module, args.callee);
      const isGroup = external !== undefined && GROUP_OBJECT.has(external);
      if (external === undefined || (!isGroup && !COMMAND_OBJECT.has(external))) continue;
      const nameNode = args.positional[0] ?? args.keywords.get('name');
      const command: ClickCommand = {
        symbol: { module, name },
        name: (nameNode ? stringValue(nameNode) : undefined) ?? clickCommandName(name),
        isGroup,
        params: [],
        location: locate(module, call),
        children: [],
        attached: false,
      };
      const params = args.keywords.get('params');
      if (params) addParams(command, module, params);
      if (args.hasSplat) {
        command.unreadFlags ??= unreadAt(module, call);
        command.passesUnknownFlags = true;
      }
      if (passesUnknown(args.keywords.get('context_settings'), module)) command.passesUnknownFlags = true;
      const children = isGroup ? args.keywords.get('commands') : undefined;
      if (children) {
        const node = unparen(children);
        if (node.type === 'dictionary') {
          command.objectChildren = namedChildren(node).filter((p) => p.type === 'pair').map((p) => {
            const label = stringValue(p.childForFieldName('key') ?? p);
            return { ...(label !== undefined ? { name: label } : {}), node: p.childForFieldName('value') ?? p, module };
          });
        } else if (node.type === 'list' || node.type === 'tuple') {
          command.objectChildren = namedChildren(node).map((item) => ({ node: item, module }));
        } else command.dynamic = true;
      }
      commands.set(key, command);
    }
  }
  // `cmd.params.append(click.Option([...]))` on a command read here (module level or in a function).
  for (const module of ctx.modules.values()) {
    for (const call of moduleCalls(module.root)) {
      const args = callArgs(call);
      const callee = args.callee;
      if (!callee || callee.length < 3 || callee.at(-2) !== 'params' || !['append', 'extend', 'insert'].includes(callee.at(-1)!)) continue;
      const fnName = enclosingFunction(call, module.root);
      const local = fnName !== undefined ? module.info.functions.get(fnName)?.localBindings : undefined;
      const symbol = ctx.symbol(module, callee.slice(0, -2), local);
      const command = symbol ? commands.get(symbolKey(symbol)) : undefined;
      if (!command) continue;
      const method = callee.at(-1)!;
      const value = method === 'insert' ? args.positional[1] : args.positional[0];
      if (!value) continue;
      if (method === 'extend') addParams(command, module, value);
      else {
        const spec = parameter(module, value);
        if (spec) command.params.push(spec);
        else {
          command.unreadFlags ??= unreadAt(module, call);
          command.passesUnknownFlags = true;
        }
      }
    }
  }
}

const GROUP_CLASSES = qualified('Group', 'MultiCommand', 'CommandCollection');
for (const lib of LIBRARIES) for (const n of ['Group', 'MultiCommand', 'CommandCollection']) GROUP_CLASSES.add(`${lib}.core.${n}`);

/** True when a module-level name holds a click group object: `click.Group(…)`, `click.CommandCollection(…)` or an instance of a repository group class. */
function isGroupObject(ctx: FlagContext, symbol: Symbol): boolean {
  const right = symbol.module.assigns.get(symbol.name);
  const call = right ? unparen(right) : undefined;
  if (call?.type !== 'call') return false;
  const dotted = dottedName(call.childForFieldName('function') ?? call);
  const external = ctx.external(symbol.module, dotted);
  if (external !== undefined) return GROUP_OBJECT.has(external) || COLLECTION.has(external);
  return isGroupClass(ctx, symbol.module, dotted, 0);
}

/** True when a dotted name is a repository class derived (within a few levels) from click's `Group`/`MultiCommand`. */
function isGroupClass(ctx: FlagContext, module: FlagModule, dotted: string[] | undefined, depth: number): boolean {
  if (!dotted || depth > 4) return false;
  const resolved = ctx.resolver.resolve(module.info, dotted);
  if (resolved?.kind !== 'class') return false;
  const home = ctx.modules.get(resolved.cls.module);
  if (!home) return false;
  return resolved.cls.bases.some((b) => GROUP_CLASSES.has(ctx.external(home, b.dotted) ?? '') || isGroupClass(ctx, home, b.dotted, depth + 1));
}

/** The names of a `def`'s parameters. */
function parameterNames(def: Node): string[] {
  const parameters = def.childForFieldName('parameters');
  return (parameters ? namedChildren(parameters) : [])
    .map((p) => (p.type === 'identifier' ? pythonIdentifier(p.text) : identifierText(p.childForFieldName('name')) ?? namedChildren(p).find((c) => c.type === 'identifier')?.text))
    .filter((p): p is string => p !== undefined);
}

/** A top-level `class name:` definition of a module. */
function classNode(module: FlagModule, name: string): Node | undefined {
  for (const child of namedChildren(module.root)) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type === 'class_definition' && identifierText(def.childForFieldName('name')) === name) return def;
  }
  return undefined;
}

/** The literal sub-command name a group class's `resolve_command`/`parse_args` puts in front of the arguments. */
function insertedName(classDef: Node): string | undefined {
  const body = classDef.childForFieldName('body');
  for (const child of body ? namedChildren(body) : []) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    const method = def?.type === 'function_definition' ? identifierText(def.childForFieldName('name')) : undefined;
    if (!def || (method !== 'resolve_command' && method !== 'parse_args')) continue;
    for (const call of def.descendantsOfType('call')) {
      if (!call) continue;
      const args = callArgs(call);
      if (args.callee?.at(-1) === 'insert' && args.positional.length === 2 && args.positional[0]!.text === '0') {
        const name = stringValue(args.positional[1]!);
        if (name !== undefined) return name;
      }
    }
    for (const list of def.descendantsOfType('list')) {
      const items = list ? namedChildren(list) : [];
      const first = items[0] ? stringValue(items[0]) : undefined;
      if (first === undefined || !list) continue;
      const parent = list.parent;
      const joined = parent?.type === 'binary_operator' && parent.childForFieldName('left')?.id === list.id && parent.text.includes('+');
      if (joined || items.slice(1).some((i) => i.type === 'list_splat')) return first;
    }
  }
  return undefined;
}

/**
 * Commands registered by a function that receives the group (`def register(cli): @cli.command()
 * def run(): …` or `cli.add_command(run)` in its body), attached to each group the function is
 * called with: `register(main)`, `register(group=main)`, or pluggy's `pm.hook.register(cli=cli)`
 * for a decorated (hook implementation) function of that name. Groups defined inside the function
 * (`@cli.group() def sub(): …` then `@sub.command()`) nest as usual.
 */
function attachRegistered(
  ctx: FlagContext,
  commands: Map<string, ClickCommand>,
  attach: (group: ClickCommand | undefined, command: ClickCommand, name: string) => void,
): void {
  interface Registration { fn: string; module: FlagModule; hook: boolean; params: string[]; pending: Array<{ param: string; command: ClickCommand; name: string }> }
  const registrations: Registration[] = [];
  for (const module of ctx.modules.values()) {
    for (const [fname, { def, decorators }] of module.functions) {
      const parameters = def.childForFieldName('parameters');
      const params = (parameters ? namedChildren(parameters) : [])
        .map((p) => (p.type === 'identifier' ? pythonIdentifier(p.text) : identifierText(p.childForFieldName('name')) ?? namedChildren(p).find((c) => c.type === 'identifier')?.text))
        .filter((p): p is string => p !== undefined);
      const body = def.childForFieldName('body');
      if (params.length === 0 || !body) continue;
      const nestedDefs = nodesWithin(moduleNodes(module.root).decorated, body);
      const locals = new Set(params);
      const named = new Map<string, ClickCommand & { localParent?: string }>();
      for (const d of nestedDefs) {
        const inner = d.childForFieldName('definition');
        const name = inner?.type === 'function_definition' ? identifierText(inner.childForFieldName('name')) : undefined;
        if (inner && name !== undefined) locals.add(name);
      }
      for (const d of nestedDefs) {
        const inner = d.childForFieldName('definition');
        const name = inner?.type === 'function_definition' ? identifierText(inner.childForFieldName('name')) : undefined;
        if (!inner || name === undefined) continue;
        const command = readCommand(ctx, module, name, inner, namedChildren(d).filter((c) => c.type === 'decorator'), locals, module.info.functions.get(fname)?.localBindings);
        if (!command) continue;
        command.symbol = { module, name: `${fname}.<locals>.${name}` };
        command.nested = true;
        named.set(name, command);
        commands.set(symbolKey(command.symbol), command);
        if (command.parentRef) attach(commands.get(symbolKey(command.parentRef)), command, command.name);
      }
      const pending: Registration['pending'] = [];
      for (const command of named.values()) {
        if (command.localParent === undefined) continue;
        const parent = named.get(command.localParent);
        if (parent) attach(parent, command, command.name);
        else if (params.includes(command.localParent)) pending.push({ param: command.localParent, command, name: command.name });
      }
      // `group.add_command(cmd[, name])` in the body, `group` a parameter.
      for (const call of nodesWithin(moduleCalls(module.root), body)) {
        const args = callArgs(call);
        if (args.callee?.length !== 2 || args.callee[1] !== 'add_command' || !params.includes(args.callee[0]!)) continue;
        const first = args.positional[0];
        const ref = first ? dottedName(unparen(first)) : undefined;
        const local = ref?.length === 1 ? named.get(ref[0]!) : undefined;
        const symbol = local ? undefined : ctx.symbol(module, ref, module.info.functions.get(fname)?.localBindings);
        const command = local ?? (symbol ? commands.get(symbolKey(symbol)) : undefined);
        if (!command) continue;
        const nameNode = args.positional[1] ?? args.keywords.get('name');
        pending.push({ param: args.callee[0]!, command, name: (nameNode ? stringValue(nameNode) : undefined) ?? command.name });
      }
      if (pending.length > 0) registrations.push({ fn: fname, module, hook: decorators.length > 0, params, pending });
    }
  }
  if (registrations.length === 0) return;
  for (const module of ctx.modules.values()) {
    for (const call of moduleCalls(module.root)) {
      const args = callArgs(call);
      const callee = args.callee;
      if (!callee) continue;
      const target = ctx.symbol(module, callee);
      for (const reg of registrations) {
        const direct = target !== undefined && target.module === reg.module && target.name === reg.fn;
        const hook = reg.hook && callee.length >= 3 && callee.at(-2) === 'hook' && callee.at(-1) === reg.fn;
        if (!direct && !hook) continue;
        for (const { param, command, name } of reg.pending) {
          const index = reg.params.indexOf(param);
          const arg = args.keywords.get(param) ?? (direct ? args.positional[index] : undefined);
          const group = arg ? ctx.symbol(module, dottedName(unparen(arg))) : undefined;
          attach(group ? commands.get(symbolKey(group)) : undefined, command, name);
        }
      }
    }
  }
}

/** `type=click.Choice([...])`: the allowed values. */
function choicesOf(ctx: FlagContext, module: FlagModule, typeNode: Node | undefined): string[] | undefined {
  const call = typeNode ? unparen(typeNode) : undefined;
  if (!call || call.type !== 'call') return undefined;
  const args = callArgs(call);
  const external = ctx.external(module, args.callee);
  if (external === undefined || !CHOICE.has(external)) return undefined;
  return readChoices(args.positional[0] ?? args.keywords.get('choices'));
}

function readOption(ctx: FlagContext, module: FlagModule, args: CallArgs): ParamSpec | undefined {
  const decls = spellings(args.positional);
  if (!decls) return undefined;
  const parsed = parseClickDecls(decls);
  const names = clickOptionNames(parsed);
  if (!names) return undefined;
  const kw = (key: string): Node | undefined => args.keywords.get(key);
  const isFlagNode = kw('is_flag');
  const isFlag = isTrue(isFlagNode) || parsed.secondary.length > 0 || (kw('flag_value') !== undefined && isFlagNode === undefined);
  const count = isTrue(kw('count'));
  const typeNode = kw('type');
  const type = typeNode?.text ?? (isFlag ? 'bool' : count ? 'int' : undefined);
  const defaultNode = kw('default');
  const defaultValue = defaultNode ? toDefault(readValue(defaultNode)) : isFlag && kw('flag_value') === undefined ? literalDefault('False') : undefined;
  const help = kw('help');
  const description = help ? stringValue(help) : undefined;
  const choices = choicesOf(ctx, module, typeNode);
  return flagSpec({
    name: names.name,
    aliases: names.aliases,
    ...(type !== undefined ? { type } : {}),
    ...(defaultValue ? { default: defaultValue } : {}),
    required: isTrue(kw('required')),
    ...(description !== undefined ? { description } : {}),
    deprecated: boolOrString(kw('deprecated')) ?? false,
    hidden: isTrue(kw('hidden')),
    location: locate(module, names.location),
    dest: names.dest,
    ...(choices ? { choices } : {}),
    negatable: names.negatable,
    ...(names.optionStrings ? { optionStrings: names.optionStrings } : {}),
    counted: count,
    envVars: envVarNames(kw('envvar'), module),
  });
}

function readArgument(ctx: FlagContext, module: FlagModule, args: CallArgs): ParamSpec | undefined {
  const decls = spellings(args.positional);
  const decl = decls?.[0];
  if (!decl) return undefined;
  const kw = (key: string): Node | undefined => args.keywords.get(key);
  const typeNode = kw('type');
  const defaultNode = kw('default');
  const requiredNode = kw('required');
  const nargs = kw('nargs');
  // `nargs=-1` takes every remaining word.
  const variadic = nargs !== undefined && unparen(nargs).text === '-1';
  const required = requiredNode ? isTrue(requiredNode) : defaultNode === undefined && !variadic;
  const help = kw('help');
  const description = help ? stringValue(help) : undefined;
  const choices = choicesOf(ctx, module, typeNode);
  return flagSpec({
    name: decl.text,
    aliases: [],
    ...(typeNode ? { type: typeNode.text } : {}),
    ...(defaultNode ? { default: toDefault(readValue(defaultNode)) } : {}),
    required,
    ...(description !== undefined ? { description } : {}),
    deprecated: boolOrString(kw('deprecated')) ?? false,
    hidden: isTrue(kw('hidden')),
    location: locate(module, decl.node),
    dest: decl.text.replaceAll('-', '_').toLowerCase(),
    ...(choices ? { choices } : {}),
    positional: true,
    ...(variadic ? { variadic: true } : {}),
    envVars: envVarNames(kw('envvar'), module),
  });
}
