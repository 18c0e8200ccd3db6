/** Environment variables read by TypeScript/JavaScript code (issue #31): direct reads, env schemas, CLI flags' env fallbacks, and the engine's cached pass. */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFileEnv } from '../src/extract/typescript/env.js';
import { envSourceFiles, isGeneratedScript } from '../src/extract/typescript/env-filter.js';
import { flagEnvVars, mergeEnv } from '../src/extract/env-merge.js';
import { extractTypeScriptFlags } from '../src/extract/typescript/flags.js';
import type { EnvExtraction, ParamSpec } from '../src/model/types.js';

/** `name → [default text, type, required]` per read, in order. */
function reads(out: EnvExtraction): Array<[string, string | undefined, string | undefined, boolean]> {
  return out.vars.map((v) => [v.name, v.default?.text, v.type, v.required]);
}

describe('direct reads', () => {
  it('reads process.env in every spelling, with defaults from ?? and || through Number/parseInt, and the name token as location', () => {
    const text = [
      "import express from 'express';", // 1
      'const app = express();', // 2
      'const port = Number(process.env.PORT ?? 3000);', // 3
      "const host = process.env['HOST'] || '0.0.0.0';", // 4
      'const secret = process.env["SESSION_SECRET"];', // 5
      "const workers = parseInt(process.env.WEB_CONCURRENCY || '2', 10);", // 6
      'const debug = process.env?.DEBUG;', // 7
      "const level = process.env.LOG_LEVEL ?? process.env.LEVEL ?? 'info';", // 8
      'const timeout = Number(process.env.TIMEOUT_MS) || 5000;', // 9
      'if (process.env.NODE_ENV === "production") app.set("trust proxy", 1);', // 10
      'app.listen(port, host);',
    ].join('\n');
    const out = extractFileEnv('src/server.ts', text);
    expect(reads(out)).toEqual([
      ['PORT', '3000', 'number', false],
      ['HOST', "'0.0.0.0'", undefined, false],
      ['SESSION_SECRET', undefined, undefined, true],
      ['WEB_CONCURRENCY', "'2'", 'number', false],
      ['DEBUG', undefined, undefined, true],
      ['LOG_LEVEL', "'info'", undefined, false],
      ['LEVEL', "'info'", undefined, false],
      ['TIMEOUT_MS', '5000', 'number', false],
      ['NODE_ENV', undefined, undefined, true],
    ]);
    expect(out.vars.every((v) => v.origin === 'env-var' && v.envSource === 'read' && v.owner === 'src/server.ts')).toBe(true);
    expect(out.vars[0]!.default).toEqual({ kind: 'literal', text: '3000' });
    // The name token: `PORT` of line 3; `HOST` inside its quotes on line 4.
    expect(out.vars[0]!.location).toEqual({ file: 'src/server.ts', line: 3, column: 33, endLine: 3, endColumn: 37 });
    expect(out.vars[1]!.location).toMatchObject({ line: 4, column: 27, endColumn: 31 });
    expect(text.split('\n')[3]!.slice(26, 30)).toBe('HOST');
    expect(out.dynamic).toEqual([]);
  });

  it('reads destructuring (with defaults and renames), aliases of process.env, and constants used as keys', () => {
    const text = [
      "import { env as nodeEnv } from 'node:process';",
      "const { DATABASE_URL, REDIS_URL = 'redis://localhost:6379', API_KEY: apiKey, ...rest } = process.env;",
      'const env = process.env;',
      'const e = env;',
      'export const region = env.AWS_REGION;',
      'export const bucket = e.S3_BUCKET;',
      'export const mode = nodeEnv.APP_MODE;',
      "const { env: penv } = process;",
      "export const zone = penv.TZ ?? 'UTC';",
      "const TOKEN_VAR = 'GITHUB_TOKEN';",
      'export const token = process.env[TOKEN_VAR];',
      'export const all = { apiKey, rest };',
    ].join('\n');
    expect(reads(extractFileEnv('lib/config.js', text))).toEqual([
      ['DATABASE_URL', undefined, undefined, true],
      ['REDIS_URL', "'redis://localhost:6379'", undefined, false],
      ['API_KEY', undefined, undefined, true],
      ['AWS_REGION', undefined, undefined, true],
      ['S3_BUCKET', undefined, undefined, true],
      ['APP_MODE', undefined, undefined, true],
      ['TZ', "'UTC'", undefined, false],
      ['GITHUB_TOKEN', undefined, undefined, true],
    ]);
  });

  it('reads Vite, Deno and Bun spellings, and skips writes, deletes and methods of the object', () => {
    const text = [
      'export const api = import.meta.env.VITE_API_URL;',
      "export const title = import.meta.env.VITE_TITLE || 'My app';",
      "const denoPort = Deno.env.get('DENO_PORT') ?? '8000';",
      'const bunKey = Bun.env.BUN_KEY;',
      "process.env.GENERATED = 'yes';",
      'delete process.env.TEMP_SECRET;',
      "if (process.env.hasOwnProperty('CI')) console.log(denoPort, bunKey);",
      "process.env.FALLBACK ??= 'on';",
    ].join('\n');
    expect(reads(extractFileEnv('src/main.tsx', text))).toEqual([
      ['VITE_API_URL', undefined, undefined, true],
      ['VITE_TITLE', "'My app'", undefined, false],
      ['DENO_PORT', "'8000'", undefined, false],
      ['BUN_KEY', undefined, undefined, true],
      ['FALLBACK', "'on'", undefined, false],
    ]);
  });

  it('reports reads whose name is computed as dynamic, with the literal prefix', () => {
    const text = [
      'export function setting(name: string): string | undefined {',
      '  return process.env[name];',
      '}',
      'export const plugin = (id: string) => process.env[`PLUGIN_${id.toUpperCase()}_TOKEN`];',
      "export const feature = (f: string) => process.env['FEATURE_' + f];",
      "export const deno = (k: string) => Deno.env.get(k);",
    ].join('\n');
    const out = extractFileEnv('src/settings.ts', text);
    expect(out.vars).toEqual([]);
    expect(out.dynamic.map((d) => [d.prefix, d.construct, d.location.line])).toEqual([
      ['PLUGIN_', 'process.env[`PLUGIN_${id.toUpperCase()}_TOKEN`]', 4],
      ['FEATURE_', "process.env['FEATURE_' + f]", 5],
    ]);
    // Exported functions whose parameter is the name: helpers other files may call with a literal
    // (the engine keeps their reads dynamic when no call names the variable).
    expect(out.helpers?.map((h) => [h.exported, h.param, h.dynamic.prefix, h.dynamic.construct, h.dynamic.location.line])).toEqual([
      [['setting'], 0, '', 'process.env[name]', 2],
      [['deno'], 0, '', 'Deno.env.get(k)', 6],
    ]);
  });

  it('keeps the literal end of a computed name and the file\'s upper-case literals that may start it (linkwarden genericOidc)', () => {
    const text = [
      'const genericOidc = (opts: { envPrefix: string }) => ({',
      '  clientId: process.env[`${opts.envPrefix}_CLIENT_ID`],',
      "  secret: process.env[opts.envPrefix + '_CLIENT_SECRET'],",
      '  other: process.env[`${opts.envPrefix}${opts.tail}`],',
      '});',
      'export const providers = [genericOidc({ envPrefix: "OIDC" }), genericOidc({ envPrefix: \'SYNOLOGY\' })];',
    ].join('\n');
    const out = extractFileEnv('apps/web/lib/auth.ts', text);
    expect(out.dynamic.map((d) => [d.prefix, d.suffix, d.heads])).toEqual([
      ['', '_CLIENT_ID', ['OIDC', 'SYNOLOGY']],
      ['', '_CLIENT_SECRET', ['OIDC', 'SYNOLOGY']],
      ['', undefined, undefined],
    ]);
  });

  it('parses nothing in a file that never mentions the environment, and survives broken syntax', () => {
    expect(extractFileEnv('a.ts', 'export const x = 1;\n')).toEqual({ vars: [], dynamic: [] });
    const broken = extractFileEnv('b.js', 'const x = process.env.GOOD;\nfunction ( {{{ process.env.AFTER_ERROR');
    expect(broken.vars.map((v) => v.name)).toContain('GOOD');
  });
});

