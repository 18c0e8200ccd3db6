/** cyclopts flags: `cyclopts.App()` apps, their `@app.command`/`@app.default` functions, sub-apps registered with `app.command(App(name=…))`, lazy `"module:function"` commands and `cyclopts.run(f)`, with parameters read from function signatures. */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import {
  boolOrString, callArgs, MAX_COMMANDS_PER_PROGRAM, MAX_SUBCOMMAND_DEPTH, envVarNames, flagSpec, isSequenceAnnotation, isTrue, locate, stripPrefix, symbolKey, toDefault,
  type CallArgs, type FlagContext, type FlagModule, type Symbol,
} from './flags-common.js';
import { annotationHead, literalChoices, typeArguments } from './flags-typer.js';
import type { FlagCommand } from './types.js';
import { annotationCore } from './index.js';
import { dottedName, identifierText, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen } from './values.js';
import { trimTrailing, trimLeading } from '../../shared/strings.js';

const APP = new Set(['cyclopts.App', 'cyclopts.core.App']);
const PARAMETER = new Set(['cyclopts.Parameter', 'cyclopts.parameter.Parameter']);
const RUN = new Set(['cyclopts.run', 'cyclopts.core.run']);
/** Annotations cyclopts gives an `--empty-<name>` negative flag (its `negative_iterable`, default `empty-`). */
const ITERABLE = /^(?:typing\.)?(?:list|List|set|Set|frozenset|FrozenSet|tuple|Tuple|Sequence|MutableSequence|Iterable|collections\.abc\.\w+)\b/;

/** A `cyclopts.App(...)`: bound to a module-level variable, or written inline in `app.command(App(name=…))`. */
interface CycloptsApp {
  symbol?: Symbol;
  /** `App(name=…)` (the first name when several are given). */
  name?: string;
  /** The other names of `App(name=[…])`. */
  aliases: string[];
  location: SourceLocation;
  /** `@app.default`: the function whose parameters are the app's own. */
  defaultFn?: { fn: Symbol; location: SourceLocation };
  commands: Array<{ fn: Symbol; name: string; aliases: string[]; location: SourceLocation }>;
  subApps: Array<{ app: CycloptsApp; name?: string; aliases: string[] }>;
  added: boolean;
  /** `App(help_flags=…)`/`App(version_flags=…)` spellings without dashes, when given as literals. */
  helpFlags?: string[];
  versionFlags?: string[];
  /** `App(default_parameter=Parameter(negative=()))`: no generated `--no-x` flags. */
  noNegatives: boolean;
}

/** ASCII capital / small letter (the classes `[A-Z]` and `[a-z]`). */
const isUpperAscii = (c: string): boolean => c.length === 1 && c >= 'A' && c <= 'Z';
const isLowerAscii = (c: string): boolean => c.length === 1 && c >= 'a' && c <= 'z';

/**
 * cyclopts' `default_name_transform`: PascalCase → snake_case, lower-cased, `_` → `-`, leading and
 * trailing `-` stripped (`cyclopts/utils.py`). Used for command and parameter names.
 */
