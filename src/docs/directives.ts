/** Reads `docdrift-disable…` suppression comments out of a Markdown/MDX document's syntax tree. */

import type { Nodes, Root } from 'mdast';
// The same processors as src/docs/parse.ts, so a comment is found exactly where the reader sees nodes.
import { denseEmphasis } from './emphasis.js';
import { parseMarkdown, parseMarkdownText } from './markdown.js';
import type { Point } from './position.js';

/**
 * What a directive does (ESLint's directive comments):
 * - `disable-next-line`: findings on the line after the comment's last line;
 * - `disable-line`: findings on the comment's own line(s);
 * - `disable` … `enable`: findings after the `disable` comment up to the `enable` comment
 *   (or the end of the file).
 */
export type DirectiveKind = 'disable' | 'enable' | 'disable-line' | 'disable-next-line';

/** One suppression comment. Positions are 1-based; `end` is exclusive (unist). */
export interface SuppressionDirective {
  /** Project-relative POSIX path of the document. */
  file: string;
  kind: DirectiveKind;
  /** The rule ids as written, each with its position; empty means every rule. */
  rules: Array<{ id: string; line: number; column: number }>;
  /** Text after ` -- `, trimmed; `''` when none. */
  reason: string;
  /** The comment's range in the document. */
  start: Point;
  end: Point;
}


/** `docdrift-<kind> [ids] [-- reason]` inside a comment body. */
const DIRECTIVE = /^(\s*)docdrift-(disable-next-line|disable-line|disable|enable)(?=\s|$)([\s\S]*)$/;

export { mayHaveDirectives } from './directive-text.js';

