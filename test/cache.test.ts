/**
 * The run cache (src/engine/cache.ts) through the CLI's `main`, on temporary copies of
 * fixtures/example-python: after every kind of change, a warm run's full output must equal a
 * cold (`--no-cache`) run's, and an unchanged project must be served from the cache.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, renameSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { CACHE_FORMAT, EARLY_PREFETCH_LIMIT, RACY_WINDOW_MS, changedStoredDocuments, defaultCacheLocation, deserialiseMessage, prefetchEditedDocuments, serialiseMessage, stableStringify } from '../src/engine/cache.js';
import type { DocParser } from '../src/docs/bounded-parse.js';
import type { Rule } from '../src/model/rule.js';
import { loadConfig } from '../src/config/load.js';
import { lint, lintWithCache, ruleIds } from '../src/api.js';
import { CLI_BIN, copyToTemp, removeTempDirs, tempProject } from './helpers.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../fixtures/example-python');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** A fresh copy of the example project and an empty cache directory next to it. */
function project(): { root: string; cache: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-cache-'));
  temps.push(dir);
  const root = path.join(dir, 'project');
  // Not a cache an earlier run (e2e tests) may have left in the fixture.
  cpSync(EXAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== '.docdrift-cache' });
  return { root, cache: path.join(dir, 'cache') };
}

async function cli(root: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: root, isTTY: false });
  return { code, stdout, stderr };
}

/** A run through the cache, with `--debug` to learn whether it hit. */
async function warm(p: { root: string; cache: string }, args: string[] = []) {
  const r = await cli(p.root, ['--format', 'json', '--cache-location', p.cache, '--debug', ...args]);
  const status = /docdrift: cache (hit|miss)/.exec(r.stderr)?.[1];
  return { ...r, status };
}

/** A run without the cache: the truth a warm run must equal. */
async function cold(p: { root: string }, args: string[] = []) {
  const r = await cli(p.root, ['--format', 'json', '--no-cache', ...args]);
  expect(r.stderr).not.toMatch(/cache (hit|miss)/);
  return r;
}

const ids = (stdout: string): string[] =>
  (JSON.parse(stdout) as { results: Array<{ file: string; line: number; ruleId: string; data: { name?: string } }> }).results.map(
    (r) => `${r.file}:${r.line} ${r.ruleId} ${r.data.name ?? ''}`,
  );

/** Asserts a warm run misses, matches a cold run exactly (output and exit code), then hits on the next run. */
async function expectRecomputed(p: { root: string; cache: string }, args: string[] = []) {
  const w = await warm(p, args);
  expect(w.status).toBe('miss');
  const c = await cold(p, args);
  expect(w.stdout).toBe(c.stdout);
  expect(w.code).toBe(c.code);
  const again = await warm(p, args);
  expect(again.status).toBe('hit');
  expect(again.stdout).toBe(c.stdout);
  return w.stdout;
}

