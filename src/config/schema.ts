/** The docdrift configuration: its TypeScript shape, documented defaults and the zod schema that validates user files. */
import { z } from 'zod';
import type { Severity } from '../model/rule.js';
import { FLAG_ONLY_GLOBAL_PARAMETERS } from '../model/query.js';

/**
 * How one rule is configured: a severity, or a `[severity, options]` tuple (ESLint's shape).
 * Files may also write ESLint's numbers (`0` off, `1` warn, `2` error) or a one-element
 * `[severity]`; {@link loadConfig} normalises those to this type.
 */
export type RuleSetting = Severity | [Severity, Record<string, unknown>];

/**
 * An explicit command ↔ config class mapping. It overrides what discovery finds from entry
 * points for this command name.
 */
export interface CommandConfig {
  /** Other names that run the same command (`nemo_gym_collect_rollouts`). */
  aliases?: string[];
  /**
   * Config classes whose fields are the command's parameters: qualified
   * (`nemo_gym.rollout_collection.RolloutCollectionConfig`) or simple (`RolloutCollectionConfig`)
   * names. A file may give one string; the loader always returns an array.
   */
  config?: string | string[];
  /** Extra parameter names the command accepts besides its classes' fields. */
  params?: string[];
  /**
   * `config-file` when the entry names a configuration file users write (`docdrift.config.json`)
   * rather than a command: its reference sections are headed by the file name and its examples
   * are YAML/JSON/TOML blocks. Default `command`.
   */
  kind?: 'command' | 'config-file';
  /**
   * Heading texts (case-insensitive, `*` wildcards) whose sections document this command even
   * though they do not name it in inline code, e.g. `["Command line options"]`.
   */
  sections?: string[];
  /**
   * `true` when the sections `sections` ties list every parameter even though their heading or lead
   * text reads as a selection ("Here is a list of common options"): missing rows are then reported.
   * Default: such a section is read as a selection, like one found by a heading or by inference.
   */
  complete?: boolean;
  /**
   * The `module:function` (or `module:object`, `bin:<name>`) that runs the command, as a console
   * script would name it (`fastapi_cli.cli:main`), or for a TypeScript or JavaScript program the
   * path of the file that builds it (`src/cli.ts`), for a command whose entry point is declared
   * in another package, not at all, or points at output docdrift cannot map back to its source:
   * its CLI flags (argparse, click, typer, commander, yargs…) are read from there, and it wins
   * over an entry point of the same name. A value naming no module, file or bin of the project is
   * a config error.
   */
  program?: string;
  /**
   * CLI flags declared here rather than read from code: for a framework docdrift does not read
   * (a hand-rolled `sys.argv` loop, fire, docopt, oclif…), or to tell docdrift which config field a
   * flag sets (`{"name": "--resume", "field": "resume_from_cache"}`). An entry naming a flag that
   * docdrift also found in code amends that flag (only the keys given); any other entry adds a flag.
   * A file may write an entry as a string, `"--port"` or `"-p, --port"`.
   */
  flags?: FlagDeclaration[];
  /**
   * The sub-command this command (a group) runs when an invocation names none, as the words after
   * the command's name (`"prompt"` for `llm`, `"eval run"`): examples without a sub-command word
   * are that sub-command's. For a group docdrift cannot read this from (a hand-written
   * `click.Group` subclass, a plugin); wins over what discovery found.
   */
  defaultSubcommand?: string;
}

/**
 * One CLI flag declared in the config (`commands.<name>.flags[]`). Every key but `name` is
 * optional; the values mean what the code-derived fields of a flag mean (see `ParamSpec`).
 */
