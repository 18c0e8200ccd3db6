/**
 * Reference inference by content (issue #29): which command a heading block documents when no
 * heading names it and the config says nothing, found by the overlap of the names it documents
 * with the parameters each command is known to accept.
 *
 * Real references are headed "Command Line Arguments", "Options", "Usage", "Configuration", or are
 * a page whose title names the tool; the names they document are the only evidence that does not
 * depend on how they are headed. A block is assigned to a command only when the match is clear
 * (see {@link INFERENCE_THRESHOLDS}); otherwise it is left alone and `--debug` says why.
 */
import type { CommandSpec, ConfigClass, ReferenceRow } from '../model/types.js';
import { isNonProductPath } from '../shared/paths.js';
import { foldSpelling } from '../shared/names.js';

/**
 * When a documented name set is assigned to a command's parameters. A block is assigned when
 * at least `minShared` of its rows name the command's own parameters (one, for a sub-command the
 * block's heading, page title or path names), the rows the command
 * explains (own, inherited and global parameters) are at least `minShare` of its rows, and no
 * other command comes within `rivalRatio` of its shared count (unless the heading, title or path
 * names the winner's last word and not the rival's).
 */
export const INFERENCE_THRESHOLDS = { minShared: 3, minShare: 0.5, classShare: 0.75, rivalRatio: 0.8 } as const;

/** Names every CLI framework adds by itself: no evidence either way. */
const BUILTIN_NAMES: ReadonlySet<string> = new Set(['help', 'h', 'version', 'V', 'v']);

/**
 * A name folded for matching across spellings: case, leading dashes/plus/tilde, `-` and `_` are
 * ignored (`--max-tokens`, `max_tokens`, `maxTokens` are one name); a dotted key is matched by its
 * first segment (`data.repo_id` → `data`). A capitalised word (`Headers`, `AsyncClient`: a class or
 * type name) stays apart from the lower-case parameter it folds to (`--headers`), as the rules keep
 * it (`reference-param-unknown` reports a `Headers` row of `--headers`): httpx's API page, headings
 * `` ## `Client` `` … `` ## `Headers` ``, `` ## `Cookies` ``, `` ## `Proxy` ``, was inferred as the
 * CLI's reference by those three and gave seven false errors. All-caps names (`MAX_TOKENS`) fold as before.
 */
export function foldName(name: string): string {
  const first = firstSegment(name);
  return /^[A-Z][a-z]/.test(first) ? `^${foldSpelling(first)}` : foldSpelling(first);
}

/**
 * {@link foldName} with case ignored everywhere (`Headers` and `--headers` are one name): for a
 * cheap gate that only decides whether a page is worth reading by content (src/engine/lint.ts),
 * where a loose match costs time, not a finding. Vite's docs/config/worker-options.md passed it
 * with `RolldownOptions` among its three names; read, its `worker.*` headings document `worker`.
 */
export function foldNameAnyCase(name: string): string {
  return foldSpelling(firstSegment(name));
}

/** `name` without leading dashes/plus/tilde, up to its first dot. */
function firstSegment(name: string): string {
  const bare = name.replace(/^[-+~]+/, '');
  return bare.includes('.') ? bare.slice(0, bare.indexOf('.')) : bare;
}

/** The folded names a command is known to accept, split by how strongly they tie a row to it. */
export interface ParameterSet {
  command: CommandSpec;
  /** Folded names and aliases of the command's own parameters (positionals left out). */
  own: Set<string>;
  /** Own names plus positional arguments, inherited (`acceptedParams`) and project-global parameters. */
  explained: Set<string>;
  /** Lower-case words that name the command in a heading, title or path (its last word, its aliases' last words). */
  words: string[];
  /**
   * For a nested config class (`plan: PlanConfig` of the command's config): the key prefix its
   * rows get (`plan.`), so `auto_apply` under "## Plan" documents `plan.auto_apply`.
   */
  prefix?: string;
}

/**
 * Most nested-class sets one command gets, and the run: a class typing many fields of a class
 * that types many fields (k fields per level, three levels) gave k³ sets of k names (classes of
 * 300 fields: 13.5 s of model and 2 GB, s28 sweep). Real projects have a few dozen; past the cap
 * the deeper classes are not matched to a section by content (the sets only help inference).
 */
export const MAX_NESTED_SETS_PER_COMMAND = 500;
/** See {@link MAX_NESTED_SETS_PER_COMMAND}. */
export const MAX_NESTED_SETS = 5_000;

/**
 * The sets of the nested config classes of the commands' parameters (`plan: PlanConfig` gives
 * `PlanConfig`'s fields with prefix `plan.`), down to three levels; each names its command. At
 * most {@link MAX_NESTED_SETS_PER_COMMAND} per command and {@link MAX_NESTED_SETS} in all, in walk
 * order; a class's name set is built once and shared by its sets (never changed after).
 */
