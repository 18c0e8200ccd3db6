/** Read-only queries over the Model that several rules share: parameter lookup, documenting rows, links. */
import path from 'node:path';
import type { ArgumentSyntax, CommandSpec, ConfigClass, DocFile, InputDiagnostic, Model, ParamSpec, ProseCode, ReferenceRow, ReferenceSection, SourceLocation } from './types.js';
import { foldSpelling, NameIndex } from '../shared/names.js';
import { lineIndexAt, lineStarts } from '../shared/strings.js';
import { memoByText } from '../shared/memo.js';
import { unreadMayDocument } from './unread.js';

/**
 * Finds the parameter a name (or alias) refers to in a built model: the first parameter (of
 * `params`, then `acceptedParams`) with that name, else the first with that alias, else for
 * `no-x` the first negatable one spelt `x`. Looked up in an index built once per command (rules
 * ask per usage and per row; a command does not change once the model is built). While the model
 * is being linked, when parameters and aliases still change, use {@link scanParam}.
 */
export function findParam(cmd: CommandSpec, name: string): ParamSpec | undefined {
  const index = paramIndexOf(cmd);
  const direct = index.byName.get(name) ?? index.byAlias.get(name);
  if (direct || !name.startsWith('no-')) return direct;
  return index.negatableBySpelling.get(name.slice(3));
}

/** {@link findParam} by a scan of the command's parameters, for a command still being linked. */
export function scanParam(cmd: CommandSpec, name: string): ParamSpec | undefined {
  const all = cmd.acceptedParams ? [...cmd.params, ...cmd.acceptedParams] : cmd.params;
  const direct = all.find((p) => p.name === name) ?? all.find((p) => p.aliases.includes(name));
  if (direct || !name.startsWith('no-')) return direct;
  // `--no-cache` negates a negatable boolean flag `--cache` (click `--x/--no-x`, BooleanOptionalAction).
  const base = name.slice(3);
  return all.find((p) => p.negatable && (p.name === base || p.aliases.includes(base)));
}

/**
 * Whether a CLI flag takes a value (`--out dir`): not a boolean switch (`bool`/`boolean` type, or
 * negatable), not a counted flag (`-vv`), not a positional argument.
 */
export function flagTakesValue(p: ParamSpec): boolean {
  return p.origin === 'cli-flag' && !p.positional && !p.negatable && !p.counted && !/^(bool|boolean)$/i.test(p.type ?? '');
}

/** A naming style of a multi-word name (see {@link nameStyle}). */
type NameStyle = 'kebab' | 'snake' | 'camel';

/** The naming style of a multi-word name: `kebab` (`max-tokens`), `snake` (`max_tokens`), `camel` (`maxTokens`); undefined for one word. */
function nameStyle(name: string): NameStyle | undefined {
  if (/[A-Za-z0-9]-[A-Za-z0-9]/.test(name)) return 'kebab';
  if (/[A-Za-z0-9]_[A-Za-z0-9]/.test(name)) return 'snake';
  return /[a-z0-9][A-Z]/.test(name) ? 'camel' : undefined;
}

/**
 * The spelling of a parameter that a reference whose rows are named `names` uses: of the
 * spellings the code declares (its name and its long aliases, never an invented one), the first in
 * the naming style most of those names have (a table of `--max-body-size` rows gets
 * `max-connections` for yargs' `maxConnections` key, which yargs also accepts kebab-cased). The
 * parameter's name when the names show no style (none, or a tie), or no declared spelling has it.
 */
export function spellingLike(param: ParamSpec, names: readonly string[]): string {
  return spellingInStyle(param, majorityStyle(names));
}

/** The naming style most of `names` have; undefined when none has one, or two styles tie. */
function majorityStyle(names: readonly string[]): NameStyle | undefined {
  const counts = new Map<NameStyle, number>();
  for (const n of names) {
    const style = nameStyle(n);
    if (style) counts.set(style, (counts.get(style) ?? 0) + 1);
  }
  const [top, second] = [...counts].sort((a, b) => b[1] - a[1]);
  // A tie shows no style: the code's name stays.
  return !top || (second && second[1] === top[1]) ? undefined : top[0];
}

/** The spelling of `param` in naming style `style` (see {@link spellingLike}); its name when no style, or none declared in it. */
function spellingInStyle(param: ParamSpec, style: NameStyle | undefined): string {
  if (!style || nameStyle(param.name) === style) return param.name;
  // Only the same words spelt otherwise (`maxConnections`/`max-connections`), never another alias (`no-reload`, `workers-n`).
  return param.aliases.find((n) => foldSpelling(n) === foldSpelling(param.name) && nameStyle(n) === style) ?? param.name;
}

/** The majority style of a rows list, by whether only flag-like rows vote (computed once per list: #33 D12, 3,000 parameters × 3,000 rows). */
const rowStyles = new WeakMap<readonly ReferenceRow[], { flag?: NameStyle | null; all?: NameStyle | null }>();

/**
 * {@link spellingLike} for a parameter documented in `rows`: a CLI flag (not positional) takes the
 * style of the rows written as flags (`--max-execution-time`), not that of positional arguments
 * (`pushId`) or config keys beside them. The vote is counted once per `rows` array (which must
 * not change between calls).
 */
