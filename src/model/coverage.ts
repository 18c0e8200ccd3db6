/**
 * Coverage of a command's parameters (in code, in the reference, used in examples, explained where
 * used): what `--summary`, the JSON report's `commands` and the first-run notes say. Pure queries
 * over the Model, computed with the same queries the rules use.
 */
import { rowsOfAnyNameCut } from './unread.js';
import { compareStrings } from '../shared/strings.js';
import { suggestNames } from './compare.js';
import { documentedElsewhere, findParam, globalSectionsFor, isExplained, isGlobalParam, keyPrefixes, rowsFor, splitKey, suggestionIndex, twinsOf, writtenReference } from './query.js';
import type { CommandSpec, Model, ParamSpec, ReferenceSection } from './types.js';

/** One parameter of a command in the coverage table. */
export interface CoverageRow {
  /** The parameter as the code names it, or as a reference row / example spells it when the code has no such parameter. */
  name: string;
  /** The command's code defines it (config field or CLI flag). */
  inCode: boolean;
  /** A row of the command's reference sections or of a global section documents it (for nested parameters, a row for one of its keys). */
  inReference: boolean;
  /**
   * True when only a row outside the command's own sections documents it: another part of one of
   * their pages or a page they link to (`documentedElsewhere`, not a page the reference defers to).
   * It is documented, but no evidence that a reference found by its content is complete.
   */
  elsewhere?: true;
  /**
   * True when only rows of pasted `--help` sections document it while the command also has a
   * hand-written reference that promises every parameter (`writtenReference`): that reference
   * lacks its row, which `reference-param-missing` reports. {@link inReference} stays true (the
   * `--help` copy names it), so a reference found by its content is judged as before.
   */
  onlyHelp?: true;
  /** Number of distinct documents whose examples pass it to the command. */
  exampleDocs: number;
  /**
   * How many of those documents explain it: they hold its reference row or link to a file or
   * heading that does (what `example-param-unexplained` checks). 0 when it is not in code or not
   * documented.
   */
  explainedDocs: number;
}

/** Coverage of one command's parameters. */
export interface CommandCoverage {
  command: CommandSpec;
  /**
   * Parameters in code order, then names found only in the docs (stale reference rows, unknown
   * example keys) in document order. Hidden and positional parameters, global parameters, ignored
   * names, and unknown keys that `example-param-unknown` leaves alone by default (dotted keys of
   * open namespaces, keys read elsewhere) are left out, as the rules leave them out.
   */
  rows: CoverageRow[];
}

/** A config field whose CLI flag sets it (`dest`) is shown once, as the flag (as the rules report it). */
function shown(cmd: CommandSpec, param: ParamSpec): ParamSpec {
  if (param.origin === 'cli-flag') return param;
  return twinsOf(cmd, param).find((p) => p.origin === 'cli-flag') ?? param;
}

function excluded(model: Model, name: string): boolean {
  const first = name.split('.')[0] ?? name;
  return model.globalParams.has(first) || model.isIgnored(name) || model.isIgnored(first);
}

/** A flag-only global written as an override or config key (`+help=2`): unknown, as `example-param-unknown` reports it. */
function unknownGlobalKey(model: Model, cmd: CommandSpec, usage: Model['usages'][number]): boolean {
  return usage.name === usage.key && model.globalParams.has(usage.name) && !model.isIgnored(usage.name) && !isGlobalParam(model, cmd, usage.name, usage.syntax);
}

const usageIndex = new WeakMap<Model, Map<CommandSpec | undefined, Model['usages']>>();

/** The model's usages grouped by the command they pass parameters to, in model order (computed once per model). */
function usagesByCommand(model: Model): Map<CommandSpec | undefined, Model['usages']> {
  let index = usageIndex.get(model);
  if (!index) {
    index = new Map();
    for (const usage of model.usages) {
      const cmd = model.commandByName(usage.command);
      let list = index.get(cmd);
      if (!list) index.set(cmd, (list = []));
      list.push(usage);
    }
    usageIndex.set(model, index);
  }
  return index;
}

/**
 * Computes the coverage of one command's parameters from the model (see {@link CoverageRow} for
 * what each column means). Pure, and computed once per model and command (a built model does not
 * change): the answer is shared, and callers must not modify it. `cmd` should have known
 * parameters (`paramsKnown`).
 */
export function commandCoverage(model: Model, cmd: CommandSpec): CommandCoverage {
  let byCommand = coverageMemo.get(model);
  if (!byCommand) coverageMemo.set(model, (byCommand = new WeakMap()));
  let coverage = byCommand.get(cmd);
  if (!coverage) byCommand.set(cmd, (coverage = computeCoverage(model, cmd)));
  return coverage;
}

