/**
 * What cheap text scans of one Python file tell before, or instead of, parsing it: whether the CLI
 * flag pass must read it, whether it is a script, which config libraries it imports. Kept per
 * file in the per-file cache (keyed by the file's content hash), so a run in which one Python file
 * changed need not read the others' texts again.
 */

/** Words without which a file cannot declare CLI flags itself. */
const FRAMEWORK_WORDS = /\b(argparse|add_argument|click|typer|cyclopts|jsonargparse|decli|docopt)\b|^[ \t]*(?:import[ \t]+fire|from[ \t]+fire[ \t]+import)\b/m;
/** Substrings of {@link FRAMEWORK_WORDS} (`argparse` covers `jsonargparse`): a text holding none of them cannot match it. */
const FRAMEWORK_SUBSTRINGS = ['argparse', 'add_argument', 'click', 'typer', 'cyclopts', 'decli', 'docopt', 'fire'];
/** Frameworks whose commands (or docopt usage texts) are plain functions or strings, often imported from modules that never name the framework. */
const FUNCTION_FRAMEWORKS = /\b(cyclopts|jsonargparse|docopt)\b|^[ \t]*(?:import[ \t]+fire|from[ \t]+fire[ \t]+import)\b/m;
/** `if __name__ == "__main__":` (either order of the comparison) at the start of a line. */
const MAIN_GUARD_RE = /^if\s+(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*:/m;
/**
 * Module-level code (at the margin) that reads the command line: `args = parser.parse_args()`,
 * `parser.parse_known_args()`, `arguments = docopt(__doc__)`, `fire.Fire(main)`. A file doing so
 * runs as a script without an `if __name__ == "__main__":` block.
 */
const TOP_LEVEL_PARSE_RE = /^(?:[A-Za-z_][\w, ]*=[ \t]*)?[A-Za-z_][\w.]*(?:\.parse_(?:known_)?args|docopt|Fire)\(/m;
/** The libraries whose import changes which global parameters apply (see `effectiveGlobalParameters` in src/engine/lint.ts). */
const CONFIG_LIBRARIES = ['hydra', 'omegaconf', 'draccus'] as const;
const LIBRARY_IMPORT = new Map(CONFIG_LIBRARIES.map((lib) => [lib, new RegExp(`^\\s*(?:from|import)\\s+${lib}\\b`, 'm')]));

/** What {@link pythonTextFacts} found in one file's text. Plain data (stored in the per-file cache). */
export interface PythonTextFacts {
  /** Names a CLI framework or `add_argument` ({@link FRAMEWORK_WORDS}): the flag extractor reads the file. */
  framework: boolean;
  /** Names cyclopts or jsonargparse ({@link FUNCTION_FRAMEWORKS}): the modules it imports may hold command functions. */
  functionFramework: boolean;
  /**
   * Has an `if __name__ == "__main__":` block ({@link MAIN_GUARD_RE}), or module-level code that
   * parses the command line ({@link TOP_LEVEL_PARSE_RE}): a script run as `python file.py`.
   */
  mainGuard: boolean;
  /** The {@link CONFIG_LIBRARIES} an `import`/`from` line at a line start names, in that order. */
  imports: string[];
}

/**
 * Scans one file's text. Each regular expression runs only when a plain substring search finds
 * its word (most files name none of them), so this costs a few substring searches per file.
 */
export function pythonTextFacts(text: string): PythonTextFacts {
  return {
    framework: FRAMEWORK_SUBSTRINGS.some((word) => text.includes(word)) && FRAMEWORK_WORDS.test(text),
    functionFramework: (text.includes('cyclopts') || text.includes('jsonargparse') || text.includes('docopt') || text.includes('fire')) && FUNCTION_FRAMEWORKS.test(text),
    mainGuard: (text.includes('__main__') && MAIN_GUARD_RE.test(text))
      || ((text.includes('parse_') || text.includes('docopt') || text.includes('Fire(')) && TOP_LEVEL_PARSE_RE.test(text)),
    imports: CONFIG_LIBRARIES.filter((lib) => text.includes(lib) && LIBRARY_IMPORT.get(lib)!.test(text)),
  };
}
