/**
 * The language server's thread (see `runLanguageServer` in server.ts): it runs
 * {@link startLanguageServer} on streams fed by a message port to the main thread, which owns the
 * process's standard input and output, under a V8 heap limit the main thread sets. The client's
 * bytes arrive as `in` messages (`end` when its input ends); the server's go back as `out`
 * messages, and its end as one `exit` message after them, on the same port, so the main thread
 * writes every byte before it ends the process (a worker's own stdout is asynchronous: responses
 * written just before `process.exit` were lost, s33 sweep D5).
 */
import { PassThrough, Writable } from 'node:stream';
import { workerData, type MessagePort } from 'node:worker_threads';
import { enableCompileCacheInWorker } from '../shared/compile-cache.js';
import { startLanguageServer, type LanguageServerPortMessage, type LanguageServerWorkerData } from './server.js';

enableCompileCacheInWorker();
const { debounceMs, port } = workerData as LanguageServerWorkerData & { port: MessagePort };
const post = (message: LanguageServerPortMessage): void => port.postMessage(message);
const input = new PassThrough();
port.on('message', (message: LanguageServerPortMessage) => {
  if (message.kind === 'in') input.write(Buffer.from(message.chunk));
  else if (message.kind === 'end') input.end();
});
const output = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    post({ kind: 'out', chunk: new Uint8Array(chunk) });
    callback();
  },
});
// vscode-languageserver ends the process at the `exit` notification (and when the client's process
// is gone): here that is an `exit` message after every `out` one; the main thread ends the process.
let ended = false;
const end = (code: number): void => {
  if (ended) return;
  ended = true;
  post({ kind: 'exit', code });
  port.unref();
};
process.exit = ((code?: number | string | null) => {
  end(Number(code ?? process.exitCode ?? 0) || 0);
}) as typeof process.exit;
await startLanguageServer({ input, output, ...(debounceMs !== undefined ? { debounceMs } : {}) });
// The client's input ended.
end(0);
