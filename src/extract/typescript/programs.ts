/** Finds the program each package.json `bin` runs, across workspace packages: TypeScript source behind compiled output, through extensionless shims, or plain JavaScript. */
import { readBins, type BinEntry } from './bin.js';
import { commandDirFolders } from './command-dirs.js';
import { compiledSourceMapper, type CompiledSourceMapper } from './compiled.js';
import { dirname, joinPath, OUT_DIRS } from './scan.js';

/** A `bin` of some package.json with the source file that holds its program. */
export interface BinProgram extends BinEntry {
  /** The package.json that declares it (project-relative). */
  packageJson: string;
  /** The source file the program starts in (TypeScript behind compiled output, else the JavaScript itself); absent when none is found. */
  source?: string;
}

/** What {@link findBinPrograms} found. */
export interface BinPrograms {
  bins: BinProgram[];
  /** JavaScript files the bins' programs consist of (the entry file and the JavaScript it imports), read for extraction. */
  javascript: Array<{ file: string; text: string }>;
  /** Relative-import graph over the TypeScript sources and {@link javascript}: file → files it imports, in order. */
  imports: Map<string, string[]>;
}

/** How many JavaScript files one run reads at most for bins' programs (c8 has ~20; a bundled CLI is one). */
const MAX_JS_FILES = 400;
/** A shim is a short file: it only requires the compiled program. */
const MAX_SHIM_LINES = 40;

const SPECIFIER = /\bfrom\s*['"]([^'"\n]+)['"]|\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)|^\s*import\s+['"]([^'"\n]+)['"]/gm;

/** Relative module specifiers a file's text names (static and dynamic imports, re-exports, `require`), in order; read with a pattern, never run. */
export function relativeSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const s = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (s !== undefined && (s.startsWith('./') || s.startsWith('../')) && !out.includes(s)) out.push(s);
  }
  return out;
}

/** A JavaScript file `target` may name (`./x` → `x.js`, `x.cjs`, `x.mjs`, `x/index.js`), if listed. */
function javascriptFile(target: string, files: ReadonlySet<string>): string | undefined {
  for (const c of [target, `${target}.js`, `${target}.cjs`, `${target}.mjs`, `${target}/index.js`, `${target}/index.cjs`]) if (files.has(c)) return c;
  return undefined;
}

/**
 * The program of every `bin` of every package.json (workspace packages included; paths in a
 * package resolve against its directory), never running code:
 *
 * 0. When a source map beside the declared file (`cli.js.map`) or a tsconfig's `outDir`/`rootDir`
 *    names its source (see `compiledSourceMapper`), that source.
 * 1. When the declared file exists outside an out dir (`bin/tool`, `bin/cli.js`, not
 *    `dist/cli.js`) and is short (≤ 40 lines), its
 *    first relative `require`/`import` that maps to a TypeScript source: it is a shim for that
 *    source (`require('../dist/index')` → `index.ts` or `src/index.ts`). What the shim loads
 *    beats a guess from the bin's own name.
 * 2. Else the declared file's TypeScript source, when compiled output maps back to one by the
 *    usual layouts (`dist/x.js` → `src/x.ts`, `cli.js` → `cli.ts`, see `sourceCandidates`).
 * 3. Else, when the declared file exists, the file itself is a JavaScript program, and it and
 *    the JavaScript it imports (relative specifiers, and the modules of folders a yargs
 *    `.commandDir()` names; ≤ 400 files) are read.
 *
 * @param packageJsons every package.json to read `bin` from (what cannot be read, `extractTypeScript` reports)
 * @param tsFiles the TypeScript sources of the run
 * @param programFiles JavaScript and `bin/` files that exist (discovery's `programs`)
 * @param read reads a listed file's text
 */
