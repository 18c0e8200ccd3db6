/**
 * The CPU budgets of the extraction workers (src/engine/python-flags.ts, src/engine/typescript-facts.ts):
 * a worker past its budget is ended, nothing is computed again in-thread, and the run goes on with
 * those facts unknown: one warning, the programs' parameters unknown, no finding about the flags
 * docdrift did not read. Runs the built CLI (`npm run build` first) with a budget of 1 ms
 * (`DOCDRIFT_TEST_WORKER_BUDGET_MS`), which any worker exceeds.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerBudgetMs } from '../src/shared/thread-cpu.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'dist/cli/docdrift.js');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

interface JsonFinding {
  ruleId: string;
  severity: string;
  file: string;
  message: string;
}

/** Runs the CLI on `dir` with the given worker budget (ms; `undefined`: the real one); exit code, findings, stderr, seconds. */
function run(dir: string, budgetMs: number | undefined): { status: number | null; findings: JsonFinding[]; stderr: string; seconds: number } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.DOCDRIFT_TEST_WORKER_BUDGET_MS;
  if (budgetMs !== undefined) env.DOCDRIFT_TEST_WORKER_BUDGET_MS = String(budgetMs);
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, '--root', dir, '--format', 'json', '--no-cache'], { encoding: 'utf8', env, timeout: 60_000 });
  const seconds = (performance.now() - t) / 1000;
  const findings = (JSON.parse(r.stdout) as { results: JsonFinding[] }).results;
  return { status: r.status, findings, stderr: r.stderr, seconds };
}

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-worker-budget-'));
  temps.push(dir);
  return dir;
}

describe('workerBudgetMs', () => {
  it('is the base plus the rate per MiB, or the test override', () => {
    const saved = process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS;
    try {
      delete process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS;
      expect(workerBudgetMs(0, 3000, 4000)).toBe(3000);
      expect(workerBudgetMs(512 * 1024, 3000, 4000)).toBe(5000);
      process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS = 'nonsense';
      expect(workerBudgetMs(0, 3000, 4000)).toBe(3000);
      process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS = '7';
      expect(workerBudgetMs(1024 * 1024, 3000, 4000)).toBe(7);
    } finally {
      if (saved === undefined) delete process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS;
      else process.env.DOCDRIFT_TEST_WORKER_BUDGET_MS = saved;
    }
  });
});

