/**
 * What the type checker needs to read for one alias: the alias's file and, through the files it
 * imports, only the top-level statements its type can depend on (#33 sweep s46 H5).
 *
 * The checker binds every file of its program before it answers anything, so a program of the
 * alias's file "and every project file it imports" is as large as the import graph: docdrift's own
 * `type EntryPoint = ReturnType<typeof readEntryPoints>[…]` (src/engine/lint.ts) made a program of
 * 169 files, 2.9 s and 280 MB in the checker's thread, for one type. Here each file the alias
 * reaches is given with every top-level statement it does not need blanked out (replaced by spaces,
 * line breaks kept, so offsets and lines are those of the original), and import declarations of
 * files it does not need are blanked too, so the checker never loads them.
 *
 * Reachability is by name, over-approximated so that it never drops what a type needs: a kept
 * statement needs every top-level declaration of its file named by any identifier in it (its
 * JSDoc and property names included), every import binding so named (the imported
 * module's export of that name, through `export { a as b }`, `export … from` and `export * from`),
 * and the whole of a module it imports as a namespace (`import * as ns`, `import x = require()`)
 * or as a type (`import('./m')`). Ambient declarations (`declare global`, `declare module 'x'`) and
 * side-effect imports (`import './m'`) are kept in every file reached. A module the project
 * resolver ({@link Resolver.moduleFor}) cannot find is not given: the checker resolves it itself and
 * reads it whole, as before.
 */
import { ts } from 'ts-morph';
import type { Resolver } from './resolve.js';
import type { ModuleInfo } from './scan.js';

/** The top-level statements of one module by the names they declare or export. */
interface StatementIndex {
  statements: readonly ts.Statement[];
  /** Local name → indices of the statements declaring it (merged declarations and overloads: several). */
  declaring: Map<string, number[]>;
  /** Local name → index of the import statement binding it. */
  importing: Map<string, number>;
  /** Exported name → indices of export statements naming it (`export { a as b }`, `export default x`, `export … from`, `export *`: under `*`). */
  exporting: Map<string, number[]>;
  /** Statements kept in every file the alias reaches (ambient declarations, side-effect imports). */
  always: number[];
  /** Module specifiers of side-effect imports (`import './m'`). */
  sideEffects: string[];
}

const indexes = new WeakMap<ModuleInfo, StatementIndex>();

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

function bindingNames(name: ts.BindingName, out: string[]): string[] {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
  return out;
}

function indexOf(module: ModuleInfo): StatementIndex {
  const cached = indexes.get(module);
  if (cached) return cached;
  const index: StatementIndex = { statements: module.sf.statements, declaring: new Map(), importing: new Map(), exporting: new Map(), always: [], sideEffects: [] };
  module.sf.statements.forEach((s, i) => {
    const exported = ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    const declares = (name: string): void => {
      push(index.declaring, name, i);
      if (exported) push(index.exporting, isDefault ? 'default' : name, i);
    };
    if (ts.isImportDeclaration(s)) {
      const clause = s.importClause;
      if (!clause) {
        index.always.push(i);
        if (ts.isStringLiteral(s.moduleSpecifier)) index.sideEffects.push(s.moduleSpecifier.text);
        return;
      }
      if (clause.name) index.importing.set(clause.name.text, i);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) index.importing.set(bindings.name.text, i);
      else if (bindings) for (const el of bindings.elements) index.importing.set(el.name.text, i);
    } else if (ts.isImportEqualsDeclaration(s)) {
      if (ts.isExternalModuleReference(s.moduleReference)) index.importing.set(s.name.text, i);
      else declares(s.name.text);
    } else if (ts.isExportDeclaration(s)) {
      const clause = s.exportClause;
      if (!clause) push(index.exporting, '*', i);
      else if (ts.isNamespaceExport(clause)) push(index.exporting, clause.name.text, i);
      else for (const el of clause.elements) push(index.exporting, el.name.text, i);
    } else if (ts.isExportAssignment(s)) {
      push(index.exporting, s.isExportEquals ? '=' : 'default', i);
    } else if (ts.isModuleDeclaration(s) && !ts.isIdentifier(s.name)) {
      index.always.push(i); // `declare module 'x' { … }`
    } else if (ts.isModuleDeclaration(s) && s.name.text === 'global' && (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0) {
      index.always.push(i);
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) for (const n of bindingNames(d.name, [])) declares(n);
    } else if (
      (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s) || ts.isModuleDeclaration(s)) &&
      s.name &&
      ts.isIdentifier(s.name)
    ) {
      declares(s.name.text);
    } else if (isDefault && (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s))) {
      push(index.exporting, 'default', i);
    }
  });
  indexes.set(module, index);
  return index;
}

