/** commander semantics: flags strings, Option/Argument objects, and what each Command method does to a command node. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import type { FlagEvaluator, OptionValue, Value } from './types.js';
import { addAlias, attach, camelCase, mergeOptionStrings, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { skipOuter, sourceFileOf } from './syntax.js';
import { pushUnique } from '../../shared/arrays.js';

/** Methods that return something other than the command (getters, promises, help text). */
const NOT_CHAINABLE = new Set([
  'opts',
  'optsWithGlobals',
  'getOptionValue',
  'getOptionValueSource',
  'getOptionValueSourceWithGlobals',
  'helpInformation',
  'createOption',
  'createArgument',
  'createHelp',
  'parseAsync',
]);
/** Parsers whose result type is known. */
const PARSER_TYPES = new Map([
  ['parseInt', 'number'],
  ['parseFloat', 'number'],
  ['Number', 'number'],
  ['Number.parseInt', 'number'],
  ['Number.parseFloat', 'number'],
  ['String', 'string'],
]);

/** Applies a `Command` method; returns the command a chain continues on (a new sub-command for `.command(name)`). */
export function applyCommander(ev: FlagEvaluator, node: CommandNode, method: string, call: ts.CallExpression): Value | undefined {
  const args = call.arguments;
  const [a0, a1, a2, a3] = [args[0], args[1], args[2], args[3]];
  const same: Value = { kind: 'command', node };
  switch (method) {
    case 'option':
    case 'requiredOption': {
      const option = commanderOption(ev, 'option', [a0, a1]);
      // Flags that are no string docdrift can read (built at run time): the command has flags it cannot list.
      if (!option && a0 && ev.stringOf(a0) === undefined) node.passesUnknownFlags = true;
      if (!option) break;
      defaultAndParser(ev, option, a2, a3);
      if (method === 'requiredOption') option.spec.required = true;
      addOption(node, option);
      break;
    }
    case 'addOption': {
      const value = a0 && ev.evaluate(a0);
      if (value?.kind === 'option' && value.option.kind === 'option') addOption(node, value.option);
      else if (a0) node.passesUnknownFlags = true;
      break;
    }
    case 'argument': {
      const argument = commanderOption(ev, 'argument', [a0, a1]);
      if (!argument) break;
      defaultAndParser(ev, argument, a2, a3);
      node.params.push(argument.spec);
      break;
    }
    case 'arguments': {
      const text = a0 && ev.stringOf(a0);
      if (a0 && text !== undefined) for (const m of text.matchAll(/\S+/g)) addArgumentToken(ev, node, a0, m[0], m.index);
      break;
    }
    case 'addArgument': {
      const value = a0 && ev.evaluate(a0);
      if (value?.kind === 'option' && value.option.kind === 'argument') node.params.push(value.option.spec);
      break;
    }
    case 'command': {
      const made = subCommand(ev, node, call);
      // A subclass overriding `createCommand` builds its children with its own constructor.
      if (made?.kind === 'command' && made.node !== node && node.subclass) ev.subclassChild(node, made.node);
      return made ?? same;
    }
    case 'createCommand': {
      const name = a0 && ev.stringOf(a0);
      const child = ev.created(newNode('commander', ev.location(a0 && name !== undefined ? a0 : call), name ? { name } : { program: true }));
      if (node.subclass) ev.subclassChild(node, child);
      return { kind: 'command', node: child };
    }
    case 'addCommand': {
      const value = a0 && ev.evaluate(a0);
      if (value?.kind === 'command' && attach(node, value.node) && isHidden(ev, a1)) value.node.hidden = true;
      break;
    }
    case 'alias':
    case 'aliases': {
      if (!a0) return undefined; // the getter form
      for (const alias of ev.stringsOf(a0) ?? []) pushUnique(node.aliases, alias);
      break;
    }
    case 'name': {
      if (!a0) return undefined;
      const name = ev.stringOf(a0);
      if (name !== undefined) node.name = name;
      break;
    }
    case 'description':
    case 'summary': {
      if (!a0) return undefined;
      const text = ev.stringOf(a0);
      if (text !== undefined && (method === 'description' || node.description === undefined)) node.description = text;
      break;
    }
    case 'version': {
      if (!a0) return undefined; // the getter form
      node.params.push(...versionFlags(ev, call, a1));
      break;
    }
    case 'usage':
      // `.usage('<command> [options]')` sets and chains; `.usage()` reads.
      if (!a0) return undefined;
      break;
    case 'parse':
      node.parsed = true;
      break;
    case 'allowUnknownOption':
      // `.allowUnknownOption(false)` turns it off again; anything else (no argument, `true`) on.
      if (ev.booleanOf(a0) === false) delete node.passesUnknownFlags;
      else node.passesUnknownFlags = true;
      break;
    default:
      if (method === 'parseAsync') node.parsed = true;
      if (NOT_CHAINABLE.has(method)) return undefined;
  }
  return same;
}

