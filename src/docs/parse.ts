/** Reads one Markdown/MDX document into a DocFile: headings, heading blocks with their tables, shell invocations, links. */

import type { Code, Heading as MdHeading, Nodes, Root, Table, TableCell, TableRow as MdTableRow } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import { toString } from 'mdast-util-to-string';
import type {
  CodeBlock, DataBlock, DocFile, DocLink, DocTable, DocumentedName, Heading, HeadingBlock, HelpBlock, InputDiagnostic, Invocation, Paragraph, ProseCode, ReferenceRow, SourceLocation,
  TableRow, Usage,
} from '../model/types.js';
import { invocationsWithin, isShellLang, looksLikeCommandLines, readCodeBlock, readCodeLines } from './code-blocks.js';
import { dataBlockEnvUsages, ENV_BLOCK_INVOCATION_BASE, envBlockUsages, isEnvFileBlock, isWindowsShellLang, windowsEnvUsages, type BlockContent } from './env-usages.js';
import { rstToMdast, type RstCodeData } from './rst.js';
import { offsetMap, readHtmlPre, readHtmlTable, type OffsetMap } from './html-blocks.js';
import { readHelpBlock } from './help-text.js';
import { readProseCodes } from './prose-codes.js';
import { blankHeadingComments } from './mdx-heading-comments.js';
import { documentOverLimits, overLimitsOutcome } from './limits.js';
import { fencedLineTracker } from './fences.js';
import { inlineCodeNodes } from './inline-code.js';
import { openDirectiveContainers, readListTable } from './myst.js';
import { isParamSpelling, readLayoutRows, type LayoutRows } from './layouts.js';
import { readReferenceTable } from './reference-table.js';
import { asOverride } from './arguments.js';
import { resolveLink } from './links.js';
import { createHeadingSlugger } from './slug.js';
import { isContributorPage, isHistoricalPage, isHistoryHeading, isPartialPage } from './page-kind.js';
import { locationOf, pushSpan, type Point, type Positioned } from './position.js';
import { denseEmphasis, EMPHASIS_RUNS_PER_PARAGRAPH, EMPHASIS_WINDOW, emphasisRunLimit } from './emphasis.js';
import { markdownProcessor, parseMarkdown, parseMarkdownText } from './markdown.js';
import { pieceStarted, probedPiece } from './progress.js';
import { parseSegmented, segmentable, type MarkdownSegment } from './segments.js';
import { trimLeading, trimTrailing } from '../shared/strings.js';
import { pushAll } from '../shared/arrays.js';



/** The kind of document a file name says: `.mdx`, `.rst`/`.rest` (reStructuredText), else Markdown. */
export function docKind(file: string): DocFile['kind'] {
  return /\.mdx$/i.test(file) ? 'mdx' : /\.(?:rst|rest)$/i.test(file) ? 'rst' : 'md';
}

function emptyDoc(file: string, kind: DocFile['kind']): DocFile {
  return { file, kind, headings: [], blocks: [], codeBlocks: [], invocations: [], links: [] };
}

/** Text of a node as rendered (HTML tags dropped, as GitHub does before slugging). */
function plainText(node: Nodes): string {
  return toString(node, { includeHtml: false }).trim();
}

/** Texts of the inline code spans inside a node, in document order. */
function inlineCodes(node: Nodes): string[] {
  return inlineCodeNodes(node).map((n) => n.value);
}


const DATA_LANGS: Record<string, DataBlock['lang']> = { yaml: 'yaml', yml: 'yaml', json: 'json', jsonc: 'json', json5: 'json', toml: 'toml' };

/**
 * A YAML/JSON/TOML fenced block as a {@link DataBlock}: its content starts on the line after the
 * opening fence, and remark removed the fence's indentation from each content line.
 */
function dataBlockOf(file: string, node: Code): DataBlock | undefined {
  const lang = node.lang ? DATA_LANGS[node.lang.toLowerCase()] : undefined;
  if (!lang || !node.position) return undefined;
  return {
    file,
    lang,
    ...(node.meta ? { meta: node.meta } : {}),
    value: node.value,
    // A fenced block's content starts below its fence; a reStructuredText block's node starts at its content.
    contentLine: node.position.start.line + ((node.data as RstCodeData | undefined)?.rst ? 0 : 1),
    contentIndent: node.position.start.column - 1,
    location: locationOf(file, node),
  };
}

/** A code node's content with the file position of its first content line (as {@link dataBlockOf} computes it) and its {@link CodeBlock}. */
function blockContent(file: string, node: Code): BlockContent | undefined {
  if (!node.position) return undefined;
  return {
    value: node.value,
    contentLine: node.position.start.line + ((node.data as RstCodeData | undefined)?.rst ? 0 : 1),
    contentIndent: node.position.start.column - 1,
    block: { file, ...(node.lang ? { lang: node.lang } : {}), location: locationOf(file, node) },
  };
}