describe('the run cache', () => {
  it('serves an unchanged project from the cache with output identical to a cold run, and leaves no temporary file', async () => {
    const p = project();
    const first = await warm(p);
    expect(first.status).toBe('miss');
    expect(first.stderr).toMatch(/cache miss \(.*, written\)/);
    const second = await warm(p);
    expect(second.status).toBe('hit');
    const c = await cold(p);
    expect(second.stdout).toBe(c.stdout);
    expect(second.code).toBe(1);
    expect(second.code).toBe(c.code);
    expect(ids(second.stdout)).toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_repeat');
    // The debug listing of commands comes from the cache too.
    const commandLines = (s: string) => s.split('\n').filter((l) => l.startsWith('  command '));
    expect(commandLines(second.stderr)).toEqual(commandLines(first.stderr));
    expect(commandLines(second.stderr).length).toBeGreaterThan(0);
    expect(readdirSync(p.cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('recomputes when one doc changes', async () => {
    const p = project();
    const before = (await warm(p)).stdout;
    const readme = path.join(p.root, 'benchmarks/gpqa/README.md');
    writeFileSync(readme, readFileSync(readme, 'utf8').replace('+num_repeat=4', '+num_repeats=4'));
    const after = await expectRecomputed(p);
    expect(ids(before)).toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_repeat');
    expect(ids(after)).not.toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_repeat');
  });

  it('recomputes when a doc changes with the same size and its mtime put back (the content hash is the truth)', async () => {
    const p = project();
    const readme = path.join(p.root, 'benchmarks/gpqa/README.md');
    const past = 1_600_000_000; // whole seconds, so the mtime can be put back exactly
    utimesSync(readme, past, past);
    // Past the racy window, so the stat shortcut would apply if only size and mtime were compared.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    await warm(p);
    const text = readFileSync(readme, 'utf8');
    writeFileSync(readme, text.replace('+num_repeat=4', '+num_rapeat=4'));
    utimesSync(readme, past, past);
    expect(statSync(readme).mtimeMs).toBe(past * 1000);
    const after = await expectRecomputed(p);
    expect(ids(after)).toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_rapeat');
  });

  it('recomputes when an example env file (.env.example) is added or changes, not when the real .env does (issue #31)', async () => {
    const p = project();
    const envExample = path.join(p.root, '.env.example');
    writeFileSync(envExample, '# The server URL\nQDRANT_URL=http://localhost:6333\n');
    expect((await warm(p)).status).toBe('miss');
    expect((await warm(p)).status).toBe('hit');
    writeFileSync(envExample, '# The server URL\nQDRANT_URL=http://localhost:6333\nQDRANT_SEARCH_LIMIT=10\n');
    await expectRecomputed(p);
    writeFileSync(path.join(p.root, 'services.env.sample'), 'X=1\n'); // not an env-file name: not an input
    expect((await warm(p)).status).toBe('hit');
    mkdirSync(path.join(p.root, 'deploy'), { recursive: true });
    writeFileSync(path.join(p.root, 'deploy/env.template'), 'REGION=eu\n');
    await expectRecomputed(p);
    writeFileSync(path.join(p.root, '.env'), 'QDRANT_URL=secret\n');
    expect((await warm(p)).status).toBe('hit');
  });

  it('recomputes when one Python file changes', async () => {
    const p = project();
    await warm(p);
    const py = path.join(p.root, 'nemo_gym/rollout_collection.py');
    writeFileSync(py, readFileSync(py, 'utf8').replace('    num_repeats: Optional[int]', '    num_repeat: Optional[int]'));
    const after = await expectRecomputed(p);
    expect(ids(after)).not.toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_repeat');
  });

  it('recomputes when a config key changes', async () => {
    const p = project();
    const before = (await warm(p)).stdout;
    writeFileSync(path.join(p.root, 'docdrift.config.json'), JSON.stringify({ rules: { 'example-param-unknown': 'off' } }));
    const after = await expectRecomputed(p);
    expect(ids(before).some((i) => i.includes('example-param-unknown'))).toBe(true);
    expect(ids(after).some((i) => i.includes('example-param-unknown'))).toBe(false);
    // Findings may point into the config file (declared flags), so its text is part of the key
    // even when the loaded config is the same.
    writeFileSync(path.join(p.root, 'docdrift.config.json'), JSON.stringify({ rules: { 'example-param-unknown': 'off' } }, null, 2));
    await expectRecomputed(p);
    rmSync(path.join(p.root, 'docdrift.config.json'));
    writeFileSync(path.join(p.root, '.docdriftrc.yaml'), 'rules:\n  example-param-unknown: off\n');
    await expectRecomputed(p);
  });

  it('recomputes when only the layout of the config file changes, since findings point into it', async () => {
    const p = project();
    const config = path.join(p.root, 'docdrift.config.json');
    writeFileSync(config, '{\n  "commands": {\n    "ng_collect_rollouts": {\n      "flags": ["--extra-flag"]\n    }\n  }\n}\n');
    const before = (await warm(p)).stdout;
    expect(before).toContain('docdrift.config.json:4');
    writeFileSync(config, '{\n\n  "commands": {\n    "ng_collect_rollouts": {\n      "flags": ["--extra-flag"]\n    }\n  }\n}\n');
    const after = await expectRecomputed(p);
    expect(after).toContain('docdrift.config.json:5');
    expect(after).not.toContain('docdrift.config.json:4');
  });

  it('recomputes when a file is deleted', async () => {
    const p = project();
    await warm(p);
    rmSync(path.join(p.root, 'benchmarks/gpqa/README.md'));
    const after = await expectRecomputed(p);
    expect(ids(after).some((i) => i.startsWith('benchmarks/gpqa/'))).toBe(false);
  });

  it('recomputes when a file is added, and when .gitignore hides it again', async () => {
    const p = project();
    await warm(p);
    mkdirSync(path.join(p.root, 'benchmarks/new'));
    writeFileSync(
      path.join(p.root, 'benchmarks/new/README.md'),
      '# New\n\n```bash\nng_collect_rollouts +agent_name=a +limitt=3\n```\n',
    );
    const after = await expectRecomputed(p);
    expect(ids(after)).toContain('benchmarks/new/README.md:4 example-param-unknown limitt');
    writeFileSync(path.join(p.root, '.gitignore'), 'benchmarks/new/\n');
    const ignored = await expectRecomputed(p);
    expect(ids(ignored).some((i) => i.startsWith('benchmarks/new/'))).toBe(false);
  });

  it('recomputes when pyproject.toml changes (a command renamed)', async () => {
    const p = project();
    await warm(p);
    const toml = path.join(p.root, 'pyproject.toml');
    writeFileSync(toml, readFileSync(toml, 'utf8').replaceAll('ng_collect_rollouts', 'ng_gather_rollouts'));
    const after = await expectRecomputed(p);
    expect(ids(after).some((i) => i.endsWith(' num_repeat'))).toBe(false);
  });

  it('ignores and rewrites a corrupt, truncated or foreign cache file', async () => {
    const p = project();
    await warm(p);
    const [file] = readdirSync(p.cache).filter((f) => f.endsWith('.json'));
    const cacheFile = path.join(p.cache, file!);
    const good = readFileSync(cacheFile, 'utf8');
    for (const bad of ['{"format":1,"key":', '\0\0\0garbage', JSON.stringify({ format: 999 }), 'null', JSON.stringify({ ...JSON.parse(good), result: { messages: 'x' } })]) {
      writeFileSync(cacheFile, bad);
      const w = await warm(p);
      expect(w.status).toBe('miss');
      expect(w.stderr).toMatch(/written/);
      expect(w.stdout).toBe((await cold(p)).stdout);
      expect(JSON.parse(readFileSync(cacheFile, 'utf8'))).toMatchObject({ format: CACHE_FORMAT });
    }
    expect((await warm(p)).status).toBe('hit');
  });

  it('shares one entry between --format json and --format stylish, --quiet and path arguments', async () => {
    const p = project();
    await warm(p);
    const stylish = await warm(p, ['--format', 'stylish']);
    expect(stylish.status).toBe('hit');
    const coldStylish = await cold(p, ['--format', 'stylish']);
    expect(stylish.stdout).toBe(coldStylish.stdout);
    expect(stylish.stdout).toMatch(/num_repeat/);
    const scoped = await warm(p, ['benchmarks']);
    expect(scoped.status).toBe('hit');
    expect(scoped.stdout).toBe((await cold(p, ['benchmarks'])).stdout);
    expect(ids(scoped.stdout).every((i) => i.startsWith('benchmarks/'))).toBe(true);
    const quiet = await warm(p, ['--quiet']);
    expect(quiet.status).toBe('hit');
    expect(quiet.stdout).toBe((await cold(p, ['--quiet'])).stdout);
  });

  it('--no-cache neither reads nor writes the cache', async () => {
    const p = project();
    await cli(p.root, ['--format', 'json', '--no-cache', '--cache-location', p.cache]);
    expect(existsSync(p.cache)).toBe(false);
  });

  it('a cache location that cannot be written is not an error; one that is a file is a usage error', async () => {
    const p = project();
    const file = path.join(p.root, 'not-a-dir');
    writeFileSync(file, '');
    const r = await cli(p.root, ['--cache-location', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cache-location takes a directory; .*not-a-dir is a file/);
    const blocked = await cli(p.root, ['--format', 'json', '--debug', '--cache-location', path.join(file, 'sub')]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/cache miss .*cannot write the cache file \(ENOTDIR\)/);
    expect(blocked.stdout).toBe((await cold(p)).stdout);
  });

  it('--cache-location with missing folders: made inside the project, refused through a link, and outside only the cache folder itself is made (s31 sweep)', async () => {
    const p = project();
    const outside = path.dirname(p.root);
    // Inside the project: the missing parents are made, as ESLint makes its cache file's folder.
    const inside = await warm({ root: p.root, cache: path.join(p.root, 'a/b/c') });
    expect(inside.status).toBe('miss');
    expect(readdirSync(path.join(p.root, 'a/b/c')).some((f) => f.startsWith('run-'))).toBe(true);
    expect((await warm({ root: p.root, cache: path.join(p.root, 'a/b/c') })).status).toBe('hit');
    // Through a link inside the project (to a folder outside): nothing is made or written there; the run goes on without the cache.
    mkdirSync(path.join(outside, 'target'));
    symlinkSync(path.join(outside, 'target'), path.join(p.root, 'lnk'));
    const linked = await cli(p.root, ['--format', 'json', '--debug', '--cache-location', 'lnk/x/y']);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toMatch(/cache not used: lnk is a symlink/);
    expect(readdirSync(path.join(outside, 'target'))).toEqual([]);
    // Outside the project: the cache folder under an existing directory is made; a tree of missing folders is not (exit 2, one line, as --output-file).
    const own = await warm({ root: p.root, cache: path.join(outside, 'own-cache') });
    expect(own.status).toBe('miss');
    expect(existsSync(path.join(outside, 'own-cache'))).toBe(true);
    const deep = await cli(p.root, ['--cache-location', path.join(outside, 'x/y/z')]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/^docdrift: --cache-location cannot create .*x\/y\/z: the directory .*x\/y does not exist \(outside the project docdrift makes only the cache folder itself\)\.\n$/);
    expect(existsSync(path.join(outside, 'x'))).toBe(false);
    // The API (no CLI check) makes no folder outside either: the run goes on without storing.
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const api = await lintWithCache({ root: p.root, config, cache: true, location: path.join(outside, 'q/r'), version: '1.0.0' });
    expect(api.cache.written).toBe(false);
    expect(api.cache.note).toMatch(/ENOENT/);
    expect(existsSync(path.join(outside, 'q'))).toBe(false);
  });

  it('defaults to node_modules/.cache/docdrift, else a self-ignoring .docdrift-cache', async () => {
    const p = project();
    expect(defaultCacheLocation(p.root)).toBe(path.join(p.root, '.docdrift-cache'));
    await cli(p.root, ['--format', 'json']);
    const dir = path.join(p.root, '.docdrift-cache');
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(readFileSync(path.join(dir, 'CACHEDIR.TAG'), 'utf8')).toMatch(/^Signature: 8a477f597d28d172789f06886806bc55/);
    expect(readdirSync(dir).some((f) => /^run-[0-9a-f]{16}\.json$/.test(f))).toBe(true);
    // The cache directory is never an input: the next run hits.
    expect((await cli(p.root, ['--format', 'json', '--debug'])).stderr).toMatch(/cache hit/);

    const q = project();
    mkdirSync(path.join(q.root, 'node_modules'));
    expect(defaultCacheLocation(q.root)).toBe(path.join(q.root, 'node_modules', '.cache', 'docdrift'));
    await cli(q.root, ['--format', 'json']);
    expect(readdirSync(path.join(q.root, 'node_modules', '.cache', 'docdrift')).some((f) => f.endsWith('.json'))).toBe(true);
    expect(existsSync(path.join(q.root, '.docdrift-cache'))).toBe(false);
  });
});

describe('lintWithCache', () => {
  it('misses when the version or docdrift’s code changes, and hits when neither does', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const base = { root: p.root, config, cache: true, location: p.cache };
    expect((await lintWithCache({ ...base, version: '1.0.0', codeFingerprint: 'a' })).cache.status).toBe('miss');
    expect((await lintWithCache({ ...base, version: '1.0.0', codeFingerprint: 'a' })).cache.status).toBe('hit');
    const bumped = await lintWithCache({ ...base, version: '1.0.1', codeFingerprint: 'a' });
    expect(bumped.cache.status).toBe('miss');
    expect((await lintWithCache({ ...base, version: '1.0.1', codeFingerprint: 'b' })).cache.status).toBe('miss');
    const hit = await lintWithCache({ ...base, version: '1.0.1', codeFingerprint: 'b' });
    expect(hit.cache.status).toBe('hit');
    expect(hit.model).toBeUndefined();
    // A hit's messages are the cold run's, field for field.
    const coldRun = await lint({ root: p.root, config });
    const plain = (ms: object[]) => ms.map((m) => ({ ...m, stack: undefined }));
    expect(plain(hit.messages)).toEqual(plain(coldRun.messages));
    expect(hit.configProblems).toEqual(coldRun.configProblems);
    expect(hit.stats.sources).toBe(coldRun.stats.sources);
  });

  it('round-trips a message through serialisation with its VFileMessage fields', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const { messages } = await lint({ root: p.root, config });
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      const back = deserialiseMessage(JSON.parse(JSON.stringify(serialiseMessage(m))));
      expect(back).toBeInstanceOf(Error);
      expect({ ...back, stack: undefined }).toEqual({ ...m, stack: undefined });
      expect([back.line, back.column, back.place, back.reason, back.ruleId]).toEqual([m.line, m.column, m.place, m.reason, m.ruleId]);
    }
  });

  it('keys configs by content, not key order', () => {
    expect(stableStringify({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: 3 } })).toBe('{"a":{"c":3,"d":[2,{"x":2,"y":1}]},"b":1}');
  });

  it('hashes again a file changed within the racy window even when its stat looks unchanged', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const base = { root: p.root, config, cache: true, location: p.cache, version: '1', codeFingerprint: 'x' };
    // Let the copied files age past the racy window, then change one just before the first run:
    // that run hashes everything, the next one re-hashes only the file changed too recently.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    const readme = path.join(p.root, 'README.md');
    appendFileSync(readme, '\n');
    const first = await lintWithCache(base);
    expect(first.cache.hashed).toBeGreaterThan(1);
    const second = await lintWithCache(base);
    expect(second.cache.status).toBe('hit');
    expect(second.cache.hashed).toBe(1);
  });
});

