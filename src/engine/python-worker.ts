/**
 * The worker thread of {@link startPythonFlags} (src/engine/python-flags.ts): extracts the CLI
 * flags of the Python files it is given, posting the scans of those files as soon as they are
 * parsed (a `scans` message) and then the flags (`flags`), or `error` when the extraction throws.
 * As the scan worker of {@link startPythonScans} (`scanOnly`), it posts the scans of its files and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { enableCompileCacheInWorker } from '../shared/compile-cache.js';
import { publishThreadId } from '../shared/thread-cpu.js';
import type { PythonFlagsMessage, PythonWorkerData } from './python-flags.js';

const job = workerData as PythonWorkerData;
/** Sources per `scan-batch` message of the scan worker. */
const SCAN_BATCH = 32;
// First: the main thread counts this thread's CPU time against its budget from here.
publishThreadId(job.tid);
enableCompileCacheInWorker();
const post = (message: PythonFlagsMessage): void => parentPort!.postMessage(message);
try {
  if (job.scanOnly) {
    // The scan worker (startPythonScans): the scans only.
    const { scanPythonSources } = await import('../extract/python/index.js');
    // In batches, each posted as soon as it is made: this thread keeps no scan.
    for (let i = 0; i < job.sources.length; i += SCAN_BATCH) post({ kind: 'scan-batch', scans: await scanPythonSources(job.sources.slice(i, i + SCAN_BATCH), job.packageRoots) });
    post({ kind: 'scans-done' });
  } else {
    const { extractPythonFlags } = await import('../extract/python/flags.js');
    const flags = await extractPythonFlags(job.sources, { packageRoots: job.packageRoots, onScanned: (scans) => post({ kind: 'scans', scans }) });
    post({ kind: 'flags', flags });
  }
} catch (error) {
  post({ kind: 'error', error: error instanceof Error ? error.message : String(error) });
}
