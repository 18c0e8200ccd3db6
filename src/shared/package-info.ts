/**
 * docdrift's own package metadata, read once from its `package.json` — the one place the version,
 * the repository and the home page are written. Rule documentation URLs, SARIF's
 * `informationUri` and `--version` all derive from here, so moving the repository is a
 * one-line change in `package.json` (`repository`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { trimTrailing } from './strings.js';

/** The fields of docdrift's `package.json` this module reads. */
interface PackageJson {
  name: string;
  version: string;
  homepage?: string;
  repository?: string | { type?: string; url: string; directory?: string };
}

/**
 * Finds docdrift's `package.json`: two levels above `src/shared/` when run from source (tests) and
 * above `dist/cli/` (the bundle, as installed), three above `dist/src/shared/` when built. Throws
 * when neither exists (a broken install).
 */
function readOwnPackageJson(): { pkg: PackageJson; dir: string } {
  for (const rel of ['../../package.json', '../../../package.json']) {
    const url = new URL(rel, import.meta.url);
    try {
      const pkg = JSON.parse(readFileSync(url, 'utf8')) as PackageJson;
      if (pkg.name === 'docdrift') return { pkg, dir: fileURLToPath(new URL('.', url)) };
    } catch {
      // not this level
    }
  }
  throw new Error(`docdrift's package.json was not found above ${new URL('.', import.meta.url).pathname}`);
}

/**
 * The repository's web address from a `package.json` `repository` field, as npm accepts it:
 * `{ "url": "git+https://github.com/o/r.git" }`, `"https://github.com/o/r"`, `"github:o/r"` or
 * the shorthand `"o/r"`. Returns it without `git+`, `.git` or a trailing slash, with `ssh`/`git`
 * URLs of GitHub turned into `https://github.com/o/r`; `undefined` when there is none.
 */
export function repositoryWebUrl(repository: PackageJson['repository']): string | undefined {
  const raw = typeof repository === 'string' ? repository : repository?.url;
  if (!raw) return undefined;
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (shorthand) return `https://github.com/${shorthand[1]!.replace(/\.git$/, '')}`;
  let url = raw.replace(/^git\+/, '').replace(/\.git$/, '');
  url = trimTrailing(url, '/');
  url = url.replace(/^(?:ssh:\/\/)?git@github\.com[:/]/, 'https://github.com/').replace(/^git:\/\//, 'https://');
  return url;
}

const { pkg, dir } = readOwnPackageJson();

/** The folder holding docdrift's `package.json` (absolute, with a trailing separator): the checkout, or `node_modules/docdrift/` when installed. */
export const PACKAGE_ROOT: string = dir;

/** docdrift's version (`package.json` `version`), e.g. `0.1.0`. */
export const VERSION: string = pkg.version;

/** The repository's web address, e.g. `https://github.com/docdrift/docdrift`. */
export const REPOSITORY_URL: string = repositoryWebUrl(pkg.repository) ?? 'https://www.npmjs.com/package/docdrift';

/** The project's home page (`homepage`, else the repository). */
export const HOMEPAGE_URL: string = pkg.homepage ?? REPOSITORY_URL;
