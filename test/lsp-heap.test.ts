/**
 * The language server's memory bound (#33 s32 sweep D5): `docdrift lsp` lints on a worker thread
 * under a V8 heap limit (src/lsp/server.ts LSP_HEAP_MB), and each page and run reads a bounded
 * number of example words. Spawns the bundled bin (needs `npm run build`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, copyToTemp, removeTempDirs, tempDir } from './helpers.js';

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

afterAll(removeTempDirs);

/** Peak RSS of a process, in KB (Linux `VmHWM`), or undefined once it has ended. */
function peakKb(pid: number): number | undefined {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/**
 * Starts the server in a copy of the bad-input base with `env`, opens `docs/big.md` with a page of
 * `mb` MB, writes `changes` full-text edits of that size (versions 2, 3, …) as fast as the pipe takes
 * them, as an editor under full-text sync sends a buffer per edit, then one small edit. Returns the
 * codes of the diagnostics published for the small edit's version (undefined when the server ended
 * first), the server's exit code, its stderr and its peak RSS in KB.
 */
async function fullTextBurst(mb: number, changes: number, env: NodeJS.ProcessEnv = {}): Promise<{ last: string[] | undefined; code: number | null; stderr: string; peak: number }> {
  const root = copyToTemp(BAD_BASE);
  const uri = pathToFileURL(path.join(root, 'docs/big.md')).href;
  const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe', env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const lastVersion = changes + 2;
  const last = new Promise<string[]>((resolve) => {
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      if (params.uri === uri && params.version === lastVersion) resolve(params.diagnostics.map((d) => String(d.code)));
    });
  });
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
  await connection.sendNotification('initialized', {});
  // Escape-dense: every 24 bytes hold three newlines, written `\n` in JSON. Each notification is
  // written once the one before is in the pipe (vscode-jsonrpc's writer resolves then).
  const page = `# tool\n\n${'```bash\ntool +sed=1\n```\n'.repeat(Math.floor((mb * 1024 * 1024) / 24))}`;
  // A server out of memory ends mid-burst: the writes after it fail, and are not made.
  const send = (method: string, params: object): Promise<void> => (child.exitCode === null ? connection.sendNotification(method, params).catch(() => undefined) : Promise.resolve());
  await send('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: page } });
  for (let version = 2; version < lastVersion; version++) await send('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: `${page}${version}` }] });
  await send('textDocument/didChange', { textDocument: { uri, version: lastVersion }, contentChanges: [{ text: '# tool\n\n```bash\ntool +sed=1\n```\n' }] });
  const waited = new AbortController();
  const outcome = await Promise.race([last, exited.then(() => undefined), sleep(90_000, undefined, { signal: waited.signal }).catch(() => undefined)]);
  waited.abort();
  const peak = peakKb(child.pid!) ?? 0;
  if (child.exitCode === null) {
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
  }
  const code = await exited;
  connection.dispose();
  return { last: outcome, code, stderr, peak };
}

describe('docdrift lsp memory', () => {
  it('a server thread over its heap limit ends the process with exit 1 and one line on stderr, no stack trace', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: tempDir('docdrift-lsp-heap-'), stdio: 'pipe', env: { ...process.env, DOCDRIFT_TEST_LSP_HEAP_MB: '4' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('docdrift lsp: the language server needed more than its 4 MB of memory and stopped');
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('what the server wrote reaches stdout whole before the process ends, when the input ends after shutdown (s33 sweep D5: a torn last frame)', async () => {
    const root = copyToTemp(BAD_BASE);
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const frame = (message: object): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const uri = pathToFileURL(path.join(root, 'README.md')).href;
    child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} } }) + frame({ method: 'initialized', params: {} }));
    // The client's input ending means the client is gone: the server sends nothing after it, but
    // what it wrote before ends whole. The initialize response is awaited first.
    while (!Buffer.concat(chunks).toString('utf8').includes('"id":1')) await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin.write(Array.from({ length: 20 }, (_, i) => frame({ id: 100 + i, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 3, character: 8 } } })).join(''));
    // shutdown, then the input ends (no exit): the process ends with everything written.
    child.stdin.end(frame({ id: 2, method: 'shutdown' }));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    let data = Buffer.concat(chunks);
    const ids: number[] = [];
    while (data.length > 0) {
      const head = data.indexOf('\r\n\r\n');
      expect(head, `a header: ${data.toString('utf8', 0, 80)}`).toBeGreaterThan(0);
      const length = Number(/Content-Length: (\d+)/.exec(data.toString('utf8', 0, head))![1]);
      expect(data.length, 'a whole body after the last header').toBeGreaterThanOrEqual(head + 4 + length);
      const message = JSON.parse(data.toString('utf8', head + 4, head + 4 + length)) as { id?: number };
      if (typeof message.id === 'number') ids.push(message.id);
      data = data.subarray(head + 4 + length);
    }
    expect(ids).toContain(1);
  }, 60_000);

  it('20 open pages of 216 KB, 24,000 misspelt parameters each: every page gets its diagnostics, peak RSS under 512 MB', async () => {
    const root = copyToTemp(BAD_BASE);
    const page = `# P\n\n\`\`\`bash\n${'tool +sed=1 +nme=2 +sedd=3\n'.repeat(8000)}\`\`\`\n`;
    const files = Array.from({ length: 20 }, (_, i) => `docs/o${i}.md`);
    for (const file of files) writeFileSync(path.join(root, file), page);
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const published = new Map<string, number>();
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, peakKb(child.pid!) ?? 0)), 200);
    const all = new Promise<void>((resolve) => {
      connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
        published.set(params.uri, params.diagnostics.length);
        if (files.every((f) => published.has(pathToFileURL(path.join(root, f)).href))) resolve();
      });
    });
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    for (const file of files) {
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(path.join(root, file)).href, languageId: 'markdown', version: 1, text: page } });
    }
    await all;
    peak = Math.max(peak, peakKb(child.pid!) ?? 0);
    clearInterval(watch);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    // The pages read have findings (at most 1,000 shown each, with a note); the others one warning: not read.
    const counts = files.map((f) => published.get(pathToFileURL(path.join(root, f)).href) ?? 0);
    expect(counts.filter((n) => n > 1000)).not.toHaveLength(0);
    expect(counts.every((n) => n >= 1)).toBe(true);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(512 * 1024);
  }, 180_000);

  it('two open pages of 20,000 reference rows (the run\'s row limit), each edited twice: every version gets its diagnostics, peak RSS under 512 MB (s37 sweep D8: 523-558 MB)', async () => {
    const root = copyToTemp(BAD_BASE);
    const rows = Array.from({ length: 20_000 }, (_, i) => `| \`p${i}\` | int | \`0\` | d |\n`).join('');
    const page = `# T\n\n### \`tool\`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n${rows}\n`;
    const files = ['docs/a00.md', 'docs/a01.md'];
    for (const file of files) writeFileSync(path.join(root, file), page);
    const uris = files.map((f) => pathToFileURL(path.join(root, f)).href);
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, peakKb(child.pid!) ?? 0)), 200);
    const waiting = new Map<string, () => void>();
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => waiting.get(`${params.uri}@${params.version}`)?.());
    const published = (uri: string, version: number): Promise<void> => new Promise((resolve) => waiting.set(`${uri}@${version}`, resolve));
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    for (const uri of uris) {
      const done = published(uri, 1);
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: page } });
      await done;
    }
    // Each edit renames one row and adds a line: a new text each time, parsed again.
    for (let version = 2; version <= 3; version++) {
      for (const uri of uris) {
        const done = published(uri, version);
        const text = `${page.replace(`\`p${version}\``, `\`q${version}\``)}\nEdited ${version}.\n`;
        await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
        await done;
      }
    }
    peak = Math.max(peak, peakKb(child.pid!) ?? 0);
    clearInterval(watch);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(512 * 1024);
  }, 180_000);

  it('pages of 60 and 90 MB opened: the CLI\'s diagnostics (over the 1 MB document limit; over the 64 MB read cap, EFBIG), peak RSS under 512 MB (s38 sweep D7: 538 and 723 MB); a range edit of the unread buffer says so', async () => {
    const root = copyToTemp(BAD_BASE);
    const file = 'docs/big.md';
    writeFileSync(path.join(root, file), '# tool\n');
    const uri = pathToFileURL(path.join(root, file)).href;
    const page = (mb: number): string => `# tool\n\n${'Run `tool` with `+seed=1`; see the [reference](reference.md#tool).\n\n'.repeat(Math.ceil((mb * 1e6) / 69))}\`\`\`bash\ntool +sed=1\n\`\`\`\n`;
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe' });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, peakKb(child.pid!) ?? 0)), 100);
    const waiting = new Map<number, (p: PublishDiagnosticsParams) => void>();
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      if (params.uri === uri && params.version !== undefined) waiting.get(params.version)?.(params);
    });
    const published = (version: number): Promise<PublishDiagnosticsParams> => new Promise((resolve) => waiting.set(version, resolve));
    const messages = (p: PublishDiagnosticsParams): string[] => p.diagnostics.map((d) => `${d.range.start.line + 1}:${d.code} ${d.message}`);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    let done = published(1);
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: page(60) } });
    const sixty = await done;
    done = published(2);
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: page(90) }] });
    const ninety = await done;
    // Full-text sync is what the server asks for; a range edit of a buffer it holds no text of cannot be applied.
    done = published(3);
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '#' }] });
    const ranged = await done;
    done = published(4);
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 4 }, contentChanges: [{ text: '# tool\n\n```bash\ntool +sed=1\n```\n' }] });
    const small = await done;
    peak = Math.max(peak, peakKb(child.pid!) ?? 0);
    clearInterval(watch);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    expect(messages(sixty)).toEqual(['1:parse-error Not read: it is 56.4 MB, over the 1 MB limit for one document, which the Markdown parser cannot handle in bounded time']);
    expect(messages(ninety)).toEqual(['1:parse-error Cannot read docs/big.md: EFBIG (84.6 MB, over the 64.0 MB limit)']);
    // What a CLI run says of the same file on disk (refused by its size, nothing read).
    writeFileSync(path.join(root, file), page(90));
    const cli = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8' });
    const results = (JSON.parse(cli.stdout) as { results: Array<{ file: string; line: number; ruleId: string; message: string }> }).results.filter((r) => r.file === file);
    expect(results.map((r) => `${r.line}:${r.ruleId} ${r.message}`)).toEqual(messages(ninety));
    expect(messages(ranged)).toEqual(['1:parse-error Cannot read docs/big.md: EFBIG (edited by range after it went over the 64.0 MB limit, the language server holds no text of it: close and reopen it)']);
    expect(small.diagnostics.map((d) => d.code)).toEqual(['example-param-unknown']);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(512 * 1024);
  }, 120_000);

  it('10 full-text edits of a 30 MB page written back to back: the server lives, the last version gets its diagnostics, peak RSS under 512 MB (s44 sweep G3: out of memory at 701 MB)', async () => {
    const { last, code, stderr, peak } = await fullTextBurst(30, 10);
    expect(stderr).toBe('');
    expect(last).toEqual(['example-param-unknown']);
    expect(code).toBe(0);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(512 * 1024);
  }, 180_000);

  it('30 full-text edits of a 4 MB page written back to back while the first lint reads the input: each replaced one is dropped, and a 64 MB heap is enough (s44 sweep G3)', async () => {
    // The lint takes the input as it comes (src/lsp/reader.ts), and the connection handles none of it
    // until the lint ends: every text was held until then.
    const { last, code, stderr } = await fullTextBurst(4, 30, { DOCDRIFT_TEST_LSP_HEAP_MB: '64' });
    expect(stderr).toBe('');
    expect(last).toEqual(['example-param-unknown']);
    expect(code).toBe(0);
  }, 180_000);
});
