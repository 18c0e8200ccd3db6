/**
 * The process side of `docdrift lsp`: its arguments and the worker thread that runs the server
 * ({@link runLanguageServer}; the server itself is src/lsp/server.ts, loaded by that thread).
 * This module imports none of the engine, so the process's main thread, which only moves the
 * client's bytes to the thread and back, does not load the linter's code (src/bin.ts loads it
 * alone for `docdrift lsp`).
 */
import path from 'node:path';
import { escapeLine } from '../shared/escape.js';
import { currentDirectory } from '../shared/paths.js';
import { helperThreadIds } from '../shared/thread-cpu.js';

/** Shown when the server cannot start because of its arguments. */
export const LSP_HELP = `Usage: docdrift lsp [--stdio]

Runs docdrift as a language server (Language Server Protocol) on standard input and output: an
editor starts it and shows the findings of the open workspace as diagnostics, with quick fixes.
The workspace root is the project root; the config is found there as the CLI finds it, or is
the file the client names in initializationOptions.configFile (relative to the root).
`;

/** What the language server's thread is given (src/lsp/lsp-worker.ts), besides the port it talks on. */
export interface LanguageServerWorkerData {
  debounceMs?: number;
  /** The process started in a folder that no longer exists (see {@link runLanguageServer}): no default root. */
  noStartDirectory?: boolean;
  /** The process's helper threads, found by the main thread (`helperThreadIds`, src/shared/thread-cpu.ts): the document parser counts their CPU time. */
  helperThreads?: readonly number[];
}

/**
 * A message between the main thread and the language server's thread: the client's bytes (`in`),
 * the end of its input (`end`), the number of the client's bytes the thread has taken since its
 * last `read` (`read`, see {@link INPUT_IN_FLIGHT_BYTES}), the server's bytes (`out`), and the
 * server's end with its exit code (`exit`, after every `out`).
 */
export type LanguageServerPortMessage = { kind: 'in'; chunk: Uint8Array } | { kind: 'end' } | { kind: 'read'; bytes: number } | { kind: 'out'; chunk: Uint8Array } | { kind: 'exit'; code: number };

/**
 * The most bytes of the client's input posted to the server's thread and not yet taken by it: past
 * this the main thread stops reading its standard input until the thread has taken half of them,
 * so that input the thread cannot keep up with waits in the client's pipe, not in this process. A
 * client writing full-text edits of a 10 MB page back to back had 130 MB of them queued on the
 * thread's port while the thread decoded the ones before (#33 s44 sweep G3).
 */
export const INPUT_IN_FLIGHT_BYTES = 8 * 1024 * 1024;

/**
 * The thread tells the main thread of the input it took (a `read` message) each time it took this
 * many bytes since it last did: at most this many taken go untold, less than half of
 * {@link INPUT_IN_FLIGHT_BYTES}, so a paused input always resumes once the thread took what was posted.
 */
export const INPUT_READ_REPORT_BYTES = 1024 * 1024;

/**
 * The language server thread's V8 old-generation limit, in MB. An editor keeps the server for
 * hours and V8 collects lazily while the heap may grow: 60 open pages of 4,400 example lines each
 * held 646 MB of RSS after their lints, where the CLI's run of them peaks at ~300 MB (#33 s32
 * sweep D5: 1.4 GB with 50 larger pages). Under this limit V8 collects sooner; a lint whose live
 * data would need more ends the thread, which the main thread reports ({@link runLanguageServer}).
 */
export const LSP_HEAP_MB = 256;

/** The language server thread's V8 young-generation limit, in MB (V8 takes 32-64 MB by default). */
export const LSP_YOUNG_MB = 32;

/**
 * The `docdrift lsp` sub-command: `--stdio` (what clients pass) is accepted and is the only
 * transport. Returns 2 for a bad argument. Otherwise the server runs in a worker thread under a
 * heap limit ({@link LSP_HEAP_MB}; its documents' parse worker and extraction workers have their
 * own), its standard input and output piped to the process's; the process ends with the thread's
 * exit code: 0 when the client's input ends, whatever was half-read; vscode-languageserver's at
 * the `exit` notification (0 after `shutdown`, 1 without); 1, with one line on stderr, when the
 * thread needed more memory than its limit (the client may restart the server).
 */
