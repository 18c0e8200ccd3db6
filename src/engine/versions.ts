/**
 * Versioned doc trees: frozen copies of older releases' docs kept next to the current ones. They
 * document old code, so checking them against the current code would invent drift (a flag
 * removed in 2.0 is "unknown" in the 1.x copy) and hide it (a 1.x reference table without a new
 * row would count as a second section). The current version is checked; the others are skipped
 * unless the config's `versions` asks for them, and a run note names what was skipped.
 *
 * Recognised layouts (paths are project-relative):
 * - Docusaurus: `<site>/versioned_docs/version-<X>/…`, with `<site>/versions.json` (newest first).
 *   The current version is Docusaurus's own "current" (the `docs/` folder) unless
 *   `docusaurus.config.*` sets `includeCurrentVersion: false`; then it is `lastVersion`, else
 *   the first entry of `versions.json`, else the highest.
 * - Fern: `<fern>/versions/v<N>/…`; the current version is the first entry of the `versions:`
 *   list in `<fern>/docs.yml` (its `path` or `display-name`), else the highest.
 * - Redocly: `<dir>/@<version>/…` (`docs/@v1`, `docs/@v2`); the current version is `default:` in
 *   `<dir>/versions.yaml`, else the highest.
 * - Mintlify and plain version folders: `<docs>/v2/…`, `<docs>/6.x/…`, `<docs>/version-1.2/…` (any
 *   folder {@link isVersionFolder} accepts, under a docs folder). Such a folder is an older version
 *   when the doc engine says so (Mintlify `docs.json` `navigation.versions` / `mint.json` `versions`:
 *   the entry marked `default`, else the first, is current; a version's folder is the first folder of
 *   its pages), or when its major version is below the current major version of the project's
 *   package (the `version` of each `package.json` with `bin`, or `pyproject.toml` with scripts, else
 *   of every manifest). Without either, a lone version folder beside unversioned pages is checked
 *   (it may be an API version still served); several version folders alone keep the highest.
 * MkDocs with `mike` keeps older versions on the `gh-pages` branch, not in the source tree, so
 * there is nothing to skip.
 */
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pathMatcher } from '../shared/path-match.js';
import type { VersionsSetting } from '../config/schema.js';
import { readProjectFile } from '../shared/read-file.js';
import { memoByText } from '../shared/memo.js';


/** The doc engine whose folder layout a version tree follows. */
export type VersionedEngine = 'docusaurus' | 'fern' | 'redocly' | 'folder' | 'page';

/**
 * One group of version trees of the same docs (one Docusaurus site, one Fern folder, one Redocly
 * folder), or one page and its older copies beside it (`page`: `configuration-v1.md` next to
 * `configuration.md`; `dir` and `current` are then the page itself).
 */
export interface VersionFamily {
  engine: VersionedEngine;
  /** Project-relative folder holding the versions (`website/versioned_docs`, `fern/versions`, `docs`). */
  dir: string;
  /** The folder of the checked version (`docs/@v2`), or Docusaurus's `docs/` folder (`website/docs`). */
  current: string;
  /** Where the current version was read from, for the note: `docs/versions.yaml \`default\``, or "the highest version". */
  currentFrom: string;
  /** Skipped version folders, project-relative, sorted, with their number of documents. */
  skipped: Array<{ dir: string; docs: number }>;
}

/** What {@link selectDocVersions} keeps and skips. */
export interface VersionSelection {
  /** The documents to check, in the input order. */
  docs: string[];
  /** Families that had at least one version tree, whether or not something was skipped. */
  families: VersionFamily[];
}

interface Tree {
  engine: VersionedEngine;
  /** Folder the engine keeps its version files in: the Docusaurus site (`website`), Fern's `fern/versions`, Redocly's `docs`. */
  family: string;
  /** The version folder's own name (`version-1.2.0`, `v2`, `@v1`). */
  folder: string;
  /** The version without its engine prefix (`1.2.0`, `v2`, `v1`). */
  version: string;
}

/**
 * A folder name that names a version of the docs: `version-2.x`, `v1`, `v1.2`, `@v1`, `1.2.0`,
 * `2.x`, `6.x`. The one predicate for "a version folder", shared by version selection and copy
 * folding (src/engine/copies.ts).
 */
