/** Joins what the extractors and the docs stage found into the Model the rules read. */
import { WELL_KNOWN_PROGRAMS } from '../shared/programs.js';
import { resolveCrossReferences, resolveSiteUrls } from './cross-references.js';
import { SuffixIndex } from './suffix-index.js';
import path from 'node:path';
import { scopeRowKeys } from './key-scopes.js';
import { proseFlags } from './prose-flags.js';
import { historyRanges, inRanges, isContributorPage, isHistoryPage } from '../docs/page-kind.js';
import { delegatedDocs, leadText, scopedConfigFile, selectionCue } from '../docs/lead.js';
import { classCandidates, inferCommand, INFERENCE_THRESHOLDS, isSubset, nestedSets, pageCommandOf, parameterSets, type Inference, type ParameterSet } from './infer-sections.js';
import { headingMatchText, trimTrailing, withoutExtras } from '../shared/strings.js';
import { LineRanges, lowerBound } from '../shared/ranges.js';
import { isAgentInstructions } from '../shared/paths.js';
import { headingCodeCommand } from './heading-command.js';
import { dependencyEnvPrefixes, envColumnSection, envFileSection, environmentCommand, envNameStatus, quietEnvParams, splitEnvSections, suppliedEnvNames } from './environment.js';
import { mentionedEnvName } from '../shared/env-words.js';
import { foldSpelling } from '../shared/names.js';
import { pathMatcher } from '../shared/path-match.js';
import { createHeadingMatcher, createParameterMatcher } from '../config/patterns.js';
import type { DocdriftConfig } from '../config/schema.js';
import { commentedYamlRows } from '../docs/yaml-reference.js';
import { nameCellSpelling, readReferenceTable, readReferenceTableWhole, rowSpelling } from '../docs/reference-table.js';
import { isOverrideWord, parseArguments } from '../docs/arguments.js';
import { distinctClasses, flagTakesValue, nestedKeyDiagnostics, resolveKey, scanParam } from '../model/query.js';
import { acceptsSpelling, bareFlagName, flagSpellingsOf } from '../model/flag-spelling.js';
import { configKeyUsages, MAX_RUN_CONFIG_KEYS } from '../docs/config-keys.js';
import { alsoNotRead } from '../shared/strings.js';
import type { FlagCommand } from '../extract/python/types.js';
import { applyDeclaredFlags, type ConfigSource } from './declared-flags.js';
import type {
  CommandSpec,
  ConfigClass,
  DataBlock,
  DocFile,
  EnvExtraction,
  Heading,
  EntryPoint,
  HeadingBlock,
  HelpBlock,
  InputDiagnostic,
  SourceLocation,
  Invocation,
  Model,
  ParamSpec,
  ReferenceLayout,
  ReferenceRow,
  ReferenceSection,
  UnknownSubcommand,
  UnreadProgram,
  Usage,
} from '../model/types.js';
import { ENVIRONMENT_COMMAND } from '../model/types.js';
import { pushUnique } from '../shared/arrays.js';
import { codeToken, docMemo } from './doc-memo.js';

/** Everything the join needs; all paths project-relative. */
export interface ModelInput {
  /** Absolute project root. */
  root: string;
  config: DocdriftConfig;
  classes: ConfigClass[];
  /** `module:function` → qualified names of the config classes that function builds. */
  functionConfigs: Map<string, string[]>;
  /** `module:function` → config classes built from a derived dict (accepted, not owned). */
  functionSecondaryConfigs?: Map<string, string[]>;
  /**
   * `module:function` keys of {@link functionConfigs} whose classes were found only by following
   * calls: when the command's own parser defines flags, those classes are not its parameters.
   */
  functionConfigsThroughCalls?: Set<string>;
  /** CLI flag definitions (argparse, click, typer), by the target that starts the program (issue #4). */
  flagCommands?: FlagCommand[];
  /** Flags modules compare argv words with by hand ({@link FlagCommand.launcher}), by module. */
  launcherFlags?: FlagCommand[];
  /** The config file, to locate `commands.*.flags` declarations in it. */
  configSource?: ConfigSource;
  entryPoints: EntryPoint[];
  /** Python files that run as scripts (`if __name__ == "__main__":`); their parsers may be commands of their own. */
  runnableScripts?: Set<string>;
  /** What was met in programs whose parameters may be unknown, by target (see `CommandSpec.unreadProgram`). */
  unreadPrograms?: ReadonlyMap<string, UnreadProgram>;
  /** Where a `program` target of the config is defined (follows re-exports); identity when absent. */
  canonicalTarget?: (target: string) => string;
  /** Identifier-like string literals by top-level package; see {@link Model.isReadElsewhere}. */
  stringKeys: Map<string, Set<string>>;
  /** Keys that YAML configs read through `${…}` interpolation, anywhere in the project. */
  interpolatedKeys?: Set<string>;
  /** Documents that may hold reference sections or examples (they name a command). */
  docs: DocFile[];
  /** Every document path of the project (parsed or not), for resolving site-route links. */
  docFiles?: string[];
  /** The URLs the project publishes its docs at (mkdocs.yml `site_url`, …): absolute links under them are links to its pages. */
  siteUrls?: string[];
  /** Parses, on first request, a document that is not in `docs` (a link target); undefined when there is none. */
  lazyDoc?: (file: string) => DocFile | undefined;
  /**
   * The keys a project config file that a section is scoped to sets (see
   * {@link ReferenceSection.scopedKeys}): `docFile` is the page, `named` the path its heading or
   * lead text gives. Undefined when the file cannot be found or read.
   */
  scopedFileKeys?: (docFile: string, named: string) => ReadonlySet<string> | undefined;
  /** The text of a document the run read, by project-relative path (see {@link Model.source}). */
  source?: (file: string) => string | undefined;
  diagnostics: InputDiagnostic[];
  /** Environment variables the code reads (issue #31; `CodeFacts.env`). */
  env?: EnvExtraction;
  /** Upper-case words of the code's text (`QDRANT_URL`): a variable mentioned there is never called unknown. */
  envWords?: ReadonlySet<string>;
  /** The packages the project depends on and holds (`readDependencies`, src/extract/dependencies.ts): sibling packages' env namespaces. */
  dependencies?: { dependencies: readonly string[]; local: readonly string[] };
  /** `.env.example`-style files parsed as env references (`parseEnvFile`, src/docs/env-file.ts). */
  envFiles?: ReadonlyArray<{ file: string; rows: ReferenceRow[]; lines?: number }>;
}

/**
 * Whether an env section documents one of the project's variables: an env file, or a row naming
 * a variable the code reads (well-known ones too: a `PORT` table is the app's) or one in the
 * project's namespace (`envNameStatus` `own`, or its first word a command's). A tutorial's table
 * of the proxy variables its HTTP libraries read (`HTTP_PROXY`, `WS_PROXY`), none read by the
 * project, documents other programs': it is no env reference of the project's and owes it no row.
 * `read`: the names of `cmd`'s parameters.
 */
function documentsOwnEnv(section: ReferenceSection, cmd: CommandSpec, read: ReadonlySet<string>, dynamic: EnvExtraction['dynamic'], supplied: ReadonlySet<string>, projectWords: ReadonlySet<string>): boolean {
  if (section.layout === 'env-file') return true;
  return section.rows.some((r) =>
    r.names.some((n) => read.has(n) || projectWords.has(n.split('_')[0]!.toUpperCase()) || envNameStatus(n, cmd, dynamic, () => false, undefined, supplied, projectWords) === 'own'),
  );
}

/** A copy of a parameter the model may amend in place (its arrays too); the rest is shared. */
function ownParameter(p: ParamSpec): ParamSpec {
  return { ...p, aliases: [...p.aliases], ...(p.choices ? { choices: [...p.choices] } : {}), ...(p.envVars ? { envVars: [...p.envVars] } : {}) };
}

/**
 * `input` with its own copies of the code's parameters: config classes' fields and flag commands'
 * parameters (and of the classes and commands holding them). Building the model amends parameters
 * in place (a description that says deprecated, declared flags, inherited spellings), and the code
 * facts it reads may be values a store hands out again to the next lint (the language server keeps
 * them live, src/lsp/pieces.ts `LIVE_KINDS`), which must stay as extracted. Parameters shared by a
 * class and the command built from it stay one object in the copy.
 */
function ownParameters(input: ModelInput): ModelInput {
  const copies = new Map<ParamSpec, ParamSpec>();
  const own = (p: ParamSpec): ParamSpec => {
    let copy = copies.get(p);
    if (!copy) copies.set(p, (copy = ownParameter(p)));
    return copy;
  };
  return {
    ...input,
    classes: input.classes.map((c) => ({ ...c, fields: c.fields.map(own) })),
    ...(input.flagCommands ? { flagCommands: input.flagCommands.map((f) => ({ ...f, params: f.params.map(own) })) } : {}),
    ...(input.launcherFlags ? { launcherFlags: input.launcherFlags.map((f) => ({ ...f, params: f.params.map(own) })) } : {}),
  };
}

/**
 * Builds the model.
 *
 * Commands: every command in `config.commands` (explicit mapping wins), then every entry point
 * not already named there; entry points with the same `module:function` target are one command,
 * the first declared name being primary. A command's parameters are the fields of its config
 * classes (first class wins on a name clash) plus `params` from the config.
 *
 * Reference sections: a heading block whose heading has an inline code naming a known command
 * (whole code text, or its first word) and that holds at least one reference table (a table with
 * a name column). Tables that belong to a nested block which is itself a reference section are
 * left to that section. Headings matching `config.globalSections` open global sections.
 * Blocks no heading or config ties to a command are then tried by reference inference
 * ({@link inferBlocks}, src/link/infer-sections.ts): a block whose rows clearly name one command's
 * parameters becomes its section, one that documents the fields of a config class no command
 * reads becomes the section of a new `config-file` command (`mappedBy: 'inferred'`), and a nested
 * config class's block is keyed under its field. Every block considered is in `Model.inferences`.
 *
 * Usages: every example invocation whose program is a known command name or alias, except on
 * pages that record history (change logs, release notes, blog posts: `DocFile.historical`).
 *
 * Never throws on odd input; unknown class names in the config are ignored here (the engine
 * warns about them).
 */
