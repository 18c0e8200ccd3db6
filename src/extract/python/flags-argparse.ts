/** argparse flags: follows parsers, argument groups, parents and sub-parsers through the statements of module-level code and top-level functions (and the helpers they pass parsers to), without running Python. */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec, SourceLocation } from '../../model/types.js';
import {
  boolOrString, callArgs, flagSpec, isLong, isTrue, literalDefault, locate, readChoices, spellings, stripPrefix, symbolKey, toDefault,
  type CallArgs, type FlagContext, type FlagModule, type Symbol,
} from './flags-common.js';
import type { FlagCommand } from './types.js';
import type { Binding } from './scan.js';
import { namedChildren, readValue, stringValue, unparen } from './values.js';

/** argparse's parser and drop-in subclasses with the same `add_argument` API (ConfigArgParse). */
const ARGUMENT_PARSER = new Set(['argparse.ArgumentParser', 'configargparse.ArgumentParser', 'configargparse.ArgParser']);
const SUPPRESS = 'argparse.SUPPRESS';
const BOOLEAN_OPTIONAL = 'argparse.BooleanOptionalAction';
const REMAINDER = 'argparse.REMAINDER';

/** A parser met while following the code: the program's or a sub-command's. */
interface Parser {
  /** Creation site (plus the parent's key for sub-parsers), so following the same code twice finds the same parser. */
  key: string;
  path: string[];
  aliases: string[];
  /** Parameters by the key of the `add_argument` call that made them. */
  params: Map<string, ParamSpec>;
  location: SourceLocation;
  prefixChars: string;
  root: Parser;
  /** Root only: the top-level function whose body calls `ArgumentParser(...)`, absent at module level. */
  creator?: Symbol;
  /** Root only: the module it was created in. */
  module: FlagModule;
  /** Root only: module-level variable names the parser was assigned to. */
  variables: string[];
  /** Root only: `prog=` when a string literal. */
  prog?: string;
  /** True once the parser is passed in `parents=[…]`: a parent parser is a building block, not a command. */
  isParent: boolean;
}

type Value =
  | { kind: 'parser'; parser: Parser }
  | { kind: 'group'; parser: Parser }
  | { kind: 'subparsers'; parser: Parser }
  | { kind: 'list'; items: Array<Value | undefined> };

interface Frame {
  module: FlagModule;
  /** The top-level function being followed; absent for module-level code. */
  fn?: Symbol;
  local?: Map<string, Binding>;
  env: Map<string, Value | undefined>;
  returns: Array<Value | undefined>;
  /** Functions on the call stack, to stop recursion. */
  stack: string[];
}

/** How deep calls into helper functions are followed. */
const MAX_CALL_DEPTH = 6;

const CONTAINERS = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause',
  'finally_clause', 'with_statement', 'for_statement', 'while_statement', 'block', 'match_statement', 'case_clause',
]);

/**
 * Reads argparse parsers. Every module's top-level statements are followed first, then every
 * top-level function that calls `argparse.ArgumentParser(...)` directly or calls such a function,
 * and every function that uses a module-level parser variable (`parser.add_argument(…)` in
 * `main()`, also from another module). Calls into repository functions are followed (up to {@link MAX_CALL_DEPTH} deep) when a parser,
 * group or sub-parsers object is passed in, or when the function creates parsers (for its return
 * value). Each parser is identified by its creation site, so following a function twice adds nothing.
 *
 * Not read: flags whose spellings are not string literals (built in loops or from variables),
 * parsers built in class methods or nested functions, parser subclasses, `parents=` lists that
 * are not literal lists of known parsers, `**kwargs` passed to `add_argument` (the flag is kept,
 * its unknown keywords are not), methods called on parsers stored in containers or attributes
 * (`self.parser`, `parsers["run"]`). `-h/--help` (argparse's own) is not listed. A positional with
 * `nargs="?"`, `"*"` or `REMAINDER` is not `required` (an empty command line satisfies it, even
 * though argparse marks `*` positionals required internally). Targets: see
 * {@link FlagCommand.target}; a parser passed as `parents=[…]` is a building block, not a command.
 */