/** Pygments names of plain text, which Sphinx pages give blocks of commands and output alike. */
const PLAIN_LANGS: ReadonlySet<string> = new Set(['none', 'text', 'default', 'txt', 'plain']);

/** True when a Markdown code node is fenced (its first line opens with ``` or ~~~), not indented. */
function isFenced(node: Code, rawLines: readonly string[]): boolean {
  const pos = node.position;
  if (!pos) return false;
  const open = rawLines[pos.start.line - 1]?.slice(pos.start.column - 1) ?? '';
  return open.startsWith('```') || open.startsWith('~~~');
}

/** Reads the message, line and column of an error thrown by a micromark/unified parser. */
function errorPoint(error: unknown): { message: string; line: number; column: number } {
  const e = error as { reason?: unknown; message?: unknown; line?: unknown; column?: unknown; place?: unknown };
  const message = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : String(error);
  let line = typeof e.line === 'number' ? e.line : undefined;
  let column = typeof e.column === 'number' ? e.column : undefined;
  const place = e.place as { line?: number; column?: number; start?: Point } | undefined;
  if ((line === undefined || column === undefined) && place) {
    line = place.start?.line ?? place.line;
    column = place.start?.column ?? place.column;
  }
  return { message, line: line ?? 1, column: column ?? 1 };
}

/**
 * Most words of example commands (shell invocations: the program and each argument) read from
 * one document: 5,000, 1.6 times the most one page of the corpus holds (llm's docs/help.md: 3,121;
 * NeMo Gym's busiest page 751). Past it the page's other commands are counted, not kept, with one
 * `parse-error` warning: 60 pages of 4,400 example lines each (7 MB) built 264,000 invocations
 * and 792,000 findings, 62 s and 2.3 GB (#33, s33). Words, not commands, so that one command of
 * 100,000 arguments is held too. The run's limit (`MAX_RUN_INVOCATION_WORDS`) is applied once
 * every page is parsed, in path order; until then each parsed page holds up to this many.
 */
export const MAX_INVOCATION_WORDS_PER_DOCUMENT = 5000;

/** The warning of a document whose example commands were cut ({@link DocFile.invocationsCut}), at the first command not read. */
export function invocationsCutDiagnostic(file: string, cut: NonNullable<DocFile['invocationsCut']>, kept: number, why: string): InputDiagnostic {
  return {
    ruleId: 'parse-error',
    severity: 'warn',
    message: `${file}: only the first ${kept.toLocaleString('en-US')} example commands of this page are checked (${why}); the commands from here on are not. Split the page, or exclude generated pages with "ignore"`,
    location: cut.location,
  };
}

/**
 * Parses one document.
 *
 * `.md` (and any other extension) is parsed with remark-parse + remark-gfm + remark-frontmatter
 * (YAML and TOML); `.mdx` adds remark-mdx. When MDX parsing fails, the file is parsed again with
 * the plain Markdown pipeline and a `warn` `parse-error` diagnostic is returned at the MDX
 * error's position ("… parsed as plain Markdown"). `.md` never goes through remark-mdx (HTML
 * comments, `<br>` and `{` are valid Markdown but break MDX). In `.mdx`, an HTML comment on a
 * heading line (Mintlify accepts `## Run <!-- x -->`) is blanked before the MDX parse.
 *
 * The result describes the document without knowing which commands exist:
 * - `headings`: depth, text, inline codes, GitHub anchor slug (unique per document, like
 *   GitHub: `-1`, `-2` suffixes), location of the heading node.
 * - `blocks`: one per heading, up to the line before the next heading of the same or higher rank
 *   (the last line of the file for the last), with every GFM table that starts in that range,
 *   nested sub-headings and JSX elements included.
 * - `codeBlocks`/`invocations`: fenced blocks of language bash, sh, shell, console, zsh,
 *   shell-session or none, and the commands in them (see `readCodeBlock`).
 * - `envUsages`: environment variables the examples set (src/docs/env-usages.ts): shell
 *   assignments, `.env` blocks, PowerShell/batch `$env:X =`/`set X=`, YAML/JSON `env:` maps.
 * - `links`: every `[text](url)` link and every reference link (`[text][id]`, url from its
 *   definition), and MDX `<a href="…">`/`<Link href="…">` with a literal href, in document order.
 *
 * A document over the limits of `src/docs/limits.ts` (over 1 Mi characters, or nested more than
 * 100 levels on a line) is not parsed: a `warn` `parse-error` diagnostic says why and the DocFile
 * is empty.
 *
 * A Markdown (not MDX) document of at least 32,768 characters (see `segmentable`) is parsed in
 * segments when `options.segments` is given (see src/docs/segments.ts): the unchanged segments of
 * its last parse are reused, and the segments to store for the next parse come back in
 * `segments`. The DocFile is the same either way.
 *
 * @param file project-relative POSIX path, used in every location and to resolve relative links.
 * @param text the document's contents.
 * @param options.segments the segments the last parse of this document returned, or null when
 *   there are none yet; undefined (the default) parses the whole text and returns no segments.
 * @returns the DocFile, any input diagnostics and, when asked for and the document can be cut,
 *   its segments. Never throws: a document that cannot be read at all gives an `error`
 *   diagnostic and a DocFile with empty lists.
 */
