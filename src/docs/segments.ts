/**
 * Incremental parsing of large Markdown documents (issue #15: an edit to NeMo Gym's 209 KB
 * README re-ran micromark over the whole page, ~0.4-0.6 s in the worker's cold JIT, on every run).
 *
 * A document is cut into segments before each top-level ATX heading at column 1, and each
 * segment's mdast is stored. After an edit, the segments before and after the edited region
 * whose text is unchanged are reused; only the region between them is parsed. The tree put
 * together is the tree a parse of the whole text gives, node for node and position for position;
 * where that cannot be shown from the text, the whole text is parsed.
 *
 * Why a segment's tree does not depend on the text around it (CommonMark 0.31, GFM 0.29):
 * - Block structure is decided line by line from the blocks still open. A top-level ATX heading
 *   line closes every open block (lists, block quotes, paragraphs, tables, indented code); only an
 *   open fenced code block or HTML block would take it in, and then it would not be a top-level
 *   heading. So the text before a cut parses as it would at the end of a document, and the text
 *   from the cut on as at the start of one.
 * - Reusing the segments before an edit: a segment whose last block a following line could extend
 *   (a list, a paragraph without a blank line after it; `open`) is reused only when the edited
 *   text still starts with an ATX heading line, which closes it as the old one did.
 * - Reusing the segments after an edit: the edited region is parsed together with the first line
 *   of what follows; the following segments are reused only when that line is a top-level heading
 *   at column 1 there (so the region left nothing open that would take it in).
 * - Inline content is read per block, except references to link and footnote definitions, which
 *   may sit anywhere in the document: a text holding `]:` is always parsed whole (segments;
 *   `parseInPieces` appends a page's one-line definitions to each piece instead).
 * - Front matter is read only at offset 0, and closes at the first `---`/`+++` line however far
 *   down: a text starting so is cut only when its front matter is closed, and a region after
 *   offset 0 that starts with `---`, `+++` or a byte order mark is parsed with the whole text.
 * - GFM's literal-autolink transform rewrites one text node at a time (its guard in
 *   src/docs/markdown.ts looks at the tree it is given, which is then the segment's).
 * Checked on every `.md` file under 1 MB of the 64 corpus repositories (5,154 files, 51,431 cuts):
 * the segments parsed on their own put together equal the whole parse; test/segments.test.ts
 * checks chains of random edits of every kind against whole parses.
 */
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { Root, RootContent, Table } from 'mdast';
import { fencedLineTracker } from './fences.js';
import { lineIndexAt } from './position.js';
import { pieceStarted } from './progress.js';
import { builtByFastPath, markFastBuilt, simpleTableRows } from './table-rows.js';
import { lineStarts } from '../shared/strings.js';

/** Documents at least this long (UTF-16 code units) are parsed in segments; shorter ones whole (they parse in a few ms). */
export const SEGMENTED_MIN_LENGTH = 32 * 1024;

/**
 * True when the document `file` with text `text` is parsed in segments: Markdown (not MDX, whose
 * JSX blocks span headings) of `minLength` (default {@link SEGMENTED_MIN_LENGTH}) or more. `--fix`
 * segments every page (0): its re-lint after the edits then parses only the edited sections.
 */
export function segmentable(file: string, text: string, minLength = SEGMENTED_MIN_LENGTH): boolean {
  return text.length >= minLength && !/\.(?:mdx|rst|rest)$/i.test(file);
}

/** One stored segment of a document's tree, in document order (a segment starts where the one before it ends). Plain data (kept in the per-file cache). */
export interface MarkdownSegment {
  /** Its length in UTF-16 code units. */
  length: number;
  /** sha1 (hex) of its text. */
  hash: string;
  /** True when a line after it may continue its last block (see `openAtEnd`): it is then reused only before an ATX heading. */
  open: boolean;
  /**
   * V8-serialised array of the segment's top-level mdast nodes, positions relative to the segment
   * (line 1, offset 0). Absent for a segment that is rebuilt on every parse: one holding a table
   * built by the fast path of src/docs/table-rows.ts, which is cheaper to build again than to
   * store and read back (`builtByFastPath`). Such a segment is never reused: the parse takes it
   * as changed.
   */
  tree?: Uint8Array;
}

