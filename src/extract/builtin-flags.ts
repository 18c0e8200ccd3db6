/**
 * The flags each CLI framework adds to a program by itself, one table per framework with the
 * source that says so. Extractors add them to the commands they emit as hidden flags, so an
 * example may pass them (they are never "unknown") and a reference needs no row for them.
 *
 * The spellings `help`, `h` and `version` are also in the default `globalParameters` (see
 * `effectiveGlobalParameters` in the engine), which keeps them known for every command whatever its
 * framework; the tables still list them, so that each framework's behaviour is written down in
 * one place, and {@link builtInFlagSpecs} gives the ones a framework spells otherwise
 * (commander's `-V`, typer's completion options, spellings configured with cyclopts'
 * `help_flags`/`version_flags` or click's `version_option("-V")`).
 */
import type { ParamSpec, SourceLocation } from '../model/types.js';

/** The CLI frameworks docdrift reads. */
export type Framework = 'argparse' | 'click' | 'typer' | 'cyclopts' | 'jsonargparse' | 'yargs' | 'commander' | 'parseArgs' | 'oclif' | 'clipanion' | 'citty' | 'cac' | 'sade' | 'meow';

/**
 * When a framework adds a flag:
 * - `always`: on every command (and sub-command) unless the program turns it off;
 * - `root`: on the program's root command only;
 * - `version-declared`: only when the program declares a version (`.version()`, `version_option`).
 */
export type BuiltInWhen = 'always' | 'root' | 'version-declared';

/** One flag a framework adds: its spellings without dashes (the first is the name), when, and what it does. */
export interface BuiltInFlag {
  names: string[];
  when: BuiltInWhen;
  description: string;
  /** What turns it off or changes its spellings, as the framework names it. */
  switch?: string;
}

/** A framework's built-in flags and where that is documented. */
export interface BuiltInTable {
  framework: Framework;
  flags: BuiltInFlag[];
  /** The documentation (or source) that defines these defaults. */
  source: string;
}

