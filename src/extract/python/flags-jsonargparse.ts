/** jsonargparse flags: `CLI(func)` / `auto_cli(func)` programs (a function, a list or a dict of functions), with parameters read from function signatures. */
import type { Node } from 'web-tree-sitter';
import type { ParamSpec, SourceLocation } from '../../model/types.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { builtInFlagSpecs } from '../builtin-flags.js';
import { callArgs, callsInFunctions, flagSpec, locate, toDefault, type FlagContext, type FlagModule, type Symbol } from './flags-common.js';
import { literalChoices } from './flags-typer.js';
import type { FlagCommand } from './types.js';
import { annotationCore } from './index.js';
import { dottedName, namedChildren, parameterParts, pythonIdentifier, readValue, stringValue, unparen } from './values.js';
import { isInitFalseField } from './fields.js';

const CLI = new Set(['jsonargparse.CLI', 'jsonargparse.auto_cli', 'jsonargparse._cli.CLI', 'jsonargparse._cli.auto_cli']);

/**
 * Reads jsonargparse programs built by `CLI(component)` / `auto_cli(component)`. The component
 * is a function (a single command), a list of functions (sub-commands named by the function
 * names, as `CLI` does with `{c.__name__: c}`) or a dict literal of word → function, written in
 * the call or held by a module-level constant (`CLI(PARSER_DATA)`). Called at
 * module level (also under `if __name__ == "__main__":`) the program's target is the module
 * (`python -m module`); called inside a top-level function, that function (`module:main`).
 *
 * Parameters, as jsonargparse's `add_function_arguments` with `as_positional=True` makes them:
 * a parameter without a default is a positional argument, one with a default an option
 * `--name` spelled as in Python (underscores kept); a parameter typed by a repository config class
 * (dataclass or pydantic model) also gives `--name.field` for each of the class's own annotated
 * fields. `CLI` adds `--config` and `--print_config` to every command (hidden, from
 * `BUILT_IN_FLAGS.jsonargparse`).
 *
 * Not read: classes as components (their `__init__` and methods), `CLI()` with no argument (every
 * function of the module), docstring help, inherited fields of nested classes, `ArgumentParser`
 * with `add_class_arguments` (read by the argparse extractor when `jsonargparse.ArgumentParser`
 * is used like argparse).
 */
export function extractJsonargparse(ctx: FlagContext): FlagCommand[] {
  const out: FlagCommand[] = [];
  const emit = (module: FlagModule, component: Node, target: string, location: SourceLocation, depth = 0): void => {
    const n = unparen(component);
    // A module-level constant holding the component (`PARSER_DATA = {"chat": chat_fn, ...}`; litgpt).
    const constant = n.type === 'identifier' || n.type === 'attribute' ? ctx.symbol(module, dottedName(n)) : undefined;
    const right = constant && !constant.module.functions.has(constant.name) ? constant.module.assigns.get(constant.name) : undefined;
    if (constant && right && depth < 3) {
      emit(constant.module, right, target, location, depth + 1);
      return;
    }
    const members: Array<{ word: string; fn: Symbol }> = [];
    if (n.type === 'list' || n.type === 'tuple') {
      for (const item of namedChildren(n)) {
        const fn = functionOf(ctx, module, item);
        if (fn) members.push({ word: fn.name, fn });
      }
    } else if (n.type === 'dictionary') {
      for (const pair of namedChildren(n)) {
        const key = pair.childForFieldName('key');
        const value = pair.childForFieldName('value');
        const word = key ? stringValue(key) : undefined;
        const fn = value ? functionOf(ctx, module, value) : undefined;
        if (word !== undefined && fn) members.push({ word, fn });
      }
    } else {
      const fn = functionOf(ctx, module, n);
      if (!fn) return;
      const owner = fn.name;
      const params = [...signature(ctx, fn), ...builtInFlagSpecs('jsonargparse', { root: true, location })];
      out.push({ path: [], target, params: params.map((p) => ({ ...p, owner })), location });
      return;
    }
    if (members.length === 0) return;
    const label = target.split(/[.:]/).at(-1) ?? target;
    out.push({ path: [], target, params: builtInFlagSpecs('jsonargparse', { root: true, location }).map((p) => ({ ...p, owner: label })), location });
    for (const { word, fn } of members) {
      const params = [...signature(ctx, fn), ...builtInFlagSpecs('jsonargparse', { root: false, location })];
      const entry = fn.module.functions.get(fn.name);
      const at = entry ? locate(fn.module, entry.def.childForFieldName('name') ?? entry.def) : location;
      out.push({ path: [word], target, params: params.map((p) => ({ ...p, owner: `${label} ${word}` })), location: at });
    }
  };
  for (const module of ctx.modules.values()) {
    // Module level: `if __name__ == "__main__": CLI(main)`.
    for (const statement of module.statements) {
      for (const expr of statement.type === 'expression_statement' ? namedChildren(statement) : []) {
        const call = unparen(expr);
        if (call.type !== 'call') continue;
        const args = callArgs(call);
        const first = args.positional[0] ?? args.keywords.get('components');
        if (first && CLI.has(ctx.external(module, args.callee) ?? '')) emit(module, first, module.info.module, locate(module, call));
      }
    }
  }
  // Inside a function: `def main(): CLI([fit, test])`.
  for (const { module, call, first, target } of callsInFunctions(ctx, CLI, 'components')) emit(module, first, target, locate(module, call));
  return out;
}

