/**
 * Reference inference by content (src/link/infer-sections.ts, issue #29): which command, or which
 * config class, a block of documented names belongs to, and when the match is too weak or too
 * close to call. The end-to-end twins are fixtures/layouts/inferred-*.
 */
import { describe, expect, it } from 'vitest';
import { classCandidates, countRowsWithin, foldName, inferCommand, inputRank, namesWord, pageCommandOf, parameterSets, scoreSets, wordTester, type ParameterSet } from '../src/link/infer-sections.js';
import { seededRandom } from './random.js';
import type { CommandSpec, ConfigClass, ParamSpec, ReferenceRow } from '../src/model/types.js';

const at = { file: 'src/x.py', line: 1, column: 1 };

function param(name: string, aliases: string[] = [], extra: Partial<ParamSpec> = {}): ParamSpec {
  return { name, aliases, required: false, deprecated: false, hidden: false, origin: 'cli-flag', owner: 'x', location: at, ...extra };
}

function command(name: string, params: ParamSpec[], extra: Partial<CommandSpec> = {}): CommandSpec {
  return { name, aliases: [], configClasses: [], params, mappedBy: 'entry-point', paramsKnown: true, ...extra };
}

let line = 10;
function rows(...names: string[]): ReferenceRow[] {
  return names.map((n) => ({ names: [n.replace(/^-+/, '')], rawName: `\`${n}\``, links: [], location: { file: 'docs/a.md', line: line++, column: 1 } }));
}

const ctx = { heading: 'Options', file: 'docs/usage.md' };

describe('foldName', () => {
  it.each([
    ['--max-tokens', 'maxtokens'],
    ['max_tokens', 'maxtokens'],
    ['maxTokens', 'maxtokens'],
    ['+data.repo_id', 'data'],
  ])('%s → %s', (name, folded) => expect(foldName(name)).toBe(folded));
});