export function findBinPrograms(
  packageJsons: ReadonlyArray<{ file: string; text: string }>,
  tsFiles: ReadonlyArray<{ file: string; text: string }>,
  programFiles: ReadonlySet<string>,
  read: (file: string) => string | undefined,
): BinPrograms {
  // A declaration file (`parse/index.d.ts` beside `parse/index.js`) runs nothing: it is never a
  // program's source, and the JavaScript beside it is read as such.
  const tsSet = new Set(tsFiles.map((s) => s.file).filter((f) => !f.endsWith('.d.ts')));
  const mapper = compiledSourceMapper(tsSet, programFiles, read);
  const bins: BinProgram[] = [];
  const javascript = new Map<string, string>();
  const queue: string[] = [];
  const readJs = (file: string): string | undefined => {
    if (javascript.has(file)) return javascript.get(file);
    if (javascript.size >= MAX_JS_FILES) return undefined;
    const text = read(file);
    if (text !== undefined) {
      javascript.set(file, text);
      queue.push(file);
    }
    return text;
  };
  for (const pkg of packageJsons) {
    for (const bin of readBins(pkg)) {
      const program: BinProgram = { ...bin, packageJson: pkg.file };
      bins.push(program);
      // A declared file that exists says what it loads: its shim target beats the name guess
      // (`bin/stryker.js` importing `../dist/src/index.js` runs `src/index.ts`, not `src/stryker.ts`).
      // Compiled output itself (`dist/cli.js` committed) is not a shim of what it imports.
      // Compiled output a source map or a tsconfig `outDir` names is mapped by what they say
      // (`out/cli.js` with `outDir: "out"`, `rootDir: "lib"` runs `lib/cli.ts`).
      const declared = mapper.declared(bin.path);
      if (declared !== undefined) {
        program.source = declared;
        continue;
      }
      const compiled = bin.path.split('/').some((part) => OUT_DIRS.has(part));
      const text = programFiles.has(bin.path) ? (javascript.get(bin.path) ?? read(bin.path)) : undefined;
      const shimTarget = text !== undefined && !compiled && text.split('\n').length <= MAX_SHIM_LINES ? shimSource(bin.path, text, mapper) : undefined;
      if (shimTarget !== undefined) {
        program.source = shimTarget;
        continue;
      }
      const ts = mapper.source(bin.path);
      if (ts !== undefined) {
        program.source = ts;
        continue;
      }
      if (text === undefined) continue;
      program.source = bin.path;
      if (!javascript.has(bin.path)) {
        javascript.set(bin.path, text);
        queue.push(bin.path);
      }
    }
  }
  // The JavaScript the programs import (a TypeScript source wins over compiled output).
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const specifier of relativeSpecifiers(javascript.get(file) ?? '')) {
      const target = joinPath(dirname(file), specifier);
      if (target === undefined || mapper.source(target) !== undefined) continue;
      const js = javascriptFile(target, programFiles);
      if (js !== undefined) readJs(js);
    }
    // yargs `.commandDir('cmds')` loads every module of a folder that nothing imports.
    for (const dir of commandDirFolders(file, javascript.get(file) ?? '')) {
      for (const js of [...programFiles].filter((f) => f.startsWith(`${dir}/`) && /\.[cm]?js$/.test(f)).sort()) {
        if (mapper.source(js) === undefined) readJs(js);
      }
    }
  }
  const all = new Set([...tsSet, ...javascript.keys()]);
  const imports = new Map<string, string[]>();
  const texts = [...tsFiles, ...[...javascript].map(([file, text]) => ({ file, text }))];
  for (const { file, text } of texts) {
    const targets: string[] = [];
    for (const specifier of relativeSpecifiers(text)) {
      const target = joinPath(dirname(file), specifier);
      const found = target === undefined ? undefined : (mapper.source(target) ?? javascriptFile(target, all));
      if (found !== undefined && !targets.includes(found)) targets.push(found);
    }
    imports.set(file, targets);
  }
  return { bins, javascript: [...javascript].map(([file, text]) => ({ file, text })), imports };
}

/** The TypeScript source a shim file loads (`require('../dist/index')`), when one of its relative specifiers maps to one. */
function shimSource(file: string, text: string, mapper: CompiledSourceMapper): string | undefined {
  for (const specifier of relativeSpecifiers(text)) {
    const target = joinPath(dirname(file), specifier);
    const found = target === undefined ? undefined : mapper.source(target);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Files reachable from `start` through `imports`, with their distance (0 for `start`), at most
 * `maxDepth` hops, nearest first.
 */
export function reachable(imports: ReadonlyMap<string, readonly string[]>, start: string, maxDepth: number): Map<string, number> {
  const out = new Map<string, number>([[start, 0]]);
  let level = [start];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      for (const target of imports.get(file) ?? []) {
        if (out.has(target)) continue;
        out.set(target, depth);
        next.push(target);
      }
    }
    level = next;
  }
  return out;
}