export function extractArgparse(ctx: FlagContext): FlagCommand[] {
  const state = new ArgparseState(ctx);
  for (const module of ctx.modules.values()) state.runModule(module);
  const creators: Symbol[] = [];
  for (const module of ctx.modules.values()) {
    for (const [name, fn] of module.info.functions) {
      if (fn.calls.some((call) => state.isArgumentParser(module, call.callee, fn.localBindings))) creators.push({ module, name });
    }
  }
  const followed = new Set<string>();
  const follow = (symbol: Symbol): void => {
    const key = symbolKey(symbol);
    if (followed.has(key)) return;
    followed.add(key);
    state.runFunction(symbol);
  };
  for (const creator of creators) follow(creator);
  // Functions that use a module-level parser may add arguments to it before parsing.
  for (const root of state.moduleRoots()) {
    for (const user of state.users(root)) {
      const [moduleName = '', name = ''] = user.split(':');
      const module = ctx.modules.get(moduleName);
      if (module) follow({ module, name });
    }
  }
  for (const creator of creators) {
    for (const caller of ctx.callers(creator)) {
      const [moduleName = '', name = ''] = caller.split(':');
      const module = ctx.modules.get(moduleName);
      if (module) follow({ module, name });
    }
  }
  return state.commands();
}

class ArgparseState {
  private readonly parsers = new Map<string, Parser>();
  private readonly moduleEnvs = new Map<FlagModule, Map<string, Value | undefined>>();

  constructor(private readonly ctx: FlagContext) {}

  isArgumentParser(module: FlagModule, callee: string[] | undefined, local?: Map<string, Binding>): boolean {
    const name = this.ctx.external(module, callee, local);
    return name !== undefined && ARGUMENT_PARSER.has(name);
  }

  runModule(module: FlagModule): void {
    if (this.moduleEnvs.has(module)) return;
    const env = new Map<string, Value | undefined>();
    this.moduleEnvs.set(module, env);
    const frame: Frame = { module, env, returns: [], stack: [] };
    for (const statement of module.statements) this.statement(frame, statement);
  }

  runFunction(symbol: Symbol, args: Array<Value | undefined> = [], kwargs = new Map<string, Value | undefined>(), stack: string[] = []): Value | undefined {
    const key = symbolKey(symbol);
    const entry = symbol.module.functions.get(symbol.name);
    if (!entry || stack.includes(key) || stack.length >= MAX_CALL_DEPTH) return undefined;
    const env = new Map<string, Value | undefined>();
    const parameters = entry.def.childForFieldName('parameters');
    let index = 0;
    for (const param of parameters ? namedChildren(parameters) : []) {
      const nameNode = param.type === 'identifier' ? param : param.childForFieldName('name') ?? namedChildren(param)[0];
      if (!nameNode || nameNode.type !== 'identifier') continue; // *args, **kwargs, separators
      const name = nameNode.text;
      env.set(name, kwargs.has(name) ? kwargs.get(name) : args[index]);
      index++;
    }
    const frame: Frame = {
      module: symbol.module,
      fn: symbol,
      local: symbol.module.info.functions.get(symbol.name)?.localBindings,
      env,
      returns: [],
      stack: [...stack, key],
    };
    const body = entry.def.childForFieldName('body');
    if (body) this.block(frame, body);
    return frame.returns.find((v) => v !== undefined);
  }

  private block(frame: Frame, node: Node): void {
    for (const statement of namedChildren(node)) this.statement(frame, statement);
  }

  private statement(frame: Frame, node: Node): void {
    switch (node.type) {
      case 'expression_statement':
        for (const expr of namedChildren(node)) {
          if (expr.type === 'assignment') this.assign(frame, expr);
          else if (expr.type === 'augmented_assignment') {
            const right = expr.childForFieldName('right');
            if (right) this.evaluate(frame, right);
          } else this.evaluate(frame, expr);
        }
        return;
      case 'return_statement': {
        const value = namedChildren(node)[0];
        frame.returns.push(value ? this.evaluate(frame, value) : undefined);
        return;
      }
      case 'with_statement':
        for (const item of node.descendantsOfType('with_item')) {
          const value = item?.childForFieldName('value');
          if (value) this.evaluate(frame, value.type === 'as_pattern' ? namedChildren(value)[0] ?? value : value);
        }
        break;
      case 'for_statement': {
        // The loop variable holds values unknown here; flags spelled from it are dynamic and skipped.
        const left = node.childForFieldName('left');
        if (left?.type === 'identifier') frame.env.set(left.text, undefined);
        break;
      }
      default:
        break;
    }
    if (CONTAINERS.has(node.type)) {
      for (const child of namedChildren(node)) {
        if (child.type === 'block' || CONTAINERS.has(child.type)) this.block(frame, child);
      }
    }
  }