export function buildModel(given: ModelInput): Model {
  const input = ownParameters(given);
  const { config } = input;
  const classes = new Map(input.classes.map((c) => [c.qualifiedName, c]));
  const bySimpleName = new Map<string, ConfigClass[]>();
  for (const c of input.classes) {
    const list = bySimpleName.get(c.name) ?? [];
    list.push(c);
    bySimpleName.set(c.name, list);
  }
  const resolveClass = (name: string): ConfigClass | undefined => {
    const exact = classes.get(name);
    if (exact) return exact;
    const simple = distinctClasses(bySimpleName.get(name) ?? []);
    return simple.length === 1 ? simple[0] : undefined;
  };

  const throughCalls: ThroughCalls = new Map();
  const commands = buildCommands(input, resolveClass, throughCalls);
  addScriptCommands(commands, input.flagCommands ?? [], input.runnableScripts ?? new Set());
  addFlagCommands(commands, input.flagCommands ?? [], throughCalls, (targets) => [
    ...new Set(targets.flatMap((t) => input.functionConfigs.get(normaliseTarget(t)) ?? [])),
  ].map(resolveClass).filter((c): c is ConfigClass => c !== undefined));
  addLauncherFlags(commands, input.launcherFlags ?? []);
  addSubclassFields(commands, input.classes);
  // A config type whose inherited fields a reading limit cut: its command is partly known.
  for (const cmd of commands) {
    for (const name of cmd.configClasses) {
      const cut = classes.get(name)?.unreadFields;
      if (cut && !cmd.unreadFlags) cmd.unreadFlags = cut;
    }
  }
  addSubcommandScripts(commands, input.entryPoints);
  // Sub-commands of a script (`tools/release.py prepare`) are script commands too.
  const scriptNames = new Set(commands.filter((c) => c.script).map((c) => c.name));
  for (const c of commands) if (!c.script && scriptNames.has(c.name.split(' ')[0]!)) c.script = true;
  applyDeclaredFlags(commands, config, input.configSource);
  markDescribedDeprecations(commands, input.classes);
  // What docdrift met in a program it read nothing from: said in the note on its unknown parameters.
  for (const cmd of commands) {
    if (cmd.paramsKnown || cmd.target === undefined || cmd.name.includes(' ')) continue;
    const unread = input.unreadPrograms?.get(cmd.target) ?? input.unreadPrograms?.get(normaliseTarget(cmd.target));
    if (unread) cmd.unreadProgram = unread;
  }
  // A sub-command of a program docdrift stopped reading (its flags worker past its budget or heap
  // limit, a file too large) takes part of its parameters from that program (flags, overrides):
  // what the config declares is not all of them, so they are unknown too. Left known, a flags
  // worker stopped on NeMo Gym made 60 README examples of `gym eval run` example-param-unknown.
  const cutShort = new Map(commands.flatMap((c) => (c.unreadProgram?.kind === 'over-budget' || c.unreadProgram?.kind === 'too-large' ? [[c.name, c] as const] : [])));
  if (cutShort.size > 0) {
    for (const cmd of commands) {
      const parent = cmd.name.includes(' ') ? cutShort.get(cmd.name.split(' ')[0]!) : undefined;
      if (parent === undefined || !cmd.paramsKnown) continue;
      cmd.paramsKnown = false;
      // Known until now with the program unread: what it has is what the config declares.
      cmd.unreadProgram = parent.unreadProgram?.kind === 'over-budget' && cmd.params.length > 0 ? { ...parent.unreadProgram, declaredFlagsAmend: true } : parent.unreadProgram;
      // The note names the program's entry point (a declared sub-command has none of its own).
      if (cmd.target === undefined && parent.target !== undefined) cmd.target = parent.target;
    }
  }
  // `commands.<name>.defaultSubcommand`: the sub-command a group runs when none is named.
  for (const [name, entry] of Object.entries(config.commands)) {
    const cmd = entry.defaultSubcommand === undefined ? undefined : commands.find((c) => c.name === name || c.aliases.includes(name));
    if (cmd) cmd.defaultSubcommand = `${cmd.name} ${entry.defaultSubcommand}`;
  }
  const byName = new Map<string, CommandSpec>();
  for (const cmd of commands) {
    for (const n of [cmd.name, ...cmd.aliases]) if (!byName.has(n)) byName.set(n, cmd);
  }
  const commandByName = (name: string): CommandSpec | undefined => byName.get(name);
  // `"tool a b"` declared alone: `tool` and `tool a` are implied parents, so examples of
  // `tool a b …` are found and split at `a b`.
  const implied = new Set<string>();
  // Every name that has sub-commands (`tool`, `tool eval` of `tool eval run`), declared or implied.
  const groups = new Set<string>();
  // From the longest prefix down, stopping at one already met (its own prefixes were added then):
  // each prefix is built once, so sub-commands nested 2,000 deep are not cubic (#33 sweep D4).
  for (const name of byName.keys()) {
    for (let end = name.lastIndexOf(' '); end > 0; end = name.lastIndexOf(' ', end - 1)) {
      const prefix = name.slice(0, end);
      if (groups.has(prefix)) break;
      groups.add(prefix);
      if (!byName.has(prefix)) implied.add(prefix);
    }
  }

  const isReferenceDoc = config.reference.length > 0 ? pathMatcher(config.reference, { dot: true }) : () => true;
  const isGlobalHeading = createHeadingMatcher(config.globalSections);
  // Headings the config ties to a command (`commands.black.sections: ["Command line options"]`).
  const headingCommands = Object.entries(config.commands)
    .filter(([, c]) => (c.sections ?? []).length > 0)
    .map(([name, c]) => ({ name, matches: createHeadingMatcher(c.sections ?? []), ...(c.complete === true ? { complete: true } : {}) }));
  const isGlobalFile = config.globalFiles.length > 0 ? pathMatcher(config.globalFiles, { dot: true }) : () => false;
  const isIgnored = parameterMatcherOf(config.ignoreParameters);

  const sections: ReferenceSection[] = [];
  // Commented YAML blocks read as reference rows: not examples of their config file as well.
  const referenceBlocks = new Set<DataBlock>();
  // Issue #31: env tables, lists and headings become sections of the `environment` pseudo-command,
  // and the command sections are read from what is left (no flag is demanded in an env table).
  // `env.check: false` in the config turns all of it off.
  const checkEnv = config.env?.check !== false;
  const env: EnvExtraction = (checkEnv ? input.env : undefined) ?? { vars: [], dynamic: [] };
  const envNames = new Set(env.vars.map((v) => foldSpelling(v.name)));
  const envSections: ReferenceSection[] = [];
  const isEnvSectionHeading = createHeadingMatcher(config.env?.sections ?? []);
  // Each page's split is kept for the next model while the code and the config are the same
  // (src/link/doc-memo.ts): it reads only the page, the variables the code reads and the config.
  const token = codeToken(
    [given.classes, given.functionConfigs, given.functionSecondaryConfigs, given.functionConfigsThroughCalls, given.flagCommands, given.launcherFlags, given.entryPoints, given.runnableScripts, given.stringKeys, given.interpolatedKeys, given.env, given.dependencies],
    [given.root, given.config, given.configSource ?? null, [...(given.unreadPrograms ?? [])], given.envWords?.size ?? 0],
  );
  const envContext = String(token);
  const referenceDocs = input.docs.filter((doc) => isReferenceDoc(doc.file)).map((doc) => {
    // A contributor's page (`CONTRIBUTING.md`, `test/integration/README.md`) documents the
    // variables of the project's tooling, not the env reference its users read.
    if (!checkEnv || doc.historical || isHistoryPage(doc) || isContributorPage(doc.file)) return doc;
    const split = keptEnvSplits(doc.blocks, [doc.file], envContext, () => {
      const { rest, sections } = splitEnvSections(doc, (n) => envNames.has(foldSpelling(n)), isEnvSectionHeading);
      return { sections, ...(rest !== doc ? { blocks: rest.blocks } : {}) };
    });
    envSections.push(...split.sections);
    // The page of this lint (its links are this lint's own, resolved in place below) with the blocks kept.
    return split.blocks ? { ...doc, blocks: split.blocks } : doc;
  });
  if (checkEnv) for (const f of input.envFiles ?? []) if (f.rows.length > 0) envSections.push(envFileSection(f.file, f.rows, f.lines ?? f.rows.length));
  const spells = wholeSpellings(classes, commandByName);
  const explicit = new Map<DocFile, ReferenceSection[]>();
  for (const doc of referenceDocs) {
    explicit.set(doc, sectionsOfDoc(doc, commandByName, spells, isGlobalHeading, isGlobalFile(doc.file), headingCommands, referenceBlocks));
  }
  // Reference inference by content (issue #29): blocks no heading or config ties to a command,
  // whose rows clearly document one command's parameters. A command the config maps to headings,
  // or that a heading names, keeps the sections it was given.
  const headed = new Set<CommandSpec>();
  for (const list of explicit.values()) for (const s of list) for (const n of s.commands) { const c = byName.get(n); if (c) headed.add(c); }
  // Commands the config maps to headings: their sections are what the user said, nothing is added.
  const configured = new Set<CommandSpec>();
  for (const name of Object.keys(config.commands)) { const c = byName.get(name); if (c && (config.commands[name]!.sections ?? []).length > 0) { headed.add(c); configured.add(c); } }
  // Config classes no command reads are candidate config files, named after the file a page documents.
  const nested = nestedSets(commands.filter((c) => !c.script), classes);
  const taken = new Set(commands.flatMap((c) => c.configClasses));
  // A class a command's field is typed with is read through that command, with its key prefix.
  for (const c of commands) for (const p of c.params) if (p.typeRef) taken.add(p.typeRef);
  const commandSets = [...parameterSets(commands.filter((c) => !c.script), new Set(config.globalParameters)), ...nested];
  // A class whose fields a command accepts anyway (a base of its config class) is no config file of its own.
  // A config that declares a config file has said which config files there are: none is inferred.
  const declaresConfigFiles = Object.values(config.commands).some((c) => c.kind === 'config-file');
  const classSets = declaresConfigFiles ? [] : parameterSets(classCandidates(classes.values(), taken)).filter((cs) => !commandSets.some((c) => isSubset(cs.own, c.own)));
  const sets = [...commandSets, ...classSets];
  const inferences: InferredBlock[] = [];
  const programs = new Set(commands.filter((c) => c.kind !== 'config-file').map((c) => c.name.split(' ')[0]!.toLowerCase()));
  const commandSetsOnly = sets.filter((x) => x.command.mappedBy !== 'inferred');
  // A pasted `--help` whose usage line names no known program (`usage: main.py`, `python -m
  // pkg`): the command whose options it lists, when that is clear (never a config class).
  const inferHelp = (help: HelpBlock, file: string): Inference | undefined => {
    const inference = inferCommand([help.rows], commandSetsOnly, { heading: help.usage.join(' '), file });
    return inference.command && !headed.has(inference.command) ? inference : undefined;
  };
  const runOf = programRunner(input.entryPoints, commands, byName);
  // Each page's inference is kept for the next model while the code, the config (`token`, above)
  // and what it read of the other pages are the same (src/link/doc-memo.ts).
  // What every page's inference reads of the code and the other pages' headings, once.
  const readOfOthers = `${token}\n${[...headed].map((c) => c.name).join('\n')}\n\n${[...configured].map((c) => c.name).join('\n')}\n`;
  // Commands inferred from earlier pages, as they were added (name and aliases): `isCommand` answers them too.
  const added: string[] = [];
  const setIndexes = new Map<CommandSpec, number>();
  sets.forEach((x, i) => {
    if (!setIndexes.has(x.command)) setIndexes.set(x.command, i);
  });
  for (const doc of referenceDocs) {
    // Changelogs, upgrade guides and blog posts list past releases' flags: never a reference by content.
    if (isGlobalFile(doc.file) || isHistoryPage(doc) || sets.length === 0) {
      sections.push(...explicit.get(doc)!);
      continue;
    }
    const own = explicit.get(doc)!;
    const context = `${readOfOthers}\n${own.map((x) => `${x.heading.location.line}-${x.endLine}`).join(',')}\n${added.join('\n')}`;
    const infer = (): InferredBlock[] => inferBlocks(doc, own, sets, headed, (n) => byName.has(n), configured, (inv) => scriptInvocation(runOf(inv), byName));
    let fresh: InferredBlock[] | undefined;
    const kept = keptInferences(doc.blocks, [doc.file, doc.contributor, doc.invocations, doc.headings, doc.dataBlocks], context, () => keepInferences((fresh = infer()), setIndexes));
    const found = fresh ?? kept?.map((k) => inferredBlock(k, doc.file, sets)) ?? infer();
    inferences.push(...found);
    const assigned = found.filter((f) => f.inference.command);
    // Asked here and again by sectionsOfDoc: decided once per help block.
    const guesses = new Map<HelpBlock, Inference | undefined>();
    const helpGuess = (help: HelpBlock): Inference | undefined => {
      if (!guesses.has(help)) guesses.set(help, inferHelp(help, doc.file));
      return guesses.get(help);
    };
    const unknownHelp = (doc.helpBlocks ?? []).some((h) => !h.unread && h.usage.length > 0 && !byName.has(h.usage.join(' ')) && !byName.has(h.usage[0]!) && helpGuess(h));
    if (assigned.length === 0 && !unknownHelp) {
      sections.push(...explicit.get(doc)!);
      continue;
    }
    for (const f of assigned) {
      const cmd = f.inference.command!;
      if (cmd.mappedBy !== 'inferred' || commands.includes(cmd)) continue;
      // Named after the config file the page names (`stryker.config.json`), else the class.
      const linked = doc.links.flatMap((l) => (l.targetFile && l.targetFile !== doc.file ? [l.targetFile] : [])).slice(0, 20);
      const file = configFileNamed([doc, ...[...new Set(linked)].map((f) => input.lazyDoc?.(f) ?? input.docs.find((d) => d.file === f)).filter((d): d is DocFile => d !== undefined)], programs);
      if (file !== undefined && !byName.has(file)) {
        cmd.aliases = cmd.name === file ? [] : [cmd.name];
        cmd.name = file;
      }
      commands.push(cmd);
      for (const n of [cmd.name, ...cmd.aliases]) if (!byName.has(n)) byName.set(n, cmd);
      added.push([cmd.name, ...cmd.aliases].join(' / '));
    }
    const forced = new Map(assigned.filter((f) => byName.get(f.inference.command!.name) === f.inference.command).map((f) => [f.block, f]));
    sections.push(...sectionsOfDoc(doc, commandByName, spells, isGlobalHeading, isGlobalFile(doc.file), headingCommands, referenceBlocks, forced, helpGuess));
  }

  dropHistorySections(sections, commandByName);
  nameMetavarRows(sections, commandByName);
  dropProgramRows(sections, commandByName);
  // The env column of a flag table documents the variables its flags are also read from.
  for (const s of checkEnv ? [...sections] : []) {
    if (s.global || s.history) continue;
    const column = envColumnSection(s);
    if (column) envSections.push(column);
  }
  const envUsages = checkEnv ? input.docs.flatMap((doc) => (doc.historical ? [] : (doc.envUsages ?? []))) : [];
  // The first word of each command name, upper-case (`GEMINI`, `GITHUB` of `github-release`; not
  // `VLLM` of `mineru-vllm-server`): a vendor's namespace that is the project's name is its own.
  const projectWords = new Set(commands.filter((c) => c.kind !== 'environment').map((c) => c.name.toUpperCase().split(/[^A-Z0-9]+/).find((w) => w.length > 1)).filter((w): w is string => w !== undefined));
  const envCommand = !checkEnv || byName.has(ENVIRONMENT_COMMAND) ? undefined : quietEnvParams(environmentCommand(env), envSections, projectWords);
  // Variables the project supplies itself: hidden, yet they mark its namespace (envNameStatus).
  const supplied = suppliedEnvNames(env);
  // Env vars documented or set in examples while the code reads none a user sets: said in a note.
  const envUnchecked = envCommand || !checkEnv ? [] : [...new Set([...envSections.map((s) => s.file), ...envUsages.map((u) => u.file)])].sort();
  if (envCommand) {
    commands.push(envCommand);
    byName.set(ENVIRONMENT_COMMAND, envCommand);
    const read = new Set(envCommand.params.map((p) => p.name));
    sections.push(...envSections.filter((s) => documentsOwnEnv(s, envCommand, read, env.dynamic, supplied, projectWords)));
  }
  const envWords = input.envWords ?? new Set<string>();
  const envPrefixWords = [...envWords].filter((w) => w.endsWith('_'));
  const dependencyPrefixes = dependencyEnvPrefixes(input.dependencies, projectWords);
  // Folded names of every command's flags and fields, built on first use (see envNameStatus): a
  // primary name of any length (aider's `--4o` gives `AIDER_4O`), aliases of three letters or more
  // (a short `-v` would match any one-letter tail).
  let flagNameSet: Set<string> | undefined;
  const flagNames = (): Set<string> =>
    (flagNameSet ??= new Set(commands.filter((c) => c.kind !== 'environment').flatMap((c) => c.params.flatMap((p) => [p.name, ...p.aliases.filter((n) => n.length > 2)].map((n) => foldSpelling(n))))));
  // A section scoped to one shipped config file (`configs/agent.yaml`): the keys that file sets.
  if (input.scopedFileKeys) {
    for (const s of sections) {
      if (s.scopedFile === undefined) continue;
      const keys = input.scopedFileKeys(s.file, s.scopedFile);
      if (keys) s.scopedKeys = [...keys];
    }
  }

  const usages: Usage[] = [];
  const unknownSubcommands: UnknownSubcommand[] = [];
  const misspeltFlags: Usage[] = [];
  // Each command's spellings indexed once for all its example invocations (see FlagLookup).
  const flagLookups = new Map<CommandSpec, FlagLookup>();
  // A page's usages are kept for the next model while the code, the config and the commands' names
  // are the same (src/link/doc-memo.ts).
  const namesContext = `${token}\n${[...byName.keys()].join('\n')}`;
  for (const doc of input.docs) {
    // Change logs, release notes and blog posts show the commands of their time: not examples to check.
    if (doc.historical) continue;
    const page = keptUsages(doc.invocations, [doc.file], namesContext, () => {
      const found: PageUsages = { usages: [], unknownSubcommands: [], misspeltFlags: [] };
      const pageProgram = flagLinesProgram(doc.invocations.map((inv) => scriptInvocation(runOf(inv), byName)), byName);
      for (const written of doc.invocations) {
        const raw = pageProgram !== undefined && written.command.startsWith('-') ? flagLine(written, pageProgram) : scriptInvocation(runOf(written), byName);
        if (!byName.has(raw.command) && !implied.has(raw.command)) continue;
        for (const inv of splitSubcommand(raw, byName, implied, groups, found.unknownSubcommands, (c) => flagLookupOf(c, flagLookups))) {
          if (!byName.has(inv.command)) continue;
          const cmd = byName.get(inv.command);
          const flags = cmd ? flagLookupOf(cmd, flagLookups) : undefined;
          const dashed = cmd?.prefixChars === undefined ? undefined : withDashPrefixes(inv, cmd.prefixChars);
          const read = dashed?.inv ?? inv;
          for (const u of variadicValues(absorbFlagValues(matchSpellings(expandShortClusters(parseArguments(read), cmd, flags), cmd, flags, found.misspeltFlags), read, cmd, flags), cmd, flags)) {
            // The token as written (`++nme`, not `--nme`), for messages and suggestions.
            const written = dashed?.written.get(u.location);
            if (written !== undefined) u.raw = written;
            if (isIgnored(u.key)) continue;
            found.usages.push(u);
          }
        }
      }
      return found;
    });
    for (const u of page.usages) usages.push(u);
    for (const x of page.unknownSubcommands) unknownSubcommands.push(x);
    for (const u of page.misspeltFlags) if (!isIgnored(u.key)) misspeltFlags.push(u);
  }
  if (envCommand) for (const u of envUsages) if (!isIgnored(u.key)) usages.push(u);
  // A config file found by inference has no file name users were told to write: its YAML/JSON
  // blocks may be any layer of a composed config, so they are not checked as its examples.
  const configFiles = commands.filter((c) => c.kind === 'config-file' && c.mappedBy !== 'inferred');
  if (configFiles.length > 0) {
    // Within MAX_RUN_CONFIG_KEYS, pages whole and in path order; after the first page that does
    // not fit, later pages' blocks are only told apart (owned or not), never read.
    let keysUsed = 0;
    const keysCut: Array<{ file: string; location: SourceLocation; keys?: number }> = [];
    for (const doc of input.docs) {
      if (doc.historical) continue;
      const fileSections = sections.filter((sec) => sec.file === doc.file && !sec.global);
      const owned = (doc.dataBlocks ?? []).flatMap((block, i) => {
        if (referenceBlocks.has(block)) return [];
        const owner = dataBlockOwner(block, configFiles, fileSections, commandByName);
        return owner ? [{ block, owner, i }] : [];
      });
      if (owned.length === 0) continue;
      if (keysCut.length > 0) {
        keysCut.push({ file: doc.file, location: owned[0]!.block.location });
        continue;
      }
      const page = owned.flatMap(({ block, owner, i }) => configKeyUsages(block, owner, 100_000 + i));
      if (keysUsed + page.length > MAX_RUN_CONFIG_KEYS) {
        keysCut.push({ file: doc.file, location: page[0]!.location, keys: page.length });
        continue;
      }
      keysUsed += page.length;
      for (const u of page) if (!isIgnored(u.key)) usages.push(u);
    }
    const first = keysCut[0];
    if (first) {
      input.diagnostics.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message:
          `${first.file}: its config-file examples are not checked${alsoNotRead(keysCut.slice(1).map((c) => c.file), 'pages')}: one run checks at most ${MAX_RUN_CONFIG_KEYS.toLocaleString('en-US')} keys of config-file examples, ` +
          `the pages before it hold ${keysUsed.toLocaleString('en-US')} and this one ${first.keys!.toLocaleString('en-US')}. Exclude generated or copied pages with "ignore"`,
        location: first.location,
      });
    }
  }

  if (input.docFiles) {
    resolveCrossReferences(input.docs, input.docFiles);
    resolveSiteRoutes(input.docs, input.docFiles);
    if (input.siteUrls?.length) resolveSiteUrls(input.docs, input.docFiles, input.siteUrls);
  }
  const docsByFile = new Map<string, DocFile | undefined>(input.docs.map((d) => [d.file, d]));
  const sectionsByCommand = new Map<CommandSpec, ReferenceSection[]>();
  for (const s of sections) {
    if (s.global) continue;
    const seen = new Set<CommandSpec>();
    for (const n of s.commands) {
      const cmd = byName.get(n);
      if (!cmd || seen.has(cmd)) continue;
      seen.add(cmd);
      const list = sectionsByCommand.get(cmd) ?? [];
      list.push(s);
      sectionsByCommand.set(cmd, list);
    }
  }

  // Keys read elsewhere, per command (see Model.isReadElsewhere); computed on first use.
  // A config file found by inference is no command users type: its class's keys stay "read elsewhere".
  const typed = commands.filter((c) => c.mappedBy !== 'inferred');
  const commandClasses = new Set(typed.flatMap((c) => c.configClasses));
  const readElsewhereCache = new Map<CommandSpec, Set<string>>();
  // Parameter names of the typed commands that are not helper scripts, each once: a name of `cmd`'s
  // set that is one of these and none of `cmd`'s own is another command's. Was a scan of every
  // other command's parameters, each looked up in a fresh copy of `cmd`'s list, per command:
  // commands x params x params (a fire class of 1,200 methods sharing 1,200 `__init__`
  // parameters: rules 8.6 s, s28 sweep D2).
  let otherCommandNames: Set<string> | undefined;
  const readElsewhere = (cmd: CommandSpec): Set<string> => {
    let set = readElsewhereCache.get(cmd);
    if (set) return set;
    const module = cmd.target?.split(':')[0] ?? classes.get(cmd.configClasses[0] ?? '')?.module ?? '';
    const pkg = module.split('.', 1)[0] ?? '';
    set = new Set([...(input.stringKeys.get(pkg) ?? []), ...(input.interpolatedKeys ?? [])]);
    for (const c of input.classes) {
      if (commandClasses.has(c.qualifiedName) || c.module.split('.', 1)[0] !== pkg) continue;
      for (const f of c.fields) set.add(f.name);
    }
    // Another command's parameter passed here is the classic copy-paste mistake, however the
    // code spells it elsewhere (a shared base class, a `cfg["input_jsonl_fpath"]` lookup). A
    // repository helper script is no such command: its `--policy_base_url` flag often forwards a
    // global Hydra key to the app, which does not make `+policy_base_url=` a mistake elsewhere.
    otherCommandNames ??= new Set(typed.flatMap((other) => (other.script ? [] : other.params.map((p) => p.name))));
    if (set.size > 0) {
      const own = new Set([...cmd.params, ...(cmd.acceptedParams ?? [])].flatMap((p) => [p.name, ...p.aliases]));
      for (const name of set) if (otherCommandNames.has(name) && !own.has(name)) set.delete(name);
    }
    readElsewhereCache.set(cmd, set);
    return set;
  };

  // The first section of a command is where findings about it are reported and links point:
  // the fullest one (most rows naming its parameters), not a partial table in a tutorial; and a
  // page of the user documentation before an agent-instruction copy of it (`skills/x/references/`).
  for (const [cmd, list] of sectionsByCommand) {
    const names = new Set(cmd.params.flatMap((p) => [p.name, ...p.aliases]));
    const score = (sec: ReferenceSection): number => sec.rows.filter((r) => r.names.some((n) => names.has(n))).length;
    const agent = (sec: ReferenceSection): number => (isAgentInstructions(sec.file) ? 1 : 0);
    list.sort((a, b) => agent(a) - agent(b) || score(b) - score(a) || a.file.localeCompare(b.file) || a.heading.location.line - b.heading.location.line);
  }

  const model: Model = {
    root: input.root,
    commands,
    classes,
    docs: input.docs,
    sections,
    usages,
    globalParams: new Set(config.globalParameters),
    isReadElsewhere: (cmd, name) => readElsewhere(cmd).has(name),
    ...(envUnchecked.length > 0 ? { envUnchecked } : {}),
    ...(envCommand ? { envNameStatus: (name: string) => envNameStatus(name, envCommand, env.dynamic, (n) => mentionedEnvName(n, envWords, envPrefixWords), (folded) => flagNames().has(folded), supplied, projectWords, dependencyPrefixes) } : {}),
    commandByName,
    sectionsFor: (cmd) => sectionsByCommand.get(cmd) ?? [],
    globalSections: sections.filter((s) => s.global),
    proseFlags: proseFlags(input.docs, sections, commands, commandByName, isIgnored),
    inferences: inferences.map(({ file, block, inference }) => ({
      file,
      line: block.heading.location.line,
      heading: block.heading.text,
      rows: inference.rows,
      evidence: inference.evidence,
      ...(inference.command ? { command: inference.command.name } : {}),
      ...(inference.best ? { best: inference.best.command.name, shared: inference.best.shared } : {}),
    })),
    unknownSubcommands,
    misspeltFlags,
    isIgnored: (name) => isIgnored(name),
    doc: (file) => {
      if (docsByFile.has(file)) return docsByFile.get(file);
      const doc = input.lazyDoc?.(file);
      docsByFile.set(file, doc);
      return doc;
    },
    diagnostics: input.diagnostics,
    ...(input.source ? { source: input.source } : {}),
  };
  // Listed now, in command order, so that the nested-key budget is spent the same way in every
  // run and its warning is among the input problems before the rules run (#33 s28 sweep D9).
  for (const d of nestedKeyDiagnostics(model)) input.diagnostics.push(d);
  return model;
}

