/** Finds the files a run reads: code sources, docs and Python packaging files, honouring .gitignore. */
import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { globby } from 'globby';
import picomatch from 'picomatch';
import { ALWAYS_IGNORED_GLOBS } from '../config/schema.js';


/** The files of one run, project-relative POSIX paths, sorted. */
export interface DiscoveredFiles {
  sources: string[];
  docs: string[];
  /** `pyproject.toml` and `setup.cfg` files, which declare console scripts, and the root `package.json` (`bin`). */
  packaging: string[];
  /** YAML config files, whose `${key}` interpolations read keys of a Hydra/OmegaConf config. */
  yaml: string[];
}

/** How {@link discoverFiles} lists files: `auto` tries git first and falls back to globby. */
export type DiscoveryStrategy = 'auto' | 'git' | 'globby';

const PACKAGING = ['**/pyproject.toml', '**/setup.cfg', 'package.json'];
const YAML = ['**/*.yaml', '**/*.yml'];

/**
 * Globs the project. Patterns are globby/fast-glob patterns relative to `root`; `.gitignore`
 * files are honoured (as globby `gitignore: true`: every `.gitignore` from the repository root
 * down, not `.git/info/exclude` nor the global excludes file); symbolic links are neither listed
 * nor followed; dot files match only patterns that name the dot.
 *
 * In a git work tree the candidate files come from one `git ls-files` (tracked and untracked,
 * minus what `.gitignore` ignores) and are matched with picomatch, instead of four directory
 * walks by globby, which cost seconds on a NeMo-Gym-sized repository. The result is the same;
 * globby is used whenever git cannot give the same answer: git missing or `root` not in a work
 * tree, submodules or nested repositories (globby walks into them, `git ls-files` does not),
 * or a pattern without glob syntax (globby expands a directory name to everything under it).
 *
 * @param root absolute project root
 * @param sources globs of code files
 * @param docs globs of Markdown/MDX files
 * @param ignore extra globs to skip, added to {@link ALWAYS_IGNORED_GLOBS}
 * @param strategy `auto` (default); `git` or `globby` force one way (tests compare them; `git`
 *   rejects when git cannot be used)
 */
export async function discoverFiles(
  root: string,
  sources: string[],
  docs: string[],
  ignore: string[],
  strategy: DiscoveryStrategy = 'auto',
): Promise<DiscoveredFiles> {
  const ignored = [...ALWAYS_IGNORED_GLOBS, ...ignore];
  if (strategy !== 'globby' && [...sources, ...docs, ...ignore].every(isPlainGlob)) {
    const listed = await gitFiles(root);
    if (listed) {
      const pick = (patterns: string[]): string[] => {
        const positive = patterns.filter((p) => !p.startsWith('!'));
        const negative = [...patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1)), ...ignored];
        // fast-glob's semantics: positive patterns with `dot: false`, negative ones with `dot: true`.
        const included = picomatch(positive, { dot: false });
        const excluded = negative.length > 0 ? picomatch(negative, { dot: true }) : () => false;
        return listed.filter((f) => included(f) && !excluded(f)).sort();
      };
      const found = { sources: pick(sources), docs: pick(docs), packaging: pick(PACKAGING), yaml: pick(YAML) };
      // Deleted tracked files, symbolic links and gitlinks are not regular files: globby skips them.
      const all = [...new Set(Object.values(found).flat())];
      const regular = await Promise.all(all.map((f) => lstat(path.join(root, f)).then((s) => s.isFile(), () => false)));
      const irregular = new Set(all.filter((_, i) => !regular[i]));
      if (irregular.size === 0) return found;
      const keep = (list: string[]): string[] => list.filter((f) => !irregular.has(f));
      return { sources: keep(found.sources), docs: keep(found.docs), packaging: keep(found.packaging), yaml: keep(found.yaml) };
    }
    if (strategy === 'git') throw new Error(`discoverFiles: git cannot list the files of ${root}`);
  }
  const options = {
    cwd: root,
    gitignore: true,
    ignore: ignored,
    followSymbolicLinks: false,
    onlyFiles: true,
    dot: false,
  };
  const [src, doc, pkg, yaml] = await Promise.all([
    globby(sources, options),
    globby(docs, options),
    globby(PACKAGING, options),
    globby(YAML, options),
  ]);
  return { sources: src.sort(), docs: doc.sort(), packaging: pkg.sort(), yaml: yaml.sort() };
}

/** A relative glob with glob syntax in its last segment, which globby does not expand as a directory. */
function isPlainGlob(pattern: string): boolean {
  const p = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  if (p === '' || p.startsWith('/') || p.startsWith('./') || p.startsWith('../') || p.includes('\\')) return false;
  return picomatch.scan(p.split('/').at(-1) ?? '').isGlob;
}

function git(root: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

/**
 * The files under `root` that git tracks or sees untracked, without those a `.gitignore`
 * ignores (tracked ones included, as globby drops them), root-relative POSIX paths; undefined
 * when git cannot give the same list as globby (see {@link discoverFiles}).
 */
async function gitFiles(root: string): Promise<string[] | undefined> {
  try {
    const top = (await git(root, ['rev-parse', '--show-toplevel'])).trim();
    const exclude = '--exclude-per-directory=.gitignore';
    const [listed, ignoredTracked, modules] = await Promise.all([
      git(root, ['ls-files', '-z', '--cached', '--others', exclude]),
      git(root, ['ls-files', '-z', '--cached', '--ignored', exclude]),
      lstat(path.join(top, '.gitmodules')).then(() => true, () => false),
    ]);
    if (modules) return undefined;
    const drop = new Set(ignoredTracked.split('\0'));
    const files = [...new Set(listed.split('\0'))].filter((f) => f !== '' && !drop.has(f));
    if (files.some((f) => f.endsWith('/'))) return undefined; // a nested repository
    return files;
  } catch {
    return undefined;
  }
}
