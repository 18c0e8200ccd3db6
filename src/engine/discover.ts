/** Finds the files a run reads: code sources, docs and Python packaging files, honouring .gitignore. */
import { globby } from 'globby';
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

/**
 * Globs the project. Patterns are globby/fast-glob patterns relative to `root`; `.gitignore`
 * files are honoured (globby `gitignore: true`); symbolic links are not followed.
 *
 * @param root absolute project root
 * @param sources globs of code files
 * @param docs globs of Markdown/MDX files
 * @param ignore extra globs to skip, added to {@link ALWAYS_IGNORED_GLOBS}
 */
export async function discoverFiles(root: string, sources: string[], docs: string[], ignore: string[]): Promise<DiscoveredFiles> {
  const options = {
    cwd: root,
    gitignore: true,
    ignore: [...ALWAYS_IGNORED_GLOBS, ...ignore],
    followSymbolicLinks: false,
    onlyFiles: true,
    dot: false,
  };
  const [src, doc, pkg, yaml] = await Promise.all([
    globby(sources, options),
    globby(docs, options),
    globby(['**/pyproject.toml', '**/setup.cfg', 'package.json'], options),
    globby(['**/*.yaml', '**/*.yml'], options),
  ]);
  return { sources: src.sort(), docs: doc.sort(), packaging: pkg.sort(), yaml: yaml.sort() };
}
