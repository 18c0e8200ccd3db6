/**
 * CLI libraries by import: which library a program's files import to build their command line,
 * and the first construct that uses it (`docopt(__doc__)`, `vorpal.command(…)`), read from the
 * text with patterns, never run. Used to say honestly why a command's parameters are unknown: the
 * entry reaches a CLI library, and no command or flag was read from it (a library docdrift has
 * no reader for, or a form its reader does not cover). A library that gets a reader needs no
 * change here: its programs then have commands, and the note is only about those without.
 */

/** One use of a CLI library in a file. */
export interface CliLibraryUse {
  /** The library as users know it (`docopt`, `python-fire`, `vorpal`, `@oclif/core`). */
  library: string;
  /** Project-relative file. */
  file: string;
  /** 1-based line of {@link construct}. */
  line: number;
  /** The source line that first uses an imported name (trimmed, at most 80 characters), else the import itself. */
  construct: string;
}

/** A CLI library: its name and how code imports it. */
interface CliLibrary {
  library: string;
  /** Python top-level modules (`docopt`, `fire`); a dotted entry matches that module and below (`plumbum.cli`). */
  python?: readonly string[];
  /** npm package names; a specifier matches the package and its subpaths (`@oclif/core/flags`). */
  npm?: readonly string[];
}

/**
 * Libraries that build command lines, read or not by docdrift's extractors (listing one that is
 * read costs nothing: its programs have commands, and only programs without any get the note).
 * Sources: each library's documentation (import names: `begins` imports as `begin`,
 * typed-argument-parser as `tap`, google/python-fire as `fire`).
 */
export const CLI_LIBRARIES: readonly CliLibrary[] = [
  // Python
  { library: 'argparse', python: ['argparse'] },
  { library: 'click', python: ['click', 'rich_click', 'cloup', 'asyncclick'] },
  { library: 'typer', python: ['typer'] },
  { library: 'cyclopts', python: ['cyclopts'] },
  { library: 'jsonargparse', python: ['jsonargparse'] },
  { library: 'docopt', python: ['docopt'] },
  { library: 'python-fire', python: ['fire'] },
  { library: 'plumbum', python: ['plumbum.cli'] },
  { library: 'cleo', python: ['cleo'] },
  { library: 'cement', python: ['cement'] },
  { library: 'clize', python: ['clize'] },
  { library: 'begins', python: ['begin'] },
  { library: 'argh', python: ['argh'] },
  { library: 'defopt', python: ['defopt'] },
  { library: 'simple-parsing', python: ['simple_parsing'] },
  { library: 'typed-argument-parser', python: ['tap'] },
  { library: 'tyro', python: ['tyro'] },
  { library: 'hydra', python: ['hydra'] },
  { library: 'invoke', python: ['invoke'] },
  { library: 'cliff', python: ['cliff'] },
  { library: 'absl flags', python: ['absl.flags', 'absl.app'] },
  { library: 'getopt', python: ['getopt'] },
  { library: 'optparse', python: ['optparse'] },
  // JavaScript / TypeScript
  { library: 'commander', npm: ['commander', '@commander-js/extra-typings'] },
  { library: 'yargs', npm: ['yargs', 'yargs-parser'] },
  { library: 'vorpal', npm: ['vorpal'] },
  { library: 'caporal', npm: ['caporal', '@caporal/core'] },
  { library: 'gluegun', npm: ['gluegun'] },
  { library: 'oclif', npm: ['@oclif/core', '@oclif/command', '@oclif/config'] },
  { library: 'cac', npm: ['cac'] },
  { library: 'meow', npm: ['meow'] },
  { library: 'sade', npm: ['sade'] },
  { library: 'citty', npm: ['citty'] },
  { library: 'clipanion', npm: ['clipanion'] },
  { library: 'arg', npm: ['arg'] },
  { library: 'mri', npm: ['mri'] },
  { library: 'minimist', npm: ['minimist'] },
  { library: '@effect/cli', npm: ['@effect/cli'] },
  { library: 'cmd-ts', npm: ['cmd-ts'] },
  { library: 'cleye', npm: ['cleye'] },
  { library: 'clerc', npm: ['clerc'] },
  { library: '@stricli/core', npm: ['@stricli/core'] },
  { library: 'nopt', npm: ['nopt'] },
  { library: 'command-line-args', npm: ['command-line-args'] },
  { library: 'optionator', npm: ['optionator'] },
  { library: 'getopts', npm: ['getopts'] },
  { library: 'dashdash', npm: ['dashdash'] },
  { library: 'neodoc', npm: ['neodoc'] },
  { library: 'docopt', npm: ['docopt'] },
  { library: 'type-flag', npm: ['type-flag'] },
];

