/**
 * Issue #31: the `environment` pseudo-command joined from env facts and env sections, judged by
 * the ordinary rules. Env facts are written here as an extractor gives them, so the join and the
 * rules are tested apart from the extractors (test/extract-*-env.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../src/link/build.js';
import { parseDoc } from '../src/docs/parse.js';
import { defaultConfig } from '../src/config/index.js';
import { runRules } from '../src/engine/run-rules.js';
import { rules } from '../rules/index.js';
import { runNotes } from '../src/engine/notes.js';
import { ENVIRONMENT_COMMAND, type DefaultValue, type EnvExtraction, type ParamSpec, type ReferenceRow, type Usage } from '../src/model/types.js';
import { dependencyEnvPrefixes, envColumnSection, envNameStatus, environmentCommand, isEnvListHeading, isPrivateEnvName, isToolingFile, isWellKnownEnv, splitEnvSections } from '../src/link/environment.js';
import { collectEnvWords, mentionedEnvName, obsoleteEnvNames } from '../src/shared/env-words.js';
import { readDependencies } from '../src/extract/dependencies.js';

/** An env-var read as the extractors describe it. */
function envVar(name: string, file: string, line: number, extra: Partial<ParamSpec> = {}): ParamSpec {
  return { name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'env-var', owner: file, location: { file, line, column: 1 }, envSource: 'read', ...extra };
}

function lit(text: string): DefaultValue {
  return { kind: 'literal', text };
}

interface Project {
  docs: Record<string, string>;
  env: EnvExtraction;
  envWords?: string[];
  envFiles?: Array<{ file: string; rows: ReferenceRow[] }>;
  envUsages?: Record<string, Usage[]>;
}

function run(p: Project) {
  const docs = Object.entries(p.docs).map(([file, text]) => {
    const doc = parseDoc(file, text).doc;
    const usages = p.envUsages?.[file];
    return usages ? { ...doc, envUsages: usages } : doc;
  });
  const model = buildModel({
    root: '/x',
    config: defaultConfig(),
    classes: [],
    functionConfigs: new Map(),
    entryPoints: [],
    stringKeys: new Map(),
    docs,
    diagnostics: [],
    env: p.env,
    envWords: new Set(p.envWords ?? []),
    source: (file: string) => p.docs[file],
    ...(p.envFiles ? { envFiles: p.envFiles } : {}),
  });
  const configured = rules.map((rule) => ({ rule, severity: rule.meta.defaultSeverity, options: Object.fromEntries(Object.entries(rule.meta.options ?? {}).map(([k, o]) => [k, o.default])) }));
  const { messages, failures } = runRules(model, configured);
  expect(failures).toEqual([]);
  return { model, messages, notes: runNotes(model, defaultConfig(), Object.keys(p.docs)) };
}

const README = `# qdrant-mcp

## Environment Variables

| Name | Description | Default |
|------|-------------|---------|
| \`QDRANT_URL\` | URL of the Qdrant server | None |
| \`QDRANT_API_KEY\` | API key | None |
| \`QDRANT_SEARCH_LIM\` | Results per search | 10 |
| \`COLLECTION_NAME\` | Default collection | None |
| \`OPENAI_API_KEY\` | Passed to the embedding SDK | None |
| \`HOME\` | Where the cache lives | |
`;

const code: EnvExtraction = {
  vars: [
    envVar('QDRANT_URL', 'src/settings.py', 10, { envSource: 'settings' }),
    envVar('QDRANT_API_KEY', 'src/settings.py', 11, { envSource: 'settings' }),
    envVar('QDRANT_SEARCH_LIMIT', 'src/settings.py', 12, { envSource: 'settings', default: lit('10') }),
    envVar('COLLECTION_NAME', 'src/settings.py', 13, { envSource: 'settings' }),
    envVar('QDRANT_LOCAL_PATH', 'src/settings.py', 14, { envSource: 'settings' }),
    envVar('RUN_SLOW', 'tests/test_server.py', 3),
    envVar('HOME', 'src/cache.py', 3),
  ],
  dynamic: [],
};