/** {@link commandCoverage}'s answers per model and command: the run notes, `--summary` and the cached command summary all ask. */
const coverageMemo = new WeakMap<Model, WeakMap<CommandSpec, CommandCoverage>>();

function computeCoverage(model: Model, cmd: CommandSpec): CommandCoverage {
  const rows = new Map<ParamSpec | string, CoverageRow>();
  const sections = model.sectionsFor(cmd);
  // Every dotted prefix of a row name (`a` and `a.b` for `a.b.c`): a spelling `sp` documents a
  // nested parameter when some row name starts with `sp.`, i.e. when `sp` is one of them. A
  // parameter whose own name holds a dot (`log.level`) is one segment (`keyPrefixes`).
  const rowPrefixes = new Set<string>();
  for (const section of [...sections, ...globalSectionsFor(model, cmd)]) {
    for (const row of section.rows) {
      for (const n of row.names) if (n.includes('.')) for (const prefix of keyPrefixes(cmd, n)) rowPrefixes.add(prefix);
    }
  }

  // The hand-written reference beside pasted `--help` sections, judged over the parameters counted here.
  const counted = cmd.params.map((param) => shown(cmd, param)).filter((p) => !p.positional && !p.hidden && !excluded(model, p.name));
  const written = writtenReference(model, cmd, sections, counted);
  for (const param of cmd.params) {
    const p = shown(cmd, param);
    if (p.positional || excluded(model, p.name) || rows.has(p)) continue;
    // A hidden environment variable (well-known, or supplied by the project) that a reference
    // documents is a parameter in code and in the docs all the same; undocumented, it is not counted.
    if (p.hidden && !(cmd.kind === 'environment' && rowsFor(model, cmd, p).length > 0)) continue;
    const spellings = [p.name, ...p.aliases, ...twinsOf(cmd, p).flatMap((t) => [t.name, ...t.aliases])];
    const own = rowsFor(model, cmd, p).length > 0 || spellings.some((sp) => rowPrefixes.has(sp));
    const elsewhere = own ? undefined : documentedElsewhere(model, cmd, p);
    const inReference = own || elsewhere !== undefined;
    const onlyElsewhere = elsewhere !== undefined && elsewhere.how !== 'delegated';
    const helpRows = written ? rowsFor(model, cmd, p) : [];
    const onlyHelp = helpRows.length > 0 && helpRows.every(({ section }) => section.layout === 'help');
    rows.set(p, { name: p.name, inCode: true, inReference, ...(onlyElsewhere ? { elsewhere: true as const } : {}), ...(onlyHelp ? { onlyHelp: true as const } : {}), exampleDocs: 0, explainedDocs: 0 });
  }

  // Reference rows of the command's own sections that name no parameter (stale rows).
  for (const section of sections) {
    for (const row of section.rows) {
      const name = row.names[0] ?? row.rawName;
      if (row.names.some((n) => excluded(model, n) || findParam(cmd, splitKey(cmd, n)[0]!))) continue;
      if (!rows.has(name)) rows.set(name, { name, inCode: false, inReference: true, exampleDocs: 0, explainedDocs: 0 });
    }
  }

  // Documents whose examples pass each parameter to this command.
  const docsOf = new Map<ParamSpec | string, Set<string>>();
  for (const usage of usagesByCommand(model).get(cmd) ?? []) {
    if (excluded(model, usage.name) && !unknownGlobalKey(model, cmd, usage)) continue;
    const found = findParam(cmd, usage.name);
    let key: ParamSpec | string;
    if (found) {
      const p = shown(cmd, found);
      if (!rows.has(p)) continue; // hidden or positional
      key = p;
    } else {
      // As example-param-unknown judges by default: a dotted key close to no parameter addresses an
      // open namespace (a Hydra server instance), and a key the project reads elsewhere is no drift.
      const near = suggestNames(usage.name, suggestionIndex(model, cmd, usage.syntax), 1).length > 0;
      if (!near && usage.key !== usage.name) continue;
      if (!near && usage.syntax === 'hydra-override' && model.isReadElsewhere(cmd, usage.name)) continue;
      key = usage.name;
      if (!rows.has(key)) rows.set(key, { name: key, inCode: false, inReference: false, exampleDocs: 0, explainedDocs: 0 });
    }
    let files = docsOf.get(key);
    if (!files) docsOf.set(key, (files = new Set()));
    files.add(usage.file);
  }
  for (const [key, files] of docsOf) {
    const row = rows.get(key)!;
    row.exampleDocs = files.size;
    if (typeof key !== 'string' && row.inReference) {
      const documenting = rowsFor(model, cmd, key);
      row.explainedDocs = [...files].filter((f) => isExplained(model, f, key, documenting)).length;
    }
  }
  return { command: cmd, rows: [...rows.values()] };
}