describe('writes: variables the code supplies itself (internal)', () => {
  it('takes process.env.X = v, process.env["X"] = v, aliases and Object.assign(process.env, {...}); not ??=, delete or computed keys', () => {
    const text = [
      "process.env.APP_MODE = 'cli';",
      "process.env['APP_HOME'] = '/opt/app';",
      'const env = process.env;',
      "env.APP_ALIAS = '1';",
      "Object.assign(process.env, { APP_A: '1', 'APP_B': '2', ...other });",
      "process.env.APP_DEFAULT ??= 'on';",
      'delete process.env.APP_GONE;',
      "process.env[`APP_${k}`] = 'x';",
    ].join('\n');
    const out = extractFileEnv('src/cli.ts', text);
    expect((out.internal ?? []).map((v) => [v.name, v.location.line, v.location.column, v.reason])).toEqual([
      ['APP_MODE', 1, 13, 'written by the code (src/cli.ts:1)'],
      ['APP_HOME', 2, 14, 'written by the code (src/cli.ts:2)'],
      ['APP_ALIAS', 4, 5, 'written by the code (src/cli.ts:4)'],
      ['APP_A', 5, 30, 'written by the code (src/cli.ts:5)'],
      ['APP_B', 5, 43, 'written by the code (src/cli.ts:5)'],
    ]);
    expect(out.vars.map((v) => v.name)).toEqual(['APP_DEFAULT']);
  });

  it('takes keys set to a constant in a copy of process.env for a child, not values passed on', () => {
    const text = [
      "spawn('x', [], { env: { ...process.env, APP_SPAWNED: '1', APP_PORT: port, APP_ON: true } });",
      "const env = Object.assign({}, process.env, { APP_CHILD: `1`, APP_ROOT: root });",
      "const plain = { APP_NOT_A_COPY: '1' };",
    ].join('\n');
    const out = extractFileEnv('src/spawn.ts', text);
    expect((out.internal ?? []).map((v) => [v.name, v.location.line])).toEqual([
      ['APP_SPAWNED', 1],
      ['APP_ON', 1],
      ['APP_CHILD', 2],
    ]);
  });
});

