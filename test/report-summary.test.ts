/**
 * Tests of the `--summary` report: coverage figures on the bundled example (checked by hand against
 * fixtures/example-python), Markdown escaping of hostile names, and the CLI appending to a file.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';
import { type LintResult } from '../src/engine/lint.js';
import { commandCoverage, formatSummary, summaryCode } from '../src/report/summary.js';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfmToMarkdown } from 'mdast-util-gfm';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { toString } from 'mdast-util-to-string';
import type { Root, Table } from 'mdast';
import { isSummaryReport, SUMMARY_MARKER } from '../src/shared/report-marker.js';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-summary-'));
  temps.push(dir);
  return dir;
}

let example: LintResult;
beforeAll(async () => {
  example = await lint({ root: EXAMPLE, config: loadConfig(EXAMPLE, undefined, ruleIds).config });
}, 60_000);

/** `[name, in code, in reference, example docs, explained docs]` per row. */
function table(command: string) {
  const cmd = example.model.commandByName(command)!;
  return commandCoverage(example.model, cmd).rows.map((r) => [r.name, r.inCode, r.inReference, r.exampleDocs, r.explainedDocs]);
}

describe('summary coverage of the bundled example', () => {
  it('ng_collect_rollouts: 9 parameters in code, a stale row, a typo, and who links to the reference', () => {
    // By hand: RolloutCollectionConfig has 8 fields plus dry_run from its base (documented under
    // "Common options"). Examples: README.md (two blocks, links to the section), the reference page's
    // own example, benchmarks/gpqa (links) and resources_servers/weather (no link). README's
    // `++simple_agent.…` addresses a Hydra namespace (not listed, as example-param-unknown ignores it).
    expect(table('ng_collect_rollouts')).toEqual([
      ['dry_run', true, true, 0, 0],
      ['agent_name', true, true, 4, 3], // README, cli-commands.mdx, gpqa, weather; weather links nowhere
      ['input_jsonl_fpath', true, true, 4, 3],
      ['output_jsonl_fpath', true, true, 4, 3],
      ['limit', true, true, 2, 2], // README and the reference page itself
      ['num_repeats', true, true, 0, 0], // gpqa misspells it
      ['num_samples_in_parallel', true, true, 1, 0], // weather only
      ['responses_create_params', true, true, 0, 0],
      ['resume_from_cache', true, false, 3, 0], // README, gpqa, weather; no row, so nothing explains it
      ['max_retries', false, true, 0, 0], // stale row
      ['num_repeat', false, false, 1, 0], // the typo in gpqa
    ]);
  });

  it('an alias names the same command; ng_e2e_collect_rollouts adds `split`; ng_run is unknown', () => {
    expect(table('nemo_gym_collect_rollouts')).toEqual(table('ng_collect_rollouts'));
    // Only benchmarks/aime24 runs it (config_paths is a global parameter), linking nowhere.
    expect(table('ng_e2e_collect_rollouts')).toEqual([
      ['dry_run', true, true, 0, 0],
      ['agent_name', true, true, 0, 0],
      ['input_jsonl_fpath', true, true, 0, 0],
      ['output_jsonl_fpath', true, true, 1, 0],
      ['limit', true, true, 0, 0],
      ['num_repeats', true, true, 0, 0],
      ['num_samples_in_parallel', true, true, 0, 0],
      ['responses_create_params', true, true, 0, 0],
      ['resume_from_cache', true, false, 1, 0],
      ['split', true, true, 1, 0],
    ]);
    expect(example.model.commandByName('ng_run')!.paramsKnown).toBe(false);
  });

  it('renders totals, findings per rule and the coverage tables as Markdown', () => {
    const md = formatSummary(example.messages, example.model);
    expect(md.startsWith('## docdrift\n\n11 problems (9 errors, 2 warnings).\n\n')).toBe(true);
    const perRule = md
      .split('\n')
      .filter((l) => l.startsWith('| [`'))
      .map((l) => l.split('|').slice(1, 4).map((c) => c.trim().replace(/^\[`([^`]+)`\].*$/, '$1')));
    expect(perRule).toEqual([
      ['example-param-undocumented', '4', '0'],
      ['example-param-unexplained', '0', '2'],
      ['example-param-unknown', '1', '0'],
      ['reference-default-mismatch', '1', '0'],
      ['reference-param-missing', '2', '0'],
      ['reference-param-unknown', '1', '0'],
    ]);
    expect(md).toContain(
      '### `ng_collect_rollouts` / `nemo_gym_collect_rollouts`\n\n' +
        '9 parameters in code, 8 in the reference, 6 used in examples, 1 of those explained wherever used, 2 only in the docs. ' +
          'Parameters from pydantic class RolloutCollectionConfig (nemo_gym/rollout_collection.py:10).\n',
    );
    expect(md).toContain('| `resume_from_cache`       |    ✓    |         ✗        |           3 docs |       0/3 |\n');
    expect(md).toContain('| `max_retries`             |    ✗    |         ✓        |                — |         — |\n');
    expect(md).toContain(
      '### `ng_e2e_collect_rollouts` / `nemo_gym_e2e_collect_rollouts`\n\n' +
        '10 parameters in code, 9 in the reference, 3 used in examples, 0 of those explained wherever used. ' +
          'Parameters from pydantic class E2ERolloutCollectionConfig (nemo_gym/e2e.py:6).\n',
    );
    // The reason names the entry point and the config keys that would fix it.
    expect(md).toContain('### `ng_run`\n\nParameters unknown, so not checked: its entry point `nemo_gym.cli:run` builds no CLI parser docdrift reads');
    // Backquoted names in notes are inline code, not escaped backquotes.
    expect(md).not.toContain('\\`');
    expect(md).toContain('set `commands."ng_run".config` (a class or a list), `commands."ng_run".flags`, or `commands."ng_run".program`');
    expect(formatSummary([], example.model).startsWith('## docdrift\n\nNo problems found.\n\n### `ng_collect_rollouts`')).toBe(true);
  });
});

/** A one-command project whose reference holds hostile names. */
function hostileProject(): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'pkg'));
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "hostile"\nversion = "0.1.0"\n[project.scripts]\ntool = "pkg.main:main"\n');
  writeFileSync(path.join(dir, 'pkg/__init__.py'), '');
  writeFileSync(
    path.join(dir, 'pkg/main.py'),
    'from pydantic import BaseModel, Field\n\nclass ToolConfig(BaseModel):\n    limit: int = Field(default=1, description="How many.")\n\ndef main() -> None:\n    ToolConfig.model_validate({})\n',
  );
  writeFileSync(
    path.join(dir, 'docs/reference.md'),
    '# Reference\n\n## `tool`\n\n| Parameter | Type | Description |\n| --- | --- | --- |\n' +
      '| `limit` | int | How many. |\n| `a\\|b` | str | a pipe |\n| ``x`y`` | str | a backtick |\n\n' +
      '```bash\ntool +limit=2\n```\n',
  );
  return dir;
}