/** What {@link parseSegmented} gives. */
export interface SegmentedParse {
  /** The tree of the whole text: equal to `parse(text)`. */
  tree: Root;
  /** The segments to store for the next parse of this document; undefined when it cannot be cut (`]:` in it). */
  segments?: MarkdownSegment[];
  /** How many stored segments were reused (0 when the text was parsed whole). */
  reused: number;
}

/** Top-level blocks after which, with a blank line, nothing is open whatever line follows. */
const CLOSED_BLOCKS = new Set(['paragraph', 'heading', 'table', 'thematicBreak']);
/** Text a fresh parse would read differently at offset 0 than in the middle of a document. */
const DOCUMENT_START_ONLY = /^(?:---|\+\+\+|\uFEFF)/;
const BLANK_LINE = /\r?\n[ \t]*\r?\n|\r[ \t]*\r/;
/** A line that is an ATX heading when it starts a block at column 1 (CommonMark 4.2). */
const ATX_LINE = /^#{1,6}(?=[ \t\r\n]|$)/;

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** 1-based line of `offset` given {@link lineStarts}. */
function lineAt(starts: number[], offset: number): number {
  return lineIndexAt(starts, offset) + 1;
}

/** The line of `text` that starts at `at`, with its line ending. */
function lineFrom(text: string, at: number): string {
  const m = /\r\n|\r|\n/g;
  m.lastIndex = at;
  const end = m.exec(text);
  return text.slice(at, end ? end.index + end[0].length : text.length);
}

type Positioned = { position?: { start: { line: number; offset?: number }; end: { line: number; offset?: number } }; children?: Positioned[] };

/**
 * Moves every position in `nodes` by `lines` lines and `offset` code units (columns stay: segments
 * start at line starts). A move by nothing returns at once: `-0` (the first segment's move,
 * `-from` with `from` 0) is no small integer to V8, and adding it to every position made each
 * field a heap number: the positions of a 300-column table of 800 rows were all rewritten, 1 s
 * of CPU and tens of MB, so that its page, parsed in segments (the language server, and the CLI
 * with its cache), needed more than the document worker's 192 MB where a plain parse did not
 * (#33 s38 sweep D6).
 */
function shift(nodes: readonly Positioned[], lines: number, offset: number): void {
  if (lines === 0 && offset === 0) return;
  for (const node of nodes) {
    const p = node.position;
    if (p) {
      p.start.line += lines;
      p.end.line += lines;
      if (p.start.offset !== undefined) p.start.offset += offset;
      if (p.end.offset !== undefined) p.end.offset += offset;
    }
    if (node.children) shift(node.children, lines, offset);
  }
}

/** Offsets (relative to `text`) where `tree`'s top level may be cut: the start of each top-level ATX heading at column 1 but the first node. */
function cutPoints(text: string, tree: Root): number[] {
  const out: number[] = [];
  const kids = tree.children;
  for (let i = 1; i < kids.length; i++) {
    const node = kids[i]!;
    const start = node.position?.start;
    if (node.type !== 'heading' || start?.offset === undefined || start.column !== 1) continue;
    if (ATX_LINE.test(text.slice(start.offset, start.offset + 7))) out.push(start.offset);
  }
  return out;
}

/**
 * True when a segment (text `text`, its top-level nodes `nodes` with offsets relative to a text
 * in which the segment starts at offset `at`) may be continued by the line after it: unless its last block is one a blank line closes or
 * one line long and a blank line follows it, a following line may extend it (an indented line
 * continues a list or indented code, a paragraph line a paragraph).
 */
