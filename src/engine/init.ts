/**
 * `docdrift init`: runs discovery and the model build on a project with the default config and
 * turns what it found (commands, their config classes, their reference sections) into a starter
 * `docdrift.config.json` that reproduces the same run, with notes on what to review.
 */
import { checkWriteTarget, writeFileAtomic } from './write.js';
import path from 'node:path';
import { CONFIG_FILES, ConfigError, FORBIDDEN_KEYS, loadConfigText, MAX_CONFIG_BYTES } from '../config/load.js';
import { DEFAULT_CONFIG, defaultConfig, MAX_CONFIG_LIST_ITEMS } from '../config/schema.js';
import type { CommandSpec, Model, ReferenceSection } from '../model/types.js';
import { pathExists, readProjectFile } from '../shared/read-file.js';
import { headingMatchText } from '../shared/strings.js';
import { pathMatcher } from '../shared/path-match.js';
import { discoverFiles, type DiscoveredFiles } from './discover.js';
import { lint, type LintOptions, type LintResult } from './lint.js';

/** The file `docdrift init` writes, in the project root. First in the loader's search order. */
export const INIT_CONFIG_FILE = 'docdrift.config.json';

/** One `commands.<name>` entry of the starter config, as written to JSON. */
export interface StarterCommand {
  /**
   * Why the entry looks as it does and what to check; the loader accepts and ignores it. Cut short,
   * or left out, when the whole proposal would be over the size a config may be (see `fitProposal`).
   */
  $comment?: string;
  aliases?: string[];
  /** Qualified config class names (`pkg.mod.Class`, `src/options.ts#Options`), when one was found. */
  config?: string[];
  /** `config-file` for a config file reference inference found (issue #29). */
  kind?: 'config-file';
  /** Headings of the sections reference inference tied to the command, made explicit (issue #29). */
  sections?: string[];
}

/** The starter config, as written to JSON; it validates against `configFileSchema`. */
export interface StarterConfig {
  $comment: string[];
  sources: string[];
  docs: string[];
  /** Present when reference sections were found: the documents that hold them. */
  reference?: string[];
  commands: Record<string, StarterCommand>;
  /** Present when env references were found by their content: their headings (issue #31). */
  env?: { sections: string[] };
}

/** What {@link proposeConfig} found, for the summary the CLI prints. */
export interface InitProposal {
  config: StarterConfig;
  /** The config as file text (2-space JSON, trailing newline). */
  text: string;
  /** One line per command: name → classes (or why none), with its reference sections. */
  summary: string[];
  /** Things the user must look at: commands with no config class, no reference section. */
  review: string[];
  /**
   * Commands left out of `commands` because their name is one a config file cannot hold as a key
   * (`constructor`, `prototype`, `__proto__`: see `FORBIDDEN_KEYS` in src/config/load.ts); runs
   * still find them from their declarations, as the run the proposal comes from did.
   */
  skipped: string[];
  /** The lint run on the default config the proposal comes from. */
  result: LintResult;
}

/** The language a default `sources` glob is about: `py`, `ts`, or `any` (the test directories). */
function globLanguage(glob: string): 'py' | 'ts' | 'any' {
  if (/\.py$/.test(glob)) return 'py';
  if (/[{,]ts[,}]/.test(glob)) return 'ts';
  return 'any';
}

/** The language a packaging file names: `pyproject.toml`, `setup.cfg`, `setup.py` → Python; `package.json` → TypeScript/JavaScript. */
function packagingLanguage(file: string): 'py' | 'ts' | undefined {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (base === 'pyproject.toml' || base === 'setup.cfg' || base === 'setup.py') return 'py';
  if (base === 'package.json') return 'ts';
  return undefined;
}

/**
 * The `sources` and `docs` globs to propose (issue #32 item 4): the default source globs of the
 * languages whose sources the project has (else of those its packaging files name; else both, with
 * a line in `review`), and the default doc globs that match a document (the exclusions kept; all
 * of them, with a line in `review`, when none matches).
 */