export function nestedSets(commands: readonly CommandSpec[], classes: ReadonlyMap<string, ConfigClass>): ParameterSet[] {
  const out: ParameterSet[] = [];
  const names = new Map<string, Set<string>>();
  const namesOf = (cls: ConfigClass): Set<string> => {
    let own = names.get(cls.qualifiedName);
    if (!own) names.set(cls.qualifiedName, (own = new Set(cls.fields.filter((f) => !f.hidden).flatMap((f) => [f.name, ...f.aliases]).map(foldName))));
    return own;
  };
  let room = 0;
  const walk = (command: CommandSpec, params: readonly import('../model/types.js').ParamSpec[], prefix: string, depth: number, seen: Set<string>): void => {
    if (depth > 3) return;
    for (const p of params) {
      if (room <= 0) return;
      const cls = p.typeRef ? classes.get(p.typeRef) : undefined;
      if (!cls || seen.has(cls.qualifiedName)) continue;
      const key = `${prefix}${p.name}.`;
      const own = namesOf(cls);
      if (own.size >= INFERENCE_THRESHOLDS.minShared) {
        out.push({ command, own, explained: own, words: [p.name.toLowerCase(), cls.name.toLowerCase()], prefix: key });
        room--;
      }
      walk(command, cls.fields, key, depth + 1, new Set(seen).add(cls.qualifiedName));
    }
  };
  for (const c of commands) {
    if (!c.paramsKnown || out.length >= MAX_NESTED_SETS) continue;
    room = Math.min(MAX_NESTED_SETS_PER_COMMAND, MAX_NESTED_SETS - out.length);
    walk(c, c.params, '', 1, new Set());
  }
  return out;
}

/** Builds the {@link ParameterSet} of each command whose parameters are known. */
export function parameterSets(commands: readonly CommandSpec[], globalParams: ReadonlySet<string> = new Set()): ParameterSet[] {
  const globals = [...globalParams].map(foldName);
  return commands.filter((c) => c.paramsKnown && c.params.length > 0).map((command) => {
    const own = new Set<string>();
    for (const p of command.params) {
      if (p.positional) continue;
      for (const n of [p.name, ...p.aliases]) if (!BUILTIN_NAMES.has(n.replace(/^-+/, ''))) own.add(foldName(n));
    }
    const explained = new Set(own);
    // A boolean flag's negated spelling (`--no-pretty` for click's/cyclopts' `--pretty/--no-pretty`)
    // is how tables often list a flag that is on by default: the command's row, though no evidence
    // that ties a block to it (that is the positive name's).
    for (const p of command.params) if (p.negatable && !p.positional) for (const n of [p.name, ...p.aliases]) if (n.replace(/^-+/, '').length > 1) explained.add(`no${foldName(n)}`);
    // A positional argument documented beside the flags (`APP`) is the command's, though it never ties a block to it.
    for (const p of command.params) if (p.positional) explained.add(foldName(p.name));
    for (const p of command.acceptedParams ?? []) for (const n of [p.name, ...p.aliases]) explained.add(foldName(n));
    for (const g of globals) explained.add(g);
    const words = [...new Set([command.name, ...command.aliases].map((n) => n.split(' ').pop()!.toLowerCase()))];
    return { command, own, explained, words };
  });
}


/**
 * Candidate config files (issue #29): a config class that no command reads (pydantic, dataclass,
 * TS interface, class, type alias, zod schema, JSON Schema) with at least
 * {@link INFERENCE_THRESHOLDS}`.minShared` documentable fields, as a provisional `config-file`
 * command named after the class. It becomes a command only when a block's rows clearly document it
 * (the caller renames it after the config file the page names, when it names one). Inherited
 * fields are marked hidden: accepted, not required in the page.
 */
export function classCandidates(classes: Iterable<ConfigClass>, taken: ReadonlySet<string>): CommandSpec[] {
  const out: CommandSpec[] = [];
  for (const cls of classes) {
    if (taken.has(cls.qualifiedName) || cls.kind === 'typeddict' || isNonProductPath(cls.location.file) || OUTPUT_NAME.test(cls.name)) continue;
    const fields = cls.fields.filter((f) => !f.hidden);
    if (fields.length < INFERENCE_THRESHOLDS.minShared) continue;
    // Fields a base class declares (a server's host and port) are documented with the base, if
    // anywhere: a page about this class is required to document its own fields only. A field the
    // class re-declares (`name: str = "spider2"`, usually only to give it a default) is still the
    // base's field.
    const params = cls.fields.map((f) => ((f.owner !== cls.name || f.overrides !== undefined) && !f.hidden ? { ...f, hidden: true } : f));
    const candidate: CommandSpec = { name: cls.name, aliases: [], configClasses: [cls.qualifiedName], params, mappedBy: 'inferred', paramsKnown: true, location: cls.location, kind: 'config-file' };
    inputRanks.set(candidate, inputRank(cls));
    out.push(candidate);
  }
  return out;
}

/**
 * Names of a type the program produces rather than one users write: an API response
 * (`VerifyResponse`), a result, an output, metrics, a report, an info/status record, an event.
 * A page that lists its fields documents output, not keys of a config file, so such a class is
 * never a config-file candidate (a page's table of `inputSchema`/`outputSchema` tied to `ToolInfo`
 * gave "unknown parameter" findings on names the writer adds).
 */
