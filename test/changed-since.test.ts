/** `--changed-since REF` end to end: temp git repositories made from fixtures/example-python, the built CLI spawned. */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/schema.js';
import { changedFiles, commandSourceFiles, selectAffected } from '../src/engine/changed.js';
import { lint } from '../src/api.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'docdrift test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'docdrift test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  // Never find a repository above the temp directories.
  GIT_CEILING_DIRECTORIES: tmpdir(),
};

interface Finding {
  file: string;
  ruleId: string;
  data: Record<string, string>;
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

/** A git repository holding a copy of the example, everything committed on `main`. */
function exampleRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-changed-'));
  temps.push(dir);
  cpSync(EXAMPLE, dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'example');
  return dir;
}

function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const abs = path.join(dir, file);
  const before = readFileSync(abs, 'utf8');
  const after = before.replace(from, to);
  expect(after, `${file} must contain ${String(from)}`).not.toBe(before);
  writeFileSync(abs, after);
}

function run(dir: string, args: string[]) {
  const r = spawnSync(process.execPath, [BIN, '--format', 'json', ...args], { cwd: dir, encoding: 'utf8', env: { ...GIT_ENV, NO_COLOR: '1' } });
  const results = r.status === 2 ? [] : (JSON.parse(r.stdout) as { results: Finding[] }).results;
  return { code: r.status, results, stderr: r.stderr };
}

const summary = (results: Finding[]) => results.map((r) => `${r.file} ${r.ruleId} ${r.data.name ?? r.data.params ?? ''}`);