export function isVersionFolder(segment: string): boolean {
  return /^(?:version-.+|@?v\d+(?:\.[\dx]+)*|\d+\.[\dx]+(?:\.[\dx]+)*)$/i.test(segment);
}

/** Folders a docs tree lives under: a plain version folder counts only below one of them. */
const DOC_ROOTS = /^(docs?|documentation|website|site|content|pages|guide|guides|manual|book)$/i;

/** Folder names of a rolling version, newer than every numbered one (`fern/versions/latest`). */
const ROLLING = /^(latest|current|next|main|master|stable|dev|nightly)$/i;

/** The version tree a document belongs to, if any: the innermost versioned folder on its path. */
function treeOf(file: string): Tree | undefined {
  const parts = file.split('/');
  for (let i = parts.length - 2; i >= 1; i--) {
    const seg = parts[i]!;
    const parent = parts[i - 1]!;
    // Docusaurus's family is the site folder (versions.json and docusaurus.config sit there); Fern's is `<fern>/versions`.
    if (parent === 'versioned_docs' && /^version-./.test(seg)) return { engine: 'docusaurus', family: parts.slice(0, i - 1).join('/'), folder: seg, version: seg.slice('version-'.length) };
    if (parent === 'versions' && (/^v\d/i.test(seg) || ROLLING.test(seg))) return { engine: 'fern', family: parts.slice(0, i).join('/'), folder: seg, version: seg };
  }
  for (let i = parts.length - 2; i >= 0; i--) {
    const seg = parts[i]!;
    if (/^@[\w.-]+$/.test(seg) && /\d|latest|current|next/i.test(seg)) return { engine: 'redocly', family: parts.slice(0, i).join('/'), folder: seg, version: seg.slice(1) };
  }
  // A plain version folder (`docs/v2`, `docs/6.x`) below a docs folder: the outermost one.
  for (let i = 1; i < parts.length - 1; i++) {
    const seg = parts[i]!;
    if (!seg.startsWith('@') && isVersionFolder(seg) && parts.slice(0, i).some((p) => DOC_ROOTS.test(p))) return { engine: 'folder', family: parts.slice(0, i).join('/'), folder: seg, version: seg.replace(/^version-/i, '') };
  }
  return undefined;
}

/** Numeric parts of a version (`v1.10.2` → [1, 10, 2]); names such as `latest`/`next` sort above every number. */
function versionKey(version: string): number[] {
  if (ROLLING.test(version)) return [Number.MAX_SAFE_INTEGER];
  return (version.match(/\d+/g) ?? []).map(Number);
}

