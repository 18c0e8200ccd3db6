/**
 * Types shared by the TypeScript extractor's modules. They live here, not in the module that
 * produces them, so that modules import each other's types without importing each other (no
 * type-only cycles): `Analysis` implements {@link ConfigAnalysis} for zod.ts, `Evaluator`
 * implements {@link FlagEvaluator} for the yargs and commander readers.
 */
import type { ts } from 'ts-morph';
import type { CommandSpec, ConfigClass, InputDiagnostic, ParamSpec, SourceLocation, DefaultValue } from '../../model/types.js';
import type { CommandNode, FlagFramework } from './flags-node.js';
import type { Resolver } from './resolve.js';
import type { Declaration, ModuleInfo } from './scan.js';

/** One TypeScript (or JavaScript) file to read. */
export interface TypeScriptSource {
  /** Project-relative POSIX path (`src/cli.ts`); `.tsx`/`.mts`/`.cts`/`.js` are parsed by their extension. */
  file: string;
  /** The file's full text. */
  text: string;
}

/** What {@link extractTypeScript} found. */
export interface TypeScriptExtraction {
  /**
   * Every config type found, sorted by qualified name: `interface`s, `class`es, object
   * `type-alias`es and `zod` object schemas, plus synthetic types for nested inline objects
   * (`file#Parent.field`). Types with no fields are left out. Qualified names are
   * `<project-relative file>#<TypeName>` (`src/cli.ts#CliOptions`); `module` is the file path.
   * Fields include inherited ones, bases first, a redefinition replacing the inherited field
   * in its position.
   */
  classes: ConfigClass[];
  /**
   * package.json bin name → qualified names of the config type its entry file uses (one, by the
   * heuristic documented on {@link extractTypeScript} and in `README.md`). Bins with no
   * unambiguous answer are absent.
   */
  binConfigs: Map<string, string[]>;
  /**
   * package.json bin name → the fields of its config type (in {@link binConfigs}) that the program
   * sets from one parsed flag value each, field → the parsed attribute (`skipTypeCheck: !args.typeCheck`
   * gives `skipTypeCheck` → `typeCheck`): such a field is the flag's internal name, not a parameter
   * of its own. Bins with none are absent.
   */
  binFieldFlags: Map<string, Record<string, string>>;
  /**
   * package.json bin names whose config type (in {@link binConfigs}) is only a value the program
   * builds from its parsed input (`const c: InlineConfig = { root, base: options.base }`,
   * `new Server(opts)`), never the parsed input itself: an API's type the program fills on the
   * way. When a CLI framework declares the program's flags, they replace it.
   */
  binConfigsBuilt: Set<string>;
  /**
   * `parse-error` warnings: one per source with syntax errors (at the parser's first error; the
   * rest of the file is still read) and one for a package.json that is not JSON.
   */
  diagnostics: InputDiagnostic[];
}

/** One program or sub-command whose flags a yargs, commander, cac, sade or meow definition (or a `util.parseArgs`/yargs-parser call) declares. */
export interface FlagCommand {
  /** Sub-command words after the program: [] for the program itself, ['eval', 'run'] for `tool eval run`. */
  path: string[];
  /** The source file that defines the program (so the engine can match it to a package.json bin file). */
  file: string;
  /**
   * The command's own flags and positional arguments (origin `cli-flag`), in definition order.
   * Options a parent defines (yargs global options, commander program options) are recorded on
   * the parent only.
   */
  params: ParamSpec[];
  /** The program's creation (`yargs(…)`, `new Command()`), or the sub-command's name in its definition. */
  location: SourceLocation;
  /** Which library defines the command (`parseArgs` is Node's `util.parseArgs`). */
  framework: FlagFramework;
  /** A program's own name when the code gives one (commander `.name('tool')`/`new Command('tool')`, yargs `.scriptName('tool')`, `cac('tool')`, `sade('tool')`); absent for sub-commands. */
  programName?: string;
  /** Other names of the last path word (yargs `['serve', 's']`/`aliases`, commander `.alias('s')`); absent when none. */
  aliases?: string[];
  /**
   * Other whole word paths that run this command (clipanion `static paths = [['build'], ['b']]`,
   * oclif's `deploy:app` for `deploy app` and `static aliases`); absent when none.
   */
  pathAliases?: string[][];
  /** The command's description (yargs `desc`, commander `.description()`/`.summary()`), when it is a string literal. */
  description?: string;
  /** True for a sub-command hidden from help (yargs `desc: false`, commander `{ hidden: true }`); absent otherwise. */
  hidden?: boolean;
  /** True for a command its code marks deprecated (oclif `static state = 'deprecated'`); absent otherwise. */
  deprecated?: boolean;
  /**
   * True when the command accepts flags it does not declare (commander `.allowUnknownOption()`),
   * typically to pass them on to a parser of its own built at run time; absent otherwise.
   */
  passesUnknownFlags?: boolean;
  /**
   * Where docdrift stopped reading the command's flags at a limit (a flags object built by
   * spreads nested more than `MAX_SPREAD_DEPTH` levels deep): the command is partly known, said
   * once in a note naming the place; absent when every flag was read (implies `passesUnknownFlags`).
   */
  unreadFlags?: NonNullable<CommandSpec['unreadFlags']>;
  /**
   * True when the command also gets sub-commands whose names are no string docdrift can read
   * (commander `.command(name)` in a loop over commands loaded at run time); absent otherwise.
   */
  dynamicSubcommands?: boolean;
  /**
   * The construct that makes those sub-commands, as the notes name it (`yargs \`.commandDir()\`
   * with a folder docdrift cannot read`); absent: the generic list (commander `.command(name)`, …).
   */
  dynamicSubcommandsBy?: string;
  /** The sub-command commander runs when the words name none (`.command('init', { isDefault: true })`). */
  defaultSubcommand?: string;
}

