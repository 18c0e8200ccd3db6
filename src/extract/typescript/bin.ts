/** Maps package.json `bin` entries to the config type their entry file reads, by a documented static heuristic. */
import { ts } from 'ts-morph';
import type { ConfigClass, InputDiagnostic } from '../../model/types.js';
import { readPackageBins } from '../package-bins.js';
import type { Analysis } from './analysis.js';
import type { Resolver } from './resolve.js';
import type { ModuleInfo } from './scan.js';
import { dirname, findSource, joinPath } from './scan.js';
import { dottedName, hasModifier, walkTree } from './syntax.js';
import { schemaConfig, ZOD_PARSE_METHODS } from './zod.js';

/** Names of the entry functions whose parameter annotations name the command's config. */
const ENTRY_FUNCTIONS = new Set(['main', 'run', 'cli']);
/** How many relative-import hops from the bin's file are searched. */
const MAX_DEPTH = 2;

/** One `bin` entry of package.json. */
export interface BinEntry {
  /** The command name (`docdrift`). */
  name: string;
  /** The file as declared, joined to the package.json directory (`packages/a/dist/cli.js`). */
  path: string;
  /** The source file the program starts in, when already known (a shim's target); else found from {@link path}. */
  source?: string;
}

/**
 * The `bin` entries of a package.json (see {@link readPackageBins}), each file joined to the
 * package.json's directory. What cannot be read is a `parse-error` warning in `diagnostics`, when given.
 */
export function readBins(packageJson: { file: string; text: string }, diagnostics?: InputDiagnostic[]): BinEntry[] {
  const dir = dirname(packageJson.file);
  const read = readPackageBins(packageJson);
  if (read.problem) diagnostics?.push(read.problem);
  return read.bins.map((bin) => ({ name: bin.name, path: joinPath(dir, bin.file) ?? bin.file }));
}

/** Evidence strength: entry-function parameters, then parsed-options values, then `new X(…)`. */
type Rank = 0 | 1 | 2;

/**
 * The config type(s) a bin's entry file uses, or `undefined` when the heuristic finds no single
 * answer. Heuristic:
 *
 * 1. The bin's file is mapped to a source file: the path itself, else compiled output back to
 *    source (`dist/`, `build/`, `lib/`, `out/` + `x.js` → `src/x.ts` or `x.ts`, with
 *    `.ts`/`.mts`/`.cts`/`.tsx`; `bin/x.js` → `src/x.ts`, `src/bin/x.ts`, `bin/x.ts`).
 * 2. That file and the files it imports through relative specifiers (static, re-export and
 *    literal dynamic imports), up to two hops, are searched nearest first.
 * 3. In each file, evidence is, strongest first: (a) the parameter annotations of a top-level
 *    function named `main`, `run` or `cli` (exported, or any in the bin's own file), unless it
 *    also takes the raw arguments (`argv: string[]`): then it parses them itself and its other
 *    parameters are dependencies such as I/O; (b) a
 *    value holding parsed options: a variable's annotation (`const opts: Options = …`), an
 *    `as`/`satisfies`/`<T>` type (`parseArgs(…) as Options`), or `Schema.parse(…)` /
 *    `.safeParse`/`.parseAsync`/`.safeParseAsync` on a zod object schema; (c) `new X(…)` for a
 *    config class. Annotations count through `| undefined`, `| null`, `Partial<>`, `Readonly<>`,
 *    aliases and `z.infer<typeof Schema>`.
 * 4. At the nearest depth with evidence, the strongest kind present decides. Types nested in or
 *    inherited by another candidate are dropped (`opts.server` typed `ServerOptions`, a `Base`
 *    the options extend). One type left is the answer; several make the bin ambiguous and it
 *    gets no entry (the user maps it in the docdrift config).
 *
 * `evidence`, when given, gets `built: true` when the answer is only a value the program builds
 * from its parsed input (an object literal, `new X(…)`), never the parsed input itself: such a
 * type is what the program hands to an API on the way, so the engine lets the flags a CLI
 * framework declares replace it (see `addFlagCommands` in link/build.ts).
 */