  private assign(frame: Frame, node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!right) return;
    const value = right.type === 'assignment' ? (this.assign(frame, right), this.lookupAssigned(frame, right)) : this.evaluate(frame, right);
    if (left?.type === 'identifier') {
      frame.env.set(left.text, value);
      if (!frame.fn && value?.kind === 'parser' && value.parser.root === value.parser && !value.parser.variables.includes(left.text)) {
        value.parser.variables.push(left.text);
      }
    } else if (left) {
      // `a, b = …` rebinds a and b; `vars(parser)["x"] = …` and `parser.x = …` rebind nothing.
      for (const name of boundNames(left)) frame.env.set(name, undefined);
      // `group.add_argument("--file").complete = shtab.FILE` (shtab completion) still adds the flag.
      const target = left.type === 'attribute' ? left.childForFieldName('object') : left.type === 'subscript' ? left.childForFieldName('value') : null;
      if (target?.type === 'call') this.evaluate(frame, target);
    }
  }

  /** The value the innermost target of a chained assignment (`a = b = X`) received. */
  private lookupAssigned(frame: Frame, node: Node): Value | undefined {
    const left = node.childForFieldName('left');
    return left?.type === 'identifier' ? frame.env.get(left.text) : undefined;
  }

  private lookup(frame: Frame, name: string): Value | undefined {
    if (frame.env.has(name)) return frame.env.get(name);
    const moduleEnv = this.moduleEnvs.get(frame.module);
    if (frame.fn && moduleEnv?.has(name)) return moduleEnv.get(name);
    // A parser imported from another module (`from .cli import parser`).
    const symbol = this.ctx.symbol(frame.module, [name], frame.local);
    if (symbol && symbol.module !== frame.module) {
      this.runModule(symbol.module);
      return this.moduleEnvs.get(symbol.module)?.get(symbol.name);
    }
    return undefined;
  }

  private evaluate(frame: Frame, node: Node): Value | undefined {
    const n = unparen(node);
    switch (n.type) {
      case 'identifier':
        return this.lookup(frame, n.text);
      case 'call':
        return this.call(frame, n);
      case 'list':
      case 'tuple':
        return { kind: 'list', items: namedChildren(n).map((item) => this.evaluate(frame, item)) };
      default:
        // Calls nested in other expressions (`cmds["run"] = sub.add_parser("run")` is handled by
        // `assign`; `print(sub.add_parser("x"))` is not worth it) are not followed.
        return undefined;
    }
  }

  private call(frame: Frame, node: Node): Value | undefined {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    const args = callArgs(node);
    if (fn.type === 'attribute') {
      const objectNode = fn.childForFieldName('object');
      const method = fn.childForFieldName('attribute')?.text ?? '';
      const target = objectNode ? this.evaluate(frame, objectNode) : undefined;
      if (target && target.kind !== 'list') return this.method(frame, node, target, method, args);
    }
    if (this.isArgumentParser(frame.module, args.callee, frame.local)) return this.createRoot(frame, node, args);
    const symbol = this.ctx.symbol(frame.module, args.callee, frame.local);
    const values = args.positional.map((arg) => this.evaluate(frame, arg));
    const kwargs = new Map<string, Value | undefined>();
    for (const [name, arg] of args.keywords) kwargs.set(name, this.evaluate(frame, arg));
    if (!symbol || !symbol.module.functions.has(symbol.name)) return undefined;
    const passesObject = [...values, ...kwargs.values()].some((v) => v !== undefined);
    const raw = symbol.module.info.functions.get(symbol.name);
    const createsParsers = raw?.calls.some((c) => this.isArgumentParser(symbol.module, c.callee, raw.localBindings)
      || this.returnsParser(symbol, c.callee, raw.localBindings)) ?? false;
    if (!passesObject && !createsParsers) return undefined;
    return this.runFunction(symbol, values, kwargs, frame.stack);
  }

  /** True when a callee inside `owner` is itself a function that creates a parser (one level), so its result matters. */
  private returnsParser(owner: Symbol, callee: string[], local?: Map<string, Binding>): boolean {
    const symbol = this.ctx.symbol(owner.module, callee, local);
    const raw = symbol ? this.ctx.rawFunction(symbol) : undefined;
    return symbol !== undefined && raw !== undefined
      && raw.calls.some((c) => this.isArgumentParser(symbol.module, c.callee, raw.localBindings));
  }

  private method(frame: Frame, node: Node, target: Exclude<Value, { kind: 'list' }>, method: string, args: CallArgs): Value | undefined {
    const parser = target.parser;
    if (target.kind === 'subparsers') {
      if (method === 'add_parser') return this.createSubParser(frame, node, parser, args);
      return undefined;
    }
    switch (method) {
      case 'add_argument':
        this.addArgument(frame, node, parser, args);
        return undefined;
      case 'add_argument_group':
      case 'add_mutually_exclusive_group':
        return { kind: 'group', parser };
      case 'add_subparsers':
        return target.kind === 'parser' ? { kind: 'subparsers', parser } : undefined;
      default:
        return undefined;
    }
  }

  private createRoot(frame: Frame, node: Node, args: CallArgs): Value {
    const key = `${frame.module.info.file}:${node.startIndex}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      const prefix = args.keywords.get('prefix_chars');
      const prog = args.keywords.get('prog') ?? args.positional[0];
      const progText = prog ? stringValue(prog) : undefined;
      const created: Parser = {
        key,
        path: [],
        aliases: [],
        params: new Map(),
        location: locate(frame.module, node),
        prefixChars: (prefix ? stringValue(prefix) : undefined) || '-',
        root: undefined as unknown as Parser,
        module: frame.module,
        variables: [],
        isParent: false,
        ...(frame.fn ? { creator: frame.fn } : {}),
        ...(progText !== undefined ? { prog: progText } : {}),
      };
      created.root = created;
      parser = created;
      this.parsers.set(key, parser);
    }
    this.inheritParents(frame, parser, args);
    return { kind: 'parser', parser };
  }

  private createSubParser(frame: Frame, node: Node, parent: Parser, args: CallArgs): Value | undefined {
    const nameNode = args.positional[0] ?? args.keywords.get('name');
    const name = nameNode ? stringValue(nameNode) : undefined;
    if (name === undefined) return undefined; // a sub-command named at run time
    const key = `${parent.key}>${frame.module.info.file}:${node.startIndex}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      const aliases = readChoices(args.keywords.get('aliases')) ?? [];
      const prefix = args.keywords.get('prefix_chars');
      parser = {
        key,
        path: [...parent.path, name],
        aliases,
        params: new Map(),
        location: locate(frame.module, node),
        prefixChars: (prefix ? stringValue(prefix) : undefined) || '-',
        root: parent.root,
        module: parent.module,
        variables: [],
        isParent: false,
      };
      this.parsers.set(key, parser);
    }
    this.inheritParents(frame, parser, args);
    return { kind: 'parser', parser };
  }

  /** `parents=[a, b]`: argparse copies the parents' arguments when the parser is built. */
  private inheritParents(frame: Frame, parser: Parser, args: CallArgs): void {
    const node = args.keywords.get('parents');
    const parents = node ? this.evaluate(frame, node) : undefined;
    if (parents?.kind !== 'list') return;
    for (const item of parents.items) {
      if (item?.kind !== 'parser' || item.parser === parser) continue;
      item.parser.isParent = true;
      for (const [key, spec] of item.parser.params) if (!parser.params.has(key)) parser.params.set(key, spec);
    }
  }

  private addArgument(frame: Frame, node: Node, parser: Parser, args: CallArgs): void {
    const key = `${frame.module.info.file}:${node.startIndex}`;
    if (parser.params.has(key)) return;
    const names = spellings(args.positional);
    if (!names || names.length === 0) return; // spelled at run time
    const prefix = parser.prefixChars;
    const kw = (name: string): Node | undefined => args.keywords.get(name);
    const externalOf = (n: Node | undefined): string | undefined => {
      const value = n ? readValue(n) : undefined;
      return value?.dotted ? this.ctx.external(frame.module, value.dotted, frame.local) : undefined;
    };
    const help = kw('help');
    const hidden = externalOf(help) === SUPPRESS;
    const description = help && !hidden ? stringValue(help) : undefined;
    const actionNode = kw('action');
    const action = actionNode ? stringValue(actionNode) ?? externalOf(actionNode) : undefined;
    const typeNode = kw('type');
    let type = typeNode?.text;
    const defaultNode = kw('default');
    let defaultValue = defaultNode && externalOf(defaultNode) !== SUPPRESS ? toDefault(readValue(defaultNode)) : undefined;
    const negatable = action === BOOLEAN_OPTIONAL;
    if (action === 'store_true' || action === 'store_false' || negatable) {
      type ??= 'bool';
      if (!defaultNode && action !== BOOLEAN_OPTIONAL) defaultValue = literalDefault(action === 'store_true' ? 'False' : 'True');
    } else if (action === 'count') {
      type ??= 'int';
    }
    const choices = readChoices(kw('choices'));
    const deprecated = boolOrString(kw('deprecated'));
    const first = names[0]!;
    const positional = !prefix.includes(first.text[0] ?? '');
    let spec: ParamSpec;
    if (positional) {
      const nargsNode = kw('nargs');
      const nargs = nargsNode ? stringValue(nargsNode) : undefined;
      const optionalCount = nargs === '?' || nargs === '*' || (nargsNode !== undefined && externalOf(nargsNode) === REMAINDER);
      spec = flagSpec({
        name: first.text,
        aliases: [],
        ...(type !== undefined ? { type } : {}),
        ...(defaultValue ? { default: defaultValue } : {}),
        required: !optionalCount,
        ...(description !== undefined ? { description } : {}),
        deprecated: deprecated ?? false,
        hidden,
        location: locate(frame.module, first.node),
        dest: first.text,
        ...(choices ? { choices } : {}),
        positional: true,
      });
    } else {
      const primary = names.find((n) => isLong(n.text, prefix)) ?? first;
      const name = stripPrefix(primary.text, prefix);
      const aliases: string[] = [];
      for (const other of names) {
        const bare = stripPrefix(other.text, prefix);
        if (other !== primary && bare !== name && !aliases.includes(bare)) aliases.push(bare);
      }
      const destNode = kw('dest');
      const dest = (destNode ? stringValue(destNode) : undefined) ?? name.replaceAll('-', '_');
      const required = isTrue(kw('required'));
      spec = flagSpec({
        name,
        aliases,
        ...(type !== undefined ? { type } : {}),
        ...(defaultValue ? { default: defaultValue } : {}),
        required,
        ...(description !== undefined ? { description } : {}),
        deprecated: deprecated ?? false,
        hidden,
        location: locate(frame.module, primary.node),
        dest,
        ...(choices ? { choices } : {}),
        negatable,
      });
    }
    parser.params.set(key, spec);
  }

  /** Every parser that is not only a parent, as commands: one per target the program can be named by. */
  commands(): FlagCommand[] {
    const out: FlagCommand[] = [];
    for (const parser of this.parsers.values()) {
      if (parser.isParent || parser.root.isParent) continue;
      const root = parser.root;
      const label = root.prog ?? root.creator?.name ?? root.module.info.module;
      const owner = [label, ...parser.path].join(' ');
      const params = [...parser.params.values()].map((spec) => ({ ...spec, owner }));
      for (const target of this.targets(root)) {
        out.push({
          path: parser.path,
          ...(parser.aliases.length > 0 ? { aliases: parser.aliases } : {}),
          target,
          params,
          location: parser.location,
        });
      }
    }
    return out;
  }

  /**
   * The creator function and every top-level function calling it; for a module-level parser, the
   * functions (of any module) that call a method of its variable, else the bare module name.
   */
  private targets(root: Parser): string[] {
    if (root.creator) return [symbolKey(root.creator), ...this.ctx.callers(root.creator)];
    const out = this.users(root);
    return out.length > 0 ? out : [root.module.info.module];
  }

  /**
   * Top-level functions, in any module, that call a method of a module-level parser variable
   * (`parser.parse_args()`, `cli.parser.add_argument(...)` after `import pkg.cli as cli`).
   */
  users(root: Parser): string[] {
    const out: string[] = [];
    for (const variable of root.variables) {
      const wanted = { module: root.module, name: variable };
      for (const module of this.ctx.modules.values()) {
        for (const [name, fn] of module.info.functions) {
          const uses = fn.calls.some((call) => call.callee.length > 1
            && this.ctx.sameSymbol(this.ctx.symbol(module, call.callee.slice(0, -1), fn.localBindings), wanted));
          const key = `${module.info.module}:${name}`;
          if (uses && !out.includes(key)) out.push(key);
        }
      }
    }
    return out;
  }

  /** Module-level roots (parsers not created inside a function). */
  moduleRoots(): Parser[] {
    return [...this.parsers.values()].filter((p) => p.root === p && !p.creator);
  }
}

/** The names an assignment target binds: identifiers of (nested) tuple/list patterns, never those inside subscripts or attributes. */
function boundNames(target: Node): string[] {
  switch (target.type) {
    case 'identifier':
      return [target.text];
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'list_splat_pattern':
    case 'parenthesized_expression':
    case 'tuple':
    case 'list':
      return namedChildren(target).flatMap(boundNames);
    default:
      return [];
  }
}
