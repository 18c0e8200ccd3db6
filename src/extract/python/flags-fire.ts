/** Python Fire flags: `fire.Fire(component)` programs, whose commands and flags are the component's functions, methods and parameters. */
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { callArgs, callsTo, flagSpec, locate, toDefault, type FlagContext, type FlagModule } from './flags-common.js';
import type { FlagCommand } from './types.js';
import { dottedName, identifierText, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen } from './values.js';

const FIRE = new Set(['fire.Fire', 'fire.core.Fire']);

/** How many nested levels (dict in dict, class attribute groups, base classes) are followed. */
const MAX_DEPTH = 4;

/**
 * Keys of one dict component read at most (#33 fresh sweep D5: `Fire({…})` of 50,000 keys took
 * 725 MB, 100,000 keys 1.3 GB). Past it the dict's command is listed with its sub-commands marked
 * unknown, and a warning names the file and the cap. Real programs list a handful.
 */
export const MAX_FIRE_DICT_KEYS = 1000;

/** One command the component gives: its words after the program, its parameters, where it is. */
interface FireCommand {
  path: string[];
  aliases?: string[];
  params: ParamSpec[];
  location: SourceLocation;
  passesUnknownFlags?: boolean;
  /** More sub-commands than were read ({@link MAX_FIRE_DICT_KEYS}). */
  dynamicSubcommands?: boolean;
}

/**
 * Reads Python Fire programs (fire 0.5, `fire/core.py` and `fire/parser.py`): every
 * `fire.Fire(component)` / `Fire(component)` call, at module level (target: the module) or in a
 * top-level function (target: that function and its callers). The component is
 *
 * - a function: its parameters are the program's flags, `--name value` / `--name=value`, spelled
 *   with `_` or `-` (`--learning-rate` for `learning_rate`), `-l` when no other parameter starts
 *   with that letter; the default and annotation give default and type; a parameter without a
 *   default is required (Fire takes it positionally or as a flag); `**kwargs` accepts any flag;
 * - a class: its public methods (no leading `_`; repository base classes too) are sub-commands,
 *   also spelled with `-`; the `__init__` parameters are flags of the program and of every
 *   sub-command (Fire reads them anywhere on the command line); an instance (`Fire(Tool())`)
 *   gives the methods without the `__init__` flags;
 * - a dict literal (also a module-level constant): each key a sub-command, its value a function,
 *   class or nested dict;
 * - nothing (`Fire()`): the public top-level functions and classes of the calling module.
 *
 * A dict of more than {@link MAX_FIRE_DICT_KEYS} keys is read up to it: a warning in
 * `diagnostics` names the file and the cap, and the dict's command has its other sub-commands
 * unknown (`dynamicSubcommands`).
 *
 * Not read: components built at run time (a name bound in a function, a call result other than a
 * class instance), properties and attributes (Fire shows them as values), functions and classes a
 * module imports (reached by `Fire()` too), `*args`, and the flags after Fire's `--` separator
 * (`-- --interactive`), which are Fire's own.
 */
export function extractFire(ctx: FlagContext, diagnostics: InputDiagnostic[] = []): FlagCommand[] {
  const out: FlagCommand[] = [];
  for (const module of ctx.modules.values()) {
    if (![...module.info.bindings.values()].some((b) => (b.kind === 'module' ? b.target : b.module) === 'fire' || (b.kind === 'module' && b.target.startsWith('fire.')) || (b.kind === 'symbol' && b.module.startsWith('fire.')))) continue;
    for (const { call, args, fnName } of callsTo(ctx, module, FIRE)) {
      const first = args.positional[0] ?? args.keywords.get('component');
      const location = locate(module, call);
      const commands = first ? component(ctx, module, first, [], location, 0, diagnostics) : wholeModule(ctx, module, location);
      if (!commands) continue;
      const targets = fnName === undefined ? [module.info.module] : [`${module.info.module}:${fnName}`, ...ctx.callers({ module, name: fnName })];
      const label = targets[0]!.split(/[.:]/).at(-1)!;
      if (!commands.some((c) => c.path.length === 0)) commands.unshift({ path: [], params: [], location });
      for (const command of commands) {
        const owner = [label, ...command.path].join(' ');
        const params = command.params.map((p) => ({ ...p, owner }));
        for (const target of targets) {
          out.push({
            path: command.path, target, params, location: command.location,
            ...(command.aliases?.length ? { aliases: command.aliases } : {}),
            ...(command.passesUnknownFlags ? { passesUnknownFlags: true } : {}),
            ...(command.dynamicSubcommands ? { dynamicSubcommands: true, dynamicSubcommandsBy: `a \`Fire({…})\` dict of more than ${MAX_FIRE_DICT_KEYS.toLocaleString('en-US')} keys` } : {}),
          });
        }
      }
    }
  }
  return out;
}

