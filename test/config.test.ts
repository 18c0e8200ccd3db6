/** Tests of config discovery, parsing, validation and error messages (src/config). */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempProject } from './helpers.js';
import { circularPath, ConfigError, loadConfig, validateRuleOptions } from '../src/config/load.js';
import { createHeadingMatcher, createParameterMatcher, wildcardMatch } from '../src/config/patterns.js';
import { DEFAULT_CONFIG, defaultConfig, type DocdriftConfig } from '../src/config/schema.js';
import type { RuleMeta } from '../src/model/rule.js';

afterEach(removeTempDirs);

/** A temporary project with the given files. */
const project = (files: Record<string, string>): string => tempProject(files, 'docdrift-config-');

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

const RULES = ['example-param-unknown', 'example-param-undocumented', 'reference-default-mismatch'];

const DEFAULT_SOURCES = ['**/*.py', '**/*.{ts,mts,cts,tsx}', '!**/tests/**', '!**/test/**', '!**/__tests__/**', '!**/test_*.py', '!**/*_test.py', '!**/conftest.py', '!**/*.{test,spec}.{ts,mts,cts,tsx}'];

describe('defaults', () => {
  it('returns every default when there is no config file', () => {
    const root = project({ 'README.md': '# x\n' });
    const { config, file } = loadConfig(root);
    expect(file).toBeUndefined();
    expect(config).toEqual(defaultConfig());
    expect(config.sources).toEqual(DEFAULT_SOURCES);
    expect(config.docs).toEqual([
      '**/*.md',
      '**/*.mdx',
      '**/*.{MD,Md,mD,markdown,MARKDOWN,Markdown,mdown,mkd,mkdn}',
      '**/*.rst',
      '**/.claude/CLAUDE.md',
      '!**/tests/fixtures/**',
      '!**/test/fixtures/**',
      '!**/testdata/**',
      '!**/__fixtures__/**',
    ]);
    expect(config.ignore).toEqual([]);
    expect(config.reference).toEqual([]);
    expect(config.commands).toEqual({});
    expect(config.rules).toEqual({});
    expect(config.globalParameters).toContain('config_paths');
    expect(config.globalParameters).toContain('hydra');
    expect(config.globalParameters).toContain('help');
    expect(config.globalSections).toEqual(['Common options', 'Global options', 'Common parameters', 'Global parameters', 'Common arguments']);
    expect(config.ignoreParameters).toContain('_*');
  });

  it('returns a fresh copy each time (defaults are not shared mutable state)', () => {
    const root = project({});
    const a = loadConfig(root).config;
    a.sources.push('x');
    expect(loadConfig(root).config.sources).toEqual(DEFAULT_SOURCES);
    expect(DEFAULT_CONFIG.sources).toEqual(DEFAULT_SOURCES);
  });

  it('an empty YAML file is an error at its path (issue #32 item 4); `{}` means all defaults', () => {
    const root = project({ 'docdrift.config.yaml': '# nothing yet\n' });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('docdrift.config.yaml');
    expect(e.message).toContain('the config file is empty');
    const braces = project({ 'docdrift.config.yaml': '{}\n' });
    expect(loadConfig(braces).config).toEqual(defaultConfig());
  });

  it('a given field replaces its default, others keep theirs', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ globalParameters: ['seed'] }) });
    const { config } = loadConfig(root);
    expect(config.globalParameters).toEqual(['seed']);
    expect(config.docs).toEqual(DEFAULT_CONFIG.docs);
  });
});

