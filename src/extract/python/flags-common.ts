/** Shared ground for the CLI flag extractors: parsed modules with their tree nodes, name resolution to module-level objects, call arguments as nodes, flag spellings. */
import type { Node, Tree } from 'web-tree-sitter';
import type { DefaultValue, InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import type { Resolver } from './resolve.js';
import { nodeLocation, type Binding, type ModuleInfo, type RawFunction } from './scan.js';
import { constEquals, constTruthy, literalConst, type ConstValue } from './partial-eval.js';
import { allChildren, dottedName, identifierText, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen, type PyValue } from './values.js';
import { pushUnique } from '../../shared/arrays.js';

/** One parsed module as the flag extractors see it: the scan result plus the nodes they walk. */
export interface FlagModule {
  info: ModuleInfo;
  /** The module's root node (alive until extraction ends). */
  root: Node;
  /** Top-level function definitions by name (the first definition wins, as in {@link ModuleInfo.functions}). */
  functions: Map<string, { def: Node; decorators: Node[] }>;
  /** Module-level `name = <expression>` assignments: the right-hand side of the first one. */
  assigns: Map<string, Node>;
  /** Module-level statements in order (also those inside `if`/`try`/`with` blocks), definitions excluded. */
  statements: Node[];
}

/** A module-level name of the repository: a function or a variable of one module. */
export interface Symbol {
  module: FlagModule;
  name: string;
}

/**
 * Call arguments as nodes, so both their values and their positions can be read. Shared between
 * the extractors ({@link callArgs} reads each call once per tree): never changed in place.
 */
export interface CallArgs {
  /** Dotted callee, when the callee is a plain name chain. */
  readonly callee?: readonly string[];
  readonly positional: readonly Node[];
  readonly keywords: ReadonlyMap<string, Node>;
  /** True when the call passes `*args` or `**kwargs`. */
  readonly hasSplat: boolean;
}

/**
 * The calls read by {@link callArgs}, per syntax tree and node id: each of the framework readers
 * (argparse, click, typer, jsonargparse, decli, the launchers, run-time options) walks a module's
 * calls, so a module of 30,000 calls had each one's arguments marshalled from the wasm tree seven
 * times (#33: a 1.5 MB argparse module, 10 s of extraction, half of it re-reading the same calls).
 * Dropped with the tree.
 */
const callArgsMemo = new WeakMap<Tree, Map<number, CallArgs>>();

/**
 * The nodes of one module that the flag readers look for, each list in document order, all found
 * in one walk of the tree ({@link moduleNodes}).
 */
export interface ModuleNodes {
  calls: readonly Node[];
  functionDefs: readonly Node[];
  classDefs: readonly Node[];
  decorated: readonly Node[];
  assignments: readonly Node[];
  comparisons: readonly Node[];
}

/** The node types of {@link ModuleNodes}, as one `descendantsOfType` asks for them. */
const MODULE_NODE_TYPES = ['call', 'function_definition', 'class_definition', 'decorated_definition', 'assignment', 'comparison_operator'];

/** Per syntax tree: the nodes of its module ({@link moduleNodes}). */
const moduleNodesMemo = new WeakMap<Tree, ModuleNodes>();

/**
 * Every `call`, `def`, `class`, decorated definition, assignment and comparison under a module's
 * root (`root.descendantsOfType(type)` of each, without the nulls), in document order, collected
 * in one walk per syntax tree. The readers asked for them in walks of their own: calls (click,
 * decli, jsonargparse, docopt, fire, run-time options: 6-7 walks a module before s41), the `def`
 * and `class` ranges, the assignments to `__signature__`, and the calls and decorated definitions
 * of every function body (jsonargparse, decli and click again: one more walk of each module in
 * all). Measured on NeMo Gym's 178 flag modules (1.8 MB), the flag extraction alone, cold: those
 * walks were 0.80 s of a 6.4 s CPU profile (s41, a loaded machine); the extraction's CPU went
 * 5.0 -> 3.6 s (medians of 3) with this and the changes beside `launcherNotes`,
 * `stackWalkOrder` and `escapingMutations`. `root` must be a module root; the lists are shared,
 * callers must not mutate them. The nodes inside one node are {@link nodesWithin}.
 */
export function moduleNodes(root: Node): ModuleNodes {
  let nodes = moduleNodesMemo.get(root.tree);
  if (!nodes) {
    const calls: Node[] = [];
    const functionDefs: Node[] = [];
    const classDefs: Node[] = [];
    const decorated: Node[] = [];
    const assignments: Node[] = [];
    const comparisons: Node[] = [];
    const byType: Record<string, Node[]> = {
      call: calls, function_definition: functionDefs, class_definition: classDefs, decorated_definition: decorated, assignment: assignments, comparison_operator: comparisons,
    };
    for (const node of root.descendantsOfType(MODULE_NODE_TYPES)) if (node) byType[node.type]?.push(node);
    nodes = { calls, functionDefs, classDefs, decorated, assignments, comparisons };
    moduleNodesMemo.set(root.tree, nodes);
  }
  return nodes;
}

/**
 * The nodes of `list` (one of {@link moduleNodes}' lists: document order) inside `node`, `node`
 * itself included when listed: what `node.descendantsOfType(type)` returns, in the same order,
 * found by a binary search instead of a walk of `node`'s subtree. Syntax nodes nest (a node
 * starting inside `node` ends inside it), so those inside are the ones starting in [start, end),
 * but for an enclosing node that starts where `node` does (`f(x)` in `f(x)(y)`): one starting
 * there must end by `node`'s end. (An enclosing node of exactly `node`'s range would be taken
 * for a descendant; none of the listed types encloses a block or a definition so.)
 */
export function nodesWithin(list: readonly Node[], node: Node): Node[] {
  const start = node.startIndex;
  const end = node.endIndex;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.startIndex < start) lo = mid + 1;
    else hi = mid;
  }
  const out: Node[] = [];
  for (let i = lo; i < list.length && list[i]!.startIndex < end; i++) {
    const candidate = list[i]!;
    if (candidate.startIndex === start && candidate.id !== node.id && candidate.endIndex > end) continue;
    out.push(candidate);
  }
  return out;
}

