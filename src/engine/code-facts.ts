/**
 * Stage "extract" behind the per-file cache as one piece: when no code input changed since the
 * last run (only documents did, the common pull request), a run neither reads nor hashes the
 * Python, TypeScript, YAML and packaging files again, nor resolves classes and flags across
 * them; it reuses the whole {@link CodeFacts} of that run. The per-file pieces below it (Python
 * scans, flags, TypeScript facts) stay in the store for the run in which a code file changes.
 */
import type { DocdriftConfig } from '../config/schema.js';
import type { InputDiagnostic } from '../model/types.js';
import { stableStringify } from '../shared/json.js';
import { discoveredInputs, type DiscoveredFiles } from './discover.js';
import { CODE_PIECE_KINDS, pieceKey, textKey, type PieceStore } from './pieces.js';

/** Reads a project file (project-relative POSIX path): its text, or `undefined` when unreadable (see `ReadFile` in lint.ts). */
type ReadFile = (file: string) => string | undefined;

/** What extraction returns (`CodeFacts` in lint.ts): plain data, but for the function that follows re-exports to a target. */
interface Facts {
  canonicalTarget: (target: string) => string;
}

/** Facts as stored: `canonicalTarget` becomes the table of the targets it is asked for. */
type StoredFacts<F extends Facts> = Omit<F, 'canonicalTarget'> & { canonicalTargets: Array<[string, string]> };

/** The stored piece: the facts, the diagnostics extraction reported (in order), and the files it read that are not hashed inputs. */
interface StoredCodePiece<F extends Facts> {
  facts: StoredFacts<F>;
  diagnostics: InputDiagnostic[];
  /** Files read during extraction outside the hashed inputs (compiled JavaScript a `bin` runs), with their texts' keys (`null`: unreadable). */
  reads: Array<[string, string | null]>;
}

/** The code inputs of a run: every discovered file but the documents. */
function codeInputs(files: DiscoveredFiles): string[] {
  return discoveredInputs(files, { documents: false });
}

/**
 * Runs `extract` (stage "extract", `extractCode` in lint.ts) or answers from the store.
 *
 * The piece's key covers the config, the discovered file lists (documents aside) and the
 * content hash of every code input, as the run cache hashed them (`hashes`: project-relative
 * path → hash; see `hashFiles` in cache.ts). Files extraction reads beyond those (the compiled
 * program a package.json `bin` runs) are remembered with their texts' keys and read again to
 * check them on a hit. A hit pushes the stored diagnostics into `diagnostics`, so a run reports
 * what a computing run reports, in the same order. The store (src/engine/pieces.ts) belongs to
 * one docdrift build, so no key needs docdrift's code.
 *
 * Only `config.commands.*.program` targets are ever passed to `canonicalTarget` after extraction
 * (src/link/build.ts), so the piece stores its answers for those; for any other target a reused
 * `canonicalTarget` returns the target unchanged.
 *
 * @param io `read` reads a file for extraction (reporting a file it cannot read); `peek` reads
 *   one silently, to check a remembered read
 * @param hashes content hashes of the discovered files; without them (no run cache, or an
 *   overlay of edited texts) the piece is neither used nor stored
 */
export async function cachedCodeFacts<F extends Facts>(
  pieces: PieceStore | undefined,
  hashes: ReadonlyMap<string, string> | undefined,
  files: DiscoveredFiles,
  config: DocdriftConfig,
  io: { read: ReadFile; peek: ReadFile },
  diagnostics: InputDiagnostic[],
  extract: (read: ReadFile) => Promise<F>,
): Promise<F> {
  const { read, peek } = io;
  if (!pieces || !hashes) return extract(read);
  const inputs = codeInputs(files);
  const key = pieceKey(
    'code',
    stableStringify({ config, files: { ...files, docs: [] } }),
    ...inputs.flatMap((file) => [file, hashes.get(file) ?? 'unhashed']),
  );
  const stored = pieces.get<StoredCodePiece<F>>(key);
  if (stored && stored.reads.every(([file, expected]) => textKey(peek(file)) === expected)) {
    // The pieces this one was built from stay stored for the run in which a code file changes.
    pieces.keep(CODE_PIECE_KINDS);
    diagnostics.push(...stored.diagnostics);
    const table = new Map(stored.facts.canonicalTargets);
    const { canonicalTargets: _, ...facts } = stored.facts;
    return { ...facts, canonicalTarget: (target: string) => table.get(target) ?? target } as unknown as F;
  }
  const hashed = new Set(inputs);
  const reads = new Map<string, string | null>();
  const start = diagnostics.length;
  const facts = await extract((file) => {
    const text = read(file);
    if (!hashed.has(file)) reads.set(file, textKey(text));
    return text;
  });
  const programs = [...new Set(Object.values(config.commands).flatMap((c) => (c.program === undefined ? [] : [c.program])))];
  const { canonicalTarget, ...rest } = facts;
  pieces.set(key, {
    facts: { ...rest, canonicalTargets: programs.map((p) => [p, canonicalTarget(p)]) },
    diagnostics: diagnostics.slice(start),
    reads: [...reads],
  } satisfies StoredCodePiece<F>);
  return facts;
}