/** What {@link extractTypeScriptFlags} found. */
export interface FlagExtraction {
  /** Every program, then its sub-commands depth-first in definition order; programs sorted by file and position. */
  commands: FlagCommand[];
  /** `parse-error` warnings: one per source with syntax errors (the rest of the file is still read). */
  diagnostics: InputDiagnostic[];
}

/** The type whose own members are being read: names the fields' `owner` and nested synthetic types. */
export interface Owner {
  name: string;
  qualifiedName: string;
  kind: ConfigClass['kind'];
  module: ModuleInfo;
}

/** Fields in declaration order (a later definition replaces an earlier one in place) and base names. */
export interface Shape {
  fields: Map<string, ParamSpec>;
  bases: string[];
  /** Levels of named bases its fields come through (0: none; see `MAX_BASE_DEPTH`). */
  depth?: number;
  /** Where a level limit cut its inherited fields (see `ConfigClass.unreadFields`). */
  cut?: NonNullable<ConfigClass['unreadFields']>;
}

/** Function-like nodes whose body can be walked with bound parameters. */
export type FunctionValueNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

/** What an expression evaluates to, as far as flags are concerned. */
export type Value =
  | { kind: 'command'; node: CommandNode }
  /** A commander `Option` or `Argument` not yet added to a command. */
  | { kind: 'option'; option: OptionValue }
  /** The yargs factory; as a receiver it is the yargs singleton of `key`. */
  | { kind: 'yargs'; key: string; location: SourceLocation }
  /** The commander module (`member` undefined) or one of its exports (`Command`, `Option`, `createCommand`, …). */
  | { kind: 'commander'; key: string; member?: string; location: SourceLocation }
  | { kind: 'function'; node: FunctionValueNode }
  /** An object literal, or `Object.assign(target, …sources)` (the entries of each argument in order). */
  | { kind: 'object'; node: ts.ObjectLiteralExpression | ts.CallExpression }
  | { kind: 'array'; node: ts.ArrayLiteralExpression }
  /** A class declaration or expression (its static members are read: oclif `BaseCommand.baseFlags`). */
  | { kind: 'class'; node: ts.ClassLikeDeclaration }
  /** The factory a CLI library exports (`cac`, `sade`, `meow`): calling it makes a program. */
  | { kind: 'factory'; framework: 'cac' | 'sade' | 'meow'; location: SourceLocation }
  /** A module namespace (`import * as serve from './serve.js'`). */
  | { kind: 'namespace'; module: ModuleInfo }
  /** A CommonJS module's `exports.x = …` assignments (when it has no `module.exports = …`). */
  | { kind: 'cjs-exports'; module: ModuleInfo }
  /** A class of the project (not a commander subclass): `static` members are its members. */
  | { kind: 'class'; node: ts.ClassLikeDeclaration }
  /** `new X()` of a project class: its instance members (properties, getters, methods, constructor `this.x = …`). */
  | { kind: 'instance'; node: ts.ClassLikeDeclaration };