/** The commands a component expression gives under `path`; undefined when it is not read. */
function component(ctx: FlagContext, module: FlagModule, node: Node, path: string[], location: SourceLocation, depth: number, diagnostics: InputDiagnostic[]): FireCommand[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const n = unparen(node);
  if (n.type === 'dictionary') {
    const out: FireCommand[] = [{ path, params: [], location }];
    let keys = 0;
    for (const pair of namedChildren(n)) {
      if (pair.type === 'pair' && ++keys > MAX_FIRE_DICT_KEYS) {
        out[0]!.dynamicSubcommands = true;
        const total = namedChildren(n).filter((c) => c.type === 'pair').length;
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message: `${module.info.file}:${n.startPosition.row + 1}: the \`Fire({…})\` dict has ${total.toLocaleString('en-US')} keys; only the first ${MAX_FIRE_DICT_KEYS.toLocaleString('en-US')} are read as sub-commands, the others are unknown`,
          location: locate(module, n),
        });
        break;
      }
      const key = pair.type === 'pair' ? pair.childForFieldName('key') : null;
      const value = pair.type === 'pair' ? pair.childForFieldName('value') : null;
      const word = key ? stringValue(key) : undefined;
      if (word === undefined || !value) continue;
      const inner = component(ctx, module, value, [...path, word], locate(module, key!), depth + 1, diagnostics);
      if (inner) out.push(...inner);
    }
    return out;
  }
  // `Fire(Tool())`: an instance; its class's methods, without the `__init__` flags.
  let instance = false;
  let ref = n;
  if (n.type === 'call' && callArgs(n).callee) {
    instance = true;
    ref = n.childForFieldName('function')!;
  }
  const dotted = dottedName(ref);
  if (!dotted) return undefined;
  const resolved = ctx.resolver.resolve(module.info, dotted);
  if (resolved?.kind === 'class') {
    const home = ctx.modules.get(resolved.cls.module);
    const def = home ? classNode(home, resolved.cls.name) : undefined;
    return home && def ? classCommands(ctx, home, def, path, instance, depth) : undefined;
  }
  if (instance) return undefined;
  const symbol = ctx.symbol(module, dotted);
  if (!symbol) return undefined;
  const fn = symbol.module.functions.get(symbol.name);
  if (fn) {
    const sig = signature(symbol.module, fn.def, false);
    return [{ path, params: sig.params, location: locate(symbol.module, fn.def.childForFieldName('name') ?? fn.def), ...(sig.kwargs ? { passesUnknownFlags: true } : {}) }];
  }
  const right = symbol.module.assigns.get(symbol.name);
  return right ? component(ctx, symbol.module, right, path, location, depth + 1, diagnostics) : undefined;
}

/** `Fire()`: the module's public top-level functions and classes as sub-commands. */
function wholeModule(ctx: FlagContext, module: FlagModule, location: SourceLocation): FireCommand[] {
  const out: FireCommand[] = [{ path: [], params: [], location }];
  for (const [name, { def }] of module.functions) {
    if (name.startsWith('_')) continue;
    const sig = signature(module, def, false);
    out.push({ path: [name], ...hyphenated(name), params: sig.params, location: locate(module, def.childForFieldName('name') ?? def), ...(sig.kwargs ? { passesUnknownFlags: true } : {}) });
  }
  for (const child of namedChildren(module.root)) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    const name = def?.type === 'class_definition' ? identifierText(def.childForFieldName('name')) : undefined;
    if (!def || name === undefined || name.startsWith('_')) continue;
    out.push(...classCommands(ctx, module, def, [name], false, 1));
  }
  return out;
}

/** The other spelling Fire accepts for a name with underscores (`run-job` for `run_job`). */
function hyphenated(name: string): { aliases?: string[] } {
  return name.includes('_') ? { aliases: [name.replaceAll('_', '-')] } : {};
}

/** A class's commands: itself (its `__init__` flags unless an instance) and one per public method. */
function classCommands(ctx: FlagContext, module: FlagModule, def: Node, path: string[], instance: boolean, depth: number): FireCommand[] {
  const methods = new Map<string, { module: FlagModule; def: Node; kind: 'method' | 'static' }>();
  collectMethods(ctx, module, def, methods, 0);
  const init = methods.get('__init__');
  const initSig = init && !instance ? signature(init.module, init.def, true) : { params: [], kwargs: false };
  const location = locate(module, def.childForFieldName('name') ?? def);
  const out: FireCommand[] = [{ path, ...(path.length > 0 ? hyphenated(path.at(-1)!) : {}), params: initSig.params, location }];
  for (const [name, method] of methods) {
    if (name.startsWith('_') || depth > MAX_DEPTH) continue;
    const sig = signature(method.module, method.def, method.kind === 'method');
    const own = new Set(sig.params.map((p) => p.name));
    const params = [...sig.params, ...initSig.params.filter((p) => !own.has(p.name))];
    const kwargs = sig.kwargs || initSig.kwargs;
    out.push({ path: [...path, name], ...hyphenated(name), params, location: locate(method.module, method.def.childForFieldName('name') ?? method.def), ...(kwargs ? { passesUnknownFlags: true } : {}) });
  }
  return out;
}