const OUTPUT_NAME = /(?<=[a-z0-9])(?:Response|Responses|Result|Results|Output|Outputs|Metrics|Report|Info|Stats|Status|Event|Record|Summary)$/;

/** The {@link inputRank} of each class candidate, kept beside it (a CommandSpec carries no class kind). */
const inputRanks = new WeakMap<CommandSpec, number>();

/** Names of a type the program derives from what users write: `ResolvedConfig`, `NormalizedOptions`, `InternalConfig`. */
const DERIVED_NAME = /^(?:Resolved|Normali[sz]ed|Internal|Full|Complete)[A-Z]|(?:Resolved|Normali[sz]ed|Internal)$/;
/** Names of the type users write: `OptionsReceived`, `UserConfig`, `ConfigInput`, `InlineConfig`. */
const INPUT_NAME = /(?:Received|Input|Raw)$|^(?:User|Inline|Raw|Partial)[A-Z]/;

/**
 * How plainly a class is the shape users write rather than one the program derives from it,
 * lower first: a schema users validate against (zod, JSON Schema) before a plain type; a type
 * whose fields are all optional (`OptionsReceived`) before its all-required twin (`Options`, the
 * defaults merged in); a name such as `*Received`/`*Input`/`User*` before `Resolved*`/
 * `Normalized*`/`Internal*`. Used only to break a tie between classes that document the same rows.
 */
export function inputRank(cls: ConfigClass): number {
  let rank = 0;
  if (cls.kind === 'zod' || cls.kind === 'json-schema') rank -= 2;
  const fields = cls.fields.filter((f) => !f.hidden && !f.positional);
  if (fields.length > 0 && fields.every((f) => !f.required)) rank -= 1;
  else if (fields.length > 0 && fields.every((f) => f.required)) rank += 1;
  if (INPUT_NAME.test(cls.name)) rank -= 1;
  if (DERIVED_NAME.test(cls.name)) rank += 2;
  return rank;
}

const inputRankOf = (set: ParameterSet): number => inputRanks.get(set.command) ?? 0;

/** Why a block was, or was not, assigned: for `--debug`, `init` and first-run notes. */
export interface Inference {
  /** The command assigned, when the match is clear. */
  command?: CommandSpec;
  /** The key prefix of the rows, when the block documents a nested config class of the command (`plan.`). */
  prefix?: string;
  /** The best candidate (assigned or not) and how many of the rows name its own parameters. */
  best?: { command: CommandSpec; shared: number; explained: number };
  /** The runner-up, when there is one with any shared name. */
  rival?: { command: CommandSpec; shared: number };
  /** Rows that count (built-in names such as `--help` left out). */
  rows: number;
  /**
   * Sibling sub-commands (`tool install cursor` beside `tool install desktop`) that the same block
   * documents: one options table shared by the sub-commands of a group that the page runs or names
   * in inline code, each of which it fits (see {@link sharedBySiblings}).
   */
  also?: CommandSpec[];
  /**
   * The command is the page's command (its examples run it and nothing else): the block is its
   * reference as much as a heading naming it would be, so it promises every parameter.
   */
  pageCommand?: boolean;
  /** The block is a bullet list explaining the flags of the example right above it: a selection of the command's flags. */
  explainsExample?: boolean;
  /** One sentence: "12 of 14 rows are parameters of `autoforge`", or why nothing was assigned. */
  evidence: string;
}

const kindRank = (set: ParameterSet): number => (set.command.mappedBy === 'inferred' ? 1 : 0);

function isSuperset(big: ReadonlySet<string>, small: ReadonlySet<string>): boolean {
  if (big.size < small.size) return false;
  for (const n of small) if (!big.has(n)) return false;
  return true;
}

const supersets = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, boolean>>();

/**
 * {@link isSuperset}, remembered per pair of name sets (they are never changed once built): the
 * same best set is tested against the same rivals table after table (s29 sweep D4: 2,000 classes
 * × 400 tables × 31 names).
 */
function supersetOf(big: ReadonlySet<string>, small: ReadonlySet<string>): boolean {
  let bySmall = supersets.get(big);
  if (!bySmall) supersets.set(big, (bySmall = new WeakMap()));
  let result = bySmall.get(small);
  if (result === undefined) bySmall.set(small, (result = isSuperset(big, small)));
  return result;
}

/** Whether every name of `small` is in `big`. */
export function isSubset(small: ReadonlySet<string>, big: ReadonlySet<string>): boolean {
  return isSuperset(big, small);
}

/**
 * The name → sets indexes of one list of sets, built once per list: each distinct set once (its
 * id is its position in `list`, in first-occurrence order), and for each folded name the ids of
 * the sets whose `own` (resp. `explained`) names hold it, in id order.
 */
