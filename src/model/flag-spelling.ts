/** How a CLI flag is spelled with its dashes: the usual guess from a bare name, or what the code declared (`ParamSpec.optionStrings`). */
import type { ParamSpec } from './types.js';

/** `-k` for a one-character name, `--key` for a longer one: how a flag is spelled when the code says nothing else. */
export function usualFlagSpelling(name: string): string {
  return `${name.length === 1 ? '-' : '--'}${name}`;
}

/** `--dry-run` → `dry-run`, `-gx` → `gx`: an option string without its leading dashes. */
export function bareFlagName(spelling: string): string {
  let i = 0;
  while (spelling[i] === '-') i++;
  return spelling.slice(i);
}

/**
 * The {@link ParamSpec.optionStrings} of a flag the code declares as `strings` (dashes included,
 * in the order the program accepts them, the one to show first): the dash-led strings, without
 * repeats, when one of them is not the usual spelling of its bare name ({@link usualFlagSpelling}:
 * `--g`, `-gx`); undefined when each is usual (`-p`, `--port`), so that `name` and `aliases`
 * say it all. Strings of other prefix characters (argparse `prefix_chars="+"`) are left out.
 */
export function declaredOptionStrings(strings: readonly string[]): string[] | undefined {
  const dashed = [...new Set(strings.filter((s) => s.startsWith('-') && bareFlagName(s) !== ''))];
  return dashed.some((s) => s !== usualFlagSpelling(bareFlagName(s))) ? dashed : undefined;
}

/**
 * The spellings the program accepts for `name` (the flag's name or one of its aliases) with their
 * dashes: the option strings the code declares for it, else its usual spelling.
 */
export function flagSpellingsOf(param: Pick<ParamSpec, 'optionStrings'>, name: string): string[] {
  const declared = param.optionStrings?.filter((s) => bareFlagName(s) === name);
  return declared && declared.length > 0 ? declared : [usualFlagSpelling(name)];
}

/**
 * How a flag's `name` (its name or one of its aliases) is shown and written in a reference row:
 * the first long option string the code declares for it (`--g`), else the first one (`-gx`), else
 * its usual spelling (`-k`, `--key`).
 */
export function flagSpelling(param: Pick<ParamSpec, 'optionStrings'>, name: string): string {
  const spellings = flagSpellingsOf(param, name);
  return spellings.find((s) => s.startsWith('--')) ?? spellings[0]!;
}

/**
 * Whether an example's flag written `dashes` + `name` (`-` or `--`, the bare name) is a spelling
 * the program accepts for `param`: always, unless the code declares the option strings that spell
 * `name` ({@link ParamSpec.optionStrings}) and this is none of them (`-g` where argparse declares
 * only `--g`). A flag whose strings are all usual keeps docdrift's lenient matching of dashes.
 */
export function acceptsSpelling(param: Pick<ParamSpec, 'optionStrings'>, name: string, dashes: string): boolean {
  if (!param.optionStrings || (dashes !== '-' && dashes !== '--')) return true;
  const declared = param.optionStrings.filter((s) => bareFlagName(s) === name);
  return declared.length === 0 || declared.includes(`${dashes}${name}`);
}