describe('summary escaping', () => {
  it('keeps pipes and backticks inside their cells', async () => {
    const dir = hostileProject();
    const result = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    const cmd = result.model.commandByName('tool')!;
    expect(commandCoverage(result.model, cmd).rows.map((r) => r.name)).toEqual(['limit', 'a|b', 'x`y']);
    const md = formatSummary(result.messages, result.model);
    const rows = md.split('\n').filter((l) => /^\| `/.test(l));
    expect(rows.map((l) => l.replace(/ {2,}/g, ' '))).toEqual([
      '| `limit` | ✓ | ✓ | 1 doc | 1/1 |',
      '| `a\\|b` | ✗ | ✓ | — | — |',
      '| ``x`y`` | ✗ | ✓ | — | — |',
    ]);
    // Every table row still has exactly 5 cells once GFM splits it at unescaped pipes.
    for (const l of rows) expect(l.split(/(?<!\\)\|/).length - 2).toBe(5);
  });
});

describe('summary names in table cells (#33 s44 sweep G5)', () => {
  it('a name reads back from its cell as itself, a backslash before a pipe included', () => {
    for (const name of ['a|b', 'e\\|f', 'e\\\\|f', 'x`y', 'plain', 'a\\b']) {
      const tree: Root = { type: 'root', children: [{ type: 'table', children: [
        { type: 'tableRow', children: [{ type: 'tableCell', children: [{ type: 'text', value: 'name' }] }] },
        { type: 'tableRow', children: [{ type: 'tableCell', children: [summaryCode(name)] }] },
      ] }] };
      const markdown = toMarkdown(tree, { extensions: [gfmToMarkdown()] });
      const back = unified().use(remarkParse).use(remarkGfm).parse(markdown);
      expect(toString((back.children[0] as Table).children[1]!.children[0]), markdown).toBe(name);
    }
  });
});

