/** CLI flags from yargs, commander, util.parseArgs, yargs-parser, arg, mri, minimist, oclif, clipanion, citty, cac, sade and meow definitions in TypeScript/JavaScript sources (issues #4, #30): one FlagCommand per program and sub-command. */
import type { FlagExtraction } from './types.js';
import type { ParsedFiles } from './syntax.js';

export type { FlagCommand, FlagExtraction } from './types.js';

let implementation: Promise<typeof import('./flags-run.js')> | undefined;

/**
 * Reads yargs and commander definitions from TypeScript and JavaScript sources (`.ts`, `.tsx`,
 * `.mts`, `.cts`, `.js`, `.mjs`, `.cjs`) without running them: each file is parsed once with
 * ts-morph (in memory, no type checker), and values are followed through local variables,
 * function parameters (yargs builders, helpers that take a command), relative imports/re-exports,
 * `require()` and object literals.
 *
 * **Programs.** yargs: a call of the `yargs` import (`yargs(hideBin(process.argv))`, `yargs()`,
 * `require('yargs/yargs')(…)`), or methods called on the `yargs` singleton (`require('yargs')`,
 * kept when it defines something or is parsed). commander: `new Command()`/`createCommand()`
 * (a named `new Command('x')` that is never attached counts only when `.parse()`d), the
 * `program` export (`import { program } from 'commander'`, one per importing file).
 *
 * **yargs.** `.option(name, {…})`/`.options(…)` (also the object form), `.positional(…)`,
 * `.boolean`/`.string`/`.number`/`.array`/`.count`, `.alias`, `.default`, `.describe`,
 * `.choices`, `.demandOption`/`.demand`/`.require`, `.hide`, `.deprecateOption`; option keys
 * `alias`, `type` (or `boolean: true`…; `array` gives `string[]`…), `default`,
 * `describe`/`description`/`desc`, `demandOption`/`demand`/`require`/`required`, `hidden`,
 * `deprecated`/`deprecate`, `choices`. Booleans are `negatable` (yargs accepts `--no-x`). A
 * one-letter key with a longer alias is named by the alias (`.option('p', { alias: 'port' })` →
 * `port`, aliases `['p']`). `dest` is the camelCase key yargs also sets (`shard-id` → `shardId`).
 * `.scriptName()` gives `programName`.
 * `.command(cmd, desc, builder, handler)` with `cmd` a string (`serve [port]`: positionals
 * `<required>`/`[optional]`, `[files..]`, `<file|f>` aliases) or an array (the rest are aliases),
 * `desc` `false` hiding it, `builder` a function (its first parameter is the sub-command) or an
 * object of options (also `Object.assign({}, shared, {…})` and `{ ...shared, x: {…} }` of known
 * objects); `.command(module)` with a command module (`command`, `aliases`, `describe`,
 * `builder`): an object, a namespace import, CommonJS `exports.x = …`/`module.exports = {…}`
 * through `require()`, or an instance of a project class (`.command(new ServeCommand())`:
 * properties, getters, methods, constructor `this.command = …`, inherited ones; a class passed
 * itself gives its `static` members); an array of modules. `.usage('$0 <x>', desc, builder)` is
 * `.command()` of the default command. `.commandDir(dir, { extensions, recurse, include,
 * exclude, visit })` loads every module of `dir` (a literal, `path.join(__dirname, …)`, relative
 * to the calling file) whose name ends with an extension (default `js`; a TypeScript source
 * counts as its compiled `.js`), regular-expression `include`/`exclude` applied, `visit: (m) =>
 * m.default` followed; a module without `command` is named by its file, as yargs does. A folder
 * or visitor docdrift cannot read marks the command `dynamicSubcommands`. `$0`/`*` commands add
 * to the parent. Nested `.command()`/`.commandDir()` inside builders gives longer paths. An
 * option whose name, or an options object or builder, docdrift cannot read (a call's result, a
 * spread of one) marks the command `passesUnknownFlags`.
 *
 * **commander.** `.option(flags, description?, default | parser?, default?)`,
 * `.requiredOption(…)` (`required: true`), `.addOption(new Option(flags, description)…)` with
 * `.default()`, `.choices()`, `.hideHelp()`, `.makeOptionMandatory()`, `.argParser()`;
 * `.argument('<file>', …)`, `.arguments('<a> [b]')`, `.addArgument(new Argument(…))`;
 * `.command('eval <file>')` (returns the sub-command; with a description it is an executable
 * sub-command and returns the parent), `.addCommand(cmd, { hidden })`, `.name()`, `.alias()`,
 * `.aliases()`, `.description()`, `.allowUnknownOption()` (`passesUnknownFlags`: a command that
 * declares nothing and accepts any flag hands its command line to a parser built at run time, and
 * its flags are unknown to the engine; an `.option()`/`.addOption()` whose flags are no string
 * docdrift can read marks it too). `.command(name)` with a name that is no known string
 * (sub-commands made in a loop over commands loaded at run time) marks the parent
 * `dynamicSubcommands`. Flags strings: the first long flag is the name (`--port <n>`
 * → `port`), others and short flags are `aliases` (`p`), the placeholder is not part of the
 * name; `type` is `boolean` without a placeholder, `string` for `<v>`, `string | boolean` for
 * `[v]`, `string[]` for `<v...>`, `number` with a `parseInt`/`parseFloat`/`Number` parser and
 * absent with another parser. `--no-x` gives a `negatable` `x` (merged with `--x` when both are
 * defined). `dest` is commander's attribute name (`--shard-id` → `shardId`). Positional
 * arguments are `required` when written `<x>`; an option's `<value>` placeholder does not make
 * the option required. `.name()`/`new Command('tool')` on a program gives `programName`.
 * `new MyCommand()` of a class that `extends Command` (through project classes too) is a
 * commander command, named by the `new`'s argument or the literal its constructor passes to
 * `super('x')`, with what its constructors (base first) add to `this` (`this.option(…)`); a
 * class overriding `createCommand(name)` builds each `.command('x')` child with that method (its
 * body walked, the options of the command it returns given to the child). `new Command(name)`
 * with a name docdrift cannot read is a program only once `.parse()`d.
 *
 * **Helpers.** A function called with a command (`withAuth(y)`, `register(program)`) is walked
 * with its parameters bound, once per call; a function returning a command (`makeUserCommand()`)
 * gives what it returns.
 *
 * **Every flag.** `location` is the name literal (for commander flags strings and command
 * strings, the name's token inside the literal); `owner` is the command path joined with spaces
 * (`''` for the program); `default` is the literal/expression as written, or the literal a constant stands for (`DEFAULT_PORT`, `MODES[0]`, `DEFAULTS.host`: `Evaluator.defaultOf`); `dest` is
 * absent for positionals.
 *
 * **Loops.** `for (const { long, short } of OPTIONS) program.option(…)` and
 * `OPTIONS.forEach((o) => program.option(o.flags, o.description))` over an array known
 * statically (≤ 300 items) are unrolled: the body is walked once per item, with template flags
 * such as `` `${short ? `-${short}, ` : ''}--${long}` `` and item fields (`o.flags`) read per
 * item. Known arrays: literals (spreads of known arrays inlined), a `const X = []` filled by
 * `X.push(…)`/`X.unshift(…)` in its scope (not when it is also spliced, popped or assigned),
 * through variables, imports and default exports, order-only calls (`sortBy(x, …)`,
 * `x.sort()`), `a.concat(b, …)`, `x.map((o) => ({ … }))` (each item the callback's result),
 * `x.filter((o) => …)` whose predicate is known for every item (`!`, `&&`, `||`, `===` of
 * literal fields, `[…].includes(o.name)`, `'key' in o`), and `Object.entries/keys/values(obj)`
 * of a known object (`[key, value]` items, keys as string literals placed at the key, `obj[key]`
 * read back).
 *
 * **util.parseArgs, yargs-parser, arg, mri, minimist** (`flags-parsers.ts`): `parseArgs({
 * options: {…} })` from `node:util`, the `yargs-parser` default import called with `{ boolean,
 * string, number, array, count, alias, default }`, `arg({ '--port': Number, '-p': '--port' })`,
 * `mri(argv, { alias, boolean, string, default })` and `minimist(argv, { string, boolean, alias,
 * default })` are programs of their own (framework `parseArgs`, `yargs-parser`, `arg`, `mri`,
 * `minimist`; see `argProgram` and `minimistProgram` there for what each key gives). yargs and
 * yargs-parser flags get their camel-case twin as an alias (`seed-count` ↔ `seedCount`), as
 * their camel-case expansion accepts both.
 *
 * **oclif, clipanion, citty** (`flags-oclif.ts`, `flags-clipanion.ts`, `flags-citty.ts`, issue
 * #30): oclif programs come from the `oclif` object of each package.json (command classes under
 * `oclif.commands`, the `explicit`/`single` strategies), clipanion programs from `new Cli(…)` /
 * `Cli.from` / `runExit` and the classes registered with them, citty programs from
 * `runMain(defineCommand({…}))`; see each reader for the forms covered. Their sub-commands do not
 * accept the program's flags (the engine is told through the framework). Class statics are
 * followed through `extends` (`BaseCommand.baseFlags`, `super.flags`, inherited `static flags`).
 *
 * **Spreads.** `{ ...OTHER }` inlines a known object, `...helper(x)` the object literal `helper`
 * returns (its expression body or first top-level `return`), and `...(c ? { a } : { b })` /
 * `...(c && { a })` every branch's entries (which branch runs is not known statically).
 *
 * **cac, sade and meow** (`flags-cac.ts`, `flags-sade.ts`, `flags-meow.ts`): `cac(name)`
 * programs (global `cli.option`, `cli.command('build [root]')`, the default command merged into
 * the program), `sade(name)` programs (options applying to the command defined last, single-command
 * mode) and `meow(help, { flags })` calls (the help text giving descriptions, or the flags when
 * there is no `flags` object) are programs of their own (framework `cac` / `sade` / `meow`).
 *
 * **Not read.** Options built dynamically (names or flags that are not string literals or
 * constants, lists loaded or computed at run time, `Object.entries(…)` of an object not known
 * statically, objects built by `.reduce(…)`, function results;
 * the command is marked `passesUnknownFlags` instead), `.commandDir()` folders written as
 * anything but a literal or `__dirname` path, `include`/`exclude` functions (every module is
 * read) and other `visit` functions (`dynamicSubcommands`), commander's built-in
 * `--help`/`--version` (`.version()`, `.helpOption()`) and yargs' built-in `--help`/`--version`,
 * options a commander subclass adds in methods other than its constructor and `createCommand`, and the commander
 * global `program` imported from `'commander'` in several files (one program per importing file;
 * importing it through the project's own modules is followed).
 *
 * Never throws for bad input: a file with syntax errors gives a `parse-error` warning.
 *
 * **Workspace packages.** With `workspaces` (package name → its directory), an import of a sibling
 * package (`@acme/plugin`, `@acme/plugin/lib/options`) is followed like a relative one, to the
 * package's source (`<dir>/src/lib/options.ts`, `<dir>/lib/options.ts`, compiled paths mapped back
 * to `src/`; the bare name to `<dir>/src/index.ts` or `<dir>/index.ts`): a helper such as
 * `createRedoclyOption()` in one package gives the options another package's program adds.
 *
 * @param sources Files to read; paths are project-relative POSIX.
 * @param workspaces Package name → project-relative directory of each package.json of the project.
 * @param packageJsons Every package.json of the project: an `oclif` object there makes an oclif
 *   program (see `oclifPrograms` in `flags-oclif.ts`).
 * @param parsed syntax trees of this run, shared with the config-type extractor (each file parsed once)
 * @param oclifTotals the real number of command files of each oclif folder (`src/commands`) whose
 *   sources were trimmed to the cap before parsing (`trimOclifFolders`), for the cap's warning
 * @throws Error (rejected promise) only when ts-morph itself cannot be loaded.
 */
export async function extractTypeScriptFlags(
  sources: { file: string; text: string }[],
  workspaces?: ReadonlyMap<string, string>,
  packageJsons?: ReadonlyArray<{ file: string; text: string }>,
  parsed?: ParsedFiles,
  oclifTotals?: ReadonlyMap<string, number>,
): Promise<FlagExtraction> {
  // ts-morph is slow to import: load it on first use, as extractTypeScript does.
  implementation ??= import('./flags-run.js').catch((error: unknown) => {
    implementation = undefined;
    throw error;
  });
  const { runFlagExtraction } = await implementation;
  return runFlagExtraction(sources, workspaces, packageJsons, parsed, oclifTotals);
}
