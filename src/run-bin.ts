/** The `docdrift` bin's run (loaded by src/bin.ts): runs the CLI on process arguments and sets the exit code. */
// First: V8 flags for a short run, set before the rest of docdrift loads.
import './shared/v8-tiering.js';
import { writeSync } from 'node:fs';
import { main } from './cli.js';
import { currentDirectory } from './shared/paths.js';

/**
 * A report that cannot be written (stdout closed by `| head`: EPIPE; a full disk: ENOSPC) ends
 * the run with exit code 2 and one line on stderr, never an unhandled-error stack.
 */
function writeFailed(error: NodeJS.ErrnoException): never {
  try {
    writeSync(2, `docdrift: cannot write the report to standard output (${error.code ?? error.message}).\n`);
  } catch {
    // stderr is gone too: the exit code is all that is left
  }
  process.exit(2);
}
process.stdout.on('error', writeFailed);
process.stderr.on('error', () => process.exit(2));

// Relative paths (`--root`, `-o`, path arguments, the config) are resolved from it: a run from a
// folder that is gone is a usage error, one line and exit 2, never a stack trace (s40 sweep D4).
const cwd = currentDirectory();
if (cwd === undefined) {
  try {
    writeSync(2, 'docdrift: the current directory no longer exists; run docdrift from an existing directory.\n');
  } catch {
    // stderr is gone too: the exit code is all that is left
  }
  process.exit(2);
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => {
    try {
      process.stdout.write(text);
    } catch (error) {
      writeFailed(error as NodeJS.ErrnoException);
    }
  },
  stderr: (text) => {
    try {
      process.stderr.write(text);
    } catch {
      process.exit(2);
    }
  },
  cwd,
  isTTY: Boolean(process.stdout.isTTY),
  progressStream: process.stderr,
});