export function parseDoc(file: string, sourceText: string, options: { segments?: readonly MarkdownSegment[] | null } = {}): { doc: DocFile; diagnostics: InputDiagnostic[]; segments?: MarkdownSegment[] } {
  let text = sourceText;
  const kind = docKind(file);
  const diagnostics: InputDiagnostic[] = [];
  const over = documentOverLimits(text, kind === 'mdx');
  if (over) return overLimitsOutcome(file, over);
  if (kind === 'rst') {
    try {
      pieceStarted(text.length);
      return { doc: described(file, kind, text, rstToMdast(text), diagnostics), diagnostics };
    } catch (error) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'error',
        message: `Could not read the reStructuredText document: ${error instanceof Error ? error.message : String(error)}`,
        location: { file, line: 1, column: 1 },
      });
      return { doc: emptyDoc(file, kind), diagnostics };
    }
  }
  text = openDirectiveContainers(openIndentedContainers(text));
  // Text too dense in emphasis markers is parsed with emphasis off (src/docs/emphasis.ts): the
  // whole page, in every parse, so its tree never depends on how it was cut.
  const dense = denseEmphasis(text);
  const emphasisOff = dense !== undefined;
  if (dense) {
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: dense.paragraph
        ? `Emphasis not read: the paragraph from here has more than ${EMPHASIS_RUNS_PER_PARAGRAPH.toLocaleString('en-US')} runs of \`*\`, \`_\` or \`~\`, which the Markdown parser resolves against each other (the square of their number); it was read with emphasis and strikethrough off (their markers kept as text), the rest as always`
        : `Emphasis not read: this page has more than ${emphasisRunLimit(EMPHASIS_WINDOW).toLocaleString('en-US')} runs of \`*\`, \`_\` or \`~\` in 8 KB from here, each costing the Markdown parser about 0.1 ms; it was read with emphasis and strikethrough off (their markers kept as text), the rest as always`,
      location: { file, line: dense.line, column: 1 },
    });
  }
  let tree: Root | undefined;
  if (kind === 'mdx') {
    try {
      const mdxText = blankHeadingComments(text);
      tree = probedPiece(mdxText, (piece) => parseMarkdownText(piece, true, { emphasisOff }));
    } catch (error) {
      const { message, line, column } = errorPoint(error);
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `Could not parse as MDX (${message}); parsed as plain Markdown`,
        location: { file, line, column },
      });
    }
  }
  let segments: MarkdownSegment[] | undefined;
  try {
    // The caller (src/engine/pieces.ts) decided the page is long enough to be worth segments.
    if (options.segments !== undefined && !emphasisOff && segmentable(file, text, 0)) {
      const parsed = parseSegmented(text, parseMarkdown, options.segments);
      tree = parsed.tree;
      segments = parsed.segments;
    }
    tree ??= parseMarkdown(text, { emphasisOff });
  } catch (error) {
    const { message, line, column } = errorPoint(error);
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'error',
      message: `Could not parse as Markdown: ${message}`,
      location: { file, line, column },
    });
    return { doc: emptyDoc(file, kind), diagnostics };
  }
  try {
    // The readers over the finished tree are one more piece of work, over the whole text.
    pieceStarted(text.length);
    return { doc: described(file, kind, text, tree, diagnostics), diagnostics, ...(segments ? { segments } : {}) };
  } catch (error) {
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'error',
      message: `Could not read the document: ${error instanceof Error ? error.message : String(error)}`,
      location: { file, line: 1, column: 1 },
    });
    return { doc: emptyDoc(file, kind), diagnostics };
  }
}

/**
 * MkDocs content tabs (`=== "Python"`), admonitions (`!!! note`, `??? tip "Title"`, `???+ note`) and
 * Python-Markdown block extensions written with an indented body (`::: field-list`, `/// details`).
 */
const CONTAINER_MARKER_RE = /^(?:===|!!!|\?\?\?\+?|:::|\/\/\/)[ \t]+\S/;
/** A colon or slash fence that closes a container (`:::`, `///`): then the body is not indented-only. */
const CLOSING_FENCE_RE = /^ {0,3}(?::{3,}|\/{3,})[ \t]*$/;

