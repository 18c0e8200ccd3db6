/** The URLs where a project publishes its docs, as its docs-site and package configs declare them. */
import path from 'node:path';
import type { InputDiagnostic } from '../model/types.js';
import { readProjectFileOrNote } from '../shared/read-file.js';
import { trimTrailing } from '../shared/strings.js';

/** Folders where a docs site's config usually lives, besides the root. */
const SITE_DIRS = ['', 'docs', 'website', 'doc', 'documentation'];

/** Hosts that serve code, not a project's docs site. */
const CODE_HOSTS_RE = /^https?:\/\/(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|pypi\.org|npmjs\.com|www\.npmjs\.com)\//i;


/**
 * The docs-site URLs a project declares: MkDocs/Zensical `site_url` (mkdocs.yml, zensical.toml),
 * Docusaurus `url` + `baseUrl` (docusaurus.config.*, Docusaurus 1's siteConfig.js), Sphinx `html_baseurl` (conf.py), package.json
 * `homepage`, and the `Documentation`/`Homepage` entries of pyproject.toml's `[project.urls]`.
 * Code hosts (GitHub, PyPI, npm) are left out: they serve the repository, not the site. Looked up
 * at the root and in `docs/`, `website/`, `doc/`, `documentation/`. Never throws. Each file is
 * read as a project file ({@link readProjectFileOrNote}: regular, inside the project, capped): one
 * that is refused (a FIFO, a link to `/dev/zero` or outside) adds a `parse-error` warning to
 * `refused`.
 *
 * @param root absolute project root
 * @param refused where refused files' warnings go
 * @returns absolute `http(s)` URLs, each once
 */
export function declaredSiteUrls(root: string, refused?: InputDiagnostic[]): string[] {
  const out = new Set<string>();
  const read = (rel: string): string | undefined => readProjectFileOrNote(root, rel, refused)?.slice(0, 200_000);
  const add = (u: string | undefined): void => {
    const url = u?.trim().replace(/^['"]|['"]$/g, '');
    if (url && /^https?:\/\/[^/\s]+/i.test(url) && !CODE_HOSTS_RE.test(url)) out.add(url);
  };
  for (const dir of SITE_DIRS) {
    const at = (name: string): string | undefined => read(path.join(dir, name));
    for (const name of ['mkdocs.yml', 'mkdocs.yaml']) add(/^site_url:\s*(\S+)/m.exec(at(name) ?? '')?.[1]);
    add(/^site_url\s*=\s*(["'][^"'\n]+["'])/m.exec(at('zensical.toml') ?? '')?.[1]);
    add(/^html_baseurl\s*=\s*(["'][^"'\n]+["'])/m.exec(at('conf.py') ?? '')?.[1]);
    // Docusaurus 2+ (`docusaurus.config.*`) and 1 (`siteConfig.js`).
    for (const name of ['docusaurus.config.js', 'docusaurus.config.ts', 'docusaurus.config.mjs', 'siteConfig.js']) {
      const text = at(name);
      if (!text) continue;
      const url = outermost(text, 'url');
      const base = outermost(text, 'baseUrl') ?? '/';
      if (url) add(trimTrailing(url, '/') + base);
    }
  }
  const pkg = read('package.json');
  if (pkg) {
    try {
      const homepage = (JSON.parse(pkg) as { homepage?: unknown }).homepage;
      if (typeof homepage === 'string') add(homepage);
    } catch {
      // not JSON: nothing declared
    }
  }
  const pyproject = read('pyproject.toml');
  const urls = pyproject && /^\[project\.urls\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1];
  if (urls) for (const m of urls.matchAll(/^["']?(?:documentation|docs|homepage)["']?\s*=\s*(["'][^"'\n]+["'])/gim)) add(m[1]);
  return [...out];
}

/**
 * The string value of the least indented `key: '…'` property of a JavaScript config: the config
 * object's own `url`, not the `url` of a video or a link nested deeper (`siteConfig.js` lists
 * both). Undefined when there is none.
 */
function outermost(text: string, key: string): string | undefined {
  let best: { indent: number; value: string } | undefined;
  for (const m of text.matchAll(new RegExp(`^([ \\t]*)${key}:[ \\t]*['"]([^'"\\n]+)['"]`, 'gm'))) {
    const indent = m[1]!.length;
    if (!best || indent < best.indent) best = { indent, value: m[2]! };
  }
  return best?.value;
}
