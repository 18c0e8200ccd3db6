/** Reads reference layouts besides tables: a heading per parameter and bullet lists of parameters, as ReferenceRows with exact positions. */

import type { Code, Heading as MdHeading, List, ListItem, Nodes, Parent, Root, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { DocLink, DocTable, Invocation, ReferenceRow, SourceLocation } from '../model/types.js';
import {
  splitAliases, saysRemoved, flagSpellingsInText, columnRole, defaultFromDescription, namesOf, NO_VALUE, normalizeParamName, readReferenceTable,
} from './reference-table.js';
import { countWithin, lowerBound, sortedNumbers } from '../shared/ranges.js';
import { trimTrailing } from '../shared/strings.js';
import { locationOf, type Point, type Positioned } from './position.js';
import { pushUnique } from '../shared/arrays.js';

/** What {@link readLayoutRows} needs besides the tree: the file, its raw lines and what parseDoc already read. */
export interface LayoutContext {
  /** Project-relative POSIX path, used in every location. */
  file: string;
  /** The document's lines (split at `\r\n`, `\r`, `\n`), to place plain-text values exactly. */
  rawLines: readonly string[];
  /** Every link of the document, in document order; rows take the ones inside them. */
  links: readonly DocLink[];
  /** Every GFM table of the document: a parameter heading whose block holds a reference table is a group, not a parameter. */
  tables: readonly DocTable[];
  /** Shell invocations of the document: a heading whose block runs the heading's name is a command, not a parameter. */
  invocations: readonly Invocation[];
  /** Last line of the document. */
  lastLine: number;
}

/** Rows of the two non-table layouts of one document, each list in document order. */
export interface LayoutRows {
  /** One row per parameter heading (`layout: 'headings'`); `location` is the heading. */
  headingRows: ReferenceRow[];
  /** One row per item of a reference list (`layout: 'list'`); `location` is the list item. */
  listRows: ReferenceRow[];
}

/** Share of a list's items that must have the reference shape for the list to count. */
export const LIST_REFERENCE_SHARE = 0.6;

/**
 * One documented spelling of a parameter, as a code span holds it: an optional Hydra/flag prefix
 * and `[no-]` marker, a name (letters, digits, `_`, `.`, `-`; no `/`; a digit first only after
 * `--`, as in `--4o`), then at most one value placeholder (`=x`, `[=X]`, ` <dir>`, ` DIR`,
 * ` PROVIDER=KEY`, ` ALIAS:MODEL`, ` {a,b}`), possibly variadic (` TEXT...`, ` <path1> ... <pathN>`). `pip install foo`, `-1` and
 * `src/a.py` are not.
 */
const PARAM_SPELLING_RE =
  /^(?:(?:\+\+|\+|~|-)?(?:\[no-?\])?[A-Za-z_]|--(?:\[no-?\])?[A-Za-z0-9])[\w.-]*(?:\[[^\]]*\])?(?:=<[^<>\n]{1,40}>|=\S*|\s+(?:<[^>]+>|[A-Z][A-Z0-9_-]*(?:[=:][\w<>-]+)?|\[[^\]]+\]|\{[^}]+\})(?:\.\.\.|…)?(?:[ \t]+(?:\.\.\.|…)(?:[ \t]+<[^>]+>)?)?)?$/;
/** Names that are file names, not parameters (`README.md`, `config.yaml`). */
const FILE_NAME_RE = /\.(?:md|mdx|rst|txt|py|pyi|ts|tsx|js|mjs|cjs|json|jsonl|ya?ml|toml|cfg|ini|sh|html|css|lock|rs|go|java|cpp|c|h)$/i;

/** Literals and versions, which lists of values and changelogs start items and headings with (`null`, `true`, `v1.2.0`); `--yes` stays a flag. */
// Versions as `v?\d+(?:\.\d+)*(?:[-.][\w.]+)?` read them, written so that no two pieces can
// take the same characters (that form was quadratic in a run of `.1`, #33 s27): digit groups then
// a `.` tail of word characters and dots, or digit groups then a `-` tail.
export const NOT_NAMES_RE = /^(?:null|nil|none|true|false|undefined|nan|yes|no|on|off|v?\d+(?:\.[\w.]+|(?:\.\d+)*-[\w.]+)?)$/i;

/**
 * True when a code span's text is one parameter spelling (`epochs`, `--log-level <lvl>`, `+limit=5`,
 * `APP_MAP=<json dict>` with a placeholder of words,
 * `log.level`), not a command line, a path or a file name.
 */
export function isParamSpelling(text: string): boolean {
  const t = text.trim();
  const name = normalizeParamName(t);
  return PARAM_SPELLING_RE.test(t) && name !== '' && !FILE_NAME_RE.test(name) && !NOT_NAMES_RE.test(t);
}

