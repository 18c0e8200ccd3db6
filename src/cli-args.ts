/**
 * Command-line parsing for `docdrift` and `docdrift init`, on commander
 * (https://github.com/tj/commander.js): unknown options are refused with a "Did you mean …?"
 * suggestion only when a real option is a likely typo of it ({@link suggestNames}: `--quite` →
 * `--quiet`, but nothing for `--foo`, which commander's own looser measure matched with `--root`), `--` ends the options (every later argument is a path, even `--fix`), an
 * option that takes a value takes the next argument whatever it looks like (`--max-warnings -1`),
 * and pairs of flags that cannot go together are refused by name.
 *
 * Options are declared once, as an {@link OptionSpec} table whose keys are the flags as users
 * spell them (`'fix-dry-run'`, `'no-cache'`); the parsed values come back under the same keys.
 * `--x` and `--no-x` are separate entries, so both spellings keep their own meaning and a run
 * that gives both is refused rather than resolved by "last one wins".
 */
import { Command, CommanderError, Option } from 'commander';
import { suggestNames } from './shared/names.js';
import { escapeLine } from './shared/escape.js';

/** One option: a boolean flag, or an option taking one string value. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One-letter alias, e.g. `h` for `-h`. */
  short?: string;
  /** The value when the option is not given (booleans default to `false` when left out here). */
  default?: string | boolean;
  /** Placeholder of the value in messages, e.g. `FILE` (string options only). */
  valueName?: string;
}

/** The parsed command line: option values under their flag names, and the positional arguments. */
export interface ParsedArgs<Spec extends Record<string, OptionSpec>> {
  values: { [K in keyof Spec]: Spec[K]['type'] extends 'boolean' ? boolean : string | undefined };
  /** Flags given on the command line (not defaults), in the order first seen. */
  given: ReadonlySet<keyof Spec & string>;
  positionals: string[];
}

/** A usage error: the message (without the program-name prefix) and exit code 2. */
export class UsageError extends Error {}

/**
 * Parses `argv` (without `node` and the script) against `spec`. Flag pairs in `conflicts` that are
 * both given are refused ("--fix cannot be combined with --fix-dry-run"). With
 * `allowPositionals: false`, any positional argument is refused.
 *
 * @throws {UsageError} on an unknown option (with a suggestion when one is close), a missing
 *   option value, a file or directory value spelled exactly as one of the options (`--cache-location
 *   --no-cache`), a refused pair, or an unexpected positional argument.
 */
export function parseCommandLine<Spec extends Record<string, OptionSpec>>(
  name: string,
  argv: readonly string[],
  spec: Spec,
  options: { conflicts?: ReadonlyArray<readonly [keyof Spec & string, keyof Spec & string]>; allowPositionals?: boolean } = {},
): ParsedArgs<Spec> {
  const program = new Command(name);
  const values: Record<string, string | boolean | undefined> = {};
  const given = new Set<string>();
  program
    .helpOption(false)
    .allowExcessArguments(true)
    .argument('[paths...]')
    .exitOverride()
    .showSuggestionAfterError(false)
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  for (const [flag, opt] of Object.entries(spec)) {
    values[flag] = opt.default ?? (opt.type === 'boolean' ? false : undefined);
    const short = opt.short ? `-${opt.short}, ` : '';
    const value = opt.type === 'string' ? ` <${opt.valueName ?? 'value'}>` : '';
    program.addOption(new Option(`${short}--${flag}${value}`));
    // Commander folds `--x`/`--no-x` into one attribute; the per-flag event keeps them apart.
    program.on(`option:${flag}`, (v: string | undefined) => {
      given.add(flag);
      values[flag] = opt.type === 'boolean' ? true : (v ?? '');
    });
  }
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const message = error.message.replace(/^error: /, '');
      const unknown = error.code === 'commander.unknownOption' ? /'--([^'=]+)/.exec(message)?.[1] : undefined;
      const near = unknown === undefined ? undefined : suggestNames(unknown, Object.keys(spec), 1)[0];
      // Commander's message quotes the argument as given: a line feed in it is written `\n`.
      const said = escapeLine(message);
      throw new UsageError(near === undefined ? said : `${said}\n(Did you mean --${near}?)`);
    }
    throw error;
  }
  const positionals = [...program.args];
  if (options.allowPositionals === false && positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0]}'`);
  }
  // A path value spelled as one of these options is a forgotten value (`--cache-location --no-cache`
  // made a folder named `--no-cache`): refused, as a value-less option is (s25 sweep O7).
  const spellings = new Set(Object.entries(spec).flatMap(([flag, opt]) => [`--${flag}`, ...(opt.short ? [`-${opt.short}`] : [])]));
  for (const flag of given) {
    const opt = spec[flag]!;
    const value = values[flag];
    if (opt.type !== 'string' || (opt.valueName !== 'file' && opt.valueName !== 'dir') || typeof value !== 'string') continue;
    const what = opt.valueName === 'dir' ? 'directory' : 'file';
    if (spellings.has(value)) throw new UsageError(`--${flag} needs a ${what}, but got the option ${value} (for a ${what} of that name, write ./${value}).`);
    // `-o=report.txt` gives the short option the value `=report.txt` (s26 sweep O1: a file named `=`).
    if (value.startsWith('=')) {
      const name = escapeLine(value.slice(1)) || what.toUpperCase();
      throw new UsageError(`--${flag} got ${escapeLine(value)}: a short option takes its value as the next argument (${opt.short ? `-${opt.short}` : `--${flag}`} ${name}, or --${flag}=${name}); for a ${what} whose name starts with =, write ./${escapeLine(value)}.`);
    }
  }
  for (const [a, b] of options.conflicts ?? []) {
    if (given.has(a) && given.has(b)) throw new UsageError(`--${a} cannot be combined with --${b}.`);
  }
  return { values: values as ParsedArgs<Spec>['values'], given: given as ParsedArgs<Spec>['given'], positionals };
}