describe('env helpers', () => {
  it('reads the calls of a helper whose parameter is the name it reads, with the fallback argument as default', () => {
    const text = [
      'function getEnv(name: string, fallback?: string): string {',
      '  const value = process.env[name] ?? fallback;',
      '  if (value === undefined) throw new Error(`${name} is not set`);',
      '  return value;',
      '}',
      'const required = (key: string) => {',
      '  const v = process.env[key];',
      '  if (!v) throw new Error(key);',
      '  return v;',
      '};',
      "export const apiUrl = getEnv('API_URL', 'http://localhost:8080');",
      "export const token = required('API_TOKEN');",
      'export const odd = (k: string) => getEnv(k);',
    ].join('\n');
    const out = extractFileEnv('src/config.ts', text);
    expect(out.vars.map((v) => [v.name, v.default?.text, v.location.line, v.location.column])).toEqual([
      ['API_URL', "'http://localhost:8080'", 11, 31],
      ['API_TOKEN', undefined, 12, 32],
    ]);
    // `getEnv` is also called with a computed name: its read stays dynamic; `required` is not.
    expect(out.dynamic.map((d) => d.construct)).toEqual(['process.env[name]']);
    expect(out.helpers).toBeUndefined();
  });

  it('keeps exported helpers and calls of imported functions for the engine', () => {
    const helper = extractFileEnv('src/utils/env.js', 'export default (name, defaultValue) => (name in process.env ? process.env[name] === "true" : defaultValue);\n');
    expect(helper.vars).toEqual([]);
    expect(helper.dynamic).toEqual([]);
    expect(helper.helpers?.map((h) => [h.exported, h.param, h.defaultParam])).toEqual([[['default'], 0, 1]]);
    const caller = extractFileEnv('src/config.js', "import getEnvBoolean from './utils/env.js';\nconst { log } = require('./log');\nexport const colour = getEnvBoolean('LOG_COLOUR', true);\nlog('NOT_A_HELPER');\n");
    expect(caller.calls?.map((c) => [c.specifier, c.imported, c.args.map((a) => a.name)])).toEqual([
      ['./utils/env.js', 'default', ['LOG_COLOUR', undefined]],
      ['./log', 'log', ['NOT_A_HELPER']],
    ]);
    expect(caller.calls?.[0]?.args[1]).toEqual({ default: { kind: 'literal', text: 'true' } });
    expect(caller.calls?.[0]?.args[0]).toMatchObject({ name: 'LOG_COLOUR', location: { file: 'src/config.js', line: 3, column: 38 } });
  });
});