/**
 * `.version(str[, flags])`: commander's own version option (`-V, --version` unless `flags` says
 * otherwise), as a hidden flag from `BUILT_IN_FLAGS.commander`; `--version` is known everywhere,
 * so the default gives one flag `V`. Flags that are not a string literal keep the default.
 */
function versionFlags(ev: FlagEvaluator, call: ts.CallExpression, flags: ts.Node | undefined): ParamSpec[] {
  const text = flags ? ev.stringOf(flags) : undefined;
  const names = text === undefined ? [] : [...text.matchAll(/-{1,2}([^\s|,<[]+)/g)].map((m) => m[1] as string);
  return builtInFlagSpecs('commander', { root: true, version: true, location: ev.location(ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call), ...(names.length > 0 ? { spellings: { version: names } } : {}) });
}

/** Applies an `Option`/`Argument` method (`.default()`, `.choices()`, `.hideHelp()`, …); all of them chain. */
export function applyCommanderOption(ev: FlagEvaluator, option: OptionValue, method: string, call: ts.CallExpression): Value | undefined {
  const a0 = call.arguments[0];
  const spec = option.spec;
  switch (method) {
    case 'default':
      if (a0) spec.default = ev.defaultOf(a0);
      break;
    case 'choices': {
      const choices = ev.stringsOf(a0, true);
      if (choices) spec.choices = choices;
      break;
    }
    case 'hideHelp':
      spec.hidden = ev.booleanOf(a0) ?? true;
      break;
    case 'makeOptionMandatory':
      spec.required = ev.booleanOf(a0) ?? true;
      break;
    case 'argRequired':
      spec.required = true;
      break;
    case 'argOptional':
      spec.required = false;
      break;
    case 'argParser':
      if (a0) setParser(ev, option, a0);
      break;
    case 'env': {
      // `new Option('-p, --port <n>').env('PORT')`: the option's value is read from `PORT` when the
      // command line does not give it (commander's README, "Environment variables and defaults";
      // examples/options-env.js). One name per option: a second `.env()` replaces the first.
      const name = a0 && ev.stringOf(a0);
      if (name !== undefined && name !== '') spec.envVars = [name];
      break;
    }
    default:
      break;
  }
  return { kind: 'option', option };
}

/** An option from a flags string (`-p, --port <n>`) or an argument from a name (`<file>`), with its description. */
export function commanderOption(ev: FlagEvaluator, kind: OptionValue['kind'], args: readonly (ts.Node | undefined)[]): OptionValue | undefined {
  const [a0, a1] = args;
  const text = a0 && ev.stringOf(a0);
  if (!a0 || text === undefined) return undefined;
  const option = kind === 'option' ? optionFromFlags(ev, a0, text) : argumentFromName(ev, a0, text.trim(), text.indexOf(text.trim()));
  const description = a1 && ev.stringOf(a1);
  if (option && description !== undefined) option.spec.description = description;
  return option;
}

/**
 * Reads a commander flags string the way `splitOptionFlags` does, leniently: the first long flag
 * names the option (`--no-x` → negatable `x`), short flags and further long flags are aliases
 * (without dashes), `<v>`/`[v]` is the value placeholder (`...` variadic).
 */
function optionFromFlags(ev: FlagEvaluator, literal: ts.Node, text: string): OptionValue | undefined {
  let long: RegExpMatchArray | undefined;
  const others: string[] = [];
  let short: RegExpMatchArray | undefined;
  let placeholder: string | undefined;
  const strings: string[] = [];
  for (const m of text.matchAll(/[^\s|,]+/g)) {
    const t = m[0];
    if (/^--?[^-]/.test(t)) strings.push(t);
    if (/^--[^-]/.test(t)) {
      if (long) others.push(t.slice(2));
      else long = m;
    } else if (/^-[^-]/.test(t)) {
      if (short) others.push(t.slice(1));
      else short = m;
    } else if (/^[<[]/.test(t)) placeholder ??= t;
  }
  const token = long ?? short;
  if (!token || token.index === undefined) return undefined;
  let name = long ? token[0].slice(2) : token[0].slice(1);
  const negate = long !== undefined && name.startsWith('no-');
  if (negate) name = name.slice(3);
  const spec = newParam(name, ev.tokenLocation(literal, token.index, token[0].length));
  if (long && short) addAlias(spec, short[0].slice(1));
  for (const alias of others) addAlias(spec, alias);
  // commander matches option strings exactly: `--g` is typed as declared, `-g` is another option.
  const optionStrings = declaredOptionStrings(strings);
  if (optionStrings) spec.optionStrings = optionStrings;
  spec.dest = camelCase(name);
  const option: OptionValue = {
    kind: 'option',
    spec,
    value: placeholder === undefined ? 'none' : placeholder.startsWith('<') ? 'required' : 'optional',
    variadic: placeholder?.includes('...') ?? false,
  };
  if (negate) {
    spec.negatable = true;
    option.value = 'none';
  }
  spec.type = baseType(option, undefined);
  return option;
}

/** `<file>` (required), `[file]` (optional), `<files...>` (variadic); a bare name is required, as in commander. */
function argumentFromName(ev: FlagEvaluator, literal: ts.Node, token: string, index: number): OptionValue | undefined {
  const m = /^([<[]?)([^<>[\].]+)(\.\.\.)?[>\]]?$/.exec(token);
  const name = m?.[2];
  if (!m || !name) return undefined;
  const spec = newParam(name, ev.tokenLocation(literal, index + (m[1] ? 1 : 0), name.length));
  spec.positional = true;
  spec.required = m[1] !== '[';
  const option: OptionValue = { kind: 'argument', spec, value: spec.required ? 'required' : 'optional', variadic: m[3] !== undefined };
  spec.type = option.variadic ? 'string[]' : 'string';
  return option;
}

function addArgumentToken(ev: FlagEvaluator, node: CommandNode, literal: ts.Node, token: string, index: number): void {
  const argument = argumentFromName(ev, literal, token, index);
  if (argument) node.params.push(argument.spec);
}

/** The type a flag's placeholder implies, or a known parser's result type. */
function baseType(option: OptionValue, parsed: string | undefined): string {
  if (option.kind === 'argument') return option.variadic ? `${parsed ?? 'string'}[]` : (parsed ?? 'string');
  if (option.value === 'none') return 'boolean';
  if (option.variadic) return `${parsed ?? 'string'}[]`;
  return option.value === 'optional' ? `${parsed ?? 'string'} | boolean` : (parsed ?? 'string');
}

/** `.option(flags, desc, default)` or `.option(flags, desc, parser, default)`: a function in third place is a parser. */
function defaultAndParser(ev: FlagEvaluator, option: OptionValue, a2: ts.Node | undefined, a3: ts.Node | undefined): void {
  let value = a2;
  if (a2 !== undefined && (a3 !== undefined || isParser(ev, a2))) {
    setParser(ev, option, a2);
    value = a3;
  }
  // `cond ? o.default : undefined` taking its `undefined` branch: no default.
  const chosen = value && ts.isExpression(value) ? ev.knownBranch(value) : undefined;
  const bare = chosen && skipOuter(chosen);
  if (chosen && !(bare && ts.isIdentifier(bare) && bare.text === 'undefined')) option.spec.default = ev.defaultOf(chosen);
}

function isParser(ev: FlagEvaluator, node: ts.Node): boolean {
  if (ev.evaluate(node)?.kind === 'function') return true;
  const e = ts.isExpression(node) ? skipOuter(node) : node;
  const text = e.getText(sourceFileOf(e));
  return PARSER_TYPES.has(text) || ((ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) && /(?:^|\.)parse[A-Z]?/.test(text));
}

/** A custom parser changes the value's type: known ones give `number`/`string`, others leave it unknown. */
function setParser(ev: FlagEvaluator, option: OptionValue, parser: ts.Node): void {
  const e = ts.isExpression(parser) ? skipOuter(parser) : parser;
  const parsed = PARSER_TYPES.get(e.getText(sourceFileOf(e)));
  if (parsed !== undefined) option.spec.type = baseType(option, parsed);
  else delete option.spec.type;
  void ev;
}

/**
 * Per params array, its options (not positionals) by name, first wins; `count` items are indexed,
 * and `first` is the first item then (an `unshift` changes it and the index is rebuilt). A
 * `find` per added option made 90,000 options (two nested loops) take 55 s (s26 sweep D4).
 */
const optionIndex = new WeakMap<ParamSpec[], { byName: Map<string, ParamSpec>; count: number; first: ParamSpec | undefined }>();

/** The first option (not positional) named `name` in `params`. */
function optionNamed(params: ParamSpec[], name: string): ParamSpec | undefined {
  let index = optionIndex.get(params);
  if (!index || index.count > params.length || index.first !== params[0]) {
    index = { byName: new Map(), count: 0, first: params[0] };
    optionIndex.set(params, index);
  }
  for (; index.count < params.length; index.count++) {
    const p = params[index.count] as ParamSpec;
    if (!p.positional && !index.byName.has(p.name)) index.byName.set(p.name, p);
  }
  return index.byName.get(name);
}

/** Adds an option to a command; `--x` and `--no-x` are one negatable option. */
function addOption(node: CommandNode, option: OptionValue): void {
  const spec = option.spec;
  const existing = optionNamed(node.params, spec.name);
  if (!existing) {
    node.params.push(spec);
    return;
  }
  if (existing === spec) return;
  if (spec.negatable) existing.negatable = true;
  for (const alias of spec.aliases) addAlias(existing, alias);
  mergeOptionStrings(existing, spec);
  existing.description ??= spec.description;
  existing.default ??= spec.default;
  if (spec.required) existing.required = true;
}

function isHidden(ev: FlagEvaluator, opts: ts.Node | undefined): boolean {
  return (ev.objectEntries(opts) ?? []).some((e) => e.key === 'hidden' && ev.booleanOf(e.value) === true);
}

/** `.command('name <arg> [opt]', description?, opts?)`. */
function subCommand(ev: FlagEvaluator, parent: CommandNode, call: ts.CallExpression): Value | undefined {
  const [a0, a1, a2] = call.arguments;
  const text = a0 && ev.stringOf(a0);
  if (a0 && text === undefined) parent.dynamicSubcommands = true;
  if (!a0 || text === undefined) return undefined;
  const words = [...text.matchAll(/\S+/g)];
  const first = words[0];
  if (!first) return undefined;
  const child = ev.created(newNode('commander', ev.tokenLocation(a0, first.index, first[0].length), { name: first[0] }));
  for (const w of words.slice(1)) addArgumentToken(ev, child, a0, w[0], w.index);
  const description = a1 && ev.stringOf(a1);
  // With a description, commander makes an executable sub-command and returns the parent.
  const executable = description !== undefined;
  if (executable) child.description = description;
  if (isHidden(ev, executable ? a2 : a1)) child.hidden = true;
  // `{ isDefault: true }`: commander runs this sub-command when the words name none.
  if ((ev.objectEntries(executable ? a2 : a1) ?? []).some((e) => e.key === 'isDefault' && ev.booleanOf(e.value) === true)) parent.defaultCommand = first[0];
  attach(parent, child);
  return { kind: 'command', node: executable ? parent : child };
}
