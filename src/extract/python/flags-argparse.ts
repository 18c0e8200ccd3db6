/** argparse flags: follows parsers, argument groups, parents and sub-parsers through the statements of module-level code and top-level functions (and the helpers they pass parsers to), without running Python. */
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import {
  boolOrString, callArgs, flagSpec, isLong, isTrue, literalDefault, locate, MAX_MODULE_COMMANDS, moduleCommandsCut, readChoices, spellings, stripPrefix, symbolKey, toDefault, unreadAt,
  type CallArgs, type FlagContext, type FlagModule, type Spelling, type Symbol,
} from './flags-common.js';
import {
  Budget, EVAL_LIMITS, constEquals, constTruthy, fStringParts, literalConst, overrideKey, pyStr, strMethod, stringNodes, type ConstValue,
} from './partial-eval.js';
import type { FlagCommand, UnreadFlags } from './types.js';
import type { Binding, RawClass } from './scan.js';
import { allChildren, dottedName, identifierText, namedChildren, pythonIdentifier, readValue, stringValue, unparen } from './values.js';
import { isInitFalseField } from './fields.js';

/** argparse's parser and drop-in subclasses with the same `add_argument` API (ConfigArgParse). */
const ARGUMENT_PARSER = new Set(['argparse.ArgumentParser', 'configargparse.ArgumentParser', 'configargparse.ArgParser', 'jsonargparse.ArgumentParser']);
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
  /** argparse `allow_abbrev` (True unless the creating call passes anything but a literal `True`). */
  allowAbbrev: boolean;
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
  /**
   * Some arguments of its `parents=` were not copied (over {@link MAX_PARSER_PARAMS}, or the
   * file's {@link MAX_INHERITED_PARAMS}): its flags are not all known (listed as passing unknown flags on).
   */
  paramsCut?: boolean;
  /**
   * A positional takes `nargs=argparse.REMAINDER`: every word after it, flags included, is handed
   * on (twine's `command` + `args` dispatch to registered sub-commands), so flags written after
   * it in an example are not this parser's (listed as passing unknown flags on).
   */
  passesRest?: boolean;
  /** `module:function` targets the parser's `set_defaults(...)` dispatch to (see {@link FlagCommand.dispatch}). */
  dispatch: string[];
  /**
   * Config fields that flags set, by param key, from the override a flag's record writes
   * (see `invokeMember`). Applied as the flag's `dest` when no other flag of the parser writes
   * the same key (`--config` and `--benchmark` both appending to `config_paths` own neither).
   */
  fields: Map<string, string>;
  /** The first `add_argument` whose names docdrift could not compute (see {@link FlagCommand.unreadFlags}). */
  unread?: UnreadFlags;
  /** Some of its `add_parser` calls were not read (its file passed {@link MAX_MODULE_COMMANDS}): its sub-commands are not all known. */
  subcommandsCut?: boolean;
}

/** The arguments of a call through a `functools.partial`: the bound ones, then the call's own (keywords override, as Python's `partial` does). */
function boundArgs(bound: CallArgs, call: CallArgs): CallArgs {
  return {
    callee: bound.callee,
    positional: [...bound.positional, ...call.positional],
    keywords: new Map([...bound.keywords, ...call.keywords]),
    hasSplat: bound.hasSplat || call.hasSplat,
  };
}

/** A Python object the partial evaluator knows: argparse objects, data, objects of repository classes, callables. */
type Value =
  | { kind: 'parser'; parser: Parser }
  | { kind: 'group'; parser: Parser }
  | { kind: 'subparsers'; parser: Parser }
  /** A list or tuple. */
  | { kind: 'list'; items: Array<Value | undefined> }
  | ConstValue
  /** A dict with scalar keys (insertion order), mutable like Python's. */
  | { kind: 'dict'; keys: Map<string, ConstValue>; values: Map<string, Value | undefined> }
  /** An instance of a repository class built by its constructor's keywords (a dataclass-like record). */
  | { kind: 'object'; cls: string; fields: Map<string, Value | undefined> }
  /** A `lambda` and the frame it closes over. */
  | { kind: 'lambda'; node: Node; closure: Frame }
  /** A top-level repository function used as a value (`register=_register_flags`, `set_defaults(func=run)`). */
  | { kind: 'function'; symbol: Symbol }
  /**
   * `functools.partial(argparse.ArgumentParser, add_help=False, …)`: calling it makes a parser with
   * the arguments bound here followed by the call's own (pypa/build's `make_parser()`).
   */
  | { kind: 'parser-factory'; args: CallArgs };

type ParserValue = Extract<Value, { kind: 'parser' | 'group' | 'subparsers' }>;

interface Frame {
  module: FlagModule;
  /** The top-level function being followed; absent for module-level code. */
  fn?: Symbol;
  local?: Map<string, Binding>;
  env: Map<string, Value | undefined>;
  /** The enclosing frame of a lambda (its closure), searched after `env`. */
  parent?: Frame;
  returns: Array<Value | undefined>;
  /** Functions on the call stack, to stop recursion. */
  stack: string[];
}

/** argparse parser methods whose arguments matter only when the parser is known. */
const PARSER_METHODS: ReadonlySet<string> = new Set(['add_argument', 'add_argument_group', 'add_mutually_exclusive_group', 'set_defaults', 'add_subparsers', 'add_parser']);

/** How control leaves a block whose conditions were all known: `continue`, `break`, `return`. */
type Signal = 'continue' | 'break' | 'return' | undefined;

