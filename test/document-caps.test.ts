/**
 * A run's limits on the reference rows and config-file example keys it keeps (#33 s33 sweep D1,
 * D2): 60 pages of 4,400 reference rows peaked at 1.15 GB, 60 pages of 12,000 config-file keys at
 * 0.98 GB. Pages are counted whole, in path order, the same with the cache as without; a run that
 * did not read some page's rows reads every reference as partial.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, lintWithCache, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { MAX_RUN_CONFIG_KEYS } from '../src/docs/config-keys.js';
import { parseDoc } from '../src/docs/parse.js';
import { codeMentions, earlyRowCut, MAX_MENTION_SCAN_LENGTH, MAX_RUN_MENTIONS, MAX_RUN_REFERENCE_ROWS, referenceRowsOf, runDocumentCap, unreadReferenceStub } from '../src/engine/document-caps.js';
import { rowsOfAnyNameCut, unreadMayDocument } from '../src/model/unread.js';
import type { DocFile } from '../src/model/types.js';
import type { DriftMessage } from '../src/model/rule.js';
import type { ParseOutcome } from '../src/docs/bounded-parse.js';
import { MemoryPieceStore } from '../src/engine/pieces.js';
import { copyToTemp, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

/** A reference page for `tool` of `rows` rows naming `p0`, `p1`, … (none a parameter of the base project). */
function tablePage(rows: number, first = 0): string {
  const body = Array.from({ length: rows }, (_, i) => `| \`p${first + i}\` | int | \`0\` | d |\n`).join('');
  return `# T\n\n### \`tool\`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n${body}\n`;
}

const page = (file: string, text: string): DocFile => parseDoc(file, text).doc;

describe('referenceRowsOf', () => {
  it('counts a table nested under several headings once, and list and heading rows', () => {
    // The table stands in the `# T` block and in the `### tool` block.
    const doc = page('docs/t.md', tablePage(3));
    expect(doc.blocks.filter((b) => b.tables.length > 0)).toHaveLength(2);
    expect(referenceRowsOf(doc)).toEqual({ count: 3, first: expect.objectContaining({ line: 5 }) });
    // Copies of the same table (a stored page read back from the cache) are the same table.
    expect(referenceRowsOf(structuredClone(doc)).count).toBe(3);
    expect(referenceRowsOf(page('docs/e.md', '# E\n\nNo table.\n')).count).toBe(0);
  });
});

describe('runDocumentCap: reference rows', () => {
  it('keeps pages whole while they fit, then keeps no rows of that page or any later one, with one warning', () => {
    const size = Math.floor(MAX_RUN_REFERENCE_ROWS / 3);
    const cap = runDocumentCap();
    const docs = ['a', 'b', 'c', 'd'].map((n) => page(`docs/${n}.md`, tablePage(size)));
    docs.push(page('docs/e.md', tablePage(1)));
    const admitted = docs.map((d) => cap.admit(d).doc);
    expect(admitted.slice(0, 3)).toEqual(docs.slice(0, 3));
    for (const doc of admitted.slice(3)) {
      expect(referenceRowsOf(doc).count).toBe(0);
      expect(doc.parameterRows).toBeUndefined();
      expect(doc.headings).toEqual(docs[admitted.indexOf(doc)]!.headings);
    }
    expect(admitted[3]!.rowsCut).toEqual({ location: expect.objectContaining({ line: 5 }), rows: size });
    expect(admitted[4]!.rowsCut!.rows).toBe(1);
    // The parsed pages are never changed (a stored page may be the cache's).
    expect(referenceRowsOf(docs[3]!).count).toBe(size);
    const warnings = cap.diagnostics();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'docs/d.md', line: 5 } });
    expect(warnings[0]!.message).toContain(`its reference rows are not read (nor docs/e.md): one run reads at most ${MAX_RUN_REFERENCE_ROWS.toLocaleString('en-US')} rows`);
  });

  it('earlyRowCut drops, in any arrival order, only rows admit would cut, and holds at most the limit', () => {
    const size = Math.floor(MAX_RUN_REFERENCE_ROWS / 3);
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => `docs/${n}.md`);
    const parsed = new Map(files.map((f) => [f, page(f, tablePage(size))]));
    const held = new Map<string, DocFile>();
    const early = earlyRowCut(new Map(files.map((f, i) => [f, i])), (file, doc) => held.set(file, doc));
    const uncut = (): number => [...held.values()].filter((d) => !d.rowsCut).reduce((n, d) => n + referenceRowsOf(d).count, 0);
    // Last pages first: nothing is known to be over until the pages before them arrive.
    for (const file of ['docs/e.md', 'docs/d.md', 'docs/b.md', 'docs/a.md', 'docs/c.md']) {
      held.set(file, parsed.get(file)!);
      early.arrived(file, parsed.get(file)!);
      expect(uncut()).toBeLessThanOrEqual(MAX_RUN_REFERENCE_ROWS);
    }
    expect(files.filter((f) => held.get(f)!.rowsCut)).toEqual(['docs/d.md', 'docs/e.md']);
    // admit, in path order, cuts the same pages (and counts a shortened page's rows as they were).
    const cap = runDocumentCap();
    const admitted = files.map((f) => cap.admit(held.get(f)!).doc);
    expect(admitted.map((d) => d.rowsCut !== undefined)).toEqual([false, false, false, true, true]);
    expect(cap.diagnostics()[0]!.message).toContain(`the pages before it hold ${(3 * size).toLocaleString('en-US')} and these ${(2 * size).toLocaleString('en-US')}`);
  });
});

