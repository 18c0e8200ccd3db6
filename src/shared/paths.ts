/** Whether a path lies inside the project root. */
import path from 'node:path';

/**
 * True when `rel`, a path relative to the root (as `path.relative(root, p)` gives it), leaves
 * the root: `..`, a path starting with the `..` segment, or an absolute path (another drive).
 * A name that merely starts with two dots (`..x.md`, `...`) is inside.
 */
export function escapesRoot(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || rel.startsWith('../') || path.isAbsolute(rel);
}

/**
 * Whether a project-relative POSIX path lies in a folder of test, example, benchmark or build-script
 * code (`tests/`, `__tests__/`, `spec/`, `fixtures/`, `examples/`, `e2e/`, `testing/`,
 * `benchmarks/`, `scripts/`): its classes are never a product's parameter source by inference.
 */
export function isNonProductPath(file: string): boolean {
  return /(?:^|\/)(?:tests?|__tests__|spec|fixtures?|examples?|e2e|testing|benchmarks?|scripts)\//.test(file);
}
