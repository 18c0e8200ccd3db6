/** Programs that parse their arguments with one call of a declarative parser: Node's `util.parseArgs` and `yargs-parser`. */
import { ts } from 'ts-morph';
import type { ParamSpec } from '../../model/types.js';
import { addAlias, camelCase, newNode, newParam, type CommandNode } from './flags-node.js';
import type { ModuleInfo } from './scan.js';
import { skipOuter } from './syntax.js';
import type { FlagEvaluator } from './types.js';

const UTIL = new Set(['node:util', 'util']);
const YARGS_PARSER = 'yargs-parser';

/** `seedCount` → `seed-count`: the other spelling yargs' camel-case expansion accepts. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}-${b.toLowerCase()}`);
}

/**
 * The spelling yargs(-parser) camel-case expansion also accepts for `name` (`seed-count` ↔
 * `seedCount`), or undefined when there is none (one word).
 */
export function camelTwin(name: string): string | undefined {
  if (name.length <= 1) return undefined;
  const twin = name.includes('-') ? camelCase(name) : kebabCase(name);
  return twin === name ? undefined : twin;
}

/** Which parser a callee names in `module`: `parseArgs` imported from `node:util`, `util.parseArgs`, or the `yargs-parser` default import. */
function parserOf(module: ModuleInfo, callee: ts.Expression, requires: ReadonlyMap<string, string>): 'parseArgs' | 'yargs-parser' | undefined {
  const from = (name: string): { specifier: string; imported: string } | undefined => {
    const imported = module.imports.get(name);
    if (imported) return imported;
    const required = requires.get(name);
    return required === undefined ? undefined : { specifier: required, imported: name === 'parseArgs' ? 'parseArgs' : 'default' };
  };
  if (ts.isIdentifier(callee)) {
    const b = from(callee.text);
    if (b && UTIL.has(b.specifier) && b.imported === 'parseArgs') return 'parseArgs';
    if (b && b.specifier === YARGS_PARSER && b.imported === 'default') return 'yargs-parser';
    return undefined;
  }
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'parseArgs' && ts.isIdentifier(callee.expression)) {
    const b = from(callee.expression.text);
    if (b && UTIL.has(b.specifier) && (b.imported === '*' || b.imported === 'default')) return 'parseArgs';
  }
  return undefined;
}

/** Top-level `const { parseArgs } = require('node:util')`, `const util = require('util')`, `const parser = require('yargs-parser')`: local name → specifier. */
function requiredNames(sf: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') continue;
      const arg = init.arguments[0];
      if (!arg || !ts.isStringLiteralLike(arg)) continue;
      if (ts.isIdentifier(d.name)) out.set(d.name.text, arg.text);
      else if (ts.isObjectBindingPattern(d.name)) {
        for (const e of d.name.elements) {
          const prop = e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : ts.isIdentifier(e.name) ? e.name.text : undefined;
          if (prop === 'parseArgs' && ts.isIdentifier(e.name)) out.set(e.name.text, arg.text);
        }
      }
    }
  }
  return out;
}

/**
 * Every `parseArgs({ options: {…} })` (from `node:util`) and `yargsParser(argv, { boolean: […],
 * string: […], alias: {…}, default: {…} })` call in `module`, each as a parsed program
 * (framework `parseArgs` / `yargs-parser`). Option objects and lists are followed through
 * variables, imports and spreads by the evaluator.
 *
 * parseArgs: each key of `options` is a flag; `type` `'string'`/`'boolean'` (`multiple: true`
 * makes `string[]`/`boolean[]`), `short` an alias, `default` the default; with `allowNegative:
 * true` booleans are negatable. yargs-parser: each name in `boolean`/`string`/`number`/`array`/
 * `count` is a flag of that type, `alias` adds aliases, `default` defaults; camel-case
 * expansion makes `--seed-count` and `--seedCount` the same flag (the other spelling is an
 * alias).
 */
export function parserPrograms(ev: FlagEvaluator, module: ModuleInfo): CommandNode[] {
  const text = module.sf.text;
  if (!text.includes('parseArgs') && !text.includes(YARGS_PARSER)) return [];
  const requires = requiredNames(module.sf);
  const out: CommandNode[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const kind = parserOf(module, n.expression, requires);
      const node = kind === 'parseArgs' ? parseArgsProgram(ev, n) : kind === 'yargs-parser' ? yargsParserProgram(ev, n) : undefined;
      if (node) out.push(node);
    }
    ts.forEachChild(n, visit);
  };
  visit(module.sf);
  return out;
}