/**
 * Every `call` node under a module's root (`root.descendantsOfType('call')` without the nulls), in
 * document order ({@link moduleNodes}). `root` must be a module root; the list is shared, callers
 * must not mutate it.
 */
export function moduleCalls(root: Node): readonly Node[] {
  return moduleNodes(root).calls;
}

/** Reads a `call` node's arguments without evaluating them (once per node of a tree: the result is shared). */
export function callArgs(call: Node): CallArgs {
  let memo = callArgsMemo.get(call.tree);
  if (!memo) callArgsMemo.set(call.tree, (memo = new Map()));
  let out = memo.get(call.id);
  if (!out) memo.set(call.id, (out = readCallArgs(call)));
  return out;
}

function readCallArgs(call: Node): CallArgs {
  const fn = call.childForFieldName('function');
  const out = { callee: fn ? dottedName(fn) : undefined, positional: [] as Node[], keywords: new Map<string, Node>(), hasSplat: false };
  const list = call.childForFieldName('arguments');
  if (!list || list.type !== 'argument_list') return out;
  for (const arg of namedChildren(list)) {
    if (arg.type === 'keyword_argument') {
      const name = arg.childForFieldName('name');
      const value = arg.childForFieldName('value');
      if (name && value) out.keywords.set(pythonIdentifier(name.text), value);
    } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') {
      out.hasSplat = true;
    } else {
      out.positional.push(arg);
    }
  }
  return out;
}

/** Everything the three extractors share: the modules and name resolution across them. */
export class FlagContext {
  constructor(
    readonly modules: Map<string, FlagModule>,
    readonly resolver: Resolver,
  ) {}

  /** The qualified name of an external object a dotted name designates (`argparse.ArgumentParser`), through imports and aliases. */
  external(module: FlagModule, dotted: readonly string[] | undefined, local?: Map<string, Binding>): string | undefined {
    if (!dotted) return undefined;
    const resolved = this.resolver.resolve(module.info, dotted, local);
    return resolved?.kind === 'external' ? resolved.qualifiedName : undefined;
  }

  /**
   * The repository module-level name a dotted name designates in `module`: a top-level function or
   * a module-level variable, here or in another module through imports (`from .cli import app`,
   * `import pkg.cli as c; c.app`) and re-exports. Undefined for anything else.
   */
  symbol(module: FlagModule, dotted: readonly string[] | undefined, local?: Map<string, Binding>, depth = 0): Symbol | undefined {
    if (!dotted || dotted.length === 0 || depth > 16) return undefined;
    const [head, ...rest] = dotted as [string, ...string[]];
    const localBinding = local?.get(head);
    if (localBinding) return this.qualifiedSymbol(bindingName(localBinding, rest), depth + 1);
    if (module.functions.has(head) || module.assigns.has(head)) {
      // `x = other_name` is an alias of another name; follow it.
      const right = module.assigns.get(head);
      const aliasOf = right && !module.functions.has(head) ? dottedName(right) : undefined;
      if (aliasOf) return this.symbol(module, [...aliasOf, ...rest], undefined, depth + 1);
      return rest.length === 0 ? { module, name: head } : undefined;
    }
    const binding = module.info.bindings.get(head);
    if (binding) return this.qualifiedSymbol(bindingName(binding, rest), depth + 1);
    return undefined;
  }

  private qualifiedSymbol(name: string, depth: number): Symbol | undefined {
    const segments = name.split('.');
    for (let i = segments.length - 1; i > 0; i--) {
      const module = this.modules.get(segments.slice(0, i).join('.'));
      if (module) return this.symbol(module, segments.slice(i), undefined, depth + 1);
    }
    return undefined;
  }

