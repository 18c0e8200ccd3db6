/**
 * A run's limits on what it keeps of its documents (issue #33, kind 5: memory bounded by counts,
 * not by luck): words of example commands and rows of references. Each page is parsed whole (and
 * cut to its own limits by src/docs/parse.ts); the run then admits the pages in path order, so a
 * cached and an uncached run keep the same things, and past a limit a page keeps none of them,
 * with one `parse-error` warning for the run.
 */
import { invocationsWithin } from '../docs/code-blocks.js';
import { ENV_BLOCK_INVOCATION_BASE } from '../docs/env-usages.js';
import { invocationsCutDiagnostic } from '../docs/parse.js';
import { alsoNotRead, trimTrailing } from '../shared/strings.js';
import { headingAttrsStart } from '../docs/layouts.js';
import { isRestructuredText } from '../shared/paths.js';
import { isHistoricalPage, isReleaseHeading } from '../docs/page-kind.js';
import { mentionKey } from '../model/unread.js';
import type { DocFile, HeadingBlock, InputDiagnostic, SourceLocation } from '../model/types.js';

/**
 * Most words of example commands (shell invocations: the program and each argument) one run reads
 * from the documents that name a command: 60,000, almost 4 times NeMo Gym's 15,861 (the most in
 * the corpus). Each page is read up to `MAX_INVOCATION_WORDS_PER_DOCUMENT` (src/docs/parse.ts);
 * the pages are counted in path order, so the same pages are cut with or without the cache. Past
 * it a page's commands are not kept (they, their parameters and their findings cost memory:
 * 792,000 findings of 264,000 commands took 2.3 GB, #33 s33), with one `parse-error` warning for
 * the run. Pages parsed later because a link points at them name no command; each is held to the
 * per-page limit only.
 */
export const MAX_RUN_INVOCATION_WORDS = 60_000;

/**
 * Most reference rows (table rows, parameter headings, reference list items; a table nested in
 * several heading blocks counted once) one run keeps from the documents it parses: 40,000, 9
 * times the most a corpus project has (NeMo Gym: about 4,300 table rows in all its pages; the
 * busiest page datamodel-code-generator's, 316). Each row keeps its cells, their inline code and
 * their locations, about 2.5 KB of the process's memory: 60 pages of 4,400 rows (264,000, 7 MB of
 * Markdown) peaked at 1.15 GB (#33 s33 sweep D2); keeping 0, 20,000 and 50,000 of them, 320, 373
 * and 454 MB. One page of a 30,000-row table (500 KB, bad-input `doc-memory-table-rows`) is read
 * whole. Pages are counted whole, in path order: a page whose rows do not fit in what is
 * left keeps none, nor does any page after it, and each such page is marked
 * {@link DocFile.rowsCut}, so that the references of its commands are read as partial
 * (`partialReference`, src/model/coverage.ts): a parameter whose row was not read is never
 * reported missing.
 */
export const MAX_RUN_REFERENCE_ROWS = 40_000;

/** A row-like thing of a page: where it is. */
interface Placed {
  location: SourceLocation;
}

/**
 * The reference rows a page's heading blocks hold, each counted once (a table or row is listed in
 * its heading's block and in every enclosing one; a stored page read back from the cache has
 * copies, not shared objects, so rows are told apart by place), and the first of them.
 */
export function referenceRowsOf(doc: DocFile): { count: number; first?: SourceLocation } {
  const seen = new Set<string>();
  let count = 0;
  let first: SourceLocation | undefined;
  const note = (kind: string, item: Placed, rows: number): void => {
    const key = `${kind}:${item.location.line}:${item.location.column}`;
    if (seen.has(key)) return;
    seen.add(key);
    count += rows;
    if (rows > 0 && (first === undefined || item.location.line < first.line)) first = item.location;
  };
  for (const block of doc.blocks) {
    for (const table of block.tables) note('t', table, table.rows.length);
    for (const row of block.headingRows ?? []) note('h', row, 1);
    for (const row of block.listRows ?? []) note('l', row, 1);
  }
  return { count, ...(first ? { first } : {}) };
}

/** A heading block without its rows (tables, parameter headings, list items). */
function withoutRows(block: HeadingBlock): HeadingBlock {
  const { headingRows: _h, listRows: _l, ...rest } = block;
  return { ...rest, tables: [] };
}

