#!/usr/bin/env node
/** Executable entry of the `docdrift` bin: runs the CLI on process arguments and sets the exit code. */
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  isTTY: Boolean(process.stdout.isTTY),
});
