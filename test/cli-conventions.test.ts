/**
 * ESLint-grade command-line conventions (issue #16 item 4, #17 items 4 and 10): the built CLI is
 * spawned as a user runs it, and exit codes, stdout and stderr are checked.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFLICTING_FLAGS, useColor } from '../src/cli.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

function run(args: string[], env: Record<string, string | undefined> = { NO_COLOR: '1' }, cwd = ROOT) {
  const base = { ...process.env };
  delete base['NO_COLOR'];
  delete base['FORCE_COLOR'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...base, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function tmp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-cli-'));
  temps.push(dir);
  return dir;
}

describe('usage errors exit 2 with one clear line and no stack', () => {
  it('run from a folder that no longer exists (a shell left in it): exit 2, one line, even for --version (s40 sweep D4)', () => {
    for (const args of [['--root', EXAMPLE, '--no-cache'], ['--version']]) {
      const gone = tmp();
      const r = spawnSync('sh', ['-c', 'cd "$0" && rmdir "$0" && exec "$@"', gone, process.execPath, BIN, ...args], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toBe('docdrift: the current directory no longer exists; run docdrift from an existing directory.\n');
      expect(r.stdout).toBe('');
    }
  });

  it('an unknown option names itself and suggests the nearest', () => {
    const r = run(['--root', EXAMPLE, '--max-warning', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--max-warning'");
    expect(r.stderr).toContain('Did you mean --max-warnings?');
    expect(r.stdout).toBe('');
  });

  it('an unknown option far from every real one gets no suggestion (#32: `--foo` is not a typo of `--root`)', () => {
    const far = run(['--root', EXAMPLE, '--foo']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain("unknown option '--foo'");
    expect(far.stderr).not.toContain('Did you mean');
    const typo = run(['--root', EXAMPLE, '--quite']);
    expect(typo.stderr).toContain('Did you mean --quiet?');
  });

  it.each(CONFLICTING_FLAGS.map(([a, b]) => [a, b]))('--%s with --%s is refused', (a, b) => {
    const arg = (flag: string) => (['baseline', 'cache-location'].includes(flag) ? [`--${flag}`, path.join(tmp(), 'x')] : [`--${flag}`]);
    const r = run(['--root', EXAMPLE, ...arg(a), ...arg(b)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--${a} cannot be combined with --${b}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['--cache-location', '--no-cache', 'directory'],
    ['-o', '--fix', 'file'],
    ['--summary', '-h', 'file'],
    ['--baseline', '--write-baseline', 'file'],
    ['--config', '--quiet', 'file'],
  ])('%s %s takes a forgotten value for an option and creates nothing (s25 sweep O7)', (flag, value, what) => {
    const dir = tmp();
    const r = run(['--root', EXAMPLE, flag, value], { NO_COLOR: '1' }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`needs a ${what}, but got the option ${value} (for a ${what} of that name, write ./${value})`);
    expect(existsSync(path.join(dir, value))).toBe(false);
    // The way around it names a file of that name, and is taken.
    const named = run(['--root', EXAMPLE, '--cache-location', `./${value}`], { NO_COLOR: '1' }, dir);
    expect(named.stderr).not.toContain('but got the option');
  });

  it('-o=FILE (a short option with =) is refused, naming the spellings that work (s26 sweep O1: a file named = was written)', () => {
    const dir = tmp();
    for (const arg of ['-o=', '-o=report.txt']) {
      const r = run(['--root', EXAMPLE, arg], { NO_COLOR: '1' }, dir);
      expect(r.code, arg).toBe(2);
      expect(r.stderr, arg).toContain('a short option takes its value as the next argument');
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--fix-dry-run --write-baseline writes no baseline', () => {
    const dir = tmp();
    const file = path.join(dir, 'baseline.json');
    const r = run(['--root', EXAMPLE, '--fix-dry-run', '--write-baseline', '--baseline', file]);
    expect(r.code).toBe(2);
    expect(existsSync(file)).toBe(false);
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])('--format=%s is not a format', (name) => {
    const r = run(['--root', EXAMPLE, `--format=${name}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`docdrift: --format must be one of stylish, json, sarif, github; got "${name}".\n`);
  });

  it.each(['', ' ', '0x10', '1e3', '1.5', '--quiet'])('--max-warnings %j is refused', (value) => {
    const r = run(['--root', EXAMPLE, '--max-warnings', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-warnings takes a whole number');
  });

  it('--max-warnings -1 (no limit) and 10 are accepted', () => {
    expect(run(['--root', EXAMPLE, '--max-warnings', '-1', '--quiet']).code).toBe(1);
    expect(run(['--root', EXAMPLE, '--max-warnings=10']).code).toBe(1);
  });

  it('--summary with an empty value, a directory or a missing directory says which', () => {
    const dir = tmp();
    expect(run(['--root', EXAMPLE, '--summary', '']).stderr).toContain('--summary needs a file path; got an empty value');
    expect(run(['--root', EXAMPLE, '--summary', dir]).stderr).toContain(`--summary takes a file; ${dir} is a directory`);
    const missing = run(['--root', EXAMPLE, '--summary', path.join(dir, 'no/such/summary.md')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    expect(missing.stderr).not.toContain('EISDIR');
  });

  it('--summary - prints the summary on stdout after the report, and writes no file named -', () => {
    const cwd = tmp();
    const r = run(['--root', EXAMPLE, '--summary', '-', '--no-cache'], { NO_COLOR: '1' }, cwd);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('resume_from_cache');
    expect(r.stdout.indexOf('example-param-undocumented')).toBeLessThan(r.stdout.lastIndexOf('| '));
    expect(r.stdout).toMatch(/^#+ .*docdrift/m);
    expect(existsSync(path.join(cwd, '-'))).toBe(false);
    const json = run(['--root', EXAMPLE, '--summary', '-', '--format', 'json'], { NO_COLOR: '1' }, cwd);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('would corrupt the json report');
  });

  it('--fix-dry-run with a machine format needs --output-file, so the diff cannot corrupt it', () => {
    const r = run(['--root', EXAMPLE, '--fix-dry-run', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output-file');
  });
});

describe('paths', () => {
  it('arguments after -- are paths, even when they look like options', () => {
    const r = run(['--root', EXAMPLE, '--', '--fix']);
    expect(r.code).toBe(2);
    // `--fix` is a path here: missing, and outside the root given (paths resolve from the current directory).
    expect(r.stderr).toMatch(/no such file or directory: --fix|--fix is outside the project root/);
  });

  it('a path that names no file the run reads is said in a note, not passed silently (#33 s23 sweep O6)', () => {
    const dir = tmp();
    cpSync(path.join(ROOT, 'fixtures/bad-input/_base'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'docs/-o'), '# tool\n\n```bash\ntool +sed=1\n```\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'tool +sed=1\n');
    const only = run(['--no-cache', '--format', 'json', '--', 'docs/-o'], { NO_COLOR: '1' }, dir);
    expect(only.code).toBe(0);
    expect((JSON.parse(only.stdout) as { notes: string[] }).notes).toContain(
      'nothing was checked for the path given (docs/-o): it names no document, source or packaging file docdrift reads (see "docs", "sources" and "ignore" in the config).',
    );
    const mixed = run(['--no-cache', 'docs/reference.md', 'notes.txt', 'pyproject.toml', 'tool'], { NO_COLOR: '1' }, dir);
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toContain('nothing was checked for 1 of the 4 paths given (notes.txt): it names no document');
    // Files and directories the run reads, the config file and the baseline get no such note.
    writeFileSync(path.join(dir, 'docdrift.config.json'), '{}\n');
    const read = run(['--no-cache', 'docs', 'tool/cli.py', 'docdrift.config.json', '.'], { NO_COLOR: '1' }, dir);
    expect(read.code).toBe(0);
    expect(read.stderr).not.toContain('nothing was checked');
  });

  it('-o - writes the report on stdout; -o onto the baseline path is refused even before a baseline exists (s24 sweep D16, D11)', () => {
    const dir = tmp();
    cpSync(path.join(ROOT, 'fixtures/bad-input/_base'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'docs/reference.md'), readFileSync(path.join(dir, 'docs/reference.md'), 'utf8').replace('`0`', '`5`'));
    const dash = run(['--no-cache', '--format', 'json', '-o', '-'], { NO_COLOR: '1' }, dir);
    expect(dash.code).toBe(1);
    expect((JSON.parse(dash.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, '-'))).toBe(false);
    const onBaseline = run(['--no-cache', '-o', '.docdrift-baseline.json'], { NO_COLOR: '1' }, dir);
    expect(onBaseline.code).toBe(2);
    expect(onBaseline.stderr).toContain('the path of the baseline file, which later runs would read');
    expect(existsSync(path.join(dir, '.docdrift-baseline.json'))).toBe(false);
    expect(run(['--no-cache'], { NO_COLOR: '1' }, dir).code).toBe(1);
    // So are the names later runs read as the config or a manifest (s25 sweep D2: the report became
    // docdrift.config.json, and every later run exited 2 on its keys).
    for (const [file, what] of [['docdrift.config.json', 'configuration'], ['.docdriftrc.yml', 'configuration'], ['package.json', 'packaging'], ['tool/pyproject.toml', 'packaging']] as const) {
      const r = run(['--no-cache', '--format', 'json', '-o', file], { NO_COLOR: '1' }, dir);
      expect(r.code, file).toBe(2);
      expect(r.stderr).toContain(`is the path of a ${what} file, which later runs would read`);
      expect(existsSync(path.join(dir, file))).toBe(false);
    }
    // Another name in the same place is fine.
    expect(run(['--no-cache', '--format', 'json', '-o', 'docdrift-report.json'], { NO_COLOR: '1' }, dir).code).toBe(1);
    expect(run(['--no-cache'], { NO_COLOR: '1' }, dir).code).toBe(1);
  });

  it('a glob selects the files it matches; a glob matching nothing is an error', () => {
    const all = JSON.parse(run(['--root', EXAMPLE, '--format', 'json']).stdout) as { results: Array<{ file: string }> };
    const r = run(['--root', EXAMPLE, '--format', 'json', 'fixtures/example-python/benchmarks/*/README.md']);
    expect(r.code).toBe(1);
    const files = [...new Set((JSON.parse(r.stdout) as { results: Array<{ file: string }> }).results.map((m) => m.file))].sort();
    expect(files).toEqual(['benchmarks/aime24/README.md', 'benchmarks/gpqa/README.md']);
    expect(all.results.length).toBeGreaterThan(files.length);
    const none = run(['--root', EXAMPLE, 'fixtures/example-python/**/*.rst']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no files match the pattern fixtures/example-python/**/*.rst');
  });

  it('a code file as the path also reports the docs its config class makes stale', () => {
    const r = run(['--root', EXAMPLE, '--format', 'json', '--no-cache', 'fixtures/example-python/nemo_gym/rollout_collection.py']);
    expect(r.code).toBe(1);
    const results = (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; data: { name?: string } }> }).results;
    expect(results.some((m) => m.ruleId === 'reference-param-missing' && m.file === 'docs/reference/cli-commands.mdx')).toBe(true);
    expect(results.some((m) => m.ruleId === 'example-param-undocumented' && m.file === 'benchmarks/gpqa/README.md')).toBe(true);
  });
});

