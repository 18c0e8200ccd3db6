/** oclif CLIs (`@oclif/core`, the older `@oclif/command`): command classes found by the `oclif.commands` folder of package.json, read into one program per package. */
import { ts } from 'ts-morph';
import type { InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { readPackageBins } from '../package-bins.js';
import { addAlias, attach, newNode, newParam, type CommandNode } from './flags-node.js';
import { declaredOptionStrings } from '../../model/flag-spelling.js';
import { dirname, joinPath, OUT_DIRS, type ModuleInfo } from './scan.js';
import { skipOuter, sourceFileOf } from './syntax.js';
import type { Entry, FlagEvaluator, Value } from './types.js';

/** A package.json as the readers get it. */
export interface PackageJsonText {
  file: string;
  text: string;
}

/** The oclif settings of one package.json. */
interface OclifSettings {
  packageJson: string;
  /** The package's directory (`''` for the root). */
  dir: string;
  /** The program name: `oclif.bin`, else the first `bin`, else the package name without its scope. */
  bin: string | undefined;
  /** `oclif.topicSeparator`: `:` (oclif's default) or `' '`. */
  separator: string;
  /** How commands are found: a folder (`pattern`), an export listing them (`explicit`) or one class (`single`). */
  strategy: 'pattern' | 'explicit' | 'single';
  /** The folder or file as written, joined to the package directory (`dist/commands`). */
  target: string;
  /** `explicit`: the export that holds the commands object (`default` unless `identifier` says otherwise). */
  identifier: string;
  /** `oclif.topics`: topic id → description. */
  topics: Map<string, string>;
  /** `oclif.plugins`: package names whose commands the program gets (those that are workspace packages are read). */
  plugins: string[];
  /** The package's `name`, by which another package's `oclif.plugins` names it. */
  name?: string;
  location: SourceLocation;
}

const SOURCE_FILE = /\.(?:[cm]?[jt]s|tsx)$/;
/** What oclif's own command glob leaves out (`!**\/*.+(d.ts|test.ts|test.js|spec.ts|spec.js|d.mts|d.cts)?(x)`). */
const NOT_COMMAND_FILE = /\.(?:d\.[cm]?ts|test\.[jt]s|spec\.[jt]s)x?$/;
/** oclif flag builders by the type of value they take. */
const FLAG_TYPES: Readonly<Record<string, string>> = { boolean: 'boolean', integer: 'integer', string: 'string', file: 'string', directory: 'string', url: 'string', option: 'string', enum: 'string' };

/** The oclif settings of a package.json with an `oclif` object, or undefined. */
function oclifSettings(pkg: PackageJsonText): OclifSettings | undefined {
  if (!pkg.text.includes('"oclif"')) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(pkg.text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch {
    return undefined; // reported where package.json bins are read
  }
  const oclif = json?.oclif;
  if (!oclif || typeof oclif !== 'object' || Array.isArray(oclif)) return undefined;
  const o = oclif as Record<string, unknown>;
  const dir = dirname(pkg.file);
  const join = (path: string): string => joinPath(dir, path) ?? path;
  let strategy: OclifSettings['strategy'] = 'pattern';
  let target: string | undefined;
  let identifier = 'default';
  const discovery = o.commands;
  if (typeof discovery === 'string') target = join(discovery);
  else if (discovery && typeof discovery === 'object') {
    const d = discovery as Record<string, unknown>;
    if (d.strategy === 'explicit' || d.strategy === 'single') strategy = d.strategy;
    if (typeof d.target === 'string') target = join(d.target);
    if (typeof d.identifier === 'string') identifier = d.identifier;
  }
  if (target === undefined) return undefined;
  const bins = readPackageBins(pkg).bins;
  const name = typeof json.name === 'string' ? json.name.replace(/^@[^/]+\//, '') : undefined;
  const bin = typeof o.bin === 'string' && o.bin !== '' ? o.bin : (bins[0]?.name ?? name);
  const topics = new Map<string, string>();
  const readTopics = (value: unknown, prefix: string): void => {
    if (!value || typeof value !== 'object') return;
    for (const [id, topic] of Object.entries(value as Record<string, unknown>)) {
      if (!topic || typeof topic !== 'object') continue;
      const t = topic as Record<string, unknown>;
      const full = prefix === '' ? id : `${prefix}:${id}`;
      topics.set(full, typeof t.description === 'string' ? t.description : '');
      readTopics(t.subtopics, full);
    }
  };
  readTopics(o.topics, '');
  const index = pkg.text.indexOf('"oclif"');
  const line = pkg.text.slice(0, index).split('\n').length;
  const column = index - pkg.text.lastIndexOf('\n', index - 1);
  return {
    packageJson: pkg.file,
    dir,
    bin,
    separator: o.topicSeparator === ' ' ? ' ' : ':',
    strategy,
    target,
    identifier,
    topics,
    plugins: Array.isArray(o.plugins) ? o.plugins.filter((p): p is string => typeof p === 'string') : [],
    ...(typeof json.name === 'string' ? { name: json.name } : {}),
    location: { file: pkg.file, line, column },
  };
}

/**
 * Where the sources of a compiled path are: `dist/commands` → `src/commands` (or the path itself
 * when it holds sources, a JavaScript project), `lib/commands` → `src/commands`, `commands`.
 */
function sourcePaths(path: string, dir: string): string[] {
  const rel = dir === '' ? path : path.slice(dir.length + 1);
  const prefix = dir === '' ? '' : `${dir}/`;
  const out = [path];
  const [first, ...rest] = rel.split('/');
  if (first !== undefined && OUT_DIRS.has(first) && rest.length > 0) out.push(`${prefix}src/${rest.join('/')}`, `${prefix}${rest.join('/')}`);
  return out;
}

/**
 * Command files read per oclif commands folder (in path order): past it one warning names the
 * folder and the cap, and the program's other commands are unknown. 2,000 command files of 50
 * flags each took 916 MB (#33 fresh sweep defect 9); the cap of Python modules' commands.
 */
export const MAX_OCLIF_COMMANDS = 1000;

/**
 * `sources` without the command files of an oclif commands folder past its first
 * {@link MAX_OCLIF_COMMANDS} + 1 (in path order): files no extractor will read as commands are
 * not parsed at all (a syntax tree costs ~80 bytes per source byte; 2,000 command files' trees
 * were 285 MB), while one more than the cap is kept so that the cap's warning is given. `totals`
 * gets each trimmed folder's real count of command files, for that warning.
 *
 * @param folders the prefixes of {@link oclifCommandFolders} (only those ending in `/` are folders)
 */
export function trimOclifFolders<S extends { file: string }>(sources: readonly S[], folders: readonly string[], totals: Map<string, number>): S[] {
  const drop = new Set<string>();
  for (const prefix of new Set(folders.filter((f) => f.endsWith('/')))) {
    const files = sources.map((s) => s.file).filter((f) => f.startsWith(prefix) && SOURCE_FILE.test(f) && !NOT_COMMAND_FILE.test(f)).sort();
    if (files.length <= MAX_OCLIF_COMMANDS + 1) continue;
    totals.set(prefix.slice(0, -1), files.length);
    for (const f of files.slice(MAX_OCLIF_COMMANDS + 1)) drop.add(f);
  }
  return drop.size === 0 ? [...sources] : sources.filter((s) => !drop.has(s.file));
}

/**
 * Folder prefixes (`src/commands/`, `dist/commands/`) where the oclif packages among
 * `packageJsons` keep their command files, and the files their `explicit`/`single` targets may be:
 * the sources to read for oclif programs, whatever they import.
 */
export function oclifCommandFolders(packageJsons: readonly PackageJsonText[]): string[] {
  const out: string[] = [];
  for (const pkg of packageJsons) {
    const s = oclifSettings(pkg);
    if (!s) continue;
    for (const p of sourcePaths(s.target, s.dir)) out.push(s.strategy === 'pattern' ? `${p}/` : p.replace(/\.[cm]?[jt]s$/, ''));
  }
  return out;
}

/**
 * Reads every oclif CLI: one program per package.json with an `oclif` object, named `oclif.bin`
 * (else its first `bin`, else the package name). Its commands are the command classes of the
 * files under `oclif.commands` (compiled paths such as `./dist/commands` read from `src/commands`;
 * oclif's own glob: `.js`/`.ts`/… files, not `.d.ts`, `.test.*`, `.spec.*`), the id being the
 * path (`deploy/app.ts` → `deploy:app`, a folder's `index.ts` the topic itself, the top
 * `index.ts` the program). With `topicSeparator: " "` the path words are the id's parts
 * (`mycli deploy app`, `deploy:app` accepted too), else the id is one word (`mycli deploy:app`).
 * `commands: { strategy: 'explicit', target, identifier }` (an exported object of id → class)
 * and `strategy: 'single'` (one class, the program) are read too.
 *
 * Per class (its own static members or a base class's, through imports): `static flags` merged
 * over `static baseFlags` (spreads such as `...BaseCommand.baseFlags` followed), `static args`
 * (an object of `Args.x({…})`, or the older array of `{ name, … }`), `summary`/`description`,
 * `aliases`, `hidden`, and `enableJsonFlag` (adds `--json`). A plugin of `oclif.plugins` that is
 * a workspace package (a package.json of the run named so, with its own `oclif.commands`) adds its
 * commands to the program; any other plugin (`@oclif/plugin-help`, from npm) gives commands that
 * docdrift does not read: the program is then marked `dynamicSubcommands` (one note). Per flag: the key is the name;
 * `Flags.<type>({…})` (also `flags.<type>`, `Flags.option({…})()`, `Flags.custom({…})()` and
 * flags defined once in a variable or another module) gives `char` and `charAliases` (short
 * aliases), `aliases`, `summary`/`description`, `default`, `required`, `hidden`, `options`
 * (choices), `multiple` (`string[]`), `allowNo` (negatable), `deprecated`.
 *
 * What cannot be read (a `static flags` that is not an object, a folder with no sources) is one
 * warning in `diagnostics`, naming the file and the construct. A commands folder is read up to
 * {@link MAX_OCLIF_COMMANDS} command files (`totals`: the real counts of folders whose sources
 * were trimmed before parsing, by {@link trimOclifFolders}).
 */
export function oclifPrograms(ev: FlagEvaluator, modules: ReadonlyMap<string, ModuleInfo>, packageJsons: readonly PackageJsonText[], diagnostics: InputDiagnostic[], totals?: ReadonlyMap<string, number>): CommandNode[] {
  const out: CommandNode[] = [];
  const all = packageJsons.flatMap((pkg) => {
    const settings = oclifSettings(pkg);
    return settings ? [settings] : [];
  });
  const byName = new Map(all.filter((s) => s.name !== undefined).map((s) => [s.name as string, s]));
  for (const settings of all) {
    if (settings.bin === undefined) continue;
    const root = newNode('oclif', settings.location, { name: settings.bin, program: true });
    root.parsed = true;
    const cut = new Set<OclifSettings>();
    let classes = commandClasses(ev, modules, settings, diagnostics, cut, totals);
    if (!classes) continue;
    // A plugin that is a workspace package of the repository (its own package.json with an `oclif`
    // object) adds its commands; others (`@oclif/plugin-help`, `-plugins`, `-autocomplete`, from
    // npm) make commands docdrift does not read.
    for (const plugin of settings.plugins) {
      const local = byName.get(plugin);
      const pluginClasses = local && local !== settings ? commandClasses(ev, modules, local, diagnostics, cut, totals) : undefined;
      if (pluginClasses) classes = [...classes, ...pluginClasses.filter((c) => !classes!.some((k) => k.id === c.id))];
      else root.dynamicSubcommands = true;
    }
    if (cut.size > 0) {
      root.dynamicSubcommands = true;
      root.dynamicSubcommandsBy = `an oclif commands folder of more than ${MAX_OCLIF_COMMANDS.toLocaleString('en-US')} command files`;
    }
    // Shortest ids first, so that a topic's own command (`deploy/index.ts`) is there before its children.
    classes.sort((a, b) => a.id.split(':').length - b.id.split(':').length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const byId = new Map<string, CommandNode>([['', root]]);
    const nodeFor = (id: string, at: SourceLocation): CommandNode => {
      const known = byId.get(id);
      if (known) return known;
      const words = settings.separator === ' ' ? id.split(':') : [id];
      const parentId = settings.separator === ' ' ? words.slice(0, -1).join(':') : '';
      const parent = nodeFor(parentId, at);
      const node = newNode('oclif', at, { name: words[words.length - 1] as string });
      const topic = settings.topics.get(id);
      if (topic) node.description = topic;
      attach(parent, node);
      byId.set(id, node);
      return node;
    };
    for (const { id, cls, file } of classes) {
      const at = cls.name ? ev.location(cls.name) : ev.location(cls);
      const node = nodeFor(id, at);
      node.location = at;
      readCommand(ev, node, cls, file, diagnostics);
      const spell = (alias: string): string[] => (settings.separator === ' ' ? alias.split(/[: ]/) : [alias]);
      const paths: string[][] = [];
      if (settings.separator === ' ' && id.includes(':')) paths.push([id]);
      for (const alias of node.aliases) {
        paths.push(spell(alias));
        if (settings.separator === ' ' && alias.includes(':')) paths.push([alias]);
      }
      node.aliases = [];
      if (paths.length > 0) node.pathAliases = paths;
    }
    out.push(root);
  }
  return out;
}

/** The command classes of one oclif package with their ids; undefined (with a warning) when none can be found. */
function commandClasses(ev: FlagEvaluator, modules: ReadonlyMap<string, ModuleInfo>, s: OclifSettings, diagnostics: InputDiagnostic[], cut?: Set<OclifSettings>, totals?: ReadonlyMap<string, number>): Array<{ id: string; cls: ts.ClassLikeDeclaration; file: string }> | undefined {
  const warn = (message: string): void => {
    diagnostics.push({ ruleId: 'parse-error', severity: 'warn', message: `${s.packageJson}:${s.location.line}: ${message}`, location: s.location });
  };
  const out: Array<{ id: string; cls: ts.ClassLikeDeclaration; file: string }> = [];
  if (s.strategy === 'pattern') {
    const files = [...modules.keys()];
    const folder = sourcePaths(s.target, s.dir).find((d) => files.some((f) => f.startsWith(`${d}/`) && SOURCE_FILE.test(f)));
    if (folder === undefined) {
      warn(`oclif commands folder \`${s.target}\` has no source files docdrift reads (tried ${sourcePaths(s.target, s.dir).join(', ')}); the CLI's commands are not read`);
      return undefined;
    }
    for (const file of files.sort()) {
      if (!file.startsWith(`${folder}/`) || !SOURCE_FILE.test(file) || NOT_COMMAND_FILE.test(file)) continue;
      if (out.length >= MAX_OCLIF_COMMANDS) {
        const total = totals?.get(folder) ?? files.filter((f) => f.startsWith(`${folder}/`) && SOURCE_FILE.test(f) && !NOT_COMMAND_FILE.test(f)).length;
        warn(`oclif commands folder \`${folder}\` holds ${total.toLocaleString('en-US')} command files; only the first ${MAX_OCLIF_COMMANDS.toLocaleString('en-US')} commands are read, the others are unknown`);
        cut?.add(s);
        break;
      }
      const module = modules.get(file) as ModuleInfo;
      const cls = commandClassOf(ev, module);
      if (!cls) continue;
      const parts = file.slice(folder.length + 1).replace(SOURCE_FILE, '').split('/');
      if (parts[parts.length - 1] === 'index') parts.pop();
      out.push({ id: parts.join(':'), cls, file });
    }
    return out;
  }
  const file = sourcePaths(s.target, s.dir).flatMap((p) => [p, p.replace(/\.[cm]?js$/, '')]).flatMap((p) => [p, `${p}.ts`, `${p}.mts`, `${p}.js`, `${p}/index.ts`, `${p}/index.js`]).map((p) => p.replace(/\.[cm]?js\.(ts|mts|js)$/, '.$1')).find((p) => modules.has(p));
  const module = file === undefined ? undefined : modules.get(file);
  if (!module) {
    warn(`oclif ${s.strategy} command target \`${s.target}\` has no source file docdrift reads; the CLI's commands are not read`);
    return undefined;
  }
  if (s.strategy === 'single') {
    const cls = commandClassOf(ev, module);
    if (cls) out.push({ id: '', cls, file: module.file });
    return out;
  }
  const exported = ev.evaluate(exportNode(module, s.identifier) ?? module.sf);
  const entries = exported?.kind === 'object' ? ev.entries(exported) : undefined;
  if (!entries) {
    warn(`oclif explicit commands \`${s.identifier}\` of ${module.file} is not an object literal docdrift reads; the CLI's commands are not read`);
    return undefined;
  }
  for (const e of entries) {
    const value = ts.isExpression(e.value) ? ev.evaluate(e.value) : undefined;
    if (value?.kind === 'class') out.push({ id: e.key, cls: value.node, file: sourceFileOf(value.node).fileName.replace(/^\//, '') });
  }
  return out;
}

/** The node of `module`'s export `name` (a variable's initializer, `export default <expr>`). */
function exportNode(module: ModuleInfo, name: string): ts.Node | undefined {
  if (name === 'default') for (const s of module.sf.statements) if (ts.isExportAssignment(s)) return s.expression;
  const local = module.exports.get(name) ?? name;
  const decl = module.values.get(local);
  return decl?.kind === 'variable' ? decl.node.initializer : undefined;
}

/**
 * The command class a command file exports, as oclif looks for it: the default export (ES
 * `export default class`, CommonJS `module.exports = X`), else the first exported class that
 * extends another (a command has a `run` method, usually inherited).
 */
export function commandClassOf(ev: FlagEvaluator, module: ModuleInfo): ts.ClassLikeDeclaration | undefined {
  const isClass = (v: Value | undefined): v is Extract<Value, { kind: 'class' }> => v?.kind === 'class';
  for (const s of module.sf.statements) {
    if (ts.isClassDeclaration(s) && isExported(s, true)) return s;
    if (ts.isExportAssignment(s)) {
      const v = ev.evaluate(s.expression);
      if (isClass(v)) return v.node;
    }
    if (ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = s.expression.left.getText(module.sf);
      if (left === 'module.exports' || left === 'exports.default' || left === 'module.exports.default') {
        const v = ev.evaluate(s.expression.right);
        if (isClass(v)) return v.node;
        if (v?.kind === 'object') {
          for (const e of ev.entries(v)) {
            const c = ts.isExpression(e.value) ? ev.evaluate(e.value) : undefined;
            if (isClass(c) && c.node.heritageClauses) return c.node;
          }
        }
      }
    }
  }
  for (const s of module.sf.statements) if (ts.isClassDeclaration(s) && isExported(s, false) && s.heritageClauses) return s;
  return undefined;
}

function isExported(node: ts.Node, asDefault: boolean): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  const exported = mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  const isDefault = mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;
  return exported && isDefault === asDefault;
}

/** Reads a command class's statics into `node`. */
function readCommand(ev: FlagEvaluator, node: CommandNode, cls: ts.ClassLikeDeclaration, file: string, diagnostics: InputDiagnostic[]): void {
  const value: Value = { kind: 'class', node: cls };
  const stat = (name: string): ts.Expression | undefined => {
    const n = ev.memberNode(value, name);
    return n && ts.isExpression(n) ? n : undefined;
  };
  const summary = stat('summary');
  const description = stat('description');
  const text = (summary && ev.stringOf(summary)) ?? (description && ev.stringOf(description));
  if (text !== undefined) node.description = text.split('\n')[0];
  if (ev.booleanOf(stat('hidden')) === true) node.hidden = true;
  const state = stat('state');
  if (state && ev.stringOf(state) === 'deprecated') node.deprecated = true;
  node.aliases = ev.stringsOf(stat('aliases')) ?? [];
  const unread = (what: string, expr: ts.Expression, how: 'is' | 'spreads' = 'is'): void => {
    const at = ev.location(expr);
    const text = `\`${expr.getText(sourceFileOf(expr)).slice(0, 60)}\``;
    const problem = how === 'is' ? `is not an object docdrift reads (${text}); those ${what === 'args' ? 'arguments' : 'flags'} are not read` : `spreads ${text}, flags made at run time that docdrift does not read; the command's other flags are read, and flags it does not know are not reported`;
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${at.file}:${at.line}:${at.column}: oclif \`static ${what}\` of command class ${cls.name?.text ?? '(anonymous)'} (${file}) ${problem}`,
      location: at,
    });
  };
  // `static baseFlags` (oclif ≥ 2) first: `flags` adds to them, a key in both is the command's own.
  const byName = new Map<string, ParamSpec>();
  for (const what of ['baseFlags', 'flags']) {
    const expr = stat(what);
    if (!expr) continue;
    const entries = ev.objectEntries(expr);
    if (!entries) {
      unread(what, expr);
      continue;
    }
    for (const e of entries) byName.set(e.key, flagSpec(ev, e));
    // `...makeFlags(PROMPTS)`: flags made at run time. The command may take flags docdrift did not
    // read, so it is not told that the others are unknown.
    const literal = ev.evaluate(expr);
    const unknown = literal?.kind === 'object' ? ev.unreadSpreads(literal.node) : [];
    if (unknown.length > 0) {
      node.passesUnknownFlags = true;
      unread(what, unknown[0] as ts.Expression, 'spreads');
    }
  }
  if (ev.booleanOf(stat('enableJsonFlag')) === true && !byName.has('json')) {
    const json = newParam('json', ev.location(stat('enableJsonFlag') as ts.Expression));
    json.type = 'boolean';
    json.description = 'Format output as json.';
    json.dest = 'json';
    byName.set('json', json);
  }
  const args = stat('args');
  const positionals: ParamSpec[] = [];
  if (args) {
    const v = ev.evaluate(args);
    const entries = v?.kind === 'array' ? undefined : ev.objectEntries(args);
    if (entries) for (const e of entries) positionals.push(argSpec(ev, e.key, e.keyNode, e.value));
    else if (v?.kind === 'array') {
      for (const el of v.node.elements) {
        const entries = ev.objectEntries(el) ?? [];
        const name = entries.find((e) => e.key === 'name');
        const key = name ? ev.stringOf(name.value) : undefined;
        if (key !== undefined && name) positionals.push(argSpec(ev, key, name.value, el));
      }
    } else unread('args', args);
  }
  node.params.push(...byName.values(), ...positionals);
}

/** The builder call behind a flag or argument value, with its method (`integer`) and options (inner call's first, then an outer call's). */
function builder(ev: FlagEvaluator, expr: ts.Node, depth = 0): { method?: string; entries: Entry[] } {
  if (depth > 4 || !ts.isExpression(expr)) return { entries: [] };
  const e = ev.definition(expr);
  if (!ts.isCallExpression(e)) return { entries: [] };
  const callee = skipOuter(e.expression);
  const own = e.arguments[0] ? (ev.objectEntries(e.arguments[0]) ?? []) : [];
  if (ts.isCallExpression(callee)) {
    // `Flags.custom({…})()`, `Flags.option({…})(overrides)`.
    const inner = builder(ev, callee, depth + 1);
    return { ...(inner.method !== undefined ? { method: inner.method } : {}), entries: [...inner.entries, ...own] };
  }
  if (ts.isPropertyAccessExpression(callee)) return { method: callee.name.text, entries: own };
  if (ts.isIdentifier(callee)) {
    // A flag made once and called with overrides (`const env = Flags.custom({…}); env({ required: true })`),
    // or a builder imported by name (`import { integer } from '@oclif/core/flags'`).
    const def = ev.definition(callee);
    if (ts.isCallExpression(def)) {
      const inner = builder(ev, def, depth + 1);
      return { ...(inner.method !== undefined ? { method: inner.method } : {}), entries: [...inner.entries, ...own] };
    }
    const imported = ev.moduleOf(callee)?.imports.get(callee.text);
    return { method: imported && imported.imported !== 'default' && imported.imported !== '*' ? imported.imported : callee.text, entries: own };
  }
  return { entries: own };
}

function flagSpec(ev: FlagEvaluator, entry: Entry): ParamSpec {
  const spec = newParam(entry.key, ev.location(entry.keyNode));
  spec.dest = entry.key;
  const { method, entries } = builder(ev, entry.value);
  let type = method !== undefined ? FLAG_TYPES[method] : undefined;
  let multiple = false;
  // oclif spells every key and alias `--<name>` (`g` is `--g`), a `char` `-c`.
  const strings = [`--${entry.key}`];
  for (const o of entries) {
    const v = o.value;
    switch (o.key) {
      case 'char':
      case 'charAliases':
      case 'aliases':
        for (const alias of ev.stringsOf(v) ?? []) {
          addAlias(spec, alias);
          strings.push(`${o.key === 'aliases' ? '--' : '-'}${alias}`);
        }
        break;
      case 'summary':
        spec.description = ev.stringOf(v) ?? spec.description;
        break;
      case 'description':
        spec.description ??= ev.stringOf(v);
        break;
      case 'default':
        if (ts.isExpression(v) && !ts.isArrowFunction(skipOuter(v)) && !ts.isFunctionExpression(skipOuter(v))) spec.default = ev.defaultOf(v);
        break;
      case 'required':
        spec.required = ev.booleanOf(v) === true;
        break;
      case 'hidden':
        spec.hidden = ev.booleanOf(v) === true;
        break;
      case 'options': {
        const choices = ev.stringsOf(v);
        if (choices) spec.choices = choices;
        break;
      }
      case 'multiple':
        multiple = ev.booleanOf(v) === true;
        break;
      case 'allowNo':
        if (ev.booleanOf(v) === true) spec.negatable = true;
        break;
      case 'deprecated': {
        const text = ev.stringOf(v);
        if (ev.booleanOf(v) === true) spec.deprecated = true;
        else if (text !== undefined) spec.deprecated = text;
        else if (ts.isExpression(v) && ts.isObjectLiteralExpression(skipOuter(v))) {
          const message = ev.objectEntries(v)?.find((x) => x.key === 'message');
          spec.deprecated = (message && ev.stringOf(message.value)) ?? true;
        }
        break;
      }
      case 'env': {
        // `Flags.string({ env: 'MY_X' })`: oclif reads the flag from `MY_X` when it is not given
        // (oclif docs, "Flags": `env` — "default to value of environment variable").
        const name = ev.stringOf(v);
        if (name !== undefined && name !== '') spec.envVars = [name];
        break;
      }
      case 'type':
        // `@oclif/command` v1 custom flags: `type: 'boolean'`.
        if (ev.stringOf(v) === 'boolean') type = 'boolean';
        break;
    }
  }
  if (type !== undefined) spec.type = multiple ? `${type}[]` : type;
  if (spec.description !== undefined) spec.description = spec.description.split('\n')[0];
  const optionStrings = declaredOptionStrings(strings);
  if (optionStrings) spec.optionStrings = optionStrings;
  return spec;
}

function argSpec(ev: FlagEvaluator, name: string, at: ts.Node, value: ts.Node): ParamSpec {
  const spec = newParam(name, ev.location(at));
  spec.positional = true;
  const built = builder(ev, value);
  const entries = built.entries.length > 0 ? built.entries : (ev.objectEntries(value) ?? []);
  if (built.method !== undefined && FLAG_TYPES[built.method]) spec.type = FLAG_TYPES[built.method];
  for (const o of entries) {
    if (o.key === 'required') spec.required = ev.booleanOf(o.value) === true;
    else if (o.key === 'description') spec.description = ev.stringOf(o.value);
    else if (o.key === 'hidden') spec.hidden = ev.booleanOf(o.value) === true;
    else if (o.key === 'options') {
      const choices = ev.stringsOf(o.value);
      if (choices) spec.choices = choices;
    } else if (o.key === 'default' && ts.isExpression(o.value) && !ts.isArrowFunction(skipOuter(o.value))) spec.default = ev.defaultOf(o.value);
  }
  return spec;
}
