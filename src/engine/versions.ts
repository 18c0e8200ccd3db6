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
 * MkDocs with `mike` keeps older versions on the `gh-pages` branch, not in the source tree, so
 * there is nothing to skip.
 */
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { VersionsSetting } from '../config/schema.js';
import { readRegularFile } from '../shared/read-file.js';


/** The doc engine whose folder layout a version tree follows. */
export type VersionedEngine = 'docusaurus' | 'fern' | 'redocly';

/** One group of version trees of the same docs (one Docusaurus site, one Fern folder, one Redocly folder). */
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
    return readRegularFile(path.join(root, rel), { maxBytes: 1 << 20 });
  } catch {
    return undefined;
  }
}

function readYaml(root: string, rel: string): unknown {
  const text = readText(root, rel);
  if (text === undefined) return undefined;
  try {
    return parseYaml(text);
  } catch {
    return undefined;
  }
}

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
          for (const m of nav.matchAll(/^\s*-?\s*(?:path|folder)\s*:\s*["']?\.\/([^/"'\s]+)\//gm)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
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
 */
export function selectDocVersions(root: string, docs: readonly string[], setting: VersionsSetting = 'current'): VersionSelection {
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
  if (trees.size === 0) return { docs: [...docs], families: [] };

  const byFamily = new Map<string, Array<[string, Tree]>>();
  for (const [dir, { tree }] of trees) {
    const key = `${tree.engine}\0${tree.family}`;
    byFamily.set(key, [...(byFamily.get(key) ?? []), [dir, tree]]);
  }
  const skip = new Set<string>();
  const families: VersionFamily[] = [];
  for (const members of byFamily.values()) {
    const { engine, family } = members[0]![1];
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
      if (dir === currentDir || setting === 'all' || (Array.isArray(setting) && named(tree, setting))) continue;
      skip.add(dir);
      skipped.push({ dir, docs: trees.get(dir)!.files.length });
    }
    skipped.sort((a, b) => a.dir.localeCompare(b.dir));
    families.push({ engine, dir: engine === 'docusaurus' ? join(family, 'versioned_docs') : family, current: currentDir, currentFrom, skipped });
  }
  families.sort((a, b) => a.dir.localeCompare(b.dir));
  return { docs: docs.filter((f) => !skip.has(treeOfFile.get(f) ?? '')), families };
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
