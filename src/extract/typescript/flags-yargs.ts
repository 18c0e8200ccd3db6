/** yargs semantics: what each instance method and option key does to a command node. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import type { FlagEvaluator, Value } from './types.js';
import { addAlias, attach, camelCase, findParam, newNode, newParam, type CommandNode } from './flags-node.js';
import { pushUnique } from '../../shared/arrays.js';

/** Built-in keys that `.alias('h', 'help')` and the like refer to without defining an option. */
const BUILT_INS = new Set(['help', 'version']);
/** Methods that end the chain (they return argv or a promise, not the instance). */
const TERMINAL = new Set(['parse', 'parseSync', 'parseAsync']);
/** Methods that return something other than the instance. */
const NOT_CHAINABLE = new Set(['getOptions', 'getContext', 'getHelp', 'terminalWidth', 'showHelp', 'getCompletion', 'exit']);

/** Specs defined by `.option()`/`.positional()`/a command string (others were created by `.alias()`, `.default()`, …). */
const defined = new WeakSet<ParamSpec>();

/** The type info yargs spreads over several keys (`type: 'string'`, `array: true`), kept to recompute `type`. */
const typeInfo = new WeakMap<ParamSpec, { base?: string; array: boolean }>();

/** Applies a yargs instance method; returns the instance for chainable methods. */
export function applyYargs(ev: FlagEvaluator, node: CommandNode, method: string, call: ts.CallExpression): Value | undefined {
  const args = call.arguments;
  const [a0, a1] = [args[0], args[1]];
  switch (method) {
    case 'option':
    case 'options':
    case 'positional': {
      const positional = method === 'positional';
      const object = a1 === undefined ? ev.objectEntries(a0) : undefined;
      if (object) {
        for (const e of object) defineOption(ev, node, e.key, e.keyNode, e.value, positional);
        if (a0) ev.markUnreadParts(node, ev.evaluate(a0));
      }
      else if (a0) {
        const name = ev.stringOf(a0);
        if (name !== undefined) defineOption(ev, node, name, a0, a1, positional);
        // An option whose name (or whole options object) is built at run time: the command has flags docdrift cannot read.
        else if (!positional) node.passesUnknownFlags = true;
      }
      break;
    }
    case 'boolean':
    case 'string':
    case 'number':
    case 'count':
    case 'array':
      for (const [name, at] of keysOf(ev, a0)) {
        const spec = ensure(ev, node, name, at);
        setType(spec, method === 'array' ? { array: true } : { base: method });
      }
      break;
    case 'alias':
      for (const [name, at, value] of keyValues(ev, a0, a1)) for (const alias of ev.stringsOf(value) ?? []) aliasKey(ev, node, name, at, alias);
      break;
    case 'coerce':
      for (const [name, at] of keyValues(ev, a0, a1)) setCoerced(ensure(ev, node, name, at));
      break;
    case 'default':
    case 'defaults':
      for (const [name, at, value] of keyValues(ev, a0, a1)) if (ts.isExpression(value)) ensure(ev, node, name, at).default = ev.defaultOf(value);
      break;
    case 'describe':
      for (const [name, at, value] of keyValues(ev, a0, a1)) {
        const text = ev.stringOf(value);
        if (text !== undefined) ensure(ev, node, name, at).description = text;
      }
      break;
    case 'choices':
      for (const [name, at, value] of keyValues(ev, a0, a1)) {
        const choices = ev.stringsOf(value, true);
        if (choices) ensure(ev, node, name, at).choices = choices;
      }
      break;
    case 'demandOption':
    case 'demand':
    case 'require':
    case 'required':
      // `.demand(1)` counts commands; only key names make options required.
      for (const [name, at] of keysOf(ev, a0)) ensure(ev, node, name, at).required = true;
      break;
    case 'hide':
      for (const [name, at] of keysOf(ev, a0)) ensure(ev, node, name, at).hidden = true;
      break;
    case 'deprecateOption':
      for (const [name, at] of keysOf(ev, a0)) ensure(ev, node, name, at).deprecated = (a1 && ev.stringOf(a1)) ?? true;
      break;
    case 'command':
    case 'commands':
      defineCommands(ev, node, call);
      break;
    case 'usage':
      // `.usage('$0 <file>', desc, builder)`: with a description it is `.command()` of the default command.
      if (a1 !== undefined) defineCommands(ev, node, call);
      break;
    case 'commandDir': {
      const modules = ev.commandDirModules(call);
      if (!modules) {
        node.dynamicSubcommands = true;
        node.dynamicSubcommandsBy = 'yargs `.commandDir()` with a folder docdrift cannot read';
        break;
      }
      for (const m of modules) {
        const def = commandModule(ev, m.value, m);
        if (def) defineCommand(ev, node, def);
      }
      break;
    }
    case 'env': {
      // `.env('MY_APP')`: every option is also read from `MY_APP_<NAME>`; `.env()` from `<NAME>`;
      // `.env(false)` turns it off (yargs docs, `.env([prefix])`). A prefix docdrift cannot read
      // leaves the options without env names rather than guessing.
      if (a0 === undefined) node.envPrefix = '';
      else if (ev.booleanOf(a0) === false) node.envPrefix = false;
      else if (ev.booleanOf(a0) === true) node.envPrefix = '';
      else {
        const prefix = ev.stringOf(a0);
        if (prefix !== undefined) node.envPrefix = prefix;
      }
      break;
    }
    case 'scriptName': {
      const name = a0 && ev.stringOf(a0);
      if (name !== undefined) node.name = name;
      break;
    }
    default:
      if (TERMINAL.has(method)) {
        node.parsed = true;
        return undefined;
      }
      if (NOT_CHAINABLE.has(method)) return undefined;
  }
  return { kind: 'command', node };
}