/**
 * Every identifier in `statement`, its JSDoc included (a JavaScript file's `@type {Options}`), one
 * each; not the words of strings or of comment prose, nor the targets of `{@link …}`. An explicit stack: any nesting depth is safe.
 */
function identifiersIn(statement: ts.Statement): Set<string> {
  const out = new Set<string>();
  const stack: ts.Node[] = [statement];
  const push = (child: ts.Node): void => void stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    // `{@link discoverFiles}` in a comment names no type the statement needs.
    if (ts.isJSDocLink(node) || ts.isJSDocLinkCode(node) || ts.isJSDocLinkPlain(node)) continue;
    if (ts.isIdentifier(node)) out.add(node.text);
    for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) stack.push(doc);
    ts.forEachChild(node, push);
  }
  return out;
}
const TYPE_IMPORT = /\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"\n]*|\.{1,2})\1\s*\)/g;

/**
 * The texts the checker reads for alias `name` declared in `file`: project-relative path → that
 * module's text (`textOf`'s, e.g. the conditional-nesting-capped one) with the top-level statements
 * the alias cannot depend on blanked. Modules the alias does not reach are absent. An alias not
 * found gives its file alone, whole.
 *
 * @param modules the run's scanned modules by project-relative POSIX path
 * @param resolver resolves relative specifiers among `modules`
 * @param textOf the text of a module as the checker would read it whole (same length and lines as its source)
 */
export function checkerTexts(modules: ReadonlyMap<string, ModuleInfo>, resolver: Resolver, file: string, name: string, textOf: (module: ModuleInfo) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [module, kept] of checkerStatements(modules, resolver, file, name)) out.set(module.file, keptText(module, kept, textOf(module)));
  return out;
}

/**
 * The statements of each module that alias `name` of `file` may depend on (see the module
 * comment): indices into the module's top-level statements, or `'whole'`. Modules the alias does
 * not reach are absent; an alias not found gives its file whole; a file not among `modules`, nothing.
 */
