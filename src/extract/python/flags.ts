/** CLI flags from Python source: argparse parsers, click commands, typer and cyclopts apps, read statically with tree-sitter (Python is never run). */
import type { Node, Tree } from 'web-tree-sitter';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { extractArgparse } from './flags-argparse.js';
import { extractClick } from './flags-click.js';
import { extractCyclopts } from './flags-cyclopts.js';
import { extractJsonargparse } from './flags-jsonargparse.js';
import { extractDecli } from './flags-decli.js';
import { extractDocopt } from './flags-docopt.js';
import { extractFire } from './flags-fire.js';
import { markRuntimeOptions } from './runtime-options.js';
import { FlagContext, type FlagModule } from './flags-common.js';
import { extractTyper } from './flags-typer.js';
import { extractLauncherFlags } from './launcher-flags.js';
import type { ParsedPythonModule } from './index.js';
import { moduleNameForFile } from './module-name.js';
import { getPythonParser, parsePython } from './parser.js';
import { loadUnicodeNames, mayHoldNamedEscape } from './unicode-names.js';
import { Resolver } from './resolve.js';
import { scanModule, type ModuleInfo } from './scan.js';
import type { FlagCommand } from './types.js';
import { identifierText, namedChildren, pythonIdentifier } from './values.js';

export type { FlagCommand } from './types.js';

/** What {@link extractPythonFlags} found. */
export interface PythonFlagExtraction {
  /** Sorted by target, then path. */
  commands: FlagCommand[];
  /** One `parse-error` warning per file with syntax errors (the intact parts are still read). */
  diagnostics: InputDiagnostic[];
  /** Flags modules compare argv words with by hand ({@link FlagCommand.launcher}); absent when none. */
  launchers?: FlagCommand[];
}

/** Options for {@link extractPythonFlags}. */
export interface ExtractPythonFlagsOptions {
  /** Import roots, as for `extractPython` (default `['src']`, or `[]` when `src/__init__.py` exists). */
  packageRoots?: string[];
  /**
   * Files already parsed and scanned by `extractPython` (its `retained`), by path: their trees are
   * read instead of parsing the text again, and their scans are reused when the module name
   * under this call's package roots is the same. extractPythonFlags takes ownership of these
   * trees and deletes them when it returns, also those of files not among `sources`.
   */
  parsed?: ParsedPythonModule[];
  /**
   * Told once, after every source is parsed and before any flag is read, of the scan of each
   * source this call parsed itself (path, module name, scan; in parsing order; a file the parser
   * returned no tree for is absent): the Python worker thread (src/engine/python-worker.ts) hands
   * them to `extractPython` on the main thread, which then need not parse those files again.
   */
  onScanned?: (scans: Array<[file: string, module: string, info: ModuleInfo]>) => void;
}

const CONTAINERS = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause',
  'finally_clause', 'with_statement', 'block',
]);

/**
 * Reads the CLI flags that argparse, click (and rich-click), typer and cyclopts programs declare, by walking
 * the syntax tree of each file; Python is never run and source text is never matched with regular
 * expressions. Names are resolved through imports across the given files, so `import argparse as
 * ap`, `from click import option` and an app defined in one module and extended in another work.
 *
 * Each flag is a {@link ParamSpec} with origin `cli-flag`: `name` = the first long spelling
 * without dashes as written (`api-key-env`), else the short letter; `aliases` = the other
 * spellings; `dest` = where the value goes (argparse `dest=` or its derivation, click/typer
 * parameter name); `type`, `default`, `description` (help), `required`, `hidden`, `deprecated`,
 * `choices`, `negatable`, `positional`; `location` = the flag's string literal (typer options
 * without declarations: the parameter name).
 *
 * argparse flags and sub-command names built from data are computed by a small, bounded partial
 * evaluator (`partial-eval.ts`): helper calls with known arguments, lambdas stored in records
 * (`Flag(register=lambda p: p.add_argument(f"--{name}"))`), `for` over known collections.
 *
 * Limits (what is not read, never guessed): flags or sub-command names whose values the
 * evaluator cannot compute (read from files, the environment, unknown calls); parsers built in class methods or
 * nested functions; parser/command/app subclasses; click objects built inside functions; typer
 * Enum choices. Options made at run time are not read but said (`markRuntimeOptions`,
 * `FlagCommand.unreadFlags`). See `extractArgparse`, `extractClick` and `extractTyper` for each
 * library's details
 * (and `extractCyclopts`, `extractJsonargparse` for jsonargparse's `CLI(func)`, `extractDecli` for
 * decli's `cli(data)`, `extractDocopt` for docopt usage texts, `extractFire` for `fire.Fire(x)`).
 *
 * @param sources Project-relative POSIX paths and texts of the Python files to read.
 * @throws Error only when the tree-sitter runtime or grammar cannot be loaded.
 */
