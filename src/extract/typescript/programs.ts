/** Finds the program each package.json `bin` runs, across workspace packages: TypeScript source behind compiled output, through extensionless shims, or plain JavaScript. */
import { readBins, type BinEntry } from './bin.js';
import { binFileKind, builtFrom, buildSteps, shellTarget } from './bin-files.js';
import { commandDirFolders } from './command-dirs.js';
import { compiledSourceMapper, type CompiledSourceMapper } from './compiled.js';
import { dirname, joinPath, OUT_DIRS } from './scan.js';
import { pushUnique } from '../../shared/arrays.js';
import { MAX_JS_FILE_BYTES } from './budget.js';

/** A `bin` of some package.json with the source file that holds its program. */
export interface BinProgram extends BinEntry {
  /** The package.json that declares it (project-relative). */
  packageJson: string;
  /** The source file the program starts in (TypeScript behind compiled output, else the JavaScript itself); absent when none is found. */
  source?: string;
  /**
   * Set when the bin's file is not JavaScript (a shell script whose command runs no literal
   * JavaScript file, another interpreter's script): the file, its interpreter and, for a shell
   * script, the first command line it met. Nothing of it is parsed.
   */
  unread?: { file: string; interpreter: string; line?: number; construct?: string };
}

/** A JavaScript file of a bin's program not read for its size ({@link MAX_JS_FILE_BYTES}, {@link MAX_JS_TOTAL_BYTES}). */
export interface TooLargeProgramFile {
  /** Project-relative path. */
  file: string;
  /** Why, as a clause: "it is 4,761 KB, over the 1,024 KB limit for one JavaScript program file". */
  reason: string;
}

/** What {@link findBinPrograms} found. */
export interface BinPrograms {
  bins: BinProgram[];
  /** JavaScript files the bins' programs consist of (the entry file and the JavaScript it imports), read for extraction. */
  javascript: Array<{ file: string; text: string }>;
  /** Relative-import graph over the TypeScript sources, {@link javascript} and {@link tooLarge}: file → files it imports, in order. */
  imports: Map<string, string[]>;
  /** JavaScript files a program runs or imports that were not read for their size, in the order met. */
  tooLarge: TooLargeProgramFile[];
}

/** Largest JavaScript program file parsed, in bytes (defined with the run's other TypeScript budgets). */
export { MAX_JS_FILE_BYTES };

/**
 * Most JavaScript program text parsed in one run, in bytes: 4 MiB (40 packages with a 120 KB
 * bin/cli.js each took 570 MB, s28 sweep2 D4). The largest total of the corpus's real projects is
 * 358 KB (mocha's 58 files). Between this and what fits the worker's heap, the heap limit ends the
 * worker (one warning, flags unknown).
 */
export const MAX_JS_TOTAL_BYTES = 4 * 1024 * 1024;

/** How many JavaScript files one run reads at most for bins' programs (c8 has ~20; a bundled CLI is one). */
const MAX_JS_FILES = 400;
/** A shim is a short file: it only requires the compiled program. */
const MAX_SHIM_LINES = 40;