/** How deep statements, expressions and calls are followed together before a value is unknown (#33 item 3). */
const MAX_EVAL_DEPTH = 250;
/** Arguments a parser takes from its `parents=` at most (real parsers have a few hundred). */
export const MAX_PARSER_PARAMS = 2_000;
/** Arguments copied from `parents=` over one evaluator's parsers at most (its total work). */
export const MAX_INHERITED_PARAMS = 200_000;
/** The most a loop over known items may cost (items × syntax nodes of its body) to be unrolled once its file's budget is spent. */
const MAX_LITERAL_LOOP_COST = 10_000;
/** How deep calls into helper functions and lambdas are followed. */
const MAX_CALL_DEPTH = 8;
/** A helper called with only known values is evaluated when its body has at most this many statements. */
const MAX_HELPER_STATEMENTS = 40;


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
 * Values are computed by a bounded partial evaluator (never by running code): literals, tuples,
 * lists, dicts, f-strings over known values, `str` methods (`replace`, `split`…), `len`,
 * comparisons, helper calls whose arguments are all known (bodies of at most
 * {@link MAX_HELPER_STATEMENTS} statements), lambdas and the records that hold them
 * (`Command(flags=(Flag(register=lambda p: p.add_argument(…)),))`), `for` loops over known
 * collections (at most `EVAL_LIMITS.loopIterations` items) and `if`s on known conditions, within
 * `EVAL_LIMITS.steps` steps per file (its module code and the functions followed from it share
 * them) and `EVAL_LIMITS.runSteps` in all; computed strings and lists are capped in length and in
 * total size (`EVAL_LIMITS`): past a limit a value is unknown. When a file's steps run out, the
 * rest of it is read literally under a second budget of the same size (loops not unrolled, unless
 * small, helpers with known values not evaluated), so flags written as literals are still read;
 * `diagnostics` gets a `parse-error` warning naming where it ran out. A `while`, or a `for` over
 * an unknown collection, runs its body once with every name it assigns unknown. A list or dict
 * changed by `append`/`extend`/`insert`/`update`/`[k] = …` where that certainly runs is changed
 * here too; changed any other way (another method, `del`, `+=`, in a branch or loop that may not
 * run, by a repository function that is called but not run: read from its body, and from those it
 * calls) it is unknown from then on, never a stale value (#33 sweep D10). A record whose other lambda writes one override
 * `"+key=…"` maps its flag onto the config field `key` (`dest`); `set_defaults(...)` gives the
 * `module:function` targets a sub-command dispatches to ({@link FlagCommand.dispatch}).
 *
 * Not read: flags whose spellings the evaluator cannot compute (the parser, and those it is a
 * parent of, are marked with the first such `add_argument`: `unreadFlags`), parsers built in class methods or nested functions, parser subclasses, `parents=` lists that
 * are not literal lists of known parsers, `**kwargs` passed to `add_argument` (the flag is kept,
 * its unknown keywords are not), methods called on parsers stored in containers or attributes
 * (`self.parser`, `parsers["run"]`). `-h/--help` (argparse's own) is not listed. A positional with
 * `nargs="?"`, `"*"` or `REMAINDER` is not `required` (an empty command line satisfies it, even
 * though argparse marks `*` positionals required internally). Targets: see
 * {@link FlagCommand.target}; a parser passed as `parents=[…]` is a building block, not a command.
 */
export function extractArgparse(ctx: FlagContext, diagnostics: InputDiagnostic[] = []): FlagCommand[] {
  const state = new ArgparseState(ctx);
  for (const module of ctx.modules.values()) {
    state.useBudgetOf(module);
    state.runModule(module);
  }
  const creators: Symbol[] = [];
  for (const module of ctx.modules.values()) {
    for (const [name, fn] of module.info.functions) {
      // A parser made directly, or through `functools.partial(argparse.ArgumentParser, …)`.
      const creates = (call: (typeof fn.calls)[number]): boolean =>
        state.isArgumentParser(module, call.callee, fn.localBindings) ||
        (ctx.external(module, call.callee, fn.localBindings) === 'functools.partial' && call.source !== undefined && /^[\w.]+$/.test(call.source) && state.isArgumentParser(module, call.source.split('.'), fn.localBindings));
      if (fn.calls.some(creates)) creators.push({ module, name });
    }
  }
  const followed = new Set<string>();
  const follow = (symbol: Symbol): void => {
    const key = symbolKey(symbol);
    if (followed.has(key)) return;
    followed.add(key);
    state.useBudgetOf(symbol.module);
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
  diagnostics.push(...state.budgetNotes(), ...state.cutNotes());
  return state.commands();
}

/** Where a file's evaluation budget ran out: the file and node being run (the outermost loop it cut, else the statement or expression). */
interface SpentAt {
  file: string;
  node: Node;
  /** True when the whole run's budget, not only the file's, was spent. */
  run: boolean;
}

class ArgparseState {
  private readonly parsers = new Map<string, Parser>();
  /** Arguments copied from `parents=` so far (bounded by {@link MAX_INHERITED_PARAMS}). */
  private inherited = 0;
  private readonly moduleEnvs = new Map<FlagModule, Map<string, Value | undefined>>();
  /** The whole run's budget, and each file's (spending from it). */
  private readonly runBudget = new Budget(EVAL_LIMITS.runSteps, undefined, EVAL_LIMITS.runAllocation);
  private readonly fileBudgets = new Map<FlagModule, Budget>();
  private budget = this.runBudget;
  /**
   * Once a file's budget is spent, its code is still read, literally: loops are not unrolled
   * (names they assign are unknown), helpers called with known values only are not evaluated,
   * so the walk is linear in the code's size. That reading spends these budgets, the file's
   * and the run's, so that it is bounded too.
   */
  private readonly literalRunBudget = new Budget(EVAL_LIMITS.runSteps, undefined, EVAL_LIMITS.runAllocation);
  private readonly literalBudgets = new Map<FlagModule, Budget>();
  /** The file whose budget is being spent, and whether it is read literally (its budget ran out). */
  private budgetModule?: FlagModule;
  private literal = false;
  /** True while a loop is unrolled in a literal reading (one at a time, never nested). */
  private literalLoop = false;
  /** Files whose budget ran out, and where; and those whose literal reading ran out too. */
  private readonly spentAt = new Map<FlagModule, SpentAt>();
  private readonly literalSpentAt = new Map<FlagModule, SpentAt>();
  /** Current nesting of `evaluate` and `statement` (bounded by {@link MAX_EVAL_DEPTH}). */
  private depth = 0;
  private readonly parserClasses = new Map<string, boolean>();
  /**
   * Lists and dicts mutated in a way the evaluator does not follow (a method it does not model,
   * `del x[k]`, `x += …`, a repository function that mutates them and is not run): their value is
   * unknown from then on, wherever they are read from (#33 sweep D10: `G = []`, `def f():
   * G.append(1)`, `f()` made `len(G)` read 0, CPython 1).
   */
  private readonly poisoned = new WeakSet<object>();
  /** > 0 while a block runs that may run zero or several times (a branch on an unknown condition, a loop of unknown trips). */
  private uncertain = 0;
  /** What each repository function's body may do to module-level names ({@link effectsOf}), by `module:name`. */
  private readonly effects = new Map<string, Effects>();
  /** Sub-parsers made per file (bounded by {@link MAX_MODULE_COMMANDS}), and the warning of each file past it. */
  private readonly subParsersMade = new Map<FlagModule, number>();
  private readonly cutModules = new Map<FlagModule, InputDiagnostic>();

  /** One `parse-error` warning per file whose sub-parsers passed {@link MAX_MODULE_COMMANDS}. */
  cutNotes(): InputDiagnostic[] {
    return [...this.cutModules.values()];
  }

  constructor(private readonly ctx: FlagContext) {}

  /** Starts a top-level run (module code or a function) of `module`'s file: it spends that file's budget. */
  useBudgetOf(module: FlagModule): void {
    this.budgetModule = module;
    this.literal = this.spentAt.has(module);
    if (this.literal) {
      this.budget = this.literalBudgets.get(module)!;
      return;
    }
    let budget = this.fileBudgets.get(module);
    if (!budget) this.fileBudgets.set(module, (budget = new Budget(EVAL_LIMITS.steps, this.runBudget)));
    this.budget = budget;
  }

  /**
   * Spends one step of the current file's budget. When it runs out, the file is read literally
   * from here on (see {@link literalBudgets}) and the place is kept for the note; false only once
   * the literal reading's budget is spent too.
   */
  private tick(frame: Frame, node: Node): boolean {
    if (this.budget.tick()) return true;
    const module = this.budgetModule;
    if (!module) return false;
    if (this.literal) {
      if (!this.literalSpentAt.has(module)) this.literalSpentAt.set(module, { file: frame.module.info.file, node, run: this.literalRunBudget.spent });
      return false;
    }
    this.spentAt.set(module, { file: frame.module.info.file, node, run: this.runBudget.spent });
    this.literal = true;
    const literal = new Budget(EVAL_LIMITS.steps, this.literalRunBudget);
    this.literalBudgets.set(module, literal);
    this.budget = literal;
    return this.budget.tick();
  }

  /**
   * One `parse-error` warning per file whose evaluation budget ran out (#33 sweep D1): where,
   * which budget, and what became unknown; and one more when its literal reading ran out too.
   */
  budgetNotes(): InputDiagnostic[] {
    const notes: InputDiagnostic[] = [];
    const note = (at: SpentAt, message: string): void => {
      const line = at.node.startPosition.row + 1;
      const column = at.node.startPosition.column + 1;
      notes.push({ ruleId: 'parse-error', severity: 'warn', message: `${at.file}:${line}:${column}: ${message}`, location: { file: at.file, line, column } });
    };
    const runSpent = [...this.spentAt.values()].filter((at) => at.run).length;
    let runNoted = false;
    for (const [module, at] of this.spentAt) {
      if (at.run && runNoted) continue; // once the run's budget is spent, every later file is read literally: one note
      runNoted ||= at.run;
      const others = at.run && runSpent > 1 ? ` (and the ${runSpent - 1} files evaluated after it are read the same way)` : '';
      const n = (x: number): string => x.toLocaleString('en-US');
      const budget = at.run
        ? `the run's argparse evaluation budget (${n(EVAL_LIMITS.runSteps)} steps, ${n(EVAL_LIMITS.runAllocation)} characters or items computed)`
        : `the argparse evaluation budget of ${module.info.file} (${n(EVAL_LIMITS.steps)} steps, ${n(EVAL_LIMITS.allocation)} characters or items computed)`;
      note(at, `${budget} ran out evaluating the code here: the values it computes are unknown, and the rest of the file's argparse code is read without unrolling loops or evaluating helpers (flags written as literals are still read)${others}`);
      const cut = this.literalSpentAt.get(module);
      if (cut) note(cut, `reading ${module.info.file}'s argparse code without evaluating it spent its budget too: flags added from here on are not read`);
    }
    return notes;
  }

  /** `value` when the budget can pay for its size (string characters or list items) and it is within the caps, else unknown. */
  private sized<V extends Value>(value: V): V | undefined {
    if (value.kind === 'const' && typeof value.value === 'string') {
      // Charged even when over the cap: the string was built.
      return this.budget.allocate(value.value.length) && value.value.length <= EVAL_LIMITS.stringLength ? value : undefined;
    }
    if (value.kind === 'list') return this.budget.allocate(value.items.length) && value.items.length <= EVAL_LIMITS.listLength ? value : undefined;
    return value;
  }

  /** argparse's parser, a drop-in (ConfigArgParse), or a repository subclass of one (`class _GymArgumentParser(argparse.ArgumentParser)`). */
  isArgumentParser(module: FlagModule, callee: readonly string[] | undefined, local?: Map<string, Binding>): boolean {
    const name = this.ctx.external(module, callee, local);
    if (name !== undefined) return ARGUMENT_PARSER.has(name);
    if (!callee) return false;
    const resolved = this.ctx.resolver.resolve(module.info, callee, local);
    return resolved?.kind === 'class' && this.isParserClass(resolved.cls, 0);
  }

  private isParserClass(cls: RawClass, depth: number): boolean {
    const cached = this.parserClasses.get(cls.qualifiedName);
    if (cached !== undefined) return cached;
    if (depth > 8) return false;
    this.parserClasses.set(cls.qualifiedName, false); // cycles
    const info = this.ctx.resolver.module(cls.module);
    let result = false;
    for (const base of cls.bases) {
      if (!info || !base.dotted) continue;
      const r = this.ctx.resolver.resolve(info, base.dotted, undefined, cls.outer);
      if ((r?.kind === 'external' && ARGUMENT_PARSER.has(r.qualifiedName)) || (r?.kind === 'class' && this.isParserClass(r.cls, depth + 1))) {
        result = true;
        break;
      }
    }
    this.parserClasses.set(cls.qualifiedName, result);
    return result;
  }

  runModule(module: FlagModule): void {
    if (this.moduleEnvs.has(module)) return;
    const env = new Map<string, Value | undefined>();
    this.moduleEnvs.set(module, env);
    const frame: Frame = { module, env, returns: [], stack: [] };
    const escaping = this.escapingMutations(module);
    for (const statement of module.statements) {
      // Module-level `if`/`try` bodies are read as straight-line code; a mutation there may not happen.
      const maybe = mayNotRun(statement, module.root);
      if (maybe) this.uncertain++;
      try {
        this.statement(frame, statement);
      } finally {
        if (maybe) this.uncertain--;
      }
      // What the module may change out of order is unknown as soon as it is bound.
      if (escaping.all) for (const value of env.values()) this.poison(value);
      else for (const name of escaping.names) this.poison(env.get(name));
    }
  }

  /**
   * Module-level names whose list or dict this module may change where the evaluator does not
   * follow it in order (#33 fresh sweep s19 item 4: CPython made `--x1`…`--x6`, docdrift read
   * `len(G)` as 0): inside a class body or its methods (run when the class is defined, or
   * whenever a method is called), a lambda or a comprehension (run by whatever calls them:
   * `map`, `list`), a repository function used as a decorator or passed as a value (called at
   * definition time, or by whoever receives it), or a bound method handed on (`map(G.append, …)`).
   * `all` when the module calls `exec` or `eval`: code in a string may change anything.
   * Read from the syntax, in one walk of the module, and only when the module binds a list, dict
   * or set at module level (a module of 3,000 sub-parsers has none: no walk, no memory); names a
   * function binds locally are its own.
   */
  private escapingMutations(module: FlagModule): { names: Set<string>; all: boolean } {
    const names = new Set<string>();
    const text = module.root.text;
    // Code in a string, or the module reached as an object (`globals()["G"] = …`,
    // `setattr(sys.modules[__name__], …)`, the module importing itself): anything may change.
    // `^[ \t]*`, not `^\s*`: from every line start `\s*` ran over all the blank lines below, so a
    // module whose long comment runs are blanked (flattenCommentRuns) cost O(lines²): 10,000
    // lines, 35 s (the python-comment-run bad-input case).
    const stem = pythonFileStem(module.info.file);
    const selfImport = stem !== undefined && stem !== '__init__' && new RegExp(`^[ \\t]*(?:import\\s+(?:[\\w.]+\\.)?${stem}\\b|from\\s+[\\w.]+\\s+import\\s+(?:.*,\\s*)?${stem}\\b)`, 'm').test(text);
    let all = /\b(?:exec|eval)\s*\(|\bglobals\s*\(\s*\)|\bvars\s*\(\s*\)|\bsys\.modules\b|\bsetattr\s*\(/.test(text) || selfImport;
    const containers = [...module.assigns].filter(([, rhs]) => CONTAINER_EXPRESSIONS.has(rhs.type) || (rhs.type === 'call' && CONTAINER_CALLS.has(identifierText(rhs.childForFieldName('function')) ?? '')));
    if (all || containers.length === 0) return { names, all };
    // Nor when none of them is ever changed in place anywhere in the text (`G.append`, `G[k] =`, `G +=`).
    // Or handed to a call or kept as a default (`list.append(G, x)`, `Reg(G)`, `def f(acc=G)`).
    const containerNames = new Set(containers.map(([name]) => name));
    if (!someContainerChanged(text, containerNames)) return { names, all };
    /** Functions of the module whose body's mutations escape: used as decorators or as values. */
    const escapingFunctions = new Set<string>();
    const functionNames = [...module.functions.keys()];
    // Calls and assignments outside a deferred context matter only when their text hands on a
    // mutating method or names a module function: others are skipped without making a Node.
    const handsOnContainer = new RegExp(`[(,]\\s*(?:${[...containerNames].map((n) => n.replace(/[^\w]/g, '')).join('|')})\\s*[,)]`);
    const handsOn = new RegExp(`\\.\\s*(?:${[...MUTATING_METHODS].join('|')})\\b${functionNames.length > 0 && functionNames.length <= 500 ? `|\\b(?:${functionNames.join('|')})\\b` : functionNames.length > 500 ? '|\\w' : ''}`);
    /** A scope: whether code in it runs out of order, and (lazily) the names its function binds locally. */
    interface Scope { end: number; deferred: boolean; fn?: Node; locals?: ReadonlySet<string>; outer?: Scope }
    const localsOf = (scope: Scope): ReadonlySet<string> => {
      if (scope.locals) return scope.locals;
      if (!scope.fn) return (scope.locals = scope.outer ? localsOf(scope.outer) : new Set());
      const globals = new Set(globalNames(scope.fn));
      return (scope.locals = new Set([...assignedNames(scope.fn), ...parameterNames(scope.fn)].filter((n) => !globals.has(n))));
    };
    const mutates = (receiver: Node | null, scope: Scope): void => {
      const head = receiver ? receiverChain(receiver)?.[0] : undefined;
      if (head !== undefined && !localsOf(scope).has(head)) names.add(head);
    };
    const scopes: Scope[] = [{ end: Infinity, deferred: false, locals: new Set() }];
    // The nodes read below, in document order, from one walk in wasm: a walk with a tree cursor
    // (three calls into wasm per node of the module) was 0.37 s of a 4.2 s CPU profile of NeMo
    // Gym's flag extraction (s41). A scope (a definition, lambda or comprehension) holds the nodes
    // that start before it ends (nodes nest); it opens for the nodes inside it, not for itself.
    for (const node of module.root.descendantsOfType(ESCAPE_NODE_TYPES)) {
      if (!node) continue;
      const start = node.startIndex;
      while (scopes.length > 1 && start >= scopes[scopes.length - 1]!.end) scopes.pop();
      const scope = scopes[scopes.length - 1]!;
      const type = node.type;
      switch (type) {
        case 'default_parameter':
        case 'typed_default_parameter': {
          // `def reg(x, acc=G)`: every call without `acc` changes G through it.
          const value = node.childForFieldName('value');
          if (value?.type === 'identifier' && containerNames.has(pythonIdentifier(value.text))) names.add(pythonIdentifier(value.text));
          break;
        }
        case 'class_definition':
        case 'lambda':
        case 'list_comprehension':
        case 'set_comprehension':
        case 'dictionary_comprehension':
        case 'generator_expression':
          scopes.push({ end: node.endIndex, deferred: true, outer: scope });
          break;
        case 'function_definition':
          scopes.push({ end: node.endIndex, deferred: scope.deferred, fn: node });
          break;
        case 'decorator': {
          const expression = namedChildren(node)[0];
          const target = expression?.type === 'call' ? expression.childForFieldName('function') : expression;
          if (target?.type === 'identifier') escapingFunctions.add(pythonIdentifier(target.text));
          break;
        }
        case 'call': {
          if (!scope.deferred && !handsOn.test(node.text) && !handsOnContainer.test(node.text)) break;
          const fn = node.childForFieldName('function');
          // A container passed to a call that may keep or change it: an unbound method
          // (`list.append(G, x)`), `operator`'s in-place functions, `functools.partial`, or a
          // class (`Reg(G)`: the instance may hold it). Reading calls (`len(G)`) are not.
          const callee = fn?.text ?? '';
          if (/^(?:list|dict|set|operator|functools)\.|^(?:partial|setattr|iadd|setitem|delitem)$|^[A-Z]\w*$|\.[A-Z]\w*$/.test(callee)) {
            const args = node.childForFieldName('arguments');
            for (const arg of args ? namedChildren(args) : []) {
              const value = arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg;
              if (value?.type === 'identifier' && containerNames.has(pythonIdentifier(value.text))) mutates(value, scope);
            }
          }
          if (scope.deferred && fn?.type === 'attribute' && !PURE_DATA_METHODS.has(identifierText(fn.childForFieldName('attribute')) ?? '')) mutates(fn.childForFieldName('object'), scope);
          const list = node.childForFieldName('arguments');
          for (const arg of list ? namedChildren(list) : []) {
            const value = arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg;
            // A repository function passed as an argument (`map(f, …)`, `atexit.register(f)`) is called by the receiver.
            if (value?.type === 'identifier' && module.functions.has(pythonIdentifier(value.text)) && !localsOf(scope).has(pythonIdentifier(value.text))) escapingFunctions.add(pythonIdentifier(value.text));
            // A bound mutating method handed on (`map(G.append, xs)`).
            if (value?.type === 'attribute' && MUTATING_METHODS.has(identifierText(value.childForFieldName('attribute')) ?? '')) mutates(value.childForFieldName('object'), scope);
          }
          break;
        }
        case 'assignment':
        case 'augmented_assignment': {
          if (!scope.deferred && !handsOn.test(node.text)) break;
          // A bound mutating method kept under another name (`add = G.append`).
          const right = node.childForFieldName('right');
          if (right?.type === 'attribute' && MUTATING_METHODS.has(identifierText(right.childForFieldName('attribute')) ?? '')) mutates(right.childForFieldName('object'), scope);
          if (!scope.deferred) break;
          const left = node.childForFieldName('left');
          const targets = left ? (left.type === 'identifier' || left.type === 'subscript' || left.type === 'attribute' ? [left] : namedChildren(left)) : [];
          for (const target of targets) if (target.type === 'subscript' || target.type === 'attribute' || type === 'augmented_assignment') mutates(target, scope);
          break;
        }
        case 'delete_statement':
          if (scope.deferred) for (const target of namedChildren(node).flatMap((t) => (t.type === 'expression_list' ? namedChildren(t) : [t]))) if (target.type !== 'identifier') mutates(target, scope);
          break;
        default:
          break;
      }
    }
    // A function called out of order (a decorator, a callback) may change what its body, and the functions it calls, change.
    for (const name of escapingFunctions) {
      if (!module.functions.has(name)) continue;
      for (const s of this.effectsOf({ module, name }).mutated) if (s.module === module) names.add(s.name);
    }
    return { names, all };
  }

  runFunction(symbol: Symbol, args: Array<Value | undefined> = [], kwargs = new Map<string, Value | undefined>(), stack: string[] = []): Value | undefined {
    const key = symbolKey(symbol);
    const entry = symbol.module.functions.get(symbol.name);
    if (!entry || stack.includes(key) || stack.length >= MAX_CALL_DEPTH) return undefined;
    const moduleFrame: Frame = { module: symbol.module, env: new Map(), returns: [], stack };
    const env = this.bindParameters(moduleFrame, entry.def.childForFieldName('parameters'), args, kwargs);
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
    // A name declared `global` and bound here was bound in this frame: the module's is unknown now.
    const moduleEnv = this.moduleEnvs.get(symbol.module);
    for (const name of globalNames(entry.def)) if (frame.env.has(name) && moduleEnv?.has(name)) moduleEnv.set(name, undefined);
    return frame.returns.find((v) => v !== undefined);
  }

  /** False when {@link runFunction} would refuse `symbol` (recursion, or {@link MAX_CALL_DEPTH}). */
  private canRun(symbol: Symbol, stack: string[]): boolean {
    return symbol.module.functions.has(symbol.name) && !stack.includes(symbolKey(symbol)) && stack.length < MAX_CALL_DEPTH;
  }

  /** Marks a list or dict as changed in a way not followed (see {@link poisoned}); other values are left alone. */
  private poison(value: Value | undefined): void {
    if (value?.kind === 'list' || value?.kind === 'dict') this.poisoned.add(value);
  }

  /** The container a subscript or attribute target writes into (`d` of `d["a"]["b"]`, of `d.x`), if known. */
  private receiverValue(frame: Frame, target: Node): Value | undefined {
    const n = unparen(target);
    const inner = n.type === 'subscript' ? n.childForFieldName('value') : n.type === 'attribute' ? n.childForFieldName('object') : null;
    if (!inner) return undefined;
    // `d["a"]["b"] = 1` changes `d["a"]`, which `d` holds: both are changed.
    const outer = unparen(inner).type === 'subscript' || unparen(inner).type === 'attribute' ? this.receiverValue(frame, inner) : undefined;
    this.poison(outer);
    return this.evaluate(frame, inner);
  }

  /**
   * A method that may change a known list or dict: `append`, `extend`, `insert` (lists) and
   * `update` (dicts) are applied when the call certainly runs once with known arguments and the
   * result stays within the size caps; any other method, or those in a branch or loop that may run
   * zero or several times, makes the container unknown.
   */
  private mutate(target: Extract<Value, { kind: 'list' | 'dict' }>, method: string, read: { positional: Array<Value | undefined>; kwargs: Map<string, Value | undefined>; unknown: boolean }): void {
    const args = read.positional;
    const certain = this.uncertain === 0 && !read.unknown && !this.literal;
    if (certain && target.kind === 'list' && read.kwargs.size === 0) {
      if (method === 'append' && args.length === 1 && target.items.length < EVAL_LIMITS.listLength && this.budget.allocate(1)) {
        target.items.push(args[0]);
        return;
      }
      const more = args[0];
      if (method === 'extend' && args.length === 1 && more?.kind === 'list' && more.items.length + target.items.length <= EVAL_LIMITS.listLength && this.budget.allocate(more.items.length)) {
        target.items.push(...more.items);
        return;
      }
      const at = args[0];
      if (method === 'insert' && args.length === 2 && at?.kind === 'const' && typeof at.value === 'number' && Number.isInteger(at.value)
        && target.items.length < EVAL_LIMITS.listLength && this.budget.allocate(1)) {
        const n = target.items.length;
        const index = at.value < 0 ? Math.max(0, n + at.value) : Math.min(n, at.value);
        target.items.splice(index, 0, args[1]);
        return;
      }
    }
    if (certain && target.kind === 'dict' && method === 'update' && args.length <= 1) {
      const from = args[0];
      if (args.length === 0 || from?.kind === 'dict') {
        for (const [k, key] of from?.kind === 'dict' ? from.keys : []) {
          target.keys.set(k, key);
          target.values.set(k, from!.kind === 'dict' ? from!.values.get(k) : undefined);
        }
        for (const [name, value] of read.kwargs) {
          const key: ConstValue = { kind: 'const', value: name };
          target.keys.set(dictKey(key), key);
          target.values.set(dictKey(key), value);
        }
        return;
      }
    }
    this.poison(target);
  }

  /**
   * What a repository function's body may do to module-level names, read from its syntax (not
   * run): lists and dicts it may mutate (`G.append(…)`, `G[k] = …`, `del G[k]`, through the
   * repository functions it calls, up to {@link MAX_CALL_DEPTH} deep), names it rebinds (`global
   * G`), and whether it may mutate an object passed to it. Memoised; a cycle adds nothing.
   */
  private effectsOf(symbol: Symbol, depth = 0): Effects {
    const key = symbolKey(symbol);
    const known = this.effects.get(key);
    if (known) return known;
    const effects: Effects = { mutated: [], rebound: [], mutatesParams: false };
    this.effects.set(key, effects); // a cycle sees what is found so far
    const def = symbol.module.functions.get(symbol.name)?.def;
    if (!def || depth >= MAX_CALL_DEPTH) return effects;
    const module = symbol.module;
    const local = module.info.functions.get(symbol.name)?.localBindings;
    const globals = new Set(globalNames(def));
    const params = new Set(parameterNames(def));
    const locals = new Set([...assignedNames(def), ...params].filter((n) => !globals.has(n)));
    const seen = new Set<string>();
    const add = (list: Symbol[], s: Symbol | undefined): void => {
      if (s && !seen.has(`${list === effects.mutated ? 'm' : 'r'}:${symbolKey(s)}`)) {
        seen.add(`${list === effects.mutated ? 'm' : 'r'}:${symbolKey(s)}`);
        list.push(s);
      }
    };
    /** The module-level name a receiver (`G`, `G["a"]`, `mod.G.x`) designates, or that it mutates a parameter. */
    const mutates = (receiver: Node): void => {
      const chain = receiverChain(receiver);
      if (!chain) return;
      const head = chain[0]!;
      if (params.has(head) && !globals.has(head)) effects.mutatesParams = true;
      if (locals.has(head)) return;
      add(effects.mutated, this.ctx.symbol(module, chain, local) ?? this.ctx.symbol(module, [head], local));
    };
    const body = def.childForFieldName('body');
    for (const { node, type } of stackWalkOrder(body ? [body] : [], EFFECT_NODE_TYPES)) {
      switch (type) {
        case 'call': {
          const fn = node.childForFieldName('function');
          const dotted = fn ? dottedName(fn) : undefined;
          const callee = dotted ? this.ctx.symbol(module, dotted, local) : undefined;
          if (callee && callee.module.functions.has(callee.name)) {
            const inner = this.effectsOf(callee, depth + 1);
            for (const s of inner.mutated) add(effects.mutated, s);
            for (const s of inner.rebound) add(effects.rebound, s);
            const list = node.childForFieldName('arguments');
            if (inner.mutatesParams && list) {
              for (const arg of namedChildren(list)) {
                const value = arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg.type.endsWith('splat') ? namedChildren(arg)[0] : arg;
                if (value) mutates(value);
              }
            }
          } else if (fn?.type === 'attribute') {
            const method = identifierText(fn.childForFieldName('attribute')) ?? '';
            const object = fn.childForFieldName('object');
            if (object && !PURE_DATA_METHODS.has(method)) mutates(object);
          }
          break;
        }
        case 'assignment':
        case 'augmented_assignment': {
          const left = node.childForFieldName('left');
          const targets = left ? (left.type === 'identifier' || left.type === 'subscript' || left.type === 'attribute' ? [left] : namedChildren(left)) : [];
          for (const target of targets) {
            if (target.type === 'identifier') {
              if (globals.has(pythonIdentifier(target.text))) {
                add(effects.rebound, this.ctx.symbol(module, [pythonIdentifier(target.text)], local));
                if (type === 'augmented_assignment') add(effects.mutated, this.ctx.symbol(module, [pythonIdentifier(target.text)], local));
              }
            } else if (target.type === 'subscript' || target.type === 'attribute') mutates(target);
          }
          break;
        }
        case 'delete_statement':
          for (const target of namedChildren(node).flatMap((t) => (t.type === 'expression_list' ? namedChildren(t) : [t]))) {
            if (target.type === 'identifier') {
              if (globals.has(pythonIdentifier(target.text))) add(effects.rebound, this.ctx.symbol(module, [pythonIdentifier(target.text)], local));
            } else mutates(target);
          }
          break;
        default:
          break;
      }
    }
    return effects;
  }

  /** Applies a function's {@link Effects} when it is called but not run: what it may mutate or rebind is unknown from here on. */
  private applyEffects(effects: Effects, args: Array<Value | undefined>): void {
    for (const s of effects.mutated) this.poison(this.moduleEnvs.get(s.module)?.get(s.name));
    for (const s of effects.rebound) {
      const env = this.moduleEnvs.get(s.module);
      if (env?.has(s.name)) env.set(s.name, undefined);
    }
    if (effects.mutatesParams) for (const arg of args) this.poison(arg);
  }

  /**
   * Binds call arguments to a parameter list (of a `def` or a `lambda`): positionals in order
   * until `*`/`*args`, keywords by name, and the defaults of the others (evaluated in `outer`).
   */
  private bindParameters(outer: Frame, parameters: Node | null, args: Array<Value | undefined>, kwargs: Map<string, Value | undefined>): Map<string, Value | undefined> {
    const env = new Map<string, Value | undefined>();
    let index = 0;
    let keywordOnly = false;
    for (const param of parameters ? namedChildren(parameters) : []) {
      if (param.type === 'keyword_separator' || param.type === 'list_splat_pattern') {
        keywordOnly = true;
        const name = namedChildren(param)[0];
        if (name?.type === 'identifier') env.set(pythonIdentifier(name.text), undefined);
        continue;
      }
      if (param.type === 'positional_separator') continue;
      if (param.type === 'dictionary_splat_pattern') {
        const name = namedChildren(param)[0];
        if (name?.type === 'identifier') env.set(pythonIdentifier(name.text), undefined);
        continue;
      }
      const nameNode = param.type === 'identifier' ? param : param.childForFieldName('name') ?? namedChildren(param)[0];
      if (!nameNode || nameNode.type !== 'identifier') continue;
      const name = pythonIdentifier(nameNode.text);
      const defaultNode = param.childForFieldName('value');
      if (kwargs.has(name)) env.set(name, kwargs.get(name));
      else if (!keywordOnly && index < args.length) env.set(name, args[index]);
      else env.set(name, defaultNode ? this.evaluate(outer, defaultNode) : undefined);
      if (!keywordOnly) index++;
    }
    return env;
  }

  private block(frame: Frame, node: Node): Signal {
    for (const statement of namedChildren(node)) {
      const signal = this.statement(frame, statement);
      if (signal) return signal;
    }
    return undefined;
  }

  /** Runs one statement within {@link MAX_EVAL_DEPTH} (a deeper one is skipped: its effects are unknown). */
  private statement(frame: Frame, node: Node): Signal {
    if (!this.tick(frame, node)) return 'return';
    if (this.depth >= MAX_EVAL_DEPTH) return undefined;
    this.depth++;
    try {
      return this.statementNode(frame, node);
    } finally {
      this.depth--;
    }
  }

  private statementNode(frame: Frame, node: Node): Signal {
    switch (node.type) {
      case 'expression_statement':
        for (const expr of namedChildren(node)) {
          if (expr.type === 'assignment') this.assign(frame, expr);
          else if (expr.type === 'augmented_assignment') {
            const right = expr.childForFieldName('right');
            if (right) this.evaluate(frame, right);
            const left = expr.childForFieldName('left');
            // `xs += […]` extends a list in place (every name bound to it sees the change); `d[k] += 1` mutates `d`.
            if (left?.type === 'identifier') {
              this.poison(this.evaluate(frame, left));
              frame.env.set(pythonIdentifier(left.text), undefined);
            } else if (left) this.poison(this.receiverValue(frame, left));
          } else this.evaluate(frame, expr);
        }
        return undefined;
      case 'return_statement': {
        const value = namedChildren(node)[0];
        frame.returns.push(value ? this.evaluate(frame, value) : undefined);
        return 'return';
      }
      case 'delete_statement':
        // `del xs[0]`, `del d[k]`: the container changes in a way not followed; `del x` unbinds `x`.
        for (const target of namedChildren(node).flatMap((t) => (t.type === 'expression_list' ? namedChildren(t) : [t]))) {
          if (target.type === 'identifier') frame.env.set(pythonIdentifier(target.text), undefined);
          else this.poison(this.receiverValue(frame, target));
        }
        return undefined;
      case 'continue_statement':
        return 'continue';
      case 'break_statement':
        return 'break';
      case 'with_statement':
        for (const item of node.descendantsOfType('with_item')) {
          const value = item?.childForFieldName('value');
          if (value) this.evaluate(frame, value.type === 'as_pattern' ? namedChildren(value)[0] ?? value : value);
        }
        break;
      case 'for_statement':
        return this.forStatement(frame, node);
      case 'while_statement':
        return this.whileStatement(frame, node);
      case 'if_statement':
        return this.ifStatement(frame, node);
      default:
        break;
    }
    if (CONTAINERS.has(node.type)) {
      for (const child of namedChildren(node)) {
        if (child.type === 'block' || CONTAINERS.has(child.type)) this.block(frame, child);
      }
    }
    return undefined;
  }

  /**
   * `for` over a collection whose items are known (a literal, a module constant, `d.items()`):
   * the body runs once per item with the target bound, honouring `continue`/`break`. Otherwise the
   * body runs once with the target unknown, as before.
   */
  private forStatement(frame: Frame, node: Node): Signal {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const body = node.childForFieldName('body');
    const iterable = right ? this.evaluate(frame, right) : undefined;
    const items = iterable ? iterate(iterable) : undefined;
    if (items && left && body && items.length <= EVAL_LIMITS.loopIterations && !this.literal) {
      for (const item of items) {
        this.bind(frame, left, item);
        const signal = this.block(frame, body);
        if (this.literal) {
          // The file's budget ran out in this loop: it stops here, as if its trip count were unknown.
          for (const name of [...boundNames(left), ...assignedNames(node)]) frame.env.set(name, undefined);
          const at = this.spentAt.get(this.budgetModule!);
          if (at) Object.assign(at, { file: frame.module.info.file, node });
          return undefined;
        }
        if (signal === 'break') break;
        if (signal === 'return') return signal;
      }
      return undefined;
    }
    if (items && left && body && this.literal && !this.literalLoop) {
      // Read literally (the budget ran out): a small loop over known items, not inside another
      // such loop, is still unrolled while it costs at most a tenth of what is left.
      const cost = items.length * body.descendantCount;
      if (cost <= MAX_LITERAL_LOOP_COST && cost * 10 <= this.budget.remaining) {
        this.literalLoop = true;
        try {
          for (const item of items) {
            this.bind(frame, left, item);
            const signal = this.block(frame, body);
            if (signal === 'break') break;
            if (signal === 'return') return signal;
          }
        } finally {
          this.literalLoop = false;
        }
        return undefined;
      }
    }
    if (left) for (const name of boundNames(left)) frame.env.set(name, undefined);
    this.unknownTrips(frame, node);
    return undefined;
  }

  /**
   * `while`: when its condition is known false the body never runs (only `else:` does); otherwise
   * its trip count is unknown ({@link unknownTrips}), even for `while True:` (a loop left by
   * `break`, or never: `while True: s = s + s` must not give `s` the value of one pass).
   */
  private whileStatement(frame: Frame, node: Node): Signal {
    const condition = node.childForFieldName('condition');
    if (condition && truthy(this.evaluate(frame, condition)) === false) {
      const otherwise = node.childForFieldName('alternative')?.childForFieldName('body');
      return otherwise ? this.block(frame, otherwise) : undefined;
    }
    this.unknownTrips(frame, node);
    return undefined;
  }

  /**
   * A loop run an unknown number of times (`while`, `for` over an unknown or too long
   * collection): every name its body assigns is unknown before the one pass that reads its
   * calls (a value carried from one iteration to the next, `s = s + s`, is never taken from
   * one pass) and again after it (zero or many passes may have run). Signals of that pass are
   * dropped: its `break` or `return` may not happen.
   */
  private unknownTrips(frame: Frame, node: Node): void {
    const names = assignedNames(node);
    for (const name of names) frame.env.set(name, undefined);
    this.uncertain++;
    try {
      for (const child of namedChildren(node)) {
        if (child.type === 'block' || CONTAINERS.has(child.type)) this.block(frame, child);
      }
    } finally {
      this.uncertain--;
    }
    for (const name of names) frame.env.set(name, undefined);
  }

  /** `if`/`elif`/`else`: when every condition up to the taken branch is known, only that branch runs; otherwise all do. */
  private ifStatement(frame: Frame, node: Node): Signal {
    const branches: Array<{ condition?: Node; body: Node }> = [];
    const condition = node.childForFieldName('condition');
    const consequence = node.childForFieldName('consequence');
    if (consequence) branches.push({ ...(condition ? { condition } : {}), body: consequence });
    for (const child of namedChildren(node)) {
      if (child.type === 'elif_clause') {
        const c = child.childForFieldName('condition');
        const b = child.childForFieldName('consequence');
        if (b) branches.push({ ...(c ? { condition: c } : {}), body: b });
      } else if (child.type === 'else_clause') {
        const b = child.childForFieldName('body');
        if (b) branches.push({ body: b });
      }
    }
    let known = true;
    for (const branch of branches) {
      const truth = branch.condition ? truthy(this.evaluate(frame, branch.condition)) : true;
      if (truth === undefined) {
        known = false;
        break;
      }
      if (truth) return this.block(frame, branch.body);
    }
    if (known) return undefined;
    this.uncertain++;
    try {
      for (const branch of branches) this.block(frame, branch.body); // unknown condition: every branch, no signals
    } finally {
      this.uncertain--;
    }
    return undefined;
  }

  /** Binds an assignment or loop target (`x`, `a, b`, `(a, (b, c))`) to a value, unpacking known sequences. */
  private bind(frame: Frame, target: Node, value: Value | undefined): void {
    if (target.type === 'identifier') {
      frame.env.set(pythonIdentifier(target.text), value);
      return;
    }
    const unpack = ['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'parenthesized_expression'];
    if (unpack.includes(target.type)) {
      const parts = namedChildren(target);
      const items = value?.kind === 'list' && value.items.length === parts.length ? value.items : undefined;
      parts.forEach((part, i) => this.bind(frame, part, items?.[i]));
      return;
    }
    for (const name of boundNames(target)) frame.env.set(name, undefined);
  }

  private assign(frame: Frame, node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!right) return;
    const value = right.type === 'assignment' ? (this.assign(frame, right), this.lookupAssigned(frame, right)) : this.evaluate(frame, right);
    if (left?.type === 'identifier') {
      frame.env.set(pythonIdentifier(left.text), value);
      if (!frame.fn && value?.kind === 'parser' && value.parser.root === value.parser && !value.parser.variables.includes(pythonIdentifier(left.text))) {
        value.parser.variables.push(pythonIdentifier(left.text));
      }
    } else if (left?.type === 'subscript') {
      // `groups[name] = sub.add_subparsers()` stores into a known dict.
      const objectNode = left.childForFieldName('value');
      const container = objectNode ? (objectNode.type === 'call' ? this.evaluate(frame, objectNode) : this.evaluate(frame, objectNode)) : undefined;
      const keyNode = left.childForFieldName('subscript');
      const key = keyNode ? this.evaluate(frame, keyNode) : undefined;
      if (container?.kind === 'dict' && key?.kind === 'const') {
        container.keys.set(dictKey(key), key);
        container.values.set(dictKey(key), value);
      } else this.poison(container); // `xs[i] = …`, `d[unknown] = …`: not followed
    } else if (left) {
      // `a, b = …` unpacks a known sequence; `vars(parser)["x"] = …` and `parser.x = …` rebind nothing.
      this.bind(frame, left, value);
      // `group.add_argument("--file").complete = shtab.FILE` (shtab completion) still adds the flag.
      const target = left.type === 'attribute' ? left.childForFieldName('object') : null;
      if (target?.type === 'call') this.evaluate(frame, target);
    }
  }

  /** The value the innermost target of a chained assignment (`a = b = X`) received. */
  private lookupAssigned(frame: Frame, node: Node): Value | undefined {
    const left = node.childForFieldName('left');
    return left?.type === 'identifier' ? frame.env.get(pythonIdentifier(left.text)) : undefined;
  }

  /** True when `name` is a variable of the frame (or its closures) whose value is unknown. */
  private unknownLocal(frame: Frame, name: string): boolean {
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      if (f.env.has(name)) return f.env.get(name) === undefined;
    }
    return false;
  }

  private lookup(frame: Frame, name: string): Value | undefined {
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      if (f.env.has(name)) return f.env.get(name);
    }
    const moduleEnv = this.moduleEnvs.get(frame.module);
    if ((frame.fn || frame.parent) && moduleEnv?.has(name)) return moduleEnv.get(name);
    // A parser or constant imported from another module (`from .cli import parser`).
    const symbol = this.ctx.symbol(frame.module, [name], frame.local);
    if (symbol && symbol.module !== frame.module) {
      this.runModule(symbol.module);
      const env = this.moduleEnvs.get(symbol.module);
      if (env?.has(symbol.name)) return env.get(symbol.name);
    }
    if (symbol && symbol.module.functions.has(symbol.name)) return { kind: 'function', symbol };
    return undefined;
  }

  /**
   * The value of an expression, or undefined (unknown). Nesting deeper than
   * {@link MAX_EVAL_DEPTH} (statements, expressions and calls together) is unknown, so that no
   * expression CPython accepts (`not not … x`, `a.b.….z`, `f(f(…))`) overflows the stack (#33 item 3).
   */
  private evaluate(frame: Frame, node: Node): Value | undefined {
    if (this.depth >= MAX_EVAL_DEPTH || !this.tick(frame, node)) return undefined;
    this.depth++;
    try {
      const value = this.evaluateNode(frame, node);
      return value !== undefined && this.poisoned.has(value) ? undefined : value;
    } finally {
      this.depth--;
    }
  }

  private evaluateNode(frame: Frame, node: Node): Value | undefined {
    const n = unparen(node);
    switch (n.type) {
      case 'identifier':
        return this.lookup(frame, pythonIdentifier(n.text));
      case 'call':
        return this.call(frame, n);
      case 'list':
      case 'tuple':
      case 'set':
      case 'expression_list': {
        // Counted before any child is read (a 100,000-item literal: #33 fresh sweep defect 8).
        if (n.namedChildCount > EVAL_LIMITS.listLength) return undefined;
        const items = namedChildren(n);
        return items.length > EVAL_LIMITS.listLength ? undefined : this.sized({ kind: 'list', items: items.map((item) => this.evaluate(frame, item)) });
      }
      case 'string': {
        const parts = fStringParts(n);
        if (!parts) return literalConst(n);
        let text = '';
        let origin: Node | undefined;
        for (const part of parts) {
          if (typeof part === 'string') {
            text += part;
            continue;
          }
          const v = this.evaluate(frame, part);
          if (v?.kind !== 'const') return undefined;
          origin ??= v.node;
          text += pyStr(v);
          if (text.length > EVAL_LIMITS.stringLength) return undefined;
        }
        return this.sized({ kind: 'const', value: text, node: origin ?? n });
      }
      case 'concatenated_string':
      case 'integer':
      case 'float':
      case 'true':
      case 'false':
      case 'none':
      case 'unary_operator':
        return literalConst(n);
      case 'dictionary': {
        if (n.namedChildCount > EVAL_LIMITS.listLength) return undefined;
        const dict: Value = { kind: 'dict', keys: new Map(), values: new Map() };
        for (const pair of namedChildren(n)) {
          if (pair.type !== 'pair') return undefined; // `**other`: not all keys known
          const k = pair.childForFieldName('key');
          const v = pair.childForFieldName('value');
          const key = k ? this.evaluate(frame, k) : undefined;
          if (key?.kind !== 'const') return undefined;
          dict.keys.set(dictKey(key), key);
          dict.values.set(dictKey(key), v ? this.evaluate(frame, v) : undefined);
        }
        return dict;
      }
      case 'lambda':
        return { kind: 'lambda', node: n, closure: frame };
      case 'attribute': {
        const objectNode = n.childForFieldName('object');
        const attr = identifierText(n.childForFieldName('attribute')) ?? '';
        const target = objectNode ? this.evaluate(frame, objectNode) : undefined;
        return target?.kind === 'object' ? target.fields.get(attr) : undefined;
      }
      case 'subscript': {
        const objectNode = n.childForFieldName('value');
        const keyNode = n.childForFieldName('subscript');
        const target = objectNode ? this.evaluate(frame, objectNode) : undefined;
        const key = keyNode ? this.evaluate(frame, keyNode) : undefined;
        if (key?.kind !== 'const') return undefined;
        if (target?.kind === 'dict') return target.values.get(dictKey(key));
        if (target?.kind === 'list' && typeof key.value === 'number' && Number.isInteger(key.value)) {
          return target.items[key.value < 0 ? target.items.length + key.value : key.value];
        }
        return undefined;
      }
      case 'conditional_expression': {
        const [whenTrue, condition, whenFalse] = namedChildren(n);
        const truth = condition ? truthy(this.evaluate(frame, condition)) : undefined;
        if (truth === undefined) return undefined;
        const chosen = truth ? whenTrue : whenFalse;
        return chosen ? this.evaluate(frame, chosen) : undefined;
      }
      case 'not_operator': {
        const arg = n.childForFieldName('argument');
        const truth = arg ? truthy(this.evaluate(frame, arg)) : undefined;
        return truth === undefined ? undefined : { kind: 'const', value: !truth };
      }
      case 'boolean_operator': {
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        const op = n.childForFieldName('operator')?.text;
        const lv = l ? this.evaluate(frame, l) : undefined;
        const lt = truthy(lv);
        if (lt === undefined) return undefined;
        if ((op === 'and' && !lt) || (op === 'or' && lt)) return lv;
        return r ? this.evaluate(frame, r) : undefined;
      }
      case 'comparison_operator':
        return this.compare(frame, n);
      case 'binary_operator': {
        // `a + b + c + …` nests to the left as deep as it is long (CPython compiles 2,000 terms):
        // its operands are read along the left spine without recursion, then added in order.
        const op = n.childForFieldName('operator')?.text;
        const operands: Node[] = [];
        for (let current: Node = n; ; ) {
          const l = current.childForFieldName('left');
          const r = current.childForFieldName('right');
          if (!l || !r) return undefined;
          operands.push(r);
          const next = unparen(l);
          if (op === '+' && next.type === 'binary_operator' && next.childForFieldName('operator')?.text === '+') {
            current = next;
            continue;
          }
          operands.push(l);
          break;
        }
        operands.reverse();
        const values = operands.map((operand) => this.evaluate(frame, operand));
        if (op !== '+') return undefined;
        let sum = values[0];
        for (const value of values.slice(1)) {
          if (sum?.kind === 'const' && value?.kind === 'const' && typeof sum.value === 'string' && typeof value.value === 'string') {
            if (sum.value.length + value.value.length > EVAL_LIMITS.stringLength) return undefined;
            sum = this.sized({ kind: 'const', value: sum.value + value.value, node: sum.node ?? value.node ?? n });
          } else if (sum?.kind === 'list' && value?.kind === 'list') {
            if (sum.items.length + value.items.length > EVAL_LIMITS.listLength) return undefined;
            sum = this.sized({ kind: 'list', items: [...sum.items, ...value.items] });
          } else return undefined;
        }
        return sum;
      }
      default:
        return undefined;
    }
  }

  /** `a == b`, `a != b`, `a in b`, `a not in b` on known values (one operator). */
  private compare(frame: Frame, node: Node): Value | undefined {
    const operands = namedChildren(node);
    const ops = allChildren(node).filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
    if (operands.length !== 2) return undefined;
    const op = ops.join(' ');
    const a = this.evaluate(frame, operands[0]!);
    const b = this.evaluate(frame, operands[1]!);
    // `if _parser != datagen:` in a loop over parsers: argparse objects compare by identity.
    if ((op === '==' || op === '!=' || op === 'is' || op === 'is not') && a && b && isParserValue(a) && isParserValue(b)) {
      const same = a.kind === b.kind && a.parser === b.parser;
      return { kind: 'const', value: op === '==' || op === 'is' ? same : !same };
    }
    if (op === '==' || op === '!=') {
      if (a?.kind !== 'const' || b?.kind !== 'const') return undefined;
      const eq = constEquals(a, b);
      return { kind: 'const', value: op === '==' ? eq : !eq };
    }
    if (op === 'in' || op === 'not in') {
      if (a?.kind !== 'const') return undefined;
      let found: boolean | undefined;
      if (b?.kind === 'dict') found = b.keys.has(dictKey(a));
      else if (b?.kind === 'list') {
        if (b.items.some((i) => i?.kind !== 'const')) return undefined;
        found = b.items.some((i) => i?.kind === 'const' && constEquals(i, a));
      } else if (b?.kind === 'const' && typeof b.value === 'string' && typeof a.value === 'string') found = b.value.includes(a.value);
      if (found === undefined) return undefined;
      return { kind: 'const', value: op === 'in' ? found : !found };
    }
    return undefined;
  }

  /** Evaluates call arguments in order, spreading known `*seq`/`**dict`; `unknown` when a splat is not known. */
  private readArgs(frame: Frame, call: Node): { positional: Array<Value | undefined>; nodes: Array<Node | undefined>; kwargs: Map<string, Value | undefined>; unknown: boolean } {
    const out = { positional: [] as Array<Value | undefined>, nodes: [] as Array<Node | undefined>, kwargs: new Map<string, Value | undefined>(), unknown: false };
    const list = call.childForFieldName('arguments');
    if (!list || list.type !== 'argument_list') return out;
    for (const arg of namedChildren(list)) {
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name');
        const value = arg.childForFieldName('value');
        if (name && value) out.kwargs.set(pythonIdentifier(name.text), this.evaluate(frame, value));
      } else if (arg.type === 'list_splat') {
        const inner = namedChildren(arg)[0];
        const value = inner ? this.evaluate(frame, inner) : undefined;
        if (value?.kind === 'list') {
          for (const item of value.items) {
            out.positional.push(item);
            out.nodes.push(undefined);
          }
        } else out.unknown = true;
      } else if (arg.type === 'dictionary_splat') {
        const inner = namedChildren(arg)[0];
        const value = inner ? this.evaluate(frame, inner) : undefined;
        if (value?.kind === 'dict') {
          for (const [k, key] of value.keys) if (typeof key.value === 'string') out.kwargs.set(key.value, value.values.get(k));
        } else out.unknown = true;
      } else if (arg.type !== 'comment') {
        out.positional.push(this.evaluate(frame, arg));
        out.nodes.push(arg);
      }
    }
    return out;
  }

  private call(frame: Frame, node: Node): Value | undefined {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    const args = callArgs(node);
    if (fn.type === 'attribute') {
      const objectNode = fn.childForFieldName('object');
      const method = identifierText(fn.childForFieldName('attribute')) ?? '';
      const target = objectNode ? this.evaluate(frame, objectNode) : undefined;
      if (target && isParserValue(target)) return this.method(frame, node, target, method, args);
      // A parser method on a local whose value is unknown (a sub-parser past the module's cap,
      // #33 fresh sweep defect 7): its arguments add nothing, so they are not evaluated.
      if (!target && PARSER_METHODS.has(method) && objectNode?.type === 'identifier' && this.unknownLocal(frame, pythonIdentifier(objectNode.text))) return undefined;
      if (target?.kind === 'object') {
        const member = target.fields.get(method);
        if (member?.kind === 'lambda' || member?.kind === 'function') return this.invokeMember(frame, node, target, member);
        return undefined;
      }
      if (target && (target.kind === 'dict' || target.kind === 'list') && !PURE_DATA_METHODS.has(method)) {
        this.mutate(target, method, this.readArgs(frame, node));
        return undefined;
      }
      if (target && (target.kind === 'const' || target.kind === 'dict' || target.kind === 'list')) {
        const read = this.readArgs(frame, node);
        if (read.unknown) return undefined;
        // A `str` method reads its whole string, whatever it returns: that work is charged to the
        // size budget (262,144 `s.replace` calls on an 8 KB string, each over the result cap, cost
        // 8 s of a file's steps at no charge: s22 sweep D1).
        if (target.kind === 'const' && typeof target.value === 'string' && !this.budget.allocate(target.value.length)) return undefined;
        const result = dataMethod(target, method, read.positional);
        // `dict.get` returns a value already made; every other method makes a new string or list.
        return result && method !== 'get' ? this.sized(result) : result;
      }
    }
    if (fn.type === 'identifier') {
      const bound = this.lookup(frame, pythonIdentifier(fn.text));
      if (bound?.kind === 'lambda') {
        const read = this.readArgs(frame, node);
        return read.unknown ? undefined : this.invoke(frame, bound, read.positional, read.kwargs);
      }
      if (!bound && !this.ctx.symbol(frame.module, [pythonIdentifier(fn.text)], frame.local) && BUILTINS.has(pythonIdentifier(fn.text))) {
        const read = this.readArgs(frame, node);
        if (read.unknown) return undefined;
        // `dict(training=parser_a, reports=parser_b)`: a dict keyed by the keyword names.
        if (pythonIdentifier(fn.text) === 'dict' && read.positional.length === 0) {
          const dict: Value = { kind: 'dict', keys: new Map(), values: new Map() };
          for (const [name, value] of read.kwargs) {
            const key: ConstValue = { kind: 'const', value: name };
            dict.keys.set(dictKey(key), key);
            dict.values.set(dictKey(key), value);
          }
          return dict;
        }
        const made = builtin(pythonIdentifier(fn.text), read.positional);
        return made ? this.sized(made) : undefined;
      }
    }
    if (this.isArgumentParser(frame.module, args.callee, frame.local)) return this.createRoot(frame, node, args);
    if (fn.type === 'identifier') {
      const bound = this.lookup(frame, pythonIdentifier(fn.text));
      if (bound?.kind === 'parser-factory') return this.createRoot(frame, node, boundArgs(bound.args, args));
    }
    if (this.ctx.external(frame.module, args.callee, frame.local) === 'functools.partial' && args.positional[0]) {
      // `partial(argparse.ArgumentParser, …)`, or a partial of such a partial.
      const rest = { ...args, positional: args.positional.slice(1) };
      const inner = dottedName(args.positional[0]);
      if (inner && this.isArgumentParser(frame.module, inner, frame.local)) return { kind: 'parser-factory', args: { ...rest, callee: inner } };
      const base = this.evaluate(frame, args.positional[0]);
      if (base?.kind === 'parser-factory') return { kind: 'parser-factory', args: boundArgs(base.args, rest) };
    }
    const read = this.readArgs(frame, node);
    const resolved = args.callee ? this.ctx.resolver.resolve(frame.module.info, args.callee, frame.local) : undefined;
    if (resolved?.kind === 'class') {
      // A dataclass-like record: `Flag(register=lambda p: …)`, positionals in field order.
      if (read.unknown) return undefined;
      const fields = new Map<string, Value | undefined>();
      const names = resolved.cls.fields.map((f) => f.name);
      read.positional.forEach((v, i) => {
        if (names[i] !== undefined) fields.set(names[i]!, v);
      });
      for (const [k, v] of read.kwargs) fields.set(k, v);
      return { kind: 'object', cls: resolved.cls.qualifiedName, fields };
    }
    const symbol = this.ctx.symbol(frame.module, args.callee, frame.local);
    if (!symbol || !symbol.module.functions.has(symbol.name)) return undefined;
    const values = [...read.positional, ...read.kwargs.values()];
    const passesObject = values.some((v) => v !== undefined && (v.kind === 'list' || holdsParser(v)));
    const raw = symbol.module.info.functions.get(symbol.name);
    const createsParsers = raw?.calls.some((c) => this.isArgumentParser(symbol.module, c.callee, raw.localBindings)
      || this.returnsParser(symbol, c.callee, raw.localBindings)) ?? false;
    // A helper called with known values only (`_value_flag("resume", "resume_from_cache", …)`).
    const literalHelper = !this.literal && !read.unknown && values.length > 0 && values.every((v) => v !== undefined) && this.isSmall(symbol);
    if ((!passesObject && !createsParsers && !literalHelper) || !this.canRun(symbol, frame.stack)) {
      // Not run: what its body may do to module-level lists and dicts (and to those passed to it) is unknown.
      this.applyEffects(this.effectsOf(symbol), values);
      return undefined;
    }
    return this.runFunction(symbol, read.positional, read.kwargs, frame.stack);
  }

  private isSmall(symbol: Symbol): boolean {
    const body = symbol.module.functions.get(symbol.name)?.def.childForFieldName('body');
    return body !== null && body !== undefined && body.descendantsOfType(['expression_statement', 'return_statement']).length <= MAX_HELPER_STATEMENTS;
  }

  /** Calls a lambda or a repository function value with evaluated arguments. */
  private invoke(frame: Frame, callee: Extract<Value, { kind: 'lambda' | 'function' }>, args: Array<Value | undefined>, kwargs: Map<string, Value | undefined>): Value | undefined {
    if (callee.kind === 'function') return this.runFunction(callee.symbol, args, kwargs, frame.stack);
    const key = `lambda@${callee.closure.module.info.file}:${callee.node.startIndex}`;
    if (frame.stack.includes(key) || frame.stack.length >= MAX_CALL_DEPTH) return undefined;
    const env = this.bindParameters(callee.closure, callee.node.childForFieldName('parameters'), args, kwargs);
    const inner: Frame = {
      module: callee.closure.module,
      ...(callee.closure.fn ? { fn: callee.closure.fn } : {}),
      ...(callee.closure.local ? { local: callee.closure.local } : {}),
      env,
      parent: callee.closure,
      returns: [],
      stack: [...frame.stack, key],
    };
    const body = callee.node.childForFieldName('body');
    return body ? this.evaluate(inner, body) : undefined;
  }

  /**
   * `flag.register(parser)`: calls a record's callable member. When the call adds exactly one
   * flag to a parser and another member of the record is a lambda that builds one override
   * string `"+key=…"` (`translate_to_hydra=lambda a: [f"+{hydra_key}={…}"]`), that key is the
   * config field the flag sets: it becomes the flag's `dest`.
   */
  private invokeMember(frame: Frame, node: Node, record: Extract<Value, { kind: 'object' }>, member: Extract<Value, { kind: 'lambda' | 'function' }>): Value | undefined {
    const read = this.readArgs(frame, node);
    if (read.unknown) return undefined;
    const parser = read.positional.find((v): v is ParserValue => v !== undefined && isParserValue(v))?.parser;
    const before = parser ? new Set(parser.params.keys()) : undefined;
    const result = this.invoke(frame, member, read.positional, read.kwargs);
    if (parser && before) {
      const added = [...parser.params.keys()].filter((k) => !before.has(k));
      if (added.length === 1) {
        const field = this.overrideField(record, member);
        if (field !== undefined) parser.fields.set(added[0]!, field);
      }
    }
    return result;
  }

  /** The one config key that the record's other lambda members write as an override (`"+key=…"`), if exactly one. */
  private overrideField(record: Extract<Value, { kind: 'object' }>, invoked: Value): string | undefined {
    const keys = new Set<string>();
    for (const value of record.fields.values()) {
      if (value === invoked || value?.kind !== 'lambda') continue;
      const frame: Frame = {
        module: value.closure.module,
        env: this.bindParameters(value.closure, value.node.childForFieldName('parameters'), [], new Map()),
        parent: value.closure,
        returns: [],
        stack: [],
      };
      const body = value.node.childForFieldName('body');
      for (const s of body ? stringNodes(body) : []) {
        const prefix = this.knownPrefix(frame, s);
        const key = prefix === undefined ? undefined : overrideKey(prefix);
        if (key !== undefined) keys.add(key);
      }
    }
    return keys.size === 1 ? [...keys][0] : undefined;
  }

  /** The text of a string or f-string up to its first interpolation whose value is unknown. */
  private knownPrefix(frame: Frame, node: Node): string | undefined {
    const plain = stringValue(node);
    if (plain !== undefined) return plain;
    const parts = fStringParts(node);
    if (!parts) return undefined;
    let text = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      const v = this.evaluate(frame, part);
      if (v?.kind !== 'const') return text;
      text += pyStr(v);
    }
    return text;
  }

  /** True when a callee inside `owner` is itself a function that creates a parser (one level), so its result matters. */
  private returnsParser(owner: Symbol, callee: string[], local?: Map<string, Binding>): boolean {
    const symbol = this.ctx.symbol(owner.module, callee, local);
    const raw = symbol ? this.ctx.rawFunction(symbol) : undefined;
    return symbol !== undefined && raw !== undefined
      && raw.calls.some((c) => this.isArgumentParser(symbol.module, c.callee, raw.localBindings));
  }

  private method(frame: Frame, node: Node, target: ParserValue, method: string, args: CallArgs): Value | undefined {
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
      case 'set_defaults':
        if (target.kind === 'parser') this.setDefaults(frame, node, parser);
        return undefined;
      case 'add_class_arguments':
      case 'add_dataclass_arguments':
        this.addClassArguments(frame, node, parser, args);
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * jsonargparse's `parser.add_class_arguments(Config, "model")` (also `nested_key=`, and the
   * deprecated `add_dataclass_arguments`): an option `--model.field` (`--field` without a nested
   * key) for each annotated field the repository class declares itself (not inherited ones, not
   * `ClassVar`s or `_private` names), plus the hidden `--model` option jsonargparse adds to load the
   * group from a file. Other classes (an `__init__` signature) are not read.
   */
  private addClassArguments(frame: Frame, node: Node, parser: Parser, args: CallArgs): void {
    const first = args.positional[0];
    const dotted = first ? dottedName(first) : undefined;
    const resolved = dotted ? this.ctx.resolver.resolve(frame.module.info, dotted, frame.local) : undefined;
    if (resolved?.kind !== 'class') return;
    const nestedNode = args.positional[1] ?? args.keywords.get('nested_key');
    const nested = nestedNode ? stringValue(nestedNode) : undefined;
    if (nestedNode && nested === undefined) return; // a prefix computed at run time
    if (nested !== undefined) {
      // jsonargparse also adds `--<nested_key> CONFIG` (the group from a config file): its own option, hidden.
      const key = `${frame.module.info.file}:${node.startIndex}`;
      if (!parser.params.has(key)) {
        parser.params.set(key, flagSpec({
          name: nested, aliases: [], type: resolved.cls.name, required: false, deprecated: false, hidden: true,
          location: locate(frame.module, nestedNode ?? node), dest: nested,
        }));
      }
    }
    for (const field of resolved.cls.fields) {
      if (field.name.startsWith('_') || field.annotationHead?.at(-1) === 'ClassVar' || isInitFalseField(field)) continue;
      const name = nested ? `${nested}.${field.name}` : field.name;
      const key = `${frame.module.info.file}:${node.startIndex}:${name}`;
      if (parser.params.has(key)) continue;
      parser.params.set(key, flagSpec({
        name,
        aliases: [],
        type: field.annotation,
        ...(field.value ? { default: toDefault(field.value) } : {}),
        required: field.value === undefined,
        deprecated: false,
        hidden: false,
        location: field.location,
        dest: name,
      }));
    }
  }

  /**
   * `parser.set_defaults(func=run)` / `set_defaults(_command=Command(target="pkg.mod:fn"))`:
   * the functions the sub-command dispatches to, as `module:function` (a function value; a
   * `"module:function"` string, as an entry point names a function; the same inside a record's fields;
   * and such strings in the body of a function value, which dispatches on).
   */
  private setDefaults(frame: Frame, node: Node, parser: Parser): void {
    const read = this.readArgs(frame, node);
    const add = (target: string): void => {
      if (!parser.dispatch.includes(target)) parser.dispatch.push(target);
    };
    const named = (text: string): string | undefined => {
      const m = /^([A-Za-z_][\w.]*):([A-Za-z_]\w*)$/.exec(text);
      if (!m) return undefined;
      // Modules without flag code are not read here; one that is read must define the function.
      const module = this.ctx.modules.get(m[1]!);
      return !module || module.functions.has(m[2]!) ? text : undefined;
    };
    const visit = (value: Value | undefined, depth: number): void => {
      if (!value || depth > 2) return;
      if (value.kind === 'const' && typeof value.value === 'string') {
        const t = named(value.value);
        if (t) add(t);
      } else if (value.kind === 'function') {
        add(symbolKey(value.symbol));
        const body = value.symbol.module.functions.get(value.symbol.name)?.def.childForFieldName('body');
        for (const s of body ? stringNodes(body) : []) {
          const text = stringValue(s);
          const t = text === undefined ? undefined : named(text);
          if (t) add(t);
        }
      } else if (value.kind === 'object') {
        for (const field of value.fields.values()) visit(field, depth + 1);
      }
    };
    for (const value of read.kwargs.values()) visit(value, 0);
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
        allowAbbrev: allowsAbbrev(args),
        root: undefined as unknown as Parser,
        module: frame.module,
        variables: [],
        isParent: false,
        dispatch: [],
        fields: new Map(),
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
    let name = nameNode ? stringValue(nameNode) : undefined;
    const computed = name === undefined && nameNode !== undefined;
    if (computed) {
      const value = this.evaluate(frame, nameNode);
      if (value?.kind === 'const' && typeof value.value === 'string') name = value.value;
    }
    if (name === undefined) return undefined; // a sub-command named at run time
    // The same `add_parser` call reached with other names (in a loop, in a helper) makes other parsers.
    const key = `${parent.key}>${frame.module.info.file}:${node.startIndex}${computed ? `:${name}` : ''}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      // Sub-parsers per file are bounded: past the cap the parent's other sub-commands are unknown.
      const file = frame.module;
      const made = this.subParsersMade.get(file) ?? 0;
      if (made >= MAX_MODULE_COMMANDS) {
        parent.subcommandsCut = true;
        if (!this.cutModules.has(file)) this.cutModules.set(file, moduleCommandsCut(file, node, 'argparse'));
        return undefined;
      }
      this.subParsersMade.set(file, made + 1);
      const aliasesNode = args.keywords.get('aliases');
      let aliases = readChoices(aliasesNode);
      if (!aliases && aliasesNode) aliases = constStrings(this.evaluate(frame, aliasesNode));
      const prefix = args.keywords.get('prefix_chars');
      parser = {
        key,
        path: [...parent.path, name],
        aliases: aliases ?? [],
        params: new Map(),
        location: locate(frame.module, node),
        prefixChars: (prefix ? stringValue(prefix) : undefined) || '-',
        allowAbbrev: allowsAbbrev(args),
        root: parent.root,
        module: parent.module,
        variables: [],
        isParent: false,
        dispatch: [],
        fields: new Map(),
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
      if (item.parser.paramsCut) parser.paramsCut = true;
      if (item.parser.unread) parser.unread ??= item.parser.unread;
      for (const [key, spec] of item.parser.params) {
        if (parser.params.has(key)) continue;
        // Bounded (#33 sweep: `parents=` chains 5,000 long copied 12 million arguments, 715 MB).
        if (parser.params.size >= MAX_PARSER_PARAMS || this.inherited >= MAX_INHERITED_PARAMS) {
          parser.paramsCut = true;
          break;
        }
        this.inherited++;
        parser.params.set(key, spec);
      }
    }
  }

  /**
   * The spellings of an `add_argument` call: string literals as written, or (in helpers and
   * lambdas) values the evaluator computed (`f"--{name}"`, `*aliases`), located where their
   * text came from (the literal passed to the helper). Undefined when one is unknown.
   */
  private spellingsOf(frame: Frame, node: Node, args: CallArgs): { names: Spelling[]; computed: boolean } | undefined {
    const literal = spellings(args.positional);
    if (literal && !args.hasSplat) return { names: literal, computed: false };
    const read = this.readArgs(frame, node);
    if (read.unknown) return literal ? { names: literal, computed: false } : undefined;
    const names: Spelling[] = [];
    for (let i = 0; i < read.positional.length; i++) {
      const v = read.positional[i];
      if (v?.kind !== 'const' || typeof v.value !== 'string') return literal ? { names: literal, computed: false } : undefined;
      const at = v.node ?? read.nodes[i] ?? node;
      names.push({ text: v.value, node: at });
    }
    return { names, computed: true };
  }

  private addArgument(frame: Frame, node: Node, parser: Parser, args: CallArgs): void {
    const spelled = this.spellingsOf(frame, node, args);
    if (!spelled || spelled.names.length === 0) {
      // Spelled at run time (`add_argument(f"--{name}")` over settings loaded when run,
      // `add_argument(*names())`): the parser takes flags docdrift does not know.
      parser.unread ??= unreadAt(frame.module, node);
      return;
    }
    const names = spelled.names;
    const key = `${frame.module.info.file}:${node.startIndex}${spelled.computed ? `:${names.map((n) => n.text).join(' ')}` : ''}`;
    if (parser.params.has(key)) return;
    const prefix = parser.prefixChars;
    const kw = (name: string): Node | undefined => args.keywords.get(name);
    const externalOf = (n: Node | undefined): string | undefined => {
      const value = n ? readValue(n) : undefined;
      return value?.dotted ? this.ctx.external(frame.module, value.dotted, frame.local) : undefined;
    };
    // A keyword that is not a literal (a helper's parameter) is evaluated.
    const kwString = (name: string): string | undefined => {
      const n = kw(name);
      if (!n) return undefined;
      const s = stringValue(n);
      if (s !== undefined || !spelled.computed) return s;
      const v = this.evaluate(frame, n);
      return v?.kind === 'const' && typeof v.value === 'string' ? v.value : undefined;
    };
    const help = kw('help');
    const hidden = externalOf(help) === SUPPRESS;
    const description = help && !hidden ? kwString('help') : undefined;
    const actionNode = kw('action');
    const action = actionNode ? kwString('action') ?? externalOf(actionNode) : undefined;
    const typeNode = kw('type');
    let type = typeNode?.text;
    const defaultNode = kw('default');
    let defaultValue = defaultNode && externalOf(defaultNode) !== SUPPRESS ? toDefault(readValue(defaultNode)) : undefined;
    if (defaultValue && spelled.computed && defaultNode?.type === 'identifier') {
      const v = this.evaluate(frame, defaultNode);
      defaultValue = v?.kind === 'const' && v.value === null ? undefined : v?.kind === 'const' ? literalDefault(typeof v.value === 'string' ? JSON.stringify(v.value) : pyStr(v)) : defaultValue;
    }
    const negatable = action === BOOLEAN_OPTIONAL;
    if (action === 'store_true' || action === 'store_false' || negatable) {
      type ??= 'bool';
      if (!defaultNode && action !== BOOLEAN_OPTIONAL) defaultValue = literalDefault(action === 'store_true' ? 'False' : 'True');
    } else if (action === 'count') {
      type ??= 'int';
    }
    const choicesNode = kw('choices');
    let choices = readChoices(choicesNode);
    if (!choices && choicesNode && spelled.computed) choices = constStrings(this.evaluate(frame, choicesNode));
    const deprecated = boolOrString(kw('deprecated'));
    const first = names[0]!;
    const positional = !prefix.includes(first.text[0] ?? '');
    let spec: ParamSpec;
    if (positional) {
      const nargsNode = kw('nargs');
      const nargs = nargsNode ? kwString('nargs') : undefined;
      const remainder = nargsNode !== undefined && externalOf(nargsNode) === REMAINDER;
      const optionalCount = nargs === '?' || nargs === '*' || remainder;
      const variadic = nargs === '*' || nargs === '+' || remainder;
      // argparse stops parsing at a REMAINDER positional: what follows is another program's.
      if (remainder) parser.passesRest = true;
      // argparse shows a positional by its `metavar` (`NAME`), so docs name it that way too.
      const metavar = kwString('metavar');
      spec = flagSpec({
        name: first.text,
        aliases: metavar !== undefined && metavar !== '' && metavar !== first.text ? [metavar] : [],
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
        ...(variadic ? { variadic: true } : {}),
      });
    } else {
      const primary = names.find((n) => isLong(n.text, prefix)) ?? first;
      const name = stripPrefix(primary.text, prefix);
      const aliases: string[] = [];
      for (const other of names) {
        const bare = stripPrefix(other.text, prefix);
        if (other !== primary && bare !== name && !aliases.includes(bare)) aliases.push(bare);
      }
      const dest = kwString('dest') ?? name.replaceAll('-', '_');
      const required = isTrue(kw('required'));
      // `--g` (a one-letter long option) and `-gx` (a single-dash long one) are typed as declared.
      const optionStrings = prefix.includes('-') ? declaredOptionStrings(names.map((n) => n.text)) : undefined;
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
        ...(optionStrings ? { optionStrings } : {}),
        counted: action === 'count',
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
      const counts = new Map<string, number>();
      for (const field of parser.fields.values()) counts.set(field, (counts.get(field) ?? 0) + 1);
      const params = [...parser.params].map(([key, spec]) => {
        const field = parser.fields.get(key);
        return field !== undefined && counts.get(field) === 1 ? { ...spec, dest: field, owner } : { ...spec, owner };
      });
      for (const target of this.targets(root)) {
        out.push({
          path: parser.path,
          ...(parser.aliases.length > 0 ? { aliases: parser.aliases } : {}),
          target,
          params,
          location: parser.location,
          ...(parser.dispatch.length > 0 ? { dispatch: [...parser.dispatch] } : {}),
          ...(parser.allowAbbrev ? { abbreviatesLongFlags: true } : {}),
          ...(parser.prefixChars !== '-' ? { prefixChars: parser.prefixChars } : {}),
          ...(parser.paramsCut || parser.unread || parser.passesRest ? { passesUnknownFlags: true } : {}),
          ...(parser.unread ? { unreadFlags: parser.unread } : {}),
          ...(parser.subcommandsCut ? { dynamicSubcommands: true, dynamicSubcommandsBy: `a module of more than ${MAX_MODULE_COMMANDS.toLocaleString('en-US')} argparse sub-commands` } : {}),
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
      for (const key of this.ctx.attributeUsers({ module: root.module, name: variable })) if (!out.includes(key)) out.push(key);
    }
    return out;
  }

  /** Module-level roots (parsers not created inside a function). */
  moduleRoots(): Parser[] {
    return [...this.parsers.values()].filter((p) => p.root === p && !p.creator);
  }
}

/** Whether `ch` is whitespace as a regex `\s` (no `u` flag) reads it. */
const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

/** The offset of the first non-whitespace character at or after `at`. */
function skipSpace(text: string, at: number): number {
  while (isSpace(text[at])) at++;
  return at;
}

/** Whether `\s*(?:\.\s*[A-Za-z_]|\[|[-+|&^*]=)` matches at `at`: a container changed in place (`G.append`, `G[k] =`, `G +=`). */
function changedAt(text: string, at: number): boolean {
  const next = skipSpace(text, at);
  const ch = text[next];
  if (ch === '[') return true;
  if (ch === '.') return /[A-Za-z_]/.test(text[skipSpace(text, next + 1)] ?? '');
  return ch !== undefined && '-+|&^*'.includes(ch) && text[next + 1] === '=';
}

/** Whether `\s*[,)]` matches at `at`: the end of a name handed on (`f(G)`, `f(x, G)`). */
function handedAt(text: string, at: number): boolean {
  const ch = text[skipSpace(text, at)];
  return ch === ',' || ch === ')';
}

/**
 * What the old per-name regex found for a name stripped to nothing (all non-ASCII, `é = []`):
 * `(?<![\w.])\s*(?:\.\s*[A-Za-z_]|\[|[-+|&^*]=)|[(,=]\s*\s*[,)]` anywhere, read in linear time
 * (the regex with its leading `\s*` tried at every offset is quadratic in a run of blanks).
 */
function emptyNameChanged(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const ch = text[at]!;
    if (isSpace(ch)) continue;
    // From any offset in the blanks before `at` (or at `at` itself after a character not `\w` or `.`).
    if ((at === 0 || !/[\w.]/.test(text[at - 1]!)) && changedAt(text, at)) return true;
    if ((ch === '(' || ch === ',' || ch === '=') && handedAt(text, at + 1)) return true;
  }
  return false;
}

/**
 * Whether `text` may change one of the module-level containers `names` in place: a name (its
 * ASCII word characters) that is a whole word, not after a `.`, followed by `.attr`, `[` or an
 * augmented `op=`; or a name between `(`/`,`/`=` and `,`/`)` (handed to a call, kept as a
 * default). The same answer as the per-name regex
 * `(?<![\w.])N\s*(?:\.\s*[A-Za-z_]|\[|[-+|&^*]=)|[(,=]\s*N\s*[,)]` tried for each name, in one
 * pass over the words of the text with a `Set` (s27 sweep2 D1: one regex per container over the
 * whole module, 20,000 lists in 737 KB: 16.4 s -> 1.8 s CPU for the run).
 *
 * @param text the module's source
 * @param names the containers' names
 * @returns true at the first such use
 */
export function someContainerChanged(text: string, names: Iterable<string>): boolean {
  const wanted = new Set<string>();
  for (const name of names) {
    const n = name.replace(/[^\w]/g, '');
    if (n !== '') wanted.add(n);
    else if (emptyNameChanged(text)) return true;
  }
  if (wanted.size === 0) return false;
  // A whole word in the text is a maximal run of `\w`: what `(?<![\w.])N\s*[^\w…]` and `[(,=]\s*N\s*[,)]` bound N by.
  const word = /\w+/g;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    if (!wanted.has(m[0])) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (text[start - 1] !== '.' && changedAt(text, end)) return true;
    let before = start - 1;
    while (before >= 0 && isSpace(text[before])) before--;
    if (before >= 0 && (text[before] === '(' || text[before] === ',' || text[before] === '=') && handedAt(text, end)) return true;
  }
  return false;
}

/** The names an assignment target binds: identifiers of (nested) tuple/list patterns, never those inside subscripts or attributes. */
function boundNames(target: Node): string[] {
  switch (target.type) {
    case 'identifier':
      return [pythonIdentifier(target.text)];
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

/**
 * The names a loop's statements bind in its frame: assignment and `for` targets, augmented
 * assignments, walrus names, `with … as` and `except … as` targets, and nested `def`/`class`
 * names, at any depth except inside nested functions, classes and lambdas (their own scopes).
 * Walked with an explicit stack, so a deep body cannot overflow.
 */
function assignedNames(loop: Node): string[] {
  const names = new Set<string>();
  const roots = namedChildren(loop).filter((c) => c.type === 'block' || c.type === 'else_clause');
  for (const { node, type } of stackWalkOrder(roots, BINDING_NODE_TYPES, SCOPE_NODE_TYPES)) {
    switch (type) {
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name');
        if (name) names.add(pythonIdentifier(name.text));
        break;
      }
      case 'assignment':
      case 'augmented_assignment':
      case 'for_statement': {
        const left = node.childForFieldName('left');
        if (left) for (const name of left.type === 'identifier' ? [pythonIdentifier(left.text)] : boundNames(left)) names.add(name);
        break;
      }
      case 'named_expression': {
        const name = node.childForFieldName('name');
        if (name) names.add(pythonIdentifier(name.text));
        break;
      }
      case 'as_pattern_target':
        for (const name of namedChildren(node).flatMap(boundNames)) names.add(name);
        break;
      default:
        break;
    }
  }
  return [...names];
}

/** The nodes `escapingMutations` reads in a module: scopes, and what may change a container or hand it on. */
const ESCAPE_NODE_TYPES = [
  'default_parameter', 'typed_default_parameter', 'class_definition', 'lambda', 'list_comprehension', 'set_comprehension', 'dictionary_comprehension',
  'generator_expression', 'function_definition', 'decorator', 'call', 'assignment', 'augmented_assignment', 'delete_statement',
];

/** The nodes {@link ArgparseState.effectsOf} reads in a function body. */
const EFFECT_NODE_TYPES = ['call', 'assignment', 'augmented_assignment', 'delete_statement'];
/** The nodes {@link assignedNames} reads, and the scopes it does not enter ({@link SCOPE_NODE_TYPES}). */
const BINDING_NODE_TYPES = ['function_definition', 'class_definition', 'lambda', 'assignment', 'augmented_assignment', 'for_statement', 'named_expression', 'as_pattern_target'];
const SCOPE_NODE_TYPES: ReadonlySet<string> = new Set(['function_definition', 'class_definition', 'lambda']);

/**
 * The nodes of `types` in the subtrees of `roots` (siblings, in document order; themselves
 * included), with their types, in the order of a walk that pops a node from a stack and pushes
 * its named children in order (starting from `roots` pushed in order): each node before those
 * inside it, of two siblings the later one first, which is the reverse of a post-order walk (end
 * descending, then start ascending). Nodes inside a node of a type in `prune` (itself listed)
 * are left out, as such a walk that does not enter it leaves them.
 *
 * Found by one `descendantsOfType` walk in wasm per root, wrapping only the nodes asked for: the
 * stack walk it replaces (in `effectsOf` and `assignedNames`) made a wrapper object and a call
 * into wasm for every named node of every body it read: on NeMo Gym's 178 flag modules, 0.49 s
 * of a 4.2 s CPU profile of the flag extraction (s41). The order decides the order of what is found (names, mutated symbols)
 * and of the functions `effectsOf` follows (its memo lets a cycle see what is found so far).
 */
export function stackWalkOrder(roots: readonly Node[], types: readonly string[], prune?: ReadonlySet<string>): Array<{ node: Node; type: string }> {
  const found: Array<{ node: Node; type: string; start: number; end: number }> = [];
  for (const root of roots) {
    for (const node of root.descendantsOfType(types as string[])) if (node) found.push({ node, type: node.type, start: node.startIndex, end: node.endIndex });
  }
  found.sort((a, b) => b.end - a.end || a.start - b.start);
  if (!prune) return found;
  const out: Array<{ node: Node; type: string }> = [];
  let skipStart = 0;
  let skipEnd = -1;
  for (const entry of found) {
    if (entry.start >= skipStart && entry.end <= skipEnd) continue; // inside a pruned node (which came just before its descendants)
    out.push(entry);
    if (prune.has(entry.type)) {
      skipStart = entry.start;
      skipEnd = entry.end;
    }
  }
  return out;
}

/** Methods of a list or dict that change nothing (any other may: the container is then unknown, or the change applied). */
const PURE_DATA_METHODS = new Set(['get', 'items', 'keys', 'values', 'copy', 'index', 'count', '__contains__', '__len__', '__getitem__']);

/** Module-level right-hand sides that make a list, dict or set (see `escapingMutations`). */
const CONTAINER_EXPRESSIONS = new Set(['list', 'dictionary', 'set', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension']);
const CONTAINER_CALLS = new Set(['list', 'dict', 'set', 'defaultdict', 'OrderedDict', 'collections.defaultdict', 'collections.OrderedDict', 'Counter', 'deque']);

/** Methods of `list`, `dict` and `set` that change the container: handed on unbound (`map(G.append, xs)`), its contents are unknown. */
const MUTATING_METHODS = new Set(['append', 'extend', 'insert', 'remove', 'pop', 'clear', 'sort', 'reverse', 'update', 'setdefault', 'popitem', 'add', 'discard', '__setitem__', '__delitem__', '__iadd__']);

/** What a function's body may do to module-level names (see `ArgparseState.effectsOf`). */
interface Effects {
  /** Module-level names whose list or dict it may mutate. */
  mutated: Symbol[];
  /** Module-level names it declares `global` and binds or deletes. */
  rebound: Symbol[];
  /** True when it may mutate an object passed to it (a method or subscript write on a parameter). */
  mutatesParams: boolean;
}

/** True when a module-level statement sits in an `if`/`elif`/`else` branch or an `except` clause (read as straight-line code, it may not run). */
function mayNotRun(statement: Node, root: Node): boolean {
  for (let n = statement.parent; n && n.id !== root.id; n = n.parent) {
    if (n.type === 'if_statement' || n.type === 'else_clause' || n.type === 'except_clause' || n.type === 'except_group_clause') return true;
  }
  return false;
}

/** Names a function declares `global` (in its own body, not nested functions'). */
function globalNames(def: Node): string[] {
  const names: string[] = [];
  // The walk marshals every node of the body from the wasm tree: a body without the word needs none.
  if (!/\bglobal\b/.test(def.text)) return names;
  const body = def.childForFieldName('body');
  const stack: Node[] = body ? [body] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'function_definition' || node.type === 'class_definition' || node.type === 'lambda') continue;
    if (node.type === 'global_statement') {
      for (const name of namedChildren(node)) if (name.type === 'identifier') names.push(pythonIdentifier(name.text));
      continue;
    }
    for (const child of namedChildren(node)) stack.push(child);
  }
  return names;
}

/** A function's parameter names (`a`, `b=1`, `c: int`, `*args`, `**kw`). */
function parameterNames(def: Node): string[] {
  const parameters = def.childForFieldName('parameters');
  const names: string[] = [];
  for (const param of parameters ? namedChildren(parameters) : []) {
    const name = param.type === 'identifier' ? param : param.childForFieldName('name') ?? namedChildren(param)[0];
    if (name?.type === 'identifier') names.push(pythonIdentifier(name.text));
  }
  return names;
}

/** The name chain a written-to receiver starts from: `G` of `G["a"][0]`, `mod.G` of `mod.G.items`… (undefined for a call's result). */
function receiverChain(node: Node): string[] | undefined {
  let n = unparen(node);
  for (let i = 0; i < 1000; i++) {
    const dotted = dottedName(n);
    if (dotted) return dotted;
    const inner = n.type === 'subscript' ? n.childForFieldName('value') : n.type === 'attribute' ? n.childForFieldName('object') : null;
    if (!inner) return undefined;
    n = unparen(inner);
  }
  return undefined;
}

/** Builtins the evaluator computes on known values (unless the module defines the name). */
const BUILTINS = new Set(['len', 'list', 'tuple', 'sorted', 'str', 'dict']);

function builtin(name: string, args: Array<Value | undefined>): Value | undefined {
  const [a] = args;
  if (args.length !== 1 || !a) return undefined;
  switch (name) {
    case 'len':
      if (a.kind === 'list') return { kind: 'const', value: a.items.length };
      if (a.kind === 'dict') return { kind: 'const', value: a.keys.size };
      if (a.kind === 'const' && typeof a.value === 'string') return { kind: 'const', value: a.value.length };
      return undefined;
    case 'list':
    case 'tuple': {
      const items = iterate(a);
      return items ? { kind: 'list', items: [...items] } : undefined; // a new list: mutating it leaves `a` alone
    }
    case 'sorted': {
      const items = iterate(a);
      if (!items || items.some((i) => i?.kind !== 'const' || typeof i.value !== 'string')) return undefined;
      return { kind: 'list', items: [...items].sort((x, y) => (String((x as ConstValue).value) < String((y as ConstValue).value) ? -1 : 1)) };
    }
    case 'str':
      return a.kind === 'const' ? { kind: 'const', value: pyStr(a), ...(a.node ? { node: a.node } : {}) } : undefined;
    default:
      return undefined;
  }
}

/** The items a `for` loop over a known value sees: list items, dict keys, string characters are not iterated. */
function iterate(value: Value): Array<Value | undefined> | undefined {
  if (value.kind === 'list') return value.items;
  if (value.kind === 'dict') return [...value.keys.values()];
  return undefined;
}

/** Python truthiness of a known value; undefined when unknown. */
function truthy(value: Value | undefined): boolean | undefined {
  if (!value) return undefined;
  switch (value.kind) {
    case 'const':
      return constTruthy(value);
    case 'list':
      return value.items.length > 0;
    case 'dict':
      return value.keys.size > 0;
    default:
      return true; // objects, parsers and callables are truthy
  }
}

/** Map key of a scalar dict key (`"1"` and `1` are different keys, `1` and `True` the same, as in Python). */
function dictKey(key: ConstValue): string {
  const v = typeof key.value === 'boolean' ? Number(key.value) : key.value;
  return `${typeof v}:${String(v)}`;
}

/** Methods on known data: `str` methods, `dict.items/keys/values/get`. */
function dataMethod(target: Value, method: string, args: Array<Value | undefined>): Value | undefined {
  if (target.kind === 'const' && typeof target.value === 'string') {
    if (args.some((a) => a !== undefined && a.kind !== 'const')) return undefined;
    const result = strMethod(target.value, method, args as Array<ConstValue | undefined>);
    if (result === undefined) return undefined;
    if (typeof result === 'string') return { kind: 'const', value: result, ...(target.node ? { node: target.node } : {}) };
    return { kind: 'list', items: result.map((value) => ({ kind: 'const', value })) };
  }
  if (target.kind === 'dict') {
    switch (method) {
      case 'items':
        return { kind: 'list', items: [...target.keys].map(([k, key]) => ({ kind: 'list', items: [key, target.values.get(k)] })) };
      case 'keys':
        return { kind: 'list', items: [...target.keys.values()] };
      case 'values':
        return { kind: 'list', items: [...target.values.values()] };
      case 'get': {
        const key = args[0];
        if (key?.kind !== 'const') return undefined;
        return target.keys.has(dictKey(key)) ? target.values.get(dictKey(key)) : args[1] ?? { kind: 'const', value: null };
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

function isParserValue(value: Value): value is ParserValue {
  return value.kind === 'parser' || value.kind === 'group' || value.kind === 'subparsers';
}

/** True for a parser object or a list holding one (what makes a call worth following as before). */
function holdsParser(value: Value): boolean {
  return isParserValue(value) || (value.kind === 'list' && value.items.some((i) => i !== undefined && holdsParser(i)));
}

/** The strings of a known list of string constants. */
function constStrings(value: Value | undefined): string[] | undefined {
  if (value?.kind !== 'list') return undefined;
  const out: string[] = [];
  for (const item of value.items) {
    if (item?.kind !== 'const' || typeof item.value !== 'string') return undefined;
    out.push(item.value);
  }
  return out;
}

/**
 * Whether a parser made by this `ArgumentParser(...)` / `add_parser(...)` call accepts an
 * unambiguous prefix of a long option: argparse's `allow_abbrev` defaults to True; any value but a
 * literal `True` (a `False`, or an expression docdrift does not compute) is read as off, so an
 * abbreviation is never accepted on a guess.
 */
function allowsAbbrev(args: CallArgs): boolean {
  const node = args.keywords.get('allow_abbrev');
  return node === undefined || isTrue(node);
}

/**
 * What `/([A-Za-z_]\w*)\.pyi?$/` captures in a file path: the word characters before a final
 * `.py`/`.pyi`, from the first letter or `_` among them. Scanned back from the end: the pattern
 * tried every position of a long word (s27 recheck list).
 */
export function pythonFileStem(file: string): string | undefined {
  const end = file.endsWith('.py') ? file.length - 3 : file.endsWith('.pyi') ? file.length - 4 : -1;
  if (end < 0) return undefined;
  let start = end;
  while (start > 0 && /\w/.test(file[start - 1]!)) start--;
  while (start < end && !/[A-Za-z_]/.test(file[start]!)) start++;
  return start < end ? file.slice(start, end) : undefined;
}
