/**
 * Environment variables in Python code, read statically (issue #31): pydantic-settings fields,
 * direct reads of `os.environ`/`os.getenv`, and the env fallbacks of click/typer flags.
 *
 * Two steps, so that the per-file cache holds the first: `scanEnvReads` (env-scan.ts) runs while a
 * file is scanned (its result is part of the file's `ModuleInfo`), {@link pythonEnv} runs over all files
 * (names given by constants of other modules, settings classes through project bases).
 *
 * Semantics followed:
 * - pydantic-settings, "Environment variable names"
 *   (https://docs.pydantic.dev/latest/concepts/pydantic_settings/#environment-variable-names):
 *   the name is `env_prefix` + the field name; a field with `validation_alias` (else `alias`) is read
 *   under that name only, without the prefix (`AliasChoices("A", "B")`: each of them, the first
 *   found wins), and also under prefix + field name when `populate_by_name=True`; names are
 *   case-insensitive unless `case_sensitive=True`; with `env_nested_delimiter="__"` the field `db`
 *   of a nested model is also set field by field (`APP_DB__HOST`), and always as one JSON value
 *   (`APP_DB`). pydantic v1 `Field(env="X")`/`env=["X", "Y"]` names the variables outright.
 * - Python's `os` module: `os.environ[...]` raises when the variable is unset (required),
 *   `os.environ.get(k, d)`, `os.getenv(k, d)` and `os.environ.setdefault(k, d)` return `d`.
 * - click, "Values from Environment Variables"
 *   (https://click.palletsprojects.com/en/stable/options/#values-from-environment-variables):
 *   `envvar=` names the variable(s) of an option; see flags-click.ts for `auto_envvar_prefix`.
 */
import type { DynamicEnvRead, EnvExtraction, InternalEnvVar, ParamSpec, SourceLocation } from '../../model/types.js';
import { opaqueFieldType, unionMembers, type ConstructionCall, type ConstructionSites } from './env-internal.js';
import type { RawEnvRead } from './env-scan.js';
import type { Resolver } from './resolve.js';
import type { ModuleInfo, RawClass, RawField } from './scan.js';
import type { FlagCommand } from './types.js';
import type { PyValue } from './values.js';

// ---------------------------------------------------------------------------------------------
// Whole-project step

/** External bases that make a pydantic model a settings class read from the environment. */
const SETTINGS_BASES = new Set([
  'pydantic_settings.BaseSettings', 'pydantic_settings.main.BaseSettings',
  'pydantic.BaseSettings', 'pydantic.env_settings.BaseSettings',
  'pydantic.v1.BaseSettings', 'pydantic.v1.env_settings.BaseSettings',
]);

const PYDANTIC_FIELD = new Set(['pydantic.Field', 'pydantic.fields.Field', 'pydantic.v1.Field', 'pydantic.v1.fields.Field']);
const ALIAS_CHOICES = new Set(['pydantic.AliasChoices', 'pydantic.aliases.AliasChoices']);

/** What {@link pythonEnv} needs of the class analysis in index.ts. */
export interface SettingsHost {
  resolver: Resolver;
  modules: ReadonlyMap<string, ModuleInfo>;
  /** The class's MRO: repository classes, and external bases by qualified name. */
  mro(cls: RawClass): Array<RawClass | string>;
  /** The module that declares a repository class. */
  moduleOf(cls: RawClass): ModuleInfo | undefined;
}

/** One settings class as `extractPython` found it: its raw class and its resolved fields. */
export interface SettingsCandidate {
  cls: RawClass;
  fields: ParamSpec[];
  kind: string;
}

/** Value of a module constant by qualified name (`pkg.consts.TOKEN_VAR`), following `from … import` re-exports. */
function constantValue(modules: ReadonlyMap<string, ModuleInfo>, qualified: string, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  const segments = qualified.split('.');
  for (let i = segments.length - 1; i > 0; i--) {
    const module = modules.get(segments.slice(0, i).join('.'));
    if (!module) continue;
    const rest = segments.slice(i);
    const own = module.constants.get(rest.join('.'));
    if (own !== undefined) return own;
    const binding = module.bindings.get(rest[0]!);
    if (!binding) return undefined;
    const target = binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
    return constantValue(modules, [target, ...rest.slice(1)].join('.'), depth + 1);
  }
  return undefined;
}