function openAtEnd(text: string, nodes: readonly RootContent[], at = 0): boolean {
  const last = nodes.at(-1);
  const end = last?.position?.end.offset;
  return !(last && end !== undefined && CLOSED_BLOCKS.has(last.type) && BLANK_LINE.test(text.slice(end - at)));
}

/**
 * False when `text` (parsed at the start of a document into `tree`) starts as front matter may
 * (`---`, `+++`, a byte order mark) but its tree does not start with closed front matter (a
 * `yaml` or `toml` node): whether and where it closes depends on the rest of the document.
 */
function frontMatterClosed(text: string, tree: Root): boolean {
  if (!DOCUMENT_START_ONLY.test(text)) return true;
  const first = tree.children[0]?.type as string | undefined;
  return first === 'yaml' || first === 'toml';
}

/**
 * Cuts `nodes` (the fresh parse of `text`, which starts at offset `base` of the whole document)
 * into segments at {@link cutPoints}. Each segment's nodes are serialised with positions
 * relative to it, then moved to their place in the whole document. Returns the segments and the
 * nodes, in order.
 */
function cut(text: string, nodes: RootContent[], points: number[], base: number, starts: number[]): { segments: MarkdownSegment[]; nodes: RootContent[] } {
  const bounds = [0, ...points];
  const segments: MarkdownSegment[] = [];
  const out: RootContent[] = [];
  const baseLine = lineAt(starts, base);
  let k = 0;
  for (let s = 0; s < bounds.length; s++) {
    const from = bounds[s]!;
    const to = s + 1 < bounds.length ? bounds[s + 1]! : text.length;
    const own: RootContent[] = [];
    while (k < nodes.length && (nodes[k]!.position?.start.offset ?? 0) < to) own.push(nodes[k++]!);
    // Positions in `nodes` are relative to `text`: make them relative to the segment, serialise,
    // then absolute. A segment rebuilt on every parse (no stored tree) is not moved at all.
    const fromLine = lineAt(starts, base + from) - baseLine + 1;
    const stored = !own.some(builtByFastPath);
    const piece = text.slice(from, to);
    // The nodes' offsets are still relative to `text`, where the segment starts at `from`.
    const segment: MarkdownSegment = { length: piece.length, hash: sha1(piece), open: openAtEnd(piece, own, from) };
    if (stored) {
      shift(own as Positioned[], 1 - fromLine, 0 - from);
      segment.tree = serialize(own);
      shift(own as Positioned[], lineAt(starts, base + from) - 1, base + from);
    } else if (base !== 0) {
      shift(own as Positioned[], lineAt(starts, base) - 1, base);
    }
    segments.push(segment);
    out.push(...own);
  }
  return { segments, nodes: out };
}

/** The root of the whole text, as the parser makes it (key order included: equal trees serialise equally). */
function rootOf(children: RootContent[], text: string, starts: number[]): Root {
  const end = { line: starts.length, column: text.length - starts.at(-1)! + 1, offset: text.length };
  return { type: 'root', children, position: { start: { line: 1, column: 1, offset: 0 }, end } };
}

/** Stored nodes of `segment`, moved to start at `start`; undefined when they do not deserialise. */
function reuse(segment: MarkdownSegment, start: number, starts: number[]): RootContent[] | undefined {
  if (!segment.tree) return undefined;
  let nodes: unknown;
  try {
    nodes = deserialize(segment.tree);
  } catch {
    return undefined;
  }
  if (!Array.isArray(nodes)) return undefined;
  shift(nodes as Positioned[], lineAt(starts, start) - 1, start);
  return nodes as RootContent[];
}

/**
 * Parses `text` with `parse` (a Markdown processor's `parse`, without MDX), reusing the
 * unchanged segments of the same document's last parse.
 *
 * @param text the document's text, after any rewriting done before parsing.
 * @param parse parses a Markdown text into mdast; it must be the one the stored segments came from.
 * @param stored the segments the last parse of this document returned, or null/undefined.
 * @returns the tree, equal to `parse(text)`, and the segments to store.
 * @throws what `parse` throws.
 */
