/**
 * Open pages over the document limit in the language server (#33 s46 sweep H4): four open pages of
 * 60 MB, each "Not read: over the 1 MB limit", were held whole and stopped the server at its 256 MB
 * heap limit (exit 1 at 530-603 MB of RSS; shutdown never answered). The server now keeps what a
 * lint's verdict on such a page reads instead of its text (src/engine/held-pages.ts). Here the
 * same at a smaller scale: five 10 MB pages under a 48 MB heap (DOCDRIFT_TEST_LSP_HEAP_MB). Spawns
 * the bundled bin (needs `npm run build`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, copyToTemp, removeTempDirs } from './helpers.js';

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

afterAll(removeTempDirs);

describe('docdrift lsp: open pages over the document limit', () => {
  it('five open pages of 10 MB under a 48 MB heap: each gets the CLI\'s verdict (a page naming no command none), the server lives and answers shutdown; a full-text edit back under the limit is parsed, a range edit of a held page says so', async () => {
    const root = copyToTemp(BAD_BASE);
    const uri = (file: string): string => pathToFileURL(path.join(root, file)).href;
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe', env: { ...process.env, DOCDRIFT_TEST_LSP_HEAP_MB: '48' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const seen = new Map<string, PublishDiagnosticsParams>();
    const waiting = new Map<string, (p: PublishDiagnosticsParams) => void>();
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      const key = `${params.uri}@${params.version}`;
      seen.set(key, params);
      waiting.get(key)?.(params);
    });
    let linted = (): void => undefined;
    const firstLint = new Promise<void>((resolve) => (linted = resolve));
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      if (params.message.startsWith('docdrift: linted')) linted();
    });
    // Resolves with the diagnostics of `file` at `version`, or undefined when the server ends first.
    const published = (file: string, version: number): Promise<string[] | undefined> => {
      const key = `${uri(file)}@${version}`;
      const got = new Promise<PublishDiagnosticsParams>((resolve) => {
        const early = seen.get(key);
        if (early) resolve(early);
        else waiting.set(key, resolve);
      });
      return Promise.race([got.then((p) => p.diagnostics.map((d) => `${d.range.start.line + 1}:${String(d.code)} ${d.message}`)), exited.then(() => undefined)]);
    };
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    // The large pages are judged with the last lint's mention matcher: the first lint ends first.
    await Promise.race([firstLint, sleep(60_000)]);
    const mb = 10;
    const naming = '# tool\n\nSome words of prose here `tool` and more words.\n\n'.repeat(Math.ceil((mb * 1024 * 1024) / 56));
    const quiet = 'Some words of prose here and more words, naming nothing.\n\n'.repeat(Math.ceil((mb * 1024 * 1024) / 59));
    // A server out of memory ends mid-burst: the writes after it fail.
    const send = (method: string, params: object): Promise<void> => (child.exitCode === null ? connection.sendNotification(method, params).catch(() => undefined) : Promise.resolve());
    const pages = ['docs/big0.md', 'docs/big1.md', 'docs/big2.md', 'docs/big3.md'];
    for (const [i, file] of pages.entries()) await send('textDocument/didOpen', { textDocument: { uri: uri(file), languageId: 'markdown', version: 1, text: `${naming}${i}` } });
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/quiet.md'), languageId: 'markdown', version: 1, text: quiet } });
    const opened = await Promise.all([...pages, 'docs/quiet.md'].map((file) => published(file, 1)));
    // Back under the limit by a full-text edit: parsed, with its normal diagnostics.
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/big0.md'), version: 2 }, contentChanges: [{ text: '# tool\n\n```bash\ntool +sed=1\n```\n' }] });
    const shrunk = await published('docs/big0.md', 2);
    // A range edit applied to a page the server holds no text of: it cannot know the result.
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/big1.md'), version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '#' }] });
    const ranged = await published('docs/big1.md', 2);
    const answered = child.exitCode === null ? await Promise.race([connection.sendRequest('shutdown').then(() => true), exited.then(() => false)]) : false;
    if (answered) await send('exit', {});
    const code = await exited;
    connection.dispose();
    const notRead = (i: number): string => `1:parse-error Not read: it is ${(((naming.length + String(i).length) / (1024 * 1024)).toFixed(1))} MB, over the 1 MB limit for one document, which the Markdown parser cannot handle in bounded time`;
    expect(stderr).toBe('');
    expect(opened).toEqual([[notRead(0)], [notRead(1)], [notRead(2)], [notRead(3)], []]);
    expect(shrunk).toEqual(['4:example-param-unknown `sed` is not a parameter of `tool` (config: ToolConfig). Did you mean `seed`?']);
    expect(ranged).toEqual(['1:parse-error Cannot read docs/big1.md: EFBIG (edited by range after it went over the 1 MB limit for one document, the language server holds no text of it: close and reopen it)']);
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 240_000);
});
