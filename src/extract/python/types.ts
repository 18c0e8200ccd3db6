/**
 * Types shared by the Python extractor's modules. They live here, not in the module that
 * produces them, so that producers and consumers import types without importing each other.
 */
import type { ParamSpec, SourceLocation } from '../../model/types.js';

/** A construct that adds options to a command at run time, as docdrift met it. */
export interface UnreadFlags {
  location: SourceLocation;
  /** The construct as written, shortened to one line (`click.option(*keys, **option_kwargs)`). */
  construct: string;
  /**
   * Set when the construct is no run-time option maker but code docdrift stopped reading at a
   * limit (`32 levels of spreads`), as the note says it: any flag may be among
   * those not read, so near misses of the flags read are not reported either.
   */
  cut?: string;
}

/** One command of a program (the program itself or a sub-command), with the flags it accepts. */
export interface FlagCommand {
  /** Sub-command words after the program: [] for the program itself, ['eval', 'run'] for `tool eval run`. */
  path: string[];
  /** Other names of the last path word (argparse `add_parser("run", aliases=["r"])`); absent when none. */
  aliases?: string[];
  /**
   * Other whole word paths that run this command (clipanion `static paths = [['build'], ['b']]`,
   * oclif `deploy:app` for `deploy app`, oclif `static aliases`); absent when none.
   */
  pathAliases?: string[][];
  /**
   * `module:function` or `module:object` the entry point would name for the program (the function
   * that builds the argparse parser / the click command or group / the typer app variable). The
   * same command appears once per target: a program reachable as `build_parser` and as `main`
   * (which calls it) is listed under both. A parser built by module-level code that no function
   * uses has the bare module name as target (`python -m module`).
   */
  target: string;
  /** The flags and positional arguments, in declaration order; origin `cli-flag`, owner = program label plus path. */
  params: ParamSpec[];
  /** The parser / decorator / command definition. */
  location: SourceLocation;
  /**
   * True when the flags of the parent commands are also accepted after this sub-command's words
   * (yargs options are global by default; commander recognises program options before and after
   * sub-commands unless `.enablePositionalOptions()`). argparse, click and typer parse a parent's
   * options only before the sub-command, so they leave this unset.
   */
  inheritsParentFlags?: boolean;
  /**
   * `module:function` targets this command dispatches to, read from argparse
   * `set_defaults(func=run)` or `set_defaults(_command=Command(target="pkg.mod:fn"))`: the config
   * classes those functions build are this command's. Absent when none is known.
   */
  dispatch?: string[];
  /**
   * The sub-command a group runs when the command line names none (click-default-group's
   * `DefaultGroup(default="run")`): an example without a sub-command word belongs to it.
   */
  defaultSubcommand?: string;
  /**
   * True when the command passes flags it does not declare on (click
   * `context_settings={"ignore_unknown_options": True}`): an unknown flag in an example is not drift.
   */
  passesUnknownFlags?: boolean;
  /**
   * Where the command gets options docdrift cannot read (implies `passesUnknownFlags`): an
   * option whose declarations are computed (`click.option(*keys)(cli)` in a loop over a config
   * object's entries, `cmd.params.extend(make_options())`, a signature set at run time). Reported
   * once, as a note naming the place and the construct. Absent when every option was read.
   */
  unreadFlags?: UnreadFlags;
  /**
   * On a program (`path: []`): the fields of its config classes it sets from one parsed flag each,
   * field → the flag's `dest` (TypeScript `const config: Config = { skipTypeCheck: !args.typeCheck }`).
   * Such a field is the flag's internal name: the flag stands for it. Absent when none is known.
   */
  fieldFlags?: Record<string, string>;
  /**
   * True when the command also has sub-commands made at run time under names no string gives
   * (commander `.command(name)` over commands loaded at run time): what its docs document under
   * other words may be one of those.
   */
  dynamicSubcommands?: boolean;
  /**
   * The construct that makes those sub-commands, as the notes name it (`yargs \`.commandDir()\`
   * with a folder docdrift cannot read`); absent: the generic list (commander `.command(name)`, …).
   */
  dynamicSubcommandsBy?: string;
  /**
   * True when the parser accepts an unambiguous prefix of a long option (argparse `allow_abbrev`,
   * True unless the `ArgumentParser(...)`/`add_parser(...)` call says otherwise).
   */
  abbreviatesLongFlags?: boolean;
  /** See `CommandSpec.prefixChars`: argparse `prefix_chars` other than `-`. */
  prefixChars?: string;
  /**
   * Flags the module's code compares argv words with by hand (`arg == "--module"`), not a
   * program of its own: only a command that names the module (by name or alias) accepts them.
   * `target` is then the bare module name.
   */
  launcher?: boolean;
  /**
   * True for a sub-command hidden from its program's help (oclif `static hidden = true`, commander
   * `.command(name, { hidden: true })`, yargs `desc: false`, citty `meta.hidden`): it needs no
   * reference. Absent otherwise.
   */
  hidden?: boolean;
  /** True for a sub-command its code marks deprecated (oclif `static state = 'deprecated'`): it needs no reference. */
  deprecated?: boolean;
}