/** The coverage counts of one command, as `--summary`'s line and the JSON report's `commands` give them. */
export interface CoverageCounts {
  /** Parameters the code defines (hidden, positional, global and ignored ones left out). */
  parameters: number;
  /** Of those, how many a reference row documents. */
  documented: number;
  /** Of those, how many an example passes to the command. */
  used: number;
  /** Of the used ones, how many are explained in every document that uses them. */
  explained: number;
}

/** Counts of {@link commandCoverage} (zeros for a command whose parameters are unknown). */
export function coverageCounts(model: Model, cmd: CommandSpec): CoverageCounts {
  if (!cmd.paramsKnown) return { parameters: 0, documented: 0, used: 0, explained: 0 };
  const inCode = commandCoverage(model, cmd).rows.filter((r) => r.inCode);
  const used = inCode.filter((r) => r.exampleDocs > 0);
  return {
    parameters: inCode.length,
    documented: inCode.filter((r) => r.inReference).length,
    used: used.length,
    explained: used.filter((r) => r.explainedDocs === r.exampleDocs).length,
  };
}

/**
 * The names of the parameters {@link coverageCounts} counts in `parameters` (hidden, positional,
 * global and ignored ones left out), each the canonical name the rules use (a flag's long name
 * without dashes, `out-dir`; a config field's name), sorted by code point, no duplicates. Empty
 * for a command whose parameters are unknown. The JSON report's `commands[].parameterNames`.
 */
export function parameterNames(model: Model, cmd: CommandSpec): string[] {
  if (!cmd.paramsKnown) return [];
  const names = new Set(commandCoverage(model, cmd).rows.filter((r) => r.inCode).map((r) => r.name));
  return [...names].sort(compareStrings);
}

/** Why a command's reference is read as a partial list (see {@link partialReference}). */
export interface PartialReference {
  /** Parameters a row of the reference (or of a page it defers to) documents, of {@link PartialReference.parameters}; rows elsewhere on its page or on linked pages are not counted. */
  documented: number;
  parameters: number;
  /** The section that makes the reference partial (the first one for `inferred`). */
  section: ReferenceSection;
  /**
   * `inferred`: every section was found by its content and they document under half of the
   * parameters ("the main options" cannot be told from a complete reference); `selection`: a
   * section's heading or lead text says it lists a selection ("Here is a list of common
   * options", "Notable keys"); `history`: only a changelog or upgrade guide lists the command;
   * `cut`: the run did not read the rows of some page, over the rows it reads in all
   * (`MAX_RUN_REFERENCE_ROWS`, src/engine/document-caps.ts; `cutFile` is the first such page).
   */
  reason: 'inferred' | 'selection' | 'history' | 'cut';
  /** For `cut`: the first page whose rows were not read. */
  cutFile?: string;
}

/**
 * A command whose reference is not known to be complete, so that missing rows are not reported
 * (one run note says so instead), or `undefined` when some section promises every parameter: one
 * that a heading names, a `commands.<name>.sections` pattern ties, or that documents the page's
 * command (every example of its page runs it), and that neither declares a selection (a
 * configured section's "Here is a list of common options" still does, unless the entry sets
 * `complete`) nor is history (a configured heading in a history page promises nothing).
 * Otherwise the reference is
 * partial when a section declares a selection ({@link ReferenceSection.selection}) or is history
 * and no inferred section stands beside them, or when every section was inferred and they
 * document fewer than half of the parameters (issue #29). Before all that, a run that did not
 * read some page's rows ({@link DocFile.rowsCut}) reads every reference as partial (`cut`).
 * Pure, and computed once per model and command: callers must not modify the answer.
 */
export function partialReference(model: Model, cmd: CommandSpec): PartialReference | undefined {
  let byCommand = partialMemo.get(model);
  if (!byCommand) partialMemo.set(model, (byCommand = new WeakMap()));
  let answer = byCommand.get(cmd);
  if (answer === undefined) byCommand.set(cmd, (answer = computePartialReference(model, cmd) ?? null));
  return answer ?? undefined;
}

/** {@link partialReference}'s answers per model and command (`null`: complete): three rules and the run notes ask, for every command. */
const partialMemo = new WeakMap<Model, WeakMap<CommandSpec, PartialReference | null>>();

