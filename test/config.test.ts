/** Tests of config discovery, parsing, validation and error messages (src/config). */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load.js';
import { createHeadingMatcher, createParameterMatcher } from '../src/config/patterns.js';
import { DEFAULT_CONFIG, defaultConfig } from '../src/config/schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temporary project with the given files. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'docdrift-config-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

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

describe('defaults', () => {
  it('returns every default when there is no config file', () => {
    const root = project({ 'README.md': '# x\n' });
    const { config, file } = loadConfig(root);
    expect(file).toBeUndefined();
    expect(config).toEqual(defaultConfig());
    expect(config.sources).toEqual(['**/*.py', '!**/tests/**', '!**/test/**', '!**/test_*.py', '!**/*_test.py', '!**/conftest.py']);
    expect(config.docs).toEqual(['**/*.md', '**/*.mdx', '!**/versioned_docs/**', '!**/versions/v[0-9]*/**']);
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
    expect(loadConfig(root).config.sources).toEqual(['**/*.py', '!**/tests/**', '!**/test/**', '!**/test_*.py', '!**/*_test.py', '!**/conftest.py']);
    expect(DEFAULT_CONFIG.sources).toEqual(['**/*.py', '!**/tests/**', '!**/test/**', '!**/test_*.py', '!**/*_test.py', '!**/conftest.py']);
  });

  it('an empty YAML file means all defaults', () => {
    const root = project({ 'docdrift.config.yaml': '# nothing yet\n' });
    expect(loadConfig(root).config).toEqual(defaultConfig());
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

  it('duplicate YAML keys are a parse error', () => {
    const root = project({ 'docdrift.config.yaml': 'sources: [a]\nsources: [b]\n' });
    const e = configError(() => loadConfig(root));
    expect(e.line).toBe(2);
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
        '  expected: a known key; did you mean "sources"?',
        '  example:',
        '    sources:',
        '      - src/**/*.py',
      ].join('\n'),
    );
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
});
