/** The mutable command tree that yargs, commander, cac and sade definitions are read into, before it becomes FlagCommands. */
import type { ts } from 'ts-morph';
import type { CommandSpec, ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings, usualFlagSpelling } from '../../model/flag-spelling.js';

/** A program or sub-command as the evaluator builds it (definitions mutate it, as the libraries do). */
export interface CommandNode {
  framework: FlagFramework;
  /** The sub-command word; for a program, its name if any (not part of any path). */
  name?: string;
  aliases: string[];
  /** Other whole word paths that run this command (see `FlagCommand.pathAliases`). */
  pathAliases?: string[][];
  description?: string;
  hidden: boolean;
  /** oclif `static state = 'deprecated'`. */
  deprecated?: boolean;
  parent?: CommandNode;
  children: CommandNode[];
  params: ParamSpec[];
  /** The file where the node was created. */
  file: string;
  location: SourceLocation;
  /** Created as a program: a yargs factory call, an unnamed `new Command()`. */
  program: boolean;
  /** The commander global `program` or the yargs singleton: a program only when used. */
  singleton: boolean;
  /** `.parse()`, `.parseAsync()`, `.argv` was seen. */
  parsed: boolean;
  /** commander `.allowUnknownOption()`: flags the command does not declare are accepted (and passed on). */
  passesUnknownFlags?: boolean;
  /** Where a reading limit cut the command's flags (see `FlagCommand.unreadFlags`); absent when none did. */
  unreadFlags?: NonNullable<CommandSpec['unreadFlags']>;
  /** `.command(name)` was called with a name that is no known string (sub-commands made at run time from a list docdrift cannot read). */
  dynamicSubcommands?: boolean;
  /**
   * The construct that makes those sub-commands, as the notes name it (`yargs \`.commandDir()\`
   * with a folder docdrift cannot read`); absent: the generic list (commander `.command(name)`, …).
   */
  dynamicSubcommandsBy?: string;
  /** commander `.command('init', { isDefault: true })`: the sub-command run when none is named. */
  defaultCommand?: string;
  /**
   * sade only: the command that `.option()`, `.describe()`, `.alias()` and `.action()` on the
   * program apply to (the last `.command()`); absent before any, when they apply to the program.
   */
  current?: CommandNode;
  /**
   * cac only: the default command (`cli.command('[root]')`), whose options and arguments are the
   * program's and whose aliases are sub-command names that run it (see `finishCacProgram`).
   */
  defaultNode?: CommandNode;
  /**
   * commander only: the project subclass of `Command` this node is an instance of, when it
   * overrides `createCommand` (commander then builds each `.command('x')` child with it, so the
   * children get what its constructor adds).
   */
  subclass?: ts.ClassLikeDeclaration;
  /**
   * yargs only: `.env('PREFIX')` (the prefix), `.env()` (`''`: every variable), `.env(false)`
   * (`false`: turned off again). yargs keeps it when it resets the instance for a sub-command's
   * builder, so it holds for the sub-commands too (see `yargsEnvName` in flags-yargs.ts).
   */
  envPrefix?: string | false;
}

/** The libraries whose definitions become command nodes (`parseArgs` is Node's `util.parseArgs`). */
export type FlagFramework = 'yargs' | 'commander' | 'parseArgs' | 'yargs-parser' | 'arg' | 'mri' | 'minimist' | 'oclif' | 'clipanion' | 'citty' | 'cac' | 'sade' | 'meow';

/** A new command node. */
export function newNode(framework: CommandNode['framework'], location: SourceLocation, init: Partial<Pick<CommandNode, 'name' | 'program' | 'singleton'>> = {}): CommandNode {
  const node: CommandNode = {
    framework,
    aliases: [],
    hidden: false,
    children: [],
    params: [],
    file: location.file,
    location,
    program: init.program ?? false,
    singleton: init.singleton ?? false,
    parsed: false,
  };
  if (init.name !== undefined) node.name = init.name;
  return node;
}

/** A fresh flag spec: not required, not hidden, owner filled in at the end. */
export function newParam(name: string, location: SourceLocation): ParamSpec {
  return { name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'cli-flag', owner: '', location };
}

/**
 * A node's params by name and by alias, kept up to date as params are appended and as
 * {@link addAlias} adds aliases, so that {@link findParam} is one map lookup: a scan of the params
 * made a yargs program of 10,000 options (a loop, #33 s26 sweep2 D4) cost 50 million comparisons.
 * `seen` params of `params` (the node's array when it was built) are indexed; each map keeps, for a
 * name, the spec of lowest position, as `Array.prototype.find` over the params would.
 */
interface ParamIndex {
  params: ParamSpec[];
  seen: number;
  byName: Map<string, number>;
  byAlias: Map<string, number>;
}

