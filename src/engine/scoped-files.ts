/**
 * The keys of a shipped config file that a reference section is scoped to ("### Sandboxed harness
 * settings (`configs/cvdp_agent_generic_claude.yaml`)", issue #29): such a table documents what
 * that one file sets, so a field of the class the file leaves unset needs no row there.
 *
 * Only YAML files the run discovered are read (inside the root, not ignored): a path the page
 * names is looked up relative to the page, then to the root, then as the unique discovered file
 * whose path ends with it (`configs/x.yaml` written in `servers/cvdp/README.md` for
 * `agents/cvdp/configs/x.yaml`). Never throws: a file not found, too large, or not YAML gives
 * `undefined`, and the section stays a selection.
 */
import path from 'node:path';
import { LineCounter, parseAllDocuments, isMap, isSeq, isPair, isScalar } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { readRegularFile } from '../shared/read-file.js';

/** Largest scoped file read, in bytes: a shipped config, not a data dump. */
const MAX_SCOPED_BYTES = 1024 * 1024;
/** Deepest nesting walked, and most keys kept: bounds for a hostile file. */
const MAX_DEPTH = 64;
const MAX_KEYS = 50_000;

/**
 * Builds the lookup {@link import('../link/build.js').ModelInput.scopedFileKeys} uses.
 *
 * @param root absolute project root
 * @param yamlFiles the run's discovered YAML files, project-relative POSIX paths
 * @returns a function of (page, named path) giving the set of every mapping key the file sets at
 *   any depth (`simple_agent`, `sandbox_provider`, `apptainer`…), or undefined; answers are memoised
 */
export function scopedFileKeyReader(root: string, yamlFiles: readonly string[]): (docFile: string, named: string) => ReadonlySet<string> | undefined {
  const known = new Set(yamlFiles);
  const memo = new Map<string, ReadonlySet<string> | undefined>();
  const resolve = (docFile: string, named: string): string | undefined => {
    // Only files of the run: a path outside the root is never among them.
    const relative = path.posix.normalize(path.posix.join(path.posix.dirname(docFile), named));
    if (known.has(relative)) return relative;
    const clean = path.posix.normalize(named.replace(/^\/+/, ''));
    if (known.has(clean)) return clean;
    if (clean.startsWith('..')) return undefined;
    const suffix = `/${clean}`;
    const ends = yamlFiles.filter((f) => f.endsWith(suffix));
    return ends.length === 1 ? ends[0] : undefined;
  };
  return (docFile, named) => {
    const file = resolve(docFile, named);
    if (file === undefined) return undefined;
    if (memo.has(file)) return memo.get(file);
    const keys = readKeys(path.join(root, file));
    memo.set(file, keys);
    return keys;
  };
}

/** Every mapping key of every document of a YAML file, or undefined when it cannot be read or parsed. */
function readKeys(file: string): ReadonlySet<string> | undefined {
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: MAX_SCOPED_BYTES });
  } catch {
    return undefined;
  }
  let docs;
  try {
    docs = parseAllDocuments(text, { lineCounter: new LineCounter(), uniqueKeys: false });
  } catch {
    return undefined;
  }
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  const keys = new Set<string>();
  // An explicit stack: nesting depth never grows the call stack.
  const stack: Array<{ node: YamlNode | null | undefined; depth: number }> = docs.map((d) => ({ node: d.contents as YamlNode | null, depth: 0 }));
  while (stack.length > 0 && keys.size < MAX_KEYS) {
    const { node, depth } = stack.pop()!;
    if (!node || depth > MAX_DEPTH) continue;
    if (isMap(node)) {
      for (const item of node.items) {
        if (!isPair(item)) continue;
        if (isScalar(item.key) && (typeof item.key.value === 'string' || typeof item.key.value === 'number')) keys.add(String(item.key.value));
        stack.push({ node: item.value as YamlNode | null, depth: depth + 1 });
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push({ node: item as YamlNode | null, depth: depth + 1 });
    }
  }
  return keys;
}
