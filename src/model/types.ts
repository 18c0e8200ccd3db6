/**
 * The docdrift model: what the code says (specs), what the reference pages say (sections and
 * rows), what the examples do (usages) and how documents link. Rules read these types and nothing
 * else, so this file is the one place to learn the whole tool from.
 *
 * Conventions shared by every type here:
 * - `file` is a path relative to the project root, with `/` separators (POSIX), e.g. `docs/cli.mdx`.
 * - `line` and `column` are 1-based, as in unist positions; `column` counts UTF-16 code units,
 *   as remark and VFile do. `endLine`/`endColumn` point one past the last character.
 */

/** A position range inside one file (unist-style, 1-based, end exclusive). */
export interface SourceLocation {
  /** Project-relative POSIX path. */
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/**
 * Where a parameter definition comes from. Issue #4 adds `cli-flag`; issue #31 adds `env-var`, an
 * environment variable the code reads (its `name` is the variable's name as users set it).
 */
export type ParamOrigin = 'config-field' | 'cli-flag' | 'env-var';

/**
 * The name of the pseudo-command whose parameters are the project's environment variables
 * (issue #31). Its reference sections are env tables and `.env.example` files; its usages are
 * `VAR=value cmd`, `export VAR=…`, `docker run -e VAR=…` and YAML `environment:`/`env:` maps.
 */
export const ENVIRONMENT_COMMAND = 'environment';

/**
 * How code reads an environment variable (issue #31), on a `ParamSpec` of origin `env-var`:
 * - `settings`: a pydantic-settings `BaseSettings` field (env prefix + field name, or an alias);
 * - `read`: a direct read (`os.environ[...]`, `os.getenv`, `process.env.X`, `import.meta.env.X`);
 * - `schema`: a declared env schema (t3-env/`createEnv`, `envalid`, a zod schema parsing `process.env`);
 * - `flag`: a CLI flag's env fallback (click/typer `envvar=`, commander `Option.env()`, oclif `env:`).
 */
export type EnvSource = 'settings' | 'read' | 'schema' | 'flag';

/**
 * Reads of the environment whose variable name the code computes (`os.environ[prefix + key]`,
 * `process.env[name]`, `os.getenv(f"{P}_X")`): variables documented with this `prefix` (`''` when
 * nothing is known) may be read there, so they are never called unknown.
 */
export interface DynamicEnvRead {
  /** The literal start of the computed name (`APP_` of `` `APP_${k}` ``), `''` if none. */
  prefix: string;
  /**
   * The literal end of the computed name (`_CLIENT_ID` of `` `${opts.envPrefix}_CLIENT_ID` ``), with
   * the upper-case string literals of the reading file that may start it (`heads`: linkwarden's
   * `envPrefix: "OIDC"` gives `OIDC_CLIENT_ID`). Absent when the name ends in no literal.
   */
  suffix?: string;
  heads?: string[];
  location: SourceLocation;
  /** The source text of the read, for notes (`os.environ[prefix + key]`). */
  construct: string;
}

/** See {@link Model.envNameStatus}. */
export type EnvNameStatus = 'own' | 'foreign' | 'excluded';

/** Environment variables one language's extraction found (issue #31). */
export interface EnvExtraction {
  /**
   * One `ParamSpec` per read site or settings field, origin `env-var`, `name` = the variable,
   * `owner` = the settings class's qualified name or the reading file's module/path, `dest` = the
   * settings field path (`db.host`) when there is one, `location` = the name token. The linker
   * merges them by name; it decides which count (test files, well-known variables).
   */
  vars: ParamSpec[];
  dynamic: DynamicEnvRead[];
  /**
   * Variables the project supplies itself, so users do not set them: written by its own code
   * (`os.environ["X"] = …`, `process.env.X = …`), set by its container image (`ENV X=…` in a
   * Dockerfile), passed to a settings class by the code that builds it (`Settings(SECRET=…)`), or a
   * settings field whose type no text can fill. Known, never demanded in the docs; still checked
   * where documented. Absent when none.
   */
  internal?: InternalEnvVar[];
  /**
   * Variables the code names in a message saying they are obsolete (`"PAPERLESS_OCR_SKIP_ARCHIVE_FILE
   * is set but has no effect"`, `` `APP_X is deprecated, use APP_Y` ``): read only to warn, so
   * deprecated, never demanded (see `obsoleteEnvNames`, src/shared/env-words.ts). Absent when none.
   */
  obsolete?: string[];
}

/** A variable the project supplies itself (see {@link EnvExtraction.internal}). */
export interface InternalEnvVar {
  name: string;
  /** Where the project supplies it (the write, the `ENV` line, the constructor call, the field). */
  location: SourceLocation;
  /** Why, for notes and `--explain`: `written by the code`, `set by the container image`… */
  reason: string;
}

/**
 * A default value as the code writes it.
 * - `literal`: a Python/TS literal expression whose meaning can be compared
 *   (`True`, `None`, `1e-3`, `"abc"`, `[]`, `-1`).
 * - `factory`: `default_factory=list` and the like; `text` is the factory expression. Not
 *   comparable with a documented default except by convention (`list` ≈ `[]`).
 * - `expression`: any other expression (a call, a name); `text` is its source text.
 */
export interface DefaultValue {
  kind: 'literal' | 'factory' | 'expression';
  text: string;
}

/**
 * One parameter as the code defines it: a pydantic field, a dataclass field, later a CLI flag.
 * Extractors fill this in; they describe, they never judge.
 */
export interface ParamSpec {
  /** The name users type, as the code spells it (`resume_from_cache`). */
  name: string;
  /** Other accepted spellings: pydantic `alias`/`validation_alias`, flag spellings. */
  aliases: string[];
  /** Annotation text exactly as written (`Optional[int]`, `list[str]`), if any. */
  type?: string;
  /** The default, when the field has one. Absent means required or unknown. */
  default?: DefaultValue;
  /** True when the code gives no default (`x: int`, `Field(...)`, `Field(default=...)`). */
  required: boolean;
  /** `Field(description=…)`, else the attribute docstring right after the field. */
  description?: string;
  /** False, true, or the deprecation message (`Field(deprecated="use y")`). */
  deprecated: boolean | string;
  /** Hidden parameters are exempt from "must be documented" (`Field(exclude=True)` is not hidden). */
  hidden: boolean;
  origin: ParamOrigin;
  /** Name of the class (or flag group) that declares this parameter. */
  owner: string;
  /**
   * The base class that declared this field first, when `owner` re-declares an inherited field
   * (`name: str = "spider2"` over `BaseServerConfig.name: str`), usually only to give it a default.
   */
  overrides?: string;
  /** Where the parameter is declared: the field's name token. */
  location: SourceLocation;
  /**
   * Qualified name of the config class that types this field (`data: DataConfig`,
   * `Optional[DataConfig]`, `logging: LoggingOptions`), when the extractor resolved one: the field
   * is then a nested config whose fields are addressed with dotted keys (`data.repo_id`). Absent
   * for scalars and for dict-typed fields, which stay open namespaces. A Python `TypedDict` counts
   * as a config class here (its keys are checked like a pydantic model's fields).
   */
  typeRef?: string;
  /** True for dict/record/mapping-typed fields (`Dict[str, Any]`, `Record<string, unknown>`): any sub-key is accepted. */
  openNamespace?: boolean;
  /**
   * Qualified name of the config class (or Python `TypedDict`) typing the *values* of a
   * mapping-typed field: `Dict[str, ServerConfig]`, `Mapping[str, Server]`,
   * `Record<string, Server>`, `{ [name: string]: Server }`. The key right below the field is free
   * (an instance name users choose), the key after it must be a field of that class
   * (`servers.main.port`). Such a field also has `openNamespace`, so readers that do not look
   * at values still accept any sub-key.
   */
  valueTypeRef?: string;
  /**
   * CLI flags (issue #4): the attribute or config field the flag sets (argparse `dest`, click/typer
   * parameter name), so `--resume` and `+resume_from_cache=true` can count as one parameter.
   */
  dest?: string;
  /** CLI flags: the allowed values (argparse `choices`, click `Choice`, yargs `choices`). */
  choices?: string[];
  /** CLI flags: a boolean flag that also accepts `--no-<name>` (click `--x/--no-x`, typer bools, argparse `BooleanOptionalAction`, yargs booleans). */
  negatable?: boolean;
  /** CLI flags: a positional argument (argparse positional, `click.argument`, `typer.Argument`), never spelled with dashes. */
  positional?: boolean;
  /**
   * CLI flags: the option strings the program accepts for this flag, dashes included, the one the
   * code declares first (`['--g']` for argparse `add_argument('--g')`, `['-gx']` for
   * `add_argument('-gx')`, `['--g', '-g']` for cac's `--g`, which its parser also reads as `-g`).
   * Present only when one of them is not the usual spelling of its name (`-k` for one character,
   * `--key` for more: see `src/model/flag-spelling.ts`), so `name` and `aliases`, bare, cannot say
   * how users type it: a one-letter long option or a single-dash long one. A name or alias no
   * string here spells (a `no-x` negation) keeps its usual spelling. Rows, messages and hovers
   * show these spellings, and an example that writes the name with other dashes (`-g` for `--g`)
   * passes no parameter.
   */
  optionStrings?: string[];
  /**
   * CLI flags: a flag that takes no value and counts how often it is given (argparse
   * `action="count"`, click/typer `count=True`, yargs `count`), so `-vv` repeats it.
   */
  counted?: boolean;
  /**
   * CLI flags: a positional argument that takes every remaining word (argparse `nargs="*"`/`"+"`/
   * `REMAINDER`, click `nargs=-1`, a `*args` or list-typed cyclopts/typer argument), so words such
   * as `city=London` in an example are its values, not parameters.
   */
  variadic?: boolean;
  /**
   * Environment variables this flag or config field is also read from (issue #31): click/typer
   * `envvar=` (a name or a list), click `auto_envvar_prefix` (`PREFIX_FLAG_NAME`), cyclopts `env_var`,
   * commander `Option.env('X')`, oclif `env: 'X'`, yargs `.env('PREFIX')`. Each is checked in the
   * table that documents env vars, the flag in the flag table.
   */
  envVars?: string[];
  /** Origin `env-var`: how the code reads the variable. */
  envSource?: EnvSource;
  /**
   * Origin `env-var`: the variable is matched ignoring case (pydantic-settings' default
   * `case_sensitive=False`); absent or false: exact (`os.environ`, `process.env`).
   */
  envCaseInsensitive?: boolean;
  /**
   * Origin `env-var`: known, counted and checked where documented, but no env reference owes it a
   * row, nor an example a link (issue #31): `developer` for a developer's switch (`TS_NODE_DEBUG`),
   * `vendor` for another program's variable the code peeks at (`VLLM_USE_V1`) while no env row
   * documents a variable of that namespace. Set by the link stage (`quietEnvParams`).
   */
  undemanded?: 'developer' | 'vendor';
}

/** A configuration class found in source: a pydantic model or a dataclass. */
export interface ConfigClass {
  /** Simple class name, e.g. `RolloutCollectionConfig`. */
  name: string;
  /** Dotted module path plus class name, e.g. `nemo_gym.rollout_collection.RolloutCollectionConfig`. */
  qualifiedName: string;
  /** Dotted module path of the file that declares it (`nemo_gym.rollout_collection`). */
  module: string;
  /**
   * What declares it: Python `pydantic` models and `dataclass`es; TypeScript `interface`s,
   * `class`es, object `type-alias`es and `zod` object schemas (issue #3); object schemas of
   * JSON Schema files (`json-schema`), which config files are often validated by. A Python
   * `typeddict` (`class Sampling(TypedDict)`) is listed only when a config field's type names it
   * (`typeRef` or `valueTypeRef`): it gives the keys of a dict-valued field, it is never a
   * command's config.
   */
  kind: 'pydantic' | 'dataclass' | 'typeddict' | 'interface' | 'class' | 'type-alias' | 'zod' | 'json-schema';
  /** Base classes, resolved to qualified names where the repository defines them, else as written. */
  bases: string[];
  /**
   * All fields users can set, inherited ones included, in MRO order (bases first), a subclass
   * field replacing an inherited one of the same name.
   */
  fields: ParamSpec[];
  /** The class name token. */
  location: SourceLocation;
  /**
   * Where a reading limit cut the fields it inherits (a TypeScript `extends` chain deeper than
   * `MAX_BASE_DEPTH`), in `CommandSpec.unreadFlags`' shape: a command using it is partly known.
   * Absent when every inherited field was read.
   */
  unreadFields?: { location: SourceLocation; construct: string; cut: string };
  /**
   * For a TypeScript alias that only names another config type (`type Config = Base`, also through
   * a chain of such aliases or an import): the qualified name of the type it stands for, whose
   * fields it lists. A name that matches both is that type (the alias is not a second candidate).
   */
  aliasOf?: string;
}

/** A console script declared by the project (`[project.scripts]`, `console_scripts`). */
export interface EntryPoint {
  /** The command name users type (`ng_collect_rollouts`). */
  name: string;
  /** `module:function` as declared (`nemo_gym.rollout_collection:collect_rollouts`). */
  target: string;
  /** The declaration in `pyproject.toml` or `setup.cfg`. */
  location: SourceLocation;
  /**
   * The file a package.json `bin` runs, project-relative (`packages/cli/dist/cli.js`), so that
   * `node packages/cli/dist/cli.js …` in an example is this command. Absent for console scripts.
   */
  file?: string;
  /**
   * Sub-command words of the program at `target` that this script runs (a legacy script whose
   * shared dispatcher re-enters the main program as `gym eval run`): the script is then another
   * name of that sub-command. Absent for a script that runs `target` itself.
   */
  subcommand?: string[];
}

/** Why a program's parameters could not be read (see {@link CommandSpec.unreadProgram}). */
export type UnreadProgram =
  | {
      kind: 'library';
      /** The CLI library (`docopt`, `vorpal`). */
      library: string;
      /** Where it is first used (project-relative file, 1-based line) and the line's text. */
      file: string;
      line: number;
      construct: string;
    }
  | {
      kind: 'no-source';
      /** The file a package.json `bin` names (`dist/cli.js`), which is not in the project and maps to no source. */
      file: string;
    }
  | {
      kind: 'outside';
      /** The project-relative module file (`tool/cli.py`) or a folder on its path: a symbolic link to a place outside the project, which docdrift does not read. */
      file: string;
    }
  | {
      kind: 'unreadable';
      /** The project-relative module file (`tool/cli.py`) the run could not read; its `parse-error` says why (a permission, a codec docdrift cannot decode). */
      file: string;
    }
  | {
      kind: 'too-large';
      /** The project-relative module file (`tool/cli.py`), not parsed for its size. */
      file: string;
      /** Why, as a clause: "it is 1.9 MB, over the 1 MB limit for one Python source". */
      reason: string;
    }
  | {
      kind: 'over-budget';
      /** The project-relative file (`tool/cli.py`, `src/cli.ts`) whose flags the extraction did not finish reading. */
      file: string;
      /** Why, as a clause: "extracting the CLI flags of this file (737 KB) took more than 9.8 s of CPU time, …". */
      reason: string;
      /**
       * Set on a sub-command whose flags the config declares (`commands."gym run".flags`), of a
       * program whose flags were not read: the declared ones amend the code's, so they are not all
       * of its flags (src/link/build.ts); the note does not ask to declare them again.
       */
      declaredFlagsAmend?: true;
    }
  | {
      kind: 'not-javascript';
      /** The file a package.json `bin` names (`bin/create.sh`): a script of another language, not parsed. */
      file: string;
      /** Its interpreter, from the shebang or the extension (`sh`, `bash`, `python3`). */
      interpreter: string;
      /** For a shell script, the first command line met (1-based line) and its text: no literal JavaScript file follows its `node`, or it runs no `node`. */
      line?: number;
      construct?: string;
    };

/**
 * A command users type, with the parameters it accepts. Several entry points that name the same
 * function are one command with aliases.
 */
export interface CommandSpec {
  /** Primary name: the first script declared for the function (of bins running one program, the one the program names), or the configured name. */
  name: string;
  /** A sub-command hidden from its program's help (see `FlagCommand.hidden`): it needs no reference. */
  hidden?: boolean;
  /** A sub-command its code marks deprecated (see `FlagCommand.deprecated`): it needs no reference. */
  deprecated?: boolean;
  /** Other names that run the same command (`nemo_gym_collect_rollouts`). */
  aliases: string[];
  /** `module:function` the command runs, when known. */
  target?: string;
  /** Qualified names of the config classes whose fields are this command's parameters. */
  configClasses: string[];
  /**
   * Names `commands.<name>.config` gives that resolve to no class read (a typo, or a type in a
   * file docdrift did not read: the run's config problem says which); absent when all resolve.
   */
  unresolvedConfig?: string[];
  /** The command's parameters (fields of its config classes, later CLI flags). */
  params: ParamSpec[];
  /**
   * Parameters the command also accepts without owning them: fields of config classes its
   * function builds from a derived dict. Never unknown in examples; not required in its reference.
   */
  acceptedParams?: ParamSpec[];
  /**
   * The command whose flags this sub-command also accepts (yargs global options, commander program
   * options): its `acceptedParams` hold them, and rows in that command's reference document them.
   */
  inheritsFrom?: string;
  /**
   * The full name of the sub-command this group runs when an invocation names none
   * (click-default-group `DefaultGroup(default="prompt")`): such examples are that sub-command's.
   */
  defaultSubcommand?: string;
  /**
   * True when the command passes flags it does not declare on to another program (click
   * `ignore_unknown_options`): examples may pass any flag, so none is unknown.
   */
  passesUnknownFlags?: boolean;
  /**
   * Where the command gets options docdrift cannot read, with the construct as written
   * (`click.option(*keys, **option_kwargs)` applied in a loop over a config object's entries):
   * the command takes flags docdrift does not know, said once in a note. Absent when none.
   */
  unreadFlags?: {
    location: SourceLocation;
    construct: string;
    /**
     * Set when a reading limit, not a run-time construct, hid the flags (`32 levels of
     * spreads`): any name may be among them, near misses of the read ones included.
     */
    cut?: string;
  };
  /**
   * What docdrift met in the program of a command whose parameters are unknown: the first use of
   * a CLI library its entry reaches (`docopt(__doc__)` at `navalfate/cli.py:16`) from which no
   * command or flag was read, or a `bin` whose file is compiled output with no source found.
   * Absent when the parameters are known or nothing was met.
   */
  unreadProgram?: UnreadProgram;
  /**
   * True when the command's sub-commands are (also) made at run time under names docdrift cannot
   * read (commander `.command(name)` in a loop over commands loaded at run time). When the command
   * declares no flag of its own, its parameters are unknown: the rows and examples docs give it
   * most likely belong to one of those sub-commands.
   */
  dynamicSubcommands?: boolean;
  /**
   * The construct that makes those sub-commands, as the notes name it (`yargs \`.commandDir()\`
   * with a folder docdrift cannot read`); absent: the generic list (commander `.command(name)`, …).
   */
  dynamicSubcommandsBy?: string;
  /**
   * True when the command's parser accepts an unambiguous prefix of a long option (argparse's
   * `allow_abbrev`, on by default: `--param` runs as `--params` when no other long option starts
   * with `param`). Examples writing such a prefix name that option.
   */
  abbreviatesLongFlags?: boolean;
  /**
   * The characters that start the command's options when not only `-` (argparse
   * `ArgumentParser(prefix_chars="+")`: `+seed`, `++name`): an example's `+seed 1` passes the
   * flag `seed`, read as `-seed 1` would be. Absent for the usual `-`.
   */
  prefixChars?: string;
  /**
   * Config classes discovery found for this command's function (qualified names) that the
   * config's `commands.<name>.config` list leaves out: their fields are not this command's
   * parameters. Absent when the config keeps them all or names no classes.
   */
  droppedConfigClasses?: string[];
  /**
   * How the command ↔ class mapping was found, for messages and `--debug`: `inferred` for a config
   * file found because a reference section documents the fields of a class no command reads (issue #29).
   */
  mappedBy: 'config' | 'entry-point' | 'inferred';
  /**
   * A Python file run as `python path/to/script.py` that neither packaging nor the config declares
   * (found by its `if __name__ == "__main__":` block and its parser), or a sub-command of one.
   * Its examples are checked against its flags, but it is a repository helper, not a product
   * command: it is not expected to have a reference section of its own (no `command-undocumented`,
   * no "no reference section" note).
   */
  script?: boolean;
  /**
   * True when docdrift knows the command's parameters (a config class or an explicit list was
   * found). Rules that judge a parameter as unknown or undocumented skip commands where this is
   * false: not knowing is never reported as drift.
   */
  paramsKnown: boolean;
  /** Where the command is declared (entry point line), if anywhere. */
  location?: SourceLocation;
  /**
   * `config-file` when this "command" is a configuration file users write (`docdrift.config.json`,
   * `config.yaml`) whose root is a config class: its examples are YAML/JSON/TOML code blocks and
   * its reference sections are headed by the file name. Absent means a command users type.
   */
  kind?: 'command' | 'config-file' | 'environment';
}

/** A heading in a document, with the anchor GitHub would give it. */
export interface Heading {
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** Plain text of the heading (mdast-util-to-string). */
  text: string;
  /** Texts of the inline code spans in the heading, in order (`ng_collect_rollouts`). */
  codes: string[];
  /** GitHub-style anchor slug, unique within the document (`ng_collect_rollouts--nemo_gym_collect_rollouts`). */
  slug: string;
  /**
   * Other anchors the heading answers to: an explicit id (`## Export {#export}`, as VitePress,
   * Docusaurus, Python-Markdown's attr_list and Pandoc write it) and MyST `(label)=` targets on
   * the lines above it.
   */
  anchors?: string[];
  location: SourceLocation;
}

/** One table row under a heading, with cells keyed by their normalised column role. */
export interface TableRow {
  /** Raw text of each cell, by column index. */
  cells: string[];
  /** Inline code texts of each cell, by column index. */
  cellCodes: string[][];
  /** Links in the row. */
  links: DocLink[];
  location: SourceLocation;
  /**
   * Where each cell is, packed: `line, column, endLine, endColumn` of cell 0, then of cell 1, …
   * (unist positions: 1-based, end exclusive; 0 for an end not known), in the table's file. Read
   * with `cellLocation` (src/docs/position.ts). Packed, not one {@link SourceLocation} per cell: a
   * page of 20,000 four-column rows held 140,000 location objects, 53 MB in memory and 15.5 MB
   * serialised, and the language server holds a page's parse up to three times while its author
   * edits it (#33 s37 sweep D8).
   */
  cellSpans: number[];
  /**
   * Where each inline code span of each cell is, packed as `cell, line, column, endLine, endColumn`
   * per span, by cell then in text order (so parallel to `cellCodes`). Read with
   * `cellCodeLocation` (src/docs/position.ts). Absent when no cell has a code span.
   */
  codeSpans?: number[];
}

/** A GFM table as read from a document, before it is interpreted as a reference table. */
export interface DocTable {
  /** Header cell texts. */
  header: string[];
  rows: TableRow[];
  location: SourceLocation;
}

/**
 * A heading together with everything up to the next heading of the same or higher rank
 * (a lower or equal `depth` number). Reference sections are built from these.
 */
export interface HeadingBlock {
  heading: Heading;
  /** Last line (inclusive) of the block. */
  endLine: number;
  /** Tables inside the block, nested sub-headings included. */
  tables: DocTable[];
  /**
   * Inline code texts anywhere in the block (headings, paragraphs, lists, tables), used to decide
   * whether a linked heading explains a parameter. Optional: filled by the docs stage.
   */
  codes?: string[];
  /**
   * Rows of the `headings` layout: one per parameter heading inside the block (nested
   * sub-headings included, like `tables`; the block's own heading never), in document order. A row's
   * `location` is its heading. Optional: filled by the docs stage (see `readLayoutRows`).
   */
  headingRows?: ReferenceRow[];
  /**
   * Rows of the `list` layout: one per item of each reference list inside the block (nested
   * sub-headings included, like `tables`), in document order. A row's `location` is its list item.
   * Optional: filled by the docs stage (see `readLayoutRows`).
   */
  listRows?: ReferenceRow[];
}

/** Column roles a reference table can have (header synonyms are mapped onto these). */
export type ColumnRole = 'name' | 'type' | 'default' | 'description' | 'env' | 'flag';

/** One documented parameter: a row of a reference table. */
export interface ReferenceRow {
  /** Parameter names as documented, normalised (`+`, `++`, `--`, `=value`, placeholders stripped). The first is the primary. */
  names: string[];
  /** The name cell's text as written. */
  rawName: string;
  /** Documented type text, if the table has a Type column. */
  type?: string;
  /** Documented default, from a Default column or a "Default: `x`" phrase in the description. */
  default?: string;
  /** Where the documented default text is (for messages and fixes). */
  defaultLocation?: SourceLocation;
  /**
   * The documented default is written as one inline code span (`` `openid email profile` ``): a
   * value as written, compared even when it has spaces (bare words with spaces are prose).
   */
  defaultCode?: boolean;
  description?: string;
  /** Environment variable documented for the parameter (an "Env"/"Environment variable" column). */
  env?: string;
  /** True when the docs say the parameter is required ("Required" default cell, `(required)`, `[required]`, `Required: yes`). */
  required?: boolean;
  /**
   * True when the docs say the parameter is gone: `(removed)`/`(obsolete)` after the name, a
   * description starting `Removed in 2.0`/`Obsolete`, or a row marked deprecated (`(DEPRECATED)`,
   * `Deprecated:`) whose text says it is no longer needed or can be removed. A tombstone kept on
   * purpose to tell users to drop the key, so a name the code no longer has is not drift; a row
   * that is only "deprecated" still promises the flag works, and is checked.
   */
  removed?: boolean;
  /**
   * A row naming one setting in several namespaces (`| `enabled` | `APP_METRICS` | `--metrics` |`,
   * issue #13): the names of its key column and the spellings of its CLI-flag column apart, so
   * each spelling is checked against its own namespace (config keys, the program's CLI flags).
   * `names` still holds them all. Absent when the row has no separate CLI-flag column.
   */
  spellings?: RowSpellings;
  /**
   * The name's spellings written as CLI flags, when there are two or more
   * (`` `-h`/`--host` ``, `-v, --version`, `--color/--no-color`): each as written, normalised and
   * placed at its inline code (else the row), so every spelling is checked on its own (a short
   * alias the code does not have is drift even when the long one is right). A separate CLI-flag
   * column is in {@link ReferenceRow.spellings} instead.
   */
  flagSpellings?: RowSpellings['flags'];
  links: DocLink[];
  location: SourceLocation;
}

/** The namespaced spellings of one {@link ReferenceRow}. */
export interface RowSpellings {
  /** Normalised names from the key column (`enabled`, `log.level`). */
  keys: string[];
  /** Spellings from the CLI-flag column that start with `-`, as written (`--no-metrics`) and normalised (`no-metrics`), each with its inline code's position. */
  flags: Array<{ text: string; name: string; location: SourceLocation }>;
}

/**
 * How a reference section lays out its parameters (issue #3):
 * - `table`: a GFM table with a name column (and possibly env/flag columns);
 * - `headings`: a heading per parameter, its name in inline code or as the heading text, with
 *   type/default from a small table, "Type:"/"Default:" lines or a definition list under it;
 * - `list`: bullet items starting with the parameter in inline code (`` - `--epochs`: … ``);
 * - `help`: `--help` output pasted into a fenced block, one row per option line (issue #13);
 * - `commented-yaml`: a YAML block with a comment per key (`port: 8080  # what it does`) in a
 *   config file's reference section or a configured `sections` heading, one row per key (issue #13).
 */
export type ReferenceLayout = 'table' | 'headings' | 'list' | 'help' | 'commented-yaml' | 'env-file';

/**
 * `--help` output pasted into a code block (argparse, click, typer, yargs, commander, meow, cac,
 * sade, oclif, citty, clipanion, docopt, fire): a reference layout for the command its usage line
 * names (issues #13, #30). Filled by the docs stage.
 */
export interface HelpBlock {
  /** Words of the command the usage line names (`['llm', 'prompt']`), program path and `.py` dropped; may be empty. */
  usage: string[];
  /** The usage line. */
  location: SourceLocation;
  /** Last line (inclusive) of the fenced block. */
  endLine: number;
  /** One row per option line, `-h, --help` left out; none when the block is `unread`. */
  rows: ReferenceRow[];
  /** Set when the block is help output docdrift could not follow: it then documents nothing (issue #30). */
  unread?: UnreadHelp;
}

/** A pasted `--help` block recognised but not understood; its rows are left out, never half of them. */
export interface UnreadHelp {
  /** What was not understood, one phrase (`line 14 of its options list is not an option line docdrift reads`). */
  reason: string;
  location: SourceLocation;
}

/** The part of a document that documents one or more commands (or all of them, when global). */
export interface ReferenceSection {
  file: string;
  heading: Heading;
  /** Names of the commands this section documents, as written in the heading. */
  commands: string[];
  /** A section that applies to every command ("Common options"), or to every command of {@link ReferenceSection.programs}. */
  global: boolean;
  /**
   * For a global section under a heading ("Common options") on a page that documents commands:
   * the programs (first words of the command names, `gym`) of that page's commands. The section
   * documents their commands only ({@link globalSectionsFor}). Absent: every command.
   */
  programs?: string[];
  layout: ReferenceLayout;
  rows: ReferenceRow[];
  /** Last line (inclusive) of the section. */
  endLine: number;
  /**
   * Present when no heading or config tied the section to its command and docdrift inferred it
   * from the names the section documents (issue #29): the evidence, e.g. "12 of 14 rows are
   * parameters of `autoforge`".
   */
  /**
   * Issue #31: the rows are names an env section mentions in inline code (no table, list or
   * heading per variable): they document those variables but are not judged themselves.
   */
  mentionsOnly?: boolean;
  inferred?: {
    evidence: string;
    /**
     * The command is the page's command (every example of the page runs it): the section is its
     * reference as plainly as a heading naming it, and promises every parameter.
     */
    pageCommand?: boolean;
  };
  /**
   * The section's heading or lead text (the paragraphs between the heading and its first row)
   * says it lists a selection: the words that say so ("Notable keys", "Here is a list of common
   * options", "Other flags"). Its rows are checked, missing parameters are not reported
   * (src/docs/lead.ts; `partialReference` in src/model/coverage.ts).
   */
  selection?: string;
  /**
   * The heading or lead text scopes the rows to one named config file of the project
   * (`configs/agent.yaml`): the Default column shows that file's values, not the code's defaults.
   */
  scopedFile?: string;
  /**
   * Every key the {@link scopedFile} sets, at any depth, when docdrift found and read it: the
   * rows need list only those (a table of one shipped file's settings). Absent when the file was
   * not found or read: the rows are then a selection.
   */
  scopedKeys?: string[];
  /**
   * A history page or part (changelog, release notes, upgrade or migration guide, blog post,
   * "Breaking changes"): kept only when its command has no other section, read as a partial list,
   * and its rows never name stale parameters (src/docs/page-kind.ts).
   */
  history?: boolean;
  /**
   * A `commands.<name>.sections` pattern of the config tied the section: the config says where the
   * reference is, not that it is complete. It requires every parameter unless its heading or lead
   * declares a selection ({@link ReferenceSection.selection}, dropped when the entry sets `complete`).
   */
  configured?: boolean;
  /**
   * Documents whose reference rows the section defers to: its page says the command also takes
   * the options documented there ("Every one of the [Configuration](config.md) options can also
   * be specified through the CLI"). A parameter a reference section of such a document has a row
   * for is not missing here.
   */
  delegatesTo?: string[];
}

/** A shell-like fenced code block found in a document. */
export interface CodeBlock {
  file: string;
  /** Info string language (`bash`), or `undefined` when none. */
  lang?: string;
  location: SourceLocation;
}

/** Syntax of one argument in an example invocation. */
export type ArgumentSyntax =
  /** Hydra override: `key=v`, `+key=v`, `++key=v`, `~key` (https://hydra.cc/docs/advanced/override_grammar/basic/). */
  | 'hydra-override'
  /** CLI flag: `--name`, `--name=v`, `--name v`, `-x`. */
  | 'flag'
  /** A key of a configuration file example (YAML, JSON, TOML), at any depth, as a dotted path. */
  | 'config-key'
  /**
   * An environment variable set for a command (issue #31): `VAR=v cmd`, `export VAR=v`,
   * `env VAR=v`, `docker run -e VAR=v`/`--env VAR=v`, a YAML `environment:`/`env:` map entry, a
   * `.env` code block line. The usage's `command` is {@link ENVIRONMENT_COMMAND}, `name` = `key` =
   * the variable, `prefix` `''`.
   */
  | 'env';

/** One parameter passed in one example. */
export interface Usage {
  file: string;
  /** The command as written in the example (`ng_collect_rollouts`). */
  command: string;
  /** Index of the invocation within its document (stable id for grouping). */
  invocation: number;
  /** The argument as written (`+resume_from_cache=True`). */
  raw: string;
  /** The parameter name: first segment of a dotted key (`responses_create_params`), or the flag name without dashes. */
  name: string;
  /** The full key, dotted segments included (`responses_create_params.temperature`). */
  key: string;
  /**
   * The key's segments, present only when one of them contains a dot itself: a YAML/JSON/TOML map
   * key such as `"my_pkg.yaml"` under `commands` gives `['commands', 'my_pkg.yaml', 'kind']`,
   * which `key.split('.')` would cut wrongly.
   */
  keySegments?: string[];
  syntax: ArgumentSyntax;
  /** Hydra prefix (`''`, `+`, `++`, `~`) or flag dashes (`--`, `-`). */
  prefix: string;
  /** The value as written, if any. */
  value?: string;
  /** Exact position of the argument token in the Markdown file. */
  location: SourceLocation;
  block: CodeBlock;
}

/** A fenced code block of configuration data (YAML, JSON or TOML) in a document. */
export interface DataBlock {
  file: string;
  lang: 'yaml' | 'json' | 'toml';
  /** The rest of the info string after the language (`title="docdrift.config.json"`), if any. */
  meta?: string;
  /**
   * The sentence that introduces the block: the last sentence of the paragraph right before it
   * (only blank lines between), when it ends with a colon (`Add this to your app.yaml:`).
   */
  lead?: string;
  /** The block's content, as remark gives it (fence indentation removed). */
  value: string;
  /** 1-based document line of the block's first content line (the line after the opening fence). */
  contentLine: number;
  /** Columns of indentation remark removed from each content line (the fence's indent). */
  contentIndent: number;
  /** The whole fenced block. */
  location: SourceLocation;
}

/** One command invocation found in an example code block. */
export interface Invocation {
  file: string;
  /** Program name as written, wrappers (`uv run`, `python -m`, `npx`) removed. */
  command: string;
  /**
   * How the program was named when not by its own name: `module` for `python -m pkg` (`command`
   * is the module, which may be the package of a console script rather than its name), `image`
   * for `docker run IMAGE` / `podman run IMAGE` (`command` is the image reference; the program is
   * the image's own, or the first argument when that names a command), `file` for
   * `node path/cli.js` (`command` is the path, which may be a package.json `bin` file).
   */
  via?: 'module' | 'image' | 'file';
  /** Index within the document. */
  index: number;
  /**
   * The arguments after the program, as tokens with positions; `quoted` when the word was written
   * with quotes or escapes (`"a prompt"`, `hello\ world`), so it is an argument, never a command name.
   */
  /** `quoted`: the word holds quotes anywhere (`--name="a b"`); `quotedWord`: it starts with one (`"--disable-gpu"`). */
  args: Array<{ text: string; location: SourceLocation; quoted?: true; quotedWord?: true }>;
  location: SourceLocation;
  block: CodeBlock;
}

/** A link in a document, resolved to a file and heading where possible. */
export interface DocLink {
  file: string;
  /** The URL as written. */
  url: string;
  /** Resolved target document (project-relative), when the URL points inside the project. */
  targetFile?: string;
  /** The `#fragment`, decoded, without `#`. */
  fragment?: string;
  /**
   * A cross-reference role rather than a URL: MyST `` {ref}`label` `` / Sphinx `` :ref:`label` ``
   * (`url` is the label) or `` {doc}`path` `` / `` :doc:`path` `` (`url` is the document name,
   * without extension). Resolved to `targetFile`/`fragment` by the link stage.
   */
  role?: 'ref' | 'doc';
  location: SourceLocation;
}

/** Everything docdrift read from one Markdown/MDX document. */
export interface DocFile {
  file: string;
  /** Markdown, MDX or reStructuredText (read by src/docs/rst.ts). */
  kind: 'md' | 'mdx' | 'rst';
  headings: Heading[];
  blocks: HeadingBlock[];
  codeBlocks: CodeBlock[];
  invocations: Invocation[];
  /**
   * Environment variables the page's examples set (issue #31), in document order: usages of syntax
   * `env` on {@link ENVIRONMENT_COMMAND}, `name` = `key` = the variable, `prefix` `''`, `value` the
   * value after quote removal (absent for `docker run -e VAR`, `export VAR`, a YAML `- VAR` item),
   * `location` the variable's name, `block` its code block. Read from shell blocks (`VAR=v cmd`,
   * `env VAR=v cmd`, `export VAR=v`, `docker run -e|--env VAR[=v]`, fish `set -x`, csh `setenv`),
   * `.env` blocks (` ```dotenv `, ` ```bash title=".env" `), PowerShell `$env:VAR = v` and batch
   * `set VAR=v` blocks, and YAML/JSON blocks' `environment:`/`env:` maps and lists at any depth
   * (src/docs/env-usages.ts). Only upper-case identifier-like names (`isEnvVarName`). `invocation`
   * is the shell invocation's index, or one number per block from 200,000 (`ENV_BLOCK_INVOCATION_BASE`)
   * for blocks that are no shell invocation. Inline code in prose (`` `FOO=1` ``) is not read.
   * Optional: absent when there are none.
   */
  envUsages?: Usage[];
  /** YAML/JSON/TOML fenced blocks: candidate config-file examples. Optional: filled by the docs stage. */
  dataBlocks?: DataBlock[];
  /** Fenced blocks of pasted `--help` output, in document order. Optional: filled by the docs stage. */
  helpBlocks?: HelpBlock[];
  /**
   * Parameter-like inline code spans of paragraphs (prose), in document order: those followed by
   * prose that explains them, and flag-shaped ones. Optional: filled by the docs stage.
   */
  proseCodes?: ProseCode[];
  /**
   * Paragraphs outside lists and tables, in document order: the lead text of a section or table
   * ("Here is a list of common options", src/docs/lead.ts). Optional: filled by the docs stage.
   */
  paragraphs?: Paragraph[];
  links: DocLink[];
  /**
   * Every parameter the page documents as a row of a layout (table row, parameter heading,
   * reference list item), wherever it stands, sections or not, in line order: where "documented
   * elsewhere" looks (`documentedElsewhere`, src/model/query.ts). Optional: filled by the docs stage.
   */
  parameterRows?: DocumentedName[];
  /**
   * True when the page records history rather than describing the tool as it is: a change log,
   * release notes or a blog post (src/docs/page-kind.ts, `isHistoricalPage`).
   */
  historical?: boolean;
  /**
   * True when the page is a fragment other pages include (`_includes/`, `snippets/`, `_setup.mdx`;
   * src/docs/page-kind.ts, `isPartialPage`): its links belong to the pages that include it.
   */
  partial?: boolean;
  /** True when the page is a guide for the tool's own contributors (`CONTRIBUTING.md`; `isContributorPage`). */
  contributor?: boolean;
  /**
   * Set when the page holds more example commands than docdrift reads from one page
   * (`MAX_INVOCATION_WORDS_PER_DOCUMENT`, src/docs/parse.ts) or than a run reads in all
   * (`MAX_RUN_INVOCATION_WORDS`, src/engine/document-caps.ts): `invocations` are the first ones, `location`
   * is the first one not read (the page's later code blocks are not read at all).
   */
  invocationsCut?: { location: SourceLocation };
  /**
   * Set when the run keeps more reference rows than it reads in all (`MAX_RUN_REFERENCE_ROWS`,
   * src/engine/document-caps.ts): the page's blocks hold no rows (tables, parameter headings,
   * list items) and it has no `parameterRows`; `location` is its first row, `rows` how many it had.
   * The references of its commands are read as partial (`partialReference`, src/model/coverage.ts).
   * `notParsed`: the page was not parsed at all (a parse budget or limit; its parse-error warning
   * says which) and may hold rows: a stub with no content (`unreadReferenceStub`).
   * `names`: of a page not parsed, the names its text shows as code (inline code, flags, table
   * first cells, headings, option directives; normalised by `mentionKey`): only parameters so
   * named may be documented there, and only their findings are withheld. Absent: any may be.
   */
  rowsCut?: {
    location: SourceLocation;
    rows: number;
    notParsed?: boolean;
    names?: readonly string[];
    /** Where the run says why the page was not read, when not in a `parse-error` warning of its own (a note). */
    why?: string;
  };
}

/** A parameter a page documents as a row of some layout: its names (normalised as {@link ReferenceRow.names}), the row's line, and whether it is written as a CLI flag (`--roots`) rather than a key (`roots`). */
export interface DocumentedName {
  names: string[];
  line: number;
  flag: boolean;
  /**
   * Written as a Hydra override in a table that is no reference table (`++split=...` in a
   * "Legacy Hydra override → New flag" mapping): documents a config field that examples pass as
   * an override, never a flag.
   */
  override?: boolean;
}

/** A paragraph of prose: its rendered text and its first and last line. */
export interface Paragraph {
  text: string;
  line: number;
  endLine: number;
}

/** A word in an example, right after a group, that names none of its sub-commands (see {@link Model.unknownSubcommands}). */
export interface UnknownSubcommand {
  file: string;
  /** The group's command name as the model knows it (`ns`, `llm`). */
  group: string;
  /** The word as the shell passes it (`genselect`). */
  word: string;
  /** True when it is shaped like a sub-command name: a bare lower-case word (`genselect`, `embed-multi`), not quoted or escaped. */
  commandLike: boolean;
  /** True when the group has a default sub-command the example could otherwise have run. */
  groupHasDefault: boolean;
  location: SourceLocation;
}

/** A CLI flag named in prose (`` `--vault_password_env_var` ``), tied to the command its page documents. */
export interface ProseFlag {
  file: string;
  /** The command the page (or its innermost reference section) belongs to. */
  command: string;
  /** The flag's name without dashes or value (`vault_password_env_var`). */
  name: string;
  /** The code span as written (`--vault_password_env_var`). */
  raw: string;
  /**
   * How the page was tied to the command: the reference `section` around the sentence, the
   * `page` (its command sections all name it), or the `project` (its only command; a weaker tie,
   * since prose also names other tools' flags: `git commit --no-verify`).
   */
  scope: 'section' | 'page' | 'project';
  location: SourceLocation;
}

/**
 * One inline code span in a paragraph holding a single parameter-like token
 * (`` `--vault_password_env_var` ``, `` `++responses_create_params.<field>` ``).
 */
export interface ProseCode {
  /** The code as written, trimmed. */
  code: string;
  /** Its parameter name, normalised like a reference row's (`vault_password_env_var`, `responses_create_params`). */
  name: string;
  /** Prose words follow it in its sentence (`` `--resume` continues an interrupted run ``): the page explains the name itself. */
  explained: boolean;
  /** Two leading dashes (`--x`, `--x=v`, `--x <n>`): a CLI flag named in prose. */
  flag: boolean;
  /**
   * A flag that a sentence introduces: the only parameter-like code span of its sentence, after
   * four prose words at least (`` You can change the output directory using `--out`. ``). Set
   * only when true.
   */
  introduced?: boolean;
  /**
   * The text of its sentence before it, code spans kept in backticks (`` For Node.js 20+, use the
   * Node.js ``): which program the sentence is about. Set only for flags, when not empty.
   */
  before?: string;
  /**
   * For a flag named as one (`` The `--experimental-strip-types` flag was introduced in Node.js
   * v22.6.0 ``): the rest of its sentence after `flag`/`option`, which may name the program it
   * belongs to. Set only then.
   */
  after?: string;
  /** The prefix as written: `--`, `-`, `+`, `++`, `~`, or `''` for a bare name. */
  prefix: string;
  /**
   * The environment variable the span names, when its sentence says it is one (`` the
   * `QUAMASH_QTIMPL` environment variable ``; issue #31): the name without `$`, `${…}` or a value.
   */
  envName?: string;
  location: SourceLocation;
}

/** A diagnostic produced while reading input (not by a rule): `parse-error` and warnings. */
export interface InputDiagnostic {
  ruleId: 'parse-error';
  severity: 'error' | 'warn';
  message: string;
  location: SourceLocation;
  /**
   * The other files the message says were not read, when one warning stands for a group (the
   * Python sources over the run's budget: located at the first, naming a few): a config name
   * that may be defined in one of them is said to be unread, not missing.
   */
  alsoUnread?: string[];
}

/**
 * The joined model the rules run over: commands with their specs, their reference sections, the
 * usages in examples, and every document (for link resolution).
 */
export interface Model {
  /** Absolute path of the project root. */
  root: string;
  commands: CommandSpec[];
  /** Config classes found in source, by qualified name. */
  classes: Map<string, ConfigClass>;
  /**
   * Documents that name a command (or hold a global-options heading): the only ones that can
   * hold reference sections or examples. Others are reachable through {@link Model.doc}.
   */
  docs: DocFile[];
  /** Reference sections, each tied to command names that resolve to `commands`. */
  sections: ReferenceSection[];
  /** Usages whose command resolves to a known command. */
  usages: Usage[];
  /** Parameters accepted by every command (never flagged as unknown or undocumented). */
  globalParams: Set<string>;
  /**
   * True when the code of the command's own package reads `name` as a config key outside the
   * command's config classes: an identifier-like string literal (`cfg.get("name")`), a field
   * of a config class that is no command's config (a nested or helper config), or a key that a
   * YAML config of the project interpolates (`${name}`). Hydra apps share
   * one global config, so such a key is not drift. A parameter of *another command* (config field
   * or CLI flag) never counts, since passing it here is the classic copy-paste mistake, unless that
   * command is a repository helper script (`CommandSpec.script`), whose flags often forward global
   * keys to the app (`--policy_base_url` → `+policy_base_url=`).
   */
  isReadElsewhere(command: CommandSpec, name: string): boolean;
  /**
   * Issue #31: how far an environment variable the code does not read may be called unknown
   * (documented or set in an example): `excluded` for a well-known variable (`HOME`, `CI`,
   * `GITHUB_*`), one a computed read may produce, or one the code's text mentions; `own` when it is
   * in the project's namespace (shares its first word with a variable the code reads); `foreign`
   * otherwise (another program's, `OPENAI_API_KEY`): drift only as a near miss of a read variable.
   * Absent: no env vars are judged.
   */
  envNameStatus?(name: string): EnvNameStatus;
  /**
   * Issue #31: documents that document environment variables or set them in examples while the
   * code docdrift reads reads none a user sets (no `environment` command): said in a run note.
   */
  envUnchecked?: string[];
  /** Returns the command a name or alias refers to. */
  commandByName(name: string): CommandSpec | undefined;
  /** Reference sections documenting the command (global sections excluded). */
  sectionsFor(command: CommandSpec): ReferenceSection[];
  /** Global reference sections (apply to every command). */
  globalSections: ReferenceSection[];
  /** CLI flags named in prose on pages that belong to one command (see `src/link/prose-flags.ts`). Optional: filled by the link stage. */
  proseFlags?: ProseFlag[];
  /**
   * Heading blocks reference inference considered (issue #29), assigned or not, for `--debug`,
   * `init` and first-run notes. Optional: filled by the link stage.
   */
  inferences?: SectionInference[];
  /**
   * Examples whose check ended at a word after a group that names none of its sub-commands
   * (`ns genselect --model m`, `llm python -m pip …`): the words after it were not checked.
   * Optional: filled by the link stage.
   */
  unknownSubcommands?: UnknownSubcommand[];
  /**
   * CLI flags examples write with dashes the code does not declare for the parameter of that name
   * (`-g` where argparse declares only `--g`: {@link ParamSpec.optionStrings}): the program rejects
   * them, so they pass no parameter and are not among {@link usages}. `name` is the bare name, the
   * parameter's; `prefix` the dashes written. Optional: filled by the link stage.
   */
  misspeltFlags?: Usage[];
  /** True when a parameter name matches a configured ignore pattern. */
  isIgnored(name: string): boolean;
  /** The document at a project-relative path, any document of the project (parsed on first request). */
  doc(file: string): DocFile | undefined;
  /** Problems met while reading input (unparseable files); the `parse-error` rule reports them. */
  diagnostics: InputDiagnostic[];
  /**
   * The exact text of a document the run read (project-relative path), for rules that build
   * `--fix` edits (issue #5): edits are UTF-16 offsets into this text. `undefined` for a file the
   * run did not read. Optional so that hand-built models need not provide it.
   */
  source?(file: string): string | undefined;
}

/**
 * One heading block that reference inference considered: whether its rows were assigned to a
 * command, the best candidate, and why, in one sentence.
 */
export interface SectionInference {
  file: string;
  /** The heading's line. */
  line: number;
  heading: string;
  /** The command the block was assigned to; absent when the match was not clear. */
  command?: string;
  /** The best candidate command and how many rows name its own parameters. */
  best?: string;
  shared?: number;
  /** Rows that counted. */
  rows: number;
  /** "12 of 14 rows are parameters of `autoforge`", or why nothing was assigned. */
  evidence: string;
}