export interface FlagDeclaration {
  /**
   * The spellings users type, comma-separated: `"--port"`, `"-p, --port"`; click's
   * `"--color/--no-color"` declares a negatable flag. The first long (`--`) spelling is the flag's
   * name, the others are aliases. A positional argument is written without dashes and
   * `positional: true`.
   */
  name: string;
  /** More spellings (`["-P"]`). */
  aliases?: string[];
  /** The type as docs would write it (`int`, `str`, `list[str]`, `boolean`). */
  type?: string;
  /** The default, as a JSON value; a string is taken as the default's source text (`"0.5"`, `"'fast'"`). */
  default?: string | number | boolean | null;
  description?: string;
  required?: boolean;
  /** Exempt from "must be documented" (argparse `help=SUPPRESS`, click `hidden=True`). */
  hidden?: boolean;
  /** True, or the deprecation message. */
  deprecated?: boolean | string;
  choices?: string[];
  /** The flag also accepts `--no-<name>`. */
  negatable?: boolean;
  /** A positional argument, never spelled with dashes. */
  positional?: boolean;
  /**
   * The config field this flag sets (argparse `dest`): the flag and the field are then one
   * parameter, so a reference row or an example using either spelling counts for both.
   * Must name a parameter of the command's config classes.
   */
  field?: string;
}

/** The `env` key of the config: see {@link DocdriftConfig.env}. */
export interface EnvConfig {
  check: boolean;
  sections: string[];
}

/**
 * The validated, defaulted configuration. Every field has a default; a value given in a config
 * file replaces the default entirely (arrays are not merged: list the defaults you want to keep).
 */