/** A copy of `doc` without its reference rows, marked {@link DocFile.rowsCut}. */
function withoutReferenceRows(doc: DocFile, rows: { count: number; first?: SourceLocation }, names?: readonly string[]): DocFile {
  const { parameterRows: _p, ...rest } = doc;
  return { ...rest, blocks: doc.blocks.map(withoutRows), rowsCut: { location: rows.first!, rows: rows.count, ...(names ? { names } : {}) } };
}

/**
 * A change log, release notes or blog page (by its path, title and release headings): its rows
 * document the tool of their time, never today's reference. They count toward a limit of their
 * own ({@link MAX_RUN_REFERENCE_ROWS} again), not the references': a 41,000-row CHANGELOG.md,
 * first in path order, cut docs/reference.md and silenced its findings (s35 sweep D6). Past it, a
 * change log's rows are dropped and withhold nothing.
 */
function historyPage(doc: DocFile): boolean {
  if (isHistoricalPage(doc.file, doc.headings[0]?.text, doc.headings.map((h) => h.text))) return true;
  // Whatever its name and title (`whats-new.md`, "Version history"): a page whose sections are
  // mostly releases (`## 1.2.0`, `## 2024-03-08`), at least three (s36 sweep D5). Counted among
  // the sections at the releases' level and above: each release's `### Added`/`### Fixed` parts
  // (Keep a Changelog) are not sections of the page (s37 sweep D6).
  let releases = 0;
  let depth = 7;
  for (const h of doc.headings) {
    if (h.depth >= 2 && isReleaseHeading(h.text)) {
      releases++;
      depth = Math.min(depth, h.depth);
    }
  }
  if (releases < 3) return false;
  let sections = 0;
  for (const h of doc.headings) if (h.depth >= 2 && h.depth <= depth) sections++;
  return releases * 2 >= sections;
}

/**
 * Drops, as the pages are parsed (in any order), the rows of pages that {@link runDocumentCap}
 * will surely cut, so that a run never holds much more than {@link MAX_RUN_REFERENCE_ROWS} rows
 * while it waits to admit its pages in path order: a page is cut when the rows of the pages up to
 * it in path order go over the limit, and the pages parsed so far are a lower bound of those.
 * After each `arrived`, the rows of the pages held uncut sum to at most the limit. `replace` is
 * given the shortened copy of a page parsed earlier (or of this one) that the new page pushed
 * over. Rows are counted as by `admit`, which also cuts every page this does.
 *
 * @param order each page's place in path order (the order `admit` is called in).
 */
export function earlyRowCut(order: ReadonlyMap<string, number>, replace: (file: string, doc: DocFile) => void): { arrived(file: string, doc: DocFile): void } {
  /** Pages parsed so far that have rows, in path order. */
  const held: Array<{ file: string; at: number; rows: { count: number; first?: SourceLocation }; doc?: DocFile }> = [];
  return {
    arrived(file, doc) {
      // A change log's rows are capped on their own, by `admit` (historyPage).
      if (historyPage(doc)) return;
      const rows = referenceRowsOf(doc);
      if (rows.count === 0) return;
      const at = order.get(file) ?? Number.MAX_SAFE_INTEGER;
      let i = held.length;
      while (i > 0 && held[i - 1]!.at > at) i--;
      held.splice(i, 0, { file, at, rows, doc });
      let sum = 0;
      for (const page of held) {
        sum += page.rows.count;
        if (sum <= MAX_RUN_REFERENCE_ROWS || page.doc === undefined) continue;
        replace(page.file, withoutReferenceRows(page.doc, page.rows));
        page.doc = undefined;
      }
    },
  };
}

/**
 * A stub for a page the run did not parse (a parse budget or limit: its "Not read:" warning) or
 * could not read at all (`text` undefined: unreadable, a link out of the project, too large or too
 * deep), whose rows may document a command: a {@link DocFile} with no content and
 * `rowsCut.notParsed`, or undefined when the page cannot document any parameter. With a text, the
 * stub carries the names the page shows as code ({@link codeMentions}): only parameters so named
 * may be documented there (s35 sweep D1-D3: a layout-shaped guess missed a heading per parameter,
 * HTML tables, key lists, MyST list-tables and `.. option::`, and a table in a fenced block of a
 * guide silenced every reference). Without one, any parameter may be. A change log or release
 * notes page (by its path and its release headings) documents the tool of its time and gets none
 * (paperless-ngx's 847 KB changelog over the parse budget on a loaded machine).
 */
