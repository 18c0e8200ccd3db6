/** Python syntax facts shared by the module scan and the environment scan: import bindings and node locations. */
import type { Node } from 'web-tree-sitter';
import type { SourceLocation } from '../../model/types.js';
import { resolveRelativeModule } from './module-name.js';
import { identifierText, namedChildren, pythonIdentifier } from './values.js';
import { pushUnique } from '../../shared/arrays.js';

/** What a name bound by an import refers to. */
export type Binding =
  /** `import a.b as c` binds `c` to module `a.b`; `import a.b` binds `a` to module `a`. */
  | { kind: 'module'; target: string }
  /** `from m import x as y` binds `y` to attribute `x` of module `m` (which may be a submodule). */
  | { kind: 'symbol'; module: string; name: string };

/** What {@link bindImport} needs of the importing module (a `ModuleInfo` has it). */
export interface ImportingModule {
  module: string;
  /** True for `__init__.py` (relative imports resolve against the module itself). */
  isPackage: boolean;
  /** Absolute module names of `from m import *`; `bindImport` adds to it. */
  starImports: string[];
}

/** Location of a node in `file` (1-based; tree-sitter columns for JS strings are UTF-16 units). */
export function nodeLocation(file: string, node: Node): SourceLocation {
  return {
    file,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    endLine: node.endPosition.row + 1,
    endColumn: node.endPosition.column + 1,
  };
}

/** Adds the bindings an import statement makes to `into`. */
export function bindImport(info: ImportingModule, node: Node, into: Map<string, Binding>, keepExisting: boolean): void {
  const set = (name: string, binding: Binding): void => {
    if (!(keepExisting && into.has(name))) into.set(name, binding);
  };
  if (node.type === 'import_statement') {
    for (const item of node.childrenForFieldName('name')) {
      if (!item) continue;
      if (item.type === 'aliased_import') {
        const name = item.childForFieldName('name');
        const alias = item.childForFieldName('alias');
        if (name && alias) set(pythonIdentifier(alias.text), { kind: 'module', target: pythonIdentifier(name.text) });
      } else if (item.type === 'dotted_name') {
        const first = pythonIdentifier(item.text).split('.')[0] ?? '';
        if (first !== '') set(first, { kind: 'module', target: first });
      }
    }
    return;
  }
  // import_from_statement
  const moduleNode = node.childForFieldName('module_name');
  if (!moduleNode) return;
  let level = 0;
  let name = pythonIdentifier(moduleNode.text);
  if (moduleNode.type === 'relative_import') {
    const prefix = namedChildren(moduleNode).find((c) => c.type === 'import_prefix');
    level = prefix ? prefix.text.length : 0;
    name = identifierText(namedChildren(moduleNode).find((c) => c.type === 'dotted_name')) ?? '';
  }
  const from = resolveRelativeModule(info.module, info.isPackage, level, name);
  if (from === undefined) return;
  if (namedChildren(node).some((c) => c.type === 'wildcard_import')) {
    pushUnique(info.starImports, from);
    return;
  }
  for (const item of node.childrenForFieldName('name')) {
    if (!item) continue;
    if (item.type === 'aliased_import') {
      const orig = item.childForFieldName('name');
      const alias = item.childForFieldName('alias');
      if (orig && alias) set(pythonIdentifier(alias.text), { kind: 'symbol', module: from, name: pythonIdentifier(orig.text) });
    } else if (item.type === 'dotted_name') {
      const name = pythonIdentifier(item.text);
      set(name, { kind: 'symbol', module: from, name });
    }
  }
}