  /** Callee key → keys of the top-level functions calling it directly, in module then source order; built on first use. */
  private callIndex?: Map<string, string[]>;

  private directCallers(key: string): string[] {
    if (!this.callIndex) {
      const index = new Map<string, string[]>();
      for (const module of this.modules.values()) {
        for (const [name, fn] of module.info.functions) {
          const callerKey = `${module.info.module}:${name}`;
          for (const call of fn.calls) {
            const callee = this.symbol(module, call.callee, fn.localBindings);
            if (!callee) continue;
            const calleeKey = symbolKey(callee);
            if (calleeKey === callerKey) continue;
            const list = index.get(calleeKey) ?? [];
            pushUnique(list, callerKey);
            index.set(calleeKey, list);
          }
        }
      }
      this.callIndex = index;
    }
    return this.callIndex.get(key) ?? [];
  }

  /**
   * `module:function` of every top-level function (in any module) that calls `symbol` directly
   * (`main()` calling `build_parser()`, `def main(): app()`), then of their callers, up to
   * `depth` levels (`cli()` → `_dispatch()` → `get_command_parser()`), nearest first. The call
   * index is built once per extraction.
   */
  callers(symbol: Symbol, depth = 3): string[] {
    const start = symbolKey(symbol);
    const out: string[] = [];
    let frontier = [start];
    for (let level = 0; level < depth && frontier.length > 0; level++) {
      const next: string[] = [];
      for (const key of frontier) {
        for (const caller of this.directCallers(key)) {
          if (caller === start || out.includes(caller)) continue;
          out.push(caller);
          next.push(caller);
        }
      }
      frontier = next;
    }
    return out;
  }

  /** Symbol key → keys of the top-level functions using an attribute of it; built on first use. */
  private attributeIndex?: Map<string, string[]>;

  /**
   * `module:function` of every top-level function (in any module) with a call on an attribute of
   * `symbol` (`parser.parse_args()`, `cli.parser.add_argument(…)` after `import pkg.cli as cli`),
   * in module then source order. The index is built once per extraction.
   */
  attributeUsers(symbol: Symbol): string[] {
    if (!this.attributeIndex) {
      const index = new Map<string, string[]>();
      for (const module of this.modules.values()) {
        for (const [name, fn] of module.info.functions) {
          const userKey = `${module.info.module}:${name}`;
          for (const call of fn.calls) {
            if (call.callee.length < 2) continue;
            const used = this.symbol(module, call.callee.slice(0, -1), fn.localBindings);
            if (!used) continue;
            const usedKey = symbolKey(used);
            const list = index.get(usedKey);
            if (!list) index.set(usedKey, [userKey]);
            else if (list.at(-1) !== userKey) list.push(userKey);
          }
        }
      }
      this.attributeIndex = index;
    }
    return this.attributeIndex.get(symbolKey(symbol)) ?? [];
  }

  /** The top-level function record of a symbol, when it is a function. */
  rawFunction(symbol: Symbol): RawFunction | undefined {
    return symbol.module.info.functions.get(symbol.name);
  }

  sameSymbol(a: Symbol | undefined, b: Symbol | undefined): boolean {
    return a !== undefined && b !== undefined && a.module === b.module && a.name === b.name;
  }
}

function bindingName(binding: Binding, rest: string[]): string {
  const base = binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
  return rest.length === 0 ? base : `${base}.${rest.join('.')}`;
}

/** A construct adding options docdrift cannot read, at `node`: its text on one line (no leading `@`), shortened to 80 characters. */
export function unreadAt(module: FlagModule, node: Node): { location: SourceLocation; construct: string } {
  const text = node.text.replace(/^@/, '').replace(/\s+/g, ' ').trim();
  return { location: locate(module, node), construct: text.length > 80 ? `${text.slice(0, 77)}...` : text };
}

/** `module:name`. */
export function symbolKey(symbol: Symbol): string {
  return `${symbol.module.info.module}:${symbol.name}`;
}

/** A default as the code writes it (literal when comparable, else the expression text). */
export function toDefault(value: PyValue): DefaultValue {
  return { kind: value.literal ? 'literal' : 'expression', text: value.text };
}

/** A literal default written by the extractor itself (`False` for `store_true`). */
export function literalDefault(text: string): DefaultValue {
  return { kind: 'literal', text };
}

/**
 * The allowed values of a list, tuple or set display of literals (`["a", "b"]`, `(1, 2)`):
 * strings decoded, other literals as written. Undefined when any item is not a literal.
 */
export function readChoices(node: Node | undefined): string[] | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  if (n.type !== 'list' && n.type !== 'tuple' && n.type !== 'set') return undefined;
  const out: string[] = [];
  for (const item of namedChildren(n)) {
    const value = readValue(item);
    if (!value.literal) return undefined;
    out.push(value.str ?? value.text);
  }
  return out;
}

/** A flag-name string literal: its decoded value and its node. */
export interface Spelling {
  text: string;
  node: Node;
}

