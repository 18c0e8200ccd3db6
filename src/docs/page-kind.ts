/**
 * What kind of page a document is, and which parts of a page are history: changelogs, release
 * notes, upgrade and migration guides and blog posts record what changed in past releases (a
 * removed flag, a renamed command), so their lists are no reference of the current code. Pure
 * predicates over the path and the headings.
 */
import type { DocFile, Heading } from '../model/types.js';

/** Changelogs, release notes and blog posts by path (`CHANGELOG.md`, `HISTORY.md`, `blog/`, `_posts/`). */
export const HISTORY_RE = /(?:^|\/)(?:(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES?|RELEASE[-_]NOTES)[^/]*|(?:blog|_posts|release-notes|changelog)\/.*)$/i;

/** Upgrade and migration guides by file name (`upgrade.md`, `UPGRADING.md`, `migration-guide.mdx`, `migrating-to-v3.md`). */
const GUIDE_FILE_RE = /(?:^|\/)(?:upgrad(?:e|es|ing)|migrat(?:e|ion|ing))(?:[-_](?:guides?|notes|to[-_][^/]*|from[-_][^/]*|v?\d[^/]*))?\.(?:md|mdx|markdown)$/i;

/** A page title or heading that opens a history part ("Upgrade Guides", "Migrating from v1", "Breaking changes", "Release notes"). */
const HISTORY_HEADING_RE =
  /^(?:upgrade\s+guides?|upgrading(?:\s+(?:guide|from|to)\b.*)?|migration\s+guides?|migrating\s+(?:from|to)\b.*|migration\s+(?:from|to)\b.*|breaking\s+changes?|change\s*log|changes|release\s+notes|what'?s\s+new(?:\s+in\b.*)?|history|news)\s*$/i;

/** Whether a heading's text opens a history part of a page ("Breaking changes", "Changelog", "Upgrade guide"). */
export function isHistoryHeading(text: string): boolean {
  return HISTORY_HEADING_RE.test(text.trim());
}

/**
 * Whether the whole document is a history page: a changelog, release notes or blog post by its
 * path, an upgrade or migration guide by its file name, or a page whose title (its first
 * top-level heading) names one ("# Upgrade Guides", "# Changelog").
 */
export function isHistoryPage(doc: Pick<DocFile, 'file' | 'headings'>): boolean {
  if (HISTORY_RE.test(doc.file) || GUIDE_FILE_RE.test(doc.file)) return true;
  const title = doc.headings.find((h) => h.depth === 1);
  return title !== undefined && isHistoryHeading(title.text);
}

/**
 * The line ranges of a document's history parts: the blocks under a heading that opens one
 * ("### Breaking changes" and everything up to the next heading of its rank). A line is history
 * when a range holds it.
 *
 * @param blocks the document's heading blocks (heading and last line)
 */
export function historyRanges(blocks: ReadonlyArray<{ heading: Heading; endLine: number }>): Array<[number, number]> {
  return blocks.filter((b) => isHistoryHeading(b.heading.text)).map((b) => [b.heading.location.line, b.endLine]);
}

/** Whether a line lies in one of the ranges of {@link historyRanges}. */
export function inRanges(ranges: ReadonlyArray<[number, number]>, line: number): boolean {
  return ranges.some(([a, b]) => line >= a && line <= b);
}