function proposedGlobs(files: DiscoveredFiles, review: string[]): { sources: string[]; docs: string[] } {
  let py = files.sources.some((f) => f.endsWith('.py'));
  let ts = files.sources.some((f) => /\.(ts|mts|cts|tsx)$/.test(f));
  if (!py && !ts) {
    const named = new Set(files.packaging.map(packagingLanguage));
    py = named.has('py');
    ts = named.has('ts');
    if (!py && !ts) {
      py = ts = true;
      review.push('no Python or TypeScript source found: "sources" lists the defaults of both; keep the language of your code.');
    }
  }
  const wanted = { py, ts, any: true };
  const sources = DEFAULT_CONFIG.sources.filter((g) => wanted[globLanguage(g)]);
  const positive = DEFAULT_CONFIG.docs.filter((g) => !g.startsWith('!'));
  const used = positive.filter((g) => {
    const match = pathMatcher(g, { dot: true });
    return files.docs.some((f) => match(f));
  });
  if (used.length === 0) review.push('no document found: "docs" lists the default globs; point it at your documentation.');
  const docs = used.length === 0 ? [...DEFAULT_CONFIG.docs] : DEFAULT_CONFIG.docs.filter((g) => g.startsWith('!') || used.includes(g));
  return { sources, docs };
}

/** `docs/cli.mdx:23 (`ng_run`)` for a section. */
function describeSection(section: ReferenceSection): string {
  return `${section.file}:${section.heading.location.line} ("${section.heading.text}"${section.inferred ? `, found by its content: ${section.inferred.evidence}` : ''})`;
}

/** The headings of a command's inferred sections, as `sections` patterns (issue #29). */
function inferredHeadings(sections: readonly ReferenceSection[]): string[] {
  return [...new Set(sections.filter((s) => s.inferred).map((s) => headingMatchText(s.heading.text)).filter((t) => t !== ''))];
}

/** Commands users type at the top level: sub-commands (`tool eval run`) are found again from the flags. */
function topLevelCommands(model: Model): CommandSpec[] {
  return model.commands.filter((c) => c.kind !== 'config-file' && c.kind !== 'environment' && !c.name.includes(' '));
}

/**
 * Inspects the project at `root` with the default configuration (any existing config file is
 * ignored) and proposes a starter config:
 * - `sources`: the default globs for the languages present (Python, TypeScript), test code excluded;
 * - `docs`: the default globs that match a document, exclusions kept (see `proposedGlobs`);
 * - `reference`: the documents holding the reference sections found, when there are any;
 * - `commands`: every console script / `bin` command with its aliases, and `config` set to the
 *   config classes discovery mapped it to. A command whose parameters come only from CLI flags,
 *   or that also accepts fields of secondary configs, keeps discovery (no `config`); a command with
 *   no parameters found gets a `$comment` placeholder asking for `config`.
 * Every entry carries a `$comment` naming where its parameters and reference sections are.
 *
 * @param root absolute project root
 * @param rules the rules to lint with (the CLI passes the built-in ones)
 * @throws only on programming errors; unparseable project files become findings of `result`
 */