export function unreadReferenceStub(file: string, text: string | undefined, why?: string, budget?: MentionBudget): DocFile | undefined {
  const kind: DocFile['kind'] = /\.mdx$/i.test(file) ? 'mdx' : isRestructuredText(file) ? 'rst' : 'md';
  const stub = (names?: readonly string[]): DocFile => ({
    file,
    kind,
    headings: [],
    blocks: [],
    codeBlocks: [],
    invocations: [],
    links: [],
    rowsCut: { location: { file, line: 1, column: 1 }, rows: 0, notParsed: true, ...(names ? { names } : {}), ...(why ? { why } : {}) },
  });
  // Not read at all: only its text would tell a change log from a page named like one
  // (docs/commands/changelog.md documents oclif's `changelog` command, docs/history.md may be a
  // `history` command's page: s36 sweep D3), except for the upper-case names no reference takes.
  if (text === undefined) return CHANGE_LOG_NAME_RE.test(file.slice(file.lastIndexOf('/') + 1)) ? undefined : stub();
  if (isHistoricalPage(file, undefined, headingLines(text))) return undefined;
  const names = codeMentions(text);
  if (names === undefined) return stub();
  if (names.size === 0) return undefined;
  return withinMentionBudget(stub([...names]), budget);
}

/**
 * A stub of {@link unreadReferenceStub} made without a run's budget (the language server works
 * out the stub of a large open page when its text arrives, src/engine/held-pages.ts), charged to
 * `budget` as {@link unreadReferenceStub} charges it: the run's pages not parsed keep at most
 * {@link MAX_RUN_MENTIONS} names between them (s37 sweep D4: 110 pages of 48,000 names held
 * 651 MB); past it, the page may document any parameter. A stub without names is returned as it is.
 */
export function withinMentionBudget(stub: DocFile, budget: MentionBudget | undefined): DocFile {
  const names = stub.rowsCut?.names;
  if (budget === undefined || names === undefined) return stub;
  if (names.length > budget.left) {
    budget.left = 0;
    const { names: _dropped, ...rowsCut } = stub.rowsCut!;
    return { ...stub, rowsCut: { ...rowsCut, why: `it was not parsed, and the pages not parsed before it named ${MAX_RUN_MENTIONS.toLocaleString('en-US')} names between them, the most a run keeps` } };
  }
  budget.left -= names.length;
  return stub;
}

/** Most names the pages a run did not parse keep between them ({@link unreadReferenceStub}); past it, a page may document any parameter. */
export const MAX_RUN_MENTIONS = 400_000;

/** What is left of a run's {@link MAX_RUN_MENTIONS}: one per run, passed to each {@link unreadReferenceStub} that scans a text. */
export interface MentionBudget {
  left: number;
}

/** A fresh {@link MentionBudget}. */
export function runMentionBudget(): MentionBudget {
  return { left: MAX_RUN_MENTIONS };
}

/** Texts of a page's ATX heading lines (`## Title`) and setext/RST titles (a line over `===`/`---`), at most 2,000: enough to tell a change log by its release headings. */
function headingLines(text: string): string[] {
  const out: string[] = [];
  let previous = '';
  for (const line of text.split('\n', 200_000)) {
    const atx = ATX_HEADING_RE.exec(line);
    if (atx) out.push(line.slice(atx[0].length).trim());
    else if (/^\s*(?:={3,}|-{3,}|~{3,}|\^{3,})\s*$/.test(line) && previous.trim() !== '' && !/^\s*[|=-]/.test(previous)) out.push(previous.trim());
    if (out.length >= 2000) break;
    previous = line;
  }
  return out;
}

/** The opening of an ATX heading line (`## `); its text is the rest of the line (slices, not a capture: linear on any line). */
const ATX_HEADING_RE = /^ {0,3}#{1,6}[ \t]/;

/** Option-like reStructuredText directives (`.. option:: --name`, `.. confval:: name`): the name is the rest of the line. */
const OPTION_DIRECTIVE_RE = /^\s*\.\.\s+(?:[\w-]+:)?(?:option|confval|envvar|attribute|data|cmdoption|program)::/;

