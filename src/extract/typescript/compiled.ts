/**
 * Maps compiled JavaScript back to the TypeScript source it was built from, from what the project
 * says rather than from folder names alone: a source map next to the file (`cli.js.map`), the
 * `outDir`/`rootDir` of a `tsconfig.json` (its `extends` followed), and only then the usual
 * layouts (`dist/x.js` → `src/x.ts`, {@link findSource}). Never runs code.
 */
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { jsonNesting } from '../../shared/json.js';

/** Deepest tsconfig or source map nesting read: real ones nest a few levels. */
const MAX_JSON_DEPTH = 64;
import { dirname, findSource, joinPath, normalizePath, OUT_DIRS, sourceCandidates } from './scan.js';

/** The compiler options that place output, as project-relative folders. */
export interface OutputLayout {
  /** The tsconfig that sets them (project-relative). */
  tsconfig: string;
  /** Where compiled files go (`packages/a/out`). */
  outDir: string;
  /**
   * Where the sources they mirror live: `rootDir`, else the folders `include`/`files` name
   * (`src` for `["src"]` or `["src/**\/*"]`), else the tsconfig's own folder. TypeScript itself
   * takes the common folder of the input files when `rootDir` is not set; the `include` folders
   * are what that usually is.
   */
  rootDirs: string[];
}

/** How many `extends` links are followed (TypeScript has no limit; real chains have 2-3). */
const MAX_EXTENDS = 8;

interface RawTsconfig {
  extends?: unknown;
  compilerOptions?: { outDir?: unknown; rootDir?: unknown };
  include?: unknown;
  files?: unknown;
}

/**
 * The output layout of one tsconfig, following relative `extends` (a string or, as TypeScript 5
 * allows, a list; package names such as `@tsconfig/node20` are not followed: they live in
 * `node_modules`). Paths in each file resolve against that file's folder, as TypeScript resolves
 * them (https://www.typescriptlang.org/tsconfig/#extends). Undefined when no file of the chain
 * sets `outDir`, or the file does not parse.
 *
 * @param file the tsconfig (project-relative)
 * @param read a listed file's text, `undefined` when it is not there
 */
export function readOutputLayout(file: string, read: (file: string) => string | undefined): OutputLayout | undefined {
  let outDir: string | undefined;
  let rootDir: string | undefined;
  let include: string[] | undefined;
  const seen = new Set<string>();
  const visit = (current: string, depth: number): void => {
    if (seen.has(current) || depth > MAX_EXTENDS) return;
    seen.add(current);
    const text = read(current);
    // A tsconfig nests a few levels: a deeper one is not followed (jsonc-parser recurses per level;
    // 200,000 `[` overflowed the stack, #33 sweep s19).
    if (text === undefined || jsonNesting(text).depth > MAX_JSON_DEPTH) return;
    const errors: ParseError[] = [];
    const raw = parseJsonc(text, errors, { allowTrailingComma: true }) as RawTsconfig | undefined;
    if (!raw || typeof raw !== 'object') return;
    const dir = dirname(current);
    const at = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? joinPath(dir, value) : undefined);
    // The file's own settings win over those it extends: set them first, fill the rest from bases.
    outDir ??= at(raw.compilerOptions?.outDir);
    rootDir ??= at(raw.compilerOptions?.rootDir);
    if (include === undefined) {
      const list = Array.isArray(raw.include) ? raw.include : Array.isArray(raw.files) ? raw.files : undefined;
      if (list) include = list.flatMap((p) => (typeof p === 'string' ? [includeFolder(dir, p)].filter((x): x is string => x !== undefined) : []));
    }
    const bases = Array.isArray(raw.extends) ? raw.extends : [raw.extends];
    // Later entries of an `extends` list override earlier ones: visit them first.
    for (const base of [...bases].reverse()) {
      if (typeof base !== 'string' || !(base.startsWith('./') || base.startsWith('../'))) continue;
      const target = joinPath(dir, base);
      if (target !== undefined) visit(target.endsWith('.json') ? target : `${target}.json`, depth + 1);
    }
  };
  visit(file, 0);
  if (outDir === undefined) return undefined;
  const rootDirs = rootDir !== undefined ? [rootDir] : [...new Set([...(include ?? []), dirname(file)])];
  return { tsconfig: file, outDir, rootDirs };
}

/** The folder an `include` entry starts at (`src/**\/*` → `src`, `./lib` → `lib`, `index.ts` → the tsconfig's folder). */
function includeFolder(dir: string, pattern: string): string | undefined {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?[{]/.test(part)) break;
    fixed.push(part);
  }
  // A file name (`index.ts`) names its folder.
  if (fixed.length === parts.length && /\.[cm]?[jt]sx?$/.test(fixed.at(-1) ?? '')) fixed.pop();
  const joined = joinPath(dir, fixed.join('/') || '.');
  return joined;
}

/**
 * A mapper from a compiled file (`out/cli.js`, `packages/a/lib/bin.cjs`) to its TypeScript source
 * among `tsFiles`, trying in order:
 *
 * 1. the file's source map, when listed (`out/cli.js.map`): its `sources` entries, resolved
 *    against the map's folder and `sourceRoot` (https://tc39.es/ecma426/#sec-source-map-format);
 * 2. each tsconfig's `outDir` → `rootDir` (see {@link readOutputLayout}), nearest tsconfig first:
 *    `out/commands/x.js` with `outDir: "out"`, `rootDir: "lib"` → `lib/commands/x.ts`;
 * 3. {@link findSource}: the same-named source file beside it and the conventional layouts;
 * 4. for a file under an out dir, the one source file of the same name in the package's `src/`,
 *    `source/` or `lib/` (a bundler's entry output: `dist/esm/app.js` from `src/app.mts`).
 *
 * @param tsFiles the TypeScript sources of the run
 * @param listed files known to exist (tsconfig files and source maps among them)
 * @param read a listed file's text
 */
