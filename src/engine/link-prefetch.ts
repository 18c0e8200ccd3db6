/**
 * Which skipped documents a run will likely parse later because a link points at them (a rule
 * follows the link, `Model.doc` parses the page on demand): guessed from the raw text of the
 * documents that are parsed anyway, so the document worker can parse them while the main thread
 * still extracts code, instead of one by one, each awaited, while the rules run.
 *
 * A guess only decides the order of work: a page guessed and never asked for costs the worker
 * its parse, a page asked for and not guessed is parsed on demand as before. Output never
 * depends on it.
 */
import { resolveLink } from '../docs/links.js';
import { resolveSiteRoutes } from '../link/build.js';
import type { DocLink } from '../model/types.js';

/**
 * Inline Markdown links and images (`[text](url)`, `[text](<url>)`), reference definitions
 * (`[id]: url`) and HTML/JSX `href`/`to` attributes: the URL part. Bounded, so that a long line
 * of brackets costs linear time. A reference label stops at any line terminator (`\r`, U+2028,
 * U+2029 start a line for `^` too): a run of `[\r` cost 200 steps a character (s27 recheck list).
 */
export const LINK_URL_RE = /\]\(\s*<?([^()\s<>]{1,500})|^ {0,3}\[[^\]\n\r\u2028\u2029]{1,200}\]:\s*<?(\S{1,500})|\b(?:href|to)\s*=\s*["']([^"'\s]{1,500})["']/gm;

/**
 * The documents among `candidates` that the links in `sources` point at, each relative link
 * resolved as the docs model does (`resolveLink`), then, as the link stage does
 * (`resolveSiteRoutes`), without extension and by site route (`/reference/cli`, a published
 * `https://docs.example.com/…/reference/cli` URL).
 *
 * @param sources the documents parsed anyway: project-relative path and text
 * @param docFiles every document of the run (the site's pages)
 * @param candidates project-relative paths of the documents not parsed otherwise
 * @returns project-relative paths, each once, in the order their links appear
 */
export function linkedDocuments(sources: ReadonlyArray<{ file: string; text: string }>, docFiles: readonly string[], candidates: ReadonlySet<string>): string[] {
  const pages = sources.map(({ file, text }) => ({
    links: [...text.matchAll(LINK_URL_RE)].map((match): DocLink => {
      const url = match[1] ?? match[2] ?? match[3] ?? '';
      const target = resolveLink(file, url);
      return { file, url, ...(target.targetFile !== undefined ? { targetFile: target.targetFile } : {}), location: { file, line: 1, column: 1 } };
    }),
  }));
  resolveSiteRoutes(pages, docFiles);
  const out = new Set<string>();
  for (const page of pages) for (const link of page.links) if (link.targetFile !== undefined && candidates.has(link.targetFile)) out.add(link.targetFile);
  return [...out];
}
