import type { Code, List, ListItem, Nodes, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { DocTable, SourceLocation, TableRow } from '../model/types.js';
import { inlineCodeNodes } from './inline-code.js';
import { pushLocation } from './position.js';
import { columnRole } from './reference-table.js';

/**
 * Doc-engine directives around Markdown content (issue #13): MyST directives (```` ```{note} ````,
 * `:::{tab-item}`), Docusaurus/remark-directive admonitions (`:::note`, `:::tip[Title]{.x}`) and
 * MyST's `{list-table}`, read the way the engines render them.
 */

/**
 * MyST directives whose content is Markdown (admonitions, tabs, grids, dropdowns, version notes).
 * Any other directive (`{code-block}`, `{eval-rst}`, `{literalinclude}`, `{toctree}`, `{math}`…)
 * holds text that is not Markdown and stays a code block.
 */
export const MYST_CONTAINERS: ReadonlySet<string> = new Set([
  'note', 'warning', 'tip', 'important', 'hint', 'caution', 'attention', 'danger', 'error', 'seealso', 'admonition', 'todo',
  'dropdown', 'tab-set', 'tab-item', 'tabbed', 'card', 'grid', 'grid-item', 'grid-item-card', 'div', 'topic', 'sidebar', 'margin',
  'versionadded', 'versionchanged', 'deprecated', 'details', 'container', 'only', 'rubric', 'epigraph', 'highlights', 'pull-quote',
]);

/** An opening backtick/tilde fence whose info string is a MyST directive: `` ```{note} Title ``. Group 1 fence, group 2 name. */
const DIRECTIVE_FENCE_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*\{([A-Za-z][\w:-]*)\}/;
/** Any opening fence (group 1). */
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
/**
 * An opening colon fence: `:::{note}`, `::::{tab-set}`, `:::note Title`, `:::tip[Label]{.x}`,
 * `::: {.warning}`. Group 1 the colons, group 2 a MyST `{name}`, group 3 a bare name.
 */
const COLON_OPEN_RE = /^ {0,3}(:{3,})[ \t]*(?:\{([A-Za-z][\w:-]*)\}|([A-Za-z][\w-]*))?/;
/** A closing colon fence: colons only. */
const COLON_CLOSE_RE = /^ {0,3}(:{3,})[ \t]*$/;
/**
 * The `{…}` attributes of a remark-directive text or leaf directive (`:a[Sponsored by]{.intro href="/s"}`,
 * `::youtube[Video]{#id}`), group 1; MDX would read them as a JavaScript expression.
 */
const TEXT_DIRECTIVE_ATTRS_RE = /(?<![\w:]):{1,2}[A-Za-z][\w-]*(?:\[[^\]\n]{0,500}\])?(\{[^{}\n]{0,500}\})/g;
/** A MyST directive option line (`:header-rows: 1`, `:class: dropdown`). */
const OPTION_RE = /^\s*:[\w-]+:(?:\s|$)/;

