/** Ties yargs/commander programs to the package.json `bin` commands that run them. */
import type { InputDiagnostic } from '../../model/types.js';
import type { FlagCommand as ProgramFlags } from './types.js';
import { readBins } from './bin.js';
import { sourceCandidates } from './scan.js';

/** A program's flags addressed to a bin: `target` is `bin:<name>`, as the engine's entry points spell it. */
export interface BinFlagCommand {
  path: string[];
  target: string;
  params: ProgramFlags['params'];
  location: ProgramFlags['location'];
  aliases?: string[];
  /** Set on sub-commands: yargs and commander accept parent options after the sub-command words. */
  inheritsParentFlags?: boolean;
}

/**
 * The flags of each bin's program: a program belongs to a bin when its `.name()`/`scriptName()`
 * is the bin's name, or when its file is the bin's file or that file's source (the mapping of
 * {@link sourceCandidates}: `dist/cli.js` → `src/cli.ts`, `bin/x.js` → `src/x.ts`). The program
 * and all its sub-commands go to the bin. Bins reading invalid JSON yield nothing (the TypeScript
 * extractor reports the file).
 */
export function binFlagCommands(packageJson: { file: string; text: string }, programs: ProgramFlags[]): BinFlagCommand[] {
  const ignored: InputDiagnostic[] = [];
  const roots = programs.filter((p) => p.path.length === 0);
  const out: BinFlagCommand[] = [];
  for (const bin of readBins(packageJson, ignored)) {
    const candidates = sourceCandidates(bin.path);
    const root = roots.find((r) => r.programName === bin.name) ?? roots.find((r) => candidates.includes(r.file));
    if (!root) continue;
    for (const p of programs.filter((c) => c.file === root.file)) {
      out.push({
        path: p.path,
        target: `bin:${bin.name}`,
        params: p.params,
        location: p.location,
        ...(p.aliases ? { aliases: p.aliases } : {}),
        ...(p.path.length > 0 ? { inheritsParentFlags: true } : {}),
      });
    }
  }
  return out;
}