describe('env schemas', () => {
  it('reads a t3-env createEnv: server, client and shared groups, zod types, defaults, optional and describe', () => {
    const text = [
      "import { createEnv } from '@t3-oss/env-nextjs';",
      "import { z } from 'zod';",
      '',
      'export const env = createEnv({',
      '  server: {',
      '    DATABASE_URL: z.string().url(),',
      "    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),",
      '    PORT: z.coerce.number().default(3000),',
      '    SENTRY_DSN: z.string().optional(),',
      "    AUTH_SECRET: z.string().min(32).describe('Secret used to sign session cookies'),",
      '  },',
      '  client: {',
      '    NEXT_PUBLIC_APP_URL: z.string().url(),',
      '  },',
      '  shared: { VERCEL_URL: z.string().nullish() },',
      '  runtimeEnv: {',
      '    DATABASE_URL: process.env.DATABASE_URL,',
      '    NEXT_PUBLIC_APP_URL: process.env.NEXT_PUBLIC_APP_URL,',
      '  },',
      '});',
    ].join('\n');
    const out = extractFileEnv('src/env.mjs', text);
    const schema = out.vars.filter((v) => v.envSource === 'schema');
    expect(schema.map((v) => [v.name, v.type, v.default?.text, v.required, v.description])).toEqual([
      ['DATABASE_URL', 'string', undefined, true, undefined],
      ['NODE_ENV', "'development' | 'test' | 'production'", "'development'", false, undefined],
      ['PORT', 'number', '3000', false, undefined],
      ['SENTRY_DSN', 'string', undefined, false, undefined],
      ['AUTH_SECRET', 'string', undefined, true, 'Secret used to sign session cookies'],
      ['NEXT_PUBLIC_APP_URL', 'string', undefined, true, undefined],
      ['VERCEL_URL', 'string', undefined, false, undefined],
    ]);
    expect(schema[1]!.choices).toEqual(['development', 'test', 'production']);
    expect(schema[0]!.location).toMatchObject({ file: 'src/env.mjs', line: 6, column: 5 });
    // The runtimeEnv reads are reads as well.
    expect(out.vars.filter((v) => v.envSource === 'read').map((v) => v.name)).toEqual(['DATABASE_URL', 'NEXT_PUBLIC_APP_URL']);
  });

  it('zod 4 .prefault() and .catch() are defaults; a schema made by a project function is opaque, never required (karakeep)', () => {
    const text = [
      "import { z } from 'zod';",
      'const stringBool = (defaultValue: string) => z.string().prefault(defaultValue).transform((s) => s === "true");',
      'const allEnv = z.object({',
      "  WORKERS_HOST: z.string().prefault('127.0.0.1'),",
      '  CRAWLER_YTDLP_ARGS: z.string().prefault("").transform((s) => s.split(",")),',
      '  CRAWLER_TIMEOUT: z.coerce.number().catch(60),',
      '  SEMANTIC_SEARCH_ENABLED: stringBool("true"),',
      '  OCR_USE_LLM: stringBool("false").optional(),',
      '  REDIS_URL: z.string(),',
      '});',
      'export const serverConfig = allEnv.parse(process.env);',
    ].join('\n');
    const schema = extractFileEnv('packages/shared/config.ts', text).vars.filter((v) => v.envSource === 'schema');
    expect(schema.map((v) => [v.name, v.default?.text, v.required])).toEqual([
      ['WORKERS_HOST', "'127.0.0.1'", false],
      // The input default, transformed: documented as the output (`[]`), so not the value.
      ['CRAWLER_YTDLP_ARGS', undefined, false],
      ['CRAWLER_TIMEOUT', '60', false],
      ['SEMANTIC_SEARCH_ENABLED', undefined, false],
      ['OCR_USE_LLM', undefined, false],
      ['REDIS_URL', undefined, true],
    ]);
  });

  it('follows createEnv groups kept in file constants', () => {
    const text = [
      "import { createEnv } from '@t3-oss/env-core';",
      "import { z } from 'zod';",
      "const server = { OPENAI_API_KEY: z.string(), MODEL: z.string().default('gpt-4o') };",
      'export const env = createEnv({ server, runtimeEnv: process.env });',
    ].join('\n');
    expect(extractFileEnv('env.ts', text).vars.map((v) => [v.name, v.default?.text])).toEqual([
      ['OPENAI_API_KEY', undefined],
      ['MODEL', "'gpt-4o'"],
    ]);
  });

  it('reads envalid cleanEnv specs: validator type, default, desc, choices', () => {
    const text = [
      "const { cleanEnv, str, port, bool, url } = require('envalid');",
      'module.exports = cleanEnv(process.env, {',
      "  NODE_ENV: str({ choices: ['development', 'test', 'production'], default: 'production' }),",
      "  PORT: port({ default: 8080, desc: 'The port the server listens on' }),",
      '  API_URL: url(),',
      "  ENABLE_CACHE: bool({ default: false, devDefault: true }),",
      '  OPTIONAL_KEY: str({ default: undefined }),',
      '});',
    ].join('\n');
    const out = extractFileEnv('config/env.js', text);
    expect(out.vars.map((v) => [v.name, v.type, v.default?.text, v.required, v.description, v.envSource])).toEqual([
      ['NODE_ENV', 'string', "'production'", false, undefined, 'schema'],
      ['PORT', 'number', '8080', false, 'The port the server listens on', 'schema'],
      ['API_URL', 'string', undefined, true, undefined, 'schema'],
      ['ENABLE_CACHE', 'boolean', 'false', false, undefined, 'schema'],
      ['OPTIONAL_KEY', 'string', 'undefined', false, undefined, 'schema'],
    ]);
    expect(out.vars[0]!.choices).toEqual(['development', 'test', 'production']);
  });

  it('reads a zod object schema parsed from process.env, through a constant and .extend()', () => {
    const text = [
      "import { z } from 'zod';",
      'const base = z.object({',
      '  DATABASE_URL: z.string().url(),',
      "  LOG_LEVEL: z.enum(['debug', 'info']).default('info'),",
      '});',
      'const schema = base.extend({ PORT: z.coerce.number().default(8080) }).strict();',
      'export const env = schema.parse(process.env);',
      'export const other = z.object({ SENTRY_DSN: z.string().optional() }).safeParse(process.env);',
      'export const notEnv = z.object({ NOT_AN_ENV: z.string() }).parse(JSON.parse("{}"));',
    ].join('\n');
    expect(extractFileEnv('src/env.ts', text).vars.map((v) => [v.name, v.type, v.default?.text, v.required])).toEqual([
      ['DATABASE_URL', 'string', undefined, true],
      ['LOG_LEVEL', "'debug' | 'info'", "'info'", false],
      ['PORT', 'number', '8080', false],
      ['SENTRY_DSN', 'string', undefined, false],
    ]);
  });
});

