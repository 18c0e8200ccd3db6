/**
 * The suffix index of site routes (src/link/suffix-index.ts) and the link resolvers built on it:
 * the same targets as the string-filtering resolvers they replace (copied below as they were,
 * s30 sweep D4, D6, D7), on real-shaped and random documents and links.
 */
import { describe, expect, it } from 'vitest';
import { resolveSiteRoutes } from '../src/link/build.js';
import { resolveCrossReferences, resolveSiteUrls } from '../src/link/cross-references.js';
import { SuffixIndex } from '../src/link/suffix-index.js';
import type { DocLink } from '../src/model/types.js';
import { trimTrailing } from '../src/shared/strings.js';

const link = (file: string, url: string, targetFile?: string): DocLink => ({ file, url, ...(targetFile ? { targetFile } : {}), location: { file, line: 1, column: 1 } });

// ---- The resolvers before the index (src/link/build.ts and cross-references.ts at c27b23f). ----

function oldSuffixes(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(i + 1).join('/'));
}

function oldResolveSiteRoutes(docs: ReadonlyArray<{ links: DocLink[] }>, docFiles: readonly string[]): void {
  const known = new Set(docFiles);
  const byStem = new Map<string, string[]>();
  for (const file of docFiles) {
    const stem = file.replace(/\.(?:mdx?|rst)$/i, '').replace(/\/(index|README)$/i, '');
    for (const key of [stem, ...oldSuffixes(stem)]) {
      const list = byStem.get(key) ?? [];
      list.push(file);
      byStem.set(key, list);
    }
  }
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile && known.has(link.targetFile)) continue;
      if (/^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//.test(link.url)) continue;
      const cut = link.url.search(/[#?]/);
      let route = cut >= 0 ? link.url.slice(0, cut) : link.url;
      try {
        route = decodeURIComponent(route);
      } catch {
        // keep the raw route
      }
      route = trimTrailing(route.replace(/^\.?\//, ''), '/').replace(/\.html?$/i, '');
      if (link.targetFile && !known.has(link.targetFile)) {
        const base = link.targetFile.replace(/\.html?$/i, '');
        const ext = [`${base}.md`, `${base}.mdx`].filter((f) => known.has(f));
        if (ext.length === 1) {
          link.targetFile = ext[0];
          continue;
        }
      }
      if (route === '') continue;
      if (link.url.startsWith('/')) {
        const matches = byStem.get(route);
        if (matches && matches.length === 1) link.targetFile = matches[0];
      }
    }
  }
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile || !/^https?:\/\//i.test(link.url)) continue;
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(link.url).pathname);
      } catch {
        continue;
      }
      const parts = pathname.replace(/\.(html?|mdx?)$/i, '').split('/').filter(Boolean);
      for (let i = 0; i <= parts.length - 2; i++) {
        const matches = byStem.get(parts.slice(i).join('/'));
        if (matches && matches.length === 1) {
          link.targetFile = matches[0];
          break;
        }
      }
    }
  }
}

const LOCALE_RE = /^[a-z]{2}(?:[-_](?:[A-Z]{2}|[A-Z][a-z]{3}))?$/;

