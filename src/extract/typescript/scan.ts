/** Reads one parsed TypeScript file into what name resolution needs: its imports, exports and top-level declarations. */
import { ts } from 'ts-morph';
import { hasModifier, walkTree } from './syntax.js';
import { pushUnique } from '../../shared/arrays.js';

/** Where an imported or re-exported name comes from. */
export interface ImportBinding {
  /** The module specifier as written (`./options.js`, `zod`). */
  specifier: string;
  /** The imported name; `default` for default imports, `*` for namespace imports. */
  imported: string;
}

/** A top-level declaration that can be a config type or name one. */
export type Declaration =
  | { kind: 'interface'; name: string; nodes: ts.InterfaceDeclaration[] }
  | { kind: 'class'; name: string; node: ts.ClassDeclaration }
  | { kind: 'type-alias'; name: string; node: ts.TypeAliasDeclaration }
  | { kind: 'variable'; name: string; node: ts.VariableDeclaration & { name: ts.Identifier; initializer: ts.Expression } }
  | { kind: 'function'; name: string; node: ts.FunctionDeclaration | (ts.VariableDeclaration & { name: ts.Identifier; initializer: ts.ArrowFunction | ts.FunctionExpression }) };

/** One source file as name resolution sees it. */
export interface ModuleInfo {
  /** Project-relative POSIX path. */
  file: string;
  sf: ts.SourceFile;
  /** Type-space declarations by local name (interfaces, classes, type aliases). */
  types: Map<string, Declaration>;
  /** Value-space declarations by local name (classes, `const`/`let` with initializers, functions). */
  values: Map<string, Declaration>;
  /** Local name → where it is imported from. */
  imports: Map<string, ImportBinding>;
  /** Exported name → local name (`export interface X`, `export { a as b }`, `export default X`). */
  exports: Map<string, string>;
  /** Exported name → source (`export { a as b } from './m'`, `export * as ns from './m'`). */
  reexports: Map<string, ImportBinding>;
  /** Specifiers of `export * from '…'`. */
  starExports: string[];
  /** Specifiers of every import, re-export and literal dynamic `import()`, in order. */
  dependencies: string[];
  /** Top-level declarations in source order (merged interfaces appear once). */
  declarations: Declaration[];
}

/** Collects imports, exports and top-level declarations of one file; never throws. */
export function scanModule(file: string, sf: ts.SourceFile): ModuleInfo {
  const info: ModuleInfo = {
    file,
    sf,
    types: new Map(),
    values: new Map(),
    imports: new Map(),
    exports: new Map(),
    reexports: new Map(),
    starExports: [],
    dependencies: [],
    declarations: [],
  };
  const addDependency = (specifier: string): void => {
    pushUnique(info.dependencies, specifier);
  };
  const exportIf = (node: ts.Node, name: string): void => {
    if (!hasModifier(node, ts.SyntaxKind.ExportKeyword)) return;
    info.exports.set(hasModifier(node, ts.SyntaxKind.DefaultKeyword) ? 'default' : name, name);
  };
  const declare = (space: Map<string, Declaration>, decl: Declaration): void => {
    if (space.has(decl.name)) return; // first declaration wins (a redeclaration is a compile error anyway)
    space.set(decl.name, decl);
    pushUnique(info.declarations, decl);
  };

  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      addDependency(specifier);
      const clause = statement.importClause;
      if (!clause) continue;
      if (clause.name) info.imports.set(clause.name.text, { specifier, imported: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) info.imports.set(bindings.name.text, { specifier, imported: '*' });
      else if (bindings) {
        for (const el of bindings.elements) info.imports.set(el.name.text, { specifier, imported: (el.propertyName ?? el.name).text });
      }
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) && ts.isStringLiteral(statement.moduleReference.expression)) {
      const specifier = statement.moduleReference.expression.text;
      addDependency(specifier);
      info.imports.set(statement.name.text, { specifier, imported: '*' });
    } else if (ts.isExportDeclaration(statement)) {
      const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      if (specifier !== undefined) addDependency(specifier);
      const clause = statement.exportClause;
      if (!clause) {
        if (specifier !== undefined) info.starExports.push(specifier);
      } else if (ts.isNamespaceExport(clause)) {
        if (specifier !== undefined) info.reexports.set(clause.name.text, { specifier, imported: '*' });
      } else {
        for (const el of clause.elements) {
          const local = (el.propertyName ?? el.name).text;
          if (specifier !== undefined) info.reexports.set(el.name.text, { specifier, imported: local });
          else info.exports.set(el.name.text, local);
        }
      }
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals && ts.isIdentifier(statement.expression)) {
      info.exports.set('default', statement.expression.text);
    } else if (ts.isInterfaceDeclaration(statement)) {
      const name = statement.name.text;
      const existing = info.types.get(name);
      if (existing?.kind === 'interface') existing.nodes.push(statement); // declaration merging
      else declare(info.types, { kind: 'interface', name, nodes: [statement] });
      exportIf(statement, name);
    } else if (ts.isClassDeclaration(statement) && statement.name) {
      const decl: Declaration = { kind: 'class', name: statement.name.text, node: statement };
      declare(info.types, decl);
      declare(info.values, decl);
      exportIf(statement, decl.name);
    } else if (ts.isTypeAliasDeclaration(statement)) {
      declare(info.types, { kind: 'type-alias', name: statement.name.text, node: statement });
      exportIf(statement, statement.name.text);
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      declare(info.values, { kind: 'function', name: statement.name.text, node: statement });
      exportIf(statement, statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        const name = d.name.text;
        const init = d.initializer;
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
          declare(info.values, { kind: 'function', name, node: d as ts.VariableDeclaration & { name: ts.Identifier; initializer: ts.ArrowFunction | ts.FunctionExpression } });
        } else {
          declare(info.values, { kind: 'variable', name, node: d as ts.VariableDeclaration & { name: ts.Identifier; initializer: ts.Expression } });
        }
        exportIf(statement, name);
      }
    }
  }
  // Literal dynamic imports (`await import('./cli.js')`) count as dependencies for the bin heuristic.
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) addDependency(arg.text);
    }
  };
  if (sf.text.includes('import(')) walkTree(sf, visit);
  return info;
}

