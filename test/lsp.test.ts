/**
 * `docdrift lsp` (issue #36, first slice) driven over stdio by a protocol client
 * (vscode-jsonrpc with vscode-languageserver-protocol's types), as an editor drives it: the bundled
 * bin, on a copy of fixtures/example-python. Needs `npm run build`.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { CodeAction, Diagnostic, Hover, Location, MarkupContent, PublishDiagnosticsParams, ShowMessageParams, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { applyEdits } from '../src/fix/apply.js';
import { CLI_BIN, contentCheckingGit, copyToTemp, removeTempDirs, tempDir } from './helpers.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../fixtures/example-python');
const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

afterAll(removeTempDirs);

/** A client session with the server: the connection, the latest diagnostics per URI, the messages shown. */
interface Session {
  connection: MessageConnection;
  child: ChildProcessWithoutNullStreams;
  root: string;
  uri: (file: string) => string;
  shown: ShowMessageParams[];
  /** The server's window/logMessage texts. */
  logs: string[];
  /** Every publishDiagnostics received, in order. */
  published: PublishDiagnosticsParams[];
  stderr: () => string;
  /** Resolves with the first diagnostics published for `file` (now or later) that `ok` accepts. */
  diagnostics: (file: string, ok: (d: PublishDiagnosticsParams) => boolean, timeoutMs?: number) => Promise<PublishDiagnosticsParams>;
  close: () => Promise<number | null>;
}

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) if (s.child.exitCode === null) s.child.kill();
});

