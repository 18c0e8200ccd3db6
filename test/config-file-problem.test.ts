/** Why a config name's file gave no class (#33 fresh sweep s19, weak diagnostics): said from the file itself, not only "not found". */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFileProblem, configTypeMayBeIn, identifiersAmong, unresolvedConfigClasses } from '../src/engine/lint.js';
import { normaliseConfig } from '../src/config/schema.js';
import type { ConfigClass, InputDiagnostic } from '../src/model/types.js';

const base = mkdtempSync(path.join(tmpdir(), 'docdrift-config-file-'));
const root = path.join(base, 'project');
mkdirSync(path.join(root, 'schemas'), { recursive: true });
mkdirSync(path.join(root, 'tool'), { recursive: true });
writeFileSync(path.join(base, 'outside.py'), 'class ToolConfig:\n    seed: int = 0\n');
writeFileSync(path.join(root, 'schemas/broken.json'), '{"type": "object", "properties": {');
writeFileSync(path.join(root, 'schemas/good.json'), '{"title": "S", "type": "object", "properties": {"seed": {"type": "integer"}}}');
writeFileSync(path.join(root, 'tool/cli.py'), 'class Other:\n    pass\n');
symlinkSync(path.join(base, 'outside.py'), path.join(root, 'tool/linked.py'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('configFileProblem', () => {
  it('names a missing file, a link out of the project and invalid JSON, and nothing for a readable file', () => {
    expect(configFileProblem(root, 'schemas/missing.json')).toBe('does not exist');
    expect(configFileProblem(root, 'tool/linked.py')).toMatch(/^is a symbolic link to a file outside the project, which docdrift does not read \(EOUTSIDE\)$/);
    expect(configFileProblem(root, 'schemas/broken.json')).toMatch(/^is not valid JSON \(.+\)$/);
    expect(configFileProblem(root, 'schemas/good.json')).toBeUndefined();
    expect(configFileProblem(root, 'tool/cli.py')).toBeUndefined();
    // A path out of the project is that, not a link (#33 fresh sweep s20 D11).
    expect(configFileProblem(root, '../outside.py')).toBe('is outside the project, which docdrift does not read');
    // A readable file the run does not read: left out by a pattern, `ignore` or a built-in skip.
    expect(configFileProblem(root, 'tool/cli.py', new Set(['tool/other.py']))).toMatch(/^is not among the sources docdrift reads/);
    expect(configFileProblem(root, 'schemas/good.json', new Set())).toMatch(/^is not read as a JSON Schema/);
    expect(configFileProblem(root, 'tool/cli.py', new Set(['tool/cli.py']))).toBeUndefined();
  });
});

describe('unresolvedConfigClasses with the file\'s own problem', () => {
  it('says why the file gave no class: a link out, invalid JSON, a file that declares none', () => {
    const config = normaliseConfig({ commands: { tool: { config: ['tool/linked.py#ToolConfig', 'schemas/broken.json#S', 'tool/cli.py#ToolConfig'] } } });
    const problems = unresolvedConfigClasses(config, [], [], (file) => configFileProblem(root, file));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"tool/linked.py#ToolConfig" was found: tool/linked.py is a symbolic link to a file outside the project');
    expect(problems[1]).toContain('"schemas/broken.json#S" was found: schemas/broken.json is not valid JSON');
    // Readable, but no config type in it at all (no classes were found in tool/cli.py here).
    expect(problems[2]).toContain('"tool/cli.py#ToolConfig" was found: tool/cli.py declares none docdrift reads');
    // A file that declares classes (a Python module: dotted module name, file in the location): the name is what is wrong.
    const other = { name: 'Other', qualifiedName: 'tool.cli.Other', module: 'tool.cli', kind: 'pydantic', bases: [], fields: [], location: { file: 'tool/cli.py', line: 1, column: 1 } } as unknown as ConfigClass;
    const typo = unresolvedConfigClasses(normaliseConfig({ commands: { tool: { config: ['tool/cli.py#ToolConfg'] } } }), [other], [], (file) => configFileProblem(root, file));
    expect(typo[0]).toContain('was found in the sources');
  });
});

describe('unresolvedConfigClasses with a name but no file, and a file not read (#33 s37 sweep D7)', () => {
  const refused = (file: string, message: string, alsoUnread?: string[]): InputDiagnostic => ({ ruleId: 'parse-error', severity: 'warn', message, location: { file, line: 1, column: 1 }, ...(alsoUnread ? { alsoUnread } : {}) });
  const dir = path.join(base, 'unread');
  mkdirSync(path.join(dir, 'schemas'), { recursive: true });
  mkdirSync(path.join(dir, 'pkg'), { recursive: true });
  writeFileSync(path.join(dir, 'schemas/opts.json'), `{"title": "MutantOptions", "properties": {"a": {"default": ${'['.repeat(300)}${']'.repeat(300)}}}}`);
  writeFileSync(path.join(dir, 'schemas/run-config.json'), '{"properties": {');
  writeFileSync(path.join(dir, 'pkg/big.py'), 'class BigConfig:\n    seed: int = 0\n');
  writeFileSync(path.join(dir, 'pkg/other.py'), 'class OtherConfig:\n    seed: int = 0\n');
  const files = { sources: ['pkg/big.py', 'pkg/other.py'], schemas: ['schemas/opts.json', 'schemas/run-config.json'] };
  const diagnostics = [
    refused('schemas/opts.json', 'schemas/opts.json:1:60: nested more than 200 levels deep; the JSON Schema in it is not read'),
    refused('schemas/run-config.json', 'schemas/run-config.json:1:16: not valid JSON (CloseBraceExpected); the JSON Schema in it is not read'),
    // One warning for a group of sources over the run's budget, located at the first.
    refused('pkg/other.py', 'Not read (nor pkg/big.py): the Python sources over 256 KB of this run hold too many tokens; their config classes are unknown', ['pkg/big.py']),
  ];
  const problems = (name: string): string[] => unresolvedConfigClasses(normaliseConfig({ commands: { tool: { config: [name] } } }), [], diagnostics, () => undefined, false, configTypeMayBeIn(dir, files));

  it('names the refused file whose text names the type (a schema\'s title), and why', () => {
    const [problem, ...rest] = problems('MutantOptions');
    expect(rest).toEqual([]);
    expect(problem).toBe(
      'commands.tool.config: no config class or type named "MutantOptions" was read: it may be defined in schemas/opts.json, which was refused (schemas/opts.json:1:60: nested more than 200 levels deep; the JSON Schema in it is not read). Fix that file, or name a type docdrift can read.',
    );
  });

  it('finds a schema named by its file, a source of a group over the budget, and a dotted name\'s class', () => {
    expect(problems('RunConfig')[0]).toContain('it may be defined in schemas/run-config.json, which was refused (schemas/run-config.json:1:16: not valid JSON');
    expect(problems('BigConfig')[0]).toContain('"BigConfig" was read: it may be defined in pkg/big.py, which was refused (Not read (nor pkg/big.py)');
    expect(problems('pkg.big.BigConfig')[0]).toContain('it may be defined in pkg/big.py, which was refused');
  });

  it('still calls a name no unread file names not found, with its suggestions', () => {
    // `Options` is inside `MutantOptions`, not a name of its own there.
    expect(problems('Options')[0]).toContain('"Options" was found in the sources');
    expect(problems('MutantOption')[0]).toContain('"MutantOption" was found in the sources');
  });

  it('identifiersAmong matches whole identifiers only', () => {
    const names = new Set(['MutantOptions', 'Other']);
    expect(identifiersAmong('class MutantOptions(BaseModel):', names)).toEqual(new Set(['MutantOptions']));
    expect(identifiersAmong('"title": "MutantOptions", "x": "Other"', names)).toEqual(names);
    expect(identifiersAmong('class MutantOptionsV2: _MutantOptions, $Other', names)).toEqual(new Set());
    expect(identifiersAmong('MutantOptions', new Set())).toEqual(new Set());
  });
});
