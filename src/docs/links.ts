/** Resolves a link URL written in a document to a project file and a decoded fragment. */

import { posix } from 'node:path';

/** Where a link points: the project-relative target document, if inside the project, and the decoded fragment. */
export interface LinkTarget {
  targetFile?: string;
  fragment?: string;
}

const SCHEME_RE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Resolves `url`, written in the document `file` (project-relative POSIX path).
 *
 * - `#frag` → the document itself, fragment `frag` (percent-decoded, without `#`).
 * - `scheme:…` (`https:`, `mailto:`) and `//host/…` → no target file (fragment kept if any).
 * - a relative path → resolved against the document's directory, query (`?…`) stripped,
 *   percent-decoded, normalised; a path that leaves the project (`../` above the root) or ends
 *   in `/` (a directory: which file it serves is site-specific) → no target file.
 * - a root-relative path (`/docs/x.md`) → project-root-relative only when it names a `.md`/`.mdx`
 *   file; other root-relative paths are site routes (`/docs/intro`) and get no target file.
 * - an empty URL → nothing.
 *
 * Pure; does not check that the target exists (rules do, against the model's documents).
 */
export function resolveLink(file: string, url: string): LinkTarget {
  const hash = url.indexOf('#');
  const fragmentRaw = hash >= 0 ? url.slice(hash + 1) : '';
  const result: LinkTarget = {};
  if (fragmentRaw !== '') result.fragment = decode(fragmentRaw);
  let path = hash >= 0 ? url.slice(0, hash) : url;
  if (SCHEME_RE.test(path) || path.startsWith('//')) return result;
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  let target: string;
  if (path === '') {
    if (hash < 0) return result;
    // A link to a heading of the same page (`#usage`): the page itself, normalised as any target.
    target = posix.normalize(file);
  } else {
    const decoded = decode(path);
    if (decoded.endsWith('/')) return result;
    if (decoded.startsWith('/')) {
      if (!/\.mdx?$/i.test(decoded)) return result;
      target = posix.normalize(decoded.slice(1));
    } else {
      target = posix.normalize(posix.join(posix.dirname(file), decoded));
    }
  }
  if (target === '..' || target.startsWith('../') || target === '.' ) return result;
  result.targetFile = target;
  return result;
}
