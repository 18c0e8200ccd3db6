/**
 * The pre-commit hook (.pre-commit-hooks.yaml) with the real `pre-commit` program: installs this
 * checkout as a hook repository into a scratch git repository and commits to it
 * (test/pre-commit/commit-hook.sh). pre-commit clones the snapshot, runs `npm install`, `npm pack`
 * (the `prepack` script builds dist/) and `npm install -g`, which takes minutes on a busy
 * machine. Without `pre-commit` on PATH the test fails in CI (CI=true) and is skipped elsewhere,
 * saying why; DOCDRIFT_SKIP_PRE_COMMIT=1 skips it outside CI too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '..');
const inCI = /^(1|true)$/i.test(process.env.CI ?? '');
const version = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const available = version.status === 0;
const optOut = !inCI && process.env.DOCDRIFT_SKIP_PRE_COMMIT === '1';
const skipReason = optOut
  ? 'DOCDRIFT_SKIP_PRE_COMMIT=1'
  : !available && !inCI
    ? '`pre-commit` is not on PATH (apt-get install pre-commit, or pipx install pre-commit); CI=true makes this a failure'
    : undefined;
if (skipReason) console.warn(`test/pre-commit.test.ts: skipping the pre-commit hook test: ${skipReason}.`);

interface Hook {
  id: string;
  entry: string;
  language: string;
  pass_filenames: boolean;
  files: string;
  require_serial?: boolean;
  args?: string[];
}

describe('.pre-commit-hooks.yaml', () => {
  const hooks = parse(readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    scripts: Record<string, string>;
  };

  it('declares the docdrift hook: node language, the package bin, staged file names passed', () => {
    const hook = hooks.find((h) => h.id === 'docdrift')!;
    expect(hook).toMatchObject({ language: 'node', pass_filenames: true, require_serial: true });
    expect(Object.keys(pkg.bin)).toContain(hook.entry);
    // File names come after `--`, so a staged file named `--fix` is a path.
    expect(hook.args).toEqual(['--']);
    // npm pack (pre-commit's npm install + npm pack, and npm's install of a git dependency) must
    // build dist/: `prepack`, not `prepare`, which npm lists as an install script in every project
    // that installs the tarball.
    expect(pkg.scripts.prepack).toBe(pkg.scripts.build);
    expect(pkg.scripts.prepare).toBeUndefined();
  });

  it('selects the files docdrift reads and nothing else', () => {
    for (const hook of hooks) {
      const files = new RegExp(hook.files);
      for (const f of ['README.md', 'docs/cli.mdx', 'pkg/config.py', 'src/cli.ts', 'src/app.tsx', 'lib/a.js', 'app.yaml', 'ci.yml', 'package.json', 'pyproject.toml', 'setup.cfg']) {
        expect(files.test(f), `${hook.id}: ${f}`).toBe(true);
      }
      for (const f of ['logo.png', 'Makefile', 'notes.txt', 'readme.md.bak', 'mysetup.cfg']) {
        expect(files.test(f), `${hook.id}: ${f}`).toBe(false);
      }
    }
  });
});

describe.skipIf(skipReason !== undefined)('pre-commit with the docdrift hook', () => {
  it(
    'refuses a commit with a drifting README, naming the finding, and accepts the corrected one',
    () => {
      if (!available) {
        throw new Error(
          'pre-commit is not installed, and CI=true requires this test to run: .ci/run installs it with apt-get when it can (see its output).',
        );
      }
      const work = mkdtempSync(path.join(tmpdir(), 'docdrift-pre-commit-'));
      try {
        const r = spawnSync('bash', [path.join(ROOT, 'test/pre-commit/commit-hook.sh'), work], { encoding: 'utf8' });
        expect(r.status, `commit-hook.sh failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
        expect(r.stdout).toContain('== commit the corrected README');
        expect(r.stdout.trim().split('\n').at(-1)).toBe('ok');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    900_000,
  );
});
