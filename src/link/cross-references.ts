/**
 * Links that name their target by a label or a document name rather than a path: MyST and
 * Sphinx cross-reference roles (`` {ref}`label` ``, `` :doc:`usage` ``), and absolute URLs of
 * the project's own published site (`https://tool.example.dev/cli-reference/`).
 */
import { posix } from 'node:path';
import type { DocFile, DocLink } from '../model/types.js';
import { trimTrailing } from '../shared/strings.js';
import { SuffixIndex } from './suffix-index.js';

/**
 * Resolves cross-reference roles in place: a `ref` link to the one document whose heading has
 * that MyST label (`(help-prompt)=` above it) or explicit id, with the label as fragment; a
 * `doc` link to the document it names (relative to the linking page, or from the docs root when
 * it starts with `/`), with `.md`/`.mdx` added. A label that no parsed page (or several) defines
 * stays unresolved.
 *
 * @param docs the parsed documents (their links are mutated; their headings give the labels)
 * @param docFiles every document path of the project
 */
export function resolveCrossReferences(docs: ReadonlyArray<Pick<DocFile, 'file' | 'headings' | 'links'>>, docFiles: readonly string[]): void {
  if (!docs.some((d) => d.links.some((l) => l.role))) return;
  const labels = new Map<string, string | null>();
  for (const doc of docs) {
    for (const h of doc.headings) {
      for (const a of h.anchors ?? []) {
        const key = a.toLowerCase();
        const seen = labels.get(key);
        labels.set(key, seen === undefined || seen === doc.file ? doc.file : null);
      }
    }
  }
  const known = new Set(docFiles);
  let byStem: SuffixIndex | undefined;
  const stems = (): SuffixIndex => {
    if (!byStem) {
      byStem = new SuffixIndex();
      for (const f of docFiles) byStem.add(f.replace(/\.(?:mdx?|rst)$/i, ''), f);
    }
    return byStem;
  };
  for (const doc of docs) {
    for (const link of doc.links) {
      if (!link.role) continue;
      if (link.role === 'ref') {
        const file = labels.get(link.url.toLowerCase());
        if (file) {
          link.targetFile = file;
          link.fragment = link.url;
        }
        continue;
      }
      link.targetFile = docTarget(doc.file, link.url, known, stems);
      if (link.targetFile === undefined) delete link.targetFile;
    }
  }
}

/**
 * The document a `{doc}` role names: `usage` or `../usage` beside the page, `/plugins/index` from
 * the docs root (the one document whose path without extension ends with it, looked up in
 * `stems`, built on first use: filtering every document per role was roles × documents, 2.2 s for
 * 12,000 roles and 1,900 pages, s30 sweep D4).
 */
function docTarget(from: string, name: string, known: ReadonlySet<string>, stems: () => SuffixIndex): string | undefined {
  const bare = name.replace(/\.(?:mdx?|rst)$/i, '');
  if (bare.startsWith('/')) return stems().unique(bare.slice(1).split('/'));
  const base = posix.normalize(posix.join(posix.dirname(from), bare));
  return [`${base}.md`, `${base}.mdx`, `${base}.rst`].find((f) => known.has(f));
}

/**
 * Resolves absolute links to the project's own published site in place: a URL under one of
 * `siteUrls` (`https://tool.example.dev/` → `cli-reference/`, `usage.html#x`) maps to the one
 * document whose path, without extension (and `/index`, `/README`), ends with the rest of the
 * URL's path; a path that ends in `/` names its folder's index page. Read the Docs' language
 * and version prefix (`/en/stable/`) is skipped, and so is a locale segment elsewhere when the
 * route as written matches nothing (Docusaurus 1's `/docs/en/cli`); the route matches a file
 * case-insensitively when nothing matches as written (`cli` → `docs/CLI.md`). Links already
 * resolved are left alone.
 *
 * @param siteUrls the site URLs the project declares (mkdocs.yml `site_url`, …), see the engine
 */
export function resolveSiteUrls(docs: ReadonlyArray<Pick<DocFile, 'links'>>, docFiles: readonly string[], siteUrls: readonly string[]): void {
  const sites = siteUrls.flatMap((u) => {
    try {
      const url = new URL(u);
      return [{ host: url.host.toLowerCase(), path: trimTrailing(url.pathname, '/') }];
    } catch {
      return [];
    }
  });
  if (sites.length === 0) return;
  // Each stem by its suffixes, as written and lower-cased (once each, not per link): filtering
  // every stem per link, lower-cased again each time, was links × documents × path length
  // (s30 sweep D4: 10,000 links, 1,900 pages under a 1,400-character folder: model 10.2 s -> 0.27 s).
  const exact = new SuffixIndex();
  const folded = new SuffixIndex();
  for (const file of docFiles) {
    const stem = file.replace(/\.(?:mdx?|rst)$/i, '').replace(/(?:^|\/)(?:index|README)$/i, '');
    exact.add(stem, file);
    folded.add(stem.toLowerCase(), file);
  }
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile || !/^https?:\/\//i.test(link.url)) continue;
      const target = siteTarget(link, sites, exact, folded);
      if (target) link.targetFile = target;
    }
  }
}

function siteTarget(link: DocLink, sites: ReadonlyArray<{ host: string; path: string }>, exact: SuffixIndex, folded: SuffixIndex): string | undefined {
  let url: URL;
  try {
    url = new URL(link.url);
  } catch {
    return undefined;
  }
  const host = url.host.toLowerCase();
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  const site = sites.find((s) => s.host === host && (pathname === s.path || pathname.startsWith(`${s.path}/`)));
  if (!site) return undefined;
  let parts = pathname.slice(site.path.length).replace(/\.html?$/i, '').split('/').filter(Boolean);
  // Read the Docs serves /<language>/<version>/… (`/en/stable/usage.html`).
  if (parts.length > 2 && /^[a-z]{2}(?:[-_][a-z]{2})?$/i.test(parts[0]!) && /^(?:stable|latest|main|master|dev|v?\d[\w.-]*)$/i.test(parts[1]!)) parts = parts.slice(2);
  if (parts[parts.length - 1]?.toLowerCase() === 'index') parts = parts.slice(0, -1);
  const find = (segments: readonly string[], fold: boolean): string | undefined => {
    const route = segments.join('/');
    if (route === '') return undefined;
    // The route lower-cased whole, as the stems were (then split): the same strings compared.
    return fold ? folded.unique(route.toLowerCase().split('/')) : exact.unique(segments);
  };
  // As written; else with a locale segment left out (Docusaurus 1 serves `/docs/en/cli`); else
  // case-insensitively (a route is the page's id, `cli` for `docs/CLI.md`).
  const locale = parts.findIndex((p, i) => i < parts.length - 1 && LOCALE_RE.test(p));
  const variants = [parts, ...(locale >= 0 ? [[...parts.slice(0, locale), ...parts.slice(locale + 1)]] : [])];
  for (const fold of [false, true]) {
    for (const v of variants) {
      const file = find(v, fold);
      if (file) return file;
    }
  }
  return undefined;
}

/** A locale segment of a docs URL: `en`, `fr`, `pt-BR`, `zh_CN`, `zh-Hans`. */
const LOCALE_RE = /^[a-z]{2}(?:[-_](?:[A-Z]{2}|[A-Z][a-z]{3}))?$/;