describe('inferCommand', () => {
  const mixer = command('mixer', [param('speed'), param('duration'), param('pulse'), param('jar'), param('recipe', [], { positional: true })]);
  const oven = command('oven', [param('temperature'), param('duration'), param('fan')]);
  const sets = parameterSets([mixer, oven]);

  it('assigns a table whose rows name a command\'s flags, in any spelling', () => {
    const result = inferCommand([rows('--speed', 'DURATION', '--no-pulse', 'jar', '--help')], sets, ctx);
    // `--no-pulse` folds to `nopulse`, which is no parameter: 3 shared of 4 counted rows (`--help` never counts).
    expect(result.command?.name).toBe('mixer');
    expect(result.rows).toBe(4);
    expect(result.evidence).toBe('3 of its 4 rows are parameters of `mixer`');
  });

  it('needs at least three shared names', () => {
    const result = inferCommand([rows('--speed', '--jar')], sets, ctx);
    expect(result.command).toBeUndefined();
    expect(result.best?.command.name).toBe('mixer');
    expect(result.evidence).toContain('at least 3 needed');
  });

  it('takes fewer than three names for a sub-command the heading, title or path names, never for a program', () => {
    const login = command('tool login', [param('residency'), param('config'), param('token')]);
    const tool = command('tool', [param('verbose'), param('quiet')]);
    const small = parameterSets([login, tool]);
    const onPage = inferCommand([rows('--config', '--residency', '--help')], small, { heading: 'Options / login', file: 'docs/commands/login.md' });
    expect(onPage.command?.name).toBe('tool login');
    const elsewhere = inferCommand([rows('--config', '--residency')], small, { heading: 'Options', file: 'docs/guide.md' });
    expect(elsewhere.command).toBeUndefined();
    expect(elsewhere.evidence).toContain('at least 3 needed');
    const program = inferCommand([rows('--verbose', '--quiet')], small, { heading: 'Options', title: 'tool', file: 'docs/tool.md' });
    expect(program.command).toBeUndefined();
    // An options heading under the command's heading names it; a heading that only uses the word does not.
    expect(inferCommand([rows('--config', '--residency')], small, { heading: 'Options / `tool login`', file: 'docs/guide.md' }).command?.name).toBe('tool login');
    expect(inferCommand([rows('config', 'residency')], small, { heading: 'token / Login directories / Configuration', file: 'docs/guide.md' }).command).toBeUndefined();
  });

  it('refuses a CLI command for rows spelled as config keys where its flags are kebab (a settings page)', () => {
    const bump = command('cz bump', [param('annotated-tag'), param('gpg-sign'), param('tag-format'), param('dry-run')]);
    const result = inferCommand([rows('annotated_tag', 'gpg_sign', 'tag_format', 'version_files')], parameterSets([bump]), ctx);
    expect(result.command).toBeUndefined();
    expect(result.evidence).toContain('spelled as config keys (`annotated_tag`)');
    expect(inferCommand([rows('--annotated-tag', '--gpg-sign', '--tag-format')], parameterSets([bump]), ctx).command?.name).toBe('cz bump');
  });
  it('refuses it too when every several-word row is spelled as a key, even if most shared rows are one word (grip\'s API docs)', () => {
    const grip = command('grip', ['user-content', 'context', 'user', 'pass', 'export', 'api-url', 'title', 'quiet', 'theme'].map((n) => param(n)));
    const api = rows('path', 'user_content', 'context', 'username', 'password', 'render_wide', 'api_url', 'title', 'quiet', 'theme');
    const pageCtx = { ...ctx, pageCommand: 'grip' };
    const refused = inferCommand([api], parameterSets([grip]), pageCtx);
    expect(refused.command).toBeUndefined();
    expect(refused.evidence).toContain('spelled as config keys (`user_content`)');
    // The same rows with the flags' own spelling are the CLI's.
    const cli = rows('user-content', 'context', 'user', 'pass', 'api-url', 'title', 'quiet', 'theme');
    expect(inferCommand([cli], parameterSets([grip]), pageCtx).command?.name).toBe('grip');
  });

  it('needs most rows to be the command\'s', () => {
    const result = inferCommand([rows('--speed', '--jar', '--duration', '--colour', '--size', '--weight', '--lid')], sets, ctx);
    expect(result.command).toBeUndefined();
    expect(result.evidence).toBe('only 3 of its 7 rows are parameters of `mixer` (most needed)');
  });

  it('refuses a block that also holds a table of other things', () => {
    const result = inferCommand([rows('--speed', '--jar', '--duration'), rows('banana', 'milk')], sets, ctx);
    expect(result.command).toBeUndefined();
    expect(result.evidence).toContain('rows of something else');
  });

  it('leaves a near tie alone, unless the heading, title or path names one of the two', () => {
    const build = command('tool build', [param('out'), param('watch'), param('minify'), param('target')]);
    const serve = command('tool serve', [param('out'), param('watch'), param('minify'), param('port')]);
    const two = parameterSets([build, serve]);
    const table = [rows('--out', '--watch', '--minify')];
    const tie = inferCommand(table, two, ctx);
    expect(tie.command).toBeUndefined();
    expect(tie.evidence).toContain('no clear match');
    expect(inferCommand(table, two, { heading: 'Options', file: 'docs/commands/serve.md' }).command?.name).toBe('tool serve');
    expect(inferCommand(table, two, { heading: 'Build options', file: 'docs/cli.md' }).command?.name).toBe('tool build');
  });

  it('breaks a near tie by the command the block\'s own examples run, or by every part of a hyphenated name', () => {
    const pr = command('rp release-pr', [param('token'), param('repo-url'), param('draft')]);
    const gh = command('rp github-release', [param('token'), param('repo-url'), param('draft-release')]);
    const two = parameterSets([pr, gh]);
    const table = [rows('--token', '--repo-url', '--draft', '--draft-release')];
    expect(inferCommand(table, two, ctx).command).toBeUndefined();
    expect(inferCommand(table, two, { ...ctx, invoked: new Set(['rp github-release']) }).command?.name).toBe('rp github-release');
    expect(inferCommand(table, two, { heading: 'Creating a release on GitHub', file: 'docs/cli.md' }).command?.name).toBe('rp github-release');
  });

  it('matches the negated spelling of a boolean flag that has one (`--no-color` for `--color/--no-color`)', () => {
    const check = command('kit check', [param('strict'), param('jobs'), param('color', [], { negatable: true })]);
    const result = inferCommand([rows('--strict', '--jobs', '--no-color')], parameterSets([check]), ctx);
    // Explained (the command's row), though not shared: the positive name is the evidence.
    expect(result.best).toMatchObject({ shared: 2, explained: 3 });
    // Not for a flag without the negated form.
    const plain = command('kit check', [param('strict'), param('jobs'), param('color')]);
    expect(inferCommand([rows('--strict', '--jobs', '--no-color')], parameterSets([plain]), ctx).best).toMatchObject({ shared: 2, explained: 2 });
  });

  it('takes two rows for the page\'s command (every example of the page runs it), and says the table promises every flag', () => {
    const inspect = command('kit inspect', [param('format'), param('output'), param('python'), param('project')]);
    const run = command('kit run', [param('format'), param('port'), param('host')]);
    const sets2 = parameterSets([inspect, run]);
    const table = [rows('--format', '--output')];
    const onPage = inferCommand(table, sets2, { heading: 'Options', title: 'Inspecting servers', file: 'docs/cli/inspecting.md', pageCommand: 'kit inspect' });
    expect(onPage.command?.name).toBe('kit inspect');
    expect(onPage.pageCommand).toBe(true);
    const elsewhere = inferCommand(table, sets2, { heading: 'Options', title: 'Inspecting servers', file: 'docs/cli/inspecting.md' });
    expect(elsewhere.command).toBeUndefined();
    expect(pageCommandOf(['kit inspect', 'kit inspect'])).toBe('kit inspect');
    expect(pageCommandOf(['kit inspect'])).toBeUndefined();
    expect(pageCommandOf(['kit inspect', 'kit run', 'kit inspect'])).toBeUndefined();
  });

  it('gives one shared table to the sibling sub-commands the page runs or names, each with an option of its own', () => {
    const shared = [param('name'), param('region'), param('env'), param('dry-run')];
    const docker = command('ship deploy docker', [...shared, param('registry')]);
    const fn = command('ship deploy function', [...shared, param('memory')]);
    const stat = command('ship deploy static', [param('name'), param('region'), param('dry-run')]);
    const other = command('ship logs', [param('region'), param('follow'), param('name')]);
    const sets4 = parameterSets([docker, fn, stat, other]);
    const table = [rows('--name', '--region', '--env', '--dry-run', '--registry')];
    const page = { heading: 'Options', file: 'docs/deploying.md', pageRuns: new Set(['ship deploy docker', 'ship deploy function']), pageCodes: new Set(['static']) };
    const result = inferCommand(table, sets4, page);
    expect(result.command?.name).toBe('ship deploy docker');
    expect(result.also?.map((c) => c.name).sort()).toEqual(['ship deploy function', 'ship deploy static']);
    // A sibling the page neither runs nor names is not given the table; `ship logs` is no sibling.
    const fewer = inferCommand(table, sets4, { ...page, pageCodes: new Set<string>() });
    expect(fewer.also?.map((c) => c.name)).toEqual(['ship deploy function']);
    // Without the page naming them, the siblings tie and nothing is assigned.
    expect(inferCommand([rows('--name', '--region', '--env', '--dry-run')], sets4, ctx).command).toBeUndefined();
  });

  it('counts inherited and global parameters as explained but not as shared', () => {
    const sub = command('tool run', [param('fast'), param('slow'), param('steps')], { acceptedParams: [param('verbose'), param('config')] });
    const result = inferCommand([rows('--fast', '--slow', '--steps', '--verbose', '--config', '--quiet')], parameterSets([sub], new Set(['quiet'])), ctx);
    expect(result.command?.name).toBe('tool run');
    expect(result.best).toMatchObject({ shared: 3, explained: 6 });
  });
});

