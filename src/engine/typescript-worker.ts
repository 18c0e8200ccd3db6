/**
 * The worker thread of {@link startTypeScriptFacts} (src/engine/typescript-facts.ts): computes the
 * TypeScript facts of one run (loading ts-morph here, off the main thread) and answers once with
 * a {@link TypeScriptJobAnswer}. Other files the extraction reads (compiled JavaScript a `bin`
 * runs, shims) are read under the project root, or from the overlay of edited texts, exactly as
 * the main thread's reader does; each read is listed in the answer so the main thread can read
 * it again, report it if unreadable, and check it is unchanged.
 */
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { InputDiagnostic } from '../model/types.js';
import { enableCompileCacheInWorker } from '../shared/compile-cache.js';
import { MAX_READ_BYTES, projectFileSize, readProjectFile } from '../shared/read-file.js';
import { publishThreadId } from '../shared/thread-cpu.js';
import { sizeKey, textKey } from './facts.js';
import { typeScriptFacts, type FileSize, type TypeScriptJobAnswer, type TypeScriptWorkerData } from './typescript-facts.js';

const job = workerData as TypeScriptWorkerData;
// First: the main thread counts this thread's CPU time against its budget from here.
publishThreadId(job.tid);
// Before typeScriptFacts imports the TypeScript extractors (and TypeScript's compiler).
enableCompileCacheInWorker();
const overlay = new Map(job.overlay);
const unreadable = new Set(job.unreadable);
const reads: Array<[string, string | null]> = [];
const read = (file: string): string | undefined => {
  let text = overlay.get(file);
  if (text === undefined && !unreadable.has(file)) {
    try {
      text = readProjectFile(job.root, file, { maxBytes: MAX_READ_BYTES });
    } catch {
      text = undefined; // reported by the main thread when it reads the file again
    }
  }
  reads.push([file, textKey(text)]);
  return text;
};
// A program file's size, asked before it is read (one over the cap is never read): as the main
// thread's `size` gives it, and listed with the reads so that the main thread asks it again.
const size: FileSize = (file) => {
  const overlaid = overlay.get(file);
  const bytes = overlaid !== undefined ? Buffer.byteLength(overlaid) : unreadable.has(file) ? undefined : projectFileSize(job.root, file);
  reads.push([file, sizeKey(bytes)]);
  return bytes;
};

let answer: TypeScriptJobAnswer;
try {
  const diagnostics: InputDiagnostic[] = [];
  const facts = await typeScriptFacts(job.tsSources, job.packageJsons, job.programFiles, read, diagnostics, size, job.configTypes);
  answer = { facts, diagnostics, reads };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(answer);