describe('environment pseudo-command', () => {
  it('reports a variable read by code and missing from the env table, and a documented one read nowhere, with did-you-mean', () => {
    const { model, messages } = run({ docs: { 'README.md': README }, env: code });
    const env = model.commandByName(ENVIRONMENT_COMMAND)!;
    expect(env.kind).toBe('environment');
    expect(env.paramsKnown).toBe(true);
    expect(model.sectionsFor(env).map((s) => [s.file, s.heading.text, s.rows.length])).toEqual([['README.md', 'Environment Variables', 6]]);
    const found = messages.map((m) => [m.ruleId, m.data?.name ?? m.data?.param, m.line]);
    expect(found).toContainEqual(['reference-param-missing', 'QDRANT_SEARCH_LIMIT', 3]);
    expect(found).toContainEqual(['reference-param-missing', 'QDRANT_LOCAL_PATH', 3]);
    const stale = messages.filter((m) => m.ruleId === 'reference-param-unknown');
    expect(stale.map((m) => [m.data?.name, m.data?.suggestion])).toEqual([['QDRANT_SEARCH_LIM', 'QDRANT_SEARCH_LIMIT']]);
    expect(stale[0]!.message).toMatch(/documented as an environment variable, but the code never reads it/);
    // Test-only and well-known variables are never demanded; a foreign SDK's variable is not judged.
    expect(found.map((f) => f[1])).not.toContain('RUN_SLOW');
    expect(found.map((f) => f[1])).not.toContain('HOME');
    expect(found.map((f) => f[1])).not.toContain('OPENAI_API_KEY');
  });

  it('never demands a CLI flag in an env table nor takes the env table for the command reference', () => {
    const doc = parseDoc('README.md', README).doc;
    const split = splitEnvSections(doc, (n) => n === 'QDRANT_URL');
    expect(split.sections).toHaveLength(1);
    expect(split.rest.blocks.flatMap((b) => b.tables)).toEqual([]);
  });

  it('reads a table of env names by content under a heading that does not say so, only when the code reads one of them', () => {
    const text = '# Setup\n\n| Variable | Meaning |\n|---|---|\n| `APP_PORT` | port |\n| `APP_HOST` | host |\n';
    const doc = parseDoc('README.md', text).doc;
    expect(splitEnvSections(doc, (n) => n === 'APP_PORT').sections).toHaveLength(1);
    // A table of error codes the code does not read as variables stays where it was.
    const codes = '# Errors\n\n| Code | Meaning |\n|---|---|\n| `E_NOT_FOUND` | gone |\n| `E_DENIED` | no |\n';
    expect(splitEnvSections(parseDoc('README.md', codes).doc, () => false).sections).toHaveLength(0);
  });

  it('compares a documented default with the code default', () => {
    const text = '## Environment variables\n\n| Name | Default |\n|---|---|\n| `APP_PORT` | `8000` |\n| `APP_HOST` | `0.0.0.0` |\n';
    const { messages } = run({
      docs: { 'README.md': text },
      env: { vars: [envVar('APP_PORT', 'app/config.py', 4, { default: lit('"8080"') }), envVar('APP_HOST', 'app/config.py', 5, { default: lit('"0.0.0.0"') })], dynamic: [] },
    });
    expect(messages.map((m) => [m.ruleId, m.data?.name ?? m.data?.param])).toEqual([['reference-default-mismatch', 'APP_PORT']]);
  });

  it('judges env vars set in examples: near misses and own-namespace names, not other programs\' variables', () => {
    const file = 'README.md';
    const block = { file, lang: 'sh', location: { file, line: 5, column: 1 } };
    const usage = (name: string, line: number): Usage => ({ file, command: ENVIRONMENT_COMMAND, invocation: line, raw: `${name}=1`, name, key: name, syntax: 'env', prefix: '', value: '1', location: { file, line, column: 1 }, block });
    const { messages } = run({
      docs: { [file]: README },
      env: code,
      envUsages: { [file]: [usage('QDRANT_URL', 6), usage('QDRANT_SEARCH_LIMT', 7), usage('QDRANT_TIMEOUT', 8), usage('CUDA_VISIBLE_DEVICES', 9), usage('HOME', 10)] },
    });
    const unknown = messages.filter((m) => m.ruleId === 'example-param-unknown').map((m) => [m.data?.name, m.data?.suggestion ?? null]);
    expect(unknown).toEqual([['QDRANT_SEARCH_LIMT', 'QDRANT_SEARCH_LIMIT'], ['QDRANT_TIMEOUT', null]]);
  });

  it('reads a .env.example as a reference whose values are samples, not defaults', () => {
    const rows: ReferenceRow[] = [
      { names: ['APP_PORT'], rawName: 'APP_PORT', default: '9999', links: [], location: { file: '.env.example', line: 2, column: 1 } },
    ];
    const { messages, model } = run({ docs: {}, env: { vars: [envVar('APP_PORT', 'app.py', 1, { default: lit('"8080"') }), envVar('APP_HOST', 'app.py', 2)], dynamic: [] }, envFiles: [{ file: '.env.example', rows }] });
    expect(model.sectionsFor(model.commandByName(ENVIRONMENT_COMMAND)!)[0]!.layout).toBe('env-file');
    expect(messages.map((m) => [m.ruleId, m.data?.name ?? m.data?.param, m.file])).toEqual([['reference-param-missing', 'APP_HOST', '.env.example']]);
  });

  it('does not call a documented variable unknown when the code mentions it or reads a computed name', () => {
    const text = '## Environment variables\n\n| Name |\n|---|\n| `APP_PORT` |\n| `APP_LEGACY` |\n| `APP_X_TOKEN` |\n';
    const vars = [envVar('APP_PORT', 'app.py', 1)];
    const mentioned = run({ docs: { 'README.md': text }, env: { vars, dynamic: [{ prefix: 'APP_X_', location: { file: 'app.py', line: 3, column: 1 }, construct: 'os.environ["APP_X_" + k]' }] }, envWords: ['APP_LEGACY'] });
    expect(mentioned.messages.filter((m) => m.ruleId === 'reference-param-unknown')).toEqual([]);
    const plain = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] } });
    expect(plain.messages.filter((m) => m.ruleId === 'reference-param-unknown').map((m) => m.data?.name)).toEqual(['APP_LEGACY', 'APP_X_TOKEN']);
  });

  it('says once when env vars are read but no env reference exists, and when documented vars cannot be checked', () => {
    const none = run({ docs: { 'README.md': '# tool\n\nNothing here.\n' }, env: code });
    expect(none.messages).toEqual([]);
    expect(none.notes.join('\n')).toMatch(/5 environment variables are read by the code .*no env reference was found/);
    const unread = run({ docs: { 'README.md': README }, env: { vars: [], dynamic: [] } });
    expect(unread.messages).toEqual([]);
    expect(unread.notes.join('\n')).toMatch(/environment variables are documented or set in examples \(README.md\) but docdrift found no variable of the project's own read by the code it reads \(.*such as `NO_COLOR` or `TERM`.*\), so they were not checked/);
  });

  it('classifies well-known variables, tooling files and name ownership', () => {
    expect(isWellKnownEnv('GITHUB_SHA')).toBe(true);
    expect(isWellKnownEnv('DJANGO_SETTINGS_MODULE')).toBe(true);
    expect(isWellKnownEnv('DJANGO_SECRET_KEY')).toBe(false);
    expect(isWellKnownEnv('QDRANT_URL')).toBe(false);
    expect(isToolingFile('tests/test_x.py')).toBe(true);
    expect(isToolingFile('packages/e2e_tests/setup/startContainers.ts')).toBe(true);
    expect(isToolingFile('integration-tests/run.py')).toBe(true);
    expect(isToolingFile('src/app/vite.config.ts')).toBe(true);
    expect(isToolingFile('src/settings.py')).toBe(false);
    const cmd = run({ docs: { 'README.md': README }, env: code }).model.commandByName(ENVIRONMENT_COMMAND)!;
    expect(envNameStatus('QDRANT_NEW', cmd, [], () => false)).toBe('own');
    expect(envNameStatus('OPENAI_API_KEY', cmd, [], () => false)).toBe('foreign');
    expect(envNameStatus('QDRANT_NEW', cmd, [], (n) => n === 'QDRANT_NEW')).toBe('excluded');
    expect(envNameStatus('CI', cmd, [], () => false)).toBe('excluded');
  });
});

