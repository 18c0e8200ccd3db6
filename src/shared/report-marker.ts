/**
 * The line `--summary` ends each report it appends with (an HTML comment: GitHub and other
 * Markdown renderers show nothing of it). A document holding it is docdrift's own report: later
 * runs do not read it as documentation, and `--summary` may append to it again. Written inside the
 * project (`docdrift --summary coverage.md`), its coverage table was read as the command's
 * reference (a false `reference-param-unknown`), and the same command run again was refused as
 * overwriting a document (s35 sweep D8).
 */
export const SUMMARY_MARKER = '<!-- docdrift --summary report: not read as documentation -->';

/** The first line of each report `--summary` writes (src/report/summary.ts `buildSummary`). */
export const SUMMARY_HEADING = '## docdrift';

/**
 * Whether `text` is a file of reports `--summary` wrote: its first non-blank line is
 * {@link SUMMARY_HEADING} and its last is {@link SUMMARY_MARKER}. A page that only quotes the
 * marker (in a code block, as a comment of its own) is documentation and is read (s36 sweep D4:
 * such a reference page, and a README, were skipped unread).
 */
export function isSummaryReport(text: string): boolean {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (!body.endsWith(SUMMARY_MARKER)) return false;
  const before = body.length - SUMMARY_MARKER.length - 1;
  if (before >= 0 && body[before] !== '\n') return false;
  const firstEnd = body.indexOf('\n');
  return (firstEnd < 0 ? body : body.slice(0, firstEnd)).replace(/\r$/, '').trimEnd() === SUMMARY_HEADING;
}