/** Folders compiled output goes to by convention. */
export const OUT_DIRS = new Set(['dist', 'build', 'lib', 'out']);
const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts'];

/** Normalises `a/./b/../c` to `a/c`; `undefined` when it climbs above the root. */
export function normalizePath(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** The directory part of a POSIX path (`''` for a top-level file). */
export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Joins a directory and a relative path and normalises the result. */
export function joinPath(dir: string, rel: string): string | undefined {
  return normalizePath(dir === '' ? rel : `${dir}/${rel}`);
}

/**
 * Source files a path may stand for, most likely first, following TypeScript's module
 * resolution for relative specifiers (`./a.js` → `a.ts`, `./a.mjs` → `a.mts`, `./a` →
 * `a.ts`, `a/index.ts`) and, for compiled output, the usual `outDir` layouts: `dist/`,
 * `build/`, `lib/` or `out/` + `x.js` → `src/x.ts` or `x.ts` (a `rootDir` of `.`) or, for a file
 * directly in the out dir, `src/bin/x.ts` (a bundler's entry), and
 * `bin/x.js` → `src/x.ts`, `src/bin/x.ts`, `bin/x.ts`.
 */
export function sourceCandidates(path: string): string[] {
  const out: string[] = [path];
  const add = (base: string): void => {
    const stem = base.replace(/\.(?:[cm]?jsx?|[cm]?tsx?)$/, '');
    const ext = /\.([cm])?js$/.exec(base)?.[1];
    const preferred = ext === 'm' ? ['.mts'] : ext === 'c' ? ['.cts'] : [];
    for (const e of [...preferred, ...TS_EXTENSIONS]) pushUnique(out, stem + e);
    if (stem === base) for (const e of TS_EXTENSIONS) out.push(`${base}/index${e}`);
  };
  add(path);
  const [first, ...rest] = path.split('/');
  const tail = rest.join('/');
  if (first !== undefined && tail !== '') {
    if (OUT_DIRS.has(first)) {
      add(`src/${tail}`);
      add(tail);
      if (!tail.includes('/')) add(`src/bin/${tail}`);
    } else if (first === 'bin') {
      add(`src/${tail}`);
      add(`src/bin/${tail}`);
    }
  }
  return out;
}

/**
 * Resolves a relative module specifier from `fromFile` to one of `files` (see
 * {@link sourceCandidates}), keeping any leading directory of the package (`packages/a/dist/x.js`
 * is tried as `packages/a/src/x.ts` by stripping the part up to the out dir).
 * Bare specifiers (`zod`, `@scope/pkg`, path aliases) resolve to nothing.
 */
export function resolveSpecifier(fromFile: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return undefined;
  const target = joinPath(dirname(fromFile), specifier);
  if (target === undefined) return undefined;
  return findSource(target, files);
}

/** The first of {@link sourceCandidates} that exists, also trying an out dir deeper in the path (`packages/a/dist/x.js`). */
export function findSource(path: string, files: ReadonlySet<string>): string | undefined {
  for (const c of sourceCandidates(path)) if (files.has(c)) return c;
  const parts = path.split('/');
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    if (!OUT_DIRS.has(part) && part !== 'bin') continue;
    const prefix = parts.slice(0, i).join('/');
    for (const c of sourceCandidates(parts.slice(i).join('/'))) {
      const full = `${prefix}/${c}`;
      if (files.has(full)) return full;
    }
  }
  return undefined;
}