export interface DocdriftConfig {
  /**
   * Globs of code files; `!` excludes. Python and TypeScript files, except test code (`tests/`,
   * `test/`, `__tests__/`, `test_*.py`, `*_test.py`, `conftest.py`, `*.test.ts`, `*.spec.ts`) and
   * declaration files: test code's classes and strings are not the CLI users call. TypeScript
   * files are only read when the root package.json declares `bin` commands or the config maps a
   * command to a class the Python sources do not define.
   * A single string is accepted for a one-element list.
   * @defaultValue `['**\/*.py', '**\/*.{ts,mts,cts,tsx}', '!**\/*.d.{ts,mts,cts}', '!**\/tests/**', '!**\/test/**', '!**\/__tests__/**', '!**\/test_*.py', '!**\/*_test.py', '!**\/conftest.py', '!**\/*.{test,spec}.{ts,mts,cts,tsx}']`
   */
  sources: string[];
  /**
   * Globs of the Markdown/MDX and reStructuredText documents to check; `!` excludes. Frozen copies of older releases'
   * docs (Docusaurus `versioned_docs/`, Fern `versions/v1.2/`, Redocly `docs/@v1/`) are matched
   * here and then left out by {@link DocdriftConfig.versions}. The defaults leave out test
   * inputs (`tests/fixtures/`, `test/fixtures/`, `testdata/`, `__fixtures__/`), which are data for
   * the project's tests, often deliberately odd and large (a 4 MB chat transcript).
   * @defaultValue `['**\/*.md', '**\/*.mdx', '**\/*.rst', '!**\/tests/fixtures/**', '!**\/test/fixtures/**', '!**\/testdata/**', '!**\/__fixtures__/**']`
   */
  docs: string[];
  /**
   * Extra globs to skip, on top of {@link ALWAYS_IGNORED} (always skipped) and `.gitignore`
   * (honoured by the engine).
   * @defaultValue `[]`
   */
  ignore: string[];
  /**
   * Globs of the documents that may hold reference sections (tables documenting a command's
   * parameters). Empty means every document may.
   * @defaultValue `[]`
   */
  reference: string[];
  /**
   * Explicit command ↔ class mapping by command name; overrides discovery for that command.
   * @defaultValue `{}`
   */
  commands: Record<string, CommandConfig>;
  /**
   * Parameter names accepted by every command, never reported as unknown or undocumented.
   * The defaults suit Hydra applications:
   * - `config_paths`: the config-file list option of Hydra-based launchers such as NeMo Gym;
   * - `config_path`: draccus's built-in option to load a config file (`--config_path=x.yaml`);
   * - `hydra`: every `hydra.*` override (`hydra.run.dir=…`) is Hydra's own, not the app's;
   * - Hydra's command-line flags, long and short: `help`/`h`, `hydra-help`, `version`,
   *   `cfg`/`c`, `resolve`, `package`/`p`, `run`/`r`, `multirun`/`m`, `config-path`/`cp`,
   *   `config-name`/`cn`, `config-dir`/`cd`, `info`/`i`, `shell-completion`/`sc`,
   *   `experimental-rerun` (https://hydra.cc/docs/advanced/hydra-command-line-flags/).
   * @defaultValue see {@link DEFAULT_CONFIG}
   */
  globalParameters: string[];
  /**
   * Heading texts (case-insensitive; `*` matches any run of characters, `?` one character)
   * whose sections document parameters that apply to every command.
   * @defaultValue `['Common options', 'Global options', 'Common parameters', 'Global parameters', 'Common arguments']`
   */
  globalSections: string[];
  /**
   * Globs of documents that are global references as a whole (a "common options" page): every
   * reference table in them, outside a command's own section, documents parameters of every
   * command.
   * @defaultValue `[]`
   */
  globalFiles: string[];
  /**
   * Environment variables (issue #31, docs/environment-variables.md): `check: false` turns the
   * env checks off (no `environment` pseudo-command); `sections` are heading texts (as
   * {@link DocdriftConfig.globalSections}) whose tables, lists and parameter headings document env
   * vars, besides the headings docdrift recognises ("Environment variables", "Env vars").
   * @defaultValue `{ check: true, sections: [] }`
   */
  env: EnvConfig;
  /**
   * Parameter key patterns never reported. Patterns are matched against the dotted key
   * (`responses_create_params.temperature`) segment by segment: `*` matches within one segment,
   * `**` any number of segments, and a pattern that matches a prefix of the key matches the whole
   * key (ignoring `foo_server` ignores `foo_server.host`). See {@link createParameterMatcher}.
   * Defaults:
   * - `_*`: private names (a leading underscore is Python's "not part of the interface");
   * - `**._target_`, `**._partial_`, `**._recursive_`, `**._convert_`, `**._args_`: Hydra's
   *   `instantiate` keys, accepted inside any node without being a field of a config class.
   * @defaultValue see {@link DEFAULT_CONFIG}
   */
  ignoreParameters: string[];
  /**
   * Which versions of a versioned doc tree are checked (Docusaurus `versioned_docs/version-X/`,
   * Fern `versions/vX/`, Redocly `docs/@vX/`, Mintlify or plain version folders `docs/v2/`,
   * `docs/6.x/`): `"current"` checks the version the doc engine's own config names current
   * (`versions.yaml` `default`, Fern `docs.yml` `versions`, Docusaurus's `docs/` folder, Mintlify
   * `docs.json` `navigation.versions`), else for a plain version folder the one not older than the
   * project's package version, else the highest, and skips the others with a run note; `"all"` checks every
   * tree; a list of version names (`["v1"]`) checks those too. See src/engine/versions.ts.
   * @defaultValue `"current"`
   */
  versions: VersionsSetting;
  /**
   * A run that checks nothing (no command found, no command's parameters known, or no document
   * compared with any of them) is expected here: exit 0 instead of 2, as `--allow-unchecked` does.
   * For a project whose docs are not written yet, or a shared config used where some projects
   * have nothing to check.
   * @defaultValue `false`
   */
  allowUnchecked: boolean;
  /**
   * Rule settings by rule id: `'off' | 'warn' | 'error'` or `[severity, options]`.
   * Rules not listed run with their default severity.
   * @defaultValue `{}`
   */
  rules: Record<string, RuleSetting>;
}

/** Which versions of a versioned doc tree are checked: the current one, all, or the current one plus these version names (`v1`, `1.2.0`, `@v1`, `version-1.2.0`). */
export type VersionsSetting = 'current' | 'all' | string[];

