/** GitHub-style heading anchors: per-document unique slugs and fragment → heading resolution. */

import GithubSlugger, { slug as githubSlug } from 'github-slugger';
import type { DocFile, Heading } from '../model/types.js';

/**
 * Returns a function that gives each heading text its anchor as GitHub renders it: lower-cased,
 * punctuation removed, spaces to `-` (github-slugger, which mirrors GitHub's algorithm), and a
 * `-1`, `-2`… suffix for the second, third… heading with the same slug. Use one per document.
 * Outside spec: GitHub's section links
 * (https://docs.github.com/en/get-started/writing-on-github/getting-started-with-writing-and-formatting-on-github/basic-writing-and-formatting-syntax#section-links).
 */
export function createHeadingSlugger(): (text: string) => string {
  const slugger = new GithubSlugger();
  return (text) => slugger.slug(text);
}

/** The slug of a text without the per-document duplicate suffix (`Foo Bar` → `foo-bar`). */
export function slugOf(text: string): string {
  return githubSlug(text);
}

/**
 * Finds the heading a URL fragment points to in a document. The fragment is matched against
 * heading slugs exactly, then case-insensitively (GitHub's anchor script lower-cases it), with a
 * leading `user-content-` (the prefix GitHub puts on rendered ids) ignored, then against the
 * heading's other anchors (an explicit `{#id}`, a MyST `(label)=`). Returns `undefined`
 * when no heading has that anchor (line anchors such as `L10` never match).
 */
export function findHeadingBySlug(doc: Pick<DocFile, 'headings'>, fragment: string): Heading | undefined {
  const wanted = fragment.startsWith('user-content-') ? fragment.slice('user-content-'.length) : fragment;
  const exact = doc.headings.find((h) => h.slug === wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  return doc.headings.find((h) => h.slug === lower) ?? doc.headings.find((h) => h.anchors?.some((a) => a === wanted || a.toLowerCase() === lower));
}
