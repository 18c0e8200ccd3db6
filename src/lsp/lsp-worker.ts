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
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { enableCompileCacheInWorker } from '../shared/compile-cache.js';
import { adoptHelperThreads } from '../shared/thread-cpu.js';
import { INPUT_READ_REPORT_BYTES } from './launch.js';
import { startLanguageServer, type LanguageServerPortMessage, type LanguageServerWorkerData } from './server.js';

enableCompileCacheInWorker();
const { debounceMs, noStartDirectory, helperThreads, port } = workerData as LanguageServerWorkerData & { port: MessagePort };
adoptHelperThreads(helperThreads ?? []);
const post = (message: LanguageServerPortMessage): void => port.postMessage(message);
const input = new PassThrough();
/**
 * Bytes of the client's input taken since the main thread was last told: it stops reading its
 * standard input while too many it posted are not taken (`INPUT_IN_FLIGHT_BYTES`, launch.ts).
 */
let unreported = 0;
/** Hands one message from the main thread to the server (the client's bytes are written to `input`, which passes them on in the same call). */
const receive = (message: LanguageServerPortMessage): void => {
  if (message.kind === 'in') {
    unreported += message.chunk.byteLength;
    if (unreported >= INPUT_READ_REPORT_BYTES) {
      post({ kind: 'read', bytes: unreported });
      unreported = 0;
    }
    // The chunk's buffer was moved here (launch.ts): read in place, not copied.
    input.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
  }
  // The client's input ended: the server first answers the requests it read (a client that writes
  // its last requests and closes its side at once still reads), then sees the end. Ended at once,
  // the connection closed under the responses being written: "internal error: Connection is
  // closed" and a frame torn after its header (s34 sweep D1).
  else if (message.kind === 'end') void quiet().then(() => input.end());
};
port.on('message', receive);
/**
 * The server's `pollInput`: takes the next message the main thread posted, now, while a lint runs
 * (the port's messages are otherwise handled only between turns of the event loop). The port keeps
 * the order: a message taken here is not delivered again as an event.
 */
const pollInput = (): boolean => {
  const next = receiveMessageOnPort(port);
  if (next === undefined) return false;
  receive(next.message as LanguageServerPortMessage);
  return true;
};
/** Chunks the server has written so far (see {@link drainThenEnd}). */
let written = 0;
const output = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    written++;
    // Copied once into a buffer of its own, which is moved to the main thread (not cloned again).
    const own = new Uint8Array(chunk);
    port.postMessage({ kind: 'out', chunk: own } satisfies LanguageServerPortMessage, [own.buffer]);
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
/**
 * Ends once the server has written what it still had queued: vscode-jsonrpc writes one message
 * per turn of the event loop, so responses to the requests read before `exit` (`shutdown`'s, and
 * `initialize`'s when a client sends everything at once) were still queued when the `exit`
 * notification ended the process, and lost (s34 sweep D1). Waits until nothing was written for
 * {@link DRAIN_QUIET_MS} and three turns, at most {@link DRAIN_MS}.
 */
const DRAIN_MS = 1000;
/** How long nothing must be written before the thread ends (the handlers of requests read before `exit` answer within a few turns). */
const DRAIN_QUIET_MS = 50;
async function drainThenEnd(code: number): Promise<void> {
  await quiet();
  end(code);
}

/** Resolves once nothing was written for {@link DRAIN_QUIET_MS} and three turns, at most {@link DRAIN_MS}. */
async function quiet(): Promise<void> {
  const until = Date.now() + DRAIN_MS;
  let lastWrite = Date.now();
  for (let quiet = 0; (quiet < 3 || Date.now() - lastWrite < DRAIN_QUIET_MS) && Date.now() < until; ) {
    const before = written;
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    if (written === before) quiet++;
    else {
      quiet = 0;
      lastWrite = Date.now();
    }
  }
}
process.exit = ((code?: number | string | null) => {
  void drainThenEnd(Number(code ?? process.exitCode ?? 0) || 0);
}) as typeof process.exit;
// Not a top-level await: the server ends the thread at `exit` while this promise is pending, and
// Node 22 and 24 then printed "Warning: Detected unsettled top-level await" on stderr at every
// exit (the client's log). A rejection still ends the thread with an error, as an await did.
void startLanguageServer({ input, output, pollInput, ...(debounceMs !== undefined ? { debounceMs } : {}), ...(noStartDirectory ? { noStartDirectory } : {}) }).then(() =>
  // The client's input ended: what the server was still writing (responses to the last requests
  // it read, which a client closing its side at once still reads) goes first.
  drainThenEnd(0),
);