/** Each node's {@link ParamIndex}. */
const paramIndexes = new WeakMap<CommandNode, ParamIndex>();

/** The indexes a spec is indexed in, with its position in each (a spec may be in two nodes' params, as cac copies them). */
const specPositions = new WeakMap<ParamSpec, Array<[ParamIndex, number]>>();

/** Sets `key` to `position` in `map` unless a lower position holds it. */
function keepFirst(map: Map<string, number>, key: string, position: number): void {
  const had = map.get(key);
  if (had === undefined || position < had) map.set(key, position);
}

/** `node`'s index, with every param appended since the last call indexed (built again when its array was replaced or shortened). */
function paramIndex(node: CommandNode): ParamIndex {
  let index = paramIndexes.get(node);
  if (index === undefined || index.params !== node.params || index.seen > node.params.length) {
    index = { params: node.params, seen: 0, byName: new Map(), byAlias: new Map() };
    paramIndexes.set(node, index);
  }
  for (; index.seen < node.params.length; index.seen++) {
    const spec = node.params[index.seen]!;
    keepFirst(index.byName, spec.name, index.seen);
    for (const alias of spec.aliases) keepFirst(index.byAlias, alias, index.seen);
    const positions = specPositions.get(spec);
    if (positions === undefined) specPositions.set(spec, [[index, index.seen]]);
    else positions.push([index, index.seen]);
  }
  return index;
}

/**
 * The param of `node` named `name`, else the first aliased `name` (what a scan of `node.params`
 * by name, then by alias, finds). Aliases must be added with {@link addAlias}, and params changed
 * only by appending (or by giving the node a new array), for the index to see them; a hit is
 * checked against the spec, so a stale entry is never returned.
 */
export function findParam(node: CommandNode, name: string): ParamSpec | undefined {
  const index = paramIndex(node);
  const byName = index.byName.get(name);
  const named = byName === undefined ? undefined : node.params[byName];
  if (named?.name === name) return named;
  const byAlias = index.byAlias.get(name);
  const aliased = byAlias === undefined ? undefined : node.params[byAlias];
  if (aliased?.aliases.includes(name)) return aliased;
  // A stale entry (a spec renamed or an alias removed in place): the scan, as before.
  if (named !== undefined || aliased !== undefined) return node.params.find((p) => p.name === name) ?? node.params.find((p) => p.aliases.includes(name));
  return undefined;
}

/** Adds `alias` to the spec's aliases unless it is its name or already there (and to the alias index of each node the spec is in, see {@link findParam}). */
export function addAlias(spec: ParamSpec, alias: string): void {
  if (alias === spec.name || spec.aliases.includes(alias)) return;
  spec.aliases.push(alias);
  for (const [index, position] of specPositions.get(spec) ?? []) keepFirst(index.byAlias, alias, position);
}

/**
 * Gives `existing` (an option that `other` is merged into: `--x` and `--no-x`) the option strings
 * of both: when either declares its own ({@link ParamSpec.optionStrings}), the other's names count
 * in their usual spellings.
 */
export function mergeOptionStrings(existing: ParamSpec, other: ParamSpec): void {
  if (!existing.optionStrings && !other.optionStrings) return;
  const strings = (p: ParamSpec): string[] => p.optionStrings ?? [p.name, ...p.aliases].map(usualFlagSpelling);
  const merged = declaredOptionStrings([...strings(existing), ...strings(other)]);
  if (merged) existing.optionStrings = merged;
}

/**
 * The option strings an mri-style parser (cac, citty) accepts for declared `strings`: each, and
 * for a one-letter `--g` also `-g`, which it reads as the same key.
 */
export function mriSpellings(strings: readonly string[]): string[] {
  const out = [...strings];
  for (const s of strings) if (s.length === 3 && s.startsWith('--') && !out.includes(s.slice(1))) out.push(s.slice(1));
  return out;
}

/**
 * `shard-id` → `shardId` (the rule yargs' camel-case expansion and commander's attribute names
 * share); a trailing run of dashes stays. Linear: `/-+([^-])/g` was quadratic in a run of dashes
 * with nothing after it (a flag name of 150,000 dashes in a TypeScript source, #33 s27 sweep D3);
 * here each run is matched once, with the character after it when there is one.
 */
export function camelCase(name: string): string {
  return name.replace(/-+([^-]?)/g, (run: string, c: string) => (c === '' ? run : c.toUpperCase()));
}

/** Makes `child` a sub-command of `parent`, unless that would make a cycle or it already has a parent. */
export function attach(parent: CommandNode, child: CommandNode): boolean {
  if (child.parent || child === parent) return false;
  for (let p: CommandNode | undefined = parent; p; p = p.parent) if (p === child) return false;
  child.parent = parent;
  parent.children.push(child);
  return true;
}
