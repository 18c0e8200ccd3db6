/**
 * What cheap text scans of one Python file tell before, or instead of, parsing it: whether the CLI
 * flag pass must read it, whether it is a script, which config libraries it imports. Kept per
 * file in the per-file cache (keyed by the file's content hash), so a run in which one Python file
 * changed need not read the others' texts again.
 */
import { sourcesOverTokenBudget } from '../../shared/token-budget.js';
import { MAX_TYPESCRIPT_RUN_TOKENS } from '../typescript/budget.js';

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
const LIBRARY_IMPORT = new Map(CONFIG_LIBRARIES.map((lib) => [lib, new RegExp(`^[ \\t]*(?:from|import)\\s+${lib}\\b`, 'm')]));

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
  /** The text's length in UTF-16 code units (what {@link pythonSourcesOverLimits} bounds). */
  chars: number;
  /**
   * No line imports, defines (`class`, `def`, `async def`) or decorates anything and no word names
   * the environment (`environ`, `getenv`): a module of data, such as a generated table or a
   * benchmark input, from which docdrift can only read constants. Judged only above
   * {@link LARGE_PYTHON_SOURCE_CHARS} (false below).
   */
  dataOnly: boolean;
  /** About how many tokens the text holds, counted only above {@link LARGE_PYTHON_SOURCE_CHARS} (0 below). */
  tokens: number;
}

/** A line that imports, defines or decorates something, or a read of the environment (see {@link PythonTextFacts.dataOnly}). */
const DEFINES_RE = /^[ \t]*(?:import|from|class|def|async[ \t]+def|@)\b|\b(?:environ|getenv)\b/m;

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
    chars: text.length,
    // Both matter only to the limits of large sources: not scanned for the others (most files).
    dataOnly: text.length > LARGE_PYTHON_SOURCE_CHARS && !DEFINES_RE.test(text),
    tokens: text.length > LARGE_PYTHON_SOURCE_CHARS ? countTokens(text) : 0,
  };
}

/**
 * The most characters of one Python source that are parsed: the same limit as one Markdown
 * document. No Python module that defines a CLI or a config class comes near it.
 */
export const MAX_PYTHON_SOURCE_CHARS = 1024 * 1024;
/**
 * Above this many characters a source's tokens are counted ({@link PythonTextFacts.tokens}) and
 * bounded, and a module of data ({@link PythonTextFacts.dataOnly}) is not parsed at all: nothing in
 * it but constants.
 */
export const LARGE_PYTHON_SOURCE_CHARS = 256 * 1024;
/**
 * The most tokens of one large source that are parsed. Cost follows tokens, not bytes: a syntax
 * node costs ~2.5 us and ~0.4 KB of memory between tree-sitter and the walks over it, so 250,000
 * string literals in one 1 MB implicit concatenation took 4.5 s and 450 MB, while a real 432 KB
 * module (datamodel-code-generator's `parser/jsonschema.py`, ~60,000 tokens) takes 0.3 s.
 */
export const MAX_PYTHON_SOURCE_TOKENS = 120_000;
/** The most tokens of all large sources of one run that are parsed: at worst (dense literals) about 4 s and 400 MB. */
export const MAX_PYTHON_RUN_TOKENS = 200_000;

/**
 * The most tokens of the files that may define CLI flags (of any size) that one run reads for
 * flags. Flag extraction resolves names across those files, so it holds all their syntax trees at
 * once: measured on 240 KB argparse modules, ~160 bytes of tree-sitter memory and ~0.5 KB of
 * JavaScript heap and garbage per token, and ~10 us of CPU, so 20 such modules (2.2 million tokens)
 * peaked at 757 MB and were ended at the worker's heap limit after 26 s (s31 D1). The largest real
 * project measured (nemo-gym: 178 flag files, 229,000 tokens) stays under it.
 */
export const MAX_PYTHON_FLAG_RUN_TOKENS = 300_000;

