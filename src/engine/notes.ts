/**
 * First-run notes: what a run could not check, one sentence each, so that a green run never means
 * "nothing was compared". The CLI prints them on stderr (`docdrift: <note>`); the JSON report and
 * `--summary` carry the same sentences. Pure: reads the model, the config and the list of
 * discovered documents.
 */
import { pathMatcher } from '../shared/path-match.js';
import { createHeadingMatcher } from '../config/patterns.js';
import type { DocdriftConfig } from '../config/schema.js';
import { coverageCounts, paramSource, partialReference, unknownReason } from '../model/coverage.js';
import { nestedKeys, rowsFor } from '../model/query.js';
import { nameCellSpelling, unspellableParam } from '../docs/reference-table.js';
import { rowsNotRead, unreadMayDocument, whyNotRead } from '../model/unread.js';
import type { CliLibraryUse } from '../extract/cli-libraries.js';
import type { CommandSpec, Model } from '../model/types.js';
import { suggestNames } from '../shared/names.js';
import { isPackagingFile } from '../shared/paths.js';

/** Most "no reference section" notes printed one by one; the rest are counted in one more line. */
export const MAX_COMMAND_NOTES = 10;

const key = (name: string, sub: string): string => `\`commands.${JSON.stringify(name)}.${sub}\``;

/** `file:line` list of at most three places, and "…" beyond. */
function places(list: Array<{ file: string; line: number }>): string {
  const shown = list.slice(0, 3).map((p) => `${p.file}:${p.line}`);
  return list.length > 3 ? `${shown.join(', ')}, …` : shown.join(', ');
}

const parsedDocIndex = new WeakMap<Model, Map<string, Model['docs'][number]>>();

/** The model's parsed documents by path (the first of a path, as `docs.find` would give), built once per model; unlike `model.doc`, never parses one. */
function parsedDocsByFile(model: Model): Map<string, Model['docs'][number]> {
  let index = parsedDocIndex.get(model);
  if (!index) {
    index = new Map();
    for (const d of model.docs) if (!index.has(d.file)) index.set(d.file, d);
    parsedDocIndex.set(model, index);
  }
  return index;
}

/** Headings of any reference document that name the command in inline code (whole code, or its first word). */
function namingHeadings(model: Model, cmd: CommandSpec, docFiles: readonly string[]): Array<{ file: string; line: number; text: string }> {
  const names = new Set([cmd.name, ...cmd.aliases]);
  const out: Array<{ file: string; line: number; text: string }> = [];
  const byFile = parsedDocsByFile(model);
  for (const file of docFiles) {
    const doc = byFile.get(file);
    if (!doc) continue;
    for (const h of doc.headings) {
      if (h.codes.some((c) => names.has(c.trim().replace(/^\$\s+/, '')))) out.push({ file, line: h.location.line, text: h.text });
    }
  }
  return out;
}

/**
 * The sections reference inference considered for the command and did not give it (issue #29),
 * best first, as one sentence naming at most three with their overlap; `undefined` when none.
 */
function nearest(model: Model, cmd: CommandSpec): string | undefined {
  // One shared name is chance (`--verbose` in an upgrade guide): a candidate names at least two.
  const candidates = (model.inferences ?? []).filter((i) => i.command === undefined && i.best === cmd.name && (i.shared ?? 0) >= 2).sort((a, b) => (b.shared ?? 0) - (a.shared ?? 0));
  if (candidates.length === 0) return undefined;
  const counts = coverageCounts(model, cmd);
  const what = cmd.kind === 'config-file' ? 'config file' : 'command';
  const shown = candidates.slice(0, 3).map((i) => `${i.file}:${i.line} "${i.heading}" (${i.evidence})`);
  return (
    `${what} \`${cmd.name}\` has ${counts.parameters} parameter${counts.parameters === 1 ? '' : 's'} (${paramSource(model, cmd)}) but no reference section was found; ` +
    `the nearest: ${shown.join('; ')}${candidates.length > 3 ? `; and ${candidates.length - 3} more` : ''}. ` +
    `If one of them documents it, set ${key(cmd.name, 'sections')} to its heading.`
  );
}