describe('reference rows a run reads', () => {
  it('a reference whose rows were not read is partial: no parameter reported missing, nor an example undocumented; the same with the cache', async () => {
    const root = copyToTemp(BAD_BASE);
    // docs/a0*.md come before docs/reference.md (the rows documenting `seed` and `name`) in path order.
    const size = MAX_RUN_REFERENCE_ROWS / 2 + 1;
    for (let i = 0; i < 2; i++) writeFileSync(path.join(root, `docs/a0${i}.md`), tablePage(size, i * size));
    const { config } = loadConfig(root, undefined, ruleIds);
    const plain = await lint({ root, config });
    const rules = new Set(plain.messages.map((m) => m.ruleId));
    expect([...rules].sort()).toEqual(['parse-error', 'reference-param-unknown']);
    const cut = plain.messages.filter((m) => m.ruleId === 'parse-error');
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ file: 'docs/a01.md', line: 5 });
    expect(cut[0]!.message).toContain('(nor docs/reference.md)');
    expect(plain.notes.some((n) => n.includes('the run did not read the rows of docs/a01.md'))).toBe(true);
    const shape = (messages: typeof plain.messages) => messages.map((m) => `${m.file}:${m.line}:${m.column}:${m.ruleId}:${m.message}`);
    const location = tempDir('docdrift-rows-cache-');
    const cold = await lintWithCache({ root, config, cache: true, location, version: '1.0.0', codeFingerprint: 'a' });
    expect(shape(cold.messages)).toEqual(shape(plain.messages));
    appendFileSync(path.join(root, 'docs/a00.md'), '\nAn edit.\n');
    const warm = await lintWithCache({ root, config, cache: true, location, version: '1.0.0', codeFingerprint: 'a' });
    expect(warm.cache.status).toBe('miss');
    expect(shape(warm.messages)).toEqual(shape(plain.messages));
    // Within the limit, the same project reports the rows docs/reference.md lacks no more.
    writeFileSync(path.join(root, 'docs/a01.md'), tablePage(10, size));
    const within = await lint({ root, config });
    expect(within.messages.filter((m) => m.ruleId === 'parse-error')).toEqual([]);
  }, 120_000);
});

/** A store that records the reference rows of every document piece set, by file. */
class RecordingStore extends MemoryPieceStore {
  readonly rowsSet = new Map<string, number[]>();
  override set(key: string, value: unknown): void {
    super.set(key, value);
    const doc = key.startsWith('doc:') ? (value as ParseOutcome).doc : undefined;
    if (doc) this.rowsSet.set(doc.file, [...(this.rowsSet.get(doc.file) ?? []), referenceRowsOf(doc).count]);
  }
}

