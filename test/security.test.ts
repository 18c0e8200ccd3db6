/** Security: the built CLI never executes repository code or JS configs, and never reads outside the project root (symlinks, ../ links, ../ globs). */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, projectBesideOutside, removeTempDirs } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const BASE = path.join(ROOT, 'fixtures/bad-input/_base');

interface JsonResult {
  file: string;
  line: number;
  ruleId: string;
  message: string;
}

afterAll(removeTempDirs);

/** A sandbox dir holding `project/` (a copy of the clean base project) and `outside/` next to it. */
const sandbox = (): { project: string; outside: string } => projectBesideOutside(BASE, 'docdrift-sec-');

function run(project: string) {
  const r = spawnSync(process.execPath, [BIN, '--root', project, '--format', 'json'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const results = (stdout: string): JsonResult[] => (JSON.parse(stdout) as { results: JsonResult[] }).results;

describe('docdrift never executes repository code', () => {
  it('a docdrift.config.js or .docdriftrc.cjs that would write a marker is refused with a reason, not run', () => {
    for (const name of ['docdrift.config.js', '.docdriftrc.cjs']) {
      const { project, outside } = sandbox();
      const marker = path.join(outside, 'pwned');
      writeFileSync(
        path.join(project, name),
        `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { rules: {} };\n`,
      );
      const r = run(project);
      expect(existsSync(marker), `${name} was executed`).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(name);
      expect(r.stderr).toMatch(/execut|JSON or YAML/i);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('conftest.py, setup.py and the package code that would write a marker are parsed, never run', () => {
    const { project, outside } = sandbox();
    const marker = path.join(outside, 'pwned');
    const payload = `import pathlib\npathlib.Path(${JSON.stringify(marker)}).write_text("ran")\n`;
    writeFileSync(path.join(project, 'conftest.py'), payload);
    writeFileSync(path.join(project, 'setup.py'), `${payload}from setuptools import setup\nsetup(name="tool", entry_points={"console_scripts": ["tool=tool.cli:main"]})\n`);
    writeFileSync(path.join(project, 'tool/__init__.py'), payload);
    const r = run(project);
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(0);
    expect(results(r.stdout)).toEqual([]);
  });
});

describe('docdrift never reads outside the project root', () => {
  /** A Markdown file and a Python config class outside the root, each of which would produce a finding if read. */
  function bait(outside: string): void {
    writeFileSync(path.join(outside, 'secret.md'), '# outside\n\n```bash\ntool +leaked_secret=1\n```\n');
    writeFileSync(
      path.join(outside, 'leak.py'),
      'from pydantic import BaseModel\n\n\nclass ToolConfig(BaseModel):\n    leaked_field: int = 1\n',
    );
  }

  it('symlinks in docs/ to a file outside, to a directory outside, and to /etc are not followed', () => {
    const { project, outside } = sandbox();
    bait(outside);
    symlinkSync(path.join(outside, 'secret.md'), path.join(project, 'docs/secret.md'));
    symlinkSync('../../outside', path.join(project, 'docs/outdir'));
    symlinkSync('/etc', path.join(project, 'docs/etc'));
    symlinkSync(path.join(outside, 'leak.py'), path.join(project, 'tool/leak.py'));
    const r = run(project);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('leaked');
    // The linked page a docs pattern matched is named, not read (walked as git lists it); the
    // linked folders are not entered, and the linked source is no document.
    expect(results(r.stdout)).toEqual([
      expect.objectContaining({ ruleId: 'parse-error', file: 'docs/secret.md', severity: 'warn', message: 'docs/secret.md is not read: it is a symbolic link to a file outside the project, which docdrift does not read' }),
    ]);
  });

  it('a Markdown link to ../../../etc/passwd or ../outside is neither read nor resolved', () => {
    const { project, outside } = sandbox();
    bait(outside);
    writeFileSync(
      path.join(project, 'README.md'),
      '# tool\n\n```bash\ntool +seed=1\n```\n\n[passwd](../../../etc/passwd), [secret](../outside/secret.md#outside), [ref](docs/reference.md#tool)\n',
    );
    const r = run(project);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/leaked|passwd|root:/);
    expect(results(r.stdout)).toEqual([]);
  });

  it('a config glob with .. or an absolute path is refused (exit 2) and nothing outside is read', () => {
    for (const config of [{ docs: ['../outside/**/*.md'] }, { sources: ['**/*.py', '../outside/*.py'] }, { docs: [`${'/'}etc/**`] }]) {
      const { project, outside } = sandbox();
      bait(outside);
      writeFileSync(path.join(project, 'docdrift.config.json'), JSON.stringify(config));
      const r = run(project);
      expect(r.code, JSON.stringify(config)).toBe(2);
      expect(r.stderr).toContain('leaves the project root');
      expect(r.stdout).not.toContain('leaked');
    }
  });
});

describe('glob path arguments stay inside the project root (#33 item 6)', () => {
  const runWith = (project: string, args: string[]) =>
    spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 10_000 });

  it("'/**/*.md', '../**' and '{docs,../outside}/*.md' are refused before anything is walked: exit 2, one line", () => {
    const { project, outside } = sandbox();
    writeFileSync(path.join(outside, 'secret.md'), '# outside\n');
    for (const pattern of [`${'/'}**/*.md`, '../**', '{docs,../outside}/*.md', 'docs/**/../../../outside/*.md']) {
      const r = runWith(project, [pattern]);
      expect(r.error, `${pattern}: a timeout means the glob walked outside`).toBeUndefined();
      expect(r.status, `${pattern}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), pattern).toHaveLength(1);
      expect(r.stderr).toContain('reaches outside the project root');
    }
  });

  it("a negated path argument ('!README.md', '!**/*.md', '!') is refused: exit 2, one line, no stack (s46 sweep H6: a TypeError from picomatch, exit 1); a file named `!x` is a path", () => {
    const { project } = sandbox();
    for (const pattern of ['!README.md', '!x', '!', '!**/*.md']) {
      const r = runWith(project, [pattern]);
      expect(r.status, `${pattern}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), pattern).toHaveLength(1);
      expect(r.stderr).toContain('path arguments name files, folders or patterns to check, not ones to leave out');
      expect(r.stderr).not.toContain('    at ');
    }
    writeFileSync(path.join(project, '!x.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    const named = runWith(project, ['--format', 'json', '!x.md']);
    expect(named.status, named.stderr).toBe(1);
    expect(named.stdout).toContain('!x.md');
  });

  it('a glob inside the root still lints the files it matches', () => {
    const { project } = sandbox();
    writeFileSync(path.join(project, 'docs/extra.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    const r = runWith(project, ['--format', 'json', 'docs/**/*.md']);
    expect(r.status, r.stderr).toBe(1);
    expect(results(r.stdout).map((m) => m.file)).toContain('docs/extra.md');
  });

  it.skipIf(process.getuid?.() === 0)('a glob over an unreadable directory is exit 2 with one line, no stack trace', () => {
    const { project } = sandbox();
    const locked = path.join(project, 'docs/locked');
    mkdirSync(locked);
    writeFileSync(path.join(locked, 'a.md'), '# a\n');
    chmodSync(locked, 0o000);
    try {
      const r = runWith(project, ['docs/**/*.md']);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});

describe('reports are never written through a link, nor over an input (#33 item 10)', () => {
  const runWith = (project: string, args: string[]) =>
    spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });

  it('-o and --summary naming a symbolic link (to a file outside, to the README) are refused: exit 2, nothing written', () => {
    const { project, outside } = sandbox();
    const victim = path.join(outside, 'victim');
    writeFileSync(victim, 'victim\n');
    symlinkSync('../outside/victim', path.join(project, 'results.sarif'));
    symlinkSync('README.md', path.join(project, 'report.txt'));
    const readme = readFileSync(path.join(project, 'README.md'), 'utf8');
    for (const args of [['--format', 'sarif', '-o', 'results.sarif'], ['-o', 'report.txt'], ['--summary', 'report.txt'], ['--summary', 'results.sarif']]) {
      const r = runWith(project, args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('symbolic link');
    }
    expect(readFileSync(victim, 'utf8')).toBe('victim\n');
    expect(readFileSync(path.join(project, 'README.md'), 'utf8')).toBe(readme);
  });

  it('-o and --summary naming a FIFO (in the project, absolute) or a device are refused at once: exit 2 naming option and path (sweep15 D11)', () => {
    const { project, outside } = sandbox();
    execFileSync('mkfifo', [path.join(project, 'out.json'), path.join(project, 'sum.txt'), path.join(outside, 'fifo')]);
    for (const [flag, file] of [['-o', 'out.json'], ['--summary', 'sum.txt'], ['-o', path.join(outside, 'fifo')], ['--summary', path.join(outside, 'fifo')], ['-o', '/dev/null']] as const) {
      // Blocked forever in open() before: the 30 s timeout killed it (status null).
      const r = runWith(project, ['--format', 'json', flag, file]);
      const option = flag === '-o' ? '--output-file' : '--summary';
      expect(r.status, `${flag} ${file}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`docdrift: ${option} takes a regular file; ${path.resolve(project, file)} is a ${file === '/dev/null' ? 'character device' : 'FIFO (named pipe)'}`);
    }
  });

  it('-o naming the baseline, a JSON Schema or a YAML file the run reads is refused; a new file is written', () => {
    const { project } = sandbox();
    writeFileSync(path.join(project, '.docdrift-baseline.json'), JSON.stringify({ version: 1, entries: [] }));
    mkdirSync(path.join(project, 'schemas'));
    writeFileSync(path.join(project, 'schemas/tool.json'), '{"type": "object", "properties": {}}');
    writeFileSync(path.join(project, 'values.yaml'), 'seed: 1\n');
    for (const target of ['.docdrift-baseline.json', 'schemas/tool.json', 'values.yaml']) {
      const before = readFileSync(path.join(project, target), 'utf8');
      const r = runWith(project, ['-o', target]);
      expect(r.status, `${target}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('the report would replace it');
      expect(readFileSync(path.join(project, target), 'utf8')).toBe(before);
    }
    const r = runWith(project, ['--format', 'json', '-o', 'report.json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(project, 'report.json'), 'utf8'))).toHaveProperty('results');
  });
});

describe('a config file linked outside the project is refused, not read (#33 item 12)', () => {
  it('docdrift.config.yaml -> a file outside: exit 2 naming the link, the file content never printed', () => {
    const { project, outside } = sandbox();
    const secret = path.join(outside, 'passwd');
    writeFileSync(secret, 'root:x:0:0:SECRET-FIRST-LINE:/root:/bin/bash\n');
    symlinkSync(secret, path.join(project, 'docdrift.config.yaml'));
    const r = run(project);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('symbolic link to a file outside the project');
    expect(r.stdout + r.stderr).not.toContain('SECRET-FIRST-LINE');
  });

  it('the same file passed with --config is read (the user named it)', () => {
    const { project, outside } = sandbox();
    writeFileSync(path.join(outside, 'cfg.json'), '{"rules": {}}');
    const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', '--config', path.join(outside, 'cfg.json')], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
  });

  it('--config naming a path inside the project that links out (the file or a folder on its path) is refused, not read (sweep note)', () => {
    const { project, outside } = sandbox();
    const secret = path.join(outside, 'passwd.yaml');
    writeFileSync(secret, 'root:x:0:0:SECRET-FIRST-LINE:/root:/bin/bash\n');
    symlinkSync(secret, path.join(project, 'ci-config.yaml'));
    symlinkSync(outside, path.join(project, 'conf'));
    for (const config of ['ci-config.yaml', 'conf/passwd.yaml']) {
      const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', '--config', config], { cwd: project, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain('leads through a symbolic link to a file outside the project');
      expect(r.stdout + r.stderr).not.toContain('SECRET-FIRST-LINE');
    }
  });
});

describe('a baseline file linked outside the project is refused, not read (sweep15 D8)', () => {
  it('.docdrift-baseline.json or --baseline inside the project -> a file outside: exit 2 naming the path, content never printed', () => {
    const { project, outside } = sandbox();
    const secret = path.join(outside, 'passwd');
    writeFileSync(secret, 'root:x:0:0:SECRET-FIRST-LINE:/root:/bin/bash\n');
    symlinkSync(secret, path.join(project, '.docdrift-baseline.json'));
    symlinkSync(secret, path.join(project, 'ci-baseline.json'));
    symlinkSync(outside, path.join(project, 'conf'));
    execFileSync('mkfifo', [path.join(project, 'fifo-baseline.json')]);
    for (const [args, shown] of [[[], '.docdrift-baseline.json'], [['--baseline', 'ci-baseline.json'], 'ci-baseline.json'], [['--baseline', 'conf/passwd'], 'conf/passwd']] as const) {
      const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', ...args], { cwd: project, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`cannot read the baseline ${shown}: EOUTSIDE (a symbolic link to a file outside the project); it is not read.`);
      expect(r.stdout + r.stderr).not.toContain('root:x');
    }
    // A FIFO inside the project: refused without waiting for a writer.
    const fifo = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', '--baseline', 'fifo-baseline.json'], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(fifo.status, fifo.stderr).toBe(2);
    expect(fifo.stderr).toContain('cannot read the baseline fifo-baseline.json: ENOTREG (not a regular file (a FIFO))');
  });

  it('a baseline outside the project named by its own path with --baseline is read (the user named it)', () => {
    const { project, outside } = sandbox();
    writeFileSync(path.join(outside, 'baseline.json'), JSON.stringify({ version: 1, entries: [] }));
    const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache', '--baseline', path.join(outside, 'baseline.json')], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('empty paths and a missing HOME (#33 item 15)', () => {
  it("--config '', --cache-location '' and --baseline '' are refused (exit 2), nothing is written into the root", () => {
    const { project } = sandbox();
    for (const flag of ['--config', '--cache-location', '--baseline']) {
      const r = spawnSync(process.execPath, [BIN, '--root', project, flag, ''], { cwd: project, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, `${flag}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${flag} needs a path; got an empty value`);
    }
    expect(readdirSync(project).filter((n) => /^(run|result)-/.test(n))).toEqual([]);
  });

  it("--root '' and --root= are refused (exit 2), not taken as the current directory (s22 sweep D10)", () => {
    const { project } = sandbox();
    for (const args of [['--root', ''], ['--root=']]) {
      const r = spawnSync(process.execPath, [BIN, ...args, '--no-cache'], { cwd: project, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('--root needs a directory; got an empty value');
      expect(r.stdout).toBe('');
    }
  });

  it('a baseline or JSON Schema hard-linked to a file outside: refused (the baseline, s24 sweep D12) or a JSON error that says where and quotes none of it (s23 sweep D6)', () => {
    const { project, outside } = sandbox();
    writeFileSync(path.join(outside, 'secret'), 'TOPSECRET-hunter2 line\n');
    linkSync(path.join(outside, 'secret'), path.join(project, '.docdrift-baseline.json'));
    let r = spawnSync(process.execPath, [BIN, '--no-cache'], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the baseline .docdrift-baseline.json has 2 names (hard links)');
    expect(r.stderr + r.stdout).not.toContain('TOPSECRET');
    // Named with --baseline it is read: the JSON error quotes none of it.
    r = spawnSync(process.execPath, [BIN, '--no-cache', '--baseline', '.docdrift-baseline.json'], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.docdrift-baseline.json:1:1: the baseline is not valid JSON (an unexpected character)');
    expect(r.stderr + r.stdout).not.toContain('TOPSECRET');
    rmSync(path.join(project, '.docdrift-baseline.json'));
    mkdirSync(path.join(project, 'schemas'));
    linkSync(path.join(outside, 'secret'), path.join(project, 'schemas/s.json'));
    writeFileSync(path.join(project, 'docdrift.config.json'), '{"commands": {"tool": {"config": "schemas/s.json#S"}}}');
    r = spawnSync(process.execPath, [BIN, '--no-cache'], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('schemas/s.json is not valid JSON (line 1, column 1: an unexpected character)');
    expect(r.stderr + r.stdout).not.toContain('TOPSECRET');
  });

  it('a path or glob argument through an in-project link out of the root is refused, not walked nor passed silently (s23 sweep D5)', () => {
    const { project, outside } = sandbox();
    mkdirSync(path.join(outside, 'deep/er'), { recursive: true });
    writeFileSync(path.join(outside, 'o.md'), '# o\n\n```bash\ntool +sed=1\n```\n');
    writeFileSync(path.join(outside, 'deep/er/x.md'), '# x\n');
    symlinkSync(outside, path.join(project, 'docs/ol'));
    for (const arg of ['docs/ol/o.md', 'docs/ol', 'docs/ol/**/*.md', 'docs/ol/deep/*/x.md']) {
      for (const fix of [[], ['--fix']]) {
        const r = spawnSync(process.execPath, [BIN, '--no-cache', ...fix, '--', arg], { cwd: project, encoding: 'utf8', timeout: 30_000 });
        expect(r.status, `${arg} ${fix.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/is reached through a symbolic link to a place outside the project root|reaches outside the project root/);
        expect(r.stdout).not.toContain('nothing to fix');
      }
    }
  });

  it("init --root '' and --root= are refused too, and write nothing (s23 sweep D8)", () => {
    const { project } = sandbox();
    const sub = path.join(project, 'sub');
    mkdirSync(sub);
    for (const args of [['--root', ''], ['--root=']]) {
      const r = spawnSync(process.execPath, [BIN, 'init', ...args], { cwd: sub, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('docdrift init: --root needs a directory; got an empty value');
      expect(readdirSync(sub)).toEqual([]);
    }
  });

  it('a HOME that does not exist is not created: the run goes without the cache', () => {
    const { project, outside } = sandbox();
    const home = path.join(outside, 'no-such-home');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '1' };
    delete env.XDG_CACHE_HOME;
    const r = spawnSync(process.execPath, [BIN, '--root', project, '--cache-location', path.join(outside, 'cache')], { cwd: project, encoding: 'utf8', env, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(home)).toBe(false);
    expect(r.stderr).toContain('does not exist');
  });

  it('nor an XDG_CACHE_HOME under a HOME that does not exist: one line, nothing made (s31 sweep D3)', () => {
    const { project, outside } = sandbox();
    const home = path.join(outside, 'no-such-home');
    for (const xdg of [path.join(home, '.cache'), path.join(outside, 'no-such-cache')]) {
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: xdg, NO_COLOR: '1' };
      const r = spawnSync(process.execPath, [BIN, '--root', project, '--cache-location', path.join(outside, 'cache')], { cwd: project, encoding: 'utf8', env, timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(home), xdg).toBe(false);
      expect(existsSync(xdg), xdg).toBe(false);
      expect(r.stderr.trim().split('\n'), r.stderr).toEqual([`docdrift: cache not used: no cache key (the cache directory ${xdg} (XDG_CACHE_HOME) does not exist; no cache key is made); this run parsed every file.`]);
    }
  });
});

describe('a line feed in a file name cannot forge an output line (#33 item 13)', () => {
  it('stylish output writes it as \\n on the file line', () => {
    const { project } = sandbox();
    writeFileSync(path.join(project, 'docs', 'a\nREADME.md:1:1  error  forged.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache'], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('docs/a\\nREADME.md:1:1  error  forged.md');
    expect(lines.some((l) => l.startsWith('README.md:1:1'))).toBe(false);
  });

  it('writes U+2028 and U+2029 in a file name as \\u2028 and \\u2029, in findings and in notes', async () => {
    const { project } = sandbox();
    writeFileSync(path.join(project, 'docs', 'a\u2028README.md:1:1 error\u2029forged.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    const r = spawnSync(process.execPath, [BIN, '--root', project, '--no-cache'], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(/[\u2028\u2029]/);
    expect(r.stdout.split('\n')).toContain('docs/a\\u2028README.md:1:1 error\\u2029forged.md');
    const { formatNotes } = await import('../src/report/notes.js');
    expect(formatNotes(['docs/a\u2028forged: line'])).toBe('docdrift: docs/a\\u2028forged: line\n');
  });

  it('a note holding a line feed stays one stderr line', async () => {
    const { formatNotes } = await import('../src/report/notes.js');
    expect(formatNotes(['docs/a\nforged: line'])).toBe('docdrift: docs/a\\nforged: line\n');
  });
});