describe('classCandidates and config-file inference', () => {
  const field = (name: string): ParamSpec => param(name, [], { origin: 'config-field' });
  const cls = (name: string, file: string, fields: string[], kind: ConfigClass['kind'] = 'interface'): ConfigClass => ({
    name, qualifiedName: `${file}#${name}`, module: file, kind, bases: [], fields: fields.map(field), location: { file, line: 1, column: 1 },
  });
  const options = cls('MixerOptions', 'src/options.ts', ['speed', 'duration', 'jarSize', 'pulse', 'timeoutMs']);

  it('makes classes no command reads into provisional config files, leaving out tests and small classes', () => {
    const candidates = classCandidates([options, cls('Fixture', 'test/fixtures/x.ts', ['a', 'b', 'c']), cls('Pair', 'src/pair.ts', ['a', 'b'])], new Set());
    expect(candidates.map((c) => [c.name, c.kind, c.mappedBy])).toEqual([['MixerOptions', 'config-file', 'inferred']]);
    expect(classCandidates([options], new Set([options.qualifiedName]))).toEqual([]);
  });

  it('gives rows spelled as keys to the class, and rows spelled as flags to the command', () => {
    const cli = command('mixer', [param('speed'), param('duration'), param('jar-size')]);
    const sets = [...parameterSets([cli]), ...parameterSets(classCandidates([options], new Set()))];
    expect(inferCommand([rows('speed', 'duration', 'jarSize', 'timeoutMs')], sets, ctx).command?.name).toBe('MixerOptions');
    expect(inferCommand([rows('--speed', '--duration', '--jar-size')], sets, ctx).command?.name).toBe('mixer');
  });

  it('never makes a config file from a bullet list', () => {
    const sets = parameterSets(classCandidates([options], new Set()));
    const list = [rows('speed', 'duration', 'jarSize', 'pulse')];
    expect(inferCommand(list, sets, { ...ctx, layout: 'list' }).command).toBeUndefined();
    expect(inferCommand(list, sets, { ...ctx, layout: 'other' }).command?.name).toBe('MixerOptions');
  });

  it('leaves alone a table documenting two classes at once (a report object and its results)', () => {
    const keys = ['file', 'line', 'column', 'endLine', 'endColumn', 'ruleId', 'messageId', 'message', 'severity', 'data', 'related', 'url'];
    const result = cls('Result', 'src/report.ts', keys);
    const report = cls('Report', 'src/report.ts', ['results', 'summary', 'notes', 'commands']);
    const sets = parameterSets(classCandidates([result, report], new Set()));
    // 12 of 16 rows (75 %) are the result's: enough alone, but the other 4 are the report's.
    const mixed = inferCommand([rows('results', 'summary', 'notes', 'commands', ...keys)], sets, ctx);
    expect(mixed.command).toBeUndefined();
    expect(mixed.evidence).toContain('several classes at once');
    // Alone, the result's keys are its reference, a stray row or two besides.
    expect(inferCommand([rows(...keys, 'extra', 'summary')], sets, ctx).command?.name).toBe('Result');
  });

  it('prefers the shape users write to its resolved twin: all-optional before all-required, a schema before a plain type', () => {
    const keys = ['speed', 'duration', 'jarSize', 'pulse'];
    const received = { ...cls('MixerOptionsReceived', 'src/types.ts', keys), fields: keys.map((k) => param(k, [], { origin: 'config-field' as const, required: false })) };
    const resolved = { ...cls('MixerOptions', 'src/types.ts', keys), fields: keys.map((k) => param(k, [], { origin: 'config-field' as const, required: true })) };
    expect(inputRank(received)).toBeLessThan(inputRank(resolved));
    // The shorter name and the page path naming `options` used to pick the resolved one.
    const sets = parameterSets(classCandidates([resolved, received], new Set()));
    expect(inferCommand([rows(...keys)], sets, { heading: 'Options', file: 'docs/mixer-options.md' }).command?.name).toBe('MixerOptionsReceived');
    const schema = cls('mixerConfigSchema', 'src/schema.ts', keys, 'zod');
    const normalized = { ...cls('NormalizedConfig', 'src/config.ts', keys), fields: keys.map((k) => param(k, [], { origin: 'config-field' as const, required: true })) };
    expect(inferCommand([rows(...keys)], parameterSets(classCandidates([normalized, schema], new Set())), ctx).command?.name).toBe('mixerConfigSchema');
  });

  it('never makes a config file of a type the program produces (a response, result, metrics, info record)', () => {
    const made = (name: string) => classCandidates([cls(name, 'src/server.py', ['reward', 'score', 'passed', 'total'], 'pydantic')], new Set()).map((c) => c.name);
    for (const name of ['ForecastVerifyResponse', 'RunResult', 'AggregateMetrics', 'ToolInfo', 'BuildReport', 'JobStatus']) expect(made(name)).toEqual([]);
    // A whole name is not a suffix: `Result`, `Report` and `Output` may still be config sections.
    for (const name of ['Result', 'Report', 'Output', 'OutputConfig']) expect(made(name)).toEqual([name]);
  });

  it('requires only the fields a class declares itself, not inherited ones, even when it re-declares them for a default', () => {
    const own = (name: string, owner: string, extra: Partial<ParamSpec> = {}) => param(name, [], { origin: 'config-field', owner, ...extra });
    const forecast: ConfigClass = {
      ...cls('ForecastServerConfig', 'src/servers.py', [], 'pydantic'),
      fields: [own('name', 'ForecastServerConfig', { overrides: 'BaseServerConfig' }), own('host', 'BaseServerConfig'), own('city', 'ForecastServerConfig'), own('units', 'ForecastServerConfig'), own('retries', 'ForecastServerConfig')],
    };
    const [candidate] = classCandidates([forecast], new Set());
    expect(candidate?.params.filter((p) => !p.hidden).map((p) => p.name)).toEqual(['city', 'units', 'retries']);
  });

  it('prefers the narrowest class when a wider one extends it', () => {
    const wide = cls('AllMixerOptions', 'src/all.ts', ['speed', 'duration', 'jarSize', 'pulse', 'timeoutMs', 'colour', 'lid']);
    const sets = parameterSets(classCandidates([wide, options], new Set()));
    expect(inferCommand([rows('speed', 'duration', 'jarSize', 'pulse')], sets, ctx).command?.name).toBe('MixerOptions');
  });
});

