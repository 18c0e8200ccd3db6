/**
 * What kind of file a package.json `bin` runs, told by its content rather than its name, and the
 * JavaScript a shell-script bin or a build script leads to. Read with patterns, never run.
 */
import { dirname, joinPath } from './scan.js';

/** How a bin's file is read. */
export type BinFileKind =
  /** JavaScript or TypeScript: a `node`/`deno`/`bun`/`ts-node`/`tsx` shebang, a `.js`-like name, or no shebang and no other sign. */
  | { kind: 'javascript' }
  /** A shell script (`.sh`, `.bash`, or a `sh`/`bash`/`zsh`/`dash`/`ksh` shebang). */
  | { kind: 'shell'; interpreter: string }
  /** Another interpreter's script (`#!/usr/bin/env python3`). */
  | { kind: 'other'; interpreter: string };

/** Interpreters that run JavaScript or TypeScript. */
const JS_INTERPRETERS = new Set(['node', 'nodejs', 'deno', 'bun', 'ts-node', 'ts-node-esm', 'tsx', 'esno', 'esrun', 'jiti', 'zx']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash']);

/**
 * The interpreter a shebang line names: the program's base name, or the first non-option word
 * after `env` (`#!/usr/bin/env -S node --no-warnings` → `node`). Undefined without a shebang.
 */
export function shebangInterpreter(text: string): string | undefined {
  const first = /^\uFEFF?#!([^\n]*)/.exec(text)?.[1];
  if (first === undefined) return undefined;
  const words = first.trim().split(/\s+/).filter((w) => w !== '');
  let i = 0;
  const base = (w: string): string => w.slice(w.lastIndexOf('/') + 1);
  if (words[i] !== undefined && base(words[i]!) === 'env') {
    i++;
    while (words[i]?.startsWith('-') || /^\w+=/.test(words[i] ?? '')) i++;
  }
  return words[i] === undefined ? undefined : base(words[i]!);
}

/**
 * `name` without a trailing version (`python3.11` → `python`), as `name.replace(/\d+(?:\.\d+)*$/, '')`:
 * digits and single dots back from the end, starting and ending at a digit. Scanned back from
 * the end: the pattern tried every digit of a long run (s27 recheck list).
 */
export function withoutVersion(name: string): string {
  const digit = (i: number): boolean => i >= 0 && i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57;
  let start = name.length;
  while (digit(start - 1) || (name[start - 1] === '.' && digit(start) && digit(start - 2))) start--;
  return name.slice(0, start);
}

/**
 * The kind of a bin's file (see {@link BinFileKind}), from its shebang first and its extension
 * next: a `node` shebang makes an extensionless file JavaScript (ezmesure-admin's root
 * `ezmesure-admin`), a `#!/bin/sh` one or a `.sh` name a shell script (rdme's `bin/create.sh`).
 */
export function binFileKind(file: string, text: string): BinFileKind {
  const interpreter = shebangInterpreter(text);
  if (interpreter !== undefined) {
    const name = withoutVersion(interpreter);
    if (JS_INTERPRETERS.has(interpreter) || JS_INTERPRETERS.has(name)) return { kind: 'javascript' };
    if (SHELLS.has(name)) return { kind: 'shell', interpreter };
    return { kind: 'other', interpreter };
  }
  if (/\.(?:sh|bash|zsh)$/.test(file)) return { kind: 'shell', interpreter: 'sh' };
  if (/\.(?:py|rb|pl)$/.test(file)) return { kind: 'other', interpreter: file.slice(file.lastIndexOf('.') + 1) };
  return { kind: 'javascript' };
}

/** What a shell-script bin runs, as far as its text says. */
export interface ShellTarget {
  /** The JavaScript or TypeScript file it runs (project-relative), when the command names one literally. */
  target?: string;
  /** The command line it met (trimmed), for the note when nothing is followed. */
  line?: string;
  /** 1-based line of {@link line}. */
  lineNumber?: number;
}

/** Words that stand for the script's own folder: `$(dirname "$0")`, `` `dirname $0` ``, `${0%/*}`, `$(dirname "$(readlink -f "$0")")` is not (a link's target). */
const SCRIPT_DIR = /^(?:\$\(dirname\s+"?\$0"?\)|`dirname\s+"?\$0"?`|\$\{0%\/\*\}|\$\(dirname\s+"?\$\{BASH_SOURCE(?:\[0\])?\}"?\)|\$\{BASH_SOURCE(?:\[0\])?%\/\*\})/;

/**
 * The program a shell-script bin hands over to: the first line whose command (after `exec`) is a
 * JavaScript interpreter (`node`, `nodejs`, `bun`, `tsx`, `ts-node`, `deno run`) followed by a
 * literal path, its options skipped: `exec node lib/cli.js "$@"`, `node "$(dirname "$0")/../lib/cli.js" "$@"`.
 * A path starting at the script's folder (`$(dirname "$0")`, `${0%/*}`) resolves against the
 * script's folder; a plain relative path against the script's folder, then the package's folder
 * (`exists` decides). A path built from other variables is not followed. Without such a line,
 * the first command line is returned for the note (`npx rdme@next openapi --github`).
 *
 * @param file the script (project-relative)
 * @param packageDir the folder of the package.json declaring it
 * @param exists whether a project-relative path is a file docdrift can read as a program
 */
export function shellTarget(file: string, text: string, packageDir: string, exists: (file: string) => boolean): ShellTarget {
  const lines = text.split('\n');
  let firstCommand: ShellTarget | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#')) continue;
    firstCommand ??= { line, lineNumber: i + 1 };
    const words = shellWords(line);
    let w = 0;
    while (words[w] === 'exec' || /^\w+=/.test(words[w] ?? '')) w++;
    const command = words[w];
    if (command === undefined) continue;
    let name = command.slice(command.lastIndexOf('/') + 1);
    if (name === 'npx' && words[w + 1] !== undefined && JS_INTERPRETERS.has(words[w + 1]!)) name = words[++w]!;
    if (!JS_INTERPRETERS.has(name)) continue;
    w++;
    if (name === 'deno' && words[w] === 'run') w++;
    while (words[w]?.startsWith('-')) w++;
    const path = words[w];
    if (path === undefined) continue;
    const resolved = resolveShellPath(file, path, packageDir, exists);
    if (resolved !== undefined) return { target: resolved, line, lineNumber: i + 1 };
    return { line, lineNumber: i + 1 };
  }
  return firstCommand ?? {};
}

