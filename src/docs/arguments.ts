/** Parses an invocation's argument tokens into parameter usages: Hydra overrides and CLI flags. */

import type { Invocation, Usage } from '../model/types.js';

/**
 * A Hydra override, after the shell removed quotes. Follows the key part of Hydra's override
 * grammar (https://hydra.cc/docs/advanced/override_grammar/basic/): an optional `+`, `++` or `~`
 * prefix; a key made of IDs joined by `.` (config path) or `/` (config group path), each ID of
 * letters, digits, `_`, `-`, `$` not starting with `-`; an optional `@package`; then `=` and the
 * value (required except with `~`).
 */
const OVERRIDE_RE = /^(\+\+|\+|~)?([A-Za-z_$][\w$-]*(?:[./][\w$][\w$-]*)*(?:@[\w$.:-]*)?)(?:=([\s\S]*))?$/;
/** `--name`, `--name=value`. */
const LONG_FLAG_RE = /^--([A-Za-z0-9][\w.-]*)(?:=([\s\S]*))?$/;
/** `-x`, `-xyz`, `-x=value`; `-1` is a number, not a flag. */
const SHORT_FLAG_RE = /^-([A-Za-z][\w-]*)(?:=([\s\S]*))?$/;

/** An override the token is, or undefined. Bare words (`train`, `file.py`) are not overrides. */
export function asOverride(text: string): { prefix: string; key: string; value?: string } | undefined {
  const m = OVERRIDE_RE.exec(text);
  if (!m) return undefined;
  const prefix = m[1] ?? '';
  const key = m[2]!;
  const value = m[3];
  if (value === undefined && prefix !== '~') return undefined;
  return value === undefined ? { prefix, key } : { prefix, key, value };
}

/** True when a shell word (quotes removed) reads as a Hydra override (`key=v`, `+key=v`, `~key`): a parameter, never a positional argument. */
export function isOverrideWord(text: string): boolean {
  return asOverride(text) !== undefined;
}

/** True when a token reads as a flag or an override, so it cannot be the previous flag's value. */
function looksLikeOption(text: string): boolean {
  if (text.startsWith('-') && !/^-\d/.test(text) && text !== '-') return true;
  return asOverride(text) !== undefined;
}

/**
 * Turns an invocation's argument tokens into usages, one per parameter passed.
 *
 * - Hydra overrides (https://hydra.cc/docs/advanced/override_grammar/basic/): `key=v`, `+key=v`,
 *   `++key=v`, `~key`, `~key=v`. `key` is the whole key (`a.b.c`, `group/sub@pkg`); `name` is its
 *   first segment, before the first `.`, `/` or `@`. Quoted forms arrive unquoted from the tokeniser.
 * - Flags: `--name`, `--name=v`, `--name v`, `--no-name`, `-x`, `-x v`. `key` is the flag
 *   without dashes; `name` is the same, or its first segment for a dotted flag (`--data.repo_id`);
 *   as written (`no-name` stays `no-name`: deciding that it negates
 *   `name` needs the parameter specs). A separate value is taken only when the next token is not
 *   itself a flag, an override or `--`; a negative number (`-1`) is a value, and so is a quoted
 *   word that looks like a flag (`--browser-arg "--disable-gpu"`).
 * - Anything else (a positional, a subcommand, a path) yields nothing; `--` ends parsing.
 *
 * `raw` is the token as the shell passes it (quotes removed); `location` is the token's position
 * in the Markdown file. Pure: no I/O, no state.
 */
export function parseArguments(inv: Invocation): Usage[] {
  const usages: Usage[] = [];
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = arg.text;
    if (text === '--') break;
    const base = { file: inv.file, command: inv.command, invocation: inv.index, raw: text, location: arg.location, block: inv.block };
    const flag = LONG_FLAG_RE.exec(text) ?? SHORT_FLAG_RE.exec(text);
    if (flag) {
      const name = flag[1]!;
      const prefix = text.startsWith('--') ? '--' : '-';
      let value = flag[2];
      if (value === undefined) {
        const next = args[i + 1]?.text;
        // A quoted word that looks like a flag is a value people had to quote
        // (`--browser-arg "--disable-gpu"`, `--extra "--foo=1"`): flags are not written in quotes.
        if (next !== undefined && next !== '--' && (!looksLikeOption(next) || (args[i + 1]!.quotedWord === true && next.startsWith('-')))) {
          value = next;
          i++;
        }
      }
      // `--data.repo_id` (draccus, jsonargparse, tyro) addresses a nested field: like a Hydra
      // key, `name` is the first segment and `key` the whole dotted path.
      const first = name.split('.', 1)[0]!;
      usages.push({ ...base, name: first === '' ? name : first, key: name, syntax: 'flag', prefix, ...(value !== undefined ? { value } : {}) });
      continue;
    }
    const override = asOverride(text);
    if (override) {
      const name = override.key.split(/[./@]/, 1)[0]!;
      usages.push({
        ...base,
        name,
        key: override.key,
        syntax: 'hydra-override',
        prefix: override.prefix,
        ...(override.value !== undefined ? { value: override.value } : {}),
      });
    }
  }
  return usages;
}
