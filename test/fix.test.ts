/** `--fix` (issue #5): edits of the fixable rules, the multi-pass applier, atomic writes, the dry-run diff and the CLI flags. */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { fixProject, lint, ruleIds, rules } from '../src/api.js';
import { findingKeyString } from '../src/engine/fingerprint.js';
import type { DriftMessage, Rule } from '../src/model/rule.js';
import { applyEdits, describeFix, resolveInsideRoot, writeFileAtomic, type AtomicFs } from '../src/fix/apply.js';
import { unifiedDiff } from '../src/fix/diff.js';
import { cellCode, cellLiteral, cellText, withoutControls } from '../src/fix/reference-edits.js';
import { CLI_BIN } from './helpers.js';
import { MemoryPieceStore } from '../src/engine/pieces.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** A temp copy of a fixture project (expected.json dropped), optionally with a config file. */
function copyProject(fixture: string, config?: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-fix-'));
  temps.push(dir);
  cpSync(path.join(ROOT, fixture), dir, { recursive: true });
  rmSync(path.join(dir, 'expected.json'), { force: true });
  if (config !== undefined) {
    // Merged into the fixture's own config, which may map its commands.
    const file = path.join(dir, 'docdrift.config.json');
    const own = fs.existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    writeFileSync(file, JSON.stringify({ ...own, ...(config as Record<string, unknown>) }));
  }
  return dir;
}

const configOf = (root: string) => loadConfig(root, undefined, ruleIds).config;
const lintRoot = async (root: string): Promise<DriftMessage[]> => (await lint({ root, config: configOf(root) })).messages;
const fixRoot = (root: string, dryRun = false) => fixProject({ root, config: configOf(root), dryRun });

/** Every file of a tree with its bytes, keyed by relative path. */
function snapshot(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) out.set(path.relative(root, abs), readFileSync(abs));
    }
  };
  walk(root);
  return out;
}

const FIX_REMOVE = { rules: { 'reference-param-unknown': ['error', { fixRemove: true }] } };

/** A minimal Python project: one command `tool` whose config is `fields` (Python field lines), documented by `doc`. */
function miniProject(fields: string[], doc: string, config?: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-fix-mini-'));
  temps.push(dir);
  fs.mkdirSync(path.join(dir, 'pkg'));
  fs.mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "pkg.main:main"\n');
  writeFileSync(path.join(dir, 'pkg/__init__.py'), '');
  writeFileSync(
    path.join(dir, 'pkg/main.py'),
    ['from pydantic import BaseModel, Field', '', '', 'class ToolConfig(BaseModel):', ...fields.map((f) => `    ${f}`), '', '', 'def main() -> None:', '    ToolConfig.model_validate({})', ''].join('\n'),
  );
  writeFileSync(path.join(dir, 'docs/cli.md'), doc);
  if (config !== undefined) writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify(config));
  return dir;
}

describe('applyEdits', () => {
  it('applies edits in offset order, whatever order they come in', () => {
    const out = applyEdits('abcdef', [
      { file: 'x', start: 4, end: 5, text: 'E' },
      { file: 'x', start: 0, end: 1, text: 'A' },
    ]);
    expect(out.text).toBe('AbcdEf');
    expect(out.skipped).toEqual([]);
  });

  it('skips an edit that overlaps an earlier one, keeps insertions at one offset in the given order', () => {
    const out = applyEdits('0123456789', [
      { file: 'x', start: 2, end: 5, text: '[a]' },
      { file: 'x', start: 4, end: 6, text: '[b]' },
      { file: 'x', start: 8, end: 8, text: 'X' },
      { file: 'x', start: 8, end: 8, text: 'Y' },
      { file: 'x', start: 9, end: 20, text: 'past the end' },
    ]);
    expect(out.text).toBe('01[a]567XY89');
    expect(out.skipped.map((e) => e.text)).toEqual(['[b]', 'past the end']);
  });
});

describe('round trips: fix → re-lint → fix again', () => {
  const cases: Array<[string, unknown]> = [['fixtures/example-python', FIX_REMOVE]];
  for (const rule of ['reference-param-missing', 'reference-default-mismatch', 'reference-param-unknown']) {
    const dir = path.join(ROOT, 'fixtures/rules', rule, 'invalid');
    for (const c of readdirSync(dir)) cases.push([path.join('fixtures/rules', rule, 'invalid', c), FIX_REMOVE]);
  }
  for (const framework of readdirSync(path.join(ROOT, 'fixtures/frameworks'))) cases.push([path.join('fixtures/frameworks', framework, 'invalid'), FIX_REMOVE]);

  it.each(cases)('%s', async (fixture, config) => {
    const root = copyProject(fixture, config);
    const before = await lintRoot(root);
    const fixable = before.filter((m) => m.fix);
    // Heading-per-parameter and list layouts get no row inserted or removed; everything else here has fixes.
    // So do the framework twins whose drift is only in examples or in a pasted `--help` block
    // (flag extraction twins: prefixes, variadic values, launcher flags, a loaded settings class, a
    // config field joined to its flag); the round trip still shows --fix leaves them untouched.
    // An env section in prose (`env-howto-topic-private`: variables named in a sentence under
    // "Environment variables") has no table to take a row either.
    const unfixed = /(reference-param-missing|reference-param-unknown)\/invalid\/(layout-(bullet-list|param-headings)|env-howto-topic-private|program-sentence-list-stale-flag)$/.test(fixture)
      || /frameworks\/(argparse-abbrev|argparse-loaded-settings|commander-config-join|dotted-launcher|variadic-key-value)\/invalid$/.test(fixture)
      // reStructuredText pages get no fixes (--fix does not edit them).
      || /frameworks\/click-rst-docs\/invalid$/.test(fixture);
    expect(fixable.length > 0, 'has fixable findings').toBe(!unfixed);
    const first = await fixRoot(root);
    expect(first.problems).toEqual([]);
    expect(first.files.length > 0).toBe(fixable.length > 0);
    const after = await lintRoot(root);
    // None of the fixed findings is reported again, and nothing new appears.
    const afterKeys = new Set(after.map(findingKeyString));
    for (const m of fixable) expect(afterKeys.has(findingKeyString(m)), `${m.ruleId} ${JSON.stringify(m.data)}`).toBe(false);
    // Findings may change wording (a list of undocumented names gets shorter), but no new kind appears.
    const kind = (m: DriftMessage): string => `${m.ruleId} ${m.messageId} ${m.file}`;
    const beforeKinds = new Set(before.map(kind));
    expect(after.filter((m) => !beforeKinds.has(kind(m))).map((m) => m.reason)).toEqual([]);
    expect(after.filter((m) => m.fix)).toEqual([]);
    // The result the CLI reports is the re-lint of what was written.
    expect(first.result.messages.map(findingKeyString)).toEqual(after.map(findingKeyString));
    const bytes = snapshot(root);
    const second = await fixRoot(root);
    expect(second.files).toEqual([]);
    expect(snapshot(root)).toEqual(bytes);
  }, 120_000);

  it('fixes the bundled example as the rules describe: rows added in order, default replaced, stale row removed', async () => {
    const root = copyProject('fixtures/example-python', FIX_REMOVE);
    const original = readFileSync(path.join(root, 'docs/reference/cli-commands.mdx'), 'utf8');
    const result = await fixRoot(root);
    expect(result.files.map((f) => [f.file, f.edits])).toEqual([['docs/reference/cli-commands.mdx', 4]]);
    const text = readFileSync(path.join(root, 'docs/reference/cli-commands.mdx'), 'utf8');
    // Unsorted table: after the parameter that precedes it in code order; the stale row is gone.
    expect(text).toContain(
      '| `responses_create_params` | Dict | Overrides for the `responses_create_params`, such as `temperature` and `max_output_tokens`. |\n' +
        '| `resume_from_cache` | bool | Resume an interrupted run by skipping rows already completed in the output file. Default: `False`. |\n\n**Example**',
    );
    expect(text).not.toContain('max_retries');
    // Sorted table with a Default column: sorted position, default in its own code-span column.
    expect(text).toContain(
      '| `responses_create_params` | Dict | `{}` | Overrides for the `responses_create_params`. |\n' +
        '| `resume_from_cache` | bool | `False` | Resume an interrupted run by skipping rows already completed in the output file. |\n' +
        '| `split` | str | `"validation"` | Dataset split to prepare and collect from. |',
    );
    // Every other line is untouched.
    const removed = original.split('\n').filter((l) => !text.split('\n').includes(l));
    expect(removed).toEqual(['| `max_retries` | int | How many times a failed sample is retried. |', '| `split` | str | `train` | Dataset split to prepare and collect from. |']);
  });

  it('leaves stale rows alone without fixRemove', async () => {
    const root = copyProject('fixtures/example-python');
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/reference/cli-commands.mdx'), 'utf8')).toContain('| `max_retries` |');
    expect((await lintRoot(root)).filter((m) => m.ruleId === 'reference-param-unknown').map((m) => m.data.name)).toEqual(['max_retries']);
  });
});