export function parseSegmented(text: string, parse: (text: string) => Root, stored: readonly MarkdownSegment[] | null | undefined): SegmentedParse {
  if (text.includes(']:')) return { tree: parse(text), reused: 0 };
  const starts = lineStarts(text);
  const whole = (): SegmentedParse => {
    const tree = parse(text);
    // Front matter that is not closed makes the first `---` a thematic break only until some
    // later line closes it: such a text is not cut.
    if (!frontMatterClosed(text, tree)) return { tree, reused: 0 };
    // Cutting the tree into segments (hashing each) is a piece of work of its own, over the whole
    // text: counted in the last parsed piece, it made a 7 KB piece of a 487 KB table cost 1.1 s of
    // CPU, near its budget of 1.2 s (#33 doc-memory-table-rows, skipped on a loaded machine).
    pieceStarted(text.length);
    const { segments, nodes } = cut(text, tree.children, cutPoints(text, tree), 0, starts);
    tree.children = nodes;
    return { tree, segments, reused: 0 };
  };
  if (!stored || stored.length === 0) return whole();

  // The unchanged segments at the start. The last one stored ended at the end of its text, so
  // it is reused only if it still does.
  let i = 0;
  let from = 0;
  while (i < stored.length) {
    const segment = stored[i]!;
    const end = from + segment.length;
    if (end > text.length || (i === stored.length - 1 && end !== text.length)) break;
    // A segment rebuilt on every parse (no stored tree) is parsed with the changed region.
    if (!segment.tree) break;
    if (sha1(text.slice(from, end)) !== segment.hash) break;
    from = end;
    i++;
  }
  // A segment that a following line may continue (a list, a paragraph) ended, when it was cut,
  // where an ATX heading followed: it is reused only where one still does, which closes it the same way.
  while (i > 0 && from < text.length && stored[i - 1]!.open && !ATX_LINE.test(text.slice(from, from + 7))) {
    i--;
    from -= stored[i]!.length;
  }
  // The unchanged segments at the end: each starts with an ATX heading at column 1 (never the
  // first segment, which may hold front matter).
  let j = stored.length;
  let to = text.length;
  while (j - 1 > 0 && j - 1 >= i) {
    const segment = stored[j - 1]!;
    const at = to - segment.length;
    if (at < from || (at > 0 && !/[\r\n]/.test(text.charAt(at - 1))) || !ATX_LINE.test(text.slice(at, at + 7))) break;
    if (!segment.tree) break;
    if (sha1(text.slice(at, to)) !== segment.hash) break;
    to = at;
    j--;
  }
  if (i === 0 && j === stored.length) return whole();

  // The region between is parsed with the first line of what follows it: the reused end
  // segments are read as parsed on their own only if that line is a top-level heading after the
  // region (nothing the region leaves open, a fenced code block or an HTML block, takes it in).
  const middle = text.slice(from, to);
  let middleNodes: RootContent[] = [];
  if (middle.length > 0) {
    if (from > 0 && DOCUMENT_START_ONLY.test(middle)) return whole();
    const next = j < stored.length ? lineFrom(text, to) : '';
    const tree = parse(middle + next);
    if (from === 0 && !frontMatterClosed(middle, tree)) return whole();
    middleNodes = tree.children;
    if (next !== '') {
      const heading = middleNodes.at(-1);
      if (heading?.type !== 'heading' || heading.position?.start.offset !== middle.length || heading.position.start.column !== 1) return whole();
      middleNodes = middleNodes.slice(0, -1);
    }
  }

  const nodes: RootContent[] = [];
  const segments: MarkdownSegment[] = [];
  let at = 0;
  for (let k = 0; k < i; k++) {
    const reused = reuse(stored[k]!, at, starts);
    if (!reused) return whole();
    nodes.push(...reused);
    segments.push(stored[k]!);
    at += stored[k]!.length;
  }
  if (middle.length > 0) {
    pieceStarted(middle.length); // the cut, as in whole()
    const points = cutPoints(middle, { type: 'root', children: middleNodes });
    const fresh = cut(middle, middleNodes, points, from, starts);
    nodes.push(...fresh.nodes);
    segments.push(...fresh.segments);
  }
  at = to;
  for (let k = j; k < stored.length; k++) {
    const segment = stored[k]!;
    const reused = reuse(segment, at, starts);
    if (!reused) return whole();
    nodes.push(...reused);
    segments.push(segment);
    at += segment.length;
  }
  return { tree: rootOf(nodes, text, starts), segments, reused: i + (stored.length - j) };
}