/** A heading text that is one bare identifier (`epochs`, `log_level`, `data.repo_id`) or flag (`--log-level`). */
const BARE_NAME_RE = /^(?:--?[A-Za-z0-9][\w-]*|[a-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*)$/;
/** Lower-case section words that a bare heading never names as a parameter. */
const SECTION_WORDS: ReadonlySet<string> = new Set([
  'usage', 'example', 'examples', 'options', 'option', 'parameters', 'arguments', 'flags', 'overview', 'description',
  'notes', 'note', 'installation', 'install', 'setup', 'configuration', 'config', 'reference', 'introduction',
  'summary', 'inputs', 'outputs', 'requirements', 'providers', 'modules', 'resources', 'troubleshooting', 'faq',
  'synopsis', 'commands', 'settings', 'defaults', 'see-also', 'changelog', 'license',
]);
/**
 * Section words that are also common keys (`description` of a site or package config, terraform's
 * `inputs`/`outputs`): a bare heading of one names a parameter when its body states a type or default.
 */
const KEY_SECTION_WORDS: ReadonlySet<string> = new Set(['description', 'inputs', 'outputs', 'providers', 'modules', 'resources', 'settings', 'defaults']);

// ---------------------------------------------------------------------------------------------
// Flattened phrasing content: text as rendered, with code spans and source lines.

/** An inline code span inside flattened text: its value sits at `[start, end)`. */
interface CodeSpan {
  value: string;
  start: number;
  end: number;
  location: SourceLocation;
}

/** Phrasing content as plain text (`\n` at soft and hard breaks), its code spans and the source line of each text line. */
interface Flat {
  text: string;
  codes: CodeSpan[];
  /** Start offset in `text` and source line of each text line, in order. */
  lines: Array<{ offset: number; line: number }>;
  /** The flattened node. */
  location: SourceLocation;
}


/** Flattens a node's phrasing content (HTML, images and MDX expressions dropped, as rendered text). */
function flatten(file: string, node: Nodes): Flat {
  const start = node.position?.start.line ?? 1;
  const flat: Flat = { text: '', codes: [], lines: [{ offset: 0, line: start }], location: locationOf(file, node) };
  const newline = (line: number): void => {
    flat.text += '\n';
    flat.lines.push({ offset: flat.text.length, line });
  };
  const walk = (n: Nodes): void => {
    switch (n.type) {
      case 'text': {
        const first = n.position?.start.line ?? flat.lines[flat.lines.length - 1]!.line;
        n.value.split(/\r\n|\r|\n/).forEach((piece, i) => {
          if (i > 0) newline(first + i);
          flat.text += piece;
        });
        return;
      }
      case 'inlineCode':
        flat.codes.push({ value: n.value, start: flat.text.length, end: flat.text.length + n.value.length, location: locationOf(file, n) });
        flat.text += n.value;
        return;
      case 'break':
        newline(n.position?.end.line ?? flat.lines[flat.lines.length - 1]!.line + 1);
        return;
      case 'html':
      case 'image':
      case 'imageReference':
      case 'footnoteReference':
      case 'mdxTextExpression':
      case 'mdxFlowExpression':
        return;
      default:
        if ('children' in n) for (const c of n.children) walk(c as Nodes);
    }
  };
  walk(node);
  return flat;
}

/** How {@link valueIn} reads a value. */
type ValueMode = 'code-first' | 'whole' | 'text';

/** A value read from the document and where it is. */
interface Located {
  value: string;
  location?: SourceLocation;
  /** The value is one inline code span's text. */
  code?: boolean;
}

/**
 * Where a plain-text value at `offset` of a flattened text is in the file: the same occurrence
 * of the value on its raw source line (markup around it does not contain it), else the first.
 */
function locateText(file: string, flat: Flat, offset: number, value: string, rawLines: readonly string[]): SourceLocation | undefined {
  let li = 0;
  while (li + 1 < flat.lines.length && flat.lines[li + 1]!.offset <= offset) li++;
  const { offset: lineStart, line } = flat.lines[li]!;
  const raw = rawLines[line - 1];
  if (raw === undefined || value === '') return undefined;
  const before = flat.text.slice(lineStart, offset);
  let nth = 0;
  for (let at = before.indexOf(value); at >= 0; at = before.indexOf(value, at + 1)) nth++;
  let found = -1;
  for (let at = raw.indexOf(value), k = 0; at >= 0; at = raw.indexOf(value, at + 1), k++) {
    if (found < 0) found = at;
    if (k === nth) {
      found = at;
      break;
    }
  }
  if (found < 0) return undefined;
  return { file, line, column: found + 1, endLine: line, endColumn: found + 1 + value.length };
}

/** Trims `[start, end)` of a flat text to its non-blank part. */
function trimRange(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return [s, e];
}

/**
 * The value in `[start, end)` of a flat text.
 * - `code-first`: a code span starting the range is the value (`` `None` (required) `` → `None`);
 * - `whole`: the code span only when it is the whole range (trailing punctuation or a parenthesised
 *   note aside), else the text (`list of str`).
 * - `text`: the text as it reads (descriptions), blanks collapsed.
 * Plain text otherwise loses a trailing `.`/`,`/`;`. Empty and `-`/`n/a` values give `undefined`.
 */
function valueIn(
  file: string, flat: Flat, start: number, end: number, rawLines: readonly string[], mode: ValueMode,
): Located | undefined {
  const [s, e] = trimRange(flat.text, start, end);
  if (s >= e) return undefined;
  if (mode === 'text') {
    const text = flat.text.slice(s, e).replace(/\s+/g, ' ');
    return NO_VALUE.has(text.toLowerCase()) ? undefined : { value: text, location: flat.location };
  }
  const code = flat.codes.find((c) => c.start === s && c.end <= e);
  if (code) {
    const after = flat.text.slice(code.end, e);
    if (mode === 'code-first' || /^(?:\([^)]*\))?\s*[.,;]?$/.test(after.trim())) return { value: code.value, location: code.location };
  }
  const value = trimTrailing(flat.text.slice(s, e).replace(/\s+/g, ' '), '.,;').trim();
  if (NO_VALUE.has(value.toLowerCase())) return undefined;
  const location = locateText(file, flat, s, value, rawLines) ?? flat.location;
  return { value, location };
}

// ---------------------------------------------------------------------------------------------
// Attributes: "Type: `int`", "**Default**: 10", "- Type: int", "Type\n: int", | Type | `int` |.

type AttrRole = 'type' | 'default' | 'description' | 'env' | 'flag' | 'required' | 'optional';