describe('env config', () => {
  it('env.sections names headings that document env vars; env.check false turns it off', () => {
    const text = '## Settings\n\n| Name | Description |\n|---|---|\n| `APP_PORT` | port |\n| `APP_OLD` | gone |\n';
    const env: EnvExtraction = { vars: [envVar('APP_PORT', 'app.py', 1), envVar('APP_HOST', 'app.py', 2)], dynamic: [] };
    const build = (envConfig: { check: boolean; sections: string[] }) =>
      buildModel({ root: '/x', config: { ...defaultConfig(), env: envConfig }, classes: [], functionConfigs: new Map(), entryPoints: [], stringKeys: new Map(), docs: [parseDoc('README.md', text).doc], diagnostics: [], env });
    // By content alone: `WORD_WORD` names one of which the code reads.
    expect(build({ check: true, sections: [] }).sections.map((s) => s.commands)).toEqual([[ENVIRONMENT_COMMAND]]);
    const named = build({ check: true, sections: ['Settings'] });
    expect(named.sections[0]!.inferred?.evidence).toMatch(/heading/);
    const off = build({ check: false, sections: [] });
    expect(off.commandByName(ENVIRONMENT_COMMAND)).toBeUndefined();
    expect(off.sections.every((s) => !s.commands.includes(ENVIRONMENT_COMMAND))).toBe(true);
  });
});

describe('example env files', () => {
  it('an env file listing most variables must list each one documented elsewhere', () => {
    const row = (name: string, line: number): ReferenceRow => ({ names: [name], rawName: name, links: [], location: { file: '.env.example', line, column: 1 } });
    const text = '## Environment variables\n\n| Name |\n|---|\n| `APP_PORT` |\n| `APP_HOST` |\n| `APP_DB_URL` |\n';
    const vars = [envVar('APP_PORT', 'app.py', 1), envVar('APP_HOST', 'app.py', 2), envVar('APP_DB_URL', 'app.py', 3)];
    const { messages } = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] }, envFiles: [{ file: '.env.example', rows: [row('APP_PORT', 1), row('APP_HOST', 2)] }] });
    expect(messages.map((m) => [m.ruleId, m.messageId, m.data?.name, m.file])).toEqual([['reference-param-missing', 'missingEnvFile', 'APP_DB_URL', '.env.example']]);
    // One listing under half of them is a selection (the required ones, say): nothing to add.
    const short = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] }, envFiles: [{ file: '.env.example', rows: [row('APP_PORT', 1)] }] });
    expect(short.messages).toEqual([]);
  });
});

