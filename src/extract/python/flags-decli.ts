/** decli flags: argparse programs described by one dict literal, `cli(data)` (commitizen's `cz`). */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import { callsInFunctions, flagSpec, literalDefault, locate, toDefault, type FlagContext, type FlagModule } from './flags-common.js';
import type { FlagCommand } from './types.js';
import { namedChildren, pythonIdentifier, readValue, stringValue, unparen } from './values.js';

/** The names decli's parser builder is imported as. */
const CLI = new Set(['decli.cli', 'decli.application.cli']);

/** The pairs of a dict literal by string key (`{"name": …, "help": …}`); other keys are left out. */
function entries(dict: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const pair of namedChildren(dict)) {
    if (pair.type !== 'pair') continue;
    const key = pair.childForFieldName('key');
    const value = pair.childForFieldName('value');
    const word = key ? stringValue(key) : undefined;
    if (word !== undefined && value && !out.has(word)) out.set(word, value);
  }
  return out;
}

/** The strings of a string or a list/tuple of strings (`"--config"`, `["-n", "--name"]`); undefined when any item is not a string. */
function strings(node: Node | undefined): string[] | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  if (n.type === 'list' || n.type === 'tuple') {
    const items = namedChildren(n).map((c) => stringValue(c));
    return items.every((s): s is string => s !== undefined) ? items : undefined;
  }
  const one = stringValue(n);
  return one === undefined ? undefined : [one];
}

/**
 * One argument dict as argparse's `add_argument(*name, **rest)` reads it: the long spelling (else
 * the first) names the flag, the other spellings are aliases; a name without a leading `-` is a
 * positional. `action` `store_true`/`store_false` makes a boolean flag, `count` a counted one;
 * `default`, `choices`, `help`, `required`, `dest`, `type` and `nargs` are read as argparse would.
 */
