/**
 * The type checker's worker thread (see {@link AliasChecker} in checked.ts): loads ts-morph and an
 * in-memory project of the files it is given, then answers one request per alias on its port, in
 * order, and after each answer bumps the shared flag's index 0 to the request's id and wakes the
 * waiting thread. Index 1 holds this thread's Linux id (0 without `/proc`) so the waiting thread
 * can read its CPU time; index 2 turns 1 when loaded, -1 when loading failed. Reads no file.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { enableCompileCacheInWorker } from '../../shared/compile-cache.js';
import { currentThreadId } from '../../shared/thread-cpu.js';
import type { CheckerRequest, CheckerResponse } from './checked.js';

const { port, flag, texts } = workerData as { port: MessagePort; flag: Int32Array; texts: Array<[string, string]> };
Atomics.store(flag, 1, currentThreadId());
// Before checker-core imports ts-morph (TypeScript's compiler): its compiled code is reused from disk on Node 22+.
enableCompileCacheInWorker();
try {
  const { checkerProject, readAliasProperties } = await import('./checker-core.js');
  const project = checkerProject(texts);
  port.on('message', (request: CheckerRequest) => {
    let response: CheckerResponse;
    try {
      response = { id: request.id, answer: readAliasProperties(project, request.file, request.name, request.texts) };
    } catch (error) {
      response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(response);
    Atomics.store(flag, 0, request.id);
    Atomics.notify(flag, 0);
  });
  Atomics.store(flag, 2, 1);
} catch {
  Atomics.store(flag, 2, -1);
}
Atomics.notify(flag, 2);