describe('real-shaped env references', () => {
  it('a list naming variables in prose under an env heading documents them; the one or two read and missing are reported', () => {
    // corepack's README: one bullet with no separator after the name; the code reads two others.
    const text = '# corepack\n\n## Environment Variables\n\n- `COREPACK_ROOT` has no functional impact on Corepack itself.\n';
    const vars = [envVar('COREPACK_HOME', 'sources/folderUtils.ts', 6), envVar('COREPACK_ENABLE_NETWORK', 'sources/httpUtils.ts', 6)];
    const { messages, model } = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] } });
    expect(model.sectionsFor(model.commandByName(ENVIRONMENT_COMMAND)!).map((s) => [s.mentionsOnly, s.rows.map((r) => r.names[0])])).toEqual([[true, ['COREPACK_ROOT']]]);
    expect(messages.map((m) => [m.ruleId, m.data?.name])).toEqual([['reference-param-missing', 'COREPACK_HOME'], ['reference-param-missing', 'COREPACK_ENABLE_NETWORK']]);
  });

  it('a flag row naming its variable in a parenthesis documents the variable', () => {
    const split = envColumnSection({
      file: 'README.md', heading: { depth: 3, text: 'CLI Options', codes: [], slug: 'cli-options', location: { file: 'README.md', line: 120, column: 1 } },
      commands: ['ts-node'], global: false, layout: 'list', endLine: 140,
      rows: [
        { names: ['no-cache'], rawName: '`--no-cache`', description: 'Disable the local TypeScript Node cache (`TS_NODE_CACHE`, default: `true`)', links: [], location: { file: 'README.md', line: 134, column: 1 } },
        { names: ['project'], rawName: '`--project`', description: 'Path to a tsconfig (see the docs)', links: [], location: { file: 'README.md', line: 135, column: 1 } },
      ],
    });
    expect(split?.rows.map((r) => r.names)).toEqual([['TS_NODE_CACHE']]);
  });

  it('a computed read with no literal start does not stop a documented variable being called unknown; one with a start does', () => {
    const text = '## Environment variables\n\n| Name |\n|---|\n| `APP_PORT` |\n| `APP_GONE` |\n';
    const vars = [envVar('APP_PORT', 'app.ts', 1)];
    const at = { file: 'src/settings.ts', line: 136, column: 1 };
    expect(run({ docs: { 'README.md': text }, env: { vars, dynamic: [{ prefix: '', location: at, construct: 'process.env[varName]' }] } }).messages.map((m) => m.data?.name)).toEqual(['APP_GONE']);
    expect(run({ docs: { 'README.md': text }, env: { vars, dynamic: [{ prefix: 'APP_', location: at, construct: 'process.env[`APP_${k}`]' }] } }).messages).toEqual([]);
  });

  it('an env file in a workspace package lists only the variables its package reads', () => {
    const row = (name: string, line: number): ReferenceRow => ({ names: [name], rawName: name, links: [], location: { file: 'apps/web/.env.example', line, column: 1 } });
    const vars = [envVar('WEB_API_URL', 'apps/web/src/env.ts', 3), envVar('WEB_TOKEN', 'apps/web/src/env.ts', 4), envVar('MARKETING_DSN', 'apps/marketing/src/env.ts', 3)];
    const { messages } = run({ docs: {}, env: { vars, dynamic: [] }, envFiles: [{ file: 'apps/web/.env.example', rows: [row('WEB_API_URL', 1)] }] });
    expect(messages.map((m) => m.data?.name)).toEqual(['WEB_TOKEN']);
  });
});

describe('env rows as real pages write them', () => {
  it('a list item naming two variables documents both; "Required for email" beside a default is no "required"', () => {
    const text = '## Environment variables\n\n- `APP_USER` and `APP_PASSWORD` to set a Basic authentication.\n- `APP_PORT`: the port.\n\n## Email\n\n| Variables | Default | Description |\n|---|---|---|\n| APP_SMTP_PORT | 587 | Required For email |\n';
    const vars = [envVar('APP_USER', 'a.ts', 1), envVar('APP_PASSWORD', 'a.ts', 2), envVar('APP_PORT', 'a.ts', 3), envVar('APP_SMTP_PORT', 'a.py', 4, { default: lit('"587"') })];
    const { messages } = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] } });
    expect(messages.map((m) => [m.ruleId, m.data?.name])).toEqual([]);
  });
});

describe('env cascades', () => {
  it('variables a framework derives from flags (prefix + flag name) are not called unknown', () => {
    const text = '## Environment variables\n\n| Name |\n|---|\n| `AIDER_MODEL` |\n| `AIDER_DARK_MODE` |\n| `AIDER_HOME_DIR` |\n';
    const cmd = run({ docs: {}, env: { vars: [envVar('AIDER_HOME_DIR', 'aider/main.py', 1)], dynamic: [] } }).model.commandByName(ENVIRONMENT_COMMAND)!;
    const flags = new Set(['model', 'darkmode']);
    expect(envNameStatus('AIDER_DARK_MODE', cmd, [], () => false, (f) => flags.has(f))).toBe('excluded');
    expect(envNameStatus('AIDER_MODEL', cmd, [], () => false, (f) => flags.has(f))).toBe('excluded');
    expect(envNameStatus('AIDER_GONE', cmd, [], () => false, (f) => flags.has(f))).toBe('own');
    void text;
  });

  it('a section whose documented variables mostly match nothing read is one summary, not a finding per row', () => {
    const rows = ['APP_A', 'APP_B', 'APP_C', 'APP_D', 'APP_E'].map((n) => `| \`${n}\` |`).join('\n');
    const text = `## Environment variables\n\n| Name |\n|---|\n| \`APP_PORT\` |\n${rows}\n`;
    const { messages } = run({ docs: { 'README.md': text }, env: { vars: [envVar('APP_PORT', 'app.py', 1)], dynamic: [] } });
    expect(messages.map((m) => [m.ruleId, m.messageId])).toEqual([['reference-param-unknown', 'partlyRead']]);
  });
});