const SPECIFIER = /\bfrom\s*['"]([^'"\n]+)['"]|\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)|^[ \t]*import\s+['"]([^'"\n]+)['"]/gm;

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
 * @param size a listed file's size in bytes (its `stat`), `undefined` when unknown: a JavaScript
 *   program file larger than {@link MAX_JS_FILE_BYTES} is refused on it, never read (a 57 MB
 *   bin/cli.js was read, then split into 12 million lines, and took the worker to its heap limit:
 *   19.6 s, 771 MB; #33 F11). Without it, files are refused after reading, on their text's size.
 */
export function findBinPrograms(
  packageJsons: ReadonlyArray<{ file: string; text: string }>,
  tsFiles: ReadonlyArray<{ file: string; text: string }>,
  programFiles: ReadonlySet<string>,
  read: (file: string) => string | undefined,
  size?: (file: string) => number | undefined,
): BinPrograms {
  // A declaration file (`parse/index.d.ts` beside `parse/index.js`) runs nothing: it is never a
  // program's source, and the JavaScript beside it is read as such.
  const tsSet = new Set(tsFiles.map((s) => s.file).filter((f) => !f.endsWith('.d.ts')));
  const mapper = compiledSourceMapper(tsSet, programFiles, read);
  const bins: BinProgram[] = [];
  const javascript = new Map<string, string>();
  const queue: string[] = [];
  // Files past the size caps are kept out before anything parses them (s28 sweep2 D4).
  const tooLarge = new Map<string, string>();
  let totalBytes = 0;
  const kb = (n: number): string => `${Math.ceil(n / 1024).toLocaleString('en-US')} KB`;
  const overFileCap = (bytes: number): string => `it is ${kb(bytes)}, over the ${kb(MAX_JS_FILE_BYTES)} limit for one JavaScript program file`;
  // A file whose size (stat) is over the cap is refused before it is read (#33 F11): true then.
  const refusedBySize = (file: string): boolean => {
    if (javascript.has(file)) return false;
    const bytes = size?.(file);
    if (bytes === undefined || bytes <= MAX_JS_FILE_BYTES) return false;
    tooLarge.set(file, overFileCap(bytes));
    return true;
  };
  const admit = (file: string, text: string): boolean => {
    if (tooLarge.has(file)) return false;
    const bytes = Buffer.byteLength(text);
    let reason: string | undefined;
    if (bytes > MAX_JS_FILE_BYTES) reason = overFileCap(bytes);
    else if (totalBytes + bytes > MAX_JS_TOTAL_BYTES) reason = `it is ${kb(bytes)}, and with it the JavaScript programs of this run would pass the ${kb(MAX_JS_TOTAL_BYTES)} limit for all of them`;
    if (reason !== undefined) {
      tooLarge.set(file, reason);
      return false;
    }
    totalBytes += bytes;
    return true;
  };
  const readJs = (file: string): string | undefined => {
    if (javascript.has(file)) return javascript.get(file);
    if (javascript.size >= MAX_JS_FILES || tooLarge.has(file) || refusedBySize(file)) return undefined;
    const text = read(file);
    if (text !== undefined && admit(file, text)) {
      javascript.set(file, text);
      queue.push(file);
      return text;
    }
    return undefined;
  };
  const addJs = (file: string, text: string): void => {
    if (!javascript.has(file) && admit(file, text)) {
      javascript.set(file, text);
      queue.push(file);
    }
  };
  // JavaScript sources by stem, outside out dirs, for bundled output built from JavaScript
  // (`dist/ncc/cli.js` from `src/cli.js`).
  const jsByStem = new Map<string, string[]>();
  for (const file of programFiles) {
    if (!/\.[cm]?js$/.test(file) || file.split('/').some((part) => OUT_DIRS.has(part))) continue;
    const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.[cm]?js$/, '');
    const list = jsByStem.get(stem);
    if (list) list.push(file);
    else jsByStem.set(stem, [file]);
  }
  for (const pkg of packageJsons) {
    const steps = buildSteps(pkg);
    for (const bin of readBins(pkg)) {
      const program: BinProgram = { ...bin, packageJson: pkg.file };
      bins.push(program);
      resolveProgram(program, bin.path, dirname(pkg.file), steps, 0);
    }
  }

  /**
   * Sets `program.source` (or `program.unread`) for the file `path` it runs; a shell script's
   * JavaScript target is resolved the same way (`depth` 1).
   */
  function resolveProgram(program: BinProgram, path: string, packageDir: string, steps: ReturnType<typeof buildSteps>, depth: number): void {
    // A declared file that exists says what it loads: its shim target beats the name guess
    // (`bin/stryker.js` importing `../dist/src/index.js` runs `src/index.ts`, not `src/stryker.ts`).
    // Compiled output itself (`dist/cli.js` committed) is not a shim of what it imports.
    // Compiled output a source map or a tsconfig `outDir` names is mapped by what they say
    // (`out/cli.js` with `outDir: "out"`, `rootDir: "lib"` runs `lib/cli.ts`), and so is output
    // a package.json build script names (`esbuild src/cli.ts --outfile=dist/cli.js`).
    const declared = mapper.declared(path);
    if (declared !== undefined) {
      program.source = declared;
      return;
    }
    const built = builtFrom(path, steps);
    if (built !== undefined && (tsSet.has(built) || programFiles.has(built))) {
      program.source = mapper.source(built) ?? built;
      if (!tsSet.has(program.source) && !refusedBySize(program.source)) {
        const text = read(program.source);
        if (text !== undefined) addJs(program.source, text);
      }
      return;
    }
    const compiled = path.split('/').some((part) => OUT_DIRS.has(part));
    // A file over the cap is not read, so not told apart by its content (a shim, a shell script):
    // its TypeScript source when the usual layouts name one, else it is the program, unread.
    if (programFiles.has(path) && !javascript.has(path) && (size?.(path) ?? 0) > MAX_JS_FILE_BYTES) {
      const ts = mapper.source(path);
      if (ts === undefined) refusedBySize(path);
      program.source = ts ?? path;
      return;
    }
    const text = programFiles.has(path) ? (javascript.get(path) ?? read(path)) : undefined;
    // What the file is, by its content: a `node` shebang makes an extensionless file a program,
    // a shell script is followed to the JavaScript it runs or noted.
    const kind = text === undefined ? undefined : binFileKind(path, text);
    if (text !== undefined && kind !== undefined && kind.kind !== 'javascript') {
      if (kind.kind === 'shell' && depth === 0) {
        const exists = (f: string): boolean => programFiles.has(f) || tsSet.has(f) || mapper.source(f) !== undefined;
        const followed = shellTarget(path, text, packageDir, exists);
        if (followed.target !== undefined) {
          resolveProgram(program, followed.target, packageDir, steps, depth + 1);
          if (program.source !== undefined) return;
        }
        program.unread = { file: path, interpreter: kind.interpreter, ...(followed.line !== undefined ? { line: followed.lineNumber ?? 1, construct: followed.line.slice(0, 120) } : {}) };
        return;
      }
      program.unread = { file: path, interpreter: kind.interpreter };
      return;
    }
    const shimTarget = text !== undefined && !compiled && text.split('\n').length <= MAX_SHIM_LINES ? shimSource(path, text, mapper) : undefined;
    if (shimTarget !== undefined) {
      program.source = shimTarget;
      return;
    }
    const ts = mapper.source(path);
    if (ts !== undefined) {
      program.source = ts;
      return;
    }
    if (text === undefined) {
      // Bundled output not in the project (`dist/ncc/cli.js`, built from `src/cli.js`): the one
      // JavaScript file of that name in the package's source folder.
      const js = compiled ? sameNamedJavaScript(path, jsByStem) : undefined;
      if (js !== undefined && refusedBySize(js)) {
        program.source = js;
        return;
      }
      const jsText = js === undefined ? undefined : read(js);
      if (js !== undefined && jsText !== undefined) {
        program.source = js;
        addJs(js, jsText);
      }
      return;
    }
    program.source = path;
    addJs(path, text);
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
  // Files not read for their size stay in the graph: a program reaching one has unknown flags.
  const all = new Set([...tsSet, ...javascript.keys(), ...tooLarge.keys()]);
  const imports = new Map<string, string[]>();
  const texts = [...tsFiles, ...[...javascript].map(([file, text]) => ({ file, text }))];
  for (const { file, text } of texts) {
    const targets: string[] = [];
    for (const specifier of relativeSpecifiers(text)) {
      const target = joinPath(dirname(file), specifier);
      const found = target === undefined ? undefined : (mapper.source(target) ?? javascriptFile(target, all));
      if (found !== undefined) pushUnique(targets, found);
    }
    imports.set(file, targets);
  }
  return { bins, javascript: [...javascript].map(([file, text]) => ({ file, text })), imports, tooLarge: [...tooLarge].map(([file, reason]) => ({ file, reason })) };
}

/**
 * The one JavaScript file named like bundled output (`dist/ncc/cli.js` → `cli`) in its package's
 * source folder (`src/`, `source/`, `lib/` not being output there), the shallowest; undefined
 * when none or several tie.
 */
function sameNamedJavaScript(compiled: string, byStem: ReadonlyMap<string, string[]>): string | undefined {
  const parts = compiled.split('/');
  const out = parts.findIndex((p, i) => i < parts.length - 1 && OUT_DIRS.has(p));
  if (out < 0) return undefined;
  const pkg = parts.slice(0, out).join('/');
  const stem = parts.at(-1)!.replace(/\.[cm]?jsx?$/, '');
  const inPackage = (byStem.get(stem) ?? []).filter((f) => {
    const rel = pkg === '' ? f : f.startsWith(`${pkg}/`) ? f.slice(pkg.length + 1) : undefined;
    return rel !== undefined && /^(?:src|source)\//.test(rel);
  });
  if (inPackage.length === 0) return undefined;
  const depth = (f: string): number => f.split('/').length;
  const shallowest = Math.min(...inPackage.map(depth));
  const best = inPackage.filter((f) => depth(f) === shallowest);
  return best.length === 1 ? best[0] : undefined;
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