/** One entry of an object literal of options: `port: {…}`, `port` (shorthand), `builder(y) {…}`. */
export interface Entry {
  key: string;
  keyNode: ts.Node;
  value: ts.Node;
}

/** A commander `Option` or `Argument` (or the one an `.option()`/`.argument()` call makes). */
export interface OptionValue {
  kind: 'option' | 'argument';
  spec: ParamSpec;
  /** `none` (a boolean flag), `required` (`<v>`) or `optional` (`[v]`). */
  value: 'none' | 'required' | 'optional';
  variadic: boolean;
}

/** What the zod schema reader needs of the config-type analysis (implemented by `Analysis` in analysis.ts). */
export interface ConfigAnalysis {
  readonly resolver: Resolver;
  /** Nested object types without a name of their own, by qualified name. */
  readonly synthetic: Map<string, ConfigClass>;
  /** The declaration's config type, or a placeholder while it is being built (a cycle); null when it is none. */
  configOrPending(module: ModuleInfo, decl: Declaration): ConfigClass | null;
  /** True while the declaration's config type is being built. */
  isPending(decl: Declaration): boolean;
}

/** What the yargs and commander readers need of the evaluator (implemented by `Evaluator` in flags-eval.ts). */
export interface FlagEvaluator {
  applyFunction(fn: FunctionValueNode, args: readonly (Value | undefined)[]): void;
  evaluate(node: ts.Node): Value | undefined;
  memberNode(value: Value, name: string): ts.Node | undefined;
  entries(value: Value | undefined, depth?: number): Entry[];
  objectEntries(expr: ts.Node | undefined): Entry[] | undefined;
  /** Whether an object value has parts docdrift cannot read: a spread that is no known object. */
  hasUnknownParts(value: Value | undefined): boolean;
  /** Marks a command whose flags object has parts not read (see `Evaluator.markUnreadParts`). */
  markUnreadParts(node: CommandNode, value: Value | undefined): void;
  created(node: CommandNode): CommandNode;
  /** Gives a `.command('x')` child what its parent's `createCommand` override builds (see `Evaluator.subclassChild`). */
  subclassChild(parent: CommandNode, child: CommandNode): void;
  stringOf(node: ts.Node, depth?: number): string | undefined;
  stringsOf(node: ts.Node | undefined, numbers?: boolean, depth?: number): string[] | undefined;
  booleanOf(node: ts.Node | undefined): boolean | undefined;
  location(node: ts.Node): SourceLocation;
  tokenLocation(literal: ts.Node, index: number, length: number): SourceLocation;
  /** A default as written, or the literal a constant expression stands for (`DEPLOYMENT[0]` → `"remote-first"`). */
  defaultOf(expr: ts.Expression): DefaultValue;
  /** The branch a conditional takes when its condition is known; else the expression itself. */
  knownBranch(expr: ts.Expression): ts.Expression;
  /**
   * The command modules `.commandDir(dir, options)` loads, as yargs does: each file of `dir`
   * (relative to the calling file; `recurse` for sub-folders) whose name ends with one of
   * `extensions`, with its value as `require()` gives it and the command name yargs falls back on.
   * `undefined` when the folder or options cannot be read.
   */
  commandDirModules(call: ts.CallExpression): Array<{ value: Value; name: string; at: ts.Node }> | undefined;
  /** The expression a value is defined by, through variables, imports, object properties and static members. */
  definition(expr: ts.Expression): ts.Expression;
  /** The class a class extends, when the evaluator can follow it. */
  baseClass(cls: ts.ClassLikeDeclaration): Extract<Value, { kind: 'class' }> | undefined;
  /** Spreads of an object literal whose entries are not known (see `Evaluator.unreadSpreads`). */
  unreadSpreads(obj: ts.ObjectLiteralExpression | ts.CallExpression): ts.Expression[];
  /** The module a node is in. */
  moduleOf(node: ts.Node): ModuleInfo | undefined;
  /** The module a specifier names as seen from the file of `from` (relative or a workspace package). */
  moduleAt(from: ts.Node, specifier: string): ModuleInfo | undefined;
  /** A member of a module-like value (an object literal's property, a namespace's export, a class's static member). */
  member(value: Value, name: string, at: ts.Node): Value | undefined;
  /**
   * Records a `parse-error` warning at `node` (`<file>:<line>:<column>: <message>`): a definition
   * over one of the readers' limits, read in part or not at all. Reported with the run's other
   * TypeScript diagnostics.
   */
  warn(node: ts.Node, message: string): void;
}