describe('variables the project supplies itself (EnvExtraction.internal)', () => {
  it('are known (hidden), never demanded; the others still are', () => {
    const at = { file: 'app/settings.py', line: 3, column: 5 };
    const spec = (name: string) => ({ name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'env-var' as const, owner: 'app.settings', location: at, envSource: 'read' as const });
    const cmd = environmentCommand({ vars: [spec('APP_SECRET'), spec('APP_URL')], dynamic: [], internal: [{ name: 'APP_SECRET', location: at, reason: 'written by the code' }] });
    expect(cmd!.params.find((p) => p.name === 'APP_SECRET')!.hidden).toBe(true);
    expect(cmd!.params.find((p) => p.name === 'APP_URL')!.hidden).toBe(false);
    // Only internal ones: no variable a user sets, no command.
    expect(environmentCommand({ vars: [spec('APP_SECRET')], dynamic: [], internal: [{ name: 'APP_SECRET', location: at, reason: 'set by the container image' }] })).toBeUndefined();
  });

  it('a write in a test, fixture or example (or an example\'s image) supplies nothing to users', () => {
    const at = { file: 'app/settings.py', line: 3, column: 5 };
    const spec = (name: string) => ({ name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'env-var' as const, owner: 'app.settings', location: at, envSource: 'read' as const });
    const cmd = environmentCommand({
      vars: [spec('APP_TOKEN'), spec('APP_MODE'), spec('APP_URL')],
      dynamic: [],
      internal: [
        { name: 'APP_TOKEN', location: { file: 'tests/conftest.py', line: 4, column: 16 }, reason: 'written by the code (tests/conftest.py:4)' },
        { name: 'APP_MODE', location: { file: 'examples/docker/Dockerfile', line: 2, column: 5 }, reason: 'set by the container image' },
        { name: 'APP_URL', location: { file: 'docker/Dockerfile', line: 2, column: 5 }, reason: 'set by the container image' },
      ],
    });
    expect(cmd!.params.map((p) => [p.name, p.hidden])).toEqual([['APP_TOKEN', false], ['APP_MODE', false], ['APP_URL', true]]);
  });

  it('a supplied variable, hidden, still marks the project\'s namespace: a documented sibling read nowhere is reported', () => {
    const env: EnvExtraction = {
      vars: [envVar('CLI_VERSION', 'src/version.ts', 3), envVar('GEMINI_API_KEY', 'src/auth.ts', 5)],
      dynamic: [],
      internal: [{ name: 'CLI_VERSION', location: { file: 'Dockerfile', line: 6, column: 5 }, reason: 'set by the container image' }],
    };
    const docs = { 'README.md': '# gemini\n\n## Environment variables\n\n- **`GEMINI_API_KEY`**: the key.\n- **`CLI_TITLE`**: a custom title.\n' };
    const stale = (p: Project) => run(p).messages.filter((m) => m.ruleId === 'reference-param-unknown').map((m) => m.data?.['name']);
    expect(stale({ docs, env })).toEqual(['CLI_TITLE']);
    // Without the supplied variable, CLI_ is no namespace of the code: CLI_TITLE may be another program's.
    expect(stale({ docs, env: { vars: [env.vars[1]!], dynamic: [] } })).toEqual([]);
  });
});

describe('environment variables named in prose (example-param-unknown, unknownEnvInProse)', () => {
  const env: EnvExtraction = { vars: [envVar('QUAMASH_QTIMPL', 'quamash/__init__.py', 24), envVar('QUAMASH_DEBUG', 'quamash/__init__.py', 30)], dynamic: [] };
  const proseFindings = (text: string, extra: Partial<Project> = {}) =>
    run({ docs: { 'README.md': text }, env, ...extra }).messages.filter((m) => m.messageId?.startsWith('unknownEnvInProse'));

  it('reports a misspelt variable a sentence names as an environment variable, with the read one as did-you-mean', () => {
    const found = proseFindings('# quamash\n\n## Changes\n\n* Force which Qt implementation to use with the `QUQMASH_QTIMPL` environment variable.\n');
    expect(found.map((m) => [m.messageId, m.line, m.column, m.suggestion])).toEqual([['unknownEnvInProseWithSuggestion', 5, 49, 'QUAMASH_QTIMPL']]);
    expect(found[0]!.reason).toBe('Environment variable `QUQMASH_QTIMPL` is named in prose, but the code never reads it. Did you mean `QUAMASH_QTIMPL`?');
  });

  it('reads `$NAME`, the env words before the name, and the project namespace without a did-you-mean', () => {
    const found = proseFindings('# quamash\n\nSet the environment variable `$QUAMASH_TRACE_ALL_EVENTS` to trace. Use `QUAMASH_QTIMPL` to pick Qt.\n\nWith the `QUAMASH_TRACE_ALL_EVENTS` env var set, every event is logged.\n');
    expect(found.map((m) => [m.messageId, m.data?.name])).toEqual([['unknownEnvInProse', 'QUAMASH_TRACE_ALL_EVENTS']]);
  });

  it('says nothing of read, well-known, foreign or unrelated names, nor of a name the sentence does not call a variable', () => {
    expect(proseFindings([
      '# quamash',
      '',
      'The `QUAMASH_QTIMPL` environment variable picks the Qt binding; `HOME` and the `CUDA_VISIBLE_DEVICES` environment variable are not ours.',
      '',
      'The constant `MAX_RETRY_COUNT` sets retries.',
      '',
    ].join('\n'))).toEqual([]);
  });

  it('leaves a name an env row of the same page documents to the row finding', () => {
    const page = '# quamash\n\n## Environment variables\n\n| Name | Description |\n|---|---|\n| `QUAMASH_QTIMPL` | Qt binding |\n| `QUAMASH_TRACE` | Trace events |\n\nSet the `QUAMASH_TRACE` environment variable to trace.\n';
    const { messages } = run({ docs: { 'README.md': page }, env });
    expect(messages.filter((m) => m.messageId?.startsWith('unknownEnvInProse'))).toEqual([]);
    expect(messages.some((m) => m.ruleId === 'reference-param-unknown' && m.data?.name === 'QUAMASH_TRACE')).toBe(true);
  });
});

