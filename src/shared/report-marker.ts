/**
 * The line `--summary` ends each report it appends with (an HTML comment: GitHub and other
 * Markdown renderers show nothing of it). A document holding it is docdrift's own report: later
 * runs do not read it as documentation, and `--summary` may append to it again. Written inside the
 * project (`docdrift --summary coverage.md`), its coverage table was read as the command's
 * reference (a false `reference-param-unknown`), and the same command run again was refused as
 * overwriting a document (s35 sweep D8).
 */
export const SUMMARY_MARKER = '<!-- docdrift --summary report: not read as documentation -->';

/** Whether `text` is (or holds) a report `--summary` wrote ({@link SUMMARY_MARKER}). */
export function isSummaryReport(text: string): boolean {
  return text.includes(SUMMARY_MARKER);
}