function program(ev: FlagEvaluator, framework: CommandNode['framework'], call: ts.CallExpression): CommandNode {
  const node = newNode(framework, ev.location(call), { program: true });
  node.parsed = true;
  return node;
}

function parseArgsProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode | undefined {
  const configNode = call.arguments[0];
  if (!configNode) return undefined;
  const config = ev.objectEntries(configNode);
  if (!config) return undefined;
  const optionsEntry = config.find((e) => e.key === 'options');
  if (!optionsEntry) return undefined;
  const allowNegative = ev.booleanOf(config.find((e) => e.key === 'allowNegative')?.value) === true;
  // Options built at run time (`options: createOptions()`, filled by a loop) read as nothing:
  // the parameters are then unknown, not "none" (every flag would be reported unknown).
  const options = ev.objectEntries(optionsEntry.value);
  const literal = ts.isExpression(optionsEntry.value) && ts.isObjectLiteralExpression(skipOuter(optionsEntry.value));
  if (!options || (options.length === 0 && !literal)) return undefined;
  const node = program(ev, 'parseArgs', call);
  for (const option of options) {
    const spec = newParam(option.key, ev.location(option.keyNode));
    spec.dest = option.key;
    let type: string | undefined;
    let multiple = false;
    for (const e of ev.objectEntries(option.value) ?? []) {
      if (e.key === 'type') type = ev.stringOf(e.value);
      else if (e.key === 'short') {
        const short = ev.stringOf(e.value);
        if (short !== undefined) addAlias(spec, short);
      } else if (e.key === 'multiple') multiple = ev.booleanOf(e.value) === true;
      else if (e.key === 'default' && ts.isExpression(e.value)) spec.default = ev.defaultOf(e.value);
    }
    if (type !== undefined) spec.type = multiple ? `${type}[]` : type;
    if (type === 'boolean' && allowNegative) spec.negatable = true;
    node.params.push(spec);
  }
  return node;
}

const YARGS_PARSER_TYPES = ['boolean', 'string', 'number', 'array', 'count'] as const;

function yargsParserProgram(ev: FlagEvaluator, call: ts.CallExpression): CommandNode | undefined {
  const options = call.arguments[1] ? ev.objectEntries(call.arguments[1]) : undefined;
  if (!options) return undefined;
  const node = program(ev, 'yargs-parser', call);
  const byName = new Map<string, ParamSpec>();
  const ensure = (name: string, at: ts.Node): ParamSpec => {
    let spec = byName.get(name);
    if (!spec) {
      spec = newParam(name, ev.location(at));
      spec.dest = camelCase(name);
      byName.set(name, spec);
      node.params.push(spec);
    }
    return spec;
  };
  for (const e of options) {
    if (!(YARGS_PARSER_TYPES as readonly string[]).includes(e.key)) continue;
    const names = ev.stringsOf(e.value);
    const value = ev.evaluate(e.value);
    const elements = value?.kind === 'array' ? value.node.elements : undefined;
    (names ?? []).forEach((name, i) => {
      const spec = ensure(name, elements?.[i] ?? e.value);
      if (e.key === 'array') spec.type = spec.type === undefined ? 'array' : `${spec.type}[]`;
      else if (spec.type === 'array') spec.type = `${e.key}[]`;
      else spec.type = e.key;
      if (e.key === 'boolean') spec.negatable = true;
      if (e.key === 'count') spec.counted = true;
    });
  }
  for (const e of options) {
    if (e.key === 'alias') {
      for (const entry of ev.objectEntries(e.value) ?? []) {
        const spec = byName.get(entry.key) ?? ensure(entry.key, entry.keyNode);
        for (const alias of ev.stringsOf(entry.value) ?? []) addAlias(spec, alias);
      }
    } else if (e.key === 'default') {
      for (const entry of ev.objectEntries(e.value) ?? []) {
        const spec = byName.get(entry.key) ?? ensure(entry.key, entry.keyNode);
        if (ts.isExpression(entry.value)) spec.default = ev.defaultOf(entry.value);
      }
    }
  }
  for (const spec of node.params) {
    const twin = camelTwin(spec.name);
    if (twin !== undefined) addAlias(spec, twin);
  }
  return node;
}