/** Key names given as a string, an array of strings, or the keys of an object. */
function keysOf(ev: FlagEvaluator, arg: ts.Node | undefined): Array<[string, ts.Node]> {
  if (!arg) return [];
  const names = ev.stringsOf(arg);
  if (names) return names.map((n) => [n, arg]);
  return (ev.objectEntries(arg) ?? []).map((e) => [e.key, e.keyNode]);
}

/** `(key, value)` or `({ key: value, … })` (also `(['a', 'b'], value)`). */
function keyValues(ev: FlagEvaluator, a0: ts.Node | undefined, a1: ts.Node | undefined): Array<[string, ts.Node, ts.Node]> {
  if (!a0) return [];
  if (a1 === undefined) return (ev.objectEntries(a0) ?? []).map((e) => [e.key, e.keyNode, e.value]);
  return (ev.stringsOf(a0) ?? []).map((n) => [n, a0, a1]);
}

/** The param named or aliased `name`, created at `at` when the key is new. */
function ensure(ev: FlagEvaluator, node: CommandNode, name: string, at: ts.Node): ParamSpec {
  let spec = findParam(node, name);
  if (!spec) {
    spec = newParam(name, ev.location(at));
    spec.dest = camelCase(name);
    node.params.push(spec);
  }
  return spec;
}

/** `.alias(key, alias)`: yargs aliases are symmetric, so either side may be the defined option. */
function aliasKey(ev: FlagEvaluator, node: CommandNode, key: string, at: ts.Node, alias: string): void {
  const spec = findParam(node, key) ?? findParam(node, alias);
  if (spec) {
    addAlias(spec, key);
    addAlias(spec, alias);
  } else if (!BUILT_INS.has(key) && !BUILT_INS.has(alias)) addAlias(ensure(ev, node, key, at), alias);
}

/**
 * Options with a `coerce` function (`coerce: (v) => v.split(',')`, `.coerce('x', fn)`): the
 * program sees what the function returns, which docdrift does not evaluate, so the declared
 * `type` is only the raw argument's and no type is kept (a reference's `string[]` is no drift).
 */
const coerced = new WeakSet<ParamSpec>();

/** Marks an option as coerced (see {@link coerced}): its type is unknown from now on. */
function setCoerced(spec: ParamSpec): void {
  coerced.add(spec);
  delete spec.type;
}

function setType(spec: ParamSpec, change: { base?: string; array?: boolean }): void {
  const info = typeInfo.get(spec) ?? { array: false };
  if (change.base !== undefined) info.base = change.base;
  if (change.array) info.array = true;
  typeInfo.set(spec, info);
  const base = info.base;
  const type = info.array ? (base && base !== 'count' ? `${base}[]` : 'array') : base;
  if (type !== undefined && !coerced.has(spec)) spec.type = type;
  if (base === 'boolean' && !spec.positional) spec.negatable = true;
  else delete spec.negatable;
  if (base === 'count' && !info.array && !spec.positional) spec.counted = true;
  else delete spec.counted;
}

