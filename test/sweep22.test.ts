/**
 * The s22 fresh sweep of issue #33 (a tester who had not seen the fixes): each defect it found
 * that is fixed, as the spawned CLI on a project built from fixtures/bad-input/_base.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, projectBesideOutside, removeTempDirs } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
afterAll(removeTempDirs);

const sandbox = (): { project: string; outside: string } => projectBesideOutside(BASE, 'docdrift-s22-');

function run(project: string, args: string[]) {
  return spawnSync(process.execPath, [CLI_BIN, '--no-cache', ...args], { cwd: project, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
}

describe('s22 sweep D6: a brace alternative of a glob path argument is checked like a pattern of its own', () => {
  it.each([['{/usr,docs}/**/*.h'], ['{/,docs/}**'], ['{/etc,docs}/shadow'], ['{../outside,docs}/*.md']])('%s is refused before anything is walked', (pattern) => {
    const { project } = sandbox();
    const r = run(project, [pattern]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the pattern ${pattern} reaches outside the project root`);
    expect(r.stderr).not.toMatch(/\/usr\/|shadow is|\bat /);
  });

  it('alternatives inside the root are all matched, literal ones too', () => {
    const { project } = sandbox();
    const r = run(project, ['--format', 'json', '{README.md,docs/*.md}']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).results).toEqual([]);
    expect(run(project, ['{nothing,docs/none}/*.md']).stderr).toContain('no files match the pattern {nothing,docs/none}/*.md');
  });
});

describe('s22 sweep D7: a line feed in a file name cannot forge a line on stderr', () => {
  it('in the --fix refusal report', () => {
    const { project } = sandbox();
    // The reference page's name holds a line feed, and the page is read-only.
    const forged = 'docdrift: fixed 9 problems in 9 files (1 pass).';
    const name = `docs/r\n${forged}\nx.md`;
    // A field the reference lacks: --fix would add its row.
    writeFileSync(path.join(project, 'tool/cli.py'), readFileSync(path.join(project, 'tool/cli.py'), 'utf8').replace('\n\n\ndef main', '\n    extra: int = Field(default=3, description="Extra.")\n\n\ndef main'));
    renameSync(path.join(project, 'docs/reference.md'), path.join(project, name));
    chmodSync(path.join(project, name), 0o444);
    const r = run(project, ['--fix']);
    expect(r.stderr.split('\n')).not.toContain(forged);
    expect(r.stderr).toContain('docs/r\\ndocdrift: fixed 9 problems');
  });

  it('in a message that echoes an argument', () => {
    const { project } = sandbox();
    const r = run(project, ['--format', `x\n${'docdrift: all clear'}`]);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')).not.toContain('docdrift: all clear');
  });
});

describe('s22 sweep D8: a fix that does not read back leaves findings, not a refused write', () => {
  it('offers no fix that would not read back: since s38 sweep D2 the odd names\' rows read back, so --fix writes them and exits 0', () => {
    const { project } = sandbox();
    mkdirSync(path.join(project, 'schemas'));
    const properties = Object.fromEntries(['seed', 'name', 'w x', '<q>'].map((k) => [k, { type: 'string', description: 'd' }]));
    writeFileSync(path.join(project, 'schemas/s.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', title: 'S', type: 'object', properties }));
    writeFileSync(path.join(project, 'docdrift.config.json'), JSON.stringify({ commands: { tool: { config: 'schemas/s.json#S' } } }));
    expect(run(project, []).status).toBe(1);
    const fixed = run(project, ['--fix']);
    expect(fixed.status, fixed.stderr).toBe(0);
    // s28 (s27 sweep2 D4): the rows of `w x` and `<q>`, which the reference reader did not take
    // whole, were no fixes at all (each lint counted them fixable while every --fix refused them).
    // Since s39 (s38 sweep D2) a name-cell code span spelling a parameter is read whole: the rows
    // are written as code spans, read back as meant, and a second --fix has nothing to do.
    expect(fixed.stderr).toContain('fixed 2 problems in 1 file');
    expect(fixed.stderr).not.toContain('fixes not applied');
    expect(fixed.stderr).not.toContain('files not fixed');
    const reference = readFileSync(path.join(project, 'docs/reference.md'), 'utf8');
    expect(reference).toContain('| `w x` |');
    expect(reference).toContain('| `<q>` |');
    const again = run(project, ['--fix']);
    expect(again.stderr).toContain('nothing to fix');
    expect(run(project, ['--format', 'json']).stdout).not.toContain('reference-param-missing');
  });
});

describe('s22 sweep D9: a discovered config file with another name (a hard link) is not read', () => {
  it('exit 2 naming the link count, without the file\'s content', () => {
    const { project, outside } = sandbox();
    const secret = path.join(outside, 'secret');
    writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    linkSync(secret, path.join(project, 'docdrift.config.yaml'));
    const r = run(project, []);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the config file has 2 names (hard links)');
    expect(r.stderr).not.toContain('root:x');
    // Named with --config, the user chose it: read (and refused here only for its content).
    expect(run(project, ['--config', 'docdrift.config.yaml']).stderr).not.toContain('hard links');
  });
});

describe('s32 sweep D2: a directory at a config file\'s name (or at -o) is not a regular file, not a hard-linked one', () => {
  it.each([['docdrift.config.json'], ['.docdriftrc.yaml']])('%s/ is exit 2 saying it is not a regular file (a directory), as --config says', (name) => {
    const { project } = sandbox();
    mkdirSync(path.join(project, name, 'sub'), { recursive: true });
    const r = run(project, []);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not a regular file (a directory)');
    expect(r.stderr).toContain(name);
    expect(r.stderr).not.toMatch(/hard links|names\b|\n\s+at /);
    expect(r.stderr.trim().split('\n')[0]).toBe(`docdrift: Invalid docdrift config in ${name}: the config file cannot be read (EISDIR (not a regular file (a directory)))`);
    // What --config says of the same directory.
    expect(run(project, ['--config', name]).stderr).toBe(r.stderr);
  });

  it('-o naming a directory does not say hard links', () => {
    const { project } = sandbox();
    mkdirSync(path.join(project, 'out', 'sub'), { recursive: true });
    const r = run(project, ['-o', 'out']);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/hard links|\n\s+at /);
  });
});

describe('s22 sweep D4: did-you-mean work is bounded for long names of one length and alphabet', () => {
  it('a bag-distance filter skips names far apart; a real typo of a long name is still suggested', async () => {
    const { suggestNames, NameIndex, nameStats } = await import('../src/shared/names.js');
    let seed = 7;
    const random = (n: number): string => Array.from({ length: n }, () => 'abcdefghij'[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10]).join('');
    const names = Array.from({ length: 500 }, () => random(120));
    const index = new NameIndex(names);
    const typo = `${names[42]!.slice(0, 60)}${names[42]![61]}${names[42]![60]}${names[42]!.slice(62)}`;
    const before = nameStats.osaDistances;
    expect(suggestNames(typo, index, 1)).toEqual([names[42]]);
    // 500 candidates of one length and alphabet: the mask filter passes them all, the bag filter not.
    expect(index.work).toBeLessThan(500 * 120 * 120 / 10);
    expect(nameStats.osaDistances - before).toBeLessThan(10);
  });

  it('an index whose work budget is spent gives no suggestion rather than a partial one', async () => {
    const { suggestNames, NameIndex, MAX_INDEX_WORK } = await import('../src/shared/names.js');
    const index = new NameIndex(['resume_from_cache', 'seed']);
    expect(suggestNames('resume_from_cahce', index)).toEqual(['resume_from_cache']);
    index.work = MAX_INDEX_WORK + 1;
    expect(suggestNames('sead', index)).toEqual([]);
  });
});

describe('s22 sweep D5: many package.json bins cost linear work', () => {
  // Since s23 the commands of one run's manifests are bounded (1,000; 130 such files crashed the
  // run): the first manifest's 1,000 bins are commands, the other 29 files one warning.
  it('30 package.json files of 1,000 bins each: the first 1,000 bins are commands, the rest one warning', () => {
    const { project } = sandbox();
    for (let p = 0; p < 30; p++) {
      mkdirSync(path.join(project, `pk/p${p}`), { recursive: true });
      writeFileSync(path.join(project, `pk/p${p}/package.json`), JSON.stringify({ name: `p${p}`, version: '1.0.0', bin: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`c${p}_${i}`, `b${i}.js`])) }));
    }
    const r = run(project, ['--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { commands: Array<{ name: string }> };
    expect(report.commands.filter((c) => /^c\d+_\d+$/.test(c.name)).length).toBe(1_000);
    expect(report.commands.filter((c) => /^c0_\d+$/.test(c.name)).length).toBe(1_000);
    expect(r.stdout).toContain("(nor 28 other manifests: pk/p10/package.json, pk/p11/package.json, pk/p12/package.json, …): the project's manifests declare more than 1,000 commands, the limit for one run");
  }, 120_000);
});

describe('s22 sweep D1: the argparse evaluator charges the work a step does', () => {
  it('str methods on a long string spend the size budget even when their result is over the cap', async () => {
    const { extractPythonFlags } = await import('../src/extract/python/flags.js');
    const L = `[${Array.from({ length: 512 }, (_, i) => i).join(', ')}]`;
    // 262,144 replacements of an 8 KB string, each result (16 KB) over the 10,000-character cap: 8 s before.
    const text = `import argparse\ns = "a"\nfor _ in [1,1,1,1,1,1,1,1,1,1,1,1,1]:\n    s = s + s\nfor a in ${L}:\n    for b in ${L}:\n        t = s.replace("a", "bc")\n` +
      `parser = argparse.ArgumentParser(prog="tool")\nparser.add_argument("--seed")\nparser.parse_args()\n`;
    const { commands, diagnostics } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    expect(commands.map((c) => c.params.map((p) => p.name))).toEqual([['seed']]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toContain('budget of tool/cli.py (200,000 steps, 2,000,000 characters or items computed) ran out');
    // The size budget, not the steps, ended it: ~250 replacements of 8 KB, far fewer than 200,000 steps.
    expect(diagnostics[0]!.location.line).toBe(5);
  });

});
