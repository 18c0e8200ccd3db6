/**
 * What kind of page a document is, by its path and title, and which parts of a page are history:
 * change logs, release notes and blog posts record what changed in past releases (a removed flag,
 * a renamed command), so their examples are of their time and their lists are no reference of the
 * current code; upgrade and migration guides teach a current step but list old names beside new
 * ones; guides for the tool's own contributors and fragments other pages include are not where a
 * user learns a flag. Pure predicates over the path, the title and the headings.
 */
import type { DocFile, Heading } from '../model/types.js';

/** Base names of change logs and release notes (`CHANGELOG.md`, `HISTORY.md`, `release-notes.mdx`, `NEWS.md`). */
const HISTORY_BASE_RE = /^(?:change[-_ ]?log|changes|history|news|release[-_ ]?notes|releases?)(?:[-_.](?:v?\d[\w.-]*|old|archive))?\.(?:mdx?|rst|txt)$/i;
/** Titles of such pages (`Changelog`, `Release notes`, `Release history`). */
const HISTORY_TITLE_RE = /^(?:change ?log|changes|history|release (?:notes|history)|releases|news)$/i;
/** A dated post's file name, as Jekyll, Hugo and Docusaurus blogs write it (`2024-03-08-claude-3.md`). */
const DATED_RE = /^\d{4}-\d{2}-\d{2}[-_]/;
/**
 * Folders of blog posts and release notes: Jekyll's `_posts/`, `blog/` (Docusaurus, Starlight,
 * Hugo), `release-notes/`, `changelog/`, towncrier's news fragments (`changelog.d/`,
 * `newsfragments/`), and notes of one major version (`v3-notes/`).
 */
const BLOG_DIR_RE = /(?:^|\/)(?:_posts|blog|blogs|release[-_]notes|changelog|changelog\.d|changes\.d|news\.d|newsfragments|v\d+[-_]notes)\//i;
/**
 * A page per release in a folder of them (Sphinx's `doc/changes/2.0.rst`, `releases/v1.4.md`,
 * `whatsnew/3.1.rst`): its file name is the version. `\d+\.\d[\w.-]*` is `\d+(?:\.\d+)+[\w.-]*` with
 * its overlapping runs merged (that one backtracked quadratically on a long digit run, s27).
 */
export const RELEASE_PAGE_RE = /(?:^|\/)(?:changes|changelog|releases?|release[-_]notes|news|history|whatsnew|whats[-_]new)\/v?\d+\.\d[\w.-]*\.(?:mdx?|rst|txt)$/i;

/**
 * Whether a document records history rather than describing the tool as it is now: a change log
 * or release notes (`CHANGELOG.md`, `docs/changelog.md`, `release-notes.md` at any depth — when
 * `headings` are given, only if the page reads like one, see {@link recordsReleases} — or a page
 * titled "Changelog"), or a blog post (a page under `_posts/` or `blog/`, or a file named by its date,
 * `2024-03-08-claude-3.md`). Such pages are frozen once published: nobody adds reference links
 * to a release post, and the flags they show may be the flags of their time.
 *
 * Migration and upgrade guides are not history in this sense: they teach a current step.
 *
 * @param file project-relative POSIX path
 * @param title the page's first heading or front-matter title, if known
 * @param headings the texts of the page's headings, in order, when known
 */
export function isHistoricalPage(file: string, title?: string, headings?: readonly string[]): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (DATED_RE.test(base) || BLOG_DIR_RE.test(file) || RELEASE_PAGE_RE.test(file)) return true;
  if (HISTORY_BASE_RE.test(base)) return headings === undefined || recordsReleases(title, headings);
  return title !== undefined && HISTORY_TITLE_RE.test(title.trim());
}

/**
 * A heading naming a release: a version (`1.2.3`, `v2.0.0-beta.1`, `[1.2.3](…)`, `Version 2.1`,
 * `create-vite@6.5.0`), `Unreleased`, or a date (`2024-03-08`, `March 8, 2024`). A test only:
 * `\d+\.\d[\w.+]*` accepts what `\d+\.\d+[\w.+-]*` did (a `-` in the version ends it as the
 * `[(:—–-]` after it), without runs that overlap (quadratic on `0.0` and 100,000 digits, s27).
 */
