/** The engine's entry point: read the project, build the model, run the rules, scope the messages. */
import { escapesRoot } from './paths.js';
import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_CONFIG, type DocdriftConfig } from '../config/schema.js';
import { createDocParser } from '../docs/bounded-parse.js';
import { trimTrailing } from '../docs/reference-table.js';
import { mayHaveDirectives } from '../docs/directive-text.js';
import type { SuppressionDirective } from '../docs/directives.js';
import { readEntryPoints } from '../extract/python/entry-points.js';
import { extractPython, type PythonSource } from '../extract/python/index.js';
import { extractPythonFlags, type FlagCommand } from '../extract/python/flags.js';
import { buildModel } from '../model/build.js';
import { declaredFlagProblems, type ConfigSource } from '../model/declared-flags.js';
import { createHeadingMatcher } from '../config/patterns.js';
import type { ConfigClass, DocFile, InputDiagnostic, Model } from '../model/types.js';
import { suggestNames } from '../model/compare.js';
import { rules as allRules } from '../../rules/index.js';
import { discoverFiles, type DiscoveredFiles } from './discover.js';
import { readErrorText, readRegularFile, unreadableDirectory } from './read-file.js';
import { engineRules, engineRuleSeverity, unusedSuppression } from './engine-rules.js';
import { applySuppressions } from './suppress.js';
import { runRules, sortMessages, type ConfiguredRule, type RuleFailure } from './run-rules.js';
import { scopeMessages, toProjectPath } from './scope.js';
import type { DriftMessage, Rule, Severity } from './types.js';

/** What to lint. */
export interface LintOptions {
  /** Absolute project root; every path in messages is relative to it. */
  root: string;
  config: DocdriftConfig;
  /**
   * Report only findings located in these files (absolute or root-relative). The model is still
   * built from the whole project, so a README is checked against all code and references.
   */
  files?: string[];
  /** The config file `config` was loaded from (absolute), to point at its `commands.*.flags` entries. */
  configFile?: string;
  /** Rules to run; defaults to every rule in `rules/`. */
  rules?: Rule[];
  /** The project's files when already discovered (the run cache hashes them first); default: discovered here. */
  discovered?: DiscoveredFiles;
  /**
   * Texts to use instead of the files on disk, by project-relative POSIX path: `--fix` lints its
   * edited texts again before writing anything (src/fix/apply.ts).
   */
  overlay?: ReadonlyMap<string, string>;
}

/** Figures about one run, for `--debug` and the benchmark. Times in milliseconds. */
export interface LintStats {
  sources: number;
  docs: number;
  timings: Record<'discover' | 'extract' | 'docs' | 'model' | 'rules', number>;
}

/** The outcome of one run. */
export interface LintResult {
  /** Findings, sorted by file, line, column, rule id; without those inline comments suppress. */
  messages: DriftMessage[];
  /** Findings (in scope) that `docdrift-disable…` comments suppressed, sorted like `messages`. */
  suppressed: DriftMessage[];
  /** Rules that threw (an internal error: the CLI exits 2). */
  failures: RuleFailure[];
  /**
   * Config entries that name something the project does not have (a `commands.*.config` class
   * found nowhere): the CLI prints them and exits 2, since the run checked less than asked.
   */
  configProblems: string[];
  model: Model;
  stats: LintStats;
}

/**
 * Lints a project. Never throws on bad project input (unparseable or unreadable files become
 * `parse-error` findings); throws only on programming errors.
 */
