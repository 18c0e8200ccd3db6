/** Reads the keys of a YAML/JSON/TOML example block, at any depth, as config-key usages with exact positions. */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { DataBlock, Usage } from '../model/types.js';

/** A key found in a data block: its dotted path and where its token is in the document. */
export interface DataKey {
  /** Dotted path from the root (`logging.rotate_bytes`); list items are looked through. */
  key: string;
  /** The path's segments, when one of them contains a dot (`commands` / `my_pkg.yaml` / `kind`). */
  segments?: string[];
  /** The key token as written. */
  raw: string;
  line: number;
  column: number;
  endColumn: number;
}

/**
 * The keys of a data block, depth first, in document order.
 *
 * - YAML and JSON are parsed with the `yaml` library (JSON is YAML 1.2), with positions from its
 *   LineCounter; a block that does not parse yields the keys of what parsed, or none.
 * - TOML is read line by line: `[table]` / `[[array.table]]` headers set the prefix, `key = v`
 *   and `"quoted.key" = v` lines add keys (dotted keys allowed); multi-line values and inline
 *   tables are not looked into. (smol-toml, used for `pyproject.toml`, gives no positions.)
 *
 * Never throws. Positions are document positions: the block's content line and indent are added.
 */
export function dataBlockKeys(block: DataBlock): DataKey[] {
  try {
    return block.lang === 'toml' ? tomlKeys(block) : yamlKeys(block);
  } catch {
    return [];
  }
}

function yamlKeys(block: DataBlock): DataKey[] {
  const counter = new LineCounter();
  const doc = parseDocument(block.value, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  const keys: DataKey[] = [];
  const visit = (node: unknown, path: string[], depth: number): void => {
    if (depth > 32) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        const segments = [...path, name];
        const key = segments.join('.');
        const range = (pair.key as YamlNode).range;
        if (range) {
          const start = counter.linePos(range[0]);
          const end = counter.linePos(range[1]);
          keys.push({
            key,
            ...(segments.some((x) => x.includes('.')) ? { segments } : {}),
            raw: block.value.slice(range[0], range[1]),
            line: block.contentLine + start.line - 1,
            column: start.col + block.contentIndent,
            endColumn: (end.line === start.line ? end.col : start.col + name.length) + block.contentIndent,
          });
        }
        visit(pair.value, segments, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, path, depth + 1);
    }
  };
  visit(doc.contents, [], 0);
  return keys;
}

/**
 * The name of a TOML table header line (`[a.b]`, `[[a]]`, a `#` comment after it), trimmed, or
 * undefined: what `/^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/` matched, read by index in linear
 * time (that pattern split a line's blank runs every way: `[` and 4,000 blanks took 26 s in the
 * main thread's model phase, s26b sweep D10).
 */
function tomlTableName(line: string): string | undefined {
  const t = line.trimStart();
  if (!t.startsWith('[')) return undefined;
  for (const open of t.startsWith('[[') ? [2, 1] : [1]) {
    const close = t.indexOf(']', open);
    if (close === -1) return undefined;
    if (close === open) continue;
    const name = t.slice(open, close).trim();
    let after = t.slice(close + 1);
    if (after.startsWith(']')) after = after.slice(1);
    after = after.trimStart();
    if (after === '' || after.startsWith('#')) return name;
  }
  return undefined;
}
const TOML_KEY = /^(\s*)((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=/;

function tomlKeys(block: DataBlock): DataKey[] {
  const keys: DataKey[] = [];
  let prefix: string[] = [];
  const unquote = (part: string): string => part.trim().replace(/^(["'])(.*)\1$/, '$2');
  const lines = block.value.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const table = tomlTableName(text);
    if (table !== undefined) {
      prefix = splitDotted(table).map(unquote);
      continue;
    }
    const m = TOML_KEY.exec(text);
    if (!m) continue;
    const raw = m[2]!;
    const segments = [...prefix, ...splitDotted(raw).map(unquote)];
    const column = m[1]!.length + 1 + block.contentIndent;
    keys.push({
      key: segments.join('.'),
      ...(segments.some((x) => x.includes('.')) ? { segments } : {}),
      raw,
      line: block.contentLine + i,
      column,
      endColumn: column + raw.length,
    });
  }
  return keys;
}

/** Splits a TOML dotted key at dots outside quotes. */
function splitDotted(raw: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '.') {
      parts.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(raw.slice(start));
  return parts;
}

/**
 * Most keys of config-file examples (YAML/JSON/TOML blocks checked against a config file's class)
 * one run checks: 50,000, over 5 times all the data-block keys of any corpus project
 * (datamodel-code-generator: about 9,400 in all its pages, counting every block; aider's busiest
 * page about 2,300). Each key becomes a usage and each unknown key a finding: 60 pages of 12,000
 * keys (720,000, 6.5 MB of Markdown) peaked at 0.98 GB and 38 s of CPU for two findings (#33 s33
 * sweep D1). Pages are counted whole, in path order (as the run's other limits,
 * src/engine/document-caps.ts): a page whose keys do not fit in what is left, and every page
 * after it, is not checked, with one `parse-error` warning (buildModel, src/link/build.ts).
 */
export const MAX_RUN_CONFIG_KEYS = 50_000;

/**
 * Config-key usages of one data block for a config file (`command` is the file's name as users
 * write it). `name` is the first segment of the dotted key, as for Hydra overrides. The usages
 * share one `block` object.
 */
export function configKeyUsages(block: DataBlock, command: string, invocation: number): Usage[] {
  const where = { file: block.file, lang: block.lang, location: block.location };
  return dataBlockKeys(block).map((k) => ({
    file: block.file,
    command,
    invocation,
    raw: k.raw,
    name: k.segments?.[0] ?? k.key.split('.', 1)[0] ?? k.key,
    key: k.key,
    ...(k.segments ? { keySegments: k.segments } : {}),
    syntax: 'config-key' as const,
    prefix: '',
    location: { file: block.file, line: k.line, column: k.column, endLine: k.line, endColumn: k.endColumn },
    block: where,
  }));
}
