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
 * or a value that is not a path. The entries that can be read are returned all the same. Never throws.
 */
export function readPackageBins(pkg: { file: string; text: string }): { bins: DeclaredBin[]; problem?: InputDiagnostic } {
  const text = pkg.text.replace(/^\uFEFF/, '');
  const at = (offset: number, why: string): InputDiagnostic => {
    const before = text.slice(0, offset).split('\n');
    const line = before.length;
    const column = (before.at(-1) ?? '').length + 1;
    return { ruleId: 'parse-error', severity: 'warn', message: `${pkg.file}:${line}:${column}: ${why}`, location: { file: pkg.file, line, column } };
  };
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length;
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
  return { bins: [...byName.values()], ...(problem ? { problem } : {}) };
}

/** The last property `key` of a JSON object node, with its value (JSON.parse keeps the last of duplicate keys). */
function lastProperty(object: JsonNode, key: string): { property: JsonNode; value: JsonNode } | undefined {
  let found: { property: JsonNode; value: JsonNode } | undefined;
  for (const property of object.children ?? []) {
    const [k, value] = property.children ?? [];
    if (k?.value === key && value) found = { property, value };
  }
  return found;
}