describe('the per-file cache and the run row limit (s35 sweep D9)', () => {
  it('stores a page the limit cut without its rows, never copied whole, uses it while the limit cuts it, and parses it again once it does not', async () => {
    const root = copyToTemp(BAD_BASE);
    const size = MAX_RUN_REFERENCE_ROWS / 2 + 1;
    for (let i = 0; i < 2; i++) writeFileSync(path.join(root, `docs/a0${i}.md`), tablePage(size, i * size));
    const { config } = loadConfig(root, undefined, ruleIds);
    const shape = (messages: readonly DriftMessage[]) => messages.map((m) => `${m.file}:${m.line}:${m.column}:${m.ruleId}:${m.message}`);
    const store = new RecordingStore();
    const plain = await lint({ root, config });
    const cold = await lint({ root, config, pieces: store });
    expect(shape(cold.messages)).toEqual(shape(plain.messages));
    // docs/a00.md fits and is stored whole; docs/a01.md, cut, is stored once and without rows.
    expect(store.rowsSet.get('docs/a00.md')).toEqual([size]);
    expect(store.rowsSet.get('docs/a01.md')).toEqual([0]);
    // A run that reads every page from the store: the same findings, nothing parsed again.
    const before = new Map(store.rowsSet);
    const warm = await lint({ root, config, pieces: store });
    expect(shape(warm.messages)).toEqual(shape(plain.messages));
    expect(store.rowsSet).toEqual(before);
    // docs/a00.md shrinks: docs/a01.md fits now, is parsed again, and its rows are read.
    writeFileSync(path.join(root, 'docs/a00.md'), tablePage(10));
    const after = await lint({ root, config, pieces: store });
    const plainAfter = await lint({ root, config });
    expect(plainAfter.messages.filter((m) => m.ruleId === 'parse-error')).toEqual([]);
    expect(shape(after.messages)).toEqual(shape(plainAfter.messages));
    expect(store.rowsSet.get('docs/a01.md')).toEqual([0, size]);
  }, 180_000);
});