function argument(module: FlagModule, dict: Node): ParamSpec | undefined {
  const e = entries(dict);
  const names = strings(e.get('name'));
  if (!names || names.length === 0) return undefined;
  const flags = names.filter((n) => n.startsWith('-'));
  const location = locate(module, e.get('name') ?? dict);
  const help = e.get('help');
  const description = help ? stringValue(help) : undefined;
  const action = e.get('action') ? stringValue(e.get('action')!) : undefined;
  const choicesNode = e.get('choices');
  const choices = choicesNode ? strings(choicesNode) : undefined;
  const def = e.get('default');
  const required = e.get('required') ? readValue(e.get('required')!).bool === true : false;
  const typeNode = e.get('type');
  const type = action === 'store_true' || action === 'store_false' ? 'bool' : typeNode ? typeNode.text : undefined;
  const defaultValue = def ? toDefault(readValue(def)) : action === 'store_true' ? literalDefault('False') : action === 'store_false' ? literalDefault('True') : undefined;
  const dest = e.get('dest') ? stringValue(e.get('dest')!) : undefined;
  const common = {
    ...(type !== undefined ? { type } : {}),
    ...(defaultValue ? { default: defaultValue } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(choices && choices.length > 0 ? { choices } : {}),
    deprecated: false,
    hidden: description === 'SUPPRESS',
    location,
    ...(action === 'count' ? { counted: true } : {}),
  };
  if (flags.length === 0) {
    const name = names[0]!;
    return flagSpec({ name, aliases: [], required: true, positional: true, dest: dest ?? name, ...common });
  }
  const long = flags.find((f) => f.startsWith('--')) ?? flags[0]!;
  const strip = (f: string): string => f.replace(/^-+/, '');
  // decli hands the flags to argparse: `--g` and `-gx` are typed as declared.
  const optionStrings = declaredOptionStrings(flags);
  return flagSpec({
    name: strip(long),
    aliases: flags.filter((f) => f !== long).map(strip),
    required,
    dest: dest ?? strip(long).replace(/-/g, '_'),
    ...common,
    ...(optionStrings ? { optionStrings } : {}),
  });
}

/**
 * The parameters of a parser dict's `arguments` list. An item `*shared` or `*deepcopy(shared)`
 * splices in a module-level list or tuple of argument dicts (one group of flags several
 * sub-commands share); other items that are not dict literals are not read.
 */
function argumentsOf(module: FlagModule, e: Map<string, Node>): ParamSpec[] {
  const list = e.get('arguments');
  const out: ParamSpec[] = [];
  const items = (node: Node | undefined, depth: number): Node[] => {
    const n = node ? unparen(node) : undefined;
    if (!n || (n.type !== 'list' && n.type !== 'tuple') || depth > 3) return [];
    return namedChildren(n).flatMap((item) => {
      if (item.type !== 'list_splat') return [item];
      let inner = namedChildren(item)[0];
      // `*deepcopy(shared)`, `*copy.copy(shared)`, `*list(shared)`: the copied constant.
      if (inner?.type === 'call') inner = namedChildren(inner.childForFieldName('arguments') ?? inner)[0];
      const shared = inner?.type === 'identifier' ? module.assigns.get(pythonIdentifier(inner.text)) : undefined;
      return items(shared, depth + 1);
    });
  };
  for (const item of items(list, 0)) {
    if (unparen(item).type !== 'dictionary') continue;
    const p = argument(module, unparen(item));
    if (p) out.push(p);
  }
  return out;
}

/**
 * Reads programs built by decli's `cli(data)`: `data` is a dict literal, written in the call or
 * held by a module-level constant, that decli turns into `argparse.ArgumentParser(**rest)` with
 * one `add_argument` per item of `arguments` and one sub-parser per item of
 * `subcommands.commands` (its `name` list: the word and its aliases), recursively
 * (https://github.com/woile/decli). Called inside a top-level function the target is that
 * function (`module:main`), at module level the module. argparse's `-h/--help` is added to each
 * parser. Items that are not dict literals (built by code) are not read.
 */
export function extractDecli(ctx: FlagContext): FlagCommand[] {
  const out: FlagCommand[] = [];
  const emit = (module: FlagModule, node: Node, target: string, path: string[], aliases: string[], depth: number): void => {
    const n = unparen(node);
    if (n.type === 'identifier' && depth === 0) {
      const symbol = ctx.symbol(module, [pythonIdentifier(n.text)]);
      const right = symbol ? symbol.module.assigns.get(symbol.name) : undefined;
      if (symbol && right) emit(symbol.module, right, target, path, aliases, depth + 1);
      return;
    }
    if (n.type !== 'dictionary' || depth > 6) return;
    const e = entries(n);
    const label = target.split(/[.:]/).at(-1) ?? target;
    const owner = [label, ...path].join(' ');
    const location = locate(module, n);
    const params = [...argumentsOf(module, e), ...builtInFlagSpecs('argparse', { root: path.length === 0, location })];
    // argparse accepts a prefix of a long option unless the parser's dict says `"allow_abbrev": False`.
    const abbrev = e.get('allow_abbrev') ? readValue(e.get('allow_abbrev')!).bool !== false : true;
    out.push({ path, ...(aliases.length > 0 ? { aliases } : {}), target, params: params.map((p) => ({ ...p, owner })), location, ...(abbrev ? { abbreviatesLongFlags: true } : {}) });
    const sub = e.get('subcommands');
    const commands = sub && unparen(sub).type === 'dictionary' ? entries(unparen(sub)).get('commands') : undefined;
    for (const item of commands && unparen(commands).type === 'list' ? namedChildren(unparen(commands)) : []) {
      if (unparen(item).type !== 'dictionary') continue;
      const words = strings(entries(unparen(item)).get('name'));
      if (!words || words.length === 0) continue;
      emit(module, item, target, [...path, words[0]!], words.slice(1), depth + 1);
    }
  };
  for (const { module, first, target } of callsInFunctions(ctx, CLI, 'data')) emit(module, first, target, [], [], 0);
  return out;
}