export async function lint(options: LintOptions): Promise<LintResult> {
  const { root, config } = options;
  const t0 = performance.now();
  const files = options.discovered ?? (await discoverFiles(root, config.sources, config.docs, config.ignore));
  const t1 = performance.now();
  const diagnostics: InputDiagnostic[] = [];
  // Documents are parsed in a worker under a time and memory budget (src/docs/bounded-parse.ts);
  // it starts now, loading the parsers while the code is extracted.
  const docParser = await createDocParser();
  try {

  const read = (file: string): string | undefined => {
    const overlaid = options.overlay?.get(file);
    if (overlaid !== undefined) return overlaid;
    try {
      return readRegularFile(path.join(root, file));
    } catch (error) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message: `Cannot read ${file}: ${readErrorText(error)}`,
        location: { file, line: 1, column: 1 },
      });
      return undefined;
    }
  };

  for (const dir of files.unreadable ?? []) diagnostics.push(unreadableDirectory(dir));

  const packaging = files.packaging.filter((f) => f !== 'package.json').flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : [{ file, text }];
  });
  const entry = readEntryPoints(packaging);
  diagnostics.push(...entry.diagnostics);

  const sources: PythonSource[] = [];
  for (const file of files.sources) {
    if (!file.endsWith('.py')) continue;
    const text = read(file);
    if (text !== undefined) sources.push({ file, text });
  }
  const interpolatedKeys = new Set<string>();
  for (const file of files.yaml) {
    const text = read(file);
    if (text !== undefined) for (const key of interpolationKeys(text)) interpolatedKeys.add(key);
  }
  // CLI flags (argparse, click, typer): only files that can define them are read again, from the
  // syntax trees the class extraction keeps for them (each file is parsed once).
  const mayDefineFlags = (s: PythonSource): boolean => /\b(argparse|add_argument|click|typer)\b/.test(s.text);
  const python = await extractPython(sources, { retain: mayDefineFlags });
  diagnostics.push(...python.diagnostics);
  const flagSources = sources.filter(mayDefineFlags);
  const flags = await extractPythonFlags(flagSources, { parsed: python.retained });
  diagnostics.push(...flags.diagnostics);
  const flagCommands: FlagCommand[] = [...flags.commands];

  // TypeScript: read only when something can use it (ts-morph costs ~0.5 s to load): the root
  // package.json declares `bin` commands, or the config maps a command to a class that the
  // Python sources do not define.
  const classes = [...python.classes];
  const functionConfigs = new Map(python.functionConfigs);
  const functionSecondaryConfigs = python.functionSecondaryConfigs;
  const entryPoints = [...entry.entryPoints];
  const tsFiles = files.sources.filter((f) => /\.(ts|mts|cts|tsx)$/.test(f) && !/\.d\.[mc]?ts$/.test(f));
  const packageJson = files.packaging.includes('package.json') ? read('package.json') : undefined;
  const bins = packageJson === undefined ? {} : binEntries(packageJson);
  const pythonNames = new Set(python.classes.flatMap((c) => [c.name, c.qualifiedName]));
  const wantsTs =
    Object.keys(bins).length > 0 ||
    Object.values(config.commands).some((c) => [c.config ?? []].flat().some((n) => !pythonNames.has(n)));
  let tsSourceCount = 0;
  if (tsFiles.length > 0 && wantsTs) {
    const tsSources = tsFiles.flatMap((file) => {
      const text = read(file);
      return text === undefined ? [] : [{ file, text }];
    });
    tsSourceCount = tsSources.length;
    const { extractTypeScript } = await import('../extract/typescript/index.js');
    const ts = await extractTypeScript(tsSources, packageJson === undefined ? undefined : { file: 'package.json', text: packageJson });
    classes.push(...ts.classes);
    diagnostics.push(...ts.diagnostics);
    for (const [bin, configs] of ts.binConfigs) functionConfigs.set(`bin:${bin}`, configs);
    // CLI flags (yargs, commander) of the programs the bins run.
    const flagSources = tsSources.filter((s) => /\b(yargs|commander)\b/.test(s.text));
    if (flagSources.length > 0 && packageJson !== undefined) {
      const { extractTypeScriptFlags } = await import('../extract/typescript/flags.js');
      const { binFlagCommands } = await import('../extract/typescript/flags-bins.js');
      const tsFlags = await extractTypeScriptFlags(flagSources);
      diagnostics.push(...tsFlags.diagnostics);
      flagCommands.push(...binFlagCommands({ file: 'package.json', text: packageJson }, tsFlags.commands));
    }
    // Bins running the same file (`concurrently` and `conc`) are one command with aliases, as
    // console scripts naming the same function are: they share the first bin's target.
    const firstByPath = new Map<string, string>();
    for (const [bin, { line, file }] of Object.entries(bins)) {
      if (entryPoints.some((e) => e.name === bin)) continue;
      const key = path.posix.normalize(file);
      if (!firstByPath.has(key)) firstByPath.set(key, bin);
      entryPoints.push({ name: bin, target: `bin:${firstByPath.get(key)}`, location: { file: 'package.json', line, column: 1 } });
    }
  }
  const t2 = performance.now();

  // Parsing Markdown is most of a run's time, and most documents of a large repository never
  // name a command. Only documents that name one (or hold a global-options heading) can contain
  // reference sections or examples; the rest are parsed only if a link points at them.
  const mentions = mentionMatcher(
    [...entryPoints.map((e) => e.name), ...Object.entries(config.commands).flatMap(([n, c]) => [n, ...(c.aliases ?? [])])],
    createHeadingMatcher(config.globalSections),
  );
  const isGlobalFile = config.globalFiles.length > 0 ? picomatch(config.globalFiles, { dot: true }) : () => false;
  const docs: DocFile[] = [];
  const unparsed = new Map<string, string>();
  const docTexts = new Map<string, string>();
  const directives: SuppressionDirective[] = [];
  for (const file of files.docs) {
    const text = read(file);
    if (text === undefined) continue;
    docTexts.set(file, text);
    const wanted = { doc: mentions(text) || isGlobalFile(file), directives: mayHaveDirectives(text) };
    if (!wanted.doc) unparsed.set(file, text);
    if (!wanted.doc && !wanted.directives) continue;
    const parsed = docParser.parse(file, text, wanted);
    directives.push(...parsed.directives);
    if (parsed.doc) docs.push(parsed.doc);
    diagnostics.push(...parsed.diagnostics);
  }
  const lazyDoc = (file: string): DocFile | undefined => {
    const text = unparsed.get(file);
    if (text === undefined) return undefined;
    const parsed = docParser.parse(file, text, { doc: true, directives: false });
    // An overrun is reported once, where the link points at the skipped page.
    diagnostics.push(...parsed.diagnostics.filter((d) => d.message.startsWith('Not read:')));
    return parsed.doc;
  };
  const t3 = performance.now();

  const model = buildModel({
    root,
    config: { ...config, globalParameters: effectiveGlobalParameters(config.globalParameters, sources) },
    classes,
    functionConfigs,
    functionSecondaryConfigs,
    flagCommands,
    configSource: configSourceOf(root, options.configFile),
    entryPoints,
    stringKeys: python.stringKeys,
    interpolatedKeys,
    docs,
    docFiles: files.docs,
    lazyDoc,
    source: (file) => docTexts.get(file),
    diagnostics,
  });
  const t4 = performance.now();

  const configured = configureRules(options.rules ?? allRules, config.rules);
  const ran = runRules(model, configured);
  const failures = ran.failures;
  const knownRuleIds = [...allRules, ...engineRules].map((r) => r.meta.id);
  const suppression = applySuppressions(ran.messages, directives, knownRuleIds, engineRuleSeverity(unusedSuppression, config.rules));
  const messages = suppression.messages;
  const t5 = performance.now();

  const scoped = scopeMessages(root, messages, options.files);
  const suppressed = scopeMessages(root, suppression.suppressed, options.files);
  const configProblems = [...unresolvedConfigClasses(config, classes), ...declaredFlagProblems(config, model.commands)];
  return {
    messages: sortMessages(scoped),
    suppressed: sortMessages(suppressed),
    failures,
    configProblems,
    model,
    stats: {
      sources: sources.length + tsSourceCount,
      docs: docs.length,
      timings: { discover: t1 - t0, extract: t2 - t1, docs: t3 - t2, model: t4 - t3, rules: t5 - t4 },
    },
  };
  } finally {
    docParser.close();
  }
}