describe('a page discovery leaves out for its depth (s35 sweep D4)', () => {
  it('makes every reference partial, as a page not parsed does, and the note says where the run says why', async () => {
    const root = copyToTemp(BAD_BASE);
    // docs/reference.md loses its `name` row; a page 67 folders deep documents it.
    writeFileSync(path.join(root, 'docs/reference.md'), '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n');
    const deep = path.join(root, 'docs', ...Array.from({ length: 66 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(path.join(deep, 'params.md'), '# Parameters\n\n## `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `name` | Name of the run. |\n');
    const { config } = loadConfig(root, undefined, ruleIds);
    const run = await lint({ root, config });
    expect(run.messages.filter((m) => m.ruleId === 'reference-param-missing' || m.ruleId === 'example-param-undocumented')).toEqual([]);
    expect(run.notes.some((n) => n.includes('under more than 64 folders') && n.includes('not read'))).toBe(true);
    expect(run.notes.some((n) => n.includes('was read as a partial list') && n.includes('it lies under more than 64 folders: see the run\'s note'))).toBe(true);
  }, 60_000);
});

describe('reference pages a run did not parse', () => {
  it('a page that shows names as code gets a stub withholding those names only; one that shows none, none; an unreadable one, any (s34 sweep D4, s35 sweep D1-D4)', () => {
    const table = '### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n';
    const stub = unreadReferenceStub('docs/x.md', table);
    expect(stub?.rowsCut).toMatchObject({ location: { file: 'docs/x.md', line: 1, column: 1 }, rows: 0, notParsed: true });
    expect(stub?.rowsCut?.names).toEqual(expect.arrayContaining(['tool', 'seed']));
    expect(unreadReferenceStub('docs/x.rst', table)?.kind).toBe('rst');
    expect(unreadMayDocument([stub!], ['seed'])).toBe(stub);
    expect(unreadMayDocument([stub!], ['name'])).toBeUndefined();
    // Prose only: it documents nothing.
    expect(unreadReferenceStub('docs/x.md', '# A guide\n\nProse only.\n')).toBeUndefined();
    // Not readable at all: it may document anything.
    const unreadable = unreadReferenceStub('docs/x.md', undefined);
    expect(unreadable?.rowsCut?.names).toBeUndefined();
    expect(unreadMayDocument([unreadable!], ['name'])).toBe(unreadable);
    expect(rowsOfAnyNameCut([stub!, unreadable!])).toBe(unreadable);
    expect(rowsOfAnyNameCut([stub!])).toBeUndefined();
    // A change log (path and release headings) says nothing of the reference; a contributor
    // page or one merely named `news.md` with a reference in it may (s35 sweep D2).
    expect(unreadReferenceStub('docs/changelog.md', `# Changelog\n\n## 1.2.0\n\n${table}`)).toBeUndefined();
    expect(unreadReferenceStub('CHANGELOG.md', undefined)).toBeUndefined();
    // Not read at all and named like a change log only in lower case: it may be a command's page (s36 sweep D3).
    expect(unreadReferenceStub('docs/commands/changelog.md', undefined)?.rowsCut?.names).toBeUndefined();
    expect(unreadReferenceStub('docs/history.md', undefined)).toBeDefined();
    expect(unreadReferenceStub('docs/news.md', `# News\n\n${table}`)?.rowsCut?.names).toContain('seed');
    expect(unreadReferenceStub('CONTRIBUTING.md', table)?.rowsCut?.names).toContain('seed');
  });

  it('codeMentions reads names in every reference layout, skips fenced examples but not MyST directives, and normalises flags (s35 sweep D1, D3)', () => {
    const names = (text: string): string[] => [...(codeMentions(text) ?? [])].sort();
    expect(names('## `tool`\n\n### `name`\n\nThe name.\n')).toEqual(['name', 'tool']);
    expect(names('<table><tr><td><code>name</code></td><td>str</td></tr></table>\n')).toContain('name');
    expect(names('- `name` (str): the name.\n- **`seed`**: the seed.\n')).toEqual(['name', 'seed']);
    expect(names('```{list-table}\n* - `name`\n  - str\n```\n')).toContain('name');
    expect(names('.. option:: --Dry-Run\n\n   Only print.\n')).toEqual(['dry_run']);
    expect(names('| Parameter | Type |\n| --- | --- |\n| name | str |\n')).toEqual(['name', 'str']);
    // A table or grid inside a fenced example is not the page's own: nothing.
    expect(names('Run it:\n\n```text\n| name | str |\n+------+-----+\n`seed`\n```\n')).toEqual([]);
    // Plain names in row layouts (s36 sweep D1): a table without outer pipes, list-table items,
    // reST simple and CSV tables, a definition term, lines ended by a lone CR; a backtick line
    // with a backtick in its info string opens no fence (s36 sweep D2).
    expect(names('Parameter | Description\n--- | ---\nname | Name of the run.\n')).toContain('name');
    expect(names(':::{list-table}\n* - name\n  - Name of the run.\n:::\n')).toContain('name');
    expect(names('====  ====\nname  Name of the run.\nseed  Random seed.\n====  ====\n')).toEqual(expect.arrayContaining(['name', 'seed']));
    expect(names('.. csv-table::\n\n   "name", "Name of the run."\n')).toContain('name');
    expect(names('name\n   Name of the run.\n')).toContain('name');
    expect(names('# P\r\rname | Name of the run.\r')).toContain('name');
    expect(names('```tool``` runs the tool.\n\n| `name` | Name. |\n')).toContain('name');
    // Names that are no ASCII identifier, as code or as a plain cell (s36 sweep D7).
    expect(names('| `größe` | int |\n| `@type` | str |\n| `2fa` | bool |\n| `x:y` | str |\n| $id | str |\n')).toEqual(expect.arrayContaining(['größe', '@type', '2fa', 'x:y', '$id']));
    // Prose words are not names, nor the first word of a sentence.
    expect(names('Give the run a name and a seed.\n')).toEqual([]);
    expect(names('Name the run before you start it.\nSeed it too.\n')).toEqual([]);
    // Layouts whose names the parser reads out of Markdown syntax (s37 sweep D1): escapes, a
    // heading's closing #s and {#id}, links and emphasis, terraform-docs anchors, HTML cells with
    // links, a name column that is not the first.
    expect(names('| log\\_level | Log level. |\n')).toContain('log_level');
    expect(names('### log\\_level\n\n### name ###\n\n### seed {#seed}\n')).toEqual(expect.arrayContaining(['log_level', 'name', 'seed']));
    expect(names('### <a name="input_name"></a> [name](#input\\_name)\n\n### [seed](#seed)\n\n### *lr*\n')).toEqual(expect.arrayContaining(['name', 'seed', 'lr']));
    expect(names('<tr><td><a href="#l">log_level</a></td><td>Log level.</td></tr>\n')).toContain('log_level');
    expect(names('| Type | Parameter |\n| --- | --- |\n| str | [name](#n) |\n')).toEqual(['name', 'str']);
    // The commented keys of a YAML block are a reference layout (s37 sweep D2); uncommented keys
    // of an example are not.
    expect(names('```yaml\nname: run  # Name of the run.\nseed: 0\n```\n')).toEqual(['name']);
    // Prose does not withhold (s37 sweep D3): a capitalised first word of a bullet or sentence, a
    // wrapped line of one word, a table's header row.
    expect(names('- Name your runs after the experiment.\n- Keep them short.\n')).toEqual([]);
    expect(names('Name, as usual, is free text.\n')).toEqual([]);
    expect(names('We say more about the run\nname\nin another page.\n')).toEqual([]);
    expect(names('| Name | Homepage |\n| --- | --- |\n| pytest | https://pytest.org |\n')).toEqual(['pytest']);
    // A definition term is a name: blank line before, its definition after.
    expect(names('Intro.\n\nname\n: Name of the run.\n')).toContain('name');
    expect(codeMentions('x'.repeat(MAX_MENTION_SCAN_LENGTH + 1))).toBeUndefined();
  });
});

describe('names kept from pages a run did not parse', () => {
  it('are bounded for the whole run: past the budget a page may document any parameter, and says why (s37 sweep D4)', () => {
    expect(MAX_RUN_MENTIONS).toBe(400_000);
    const budget = { left: 5 };
    const first = unreadReferenceStub('docs/a.md', '| `alpha` | The first. |\n| `beta` | The second. |\n', undefined, budget);
    expect(first?.rowsCut?.names).toEqual(['alpha', 'beta']);
    expect(budget.left).toBe(3);
    const second = unreadReferenceStub('docs/b.md', '| `c1` | One of them. |\n| `c2` | One of them. |\n| `c3` | One of them. |\n| `c4` | One of them. |\n', undefined, budget);
    expect(second?.rowsCut?.names).toBeUndefined();
    expect(second?.rowsCut?.why).toContain('400,000 names');
    expect(budget.left).toBe(0);
    // Without a budget (a page discovery left out), as before.
    expect(unreadReferenceStub('docs/c.md', '`gamma`\n')?.rowsCut?.names).toEqual(['gamma']);
  });
});

describe('change log rows', () => {
  it('count toward a limit of their own: a change log over the run limit, first in path order, cuts no reference and withholds nothing (s35 sweep D6)', () => {
    const cap = runDocumentCap();
    const quarter = MAX_RUN_REFERENCE_ROWS / 4 + 10;
    const log = page('CHANGELOG.md', `# Changelog\n\n${[4, 3, 2, 1].map((v) => `## ${v}.0.0\n\n| Option | Change |\n| --- | --- |\n${Array.from({ length: quarter }, (_, i) => `| \`p${i}\` | added |\n`).join('')}\n`).join('')}`);
    const admittedLog = cap.admit(log).doc;
    expect(admittedLog.rowsCut).toMatchObject({ rows: 4 * quarter, names: [] });
    expect(rowsOfAnyNameCut([admittedLog])).toBeUndefined();
    const reference = cap.admit(page('docs/reference.md', tablePage(2))).doc;
    expect(reference.rowsCut).toBeUndefined();
    expect(referenceRowsOf(reference).count).toBe(2);
  });
});

describe('change logs by their release headings (s36 sweep D5)', () => {
  it('a page whose sections are releases counts toward the change logs\' limit whatever its name, and cuts no reference', () => {
    const cap = runDocumentCap();
    const quarter = MAX_RUN_REFERENCE_ROWS / 4 + 10;
    const releases = [4, 3, 2, 1].map((v) => `## ${v}.0.0\n\n| Change | PR |\n| --- | --- |\n${Array.from({ length: quarter }, (_, i) => `| fix ${i} | #${i} |\n`).join('')}\n`).join('');
    const log = page('docs/guide/whats-new.md', `# What's new in tool\n\n${releases}`);
    expect(cap.cutsRows(log)).toBe(false);
    cap.admit(log);
    const reference = cap.admit(page('docs/reference.md', tablePage(2))).doc;
    expect(reference.rowsCut).toBeUndefined();
    // Two release headings among other sections: a page like any other.
    const half = MAX_RUN_REFERENCE_ROWS / 2 + 1;
    const other = runDocumentCap();
    other.admit(page('docs/guide.md', `# Guide\n\n## 1.0.0\n\n## 2.0.0\n\n## Usage\n\n${tablePage(half)}`));
    expect(other.cutsRows(page('docs/reference.md', tablePage(half)))).toBe(true);
  });

  it('a Keep a Changelog page is one (its Added/Fixed parts are no sections of their own); a versioned reference is not (s37 sweep D5, D6)', () => {
    const quarter = MAX_RUN_REFERENCE_ROWS / 4 + 10;
    const parts = (v: number): string => `## [${v}.0.0] - 2024-01-0${v}

### Added

| Change | PR |\n| --- | --- |
${Array.from({ length: quarter / 2 }, (_, i) => `| add ${i} | #${i} |
`).join('')}
### Fixed

| Change | PR |
| --- | --- |
${Array.from({ length: quarter / 2 }, (_, i) => `| fix ${i} | #${i} |
`).join('')}
`;
    const keep = runDocumentCap();
    keep.admit(page('docs/guide/whats-new.md', `# What's new in tool

${[4, 3, 2, 1].map(parts).join('')}`));
    expect(keep.admit(page('docs/reference.md', tablePage(2))).doc.rowsCut).toBeUndefined();
    // `### v2.0 options` heads a table of today's options: the page counts toward the references'
    // limit, and a change log before it (full to its own limit) does not drop its rows.
    const versioned = (n: number): string => `# Tool API

## \`tool\`

${['v2.0', 'v1.0', 'v0.9'].map((v) => `### ${v} options

${tablePage(n)}`).join('')}`;
    const cap = runDocumentCap();
    const log = cap.admit(page('docs/a-changelog.md', `# Changelog

${[4, 3, 2, 1].map((v) => `## ${v}.0.0

| Change | PR |
| --- | --- |
${Array.from({ length: MAX_RUN_REFERENCE_ROWS / 4 }, (_, i) => `| fix ${i} | #${i} |
`).join('')}
`).join('')}`)).doc;
    expect(log.rowsCut).toBeUndefined();
    const api = page('docs/tool-api.md', versioned(2));
    const reference = cap.admit(api).doc;
    expect(reference.rowsCut).toBeUndefined();
    expect(referenceRowsOf(reference).count).toBeGreaterThanOrEqual(6);
    expect(referenceRowsOf(reference).count).toBe(referenceRowsOf(api).count);
  });
});

describe('config-file example keys a run checks', () => {
  it('checks pages whole while they fit, then no later page, with one warning', async () => {
    expect(MAX_RUN_CONFIG_KEYS).toBe(50_000);
    const root = copyToTemp(BAD_BASE);
    writeFileSync(path.join(root, 'docdrift.config.json'), JSON.stringify({ commands: { tool: { config: 'tool.cli.ToolConfig' }, 'tool.yaml': { kind: 'config-file', config: 'tool.cli.ToolConfig' } } }));
    const half = MAX_RUN_CONFIG_KEYS / 2;
    // y00 and y01 fill the limit; y02 (one typo of `seed`) is not checked, nor y03.
    const keys = (n: number, from: number): string => Array.from({ length: n }, (_, i) => `k${from + i}: 1\n`).join('');
    writeFileSync(path.join(root, 'docs/y00.md'), `# Y\n\n\`\`\`yaml title="tool.yaml"\nsed: 1\n${keys(half - 1, 0)}\`\`\`\n`);
    writeFileSync(path.join(root, 'docs/y01.md'), `# Y\n\n\`\`\`yaml title="tool.yaml"\n${keys(half, half)}\`\`\`\n`);
    writeFileSync(path.join(root, 'docs/y02.md'), '# Y\n\n```yaml title="tool.yaml"\nnmae: x\n```\n');
    writeFileSync(path.join(root, 'docs/y03.md'), '# Y\n\n```yaml title="tool.yaml"\nseed: 2\n```\n');
    const { config } = loadConfig(root, undefined, ruleIds);
    const { messages } = await lint({ root, config });
    const cut = messages.filter((m) => m.ruleId === 'parse-error');
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ file: 'docs/y02.md', line: 4, severity: 'warn' });
    expect(cut[0]!.message).toContain(`its config-file examples are not checked (nor docs/y03.md): one run checks at most 50,000 keys of config-file examples, the pages before it hold ${MAX_RUN_CONFIG_KEYS.toLocaleString('en-US')} and this one 1`);
    // The typo on the first page is still found; nothing on the pages not checked is.
    expect(messages.some((m) => m.file === 'docs/y00.md' && m.message.includes('`sed`'))).toBe(true);
    expect(messages.filter((m) => m.file === 'docs/y02.md' || m.file === 'docs/y03.md').map((m) => m.ruleId)).toEqual(['parse-error']);
  }, 120_000);
});