export function checkerStatements(modules: ReadonlyMap<string, ModuleInfo>, resolver: Resolver, file: string, name: string): Map<ModuleInfo, ReadonlySet<number> | 'whole'> {
  const kept = new Map<ModuleInfo, Set<number>>();
  const whole = new Set<ModuleInfo>();
  const exportsDone = new Set<string>();
  const work: Array<() => void> = [];

  const reach = (module: ModuleInfo): Set<number> => {
    let set = kept.get(module);
    if (!set) {
      set = new Set();
      kept.set(module, set);
      const index = indexOf(module);
      for (const i of index.always) keep(module, i);
      for (const specifier of index.sideEffects) {
        const target = resolver.moduleFor(module, specifier);
        if (target) work.push(() => void reach(target));
      }
    }
    return set;
  };
  const keep = (module: ModuleInfo, i: number): void => {
    const set = reach(module);
    if (set.has(i)) return;
    set.add(i);
    work.push(() => {
      const statement = indexOf(module).statements[i] as ts.Statement;
      if (ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement)) return; // its bindings are followed one by one
      if (ts.isExportDeclaration(statement)) {
        const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
        const clause = statement.exportClause;
        if (specifier !== undefined) {
          const target = resolver.moduleFor(module, specifier);
          if (!target) return;
          if (!clause || ts.isNamespaceExport(clause)) return void wholeOf(target);
          for (const el of clause.elements) needExport(target, (el.propertyName ?? el.name).text);
          return;
        }
      }
      for (const word of identifiersIn(statement)) needLocal(module, word);
      for (const match of statement.getFullText(module.sf).matchAll(TYPE_IMPORT)) {
        const target = resolver.moduleFor(module, match[2] as string);
        if (target) wholeOf(target);
      }
    });
  };
  const needLocal = (module: ModuleInfo, word: string): void => {
    const index = indexOf(module);
    for (const i of index.declaring.get(word) ?? []) keep(module, i);
    const at = index.importing.get(word);
    if (at === undefined) return;
    keep(module, at);
    const binding = module.imports.get(word);
    const target = binding ? resolver.moduleFor(module, binding.specifier) : undefined;
    if (!binding || !target) return;
    if (binding.imported === '*') wholeOf(target);
    else needExport(target, binding.imported);
  };
  const needExport = (module: ModuleInfo, exported: string): void => {
    const key = `${module.file}\0${exported}`;
    if (exportsDone.has(key)) return;
    exportsDone.add(key);
    reach(module);
    const index = indexOf(module);
    const named = index.exporting.get(exported);
    for (const i of named ?? []) keep(module, i);
    const local = module.exports.get(exported);
    if (local !== undefined) needLocal(module, local);
    if (named === undefined && local === undefined && !module.reexports.has(exported)) {
      // Perhaps through `export * from`: each such module is asked for the name.
      for (const i of index.exporting.get('*') ?? []) {
        const statement = index.statements[i] as ts.ExportDeclaration;
        const target = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? resolver.moduleFor(module, statement.moduleSpecifier.text) : undefined;
        if (!target) continue;
        keep(module, i);
        work.push(() => needExport(target, exported));
      }
    }
  };
  const wholeOf = (module: ModuleInfo): void => {
    if (whole.has(module)) return;
    whole.add(module);
    const index = indexOf(module);
    for (let i = 0; i < index.statements.length; i++) keep(module, i);
    for (const [local, binding] of module.imports) {
      const target = resolver.moduleFor(module, binding.specifier);
      if (!target) continue;
      if (binding.imported === '*') work.push(() => wholeOf(target));
      else work.push(() => needExport(target, binding.imported));
      void local;
    }
  };

  const start = modules.get(file);
  if (!start) return new Map();
  const index = indexOf(start);
  const declaring = index.declaring.get(name);
  if (!declaring) return new Map([[start, 'whole']]);
  for (const i of declaring) keep(start, i);
  while (work.length > 0) (work.pop() as () => void)();
  const out = new Map<ModuleInfo, ReadonlySet<number> | 'whole'>();
  for (const [module, set] of kept) out.set(module, whole.has(module) || set.size === indexOf(module).statements.length ? 'whole' : set);
  return out;
}

/**
 * `text` (the module's text, or one of the same length and lines) with every top-level statement
 * not in `kept` replaced by spaces, line breaks kept: offsets and lines are the original's.
 */
export function keptText(module: ModuleInfo, kept: ReadonlySet<number> | 'whole', text: string): string {
  if (kept === 'whole') return text;
  let blanked = '';
  let at = 0;
  indexOf(module).statements.forEach((s, i) => {
    if (kept.has(i)) return;
    const start = s.getStart(module.sf);
    blanked += text.slice(at, start) + text.slice(start, s.end).replace(/[^\r\n\u2028\u2029]/g, ' ');
    at = s.end;
  });
  return blanked + text.slice(at);
}

/**
 * `into` (statements given to the checker so far, by module) grown by `more`; returns the modules
 * whose statements grew (the texts the checker must be given again).
 */
export function mergeStatements(into: Map<ModuleInfo, ReadonlySet<number> | 'whole'>, more: ReadonlyMap<ModuleInfo, ReadonlySet<number> | 'whole'>): ModuleInfo[] {
  const grown: ModuleInfo[] = [];
  for (const [module, kept] of more) {
    const had = into.get(module);
    if (had === 'whole') continue;
    if (kept === 'whole') {
      into.set(module, 'whole');
      grown.push(module);
      continue;
    }
    if (had !== undefined && [...kept].every((i) => had.has(i))) continue;
    const union = new Set([...(had ?? []), ...kept]);
    into.set(module, union.size === indexOf(module).statements.length ? 'whole' : union);
    grown.push(module);
  }
  return grown;
}
