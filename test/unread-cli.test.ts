/**
 * Programs docdrift reads nothing from say so (issue #30, done-when 2): the note on a command's
 * unknown parameters names the file, the line and the construct met (the first use of a CLI
 * library the entry reaches), or the compiled file a bin runs that maps to no source; a project
 * with no command names the scripts that build a command line. Never a silent exit 0.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { cliLibraryUses } from '../src/extract/cli-libraries.js';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/unread-cli');
afterAll(removeTempDirs);

async function notesOf(fixture: string): Promise<{ notes: string[]; reasons: Array<string | undefined> }> {
  const root = path.join(FIXTURES, fixture);
  const result = await lint({ root, config: loadConfig(root, undefined, ruleIds).config });
  const { unknownReason } = await import('../src/model/coverage.js');
  return { notes: result.notes, reasons: result.model.commands.map((c) => unknownReason(c)) };
}

describe('cliLibraryUses', () => {
  it('finds the import of a CLI library and the first line that uses a name it binds', () => {
    const py = ['"""Tool."""', 'import sys', 'from plumbum import cli', '', '# cli is used below', 'class App(cli.Application):', '    pass'].join('\n');
    expect(cliLibraryUses('pkg/app.py', py)).toEqual([{ library: 'plumbum', file: 'pkg/app.py', line: 6, construct: 'class App(cli.Application):' }]);
    // An import inside a function counts; an alias is followed.
    const fire = ['def main():', '    import fire as f', '    f.Fire(run)'].join('\n');
    expect(cliLibraryUses('main.py', fire)).toEqual([{ library: 'python-fire', file: 'main.py', line: 3, construct: 'f.Fire(run)' }]);
    const js = ["const Vorpal = require('vorpal');", "import { Command, Flags as F } from '@oclif/core';", '', '// Command here is a comment', 'export default class Run extends Command {', '  static flags = { port: F.integer() };', '}'].join('\n');
    expect(cliLibraryUses('src/run.ts', js)).toEqual([
      { library: 'vorpal', file: 'src/run.ts', line: 1, construct: "const Vorpal = require('vorpal');" },
      { library: 'oclif', file: 'src/run.ts', line: 5, construct: 'export default class Run extends Command {' },
    ]);
    // A subpath of a package is that package; a module merely named like one is not.
    expect(cliLibraryUses('a.ts', "import { defineCommand } from 'citty/dist/index.mjs';\ndefineCommand({});").map((u) => u.library)).toEqual(['citty']);
    expect(cliLibraryUses('a.py', 'import firewall\nfrom argparse_helpers import x\n')).toEqual([]);
  });
});

describe('programs docdrift reads nothing from', () => {
  it('a console script reaching a CLI library two imports away: file, line and construct', async () => {
    const { notes, reasons } = await notesOf('plumbum-console-script');
    expect(reasons).toEqual([
      'its entry point `geotag.__main__:run` reaches geotag/app.py:4 `class GeoTag(cli.Application):`, which uses the CLI library plumbum, and docdrift read no command or flag from it (no reader for plumbum, or a form its reader does not cover); declare the flags in `commands."geotag".flags`, or set `commands."geotag".program` when the parser lives in another module or file',
    ]);
    expect(notes[0]).toContain(reasons[0]);
  });

  it('a bin whose TypeScript source imports a CLI library through a relative import', async () => {
    const { reasons } = await notesOf('vorpal-bin');
    expect(reasons).toEqual([expect.stringMatching(/^its entry point `bin:shelly` reaches src\/commands\.ts:3 `const shell = new Vorpal\(\);`, which uses the CLI library vorpal/)]);
  });

  it('a bin running compiled output that is not in the project and maps to no source', async () => {
    const { reasons } = await notesOf('compiled-bin-no-source');
    expect(reasons).toEqual([expect.stringMatching(/^its bin runs `build-output\/packer\.js`, which is not among the project's files \(compiled output\) and maps to no source: .*set `commands\."packer"\.program` to the TypeScript or JavaScript file/)]);
  });

  it('no command at all: the scripts that build a command line are named', async () => {
    const { notes } = await notesOf('clize-script');
    expect(notes).toEqual([expect.stringContaining('Scripts build a command line with a library docdrift read no command or flag from: tools/rename.py:15 `run(rename)` (clize)')]);
  });

  it('the built CLI says it on stderr and in --summary, and exits 2', () => {
    const root = tempProject(Object.fromEntries(['pyproject.toml', 'README.md', 'geotag/__init__.py', 'geotag/__main__.py', 'geotag/app.py'].map((f) => [f, readFileSync(path.join(FIXTURES, 'plumbum-console-script', f), 'utf8')])), 'docdrift-unread-');
    const summary = path.join(root, 'summary.md');
    const r = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--no-cache', '--summary', summary], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('geotag/app.py:4 `class GeoTag(cli.Application):`, which uses the CLI library plumbum');
    expect(readFileSync(summary, 'utf8')).toContain('geotag/app.py:4');
  });
});