/** Every positional argument as a string literal, or undefined when one is not (a flag built at run time). */
export function spellings(nodes: readonly Node[]): Spelling[] | undefined {
  const out: Spelling[] = [];
  for (const node of nodes) {
    const text = stringValue(node);
    if (text === undefined) return undefined;
    out.push({ text, node });
  }
  return out;
}

/** `--dry-run` → `dry-run`, `-k` → `k`: the spelling without its leading prefix characters. */
export function stripPrefix(flag: string, prefixChars = '-'): string {
  let i = 0;
  while (i < flag.length && prefixChars.includes(flag[i] as string)) i++;
  return flag.slice(i);
}

/** True for a long option (`--x`, or `++x` with `prefix_chars="+"`): two prefix characters. */
export function isLong(flag: string, prefixChars = '-'): boolean {
  return flag.length > 2 && prefixChars.includes(flag[0] as string) && prefixChars.includes(flag[1] as string);
}

/** True for a string that is a Python identifier (click's explicit parameter name in `option("--x", "name")`). */
export function isIdentifier(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const ok = code === 95 || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (i > 0 && code >= 48 && code <= 57) || code > 127;
    if (!ok) return false;
  }
  return true;
}

/** The parts of a flag ParamSpec that differ between libraries; the rest is filled in by {@link flagSpec}. */
export interface FlagFields {
  name: string;
  aliases: string[];
  type?: string;
  default?: DefaultValue;
  required: boolean;
  description?: string;
  deprecated: boolean | string;
  hidden: boolean;
  location: SourceLocation;
  dest?: string;
  choices?: string[];
  negatable?: boolean;
  positional?: boolean;
  /** The option strings as declared, dashes included, when one is not spelled the usual way (see {@link ParamSpec.optionStrings}). */
  optionStrings?: string[];
  /** Takes no value and counts repetitions (`-vv`). */
  counted?: boolean;
  /** A positional argument that takes every remaining word (see {@link ParamSpec.variadic}). */
  variadic?: boolean;
  /** Environment variables the flag is also read from (click/typer `envvar=`, cyclopts `env_var=`). */
  envVars?: string[];
}

/** A `cli-flag` ParamSpec with keys in the model's order; `owner` is set when the command is emitted. */
export function flagSpec(fields: FlagFields): ParamSpec {
  return {
    name: fields.name,
    aliases: fields.aliases,
    ...(fields.type !== undefined ? { type: fields.type } : {}),
    ...(fields.default ? { default: fields.default } : {}),
    required: fields.required,
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    deprecated: fields.deprecated,
    hidden: fields.hidden,
    origin: 'cli-flag',
    owner: '',
    location: fields.location,
    ...(fields.dest !== undefined ? { dest: fields.dest } : {}),
    ...(fields.choices ? { choices: fields.choices } : {}),
    ...(fields.negatable ? { negatable: true } : {}),
    ...(fields.positional ? { positional: true } : {}),
    ...(fields.optionStrings ? { optionStrings: fields.optionStrings } : {}),
    ...(fields.counted ? { counted: true } : {}),
    ...(fields.variadic ? { variadic: true } : {}),
    ...(fields.envVars && fields.envVars.length > 0 ? { envVars: fields.envVars } : {}),
  };
}

/**
 * The environment variable names of an `envvar=`/`env_var=` argument: a string, a list or tuple
 * of strings, or a module-level string constant of the same module (`envvar=TOKEN_VAR`). Names
 * that cannot be read are left out (an empty list when none can).
 */
export function envVarNames(node: Node | undefined, module: FlagModule): string[] {
  if (!node) return [];
  const n = unparen(node);
  const one = (item: Node): string | undefined => {
    const inner = unparen(item);
    return stringValue(inner) ?? (inner.type === 'identifier' ? module.info.constants.get(pythonIdentifier(inner.text)) : undefined);
  };
  if (n.type === 'list' || n.type === 'tuple') return namedChildren(n).flatMap((item) => one(item) ?? []);
  const single = one(n);
  return single === undefined ? [] : [single];
}

/** `True`/`False` or a message string (`deprecated="use --y"`); undefined otherwise. */
export function boolOrString(node: Node | undefined): boolean | string | undefined {
  if (!node) return undefined;
  const value = readValue(node);
  return value.bool ?? value.str;
}

/** True when the keyword is given as the literal `True`. */
export function isTrue(node: Node | undefined): boolean {
  return node !== undefined && readValue(node).bool === true;
}

/**
 * Parses click-style option declarations (`"--shout/--no-shout"`, `"-s"`, `"name"`), as
 * `click.core.Option._parse_decls` does: an identifier is the parameter name, `/` (or `;` when the
 * declaration starts with `/`) separates the "on" spellings from the "off" ones.
 */