/**
 * The budget the Python flag files share with the TypeScript sources of the same run, in Python
 * flag-file tokens, of which {@link TYPESCRIPT_TOKENS_PER_PYTHON_TOKEN} TypeScript tokens cost
 * one. The two extractions hold their trees at once (the TypeScript worker starts first and runs
 * while the Python flags are extracted), so each bound alone let a mixed project reach the sum:
 * 300,000 flag-file tokens next to 600,000 TypeScript tokens peaked at 486-518 MB (s31 D5; each
 * alone 369 and 264 MB). The TypeScript sources keep their own budget; the Python flag files get
 * what they leave of this one, at most {@link MAX_PYTHON_FLAG_RUN_TOKENS}: 200,000 next to a full
 * TypeScript budget (measured ~410 MB). Real projects lose nothing: nemo-gym's flag files (229,000
 * tokens) fit next to up to 510,000 TypeScript tokens, gemini-cli's TypeScript (446,000) leaves
 * 251,000.
 */
export const MAX_MIXED_RUN_TOKENS = 400_000;

/**
 * TypeScript tokens that cost as much as one Python flag-file token (measured: ~0.27 KB against
 * ~0.88 KB of peak memory per token, on the generated modules of s31 D5).
 */
export const TYPESCRIPT_TOKENS_PER_PYTHON_TOKEN = 3;

/**
 * The Python flag files' token budget of a run: {@link MAX_PYTHON_FLAG_RUN_TOKENS}, less what the
 * TypeScript sources take of {@link MAX_MIXED_RUN_TOKENS}. `typeScriptTokens` (the tokens of the
 * TypeScript and JavaScript sources the run may parse; counted as {@link MAX_TYPESCRIPT_RUN_TOKENS}
 * at most, the most that run parses) is asked only when `flagChars`, the flag files' length in
 * UTF-16 code units (an upper bound of their tokens), passes the smallest budget this can give,
 * so a project under it counts nothing.
 *
 * @returns a token budget between {@link MAX_MIXED_RUN_TOKENS} less a full TypeScript share and {@link MAX_PYTHON_FLAG_RUN_TOKENS}.
 */
export function pythonFlagTokenBudget(flagChars: number, typeScriptTokens: () => number): number {
  const least = MAX_MIXED_RUN_TOKENS - Math.ceil(MAX_TYPESCRIPT_RUN_TOKENS / TYPESCRIPT_TOKENS_PER_PYTHON_TOKEN);
  if (flagChars <= least) return MAX_PYTHON_FLAG_RUN_TOKENS;
  const share = Math.ceil(Math.min(typeScriptTokens(), MAX_TYPESCRIPT_RUN_TOKENS) / TYPESCRIPT_TOKENS_PER_PYTHON_TOKEN);
  return Math.min(MAX_PYTHON_FLAG_RUN_TOKENS, MAX_MIXED_RUN_TOKENS - share);
}

/**
 * Splits the files that may define CLI flags into those read for flags and those over the run's
 * budget ({@link MAX_PYTHON_FLAG_RUN_TOKENS}). The budget goes first to the sources `priority`
 * ranks lowest (entry modules, say), then to the smaller, then in the given order; the result
 * depends on the texts alone. Tokens are counted only when the sources' `chars` (an upper bound
 * of their tokens) exceed the budget, so a project under it reads no text here.
 *
 * @param sources the flag sources, in a fixed order (discovery's).
 * @param charsOf a source's length in UTF-16 code units.
 * @param textOf a source's text (read only when the budget may be exceeded).
 * @param priority a rank per source, lower first (default: all equal).
 * @param budget the most tokens read (default {@link MAX_PYTHON_FLAG_RUN_TOKENS}; see {@link pythonFlagTokenBudget}).
 * @returns the sources over the budget, in the given order (empty when all fit).
 */
export function pythonFlagSourcesOverBudget<S>(sources: readonly S[], charsOf: (source: S) => number, textOf: (source: S) => string, priority: (source: S) => number = () => 0, budget = MAX_PYTHON_FLAG_RUN_TOKENS): S[] {
  return sourcesOverTokenBudget(sources, { chars: charsOf, tokens: (s) => countTokens(textOf(s)), rank: priority }, budget);
}

