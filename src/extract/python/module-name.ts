/** Maps project-relative Python file paths to dotted module names and resolves relative imports. */
import { trimTrailing } from '../../shared/strings.js';

/**
 * Returns the dotted module name of a Python file.
 *
 * - `a/b/c.py` → `a.b.c`; `a/b/__init__.py` → `a.b` (a package is named by its directory).
 * - `.pyi` stubs are named like `.py` files.
 * - When the file lies under one of `packageRoots` (project-relative POSIX directories, e.g.
 *   `src`), that prefix is removed first; the longest matching root wins. The default, `['src']`,
 *   is the usual "src layout". Pass `[]` when `src/` is itself a package (it has `src/__init__.py`);
 *   {@link extractPython} decides this from the files it is given.
 *
 * @param file Project-relative POSIX path (`src/pkg/mod.py`).
 * @param packageRoots Directories that are import roots (on `sys.path`) rather than packages.
 * @returns The dotted module name (`pkg.mod`); `''` for a root-level `__init__.py`.
 */
export function moduleNameForFile(file: string, packageRoots: string[] = ['src']): string {
  let path = file.replace(/\\/g, '/').replace(/^\.\//, '');
  let bestRoot = '';
  for (const raw of packageRoots) {
    // Trailing slashes trimmed by index: `/\/+$/` tried every slash of a long run (s27 recheck list).
    const root = trimTrailing(raw.replace(/\\/g, '/').replace(/^\.\/?/, ''), '/');
    if (root !== '' && path.startsWith(`${root}/`) && root.length > bestRoot.length) bestRoot = root;
  }
  if (bestRoot !== '') path = path.slice(bestRoot.length + 1);
  path = path.replace(/\.pyi?$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}

/**
 * Resolves the module named by a `from` import, following Python's rules for relative imports
 * (https://docs.python.org/3/reference/import.html#package-relative-imports).
 *
 * @param currentModule Dotted name of the importing module.
 * @param isPackage True when the importing file is an `__init__.py` (its package is itself).
 * @param level Number of leading dots (0 for an absolute import).
 * @param name The dotted name after the dots (`''` for `from . import x`).
 * @returns The absolute dotted module name, or `undefined` when the dots climb above the top package.
 */
export function resolveRelativeModule(
  currentModule: string,
  isPackage: boolean,
  level: number,
  name: string,
): string | undefined {
  if (level === 0) return name;
  const parts = currentModule === '' ? [] : currentModule.split('.');
  if (!isPackage) parts.pop();
  for (let i = 1; i < level; i++) {
    if (parts.length === 0) return undefined;
    parts.pop();
  }
  if (name !== '') parts.push(...name.split('.'));
  return parts.join('.');
}