function computePartialReference(model: Model, cmd: CommandSpec): PartialReference | undefined {
  const sections = model.sectionsFor(cmd);
  if (sections.length === 0) return undefined;
  // Rows the run did not read may be this command's, whatever heading they stand under (a
  // section found by its rows' content has none): every reference of the run is partial.
  // A page not parsed that shows its names as code withholds only those (rules check them one by one).
  const cut = rowsOfAnyNameCut(model.docs);
  if (cut) {
    const coverage = cmd.paramsKnown ? commandCoverage(model, cmd).rows : [];
    return { documented: coverage.filter((r) => r.inCode && r.inReference && !r.elsewhere).length, parameters: coverage.filter((r) => r.inCode).length, section: sections[0]!, reason: 'cut', cutFile: cut.file };
  }
  const declared = (s: ReferenceSection): boolean => s.selection !== undefined || s.history === true;
  // A configured heading in a changelog or upgrade guide ("#### CLI" under "Breaking changes")
  // matched the pattern by chance: it promises nothing; nor does one whose lead declares a selection.
  if (sections.some((s) => (!s.inferred || s.inferred.pageCommand) && !declared(s))) return undefined;
  // Env vars no reference owes a row (`undemanded`: debug switches, other programs' variables)
  // that none documents are no measure of how complete the reference is.
  const undemanded = new Set(cmd.params.filter((p) => p.undemanded).map((p) => p.name));
  const coverage = cmd.paramsKnown ? commandCoverage(model, cmd).rows : [];
  const parameters = coverage.filter((r) => r.inCode && !(undemanded.has(r.name) && !r.inReference)).length;
  // Rows outside the sections (elsewhere on their page, on a linked page) are no evidence that a
  // reference found by its content is the whole reference.
  const documented = coverage.filter((r) => r.inCode && r.inReference && !r.elsewhere).length;
  if (sections.some((s) => !declared(s))) {
    return documented * 2 < parameters ? { documented, parameters, section: sections[0]!, reason: 'inferred' } : undefined;
  }
  const selection = sections.find((s) => s.selection !== undefined);
  return selection ? { documented, parameters, section: selection, reason: 'selection' } : { documented, parameters, section: sections[0]!, reason: 'history' };
}

/**
 * Where a command's parameters came from, for messages and notes: `pydantic class RunConfig`,
 * `CLI flags in src/tool/cli.py:12`, `` `commands.tool.params` in the config ``, or
 * `no parameter in code` for a command whose code declares none (a click group). Undefined when
 * the parameters are unknown.
 */
export function paramSource(model: Model, cmd: CommandSpec): string | undefined {
  if (!cmd.paramsKnown) return undefined;
  const parts: string[] = [];
  for (const q of cmd.configClasses) {
    const cls = model.classes.get(q);
    const kind = cls ? { pydantic: 'pydantic class', dataclass: 'dataclass', typeddict: 'TypedDict', interface: 'interface', class: 'class', 'type-alias': 'type', zod: 'zod schema', 'json-schema': 'JSON Schema' }[cls.kind] : '';
    parts.push(cls ? `${kind} ${cls.name} (${cls.location.file}:${cls.location.line})` : `class ${q}`);
  }
  const flag = cmd.params.find((p) => p.origin === 'cli-flag' && p.location.file !== 'docdrift config');
  if (flag) parts.push(`CLI flags in ${flag.location.file}:${flag.location.line}`);
  const declared = cmd.params.some((p) => p.location.file === 'docdrift config' || p.owner.startsWith('docdrift config'));
  if (declared) parts.push(`\`commands.${cmd.name}\` in the docdrift config`);
  return parts.length > 0 ? parts.join(' and ') : 'no parameter in code';
}

/**
 * Why a command's parameters are unknown and which config key fixes it, one clause each
 * (undefined when they are known). Reads only the command: its entry point, how it was mapped.
 */