describe('env references found by content in headings and lists (a page of options that does not say "environment")', () => {
  const env: EnvExtraction = {
    vars: ['LD_DB_HOST', 'LD_DB_PORT', 'LD_CONTEXT_PATH', 'LD_PREVIEW_MAX_SIZE', 'OIDC_RP_CLIENT_ID', 'OIDC_RP_SCOPES'].map((n, i) =>
      envVar(n, 'bookmarks/settings/base.py', 10 + i, n === 'OIDC_RP_SCOPES' ? { default: lit('"openid email profile"') } : {})),
    dynamic: [],
  };
  const page = [
    '# Options',
    '',
    '## List of options',
    '',
    '### `LD_DB_HOST`',
    '',
    'Values: `String` | Default = `localhost`',
    '',
    '### `LD_DB_PORT`',
    '',
    'The port.',
    '',
    '### `LD_CONTEXT_PATH`',
    '',
    'A path prefix.',
    '',
    '### `LD_OLD_CACHE_DIR`',
    '',
    'Removed long ago.',
    '',
    '### `LD_ENABLE_OIDC`',
    '',
    'Enables OIDC. Configure:',
    '',
    '- `OIDC_RP_CLIENT_ID` - The client ID.',
    '- `OIDC_RP_SCOPES` - Scopes asked for. Default is `oidc email profile`.',
    '',
  ].join('\n');

  it('takes per-variable headings and bullet lists of read variables as the env reference: missing, stale, default drift', () => {
    const { messages } = run({ docs: { 'docs/options.md': page }, env });
    const found = messages.map((m) => `${m.ruleId}:${m.messageId}:${m.data?.name ?? ''}`).sort();
    expect(found).toContain('reference-param-missing:missingEnv:LD_PREVIEW_MAX_SIZE');
    expect(found).toContain('reference-param-unknown:staleEnv:LD_OLD_CACHE_DIR');
    // A default written as one code span is a value, spaces and all (`oidc email profile` vs "openid email profile").
    expect(found).toContain('reference-default-mismatch:mismatch:OIDC_RP_SCOPES');
    expect(found.filter((f) => /LD_DB_HOST|LD_DB_PORT|LD_CONTEXT_PATH|OIDC_RP_CLIENT_ID/.test(f))).toEqual([]);
  });

  it('not a list of constants: upper-case names the code does not read as variables', () => {
    const constants = '# API\n\n## Error codes\n\n- `ERR_NOT_FOUND` - not found\n- `ERR_TIMEOUT` - timed out\n- `ERR_DENIED` - denied\n';
    const { model, messages } = run({ docs: { 'docs/api.md': constants }, env });
    expect(model.sections.filter((s) => s.commands.includes(ENVIRONMENT_COMMAND))).toEqual([]);
    expect(messages.filter((m) => m.ruleId === 'reference-param-unknown')).toEqual([]);
  });
});

describe('linkding-shaped option pages (issue #31)', () => {
  const env: EnvExtraction = {
    vars: [
      envVar('LD_ENABLE_OIDC', 'bookmarks/settings/base.py', 203),
      envVar('OIDC_RP_CLIENT_ID', 'bookmarks/settings/base.py', 215),
      envVar('OIDC_RP_CLIENT_SECRET', 'bookmarks/settings/base.py', 216),
      envVar('LD_CONTEXT_PATH', 'bookmarks/settings/base.py', 110, { default: lit('""') }),
      envVar('LD_SINGLEFILE_TIMEOUT_SEC', 'bookmarks/settings/base.py', 340, { default: lit('120'), type: 'float' }),
    ],
    dynamic: [],
  };
  const page = [
    '# Options',
    '',
    '## List of options',
    '',
    '### `LD_CONTEXT_PATH`',
    '',
    'Values: `String` | Default = None',
    '',
    '### `LD_SINGLEFILE_TIMEOUT_SEC`',
    '',
    'Values: `Float` | Default =  60.0',
    '',
    '### `LD_ENABLE_OIDC`',
    '',
    'Enables OIDC. Configure:',
    '',
    '- `OIDC_RP_CLIENT_ID` - The client ID.',
    '- `OIDC_RP_CLIENT_SECRET` - The client secret.',
    '',
  ].join('\n');

  it('documents the variable a section heading names over its list; "None" is the empty-string default; a wrong number is drift', () => {
    const { messages } = run({ docs: { 'docs/options.md': page }, env });
    expect(messages.map((m) => `${m.ruleId}:${m.data?.name ?? ''}:${m.data?.documented ?? ''}`)).toEqual(['reference-default-mismatch:LD_SINGLEFILE_TIMEOUT_SEC:60.0']);
  });
});

