/** Loads the tree-sitter Python grammar once (web-tree-sitter + tree-sitter-python wasm) and hands out the shared parser. */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

/**
 * Returns the process-wide tree-sitter parser set to the Python grammar, initialising the wasm
 * runtime and loading `tree-sitter-python/tree-sitter-python.wasm` on the first call only.
 *
 * @throws Error (rejected promise) when the wasm runtime or the grammar cannot be loaded.
 */
export function getPythonParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    await Parser.init();
    const wasmPath = createRequire(import.meta.url).resolve('tree-sitter-python/tree-sitter-python.wasm');
    const language = await Language.load(wasmPath);
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