describe('formats', () => {
  const full = {
    sources: ['src/**/*.py'],
    docs: 'docs/**/*.mdx',
    ignore: ['examples/**'],
    reference: ['docs/reference/**'],
    commands: {
      ng_collect_rollouts: { aliases: ['nemo_gym_collect_rollouts'], config: 'RolloutCollectionConfig', params: ['limit'] },
      ng_run: { config: ['a.B', 'C'] },
    },
    globalParameters: ['config_paths'],
    globalSections: ['Shared *'],
    ignoreParameters: ['*_server'],
    rules: {
      'example-param-unknown': 'error',
      'example-param-undocumented': ['warn', { ignore: ['x'] }],
      'reference-default-mismatch': 0,
    },
  };
  const expected = {
    ...defaultConfig(),
    sources: ['src/**/*.py'],
    docs: ['docs/**/*.mdx'],
    ignore: ['examples/**'],
    reference: ['docs/reference/**'],
    commands: {
      ng_collect_rollouts: { aliases: ['nemo_gym_collect_rollouts'], config: ['RolloutCollectionConfig'], params: ['limit'] },
      ng_run: { config: ['a.B', 'C'] },
    },
    globalParameters: ['config_paths'],
    globalSections: ['Shared *'],
    ignoreParameters: ['*_server'],
    rules: {
      'example-param-unknown': 'error',
      'example-param-undocumented': ['warn', { ignore: ['x'] }],
      'reference-default-mismatch': 'off',
    },
  };

  it('reads docdrift.config.json', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify(full, null, 2) });
    const { config, file } = loadConfig(root, undefined, RULES);
    expect(file).toBe(path.join(root, 'docdrift.config.json'));
    expect(config).toEqual(expected);
  });

  it.each(['docdrift.config.yaml', 'docdrift.config.yml', '.docdriftrc.yaml', '.docdriftrc.yml'])('reads %s', (name) => {
    const yaml = `# docdrift
sources:
  - src/**/*.py
docs: docs/**/*.mdx
ignore: [examples/**]
reference: [docs/reference/**]
commands:
  ng_collect_rollouts:
    aliases: [nemo_gym_collect_rollouts]
    config: RolloutCollectionConfig
    params: [limit]
  ng_run:
    config: [a.B, C]
globalParameters: [config_paths]
globalSections: ['Shared *']
ignoreParameters: ['*_server']
rules:
  example-param-unknown: error
  example-param-undocumented: [warn, { ignore: [x] }]
  reference-default-mismatch: 0
`;
    const root = project({ [name]: yaml });
    const { config, file } = loadConfig(root, undefined, RULES);
    expect(file).toBe(path.join(root, name));
    expect(config).toEqual(expected);
  });

  it('reads .docdriftrc.json', () => {
    const root = project({ '.docdriftrc.json': JSON.stringify({ sources: ['lib/**/*.py'] }) });
    expect(loadConfig(root).config.sources).toEqual(['lib/**/*.py']);
  });

  it('reads package.json#docdrift', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'x', docdrift: full }) });
    const { config, file } = loadConfig(root, undefined, RULES);
    expect(file).toBe(path.join(root, 'package.json'));
    expect(config).toEqual(expected);
  });

  it('ignores a package.json without a docdrift key', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'x' }) });
    expect(loadConfig(root)).toEqual({ config: defaultConfig() });
  });

  it('ignores a broken package.json that does not mention docdrift', () => {
    const root = project({ 'package.json': '{ "name": ' });
    expect(loadConfig(root).file).toBeUndefined();
  });

  it('accepts $schema and a one-element severity tuple', () => {
    const root = project({
      'docdrift.config.json': JSON.stringify({ $schema: './schema.json', rules: { 'example-param-unknown': ['error'] } }),
    });
    expect(loadConfig(root, undefined, RULES).config.rules).toEqual({ 'example-param-unknown': 'error' });
  });

  it('accepts and ignores $comment notes at the top level and in a command entry, but not elsewhere', () => {
    const root = project({
      'docdrift.config.json': JSON.stringify({
        $comment: ['written by docdrift init'],
        commands: { tool: { $comment: 'TODO: set "config"', aliases: ['t'] } },
      }),
    });
    expect(loadConfig(root, undefined, RULES).config.commands).toEqual({ tool: { aliases: ['t'] } });
    const bad = project({ 'docdrift.config.json': JSON.stringify({ $comment: 5 }) });
    expect(() => loadConfig(bad, undefined, RULES)).toThrow(ConfigError);
    const nested = project({ 'docdrift.config.json': JSON.stringify({ rules: { $comment: 'x' } }) });
    expect(() => loadConfig(nested, undefined, RULES)).toThrow(ConfigError);
  });

  it('reads an explicit --config file, relative to the working directory', () => {
    const root = project({ 'conf/dd.yaml': 'sources: [a/**/*.py]\n', 'docdrift.config.json': '{"sources": ["b"]}' });
    const cwd = process.cwd();
    try {
      process.chdir(root);
      const { config, file } = loadConfig(root, 'conf/dd.yaml');
      expect(config.sources).toEqual(['a/**/*.py']);
      expect(file).toBe(path.join(root, 'conf/dd.yaml'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads an explicit package.json through its docdrift key', () => {
    const root = project({ 'sub/package.json': JSON.stringify({ docdrift: { docs: ['x.md'] } }) });
    expect(loadConfig(root, path.join(root, 'sub/package.json')).config.docs).toEqual(['x.md']);
  });
});

describe('JavaScript configs are never executed', () => {
  // Each of these would create a marker file if it were imported or required.
  const evil = (marker: string) =>
    `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'executed');\nmodule.exports = { sources: ['x'] };\n`;
  const evilEsm = (marker: string) =>
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'executed');\nexport default { sources: ['x'] };\n`;

  it.each([
    ['docdrift.config.js', evil],
    ['docdrift.config.cjs', evil],
    ['docdrift.config.mjs', evilEsm],
    ['docdrift.config.ts', evilEsm],
    ['.docdriftrc.js', evil],
  ])('%s alone is a config error, and the file is not run', (name, body) => {
    const root = project({});
    const marker = path.join(root, 'EXECUTED');
    writeFileSync(path.join(root, name), body(marker));
    const error = configError(() => loadConfig(root));
    expect(error.file).toBe(name);
    expect(error.key).toBe('');
    expect(error.message).toContain('never executes repository code');
    expect(error.message).toContain('docdrift.config.yaml');
    expect(existsSync(marker)).toBe(false);
  });

  it('an explicit --config docdrift.config.js is refused and not run', () => {
    const root = project({});
    const marker = path.join(root, 'EXECUTED');
    writeFileSync(path.join(root, 'docdrift.config.js'), evil(marker));
    const error = configError(() => loadConfig(root, path.join(root, 'docdrift.config.js')));
    expect(error.file).toBe('docdrift.config.js');
    expect(existsSync(marker)).toBe(false);
  });

  it('a JSON config next to a .js one wins, and the .js file is not run', () => {
    const root = project({ 'docdrift.config.json': '{"sources": ["ok/**/*.py"]}' });
    const marker = path.join(root, 'EXECUTED');
    writeFileSync(path.join(root, 'docdrift.config.js'), evil(marker));
    expect(loadConfig(root).config.sources).toEqual(['ok/**/*.py']);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('errors', () => {
  it('unparseable JSON: position as line and column', () => {
    const root = project({ 'docdrift.config.json': '{\n  "sources": ["a"],\n}\n' });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('docdrift.config.json');
    expect(e.key).toBe('');
    expect([e.line, e.column]).toEqual([3, 1]);
    expect(e.message).toMatch(/^Invalid docdrift config in docdrift\.config\.json:3:1: the file is not valid JSON/);
  });

  it('unparseable YAML: position as line and column', () => {
    const root = project({ 'docdrift.config.yaml': 'sources: [a,\nrules: x\n' });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('docdrift.config.yaml');
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.message).toContain('not valid YAML');
  });

  it('a YAML alias bomb is a config error naming the file, not a bare "Excessive alias count" (#33 sweep)', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h'].entries()) {
      const prev = 'abcdefg'[i]!;
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const root = project({ 'docdrift.config.yaml': `${levels.join('\n')}\ndocs: *h\n` });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('docdrift.config.yaml');
    expect(e.message).toMatch(/^Invalid docdrift config in docdrift\.config\.yaml: the YAML file was refused while its aliases were expanded/);
    expect(e.got).toMatch(/alias/i);
  });

  it('duplicate YAML keys are a parse error', () => {
    const root = project({ 'docdrift.config.yaml': 'sources: [a]\nsources: [b]\n' });
    const e = configError(() => loadConfig(root));
    expect(e.line).toBe(2);
  });

  it('duplicate JSON keys are an error naming the key and both lines, as in YAML (s47 sweep J10)', () => {
    const root = project({ 'docdrift.config.json': '{\n  "docs": ["README.md"],\n  "rules": { "a": "off", "a": "warn" },\n  "docs": ["docs/**"]\n}\n' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('rules.a');
    expect([e.line, e.column]).toEqual([3, 26]);
    expect(e.got).toBe('`a` on line 3 and again on line 3');
    expect(e.message).toContain('the key appears twice in one object');
    const pkg = project({ 'package.json': '{"name": "x", "scripts": {"t": "1", "t": "2"}, "docdrift": {"docs": ["a"], "sources": ["b"], "docs": ["c"]}}' });
    const p = configError(() => loadConfig(pkg));
    expect([p.file, p.key]).toEqual(['package.json', 'docdrift.docs']);
    // A repeated key outside the docdrift key is npm's business, not the config's.
    const other = project({ 'package.json': '{"name": "x", "scripts": {"t": "1", "t": "2"}, "docdrift": {"docs": ["a"]}}' });
    expect(loadConfig(other).config.docs).toEqual(['a']);
  });

  it('a glob holding a NUL is refused, not a silent no-op (s47 sweep J10)', () => {
    const root = project({ 'docdrift.config.json': '{"sources": ["src/**"], "ignore": ["a\\u0000b"]}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('ignore[0]');
    expect(e.expected).toMatch(/without a NUL character/);
    // Other string keys are not globs and are not concerned.
    expect(loadConfig(project({ 'docdrift.config.json': '{"ignore": ["examples/**"]}' })).config.ignore).toEqual(['examples/**']);
  });

  it('a broken package.json that holds the config is reported', () => {
    const root = project({ 'package.json': '{ "docdrift": { "sources": [ } }' });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('package.json');
    expect(e.message).toContain('not valid JSON');
  });

  it('unknown top-level key: suggests the nearest known key, in the file format', () => {
    const root = project({ 'docdrift.config.yaml': 'docs: [a.md]\nsource:\n  - src/**/*.py\n' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('source');
    expect([e.line, e.column]).toEqual([2, 1]);
    expect(e.got).toBe('"source"');
    expect(e.expected).toContain('did you mean "sources"?');
    expect(e.example).toBe('sources:\n  - src/**/*.py');
    expect(e.message).toBe(
      [
        'Invalid docdrift config in docdrift.config.yaml:2:1: unknown key "source"',
        '  key:      source',
        '  got:      "source"',
        '  expected: a known key; did you mean "sources"? The allowed keys: "sources", "docs", "ignore", "reference", "commands", "globalParameters", "globalSections", "globalFiles", "env", "ignoreParameters", "versions", "allowUnchecked", "rules"',
        '  example:',
        '    sources:',
        '      - src/**/*.py',
      ].join('\n'),
    );
  });

  it('unknown key in a command entry or a flag declaration lists every key its schema accepts (issue #30)', () => {
    const command = configError(() => loadConfig(project({ 'docdrift.config.json': '{"commands": {"tool": {"progam": "src/cli.ts"}}}' })));
    expect(command.expected).toBe(
      'a known key; did you mean "program"? The allowed keys of a command: "aliases", "config", "params", "kind", "sections", "complete", "program", "flags", "defaultSubcommand"',
    );
    const flag = configError(() => loadConfig(project({ 'docdrift.config.json': '{"commands": {"tool": {"flags": [{"name": "--x", "alias": ["-x"]}]}}}' })));
    expect(flag.expected).toContain('"name", "aliases", "type", "default", "description", "required", "hidden", "deprecated", "choices", "negatable", "positional", "field"');
  });

  it('unknown key with no near match lists the known keys', () => {
    const root = project({ 'docdrift.config.json': '{"zzzzzz": 1}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('zzzzzz');
    expect(e.expected).toContain('"sources", "docs"');
  });

  it('unknown key inside a command entry', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ commands: { run: { alias: ['r'] } } }, null, 2) });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('commands.run.alias');
    expect(e.expected).toContain('did you mean "aliases"?');
    expect(JSON.parse(e.example!)).toEqual({ commands: { run: { aliases: ['r'] } } });
  });

  it('unknown key in package.json#docdrift is reported under docdrift.', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'x', docdrift: { rulez: {} } }, null, 2) });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('package.json');
    expect(e.key).toBe('docdrift.rulez');
    expect(e.expected).toContain('"rules"');
    expect(JSON.parse(e.example!)).toEqual({ docdrift: { rules: {} } });
  });

  it('wrong type: a number where a list of globs is expected', () => {
    const root = project({ 'docdrift.config.json': '{\n  "docs": ["a.md"],\n  "sources": 5\n}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('sources');
    expect([e.line, e.column]).toEqual([3, 3]);
    expect(e.got).toBe('5 (a number)');
    expect(e.expected).toContain('list of globs');
    expect(JSON.parse(e.example!)).toEqual({ sources: DEFAULT_CONFIG.sources });
  });

  it('wrong type: a list item', () => {
    const root = project({ 'docdrift.config.yaml': 'ignore:\n  - a\n  - 3\n' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('ignore[1]');
    expect([e.line, e.column]).toEqual([3, 5]);
    expect(e.got).toBe('3 (a number)');
    expect(e.expected).toBe('a non-empty string');
  });

  it('empty sources', () => {
    const root = project({ 'docdrift.config.json': '{"sources": []}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('sources');
    expect(e.message).toContain('"sources" must not be empty');
  });

  it('wrong type: commands.<name>.config', () => {
    const root = project({ 'docdrift.config.yaml': 'commands:\n  run:\n    config: 42\n' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('commands.run.config');
    expect(e.expected).toContain('config class name');
  });

  it('commands.<name>.defaultSubcommand: a sub-command name is kept; a non-string names the key', () => {
    const ok = project({ 'docdrift.config.json': '{"commands": {"chat": {"defaultSubcommand": "ask"}}}' });
    expect(loadConfig(ok).config.commands.chat).toEqual({ defaultSubcommand: 'ask' });
    const bad = project({ 'docdrift.config.yaml': 'commands:\n  chat:\n    defaultSubcommand: [ask]\n' });
    expect(configError(() => loadConfig(bad)).key).toBe('commands.chat.defaultSubcommand');
  });

  it('wrong type: the whole config', () => {
    const root = project({ 'docdrift.config.yaml': '- a\n- b\n' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('');
    expect(e.got).toBe('["a","b"] (a list)');
  });

  it('bad severity: suggests the right spelling', () => {
    const root = project({ 'docdrift.config.yaml': 'rules:\n  example-param-unknown: warning\n' });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.key).toBe('rules.example-param-unknown');
    expect([e.line, e.column]).toEqual([2, 3]);
    expect(e.got).toBe('"warning" (a string)');
    expect(e.expected).toContain('"off", "warn" or "error"');
    expect(e.example).toBe('rules:\n  example-param-unknown: warn');
  });

  it('bad severity inside a tuple', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': ['err', {}] } }) });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.key).toBe('rules.example-param-unknown');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['error', {}] } });
  });

  it('bad severity: a boolean', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': true } }) });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('rules.example-param-unknown');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': 'error' } });
  });

  it('unknown rule id: suggests the nearest known id', () => {
    const root = project({ 'docdrift.config.json': '{\n  "rules": {\n    "example-param-unknwon": "error"\n  }\n}\n' });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.key).toBe('rules.example-param-unknwon');
    expect([e.line, e.column]).toEqual([3, 5]);
    expect(e.got).toBe('"example-param-unknwon"');
    expect(e.expected).toBe('a known rule id; did you mean "example-param-unknown"?');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': 'error' } });
    expect(e.message.split('\n')[0]).toBe('Invalid docdrift config in docdrift.config.json:3:5: unknown rule "example-param-unknwon"');
  });

  it('unknown rule ids are accepted when no known ids are given', () => {
    const root = project({ 'docdrift.config.json': '{"rules": {"anything": "warn"}}' });
    expect(loadConfig(root).config.rules).toEqual({ anything: 'warn' });
  });

  it('reports the first problem in file order', () => {
    const root = project({ 'docdrift.config.yaml': 'bogus: 1\nsources: 3\n' });
    expect(configError(() => loadConfig(root)).key).toBe('bogus');
  });

  it('more than one config file is ambiguous', () => {
    const root = project({
      'docdrift.config.json': '{}',
      '.docdriftrc.yaml': '{}',
      'package.json': '{"docdrift": {}}',
    });
    const e = configError(() => loadConfig(root));
    expect(e.got).toBe('docdrift.config.json, .docdriftrc.yaml, package.json#docdrift');
  });

  it('a missing explicit file', () => {
    const root = project({});
    const e = configError(() => loadConfig(root, path.join(root, 'nope.yaml')));
    expect(e.file).toBe('nope.yaml');
    expect(e.message).toContain('does not exist');
    expect(e.expected).toBe('an existing JSON or YAML config file, or a package.json with a "docdrift" key');
  });

  it('a refused .js config names the accepted files', () => {
    const root = project({ 'docdrift.config.js': 'module.exports = {};\n' });
    expect(configError(() => loadConfig(root)).expected).toBe(
      'a JSON or YAML config: docdrift.config.json, docdrift.config.yaml, .docdriftrc.json, .docdriftrc.yaml, or a "docdrift" key in package.json',
    );
  });

  it('unknown key with a value wrong for the suggested key: the example shows the default, not the bad value', () => {
    const root = project({ 'docdrift.config.json': '{"sourcse": 1}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('sourcse');
    expect(e.got).toBe('"sourcse"');
    expect(e.expected).toBe('a known key; did you mean "sources"? The allowed keys: "sources", "docs", "ignore", "reference", "commands", "globalParameters", "globalSections", "globalFiles", "env", "ignoreParameters", "versions", "allowUnchecked", "rules"');
    expect(JSON.parse(e.example!)).toEqual({ sources: DEFAULT_CONFIG.sources });
  });

  it('unknown key with an empty default: the example shows a typical value', () => {
    const root = project({ 'docdrift.config.yaml': 'ignor: 3\n' });
    const e = configError(() => loadConfig(root));
    expect(e.expected).toBe('a known key; did you mean "ignore"? The allowed keys: "sources", "docs", "ignore", "reference", "commands", "globalParameters", "globalSections", "globalFiles", "env", "ignoreParameters", "versions", "allowUnchecked", "rules"');
    expect(e.example).toBe('ignore:\n  - examples/**');
  });

  it('unknown key inside a command entry with a bad value, and with no near match', () => {
    const bad = project({ 'docdrift.config.json': JSON.stringify({ commands: { run: { alias: 5 } } }) });
    expect(JSON.parse(configError(() => loadConfig(bad)).example!)).toEqual({ commands: { run: { aliases: ['run_alias'] } } });
    const far = project({ 'docdrift.config.json': JSON.stringify({ commands: { run: { zzzzzz: 5 } } }) });
    const e = configError(() => loadConfig(far));
    expect(e.expected).toBe('one of the known keys of a command: "aliases", "config", "params", "kind", "sections", "complete", "program", "flags", "defaultSubcommand"');
    expect(JSON.parse(e.example!)).toEqual({ commands: { run: { aliases: ['run_alias'], config: 'my_package.config.MyConfig' } } });
  });

  it('rule options that are not an object', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': ['warn', 5] } }) });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.key).toBe('rules.example-param-unknown');
    expect(e.message.split('\n')[0]).toBe('Invalid docdrift config in docdrift.config.json:1:11: invalid options for rule "example-param-unknown"');
    expect(e.got).toBe('["warn",5] (a list)');
    expect(e.expected).toBe('an object of rule options as the second element: [severity, { options }]');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['warn', {}] } });
  });

  it('a rule setting with too many elements keeps its severity and options in the example', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': ['error', { a: 1 }, 3] } }) });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.message.split('\n')[0]).toContain('too many elements in the setting of rule "example-param-unknown"');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['error', { a: 1 }] } });
  });

  it('a bad severity in a tuple keeps the options in the example', () => {
    const root = project({ 'docdrift.config.yaml': 'rules:\n  example-param-unknown: [warning, { a: 1 }]\n' });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.message.split('\n')[0]).toContain('invalid severity for rule "example-param-unknown"');
    expect(e.example).toBe('rules:\n  example-param-unknown:\n    - warn\n    - a: 1');
  });

  it('unknown rule id: the example keeps the options', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknwn': ['warn', { a: 1 }] } }) });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['warn', { a: 1 }] } });
  });

  it('a bad $schema: no made-up example', () => {
    const root = project({ 'docdrift.config.json': '{"$schema": 5}' });
    const e = configError(() => loadConfig(root));
    expect(e.key).toBe('$schema');
    expect(e.expected).toBe('a string: the URL or path of a JSON schema, for editors (docdrift ignores it)');
    expect(e.example).toBeUndefined();
    expect(e.message).not.toContain('example:');
  });
});

describe('validateRuleOptions', () => {
  const option = (type: 'string' | 'number' | 'boolean' | 'array', value: unknown, items?: { type: 'string' | 'number' }) => ({
    type,
    description: `A ${type} option.`,
    default: value,
    ...(items ? { items } : {}),
  });
  const meta = (id: string, options: RuleMeta['options']): { meta: RuleMeta } => ({
    meta: { id, description: 'Report something.', defaultSeverity: 'warn', fixable: false, options, messages: { m: 'x' } },
  });
  const FAKE_RULES = [
    meta('example-param-unknown', {
      reportUnknownNamespaces: option('boolean', false),
      reportKeysReadElsewhere: option('boolean', false),
    }),
    meta('reference-param-missing', {
      ignore: option('array', [], { type: 'string' }),
      minRows: option('number', 1),
      heading: option('string', 'Parameters'),
      anything: option('array', []),
    }),
    meta('parse-error', {}),
  ];
  const withRules = (rules: DocdriftConfig['rules']): DocdriftConfig => ({ ...defaultConfig(), rules });

  it('accepts known options of the right type, severity-only settings and rules it does not know', () => {
    const config = withRules({
      'example-param-unknown': ['error', { reportUnknownNamespaces: true }],
      'reference-param-missing': ['warn', { ignore: ['a', 'b'], minRows: 0, heading: 'Options', anything: [1, 'x'] }],
      'parse-error': 'off',
      'not-a-rule': ['warn', { whatever: 1 }],
    });
    expect(() => validateRuleOptions(config, FAKE_RULES)).not.toThrow();
    expect(() => validateRuleOptions(defaultConfig(), FAKE_RULES)).not.toThrow();
  });

  it('unknown option: suggests the nearest, keeps a value that fits it, with line and column', () => {
    const text = '{\n  "rules": {\n    "example-param-unknown": ["error", { "reportUnknownNamespace": true }]\n  }\n}\n';
    const root = project({ 'docdrift.config.json': text });
    const file = path.join(root, 'docdrift.config.json');
    const { config } = loadConfig(root);
    const e = configError(() => validateRuleOptions(config, FAKE_RULES, file));
    expect(e.key).toBe('rules.example-param-unknown.reportUnknownNamespace');
    expect([e.line, e.column]).toEqual([3, 42]);
    expect(e.got).toBe('"reportUnknownNamespace"');
    expect(e.expected).toBe('an option of rule "example-param-unknown"; did you mean "reportUnknownNamespaces"?');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['error', { reportUnknownNamespaces: true }] } });
    expect(e.message.split('\n')[0]).toBe(
      `Invalid docdrift config in ${e.file}:3:42: unknown option "reportUnknownNamespace" for rule "example-param-unknown"`,
    );
  });

  it('unknown option with a value of the wrong type: the example shows the default', () => {
    const config = withRules({ 'example-param-unknown': ['warn', { reportUnknownNamespace: 'yes' }] });
    const e = configError(() => validateRuleOptions(config, FAKE_RULES));
    expect(e.file).toBe('<config>');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'example-param-unknown': ['warn', { reportUnknownNamespaces: false }] } });
  });

  it('unknown option with no near match lists the options; a rule without options says so', () => {
    const far = configError(() => validateRuleOptions(withRules({ 'example-param-unknown': ['warn', { zzz: 1 }] }), FAKE_RULES));
    expect(far.key).toBe('rules.example-param-unknown.zzz');
    expect(far.expected).toBe('one of the options of rule "example-param-unknown": "reportUnknownNamespaces", "reportKeysReadElsewhere"');
    expect(JSON.parse(far.example!)).toEqual({ rules: { 'example-param-unknown': ['warn', {}] } });
    const none = configError(() => validateRuleOptions(withRules({ 'parse-error': ['error', { verbose: true }] }), FAKE_RULES));
    expect(none.expected).toBe('no options: rule "parse-error" takes none');
  });

  it('wrong type: boolean, number, string, array', () => {
    const check = (options: Record<string, unknown>, id = 'reference-param-missing') =>
      configError(() => validateRuleOptions(withRules({ [id]: ['warn', options] }), FAKE_RULES));
    const b = check({ reportUnknownNamespaces: 'yes' }, 'example-param-unknown');
    expect(b.key).toBe('rules.example-param-unknown.reportUnknownNamespaces');
    expect(b.got).toBe('"yes" (a string)');
    expect(b.expected).toBe('true or false');
    expect(b.note).toBe('reportUnknownNamespaces: A boolean option.');
    expect(JSON.parse(b.example!)).toEqual({ rules: { 'example-param-unknown': ['warn', { reportUnknownNamespaces: false }] } });
    expect([check({ minRows: '2' }).expected, check({ minRows: '2' }).got]).toEqual(['a number', '"2" (a string)']);
    expect(check({ heading: ['a'] }).expected).toBe('a string');
    const list = check({ ignore: 'x' });
    expect([list.key, list.expected]).toEqual(['rules.reference-param-missing.ignore', 'a list of strings']);
    expect(check({ anything: {} }).expected).toBe('a list');
  });

  it('wrong list item: the key points at the item', () => {
    const config = withRules({ 'reference-param-missing': ['error', { minRows: 2, ignore: ['a', 3] }] });
    const e = configError(() => validateRuleOptions(config, FAKE_RULES));
    expect(e.key).toBe('rules.reference-param-missing.ignore[1]');
    expect(e.got).toBe('3 (a number)');
    expect(e.expected).toBe('a string (ignore is a list of strings)');
    expect(JSON.parse(e.example!)).toEqual({ rules: { 'reference-param-missing': ['error', { minRows: 2, ignore: [] }] } });
  });

  it('YAML and package.json configs: example in the file format, key under docdrift.', () => {
    const yamlRoot = project({ 'docdrift.config.yaml': 'rules:\n  example-param-unknown:\n    - warn\n    - reportUnknownNamespaces: 1\n' });
    const cwd = process.cwd();
    let e: ConfigError;
    try {
      process.chdir(yamlRoot);
      e = configError(() => validateRuleOptions(loadConfig(yamlRoot).config, FAKE_RULES, path.join(yamlRoot, 'docdrift.config.yaml')));
    } finally {
      process.chdir(cwd);
    }
    expect(e.file).toBe('docdrift.config.yaml');
    expect([e.line, e.column]).toEqual([4, 7]);
    expect(e.example).toBe('rules:\n  example-param-unknown:\n    - warn\n    - reportUnknownNamespaces: false');

    const pkgRoot = project({ 'package.json': JSON.stringify({ docdrift: { rules: { 'parse-error': ['error', { x: 1 }] } } }) });
    const p = configError(() => validateRuleOptions(loadConfig(pkgRoot).config, FAKE_RULES, path.join(pkgRoot, 'package.json')));
    expect(p.key).toBe('docdrift.rules.parse-error.x');
    expect(JSON.parse(p.example!)).toEqual({ docdrift: { rules: { 'parse-error': ['error', {}] } } });
  });
});

describe('pattern helpers', () => {
  it('createParameterMatcher matches dotted keys segment-wise, prefixes included', () => {
    const m = createParameterMatcher(DEFAULT_CONFIG.ignoreParameters.concat('*_server'));
    expect(m('_private')).toBe(true);
    expect(m('_private.x')).toBe(true);
    expect(m('model._target_')).toBe(true);
    expect(m('a.b._partial_')).toBe(true);
    expect(m('_target_')).toBe(true);
    expect(m('policy_server')).toBe(true);
    expect(m('policy_server.host')).toBe(true);
    expect(m('a.policy_server')).toBe(false);
    expect(m('temperature')).toBe(false);
    expect(m('a._b')).toBe(false);
    expect(createParameterMatcher([])('x')).toBe(false);
  });

  it('createHeadingMatcher: case-insensitive, globs, trailing colon', () => {
    const m = createHeadingMatcher(DEFAULT_CONFIG.globalSections.concat('Shared * options'));
    expect(m('Common Options')).toBe(true);
    expect(m('global parameters:')).toBe(true);
    expect(m('Shared I/O options')).toBe(true);
    expect(m('Common options for x')).toBe(false);
  });

  // s25 sweep D4: compiled to a regular expression with `.*` per `*`, this pattern backtracked past 120 s.
  it('createHeadingMatcher: many `*`s against a long heading answer at once', () => {
    const m = createHeadingMatcher(['*a*a*a*a*a*a*a*a*a*a*a*a*c']);
    const started = performance.now();
    expect(m(`${'a'.repeat(60)}b`)).toBe(false);
    expect(m(`${'a'.repeat(60)}c`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('wildcardMatch costs about pattern plus text: 40 patterns of 2,000 characters over 20 headings of 3,000 (minutes before, #33 s27 sweep D4)', () => {
    const headings = Array.from({ length: 20 }, () => 'a'.repeat(3000));
    const patterns = Array.from({ length: 40 }, (_, i) => `*${'a'.repeat(2000)}b${i}`);
    const started = performance.now();
    for (const h of headings) for (const p of patterns) expect(wildcardMatch(p, h)).toBe(false);
    expect(wildcardMatch(`*${'a'.repeat(2000)}*`, 'a'.repeat(3000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('wildcardMatch agrees with the regular expression it replaced on 3,000 random patterns and texts', () => {
    let seed = 42;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pick = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
    for (let i = 0; i < 20000; i++) {
      const pattern = pick('ab*?.', next(9));
      const text = pick('ab.', next(11));
      const regex = new RegExp(`^${[...pattern].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
      expect(wildcardMatch(pattern, text), `${pattern} ~ ${text}`).toBe(regex.test(text));
    }
  });
});