/** Every framework's table. `parseArgs` adds nothing: Node's `util.parseArgs` has no help or version option. */
export const BUILT_IN_FLAGS: Readonly<Record<Framework, BuiltInTable>> = {
  argparse: {
    framework: 'argparse',
    flags: [{ names: ['help', 'h'], when: 'always', description: 'show this help message and exit', switch: 'add_help=False' }],
    // `--version` exists only with an explicit `add_argument(..., action="version")`, which is read as a declared flag.
    source: 'https://docs.python.org/3/library/argparse.html#add-help',
  },
  click: {
    framework: 'click',
    flags: [
      { names: ['help'], when: 'always', description: 'Show this message and exit.', switch: 'context_settings={"help_option_names": [...]}' },
      { names: ['version'], when: 'version-declared', description: 'Show the version and exit.', switch: '@click.version_option(*param_decls)' },
    ],
    source: 'https://click.palletsprojects.com/en/stable/api/#click.Context.help_option_names and https://click.palletsprojects.com/en/stable/api/#click.version_option',
  },
  typer: {
    framework: 'typer',
    flags: [
      { names: ['help'], when: 'always', description: 'Show this message and exit.' },
      { names: ['install-completion'], when: 'root', description: 'Install completion for the current shell.', switch: 'typer.Typer(add_completion=False)' },
      { names: ['show-completion'], when: 'root', description: 'Show completion for the current shell, to copy it or customize the installation.', switch: 'typer.Typer(add_completion=False)' },
    ],
    source: 'https://typer.tiangolo.com/tutorial/options-autocompletion/ and https://typer.tiangolo.com/tutorial/commands/help/',
  },
  cyclopts: {
    framework: 'cyclopts',
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Display this message and exit.', switch: 'App(help_flags=[...])' },
      { names: ['version'], when: 'always', description: 'Display application version.', switch: 'App(version_flags=[...])' },
    ],
    // cyclopts/core.py: `App._help_flags` defaults to ["--help", "-h"], `App._version_flags` to ["--version"]; sub-apps keep them (hidden from help since v3.10).
    source: 'https://cyclopts.readthedocs.io/en/latest/api.html#cyclopts.App.help_flags and https://cyclopts.readthedocs.io/en/latest/api.html#cyclopts.App.version_flags',
  },
  jsonargparse: {
    framework: 'jsonargparse',
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Show this help message and exit.' },
      { names: ['config'], when: 'always', description: 'Path to a configuration file.' },
      { names: ['print_config'], when: 'always', description: 'Print the configuration after applying all other arguments and exit.', switch: 'ArgumentParser(print_config=...)' },
    ],
    // jsonargparse/_cli.py: `CLI` adds `--config` (ActionConfigFile), which adds `--print_config` (`_add_print_config_argument`).
    source: 'https://jsonargparse.readthedocs.io/en/stable/#configuration-files and https://jsonargparse.readthedocs.io/en/stable/#cli',
  },
  yargs: {
    framework: 'yargs',
    flags: [
      { names: ['help'], when: 'always', description: 'Show help', switch: '.help(false) / .help("name")' },
      { names: ['version'], when: 'root', description: 'Show version number', switch: '.version(false) / .version("name")' },
    ],
    source: 'https://yargs.js.org/docs/#api-reference-helpoption-description and https://yargs.js.org/docs/#api-reference-version',
  },
  commander: {
    framework: 'commander',
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'display help for command', switch: '.helpOption(flags)' },
      { names: ['version', 'V'], when: 'version-declared', description: 'output the version number', switch: '.version(str, flags)' },
    ],
    source: 'https://github.com/tj/commander.js#version-option and https://github.com/tj/commander.js#custom-help',
  },
  parseArgs: {
    framework: 'parseArgs',
    flags: [],
    source: 'https://nodejs.org/api/util.html#utilparseargsconfig',
  },
  oclif: {
    framework: 'oclif',
    // Checked with @oclif/core 4.14: `-h` is no help flag ("Nonexistent flag: -h") unless the
    // program adds one; `--json` comes with `static enableJsonFlag = true` and is read as a flag.
    flags: [
      { names: ['help'], when: 'always', description: 'Show CLI help.', switch: 'oclif.helpOptions / a command flag of the same name' },
      { names: ['version'], when: 'root', description: 'Show CLI version.', switch: 'oclif.additionalVersionFlags' },
    ],
    source: 'https://oclif.io/docs/help_classes and https://oclif.io/docs/config',
  },
  clipanion: {
    framework: 'clipanion',
    // Every command answers `-h`/`--help`; `--version` needs `cli.register(Builtins.VersionCommand)`.
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Print the command usage.', switch: 'Builtins.HelpCommand' },
      { names: ['version'], when: 'version-declared', description: 'Print the binary version.', switch: 'Builtins.VersionCommand' },
    ],
    source: 'https://mael.dev/clipanion/docs/builtins',
  },
  citty: {
    framework: 'citty',
    // `runMain` answers `--help`/`-h` on every command and `--version` on the program (checked with citty 0.2.2).
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Show usage.' },
      { names: ['version'], when: 'root', description: 'Show the version (meta.version).' },
    ],
    source: 'https://github.com/unjs/citty#runmain',
  },
  cac: {
    framework: 'cac',
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Display this message', switch: 'cli.help() adds it (a global option)' },
      { names: ['version', 'v'], when: 'version-declared', description: 'Display version number', switch: 'cli.version(v, customFlags)' },
    ],
    // cac/src/CAC.ts: `help()` and `version(version, customFlags = '-v, --version')` add global options.
    source: 'https://github.com/cacjs/cac#clihelpcallback and https://github.com/cacjs/cac#cliversionversion-customflags',
  },
  sade: {
    framework: 'sade',
    flags: [
      { names: ['help', 'h'], when: 'always', description: 'Displays this message' },
      { names: ['version', 'v'], when: 'always', description: 'Displays current version' },
    ],
    // sade/src/index.js: `parse()` reads argv with mri `alias: { h: 'help', v: 'version' }` before any command.
    source: 'https://github.com/lukeed/sade#progparsearr-opts',
  },
  meow: {
    framework: 'meow',
    flags: [
      { names: ['help'], when: 'always', description: 'Show the help text', switch: 'meow(…, { autoHelp: false })' },
      { names: ['version'], when: 'always', description: 'Show the version', switch: 'meow(…, { autoVersion: false })' },
    ],
    source: 'https://github.com/sindresorhus/meow#autohelp and https://github.com/sindresorhus/meow#autoversion',
  },
};

/**
 * Spellings known for every command already: the default `globalParameters` always keep `help`,
 * `h` and `version` (`effectiveGlobalParameters`), so extractors do not repeat them as flags.
 */
export const UNIVERSAL_SPELLINGS: ReadonlySet<string> = new Set(['help', 'h', 'version']);

/**
 * The built-in flags of `framework` that apply to one command, as hidden `cli-flag` ParamSpecs
 * (owner left empty; the extractor sets it). `root` says whether the command is the program's
 * root; `version` whether the program declares a version. `spellings` replaces a flag's
 * spellings (without dashes) when the program configures them (`help_flags=["--info"]`,
 * `.version("1.0", "-v, --vers")`); an empty list drops the flag. Spellings in
 * {@link UNIVERSAL_SPELLINGS} are left out (known anyway), so commander's `-V, --version` gives
 * one flag `V`, and cyclopts' default `--help`/`-h`/`--version` give none.
 */
export function builtInFlagSpecs(
  framework: Framework,
  where: { root: boolean; version?: boolean; location: SourceLocation; spellings?: Partial<Record<string, string[]>> },
): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const flag of BUILT_IN_FLAGS[framework].flags) {
    if (flag.when === 'root' && !where.root) continue;
    if (flag.when === 'version-declared' && !where.version) continue;
    const names = (where.spellings?.[flag.names[0] as string] ?? flag.names).filter((n) => !UNIVERSAL_SPELLINGS.has(n));
    const [name, ...aliases] = names;
    if (name === undefined) continue;
    out.push({
      name,
      aliases,
      type: 'bool',
      required: false,
      description: flag.description,
      deprecated: false,
      hidden: true,
      origin: 'cli-flag',
      owner: '',
      location: where.location,
      dest: name.replaceAll('-', '_'),
    });
  }
  return out;
}