/** `.option(name, { … })` / `.positional(name, { … })`: creates or updates the option. */
export function defineOption(ev: FlagEvaluator, node: CommandNode, name: string, at: ts.Node, options: ts.Node | undefined, positional: boolean): ParamSpec {
  const spec = ensure(ev, node, name, at);
  // A key first met in `.demandOption('x')` and defined later is located at its definition.
  if (!defined.has(spec)) spec.location = ev.location(at);
  defined.add(spec);
  if (positional) {
    spec.positional = true;
    delete spec.negatable;
  }
  for (const e of ev.objectEntries(options) ?? []) {
    const v = e.value;
    switch (e.key) {
      case 'alias':
        for (const alias of ev.stringsOf(v) ?? []) addAlias(spec, alias);
        break;
      case 'type': {
        const type = ev.stringOf(v);
        if (type === 'array') setType(spec, { array: true });
        else if (type !== undefined) setType(spec, { base: type });
        break;
      }
      case 'boolean':
      case 'string':
      case 'number':
      case 'count':
        if (ev.booleanOf(v) === true) setType(spec, { base: e.key });
        break;
      case 'array':
        if (ev.booleanOf(v) === true) setType(spec, { array: true });
        break;
      case 'default':
        if (ts.isExpression(v)) spec.default = ev.defaultOf(v);
        break;
      case 'describe':
      case 'description':
      case 'desc': {
        const text = ev.stringOf(v);
        if (text !== undefined) spec.description = text;
        break;
      }
      case 'demandOption':
      case 'demand':
      case 'require':
      case 'required':
        spec.required = ev.booleanOf(v) ?? ev.stringOf(v) !== undefined;
        break;
      case 'coerce':
        setCoerced(spec);
        break;
      case 'hidden':
        spec.hidden = ev.booleanOf(v) ?? spec.hidden;
        break;
      case 'deprecated':
      case 'deprecate':
        spec.deprecated = ev.booleanOf(v) ?? ev.stringOf(v) ?? spec.deprecated;
        break;
      case 'choices': {
        const choices = ev.stringsOf(v, true);
        if (choices) spec.choices = choices;
        break;
      }
      default:
        break;
    }
  }
  return spec;
}

/** A yargs command definition gathered from any of `.command`'s forms. */
interface CommandDef {
  /** The command strings (`serve [port]`, then aliases), each with the node that wrote it. */
  cmds: Array<{ text: string; at: ts.Node }>;
  aliases: string[];
  description?: string;
  hidden: boolean;
  builder?: ts.Node;
}

function defineCommands(ev: FlagEvaluator, parent: CommandNode, call: ts.CallExpression): void {
  const [a0, a1, a2] = call.arguments;
  if (!a0) return;
  const cmds = commandStrings(ev, a0);
  if (cmds) {
    const def: CommandDef = { cmds, aliases: [], hidden: false };
    if (a1 !== undefined) {
      const desc = ev.stringOf(a1);
      if (desc !== undefined) def.description = desc;
      else if (ev.booleanOf(a1) === false) def.hidden = true;
    }
    if (a2 !== undefined) {
      // `.command(cmd, desc, module)`: an object with builder/handler is a module, else an options object.
      const value = ev.evaluate(a2);
      const builder = value && (value.kind === 'object' || value.kind === 'namespace') ? ev.memberNode(value, 'builder') : undefined;
      const isModule = builder !== undefined || (value !== undefined && ev.memberNode(value, 'handler') !== undefined);
      def.builder = isModule ? builder : a2;
    }
    defineCommand(ev, parent, def);
    return;
  }
  // `.command(module)` or `.command([moduleA, moduleB])`.
  const value = ev.evaluate(a0);
  const modules = value?.kind === 'array' ? value.node.elements.map((el) => ev.evaluate(el)) : [value];
  for (const module of modules) {
    if (!module) continue;
    const def = commandModule(ev, module);
    if (def) defineCommand(ev, parent, def);
  }
}

/**
 * A command module (`{ command, aliases, describe, builder, handler }`): an object, a namespace,
 * CommonJS `exports.x = …`, or an instance of a class with those members or getters. A module
 * `.commandDir()` loads without `command` is named by its file (`fallback`), as yargs does.
 */