export function cycloptsName(identifier: string): string {
  // `([A-Z]+)([A-Z][a-z])` → `$1_$2`, by index: an `_` before each capital that ends a run of
  // capitals and starts a word (the pattern rescanned a run of capitals from each position: a
  // 150,000-capital function name took 26 s, s26c sweep D6).
  let split = '';
  for (let i = 0; i < identifier.length; i++) {
    const c = identifier.charAt(i);
    if (i > 0 && isUpperAscii(identifier.charAt(i - 1)) && isUpperAscii(c) && isLowerAscii(identifier.charAt(i + 1))) split += '_';
    split += c;
  }
  const snake = split
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/([0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
  return trimLeading(trimTrailing(snake.replaceAll('_', '-'), '-'), '-');
}

/**
 * Reads cyclopts apps. Program target: `module:app` (the app variable), plus every top-level
 * function calling it (`def main(): app()`). An app's `@app.default` function gives the app's own
 * parameters (path `[]` for the root); each `@app.command` / `@app.command(name=…)` /
 * `app.command(func[, name=…])` function is a sub-command named by `name=` (a list: the first is
 * the name, the others aliases) or by the function name through cyclopts' name transform
 * (`add_user` → `add-user`); `app.command(sub)` / `app.command(App(name="x"))` adds a sub-app,
 * whose own commands are registered with `@sub.command` or `@app["x"].command`; a lazy
 * `app.command("pkg.mod:func", name=…)` is read from the named function when it is in the sources.
 * `cyclopts.run(f)` is a single-command program, as typer's `typer.run`.
 *
 * Parameters: `Annotated[T, Parameter(...)]` gives `name=` (replacing the derived spelling;
 * a name without dashes gets `--`), `alias=`, `negative=`, `help=`, `show=False` (hidden),
 * `parse=False` (not a flag); without it a parameter is `--<transformed name>`. cyclopts accepts a
 * positional-or-keyword parameter both ways; it is read as a positional argument when the function
 * has keyword-only parameters after a `*`/`*args` (which then are the flags), else when it has no
 * default (as typer reads it), unless `Parameter(name="--x")` spells it as an option.
 * Positional-only ones and `*args` are positional arguments. Booleans get `--no-<name>` (negatable) unless `negative=""`;
 * iterables accept `--empty-<name>`. Each command also gets cyclopts' built-in `--help`/`-h` and
 * `--version` (hidden; see `BUILT_IN_FLAGS.cyclopts`), respelled by `App(help_flags=…, version_flags=…)`.
 *
 * Not read: parameters typed by a dataclass/pydantic model/attrs class, i.e. a repository class with
 * annotated fields (cyclopts flattens them into `--field.sub` flags; such a parameter is left out;
 * an Enum-typed parameter is an ordinary flag), `@Parameter` on classes, `app.meta`,
 * `App` subclasses, `name_transform=`, docstring help, commands registered inside functions.
 */
export function extractCyclopts(ctx: FlagContext): FlagCommand[] {
  const apps = new Map<string, CycloptsApp>();
  const newApp = (module: FlagModule, call: Node, symbol?: Symbol): CycloptsApp | undefined => {
    const args = callArgs(call);
    const external = ctx.external(module, args.callee);
    if (external === undefined || !APP.has(external)) return undefined;
    const names = stringList(args.keywords.get('name') ?? args.positional[0]);
    const defaultParameter = args.keywords.get('default_parameter');
    const help = spellingList(args.keywords.get('help_flags'));
    const version = spellingList(args.keywords.get('version_flags'));
    return {
      ...(symbol ? { symbol } : {}),
      ...(names?.[0] !== undefined ? { name: names[0] } : {}),
      aliases: names?.slice(1) ?? [],
      location: locate(module, call),
      commands: [],
      subApps: [],
      added: false,
      ...(help ? { helpFlags: help } : {}),
      ...(version ? { versionFlags: version } : {}),
      noNegatives: defaultParameter ? negativesOff(ctx, module, defaultParameter) : false,
    };
  };
  for (const module of ctx.modules.values()) {
    for (const [name, right] of module.assigns) {
      const call = unparen(right);
      if (call.type !== 'call') continue;
      const app = newApp(module, call, { module, name });
      if (app) apps.set(`${module.info.module}:${name}`, app);
    }
  }
  /** The app an expression designates: `app`, `pkg.cli.app`, or `app["sub"]` (a registered sub-app). */
  const appOf = (module: FlagModule, node: Node | undefined): CycloptsApp | undefined => {
    if (!node) return undefined;
    const n = unparen(node);
    if (n.type === 'subscript') {
      const parent = appOf(module, n.childForFieldName('value') ?? undefined);
      const key = n.childForFieldName('subscript');
      const word = key ? stringValue(key) : undefined;
      return parent?.subApps.find((s) => (s.name ?? s.app.name) === word || s.aliases.includes(word ?? ''))?.app;
    }
    const symbol = ctx.symbol(module, dottedName(n));
    return symbol ? apps.get(symbolKey(symbol)) : undefined;
  };
  /** `app.command(...)` / `app.default(...)` with its method, from a call's or a decorator's function expression. */
  const registration = (module: FlagModule, fnExpr: Node | null): { app: CycloptsApp; method: 'command' | 'default' } | undefined => {
    if (!fnExpr || fnExpr.type !== 'attribute') return undefined;
    const method = identifierText(fnExpr.childForFieldName('attribute'));
    if (method !== 'command' && method !== 'default') return undefined;
    const app = appOf(module, fnExpr.childForFieldName('object') ?? undefined);
    return app ? { app, method } : undefined;
  };
  const register = (module: FlagModule, app: CycloptsApp, method: 'command' | 'default', target: Node | undefined, options: CallArgs | undefined, at: Node): void => {
    const location = locate(module, at);
    const names = commandNames(options);
    if (target) {
      const lazy = stringValue(target);
      if (lazy !== undefined) {
        // `app.command("pkg.mod:func", name="x")`: cyclopts imports it when run; read it if it is ours.
        const [mod, attr] = lazy.split(':');
        const targetModule = mod ? ctx.modules.get(mod) : undefined;
        const fn = targetModule && attr ? ctx.symbol(targetModule, attr.split('.')) : undefined;
        const sub = fn ? apps.get(symbolKey(fn)) : undefined;
        if (sub) addSub(app, sub, names);
        else if (fn && fn.module.functions.has(fn.name)) addFunction(app, method, fn, names, location);
        return;
      }
      const inner = unparen(target);
      const inline = inner.type === 'call' ? newApp(module, inner) : undefined;
      const sub = inline ?? appOf(module, target);
      if (sub) {
        addSub(app, sub, names);
        return;
      }
      const fn = ctx.symbol(module, dottedName(target));
      if (fn && fn.module.functions.has(fn.name)) addFunction(app, method, fn, names, location);
    }
  };
  const addSub = (app: CycloptsApp, sub: CycloptsApp, names: string[] | undefined): void => {
    if (sub === app) return;
    const aliases = names ? names.slice(1) : sub.aliases;
    app.subApps.push({ app: sub, ...(names?.[0] !== undefined ? { name: names[0] } : {}), aliases });
    sub.added = true;
  };
  const addFunction = (app: CycloptsApp, method: 'command' | 'default', fn: Symbol, names: string[] | undefined, location: SourceLocation): void => {
    if (method === 'default') app.defaultFn = { fn, location };
    else app.commands.push({ fn, name: names?.[0] ?? cycloptsName(fn.name), aliases: names?.slice(1) ?? [], location });
  };

  const runs: FlagCommand[] = [];
  // Module-level calls first (they may register the sub-apps that `@app["x"].command` decorators name).
  for (const module of ctx.modules.values()) {
    for (const statement of module.statements) {
      for (const expr of statement.type === 'expression_statement' ? namedChildren(statement) : []) {
        const call = unparen(expr);
        if (call.type !== 'call') continue;
        const args = callArgs(call);
        const inner = call.childForFieldName('function');
        if (inner?.type === 'call') {
          // `app.command(name="x")(func)`: the decorator applied by hand.
          const reg = registration(module, inner.childForFieldName('function'));
          if (reg) register(module, reg.app, reg.method, args.positional[0], callArgs(inner), call);
          continue;
        }
        const reg = registration(module, inner);
        if (reg) {
          register(module, reg.app, reg.method, args.positional[0], args, call);
          continue;
        }
        if (RUN.has(ctx.external(module, args.callee) ?? '')) {
          const first = args.positional[0];
          const fn = first ? ctx.symbol(module, dottedName(first)) : undefined;
          const run = fn ? runOf(ctx, fn, symbolKey(fn)) : undefined;
          if (run) runs.push(run);
        }
      }
    }
  }
  for (const module of ctx.modules.values()) {
    for (const [name, { decorators }] of module.functions) {
      for (const decorator of decorators) {
        const expr = unparen(namedChildren(decorator)[0] ?? decorator);
        const fn = { module, name };
        if (expr.type === 'call') {
          const reg = registration(module, expr.childForFieldName('function'));
          const args = callArgs(expr);
          if (reg) addFunction(reg.app, reg.method, fn, commandNames(args), locate(module, decorator));
        } else {
          const reg = registration(module, expr);
          if (reg) addFunction(reg.app, reg.method, fn, undefined, locate(module, decorator));
        }
      }
    }
    // `def main(): cyclopts.run(app_main)`: the console script names the caller.
    for (const [name, fn] of module.info.functions) {
      for (const call of fn.calls) {
        const external = ctx.external(module, call.callee, fn.localBindings);
        if (external === undefined || !RUN.has(external) || call.source === undefined) continue;
        const target = ctx.symbol(module, call.source.split('.'), fn.localBindings);
        const run = target ? runOf(ctx, target, `${module.info.module}:${name}`) : undefined;
        if (run) runs.push(run);
      }
    }
  }

  const out: FlagCommand[] = [...runs];
  for (const root of apps.values()) {
    if (root.added || !root.symbol) continue;
    const targets = [symbolKey(root.symbol), ...ctx.callers(root.symbol)];
    const label = root.name ?? root.symbol.name;
    const push = (path: string[], aliases: string[], params: ParamSpec[], location: SourceLocation, cut = false): void => {
      const owner = [label, ...path].join(' ');
      const owned = params.map((spec) => ({ ...spec, owner }));
      const dynamic = cut ? { dynamicSubcommands: true, dynamicSubcommandsBy: `cyclopts sub-apps nested more than ${MAX_SUBCOMMAND_DEPTH} deep or more than ${MAX_COMMANDS_PER_PROGRAM.toLocaleString('en-US')} commands` } : {};
      for (const target of targets) out.push({ path, target, params: owned, location, ...(aliases.length > 0 ? { aliases } : {}), ...dynamic });
    };
    // Depth first, with an explicit stack, to MAX_SUBCOMMAND_DEPTH levels and MAX_COMMANDS_PER_PROGRAM
    // commands, as click and typer trees are: a chain of 3,500 sub-apps overflowed the stack
    // of the recursive walk, and 2,000 took 2.2 s copying the apps above each (s26 sweep D5).
    // `ancestors` is the chain of apps above one (a sub-app cycle is not followed).
    interface Visit {
      app: CycloptsApp;
      path: string[];
      aliases: string[];
      ancestors: Ancestors | undefined;
    }
    interface Ancestors {
      app: CycloptsApp;
      up: Ancestors | undefined;
    }
    const inChain = (app: CycloptsApp, chain: Ancestors | undefined): boolean => {
      for (let a = chain; a; a = a.up) if (a.app === app) return true;
      return false;
    };
    let listed = 0;
    const stack: Visit[] = [{ app: root, path: [], aliases: [], ancestors: undefined }];
    while (stack.length > 0) {
      const { app, path, aliases, ancestors } = stack.pop()!;
      if (inChain(app, ancestors)) continue;
      const subs = app.subApps.flatMap((sub) => {
        const name = sub.name ?? sub.app.name;
        return name === undefined ? [] : [{ sub, name }];
      });
      const cut = (subs.length > 0 && path.length >= MAX_SUBCOMMAND_DEPTH) || listed + 1 + app.commands.length + subs.length > MAX_COMMANDS_PER_PROGRAM;
      const own = app.defaultFn ? signature(ctx, app.defaultFn.fn, app.noNegatives) : [];
      push(path, aliases, [...own, ...builtIns(app, app.defaultFn?.location ?? app.location)], app.defaultFn?.location ?? app.location, cut);
      listed++;
      for (const command of app.commands) {
        if (listed >= MAX_COMMANDS_PER_PROGRAM) break;
        push([...path, command.name], command.aliases, [...signature(ctx, command.fn, app.noNegatives), ...builtIns(app, command.location)], command.location);
        listed++;
      }
      if (cut) continue;
      const chain = { app, up: ancestors };
      // Pushed in reverse, so sub-apps are listed in source order, each before the next one's tree.
      for (let i = subs.length - 1; i >= 0; i--) stack.push({ app: subs[i]!.sub.app, path: [...path, subs[i]!.name], aliases: subs[i]!.sub.aliases, ancestors: chain });
    }
  }
  return out;
}

/** cyclopts' `--help`/`-h`/`--version` for a command of `app`, as the app spells them. */
function builtIns(app: CycloptsApp, location: SourceLocation): ParamSpec[] {
  return builtInFlagSpecs('cyclopts', {
    root: true,
    location,
    spellings: {
      ...(app.helpFlags ? { help: app.helpFlags } : {}),
      ...(app.versionFlags ? { version: app.versionFlags } : {}),
    },
  });
}

/** `cyclopts.run(main)`: a program whose only command is the function. */
function runOf(ctx: FlagContext, fn: Symbol, target: string): FlagCommand | undefined {
  const entry = fn.module.functions.get(fn.name);
  if (!entry) return undefined;
  const location = locate(fn.module, entry.def.childForFieldName('name') ?? entry.def);
  const params = [...signature(ctx, fn, false), ...builtInFlagSpecs('cyclopts', { root: true, location })];
  return { path: [], target, params: params.map((spec) => ({ ...spec, owner: fn.name })), location };
}

/**
 * The names `app.command(…, name=…, alias=…)` gives: `name=` then `alias=` (strings or lists).
 * Undefined without `name=`, so the registered object's own name applies; `alias=` alone then adds to it.
 */
function commandNames(options: CallArgs | undefined): string[] | undefined {
  const names = stringList(options?.keywords.get('name'));
  const aliases = stringList(options?.keywords.get('alias')) ?? [];
  return names ? [...names, ...aliases] : undefined;
}

/** A string or a list/tuple of strings (`name="x"`, `name=["x", "y"]`); undefined for anything else. */
function stringList(node: Node | undefined): string[] | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  const single = stringValue(n);
  if (single !== undefined) return [single];
  if (n.type !== 'list' && n.type !== 'tuple') return undefined;
  const out: string[] = [];
  for (const item of namedChildren(n)) {
    const text = stringValue(item);
    if (text === undefined) return undefined;
    out.push(text);
  }
  return out;
}

/** Flag spellings (`help_flags=["--info", "-i"]`) without their dashes; `[]` for an empty list (flag off). */
function spellingList(node: Node | undefined): string[] | undefined {
  return stringList(node)?.map((s) => stripPrefix(s)).filter((s) => s !== '');
}

/** True for `Parameter(negative="")` / `Parameter(negative=())`: no generated negative flags. */
function negativesOff(ctx: FlagContext, module: FlagModule, node: Node): boolean {
  const call = unparen(node);
  if (call.type !== 'call') return false;
  const args = callArgs(call);
  if (!PARAMETER.has(ctx.external(module, args.callee) ?? '')) return false;
  const negative = args.keywords.get('negative');
  const list = negative ? stringList(negative) : undefined;
  return list !== undefined && list.every((s) => s === '');
}

/** The parameters of a command function, as cyclopts turns them into CLI parameters. */
function signature(ctx: FlagContext, fn: Symbol, noNegatives: boolean): ParamSpec[] {
  const module = fn.module;
  const entry = module.functions.get(fn.name);
  const parameters = entry?.def.childForFieldName('parameters');
  const list = parameters ? namedChildren(parameters) : [];
  const slash = list.findIndex((p) => p.type === 'positional_separator');
  // The first `*` or `*args`: parameters after it are keyword-only, so the ones before are meant as positionals.
  const star = list.findIndex((p) => p.type === 'keyword_separator' || p.type === 'list_splat_pattern'
    || (p.type === 'typed_parameter' && namedChildren(p)[0]?.type === 'list_splat_pattern'));
  const out: ParamSpec[] = [];
  list.forEach((param, index) => {
    const { name: nameNode, type: typeNode, value: valueNode, variadic } = parameterParts(param);
    if (!nameNode || nameNode.type !== 'identifier') return; // **kwargs, separators
    const kind = variadic ? 'variadic' : index < slash ? 'positional' : star >= 0 && index < star ? 'either' : star >= 0 ? 'flag' : valueNode ? 'flag' : 'either';
    const spec = readParameter(ctx, module, nameNode, typeNode, valueNode, kind, noNegatives);
    if (spec) out.push(spec);
  });
  return out;
}

function readParameter(
  ctx: FlagContext, module: FlagModule, nameNode: Node, typeNode: Node | undefined, valueNode: Node | undefined,
  kind: 'positional' | 'variadic' | 'either' | 'flag', noNegatives: boolean,
): ParamSpec | undefined {
  const variadic = kind === 'variadic';
  const pyName = pythonIdentifier(nameNode.text);
  let annotation = typeNode ? namedChildren(typeNode)[0] ?? typeNode : undefined;
  let parameter: CallArgs | undefined;
  if (annotation && annotationHead(annotation)?.at(-1) === 'Annotated') {
    const [inner, ...meta] = typeArguments(annotation);
    for (const m of meta) {
      const call = unparen(m);
      if (call.type !== 'call') continue;
      const args = callArgs(call);
      if (PARAMETER.has(ctx.external(module, args.callee) ?? '')) parameter = args;
    }
    if (inner) annotation = inner;
  }
  const kw = (key: string): Node | undefined => parameter?.keywords.get(key);
  const parse = kw('parse');
  if (parse && readValue(parse).bool === false) return undefined; // not a CLI parameter
  const type = annotation?.text;
  const core = type !== undefined ? annotationCore(type) : undefined;
  if (core !== undefined && /^[A-Za-z_][\w.]*$/.test(core)) {
    const resolved = ctx.resolver.resolve(module.info, core.split('.'));
    // A class with annotated fields (dataclass, pydantic, attrs) is flattened into `--name.field`
    // flags, which are not read; an Enum (no annotated fields) is one flag taking a member name.
    const flattened = resolved?.kind === 'class' && resolved.cls.fields.length > 0 && !resolved.cls.bases.some((b) => /Enum$|Flag$/.test(b.text));
    if (flattened) return undefined;
  }
  const defaultValue = valueNode ? readValue(valueNode) : undefined;
  const requiredNode = kw('required');
  const required = requiredNode ? isTrue(requiredNode) : defaultValue === undefined && !variadic;
  const help = kw('help');
  const description = help ? stringValue(help) : undefined;
  const show = kw('show');
  const choices = annotation ? literalChoices(ctx, module, annotation) : undefined;
  const common = {
    ...(type !== undefined ? { type } : {}),
    ...(defaultValue ? { default: toDefault(defaultValue) } : {}),
    required,
    ...(description !== undefined ? { description } : {}),
    deprecated: boolOrString(kw('deprecated')) ?? false,
    hidden: show !== undefined && readValue(show).bool === false,
    dest: pyName,
    ...(choices ? { choices } : {}),
    envVars: envVarNames(kw('env_var'), module),
  };
  const nameArg = parameter ? (kw('name') ?? parameter.positional[0]) : undefined;
  // Positional-or-keyword: cyclopts takes it both ways; it is read as a positional argument
  // unless `Parameter(name="--x")` spells it as an option.
  const dashedName = nameArg ? (stringList(nameArg) ?? []).some((n) => n.startsWith('-')) : false;
  if (kind === 'positional' || kind === 'variadic' || (kind === 'either' && !dashedName)) {
    const takesRest = variadic || isSequenceAnnotation(type);
    return flagSpec({ name: pyName, aliases: [], ...common, location: locate(module, nameNode), positional: true, ...(takesRest ? { variadic: true } : {}) });
  }
  const explicit = nameArg ? stringList(nameArg) : undefined;
  if (nameArg && !explicit) return undefined; // names built at run time
  const aliasArg = kw('alias');
  const aliasList = aliasArg ? stringList(aliasArg) : [];
  if (!aliasList) return undefined;
  const dashed = (s: string): string => (s.startsWith('-') ? s : `--${s}`);
  const spellings = [...(explicit ?? [`--${cycloptsName(pyName)}`]), ...aliasList].map(dashed);
  const long = spellings.find((s) => s.startsWith('--')) ?? spellings[0];
  if (long === undefined) return undefined;
  const name = stripPrefix(long);
  const aliases = spellings.filter((s) => s !== long).map((s) => stripPrefix(s));
  // Negative spellings: `--no-x` for bools, `--empty-x` for iterables, or `negative=` as given.
  let negatable = false;
  const negativeArg = kw('negative');
  const negatives = negativeArg ? stringList(negativeArg) : undefined;
  const longNames = spellings.filter((s) => s.startsWith('--')).map((s) => stripPrefix(s));
  if (negatives && negatives.some((s) => s !== '')) {
    for (const negative of negatives) if (negative !== '') aliases.push(negative.startsWith('-') ? stripPrefix(negative) : negative);
  } else if (!negatives && !noNegatives && core === 'bool') {
    negatable = longNames.includes(name);
    for (const other of longNames) if (other !== name) aliases.push(`no-${other}`);
  } else if (!negatives && !noNegatives && core !== undefined && ITERABLE.test(core)) {
    for (const other of longNames) aliases.push(`empty-${other}`);
  }
  const located = nameArg ? firstStringNode(nameArg) ?? nameNode : nameNode;
  // cyclopts spells every name `--<name>` unless given dashes: `g` → `--g`, typed as declared.
  const optionStrings = declaredOptionStrings(spellings);
  return flagSpec({ name, aliases, ...common, location: locate(module, located), negatable, ...(optionStrings ? { optionStrings } : {}) });
}

/** The first string literal of a name argument (`"--x"` or `("--x", "-x")`), for the flag's position. */
function firstStringNode(node: Node): Node | undefined {
  const n = unparen(node);
  if (n.type === 'string' || n.type === 'concatenated_string') return n;
  return namedChildren(n).find((c) => c.type === 'string');
}
