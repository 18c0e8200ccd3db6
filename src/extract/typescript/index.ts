/** TypeScript extraction: config types (interfaces, classes, object type aliases, zod object schemas) with their fields, and which config type each package.json bin uses. */
import type { TypeScriptExtraction, TypeScriptSource } from './types.js';
import type { ParsedFiles } from './syntax.js';

export type { TypeScriptExtraction, TypeScriptSource } from './types.js';

let implementation: Promise<typeof import('./extract.js')> | undefined;

/**
 * Parses each source once with ts-morph (TypeScript 6 parser, in-memory file system, no lib
 * files, no module resolution, no type checker, no code run) and extracts config types.
 *
 * **Config types.** Every top-level interface (merged declarations read together), class,
 * object type alias (`type X = { … }`, intersections `A & B & { … }`, `Partial`/`Required`/
 * `Readonly`/`Pick`/`Omit` over those) and zod object schema (`const X = z.object({…})`,
 * `.extend`, `.merge`, `.pick`, `.omit`, `.partial`; zod 3 and 4), exported or not.
 *
 * **Fields** ({@link ParamSpec}, origin `config-field`, `aliases` empty, `owner` the declaring
 * type, `location` the property name token):
 * - interface/type-literal property signatures; class instance properties and constructor
 *   parameter properties (`constructor(public port = 8080)`), skipping methods, accessors,
 *   properties initialised with a function, `static`, `private`, `protected` and `#private`
 *   members;
 * - `name` unquoted (`'max-warnings'` → `max-warnings`); `type` the annotation as written (for zod,
 *   the inferred type spelled from the schema: `string`, `'a' | 'b'`, `number[]`);
 * - `default`: the initializer (class properties, parameter properties), else the JSDoc
 *   `@default`/`@defaultValue` text (backticks stripped, kind `literal`), else zod `.default(x)`;
 *   kind `literal` for literals (strings without substitutions, numbers incl. negative, booleans,
 *   `null`, `undefined`, `[]`, `{}` and arrays/objects of literals), else `expression`;
 * - `required`: false for `?`, a `| undefined` member, zod `.optional()`/`.nullish()`/`.default()`,
 *   and for any field with a default; true otherwise;
 * - `description`: zod `.describe("…")`/`.meta({ description })`, else the JSDoc summary (first
 *   paragraph, tags excluded, lines joined by spaces); `deprecated`: `@deprecated` (true or its
 *   message) or zod `.meta({ deprecated })`; `hidden`: `@internal`, `@hidden` or `@ignore`;
 * - `typeRef`: the qualified name of the config type the field's type names, through
 *   `| undefined`, `| null`, `Partial<>`, `Readonly<>`, aliases, imports and
 *   `z.infer<typeof S>`; inline object types and inline zod objects become synthetic config types
 *   `<file>#<Parent>.<field>`; `openNamespace`: `Record<string, …>`, string index signatures,
 *   `Map`, `object`, `unknown`, `any`, `{}`, dictionary-named types, `z.record`/`z.map`/`z.any`/
 *   `z.unknown`; `valueTypeRef`: the config type of the values of `Record<string, Foo>` or an
 *   index-signature-only type `{ [name: string]: Foo }` (keys free, the next level checked).
 *
 * **Inheritance.** Interface `extends A, B`, class `extends Base` and intersection members
 * contribute their fields first, in order; a redefinition replaces the inherited field in place.
 * Names resolve across files through relative imports and re-exports (aliases, `import type`,
 * `export *`, namespace imports); names from packages stay unresolved and appear in `bases` as
 * written.
 *
 * **Bins.** For each `bin` of `packageJson` (string form → the package name without scope,
 * object form → each key), the entry file is mapped back to source (`dist|build|lib|out/x.js`
 * → `src/x.ts` or `x.ts`; `bin/x.js` → `src/x.ts`, `src/bin/x.ts`), then it and the files it
 * imports (relative, ≤ 2 hops, nearest first) are searched for, strongest first: parameter
 * annotations of a `main`/`run`/`cli` function; a value holding parsed options
 * (`const o: Options = …`, `… as Options`, `Schema.parse(…)`); `new X(…)` of a config class.
 * Only a single answer at the nearest depth with evidence counts (types nested in or inherited
 * by another candidate are dropped); otherwise the bin is absent.
 *
 * Never throws for bad input: a file with syntax errors gives a `parse-error` warning from the
 * parser's own diagnostics and is read as far as the parser recovers.
 *
 * @param sources Files to read; paths are project-relative POSIX.
 * @param packageJson The package.json file(s) whose `bin` entries to map (paths relative to each one's directory; workspace packages too).
 * @param binSources Declared bin path (project-relative) → the source file its program starts in, when found outside the
 *   sources' own mapping (a shim's target, a JavaScript program; see `findBinPrograms`).
 * @param parsed syntax trees of this run, shared with the CLI-flag extractor (each file parsed once)
 * @throws Error (rejected promise) only when ts-morph itself cannot be loaded.
 */
export async function extractTypeScript(
  sources: TypeScriptSource[],
  packageJson?: { file: string; text: string } | ReadonlyArray<{ file: string; text: string }>,
  binSources?: ReadonlyMap<string, string>,
  parsed?: ParsedFiles,
): Promise<TypeScriptExtraction> {
  // ts-morph costs ~0.45 s to import: load it on first use, so runs without TypeScript skip it.
  implementation ??= import('./extract.js').catch((error: unknown) => {
    implementation = undefined;
    throw error;
  });
  const { runExtraction } = await implementation;
  return runExtraction(sources, packageJson, binSources, parsed);
}