/** The names (and aliases) of config-file commands, and each one's pattern as a word of a text, per command list. */
const configFileNames = new WeakMap<CommandSpec[], { names: string[]; patterns: RegExp[] }>();

/** {@link configFileNames} for `configFiles`, computed on first use. */
function configFileNamePatterns(configFiles: CommandSpec[]): { names: string[]; patterns: RegExp[] } {
  let known = configFileNames.get(configFiles);
  if (!known) {
    const names = configFiles.flatMap((c) => [c.name, ...c.aliases]);
    known = { names, patterns: names.map((n) => new RegExp(`(^|[\\s"'=/])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s"'])`)) };
    configFileNames.set(configFiles, known);
  }
  return known;
}

/**
 * The config file a YAML/JSON/TOML block is an example of, by the first rule that applies:
 * its info string names the file (```` ```yaml title="app.yaml" ````), its first line is a comment
 * naming it (`# app.yaml`), or it lies inside a reference section of that file.
 */
function dataBlockOwner(
  block: DataBlock,
  configFiles: CommandSpec[],
  sections: ReferenceSection[],
  commandByName: (n: string) => CommandSpec | undefined,
): string | undefined {
  const { names, patterns } = configFileNamePatterns(configFiles);
  // Each name's pattern is compiled once per run, and tried only where the name occurs: one
  // RegExp per name per block made 2,000 config-file commands over 10,000 blocks 16 s (#33 s27 sweep2 D3).
  const named = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : names.find((n, i) => text.includes(n) && patterns[i]!.test(text));
  const byMeta = named(block.meta);
  const firstLine = /^\s*(#|\/\/)\s*(\S+)/.exec(block.value)?.[2];
  const byComment = firstLine !== undefined && names.includes(firstLine) ? firstLine : undefined;
  const line = block.location.line;
  const bySection = sections
    .filter((sec) => line > sec.heading.location.line && line <= sec.endLine)
    .flatMap((sec) => sec.commands)
    .find((n) => commandByName(n)?.kind === 'config-file' && names.includes(commandByName(n)!.name));
  // "Add this to your `app.yaml`:" right before the block.
  const byLead = named(block.lead?.replace(/`/g, ' ').replace(/:$/, ''));
  const found = byMeta ?? byComment ?? byLead ?? bySection;
  return found === undefined ? undefined : commandByName(found)?.name;
}

/**
 * The root parsers of runnable scripts (see {@link addScriptCommands}) by the script's path
 * (`tools/train.py`) and its dotted module (`tools.train`), the first of a file; the bare file
 * name is left out (several scripts may share it). For config entries naming a script.
 */
function scriptsByName(flagCommands: readonly FlagCommand[], runnable: ReadonlySet<string>): Map<string, FlagCommand> {
  const out = new Map<string, FlagCommand>();
  for (const fc of flagCommands) {
    if (fc.path.length > 0 || !runnable.has(fc.location.file)) continue;
    for (const n of [fc.location.file, fc.target.split(':')[0]!]) if (!out.has(n)) out.set(n, fc);
  }
  return out;
}

/**
 * Programs run as `python path/to/script.py` or `python -m pkg.module`, with a parser but no
 * console script: each file whose program root (argparse parser, click command, typer app) no
 * command reaches becomes a command named by its path (`tools/train.py`), with its file name
 * (`train.py`) and dotted module (`tools.train`, the `python -m` form) as aliases. A file that a
 * command's target (console script or config `program`) already names is left to that command.
 * One command per file: a program reachable from several functions of one file is one program.
 * Only files in `runnable` (they have an `if __name__ == "__main__":` block) are scripts.
 */
function addScriptCommands(commands: CommandSpec[], flagCommands: FlagCommand[], runnable: Set<string>): void {
  const reached = new Set(commands.flatMap((c) => (c.target ? [normaliseTarget(c.target).split(':')[0]!] : [])));
  const taken = new Set(commands.flatMap((c) => [c.name, ...c.aliases]));
  const seen = new Set<string>();
  // `python prepare.py` names a script by its file name only when one script has that name:
  // with several `prepare.py` files, which one runs depends on the working directory.
  const baseCount = new Map<string, number>();
  for (const file of new Set(flagCommands.filter((f) => f.path.length === 0 && runnable.has(f.location.file)).map((f) => f.location.file))) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    baseCount.set(base, (baseCount.get(base) ?? 0) + 1);
  }
  for (const fc of flagCommands) {
    if (fc.path.length > 0 || !runnable.has(fc.location.file)) continue;
    const module = fc.target.split(':')[0]!;
    const file = fc.location.file;
    if (reached.has(module) || seen.has(file)) continue;
    seen.add(file);
    const base = file.slice(file.lastIndexOf('/') + 1);
    const names = [file, (baseCount.get(base) ?? 0) === 1 ? base : '', module].filter((n, i, all) => n !== '' && all.indexOf(n) === i && !taken.has(n));
    if (names[0] !== file) continue; // the config already names this script
    for (const n of names) taken.add(n);
    commands.push({
      name: file,
      aliases: names.slice(1),
      target: fc.target,
      configClasses: [],
      params: [],
      mappedBy: 'entry-point',
      script: true,
      paramsKnown: false,
      location: fc.location,
    });
  }
}

/**
 * Scripts that run a sub-command of another program (`ng_collect_rollouts` re-entering `gym`
 * as `gym eval run`, {@link EntryPoint.subcommand}) are other names of that sub-command: each is
 * added to the aliases of the command with the program's target and those words. A script whose
 * sub-command is not found stays out (nothing is guessed).
 */
function addSubcommandScripts(commands: CommandSpec[], entryPoints: EntryPoint[]): void {
  const named = new Set(commands.flatMap((c) => [c.name, ...c.aliases]));
  for (const ep of entryPoints) {
    if (!ep.subcommand || named.has(ep.name)) continue; // the config names it: the config wins
    const target = normaliseTarget(ep.target);
    const root = commands.find((c) => c.target !== undefined && normaliseTarget(c.target) === target && !c.name.includes(' '));
    const name = root ? [root.name, ...ep.subcommand].join(' ') : undefined;
    const cmd = name === undefined ? undefined : commands.find((c) => c.name === name || c.aliases.includes(name));
    if (cmd) cmd.aliases.push(ep.name);
  }
}

/**
 * Ties an example to its program however it is run ({@link Invocation.via}); other invocations are
 * returned as they are.
 *
 * - `node path/cli.js …` (also bun, tsx, ts-node): the package.json `bin` whose file is that path
 *   (`./` and `..` segments normalised), else the one bin whose file ends with it (`node
 *   dist/cli.js` run inside `packages/cli`).
 * - `python -m pkg …` where `pkg` names no command: the one program whose console script's target
 *   module is `pkg`, else whose target is in package `pkg` (`python -m my_tool` for
 *   `my-tool = "my_tool.cli:main"`, run through `my_tool/__main__.py`).
 * - `docker run [options] IMAGE …`: the command its first argument names (`docker run img tool
 *   --x`), else the command named like the image's last path segment, tag and digest removed
 *   (`ghcr.io/acme/tool:1.2` → `tool`): an image named after a program of the project is taken to
 *   be the project's image, whose entry point is that program. Other images are not the project's.
 */
function programRunner(entryPoints: readonly EntryPoint[], commands: readonly CommandSpec[], byName: Map<string, CommandSpec>): (inv: Invocation) => Invocation {
  const bins = entryPoints.filter((e) => e.file !== undefined && byName.has(e.name));
  const moduleCommands = (test: (module: string) => boolean): CommandSpec[] =>
    [...new Set(commands.filter((c) => !c.script && !c.name.includes(' ') && c.target !== undefined && !c.target.startsWith('bin:') && test(normaliseTarget(c.target).split(':')[0]!)))];
  return (inv) => {
    // `./run_train.sh …`: a script run by its path from the directory it is in is the command of that name.
    if (inv.via === undefined && inv.command.startsWith('./') && !byName.has(inv.command)) {
      const bare = path.posix.normalize(inv.command.slice(2));
      if (byName.has(bare)) return { ...inv, command: bare };
    }
    if (inv.via === 'file') {
      const file = path.posix.normalize(inv.command.replace(/^\.\//, ''));
      const exact = bins.filter((b) => b.file === file);
      const found = exact.length > 0 ? exact : bins.filter((b) => b.file!.endsWith(`/${file}`));
      const names = [...new Set(found.map((b) => byName.get(b.name)!.name))];
      return names.length === 1 ? { ...inv, command: names[0]! } : inv;
    }
    if (inv.via === 'module' && !byName.has(inv.command)) {
      const module = inv.command;
      let found = moduleCommands((m) => m === module);
      if (found.length === 0) found = moduleCommands((m) => m.split('.', 1)[0] === module);
      return found.length === 1 ? { ...inv, command: found[0]!.name } : inv;
    }
    if (inv.via === 'image') {
      const first = inv.args[0];
      if (first && byName.has(first.text)) return { ...inv, command: first.text, args: inv.args.slice(1) };
      const name = inv.command.replace(/@sha256:[0-9a-f]+$/i, '').replace(/:[\w.-]+$/, '').split('/').pop() ?? '';
      return byName.has(name) ? { ...inv, command: name } : inv;
    }
    return inv;
  };
}

/**
 * `python finetune.py --x 1` / `python3 tools/train.py …`: when the script (as written, or its
 * file name) is a command, the invocation is that command's. Other `python` invocations stay
 * as they are.
 */
function scriptInvocation(inv: Invocation, byName: Map<string, CommandSpec>): Invocation {
  if (!/^python(\d+(\.\d+)*)?$/.test(inv.command.slice(inv.command.lastIndexOf('/') + 1))) return inv;
  const script = inv.args[0]?.text;
  if (script === undefined || !script.endsWith('.py')) return inv;
  const clean = script.replace(/^\.\//, '');
  const name = byName.has(clean) ? clean : byName.has(clean.slice(clean.lastIndexOf('/') + 1)) ? clean.slice(clean.lastIndexOf('/') + 1) : undefined;
  return name === undefined ? inv : { ...inv, command: byName.get(name)!.name, args: inv.args.slice(1) };
}

/**
 * Attaches CLI flags to commands: the flags of a program's root (`path: []`) join the command
 * whose entry point names the same target; each sub-command (`tool eval run`) becomes a command
 * of its own, named by the program and the sub-command words, with every alias spelled out, and
 * with the fields of the config classes built by the functions it dispatches to
 * ({@link FlagCommand.dispatch}, through `classesOf`).
 */
function addFlagCommands(commands: CommandSpec[], flagCommands: FlagCommand[], throughCalls: ThroughCalls, classesOf: (targets: string[]) => ConfigClass[] = () => []): void {
  // Programs are the commands with an entry point before linking: a sub-command the config names
  // (`commands."rslib inspect"`) gets its program's target below and is no program of its own.
  const roots = commands.filter((c) => c.target);
  // Indexes built once (searching every list per sub-command made 10,000 sub-commands quadratic):
  // the commands the config maps, by name (the first in order wins, as a search would find it) …
  const byConfigName = new Map<string, { command: CommandSpec; index: number }>();
  commands.forEach((c, index) => {
    if (c.mappedBy === 'config' && !byConfigName.has(c.name)) byConfigName.set(c.name, { command: c, index });
  });
  // … and the flag commands of a target by their path.
  const byPath = new Map<string, Map<string, Array<{ fc: FlagCommand; index: number }>>>();
  const pathIndex = (target: string): Map<string, Array<{ fc: FlagCommand; index: number }>> => {
    let index = byPath.get(target);
    if (!index) {
      index = new Map();
      byPath.set(target, index);
      for (const [i, f] of flagCommands.entries()) {
        if (f.target !== target) continue;
        const key = f.path.join('\0');
        const list = index.get(key);
        if (list) list.push({ fc: f, index: i });
        else index.set(key, [{ fc: f, index: i }]);
      }
    }
    return index;
  };
  for (const cmd of roots) {
    if (!cmd.target) continue;
    let target = normaliseTarget(cmd.target);
    // A package.json bin (`bin:<name>`) is a program of its own: another bin's flags never stand
    // in for its missing ones (every bin target shares the prefix `bin`, which is not a module).
    if (!target.startsWith('bin:') && !flagCommands.some((f) => f.target === target)) {
      // `program: "finetune:train"` names the function under `@app.command()`, not the app: the
      // module's one program, when it has exactly one, is what runs.
      // A click command attached to a group is listed as a program of its own too (an entry point
      // may name it): it is that group's sub-command here, not a second program of the module.
      const module = target.split(':')[0];
      const at = (f: FlagCommand): string => `${f.location.file}:${f.location.line}`;
      const attached = new Set(flagCommands.filter((f) => f.path.length > 0).map(at));
      const own = flagCommands.filter((f) => f.path.length === 0 && f.target.split(':')[0] === module && !attached.has(at(f)));
      const roots = [...new Set(own.map(at))];
      const only = roots.length === 1 ? own[0] : undefined;
      if (only) target = only.target;
    }
    for (const fc of flagCommands.filter((f) => f.target === target)) {
      // A command that declares no flag and accepts any (commander `.allowUnknownOption()`) hands
      // them to a parser built at run time (a plugin's, a sub-program's): its flags are not known.
      const delegates = passesAllFlagsOn(fc) || (fc.dynamicSubcommands === true && !fc.params.some((p) => !p.positional));
      if (fc.path.length === 0) {
        // The program's own parser defines its flags: a class reached only by following calls
        // (a settings file it loads, an API object it builds on the way) is not its interface.
        const followed = fc.params.some((p) => !p.positional) ? throughCalls.get(cmd) : undefined;
        if (followed) {
          const fields = new Set(followed.flatMap((c) => c.fields));
          const names = new Set(followed.map((c) => c.qualifiedName));
          cmd.params = cmd.params.filter((p) => !fields.has(p));
          cmd.configClasses = cmd.configClasses.filter((c) => !names.has(c));
          throughCalls.delete(cmd);
        }
        // A config field the program sets from one of these flags is that flag's internal name
        // (`skipTypeCheck: !args.typeCheck`): the flag, which users type, stands for it.
        const joined = fieldsSetByFlags(cmd.params, fc);
        if (joined.size > 0) cmd.params = cmd.params.filter((p) => !joined.has(p));
        const known = new Set(cmd.params.map((p) => p.name));
        cmd.params.push(...fc.params.filter((p) => !known.has(p.name)));
        cmd.paramsKnown = !delegates || cmd.params.length > 0;
        if (fc.defaultSubcommand !== undefined) cmd.defaultSubcommand ??= `${cmd.name} ${fc.defaultSubcommand}`;
        if (fc.passesUnknownFlags) cmd.passesUnknownFlags = true;
        if (fc.unreadFlags) cmd.unreadFlags ??= fc.unreadFlags;
        if (fc.dynamicSubcommands) cmd.dynamicSubcommands = true;
        if (fc.dynamicSubcommandsBy !== undefined) cmd.dynamicSubcommandsBy ??= fc.dynamicSubcommandsBy;
        if (fc.abbreviatesLongFlags) cmd.abbreviatesLongFlags = true;
        if (fc.prefixChars !== undefined) cmd.prefixChars ??= fc.prefixChars;
        continue;
      }
      // yargs/commander/cac/sade: options of the program and of parent sub-commands work here too.
      // Every flag command of the target whose path is a proper prefix of this one, in list order.
      const ancestors: Array<{ fc: FlagCommand; index: number }> = [];
      if (fc.inheritsParentFlags) {
        const index = pathIndex(target);
        for (let n = 0; n < fc.path.length; n++) ancestors.push(...(index.get(fc.path.slice(0, n).join('\0')) ?? []));
        ancestors.sort((a, b) => a.index - b.index);
      }
      const inherited = ancestors.flatMap((a) => a.fc.params.filter((param) => !param.positional));
      const words = [fc.path, ...(fc.aliases ?? []).map((a) => [...fc.path.slice(0, -1), a]), ...(fc.pathAliases ?? []).filter((w) => w.length > 0)];
      const names = [cmd.name, ...cmd.aliases].flatMap((program) => words.map((w) => `${program} ${w.join(' ')}`));
      // A sub-command the config also names (for its aliases, params or declared flags) is one command.
      let configuredAt: { command: CommandSpec; index: number } | undefined;
      for (const n of names) {
        const hit = byConfigName.get(n);
        if (hit && (!configuredAt || hit.index < configuredAt.index)) configuredAt = hit;
      }
      const configured = configuredAt?.command;
      if (configured) {
        const known = new Set(configured.params.map((p) => p.name));
        configured.params.push(...fc.params.filter((p) => !known.has(p.name)));
        for (const n of names) if (n !== configured.name) pushUnique(configured.aliases, n);
        configured.target ??= cmd.target;
        configured.location ??= fc.location;
        if (inherited.length > 0) {
          const have = new Set([...configured.params, ...(configured.acceptedParams ?? [])].map((p) => p.name));
          configured.acceptedParams = [...(configured.acceptedParams ?? []), ...inherited.filter((p) => !have.has(p.name))];
          configured.inheritsFrom ??= [cmd.name, ...fc.path.slice(0, -1)].join(' ');
        }
        configured.paramsKnown = !delegates || configured.params.length > 0;
        if (fc.passesUnknownFlags) configured.passesUnknownFlags = true;
        if (fc.unreadFlags) configured.unreadFlags ??= fc.unreadFlags;
        if (fc.dynamicSubcommands) configured.dynamicSubcommands = true;
        if (fc.dynamicSubcommandsBy !== undefined) configured.dynamicSubcommandsBy ??= fc.dynamicSubcommandsBy;
        if (fc.abbreviatesLongFlags) configured.abbreviatesLongFlags = true;
        if (fc.prefixChars !== undefined) configured.prefixChars ??= fc.prefixChars;
        if (fc.hidden) configured.hidden = true;
        if (fc.deprecated) configured.deprecated = true;
        if (configured.configClasses.length === 0 && fc.dispatch) {
          const dispatched = classesOf(fc.dispatch);
          const owned = new Set(configured.params.map((p) => p.name));
          const fields = mergeParams(dispatched, [], configured.name).filter((f) => !owned.has(f.name));
          if (fields.length > 0) configured.acceptedParams = [...(configured.acceptedParams ?? []), ...fields];
          configured.configClasses = dispatched.map((c) => c.qualifiedName);
        }
        continue;
      }
      const dispatched = fc.dispatch ? classesOf(fc.dispatch) : [];
      const fields = mergeParams(dispatched, [], names[0]!).filter((f) => !fc.params.some((p) => p.name === f.name));
      commands.push({
        name: names[0]!,
        aliases: names.slice(1),
        target: cmd.target,
        configClasses: dispatched.map((c) => c.qualifiedName),
        // The flags are the sub-command's own interface; the fields of the config classes it
        // dispatches to are accepted too (as Hydra-style overrides) and join their flags by `dest`.
        params: [...fc.params],
        ...(inherited.length + fields.length > 0 ? { acceptedParams: [...inherited, ...fields] } : {}),
        ...(fc.inheritsParentFlags ? { inheritsFrom: [cmd.name, ...fc.path.slice(0, -1)].join(' ') } : {}),
        mappedBy: 'entry-point',
        paramsKnown: !delegates || fields.length > 0,
        location: fc.location,
        ...(fc.defaultSubcommand !== undefined ? { defaultSubcommand: `${names[0]!} ${fc.defaultSubcommand}` } : {}),
        ...(fc.passesUnknownFlags ? { passesUnknownFlags: true } : {}),
        ...(fc.unreadFlags ? { unreadFlags: fc.unreadFlags } : {}),
        ...(fc.dynamicSubcommands ? { dynamicSubcommands: true } : {}),
        ...(fc.dynamicSubcommandsBy !== undefined ? { dynamicSubcommandsBy: fc.dynamicSubcommandsBy } : {}),
        ...(fc.abbreviatesLongFlags ? { abbreviatesLongFlags: true } : {}),
        ...(fc.prefixChars !== undefined ? { prefixChars: fc.prefixChars } : {}),
        ...(fc.hidden ? { hidden: true } : {}),
        ...(fc.deprecated ? { deprecated: true } : {}),
      });
    }
  }
}

/**
 * True when a command declares nothing (no flag, no argument) and accepts any flag (commander
 * `.allowUnknownOption()`, click `ignore_unknown_options`): what it accepts is decided by the
 * parser it hands the command line to, which docdrift did not read. A command that declares an
 * argument for what it passes on (`script_args`, `nargs=-1`) is a known command that runs another.
 */
function passesAllFlagsOn(fc: FlagCommand): boolean {
  return fc.passesUnknownFlags === true && fc.params.length === 0;
}

/** The config fields of `params` that `fc.fieldFlags` says the program sets from one of `fc`'s flags (matched by `dest`, else name). */
function fieldsSetByFlags(params: readonly ParamSpec[], fc: FlagCommand): Set<ParamSpec> {
  const out = new Set<ParamSpec>();
  const sources = fc.fieldFlags;
  if (!sources) return out;
  const flags = fc.params.filter((p) => !p.positional);
  for (const p of params) {
    if (p.origin !== 'config-field' || !Object.hasOwn(sources, p.name)) continue;
    const dest = sources[p.name];
    if (flags.some((f) => f.dest === dest || f.name === dest)) out.add(p);
  }
  return out;
}

/**
 * A help text or description that says the parameter is deprecated, at its start or its end
 * (`"(deprecated) use --x"`, `"Maps coverage … DEPRECATED"`, `"Deprecated: use source"`): how
 * yargs, argparse and click programs mark an option kept for old scripts when their framework has
 * no `deprecated=` of its own. A mention in the middle ("replaces the deprecated --y") is not.
 */
const DESCRIBED_DEPRECATED_RE = /^\W{0,3}(?:deprecated|legacy)\b|\b(?:deprecated|no longer (?:used|supported))\W{0,3}$/i;

/**
 * Marks parameters whose description says they are deprecated (see {@link DESCRIBED_DEPRECATED_RE})
 * as deprecated, with the description as the message, when nothing else marked them: commands'
 * parameters and config classes' fields. Mutates the parameters in place.
 */
function markDescribedDeprecations(commands: readonly CommandSpec[], classes: readonly ConfigClass[]): void {
  const mark = (p: ParamSpec): void => {
    if (p.deprecated === false && p.description !== undefined && DESCRIBED_DEPRECATED_RE.test(p.description.trim())) p.deprecated = p.description.trim();
  };
  for (const c of commands) for (const p of c.params) mark(p);
  for (const c of classes) for (const p of c.fields) mark(p);
}

/**
 * A command whose config class the project subclasses (`class Config(Trainer.Config)` adding
 * `fault_tolerance` in an experiment) may run with the subclass (a launcher or registry picks it
 * at run time, which docdrift does not follow): the fields the subclasses add, at any depth, are
 * accepted in its examples (`--fault_tolerance.enable`), not required in its reference. Not for
 * a shared base that other commands' config classes extend (their fields are theirs).
 */
function addSubclassFields(commands: CommandSpec[], classes: readonly ConfigClass[]): void {
  const children = new Map<string, ConfigClass[]>();
  for (const c of classes) {
    for (const b of c.bases) {
      const list = children.get(b);
      if (list) list.push(c);
      else children.set(b, [c]);
    }
  }
  if (children.size === 0) return;
  const commandConfigs = new Set(commands.flatMap((c) => c.configClasses));
  for (const cmd of commands) {
    if (cmd.configClasses.length === 0) continue;
    const seen = new Set<string>(cmd.configClasses);
    const queue = [...cmd.configClasses];
    const subs: ConfigClass[] = [];
    while (queue.length > 0 && seen.size < 1000) {
      for (const sub of children.get(queue.shift()!) ?? []) {
        if (seen.has(sub.qualifiedName)) continue;
        seen.add(sub.qualifiedName);
        queue.push(sub.qualifiedName);
        subs.push(sub);
      }
    }
    // A base that other commands' configs extend (`class RunConfig(BaseCLIConfig)`) is a shared
    // base, not a config the run picks a subclass of: its subclasses' fields are theirs.
    if (subs.length === 0 || subs.some((c) => commandConfigs.has(c.qualifiedName))) continue;
    const owned = new Set([...cmd.params, ...(cmd.acceptedParams ?? [])].flatMap((p) => [p.name, ...p.aliases]));
    const extra: ParamSpec[] = [];
    for (const f of subs.flatMap((c) => c.fields)) {
      if (owned.has(f.name)) continue;
      owned.add(f.name);
      extra.push(f);
    }
    if (extra.length > 0) cmd.acceptedParams = [...(cmd.acceptedParams ?? []), ...extra];
  }
}

/**
 * A command run through a launcher module that parses some flags by hand (`python -m
 * pkg.config.manager --module llama3 --config 8b --training.steps 10`, where the manager strips
 * `--module`/`--config` and hands the rest to tyro): a command whose name or alias is that module,
 * or whose target is in it, accepts the flags the module compares argv words with. They are
 * accepted, not owned: never unknown in examples, not required in its reference. A command whose
 * parameters come from nothing else (no config class, no flags) stays unknown: a few launcher
 * flags are not its interface.
 */
function addLauncherFlags(commands: CommandSpec[], launchers: FlagCommand[]): void {
  if (launchers.length === 0) return;
  const byModule = new Map(launchers.map((l) => [l.target, l]));
  for (const cmd of commands) {
    if (!cmd.paramsKnown) continue;
    const modules = new Set([cmd.name, ...cmd.aliases, ...(cmd.target ? [normaliseTarget(cmd.target).split(':')[0]!] : [])]);
    const owned = new Set([...cmd.params, ...(cmd.acceptedParams ?? [])].flatMap((p) => [p.name, ...p.aliases]));
    for (const module of modules) {
      const launcher = byModule.get(module);
      if (!launcher) continue;
      const extra = launcher.params.filter((p) => !owned.has(p.name));
      for (const p of extra) owned.add(p.name);
      if (extra.length > 0) cmd.acceptedParams = [...(cmd.acceptedParams ?? []), ...extra];
    }
  }
}

/**
 * A command's parameters indexed for reading its example invocations: {@link scanParam}'s
 * answer by a Map lookup, the first CLI flag (not positional) spelt a name, and the command's long
 * flag spellings sorted for a unique-prefix search. Built from a snapshot of the command's
 * parameter lists; {@link flagLookupOf} builds it again when a list was replaced or grew (while
 * linking, parameters are added to commands: that is why the rules' memoised `findParam` is not
 * used here). s29: was rebuilt, and scanned per usage, for every invocation (8,000 argparse flags
 * x 12,000 one-line examples: model 28.0 s -> 0.6 s, s28 sweep2 D5; variadicValues copied the lists per invocation too).
 */
export class FlagLookup {
  /** The lists the lookup was built from, and their lengths then. */
  readonly params: readonly ParamSpec[];
  readonly paramsLength: number;
  readonly accepted: readonly ParamSpec[] | undefined;
  readonly acceptedLength: number;
  /** Whether the command has a CLI flag that is not positional ({@link absorbFlagValues}). */
  readonly hasFlags: boolean;
  /** Whether every parameter is a CLI flag and one is a variadic positional argument ({@link variadicValues}). */
  readonly variadicFlagsOnly: boolean;
  /** How many positional arguments (CLI flags marked positional) the command declares ({@link endAtUnknownSubcommand}). */
  readonly positionalCount: number;
  private readonly byName = new Map<string, ParamSpec>();
  private readonly byAlias = new Map<string, ParamSpec>();
  private readonly negatableBySpelling = new Map<string, ParamSpec>();
  private readonly flags = new Map<string, ParamSpec>();
  /** The first CLI flag declaring each option string of {@link ParamSpec.optionStrings} (`--g`, `-gx`). */
  private readonly declared = new Map<string, ParamSpec>();
  /**
   * Distinct long option strings of the CLI flags, dashes included, sorted by code unit: each
   * name, alias and `no-name` as the code spells it ({@link flagSpellingsOf}: `--port`, `--g`,
   * `-gx`), not a one-letter short one (`-p`).
   */
  private readonly longs: string[];

  constructor(cmd: CommandSpec) {
    this.params = cmd.params;
    this.paramsLength = cmd.params.length;
    this.accepted = cmd.acceptedParams;
    this.acceptedLength = cmd.acceptedParams?.length ?? 0;
    const first = (map: Map<string, ParamSpec>, key: string, p: ParamSpec): void => {
      if (!map.has(key)) map.set(key, p);
    };
    const longs = new Set<string>();
    let hasFlags = false;
    let variadic = false;
    let onlyFlags = true;
    let positionals = 0;
    for (const p of [...cmd.params, ...(cmd.acceptedParams ?? [])]) {
      if (p.origin !== 'cli-flag') onlyFlags = false;
      else if (p.positional) {
        positionals++;
        if (p.variadic) variadic = true;
      }
      first(this.byName, p.name, p);
      for (const a of p.aliases) first(this.byAlias, a, p);
      if (p.negatable) for (const n of [p.name, ...p.aliases]) first(this.negatableBySpelling, n, p);
      if (p.origin !== 'cli-flag' || p.positional) continue;
      hasFlags = true;
      for (const n of [p.name, ...p.aliases]) first(this.flags, n, p);
      for (const s of p.optionStrings ?? []) first(this.declared, s, p);
      for (const n of [p.name, ...p.aliases, ...(p.negatable ? [`no-${p.name}`] : [])]) for (const s of flagSpellingsOf(p, n)) if (s.length > 2) longs.add(s);
    }
    this.hasFlags = hasFlags;
    this.variadicFlagsOnly = variadic && onlyFlags;
    this.positionalCount = positionals;
    this.longs = [...longs].sort();
  }

  /** Whether the lookup still describes `cmd` (its parameter lists are the same arrays, of the same lengths). */
  fits(cmd: CommandSpec): boolean {
    return cmd.params === this.params && cmd.params.length === this.paramsLength && cmd.acceptedParams === this.accepted && (cmd.acceptedParams?.length ?? 0) === this.acceptedLength;
  }

  /** {@link scanParam}: the first parameter with that name, else with that alias, else for `no-x` the first negatable one spelt `x`. */
  scanParam(name: string): ParamSpec | undefined {
    const direct = this.byName.get(name) ?? this.byAlias.get(name);
    if (direct || !name.startsWith('no-')) return direct;
    return this.negatableBySpelling.get(name.slice(3));
  }

  /** The first CLI flag (not positional) with `name` as its name or one of its aliases. */
  flagBySpelling(name: string): ParamSpec | undefined {
    return this.flags.get(name);
  }

  /** The first CLI flag whose declared option strings ({@link ParamSpec.optionStrings}) hold `spelling` (`--g`). */
  declaring(spelling: string): ParamSpec | undefined {
    return this.declared.get(spelling);
  }

  /** The one long option string (dashes included) that starts with `prefix` (`--para`, `-g`); undefined when none or several do (binary search in the sorted spellings). */
  uniqueLongPrefix(prefix: string): string | undefined {
    const longs = this.longs;
    const lo = lowerBound(longs, prefix);
    // Strings starting with `prefix` are contiguous in code-unit order, from the first not below it.
    if (lo >= longs.length || !longs[lo]!.startsWith(prefix)) return undefined;
    return lo + 1 < longs.length && longs[lo + 1]!.startsWith(prefix) ? undefined : longs[lo];
  }
}

/** `cmd`'s {@link FlagLookup} from `cache`, built again when its parameter lists changed since. */
function flagLookupOf(cmd: CommandSpec, cache: Map<CommandSpec, FlagLookup>): FlagLookup {
  let lookup = cache.get(cmd);
  if (!lookup?.fits(cmd)) cache.set(cmd, (lookup = new FlagLookup(cmd)));
  return lookup;
}

/**
 * `inv` with each argument that starts with one of `prefixChars` other than `-` (argparse
 * `prefix_chars="+"`: `+seed`, `++name=x`) spelled with as many dashes instead (`-seed`,
 * `--name=x`), so that {@link parseArguments} reads it as the flag the parser takes it for (s47
 * sweep J5: `tool +seed 1 ++nme y` passed nothing, and the typo went unreported); `written` maps
 * each changed argument's location to its text as written. A lone run of prefix characters is
 * left as written. Undefined when no argument changed.
 */
function withDashPrefixes(inv: Invocation, prefixChars: string): { inv: Invocation; written: Map<SourceLocation, string> } | undefined {
  if (![...prefixChars].some((c) => c !== '-')) return undefined;
  const written = new Map<SourceLocation, string>();
  const args = inv.args.map((arg) => {
    let n = 0;
    while (n < arg.text.length && prefixChars.includes(arg.text[n]!)) n++;
    if (n === 0 || n === arg.text.length || arg.text[0] === '-') return arg;
    written.set(arg.location, arg.text);
    return { ...arg, text: `${'-'.repeat(n)}${arg.text.slice(n)}` };
  });
  return written.size > 0 ? { inv: { ...inv, args }, written } : undefined;
}

/**
 * `-io`, `-Tnull`, `-vv`, `-p80`: a single-dash word of several letters is a cluster of short
 * flags, as POSIX getopt reads it and the parsers that follow it (argparse, click and typer,
 * commander, yargs, cyclopts): each letter is a short flag; a letter whose flag takes no value
 * (a boolean switch, a counted flag) lets the next letter be another flag; a letter whose flag
 * takes a value takes the rest of the word as its value (`-Tnull` is `-T null`), or the next word
 * when the rest is empty. The word stays one usage when it is itself a spelling of the command
 * (`-name` as a single-dash long option) or when its first letter is no short flag of the
 * command's (then it was never a cluster: `-Xmx` stays `Xmx`, judged as written). A letter that is
 * no short flag of the command ends the cluster as a usage of its own (`-ix`: `-x` is unknown).
 * Each letter's usage is located at that letter when the token is written unquoted on one line.
 * A repeated letter (`-vv`) is one usage.
 */
function expandShortClusters(usages: Usage[], cmd: CommandSpec | undefined, lookup?: FlagLookup): Usage[] {
  if (!cmd) return usages;
  const find = (name: string): ParamSpec | undefined => (lookup ? lookup.scanParam(name) : scanParam(cmd, name));
  // Each letter looked up once per call (the command does not change meanwhile): a scan of the
  // parameters per letter of `-aaaa…` cost letters x parameters (240,000 letters, 8,000 flags:
  // model 19 s, s28 sweep2 D6).
  const letters = new Map<string, ParamSpec | undefined>();
  const shortFlag = (letter: string): ParamSpec | undefined => {
    if (letters.has(letter)) return letters.get(letter);
    const p = find(letter);
    // A flag declared only as `--g` has no short flag `-g` to start or continue a cluster.
    const flag = p && p.origin === 'cli-flag' && !p.positional && acceptsSpelling(p, letter, '-') ? p : undefined;
    letters.set(letter, flag);
    return flag;
  };
  // The word names a flag as written (`-gx` declared so, or any flag docdrift matches leniently).
  const whole = (name: string): boolean => {
    const p = find(name);
    return p !== undefined && (p.origin !== 'cli-flag' || acceptsSpelling(p, name, '-'));
  };
  const out: Usage[] = [];
  for (const u of usages) {
    if (u.syntax !== 'flag' || u.prefix !== '-' || u.name.length < 2 || u.key !== u.name || u.raw.includes('=') || whole(u.name) || !shortFlag(u.name[0]!)) {
      out.push(u);
      continue;
    }
    const loc = u.location;
    // Columns of single letters are exact only for an unquoted word on one line.
    const exact = (loc.endLine ?? loc.line) === loc.line && loc.endColumn !== undefined && loc.endColumn - loc.column === u.raw.length && u.raw.startsWith(`-${u.name}`);
    const at = (k: number): Usage['location'] => (exact ? { ...loc, column: loc.column + 1 + k, endLine: loc.line, endColumn: loc.column + 2 + k } : loc);
    const seen = new Set<string>();
    const { value: _taken, ...base } = u;
    for (let k = 0; k < u.name.length; k++) {
      const letter = u.name[k]!;
      const p = shortFlag(letter);
      if (!p) {
        out.push({ ...base, name: letter, key: letter, location: at(k) });
        break;
      }
      if (flagTakesValue(p)) {
        const rest = u.name.slice(k + 1);
        const value = rest !== '' ? rest : u.value;
        out.push({ ...base, name: letter, key: letter, location: at(k), ...(value !== undefined ? { value } : {}) });
        break;
      }
      // A word the argument parser took as the cluster's value is a positional argument here.
      if (!seen.has(letter)) out.push({ ...base, name: letter, key: letter, location: at(k) });
      seen.add(letter);
    }
  }
  return out;
}

/**
 * Matches each flag of an example to the option string it spells, as the program's parser does.
 *
 * A flag whose written dashes are no spelling the code declares for the parameter of that name
 * (`-g` where argparse declares only `--g`, `--gx` for `-gx`: {@link acceptsSpelling}) is matched
 * to the flag that declares that option string, else (as an abbreviation, below) to the one it
 * starts, else it passes no parameter: it goes to `misspelt` (reported by example-param-unknown)
 * instead of the usages. A flag whose spellings are all usual is matched by its name whatever
 * its dashes, as before.
 *
 * `--param x=1` where the code declares `--params`: argparse (`allow_abbrev`, on by default)
 * accepts an unambiguous prefix of a long option, so for a command whose parser does
 * ({@link CommandSpec.abbreviatesLongFlags}) a flag that is no spelling of the command's but
 * the start of exactly one of its long option strings (`--no-x` of a negatable flag included;
 * a single-dash `-g` of a single-dash long option `-gx`, never of `--g`) is that option: the usage
 * is renamed to it (`raw` keeps what was written). A prefix of two option strings is ambiguous
 * (argparse exits with an error) and stays as written, as does a dotted flag.
 */
function matchSpellings(usages: Usage[], cmd: CommandSpec | undefined, lookup?: FlagLookup, misspelt?: Usage[]): Usage[] {
  if (!cmd) return usages;
  const flags = lookup ?? new FlagLookup(cmd);
  const out: Usage[] = [];
  for (const u of usages) {
    if (u.syntax !== 'flag' || (u.prefix !== '--' && u.prefix !== '-') || u.key !== u.name) {
      out.push(u);
      continue;
    }
    const p = flags.scanParam(u.name);
    if (p && (p.origin !== 'cli-flag' || p.positional || acceptsSpelling(p, u.name, u.prefix))) {
      out.push(u);
      continue;
    }
    const written = `${u.prefix}${u.name}`;
    const declaring = p ? flags.declaring(written) : undefined;
    const match = declaring ? declaring.name : cmd.abbreviatesLongFlags ? flags.uniqueLongPrefix(written) : undefined;
    if (match !== undefined) out.push({ ...u, name: bareFlagName(match), key: bareFlagName(match) });
    else if (p && misspelt) misspelt.push(u);
    else out.push(u);
  }
  return out;
}

/**
 * `fastmcp call add a=1 b=2`: a command whose positional argument takes every remaining word
 * ({@link ParamSpec.variadic}) gets `key=value` words as that argument's values, not as Hydra
 * overrides, so they are dropped from its usages. Only for a command whose parameters are all CLI
 * flags: one that also reads config classes may hand such words on as overrides (an argparse
 * `overrides` positional passed to Hydra's `compose`), and they stay checked against its fields.
 */
function variadicValues(usages: Usage[], cmd: CommandSpec | undefined, lookup?: FlagLookup): Usage[] {
  if (!cmd || cmd.configClasses.length > 0) return usages;
  if (!(lookup ?? new FlagLookup(cmd)).variadicFlagsOnly) return usages;
  return usages.filter((u) => u.syntax !== 'hydra-override');
}

/**
 * `--api-key anthropic=<key>`: a `key=value` token right after a CLI flag that takes a value is
 * that flag's value, not a Hydra override. The argument parser cannot know (`--multirun db=x`
 * is an override after a flag without value), the command's flag specs can: a known `cli-flag`
 * that is not boolean, negatable or positional takes a value.
 */
function absorbFlagValues(usages: Usage[], inv: Invocation, cmd: CommandSpec | undefined, lookup?: FlagLookup): Usage[] {
  if (!cmd) return usages;
  const flags = lookup ?? new FlagLookup(cmd);
  if (!flags.hasFlags) return usages;
  const takesValue = (name: string): boolean => {
    const p = flags.flagBySpelling(name);
    return p !== undefined && flagTakesValue(p);
  };
  const indexOf = (u: Usage): number => inv.args.findIndex((a) => a.location === u.location);
  const out: Usage[] = [];
  for (let i = 0; i < usages.length; i++) {
    const u = usages[i]!;
    const next = usages[i + 1];
    if (
      u.syntax === 'flag' &&
      u.value === undefined &&
      next?.syntax === 'hydra-override' &&
      takesValue(u.key) &&
      indexOf(next) === indexOf(u) + 1
    ) {
      out.push({ ...u, value: next.raw });
      i++;
      continue;
    }
    out.push(u);
  }
  return out;
}

/**
 * Splits an invocation of a program with sub-commands at the sub-command words:
 * `tool --verbose eval run --x 1` → `tool` with `--verbose`, and `tool eval run` with `--x 1`.
 * Options before the words belong to the program (argparse, click and typer parse them there);
 * a bare word after an option is that option's value unless it names a sub-command.
 */
function splitSubcommand(inv: Invocation, byName: Map<string, CommandSpec>, implied: Set<string> = new Set(), groups: Set<string> = new Set(), ended: UnknownSubcommand[] = [], lookupOf: (cmd: CommandSpec) => FlagLookup = (cmd) => new FlagLookup(cmd)): Invocation[] {
  // A group with a default sub-command (click-default-group) runs it when no sub-command is named.
  const toDefault = (i: Invocation): Invocation => {
    const target = byName.get(i.command)?.defaultSubcommand;
    return target !== undefined && byName.has(target) ? { ...i, command: target } : i;
  };
  const parts = splitAtWords(inv, byName, implied);
  const last = endAtUnknownSubcommand(parts[parts.length - 1]!, byName, groups, ended, lookupOf);
  return parts.length === 1 ? [toDefault(last)] : [parts[0]!, toDefault(last)];
}

/** A bare lower-case word (`python`, `openai`, `embed-multi`): what a sub-command name looks like. */
const COMMAND_WORD_RE = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * A group's first positional word that names none of its sub-commands (`llm python -m pip
 * install --pre torch`, where a plugin adds `llm python`) ends what is checked of the example: the
 * words after it belong to a sub-command docdrift does not know, and feeding them to the group, or
 * to its default sub-command, would report every flag of that plugin as unknown. Options before
 * the word are kept (the group's own, or its default's, as before).
 *
 * - A group without a default sub-command ends the check at any such word, unless it declares
 *   positional arguments of its own (`c8 [opts] <command…>` beside `c8 report`): the word is then
 *   its argument, and the example is checked against the group as before.
 * - A group with a default sub-command (click-default-group `DefaultGroup(default="prompt")`, a
 *   group class that inserts `run`) hands a positional to the default when it can be the
 *   default's argument, so `llm "Ten names" -m x` is still checked as `llm prompt`, and
 *   `tasker build --workers 4` as `tasker run build`. A word that looks like a sub-command name (a
 *   bare lower-case word, not quoted or escaped: a path `notes.txt`, a placeholder `<prompt>`,
 *   `$TEXT`, a number or `PROMPT` never does) stays the default's only when nothing says
 *   otherwise: the default declares a positional argument, the example passes no more positional
 *   words than the default declares (`llm python -m pip install …` passes `python` and `install`
 *   to one `prompt`; `llm openai endpoint URL` three), and every option after the word is the
 *   default's. Else the check ends at the word: an unknown option after an unknown word is as
 *   likely a plugin's as a typo, and docdrift cannot tell which (a typo there goes unreported; a
 *   default with a variadic positional that docdrift does not know to be variadic may also end an
 *   example early: silent passes, never false findings).
 *
 * Positional words are counted as the argument parser would see them: an option's value (the
 * word after an option that takes one, or after an unknown option) and Hydra overrides
 * (`+key=v`) are not positional; `--` ends the count.
 */
function endAtUnknownSubcommand(inv: Invocation, byName: Map<string, CommandSpec>, groups: Set<string>, ended: UnknownSubcommand[], lookupOf: (cmd: CommandSpec) => FlagLookup): Invocation {
  if (!groups.has(inv.command)) return inv;
  const own = byName.get(inv.command);
  const target = own?.defaultSubcommand;
  const fallback = target === undefined ? undefined : byName.get(target);
  // A group that takes positional arguments itself (`c8 [opts] <command…>` beside `c8 report`):
  // the word is its own argument, checked as before.
  // Each command's parameters from its FlagLookup, built once for all its examples: copied and
  // scanned per invocation and per option word, a group of 8,000 flags and 12,000 examples cost
  // model 11.4 s (s29 audit; bad-input argparse-group-many-examples).
  if (!fallback && own && lookupOf(own).positionalCount > 0) return inv;
  const counted = fallback ?? own;
  const positions = positionalWords(inv, counted && lookupOf(counted));
  const first = positions[0];
  if (first === undefined) return inv;
  if (fallback) {
    const word = inv.args[first]!;
    if (word.quoted === true || !COMMAND_WORD_RE.test(word.text)) return inv;
    const lookup = lookupOf(fallback);
    if (positions.length <= lookup.positionalCount && inv.args.slice(first + 1).every((a) => isOptionOf(lookup, a.text))) return inv;
  }
  const word = inv.args[first]!;
  ended.push({ file: inv.file, group: byName.get(inv.command)?.name ?? inv.command, word: word.text, commandLike: word.quoted !== true && COMMAND_WORD_RE.test(word.text), groupHasDefault: fallback !== undefined, location: word.location });
  return { ...inv, args: inv.args.slice(0, first) };
}

/** True unless the word is an option the command does not define (`--help` and a short cluster's first letter count as defined). */
function isOptionOf(cmd: FlagLookup, text: string): boolean {
  if (!text.startsWith('-') || text === '-' || text === '--' || /^-\d/.test(text)) return true;
  const long = text.startsWith('--');
  const name = text.slice(long ? 2 : 1).split('=', 1)[0]!;
  if (name === 'help' || name === 'h' || name === '') return true;
  return cmd.scanParam(name) !== undefined || (!long && cmd.scanParam(name[0]!) !== undefined);
}

/** Indexes of an invocation's positional words, options' values and overrides skipped, up to `--`. */
function positionalWords(inv: Invocation, cmd: FlagLookup | undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const text = inv.args[i]!.text;
    if (text === '--') break;
    if (text.startsWith('-') && text !== '-' && !/^-\d/.test(text)) {
      if (text.includes('=')) continue;
      const p = cmd?.scanParam(text.replace(/^-+/, ''));
      const next = inv.args[i + 1]?.text;
      // A known switch (boolean, counted) takes no value; any other option takes the next word, as
      // the argument parser guesses for an unknown one (a config field passed as a flag included).
      const isSwitch = p !== undefined && (p.positional === true || p.negatable === true || p.counted === true || /^(bool|boolean)$/i.test(p.type ?? ''));
      if (next !== undefined && !next.startsWith('-') && !isOverrideWord(next) && !isSwitch) i++;
      continue;
    }
    if (isOverrideWord(text)) continue;
    out.push(i);
  }
  return out;
}

function splitAtWords(inv: Invocation, byName: Map<string, CommandSpec>, implied: Set<string>): Invocation[] {
  const isStep = (name: string): boolean => byName.has(name) || implied.has(name);
  for (let start = 0; start < inv.args.length; start++) {
    const text = inv.args[start]!.text;
    if (text === '--') break;
    if (text.startsWith('-')) continue;
    if (!isStep(`${inv.command} ${text}`)) {
      const previous = inv.args[start - 1]?.text ?? '';
      if (previous.startsWith('-') && !previous.includes('=')) continue; // an option's value
      break; // a positional argument of the program: no sub-command follows
    }
    let name = `${inv.command} ${text}`;
    let known = byName.has(name) ? name : undefined;
    let end = start + 1;
    let knownEnd = byName.has(name) ? end : -1;
    for (let i = start + 1; i < Math.min(inv.args.length, start + 6); i++) {
      const next = `${name} ${inv.args[i]!.text}`;
      if (!isStep(next)) break;
      name = next;
      end = i + 1;
      if (byName.has(name)) {
        known = name;
        knownEnd = end;
      }
    }
    // Only implied parents (`tool a` of a lone `tool a b`) and no declared command: not split.
    if (known === undefined) return [inv];
    const head = { ...inv, args: inv.args.slice(0, start) };
    return [
      ...(byName.has(inv.command) ? [head] : []),
      { ...inv, command: known, args: inv.args.slice(knownEnd) },
    ];
  }
  return [inv];
}

/**
 * Commands whose config classes discovery found only by following calls from their function,
 * with those classes: the commands' flags, once read, replace them (see {@link addFlagCommands}).
 */
type ThroughCalls = Map<CommandSpec, ConfigClass[]>;

function buildCommands(input: ModelInput, resolveClass: (n: string) => ConfigClass | undefined, throughCalls: ThroughCalls = new Map()): CommandSpec[] {
  const commands: CommandSpec[] = [];
  const followed = (target: string | undefined): boolean => target !== undefined && (input.functionConfigsThroughCalls?.has(normaliseTarget(target)) ?? false);
  const claimed = new Set<string>();
  const scripts = scriptsByName(input.flagCommands ?? [], input.runnableScripts ?? new Set());
  for (const [name, entry] of Object.entries(input.config.commands)) {
    const ep = input.entryPoints.find((e) => e.name === name);
    // A script named by its path or its `python -m` module, as `init` writes it (the run on the
    // defaults makes it a command of that name, see addScriptCommands): that script is its program.
    // Without this the entry had no program and its flags were lost (s29 sweep D3: NeMo Gym, 80
    // commands' parameters unknown after `init`).
    const script = ep === undefined && entry.program === undefined ? [name, ...(entry.aliases ?? [])].map((n) => scripts.get(n)).find((f) => f !== undefined) : undefined;
    // An entry without `config` (only aliases or extra params) keeps what discovery found; a
    // `program` wins over the console script's own target.
    // A script that re-enters another program's sub-command (`ep.subcommand`) does not run that program's root.
    const target = entry.program !== undefined ? (input.canonicalTarget?.(entry.program) ?? entry.program) : ep?.subcommand ? undefined : (ep?.target ?? script?.target);
    const classNames =
      entry.config === undefined
        ? target !== undefined
          ? (input.functionConfigs.get(normaliseTarget(target)) ?? [])
          : []
        : Array.isArray(entry.config)
          ? entry.config
          : [entry.config];
    const resolved = classNames.map(resolveClass).filter((c): c is ConfigClass => c !== undefined);
    const unresolved = entry.config === undefined ? [] : classNames.filter((n) => resolveClass(n) === undefined);
    const params = mergeParams(resolved, entry.params ?? [], name);
    // Classes discovery found for the function that the config's own list leaves out.
    const kept = new Set(resolved.map((c) => c.qualifiedName));
    const dropped = entry.config !== undefined && target !== undefined
      ? (input.functionConfigs.get(normaliseTarget(target)) ?? []).map(resolveClass).filter((c): c is ConfigClass => c !== undefined && !kept.has(c.qualifiedName))
      : [];
    const spec: CommandSpec = {
      name,
      aliases: [...(entry.aliases ?? [])],
      target,
      configClasses: resolved.map((c) => c.qualifiedName),
      ...(unresolved.length > 0 ? { unresolvedConfig: unresolved } : {}),
      params,
      ...(dropped.length > 0 ? { droppedConfigClasses: [...new Set(dropped.map((c) => c.qualifiedName))] } : {}),
      mappedBy: 'config',
      paramsKnown: resolved.length > 0 || (entry.params ?? []).length > 0,
      location: ep?.location ?? script?.location,
      ...(script ? { script: true } : {}),
      ...(entry.kind === 'config-file' ? { kind: 'config-file' as const } : {}),
    };
    commands.push(spec);
    // Only classes discovery found (the config names none) can be replaced by the flags.
    if (entry.config === undefined && resolved.length > 0 && followed(target)) throughCalls.set(spec, resolved);
    claimed.add(name);
    for (const a of entry.aliases ?? []) claimed.add(a);
  }

  const byTarget = new Map<string, EntryPoint[]>();
  // Names per target in a set: 100,000 console scripts naming one function were quadratic (#33 sweep D6).
  const namesOf = new Map<string, Set<string>>();
  for (const ep of input.entryPoints) {
    if (claimed.has(ep.name) || ep.subcommand) continue; // a sub-command's other name: see addSubcommandScripts
    const list = byTarget.get(ep.target) ?? [];
    let names = namesOf.get(ep.target);
    if (!names) namesOf.set(ep.target, (names = new Set()));
    if (!names.has(ep.name)) {
      names.add(ep.name);
      list.push(ep);
    }
    byTarget.set(ep.target, list);
  }
  for (const [target, eps] of byTarget) {
    const [first, ...rest] = eps;
    if (!first) continue;
    const resolved = (input.functionConfigs.get(normaliseTarget(target)) ?? [])
      .map(resolveClass)
      .filter((c): c is ConfigClass => c !== undefined);
    const secondary = (input.functionSecondaryConfigs?.get(normaliseTarget(target)) ?? [])
      .map(resolveClass)
      .filter((c): c is ConfigClass => c !== undefined);
    const params = mergeParams(resolved, [], first.name);
    const accepted = mergeParams(secondary, [], first.name).filter((p) => !params.some((q) => q.name === p.name));
    const spec: CommandSpec = {
      name: first.name,
      aliases: rest.map((e) => e.name),
      target,
      configClasses: resolved.map((c) => c.qualifiedName),
      params,
      ...(accepted.length > 0 ? { acceptedParams: accepted } : {}),
      mappedBy: 'entry-point',
      paramsKnown: resolved.length > 0,
      location: first.location,
    };
    commands.push(spec);
    if (resolved.length > 0 && followed(target)) throughCalls.set(spec, resolved);
  }
  return commands;
}

/** `pkg.mod:func [extra]` → `pkg.mod:func` (entry points may carry extras in brackets). */
function normaliseTarget(target: string): string {
  return withoutExtras(target).trim();
}

function mergeParams(classes: ConfigClass[], extra: string[], command: string): ParamSpec[] {
  const out = new Map<string, ParamSpec>();
  for (const c of classes) for (const f of c.fields) if (!out.has(f.name)) out.set(f.name, f);
  for (const name of extra) {
    if (out.has(name)) continue;
    out.set(name, {
      name,
      aliases: [],
      required: false,
      deprecated: false,
      hidden: false,
      origin: 'config-field',
      owner: `docdrift config (commands.${command}.params)`,
      location: { file: 'docdrift config', line: 1, column: 1 },
    });
  }
  return [...out.values()];
}

/**
 * For a section's commands (by name), whether a key is a parameter or nested key of one of them,
 * for reading name-cell code spans whole ({@link readReferenceTableWhole}, s38 sweep D2: `max
 * tokens`, `p | q`, a flag `--g<i>`). `undefined` instead of a function when no parameter of those
 * commands, and no field of a config class their types reach, has a name that the usual reading
 * of a name cell cannot give ({@link nameCellSpelling}): then every span is read the usual way,
 * and none is asked about.
 */
function wholeSpellings(
  classes: Map<string, ConfigClass>,
  commandByName: (n: string) => CommandSpec | undefined,
): (commands: readonly string[]) => ((key: string) => boolean) | undefined {
  const odd = (p: ParamSpec): boolean => [p.name, ...p.aliases].some((n) => nameCellSpelling(rowSpelling(p, n), n) !== 'split');
  // Whether a parameter, or a field of a config class its type reaches (nested keys), has such a
  // name: each class is looked at once per command (a visited set), its own fields' answer kept.
  const oddFields = new Map<string, boolean>();
  const reachesOdd = (params: readonly ParamSpec[]): boolean => {
    if (params.some(odd)) return true;
    const seen = new Set<string>();
    const stack: ParamSpec[][] = [[...params]];
    for (let list = stack.pop(); list !== undefined; list = stack.pop()) {
      for (const p of list) {
        for (const ref of [p.typeRef, p.valueTypeRef]) {
          if (ref === undefined || seen.has(ref)) continue;
          seen.add(ref);
          const fields = classes.get(ref)?.fields ?? [];
          let own = oddFields.get(ref);
          if (own === undefined) oddFields.set(ref, (own = fields.some(odd)));
          if (own) return true;
          stack.push(fields);
        }
      }
    }
    return false;
  };
  const oddCommands = new WeakMap<CommandSpec, boolean>();
  const hasOdd = (cmd: CommandSpec): boolean => {
    let found = oddCommands.get(cmd);
    if (found === undefined) oddCommands.set(cmd, (found = reachesOdd([...cmd.params, ...(cmd.acceptedParams ?? [])])));
    return found;
  };
  const view = { classes };
  return (names) => {
    const cmds = names.map(commandByName).filter((c): c is CommandSpec => c !== undefined);
    if (!cmds.some(hasOdd)) return undefined;
    return (key) => cmds.some((c) => resolveKey(view, c, key).status === 'known');
  };
}

function sectionsOfDoc(
  doc: DocFile,
  commandByName: (n: string) => CommandSpec | undefined,
  wholeSpells: (commands: readonly string[]) => ((key: string) => boolean) | undefined,
  isGlobalHeading: (text: string) => boolean,
  globalFile = false,
  headingCommands: Array<{ name: string; matches: (text: string) => boolean; complete?: boolean }> = [],
  referenceBlocks: Set<DataBlock> = new Set(),
  inferred: ReadonlyMap<HeadingBlock, InferredBlock> = new Map(),
  inferHelp?: (help: HelpBlock) => Inference | undefined,
): ReferenceSection[] {
  // Decide which blocks open sections, then give each table to the innermost such block.
  const opened: Array<{ block: HeadingBlock; commands: string[]; global: boolean; configured?: boolean; complete?: boolean; inferred?: InferredBlock }> = [];
  // A loop, not Math.min(...): 100,000+ headings would overflow the argument stack.
  let minDepth = Infinity;
  for (const b of doc.blocks) minDepth = Math.min(minDepth, b.heading.depth);
  for (const block of doc.blocks) {
    const names: string[] = [];
    for (const code of block.heading.codes) {
      // "`ServerConfig` inherits `BundlerPlugins`": the base a heading names is not its subject.
      if (namesBase(block.heading.text, code)) continue;
      // `slidev build [entry]` → `slidev build`, `gym eval run --no-serve` → `gym eval run`.
      const name = headingCodeCommand(code, (n) => commandByName(n) !== undefined);
      if (name) pushUnique(names, name);
    }
    // `{#build}` ids and `<!-- … -->` comments are no part of the heading's words.
    const headingText = headingMatchText(block.heading.text);
    // A heading that is only a code span (`` ### `project` ``) names a parameter, never a configured
    // section ("Project"); except the page title (`` # `push` ``, Redocly's command pages), which no parameter has.
    const codeOnly = block.heading.depth > 1 && block.heading.codes.some((c) => c.trim() === headingText);
    let configured = false;
    let complete = false;
    if (!codeOnly) {
      for (const hc of headingCommands) {
        if (!hc.matches(headingText)) continue;
        configured = true;
        if (hc.complete) complete = true;
        pushUnique(names, hc.name);
      }
    }
    // In a global file, the top-level blocks (which cover the whole page) are global sections.
    const topLevel = globalFile && block.heading.depth === minDepth;
    const global = names.length === 0 && (topLevel || isGlobalHeading(headingText));
    const guess = names.length === 0 && !global ? inferred.get(block) : undefined;
    if (guess?.inference.command) {
      opened.push({ block, commands: [guess.inference.command.name, ...(guess.inference.also ?? []).map((c) => c.name)], global: false, configured: true, inferred: guess });
      continue;
    }
    if (names.length > 0 || global) opened.push({ block, commands: names, global, ...(configured ? { configured } : {}), ...(complete ? { complete } : {}) });
  }
  // Heading blocks nest (a block ends before the next heading of its rank or higher), so the
  // sections nested in a section are covered by its direct children, found with a stack in one
  // pass; a line belongs to a nested section when a child's range holds it (binary search).
  // Linear in the sections, where filtering all of them per section was quadratic (issue #18).
  const children = new Map<(typeof opened)[number], Array<(typeof opened)[number]>>();
  const stack: Array<(typeof opened)[number]> = [];
  for (const x of opened) {
    const line = x.block.heading.location.line;
    while (stack.length > 0 && !(line > stack[stack.length - 1]!.block.heading.location.line && x.block.endLine <= stack[stack.length - 1]!.block.endLine)) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) {
      const list = children.get(parent) ?? [];
      list.push(x);
      children.set(parent, list);
    }
    stack.push(x);
  }
  // A "Common options" heading documents the commands of its own page (their programs), not every
  // command of the project; a page naming no command, and a `globalFiles` page, stay global.
  const programs = [...new Set(opened.flatMap((o) => o.commands.map((c) => c.split(' ')[0]!)))].sort();
  const sections: ReferenceSection[] = [];
  for (const o of opened) {
    const inner = children.get(o) ?? [];
    // Rows from every layout in the block, except what a nested section claims for itself.
    const own = (line: number): boolean => {
      let lo = 0;
      let hi = inner.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (inner[mid]!.block.heading.location.line <= line) lo = mid + 1;
        else hi = mid;
      }
      const x = inner[lo - 1];
      return !(x && line <= x.block.endLine);
    };
    const configFile = o.commands.length > 0 && o.commands.every((n) => commandByName(n)?.kind === 'config-file');
    // A name-cell code span is read whole where it spells a parameter of the section's commands (`max tokens`).
    const spells = o.block.tables.length > 0 ? wholeSpells(o.commands) : undefined;
    const layouts: Array<[ReferenceLayout, ReferenceRow[]]> = [
      ['table', o.block.tables.filter((t) => own(t.location.line)).flatMap((t) => (spells ? readReferenceTableWhole(t, spells) : readReferenceTable(t)) ?? [])],
      ['headings', (o.block.headingRows ?? []).filter((r) => own(r.location.line))],
      ['list', (o.block.listRows ?? []).filter((r) => own(r.location.line))],
      ['commented-yaml', configFile || (o.configured === true && !o.global) ? yamlReferenceRows(doc, o.block, o.commands, own, commandByName, referenceBlocks, configFile, o.inferred !== undefined) : []],
    ];
    // A bullet list beside a table or parameter headings usually lists something else (output
    // fields, accepted values): list rows count only in a section with no other layout.
    const others = layouts.filter(([layout, rows]) => layout !== 'list' && rows.length > 0);
    const used = others.length > 0 ? others : layouts.filter(([, rows]) => rows.length > 0);
    const first = used[0];
    if (!first) continue;
    // A page titled with the program's name (`` # `uvu` ``) may document its JavaScript API: rows
    // under function signatures (`### uvu.suite<T>(name: string, context?: T)` then `#### name`)
    // are that function's parameters. A heading naming the command is no evidence of a CLI
    // reference; a row spelled as a flag, or a section without such signatures, is.
    if (!o.configured && !o.inferred && !o.global && o.commands.length > 0 && isApiSection(doc, o.block, used.flatMap(([, rows]) => rows))) continue;
    // In a config file's reference, "All fields under `login`" scopes the rows below it to `login.*`.
    const rowsOf = (rows: ReferenceRow[]): ReferenceRow[] => (configFile ? scopeRowKeys(doc.blocks, o.block, rows) : rows);
    const rows = prefixed(rowsOf(used.flatMap(([, rows]) => rows)), o.inferred?.inference.prefix).sort((a, b) => a.location.line - b.location.line);
    const scope = leadScope(doc, o.block, rows, configFile, o.commands);
    // `commands.<name>.complete`: the configured section lists every parameter, whatever its lead says.
    if (o.complete) delete scope.selection;
    sections.push({
      file: doc.file,
      heading: o.block.heading,
      commands: o.commands,
      global: o.global,
      ...(o.global && !globalFile && programs.length > 0 ? { programs } : {}),
      // The layout that holds most rows names the section; rows of every layout count.
      layout: [...used].sort((a, b) => b[1].length - a[1].length)[0]![0],
      rows,
      endLine: o.block.endLine,
      ...(o.inferred ? { inferred: { evidence: o.inferred.inference.evidence, ...(o.inferred.inference.pageCommand ? { pageCommand: true } : {}) } } : {}),
      // A list explaining an example's flags documents those flags, not every parameter.
      ...(o.inferred?.inference.explainsExample ? { selection: 'the flags of the example above' } : {}),
      ...(o.configured && !o.inferred ? { configured: true } : {}),
      ...scope,
    });
  }
  sections.push(...helpSections(doc, commandByName, opened, inferHelp));
  // Changelogs, upgrade guides, blog posts and "Breaking changes" parts record past releases.
  const page = isHistoryPage(doc);
  const ranges = page ? [] : historyRanges(doc.blocks);
  for (const section of sections) if (page || inRanges(ranges, section.heading.location.line)) section.history = true;
  return sections;
}

/** A signature heading up to its closing parenthesis: `` `new a.b<T> (x, y) ``; anchored, and each piece's end is forced by the next. */
const SIGNATURE_HEAD_RE = /^`?(?:new\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:<[^>]*>)?\s*\([^)]*\)/;
/** What may follow a signature's parameters before its return type: `: T`, `=> T`. */
const SIGNATURE_RETURN_RE = /^\s*(?::|=>)/;
/** A line terminator: what `.` does not match. */
const LINE_TERMINATOR_RE = /[\n\r\u2028\u2029]/;

/**
 * Whether a heading is a function or method signature: `uvu.suite<T>(name: string, context?: T)`,
 * `suite.run()`, `` `test(name, fn)` ``, as
 * `/^`?(?:new\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:<[^>]*>)?\s*\([^)]*\)(?:\s*(?::|=>)\s*.*)?`?$/`
 * read it, in linear time: that pattern's `\s*.*` after the `:` rescanned a run of blanks from
 * each of its positions when a line break followed (100,000 tabs: 19 s). After the parameters
 * comes nothing, a backtick, or `:`/`=>` and text whose only line breaks lie in its leading
 * whitespace.
 */
export function isSignatureHeading(text: string): boolean {
  const head = SIGNATURE_HEAD_RE.exec(text);
  if (!head) return false;
  const rest = text.slice(head[0].length);
  if (rest === '' || rest === '`') return true;
  const ret = SIGNATURE_RETURN_RE.exec(rest);
  return ret !== null && !LINE_TERMINATOR_RE.test(rest.slice(ret[0].length).trimStart());
}