describe('wordTester and namesWord (a word test without one RegExp per word, s27 sweep2 O1)', () => {
  /** The old test, compiled per word: the reference for parity. */
  const oldHas = (text: string) => (w: string): boolean => new RegExp(`(?<![\\w-])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text.toLowerCase());

  it('agrees with the per-word regex on real-shaped headings, titles and paths', () => {
    const texts = ['Creating a release on GitHub', '`tool deploy docker` options', 'docs/cli/github-release.md', 'Options / `tool login`', 'CLI — run (v2.x)', 'İstanbul run_fast', '', 'a--b', 'x.y/z', 'Run-all RUN'];
    const words = ['release', 'github-release', 'github_release', 'run', 'run_fast', 'docker', 'tool deploy', 'cli', 'login', 'md', 'x.y', 'y', '', '-', 'a', 'b', 'a--b', 'v2.x', 'istanbul', 'run-all', 'all'];
    for (const text of texts) {
      const has = wordTester(text);
      const old = oldHas(text);
      for (const w of words) expect([text, w, has(w)]).toEqual([text, w, old(w)]);
      for (const w of words) expect([text, w, namesWord(has, [w])]).toEqual([text, w, [w].some((x) => old(x) || (/[-_]/.test(x) && x.split(/[-_]+/).every((p) => p.length > 0 && old(p))))]);
    }
  });

  it('agrees with the per-word regex on random texts and words', () => {
    const random = seededRandom(12345);
    const next = (n: number): number => Math.floor(random() * n);
    const alphabet = 'abAB1_- ./éÉ`';
    const str = (max: number): string => Array.from({ length: next(max + 1) }, () => alphabet[next(alphabet.length)]).join('');
    for (let t = 0; t < 400; t++) {
      const text = str(24);
      const has = wordTester(text);
      const old = oldHas(text);
      const lower = text.toLowerCase();
      for (let k = 0; k < 12; k++) {
        // Half the words are cut from the text itself, so that many do occur.
        const start = next(lower.length + 1);
        const w = k % 2 === 0 ? lower.slice(start, start + next(6)) : str(4).toLowerCase();
        expect([text, w, has(w)]).toEqual([text, w, old(w)]);
      }
    }
  });

  it('tests 110,000 alias words against a heading quickly', () => {
    const words = Array.from({ length: 110_000 }, (_, i) => `a${i}`);
    const t = performance.now();
    expect(namesWord(wordTester('The `a109999` command'), words)).toBe(true);
    expect(namesWord(wordTester('Nothing here'), words)).toBe(false);
    expect(performance.now() - t).toBeLessThan(2000);
  });
});

