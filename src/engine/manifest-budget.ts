/** A run-wide bound on the commands read from manifests (package.json `bin`, `[project.scripts]`, setup.cfg `console_scripts`). */
import { MAX_BINS, readPackageBins } from '../extract/package-bins.js';
import { readEntryPoints } from '../extract/python/entry-points.js';
import type { InputDiagnostic } from '../model/types.js';
import { alsoNotRead } from '../shared/strings.js';

/**
 * The most commands read from the manifests of one run. Each manifest reads at most
 * {@link MAX_BINS} itself; a project of 130 package.json files of 1,000 bins each (130,000
 * commands) crashed a run and 150 pyproject.toml files of 1,000 scripts took 20 s (#33 s23 sweep
 * D3, D4). Real monorepos declare tens.
 */
export const MAX_RUN_COMMANDS = MAX_BINS;

/** A manifest that can declare commands: `package.json`, `pyproject.toml` or `setup.cfg`, at any depth. */
function declaresCommands(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base === 'package.json' || base === 'pyproject.toml' || base === 'setup.cfg';
}

/**
 * Keeps the manifests whose commands fit the run's bound: root manifests first, then in the given
 * (sorted) order, each counted by its own reader; once {@link MAX_RUN_COMMANDS} commands are
 * counted, every later manifest declaring one is left out (its dependencies and commands unread),
 * and one `parse-error` warning says how many and which. Other packaging files are kept.
 *
 * @param packaging project-relative POSIX paths of the packaging files discovery found
 * @param read a file's text, or undefined when it cannot be read (then it is kept: its reader says why)
 * @returns the packaging files to read, in the given order, and the warning when some were left out
 */
export function withinRunCommandBound(packaging: readonly string[], read: (file: string) => string | undefined): { packaging: string[]; problem?: InputDiagnostic } {
  const manifests = packaging.filter(declaresCommands);
  if (manifests.length <= 1) return { packaging: [...packaging] };
  const ordered = [...manifests.filter((f) => !f.includes('/')), ...manifests.filter((f) => f.includes('/'))];
  let total = 0;
  const dropped: Array<{ file: string; commands: number }> = [];
  for (const file of ordered) {
    const text = read(file);
    if (text === undefined) continue;
    const commands = file.endsWith('package.json') ? readPackageBins({ file, text }).bins.length : readEntryPoints([{ file, text }]).entryPoints.length;
    if (commands === 0) continue;
    if (total >= MAX_RUN_COMMANDS) dropped.push({ file, commands });
    else total += commands;
  }
  if (dropped.length === 0) return { packaging: [...packaging] };
  const left = new Set(dropped.map((d) => d.file));
  const [first, ...others] = dropped;
  const more = alsoNotRead(others.map((d) => d.file), 'manifests');
  const declared = dropped.reduce((n, d) => n + d.commands, 0);
  return {
    packaging: packaging.filter((f) => !left.has(f)),
    problem: {
      ruleId: 'parse-error',
      severity: 'warn',
      message: `Not read${more}: the project's manifests declare more than ${MAX_RUN_COMMANDS.toLocaleString('en-US')} commands, the limit for one run (${total.toLocaleString('en-US')} read, ${declared.toLocaleString('en-US')} more in the manifests left out); their commands and dependencies are unknown`,
      location: { file: first!.file, line: 1, column: 1 },
    },
  };
}
