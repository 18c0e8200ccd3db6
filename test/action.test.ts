/**
 * The GitHub Action (action.yml + .github/action/run.sh) and this project's workflow (.github/workflows/ci.yml):
 * their YAML structure (inputs declared ⇔ used, env references defined, outputs written), and
 * run.sh run for real on the bundled example with the inputs a workflow passes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const RUN_SH = path.join(ROOT, '.github/action/run.sh');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface ActionYml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; permissions?: Record<string, string>; steps: Step[] }>;
}

const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const runSh = readFileSync(RUN_SH, 'utf8');
const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as Workflow;

/** Every `${{ … }}` expression in a value, with the names `inputs.x` it reads. */
function inputsReferenced(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(/\$\{\{[^}]*?\binputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]!);
}

describe('action.yml', () => {
  const steps = action.runs.steps;
  const runStep = steps.find((s) => s.id === 'run')!;

  it('is a composite action whose every declared input is used and every used input declared', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.name).toBe('docdrift');
    const declared = Object.keys(action.inputs).sort();
    const used = [...new Set(inputsReferenced(steps))].sort();
    expect(used).toEqual(declared);
    expect(declared).toEqual(
      ['baseline', 'changed-only', 'config', 'fail-level', 'format', 'paths', 'root', 'sarif-file', 'summary'].sort(),
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toMatch(/\w/);
      // A workflow omitting an input gets the default; `required: true` would break that.
      expect(input.required ?? false, name).toBe(false);
    }
    expect(action.inputs.format!.default).toBe('github');
    expect(action.inputs.summary!.default).toBe('true');
  });

  it('never interpolates an expression into script text: inputs reach the script through env', () => {
    for (const step of steps) {
      if (step.run === undefined) continue;
      expect(step.shell, step.name).toBe('bash');
      // github.action_path/runner.os are not attacker-controlled, but none is needed in script text either.
      expect(step.run, step.name).not.toContain('${{');
    }
    for (const [key, value] of Object.entries(runStep.env ?? {})) {
      expect(value, key).toMatch(/^\$\{\{ [a-z_.-]+ \}\}$/);
    }
  });

  it('defines every environment variable run.sh reads, and run.sh reads every one the step sets', () => {
    const env = Object.keys(runStep.env ?? {}).sort();
    const read = [...new Set([...runSh.matchAll(/\$\{?((?:INPUT|DOCDRIFT)_[A-Z_]+)/g)].map((m) => m[1]!))]
      .filter((name) => name !== 'DOCDRIFT_ACTION_DRY_RUN')
      .sort();
    expect(read).toEqual(env);
    // Each input has its INPUT_ variable, fed from that input.
    for (const name of Object.keys(action.inputs)) {
      const variable = `INPUT_${name.toUpperCase().replace(/-/g, '_')}`;
      expect(runStep.env?.[variable], variable).toBe(`\${{ inputs.${name} }}`);
    }
    expect(runStep.env?.DOCDRIFT_BASE_SHA).toBe('${{ github.event.pull_request.base.sha }}');
  });

  it('maps each output to a step output that run.sh writes', () => {
    for (const [name, output] of Object.entries(action.outputs)) {
      const m = /^\$\{\{ steps\.([a-z-]+)\.outputs\.([a-z-]+) \}\}$/.exec(output.value);
      expect(m, name).not.toBeNull();
      expect(m![1]).toBe('run');
      expect(runSh).toContain(`echo "${m![2]}=`);
    }
    // Step outputs read by later steps come from steps with that id.
    const ids = new Set(steps.map((s) => s.id).filter(Boolean));
    for (const [, id] of JSON.stringify(steps).matchAll(/steps\.([a-z-]+)\.outputs/g)) expect(ids).toContain(id);
  });

  it('on Node 24 with a cached npm, installs the packed package (install.sh) and runs its bin', () => {
    const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe(24);
    expect(steps.find((s) => s.uses?.startsWith('actions/cache@'))?.with?.path).toBe('~/.npm');
    const install = steps.find((s) => s.id === 'install')!;
    expect(install.run).toBe('bash "$GITHUB_ACTION_PATH/.github/action/install.sh"');
    // install.sh packs the checkout and installs the tarball: the bundle npm users get
    // (test/package.test.ts runs it for real).
    const installSh = readFileSync(path.join(ROOT, '.github/action/install.sh'), 'utf8');
    expect(installSh).toContain('npm pack --ignore-scripts');
    expect(installSh).toContain('node_modules/docdrift/dist/cli/docdrift.js');
    expect(runStep.env?.DOCDRIFT_BIN).toBe('${{ steps.install.outputs.bin }}');
    expect(runStep.run).toBe('bash "$GITHUB_ACTION_PATH/.github/action/run.sh"');
  });
});