describe('fix passes and the per-file pieces', () => {
  it('a pass after an edit reuses what the pass before parsed, and the result equals linting the fixed files cold', async () => {
    const root = copyProject('fixtures/example-python', FIX_REMOVE);
    const pieces = new MemoryPieceStore();
    const fixed = await fixProject({ root, config: configOf(root), pieces });
    expect(fixed.passes).toBeGreaterThan(0);
    expect(fixed.files.some((f) => f.written)).toBe(true);
    // The second lint found the unchanged files' scans and parses in the store.
    expect(pieces.hits).toBeGreaterThan(0);
    const plain = (ms: DriftMessage[]) => ms.map((m) => ({ ...m, stack: undefined }));
    expect(plain(fixed.result.messages)).toEqual(plain(await lintRoot(root)));
  });
});

describe('fixable rules', () => {
  it('every rule marked fixable emits a fix on one of its invalid fixtures (its fix* options on), and no other rule does', async () => {
    const fixing: string[] = [];
    for (const rule of rules) {
      const options = Object.fromEntries(Object.entries(rule.meta.options).filter(([k, o]) => k.startsWith('fix') && o.type === 'boolean').map(([k]) => [k, true]));
      const dir = path.join(ROOT, 'fixtures/rules', rule.meta.id, 'invalid');
      for (const c of readdirSync(dir)) {
        const root = copyProject(path.join('fixtures/rules', rule.meta.id, 'invalid', c), { rules: { [rule.meta.id]: ['error', options] } });
        const result = await lint({ root, config: configOf(root), rules: [rule] });
        if (result.messages.some((m) => m.fix)) {
          fixing.push(rule.meta.id);
          break;
        }
      }
    }
    expect(fixing.sort()).toEqual(rules.filter((r) => r.meta.fixable).map((r) => r.meta.id).sort());
  }, 240_000);
});