/** Positive when `a` is the higher version. */
export function compareVersions(a: string, b: string): number {
  const x = versionKey(a);
  const y = versionKey(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

/** A file's text, or undefined when it is missing or unreadable (a versions file is a hint, never required). */
function readText(root: string, rel: string): string | undefined {
  try {
    return readProjectFile(root, rel, { maxBytes: 1 << 20 });
  } catch {
    return undefined;
  }
}

function readYaml(root: string, rel: string): unknown {
  const text = readText(root, rel);
  return text === undefined ? undefined : yamlOf(text);
}

/** A YAML text's value (`undefined` when it is no YAML), once per text (src/shared/memo.ts): the language server reads the engines' config files in every lint. Shared: never changed. */
const yamlOf = memoByText((text: string): unknown => {
  try {
    return parseYaml(text);
  } catch {
    return undefined;
  }
}, 200);

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/** The version the engine's own config names current, and where that was read; undefined when it names none. */
function namedCurrent(root: string, engine: VersionedEngine, family: string): { version: string; from: string } | undefined {
  if (engine === 'redocly') {
    const file = join(family, 'versions.yaml');
    const data = readYaml(root, file) ?? readYaml(root, join(family, 'versions.yml'));
    const def = (data as { default?: unknown } | undefined)?.default;
    if (typeof def === 'string' || typeof def === 'number') return { version: String(def).replace(/^@/, ''), from: `${file} \`default\`` };
    return undefined;
  }
  if (engine === 'fern') {
    // family is `<fern>/versions`; docs.yml sits in `<fern>`.
    const fernDir = path.posix.dirname(family) === '.' ? '' : path.posix.dirname(family);
    for (const name of ['docs.yml', 'docs.yaml']) {
      const file = join(fernDir, name);
      const data = readYaml(root, file) as { versions?: unknown } | undefined;
      if (!data || !Array.isArray(data.versions) || data.versions.length === 0) continue;
      const first = data.versions[0] as { path?: unknown; 'display-name'?: unknown; slug?: unknown };
      if (typeof first.path === 'string') {
        const from = `${file} \`versions\` (first entry)`;
        // The version's navigation file names the folder its pages live in (`versions/main.yml`
        // lays out `./latest/pages/…`): the most frequent first folder of its `path:`/`folder:` entries.
        const nav = /\.ya?ml$/.test(first.path) ? readText(root, join(fernDir, path.posix.normalize(first.path))) : undefined;
        if (nav !== undefined) {
          const counts = new Map<string, number>();
          for (const m of nav.matchAll(/^[ \t]*(?:-[ \t]*)?(?:path|folder)[ \t]*:[ \t]*["']?\.\/([^/"'\s]+)\//gm)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
          const top = [...counts].sort((a, b) => b[1] - a[1])[0];
          if (top) return { version: top[0], from };
        }
        // `./versions/v2.yml` or `./versions/v2/…`: the segment after `versions/`.
        const m = /(?:^|\/)versions\/([^/]+?)(?:\.ya?ml)?(?:\/|$)/.exec(first.path);
        if (m) return { version: m[1]!, from };
      }
      for (const v of [first.slug, first['display-name']]) if (typeof v === 'string') return { version: v, from: `${file} \`versions\` (first entry)` };
    }
    return undefined;
  }
  // Docusaurus: family is the site folder holding versioned_docs/.
  const site = family;
  let config: string | undefined;
  let configFile = '';
  for (const ext of ['ts', 'js', 'mjs', 'cjs', 'mts']) {
    configFile = join(site, `docusaurus.config.${ext}`);
    config = readText(root, configFile);
    if (config !== undefined) break;
  }
  if (config === undefined || !/includeCurrentVersion\s*:\s*false/.test(config)) return { version: 'current', from: 'Docusaurus\'s "current" version (the docs/ folder)' };
  const last = /lastVersion\s*:\s*['"`]([^'"`]+)['"`]/.exec(config);
  if (last && last[1] !== 'current') return { version: last[1]!, from: `${configFile} \`lastVersion\`` };
  const list = readText(root, join(site, 'versions.json'));
  if (list !== undefined) {
    try {
      const versions = JSON.parse(list) as unknown;
      if (Array.isArray(versions) && typeof versions[0] === 'string') return { version: versions[0], from: `${join(site, 'versions.json')} (first entry, the newest)` };
    } catch {
      // not JSON: fall through to the highest version
    }
  }
  return undefined;
}

/** A JSON file that exists but does not parse. */
const UNPARSABLE = Symbol('unparsable');

/**
 * Reads and parses a project JSON file (project-relative path) at most once per version
 * selection: `{ value }`, {@link UNPARSABLE}, or undefined when missing or unreadable. Every
 * docs folder with version folders looks for `docs.json`/`mint.json` in its own folder and each
 * one above it, and a `docs.json` version may `$ref` another file: without the memo, a 1 MiB
 * config was parsed once per family (and per `$ref`).
 */
type JsonFiles = (root: string, rel: string) => { value: unknown } | typeof UNPARSABLE | undefined;

function jsonFiles(): JsonFiles {
  const seen = new Map<string, { value: unknown } | typeof UNPARSABLE | undefined>();
  return (root, rel) => {
    if (seen.has(rel)) return seen.get(rel);
    const text = readText(root, rel);
    let out: { value: unknown } | typeof UNPARSABLE | undefined;
    if (text !== undefined) {
      try {
        out = { value: JSON.parse(text) as unknown };
      } catch {
        out = UNPARSABLE;
      }
    }
    seen.set(rel, out);
    return out;
  };
}

/**
 * The Mintlify versions read from `docs.json`: the first ones only. A site lists a handful; the
 * pages of each version are walked once per docs folder, so a hostile list of many thousands
 * would cost O(folders x pages). A version past the cap is not known as an older one: its folder
 * is checked. (`mint.json` lists bare names, looked up in a Set: it needs no cap.)
 */
const MAX_MINTLIFY_VERSIONS = 500;

/** Every page path string in a Mintlify navigation value (`pages` arrays nested in groups, tabs, dropdowns). */
function mintlifyPages(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 12) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) mintlifyPages(v, out, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k === 'pages' || k === 'groups' || k === 'tabs' || k === 'dropdowns' || k === 'anchors' || k === 'navigation' || k === 'languages') mintlifyPages(v, out, depth + 1);
  }
  return out;
}

/** The version folder most of a version's pages sit in (`v2/getting-started/…` → `v2`), or '' when they sit at the top. */
function pagesFolder(pages: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const p of pages) {
    const first = p.replace(/^\.?\//, '').split('/')[0]!;
    const key = p.includes('/') && isVersionFolder(first) ? first : '';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/**
 * What a Mintlify config (`docs.json` `navigation.versions`, or the older `mint.json` `versions`)
 * in `family` or a folder above it says about the version folders of `family`: the folder of
 * the current version ('' when its pages are not in a version folder), the folders of the
 * others with their version names, and the file read. Undefined without such a config.
 */
function mintlifyVersions(root: string, family: string, json: JsonFiles): { current: string; others: Map<string, string>; from: string } | undefined {
  const parts = family.split('/');
  for (let n = parts.length; n >= 0; n--) {
    const dir = parts.slice(0, n).join('/');
    const rel = (name: string): string => (dir === '' ? name : `${dir}/${name}`);
    // Pages are named relative to the config's folder; the family must be that folder or below it.
    const prefix = family.slice(dir.length).replace(/^\//, '');
    const docsJson = json(root, rel('docs.json'));
    if (docsJson !== undefined) {
      if (docsJson === UNPARSABLE) return undefined;
      const data = docsJson.value;
      const versions = (data as { navigation?: { versions?: unknown } } | null)?.navigation?.versions;
      if (!Array.isArray(versions) || versions.length < 2) return undefined;
      // Only the first versions count (see MAX_MINTLIFY_VERSIONS).
      const entries = versions.slice(0, MAX_MINTLIFY_VERSIONS).map((v) => {
        let entry = v as Record<string, unknown>;
        const ref = typeof entry?.$ref === 'string' ? path.posix.normalize(rel(path.posix.normalize(entry.$ref))) : undefined;
        // A $ref stays inside the project (`../../x.json` is not followed).
        if (ref !== undefined && !ref.startsWith('../') && !path.posix.isAbsolute(ref)) {
          const target = json(root, ref);
          // an unreadable or unparsable $ref: its pages are unknown
          if (target !== undefined && target !== UNPARSABLE && target.value !== null && typeof target.value === 'object') entry = { ...(target.value as Record<string, unknown>), ...entry };
        }
        const folder = pagesFolder(mintlifyPages(entry).map((p) => (prefix !== '' && p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : p)));
        return { folder, name: typeof entry?.version === 'string' ? entry.version : folder, isDefault: entry?.default === true };
      });
      const current = entries.find((e) => e.isDefault) ?? entries[0]!;
      const others = new Map(entries.filter((e) => e !== current && e.folder !== '').map((e) => [e.folder, e.name] as [string, string]));
      return { current: current.folder, others, from: `${rel('docs.json')} \`navigation.versions\`` };
    }
    const mintJson = json(root, rel('mint.json'));
    if (mintJson !== undefined) {
      if (mintJson === UNPARSABLE) return undefined;
      const data = mintJson.value as { versions?: unknown } | null;
      const names = Array.isArray(data?.versions) ? data.versions.filter((v): v is string => typeof v === 'string') : [];
      if (names.length < 2) return undefined;
      // mint.json lists version names, newest (default) first; a version folder is named after its version.
      return { current: names[0]!, others: new Map(names.slice(1).map((n) => [n, n] as [string, string])), from: `${rel('mint.json')} \`versions\`` };
    }
  }
  return undefined;
}

/** The leading number of a version (`v2.14` → 2, `6.x` → 6, `7.0.0-rc.0` → 7); undefined for names without one. */
function major(version: string): number | undefined {
  const m = /^[@v]*(?:version-)?(\d+)/i.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * The highest major version of the project's packages, and the manifest it was read from: the
 * `version` of each `package.json` that declares `bin` and each `pyproject.toml` that declares
 * scripts (the packages whose commands docdrift checks), else of every manifest. Undefined when
 * none states a version (a dynamic version, say).
 */
function packageMajor(root: string, packaging: readonly string[]): { major: number; from: string } | undefined {
  const found: Array<{ major: number; from: string; commands: boolean }> = [];
  for (const file of packaging) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (base !== 'package.json' && base !== 'pyproject.toml') continue;
    const text = readText(root, file);
    if (text === undefined) continue;
    let version: string | undefined;
    let commands = false;
    if (base === 'package.json') {
      try {
        const pkg = JSON.parse(text) as { version?: unknown; bin?: unknown; private?: unknown };
        if (typeof pkg.version === 'string') version = pkg.version;
        commands = pkg.bin !== undefined;
      } catch {
        continue;
      }
    } else {
      version = /^\[(?:project|tool\.poetry)\][^[]*?^version\s*=\s*["']([^"']+)["']/ms.exec(text)?.[1];
      commands = /^\[(?:project\.scripts|tool\.poetry\.scripts|project\.entry-points\.console_scripts)\]/m.test(text);
    }
    const m = version === undefined ? undefined : major(version);
    if (m !== undefined && !(m === 0 && version === '0.0.0')) found.push({ major: m, from: `${file} \`version\` ${version!}`, commands });
  }
  const pick = found.some((f) => f.commands) ? found.filter((f) => f.commands) : found;
  return pick.sort((a, b) => b.major - a.major)[0];
}

/** A version without its prefixes, lowercased (`@v2` → `2`, `version-1.2` → `1.2`, `V3.x` → `3.x`): two names are the same version when their bare forms are equal. */
function bareVersion(s: string): string {
  return s.replace(/^(@|version-)/i, '').replace(/^v(?=\d)/i, '').toLowerCase();
}

/** Whether a version folder and a version name are the same version (`v2` and `2`, `version-1.2` and `v1.2`). */
function sameVersion(folder: string, name: string): boolean {
  return bareVersion(folder) === bareVersion(name);
}

/**
 * Which plain version folders of one docs folder (`docs/v2`, `docs/6.x`) document an older
 * release, and what is checked instead: the Mintlify config's word first, then the package
 * version, then (only when no page sits outside the version folders) the highest folder.
 */
function olderFolders(root: string, family: string, members: ReadonlyArray<[string, Tree]>, unversioned: boolean, packaging: readonly string[], json: JsonFiles): { older: Set<string>; current: string; from: string } {
  const older = new Set<string>();
  const mint = mintlifyVersions(root, family, json);
  if (mint) {
    // Each version's bare name once, then one lookup per folder: O(folders + versions). Comparing
    // every folder with every version (a copy of the key list and two bare() a pair) took 18 s
    // (s27 sweep2 D5: 589 KB mint.json of 60,001 versions, 2,000 folders: 18.2 s CPU -> 0.4 s).
    const others = new Set<string>();
    for (const k of mint.others.keys()) others.add(bareVersion(k));
    const current = bareVersion(mint.current);
    for (const [dir, tree] of members) {
      const folder = bareVersion(tree.folder);
      if (others.has(folder) && folder !== current) older.add(dir);
    }
    return { older, current: mint.current === '' ? family : join(family, mint.current), from: mint.from };
  }
  const pkg = packageMajor(root, packaging);
  if (pkg) {
    for (const [dir, tree] of members) {
      const m = major(tree.version);
      if (m !== undefined && m < pkg.major) older.add(dir);
    }
    const newest = [...members].filter(([dir]) => !older.has(dir)).sort((a, b) => compareVersions(b[1].version, a[1].version))[0];
    return { older, current: unversioned || !newest ? family : newest[0], from: pkg.from };
  }
  if (unversioned) return { older, current: family, from: 'no version named current (a version folder beside unversioned pages is checked)' };
  const highest = [...members].sort((a, b) => compareVersions(b[1].version, a[1].version))[0]!;
  for (const [dir] of members) if (dir !== highest[0]) older.add(dir);
  return { older, current: highest[0], from: 'the highest version' };
}

/** Whether a setting's version name picks this tree: its folder name, or its version with or without a `v`/`@`. */
function named(tree: Tree, names: readonly string[]): boolean {
  const bare = (s: string): string => s.replace(/^(@|version-)/, '').replace(/^v(?=\d)/i, '').toLowerCase();
  return names.some((n) => n === tree.folder || bare(n) === bare(tree.version));
}

/**
 * Splits the discovered documents into the ones to check and the version trees to skip.
 * Reads the engines' version files (`versions.yaml`, `fern/docs.yml`, `docusaurus.config.*`,
 * `versions.json`) under `root`; a missing or malformed one falls back to the highest version.
 * Never throws on project input.
 *
 * @param root absolute project root
 * @param docs project-relative POSIX paths of the discovered documents
 * @param setting the config's `versions`
 * @param packaging project-relative manifests (`package.json`, `pyproject.toml`) whose `version`
 *   tells an older plain version folder (`docs/6.x` beside a 7.x package)
 * @param mapped the config's own document globs (`reference`, `globalFiles`): a version folder
 *   one of them points into (`docs/v2/**`) is checked
 */
export function selectDocVersions(root: string, docs: readonly string[], setting: VersionsSetting = 'current', packaging: readonly string[] = [], mapped: readonly string[] = []): VersionSelection {
  // A version folder the config's own globs point into (`reference: ["docs/v2/**"]`) is the user's choice: checked.
  const isMapped = (dir: string): boolean => mapped.some((g) => g.replace(/^\.\//, '').startsWith(`${dir}/`));
  const trees = new Map<string, { tree: Tree; files: string[] }>();
  const treeOfFile = new Map<string, string>();
  for (const file of docs) {
    const tree = treeOf(file);
    if (!tree) continue;
    const folderPath = tree.engine === 'docusaurus' ? join(join(tree.family, 'versioned_docs'), tree.folder) : join(tree.family, tree.folder);
    const entry = trees.get(folderPath) ?? { tree, files: [] };
    entry.files.push(file);
    trees.set(folderPath, entry);
    treeOfFile.set(file, folderPath);
  }
  const pages = olderPageCopies(root, docs, setting, packaging, mapped);
  if (trees.size === 0) return { docs: docs.filter((f) => !pages.skip.has(f)), families: pages.families };

  const byFamily = new Map<string, Array<[string, Tree]>>();
  for (const [dir, { tree }] of trees) {
    const key = `${tree.engine}\0${tree.family}`;
    // Appended in place: copying the list for each tree was O(trees^2) for one big family.
    const list = byFamily.get(key);
    if (list) list.push([dir, tree]);
    else byFamily.set(key, [[dir, tree]]);
  }
  // Folders holding a page outside every version tree, at any depth: one pass over the documents
  // instead of one per family (O(families x docs)).
  const unversionedDirs = new Set<string>();
  for (const f of docs) {
    if (treeOfFile.has(f)) continue;
    for (let i = f.lastIndexOf('/'); i > 0; i = f.lastIndexOf('/', i - 1)) {
      const dir = f.slice(0, i);
      if (unversionedDirs.has(dir)) break;
      unversionedDirs.add(dir);
    }
  }
  const skip = new Set<string>();
  const families: VersionFamily[] = [];
  const json = jsonFiles();
  for (const members of byFamily.values()) {
    const { engine, family } = members[0]![1];
    if (engine === 'folder') {
      const unversioned = unversionedDirs.has(family);
      const chosen = olderFolders(root, family, members, unversioned, packaging, json);
      const skipped: VersionFamily['skipped'] = [];
      for (const [dir, tree] of members) {
        if (!chosen.older.has(dir) || setting === 'all' || (Array.isArray(setting) && named(tree, setting)) || isMapped(dir)) continue;
        skip.add(dir);
        skipped.push({ dir, docs: trees.get(dir)!.files.length });
      }
      skipped.sort((a, b) => a.dir.localeCompare(b.dir));
      families.push({ engine, dir: family, current: chosen.current, currentFrom: chosen.from, skipped });
      continue;
    }
    const named_ = namedCurrent(root, engine, family);
    const highest = [...members].sort((a, b) => compareVersions(b[1].version, a[1].version))[0]!;
    let current: [string, Tree] | undefined;
    let currentFrom: string;
    let currentDir: string;
    if (named_?.version === 'current') {
      currentDir = join(family, 'docs');
      currentFrom = named_.from;
    } else {
      current = named_ ? members.find(([, t]) => named(t, [named_.version])) : undefined;
      currentFrom = current ? named_!.from : 'the highest version';
      current ??= highest;
      currentDir = current[0];
    }
    const skipped: VersionFamily['skipped'] = [];
    for (const [dir, tree] of members) {
      if (dir === currentDir || setting === 'all' || (Array.isArray(setting) && named(tree, setting)) || isMapped(dir)) continue;
      skip.add(dir);
      skipped.push({ dir, docs: trees.get(dir)!.files.length });
    }
    skipped.sort((a, b) => a.dir.localeCompare(b.dir));
    families.push({ engine, dir: engine === 'docusaurus' ? join(family, 'versioned_docs') : family, current: currentDir, currentFrom, skipped });
  }
  families.push(...pages.families);
  families.sort((a, b) => a.dir.localeCompare(b.dir));
  return { docs: docs.filter((f) => !skip.has(treeOfFile.get(f) ?? '') && !pages.skip.has(f)), families };
}

/** A page named with a version beside the same page without one: `configuration-v1.md`, `api_v2.mdx`, `setup.v1.md` (`s`: its folders' names may hold a line break, #33 kind 13). */
const PAGE_VERSION_RE = /^(.*?)[-_.]v(\d+)(\.mdx?)$/is;

/**
 * Older versions of single pages kept beside the current one (`docs/configuration-v1.md` next to
 * `docs/configuration.md`, "the legacy v1 format"): the page without a version in its name is the
 * current one, unless the number is the package's major version (a `-v3` page in a 3.x package
 * is kept). Skipped like older version folders, with the same `versions` setting
 * and config globs to check them anyway.
 */
function olderPageCopies(
  root: string,
  docs: readonly string[],
  setting: VersionsSetting,
  packaging: readonly string[],
  mapped: readonly string[],
): { skip: Set<string>; families: VersionFamily[] } {
  const skip = new Set<string>();
  const families: VersionFamily[] = [];
  if (setting === 'all') return { skip, families };
  const present = new Set(docs);
  let pkg: { major: number; from: string } | undefined | null = null;
  const isMapped = mapped.length > 0 ? pathMatcher(mapped.map((g) => g.replace(/^\.\//, '')), { dot: true }) : () => false;
  for (const file of docs) {
    const m = PAGE_VERSION_RE.exec(file);
    if (!m) continue;
    const plain = `${m[1]!}${m[3]!}`;
    if (!present.has(plain)) continue;
    const version = Number(m[2]);
    if (Array.isArray(setting) && setting.some((name) => sameVersion(`v${version}`, name))) continue;
    if (isMapped(file)) continue;
    if (pkg === null) pkg = packageMajor(root, packaging);
    // The number may version the package (a `-v3` page of a 3.x package is current) or a format
    // (settings "v1" of a 0.x package): only the package's own major keeps the numbered page.
    if (pkg !== undefined && version === pkg.major) continue;
    skip.add(file);
    families.push({ engine: 'page', dir: plain, current: plain, currentFrom: pkg ? pkg.from : 'the page without a version in its name', skipped: [{ dir: file, docs: 1 }] });
  }
  return { skip, families };
}

/** One run note per family that had trees skipped (see `runNotes`), e.g. "skipped 1 non-current version of the docs: docs/@v1 (120 files) …". */
export function versionNotes(families: readonly VersionFamily[]): string[] {
  return families
    .filter((f) => f.skipped.length > 0)
    .map((f) => {
      const list = f.skipped.slice(0, 5).map((s) => `${s.dir} (${s.docs} file${s.docs === 1 ? '' : 's'})`);
      const more = f.skipped.length > 5 ? `, and ${f.skipped.length - 5} more` : '';
      const n = f.skipped.length;
      return (
        `skipped ${n} non-current version${n === 1 ? '' : 's'} of the docs: ${list.join(', ')}${more}; checked ${f.current} (current version: ${f.currentFrom}). ` +
        'Set "versions": "all" (or a list of version names) in the config to check them too.'
      );
    });
}