/** The config file's display path (project-relative when inside the root) and text, if readable. */
function configSourceOf(root: string, file: string | undefined): ConfigSource | undefined {
  if (file === undefined) return undefined;
  try {
    const rel = path.relative(root, file);
    const display = rel && !escapesRoot(rel) ? rel.split(path.sep).join('/') : file;
    return { file: display, text: readRegularFile(file) };
  } catch {
    return undefined;
  }
}

/**
 * Names in `commands.<name>.config` that match no config class found in the sources, each as a
 * sentence naming the key and the nearest class names.
 */
export function unresolvedConfigClasses(config: DocdriftConfig, classes: ConfigClass[]): string[] {
  const problems: string[] = [];
  const qualified = new Set(classes.map((c) => c.qualifiedName));
  const simple = new Map<string, number>();
  for (const c of classes) simple.set(c.name, (simple.get(c.name) ?? 0) + 1);
  for (const [command, entry] of Object.entries(config.commands)) {
    const names = entry.config === undefined ? [] : Array.isArray(entry.config) ? entry.config : [entry.config];
    for (const name of names) {
      if (qualified.has(name) || simple.get(name) === 1) continue;
      if ((simple.get(name) ?? 0) > 1) {
        const options = classes.filter((c) => c.name === name).map((c) => c.qualifiedName);
        problems.push(`commands.${command}.config: "${name}" names several classes (${options.join(', ')}); use the qualified name.`);
        continue;
      }
      const near = suggestNames(name, [...qualified, ...simple.keys()], 3);
      problems.push(
        `commands.${command}.config: no config class or type named "${name}" was found in the sources (a Python pydantic model or dataclass, or a TypeScript interface, class, type alias or zod schema written "path/file.ts#Name")` +
          (near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : '.'),
      );
    }
  }
  return problems;
}

/** Applies `rules` from the config (severity or `[severity, options]`) over each rule's defaults. */
export function configureRules(rules: Rule[], settings: DocdriftConfig['rules']): ConfiguredRule[] {
  return rules.map((rule) => {
    const setting = settings[rule.meta.id];
    let severity: Severity = rule.meta.defaultSeverity;
    let options: Record<string, unknown> = {};
    if (typeof setting === 'string') severity = setting;
    else if (Array.isArray(setting)) {
      severity = setting[0];
      options = setting[1] ?? {};
    }
    return { rule, severity, options };
  });
}