export async function extractPythonFlags(
  sources: { file: string; text: string }[],
  options: ExtractPythonFlagsOptions = {},
): Promise<PythonFlagExtraction> {
  const parser = await getPythonParser();
  const packageRoots = options.packageRoots ?? (sources.some((s) => s.file === 'src/__init__.py') ? [] : ['src']);
  const diagnostics: InputDiagnostic[] = [];
  const trees: Tree[] = (options.parsed ?? []).map((p) => p.tree);
  const parsed = new Map((options.parsed ?? []).map((p) => [p.file, p]));
  const modules = new Map<string, FlagModule>();
  const infos = new Map<string, ModuleInfo>();
  const scanned: Array<[string, string, ModuleInfo]> = [];
  try {
    const ordered = [...sources].sort((a, b) => Number(a.file.endsWith('.pyi')) - Number(b.file.endsWith('.pyi')));
    for (const source of ordered) {
      const module = moduleNameForFile(source.file, packageRoots);
      const earlier = parsed.get(source.file);
      if (mayHoldNamedEscape(source.text)) await loadUnicodeNames(); // `\N{name}` in a string literal
      const tree = earlier?.tree ?? parsePython(parser, source.text);
      if (!tree) {
        diagnostics.push({
          ruleId: 'parse-error',
          severity: 'error',
          message: `${source.file}: the Python parser returned no tree`,
          location: { file: source.file, line: 1, column: 1 },
        });
        continue;
      }
      if (!earlier) trees.push(tree);
      const info = earlier?.module === module ? earlier.info : scanModule(source.file, module, tree);
      if (!earlier) scanned.push([source.file, module, info]);
      if (info.diagnostic) diagnostics.push(info.diagnostic);
      if (modules.has(module)) continue; // a .py beats its .pyi stub; otherwise the first file wins
      infos.set(module, info);
      modules.set(module, readModule(info, tree.rootNode));
    }
    options.onScanned?.(scanned);
    const ctx = new FlagContext(modules, new Resolver(infos));
    const commands = unambiguous([...extractArgparse(ctx, diagnostics), ...extractClick(ctx, diagnostics), ...extractTyper(ctx, diagnostics), ...extractCyclopts(ctx), ...extractJsonargparse(ctx), ...extractDecli(ctx),
      ...extractDocopt(ctx, diagnostics), ...extractFire(ctx, diagnostics)]);
    markRuntimeOptions(ctx, commands);
    const launchers = extractLauncherFlags(modules).sort((a, b) => compare(a.target, b.target));
    commands.sort((a, b) => compare(a.target, b.target) || comparePaths(a.path, b.path)
      || compare(a.location.file, b.location.file) || a.location.line - b.location.line);
    diagnostics.sort((a, b) => compare(a.location.file, b.location.file));
    return { commands, diagnostics, ...(launchers.length > 0 ? { launchers } : {}) };
  } finally {
    for (const tree of trees) tree.delete(); // trees live in wasm memory
  }
}

/**
 * Drops every command of a target that would start more than one program: a function reaching
 * two parser builders (`main()` calling `build_parser()` and `build_legacy_parser()`, directly or
 * through its calls) is not guessed at, so its command's flags stay unknown rather than mixed.
 */
function unambiguous(commands: FlagCommand[]): FlagCommand[] {
  const programs = new Map<string, Set<string>>();
  for (const c of commands) {
    if (c.path.length > 0) continue;
    const set = programs.get(c.target) ?? new Set<string>();
    set.add(`${c.location.file}:${c.location.line}:${c.location.column}`);
    programs.set(c.target, set);
  }
  return commands.filter((c) => (programs.get(c.target)?.size ?? 0) <= 1);
}

/** Collects the top-level functions, module-level assignments and statements of a module. */
function readModule(info: ModuleInfo, root: Node): FlagModule {
  const module: FlagModule = { info, root, functions: new Map(), assigns: new Map(), statements: [] };
  const visit = (node: Node): void => {
    for (const child of namedChildren(node)) {
      if (child.type === 'function_definition' || child.type === 'decorated_definition') {
        const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
        const decorators = child.type === 'decorated_definition' ? namedChildren(child).filter((c) => c.type === 'decorator') : [];
        const name = def?.type === 'function_definition' ? identifierText(def.childForFieldName('name')) : undefined;
        if (def && name !== undefined && !module.functions.has(name)) module.functions.set(name, { def, decorators });
        continue;
      }
      if (child.type === 'class_definition') continue;
      if (CONTAINERS.has(child.type)) {
        visit(child);
        continue;
      }
      if (!child.type.endsWith('statement')) continue; // an `if` condition, a stray expression
      module.statements.push(child);
      if (child.type !== 'expression_statement') continue;
      const assignment = namedChildren(child)[0];
      if (assignment?.type !== 'assignment') continue;
      const left = assignment.childForFieldName('left');
      const right = assignment.childForFieldName('right');
      const name = left?.type === 'identifier' ? pythonIdentifier(left.text) : undefined;
      if (name !== undefined && right && right.type !== 'assignment' && !module.assigns.has(name)) {
        module.assigns.set(name, right);
      }
    }
  };
  visit(root);
  return module;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compare(a[i] as string, b[i] as string);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
