/**
 * The s24 fresh sweep of issue #33 (a tester who had not seen the fixes): defects it found that
 * are fixed, as the spawned CLI on a project built from fixtures/bad-input/_base. Others have
 * their tests beside the code they changed: D9 and D11/D16 in test/cli-conventions.test.ts, D10
 * in test/property.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, projectBesideOutside, removeTempDirs } from './helpers.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
afterAll(removeTempDirs);

const sandbox = (): { project: string; outside: string } => projectBesideOutside(BASE, 'docdrift-s24-');

function run(project: string, args: string[]) {
  return spawnSync(process.execPath, [CLI_BIN, '--no-cache', ...args], { cwd: project, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
}

describe('s24 sweep D12: the baseline found in the root with another name (a hard link) is not read', () => {
  it('exit 2 naming the link count, without the file\'s keys; named with --baseline it is read', () => {
    const { project, outside } = sandbox();
    const secret = path.join(outside, 'secret.json');
    writeFileSync(secret, '{"version": 1, "entries": [], "SECRET-TOKEN-XYZ": 1}\n');
    linkSync(secret, path.join(project, '.docdrift-baseline.json'));
    const r = run(project, []);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the baseline .docdrift-baseline.json has 2 names (hard links)');
    expect(r.stderr).not.toContain('SECRET-TOKEN-XYZ');
    expect(run(project, ['--baseline', '.docdrift-baseline.json']).stderr).not.toContain('hard links');
  });
});

describe('s24 sweep D14: --debug cannot be made to print a forged line', () => {
  it('a console-script name holding a line feed and ESC is escaped on its own line', () => {
    const { project } = sandbox();
    writeFileSync(
      path.join(project, 'pyproject.toml'),
      '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n"t\\u001b[31mred\\u000a::error::FORGED" = "tool.cli:nomain"\n',
    );
    const r = run(project, ['--debug']);
    expect(r.stderr).not.toMatch(/^::error::FORGED/m);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toMatch(/command .*\\n::error::FORGED/);
  });
});

describe('s24 sweep D15: a root far larger than any project is refused with exit 2, not walked and read for minutes', () => {
  it('more than 15,000 source files: one line naming the count and what to do', () => {
    const { project } = sandbox();
    for (let d = 0; d < 31; d++) {
      mkdirSync(path.join(project, `lib/p${d}`), { recursive: true });
      for (let i = 0; i < 500; i++) writeFileSync(path.join(project, `lib/p${d}/m${i}.py`), 'X = 1\n');
    }
    const r = run(project, []);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the root .* holds 15,50\d source files, over the 15,000 one run reads; is it the project you meant\?/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
