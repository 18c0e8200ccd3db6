/** Ties yargs/commander programs to the package.json `bin` commands that run them. */
import type { FlagCommand as ProgramFlags } from './types.js';
import { reachable, type BinProgram } from './programs.js';
import { sourceCandidates } from './scan.js';

/** A program's flags addressed to a bin: `target` is `bin:<name>`, as the engine's entry points spell it. */
export interface BinFlagCommand {
  path: string[];
  target: string;
  params: ProgramFlags['params'];
  location: ProgramFlags['location'];
  aliases?: string[];
  /** Other whole word paths that run the command (see `FlagCommand.pathAliases` of the TypeScript extraction). */
  pathAliases?: string[][];
  /** Set on sub-commands: yargs and commander accept parent options after the sub-command words. */
  inheritsParentFlags?: boolean;
  /** commander `.allowUnknownOption()`: undeclared flags are accepted (see `FlagCommand.passesUnknownFlags`). */
  passesUnknownFlags?: boolean;
  /** Where a reading limit cut the command's flags (see `FlagCommand.unreadFlags` of the TypeScript extraction). */
  unreadFlags?: ProgramFlags['unreadFlags'];
  /** Sub-commands are also made at run time under names docdrift cannot read (see `FlagCommand.dynamicSubcommands`). */
  dynamicSubcommands?: boolean;
  /**
   * The construct that makes those sub-commands, as the notes name it (`yargs \`.commandDir()\`
   * with a folder docdrift cannot read`); absent: the generic list (commander `.command(name)`, …).
   */
  dynamicSubcommandsBy?: string;
  /** The sub-command run when the words name none (commander `{ isDefault: true }`). */
  defaultSubcommand?: string;
  /** On a program: its config type's fields set from one flag each, field → the flag's `dest` (see `binFieldFlags` of the TypeScript extraction). */
  fieldFlags?: Record<string, string>;
}

/** How many import hops from a bin's entry file a program is looked for. */
const MAX_REACH = 3;

/** What {@link binFlagCommands} found. */
export interface BinFlags {
  commands: BinFlagCommand[];
  /**
   * Bins (`bin:<name>`) named by the program they run (commander `.name('packgen')`, yargs
   * `.scriptName()`), at most one per file: of several bins running that file, it is the
   * command's name and the others its aliases, whatever their order in package.json.
   */
  named: string[];
}

/**
 * The flags of each bin's program. Bins running one file (`"packgen"` and `"pg"` both
 * `dist/cli.js`) run one program, found once for them all, so their order in package.json
 * changes nothing. A program belongs to those bins when its `.name()`/`scriptName()` is one of
 * their names; else when its file is their program source ({@link BinProgram.source}:
 * `dist/cli.js` → `src/cli.ts`, a shim's target, a JavaScript file) or the nearest file that
 * source reaches through relative imports (≤ 3 hops; a yargs program without `.scriptName()`
 * in `src/cli/index.ts` imported by `src/bin.ts`; of several at that distance, the one with the
 * most flags), unless the program names another bin. The program and all its sub-commands go
 * to each of those bins.
 *
 * @param bins every bin of every package.json, with its program source
 * @param programs the flag programs read from the sources
 * @param imports relative-import graph (file → imported files)
 */
export function binFlagCommands(bins: readonly BinProgram[], programs: ProgramFlags[], imports: ReadonlyMap<string, readonly string[]>): BinFlags {
  const roots = programs.filter((p) => p.path.length === 0);
  const binNames = new Set(bins.map((b) => b.name));
  // Bins by the file they run (joined to their package.json's directory), in order of appearance.
  const byFile = new Map<string, BinProgram[]>();
  for (const bin of bins) {
    const group = byFile.get(bin.path);
    if (group) group.push(bin);
    else byFile.set(bin.path, [bin]);
  }
  const out: BinFlagCommand[] = [];
  const named: string[] = [];
  for (const group of byFile.values()) {
    const first = group[0]!;
    const names = new Set(group.map((b) => b.name));
    // The program that names one of these bins, the first in source order (whichever bin is listed first).
    let root = roots.find((r) => r.programName !== undefined && names.has(r.programName));
    if (!root) {
      const candidates = first.source !== undefined ? [first.source] : sourceCandidates(first.path);
      root = roots.find((r) => candidates.includes(r.file) && (r.programName === undefined || !binNames.has(r.programName)));
    }
    if (!root && first.source !== undefined) {
      const reach = reachable(imports, first.source, MAX_REACH);
      let best: { root: ProgramFlags; depth: number } | undefined;
      for (const r of roots) {
        const depth = reach.get(r.file);
        if (depth === undefined || (r.programName !== undefined && binNames.has(r.programName))) continue;
        // Several programs at one distance (a helper reading one flag with `strict: false`): the largest.
        if (!best || depth < best.depth || (depth === best.depth && r.params.length > best.root.params.length)) best = { root: r, depth };
      }
      root = best?.root;
    }
    if (!root) continue;
    if (root.programName !== undefined && names.has(root.programName)) named.push(`bin:${root.programName}`);
    const own = programs.filter((c) => c.file === root.file);
    for (const bin of group) pushBinFlags(out, bin, own);
  }
  return { commands: out, named };
}

/** Adds the flag commands of `own` (a program and its sub-commands) to `out`, addressed to `bin`. */
function pushBinFlags(out: BinFlagCommand[], bin: BinProgram, own: readonly ProgramFlags[]): void {
  for (const p of own) {
    out.push({
      path: p.path,
      target: `bin:${bin.name}`,
      params: p.params,
      location: p.location,
      ...(p.aliases ? { aliases: p.aliases } : {}),
      ...(p.pathAliases ? { pathAliases: p.pathAliases } : {}),
      // oclif, clipanion and citty parse a command's own flags only.
      ...(p.path.length > 0 && (p.framework === 'yargs' || p.framework === 'commander' || p.framework === 'cac' || p.framework === 'sade') ? { inheritsParentFlags: true } : {}),
      ...(p.passesUnknownFlags ? { passesUnknownFlags: true } : {}),
      ...(p.unreadFlags ? { unreadFlags: p.unreadFlags } : {}),
      ...(p.dynamicSubcommands ? { dynamicSubcommands: true } : {}),
      ...(p.dynamicSubcommandsBy !== undefined ? { dynamicSubcommandsBy: p.dynamicSubcommandsBy } : {}),
      ...(p.defaultSubcommand !== undefined ? { defaultSubcommand: p.defaultSubcommand } : {}),
      ...(p.hidden ? { hidden: true } : {}),
      ...(p.deprecated ? { deprecated: true } : {}),
    });
  }
}
