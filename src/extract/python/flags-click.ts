/** click flags: `@click.command()`/`@click.group()` functions, their `@click.option`/`@click.argument` decorators, and sub-commands attached with `@group.command()` or `group.add_command(…)`. */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec, SourceLocation } from '../../model/types.js';
import {
  boolOrString, callArgs, clickOptionNames, flagSpec, isTrue, literalDefault, locate, parseClickDecls, readChoices, spellings,
  stripPrefix, symbolKey, toDefault, type CallArgs, type FlagContext, type FlagModule, type Symbol,
} from './flags-common.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import type { FlagCommand } from './types.js';
import { dottedName, namedChildren, readValue, stringValue, unparen } from './values.js';

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
 * module-level variables (`verbose = click.option(...)`, then `@verbose`) are read too.
 *
 * Not read: commands built with `click.Command(...)` objects, `click.CommandCollection`, lazy
 * groups, `add_command` inside functions, options whose declarations are not string literals,
 * `help_option`, class-based commands. `version_option` adds click's version flag, hidden (see
 * `BUILT_IN_FLAGS.click`).
 */
export function extractClick(ctx: FlagContext): FlagCommand[] {
  const commands = new Map<string, ClickCommand>();
  for (const module of ctx.modules.values()) {
    for (const [name, { def, decorators }] of module.functions) {
      const command = readCommand(ctx, module, name, def, decorators);
      if (command) commands.set(symbolKey(command.symbol), command);
    }
  }
  const attach = (group: ClickCommand | undefined, command: ClickCommand, name: string): void => {
    if (!group || !group.isGroup || group === command) return;
    group.children.push({ command, name });
    command.attached = true;
  };
  for (const command of commands.values()) {
    if (command.parentRef) attach(commands.get(symbolKey(command.parentRef)), command, command.name);
  }
  for (const module of ctx.modules.values()) {
    for (const statement of module.statements) {
      for (const expr of statement.type === 'expression_statement' ? namedChildren(statement) : []) {
        const call = unparen(expr);
        if (call.type !== 'call') continue;
        const args = callArgs(call);
        if (args.callee?.at(-1) !== 'add_command' || args.callee.length < 2) continue;
        const group = ctx.symbol(module, args.callee.slice(0, -1));
        const first = args.positional[0];
        const child = first ? ctx.symbol(module, dottedName(first)) : undefined;
        const command = child ? commands.get(symbolKey(child)) : undefined;
        if (!group || !command) continue;
        const nameNode = args.positional[1] ?? args.keywords.get('name');
        const name = (nameNode ? stringValue(nameNode) : undefined) ?? command.name;
        attach(commands.get(symbolKey(group)), command, name);
      }
    }
  }
  const out: FlagCommand[] = [];
  for (const root of commands.values()) {
    if (root.attached) continue;
    const targets = [symbolKey(root.symbol), ...ctx.callers(root.symbol)];
    const emit = (command: ClickCommand, path: string[], seen: Set<ClickCommand>): void => {
      if (seen.has(command)) return;
      const owner = [root.name, ...path].join(' ');
      const params = command.params.map((spec) => ({ ...spec, owner }));
      const defaults = command.defaultCommand !== undefined && command.children.some((c) => c.name === command.defaultCommand)
        ? { defaultSubcommand: command.defaultCommand } : {};
      for (const target of targets) out.push({ path, target, params, location: command.location, ...defaults });
      for (const child of command.children) emit(child.command, [...path, child.name], new Set([...seen, command]));
    };
    emit(root, [], new Set());
  }
  return out;
}