describe('scoreSets and countRowsWithin (one pass over the rows through the index, s29 sweep D4)', () => {
  /** The scoring as it was, set by set over all rows: the reference for parity. */
  function oldScores(folded: string[][], sets: readonly ParameterSet[]): Array<{ set: ParameterSet; shared: number; explained: number; rows: number }> {
    const index = new Map<string, ParameterSet[]>();
    for (const set of sets) for (const n of set.own) index.set(n, [...(index.get(n) ?? []), set]);
    const candidates = new Set<ParameterSet>();
    for (const n of new Set(folded.flat())) for (const set of index.get(n) ?? []) candidates.add(set);
    return [...candidates].map((set) => {
      const hit = new Set<string>();
      for (const ns of folded) {
        const n = ns.find((x) => set.own.has(x));
        if (n !== undefined) hit.add(n);
      }
      return {
        set,
        shared: hit.size,
        explained: folded.filter((ns) => ns.some((n) => set.explained.has(n))).length,
        rows: folded.filter((ns) => ns.some((n) => set.own.has(n))).length,
      };
    });
  }

  it('agrees with scoring each set over all rows on random real-shaped sets and rows', () => {
    const random = seededRandom(2904);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => random() < p);
    const POOL = ['seed', 'name', 'max-tokens', 'max_tokens', 'maxTokens', 'port', 'host', 'verbose', 'color', 'q', 'help', 'model.id', 'data', 'out', 'dry-run', 'plan', 'limit', 'fan'];
    for (let round = 0; round < 400; round++) {
      const p = (n: string): ParamSpec => param(n, random() < 0.2 ? [pick(POOL)] : [], { ...(random() < 0.1 ? { positional: true } : {}), ...(random() < 0.1 ? { negatable: true } : {}) });
      const commands = ['tool', 'tool run', 'tool build', 'other'].filter(() => random() < 0.6).map((n) => command(n, some(POOL, 0.4).map(p), random() < 0.2 ? { acceptedParams: some(POOL, 0.2).map(p) } : {}));
      const sets = parameterSets(commands, new Set(some(POOL, 0.1)));
      // A list may hold one set twice.
      const list = random() < 0.3 && sets.length > 0 ? [...sets, sets[0]!] : sets;
      const folded = Array.from({ length: Math.floor(random() * 14) }, () => Array.from({ length: random() < 0.25 ? 2 : 1 }, () => (random() < 0.05 ? '\0' : foldName(pick(POOL)))));
      const scored = scoreSets(folded, list);
      expect(scored.map(({ set, shared, explained, rows }) => ({ set, shared, explained, rows }))).toEqual(oldScores(folded, list));
      // The counters kept between calls start clean: a second block on the same list scores alike.
      const again = folded.slice(1);
      expect(scoreSets(again, list).map(({ set, shared, explained, rows }) => ({ set, shared, explained, rows }))).toEqual(oldScores(again, list));
      const within = Uint8Array.from(folded, () => (random() < 0.5 ? 1 : 0));
      const counts = countRowsWithin(folded, list, within);
      for (const s of scored) expect(counts[s.id]).toBe(folded.filter((ns, i) => within[i] === 1 && ns.some((n) => s.set.own.has(n))).length);
    }
  });
});
