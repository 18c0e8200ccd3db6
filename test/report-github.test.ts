/** Tests of the `github` formatter: annotations for real findings, and hostile text that must not inject workflow commands. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds, rules } from '../src/api.js';
import { createMessage } from '../src/engine/run-rules.js';
import { escapeData, escapeProperty, formatGithub } from '../src/report/github.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const rule = (id: string) => rules.find((r) => r.meta.id === id)!;

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/**
 * How the Actions runner reads a line of output: a workflow command when it starts with `::`
 * (https://github.com/actions/runner ActionCommand.TryParseV2). Returns the command name or undefined.
 */
function commandOf(line: string): string | undefined {
  return /^::([a-z-]+)[ :]/.exec(line)?.[1];
}

/** Parses `::cmd k=v,k=v::message` back, undoing actions/toolkit's escaping (the runner's UnescapeProperty/UnescapeData). */
function parse(line: string): { command: string; props: Record<string, string>; message: string } {
  const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescape = (s: string) => s.replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%');
  const props: Record<string, string> = {};
  for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    props[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
  }
  return { command: m[1]!, props, message: unescape(m[3]!) };
}

describe('github formatter', () => {
  it('a run that checked nothing ends with one ::error without a file, unless allowed (issue #32 item 1)', () => {
    const verdict = { status: 'unchecked' as const, checkedCommands: 0, uncheckedCommands: 0, reason: 'no command or config class was found', allowed: false };
    expect(formatGithub([], { root: '/p', verdict })).toBe(
      '::error title=docdrift%3A nothing was checked::nothing was checked: no command or config class was found. See the notes in the log; pass --allow-unchecked if that is expected.\n',
    );
    expect(formatGithub([], { root: '/p', verdict: { ...verdict, allowed: true } })).toBe('');
    expect(formatGithub([], { root: '/p', verdict: { ...verdict, status: 'checked' } })).toBe('');
  });

  it('escapes exactly as actions/toolkit does', () => {
    expect(escapeData('50% a\r\nb:c,d')).toBe('50%25 a%0D%0Ab:c,d');
    expect(escapeProperty('50% a\r\nb:c,d')).toBe('50%25 a%0D%0Ab%3Ac%2Cd');
    // `%` first, so an already-escaped sequence in the input is not unescaped by the runner.
    expect(escapeData('%0A')).toBe('%250A');
  });

  it('annotates every finding of the bundled example, one line each', async () => {
    const { messages } = await lint({ root: EXAMPLE, config: loadConfig(EXAMPLE, undefined, ruleIds).config });
    const out = formatGithub(messages, { root: EXAMPLE, cwd: EXAMPLE });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.map(commandOf).filter((c) => c === 'error')).toHaveLength(9);
    expect(lines.map(commandOf).filter((c) => c === 'warning')).toHaveLength(2);
    const typo = parse(lines.find((l) => l.includes('example-param-unknown'))!);
    expect(typo).toEqual({
      command: 'error',
      props: { file: 'benchmarks/gpqa/README.md', line: '9', col: '5', endLine: '9', endColumn: '17', title: 'docdrift (example-param-unknown)' },
      message:
        '`num_repeat` is not a parameter of `ng_collect_rollouts` (config: RolloutCollectionConfig). Did you mean `num_repeats`?\n' +
        '↳ nemo_gym/rollout_collection.py:10:7 `ng_collect_rollouts` parameters are defined by RolloutCollectionConfig',
    });
    // Run from the repository root, paths are relative to it (GitHub resolves them from the workspace).
    const fromRepo = formatGithub(messages, { root: EXAMPLE, cwd: ROOT });
    expect(parse(fromRepo.split('\n')[0]!).props.file).toBe('fixtures/example-python/README.md');
    expect(formatGithub([], { root: EXAMPLE })).toBe('');
  });

  it('hostile text cannot start a workflow command of its own', () => {
    const evil = 'x\n::set-output name=a::b';
    const messages = [
      createMessage(rule('example-param-unknown'), 'error', {
        messageId: 'unknown',
        data: { name: evil, key: evil, command: 'tool', classes: 'ToolConfig' },
        location: { file: 'docs/a,b:c.md', line: 3, column: 2, endLine: 3, endColumn: 9 },
        related: [{ file: 'src/x::warning::y.py', line: 1, column: 1, message: 'defined here\r\n::add-mask::secret' }],
      }),
      createMessage(rule('reference-param-unknown'), 'warn', {
        messageId: 'stale',
        data: { name: '%0A::error::boom %0D', command: 'tool', classes: 'ToolConfig' },
        location: { file: 'docs/%0A::error file=x::y.md', line: 7, column: 1 },
      }),
    ];
    const out = formatGithub(messages, { root: '/repo' });
    const lines = out.split('\n');
    expect(lines.at(-1)).toBe('');
    // Exactly the two intended commands; no other line starts with `::`, whatever the runner splits on.
    expect(out.split(/\r\n|\r|\n/).filter((l) => l.startsWith('::') || commandOf(l) !== undefined)).toHaveLength(2);
    // Sorted by file: `docs/%0A…` before `docs/a,b…`.
    expect(lines.slice(0, -1).map(commandOf)).toEqual(['warning', 'error']);

    const first = parse(lines[1]!);
    expect(first.props).toEqual({ file: 'docs/a,b:c.md', line: '3', col: '2', endLine: '3', endColumn: '8', title: 'docdrift (example-param-unknown)' });
    expect(first.message).toContain(`\`${evil}\` is not a parameter of \`tool\``);
    expect(first.message).toContain('↳ src/x::warning::y.py:1:1 defined here\r\n::add-mask::secret');
    expect(lines[1]).toContain('file=docs/a%2Cb%3Ac.md,');
    expect(lines[1]).toContain('x%0A::set-output name=a::b');

    const second = parse(lines[0]!);
    expect(second.command).toBe('warning');
    expect(second.props).toEqual({ file: 'docs/%0A::error file=x::y.md', line: '7', col: '1', title: 'docdrift (reference-param-unknown)' });
    expect(second.message.startsWith('`%0A::error::boom %0D` is documented')).toBe(true);
  });

  it('hostile names in a real project: file names with commas, colons and %0A', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-github-'));
    temps.push(dir);
    mkdirSync(path.join(dir, 'pkg'));
    mkdirSync(path.join(dir, 'docs'));
    writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "hostile"\nversion = "0.1.0"\n[project.scripts]\ntool = "pkg.main:main"\n');
    writeFileSync(path.join(dir, 'pkg/__init__.py'), '');
    writeFileSync(
      path.join(dir, 'pkg/main.py'),
      'from pydantic import BaseModel, Field\n\nclass ToolConfig(BaseModel):\n    limit: int = Field(default=1, description="How many.")\n\ndef main() -> None:\n    ToolConfig.model_validate({})\n',
    );
    const file = 'docs/a,b:c %0A.md';
    writeFileSync(
      path.join(dir, file),
      '# Reference\n\n## `tool`\n\n| Parameter | Type | Description |\n| --- | --- | --- |\n| `limit` | int | How many. |\n| `x%0A::set-output` | str | stale |\n',
    );
    const { messages } = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    const out = formatGithub(messages, { root: dir, cwd: dir });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith('::error file=docs/a%2Cb%3Ac %250A.md,line=8,col=1,')).toBe(true);
    const parsed = parse(lines[0]!);
    expect(parsed.props.file).toBe(file);
    expect(parsed.message.startsWith('`x%0A::set-output` is documented in the `tool` reference')).toBe(true);
  });
});