export function unknownReason(cmd: CommandSpec): string | undefined {
  if (cmd.paramsKnown) return undefined;
  const key = (k: string): string => `\`commands.${JSON.stringify(cmd.name)}.${k}\``;
  if (cmd.kind === 'config-file') {
    const names = cmd.unresolvedConfig?.slice(0, 3).map((n) => `"${n}"`).join(', ');
    if (names) return `${key('config')} names ${names}, which is no config class docdrift read (a misspelt name, or a type in a file docdrift did not read: see the run's other messages)`;
    return `no config class is mapped to the config file; set ${key('config')} to the class of its root`;
  }
  if (cmd.dynamicSubcommands && cmd.location) {
    return (
      `it declares no flag of its own and makes sub-commands at run time (${cmd.dynamicSubcommandsBy ?? 'commander `.command(name)` with a name docdrift cannot read, oclif `plugins`, a click group class that computes its commands'}, under ${cmd.location.file}:${cmd.location.line}), ` +
      `so what its docs document most likely belongs to those; declare each one's flags in \`commands."${cmd.name} <sub-command>".flags\` of the docdrift config to check them`
    );
  }
  if (cmd.passesUnknownFlags && cmd.location) {
    return (
      `it declares no flag or argument docdrift can read and accepts any flag or builds its options at run time (commander \`.allowUnknownOption()\`, click \`ignore_unknown_options\`, minimist/mri without \`unknown\`, ` +
      `options whose names or lists are computed, at ${cmd.location.file}:${cmd.location.line}), ` +
      `so its flags come from code docdrift does not read (a plugin's parser, a delegate program, a list built at run time); set ${key('flags')} to check its reference and examples`
    );
  }
  const unread = cmd.unreadProgram;
  if (unread?.kind === 'library') {
    return (
      `its entry point \`${cmd.target}\` reaches ${unread.file}:${unread.line} \`${unread.construct}\`, which uses the CLI library ${unread.library}, ` +
      `and docdrift read no command or flag from it (no reader for ${unread.library}, or a form its reader does not cover); ` +
      `declare the flags in ${key('flags')}, or set ${key('program')} when the parser lives in another module or file`
    );
  }
  if (unread?.kind === 'no-source') {
    return (
      `its bin runs \`${unread.file}\`, which is not among the project's files (compiled output) and maps to no source: ` +
      'no source map beside it, no tsconfig `outDir` covering it, no same-named source file; ' +
      `set ${key('program')} to the TypeScript or JavaScript file that builds the program (\`src/cli.ts\`)`
    );
  }
  if (unread?.kind === 'outside') {
    return (
      `its entry point \`${cmd.target}\` is in ${unread.file}, which a symbolic link resolves to a file outside the project (EOUTSIDE): docdrift does not read it; ` +
      `make it a file of the project, or set ${key('program')} to a module inside it`
    );
  }
  if (unread?.kind === 'unreadable') {
    return (
      `its entry point \`${cmd.target}\` is in ${unread.file}, which docdrift could not read (see its parse-error); ` +
      `make it readable, or declare the flags in ${key('flags')}`
    );
  }
  if (unread?.kind === 'too-large') {
    return (
      `its entry point \`${cmd.target}\` is in ${unread.file}, which docdrift did not read: ${unread.reason}; ` +
      `move the parser to a smaller module and set ${key('program')} to it, or declare the flags in ${key('flags')}`
    );
  }
  if (unread?.kind === 'over-budget') {
    // A sub-command the config declares flags for, of a program whose flags were not read
    // (src/link/build.ts): its declared flags amend the code's, so they are not all of its flags,
    // and "declare the flags" would repeat what the config already says.
    if (unread.declaredFlagsAmend) {
      return (
        `its entry point \`${cmd.target}\` reaches ${unread.file}, whose CLI flags docdrift did not finish reading: ${unread.reason}; ` +
        `the flags ${key('flags')} declares amend those of the code, so they are not all of its flags; move the parser out of the large module and set ${key('program')} to it, or exclude a large generated module from \`sources\``
      );
    }
    return (
      `its entry point \`${cmd.target}\` reaches ${unread.file}, whose CLI flags docdrift did not finish reading: ${unread.reason}; ` +
      `declare the flags in ${key('flags')}, or move the parser out of the large module and set ${key('program')} to it`
    );
  }
  if (unread?.kind === 'not-javascript') {
    const shell = unread.construct !== undefined;
    return (
      `its bin runs \`${unread.file}\`, a ${unread.interpreter} script, which docdrift does not parse` +
      (shell ? ` (its command at line ${unread.line}, \`${unread.construct}\`, runs no JavaScript file named literally: \`node path/to/cli.js\`)` : '') +
      `; set ${key('program')} to the TypeScript or JavaScript file that builds the program, or ${key('flags')}`
    );
  }
  if (cmd.target) {
    return (
      `its entry point \`${cmd.target}\` builds no CLI parser docdrift reads (argparse, click, typer, cyclopts, jsonargparse, decli, docopt, fire, yargs, commander, util.parseArgs, arg, mri, minimist, oclif, clipanion, citty, cac, sade, meow) and names no config class; ` +
      `set ${key('config')} (a class or a list), ${key('flags')}, or ${key('program')} when the parser lives in another module, ` +
      'or `"kind": "config-file"` when the entry documents a config file'
    );
  }
  return (
    `no console script, "bin" entry or parser defines it; set ${key('program')} (module:function of its parser), ` +
    `${key('flags')} or ${key('config')}`
  );
}
