/** Reads `docdrift-disable…` suppression comments out of a Markdown/MDX document's syntax tree. */

import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
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

// The same plugins as src/docs/parse.ts, so a comment is found exactly where the reader sees nodes.
const markdownProcessor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
const mdxProcessor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).use(remarkMdx).freeze();

/** `docdrift-<kind> [ids] [-- reason]` inside a comment body. */
const DIRECTIVE = /^(\s*)docdrift-(disable-next-line|disable-line|disable|enable)(?=\s|$)([\s\S]*)$/;

/**
 * A cheap test on raw text: can the document hold a directive at all? Lets the engine skip
 * parsing the (many) documents that cannot.
 */
export function mayHaveDirectives(text: string): boolean {
  return /docdrift-(?:disable|enable)/.test(text);
}

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
  let tree: Root | undefined;
  if (/\.mdx$/i.test(file)) {
    try {
      tree = mdxProcessor.parse(text);
    } catch {
      tree = undefined;
    }
  }
  try {
    tree ??= markdownProcessor.parse(text);
  } catch {
    return [];
  }
  const out: SuppressionDirective[] = [];
  const visit = (node: Nodes): void => {
    const position = node.position;
    if (node.type === 'html' && position) {
      const value = node.value;
      for (const m of value.matchAll(/<!--([\s\S]*?)-->/g)) {
        const start = pointAt(value, m.index, position.start);
        const end = pointAt(value, m.index + m[0].length, position.start);
        const bodyStart = pointAt(value, m.index + 4, position.start);
        const directive = readBody(file, m[1] ?? '', bodyStart, start, end);
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