function oldResolveSiteUrls(docs: ReadonlyArray<{ links: DocLink[] }>, docFiles: readonly string[], siteUrls: readonly string[]): void {
  const sites = siteUrls.flatMap((u) => {
    const url = new URL(u);
    return [{ host: url.host.toLowerCase(), path: trimTrailing(url.pathname, '/') }];
  });
  const stems = docFiles.map((f) => ({ file: f, stem: f.replace(/\.(?:mdx?|rst)$/i, '').replace(/(?:^|\/)(?:index|README)$/i, '') }));
  for (const doc of docs) {
    for (const link of doc.links) {
      if (link.targetFile || !/^https?:\/\//i.test(link.url)) continue;
      const target = oldSiteTarget(link, sites, stems);
      if (target) link.targetFile = target;
    }
  }
}

function oldSiteTarget(link: DocLink, sites: ReadonlyArray<{ host: string; path: string }>, stems: ReadonlyArray<{ file: string; stem: string }>): string | undefined {
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
  if (parts.length > 2 && /^[a-z]{2}(?:[-_][a-z]{2})?$/i.test(parts[0]!) && /^(?:stable|latest|main|master|dev|v?\d[\w.-]*)$/i.test(parts[1]!)) parts = parts.slice(2);
  if (parts[parts.length - 1]?.toLowerCase() === 'index') parts = parts.slice(0, -1);
  const find = (segments: readonly string[], fold: boolean): string | undefined => {
    const route = segments.join('/');
    if (route === '') return undefined;
    const key = fold ? route.toLowerCase() : route;
    const matches = stems.filter((s) => {
      const stem = fold ? s.stem.toLowerCase() : s.stem;
      return stem === key || stem.endsWith(`/${key}`);
    });
    return matches.length === 1 ? matches[0]!.file : undefined;
  };
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

function oldDocTarget(name: string, docFiles: readonly string[]): string | undefined {
  const bare = name.replace(/\.(?:mdx?|rst)$/i, '');
  const tail = bare.slice(1);
  const matches = docFiles.filter((f) => f.replace(/\.(?:mdx?|rst)$/i, '') === tail || f.replace(/\.(?:mdx?|rst)$/i, '').endsWith(`/${tail}`));
  return matches.length === 1 ? matches[0] : undefined;
}

// ---- Inputs. ----

/** A small deterministic generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = ['docs', 'Docs', 'reference', 'cli', 'CLI', 'guide', 'en', 'pt-BR', 'stable', 'v2', 'index', 'README', 'setup', 'ΣΑΣ', 'σας', 'İx', 'a b', ''];
const EXTENSIONS = ['.md', '.mdx', '.rst', '.MD', '.md'];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)]!;
}

function segments(next: () => number, max: number): string[] {
  return Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(next, SEGMENTS));
}

function docFiles(next: () => number): string[] {
  const files = Array.from({ length: 1 + Math.floor(next() * 14) }, () => {
    const segs = segments(next, 5).filter((s, i, all) => s !== '' || i < all.length - 1);
    return `${segs.join('/') || 'page'}${pick(next, EXTENSIONS)}`;
  });
  if (next() < 0.2) files.push(files[0]!); // a path listed twice is ambiguous
  return files;
}

function urls(next: () => number, files: readonly string[]): Array<[string, string | undefined]> {
  return Array.from({ length: 30 }, (): [string, string | undefined] => {
    const file = pick(next, files);
    const stem = file.replace(/\.[^./]+$/, '');
    const tail = stem.split('/').slice(Math.floor(next() * 3)).join('/');
    const route = next() < 0.5 ? tail : segments(next, 4).join('/');
    const suffix = pick(next, ['', '.html', '/', '#x', '?q=1', '.md', '/index']);
    switch (Math.floor(next() * 5)) {
      case 0:
        return [`/${route}${suffix}`, undefined];
      case 1:
        return [`https://tool.example.dev/${pick(next, ['', 'en/stable/', 'docs/en/', 'docs/pt-BR/', 'x/y/'])}${route}${suffix}`, undefined];
      case 2:
        return [`https://other.example.org/a/${route}${suffix}`, undefined];
      case 3:
        return [`./${route}${suffix}`, `${route}${suffix}`];
      default:
        return [`https://tool.example.dev/${encodeURI(route)}`, undefined];
    }
  });
}

describe('SuffixIndex', () => {
  it('finds the one path ending with a route, segment by segment, and the longest unique suffix', () => {
    const index = new SuffixIndex();
    for (const p of ['docs/reference/cli', 'site/reference/cli', 'docs/guide/setup', 'setup']) index.add(p, `${p}.md`);
    expect(index.unique(['cli'])).toBeUndefined(); // two paths end with it
    expect(index.unique(['docs', 'reference', 'cli'])).toBe('docs/reference/cli.md');
    expect(index.unique(['guide', 'setup'])).toBe('docs/guide/setup.md');
    expect(index.unique(['setup'])).toBeUndefined();
    expect(index.unique(['ference', 'cli'])).toBeUndefined(); // not at a segment boundary
    expect(index.unique([])).toBeUndefined();
    expect(index.longestUnique(['x', 'y', 'docs', 'reference', 'cli'], 2)).toBe('docs/reference/cli.md');
    expect(index.longestUnique(['x', 'reference', 'cli'], 2)).toBeUndefined();
    expect(index.longestUnique(['x', 'guide', 'setup'], 2)).toBe('docs/guide/setup.md');
    expect(index.longestUnique(['x', 'setup'], 1)).toBeUndefined();
  });

  it('looks up a route of 60,000 segments in linear time (s30 sweep D6)', () => {
    const index = new SuffixIndex();
    index.add('docs/a/z', 'docs/a/z.md');
    const parts = [...Array.from({ length: 60_000 }, () => 'a'), 'z'];
    expect(index.longestUnique(parts, 2)).toBe('docs/a/z.md');
    expect(index.unique(parts)).toBeUndefined();
  });
});

describe('link resolution by route, parity with the string-filtering resolvers', () => {
  it('resolveSiteRoutes, resolveSiteUrls and {doc} roles give the same targets on random projects', () => {
    const resolved = [0, 0, 0];
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const files = docFiles(next);
      const given = urls(next, files);
      const make = (): DocLink[] => given.map(([url, target]) => link('README.md', url, target));
      const [before, after] = [{ links: make() }, { links: make() }];
      oldResolveSiteRoutes([before], files);
      resolveSiteRoutes([after], files);
      expect(after.links.map((l) => l.targetFile), `seed ${seed}: ${JSON.stringify(files)}`).toEqual(before.links.map((l) => l.targetFile));
      resolved[0]! += after.links.filter((l, i) => l.targetFile !== undefined && l.targetFile !== given[i]![1]).length;

      const [sitesBefore, sitesAfter] = [{ links: make() }, { links: make() }];
      oldResolveSiteUrls([sitesBefore], files, ['https://tool.example.dev/']);
      resolveSiteUrls([sitesAfter], files, ['https://tool.example.dev/']);
      expect(sitesAfter.links.map((l) => l.targetFile), `seed ${seed}: ${JSON.stringify(files)}`).toEqual(sitesBefore.links.map((l) => l.targetFile));
      resolved[1]! += sitesAfter.links.filter((l, i) => l.targetFile !== undefined && l.targetFile !== given[i]![1]).length;

      const names = given.map(([url]) => `/${url.replace(/^[a-z]+:\/\/[^/]+\//, '').replace(/^\.?\//, '').replace(/[#?].*$/, '')}`);
      const roles = { file: 'docs/page.md', headings: [], links: names.map((name): DocLink => ({ ...link('docs/page.md', name), role: 'doc' })) };
      resolveCrossReferences([roles], files);
      expect(roles.links.map((l) => l.targetFile), `seed ${seed}`).toEqual(names.map((name) => oldDocTarget(name, files)));
      resolved[2]! += roles.links.filter((l) => l.targetFile !== undefined).length;
    }
    // The inputs reach every way of matching, not only misses.
    for (const n of resolved) expect(n).toBeGreaterThan(500);
  });

  it('resolves the real-shaped links of a Fern, MkDocs and Read the Docs site as before', () => {
    const files = ['fern/pages/reference/cli-commands.mdx', 'fern/pages/get-started/index.mdx', 'docs/setup/README.md', 'a/intro.md', 'b/intro.md', 'docs/CLI.md', 'docs/cli-reference/index.md', 'docs/cli-reference/base.md', 'docs/en/intro.md'];
    const given = [
      '/reference/cli-commands#ng_run', '/get-started/', '/docs/setup', '/intro', 'https://docs.example.com/nemo/gym/main/reference/cli-commands#ng_run',
      'https://tool.example.dev/en/stable/cli-reference/base.html', 'https://tool.example.dev/docs/en/cli', 'https://tool.example.dev/cli-reference/', 'https://tool.example.dev/setup.html',
    ];
    const [before, after] = [{ links: given.map((u) => link('README.md', u)) }, { links: given.map((u) => link('README.md', u)) }];
    oldResolveSiteRoutes([before], files);
    oldResolveSiteUrls([before], files, ['https://tool.example.dev']);
    resolveSiteRoutes([after], files);
    resolveSiteUrls([after], files, ['https://tool.example.dev']);
    expect(after.links.map((l) => l.targetFile)).toEqual(before.links.map((l) => l.targetFile));
    expect(after.links.map((l) => l.targetFile)).toEqual([
      'fern/pages/reference/cli-commands.mdx', 'fern/pages/get-started/index.mdx', 'docs/setup/README.md', undefined, 'fern/pages/reference/cli-commands.mdx',
      'docs/cli-reference/base.md', 'docs/CLI.md', 'docs/cli-reference/index.md', 'docs/setup/README.md',
    ]);
  });
});