export function binConfig(
  analysis: Analysis,
  resolver: Resolver,
  modules: ReadonlyMap<string, ModuleInfo>,
  bin: BinEntry,
  fieldFlags?: Map<string, string>,
  evidence?: { built: boolean },
): string[] | undefined {
  const start = bin.source ?? findSource(bin.path, new Set(modules.keys()));
  const first = start === undefined ? undefined : modules.get(start);
  if (!first) return undefined;
  const visited = new Set<ModuleInfo>([first]);
  let level: ModuleInfo[] = [first];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const found: Array<Map<string, ConfigClass>> = [new Map(), new Map(), new Map()];
    const joins = new Map<string, Map<string, string>>();
    const direct = new Set<string>();
    for (const module of level) collectEvidence(analysis, module, depth === 0, found, joins, direct);
    const strongest = found.find((m) => m.size > 0);
    if (strongest) {
      const answer = dropContained([...strongest.values()], analysis);
      if (answer.length !== 1) return undefined;
      const only = answer[0] as ConfigClass;
      for (const [field, attribute] of joins.get(only.qualifiedName) ?? []) fieldFlags?.set(field, attribute);
      if (evidence) evidence.built = !direct.has(only.qualifiedName);
      return [only.qualifiedName];
    }
    const next: ModuleInfo[] = [];
    for (const module of level) {
      for (const specifier of module.dependencies) {
        const target = resolver.moduleFor(module, specifier);
        if (target && !visited.has(target)) {
          visited.add(target);
          next.push(target);
        }
      }
    }
    level = next;
  }
  return undefined;
}

/** Removes candidates reachable from another candidate through `typeRef` or `bases`. */
function dropContained(candidates: ConfigClass[], analysis: Analysis): ConfigClass[] {
  const byName = new Map(candidates.map((c) => [c.qualifiedName, c]));
  const reach = (from: ConfigClass): Set<string> => {
    const out = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const c = stack.pop() as ConfigClass;
      const next = [...c.bases, ...c.fields.flatMap((f) => (f.typeRef ? [f.typeRef] : []))];
      for (const qn of next) {
        if (out.has(qn)) continue;
        out.add(qn);
        const target = byName.get(qn) ?? analysis.synthetic.get(qn) ?? analysis.byQualifiedName(qn);
        if (target) stack.push(target);
      }
    }
    return out;
  };
  const reached = new Set(candidates.flatMap((c) => [...reach(c)]));
  return candidates.filter((c) => !reached.has(c.qualifiedName));
}

function isEntryFunction(module: ModuleInfo, name: string, node: ts.Node, own: boolean): boolean {
  if (!ENTRY_FUNCTIONS.has(name)) return false;
  if (own) return true;
  return hasModifier(node, ts.SyntaxKind.ExportKeyword) || [...module.exports.values()].includes(name);
}

/**
 * Adds a module's evidence to `found` (by rank). `direct` gets the qualified names of the types
 * that hold the parsed input itself (an entry function's parameter, `const o: T = parsed`,
 * `parsed as T`, `Schema.parse(parsed)`), as opposed to a value built from it.
 */
function collectEvidence(
  analysis: Analysis,
  module: ModuleInfo,
  own: boolean,
  found: Array<Map<string, ConfigClass>>,
  joins: Map<string, Map<string, string>>,
  direct: Set<string>,
): void {
  const add = (rank: Rank, config: ConfigClass | undefined, isDirect: boolean): void => {
    if (!config) return;
    found[rank]?.set(config.qualifiedName, config);
    if (isDirect) direct.add(config.qualifiedName);
  };
  const fromType = (rank: Rank, type: ts.TypeNode | undefined, isDirect: boolean): void => {
    if (type && type.kind !== ts.SyntaxKind.TypeReference && !ts.isUnionTypeNode(type) && !ts.isParenthesizedTypeNode(type)) return;
    if (type) add(rank, analysis.targetOfType(module, type), isDirect);
  };
  const fromParameters = (parameters: ts.NodeArray<ts.ParameterDeclaration>): void => {
    // `main(argv: string[], io: CliIO)` parses its own arguments: its other parameters are
    // dependencies (streams, cwd), not the options.
    if (parameters.some(isArgv)) return;
    for (const p of parameters) fromType(0, p.type, true);
  };
  for (const statement of module.sf.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isEntryFunction(module, statement.name.text, statement, own)) {
      fromParameters(statement.parameters);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (ts.isIdentifier(d.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && isEntryFunction(module, d.name.text, statement, own)) {
          fromParameters(init.parameters);
        }
      }
    }
  }
  const parsed = parsedInput(module);
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.type) {
      if (node.initializer && parsed.holds(node.initializer)) {
        fromType(1, node.type, parsed.is(node.initializer));
        // `const config: Config = { …DEFAULTS, skipTypeCheck: !args.typeCheck }`: each field set
        // from one parsed value is that flag's internal name.
        const config = node.type.kind === ts.SyntaxKind.TypeReference ? analysis.targetOfType(module, node.type) : undefined;
        const literal = skipParens(node.initializer);
        if (config && ts.isObjectLiteralExpression(literal)) {
          let map = joins.get(config.qualifiedName);
          if (!map) joins.set(config.qualifiedName, (map = new Map()));
          for (const p of literal.properties) {
            const key = ts.isPropertyAssignment(p) ? propertyKey(p.name) : undefined;
            const attribute = key !== undefined && ts.isPropertyAssignment(p) ? parsed.attributeOf(p.initializer) : undefined;
            if (key !== undefined && attribute !== undefined) map.set(key, attribute);
          }
        }
      }
    } else if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) && !isConstType(node.type)) {
      if (parsed.holds(node.expression)) fromType(1, node.type, parsed.is(node.expression));
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ZOD_PARSE_METHODS.has(node.expression.name.text)) {
      const dotted = dottedName(node.expression.expression);
      const arg = node.arguments[0];
      if (dotted && arg && parsed.holds(arg)) add(1, schemaConfig(analysis, module, dotted), parsed.is(arg));
    } else if (ts.isNewExpression(node) && (node.arguments ?? []).some((a) => parsed.holds(a))) {
      const dotted = dottedName(node.expression);
      const resolved = dotted ? analysis.resolver.resolve(module, dotted, 'values') : undefined;
      if (resolved?.kind === 'declaration' && resolved.decl.kind === 'class') {
        const config = analysis.configOf(resolved.module, resolved.decl);
        if (config && config.fields.length > 0) add(2, config, false);
      }
    }
  };
  walkTree(module.sf, visit);
}