describe('CLI flags tied to env vars', () => {
  it('commander Option.env(), oclif env:, yargs .env(prefix) give the flags envVars, and flagEnvVars turns them into env-var specs', async () => {
    const commander = [
      "import { Command, Option } from 'commander';",
      'const program = new Command();',
      "program.addOption(new Option('-p, --port <number>', 'port to listen on').default(80).env('PORT'));",
      "program.addOption(new Option('--no-colour', 'no colours').env('NO_COLOUR'));",
      "program.option('--plain', 'no env');",
      'program.parse();',
    ].join('\n');
    const yargs = [
      "import yargs from 'yargs';",
      "import { hideBin } from 'yargs/helpers';",
      'yargs(hideBin(process.argv))',
      "  .env('MY_TOOL')",
      "  .option('log-level', { type: 'string', default: 'info' })",
      "  .option('dryRun', { type: 'boolean' })",
      "  .command('serve [dir]', 'serve', (y) => y.option('port', { type: 'number' }))",
      '  .parse();',
    ].join('\n');
    const bare = ["import yargs from 'yargs';", "yargs(process.argv.slice(2)).env().option('cache-dir', { type: 'string' }).parse();"].join('\n');
    const off = ["import yargs from 'yargs';", "yargs(process.argv.slice(2)).env('X').env(false).option('quiet', { type: 'boolean' }).parse();"].join('\n');
    const result = await extractTypeScriptFlags([
      { file: 'src/commander.ts', text: commander },
      { file: 'src/yargs.ts', text: yargs },
      { file: 'src/bare.ts', text: bare },
      { file: 'src/off.ts', text: off },
    ]);
    const envOf = (file: string, sub = '') =>
      Object.fromEntries((result.commands.find((c) => c.file === file && c.path.join(' ') === sub)?.params ?? []).map((p: ParamSpec) => [p.name, p.envVars]));
    expect(envOf('src/commander.ts')).toEqual({ port: ['PORT'], colour: ['NO_COLOUR'], plain: undefined });
    expect(envOf('src/yargs.ts')).toEqual({ 'log-level': ['MY_TOOL_LOG_LEVEL'], dryRun: ['MY_TOOL_DRY_RUN'] });
    // yargs keeps the prefix for sub-commands; positionals get none.
    expect(envOf('src/yargs.ts', 'serve')).toEqual({ dir: undefined, port: ['MY_TOOL_PORT'] });
    expect(envOf('src/bare.ts')).toEqual({ 'cache-dir': ['CACHE_DIR'] });
    expect(envOf('src/off.ts')).toEqual({ quiet: undefined });

    const commands = result.commands.filter((c) => c.file === 'src/commander.ts').map((c) => ({ ...c, target: 'bin:tool' }));
    expect(flagEnvVars(commands).map((v) => [v.name, v.dest, v.owner, v.default?.text, v.description, v.envSource, v.origin, v.required])).toEqual([
      ['PORT', 'port', 'bin:tool', '80', 'port to listen on', 'flag', 'env-var', false],
      ['NO_COLOUR', 'colour', 'bin:tool', undefined, 'no colours', 'flag', 'env-var', false],
    ]);
  });

  it('oclif flags with env: carry it', async () => {
    const pkg = { name: 'tool', bin: { tool: './bin/run.js' }, oclif: { commands: './src/commands' } };
    const command = [
      "import { Command, Flags } from '@oclif/core';",
      'export default class Deploy extends Command {',
      '  static flags = {',
      "    token: Flags.string({ description: 'API token', env: 'TOOL_TOKEN', required: true }),",
      "    region: Flags.string({ default: 'eu' }),",
      '  };',
      '  async run() {}',
      '}',
    ].join('\n');
    const result = await extractTypeScriptFlags([{ file: 'src/commands/deploy.ts', text: command }], new Map(), [{ file: 'package.json', text: JSON.stringify(pkg) }]);
    const deploy = result.commands.find((c) => c.path.join(' ') === 'deploy');
    expect(deploy?.params.map((p) => [p.name, p.envVars])).toEqual([
      ['token', ['TOOL_TOKEN']],
      ['region', undefined],
    ]);
  });

  it('mergeEnv concatenates both languages in order', () => {
    const a = extractFileEnv('a.ts', 'process.env.A; process.env[x];');
    const b = extractFileEnv('b.ts', 'process.env.B;');
    const merged = mergeEnv(a, b);
    expect(merged.vars.map((v) => v.name)).toEqual(['A', 'B']);
    expect(merged.dynamic).toHaveLength(1);
  });
});