/** A field naming a parameter (`:param name:`, `:param str name:`): the name is the last word before the next `:`. */
const PARAM_FIELD_RE = /^\s*:(?:param|parameter|arg|argument|key|keyword|ivar|cvar|var)\s/;

/** Most text {@link codeMentions} scans, in UTF-16 code units; a longer page may document any parameter. */
export const MAX_MENTION_SCAN_LENGTH = 4 * 1024 * 1024;

/** Most names {@link codeMentions} keeps of one page; past it, the page may document any parameter. */
export const MAX_PAGE_MENTIONS = 50_000;

/** An identifier or flag in a fragment of code (`--dry-run`, `model.lr`). */
const IDENTIFIER_RE = /-{0,2}[\p{L}_$@][\p{L}\p{N}_$@-]*/gu;

/**
 * The names a page's text shows as code, by {@link mentionKey}: identifiers in inline code spans,
 * CLI flags (`--name`, `-n`), the first cell of pipe-table rows, one-name headings, bold items, HTML
 * `<code>`/`<td>`/`<th>`/`<dt>` contents, option-like directives (`.. option::`, `.. confval::`,
 * `:param name:`), plain names in row layouts ({@link rowNames}) and the keys of commented YAML
 * blocks (`key: value  # what it does`). Lines are read as the parser reads their text
 * ({@link inlineText}: escapes, links, HTML tags, a heading's closing `#`s and `{#id}`), so a
 * layout the reference reader accepts names its parameters here too (s37 sweep D1). Fenced code
 * blocks are skipped (an example or a pasted table of another tool is not a reference), except MyST
 * directives (```` ```{list-table} ````), which are content, and the commented keys of a YAML
 * block (s37 sweep D2). Undefined when the text is over {@link MAX_MENTION_SCAN_LENGTH} or names
 * more than {@link MAX_PAGE_MENTIONS}.
 */