describe('env namespaces and headings as real projects write them (issue #31, session 19)', () => {
  it('a literal env prefix joined with a key the code names makes the variable mentioned (opal Confi(prefix="OPAL_"))', () => {
    const words = new Set<string>();
    collectEnvWords('confi = Confi(prefix="OPAL_")\nBUNDLE_IGNORE = confi.list(\n    "BUNDLE_IGNORE", [])\n', words);
    collectEnvWords("const env = cleanEnv(process.env, { envPrefix: 'VITE_' });", words);
    expect([...words].sort()).toEqual(['BUNDLE_IGNORE', 'OPAL_', 'VITE_']);
    const prefixes = [...words].filter((w) => w.endsWith('_'));
    expect(mentionedEnvName('OPAL_BUNDLE_IGNORE', words, prefixes)).toBe(true);
    expect(mentionedEnvName('OPAL_POLICY_REPO_URL', words, prefixes)).toBe(false);
    // A prefix alone is no variable.
    expect(mentionedEnvName('OPAL_', words, prefixes)).toBe(false);
    // A literal ending in `_` that no `prefix` names is not a prefix.
    const plain = new Set<string>();
    collectEnvWords('SEP = "APP_"\n', plain);
    expect([...plain]).toEqual([]);
  });

  it('a singular "environment variable" how-to heading is no list of variables; plural and other env headings are', () => {
    expect(isEnvListHeading('Default connectivity via environment variable')).toBe(false);
    expect(isEnvListHeading('2) Declaring the broadcast uri environment variable')).toBe(false);
    expect(isEnvListHeading('Environment variables')).toBe(true);
    expect(isEnvListHeading('Client Environment Variables')).toBe(true);
    expect(isEnvListHeading('Environment')).toBe(true);
    expect(isEnvListHeading('`.env` file')).toBe(true);
    expect(isEnvListHeading('Installation')).toBe(false);
  });

  it('names private by convention: a double underscore after the first word, or a leading underscore; nested settings names are not', () => {
    expect(isPrivateEnvName('PIPX__DOC_DEFAULT_PYTHON')).toBe(true);
    expect(isPrivateEnvName('_PIPX_COMPLETE')).toBe(true);
    expect(isPrivateEnvName('PIPX_HOME')).toBe(false);
    expect(isPrivateEnvName('APP_DB__HOST')).toBe(false);
  });

  it('a private name read by a bare access is undemanded; one a settings class derives is still owed a row', () => {
    const text = '## Environment variables\n\n| Name |\n|---|\n| `PIPX_HOME` |\n';
    const env: EnvExtraction = {
      vars: [envVar('PIPX_HOME', 'src/pipx/paths.py', 3), envVar('PIPX__DOC_DEFAULT_PYTHON', 'src/pipx/main.py', 126), envVar('APP__NESTED', 'src/pipx/settings.py', 9, { envSource: 'settings' })],
      dynamic: [],
    };
    const { messages } = run({ docs: { 'README.md': text }, env });
    expect(messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name)).toEqual(['APP__NESTED']);
  });

  it('sibling packages the project depends on give env namespaces; local, one-word and other projects\' packages do not', () => {
    const deps = readDependencies([
      { file: 'pyproject.toml', text: '[project]\nname = "mineru"\ndependencies = ["mineru-vl-utils>=1.0.5,<2", "requests", "mineru-common"]\n[project.optional-dependencies]\nvllm = ["vllm>=0.10"]\n' },
      { file: 'packages/core/pyproject.toml', text: '[project]\nname = "mineru-core-engine"\n' },
      { file: 'web/package.json', text: '{"name":"@mineru/web","dependencies":{"@mineru/sdk-extra":"1.0.0","mineru-core-engine":"*"},"devDependencies":{"mineru-test-kit":"1"}}' },
      { file: 'broken/pyproject.toml', text: '[project\n' },
    ]);
    expect(deps.dependencies).toEqual(['@mineru/sdk-extra', 'mineru-common', 'mineru-core-engine', 'mineru-vl-utils', 'requests', 'vllm']);
    expect(deps.local).toEqual(['@mineru/web', 'mineru', 'mineru-core-engine']);
    // `mineru-common` is one word once its kind word is dropped (the whole project's namespace);
    // `mineru-core-engine` is held in the repository; `vllm` is not the project's.
    expect(dependencyEnvPrefixes(deps, new Set(['MINERU']))).toEqual(['MINERU_SDK_EXTRA_', 'MINERU_VL_']);
    expect(dependencyEnvPrefixes(deps, new Set(['OTHER']))).toEqual([]);
  });

  it('a documented variable in a sibling package\'s namespace is foreign, not stale', () => {
    const cmd = run({ docs: {}, env: { vars: [envVar('MINERU_MODEL_SOURCE', 'mineru/utils.py', 1)], dynamic: [] } }).model.commandByName(ENVIRONMENT_COMMAND)!;
    expect(envNameStatus('MINERU_VL_API_KEY', cmd, [], () => false, () => false, new Set(), new Set(['MINERU']), ['MINERU_VL_'])).toBe('foreign');
    expect(envNameStatus('MINERU_GONE_SETTING', cmd, [], () => false, () => false, new Set(), new Set(['MINERU']), ['MINERU_VL_'])).toBe('own');
  });

  it('an env table of other programs\' variables (a proxy tutorial) owes the project no row; one naming a project variable does', () => {
    const env: EnvExtraction = { vars: [envVar('OPAL_MASTER_TOKEN', 'opal/cli.py', 35), envVar('OPAL_OFFLINE', 'opal/cli.py', 36)], dynamic: [] };
    const proxy = '### Client Environment Variables\n\n| Variable | Description |\n|---|---|\n| `HTTP_PROXY` | Proxy |\n| `WS_PROXY` | WebSocket proxy |\n';
    expect(run({ docs: { 'docs/proxy.md': proxy }, env }).messages.filter((m) => m.ruleId === 'reference-param-missing')).toEqual([]);
    const own = `${proxy}| \`OPAL_OFFLINE\` | Start offline |\n`;
    expect(run({ docs: { 'docs/proxy.md': own }, env }).messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name)).toEqual(['OPAL_MASTER_TOKEN']);
  });
});

describe('a former name the env reference gives (paperless-ngx PAPERLESS_TRASH_DIR)', () => {
  const env: EnvExtraction = {
    vars: [envVar('PAPERLESS_EMPTY_TRASH_DIR', 'src/settings.py', 81), envVar('PAPERLESS_TRASH_DIR', 'src/settings.py', 82), envVar('PAPERLESS_MEDIA_ROOT', 'src/settings.py', 90)],
    dynamic: [],
  };
  const page = (note: string) =>
    `# Configuration\n\n## Paths\n\n#### [\`PAPERLESS_EMPTY_TRASH_DIR=<path>\`](#trash) {#trash}\n\n: Where deleted files go.\n\n    ${note}\n\n#### [\`PAPERLESS_MEDIA_ROOT=<path>\`](#media) {#media}\n\n: Where documents are kept.\n`;
  const missing = (note: string) => run({ docs: { 'docs/configuration.md': page(note) }, env }).messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name);

  it('is explained there: no row is owed', () => {
    expect(missing('This setting was previously named PAPERLESS_TRASH_DIR.')).toEqual([]);
    expect(missing('Renamed from `PAPERLESS_TRASH_DIR` in 2.0.')).toEqual([]);
  });

  it('a variable the page names otherwise is still owed its row', () => {
    expect(missing('Use it with PAPERLESS_TRASH_DIR set too.')).toEqual(['PAPERLESS_TRASH_DIR']);
  });
});