function readCommand(ctx: FlagContext, module: FlagModule, name: string, def: Node, decorators: Node[]): ClickCommand | undefined {
  let command: ClickCommand | undefined;
  const params: ParamSpec[] = [];
  for (const decorator of decorators) {
    const expr = unparen(namedChildren(decorator)[0] ?? decorator);
    const args = expr.type === 'call' ? callArgs(expr) : undefined;
    const callee = args ? args.callee : dottedName(expr);
    if (!callee) continue;
    const external = ctx.external(module, callee);
    if (!command && external !== undefined && (COMMAND.has(external) || GROUP.has(external))) {
      command = newCommand(ctx, module, name, decorator, args, GROUP.has(external));
      continue;
    }
    const last = callee.at(-1);
    if (!command && external === undefined && (last === 'command' || last === 'group') && callee.length > 1) {
      const parent = ctx.symbol(module, callee.slice(0, -1));
      // A typer app's `@app.command()` is typer's; only functions can be click groups.
      if (parent && parent.module.functions.has(parent.name)) {
        command = newCommand(ctx, module, name, decorator, args, last === 'group');
        command.parentRef = parent;
        continue;
      }
    }
    if (args && external !== undefined && VERSION_OPTION.has(external)) {
      params.push(...versionFlags(module, args, decorator));
      continue;
    }
    const param = readParam(ctx, module, expr, args, external);
    if (param) params.push(param);
    else if (!args && external === undefined) params.push(...factoryParams(ctx, module, expr));
  }
  if (command) command.params = params;
  return command;
}

function newCommand(ctx: FlagContext, module: FlagModule, name: string, decorator: Node, args: CallArgs | undefined, isGroup: boolean): ClickCommand {
  const nameNode = args?.positional[0] ?? args?.keywords.get('name');
  const explicit = nameNode ? stringValue(nameNode) : undefined;
  const clsNode = args?.keywords.get('cls');
  const cls = clsNode ? ctx.external(module, dottedName(clsNode)) : undefined;
  const defaultNode = args?.keywords.get('default');
  const defaultCommand = isGroup && cls !== undefined && DEFAULT_GROUP.has(cls) && defaultNode ? stringValue(defaultNode) : undefined;
  return {
    ...(defaultCommand !== undefined ? { defaultCommand } : {}),
    symbol: { module, name },
    name: explicit ?? clickCommandName(name),
    isGroup,
    params: [],
    location: locate(module, decorator),
    children: [],
    attached: false,
  };
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
function readParam(ctx: FlagContext, module: FlagModule, expr: Node, args: CallArgs | undefined, external: string | undefined): ParamSpec | undefined {
  if (args && external !== undefined) {
    if (OPTION.has(external)) return readOption(ctx, module, args);
    if (ARGUMENT.has(external)) return readArgument(ctx, module, args);
    return undefined;
  }
  if (args || (expr.type !== 'identifier' && expr.type !== 'attribute')) return undefined;
  // `@verbose` where `verbose = click.option(...)` at module level (here or imported).
  const symbol = ctx.symbol(module, dottedName(expr));
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

/**
 * A decorator factory (`@shared_options` where `def shared_options(fn): fn = click.option(…)(fn);
 * return fn`, or a tuple of `click.option(…)` applied in a loop): the options and arguments
 * its body declares, read from the `click.option`/`click.argument` calls in it (one level, not
 * run). Nothing for other decorators.
 */
function factoryParams(ctx: FlagContext, module: FlagModule, expr: Node): ParamSpec[] {
  if (expr.type !== 'identifier' && expr.type !== 'attribute') return [];
  const symbol = ctx.symbol(module, dottedName(expr));
  const entry = symbol ? symbol.module.functions.get(symbol.name) : undefined;
  const body = entry?.def.childForFieldName('body');
  if (!symbol || !entry || !body) return [];
  const local = symbol.module.info.functions.get(symbol.name)?.localBindings;
  const out: ParamSpec[] = [];
  for (const call of body.descendantsOfType('call')) {
    if (!call) continue;
    const inner = callArgs(call);
    const external = ctx.external(symbol.module, inner.callee, local);
    if (external === undefined) continue;
    const spec = OPTION.has(external) ? readOption(ctx, symbol.module, inner) : ARGUMENT.has(external) ? readArgument(ctx, symbol.module, inner) : undefined;
    if (spec) out.push(spec);
  }
  return out;
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
  const required = requiredNode
    ? isTrue(requiredNode)
    : defaultNode === undefined && !(nargs !== undefined && unparen(nargs).text === '-1');
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
  });
}