describe('output', () => {
  it('--debug gives a command\'s parameter count and, when it differs, how many are to be documented (positional ones are not)', () => {
    const root = path.join(ROOT, 'fixtures/layouts/help-argparse/valid');
    const r = run(['--root', root, '--no-cache', '--debug']);
    expect(r.code).toBe(0);
    // quill: `text` (positional), `--ink-color`, `--nib`.
    expect(r.stderr).toContain('command quill → (CLI flags) [3 params (2 to document: positional, hidden and ignored ones and second spellings are not), 1 reference sections]');
  });

  it('-o writes the report to the file, uncoloured, and nothing to stdout', () => {
    const file = path.join(tmp(), 'report.json');
    const r = run(['--root', EXAMPLE, '-o', file, '--format', 'json'], { FORCE_COLOR: '1' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const report = JSON.parse(readFileSync(file, 'utf8')) as { results: unknown[] };
    expect(report.results.length).toBeGreaterThan(0);
    const stylish = path.join(tmp(), 'report.txt');
    run(['--root', EXAMPLE, '--output-file', stylish], { FORCE_COLOR: '1' });
    expect(readFileSync(stylish, 'utf8')).not.toContain('\u001B[');
  });

  it('refuses to write the report over a file the run reads (exit 2, the file untouched), and writes a new report file inside the project', () => {
    const root = path.join(tmp(), 'project');
    cpSync(EXAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== '.docdrift-cache' });
    writeFileSync(path.join(root, 'docdrift.config.json'), '{}\n');
    for (const [flag, target] of [['-o', 'README.md'], ['--output-file', 'docs/reference/cli-commands.mdx'], ['-o', 'pyproject.toml'], ['-o', 'nemo_gym/e2e.py'], ['--summary', 'README.md'], ['-o', 'docdrift.config.json']] as const) {
      const before = readFileSync(path.join(root, target));
      const r = run(['--root', root, '--no-cache', flag, path.join(root, target)]);
      expect({ target, code: r.code }).toEqual({ target, code: 2 });
      expect(r.stderr).toMatch(/the report would replace it/);
      expect(readFileSync(path.join(root, target)).equals(before)).toBe(true);
    }
    // Git's data and the files git and discovery read by name, existing or not; an example env
    // file; the cache folder (s30 sweep2 D1: `-o .gitignore` and `-o .git/config` were emptied).
    mkdirSync(path.join(root, '.git'), { recursive: true });
    writeFileSync(path.join(root, '.git/config'), '[core]\n\tbare = false\n');
    writeFileSync(path.join(root, '.gitignore'), 'build/\n');
    writeFileSync(path.join(root, '.env.example'), 'TOKEN=\n');
    for (const target of ['.gitignore', '.git/config', '.git/HEAD-new', 'docs/.gitattributes', '.gitmodules', '.env.example', '.docdrift-cache/report.txt']) {
      mkdirSync(path.dirname(path.join(root, target)), { recursive: true });
      const existed = existsSync(path.join(root, target));
      const before = existed ? readFileSync(path.join(root, target)) : undefined;
      const r = run(['--root', root, '--no-cache', '-o', path.join(root, target)]);
      expect({ target, code: r.code, stderr: r.stderr }).toMatchObject({ target, code: 2, stderr: expect.stringMatching(/the report would replace it/) });
      if (before) expect(readFileSync(path.join(root, target)).equals(before)).toBe(true);
      else expect(existsSync(path.join(root, target))).toBe(false);
    }
    const report = path.join(root, 'docdrift-report.json');
    // An existing file the run does not read is replaced (the env-file list's negation once refused every file).
    writeFileSync(report, 'old report\n');
    const ok = run(['--root', root, '--no-cache', '--format', 'json', '-o', report]);
    expect(ok.code).toBe(1);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toHaveProperty('results');
  });

  it('refuses to write the report over the site and program files the run reads: a Docusaurus config, sidebars, tsconfig, version files (#33 s38 sweep D4: replaced)', () => {
    const root = path.join(tmp(), 'project');
    cpSync(EXAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== '.docdrift-cache' });
    for (const [target, text] of [['docusaurus.config.js', 'module.exports = { url: "https://x.org" };\n'], ['website/siteConfig.js', 'module.exports = {};\n'], ['sidebars.js', 'module.exports = {};\n'], ['tsconfig.json', '{}\n'], ['website/versions.json', '["1.0"]\n'], ['docs/docs.json', '{}\n']] as const) {
      mkdirSync(path.dirname(path.join(root, target)), { recursive: true });
      writeFileSync(path.join(root, target), text);
      for (const flag of target === 'docusaurus.config.js' ? ['-o', '--summary'] : ['-o']) {
        const r = run(['--root', root, '--no-cache', flag, path.join(root, target)]);
        expect({ target, flag, code: r.code, stderr: r.stderr }).toMatchObject({ target, flag, code: 2, stderr: expect.stringMatching(/the report would replace it/) });
        expect(readFileSync(path.join(root, target), 'utf8')).toBe(text);
      }
    }
  }, 120_000);

  it('refuses one file for both -o and --summary (exit 2, nothing written; s39 sweep D4: JSON then Markdown in one file)', () => {
    const dir = tmp();
    const target = path.join(dir, 'report.json');
    const r = run(['--root', EXAMPLE, '--no-cache', '--format', 'json', '-o', target, '--summary', path.join(dir, '.', 'report.json')]);
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(/name the same file/) });
    expect(existsSync(target)).toBe(false);
  });

  it('FORCE_COLOR colours piped output; FORCE_COLOR=0 and NO_COLOR do not; --no-color wins', () => {
    expect(run(['--root', EXAMPLE], { FORCE_COLOR: '1' }).stdout).toContain('\u001B[31merror\u001B[39m');
    expect(run(['--root', EXAMPLE], { FORCE_COLOR: '0' }).stdout).not.toContain('\u001B[');
    expect(run(['--root', EXAMPLE], { NO_COLOR: '1' }).stdout).not.toContain('\u001B[');
    expect(run(['--root', EXAMPLE, '--no-color'], { FORCE_COLOR: '1' }).stdout).not.toContain('\u001B[');
  });

  it('useColor: flags, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(useColor({ color: false, noColor: false }, {}, true)).toBe(true);
    expect(useColor({ color: false, noColor: false }, {}, false)).toBe(false);
    expect(useColor({ color: false, noColor: false }, { NO_COLOR: '1' }, true)).toBe(false);
    expect(useColor({ color: false, noColor: false }, { NO_COLOR: '' }, true)).toBe(true);
    expect(useColor({ color: false, noColor: false }, { FORCE_COLOR: '', NO_COLOR: '1' }, false)).toBe(true);
    expect(useColor({ color: false, noColor: false }, { FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(useColor({ color: true, noColor: false }, { FORCE_COLOR: '0' }, false)).toBe(true);
  });

  it('the summary counts the problems --fix can correct, as ESLint does', () => {
    const r = run(['--root', EXAMPLE]);
    expect(r.stdout).toMatch(/✖ \d+ problems \(\d+ errors, \d+ warnings\)\n {2}3 errors and 0 warnings potentially fixable with the `--fix` option\.\n$/);
  });
});