/**
 * Makes the indented containers of MkDocs Material (content tabs, admonitions, collapsible
 * blocks) and Python-Markdown block extensions with an indented body (`::: field-list`, whose body
 * is `label` / `:   value` pairs) readable as Markdown: their content is indented by four blanks, which CommonMark reads
 * as an indented code block. Each marker line followed by an indented line becomes a list item
 * holding its title (`=== "Python"` → `-   "Python"`, content column 4), so the indented content
 * becomes the item's children and is read as if it stood at top level (tables, fenced blocks,
 * lists). Only marker lines change, so every other line and column stays where it is. Lines in
 * fenced code are left alone.
 */
export function openIndentedContainers(text: string): string {
  if (!/^(?:===|!!!|\?\?\?|:::|\/\/\/)/m.test(text)) return text;
  const lines = text.split(/(?<=\n)/);
  const inFence = fencedLineTracker();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const body = line.replace(/\r?\n$/, '');
    if (inFence(body) || !CONTAINER_MARKER_RE.test(body)) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    if (j >= lines.length || !/^(?: {4}|\t)/.test(lines[j]!)) continue;
    if (/^(?::::|\/\/\/)/.test(body)) {
      // A `::: name` / `/// name` with a closing fence after its indented body is a fenced
      // container (Docusaurus, MyST, pymdownx.blocks) whose body happens to be indented: left alone.
      let k = j;
      while (k < lines.length && (lines[k]!.trim() === '' || /^(?: {4}|\t)/.test(lines[k]!))) k++;
      if (k < lines.length && CLOSING_FENCE_RE.test(lines[k]!.replace(/\r?\n$/, ''))) continue;
    }
    lines[i] = `-   ${body.replace(/^\S+[ \t]+/, '')}${line.slice(body.length)}`;
  }
  return lines.join('');
}

/** {@link describe}, with the warning of a page whose example commands were cut added to `diagnostics`. */
function described(file: string, kind: DocFile['kind'], text: string, tree: Root, diagnostics: InputDiagnostic[]): DocFile {
  const doc = describe(file, kind, text, tree);
  if (doc.invocationsCut) diagnostics.push(invocationsCutDiagnostic(file, doc.invocationsCut, doc.invocations.length, `docdrift reads at most ${MAX_INVOCATION_WORDS_PER_DOCUMENT.toLocaleString('en-US')} words of example commands from one page`));
  return doc;
}

