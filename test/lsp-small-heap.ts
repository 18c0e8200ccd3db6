/**
 * A language server (`docdrift lsp --stdio`, the bundled bin: needs `npm run build`) on a copy of
 * the bad-input base project under a 48 MB heap (DOCDRIFT_TEST_LSP_HEAP_MB), driven over stdio as a
 * client would, for the tests of pages past the size limits (test/lsp-large-pages.test.ts,
 * test/lsp-range-limits.test.ts). Not a test file.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { CLI_BIN, copyToTemp } from './helpers.js';

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

/** A language server on a copy of the bad-input base project under a 48 MB heap, driven as a client would. */
export async function startServer(): Promise<{
  uri: (file: string) => string;
  send: (method: string, params: object) => Promise<void>;
  published: (file: string, version: number) => Promise<string[] | undefined>;
  stop: () => Promise<{ answered: boolean; code: number | null; stderr: string }>;
}> {
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
  // Large pages are judged with the last lint's mention matcher: the first lint ends first.
  await Promise.race([firstLint, sleep(60_000)]);
  // A server out of memory ends mid-burst: the writes after it fail.
  const send = (method: string, params: object): Promise<void> => (child.exitCode === null ? connection.sendNotification(method, params).catch(() => undefined) : Promise.resolve());
  const stop = async (): Promise<{ answered: boolean; code: number | null; stderr: string }> => {
    const answered = child.exitCode === null ? await Promise.race([connection.sendRequest('shutdown').then(() => true), exited.then(() => false)]) : false;
    if (answered) await send('exit', {});
    const code = await exited;
    connection.dispose();
    return { answered, code, stderr };
  };
  return { uri, send, published, stop };
}