/** Documents at least this long (UTF-16 code units) are parsed in pieces by {@link parseInPieces}. */
export const PIECED_MIN_LENGTH = 96 * 1024;

/**
 * Length a piece of {@link parseInPieces} grows to before it is cut at the next cut line. 8 KB
 * rather than 32 KB: micromark's cost per piece grows faster than its length (its event arrays
 * are spliced and resolved per piece, and a larger piece keeps more alive across scavenges), so
 * a 546 KB reference table of 30,000 rows took about 1 s less CPU in 8 KB pieces (one-page run:
 * 6.1-6.9 -> 5.0-5.1 s user; 4 KB: 5.2-5.4 s, 16 KB: 6.3-6.5 s; #33 fresh sweep D4).
 */
export const PIECE_LENGTH = 8 * 1024;

/** A GFM table row line at column 1 (a cut inside a table is made only between two such lines). */
const PIPE_ROW = /^\|/;

/** A place where {@link parseInPieces} may cut: before a top-level ATX heading, or between two rows of a top-level table. */
interface PieceCut {
  offset: number;
  kind: 'heading' | 'row';
}

/** Candidate cuts of `text` (line starts `starts`): lines outside fences that start an ATX heading, or a `|` row after two `|` rows. */
function pieceCuts(text: string, starts: number[]): PieceCut[] {
  const out: PieceCut[] = [];
  const fenced = fencedLineTracker();
  /** How many `|` rows end just before this line (a cut needs two: the header is never cut from its delimiter row). */
  let rowsBefore = 0;
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i]!;
    const to = i + 1 < starts.length ? starts[i + 1]! : text.length;
    const line = text.slice(from, to).replace(/\r?\n$|\r$/, '');
    const inFence = fenced(line);
    const row = !inFence && PIPE_ROW.test(line);
    if (i > 0 && !inFence) {
      if (ATX_LINE.test(line)) out.push({ offset: from, kind: 'heading' });
      else if (row && rowsBefore >= 2) out.push({ offset: from, kind: 'row' });
    }
    rowsBefore = row ? rowsBefore + 1 : 0;
  }
  return out;
}

/** The text of the two lines starting at `offset` (a table's header and delimiter rows), line endings included. */
function twoLines(text: string, offset: number): string {
  const first = lineFrom(text, offset);
  return first + lineFrom(text, offset + first.length);
}

/**
 * Parses a long Markdown text in pieces of about {@link PIECE_LENGTH}, so that micromark's
 * events, which it holds for the whole text until it builds the tree (about 700 MB for 500 KB
 * of table rows, #33 D9), exist for one piece at a time; the tree put together equals
 * `parse(text)`, node for node and position for position.
 *
 * A piece ends before a top-level ATX heading at column 1 (the segments' cut: the heading closes
 * everything open, see the module comment) or between two rows of a top-level table that start
 * with `|` at column 1. A table cut is parsed with the table's header and delimiter rows before
 * the piece (the table goes on there: a row is read from its own line and the header's columns
 * only), and its rows are appended to the table of the piece before. Each cut is checked on the
 * trees: before it, the last top-level node is no code or HTML block (which would have taken in a
 * heading line) and, at a row cut, is a table ending on the line before; after it, the first node
 * is the heading, or the table whose first body row starts the piece. A check that fails, a text
 * holding `]:` that is not a one-line top-level definition (definitions are read document-wide:
 * one-line ones are appended to each piece and dropped from its tree, #33 fresh sweep s20 D3)
 * or front matter left open parses the whole
 * text at once.
 *
 * Table-row fast path (issues #33, #35): a piece that continues a table is first read line by
 * line by `simpleTableRows` (src/docs/table-rows.ts), which builds the nodes of simple rows
 * (plain text and code spans between `|`s) as micromark would, without it. At the first line that
 * is not a simple row, the rest of the piece goes to `parse` after the header and delimiter rows
 * as above; when that line does not go on with the table (a blank line, a heading, another
 * block), the parse gives the header row alone, which is dropped, and the table ends with the
 * rows built. A 500 KB table of 30,000 such rows then costs one parsed piece, not sixty.
 *
 * @param options.pieceLength piece length (tests use short pieces to make many cuts).
 * @param options.fastRows use the table-row fast path (default {@link fastTableRows}`.enabled`,
 *   true; tests turn it off to compare the trees).
 * @throws what `parse` throws.
 */
