/** The benchmark's synthetic repository generator: sizes, determinism, and that docdrift reads what it generates (no timings). */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globby } from 'globby';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import { lint } from '../src/api.js';
import { generateRepo } from './bench/generate.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'docdrift-gen-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function digest(root: string): Promise<string> {
  const files = (await globby('**/*', { cwd: root, dot: true, ignore: ['.git/**'] })).sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(readFileSync(path.join(root, f))).update('\0');
  return hash.digest('hex');
}

describe('generateRepo', () => {
  const root = path.join(scratch, 'a');
  const repo = generateRepo(root, { scale: 0.05, seed: 7, git: false });

  it('writes NeMo Gym proportions scaled down: 1 reference page, 20 other docs, 40 Python files, 1 command with an alias', async () => {
    expect(repo.docs).toHaveLength(21);
    expect(repo.docs).toContain('docs/reference/cli-0.mdx');
    expect(repo.pythonFiles).toBe(40);
    expect(repo.typescriptFiles).toBe(10);
    expect(repo.commands).toHaveLength(3); // one console script with its alias, plus the package.json bin
    expect(await globby('**/*.py', { cwd: root })).toHaveLength(40); // .venv/ is not counted and not matched
    expect(await globby('**/*.{md,mdx}', { cwd: root, gitignore: true })).toHaveLength(21);
    expect(await globby('build/**/*.md', { cwd: root, dot: true })).toHaveLength(1);
  });

  it('is deterministic for a seed and differs for another seed', async () => {
    generateRepo(path.join(scratch, 'b'), { scale: 0.05, seed: 7, git: false });
    generateRepo(path.join(scratch, 'c'), { scale: 0.05, seed: 8, git: false });
    expect(await digest(path.join(scratch, 'b'))).toBe(await digest(root));
    expect(await digest(path.join(scratch, 'c'))).not.toBe(await digest(root));
  });

  it('rejects a scale that is not positive', () => {
    expect(() => generateRepo(path.join(scratch, 'd'), { scale: 0 })).toThrow(/scale must be a positive number/);
  });

  it('makes a repository in which docdrift finds the commands, their reference sections and the example usages', async () => {
    const big = generateRepo(path.join(scratch, 'e'), { scale: 0.35, seed: 1, git: false }); // 7 commands: every kind once
    const result = await lint({ root: big.root, config: DEFAULT_CONFIG });
    const names = result.model.commands.map((c) => c.name);
    const scripts = big.commands.filter((c) => c.startsWith('gym0_'));
    expect(scripts).toHaveLength(7);
    for (const name of scripts) expect(names).toContain(name);
    // Every command's parameters are known: pydantic, dataclass, argparse, click and typer alike.
    for (const c of result.model.commands.filter((c) => c.name.startsWith('gym0_'))) {
      expect(c.paramsKnown, c.name).toBe(true);
      expect(c.params.length, c.name).toBeGreaterThanOrEqual(5);
    }
    const used = new Set(result.model.usages.map((u) => u.command));
    for (const name of big.exampleCommands) expect(used).toContain(name);
    // Documents under the ignored build/ folder are not read.
    expect(result.messages.some((m) => m.file?.startsWith('build/'))).toBe(false);
    // The generator plants drift: a typo, a missing row and a stale row.
    const ids = new Set(result.messages.map((m) => m.ruleId));
    expect(ids).toContain('example-param-unknown');
    expect(ids).toContain('reference-param-missing');
    expect(ids).toContain('reference-param-unknown');
  }, 120_000);
});