describe('a cache hit after files were touched (issue #15: warm runs stay warm)', () => {
  it('stores the new stats of files whose content did not change, so the next run hashes nothing', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const base = { root: p.root, config, cache: true, location: p.cache, version: '1', codeFingerprint: 'x' };
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    const first = await lintWithCache(base);
    expect(first.cache.status).toBe('miss');
    // A checkout or `touch`: new times, same bytes (a doc and a Python file).
    const touched = ['README.md', 'nemo_gym/config_types.py'].map((f) => path.join(p.root, f));
    const past = new Date(Date.now() - 60_000);
    for (const file of touched) utimesSync(file, past, past);
    // Past the racy window of the ctime the touch set, so the new stats can be trusted.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    const second = await lintWithCache(base);
    expect([second.cache.status, second.cache.hashed, second.cache.written]).toEqual(['hit', 2, true]);
    expect(second.messages).toEqual(first.messages);
    const third = await lintWithCache(base);
    expect([third.cache.status, third.cache.hashed, third.cache.written]).toEqual(['hit', 0, false]);
    expect(third.messages).toEqual(first.messages);
    expect(changedStoredDocuments(p.root, JSON.parse(readFileSync(path.join(p.cache, readdirSync(p.cache).find((f) => f.startsWith('run-'))!), 'utf8')).files, config.docs).length > 0).toBe(false);
  });
});

/** The per-file cache figures of a `--debug` run: pieces reused and computed. */
function pieceCounts(stderr: string): { reused: number; computed: number } | undefined {
  const m = /per-file cache (\d+) reused, (\d+) computed/.exec(stderr);
  return m ? { reused: Number(m[1]), computed: Number(m[2]) } : undefined;
}

describe('runs that read the model (--summary, --changed-since, code paths)', () => {
  it('reuse the per-file cache instead of running cold, with output identical to a cold run', async () => {
    const p = project();
    expect((await warm(p)).status).toBe('miss');
    // pre-commit passes the staged files; a code path makes the run read the model.
    const paths = ['nemo_gym/rollout_collection.py', 'README.md'];
    for (const args of [paths, ['--summary', path.join(p.cache, '..', 'summary.md')]]) {
      const w = await warm(p, args);
      // The stored run result has no model: not used, but every file comes from the per-file cache.
      expect(w.status).toBe('miss');
      expect(w.stderr).toContain('the stored result was not used');
      const counts = pieceCounts(w.stderr);
      expect(counts?.computed).toBe(0);
      expect(counts?.reused).toBeGreaterThan(0);
      const c = await cold(p, args);
      expect(w.stdout).toBe(c.stdout);
      expect(w.code).toBe(c.code);
    }
    // After a Python edit the run re-parses that file only, and still equals a cold run.
    const file = path.join(p.root, 'nemo_gym/rollout_collection.py');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n# edited\n`);
    const edited = await warm(p, paths);
    expect(pieceCounts(edited.stderr)?.computed).toBeGreaterThan(0);
    expect(edited.stdout).toBe((await cold(p, paths)).stdout);
  });

  it('lintWithCache with needModel returns the model even when the stored result matches', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const base = { root: p.root, config, cache: true, location: p.cache, version: '1.0.0', codeFingerprint: 'a' };
    await lintWithCache(base);
    expect((await lintWithCache(base)).model).toBeUndefined();
    const withModel = await lintWithCache({ ...base, needModel: true });
    expect(withModel.cache.status).toBe('miss');
    expect(withModel.model?.commands.length).toBeGreaterThan(0);
    expect(withModel.cache.pieces?.misses).toBe(0);
  });
});

