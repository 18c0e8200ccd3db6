/**
 * The `--summary FILE` report: a Markdown overview of one run (totals, findings per rule, and per
 * command a coverage table of its parameters), appended to a file such as `$GITHUB_STEP_SUMMARY`.
 */
import { escapeControls } from '../shared/escape.js';
import { SUMMARY_MARKER } from '../shared/report-marker.js';
import { appendFileSync, closeSync, constants as fsConstants, fstatSync, openSync } from 'node:fs';
import type { Paragraph, Root, RootContent, PhrasingContent, TableCell, TableRow } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { ruleDocsUrl } from '../engine/rule-docs.js';
import { openForWriteInside } from '../engine/write.js';
import type { DriftMessage } from '../model/rule.js';
import { commandCoverage, paramSource, unknownReason } from '../model/coverage.js';
import { rowsNotRead, whyNotRead } from '../model/unread.js';
import type { Model } from '../model/types.js';
import { compareStrings, severityOf } from './sort.js';
import type { ReportVerdict } from './types.js';

export { commandCoverage } from '../model/coverage.js';
export type { CommandCoverage, CoverageRow } from '../model/coverage.js';

const text = (value: string): PhrasingContent => ({ type: 'text', value });
/**
 * A name as inline code, for a Markdown table cell; line breaks become spaces so a hostile name
 * cannot break the table. A backslash right before a pipe cannot be written in a code span in a
 * GFM table (the cell splitter takes `\|` as an escaped pipe and drops the backslash: `e\|f` read
 * back as `e|f`, #33 s44 sweep G5), so such a name is a text node, which the serializer escapes
 * (`e\\\|f`), as `--fix` writes it in a reference row (`cellCode`).
 */
const code = (value: string): PhrasingContent => {
  const folded = value.replace(/[\r\n]+/g, ' ');
  return /\\\|/.test(folded) ? text(folded) : { type: 'inlineCode', value: folded };
};
export { code as summaryCode };
/**
 * A note's text, its backquoted spans (`` `commands."tool".flags` ``) as inline code, so the
 * Markdown shows code rather than escaped backquotes; text with unbalanced backquotes stays text.
 */
function prose(value: string): PhrasingContent[] {
  const parts = value.split('`');
  if (parts.length % 2 === 0) return [text(value)];
  return parts.flatMap((part, i) => (part === '' ? [] : [i % 2 === 1 ? code(part) : text(part)]));
}
const cell = (...children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children });
const row = (...cells: TableCell[]): TableRow => ({ type: 'tableRow', children: cells });
const paragraph = (...children: PhrasingContent[]): RootContent => ({ type: 'paragraph', children });
const heading = (depth: 2 | 3, ...children: PhrasingContent[]): RootContent => ({ type: 'heading', depth, children });

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const YES = '✓';
const NO = '✗';
const NONE = '—';

/**
 * The summary as an mdast tree (rendered by {@link formatSummary}):
 * - `## docdrift` and one line of totals (`11 problems (9 errors, 2 warnings)`, or no problems),
 *   which for a run that checked nothing (`verdict`) says so instead of "No problems found.";
 * - a table of findings per rule (errors, warnings), rules without findings left out, each rule
 *   linked to its docs;
 * - per command (`### \`name\``, aliases after it): a line of counts and a table with columns
 *   parameter | in code | in the reference | used in examples (documents) | explained
 *   (documents that link to its reference, of those using it); commands whose parameters are
 *   unknown get one line saying so.
 *
 * `messages` are the findings reported (after `--quiet` and path filters); the coverage tables
 * are computed from the whole `model` with the same queries the rules use.
 */