describe('summary coverage of dotted parameter names (s38 sweep D1)', () => {
  it('a row naming a parameter whose own name or alias holds a dot (`log.level`) documents it; no stale doc-only row, and no parameter `log` is documented by it', async () => {
    const dir = tempDir();
    cpSync(path.join(ROOT, 'fixtures/rules/reference-param-unknown/valid/dotted-param-names'), dir, { recursive: true });
    // A parameter `log` beside `log.level`: the row `log.level` is not a key below it.
    const schemaFile = path.join(dir, 'schemas/settings.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { properties: Record<string, unknown> };
    schema.properties.log = { type: 'string', default: 'stderr', description: 'Where logs go.' };
    writeFileSync(schemaFile, JSON.stringify(schema));
    const result = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    const rows = (name: string) => commandCoverage(result.model, result.model.commandByName(name)!).rows.map((r) => [r.name, r.inCode, r.inReference]);
    expect(rows('tool.json')).toEqual([
      ['workers', true, true],
      ['log.level', true, true],
      ['server', true, true],
      ['log', true, false],
    ]);
    expect(rows('tool')).toEqual([
      ['name', true, true],
      ['log_level', true, true],
      ['optim', true, true],
    ]);
  });
});

describe('docdrift --summary', () => {
  const run = (args: string[], cwd: string) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('appends to the file, as $GITHUB_STEP_SUMMARY expects, next to any --format', () => {
    const dir = tempDir();
    const file = path.join(dir, 'step-summary.md');
    writeFileSync(file, '# Earlier step\n');
    const first = run(['--root', EXAMPLE, '--format', 'github', '--summary', file], ROOT);
    expect(first.status).toBe(1);
    expect(first.stdout.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(11);
    const second = run(['--root', EXAMPLE, '--quiet', '--format', 'sarif', '--summary', path.relative(ROOT, file)], ROOT);
    expect(second.status).toBe(1);
    const sarif = JSON.parse(second.stdout) as { runs: Array<{ results: unknown[]; tool: { driver: { version: string } } }> };
    expect(sarif.runs[0]!.results).toHaveLength(9);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(sarif.runs[0]!.tool.driver.version).toBe(pkg.version);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# Earlier step\n## docdrift\n\n11 problems (9 errors, 2 warnings).\n')).toBe(true);
    expect(text.split('## docdrift')).toHaveLength(3);
    expect(text).toContain('\n\n## docdrift\n\n9 problems (9 errors, 0 warnings).\n');
  });

  it('a report written inside the project is docdrift\'s own: later runs do not read it as a document, and the same command runs again (s35 sweep D8)', () => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    const first = run(['--summary', 'coverage.md'], dir);
    expect(first.status).toBe(1);
    const text = readFileSync(path.join(dir, 'coverage.md'), 'utf8');
    expect(text).toContain(SUMMARY_MARKER);
    // Its coverage table is no reference: the plain run's findings are the first run's, none on it.
    const plain = run(['--format', 'json'], dir);
    const results = (JSON.parse(plain.stdout) as { results: Array<{ file: string }> }).results;
    expect(results.filter((r) => r.file === 'coverage.md')).toEqual([]);
    expect(plain.status).toBe(1);
    // Appended to, not refused as a document the run checks.
    const again = run(['--summary', 'coverage.md'], dir);
    expect(again.stderr).not.toContain('the report would');
    expect(again.status).toBe(1);
    expect(readFileSync(path.join(dir, 'coverage.md'), 'utf8').split(SUMMARY_MARKER)).toHaveLength(3);
    // A document without the marker is still refused.
    writeFileSync(path.join(dir, 'docs.md'), '# Docs\n');
    expect(run(['--summary', 'docs.md'], dir).status).toBe(2);
  });

  it('a page that only quotes the marker is documentation: its rows and examples are checked (s36 sweep D4)', () => {
    expect(isSummaryReport(`## docdrift\n\n3 problems (3 errors, 0 warnings).\n\n${SUMMARY_MARKER}\n`)).toBe(true);
    expect(isSummaryReport(`\uFEFF## docdrift\r\n\r\n1 problem (0 errors, 1 warning).\r\n\r\n${SUMMARY_MARKER}\r\n\r\n## docdrift\r\n\r\nNo problems found.\r\n\r\n${SUMMARY_MARKER}\r\n`)).toBe(true);
    expect(isSummaryReport(`# Reference\n\nOur CI summary ends with:\n\n\`\`\`html\n${SUMMARY_MARKER}\n\`\`\`\n`)).toBe(false);
    expect(isSummaryReport(`# tool\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n\n${SUMMARY_MARKER}\n`)).toBe(false);
    expect(isSummaryReport(`## docdrift\n\nSee ${SUMMARY_MARKER}\n`)).toBe(false);
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    const before = run(['--format', 'json'], dir);
    const count = (JSON.parse(before.stdout) as { results: unknown[] }).results.length;
    // The README ends with the marker as a comment, and quotes it in a code block: still read.
    appendFileSync(path.join(dir, 'README.md'), `\n\`\`\`html\n${SUMMARY_MARKER}\n\`\`\`\n\n${SUMMARY_MARKER}\n`);
    const after = run(['--format', 'json'], dir);
    expect(after.status).toBe(before.status);
    expect((JSON.parse(after.stdout) as { results: unknown[] }).results).toHaveLength(count);
  });

  it('a report is told by the structure buildSummary writes, not by its first and last lines alone (s37 sweep D9)', () => {
    const real = formatSummary(example.messages, example.model, ['a note with `code`', 'another note'], { status: 'unchecked', checkedCommands: 0, uncheckedCommands: 1, allowed: false, reason: 'nothing compared' });
    expect(isSummaryReport(real)).toBe(true);
    expect(isSummaryReport(formatSummary([], example.model))).toBe(true);
    // Appended again, with a CI footer after each report (a few lines of other text).
    expect(isSummaryReport(`${real}\nGenerated in CI run 41.\n\n${real}\nGenerated in CI run 42.\nSee the logs.\n`)).toBe(true);
    expect(isSummaryReport(`${real}\n${'Footer line.\n'.repeat(6)}`)).toBe(false);
    // A hand-written page with the report's first and last lines around text of its own.
    expect(isSummaryReport(`## docdrift\n\nOur tool.\n\n### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n| \`sed\` | typo |\n\n${SUMMARY_MARKER}\n`)).toBe(false);
    expect(isSummaryReport(`## docdrift\n\nNo problems found.\n\n### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n| \`sed\` | typo |\n\n${SUMMARY_MARKER}\n`)).toBe(false);
    expect(isSummaryReport(`## docdrift\n\nNo problems found.\n\n\`\`\`bash\ntool +sedd=1\n\`\`\`\n\n${SUMMARY_MARKER}\n`)).toBe(false);
    expect(isSummaryReport(`## docdrift\n\nNo problems found.\n\`\`\`bash\ntool +sedd=1\n\`\`\`\n\n${SUMMARY_MARKER}\n`)).toBe(false);
    // A report whose marker is missing is not one.
    expect(isSummaryReport(real.replace(SUMMARY_MARKER, ''))).toBe(false);
  });

  it('a page shaped like a report is read and its findings reported; a report in docs/ with a footer is not a reference, and the run names it (s37 sweep D9)', () => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    const results = (r: ReturnType<typeof run>) => (JSON.parse(r.stdout) as { results: Array<{ file: string; ruleId: string; line: number }> }).results;
    // (a) A hand-written page: first line `## docdrift`, last the marker, a stale row and a typo in an example.
    const page = '## docdrift\n\nOur collector.\n\n### `ng_collect_rollouts`\n\n| Parameter | Description |\n| --- | --- |\n| `agent_nam` | typo |\n\n```bash\nng_collect_rollouts +agent_nmae=x\n```\n';
    writeFileSync(path.join(dir, 'docs/usage.md'), page);
    const unmarked = run(['--format', 'json'], dir);
    expect(results(unmarked).filter((r) => r.file === 'docs/usage.md').length).toBeGreaterThan(0);
    writeFileSync(path.join(dir, 'docs/usage.md'), `${page}\n${SUMMARY_MARKER}\n`);
    const marked = run(['--format', 'json'], dir);
    expect(results(marked)).toEqual(results(unmarked));
    expect(marked.stderr).not.toContain('docs/usage.md');
    rmSync(path.join(dir, 'docs/usage.md'));
    // (b) A real report written into docs/, then a CI footer appended after its marker.
    const plain = run(['--format', 'json'], dir);
    expect(run(['--summary', 'docs/summary.md'], dir).status).toBe(1);
    appendFileSync(path.join(dir, 'docs/summary.md'), 'Generated in CI run 42.\n');
    const after = run(['--format', 'json'], dir);
    expect(results(after)).toEqual(results(plain));
    expect(after.stderr).toContain('docdrift: docs/summary.md is not read as documentation: it holds docdrift\'s own `--summary` reports');
    expect((JSON.parse(after.stdout) as { notes?: string[] }).notes?.some((n) => n.startsWith('docs/summary.md is not read'))).toBe(true);
    // --summary appends to it again.
    const again = run(['--summary', 'docs/summary.md'], dir);
    expect(again.status).toBe(1);
    expect(readFileSync(path.join(dir, 'docs/summary.md'), 'utf8').split(SUMMARY_MARKER)).toHaveLength(3);
  });

  it('exits 2 naming the file when it cannot be written', () => {
    const dir = tempDir();
    const missing = path.join(dir, 'no/such/dir/summary.md');
    const r = run(['--root', EXAMPLE, '--summary', missing], ROOT);
    expect(r.status).toBe(2);
    // Checked before the run, in words rather than an errno code.
    expect(r.stderr).toContain(`docdrift: --summary cannot create ${missing}: the directory ${path.dirname(missing)} does not exist.`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('summary of a parameter only a pasted `--help` names (uvicorn: "in the reference ✓" beside a missing-row error)', () => {
  it('marks it `--help` in the reference column and counts it apart, as reference-param-missing reports it', async () => {
    const dir = path.join(ROOT, 'fixtures/rules/reference-param-missing/invalid/help-beside-written-reference');
    const result = await lint({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    const cmd = result.model.commandByName('tool')!;
    const rows = commandCoverage(result.model, cmd).rows.map((r) => [r.name, r.inReference, r.onlyHelp ?? false]);
    expect(rows).toEqual([
      ['host', true, false],
      ['port', true, false],
      ['workers', true, false],
      ['log-level', true, false],
      ['env-file', true, true],
    ]);
    // The one parameter the summary marks is the one the rule reports.
    expect(result.messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name)).toEqual(['env-file']);
    const md = formatSummary(result.messages, result.model);
    expect(md).toContain('5 parameters in code, 4 in the reference, 1 only in a pasted --help, 0 used in examples');
    expect(md).toMatch(/^\| `env-file` +\| +✓ +\| +`--help` +\|/m);
    expect(md).toMatch(/^\| `host` +\| +✓ +\| +✓ +\|/m);
  });
});
