/** Python extraction: pydantic models and dataclasses (fields resolved across modules) and which config classes each top-level function builds. */
import type { Tree } from 'web-tree-sitter';
import type { ConfigClass, EnvExtraction, InputDiagnostic, ParamSpec } from '../../model/types.js';
import type { NameOp } from './argv-dispatch.js';
import { isSettings, pythonEnv, type SettingsCandidate } from './env.js';
import { classesToFollow, constructionSites } from './env-internal.js';
import { toParamSpec } from './fields.js';
import { moduleNameForFile } from './module-name.js';
import { getPythonParser, parsePython } from './parser.js';
import { loadUnicodeNames, mayHoldNamedEscape } from './unicode-names.js';
import { Resolver, type Resolved } from './resolve.js';
import { FIELD_COST_CHARS, FIELD_COST_NODES, scanModule, type ModuleInfo, type RawClass, type RawField, type RawFunction } from './scan.js';
import { isNonProductPath } from '../../shared/paths.js';
import { InheritedBudget, MAX_INHERITED_FIELDS } from '../inherited-budget.js';
import { pushUnique } from '../../shared/arrays.js';

export { moduleNameForFile } from './module-name.js';

/** One Python file to read. */
export interface PythonSource {
  /** Project-relative POSIX path (`src/pkg/mod.py`). */
  file: string;
  /** The file's full text (possibly read only when first asked for: see `hash`). */
  text: string;
  /**
   * The content hash of the file's bytes, when the run cache computed it: per-file cache pieces
   * are then keyed by it rather than by the text, which is read only if a piece is missing.
   */
  hash?: string;
}

/** One script-name branch of a `sys.argv[0]` dispatcher; see {@link PythonExtraction.argvDispatch}. */
export interface DispatchRoute {
  name: string;
  transform: NameOp[];
  /** `module:function` the branch runs. */
  target: string;
  /** Sub-command words of {@link target}'s program the branch runs (absent: the function itself). */
  words?: string[];
}

/** What {@link extractPython} found. */
export interface PythonExtraction {
  /**
   * Every pydantic model and dataclass found, sorted by qualified name, with fields resolved
   * (inherited ones included, in Python's MRO order).
   */
  classes: ConfigClass[];
  /**
   * For each top-level function, keyed `module:function` (the form entry points use, e.g.
   * `nemo_gym.rollout_collection:collect_rollouts`), the qualified names of the config classes
   * it builds, in order of first appearance. Only functions that build at least one are present.
   */
  functionConfigs: Map<string, string[]>;
  /**
   * For a function that also builds config classes from *another* expression than its input
   * (`RolloutCollectionConfig.model_validate(derived_dict)` after `E2EConfig.model_validate(cfg)`),
   * those classes: their fields are accepted by the command (the derived dict usually copies the
   * input) but are not the command's own parameters to document.
   */
  functionSecondaryConfigs: Map<string, string[]>;
  /**
   * Keys of {@link functionConfigs} whose classes were found only by following calls (the
   * function builds none itself and takes none as a parameter), and not from the parsed
   * arguments (`X(**vars(args))`, `X.model_validate(vars(ns))`). When the command also has a CLI
   * parser whose flags are read, such a class is a file or API schema the program loads on the
   * way (aider's `ModelSettings` from `.aider.model.settings.yml`), not its parameters.
   */
  functionConfigsThroughCalls: Set<string>;
  /**
   * Identifier-like string literals (`"policy_base_url"`, `cfg.get("error_on_almost_servers")`)
   * by top-level package (`nemo_gym`): keys the code may read from a shared config dict.
   */
  stringKeys: Map<string, Set<string>>;
  /** One `parse-error` per file with syntax errors, at the first ERROR/MISSING node. */
  diagnostics: InputDiagnostic[];
  /**
   * The parsed modules that {@link ExtractPythonOptions.retain} asked to keep, in parsing order,
   * so another pass (CLI flags) reads them without parsing and scanning again. Their trees live
   * in wasm memory until someone calls `tree.delete()`: hand them to `extractPythonFlags`, which
   * does, or delete them yourself. Empty when nothing was retained.
   */
  retained: ParsedPythonModule[];
  /**
   * Where an entry-point target is defined: `pkg.__main__:app`, whose module only does
   * `from pkg.app import app`, → `pkg.app:app`, following `from … import` re-exports (also through
   * `__init__.py`) up to a bounded depth. A target whose module is not in the repository, or that
   * the module defines itself, comes back unchanged.
   */
  canonicalTarget: (target: string) => string;
  /**
   * Dispatcher functions shared by several console scripts (issue 12, item 4): for a function,
   * keyed `module:function`, that switches on the name it was run as (`sys.argv[0]`, through a
   * dict literal or `if name == "x"` branches), the repository function each script name runs
   * (`tool-train` → `pkg.cli:train`), or the program it re-enters with sub-command words put in
   * front of the arguments (`ng_collect_rollouts` → `pkg.cli.main:main` with `eval run`). `name`
   * is compared with a script name after `transform` (`str` methods, e.g. `removeprefix("ng_")`).
   * Only branches whose callee resolves to a repository function.
   */
  argvDispatch: Map<string, DispatchRoute[]>;
  /**
   * Environment variables the sources read (issue #31): direct `os.environ`/`os.getenv` reads and
   * pydantic-settings fields (see `pythonEnv` in env.ts). CLI flags' env fallbacks are not here:
   * they come with the flags (`flagEnvVars`).
   */
  env: EnvExtraction;
  /** Upper-case words with an underscore in the sources' texts (`ModuleInfo.envWords`), distinct (issue #31). */
  envWords: string[];
  /**
   * Sources not read because the class fields of the sources read before them (in the budget's
   * order, see {@link ExtractPythonOptions.classFieldBudget}) reached the run's budget, in the
   * given order, with the class fields that were read; absent when every source was read.
   */
  overClassFieldBudget?: { files: string[]; read: number; limit: number };
}

/** A parsed and scanned Python file, kept for a second pass over its syntax tree. */
export interface ParsedPythonModule {
  /** Project-relative POSIX path. */
  file: string;
  /** The dotted module name it was scanned under (depends on the package roots). */
  module: string;
  tree: Tree;
  info: ModuleInfo;
}