/** A string option value: a literal, or a module constant (`env_prefix=PREFIX`). */
function stringOption(host: SettingsHost, module: ModuleInfo, value: PyValue | undefined): string | undefined {
  if (!value) return undefined;
  if (value.str !== undefined) return value.str;
  if (!value.dotted) return undefined;
  const local = module.constants.get(value.dotted.join('.'));
  if (local !== undefined) return local;
  const binding = module.bindings.get(value.dotted[0]!);
  if (!binding) return undefined;
  const target = binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
  return constantValue(host.modules, [target, ...value.dotted.slice(1)].join('.'));
}

/** Strings of a value: `"X"`, `["X", "Y"]`/`("X", "Y")` (by text), `AliasChoices("X", "Y")`. */
function stringsOf(host: SettingsHost, module: ModuleInfo, value: PyValue | undefined): string[] {
  if (!value) return [];
  if (value.str !== undefined) return [value.str];
  if (value.call?.callee) {
    const resolved = host.resolver.resolve(module, value.call.callee);
    if (resolved?.kind === 'external' && ALIAS_CHOICES.has(resolved.qualifiedName)) return value.call.args.flatMap((a) => (a.str !== undefined ? [a.str] : []));
    return [];
  }
  const list = /^\s*[[(]([\s\S]*)[\])]\s*$/.exec(value.text);
  if (!list) return [];
  const out: string[] = [];
  for (const m of list[1]!.matchAll(/(["'])((?:(?!\1)[^\\\n])*)\1/g)) out.push(m[2]!);
  return out;
}

/** The keyword arguments of a field's pydantic `Field(…)` calls (its value, `Annotated` metadata). */
function fieldKwargs(host: SettingsHost, module: ModuleInfo, field: RawField): Map<string, PyValue> {
  const kwargs = new Map<string, PyValue>();
  const calls = [...field.annotatedCalls, ...(field.value?.call ? [field.value.call] : [])];
  for (const call of calls) {
    const resolved = call.callee ? host.resolver.resolve(module, call.callee) : undefined;
    if (resolved?.kind !== 'external' || !PYDANTIC_FIELD.has(resolved.qualifiedName)) continue;
    for (const [key, value] of call.kwargs) kwargs.set(key, value);
  }
  return kwargs;
}

/**
 * The keywords that pass a field to the class's initialiser, as pydantic-settings'
 * `InitSettingsSource` matches them: its `validation_alias` (else `alias`) names, and the field
 * name when it has none or with `populate_by_name`; lower-case unless `case_sensitive`.
 */
function initNames(host: SettingsHost, module: ModuleInfo, field: RawField, options: SettingsOptions): Set<string> {
  const kwargs = fieldKwargs(host, module, field);
  const aliases = stringsOf(host, module, kwargs.get('validation_alias'));
  const names = aliases.length > 0 ? aliases : stringsOf(host, module, kwargs.get('alias'));
  if (names.length === 0 || options.populateByName) names.push(field.name);
  return new Set(names.map((n) => (options.caseSensitive ? n : n.toLowerCase())));
}

/** The env names a field gives outright: `validation_alias`, else `alias`, else v1 `env=`. Undefined when none. */
function explicitNames(host: SettingsHost, module: ModuleInfo, field: RawField): string[] | undefined {
  const kwargs = fieldKwargs(host, module, field);
  for (const key of ['validation_alias', 'alias', 'env']) {
    const names = stringsOf(host, module, kwargs.get(key));
    if (names.length > 0) return names;
  }
  return undefined;
}

interface SettingsOptions {
  prefix: string;
  caseSensitive: boolean;
  delimiter?: string;
  populateByName: boolean;
}

/** The class's options, its bases' first and its own last (pydantic merges `model_config` down the MRO). */
function settingsOptions(host: SettingsHost, cls: RawClass): SettingsOptions {
  const merged = new Map<string, { value: PyValue; module: ModuleInfo }>();
  const mro = host.mro(cls);
  for (let i = mro.length - 1; i >= 0; i--) {
    const entry = mro[i];
    if (entry === undefined || typeof entry === 'string') continue;
    const module = host.moduleOf(entry);
    if (module) for (const [key, value] of entry.settingsConfig ?? []) merged.set(key, { value, module });
  }
  const str = (key: string): string | undefined => {
    const item = merged.get(key);
    return item ? stringOption(host, item.module, item.value) : undefined;
  };
  const delimiter = str('env_nested_delimiter');
  return {
    prefix: str('env_prefix') ?? '',
    caseSensitive: merged.get('case_sensitive')?.value.bool === true,
    ...(delimiter ? { delimiter } : {}),
    populateByName: merged.get('populate_by_name')?.value.bool === true,
  };
}

/** The raw field `name` as the MRO resolves it (the most derived class declaring it, `owner`) and its module. */
function rawField(host: SettingsHost, cls: RawClass, name: string): { field: RawField; module: ModuleInfo; owner: RawClass } | undefined {
  for (const entry of host.mro(cls)) {
    if (typeof entry === 'string') continue;
    const field = entry.fields.find((f) => f.name === name);
    const module = host.moduleOf(entry);
    if (field && module) return { field, module, owner: entry };
  }
  return undefined;
}

/** Whether a class is a pydantic-settings class: its MRO reaches `BaseSettings` (through project bases too). */
export function isSettings(host: SettingsHost, cls: RawClass): boolean {
  return host.mro(cls).some((entry) => typeof entry === 'string' && SETTINGS_BASES.has(entry));
}

/** An `env-var` ParamSpec with the model's key order. */
function envSpec(base: ParamSpec, fields: { name: string; aliases: string[]; owner: string; dest?: string; location: SourceLocation; source: ParamSpec['envSource']; caseInsensitive: boolean; required?: boolean }): ParamSpec {
  return {
    name: fields.name,
    aliases: fields.aliases,
    ...(base.type !== undefined ? { type: base.type } : {}),
    ...(base.default ? { default: base.default } : {}),
    required: fields.required ?? base.required,
    ...(base.description !== undefined ? { description: base.description } : {}),
    deprecated: base.deprecated,
    hidden: base.hidden,
    origin: 'env-var',
    owner: fields.owner,
    location: fields.location,
    ...(fields.dest !== undefined ? { dest: fields.dest } : {}),
    envSource: fields.source,
    ...(fields.caseInsensitive ? { envCaseInsensitive: true } : {}),
  };
}

/**
 * Why users cannot set a settings field through the environment (see env-internal.ts), or
 * undefined: passed by keyword at every construction in `calls` (none: not judged), or typed only
 * by project classes no text can give.
 */
function internalField(host: SettingsHost, cls: RawClass, raw: { field: RawField; module: ModuleInfo; owner: RawClass }, options: SettingsOptions, calls: readonly ConstructionCall[]): Omit<InternalEnvVar, 'name'> | undefined {
  if (calls.length > 0) {
    const keys = initNames(host, raw.module, raw.field, options);
    if (calls.every((call) => call.keywords.some((k) => keys.has(options.caseSensitive ? k : k.toLowerCase())))) {
      const first = calls[0]!.location;
      const where = `${first.file}:${first.line}${calls.length > 1 ? ` and ${calls.length - 1} more` : ''}`;
      return { location: first, reason: `passed by keyword at every construction of ${cls.name} (${where}), which pydantic-settings prefers to the environment` };
    }
  }
  const type = opaqueFieldType(host, cls, raw.owner, raw.module, raw.field);
  if (type !== undefined) return { location: raw.field.location, reason: `its type, ${type}, is not read from text` };
  // `theme: Theme = Theme()` where `Theme` is a settings class of its own (mealie): it reads its
  // own variables (`THEME_LIGHT_PRIMARY`…), documented as such; the one JSON variable of the whole
  // field (`THEME`) is not what users set.
  const members = unionMembers(raw.field.annotation);
  if (members && members.length > 0) {
    const classes = members.map((dotted) => host.resolver.resolve(raw.module, dotted, undefined, raw.owner));
    if (classes.every((c) => c?.kind === 'class' && c.cls !== cls && isSettings(host, c.cls))) {
      return { location: raw.field.location, reason: `its type, ${members.map((m) => m.join('.')).join(' | ')}, is a settings class that reads its own variables` };
    }
  }
  return undefined;
}

/**
 * The environment variables of the whole project: every direct read of every scanned module (names
 * given by other modules' constants resolved here; unresolved or computed names become dynamic
 * reads with their literal prefix), then every field of every pydantic-settings class (see the
 * file's docstring), `owner` its qualified name, `dest` the field path (`db.host` below a nested
 * model). Settings classes are the candidates whose MRO reaches `BaseSettings`, through project
 * bases too. Fields whose env names pydantic computes from something unread (an `AliasPath`, a
 * computed alias) get the prefix + field name.
 *
 * `internal` names the variables of settings fields users cannot or do not set (env-internal.ts):
 * a field passed by keyword at every construction of its class (`sites`), or typed only by project
 * classes no text can give. A variable is internal only when every read of it is such a field
 * (a direct `os.getenv` of the same name, or another class reading it, keeps it a user setting).
 *
 * @param infos scanned modules, each once (shadowed duplicates left out)
 * @param candidates pydantic classes with their resolved fields (`ConfigClass.fields`), by qualified name
 * @param sites how the project builds some settings classes (`constructionSites`), by qualified name
 */
export function pythonEnv(host: SettingsHost, infos: readonly ModuleInfo[], candidates: ReadonlyMap<string, SettingsCandidate>, sites?: ReadonlyMap<string, ConstructionSites>): EnvExtraction {
  const vars: ParamSpec[] = [];
  const judged = new Map<ParamSpec, Omit<InternalEnvVar, 'name'>>();
  const dynamic: DynamicEnvRead[] = [];
  // Helpers (`def env_int(name, default)` reading `os.getenv(name, default)`), by `module:function`.
  // A helper may read several variables from its name (`os.getenv(s + "_FILE")`, then `os.getenv(s)`).
  const helpers = new Map<string, Array<RawEnvRead & { helper: NonNullable<RawEnvRead['helper']> }>>();
  for (const info of infos) {
    for (const read of info.envReads ?? []) {
      if (!read.helper || host.modules.get(info.module) !== info) continue;
      const key = `${info.module}:${read.helper.fn}`;
      const list = helpers.get(key);
      if (list) list.push({ ...read, helper: read.helper });
      else helpers.set(key, [{ ...read, helper: read.helper }]);
    }
  }
  const usedHelpers = new Set<string>();
  const helperReads: ParamSpec[] = [];
  if (helpers.size > 0) {
    for (const info of infos) {
      for (const call of info.envCalls ?? []) {
        const resolved = host.resolver.resolve(info, call.callee);
        if (resolved?.kind !== 'function') continue;
        const key = `${resolved.module.module}:${resolved.fn.name}`;
        for (const helper of helpers.get(key) ?? []) {
          const { keyIndex, keyParam, defaultIndex, defaultParam, before = '', after = '' } = helper.helper;
          const arg = call.args[keyIndex] ?? call.kwargs.find(([k]) => k === keyParam)?.[1];
          if (arg?.str === undefined || !arg.location) continue;
          usedHelpers.add(key);
          const def = (defaultIndex !== undefined ? call.args[defaultIndex] : undefined) ?? call.kwargs.find(([k]) => k === defaultParam)?.[1];
          helperReads.push({
            name: before + arg.str + after,
            aliases: [],
            ...(helper.type !== undefined ? { type: helper.type } : {}),
            // The call's argument for the default parameter, else a default the helper writes itself (`os.environ.get(name, "0")`).
            ...(def ? { default: { kind: def.literal ? 'literal' : 'expression', text: def.text } } : defaultIndex === undefined && helper.default ? { default: helper.default } : {}),
            required: helper.required && !def,
            deprecated: false,
            hidden: false,
            origin: 'env-var',
            owner: info.module,
            location: arg.location,
            envSource: 'read',
          });
        }
      }
    }
  }
  for (const info of infos) {
    for (const read of info.envReads ?? []) {
      if (read.helper && usedHelpers.has(`${info.module}:${read.helper.fn}`)) continue;
      const name = read.name ?? (read.ref !== undefined ? constantValue(host.modules, read.ref) : undefined);
      if (name === undefined) {
        dynamic.push({ prefix: read.prefix ?? '', location: read.location, construct: read.construct });
        continue;
      }
      vars.push({
        name,
        aliases: [],
        ...(read.type !== undefined ? { type: read.type } : {}),
        ...(read.default ? { default: read.default } : {}),
        required: read.required,
        deprecated: false,
        hidden: false,
        origin: 'env-var',
        owner: info.module,
        location: read.location,
        envSource: 'read',
      });
    }
  }
  vars.push(...helperReads);
  for (const { cls, fields, kind } of candidates.values()) {
    if (kind !== 'pydantic' || !isSettings(host, cls)) continue;
    const options = settingsOptions(host, cls);
    const spell = (name: string): string => (options.caseSensitive ? name : name.toUpperCase());
    const built = sites?.get(cls.qualifiedName);
    const calls = built && !built.opaque ? built.calls : [];
    for (const spec of fields) {
      const raw = rawField(host, cls, spec.name);
      const explicit = raw ? explicitNames(host, raw.module, raw.field) : undefined;
      const derived = spell(options.prefix + spec.name);
      const names = explicit ? [...explicit, ...(options.populateByName && !explicit.includes(derived) ? [derived] : [])] : [derived];
      const common = { owner: cls.qualifiedName, source: 'settings' as const, caseInsensitive: !options.caseSensitive };
      const entry = envSpec(spec, { ...common, name: names[0]!, aliases: names.slice(1), dest: spec.name, location: spec.location });
      vars.push(entry);
      const why = raw ? internalField(host, cls, raw, options, calls) : undefined;
      if (why) judged.set(entry, why);
      if (options.delimiter !== undefined && spec.typeRef !== undefined) {
        nested(spec.typeRef, names[0]!, spec.name, spec.required, new Set([cls.qualifiedName]));
      }
      function nested(typeRef: string, envPrefix: string, path: string, required: boolean, seen: Set<string>): void {
        const model = candidates.get(typeRef);
        if (!model || seen.has(typeRef) || seen.size > 6) return;
        const inner = new Set(seen).add(typeRef);
        for (const sub of model.fields) {
          const name = envPrefix + options.delimiter! + (options.caseSensitive ? sub.name : sub.name.toUpperCase());
          const dest = `${path}.${sub.name}`;
          const subRequired = required && sub.required;
          vars.push(envSpec(sub, { ...common, name, aliases: [], dest, location: sub.location, required: subRequired }));
          if (sub.typeRef !== undefined) nested(sub.typeRef, name, dest, subRequired, inner);
        }
      }
    }
  }
  // A variable is internal when every read of it is (names as users set them: see `envCaseInsensitive`).
  const byName = new Map<string, ParamSpec[]>();
  for (const v of vars) {
    const name = v.envCaseInsensitive ? v.name.toUpperCase() : v.name;
    const list = byName.get(name);
    if (list) list.push(v);
    else byName.set(name, [v]);
  }
  const internal: InternalEnvVar[] = [];
  for (const [name, reads] of byName) {
    const why = judged.get(reads[0]!);
    if (why && reads.every((v) => judged.has(v))) internal.push({ name, ...why });
  }
  return { vars, dynamic, ...(internal.length > 0 ? { internal } : {}) };
}

/**
 * The env fallbacks of CLI flags (click/typer `envvar=`, click `auto_envvar_prefix`; see
 * `ParamSpec.envVars`) as `env-var` ParamSpecs with `envSource: 'flag'`: one per variable, `owner`
 * = the command's target (`pkg.cli:main`), `dest` = the flag's name as users type it (`--port`
 * → `port`), the flag's type, default, description and location. The first variable of a flag is
 * the name, the others its aliases (click tries them in order).
 */
export function flagEnvVars(commands: readonly FlagCommand[]): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const command of commands) {
    for (const param of command.params) {
      const [first, ...rest] = param.envVars ?? [];
      if (first === undefined) continue;
      out.push(envSpec({ ...param, required: false }, { name: first, aliases: rest, owner: command.target, dest: param.name, location: param.location, source: 'flag', caseInsensitive: false }));
    }
  }
  return out;
}