export function codeMentions(text: string): Set<string> | undefined {
  if (text.length > MAX_MENTION_SCAN_LENGTH) return undefined;
  const names = new Set<string>();
  const add = (fragment: string): void => {
    // A code span or cell of one token is a name as written (`größe`, `@type`, `2fa`, `x:y`: s36 sweep D7).
    const whole = stripMarks(fragment.trim());
    if (whole.length > 0 && whole.length <= 200 && !/\s/.test(whole)) {
      const key = mentionKey(whole);
      if (key.length > 0) names.add(key);
    }
    for (const m of fragment.matchAll(IDENTIFIER_RE)) {
      const key = mentionKey(m[0]);
      if (key.length > 0) names.add(key);
      // A dotted or bracketed path (`model.lr`) names each part too.
      for (const part of m[0].split('.')) if (part !== m[0]) names.add(mentionKey(part));
    }
  };
  let fence: string | undefined;
  let yamlFence = false;
  // Lines as the parser splits them (a lone CR ends a line too: s36 sweep D1).
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^ {0,3}(`{3,}|~{3,})\s*(\{?)/.exec(line);
    if (fence !== undefined) {
      if (marker && marker[1]![0] === fence[0] && marker[1]!.length >= fence.length && line.trim() === marker[1]) fence = undefined;
      else if (yamlFence) commentedYamlKey(line, add);
      continue;
    }
    // A backtick fence's info string holds no backtick (CommonMark 0.31 §4.5): "```tool``` runs"
    // is a paragraph with a code span, not a fence hiding the rest of the page (s36 sweep D2).
    if (marker && marker[2] !== '{' && !(marker[1]![0] === '`' && line.slice(marker[0].length).includes('`'))) {
      fence = marker[1]!;
      yamlFence = /^(?:ya?ml)\b/i.test(line.slice(marker[0].length).trim());
      continue;
    }
    const plain = inlineText(line);
    rowNames(plain, lines[i - 1], lines[i + 1], add);
    for (const m of line.matchAll(/`([^`]{1,200})`/g)) add(m[1]!);
    for (const m of plain.matchAll(/(?:^|[\s(\[,|/])(--?[A-Za-z][\w-]*)/g)) add(m[1]!);
    const cell = /^\s*\|([^|]*)\|/.exec(plain);
    if (cell && !isHeaderRow(lines[i + 1])) add(cell[1]!);
    // A heading that is one name (`### timeout`, `## --verbose`, `### *name* {#name}`): a parameter heading.
    const heading = ATX_HEADING_RE.exec(plain);
    if (heading) {
      const rest = stripMarks(headingText(plain.slice(heading[0].length)));
      if (/^[\w.-]+$/.test(rest)) add(rest);
    }
    for (const m of plain.matchAll(/\*\*([^*]{1,200})\*\*/g)) add(m[1]!);
    // The text of `<code …>`, `<td>`, `<th>`, `<dt>` up to its end tag, other tags left out
    // (`<td><a href="#l">log_level</a></td>`): sought within 300 characters (linear on any line).
    for (const m of line.matchAll(/<(code|td|th|dt)\b/gi)) {
      const window = line.slice(m.index, m.index + 300);
      const open = window.indexOf('>');
      if (open < 0) continue;
      const close = window.toLowerCase().indexOf(`</${m[1]!.toLowerCase()}`, open);
      // No end tag in reach: the text up to the next tag (a window of tags is not stripped per cell).
      const next = window.indexOf('<', open + 1);
      add(close < 0 ? window.slice(open + 1, next < 0 ? undefined : next) : withoutTags(window.slice(open + 1, close)));
    }
    const directive = OPTION_DIRECTIVE_RE.exec(line);
    if (directive) add(line.slice(directive[0].length));
    const field = PARAM_FIELD_RE.exec(line);
    if (field) {
      const rest = line.slice(field[0].length);
      const end = rest.indexOf(':');
      const words = (end < 0 ? '' : rest.slice(0, end)).trim().split(' ');
      add(words[words.length - 1]!);
    }
    if (names.size > MAX_PAGE_MENTIONS) return undefined;
  }
  return names;
}

/** HTML tags (`<a name="x">`, `</a>`, `<br/>`) of a line, each at most 500 characters long. */
const HTML_TAG_RE = /<\/?[A-Za-z][^<>\n]{0,500}>/g;

/** `text` without its HTML tags. */
function withoutTags(text: string): string {
  return text.replace(HTML_TAG_RE, '');
}

/**
 * A line's text as the Markdown parser gives it (CommonMark 0.31): backslash escapes resolved
 * (`log\_level`, §2.4), links and images as their text (`[name](#name)`, §6.3-6.4), HTML tags left
 * out (terraform-docs' `<a name="input_x"></a>`). Code spans are not protected: their names are
 * read from the line as written.
 */
function inlineText(line: string): string {
  if (!/[\\[<]/.test(line)) return line;
  return withoutLinks(withoutTags(line)).replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/**
 * `line` with each inline link or image (`[text](url)`, `[text][ref]`, `![alt](src)`) as its text.
 * One pass: the next `]`, `)` and `]` after a `[` are found once for the whole line (a regex
 * retried its bounded class at every `[`: polynomial on a line of `[`s).
 */
function withoutLinks(line: string): string {
  if (!line.includes('[')) return line;
  let out = '';
  let from = 0;
  let close = -1;
  let paren = -1;
  let refClose = -1;
  for (;;) {
    let open = line.indexOf('[', from);
    if (open < 0) break;
    if (close < open) close = line.indexOf(']', open);
    if (close < 0) break;
    // The innermost `[` before that `]` opens the text.
    open = line.lastIndexOf('[', close);
    const next = line[close + 1];
    let end = -1;
    // -2: none anywhere after (each search runs once over the rest of the line).
    if (next === '(') {
      if (paren !== -2 && paren <= close) paren = line.indexOf(')', close) < 0 ? -2 : line.indexOf(')', close);
      end = paren < 0 ? -1 : paren;
    } else if (next === '[') {
      if (refClose !== -2 && refClose <= close + 1) refClose = line.indexOf(']', close + 2) < 0 ? -2 : line.indexOf(']', close + 2);
      end = refClose < 0 ? -1 : refClose;
    }
    if (end < 0) {
      out += line.slice(from, close + 1);
      from = close + 1;
      continue;
    }
    out += line.slice(from, open > from && line[open - 1] === '!' ? open - 1 : open) + line.slice(open + 1, close);
    from = end + 1;
  }
  return out + line.slice(from);
}

/**
 * An ATX heading's text without its closing sequence (`### name ###`, CommonMark §4.2) and a
 * trailing attribute list (`### name {#name}`, `{: #name }`: `headingAttrsStart`, as the reader
 * finds it), trimmed.
 */
function headingText(rest: string): string {
  const attrs = headingAttrsStart(rest);
  const text = (attrs < 0 ? rest : rest.slice(0, attrs)).trim();
  const open = trimTrailing(text, '#');
  // The closing `#`s count only after a blank (`C#` keeps its `#`).
  return open.length < text.length && (open === '' || open.endsWith(' ') || open.endsWith('\t')) ? open.trim() : text;
}

/** A key with a comment in a YAML block (`  timeout: 30  # seconds`, `- name: x  # …`), a reference layout (src/docs/yaml-reference.ts). */
function commentedYamlKey(line: string, add: (name: string) => void): void {
  const m = /^\s*(?:-\s+)?([\p{L}_][\p{L}\p{N}_.-]{0,200}):(?:\s|$)/u.exec(line);
  if (m && line.includes('#', m[0].length)) add(m[1]!);
}

/** Whether `next` (the line after a table row) is a GFM delimiter row (`| --- | :-: |`): the row is a header row. */
function isHeaderRow(next: string | undefined): boolean {
  if (next === undefined || !next.includes('-') || next.length > 2000) return false;
  let row = next.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|')) row = row.slice(0, -1);
  return row.split('|').every((cell) => /^:?-+:?$/.test(cell.trim()));
}

/** The conventional upper-case file names of a change log (`CHANGELOG.md`, `HISTORY.rst`, `RELEASE_NOTES.md`). */
const CHANGE_LOG_NAME_RE = /^(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES?|RELEASE[-_]NOTES)(?:\.[A-Za-z]{1,9})?$/;

/** Leading blockquote markers, spaces and quotes of a line. */
const LINE_LEAD_RE = /^[\s>"']*/;
/** One list, enumeration or table-cell marker at the start of what is left of a line (`* `, `- `, `1. `, `| `). */
const ROW_MARKER_RE = /^(?:[*+-]|\d{1,9}[.)]|\|)[ \t]*/;
/** A plain name at the start of a cell or row (`name`, `model.lr`, `dry-run`). */
const PLAIN_NAME_RE = /^[\p{L}\p{N}_$@][\p{L}\p{N}_.:$@-]*/u;

/** `cell` without the code, emphasis and quote marks around it (a loop: a trailing-class regex backtracks). */
function stripMarks(cell: string): string {
  const mark = (c: string | undefined): boolean => c !== undefined && '`*_"\''.includes(c);
  let start = 0;
  let end = cell.length;
  while (start < end && mark(cell[start])) start++;
  while (end > start && mark(cell[end - 1])) end--;
  return cell.slice(start, end);
}

/**
 * What may follow a row's first word in a reference layout: nothing, a cell or field separator
 * (`|`, `:`, `=`), a type or note in brackets, a dash before the description, two spaces or a tab
 * (a reST simple table's column gap).
 */
const ROW_AFTER_RE = /^(?:$|\s*[|:=([]|\s+[-–—]\s|\s{2}|\t)/;

/** A capitalised word of prose (`Name`, `Keep`): not taken as a plain name (a parameter spelled so is written as code). */
function proseWord(word: string): boolean {
  return /^\p{Lu}\p{Ll}+$/u.test(word);
}

/**
 * The plain-text names of a line (as {@link inlineText} gives it) that may be a row of a reference
 * in a layout whose names are not code (s36 sweep D1): a GFM table with or without outer pipes, a
 * MyST or reST list-table item (`* - name`), a reST simple or CSV table, a definition-list term.
 * The first word of the line, after list, table and quote markers, when what follows it is a
 * row's ({@link ROW_AFTER_RE}), or a `,` on an indented line (CSV table content), or nothing and
 * the next line is the term's definition (indented, or `: …`); and every table cell that is one
 * word, except in a header row. Words of running prose are not taken, nor capitalised words
 * ({@link proseWord}): a prose mention does not withhold a finding (s37 sweep D3).
 */
function rowNames(line: string, previous: string | undefined, next: string | undefined, add: (name: string) => void): void {
  const lead = LINE_LEAD_RE.exec(line)![0];
  let rest = line.slice(lead.length);
  let marked = false;
  for (let i = 0; i < 8; i++) {
    const m = ROW_MARKER_RE.exec(rest);
    if (!m) break;
    rest = rest.slice(m[0].length);
    marked = true;
  }
  const piped = line.includes('|');
  const header = piped && isHeaderRow(next);
  const word = PLAIN_NAME_RE.exec(rest);
  if (word && !header && !proseWord(word[0])) {
    const after = rest.slice(word[0].length).replace(/^["'`*_]+/, '');
    const alone = after.trim() === '';
    const term = alone && !marked && !piped && (previous === undefined || previous.trim() === '') && next !== undefined && /^(?:[ \t]+\S|:[ \t])/.test(next);
    const csv = after.startsWith(',') && (lead.length > 0 || marked);
    if (csv || term || (!alone && ROW_AFTER_RE.test(after)) || (alone && (marked || piped))) add(word[0]);
  }
  if (!piped || header) return;
  for (const cell of line.slice(0, 2000).split('|')) {
    const value = stripMarks(cell.trim());
    const one = PLAIN_NAME_RE.exec(value);
    if (one && one[0].length === value.length && !proseWord(value)) add(value);
  }
}

/**
 * What the per-file cache stores for a page whose reference rows the run's limit cut (in place of
 * its whole parse: 60 pages of 4,400 rows held 196 MB of stored parses until the cache was
 * written, s35 sweep D9): the parsed page without its rows, marked {@link DocFile.rowsCut} with
 * their count and first line. A later run uses it only while its limit cuts the page again
 * (`cutsRows`); otherwise the page is parsed again.
 */
export function withoutRunRows(doc: DocFile): DocFile {
  return withoutReferenceRows(doc, referenceRowsOf(doc));
}

/**
 * True when `doc` is a page the run's reference-row limit cut: a stored {@link withoutRunRows}
 * copy, or one `earlyRowCut` shortened (its `rowsCut`, unlike a stub's, is not `notParsed`).
 */
export function isRunRowsCut(doc: DocFile | undefined): boolean {
  return doc?.rowsCut !== undefined && doc.rowsCut.notParsed !== true && doc.rowsCut.rows > 0;
}

/** What {@link runDocumentCap} admits of one page. */
export interface Admitted {
  /** The page as the run keeps it: the parsed one when nothing was cut, else a shortened copy. */
  doc: DocFile;
  /** The run's limit on example words cut this page's commands (its own limit's warning, if any, claims more than is checked). */
  invocationsCut: boolean;
  /** The run's limit on reference rows cut this page's rows in this call (not a change log's own limit). */
  rowsCut: boolean;
}

/**
 * Keeps a run's documents within {@link MAX_RUN_INVOCATION_WORDS} and {@link MAX_RUN_REFERENCE_ROWS}.
 * Call `admit` for each parsed page in path order: it returns the page as it is while the run has
 * room, else a copy (a stored document is never changed) with the first commands that fit, and no
 * rows once the rows do not fit. `diagnostics` are the run's warnings, one per limit that cut
 * something, at the first page cut.
 */
export function runDocumentCap(): { admit(doc: DocFile): Admitted; cutsRows(doc: DocFile): boolean; diagnostics(): InputDiagnostic[]; lateRowsCut(doc: DocFile): InputDiagnostic | undefined } {
  let words = 0;
  let rows = 0;
  let historyRows = 0;
  const wordsCut: Array<{ doc: DocFile; kept: number }> = [];
  const rowsCut: DocFile[] = [];
  const lateCut: string[] = [];
  let late: InputDiagnostic | undefined;
  return {
    admit(parsed) {
      let doc = parsed;
      const fit = wordsCut.length > 0 ? { kept: 0, words: 0 } : invocationsWithin(doc.invocations, MAX_RUN_INVOCATION_WORDS - words);
      words += fit.words;
      const invocationsCut = fit.kept < doc.invocations.length;
      if (invocationsCut) {
        doc = {
          ...doc,
          invocations: doc.invocations.slice(0, fit.kept),
          // Variables set for a command kept, and those of blocks that are no command (numbered from ENV_BLOCK_INVOCATION_BASE).
          ...(doc.envUsages ? { envUsages: doc.envUsages.filter((u) => u.invocation < fit.kept || u.invocation >= ENV_BLOCK_INVOCATION_BASE) } : {}),
          invocationsCut: { location: doc.invocations[fit.kept]!.location },
        };
        wordsCut.push({ doc, kept: fit.kept });
      }
      // A page earlyRowCut shortened: its rows are counted as they were (the run cuts it too).
      const pageRows = doc.rowsCut ? { count: doc.rowsCut.rows, first: doc.rowsCut.location } : referenceRowsOf(doc);
      if (pageRows.count > 0 && !doc.rowsCut && historyPage(doc)) {
        if (historyRows + pageRows.count > MAX_RUN_REFERENCE_ROWS) doc = withoutReferenceRows(doc, pageRows, []);
        else historyRows += pageRows.count;
        return { doc, invocationsCut, rowsCut: false };
      }
      if (pageRows.count > 0 && (rowsCut.length > 0 || rows + pageRows.count > MAX_RUN_REFERENCE_ROWS)) {
        const now = !doc.rowsCut;
        if (now) doc = withoutReferenceRows(doc, pageRows);
        rowsCut.push(doc);
        return { doc, invocationsCut, rowsCut: now };
      }
      rows += pageRows.count;
      return { doc, invocationsCut, rowsCut: false };
    },
    /**
     * True when `admit`, called next with this page, would cut its reference rows for the run's
     * limit (counting a page already cut by its `rowsCut.rows`). Changes nothing.
     */
    cutsRows(doc) {
      const count = doc.rowsCut ? doc.rowsCut.rows : referenceRowsOf(doc).count;
      if (count === 0 || (!doc.rowsCut && historyPage(doc))) return false;
      return rowsCut.length > 0 || rows + count > MAX_RUN_REFERENCE_ROWS;
    },
    /**
     * For a page parsed after `diagnostics` was called (a link points at it) whose rows `admit`
     * cut: the run's warning for such pages, returned for the first one only and then amended in
     * place to count the others (the run's messages are read once the rules have run).
     */
    lateRowsCut(doc) {
      lateCut.push(doc.file);
      const others = (): string => alsoNotRead(lateCut.slice(1), 'pages');
      const message = (): string =>
        `${lateCut[0]}: its reference rows are not read${others()}: a link points at it, and the run had read ${MAX_RUN_REFERENCE_ROWS.toLocaleString('en-US')} rows of reference tables, parameter headings and lists, its limit, before it. ` +
        'A parameter those rows may document is taken as explained there. Exclude generated or copied pages with "ignore"';
      if (late) {
        late.message = message();
        return undefined;
      }
      late = { ruleId: 'parse-error', severity: 'warn', message: message(), location: doc.rowsCut!.location };
      return late;
    },
    diagnostics() {
      const out: InputDiagnostic[] = [];
      const firstWords = wordsCut[0];
      if (firstWords !== undefined) {
        const more = wordsCut.length - 1;
        const why = `one run reads at most ${MAX_RUN_INVOCATION_WORDS.toLocaleString('en-US')} words of example commands from all pages${more > 0 ? `; the examples of ${more.toLocaleString('en-US')} more ${more === 1 ? 'page' : 'pages'} after it (${wordsCut.slice(1, 4).map((c) => c.doc.file).join(', ')}${more > 3 ? ', …' : ''}) are not checked either` : ''}`;
        out.push(invocationsCutDiagnostic(firstWords.doc.file, firstWords.doc.invocationsCut!, firstWords.kept, why));
      }
      const firstRows = rowsCut[0];
      if (firstRows !== undefined) {
        const cut = rowsCut.reduce((n, d) => n + d.rowsCut!.rows, 0);
        out.push({
          ruleId: 'parse-error',
          severity: 'warn',
          message:
            `${firstRows.file}: its reference rows are not read${alsoNotRead(rowsCut.slice(1).map((d) => d.file), 'pages')}: one run reads at most ${MAX_RUN_REFERENCE_ROWS.toLocaleString('en-US')} rows of reference tables, parameter headings and lists, ` +
            `the pages before it hold ${rows.toLocaleString('en-US')} and ${rowsCut.length === 1 ? 'this one' : 'these'} ${cut.toLocaleString('en-US')}. Their rows are not checked, no parameter is reported missing, and no command undocumented. ` +
            'Exclude generated or copied pages with "ignore"',
          location: firstRows.rowsCut!.location,
        });
      }
      return out;
    },
  };
}