export async function proposeConfig(root: string, rules: LintOptions['rules']): Promise<InitProposal> {
  const defaults = defaultConfig();
  const result = await lint({ root, config: defaults, rules });
  const files = await discoverFiles(root, defaults.sources, defaults.docs, defaults.ignore);
  const model = result.model;
  const summary: string[] = [];
  const review: string[] = [];
  const { sources, docs } = proposedGlobs(files, review);

  const commands: Record<string, StarterCommand> = {};
  const skipped: string[] = [];
  for (const cmd of topLevelCommands(model)) {
    // A key every later run would refuse (and `__proto__` assigned here would set a prototype, not a key).
    if (FORBIDDEN_KEYS.has(cmd.name)) {
      skipped.push(cmd.name);
      continue;
    }
    const sections = model.sectionsFor(cmd);
    const subcommands = model.commands.filter((c) => c.name.startsWith(`${cmd.name} `));
    const subSections = subcommands.flatMap((c) => model.sectionsFor(c));
    const declared = cmd.location ? ` (declared in ${cmd.location.file}:${cmd.location.line})` : '';
    const documented =
      sections.length > 0
        ? `Documented in ${sections.map(describeSection).join(', ')}.`
        : 'No reference section found: add a heading naming it in inline code (`## `' + cmd.name + '``) over a table of its parameters.';
    const subs =
      subcommands.length > 0
        ? ` Sub-commands from its CLI flags: ${subcommands.map((c) => c.name).join(', ')}` +
          (subSections.length > 0 ? `, documented in ${subSections.map(describeSection).join(', ')}.` : '.')
        : '';
    const entry: StarterCommand = { $comment: '' };
    if (cmd.aliases.length > 0) entry.aliases = [...cmd.aliases];
    const headings = inferredHeadings(sections);
    if (headings.length > 0) entry.sections = headings;
    let mapping: string;
    if (cmd.configClasses.length > 0 && (cmd.acceptedParams ?? []).length === 0) {
      entry.config = [...cmd.configClasses];
      mapping = `Parameters: the fields of ${cmd.configClasses.join(', ')}, found from the command's code${declared}.`;
      summary.push(`${cmd.name} → ${cmd.configClasses.join(', ')}`);
    } else if (cmd.paramsKnown) {
      const where = [...new Set(cmd.params.map((p) => p.location.file))].join(', ');
      mapping =
        cmd.configClasses.length > 0
          ? `Parameters: the fields of ${cmd.configClasses.join(', ')} plus keys it reads from other configs; left to discovery${declared}.`
          : `Parameters: its CLI flags, defined in ${where || 'its code'}; left to discovery${declared}.`;
      summary.push(`${cmd.name} → ${cmd.configClasses.join(', ') || `CLI flags (${where})`}`);
    } else {
      mapping =
        `TODO: docdrift found no config class or CLI flags for this command${declared}, so it is not checked. ` +
        'Set "config" to the class or type holding its parameters ("pkg.module.Class" or "src/file.ts#Type"), or "params" to their names.';
      summary.push(`${cmd.name} → (no config class found)`);
      review.push(`${cmd.name}: no config class found; set "config" under commands.${cmd.name}.`);
    }
    if (sections.length === 0 && cmd.paramsKnown) review.push(`${cmd.name}: no reference section found.`);
    entry.$comment = `${mapping} ${documented}${subs}`;
    commands[cmd.name] = entry;
    summary[summary.length - 1] += ` [${sections.length} reference section${sections.length === 1 ? '' : 's'}${sections.length > 0 ? `: ${[...new Set(sections.map((s) => s.file))].join(', ')}` : ''}]`;
  }
  // Config files found because a page documents a class's fields as keys (issue #29).
  // Not the `environment` pseudo-command (also inferred): it has an `env` entry of its own (a
  // `commands.environment` config-file entry made every later run check nothing).
  for (const cmd of model.commands.filter((c) => c.mappedBy === 'inferred' && c.kind !== 'environment')) {
    if (FORBIDDEN_KEYS.has(cmd.name)) {
      skipped.push(cmd.name);
      continue;
    }
    const sections = model.sectionsFor(cmd);
    const headings = inferredHeadings(sections);
    commands[cmd.name] = {
      $comment: `A config file found by its reference's content: the fields of ${cmd.configClasses.join(', ')}. Documented in ${sections.map(describeSection).join(', ')}. Check the name and the class.`,
      kind: 'config-file',
      config: [...cmd.configClasses],
      ...(headings.length > 0 ? { sections: headings } : {}),
    };
    summary.push(`${cmd.name} (config file) → ${cmd.configClasses.join(', ')} [${sections.length} reference section${sections.length === 1 ? '' : 's'}: ${[...new Set(sections.map((s) => s.file))].join(', ')}]`);
  }
  const env = proposedEnv(model, summary, review);
  // A packaging file the run could not read declares commands the proposal cannot hold: named first,
  // with the run's reason, rather than "no command found" (s49 sweep L6: a broken pyproject.toml).
  const unreadPackaging = result.messages.filter((m) => m.ruleId === 'parse-error' && m.severity === 'error' && m.file !== undefined && packagingLanguage(m.file) !== undefined);
  const packagingLines = unreadPackaging.map((m) => {
    const at = `${m.file}:${m.line ?? 1}:${m.column ?? 1}`;
    const reason = m.reason.startsWith(`${at}: `) ? m.reason.slice(at.length + 2) : m.reason;
    return `${at} could not be read (${reason}), so the commands it declares are not in this proposal; fix it and run init again.`;
  });
  if (Object.keys(commands).length === 0 && skipped.length === 0 && !env) {
    if (packagingLines.length > 0) throw new ProposalError(['nothing was written: no command was found, and a packaging file that may declare them could not be read.', ...packagingLines.map((l) => `  ${l}`)]);
    review.push('no command found: add one under "commands", e.g. "tool": { "config": "pkg.config.ToolConfig" }.');
  }
  review.unshift(...packagingLines);

  const referenceFiles = [...new Set([...model.sections, ...model.globalSections].map((s) => s.file))].sort();
  const config: StarterConfig = {
    $comment: [
      'Written by `docdrift init`; review it, then commit it. Keys starting with $ are notes docdrift ignores.',
      'Each command lists the config class its parameters come from and where it is documented.',
      'Every key and its default: docs/configuration.md (https://github.com/docdrift/docdrift/blob/main/docs/configuration.md).',
      ...(skipped.length > 0 ? [skippedText(skipped)] : []),
    ],
    sources,
    docs,
    ...(referenceFiles.length > 0 ? { reference: referenceFiles } : {}),
    commands,
    ...(env?.sections ? { env: { sections: env.sections } } : {}),
  };
  if (env) config.$comment.push(env.comment);
  const text = fitProposal(config, review);
  return { config, text, summary, review, skipped, result };
}