export function parseClickDecls(decls: Spelling[]): { opts: Spelling[]; secondary: Spelling[]; name?: string } {
  const opts: Spelling[] = [];
  const secondary: Spelling[] = [];
  let name: string | undefined;
  for (const decl of decls) {
    if (isIdentifier(decl.text)) {
      name = decl.text;
      continue;
    }
    const split = decl.text.startsWith('/') ? ';' : '/';
    const at = decl.text.indexOf(split);
    if (at >= 0) {
      const first = decl.text.slice(0, at).trimEnd();
      const second = decl.text.slice(at + 1).trimStart();
      if (first !== '') opts.push({ text: first, node: decl.node });
      if (second !== '') secondary.push({ text: second, node: decl.node });
    } else {
      opts.push(decl);
    }
  }
  return name !== undefined ? { opts, secondary, name } : { opts, secondary };
}

/**
 * Name, aliases, dest and negatability of a click/typer option from its parsed declarations:
 * the name is the first long spelling (else the first short one), the dest the explicit
 * identifier or click's derivation (the spelling with the longest prefix, `-`→`_`, lower-cased);
 * an "off" spelling `--no-<name>` makes the flag negatable, other "off" spellings are aliases.
 */
export function clickOptionNames(parsed: { opts: Spelling[]; secondary: Spelling[]; name?: string }): {
  name: string;
  aliases: string[];
  dest: string;
  negatable: boolean;
  location: Node;
  /** The option strings, when one is not spelled the usual way ({@link ParamSpec.optionStrings}). */
  optionStrings?: string[];
} | undefined {
  const primary = parsed.opts.find((o) => clickSplit(o.text)[0].length === 2) ?? parsed.opts[0];
  if (!primary) return undefined;
  const name = clickSplit(primary.text)[1];
  const aliases: string[] = [];
  const add = (spelling: string): void => {
    if (spelling !== name && spelling !== '') pushUnique(aliases, spelling);
  };
  for (const opt of parsed.opts) if (opt !== primary) add(clickSplit(opt.text)[1]);
  let negatable = false;
  const onNames = new Set(parsed.opts.map((o) => clickSplit(o.text)[1]));
  for (const off of parsed.secondary) {
    const bare = clickSplit(off.text)[1];
    if (bare.startsWith('no-') && onNames.has(bare.slice(3))) negatable = true;
    else add(bare);
  }
  // click sorts the spellings by prefix length (stable), so the first long one names the parameter.
  const byPrefix = [...parsed.opts].sort((a, b) => clickSplit(b.text)[0].length - clickSplit(a.text)[0].length);
  const dest = parsed.name ?? clickSplit(byPrefix[0]?.text ?? primary.text)[1].replaceAll('-', '_').toLowerCase();
  // `--g` (one letter after two dashes) and `-gx` (a single-dash long option) are typed as declared.
  const optionStrings = declaredOptionStrings([...parsed.opts, ...parsed.secondary].map((o) => o.text));
  return { name, aliases, dest, negatable, location: primary.node, ...(optionStrings ? { optionStrings } : {}) };
}

/**
 * Splits an option spelling into prefix and name like `click.parser._split_opt`: a first
 * character that is not alphanumeric is the prefix, doubled when the second one repeats it.
 */
export function clickSplit(opt: string): [string, string] {
  const first = opt[0];
  if (first === undefined || isAlphanumeric(first)) return ['', opt];
  if (opt[1] === first) return [opt.slice(0, 2), opt.slice(2)];
  return [first, opt.slice(1)];
}

function isAlphanumeric(ch: string): boolean {
  return (ch >= '0' && ch <= '9') || (isIdentifier(ch) && ch !== '_');
}

/**
 * Sub-command levels a program's tree is followed to (real CLIs nest a handful): a group deeper
 * is listed with its sub-commands marked unknown (`dynamicSubcommands`), not followed. Groups
 * nested 5,000 deep (`g1.add_command(g0)`, `app1.add_typer(app0)` chains) overflowed the stack.
 */
export const MAX_SUBCOMMAND_DEPTH = 32;

/**
 * Commands listed per program at most (the program, its groups and sub-commands): a group whose
 * sub-commands would pass it is listed with them marked unknown. Bounds the work of trees that
 * share groups (a group added under two names at each of 32 levels has 2^32 paths).
 */
export const MAX_COMMANDS_PER_PROGRAM = 10_000;

/**
 * Commands read per module and framework (click's and typer's decorated functions, argparse's
 * `add_parser` calls): past it the module's other commands are not read, one `parse-error`
 * warning names the file and the cap, and its groups (parsers) are marked as having sub-commands
 * docdrift does not know. The cap of `Fire({…})` dicts and docopt usage texts, applied here: 5,000
 * click or argparse sub-commands of 10 options (a 2.4 MB module) took 650 and 570 MB
 * (#33 fresh sweep defect 7). Real CLIs define tens to a few hundred.
 */
export const MAX_MODULE_COMMANDS = 1000;

