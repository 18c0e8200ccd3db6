/**
 * pydantic-settings fields that users cannot or do not set (issue #31): the facts behind
 * `EnvExtraction.internal` for Python. Two kinds, each read statically (the code is never run):
 *
 * - **Passed at every construction.** pydantic-settings gives values passed to the class's
 *   initialiser priority over the environment ("Field value priority",
 *   https://docs.pydantic.dev/latest/concepts/pydantic_settings/#field-value-priority: init
 *   settings, then environment variables, the dotenv file, the secrets directory, defaults;
 *   pydantic v1's `BaseSettings._build_values` merges them in the same order). A field that every
 *   construction of its class in the project's non-test code passes by keyword
 *   (`AppSettings(SECRET=…)`, `AppSettings(**{"SECRET": …})`, `AppSettings(**dict(SECRET=…))`, a
 *   local dict assigned once and splatted: `AppSettings(**secret_settings)`) is never read from
 *   the environment. {@link constructionSites} finds those constructions.
 * - **A type no text can give.** A field whose annotation names only classes of the project that
 *   pydantic cannot build from a string (no pydantic model, Enum, dataclass, TypedDict, `str`… in
 *   their bases; no custom validation hook): an arbitrary type, checked with `isinstance`, which the
 *   code assigns after construction (`app_settings.DB_PROVIDER = db_provider_factory(…)`). See
 *   {@link opaqueFieldType}.
 *
 * Whatever cannot be followed keeps the variable a user setting: a use of the class other than a
 * direct call, an annotation, an import, a base, an `isinstance` check or an attribute read
 * (`Depends(AppSettings)`, `factory = AppSettings`, `AppSettings.model_validate(…)`), a class that
 * builds itself (`cls(…)`), defines `__init__`/`__new__` or reorders its sources
 * (`settings_customise_sources`), an imported type docdrift does not define.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { parsePython } from './parser.js';
import type { SourceLocation } from '../../model/types.js';
import { nodeLocation } from './bindings.js';
import type { Resolver } from './resolve.js';
import type { ModuleInfo, RawClass, RawField } from './scan.js';
import { dottedName, identifierText, namedChildren, pythonIdentifier, stringValue, unparen } from './values.js';

/** What this module needs of the class analysis (env.ts's `SettingsHost` has it). */
export interface ClassHost {
  resolver: Resolver;
  /** The class's MRO: repository classes, and external bases by qualified name. */
  mro(cls: RawClass): Array<RawClass | string>;
  /** The module that declares a repository class. */
  moduleOf(cls: RawClass): ModuleInfo | undefined;
}