function commandModule(ev: FlagEvaluator, module: Value, fallback?: { name: string; at: ts.Node }): CommandDef | undefined {
  const commandNode = ev.memberNode(module, 'command');
  const cmds = commandNode ? commandStrings(ev, commandNode) : fallback ? [{ text: fallback.name, at: fallback.at }] : undefined;
  if (!cmds) return undefined;
  const def: CommandDef = { cmds, aliases: ev.stringsOf(ev.memberNode(module, 'aliases')) ?? [], hidden: false };
  for (const key of ['describe', 'description', 'desc']) {
    const node = ev.memberNode(module, key);
    if (!node) continue;
    const text = ev.stringOf(node);
    if (text !== undefined) def.description = text;
    else if (ev.booleanOf(node) === false) def.hidden = true;
    break;
  }
  const builder = ev.memberNode(module, 'builder');
  if (builder) def.builder = builder;
  return def;
}

/** `'serve [port]'` or `['serve [port]', 's']` with where each was written. */
function commandStrings(ev: FlagEvaluator, node: ts.Node): Array<{ text: string; at: ts.Node }> | undefined {
  const one = ev.stringOf(node);
  if (one !== undefined) return [{ text: one, at: node }];
  const value = ev.evaluate(node);
  if (value?.kind !== 'array') return undefined;
  const out: Array<{ text: string; at: ts.Node }> = [];
  for (const el of value.node.elements) {
    const text = ev.stringOf(el);
    if (text === undefined) return undefined;
    out.push({ text, at: el });
  }
  return out.length > 0 ? out : undefined;
}

const DEFAULT_COMMAND = new Set(['$0', '*']);

function defineCommand(ev: FlagEvaluator, parent: CommandNode, def: CommandDef): void {
  const [first, ...rest] = def.cmds;
  if (!first) return;
  const words = [...first.text.matchAll(/\S+/g)];
  const word = words[0];
  if (!word) return;
  let target = parent;
  const otherNames = [...rest.map((c) => c.text.trim().split(/\s+/)[0] ?? ''), ...def.aliases].filter((n) => n !== '' && !DEFAULT_COMMAND.has(n));
  if (!DEFAULT_COMMAND.has(word[0])) {
    const existing = parent.children.find((c) => c.name === word[0]);
    target = existing ?? ev.created(newNode('yargs', ev.tokenLocation(first.at, word.index, word[0].length), { name: word[0] }));
    if (!existing) attach(parent, target);
    for (const alias of otherNames) pushUnique(target.aliases, alias);
    if (def.description !== undefined) target.description = def.description;
    if (def.hidden) target.hidden = true;
  }
  // Positional arguments of the command string: `<required>`, `[optional]`, `[files..]`, `<file|f>`.
  for (const w of words.slice(1)) {
    const m = /^([<[])([^\]>]*)[\]>]$/.exec(w[0]);
    if (!m) continue;
    const written = m[2] ?? '';
    const names = written.replace(/\.\.\.?$/, '');
    const [name, ...aliases] = names.split('|');
    if (!name) continue;
    const spec = ensure(ev, target, name, first.at);
    spec.location = ev.tokenLocation(first.at, w.index + 1, name.length);
    defined.add(spec);
    spec.positional = true;
    delete spec.negatable;
    spec.required = m[1] === '<';
    if (names !== written) setType(spec, { array: true });
    for (const alias of aliases) addAlias(spec, alias);
  }
  if (!def.builder) return;
  const builder = ev.evaluate(def.builder);
  if (builder?.kind === 'function') ev.applyFunction(builder.node, [{ kind: 'command', node: target }]);
  else if (builder?.kind === 'object') {
    for (const e of ev.entries(builder)) defineOption(ev, target, e.key, e.keyNode, e.value, false);
    ev.markUnreadParts(target, builder);
  }
  // A builder docdrift cannot follow (a call's result, an object merged with unknown parts): its flags are unknown.
  else target.passesUnknownFlags = true;
}

/**
 * The environment variable yargs reads an option from under `.env(prefix)`: yargs-parser takes
 * each variable starting with `prefix` + `_` (any variable when the prefix is `''`), drops the
 * prefix, splits nested keys at `__` and camel-cases each part (`MY_APP_LOG_LEVEL` → `logLevel`,
 * which the option `log-level` answers to as well). So the name is the prefix, `_`, and the
 * option's name with camel humps and `-` turned into `_`, `.` into `__`, upper-cased
 * (`log-level` and `logLevel` → `MY_APP_LOG_LEVEL`). https://yargs.js.org/docs/#api-reference-envprefix
 */
export function yargsEnvName(prefix: string, option: string): string {
  const base = option
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split('.')
    .map((part) => part.replace(/-/g, '_'))
    .join('__')
    .toUpperCase();
  return prefix === '' ? base : `${prefix}_${base}`;
}
