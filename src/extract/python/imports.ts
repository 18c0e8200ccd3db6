/**
 * The import statements of a Python source, read from its text with patterns (never run): one
 * reader for every caller that follows imports (discovery's test-named folders, the class-field
 * budget's import hops, the CLI-library hop search). Statement grammar: Python language
 * reference, "The import statement" (`import_stmt`).
 */

/**
 * One import statement. `from ..pkg.mod import a, b as c` is `{ dots: 2, module: 'pkg.mod',
 * names: ['a', 'b'] }`; `from . import x` is `{ dots: 1, module: '', names: ['x'] }`;
 * `import a.b, c` is two imports `{ dots: 0, module: 'a.b', names: [], plain: true }` and `c`.
 * `names` are the imported names without their `as` aliases (`*` kept as written).
 */
export interface PythonImport {
  /** Leading dots of a relative import (0: absolute). */
  dots: number;
  /** The dotted module after the dots, `''` for `from . import x`. */
  module: string;
  /** The names after `import` of a `from` statement; empty for a plain `import`. */
  names: string[];
  /** A plain `import m` statement (not `from m import …`). */
  plain: boolean;
}

/**
 * `from m import a, b`: the names up to the line's end (group 4), or across lines inside
 * parentheses (group 3). The names of a line without parentheses never run into the next line,
 * where that line's `from` would be taken for a name and its import lost (two consecutive
 * `from … import` lines lost the second). The module after the dots starts at a word character:
 * `(\.*)([\w.]*)` split a run of dots every way, quadratic in a long `from ....` line (s27).
 */
export const PY_FROM_IMPORT = /^[ \t]*from[ \t]+(?=[.\w])(\.*)((?:\w[\w.]*)?)[ \t]+import[ \t]+(?:\(([\w\s,.*]*)|([\w \t,.*]*))/gm;

/** `import a.b, c as d`: the comma-separated dotted names (aliases dropped by the reader). */
export const PY_PLAIN_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm;

/**
 * The import statements of `text`, `from` statements first then plain ones, each group in the
 * order written. Statements inside strings or comments may be read too (patterns, not a parse);
 * a `from` statement's continuation lines after a backslash are not read. Linear in the text.
 */
export function pythonImports(text: string): PythonImport[] {
  const out: PythonImport[] = [];
  for (const m of text.matchAll(PY_FROM_IMPORT)) {
    const names: string[] = [];
    for (const raw of (m[3] ?? m[4] ?? '').split(',')) {
      const name = raw.trim().split(/\s+/)[0];
      if (name) names.push(name);
    }
    out.push({ dots: m[1]!.length, module: m[2] ?? '', names, plain: false });
  }
  for (const m of text.matchAll(PY_PLAIN_IMPORT)) {
    for (const raw of m[1]!.split(',')) {
      const module = raw.trim().split(/\s+/)[0];
      if (module) out.push({ dots: 0, module, names: [], plain: true });
    }
  }
  return out;
}

/**
 * The dotted module names an import statement may load, resolved against the importing
 * module: `own` is its dotted name as parts (`['pkg', 'sub', 'a']` for `pkg/sub/a.py`,
 * `['pkg', 'sub']` for `pkg/sub/__init__.py`, then `isPackage` true). `from pkg import mod` gives
 * `pkg` and `pkg.mod` (either may be a module), `from . import x` in `pkg/a.py` gives `pkg` and
 * `pkg.x`, `import pkg.mod` gives `pkg.mod` (with `packages`, also `pkg`: Python runs each
 * package's `__init__` on the way). A relative import that climbs above the top package gives
 * nothing (Python raises ImportError).
 */
export function importedModuleNames(imports: readonly PythonImport[], own: readonly string[], isPackage: boolean, packages = false): string[] {
  const out: string[] = [];
  for (const imp of imports) {
    if (imp.plain) {
      const parts = imp.module.split('.');
      for (let n = packages ? 1 : parts.length; n <= parts.length; n++) out.push(parts.slice(0, n).join('.'));
      continue;
    }
    let module = imp.module;
    if (imp.dots > 0) {
      const keep = own.length - imp.dots + (isPackage ? 1 : 0);
      if (keep < 0 || (keep === 0 && imp.module === '')) continue;
      module = [...own.slice(0, keep), ...(imp.module ? imp.module.split('.') : [])].join('.');
    }
    out.push(module);
    for (const name of imp.names) if (name !== '*') out.push(`${module}.${name}`);
  }
  return out;
}
