/**
 * The TypeScript part of stage "extract" (see `extractCode` in lint.ts): the programs package.json
 * `bin`s run, their config types and CLI flags. Behind the per-file cache as one piece, since
 * ts-morph resolves across files and costs ~0.5 s to load: a run whose TypeScript inputs are
 * unchanged neither loads nor runs it.
 */
import type { InputDiagnostic, ConfigClass } from '../model/types.js';
import type { FlagCommand } from '../extract/python/types.js';
import { pieceKey, textKey, type PieceStore } from './pieces.js';

/** What the TypeScript sources say. */
export interface TypeScriptFacts {
  classes: ConfigClass[];
  /** `bin:<name>` → qualified names of the config types it uses. */
  binConfigs: Array<[string, string[]]>;
  flagCommands: FlagCommand[];
  /** TypeScript and JavaScript sources read. */
  sourceCount: number;
}

/** A file's text as read: `undefined` when it could not be read. */
type Read = (file: string) => string | undefined;

/** Extracts the TypeScript facts; problems go to `diagnostics` (reads that fail, through `read`). */
export async function typeScriptFacts(
  tsSources: Array<{ file: string; text: string }>,
  packageJsons: Array<{ file: string; text: string }>,
  programFiles: string[],
  read: Read,
  diagnostics: InputDiagnostic[],
): Promise<TypeScriptFacts> {
  // The program each bin runs: TypeScript behind compiled output or a shim, or plain JavaScript.
  const { findBinPrograms, reachable } = await import('../extract/typescript/programs.js');
  const programs = findBinPrograms(packageJsons, tsSources, new Set(programFiles), read, []);
  const allSources = [...tsSources, ...programs.javascript];
  const binSources = new Map(programs.bins.flatMap((b) => (b.source === undefined ? [] : [[b.path, b.source] as const])));
  const { extractTypeScript } = await import('../extract/typescript/index.js');
  const ts = await extractTypeScript(allSources, packageJsons, binSources);
  diagnostics.push(...ts.diagnostics);
  const facts: TypeScriptFacts = { classes: ts.classes, binConfigs: [...ts.binConfigs].map(([bin, configs]) => [`bin:${bin}`, configs]), flagCommands: [], sourceCount: allSources.length };
  // CLI flags (yargs, commander, util.parseArgs, yargs-parser) of the programs the bins run.
  // Files that use a parser, and the files they import (options objects defined elsewhere), two hops.
  const flagFiles = new Set(allSources.filter((s) => /\b(yargs|commander|parseArgs|yargs-parser)\b/.test(s.text)).map((s) => s.file));
  for (const file of [...flagFiles]) for (const [reached] of reachable(programs.imports, file, 2)) flagFiles.add(reached);
  const flagSources = allSources.filter((s) => flagFiles.has(s.file));
  if (flagSources.length > 0 && programs.bins.length > 0) {
    const { extractTypeScriptFlags } = await import('../extract/typescript/flags.js');
    const { binFlagCommands } = await import('../extract/typescript/flags-bins.js');
    const tsFlags = await extractTypeScriptFlags(flagSources);
    diagnostics.push(...tsFlags.diagnostics);
    facts.flagCommands = binFlagCommands(programs.bins, tsFlags.commands, programs.imports);
  }
  return facts;
}

/** The stored piece: the facts, the diagnostics they came with, and the other files read on the way (with their texts' keys). */
interface StoredFacts {
  facts: TypeScriptFacts;
  diagnostics: InputDiagnostic[];
  reads: Array<[string, string | null]>;
}

/**
 * {@link typeScriptFacts} through the per-file cache. The piece is keyed by the TypeScript
 * sources, the package.json files and the program list, and remembers every other file read on
 * the way (compiled JavaScript, shims): it is used only when each of those reads the same text
 * again. A run that uses it reports the same diagnostics in the same order as one that computes.
 */
export async function cachedTypeScriptFacts(
  pieces: PieceStore | undefined,
  tsSources: Array<{ file: string; text: string }>,
  packageJsons: Array<{ file: string; text: string }>,
  programFiles: string[],
  read: Read,
  diagnostics: InputDiagnostic[],
): Promise<TypeScriptFacts> {
  if (!pieces) return typeScriptFacts(tsSources, packageJsons, programFiles, read, diagnostics);
  const key = pieceKey('ts', JSON.stringify(programFiles), ...[...tsSources, ...packageJsons].flatMap((s) => [s.file, s.text]));
  const stored = pieces.get<StoredFacts>(key);
  if (stored) {
    const before = diagnostics.length;
    // The same reads, in the same order, push the same read errors as computing would.
    const same = stored.reads.every(([file, expected]) => {
      const text = read(file);
      return textKey(text) === expected;
    });
    if (same) {
      diagnostics.push(...stored.diagnostics);
      return stored.facts;
    }
    diagnostics.length = before;
  }
  const reads: Array<[string, string | null]> = [];
  const recording: Read = (file) => {
    const text = read(file);
    reads.push([file, textKey(text)]);
    return text;
  };
  const own: InputDiagnostic[] = [];
  const facts = await typeScriptFacts(tsSources, packageJsons, programFiles, recording, own);
  // Read errors went to `diagnostics` (through `read`); the extractors' own ones follow them, as before.
  diagnostics.push(...own);
  pieces.set(key, { facts, diagnostics: own, reads } satisfies StoredFacts);
  return facts;
}