export function buildSummary(messages: readonly DriftMessage[], model: Model, notes: readonly string[] = [], verdict?: ReportVerdict): Root {
  const children: RootContent[] = [heading(2, text('docdrift'))];
  const errors = messages.filter((m) => severityOf(m) === 'error').length;
  const warnings = messages.length - errors;
  if (verdict?.status === 'unchecked') {
    // "No problems found" would read as "the docs are in sync" (issue #32 item 1).
    const allowed = verdict.allowed ? ' (allowed by `--allow-unchecked` / `allowUnchecked`)' : ' (exit 2)';
    children.push(paragraph({ type: 'strong', children: [text('Nothing was checked')] }, text(`${allowed}: ${verdict.reason ?? 'no command was compared with any document'}.`)));
  }
  children.push(
    paragraph(
      text(
        messages.length === 0
          ? 'No problems found.'
          : `${plural(messages.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}).`,
      ),
    ),
  );

  if (messages.length > 0) {
    const perRule = new Map<string, { errors: number; warnings: number }>();
    for (const m of messages) {
      const id = m.ruleId ?? 'docdrift';
      const counts = perRule.get(id) ?? { errors: 0, warnings: 0 };
      if (severityOf(m) === 'error') counts.errors++;
      else counts.warnings++;
      perRule.set(id, counts);
    }
    children.push({
      type: 'table',
      align: [null, 'right', 'right'],
      children: [
        row(cell(text('rule')), cell(text('errors')), cell(text('warnings'))),
        ...[...perRule]
          .sort(([a], [b]) => compareStrings(a, b))
          .map(([id, c]) =>
            row(
              cell({ type: 'link', url: ruleDocsUrl(id), children: [code(id)] }),
              cell(text(String(c.errors))),
              cell(text(String(c.warnings))),
            ),
          ),
      ],
    });
  }

  for (const cmd of model.commands) {
    const title: PhrasingContent[] = [code(cmd.name)];
    for (const alias of cmd.aliases) title.push(text(' / '), code(alias));
    children.push(heading(3, ...title));
    if (!cmd.paramsKnown) {
      children.push(paragraph(...prose(`Parameters unknown, so not checked: ${unknownReason(cmd)}.`)));
      continue;
    }
    const { rows } = commandCoverage(model, cmd);
    const inCode = rows.filter((r) => r.inCode);
    const documented = inCode.filter((r) => r.inReference && !r.onlyHelp).length;
    // Named only by a pasted `--help` while the hand-written reference lacks a row (reported by reference-param-missing).
    const onlyHelp = inCode.filter((r) => r.onlyHelp).length;
    const used = inCode.filter((r) => r.exampleDocs > 0);
    const explained = used.filter((r) => r.explainedDocs === r.exampleDocs).length;
    const onlyDocs = rows.length - inCode.length;
    // Some page's rows were not read (over the run's limit): the reference counts are of the rows read.
    const rowsCut = rowsNotRead(model.docs);
    const parts = [
      `${plural(inCode.length, 'parameter')} in code`,
      `${documented} in the reference${rowsCut ? ` rows docdrift read (not those of ${rowsCut.file}${rowsCut.rowsCut!.notParsed ? '' : ' and the pages after it'}: ${whyNotRead(rowsCut)})` : ''}`,
      ...(onlyHelp > 0 ? [`${onlyHelp} only in a pasted --help`] : []),
      `${used.length} used in examples`,
      `${explained} of those explained wherever used`,
    ];
    if (onlyDocs > 0) parts.push(`${onlyDocs} only in the docs`);
    children.push(paragraph(text(`${parts.join(', ')}. Parameters from ${paramSource(model, cmd)}.`)));
    if (rows.length === 0) continue;
    children.push({
      type: 'table',
      align: [null, 'center', 'center', 'right', 'right'],
      children: [
        row(
          cell(text('parameter')),
          cell(text('in code')),
          cell(text('in the reference')),
          cell(text('used in examples')),
          cell(text('explained')),
        ),
        ...rows.map((r) =>
          row(
            cell(code(r.name)),
            cell(text(r.inCode ? YES : NO)),
            cell(r.onlyHelp ? code('--help') : text(r.inReference ? YES : NO)),
            cell(text(r.exampleDocs > 0 ? plural(r.exampleDocs, 'doc') : NONE)),
            cell(text(r.exampleDocs > 0 && r.inCode ? `${r.explainedDocs}/${r.exampleDocs}` : NONE)),
          ),
        ),
      ],
    });
  }
  if (notes.length > 0) {
    children.push(heading(3, text('Not checked')));
    children.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: notes.map((n) => ({ type: 'listItem', spread: false, children: [paragraph(...prose(n)) as Paragraph] })),
    });
  }
  return { type: 'root', children };
}

/**
 * Renders {@link buildSummary} as GitHub-flavoured Markdown with mdast-util-to-markdown and its
 * GFM table extension, which escape names for tables (`|` → `\|`) and pick code-span fences that
 * fit names holding backticks (CommonMark §6.1, GFM §4.10).
 */
export function formatSummary(messages: readonly DriftMessage[], model: Model, notes: readonly string[] = [], verdict?: ReportVerdict): string {
  // Control characters and direction overrides from documents become visible escapes (`\x1b`).
  const markdown = escapeControls(toMarkdown(buildSummary(messages, model, notes, verdict), { extensions: [gfmToMarkdown()] }));
  // Marked as docdrift's report, so that later runs do not read it as documentation (SUMMARY_MARKER).
  return `${markdown.endsWith('\n') ? markdown : `${markdown}\n`}\n${SUMMARY_MARKER}\n`;
}

/**
 * Appends `markdown` to `file`, creating it when missing: GitHub Actions gives each step a
 * `$GITHUB_STEP_SUMMARY` file that several tools append to
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary).
 * The text ends with a blank line, so whatever is appended next starts a block of its own.
 *
 * @param root the project root: a `file` inside it is checked where it was opened
 *   (`openForWriteInside`); a folder on its way that became a symbolic link is refused.
 * @throws the `fs` error (ENOENT for a missing directory, EACCES, EISDIR, ELOOP for a link, ENXIO for a FIFO
 * nobody reads) when the file cannot be written, an Error for a file that is not regular, a
 * `WriteError` (`PathChangedError`) for a path that changed (nothing written).
 */
export function appendSummary(file: string, markdown: string, root?: string): void {
  // Never through a symbolic link as the last component (O_NOFOLLOW: ELOOP), as every other write (#33 item 10).
  // O_NONBLOCK: a FIFO fails to open (ENXIO) instead of blocking the run forever (sweep15 D11).
  const flags = fsConstants.O_WRONLY | fsConstants.O_APPEND | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);
  // Inside the root, checked on the file opened: not through a folder that became a link while the run linted (s32 sweep D1).
  const fd = root === undefined ? openSync(file, flags | fsConstants.O_CREAT, 0o666) : openForWriteInside(root, file, flags, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file; docdrift writes summaries into regular files only');
    // Nor into a file with other names: a hard link to a source the run read (sweep13 D3).
    const links = fstatSync(fd).nlink;
    if (links > 1) throw new Error(`the file has ${links} names (hard links); docdrift does not write reports into a file with other names`);
    appendFileSync(fd, `${markdown.endsWith('\n') ? markdown : `${markdown}\n`}\n`, 'utf8');
  } finally {
    closeSync(fd);
  }
}