/** The warning of a module cut at {@link MAX_MODULE_COMMANDS} commands of `framework` (`click`), at `node` (the first command not read). */
export function moduleCommandsCut(module: FlagModule, node: Node, framework: string): InputDiagnostic {
  return {
    ruleId: 'parse-error',
    severity: 'warn',
    message: `${module.info.file}:${node.startPosition.row + 1}: the module defines more than ${MAX_MODULE_COMMANDS.toLocaleString('en-US')} ${framework} commands; only the first ${MAX_MODULE_COMMANDS.toLocaleString('en-US')} are read, the others are unknown`,
    location: locate(module, node),
  };
}

/**
 * How many commands the programs of groups that are also some group's sub-command list, all
 * together, in one extraction. Each such group is listed as a program of its own too (an entry
 * point may name it), so a chain of 5,000 nested groups listed 5,000 trees of 32 levels (165,000
 * commands, 400 MB); past this budget such a group is listed alone, its sub-commands marked
 * unknown. Projects have tens of nested groups, far under it.
 */
export const MAX_ATTACHED_PROGRAM_COMMANDS = 10_000;

/** Location of a node in the module's file. */
export function locate(module: FlagModule, node: Node): SourceLocation {
  return nodeLocation(module.info.file, node);
}

/** `context_settings=dict(ignore_unknown_options=True, …)` or `{"ignore_unknown_options": True}` (also via a module constant in the same module). */
export function passesUnknown(node: Node | undefined, module?: FlagModule, depth = 0): boolean {
  if (!node || depth > 2) return false;
  const n = unparen(node);
  if (n.type === 'identifier' && module) return passesUnknown(module.assigns.get(pythonIdentifier(n.text)), module, depth + 1);
  if (n.type === 'call') {
    const args = callArgs(n);
    return args.callee?.join('.') === 'dict' && isTrue(args.keywords.get('ignore_unknown_options'));
  }
  if (n.type === 'dictionary') {
    return namedChildren(n).some((pair) => pair.type === 'pair' && stringValue(pair.childForFieldName('key') ?? pair) === 'ignore_unknown_options'
      && isTrue(pair.childForFieldName('value') ?? undefined));
  }
  return false;
}

/**
 * True when an annotation is a sequence of values (`list[str]`, `List[Path]`, `tuple[str, ...]`,
 * `Sequence[str]`, `Optional[list[str]]`, `list[str] | None`): a positional argument typed so
 * takes every remaining word (typer, cyclopts).
 */
export function isSequenceAnnotation(type: string | undefined): boolean {
  if (type === undefined) return false;
  const t = type.replace(/\s+/g, '').replace(/^(?:typing\.)?Optional\[(.*)\]$/, '$1').replace(/\|None$|^None\|/g, '');
  const m = /^(?:typing\.|collections\.abc\.)?(list|List|tuple|Tuple|Sequence|Iterable|set|Set|frozenset|FrozenSet)(?:\[(.*)\])?$/.exec(t);
  if (!m) return false;
  // A fixed-length tuple (`tuple[str, int]`) takes that many words; `tuple[str, ...]` any number.
  return !/^[Tt]uple$/.test(m[1]!) || m[2] === undefined || m[2].endsWith(',...');
}

/**
 * Every call inside a top-level function whose callee resolves to one of `callees` (external
 * dotted names, `decli.cli`), with its first argument (positional, else the `keyword` one): the
 * calls that build a program from a description (`def main(): CLI([fit, test])`, `cli(data)`).
 * `target` is the function as an entry point names it (`module:function`).
 */
export function* callsInFunctions(ctx: FlagContext, callees: ReadonlySet<string>, keyword: string): Generator<{ module: FlagModule; call: Node; first: Node; target: string }> {
  for (const module of ctx.modules.values()) {
    for (const [name, { def }] of module.functions) {
      const body = def.childForFieldName('body');
      const local = module.info.functions.get(name)?.localBindings;
      for (const call of body ? nodesWithin(moduleCalls(module.root), body) : []) {
        const args = callArgs(call);
        const first = args.positional[0] ?? args.keywords.get(keyword);
        if (first && callees.has(ctx.external(module, args.callee, local) ?? '')) yield { module, call, first, target: `${module.info.module}:${name}` };
      }
    }
  }
}

/**
 * Every call in `module` (module level, functions, methods) whose callee resolves to one of
 * `callees` (external dotted names, `docopt.docopt`, `fire.Fire`), through the bindings of the
 * top-level function it is in: `{ call, args, fnName, local }` (`local`: those bindings), `fnName` that function's name (undefined
 * at module level and in class bodies, see {@link enclosingFunction}).
 */
export function* callsTo(ctx: FlagContext, module: FlagModule, callees: ReadonlySet<string>): Generator<{ call: Node; args: CallArgs; fnName: string | undefined; local: Map<string, Binding> | undefined }> {
  for (const call of moduleCalls(module.root)) {
    const args = callArgs(call);
    const fnName = enclosingFunction(call, module.root);
    const local = fnName !== undefined ? module.info.functions.get(fnName)?.localBindings : undefined;
    if (callees.has(ctx.external(module, args.callee, local) ?? '')) yield { call, args, fnName, local };
  }
}