/** One pass over the tree collecting headings, tables, code blocks and links. */
function describe(file: string, kind: DocFile['kind'], text: string, tree: Root): DocFile {
  const rawLines = text.split(/\r\n|\r|\n/);
  const slug = createHeadingSlugger();
  const headings: Heading[] = [];
  const tables: DocTable[] = [];
  const codeBlocks: CodeBlock[] = [];
  const dataBlocks: DataBlock[] = [];
  const helpBlocks: HelpBlock[] = [];
  const proseCodes: ProseCode[] = [];
  // Paragraphs outside lists and tables, for the lead text of a section or table (src/docs/lead.ts).
  const paragraphs: Paragraph[] = [];
  let listDepth = 0;
  // The last paragraph seen: its text and last line, for a data block's introducing sentence.
  let lastParagraph: { text: string; endLine: number } | undefined;
  const invocations: Invocation[] = [];
  // Environment variables examples set (issue #31); blocks that are no shell invocation are numbered from ENV_BLOCK_INVOCATION_BASE.
  const envUsages: Usage[] = [];
  let envBlocks = 0;
  // Past MAX_INVOCATION_WORDS_PER_DOCUMENT words of example commands, the rest are counted, not kept.
  let invocationsCut: DocFile['invocationsCut'];
  let words = 0;
  const takeInvocations = (read: { invocations: Invocation[]; envUsages: Usage[] }, withEnv: boolean): void => {
    const { kept, words: taken } = invocationsWithin(read.invocations, MAX_INVOCATION_WORDS_PER_DOCUMENT - words);
    words += taken;
    if (kept === read.invocations.length) {
      pushAll(invocations, read.invocations);
      if (withEnv) pushAll(envUsages, read.envUsages);
      return;
    }
    invocationsCut = { location: read.invocations[kept]!.location };
    const last = invocations.length + kept;
    pushAll(invocations, read.invocations.slice(0, kept));
    // The variables set for the commands kept (an env usage's `invocation` is its command's index).
    if (withEnv) pushAll(envUsages, read.envUsages.filter((u) => u.invocation < last));
  };
  const links: DocLink[] = [];
  // Every inline code span with its line, in document order, for HeadingBlock.codes.
  const codeSpans: Array<{ line: number; text: string }> = [];
  const definitions = new Map<string, string>();
  const pendingReferences: Array<{ link: DocLink; identifier: string }> = [];

  // MyST `(label)=` targets not yet attached to the heading that follows them.
  const labels: Array<{ name: string; line: number }> = [];
  const addLink = (url: string, node: Positioned, rowLinks: DocLink[] | undefined): DocLink => {
    const link: DocLink = { file, url, location: locationOf(file, node) };
    links.push(link);
    rowLinks?.push(link);
    return link;
  };

  const readTable = (table: Table): void => {
    const [head, ...body] = table.children;
    const header = head ? head.children.map((c) => plainText(c)) : [];
    if (head) for (const c of head.children) visit(c, undefined);
    const rows: TableRow[] = body.map((row: MdTableRow) => {
      const rowLinks: DocLink[] = [];
      for (const c of row.children) visit(c, rowLinks);
      const cellSpans: number[] = [];
      const codeSpans: number[] = [];
      row.children.forEach((c: TableCell, col) => {
        pushSpan(cellSpans, c);
        for (const n of inlineCodeNodes(c)) {
          codeSpans.push(col);
          pushSpan(codeSpans, n);
        }
      });
      return {
        cells: row.children.map((c: TableCell) => plainText(c)),
        cellCodes: row.children.map((c: TableCell) => inlineCodes(c)),
        links: rowLinks,
        location: locationOf(file, row),
        cellSpans,
        ...(codeSpans.length > 0 ? { codeSpans } : {}),
      };
    });
    tables.push({ header, rows, location: locationOf(file, table) });
  };

  // HTML `<table>` references and `<pre>` examples, read from the text (an element may span
  // several `html` nodes when it holds blank lines; the first one reads it whole).
  let at: OffsetMap | undefined;
  let htmlEnd = -1;
  const readHtml = (from: number | undefined, to: number): void => {
    if (from === undefined || from < htmlEnd) return;
    const re = /<(table|pre)\b/gi;
    re.lastIndex = from;
    for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
      at ??= offsetMap(text);
      if (m[1]!.toLowerCase() === 'table') {
        const read = readHtmlTable(file, text, m.index, at);
        if (!read) continue;
        tables.push(read.table);
        htmlEnd = read.end;
      } else {
        const pre = readHtmlPre(file, text, m.index, at);
        if (!pre) continue;
        htmlEnd = pre.end;
        if (isShellLang(pre.lang) && invocationsCut === undefined) {
          const read = readCodeLines(file, pre.lines, pre.lang, pre.location, invocations.length, MAX_INVOCATION_WORDS_PER_DOCUMENT - words);
          codeBlocks.push(read.block);
          takeInvocations(read, true);
        }
      }
      re.lastIndex = htmlEnd;
    }
  };

  const visit = (node: Nodes, rowLinks: DocLink[] | undefined): void => {
    switch (node.type) {
      case 'heading': {
        const h = node as MdHeading;
        const headingText = plainText(h);
        const line = h.position?.start.line ?? 0;
        // Anchors besides the slug: an explicit `{#id}` (VitePress, Docusaurus, attr_list, Pandoc)
        // and MyST `(label)=` targets on the lines right above the heading.
        const anchors = [...labels.filter((l) => l.line < line && l.line >= line - 2).map((l) => l.name)];
        const explicit = headingId(headingText);
        if (explicit !== undefined) anchors.push(explicit);
        // reStructuredText `.. _label:` targets above a title (src/docs/rst.ts).
        anchors.push(...((h.data as { anchors?: string[] } | undefined)?.anchors ?? []));
        labels.length = 0;
        headings.push({
          depth: h.depth,
          text: headingText,
          codes: inlineCodes(h),
          slug: slug(headingText),
          ...(anchors.length > 0 ? { anchors } : {}),
          location: locationOf(file, h),
        });
        break;
      }
      case 'table':
        readTable(node);
        return;
      case 'code': {
        const code = node as Code;
        // MyST: ```{code-block} bash``` is a `bash` block.
        if (code.lang && /^\{(?:code-block|code|sourcecode)\}$/.test(code.lang)) {
          const [lang, ...meta] = (code.meta ?? '').trim().split(/\s+/);
          code.lang = lang || null;
          code.meta = meta.length > 0 ? meta.join(' ') : null;
        }
        if (code.lang === '{list-table}') {
          const table = readListTable(file, code, (t) => markdownProcessor.parse(t));
          if (table) tables.push(table);
          return;
        }
        // A `.env` block (```dotenv, ```bash title=".env"): its `KEY=value` lines are read as a
        // file's, not as shell (a bare `KEY=v` line sets nothing in a shell).
        const envFile = isEnvFileBlock(code.lang, code.meta);
        if (envFile || isWindowsShellLang(code.lang)) {
          const content = blockContent(file, code);
          const index = ENV_BLOCK_INVOCATION_BASE + envBlocks++;
          if (content) envUsages.push(...(envFile ? envBlockUsages(file, content, index) : windowsEnvUsages(file, content, code.lang!, index)));
        }
        const data = dataBlockOf(file, code);
        if (data && !envFile) envUsages.push(...dataBlockEnvUsages(data, ENV_BLOCK_INVOCATION_BASE + envBlocks++));
        if (data && lastParagraph && code.position) {
          const between = rawLines.slice(lastParagraph.endLine, code.position.start.line - 1);
          const lead = lastParagraph.text.trim().split(/(?<=[.!?])\s+/).pop() ?? '';
          if (between.every((l) => l.trim() === '') && lead.endsWith(':')) data.lead = lead;
        }
        if (data) {
          dataBlocks.push(data);
          return;
        }
        const help = readHelpBlock(file, code, rawLines);
        if (help) helpBlocks.push(help);
        // An indented block (Markdown's indented code, a reStructuredText `::` literal block) has
        // no language: it is read as examples only when its lines look like command lines. A
        // reStructuredText code directive (`.. code-block:: sh`) is read as a fenced block is.
        const rstForm = (code.data as RstCodeData | undefined)?.rst;
        const unfenced = rstForm !== undefined || !isFenced(code, rawLines);
        // A reStructuredText block of plain text (`.. code-block:: none`, `text`) is gated the same way.
        const plain = rstForm === 'directive' && code.lang !== null && code.lang !== undefined && PLAIN_LANGS.has(code.lang.toLowerCase());
        const examples = (rstForm === 'directive' && !plain) || !unfenced || looksLikeCommandLines(code.value);
        // Past the page's limit of example words, later blocks are not read (a page of 4,400-line
        // blocks: each block's shell text cost more than its Markdown).
        const read = examples && invocationsCut === undefined ? readCodeBlock(file, plain ? { ...code, lang: null } : code, rawLines, invocations.length, unfenced, MAX_INVOCATION_WORDS_PER_DOCUMENT - words) : undefined;
        if (read) {
          codeBlocks.push(read.block);
          // A PowerShell block's variables were read above by its own grammar (`$env:X = …`).
          takeInvocations(read, !envFile && !isWindowsShellLang(code.lang));
        }
        return;
      }
      case 'paragraph': {
        const label = MYST_LABEL_RE.exec(plainText(node).trim());
        if (label) labels.push({ name: label[1]!, line: node.position?.end.line ?? 0 });
        proseCodes.push(...readProseCodes(file, node));
        lastParagraph = { text: plainText(node), endLine: node.position?.end.line ?? 0 };
        if (listDepth === 0 && node.position) paragraphs.push({ text: lastParagraph.text, line: node.position.start.line, endLine: node.position.end.line });
        break;
      }
      case 'inlineCode':
        codeSpans.push({ line: node.position?.start.line ?? 1, text: node.value });
        return;
      case 'link':
        addLink(node.url, node, rowLinks);
        break;
      case 'linkReference':
        pendingReferences.push({ link: addLink('', node, rowLinks), identifier: node.identifier });
        break;
      case 'definition':
        if (!definitions.has(node.identifier)) definitions.set(node.identifier, node.url);
        return;
      case 'html':
        if (/<(?:table|pre)\b/i.test(node.value)) readHtml(node.position?.start.offset, node.position?.end.offset ?? 0);
        return;
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        const el = node as MdxJsxFlowElement | MdxJsxTextElement;
        if (node.type === 'mdxJsxFlowElement' && (el.name === 'table' || el.name === 'pre')) {
          readHtml(el.position?.start.offset, (el.position?.start.offset ?? 0) + 1);
          if (el.name === 'pre') return;
        }
        if (el.name === 'a' || el.name === 'Link') {
          const href = el.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'href');
          if (href && typeof href.value === 'string') addLink(href.value, el, rowLinks);
        }
        break;
      }
      default:
        break;
    }
    if (!('children' in node)) return;
    const item = node.type === 'listItem';
    if (item) listDepth++;
    const children = node.children as Nodes[];
    children.forEach((child, i) => {
      // A MyST or Sphinx cross-reference role: {ref}`text <label>`, :doc:`path` (text, then code).
      const next = children[i + 1];
      if (child.type !== 'text' || next?.type !== 'inlineCode') return;
      const role = ROLE_RE.exec(child.value);
      if (!role) return;
      const target = /<([^<>]+)>\s*$/.exec(next.value)?.[1] ?? next.value;
      const link = addLink(target.trim().replace(/^[~!]/, ''), next, rowLinks);
      link.role = (role[1] ?? role[2]) === 'doc' ? 'doc' : 'ref';
    });
    for (const child of children) visit(child, rowLinks);
    if (item) listDepth--;
  };
  visit(tree, undefined);

  for (const { link, identifier } of pendingReferences) link.url = definitions.get(identifier) ?? '';
  for (const link of links) {
    if (link.role) continue; // resolved by label or document name in the link stage
    const target = resolveLink(file, link.url);
    if (target.targetFile !== undefined) link.targetFile = target.targetFile;
    if (target.fragment !== undefined) link.fragment = target.fragment;
  }

  const fileLastLine = lastLine(text);
  const layouts = readLayoutRows(tree, { file, rawLines, links, tables, invocations, lastLine: fileLastLine });
  // A page titled only in its frontmatter (Docusaurus `title: What's new in OPAL`) is named by it.
  const frontTitle = headings.some((h) => h.depth === 1) ? undefined : frontmatterTitle(tree);
  const historical =
    isHistoricalPage(file, headings[0]?.text, headings.map((h) => h.text)) || (frontTitle !== undefined && isHistoryHeading(frontTitle));
  const partial = isPartialPage(file);
  const contributor = isContributorPage(file);
  const parameterRows = documentedNames(tables, layouts);
  return { file, kind, headings, blocks: buildBlocks(headings, tables, codeSpans, fileLastLine, layouts), codeBlocks, invocations, ...(envUsages.length > 0 ? { envUsages } : {}), dataBlocks, ...(helpBlocks.length > 0 ? { helpBlocks } : {}), ...(proseCodes.length > 0 ? { proseCodes } : {}), ...(paragraphs.length > 0 ? { paragraphs } : {}), ...(parameterRows.length > 0 ? { parameterRows } : {}), links, ...(historical ? { historical } : {}), ...(partial ? { partial } : {}), ...(contributor ? { contributor } : {}), ...(invocationsCut ? { invocationsCut } : {}) };
}

