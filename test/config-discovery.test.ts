/**
 * Config discovery that does not fail silently (issue #32 item 4), end to end: files that look like
 * a docdrift config but are not a supported name or format get a warning naming the supported
 * ones, an empty config file is an error at its path (exit 2), and `init` proposes only the
 * languages and doc globs the project has.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

afterAll(removeTempDirs);

function run(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split('\n').filter(Boolean) };
}

const SUPPORTED = 'docdrift.config.json, docdrift.config.yaml, docdrift.config.yml, .docdriftrc.json, .docdriftrc.yaml, .docdriftrc.yml, or a "docdrift" key in package.json';
const README = '# notes\n';

describe('files that look like a config', () => {
  it.each([
    ['.docdriftrc', '{ "allowUnchecked": true }\n', '.docdriftrc.json'],
    ['.docdriftrc', 'allowUnchecked: true\n', '.docdriftrc.yaml'],
    ['docdrift.toml', 'allowUnchecked = true\n', 'docdrift.config.yaml'],
    ['docdrift.json', '{}\n', 'docdrift.config.json'],
    ['.docdriftrc.jsonc', '{}\n', '.docdriftrc.json'],
    ['docdrift.config.toml', 'x = 1\n', 'docdrift.config.yaml'],
  ])('%s (%j) is named with the supported names and a rename, and is not read', (name, text, rename) => {
    const root = tempProject({ 'README.md': README, [name]: text });
    const r = run(root, '--no-cache');
    // Not read: the run is the defaults' (nothing to check: exit 2), not allowUnchecked's.
    expect(r.code).toBe(2);
    expect(r.lines[0]).toBe(`docdrift: warning: ${name} looks like a docdrift config but is not read: the supported files are ${SUPPORTED}. Rename it to ${rename}${/toml/.test(name) ? ' (TOML is not read: write it as YAML or JSON)' : ''}.`);
  });

  it('also when a supported config exists beside it, and not for the baseline, the cache or a package named docdrift', () => {
    const root = tempProject({
      'README.md': README,
      'docdrift.config.json': '{ "allowUnchecked": true }\n',
      '.docdriftrc': '{}\n',
      '.docdrift-baseline.json': '{"version": 1, "entries": []}\n',
      '.docdrift-cache/x': '',
      'docdrift/__init__.py': '',
      'docdrift.py': 'print(1)\n',
    });
    const r = run(root, '--no-cache');
    expect(r.code).toBe(0);
    expect(r.lines.filter((l) => l.includes('warning'))).toEqual([expect.stringMatching(/^docdrift: warning: \.docdriftrc looks like a docdrift config but is not read/)]);
  });

  it('a [tool.docdrift] table in pyproject.toml is named too', () => {
    const root = tempProject({ 'README.md': README, 'pyproject.toml': '[project]\nname = "x"\n\n[tool.docdrift]\nallowUnchecked = true\n' });
    const r = run(root, '--no-cache');
    expect(r.lines[0]).toBe(`docdrift: warning: pyproject.toml has a [tool.docdrift] table, which is not read: the supported files are ${SUPPORTED}. Move it to docdrift.config.yaml.`);
  });

  it('--config FILE names the file: no look-alike warnings', () => {
    const root = tempProject({ 'README.md': README, 'my.json': '{ "allowUnchecked": true }\n', '.docdriftrc': '{}\n' });
    const r = run(root, '--no-cache', '--config', 'my.json');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('warning');
  });
});

describe('an empty config', () => {
  it.each([
    ['docdrift.config.json', ''],
    ['docdrift.config.json', '  \n'],
    ['docdrift.config.yaml', '# nothing yet\n'],
    ['.docdriftrc.yml', ''],
  ])('%s holding %j is an error at its path, exit 2', (name, text) => {
    const root = tempProject({ 'README.md': README, [name]: text });
    const r = run(root, '--no-cache', '--allow-unchecked');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^docdrift: Invalid docdrift config in ${name.replace(/\./g, '\\.')}: the config file is empty\\n`));
    expect(r.stderr).toContain('{}');
  });

  it('`{}` is not empty: all defaults', () => {
    const root = tempProject({ 'README.md': README, 'docdrift.config.json': '{}\n' });
    expect(run(root, '--no-cache', '--allow-unchecked').code).toBe(0);
  });
});

describe('init proposes what the project has', () => {
  it('no Python source globs in a project with no Python, no .mdx glob without .mdx files', () => {
    const root = tempProject({
      'package.json': '{ "name": "tool", "bin": { "tool": "src/cli.ts" } }\n',
      'src/cli.ts': 'export interface Options {\n  /** Port. */\n  port?: number;\n}\nexport function main(o: Options): void {}\n',
      'README.md': '# tool\n',
    });
    const r = run(root, 'init', '--dry-run');
    expect(r.code).toBe(0);
    const config = JSON.parse(r.stdout) as { sources: string[]; docs: string[] };
    expect(config.sources.filter((g) => g.includes('.py'))).toEqual([]);
    expect(config.sources).toContain('**/*.{ts,mts,cts,tsx}');
    expect(config.docs).toContain('**/*.md');
    expect(config.docs).not.toContain('**/*.mdx');
    expect(config.docs).not.toContain('**/.claude/CLAUDE.md');
  });

  it('a project with neither Python nor TypeScript sources gets the language its packaging names', () => {
    const root = tempProject({ 'pyproject.toml': '[project]\nname = "x"\n', 'docs/index.mdx': '# x\n' });
    const config = JSON.parse(run(root, 'init', '--dry-run').stdout) as { sources: string[]; docs: string[] };
    expect(config.sources).toContain('**/*.py');
    expect(config.sources.filter((g) => g.includes('.{ts') || g.includes('.ts'))).toEqual([]);
    expect(config.docs).toContain('**/*.mdx');
    expect(config.docs).not.toContain('**/*.md');
  });
});