/** Options for {@link extractPython}. */
export interface ExtractPythonOptions {
  /**
   * Directories (project-relative) that are import roots rather than packages. Default: `['src']`
   * unless the sources include `src/__init__.py`, then `[]`.
   */
  packageRoots?: string[];
  /**
   * Files whose syntax tree and scan to keep for a later pass (see
   * {@link PythonExtraction.retained}); by default none are kept.
   */
  retain?: (source: PythonSource) => boolean;
  /**
   * Scans of earlier runs (the engine's per-file cache): a file found here is not parsed (unless
   * `retain` keeps its tree); every file scanned is offered to it. Default: none.
   */
  scans?: ScanCache;
  /**
   * Files another thread is parsing and scanning (the Python worker, src/engine/python-worker.ts):
   * their scans are awaited from `scans` (path → [module name, scan]) after every other file is
   * read, instead of being computed here; a file missing from it (or the whole map `undefined`:
   * the thread failed) is scanned here. Files kept by `retain` or found in the scan cache are not
   * awaited. The result is the same either way.
   */
  deferred?: { files: ReadonlySet<string>; scans: Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined> };
  /**
   * Files under the class-field budget that another thread is scanning ahead (the Python scan
   * worker, {@link scanPythonSources}): when the budget reaches one of them (in its order, so the
   * engine gives that thread the last ones), its scan is awaited from `scans`; a file missing from
   * it (or the whole map `undefined`: the thread failed or was stopped) is scanned here. The budget
   * is spent exactly as if every file were scanned here: the result is the same either way.
   */
  shared?: { files: ReadonlySet<string>; scans: Promise<ReadonlyMap<string, readonly [string, ModuleInfo]> | undefined> };
  /**
   * The run's budget of Python class fields ({@link MAX_PYTHON_CLASS_FIELDS}): which sources it
   * leaves out, and in what order it is spent. Files kept by `retain`, files in `deferred` and
   * files `exempt` names are always read and not counted (the engine exempts the files read for
   * CLI flags, bounded by their own token budget, so that the result does not depend on whether
   * their scans come from the flags worker or the cache). The others are read in the order of
   * `rank` (lower first; ties in the given order) while the class fields read so far are under
   * `limit`; the rest are not read (see {@link PythonExtraction.overClassFieldBudget}).
   * Default: the budget with all ranks equal and nothing exempt beyond `retain` and `deferred`.
   */
  classFieldBudget?: { limit?: number; exempt?: (source: PythonSource) => boolean; rank?: (source: PythonSource) => number };
}

/**
 * The most Python class fields one run reads ({@link ModuleInfo.classFields}: each class counts two
 * more, so that empty classes are bounded too; a field of a long annotation or value counts more,
 * `fieldCost` in scan.ts), over the sources not read for CLI flags. Every
 * field of every class is scanned, resolved, made a parameter and a model candidate, at about
 * 30-55 µs of CPU and 1.2-1.6 KB each, a class about twice that: 60 generated modules of 100
 * pydantic classes of 100 fields (606,000 fields) took 19-27 s and 651-774 MB, 60 modules of 7,000
 * empty classes 30 s and 1.2 GB (#33 s45 sweep G2). The largest real project measured counts
 * 8,594 (NeMo Gym: 1,670 classes, 5,254 fields; of 133 projects measured, the next is
 * datamodel-code-generator's 2,759); 100,000 keeps 11 times that, and a run that reaches it took
 * 5-6 s of CPU and 250-300 MB in all (fields, or empty classes). Sources are read whole: the one
 * that reaches the budget is read, the later ones are not (one warning, see `extractCode`).
 */
export const MAX_PYTHON_CLASS_FIELDS = 100_000;

/** How the class-field budget ({@link MAX_PYTHON_CLASS_FIELDS}) counts, as the warning of the sources it leaves out says it. */
export const CLASS_FIELD_COST_NOTE = `a field counting one per ${FIELD_COST_NODES} syntax nodes or ${FIELD_COST_CHARS} characters of its statement, at least one, and a class two`;

/** A store of {@link ModuleInfo} scans by file text and module name (see {@link ExtractPythonOptions.scans}). */
export interface ScanCache {
  /** The scan of `source` under `module`, when stored (a copy the caller may own). */
  get(source: PythonSource, module: string): ModuleInfo | undefined;
  set(source: PythonSource, module: string, info: ModuleInfo): void;
  /** Whether a scan of `source` under `module` is stored, without reading it (nor counting a hit or miss). */
  has?(source: PythonSource, module: string): boolean;
}

/** External bases that make a class a pydantic config model. `RootModel` is deliberately absent. */
const PYDANTIC_BASES = new Set([
  'pydantic.BaseModel', 'pydantic.main.BaseModel',
  'pydantic.BaseSettings', // pydantic v1
  'pydantic.v1.BaseModel', 'pydantic.v1.main.BaseModel', 'pydantic.v1.BaseSettings',
  'pydantic.generics.GenericModel', 'pydantic.v1.generics.GenericModel',
  'pydantic_settings.BaseSettings', 'pydantic_settings.main.BaseSettings',
]);

/** Decorators that make a class a dataclass. */
const DATACLASS_DECORATORS = new Set(['dataclasses.dataclass', 'pydantic.dataclasses.dataclass', 'pydantic.v1.dataclasses.dataclass']);

/** Methods that build an instance of the class they are called on. */
const BUILDER_METHODS = new Set([
  'model_validate', 'model_validate_json', 'model_validate_strings', 'model_construct',
  'parse_obj', 'parse_raw', 'parse_file', 'construct', 'from_orm',
]);
const TYPE_ADAPTER = new Set(['pydantic.TypeAdapter', 'pydantic.type_adapter.TypeAdapter']);

/** External bases that make a class a `TypedDict` (keys of a dict-valued field, see {@link ConfigClass.kind}). */
const TYPED_DICT_BASES = new Set(['typing.TypedDict', 'typing_extensions.TypedDict']);

/** A mapping annotation with type arguments: `Dict[str, X]`, `typing.Mapping[str, X]`, `dict[str, X]`. */
const MAPPING_WITH_ARGS = /^(?:typing\.|t\.|collections\.abc\.|collections\.)?(?:Dict|dict|Mapping|MutableMapping|OrderedDict)\[(.*)\]$/s;

/** Annotations whose values take any key: dotted keys below such a field are never unknown. */
const OPEN_NAMESPACE_TYPES = /^(typing\.|t\.)?(Dict|dict|Mapping|MutableMapping|OrderedDict|defaultdict|Any|DictConfig|omegaconf\.DictConfig|object)\b/;

/**
 * The type an annotation is about, with optionality removed: `Optional[X]`, `X | None`,
 * `Union[X, None]`, `"X"` → `X`; undefined for a union of several real types.
 */