describe('a clean run on a terminal says what it checked', () => {
  const CLEAN = path.join(ROOT, 'fixtures/frameworks/cac/valid');
  async function inProcess(root: string, isTTY: boolean, extra: string[] = []) {
    const { main } = await import('../src/cli.js');
    let stdout = '';
    let stderr = '';
    const code = await main(['--root', root, '--no-cache', ...extra], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: root, isTTY, env: { NO_COLOR: '1' } });
    return { code, stdout, stderr };
  }
  it('prints one line with the number of commands and documents on a terminal', async () => {
    const r = await inProcess(CLEAN, true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^docdrift: no problems \(4 commands checked against \d+ documents?\)\.\n$/);
  });
  it('prints nothing when stdout is a pipe, as ESLint does', async () => {
    const r = await inProcess(CLEAN, false);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
  it('prints the findings, not the line, when there are some', async () => {
    const r = await inProcess(EXAMPLE, true);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('no problems');
    expect(r.stdout).toMatch(/✖ \d+ problems/);
  });
});

describe('odd option values say what is wrong (s23 sweep O3)', () => {
  it('--max-warnings below -1 is refused; --baseline=. names the path it could not read', () => {
    const r = run(['--root', EXAMPLE, '--no-cache', '--max-warnings=-2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-warnings takes a whole number (-1 for no limit); got "-2"');
    const b = run(['--root', EXAMPLE, '--no-cache', '--baseline=.'], { NO_COLOR: '1' }, EXAMPLE);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('cannot read the baseline .:');
  });
});