describe('extraction workers past their CPU budget', () => {
  // The Python flags worker is started for 512 KB of flag files on two cores (`wantsPythonWorker` 'auto').
  it.skipIf(availableParallelism() < 2)('Python flags: one warning, the command unknown, no finding about its documented flags', { timeout: 120_000 }, () => {
    const dir = project();
    cpSync(path.join(ROOT, 'fixtures/bad-input/_base'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'docdrift.config.json'), '{ "allowUnchecked": true }\n');
    // 600 KB of comments make the worker worth starting; `--seed` exists, `--gone` is documented but not in the code.
    const padding = `# ${'x'.repeat(200)}\n`.repeat(3000);
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\n${padding}\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--seed", type=int, default=0)\n    p.parse_args()\n`);
    writeFileSync(path.join(dir, 'docs/usage.md'), '# Usage\n\n```bash\ntool --seed 1 --gone\n```\n');
    const known = run(dir, undefined);
    // Control: within the budget the flags are read and `--gone` is a finding.
    expect(known.findings.some((f) => f.message.includes('`gone`')), JSON.stringify(known.findings)).toBe(true);
    const r = run(dir, 1);
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.status).toBe(0);
    const notes = r.findings.filter((f) => f.message.includes('CLI flags not read'));
    expect(notes, JSON.stringify(r.findings)).toHaveLength(1);
    expect(notes[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', file: 'tool/cli.py' });
    expect(notes[0]!.message).toContain('s of CPU time, the budget for that much text');
    expect(r.findings.filter((f) => ['`gone`', '`seed`', '`name`'].some((n) => f.message.includes(n)))).toEqual([]);
    expect(r.stderr).toContain('whose CLI flags docdrift did not finish reading');
    expect(r.seconds).toBeLessThan(30);
  });

  // Shape (1) of NeMo Gym (8 of `gym`'s prose flags blamed on `nemo_gym_reinstall`): `tool`'s
  // parameters come from a pydantic config class (read in-thread, like BaseNeMoGymCLIConfig behind
  // `nemo_gym_reinstall`'s dispatch target), `other`'s from argparse in the flags worker. With the
  // worker stopped, `tool` was the one known command left and a project-scope prose flag (README:
  // no reference section, names a command so it is read) close to one of its fields (`--seeds` ~
  // `seed`: project scope needs a suggestion) was blamed on it.
  it.skipIf(availableParallelism() < 2)('Python flags: a prose flag of the unread program is not blamed on the one command still known', { timeout: 120_000 }, () => {
    const dir = project();
    cpSync(path.join(ROOT, 'fixtures/bad-input/_base'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'docdrift.config.json'), '{ "allowUnchecked": true }\n');
    writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\nother = "tool.other:main"\n');
    // 600 KB of comments make the worker worth starting.
    const padding = `# ${'x'.repeat(200)}\n`.repeat(3000);
    writeFileSync(path.join(dir, 'tool/other.py'), `import argparse\n${padding}\ndef main():\n    p = argparse.ArgumentParser(prog="other")\n    p.add_argument("--seeds", type=int, default=1)\n    p.parse_args()\n`);
    writeFileSync(path.join(dir, 'README.md'), '# tool\n\n```bash\ntool +seed=1 +name=demo\n```\n\nSee the [reference](docs/reference.md#tool).\n\nPass `--seeds` to repeat the run with several seeds.\n');
    // Controls: a stale prose flag in a reference section of each command.
    writeFileSync(
      path.join(dir, 'docs/reference.md'),
      '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n| `name` | str | `"run"` | Name of the run. |\n\nSet `--sead` to fix the seed of a run.\n',
    );
    writeFileSync(path.join(dir, 'docs/other.md'), '# other\n\n### `other`\n\n| Option | Description |\n| --- | --- |\n| `--seeds` | How many seeds to run. |\n\nPass `--gone` to keep the old runs.\n');
    const brief = (fs: JsonFinding[]) => fs.filter((f) => f.ruleId === 'example-param-unknown').map((f) => `${f.file}: ${f.message}`).sort();
    const sead = 'docs/reference.md: `--sead` is named in prose on a page of `tool` but is not one of its parameters (config: ToolConfig). Did you mean `--seed`?';
    const known = run(dir, undefined);
    expect(known.status, known.stderr).toBe(1);
    // Within the budget `--seeds` is `other`'s flag (no finding); each section's stale flag is one.
    expect(brief(known.findings)).toEqual(['docs/other.md: `--gone` is named in prose on a page of `other` but is not one of its parameters (config: its CLI flags).', sead]);
    const r = run(dir, 1);
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.findings.filter((f) => f.message.includes('CLI flags not read')), JSON.stringify(r.findings)).toHaveLength(1);
    // Was also "README.md: `--seeds` is named in prose on a page of `tool` ... Did you mean `--seed`?".
    expect(brief(r.findings)).toEqual([sead]);
  });

  // Shape (2) of NeMo Gym (61 README examples of `gym eval run` example-param-unknown): the config
  // declares some flags of `other run`, a sub-command of a program whose flags the worker did not
  // finish reading; the declared flags are not all of them, so its parameters are unknown.
  it.skipIf(availableParallelism() < 2)('Python flags: a declared sub-command of the unread program has unknown parameters, not just the declared ones', { timeout: 120_000 }, () => {
    const dir = project();
    mkdirSync(path.join(dir, 'other'));
    writeFileSync(path.join(dir, 'other/__init__.py'), '');
    const padding = `# ${'x'.repeat(200)}\n`.repeat(3000);
    writeFileSync(
      path.join(dir, 'other/cli.py'),
      `import argparse\n${padding}\ndef main():\n    p = argparse.ArgumentParser(prog="other")\n    sub = p.add_subparsers(dest="command")\n    run = sub.add_parser("run")\n    run.add_argument("--limit", type=int, default=0)\n    run.add_argument("--seeds", type=int, default=1)\n    p.parse_args()\n`,
    );
    writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "other"\nversion = "1.0.0"\n\n[project.scripts]\nother = "other.cli:main"\n');
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ allowUnchecked: true, commands: { 'other run': { flags: ['--limit <n>'] } } }));
    writeFileSync(path.join(dir, 'README.md'), '# other\n\n```bash\nother run --limit 3 --seeds 2\n```\n\n```bash\nother run --limit 3 --gone\n```\n');
    const unknown = (fs: JsonFinding[]) => fs.filter((f) => f.ruleId === 'example-param-unknown').map((f) => f.message);
    const known = run(dir, undefined);
    expect(known.status, known.stderr).toBe(1);
    // Control: within the budget `--seeds` is read from the code and `--gone` is a finding.
    expect(unknown(known.findings)).toEqual(['`gone` is not a parameter of `other run` (config: its CLI flags).']);
    const r = run(dir, 1);
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.findings.filter((f) => f.message.includes('CLI flags not read')), JSON.stringify(r.findings)).toHaveLength(1);
    // Was `seeds` and `gone` (`other run` known with the declared `--limit` only).
    expect(unknown(r.findings)).toEqual([]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('whose CLI flags docdrift did not finish reading');
    // The advice does not ask for the flags the config already declares.
    expect(r.stderr).toContain('the flags `commands."other run".flags` declares amend those of the code, so they are not all of its flags');
    expect(r.stderr).not.toContain('declare the flags in `commands."other run".flags`');
  });

  it('TypeScript facts: one warning, the bin unknown, no finding about its documented flags', { timeout: 120_000 }, () => {
    const dir = project();
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'docdrift.config.json'), '{ "allowUnchecked": true }\n');
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "packgen", "version": "1.0.0", "type": "module", "bin": { "packgen": "dist/cli.js" } }\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), "import { Command } from 'commander';\nconst program = new Command().name('packgen');\nprogram.command('run').option('--minify', 'Minify the output');\nawait program.parseAsync(process.argv);\n");
    writeFileSync(path.join(dir, 'README.md'), '# packgen\n\n## `packgen run`\n\n| Option | Description |\n| --- | --- |\n| `--minify` | Minify the output |\n| `--gone` | Not in the code |\n\n```sh\npackgen run --minify --gone\n```\n');
    const known = run(dir, undefined);
    expect(known.findings.some((f) => f.message.includes('`gone`')), JSON.stringify(known.findings)).toBe(true);
    const r = run(dir, 1);
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(r.status).toBe(0);
    const notes = r.findings.filter((f) => f.message.includes('TypeScript not read'));
    expect(notes, JSON.stringify(r.findings)).toHaveLength(1);
    expect(notes[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', file: 'src/cli.ts' });
    expect(r.findings.filter((f) => ['`gone`', '`minify`'].some((n) => f.message.includes(n)))).toEqual([]);
    expect(r.stderr).toContain('whose CLI flags docdrift did not finish reading');
    expect(r.seconds).toBeLessThan(30);
  });

  it('TypeScript facts: a config type the config names in a source that was not read is unknown, not "declares none" (no exit-2 config problem)', { timeout: 120_000 }, () => {
    const dir = project();
    cpSync(path.join(ROOT, 'fixtures/rules/reference-param-missing/valid/ts-interface-jsdoc'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ allowUnchecked: true, commands: { tool: { config: 'src/options.ts#ToolOptions' } } }));
    const known = run(dir, undefined);
    expect(known.status, known.stderr).toBe(0);
    const r = run(dir, 1);
    expect(r.stderr).not.toContain('declares none docdrift reads');
    expect(r.stderr).not.toContain('no config class or type named');
    expect(r.status, r.stderr).toBe(0);
    expect(r.findings.filter((f) => f.message.includes('TypeScript not read'))).toHaveLength(1);
    // A bare name is not called misspelt either.
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ allowUnchecked: true, commands: { tool: { config: 'ToolOptions' } } }));
    const bare = run(dir, 1);
    expect(bare.status, bare.stderr).toBe(0);
    expect(bare.stderr).not.toContain('no config class or type named');
  });
});
