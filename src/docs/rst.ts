/**
 * Reads a reStructuredText (Sphinx) document into an mdast tree with exact positions, so that the
 * Markdown readers of src/docs/parse.ts (headings, tables, reference lists, code blocks, pasted
 * `--help`, links) read it unchanged (issue #30).
 *
 * Why docdrift's own reader: the two npm parsers were evaluated (December 2026). `restructured`
 * 0.0.11 (MIT, unmaintained since 2016's API, 2024 release) gives positions but reads no table
 * (grid and simple tables come out as paragraphs), places a literal block at the `::` of its
 * paragraph, and keeps directive arguments as text; it depends on lodash, commander 2 and
 * power-assert. `rst-compiler` 0.5.9 (MIT) reads tables and directives, but its positions are
 * line indexes without columns, and it pulls in shiki and katex (~10 MB). Neither gives the
 * columns the rules report at, so this module reads the constructs docdrift needs and nothing
 * more, in time and memory linear in the text (see {@link MAX_NESTING} and {@link MAX_COLUMNS}).
 *
 * What it reads (docutils' and Sphinx's syntax, https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html):
 * - section titles, underlined or over- and underlined; the depth is the order in which the
 *   adornment styles are first met (as docutils assigns levels), capped at 6; `.. _label:`
 *   targets right above a title become its anchors;
 * - paragraphs, with inline literals (` ``x`` ` → `inlineCode`), `**strong**`, `*emphasis*`,
 *   hyperlinks `` `text <url>`_ `` (and `__`) and `` `text`_ `` / `name_` to a `.. _name: url`
 *   target (→ `link`), roles (`` :option:`--port` `` → `inlineCode`; `` :ref:`x` `` and
 *   `` :doc:`x` `` as the text `:ref:` and the code `x`, which parse.ts turns into a role link);
 * - literal blocks after a paragraph ending in `::` (the expanded `Paragraph::`, `Paragraph ::`
 *   and the lone `::` forms), `.. code-block:: sh`, `.. code:: bash`, `.. sourcecode::`,
 *   `.. prompt:: bash $` and `.. highlight:: lang` (the language of later `::` blocks and of
 *   `code-block`s without one) → `code`; the node starts at the first content line and its value
 *   is the content without the block's indentation, so each value line is a suffix of its line;
 *   `data.rst` says which form it is (`literal` or `directive`);
 * - grid tables, simple tables, `.. list-table::` (`:header-rows:`) and `.. csv-table::`
 *   (`:header:`, `:delim:`, inline body) → `table` (a table without header rows gets an empty
 *   header row, so it is never read as a reference table by its first row);
 * - bullet and enumerated lists → `list`; definition lists, field lists, docutils option lists
 *   (`-p PORT, --port=PORT  The port.`) and Sphinx `.. option:: -p, --port <port>` → a list item
 *   whose paragraph is the term (options as inline code, separated by `, `), `: ` and the first
 *   paragraph of the definition: the reference-list layout of src/docs/layouts.ts;
 * - `.. program:: name` → a heading holding `name` as inline code, one level below the current
 *   section, so the options after it form the program's reference section;
 * - admonitions, containers (`note`, `versionadded`, `tab`, `only`, …), Sphinx object
 *   descriptions (`py:function`, `describe`) and unknown directives → their body in place, except
 *   the directives whose content is no reStructuredText (`raw`, `math`, `toctree`, `auto*`, …).
 *
 * Not read: substitutions, footnotes and citations, comments, quoted literal blocks, doctest
 * blocks (skipped), `include`/`literalinclude`/`automodule`/`click`/`argparse` directives (their
 * content is generated from other files), tables with row or column spans (read as if cut at the
 * first row's column boundaries), a csv-table's `:file:`/`:url:`, and tabs in indentation (a tab
 * counts as one blank).
 */

import type {
  Code, Heading, List, ListItem, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, TableRow, Text,
} from 'mdast';

/** Deepest indentation nesting read; deeper content is kept as plain paragraphs. */
export const MAX_NESTING = 40;
/** Most columns a table may have; a wider one is read as a paragraph (as Markdown's limit). */
export const MAX_COLUMNS = 1000;

/** A point in the document (1-based line and column, 0-based offset). */
interface Pt { line: number; column: number; offset: number }

/** One line of a nested body: the document line index and the column (0-based) its body text starts at. */
interface Ln { i: number; col: number }

/** The `data` docdrift puts on code nodes it makes from reStructuredText. */
export interface RstCodeData { rst: 'literal' | 'directive' }

