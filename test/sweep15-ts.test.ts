// #33 part 3, fresh sweep of the TypeScript/JavaScript CLI readers: long `.option()` chains
// overflowed the stack, a sade command path of thousands of words and 10,000 cac commands took
// minutes. Spawned CLI (npm run build first) on projects laid out as fixtures/bad-input/_base
// plus a TypeScript program; bounded by CPU time (the machine is shared: wall time says little).
// Each fails on the main it was written against (cd5f256).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

afterAll(() => removeTempDirs());

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
const baseFiles = (): Record<string, string> =>
  Object.fromEntries(['README.md', 'pyproject.toml', 'docs/reference.md', 'tool/__init__.py', 'tool/cli.py'].map((f) => [f, readFileSync(path.join(BASE, f), 'utf8')]));

/** The base project plus `package.json` (bin `tsapp` → dist/cli.js) and src/cli.ts. */
function project(cli: string): string {
  return tempProject({ ...baseFiles(), 'package.json': JSON.stringify({ name: 'tsapp', type: 'module', bin: { tsapp: 'dist/cli.js' } }), 'src/cli.ts': cli });
}

/** Preloaded: writes the process's CPU time (user + system, worker threads included; ms) on exit. */
const CPU_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); if (process.env.DOCDRIFT_TEST_CPU) writeFileSync(process.env.DOCDRIFT_TEST_CPU, String((u.user + u.system) / 1000)); });",
)}`;

interface Run {
  code: number | null;
  stderr: string;
  json: { results: Array<{ ruleId: string; file: string; message: string }>; commands: Array<{ name: string; parameters?: number; paramsKnown: boolean }> };
  cpuMs: number;
}

function run(dir: string): Run {
  const cpuFile = `${dir}.cpu`;
  const r = spawnSync(process.execPath, ['--import', CPU_PRELOAD, CLI_BIN, '--root', dir, '--format', 'json', '--no-cache'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', DOCDRIFT_TEST_CPU: cpuFile },
  });
  expect(r.error, String(r.error)).toBeUndefined();
  expect(r.stderr, 'no internal error').not.toMatch(/internal error|\n\s+at /);
  return { code: r.status, stderr: r.stderr, json: JSON.parse(r.stdout) as Run['json'], cpuMs: Number(readFileSync(cpuFile, 'utf8')) };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('#33 sweep: TypeScript CLI readers under hostile input', () => {
  const chains: Record<string, (n: number) => string> = {
    commander: (n) => `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram${range(n).map((i) => `.option('--o${i} <v>', 'opt ${i}')`).join('\n')};\nprogram.parse();\n`,
    yargs: (n) => `import yargs from 'yargs';\nyargs(process.argv.slice(2))${range(n).map((i) => `.option('o${i}', { type: 'string' })`).join('\n')}.parse();\n`,
    sade: (n) => `import sade from 'sade';\nconst prog = sade('tsapp');\nprog${range(n).map((i) => `.option('--o${i}', 'opt ${i}')`).join('\n')};\nprog.parse(process.argv);\n`,
    cac: (n) => `import { cac } from 'cac';\nconst cli = cac('tsapp');\ncli${range(n).map((i) => `.option('--o${i} <v>', 'opt ${i}')`).join('\n')};\ncli.parse();\n`,
  };
  for (const [framework, source] of Object.entries(chains)) {
    it(`${framework}: a chain of 10,000 .option() calls is read whole, without a stack overflow, in linear time`, { timeout: 300_000 }, () => {
      const r = run(project(source(10_000)));
      expect(r.code).toBe(0);
      const tsapp = r.json.commands.find((c) => c.name === 'tsapp');
      // Every option, plus the framework's built-in --help/--version where it adds them.
      expect(tsapp?.parameters).toBeGreaterThanOrEqual(10_000);
      expect(tsapp?.parameters).toBeLessThanOrEqual(10_002);
      expect(r.cpuMs, 'CPU ms').toBeLessThan(20_000);
    });
  }

  it('sade: a command path of 10,000 words is not read (a warning says so), in seconds', { timeout: 300_000 }, () => {
    const words = range(10_000).map((i) => `w${i}`).join(' ');
    const r = run(project(`import sade from 'sade';\nconst prog = sade('tsapp');\nprog.option('--g', 'global');\nprog.command('${words}').option('--x', 'x');\nprog.command('ok').option('--y', 'y');\nprog.parse(process.argv);\n`));
    expect(r.code).toBe(0);
    const warning = r.json.results.find((m) => m.ruleId === 'parse-error' && m.file === 'src/cli.ts');
    expect(warning?.message).toContain('a path of 10000 words, over the limit of 16');
    const names = r.json.commands.map((c) => c.name);
    expect(names).toContain('tsapp ok');
    expect(names.filter((n) => n.startsWith('tsapp w0'))).toEqual([]);
    // `--x` went nowhere: not to the program, not to `ok`.
    expect(r.cpuMs, 'CPU ms').toBeLessThan(15_000);
  });

  it('cac: 10,000 sub-commands each inheriting a global flag take near-linear time', { timeout: 300_000 }, () => {
    const commands = range(10_000).map((i) => `cli.command('c${i}', 'cmd ${i}').option('--o${i}', 'o');`).join('\n');
    const r = run(project(`import { cac } from 'cac';\nconst cli = cac('tsapp');\ncli.option('--g', 'global');\n${commands}\ncli.parse();\n`));
    expect(r.code).toBe(0);
    expect(r.json.commands.filter((c) => c.name.startsWith('tsapp c'))).toHaveLength(10_000);
    // main took 20 s of CPU (parents looked up per sub-command over every command, twice); now ~4 s.
    expect(r.cpuMs, 'CPU ms').toBeLessThan(10_000);
  });

  it("yargs: the note for a `.commandDir()` folder it cannot read names that construct, not commander's", { timeout: 120_000 }, () => {
    const r = run(project(`import yargs from 'yargs';\nyargs(process.argv.slice(2)).commandDir('/').parse();\n`));
    expect(r.stderr).toContain('yargs `.commandDir()` with a folder docdrift cannot read');
    expect(r.stderr).not.toContain('commander `.command(name)`');
  });
});
