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

/**
 * Whether a file is an instruction file for coding agents rather than user documentation:
 * `AGENTS.md`, `AGENT.md`, `CLAUDE.md`, `GEMINI.md`, GitHub Copilot's instructions, and agent
 * skills (`skills/<name>/SKILL.md` and the `references/*.md` files beside it, often a generated
 * copy of the docs).
 *
 * @param file project-relative POSIX path
 */
export function isAgentInstructions(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (/^(?:agents?|claude|claude\.local|gemini)\.md$/i.test(base)) return true;
  if (/(?:^|\/)\.github\/(?:copilot-instructions\.md|instructions\/[^/]+\.instructions\.md)$/i.test(file)) return true;
  // Agent skills: `skills/<name>/SKILL.md` and the reference files beside it.
  return base === 'SKILL.md' || /(?:^|\/)skills\/[^/]+\/references?\/[^/]+\.mdx?$/i.test(file);
}

/**
 * True for a reStructuredText document (`.rst`): `--fix` never edits one (its edits are written
 * for Markdown), so findings there carry no fix and are not counted as fixable.
 */
export function isRestructuredText(file: string): boolean {
  return /\.rst$/i.test(file);
}

/** True for a packaging file commands are declared in, at any depth: `package.json`, `pyproject.toml`, `setup.cfg`, `setup.py`. */
export function isPackagingFile(file: string): boolean {
  return /(^|\/)(package\.json|pyproject\.toml|setup\.cfg|setup\.py)$/.test(file);
}

/**
 * The process's current directory, or undefined when it no longer exists (a shell left in a
 * removed folder, a CI step after its checkout was wiped): `process.cwd()` then throws ENOENT
 * (s40 sweep D4: a Node stack trace and exit 1, even for `--version`).
 */
export function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