/** Line and column of `offset` in `text`, counted from `start` (the position of `text[0]`). */
function pointAt(text: string, offset: number, start: Point): Point {
  let line = start.line;
  let column = start.column;
  for (let i = 0; i < offset; i++) {
    if (text[i] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

/**
 * Parses one comment body (what is between `<!--` and `-->`, or `/*` and `*\/`) that starts at
 * `bodyStart`; undefined when it is not a directive.
 */
function readBody(file: string, body: string, bodyStart: Point, start: Point, end: Point): SuppressionDirective | undefined {
  const match = DIRECTIVE.exec(body);
  if (!match) return undefined;
  const kind = match[2] as DirectiveKind;
  let rest = match[3] ?? '';
  const restOffset = body.length - rest.length;
  // ESLint: a description follows two or more dashes surrounded by whitespace.
  let reason = '';
  const dash = /\s-{2,}\s/.exec(`${rest} `);
  if (dash) {
    reason = rest.slice(dash.index + dash[0].length).trim();
    rest = rest.slice(0, dash.index);
  }
  const rules: SuppressionDirective['rules'] = [];
  for (const m of rest.matchAll(/[^\s,]+/g)) {
    const at = pointAt(body, restOffset + m.index, bodyStart);
    rules.push({ id: m[0], line: at.line, column: at.column });
  }
  return { file, kind, rules, reason, start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column } };
}

/**
 * The suppression directives of one document, in document order. Comments are found only where
 * the document really has them: HTML comments in `html` nodes (flow or inline, so a comment
 * inside a table cell counts), and in MDX `{/* … *\/}` expressions (`mdxFlowExpression`,
 * `mdxTextExpression`). Text inside fenced or indented code, and inline code, is never read.
 *
 * `.mdx` files are parsed with remark-mdx; when that fails, as plain Markdown (the same fallback
 * as `parseDoc`, which reports the failure). Syntax: https://eslint.org/docs/latest/use/configure/rules#using-configuration-comments-1
 *
 * @param file project-relative POSIX path, copied into every directive.
 * @param text the document's contents.
 * @returns the directives; `[]` when the document cannot be parsed at all. Never throws.
 */
export function readDirectives(file: string, text: string): SuppressionDirective[] {
  if (/\.(?:rst|rest)$/i.test(file)) return readRstDirectives(file, text);
  let tree: Root | undefined;
  // As the page parser does (src/docs/parse.ts): emphasis off on a page too dense in its markers.
  const emphasisOff = denseEmphasis(text) !== undefined;
  if (/\.mdx$/i.test(file)) {
    try {
      tree = parseMarkdownText(text, true, { emphasisOff });
    } catch {
      tree = undefined;
    }
  }
  try {
    tree ??= parseMarkdown(text, { emphasisOff });
  } catch {
    return [];
  }
  const out: SuppressionDirective[] = [];
  // An element whose content is raw text (`<script>`, `<style>`…) may span several html nodes.
  const html: HtmlScanState = { rawText: undefined };
  const visit = (node: Nodes): void => {
    const position = node.position;
    if (node.type === 'html' && position) {
      const value = node.value;
      for (const m of htmlComments(value, html)) {
        const start = pointAt(value, m.index, position.start);
        const end = pointAt(value, m.index + m.length, position.start);
        const bodyStart = pointAt(value, m.index + 4, position.start);
        const directive = readBody(file, m.body, bodyStart, start, end);
        if (directive) out.push(directive);
      }
    } else if ((node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') && position) {
      // The value is the JavaScript between the braces; only a lone block comment is a directive.
      const m = /^(\s*)\/\*([\s\S]*?)\*\/\s*$/.exec(node.value);
      if (m) {
        const valueStart = { line: position.start.line, column: position.start.column + 1 };
        const bodyStart = pointAt(node.value, (m[1] ?? '').length + 2, valueStart);
        const directive = readBody(file, m[2] ?? '', bodyStart, position.start, position.end);
        if (directive) out.push(directive);
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return out;
}

/** What {@link htmlComments} carries from one html node to the next. */
interface HtmlScanState {
  /** Inside the raw text of this element (`script`, `style`, `textarea`, `title`) until its end tag. */
  rawText: string | undefined;
}

/** Elements whose content is text, not markup: a `<!--` inside them is not a comment (HTML's raw text and escapable raw text elements). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/**
 * The real comments of an HTML fragment, as an HTML tokenizer would see them: `<!-- … -->` in
 * text, not inside a tag's quoted or unquoted attribute value (`<a title="<!-- x -->">`) nor in
 * the content of a `<script>` or `<style>` element (`var s = "<!-- x -->"`). Linear in the text.
 *
 * @param state carried between the html nodes of one document, in document order
 */
export function htmlComments(value: string, state: HtmlScanState): Array<{ index: number; length: number; body: string }> {
  const out: Array<{ index: number; length: number; body: string }> = [];
  let i = 0;
  while (i < value.length) {
    if (state.rawText !== undefined) {
      const close = value.toLowerCase().indexOf(`</${state.rawText}`, i);
      if (close < 0) return out;
      state.rawText = undefined;
      i = close + 2;
      continue;
    }
    const lt = value.indexOf('<', i);
    if (lt < 0) break;
    if (value.startsWith('<!--', lt)) {
      const end = value.indexOf('-->', lt + 4);
      if (end < 0) break; // an unclosed comment runs to the end of the node
      out.push({ index: lt, length: end + 3 - lt, body: value.slice(lt + 4, end) });
      i = end + 3;
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][\w:-]*)/.exec(value.slice(lt, lt + 64));
    if (!tag) {
      i = lt + 1;
      continue;
    }
    // Skip the tag to its `>`, over quoted attribute values.
    let j = lt + tag[0].length;
    let quote: string | undefined;
    for (; j < value.length; j++) {
      const c = value[j]!;
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    const name = tag[2]!.toLowerCase();
    const selfClosing = value[j - 1] === '/';
    if (tag[1] === '' && RAW_TEXT.has(name) && !selfClosing) state.rawText = name;
    i = j + 1;
  }
  return out;
}

/**
 * The suppression comments of a reStructuredText document: a one-line comment
 * `.. docdrift-disable-next-line example-param-unknown -- reason` (also `disable-line`,
 * `disable`, `enable`), at any indentation; its range is the comment line.
 */
function readRstDirectives(file: string, text: string): SuppressionDirective[] {
  const out: SuppressionDirective[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const m = /^(\s*\.\.\s+)(docdrift-\S[\s\S]*)$/.exec(line);
    if (!m) return;
    const start = { line: i + 1, column: m[1]!.length - m[1]!.trimStart().length + 1 };
    const end = { line: i + 1, column: line.length + 1 };
    const directive = readBody(file, m[2]!, { line: i + 1, column: m[1]!.length + 1 }, start, end);
    if (directive) out.push(directive);
  });
  return out;
}