describe('table layouts', () => {
  const fields = [
    'alpha: int = Field(default=1, description="First.")',
    'zeta: int = Field(default=2, description="Last.")',
    'mid: str = Field(default="m", description="Middle | piped.")',
  ];

  it('inserts into a sorted table in sorted position', async () => {
    const root = miniProject(fields, '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n| `zeta` | `2` | Last. |\n');
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(
      '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n| `mid` | `"m"` | Middle \\| piped. |\n| `zeta` | `2` | Last. |\n',
    );
  });

  it('writes no control characters from a description (s30 sweep D5), and the page re-lints clean', async () => {
    const ctl = ['alpha: int = Field(default=1, description="First.")', 'ctl: str = Field(default="x", description="nul \\x00 esc \\x1b[31mred vt \\x0b ff \\x0c tab\\tnel\\x85ls\\u2028end")'];
    const root = miniProject(ctl, '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n');
    await fixRoot(root);
    const written = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
    expect(written).toBe('# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n| `ctl` | `"x"` | nul  esc [31mred vt  ff  tab nel ls end |\n');
    expect((await lintRoot(root)).filter((m) => (m.ruleId ?? '').startsWith('reference-'))).toEqual([]);
  });

  it('s38 sweep D2: cellCode writes a code span that reads back as the text: spaces at both ends padded, one end kept, pipes escaped, backticks fenced', () => {
    expect(cellCode(' both ')).toBe('`  both  `');
    expect(cellCode(' lead')).toBe('` lead`');
    expect(cellCode('trail ')).toBe('`trail `');
    expect(cellCode('   ')).toBe('`   `');
    expect(cellCode('p | q')).toBe('`p \\| q`');
    expect(cellCode('`x ')).toBe('`` `x  ``');
  });

  it('withoutControls drops C0/C1 controls and makes tabs and Unicode line breaks spaces; cell writers apply it', () => {
    expect(withoutControls('a\u0000b\u001bc\u007fd\u0090e\tf\u0085g\u2028h\u2029i\r\nj')).toBe('abcde f g h i\r\nj');
    expect(withoutControls('plain – text é')).toBe('plain – text é');
    expect(cellText('a\u000bb|c')).toBe('ab\\|c');
    expect(cellCode('x\u0000y')).toBe('`xy`');
    expect(cellLiteral('x\u001b*y')).toBe('x\\*y');
  });

  it('inserts into an unsorted table after the parameter that precedes it in code', async () => {
    const root = miniProject(fields, '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `zeta` | `2` | Last. |\n| `alpha` | `1` | First. |\n');
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(
      '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `zeta` | `2` | Last. |\n| `mid` | `"m"` | Middle \\| piped. |\n| `alpha` | `1` | First. |\n',
    );
  });

  it('without a Default column: ends the description with a period, and adds no second default phrase', async () => {
    const root = miniProject(
      [
        'alpha: int = Field(default=1, description="First")',
        'beta: bool = Field(default=False, description="Drop venvs after tests (default: False)")',
        'zeta: int = Field(default=2, description="Last.")',
      ],
      '# CLI\n\n### `tool`\n\n| Name | Description |\n|---|---|\n| `zeta` | Last. |\n',
    );
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(
      '# CLI\n\n### `tool`\n\n| Name | Description |\n|---|---|\n| `zeta` | Last. |\n' +
        '| `alpha` | First. Default: `1`. |\n| `beta` | Drop venvs after tests (default: False) |\n',
    );
  });

  it('keeps an aligned table aligned, plain-text names plain and the missing outer pipes missing', async () => {
    const doc = '# CLI\n\n### `tool`\n\nName  | Default | Description\n------|---------|------------\nalpha | 1       | First.\nzeta  | 2       | Last.\n';
    const root = miniProject(fields.slice(0, 2).concat('beta: bool = False'), doc);
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(
      '# CLI\n\n### `tool`\n\nName  | Default | Description\n------|---------|------------\nalpha | 1       | First.\nbeta  | False   | \nzeta  | 2       | Last.\n',
    );
  });

  it('keeps CRLF line endings and a BOM, and changes no other byte', async () => {
    const doc = '\uFEFF# CLI\r\n\r\n### `tool`\r\n\r\n| Name | Default | Description |\r\n| --- | --- | --- |\r\n| `alpha` | `5` | First. |\r\n| `zeta` | `2` | Last. |';
    const root = miniProject(fields.slice(0, 2).concat('beta: bool = False'), doc);
    await fixRoot(root);
    const bytes = readFileSync(path.join(root, 'docs/cli.md'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toBe(
      '\uFEFF# CLI\r\n\r\n### `tool`\r\n\r\n| Name | Default | Description |\r\n| --- | --- | --- |\r\n| `alpha` | `1` | First. |\r\n| `beta` | `False` |  |\r\n| `zeta` | `2` | Last. |',
    );
    expect(await fixRoot(root).then((r) => r.files)).toEqual([]);
  });

  it('replaces a plain-text default inside its emphasis and removes the last row of a file without a final newline', async () => {
    const doc = '### `tool`\n\n| Name | Default |\n|---|---|\n| `alpha` | **7** |\n| `zeta` | 2 |\n| `gone` | 3 |';
    const root = miniProject(fields.slice(0, 2), doc, FIX_REMOVE);
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe('### `tool`\n\n| Name | Default |\n|---|---|\n| `alpha` | **1** |\n| `zeta` | 2 |');
  });
});

describe('dry run and safety', () => {
  it('--fix-dry-run computes a unified diff and writes nothing', async () => {
    const root = copyProject('fixtures/rules/reference-param-missing/invalid/new-fields');
    const bytes = snapshot(root);
    const result = await fixRoot(root, true);
    expect(snapshot(root)).toEqual(bytes);
    expect(unifiedDiff(result.files)).toBe(
      [
        '--- a/docs/cli.md',
        '+++ b/docs/cli.md',
        '@@ -6,4 +6,7 @@',
        ' | --- | --- | --- | --- |',
        ' | `name` | str |  | Run name. |',
        ' | `epochs` | int | `10` | Passes over the data. |',
        ' | `learning_rate` | float | `0.001` | Step size. |',
        '+| `resume` | bool | `False` | Continue from the last checkpoint. |',
        '+| `tags` | Optional[list] | `None` |  |',
        '+| `seed` | int | `0` | Random seed. |',
        '',
      ].join('\n'),
    );
    // The findings that would remain are those of the fixed text.
    expect(result.result.messages.filter((m) => m.ruleId === 'reference-param-missing')).toEqual([]);
  });

  it('--fix-dry-run escapes what the document holds for the terminal, and keeps CRLF line ends (s26 sweep O2)', () => {
    const before = '# t\x1b]0;TITLE\x07\n\nfake\rline \u202e x\n| a |\n';
    const after = `${before}| b |\n`;
    const file = 'docs/a\n::error file=README.md::forged.md';
    const diff = unifiedDiff([{ file, before, after } as never]);
    expect(diff).not.toMatch(/[\x1b\x07\r\u202e]/);
    expect(diff).toContain('\\x1b]0;TITLE\\x07');
    expect(diff).toContain('fake\\x0dline \\u202e x');
    expect(diff.split('\n').filter((l) => l.startsWith('::error'))).toEqual([]);
    // The header keeps the name on its line (the diff package quotes a name holding a backslash).
    expect(diff.split('\n')[0]).toMatch(/^--- "?a\/docs\/a\\+n::error file=README\.md::forged\.md"?$/);
    const crlf = unifiedDiff([{ file: 'docs/c.md', before: '# t\r\n\r\n| a |\r\n', after: '# t\r\n\r\n| a |\r\n| b |\r\n' } as never]);
    expect(crlf).toContain('+| b |\r\n');
    expect(crlf).not.toContain('\\x0d');
  });

  it('leaves the original intact and no temporary file when the rename fails', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-atomic-'));
    temps.push(dir);
    const file = path.join(dir, 'doc.md');
    writeFileSync(file, 'original\r\n', { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    const failing: AtomicFs = { ...fs, renameSync: () => { throw Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' }); } };
    expect(() => writeFileAtomic(file, 'new text', failing)).toThrow('simulated crash');
    expect(readFileSync(file, 'utf8')).toBe('original\r\n');
    expect(readdirSync(dir)).toEqual(['doc.md']);
    writeFileAtomic(file, 'new text');
    expect(readFileSync(file, 'utf8')).toBe('new text');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['doc.md']);
  });

  it('writes chunks of bytes in order (the per-file cache writes its signature and body apart)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-atomic-'));
    temps.push(dir);
    const file = path.join(dir, 'pieces.bin');
    writeFileAtomic(file, [Buffer.from('mac:'), new Uint8Array(0), Buffer.from('body \u00e9')], { durable: false });
    expect(readFileSync(file, 'utf8')).toBe('mac:body \u00e9');
    expect(readdirSync(dir)).toEqual(['pieces.bin']);
  });

  it('fixProject reports a failed write as a problem and leaves the file as it was', async () => {
    const root = copyProject('fixtures/rules/reference-param-missing/invalid/new-fields');
    const bytes = snapshot(root);
    const failing: AtomicFs = { ...fs, renameSync: () => { throw Object.assign(new Error('EIO'), { code: 'EIO' }); } };
    const result = await fixProject({ root, config: configOf(root), fs: failing });
    expect(result.problems).toEqual(['docs/cli.md: cannot write (EIO); left unchanged']);
    expect(snapshot(root)).toEqual(bytes);
  });

  it('never writes through a symlink that leads out of the project root, nor outside it', async () => {
    const outside = copyProject('fixtures/rules/reference-param-missing/invalid/new-fields');
    const root = copyProject('fixtures/rules/reference-param-missing/invalid/new-fields');
    symlinkSync(path.join(outside, 'docs/cli.md'), path.join(root, 'docs/linked.md'));
    const before = readFileSync(path.join(outside, 'docs/cli.md'), 'utf8');
    // Discovery does not follow symlinks, so only a rule could aim an edit at one: this one does.
    const aimAt = (file: string): Rule => ({
      meta: { id: 'test-edit', description: 'Reports an edit.', defaultSeverity: 'error', fixable: true, options: {}, messages: { m: 'edit' } },
      check: ({ report }) => report({ messageId: 'm', location: { file: 'docs/cli.md', line: 1, column: 1 }, fix: { file, start: 0, end: 0, text: 'X' } }),
    });
    const viaLink = await fixProject({ root, config: configOf(root), rules: [aimAt('docs/linked.md')] });
    expect(viaLink.problems).toEqual([`docs/linked.md is a symlink to ${fs.realpathSync(path.join(outside, 'docs/cli.md'))}, outside the project root; not fixed`]);
    const upward = await fixProject({ root, config: configOf(root), rules: [aimAt('../escape.md')] });
    expect(upward.problems).toEqual(['../escape.md is outside the project root; not fixed']);
    expect(readFileSync(path.join(outside, 'docs/cli.md'), 'utf8')).toBe(before);
    expect(fs.lstatSync(path.join(root, 'docs/linked.md')).isSymbolicLink()).toBe(true);
    expect(() => resolveInsideRoot(root, '/etc/passwd')).toThrow('outside the project root');
  });
});

describe('CLI', () => {
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('--fix-dry-run prints the diff and writes nothing; --fix writes and exits by what remains', () => {
    const root = copyProject('fixtures/rules/reference-param-missing/invalid/new-fields');
    const bytes = snapshot(root);
    const dry = run(['--root', root, '--fix-dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+| `seed` | int | `0` | Random seed. |');
    expect(dry.stderr).toContain('docdrift: would fix 3 problems in 1 file (1 pass); nothing was written.');
    expect(snapshot(root)).toEqual(bytes);
    const fixed = run(['--root', root, '--fix']);
    expect(fixed.stderr).toContain('docdrift: fixed 3 problems in 1 file (1 pass).');
    expect(fixed.code).toBe(0);
    expect(run(['--root', root, '--fix']).stderr).toContain('docdrift: nothing to fix.');
  }, 240_000);

  it('#33: --fix writes no value holding U+FFFD: a latin-1 byte in a source without a coding comment makes the source unreadable, as CPython finds it (s46), so nothing is written and the finding says why', () => {
    const root = copyProject('fixtures/bad-input/_base');
    // `caf\xe9` and `r\xe9duit` in latin-1, no coding comment: invalid UTF-8, which CPython refuses to compile.
    writeFileSync(path.join(root, 'tool/cli.py'), Buffer.from([
      'from pydantic import BaseModel, Field',
      '',
      '',
      'class ToolConfig(BaseModel):',
      '    seed: int = Field(default=0, description="Random seed.")',
      '    name: str = Field(default="caf\u00e9", description="Name of the run.")',
      '    mode: str = Field(default="r\u00e9duit", description="The mode.")',
      '',
      '',
      'def main(cfg: dict) -> None:',
      '    ToolConfig.model_validate(cfg)',
      '',
    ].join('\n'), 'latin1'));
    const bytes = snapshot(root);
    const r = run(['--root', root, '--fix', '--format', 'json', '--no-cache']);
    // Was: read with U+FFFD, two fixes withheld (exit 1). CPython refuses the file at line 6.
    expect(r.code).toBe(2);
    expect(snapshot(root)).toEqual(bytes);
    const results = (JSON.parse(r.stdout) as { results: Array<{ ruleId: string; line: number; message: string }> }).results;
    expect(results.map((m) => [m.ruleId, m.line])).toEqual([['parse-error', 6]]);
    expect(results[0]!.message).toContain("line 6 is not valid UTF-8 and the file declares no encoding, so CPython does not read it (\"SyntaxError: Non-UTF-8 code starting with '\\xe9'");
  }, 240_000);

  it('exits 1 after --fix when unfixable findings remain', () => {
    const root = copyProject('fixtures/example-python');
    const r = run(['--root', root, '--fix', '--format', 'json']);
    expect(r.code).toBe(1);
    const left = (JSON.parse(r.stdout) as { results: Array<{ ruleId: string }> }).results.map((m) => m.ruleId);
    expect(left).toContain('example-param-unknown');
    expect(left).not.toContain('reference-param-missing');
  }, 240_000);
});

describe('rows in the table style (issue #16 item 6)', () => {
  it('writes a string default bare when the table does (`out.csv`, not `"result.csv"`), and the table’s own required mark', async () => {
    const fields = [
      'input_path: str = Field(description="Rows to read.")',
      'output_path: str = Field(default="out.csv", description="Where rows go.")',
      'result_path: str = Field(default="result.csv", description="Where results go.")',
      'epochs: int = Field(default=3, description="Passes.")',
    ];
    const doc =
      '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `input_path` | *required* | Rows to read. |\n| `output_path` | `out.csv` | Where rows go. |\n';
    const root = miniProject(fields, doc);
    const result = await fixRoot(root);
    // The table is sorted by name, so the rows go to their sorted places; half its defaults are
    // code spans, not most, so the new ones are plain text.
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(
      '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `epochs` | 3 | Passes. |\n| `input_path` | *required* | Rows to read. |\n' +
        '| `output_path` | `out.csv` | Where rows go. |\n| `result_path` | result.csv | Where results go. |\n',
    );
    // Re-linted, the fixed table is clean: the bare default reads back as the code's.
    expect(result.result.messages.filter((m) => m.ruleId?.startsWith('reference-'))).toEqual([]);
  });

  it('spells a new row as a flag when every row of the table does (`--epochs`, not `epochs`)', async () => {
    const fields = ['port: int = Field(default=8080, description="Port to listen on.")', 'host: str = Field(default="localhost", description="Host name.")', 'epochs: int = Field(default=3, description="Passes.")'];
    const doc = '# CLI\n\n### `tool`\n\n| Flag | Default | Description |\n|---|---|---|\n| `--port` | `8080` | Port to listen on. |\n| `--host` | `localhost` | Host name. |\n';
    const root = miniProject(fields, doc);
    const result = await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(`${doc}| \`--epochs\` | \`3\` | Passes. |\n`);
    // Re-linted, the new row documents the field.
    expect(result.result.messages.filter((m) => m.ruleId?.startsWith('reference-'))).toEqual([]);
  });

  it('keeps quotes when the table quotes its strings, and fills a Required column with its own words', async () => {
    const fields = ['name: str = Field(description="Run name.")', 'mode: str = Field(default="fast", description="Speed.")', 'tag: str = Field(description="A tag.")'];
    const doc = '# CLI\n\n### `tool`\n\n| Name | Required | Default | Description |\n|---|---|---|---|\n| `name` | ✓ | - | Run name. |\n| `mode` | - | `"fast"` | Speed. |\n';
    const root = miniProject(['name: str = Field(description="Run name.")', 'mode: str = Field(default="fast", description="Speed.")'], doc);
    writeFileSync(
      path.join(root, 'pkg/main.py'),
      ['from pydantic import BaseModel, Field', '', '', 'class ToolConfig(BaseModel):', ...fields.map((f) => `    ${f}`), '    level: str = Field(default="info", description="Log level.")', '', '', 'def main() -> None:', '    ToolConfig.model_validate({})', ''].join('\n'),
    );
    await fixRoot(root);
    expect(readFileSync(path.join(root, 'docs/cli.md'), 'utf8')).toBe(`${doc}| \`tag\` | ✓ | - | A tag. |\n| \`level\` | - | "info" | Log level. |\n`);
  });
});

describe('writes under faults and races (issues #17, #18)', () => {
  const fields = ['alpha: int = Field(default=1, description="First.")', 'zeta: int = Field(default=2, description="Last.")'];
  const DOC = '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n';
  const FIXED = `${DOC}| \`zeta\` | \`2\` | Last. |\n`;
  const cli = (root: string) => path.join(root, 'docs/cli.md');
  /** An fs whose `call` runs `before` once (the first time) and then the real call: a user edit landing at that moment. */
  const racing = (call: 'fsyncSync' | 'renameSync' | 'openSync', before: () => void): AtomicFs => {
    let done = false;
    return {
      ...fs,
      [call]: (...args: unknown[]) => {
        if (!done) {
          done = true;
          before();
        }
        return (fs[call] as (...a: unknown[]) => unknown)(...args);
      },
    } as AtomicFs;
  };

  it('fixes a reference table inside a block quote with the `> ` prefix on the new row, once', async () => {
    const root = miniProject(fields, '# CLI\n\n### `tool`\n\n> | Name | Default | Description |\n> |---|---|---|\n> | `alpha` | `1` | First. |\n> | `old` | `1` | Gone. |\n', FIX_REMOVE);
    const result = await fixRoot(root);
    expect(result.problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe('# CLI\n\n### `tool`\n\n> | Name | Default | Description |\n> |---|---|---|\n> | `alpha` | `1` | First. |\n> | `zeta` | `2` | Last. |\n');
    expect(await lintRoot(root)).toEqual([]);
  });

  it('writes the row of a table in a list in a block quote with the lines\' own `>   ` prefix', async () => {
    const doc = '# CLI\n\n### `tool`\n\n> - | Name | Default | Description |\n>   |---|---|---|\n>   | `alpha` | `1` | First. |\n';
    const root = miniProject(fields, doc);
    const result = await fixRoot(root);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${doc}>   | \`zeta\` | \`2\` | Last. |\n`);
    expect(result.passes).toBe(1);
  });

  it('gives no row fix to a table whose lines do not share one container prefix, and reports the finding', async () => {
    const doc = '# CLI\n\n### `tool`\n\n- | Name | Default | Description |\n  |---|---|---|\n  | `alpha` | `1` | First. |\n   | `beta` | `1` | Second. |\n';
    const root = miniProject([...fields, 'beta: int = Field(default=1, description="Second.")'], doc);
    expect((await lintRoot(root)).map((m) => `${m.ruleId} ${m.data?.name} ${m.fix ? 'fix' : 'no fix'}`)).toEqual(['reference-param-missing zeta no fix']);
    const result = await fixRoot(root);
    expect(result.files).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(doc);
  });

  it.runIf(process.geteuid?.() === 0)('keeps the file\'s owner and mode (run as root)', async () => {
    const root = miniProject(fields, DOC);
    fs.chownSync(cli(root), 1234, 2345);
    fs.chmodSync(cli(root), 0o664);
    expect((await fixRoot(root)).problems).toEqual([]);
    const st = statSync(cli(root));
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([1234, 2345, 0o664]);
    expect(readFileSync(cli(root), 'utf8')).toBe(FIXED);
  });

  it('refuses a read-only file, as documented, and leaves it as it was', async () => {
    const root = miniProject(fields, DOC);
    fs.chmodSync(cli(root), 0o444);
    const result = await fixRoot(root);
    expect(result.problems).toEqual(['docs/cli.md is read-only (mode 0444); not fixed']);
    expect(readFileSync(cli(root), 'utf8')).toBe(DOC);
    expect(statSync(cli(root)).mode & 0o7777).toBe(0o444);
  });

  // s24 sweep D13: the atomic write renames a new file over the name, so a hard-linked document
  // would silently split from its other name (which may be outside the project).
  it('refuses a document with another name (a hard link), leaving both names with the same text', async () => {
    const root = miniProject(fields, DOC);
    const outside = path.join(mkdtempSync(path.join(tmpdir(), 'docdrift-hardlink-')), 'cli.md');
    fs.linkSync(cli(root), outside);
    const result = await fixRoot(root);
    expect(result.problems).toEqual(['docs/cli.md has 2 names (hard links): --fix writes a new file under this name only, which would leave the others with the old text; not fixed. Replace the link with a copy, or fix it by hand']);
    expect(result.files.filter((f) => f.written)).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(DOC);
    expect(statSync(cli(root)).ino).toBe(statSync(outside).ino);
    // A copy in its place is fixed.
    fs.unlinkSync(cli(root));
    fs.copyFileSync(outside, cli(root));
    expect((await fixRoot(root)).problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(FIXED);
    expect(readFileSync(outside, 'utf8')).toBe(DOC);
  });

  it('an edit that lands right before the rename is kept, and the file is reported, not fixed', async () => {
    const root = miniProject(fields, DOC);
    const result = await fixProject({ root, config: configOf(root), fs: racing('fsyncSync', () => fs.appendFileSync(cli(root), 'user edit\n')) });
    expect(result.problems).toEqual(['docs/cli.md changed on disk while docdrift ran; not fixed']);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}user edit\n`);
    expect(readdirSync(path.join(root, 'docs'))).toEqual(['cli.md']);
  });

  it('an edit that lands in the replaced file during the rename is put back, and the file is reported, not fixed', async () => {
    const root = miniProject(fields, DOC);
    const result = await fixProject({ root, config: configOf(root), fs: racing('renameSync', () => fs.appendFileSync(cli(root), 'user edit\n')) });
    expect(result.problems).toEqual(['docs/cli.md was edited while docdrift wrote it; the edit was kept and the file not fixed']);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}user edit\n`);
    expect(readdirSync(path.join(root, 'docs'))).toEqual(['cli.md']);
  });

  // s32 sweep D1: the folder was checked for links only when the run started.
  it('a docs/ folder moved outside and replaced by a link to it while the fix is written: refused and said so, nothing written through the link', async () => {
    const root = miniProject(fields, DOC);
    const away = path.join(mkdtempSync(path.join(tmpdir(), 'docdrift-fix-away-')), 'docs');
    temps.push(path.dirname(away));
    const swap = () => {
      fs.renameSync(path.join(root, 'docs'), away);
      fs.symlinkSync(away, path.join(root, 'docs'));
    };
    const result = await fixProject({ root, config: configOf(root), fs: racing('openSync', swap) });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(/^docs\/cli\.md: docs \(on the way to docs\/cli\.md\) became a symlink \(to .*\) while docdrift ran; .*; not fixed$/);
    expect(result.files.filter((f) => f.written)).toEqual([]);
    expect(readFileSync(path.join(away, 'cli.md'), 'utf8')).toBe(DOC);
    expect(readdirSync(away)).toEqual(['cli.md']);
  });

  it('the summary counts what was written, and the findings are those of the files on disk', async () => {
    const root = miniProject(fields, DOC);
    const failing: AtomicFs = { ...fs, renameSync: () => { throw Object.assign(new Error('EACCES'), { code: 'EACCES' }); } };
    const result = await fixProject({ root, config: configOf(root), fs: failing });
    expect(result.files.map((f) => [f.file, f.written])).toEqual([['docs/cli.md', false]]);
    expect(result.result.messages.map((m) => `${m.ruleId} ${m.data?.name}`)).toEqual(['reference-param-missing zeta']);
    const said = describeFix(result, false).stderr;
    expect(said).not.toMatch(/fixed 1 problem/);
    expect(said).toBe('docdrift: fixed nothing; 1 file with fixes not written (below).\ndocdrift: docs/cli.md: cannot write (EACCES); left unchanged\n');
  });

  it('the summary counts the files refused before they were fixed among those not written (#33 s44 sweep G4)', () => {
    const file = (name: string, written: boolean) => ({ file: name, before: 'a', after: 'b', edits: 1, written });
    const result = {
      result: { messages: [] },
      files: [file('docs/a.md', true), file('docs/b.md', true), file('docs/c.md', false)],
      passes: 1,
      // c.md's write failed; d.md and e.md changed on disk before their fixes were read.
      problems: ['docs/c.md: cannot write (EACCES); left unchanged', 'docs/d.md changed on disk while docdrift ran; not fixed', 'docs/e.md changed on disk while docdrift ran; not fixed'],
      unapplied: [],
      cleaned: [],
    } as unknown as Parameters<typeof describeFix>[0];
    expect(describeFix(result, false).stderr.split('\n')[0]).toBe('docdrift: fixed 2 problems in 2 files (1 pass); 3 files with fixes not written (below).');
  });

  it('removes the temporary files a killed run left, and no other file', async () => {
    const root = miniProject(fields, DOC);
    // pid 2^22+1 is above Linux's pid_max: no process has it.
    const stale = ['.cli.md.docdrift-4194305-abcd1234.tmp', '.other.md.docdrift-4194305-x1.tmp'];
    for (const name of stale) writeFileSync(path.join(root, 'docs', name), 'half a file');
    writeFileSync(path.join(root, 'docs', `.cli.md.docdrift-${process.pid}-live.tmp`), 'a live run');
    writeFileSync(path.join(root, 'docs', 'notes.tmp'), 'not ours');
    const result = await fixRoot(root);
    expect(result.cleaned.sort()).toEqual(stale.map((n) => `docs/${n}`).sort());
    expect(readdirSync(path.join(root, 'docs')).sort()).toEqual([`.cli.md.docdrift-${process.pid}-live.tmp`, 'cli.md', 'notes.tmp']);
    expect(describeFix(result, false).stderr).toContain('docdrift: removed 2 stale temporary files of an interrupted run.');
  });
});

describe('fixes apply only to the text they were computed from, read back as meant, and scope as the plain run (issue #33 items 7–9)', () => {
  const fields = ['alpha: int = Field(default=1, description="First.")', 'zeta: int = Field(default=2, description="Last.")'];
  const DOC = '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `alpha` | `1` | First. |\n';
  const cli = (root: string) => path.join(root, 'docs/cli.md');
  /** A rule that reports nothing: on its first run (the first lint pass, after the pages were read) it runs `edit`, a user editing the page meanwhile. */
  const editsOnce = (edit: () => void): Rule => {
    let done = false;
    return {
      meta: { id: 'test-user-edit', description: 'Edits a page while the run lints.', defaultSeverity: 'error', fixable: false, options: {}, messages: { m: 'edit' } },
      check: () => {
        if (done) return;
        done = true;
        edit();
      },
    };
  };

  it('item 7: a page edited after the lint read it is refused, not patched at the old offsets', async () => {
    const root = miniProject(fields, DOC);
    // The user adds an introduction: every offset the lint computed is now off by its length.
    const edited = DOC.replace('# CLI\n', '# CLI\n\nAn introduction the user wrote while docdrift ran.\n');
    const result = await fixProject({ root, config: configOf(root), rules: [...rules, editsOnce(() => writeFileSync(cli(root), edited))] });
    expect(result.problems).toEqual(['docs/cli.md changed on disk while docdrift ran; not fixed']);
    expect(result.files.filter((f) => f.written)).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(edited);
    // Nothing is said to be fixed above the refusal.
    expect(describeFix(result, false).stderr).toBe('docdrift: fixed nothing; 1 file not fixed (below).\ndocdrift: docs/cli.md changed on disk while docdrift ran; not fixed\n');
  });

  it('item 7: a page another docdrift run is writing is refused (its lock), so two runs never both apply', async () => {
    const root = miniProject(fields, DOC);
    // The parent process stands in for another live run holding the page's lock (with its start
    // time, as a run writes it).
    const startOf = (pid: number): string => readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[19]!;
    writeFileSync(path.join(root, 'docs/.cli.md.docdrift.lock'), `${process.ppid} ${startOf(process.ppid)}\n`);
    const result = await fixRoot(root);
    expect(result.problems).toEqual([`docs/cli.md is being fixed by another docdrift run (pid ${process.ppid}); not fixed (if no docdrift run is going on, remove docs/.cli.md.docdrift.lock)`]);
    expect(readFileSync(cli(root), 'utf8')).toBe(DOC);
    // A lock whose run is gone (pid above Linux's pid_max) is taken over and removed afterwards.
    writeFileSync(path.join(root, 'docs/.cli.md.docdrift.lock'), '4194305\n');
    const again = await fixRoot(root);
    expect(again.problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}| \`zeta\` | \`2\` | Last. |\n`);
    expect(readdirSync(path.join(root, 'docs'))).toEqual(['cli.md']);
  });

  it('s46 sweep H1: a lock naming a live process that is not the run that took it is taken over (a committed lock of pid 1, a killed run\'s pid given to another process, to this run)', async () => {
    const sleeper = spawn('sleep', ['30']);
    try {
      const pid = sleeper.pid!;
      const startOf = (p: number): string => readFileSync(`/proc/${p}/stat`, 'latin1').split(') ')[1]!.split(' ')[19]!;
      // A pid without a start time whose process runs no docdrift; one with another start time; this run's own pid.
      for (const content of [`${pid}\n`, `${pid} ${Number(startOf(pid)) + 1}\n`, `${process.pid} 1\n`, `${process.pid}\n`]) {
        const root = miniProject(fields, DOC);
        writeFileSync(path.join(root, 'docs/.cli.md.docdrift.lock'), content);
        const result = await fixRoot(root);
        expect(result.problems, content).toEqual([]);
        expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}| \`zeta\` | \`2\` | Last. |\n`);
        expect(readdirSync(path.join(root, 'docs'))).toEqual(['cli.md']);
      }
    } finally {
      sleeper.kill();
    }
  });

  it.each([
    ['a FIFO', (lock: string) => execFileSync('mkfifo', [lock])],
    ['a link to /dev/zero', (lock: string) => symlinkSync('/dev/zero', lock)],
    ['a file without a pid', (lock: string) => writeFileSync(lock, 'junk\n')],
    ['a file too long for a pid', (lock: string) => writeFileSync(lock, `${process.ppid}\n${'x'.repeat(100)}`)],
  ])('a lock name holding %s is no lock: it is taken over at once, never read (s26 sweep D2: a FIFO hung the run, /dev/zero grew it to 9 GB)', async (_, make) => {
    const root = miniProject(fields, DOC);
    make(path.join(root, 'docs/.cli.md.docdrift.lock'));
    // Another page's lock name in the folder is looked at when stale temporaries are cleaned.
    make(path.join(root, 'docs/.other.md.docdrift.lock'));
    const result = await fixRoot(root);
    expect(result.problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}| \`zeta\` | \`2\` | Last. |\n`);
  });

  it('s47 sweep J6: a folder at the lock name is said to be a folder, with the remedy, not blamed on a run of pid 0', async () => {
    const root = miniProject(fields, DOC);
    fs.mkdirSync(path.join(root, 'docs/.cli.md.docdrift.lock'));
    const result = await fixRoot(root);
    expect(result.problems).toEqual(['docs/cli.md was not fixed: its lock name docs/.cli.md.docdrift.lock is a folder, not a lock a docdrift run wrote, and docdrift does not remove it; remove it (a folder: `rm -r`) and run again']);
    expect(readFileSync(cli(root), 'utf8')).toBe(DOC);
    // The folder is left as it was; once it is removed the page is fixed.
    fs.rmdirSync(path.join(root, 'docs/.cli.md.docdrift.lock'));
    expect((await fixRoot(root)).problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}| \`zeta\` | \`2\` | Last. |\n`);
  });

  /** A project whose parameters come from a JSON Schema with keys holding `|` and `\`. */
  const schemaProject = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-fix-schema-'));
    temps.push(dir);
    fs.mkdirSync(path.join(dir, 'schema'));
    fs.mkdirSync(path.join(dir, 'docs'));
    const properties = {
      concurrency: { description: 'How many workers.', type: 'integer', default: 4 },
      'a|b': { description: 'Either a or b.', type: 'string', default: 'x' },
      'c\\d': { description: 'A backslash key.', type: 'string', default: 'y' },
      'e\\|f': { description: 'A backslash and a pipe.', type: 'string', default: 'z' },
    };
    writeFileSync(path.join(dir, 'schema/opts.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', title: 'MutantOptions', type: 'object', properties }, null, 2));
    writeFileSync(path.join(dir, 'package.json'), '{"name":"m","version":"1.0.0"}\n');
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { 'mutant.config.json': { kind: 'config-file', config: 'MutantOptions', sections: ['Options'] } } }));
    writeFileSync(path.join(dir, 'docs/configuration.md'), '# Configuration\n\n## Options\n\n| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n| `concurrency` | integer | `4` | How many workers. |\n');
    return dir;
  };

  it('item 8: a key holding `|` or `\\` gets one row, escaped for a GFM cell, that reads back as the key; a second --fix changes nothing', async () => {
    const root = schemaProject();
    const first = await fixRoot(root);
    expect(first.problems).toEqual([]);
    expect(first.passes).toBe(1);
    expect(readFileSync(path.join(root, 'docs/configuration.md'), 'utf8')).toBe(
      '# Configuration\n\n## Options\n\n| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n| `concurrency` | integer | `4` | How many workers. |\n' +
        '| `a\\|b` | string | `"x"` | Either a or b. |\n| `c\\d` | string | `"y"` | A backslash key. |\n| e\\\\\\|f | string | `"z"` | A backslash and a pipe. |\n',
    );
    expect(await lintRoot(root)).toEqual([]);
    const bytes = snapshot(root);
    const second = await fixRoot(root);
    expect(second.files).toEqual([]);
    expect(snapshot(root)).toEqual(bytes);
  });

  it('s38 sweep D1: a parameter whose own name holds a dot (JSON Schema `log.level`) gets a row that reads back as it, with fixRemove on too; a second --fix changes nothing', async () => {
    for (const config of [undefined, FIX_REMOVE]) {
      const root = schemaProject();
      const schema = JSON.parse(readFileSync(path.join(root, 'schema/opts.json'), 'utf8')) as { properties: Record<string, unknown> };
      schema.properties = { concurrency: schema.properties.concurrency, 'log.level': { description: 'Log level.', type: 'string', default: 'info' } };
      writeFileSync(path.join(root, 'schema/opts.json'), JSON.stringify(schema));
      if (config) {
        const file = path.join(root, 'docdrift.config.json');
        writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), ...config }));
      }
      const first = await fixRoot(root);
      expect(first.problems).toEqual([]);
      expect(first.unapplied).toEqual([]);
      expect(readFileSync(path.join(root, 'docs/configuration.md'), 'utf8')).toContain('| `concurrency` | integer | `4` | How many workers. |\n| `log.level` | string | `"info"` | Log level. |\n');
      expect(await lintRoot(root)).toEqual([]);
      const bytes = snapshot(root);
      const second = await fixRoot(root);
      expect(second.files).toEqual([]);
      expect(snapshot(root)).toEqual(bytes);
    }
  });

  /** The schema project with `properties` (name → description) beside `concurrency`, each a string defaulting to "d". */
  const oddSchemaProject = (names: readonly string[], config?: unknown): string => {
    const root = schemaProject();
    const schema = JSON.parse(readFileSync(path.join(root, 'schema/opts.json'), 'utf8')) as { properties: Record<string, unknown> };
    schema.properties = { concurrency: schema.properties.concurrency, ...Object.fromEntries(names.map((n) => [n, { description: 'Odd.', type: 'string', default: 'd' }])) };
    writeFileSync(path.join(root, 'schema/opts.json'), JSON.stringify(schema));
    if (config) {
      const file = path.join(root, 'docdrift.config.json');
      writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), ...config }));
    }
    return root;
  };

  it('s38 sweep D2: names holding a space, `&…;`, `[…](…)`, `<…>`, ` | `, a backtick or a leading or trailing space get rows in code spans that read back whole; a second --fix changes nothing', async () => {
    const names = ['max tokens', 'p | q', '&amp;', '[l](x)', 'm<br>n', '<q>', ' lead', 'trail ', ' both ', 'g `h` i', 'a, b'];
    for (const config of [undefined, FIX_REMOVE]) {
      const root = oddSchemaProject(names, config);
      const before = await lintRoot(root);
      expect(before.map((m) => [m.ruleId, m.data?.['name'], m.fix !== undefined])).toEqual(names.map((n) => ['reference-param-missing', n, true]));
      const first = await fixRoot(root);
      expect(first.problems).toEqual([]);
      expect(first.unapplied).toEqual([]);
      const rows = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8').split('\n').filter((l) => l.endsWith('| Odd. |'));
      expect(rows).toEqual([
        '| `max tokens` | string | `"d"` | Odd. |',
        '| `p \\| q` | string | `"d"` | Odd. |',
        '| `&amp;` | string | `"d"` | Odd. |',
        '| `[l](x)` | string | `"d"` | Odd. |',
        '| `m<br>n` | string | `"d"` | Odd. |',
        '| `<q>` | string | `"d"` | Odd. |',
        '| ` lead` | string | `"d"` | Odd. |',
        '| `trail ` | string | `"d"` | Odd. |',
        '| `  both  ` | string | `"d"` | Odd. |',
        '| ``g `h` i`` | string | `"d"` | Odd. |',
        '| `a, b` | string | `"d"` | Odd. |',
      ]);
      expect(await lintRoot(root)).toEqual([]);
      const bytes = snapshot(root);
      const second = await fixRoot(root);
      expect(second.files).toEqual([]);
      expect(snapshot(root)).toEqual(bytes);
    }
  });

  it('s38 sweep D2: rows written by hand for `max tokens`, `p \\| q` and `&amp;` document them: no missing row, no unknown `max`, `p`, `q` or `&amp`', async () => {
    const root = oddSchemaProject(['max tokens', 'p | q', '&amp;']);
    writeFileSync(
      path.join(root, 'docs/configuration.md'),
      '# Configuration\n\n## Options\n\n| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n| `concurrency` | integer | `4` | How many workers. |\n' +
        '| `max tokens` | string | `"d"` | Odd. |\n| `p \\| q` | string | `"d"` | Odd. |\n| `&amp;` | string | `"d"` | Odd. |\n',
    );
    expect((await lintRoot(root)).map((m) => `${m.ruleId} ${m.reason}`)).toEqual([]);
    // The same names as pydantic aliases, in a command's reference.
    const mini = miniProject(
      ['max_tokens: int = Field(default=256, alias="max tokens", description="Most tokens.")', 'either: str = Field(default="p", alias="p | q", description="Either.")'],
      '# CLI\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `max tokens` | int | `256` | Most tokens. |\n| `p \\| q` | str | `"p"` | Either. |\n',
    );
    expect((await lintRoot(mini)).map((m) => `${m.ruleId} ${m.reason}`)).toEqual([]);
  });

  it('s38 sweep D2: a plain-text name cell and flag spellings in code spans are read as before beside such names', async () => {
    const mini = miniProject(
      ['max_tokens: int = Field(default=256, alias="max tokens", description="Most tokens.")', 'seed: int = Field(default=0, description="Seed.")', 'out: str = Field(default="o", description="Out.")'],
      '# CLI\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `max tokens` | int | `256` | Most tokens. |\n| seed (alias) | int | `0` | Seed. |\n| `--out <dir>` | str | `"o"` | Out. |\n| `maxx (int)` | int |  | Stale. |\n',
    );
    // `seed (alias)` and `--out <dir>` document `seed` and `out`; a stale span none of whose pieces is a parameter is reported as written.
    expect((await lintRoot(mini)).map((m) => `${m.ruleId} ${m.data?.['name']}`)).toEqual(['reference-param-unknown maxx (int)']);
  });

  it('s38 sweep D2: the suggested row escapes a pipe in the name (a reference of parameter headings, where --fix inserts no row)', async () => {
    const root = oddSchemaProject(['p | q', 'g`h']);
    writeFileSync(path.join(root, 'docs/configuration.md'), '# Configuration\n\n## Options\n\n### `concurrency`\n\nHow many workers. Type: `integer`. Default: `4`.\n');
    const messages = await lintRoot(root);
    expect(messages.map((m) => [m.ruleId, m.data?.['name'], m.fix !== undefined, m.suggestion])).toEqual([
      ['reference-param-missing', 'p | q', false, '| `p \\| q` | string | Odd. Default: `"d"`. |'],
      ['reference-param-missing', 'g`h', false, '| ``g`h`` | string | Odd. Default: `"d"`. |'],
    ]);
  });

  it('s38 sweep D2: names no row can spell (empty, a tab, a line break, a backslash before a pipe and a space) get one note, no finding and no fix', async () => {
    const root = oddSchemaProject(['', 'a\tb', 'x\ny', 'e\\| f', 'ok name']);
    const result = await lint({ root, config: configOf(root) });
    expect(result.messages.map((m) => [m.ruleId, m.data?.['name']])).toEqual([['reference-param-missing', 'ok name']]);
    expect(result.notes.filter((n) => n.includes('no reference row can spell'))).toEqual([
      expect.stringMatching(/^4 parameters of `mutant\.config\.json` \(JSON Schema MutantOptions \(schema\/opts\.json:1\)\) have names no reference row can spell, so their rows were not checked: "", "a\\tb", "x\\ny", "e\\\\\| f"\. /),
    ]);
    const first = await fixRoot(root);
    expect(first.unapplied).toEqual([]);
    expect(await lintRoot(root)).toEqual([]);
  });

  it('s38 sweep D1: a row naming a pydantic alias that holds a dot (`alias="log.level"`) documents the field', async () => {
    const root = miniProject(
      ['name: str = Field(default="run", description="Name of the run.")', 'log_level: str = Field(default="info", alias="log.level", description="Log level.")'],
      '# CLI\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `name` | str | `"run"` | Name of the run. |\n| `log.level` | str | `"info"` | Log level. |\n',
    );
    expect((await lintRoot(root)).map((m) => `${m.ruleId} ${m.reason}`)).toEqual([]);
  });

  it('item 8: a fix whose result does not read back as meant (its finding is still there) is refused, and the file left as it was', async () => {
    const root = miniProject(fields, DOC);
    // A rule whose row never reads back: it reports the same finding whatever the text says.
    const stubborn: Rule = {
      meta: { id: 'test-stubborn', description: 'Reports a finding its fix does not resolve.', defaultSeverity: 'error', fixable: true, options: {}, messages: { m: 'add {{name}}' } },
      check: ({ report }) => report({ messageId: 'm', data: { name: 'x|y' }, location: { file: 'docs/cli.md', line: 1, column: 1 }, fix: { file: 'docs/cli.md', start: 0, end: 0, text: 'junk\n' } }),
    };
    const result = await fixProject({ root, config: configOf(root), rules: [stubborn] });
    expect(result.unapplied).toEqual(['docs/cli.md: the fix of test-stubborn `x|y` does not read back as meant (re-linted, the finding is still there); not fixed']);
    // Not a refused write: the exit code is the findings' (s22 sweep D8), and fixes are counted as fixes.
    expect(result.problems).toEqual([]);
    expect(describeFix(result, false).stderr.split('\n')[0]).toBe('docdrift: fixed nothing; 1 fix not applied (below).');
    expect(readFileSync(cli(root), 'utf8')).toBe(DOC);
    expect(result.result.messages.map((m) => m.ruleId)).toEqual(['test-stubborn']);
  });
  it('sweep note: a fix that does not read back is reported and left out; the other fixes of the same file still apply', async () => {
    const root = miniProject(fields, DOC);
    const stubborn: Rule = {
      meta: { id: 'test-stubborn', description: 'Reports a finding its fix does not resolve.', defaultSeverity: 'error', fixable: true, options: {}, messages: { m: 'add {{name}}' } },
      check: ({ report }) => report({ messageId: 'm', data: { name: 'x|y' }, location: { file: 'docs/cli.md', line: 1, column: 1 }, fix: { file: 'docs/cli.md', start: 0, end: 0, text: 'junk\n' } }),
    };
    // A fixable finding in the same file whose fix does read back (gone once the text ends with its line).
    const good: Rule = {
      meta: { id: 'test-good', description: 'Reports a finding its fix resolves.', defaultSeverity: 'error', fixable: true, options: {}, messages: { m: 'append {{name}}' } },
      check: ({ model, report }) => {
        const text = model.source?.('docs/cli.md') ?? '';
        if (!text.endsWith('appended\n')) report({ messageId: 'm', data: { name: 'z' }, location: { file: 'docs/cli.md', line: 3, column: 1 }, fix: { file: 'docs/cli.md', start: text.length, end: text.length, text: 'appended\n' } });
      },
    };
    const result = await fixProject({ root, config: configOf(root), rules: [stubborn, good] });
    expect(result.unapplied).toEqual(['docs/cli.md: the fix of test-stubborn `x|y` does not read back as meant (re-linted, the finding is still there); not fixed']);
    expect(describeFix(result, false).stderr.split('\n')[0]).toBe('docdrift: fixed 1 problem in 1 file (2 passes); 1 fix not applied (below).');
    expect(readFileSync(cli(root), 'utf8')).toBe(`${DOC}appended\n`);
    expect(result.files.map((f) => [f.file, f.edits, f.written])).toEqual([['docs/cli.md', 1, true]]);
    expect(result.result.messages.map((m) => m.ruleId)).toEqual(['test-stubborn']);
  });

  it('s26 sweep D4: a default holding Markdown syntax replaced in a plain-text Default cell is written as a code span, reads back, and a second run is clean', async () => {
    const values = ['<b>', '*a*', '_x_', '[a](b)'];
    const names = ['lt', 'star', 'under', 'link'];
    const doc = `# CLI\n\n### \`tool\`\n\n| Name | Default | Description |\n|---|---|---|\n${names.map((n) => `| \`${n}\` | zz | ${n}. |`).join('\n')}\n`;
    const root = miniProject(
      names.map((n, i) => `${n}: str = Field(default=${JSON.stringify(values[i])}, description="${n}.")`),
      doc,
    );
    // Each finding is offered a fix (counted "potentially fixable"), and --fix applies every one.
    const before = await lintRoot(root);
    expect(before.map((m) => [m.ruleId, m.data?.['name'], m.fix !== undefined])).toEqual(names.map((n) => ['reference-default-mismatch', n, true]));
    const first = await fixRoot(root);
    expect(first.unapplied).toEqual([]);
    expect(first.problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(
      `# CLI\n\n### \`tool\`\n\n| Name | Default | Description |\n|---|---|---|\n${names.map((n, i) => `| \`${n}\` | \`${JSON.stringify(values[i])}\` | ${n}. |`).join('\n')}\n`,
    );
    expect(await lintRoot(root)).toEqual([]);
    const bytes = snapshot(root);
    const second = await fixRoot(root);
    expect(second.files).toEqual([]);
    expect(snapshot(root)).toEqual(bytes);
  });

  it('s26 sweep D4: a plain default without Markdown syntax is still written plain, inside the cell\'s emphasis', async () => {
    const root = miniProject(['mode: str = Field(default="fast", description="Mode.")'], '# CLI\n\n### `tool`\n\n| Name | Default | Description |\n|---|---|---|\n| `mode` | **slow** | Mode. |\n');
    await fixRoot(root);
    expect(readFileSync(cli(root), 'utf8')).toContain('| `mode` | **"fast"** | Mode. |');
    expect(await lintRoot(root)).toEqual([]);
  });

  it('s27 sweep2 D4, s38 sweep D2: a missing flag whose name no row can spell (a tab) gets a note, not a finding; one the usual reading would not take whole (`--g<i>`) gets a code span read whole', async () => {
    const root = miniProject([], '# CLI\n\n### `tool`\n\n| Parameter | Default | Description |\n| --- | --- | --- |\n| `--seed` | `0` | Random seed. |\n');
    writeFileSync(
      path.join(root, 'pkg/main.py'),
      [
        'import argparse',
        '',
        '',
        'def main():',
        '    p = argparse.ArgumentParser(prog="tool")',
        '    p.add_argument("--seed", type=int, default=0, help="Random seed.")',
        '    p.add_argument("--g<i>", default="x", help="Angle brackets in the name.")',
        '    p.add_argument("--h{x}", default="y", help="Braces in the name.")',
        '    p.add_argument("--n\\ta", default="z", help="A tab in the name.")',
        '    p.add_argument("--plain-one", default="w", help="An ordinary flag.")',
        '    p.parse_args()',
        '',
      ].join('\n'),
    );
    const result = await lint({ root, config: configOf(root) });
    // Since s38 sweep D2 a code span naming a flag whole (`--g<i>`, `--h{x}`) documents it, so
    // their rows are fixes; a name holding a tab cannot be written in a row: a note, no finding.
    expect(result.messages.map((m) => [m.ruleId, m.data?.['name'], m.fix !== undefined])).toEqual([
      ['reference-param-missing', 'g<i>', true],
      ['reference-param-missing', 'h{x}', true],
      ['reference-param-missing', 'plain-one', true],
    ]);
    expect(result.notes.filter((n) => n.includes('no reference row can spell'))).toEqual([
      expect.stringMatching(/^1 parameter of `tool` \(CLI flags in pkg\/main\.py:\d+\) has a name no reference row can spell, so its row was not checked: "n\\ta"\. /),
    ]);
    const first = await fixRoot(root);
    expect(first.unapplied).toEqual([]);
    const written = readFileSync(cli(root), 'utf8');
    expect(written).toContain('| `--g<i>` | `"x"` | Angle brackets in the name. |');
    expect(written).toContain('| `--h{x}` | `"y"` | Braces in the name. |');
    expect(written).toContain('| `--plain-one` | `"w"` | An ordinary flag. |');
    const second = await fixRoot(root);
    expect(second.files).toEqual([]);
    expect(second.unapplied).toEqual([]);
    expect(await lintRoot(root)).toEqual([]);
  });

  it('item 8: a fixed finding is gone when only a sibling with the same key and no fix stays', async () => {
    const root = miniProject(fields, DOC);
    // Two findings share a key (rule, file, subject): the first is fixed, the second has no fix and stays.
    const sibling: Rule = {
      meta: { id: 'test-sibling', description: 'Reports a fixable finding and an unfixable twin.', defaultSeverity: 'error', fixable: true, options: {}, messages: { m: 'about {{name}}' } },
      check: ({ model, report }) => {
        if (!model.source?.('docs/cli.md')?.startsWith('fixed\n')) report({ messageId: 'm', data: { name: 'x' }, location: { file: 'docs/cli.md', line: 1, column: 1 }, fix: { file: 'docs/cli.md', start: 0, end: 0, text: 'fixed\n' } });
        report({ messageId: 'm', data: { name: 'x' }, location: { file: 'docs/cli.md', line: 3, column: 1 } });
      },
    };
    const result = await fixProject({ root, config: configOf(root), rules: [sibling] });
    expect(result.problems).toEqual([]);
    expect(readFileSync(cli(root), 'utf8')).toBe(`fixed\n${DOC}`);
  });
});

