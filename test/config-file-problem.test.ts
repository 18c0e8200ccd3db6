/** Why a config name's file gave no class (#33 fresh sweep s19, weak diagnostics): said from the file itself, not only "not found". */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFileProblem, unresolvedConfigClasses } from '../src/engine/lint.js';
import { normaliseConfig } from '../src/config/schema.js';
import type { ConfigClass } from '../src/model/types.js';

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
