/**
 * The `bin` commands of a package.json, read as npm reads them
 * (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#bin): strict JSON (no comments, no
 * trailing commas), a leading byte order mark allowed (read-package-json strips it), the last of
 * duplicate keys winning (as JSON.parse). A string `bin` names one command called like the package
 * (scope removed: `@s/tool` → `tool`); an object maps command names to files. The one reader of
 * the field: the engine (which commands exist, where they are declared) and the TypeScript
 * extractor (what each runs) both use it, so they agree on every input.
 */
import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { InputDiagnostic } from '../model/types.js';
import { lineIndexAt, lineStarts } from '../shared/strings.js';

/** One `bin` command as declared. */
export interface DeclaredBin {
  /** The command name (`docdrift`). */
  name: string;
  /** The file it runs, as written (relative to the package.json's directory). */
  file: string;
  /** 1-based line of its declaration (the `"bin"` line for the string form). */
  line: number;
}

/**
 * Reads `pkg`'s `bin` commands. `problem` is a `parse-error` warning, at the parser's line and
 * column, when some command cannot be read: the file is not valid JSON (also: nested deeper than
 * the parser's recursion), not a JSON object, its `bin` is neither a path nor an object of command
 * names to paths, a path `bin` has no `name` to call the command by, or an entry has an empty name
 * or a value that is not a path, the file is over {@link MAX_PACKAGE_JSON_CHARS} characters, or there are more than {@link MAX_BINS} commands (the first
 * {@link MAX_BINS} are read). The entries that can be read are returned all the same. Never throws.
 */
export function readPackageBins(pkg: { file: string; text: string }): { bins: DeclaredBin[]; problem?: InputDiagnostic } {
  const text = pkg.text.replace(/^\uFEFF/, '');
  // Line starts, so that each entry's line is a binary search, not a scan from the top (100,000 bins took 69 s: #33 item 5).
  const starts = lineStarts(text);
  const lineOf = (offset: number): number => lineIndexAt(starts, offset) + 1;
  const at = (offset: number, why: string): InputDiagnostic => {
    const line = lineOf(offset);
    const column = offset - starts[line - 1]! + 1;
    return { ruleId: 'parse-error', severity: 'warn', message: `${pkg.file}:${line}:${column}: ${why}`, location: { file: pkg.file, line, column } };
  };
  if (text.length > MAX_PACKAGE_JSON_CHARS) {
    // Real package.json files are a few KB; a tree of a huge one costs every reader of it (#33 item 5).
    return { bins: [], problem: at(0, `${(text.length / (1024 * 1024)).toFixed(1)} MB, over the ${MAX_PACKAGE_JSON_CHARS / (1024 * 1024)} MB read for a package.json; its bin entries are not read`) };
  }
  const errors: ParseError[] = [];
  let tree: JsonNode | undefined;
  try {
    tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch (error) {
    const why = error instanceof RangeError ? 'nested too deeply to read' : String(error);
    return { bins: [], problem: at(0, `invalid JSON (${why}); its bin entries are not read`) };
  }
  const first = errors[0];
  if (first || !tree) return { bins: [], problem: at(first?.offset ?? 0, `invalid JSON (${first ? printParseErrorCode(first.error) : 'ValueExpected'}); its bin entries are not read`) };
  if (tree.type !== 'object') return { bins: [], problem: at(tree.offset, 'not a JSON object; its bin entries are not read') };
  const bin = lastProperty(tree, 'bin');
  if (!bin) return { bins: [] };
  if (bin.value.type === 'string') {
    if (bin.value.value === '') return { bins: [], problem: at(bin.value.offset, '`bin` is an empty path; it is not read') };
    const name = lastProperty(tree, 'name')?.value;
    if (name?.type !== 'string' || name.value === '') {
      return { bins: [], problem: at(bin.property.offset, '`bin` is a path but `name` is not a non-empty string, so the command has no name; it is not read') };
    }
    return { bins: [{ name: String(name.value).replace(/^@[^/]+\//, ''), file: String(bin.value.value), line: lineOf(bin.property.offset) }] };
  }
  if (bin.value.type !== 'object') return { bins: [], problem: at(bin.value.offset, '`bin` must be a path or an object of command names to paths; it is not read') };
  // Entries by name: as JSON.parse, a duplicate name keeps its first place and its last value.
  const byName = new Map<string, DeclaredBin>();
  let problem: InputDiagnostic | undefined;
  for (const prop of bin.value.children ?? []) {
    const [key, value] = prop.children ?? [];
    const name = String(key?.value ?? '');
    if (name === '') problem ??= at(prop.offset, 'a `bin` entry has an empty command name; it is not read');
    else if (value?.type !== 'string' || value.value === '') {
      problem ??= at(prop.offset, `\`bin\` entry \`${name}\` is not a path; it is not read`);
      byName.delete(name);
    } else byName.set(name, { name, file: String(value.value), line: lineOf(prop.offset) });
  }
  if (byName.size > MAX_BINS) {
    // A generated or hostile file: every command costs the run (100,000 took 69 s and 500 MB, #33 item 5).
    problem = at(bin.property.offset, `\`bin\` declares ${byName.size} commands; only the first ${MAX_BINS} are read`);
    return { bins: [...byName.values()].slice(0, MAX_BINS), problem };
  }
  return { bins: [...byName.values()], ...(problem ? { problem } : {}) };
}

/** Characters of a package.json read for its `bin` commands at most. */
export const MAX_PACKAGE_JSON_CHARS = 1024 * 1024;

/** Commands read from one package.json `bin` object at most (real packages declare a handful). */
export const MAX_BINS = 1000;

/** The last property `key` of a JSON object node, with its value (JSON.parse keeps the last of duplicate keys). */
function lastProperty(object: JsonNode, key: string): { property: JsonNode; value: JsonNode } | undefined {
  let found: { property: JsonNode; value: JsonNode } | undefined;
  for (const property of object.children ?? []) {
    const [k, value] = property.children ?? [];
    if (k?.value === key && value) found = { property, value };
  }
  return found;
}
