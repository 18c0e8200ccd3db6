/** What kind of page a document is, by its path and title: pages that record history rather than describe the current tool, guides for the tool's own contributors, and fragments other pages include. */

/** Base names of change logs and release notes (`CHANGELOG.md`, `HISTORY.md`, `release-notes.mdx`, `NEWS.md`). */
const HISTORY_BASE_RE = /^(?:change[-_ ]?log|changes|history|news|release[-_ ]?notes|releases)(?:[-_.](?:v?\d[\w.-]*|old|archive))?\.mdx?$/i;
/** Titles of such pages (`Changelog`, `Release notes`, `Release history`). */
const HISTORY_TITLE_RE = /^(?:change ?log|changes|history|release (?:notes|history)|releases|news)$/i;
/** A dated post's file name, as Jekyll, Hugo and Docusaurus blogs write it (`2024-03-08-claude-3.md`). */
const DATED_RE = /^\d{4}-\d{2}-\d{2}[-_]/;
/** Folders of blog posts and release notes: Jekyll's `_posts/`, `blog/` (Docusaurus, Starlight, Hugo), `release-notes/`, `changelog/`. */
const BLOG_DIR_RE = /(?:^|\/)(?:_posts|blog|blogs|release[-_]notes|changelog)\//i;

/**
 * Whether a document records history rather than describing the tool as it is now: a change log
 * or release notes (`CHANGELOG.md`, `docs/changelog.md`, `release-notes.md`, or a page titled
 * "Changelog"), or a blog post (a page under `_posts/` or `blog/`, or a file named by its date,
 * `2024-03-08-claude-3.md`). Such pages are frozen once published: nobody adds reference links
 * to a release post, and the flags they show may be the flags of their time.
 *
 * Migration and upgrade guides are not history in this sense: they teach a current step.
 *
 * @param file project-relative POSIX path
 * @param title the page's first heading or front-matter title, if known
 */
export function isHistoricalPage(file: string, title?: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (HISTORY_BASE_RE.test(base) || DATED_RE.test(base) || BLOG_DIR_RE.test(file)) return true;
  return title !== undefined && HISTORY_TITLE_RE.test(title.trim());
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

/** Guides for the tool's own contributors: `CONTRIBUTING.md`, `docs/contributing.md`, `DEVELOPMENT.md`, `HACKING.md`, a `contributing/` folder. */
const CONTRIBUTOR_BASE_RE = /^(?:(?:[\w-]*[-_])?contributing(?:[-_][\w-]*)?|contribute|contributors|development|hacking)\.mdx?$/i;
const CONTRIBUTOR_DIR_RE = /(?:^|\/)contributing\//i;

/**
 * Whether a document is a guide for the tool's own contributors (`CONTRIBUTING.md`,
 * `docs/contributing.md`, `DEVELOPMENT.md`, `HACKING.md`, pages under `contributing/`) rather than
 * for its users: its commands run a development build or a test, and it is not where a user
 * learns a flag.
 *
 * @param file project-relative POSIX path
 */
export function isContributorPage(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return CONTRIBUTOR_BASE_RE.test(base) || CONTRIBUTOR_DIR_RE.test(file);
}