/**
 * Directory names skipped everywhere unless a `sources` glob names them: dependency, build and
 * tool caches that never hold the project's own code or docs. `build` and `dist` are skipped by
 * evidence rather than by name: discovery reads one that is a package's source (a Python
 * subpackage, a folder under `src/`, a workspace package; see `packageSourceFiles` in
 * src/engine/discover.ts).
 */
export const ALWAYS_IGNORED: readonly string[] = Object.freeze([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  'dist',
  'build',
  'site-packages',
  '__pycache__',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.cache',
]);

/** The same directories as {@link ALWAYS_IGNORED}, as globs matching anything inside them. */
export const ALWAYS_IGNORED_GLOBS: readonly string[] = Object.freeze(ALWAYS_IGNORED.map((dir) => `**/${dir}/**`));

/** The defaults of every field. Frozen; {@link defaultConfig} returns a mutable copy. */
export const DEFAULT_CONFIG: Readonly<DocdriftConfig> = Object.freeze({
  sources: [
    '**/*.py',
    // Declaration files included: a config type may extend an interface only a `.d.ts` declares
    // (their own types are config types only when a source type reaches them, extract.ts).
    '**/*.{ts,mts,cts,tsx}',
    '!**/tests/**',
    '!**/test/**',
    '!**/__tests__/**',
    '!**/test_*.py',
    '!**/*_test.py',
    '!**/conftest.py',
    '!**/*.{test,spec}.{ts,mts,cts,tsx}',
  ],
  docs: [
    '**/*.md',
    '**/*.mdx',
    // The other extensions GitHub renders as Markdown (README.markdown, README.MD from a
    // case-insensitive file system): not read, their stale examples passed with no note (s46 sweep H9).
    '**/*.{MD,Md,mD,markdown,MARKDOWN,Markdown,mdown,mkd,mkdn}',
    // reStructuredText (Sphinx) pages and READMEs, read by src/docs/rst.ts.
    '**/*.rst',
    // Claude Code's project memory may live in a `.claude/` folder beside the code it describes:
    // read like a `CLAUDE.md` there (dot folders match only patterns that name them).
    '**/.claude/CLAUDE.md',
    '!**/tests/fixtures/**',
    '!**/test/fixtures/**',
    '!**/testdata/**',
    '!**/__fixtures__/**',
  ],
  ignore: [],
  reference: [],
  commands: {},
  // Hydra's override namespace and config paths, then the globals that exist only as CLI flags.
  globalParameters: ['config_paths', 'config_path', 'hydra', ...FLAG_ONLY_GLOBAL_PARAMETERS],
  globalSections: ['Common options', 'Global options', 'Common parameters', 'Global parameters', 'Common arguments'],
  globalFiles: [],
  env: { check: true, sections: [] },
  ignoreParameters: ['_*', '**._target_', '**._partial_', '**._recursive_', '**._convert_', '**._args_'],
  versions: 'current',
  allowUnchecked: false,
  rules: {},
} satisfies DocdriftConfig);

/** A fresh, mutable copy of {@link DEFAULT_CONFIG}. */
export function defaultConfig(): DocdriftConfig {
  return structuredClone(DEFAULT_CONFIG) as DocdriftConfig;
}

/**
 * What `commands.<name>.program` accepts: a Python `module:function` (folders may hold hyphens)
 * or `path/script.py:function`, a `bin:<name>` of a package.json, or the path of the TypeScript or
 * JavaScript file that builds the program (`src/cli.ts`, `bin/tool.mjs`).
 */
export const PROGRAM_PATTERN = /^[\w.-]+:[\w.]+$|^[\w./-]+\.py:[\w.]+$|^bin:.+$|^[\w.@/-]+\.(?:[cm]?ts|tsx|[cm]?js)$/;

/** A `program` that names a TypeScript or JavaScript source file (`src/cli.ts`). */
export function isScriptProgram(program: string): boolean {
  return /^[\w.@/-]+\.(?:[cm]?ts|tsx|[cm]?js)$/.test(program) && !program.includes(':');
}

/** The severities, in the order messages list them. */
export const SEVERITIES = ['off', 'warn', 'error'] as const satisfies readonly Severity[];