/** Adornment characters of section titles and transitions. */
const ADORNMENT_RE = /^([!-\/:-@[-`{-~])\1+\s*$/;
/** A bullet list item marker. */
const BULLET_RE = /^([-*+•‣⁃])(?: +|$)/;
/** An enumerated list item marker: `1.`, `#.`, `(2)`, `3)`. */
const ENUM_RE = /^(?:\d{1,9}|#)\.(?: +|$)|^\(?(?:\d{1,9}|#)\)(?: +|$)/;
/** A field list item: `:name: body`. */
const FIELD_RE = /^:((?:[^:`\\]|\\.)+):(?: +|$)/;
/** One option of an option list or an `option` directive. */
const OPTION_PART = String.raw`(?:--?[A-Za-z0-9?][\w.\-\[\]]*|\+[A-Za-z0-9]|/[A-Za-z0-9])(?:[ =](?:<[^<>]+>|[\w.\-\[\]{}|:/]+))?`;
/** A docutils option list line: options joined by `, `, then two blanks and the description (or nothing). */
const OPTION_LINE_RE = new RegExp(String.raw`^(${OPTION_PART}(?:, ${OPTION_PART})*)(?: {2,}(\S.*))?\s*$`);
/** A grid table border line. */
const GRID_BORDER_RE = /^\+(?:[-=]+\+)+\s*$/;
/** A simple table border line with at least two columns. */
const SIMPLE_BORDER_RE = /^=+(?: +=+)+\s*$/;
/** An explicit markup start: `.. ` or `..` alone. */
const EXPLICIT_RE = /^\.\.(?: |$)/;
/**
 * A directive: `.. name:: argument`. Group 1 the name, group 2 the argument. Tested on a line
 * without trailing blanks, so the argument runs to the end (`(.*?)\s*$` rescanned blank runs from
 * each position: quadratic, s26b sweep O2). `(?! )` after ` +`: the blanks before the argument
 * are ` +`'s alone (a blank run then a line separator was quadratic, s27).
 */
export const DIRECTIVE_RE = /^\.\. +([A-Za-z0-9][\w.:+-]*?) ?::(?: +(?! )(.*))?$/;
/** A hyperlink target: `.. _name: url` or `.. _name:`; tested on a line without trailing blanks, as {@link DIRECTIVE_RE}. */
const TARGET_RE = /^\.\. +_((?:`[^`]+`)|(?:[^:\\]|\\.)+):(?: +(\S.*))?$/;
/**
 * Directives whose content is no reStructuredText to read: raw text, math, diagrams, file names,
 * test code, or text generated at build time from other files (`automodule`, `click`,
 * `argparse`, `program-output`). Any other directive's content is read in place.
 */
const OPAQUE_DIRECTIVES: ReadonlySet<string> = new Set([
  'raw', 'math', 'graphviz', 'graph', 'digraph', 'mermaid', 'plantuml', 'uml', 'toctree', 'literalinclude', 'include', 'image',
  'figure', 'testcode', 'testoutput', 'testsetup', 'testcleanup', 'doctest', 'ipython', 'jupyter-execute', 'click', 'argparse',
  'typer', 'program-output', 'command-output', 'runblock', 'jinja', 'contents', 'sectnum', 'header', 'footer', 'meta',
  'replace', 'unicode', 'date', 'index', 'glossary', 'productionlist', 'tabularcolumns', 'default-role', 'role', 'parsed-literal',
  'code-block', 'code', 'sourcecode', 'prompt', 'highlight', 'table',
]);
/** Directives whose content is code. */
const CODE_DIRECTIVES: ReadonlySet<string> = new Set(['code-block', 'code', 'sourcecode', 'prompt']);

/** The tree builder's state for one document. */
class Reader {
  readonly lines: string[];
  readonly starts: number[];
  /** Adornment styles in the order met: `=` underline-only is `u=`, with overline `o=`. */
  readonly styles: string[] = [];
  /** The depth of the last section title (0 before any). */
  sectionDepth = 0;
  /** The language `.. highlight::` set for literal blocks. */
  highlight: string | null = null;
  /** `.. _label:` targets waiting for the title below them. */
  labels: string[] = [];
  /** Named hyperlink targets (`.. _name: url`), lower-cased name → url. */
  readonly targets = new Map<string, string>();

  constructor(text: string) {
    this.lines = text.split(/\r\n|\r|\n/);
    this.first = new Int32Array(this.lines.length);
    this.trimmed = new Int32Array(this.lines.length);
    this.lines.forEach((line, i) => {
      const m = /\S/.exec(line);
      this.first[i] = m ? m.index : -1;
      let e = line.length;
      while (e > 0 && /\s/.test(line[e - 1]!)) e--;
      this.trimmed[i] = e;
    });
    // Named targets first, so references before their target resolve (`name_` is a link only to a known target).
    for (const line of this.lines) {
      const m = TARGET_RE.exec(line.trim());
      if (m && m[2] !== undefined && !m[1]!.startsWith('_')) this.targets.set(m[1]!.replace(/^`|`$/g, '').toLowerCase(), m[2]);
    }
    this.starts = [];
    let at = 0;
    const re = /\r\n|\r|\n/g;
    this.starts.push(0);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      at = m.index + m[0].length;
      this.starts.push(at);
    }
  }

  /** The point at line index `i`, column `col` (0-based). */
  pt(i: number, col: number): Pt {
    return { line: i + 1, column: col + 1, offset: (this.starts[i] ?? 0) + col };
  }

  /** Per line: the column of its first non-blank character (-1 for a blank line), and its length without trailing blanks; computed once. */
  readonly first: Int32Array;
  readonly trimmed: Int32Array;

  /** Blanks from a body line's column to its first other character (a tab counts as one). */
  indent(l: Ln): number {
    const f = this.first[l.i]!;
    if (f >= l.col) return f - l.col;
    const line = this.lines[l.i]!;
    let c = l.col;
    while (c < line.length && (line[c] === ' ' || line[c] === '\t')) c++;
    return c - l.col;
  }

  /** True when a body line holds only blanks from its column. */
  blank(l: Ln): boolean {
    const f = this.first[l.i]!;
    if (f < 0) return true;
    if (f >= l.col) return false;
    return this.trimmed[l.i]! <= l.col;
  }

  /** The text of a body line from its column. */
  text(l: Ln): string {
    return this.lines[l.i]!.slice(l.col);
  }

  /** The end point of a body line. */
  endOf(l: Ln): Pt {
    return this.pt(l.i, this.trimmed[l.i]!);
  }
}

/** Leading blanks of a text (a tab counts as one). */
function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

const isBlank = (text: string): boolean => text.trim() === '';

/**
 * Reads a reStructuredText document into an mdast `root` whose nodes carry the line, column and
 * offset where they stand in `text`. Never throws on odd input; constructs it does not know
 * become paragraphs or are skipped (see the module comment).
 */
export function rstToMdast(text: string): Root {
  const r = new Reader(text);
  const view: Ln[] = r.lines.map((_, i) => ({ i, col: 0 }));
  const children = readBlocks(r, view, 0, true);
  const last = r.lines.length - 1;
  return {
    type: 'root',
    children,
    position: { start: r.pt(0, 0), end: r.pt(last, r.lines[last]!.length) },
  };
}

/** The body below a marker line at `k` in `view`: the lines after it that are blank or indented, trailing blanks dropped. */
function indentedAfter(r: Reader, view: readonly Ln[], k: number): { body: Ln[]; next: number } {
  let j = k + 1;
  let lastNonBlank = k;
  while (j < view.length) {
    const blank = r.blank(view[j]!);
    if (!blank && r.indent(view[j]!) === 0) break;
    if (!blank) lastNonBlank = j;
    j++;
  }
  const lines = view.slice(k + 1, lastNonBlank + 1);
  return { body: dedent(r, lines), next: lastNonBlank + 1 };
}

/** Lines moved right by their least indentation (blank lines kept). */
function dedent(r: Reader, lines: readonly Ln[]): Ln[] {
  let min = Infinity;
  for (const l of lines) if (!r.blank(l)) min = Math.min(min, r.indent(l));
  if (min === Infinity) min = 0;
  return lines.map((l) => ({ i: l.i, col: r.blank(l) ? l.col : l.col + min }));
}

/** Reads the blocks of one body. `top` is the document level, where section titles may stand. */
function readBlocks(r: Reader, view: readonly Ln[], depth: number, top: boolean): RootContent[] {
  const out: RootContent[] = [];
  if (depth > MAX_NESTING) {
    // Too deep: the rest is text, read line by line (linear, no more nesting).
    for (const l of view) if (!isBlank(r.text(l))) out.push(paragraph(r, [l]));
    return out;
  }
  let literalNext = false;
  let k = 0;
  while (k < view.length) {
    const l = view[k]!;
    if (r.blank(l)) {
      k++;
      continue;
    }
    const wantLiteral = literalNext;
    literalNext = false;
    if (r.indent(l) > 0) {
      // An indented block: a literal block after `::`, else a block quote.
      let j = k;
      while (j < view.length && (r.blank(view[j]!) || r.indent(view[j]!) > 0)) j++;
      let end = j;
      while (end > k && r.blank(view[end - 1]!)) end--;
      const lines = dedent(r, view.slice(k, end));
      if (wantLiteral) out.push(codeNode(r, lines, r.highlight, 'literal'));
      else out.push({ type: 'blockquote', children: readBlocks(r, lines, depth + 1, false) as never, position: { start: r.pt(lines[0]!.i, lines[0]!.col), end: r.endOf(lines[lines.length - 1]!) } });
      k = j;
      continue;
    }
    const t = r.text(l);
    const next = view[k + 1];
    const nextText = next ? r.text(next) : undefined;
    // Section titles (document level only).
    if (top) {
      const title = readTitle(r, view, k);
      if (title) {
        out.push(title.node);
        k = title.next;
        continue;
      }
      if (ADORNMENT_RE.test(t) && t.trim().length >= 4 && (nextText === undefined || isBlank(nextText))) {
        k++; // a transition
        continue;
      }
    }
    if (EXPLICIT_RE.test(t)) {
      const read = readExplicit(r, view, k, depth);
      // Consecutive `.. option::` directives are one reference list, as Sphinx renders them.
      const prev = out[out.length - 1];
      const first = read.nodes[0];
      if (read.nodes.length === 1 && first?.type === 'list' && OPTION_LISTS.has(first) && prev?.type === 'list' && OPTION_LISTS.has(prev)) {
        prev.children.push(...first.children);
        prev.position = { start: prev.position!.start, end: first.position!.end };
        k = read.next;
        continue;
      }
      out.push(...read.nodes);
      k = read.next;
      continue;
    }
    if (GRID_BORDER_RE.test(t)) {
      const read = readGridTable(r, view, k);
      if (read) {
        out.push(read.node);
        k = read.next;
        continue;
      }
    }
    if (SIMPLE_BORDER_RE.test(t)) {
      const read = readSimpleTable(r, view, k);
      if (read) {
        out.push(read.node);
        k = read.next;
        continue;
      }
    }
    const option = OPTION_LINE_RE.exec(t);
    if (option && (option[2] !== undefined || (nextText !== undefined && !isBlank(nextText) && indentOf(nextText) > 0))) {
      const read = readItems(r, view, k, depth, 'option');
      out.push(read.node);
      k = read.next;
      continue;
    }
    if (BULLET_RE.test(t) || ENUM_RE.test(t)) {
      const read = readItems(r, view, k, depth, ENUM_RE.test(t) ? 'enum' : 'bullet');
      out.push(read.node);
      k = read.next;
      continue;
    }
    if (FIELD_RE.test(t)) {
      const read = readItems(r, view, k, depth, 'field');
      out.push(read.node);
      k = read.next;
      continue;
    }
    if (t.startsWith('>>>')) {
      while (k < view.length && !r.blank(view[k]!)) k++;
      continue;
    }
    // A definition list item: one line, then an indented definition right below it.
    if (nextText !== undefined && !isBlank(nextText) && indentOf(nextText) > 0 && !t.trimEnd().endsWith('::')) {
      const read = readItems(r, view, k, depth, 'definition');
      out.push(read.node);
      k = read.next;
      continue;
    }
    // A paragraph: lines up to a blank or indented line.
    let j = k + 1;
    while (j < view.length && !r.blank(view[j]!) && r.indent(view[j]!) === 0) j++;
    const lines = view.slice(k, j);
    const lastText = r.text(lines[lines.length - 1]!).trimEnd();
    if (lastText.endsWith('::')) {
      literalNext = true;
      const para = literalParagraph(r, lines);
      if (para) out.push(para);
    } else {
      out.push(paragraph(r, lines));
    }
    k = j;
  }
  return out;
}

/** A paragraph ending in `::` with the colons as docutils renders them: `Text::` → `Text:`, `Text ::` → `Text`, `::` alone → nothing. */
function literalParagraph(r: Reader, lines: readonly Ln[]): Paragraph | undefined {
  const last = lines[lines.length - 1]!;
  const lastText = r.text(last).trimEnd();
  if (lines.length === 1 && lastText.trim() === '::') return undefined;
  const cut = / ::$/.test(lastText) ? lastText.length - 3 : lastText.length - 1;
  return paragraph(r, lines, cut);
}

/** A section title at `k` (underlined, or over- and underlined). */
function readTitle(r: Reader, view: readonly Ln[], k: number): { node: Heading; next: number } | undefined {
  const t = r.text(view[k]!);
  const a = view[k + 1];
  const b = view[k + 2];
  if (ADORNMENT_RE.test(t) && a && b) {
    const titleText = r.text(a);
    const under = r.text(b);
    if (!isBlank(titleText) && ADORNMENT_RE.test(under) && under.trim()[0] === t.trim()[0] && !ADORNMENT_RE.test(titleText.trim())) {
      return { node: heading(r, `o${t.trim()[0]}`, a), next: k + 3 };
    }
  }
  if (a && !ADORNMENT_RE.test(t)) {
    const under = r.text(a).trimEnd();
    const width = t.trimEnd().length;
    if (ADORNMENT_RE.test(under) && (under.length >= width || under.length >= 4) && indentOf(under) === 0) {
      // A title is one line: the line above must be blank or the view's start.
      const above = view[k - 1];
      if (above && !isBlank(r.text(above))) return undefined;
      return { node: heading(r, `u${under[0]}`, view[k]!), next: k + 2 };
    }
  }
  return undefined;
}

/** A heading of the adornment `style` with its title on `line`. */
function heading(r: Reader, style: string, line: Ln): Heading {
  let index = r.styles.indexOf(style);
  if (index < 0) {
    r.styles.push(style);
    index = r.styles.length - 1;
  }
  const depth = Math.min(6, index + 1) as Heading['depth'];
  r.sectionDepth = depth;
  const t = r.text(line);
  const lead = indentOf(t);
  const node: Heading = {
    type: 'heading',
    depth,
    children: inline(r, [{ i: line.i, col: line.col + lead }]),
    position: { start: r.pt(line.i, line.col + lead), end: r.endOf(line) },
  };
  if (r.labels.length > 0) {
    node.data = { anchors: r.labels } as never;
    r.labels = [];
  }
  return node;
}

/** A paragraph of the lines (the last cut at `cut` characters of its body text, when given). */
function paragraph(r: Reader, lines: readonly Ln[], cut?: number): Paragraph {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const lead = indentOf(r.text(first));
  const start = { i: first.i, col: first.col + lead };
  const spans = lines.map((l, n) => (n === 0 ? start : l));
  return {
    type: 'paragraph',
    children: inline(r, spans, cut),
    position: { start: r.pt(start.i, start.col), end: cut !== undefined ? r.pt(last.i, last.col + cut) : r.endOf(last) },
  };
}

/** A code node of the lines (dedented), with its language. */
function codeNode(r: Reader, lines: readonly Ln[], lang: string | null, form: RstCodeData['rst']): Code {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const data: RstCodeData = { rst: form };
  return {
    type: 'code',
    lang,
    meta: null,
    value: lines.map((l) => r.text(l).trimEnd()).join('\n'),
    data: data as never,
    position: { start: r.pt(first.i, first.col), end: r.endOf(last) },
  };
}

// ---------------------------------------------------------------------------------------------
// Explicit markup: directives, targets, comments.

/** Reads the explicit markup block at `k`. */
function readExplicit(r: Reader, view: readonly Ln[], k: number, depth: number): { nodes: RootContent[]; next: number } {
  const line = view[k]!;
  const t = r.text(line).trimEnd();
  const { body, next } = indentedAfter(r, view, k);
  const target = TARGET_RE.exec(t);
  if (target) {
    const name = target[1]!.replace(/^`|`$/g, '');
    if (target[2] !== undefined) {
      r.targets.set(name.toLowerCase(), target[2]);
    } else if (body.length === 0) {
      r.labels.push(name);
    } else {
      r.targets.set(name.toLowerCase(), body.map((l) => r.text(l).trim()).join(''));
    }
    return { nodes: [], next };
  }
  const directive = DIRECTIVE_RE.exec(t);
  if (!directive) return { nodes: [], next }; // a comment, footnote, citation or substitution
  const name = directive[1]!.toLowerCase().replace(/^(?:rst|std|sphinx):/, '');
  const argument = (directive[2] ?? '').trim();
  // Options: the body's leading `:key: value` lines; the content starts after them (and a blank).
  const options = new Map<string, { value: string; line: Ln }>();
  let c = 0;
  // A directive argument continued on the body's first lines (before options) is not read.
  while (c < body.length && FIELD_RE.test(r.text(body[c]!))) {
    const m = FIELD_RE.exec(r.text(body[c]!))!;
    options.set(m[1]!.toLowerCase(), { value: r.text(body[c]!).slice(m[0].length).trim(), line: body[c]! });
    c++;
  }
  while (c < body.length && isBlank(r.text(body[c]!))) c++;
  const content = dedent(r, body.slice(c));
  if (CODE_DIRECTIVES.has(name)) {
    if (content.length === 0) return { nodes: [], next };
    const lang = name === 'prompt' ? (argument.split(/\s+/)[0] || 'bash') : argument.split(/\s+/)[0] || r.highlight;
    return { nodes: [codeNode(r, content, lang, 'directive')], next };
  }
  if (name === 'highlight') {
    r.highlight = argument.split(/\s+/)[0] || null;
    return { nodes: [], next };
  }
  if (name === 'option' || name === 'cmdoption') {
    return { nodes: [optionDirective(r, line, argument, content, depth)], next };
  }
  if (name === 'program') {
    if (argument === '' || argument === 'None') return { nodes: [], next };
    const col = line.col + t.indexOf(argument, t.indexOf('::') + 2);
    const at = { i: line.i, col };
    const node: Heading = {
      type: 'heading',
      depth: Math.min(6, r.sectionDepth + 1) as Heading['depth'],
      children: [{ type: 'inlineCode', value: argument, position: { start: r.pt(line.i, col), end: r.pt(line.i, col + argument.length) } }],
      position: { start: r.pt(at.i, at.col), end: r.pt(line.i, col + argument.length) },
    };
    return { nodes: [node], next };
  }
  if (name === 'list-table') {
    const node = listTable(r, line, content, options, depth);
    return { nodes: node ? [node] : [], next };
  }
  if (name === 'csv-table') {
    const node = csvTable(r, line, content, options);
    return { nodes: node ? [node] : [], next };
  }
  if (OPAQUE_DIRECTIVES.has(name) || /^auto/.test(name)) return { nodes: [], next };
  // Admonitions, containers, Sphinx object descriptions (`.. py:function::`, `.. describe::`)
  // and directives docdrift does not know: their content is reStructuredText, read in place.
  return { nodes: readBlocks(r, content, depth + 1, false), next };
}

/** An `.. option:: -p, --port <port>` directive as a reference list of one item. */
function optionDirective(r: Reader, line: Ln, argument: string, content: readonly Ln[], depth: number): List {
  const t = r.text(line);
  const argAt = line.col + t.indexOf(argument, t.indexOf('::') + 2);
  // Sphinx splits the signature at `, ` into the option's spellings; `--use-make-mode (-m)`
  // names its short form in parentheses.
  const spellings: Array<{ value: string; col: number; length: number }> = [];
  let from = 0;
  for (const part of argument.split(', ')) {
    const at = argument.indexOf(part, from);
    from = at + part.length;
    const paren = /^(\S+) \((-[A-Za-z0-9])\)$/.exec(part.trim());
    if (paren) {
      spellings.push({ value: paren[1]!, col: argAt + at, length: paren[1]!.length });
      spellings.push({ value: paren[2]!, col: argAt + at + part.indexOf(paren[2]!), length: paren[2]!.length });
    } else {
      spellings.push({ value: optionSpelling(part), col: argAt + at, length: part.trim().length });
    }
  }
  // Several long options in one signature (`-h, --help, --version`, `--use-make-mode (-m),
  // --no-use-make-mode (-M)`) are several options sharing a description: a new one starts at
  // each long option after the first, with the short ones that follow it.
  const groups: Array<typeof spellings> = [];
  for (const sp of spellings) {
    const current = groups[groups.length - 1];
    if (!current || (sp.value.startsWith('--') && current.some((c) => c.value.startsWith('--')))) groups.push([sp]);
    else current.push(sp);
  }
  const termOf = (group: typeof spellings): PhrasingContent[] => {
    const term: PhrasingContent[] = [];
    for (const sp of group) {
      if (term.length > 0) term.push(textNode(r, ', ', line.i, Math.max(argAt, sp.col - 2)));
      term.push({ type: 'inlineCode', value: sp.value, position: { start: r.pt(line.i, sp.col), end: r.pt(line.i, sp.col + sp.length) } });
    }
    return term;
  };
  const list = definitionItemList(r, [{ term: termOf(groups[0]!), termStart: r.pt(line.i, line.col), termEnd: r.pt(line.i, argAt + argument.length), body: content }], depth, false);
  // The other options get the same description (the first paragraph), not the body's blocks again.
  const firstPara = list.children[0]!.children[0] as Paragraph;
  const shared = firstPara.children.slice(termOf(groups[0]!).length);
  for (const group of groups.slice(1)) {
    const term = termOf(group);
    const start = term[0]!.position!.start as Pt;
    const para: Paragraph = { type: 'paragraph', children: [...term, ...(structuredClone(shared) as PhrasingContent[])], position: { start, end: firstPara.position!.end } };
    list.children.push({ type: 'listItem', spread: false, children: [para], position: { start, end: firstPara.position!.end } });
  }
  OPTION_LISTS.add(list);
  return list;
}

/** The lists made from `.. option::` directives (merged when consecutive). */
const OPTION_LISTS = new WeakSet<List>();

/**
 * One option spelling as the code span of a reference item: a placeholder written as a bare
 * lower-case word (`-b buildername`, `-D setting=value`, Sphinx's style) is written `<…>`
 * (`-b <buildername>`), the form the reference readers take for a value placeholder; flags,
 * `<x>`, `[x]`, `{a,b}` and upper-case placeholders (`-j N`) stay as written.
 */
export function optionSpelling(part: string): string {
  const m = /^(\S+) (?!<|\[|\{)(\S+)$/.exec(part.trim());
  if (!m || /^[A-Z][A-Z0-9_-]*$/.test(m[2]!)) return part.trim();
  return `${m[1]} <${m[2]}>`;
}

/** A text node of `value` at line index `i`, column `col`. */
function textNode(r: Reader, value: string, i: number, col: number): Text {
  return { type: 'text', value, position: { start: r.pt(i, col), end: r.pt(i, col + value.length) } };
}

/** Items whose paragraph is a term, `: ` and the definition's first paragraph, in one list. */
function definitionItemList(
  r: Reader,
  items: ReadonlyArray<{ term: PhrasingContent[]; termStart: Pt; termEnd: Pt; body: readonly Ln[] }>,
  depth: number,
  ordered: boolean,
): List {
  const listItems: ListItem[] = items.map(({ term, termStart, termEnd, body }) => {
    const blocks = readBlocks(r, body, depth + 1, false);
    const phrasing: PhrasingContent[] = [...term];
    let rest = blocks;
    const first = blocks[0];
    if (first?.type === 'paragraph') {
      phrasing.push({ type: 'text', value: ': ', position: { start: termEnd, end: termEnd } });
      phrasing.push(...first.children);
      rest = blocks.slice(1);
    }
    const end = blocks[blocks.length - 1]?.position?.end ?? termEnd;
    const para: Paragraph = { type: 'paragraph', children: phrasing, position: { start: termStart, end: first?.type === 'paragraph' ? first.position!.end : termEnd } };
    return { type: 'listItem', spread: false, children: [para, ...rest] as ListItem['children'], position: { start: termStart, end } };
  });
  return {
    type: 'list', ordered, spread: false, children: listItems,
    position: { start: listItems[0]!.position!.start, end: listItems[listItems.length - 1]!.position!.end },
  };
}

// ---------------------------------------------------------------------------------------------
// Lists.

type ItemKind = 'bullet' | 'enum' | 'field' | 'option' | 'definition';

/** Reads consecutive items of one kind starting at `k` into a list. */
function readItems(r: Reader, view: readonly Ln[], k: number, depth: number, kind: ItemKind): { node: List; next: number } {
  const bulletChar = kind === 'bullet' ? r.text(view[k]!)[0] : undefined;
  const terms: Array<{ term: PhrasingContent[]; termStart: Pt; termEnd: Pt; body: Ln[] }> = [];
  const plain: ListItem[] = [];
  let j = k;
  for (;;) {
    const l = view[j];
    if (!l) break;
    const t = r.text(l);
    let markerWidth = 0;
    if (kind === 'bullet') {
      const m = BULLET_RE.exec(t);
      if (!m || m[1] !== bulletChar) break;
      markerWidth = m[0].length;
    } else if (kind === 'enum') {
      const m = ENUM_RE.exec(t);
      if (!m) break;
      markerWidth = m[0].length;
    } else if (kind === 'field') {
      if (!FIELD_RE.test(t)) break;
    } else if (kind === 'option') {
      const m = OPTION_LINE_RE.exec(t);
      const n = view[j + 1] ? r.text(view[j + 1]!) : undefined;
      if (!m || (m[2] === undefined && (n === undefined || isBlank(n) || indentOf(n) === 0))) break;
    } else {
      const n = view[j + 1] ? r.text(view[j + 1]!) : undefined;
      if (isBlank(t) || indentOf(t) > 0 || n === undefined || isBlank(n) || indentOf(n) === 0 || t.trimEnd().endsWith('::')) break;
      if (j > k && (BULLET_RE.test(t) || ENUM_RE.test(t) || FIELD_RE.test(t) || EXPLICIT_RE.test(t))) break;
    }
    const { body: after, next } = indentedAfter(r, view, j);
    if (kind === 'bullet' || kind === 'enum') {
      // The item's body: the text after the marker, then the indented lines below.
      const firstLine: Ln = { i: l.i, col: l.col + markerWidth };
      const body = [firstLine, ...after];
      const blocks = isBlank(r.text(firstLine)) ? readBlocks(r, after, depth + 1, false) : readBlocks(r, body, depth + 1, false);
      const end = blocks[blocks.length - 1]?.position?.end ?? r.endOf(l);
      plain.push({ type: 'listItem', spread: false, children: blocks as ListItem['children'], position: { start: r.pt(l.i, l.col), end } });
    } else if (kind === 'field') {
      const m = FIELD_RE.exec(t)!;
      const nameText = m[1]!;
      const term = inline(r, [{ i: l.i, col: l.col + 1 }], nameText.length);
      const restCol = l.col + m[0].length;
      const body = isBlank(t.slice(m[0].length)) ? after : [{ i: l.i, col: restCol }, ...after];
      terms.push({ term, termStart: r.pt(l.i, l.col), termEnd: r.pt(l.i, l.col + nameText.length + 2), body: dedentTail(r, body) });
    } else if (kind === 'option') {
      const m = OPTION_LINE_RE.exec(t)!;
      const spec = m[1]!;
      const term: PhrasingContent[] = [];
      let from = 0;
      for (const part of spec.split(', ')) {
        const at = spec.indexOf(part, from);
        from = at + part.length;
        if (term.length > 0) term.push(textNode(r, ', ', l.i, l.col + at - 2));
        term.push({ type: 'inlineCode', value: optionSpelling(part), position: { start: r.pt(l.i, l.col + at), end: r.pt(l.i, l.col + at + part.length) } });
      }
      const descAt = m[2] !== undefined ? t.indexOf(m[2], spec.length) : -1;
      const body = descAt >= 0 ? [{ i: l.i, col: l.col + descAt }, ...after] : after;
      terms.push({ term, termStart: r.pt(l.i, l.col), termEnd: r.pt(l.i, l.col + spec.length), body: dedentTail(r, body) });
    } else {
      const term = inline(r, [l]);
      terms.push({ term, termStart: r.pt(l.i, l.col), termEnd: r.endOf(l), body: after });
    }
    j = next;
    // Items are separated by blank lines (or none, for definition, field and option lists).
    let b = j;
    while (b < view.length && r.blank(view[b]!)) b++;
    if (b >= view.length) break;
    j = b;
  }
  if (kind === 'bullet' || kind === 'enum') {
    return {
      node: { type: 'list', ordered: kind === 'enum', spread: false, children: plain, position: { start: plain[0]!.position!.start, end: plain[plain.length - 1]!.position!.end } },
      next: j,
    };
  }
  return { node: definitionItemList(r, terms, depth, false), next: j };
}

/** A body whose first line is the rest of a marker line: the lines after it dedented on their own. */
function dedentTail(r: Reader, body: readonly Ln[]): Ln[] {
  if (body.length <= 1) return [...body];
  const [first, ...rest] = body;
  return [first!, ...dedent(r, rest)];
}

// ---------------------------------------------------------------------------------------------
// Tables.

/** A table cell of inline content from pieces of lines (line index, start and end column). */
function cellOf(r: Reader, pieces: ReadonlyArray<{ i: number; from: number; to: number }>): TableCell {
  const children: PhrasingContent[] = [];
  let start: Pt | undefined;
  let end: Pt | undefined;
  for (const p of pieces) {
    const raw = r.lines[p.i]!.slice(p.from, p.to);
    const lead = indentOf(raw);
    const body = raw.trim();
    if (body === '') continue;
    if (children.length > 0) children.push(textNode(r, ' ', p.i, p.from + lead));
    children.push(...inline(r, [{ i: p.i, col: p.from + lead }], body.length));
    start ??= r.pt(p.i, p.from + lead);
    end = r.pt(p.i, p.from + lead + body.length);
  }
  const first = pieces[0];
  const fallback = first ? r.pt(first.i, first.from) : r.pt(0, 0);
  return { type: 'tableCell', children, position: { start: start ?? fallback, end: end ?? fallback } };
}

/** A table node from rows of cells, the first `headerRows` rows the header (an empty header row when none). */
function tableOf(rows: TableRow[], headerRows: number, at: Pt, end: Pt): Table {
  const width = Math.max(0, ...rows.map((row) => row.children.length));
  const pad = (row: TableRow): TableRow => {
    while (row.children.length < width) row.children.push({ type: 'tableCell', children: [], position: row.position });
    return row;
  };
  let head: TableRow;
  let body: TableRow[];
  if (headerRows > 0 && rows.length > 0) {
    // Several header rows: the last one names the columns.
    head = rows[Math.min(headerRows, rows.length) - 1]!;
    body = rows.slice(headerRows);
  } else {
    head = { type: 'tableRow', children: [], position: { start: at, end: at } };
    body = rows;
  }
  return { type: 'table', align: new Array(width).fill(null), children: [pad(head), ...body.map(pad)], position: { start: at, end } };
}

/** Reads a grid table at `k`. */
function readGridTable(r: Reader, view: readonly Ln[], k: number): { node: Table; next: number } | undefined {
  const border = r.text(view[k]!).trimEnd();
  const base = view[k]!.col;
  const bounds: number[] = [];
  for (let c = 0; c < border.length; c++) if (border[c] === '+') bounds.push(c);
  if (bounds.length - 1 > MAX_COLUMNS) return undefined;
  let j = k + 1;
  const rows: TableRow[] = [];
  let headerRows = 0;
  let pending: Ln[] = [];
  const flush = (endLine: Ln): void => {
    if (pending.length === 0) return;
    const cells: TableCell[] = [];
    for (let c = 0; c + 1 < bounds.length; c++) {
      cells.push(cellOf(r, pending.map((l) => ({ i: l.i, from: base + bounds[c]! + 1, to: base + bounds[c + 1]! }))));
    }
    rows.push({ type: 'tableRow', children: cells, position: { start: r.pt(pending[0]!.i, base), end: r.endOf(endLine) } });
    pending = [];
  };
  while (j < view.length) {
    const t = r.text(view[j]!).trimEnd();
    if (/^\+[-=+]+\+$/.test(t)) {
      flush(view[j]!);
      if (t.includes('=')) headerRows = rows.length;
      j++;
      continue;
    }
    if (!t.startsWith('|') && !t.startsWith('+')) break;
    pending.push(view[j]!);
    j++;
  }
  if (pending.length > 0 || rows.length === 0) return undefined; // not closed: not a table
  return { node: tableOf(rows, headerRows, r.pt(view[k]!.i, base), r.endOf(view[j - 1]!)), next: j };
}

/** Reads a simple table at `k`. */
function readSimpleTable(r: Reader, view: readonly Ln[], k: number): { node: Table; next: number } | undefined {
  const border = r.text(view[k]!).trimEnd();
  const base = view[k]!.col;
  const columns: Array<[number, number]> = [];
  for (const m of border.matchAll(/=+/g)) columns.push([m.index, m.index + m[0].length]);
  if (columns.length > MAX_COLUMNS) return undefined;
  const rows: TableRow[] = [];
  let headerRows = 0;
  let borders = 1;
  let j = k + 1;
  let current: Ln[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    const cells = columns.map(([from, to], c) => cellOf(r, current.map((l) => ({ i: l.i, from: base + from, to: c === columns.length - 1 ? r.lines[l.i]!.length : base + to }))));
    rows.push({ type: 'tableRow', children: cells, position: { start: r.pt(current[0]!.i, base), end: r.endOf(current[current.length - 1]!) } });
    current = [];
  };
  let end = k;
  while (j < view.length) {
    const l = view[j]!;
    const t = r.text(l).trimEnd();
    if (/^=+(?: +=+)*$/.test(t)) {
      flush();
      borders++;
      end = j;
      j++;
      const after = view[j] ? r.text(view[j]!) : undefined;
      if (borders === 2 && after !== undefined && !isBlank(after)) {
        headerRows = rows.length;
        continue;
      }
      break;
    }
    if (/^-+(?: +-+)*$/.test(t)) {
      flush(); // a column-span underline of the header
      j++;
      continue;
    }
    if (isBlank(t)) {
      flush();
      j++;
      continue;
    }
    // A line whose first column is blank continues the row above.
    if (current.length > 0 && isBlank(r.lines[l.i]!.slice(base + columns[0]![0], base + columns[0]![1]))) current.push(l);
    else {
      flush();
      current.push(l);
    }
    j++;
  }
  if (borders < 2 || rows.length === 0) return undefined;
  return { node: tableOf(rows, headerRows, r.pt(view[k]!.i, base), r.endOf(view[end]!)), next: end + 1 };
}

/** A `.. list-table::`: a bullet list of rows, each a bullet list of cells. */
function listTable(r: Reader, line: Ln, content: readonly Ln[], options: Map<string, { value: string }>, depth: number): Table | undefined {
  const blocks = readBlocks(r, content, depth + 1, false);
  const outer = blocks.find((b): b is List => b.type === 'list');
  if (!outer) return undefined;
  const rows: TableRow[] = [];
  for (const item of outer.children) {
    const inner = item.children.find((b): b is List => b.type === 'list');
    if (!inner) continue;
    const cells: TableCell[] = inner.children.map((cell) => {
      const phrasing: PhrasingContent[] = [];
      for (const b of cell.children) if (b.type === 'paragraph') phrasing.push(...(phrasing.length > 0 ? [{ type: 'text', value: ' ' } as Text] : []), ...b.children);
      return { type: 'tableCell', children: phrasing, position: cell.position };
    });
    if (cells.length > MAX_COLUMNS) return undefined;
    rows.push({ type: 'tableRow', children: cells, position: item.position });
  }
  if (rows.length === 0) return undefined;
  const headerRows = Number.parseInt(options.get('header-rows')?.value ?? '0', 10) || 0;
  return tableOf(rows, headerRows, r.pt(line.i, line.col), outer.position!.end as Pt);
}

/** Splits one CSV line at `delim` (quotes `"` with `""` escapes); each cell with its start and end column in the line. */
function csvCells(text: string, delim: string): Array<{ value: string; from: number; to: number }> {
  const cells: Array<{ value: string; from: number; to: number }> = [];
  let c = 0;
  while (c <= text.length) {
    while (text[c] === ' ') c++;
    if (text[c] === '"') {
      let value = '';
      let e = c + 1;
      for (; e < text.length; e++) {
        if (text[e] === '"' && text[e + 1] === '"') {
          value += '"';
          e++;
        } else if (text[e] === '"') break;
        else value += text[e];
      }
      cells.push({ value, from: c + 1, to: e });
      const d = text.indexOf(delim, e);
      if (d < 0) break;
      c = d + delim.length;
    } else {
      const d = text.indexOf(delim, c);
      const to = d < 0 ? text.length : d;
      const raw = text.slice(c, to);
      cells.push({ value: raw.trim(), from: c, to: c + raw.trimEnd().length });
      if (d < 0) break;
      c = d + delim.length;
    }
  }
  return cells;
}

/** A `.. csv-table::` with its `:header:` and inline content. */
function csvTable(r: Reader, line: Ln, content: readonly Ln[], options: Map<string, { value: string; line: Ln }>): Table | undefined {
  const delimOption = options.get('delim')?.value;
  const delim = delimOption === 'tab' ? '\t' : delimOption === 'space' ? ' ' : delimOption && delimOption.length === 1 ? delimOption : ',';
  const rowOf = (l: Ln, from: number): TableRow => {
    const text = r.lines[l.i]!.slice(from);
    const cells = csvCells(text, delim).map(({ value, from: s, to }) => {
      const col = from + s;
      const children = value === '' ? [] : value === text.slice(s, to) ? inline(r, [{ i: l.i, col }], value.length) : [textNode(r, value, l.i, col)];
      return { type: 'tableCell', children, position: { start: r.pt(l.i, col), end: r.pt(l.i, from + to) } } as TableCell;
    });
    return { type: 'tableRow', children: cells, position: { start: r.pt(l.i, from), end: r.endOf(l) } };
  };
  const rows: TableRow[] = [];
  const header = options.get('header');
  if (header) {
    const t = r.lines[header.line.i]!;
    const at = t.indexOf(header.value, header.line.col);
    rows.push(rowOf(header.line, at < 0 ? header.line.col : at));
  }
  for (const l of content) if (!isBlank(r.text(l))) rows.push(rowOf(l, l.col));
  if (rows.length === 0 || rows.some((row) => row.children.length > MAX_COLUMNS)) return undefined;
  const headerRows = header ? 1 : Number.parseInt(options.get('header-rows')?.value ?? '0', 10) || 0;
  const last = content[content.length - 1] ?? line;
  return tableOf(rows, headerRows, r.pt(line.i, line.col), r.endOf(last));
}

// ---------------------------------------------------------------------------------------------
// Inline markup.

/** Characters that may stand before an inline markup start (docutils' rule, simplified). */
const START_BEFORE_RE = /[\s'"([{<\-/:‘“’«¡¿]/;
/** Characters that may stand after an inline markup end. */
const END_AFTER_RE = /[\s'")\]}>\-/:.,;!?\\’”»]/;

/**
 * The inline content of lines: each entry's text from its column to the end of its line (the
 * last one cut to `cut` characters when given), joined by newlines. Scans once from left to right;
 * a start string with no end string after it is text, and once one kind of end string is missing
 * no later start of that kind is searched again, so the time is linear in the text.
 */
function inline(r: Reader, lines: readonly Ln[], cut?: number): PhrasingContent[] {
  // The joined text and, per character, where it came from.
  let text = '';
  const origin: Array<{ at: number; i: number; col: number }> = [];
  lines.forEach((l, n) => {
    if (n > 0) text += '\n';
    origin.push({ at: text.length, i: l.i, col: l.col });
    let piece = r.lines[l.i]!.slice(l.col);
    if (n === lines.length - 1 && cut !== undefined) piece = piece.slice(0, cut);
    if (n === lines.length - 1) piece = piece.trimEnd();
    text += piece;
  });
  let seg = 0;
  const pointAt = (offset: number): Pt => {
    while (seg + 1 < origin.length && origin[seg + 1]!.at <= offset) seg++;
    while (seg > 0 && origin[seg]!.at > offset) seg--;
    const o = origin[seg]!;
    return r.pt(o.i, o.col + offset - o.at);
  };
  const out: PhrasingContent[] = [];
  let textFrom = 0;
  const pushText = (to: number): void => {
    if (to > textFrom) out.push({ type: 'text', value: text.slice(textFrom, to).replace(/\\(.)/g, '$1'), position: { start: pointAt(textFrom), end: pointAt(to) } });
  };
  const missing = new Set<string>();
  const startOk = (at: number): boolean => at === 0 || START_BEFORE_RE.test(text[at - 1]!);
  /** The next end string `s` after `from` preceded by a non-blank, or -1 (then no later one exists either). */
  const findEnd = (s: string, from: number): number => {
    if (missing.has(s)) return -1;
    for (let e = text.indexOf(s, from); e >= 0; e = text.indexOf(s, e + 1)) {
      if (e > from && !/\s/.test(text[e - 1]!) && text[e - 1] !== '\\') return e;
    }
    missing.add(s);
    return -1;
  };
  let p = 0;
  while (p < text.length) {
    const ch = text[p]!;
    if (ch === '\\') {
      p += 2;
      continue;
    }
    if (ch === '`' && text.startsWith('``', p) && startOk(p) && !/\s/.test(text[p + 2] ?? ' ')) {
      const e = findEnd('``', p + 2);
      if (e < 0) {
        p += 2;
        continue;
      }
      pushText(p);
      out.push({ type: 'inlineCode', value: text.slice(p + 2, e).replace(/\n/g, ' '), position: { start: pointAt(p), end: pointAt(e + 2) } });
      p = textFrom = e + 2;
      continue;
    }
    // A role before interpreted text: `:name:` then a backtick.
    const role = ch === ':' && startOk(p) ? /^:((?:[\w.+-]+:)?[\w.+-]+):`/.exec(text.slice(p, p + 64)) : null;
    if ((ch === '`' && startOk(p)) || role) {
      const open = role ? p + role[0].length - 1 : p;
      if (/\s/.test(text[open + 1] ?? ' ')) {
        p = open + 1;
        continue;
      }
      const e = findEnd('`', open + 1);
      if (e < 0) {
        p = open + 1;
        continue;
      }
      const body = text.slice(open + 1, e);
      const after = text.slice(e + 1, e + 3);
      pushText(p);
      const roleName = role?.[1]?.replace(/^(?:std|py|rst):/, '');
      if (!role && /^__?/.test(after)) {
        // A hyperlink reference: `text <url>`_ or `text`_.
        const underscores = after.startsWith('__') ? 2 : 1;
        const m = linkTarget(body);
        const label = m ? m.label : body;
        const known = m ? m.url : r.targets.get(label.replace(/\s+/g, ' ').toLowerCase());
        if (known === undefined) {
          // `Title`_ to a section or a target docdrift does not know: the label as text.
          out.push({ type: 'text', value: label, position: { start: pointAt(open + 1), end: pointAt(open + 1 + label.length) } });
          p = textFrom = e + 1 + underscores;
          continue;
        }
        const node = {
          type: 'link' as const,
          url: known.replace(/\s+/g, ''),
          children: [{ type: 'text' as const, value: label, position: { start: pointAt(open + 1), end: pointAt(open + 1 + label.length) } }],
          position: { start: pointAt(p), end: pointAt(e + 1 + underscores) },
        };
        out.push(node);
        p = textFrom = e + 1 + underscores;
        continue;
      }
      if (roleName === 'ref' || roleName === 'doc' || roleName === 'numref') {
        // As MyST/Sphinx roles read in Markdown: the text `:ref:` then the target as code (parse.ts makes the link).
        out.push({ type: 'text', value: `:${roleName}:`, position: { start: pointAt(p), end: pointAt(open) } });
      }
      out.push({ type: 'inlineCode', value: body.replace(/\n/g, ' '), position: { start: pointAt(open), end: pointAt(e + 1) } });
      p = textFrom = e + 1;
      // A role after interpreted text (`` `x`:option: ``) is dropped with it.
      const suffix = /^:[\w.+-]+:/.exec(text.slice(p, p + 64));
      if (suffix) p = textFrom = p + suffix[0].length;
      continue;
    }
    if (ch === '*' && startOk(p)) {
      const strong = text.startsWith('**', p);
      const s = strong ? '**' : '*';
      const inner = p + s.length;
      if (/\s/.test(text[inner] ?? ' ') || text[inner] === '*') {
        p = inner;
        continue;
      }
      const e = findEnd(s, inner);
      if (e < 0 || !(e + s.length >= text.length || END_AFTER_RE.test(text[e + s.length]!))) {
        p = inner;
        continue;
      }
      pushText(p);
      const child: Text = { type: 'text', value: text.slice(inner, e), position: { start: pointAt(inner), end: pointAt(e) } };
      out.push({ type: strong ? 'strong' : 'emphasis', children: [child], position: { start: pointAt(p), end: pointAt(e + s.length) } });
      p = textFrom = e + s.length;
      continue;
    }
    // A simple reference name_ (not name__): a link to a named target.
    if (ch === '_' && p > 0 && /\w/.test(text[p - 1]!) && text[p + 1] !== '_' && (p + 1 >= text.length || END_AFTER_RE.test(text[p + 1]!))) {
      let s = p;
      while (s > textFrom && /[\w.-]/.test(text[s - 1]!)) s--;
      const url = s < p && (s === 0 || START_BEFORE_RE.test(text[s - 1]!)) ? r.targets.get(text.slice(s, p).toLowerCase()) : undefined;
      if (url !== undefined) {
        const name = text.slice(s, p);
        pushText(s);
        out.push({ type: 'link', url, children: [{ type: 'text', value: name, position: { start: pointAt(s), end: pointAt(p) } }], position: { start: pointAt(s), end: pointAt(p + 1) } });
        p = textFrom = p + 1;
        continue;
      }
    }
    p++;
  }
  pushText(text.length);
  return out;
}

/**
 * The label and target of a hyperlink reference's text, `label <url>`, as
 * `/^([\s\S]*?)\s*<([^<>]+)>$/` read them: the `<` is the last one, the label what is before it
 * without its trailing blanks. That pattern retried its `\s*` from each position of a blank run
 * (quadratic, s27).
 */
export function linkTarget(body: string): { label: string; url: string } | undefined {
  if (!body.endsWith('>')) return undefined;
  const open = body.lastIndexOf('<');
  const url = body.slice(open + 1, -1);
  if (open < 0 || url === '' || url.includes('>')) return undefined;
  return { label: body.slice(0, open).trimEnd(), url };
}
