/** Reads a commented YAML block (`key: value  # what it does`) as reference rows: issue #13 item 9. */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { DataBlock, ReferenceRow } from '../model/types.js';

/** Share of a block's keys that must carry a comment for the block to be a reference, not an example. */
export const COMMENTED_KEY_SHARE = 0.5;

/** A comment line that only names a file (`# app.yaml`), which attributes the block and describes no key. */
const FILE_COMMENT_RE = /^[\w./-]+\.(?:ya?ml|json|toml)$/i;

/**
 * The rows of a commented YAML block: one per key (nested keys as dotted names, `server.port`; a
 * key holding a block mapping gives the rows of its keys, not one of its own; list items are not
 * looked into), in document order. A row's description is the comment lines
 * right above its key (same block of `#` lines, no blank line between) followed by the comment at
 * the end of its line; its default is the one the description states (`(type: int, default: 8)`,
 * the value then being an example), else the value as written when the value is a scalar or an empty
 * flow collection (`{}`, `[]`) on the key's line; its location is the key token.
 *
 * Returns `undefined` for a block that is not YAML, does not parse to a mapping, or where fewer than
 * {@link COMMENTED_KEY_SHARE} of the keys have a comment (an ordinary example). Never throws.
 */
export function commentedYamlRows(block: DataBlock): ReferenceRow[] | undefined {
  if (block.lang !== 'yaml') return undefined;
  let rows = readRows.get(block);
  if (rows === undefined) {
    try {
      rows = read(block) ?? null;
    } catch {
      rows = null;
    }
    readRows.set(block, rows);
  }
  // Each caller gets rows of its own (the link stage builds sections of them).
  return rows?.map(copyRow);
}

/**
 * What {@link commentedYamlRows} read of a block (`null`: not a commented YAML reference), by the
 * block: the link stage asks twice per block, and the language server's lints share an unchanged
 * page's blocks (src/lsp/pieces.ts), so each YAML block is parsed once, not on every lint (NeMo
 * Gym: ~50 ms of each lint after an edit). A block is never changed once parsed.
 */
const readRows = new WeakMap<DataBlock, ReferenceRow[] | null>();

/** A row with its own arrays and locations. */
function copyRow(row: ReferenceRow): ReferenceRow {
  return {
    ...row,
    names: [...row.names],
    links: [...row.links],
    location: { ...row.location },
    ...(row.defaultLocation ? { defaultLocation: { ...row.defaultLocation } } : {}),
  };
}

function read(block: DataBlock): ReferenceRow[] | undefined {
  const counter = new LineCounter();
  // A frontmatter block is fenced by `---` lines: the first document is the reference.
  const doc = parseDocument(block.value, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  if (!isMap(doc.contents)) return undefined;
  const lines = block.value.split(/\r\n|\r|\n/);
  const rows: ReferenceRow[] = [];
  let commented = 0;
  const visit = (node: unknown, path: string[], depth: number): void => {
    if (depth > 32 || !isMap(node)) return;
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key) || !(pair.key as YamlNode).range) continue;
      const key = pair.key as YamlNode;
      const name = String((pair.key as { value: unknown }).value);
      const names = [...path, name];
      const [from, to] = key.range!;
      const start = counter.linePos(from);
      const lineIdx = start.line - 1;
      const value = pair.value as YamlNode | null;
      const valueOnLine = value?.range != null && counter.linePos(value.range![0]).line === start.line;
      const flowEmpty = valueOnLine && (isMap(value) || isSeq(value)) && (value as { items: unknown[] }).items.length === 0;
      const restFrom = valueOnLine && value?.range && (isScalar(value) || flowEmpty) ? value.range[1] : to;
      const lineEnd = counter.lineStarts[start.line] !== undefined ? counter.lineStarts[start.line]! - 1 : block.value.length;
      const trailing = /^[\s:]*#\s?(.*)$/.exec(block.value.slice(restFrom, Math.max(restFrom, lineEnd)).replace(/\r$/, ''))?.[1]?.trim();
      const above: string[] = [];
      for (let i = lineIdx - 1; i >= 0; i--) {
        const m = /^\s*#\s?(.*)$/.exec(lines[i]!);
        if (!m) break;
        const text = m[1]!.trim();
        if (!FILE_COMMENT_RE.test(text)) above.unshift(text);
      }
      // A key holding a block mapping is a group: its keys are the rows (so a reference that
      // documents some `server.*` keys must document all of them), not the key itself.
      if (isMap(value) && !flowEmpty && value.items.length > 0) {
        visit(value, names, depth + 1);
        continue;
      }
      const description = [...above, ...(trailing ? [trailing] : [])].filter((t) => t !== '').join(' ');
      if (description !== '') commented++;
      const raw = names.join('.');
      const location = {
        file: block.file,
        line: block.contentLine + lineIdx,
        column: start.col + block.contentIndent,
        endLine: block.contentLine + lineIdx,
        endColumn: start.col + block.contentIndent + (to - from),
      };
      const row: ReferenceRow = { names: [raw], rawName: raw, links: [], location };
      if (description !== '') row.description = description;
      // `# … (type: int, default: 8)` above `lora_r: 32`: the comment states the default, so the
      // value is an example (jsonargparse's and similar generated configs write them this way).
      // A greedy value (trimmed below): the lazy `[^,;)]*?\s*` rescanned blank runs (s26c sweep D10).
      const stated = /\bdefault\s*[:=]\s*([^,;)\s][^,;)]*)(?:[,;)]|$)/i.exec(description);
      if (stated) {
        row.default = stated[1]!.trim();
      } else if (valueOnLine && value?.range && (isScalar(value) || flowEmpty)) {
        const vStart = counter.linePos(value.range[0]);
        row.default = block.value.slice(value.range[0], value.range[1]).trim();
        row.defaultLocation = {
          file: block.file,
          line: block.contentLine + vStart.line - 1,
          column: vStart.col + block.contentIndent,
          endLine: block.contentLine + vStart.line - 1,
          endColumn: vStart.col + block.contentIndent + row.default.length,
        };
      }
      rows.push(row);
    }
  };
  visit(doc.contents, [], 0);
  if (rows.length === 0 || commented < rows.length * COMMENTED_KEY_SHARE) return undefined;
  return rows;
}
