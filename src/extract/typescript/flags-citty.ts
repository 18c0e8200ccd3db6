/** citty CLIs: `defineCommand({ meta, args, subCommands })` trees run by `runMain(main)`. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { addAlias, attach, mriSpellings, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import type { ModuleInfo } from './scan.js';
import { skipOuter, walkTree } from './syntax.js';
import type { FlagEvaluator } from './types.js';

const CITTY = 'citty';
/** citty functions that run a command given first: the program. */
const RUNNERS = new Set(['runMain', 'runCommand', 'createMain']);
/** How deep sub-commands are followed. */
const MAX_DEPTH = 8;

/** Local names `module` imports citty's exports under: local → exported name. */
function cittyImports(module: ModuleInfo): Map<string, string> {
  const out = new Map<string, string>();
  for (const [local, b] of module.imports) if (b.specifier === CITTY) out.set(local, b.imported);
  return out;
}

/**
 * Every citty program in `module`: the command given to `runMain(cmd)` (also `runCommand`,
 * `createMain`). A command is `defineCommand({…})` or a plain object with `meta` (`name`,
 * `description`, `hidden`), `args` and `subCommands`, followed through variables, imports,
 * `export default` and lazy loaders (`() => import('./dev').then((r) => r.default)`, `async () =>
 * (await import('./dev')).default`, `() => import('./dev')`). The program is named by its
 * `meta.name`; each `subCommands` key is a sub-command word (nested to any depth).
 *
 * Per arg (the key is the name; citty also accepts the key's camel-case and kebab-case twins):
 * `type` `'string'`, `'boolean'` (negatable: citty accepts `--no-x`), `'enum'` (with `options`:
 * choices) or `'positional'` (a positional argument, required unless `required: false` or a
 * default), `alias` (a string or a list), `default`, `description`, `required`.
 *
 * A `subCommands` or `args` that is not an object docdrift can read (a function building it at
 * run time) marks the command `dynamicSubcommands` (sub-commands) or leaves its flags unread.
 */
export function cittyPrograms(ev: FlagEvaluator, module: ModuleInfo): CommandNode[] {
  if (!module.sf.text.includes(CITTY)) return [];
  const imports = cittyImports(module);
  const runners = new Set([...imports].filter(([, imported]) => RUNNERS.has(imported)).map(([local]) => local));
  if (runners.size === 0) return [];
  const out: CommandNode[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && runners.has(n.expression.text) && n.arguments[0]) {
      const def = commandObject(ev, n.arguments[0], 0);
      if (def) {
        const root = newNode('citty', ev.location(n), { program: true });
        root.parsed = true;
        const name = metaOf(ev, def).name;
        if (name !== undefined) root.name = name;
        fill(ev, root, def, 0, new Set());
        out.push(root);
      }
    }
  };
  walkTree(module.sf, visit);
  return out;
}

/** The object literal defining a command: `defineCommand({…})`, a plain object, a lazy loader's module default. */
function commandObject(ev: FlagEvaluator, expr: ts.Node, depth: number): ts.ObjectLiteralExpression | undefined {
  if (depth > 6 || !ts.isExpression(expr)) return undefined;
  let e = ev.definition(expr);
  if (ts.isAwaitExpression(e)) e = skipOuter(e.expression);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) {
    const body = returnedExpression(e);
    return body ? commandObject(ev, body, depth + 1) : undefined;
  }
  if (ts.isCallExpression(e)) {
    const callee = skipOuter(e.expression);
    // `import('./dev').then((r) => r.default)`.
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'then' && isImportCall(callee.expression)) {
      const module = importedModule(ev, callee.expression as ts.CallExpression);
      const picked = e.arguments[0] ? pickedExport(e.arguments[0]) : 'default';
      return module && picked !== undefined ? exportObject(ev, module, picked, depth) : undefined;
    }
    if (isImportCall(e)) {
      const module = importedModule(ev, e);
      return module ? exportObject(ev, module, 'default', depth) : undefined;
    }
    // `defineCommand({…})` (any wrapper that takes the definition first).
    const arg = e.arguments[0];
    if (arg) {
      const inner = ev.definition(arg);
      if (ts.isObjectLiteralExpression(inner)) return inner;
    }
    return undefined;
  }
  // `(await import('./dev')).default`.
  if (ts.isPropertyAccessExpression(e)) {
    let base = skipOuter(e.expression);
    if (ts.isAwaitExpression(base)) base = skipOuter(base.expression);
    if (isImportCall(base)) {
      const module = importedModule(ev, base as ts.CallExpression);
      return module ? exportObject(ev, module, e.name.text, depth) : undefined;
    }
  }
  return undefined;
}

function isImportCall(e: ts.Expression): boolean {
  const x = skipOuter(e);
  return ts.isCallExpression(x) && x.expression.kind === ts.SyntaxKind.ImportKeyword;
}

function importedModule(ev: FlagEvaluator, call: ts.CallExpression): ModuleInfo | undefined {
  const arg = call.arguments[0];
  const specifier = arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
  return specifier === undefined ? undefined : ev.moduleAt(call, specifier);
}

/** `(r) => r.default` / `(m) => m.build`: the export a `.then` callback picks. */
function pickedExport(fn: ts.Expression): string | undefined {
  const f = skipOuter(fn);
  if (!ts.isArrowFunction(f) && !ts.isFunctionExpression(f)) return undefined;
  const body = returnedExpression(f);
  const b = body ? skipOuter(body) : undefined;
  return b && ts.isPropertyAccessExpression(b) ? b.name.text : undefined;
}

