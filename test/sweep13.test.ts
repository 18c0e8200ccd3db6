// Regressions found by the #33 part-3 adversarial sweep (wt13-sweep). Each test runs the built
// CLI (npm run build first) on a small temporary project, as a user would. They fail on the
// commit they were written against; see /tmp/sweep13/REPORT.md of that sweep for the details.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

afterAll(() => removeTempDirs());

const BASE: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n',
  'tool/__init__.py': '',
  'tool/cli.py':
    'from pydantic import BaseModel, Field\n\n\nclass ToolConfig(BaseModel):\n' +
    '    seed: int = Field(default=0, description="Random seed.")\n' +
    '    name: str = Field(default="run", description="Name of the run.")\n\n\n' +
    'def main(cfg: dict) -> None:\n    ToolConfig.model_validate(cfg)\n',
  'docs/reference.md':
    '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n' +
    '| `seed` | int | `0` | Random seed. |\n| `name` | str | `"run"` | Name of the run. |\n',
  'README.md': '# tool\n\n```bash\ntool +seed=1 +name=demo\n```\n\nSee the [reference](docs/reference.md#tool).\n',
};

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, XDG_CACHE_HOME: path.join(cwd, '..', `${path.basename(cwd)}-xdg`), ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('#33 part 3 sweep', () => {
  it('a 20,000-long unary minus chain in a module-level default is no internal error', () => {
    const root = tempProject({
      ...BASE,
      'tool/u.py': `import argparse\nA = ${'-'.repeat(20_000)}1\np = argparse.ArgumentParser()\np.add_argument("--a", default=A)\n`,
    });
    const r = run(root, ['--root', '.', '--no-cache']);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
  });

  it('a path argument whose brace groups multiply past 1,000 patterns is refused at once (D4: 52 s, 2.2 GB)', () => {
    const root = tempProject(BASE);
    const started = Date.now();
    const r = run(root, ['--root', '.', '--no-cache', '--', `docs/${'{a,b}'.repeat(20)}.md`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expands to more than 1,000 patterns');
    expect(Date.now() - started).toBeLessThan(20_000);
    // A few groups still match as a glob does.
    const ok = run(root, ['--root', '.', '--no-cache', '--', 'docs/{reference,guide}.md']);
    expect(ok.code).toBe(0);
  });

  it('reads the first 1,000 of 40,000 [project.scripts] aliases and says so (D6: 17.7 s)', () => {
    const scripts = Array.from({ length: 40_000 }, (_, i) => `s${i} = "tool.cli:main"\n`).join('');
    const root = tempProject({ ...BASE, 'pyproject.toml': `${BASE['pyproject.toml']}${scripts}` });
    const started = Date.now();
    const r = run(root, ['--root', '.', '--no-cache']);
    expect(r.stdout).toContain('declares 40001 console scripts; only the first 1000 are read');
    expect(r.stdout).not.toContain('internal error');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('an empty path argument is a usage error (exit 2), not an uncaught TypeError', () => {
    const root = tempProject(BASE);
    const r = run(root, ['--root', '.', '--no-cache', '--', '']);
    expect(r.stderr).not.toMatch(/^ {4}at /m);
    expect(r.code).toBe(2);
  });

  it('-o and --summary refuse a hard link to a file the run reads', () => {
    const root = tempProject({ ...BASE, 'README.md': `${BASE['README.md']}\n\`\`\`bash\ntool +sed=1\n\`\`\`\n` });
    linkSync(path.join(root, 'README.md'), path.join(root, 'report.txt'));
    linkSync(path.join(root, 'tool/cli.py'), path.join(root, 'summary.md.txt'));
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const cli = readFileSync(path.join(root, 'tool/cli.py'), 'utf8');
    const o = run(root, ['--root', '.', '--no-cache', '-o', 'report.txt']);
    const s = run(root, ['--root', '.', '--no-cache', '--summary', 'summary.md.txt']);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toBe(readme);
    expect(readFileSync(path.join(root, 'tool/cli.py'), 'utf8')).toBe(cli);
    expect(o.code).toBe(2);
    expect(s.code).toBe(2);
  });

  it('a directory of code as a path reports the docs it makes stale, as its glob does', () => {
    const root = tempProject({
      ...BASE,
      'tool/cli.py': (BASE['tool/cli.py'] ?? '').replace('name: str', 'label: str'),
    });
    const dir = run(root, ['--root', '.', '--no-cache', '--format', 'json', 'tool']);
    const glob = run(root, ['--root', '.', '--no-cache', '--format', 'json', 'tool/**']);
    expect(glob.code).toBe(1);
    expect(dir.code).toBe(glob.code);
    expect(JSON.parse(dir.stdout).results.length).toBe(JSON.parse(glob.stdout).results.length);
  });

  it('init writes no docdrift.config.json beside a docdrift.config.js', () => {
    const root = tempProject({ ...BASE, 'docdrift.config.js': 'export default {};\n' });
    const r = run(root, ['init', '--root', '.']);
    expect(existsSync(path.join(root, 'docdrift.config.json'))).toBe(false);
    expect(r.code).toBe(2);
  });

  it('--changed-since runs no clean filter whose name holds "=" (git -c splits at the first =)', () => {
    const root = tempProject(BASE);
    const marker = path.join(root, '..', `${path.basename(root)}-PWNED`);
    const git = (...a: string[]) =>
      spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...a], { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    git('config', 'filter.x=y.clean', `touch ${marker}; cat`);
    // .gitattributes is untracked: the tracked file's stat data goes stale, so git re-hashes it
    // through the clean filter.
    writeFileSync(path.join(root, '.gitattributes'), '*.py filter=x=y\n');
    const t = new Date(Date.now() + 5_000);
    spawnSync('touch', ['-d', t.toISOString(), path.join(root, 'tool/cli.py')]);
    rmSync(marker, { force: true });
    run(root, ['--root', '.', '--no-cache', '--changed-since', 'HEAD']);
    expect(existsSync(marker)).toBe(false);
  });
});

