/**
 * The language server's thread (see `runLanguageServer` in server.ts): it runs
 * {@link startLanguageServer} on this thread's standard input and output, which the main thread
 * connects to the process's, under a V8 heap limit the main thread sets. It ends when the
 * client's input ends (exit code 0) or at the `exit` notification (vscode-languageserver's exit
 * code).
 */
import { workerData } from 'node:worker_threads';
import { enableCompileCacheInWorker } from '../shared/compile-cache.js';
import { startLanguageServer, type LanguageServerWorkerData } from './server.js';

enableCompileCacheInWorker();
const { debounceMs } = workerData as LanguageServerWorkerData;
await startLanguageServer(debounceMs !== undefined ? { debounceMs } : {});
// The client's input ended: the thread ends now (see runLanguageServer).
process.exit(0);