function exportObject(ev: FlagEvaluator, module: ModuleInfo, name: string, depth: number): ts.ObjectLiteralExpression | undefined {
  const node = ev.memberNode({ kind: 'namespace', module }, name);
  return node && ts.isExpression(node) ? commandObject(ev, node, depth + 1) : undefined;
}

function returnedExpression(fn: ts.ArrowFunction | ts.FunctionExpression): ts.Expression | undefined {
  if (!ts.isBlock(fn.body)) return fn.body;
  for (const s of fn.body.statements) if (ts.isReturnStatement(s) && s.expression) return s.expression;
  return undefined;
}

function metaOf(ev: FlagEvaluator, def: ts.ObjectLiteralExpression): { name?: string; description?: string; hidden?: boolean } {
  const meta = ev.objectEntries(def)?.find((e) => e.key === 'meta');
  const entries = meta ? ev.objectEntries(meta.value) : undefined;
  const out: { name?: string; description?: string; hidden?: boolean } = {};
  for (const e of entries ?? []) {
    if (e.key === 'name') {
      const s = ev.stringOf(e.value);
      if (s !== undefined) out.name = s;
    } else if (e.key === 'description') {
      const s = ev.stringOf(e.value);
      if (s !== undefined) out.description = s;
    } else if (e.key === 'hidden') out.hidden = ev.booleanOf(e.value) === true;
  }
  return out;
}

/** Reads a command definition into `node`; `ancestors` are the definitions above it (a command may appear in several places, not inside itself). */
function fill(ev: FlagEvaluator, node: CommandNode, def: ts.ObjectLiteralExpression, depth: number, ancestors: Set<ts.Node>): void {
  if (ancestors.has(def) || depth > MAX_DEPTH) return;
  ancestors.add(def);
  try {
    fillDefinition(ev, node, def, depth, ancestors);
  } finally {
    ancestors.delete(def);
  }
}

function fillDefinition(ev: FlagEvaluator, node: CommandNode, def: ts.ObjectLiteralExpression, depth: number, ancestors: Set<ts.Node>): void {
  const meta = metaOf(ev, def);
  if (meta.description !== undefined) node.description = meta.description;
  if (meta.hidden) node.hidden = true;
  const entries = ev.objectEntries(def) ?? [];
  const args = entries.find((e) => e.key === 'args');
  if (args) {
    for (const a of ev.objectEntries(args.value) ?? []) node.params.push(argSpec(ev, a.key, a.keyNode, a.value));
    ev.markUnreadParts(node, ev.evaluate(args.value));
  }
  const subs = entries.find((e) => e.key === 'subCommands');
  if (!subs) return;
  let subEntries = ev.objectEntries(subs.value);
  if (!subEntries && ts.isExpression(subs.value)) {
    // `subCommands: () => ({ … })` or a lazy loader of the object.
    const obj = lazyObject(ev, subs.value);
    subEntries = obj ? ev.objectEntries(obj) : undefined;
  }
  if (!subEntries) {
    node.dynamicSubcommands = true;
    node.dynamicSubcommandsBy = 'citty `subCommands` docdrift cannot read';
    return;
  }
  for (const s of subEntries) {
    const child = commandObject(ev, s.value, 0);
    const childNode = newNode('citty', ev.location(s.keyNode), { name: s.key });
    if (!child) childNode.passesUnknownFlags = true; // a sub-command docdrift cannot read: its flags are unknown
    attach(node, childNode);
    if (child) fill(ev, childNode, child, depth + 1, ancestors);
  }
}

function lazyObject(ev: FlagEvaluator, expr: ts.Expression): ts.Node | undefined {
  const e = ev.definition(expr);
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) {
    const body = returnedExpression(e);
    return body ? ev.definition(body) : undefined;
  }
  return undefined;
}

function argSpec(ev: FlagEvaluator, name: string, at: ts.Node, value: ts.Node): ParamSpec {
  const spec = newParam(name, ev.location(at));
  spec.dest = name;
  let type: string | undefined;
  let hasDefault = false;
  let required: boolean | undefined;
  for (const o of ev.objectEntries(value) ?? []) {
    if (o.key === 'type') type = ev.stringOf(o.value);
    else if (o.key === 'alias') for (const a of ev.stringsOf(o.value) ?? []) addAlias(spec, a);
    else if (o.key === 'description') spec.description = ev.stringOf(o.value);
    else if (o.key === 'required') required = ev.booleanOf(o.value);
    else if (o.key === 'default' && ts.isExpression(o.value)) {
      spec.default = ev.defaultOf(o.value);
      hasDefault = true;
    } else if (o.key === 'options') {
      const choices = ev.stringsOf(o.value);
      if (choices) spec.choices = choices;
    }
  }
  if (type === 'positional') {
    spec.positional = true;
    delete spec.dest;
    spec.required = required !== false && !hasDefault;
  } else {
    spec.required = required === true;
    // citty shows every key as `--<key>` (`g` is `--g`); its parser reads `-g` as the same key.
    const optionStrings = declaredOptionStrings([`--${name}`]);
    if (optionStrings) spec.optionStrings = mriSpellings(optionStrings);
    if (type === 'boolean') {
      spec.type = 'boolean';
      spec.negatable = true;
    } else if (type === 'string' || type === 'enum') spec.type = 'string';
  }
  return spec;
}