/** Callees that return a program's parsed arguments: Node's `parseArgs`, minimist-style parsers, commander `.opts()`. */
const PARSER_FUNCTIONS = new Set(['parseArgs', 'minimist', 'mri', 'meow', 'yargsParser', 'arg']);
const PARSER_METHODS = new Set(['parseArgs', 'opts', 'optsWithGlobals']);
/** `.parse()`-like methods count only on a receiver that names a CLI parser (not `JSON.parse`, `path.parse`, a zod schema). */
const PARSE_METHODS = new Set(['parse', 'parseAsync', 'parseSync']);
const PARSER_RECEIVER = /(?:yargs|program|cli|command|cmd|parser|argv)/i;
/** Methods that hand a command's parsed options to a callback (yargs `.command(…, handler)`, commander `.action(fn)`). */
const HANDLER_METHODS = new Set(['command', 'action']);

/**
 * The program's parsed input in one file, by name: variables initialised with a parser's result
 * (`const { values } = parseArgs(…)`, `const argv = await yargs(…).parse()`, `program.opts()`,
 * `.argv`, the `yargs-parser` default import) or with a value derived from one, parameters of
 * the entry functions (`main`/`run`/`cli`) and of handlers (`.command(…, (argv) => …)`,
 * `.action((opts) => …)`). {@link holds} says whether an expression *is* that input, or an
 * object literal built from it — not merely a call that receives a piece of it; `is` only the
 * former (the input or a value derived from it by access, `await`, `!`, `as`).
 */
