/**
 * The packages a project depends on, read from its packaging files (issue #31): a documented
 * variable in a sibling package's namespace (MinerU documents `MINERU_VL_API_KEY`, which its
 * dependency `mineru-vl-utils` reads) is not stale because the project's own code never reads it.
 * Read with parsers, never run; a file that does not parse gives nothing here (the entry-point
 * and bin readers report it).
 */
import { parse as parseToml } from 'smol-toml';

/** What {@link readDependencies} returns. */
export interface PackageDependencies {
  /** Names of the packages depended on (PEP 508 names, npm names with their scope), distinct. */
  dependencies: string[];
  /** Names of the packages the project itself holds (`[project] name`, package.json `name`), distinct. */
  local: string[];
}

/** A PEP 508 requirement's name: `mineru-vl-utils>=1.0.5,<2` → `mineru-vl-utils`. */
function requirementName(spec: unknown): string | undefined {
  if (typeof spec !== 'string') return undefined;
  return /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Most names taken from one file: a generated manifest says nothing more past this. */
const MAX_NAMES_PER_FILE = 2_000;

/**
 * Reads dependency names from `pyproject.toml` (PEP 621 `[project] dependencies` and
 * `optional-dependencies`, PEP 735 `[dependency-groups]`, Poetry's `[tool.poetry.dependencies]`
 * and group dependencies; https://packaging.python.org/en/latest/specifications/pyproject-toml/)
 * and `package.json` (`dependencies`, `optionalDependencies`, `peerDependencies`: what runs with
 * the program, not `devDependencies`). Other files are skipped.
 *
 * @param files project-relative paths with their texts
 */
export function readDependencies(files: ReadonlyArray<{ file: string; text: string }>): PackageDependencies {
  const deps = new Set<string>();
  const local = new Set<string>();
  for (const { file, text } of files) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    const names: string[] = [];
    if (base === 'pyproject.toml') {
      let data: unknown;
      try {
        data = parseToml(text);
      } catch {
        continue;
      }
      if (!isRecord(data)) continue;
      const project = isRecord(data.project) ? data.project : {};
      if (typeof project.name === 'string') local.add(project.name);
      const lists: unknown[] = [project.dependencies];
      if (isRecord(project['optional-dependencies'])) lists.push(...Object.values(project['optional-dependencies']));
      if (isRecord(data['dependency-groups'])) lists.push(...Object.values(data['dependency-groups']));
      for (const list of lists) if (Array.isArray(list)) for (const spec of list) names.push(requirementName(spec) ?? '');
      const poetry = isRecord(data.tool) && isRecord(data.tool.poetry) ? data.tool.poetry : undefined;
      if (poetry) {
        if (typeof poetry.name === 'string') local.add(poetry.name);
        const tables: unknown[] = [poetry.dependencies];
        if (isRecord(poetry.group)) for (const g of Object.values(poetry.group)) if (isRecord(g)) tables.push(g.dependencies);
        for (const t of tables) if (isRecord(t)) names.push(...Object.keys(t).filter((k) => k !== 'python'));
      }
    } else if (base === 'package.json') {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        continue;
      }
      if (!isRecord(data)) continue;
      if (typeof data.name === 'string') local.add(data.name);
      for (const key of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
        const table = data[key];
        if (isRecord(table)) names.push(...Object.keys(table));
      }
    } else continue;
    for (const n of names.slice(0, MAX_NAMES_PER_FILE)) if (n !== '') deps.add(n);
  }
  return { dependencies: [...deps].sort(), local: [...local].sort() };
}