describe('which files the env pass reads', () => {
  it('takes TypeScript and JavaScript sources, leaves out declarations and JavaScript compiled beside its TypeScript', () => {
    expect(envSourceFiles(['src/a.ts', 'src/a.js', 'src/b.js', 'src/types.d.ts', 'src/c.tsx', 'src/d.jsx', 'bin/tool', 'tsconfig.json', 'src/b.js.map', 'lib/x.mjs', 'src/a.ts'])).toEqual([
      'lib/x.mjs',
      'src/a.ts',
      'src/b.js',
      'src/c.tsx',
      'src/d.jsx',
    ]);
  });

  it('skips generated JavaScript: source-map comment or minified lines', () => {
    expect(isGeneratedScript('dist/a.js', 'var x = process.env.A;\n//# sourceMappingURL=a.js.map\n')).toBe(true);
    expect(isGeneratedScript('public/vendor.js', `${'var a=process.env.NODE_ENV;'.repeat(200)}\n`)).toBe(true);
    expect(isGeneratedScript('src/server.js', `${'const a = process.env.A;\n'.repeat(200)}`)).toBe(false);
    expect(isGeneratedScript('src/server.ts', 'x;\n//# sourceMappingURL=a.js.map\n')).toBe(false);
  });
});

describe('the engine reads env vars of projects without bins, and the per-file cache gives what a cold run gives', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('extracts from a Node server with no bin, reads only the changed file on a warm run, and equals a run without the cache', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tsenv-engine-'));
    dirs.push(root);
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'server', version: '1.0.0', main: 'src/index.js' }),
      'src/index.js': "const port = process.env.PORT || 3000;\nrequire('./db');\n",
      'src/db.ts': "export const url = process.env.DATABASE_URL ?? 'postgres://localhost/app';\n",
      'src/util.ts': 'export const id = (x: number) => x;\n',
      'src/types.d.ts': 'declare const IGNORED: string; process.env.IN_DECLARATION;\n',
      'web/app.jsx': 'export const App = () => <p>{import.meta.env.VITE_TITLE}</p>;\n',
      'src/env-helper.ts': 'export function envFlag(name: string, fallback = false): boolean {\n  const v = process.env[name];\n  return v === undefined ? fallback : v === "1";\n}\n',
      'src/features.ts': "import { envFlag } from './env-helper.js';\nexport const beta = envFlag('BETA_FEATURES', true);\n",
      'src/dynamic.ts': "import { envFlag } from './env-helper';\nexport const any = (n: string) => envFlag(n, process.env.CI === 'true');\n",
      'node_modules/lib/index.js': 'process.env.FROM_DEPENDENCY;\n',
      'README.md': '# server\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const { discoverFiles } = await import('../src/engine/discover.js');
    const { extractCode } = await import('../src/engine/lint.js');
    const { MemoryPieceStore } = await import('../src/engine/pieces.js');
    const { FactCache } = await import('../src/engine/facts.js');
    const { createHash } = await import('node:crypto');
    const { DEFAULT_CONFIG, defaultConfig } = await import('../src/config/schema.js');
    const config = defaultConfig();
    const discovered = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, DEFAULT_CONFIG.ignore, 'globby');
    const pieces = new MemoryPieceStore();
    const run = async () => {
      const hashes = new Map<string, string>();
      for (const file of [...discovered.sources, ...(discovered.programs ?? []), ...discovered.packaging]) hashes.set(file, createHash('sha1').update(readFileSync(path.join(root, file))).digest('hex'));
      const readScripts: string[] = [];
      const read = (file: string) => {
        if (/\.(?:[jt]sx?|mjs)$/.test(file)) readScripts.push(file);
        return readFileSync(path.join(root, file), 'utf8');
      };
      const facts = await extractCode(discovered, config, read, [], new FactCache({ store: pieces, hashes }), { root, overlay: undefined, peek: read });
      return { env: facts.env, readScripts: readScripts.sort() };
    };
    const cold = await run();
    expect(cold.env.vars.map((v) => [v.name, v.location.file, v.default?.text])).toEqual([
      ['DATABASE_URL', 'src/db.ts', "'postgres://localhost/app'"],
      ['CI', 'src/dynamic.ts', undefined],
      ['PORT', 'src/index.js', '3000'],
      ['VITE_TITLE', 'web/app.jsx', undefined],
      ['BETA_FEATURES', 'src/features.ts', 'true'],
    ]);
    // `envFlag(n, …)` in src/dynamic.ts computes the name: the helper's read is dynamic.
    expect(cold.env.dynamic.map((d) => [d.location.file, d.construct])).toEqual([['src/env-helper.ts', 'process.env[name]']]);
    expect(cold.readScripts).toEqual(['src/db.ts', 'src/dynamic.ts', 'src/env-helper.ts', 'src/features.ts', 'src/index.js', 'src/util.ts', 'web/app.jsx']);
    expect((await run()).readScripts).toEqual([]);
    appendFileSync(path.join(root, 'src/util.ts'), 'export const flag = process.env.FEATURE_FLAG;\n');
    const warm = await run();
    expect(warm.readScripts).toEqual(['src/util.ts']);
    const fresh = await extractCode(discovered, config, (file) => readFileSync(path.join(root, file), 'utf8'), [], undefined);
    expect(warm.env).toEqual(fresh.env);
    expect(fresh.env.vars.map((v) => v.name)).toEqual(['DATABASE_URL', 'CI', 'PORT', 'FEATURE_FLAG', 'VITE_TITLE', 'BETA_FEATURES']);
  });
});