function functionOf(ctx: FlagContext, module: FlagModule, node: Node): Symbol | undefined {
  const fn = ctx.symbol(module, dottedName(node));
  return fn && fn.module.functions.has(fn.name) ? fn : undefined;
}

/** The parameters of a component function, as jsonargparse adds them (`as_positional=True`). */
function signature(ctx: FlagContext, fn: Symbol): ParamSpec[] {
  const module = fn.module;
  const parameters = module.functions.get(fn.name)?.def.childForFieldName('parameters');
  const out: ParamSpec[] = [];
  for (const param of parameters ? namedChildren(parameters) : []) {
    const { name: nameNode, type: typeNode, value: valueNode, variadic } = parameterParts(param);
    if (variadic || !nameNode || nameNode.type !== 'identifier' || pythonIdentifier(nameNode.text) === 'self') continue; // *args, **kwargs
    const name = pythonIdentifier(nameNode.text);
    const annotation = typeNode ? namedChildren(typeNode)[0] ?? typeNode : undefined;
    const type = annotation?.text;
    const defaultValue = valueNode ? readValue(valueNode) : undefined;
    const choices = annotation ? literalChoices(ctx, module, annotation) : undefined;
    const common = {
      ...(type !== undefined ? { type } : {}),
      ...(defaultValue ? { default: toDefault(defaultValue) } : {}),
      required: !valueNode,
      deprecated: false,
      hidden: false,
      location: locate(module, nameNode),
      dest: name,
      ...(choices ? { choices } : {}),
    };
    // jsonargparse spells every option `--<name>`, one letter long too (`g` → `--g`).
    const optionStrings = valueNode ? declaredOptionStrings([`--${name}`]) : undefined;
    out.push(flagSpec({ name, aliases: [], ...common, ...(valueNode ? {} : { positional: true }), ...(optionStrings ? { optionStrings } : {}) }));
    // A config class parameter: its fields are options `--name.field`.
    const core = type !== undefined ? annotationCore(type) : undefined;
    const resolved = core !== undefined && /^[A-Za-z_][\w.]*$/.test(core) ? ctx.resolver.resolve(module.info, core.split('.')) : undefined;
    if (resolved?.kind !== 'class') continue;
    for (const field of resolved.cls.fields) {
      if (field.name.startsWith('_') || field.annotationHead?.at(-1) === 'ClassVar' || isInitFalseField(field)) continue;
      out.push(flagSpec({
        name: `${name}.${field.name}`,
        aliases: [],
        type: field.annotation,
        ...(field.value ? { default: toDefault(field.value) } : {}),
        required: false,
        deprecated: false,
        hidden: false,
        location: field.location,
        dest: `${name}.${field.name}`,
      }));
    }
  }
  return out;
}