// Each run reads the whole example (1–3 s alone, much more on a shared machine).
describe('--changed-since', { timeout: 120_000 }, () => {
  it('reports nothing when nothing changed', () => {
    const dir = exampleRepo();
    expect(run(dir, []).results.length).toBeGreaterThan(5);
    const { code, results } = run(dir, ['--changed-since', 'main']);
    expect(results).toEqual([]);
    expect(code).toBe(0);
    // A commit named by its message (s25 sweep O3: read as "example^{commit}", "not a commit").
    const byMessage = run(dir, ['--changed-since', ':/example']);
    expect(byMessage.stderr).not.toContain('is not a commit');
    expect(byMessage.code).toBe(0);
    expect(run(dir, ['--changed-since', ':/no such message']).stderr).toContain('is not a commit');
  });

  it('a docs-only change reports only the findings in that doc', () => {
    const dir = exampleRepo();
    edit(dir, 'benchmarks/gpqa/README.md', '+num_repeat=4', '+num_repeats=4');
    const { code, results } = run(dir, ['--changed-since', 'main']);
    expect(code).toBe(1);
    expect(summary(results)).toEqual(['benchmarks/gpqa/README.md example-param-undocumented resume_from_cache']);
  });

  it('an untracked doc counts as changed; one git excludes does not', () => {
    const dir = exampleRepo();
    // .git/info/exclude hides scratch/ from git but not from docdrift (which reads .gitignore files only).
    writeFileSync(path.join(dir, '.git/info/exclude'), 'scratch/\n');
    mkdirSync(path.join(dir, 'scratch'));
    cpSync(path.join(EXAMPLE, 'README.md'), path.join(dir, 'scratch/README.md'));
    writeFileSync(path.join(dir, 'NEW.md'), '# New\n\n```bash\nng_collect_rollouts +agent_nam=x\n```\n');
    expect(run(dir, []).results.some((r) => r.file === 'scratch/README.md')).toBe(true);
    const { results } = run(dir, ['--changed-since', 'HEAD']);
    expect(summary(results)).toEqual(['NEW.md example-param-unknown agent_nam']);
  });

  it('a renamed field reports the stale rows and examples in the untouched README and reference', () => {
    const dir = exampleRepo();
    edit(dir, 'nemo_gym/rollout_collection.py', '    resume_from_cache: bool', '    resume: bool');
    const { code, results } = run(dir, ['--changed-since', 'main']);
    expect(code).toBe(1);
    const lines = summary(results);
    // The README example now passes a removed name; the reference lacks the new one.
    expect(lines).toContain('README.md example-param-unknown resume_from_cache');
    expect(lines).toContain('resources_servers/weather/README.md example-param-unknown resume_from_cache');
    expect(lines.filter((l) => l === 'docs/reference/cli-commands.mdx reference-param-missing resume')).toHaveLength(2);
    // Nothing reported is in the changed file itself: these are docs made stale by code.
    expect(new Set(results.map((r) => r.file)).has('nemo_gym/rollout_collection.py')).toBe(false);
  });

  it('a changed default reports the now-wrong documented default', () => {
    const dir = exampleRepo();
    edit(dir, 'nemo_gym/rollout_collection.py', /limit: Optional\[int\] = Field\(\n\s+default=None/, 'limit: Optional[int] = Field(\n        default=100');
    const { results } = run(dir, ['--changed-since', 'main']);
    const mismatch = results.filter((r) => r.ruleId === 'reference-default-mismatch' && r.data.name === 'limit');
    expect(mismatch.map((r) => [r.file, r.data.actual, r.data.documented])).toEqual([
      ['docs/reference/cli-commands.mdx', '100', 'None'],
    ]);
  });

  it('a field removed in a commit on a branch is caught against the merge base, and paths intersect', () => {
    const dir = exampleRepo();
    git(dir, 'checkout', '-q', '-b', 'feature');
    edit(
      dir,
      'nemo_gym/rollout_collection.py',
      /    num_samples_in_parallel: Optional\[int\] = Field\(\n.*\n    \)\n/,
      '',
    );
    git(dir, 'commit', '-q', '-am', 'remove num_samples_in_parallel');
    // A later commit on main touches a doc; it is not a change of this branch.
    git(dir, 'checkout', '-q', 'main');
    edit(dir, 'benchmarks/aime24/README.md', 'ng_e2e_collect_rollouts', 'ng_e2e_collect_rollouts +limitt=3');
    git(dir, 'commit', '-q', '-am', 'main moves on');
    git(dir, 'checkout', '-q', 'feature');

    const { results } = run(dir, ['--changed-since', 'main']);
    const unknown = summary(results).filter((l) => / (example|reference)-param-unknown num_samples_in_parallel$/.test(l));
    expect(unknown).toEqual([
      'docs/reference/cli-commands.mdx reference-param-unknown num_samples_in_parallel',
      'docs/reference/cli-commands.mdx reference-param-unknown num_samples_in_parallel',
      'resources_servers/weather/README.md example-param-unknown num_samples_in_parallel',
    ]);
    expect(summary(results).some((l) => l.includes('limitt'))).toBe(false);

    const scoped = run(dir, ['--changed-since', 'main', 'resources_servers']);
    expect(new Set(scoped.results.map((r) => r.file))).toEqual(new Set(['resources_servers/weather/README.md']));
    expect(scoped.results.length).toBeGreaterThan(0);
  });

  it('exits 2 with a clear message for an unknown ref or outside a git repository', () => {
    const dir = exampleRepo();
    const bad = run(dir, ['--changed-since', 'no-such-branch']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"no-such-branch" is not a commit');
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const plain = mkdtempSync(path.join(tmpdir(), 'docdrift-nogit-'));
    temps.push(plain);
    cpSync(EXAMPLE, plain, { recursive: true });
    const none = run(plain, ['--changed-since', 'main']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('is not inside a git repository');
  });
  it.skipIf(process.platform === 'win32')('a git that fails without an answer is not taken for "not a git repository" (s42 sweep E4)', () => {
    const dir = exampleRepo();
    const runWith = (bin: string) => {
      const r = spawnSync(process.execPath, [BIN, '--format', 'json', '--changed-since', 'main'], { cwd: dir, encoding: 'utf8', env: { ...GIT_ENV, NO_COLOR: '1', PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` } });
      return { code: r.status, stderr: r.stderr };
    };
    const killed = mkdtempSync(path.join(tmpdir(), 'docdrift-git-killed-'));
    const loop = mkdtempSync(path.join(tmpdir(), 'docdrift-git-loop-'));
    temps.push(killed, loop);
    writeFileSync(path.join(killed, 'git'), '#!/bin/sh\nkill -9 $$\n', { mode: 0o755 });
    symlinkSync('git', path.join(loop, 'git'));
    const k = runWith(killed);
    expect(k.code).toBe(2);
    expect(k.stderr).toBe(`docdrift: --changed-since main: git could not tell whether ${dir} is inside a git repository (git exited with SIGKILL).\n`);
    const l = runWith(loop);
    expect(l.code).toBe(2);
    expect(l.stderr).not.toContain('is not inside a git repository');
    expect(l.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('--fix applies only the fixes of findings in scope: a reference page the change never touched is not rewritten', () => {
    const dir = exampleRepo();
    const reference = path.join(dir, 'docs/reference/cli-commands.mdx');
    const before = readFileSync(reference, 'utf8');
    edit(dir, 'benchmarks/gpqa/README.md', '+num_repeat=4', '+num_repeats=4');
    const r = run(dir, ['--changed-since', 'main', '--fix']);
    expect(r.stderr).toContain('docdrift: nothing to fix.');
    expect(readFileSync(reference, 'utf8')).toBe(before);
    // Without the scope the same run fixes the reference page.
    run(dir, ['--fix']);
    expect(readFileSync(reference, 'utf8')).not.toBe(before);
  });
});


describe('selectAffected and commandSourceFiles', { timeout: 120_000 }, () => {
  it('tie a command to every file its parameters come from, and a changed config file to every finding', async () => {
    const { messages, model } = await lint({ root: EXAMPLE, config: defaultConfig() });
    const e2e = model.commandByName('ng_e2e_collect_rollouts')!;
    // Its class, the base it extends through an aliased import, the grandparent, and the script line.
    expect([...commandSourceFiles(model, e2e)].sort()).toEqual([
      'nemo_gym/config_types.py',
      'nemo_gym/e2e.py',
      'nemo_gym/rollout_collection.py',
      'pyproject.toml',
    ]);
    expect(selectAffected(messages, model, new Set())).toEqual([]);
    expect(selectAffected(messages, model, new Set(['docdrift.config.json']), 'docdrift.config.json')).toEqual(messages);
    // e2e.py only defines `split`: findings about ng_collect_rollouts are untouched by it.
    const e2eOnly = selectAffected(messages, model, new Set(['nemo_gym/e2e.py']));
    expect(new Set(e2eOnly.map((m) => m.data.command))).toEqual(new Set(['ng_e2e_collect_rollouts']));
  });
});

describe('git runs on hostile repositories (#17 items 6 and 12, #18 item 9)', { timeout: 180_000 }, () => {
  it('never runs the core.fsmonitor command or a clean filter of .git/config, in a plain run or with --changed-since', () => {
    const dir = exampleRepo();
    const marker = path.join(dir, '..', `${path.basename(dir)}-ran`);
    const hook = path.join(dir, '..', `${path.basename(dir)}-hook.sh`);
    const filter = path.join(dir, '..', `${path.basename(dir)}-filter.sh`);
    temps.push(marker, hook, filter);
    // The fsmonitor hook fails (git then scans by itself); the clean filter passes the content through.
    writeFileSync(hook, `#!/bin/sh\necho "fsmonitor $*" >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    writeFileSync(filter, `#!/bin/sh\necho "filter $*" >> '${marker}'\nexec cat\n`, { mode: 0o755 });
    git(dir, 'config', 'core.fsmonitor', hook);
    git(dir, 'config', 'filter.evil.clean', filter);
    writeFileSync(path.join(dir, '.gitattributes'), '*.md filter=evil\n');
    edit(dir, 'benchmarks/gpqa/README.md', '+num_repeat=4', '+num_repeats=4');
    run(dir, ['--no-cache']);
    run(dir, ['--changed-since', 'main']);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });

  // s25 sweep D1: a filter listing over 1 MB failed, was read as "no drivers", and `git diff` ran the clean filter.
  it('never runs a clean filter when the configuration defines too many drivers to disable: exit 2 naming why', () => {
    const dir = exampleRepo();
    const marker = path.join(dir, '..', `${path.basename(dir)}-ran-many`);
    temps.push(marker);
    git(dir, 'config', 'filter.evil.clean', `touch '${marker}'; cat`);
    writeFileSync(path.join(dir, '.gitattributes'), '*.md filter=evil\n');
    // 300 more drivers with 4,000-character names: a 1.2 MB listing, and an environment too large to disable them all.
    const pad = path.join(dir, '.git', 'pad');
    writeFileSync(pad, Array.from({ length: 300 }, (_, i) => `[filter "${'p'.repeat(4000)}${String(i).padStart(4, '0')}"]\n\tclean = cat\n`).join(''));
    git(dir, 'config', 'include.path', 'pad');
    edit(dir, 'benchmarks/gpqa/README.md', '+num_repeat=4', '+num_repeats=4');
    const r = run(dir, ['--no-cache', '--changed-since', 'main']);
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('filter drivers, too many to tell git not to run them');
  });

  it('--changed-since sees a changed file whose name holds a backslash, and changes inside a submodule', () => {
    const dir = exampleRepo();
    const odd = 'docs\\odd.md';
    writeFileSync(path.join(dir, odd), '# Odd\n\n```bash\nng_collect_rollouts +agent_nam=x\n```\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'odd name');
    edit(dir, odd, 'agent_nam', 'agent_nme');
    const { results } = run(dir, ['--changed-since', 'HEAD']);
    expect(summary(results)).toEqual(['docs\\odd.md example-param-unknown agent_nme']);

    // A submodule holding a doc: an edit inside it is a change of the project.
    const sub = mkdtempSync(path.join(tmpdir(), 'docdrift-sub-'));
    temps.push(sub);
    writeFileSync(path.join(sub, 'README.md'), '# Sub\n\n```bash\nng_collect_rollouts +agent_name=x\n```\n');
    git(sub, 'init', '-q', '-b', 'main');
    git(sub, 'add', '-A');
    git(sub, 'commit', '-q', '-m', 'sub');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'vendor/sub');
    git(dir, 'commit', '-q', '-am', 'add submodule');
    edit(dir, 'vendor/sub/README.md', '+agent_name=x', '+agent_nam=x');
    const inSub = run(dir, ['--changed-since', 'HEAD']);
    expect(summary(inSub.results)).toContain('vendor/sub/README.md example-param-unknown agent_nam');
  });

  it('never runs a clean filter or fsmonitor that a submodule\'s own config defines (#33 item 11), and still sees edits inside it', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'docdrift-subfilter-'));
    temps.push(scratch);
    const marker = path.join(scratch, 'RAN');
    const hook = path.join(scratch, 'hook.sh');
    writeFileSync(hook, `#!/bin/sh\necho "ran $*" >> '${marker}'\nexec cat\n`, { mode: 0o755 });
    /** A repository of one doc (and `extra`), its `*.md` files under the `evil` filter attribute. */
    const repo = (name: string, extra: (dir: string) => void = () => {}): string => {
      const dir = path.join(scratch, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'README.md'), `# ${name}\n`);
      writeFileSync(path.join(dir, '.gitattributes'), '*.md filter=evil\n');
      git(dir, 'init', '-q', '-b', 'main');
      extra(dir);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', name);
      return dir;
    };
    const add = (dir: string, from: string, at: string): void => {
      git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', from, at);
      git(dir, 'commit', '-q', '-m', `add ${at}`);
    };
    const inner = repo('inner');
    const sub = repo('sub', (dir) => add(dir, inner, 'deep'));
    const top = repo('top', (dir) => add(dir, sub, 'vendor/sub'));
    git(top, '-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive');
    // The drivers live only in the submodules' own config files, where the superproject's
    // `git config` does not see them.
    const configs = [path.join(top, '.git/modules/vendor/sub/config'), path.join(top, '.git/modules/vendor/sub/modules/deep/config')];
    for (const config of configs) {
      expect(existsSync(config), config).toBe(true);
      git(top, 'config', '-f', config, 'filter.evil.clean', hook);
      git(top, 'config', '-f', config, 'core.fsmonitor', hook);
    }
    // Same content, new times: git must rehash the files (through the clean filter) to know they did not change.
    const later = new Date(Date.now() + 5_000);
    for (const doc of ['vendor/sub/README.md', 'vendor/sub/deep/README.md']) {
      writeFileSync(path.join(top, doc), readFileSync(path.join(top, doc)));
      utimesSync(path.join(top, doc), later, later);
    }
    expect([...(await changedFiles(top, 'HEAD'))]).toEqual([]);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    // An edit two submodules down is still a change, and nothing ran to find it.
    writeFileSync(path.join(top, 'vendor/sub/deep/README.md'), '# edited\n');
    writeFileSync(path.join(top, 'vendor/sub/deep/NEW.md'), '# new\n');
    expect([...(await changedFiles(top, 'HEAD'))].sort()).toEqual(
      ['vendor/sub', 'vendor/sub/.gitattributes', 'vendor/sub/.gitmodules', 'vendor/sub/README.md', 'vendor/sub/deep', 'vendor/sub/deep/.gitattributes', 'vendor/sub/deep/NEW.md', 'vendor/sub/deep/README.md'],
    );
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });

  it('reports git\'s "dubious ownership" refusal as such, with the safe.directory fix', () => {
    if (process.getuid?.() !== 0) return; // only root can hand the repository to another user
    const dir = exampleRepo();
    execFileSync('chown', ['-R', '65534:65534', dir]);
    const r = run(dir, ['--changed-since', 'main']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('dubious ownership');
    expect(r.stderr).toContain(`git config --global --add safe.directory ${dir}`);
    expect(r.stderr).not.toContain('is not inside a git repository');
  });
});