describe('ignoreParameters matching (#33 s38 sweep D5)', () => {
  it('agrees with picomatch (the matcher it replaced for `*`, `?` and `**`) on 20,000 random patterns and dotted keys', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pick = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
    for (let i = 0; i < 20000; i++) {
      const pattern = pick('ab*?.', 1 + next(8)).replace(/^\.+|\.+$/g, '') || 'a';
      const key = pick('ab.', 1 + next(9)).replace(/^\.+|\.+$/g, '') || 'b';
      const segments = key.split('.');
      const isMatch = picomatch(pattern.split('.').join('/'), { dot: true });
      const expected = segments.some((_, n) => isMatch(segments.slice(0, n + 1).join('/')));
      expect(createParameterMatcher([pattern])(key), `${pattern} ~ ${key}`).toBe(expected);
    }
  });

  it('a pattern within the wildcard cap answers at once on long keys (five 3,000-character keys took a run 30 s)', () => {
    const m = createParameterMatcher(['*a*a*b', '**.x*y*z']);
    const started = performance.now();
    for (let i = 0; i < 5; i++) expect(m(`${'a'.repeat(3000)}${i}`)).toBe(false);
    expect(m(`${'a'.repeat(3000)}b`)).toBe(true);
    expect(m(`p.q.${'x'.repeat(3000)}z`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('patterns with braces, classes or extglobs still match as picomatch does, and skip a key segment over 256 characters', () => {
    const m = createParameterMatcher(['{alpha,beta}_*', '[xy]z', '+(a)c']);
    expect(m('alpha_rate')).toBe(true);
    expect(m('beta_rate.sub')).toBe(true);
    expect(m('gamma_rate')).toBe(false);
    expect(m('yz')).toBe(true);
    expect(m('aaac')).toBe(true);
    const started = performance.now();
    expect(m(`${'a'.repeat(3000)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('globs that leave the project root', () => {
  it.each([
    [{ sources: ['../outside/**/*.py'] }, 'sources[0]'],
    [{ docs: ['**/*.md', '!/etc/**'] }, 'docs[1]'],
    [{ ignore: ['a/../../b'] }, 'ignore[0]'],
    [{ globalFiles: ['C:\\\\docs\\\\x.md'] }, 'globalFiles[0]'],
  ])('%j is refused, naming %s', (config, key) => {
    const root = project({ 'docdrift.config.json': JSON.stringify(config) });
    const error = configError(() => loadConfig(root));
    expect(error.key).toBe(key);
    expect(error.message).toContain('leaves the project root');
  });

  // #33 fresh sweep defect 5: fast-glob expands braces into one pattern each (2^30: a V8 heap abort).
  it.each([
    ['docs', { docs: [`docs/${'{a,b}'.repeat(30)}.md`] }, 'docs[0]', 'expands to more than 1,000 patterns'],
    ['ignore', { ignore: ['x/**', `${'{1..10}'.repeat(4)}/**`] }, 'ignore[1]', 'expands to more than 1,000 patterns'],
    ['sources', { sources: ['**/*.py', `**/{${Array.from({ length: 1001 }, (_, i) => `m${i}`).join(',')}}.py`] }, 'sources[1]', 'expands to more than 1,000 patterns'],
    ['all globs together', { sources: Array(20).fill(`**/${'{a,b}'.repeat(9)}.py`) }, 'sources[19]', 'past 10,000 patterns in all'],
  ])('a glob whose brace groups multiply past the cap is refused before globbing (%s)', (_name, config, key, text) => {
    const root = project({ 'docdrift.config.json': JSON.stringify(config) });
    const started = Date.now();
    const error = configError(() => loadConfig(root));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.key).toBe(key);
    expect(error.message).toContain(text);
    expect(error.message).toContain('docdrift.config.json');
  });

  it('globs with a few brace groups, escaped braces or a lone {x} are fine', () => {
    const globs = ['**/*.{md,mdx}', `docs/${'{a,b}'.repeat(9)}.md`, `docs/${'\\{a,b\\}'.repeat(30)}.md`, `docs/${'{a}'.repeat(30)}.md`];
    const root = project({ 'docdrift.config.json': JSON.stringify({ docs: globs }) });
    expect(loadConfig(root).config.docs).toEqual(globs);
  });

  // #33 sweep s19: `*a*a*a*a*a*a*a*a*b.md` backtracked past 40 s on one 60-character name; a
  // 70,000-character glob was picomatch's "Input length … exceeds maximum" naming no key.
  it.each([
    ['docs', { docs: [`docs/${'*a'.repeat(8)}*b.md`] }, 'docs[0]', '9 repeating wildcards (`*` runs and extglob groups) in one path segment'],
    ['sources', { sources: ['**/*.py', `tool/${'*a'.repeat(9)}*b.py`] }, 'sources[1]', 'repeating wildcards (`*` runs and extglob groups) in one path segment'],
    // s25 sweep D3: nested extglobs compile to nested quantifiers (27 s to over 30 s on a 31-`a` name).
    ['reference', { reference: ['docs/+(+(a))c.md'] }, 'reference[0]', 'has an extglob group inside another'],
    ['ignoreParameters', { ignoreParameters: ['_*', '+(+(a))c'] }, 'ignoreParameters[1]', 'has an extglob group inside another'],
    ['globalFiles', { globalFiles: ['docs/+(a)*(b)@(c)?(d).md'] }, 'globalFiles[0]', '4 repeating wildcards'],
    ['ignore', { ignore: [`docs/${'a'.repeat(70_000)}.md`] }, 'ignore[0]', 'is longer than 4,096 characters'],
  ])('a glob whose matching could run away is refused before globbing (%s)', (_name, config, key, text) => {
    const root = project({ 'docdrift.config.json': JSON.stringify(config) });
    const error = configError(() => loadConfig(root));
    expect(error.key).toBe(key);
    expect(error.message).toContain(text);
    expect(error.message).toContain('docdrift.config.json');
  });

  // s25 sweep D10: 300,000 ignoreParameters ran V8 out of memory (a native abort); a 2 MB YAML list
  // of a million items cost 17 s and 1.86 GB before the 10,000-pattern check could refuse it.
  it.each([
    ['ignoreParameters', 'docdrift.config.json', JSON.stringify({ ignoreParameters: Array.from({ length: 1001 }, (_, i) => `p${i}.*`) }), '"ignoreParameters" has 1,001 items, more than the 1,000 a config list may have'],
    ['globalSections', 'docdrift.config.json', JSON.stringify({ globalSections: Array.from({ length: 5000 }, (_, i) => `s${i}`) }), '"globalSections" has 5,000 items'],
    ['a 300 KB YAML list', 'docdrift.config.yaml', `docs: [${Array(150_000).fill('a').join(',')}]\n`, 'the config file cannot be read (EFBIG'],
    ['a 300 KB docdrift key of package.json', 'package.json', JSON.stringify({ name: 'x', docdrift: { docs: Array(100_000).fill('a') } }), 'the "docdrift" key holds 391 KB of JSON'],
  ])('a config list too long to be real is refused before it costs time or memory (%s)', (_name, file, text, message) => {
    const root = project({ [file]: text });
    const started = performance.now();
    const error = configError(() => loadConfig(root));
    expect(error.message).toContain(message);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('one level of extglob groups, and parentheses inside one, are fine', () => {
    const globs = ['docs/@(cli|api).md', 'docs/+(a|b)-*.md', 'docs/!(draft)*.md', 'docs/@(a|(b|c)).md'];
    const root = project({ 'docdrift.config.json': JSON.stringify({ docs: globs, ignoreParameters: ['*_server.@(host|port)'] }) });
    expect(loadConfig(root).config.docs).toEqual(globs);
  });

  it('globs with up to three wildcards per segment and any number of "**" segments are fine', () => {
    const globs = ['**/*-*-*.md', 'docs/**/**/*.test.*', '**/*'];
    const root = project({ 'docdrift.config.json': JSON.stringify({ docs: globs }) });
    expect(loadConfig(root).config.docs).toEqual(globs);
  });

  it('globs with ".." inside a name, or "**", are fine', () => {
    const root = project({ 'docdrift.config.json': JSON.stringify({ sources: ['src/**/*.py', 'a..b/*.py'], docs: ['docs/**/x..md'] }) });
    expect(loadConfig(root).config.sources).toEqual(['src/**/*.py', 'a..b/*.py']);
  });
});

describe('JSON with comments (jsonc-parser)', () => {
  it('docdrift.config.json may hold line and block comments', () => {
    const root = project({ 'docdrift.config.json': '{\n  // the code\n  "sources": ["src/**/*.py"], /* and the docs */\n  "docs": ["README.md"]\n}\n' });
    const { config } = loadConfig(root);
    expect(config.sources).toEqual(['src/**/*.py']);
    expect(config.docs).toEqual(['README.md']);
  });

  it('package.json may not: the comment is reported at its line and column', () => {
    const root = project({ 'package.json': '{\n  "name": "x",\n  // no\n  "docdrift": { "sources": ["a"] }\n}\n' });
    const e = configError(() => loadConfig(root));
    expect(e.file).toBe('package.json');
    expect([e.line, e.column]).toEqual([3, 3]);
    expect(e.got).toContain('comment');
  });

  it('an unclosed object: the offset comes from the parser, at the end of the file', () => {
    const root = project({ 'docdrift.config.json': '{\n  "sources": ["a"]\n' });
    const e = configError(() => loadConfig(root));
    expect(e.line).toBe(3);
    expect(e.got).toBe('the file ends too early');
  });
});

describe('hostile config files (#17 items 7 and 9, #18 item 9)', () => {
  it('shows a credential in a wrong value redacted and the value truncated', () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const root = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': token }, ignore: [`x${'y'.repeat(500)}`, 3] }) });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.message).not.toContain(token);
    expect(e.message).toContain('ghp_…(redacted, 40 characters)');
    const long = project({ 'docdrift.config.json': JSON.stringify({ rules: { 'example-param-unknown': 'a b '.repeat(500) } }) });
    const l = configError(() => loadConfig(long, undefined, RULES));
    for (const line of l.message.split('\n')) expect(line.length).toBeLessThan(300);
  });

  it('rejects __proto__, constructor and prototype keys with their key path', () => {
    for (const [text, key] of [
      ['{"rules": {"__proto__": "error"}}', 'rules.__proto__'],
      ['{"commands": {"constructor": {"config": "X"}}}', 'commands.constructor'],
      ['{"commands": {"tool": {"flags": [{"name": "--a", "prototype": 1}]}}}', 'commands.tool.flags[0].prototype'],
    ] as const) {
      const e = configError(() => loadConfig(project({ 'docdrift.config.json': text }), undefined, RULES));
      expect(e.key).toBe(key);
      expect(e.message).toContain('is not allowed');
    }
  });

  it('names the file of a config nested 5,000 levels deep', () => {
    const root = project({ 'docdrift.config.json': `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` });
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.file).toBe('docdrift.config.json');
    expect(e.message).toContain('5000 levels deep');
  });

  it('names the file and line of a YAML config nested by block indicators on one line (s49 sweep L3)', () => {
    for (const [text, depth] of [
      [`commands:\n  tool:\n    sections:\n${'      - '.repeat(2000)}x\n`, 2003],
      [`${'? '.repeat(30000)}x\n`, 30000],
    ] as const) {
      const e = configError(() => loadConfig(project({ 'docdrift.config.yaml': text }), undefined, RULES));
      expect(e.file).toBe('docdrift.config.yaml');
      expect(e.message).toContain(`${depth} levels deep`);
      expect(e.message).not.toContain('call stack');
    }
    // Indicators after the content (`- a: b`, a `-` in a value) are no nesting of their own.
    const fine = project({ 'docdrift.config.yaml': 'docs:\n  - README.md\n  - "docs/- x.md"\nrules:\n  example-param-unknown: error\n' });
    expect(loadConfig(fine, undefined, RULES).config.docs).toEqual(['README.md', 'docs/- x.md']);
  });

  it('warns about YAML tags such as !!python/object and reads plain data', () => {
    const root = project({ 'docdrift.config.yaml': 'sources: !!python/object:os.system ["**/*.py"]\ndocs: !!str x\n' });
    const { warnings } = loadConfig(root, undefined, RULES) as { warnings?: string[] };
    expect(warnings).toEqual([expect.stringContaining('the YAML tag !!python/object:os.system is ignored')]);
  });

  it('refuses a config file that is a link to /dev/zero, naming it (no hang)', () => {
    const root = project({});
    symlinkSync('/dev/zero', path.join(root, 'docdrift.config.json'));
    const e = configError(() => loadConfig(root, undefined, RULES));
    expect(e.file).toBe('docdrift.config.json');
    expect(e.message).toContain('ENOTREG');
  });

  it('reads a config with a UTF-8 BOM', () => {
    const root = project({ 'docdrift.config.json': '\uFEFF{"ignore": ["examples/**"]}' });
    expect(loadConfig(root, undefined, RULES).config.ignore).toContain('examples/**');
  });
});

describe('circular YAML aliases (s39 sweep D2)', () => {
  it('refuses an alias inside the mapping it names with exit-2 ConfigError naming the key, at once', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'docdrift-yaml-cycle-'));
    try {
      writeFileSync(path.join(root, 'docdrift.config.yaml'), 'base: &b\n  x: 1\n  <<: *b\n');
      const t0 = performance.now();
      expect(() => loadConfig(root)).toThrow(ConfigError);
      expect(() => loadConfig(root)).toThrow(/docdrift\.config\.yaml.*base\.<<.*alias/s);
      expect(performance.now() - t0).toBeLessThan(5000);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('accepts an alias shared by two places that do not contain each other', () => {
    expect(circularPath({ a: [1], b: { c: 2 } })).toBeUndefined();
    const shared = ['docs/**/*.md'];
    expect(circularPath({ docs: shared, other: { docs: shared } })).toBeUndefined();
    const loop: Record<string, unknown> = { x: 1 };
    loop.self = { again: loop };
    expect(circularPath({ top: loop })).toBe('top.self.again');
  });
});
