/** The per-framework table of flags a CLI framework adds itself (src/extract/builtin-flags.ts) and the hidden flags made from it. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_FLAGS, builtInFlagSpecs, UNIVERSAL_SPELLINGS } from '../src/extract/builtin-flags.js';

const at = { file: 'cli.py', line: 1, column: 1 };

describe('built-in flags', () => {
  it('has one table per framework, each citing its source', () => {
    expect(Object.keys(BUILT_IN_FLAGS).sort()).toEqual(['argparse', 'cac', 'citty', 'click', 'clipanion', 'commander', 'cyclopts', 'jsonargparse', 'meow', 'oclif', 'parseArgs', 'sade', 'typer', 'yargs']);
    for (const [framework, table] of Object.entries(BUILT_IN_FLAGS)) {
      expect(table.framework).toBe(framework);
      expect(table.source).toMatch(/^https:\/\//);
    }
    // Node's util.parseArgs adds no option of its own.
    expect(BUILT_IN_FLAGS.parseArgs.flags).toEqual([]);
  });

  it('leaves out spellings known everywhere and keeps the others', () => {
    expect([...UNIVERSAL_SPELLINGS].sort()).toEqual(['h', 'help', 'version']);
    const commander = builtInFlagSpecs('commander', { root: true, version: true, location: at });
    expect(commander.map((p) => [p.name, p.aliases, p.hidden])).toEqual([['V', [], true]]);
    // Without a declared version commander adds nothing beyond -h/--help.
    expect(builtInFlagSpecs('commander', { root: true, location: at })).toEqual([]);
    expect(builtInFlagSpecs('cyclopts', { root: true, location: at })).toEqual([]);
    // sade's -v works without a declared version; cac's only after cli.version(); meow has no short ones.
    expect(builtInFlagSpecs('sade', { root: true, location: at }).map((p) => p.name)).toEqual(['v']);
    expect(builtInFlagSpecs('cac', { root: true, location: at })).toEqual([]);
    expect(builtInFlagSpecs('cac', { root: true, version: true, location: at }).map((p) => p.name)).toEqual(['v']);
    expect(builtInFlagSpecs('meow', { root: true, version: true, location: at })).toEqual([]);
  });

  it('adds root-only flags to the root command only', () => {
    expect(builtInFlagSpecs('typer', { root: true, location: at }).map((p) => p.name)).toEqual(['install-completion', 'show-completion']);
    expect(builtInFlagSpecs('typer', { root: false, location: at })).toEqual([]);
  });

  it('uses the spellings a program configures, and none for an empty list', () => {
    const custom = builtInFlagSpecs('cyclopts', { root: true, location: at, spellings: { help: ['info', 'i'], version: [] } });
    expect(custom.map((p) => [p.name, p.aliases])).toEqual([['info', ['i']]]);
    const click = builtInFlagSpecs('click', { root: true, version: true, location: at, spellings: { version: ['V', 'version'] } });
    expect(click.map((p) => [p.name, p.aliases, p.dest])).toEqual([['V', [], 'V']]);
  });
});