interface SetIndex {
  readonly list: readonly ParameterSet[];
  readonly own: ReadonlyMap<string, readonly number[]>;
  readonly explained: ReadonlyMap<string, readonly number[]>;
  /**
   * Counters by set id for {@link scoreSets}, kept between calls and put back to their initial
   * values (-1 for the last-row marks, 0 for counts) for the ids a call touched, so that a block
   * costs what its rows name, not the number of sets (many small tables × thousands of sets).
   */
  readonly scratch: { lastOwn: Int32Array; lastExplained: Int32Array; shared: Int32Array; rows: Int32Array; explained: Int32Array };
}

const indexes = new WeakMap<readonly ParameterSet[], SetIndex>();

function indexOf(sets: readonly ParameterSet[]): SetIndex {
  let index = indexes.get(sets);
  if (index) return index;
  const list = [...new Set(sets)];
  const own = new Map<string, number[]>();
  const explained = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, name: string, id: number): void => {
    const ids = map.get(name);
    if (ids) ids.push(id);
    else map.set(name, [id]);
  };
  list.forEach((set, id) => {
    for (const n of set.own) add(own, n, id);
    for (const n of set.explained) add(explained, n, id);
  });
  const n = list.length;
  const scratch = { lastOwn: new Int32Array(n).fill(-1), lastExplained: new Int32Array(n).fill(-1), shared: new Int32Array(n), rows: new Int32Array(n), explained: new Int32Array(n) };
  index = { list, own, explained, scratch };
  indexes.set(sets, index);
  return index;
}

/** The sets that hold at least one of the names in their `own` names, through the index built once per list of sets. */
function candidatesOf(sets: readonly ParameterSet[], names: ReadonlySet<string>): ParameterSet[] {
  const index = indexOf(sets);
  const out = new Set<ParameterSet>();
  for (const n of names) for (const id of index.own.get(n) ?? []) out.add(index.list[id]!);
  return [...out];
}

/** A candidate set of a block and its evidence (see {@link scoreSets}). */
export interface ScoredSet {
  set: ParameterSet;
  /** The set's id in its list's index (see {@link countRowsWithin}). */
  id: number;
  /** Distinct names of `set.own` the rows name (each row counted once, by its first name in the set). */
  shared: number;
  /** Rows naming a name of `set.explained`. */
  explained: number;
  /** Rows naming a name of `set.own`. */
  rows: number;
}

/**
 * Every set whose own names a row names, with its evidence: in the order the sets are first met
 * going through the distinct names of `folded` in order (each name's sets in list order).
 *
 * One pass over the rows through the name → sets indexes, counting in typed arrays: the work is the
 * number of (row name, set holding it) pairs, with no allocation per pair. Was a `find`/`some`
 * over all rows per candidate for shared and explained, and a Set of its rows per rival
 * (2,000 config classes sharing one 30-field base × 400 tables of those fields: s29 sweep D4,
 * 18.1 s CPU of model).
 *
 * @param folded each row's folded names (see {@link foldName}); `'\0'` names nothing
 * @param sets the parameter sets; the index of a list is built once and kept while the list lives
 */
export function scoreSets(folded: ReadonlyArray<readonly string[]>, sets: readonly ParameterSet[]): ScoredSet[] {
  const index = indexOf(sets);
  // A slot per (distinct name of the rows, set holding it): whether that name already counts for that set.
  const offsets = new Map<string, number>();
  let pairs = 0;
  for (const ns of folded) {
    for (const name of ns) {
      const ids = index.own.get(name);
      if (ids && !offsets.has(name)) {
        offsets.set(name, pairs);
        pairs += ids.length;
      }
    }
  }
  const counted = new Uint8Array(pairs);
  const { lastOwn, lastExplained, shared, rows, explained } = index.scratch;
  const order: number[] = [];
  const explainedIdsTouched: number[] = [];
  for (let i = 0; i < folded.length; i++) {
    for (const name of folded[i]!) {
      const ids = index.own.get(name);
      if (ids) {
        const offset = offsets.get(name)!;
        for (let k = 0; k < ids.length; k++) {
          const id = ids[k]!;
          // The row counts once per set, by its first name in the set.
          if (lastOwn[id] === i) continue;
          if (rows[id] === 0) order.push(id);
          lastOwn[id] = i;
          rows[id]!++;
          if (counted[offset + k] === 0) {
            counted[offset + k] = 1;
            shared[id]!++;
          }
        }
      }
      const explainedIds = index.explained.get(name);
      if (explainedIds) {
        for (const id of explainedIds) {
          if (lastExplained[id] === i) continue;
          if (lastExplained[id] === -1) explainedIdsTouched.push(id);
          lastExplained[id] = i;
          explained[id]!++;
        }
      }
    }
  }
  const out = order.map((id) => ({ set: index.list[id]!, id, shared: shared[id]!, explained: explained[id]!, rows: rows[id]! }));
  for (const id of order) {
    lastOwn[id] = -1;
    shared[id] = 0;
    rows[id] = 0;
  }
  for (const id of explainedIdsTouched) {
    lastExplained[id] = -1;
    explained[id] = 0;
  }
  return out;
}

