/**
 * `docdrift lsp` as the bin runs it (src/bin.ts loads this module instead of the CLI when the
 * first argument is `lsp`): V8's flags as for a CLI run, then {@link runLanguageServer}, which
 * ends the process with the server's exit code. The CLI's own `lsp` branch (src/cli.ts, for
 * callers of `main`) runs the same server.
 */
import '../shared/v8-tiering.js';
import { writeSync } from 'node:fs';
import { runLanguageServer } from './launch.js';

// The client closed its side (EPIPE): one line on stderr and exit code 2, as the CLI's bin does, never an unhandled-error stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  try {
    writeSync(2, `docdrift lsp: cannot write to standard output (${error.code ?? error.message}).\n`);
  } catch {
    // stderr is gone too
  }
  process.exit(2);
});
process.exitCode = await runLanguageServer(process.argv.slice(3), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => {
    try {
      writeSync(2, text);
    } catch {
      // stderr is gone: the exit code is all that is left
    }
  },
});