export async function runLanguageServer(argv: readonly string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout(LSP_HELP);
    return 0;
  }
  const unknown = argv.find((a) => a !== '--stdio');
  if (unknown !== undefined) {
    io.stderr(`docdrift lsp: unknown argument ${unknown}; the server speaks over stdio only.\n${LSP_HELP}`);
    return 2;
  }
  // Tests set a long debounce to tell an edit linted at once from one that waited for it.
  const testDebounce = Number(process.env.DOCDRIFT_TEST_DEBOUNCE_MS);
  const workerData: LanguageServerWorkerData = Number.isFinite(testDebounce) && testDebounce > 0 ? { debounceMs: testDebounce } : {};
  // Tests give the thread a heap too small to start in, to see the server end as it would at its limit.
  const testHeap = Number(process.env.DOCDRIFT_TEST_LSP_HEAP_MB);
  const heapMb = Number.isFinite(testHeap) && testHeap > 0 ? testHeap : LSP_HEAP_MB;
  // A thread cannot start in a current directory that is gone (Node's worker bootstrap reads it:
  // "internal error: uv_cwd", s40 sweep D4): the process moves to the file system's root, and the
  // server, told so, takes its root from the client only.
  if (currentDirectory() === undefined) {
    process.chdir(path.parse(process.execPath).root);
    workerData.noStartDirectory = true;
  }
  // The document parser in the server's thread counts V8's helper threads' CPU time (src/docs/bounded-parse.ts); only this thread can find them.
  workerData.helperThreads = helperThreadIds();
  const { MessageChannel, receiveMessageOnPort, Worker } = await import('node:worker_threads');
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./lsp-worker.js', import.meta.url), {
    workerData: { ...workerData, port: port2 },
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(LSP_YOUNG_MB, heapMb) },
  });
  // The process's stdout is written here, in order, synchronously (a pipe or file on Linux), so
  // every byte the server wrote before it ended is out before the process exits.
  const code = await new Promise<number>((resolve) => {
    /** Bytes of the client's input posted to the thread and not yet taken by it (see {@link INPUT_IN_FLIGHT_BYTES}). */
    let inFlight = 0;
    const receive = (message: LanguageServerPortMessage): void => {
      if (message.kind === 'out') process.stdout.write(message.chunk);
      else if (message.kind === 'exit') resolve(message.code);
      else if (message.kind === 'read') {
        inFlight -= message.bytes;
        if (inFlight <= INPUT_IN_FLIGHT_BYTES / 2 && process.stdin.isPaused()) process.stdin.resume();
      }
    };
    port1.on('message', receive);
    // Each chunk's buffer is moved to the thread, not copied by postMessage's structured clone: a
    // page of tens of MB arrives in 64 KB chunks, and every copy of them was garbage the thread's
    // peak counted (#33 s38 sweep D7). A pipe's chunk is the whole of a buffer of its own, moved as
    // it is; another (a slice of a larger buffer) is copied once into one (its copies were garbage
    // of this thread: 30 edits of a 10 MB page, #33 s44 sweep G3).
    const post = (chunk: Uint8Array<ArrayBuffer>): void => port1.postMessage({ kind: 'in', chunk } satisfies LanguageServerPortMessage, [chunk.buffer]);
    process.stdin.on('data', (chunk: Buffer) => {
      const { buffer, byteLength } = chunk;
      let moved = false;
      if (buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) {
        try {
          post(new Uint8Array(buffer));
          moved = true;
        } catch {
          // A buffer Node marks as not transferable: copied below.
        }
      }
      if (!moved) post(new Uint8Array(chunk));
      // Read before: a buffer moved is detached here, of length 0.
      inFlight += byteLength;
      if (inFlight > INPUT_IN_FLIGHT_BYTES) process.stdin.pause();
    });
    process.stdin.on('end', () => port1.postMessage({ kind: 'end' } satisfies LanguageServerPortMessage));
    worker.on('error', (error: Error & { code?: string }) => {
      io.stderr(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `docdrift lsp: the language server needed more than its ${heapMb} MB of memory and stopped; exclude large generated pages or sources with "ignore" in the docdrift config, then restart it.\n`
          : `docdrift lsp: internal error: ${escapeLine(error.message)}\n`,
      );
    });
    // What the thread posted before it ended is written first (its `exit` message among it);
    // ended without one: out of memory (after the `error` above), or a crash.
    worker.on('exit', (exitCode) => {
      for (let m = receiveMessageOnPort(port1); m !== undefined; m = receiveMessageOnPort(port1)) receive(m.message as LanguageServerPortMessage);
      resolve(exitCode);
    });
  });
  // Left to end by itself the process did not (s31 sweep D4: the library's watch of the client's
  // process, every 3 s, and stdin held it).
  process.exit(code);
}