describe('a file nested past what the parser takes (s28 sweep D7)', () => {
  // 20,000 nested parentheses overflow the recursive TypeScript parser: a RangeError that ended
  // the run as an internal error, since this scan runs on the main thread.
  const deep = `export const a = process.env.TOOL_A;\nexport const x = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\n`;

  it('gives no reads and one parse-error warning naming the file, instead of throwing', () => {
    const out = extractFileEnv('src/deep.ts', deep);
    expect(out.vars).toEqual([]);
    expect(out.diagnostics).toHaveLength(1);
    expect(out.diagnostics?.[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'src/deep.ts', line: 1, column: 1 } });
    expect(out.diagnostics?.[0]?.message).toMatch(/^src\/deep\.ts: the TypeScript parser failed \(nested too deeply for it: Maximum call stack size exceeded\)/);
    // A file of ordinary depth says nothing.
    expect(extractFileEnv('src/ok.ts', 'export const a = process.env.TOOL_A;\n').diagnostics).toBeUndefined();
  });

  it('typeScriptEnv reads the other files and returns the warning, from the per-file cache too', async () => {
    const { typeScriptEnv } = await import('../src/engine/typescript-env.js');
    const { MemoryPieceStore } = await import('../src/engine/pieces.js');
    const { FactCache } = await import('../src/engine/facts.js');
    const texts = new Map([['src/deep.ts', deep], ['src/ok.ts', 'export const b = process.env.TOOL_B;\n']]);
    const pieces = new MemoryPieceStore();
    for (let run = 0; run < 2; run++) {
      const out = await typeScriptEnv([...texts.keys()], (file) => texts.get(file), new FactCache({ store: pieces }));
      expect(out.vars.map((v) => v.name)).toEqual(['TOOL_B']);
      expect(out.diagnostics.map((d) => [d.ruleId, d.location.file])).toEqual([['parse-error', 'src/deep.ts']]);
    }
  });
});