describe('a page over its parse budget and the per-file cache (built CLI)', () => {
  it('is stored with its outcome: a run after another page is edited does not parse it again, and reports it as before (s41 sweep D5)', () => {
    const root = copyToTemp(path.resolve(import.meta.dirname, '../fixtures/bad-input/_base'), 'docdrift-cache-overrun-');
    // One block quote that cannot be cut into pieces and parses ever slower (lazy setext lines): over its budget.
    writeFileSync(path.join(root, 'docs/hostile.md'), `# tool\n\n${'> a\n=\n'.repeat(60_000)}`);
    const run = () => spawnSync(process.execPath, [CLI_BIN, '--debug', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const notRead = (stdout: string) => (JSON.parse(stdout) as { results: Array<{ file: string; message: string }> }).results.filter((r) => r.file === 'docs/hostile.md' && r.message.startsWith('Not read:'));
    const first = run();
    expect(notRead(first.stdout)).toHaveLength(1);
    appendFileSync(path.join(root, 'README.md'), '\nAn edited line.\n');
    const second = run();
    // The README alone is parsed again; the hostile page's outcome comes from the cache.
    expect(pieceCounts(second.stderr)).toMatchObject({ computed: 1 });
    expect(notRead(second.stdout)).toEqual(notRead(first.stdout));
    // Its text changed: parsed again (short now, and read).
    writeFileSync(path.join(root, 'docs/hostile.md'), '# tool\n\nA short page.\n');
    expect(notRead(run().stdout)).toEqual([]);
  }, 120_000);
});

describe('--fix and the per-file cache', () => {
  it('reuses the pieces of the run before and stores those of the fixed texts, with the result of a --no-cache fix', async () => {
    const p = project();
    const twin = project();
    const config = JSON.stringify({ rules: { 'reference-param-unknown': ['error', { fixRemove: true }] } });
    for (const q of [p, twin]) writeFileSync(path.join(q.root, 'docdrift.config.json'), config);
    expect((await warm(p)).status).toBe('miss');
    // The documents' pieces, all shards (`-docs-0.bin` … `-docs-f.bin`) in name order, as one buffer.
    const docsSegment = () => Buffer.concat(readdirSync(p.cache).filter((f) => /^pieces-.*-docs-[0-9a-f]\.bin$/.test(f)).sort().map((f) => readFileSync(path.join(p.cache, f))));
    const before = docsSegment();
    expect(before.length).toBeGreaterThan(0);
    const fixed = await cli(p.root, ['--fix', '--format', 'json', '--cache-location', p.cache]);
    const plain = await cli(twin.root, ['--fix', '--format', 'json', '--no-cache']);
    expect(fixed.stdout).toBe(plain.stdout);
    expect(fixed.code).toBe(plain.code);
    const reference = 'docs/reference/cli-commands.mdx';
    expect(readFileSync(path.join(p.root, reference), 'utf8')).toBe(readFileSync(path.join(twin.root, reference), 'utf8'));
    expect(readFileSync(path.join(p.root, reference), 'utf8')).not.toBe(readFileSync(path.join(EXAMPLE, reference), 'utf8'));
    // The fix's passes parsed the edited page: its pieces were added to the store.
    expect(docsSegment().equals(before)).toBe(false);
    // And a plain run afterwards still equals a cold one, reusing the pieces of the files the fix
    // did not touch (they are keyed by content hash, the fix's passes by text: the fix kept them).
    const after = await warm(p);
    expect(after.stdout).toBe((await cold(p)).stdout);
    const counts = pieceCounts(after.stderr)!;
    expect(counts.reused).toBeGreaterThan(counts.computed);
  });
});

describe('the run cache and JavaScript programs', () => {
  it('recomputes when the JavaScript a package.json bin runs changes (its flags are read from it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-cache-js-'));
    temps.push(dir);
    const p = { root: path.join(dir, 'project'), cache: path.join(dir, 'cache') };
    cpSync(path.resolve(import.meta.dirname, '../fixtures/frameworks/yargs-parser-js/valid'), p.root, { recursive: true });
    const before = await warm(p);
    expect(before.status).toBe('miss');
    // `--immutable` is no longer a flag: its documented row goes stale.
    const flags = path.join(p.root, 'lib/flags.js');
    writeFileSync(flags, readFileSync(flags, 'utf8').replace("'immutable', ", ''));
    const after = await expectRecomputed(p);
    expect(after).not.toBe(before.stdout);
    expect(ids(after).some((i) => i.endsWith('immutable'))).toBe(true);
  });
});

describe('the per-file cache (issue #15)', () => {
  it('re-parses only the edited document, the edited Python file, or the edited reference page, each time identical to a cold run', async () => {
    const p = project();
    const first = await warm(p);
    expect(pieceCounts(first.stderr)).toMatchObject({ reused: 0 });
    const total = pieceCounts(first.stderr)!.computed;
    expect(total).toBeGreaterThan(5);
    const edits: Array<[string, (t: string) => string]> = [
      ['benchmarks/gpqa/README.md', (t) => t.replace('+num_repeat=4', '+num_repeats=4')],
      ['docs/reference/cli-commands.mdx', (t) => t.replace('| `dry_run` | bool |', '| `dry_runs` | bool |')],
      ['nemo_gym/e2e.py', (t) => `${t}\n# an edit\n`],
    ];
    const counts: Array<{ reused: number; computed: number }> = [];
    for (const [file, edit] of edits) {
      const abs = path.join(p.root, file);
      writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
      const w = await warm(p);
      expect(w.status).toBe('miss');
      counts.push(pieceCounts(w.stderr)!);
      const c = await cold(p);
      expect(w.stdout, file).toBe(c.stdout);
      expect(w.code).toBe(c.code);
    }
    // A document edit parses that document only, and reads the code as one piece (the whole
    // extraction): fewer pieces than the first run stored, none of them a Python file's.
    const [readme, reference, python] = counts as [typeof counts[0], typeof counts[0], typeof counts[0]];
    expect(readme.computed).toBe(1);
    expect(reference.computed).toBe(1);
    expect(readme.reused).toBeLessThan(total - 1);
    expect(reference.reused).toBe(readme.reused);
    // A Python edit, two runs later: that file's scan, the flags that resolve across the files and
    // the whole extraction are computed; every other file's scan was kept through the document-only
    // runs and is reused.
    expect(python.computed).toBeGreaterThanOrEqual(2);
    expect(python.computed).toBeLessThanOrEqual(3);
    expect(python.reused + python.computed).toBeGreaterThan(readme.reused + readme.computed);
    // The renamed global row no longer documents `dry_run`: the reference edit was seen.
    expect(ids((await cold(p)).stdout)).toContain('docs/reference/cli-commands.mdx:23 reference-param-missing dry_run');
  });

  it('recomputes cross-file facts when only the other file changes: a base class in another module, an import, a link target', async () => {
    const p = project();
    await warm(p);
    // The base class gains a field: its subclasses in other (unchanged) modules inherit it.
    const base = path.join(p.root, 'nemo_gym/config_types.py');
    writeFileSync(base, readFileSync(base, 'utf8').replace('    dry_run: bool', '    num_repeat: int = Field(default=1, description="x")\n    dry_run: bool'));
    const inherited = await expectRecomputed(p);
    expect(ids(inherited)).not.toContain('benchmarks/gpqa/README.md:9 example-param-unknown num_repeat');
    // The import now names a module that does not define the class: the subclass loses its base's fields.
    const sub = path.join(p.root, 'nemo_gym/rollout_collection.py');
    writeFileSync(sub, readFileSync(sub, 'utf8').replace('from nemo_gym.config_types import BaseNeMoGymCLIConfig', 'from nemo_gym.global_config import BaseNeMoGymCLIConfig'));
    await expectRecomputed(p);
    // A linked page's headings change (link targets resolve across documents).
    const ref = path.join(p.root, 'docs/reference/cli-commands.mdx');
    writeFileSync(ref, readFileSync(ref, 'utf8').replace('### `ng_collect_rollouts` / `nemo_gym_collect_rollouts`', '### Collect rollouts'));
    await expectRecomputed(p);
  });

  it('after a document edit, neither reads nor rewrites the per-source pieces; after a Python edit, rewrites them', async () => {
    const p = project();
    await warm(p);
    const sources = readdirSync(p.cache).filter((f) => /-sources-[0-9a-f]\.bin$/.test(f)).sort().map((f) => path.join(p.cache, f));
    expect(sources.length).toBeGreaterThan(1);
    const stamps = () => sources.map((f) => (existsSync(f) ? `${statSync(f).ino}:${statSync(f).mtimeMs}` : 'gone'));
    const before = stamps();
    const bytes = sources.map((f) => readFileSync(f));
    appendFileSync(path.join(p.root, 'README.md'), '\nMore text.\n');
    const docEdit = await warm(p);
    expect(docEdit.status).toBe('miss');
    expect(stamps()).toEqual(before);
    expect(sources.every((f, i) => readFileSync(f).equals(bytes[i]!))).toBe(true);
    appendFileSync(path.join(p.root, 'nemo_gym/e2e.py'), '\n# an edit\n');
    const pyEdit = await warm(p);
    expect(pyEdit.status).toBe('miss');
    // Only the shards holding the edited file's old and new pieces are written again, not every one.
    const rewritten = stamps().filter((stamp, i) => stamp !== before[i]).length;
    expect(rewritten).toBeGreaterThan(0);
    expect(rewritten).toBeLessThan(sources.length);
    expect((await cold(p)).stdout).toBe(pyEdit.stdout);
  });

  it('handles renamed and deleted files (their pieces are dropped from the store)', async () => {
    const p = project();
    await warm(p);
    renameSync(path.join(p.root, 'benchmarks/gpqa/README.md'), path.join(p.root, 'benchmarks/gpqa/USAGE.md'));
    const renamed = await expectRecomputed(p);
    expect(ids(renamed).some((i) => i.startsWith('benchmarks/gpqa/USAGE.md'))).toBe(true);
    renameSync(path.join(p.root, 'nemo_gym/e2e.py'), path.join(p.root, 'nemo_gym/end_to_end.py'));
    await expectRecomputed(p);
    rmSync(path.join(p.root, 'nemo_gym/config_types.py'));
    await expectRecomputed(p);
    // One store (the whole extraction, and shards of per-source pieces and of documents), no leftovers.
    const store = readdirSync(p.cache).filter((f) => f.startsWith('pieces-')).sort();
    expect(store.filter((f) => f.endsWith('-whole.bin'))).toHaveLength(1);
    expect(store.some((f) => /-docs-[0-9a-f]\.bin$/.test(f)) && store.some((f) => /-sources-[0-9a-f]\.bin$/.test(f))).toBe(true);
    expect(new Set(store.map((f) => /^pieces-([0-9a-f]{16})-(?:docs-[0-9a-f]|sources-[0-9a-f]|whole)\.bin$/.exec(f)?.[1])).size).toBe(1);
    expect(store.every((f) => /^pieces-[0-9a-f]{16}-(?:docs-[0-9a-f]|sources-[0-9a-f]|whole)\.bin$/.test(f))).toBe(true);
  });

  it('ignores a tampered, truncated or foreign per-file cache (the cold path), never crashing', async () => {
    const p = project();
    const truth = await cold(p);
    await warm(p);
    const files = readdirSync(p.cache).filter((f) => f.startsWith('pieces-')).map((name) => path.join(p.cache, name));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const good = new Map(files.map((file) => [file, readFileSync(file)]));
    const damages: Array<(bytes: Buffer) => Buffer> = [
      (bytes) => {
        const flipped = Buffer.from(bytes);
        flipped[flipped.length - 10] = flipped[flipped.length - 10]! ^ 0xff;
        return flipped;
      },
      (bytes) => bytes.subarray(0, 20),
      () => Buffer.from('garbage'),
      () => Buffer.alloc(0),
    ];
    for (const damage of damages) {
      for (const file of files) writeFileSync(file, damage(good.get(file)!));
      // A doc edit and back, so the run cache misses and the pieces are consulted.
      const readme = path.join(p.root, 'README.md');
      appendFileSync(readme, '\n');
      const w = await warm(p);
      expect(w.status).toBe('miss');
      expect(pieceCounts(w.stderr)).toMatchObject({ reused: 0 });
      writeFileSync(readme, readFileSync(readme, 'utf8').replace(/\n$/, ''));
      const again = await warm(p);
      const c = await cold(p);
      expect(again.stdout).toBe(c.stdout);
      expect(again.code).toBe(truth.code);
    }
  });
});