/**
 * For each set of the list (by {@link ScoredSet}`.id`), how many of the rows `within` marks name
 * one of its own names: one pass over those rows through the index.
 *
 * @param within a mark per row (index as in `folded`): 1 to count the row
 */
export function countRowsWithin(folded: ReadonlyArray<readonly string[]>, sets: readonly ParameterSet[], within: Uint8Array): Int32Array {
  const index = indexOf(sets);
  // Called at most once per block, when a rival is close: two arrays by set id are cheap beside
  // that block's scoring (a Map here took 1.5 s more for 2,000 classes × 400 tables).
  const count = new Int32Array(index.list.length);
  // The last row counted per set id: the row counts once per set, whichever of its names it holds.
  const last = new Int32Array(index.list.length).fill(-1);
  for (let i = 0; i < folded.length; i++) {
    if (within[i] !== 1) continue;
    for (const name of folded[i]!) {
      for (const id of index.own.get(name) ?? []) {
        if (last[id] === i) continue;
        last[id] = i;
        count[id]!++;
      }
    }
  }
  return count;
}

/** Words of a heading or title that say what kind of text it is, not what it is about ("The `login` command", "Usage"). */
const FILLER = new Set(['the', 'a', 'an', 'command', 'commands', 'subcommand', 'sub-command', 'options', 'option', 'flags', 'arguments', 'usage', 'reference', 'cli', 'for', 'of']);

/**
 * Whether the block is about the command itself, not merely a text that uses its word: its own
 * heading or the page title, filler words dropped, ends with the command's word ("# login",
 * "## `tool login`", "The login command"), or the page's file is named after it
 * (`docs/commands/login.md`). "## Build directories" uses the word `build` but is about
 * directories. `context.heading` is the block's heading then its ancestors, joined by " / ".
 */
