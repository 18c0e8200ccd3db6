/**
 * The `--summary FILE` report: a Markdown overview of one run (totals, findings per rule, and per
 * command a coverage table of its parameters), appended to a file such as `$GITHUB_STEP_SUMMARY`.
 */
import { escapeControls } from './escape.js';
import { appendFileSync } from 'node:fs';
import type { Root, RootContent, PhrasingContent, TableCell, TableRow } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { ruleDocsUrl } from '../engine/rule-docs.js';
import type { DriftMessage } from '../engine/types.js';
import { suggestNames } from '../model/compare.js';
import { findParam, isExplained, paramNames, rowsFor, twinsOf } from '../model/query.js';
import type { CommandSpec, Model, ParamSpec } from '../model/types.js';
import { compareStrings, severityOf } from './sort.js';

/** One parameter of a command in the coverage table. */
export interface CoverageRow {
  /** The parameter as the code names it, or as a reference row / example spells it when the code has no such parameter. */
  name: string;
  /** The command's code defines it (config field or CLI flag). */
  inCode: boolean;
  /** A row of the command's reference sections or of a global section documents it (for nested parameters, a row for one of its keys). */
  inReference: boolean;
  /** Number of distinct documents whose examples pass it to the command. */
  exampleDocs: number;
  /**
   * How many of those documents explain it: they hold its reference row or link to a file or
   * heading that does (what `example-param-unexplained` checks). 0 when it is not in code or not
   * documented.
   */
  explainedDocs: number;
}

/** Coverage of one command's parameters. */
export interface CommandCoverage {
  command: CommandSpec;
  /**
   * Parameters in code order, then names found only in the docs (stale reference rows, unknown
   * example keys) in document order. Hidden and positional parameters, global parameters, ignored
   * names, and unknown keys that `example-param-unknown` leaves alone by default (dotted keys of
   * open namespaces, keys read elsewhere) are left out, as the rules leave them out.
   */
  rows: CoverageRow[];
}

/** A config field whose CLI flag sets it (`dest`) is shown once, as the flag (as the rules report it). */
function shown(cmd: CommandSpec, param: ParamSpec): ParamSpec {
  if (param.origin === 'cli-flag') return param;
  return twinsOf(cmd, param).find((p) => p.origin === 'cli-flag') ?? param;
}

function excluded(model: Model, name: string): boolean {
  const first = name.split('.')[0] ?? name;
  return model.globalParams.has(first) || model.isIgnored(name) || model.isIgnored(first);
}

/**
 * Computes the coverage of one command's parameters from the model (see {@link CoverageRow} for
 * what each column means). Pure; `cmd` should have known parameters (`paramsKnown`).
 */
export function commandCoverage(model: Model, cmd: CommandSpec): CommandCoverage {
  const rows = new Map<ParamSpec | string, CoverageRow>();
  const sections = model.sectionsFor(cmd);
  const allRows = [...sections, ...model.globalSections].flatMap((s) => s.rows);

  for (const param of cmd.params) {
    const p = shown(cmd, param);
    if (p.hidden || p.positional || excluded(model, p.name) || rows.has(p)) continue;
    const spellings = [p.name, ...p.aliases, ...twinsOf(cmd, p).flatMap((t) => [t.name, ...t.aliases])];
    const inReference =
      rowsFor(model, cmd, p).length > 0 || allRows.some((r) => r.names.some((n) => spellings.some((sp) => n.startsWith(`${sp}.`))));
    rows.set(p, { name: p.name, inCode: true, inReference, exampleDocs: 0, explainedDocs: 0 });
  }

  // Reference rows of the command's own sections that name no parameter (stale rows).
  for (const section of sections) {
    for (const row of section.rows) {
      const name = row.names[0] ?? row.rawName;
      if (row.names.some((n) => excluded(model, n) || findParam(cmd, n.split('.')[0] ?? n))) continue;
      if (!rows.has(name)) rows.set(name, { name, inCode: false, inReference: true, exampleDocs: 0, explainedDocs: 0 });
    }
  }

  // Documents whose examples pass each parameter to this command.
  const docsOf = new Map<ParamSpec | string, Set<string>>();
  for (const usage of model.usages) {
    if (model.commandByName(usage.command) !== cmd || excluded(model, usage.name)) continue;
    const found = findParam(cmd, usage.name);
    let key: ParamSpec | string;
    if (found) {
      const p = shown(cmd, found);
      if (!rows.has(p)) continue; // hidden or positional
      key = p;
    } else {
      // As example-param-unknown judges by default: a dotted key close to no parameter addresses an
      // open namespace (a Hydra server instance), and a key the project reads elsewhere is no drift.
      const near = suggestNames(usage.name, [...paramNames(cmd), ...model.globalParams], 1).length > 0;
      if (!near && usage.key !== usage.name) continue;
      if (!near && usage.syntax === 'hydra-override' && model.isReadElsewhere(cmd, usage.name)) continue;
      key = usage.name;
      if (!rows.has(key)) rows.set(key, { name: key, inCode: false, inReference: false, exampleDocs: 0, explainedDocs: 0 });
    }
    let files = docsOf.get(key);
    if (!files) docsOf.set(key, (files = new Set()));
    files.add(usage.file);
  }
  for (const [key, files] of docsOf) {
    const row = rows.get(key)!;
    row.exampleDocs = files.size;
    if (typeof key !== 'string' && row.inReference) {
      const documenting = rowsFor(model, cmd, key);
      row.explainedDocs = [...files].filter((f) => isExplained(model, f, key, documenting)).length;
    }
  }
  return { command: cmd, rows: [...rows.values()] };
}