export const RELEASE_HEADING_RE =
  /^\[?(?:v|version\s+|release\s+|[\w@/.-]+@)?\d+\.\d[\w.+]*\]?(?:\s|$|[(:—–-])|^\[?unreleased\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b/i;

/** A version at the start of a heading, as {@link RELEASE_HEADING_RE} reads one (`v1.2.0`, `[1.2.0]`, `Version 2.1`, `pkg@6.5.0`). */
const VERSION_LEAD_RE = /^\[?(?:v|version\s+|release\s+|[\w@/.-]+@)?\d+\.\d[\w.+]*\]?/i;
/** What may follow the version of a heading that names only a release: a date or note after a separator, or a release word. */
const AFTER_VERSION_RE = /^(?:$|[(:—–\-[]|(?:release[sd]?|beta|alpha|rc\d*|lts|final|stable)\b)/i;
/** `Unreleased` or a date at the start of a heading (`2024-03-08`, `March 8, 2024`). */
const DATE_LEAD_RE = /^\[?(?:unreleased\b|\d{4}-\d{2}-\d{2}\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b)/i;

/**
 * Whether a heading names a release and nothing else: a version alone or followed by a date, a
 * name or a note after a separator (`## [1.2.0] - 2024-03-08`, `## v2.0.0 (2024-01-01)`,
 * `## 2.1 release`), `Unreleased`, or a date. Stricter than {@link RELEASE_HEADING_RE}, for a page
 * whose name does not say it is a change log: `### v2.0 options` heads a versioned reference's
 * table (s37 sweep D5).
 */
export function isReleaseHeading(text: string): boolean {
  const trimmed = text.trim();
  const version = VERSION_LEAD_RE.exec(trimmed);
  if (version) return AFTER_VERSION_RE.test(trimmed.slice(version[0].length).trim());
  return DATE_LEAD_RE.test(trimmed);
}

/**
 * Whether a page named like a change log (`CHANGELOG.md`, `changelog.md`, `news.md`) reads like
 * one: its title says so ("Changelog", "Release notes"), a heading names a release (a version or
 * a date, {@link RELEASE_HEADING_RE}), or it has no headings at all (a bare list of changes). A
 * page of that name whose headings are something else — oclif's generated
 * `docs/commands/changelog.md` for a `changelog` command (`` ## `rdme changelog upload PATH` ``)
 * — is a page like any other.
 */
function recordsReleases(title: string | undefined, headings: readonly string[]): boolean {
  if (headings.length === 0) return true;
  if (title !== undefined && (HISTORY_TITLE_RE.test(title.trim()) || isHistoryHeading(title))) return true;
  return headings.some((h) => RELEASE_HEADING_RE.test(h.trim()));
}

/** Folders of fragments that other pages include: Jekyll `_includes/`, `_partials/`, `partials/`, Mintlify `snippets/`. */
const PARTIAL_DIR_RE = /(?:^|\/)(?:_includes|_partials|partials|snippets)\//i;

/**
 * Whether a document is a fragment that other pages include rather than a page of its own:
 * a file under Jekyll's `_includes/`, a `_partials/` or `partials/` folder, Mintlify's `snippets/`,
 * or a Docusaurus partial (a file name starting with `_`, `_setup.mdx`; Hugo's `_index.md` is a
 * page). Its links, or their absence, belong to the pages that include it.
 *
 * @param file project-relative POSIX path
 */
export function isPartialPage(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (PARTIAL_DIR_RE.test(file)) return true;
  return /^_(?!index\.)[^/]*\.mdx?$/i.test(base);
}

/** Guides for the tool's own contributors: `CONTRIBUTING.md`, `docs/contributing.md`, `DEVELOPMENT.md`, `HACKING.md`, a `contributing/`, `development/` or `internals/` folder, `docs/dev/`, a page inside the test suite (`test/integration/README.md`). */
const CONTRIBUTOR_BASE_RE = /^(?:(?:[\w-]*[-_])?contributing(?:[-_][\w-]*)?|contribute|contributors|development|hacking)\.mdx?$/i;
/**
 * Characters of the longest file name {@link CONTRIBUTOR_BASE_RE} is tried on: file systems allow
 * 255 bytes. Its `[\w-]*` runs around `contributing` backtrack quadratically in the name's length.
 */
const MAX_FILE_NAME = 255;
const CONTRIBUTOR_DIR_RE = /(?:^|\/)(?:contributing|development|internals|tests?|__tests__|integration[-_]tests?)\/|(?:^|\/)docs?\/dev\//i;

/**
 * Whether a document is a guide for the tool's own contributors (`CONTRIBUTING.md`,
 * `docs/contributing.md`, `DEVELOPMENT.md`, `HACKING.md`, pages under `contributing/`,
 * `development/` or `internals/`: fastmcp's `docs/development/v3-notes/` release-prep notes, and
 * `docs/dev/`: pipenv's and pdm's contributor pages; a page inside a `test/` or `tests/`
 * folder: mocha's `test/integration/README.md` on its test helpers) rather than
 * for its users: its commands run a development build or a test, and it is not where a user
 * learns a flag.
 *
 * @param file project-relative POSIX path
 */
export function isContributorPage(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return (base.length <= MAX_FILE_NAME && CONTRIBUTOR_BASE_RE.test(base)) || CONTRIBUTOR_DIR_RE.test(file);
}



/** Upgrade and migration guides by file name (`upgrade.md`, `UPGRADING.md`, `migration-guide.mdx`, `migrating-to-v3.md`). */
const GUIDE_FILE_RE = /(?:^|\/)(?:upgrad(?:e|es|ing)|migrat(?:e|ion|ing))(?:[-_](?:guides?|notes|to[-_][^/]*|from[-_][^/]*|v?\d[^/]*))?\.(?:md|mdx|markdown)$/i;

/** A page title or heading that opens a history part ("Upgrade Guides", "Migrating from v1", "Breaking changes", "Release notes"). */
const HISTORY_HEADING_RE =
  /^(?:upgrade\s+guides?|upgrading(?:\s+(?:guide|from|to)\b.*)?|migration\s+guides?|migrating\s+(?:from|to)\b.*|migration\s+(?:from|to)\b.*|breaking\s+changes?|change\s*log|changes|release\s+notes|what['’]?s\s+new(?:\s+in\b.*)?|history|news)\s*$/i;

/** Whether a heading's text opens a history part of a page ("Breaking changes", "Changelog", "Upgrade guide"). */
export function isHistoryHeading(text: string): boolean {
  return HISTORY_HEADING_RE.test(text.trim());
}

/**
 * Whether the whole document is a history page for reference discovery: a changelog, release
 * notes or blog post ({@link isHistoricalPage}), an upgrade or migration
 * guide by its file name, or a page whose title (its first top-level heading) names one
 * ("# Upgrade Guides", "# Changelog").
 */
export function isHistoryPage(doc: Pick<DocFile, 'file' | 'headings'>): boolean {
  if (GUIDE_FILE_RE.test(doc.file)) return true;
  const title = doc.headings.find((h) => h.depth === 1);
  if (isHistoricalPage(doc.file, title?.text, doc.headings.map((h) => h.text))) return true;
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
