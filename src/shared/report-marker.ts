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
 * Most non-blank lines of other text after a report's marker (a CI footer such as "Generated in
 * CI run 42."), before the next report or the end of the file, in a file that is still a file of
 * reports (s37 sweep D9).
 */
export const MAX_LINES_AFTER_REPORT = 5;

/** The header cells of the table of findings per rule (`buildSummary`). */
const RULE_TABLE = ['rule', 'errors', 'warnings'];
/** The header cells of a command's coverage table (`buildSummary`). */
const COVERAGE_TABLE = ['parameter', 'in code', 'in the reference', 'used in examples', 'explained'];
/** The heading of the run's notes at the end of a report (`buildSummary`). */
const NOTES_HEADING = '### Not checked';

/** The digits at the start of `line` and the rest, or `undefined` when it does not start with one. */
function leadingNumber(line: string): string | undefined {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
  return i === 0 ? undefined : line.slice(i);
}

/** `N word` or `N words` (the report's `plural`) at the start of `line`: the rest, or `undefined`. */
function counted(line: string, word: string): string | undefined {
  const rest = leadingNumber(line);
  if (rest === undefined) return undefined;
  for (const spelled of [` ${word}s`, ` ${word}`]) if (rest.startsWith(spelled)) return rest.slice(spelled.length);
  return undefined;
}

/** The report's totals line: `No problems found.` or `3 problems (3 errors, 0 warnings).` */
function isTotals(line: string): boolean {
  if (line === 'No problems found.') return true;
  const afterProblems = counted(line, 'problem');
  if (afterProblems === undefined || !afterProblems.startsWith(' (')) return false;
  const afterErrors = counted(afterProblems.slice(2), 'error');
  if (afterErrors === undefined || !afterErrors.startsWith(', ')) return false;
  return counted(afterErrors.slice(2), 'warning') === ').';
}

/** The trimmed cells of a table line (`| a | b |`), or `undefined` when it is no table line. */
function cells(line: string): string[] | undefined {
  const t = line.trim();
  if (t.length < 2 || !t.startsWith('|') || !t.endsWith('|')) return undefined;
  return t.slice(1, -1).split('|').map((c) => c.trim());
}

/** Whether `block` is a table with exactly the header `header` and a delimiter row, every line a table line. */
function isTable(block: readonly string[], header: readonly string[]): boolean {
  const head = cells(block[0]!);
  if (!head || head.length !== header.length || head.some((c, i) => c !== header[i])) return false;
  const delimiter = cells(block[1] ?? '');
  if (!delimiter || delimiter.length !== header.length) return false;
  for (const c of delimiter) for (const ch of c) if (ch !== '-' && ch !== ':') return false;
  return block.every((line) => cells(line) !== undefined);
}

/**
 * Whether the lines after a block's first are plain continuation lines: nothing that would open a
 * code block, heading, table, HTML block or quote of its own.
 */
function plainContinuation(block: readonly string[]): boolean {
  for (const line of block.slice(1)) {
    const t = line.trimStart();
    if (line.length - t.length >= 4 || t.startsWith('```') || t.startsWith('~~~') || t.startsWith('#') || t.startsWith('|') || t.startsWith('<') || t.startsWith('>')) return false;
  }
  return true;
}

/** Whether `block` is the list of the run's notes: list items, each perhaps with indented continuation lines. */
function isNotesList(block: readonly string[]): boolean {
  if (!(block[0]!.startsWith('* ') || block[0]!.startsWith('- '))) return false;
  for (const line of block) {
    if (line.startsWith('* ') || line.startsWith('- ')) continue;
    const t = line.trimStart();
    const indent = line.length - t.length;
    if (indent < 2 || indent > 5 || t.startsWith('```') || t.startsWith('~~~')) return false;
  }
  return true;
}