/** One token of {@link PythonTextFacts.tokens}: a comment, a string (triple-quoted ones across lines), a word or number, or another visible character. */
const TOKEN_RE = /#[^\n]*|"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\w+|[^\s\w]/g;

/** Counts {@link TOKEN_RE} matches: about one per tree-sitter leaf. */
function countTokens(text: string): number {
  let n = 0;
  TOKEN_RE.lastIndex = 0;
  while (TOKEN_RE.exec(text) !== null) n++;
  return n;
}

/**
 * Why one Python source is too large to parse by itself: over {@link MAX_PYTHON_SOURCE_CHARS} or
 * {@link MAX_PYTHON_SOURCE_TOKENS}. A clause such as "it is 1.9 MB, over the 1 MB limit for one
 * Python source", or `undefined` within both limits.
 */
export function pythonSourceOverOwnLimits(facts: Pick<PythonTextFacts, 'chars' | 'tokens'>): string | undefined {
  if (facts.chars > MAX_PYTHON_SOURCE_CHARS) {
    return `it is ${(facts.chars / (1024 * 1024)).toFixed(1)} MB, over the ${MAX_PYTHON_SOURCE_CHARS / (1024 * 1024)} MB limit for one Python source`;
  }
  if (facts.tokens > MAX_PYTHON_SOURCE_TOKENS) {
    return `it holds about ${facts.tokens.toLocaleString('en-US')} tokens, over the limit of ${MAX_PYTHON_SOURCE_TOKENS.toLocaleString('en-US')} for one Python source`;
  }
  return undefined;
}

/** What {@link pythonSourcesOverLimits} decided for the sources it refused (the others are parsed). */
export interface PythonSourceRefusals<S> {
  /** Modules of data over {@link LARGE_PYTHON_SOURCE_CHARS}: not parsed, and not worth a warning (they define nothing docdrift reads). */
  quiet: Set<S>;
  /** Sources over a limit of their own, each with a clause such as "it is 1.9 MB, over the 1 MB limit for one Python source". */
  refused: Map<S, string>;
  /** Sources within their own limits that the run budget ({@link MAX_PYTHON_RUN_TOKENS}) left unread, in the given order. */
  overBudget: S[];
}

/**
 * Decides which Python sources are too large to parse, from their {@link PythonTextFacts} alone
 * (their texts are not needed). Bounds one source by {@link MAX_PYTHON_SOURCE_CHARS} and
 * {@link MAX_PYTHON_SOURCE_TOKENS}, and the large sources of a run together by
 * {@link MAX_PYTHON_RUN_TOKENS}, so that a run never parses more than a few seconds of Python. The
 * budget goes first to the sources `priority` ranks lowest (files that may define CLI flags before
 * test files, say), then in the given order; the result does not depend on timing.
 *
 * @param sources the run's Python sources, in a fixed order (discovery's).
 * @param priority a rank per source, lower first (default: all equal).
 */
export function pythonSourcesOverLimits<S>(
  sources: readonly S[],
  factsOf: (source: S) => Pick<PythonTextFacts, 'chars' | 'dataOnly' | 'tokens'>,
  priority: (source: S) => number = () => 0,
): PythonSourceRefusals<S> {
  const out: PythonSourceRefusals<S> = { quiet: new Set(), refused: new Map(), overBudget: [] };
  const large: S[] = [];
  for (const source of sources) {
    const facts = factsOf(source);
    if (facts.chars <= LARGE_PYTHON_SOURCE_CHARS) continue;
    const reason = facts.dataOnly ? undefined : pythonSourceOverOwnLimits(facts);
    if (facts.dataOnly) out.quiet.add(source);
    else if (reason !== undefined) out.refused.set(source, reason);
    else large.push(source);
  }
  const ranked = large.map((source, i) => ({ source, i, rank: priority(source) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  let spent = 0;
  const overBudget = new Set<S>();
  for (const { source } of ranked) {
    const tokens = factsOf(source).tokens;
    if (spent + tokens > MAX_PYTHON_RUN_TOKENS) overBudget.add(source);
    else spent += tokens;
  }
  out.overBudget = large.filter((source) => overBudget.has(source));
  return out;
}