/**
 * The `title:` of a document's YAML frontmatter (Docusaurus, Starlight, Mintlify, Jekyll), quotes
 * removed; undefined when there is none. Read by a line match, not a YAML parse: only a plain
 * one-line scalar is taken.
 */
function frontmatterTitle(tree: Root): string | undefined {
  const first = tree.children[0];
  return first?.type === 'yaml' ? yamlTitle(first.value) : undefined;
}

/** The `title:` line of a YAML frontmatter's text (see {@link frontmatterTitle}). */
export function yamlTitle(yaml: string): string | undefined {
  // The line's rest, its blanks trimmed here: `[ \t]*(.+?)[ \t]*$` rescanned a blank run from each
  // of its positions (quadratic, s27).
  const m = /^title:(.+)$/m.exec(yaml);
  if (!m) return undefined;
  const value = trimTrailing(trimLeading(m[1]!, ' \t'), ' \t').replace(/^(['"])(.*)\1$/, '$2').trim();
  return value === '' ? undefined : value;
}

/**
 * An explicit heading id at the end of a heading: `## Export {#export}`, and Python-Markdown /
 * MkDocs attribute lists (`{: #export }`, `{ #export .class }`): the inside of its braces. Group 1 the id.
 */
const HEADING_ID_RE = /^:?[ \t]*#([\w:.-]+)(?:[ \t][^{}\n]*)?$/;

/**
 * The explicit id of a heading (see {@link HEADING_ID_RE}), as
 * `/\{:?[ \t]*#([\w:.-]+)(?:[ \t]+[^{}\n]*)?[ \t]*\}\s*$/` read it: the `}` is the last non-blank
 * character, the `{` the last one before it, and the pattern is tried on what is between them.
 * That pattern's three blank runs side by side backtracked cubically (2.4 s on 2,000 tabs, s27).
 */
export function headingId(text: string): string | undefined {
  const end = text.trimEnd();
  if (!end.endsWith('}')) return undefined;
  const open = end.lastIndexOf('{');
  return open < 0 ? undefined : HEADING_ID_RE.exec(end.slice(open + 1, -1))?.[1];
}
/** A MyST target line: `(help-prompt)=`. Group 1 the label. */
const MYST_LABEL_RE = /^\(([^()\s]+)\)=$/;
/** Text ending in a cross-reference role: MyST `{ref}`/`{doc}`, Sphinx `:ref:`/`:doc:` (`:std:ref:`). */
const ROLE_RE = /(?:\{(ref|doc|numref)\}|:(?:std:)?(ref|doc|numref):)$/;

/** Last line of the text (a final newline does not start a new line). */
function lastLine(text: string): number {
  const lines = text.split(/\r\n|\r|\n/);
  return Math.max(1, text.length > 0 && /[\r\n]$/.test(text) ? lines.length - 1 : lines.length);
}

/** A heading made only of flag spellings in code (`` ### `--color` / `--no-color` ``, `` #### `-W`, `--workers` ``). */
function isFlagHeading(h: Heading): boolean {
  if (h.codes.length === 0 || !h.codes.every((c) => /^-/.test(c.trim()) && isParamSpelling(c.split(',')[0]!.trim()))) return false;
  let rest = h.text;
  for (const c of h.codes) rest = rest.replace(c, '');
  return /^[\s,/|]*(?:or[\s,/|]*)*$/.test(rest);
}

/** First index in a line-sorted list whose line is at least `line`. */
function lowerBound<T>(items: readonly T[], line: number, lineOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lineOf(items[mid]!) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Heading blocks with their tables and inline codes; both lists are in document order, so each
 * block takes a contiguous slice (found by binary search, no scan per heading).
 */
function buildBlocks(
  headings: readonly Heading[],
  tables: readonly DocTable[],
  codeSpans: ReadonlyArray<{ line: number; text: string }>,
  fileLastLine: number,
  layouts: LayoutRows,
): HeadingBlock[] {
  const blocks: HeadingBlock[] = [];
  // Next heading of the same or higher rank, found with a stack in one pass.
  const endLines = new Array<number>(headings.length).fill(fileLastLine);
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.depth >= h.depth) {
      const top = headings[open[open.length - 1]!]!;
      // An option heading one rank too high (`### Command line options` … `### `--line-ranges``,
      // a slip) does not close the section it continues; it closes a sibling option heading.
      if (top.depth === h.depth && isFlagHeading(h) && top.codes.length === 0) break;
      endLines[open.pop()!] = h.location.line - 1;
    }
    open.push(i);
  });
  headings.forEach((heading, i) => {
    const endLine = Math.max(heading.location.line, endLines[i]!);
    const firstTable = lowerBound(tables, heading.location.line, (t) => t.location.line);
    const inBlock: DocTable[] = [];
    for (let t = firstTable; t < tables.length && tables[t]!.location.line <= endLine; t++) inBlock.push(tables[t]!);
    const firstCode = lowerBound(codeSpans, heading.location.line, (c) => c.line);
    const codes: string[] = [];
    for (let c = firstCode; c < codeSpans.length && codeSpans[c]!.line <= endLine; c++) codes.push(codeSpans[c]!.text);
    // Rows strictly after the block's heading line: a parameter heading is not a row of its own block.
    const rowsIn = (rows: readonly ReferenceRow[]): ReferenceRow[] => {
      const out: ReferenceRow[] = [];
      for (let r = lowerBound(rows, heading.location.line + 1, (x) => x.location.line); r < rows.length && rows[r]!.location.line <= endLine; r++) out.push(rows[r]!);
      return out;
    };
    blocks.push({ heading, endLine, tables: inBlock, codes, headingRows: rowsIn(layouts.headingRows), listRows: rowsIn(layouts.listRows) });
  });
  return blocks;
}

/**
 * Every parameter the page documents as a row of a layout (a reference table's row, a parameter
 * heading, a reference list item), wherever it stands, in line order: what "documented elsewhere"
 * looks up (`documentedElsewhere` in src/model/query.ts). Names only, with the row's line and
 * whether it is written as a flag (`--roots`) or as a key (`roots`).
 */
function documentedNames(tables: readonly DocTable[], layouts: LayoutRows): DocumentedName[] {
  const overrides: DocumentedName[] = [];
  const rows = [
    ...tables.flatMap((t) => {
      const read = readReferenceTable(t);
      if (read === undefined || read.length === 0) overrides.push(...overrideRows(t));
      return read ?? [];
    }),
    ...layouts.headingRows,
    ...layouts.listRows,
  ];
  return [
    ...rows.filter((r) => r.names.length > 0).map((r) => ({ names: r.names, line: r.location.line, flag: /^\W{0,3}-/.test(r.rawName.trim()) })),
    ...overrides,
  ].sort((a, b) => a.line - b.line);
}

/**
 * The Hydra overrides a table that is no reference table names in its first column (a "Legacy
 * Hydra override → New flag" mapping): each documents its key, and a dotted key its first segment
 * too (`++responses_create_params.top_p=...` shows how `responses_create_params` is set).
 */
function overrideRows(table: DocTable): DocumentedName[] {
  const out: DocumentedName[] = [];
  for (const row of table.rows) {
    for (const code of row.cellCodes[0] ?? []) {
      // Hydra's grammar (`asOverride`), with the add, force-add or delete prefix: a bare `key=v`
      // in a table may be anything (an environment variable).
      const override = asOverride(code.trim());
      if (!override || override.prefix === '') continue;
      const key = override.key;
      const head = key.split(/[./@]/)[0]!;
      out.push({ names: head === key ? [key] : [key, head], line: row.location.line, flag: false, override: true });
    }
  }
  return out;
}