/** The attribute a label names (`Type`, `Default value`, `Env var`, `CLI flag`, `Required`), if any. */
function attributeRole(label: string): AttrRole | undefined {
  const key = label.replace(/[*_`]/g, '').trim().replace(/:$/, '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (key === 'description') return 'description';
  if (key === 'required') return 'required';
  if (key === 'optional') return 'optional';
  if (key === 'flag' || key === 'flags' || key === 'alias' || key === 'aliases') return 'flag';
  const role = columnRole(key);
  return role === 'type' || role === 'default' || role === 'env' || role === 'flag' ? role : undefined;
}

/** What a parameter's heading body or parenthetical says about it. */
interface Attributes {
  type?: Located;
  default?: Located;
  env?: Located;
  description?: string;
  /** Codes of the description text, for the default phrase. */
  descriptionFlat?: { flat: Flat; start: number; end: number };
  /** A later paragraph of the body that states the default in prose ("Defaults to `auto`."). */
  defaultParagraph?: { flat: Flat; start: number; end: number };
  /** Flag spellings given as aliases ("CLI flag: `--epochs`"). */
  flags: string[];
  /** The docs say the parameter is required (`Required: yes`, `(required)`). */
  required?: boolean;
  /** The docs mark the parameter deprecated (`(deprecated)`, `(DEPRECATED)`). */
  deprecated?: boolean;
  /** The docs mark the parameter removed (`(removed in v4)`, `(obsolete)`). */
  removed?: boolean;
  /** True when any attribute was recognised (evidence that the heading is a parameter). */
  evidence: boolean;
}

const LABEL_RE = /^\s*([A-Za-z][A-Za-z -]{0,40}?)\s*:\s*/;
const LABEL_ONLY_RE = /^\s*([A-Za-z][A-Za-z -]{0,40}?)\s*$/;

/** Records one attribute value (the first of each kind wins). */
function setAttribute(
  attrs: Attributes, role: AttrRole, read: (mode: ValueMode) => Located | undefined, flagNames: () => string[],
): void {
  attrs.evidence = true;
  if (role === 'optional') return;
  if (role === 'required') {
    const v = read('text')?.value ?? 'yes';
    if (/^(?:yes|true|required|✓|✔|x)\b/i.test(v)) attrs.required = true;
    return;
  }
  if (role === 'flag') {
    for (const n of flagNames()) pushUnique(attrs.flags, n);
    return;
  }
  if (role === 'description') {
    attrs.description ??= read('text')?.value;
    return;
  }
  if (attrs[role] !== undefined) return;
  const v = read(role === 'type' ? 'whole' : 'code-first');
  if (v) attrs[role] = v;
}

/** Reads one block of phrasing lines: attribute lines are recorded, the others returned as description ranges. */
function readAttributeLines(
  ctx: LayoutContext, flat: Flat, attrs: Attributes, next: Nodes | undefined,
): Array<[number, number]> {
  const prose: Array<[number, number]> = [];
  const ranges = flat.lines.map((l, i) => [l.offset, i + 1 < flat.lines.length ? flat.lines[i + 1]!.offset - 1 : flat.text.length] as const);
  for (let i = 0; i < ranges.length; i++) {
    const [start, end] = ranges[i]!;
    const line = flat.text.slice(start, end);
    const m = LABEL_RE.exec(line);
    const role = m ? attributeRole(m[1]!) : undefined;
    if (m && role) {
      const vStart = start + m[0].length;
      const names = (): string[] => namesOf(flat.text.slice(vStart, end), flat.codes.filter((c) => c.start >= vStart && c.end <= end).map((c) => c.value));
      if (vStart >= end && i === ranges.length - 1 && next?.type === 'code') {
        // "Default:" followed by a fenced block (terraform-docs for objects and lists).
        const code = next as Code;
        setAttribute(attrs, role, () => ({ value: code.value, location: locationOf(ctx.file, code) }), () => []);
      } else {
        setAttribute(attrs, role, (mode) => valueIn(ctx.file, flat, vStart, end, ctx.rawLines, mode), names);
      }
      continue;
    }
    // Definition-list-like: a label alone, then a line starting with ':'.
    const label = LABEL_ONLY_RE.exec(line);
    const labelRole = label ? attributeRole(label[1]!) : undefined;
    const nextRange = ranges[i + 1];
    if (labelRole && nextRange) {
      const nextLine = flat.text.slice(nextRange[0], nextRange[1]);
      const colon = /^\s*:\s*/.exec(nextLine);
      if (colon) {
        const vStart = nextRange[0] + colon[0].length;
        const vEnd = nextRange[1];
        const names = (): string[] => namesOf(flat.text.slice(vStart, vEnd), flat.codes.filter((c) => c.start >= vStart && c.end <= vEnd).map((c) => c.value));
        setAttribute(attrs, labelRole, (mode) => valueIn(ctx.file, flat, vStart, vEnd, ctx.rawLines, mode), names);
        i++;
        continue;
      }
    }
    if (line.trim() !== '') prose.push([start, end]);
  }
  return prose;
}

/** Reads a small key/value table (`| Type | `int` |` rows, or one row under `| Type | Default |`). */
function readAttributeTable(ctx: LayoutContext, table: Table, attrs: Attributes): void {
  const rows = table.children;
  const header = rows[0];
  if (!header) return;
  const headerRoles = header.children.map((c) => attributeRole(toString(c)));
  const cellValue = (cell: Nodes) => {
    const flat = flatten(ctx.file, cell);
    return {
      read: (mode: ValueMode) => valueIn(ctx.file, flat, 0, flat.text.length, ctx.rawLines, mode),
      names: () => namesOf(flat.text, flat.codes.map((c) => c.value)),
    };
  };
  if (header.children.length === 2 && headerRoles[0] && !headerRoles[1]) {
    // Vertical: every row (the header row included) is a label and its value.
    for (const row of rows) {
      const [label, value] = row.children;
      const role = label ? attributeRole(toString(label)) : undefined;
      if (!role || !value) continue;
      const v = cellValue(value);
      setAttribute(attrs, role, v.read, v.names);
    }
    return;
  }
  if (rows.length === 2 && headerRoles.some((r) => r !== undefined) && !header.children.some((c) => columnRole(toString(c)) === 'name')) {
    // Horizontal: one row under attribute headers.
    rows[1]!.children.forEach((cell, i) => {
      const role = headerRoles[i];
      if (!role) return;
      const v = cellValue(cell);
      setAttribute(attrs, role, v.read, v.names);
    });
  }
}

/** Reads the body of a parameter heading (the nodes up to the next heading): attributes and the description paragraph. */
function readBody(ctx: LayoutContext, body: readonly Nodes[], attrs: Attributes): void {
  let description: { flat: Flat; ranges: Array<[number, number]> } | undefined;
  body.forEach((node, i) => {
    const next = body[i + 1];
    if (node.type === 'paragraph') {
      const flat = flatten(ctx.file, node);
      const prose = readAttributeLines(ctx, flat, attrs, next);
      if (description && !attrs.defaultParagraph && /^\s*defaults?\s+(?:to|is)\b/i.test(flat.text)) {
        attrs.defaultParagraph = { flat, start: 0, end: flat.text.length };
      }
      if (!description && prose.length > 0) description = { flat, ranges: prose };
    } else if (node.type === 'list') {
      for (const item of node.children) {
        item.children.forEach((child, j) => {
          if (child.type === 'paragraph') readAttributeLines(ctx, flatten(ctx.file, child), attrs, item.children[j + 1] ?? next);
        });
      }
    } else if (node.type === 'table') {
      readAttributeTable(ctx, node, attrs);
    }
  });
  if (description && attrs.description === undefined) {
    const { flat, ranges } = description;
    const text = ranges.map(([s, e]) => flat.text.slice(s, e)).join(' ').replace(/\s+/g, ' ').trim();
    if (text !== '') {
      attrs.description = text;
      attrs.descriptionFlat = { flat, start: ranges[0]![0], end: ranges[ranges.length - 1]![1] };
    }
  }
}

/** A default phrase in a description ("Defaults to `info`."), located at its code span when there is one. */
function defaultFromProse(ctx: LayoutContext, flat: Flat, start: number, end: number): Located | undefined {
  const text = flat.text.slice(start, end);
  const codes = flat.codes.filter((c) => c.start >= start && c.end <= end);
  const value = defaultFromDescription(text, codes.map((c) => c.value));
  if (value === undefined) return undefined;
  const phrase = /\bdefault/i.exec(text);
  const from = start + (phrase?.index ?? 0);
  const code = codes.find((c) => c.start >= from && c.value === value);
  if (code) return { value, location: code.location, code: true };
  const at = flat.text.indexOf(value, from);
  return { value, location: (at >= 0 ? locateText(ctx.file, flat, at, value, ctx.rawLines) : undefined) ?? flat.location };
}

// ---------------------------------------------------------------------------------------------
// Names: leading code spans and a parenthesised note.

/** Leading code spans at `offset` (aliases joined by `,` `/` `|` `or`): names, raw text and where the names end. */
function leadingNames(flat: Flat, offset: number): { names: string[]; raw: string; end: number } | undefined {
  const [s] = trimRange(flat.text, offset, flat.text.length);
  let code = flat.codes.find((c) => c.start === s);
  if (!code) return undefined;
  const spans = [code];
  let end = code.end;
  for (;;) {
    const m = /^\s*(?:,|\/|\||\bor\b)\s*/.exec(flat.text.slice(end));
    code = m ? flat.codes.find((c) => c.start === end + m[0].length) : undefined;
    if (!m || !code) break;
    spans.push(code);
    end = code.end;
  }
  const spellings = spans.flatMap((c) => splitAliases(c.value)).map((p) => p.trim()).filter((p) => p !== '');
  // A digit short flag (`-0`) reads as a negative number alone, but beside a long spelling
  // (`-0/--null`, click's NUL-separator idiom) it is that flag's short form.
  const long = spellings.some((p) => /^--[A-Za-z]/.test(p));
  if (spellings.length === 0 || !spellings.every((p) => isParamSpelling(p) || (long && /^-\d$/.test(p)))) return undefined;
  const names = namesOf('', spans.map((c) => c.value));
  return names.length > 0 ? { names, raw: flat.text.slice(s, end), end } : undefined;
}

/** A parenthesised note at `offset` (`(int, default: 10)`): its inner range and where it ends. */
function parenthetical(text: string, offset: number, brackets = false): { start: number; end: number; after: number } | undefined {
  // `(int, default: 10)`, or in a heading a bracketed type as Stryker's docs write it: `` [`string[]`] ``.
  const m = (brackets ? /^[ \t]*([([])/ : /^[ \t]*(\()/).exec(text.slice(offset));
  if (!m) return undefined;
  const [open, close] = m[1] === '(' ? ['(', ')'] : ['[', ']'];
  let depth = 0;
  for (let i = offset + m[0].length - 1; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return { start: offset + m[0].length, end: i, after: i + 1 };
  }
  return undefined;
}

/**
 * Reads a parenthesised note's parts, split at top-level commas: `default: x` / `defaults to x`,
 * `env: X`, `required` (the row is required), `optional` (ignored), `deprecated`/`removed…`/`obsolete` (the row is a tombstone), else the first part is the type.
 */
function readParenthetical(ctx: LayoutContext, flat: Flat, start: number, end: number, attrs: Attributes): void {
  const parts: Array<[number, number]> = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < end; i++) {
    const ch = flat.text[i]!;
    if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0 && !flat.codes.some((c) => c.start <= i && i < c.end)) {
      parts.push([from, i]);
      from = i + 1;
    }
  }
  parts.push([from, end]);
  for (const [ps, pe] of parts) {
    const [s, e] = trimRange(flat.text, ps, pe);
    const part = flat.text.slice(s, e);
    if (part === '') continue;
    const def = /^defaults?(?:\s+value)?\s*(?::|=|\bis\b|\bto\b)?\s*/i.exec(part);
    const env = /^(?:env(?:ironment)?(?:\s+var(?:iable)?)?|envvar)\s*[:=]\s*/i.exec(part);
    if (def && def[0].length < part.length) {
      setAttribute(attrs, 'default', (mode) => valueIn(ctx.file, flat, s + def[0].length, e, ctx.rawLines, mode), () => []);
    } else if (env) {
      setAttribute(attrs, 'env', (mode) => valueIn(ctx.file, flat, s + env[0].length, e, ctx.rawLines, mode), () => []);
    } else if (/^(?:required|optional|deprecated|experimental|advanced|beta)$/i.test(part) || /^(?:removed|obsolete)\b/i.test(part)) {
      attrs.evidence = true;
      if (/^required$/i.test(part)) attrs.required = true;
      if (/^deprecated\b/i.test(part)) attrs.deprecated = true;
      if (/^(?:removed|obsolete)\b/i.test(part)) attrs.removed = true;
    } else if (attrs.type === undefined) {
      setAttribute(attrs, 'type', (mode) => valueIn(ctx.file, flat, s, e, ctx.rawLines, mode), () => []);
    }
  }
}

/** Builds a row from names and attributes. */
function toRow(names: string[], rawName: string, attrs: Attributes, links: DocLink[], location: SourceLocation, ctx: LayoutContext): ReferenceRow {
  const all = [...names];
  for (const f of attrs.flags) pushUnique(all, f);
  const row: ReferenceRow = { names: all, rawName, links, location };
  const written = flagSpellingsInText(rawName, location);
  if (written.length >= 2) row.flagSpellings = written;
  if (attrs.type) row.type = attrs.type.value;
  if (attrs.description !== undefined && !NO_VALUE.has(attrs.description.toLowerCase())) row.description = attrs.description;
  let def = attrs.default;
  if (!def && attrs.descriptionFlat) def = defaultFromProse(ctx, attrs.descriptionFlat.flat, attrs.descriptionFlat.start, attrs.descriptionFlat.end);
  if (!def && attrs.defaultParagraph) def = defaultFromProse(ctx, attrs.defaultParagraph.flat, attrs.defaultParagraph.start, attrs.defaultParagraph.end);
  if (def) {
    row.default = def.value;
    if (def.location) row.defaultLocation = def.location;
    if (def.code) row.defaultCode = true;
  }
  if (attrs.env) row.env = attrs.env.value;
  if (attrs.required) row.required = true;
  if (saysRemoved(row.description, attrs)) row.removed = true;
  return row;
}

/** The links of the document between two points (inclusive start, exclusive end). */
function linksBetween(links: readonly DocLink[], start: Point, end: Point): DocLink[] {
  const index = linkIndexOf(links);
  const from = lowerBound(index.keys, pointKey(start.line, start.column));
  const to = lowerBound(index.keys, pointKey(end.line, end.column));
  if (to <= from) return [];
  // In the document's own order of links, as a filter over them would give.
  return index.order.slice(from, to).sort((a, b) => a - b).map((i) => links[i]!);
}

/** A point as one number that orders as (line, column) does (columns stay under 2^21: documents are at most 1 Mi characters). */
const pointKey = (line: number, column: number): number => line * 2 ** 21 + column;

/** The links of a document sorted by position, as keys and the links' indexes, once per links array. */
const linkIndexes = new WeakMap<readonly DocLink[], { keys: number[]; order: number[] }>();

/** See {@link linkIndexes}: a section-per-link scan was quadratic on pages of 10,000 sections (#33 D3). */
function linkIndexOf(links: readonly DocLink[]): { keys: number[]; order: number[] } {
  let index = linkIndexes.get(links);
  if (!index) {
    const order = links.map((_, i) => i).sort((a, b) => pointKey(links[a]!.location.line, links[a]!.location.column) - pointKey(links[b]!.location.line, links[b]!.location.column) || a - b);
    index = { keys: order.map((i) => pointKey(links[i]!.location.line, links[i]!.location.column)), order };
    linkIndexes.set(links, index);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// Headings.

/** A heading with its place in its parent, so its body (the following siblings) can be read. */
interface HeadingSite {
  node: MdHeading;
  parent: Parent;
  index: number;
}

/** A heading that names a parameter, before deciding whether it is a group or a command. */
interface ParamHeading {
  site: HeadingSite;
  names: string[];
  /** Texts of the heading's code spans and bare name, to compare with invocations. */
  spellings: string[];
  rawName: string;
  attrs: Attributes;
  /** Last line of the heading's body (before the next heading). */
  bodyEnd: Point;
  /** Last line of its block (before the next heading of the same or higher rank). */
  blockEnd: number;
  line: number;
}

/** Inside the braces of a heading's trailing anchor or attribute list: `{#id}`, Python-Markdown/MkDocs `{: #id }`, `{ #id .class }`. */
const HEADING_ATTRS_RE = /^:?[ \t]*[#.][^{}\n]*$/;

/**
 * Where a heading's trailing attribute list starts, with the blanks before it (what
 * `/\s*\{:?[ \t]*[#.][^{}\n]*\}\s*$/` matched), or -1. Found from the end: the `}` is the last
 * non-blank character and the `{` the last one before it; that pattern retried its leading `\s*`
 * from each position of a blank run (quadratic: a heading of 100,000 tabs, s27).
 */
export function headingAttrsStart(text: string): number {
  const end = text.trimEnd();
  if (!end.endsWith('}')) return -1;
  const open = end.lastIndexOf('{');
  if (open < 0 || !HEADING_ATTRS_RE.test(end.slice(open + 1, -1))) return -1;
  return text.slice(0, open).trimEnd().length;
}

/** `text` without its trailing attribute list (see {@link headingAttrsStart}). */
function withoutHeadingAttrs(text: string): string {
  const at = headingAttrsStart(text);
  return at < 0 ? text : text.slice(0, at);
}

/**
 * The names of a parameter heading: one or more code spans (aliases) optionally followed by a
 * parenthesised note and a `{#id}` anchor, or one bare identifier/flag token (optionally followed
 * by a prose note in parentheses, `allow_shell_hooks (compatibility opt-in)`, marked `noted`).
 */
function headingNames(ctx: LayoutContext, node: MdHeading, attrs: Attributes): { names: string[]; raw: string; spellings: string[]; bare: boolean; noted?: boolean; sectionWord?: boolean } | undefined {
  const flat = flatten(ctx.file, node);
  const anchorAt = headingAttrsStart(flat.text);
  const text = anchorAt >= 0 ? flat.text.slice(0, anchorAt).trimEnd() : flat.text;
  const lead = leadingNames(flat, 0);
  if (lead) {
    let rest = lead.end;
    const paren = parenthetical(text, rest, true);
    if (paren) {
      readParenthetical(ctx, flat, paren.start, paren.end, attrs);
      rest = paren.after;
    }
    // A status word after the names (`` #### `accessToken` **required** ``, `` ### `--fast` _experimental_ ``)
    // qualifies the parameter; any other text makes the heading prose.
    const status = statusWord(text.slice(rest));
    if (!status) return undefined;
    if (status[1]?.toLowerCase() === 'required') attrs.required = true;
    if (status[1]?.toLowerCase() === 'deprecated') attrs.deprecated = true;
    const spellings = flat.codes.filter((c) => c.end <= lead.end).map((c) => c.value.trim());
    const raw = withoutHeadingAttrs(toString(node, { includeHtml: false })).trim();
    return { names: lead.names, raw, spellings, bare: false };
  }
  // `### allow_shell_hooks (compatibility opt-in)`: a bare name with a note that is not read as
  // attributes (it is prose); the heading then needs its body to state attributes, as a plain word does.
  const noted = flat.codes.length === 0 ? /^([^\s()]+)[ \t]+\([^()\n]{1,80}\)$/.exec(text.trim()) : null;
  const bare = noted ? noted[1]! : text.trim();
  if (flat.codes.length > 0 || !BARE_NAME_RE.test(bare) || !isParamSpelling(bare)) return undefined;
  if (SECTION_WORDS.has(bare.toLowerCase()) && !KEY_SECTION_WORDS.has(bare.toLowerCase())) return undefined;
  const name = normalizeParamName(bare);
  // A section word that is also a common key (`### description`) names a parameter only when its
  // body states the parameter's type or default (checked by the caller): VitePress documents it so.
  const sectionWord = KEY_SECTION_WORDS.has(bare.toLowerCase());
  return name === '' ? undefined : { names: [name], raw: bare, spellings: [bare], bare: true, ...(noted ? { noted: true } : {}), ...(sectionWord ? { sectionWord: true } : {}) };
}

/** What may follow a parameter heading's names: nothing, or one status word (`required`, `optional`, `deprecated`, `experimental`, `beta`, `advanced`), bracketed or not. */
const STATUS_RE = /^[([]?\s*(?:(required|optional|deprecated|experimental|beta|advanced)\s*)?[)\]]?$/i;

/**
 * {@link STATUS_RE} on `text` trimmed: what `/^\s*(?:[([]\s*)?(required|…)?\s*(?:[)\]])?\s*$/i`
 * matched, without its blank runs side by side (cubic: 5.7 s on 2,000 tabs, s27).
 */
export function statusWord(text: string): RegExpExecArray | null {
  return STATUS_RE.exec(text.trim());
}

/** Every heading of the tree with its parent and index, in document order. */
function headingSites(tree: Root): HeadingSite[] {
  const out: HeadingSite[] = [];
  const walk = (parent: Parent): void => {
    parent.children.forEach((child, index) => {
      if (child.type === 'heading') out.push({ node: child, parent, index });
      else if ('children' in child && child.type !== 'paragraph' && child.type !== 'table') walk(child as Parent);
    });
  };
  walk(tree);
  return out;
}

/** True for a flag spelling (`--out`, `-o`): flags are a command's options, never keys of a nested object. */
const isFlagSpelling = (spelling: string): boolean => /^[-—–]/.test(spelling.trim());

/**
 * A nested key's full name under its parent's full name: `useCalculatedVersion` under `snapshot`
 * is `snapshot.useCalculatedVersion`; a name already written under the parent (`snapshot.x`, or
 * `b.c` under `a` › `b`) is completed, not prefixed twice; another dotted name is read as written.
 */
function qualify(parentFull: string, parentNames: readonly string[], name: string): string {
  if (name.startsWith(`${parentFull}.`)) return name;
  for (const written of parentNames) if (name.startsWith(`${written}.`)) return parentFull + name.slice(written.length);
  return name.includes('.') ? name : `${parentFull}.${name}`;
}

/**
 * The names of every parameter heading's row, nested keys first. A parameter heading directly
 * under another parameter heading (its nearest enclosing heading, group or not) is a key of it:
 * `useCalculatedVersion` under `snapshot` is `snapshot.useCalculatedVersion`, the name as written
 * staying an alias. Under a parent that states its own type or default (surely a parameter) the
 * dotted name comes first; under a parent that does not (`` ### `train` `` may be a command as
 * well as an object) the name as written comes first and the dotted one is the alias. Nothing is
 * prefixed when either heading is spelled as a flag or the parent is a command (an example of the
 * document runs it: `train …` or `mytool train …`).
 */
function nestedNames(sites: readonly HeadingSite[], params: readonly ParamHeading[], invocations: readonly Invocation[]): Map<ParamHeading, string[]> {
  const bySite = new Map<MdHeading, ParamHeading>(params.map((p) => [p.site.node, p]));
  const commands = new Set(invocations.flatMap((inv) => [inv.command, inv.args[0]?.text ?? '']));
  const typed = (p: ParamHeading): boolean => p.attrs.type !== undefined || p.attrs.default !== undefined;
  /** `sure`: prefixed through typed parents only; `full`: through every parameter parent. */
  const named = new Map<ParamHeading, { sure: string; full: string }>();
  const out = new Map<ParamHeading, string[]>();
  // The headings above the current one of strictly lower rank each, nearest last: its top is the
  // nearest enclosing heading (a scan back per heading was quadratic on 14,000 sections, #33 D3).
  const enclosing: HeadingSite[] = [];
  sites.forEach((site) => {
    while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.node.depth >= site.node.depth) enclosing.pop();
    const above = enclosing[enclosing.length - 1];
    enclosing.push(site);
    const p = bySite.get(site.node);
    if (!p) return;
    const written = p.names[0]!;
    const parent = above ? bySite.get(above.node) : undefined;
    const up = parent && named.get(parent);
    const nested = up !== undefined
      && !parent!.spellings.some((s) => isFlagSpelling(s) || commands.has(s))
      && !p.spellings.some(isFlagSpelling);
    const full = nested ? qualify(up.full, parent!.names, written) : written;
    const sure = nested && typed(parent!) ? qualify(up.sure, parent!.names, written) : written;
    named.set(p, { sure, full });
    out.set(p, [...new Set([sure, full, ...p.names])]);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lists.

/** Reads one list item of the reference shape (`` - `--epochs` (int, default: 10): passes ``), else `undefined`. */
function listItemRow(ctx: LayoutContext, item: ListItem): ReferenceRow | undefined {
  const para = item.children[0];
  if (!para || para.type !== 'paragraph') return undefined;
  const flat = flatten(ctx.file, para);
  const lead = leadingNames(flat, 0);
  if (!lead) return undefined;
  const attrs: Attributes = { flags: [], evidence: false };
  let at = lead.end;
  const paren = parenthetical(flat.text, at);
  if (paren) {
    readParenthetical(ctx, flat, paren.start, paren.end, attrs);
    at = paren.after;
  }
  const rest = flat.text.slice(at);
  const explicit = /^\s*(?::\s*|[-—–]\s+)/.exec(rest);
  const sep = explicit ?? /^\s+/.exec(rest);
  if (!sep && rest.trim() !== '') return undefined; // `foo`s, `foo`.
  const descStart = at + (sep?.[0].length ?? rest.length);
  const [ds, de] = trimRange(flat.text, descStart, flat.text.length);
  let description = flat.text.slice(ds, de).replace(/\s+/g, ' ').trim();
  if (description !== '') {
    attrs.description = description;
    attrs.descriptionFlat = { flat, start: ds, end: de };
  } else if (explicit && item.children.length > 1) {
    // `- **`--format <fmt>`**:` with the description in a nested list or paragraph below.
    const next = item.children[1]!;
    const first = next.type === 'list' ? next.children[0]?.children[0] : next;
    if (first?.type === 'paragraph') {
      const f = flatten(ctx.file, first);
      description = f.text.replace(/\s+/g, ' ').trim();
      if (description !== '') {
        attrs.description = description;
        attrs.descriptionFlat = { flat: f, start: 0, end: f.text.length };
      }
    }
  }
  if (description === '' && !paren) return undefined; // a bare list of names: values, not a reference
  const pos = item.position;
  const links = pos ? linksBetween(ctx.links, pos.start, pos.end) : [];
  const row = toRow(lead.names, lead.raw, attrs, links, locationOf(ctx.file, item), ctx);
  if (explicit && lead.raw.trimStart().startsWith('-')) explicitFlagItems.add(row);
  return row;
}

/** Rows of items spelled as flags with an explicit separator (`` - `--seed`: … ``): enough alone to make a one-item list. */
const explicitFlagItems = new WeakSet<ReferenceRow>();

/**
 * The rows of a list when at least {@link LIST_REFERENCE_SHARE} of its items (and two or more, or a
 * single item spelled as a flag with `:`/` - ` after it) have the reference shape.
 */
function listRows(ctx: LayoutContext, list: List): ReferenceRow[] | undefined {
  const rows = list.children.map((item) => listItemRow(ctx, item)).filter((r): r is ReferenceRow => r !== undefined);
  // One item is enough when it is a flag with an explicit separator ("Supported options:" and one
  // bullet, another later); a lone `` - `alpha`: … `` is as often prose.
  const enough = rows.length >= 2 || (rows.length === 1 && list.children.length === 1 && explicitFlagItems.has(rows[0]!));
  return enough && rows.length >= LIST_REFERENCE_SHARE * list.children.length ? rows : undefined;
}

// ---------------------------------------------------------------------------------------------

/**
 * Reads the heading-per-parameter and bullet-list layouts of one parsed document.
 *
 * **Parameter headings** (`headingRows`). A heading names a parameter when its text is one or
 * more inline code spans holding parameter spellings (`` ### `--out`, `-o` ``), optionally followed
 * by a parenthesised note (`` (int, default: 10) ``, or a bracketed one: `` [`string[]`] ``) and a
 * `{#id}` anchor; or one bare
 * identifier/flag token (`### epochs`, `### --log-level`, terraform-docs'
 * `### <a name="input_x"></a> [x](#input\_x)`). A bare lower-case word without `_`, `.` or
 * dashes (`### epochs`) counts only when its body states a type, default, env var, flag,
 * description or required-ness; section words (`usage`, `examples`…) never count, except those that are
 * also common keys (`description`, `inputs`…) when the body states a type or default. Its body
 * (the nodes up to the next heading) gives:
 * - type/default/env/flag/description from `Label: value` lines (`Type: `int``, `**Default**: 10`,
 *   `- Type: int`), definition-list pairs (`Type` then `: int`), a two-column key/value table
 *   (`| Type | `int` |`), or one row under `| Type | Default |`; a `Default:` line followed by a
 *   fenced block takes the block's content;
 * - `description`: a `Description:` line, else the first paragraph's non-attribute lines;
 * - `default`, failing all that, from a default phrase in the description, else in a later
 *   paragraph of the body that starts `Defaults to …`/`Default is …`.
 * A parameter heading whose block (up to the next heading of the same or higher rank) holds
 * other parameter headings, a reference table or a reference list groups parameters: it is a row
 * only when it states its own type or default (`` ## `snapshot` (object or undefined) ``, or a
 * `Type:`/`Default value:` line before its first sub-heading), else it is dropped (a command or
 * an untyped section). A heading whose block has an example invoking its name is a command and
 * dropped. A parameter heading directly under a parameter heading is a nested key: its row is
 * named `parent.child`, the written name kept as an alias (see {@link nestedNames}).
 *
 * **Reference lists** (`listRows`): a list where at least {@link LIST_REFERENCE_SHARE} of the
 * items, and two or more, start with parameter spellings in code spans followed by an optional
 * parenthesised note and `:`, ` - `, ` — ` or a blank, then a description. Lists in the body of a
 * parameter heading that states attributes (they list its values) and lists nested in a
 * reference list's items are not read.
 *
 * Every row has `location` at its heading or list item, `defaultLocation` at the value's code
 * span (else the value's text, else the node holding it), and the links inside its heading body
 * or item.
 */
export function readLayoutRows(tree: Root, ctx: LayoutContext): LayoutRows {
  const sites = headingSites(tree);
  const lastPoint = (nodes: readonly Nodes[], fallback: Point): Point => nodes[nodes.length - 1]?.position?.end ?? fallback;
  const params: ParamHeading[] = [];
  sites.forEach((site, i) => {
    const attrs: Attributes = { flags: [], evidence: false };
    const named = headingNames(ctx, site.node, attrs);
    if (!named) return;
    const siblings = site.parent.children as Nodes[];
    let stop = site.index + 1;
    while (stop < siblings.length && siblings[stop]!.type !== 'heading') stop++;
    const body = siblings.slice(site.index + 1, stop);
    readBody(ctx, body, attrs);
    const plainWord = named.bare && (named.noted === true || !/[_.]|^-/.test(named.raw));
    if (plainWord && !attrs.evidence) return;
    if (named.sectionWord && attrs.type === undefined && attrs.default === undefined) return;
    const line = site.node.position?.start.line ?? 1;
    let blockEnd = ctx.lastLine;
    for (let j = i + 1; j < sites.length; j++) {
      if (sites[j]!.node.depth <= site.node.depth) {
        blockEnd = (sites[j]!.node.position?.start.line ?? line + 1) - 1;
        break;
      }
    }
    const headEnd = site.node.position?.end ?? { line, column: 1 };
    params.push({
      site, names: named.names, spellings: named.spellings, rawName: named.raw, attrs,
      bodyEnd: lastPoint(body, headEnd), blockEnd: Math.max(line, blockEnd), line,
    });
  });

  // Lists: skip the value lists under parameter headings that state attributes.
  const valueBodies = params.filter((p) => p.attrs.evidence).map((p) => [p.line, p.bodyEnd.line] as const);
  const listRowsOut: ReferenceRow[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'list') {
      const line = node.position?.start.line ?? 0;
      const read = valueBodies.some(([s, e]) => line > s && line <= e) ? undefined : listRows(ctx, node);
      if (read) {
        listRowsOut.push(...read);
        return; // nested lists of reference items describe values or sub-keys of the item
      }
    }
    if ('children' in node && node.type !== 'table') for (const c of node.children) walk(c as Nodes);
  };
  walk(tree);

  // Sorted lines, so each parameter heading asks "is there one in my block?" in O(log n): a scan
  // per heading was quadratic (14,000 sections of 1 MB: 2.3 s, #33 D3).
  const referenceTableLines = sortedNumbers(ctx.tables.filter((t) => readReferenceTable(t) !== undefined).map((t) => t.location.line));
  const listRowLines = sortedNumbers(listRowsOut.map((r) => r.location.line));
  // Option headings under an option heading (a rank slip) are its siblings, not its keys.
  const flagLed = (q: ParamHeading): boolean => q.spellings.length > 0 && q.spellings.every(isFlagSpelling);
  const paramLines = sortedNumbers(params.map((q) => q.line));
  const keyParamLines = sortedNumbers(params.filter((q) => !flagLed(q)).map((q) => q.line));
  /** Lines of the invocations of each command name. */
  const invokedAt = new Map<string, number[]>();
  for (const inv of ctx.invocations) {
    const lines = invokedAt.get(inv.command);
    if (lines) lines.push(inv.location.line);
    else invokedAt.set(inv.command, [inv.location.line]);
  }
  for (const [command, lines] of invokedAt) invokedAt.set(command, sortedNumbers(lines));
  const rowNames = nestedNames(sites, params, ctx.invocations);
  const headingRows: ReferenceRow[] = [];
  for (const p of params) {
    const inBlock = (lines: readonly number[]): boolean => countWithin(lines, p.line, p.blockEnd) > 0;
    const groups = inBlock(flagLed(p) ? keyParamLines : paramLines) || inBlock(referenceTableLines) || inBlock(listRowLines);
    // A group is a row too when its heading or body states its own type or default (`` ## `snapshot` (object) ``).
    if (groups && p.attrs.type === undefined && p.attrs.default === undefined) continue;
    const runsIt = p.spellings.some((s) => inBlock(invokedAt.get(s) ?? []));
    if (runsIt) continue;
    const start = p.site.node.position?.start ?? { line: p.line, column: 1 };
    const links = linksBetween(ctx.links, start, p.bodyEnd);
    headingRows.push(toRow(rowNames.get(p) ?? p.names, p.rawName, p.attrs, links, locationOf(ctx.file, p.site.node), ctx));
  }
  return { headingRows, listRows: listRowsOut };
}