function aboutCommand(context: { heading: string; title?: string; file: string }, words: readonly string[]): boolean {
  const tokens = (text: string): string[] => text.toLowerCase().replace(/[`*_"'“”:()[\]]/g, ' ').split(/\s+/).filter((t) => t.length > 0 && !FILLER.has(t));
  const about = (text: string): boolean => {
    const last = tokens(text).at(-1);
    return last !== undefined && words.includes(last);
  };
  // The nearest heading that is more than filler ("### Options" under "## `tool login`").
  const own = context.heading.split(' / ').find((h) => tokens(h).length > 0) ?? '';
  const base = context.file.slice(context.file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '').toLowerCase();
  return about(own) || (context.title !== undefined && about(context.title)) || words.includes(base);
}

/** Whether a UTF-16 code unit is a word character for {@link wordTester}: `[\w-]` (ASCII letters, digits, `_`, `-`). */
function wordish(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45;
}

/**
 * A test of whether the lower-cased `text` holds a (lower-case) word as a whole word: not touching
 * a `[\w-]` character on either side, as `(?<![\w-])word(?![\w-])` would match. The text is split
 * once into its runs of `[\w-]` characters, so a word of such characters is one Set lookup; any
 * other word (with a space, a dot, or empty) is found by indexOf with the two neighbours checked.
 * Was one RegExp compiled per word per text: a command with 110,000 aliases compiled 110,000 a text
 * (s27 sweep2 O1: three texts x 110,000 words, 4.3 s -> 49 ms).
 */
export function wordTester(text: string): (word: string) => boolean {
  const lower = text.toLowerCase();
  const tokens = new Set(lower.split(/[^\w-]+/));
  return (w) => {
    if (w !== '' && /^[\w-]+$/.test(w)) return tokens.has(w);
    for (let i = lower.indexOf(w); i !== -1; i = i >= lower.length ? -1 : lower.indexOf(w, i + 1)) {
      if ((i === 0 || !wordish(lower.charCodeAt(i - 1))) && (i + w.length >= lower.length || !wordish(lower.charCodeAt(i + w.length)))) return true;
    }
    return false;
  };
}

/**
 * Whether a text (heading, page title, path) names one of the words as a word, given its
 * {@link wordTester}: a word, or every part of a `-`/`_` word (`github-release` is also named by
 * "Creating a release on GitHub").
 */
export function namesWord(has: (word: string) => boolean, words: readonly string[]): boolean {
  return words.some((w) => has(w) || (/[-_]/.test(w) && w.split(/[-_]+/).every((part) => part.length > 0 && has(part))));
}

/**
 * Decides which command, if any, a block's rows document.
 *
 * @param groups the rows of the block (every layout), nested sections already claimed left out,
 *   one group per table, per run of parameter headings and per list: a group of two rows or more
 *   that mostly names other things makes the block too wide to assign
 * @param sets the parameter sets of the commands (see {@link parameterSets})
 * @param context the heading text, the page title and the file path: secondary evidence that breaks a near tie
 * @returns the decision with its evidence; `command` is absent when the match is not clear
 */
export function inferCommand(
  groups: ReadonlyArray<readonly ReferenceRow[]>,
  sets: readonly ParameterSet[],
  context: {
    heading: string;
    title?: string;
    file: string;
    layout?: 'list' | 'other';
    /** Commands the block's own examples run. */
    invoked?: ReadonlySet<string>;
    /** The page's command: the one command every example of the page runs (see {@link pageCommandOf}). */
    pageCommand?: string;
    /** Commands the page's examples run anywhere, and the inline code spans of the page: which sub-commands the page is about. */
    pageRuns?: ReadonlySet<string>;
    pageCodes?: ReadonlySet<string>;
  },
): Inference {
  const rows = groups.flat();
  const counted = rows.filter((r) => !r.names.every((n) => BUILTIN_NAMES.has(n)));
  const total = counted.length;
  // A bare single letter (`q`, `p` in a list of watch-mode keys) names no flag: short flags are
  // written `-q`; as evidence it would tie any list of letters to the command with those aliases.
  const folded = counted.map((r) => {
    const dashed = /^-/.test(r.rawName.replace(/^[\s`*_[(]+/, ''));
    return r.names.map((n) => (!dashed && n.replace(/^[-+~]+/, '').length === 1 ? '\0' : foldName(n)));
  });
  // How the rows spell names says what they document: `--port` rows a CLI, bare `port` rows
  // (most of them) a config file's keys or a command's config fields.
  const flagRows = counted.filter((r) => /^-/.test(r.rawName.replace(/^[\s`*_[(]+/, ''))).length;
  const spelling: 'flags' | 'keys' = flagRows * 2 > total ? 'flags' : 'keys';
  // Shared counts distinct names, not rows: six `model.*` keys are one piece of evidence for a `--model` flag.
  // A bullet list of names (accepted values, output fields) is too weak to make a class a config file.
  const noClasses = spelling === 'flags' || context.layout === 'list';
  const scored: Array<ScoredSet & { kind: number; input: number; size: number; length: number }> = [];
  for (const s of scoreSets(folded, sets)) {
    const kind = kindRank(s.set);
    if ((kind === 1 && noClasses) || s.shared <= 0) continue;
    scored.push({ set: s.set, id: s.id, shared: s.shared, explained: s.explained, rows: s.rows, kind, input: inputRankOf(s.set), size: s.set.own.size, length: s.set.command.name.length });
  }
  // Commands before classes on a tie (a command's config class is read through it), then the
  // narrowest set (a class before the class extending it).
  // Between classes, the shape users write before the one the program derives (see inputRank).
  // (The keys are read once per candidate, not per comparison: 2,000 tied classes × 400 tables.)
  scored.sort((a, b) => b.shared - a.shared || b.explained - a.explained || a.kind - b.kind || a.input - b.input || a.size - b.size || a.length - b.length);
  if (scored.length === 0) return { rows: total, evidence: `none of its ${total} rows names a known parameter` };
  const { minShared, minShare, rivalRatio } = INFERENCE_THRESHOLDS;
  // A rival that shares as many names: the one the heading, title or path names wins (`build` in
  // "docs/commands/build.md"); a sub-command's table also matches its parent's inherited flags.
  // A set holding all of the best one's names (the class extending it, a copy) is no rival: the
  // best is the narrowest fit. Nor is a class when the best is a command (its config is in it).
  // Between a command and a config class, the spelling decides: keys are the class's.
  const outranks = (a: ParameterSet, b: ParameterSet): boolean => kindRank(a) !== kindRank(b) && (spelling === 'keys') === (kindRank(a) === 1);
  let first = scored[0]!;
  const keyClass = spelling === 'keys' && kindRank(first.set) === 0 ? scored.find((s) => kindRank(s.set) === 1 && s.shared >= first.shared * rivalRatio) : undefined;
  if (keyClass) first = keyClass;
  const name = `\`${first.set.command.name}\``;
  const best = { command: first.set.command, shared: first.shared, explained: first.explained };
  const base = { best, rows: total };
  // Nor is a set that names only rows the best one names too, and fewer of them (a resolved
  // `SiteConfig` beside the `UserConfig` users write): it explains nothing the best does not.
  // A set names a row the best one does not when it names more rows than it names among the best's
  // rows (counted for all sets in one pass over the best's rows, when first needed).
  let inFirstRows: Int32Array | undefined;
  const firstRows = (): Int32Array => {
    if (!inFirstRows) {
      const mask = Uint8Array.from(folded, (ns) => (ns.some((n) => first.set.own.has(n)) ? 1 : 0));
      inFirstRows = countRowsWithin(folded, sets, mask);
    }
    return inFirstRows;
  };
  // Two classes naming the same rows (`Options` and `OptionsReceived`, a zod schema and the
  // normalized interface built from it): the one less plainly the users' shape is no rival.
  const derivedTwin = (s: (typeof scored)[number]): boolean => s.kind === 1 && first.kind === 1 && s.input > first.input;
  const adds = (s: (typeof scored)[number]): boolean => {
    if (s.rows > firstRows()[s.id]!) return true;
    return s.rows >= first.rows && !derivedTwin(s);
  };
  // The cheap tests first (all are pure); the superset test is remembered per pair of name sets.
  const close = scored.filter((s) => s !== first && s.shared >= first.shared * rivalRatio && !outranks(first.set, s.set) && adds(s) && !supersetOf(s.set.own, first.set.own));
  const where = [context.heading, context.title ?? '', context.file];
  const whereHas = where.map(wordTester);
  const namedByContext = (s: (typeof scored)[number]): boolean => whereHas.some((has) => namesWord(has, s.set.words));
  let chosen = first;
  // Sibling sub-commands the page runs or names (`tool deploy docker`, `tool deploy function`)
  // tie on the options they share: one table documents them together (see sharedBySiblings).
  const siblingTie = close.length > 0 && onPage(first.set.command, context) && groupOf(first.set.command.name) !== undefined && kindRank(first.set) === 0 &&
    close.every((s) => kindRank(s.set) === 0 && groupOf(s.set.command.name) === groupOf(first.set.command.name) && onPage(s.set.command, context));
  if (close.length > 0 && !siblingTie) {
    // The block's own examples run one of them (`release-please github-release …`), else its
    // headings, the page title or the path name one of them.
    const run = [first, ...close].filter((s) => context.invoked?.has(s.set.command.name));
    const named = run.length === 1 ? run : [first, ...close].filter(namedByContext);
    if (named.length === 1) chosen = named[0]!;
    else {
      const rival = close[0]!;
      return { ...base, rival: { command: rival.set.command, shared: rival.shared }, evidence: `${first.shared} of its ${total} rows are parameters of ${name}, and ${rival.shared} of \`${rival.set.command.name}\`: no clear match` };
    }
  }
  const cname = `\`${chosen.set.command.name}\``;
  const chosenBest = { command: chosen.set.command, shared: chosen.shared, explained: chosen.explained };
  const runnerUp = scored.find((s) => s !== chosen);
  const rival = runnerUp ? { rival: { command: runnerUp.set.command, shared: runnerUp.shared } } : {};
  // A sub-command of few parameters cannot show three: a block whose heading, page title or path
  // names it (`# login` in docs/commands/login.md) needs only one of its own (and most rows, below).
  // Not a program itself: its name is on every page of its docs.
  // The page's command (every example of the page runs it: `tool inspect` on docs/cli/inspecting.md)
  // is named by the page as plainly.
  const ofPage = kindRank(chosen.set) === 0 && context.pageCommand === chosen.set.command.name;
  const fewNamed = kindRank(chosen.set) === 0 && chosen.shared >= 1 && chosen.set.command.name.includes(' ') && (aboutCommand(context, chosen.set.words) || ofPage);
  if (chosen.shared < minShared && !fewNamed) {
    return { best: chosenBest, rows: total, ...rival, evidence: `only ${chosen.shared} of its ${total} rows ${chosen.shared === 1 ? 'is a parameter' : 'are parameters'} of ${cname} (at least ${minShared} needed)` };
  }
  // Rows spelled as config keys (`annotated_tag`) where the command's flags are kebab
  // (`--annotated-tag`): a settings page of the program's config file, which only folding ties to
  // the flags; its rows are no CLI reference (a class, when one is read, takes them above).
  if (spelling === 'keys' && kindRank(chosen.set) === 0) {
    const flagNames = new Set(chosen.set.command.params.filter((p) => p.origin === 'cli-flag').flatMap((p) => [p.name, ...p.aliases]));
    const asKeys = counted.filter((r) => {
      const n = r.names[0] ?? '';
      return n.includes('_') && !flagNames.has(n) && flagNames.has(n.replace(/_/g, '-'));
    });
    // Also when every row that could show the difference (a name of several words) shows it, two
    // at least (grip's README: the keyword arguments of its Python API `export(…)`, 2 of 7 shared
    // rows, `user_content` and `api_url`, both spelled as keys; the rest one-word names).
    const telling = counted.filter((r) => {
      const kebab = (r.names[0] ?? '').replace(/_/g, '-');
      return kebab.includes('-') && flagNames.has(kebab);
    });
    if (asKeys.length * 2 >= chosen.shared || (asKeys.length >= 2 && asKeys.length === telling.length)) {
      return { best: chosenBest, rows: total, ...rival, evidence: `${chosen.shared} of its ${total} rows name parameters of ${cname}, but ${asKeys.length} are spelled as config keys (\`${asKeys[0]!.names[0]}\`), not as its flags (\`--${asKeys[0]!.names[0]!.replace(/_/g, '-')}\`): a config file's settings` };
    }
  }
  const share = kindRank(chosen.set) === 1 ? INFERENCE_THRESHOLDS.classShare : minShare;
  if (chosen.explained < total * share) {
    return { best: chosenBest, rows: total, ...rival, evidence: `only ${chosen.explained} of its ${total} rows are parameters of ${cname} (${share === minShare ? 'most' : `${share * 100} %`} needed)` };
  }
  // The rows a class leaves out are another set's (a report object's keys beside its results'):
  // the block documents several classes at once, none of them alone.
  const rest = folded.filter((ns) => !ns.some((n) => chosen.set.explained.has(n)));
  if (kindRank(chosen.set) === 1 && rest.length >= 2) {
    const other = candidatesOf(sets, new Set(rest.flat())).filter((set) => set !== chosen.set)
      .map((set) => ({ set, n: rest.filter((ns) => ns.some((n) => set.own.has(n))).length }))
      .sort((a, b) => b.n - a.n)[0];
    if (other && other.n >= minShared && other.n * 2 >= rest.length) {
      return { best: chosenBest, rows: total, ...rival, evidence: `${chosen.explained} of its ${total} rows are parameters of ${cname}, and ${other.n} of the rest of \`${other.set.command.name}\`: it documents several classes at once` };
    }
  }
  // A block holding a table of something else (ingredients, output fields) is too wide: its
  // nested blocks are tried instead.
  const stranger = groups.find((g) => g.length >= 2 && g.filter((r) => r.names.some((n) => chosen.set.explained.has(foldName(n)))).length * 2 < g.length);
  if (stranger) {
    return { best: chosenBest, rows: total, ...rival, evidence: `${chosen.explained} of its ${total} rows are parameters of ${cname}, but it also holds ${stranger.length} rows of something else (line ${stranger[0]!.location.line})` };
  }
  if (chosen.set.prefix) {
    return { command: chosen.set.command, prefix: chosen.set.prefix, best: chosenBest, rows: total, ...rival, evidence: `${chosen.explained} of its ${total} rows are keys of ${cname} under \`${chosen.set.prefix.slice(0, -1)}\`` };
  }
  const also = sharedBySiblings(chosen.set, scored, total, context);
  const siblings = also.length > 0 ? { also } : {};
  const evidence = `${chosen.explained} of its ${total} rows are parameters of ${cname}${also.length > 0 ? `, and of its siblings ${also.map((c) => `\`${c.name}\``).join(', ')} that the page runs or names` : ''}${ofPage ? ', the command every example of the page runs' : ''}`;
  return { command: chosen.set.command, best: chosenBest, rows: total, ...rival, ...siblings, ...(ofPage ? { pageCommand: true } : {}), evidence };
}

/**
 * The page's command: the one command that every example of the page runs, when it runs one at
 * least twice (docs/cli/inspecting.md running `tool inspect …` in each example). A page whose
 * examples run two commands has none.
 *
 * @param runs the command each example of the page runs, in document order
 */
export function pageCommandOf(runs: readonly string[]): string | undefined {
  const distinct = new Set(runs);
  return distinct.size === 1 && runs.length >= 2 ? runs[0] : undefined;
}

/** `tool install cursor` → `tool install`; undefined for a program or a top-level command (`tool run`: its siblings are the whole CLI). */
function groupOf(name: string): string | undefined {
  const words = name.split(' ');
  return words.length >= 3 ? words.slice(0, -1).join(' ') : undefined;
}

/** How many parameters of a command a reference documents: neither positional nor hidden. */
function documentable(c: CommandSpec): number {
  return c.params.filter((p) => !p.positional && !p.hidden).length;
}

/** Whether the page runs a command in an example or names it (or its last word) in inline code. */
function onPage(c: CommandSpec, context: { pageRuns?: ReadonlySet<string>; pageCodes?: ReadonlySet<string> }): boolean {
  return [c.name, ...c.aliases].some((n) => context.pageRuns?.has(n) || context.pageCodes?.has(n) || context.pageCodes?.has(n.split(' ').pop()!));
}

/**
 * Sibling sub-commands one options table documents together: `tool install desktop`, `tool install
 * cursor` and `tool install stdio` share one "## Options" table on the page that runs them, each
 * with a flag or two of its own ("`cursor` only"). A sibling is one more command of the block when
 * it is a sub-command of the same group (three words or more: a top-level command's siblings are
 * the whole CLI), the page runs it in an example or names it in inline code (`` `stdio` `` in a
 * list of targets), at least {@link INFERENCE_THRESHOLDS}`.minShared` of the rows name its own
 * parameters, and they are at least half of its documented parameters (a target with fewer
 * options shares the table too, its rows being a subset). The chosen command must be run or named the same
 * way: the page is about the group's sub-commands.
 */
export function sharedBySiblings(
  chosen: ParameterSet,
  scored: ReadonlyArray<{ set: ParameterSet; shared: number; explained: number }>,
  total: number,
  context: { pageRuns?: ReadonlySet<string>; pageCodes?: ReadonlySet<string> },
): CommandSpec[] {
  const group = groupOf(chosen.command.name);
  if (group === undefined || kindRank(chosen) !== 0) return [];
  if (!onPage(chosen.command, context)) return [];
  return scored
    .filter((s) => s.set !== chosen && kindRank(s.set) === 0 && !s.set.prefix && groupOf(s.set.command.name) === group && s.set.command !== chosen.command)
    .filter((s) => s.shared >= INFERENCE_THRESHOLDS.minShared && s.shared * 2 >= documentable(s.set.command) && onPage(s.set.command, context))
    .map((s) => s.set.command);
}