export function compiledSourceMapper(
  tsFiles: ReadonlySet<string>,
  listed: ReadonlySet<string>,
  read: (file: string) => string | undefined,
): CompiledSourceMapper {
  const layouts: OutputLayout[] = [];
  const tsconfigs = [...listed].filter((f) => /(?:^|\/)tsconfig[\w.-]*\.json$/.test(f)).sort((a, b) => b.split('/').length - a.split('/').length || a.localeCompare(b));
  const readListed = (f: string): string | undefined => (listed.has(f) ? read(f) : undefined);
  for (const file of tsconfigs) {
    const layout = readOutputLayout(file, readListed);
    if (layout) layouts.push(layout);
  }
  const declared = (compiled: string): string | undefined => {
    const fromMap = sourceMapSource(compiled, tsFiles, listed, read);
    if (fromMap !== undefined) return fromMap;
    for (const layout of layouts) {
      const prefix = layout.outDir === '' ? '' : `${layout.outDir}/`;
      if (!compiled.startsWith(prefix)) continue;
      const rest = compiled.slice(prefix.length);
      for (const root of layout.rootDirs) {
        const target = root === '' ? rest : `${root}/${rest}`;
        for (const c of sourceCandidates(target)) if (c !== target && tsFiles.has(c)) return c;
      }
    }
    return undefined;
  };
  // Source files by stem (`app` for `src/app.mts`), for bundler output that flattens folders.
  const byStem = new Map<string, string[]>();
  for (const file of tsFiles) {
    if (/\.d\.[cm]?ts$/.test(file) || /\.(?:test|spec)\.[cm]?tsx?$/.test(file)) continue;
    const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.[cm]?tsx?$/, '');
    const list = byStem.get(stem);
    if (list) list.push(file);
    else byStem.set(stem, [file]);
  }
  const outDirs = new Set([...OUT_DIRS, ...layouts.map((l) => l.outDir.split('/').pop()!)]);
  /**
   * A bundler's output (`dist/esm/app.js` from `src/app.mts`, tsdown/tsup/esbuild entries keep the
   * entry's name, not its folder): the one source file of that name in the package's source
   * folder (`src/`, `source/`, `lib/`), the shallowest when several.
   */
  const sameNamed = (compiled: string): string | undefined => {
    const parts = compiled.split('/');
    const out = parts.findIndex((p, i) => i < parts.length - 1 && outDirs.has(p));
    if (out < 0) return undefined;
    const pkg = parts.slice(0, out).join('/');
    const stem = parts.at(-1)!.replace(/\.[cm]?jsx?$/, '');
    const inPackage = (byStem.get(stem) ?? []).filter((f) => {
      const rel = pkg === '' ? f : f.startsWith(`${pkg}/`) ? f.slice(pkg.length + 1) : undefined;
      return rel !== undefined && /^(?:src|source|lib)\//.test(rel);
    });
    if (inPackage.length === 0) return undefined;
    const depth = (f: string): number => f.split('/').length;
    const shallowest = Math.min(...inPackage.map(depth));
    const best = inPackage.filter((f) => depth(f) === shallowest);
    return best.length === 1 ? best[0] : undefined;
  };
  return { declared, source: (compiled) => declared(compiled) ?? findSource(compiled, tsFiles) ?? sameNamed(compiled) };
}

/** What {@link compiledSourceMapper} returns. */
export interface CompiledSourceMapper {
  /** The source a source map or a tsconfig layout names for a compiled file; undefined when neither does. */
  declared: (compiled: string) => string | undefined;
  /** {@link declared}, else the conventional layouts ({@link findSource}), else a same-named source in the package's source folder. */
  source: (compiled: string) => string | undefined;
}

/** The TypeScript source a listed source map names for `compiled` (its first `sources` entry that is a run source). */
function sourceMapSource(compiled: string, tsFiles: ReadonlySet<string>, listed: ReadonlySet<string>, read: (file: string) => string | undefined): string | undefined {
  const candidates = [`${compiled}.map`, ...(/\.[cm]?js$/.test(compiled) ? [] : [`${compiled}.js.map`])];
  for (const mapFile of candidates) {
    if (!listed.has(mapFile)) continue;
    const text = read(mapFile);
    if (text === undefined || jsonNesting(text).depth > MAX_JSON_DEPTH) continue;
    let map: { sources?: unknown; sourceRoot?: unknown };
    try {
      map = JSON.parse(text) as typeof map;
    } catch {
      continue;
    }
    if (!Array.isArray(map.sources)) continue;
    const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
    for (const source of map.sources) {
      if (typeof source !== 'string' || /^[a-z]+:/i.test(source) || source.startsWith('/')) continue;
      const resolved = normalizePath(`${dirname(mapFile)}/${root === '' ? '' : `${root}/`}${source}`);
      if (resolved !== undefined && tsFiles.has(resolved)) return resolved;
    }
  }
  return undefined;
}
