/** The TypeScript extraction pipeline: parse every file once with ts-morph (in memory, no checker), scan, analyse, map bins. */
import { ts } from 'ts-morph';
import { parseSourceFile, type ParsedFiles } from './syntax.js';
import type { ConfigClass, InputDiagnostic } from '../../model/types.js';
import { Analysis } from './analysis.js';
import { AliasChecker } from './checked.js';
import { binConfig, readBins } from './bin.js';
import type { TypeScriptExtraction, TypeScriptSource } from './types.js';
import { Resolver } from './resolve.js';
import { scanModule, type ModuleInfo } from './scan.js';

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first syntax error of a file as a `parse-error` warning, or `undefined` when it parsed cleanly. */
function parseDiagnostic(file: string, sf: ts.SourceFile): InputDiagnostic | undefined {
  // `parseDiagnostics` is the parser's own list (no type checking); it is internal to the
  // compiler API but stable, and ts-morph exposes only checker-backed diagnostics.
  const list = (sf as unknown as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics;
  const first = list?.[0];
  if (!first) return undefined;
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start);
  const what = ts.flattenDiagnosticMessageText(first.messageText, ' ');
  return {
    ruleId: 'parse-error',
    // A broken .ts file is the compiler's finding, not drift: warn and read what the parser recovered.
    severity: 'warn',
    message: `${file}:${line + 1}:${character + 1}: TypeScript syntax error (TS${first.code}: ${what}); declarations in the rest of the file are read where the parser recovers`,
    location: { file, line: line + 1, column: character + 1 },
  };
}

/** See {@link extractTypeScript} in `index.ts`. */
export function runExtraction(
  sources: TypeScriptSource[],
  packageJson?: { file: string; text: string } | ReadonlyArray<{ file: string; text: string }>,
  binSources?: ReadonlyMap<string, string>,
  parsed?: ParsedFiles,
): TypeScriptExtraction {
  const diagnostics: InputDiagnostic[] = [];
  const modules = new Map<string, ModuleInfo>();
  for (const source of sources) {
    if (modules.has(source.file)) continue; // the first copy of a path wins
    try {
      const sf = parseSourceFile(source.file, source.text, parsed);
      const diagnostic = parseDiagnostic(source.file, sf);
      if (diagnostic) diagnostics.push(diagnostic);
      modules.set(source.file, scanModule(source.file, sf));
    } catch (error) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `${source.file}: the TypeScript parser failed (${error instanceof RangeError ? 'nested too deeply for it: ' : ''}${error instanceof Error ? error.message : String(error)}); the file is not read`,
        location: { file: source.file, line: 1, column: 1 },
      });
    }
  }

  const resolver = new Resolver(modules);
  const checker = new AliasChecker(modules, resolver);
  const analysis = new Analysis(resolver, checker);
  const classes: ConfigClass[] = [];
  for (const module of modules.values()) {
    for (const decl of module.declarations) {
      const config = analysis.configOf(module, decl);
      // An alias listing no fields is one the inherited-fields budget cut (aliases of field-less types are not config types): kept, partly known.
      if (config && (config.fields.length > 0 || config.aliasOf !== undefined)) classes.push(config);
    }
  }
  const binConfigs = new Map<string, string[]>();
  const binFieldFlags = new Map<string, Record<string, string>>();
  const binConfigsBuilt = new Set<string>();
  const packageJsons = packageJson === undefined ? [] : 'file' in packageJson ? [packageJson] : packageJson;
  for (const pkg of packageJsons) {
    for (const bin of readBins(pkg, diagnostics)) {
      const source = binSources?.get(bin.path);
      const fieldFlags = new Map<string, string>();
      const evidence = { built: false };
      const configs = binConfig(analysis, resolver, modules, source === undefined ? bin : { ...bin, source }, fieldFlags, evidence);
      if (configs && !binConfigs.has(bin.name)) {
        binConfigs.set(bin.name, configs);
        if (evidence.built) binConfigsBuilt.add(bin.name);
        if (fieldFlags.size > 0) binFieldFlags.set(bin.name, Object.fromEntries(fieldFlags));
      }
    }
  }
  diagnostics.push(...analysis.baseDepthNotes(), ...checker.notes());
  // Synthetic nested types are registered while fields are read, so collect them last.
  for (const synthetic of analysis.synthetic.values()) if (synthetic.fields.length > 0) classes.push(synthetic);
  // A declaration file (`types/shared.d.ts`) describes code that lives elsewhere: its types are
  // config types only as the base or nested type of a type the sources declare.
  const reached = reachedFromSources(classes, [...binConfigs.values()].flat());
  for (let i = classes.length - 1; i >= 0; i--) if (isDeclarationFile((classes[i] as ConfigClass).module) && !reached.has((classes[i] as ConfigClass).qualifiedName)) classes.splice(i, 1);
  classes.sort((a, b) => compare(a.qualifiedName, b.qualifiedName) || compare(a.kind, b.kind));
  diagnostics.sort((a, b) => compare(a.location.file, b.location.file) || a.location.line - b.location.line);
  return { classes, binConfigs, binFieldFlags, binConfigsBuilt, diagnostics };
}

/** `x.d.ts`, `x.d.mts`, `x.d.cts`. */
function isDeclarationFile(file: string): boolean {
  return /\.d\.[mc]?ts$/.test(file);
}

/** Qualified names of the types that types outside declaration files (and the bins' config types) reach through `bases` and `typeRef`, transitively; the bins' config types included. */
function reachedFromSources(classes: readonly ConfigClass[], binTypes: readonly string[]): Set<string> {
  const byName = new Map(classes.map((c) => [c.qualifiedName, c]));
  const reached = new Set<string>(binTypes);
  const stack = [...classes.filter((c) => !isDeclarationFile(c.module)), ...binTypes.flatMap((q) => byName.get(q) ?? [])];
  while (stack.length > 0) {
    const c = stack.pop() as ConfigClass;
    for (const next of [...c.bases, ...c.fields.flatMap((f) => (f.typeRef ? [f.typeRef] : []))]) {
      if (reached.has(next)) continue;
      reached.add(next);
      const target = byName.get(next);
      if (target) stack.push(target);
    }
  }
  return reached;
}