describe('.github/workflows/ci.yml', () => {
  it('runs .ci/run on the oldest supported Node (20), the LTS users run (22) and the Action Node (24), each the whole suite, for pushes and pull requests', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const test = workflow.jobs.test! as { strategy?: { matrix?: { node?: number[] } }; steps: Step[] };
    expect(test.strategy?.matrix?.node).toEqual([20, 22, 24]);
    expect(test.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe('${{ matrix.node }}');
    const ci = test.steps.find((s) => s.run === 'bash .ci/run') as (Step & { env?: Record<string, string> }) | undefined;
    expect(ci).toBeDefined();
    // Each matrix job is its own Node: .ci/run's extra Node 22/24 subset is skipped there.
    expect(ci?.env?.DOCDRIFT_CI_NODES).toBe('');
  });

  it('runs docdrift on itself through the local action and uploads its SARIF', () => {
    const job = workflow.jobs.dogfood!;
    expect(job.permissions?.['security-events']).toBe('write');
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const local = job.steps.find((s) => s.uses === './')!;
    for (const key of Object.keys(local.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    const upload = job.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.with?.sarif_file).toBe(local.with?.['sarif-file']);
  });
});

// ---- run.sh, for real ----

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** Runs .github/action/run.sh in `cwd` (the workspace) with the given INPUT_* environment; returns exit code, stdout and the step outputs. */
function runAction(env: Record<string, string>, cwd = EXAMPLE) {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-action-'));
  temps.push(dir);
  const outputFile = path.join(dir, 'output');
  writeFileSync(outputFile, '');
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_') && !k.startsWith('GITHUB_') && k !== 'DOCDRIFT_BASE_SHA'),
  );
  const r = spawnSync('bash', [RUN_SH], {
    cwd,
    encoding: 'utf8',
    env: { ...clean, NO_COLOR: '1', GITHUB_OUTPUT: outputFile, INPUT_SUMMARY: 'false', ...env },
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs, dir };
}

/** docdrift's own JSON summary for the example, to compare the action's counts with. */
function directSummary(args: string[] = []): { errors: number; warnings: number } {
  const r = spawnSync(process.execPath, [BIN, '--format', 'json', ...args], { cwd: EXAMPLE, encoding: 'utf8' });
  return (JSON.parse(r.stdout) as { summary: { errors: number; warnings: number } }).summary;
}

/** Dry run: the docdrift argument lists run.sh would run, one array per run. */
function dryRun(env: Record<string, string>): string[][] {
  const { stdout, code } = runAction({ DOCDRIFT_ACTION_DRY_RUN: '1', ...env });
  expect(code).toBe(0);
  return stdout
    .split('docdrift\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => chunk.replace(/\n\n$/, '').split('\n'));
}

describe('.github/action/run.sh', () => {
  it('runs docdrift in the workspace, fails on errors, and outputs the exit code and counts', () => {
    const expected = directSummary();
    expect(expected.errors).toBeGreaterThan(0);
    const { code, stdout, outputs } = runAction({ INPUT_FORMAT: 'json' });
    expect(code).toBe(1);
    expect(JSON.parse(stdout).summary).toEqual(expected);
    expect(outputs).toEqual({ 'exit-code': '1', errors: String(expected.errors), warnings: String(expected.warnings) });
  });

  it('with fail-level none passes the step but still reports exit code 1', () => {
    const { code, outputs } = runAction({ INPUT_FORMAT: 'json', INPUT_FAIL_LEVEL: 'none' });
    expect(code).toBe(0);
    expect(outputs['exit-code']).toBe('1');
  });

  it('with fail-level warning fails on warnings alone (--max-warnings 0)', () => {
    // reference-type-mismatch is a warning by default: this fixture has warnings and no errors.
    const project = path.join(ROOT, 'fixtures/rules/reference-type-mismatch/invalid/changed-types');
    const lenient = runAction({ INPUT_FORMAT: 'json' }, project);
    expect(lenient.code).toBe(0);
    expect(lenient.outputs.errors).toBe('0');
    expect(Number(lenient.outputs.warnings)).toBeGreaterThan(0);
    const strict = runAction({ INPUT_FORMAT: 'json', INPUT_FAIL_LEVEL: 'warning' }, project);
    expect(strict.code).toBe(1);
    expect(strict.outputs['exit-code']).toBe('1');
  });

  it('scopes findings to the paths input (spaces or newlines between paths)', () => {
    const { code, stdout, outputs } = runAction({ INPUT_FORMAT: 'json', INPUT_PATHS: 'benchmarks/gpqa\n  docs/reference/cli-commands.mdx ' });
    expect(code).toBe(1);
    const files = new Set((JSON.parse(stdout) as { results: Array<{ file: string }> }).results.map((r) => r.file));
    expect([...files].sort()).toEqual(['benchmarks/gpqa/README.md', 'docs/reference/cli-commands.mdx']);
    expect(outputs.errors).toBe(String(directSummary(['benchmarks/gpqa', 'docs/reference/cli-commands.mdx']).errors));
  });

  it('refuses a bad input value with exit code 2 naming the input', () => {
    const bad = runAction({ INPUT_FAIL_LEVEL: 'warn' });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('::error title=docdrift action::input `fail-level` must be error, warning or none; got "warn".');
    const badBool = runAction({ INPUT_CHANGED_ONLY: 'yes' });
    expect(badBool.code).toBe(2);
    expect(badBool.stdout).toContain('input `changed-only` must be true or false; got "yes"');
  });

  it('passes a docdrift usage error through as exit code 2, even with fail-level none', () => {
    const { code, stderr, outputs } = runAction({ INPUT_FORMAT: 'json', INPUT_FAIL_LEVEL: 'none', INPUT_CONFIG: 'missing.json' });
    expect(code).toBe(2);
    expect(stderr).toContain('missing.json');
    expect(outputs['exit-code']).toBe('2');
  });

  it('treats input values as data, never as shell code (script injection)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-inject-'));
    temps.push(dir);
    const marker = path.join(dir, 'pwned');
    const { code, stderr } = runAction({
      INPUT_FORMAT: 'json',
      INPUT_PATHS: `$(touch ${marker}) \`touch ${marker}\``,
      INPUT_CONFIG: `x"; touch ${marker}; echo "`,
    });
    expect(existsSync(marker)).toBe(false);
    expect(code).toBe(2);
    expect(stderr).toContain('touch'); // docdrift names the literal value it could not find
  });

  it('builds --changed-since from the pull request base, and checks everything outside pull requests', () => {
    expect(dryRun({ INPUT_CHANGED_ONLY: 'true', DOCDRIFT_BASE_SHA: '0123abc' })).toEqual([
      ['--changed-since', '0123abc', '--format', 'github', '--'],
    ]);
    const { stdout } = runAction({ DOCDRIFT_ACTION_DRY_RUN: '1', INPUT_CHANGED_ONLY: 'true' });
    expect(stdout).toContain('::notice title=docdrift action::changed-only is set but this run is not for a pull request');
    expect(stdout).not.toContain('--changed-since');
  });

  it('runs a second time for the SARIF file, and passes root, config, baseline and the step summary to both', () => {
    const runs = dryRun({
      INPUT_ROOT: 'sub dir',
      INPUT_CONFIG: 'cfg.json',
      INPUT_BASELINE: '.docdrift-baseline.json',
      INPUT_SARIF_FILE: 'out/docdrift.sarif',
      INPUT_SUMMARY: 'true',
      GITHUB_STEP_SUMMARY: '/tmp/summary.md',
      INPUT_PATHS: 'README.md',
    });
    const common = ['--root', 'sub dir', '--config', 'cfg.json', '--baseline', '.docdrift-baseline.json'];
    expect(runs).toEqual([
      [...common, '--format', 'sarif', '--', 'README.md'],
      [...common, '--format', 'github', '--summary', '/tmp/summary.md', '--', 'README.md'],
    ]);
    expect(dryRun({ INPUT_SUMMARY: 'false', GITHUB_STEP_SUMMARY: '/tmp/summary.md' })).toEqual([['--format', 'github', '--']]);
  });

  it('passes paths after --, so a paths input that looks like options is a path (no --fix, no --summary write)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-paths-'));
    temps.push(dir);
    const summary = path.join(dir, 'summary.md');
    const { code, stderr } = runAction({ INPUT_FORMAT: 'json', INPUT_PATHS: `--fix --summary=${summary}` });
    expect(code).toBe(2);
    expect(stderr).toContain('no such file or directory: --fix');
    expect(existsSync(summary)).toBe(false);
  });
});
