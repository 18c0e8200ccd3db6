/**
 * The worker thread of src/docs/bounded-parse.ts: parses documents sent by the main thread, one
 * at a time, and answers on the port it was given, then wakes the waiting main thread through
 * the shared flag. Runs only the pure parsers (remark and docdrift's readers); no file access.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { readDirectives } from './directives.js';
import { parseDoc } from './parse.js';
import type { ParseRequest, ParseResponse } from './bounded-parse.js';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
// This thread's id (Linux: /proc/thread-self is "<pid>/task/<tid>"), so the main thread can read its CPU time.
try {
  Atomics.store(flag, 2, Number(readlinkSync('/proc/thread-self').split('/').pop()) || 0);
} catch {
  // no /proc: the main thread falls back to a wall-clock deadline
}
// This thread's CPU time now, loaded (ms; utime + stime, fields 14 and 15 of its stat, at 100 ticks a second): the run-wide parse budget counts from here.
try {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  Atomics.store(flag, 3, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 || 0);
} catch {
  // no /proc: no run-wide budget
}
// Loaded: from now on the main thread counts each document's budget.
Atomics.store(flag, 1, 1);
Atomics.notify(flag, 1);

parentPort!.on('message', (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    const parsed = request.doc ? parseDoc(request.file, request.text, request.segments !== undefined ? { segments: request.segments } : {}) : undefined;
    const directives = request.directives ? readDirectives(request.file, request.text) : [];
    response = {
      id: request.id,
      ...(parsed ? { doc: parsed.doc, diagnostics: parsed.diagnostics, ...(parsed.segments ? { segments: parsed.segments } : {}) } : { diagnostics: [] }),
      directives,
    };
  } catch (error) {
    response = { id: request.id, diagnostics: [], directives: [], error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
  Atomics.store(flag, 0, request.id);
  Atomics.notify(flag, 0);
});