/** A document's heading lines, ascending, and whether its headings are in line order, once per headings array. */
const headingLineIndexes = new WeakMap<readonly Heading[], { lines: number[]; ordered: boolean }>();

/**
 * The headings of `doc` on lines `(after, upTo]`, in the document's order. A filter over every
 * heading per section was quadratic: 14,000 sections of one page cost 1.6 s (#33 D3).
 */
function headingsWithin(doc: DocFile, after: number, upTo: number): Heading[] {
  let index = headingLineIndexes.get(doc.headings);
  if (!index) {
    const lines = doc.headings.map((h) => h.location.line);
    index = { lines, ordered: lines.every((line, i) => i === 0 || lines[i - 1]! <= line) };
    headingLineIndexes.set(doc.headings, index);
  }
  if (!index.ordered) return doc.headings.filter((h) => h.location.line > after && h.location.line <= upTo);
  return doc.headings.slice(lowerBound(index.lines, after + 1), lowerBound(index.lines, upTo + 1));
}

/**
 * Whether a section that a heading naming a command opened is a JavaScript/Python API reference
 * rather than the command's: no row is spelled as a flag (`--bail`, `-b`), and every row sits
 * under a heading that is a function signature (`### uvu.test(name: string, callback: function)`
 * then `#### name`), so the rows are that function's parameters.
 */