async function start(root: string, env: NodeJS.ProcessEnv = process.env, initializationOptions?: unknown, bin = CLI_BIN, cwdGone = false): Promise<Session> {
  // Started elsewhere than the project: the root comes from `initialize`, not the cwd. The values
  // the server's piece store hands out again from lint to lint are frozen: a stage that writes
  // into a stored document or fact throws, an internal error, and the test misses its diagnostics.
  // `cwdGone`: started in a folder removed before the server starts (a shell left in it).
  const cwd = tempDir('docdrift-lsp-cwd-');
  const [command, args] = cwdGone ? ['sh', ['-c', 'cd "$0" && rmdir "$0" && exec "$1" "$2" lsp --stdio', cwd, process.execPath, bin]] : [process.execPath, [bin, 'lsp', '--stdio']];
  const child = spawn(command, args, { cwd, stdio: 'pipe', env: { DOCDRIFT_TEST_FREEZE_PIECES: '1', ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const latest = new Map<string, PublishDiagnosticsParams>();
  const waiters: Array<{ uri: string; ok: (d: PublishDiagnosticsParams) => boolean; resolve: (d: PublishDiagnosticsParams) => void }> = [];
  const shown: ShowMessageParams[] = [];
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
    latest.set(params.uri, params);
    for (const w of [...waiters]) {
      if (w.uri === params.uri && w.ok(params)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params);
      }
    }
  });
  connection.onNotification('window/showMessage', (params: ShowMessageParams) => {
    shown.push(params);
  });
  const logs: string[] = [];
  connection.onNotification('window/logMessage', (params: { message: string }) => {
    logs.push(params.message);
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const uri = (file: string): string => pathToFileURL(path.join(root, file)).href;
  const session: Session = {
    connection,
    child,
    root,
    uri,
    shown,
    logs,
    published,
    stderr: () => stderr,
    diagnostics: (file, ok, timeoutMs = 20_000) => {
      const known = latest.get(uri(file));
      if (known && ok(known)) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching diagnostics for ${file} within ${timeoutMs} ms; last: ${JSON.stringify(latest.get(uri(file)))}; stderr: ${stderr}`)), timeoutMs);
        waiters.push({ uri: uri(file), ok, resolve: (d) => (clearTimeout(timer), resolve(d)) });
      });
    },
    close: async () => {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    },
  };
  sessions.push(session);
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'example' }], capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }, ...(initializationOptions !== undefined ? { initializationOptions } : {}) });
  await connection.sendNotification('initialized', {});
  return session;
}

function open(s: Session, file: string, text = readFileSync(path.join(s.root, file), 'utf8'), languageId = 'markdown'): void {
  void s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: s.uri(file), languageId, version: 1, text } });
}

function change(s: Session, file: string, version: number, text: string): void {
  void s.connection.sendNotification('textDocument/didChange', { textDocument: { uri: s.uri(file), version }, contentChanges: [{ text }] });
}

const codes = (d: PublishDiagnosticsParams): string[] => d.diagnostics.map((x) => String(x.code));

describe('docdrift lsp over stdio', () => {
  it('publishes findings of an open README with range and code, clears them when the buffer is fixed, never reading the disk for it', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'benchmarks/gpqa/README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    open(s, file, text);
    const first = await s.diagnostics(file, (d) => d.version === 1);
    const unknown = first.diagnostics.find((d) => d.code === 'example-param-unknown')!;
    // The CLI reports it at 9:5-9:18 (1-based): `num_repeat` in `+num_repeat=4`.
    expect(unknown).toMatchObject({ severity: 1, source: 'docdrift', range: { start: { line: 8, character: 4 }, end: { line: 8, character: 17 } } });
    expect(unknown.message).toContain('`num_repeat` is not a parameter of `ng_collect_rollouts`');
    expect(codes(first).sort()).toEqual(['example-param-undocumented', 'example-param-unknown']);
    // The unsaved fix: both drifted arguments dropped from the example.
    const fixed = text.replace(' \\\n    +num_repeat=4 \\\n    +resume_from_cache=True', '');
    expect(fixed).not.toBe(text);
    change(s, file, 2, fixed);
    const cleared = await s.diagnostics(file, (d) => d.diagnostics.length === 0);
    expect(cleared.diagnostics).toEqual([]);
    expect(readFileSync(path.join(root, file), 'utf8')).toBe(text);
    // Back to the drifted text: the findings come back (from the buffer, not the disk, which never changed).
    change(s, file, 3, text);
    await s.diagnostics(file, (d) => d.version === 3 && d.diagnostics.length === 2);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('publishes an open page\'s findings under the URI spelling the client opened it with, never an empty list under another spelling (s47 sweep K6)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    const file = 'docs/@v2/c++/guide.md';
    mkdirSync(path.join(root, 'docs/@v2/c++'), { recursive: true });
    const text = '# Guide\n\n```bash\ntool +sed=1\n```\n';
    writeFileSync(path.join(root, file), text);
    const s = await start(root);
    // VS Code's URI.toString() percent-encodes `@` and `+` in paths; Node's pathToFileURL does not.
    const spelled = s.uri(file).replace('/@v2/c++/', '/%40v2/c%2B%2B/');
    expect(spelled).not.toBe(s.uri(file));
    void s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: spelled, languageId: 'markdown', version: 1, text: text.replace('# Guide', '# The guide') } });
    await vi.waitFor(() => expect(s.published.some((p) => p.uri === spelled && p.version === 1)).toBe(true), { timeout: 20_000, interval: 50 });
    const forPage = s.published.filter((p) => decodeURIComponent(p.uri) === decodeURIComponent(spelled));
    expect(forPage.map((p) => p.uri)).toEqual(forPage.map(() => spelled));
    expect(codes(forPage.at(-1)!)).toEqual(['example-param-unknown']);
    expect(await s.close()).toBe(0);
  });

  it('started in a folder that no longer exists: lints the workspace the client names, no internal error (s40 sweep D4)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root, process.env, undefined, CLI_BIN, true);
    const file = 'benchmarks/gpqa/README.md';
    open(s, file);
    const first = await s.diagnostics(file, (d) => d.version === 1);
    expect(codes(first).sort()).toEqual(['example-param-undocumented', 'example-param-unknown']);
    expect(s.stderr()).not.toContain('internal error');
    expect(await s.close()).toBe(0);
  });

  it('a page that ran over its parse budget keeps its warning through edits of another page, and is read again once its text changes (s40 sweep D3)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    // One block quote that cannot be cut into pieces and parses ever slower (lazy setext lines):
    // over its budget. (Unclosed link destinations were, until micromark's text resolver was patched.)
    writeFileSync(path.join(root, 'docs/hostile.md'), `# ng_collect_rollouts\n\n${'> a\n=\n'.repeat(60_000)}`);
    const s = await start(root);
    const file = 'benchmarks/gpqa/README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    open(s, file, text);
    await s.diagnostics(file, (d) => d.version === 1, 60_000);
    const notRead = (d: PublishDiagnosticsParams): boolean => d.diagnostics.some((x) => x.code === 'parse-error' && typeof x.message === 'string' && x.message.startsWith('Not read:'));
    const first = await s.diagnostics('docs/hostile.md', notRead, 60_000);
    // Edits of the README: the hostile page is not parsed again (its outcome is kept with its text); still not read.
    for (let v = 2; v <= 3; v++) {
      change(s, file, v, `${text}\nEdit ${v}.\n`);
      await s.diagnostics(file, (d) => d.version === v, 60_000);
    }
    expect(s.published.filter((p) => p.uri === s.uri('docs/hostile.md')).at(-1)!.diagnostics).toEqual(first.diagnostics);
    // Its text changes (a short page now): read.
    open(s, 'docs/hostile.md', '# tool\n\nA short page.\n');
    await s.diagnostics('docs/hostile.md', (d) => d.version === 1 && !notRead(d), 60_000);
  }, 180_000);

  it('an edited large page is sent to the parser before the stat pass, and its findings are what a CLI run gives for the same text', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const file = 'benchmarks/gpqa/README.md';
    // Over 32 KB: parsed in segments, so sent ahead once the first lint has read it.
    const sections = Array.from({ length: 500 }, (_, i) => `## Part ${i}\n\nSome prose about part ${i} of the benchmark, long enough to make the page large.\n`).join('\n');
    const page = (flag: string): string => `${readFileSync(path.join(root, file), 'utf8').replace('+num_repeat=4', flag)}\n${sections}`;
    expect(page('+num_repeat=4').length).toBeGreaterThan(32 * 1024);
    const s = await start(root);
    open(s, file, page('+num_repeat=4'));
    await s.diagnostics(file, (d) => d.version === 1, 60_000);
    const ahead = (): string[] => s.logs.filter((l) => / 1 edited page sent to the parser before the stat pass\)$/.test(l));
    change(s, file, 2, page('+num_repeats=4'));
    await s.diagnostics(file, (d) => d.version === 2, 60_000);
    // The open page's diagnostics come first (issue #36, `focus`): the lint logs once the rest is done.
    await expect.poll(() => ahead().length, { timeout: 20_000 }).toBe(1);
    const last = page('+limit=3');
    change(s, file, 3, last);
    const final = await s.diagnostics(file, (d) => d.version === 3, 60_000);
    await expect.poll(() => ahead().length, { timeout: 10_000 }).toBe(2);
    writeFileSync(path.join(root, file), last);
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const results = (JSON.parse(cli.stdout) as { results: Array<{ file: string; line: number; column: number; ruleId: string; message: string }> }).results;
    const expected = results.filter((r) => r.file === file).map((r) => `${r.line}:${r.column} ${r.ruleId} ${r.message}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(final.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${d.message}`)).toEqual(expected);
    expect(await s.close()).toBe(0);
  }, 120_000);

  it('the workspace folder renamed away: one showMessage error, not an empty lint; diagnostics again once it is back (s41 sweep D7)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'benchmarks/gpqa/README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    open(s, file, text);
    expect(codes(await s.diagnostics(file, (d) => d.version === 1))).toHaveLength(2);
    renameSync(root, `${root}-moved`);
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri('README.md'), type: 3 }] });
    change(s, file, 2, `${text}\nEdited.\n`);
    await expect.poll(() => s.shown.map((m) => m.message).join('\n'), { timeout: 20_000 }).toContain('is no longer a directory');
    expect(s.published.filter((p) => p.uri === s.uri(file) && p.version === 2)).toEqual([]);
    renameSync(`${root}-moved`, root);
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri('README.md'), type: 1 }] });
    change(s, file, 3, text);
    expect(codes(await s.diagnostics(file, (d) => d.version === 3))).toHaveLength(2);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('an open page no file on disk backs (new and not saved, or deleted while open) is linted as a CLI run reads it once saved (s42 sweep E3)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const readme = 'benchmarks/gpqa/README.md';
    const text = readFileSync(path.join(root, readme), 'utf8');
    const unsaved = 'benchmarks/gpqa/NOTES.md';
    open(s, unsaved, text);
    // It was published [] (discovery lists the disk only).
    expect(codes(await s.diagnostics(unsaved, (d) => d.version === 1)).sort()).toEqual(['example-param-undocumented', 'example-param-unknown']);
    open(s, readme, text);
    expect(codes(await s.diagnostics(readme, (d) => d.version === 1))).toHaveLength(2);
    rmSync(path.join(root, readme));
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri(readme), type: 3 }] });
    change(s, readme, 2, `${text}\nEdited.\n`);
    expect(codes(await s.diagnostics(readme, (d) => d.version === 2)).sort()).toEqual(['example-param-undocumented', 'example-param-unknown']);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('offers the quick fix of a missing reference row as a versioned edit that gives the text --fix gives', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const file = 'docs/reference/cli-commands.mdx';
    const text = readFileSync(path.join(root, file), 'utf8');
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const expected = (JSON.parse(cli.stdout) as { results: Array<{ file: string; line: number; ruleId: string; fix?: { file: string; start: number; end: number; text: string } }> }).results.find(
      (r) => r.file === file && r.ruleId === 'reference-param-missing' && r.line === 23,
    )!;
    expect(expected.fix).toBeDefined();

    const s = await start(root);
    open(s, file, text, 'mdx');
    const published = await s.diagnostics(file, (d) => d.version === 1);
    const missing = published.diagnostics.find((d: Diagnostic) => d.code === 'reference-param-missing' && d.range.start.line === 22)!;
    expect(missing).toBeDefined();
    const actions = (await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s.uri(file) }, range: missing.range, context: { diagnostics: [missing] } })) as CodeAction[];
    const action = actions.find((a) => a.diagnostics?.[0]?.code === 'reference-param-missing')!;
    expect(action).toMatchObject({ kind: 'quickfix' });
    const edit = action.edit!.documentChanges![0] as TextDocumentEdit;
    expect(edit.textDocument).toEqual({ uri: s.uri(file), version: 1 });
    const applied = TextDocument.applyEdits(TextDocument.create(s.uri(file), 'mdx', 1, text), edit.edits as never);
    expect(applied).toBe(applyEdits(text, [expected.fix!]).text);
    expect(applied).toContain('`resume_from_cache`');

    // Once the buffer moved on, the old offsets are not offered (the next lint offers them again;
    // an edit after a pause is linted at once, so that lint may already have run: then its fix is
    // for version 2).
    change(s, file, 2, `${text}\n`);
    const stale = (await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s.uri(file) }, range: missing.range, context: { diagnostics: [missing] } })) as CodeAction[];
    expect(stale.map((a) => (a.edit!.documentChanges![0] as TextDocumentEdit).textDocument.version).filter((v) => v !== 2)).toEqual([]);
    await s.diagnostics(file, (d) => d.version === 2);
    const fresh = (await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s.uri(file) }, range: missing.range, context: { diagnostics: [missing] } })) as CodeAction[];
    expect((fresh[0]!.edit!.documentChanges![0] as TextDocumentEdit).textDocument.version).toBe(2);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('an edited code buffer re-lints the docs: a renamed config field makes the README example unknown', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    // The initial lint publishes the README (not open) from disk.
    const before = await s.diagnostics('README.md', (d) => d.diagnostics.length > 0);
    expect(codes(before)).toContain('example-param-undocumented');
    const code = 'nemo_gym/rollout_collection.py';
    const text = readFileSync(path.join(root, code), 'utf8');
    open(s, code, text, 'python');
    change(s, code, 2, text.replace('resume_from_cache: bool', 'resume_from_checkpoint: bool'));
    const after = await s.diagnostics('README.md', (d) => codes(d).includes('example-param-unknown'));
    expect(after.diagnostics.find((d) => d.code === 'example-param-unknown')!.message).toContain('`resume_from_cache`');
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('reads a new code module that exists only as an unsaved buffer, as a CLI run reads it once saved (s43 sweep F7)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const code = 'nemo_gym/rollout_collection.py';
    const text = readFileSync(path.join(root, code), 'utf8');
    // `resume_from_cache` moves to a new module, open and not saved, that the config class now extends.
    const field = /    resume_from_cache: bool = Field\([^)]*\)\n/.exec(text)![0];
    const moved = text
      .replace(field, '')
      .replace('from nemo_gym.config_types import BaseNeMoGymCLIConfig', 'from nemo_gym.cache_options import CacheOptions')
      .replace('class RolloutCollectionConfig(BaseNeMoGymCLIConfig):', 'class RolloutCollectionConfig(CacheOptions):');
    const module = `from pydantic import Field\n\nfrom nemo_gym.config_types import BaseNeMoGymCLIConfig\n\n\nclass CacheOptions(BaseNeMoGymCLIConfig):\n${field}`;
    open(s, 'nemo_gym/cache_options.py', module, 'python');
    open(s, code, text, 'python');
    change(s, code, 2, moved);
    await s.diagnostics(code, (d) => d.version === 2);
    const readme = await s.diagnostics('README.md', () => true);
    // The module unread, `resume_from_cache` was unknown in the README's examples.
    expect(readme.diagnostics.filter((d) => d.code === 'example-param-unknown' && String(d.message).includes('`resume_from_cache`'))).toEqual([]);
    // The same texts saved: the CLI agrees.
    writeFileSync(path.join(root, 'nemo_gym/cache_options.py'), module);
    writeFileSync(path.join(root, code), moved);
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const results = (JSON.parse(cli.stdout) as { results: Array<{ ruleId: string; message: string }> }).results;
    expect(results.filter((r) => r.ruleId === 'example-param-unknown' && r.message.includes('`resume_from_cache`'))).toEqual([]);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('lints from memory after an edit, reads a file changed on disk again, and ends where a fresh CLI run ends', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    open(s, file, text);
    await s.diagnostics(file, (d) => d.version === 1 && codes(d).includes('example-param-undocumented'));
    // Edits of the page: the code's facts come from the server's memory (stat and hash unchanged).
    for (let v = 2; v <= 5; v++) {
      change(s, file, v, v % 2 === 0 ? `${text}\nAn edited line ${v}.\n` : text);
      await s.diagnostics(file, (d) => d.version === v);
    }
    // The config class renamed on disk (not open): its stat changed, so it is read and hashed again.
    const code = 'nemo_gym/rollout_collection.py';
    writeFileSync(path.join(root, code), readFileSync(path.join(root, code), 'utf8').replace('resume_from_cache: bool', 'resume_from_checkpoint: bool'));
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri(code), type: 2 }] });
    const after = await s.diagnostics(file, (d) => codes(d).includes('example-param-unknown'));
    // What a fresh CLI run finds in the page, the server finds from the buffer (the same text as the disk's).
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const expected = (JSON.parse(cli.stdout) as { results: Array<{ file: string; line: number; column: number; ruleId: string }> }).results
      .filter((r) => r.file === file)
      .map((r) => `${r.line}:${r.column} ${r.ruleId}`)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(after.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)}`).sort()).toEqual(expected);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('a page opened with the text it has on disk starts no lint: its findings come from the last lint, with its version (s33 sweep D6)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'benchmarks/gpqa/README.md';
    // The first lint, from disk, publishes the page without a version.
    const first = await s.diagnostics(file, (d) => d.diagnostics.length > 0);
    expect(first.version).toBeUndefined();
    const lints = (): number => s.logs.filter((l) => l.startsWith('docdrift: linted')).length;
    await expect.poll(lints).toBe(1);
    open(s, file, readFileSync(path.join(root, file), 'utf8'));
    const opened = await s.diagnostics(file, (d) => d.version === 1);
    expect(opened.diagnostics.map((d) => d.code)).toEqual(first.diagnostics.map((d) => d.code));
    // Closed unchanged: nothing a lint reads changed either.
    void s.connection.sendNotification('textDocument/didClose', { textDocument: { uri: s.uri(file) } });
    await new Promise((r) => setTimeout(r, 1000));
    expect(lints()).toBe(1);
    // Opened with other text than the disk's: an edit, linted.
    open(s, file, `${readFileSync(path.join(root, file), 'utf8')}\nMore.\n`);
    await expect.poll(lints).toBe(2);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('a page changed on disk with no file event, then opened with its new text, is linted: not the last lint\'s findings under the new version (s35 sweep D5)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'benchmarks/gpqa/README.md';
    const first = await s.diagnostics(file, (d) => d.diagnostics.length > 0);
    const lints = (): number => s.logs.filter((l) => l.startsWith('docdrift: linted')).length;
    await expect.poll(lints).toBe(1);
    const text = readFileSync(path.join(root, file), 'utf8');
    expect(text).toContain('+num_repeat=4');
    const changed = text.replace('+num_repeat=4', '+num_repeat=4 +num_repaet=5');
    // The client watches no files: no didChangeWatchedFiles comes.
    writeFileSync(path.join(root, file), changed);
    open(s, file, changed);
    const opened = await s.diagnostics(file, (d) => d.version === 1 && d.diagnostics.length > first.diagnostics.length);
    expect(opened.diagnostics.some((d) => JSON.stringify(d.message).includes('num_repaet'))).toBe(true);
    await expect.poll(lints).toBe(2);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('after an edit, the open page\'s diagnostics come first and other pages\' unchanged ones are not sent again; a page changed on disk is', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    const file = 'README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    open(s, file, text);
    await s.diagnostics(file, (d) => d.version === 1);
    // The first lint publishes every page with findings (the project-wide view).
    const other = 'benchmarks/gpqa/README.md';
    await s.diagnostics(other, (d) => d.diagnostics.length > 0);
    const lints = (): number => s.logs.filter((l) => l.startsWith('docdrift: linted')).length;
    await expect.poll(lints).toBe(1);
    const before = s.published.length;
    change(s, file, 2, `${text}\nAn edited line.\n`);
    await s.diagnostics(file, (d) => d.version === 2);
    await expect.poll(lints).toBe(2);
    // One notification: the edited page's (nothing else changed).
    expect(s.published.slice(before).map((p) => p.uri)).toEqual([s.uri(file)]);
    // A page not open, changed on disk: its new findings are sent (and only what changed).
    const otherText = readFileSync(path.join(root, other), 'utf8');
    expect(otherText).toContain('+num_repeat=4');
    writeFileSync(path.join(root, other), otherText.replace('+num_repeat=4', '+num_repeat=4 +num_repaet=5'));
    const mark = s.published.length;
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri(other), type: 2 }] });
    const after = await s.diagnostics(other, (d) => d.diagnostics.length > 2);
    expect(after.version).toBeUndefined();
    await expect.poll(lints).toBe(3);
    // The open page first (with its version), then the page that changed; the others are unchanged.
    expect(s.published.slice(mark).map((p) => p.uri)).toEqual([s.uri(file), s.uri(other)]);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('the first lint reads what a CLI run left in the per-file cache on disk, and finds what it finds without it', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const file = 'README.md';
    const without = await start(root);
    open(without, file);
    const cold = await without.diagnostics(file, (d) => d.version === 1);
    // The lint's log line follows its diagnostics.
    const lintLog = async (session: Session): Promise<string> => {
      for (let i = 0; i < 200 && !session.logs.some((l) => l.includes('linted')); i++) await new Promise((r) => setTimeout(r, 25));
      return session.logs.find((l) => l.includes('linted')) ?? '';
    };
    expect(await lintLog(without)).toContain(' 0 pieces read from the disk cache');
    expect(await without.close()).toBe(0);
    // A plain CLI run writes the run cache and the per-file cache under .docdrift-cache.
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json'], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    const s = await start(root);
    open(s, file);
    const warm = await s.diagnostics(file, (d) => d.version === 1);
    const read = Number(/(\d+) pieces read from the disk cache/.exec(await lintLog(s))?.[1]);
    expect(read).toBeGreaterThan(0);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('hover on an example argument and on a reference row shows the code definition; go to definition jumps to the field', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root);
    open(s, 'README.md');
    await s.diagnostics('README.md', (d) => d.version === 1);
    // README.md:25 `    +resume_from_cache=True` (the CLI's 25:5-25:28): the cursor on the name.
    const at = { textDocument: { uri: s.uri('README.md') }, position: { line: 24, character: 10 } };
    const hover = (await s.connection.sendRequest('textDocument/hover', at)) as Hover;
    const value = (hover.contents as MarkupContent).value;
    expect(value).toContain('**`resume_from_cache`**: parameter of `ng_collect_rollouts`');
    expect(value).toContain('type `bool` · default `False`');
    expect(value).toContain('Resume an interrupted run by skipping rows already completed in the output file.');
    expect(value).toContain('Defined at nemo\\_gym/rollout\\_collection.py:32.');
    expect(value).toContain('No reference row documents it.');
    expect(hover.range).toEqual({ start: { line: 24, character: 4 }, end: { line: 24, character: 27 } });
    const definition = (await s.connection.sendRequest('textDocument/definition', at)) as Location;
    expect(definition.uri).toBe(s.uri('nemo_gym/rollout_collection.py'));
    expect(definition.range.start.line).toBe(31);
    // Elsewhere on the line: nothing.
    expect(await s.connection.sendRequest('textDocument/hover', { ...at, position: { line: 24, character: 1 } })).toBeNull();
    // A reference row (docs/reference/cli-commands.mdx:35, `num_repeats`), the document not open: read from the lint's model.
    const row = (await s.connection.sendRequest('textDocument/hover', { textDocument: { uri: s.uri('docs/reference/cli-commands.mdx') }, position: { line: 34, character: 4 } })) as Hover;
    expect((row.contents as MarkupContent).value).toContain('**`num_repeats`**: parameter of `ng_collect_rollouts`');
    // A malformed request names no document: no answer, not an internal TypeError (s31 sweep N3).
    for (const uri of [42, 'file://host/x.md', 'untitled:1']) {
      expect(await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } })).toBeNull();
      expect(await s.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } })).toBeNull();
      expect(await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } })).toEqual([]);
    }
    // Asked while a lint runs (another page edited), which has let go of the last lint's model
    // (#33 s35 sweep D9): the hover waits for that lint and answers from its model.
    const other = 'docs/reference/cli-commands.mdx';
    const otherText = readFileSync(path.join(root, other), 'utf8');
    open(s, other, otherText);
    change(s, other, 2, `${otherText}\nAn edit.\n`);
    const during = (await s.connection.sendRequest('textDocument/hover', at)) as Hover;
    expect((during.contents as MarkupContent).value).toContain('**`resume_from_cache`**: parameter of `ng_collect_rollouts`');
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('a broken install (the Python grammar missing): one showMessage error naming it, not a clean page (s36 sweep D8)', async () => {
    const install = tempDir('docdrift-lsp-install-');
    const repo = path.resolve(path.dirname(CLI_BIN), '../..');
    cpSync(path.join(repo, 'dist'), path.join(install, 'dist'), { recursive: true });
    cpSync(path.join(repo, 'package.json'), path.join(install, 'package.json'));
    mkdirSync(path.join(install, 'grammars'));
    symlinkSync(path.join(repo, 'node_modules'), path.join(install, 'node_modules'));
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const s = await start(root, process.env, undefined, path.join(install, 'dist/cli/docdrift.js'));
    open(s, 'README.md');
    for (let i = 0; i < 400 && s.shown.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(s.shown).toHaveLength(1);
    expect(s.shown[0]!.type).toBe(1);
    expect(s.shown[0]!.message).toContain('internal error, nothing is checked');
    expect(s.shown[0]!.message).toContain('tree-sitter-python.wasm');
    // An edit fails the same way: not shown again.
    change(s, 'README.md', 2, 'x\n');
    await new Promise((r) => setTimeout(r, 1000));
    expect(s.shown).toHaveLength(1);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('a config that does not load: one showMessage error, no crash, diagnostics once it is fixed', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    writeFileSync(path.join(root, 'docdrift.config.json'), '{ "docs": 5 }');
    const s = await start(root);
    open(s, 'README.md');
    // An answered request proves the server is alive after the bad config.
    await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s.uri('README.md') }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
    await new Promise((r) => setTimeout(r, 500));
    expect(s.shown).toHaveLength(1);
    expect(s.shown[0]!.type).toBe(1);
    expect(s.shown[0]!.message).toContain('docdrift.config.json');
    writeFileSync(path.join(root, 'docdrift.config.json'), '{}');
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri('docdrift.config.json'), type: 2 }] });
    await s.diagnostics('README.md', (d) => d.diagnostics.length > 0);
    expect(await s.close()).toBe(0);
  }, 60_000);
  it('initializationOptions.configFile (the VS Code extension\'s docdrift.configPath) is the config, resolved from the root; a missing one is one showMessage error until it is created', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    // The root's own config would lint README.md; the named one, in a sub-folder, turns the rule off.
    mkdirSync(path.join(root, 'config'));
    writeFileSync(path.join(root, 'config/docs.json'), JSON.stringify({ rules: { 'example-param-undocumented': 'off' } }));
    const s = await start(root, process.env, { configFile: 'config/docs.json' });
    open(s, 'README.md');
    const published = await s.diagnostics('README.md', (d) => d.version === 1);
    expect(codes(published)).not.toContain('example-param-undocumented');
    // The lint ran with it: the other rules still report (a missing reference row).
    expect(codes(await s.diagnostics('docs/reference/cli-commands.mdx', (d) => d.diagnostics.length > 0))).toContain('reference-param-missing');
    expect(s.shown).toEqual([]);
    expect(await s.close()).toBe(0);

    // Named but missing: the CLI's --config error, once, however many edits; created, and the server told: it lints.
    const s2 = await start(root, process.env, { configFile: 'config/missing.json' });
    open(s2, 'README.md');
    change(s2, 'README.md', 2, `${readFileSync(path.join(root, 'README.md'), 'utf8')}\n`);
    await s2.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s2.uri('README.md') }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
    await new Promise((r) => setTimeout(r, 500));
    expect(s2.shown).toHaveLength(1);
    expect(s2.shown[0]).toMatchObject({ type: 1 });
    expect(s2.shown[0]!.message).toContain('config/missing.json');
    expect(s2.shown[0]!.message).toContain('the config file does not exist');
    writeFileSync(path.join(root, 'config/missing.json'), '{}');
    void s2.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s2.uri('config/missing.json'), type: 1 }] });
    const after = await s2.diagnostics('README.md', (d) => d.version === 2);
    expect(codes(after)).toContain('example-param-undocumented');
    expect(await s2.close()).toBe(0);

    // Not a string: one error naming the option, and the server keeps answering.
    const s3 = await start(root, process.env, { configFile: 5 });
    open(s3, 'README.md');
    await s3.connection.sendRequest('textDocument/hover', { textDocument: { uri: s3.uri('README.md') }, position: { line: 0, character: 0 } });
    await new Promise((r) => setTimeout(r, 500));
    expect(s3.shown.map((m) => m.message)).toEqual(['docdrift: initializationOptions.configFile must be a path (a string), got a number (no diagnostics until the config loads)']);
    expect(await s3.close()).toBe(0);
  }, 60_000);

  it('a quick fix for a file not open is offered only while the disk holds the text the lint read (s29 sweep2 D3)', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    const file = 'docs/reference/cli-commands.mdx';
    const text = readFileSync(path.join(root, file), 'utf8');
    const s = await start(root);
    const published = await s.diagnostics(file, (d) => d.diagnostics.some((x) => x.code === 'reference-param-missing'));
    const missing = published.diagnostics.find((d: Diagnostic) => d.code === 'reference-param-missing' && d.range.start.line === 22)!;
    const ask = async (): Promise<CodeAction[]> => (await s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: s.uri(file) }, range: missing.range, context: { diagnostics: [missing] } })) as CodeAction[];
    // Changed on disk after the lint, and the server not told (no watched-files event): the old offsets would land two lines up.
    writeFileSync(path.join(root, file), `# Moved\n\n${text}`);
    expect(await ask()).toEqual([]);
    // The disk holds the lint's text again: the fix is offered, unversioned, and gives the text it was computed for.
    writeFileSync(path.join(root, file), text);
    const actions = await ask();
    const edit = actions.find((a) => a.diagnostics?.[0]?.code === 'reference-param-missing')!.edit!.documentChanges![0] as TextDocumentEdit;
    expect(edit.textDocument).toEqual({ uri: s.uri(file), version: null });
    const applied = TextDocument.applyEdits(TextDocument.create(s.uri(file), 'mdx', 1, text), edit.edits as never);
    expect(applied).toContain('`resume_from_cache`');
    expect(applied.split('\n').length).toBeGreaterThan(text.split('\n').length);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('Python CLI flags are extracted in the budgeted worker: past its budget, one note and the server stays responsive (s29 sweep2 D1)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    // The s28 sweep D3 decli splice shape, small: a 1 ms budget (the test override) stops its worker.
    const k = 8;
    const s1 = `S1 = [${Array.from({ length: k }, (_, i) => `{"name": "--o${i}", "default": 0}`).join(', ')}]\n`;
    const s2 = `S2 = [${Array(k).fill('*S1').join(', ')}]\n`;
    const data = `data = {"prog": "tool", "arguments": [${Array(k).fill('*S2').join(', ')}]}\n`;
    writeFileSync(path.join(root, 'tool/cli.py'), `from decli import cli\n\n${s1}${s2}${data}\ndef main():\n    parser = cli(data)\n    parser.parse_args()\n`);
    const s = await start(root, { ...process.env, DOCDRIFT_TEST_WORKER_BUDGET_MS: '1' });
    open(s, 'README.md');
    const note = await s.diagnostics('tool/cli.py', (d) => d.diagnostics.some((x) => String(x.message).startsWith('CLI flags not read')));
    expect(note.diagnostics.filter((x) => String(x.message).startsWith('CLI flags not read'))).toHaveLength(1);
    const t0 = performance.now();
    await s.connection.sendRequest('textDocument/hover', { textDocument: { uri: s.uri('README.md') }, position: { line: 0, character: 0 } });
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('a page with more findings than the server shows per document: the first 1,000, and one note with the count and the CLI command (s32 sweep D5)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    // 400 example lines with three misspelled parameters each: 1,200 findings.
    const file = 'docs/many.md';
    writeFileSync(path.join(root, file), `# P\n\n\`\`\`bash\n${'tool +sed=1 +nme=2 +sedd=3\n'.repeat(400)}\`\`\`\n`);
    const s = await start(root);
    open(s, file);
    const d = await s.diagnostics(file, (p) => p.version === 1 && p.diagnostics.length > 0);
    expect(d.diagnostics).toHaveLength(1001);
    expect(d.diagnostics[0]).toMatchObject({ code: 'too-many-findings', severity: 3, range: { start: { line: 0, character: 0 } } });
    expect(String(d.diagnostics[0]!.message)).toContain('1,200 findings in this document; the first 1,000 are shown');
    expect(String(d.diagnostics[0]!.message)).toContain('npx docdrift docs/many.md');
    expect(codes(d).slice(1).every((c) => c === 'example-param-unknown')).toBe(true);
    // The first 1,000 in line order: lines 4 to 337 (three per line), the last one's first finding.
    expect(d.diagnostics.at(-1)!.range.start.line).toBe(336);
    // The log line follows the diagnostics (it is written after them): polled.
    await expect.poll(() => s.logs.find((l) => l.startsWith('docdrift: linted')) ?? '').toContain('(1000 shown: 1 document has more than 1000)');
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('large pages count toward the run\'s limit on large documents in every lint, also when their parse is kept from the last one (s32 sweep D5)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    // Nine pages of ~133 KB, each with one stale example: a lint reads 1 MiB of such pages (seven).
    const prose = 'A paragraph of prose about the tool, long enough to make the page large.\n\n'.repeat(1800);
    for (let i = 0; i < 9; i++) writeFileSync(path.join(root, `docs/l${i}.md`), `# L${i}\n\n${prose}\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
    const s = await start(root);
    const lints = (): number => s.logs.filter((l) => l.startsWith('docdrift: linted')).length;
    /** The pages whose latest diagnostics hold a stale example, and those with the parse-error note. */
    const pages = (): { read: number; notRead: number } => {
      const latest = new Map<string, PublishDiagnosticsParams>();
      for (const p of s.published) latest.set(p.uri, p);
      const large = [...latest.values()].filter((p) => /\/docs\/l\d\.md$/.test(p.uri));
      return { read: large.filter((p) => codes(p).includes('example-param-unknown')).length, notRead: large.filter((p) => p.diagnostics.some((x) => String(x.message).includes('one run reads at most 1024 KB of such documents'))).length };
    };
    await expect.poll(lints, { timeout: 45_000 }).toBe(1);
    expect(pages()).toEqual({ read: 7, notRead: 2 });
    // Another lint, after an edit elsewhere: the seven pages parsed before are kept, and count again.
    open(s, 'README.md', '# tool\n');
    await expect.poll(lints, { timeout: 45_000 }).toBe(2);
    expect(pages()).toEqual({ read: 7, notRead: 2 });
    expect(await s.close()).toBe(0);
  }, 120_000);

  it('a root over the discovery limit: one showMessage with the CLI\'s line, no internal error, no walk per edit; a file event re-checks (s29 sweep2 D4)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    for (let i = 0; i < 151; i++) {
      mkdirSync(path.join(root, `gen/p${i}`), { recursive: true });
      for (let j = 0; j < 100; j++) writeFileSync(path.join(root, `gen/p${i}/m${j}.py`), 'x = 1\n');
    }
    const s = await start(root);
    open(s, 'README.md', '# tool\n');
    for (let v = 2; v <= 4; v++) {
      await new Promise((r) => setTimeout(r, 400));
      change(s, 'README.md', v, `# tool\n\nedit ${v}\n`);
    }
    await new Promise((r) => setTimeout(r, 1_000));
    expect(s.shown).toHaveLength(1);
    expect(s.shown[0]).toMatchObject({ type: 1 });
    expect(s.shown[0]!.message).toMatch(/^docdrift: the root .* holds 15,102 source files, over the 15,000 one run reads; is it the project you meant\?/);
    expect(s.logs.filter((l) => l.includes('internal error') || l.includes('    at '))).toEqual([]);
    expect(s.logs.filter((l) => l.startsWith('docdrift: linted'))).toEqual([]);
    // Under the limit again, and the server told: it lints.
    rmSync(path.join(root, 'gen/p0'), { recursive: true });
    rmSync(path.join(root, 'gen/p1'), { recursive: true });
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri('gen/p0/m0.py'), type: 3 }] });
    await s.diagnostics('README.md', (d) => d.version === 4);
    // The lint's log line follows its diagnostics.
    for (let i = 0; i < 50 && !s.logs.some((l) => l.startsWith('docdrift: linted')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.logs.filter((l) => l.startsWith('docdrift: linted'))).toHaveLength(1);
    expect(s.shown).toHaveLength(1);
    expect(await s.close()).toBe(0);
  }, 60_000);
  it('a git filter driver added to .git/config while the server runs is turned off in its next git listing, as in its first (#33)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    const git = (...args: string[]): void => {
      spawnSync(realGit, ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: root, stdio: 'ignore' });
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'init');
    const log = path.join(tempDir('docdrift-lsp-git-log-'), 'calls');
    const marker = path.join(tempDir('docdrift-lsp-filter-'), 'FILTER-RAN');
    // The listing reads no file contents: this git runs `git status` (which does) with its options and environment first.
    const s = await start(root, { ...process.env, PATH: `${contentCheckingGit(realGit, log)}${path.delimiter}${process.env['PATH'] ?? ''}` });
    open(s, 'README.md');
    await s.diagnostics('README.md', (d) => d.version === 1);
    expect(readFileSync(log, 'utf8').split('\n').filter((l) => l === 'ls-files')).toHaveLength(1);
    git('config', 'filter.evil.clean', `touch '${marker}'; cat`);
    writeFileSync(path.join(root, '.gitattributes'), '*.md filter=evil\n');
    // Same content, new times: git rehashes the file, through its clean filter, to tell whether it changed.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(root, 'README.md'), later, later);
    void s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: s.uri('.gitattributes'), type: 1 }] });
    change(s, 'README.md', 2, `${readFileSync(path.join(root, 'README.md'), 'utf8')}\nEdited.\n`);
    await s.diagnostics('README.md', (d) => d.version === 2);
    expect(readFileSync(log, 'utf8').split('\n').filter((l) => l === 'ls-files').length).toBeGreaterThanOrEqual(2);
    expect(existsSync(marker)).toBe(false);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it('an edit after a pause is linted at once; the next edits of a burst wait for the pause and are linted once, with the last text', async () => {
    const root = copyToTemp(EXAMPLE, 'docdrift-lsp-');
    // A debounce longer than a lint of the example takes: what arrives sooner was not debounced.
    const debounce = 3_000;
    const s = await start(root, { ...process.env, DOCDRIFT_TEST_DEBOUNCE_MS: String(debounce) });
    const file = 'benchmarks/gpqa/README.md';
    const text = readFileSync(path.join(root, file), 'utf8');
    const fixed = text.replace(' \\\n    +num_repeat=4 \\\n    +resume_from_cache=True', '');
    expect(fixed).not.toBe(text);
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    open(s, file, text);
    await s.diagnostics(file, (d) => d.version === 1, 30_000);
    await sleep(debounce + 200);
    // After a pause: linted at once, long before the debounce would have run it.
    change(s, file, 2, fixed);
    expect((await s.diagnostics(file, (d) => d.version === 2, debounce - 500)).diagnostics).toEqual([]);
    await sleep(debounce + 200);
    // A burst: the first change follows a pause, the next two follow it closely and wait.
    const published: Array<{ version: number; at: number }> = [];
    s.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (p.uri === s.uri(file) && p.version !== undefined) published.push({ version: p.version, at: performance.now() });
    });
    change(s, file, 3, text);
    await sleep(200);
    change(s, file, 4, fixed);
    await sleep(200);
    change(s, file, 5, text);
    const sent = performance.now();
    for (let i = 0; i < 100 && !published.some((p) => p.version === 5); i++) await sleep(100);
    const last = published.find((p) => p.version === 5);
    expect(last).toBeDefined();
    expect(last!.at - sent).toBeGreaterThanOrEqual(debounce - 100);
    // The middle change was never linted on its own: the burst's one lint read the last text.
    expect(published.map((p) => p.version)).not.toContain(4);
    await s.close();
  }, 60_000);

  it('a lint gives way to an edit that makes it outdated: rapid edits while a slow page is linted end in one whole lint, of the last texts, as a CLI run reads them (s38 sweep D8)', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    // A page whose parse takes a second or more (nested lists), under its budget; edited in each round, so each lint parses it again.
    const slow = (v: number): string => `# tool\n\n${'- - - - - - - - - - x\n'.repeat(1200)}\nedit ${v}\n`;
    const small = (v: number): string => `# p\n\n\`\`\`bash\ntool +sed=${v}\n\`\`\`\n`;
    const pages = ['docs/p0.md', 'docs/p1.md', 'docs/p2.md'];
    writeFileSync(path.join(root, 'docs/slow.md'), slow(1));
    for (const file of pages) writeFileSync(path.join(root, file), small(1));
    const s = await start(root);
    const lints = (): number => s.logs.filter((l) => l.startsWith('docdrift: linted')).length;
    open(s, 'docs/slow.md');
    for (const file of pages) open(s, file);
    for (const file of ['docs/slow.md', ...pages]) await s.diagnostics(file, (d) => d.version === 1, 60_000);
    await expect.poll(lints, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const before = lints();
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    // An edit after a pause is linted at once: that lint is parsing the slow page when the burst of edits starts.
    change(s, 'docs/slow.md', 2, slow(2));
    await sleep(300);
    const last = 31;
    for (let v = 3; v <= last; v++) {
      change(s, 'docs/slow.md', v, slow(v));
      for (const file of pages) change(s, file, v, small(v));
      await sleep(100);
    }
    const sent = performance.now();
    const final = await Promise.all(['docs/slow.md', ...pages].map((file) => s.diagnostics(file, (d) => d.version === last, 120_000)));
    const latency = performance.now() - sent;
    await expect.poll(lints, { timeout: 30_000 }).toBeGreaterThan(before);
    await sleep(500);
    // The lints that began while edits came were given up (at least the one the first edit
    // started); the one that ended read the last texts. Before, each ran to its end: 2 or more.
    expect(lints() - before).toBe(1);
    expect(s.logs.some((l) => /^docdrift: lint given up after \d+ ms: docs\/(slow|p\d)\.md changed while it ran$/.test(l))).toBe(true);
    const lintMs = Number(/ in (\d+) ms;/.exec(s.logs.filter((l) => l.startsWith('docdrift: linted')).at(-1)!)![1]);
    expect(latency).toBeLessThan(lintMs + 5_000);
    // What a CLI run says of the same texts on disk (the slow page's outcome may be a time budget's: not compared).
    writeFileSync(path.join(root, 'docs/slow.md'), slow(last));
    for (const file of pages) writeFileSync(path.join(root, file), small(last));
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const results = (JSON.parse(cli.stdout) as { results: Array<{ file: string; line: number; column: number; ruleId: string; message: string }> }).results;
    for (const [i, file] of pages.entries()) {
      const server = final[i + 1]!.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${d.message}`);
      expect(server).toEqual(results.filter((r) => r.file === file).map((r) => `${r.line}:${r.column} ${r.ruleId} ${r.message}`));
      expect(server).toHaveLength(1);
    }
    expect(await s.close()).toBe(0);
  }, 150_000);

  it('a page of a 300-column, 800-row table that a CLI run reads is read by the server too, and by a CLI run with its cache (s38 sweep D6: "needed more than 192 MB of memory")', async () => {
    const root = copyToTemp(BAD_BASE, 'docdrift-lsp-');
    const file = 'docs/h5.md';
    const text = `# tool\n\n| a | b |\n| - | - |\n${`|${'x|'.repeat(300)}\n`.repeat(800)}\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`;
    writeFileSync(path.join(root, file), text);
    const cliRun = (...args: string[]): string[] => {
      const run = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', ...args], { encoding: 'utf8' });
      const results = (JSON.parse(run.stdout) as { results: Array<{ file: string; line: number; column: number; ruleId: string }> }).results;
      return results.filter((r) => r.file === file).map((r) => `${r.line}:${r.column} ${r.ruleId}`);
    };
    // Without the cache the page is parsed whole; with it (a cold cache), in segments, as the server parses it.
    expect(cliRun('--no-cache')).toEqual(['807:6 example-param-unknown']);
    expect(cliRun()).toEqual(['807:6 example-param-unknown']);
    const s = await start(root);
    open(s, file, `${text}\nmore\n`);
    const d = await s.diagnostics(file, (p) => p.version === 1, 60_000);
    expect(d.diagnostics.map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${String(x.code)}`)).toEqual(['807:6 example-param-unknown']);
    expect(await s.close()).toBe(0);
  }, 120_000);

  describe('ends when its standard input ends, whatever was half-read (s31 sweep D4)', () => {
    /** One framed message: its header and its UTF-8 body. */
    const frame = (message: unknown): string => {
      const body = JSON.stringify(message);
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    /**
     * Spawns the bin, writes `chunks` (a pause after each), ends its input and resolves with its exit
     * code (`'running'` when it has not ended 20 s later) and its stderr.
     */
    const runUntilEnd = (root: string, chunks: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null | 'running'; stderr: string }> => {
      const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe', env: { ...process.env, ...env } });
      child.stdout.resume();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      return new Promise((resolve) => {
        let stopped: NodeJS.Timeout | undefined;
        child.on('exit', (code) => {
          clearTimeout(stopped);
          resolve({ code, stderr });
        });
        void (async () => {
          for (const chunk of chunks) {
            child.stdin.write(chunk);
            await new Promise((r) => setTimeout(r, 300));
          }
          child.stdin.end();
          // A hang bound, not a speed measure: vscode-jsonrpc's partial-message timer fires every 10 s.
          stopped = setTimeout(() => {
            child.kill('SIGKILL');
            resolve({ code: 'running', stderr });
          }, 20_000);
        })();
      });
    };
    /** `initialize`; a `processId` (a live one: this test's) makes the server watch that process every 3 s. */
    const initialize = (root: string, processId: number | null = null): string => frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId, rootUri: pathToFileURL(root).href, capabilities: {} } });

    it('inside a message body, inside a header, or with nothing sent', async () => {
      const root = copyToTemp(BAD_BASE, 'docdrift-lsp-eof-');
      const cases: Array<[string, string[]]> = [
        ['a body shorter than its Content-Length', [initialize(root), 'Content-Length: 100\r\n\r\n{"jsonrpc"']],
        ['a body shorter than its Content-Length, first message', ['Content-Length: 100\r\n\r\n{"jsonrpc"']],
        ['half a header', [initialize(root), 'Content-Len']],
        ['nothing', []],
        ['whole messages, the client process still alive', [initialize(root, process.pid) + frame({ jsonrpc: '2.0', method: 'initialized', params: {} })]],
      ];
      const ends = await Promise.all(cases.map(([, chunks]) => runUntilEnd(root, chunks)));
      expect(Object.fromEntries(cases.map(([name], i) => [name, ends[i]!.code]))).toEqual(Object.fromEntries(cases.map(([name]) => [name, 0])));
      for (const end of ends) expect(end.stderr).toBe('');
    }, 60_000);

    it('answers every request it read before its input ended: initialize, shutdown and exit in one write, then the end (s34 sweep D1)', async () => {
      const root = copyToTemp(BAD_BASE, 'docdrift-lsp-eof-');
      const messages = [initialize(root), frame({ jsonrpc: '2.0', method: 'initialized', params: {} }), frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }), frame({ jsonrpc: '2.0', method: 'exit' })].join('');
      const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
      const out: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => {
        child.on('exit', resolve);
        child.stdin.end(messages);
      });
      // Every frame whole: its header's length is the body's, and the stream ends after a body.
      let rest = Buffer.concat(out).toString('utf8');
      const ids: number[] = [];
      while (rest.length > 0) {
        const head = /^Content-Length: (\d+)\r\n\r\n/.exec(rest);
        expect(head, `a torn frame: ${JSON.stringify(rest.slice(0, 80))}`).not.toBeNull();
        const length = Number(head![1]);
        const body = Buffer.from(rest.slice(head![0].length), 'utf8');
        expect(body.length).toBeGreaterThanOrEqual(length);
        const message = JSON.parse(body.subarray(0, length).toString('utf8')) as { id?: number; method?: string };
        if (message.id !== undefined && message.method === undefined) ids.push(message.id);
        rest = body.subarray(length).toString('utf8');
      }
      expect(ids).toEqual([1, 2]);
      expect(code).toBe(0);
      expect(stderr).toBe('');
    }, 60_000);

    it('reads on after a frame with `Content-Length: -5` and says in the client\'s log that it dropped it (s44 sweep G2: deaf, no word why)', async () => {
      const root = copyToTemp(BAD_BASE, 'docdrift-lsp-eof-');
      const messages = [initialize(root), frame({ jsonrpc: '2.0', method: 'initialized', params: {} }), 'Content-Length: -5\r\n\r\n', frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }), frame({ jsonrpc: '2.0', method: 'exit' })].join('');
      const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
      const out: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.resume();
      const code = await new Promise<number | null>((resolve) => {
        child.on('exit', resolve);
        child.stdin.end(messages);
      });
      const received: Array<{ id?: number; method?: string; params?: { message?: string } }> = [];
      let rest = Buffer.concat(out);
      while (rest.length > 0) {
        const head = /^Content-Length: (\d+)\r\n\r\n/.exec(rest.toString('latin1', 0, 40))!;
        const end = head[0].length + Number(head[1]);
        received.push(JSON.parse(rest.toString('utf8', head[0].length, end)) as (typeof received)[number]);
        rest = rest.subarray(end);
      }
      expect(received.filter((m) => m.id !== undefined && m.method === undefined).map((m) => m.id)).toEqual([1, 2]);
      expect(received.filter((m) => m.method === 'window/logMessage' && m.params?.message?.includes('dropped')).map((m) => m.params!.message)).toEqual(['docdrift: dropped a message from the client: Content-Length value must be a non-negative decimal integer. Got -5']);
      expect(code).toBe(0);
    }, 60_000);

    it('with a lint running and one waiting for its debounce (a burst of edits, a 10-minute debounce): no stack on stderr', async () => {
      const root = copyToTemp(BAD_BASE, 'docdrift-lsp-eof-');
      const uri = pathToFileURL(path.join(root, 'README.md')).href;
      const text = readFileSync(path.join(root, 'README.md'), 'utf8');
      const change = (version: number): string => frame({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ text: `${text}\n${version}\n` }] } });
      const end = await runUntilEnd(
        root,
        [initialize(root) + frame({ jsonrpc: '2.0', method: 'initialized', params: {} }) + frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'markdown', version: 1, text } } }) + change(2) + change(3)],
        { DOCDRIFT_TEST_DEBOUNCE_MS: String(600_000) },
      );
      expect(end.code, end.stderr).toBe(0);
      expect(end.stderr).toBe('');
    }, 60_000);
  });
});