describe('CLI: --fix with code paths (issue #33 item 9)', () => {
  const run = (args: string[], cwd: string) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** The bad-input base project after a code change: `seed` renamed `seeds`, so the reference and the README are stale. */
  const staleProject = (): string => {
    const root = copyProject('fixtures/bad-input/_base');
    const file = path.join(root, 'tool/cli.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('seed: int', 'seeds: int'));
    return root;
  };
  const results = (stdout: string) => (JSON.parse(stdout) as { results: Array<{ file: string; ruleId: string; line: number }> }).results.map((m) => `${m.file}:${m.line} ${m.ruleId}`);

  it('s33 sweep D4: with a config problem (exit 2) --fix and --fix-dry-run do not say "nothing to fix." above it', () => {
    const root = copyProject('fixtures/bad-input/_base');
    writeFileSync(path.join(root, 'docdrift.config.json'), '{"commands":{"tool":{"config":"tool.cli.NoSuchClass"}}}\n');
    for (const option of ['--fix', '--fix-dry-run']) {
      const r = run([option, '--no-cache'], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('NoSuchClass');
      expect(r.stderr).not.toContain('nothing to fix');
    }
  });

  it('--fix tool/cli.py fixes and reports the docs the code change made stale, as the plain run reports them', () => {
    const root = staleProject();
    const plain = run(['--format', 'json', '--no-cache', 'tool/cli.py'], root);
    expect(plain.code).toBe(1);
    expect(results(plain.stdout).some((r) => r.startsWith('docs/reference.md:'))).toBe(true);
    const fixed = run(['--fix', '--format', 'json', '--no-cache', 'tool/cli.py'], root);
    expect(fixed.stderr).not.toContain('nothing to fix');
    expect(fixed.stderr).toContain('docdrift: fixed 1 problem in 1 file (1 pass).');
    expect(readFileSync(path.join(root, 'docs/reference.md'), 'utf8')).toContain('| `seeds` | int | `0` | Random seed. |');
    // What is left (the stale `seed` row, the README's `+seed=1`) is reported, and exits 1, as the plain run does now.
    const after = run(['--format', 'json', '--no-cache', 'tool/cli.py'], root);
    expect(after.code).toBe(1);
    expect(fixed.code).toBe(1);
    expect(results(fixed.stdout)).toEqual(results(after.stdout));
    expect(results(fixed.stdout).length).toBeGreaterThan(0);
  }, 120_000);

  it('a refusal is not preceded by "nothing to fix."', () => {
    const root = staleProject();
    fs.chmodSync(path.join(root, 'docs/reference.md'), 0o444);
    const r = run(['--fix', '--no-cache', 'tool/cli.py'], root);
    expect(r.stderr).not.toContain('nothing to fix');
    expect(r.stderr).toContain('docdrift: fixed nothing; 1 file not fixed (below).\ndocdrift: docs/reference.md is read-only (mode 0444); not fixed\n');
    expect(r.code).toBe(2);
  }, 120_000);
});

describe('--fix writes bounded cells (s23 sweep D9)', () => {
  it('a type or default too long for a cell leaves it empty, a long description is cut at a word; the page is still read', async () => {
    const root = copyProject('fixtures/bad-input/_base');
    const union = `Union[${Array.from({ length: 8000 }, (_, i) => `Literal["v${i}"]`).join(', ')}]`;
    const list = `[${Array.from({ length: 100 }, (_, i) => `"item${i}"`).join(', ')}]`;
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    writeFileSync(path.join(root, 'tool/cli.py'), [
      'from typing import *',
      'from pydantic import BaseModel, Field',
      '',
      'class ToolConfig(BaseModel):',
      '    seed: int = Field(default=0, description="Random seed.")',
      '    name: str = Field(default="run", description="Name of the run.")',
      `    extra: ${union} = None`,
      `    names: List[str] = Field(default=${list}, description="${words}")`,
      '',
      'def main(cfg: dict) -> None:',
      '    ToolConfig.model_validate(cfg)',
      '',
    ].join('\n'));
    await fixRoot(root);
    const page = readFileSync(path.join(root, 'docs/reference.md'), 'utf8');
    const rows = page.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.find((r) => r.startsWith('| `extra`'))).toBe('| `extra` |  | `None` |  |');
    const names = rows.find((r) => r.startsWith('| `names`'))!;
    expect(names.startsWith('| `names` | List[str] |  | word0 word1 ')).toBe(true);
    expect(names.length).toBeLessThan(1100);
    expect(names.endsWith(' … |')).toBe(true);
    // The page is read again, all rows known.
    expect((await lintRoot(root)).filter((m) => m.ruleId === 'reference-param-missing' || m.ruleId === 'parse-error')).toEqual([]);
  });
});