/** The config as file text: 2-space JSON, trailing newline. */
function configText(config: StarterConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Whether `text` is within the size every run accepts for a config file. */
function fitsSize(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') <= MAX_CONFIG_BYTES;
}

/** Longest per-command `$comment` kept when the full notes make the proposal too large: its first characters, then "…". */
const SHORT_COMMENT = 160;

/** `text` cut to at most `max` characters, at a space when one is near, ending with "…". */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** The size limit, as the notes about it say it. */
const SIZE_LIMIT_TEXT = `the ${MAX_CONFIG_BYTES / 1024} KB a config file may be`;

/** An error of {@link proposeConfig} saying why the proposal cannot be written: one line each. */
export class ProposalError extends Error {
  /** The lines to print, each escaped by the caller. */
  readonly lines: string[];

  constructor(lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ProposalError';
    this.lines = lines;
  }
}

/**
 * Makes `config` a config every run loads, and returns its text (s26 sweep D3: 990 console scripts
 * gave a 377 KB proposal, over the 256 KB limit, that init wrote and every later run refused):
 * - a list over the {@link MAX_CONFIG_LIST_ITEMS} a config list may hold (`reference`, a command's
 *   `aliases`, `config` or `sections`, `env.sections`) is left out, as every one of them is what
 *   the run on the defaults found by itself; a line in `review` says so;
 * - over {@link MAX_CONFIG_BYTES}, the per-command `$comment`s are cut short, then left out;
 * - still over, the entries that only carry a note go first, then the last ones, until the file
 *   fits; one `$comment` line (and one in `review`) says how many commands were left out and how
 *   to add one (runs still find them from their declarations, as the run on the defaults did).
 * The text is then loaded with the loader of a run ({@link loadConfigText}).
 *
 * @throws {ProposalError} when no proposal fits, or the text does not load back (nothing is written then)
 */
export function fitProposal(config: StarterConfig, review: string[]): string {
  const tooLong = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > MAX_CONFIG_LIST_ITEMS;
  const cap = `more than the ${MAX_CONFIG_LIST_ITEMS.toLocaleString('en-US')} a config list may hold`;
  if (tooLong(config.reference)) {
    review.push(`"reference" left out: reference sections were found in ${config.reference!.length.toLocaleString('en-US')} documents, ${cap}; without it every document may hold one, as in the run this proposal comes from.`);
    delete config.reference;
  }
  if (config.env?.sections && tooLong(config.env.sections)) {
    review.push(`"env.sections" left out: ${config.env.sections.length.toLocaleString('en-US')} headings, ${cap}; docdrift finds them by their content, as in the run this proposal comes from.`);
    delete config.env;
  }
  for (const [name, entry] of Object.entries(config.commands)) {
    for (const key of ['aliases', 'config', 'sections'] as const) {
      if (!tooLong(entry[key])) continue;
      review.push(`${name}: "${key}" left out: ${entry[key]!.length.toLocaleString('en-US')} items, ${cap}; docdrift finds them from the code and the docs, as in the run this proposal comes from.`);
      delete entry[key];
    }
  }

  let text = configText(config);
  if (!fitsSize(text)) {
    const full = Buffer.byteLength(text, 'utf8');
    const entries = Object.values(config.commands);
    for (const entry of entries) if (entry.$comment !== undefined) entry.$comment = shorten(entry.$comment, SHORT_COMMENT);
    text = configText(config);
    let what = 'cut short';
    if (!fitsSize(text)) {
      for (const entry of entries) delete entry.$comment;
      what = 'left out';
      text = configText(config);
    }
    const line = `The notes ("$comment") of each command were ${what}: with them this file was ${Math.ceil(full / 1024)} KB, over ${SIZE_LIMIT_TEXT}.`;
    config.$comment.push(line);
    review.push(line);
    text = configText(config);
  }
  if (!fitsSize(text)) {
    // Entries that only carry a note change nothing a run does: they go first, then the last ones.
    const names = Object.keys(config.commands);
    const all = config.commands;
    const settles = (n: string): boolean => Object.keys(all[n]!).some((k) => k !== '$comment');
    const order = [...names.filter(settles), ...names.filter((n) => !settles(n))];
    const comments = config.$comment;
    const withFirst = (k: number): StarterConfig => {
      const kept = new Set(order.slice(0, k));
      const left = order.slice(k);
      const shown = left.slice(0, 5).map((n) => `"${shorten(n, 60)}"`).join(', ') + (left.length > 5 ? ', …' : '');
      const line =
        `${left.length.toLocaleString('en-US')} of the ${names.length.toLocaleString('en-US')} commands found were left out of "commands" to keep this file under ${SIZE_LIMIT_TEXT} (${shown}); ` +
        'docdrift still finds and checks them from their declarations. To set one\'s config, add an entry: "commands": { "<name>": { "config": ["pkg.module.Class"] } }.';
      return { ...config, $comment: [...comments, line], commands: Object.fromEntries(names.filter((n) => kept.has(n)).map((n) => [n, all[n]!])) };
    };
    // The largest number of entries that fits (the size grows with it): a binary search.
    let lo = 0;
    let hi = order.length - 1;
    if (!fitsSize(configText(withFirst(0)))) {
      throw new ProposalError([
        `the proposed ${INIT_CONFIG_FILE} is over ${SIZE_LIMIT_TEXT} even without any "commands" entry or note (${Math.ceil(Buffer.byteLength(configText(withFirst(0)), 'utf8') / 1024)} KB); nothing was written.`,
        `Write a short ${INIT_CONFIG_FILE} by hand (docs/configuration.md lists every key), e.g. { "sources": ${JSON.stringify(config.sources)} }.`,
      ]);
    }
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fitsSize(configText(withFirst(mid)))) lo = mid;
      else hi = mid - 1;
    }
    const fitted = withFirst(lo);
    config.$comment = fitted.$comment;
    config.commands = fitted.commands;
    review.push(config.$comment.at(-1)!);
    text = configText(config);
  }
  try {
    loadConfigText(text, INIT_CONFIG_FILE);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ProposalError([
      `the proposed ${INIT_CONFIG_FILE} does not load back, so nothing was written (a bug in docdrift init: please report it). The loader said:`,
      ...error.message.split('\n'),
    ]);
  }
  return text;
}