/** A name as a JSON string, with the characters that would hide or reorder text in a terminal escaped too (DEL, C1, line separators, bidi controls). */
function shownName(name: string): string {
  return JSON.stringify(name).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One note per command with a reference section naming its parameters (and nested keys) whose
 * names no reference row can spell ({@link unspellableParam}, {@link nameCellSpelling}: an empty
 * name, a line break, a control character, a backslash right before a pipe where the usual
 * reading does not take the name whole): reference-param-missing cannot ask for their rows and
 * leaves them out, so the run says they were not checked rather than passing them in silence
 * (s38 sweep D2).
 */
function unspellableNotes(model: Model, commands: readonly CommandSpec[]): string[] {
  const notes: string[] = [];
  // Nested keys are walked only when some config class has a field no row can spell.
  const oddField = [...model.classes.values()].some((c) => c.fields.some((f) => nameCellSpelling(f.name, f.name) === undefined));
  for (const cmd of commands) {
    if (model.sectionsFor(cmd).length === 0) continue;
    const names: string[] = [];
    for (const param of cmd.params) {
      if (param.hidden || param.positional || param.undemanded || model.globalParams.has(param.name) || model.isIgnored(param.name)) continue;
      if (unspellableParam(param)) names.push(param.name);
      else if (oddField) {
        for (const leaf of nestedKeys(model, param).keys) {
          if (!leaf.param.hidden && !model.isIgnored(leaf.key) && nameCellSpelling(leaf.key, leaf.key) === undefined) names.push(leaf.key);
        }
      }
    }
    if (names.length === 0) continue;
    const one = names.length === 1;
    const shown = names.slice(0, 5).map(shownName).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
    notes.push(
      `${one ? '1 parameter' : `${names.length} parameters`} of \`${cmd.name}\` (${paramSource(model, cmd) ?? 'its code'}) ${one ? 'has a name' : 'have names'} no reference row can spell, so ${one ? 'its row was' : 'their rows were'} not checked: ${shown}. ` +
        'A Markdown table cell cannot hold an empty name, a line break or a backslash right before a pipe, and docdrift neither reads nor writes control characters (tabs included) in a row\'s name.',
    );
  }
  return notes;
}

/**
 * What a run says about the variables the code reads when no env reference was found (issue #31);
 * documented variables the code does not read at all are said from `Model.envUnchecked`.
 */
function environmentNotes(model: Model, env: CommandSpec): string[] {
  if (model.sectionsFor(env).length > 0) return [];
  const read = env.params.filter((p) => !p.hidden);
  const shown = read.slice(0, 5).map((p) => `\`${p.name}\` (${p.location.file}:${p.location.line})`).join(', ');
  return [
    `${read.length} environment variable${read.length === 1 ? ' is' : 's are'} read by the code (${shown}${read.length > 5 ? `, and ${read.length - 5} more` : ''}) ` +
      'but no env reference was found (a table or list under an "Environment variables" heading, or a `.env.example` file), so whether they are documented was not checked.',
  ];
}

/**
 * The notes of one run, in this order: nothing to check at all (no command; no command with known
 * parameters); per command with known parameters and no reference section (at most
 * {@link MAX_COMMAND_NOTES}); per command whose `commands.*.config` drops classes discovery found; per `commands.*.sections` pattern and per `reference` glob that
 * matched nothing readable; and a last line when nothing at all was compared.
 *
 * @param docFiles project-relative paths of every discovered document.
 */
export function runNotes(model: Model, config: DocdriftConfig, docFiles: readonly string[], scriptLibraries: readonly CliLibraryUse[] = []): string[] {
  const notes: string[] = [];
  // Issue #31: the env vars' pseudo-command is said apart, in its own words.
  const environment = model.commands.find((c) => c.kind === 'environment');
  if (environment) notes.push(...environmentNotes(model, environment));
  else if (model.envUnchecked?.length) {
    const files = model.envUnchecked;
    notes.push(
      `environment variables are documented or set in examples (${files.slice(0, 3).join(', ')}${files.length > 3 ? `, and ${files.length - 3} more` : ''}) but docdrift found no variable of the project's own read by the code it reads ` +
        '(Python `os.environ`/`os.getenv`/pydantic-settings, JavaScript/TypeScript `process.env`/`import.meta.env`; variables many programs read, such as `NO_COLOR` or `TERM`, and those read only by tests and tooling do not count), so they were not checked.',
    );
  }
  model = environment ? { ...model, commands: model.commands.filter((c) => c !== environment) } : model;
  if (model.commands.length === 0) {
    // A packaging file that could not be read may hold the command (a package.json over its size
    // cap, invalid JSON or TOML): "no bin in package.json" alone would be false (s24 sweep note).
    const unread = [...new Set(model.diagnostics.filter((d) => d.ruleId === 'parse-error' && isPackagingFile(d.location.file)).map((d) => d.location.file))].sort();
    const unreadText = unread.length === 0 ? '' : `; ${unread.length === 1 ? 'a packaging file was' : `${unread.length} packaging files were`} not read (${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', …' : ''}: see the warnings above)`;
    if (environment?.paramsKnown) {
      notes.push(`no command found (no [project.scripts] in pyproject.toml, no console_scripts in setup.cfg, no "bin" in package.json, no "commands" in the config${unreadText}): only environment variables were checked.`);
      return notes;
    }
    // Scripts that build a command line docdrift read nothing from: named, with what they use.
    const shown = scriptLibraries.slice(0, 3).map((u) => `${u.file}:${u.line} \`${u.construct}\` (${u.library})`);
    const scripts = shown.length === 0
      ? ''
      : ` Scripts build a command line with a library docdrift read no command or flag from: ${shown.join('; ')}${scriptLibraries.length > 3 ? `; and ${scriptLibraries.length - 3} more` : ''}; ` +
        'declare their flags in `commands.<name>.flags`.';
    notes.push(
      'no command found (no [project.scripts] in pyproject.toml, no console_scripts in setup.cfg, no "bin" in package.json, ' +
        `no "commands" in the config${unreadText}), so nothing was checked. Map one in docdrift.config.json, e.g. ` +
        `{"commands": {"tool": {"config": "pkg.config.ToolConfig"}}}.${scripts}`,
    );
    return notes;
  }
  // Why the first three commands' parameters are unknown, and how many more there are.
  const reasons = (cmds: CommandSpec[]): string =>
    `${cmds.slice(0, 3).map((c) => `\`${c.name}\`: ${unknownReason(c)}`).join('; ')}${cmds.length > 3 ? `; and ${cmds.length - 3} more` : ''}.`;
  const known = model.commands.filter((c) => c.paramsKnown);
  if (known.length === 0) {
    notes.push(`found ${model.commands.length} command(s) but the parameters of none, so nothing was checked. ${reasons(model.commands)}`);
    return notes;
  }
  // Helper scripts with known flags do not make a project checked: when every command that is
  // not a script has unknown parameters, say so as above (NemoClaw: its bin silent, two scripts known).
  const programs = model.commands.filter((c) => !c.script);
  if (programs.length > 0 && programs.every((c) => !c.paramsKnown)) {
    const one = programs.length === 1;
    notes.push(`the parameters of ${one ? 'the command' : `all ${programs.length} commands`} (scripts aside) are unknown, so ${one ? 'it was' : 'they were'} not checked. ${reasons(programs)}`);
  } else {
    // Sub-commands that hand every flag to a parser built at run time: said once, not per row.
    // Programs whose parameters are unknown and that examples run: a silent pass otherwise
    // (httpie's `http`, run throughout its docs); a bare entry point no page runs says nothing.
    const ran = new Set([...model.docs.flatMap((d) => d.invocations.map((i) => i.command)), ...model.usages.map((u) => u.command)]);
    const unknown = programs.filter((c) => !c.paramsKnown && (c.passesUnknownFlags || c.dynamicSubcommands || [c.name, ...c.aliases].some((n) => ran.has(n))));
    const delegating = unknown.filter((c) => c.passesUnknownFlags || c.dynamicSubcommands);
    if (delegating.length > 0 && delegating.length === unknown.length) {
      const one = delegating.length === 1;
      notes.push(`the flags of ${one ? '1 command' : `${delegating.length} commands`} are unknown, so ${one ? 'its' : 'their'} references and examples were not checked. ${reasons(delegating)}`);
    } else if (unknown.length > 0) {
      // A program whose parser docdrift cannot read (a parser built by the project's own DSL) is
      // said once, so a run that checked only the others is no silent pass for it.
      const one = unknown.length === 1;
      notes.push(`the parameters of ${one ? '1 command' : `${unknown.length} commands`} are unknown, so ${one ? 'its' : 'their'} references and examples were not checked (the other commands were). ${reasons(unknown)}`);
    }
  }

  // Commands whose options are partly made at run time (a config library turning its entries
  // into options, `click.option(*names)`): one note per construct, naming it and its place.
  const bySite = new Map<string, { site: NonNullable<CommandSpec['unreadFlags']>; names: string[] }>();
  for (const cmd of known) {
    if (!cmd.unreadFlags) continue;
    const at = `${cmd.unreadFlags.location.file}:${cmd.unreadFlags.location.line}`;
    const entry = bySite.get(at) ?? { site: cmd.unreadFlags, names: [] };
    entry.names.push(cmd.name);
    bySite.set(at, entry);
  }
  for (const [at, { site, names }] of bySite) {
    const shown = names.slice(0, 3).map((n) => `\`${n}\``).join(', ') + (names.length > 3 ? ` and ${names.length - 3} more` : '');
    notes.push(
      `${shown} ${names.length === 1 ? 'takes' : 'take'} flags docdrift does not know: ` +
        (site.cut !== undefined ? `options in \`${site.construct}\` (${at}), past the ${site.cut} docdrift reads, ` : `options made at run time by \`${site.construct}\` (${at}), `) +
        `so flags ${names.length === 1 ? 'its' : 'their'} docs pass or list that docdrift did not read are not reported; ` +
        `declare them in \`commands.${JSON.stringify(names[0])}.flags\` of the docdrift config to check them.`,
    );
  }

  const isReference = config.reference.length > 0 ? pathMatcher(config.reference, { dot: true }) : () => true;
  // Some page's rows were not read (over the run's limit, or the page not parsed): a section may be among them.
  const rowsCut = rowsNotRead(model.docs);
  const referenceDocs = docFiles.filter((f) => isReference(f));
  const missing: string[] = [];
  for (const cmd of known) {
    // Scripts run as `python path.py` are repository helpers, not expected to have a reference.
    if (cmd.script || model.sectionsFor(cmd).length > 0) continue;
    const counts = coverageCounts(model, cmd);
    // Parameters a global or parent section documents are covered; commands without any are quiet.
    if (counts.parameters === 0 || counts.documented > 0) continue;
    const what = cmd.kind === 'config-file' ? 'config file' : 'command';
    const head = `${what} \`${cmd.name}\` has ${counts.parameters} parameter${counts.parameters === 1 ? '' : 's'} (${paramSource(model, cmd)}) but no reference section was found`;
    if (rowsCut) {
      missing.push(
        `${head} in the rows docdrift read: it did not read the rows of ${rowsCut.file}${rowsCut.rowsCut!.notParsed ? '' : ' and the pages after it in path order'} (${whyNotRead(rowsCut)}), ` +
          'where its reference may be. Exclude generated, copied or oversized pages with "ignore" so that the whole reference is read.',
      );
      continue;
    }
    const headings = namingHeadings(model, cmd, referenceDocs);
    missing.push(
      headings.length > 0
        ? `${head}: ${headings.length === 1 ? 'the heading naming it' : `${headings.length} headings naming it`} (${places(headings)}) ${headings.length === 1 ? 'holds' : 'hold'} no table, list or parameter headings docdrift reads (see docs/reference-layouts.md).`
        : nearest(model, cmd) ?? `${head}: no heading names it in inline code${config.reference.length > 0 ? ' in the `reference` documents' : ''}. Add a section headed \`\` \`${cmd.name}\` \`\`, or set ${key(cmd.name, 'sections')} to the heading that documents it.`,
    );
  }
  // References read as partial lists (found by their content and short, declared a selection, or
  // only a changelog): missing rows were not reported (issue #29).
  // Pages not parsed that show names as code withhold those parameters' findings, one by one (s35 sweep D1-D3): said once per command.
  const namedUnread = model.docs.some((d) => d.rowsCut?.notParsed === true && d.rowsCut.names !== undefined && d.rowsCut.names.length > 0);
  for (const cmd of known) {
    const partial = partialReference(model, cmd);
    if (!partial && namedUnread && model.sectionsFor(cmd).length > 0) {
      const withheld: Array<{ name: string; page: string }> = [];
      for (const param of cmd.params) {
        if (param.hidden || param.positional || rowsFor(model, cmd, param).length > 0) continue;
        const page = unreadMayDocument(model.docs, [param.name, ...param.aliases]);
        if (page) withheld.push({ name: param.name, page: page.file });
      }
      if (withheld.length > 0) {
        const pages = [...new Set(withheld.map((w) => w.page))];
        const names = withheld.slice(0, 5).map((w) => `\`${w.name}\``).join(', ') + (withheld.length > 5 ? ` and ${withheld.length - 5} more` : '');
        missing.push(
          `the reference of \`${cmd.name}\` has no row for ${names} in the pages docdrift read, but ${pages[0]}${pages.length > 1 ? ` (and ${pages.length - 1} more)` : ''}, which it did not read (see ${pages.length > 1 ? 'their' : 'its'} parse-error warning), names ${withheld.length === 1 ? 'it' : 'them'}: ${withheld.length === 1 ? 'its missing row was' : 'their missing rows were'} not reported. ` +
            'Fix or exclude that page so that the whole reference is read.',
        );
      }
    }
    if (!partial) continue;
    const { documented, parameters, section, reason } = partial;
    const at = `${section.file}:${section.heading.location.line} "${section.heading.text}"`;
    if (reason === 'cut') {
      missing.push(
        `the reference of \`${cmd.name}\` (${at}) was read as a partial list and missing rows were not reported: the run did not read the rows of ${partial.cutFile}${rowsCut?.rowsCut?.notParsed ? '' : ' and the pages after it'} (${rowsCut ? whyNotRead(rowsCut) : 'see its parse-error warning'}), ` +
          'which may document its parameters. Exclude generated, copied or oversized pages with "ignore" so that the whole reference is read.',
      );
      continue;
    }
    const why =
      reason === 'selection'
        ? `says it lists a selection ("${section.selection}", ${at})`
        : reason === 'history'
          ? `is only listed in a history page (changelog, upgrade guide: ${at})`
          : `was found by its content (${at})`;
    // A selection is read as one even under a configured heading: `complete` overrides its words.
    const require =
      reason === 'selection'
        ? `Set ${key(cmd.name, 'complete')} to true${section.configured ? '' : ` and ${key(cmd.name, 'sections')} to its heading`} to require every parameter.`
        : `Set ${key(cmd.name, 'sections')} to its heading to require every parameter.`;
    missing.push(
      `the reference of \`${cmd.name}\` ${why} and documents ${documented} of its ${parameters} parameters, ` +
        `so it was read as a partial list and missing rows were not reported. ${require}`,
    );
  }
  // A reference in a document that was not read (over a parse budget or limit) is not "missing":
  // the notes above say what was seen, this one what was not (#33, s23 sweep O1).
  const referenceSet = new Set(referenceDocs);
  const notRead = [...new Set(model.diagnostics.filter((d) => d.ruleId === 'parse-error' && d.message.startsWith('Not read:') && referenceSet.has(d.location.file)).map((d) => d.location.file))];
  const unseen: string[] = [];
  if (missing.length > 0 && notRead.length > 0) {
    unseen.push(
      `${notRead.length === 1 ? '1 document was' : `${notRead.length} documents were`} not read (${notRead.slice(0, 3).join(', ')}${notRead.length > 3 ? `, and ${notRead.length - 3} more` : ''}: see ${notRead.length === 1 ? 'its' : 'their'} parse-error warning${notRead.length === 1 ? '' : 's'}), ` +
        'so a reference section there was not seen; fix or exclude the slow or oversized pages so that the reference is read.',
    );
  }
  notes.push(...missing.slice(0, MAX_COMMAND_NOTES));
  if (missing.length > MAX_COMMAND_NOTES) {
    notes.push(`and ${missing.length - MAX_COMMAND_NOTES} more commands without a reference section (see --summary or the "commands" of --format json).`);
  }
  notes.push(...unseen);

  notes.push(...unspellableNotes(model, known));

  // Examples whose check ended at a word naming no sub-command of a group (a plugin's, a
  // framework's built-in, or a removed one): said once, with the first few, so it is no silent pass.
  const unknownWords = new Map<string, Array<{ file: string; line: number }>>();
  for (const u of model.unknownSubcommands ?? []) {
    if (u.groupHasDefault || !u.commandLike) continue;
    const name = `${u.group} ${u.word}`;
    if (model.commandByName(name)) continue;
    // A near miss of a real sub-command is an example-param-unknown finding already.
    const depth = u.group.split(' ').length + 1;
    const subs = model.commands.flatMap((c) => [c.name, ...c.aliases]).filter((n) => n.startsWith(`${u.group} `) && n.split(' ').length === depth).map((n) => n.split(' ')[depth - 1]!);
    if (suggestNames(u.word, subs, 1).length > 0) continue;
    const list = unknownWords.get(name) ?? [];
    list.push({ file: u.location.file, line: u.location.line });
    unknownWords.set(name, list);
  }
  if (unknownWords.size > 0) {
    const shown = [...unknownWords].slice(0, 3).map(([name, at]) => `\`${name}\` (${places(at)})`);
    const more = unknownWords.size > 3 ? ` and ${unknownWords.size - 3} more` : '';
    notes.push(
      `examples run ${unknownWords.size === 1 ? 'a sub-command' : `${unknownWords.size} sub-commands`} the code does not define, so their flags were not checked: ${shown.join(', ')}${more}. ` +
        'A removed sub-command is drift; one a plugin adds can be declared under `commands` (e.g. `"commands": {"tool plugin-cmd": {}}`).',
    );
  }

  // A `config` list that leaves out classes discovery found for the command's function.
  for (const cmd of model.commands) {
    const dropped = cmd.droppedConfigClasses ?? [];
    if (dropped.length === 0) continue;
    notes.push(
      `${key(cmd.name, 'config')} replaces the config class${dropped.length === 1 ? '' : 'es'} discovery found for \`${cmd.name}\` ` +
        `(${dropped.map((c) => `\`${c}\``).join(', ')}): ${dropped.length === 1 ? 'its fields are' : 'their fields are'} not checked. Add ${dropped.length === 1 ? 'it' : 'them'} to the list to keep ${dropped.length === 1 ? 'it' : 'them'}.`,
    );
  }

  // Configured headings that matched nothing readable.
  for (const [name, entry] of Object.entries(config.commands)) {
    for (const pattern of entry.sections ?? []) {
      const matches = createHeadingMatcher([pattern]);
      const hits: Array<{ file: string; line: number }> = [];
      let readable = 0;
      for (const file of referenceDocs) {
        const doc = model.doc(file);
        if (!doc) continue;
        doc.headings.forEach((h, i) => {
          if (!matches(h.text)) return;
          hits.push({ file, line: h.location.line });
          // A pasted `--help` block under the heading is a section of its own, located at its usage line.
          const next = doc.headings.slice(i + 1).find((n) => n.depth <= h.depth);
          const end = next ? next.location.line - 1 : Infinity;
          if (model.sections.some((s) => s.file === file && s.heading.location.line >= h.location.line && s.heading.location.line <= end)) readable++;
        });
      }
      const said = `${key(name, 'sections')}: ${JSON.stringify(pattern)}`;
      if (hits.length === 0) notes.push(`${said} matched no heading${config.reference.length > 0 ? ' in the `reference` documents' : ''}.`);
      else if (readable === 0) {
        notes.push(`${said} matched ${hits.length} heading${hits.length === 1 ? '' : 's'} (${places(hits)}), none with a table, list or heading layout docdrift reads (see docs/reference-layouts.md).`);
      }
    }
  }
  for (const glob of config.reference) {
    const match = pathMatcher(glob, { dot: true });
    const docs = docFiles.filter((f) => match(f));
    const said = `\`reference\`: ${JSON.stringify(glob)}`;
    if (docs.length === 0) notes.push(`${said} matched no document (the globs are relative to the project root).`);
    else if (!model.sections.some((s) => docs.includes(s.file))) {
      notes.push(`${said} matched ${docs.length} document${docs.length === 1 ? '' : 's'}, none with a reference section of a known command.`);
    }
  }

  // Pasted `--help` output recognised but not followed documents nothing: said once per block.
  const unread = model.docs.flatMap((d) => (d.helpBlocks ?? []).flatMap((h) => {
    if (!h.unread) return [];
    const named = h.usage.length === 0 ? undefined : model.commandByName(h.usage.join(' ')) ?? model.commandByName(h.usage[0]!);
    if (h.usage.length > 0 && !named) return [];
    return [`${h.location.file}:${h.location.line}: pasted \`--help\` output${named ? ` of \`${h.usage.join(' ')}\`` : ''} was not compared: ${h.unread.reason} (line ${h.unread.location.line}). Paste the output as the program prints it, or document its options in a table.`];
  }));
  notes.push(...unread.slice(0, 3));
  if (unread.length > 3) notes.push(`and ${unread.length - 3} more pasted \`--help\` blocks were not compared.`);

  // Flags named in prose on a command's page are compared too (example-param-unknown).
  if (model.sections.length === 0 && model.usages.length === 0 && (model.proseFlags ?? []).length === 0) {
    notes.push(
      `nothing was compared: ${known.length} command(s) have known parameters, but no reference section documents them and no example runs them. ` +
        'Name the command in inline code in a heading of its reference, or set `commands.<name>.sections` (headings) or `reference` (documents).',
    );
  }
  return notes;
}