describe('a variable read only to warn that it is obsolete (paperless-ngx PAPERLESS_OCR_SKIP_ARCHIVE_FILE)', () => {
  it('is found in messages of Python and TypeScript sources', () => {
    const py = 'if os.environ.get("PAPERLESS_OCR_SKIP_ARCHIVE_FILE"):\n    warnings.append(Warning(\n        "PAPERLESS_OCR_SKIP_ARCHIVE_FILE is set but has no effect. "\n    ))\n';
    expect(obsoleteEnvNames(py)).toEqual(['PAPERLESS_OCR_SKIP_ARCHIVE_FILE']);
    expect(obsoleteEnvNames("if (process.env.APP_OLD) console.warn(`APP_OLD is deprecated, use APP_NEW`);")).toEqual(['APP_OLD']);
    // A message about another thing, or a name outside a string, is not one.
    expect(obsoleteEnvNames('x = os.getenv("APP_MODE")  # the old mode has no effect\nlog("APP_MODE set to", mode)\n')).toEqual([]);
  });

  it('is deprecated: no reference owes it a row', () => {
    const text = '## Environment variables\n\n| Name |\n|---|\n| `PAPERLESS_DATA_DIR` |\n';
    const vars = [envVar('PAPERLESS_DATA_DIR', 'src/settings.py', 1), envVar('PAPERLESS_OCR_SKIP_ARCHIVE_FILE', 'src/checks.py', 317)];
    const missing = (obsolete?: string[]) => run({ docs: { 'README.md': text }, env: { vars, dynamic: [], ...(obsolete ? { obsolete } : {}) } }).messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name);
    expect(missing()).toEqual(['PAPERLESS_OCR_SKIP_ARCHIVE_FILE']);
    expect(missing(['PAPERLESS_OCR_SKIP_ARCHIVE_FILE'])).toEqual([]);
  });
});

describe('computed names with a literal end (linkwarden `${opts.envPrefix}_CLIENT_ID`)', () => {
  it('a documented variable a computed read may produce from a head its file holds is not unknown; another is', () => {
    const cmd = run({ docs: {}, env: { vars: [envVar('OIDC_SCOPES', 'auth.ts', 9)], dynamic: [] } }).model.commandByName(ENVIRONMENT_COMMAND)!;
    const dynamic = [{ prefix: '', suffix: '_CLIENT_ID', heads: ['OIDC', 'SYNOLOGY'], location: { file: 'auth.ts', line: 2, column: 1 }, construct: 'process.env[`${opts.envPrefix}_CLIENT_ID`]' }];
    expect(envNameStatus('OIDC_CLIENT_ID', cmd, dynamic, () => false)).toBe('excluded');
    expect(envNameStatus('SYNOLOGY_CLIENT_ID', cmd, dynamic, () => false)).toBe('excluded');
    // `FORTYTWO` is no literal of the file: the code reads FORTY_TWO_CLIENT_ID, the docs drifted.
    expect(envNameStatus('OIDC_CLIENT_SECRET', cmd, dynamic, () => false)).toBe('own');
    expect(envNameStatus('FORTYTWO_CLIENT_ID', cmd, dynamic, () => false)).toBe('foreign');
  });
});

describe('env files of a monorepo\'s packages', () => {
  it('the root env file need not list a variable read in a package that has its own env file', () => {
    const row = (file: string, name: string, line: number): ReferenceRow => ({ names: [name], rawName: name, links: [], location: { file, line, column: 1 } });
    const vars = [envVar('APP_PORT', 'apps/web/app.ts', 1), envVar('APP_HOST', 'apps/web/app.ts', 2), envVar('APP_DB_URL', 'apps/web/app.ts', 3), envVar('EXPO_PUBLIC_SHOW_LOGS', 'apps/mobile/store/auth.ts', 339)];
    const text = '## Environment variables\n\n| Name |\n|---|\n| `EXPO_PUBLIC_SHOW_LOGS` |\n';
    const envFiles = [
      { file: '.env.sample', rows: [row('.env.sample', 'APP_PORT', 1), row('.env.sample', 'APP_HOST', 2), row('.env.sample', 'APP_DB_URL', 3)] },
      { file: 'apps/mobile/.env.sample', rows: [row('apps/mobile/.env.sample', 'EXPO_PUBLIC_SHOW_LOGS', 1)] },
    ];
    const { messages } = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] }, envFiles });
    expect(messages.filter((m) => m.messageId === 'missingEnvFile')).toEqual([]);
    // Without the package's own file, the root one owes it a line.
    const rootOnly = run({ docs: { 'README.md': text }, env: { vars, dynamic: [] }, envFiles: [envFiles[0]!] });
    expect(rootOnly.messages.filter((m) => m.messageId === 'missingEnvFile').map((m) => m.data?.name)).toEqual(['EXPO_PUBLIC_SHOW_LOGS']);
  });
});
