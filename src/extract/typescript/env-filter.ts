/**
 * Which TypeScript/JavaScript files the env-variable reader (env.ts) parses, decided from paths
 * and text alone so that a project with no such file never loads the parser (issue #31).
 */

/**
 * True when a file's text may read the environment in a way `extractFileEnv` (env.ts) reads: it
 * names `process.env`, `import.meta.env`, `Deno.env`, `Bun.env`, t3-env's `createEnv` or envalid's
 * `cleanEnv`/`customCleanEnv`, imports from `process`/`node:process` (`import { env } from
 * 'node:process'`) or destructures `process` (`const { env } = process`).
 */
export const MAY_READ_ENV = /process\s*\.\s*env\b|import\.meta\.env|Deno\.env|Bun\.env|\bcreateEnv\b|\b(?:custom)?[cC]leanEnv\b|['"](?:node:)?process['"]|\}\s*=\s*(?:globalThis\.)?process\b/;

/**
 * True when a file that does not read the environment itself may call an env helper of another
 * module (`getEnv('LOG_LEVEL')`): it imports or requires a relative module and passes a string
 * literal shaped like a variable name (upper case, three characters or more) to a call.
 */
export function mayCallEnvHelper(text: string): boolean {
  return /(?:from\s*|require\(\s*)['"]\./.test(text) && /[(,]\s*['"`][A-Z][A-Z0-9_]{2,}['"`]\s*[,)]/.test(text);
}

/** TypeScript and JavaScript sources by extension; declaration files (`.d.ts`) are not code. */
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const DECLARATION = /\.d\.[cm]?ts$|\.d\.[^/.]+\.ts$/;
/** Characters per line above which a file is a bundle or minified output, not source. */
const MINIFIED_LINE = 300;

/**
 * The files of a project the env reader looks at: TypeScript sources (not `.d.ts`) and JavaScript
 * files (`.js`, `.mjs`, `.cjs`, `.jsx`), deduplicated and sorted. Discovery already leaves out
 * `node_modules`, `dist`/`build` output, `.min.js` bundles and test folders; a JavaScript file
 * beside a TypeScript file of the same name (`src/x.js` next to `src/x.ts`) is that file's
 * compiled output and is left out too.
 *
 * @param candidates project-relative POSIX paths (the discovered sources and programs)
 */
export function envSourceFiles(candidates: Iterable<string>): string[] {
  const all = new Set([...candidates].filter((f) => SOURCE.test(f) && !DECLARATION.test(f)));
  const stems = new Set([...all].filter((f) => /\.[cm]?tsx?$/.test(f)).map((f) => f.replace(/\.[cm]?tsx?$/, '')));
  return [...all].filter((f) => !(/\.[cm]?jsx?$/.test(f) && stems.has(f.replace(/\.[cm]?jsx?$/, '')))).sort();
}

/**
 * True for generated JavaScript the env reader skips: a file that ends with a source-map comment
 * (`//# sourceMappingURL=…`, what compilers and bundlers write), or minified text (more than
 * {@link MINIFIED_LINE} characters per line on average over 2,000 characters or more).
 */
export function isGeneratedScript(file: string, text: string): boolean {
  if (!/\.[cm]?jsx?$/.test(file)) return false;
  if (/\/\/[#@] sourceMappingURL=\S+\s*$/.test(text.slice(-2000))) return true;
  if (text.length < 2000) return false;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.length / lines > MINIFIED_LINE;
}