/** ESLint's numeric severities, accepted as a courtesy. */
const NUMERIC_SEVERITY: Record<number, Severity> = { 0: 'off', 1: 'warn', 2: 'error' };

const nonEmptyString = z.string().min(1);
/** A path glob: no file name holds a NUL, so a glob with one matches nothing and was a silent no-op (s47 sweep J10). */
const globString = nonEmptyString.refine((s) => !s.includes('\0'));
/** Most items of one list in the config (`docs`, `ignoreParameters`, `globalSections`, …): 300,000 `ignoreParameters` patterns ran V8 out of memory (s25 sweep D10). */
export const MAX_CONFIG_LIST_ITEMS = 1000;
/** A list of strings (a lone string is a list of one), at most {@link MAX_CONFIG_LIST_ITEMS} long: the length is checked before the items. */
const boundedList = (item: z.ZodType<string>, min = 0) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? [v] : v),
    z.custom<unknown[]>((v) => !Array.isArray(v) || v.length <= MAX_CONFIG_LIST_ITEMS, { message: `at most ${MAX_CONFIG_LIST_ITEMS} items` }).pipe(z.array(item).min(min)),
  );
const stringList = boundedList(nonEmptyString);
const globList = boundedList(globString);
const nonEmptyGlobList = boundedList(globString, 1);
const severity = z.preprocess(
  (v) => (typeof v === 'number' && v in NUMERIC_SEVERITY ? NUMERIC_SEVERITY[v] : v),
  z.enum(SEVERITIES),
);
/** `commands.<name>.flags[]`: a string shorthand or a {@link FlagDeclaration}. */
const flagObjectSchema = z.strictObject({
    name: nonEmptyString,
    aliases: stringList.optional(),
    type: nonEmptyString.optional(),
    default: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    hidden: z.boolean().optional(),
    deprecated: z.union([z.boolean(), z.string()]).optional(),
    choices: stringList.optional(),
    negatable: z.boolean().optional(),
    positional: z.boolean().optional(),
    field: nonEmptyString.optional(),
  });
const flagDeclaration = z.preprocess((v) => (typeof v === 'string' ? { name: v } : v), flagObjectSchema);
const ruleSetting = z.union([
  severity,
  z.tuple([severity]),
  z.tuple([severity, z.record(z.string(), z.unknown())]),
]);

/** One `commands.<name>` entry of a config file (strict: unknown keys are errors). */
const commandEntrySchema = z.strictObject({
  $comment: stringList.optional(),
  aliases: stringList.optional(),
  config: stringList.optional(),
  params: stringList.optional(),
  kind: z.enum(['command', 'config-file']).optional(),
  sections: stringList.optional(),
  complete: z.boolean().optional(),
  program: z.string().regex(PROGRAM_PATTERN, 'a "module:function" target, e.g. "pkg.cli:main" (folders may hold hyphens: "alpaca-lora.finetune:train", or a script path "alpaca-lora/finetune.py:train"), a TypeScript or JavaScript source path ("src/cli.ts"), or "bin:<name>"').optional(),
  flags: z.array(flagDeclaration).optional(),
  defaultSubcommand: nonEmptyString.optional(),
});

/**
 * The zod schema of a config file's contents (strict: unknown keys are errors). It validates;
 * defaults are filled in by {@link normaliseConfig}.
 */
export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  $comment: stringList.optional(),
  sources: nonEmptyGlobList.optional(),
  docs: nonEmptyGlobList.optional(),
  ignore: globList.optional(),
  reference: globList.optional(),
  commands: z.record(nonEmptyString, commandEntrySchema).optional(),
  globalParameters: stringList.optional(),
  globalSections: stringList.optional(),
  globalFiles: globList.optional(),
  env: z.strictObject({ check: z.boolean().optional(), sections: stringList.optional() }).optional(),
  ignoreParameters: stringList.optional(),
  versions: z.union([z.enum(['current', 'all']), z.array(nonEmptyString)]).optional(),
  allowUnchecked: z.boolean().optional(),
  rules: z.record(nonEmptyString, ruleSetting).optional(),
});