/**
 * The environment variables' part of the proposal (issue #31): a `$comment` line saying how many
 * variables the code reads and where they are documented, and `env.sections` = the headings of the
 * env references found by their content (an env column, a table of read names under a heading
 * that does not say "environment"), made explicit as `commands.*.sections` are. Adds a summary
 * line, and a review line when no env reference was found. Undefined when the code reads no
 * variable users set.
 */
function proposedEnv(model: Model, summary: string[], review: string[]): { sections?: string[]; comment: string } | undefined {
  const envCmd = model.commands.find((c) => c.kind === 'environment');
  if (!envCmd) return undefined;
  const read = envCmd.params.filter((p) => !p.hidden).length;
  const sections = model.sectionsFor(envCmd);
  const files = [...new Set(sections.map((s) => s.file))];
  const variables = `${read} environment variable${read === 1 ? '' : 's'} read by the code`;
  summary.push(`environment → ${variables} [${sections.length} env reference section${sections.length === 1 ? '' : 's'}${files.length > 0 ? `: ${files.join(', ')}` : ''}]`);
  if (sections.length === 0) {
    review.push(`environment: ${variables}, but no env reference was found; document them under an "Environment variables" heading or in a .env.example file, or set "env": { "check": false }.`);
    return { comment: `environment: ${variables}; no env reference found (see "Environment variables" in docs/environment-variables.md).` };
  }
  const headings = inferredHeadings(sections.filter((s) => s.layout !== 'env-file'));
  return {
    ...(headings.length > 0 ? { sections: headings } : {}),
    comment: `environment: ${variables}, documented in ${sections.map(describeSection).join(', ')}${headings.length > 0 ? '; "env.sections" names the headings found by their content' : ''}.`,
  };
}

