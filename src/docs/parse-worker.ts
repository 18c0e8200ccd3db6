/**
 * The worker thread of src/docs/bounded-parse.ts: parses documents sent by the main thread, one
 * at a time, and answers on the port it was given, then wakes the waiting main thread through
 * the shared flag. Runs only the pure parsers (remark and docdrift's readers); no file access.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { readDirectives } from './directives.js';
import { parseDoc } from './parse.js';
import { setPieceObserver } from './progress.js';
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
// Each piece of work the parser starts (src/docs/progress.ts): [5] its length, [6] the lengths of
// the document's pieces so far, then [4] counts on, so the main thread holds the piece's own
// budget from the moment it sees the count change, and the document's cost per KB.
// [7], while the piece is a probe (src/docs/progress.ts `probedPiece`), is the length of the
// piece it probes (else 0): the main thread predicts that piece's cost from the probe's. A
// probe's text is parsed again as part of the piece after it, so it is not counted in [6].
setPieceObserver((length, probeOf) => {
  Atomics.store(flag, 5, length);
  Atomics.store(flag, 7, probeOf);
  if (probeOf === 0) Atomics.add(flag, 6, length);
  Atomics.add(flag, 4, 1);
});
// Loaded: from now on the main thread counts each document's budget.
Atomics.store(flag, 1, 1);
Atomics.notify(flag, 1);

parentPort!.on('message', (request: ParseRequest) => {
  let response: ParseResponse;
  // Until the parser reports a smaller piece, the whole document is the piece in progress (not
  // counted in [6]: nothing of it is parsed yet).
  Atomics.store(flag, 6, 0);
  Atomics.store(flag, 5, request.text.length);
  Atomics.store(flag, 7, 0);
  Atomics.add(flag, 4, 1);
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