/** The keys a strict object schema accepts, without the ones editors and notes use (`$schema`, `$comment`). */
function schemaKeys(schema: { shape: Record<string, unknown> }): string[] {
  return Object.keys(schema.shape).filter((k) => !k.startsWith('$'));
}

/**
 * The keys a config file may contain at its top level, read from {@link configFileSchema} so that
 * error messages list exactly what it accepts (`$schema` is accepted and ignored, for editors;
 * `$comment`, a string or list of strings, is accepted and ignored here and in each
 * `commands.<name>` entry, since JSON has no comments: `docdrift init` writes its notes there).
 */
export const CONFIG_KEYS = schemaKeys(configFileSchema) as ReadonlyArray<keyof DocdriftConfig>;

/** The keys of one `commands.<name>` entry, read from its schema. */
export const COMMAND_KEYS = schemaKeys(commandEntrySchema) as ReadonlyArray<keyof CommandConfig>;

/** The keys of a `commands.<name>.flags[]` object, read from its schema, for error messages. */
export const FLAG_KEYS = schemaKeys(flagObjectSchema) as ReadonlyArray<keyof FlagDeclaration>;

/** The schema's keys and the config types' keys are the same (a compile error names the odd one). */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : { differ: [Exclude<A, B>, Exclude<B, A>] };
const sameKeys: [
  SameKeys<Exclude<keyof z.input<typeof configFileSchema>, `$${string}`>, keyof DocdriftConfig>,
  SameKeys<Exclude<keyof z.input<typeof commandEntrySchema>, `$${string}`>, keyof CommandConfig>,
  SameKeys<keyof z.input<typeof flagObjectSchema>, keyof FlagDeclaration>,
] = [true, true, true];
void sameKeys;

/** What {@link configFileSchema} outputs. */
export type ConfigFileContents = z.output<typeof configFileSchema>;

/** Fills defaults into validated file contents and normalises rule settings to {@link RuleSetting}. */
export function normaliseConfig(contents: ConfigFileContents): DocdriftConfig {
  const config = defaultConfig();
  for (const key of CONFIG_KEYS) {
    if (key === 'commands' || key === 'rules') continue;
    if (key === 'versions') {
      if (contents.versions !== undefined) config.versions = typeof contents.versions === 'string' ? contents.versions : [...contents.versions];
      continue;
    }
    if (key === 'allowUnchecked') {
      if (contents.allowUnchecked !== undefined) config.allowUnchecked = contents.allowUnchecked;
      continue;
    }
    if (key === 'env') {
      if (contents.env?.check !== undefined) config.env.check = contents.env.check;
      if (contents.env?.sections !== undefined) config.env.sections = [...contents.env.sections];
      continue;
    }
    const value = contents[key];
    if (value !== undefined) config[key] = [...value];
  }
  if (contents.commands) {
    for (const [name, entry] of Object.entries(contents.commands)) {
      const command: CommandConfig = {};
      if (entry.aliases) command.aliases = [...entry.aliases];
      if (entry.config) command.config = [...entry.config];
      if (entry.params) command.params = [...entry.params];
      if (entry.kind) command.kind = entry.kind;
      if (entry.sections) command.sections = [...entry.sections];
      if (entry.complete !== undefined) command.complete = entry.complete;
      if (entry.program) command.program = entry.program;
      if (entry.flags) command.flags = entry.flags.map((f) => ({ ...f }));
      if (entry.defaultSubcommand) command.defaultSubcommand = entry.defaultSubcommand;
      config.commands[name] = command;
    }
  }
  if (contents.rules) {
    for (const [id, setting] of Object.entries(contents.rules)) {
      if (typeof setting === 'string') config.rules[id] = setting;
      else if (setting.length === 1) config.rules[id] = setting[0];
      else config.rules[id] = [setting[0], { ...setting[1] }];
    }
  }
  return config;
}