/** A line's text without its line ending. */
function bodyOf(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** The line with its text replaced and its line ending kept. */
function replaceBody(line: string, body: string): string {
  return body + line.slice(bodyOf(line).length);
}

/**
 * Makes the content of doc-engine directives read as if it stood at top level, keeping every line
 * where it is (only marker and option lines change, to blanks or to equivalent fences):
 *
 * - a MyST directive fenced with backticks whose content is Markdown ({@link MYST_CONTAINERS}:
 *   ```` ```{note} ````, ```` ````{tab-set} ````, ```` ```{tab-item} Python ````): its opening and
 *   closing fences and its leading option lines (`:class: x`, or a `---` YAML block) become blank;
 * - colon fences (MyST `:::{note}`, Docusaurus `:::note Title`, remark-directive
 *   `:::tip[Label]{.x}`): the markers (and MyST option lines) become blank, so a table right after
 *   `:::note` is a table, and MDX never sees `{.x}` as an expression; a colon-fenced MyST directive
 *   that holds no Markdown (`:::{code-block} bash`, `:::{list-table}`) becomes the same directive
 *   fenced with backticks, which {@link readListTable} and the code-block reader understand.
 *
 * - the `{…}` attributes of remark-directive text and leaf directives (`:a[Sponsored by]{.intro}`)
 *   become blanks, for the same reason.
 *
 * Lines inside ordinary fenced code are left alone. A `:::` with no open colon fence stays as is.
 */
export function openDirectiveContainers(text: string): string {
  if (!/^ {0,3}(?:`{3,}|~{3,})[ \t]*\{|^ {0,3}:{3}|:[A-Za-z][\w-]*[[{]/m.test(text)) return text;
  const lines = text.split(/(?<=\n)/);
  // Open fences, innermost last: an ordinary code fence, a blanked container, or a colon fence.
  const stack: Array<{ kind: 'code' | 'container' | 'colon'; marker: string; backticks?: string }> = [];
  const blankOptions = (from: number): void => {
    let k = from;
    if (k < lines.length && bodyOf(lines[k]!).trim() === '---') {
      // A YAML options block: `---` … `---`, at most 50 lines.
      let end = k + 1;
      while (end < lines.length && end - k <= 50 && bodyOf(lines[end]!).trim() !== '---') end++;
      if (end < lines.length && bodyOf(lines[end]!).trim() === '---') {
        for (let j = k; j <= end; j++) lines[j] = replaceBody(lines[j]!, '');
        return;
      }
    }
    while (k < lines.length && OPTION_RE.test(bodyOf(lines[k]!))) lines[k] = replaceBody(lines[k]!, ''), k++;
  };
  for (let i = 0; i < lines.length; i++) {
    const body = bodyOf(lines[i]!);
    const top = stack[stack.length - 1];
    if (top?.kind === 'code' && top.backticks !== undefined) {
      // A colon-fenced directive turned into a backtick fence closes at its colons.
      const c = COLON_CLOSE_RE.exec(body);
      if (c && c[1]!.length >= top.marker.length) {
        stack.pop();
        lines[i] = replaceBody(lines[i]!, top.backticks);
      }
      continue;
    }
    if (top?.kind === 'code') {
      const f = FENCE_RE.exec(body);
      if (f && f[1]![0] === top.marker[0] && f[1]!.length >= top.marker.length && body.trim() === f[1]) {
        stack.pop();
      }
      continue;
    }
    const fence = FENCE_RE.exec(body);
    if (fence) {
      const marker = fence[1]!;
      // The closing fence of a blanked container.
      if (top?.kind === 'container' && body.trim() === marker && marker[0] === top.marker[0] && marker.length >= top.marker.length) {
        stack.pop();
        lines[i] = replaceBody(lines[i]!, '');
        continue;
      }
      const d = DIRECTIVE_FENCE_RE.exec(body);
      if (d && MYST_CONTAINERS.has(d[2]!.toLowerCase())) {
        stack.push({ kind: 'container', marker });
        lines[i] = replaceBody(lines[i]!, '');
        blankOptions(i + 1);
        continue;
      }
      stack.push({ kind: 'code', marker });
      continue;
    }
    const close = COLON_CLOSE_RE.exec(body);
    if (close && top?.kind === 'colon' && close[1]!.length >= top.marker.length) {
      stack.pop();
      lines[i] = replaceBody(lines[i]!, '');
      continue;
    }
    const open = close ? null : COLON_OPEN_RE.exec(body);
    if (!open) {
      if (body.includes(':') && body.includes('{')) {
        const blanked = body.replace(TEXT_DIRECTIVE_ATTRS_RE, (all: string, attrs: string) => all.slice(0, all.length - attrs.length) + ' '.repeat(attrs.length));
        if (blanked !== body) lines[i] = replaceBody(lines[i]!, blanked);
      }
      continue;
    }
    const colons = open[1]!;
    const myst = open[2];
    if (myst !== undefined && !MYST_CONTAINERS.has(myst.toLowerCase())) {
      // `:::{list-table}`, `:::{code-block} bash`: the directive as a backtick fence.
      const backticks = '`'.repeat(colons.length);
      lines[i] = replaceBody(lines[i]!, body.replace(colons, backticks));
      stack.push({ kind: 'code', marker: ':'.repeat(colons.length), backticks });
      continue;
    }
    stack.push({ kind: 'colon', marker: colons });
    lines[i] = replaceBody(lines[i]!, '');
    if (myst !== undefined) blankOptions(i + 1);
  }
  return lines.join('');
}


/**
 * Reads a MyST `{list-table}` directive (```` ```{list-table} Title ```` or the colon-fenced form,
 * which {@link openDirectiveContainers} turns into this one) as a table: each item of the outer
 * bullet list is a row, each item of its nested list a cell. `:header-rows: N` rows are the
 * header (the first one names the columns); without it, the first row is the header when one of
 * its cells is a known column header (`Option`, `Description`…), else the table has no header
 * and is not a reference table. Other option lines are skipped.
 *
 * @param file project-relative path, for locations.
 * @param node the fenced code node whose language is `{list-table}`.
 * @param parse parses Markdown (the content) into an mdast root.
 * @returns the table with positions in the file (the content's first line is the line after the
 *   fence; remark removed the fence's indentation from each line), or `undefined` when the content
 *   holds no list of lists.
 */
export function readListTable(file: string, node: Code, parse: (text: string) => Root): DocTable | undefined {
  const pos = node.position;
  if (!pos) return undefined;
  const valueLines = node.value.split(/\r?\n/);
  let headerRows: number | undefined;
  for (let k = 0; k < valueLines.length && OPTION_RE.test(valueLines[k]!); k++) {
    const m = /^\s*:header-rows:\s*(\d+)/.exec(valueLines[k]!);
    if (m) headerRows = Math.min(Number(m[1]), 10);
    valueLines[k] = '';
  }
  const tree = parse(valueLines.join('\n'));
  const list = tree.children.find((c): c is List => c.type === 'list');
  if (!list) return undefined;
  const lineShift = pos.start.line;
  const columnShift = pos.start.column - 1;
  const at = (n: { position?: { start: { line: number; column: number }; end: { line: number; column: number } } | undefined }): SourceLocation => {
    const p = n.position;
    if (!p) return { file, line: pos.start.line, column: pos.start.column };
    return { file, line: p.start.line + lineShift, column: p.start.column + columnShift, endLine: p.end.line + lineShift, endColumn: p.end.column + columnShift };
  };
  const rows: Array<{ item: ListItem; cells: ListItem[] }> = [];
  for (const item of list.children) {
    const inner = item.children.find((c): c is List => c.type === 'list');
    rows.push({ item, cells: inner ? inner.children : [] });
  }
  if (rows.length === 0 || rows.every((r) => r.cells.length === 0)) return undefined;
  const text = (n: Nodes): string => toString(n, { includeHtml: false }).trim();
  const tableRows: TableRow[] = rows.map(({ item, cells }) => {
    const cellSpans: number[] = [];
    const codeSpans: number[] = [];
    cells.forEach((c, col) => {
      pushLocation(cellSpans, at(c));
      for (const n of inlineCodeNodes(c)) {
        codeSpans.push(col);
        pushLocation(codeSpans, at(n));
      }
    });
    return { cells: cells.map(text), cellCodes: cells.map((c) => inlineCodeNodes(c).map((n) => n.value)), links: [], location: at(item), cellSpans, ...(codeSpans.length > 0 ? { codeSpans } : {}) };
  });
  const first = tableRows[0]!;
  const headed = headerRows !== undefined ? headerRows > 0 : first.cells.some((c) => columnRole(c) !== undefined);
  const header = headed ? first.cells : [];
  const body = headed ? tableRows.slice(Math.max(1, headerRows ?? 1)) : tableRows;
  return { header, rows: body, location: { file, line: pos.start.line, column: pos.start.column, endLine: pos.end.line, endColumn: pos.end.column } };
}
