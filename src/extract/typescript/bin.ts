/** Maps package.json `bin` entries to the config type their entry file reads, by a documented static heuristic. */
import { ts } from 'ts-morph';
import type { ConfigClass, InputDiagnostic } from '../../model/types.js';
import type { Analysis } from './analysis.js';
import type { Resolver } from './resolve.js';
import type { ModuleInfo } from './scan.js';
import { dirname, findSource, joinPath } from './scan.js';
import { dottedName, hasModifier } from './syntax.js';
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
 * Reads the `bin` field of a package.json (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#bin):
 * a string names one command called like the package (scope removed: `@s/tool` → `tool`), an
 * object maps command names to files. A file that is not valid JSON gives a `parse-error`
 * warning at the parser's position and no entries.
 */
export function readBins(packageJson: { file: string; text: string }, diagnostics: InputDiagnostic[]): BinEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(packageJson.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    const before = packageJson.text.slice(0, offset).split('\n');
    const line = before.length;
    const column = (before.at(-1) ?? '').length + 1;
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${packageJson.file}:${line}:${column}: invalid JSON (${message}); its bin entries are not read`,
      location: { file: packageJson.file, line, column },
    });
    return [];
  }
  if (typeof data !== 'object' || data === null) return [];
  const { name, bin } = data as { name?: unknown; bin?: unknown };
  const dir = dirname(packageJson.file);
  const entry = (command: string, path: string): BinEntry => ({ name: command, path: joinPath(dir, path) ?? path });
  if (typeof bin === 'string') return typeof name === 'string' && name !== '' ? [entry(name.replace(/^@[^/]+\//, ''), bin)] : [];
  if (typeof bin !== 'object' || bin === null) return [];
  return Object.entries(bin).flatMap(([command, path]) => (typeof path === 'string' ? [entry(command, path)] : []));
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
 */
export function binConfig(analysis: Analysis, resolver: Resolver, modules: ReadonlyMap<string, ModuleInfo>, bin: BinEntry): string[] | undefined {
  const start = bin.source ?? findSource(bin.path, new Set(modules.keys()));
  const first = start === undefined ? undefined : modules.get(start);
  if (!first) return undefined;
  const visited = new Set<ModuleInfo>([first]);
  let level: ModuleInfo[] = [first];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const found: Array<Map<string, ConfigClass>> = [new Map(), new Map(), new Map()];
    for (const module of level) collectEvidence(analysis, module, depth === 0, found);
    const strongest = found.find((m) => m.size > 0);
    if (strongest) {
      const answer = dropContained([...strongest.values()], analysis);
      return answer.length === 1 ? answer.map((c) => c.qualifiedName) : undefined;
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

function collectEvidence(analysis: Analysis, module: ModuleInfo, own: boolean, found: Array<Map<string, ConfigClass>>): void {
  const add = (rank: Rank, config: ConfigClass | undefined): void => {
    if (config) found[rank]?.set(config.qualifiedName, config);
  };
  const fromType = (rank: Rank, type: ts.TypeNode | undefined): void => {
    if (type && type.kind !== ts.SyntaxKind.TypeReference && !ts.isUnionTypeNode(type) && !ts.isParenthesizedTypeNode(type)) return;
    if (type) add(rank, analysis.targetOfType(module, type));
  };
  const fromParameters = (parameters: ts.NodeArray<ts.ParameterDeclaration>): void => {
    // `main(argv: string[], io: CliIO)` parses its own arguments: its other parameters are
    // dependencies (streams, cwd), not the options.
    if (parameters.some(isArgv)) return;
    for (const p of parameters) fromType(0, p.type);
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
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.type) fromType(1, node.type);
    else if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) && !isConstType(node.type)) fromType(1, node.type);
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ZOD_PARSE_METHODS.has(node.expression.name.text)) {
      const dotted = dottedName(node.expression.expression);
      if (dotted) add(1, schemaConfig(analysis, module, dotted));
    } else if (ts.isNewExpression(node)) {
      const dotted = dottedName(node.expression);
      const resolved = dotted ? analysis.resolver.resolve(module, dotted, 'values') : undefined;
      if (resolved?.kind === 'declaration' && resolved.decl.kind === 'class') {
        const config = analysis.configOf(resolved.module, resolved.decl);
        if (config && config.fields.length > 0) add(2, config);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(module.sf);
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