/** A file of test code: its constructions of a settings class (with test values) do not count. */
const TEST_FILE = /(?:^|\/)(?:tests?|__tests__|testing)\/|(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.pyi?$/;

/** Whether `file` (project-relative) holds test code, whose constructions of a class are not counted. */
export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

/** One construction `C(…)` of a settings class: the keyword names it passes and where. */
export interface ConstructionCall {
  /** `k=…` keywords, the string keys of `**{"K": …}` and the keywords of `**dict(K=…)`. */
  keywords: string[];
  location: SourceLocation;
}

/** How the project's non-test code builds one settings class (see {@link constructionSites}). */
export interface ConstructionSites {
  calls: ConstructionCall[];
  /**
   * The first use of the class docdrift cannot follow (it may build the class with other
   * values, or none): `Depends(AppSettings)`, `AppSettings.model_validate(…)`, `cls(…)` in its
   * body, a custom `__init__`. Absent when every use was followed.
   */
  opaque?: { construct: string; location: SourceLocation };
}

/** A settings class to follow, with every name it may be known by (its own, import aliases). */
export interface FollowedClass {
  cls: RawClass;
  names: Set<string>;
}

/** At most this many files are parsed again to find constructions; beyond, classes are not followed. */
const MAX_FILES = 400;

/** Class attributes that build an instance without the initialiser's keywords docdrift reads. */
const CONSTRUCTOR_ATTRIBUTES = new Set([
  'model_validate', 'model_validate_json', 'model_validate_strings', 'model_construct', 'construct', 'parse_obj', 'parse_raw',
  'parse_file', 'from_orm', 'validate', '__call__', '__new__', '__init__',
]);

/** Methods that change which values the initialiser's keywords override, or build the class otherwise. */
const SOURCE_HOOKS = new Set(['__init__', '__new__', 'settings_customise_sources', '_settings_build_values']);

/** The body builds its own class: `cls(…)`, `type(self)(…)`, `self.__class__(…)`, `cls.model_validate(…)`. */
const SELF_CONSTRUCTION = /\bcls\s*\(|\btype\s*\(\s*self\s*\)\s*\(|\b__class__\s*\(|\bcls\s*\.\s*(?:model_validate\w*|model_construct|construct|parse_\w+|from_orm)\b/;

/**
 * The settings classes worth following: those some non-test module calls with keyword arguments
 * under one of their names (`ModuleInfo.kwargCallees`), with the names: the class's own and the
 * local names of `from … import C as D` imports anywhere (iterated, so re-imports of an alias count).
 *
 * @param classes pydantic-settings classes of the project
 * @param infos every scanned module
 */
export function classesToFollow(classes: readonly RawClass[], infos: readonly ModuleInfo[]): FollowedClass[] {
  const product = infos.filter((info) => !isTestFile(info.file));
  const called = new Set(product.flatMap((info) => info.kwargCallees ?? []));
  if (called.size === 0) return [];
  const out: FollowedClass[] = [];
  // The symbol bindings of every module and function, [local, imported name], in the order the
  // rounds below visit them; listed once, not per class and round (classes x bindings: 3,000
  // settings classes and 20,000 `from … import … as …`, extract 2.8 s -> 0.9 s).
  const aliases: Array<[string, string]> = [];
  for (const info of infos) {
    for (const bindings of [info.bindings, ...[...info.functions.values()].map((fn) => fn.localBindings)]) {
      for (const [local, binding] of bindings) if (binding.kind === 'symbol') aliases.push([local, binding.name]);
    }
  }
  const imported = new Set(aliases.map(([, name]) => name));
  for (const cls of classes) {
    const names = new Set([cls.name]);
    for (let round = 0, grew = true; grew && round < 6; round++) {
      grew = false;
      // No binding imports any of the names: this round, and so every later one, adds nothing.
      if (![...names].some((name) => imported.has(name))) break;
      for (const [local, name] of aliases) {
        if (names.has(name) && !names.has(local)) {
          names.add(local);
          grew = true;
        }
      }
    }
    if ([...names].some((name) => called.has(name))) out.push({ cls, names });
  }
  return out;
}

/** The keyword names a call passes: `k=…`, and the keys of each `**mapping` ({@link mappingKeys}). */
function callKeywords(call: Node, cache: LocalDictCache): string[] {
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'argument_list') return [];
  const out: string[] = [];
  for (const arg of namedChildren(args)) {
    if (arg.type === 'keyword_argument') {
      const name = identifierText(arg.childForFieldName('name'));
      if (name !== undefined) out.push(name);
      continue;
    }
    const inner = arg.type === 'dictionary_splat' ? namedChildren(arg)[0] : undefined;
    if (inner) out.push(...mappingKeys(inner, cache));
  }
  return out;
}

/**
 * The keys a mapping surely holds: the string keys of a dict display (`{"SECRET": …}`), the
 * keywords of `dict(SECRET=…)` (and of a dict display as its argument), and, for a local name
 * (`**secret_settings`), the keys of its one assignment in the enclosing function (or module) plus
 * those set by `name["K"] = …` there. Any other use of the name (passed on, `.pop`, `del`) may
 * remove keys: none are then known. Empty for anything else.
 */
function mappingKeys(node: Node, cache: LocalDictCache | undefined): string[] {
  const value = unparen(node);
  const out: string[] = [];
  if (value.type === 'dictionary') {
    for (const pair of namedChildren(value)) {
      const key = pair.type === 'pair' ? pair.childForFieldName('key') : null;
      const text = key ? stringValue(key) : undefined;
      if (text !== undefined) out.push(text);
    }
  } else if (value.type === 'call' && identifierText(value.childForFieldName('function')) === 'dict') {
    const args = value.childForFieldName('arguments');
    for (const arg of args?.type === 'argument_list' ? namedChildren(args) : []) {
      if (arg.type === 'keyword_argument') out.push(identifierText(arg.childForFieldName('name')) ?? '');
      else if (arg.type === 'dictionary') out.push(...mappingKeys(arg, undefined));
    }
  } else if (value.type === 'identifier' && cache) {
    out.push(...localDictKeys(value, cache));
  }
  return out.filter((k) => k !== '');
}

/**
 * The uses of one local name in one scope, read once ({@link localDictKeys}): the keys its
 * assignments and `name["K"] = …` stores give, in source order; how many assignments; whether
 * one cannot be read; and the ids of its other uses (splatted, passed on, changed).
 */
interface NameUses {
  keys: string[];
  definitions: number;
  unreadable: boolean;
  others: Set<number>;
}

/**
 * Per parsed file: a scope's uses of each local name, by scope node id then name. One scan of the
 * scope per name instead of one per construction (s27 sweep2 D2: 1,800 stores of `d["kI"]` and
 * 1,800 `AppSettings(**d)`, 56 KB: 22.4 s -> 0.7 s CPU for the run).
 */
export type LocalDictCache = Map<number, Map<string, NameUses>>;

/** The occurrences of a name in a scope read at most (a scope naming it more often: keys unknown). */
const MAX_NAME_USES = 5000;

/** See {@link mappingKeys}: the keys of local name `use` where it is splatted. */
function localDictKeys(use: Node, cache: LocalDictCache): string[] {
  let scope: Node | null = use.parent;
  while (scope && scope.type !== 'function_definition' && scope.type !== 'module') scope = scope.parent;
  if (!scope) return [];
  const name = use.text;
  let byName = cache.get(scope.id);
  if (!byName) cache.set(scope.id, (byName = new Map()));
  let uses = byName.get(name);
  if (!uses) byName.set(name, (uses = nameUses(scope, name)));
  // Any use besides this one, or a definition that cannot be read, may remove keys.
  if (uses.unreadable || uses.others.size > (uses.others.has(use.id) ? 1 : 0)) return [];
  return uses.definitions === 1 ? uses.keys : [];
}

/** The uses of `name` in `scope` ({@link NameUses}); past {@link MAX_NAME_USES} occurrences, unreadable. */
function nameUses(scope: Node, name: string): NameUses {
  const uses: NameUses = { keys: [], definitions: 0, unreadable: false, others: new Set() };
  const text = scope.text;
  let seen = 0;
  for (const m of text.matchAll(new RegExp(`\\b${escapeRegExp(name)}\\b`, 'g'))) {
    if (++seen > MAX_NAME_USES) {
      uses.unreadable = true;
      break;
    }
    const at = scope.startIndex + m.index;
    const node = scope.descendantForIndex(at, at + name.length);
    if (node?.type !== 'identifier' || pythonIdentifier(node.text) !== name) continue;
    const parent = node.parent;
    if (parent?.type === 'assignment' && parent.childForFieldName('left')?.id === node.id) {
      const right = parent.childForFieldName('right');
      uses.definitions++;
      if (!right) {
        uses.unreadable = true;
        break;
      }
      uses.keys.push(...mappingKeys(right, undefined));
      continue;
    }
    const target = parent?.type === 'subscript' && parent.childForFieldName('value')?.id === node.id ? parent : undefined;
    const store = target?.parent;
    const key = target?.childForFieldName('subscript');
    if (store?.type === 'assignment' && store.childForFieldName('left')?.id === target!.id && key && stringValue(key) !== undefined) {
      uses.keys.push(stringValue(key)!);
      continue;
    }
    if (parent?.type === 'function_definition' && parent.childForFieldName('name')?.id === node.id) continue; // `def name(…)` elsewhere
    uses.others.add(node.id); // read or changed some other way
  }
  return uses;
}

/** Node types an annotation's name sits in below its `type` node (`Optional[C]`, `C | None`, `list[C]`). */
const IN_ANNOTATION = new Set(['subscript', 'generic_type', 'type_parameter', 'binary_operator', 'tuple', 'list', 'attribute', 'type', 'union_type', 'member_type', 'constrained_type', 'splat_type']);

/** Whether `node` is (part of) an annotation: a `type` node above it through type syntax only. */
function inAnnotation(node: Node): boolean {
  for (let n: Node | null = node.parent, depth = 0; n && depth < 12; n = n.parent, depth++) {
    if (n.type === 'type') return true;
    if (!IN_ANNOTATION.has(n.type)) return false;
  }
  return false;
}

/** Calls whose class arguments are only compared: `isinstance(x, C)`, `issubclass(t, (C, D))`. */
const TYPE_CHECKS = new Set(['isinstance', 'issubclass']);

type Use = { kind: 'call'; call: ConstructionCall } | { kind: 'harmless' } | { kind: 'opaque'; construct: string; location: SourceLocation };

/** What a use of the class (`expr`: the name, or `module.Name`) does with it; `cache` is its file's ({@link LocalDictCache}). */
function classify(file: string, expr: Node, cache: LocalDictCache): Use {
  const parent = expr.parent;
  if (!parent) return { kind: 'harmless' };
  const type = parent.type;
  if (type === 'dotted_name' || type === 'aliased_import' || type === 'import_from_statement' || type === 'import_statement') return { kind: 'harmless' };
  if (type === 'class_definition') return { kind: 'harmless' }; // its name
  if (type === 'argument_list' && parent.parent?.type === 'class_definition') return { kind: 'harmless' }; // a base
  if (type === 'call' && parent.childForFieldName('function')?.id === expr.id) {
    return { kind: 'call', call: { keywords: callKeywords(parent, cache), location: nodeLocation(file, parent) } };
  }
  if (type === 'attribute' && parent.childForFieldName('object')?.id === expr.id) {
    const attribute = identifierText(parent.childForFieldName('attribute')) ?? '';
    return CONSTRUCTOR_ATTRIBUTES.has(attribute) ? opaque(file, parent) : { kind: 'harmless' };
  }
  if (type === 'keyword_argument' && parent.childForFieldName('name')?.id === expr.id) return { kind: 'harmless' };
  if (type === 'comparison_operator') return { kind: 'harmless' };
  const list = type === 'tuple' && parent.parent?.type === 'argument_list' ? parent.parent : type === 'argument_list' ? parent : undefined;
  const check = list?.parent;
  if (check?.type === 'call' && TYPE_CHECKS.has(identifierText(check.childForFieldName('function')) ?? '')) return { kind: 'harmless' };
  if (inAnnotation(expr)) return { kind: 'harmless' };
  return opaque(file, parent);
}

function opaque(file: string, node: Node): Use {
  const text = node.text.replace(/\s+/g, ' ');
  return { kind: 'opaque', construct: text.length > 80 ? `${text.slice(0, 77)}...` : text, location: nodeLocation(file, node) };
}

/**
 * Whether a string names the class for code that imports it by name (`getattr(module,
 * "AppSettings")`, `"pkg.settings:AppSettings"`): the whole string is the name or ends with `.name`
 * or `:name`, outside an annotation (`"AppSettings"`) and an `__all__` list.
 */
function namedInString(content: Node, name: string): boolean {
  const text = content.text;
  if (text !== name && !text.endsWith(`.${name}`) && !text.endsWith(`:${name}`)) return false;
  const string = content.parent;
  if (!string || inAnnotation(string)) return false;
  for (let n: Node | null = string.parent, depth = 0; n && depth < 4; n = n.parent, depth++) {
    if ((n.type === 'assignment' || n.type === 'augmented_assignment') && identifierText(n.childForFieldName('left')) === '__all__') return false;
  }
  return true;
}

/**
 * Offsets in `text` where each line starts (line 1 at 0), so that a 1-based line and column is
 * `starts[line - 1] + column - 1`: one pass per file, where walking the lines from the top for
 * each class body cost bodies x text (s27 sweep2 O1: 6,000 settings classes, 875 KB: 0.8 s).
 */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The alias `\s+as\s+([A-Za-z_]\w*)` gives at `at`, after a name (`import AppSettings as S`):
 * read by hand, as a regex with leading `\s+` is flagged by the regex audit.
 */
function aliasAt(text: string, at: number): string | undefined {
  const space = (i: number): boolean => i < text.length && /\s/.test(text[i]!);
  let i = at;
  while (space(i)) i++;
  if (i === at || !text.startsWith('as', i)) return undefined;
  let j = i + 2;
  while (space(j)) j++;
  if (j === i + 2 || !/[A-Za-z_]/.test(text[j] ?? '')) return undefined;
  let k = j + 1;
  while (k < text.length && /\w/.test(text[k]!)) k++;
  return text.slice(j, k);
}
/** A name the word index can hold: ASCII word characters only (`\b` is ASCII in a regex without `u`). */
const ASCII_WORD = /^\w+$/;

/**
 * Where each of `words` stands in `text` as a whole word (a maximal run of ASCII `\w`, as
 * `\bword\b` finds it for a word of `\w` characters): start offsets, ascending. One pass over
 * the text whatever the number of words.
 *
 * @param text any text
 * @param words words of ASCII word characters (others are never found)
 * @returns offsets by word, for the words found
 */
export function wordPositions(text: string, words: ReadonlySet<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (words.size === 0) return out;
  const word = /\w+/g;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    if (!words.has(m[0])) continue;
    const list = out.get(m[0]);
    if (list) list.push(m.index);
    else out.set(m[0], [m.index]);
  }
  return out;
}

/**
 * For the followed classes named in one file's `text`: each class's occurrences there (its local
 * names, and the aliases `NAME as ALIAS` gives them), as whole words, in text order. Two passes
 * over the text for all the classes ({@link wordPositions}) instead of two regexes per class
 * (s27 sweep2 O1: files x classes x text; 6,000 classes named in six 540 KB files: over 10 s -> 2.3 s
 * for the run, the bad-input case python-settings-many-classes); a class with a name that is
 * not ASCII word characters is read by its own regexes, as before.
 */
function classOccurrences(text: string, classes: readonly FollowedClass[]): (item: FollowedClass) => Array<{ index: number; name: string }> {
  const plain = (names: Iterable<string>): boolean => [...names].every((n) => ASCII_WORD.test(n));
  const wanted = new Set<string>();
  for (const item of classes) if (plain(item.names)) for (const name of item.names) wanted.add(name);
  const index = wordPositions(text, wanted);
  const aliasesOf = new Map<FollowedClass, string[]>();
  const missing = new Set<string>();
  for (const item of classes) {
    if (!plain(item.names)) continue;
    const names = [...item.names];
    const known = new Set(names);
    // `from pkg.settings import AppSettings as S` inside a function binds `S` there.
    const at: Array<{ index: number; alias: string }> = [];
    for (const name of item.names) {
      for (const start of index.get(name) ?? []) {
        const alias = aliasAt(text, start + name.length);
        if (alias !== undefined) at.push({ index: start, alias });
      }
    }
    at.sort((a, b) => a.index - b.index);
    for (const { alias } of at) {
      if (known.has(alias)) continue;
      known.add(alias);
      names.push(alias);
      if (!wanted.has(alias)) missing.add(alias);
    }
    aliasesOf.set(item, names);
  }
  for (const [name, list] of wordPositions(text, missing)) index.set(name, list);
  return (item) => {
    const names = aliasesOf.get(item);
    if (!names) {
      // Not ASCII words: the regexes `\b…\b` read them as before.
      const own = [...item.names];
      for (const m of text.matchAll(new RegExp(`\\b(?:${own.map(escapeRegExp).join('|')})\\s+as\\s+([A-Za-z_]\\w*)`, 'g'))) if (!own.includes(m[1]!)) own.push(m[1]!);
      return [...text.matchAll(new RegExp(`\\b(?:${own.map(escapeRegExp).join('|')})\\b`, 'g'))].map((m) => ({ index: m.index, name: m[0] }));
    }
    const out: Array<{ index: number; name: string }> = [];
    for (const name of names) for (const start of index.get(name) ?? []) out.push({ index: start, name });
    return out.sort((a, b) => a.index - b.index);
  };
}

/**
 * How the project's non-test code builds each followed class: every direct call with the keywords
 * it passes, or the first use that cannot be followed (see {@link ConstructionSites.opaque}). Each
 * non-test file whose text names the class (or an alias) is parsed again and every occurrence of
 * the name is looked at: an occurrence that resolves to another class is not a use, one that does
 * not resolve (a name imported inside a function) is taken as a use. The repository classes of
 * the class's MRO are read too: a source hook or `__init__`/`__new__` they define
 * (`RawClass.methods`) or a body that builds its own class makes the class opaque.
 *
 * @param followed classes from {@link classesToFollow}
 * @param textOf the text of a scanned file (undefined when it cannot be read)
 * @param parser the Python parser; each tree is deleted after use
 * @returns sites by the class's qualified name
 */
export function constructionSites(host: ClassHost, followed: readonly FollowedClass[], infos: readonly ModuleInfo[], textOf: (file: string) => string | undefined, parser: Parser): Map<string, ConstructionSites> {
  const sites = new Map<string, ConstructionSites>();
  const byFile = new Map<string, { info: ModuleInfo; classes: FollowedClass[]; bodies: Set<RawClass> }>();
  const texts = new Map<string, string>();
  const entry = (info: ModuleInfo) => {
    let item = byFile.get(info.file);
    if (!item) byFile.set(info.file, (item = { info, classes: [], bodies: new Set() }));
    return item;
  };
  for (const item of followed) {
    const state: ConstructionSites = { calls: [] };
    sites.set(item.cls.qualifiedName, state);
    for (const base of host.mro(item.cls)) {
      if (typeof base === 'string') continue;
      // pydantic v1 reorders sources in `class Config: def customise_sources(…)`.
      const hook = (base.methods ?? []).find((m) => SOURCE_HOOKS.has(m)) ?? base.nested.get('Config')?.methods?.find((m) => m === 'customise_sources');
      if (hook !== undefined && !state.opaque) state.opaque = { construct: `${base.name} defines \`${hook}\``, location: base.location };
      const module = host.moduleOf(base);
      // Each body once, however many followed classes derive from it.
      if (module) entry(module).bodies.add(base);
    }
  }
  const followedWords = new Set(followed.flatMap((item) => [...item.names].filter((name) => ASCII_WORD.test(name))));
  for (const info of infos) {
    if (isTestFile(info.file)) continue;
    const text = textOf(info.file);
    if (text === undefined) {
      // Its uses of the classes are unknown.
      for (const item of followed) sites.get(item.cls.qualifiedName)!.opaque ??= { construct: `${info.file} could not be read again`, location: { file: info.file, line: 1, column: 1 } };
      continue;
    }
    // Whole words, in one pass over the text for all the classes (the occurrences read below are
    // whole words): a substring search per class and file cost files x classes x text.
    const words = wordPositions(text, followedWords);
    for (const item of followed) {
      if ([...item.names].some((name) => (ASCII_WORD.test(name) ? words.has(name) : text.includes(name)))) {
        entry(info).classes.push(item);
        texts.set(info.file, text);
      }
    }
  }
  if (byFile.size > MAX_FILES) {
    for (const item of followed) {
      const state = sites.get(item.cls.qualifiedName)!;
      state.opaque ??= { construct: `${item.cls.name} is named in more than ${MAX_FILES} files`, location: item.cls.location };
    }
    return sites;
  }
  /** Marks the followed classes `affected` selects as not followed, for `construct` at `location`. */
  const giveUp = (affected: (item: FollowedClass) => boolean, construct: string, location: SourceLocation): void => {
    for (const item of followed) if (affected(item)) sites.get(item.cls.qualifiedName)!.opaque ??= { construct, location };
  };
  for (const [file, { info, classes, bodies }] of byFile) {
    const text = texts.get(file) ?? textOf(file);
    const tree = text === undefined ? null : parsePython(parser, text);
    if (text === undefined || !tree) {
      giveUp((item) => classes.includes(item) || [...bodies].some((b) => host.mro(item.cls).includes(b)), `${file} could not be read again`, { file, line: 1, column: 1 });
      continue;
    }
    try {
      const root = tree.rootNode;
      const localDicts: LocalDictCache = new Map();
      const starts = lineStarts(text);
      for (const body of bodies) {
        const at = body.location.line - 1 < starts.length ? starts[body.location.line - 1]! + body.location.column - 1 : -1;
        const def = at < 0 ? undefined : root.descendantForIndex(at, at + body.name.length)?.parent;
        const block = def?.type === 'class_definition' ? def.childForFieldName('body') : undefined;
        // The body's class and every followed class deriving from it.
        const derived = (item: FollowedClass): boolean => host.mro(item.cls).includes(body);
        if (!block) giveUp(derived, `the body of ${body.name} was not found again`, body.location);
        else if (SELF_CONSTRUCTION.test(block.text)) giveUp(derived, `${body.name} builds its own class in its body (\`cls(…)\`)`, body.location);
      }
      const occurrences = classOccurrences(text, classes);
      for (const item of classes) {
        const state = sites.get(item.cls.qualifiedName)!;
        if (state.opaque) continue;
        for (const m of occurrences(item)) {
          const node = root.descendantForIndex(m.index, m.index + m.name.length);
          if (node?.type === 'string_content' && namedInString(node, m.name)) {
            state.opaque = { construct: `"${node.text}" (the class named in a string)`, location: nodeLocation(file, node) };
            break;
          }
          if (node?.type !== 'identifier' || pythonIdentifier(node.text) !== m.name) continue; // in a string or a comment
          const parent = node.parent;
          const expr = parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id ? parent : node;
          const dotted = dottedName(expr);
          const resolved = dotted ? host.resolver.resolve(info, dotted) : undefined;
          if (resolved && !(resolved.kind === 'class' && resolved.cls === item.cls)) continue; // another thing of that name
          const use = classify(file, expr, localDicts);
          if (use.kind === 'call') state.calls.push(use.call);
          else if (use.kind === 'opaque') {
            state.opaque = { construct: use.construct, location: use.location };
            break;
          }
        }
      }
    } finally {
      tree.delete();
    }
  }
  return sites;
}

// ---------------------------------------------------------------------------------------------
// Types no text can give

/** External bases that add nothing pydantic could build a value from. */
const PLAIN_BASES = new Set([
  'object', 'builtins.object', 'abc.ABC', 'typing.Protocol', 'typing_extensions.Protocol', 'typing.Generic', 'typing_extensions.Generic',
]);

/** Methods by which a class tells pydantic how to validate it (v2 core schema, v1 validators). */
const VALIDATION_HOOKS = new Set(['__get_pydantic_core_schema__', '__get_validators__', '__get_pydantic_json_schema__', '__modify_schema__']);

/** Splits `text` at `separator` outside brackets and quotes. */
function splitTop(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim());
}

/**
 * The dotted names of a union annotation's members, `None` left out: `X | None`, `Optional[X]`,
 * `Union[X, Y]`, `"X"`, `Annotated[X, Field(…)]`. Undefined when a member is anything else
 * (`list[X]`, `Literal[…]`, `Annotated[X, BeforeValidator(…)]`): such a type is not judged.
 */
export function unionMembers(annotation: string, depth = 0): string[][] | undefined {
  if (depth > 8) return undefined;
  let text = annotation.trim();
  const quoted = /^(["'])(.*)\1$/s.exec(text);
  if (quoted) text = quoted[2]!.trim();
  const out: string[][] = [];
  for (const part of splitTop(text, '|')) {
    if (part === 'None') continue;
    const generic = /^([A-Za-z_][\w.]*)\s*\[(.*)\]$/s.exec(part);
    if (generic) {
      const head = generic[1]!.split('.').at(-1);
      const args = splitTop(generic[2]!, ',').filter((a) => a !== '');
      let inner: string[] = [];
      if (head === 'Optional' && args.length === 1) inner = args;
      else if (head === 'Union') inner = args;
      else if (head === 'Annotated' && args.length >= 1 && args.slice(1).every((meta) => /^(?:pydantic\.)?Field\s*\(/.test(meta))) inner = [args[0]!];
      else return undefined;
      for (const arg of inner) {
        const members = unionMembers(arg, depth + 1);
        if (!members) return undefined;
        out.push(...members);
      }
      continue;
    }
    if (!/^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*$/.test(part)) return undefined;
    out.push(part.split('.'));
  }
  return out;
}

/** Whether pydantic cannot build an instance of project class `cls` from text (see the file's docstring). */
function isOpaqueClass(host: ClassHost, cls: RawClass): boolean {
  for (const entry of host.mro(cls)) {
    if (typeof entry === 'string') {
      if (!PLAIN_BASES.has(entry)) return false;
      continue;
    }
    if (entry.decorators.length > 0) return false; // @dataclass, @attrs.define, a project decorator…
    if ((entry.methods ?? []).some((m) => VALIDATION_HOOKS.has(m))) return false;
  }
  return true;
}

/**
 * The type of a settings field when no environment text can give it (see the file's docstring),
 * as written (`AbstractDBProvider`); undefined when some member of its annotation may be settable
 * or is unknown (an imported name docdrift does not define, a subscripted type), or when a
 * validator of the settings class names the field (or every field): it may build the value.
 *
 * @param settings the settings class (its MRO's validators count)
 * @param owner the class declaring the field, in `module` (names resolve there, nested classes first)
 */
export function opaqueFieldType(host: ClassHost, settings: RawClass, owner: RawClass, module: ModuleInfo, field: RawField): string | undefined {
  for (const entry of host.mro(settings)) {
    if (typeof entry !== 'string' && (entry.validators ?? []).some((v) => v === '*' || v === field.name)) return undefined;
  }
  const members = unionMembers(field.annotation);
  if (!members || members.length === 0) return undefined;
  for (const dotted of members) {
    const resolved = host.resolver.resolve(module, dotted, undefined, owner);
    if (resolved?.kind !== 'class' || !isOpaqueClass(host, resolved.cls)) return undefined;
  }
  return members.map((m) => m.join('.')).join(' | ');
}