describe('a large README parsed in segments (issue #15: an edit re-parses only its section)', () => {
  it('keeps the output of runs after edits anywhere in a > 32 KB README equal to runs without the cache', async () => {
    const p = project();
    const readme = path.join(p.root, 'README.md');
    const sections = Array.from({ length: 180 }, (_, i) =>
      `\n## Recipe ${i}\n\nRun it with a setting of its own:\n\n\`\`\`bash\nuv run ng_collect_rollouts +agent_name=simple_agent +limit=${i}${i % 10 === 3 ? ` +recipe_${i}_typo=1` : ''}\n\`\`\`\n\nSee the [CLI reference](docs/reference/cli-commands.mdx).\n`,
    ).join('');
    writeFileSync(readme, readFileSync(readme, 'utf8') + sections);
    expect(readFileSync(readme, 'utf8').length).toBeGreaterThan(32 * 1024);
    expect((await warm(p)).status).toBe('miss');
    const edits: Array<(text: string) => string> = [
      (t) => `${t}\nOne more line at the end.\n`,
      // A line inserted early moves every finding after it.
      (t) => t.replace('## Recipe 5\n', '## Recipe 5\n\nA new paragraph.\n'),
      // A new wrong parameter in the middle; another section removed.
      (t) => t.replace('+limit=60\n', '+limit=60 +made_up_flag=1\n').replace(/\n## Recipe 90\n[\s\S]*?(?=\n## Recipe 91\n)/, ''),
      // The code fence of a section left open: the rest of the page is code.
      (t) => t.replace('+limit=100\n```', '+limit=100\n'),
    ];
    for (const change of edits) {
      writeFileSync(readme, change(readFileSync(readme, 'utf8')));
      const w = await warm(p);
      expect(w.status).toBe('miss');
      const c = await cold(p);
      expect(w.stdout).toBe(c.stdout);
      expect(w.code).toBe(c.code);
    }
  });
});

describe('a cache a pull request controls (#17 item 5)', () => {
  /** Runs `fn` as on another machine: a fresh, empty user cache directory (so another signing key). */
  async function onMachine<T>(fn: () => Promise<T>): Promise<T> {
    const home = mkdtempSync(path.join(tmpdir(), 'docdrift-home-'));
    temps.push(home);
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = home;
    try {
      return await fn();
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  }

  it('never serves an edited or foreign cache entry: the exit code stays that of --no-cache', async () => {
    const p = project();
    const truth = await cold(p);
    expect(truth.code).toBe(1);
    // A run on the attacker's machine writes a valid entry; it is then edited to say "all clear"
    // and committed: on CI (another machine) it must not be read.
    await onMachine(() => warm(p));
    // The stored findings live in the result file beside the cache file (read on a hit only).
    const [name] = readdirSync(p.cache).filter((f) => f.startsWith('result-'));
    const file = path.join(p.cache, name!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { result: { messages: unknown[] } };
    entry.result.messages = [];
    writeFileSync(file, JSON.stringify(entry));
    const ci = await onMachine(() => warm(p));
    expect(ci.status).toBe('miss');
    expect(ci.stderr).toMatch(/not written by docdrift on this machine/);
    expect(JSON.parse(readFileSync(file, 'utf8')).result.messages.length).toBeGreaterThan(0);
    expect(ci.code).toBe(1);
    expect(ci.stdout).toBe(truth.stdout);
    // The same edit on the machine that wrote the entry is refused too (the signature covers the result).
    const local = await onMachine(async () => {
      await warm(p);
      const e = JSON.parse(readFileSync(file, 'utf8')) as { result: { messages: unknown[] } };
      e.result.messages = [];
      writeFileSync(file, JSON.stringify(e));
      return warm(p);
    });
    expect(local.status).toBe('miss');
    expect(local.code).toBe(1);
  });

  it('keeps the signing key outside the project, mode 0600', async () => {
    const p = project();
    await onMachine(async () => {
      await warm(p);
      const keyFile = path.join(process.env.XDG_CACHE_HOME!, 'docdrift', 'cache-key');
      expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect((await warm(p)).status).toBe('hit');
    });
  });

  it('keeps the findings in a result file read only on a hit, tied to the cache file by its key', async () => {
    const p = project();
    const first = await warm(p);
    const names = readdirSync(p.cache);
    const run = names.find((f) => /^run-[0-9a-f]{16}\.json$/.test(f))!;
    const result = names.find((f) => /^result-[0-9a-f]{16}\.json$/.test(f))!;
    expect(run.slice(4)).toBe(result.slice(7));
    expect(JSON.parse(readFileSync(path.join(p.cache, run), 'utf8'))).not.toHaveProperty('result');
    expect((await warm(p)).status).toBe('hit');
    // A result file of another run (validly signed on this machine, its key differs) is not used:
    // the run recomputes, with the output of a run without the cache.
    const other = project();
    await warm(other);
    const otherResult = readdirSync(other.cache).find((f) => f.startsWith('result-'))!;
    const swapped = path.join(p.cache, result);
    cpSync(path.join(other.cache, otherResult), swapped);
    const mismatch = await warm(p);
    expect(mismatch.status).toBe('miss');
    expect(mismatch.stderr).toMatch(/belongs to another run/);
    expect(mismatch.stdout).toBe((await cold(p)).stdout);
    expect((await warm(p)).status).toBe('hit');
    // A result file that cannot be written (a directory in its place): every run misses, but
    // the per-file cache is still written, so the next run parses nothing again.
    rmSync(swapped);
    mkdirSync(swapped);
    const blocked = await warm(p);
    expect(blocked.status).toBe('miss');
    expect(blocked.stderr).toMatch(/cannot write the cache's result file/);
    const next = await warm(p);
    expect(next.status).toBe('miss');
    expect(next.stderr).toMatch(/per-file cache \d+ reused, 0 computed/);
    expect(next.stdout).toBe(mismatch.stdout);
    rmSync(swapped, { recursive: true });
    await warm(p);
    // A missing result file: a miss, recomputed and written again.
    rmSync(swapped);
    const missing = await warm(p);
    expect(missing.status).toBe('miss');
    expect(missing.stderr).toMatch(/result file/);
    expect((await warm(p)).status).toBe('hit');
  });

  it('writes the result file streamed and signed (a hit reads it back), and stores no result larger than a run reads (#33 s31 D6)', async () => {
    const p = project();
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const opts = { root: p.root, config, cache: true, location: p.cache, version: '1.0.0', codeFingerprint: 'a' };
    const first = await lintWithCache(opts);
    expect(first.messages.length).toBeGreaterThan(0);
    const resultName = readdirSync(p.cache).find((f) => f.startsWith('result-'))!;
    const text = readFileSync(path.join(p.cache, resultName), 'utf8');
    // One JSON document, `mac` first (the placeholder replaced), the findings as serialiseMessage gives them.
    expect(text).toMatch(/^\{"mac":"[0-9a-f]{64}",/);
    expect(text).not.toMatch(/^\{"mac":"0{64}"/);
    const parsed = JSON.parse(text) as { key: string; result: { messages: unknown[] } };
    expect(parsed.result.messages).toEqual(first.messages.map(serialiseMessage));
    const hit = await lintWithCache(opts);
    expect(hit.cache.status).toBe('hit');
    const plain = (ms: object[]) => ms.map((m) => ({ ...m, stack: undefined }));
    expect(plain(hit.messages)).toEqual(plain(first.messages));
    // A result over the limit is not stored (the older one is removed, no temporary file is
    // left), the run says so, and the next run computes the same findings from the per-file cache.
    const small = { ...opts, codeFingerprint: 'b', resultLimitBytes: 2000 };
    const big = await lintWithCache(small);
    expect(big.cache.status).toBe('miss');
    expect(big.cache.written).toBe(true);
    expect(big.cache.note).toMatch(/result file was not written: the result is over 0\.00191 MiB \(\d+ findings\)/);
    expect(readdirSync(p.cache).filter((f) => f.startsWith('result-') || f.endsWith('.tmp'))).toEqual([]);
    const next = await lintWithCache(small);
    expect(next.cache.status).toBe('miss');
    expect(next.cache.pieces?.misses).toBe(0);
    expect(plain(next.messages)).toEqual(plain(first.messages));
  });

  it('treats a cache entry that is a symbolic link to /dev/zero, or a FIFO, as unreadable (#17 item 7)', async () => {
    const p = project();
    const [name] = (await warm(p), readdirSync(p.cache).filter((f) => f.startsWith('run-')));
    const file = path.join(p.cache, name!);
    rmSync(file);
    symlinkSync('/dev/zero', file);
    const started = Date.now();
    const w = await warm(p);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(w.status).toBe('miss');
    expect(w.stderr).toMatch(/cannot read the cache file \(ENOTREG/);
    rmSync(file, { force: true });
    execFileSync('mkfifo', [file]);
    const f = await warm(p);
    expect(f.status).toBe('miss');
    expect(f.stderr).toMatch(/cannot read the cache file \(ENOTREG/);
  });
});

describe('the cache writes only inside the project (issues #17, #18)', () => {
  it('never follows a committed .docdrift-cache symlink that leads out of the project: the run goes on without the cache, naming it, and writes nothing there', async () => {
    const p = project();
    const outside = mkdtempSync(path.join(tmpdir(), 'docdrift-outside-'));
    temps.push(outside);
    writeFileSync(path.join(outside, '.gitignore'), 'precious\n');
    symlinkSync(outside, path.join(p.root, '.docdrift-cache'));
    expect(defaultCacheLocation(p.root)).toBe(path.join(p.root, '.docdrift-cache'));
    const r = await cli(p.root, ['--format', 'json']);
    // Exit 2 before s25 (sweep O1): one committed link failed every run of everyone.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('docdrift: cache not used: .docdrift-cache is a symlink');
    expect(readdirSync(outside)).toEqual(['.gitignore']);
    expect(readFileSync(path.join(outside, '.gitignore'), 'utf8')).toBe('precious\n');
    expect(lstatSync(path.join(p.root, '.docdrift-cache')).isSymbolicLink()).toBe(true);
    // Without the cache the run is as usual.
    expect((await cli(p.root, ['--format', 'json', '--no-cache'])).code).toBe(1);
  });

  it('runs without the cache, and says so, when the cache path cannot be checked (EACCES, ENAMETOOLONG): not exit 2', async () => {
    // A cache directory the user may not read (chmod 000, non-root) fails lstat with EACCES; root
    // reads everything, so the test uses a name over NAME_MAX (255), which fails lstat as well.
    const p = project();
    const unreadable = path.join(p.root, 'c'.repeat(300));
    const r = await cli(p.root, ['--format', 'json', '--cache-location', unreadable]);
    const c = await cold(p);
    expect(r.code).toBe(c.code);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(c.stdout);
    expect(r.stderr).toContain(`docdrift: cache not used: the cache directory ${unreadable} cannot be read (ENAMETOOLONG); this run parsed every file.`);
    expect(c.stderr).not.toContain('cache not used');
    // --debug says it once, in its cache line.
    const d = await cli(p.root, ['--format', 'json', '--cache-location', unreadable, '--debug']);
    expect(d.stdout).toBe(c.stdout);
    expect(d.stderr.match(/cannot be read \(ENAMETOOLONG\)/g)).toHaveLength(1);
  });

  it('removes the temporary files a killed run left in the cache directory', async () => {
    const p = project();
    mkdirSync(p.cache, { recursive: true });
    // pid 2^22+1 is above Linux's pid_max: no process has it.
    const stale = ['run-0123456789abcdef.json.4194305.k3j4.tmp', '.run-0123456789abcdef.json.docdrift-4194305-ab12.tmp'];
    for (const name of stale) writeFileSync(path.join(p.cache, name), 'x'.repeat(1000));
    const w = await warm(p);
    expect(w.status).toBe('miss');
    expect(readdirSync(p.cache).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('changedStoredDocuments (starting the document worker before discovery)', () => {
  afterAll(removeTempDirs);
  /** The stored stats of `files`, as hashFiles records them. */
  const entriesOf = (root: string, files: string[]) =>
    Object.fromEntries(
      files.map((f) => {
        const s = statSync(path.join(root, f));
        return [f, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, hashedAt: Date.now(), hash: 'x' }];
      }),
    );

  it('is true only when a stored document matching the doc globs changed or is gone', () => {
    const root = tempProject({ 'README.md': '# a\n', 'docs/guide.mdx': '# b\n', 'pkg/mod.py': 'x = 1\n' });
    const entries = entriesOf(root, ['README.md', 'docs/guide.mdx', 'pkg/mod.py']);
    const globs = ['**/*.md', '**/*.mdx', '!**/node_modules/**'];
    expect(changedStoredDocuments(root, entries, globs).length > 0).toBe(false);
    // A code file is not a document: its change does not start the worker.
    appendFileSync(path.join(root, 'pkg/mod.py'), 'y = 2\n');
    expect(changedStoredDocuments(root, entries, globs).length > 0).toBe(false);
    appendFileSync(path.join(root, 'docs/guide.mdx'), 'More.\n');
    expect(changedStoredDocuments(root, entries, globs).length > 0).toBe(true);
    expect(changedStoredDocuments(root, entriesOf(root, ['README.md', 'docs/guide.mdx']), globs).length > 0).toBe(false);
    rmSync(path.join(root, 'README.md'));
    expect(changedStoredDocuments(root, entriesOf(root, ['docs/guide.mdx']), globs).length > 0).toBe(false);
    expect(changedStoredDocuments(root, { ...entriesOf(root, ['docs/guide.mdx']), 'README.md': entries['README.md']! }, globs).length > 0).toBe(true);
  });
});

describe('prefetchEditedDocuments (an edited page is parsed while discovery runs)', () => {
  afterAll(removeTempDirs);
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
  /** Stored entries as hashFiles writes them: the stats now and the sha1 of `texts`' content. */
  const stored = (root: string, texts: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(texts).map(([f, text]) => {
        const s = statSync(path.join(root, f));
        return [f, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, hashedAt: Date.now(), hash: sha1(text) }];
      }),
    );
  const recorder = () => {
    const sent: Array<{ file: string; text: string; what: { doc: boolean; directives: boolean } }> = [];
    const parser: DocParser = { parse: () => { throw new Error('not asked'); }, prefetch: (file, text, what) => void sent.push({ file, text, what }), close: () => {} };
    return { sent, parser };
  };

  it('sends only stored documents whose content changed, with their new text, and skips touched, deleted and unreadable ones', () => {
    const texts = { 'README.md': '# a\n', 'docs/touched.md': '# b\n', 'docs/gone.md': '# c\n', 'docs/dir.md': '# d\n', 'docs/guide.mdx': '# e\n' };
    const root = tempProject(texts);
    const entries = stored(root, texts);
    const globs = ['**/*.md', '**/*.mdx'];
    appendFileSync(path.join(root, 'README.md'), 'Run `tool --port 1`.\n<!-- docdrift-disable-next-line -->\n');
    const touched = new Date(Date.now() + 5000);
    utimesSync(path.join(root, 'docs/touched.md'), touched, touched);
    rmSync(path.join(root, 'docs/gone.md'));
    rmSync(path.join(root, 'docs/dir.md'));
    mkdirSync(path.join(root, 'docs/dir.md'));
    const changed = changedStoredDocuments(root, entries, globs);
    expect(changed.sort()).toEqual(['README.md', 'docs/dir.md', 'docs/gone.md', 'docs/touched.md']);
    const { sent, parser } = recorder();
    expect(prefetchEditedDocuments(root, parser, changed, entries)).toEqual(['README.md']);
    expect(sent).toEqual([{ file: 'README.md', text: readFileSync(path.join(root, 'README.md'), 'utf8'), what: { doc: true, directives: true } }]);
  });

  it(`sends at most ${EARLY_PREFETCH_LIMIT} (a checkout that edits many pages is left to the run), and nothing to a parser without prefetch`, () => {
    const texts = Object.fromEntries(Array.from({ length: EARLY_PREFETCH_LIMIT + 3 }, (_, i) => [`docs/p${i}.md`, `# p${i}\n`]));
    const root = tempProject(texts);
    const entries = stored(root, texts);
    for (const f of Object.keys(texts)) appendFileSync(path.join(root, f), 'Edited.\n');
    const changed = changedStoredDocuments(root, entries, ['**/*.md']);
    expect(changed).toHaveLength(EARLY_PREFETCH_LIMIT + 3);
    const { sent, parser } = recorder();
    expect(prefetchEditedDocuments(root, parser, changed, entries)).toHaveLength(EARLY_PREFETCH_LIMIT);
    expect(sent.every((r) => r.what.doc && !r.what.directives && r.text.endsWith('Edited.\n'))).toBe(true);
    expect(prefetchEditedDocuments(root, { parse: parser.parse, close: () => {} }, changed, entries)).toEqual([]);
  });

  it('keeps the output of a run after a README edit equal to a run without the cache', async () => {
    const p = project();
    await cli(p.root, ['--cache-location', p.cache, '--format', 'json']);
    appendFileSync(path.join(p.root, 'README.md'), '\n```bash\nng_collect_rollouts +resume_from_cache=True +bogus_flag=1\n```\n');
    const incremental = await cli(p.root, ['--cache-location', p.cache, '--format', 'json']);
    const cold = await cli(p.root, ['--no-cache', '--format', 'json']);
    expect(incremental.stdout).toBe(cold.stdout);
    expect(incremental.code).toBe(cold.code);
    expect(incremental.stdout).toContain('bogus_flag');
  });
});

describe('Python files the run cache hashed (issue #15: avoid re-reading files already hashed)', () => {
  afterAll(removeTempDirs);

  it('are read again only when changed: the scans, flags and text facts of the others come from the hashes', async () => {
    const root = tempProject({
      'pyproject.toml': '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\nrun-it = "tool.run:main"\n',
      'tool/__init__.py': '',
      'tool/cli.py': 'from dataclasses import dataclass\nfrom omegaconf import DictConfig\n\n@dataclass\nclass ToolConfig:\n    seed: int = 1\n\ndef main(cfg: DictConfig) -> None:\n    ToolConfig(**cfg)\n',
      'tool/run.py': 'import argparse\n\ndef main() -> None:\n    p = argparse.ArgumentParser()\n    p.add_argument("--port", type=int, default=80)\n    p.parse_args()\n\nif __name__ == "__main__":\n    main()\n',
      'tool/util.py': 'def helper(x: int = 2) -> int:\n    return x\n',
      'README.md': '# tool\n\n## `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | Seed. |\n',
    });
    const { discoverFiles } = await import('../src/engine/discover.js');
    const { extractCode } = await import('../src/engine/lint.js');
    const { MemoryPieceStore } = await import('../src/engine/pieces.js');
    const { FactCache } = await import('../src/engine/facts.js');
    const { createHash } = await import('node:crypto');
    const { pythonTextFacts } = await import('../src/extract/python/text-facts.js');
    const { DEFAULT_CONFIG } = await import('../src/config/schema.js');
    const files = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, DEFAULT_CONFIG.ignore);
    const pieces = new MemoryPieceStore();
    /** Extracts as a cached run does: hashes and text facts from the bytes on disk; returns the facts and the .py files read. */
    const run = async () => {
      const hashes = new Map<string, string>();
      const pythonFacts = new Map<string, ReturnType<typeof pythonTextFacts>>();
      for (const file of [...files.sources, ...files.packaging]) {
        const bytes = readFileSync(path.join(root, file));
        hashes.set(file, createHash('sha1').update(bytes).digest('hex'));
        if (file.endsWith('.py')) pythonFacts.set(file, pythonTextFacts(bytes.toString('utf8')));
      }
      const readPy: string[] = [];
      const read = (file: string) => {
        if (file.endsWith('.py')) readPy.push(file);
        return readFileSync(path.join(root, file), 'utf8');
      };
      const diagnostics: unknown[] = [];
      const facts = await extractCode(files, DEFAULT_CONFIG, read, diagnostics as never, new FactCache({ store: pieces, hashes, pythonFacts }), { root, overlay: undefined, peek: read });
      const { canonicalTarget: _, ...plain } = facts;
      return { facts: plain, readPy: readPy.sort() };
    };
    const cold = await run();
    expect(cold.readPy).toEqual(['tool/__init__.py', 'tool/cli.py', 'tool/run.py', 'tool/util.py']);
    expect(cold.facts.runnableScripts).toEqual(new Set(['tool/run.py']));
    // tool/cli.py imports omegaconf: the Hydra global parameters apply (found through the text facts).
    const { effectiveGlobalParameters } = await import('../src/engine/lint.js');
    expect(cold.facts.globalParameters).toEqual(effectiveGlobalParameters(DEFAULT_CONFIG.globalParameters, [{ text: 'from omegaconf import DictConfig\n' }]));
    expect(cold.facts.globalParameters).not.toEqual(effectiveGlobalParameters(DEFAULT_CONFIG.globalParameters, [{ text: '' }]));
    expect(cold.facts.flagCommands.map((f) => f.params.map((p) => p.name))).toEqual([['port']]);
    // Unchanged: nothing is read.
    expect((await run()).readPy).toEqual([]);
    // One file changed: only it is read, and the facts equal a run without the store.
    appendFileSync(path.join(root, 'tool/util.py'), '\n# changed\n');
    const warm = await run();
    expect(warm.readPy).toEqual(['tool/util.py']);
    const fresh = await extractCode(files, DEFAULT_CONFIG, (file) => readFileSync(path.join(root, file), 'utf8'), [], undefined);
    const { canonicalTarget: _c, ...plainFresh } = fresh;
    expect(warm.facts).toEqual(plainFresh);
  });
});

describe('documents the run cache hashed (issue #15: an edit to one page reads that page only)', () => {
  afterAll(removeTempDirs);

  it('are read again only when changed: which pages name a command, their parses and their suppression comments come from the hashes', async () => {
    const root = tempProject({
      'pyproject.toml': '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\n',
      'tool/__init__.py': '',
      'tool/cli.py': 'import argparse\n\ndef main() -> None:\n    p = argparse.ArgumentParser()\n    p.add_argument("--seed", type=int, default=1)\n    p.add_argument("--port", type=int, default=80)\n    p.parse_args()\n',
      'README.md': '# tool\n\nSee [the guide](docs/guide.md).\n\n## `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | Seed. |\n',
      'docs/guide.md': '# Guide\n\n```bash\ntool --seed 2 --colour red\n```\n',
      'docs/other.md': '# Other\n\nNothing to see.\n',
      'docs/quiet.md': '# Quiet\n\n<!-- docdrift-disable example-param-unknown -->\n```bash\ntool --shade 3\n```\n',
    });
    const { discoverFiles } = await import('../src/engine/discover.js');
    const { MemoryPieceStore } = await import('../src/engine/pieces.js');
    const { DEFAULT_CONFIG } = await import('../src/config/schema.js');
    const { rules } = await import('../src/api.js');
    const pieces = new MemoryPieceStore();
    const findings = (r: Awaited<ReturnType<typeof lint>>) => [...r.messages, ...r.suppressed].map((m) => `${m.file}:${m.line} ${m.ruleId}${m.data.name ? ` ${m.data.name}` : ''}`);
    /** Lints as a cached run does (hashes of the bytes on disk, the store); returns the findings and the pages read. */
    const run = async () => {
      const discovered = await discoverFiles(root, DEFAULT_CONFIG.sources, DEFAULT_CONFIG.docs, DEFAULT_CONFIG.ignore);
      const hashes = new Map<string, string>();
      for (const file of [...discovered.docs, ...discovered.sources, ...discovered.packaging]) {
        hashes.set(file, createHash('sha1').update(readFileSync(path.join(root, file))).digest('hex'));
      }
      const readFiles = new Set<string>();
      const result = await lint({ root, config: DEFAULT_CONFIG, rules, discovered, pieces, hashes, readFiles });
      return { findings: findings(result), read: [...readFiles].filter((f) => f.endsWith('.md')).sort() };
    };
    const truth = async () => findings(await lint({ root, config: DEFAULT_CONFIG, rules }));
    const first = await run();
    expect(first.read).toEqual(['README.md', 'docs/guide.md', 'docs/other.md', 'docs/quiet.md']);
    expect(first.findings).toEqual(await truth());
    expect(first.findings).toContain('docs/guide.md:4 example-param-unknown colour');
    // Suppressed by the page's comment, which the run must have read (or found stored) to apply.
    expect(first.findings).toContain('docs/quiet.md:5 example-param-unknown shade');
    expect(first.findings.filter((f) => f.startsWith('docs/quiet.md'))).toHaveLength(1);
    // Unchanged: no page is read but README.md, whose text the fix of its reference-param-missing
    // finding is computed from; the findings (a suppressed one among them) are the same.
    const again = await run();
    expect(again.read).toEqual(['README.md']);
    expect(again.findings).toEqual(first.findings);
    // A page that named no command now does: it alone is read, and parsed.
    appendFileSync(path.join(root, 'docs/other.md'), '\n```bash\ntool --sede 1\n```\n');
    const edited = await run();
    expect(edited.read).toEqual(['README.md', 'docs/other.md']);
    expect(edited.findings).toEqual(await truth());
    expect(edited.findings).toContain('docs/other.md:6 example-param-unknown sede');
    // A new command name (a new entry point) changes which pages name one: every page is judged again.
    writeFileSync(path.join(root, 'pyproject.toml'), '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\nother = "tool.cli:main"\n');
    const renamed = await run();
    expect(renamed.read).toEqual(['README.md', 'docs/guide.md', 'docs/other.md', 'docs/quiet.md']);
    expect(renamed.findings).toEqual(await truth());
  });
});

describe('a file that changes during a run (issue #15: the check after the run stats the files the run used)', () => {
  it('stores nothing when a page the run read changed, and stores when only a page it took from the per-file cache did', async () => {
    const p = project();
    writeFileSync(path.join(p.root, 'docs/notes.md'), '# Notes\n\nPlain prose that names no command.\n');
    const { config } = loadConfig(p.root, undefined, ruleIds);
    const { rules } = await import('../src/api.js');
    /** A rule that appends to `file` while the run is in its rule stage (after every read), once. */
    const editing = (file: string) => {
      let done = false;
      const rule: Rule = {
        meta: { id: 'test-edit-during-run', description: 'Edits a file mid-run.', defaultSeverity: 'warn', fixable: false, options: {}, messages: {} },
        check() {
          if (done) return;
          done = true;
          appendFileSync(path.join(p.root, file), '\nEdited during the run.\n');
        },
      };
      return rule;
    };
    const run = (extra: Rule[] = []) => lintWithCache({ root: p.root, config, cache: true, location: p.cache, version: '1.0.0', codeFingerprint: 'a', rules: [...rules, ...extra] });
    // Past the racy window, so that the next run trusts the stored hashes of the files it did not change.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    expect((await run()).cache.written).toBe(true);
    // README edited before the run: it is read; docs/notes.md comes from the stored facts.
    appendFileSync(path.join(p.root, 'README.md'), '\nMore words.\n');
    const unreadEdited = await run([editing('docs/notes.md')]);
    expect(unreadEdited.cache).toMatchObject({ status: 'miss', written: true });
    expect(unreadEdited.cache.note ?? '').not.toMatch(/changed during the run/);
    // The next run sees the new stat of docs/notes.md, hashes it, and equals a cold run.
    const next = await warm(p);
    expect(next.status).toBe('miss');
    expect(next.stdout).toBe((await cold(p)).stdout);
    // A page the run reads (edited before it) that changes again during it: nothing is stored.
    appendFileSync(path.join(p.root, 'README.md'), '\nEven more words.\n');
    const readEdited = await run([editing('README.md')]);
    expect(readEdited.cache).toMatchObject({ status: 'miss', written: false, note: 'not stored: an input file changed during the run' });
    const after = await warm(p);
    expect(after.status).toBe('miss');
    expect(after.stdout).toBe((await cold(p)).stdout);
    // A page the run read though its stored content hash was trusted (the reference page, hashed
    // two runs ago: its fixable finding's row is computed from its text) that changes during the
    // run: nothing is stored.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    appendFileSync(path.join(p.root, 'docs/notes.md'), '\nA new line.\n');
    const readUnhashed = await run([editing('docs/reference/cli-commands.mdx')]);
    expect(readUnhashed.cache).toMatchObject({ status: 'miss', written: false, note: 'not stored: an input file changed during the run' });
  });
});