export function spellingInRows(param: ParamSpec, rows: readonly ReferenceRow[]): string {
  const flag = param.origin === 'cli-flag' && !param.positional;
  let styles = rowStyles.get(rows);
  if (!styles) rowStyles.set(rows, (styles = {}));
  const key = flag ? 'flag' : 'all';
  let style = styles[key];
  if (style === undefined) {
    const voters = flag ? rows.filter((r) => /^[`*_\s]*-/.test(r.rawName)) : rows;
    style = styles[key] = majorityStyle(voters.flatMap((r) => r.names)) ?? null;
  }
  return spellingInStyle(param, style ?? undefined);
}

/** True when a reference row documents the parameter (by its name or any alias; dotted row names by first segment). */
export function rowDocuments(row: ReferenceRow, param: ParamSpec): boolean {
  const spellings = [param.name, ...param.aliases, ...(param.negatable ? [`no-${param.name}`] : [])];
  return row.names.some((n) => spellings.includes(n));
}

/** The spellings a row may use for a parameter: name, aliases, `no-name` for a negatable flag. */
function spellingsOf(param: ParamSpec): string[] {
  return [param.name, ...param.aliases, ...(param.negatable ? [`no-${param.name}`] : [])];
}

/** A section's rows by name: the positions of the rows that carry it, ascending (built once per section). */
const rowIndexes = new WeakMap<ReferenceSection, Map<string, number[]>>();

function rowIndexOf(section: ReferenceSection): Map<string, number[]> {
  let index = rowIndexes.get(section);
  if (!index) {
    index = new Map();
    section.rows.forEach((row, i) => {
      for (const n of new Set(row.names)) {
        const list = index!.get(n);
        if (list) list.push(i);
        else index!.set(n, [i]);
      }
    });
    rowIndexes.set(section, index);
  }
  return index;
}

/** A command's parameters as sets and maps, built once per command (rules ask per parameter). */
interface ParamIndex {
  own: Set<ParamSpec>;
  /** Positions in params + acceptedParams. */
  position: Map<ParamSpec, number>;
  /** Non-flag parameters by name and alias. */
  fieldsBySpelling: Map<string, ParamSpec[]>;
  /** CLI flags by `dest`. */
  flagsByDest: Map<string, ParamSpec[]>;
  /** The first parameter with each name, and the first with each alias ({@link findParam}). */
  byName: Map<string, ParamSpec>;
  byAlias: Map<string, ParamSpec>;
  /** The first negatable parameter with each name or alias (`--no-x`). */
  negatableBySpelling: Map<string, ParamSpec>;
  /** The length of the longest name or alias holding a dot (`log.level`), 0 when none does ({@link splitKey}). */
  longestDotted: number;
}

const paramIndexes = new WeakMap<CommandSpec, ParamIndex>();

function paramIndexOf(cmd: CommandSpec): ParamIndex {
  let index = paramIndexes.get(cmd);
  if (!index) {
    const all = [...cmd.params, ...(cmd.acceptedParams ?? [])];
    const push = (map: Map<string, ParamSpec[]>, key: string, p: ParamSpec): void => {
      const list = map.get(key);
      if (!list) map.set(key, [p]);
      else if (list[list.length - 1] !== p) list.push(p);
    };
    index = { own: new Set(cmd.params), position: new Map(), fieldsBySpelling: new Map(), flagsByDest: new Map(), byName: new Map(), byAlias: new Map(), negatableBySpelling: new Map(), longestDotted: 0 };
    const first = (map: Map<string, ParamSpec>, key: string, p: ParamSpec): void => {
      if (!map.has(key)) map.set(key, p);
    };
    all.forEach((p, i) => {
      if (!index!.position.has(p)) index!.position.set(p, i);
      first(index!.byName, p.name, p);
      for (const a of p.aliases) first(index!.byAlias, a, p);
      for (const n of [p.name, ...p.aliases]) if (n.includes('.') && n.length > index!.longestDotted) index!.longestDotted = n.length;
      if (p.negatable) for (const n of [p.name, ...p.aliases]) first(index!.negatableBySpelling, n, p);
      if (p.origin === 'cli-flag') {
        if (p.dest !== undefined) push(index!.flagsByDest, p.dest, p);
      } else {
        for (const n of [p.name, ...p.aliases]) push(index!.fieldsBySpelling, n, p);
      }
    });
    paramIndexes.set(cmd, index);
  }
  return index;
}

/**
 * Whether a prose code span names a parameter: a CLI flag only as a flag (`` `--input` ``, never
 * the bare word `` `input` ``, which prose uses for data fields); a config field bare or as an
 * override (`` `++x` ``), and by its first segment only as an override or a placeholder key
 * (`` `++responses_create_params.<field>` ``).
 */
export function proseNames(p: ProseCode, param: ParamSpec, spellings: ReadonlySet<string> = new Set([param.name, ...param.aliases])): boolean {
  if (param.origin === 'cli-flag' && p.prefix !== '--' && p.prefix !== '-') return false;
  if (spellings.has(p.name)) return true;
  const [head] = p.name.split('.');
  return head !== p.name && spellings.has(head!) && (p.prefix.startsWith('+') || p.prefix === '~' || p.code.includes('<'));
}

/**
 * Whether a reference section explains a parameter in its prose rather than in a row (NeMo Gym's
 * "Any other `responses_create_params` field that has no dedicated flag can be set with…" under
 * `gym eval run`): an explained prose code span naming it inside the section's lines.
 */
export function explainedInSection(model: Model, section: ReferenceSection, param: ParamSpec): boolean {
  const codes = model.doc(section.file)?.proseCodes ?? [];
  const start = section.heading.location.line;
  return codes.some((p) => p.explained && p.location.line > start && p.location.line <= section.endLine && proseNames(p, param));
}

/**
 * The global sections that document a command: every global section, except that a "Common
 * options" section on a page of other programs' commands (`programs`) documents only those.
 */
export function globalSectionsFor(model: Model, cmd: CommandSpec): ReferenceSection[] {
  const programs = new Set([cmd.name, ...cmd.aliases].map((n) => n.split(' ')[0]!));
  return model.globalSections.filter((s) => !s.programs || s.programs.some((p) => programs.has(p)));
}

/** {@link rowsFor}'s answers per model, command and parameter (rules ask once per example usage). */
const rowsMemo = new WeakMap<Model, WeakMap<CommandSpec, Map<ParamSpec, ReadonlyArray<{ section: ReferenceSection; row: ReferenceRow }>>>>();

/**
 * The rows that document a parameter of a command, in its own sections and the global ones.
 * Each section's rows are looked up by name (an index built once per section), so asking for
 * every parameter of a command is linear in its rows, not parameters × rows (issue #18). The
 * answer is computed once per model, command and parameter (a model does not change once built)
 * and shared: callers must not modify it.
 */
export function rowsFor(model: Model, cmd: CommandSpec, param: ParamSpec): ReadonlyArray<{ section: ReferenceSection; row: ReferenceRow }> {
  let byCommand = rowsMemo.get(model);
  if (!byCommand) rowsMemo.set(model, (byCommand = new WeakMap()));
  let byParam = byCommand.get(cmd);
  if (!byParam) byCommand.set(cmd, (byParam = new Map()));
  let rows = byParam.get(param);
  if (!rows) byParam.set(param, (rows = computeRowsFor(model, cmd, param)));
  return rows;
}

function computeRowsFor(model: Model, cmd: CommandSpec, param: ParamSpec): Array<{ section: ReferenceSection; row: ReferenceRow }> {
  const out: Array<{ section: ReferenceSection; row: ReferenceRow }> = [];
  const twins = twinsOf(cmd, param);
  // A flag inherited from a parent command (yargs/commander) is documented in the parent's reference.
  const inheritedFrom: CommandSpec[] = [];
  for (let c = cmd; c.inheritsFrom !== undefined && inheritedFrom.length < 8; ) {
    const parent = model.commandByName(c.inheritsFrom);
    if (!parent || parent === cmd || inheritedFrom.includes(parent)) break;
    inheritedFrom.push(parent);
    c = parent;
  }
  const own = paramIndexOf(cmd).own.has(param);
  const parentSections = own ? [] : inheritedFrom.filter((p) => paramIndexOf(p).own.has(param)).flatMap((p) => model.sectionsFor(p));
  const spellings = [...new Set([param, ...twins].flatMap(spellingsOf))];
  for (const section of [...model.sectionsFor(cmd), ...parentSections, ...globalSectionsFor(model, cmd)]) {
    const index = rowIndexOf(section);
    const hits = new Set<number>();
    for (const sp of spellings) for (const i of index.get(sp) ?? []) hits.add(i);
    for (const i of [...hits].sort((a, b) => a - b)) out.push({ section, row: section.rows[i]! });
  }
  return out;
}

/** A name compared across spellings: case, `-` and `_` ignored (`coverage-directory` is `coverageDirectory`). */
const looseName = foldSpelling;

/** Where a parameter is documented outside its command's reference sections (see {@link documentedElsewhere}). */
export interface DocumentedElsewhere {
  /** The page and line of the row (table row, parameter heading, reference list item) that names it. */
  file: string;
  line: number;
  /**
   * `delegated`: a page the reference defers to ("Every one of the [Configuration](config.md)
   * options can also be specified through the CLI"); `same-page`: another part of a page that
   * holds one of the command's sections; `linked`: a page the section or its page's intro links to;
   * `class-page`: the parameter's type is a config class that another command's reference
   * documents (`files: List[FileChange]`, FileChange's keys on a page of their own); `cli-flag`:
   * a config-file key that is also a CLI flag of the project, documented in that command's reference;
   * `same-folder`: a config-file key named in inline code on another page of the reference's folder;
   * `group-page`: a nested group (`server`) whose keys (`server.host`) are rows of a page beside the reference;
   * `env-prose`: an environment variable a sentence of a user's page names as one (`` you can use
   * the `BUILD_SANDBOX` environment variable … to build the image ``, issue #31);
   * `env-comment`: an environment variable an example line sets with a comment saying what it does
   * (`export SANDBOX_SET_UID_GID=true   # Force host UID/GID`);
   * `former-name`: a variable a page of the env reference names as another's former name
   * (`previously named PAPERLESS_TRASH_DIR`, `renamed from APP_X`, `formerly APP_X`).
   */
  how: 'delegated' | 'same-page' | 'linked' | 'class-page' | 'cli-flag' | 'same-folder' | 'group-page' | 'env-prose' | 'former-name' | 'env-comment';
}

/**
 * A former name of an environment variable as a reference says it: `previously named X`,
 * `formerly (called|known as) X`, `renamed from X`, `replaces the deprecated X`, the name in
 * inline code or not.
 */
const FORMER_ENV_NAME = /\b(?:(?:[Pp]reviously|[Ff]ormerly|[Oo]riginally)\s+(?:(?:named|called|known\s+as)\s*)?|[Rr]enamed\s+from\s*|[Rr]eplaces\s+(?:the\s+)?(?:deprecated\s+)?)`?\$?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
/** What follows an assignment's value in {@link explainingComment}: blanks, `#`, a word, blanks, the next word's start (sticky; each piece's end is forced by the next). */
const EXPLAINING_COMMENT_TAIL = /\s+#\s*[A-Za-z][\w'-]*\s+[A-Za-z/]/y;
/** A run of non-blank characters (sticky). */
const NON_BLANK_RUN = /\S*/y;

/**
 * Whether, after an assignment, a shell or YAML comment of two words at least follows:
 * `X=true   # Force host UID/GID`, as `/=\S*\s+#\s*[A-Za-z][\w'-]*\s+[A-Za-z/][^\n]*$/.test(text)`
 * read it, in linear time: that pattern started over at each `=` of a run (150,000 of them: 23 s,
 * s26c sweep D7; 2,000: 16 ms per line). Every `=` of one run of non-blank characters has the
 * same rest (`\S*` must reach the run's end for `\s+` to follow), so one test per run; the
 * tail's end is unique, and `[^\n]*$` holds when no line feed comes after it.
 */
export function explainingComment(text: string): boolean {
  const lastLineFeed = text.lastIndexOf('\n');
  for (let eq = text.indexOf('='); eq !== -1; ) {
    NON_BLANK_RUN.lastIndex = eq;
    NON_BLANK_RUN.test(text);
    const runEnd = NON_BLANK_RUN.lastIndex;
    EXPLAINING_COMMENT_TAIL.lastIndex = runEnd;
    if (EXPLAINING_COMMENT_TAIL.test(text) && EXPLAINING_COMMENT_TAIL.lastIndex > lastLineFeed) return true;
    eq = text.indexOf('=', runEnd);
  }
  return false;
}
/** Longest line {@link explainingComment} is tested on, in UTF-16 code units. */
const MAX_ENV_COMMENT_LINE = 2000;
/** Largest page scanned for former names and explaining comments. */
const MAX_SOURCE_SCAN = 2_000_000;

/** Per model and command: the loose names documented elsewhere, with where (the first place found). */
const elsewhereMemo = new WeakMap<Model, WeakMap<CommandSpec, Map<string, DocumentedElsewhere>>>();

/**
 * The hand-written reference of a command that also has pasted `--help` sections, when it
 * promises every parameter: its first section (the fullest) that is neither a `--help` copy, a
 * selection nor history, when such sections (tied by the config, named by a heading, the page's
 * command's or found by content) document half of the parameters at least.
 * Undefined when the command has no pasted `--help` or no such reference. A parameter whose only
 * rows are in the `--help` copies is then missing from that reference (`reference-param-missing`),
 * and `--summary` shows it as only in the pasted `--help` (src/model/coverage.ts).
 *
 * @param required the parameters the reference must document (the rule's; the coverage's in-code ones)
 */
export function writtenReference(model: Model, cmd: CommandSpec, sections: readonly ReferenceSection[], required: readonly ParamSpec[]): ReferenceSection | undefined {
  if (!sections.some((s) => s.layout === 'help')) return undefined;
  const written = sections.filter((s) => s.layout !== 'help' && s.selection === undefined && !s.history);
  const first = written[0];
  if (!first) return undefined;
  // However it was found, it documents half of the parameters at least: a configured heading that
  // matched a page title by chance (`# Rslib` over an ecosystem table) is no reference of them.
  const inWritten = required.filter((p) => rowsFor(model, cmd, p).some(({ section }) => written.includes(section))).length;
  if (inWritten * 2 < required.length) return undefined;
  return written.some((s) => s.configured || !s.inferred || s.inferred.pageCommand) || written.every((s) => s.inferred) ? first : undefined;
}

/**
 * Where a parameter the command's own reference sections have no row for is documented all the
 * same (issue #29), or `undefined`: a row of any layout (table row, parameter heading, reference
 * list item) naming it or one of its spellings (case, `-` and `_` ignored: `--coverageDirectory`
 * is `coverage-directory`), found
 *
 * - on a page the reference defers to ({@link ReferenceSection.delegatesTo}), any row, even one
 *   of another command's section: the page said those options are the command's too; such a page
 *   is read even when no `reference` glob matches it;
 * - elsewhere on a page that holds one of the command's sections (`## Global config` beside the
 *   `## General configuration options` that was inferred), or on a page the section's lead text
 *   (its heading down to its first row), or its page's intro, links to: rows outside every command's sections (its own are matched by exact
 *   spelling, {@link rowsFor}; others' document other commands) and outside history parts,
 *   written as the command's own rows are (flags `--port` for a command whose rows are
 *   flags, keys `port` otherwise): a config file's key on a linked page does not document a flag.
 *
 * - on the reference of another config file named after the parameter and mapped to the class
 *   that types it (`files: List[FileChange]` and `tool.bumpversion.files` → FileChange, whose keys
 *   have a page of their own): the parameter is that reference's subject;
 * - for a config file's key, in the reference of a CLI command of the project that declares the
 *   same option as a flag (`watch` documented as `--watch` on the CLI page), or in inline code on
 *   another page of the reference's folder (`hooks.md` beside `configuration/global.md`).
 *
 * History sections of the command give nothing: a changelog is no reference.
 */
export function documentedElsewhere(model: Model, cmd: CommandSpec, param: ParamSpec): DocumentedElsewhere | undefined {
  let byCommand = elsewhereMemo.get(model);
  if (!byCommand) elsewhereMemo.set(model, (byCommand = new WeakMap()));
  let names = byCommand.get(cmd);
  if (!names) byCommand.set(cmd, (names = elsewhereNames(model, cmd)));
  for (const p of [param, ...twinsOf(cmd, param)]) {
    for (const sp of spellingsOf(p)) {
      const found = names.get(looseName(sp)) ?? (p.origin === 'config-field' ? names.get(looseName(`${OVERRIDE_KEY}${sp}`)) : undefined);
      if (found) return found;
    }
  }
  if (!model.sectionsFor(cmd).some((s) => !s.history)) return undefined;
  return classReference(model, cmd, param) ?? flagReference(model, cmd, param) ?? folderMention(model, cmd, param) ?? groupPage(model, cmd, param);
}

/**
 * A config field holding a nested group (`server?: ServerOptions`) whose keys are documented as
 * dotted rows (`## server.host`, `| server.port |`) on another page in the folder of one of the
 * command's sections, as a reference split by group does (vite's `docs/config/shared-options.md`
 * beside `server-options.md`, `preview-options.md`, `worker-options.md`). History pages give nothing.
 */
function groupPage(model: Model, cmd: CommandSpec, param: ParamSpec): DocumentedElsewhere | undefined {
  if (param.origin !== 'config-field' || (param.typeRef === undefined && param.valueTypeRef === undefined)) return undefined;
  const prefixes = [param.name, ...param.aliases].map((n) => `${looseName(n)}.`);
  const own = model.sectionsFor(cmd).filter((s) => !s.history);
  const folders = new Set(own.map((s) => path.posix.dirname(s.file)));
  // The pages of the command's own sections are checked leaf by leaf (`optim.betas` missing
  // beside `optim.lr` is drift): only the other pages of their folder count.
  const ownPages = new Set(own.map((s) => s.file));
  for (const doc of model.docs) {
    if (doc.historical || ownPages.has(doc.file) || !folders.has(path.posix.dirname(doc.file))) continue;
    for (const r of doc.parameterRows ?? []) {
      if (r.names.some((n) => prefixes.some((pre) => looseName(n).startsWith(pre)))) return { file: doc.file, line: r.line, how: 'group-page' };
    }
  }
  return undefined;
}

/** Per model: the reference folder's pages' inline-code names (see {@link folderMention}), by folder. */
const folderNamesMemo = new WeakMap<Model, Map<string, Map<string, DocumentedElsewhere>>>();

/**
 * The reference folder a page belongs to: its nearest ancestor folder named for a reference
 * (`docs/reference` for `docs/reference/configuration/global.md`), or undefined.
 */
function referenceRoot(file: string): string | undefined {
  for (let dir = path.posix.dirname(file); dir !== '.' && dir !== '/' && dir !== ''; dir = path.posix.dirname(dir)) {
    if (REFERENCE_DIR_RE.test(dir)) return dir;
  }
  return undefined;
}

/**
 * A config file's key that another page of the same reference folder is about: a page of
 * `docs/reference/**` names it in inline code, alone or as it is set (`` `setup_hooks` ``,
 * `` `allow_shell_hooks = true` ``), as a reference split by topic does (bump-my-version's
 * `hooks.md` and `movable-version-tags.md` beside `configuration/global.md`). Only names of more
 * than one word (`moveable_tags`, `preCommitHooks`): a one-word key in code (`files`) may be
 * anything. Pages outside a folder named for a reference, and history pages, give nothing.
 */
function folderMention(model: Model, cmd: CommandSpec, param: ParamSpec): DocumentedElsewhere | undefined {
  if (cmd.kind !== 'config-file' || param.origin !== 'config-field') return undefined;
  const names = [param.name, ...param.aliases].filter((n) => /[A-Za-z0-9][_-][A-Za-z0-9]|[a-z0-9][A-Z]/.test(n));
  if (names.length === 0) return undefined;
  let byRoot = folderNamesMemo.get(model);
  if (!byRoot) folderNamesMemo.set(model, (byRoot = new Map()));
  for (const root of new Set(model.sectionsFor(cmd).filter((s) => !s.history).map((s) => referenceRoot(s.file)))) {
    if (root === undefined) continue;
    let index = byRoot.get(root);
    if (!index) {
      byRoot.set(root, (index = new Map()));
      for (const doc of model.docs) {
        if (doc.historical || !doc.file.startsWith(`${root}/`)) continue;
        for (const block of doc.blocks) {
          for (const code of block.codes ?? []) {
            const name = /^\s*([A-Za-z_][\w-]*)\s*(?:$|=|:\s)/.exec(code)?.[1];
            if (name && !index.has(name)) index.set(name, { file: doc.file, line: block.heading.location.line, how: 'same-folder' });
          }
        }
      }
    }
    for (const n of names) {
      const found = index.get(n);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The row of a CLI flag that is this config-file key under its command-line spelling: a config
 * class that mirrors the program's argv (Jest's `InitialOptions` holds `watch`, `json`,
 * `outputFile`, which its CLI page documents as `--watch`, `--json`, `--outputFile`). Only a flag
 * the project's code declares too (a CLI command's parameter of the same loose spelling), with a
 * row in that command's own reference (not a changelog), counts: the key is the flag, documented
 * where users of the flag look.
 */
function flagReference(model: Model, cmd: CommandSpec, param: ParamSpec): DocumentedElsewhere | undefined {
  if (cmd.kind !== 'config-file' || param.origin !== 'config-field') return undefined;
  const flags = cliFlagsByName(model);
  for (const name of new Set([param.name, ...param.aliases].map(looseName))) {
    for (const { command, flag } of flags.get(name) ?? []) {
      const row = rowsFor(model, command, flag).find(({ section }) => !section.history);
      if (row) return { file: row.section.file, line: row.row.location.line, how: 'cli-flag' };
    }
  }
  return undefined;
}

/** {@link cliFlagsByName}'s index per model. */
const cliFlagsMemo = new WeakMap<Model, Map<string, Array<{ command: CommandSpec; flag: ParamSpec }>>>();

/**
 * The CLI flags of the model's commands (config files and commands whose parameters are unknown
 * left out) by loose spelling (`outputfile` for `--outputFile` and `--output-file`), in command
 * order: built once per model, so asking for every field of every config class is linear.
 */
function cliFlagsByName(model: Model): Map<string, Array<{ command: CommandSpec; flag: ParamSpec }>> {
  let index = cliFlagsMemo.get(model);
  if (index) return index;
  cliFlagsMemo.set(model, (index = new Map()));
  for (const command of model.commands) {
    if (command.kind === 'config-file' || command.kind === 'environment' || !command.paramsKnown) continue;
    for (const flag of command.params) {
      if (flag.origin !== 'cli-flag' || flag.positional) continue;
      for (const n of new Set([flag.name, ...flag.aliases].map(looseName))) {
        const list = index.get(n);
        if (list) list.push({ command, flag });
        else index.set(n, [{ command, flag }]);
      }
    }
  }
  return index;
}

/**
 * The first section of another config file's reference that is this parameter's table: named
 * after it (`tool.bumpversion.files` for `files`, its last dotted word) and mapped to the class
 * that types it (its `typeRef` or `valueTypeRef`, or a class named as a word of its type text,
 * `List[FileChange]`). A class that merely types the field, documented for another purpose (a
 * shared request schema), documents nothing about this field.
 */
function classReference(model: Model, cmd: CommandSpec, param: ParamSpec): DocumentedElsewhere | undefined {
  if (!param.typeRef && !param.valueTypeRef && !param.type) return undefined;
  const words = new Set(param.type?.match(/[A-Za-z_]\w*/g) ?? []);
  const named = (n: string): boolean => looseName(n.slice(Math.max(n.lastIndexOf('.'), n.lastIndexOf(' ')) + 1)) === looseName(param.name);
  for (const other of model.commands) {
    if (other === cmd || other.kind !== 'config-file' || other.configClasses.length === 0 || ![other.name, ...other.aliases].some(named)) continue;
    const types = other.configClasses.some((q) => q === param.typeRef || q === param.valueTypeRef || words.has(q.slice(q.lastIndexOf('.') + 1)));
    if (!types) continue;
    const section = model.sectionsFor(other).find((s) => !s.history && s.rows.length > 0);
    if (section) return { file: section.file, line: section.heading.location.line, how: 'class-page' };
  }
  return undefined;
}

/** Prefix of the keys of {@link elsewhereNames} that a Hydra override row documents: config fields only. */
const OVERRIDE_KEY = '\0override:';

function elsewhereNames(model: Model, cmd: CommandSpec): Map<string, DocumentedElsewhere> {
  const names = new Map<string, DocumentedElsewhere>();
  const own = model.sectionsFor(cmd).filter((s) => !s.history);
  if (own.length === 0) return names;
  const add = (ns: readonly string[], at: DocumentedElsewhere): void => {
    for (const n of ns) if (!names.has(looseName(n))) names.set(looseName(n), at);
  };
  // Pages the reference defers to: every row, whoever's section holds it.
  for (const file of new Set(own.flatMap((s) => s.delegatesTo ?? []))) {
    for (const section of model.sections) {
      if (section.file !== file || section.history) continue;
      for (const row of section.rows) add(row.names, { file, line: row.location.line, how: 'delegated' });
    }
    const doc = model.doc(file);
    if (doc && !doc.historical) for (const r of doc.parameterRows ?? []) add(r.names, { file, line: r.line, how: 'delegated' });
  }
  // The command's rows are flags (`--port`) or keys (`port`): rows found elsewhere must be written alike.
  const ownRows = own.flatMap((s) => s.rows);
  const flags = ownRows.filter((r) => /^\W{0,3}-/.test(r.rawName.trim())).length * 2 > ownRows.length;
  // Rows of a page outside the sections of other commands and outside history parts.
  const free = (doc: DocFile, how: DocumentedElsewhere['how']): void => {
    if (doc.historical) return;
    // The command's own sections are checked by their exact spellings (a loose match there is a
    // misspelled row, `reference-param-unknown`), others' rows document other commands.
    const others = model.sections.filter((s) => s.file === doc.file && !s.global);
    for (const r of doc.parameterRows ?? []) {
      if (others.some((s) => r.line >= s.heading.location.line && r.line <= s.endLine)) continue;
      // A Hydra override row documents the config field it sets, whatever the command's rows are.
      if (r.override) add(r.names.map((n) => `${OVERRIDE_KEY}${n}`), { file: doc.file, line: r.line, how });
      else if (r.flag === flags) add(r.names, { file: doc.file, line: r.line, how });
    }
  };
  const pages = [...new Set(own.map((s) => s.file))].map((f) => model.doc(f)).filter((d): d is DocFile => d !== undefined);
  for (const doc of pages) free(doc, 'same-page');
  // Pages the sections' lead text (heading to first row), or their page's intro, link to. A link
  // inside a row ("See [typescript-checker](…) for an example of a checker plugin") is about that
  // row's parameter, not a place for the rest of the reference.
  const linked = new Set<string>();
  for (const doc of pages) {
    const [first, second] = doc.headings;
    const intro = (first?.depth === 1 ? second : first)?.location.line ?? Infinity;
    const leads = own.filter((s) => s.file === doc.file).map((s) => [s.heading.location.line, s.rows.reduce((m, r) => Math.min(m, r.location.line), s.endLine + 1)] as const);
    for (const l of doc.links) {
      const line = l.location.line;
      if (!l.targetFile || l.targetFile === doc.file) continue;
      if (line < intro || leads.some(([from, to]) => line >= from && line < to)) linked.add(l.targetFile);
    }
  }
  for (const file of linked) {
    const doc = model.doc(file);
    if (doc) free(doc, 'linked');
  }
  // Env vars: a sentence that names one as an environment variable on a user's page (not a
  // history or contributor page) explains it, as a row would (gemini-cli's `BUILD_SANDBOX` and
  // `GOOGLE_GENAI_USE_VERTEXAI=true`, set and explained in prose beside the env list).
  if (cmd.kind === 'environment') {
    for (const doc of model.docs) {
      if (doc.historical || doc.contributor || doc.partial) continue;
      for (const code of doc.proseCodes ?? []) if (code.envName) add([code.envName], { file: doc.file, line: code.location.line, how: 'env-prose' });
      // `export SANDBOX_SET_UID_GID=true   # Force host UID/GID`: an example line that says what
      // setting the variable does, in a comment of two words at least, explains it.
      const usages = doc.envUsages ?? [];
      if (usages.length === 0) continue;
      const text = model.source?.(doc.file);
      if (text === undefined || text.length > MAX_SOURCE_SCAN) continue;
      let lines: string[] | undefined;
      for (const u of usages) {
        lines ??= text.split('\n');
        const line = lines[u.location.line - 1] ?? '';
        // A line that sets a variable and explains it is short (the pattern this test replaced was
        // quadratic in a long run of `=`: a 150,000-character line, 23 s, s26c sweep D7).
        if (line.length > MAX_ENV_COMMENT_LINE) continue;
        const at = line.indexOf(u.name);
        if (at >= 0 && explainingComment(line.slice(at))) add([u.name], { file: doc.file, line: u.location.line, how: 'env-comment' });
      }
    }
    // A former name the env reference gives for a variable ("This setting was previously named
    // PAPERLESS_TRASH_DIR."): the deprecated spelling the code still reads is explained there.
    for (const file of new Set(own.map((s) => s.file))) {
      const text = model.source?.(file);
      if (text === undefined || text.length > MAX_SOURCE_SCAN) continue;
      let starts: number[] | undefined;
      for (const m of text.matchAll(FORMER_ENV_NAME)) {
        starts ??= lineStarts(text);
        add([m[1]!], { file, line: lineIndexAt(starts, m.index) + 1, how: 'former-name' });
      }
    }
  }
  return names;
}

/**
 * The other spellings of one parameter in a command that has both CLI flags and a config class:
 * a flag whose `dest` is a config field (`--resume` with `dest="resume_from_cache"`) and that
 * field are one parameter, so a row for either documents both. Looked up in an index built once
 * per command.
 */
export function twinsOf(cmd: CommandSpec, param: ParamSpec): ParamSpec[] {
  const index = paramIndexOf(cmd);
  if (param.origin === 'cli-flag') return param.dest ? [...(index.fieldsBySpelling.get(param.dest) ?? [])] : [];
  const found = new Set<ParamSpec>();
  for (const n of [param.name, ...param.aliases]) for (const p of index.flagsByDest.get(n) ?? []) found.add(p);
  return [...found].sort((a, b) => index.position.get(a)! - index.position.get(b)!);
}

const paramNameLists = new WeakMap<CommandSpec, readonly string[]>();

/**
 * All spellings a command accepts for a parameter name, global parameters excluded. Computed once
 * per command (rules ask per example usage; a command does not change once the model is built).
 */
export function paramNames(cmd: CommandSpec): readonly string[] {
  let names = paramNameLists.get(cmd);
  if (!names) paramNameLists.set(cmd, (names = spellingsOfCommand(cmd)));
  return names;
}

const paramNameSets = new WeakMap<CommandSpec, ReadonlySet<string>>();

/** {@link paramNames} as a set, for membership tests per usage or row (built once per command). */
export function paramNameSet(cmd: CommandSpec): ReadonlySet<string> {
  let names = paramNameSets.get(cmd);
  if (!names) paramNameSets.set(cmd, (names = new Set(paramNames(cmd))));
  return names;
}

const suggestionIndexes = new WeakMap<Model, WeakMap<CommandSpec, Map<boolean, NameIndex>>>();

/**
 * The names a "did you mean" for a usage of `cmd` picks from, {@link paramNames} and the model's
 * global parameters, indexed once per command for {@link suggestNames} (asked once per unknown usage).
 * A config file or environment has no global parameters (Hydra's `help` and `h` are no keys of
 * `tool.yaml`: every unknown key got "Did you mean `h`?", s35 sweep D7); elsewhere one- and
 * two-letter ones (`h`, `c`, `cp`) are not suggested: any short typo is near them.
 */
export function suggestionIndex(model: Model, cmd: CommandSpec, syntax: ArgumentSyntax = 'flag'): NameIndex {
  let byCommand = suggestionIndexes.get(model);
  if (!byCommand) suggestionIndexes.set(model, (byCommand = new WeakMap()));
  let bySyntax = byCommand.get(cmd);
  if (!bySyntax) byCommand.set(cmd, (bySyntax = new Map()));
  // The globals a usage of this syntax may name are the only thing that differs between syntaxes.
  const flag = syntax === 'flag';
  let index = bySyntax.get(flag);
  if (!index) {
    const globals = [...model.globalParams].filter((g) => g.length > 2 && isGlobalParam(model, cmd, g, syntax));
    bySyntax.set(flag, (index = new NameIndex([...paramNames(cmd), ...globals])));
  }
  return index;
}

/** Whether the config's `globalParameters` (Hydra's and the CLI frameworks' built-ins) apply to `cmd`: not to a config file's keys nor to environment variables (s35 sweep D7). */
export function appliesGlobalParams(cmd: CommandSpec): boolean {
  return cmd.kind !== 'config-file' && cmd.kind !== 'environment';
}

/**
 * Global parameters that exist only as command-line flags: the frameworks' `--help`/`-h` and
 * `--version`, and Hydra's own flags (`--hydra-help`, `--cfg`/`-c`, `--resolve`, `--package`/`-p`,
 * `--run`/`-r`, `--multirun`/`-m`, `--config-path`/`-cp`, `--config-name`/`-cn`,
 * `--config-dir`/`-cd`, `--info`/`-i`, `--shell-completion`/`-sc`, `--experimental-rerun`; see
 * https://hydra.cc/docs/advanced/hydra-command-line-flags/). Written as a Hydra override
 * (`+help=2`) or a config key they are ordinary keys the command may not have, so they excuse
 * only flags. `hydra` (`hydra.run.dir=…`) and `config_paths` stay globals of every syntax.
 */
export const FLAG_ONLY_GLOBAL_PARAMETERS: ReadonlySet<string> = new Set([
  'help', 'h', 'hydra-help', 'version', 'cfg', 'c', 'resolve', 'package', 'p', 'run', 'r', 'multirun', 'm',
  'config-path', 'cp', 'config-name', 'cn', 'config-dir', 'cd', 'info', 'i', 'shell-completion', 'sc', 'experimental-rerun',
]);

/**
 * Whether `name`, used with `syntax` in an example of `cmd`, is one of the config's
 * `globalParameters` that apply there: never for a config file's keys or environment variables
 * ({@link appliesGlobalParams}), and the flag-only ones ({@link FLAG_ONLY_GLOBAL_PARAMETERS}) only
 * for a CLI flag (s36 sweep D6: `tool +help=2` is no request for help).
 */
export function isGlobalParam(model: Model, cmd: CommandSpec, name: string, syntax: ArgumentSyntax): boolean {
  if (!appliesGlobalParams(cmd) || !model.globalParams.has(name)) return false;
  return syntax === 'flag' || !FLAG_ONLY_GLOBAL_PARAMETERS.has(name);
}

function spellingsOfCommand(cmd: CommandSpec): string[] {
  return [...cmd.params, ...(cmd.acceptedParams ?? [])].flatMap((p) => [
    p.name,
    ...p.aliases,
    // A negatable flag accepts `--no-` before each long spelling (argparse BooleanOptionalAction:
    // `--browser` aliasing `--gui` also gives `--no-browser`).
    ...(p.negatable ? [p.name, ...p.aliases.filter((a) => a.length > 1)].map((n) => `no-${n}`) : []),
  ]);
}

/** `file:line` for messages. */
export function where(loc: SourceLocation): string {
  return `${loc.file}:${loc.line}`;
}

/** A Markdown link from one document to a heading of another, as a relative URL (`../docs/cli.mdx#ng_run`). */
export function relativeLink(fromFile: string, toFile: string, slug?: string): string {
  const rel = fromFile === toFile ? '' : path.posix.relative(path.posix.dirname(fromFile), toFile);
  return slug ? `${rel}#${slug}` : rel;
}

/**
 * The line range `[start, end]` of the block that a `#fragment` in `doc` names, or the whole
 * document when there is no fragment. Undefined when the fragment names no heading.
 */
export function linkedRange(doc: DocFile, fragment: string | undefined): { start: number; end: number; codes: string[] } | undefined {
  if (!fragment) return { start: 1, end: Number.MAX_SAFE_INTEGER, codes: [] };
  const wanted = fragment.toLowerCase();
  const block = doc.blocks.find((b) => b.heading.slug.toLowerCase() === wanted)
    ?? doc.blocks.find((b) => b.heading.anchors?.some((a) => a.toLowerCase() === wanted));
  if (!block) return undefined;
  return { start: block.heading.location.line, end: block.endLine, codes: block.codes ?? [] };
}

const linkedRanges = new WeakMap<DocFile, Map<string, ReturnType<typeof linkedRange>>>();

/** {@link linkedRange}, computed once per document and fragment (documents do not change once the model is built). */
function memoLinkedRange(doc: DocFile, fragment: string | undefined): ReturnType<typeof linkedRange> {
  let byFragment = linkedRanges.get(doc);
  if (!byFragment) linkedRanges.set(doc, (byFragment = new Map()));
  const key = fragment ?? '';
  if (!byFragment.has(key)) byFragment.set(key, linkedRange(doc, fragment));
  return byFragment.get(key);
}

/** The rows of a section that lie inside a line range. */
export function rowsInRange(section: ReferenceSection, start: number, end: number): ReferenceRow[] {
  return section.rows.filter((r) => r.location.line >= start && r.location.line <= end);
}

/** Simple names of the config classes behind commands, for messages (`RolloutCollectionConfig`). */
export function configClassNames(cmds: CommandSpec[], model?: Model): string {
  const simple = (q: string): string => model?.classes.get(q)?.name ?? q.split('#').pop()!.split('.').pop() ?? q;
  const classes = [...new Set(cmds.flatMap((c) => c.configClasses.map(simple)))].join(', ');
  const flags = cmds.some((c) => paramKindsOf(c).flags);
  if (classes && flags) return `${classes} or its CLI flags`;
  if (classes || flags) return classes || 'its CLI flags';
  // Parameters listed in the config (`commands.x.params`) are the only other source; a command
  // whose code declares none (a click group without options) must not point at a config file.
  const declared = cmds.some((c) => paramKindsOf(c).declared);
  return declared ? 'the `params` of the docdrift config' : 'no parameter declared in code';
}

const paramKinds = new WeakMap<CommandSpec, { flags: boolean; declared: boolean }>();

/** Whether a command has CLI flags, and parameters from the docdrift config: once per command (messages ask per finding). */
function paramKindsOf(cmd: CommandSpec): { flags: boolean; declared: boolean } {
  let kinds = paramKinds.get(cmd);
  if (!kinds) {
    kinds = { flags: cmd.params.some((p) => p.origin === 'cli-flag'), declared: cmd.params.some((p) => p.owner.startsWith('docdrift config')) };
    paramKinds.set(cmd, kinds);
  }
  return kinds;
}

/** Related locations pointing at the config class that defines a command's parameters. */
export function definedBy(model: Model, cmd: CommandSpec): Array<SourceLocation & { message: string }> {
  const first = cmd.configClasses[0] ? model.classes.get(cmd.configClasses[0]) : undefined;
  return first ? [{ ...first.location, message: `\`${cmd.name}\` parameters are defined by ${first.name}` }] : [];
}

/** What a dotted key (`data.repo_id`) addresses in a command's parameters. */
export type KeyResolution =
  /** Every segment is a known parameter or nested field; `param` is the last one. */
  | { status: 'known'; param: ParamSpec; root: ParamSpec }
  /** The key goes below a dict-typed field or a field whose type docdrift cannot see into. */
  | { status: 'open'; param: ParamSpec; root: ParamSpec }
  /** Segment `index` (spelt `segment`) is not a field of `owner`: the config class typing the previous segment, or the values of a mapping (`prefix` then ends with the free key, `servers.main`). */
  | { status: 'unknown-subkey'; root: ParamSpec; index: number; segment: string; owner: ConfigClass; prefix: string }
  /** The first segment is not a parameter of the command. */
  | { status: 'unknown' };

const subclassCache = new WeakMap<Pick<Model, 'classes'>, Set<string>>();

/** Qualified names of the config classes that other config classes derive from. */
function subclassed(model: Pick<Model, 'classes'>): Set<string> {
  let set = subclassCache.get(model);
  if (!set) {
    set = new Set();
    for (const c of model.classes.values()) for (const b of c.bases) if (model.classes.has(b)) set.add(b);
    subclassCache.set(model, set);
  }
  return set;
}

/**
 * Resolves a dotted key against a command's parameters, descending through nested config
 * classes (`ParamSpec.typeRef`). Below a mapping whose values are a config class
 * (`ParamSpec.valueTypeRef`: `Dict[str, ServerConfig]`, `Record<string, Server>`) one segment is
 * a free key and the next is checked against the value class (`servers.main.port`); the free key
 * alone (`servers.main`, a whole value) is open. Open namespaces (`openNamespace` without a value
 * class), fields of unknown type and fields typed by a base class that has subclasses
 * (polymorphic configs) accept any sub-key. Cycles and absurd depths stop at 16 segments
 * (treated as open). `key` is a dotted key, split by {@link splitKey} (a parameter whose own name
 * or alias holds a dot, `log.level`, is one segment), or its segments when one contains a dot
 * itself (`Usage.keySegments`).
 */
export function resolveKey(model: Pick<Model, 'classes'>, cmd: CommandSpec, key: string | readonly string[], options: { flag?: boolean } = {}): KeyResolution {
  const segments = typeof key === 'string' ? splitKey(cmd, key) : key;
  const root = findParam(cmd, segments[0] ?? '');
  if (!root) return { status: 'unknown' };
  let current = root;
  for (let i = 1; i < segments.length; i++) {
    if (i > 16) return { status: 'open', param: current, root };
    const ref = current.valueTypeRef ?? (current.openNamespace ? undefined : current.typeRef);
    if (!ref) return { status: 'open', param: current, root };
    const owner = model.classes.get(ref);
    // A base class with subclasses is polymorphic (draccus `ChoiceRegistry` with `--robot.type`,
    // pydantic discriminated unions, Hydra `_target_`): the fields depend on the chosen subclass,
    // which docdrift does not follow, so any sub-key is accepted.
    if (!owner || subclassed(model).has(owner.qualifiedName)) return { status: 'open', param: current, root };
    // `servers.<name>`: the instance name is free; the segment after it names a field.
    if (current.valueTypeRef !== undefined && ++i >= segments.length) return { status: 'open', param: current, root };
    const seg = segments[i]!;
    const next = owner.fields.find((f) => f.name === seg) ?? owner.fields.find((f) => f.aliases.includes(seg)) ?? (options.flag ? flagSpelledField(owner.fields, seg) : undefined);
    if (!next) return { status: 'unknown-subkey', root, index: i, segment: seg, owner, prefix: segments.slice(0, i).join('.') };
    current = next;
  }
  return { status: 'known', param: current, root };
}

/**
 * The segments of a dotted key (a reference row's name) as `cmd` reads it: the longest dotted
 * prefix that is a parameter's own name or alias is one segment (a JSON Schema property or a
 * pydantic alias `log.level` is a name, not the field `level` below a parameter `log`), and each
 * dot after it goes one nested field down (`log.level.x`); a key no such prefix starts is split at
 * every dot (`optim.lr` is the field `lr` of the nested group `optim`). Only prefixes as long as
 * the command's longest dotted name are looked up, so a key of many dots costs no more than that.
 */
export function splitKey(cmd: CommandSpec, key: string): string[] {
  const segments = key.split('.');
  if (segments.length === 1) return segments;
  const index = paramIndexOf(cmd);
  if (index.longestDotted === 0) return segments;
  let head = 1;
  let length = segments[0]!.length;
  let headLength = length;
  for (let k = 1; k < segments.length; k++) {
    length += 1 + segments[k]!.length;
    if (length > index.longestDotted) break;
    const prefix = key.slice(0, length);
    if (index.byName.has(prefix) || index.byAlias.has(prefix)) {
      head = k + 1;
      headLength = length;
    }
  }
  return head === 1 ? segments : [key.slice(0, headLength), ...segments.slice(head)];
}

/**
 * The keys a dotted key goes through on its way down, as {@link splitKey} reads it: `logging` and
 * `logging.file` for `logging.file.path`, only `log.level` for `log.level.x` when `log.level` is a
 * parameter's own name (a row `log.level` documents no parameter `log`); none for a key of one segment.
 */
export function keyPrefixes(cmd: CommandSpec, key: string): string[] {
  const segments = splitKey(cmd, key);
  const out: string[] = [];
  let prefix = segments[0]!;
  for (let i = 1; i < segments.length; i++) {
    out.push(prefix);
    prefix = `${prefix}.${segments[i]!}`;
  }
  return out;
}

/**
 * The nested field a dotted CLI flag's segment spells the way tyro and jsonargparse accept it:
 * dashes for underscores (`--profiler.enable-memory-snapshot`) and, for a boolean field, its
 * negation (`--profiler.no_enable_memory_snapshot`, `--profiler.no-enable-memory-snapshot`).
 */
export function flagSpelledField(fields: readonly ParamSpec[], segment: string): ParamSpec | undefined {
  const norm = (n: string): string => n.replace(/-/g, '_');
  const seg = norm(segment);
  const named = (n: string): ParamSpec | undefined => fields.find((f) => [f.name, ...f.aliases].some((a) => norm(a) === n));
  const plain = named(seg);
  if (plain) return plain;
  const negated = /^no_(.+)$/.exec(seg)?.[1];
  const field = negated !== undefined ? named(negated) : undefined;
  return field && /\bbool(?:ean)?\b/i.test(field.type ?? '') ? field : undefined;
}

/**
 * How many dotted keys {@link nestedKeys} lists for one parameter. Nested config classes of k
 * fields per level, 9 levels deep, spell k^9 keys: a 1.5 KB module of 6 fields x 9 levels made
 * 10 M keys (19 s CPU, 2.3 GB), 12 x 10 levels (2.8 KB) ran 100 s into a 4.7 GB heap abort (#33
 * s28 sweep D9; after: 0.7 s CPU and 118 MB for the whole run). No parameter of the fixtures and
 * tests lists more than 20 keys, real Hydra and pydantic trees hundreds to a few thousand; 50,000
 * keeps those whole and costs about 26 ms and 6 MB per parameter.
 */
export const MAX_NESTED_KEYS = 50_000;

/**
 * How many dotted keys {@link nestedKeys} lists in one run, summed over the distinct
 * (class, parameter name) pairs it is asked about: n parameters of one deep class would otherwise
 * cost n x {@link MAX_NESTED_KEYS}. Ten full lists: about 0.3 s and 60 MB.
 */
export const MAX_NESTED_KEYS_PER_RUN = 500_000;

/** What {@link nestedKeys} lists for one parameter. */
export interface NestedKeys {
  /** The leaf keys, in field order, with their fields; at most {@link MAX_NESTED_KEYS}. */
  keys: ReadonlyArray<{ key: string; param: ParamSpec }>;
  /**
   * Set when a budget cut the list: the class whose fields were being listed (`owner`, the type of
   * `prefix`) and the budget's wording. The keys listed before the cut are kept; the rest are
   * unknown, so the parameter is partly known.
   */
  cut?: { owner: ConfigClass; prefix: string; budget: string };
}

/** Per model: the lists {@link nestedKeys} made, by class and parameter name, and the keys they hold in all. */
const nestedKeysMemo = new WeakMap<Model, { used: number; lists: Map<string, NestedKeys> }>();

/**
 * The dotted keys a nested parameter contributes (`logging.level`, `logging.rotate.max_bytes`),
 * leaves only, each with its ParamSpec, down to 9 levels; a class met again on its own path is a
 * leaf. Empty for a parameter without `typeRef`. Bounded by {@link MAX_NESTED_KEYS} per
 * parameter and {@link MAX_NESTED_KEYS_PER_RUN} per model (see `cut`); memoised per model, class
 * and name, so the rules asking about the same parameter pay once.
 */
export function nestedKeys(model: Model, param: ParamSpec): NestedKeys {
  if (!param.typeRef || !model.classes.has(param.typeRef)) return { keys: [] };
  let memo = nestedKeysMemo.get(model);
  if (!memo) nestedKeysMemo.set(model, (memo = { used: 0, lists: new Map() }));
  const id = `${param.typeRef}\u0000${param.name}`;
  const known = memo.lists.get(id);
  if (known) return known;
  const left = MAX_NESTED_KEYS_PER_RUN - memo.used;
  const limit = Math.min(MAX_NESTED_KEYS, left);
  const budget = limit === MAX_NESTED_KEYS ? `the budget of ${MAX_NESTED_KEYS.toLocaleString('en-US')} nested keys per parameter` : `the budget of ${MAX_NESTED_KEYS_PER_RUN.toLocaleString('en-US')} nested keys per run`;
  const keys: Array<{ key: string; param: ParamSpec }> = [];
  // The run's budget spent: the parameter's own class is where it cut.
  const state: { cut?: NestedKeys['cut'] } = limit > 0 ? {} : { cut: { owner: model.classes.get(param.typeRef)!, prefix: param.name, budget } };
  if (limit > 0) walkNestedKeys(model, param, param.name, 0, new Set(), keys, limit, budget, state);
  const found: NestedKeys = state.cut ? { keys, cut: state.cut } : { keys };
  memo.used += keys.length;
  memo.lists.set(id, found);
  return found;
}

/**
 * Appends the leaf keys below `param` (its class's fields as `prefix.field`) to `out`, stopping
 * at `limit` keys; `path` holds the classes on the way down (a class met again is a leaf, as is
 * a field past depth 8). True when the limit cut the walk (then `state.cut` says where).
 */
function walkNestedKeys(model: Model, param: ParamSpec, prefix: string, depth: number, path: Set<string>, out: Array<{ key: string; param: ParamSpec }>, limit: number, budget: string, state: { cut?: NestedKeys['cut'] }): boolean {
  const ref = param.typeRef;
  if (!ref || depth > 8 || path.has(ref)) return false;
  const cls = model.classes.get(ref);
  if (!cls) return false;
  path.add(ref);
  try {
    for (const f of cls.fields) {
      const key = `${prefix}.${f.name}`;
      const before = out.length;
      if (walkNestedKeys(model, f, key, depth + 1, path, out, limit, budget, state)) return true;
      if (out.length > before) continue;
      if (out.length >= limit) {
        state.cut = { owner: cls, prefix, budget };
        return true;
      }
      out.push({ key, param: f });
    }
    return false;
  } finally {
    path.delete(ref);
  }
}

/**
 * One `parse-error` warning per file holding a class where {@link nestedKeys} was cut, for the
 * parameters of `commands` (asked in command and parameter order, so the per-run budget is spent
 * the same way in every run). Called by the link stage, before the rules ask.
 */
export function nestedKeyDiagnostics(model: Model): InputDiagnostic[] {
  const notes = new Map<string, { cut: NonNullable<NestedKeys['cut']>; count: number }>();
  for (const cmd of model.commands) {
    for (const p of cmd.params) {
      const { cut } = nestedKeys(model, p);
      if (!cut) continue;
      const note = notes.get(cut.owner.location.file);
      if (note) note.count++;
      else notes.set(cut.owner.location.file, { cut, count: 1 });
    }
  }
  return [...notes.values()].map(({ cut, count }) => {
    const loc = cut.owner.location;
    return {
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${loc.file}:${loc.line}:${loc.column}: \`${cut.owner.name.slice(0, 80)}\` (the type of \`${cut.prefix.slice(0, 80)}\`) is past ${cut.budget}: its keys and those after it are not listed (${count} parameter${count === 1 ? '' : 's'} so cut); commands using them are partly known`,
      location: { file: loc.file, line: loc.line, column: loc.column },
    };
  });
}

/**
 * The parameter a reference row documents for a command: the first of the row's names that
 * resolves to a known parameter or nested field, with the key as users write it (`optim.lr` for a
 * nested field, the parameter's own name otherwise). Undefined when none resolves.
 */
export function rowParam(model: Model, cmd: CommandSpec, row: ReferenceRow): { key: string; param: ParamSpec } | undefined {
  for (const n of row.names) {
    const r = resolveKey(model, cmd, n);
    if (r.status === 'known') return { key: n.includes('.') ? n : r.param.name, param: r.param };
  }
  return undefined;
}

/**
 * A folder named for a reference (`cli-reference/`, `reference/`, `commands/`, `cli/`, `options/`,
 * `api/`): the docs sites' place for a reference spread over several pages. A folder of topic
 * pages (`config/`, `guides/`) is not one, though some of its pages hold reference rows.
 */
const REFERENCE_DIR_RE = /(?:^|\/)(?:[\w-]*[-_])?(?:reference|references|ref|cli|commands|options|api)$/i;

/** A folder's index page: `index.md`, `README.md`, `_index.md` (Hugo). */
const INDEX_PAGE_RE = /(?:^|\/)(?:_?index|readme)\.(?:mdx?|rst)$/i;

/**
 * Whether a page documents flags one heading each: a heading names a flag in code, and either half
 * its headings below the title at least do, or the page has an options table all of whose rows
 * name flags (`` | [`--graphql-no-typename`](#graphql-no-typename) | … | ``).
 */
function flagPage(doc: DocFile | undefined): boolean {
  if (!doc) return false;
  const isFlag = (c: string): boolean => /^--?[A-Za-z]/.test(c.trim());
  const headings = doc.headings.filter((h) => h.depth >= 2);
  const flags = headings.filter((h) => h.codes.some(isFlag)).length;
  if (flags === 0) return false;
  if (flags * 2 >= headings.length) return true;
  return doc.blocks.some((b) => b.tables.some((t) => t.rows.length > 0 && t.rows.every((r) => (r.cellCodes[0] ?? []).some(isFlag))));
}

/** Two spellings of a flag or more (`--td/--tools-debug`, `-p, --port`), then the end or a blank; anchored, and no piece can take what the next one starts with. */
const FLAG_SPELLINGS_RE = /^-{1,2}[A-Za-z][\w-]*(?:[ \t]*[/,|][ \t]*-{1,2}[A-Za-z][\w-]*)+(?:[ \t]|$)/;

/**
 * A code span naming two spellings of a flag (`--td/--tools-debug`, `-p, --port`) as its
 * spellings; any other span as itself. The test is
 * `/^-{1,2}[A-Za-z][\w-]*(?:[ \t]*[/,|][ \t]*-{1,2}[A-Za-z][\w-]*)+(?:[ \t].*)?$/` in linear
 * time: its `.*` failed at a line break and was retried after every spelling (a 100,000-character
 * span: 2.6 s). A span with a line break cannot match it (no piece but `.` reads one, and `.`
 * cannot), and without one `.*$` always holds. The split is {@link splitSpellings}.
 */
export function codeSpellings(code: string): string[] {
  return !/[\n\r\u2028\u2029]/.test(code) && FLAG_SPELLINGS_RE.test(code) ? splitSpellings(code) : [code];
}

/**
 * `text` split at each match of the pattern `[ \t]*[/,|][ \t]*`, as `String.split` with it did, in
 * linear time: that pattern rescanned a run of blanks no
 * separator follows from each of its positions (100,000 blanks: 23 s). Each separator takes the blanks before it back to
 * the previous separator's end and the blanks after it.
 */
export function splitSpellings(text: string): string[] {
  const parts: string[] = [];
  const blank = (i: number): boolean => text[i] === ' ' || text[i] === '\t';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '/' && c !== ',' && c !== '|') continue;
    let start = i;
    while (start > from && blank(start - 1)) start--;
    let end = i + 1;
    while (end < text.length && blank(end)) end++;
    parts.push(text.slice(from, start));
    from = end;
    i = end - 1;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Whether a linked line range of a page is (or holds) one of the page's command reference sections. */
function linksCommandSection(model: Model, file: string, range: { start: number; end: number }): boolean {
  return sectionsOfFile(model, file).some((s) => !s.global && s.rows.length > 0 && s.heading.location.line >= range.start && s.heading.location.line <= range.end);
}

/** Whether two reference sections document the same thing: both global, or a command in common. */
function sameReference(a: ReferenceSection, b: ReferenceSection): boolean {
  if (a.global || b.global) return a.global && b.global;
  return a.commands.some((c) => b.commands.includes(c));
}

/**
 * Whether a code span names the parameter as an option: a CLI flag with its dashes (`--port`,
 * `-p`, `--remote [password]`, one of `--port, -p`), a config key bare.
 */
function namesOption(code: string, param: ParamSpec, spellings: ReadonlySet<string>): boolean {
  const flag = param.origin === 'cli-flag';
  return code.split(/[,|]/).some((part) => {
    const token = part.trim().split(/[\s=[]/)[0] ?? '';
    return flag ? /^--?[^-]/.test(token) && spellings.has(token.replace(/^--?/, '')) : spellings.has(token);
  });
}

/**
 * Whether a table of the page (between lines `start` and `end`) has a row naming the parameter: a CLI flag as a code span of any
 * cell spelled with its dashes (`` `--port`, `-p` ``, `` `--remote [password]` ``), a config
 * field as the first cell's code span.
 */
function tableNames(doc: DocFile, param: ParamSpec, spellings: ReadonlySet<string>, start = 1, end = Number.MAX_SAFE_INTEGER): boolean {
  const index = tableIndexOf(doc);
  const flag = param.origin === 'cli-flag';
  for (const s of spellings) {
    const keys = flag ? [`--${s}`, `-${s}`] : [`\0${s}`];
    for (const key of keys) if (index.get(key)?.some((line) => line >= start && line <= end)) return true;
  }
  return false;
}

const tableIndexes = new WeakMap<DocFile, Map<string, number[]>>();

/**
 * The option names in a page's tables, each with the lines of its tables, computed once per
 * document: every dash-prefixed token of any cell's code spans as written (`--port`, `-p`), and
 * the first cell's bare tokens under `\0name`.
 */
function tableIndexOf(doc: DocFile): Map<string, number[]> {
  let index = tableIndexes.get(doc);
  if (index) return index;
  index = new Map();
  const add = (key: string, line: number): void => {
    const lines = index!.get(key);
    if (!lines) index!.set(key, [line]);
    else if (lines[lines.length - 1] !== line) lines.push(line);
  };
  const seen = new Set<object>();
  for (const block of doc.blocks) {
    for (const table of block.tables) {
      if (seen.has(table)) continue;
      seen.add(table);
      for (const row of table.rows) {
        row.cellCodes.forEach((codes, cell) => {
          for (const code of codes) {
            for (const part of code.split(/[,|]/)) {
              const token = part.trim().split(/[\s=[]/)[0] ?? '';
              if (/^--?[^-]/.test(token)) add(token, table.location.line);
              else if (cell === 0 && token !== '') add(`\0${token}`, table.location.line);
            }
          }
        });
      }
    }
  }
  tableIndexes.set(doc, index);
  return index;
}

const sectionsByFile = new WeakMap<Model, Map<string, ReferenceSection[]>>();

/** The model's reference sections of one document, indexed once per model. */
function sectionsOfFile(model: Model, file: string): readonly ReferenceSection[] {
  let byFile = sectionsByFile.get(model);
  if (!byFile) {
    byFile = new Map();
    for (const s of model.sections) {
      const list = byFile.get(s.file);
      if (list) list.push(s);
      else byFile.set(s.file, [s]);
    }
    sectionsByFile.set(model, byFile);
  }
  return byFile.get(file) ?? [];
}

/**
 * A parameter is explained for a document when the document itself holds a row for it or explains
 * it in prose (its name in inline code followed by prose words, {@link ProseCode}), or links
 * to a file (whole) or heading (block) holding a row for it, or to a heading whose block mentions
 * the parameter in inline code. A page that names the parameter in a table of its own, or a sentence
 * that introduces the flag (`` …using `--out`. ``), explains it too. A reference spread over the
 * pages of one folder counts as one: its pages explain what their siblings document, and a link
 * without fragment to one of them (or to the folder's index page) explains it. `rows` are the parameter's documenting rows ({@link rowsFor}); with
 * none, nothing explains it. Shared by `example-param-unexplained` and the `--summary` report.
 */
export function isExplained(
  model: Model,
  file: string,
  param: ParamSpec,
  rows: ReturnType<typeof rowsFor>,
): boolean {
  // Asked twice for the same page and parameter (the rule, and the coverage's `explainedDocs`):
  // answered once per `rows` (one array per model, command and parameter, `rowsFor`).
  let byFile = explainedMemo.get(rows);
  if (!byFile) explainedMemo.set(rows, (byFile = new Map()));
  let byParam = byFile.get(file);
  if (!byParam) byFile.set(file, (byParam = new Map()));
  let answer = byParam.get(param);
  if (answer === undefined) byParam.set(param, (answer = computeIsExplained(model, file, param, rows)));
  return answer;
}

/** {@link isExplained}'s answers by rows, page and parameter. */
const explainedMemo = new WeakMap<ReturnType<typeof rowsFor>, Map<string, Map<ParamSpec, boolean>>>();

function computeIsExplained(model: Model, file: string, param: ParamSpec, rows: ReturnType<typeof rowsFor>): boolean {
  if (rows.some(({ section }) => section.file === file)) return true;
  const doc = model.doc(file);
  if (!doc) return false;
  const spellings = new Set([param.name, ...param.aliases, ...(param.negatable ? [`no-${param.name}`] : [])]);
  // Its rows were not read (over the run's limit, or not parsed and showing the name as code: `DocFile.rowsCut`): one of them may explain it.
  if (unreadMayDocument([doc], spellings)) return true;
  // The page explains it itself: its name in inline code followed by prose, in a paragraph
  // (`` `++responses_create_params.<field>` sets any sampling parameter… ``), or a flag that a
  // sentence introduces (`` You can change the output directory using `--out`. ``).
  if (doc.proseCodes?.some((p) => (p.explained || p.introduced) && proseNames(p, param, spellings))) return true;
  // Or in a table of its own (an options table the page holds but that is not taken as the
  // command's reference: under a heading that does not name the command).
  if (tableNames(doc, param, spellings)) return true;
  // A CLI flag under a heading about it: the flag in the heading's code (`` ### Using `--out` ``) or as
  // its explicit id (`### Remove speaker notes {#without-notes}`).
  if (param.origin === 'cli-flag' && doc.headings.some((h) => h.anchors?.some((a) => spellings.has(a)) || h.codes.some((c) => namesOption(c, param, spellings)))) return true;
  // A reference spread over the pages of one folder (`docs/cli-reference/*.md`): a page of it
  // explains the parameters its sibling pages document; a link to one of its pages or to the
  // folder's index page, without a fragment, is a link to the whole reference.
  const rowDirs = new Set(rows.map(({ section }) => path.posix.dirname(section.file)).filter((d) => REFERENCE_DIR_RE.test(d)));
  // A page of it or of a sub-folder (`cli-reference/manual/debug.md`, one page per flag) belongs to
  // it too when it is a page of flags: half its headings at least are about one
  // (`` ## `--debug` {#debug} ``), even with no table read as the command's rows. A topic page of
  // the folder that has one such heading among many (`reference/configuration.mdx`) is not.
  const nested = (f: string): boolean => {
    const dir = path.posix.dirname(f);
    return param.origin === 'cli-flag' && [...rowDirs].some((d) => dir === d || dir.startsWith(`${d}/`)) && flagPage(model.doc(f));
  };
  const referencePage = (f: string): boolean =>
    rowDirs.size > 0 && ((rowDirs.has(path.posix.dirname(f)) && sectionsOfFile(model, f).some((s) => s.rows.length > 0 && rows.some(({ section }) => sameReference(s, section)))) || nested(f));
  if (referencePage(file)) return true;
  for (const link of doc.links) {
    if (!link.targetFile) continue;
    if (!link.fragment && link.targetFile !== file && (referencePage(link.targetFile) || (rowDirs.has(path.posix.dirname(link.targetFile)) && INDEX_PAGE_RE.test(link.targetFile)))) return true;
    const target = model.doc(link.targetFile);
    if (!target) continue;
    // A linked page whose rows were not read may explain it in one of them.
    if (unreadMayDocument([target], spellings)) return true;
    const range = memoLinkedRange(target, link.fragment);
    if (!range) continue;
    // The linked page (or section) lists the parameter in a table of its own (`/cli/running`'s options table).
    if (target.file !== file && tableNames(target, param, spellings, range.start, range.end)) return true;
    // `rows` are the rows documenting the parameter under any spelling (alias, `no-x`, a flag's
    // config-field twin): the link explains it when one of them lies in the linked range.
    for (const { section, row } of rows) {
      if (section.file !== target.file) continue;
      if (row.location.line >= range.start && row.location.line <= range.end && section.rows.includes(row)) return true;
      // The page's "Global options" section applies to every command section of the page: a link
      // to one of them (`cli.md#bootstrapping`) reaches the global rows above it too.
      if (section.global && target.file !== file && linksCommandSection(model, target.file, range)) return true;
    }
    // A span with two spellings names the parameter when both are its own (`--td/--tools-debug`;
    // `-c/--continue` of another command is not `-c/--current`).
    if (link.fragment && range.codes.some((c) => spanKeys(c).every((k) => spellings.has(k)))) return true;
  }
  return false;
}

/**
 * The names a code span's spellings give ({@link codeSpellings}, each without its leading `+`, `~`
 * or `-` and cut at `=`, `.` or a blank), per span text: {@link isExplained} asks for every span of a
 * linked range, per usage and parameter.
 */
const spanKeys = memoByText((code: string): string[] => codeSpellings(code).map((sp) => sp.replace(/^[+~-]+/, '').split(/[=.\s]/)[0] ?? sp));

/**
 * The classes among `candidates` (those sharing one simple name) that are not aliases of another
 * candidate: `type Config = Base.Config` re-exported under the same name is that class, not a
 * second one to choose from (see `ConfigClass.aliasOf`). Order is kept.
 */
export function distinctClasses(candidates: readonly ConfigClass[]): ConfigClass[] {
  const names = new Set(candidates.map((c) => c.qualifiedName));
  return candidates.filter((c) => c.aliasOf === undefined || !names.has(c.aliasOf));
}
