/** Tests of the `sarif` formatter: real runs validated against the official SARIF 2.1.0 JSON schema. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import formats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { fingerprints } from '../src/engine/fingerprint.js';
import { lint, ruleIds, rules } from '../src/api.js';
import { type LintResult } from '../src/engine/lint.js';
import { ruleDocsUrl } from '../src/engine/rule-docs.js';
import { createMessage } from '../src/engine/run-rules.js';
import { formatters } from '../src/report/index.js';
import { formatSarif, toRelativeUri, toSarifLog } from '../src/report/sarif.js';
import { sortMessages } from '../src/report/sort.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// The schema @microsoft/jest-sarif ships (draft-04), the one GitHub code scanning documents.
const require = createRequire(import.meta.url);
const schemaPath = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json');
// Both are CommonJS with `exports.default`: under NodeNext the default import is the whole module.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
formats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);

function expectValid(text: string): Sarif.Log {
  const log = JSON.parse(text) as Sarif.Log;
  const ok = validate(log);
  expect(ok ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
  return log;
}

const rule = (id: string) => rules.find((r) => r.meta.id === id)!;

let example: LintResult;
beforeAll(async () => {
  example = await lint({ root: EXAMPLE, config: loadConfig(EXAMPLE, undefined, ruleIds).config });
}, 60_000);

describe('sarif formatter', () => {
  it('invocations: the verdict and the notes validate, unchecked or not (issue #32 item 1)', () => {
    const unchecked = { status: 'unchecked' as const, checkedCommands: 0, uncheckedCommands: 1, reason: 'no command or config class was found', allowed: false };
    for (const verdict of [unchecked, { ...unchecked, allowed: true }, { status: 'checked' as const, checkedCommands: 2, uncheckedCommands: 0, allowed: false }]) {
      const log = expectValid(formatSarif(example.messages, { root: EXAMPLE, version: VERSION, verdict, notes: ['a note'] }));
      const invocation = log.runs[0]!.invocations![0]!;
      expect(invocation.executionSuccessful).toBe(verdict.status === 'checked' || verdict.allowed);
      expect(invocation.toolExecutionNotifications![0]).toEqual({ level: 'note', message: { text: 'a note' } });
      const last = invocation.toolExecutionNotifications!.at(-1)!;
      if (verdict.status === 'unchecked') expect(last).toMatchObject({ level: verdict.allowed ? 'warning' : 'error', descriptor: { id: 'nothing-checked' } });
      else expect(invocation.toolExecutionNotifications).toHaveLength(1);
    }
    // Without a verdict (the formatter called on its own) there is no invocation.
    expect(JSON.parse(formatSarif(example.messages, { root: EXAMPLE, version: VERSION })).runs[0].invocations).toBeUndefined();
  });

  it('the schema validator rejects a broken log (so passing means something)', () => {
    const log = JSON.parse(formatSarif(example.messages, { root: EXAMPLE, version: VERSION })) as Sarif.Log;
    (log.runs[0]!.results![0] as { level: string }).level = 'fatal';
    expect(validate(log)).toBe(false);
    delete (log as { version?: string }).version;
    expect(validate(log)).toBe(false);
  });

  it('describes the bundled example run: driver, rules, results, locations, fingerprints', () => {
    const log = expectValid(formatSarif(example.messages, { root: EXAMPLE, version: VERSION }));
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.columnKind).toBe('utf16CodeUnits');
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `file://${EXAMPLE}/` } });
    const driver = run.tool.driver;
    expect(driver).toMatchObject({ name: 'docdrift', version: VERSION, informationUri: 'https://github.com/docdrift/docdrift' });
    expect(driver.rules!.map((r) => r.id)).toEqual(ruleIds);
    const unexplained = driver.rules!.find((r) => r.id === 'example-param-unexplained')!;
    expect(unexplained).toMatchObject({
      name: 'ExampleParamUnexplained',
      shortDescription: { text: rule('example-param-unexplained').meta.description },
      helpUri: ruleDocsUrl('example-param-unexplained'),
      defaultConfiguration: { level: 'warning' },
      properties: { fixable: false },
    });

    // 11 findings, as `npm start` prints: 9 errors and 2 warnings.
    const results = run.results!;
    expect(results).toHaveLength(11);
    expect(results.filter((r) => r.level === 'error')).toHaveLength(9);
    expect(results.filter((r) => r.level === 'warning')).toHaveLength(2);
    for (const r of results) expect(driver.rules![r.ruleIndex!]!.id).toBe(r.ruleId);

    const unknown = results.find((r) => r.ruleId === 'example-param-unknown')!;
    expect(unknown.message.text).toContain('`num_repeat` is not a parameter of `ng_collect_rollouts`');
    expect(unknown.locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'benchmarks/gpqa/README.md', uriBaseId: '%SRCROOT%' },
          region: { startLine: 9, startColumn: 5, endLine: 9, endColumn: 18 },
        },
      },
    ]);
    expect(unknown.relatedLocations).toEqual([
      {
        id: 0,
        physicalLocation: {
          artifactLocation: { uri: 'nemo_gym/rollout_collection.py', uriBaseId: '%SRCROOT%' },
          region: { startLine: 10, startColumn: 7, endLine: 10, endColumn: 30 },
        },
        message: { text: '`ng_collect_rollouts` parameters are defined by RolloutCollectionConfig' },
      },
    ]);

    // Fingerprints are the engine's line-free identities, in sorted order, all distinct.
    const expected = fingerprints(sortMessages(example.messages));
    expect(results.map((r) => r.partialFingerprints!['docdriftFinding/v1'])).toEqual(expected);
    expect(new Set(expected).size).toBe(11);
  });

  it('keeps a finding\'s fingerprint when its lines move', () => {
    const moved = example.messages.map((m) => {
      const copy = createMessage(rule(m.ruleId!), m.severity, {
        messageId: m.messageId,
        data: m.data,
        location: { file: String(m.file), line: (m.line ?? 1) + 7, column: m.column ?? 1 },
        related: m.related,
      });
      return copy;
    });
    const before = toSarifLog(example.messages, { root: EXAMPLE }).runs[0]!.results!;
    const after = toSarifLog(moved, { root: EXAMPLE }).runs[0]!.results!;
    const key = (r: Sarif.Result) => `${r.ruleId} ${r.locations![0]!.physicalLocation!.artifactLocation!.uri} ${r.message.text}`;
    const printsBefore = new Map(before.map((r) => [key(r), r.partialFingerprints!['docdriftFinding/v1']]));
    for (const r of after) expect(r.partialFingerprints!['docdriftFinding/v1']).toBe(printsBefore.get(key(r)));
    expect(after[0]!.locations![0]!.physicalLocation!.region!.startLine).not.toBe(before[0]!.locations![0]!.physicalLocation!.region!.startLine);
  });

  it('an empty run is a valid log with every rule and no results', () => {
    const log = expectValid(formatSarif([], { root: EXAMPLE, version: VERSION }));
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules).toHaveLength(ruleIds.length);
  });

  it('hostile and unicode text, odd file names, whole-file findings and fixes stay valid', () => {
    const hostile = 'x\n::set-output name=a::b "quoted" \\ %0A </script> 🦀 naïve';
    const messages = [
      createMessage(rule('example-param-unknown'), 'error', {
        messageId: 'unknown',
        data: { name: hostile, key: hostile, command: 'tool', classes: 'ToolConfig' },
        location: { file: 'docs/a,b:c #1 %0A ünï.md', line: 3, column: 2, endLine: 3, endColumn: 9 },
        related: [
          { file: 'src/x y.py', line: 1, column: 1, message: `defined here ${hostile}` },
          { file: 'docs/ref.md', line: 10, column: 1, endLine: 12, endColumn: 1, message: '' },
        ],
      }),
      createMessage(rule('parse-error'), 'error', {
        messageId: Object.keys(rule('parse-error').meta.messages)[0]!,
        data: { message: 'Cannot read x.md: EACCES' },
        location: { file: 'x.md', line: 0, column: 0 },
      }),
      createMessage(rule('reference-default-mismatch'), 'warn', {
        messageId: Object.keys(rule('reference-default-mismatch').meta.messages)[0]!,
        data: { name: 'split', command: 'tool' },
        location: { file: 'docs/ref.md', line: 5, column: 19, endLine: 5, endColumn: 26 },
        fix: { file: 'docs/ref.md', start: 120, end: 127, text: '`"validation"`' },
        suggestion: '`"validation"`',
      }),
    ];
    const log = expectValid(formatSarif(messages, { root: '/tmp/my project', version: VERSION }));
    const [unknown, mismatch, wholeFile] = log.runs[0]!.results!; // sorted by file: docs/a…, docs/ref.md, x.md
    expect(unknown!.ruleId).toBe('example-param-unknown');
    expect(unknown!.message.text).toContain(hostile);
    expect(unknown!.locations![0]!.physicalLocation!.artifactLocation!.uri).toBe('docs/a%2Cb%3Ac%20%231%20%250A%20%C3%BCn%C3%AF.md');
    expect(unknown!.relatedLocations!.map((r) => [r.id, r.message!.text])).toEqual([
      [0, `defined here ${hostile}`],
      [1, 'related location'],
    ]);
    expect(unknown!.relatedLocations![1]!.physicalLocation!.region).toEqual({ startLine: 10, startColumn: 1, endLine: 12, endColumn: 1 });
    expect(mismatch!.ruleId).toBe('reference-default-mismatch');
    expect(mismatch!.level).toBe('warning');
    expect(mismatch!.fixes).toEqual([
      {
        description: { text: 'Replace with: `"validation"`' },
        artifactChanges: [
          {
            artifactLocation: { uri: 'docs/ref.md', uriBaseId: '%SRCROOT%' },
            replacements: [{ deletedRegion: { charOffset: 120, charLength: 7 }, insertedContent: { text: '`"validation"`' } }],
          },
        ],
      },
    ]);
    // A finding about the whole file has a location without a region.
    expect(wholeFile!.ruleId).toBe('parse-error');
    expect(wholeFile!.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'x.md', uriBaseId: '%SRCROOT%' } } }]);
    expect(log.runs[0]!.originalUriBaseIds!['%SRCROOT%']!.uri).toBe('file:///tmp/my%20project/');
  });

  it('encodes paths as relative URI references segment by segment', () => {
    expect(toRelativeUri('docs/cli.mdx')).toBe('docs/cli.mdx');
    expect(toRelativeUri('C:\\not\\a\\scheme.md')).toBe('C%3A/not/a/scheme.md');
    expect(toRelativeUri('a b/100%.md')).toBe('a%20b/100%25.md');
  });
});

describe('sarif paths with the root in a subdirectory of the current directory', () => {
  it('are relative to the current directory (the repository root in Actions), like github annotations', () => {
    const parent = path.dirname(EXAMPLE);
    const log = expectValid(formatSarif(example.messages, { root: EXAMPLE, cwd: parent, version: VERSION }));
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `file://${parent}/` } });
    const uris = run.results!.flatMap((r) => r.locations!.map((l) => l.physicalLocation!.artifactLocation!.uri!));
    expect(uris).toContain('example-python/benchmarks/gpqa/README.md');
    expect(uris.every((u) => u.startsWith('example-python/'))).toBe(true);
    const annotations = formatters.github(example.messages, { root: EXAMPLE, cwd: parent });
    expect(annotations).toContain('file=example-python/benchmarks/gpqa/README.md,');
    // A root outside the current directory keeps root-relative paths.
    const outside = expectValid(formatSarif(example.messages, { root: EXAMPLE, cwd: path.join(EXAMPLE, 'docs'), version: VERSION }));
    expect(outside.runs[0]!.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `file://${EXAMPLE}/` } });
  });
});

describe('docdrift --format sarif (in process, from the source)', () => {
  it('names the version from package.json', async () => {
    const { main } = await import('../src/cli.js');
    let out = '';
    const code = await main(['--root', EXAMPLE, '--format', 'sarif'], { stdout: (t) => (out += t), stderr: () => {}, cwd: ROOT, isTTY: false });
    expect(code).toBe(1);
    const log = expectValid(out);
    expect(log.runs[0]!.tool.driver.version).toBe(VERSION);
  }, 60_000);
});