export function parseInPieces(text: string, parse: (text: string) => Root, options: { pieceLength?: number; minLength?: number; fastRows?: boolean } = {}): Root {
  const pieceLength = options.pieceLength ?? PIECE_LENGTH;
  const fastRows = options.fastRows ?? fastTableRows.enabled;
  if (text.length < (options.minLength ?? PIECED_MIN_LENGTH)) return parse(text);
  const starts = lineStarts(text);
  // Link reference definitions apply document-wide: each piece is parsed with the page's
  // definitions after it (dropped from its tree), so its references resolve as in a whole parse.
  const definitions = text.includes(']:') ? pageDefinitions(text, starts, parse) : '';
  if (definitions === undefined) return parse(text);
  const cuts = pieceCuts(text, starts).filter((c) => c.offset > 0);
  if (cuts.length === 0) return parse(text);
  /** Identifiers of the definitions found at their own place in the pieces: must be all of them. */
  const placed = new Set<string>();
  const nodes: RootContent[] = [];
  let from = 0;
  let k = 0;
  /** The table the piece starting at `from` continues (a row cut), with its header and delimiter rows. */
  let carry: { table: Table; prefix: string } | undefined;
  while (from < text.length) {
    while (k < cuts.length && cuts[k]!.offset < from + pieceLength) k++;
    const cut = k < cuts.length ? cuts[k]! : undefined;
    const to = cut ? cut.offset : text.length;
    /** Rows of the carried table built by the fast path in this piece (then the table may end before the rest of the piece). */
    let fast = 0;
    if (carry && fastRows) {
      // A piece of work of its own for the parse budgets (src/docs/progress.ts), as a parsed piece is.
      pieceStarted(to - from);
      const read = simpleTableRows(text, from, to, starts, lineAt(starts, from) - 1);
      fast = read.rows.length;
      if (fast > 0) {
        markFastBuilt(carry.table);
        carry.table.children.push(...read.rows);
        carry.table.position!.end = { ...read.rows.at(-1)!.position!.end };
        from = read.next;
      }
    }
    if (from === to) {
      // Every line of the piece was a simple row: no parse. A row cut keeps the table carried on;
      // a heading cut ends it (the heading line closes it, as in a whole parse).
      if (cut?.kind !== 'row') carry = undefined;
      k++;
      continue;
    }
    const prefix = carry?.prefix ?? '';
    const pieceText = prefix + text.slice(from, to);
    const tree = parse(definitions === '' ? pieceText : `${pieceText}\n\n${definitions}`);
    if (from === 0 && !frontMatterClosed(text, tree)) return parse(text);
    if (definitions !== '') {
      // What the appended definitions gave is dropped; anything else after the piece is a surprise.
      const beyond = tree.children.filter((n) => (n.position?.start.offset ?? 0) >= pieceText.length);
      if (beyond.some((n) => n.type !== 'definition')) return parse(text);
      tree.children = tree.children.slice(0, tree.children.length - beyond.length);
      for (const n of tree.children) if (n.type === 'definition') placed.add(n.identifier);
    }
    const kids = tree.children;
    if (from > 0) {
      const first = kids[0];
      if (carry) {
        const rows = first?.type === 'table' ? first.children : [];
        if (fast > 0 && rows.length === 1 && first!.position?.start.offset === 0 && (first!.position.end.offset ?? Infinity) < prefix.length) {
          // The line after the fast rows does not go on with the table (a blank line, another
          // block): it ended with them. The rest of the piece parsed after the header alone reads
          // as after the whole table (a row is read from its own line and the header only).
          kids.shift();
          carry = undefined;
        } else if (first?.position?.start.offset !== 0 || rows.length < 2 || rows[1]!.position?.start.offset !== prefix.length) return parse(text);
      } else if (first?.type !== 'heading' || first.position?.start.offset !== 0) {
        return parse(text);
      }
    }
    // Positions relative to prefix + piece: make them absolute (a piece starts at a line start).
    const prefixLines = prefix === '' ? 0 : lineStarts(prefix).length - 1;
    shift(kids as Positioned[], lineAt(starts, from) - 1 - prefixLines, from - prefix.length);
    let own = kids;
    if (carry) {
      const continued = kids[0] as Table;
      carry.table.children.push(...continued.children.slice(1));
      carry.table.position!.end = continued.position!.end;
      own = kids.slice(1);
    }
    nodes.push(...own);
    carry = undefined;
    if (cut) {
      const last = nodes.at(-1);
      if (!last || last.type === 'code' || last.type === 'html') return parse(text);
      if (cut.kind === 'row') {
        const end = last.position?.end.offset;
        if (last.type !== 'table' || end === undefined || end < cut.offset - 2 || end > cut.offset || /[^\r\n]/.test(text.slice(end, cut.offset))) return parse(text);
        const tableStart = starts[lineAt(starts, last.position!.start.offset!) - 1]!;
        carry = { table: last, prefix: twoLines(text, tableStart) };
      }
    }
    from = to;
    k++;
  }
  if (definitions !== '' && placed.size !== definitions.split('\n').length) return parse(text);
  return rootOf(nodes, text, starts);
}