/** Per module: the byte ranges of every `def` (with its name) and every `class`, found in one walk. */
const definitionRanges = new WeakMap<Node, { defs: Array<{ start: number; end: number; name: string | undefined }>; classes: Array<{ start: number; end: number }> }>();

/**
 * The name of the top-level function a node is in (the outermost `def` around it), or undefined
 * at module level and inside a class body (a method is not a target an entry point names).
 *
 * With `root` (the node's module root, as every caller that looks at many nodes has), the answer
 * comes from the byte ranges of the module's definitions, collected once per module: walking up
 * `node.parent` costs web-tree-sitter a descent from the root per step, so calls nested 5,000 deep
 * (`f(f(f(…)))`, bad-input `python-deep-expressions`) made the walk cubic in the depth.
 */
export function enclosingFunction(node: Node, root?: Node): string | undefined {
  if (root) {
    let ranges = definitionRanges.get(root);
    if (!ranges) {
      // Only the outermost ranges of each kind (a nested one lies inside them): disjoint and in
      // document order, so one binary search answers (a scan per node was quadratic: 5,000
      // functions and 5,000 calls in one module, bad-input `python-nested-groups`).
      ranges = {
        defs: outermost(moduleNodes(root).functionDefs.map((d) => ({ start: d.startIndex, end: d.endIndex, name: identifierText(d.childForFieldName('name')) }))),
        classes: outermost(moduleNodes(root).classDefs.map((d) => ({ start: d.startIndex, end: d.endIndex }))),
      };
      definitionRanges.set(root, ranges);
    }
    const at = node.startIndex;
    const end = node.endIndex;
    const containing = <R extends { start: number; end: number }>(list: R[]): R | undefined => {
      let lo = 0;
      let hi = list.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]!.start < at) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      const r = found >= 0 ? list[found] : undefined;
      return r && end <= r.end ? r : undefined;
    };
    if (containing(ranges.classes)) return undefined;
    return containing(ranges.defs)?.name;
  }
  let fn: Node | undefined;
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === 'function_definition') fn = n;
    if (n.type === 'class_definition') return undefined;
  }
  return identifierText(fn?.childForFieldName('name'));
}

/** Of ranges in document order (a range's nested ones after it), those inside no other. */
function outermost<R extends { start: number; end: number }>(ranges: R[]): R[] {
  const out: R[] = [];
  for (const r of ranges) if (out.length === 0 || r.start >= out.at(-1)!.end) out.push(r);
  return out;
}

/**
 * A program's command tree in pre-order (a group, then each sub-command's subtree in order), with
 * each command's path of sub-command names. Walked with an explicit stack: a command already on
 * the path above (a cycle) is left out; a group at {@link MAX_SUBCOMMAND_DEPTH} levels, or one
 * whose sub-commands would take the program past {@link MAX_COMMANDS_PER_PROGRAM} commands, is
 * given with `cut` (its sub-commands are not listed: the caller marks them unknown).
 *
 * @param root the program's top command
 * @param children a command's sub-commands with the names they are invoked by, in order
 * @param limit the most commands to list (default {@link MAX_COMMANDS_PER_PROGRAM}; at least the root is)
 */