const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/;
const PY_FROM = /^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w\s,]+)/;
// The clause starts at a non-blank (`(.*?)` right after `\s+` split a blank run three ways: cubic, s26c sweep D11).
const JS_IMPORT = /^\s*import\s+(?:type\s+)?(\S.*?)\s*from\s*['"]([^'"]+)['"]/;
const JS_REQUIRE = /^\s*(?:const|let|var)\s+(\S.*?)\s*=\s*(?:await\s+import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/;
/** Longest line read as an import statement, in UTF-16 code units (s26c sweep D11). */
const MAX_IMPORT_LINE = 2000;
const JS_BARE = /^\s*import\s*['"]([^'"]+)['"]/;

function pythonLibrary(module: string): CliLibrary | undefined {
  return CLI_LIBRARIES.find((l) => l.python?.some((m) => module === m || module.startsWith(`${m}.`)));
}

function npmLibrary(specifier: string): CliLibrary | undefined {
  return CLI_LIBRARIES.find((l) => l.npm?.some((p) => specifier === p || specifier.startsWith(`${p}/`)));
}

/**
 * The first `{…}` of a clause, as `/\{[^}]*\}/` finds it: the first `{` with a `}` after it (a
 * later `{` has none if the first has none), found by index, not by a pattern that scanned to the
 * end from every `{` (s27 recheck list).
 */
export function firstBraces(clause: string): { open: number; close: number } | undefined {
  const open = clause.indexOf('{');
  const close = open < 0 ? -1 : clause.indexOf('}', open + 1);
  return close < 0 ? undefined : { open, close };
}

/** Names a JavaScript import clause binds (`x`, `{ a, b as c }`, `* as ns`, `x, { y }`). */
function jsBindings(clause: string): string[] {
  const out: string[] = [];
  const braces = firstBraces(clause);
  // The clause is part of one import line, at most MAX_IMPORT_LINE (2,000) characters: the
  // blank-run splits below are quadratic only in that.
  if (braces) for (const part of clause.slice(braces.open + 1, braces.close).split(',')) {
    const name = part.trim().split(/\s+as\s+|\s*:\s*/).at(-1)?.trim();
    if (name && /^[A-Za-z_$][\w$]*$/.test(name)) out.push(name);
  }
  const rest = (braces ? clause.slice(0, braces.open) + clause.slice(braces.close + 1) : clause).replace(/\*\s+as\s+/, '');
  for (const part of rest.split(',')) {
    const name = part.trim();
    if (/^[A-Za-z_$][\w$]*$/.test(name) && name !== 'type') out.push(name);
  }
  return out;
}

/**
 * The CLI libraries one file imports, each with its first use: the first later line (outside
 * comments) that names a name the import binds, else the import line. Python: `import x`,
 * `import x.y as z`, `from x import a, b`; JavaScript/TypeScript: `import … from 'x'`,
 * `import 'x'`, `const … = require('x')` / `await import('x')`. Imports inside functions count:
 * a program often imports its parser where it builds it.
 */
export function cliLibraryUses(file: string, text: string): CliLibraryUse[] {
  const python = file.endsWith('.py');
  const lines = text.split('\n');
  const found = new Map<string, { importLine: number; names: string[] }>();
  lines.forEach((raw, i) => {
    // An import statement is a short line; the patterns below are quadratic in a long blank run.
    if (raw.length > MAX_IMPORT_LINE) return;
    if (python) {
      const from = PY_FROM.exec(raw);
      if (from) {
        // `from plumbum import cli` imports the module `plumbum.cli`: each name may be a module.
        const names = from[2]!.split(',').map((n) => n.trim().split(/\s+/)).filter((n) => /^\w+$/.test(n[0] ?? ''));
        const whole = pythonLibrary(from[1]!);
        if (whole && !found.has(whole.library)) found.set(whole.library, { importLine: i, names: names.map((n) => n.at(-1)!) });
        for (const n of whole ? [] : names) {
          const lib = pythonLibrary(`${from[1]}.${n[0]}`);
          if (lib && !found.has(lib.library)) found.set(lib.library, { importLine: i, names: [n.at(-1)!] });
        }
        return;
      }
      const plain = PY_IMPORT.exec(raw);
      if (plain) {
        for (const part of plain[1]!.split(',')) {
          const [module, alias] = part.trim().split(/\s+as\s+/) as [string, string | undefined];
          const lib = pythonLibrary(module);
          if (lib && !found.has(lib.library)) found.set(lib.library, { importLine: i, names: [alias ?? module] });
        }
      }
      return;
    }
    const m = JS_IMPORT.exec(raw) ?? JS_REQUIRE.exec(raw);
    const bare = m ? undefined : JS_BARE.exec(raw);
    const specifier = m?.[2] ?? bare?.[1];
    const lib = specifier === undefined ? undefined : npmLibrary(specifier);
    if (lib && !found.has(lib.library)) found.set(lib.library, { importLine: i, names: m ? jsBindings(m[1]!) : [] });
  });
  const out: CliLibraryUse[] = [];
  for (const [library, { importLine, names }] of found) {
    const pattern = names.length > 0 ? new RegExp(`(?<![\\w$.])(?:${names.map((n) => n.replace(/[.$]/g, '\\$&')).join('|')})\\b`) : undefined;
    let line = importLine;
    if (pattern) {
      for (let i = importLine + 1; i < lines.length; i++) {
        const t = lines[i]!.trim();
        if (t.startsWith('#') || t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) continue;
        if (lines[i]!.length <= MAX_IMPORT_LINE && (PY_IMPORT.test(lines[i]!) || PY_FROM.test(lines[i]!) || JS_IMPORT.test(lines[i]!))) continue;
        if (pattern.test(lines[i]!)) {
          line = i;
          break;
        }
      }
    }
    const t = lines[line]!.trim();
    out.push({ library, file, line: line + 1, construct: t.length > 80 ? `${t.slice(0, 77)}...` : t });
  }
  return out.sort((a, b) => a.line - b.line);
}

/**
 * The first CLI library use among `files` (nearest first: the entry file, then the files it
 * imports), or undefined when none imports one.
 */
export function firstCliLibraryUse(files: ReadonlyArray<{ file: string; text: string }>): CliLibraryUse | undefined {
  for (const { file, text } of files) {
    const uses = cliLibraryUses(file, text);
    if (uses.length > 0) return uses[0];
  }
  return undefined;
}