/**
 * The default `globalParameters` name Hydra's and draccus's own flags (`-h`, `-m`, `--cfg`,
 * `--config_path`). They only mean something in projects that use those libraries: elsewhere a
 * documented `-p` or `--version` must not be excused as a Hydra flag. So, when the config keeps
 * the defaults, the Hydra entries apply only if a Python source imports `hydra` or `omegaconf`,
 * and `config_path` only if one imports `draccus`; `help`, `h` and `version`, which nearly every
 * CLI accepts, always apply. An explicit list is used as given.
 */
export function effectiveGlobalParameters(configured: string[], sources: Array<{ text: string }>): string[] {
  const defaults = DEFAULT_CONFIG.globalParameters;
  if (configured.length !== defaults.length || configured.some((p, i) => p !== defaults[i])) return configured;
  const imports = (lib: string): boolean => {
    const re = new RegExp(`^\\s*(?:from|import)\\s+${lib}\\b`, 'm');
    return sources.some((s) => re.test(s.text));
  };
  const hydra = imports('hydra') || imports('omegaconf');
  const draccus = imports('draccus');
  const universal = new Set(['help', 'h', 'version']);
  return configured.filter((p) => universal.has(p) || (p === 'config_path' ? draccus : hydra));
}

/**
 * A cheap test on raw document text: does it name one of the commands as a word (not inside a
 * longer identifier), or hold an ATX heading that the global-sections matcher accepts?
 */
export function mentionMatcher(names: string[], isGlobalHeading: (text: string) => boolean): (text: string) => boolean {
  const unique = [...new Set(names.filter((n) => n.length > 0))].sort((a, b) => b.length - a.length);
  const escaped = unique.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const word = escaped.length > 0 ? new RegExp(`(?<![\\w-])(?:${escaped.join('|')})(?![\\w-])`) : undefined;
  return (text) => {
    if (word?.test(text)) return true;
    // `(.*)` then a trim, not `(.+?)[ \t#]*$`: that retried every split of a long `#` run.
    for (const match of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*)$/gm)) {
      const heading = trimTrailing(match[1] ?? '', ' \t#');
      if (heading !== '' && isGlobalHeading(heading.replace(/[`*_]/g, ''))) return true;
    }
    return false;
  };
}

/**
 * The config keys a YAML file reads through OmegaConf interpolation: `${judge_base_url}`,
 * `${oc.select:judge_base_url,default}`, `${policy.model_name}` (first segment). Resolver calls
 * other than `oc.select`/`oc.env`-style ones with a key argument are not keys.
 * Source: https://omegaconf.readthedocs.io/en/latest/usage.html#variable-interpolation
 */
export function interpolationKeys(text: string): string[] {
  const keys: string[] = [];
  for (const match of text.matchAll(/\$\{([A-Za-z_][\w.]{0,100}:)?([A-Za-z_][A-Za-z0-9_]*)[.,}\[]/g)) {
    const resolver = match[1];
    // `${oc.env:HOME}`, `${now:%H}`: a resolver's argument is not a config key; `oc.select` is.
    if (resolver === undefined || resolver === 'oc.select:') keys.push(match[2]!);
  }
  return keys;
}

/**
 * The `bin` commands of a package.json, each with the 1-based line that declares it (the
 * `"bin"` line for the string form) and the file it runs as written. Unparseable JSON yields none (the TypeScript extractor
 * reports it).
 */
export function binEntries(packageJson: string): Record<string, { line: number; file: string }> {
  let pkg: { name?: unknown; bin?: unknown };
  try {
    pkg = JSON.parse(packageJson) as { name?: unknown; bin?: unknown };
  } catch {
    return {};
  }
  const lines = packageJson.split(/\r?\n/);
  const lineOf = (needle: string): number => {
    const i = lines.findIndex((l) => l.includes(needle));
    return i >= 0 ? i + 1 : 1;
  };
  if (typeof pkg.bin === 'string' && typeof pkg.name === 'string') {
    return { [pkg.name.replace(/^@[^/]+\//, '')]: { line: lineOf('"bin"'), file: pkg.bin } };
  }
  if (pkg.bin && typeof pkg.bin === 'object') {
    return Object.fromEntries(
      Object.entries(pkg.bin as Record<string, unknown>).map(([name, file]) => [name, { line: lineOf(`"${name}"`), file: String(file) }]),
    );
  }
  return {};
}

/** An absolute or root-relative path as a project-relative POSIX path. */
export { toProjectPath };