function isApiSection(doc: DocFile, block: HeadingBlock, rows: readonly ReferenceRow[]): boolean {
  if (rows.length === 0 || rows.some((r) => /^\s*`?-/.test(r.rawName))) return false;
  const inner = headingsWithin(doc, block.heading.location.line, block.endLine);
  return rows.every((row) => {
    // The nearest heading above the row of a lower rank (the row's own heading excluded).
    const own = inner.find((h) => h.location.line === row.location.line);
    const depth = own?.depth ?? Infinity;
    let parent: Heading | undefined;
    for (const h of inner) {
      if (h.location.line >= row.location.line) break;
      if (h.depth < depth) parent = h;
    }
    return parent !== undefined && isSignatureHeading(headingMatchText(parent.text).trim());
  });
}

/**
 * What a section's heading and lead text (src/docs/lead.ts) say about its rows: that they are a
 * selection, that their defaults are one named config file's values, and which pages the command
 * defers to for the options it does not list. The lead is the paragraph right before the first
 * row, after the last heading above it (a sub-heading's lead when the rows sit under one).
 */
function leadScope(
  doc: DocFile,
  block: HeadingBlock,
  rows: readonly ReferenceRow[],
  configFile: boolean,
  commands: readonly string[],
): Pick<ReferenceSection, 'selection' | 'scopedFile' | 'delegatesTo'> {
  const firstRow = rows[0]?.location.line;
  if (firstRow === undefined) return {};
  // The last heading before the first row (binary search: a page of many sections asks per section).
  let lo = 0;
  let hi = doc.headings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (doc.headings[mid]!.location.line < firstRow) lo = mid + 1;
    else hi = mid;
  }
  const last = doc.headings[lo - 1];
  const sub = last && last.location.line > block.heading.location.line ? last : undefined;
  const from = (sub ?? block.heading).location.line;
  const lead = leadText(doc, from, firstRow);
  const headingText = headingMatchText(block.heading.text);
  // The page shows a command's `--help` output as an image (a paragraph that is only its alt text,
  // `cz version --help`): the full list is there, unread; the page's sections are a selection.
  const helpImage = (doc.paragraphs ?? []).find((p) => commands.some((c) => p.text.trim() === `${c} --help` || p.text.trim() === `${c} -h`));
  const selection = selectionCue(headingText, sub ? '' : lead) ?? (sub ? selectionCue(headingMatchText(sub.text), lead) : undefined) ?? (helpImage ? `${helpImage.text.trim()} (line ${helpImage.line})` : undefined);
  const file = scopedConfigFile([headingText, sub ? headingMatchText(sub.text) : ''].join(' '), lead);
  // A config file's own reference names itself; another file named with its folder is one instance.
  const scopedFile = file !== undefined && !commands.some((n) => n === file || file.endsWith(`/${n}`)) ? file : undefined;
  const delegatesTo = configFile ? [] : delegatedDocs(doc, from, firstRow);
  // A table of one shipped file's keys is not a selection by that alone: it should still list what
  // that file sets, and docdrift does not read the file (a run reads only discovered files).
  return {
    ...(selection !== undefined ? { selection } : {}),
    ...(scopedFile !== undefined ? { scopedFile } : {}),
    ...(delegatesTo.length > 0 ? { delegatesTo } : {}),
  };
}

/**
 * A history section (a changelog's or upgrade guide's list, {@link ReferenceSection.history}) is
 * no reference of a command that has another section: it is dropped. One that is its command's
 * only section stays, read as a partial list (`partialReference`). Mutates the list in place.
 */
function dropHistorySections(sections: ReferenceSection[], commandByName: (n: string) => CommandSpec | undefined): void {
  const current = new Set<CommandSpec>();
  for (const s of sections) if (!s.history && !s.global) for (const n of s.commands) { const c = commandByName(n); if (c) current.add(c); }
  let kept = 0;
  for (const s of sections) {
    const cmds = s.history ? s.commands.map(commandByName).filter((c): c is CommandSpec => c !== undefined) : [];
    if (s.history && (s.global || (cmds.length > 0 && cmds.every((c) => current.has(c))))) continue;
    sections[kept++] = s;
  }
  sections.length = kept;
}

/**
 * The file a data block says it is: its info string's `title=` (```` ```yaml title="app.yaml" ````),
 * else a first non-blank line (after a `---`) that is only a comment naming a YAML/JSON/TOML file.
 */
function fileNamedBy(data: DataBlock): string | undefined {
  const title = /title=["']?([^"'\s]+)/.exec(data.meta ?? '')?.[1];
  if (title !== undefined) return title;
  const first = data.value.split(/\r?\n/).find((l) => l.trim() !== '' && l.trim() !== '---') ?? '';
  return /^\s*#\s*([\w./-]+\.(?:ya?ml|json|toml))\s*$/i.exec(first)?.[1];
}

/**
 * Rows of the commented YAML blocks (`key: value  # what it does`, {@link commentedYamlRows}) of a
 * section's own lines. A block whose `title=` or first-line comment names another file than the
 * section's commands (`# docker-compose.yml`) is an example of that file and is skipped; outside a
 * config file's section (`configFile` false: a configured `sections` heading of a CLI command) a
 * block counts only when at least half of its rows name the command's parameters. Each block read
 * is added to `referenceBlocks`. In a section found by inference (`inferred`), a value is a
 * documented default only when the block's lead sentence speaks of defaults or the key's comment
 * states one.
 */
function yamlReferenceRows(
  doc: DocFile,
  block: HeadingBlock,
  commands: readonly string[],
  own: (line: number) => boolean,
  commandByName: (n: string) => CommandSpec | undefined,
  referenceBlocks: Set<DataBlock>,
  configFile: boolean,
  inferred = false,
): ReferenceRow[] {
  const names = new Set(commands.flatMap((n) => {
    const c = commandByName(n);
    return c ? [c.name, ...c.aliases] : [n];
  }));
  const params = new Set(commands.flatMap((n) => (commandByName(n)?.params ?? []).flatMap((p) => [p.name, ...p.aliases])));
  const rows: ReferenceRow[] = [];
  for (const data of doc.dataBlocks ?? []) {
    const line = data.location.line;
    if (line <= block.heading.location.line || line > block.endLine || !own(line)) continue;
    const file = fileNamedBy(data);
    if (file !== undefined && !names.has(file) && !names.has(file.slice(file.lastIndexOf('/') + 1))) continue;
    const read = commentedYamlRows(data);
    if (!read) continue;
    // Under a configured heading of a CLI command, a commented YAML block is often another tool's
    // file (a CI workflow): it documents the command only when most of its top-level keys are the
    // command's parameters.
    if (!configFile && read.filter((r) => params.has(r.names[0]!) || params.has(r.names[0]!.split('.')[0]!)).length * 2 < read.length) continue;
    referenceBlocks.add(data);
    // Found by inference, a block's values are defaults only when the sentence before it says so
    // ("The following shows the default value for each option:") or a key's comment states one;
    // else they may be an example's values (`favicon: /favicon.ico  # Favicon URL`).
    if (inferred && !/\bdefaults?\b/i.test(data.lead ?? '')) {
      for (const r of read) {
        if (r.default !== undefined && !/\bdefault\s*[:=]/i.test(r.description ?? '')) {
          delete r.default;
          delete r.defaultLocation;
        }
      }
    }
    rows.push(...read);
  }
  return rows;
}

/**
 * A positional argument documented by its metavar (`APP` for click's `app`, `INPUT_FILE` for
 * argparse's `input-file`): the row also names the parameter, so it needs no match of its own.
 * Mutates the rows in place.
 */
function nameMetavarRows(sections: readonly ReferenceSection[], commandByName: (n: string) => CommandSpec | undefined): void {
  for (const section of sections) {
    const positionals = section.commands.flatMap((n) => commandByName(n)?.params ?? []).filter((p) => p.positional);
    if (positionals.length === 0) continue;
    // A named row is a copy: the rows are the parsed document's, which the language server keeps
    // from one lint to the next (src/lsp/pieces.ts), so a name added to them would outlive the code's.
    section.rows = section.rows.map((row) => {
      const metavar = row.names[0] ?? '';
      if (!/^[A-Z][A-Z0-9_]*$/.test(metavar)) return row;
      const p = positionals.find((q) => q.name.toUpperCase().replace(/-/g, '_') === metavar);
      return p && !row.names.includes(p.name) ? { ...row, names: [...row.names, p.name] } : row;
    });
  }
}

/**
 * Drops the rows that name a program, not a parameter, from the sections of commands whose
 * parameters are all CLI flags: a bare name (no leading dash) that is one of the project's command
 * names or a well-known tool ({@link WELL_KNOWN_PROGRAMS}) and none of the commands' own spellings.
 * pip-tools' README, under "## Example usage for `pip-compile`", has a list "- `pip-compile` will
 * produce different results … - `pip` must be used with …": sentences about the tools, which the
 * list layout reads as two rows, and two false `reference-param-unknown` errors. A section left with
 * no row is no reference section.
 */
function dropProgramRows(sections: ReferenceSection[], commandByName: (n: string) => CommandSpec | undefined): void {
  for (let i = sections.length - 1; i >= 0; i--) {
    const section = sections[i]!;
    if (section.global) continue;
    const cmds = section.commands.map(commandByName);
    if (cmds.length === 0 || cmds.some((c) => !c || !c.paramsKnown || c.kind === 'environment' || c.kind === 'config-file' || c.params.length === 0 || c.params.some((p) => p.origin !== 'cli-flag'))) continue;
    const own = new Set(cmds.flatMap((c) => c!.params.flatMap((p) => [p.name, ...p.aliases])));
    const isProgram = (row: ReferenceRow): boolean => {
      const name = row.names[0];
      return row.names.length === 1 && name !== undefined && !row.rawName.trimStart().startsWith('-') && !own.has(name) && (WELL_KNOWN_PROGRAMS.has(name) || commandByName(name) !== undefined);
    };
    if (!section.rows.some(isProgram)) continue;
    const rows = section.rows.filter((row) => !isProgram(row));
    if (rows.length === 0) sections.splice(i, 1);
    else section.rows = rows;
  }
}

/** Option names every framework adds on its own (`--version` rows count only when the code defines it). */
const VERSION_NAMES: ReadonlySet<string> = new Set(['version', 'V', 'v']);

/**
 * Sections of pasted `--help` output (layout `help`): each help block with rows documents the
 * command its usage line names (all its words: `llm prompt`; a usage naming an unknown command is
 * skipped), else, when the usage names none, the command of the innermost section around it (`commands.x.sections` headings included)
 * when one of its options at least is a parameter of that command. The
 * section's heading is the enclosing heading placed at the usage line (so links to the heading
 * still find it and findings point at the block). `--version` rows are dropped unless the command
 * defines such a parameter.
 */
function helpSections(
  doc: DocFile,
  commandByName: (n: string) => CommandSpec | undefined,
  opened: ReadonlyArray<{ block: HeadingBlock; commands: string[]; global: boolean }>,
  inferHelp?: (help: HelpBlock) => Inference | undefined,
): ReferenceSection[] {
  const out: ReferenceSection[] = [];
  for (const help of doc.helpBlocks ?? []) {
    // A block docdrift could not follow documents nothing (its note says so), never half its options.
    if (help.unread) continue;
    const line = help.location.line;
    const around = (b: HeadingBlock): boolean => b.heading.location.line < line && b.endLine >= line;
    // The usage line names the command with all its words (`llm openai models` is not `llm`'s
    // help when `llm openai` is a plugin command the code does not show): else the block is
    // skipped, unless its options clearly are one command's (`usage: main.py`, `python -m pkg`;
    // reference inference, issue #29).
    const full = help.usage.join(' ');
    let command: string | undefined = full !== '' && commandByName(full) ? full : undefined;
    let evidence: string | undefined;
    if (command === undefined && help.usage.length > 0) {
      const guess = commandByName(help.usage[0]!) ? undefined : inferHelp?.(help);
      if (!guess?.command) continue;
      command = guess.command.name;
      evidence = guess.evidence;
    }
    if (command === undefined) {
      const inner = opened.filter((o) => !o.global && o.commands.length > 0 && around(o.block))
        .sort((a, b) => b.block.heading.location.line - a.block.heading.location.line)[0];
      command = inner?.commands[0];
    }
    const cmd = command === undefined ? undefined : commandByName(command);
    if (command === undefined || !cmd) continue;
    const defines = (n: string): boolean => cmd.params.some((p) => p.name === n || p.aliases.includes(n));
    const rows = help.rows.filter((r) => !r.names.every((n) => VERSION_NAMES.has(n)) || r.names.some(defines));
    if (rows.length === 0) continue;
    // A block with no usage line takes the command of the section around it; when not one of its
    // options is a parameter of that command, it is another program's help pasted there (a
    // package's README under a `Usage` heading configured for another command), not a reference
    // whose every row is stale.
    if (help.usage.length === 0 && cmd.paramsKnown && cmd.params.length > 0) {
      const key = (n: string): string => n.toLowerCase().replace(/[-_]/g, '');
      const known = new Set(cmd.params.flatMap((p) => [p.name, ...p.aliases]).map(key));
      if (!rows.some((r) => r.names.some((n) => known.has(key(n))))) continue;
    }
    const enclosing = doc.blocks.filter(around).sort((a, b) => b.heading.location.line - a.heading.location.line)[0];
    const heading = enclosing
      ? { ...enclosing.heading, location: help.location }
      : { depth: 1 as const, text: `usage: ${help.usage.join(' ')}`, codes: [], slug: '', location: help.location };
    out.push({ file: doc.file, heading, commands: [command], global: false, layout: 'help', rows, endLine: help.endLine, ...(evidence ? { inferred: { evidence } } : {}) });
  }
  return out;
}

/**
 * Resolves links that name a page by its site route rather than its file, as docs generators
 * serve them (Fern, Docusaurus, MkDocs): `/reference/cli-commands` or `../guide/setup` → the one
 * document whose path, without `.md`/`.mdx` (or `/index`, `/README`), ends with that route. A
 * route that matches no document or several stays unresolved. Mutates the links in place
 * (`targetFile`). Time is linear in the documents' path lengths plus the links' lengths: routes
 * are looked up in a {@link SuffixIndex} built once.
 */
export function resolveSiteRoutes(docs: ReadonlyArray<Pick<DocFile, 'links'>>, docFiles: readonly string[]): void {
  const known = new Set(docFiles);
  // Each stem by its suffixes, one trie node a segment (s30 sweep D7: every suffix as a string
  // key was depth² characters a document; a folder 1,900 levels deep with 150 pages: model
  // 4.9 s -> 0.16 s, peak 1,234 MB -> 170 MB, before discovery's depth bound left them out).
  const byStem = new SuffixIndex();
  for (const file of docFiles) byStem.add(file.replace(/\.(?:mdx?|rst)$/i, '').replace(/\/(index|README)$/i, ''), file);
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile && known.has(link.targetFile)) continue;
      if (/^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//.test(link.url)) continue; // absolute URLs: below
      const cut = link.url.search(/[#?]/);
      let route = cut >= 0 ? link.url.slice(0, cut) : link.url;
      try {
        route = decodeURIComponent(route);
      } catch {
        // keep the raw route
      }
      // Jekyll, MkDocs and Sphinx-style sites publish `page.md` as `page.html`.
      route = trimTrailing(route.replace(/^\.?\//, ''), '/').replace(/\.html?$/i, '');
      if (link.targetFile && !known.has(link.targetFile)) {
        // A relative path without its extension (`../reference/cli-commands`) or with the site's (`options.html`).
        const base = link.targetFile.replace(/\.html?$/i, '');
        const ext = [`${base}.md`, `${base}.mdx`].filter((f) => known.has(f));
        if (ext.length === 1) {
          link.targetFile = ext[0];
          continue;
        }
      }
      if (route === '') continue;
      if (link.url.startsWith('/')) {
        const match = byStem.unique(route.split('/'));
        if (match !== undefined) link.targetFile = match;
      }
    }
  }
  // Links to the published site (`https://docs.example.com/product/main/reference/cli-commands`)
  // count when the URL's path ends with a route of exactly one document, on two segments or more
  // so that a generic last segment (`/intro`) never matches by accident.
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile || !/^https?:\/\//i.test(link.url)) continue;
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(link.url).pathname);
      } catch {
        continue;
      }
      const parts = pathname.replace(/\.(html?|mdx?)$/i, '').split('/').filter(Boolean);
      // The longest suffix of the path that is one document's route, walked from the end: linear
      // in the path. Trying each suffix as a string was segments² (s30 sweep D6: one autolink of
      // 60,000 segments on a 120 KB page, model 22.3 s -> 24 ms, run 22.6 s -> 0.8 s CPU).
      const match = byStem.longestUnique(parts, 2);
      if (match !== undefined) link.targetFile = match;
    }
  }
}

/** An {@link Inference} whose commands are given as `C` (`CommandSpec`, or an index into the model's parameter sets). */
type InferenceOf<C> = Omit<Inference, 'command' | 'best' | 'rival' | 'also'> & {
  command?: C;
  best?: { command: C; shared: number; explained: number };
  rival?: { command: C; shared: number };
  also?: C[];
};

/**
 * An {@link InferredBlock} as kept from one model to the next: its commands as indexes into the
 * model's parameter sets (the commands are built again for every model, the sets in the same order
 * while the code and config are the same), its file left out.
 */
interface KeptInference {
  block: HeadingBlock;
  inference: InferenceOf<number>;
}

/** `inference` with each of its commands mapped by `f` (a new object). */
function mapCommands<A, B>({ command, best, rival, also, ...rest }: InferenceOf<A>, f: (command: A) => B): InferenceOf<B> {
  return {
    ...rest,
    ...(command !== undefined ? { command: f(command) } : {}),
    ...(best ? { best: { ...best, command: f(best.command) } } : {}),
    ...(rival ? { rival: { ...rival, command: f(rival.command) } } : {}),
    ...(also ? { also: also.map(f) } : {}),
  };
}

/** What one page's examples pass to the commands: its usages and the sub-command words no command has. */
interface PageUsages {
  usages: Usage[];
  unknownSubcommands: UnknownSubcommand[];
  /** Flags written with dashes the code does not declare for them (see {@link Model.misspeltFlags}). */
  misspeltFlags: Usage[];
}

/** Usages kept per page (`doc.invocations`), handed out as they are: see src/link/doc-memo.ts. */
const keptUsages = docMemo<PageUsages>(true);

/**
 * Env sections split off each page (`doc.blocks`), and the page's blocks without their rows when
 * any were taken (the blocks the command sections are read from, which then key the page's
 * inferences from one model to the next), handed out as they are: see src/link/doc-memo.ts.
 */
const keptEnvSplits = docMemo<{ sections: ReferenceSection[]; blocks?: HeadingBlock[] }>(true);

/** Inferences kept per page (`doc.blocks`): see src/link/doc-memo.ts. */
const keptInferences = docMemo<KeptInference[] | undefined>(false);

/**
 * `found` with its commands as indexes into the sets (`indexes`: each set's command, first
 * index); undefined when one is in no set (inference takes its commands from the sets, so this
 * only keeps a page from being kept).
 */
function keepInferences(found: readonly InferredBlock[], indexes: ReadonlyMap<CommandSpec, number>): KeptInference[] | undefined {
  let missing = false;
  const at = (cmd: CommandSpec): number => {
    const i = indexes.get(cmd);
    if (i === undefined) missing = true;
    return i ?? -1;
  };
  const kept = found.map(({ block, inference }) => ({ block, inference: mapCommands(inference, at) }));
  return missing ? undefined : kept;
}

/** A {@link KeptInference} of page `file` with this model's commands (a new object: callers may change it). */
function inferredBlock({ block, inference }: KeptInference, file: string, sets: readonly ParameterSet[]): InferredBlock {
  return { file, block, inference: mapCommands(inference, (i) => sets[i]!.command) };
}

/** A heading block considered by reference inference, with the decision (assigned or not). */
export interface InferredBlock {
  file: string;
  block: HeadingBlock;
  inference: Inference;
}

/**
 * Reference inference over one document: each heading block with rows that no section of the page
 * already covers is matched against the commands' parameter sets ({@link inferCommand}), innermost
 * first; an enclosing block is tried with the rows its assigned blocks left. A block whose best match is a command in
 * `configured` (the config maps it to headings) is left alone: explicit wins. One whose best match
 * is a command a heading already names (`headed`) is added as one more of its sections only when
 * every row is the command's and they are at least `minShared`: its full options table on another page.
 *
 * @returns every block considered, with its decision (assigned when `inference.command` is set)
 */
export function inferBlocks(
  doc: DocFile,
  explicit: readonly ReferenceSection[],
  sets: readonly ParameterSet[],
  headed: ReadonlySet<CommandSpec>,
  isCommand: (name: string) => boolean = () => false,
  configured: ReadonlySet<CommandSpec> = headed,
  resolve: (inv: Invocation) => Invocation = (inv) => inv,
): InferredBlock[] {
  // A guide for the tool's own contributors (`CONTRIBUTING.md`, `docs/dev/`: an inventory of
  // internal function parameters, a design note) documents no command for its users: no block of
  // it is tried. A heading the config names there still ties its section.
  if (doc.contributor) return [];
  // A history part ("### Breaking changes") is no reference: its blocks are not tried.
  const covered = new LineRanges([...explicit.map((s): [number, number] => [s.heading.location.line, s.endLine]), ...historyRanges(doc.blocks)]);
  const inCovered = (line: number): boolean => covered.has(line);
  const title = doc.headings.find((h) => h.depth === 1)?.text;
  const tree = blockTree(doc.blocks);
  // The commands the page's examples run, by line: `tool build --out x` in a block says whose options it lists.
  const invoked = doc.invocations.flatMap((written) => {
    const inv = resolve(written);
    const words = [inv.command, ...inv.args.slice(0, 3).map((a) => a.text)];
    for (let k = words.length; k >= 1; k--) {
      const name = words.slice(0, k).join(' ');
      if (isCommand(name)) return [{ line: inv.location.line, name, flags: inv.args.slice(k - 1).flatMap((a) => (/^--?[A-Za-z]/.test(a.text) ? [flagName(a.text)] : [])) }];
    }
    return [];
  });
  const pageRuns = new Set(invoked.map((x) => x.name));
  const pageCommand = pageCommandOf(invoked.map((x) => x.name));
  const pageCodes = new Set(doc.blocks.flatMap((b) => b.codes ?? []).map((c) => c.trim()));
  // Innermost blocks first: a table under "### Find unused files" is tried before the "## How to
  // use" holding every sub-command's table, and a block keeps only the rows its assigned blocks left.
  const order = doc.blocks.map((block, i) => ({ block, i })).sort((x, y) => y.block.heading.depth - x.block.heading.depth || x.i - y.i);
  const out: InferredBlock[] = [];
  for (const { block } of order) {
    const line = block.heading.location.line;
    if (inCovered(line)) continue;
    const own = (r: ReferenceRow): boolean => !inCovered(r.location.line);
    const tables = block.tables.filter((t) => !inCovered(t.location.line)).map((t) => readReferenceTable(t) ?? []).filter((g) => g.length > 0);
    const headingRows = (block.headingRows ?? []).filter(own);
    const laid = [...tables, ...headingGroups(tree, headingRows)];
    const list = (block.listRows ?? []).filter(own);
    // A commented YAML block is the layout only of a block with no other: it documents a config
    // file's keys (a class), never a CLI command's flags (that is an example config passed to it).
    const yaml = laid.length === 0 && list.length === 0 ? commentedYamlGroups(doc, block, inCovered) : [];
    const others = [...laid, ...yaml];
    const groups = others.length > 0 ? others : list.length > 0 ? [list] : [];
    if (groups.length === 0) continue;
    const layout = others.length > 0 ? ('other' as const) : ('list' as const);
    // The headings above the block count as its context ("Find unused files" over "Available options").
    const ancestors: string[] = [];
    for (let up = tree.parent.get(block); up; up = tree.parent.get(up)) ancestors.push(headingMatchText(up.heading.text));
    const runs = new Set(invoked.filter((x) => x.line > line && x.line <= block.endLine).map((x) => x.name));
    const inference = inferCommand(groups, sets, { heading: [headingMatchText(block.heading.text), ...ancestors].join(' / '), ...(title !== undefined ? { title } : {}), file: doc.file, layout, invoked: runs, pageRuns, pageCodes, ...(pageCommand !== undefined ? { pageCommand } : {}) });
    // A sibling with a section of its own, or mapped by the config, keeps what it was given.
    if (inference.also) {
      const also = inference.also.filter((c) => !headed.has(c) && !configured.has(c));
      if (also.length > 0) inference.also = also;
      else delete inference.also;
    }
    // A command a heading elsewhere names (a guide's "### `tool run`") may have its full options
    // table on another page under "## Options": a block whose every row is its own parameter is
    // one more of its sections. Not when the config maps the command: the user said where.
    // So is a block of the page's command (every example of the page runs it) whose every row is its own.
    const clean = inference.best !== undefined && inference.best.explained === inference.rows && (inference.best.shared >= INFERENCE_THRESHOLDS.minShared || inference.pageCommand === true);
    if (inference.command && headed.has(inference.command) && !inference.prefix && (configured.has(inference.command) || !clean)) {
      const { command: _taken, ...rest } = inference;
      out.push({ file: doc.file, block, inference: { ...rest, evidence: `${inference.evidence}, which has a reference section already` } });
      continue;
    }
    if (inference.command && yaml.length > 0 && inference.command.kind !== 'config-file' && inference.command.mappedBy !== 'inferred') {
      const { command: cli, ...rest } = inference;
      out.push({ file: doc.file, block, inference: { ...rest, evidence: `${inference.evidence}, but a commented YAML block documents a config file, not \`${cli.name}\`'s flags` } });
      continue;
    }
    if (!inference.command) {
      // A list right below an example that explains the flags it passes (`* --x.y: enables …`):
      // the example's command's rows, a selection (its flags, not all of them).
      const example = list.length > 0 && others.length === 0 ? explainedExample(list, invoked, line) : undefined;
      const cmd = example && sets.find((x) => x.command.name === example.name || x.command.aliases.includes(example.name))?.command;
      if (example && cmd && !configured.has(cmd)) {
        out.push({ file: doc.file, block, inference: { command: cmd, rows: list.length, explainsExample: true, evidence: `its ${list.length} items explain the flags of the \`${example.name}\` example above them (line ${example.line})` } });
        covered.add(line, block.endLine);
        continue;
      }
      out.push({ file: doc.file, block, inference });
      continue;
    }
    // The section is the innermost block holding every row ("## Settings", not the page title above it).
    const lines = groups.flat().map((r) => r.location.line);
    const first = Math.min(...lines);
    const last = Math.max(...lines);
    let inner = block;
    for (;;) {
      const down = (tree.children.get(inner) ?? []).find((b) => b.heading.location.line < first && b.endLine >= last);
      if (!down) break;
      inner = down;
    }
    out.push({ file: doc.file, block: inner, inference });
    covered.add(line, block.endLine);
  }
  return out.sort((a, b) => a.block.heading.location.line - b.block.heading.location.line);
}

/** A flag's name as an example passes it: `--x.y=3` → `x.y`. */
function flagName(text: string): string {
  return text.replace(/^-+/, '').split('=')[0]!;
}

/**
 * The example a bullet list explains: the last example before the list (after the block's
 * heading) that passes every flag the list's items name, two items at least, each written as a
 * flag (`` * `--profiling.enable_memory_snapshot`: to enable memory profiling ``).
 */
function explainedExample(
  list: readonly ReferenceRow[],
  invoked: ReadonlyArray<{ line: number; name: string; flags: string[] }>,
  headingLine: number,
): { line: number; name: string } | undefined {
  if (list.length < 2 || !list.every((r) => /^-/.test(r.rawName.replace(/^[\s`*_[(]+/, '')))) return undefined;
  const first = Math.min(...list.map((r) => r.location.line));
  const before = invoked.filter((x) => x.line > headingLine && x.line < first).pop();
  if (!before) return undefined;
  const passed = new Set(before.flags);
  return list.every((r) => r.names.some((n) => passed.has(n))) ? before : undefined;
}

/**
 * The one command every example of a page runs, for lines of flags alone (`--x.no_flag` in a
 * block after "override it on the command line with:"): none when the page runs two commands (two
 * sub-commands of one program count as two), a group of sub-commands, or none at all.
 */
function flagLinesProgram(resolved: readonly Invocation[], byName: ReadonlyMap<string, CommandSpec>): CommandSpec | undefined {
  // The command each example runs, sub-command words included (`tool finetune adapter …`).
  const commandOf = (inv: Invocation): CommandSpec | undefined => {
    const words = [inv.command, ...inv.args.slice(0, 3).map((a) => a.text)];
    for (let k = words.length; k >= 1; k--) {
      const cmd = byName.get(words.slice(0, k).join(' '));
      if (cmd) return cmd;
    }
    return undefined;
  };
  const programs = new Set(resolved.filter((inv) => !inv.command.startsWith('-')).map(commandOf));
  if (programs.size !== 1) return undefined;
  const [only] = programs;
  // A group's flags alone could be any of its sub-commands'.
  if (!only || [...byName.values()].some((c) => c.name.startsWith(`${only.name} `))) return undefined;
  return only;
}

/** A line of flags alone, as an invocation of the page's program: the first flag is its first argument. */
function flagLine(inv: Invocation, program: CommandSpec): Invocation {
  return { ...inv, command: program.name, args: [{ text: inv.command, location: inv.location }, ...inv.args] };
}

/** Share of an unasked-for YAML block's keys that must carry a comment for inference to read it (see {@link commentedYamlGroups}). */
const INFERRED_YAML_COMMENTED_SHARE = 0.75;

/**
 * The rows of each commented YAML block (`key: value  # what it does`) in a heading block's lines,
 * as groups for inference: a block documenting a config file's keys is a reference layout like a
 * table. A block whose `title=` or first-line comment names a file is left out (it is that file's
 * example, and {@link yamlReferenceRows} attributes it by name), as is one of fewer than
 * {@link INFERENCE_THRESHOLDS}`.minShared` keys or with a comment on fewer than three quarters of
 * its keys ({@link INFERRED_YAML_COMMENTED_SHARE}).
 */
function commentedYamlGroups(doc: DocFile, block: HeadingBlock, inCovered: (line: number) => boolean): ReferenceRow[][] {
  const groups: ReferenceRow[][] = [];
  for (const data of doc.dataBlocks ?? []) {
    const line = data.location.line;
    if (line <= block.heading.location.line || line > block.endLine || inCovered(line)) continue;
    if (fileNamedBy(data) !== undefined) continue;
    const rows = commentedYamlRows(data);
    // Unasked, a block is a reference only when nearly every key says what it does: an example
    // config comments a key or two (`tokenizer: x  # borrow the chat template`).
    if (rows && rows.length >= INFERENCE_THRESHOLDS.minShared && rows.filter((r) => r.description !== undefined).length >= INFERRED_YAML_COMMENTED_SHARE * rows.length) groups.push(rows);
  }
  return groups;
}

/** How a document's heading blocks nest: each block's enclosing block and the blocks right inside it, and the block at each heading line. */
interface BlockTree {
  parent: Map<HeadingBlock, HeadingBlock | undefined>;
  children: Map<HeadingBlock, HeadingBlock[]>;
  byLine: Map<number, HeadingBlock>;
}

/**
 * The nesting of heading blocks (in document order), in one pass with a stack: a block ends before
 * the next heading of its rank or higher, so the blocks around a block are the stack below it.
 */
function blockTree(blocks: readonly HeadingBlock[]): BlockTree {
  const tree: BlockTree = { parent: new Map(), children: new Map(), byLine: new Map() };
  const stack: HeadingBlock[] = [];
  for (const block of blocks) {
    const line = block.heading.location.line;
    while (stack.length > 0 && !(stack[stack.length - 1]!.heading.location.line < line && block.endLine <= stack[stack.length - 1]!.endLine)) stack.pop();
    const parent = stack[stack.length - 1];
    tree.parent.set(block, parent);
    if (parent) {
      const siblings = tree.children.get(parent);
      if (siblings) siblings.push(block);
      else tree.children.set(parent, [block]);
    }
    if (!tree.byLine.has(line)) tree.byLine.set(line, block);
    stack.push(block);
  }
  return tree;
}

/**
 * Parameter-heading rows grouped by the heading right above them ("### Command line options" apart
 * from "### Environment variable options"), so that a run of headings of other things makes its
 * block too wide for inference. A row's location is its own heading.
 */
function headingGroups(tree: BlockTree, rows: readonly ReferenceRow[]): ReferenceRow[][] {
  const groups = new Map<HeadingBlock | undefined, ReferenceRow[]>();
  for (const row of rows) {
    const own = tree.byLine.get(row.location.line);
    const parent = own ? tree.parent.get(own) : undefined;
    const list = groups.get(parent) ?? [];
    list.push(row);
    groups.set(parent, list);
  }
  return [...groups.values()];
}

/** A config file's name as pages write it: `stryker.config.json`, `.c8rc.json`, `knip.jsonc`, `app.yaml`. */
const CONFIG_FILE_RE = /^(?:\.[\w-]+rc(?:\.(?:json|ya?ml|js|cjs|mjs|ts))?|[\w][\w.-]*\.(?:json|jsonc|json5|ya?ml|toml|[cm]?[jt]s))$/;

/**
 * The config file a reference page documents, when it or a page it links to names one after one
 * of the project's programs (`stryker.config.json` for `stryker`, `.c8rc.json` for `c8`,
 * `stash.config.ts` for `stash`): the name written most often in inline code and code-block
 * titles. Files named after no program (`.babelrc`, `tsconfig.json`) are other tools' files.
 *
 * @param docs the page first, then the pages it links to
 * @param programs lower-case first words of the project's command names
 */
function configFileNamed(docs: readonly DocFile[], programs: ReadonlySet<string>): string | undefined {
  const counts = new Map<string, number>();
  const add = (name: string, weight: number): void => {
    const base = name.trim().slice(name.trim().lastIndexOf('/') + 1);
    if (!CONFIG_FILE_RE.test(base)) return;
    const stem = base.replace(/^\./, '').toLowerCase();
    if (![...programs].some((p) => p.length >= 2 && (stem.startsWith(`${p}.`) || stem.startsWith(`${p}rc`) || stem.startsWith(`${p}-config`) || stem.startsWith(`${p}_config`)))) return;
    counts.set(base, (counts.get(base) ?? 0) + weight);
  };
  docs.forEach((doc, i) => {
    // The page itself counts more than the pages it links to.
    const weight = i === 0 ? 10 : 1;
    const top = doc.blocks.filter((b) => !doc.blocks.some((o) => o !== b && o.heading.location.line < b.heading.location.line && o.endLine >= b.endLine));
    for (const b of top) for (const code of b.codes ?? []) add(code, weight);
    for (const d of doc.dataBlocks ?? []) {
      const title = /title=["']?([^"'\s]+)/.exec(d.meta ?? '')?.[1];
      if (title) add(title, weight);
    }
  });
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/** Rows of a nested config class's section, keyed under its field (`auto_apply` → `plan.auto_apply`); dotted names are left as written. */
function prefixed(rows: ReferenceRow[], prefix: string | undefined): ReferenceRow[] {
  if (!prefix) return rows;
  return rows.map((r) => ({ ...r, names: r.names.map((n) => (n.includes('.') ? n : `${prefix}${n}`)) }));
}

/**
 * Whether a heading's code span names a base class rather than its subject: the span follows
 * "inherits", "extends" or "based on" ("### `ServerConfig` inherits `BundlerPlugins`", "`B` extends
 * `A`"). The page documents the subject's own fields there; the base has sections of its own.
 */
export function namesBase(text: string, code: string): boolean {
  const at = text.indexOf(code);
  // On the text without trailing blanks: `[:(]?\s*$` after `\s*` rescanned a blank run (s26b sweep O2).
  return at > 0 && /\b(?:inherits(?:\s+from)?|extends|based\s+on|derived\s+from)\s*[:(]?$/i.test(text.slice(0, at).trimEnd());
}

/** The `ignoreParameters` matcher of one config's list, made once: the language server builds a model per edit with the same config, and the matcher keeps its answers. */
const parameterMatchers = new WeakMap<readonly string[], (key: string) => boolean>();
function parameterMatcherOf(patterns: readonly string[]): (key: string) => boolean {
  let matcher = parameterMatchers.get(patterns);
  if (!matcher) parameterMatchers.set(patterns, (matcher = createParameterMatcher(patterns)));
  return matcher;
}