/**
 * The switch of the table-row fast path of {@link parseInPieces} (`simpleTableRows`,
 * src/docs/table-rows.ts): on unless a test turns it off to compare its trees with the real
 * parser's. `parseInPieces`' `fastRows` option overrides it for one call.
 */
export const fastTableRows = { enabled: true };

/**
 * The link reference definitions of a page as lines to append to each piece, or `undefined` when
 * they cannot be taken line by line (then the page is parsed whole): every line holding `]:`
 * outside fenced code must be a one-line top-level definition (`[id]: https://… "title"`), and
 * each must parse, alone, as one distinct definition. At most {@link MAX_APPENDED_DEFINITIONS}.
 */
function pageDefinitions(text: string, starts: readonly number[], parse: (text: string) => Root): string | undefined {
  const fenced = fencedLineTracker();
  const lines: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const line = text.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! : text.length).replace(/\r?\n$|\r$/, '');
    if (fenced(line) || !line.includes(']:')) continue;
    if (!ONE_LINE_DEFINITION.test(line) || lines.length >= MAX_APPENDED_DEFINITIONS) return undefined;
    lines.push(line.trim());
  }
  if (lines.length === 0) return '';
  const block = lines.join('\n');
  const kids = parse(block).children;
  if (kids.length !== lines.length || kids.some((n) => n.type !== 'definition')) return undefined;
  if (new Set(kids.map((n) => (n as { identifier: string }).identifier)).size !== lines.length) return undefined;
  return block;
}

/** A one-line top-level link reference definition: `[label]: destination`, an optional title. */
const ONE_LINE_DEFINITION = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*\S/;
/** Most definitions appended to each piece (beyond, the page is parsed whole). */
const MAX_APPENDED_DEFINITIONS = 200;
