/** Loads the tree-sitter Python grammar once (web-tree-sitter + tree-sitter-python wasm) and hands out the shared parser. */
import path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { PACKAGE_ROOT } from '../../shared/package-info.js';

/**
 * The Python grammar's WebAssembly build, shipped in docdrift's own package (`grammars/`, written by
 * scripts/vendor-grammar.mjs with its version and sha256): the `tree-sitter-python` package is not a
 * dependency, since its install script builds a native addon docdrift never loads.
 */
export const PYTHON_GRAMMAR_WASM: string = path.join(PACKAGE_ROOT, 'grammars', 'tree-sitter-python.wasm');

let parserPromise: Promise<Parser> | undefined;

/**
 * Returns the process-wide tree-sitter parser set to the Python grammar, initialising the wasm
 * runtime and loading {@link PYTHON_GRAMMAR_WASM} on the first call only.
 *
 * @throws Error (rejected promise) when the wasm runtime or the grammar cannot be loaded.
 */
export function getPythonParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    await Parser.init();
    const language = await Language.load(PYTHON_GRAMMAR_WASM);
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })().catch((error: unknown) => {
    // Let a later call retry instead of caching the failure forever.
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}