export function annotationCore(annotation: string): string | undefined {
  let text = annotation.trim();
  for (let guard = 0; guard < 8; guard++) {
    text = text.replace(/^(['"])(.*)\1$/s, '$2').trim();
    const optional = /^(?:typing\.)?Optional\[(.*)\]$/s.exec(text);
    if (optional) {
      text = optional[1]!.trim();
      continue;
    }
    const union = /^(?:typing\.)?Union\[(.*)\]$/s.exec(text);
    const parts = union ? splitTopLevel(union[1]!, ',') : splitTopLevel(text, '|');
    if (parts.length > 1 || union) {
      const real = parts.map((p) => p.trim()).filter((p) => p !== 'None' && p !== 'NoneType' && p !== '');
      if (real.length !== 1) return undefined;
      text = real[0]!;
      continue;
    }
    return text;
  }
  return text;
}

/** Splits at `sep` outside brackets. */
function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** What a builder call reads when it reads a parsed argparse namespace: `vars(args)`, `args.__dict__`, `vars(parser.parse_args())`. */
const PARSED_ARGS_SOURCE = /^vars\(|\.__dict__$|\.parse_args\(|\.parse_known_args\(/;

/** How many calls deep `functionConfigs` follows a function that builds no config class itself. */
const FOLLOW_DEPTH = 3;

/**
 * The scans of `sources` ({@link scanModule}), each parsed with tree-sitter and its tree freed at
 * once: path, module name (under `packageRoots`) and scan, in the given order. A file the parser
 * returns no tree for is left out (its caller scans it again and reports it). What the Python scan
 * worker computes for the engine ({@link ExtractPythonOptions.shared}).
 *
 * @throws Error only when the tree-sitter runtime or grammar cannot be loaded.
 */
export async function scanPythonSources(sources: ReadonlyArray<{ file: string; text: string }>, packageRoots: string[]): Promise<Array<[file: string, module: string, info: ModuleInfo]>> {
  const parser = await getPythonParser();
  const out: Array<[string, string, ModuleInfo]> = [];
  for (const source of sources) {
    if (mayHoldNamedEscape(source.text)) await loadUnicodeNames(); // `\N{name}` in a string literal
    const tree = parsePython(parser, source.text);
    if (!tree) continue;
    try {
      const module = moduleNameForFile(source.file, packageRoots);
      out.push([source.file, module, scanModule(source.file, module, tree)]);
    } finally {
      tree.delete();
    }
  }
  return out;
}

/**
 * Parses every Python source once with tree-sitter and extracts config classes and the config
 * classes each top-level function builds. Past the run's budget of class fields
 * ({@link MAX_PYTHON_CLASS_FIELDS}; see {@link ExtractPythonOptions.classFieldBudget}) the
 * remaining sources are not parsed: {@link PythonExtraction.overClassFieldBudget} lists them.
 *
 * Config classes are subclasses of pydantic `BaseModel`/`BaseSettings` (v1 or v2, or
 * `pydantic_settings.BaseSettings`), through any chain of repository classes and imports
 * (absolute, relative, aliased, re-exported, `import *`), and classes decorated with
 * `dataclasses.dataclass` or `pydantic.dataclasses.dataclass` — or by a decorator named `…dataclass`, or a
 * project function whose body calls `dataclass(…)` (a wrapper such as `@nested_dataclass(kw_only=True)`). A subclass of a dataclass is a
 * dataclass only when it is decorated itself. Field order follows Python: the class's MRO (C3
 * linearisation over repository classes; external bases are leaves) is walked from the most
 * basic class down, a redefined field keeping the position of its first definition but the
 * subclass's spec — as `dataclasses` and pydantic do. For a dataclass only dataclass bases
 * contribute fields; for a pydantic model every repository class in the MRO does.
 *
 * A file with syntax errors yields one `parse-error` diagnostic; tree-sitter's error recovery
 * still lets the intact parts be read. Nothing here throws for bad input.
 *
 * @param sources Files to read; non-`.py`/`.pyi` paths are read as Python all the same.
 * @throws Error only when the tree-sitter runtime or grammar cannot be loaded.
 */
export async function extractPython(sources: PythonSource[], options: ExtractPythonOptions = {}): Promise<PythonExtraction> {
  // The parser (a wasm module) is loaded only when some file is not in the scan cache.
  let parser: Awaited<ReturnType<typeof getPythonParser>> | undefined;
  const packageRoots = options.packageRoots ?? (sources.some((s) => s.file === 'src/__init__.py') ? [] : ['src']);
  const infos: ModuleInfo[] = [];
  const modules = new Map<string, ModuleInfo>();
  const diagnostics: InputDiagnostic[] = [];
  const retained: ParsedPythonModule[] = [];
  // A `.py` beats a `.pyi` stub of the same module; otherwise the first file wins.
  const ordered = [...sources].sort((a, b) => Number(a.file.endsWith('.pyi')) - Number(b.file.endsWith('.pyi')));
  // Each source's scan, in order: computed here, taken from the scan cache, or (a file another
  // thread is scanning: `options.deferred`) filled in once that thread's scans arrive.
  const slots: Array<{ source: PythonSource; module: string; info?: ModuleInfo; problem?: InputDiagnostic }> = [];
  const deferred: Array<(typeof slots)[number]> = [];
  const scanHere = async (slot: (typeof slots)[number], retain: boolean): Promise<void> => {
    const { source, module } = slot;
    parser ??= await getPythonParser();
    if (mayHoldNamedEscape(source.text)) await loadUnicodeNames(); // `\N{name}` in a string literal
    const tree = parsePython(parser, source.text);
    if (!tree) {
      slot.problem = {
        ruleId: 'parse-error',
        severity: 'error',
        message: `${source.file}: the Python parser returned no tree`,
        location: { file: source.file, line: 1, column: 1 },
      };
      return;
    }
    let keep = false;
    try {
      const info = scanModule(source.file, module, tree);
      slot.info = info;
      options.scans?.set(source, module, info);
      if (retain) {
        retained.push({ file: source.file, module, tree, info });
        keep = true;
      }
    } finally {
      if (!keep) tree.delete(); // trees live in wasm memory; free each one as soon as it is read
    }
  };
  // Sources neither kept, deferred nor exempt share the run's budget of class fields: read in
  // the budget's order (below) once the others are, while it lasts.
  const budget = options.classFieldBudget;
  const limit = budget?.limit ?? MAX_PYTHON_CLASS_FIELDS;
  const budgeted: Array<{ slot: (typeof slots)[number]; i: number; rank: number }> = [];
  for (const source of ordered) {
    const slot: (typeof slots)[number] = { source, module: moduleNameForFile(source.file, packageRoots) };
    slots.push(slot);
    const retain = options.retain?.(source) ?? false;
    const defer = !retain && options.deferred?.files.has(source.file) === true;
    if (!retain && !defer && budget?.exempt?.(source) !== true) {
      budgeted.push({ slot, i: budgeted.length, rank: budget?.rank?.(source) ?? 0 });
      continue;
    }
    const cached = retain ? undefined : options.scans?.get(source, slot.module);
    if (cached) slot.info = cached;
    else if (defer) deferred.push(slot);
    else await scanHere(slot, retain);
  }
  budgeted.sort((a, b) => a.rank - b.rank || a.i - b.i);
  let spent = 0;
  const overBudget = new Set<(typeof slots)[number]>();
  for (const { slot } of budgeted) {
    if (spent >= limit) {
      overBudget.add(slot);
      continue;
    }
    const cached = options.scans?.get(slot.source, slot.module);
    if (cached) slot.info = cached;
    else {
      const theirs = options.shared?.files.has(slot.source.file) ? (await options.shared.scans)?.get(slot.source.file) : undefined;
      if (theirs && theirs[0] === slot.module) {
        slot.info = theirs[1];
        options.scans?.set(slot.source, slot.module, theirs[1]);
      } else await scanHere(slot, false);
    }
    spent += slot.info?.classFields ?? 0;
  }
  if (deferred.length > 0) {
    // The other thread's scan of a file under the same module name is the one this thread would
    // compute (same text, same scanner); a file it could not scan is scanned here.
    const scans = await options.deferred!.scans;
    for (const slot of deferred) {
      const theirs = scans?.get(slot.source.file);
      if (theirs && theirs[0] === slot.module) {
        slot.info = theirs[1];
        options.scans?.set(slot.source, slot.module, theirs[1]);
      } else await scanHere(slot, false);
    }
  }
  for (const slot of slots) {
    const { module, info, problem } = slot;
    if (overBudget.has(slot)) continue;
    if (problem) diagnostics.push(problem);
    if (!info) continue;
    infos.push(info);
    if (!modules.has(module)) modules.set(module, info);
    if (info.diagnostic) diagnostics.push(info.diagnostic);
  }

  const analysis = new Analysis(new Resolver(modules), modules);
  const classes: ConfigClass[] = [];
  const candidates = new Map<string, SettingsCandidate>();
  for (const info of infos) {
    for (const cls of info.allClasses) {
      const configClass = analysis.configClass(info, cls);
      if (configClass) classes.push(configClass);
      if (configClass && !candidates.has(cls.qualifiedName)) candidates.set(cls.qualifiedName, { cls, fields: configClass.fields, kind: configClass.kind });
    }
  }
  // Settings classes some code builds with keyword values: how the project builds them (issue #31).
  const settings = [...candidates.values()].filter((c) => c.kind === 'pydantic' && isSettings(analysis, c.cls)).map((c) => c.cls);
  const followed = settings.length > 0 ? classesToFollow(settings, infos) : [];
  let sites: ReturnType<typeof constructionSites> | undefined;
  if (followed.length > 0) {
    parser ??= await getPythonParser();
    const byFile = new Map(ordered.map((s) => [s.file, s]));
    const textOf = (file: string): string | undefined => {
      try {
        return byFile.get(file)?.text;
      } catch {
        return undefined; // a file that can no longer be read: its uses are unknown, see below
      }
    };
    sites = constructionSites(analysis, followed, infos, textOf, parser);
  }
  const env = withWrites(pythonEnv(analysis, infos, candidates, sites), infos);
  // TypedDicts named by a field's type (reading one may name more; the set grows as it is walked).
  for (const cls of analysis.typedDicts) {
    const info = modules.get(cls.module);
    if (info) classes.push(analysis.typedDictClass(info, cls));
  }
  classes.sort((a, b) => compare(a.qualifiedName, b.qualifiedName) || compare(a.location.file, b.location.file));
  diagnostics.push(...analysis.baseDepthNotes());
  diagnostics.sort((a, b) => compare(a.location.file, b.location.file));
  const stringKeys = new Map<string, Set<string>>();
  for (const info of infos) {
    const pkg = topLevelPackage(info.module);
    let set = stringKeys.get(pkg);
    if (!set) stringKeys.set(pkg, (set = new Set()));
    for (const key of info.stringKeys) set.add(key);
  }
  const functionConfigs = analysis.functionConfigs(infos);
  const canonicalTarget = reExportFollower(modules);
  const resolver = new Resolver(modules);
  const argvDispatch = new Map<string, DispatchRoute[]>();
  for (const info of infos) {
    if (modules.get(info.module) !== info) continue;
    for (const fn of info.functions.values()) {
      const routes: DispatchRoute[] = [];
      for (const branch of fn.argvDispatch ?? []) {
        // A `"module:function"` the branch hands to a dispatcher names its target outright.
        let target = branch.targets?.find((t) => modules.get(t.split(':')[0]!)?.functions.has(t.split(':')[1]!));
        for (const callee of target === undefined ? branch.callees : []) {
          const resolved = resolver.resolve(info, callee, fn.localBindings);
          if (resolved?.kind !== 'function' || resolved.fn === fn) continue;
          target = `${resolved.module.module}:${resolved.fn.name}`;
          break;
        }
        if (target !== undefined) routes.push({ name: branch.name, transform: branch.transform, target, ...(branch.words ? { words: branch.words } : {}) });
      }
      if (routes.length > 0) argvDispatch.set(`${info.module}:${fn.name}`, routes);
    }
  }
  const overClassFieldBudget = overBudget.size > 0 ? { files: slots.filter((slot) => overBudget.has(slot)).map((slot) => slot.source.file), read: spent, limit } : undefined;
  return {
    classes, functionConfigs, functionSecondaryConfigs: analysis.secondary, functionConfigsThroughCalls: analysis.throughCalls, diagnostics, stringKeys, retained, canonicalTarget, argvDispatch, env,
    envWords: [...new Set(infos.flatMap((i) => i.envWords ?? []))],
    ...(overClassFieldBudget ? { overClassFieldBudget } : {}),
  };
}

/**
 * {@link PythonExtraction.canonicalTarget} over `modules`. The function outlives the extraction
 * (the engine keeps it for the rules), so it holds only what re-exports need, letting the scans
 * (calls, string keys, classes) be collected; it is made here, not in `extractPython`, whose
 * closures share one scope that holds `modules`.
 */
function reExportFollower(modules: Map<string, ModuleInfo>): (target: string) => string {
  const views = new Map<string, ReExportView>();
  for (const [name, info] of modules) {
    views.set(name, { classes: new Set(info.classes.keys()), functions: new Set(info.functions.keys()), bindings: info.bindings });
  }
  return (target) => followReExports(views, target);
}

/** What {@link followReExports} reads of a module: the names it defines and its import bindings ({@link ModuleInfo} has both). */
export interface ReExportView {
  classes: { has(name: string): boolean };
  functions: { has(name: string): boolean };
  bindings: ModuleInfo['bindings'];
}

/** See {@link PythonExtraction.canonicalTarget}. */
export function followReExports(modules: Map<string, ReExportView>, target: string): string {
  if (target.startsWith('bin:')) return target;
  const colon = target.indexOf(':');
  if (colon < 0) return target;
  let module = target.slice(0, colon).trim();
  if (module.endsWith('.py')) module = moduleNameForFile(module, []);
  if (!modules.has(module)) {
    // `finetune:train` for `alpaca-lora/finetune.py` (a script run from its own folder): the one
    // repository module whose name ends with it, if there is exactly one.
    const matches = [...modules.keys()].filter((m) => m.endsWith(`.${module}`));
    if (matches.length === 1) module = matches[0]!;
  }
  let [name = '', ...rest] = target.slice(colon + 1).trim().split('.');
  for (let hop = 0; hop < 16; hop++) {
    const info = modules.get(module);
    if (!info || info.classes.has(name) || info.functions.has(name)) break;
    const binding = info.bindings.get(name);
    if (binding?.kind !== 'symbol') break;
    // `from pkg import cli` where `pkg.cli` is a module: the rest of the dotted name lives in it.
    if (modules.has(`${binding.module}.${binding.name}`) && rest.length > 0) {
      module = `${binding.module}.${binding.name}`;
      [name = '', ...rest] = rest;
      continue;
    }
    module = binding.module;
    name = binding.name;
  }
  return `${module}:${[name, ...rest].join('.')}`;
}

/** `nemo_gym.cli.main` → `nemo_gym`: the distribution-level package a module belongs to. */
export function topLevelPackage(module: string): string {
  return module.split('.', 1)[0] ?? module;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type MroEntry = RawClass | string;

/**
 * How many levels of repository bases (`class B(A)`) a class's inherited fields, and its MRO, are
 * read through, as for TypeScript's `extends` (`MAX_BASE_DEPTH` there). Each config class holds
 * its inherited fields and the model makes a candidate of each, so a chain of n classes held
 * n²/2 of them: 5,000 took 18.6 s and 2.5 GB (#33 sweep s26 D6). Past the limit a class gets its
 * own fields and those of the nearer levels only, with `unreadFields` and one warning per file.
 */
export const MAX_BASE_DEPTH = 64;

/** Where {@link MAX_BASE_DEPTH} cut a class's inherited fields. */
type Cut = NonNullable<ConfigClass['unreadFields']>;

/** Class-level facts computed on demand and memoised, so each class is analysed once. */
class Analysis {
  private readonly kindMemo = new Map<RawClass, 'pydantic' | 'dataclass' | null>();
  private readonly pydanticMemo = new Map<RawClass, boolean>();
  private readonly basesMemo = new Map<RawClass, Array<Resolved | undefined>>();
  private readonly mroMemo = new Map<RawClass, MroEntry[]>();
  private readonly specMemo = new Map<RawField, ParamSpec | undefined>();
  private readonly typedDictMemo = new Map<RawClass, boolean>();
  /** Levels of repository bases a class's fields come through (0: none), counted anew past {@link MAX_BASE_DEPTH}. */
  private readonly levelMemo = new Map<RawClass, number>();
  /** Per class: the repository bases {@link MAX_BASE_DEPTH} leaves unread (absent: none). */
  private readonly cutBasesMemo = new Map<RawClass, ReadonlySet<RawClass>>();
  /** Per class: the first cut of its own or of a base it reads (absent: none). */
  private readonly cutMemo = new Map<RawClass, Cut>();
  /** Per file: the first class whose inherited fields {@link MAX_BASE_DEPTH} cut, and how many were. */
  private readonly cutNotes = new Map<string, { cut: Cut; classes: number }>();
  /** The inherited fields this run's classes hold, bounded by {@link MAX_INHERITED_FIELDS} (a fan of classes over one large base, #33 sweep s27 D11). */
  private readonly budget = new InheritedBudget();
  /** Per class: the cut {@link budget} made (absent: none). */
  private readonly budgetCuts = new Map<RawClass, Cut>();
  /**
   * `TypedDict` classes that a config field's type names (`typeRef`/`valueTypeRef`), in order of
   * first reference; grows while fields are read, so iterating it also visits TypedDicts that
   * other TypedDicts name.
   */
  readonly typedDicts = new Set<RawClass>();

  constructor(
    readonly resolver: Resolver,
    readonly modules: Map<string, ModuleInfo>,
  ) {}

  /** The module that declares a repository class. */
  moduleOf(cls: RawClass): ModuleInfo | undefined {
    return this.modules.get(cls.module);
  }

  private bases(cls: RawClass): Array<Resolved | undefined> {
    let bases = this.basesMemo.get(cls);
    if (!bases) {
      const module = this.moduleOf(cls);
      bases = cls.bases.map((b) => (module && b.dotted ? this.resolver.resolve(module, b.dotted, undefined, cls.outer) : undefined));
      this.basesMemo.set(cls, bases);
    }
    return bases;
  }

  private isPydantic(cls: RawClass): boolean {
    const known = this.pydanticMemo.get(cls);
    if (known !== undefined) return known;
    this.pydanticMemo.set(cls, false); // cycle guard
    const result = this.bases(cls).some(
      (b) => (b?.kind === 'external' && PYDANTIC_BASES.has(b.qualifiedName)) || (b?.kind === 'class' && this.isPydantic(b.cls)),
    );
    this.pydanticMemo.set(cls, result);
    return result;
  }

  private isDecoratedDataclass(cls: RawClass): boolean {
    const module = this.moduleOf(cls);
    if (!module) return false;
    return cls.decorators.some((d) => {
      const dotted = d.dotted ?? d.call?.callee;
      if (!dotted) return false;
      // A project's own wrapper named like one (`@nested_dataclass(kw_only=True)`, `@config_dataclass`).
      if (/dataclass$/i.test(dotted.at(-1) ?? '')) return true;
      const resolved = this.resolver.resolve(module, dotted, undefined, cls.outer);
      if (resolved?.kind === 'external') return DATACLASS_DECORATORS.has(resolved.qualifiedName);
      return resolved?.kind === 'function' && this.wrapsDataclass(resolved.module, resolved.fn, 0);
    });
  }

  /**
   * True when a project function's body (nested functions included) calls `dataclasses.dataclass`
   * (or pydantic's), directly or through another project function, up to 3 levels: a decorator
   * that wraps dataclass (`def nested_dataclass(*a, **kw): def wrapper(c): c = dataclass(c, **kw)`).
   * Read statically; the function is never run.
   */
  private wrapsDataclass(module: ModuleInfo, fn: RawFunction, depth: number): boolean {
    if (depth > 3) return false;
    return fn.calls.some((call) => {
      const resolved = this.resolver.resolve(module, call.callee, fn.localBindings);
      if (resolved?.kind === 'external') return DATACLASS_DECORATORS.has(resolved.qualifiedName);
      return resolved?.kind === 'function' && resolved.fn !== fn && this.wrapsDataclass(resolved.module, resolved.fn, depth + 1);
    });
  }

  /** True for a class deriving from `typing.TypedDict` (directly or through repository classes). */
  isTypedDict(cls: RawClass): boolean {
    const known = this.typedDictMemo.get(cls);
    if (known !== undefined) return known;
    this.typedDictMemo.set(cls, false); // cycle guard
    const result = this.bases(cls).some(
      (b) => (b?.kind === 'external' && TYPED_DICT_BASES.has(b.qualifiedName)) || (b?.kind === 'class' && this.isTypedDict(b.cls)),
    );
    this.typedDictMemo.set(cls, result);
    return result;
  }

  /**
   * The {@link ConfigClass} (kind `typeddict`) of a TypedDict: its keys in MRO order, inherited
   * ones included, each a required field unless the annotation says otherwise (`NotRequired[…]`
   * is kept as type text; docdrift only needs the names here).
   */
  typedDictClass(module: ModuleInfo, cls: RawClass): ConfigClass {
    // Every TypedDict base contributes keys, as every repository class does for a pydantic model.
    const fields = this.fieldsWithin(module, cls, 'pydantic');
    return {
      name: cls.name,
      qualifiedName: cls.qualifiedName,
      module: cls.module,
      kind: 'typeddict',
      bases: this.bases(cls).map((b, i) => (b?.kind === 'class' ? b.cls.qualifiedName : (cls.bases[i]?.text ?? ''))),
      fields: [...fields.values()],
      location: cls.location,
      ...this.unreadOf(cls),
    };
  }

  /** `pydantic`, `dataclass`, or `null` when the class is not a config class. */
  kind(cls: RawClass): 'pydantic' | 'dataclass' | null {
    let kind = this.kindMemo.get(cls);
    if (kind === undefined) {
      kind = this.isPydantic(cls) ? 'pydantic' : this.isDecoratedDataclass(cls) ? 'dataclass' : null;
      this.kindMemo.set(cls, kind);
    }
    return kind;
  }

  /**
   * Computes {@link levelMemo}, {@link cutBasesMemo} and {@link cutMemo} for `cls` and its
   * ancestors, with an explicit stack (a chain thousands of classes long does not recurse). A
   * base on a cycle counts for nothing here; the MRO's own guard decides about it.
   */
  private level(cls: RawClass): number {
    const known = this.levelMemo.get(cls);
    if (known !== undefined) return known;
    const stack = [cls];
    const open = new Set<RawClass>();
    while (stack.length > 0) {
      const cur = stack[stack.length - 1]!;
      if (this.levelMemo.has(cur)) {
        stack.pop();
        continue;
      }
      const bases = this.bases(cur);
      if (!open.has(cur)) {
        open.add(cur);
        const pending = bases.flatMap((b) => (b?.kind === 'class' && !this.levelMemo.has(b.cls) && !open.has(b.cls) ? [b.cls] : []));
        if (pending.length > 0) {
          stack.push(...pending);
          continue;
        }
      }
      stack.pop();
      let level = 0;
      let cutBases: Set<RawClass> | undefined;
      let cut: Cut | undefined;
      bases.forEach((b, i) => {
        const below = b?.kind === 'class' ? this.levelMemo.get(b.cls) : undefined;
        if (b?.kind !== 'class' || below === undefined) return;
        if (below + 1 > MAX_BASE_DEPTH) {
          (cutBases ??= new Set()).add(b.cls);
          cut ??= { location: cur.location, construct: `class ${cur.name}(${(cur.bases[i]?.text ?? b.cls.name).slice(0, 60)})`, cut: `${MAX_BASE_DEPTH} levels of bases` };
          return;
        }
        level = Math.max(level, below + 1);
      });
      if (cutBases) {
        this.cutBasesMemo.set(cur, cutBases);
        const note = this.cutNotes.get(cur.location.file);
        if (note) note.classes++;
        else this.cutNotes.set(cur.location.file, { cut: cut!, classes: 1 });
      }
      cut ??= bases.map((b) => (b?.kind === 'class' && !cutBases?.has(b.cls) ? this.cutMemo.get(b.cls) : undefined)).find((c) => c !== undefined);
      if (cut) this.cutMemo.set(cur, cut);
      this.levelMemo.set(cur, level);
    }
    return this.levelMemo.get(cls) ?? 0;
  }

  /** `{ unreadFields }` when {@link MAX_BASE_DEPTH} cut what `cls` inherits (through its own bases or farther up), else nothing: the key stays absent. */
  private unreadOf(cls: RawClass): Pick<ConfigClass, 'unreadFields'> {
    this.level(cls);
    const cut = this.cutMemo.get(cls) ?? this.budgetCuts.get(cls);
    return cut ? { unreadFields: cut } : {};
  }

  /**
   * The fields of `cls` (see {@link chainFields}, {@link mroFields}) when what it inherits fits in
   * the run's {@link MAX_INHERITED_FIELDS} budget, else its own fields only, with the cut recorded
   * (see {@link unreadOf}). What it inherits is bounded from above first, by the raw fields of its
   * repository ancestors (those the depth limit leaves readable), so a class past the budget
   * never has its inherited fields gathered.
   */
  private fieldsWithin(module: ModuleInfo, cls: RawClass, kind: 'pydantic' | 'dataclass'): Map<string, ParamSpec> {
    if (this.budget.take(this.inheritedBound(cls, kind))) return this.chainFields(cls, kind) ?? this.mroFields(module, cls, kind);
    const own = new Map<string, ParamSpec>();
    if (kind !== 'dataclass' || this.kind(cls) === 'dataclass') {
      for (const field of cls.fields) {
        const spec = this.spec(this.moduleOf(cls) ?? module, cls, field);
        if (spec) own.set(spec.name, withOverride(spec, own.get(spec.name)));
      }
    }
    this.budgetCuts.set(cls, this.budget.cut(cls.location, `class ${cls.name}(${cls.bases.map((b) => b.text).join(', ').slice(0, 60)})`));
    return own;
  }

  /** How many fields the repository ancestors of `cls` that its fields are read from declare (each counted once): a bound on what it inherits. */
  private inheritedBound(cls: RawClass, kind: 'pydantic' | 'dataclass'): number {
    const seen = new Set<RawClass>([cls]);
    const stack = [cls];
    let total = 0;
    while (stack.length > 0) {
      for (const base of this.baseEntries(stack.pop()!)) {
        if (typeof base === 'string' || seen.has(base)) continue;
        seen.add(base);
        stack.push(base);
        if (kind !== 'dataclass' || this.kind(base) === 'dataclass') total += base.fields.length;
      }
    }
    return total;
  }

  /** One `parse-error` warning per file where {@link MAX_BASE_DEPTH} cut inherited fields. */
  baseDepthNotes(): InputDiagnostic[] {
    return [...this.depthNotes(), ...this.budget.diagnostics('class')];
  }

  private depthNotes(): InputDiagnostic[] {
    return [...this.cutNotes.values()].map(({ cut, classes }) => ({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${cut.location.file}:${cut.location.line}:${cut.location.column}: \`${cut.construct}\` is past ${cut.cut}: the fields it inherits from farther bases are not read (${classes} class${classes === 1 ? '' : 'es'} so cut); commands using them are partly known`,
      location: { file: cut.location.file, line: cut.location.line, column: cut.location.column },
    }));
  }

  /**
   * The direct bases of `cls` as MRO entries: a repository class, an external base's qualified
   * name, or the text as written; a base past {@link MAX_BASE_DEPTH} is its text too (a leaf whose
   * fields and bases are not read).
   */
  private baseEntries(cls: RawClass): MroEntry[] {
    this.level(cls);
    const cut = this.cutBasesMemo.get(cls);
    return this.bases(cls).map((b, i) =>
      b?.kind === 'class' && !cut?.has(b.cls) ? b.cls : b?.kind === 'external' ? b.qualifiedName : (cls.bases[i]?.text ?? '?'),
    );
  }

  /**
   * C3 linearisation (https://docs.python.org/3/howto/mro.html); falls back to a left-to-right
   * depth-first walk when the hierarchy is inconsistent. Bases past {@link MAX_BASE_DEPTH} levels
   * are leaves (see {@link baseEntries}).
   */
  mro(cls: RawClass): MroEntry[] {
    const known = this.mroMemo.get(cls);
    if (known) return known;
    this.mroMemo.set(cls, [cls]); // cycle guard
    const direct = this.baseEntries(cls);
    const sequences = [...direct.map((b) => (typeof b === 'string' ? [b] : this.mro(b))), direct].map((s) => [...s]);
    const result: MroEntry[] = [cls];
    let consistent = true;
    while (sequences.some((s) => s.length > 0)) {
      let head: MroEntry | undefined;
      for (const seq of sequences) {
        const candidate = seq[0];
        if (candidate === undefined) continue;
        if (!sequences.some((other) => other.indexOf(candidate) > 0)) {
          head = candidate;
          break;
        }
      }
      if (head === undefined) {
        consistent = false;
        break;
      }
      result.push(head);
      for (const seq of sequences) if (seq[0] === head) seq.shift();
    }
    const mro = consistent ? result : this.depthFirst(cls);
    this.mroMemo.set(cls, mro);
    return mro;
  }

  private depthFirst(cls: RawClass): MroEntry[] {
    const out: MroEntry[] = [];
    const visit = (entry: MroEntry): void => {
      if (out.includes(entry)) return;
      out.push(entry);
      if (typeof entry !== 'string') this.baseEntries(entry).forEach(visit);
    };
    visit(cls);
    return out;
  }

  private spec(module: ModuleInfo, owner: RawClass, field: RawField): ParamSpec | undefined {
    if (!this.specMemo.has(field)) {
      const spec = toParamSpec(this.resolver, module, owner, field);
      if (spec) this.nestedType(module, field, spec);
      this.specMemo.set(field, spec);
    }
    return this.specMemo.get(field);
  }

  /**
   * Marks a field typed by another config class or a TypedDict (`data: DataConfig`,
   * `Optional[DataConfig]`, `sampling: SamplingParams`) with `typeRef`, and a mapping-typed field
   * (`Dict[str, Any]`, `DictConfig`, `Any`) as an open namespace; a mapping whose value type is a
   * config class or TypedDict (`Dict[str, ServerConfig]`, `Mapping[str, Optional[Server]]`) also
   * gets `valueTypeRef`. Dotted keys below the field are then resolved or accepted.
   */
  private nestedType(module: ModuleInfo, field: RawField, spec: ParamSpec): void {
    const core = annotationCore(field.annotation);
    if (core === undefined) return;
    if (OPEN_NAMESPACE_TYPES.test(core)) {
      spec.openNamespace = true;
      const args = MAPPING_WITH_ARGS.exec(core)?.[1];
      const parts = args === undefined ? [] : splitTopLevel(args, ',');
      const value = parts.length === 2 ? annotationCore(parts[1]!) : undefined;
      const valueRef = value === undefined ? undefined : this.schemaRef(module, value);
      if (valueRef !== undefined) spec.valueTypeRef = valueRef;
      return;
    }
    const ref = this.schemaRef(module, core);
    if (ref !== undefined) spec.typeRef = ref;
  }

  /** The qualified name of the config class or TypedDict a bare type name resolves to; records TypedDicts in {@link typedDicts}. */
  private schemaRef(module: ModuleInfo, core: string): string | undefined {
    if (!/^[A-Za-z_][\w.]*$/.test(core)) return undefined;
    const resolved = this.resolver.resolve(module, core.split('.'));
    if (resolved?.kind !== 'class') return undefined;
    if (this.kind(resolved.cls) !== null) return resolved.cls.qualifiedName;
    if (!this.isTypedDict(resolved.cls)) return undefined;
    this.typedDicts.add(resolved.cls);
    return resolved.cls.qualifiedName;
  }

  /** The fields of `cls` in Python's order, walking its full MRO from the most basic class down. */
  private mroFields(module: ModuleInfo, cls: RawClass, kind: 'pydantic' | 'dataclass'): Map<string, ParamSpec> {
    const fields = new Map<string, ParamSpec>();
    const mro = this.mro(cls);
    for (let i = mro.length - 1; i >= 0; i--) {
      const entry = mro[i];
      if (entry === undefined || typeof entry === 'string') continue;
      if (kind === 'dataclass' && this.kind(entry) !== 'dataclass') continue;
      const entryModule = this.moduleOf(entry) ?? module;
      for (const field of entry.fields) {
        const spec = this.spec(entryModule, entry, field);
        if (spec) fields.set(spec.name, withOverride(spec, fields.get(spec.name))); // Map keeps the first insertion position, like a dict
      }
    }
    return fields;
  }

  private readonly chainMemo = { pydantic: new Map<RawClass, Map<string, ParamSpec>>(), dataclass: new Map<RawClass, Map<string, ParamSpec>>() };

  /**
   * The fields of a class whose ancestors each have at most one base: with a single base the MRO
   * is the class followed by its base's MRO, so the fields are the base's (memoised) plus the
   * class's own, the same order {@link mroFields} gives. Linear in the chain, where computing
   * every class's MRO was quadratic (issue #18: a 10,000-class chain). `undefined` when a class
   * on the way has several bases, its module is unknown, or the chain loops: the MRO walk decides.
   */
  private chainFields(cls: RawClass, kind: 'pydantic' | 'dataclass'): Map<string, ParamSpec> | undefined {
    const memo = this.chainMemo[kind];
    const chain: RawClass[] = [];
    const seen = new Set<RawClass>();
    let start: Map<string, ParamSpec> | undefined;
    for (let cur: RawClass | undefined = cls; cur; ) {
      const known = memo.get(cur);
      if (known) {
        start = known;
        break;
      }
      const bases = this.baseEntries(cur);
      if (seen.has(cur) || bases.length > 1 || !this.moduleOf(cur)) return undefined;
      seen.add(cur);
      chain.push(cur);
      const base = bases[0];
      cur = base !== undefined && typeof base !== 'string' ? base : undefined; // a leaf past the depth limit ends the chain
    }
    let fields = start ?? new Map<string, ParamSpec>();
    for (let i = chain.length - 1; i >= 0; i--) {
      const entry = chain[i]!;
      if (kind !== 'dataclass' || this.kind(entry) === 'dataclass') {
        const own = entry.fields.map((f) => this.spec(this.moduleOf(entry)!, entry, f)).filter((spec): spec is ParamSpec => spec !== undefined);
        if (own.length > 0) {
          fields = new Map(fields);
          for (const spec of own) fields.set(spec.name, withOverride(spec, fields.get(spec.name))); // Map keeps the first insertion position, like a dict
        }
      }
      memo.set(entry, fields);
    }
    return fields; // read only by the callers: the memoised map itself
  }

  /** The {@link ConfigClass} for `cls`, or `undefined` when it is not a config class. */
  configClass(module: ModuleInfo, cls: RawClass): ConfigClass | undefined {
    const kind = this.kind(cls);
    if (kind === null) return undefined;
    const fields = this.fieldsWithin(module, cls, kind);
    const bases = this.bases(cls).map((b, i) => (b?.kind === 'class' ? b.cls.qualifiedName : (cls.bases[i]?.text ?? '')));
    return {
      name: cls.name,
      qualifiedName: cls.qualifiedName,
      module: cls.module,
      kind,
      bases,
      fields: [...fields.values()],
      location: cls.location,
      ...this.unreadOf(cls),
    };
  }

  private isConfig(resolved: Resolved | undefined): resolved is { kind: 'class'; cls: RawClass } {
    return resolved?.kind === 'class' && this.kind(resolved.cls) !== null;
  }

  /** See {@link PythonExtraction.functionSecondaryConfigs}; filled by {@link functionConfigs}. */
  readonly secondary = new Map<string, string[]>();

  /** See {@link PythonExtraction.functionConfigsThroughCalls}; filled by {@link functionConfigs}. */
  readonly throughCalls = new Set<string>();

  /** See {@link PythonExtraction.functionConfigs}. */
  functionConfigs(infos: ModuleInfo[]): Map<string, string[]> {
    const direct = new Map<string, string[]>();
    // A parameter annotated `X` (Hydra's `def main(cfg: X)`) is evidence only for the entry
    // function itself: in a function reached through calls it means X was passed in, not built.
    const parameters = new Map<string, string[]>();
    const callees = new Map<string, string[]>();
    // Classes some function builds from a parsed argparse namespace (`X(**vars(args))`).
    const fromParsedArgs = new Set<string>();
    for (const info of infos) {
      if (this.modules.get(info.module) !== info) continue; // a shadowed duplicate module
      for (const fn of info.functions.values()) {
        const key = `${info.module}:${fn.name}`;
        const built: string[] = [];
        const others: string[] = [];
        const calls: string[] = [];
        const add = (list: string[], item: string): void => {
          pushUnique(list, item);
        };
        const resolve = (dotted: string[]): Resolved | undefined => this.resolver.resolve(info, dotted, fn.localBindings);
        const annotated: string[] = [];
        for (const ref of fn.annotationRefs) {
          const resolved = resolve(ref);
          if (this.isConfig(resolved)) add(annotated, resolved.cls.qualifiedName);
        }
        // The command's config is what the function builds from its input; a class built later
        // from another expression (a derived dict) is an internal step. So builder calls count
        // only when they read the same expression as the first one (`X.model_validate(cfg)`,
        // `Y(**cfg)`); an unknown source (TypeAdapter) always counts.
        let firstSource: string | undefined;
        const addBuilt = (qn: string, source: string | undefined): void => {
          if (source !== undefined && PARSED_ARGS_SOURCE.test(source)) fromParsedArgs.add(qn);
          if (built.length === 0) firstSource = source;
          else if (source !== undefined && firstSource !== undefined && source !== firstSource) {
            if (!built.includes(qn)) add(others, qn);
            return;
          }
          add(built, qn);
        };
        for (const call of fn.calls) {
          const resolved = resolve(call.callee);
          if (this.isConfig(resolved)) {
            // Only `X(**mapping)` builds X *from the config*; `X(a, b=1)` is an ordinary object
            // (a router table entry, a value passed elsewhere) and says nothing about the command.
            if (call.splat) addBuilt(resolved.cls.qualifiedName, call.source);
          } else if (resolved?.kind === 'function') {
            // Product code calling into test, example or build-script code (a fixture factory)
            // builds nothing its command reads: those classes are never reached by following calls.
            if (!isNonProductPath(resolved.module.file) || isNonProductPath(info.file)) add(calls, `${resolved.module.module}:${resolved.fn.name}`);
          } else if (resolved?.kind === 'external' && TYPE_ADAPTER.has(resolved.qualifiedName) && call.firstArg) {
            const target = resolve(call.firstArg);
            if (this.isConfig(target)) addBuilt(target.cls.qualifiedName, undefined);
          } else if (call.callee.length > 1 && BUILDER_METHODS.has(call.callee.at(-1) as string)) {
            const target = resolve(call.callee.slice(0, -1));
            if (this.isConfig(target)) addBuilt(target.cls.qualifiedName, call.source);
          }
        }
        // A decorated function with a config-annotated parameter is a CLI wrapper (Hydra,
        // draccus, typer): the decorator builds the config, so that counts as building it, also
        // when the function is reached through calls from the entry point.
        if (built.length === 0 && fn.decorated && annotated.length > 0) built.push(...annotated);
        direct.set(key, built);
        if (others.length > 0) this.secondary.set(key, others);
        if (annotated.length > 0) parameters.set(key, annotated);
        callees.set(key, calls);
      }
    }
    // result(f, d) = f's own classes, else the union over its callees at depth d+1 (memoised per
    // (function, depth), so cycles terminate and the cost stays linear in the call edges).
    const memo = new Map<string, string[]>();
    const follow = (key: string, depth: number): string[] => {
      const own = direct.get(key) ?? [];
      if (own.length > 0 || depth >= FOLLOW_DEPTH) return own;
      const memoKey = `${depth}\0${key}`;
      const known = memo.get(memoKey);
      if (known) return known;
      memo.set(memoKey, []);
      const out: string[] = [];
      for (const callee of callees.get(key) ?? []) {
        for (const qn of follow(callee, depth + 1)) pushUnique(out, qn);
      }
      // Through calls, only an unambiguous answer counts: a dispatcher that reaches several
      // config classes (one per sub-command) is not a command with all of their parameters.
      const answer = out.length === 1 ? out : [];
      memo.set(memoKey, answer);
      return answer;
    };
    const result = new Map<string, string[]>();
    for (const key of direct.keys()) {
      // Classes built from the input win; a parameter annotation (`def main(cfg: X)`, Hydra's
      // form) counts when nothing is built, since an annotated keyword parameter of a function
      // that builds its config is a Python API argument, not a CLI parameter.
      const own = direct.get(key) ?? [];
      const built = own.length > 0 ? own : (parameters.get(key) ?? follow(key, 0));
      if (built.length > 0) result.set(key, built);
      if (built.length > 0 && own.length === 0 && !parameters.has(key) && !built.some((qn) => fromParsedArgs.has(qn))) this.throughCalls.add(key);
    }
    return result;
  }
}

/**
 * `spec` as it stands in a subclass whose MRO already gave the field `previous`: a copy marked
 * with the base that declared it first ({@link ParamSpec.overrides}); `spec` itself when the field
 * is new (the memoised spec is shared between classes, so it is never mutated).
 */
function withOverride(spec: ParamSpec, previous: ParamSpec | undefined): ParamSpec {
  if (previous === undefined || previous.owner === spec.owner) return spec;
  return { ...spec, overrides: previous.overrides ?? previous.owner };
}

/**
 * `env` with the variables the modules write into their own environment (`ModuleInfo.envWrites`:
 * `os.environ["X"] = v`, `os.environ.update(X=v)`, `os.putenv("X", v)`) added to `internal`,
 * reason `written by the code (file:line)`, in file order. The linker decides which count (a
 * test's write does not).
 */
function withWrites(env: EnvExtraction, infos: readonly ModuleInfo[]): EnvExtraction {
  const written = infos.flatMap((info) => (info.envWrites ?? []).map((w) => ({ name: w.name, location: w.location, reason: `written by the code (${w.location.file}:${w.location.line})` })));
  const obsolete = [...new Set(infos.flatMap((info) => info.envObsolete ?? []))];
  const out = obsolete.length === 0 ? env : { ...env, obsolete: [...new Set([...(env.obsolete ?? []), ...obsolete])] };
  return written.length === 0 ? out : { ...out, internal: [...(out.internal ?? []), ...written] };
}
