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
  const index = rootIndexOf(packageRoots);
  const known = index.names.get(file);
  if (known !== undefined) return known;
  let path = file.replace(/\\/g, '/').replace(/^\.\//, '');
  // The longest root `r` with `path.startsWith(`${r}/`)` is the longest prefix of `path` that ends
  // just before one of its slashes and is a root: tried from the last slash back, O(depth) lookups
  // rather than one per root (5,000 packages of a monorepo: 16 s, s27 sweep D13).
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    if (index.roots.has(path.slice(0, i))) {
      path = path.slice(i + 1);
      break;
    }
  }
  path = path.replace(/\.pyi?$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  const name = parts.join('.');
  index.names.set(file, name);
  return name;
}

/** The normalised package roots of one `packageRoots` array, and the module names already answered for it. */
interface RootIndex {
  /** Each root with backslashes as slashes, without a leading `./` and trailing slashes; never `''`. */
  roots: ReadonlySet<string>;
  /** File (as given) → module name. */
  names: Map<string, string>;
}

/**
 * Indexes by array identity: the callers pass the same array for every file of a run, and no one
 * changes it once made (a changed array would keep its first answers).
 */
const rootIndexes = new WeakMap<readonly string[], RootIndex>();

function rootIndexOf(packageRoots: readonly string[]): RootIndex {
  let index = rootIndexes.get(packageRoots);
  if (index) return index;
  const roots = new Set<string>();
  for (const raw of packageRoots) {
    // Trailing slashes trimmed by index: `/\/+$/` tried every slash of a long run (s27 recheck list).
    const root = trimTrailing(raw.replace(/\\/g, '/').replace(/^\.\/?/, ''), '/');
    if (root !== '') roots.add(root);
  }
  index = { roots, names: new Map() };
  rootIndexes.set(packageRoots, index);
  return index;
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