export function* subcommandTree<T>(
  root: T,
  children: (node: T) => Array<{ node: T; name: string }>,
  limit = MAX_COMMANDS_PER_PROGRAM,
): Generator<{ node: T; path: string[]; cut: boolean }> {
  interface Entry { node: T; path: string[]; up: Entry | undefined }
  const stack: Entry[] = [{ node: root, path: [], up: undefined }];
  let listed = 1;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const kids: Entry[] = [];
    for (const { node, name } of children(entry.node)) {
      let cycle = false;
      for (let a: Entry | undefined = entry; a && !cycle; a = a.up) cycle = a.node === node;
      if (!cycle) kids.push({ node, path: [...entry.path, name], up: entry });
    }
    const cut = kids.length > 0 && (entry.path.length >= MAX_SUBCOMMAND_DEPTH || listed + kids.length > limit);
    yield { node: entry.node, path: entry.path, cut };
    if (cut) continue;
    listed += kids.length;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/**
 * The values a call gives the parameters of the `def` it calls, as far as they are literals:
 * each parameter's default (`hidden=False`), then the call's positional arguments in order and
 * its keywords (`standard_options(hidden=True)`). A parameter whose value is not a literal maps
 * to undefined; a call that spreads `*args`/`**kwargs` makes every parameter unknown. `call`
 * undefined (a bare decorator `@factory`): the defaults only. Python's binding rules
 * (https://docs.python.org/3/reference/expressions.html#calls), without evaluating anything.
 */
export function bindParameters(def: Node, call: CallArgs | undefined): Map<string, ConstValue | undefined> {
  const env = new Map<string, ConstValue | undefined>();
  const list = def.childForFieldName('parameters');
  const names: string[] = [];
  let positionalOpen = true;
  for (const param of list ? namedChildren(list) : []) {
    const parts = parameterParts(param);
    if (parts.variadic || param.type === 'keyword_separator') positionalOpen = false;
    if (!parts.name || parts.name.type !== 'identifier' || parts.variadic) continue;
    env.set(pythonIdentifier(parts.name.text), parts.value ? literalConst(parts.value) : undefined);
    if (positionalOpen) names.push(pythonIdentifier(parts.name.text));
  }
  if (!call) return env;
  if (call.hasSplat) {
    for (const key of env.keys()) env.set(key, undefined);
    return env;
  }
  call.positional.forEach((arg, i) => {
    const name = names[i];
    if (name !== undefined) env.set(name, literalConst(arg));
  });
  for (const [key, value] of call.keywords) if (env.has(key)) env.set(key, literalConst(value));
  return env;
}

/**
 * The truth of an `if` condition under known parameter values: a bound name, `not x`, a literal,
 * `x is None` / `x is not None`, `x == literal` / `x != literal`, `a and b`, `a or b`. Undefined
 * when any part is not known.
 */
export function knownCondition(node: Node, env: ReadonlyMap<string, ConstValue | undefined>, depth = 0): boolean | undefined {
  if (depth > 16) return undefined;
  const n = unparen(node);
  const value = (x: Node): ConstValue | undefined => {
    const u = unparen(x);
    return u.type === 'identifier' ? env.get(pythonIdentifier(u.text)) : literalConst(u);
  };
  if (n.type === 'not_operator') {
    const arg = n.childForFieldName('argument');
    const inner = arg ? knownCondition(arg, env, depth + 1) : undefined;
    return inner === undefined ? undefined : !inner;
  }
  if (n.type === 'boolean_operator') {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    const a = left ? knownCondition(left, env, depth + 1) : undefined;
    const b = right ? knownCondition(right, env, depth + 1) : undefined;
    const op = n.childForFieldName('operator')?.text;
    if (op === 'and') return a === false || b === false ? false : a === true && b === true ? true : undefined;
    if (op === 'or') return a === true || b === true ? true : a === false && b === false ? false : undefined;
    return undefined;
  }
  if (n.type === 'comparison_operator') {
    const operands = namedChildren(n);
    const ops = allChildren(n).filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
    if (operands.length !== 2) return undefined;
    const a = value(operands[0]!);
    const b = value(operands[1]!);
    if (!a || !b) return undefined;
    const op = ops.join(' ');
    if (op === 'is') return a.value === null && b.value === null ? true : a.value === null || b.value === null ? false : undefined;
    if (op === 'is not') return a.value === null && b.value === null ? false : a.value === null || b.value === null ? true : undefined;
    if (op === '==') return constEquals(a, b);
    if (op === '!=') return !constEquals(a, b);
    return undefined;
  }
  const v = value(n);
  return v ? constTruthy(v) : undefined;
}

/**
 * Whether `node` (inside `root`, a function body) runs under known parameter values: `'never'`
 * when an enclosing `if`/`elif`/`else` branch (or a conditional expression's side) is not taken,
 * `'always'` when every enclosing condition is known and taken, `'maybe'` when one is unknown.
 */
export function branchReach(node: Node, root: Node, env: ReadonlyMap<string, ConstValue | undefined>): 'never' | 'always' | 'maybe' {
  let reach: 'always' | 'maybe' = 'always';
  let child = node;
  for (let p = node.parent; p && p.id !== root.id; child = p, p = p.parent) {
    if (p.type === 'if_statement' && p.childForFieldName('condition')?.id !== child.id) {
      const branches: Array<{ cond?: Node; node: Node }> = [];
      const consequence = p.childForFieldName('consequence');
      const condition = p.childForFieldName('condition');
      if (consequence && condition) branches.push({ cond: condition, node: consequence });
      for (const alt of p.childrenForFieldName('alternative')) {
        if (!alt) continue;
        branches.push({ cond: alt.type === 'elif_clause' ? alt.childForFieldName('condition') ?? undefined : undefined, node: alt });
      }
      const index = branches.findIndex((b) => b.node.id === child.id);
      if (index < 0) continue;
      for (let i = 0; i <= index; i++) {
        const cond = branches[i]!.cond;
        const known = cond ? knownCondition(cond, env) : undefined;
        if (i < index && known === true) return 'never';
        if (i === index && cond && known === false) return 'never';
        if (known === undefined && (i < index || cond)) reach = 'maybe';
      }
    } else if (p.type === 'conditional_expression') {
      const [yes, cond, no] = namedChildren(p);
      if (!cond || child.id === cond.id) continue;
      const known = knownCondition(cond, env);
      if (known === undefined) reach = 'maybe';
      else if ((child.id === yes?.id) !== known) return 'never';
    }
  }
  return reach;
}