const text = (value: string): PhrasingContent => ({ type: 'text', value });
/** Inline code; line breaks become spaces so a hostile name cannot break the table. */
const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value: value.replace(/[\r\n]+/g, ' ') });
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
 * - `## docdrift` and one line of totals (`11 problems (9 errors, 2 warnings)`, or no problems);
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
export function buildSummary(messages: readonly DriftMessage[], model: Model): Root {
  const children: RootContent[] = [heading(2, text('docdrift'))];
  const errors = messages.filter((m) => severityOf(m) === 'error').length;
  const warnings = messages.length - errors;
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
      children.push(paragraph(text('Parameters unknown (no config class or flag definitions found), so not checked.')));
      continue;
    }
    const { rows } = commandCoverage(model, cmd);
    const inCode = rows.filter((r) => r.inCode);
    const documented = inCode.filter((r) => r.inReference).length;
    const used = inCode.filter((r) => r.exampleDocs > 0);
    const explained = used.filter((r) => r.explainedDocs === r.exampleDocs).length;
    const onlyDocs = rows.length - inCode.length;
    const parts = [
      `${plural(inCode.length, 'parameter')} in code`,
      `${documented} in the reference`,
      `${used.length} used in examples`,
      `${explained} of those explained wherever used`,
    ];
    if (onlyDocs > 0) parts.push(`${onlyDocs} only in the docs`);
    children.push(paragraph(text(`${parts.join(', ')}.`)));
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
            cell(text(r.inReference ? YES : NO)),
            cell(text(r.exampleDocs > 0 ? plural(r.exampleDocs, 'doc') : NONE)),
            cell(text(r.exampleDocs > 0 && r.inCode ? `${r.explainedDocs}/${r.exampleDocs}` : NONE)),
          ),
        ),
      ],
    });
  }
  return { type: 'root', children };
}

/**
 * Renders {@link buildSummary} as GitHub-flavoured Markdown with mdast-util-to-markdown and its
 * GFM table extension, which escape names for tables (`|` → `\|`) and pick code-span fences that
 * fit names holding backticks (CommonMark §6.1, GFM §4.10).
 */
export function formatSummary(messages: readonly DriftMessage[], model: Model): string {
  // Control characters and direction overrides from documents become visible escapes (`\x1b`).
  return escapeControls(toMarkdown(buildSummary(messages, model), { extensions: [gfmToMarkdown()] }));
}

/**
 * Appends `markdown` to `file`, creating it when missing: GitHub Actions gives each step a
 * `$GITHUB_STEP_SUMMARY` file that several tools append to
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary).
 * The text ends with a blank line, so whatever is appended next starts a block of its own.
 *
 * @throws the `fs` error (ENOENT for a missing directory, EACCES, EISDIR) when the file cannot be written.
 */
export function appendSummary(file: string, markdown: string): void {
  appendFileSync(file, `${markdown.endsWith('\n') ? markdown : `${markdown}\n`}\n`, 'utf8');
}