function parsedInput(module: ModuleInfo): {
  holds: (expr: ts.Expression) => boolean;
  is: (expr: ts.Expression) => boolean;
  attributeOf: (expr: ts.Expression) => string | undefined;
} {
  const names = new Set<string>();
  /** Parameters holding the raw arguments (`argv: string[]`). */
  const raw = new Set<string>();
  const parserImports = new Set([...module.imports].filter(([, b]) => b.specifier === 'yargs-parser' || b.specifier === 'minimist' || b.specifier === 'mri').map(([n]) => n));
  const isParserCall = (e: ts.Expression): boolean => {
    if (ts.isPropertyAccessExpression(e) && e.name.text === 'argv') return true;
    if (!ts.isCallExpression(e)) return false;
    // A call given the raw arguments (`parse(argv)`, `cli(process.argv.slice(2))`) returns them parsed.
    if (e.arguments.some(isRaw)) return true;
    const callee = e.expression;
    if (ts.isIdentifier(callee)) return PARSER_FUNCTIONS.has(callee.text) || parserImports.has(callee.text);
    if (!ts.isPropertyAccessExpression(callee)) return false;
    const method = callee.name.text;
    if (PARSER_METHODS.has(method)) return true;
    return PARSE_METHODS.has(method) && PARSER_RECEIVER.test(callee.expression.getText(module.sf).slice(0, 400));
  };
  const isRaw = (expr: ts.Expression): boolean => {
    let e = expr;
    while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'slice') e = e.expression.expression;
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'hideBin' && e.arguments[0]) e = e.arguments[0];
    if (ts.isPropertyAccessExpression(e) && e.name.text === 'argv' && ts.isIdentifier(e.expression) && e.expression.text === 'process') return true;
    return ts.isIdentifier(e) && raw.has(e.text);
  };
  const isDerived = (expr: ts.Expression): boolean => {
    let e = expr;
    for (;;) {
      if (ts.isParenthesizedExpression(e) || ts.isAwaitExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
      else if (ts.isTypeAssertionExpression(e)) e = e.expression;
      else break;
    }
    if (isParserCall(e)) return true;
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
    return isParserCall(e) || (ts.isIdentifier(e) && names.has(e.text));
  };
  const holds = (expr: ts.Expression): boolean => {
    if (isDerived(expr)) return true;
    let e = expr;
    while (ts.isParenthesizedExpression(e) || ts.isAwaitExpression(e)) e = e.expression;
    if (!ts.isObjectLiteralExpression(e)) return false;
    return e.properties.some((p) =>
      ts.isSpreadAssignment(p) ? isDerived(p.expression) : ts.isPropertyAssignment(p) ? mentions(p.initializer) : ts.isShorthandPropertyAssignment(p) && names.has(p.name.text),
    );
  };
  const mentions = (expr: ts.Expression): boolean => {
    let found = false;
    walkTree(expr, (n) => {
      if (ts.isExpression(n) && isDerived(n)) {
        found = true;
        return 'stop';
      }
      return undefined;
    });
    return found;
  };
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  const declarations: ts.VariableDeclaration[] = [];
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && n.initializer) declarations.push(n);
    else if ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n)) && isEntryOrHandler(n)) {
      // `main(argv: string[], io: CliIO)` parses its own arguments: its other parameters are
      // dependencies (I/O), not parsed input, and neither is what is built from them.
      const takesArgv = n.parameters.some(isArgv);
      for (const p of n.parameters) {
        if (isArgv(p)) {
          if (ts.isIdentifier(p.name)) raw.add(p.name.text);
        } else if (!takesArgv) bind(p.name);
      }
    }
  };
  walkTree(module.sf, collect);
  // Derived values can chain (`const parsed = parseArgs(…); const values = parsed.values`): to a fixpoint.
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of declarations) {
      if (d.initializer && holds(d.initializer)) {
        const before = names.size;
        bind(d.name);
        if (names.size > before) changed = true;
      }
    }
  }
  /**
   * The attribute of the parsed input an expression reads as a whole: `args.typeCheck`,
   * `!args.typeCheck`, `Number(values.port)`, `args.out ?? 'x'`, `String(args['out'])`.
   */
  const attributeOf = (expr: ts.Expression): string | undefined => {
    let e = skipParens(expr);
    for (;;) {
      if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) e = skipParens(e.operand);
      else if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) e = skipParens(e.left);
      else if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.arguments.length === 1 && CONVERSIONS.has(e.expression.text)) e = skipParens(e.arguments[0] as ts.Expression);
      else break;
    }
    if (ts.isPropertyAccessExpression(e)) return isDerived(e.expression) ? e.name.text : undefined;
    if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return isDerived(e.expression) ? e.argumentExpression.text : undefined;
    return undefined;
  };
  return { holds, is: isDerived, attributeOf };
}

/** Calls that convert a parsed value without changing which flag it is (`Number(values.port)`). */
const CONVERSIONS = new Set(['Number', 'String', 'Boolean', 'parseInt', 'parseFloat', 'BigInt']);

function skipParens(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isAwaitExpression(e)) e = e.expression;
  return e;
}

function propertyKey(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
}

/** An entry function (`main`/`run`/`cli`) or a handler passed to `.command(…)`/`.action(…)`. */
function isEntryOrHandler(fn: ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction): boolean {
  if (ts.isFunctionDeclaration(fn)) return fn.name !== undefined && ENTRY_FUNCTIONS.has(fn.name.text);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent)) return ts.isIdentifier(parent.name) && ENTRY_FUNCTIONS.has(parent.name.text);
  return ts.isCallExpression(parent) && ts.isPropertyAccessExpression(parent.expression) && HANDLER_METHODS.has(parent.expression.name.text) && parent.arguments.includes(fn);
}

/** A raw-arguments parameter: typed `string[]`/`readonly string[]`/`Array<string>`, or named `argv`/`args` without a type. */
function isArgv(p: ts.ParameterDeclaration): boolean {
  let type = p.type;
  if (!type) return ts.isIdentifier(p.name) && (p.name.text === 'argv' || p.name.text === 'args');
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) type = type.type;
  if (ts.isArrayTypeNode(type)) return type.elementType.kind === ts.SyntaxKind.StringKeyword;
  return (
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    (type.typeName.text === 'Array' || type.typeName.text === 'ReadonlyArray') &&
    type.typeArguments?.[0]?.kind === ts.SyntaxKind.StringKeyword
  );
}

function isConstType(type: ts.TypeNode): boolean {
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'const';
}