function resolveShellPath(file: string, word: string, packageDir: string, exists: (file: string) => boolean): string | undefined {
  const dir = dirname(file);
  const fromScript = SCRIPT_DIR.exec(word);
  if (fromScript) {
    const rest = word.slice(fromScript[0].length).replace(/^\//, '');
    if (rest.includes('$')) return undefined;
    const target = joinPath(dir, rest);
    return target !== undefined && exists(target) ? target : undefined;
  }
  if (word.includes('$') || word.includes('`') || word.startsWith('/')) return undefined;
  for (const base of [dir, packageDir]) {
    const target = joinPath(base, word);
    if (target !== undefined && exists(target)) return target;
  }
  return undefined;
}

/** A shell line's words, with quotes removed (`"$(dirname "$0")/x.js"` is one word); a rough split, enough for a command's literal arguments. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let depth = 0;
  let backtick = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '$' && line[i + 1] === '(') {
      depth++;
      current += '$(';
      i++;
      continue;
    }
    if (depth > 0 || backtick) {
      if (c === ')' && depth > 0) depth--;
      else if (c === '`' && backtick) backtick = false;
      current += c;
      continue;
    }
    if (c === '`') {
      backtick = true;
      current += c;
      continue;
    }
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else current += c;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === ';' || c === '|' || c === '&') {
      if (current !== '') words.push(current);
      current = '';
      break;
    } else if (/\s/.test(c)) {
      if (current !== '') words.push(current);
      current = '';
    } else current += c;
  }
  if (current !== '') words.push(current);
  return words;
}

/** A bundler or compiler command in a package.json script that says which file it builds from which. */
interface BuildStep {
  /** The entry (project-relative). */
  input: string;
  /** The output file, when named (`--outfile dist/cli.js`). */
  outFile?: string;
  /** The output folder, when named (`-o dist/ncc`, `--outdir dist`). */
  outDir?: string;
}

const BUILD_TOOLS = new Set(['ncc', 'esbuild', 'tsup', 'tsdown', 'rollup', 'bun', 'unbuild', 'pkgroll', 'microbundle', 'webpack', 'parcel', 'vite', 'swc', 'babel']);
const OUT_FILE_OPTIONS = new Set(['--outfile', '--out-file', '--file', '-o']);
const OUT_DIR_OPTIONS = new Set(['--outdir', '--out-dir', '-d', '--dist-dir', '--output-path']);

/**
 * The build steps a package.json's `scripts` declare: for each command of a known bundler
 * (`ncc build src/cli.js -o dist/ncc`, `esbuild src/cli.ts --bundle --outfile=dist/cli.js`,
 * `tsup src/cli.ts --out-dir dist`, `bun build ./src/cli.ts --outfile dist/cli.js`,
 * `rollup -i src/cli.js -o dist/cli.js`), its entries (words naming a JavaScript/TypeScript file)
 * and its output file or folder. `-o` is a folder for ncc and a file for the others.
 *
 * @param packageJson the package.json's path and text (unparseable JSON gives none)
 */
export function buildSteps(packageJson: { file: string; text: string }): BuildStep[] {
  let scripts: unknown;
  try {
    scripts = (JSON.parse(packageJson.text.replace(/^\uFEFF/, '')) as { scripts?: unknown }).scripts;
  } catch {
    return [];
  }
  if (!scripts || typeof scripts !== 'object') return [];
  const dir = dirname(packageJson.file);
  const at = (p: string): string | undefined => joinPath(dir, p.replace(/^\.\//, ''));
  const steps: BuildStep[] = [];
  for (const script of Object.values(scripts as Record<string, unknown>)) {
    if (typeof script !== 'string') continue;
    for (const command of script.split(/&&|\|\||;/)) {
      const words = shellWords(command.trim());
      let w = 0;
      while (words[w] === 'npx' || words[w] === 'pnpm' || words[w] === 'yarn' || words[w] === 'exec' || words[w] === 'bunx' || /^\w+=/.test(words[w] ?? '')) w++;
      const tool = words[w];
      if (tool === undefined || !BUILD_TOOLS.has(tool.slice(tool.lastIndexOf('/') + 1))) continue;
      const name = tool.slice(tool.lastIndexOf('/') + 1);
      const inputs: string[] = [];
      let outFile: string | undefined;
      let outDir: string | undefined;
      for (let i = w + 1; i < words.length; i++) {
        const word = words[i]!;
        const eq = word.indexOf('=');
        const [option, inline] = word.startsWith('-') && eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, undefined];
        const value = (): string | undefined => inline ?? words[++i];
        if (option === '-o' && name === 'ncc') outDir = value();
        else if (OUT_FILE_OPTIONS.has(option)) outFile = value();
        else if (OUT_DIR_OPTIONS.has(option)) outDir = value();
        else if ((option === '-i' || option === '--input' || option === '--entry') && inline === undefined) {
          const v = words[++i];
          if (v !== undefined) inputs.push(v);
        } else if (!word.startsWith('-') && /\.[cm]?[jt]sx?$/.test(word)) inputs.push(inline ?? word);
      }
      for (const input of inputs) {
        const resolved = at(input);
        if (resolved === undefined) continue;
        const step: BuildStep = { input: resolved };
        const file = outFile === undefined ? undefined : at(outFile);
        const folder = outDir === undefined ? undefined : at(outDir);
        if (file !== undefined) step.outFile = file;
        if (folder !== undefined) step.outDir = folder;
        if (step.outFile !== undefined || step.outDir !== undefined) steps.push(step);
      }
    }
  }
  return steps;
}

/**
 * The entry a build step of `packageJson` builds `compiled` from: a step whose output file is
 * `compiled`, or whose output folder holds it under the entry's own name (`dist/cli.js` from
 * `src/cli.ts`) or as `index.js` (ncc's single output). Undefined when no step says so.
 */
export function builtFrom(compiled: string, steps: readonly BuildStep[]): string | undefined {
  const stem = (f: string): string => f.slice(f.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]sx?$/, '');
  for (const step of steps) {
    if (step.outFile !== undefined && step.outFile === compiled) return step.input;
    if (step.outDir !== undefined && dirname(compiled) === step.outDir) {
      const name = stem(compiled);
      if (name === stem(step.input) || name === 'index') return step.input;
    }
  }
  return undefined;
}
