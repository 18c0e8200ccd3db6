/**
 * The TypeScript/JavaScript part of the env-variable extraction (issue #31), for every project
 * with such sources (not only those with package.json `bin`s, whose programs the rest of the
 * TypeScript extraction reads): files are filtered by name and text first, and only those that
 * mention the environment are parsed (one syntax tree each, loaded lazily). Each file's result is
 * a piece of the per-file cache, keyed by its path and content, so a run after one edit parses
 * that file only and gives what a run without the cache gives.
 */
import type { EnvExtraction } from '../model/types.js';
import { isGeneratedScript, MAY_READ_ENV } from '../extract/typescript/env-filter.js';
import { pieceKey, type PieceStore } from './pieces.js';

/** A file's text as read: `undefined` when it could not be read (reported by the reader). */
type Read = (file: string) => string | undefined;

/** The kind of the per-file pieces (see `CODE_PIECE_KINDS` in pieces.ts). */
export const TS_ENV_PIECE = 'ts-env';

let reader: Promise<typeof import('../extract/typescript/env.js')> | undefined;

/**
 * The environment variables the files read, in file order (each file's reads in source order).
 *
 * @param files project-relative POSIX paths (see `envSourceFiles`), sorted
 * @param read reads a file, reporting one it cannot read
 * @param pieces the per-file cache, if any
 * @param hashes content hashes of the files as the run cache computed them: a file whose piece is
 *   stored under its hash is not read
 */
export async function typeScriptEnv(files: readonly string[], read: Read, pieces?: PieceStore, hashes?: ReadonlyMap<string, string>): Promise<EnvExtraction> {
  const out: EnvExtraction = { vars: [], dynamic: [] };
  for (const file of files) {
    const hash = pieces ? hashes?.get(file) : undefined;
    const hashKey = hash !== undefined && !hash.startsWith('error:') ? pieceKey(TS_ENV_PIECE, file, 'hash', hash) : undefined;
    let result = hashKey === undefined ? undefined : pieces?.get<EnvExtraction>(hashKey);
    if (!result) {
      const text = read(file);
      if (text === undefined) continue;
      const textKey = hashKey ?? (pieces ? pieceKey(TS_ENV_PIECE, file, 'text', text) : undefined);
      result = textKey === undefined || hashKey !== undefined ? undefined : pieces?.get<EnvExtraction>(textKey);
      if (!result) {
        if (!MAY_READ_ENV.test(text) || isGeneratedScript(file, text)) result = { vars: [], dynamic: [] };
        else {
          reader ??= import('../extract/typescript/env.js');
          result = (await reader).extractFileEnv(file, text);
        }
        if (textKey !== undefined) pieces?.set(textKey, result);
      }
    }
    out.vars.push(...result.vars);
    out.dynamic.push(...result.dynamic);
  }
  return out;
}