/** The sentence naming the commands {@link proposeConfig} left out (see {@link InitProposal.skipped}). */
export function skippedText(skipped: readonly string[]): string {
  const names = skipped.map((n) => `"${n}"`).join(', ');
  return skipped.length === 1
    ? `skipped the command ${names}: a docdrift config file cannot hold this name as a key (it names JavaScript's object machinery). ` +
        'docdrift still finds and checks the command from its declaration, without an entry here.'
    : `skipped the commands ${names}: a docdrift config file cannot hold these names as keys (they name JavaScript's object machinery). ` +
        'docdrift still finds and checks the commands from their declarations, without entries here.';
}

/**
 * Config files already in `root` that docdrift would load: anything at a {@link CONFIG_FILES}
 * name, as the loader sees it (a dangling link or a folder too: a run refuses them, so a config
 * written beside one would never be read; s49 sweep L1), and `package.json` when it has a
 * `docdrift` key. Root-relative names.
 */
export function existingConfigFiles(root: string): string[] {
  const found = CONFIG_FILES.filter((f) => pathExists(path.join(root, f)));
  try {
    const pkg = JSON.parse(readProjectFile(root, 'package.json')) as Record<string, unknown>;
    if (pkg && typeof pkg === 'object' && 'docdrift' in pkg) found.push('package.json');
  } catch {
    // No package.json, or one that does not parse: it holds no config.
  }
  return found;
}

/**
 * Writes the proposal to `root`/{@link INIT_CONFIG_FILE} atomically; returns the absolute path.
 *
 * @throws {WriteError} when the path is a symlink or not a regular file (never followed out of
 *   the project); the fs error when the write fails.
 */
export function writeProposal(root: string, proposal: InitProposal): string {
  const file = path.join(root, INIT_CONFIG_FILE);
  checkWriteTarget(root, file);
  writeFileAtomic(file, proposal.text, { root });
  return file;
}