/**
 * Whether `blocks` (the lines between a report's heading and its marker, split at blank lines)
 * are the blocks `buildSummary` writes, in its order: the "Nothing was checked" line (perhaps),
 * the totals, the table of findings per rule (perhaps); per command a `###` heading, its line of
 * counts (or why its parameters are unknown) and its coverage table (perhaps); the run's notes
 * under "### Not checked" (perhaps).
 */
function isReportBody(blocks: readonly string[][]): boolean {
  let i = 0;
  const next = (): string[] | undefined => blocks[i];
  if (next()?.[0]!.startsWith('**Nothing was checked**') && plainContinuation(next()!)) i++;
  const totals = next();
  if (!totals || totals.length !== 1 || !isTotals(totals[0]!)) return false;
  i++;
  if (next() && isTable(next()!, RULE_TABLE)) i++;
  while (i < blocks.length) {
    const head = blocks[i]!;
    if (head.length !== 1 || !head[0]!.startsWith('### ')) return false;
    i++;
    if (head[0]!.trimEnd() === NOTES_HEADING) {
      // The notes come last.
      return i === blocks.length - 1 && isNotesList(blocks[i]!);
    }
    const counts = next();
    if (!counts || !plainContinuation(counts)) return false;
    const first = counts[0]!;
    if (first.startsWith('Parameters unknown, so not checked: ')) {
      i++;
      continue;
    }
    const rest = counted(first, 'parameter');
    if (rest === undefined || !rest.startsWith(' in code, ')) return false;
    i++;
    if (next() && isTable(next()!, COVERAGE_TABLE)) i++;
  }
  return true;
}

/**
 * Whether `text` is a file of reports `--summary` wrote (s37 sweep D9): recognised by the structure
 * `buildSummary` always gives a report, not by its first and last lines alone. The file starts
 * with a report; each report is its {@link SUMMARY_HEADING} line, the blocks `buildSummary`
 * writes in their order (its totals line, its tables with their fixed headers, its per-command
 * headings and lines of counts, its notes) and the {@link SUMMARY_MARKER} line; after a marker,
 * at most {@link MAX_LINES_AFTER_REPORT} non-blank lines of other text (a CI footer) may come
 * before the next report or the end. A page that only quotes the marker (in a code block, as a
 * comment of its own), or a hand-written page with the report's heading and marker around text of
 * its own, is documentation and is read (s36 sweep D4: such a reference page, and a README, were
 * skipped unread). Line by line, with no regular expression: the text may be long.
 */
export function isSummaryReport(text: string): boolean {
  // Most pages are told apart by their first characters, without splitting them into lines.
  let start = text.startsWith('\uFEFF') ? 1 : 0;
  while (start < text.length && (text[start] === '\n' || text[start] === '\r' || text[start] === ' ' || text[start] === '\t')) start++;
  if (!text.startsWith(SUMMARY_HEADING, start) || !text.includes(SUMMARY_MARKER, start)) return false;
  const lines = text.slice(start).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  let i = 0;
  const blank = (line: string): boolean => line.trim() === '';
  while (i < lines.length && blank(lines[i]!)) i++;
  let reports = 0;
  while (i < lines.length) {
    if (lines[i]!.trimEnd() !== SUMMARY_HEADING) return false;
    i++;
    // The report's blocks, up to its marker.
    const blocks: string[][] = [];
    let block: string[] = [];
    let closed = false;
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === SUMMARY_MARKER) {
        closed = true;
        i++;
        break;
      }
      if (blank(line)) {
        if (block.length > 0) blocks.push(block);
        block = [];
      } else block.push(line);
    }
    if (block.length > 0) blocks.push(block);
    if (!closed || !isReportBody(blocks)) return false;
    reports++;
    // Other text after the marker: a few lines, up to the next report.
    let other = 0;
    for (; i < lines.length && lines[i]!.trimEnd() !== SUMMARY_HEADING; i++) {
      if (!blank(lines[i]!) && ++other > MAX_LINES_AFTER_REPORT) return false;
    }
  }
  return reports > 0;
}
