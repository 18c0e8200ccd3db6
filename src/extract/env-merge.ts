/**
 * Env-variable extractions of several sources as one (issue #31): the Python and the
 * TypeScript/JavaScript readers' results, and the env fallbacks of CLI flags as env-var specs.
 * Free of any parser, so the engine can import it without loading one.
 */
import type { EnvExtraction, ParamSpec } from '../model/types.js';

/** An empty extraction. */
export function noEnv(): EnvExtraction {
  return { vars: [], dynamic: [] };
}

/**
 * Several extractions as one, in order (the Python and the TypeScript/JavaScript extraction of one
 * project; any may be absent). Nothing is deduplicated: each entry is one read site, and the
 * linker merges them by name.
 */
export function mergeEnv(...parts: Array<EnvExtraction | undefined>): EnvExtraction {
  const internal = parts.flatMap((p) => p?.internal ?? []);
  const obsolete = [...new Set(parts.flatMap((p) => p?.obsolete ?? []))];
  return { vars: parts.flatMap((p) => p?.vars ?? []), dynamic: parts.flatMap((p) => p?.dynamic ?? []), ...(internal.length > 0 ? { internal } : {}), ...(obsolete.length > 0 ? { obsolete } : {}) };
}

/**
 * The environment variables each CLI flag of these commands (`FlagCommand`s) falls back to (`ParamSpec.envVars`:
 * commander `Option.env('X')`, oclif `env: 'X'`, yargs `.env(prefix)`), one env-var spec each:
 * `envSource: 'flag'`, `dest` = the flag's name, `owner` = the command (`bin:tool serve`: target
 * and sub-command words), `location` = the flag's, and the flag's type, default, description,
 * choices, deprecation and hidden state (the variable stands in for the flag, whose default
 * applies when neither is given). Never required: the flag may be given instead.
 */
export function flagEnvVars(commands: ReadonlyArray<{ target: string; path: readonly string[]; params: readonly ParamSpec[] }>): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const command of commands) {
    for (const flag of command.params) {
      for (const name of flag.envVars ?? []) {
        out.push({
          name,
          aliases: [],
          ...(flag.type !== undefined ? { type: flag.type } : {}),
          ...(flag.default !== undefined ? { default: { ...flag.default } } : {}),
          required: false,
          ...(flag.description !== undefined ? { description: flag.description } : {}),
          deprecated: flag.deprecated,
          hidden: flag.hidden,
          origin: 'env-var',
          owner: [command.target, ...command.path].join(' '),
          location: { ...flag.location },
          dest: flag.name,
          ...(flag.choices ? { choices: [...flag.choices] } : {}),
          envSource: 'flag',
        });
      }
    }
  }
  return out;
}