/** Methods of a class and of its repository bases (the class's own first, as Python's lookup finds them). */
function collectMethods(ctx: FlagContext, module: FlagModule, def: Node, into: Map<string, { module: FlagModule; def: Node; kind: 'method' | 'static' }>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const body = def.childForFieldName('body');
  for (const child of body ? namedChildren(body) : []) {
    const inner = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (inner?.type !== 'function_definition') continue;
    const name = identifierText(inner.childForFieldName('name'));
    if (name === undefined || into.has(name)) continue;
    const decorators = child.type === 'decorated_definition' ? namedChildren(child).filter((c) => c.type === 'decorator').map((d) => d.text) : [];
    if (decorators.some((d) => /\bproperty\b|\.setter\b/.test(d))) continue;
    const kind = decorators.some((d) => /\bstaticmethod\b/.test(d)) ? 'static' : 'method';
    into.set(name, { module, def: inner, kind });
  }
  const className = identifierText(def.childForFieldName('name'));
  const cls = className !== undefined ? module.info.allClasses.find((c) => c.name === className) : undefined;
  for (const base of cls?.bases ?? []) {
    const resolved = base.dotted ? ctx.resolver.resolve(module.info, base.dotted) : undefined;
    if (resolved?.kind !== 'class') continue;
    const home = ctx.modules.get(resolved.cls.module);
    const baseDef = home ? classNode(home, resolved.cls.name) : undefined;
    if (home && baseDef) collectMethods(ctx, home, baseDef, into, depth + 1);
  }
}

/**
 * A function's parameters as Fire's flags. `bound`: the first parameter is `self`/`cls` and is
 * skipped. Short spellings: the first letter, when no other parameter starts with it.
 */
function signature(module: FlagModule, def: Node, bound: boolean): { params: ParamSpec[]; kwargs: boolean } {
  const parameters = def.childForFieldName('parameters');
  const params: ParamSpec[] = [];
  let kwargs = false;
  let skipped = !bound;
  for (const param of parameters ? namedChildren(parameters) : []) {
    if (param.type === 'dictionary_splat_pattern' || (param.type === 'typed_parameter' && namedChildren(param)[0]?.type === 'dictionary_splat_pattern')) {
      kwargs = true;
      continue;
    }
    const { name: nameNode, type: typeNode, value: valueNode, variadic } = parameterParts(param);
    if (variadic || !nameNode || nameNode.type !== 'identifier') continue;
    if (!skipped) {
      skipped = true;
      continue;
    }
    const name = pythonIdentifier(nameNode.text);
    const annotation = typeNode ? namedChildren(typeNode)[0] ?? typeNode : undefined;
    const defaultValue = valueNode ? readValue(valueNode) : undefined;
    const type = annotation?.text ?? (defaultValue?.bool !== undefined ? 'bool' : undefined);
    params.push(flagSpec({
      name,
      aliases: hyphenated(name).aliases ?? [],
      ...(type !== undefined ? { type } : {}),
      ...(defaultValue ? { default: toDefault(defaultValue) } : {}),
      required: !valueNode,
      deprecated: false,
      hidden: false,
      location: locate(module, nameNode),
      dest: name,
    }));
  }
  // fire gives a parameter a one-letter short flag when no other starts with its letter. Counted
  // once per letter: a filter of the list per parameter was O(params²) (29,000 parameters, 19 s
  // of CPU: s28 sweep D1).
  const byLetter = new Map<string, number>();
  for (const p of params) byLetter.set(p.name[0]!, (byLetter.get(p.name[0]!) ?? 0) + 1);
  for (const p of params) {
    const letter = p.name[0]!;
    if (p.name.length > 1 && byLetter.get(letter) === 1) p.aliases.push(letter);
  }
  return { params, kwargs };
}


/** A top-level `class name:` definition of a module (also under `if`/`try`). */
function classNode(module: FlagModule, name: string): Node | undefined {
  for (const def of module.root.descendantsOfType('class_definition')) {
    if (def && identifierText(def.childForFieldName('name')) === name && !def.parent?.parent?.type.endsWith('definition')) return def;
  }
  return undefined;
}
