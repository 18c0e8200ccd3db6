/**
 * The Markdown and MDX parsers of the document readers (src/docs/parse.ts, src/docs/directives.ts,
 * src/docs/myst.ts): remark-parse + remark-frontmatter (YAML and TOML) + remark-gfm, and for MDX
 * remark-mdx, with one change that saves work and never changes a tree: GFM's literal-autolink
 * transform runs only on trees where it can match something ({@link guardAutolinkLiterals}).
 */
import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified, type Preset, type Processor } from 'unified';
import { EMPHASIS_OFF } from './emphasis.js';
import { probedPiece } from './progress.js';
import { fastTableRows, parseInPieces } from './segments.js';
import { parseWithSimpleTables } from './table-rows.js';

/** The part of an mdast-util-from-markdown extension this module reads and replaces. */
interface MdastExtension {
  enter?: Record<string, unknown>;
  transforms?: Array<(tree: Root) => Root | undefined | void>;
}

/**
 * Text that GFM's literal-autolink transform (mdast-util-gfm-autolink-literal 2.x,
 * `transformGfmAutolinkLiterals`) can turn into a link. Its four patterns each need `http://`,
 * `https://` or `www.` (case-insensitive: the URL pattern has the `i` flag) or an `@` (e-mail,
 * `mailto:`, `xmpp:`), in the value of a text node.
 */
const AUTOLINK_CANDIDATE_RE = /@|https?:\/\/|www\./i;

/**
 * Whether any text node of the tree holds text the literal-autolink transform could match (see
 * {@link AUTOLINK_CANDIDATE_RE}). Text nodes inside links are counted too, though the transform
 * skips them: the answer may be a needless "yes", never a wrong "no".
 */
export function hasAutolinkCandidate(node: Nodes): boolean {
  if (node.type === 'text') return AUTOLINK_CANDIDATE_RE.test(node.value);
  if ('children' in node) {
    for (const child of node.children) if (hasAutolinkCandidate(child as Nodes)) return true;
  }
  return false;
}

/**
 * A unified plugin, used after remark-gfm: runs GFM's literal-autolink transform only on trees
 * where {@link hasAutolinkCandidate} holds. The transform (mdast-util-find-and-replace) walks the
 * whole tree once per pattern, four times, with unist-util-visit-parents, and only ever replaces
 * a text node whose value one of its patterns matches; on a tree without a candidate it changes
 * nothing, so skipping it gives the same tree. It took ~0.45 s of the document worker's ~7 s on
 * NeMo Gym, where three in four parsed documents have no candidate in a text node (URLs sit in
 * link destinations and code).
 *
 * The transform is found as the one of an extension that enters `literalAutolink` tokens; every
 * other extension, and the order of transforms, stays as the plugins made them.
 */
function guardAutolinkLiterals(this: Processor): void {
  const data = this.data() as { fromMarkdownExtensions?: Array<MdastExtension | MdastExtension[]> };
  const guard = (extension: MdastExtension): MdastExtension => {
    if (!extension.transforms || !extension.enter || !('literalAutolink' in extension.enter)) return extension;
    return {
      ...extension,
      transforms: extension.transforms.map((transform) => (tree: Root) => (hasAutolinkCandidate(tree) ? transform(tree) : undefined)),
    };
  };
  data.fromMarkdownExtensions = (data.fromMarkdownExtensions ?? []).map((e) => (Array.isArray(e) ? e.map(guard) : guard(e)));
}

/** A unified plugin, last: turns off emphasis and strikethrough ({@link EMPHASIS_OFF}, src/docs/emphasis.ts). */
function emphasisOff(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), EMPHASIS_OFF];
}

/**
 * The document processor: CommonMark + GFM + YAML/TOML frontmatter, with remark-mdx for MDX and,
 * for text too dense in emphasis markers, emphasis and strikethrough off. Built from the plugins,
 * not by copying a frozen processor: a copy keeps the original's data and runs its plugins again,
 * which doubled every micromark and mdast extension.
 */
function buildProcessor(mdx: boolean, withoutEmphasis: boolean): Processor<Root> {
  const plugins = [[remarkFrontmatter, ['yaml', 'toml']], [remarkGfm], ...(mdx ? [[remarkMdx]] : []), [guardAutolinkLiterals], ...(withoutEmphasis ? [[emphasisOff]] : [])];
  return unified().use(remarkParse).use({ plugins } as Preset).freeze() as unknown as Processor<Root>;
}

// Built once: freezing compiles the micromark extensions, the costly part of a processor.
/** Markdown (`.md` and every extension but `.mdx`): CommonMark + GFM + YAML/TOML frontmatter. */
export const markdownProcessor = buildProcessor(false, false);
/** MDX: the Markdown processor's plugins plus remark-mdx. */
export const mdxProcessor = buildProcessor(true, false);
/** The processors with emphasis off, built when a page first needs one (most runs never do). */
const emphasisOffProcessors: { md?: Processor<Root>; mdx?: Processor<Root> } = {};

/** Options of {@link parseMarkdown} and {@link parseMarkdownText}. */
export interface MarkdownParseOptions {
  /** Parse with emphasis and strikethrough off: the page is too dense in their markers (`denseEmphasisLine`, src/docs/emphasis.ts). */
  emphasisOff?: boolean;
}

/**
 * Parses one text as Markdown, or MDX, with the processor `options` pick.
 *
 * @throws what the processor throws.
 */
export function parseMarkdownText(text: string, mdx = false, options: MarkdownParseOptions = {}): Root {
  if (options.emphasisOff) return (emphasisOffProcessors[mdx ? 'mdx' : 'md'] ??= buildProcessor(mdx, true)).parse(text);
  return (mdx ? mdxProcessor : markdownProcessor).parse(text);
}

/**
 * Parses a Markdown (not MDX) text with {@link markdownProcessor}; a long text in pieces, which
 * gives the same tree with a fraction of the memory (`parseInPieces` in src/docs/segments.ts), and
 * each piece with its simple whole tables built without micromark, which gives the same tree in a
 * fraction of the time (`parseWithSimpleTables` in src/docs/table-rows.ts; off with the table-row
 * fast path's switch, `fastTableRows`).
 *
 * @throws what the processor throws.
 */
export function parseMarkdown(text: string, options: MarkdownParseOptions = {}): Root {
  const parse = (t: string): Root => parseMarkdownText(t, false, options);
  return parseInPieces(text, (t) => probedPiece(t, (piece) => (fastTableRows.enabled ? parseWithSimpleTables(piece, parse) : parse(piece))));
}
