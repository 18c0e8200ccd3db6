/** The `docdrift init` sub-command: parses its arguments, proposes a starter config, writes or prints it. */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, MAX_CONFIG_BYTES, REFUSED_CONFIG_FILES } from './config/load.js';
import { pathExists, readRegularFile } from './shared/read-file.js';
import { existingConfigFiles, INIT_CONFIG_FILE, ProposalError, skippedText, writeProposal } from './engine/init.js';
import { proposeConfig } from './api.js';
import { writeFileAtomic } from './engine/write.js';
import type { CliIO } from './cli.js';
import { parseCommandLine, UsageError, type OptionSpec } from './cli-args.js';
import { escapeLine } from './shared/escape.js';

/** Whether `abs` is a file (through links). */
function isFileAt(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

const INIT_HELP = `Usage: docdrift init [--root DIR] [--force] [--dry-run]

Inspects the project (console scripts, package.json bins, CLI flag definitions, config classes,
reference sections) and writes a starter ${INIT_CONFIG_FILE} to its root. Review the "$comment"
notes in it, fill in the commands marked TODO, then commit it.
To lint a path named "init" rather than run this, write ./init.

Options:
  --root DIR   project root (default: the current directory)
  --force      overwrite an existing docdrift.config.json (never written beside
               another config file, a JavaScript/TypeScript one included: docdrift
               reads exactly one)
  --dry-run    print the config to stdout instead of writing it
  -h, --help   show this help

Exit codes: 0 written (or printed), 2 a config exists (without --force; with it, another
config file or a JavaScript/TypeScript one exists), bad option, or error.
`;

/**
 * The options of `docdrift init`, one property per flag. docdrift's own README section
 * "Options of `docdrift init`" is checked against this type by `npm run lint:docs`.
 */
export interface InitOptions {
  /**
   * The project to inspect, and where the config is written.
   * @default "."
   */
  root: string;
  /**
   * Overwrite an existing `docdrift.config.json` (never one beside another config file).
   * @default false
   */
  force: boolean;
  /**
   * Print the config to stdout and write nothing.
   * @default false
   */
  'dry-run': boolean;
  /**
   * Show the help of `docdrift init`.
   * @default false
   */
  help: boolean;
}

/** The options `docdrift init` accepts, in {@link parseCommandLine} form; keys are those of {@link InitOptions}. */
export const INIT_OPTIONS = {
  root: { type: 'string', valueName: 'dir' },
  force: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies Record<keyof InitOptions, OptionSpec>;

/**
 * Runs `docdrift init` with `argv` (the arguments after `init`) and returns the exit code:
 * 0 when the config was written or printed, 2 on a bad option, an existing config without
 * `--force`, or a failure to write. Never throws.
 */
export async function runInit(argv: string[], io: CliIO): Promise<number> {
  // Each stderr line is written whole, its control characters and line feeds escaped: a file or
  // folder named `x\n::error file=README.md::…` must not forge a line, as it cannot in a lint run
  // (s25 sweep D7: the proposal's summary and review named such a reference page).
  const err = (line: string): void => io.stderr(`${escapeLine(line)}\n`);
  let values;
  try {
    ({ values } = parseCommandLine('docdrift init', argv, INIT_OPTIONS, { allowPositionals: false }));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`docdrift init: ${(error as Error).message}`);
    err('Run `docdrift init --help` for the options.');
    return 2;
  }
  if (values.help) {
    io.stdout(INIT_HELP);
    return 0;
  }
  // `--root ''` (an unset variable expanded) is refused as the lint command refuses it: taken as
  // the current directory it wrote a config there (s23 sweep D8).
  if (typeof values.root === 'string' && values.root.trim() === '') {
    err('docdrift init: --root needs a directory; got an empty value (is the variable it came from set?).');
    return 2;
  }
  const root = path.resolve(io.cwd, values.root ?? '.');
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    err(`docdrift init: --root ${root} is not a directory.`);
    return 2;
  }
  // A JavaScript/TypeScript config is never loaded (a plain run refuses it), but a
  // docdrift.config.json beside it would be, leaving it silently unused: init refuses, --force
  // or not, as it refuses beside any other config file (sweep13 D12).
  const executable = REFUSED_CONFIG_FILES.filter((f) => isFileAt(path.join(root, f)));
  if (executable.length > 0 && !values['dry-run']) {
    err(
      `docdrift init: ${executable.join(', ')} ${executable.length === 1 ? 'is a JavaScript/TypeScript config file' : 'are JavaScript/TypeScript config files'} in ${root}, which docdrift does not load (it never executes repository code); nothing was written. ` +
        `A ${INIT_CONFIG_FILE} beside ${executable.length === 1 ? 'it' : 'them'} would be read instead and leave ${executable.length === 1 ? 'it' : 'them'} silently unused. ` +
        `Remove ${executable.join(', ')} and run init again (then carry its settings over), or run with --dry-run to print the proposal.`
    );
    return 2;
  }
  // A link to nothing at a config name is named so: it is what a later run would refuse.
  // What is at the name init writes and is no file (a link to nothing, a folder) is refused by the write, which says why.
  const existing = existingConfigFiles(root).filter((f) => f !== INIT_CONFIG_FILE || isFileAt(path.join(root, f)));
  const broken = existing.filter((f) => f !== 'package.json' && !isFileAt(path.join(root, f)));
  const brokenNote = broken.length === 0 ? '' : `(${broken.join(', ')} ${broken.length === 1 ? 'is not a file docdrift can read (a link to nothing, a folder…): every run refuses it' : 'are not files docdrift can read (links to nothing, folders…): every run refuses them'}.) `;
  // docdrift reads exactly one config file: a docdrift.config.json written beside another would
  // make every later run exit 2 ("more than one config file"), so --force overwrites only a
  // docdrift.config.json and never writes one beside another config (#33 item 16).
  const others = existing.filter((f) => f !== INIT_CONFIG_FILE).map((f) => (f === 'package.json' ? 'package.json ("docdrift" key)' : f));
  if (others.length > 0 && values.force && !values['dry-run']) {
    err(
      `docdrift init: ${others.join(', ')} already configure${others.length === 1 ? 's' : ''} docdrift in ${root}; nothing was written. ${brokenNote}` +
        `docdrift reads exactly one config file: a ${INIT_CONFIG_FILE} beside ${others.length === 1 ? 'it' : 'them'} would make every run exit 2 ("more than one config file"). ` +
        `Remove ${others.join(', ')} and run init again, or run with --dry-run to print the proposal.`
    );
    return 2;
  }
  if (existing.length > 0 && !values.force && !values['dry-run']) {
    err(
      `docdrift init: ${existing.join(', ')} already configures docdrift in ${root}; nothing was written. ${brokenNote}` +
        (others.length > 0
          ? `Remove ${others.join(', ')} and run init again (docdrift reads exactly one config file), or run with --dry-run to print the proposal.`
          : 'Run with --force to overwrite it, or --dry-run to print the proposal.')
    );
    return 2;
  }
  const previous = values['dry-run'] ? { existed: false } : previousConfig(root);
  try {
    // The proposal was fitted to the limits of a run and loaded with its loader before anything is
    // written (s26 sweep D3), so --dry-run and a write report the same outcome.
    const proposal = await proposeConfig(root);
    if (values['dry-run']) {
      io.stdout(proposal.text);
    } else {
      const file = writeProposal(root, proposal);
      restoreUnlessLoads(root, file, previous);
      const shown = path.relative(io.cwd, file);
      err(`docdrift init: wrote ${shown.startsWith('..') || path.isAbsolute(shown) ? file : shown}`);
    }
    for (const line of proposal.summary) err(`  command ${line}`);
    if (proposal.skipped.length > 0) err(`docdrift init: ${skippedText(proposal.skipped)}`);
    if (proposal.review.length > 0) {
      err('Review:');
      for (const line of proposal.review) err(`  - ${line}`);
    }
    err('Then run `docdrift` to lint with it.');
    return 0;
  } catch (error) {
    if (error instanceof ProposalError) {
      err(`docdrift init: ${error.lines[0]}`);
      for (const line of error.lines.slice(1)) err(line);
    } else err(`docdrift init: ${(error as Error)?.message ?? String(error)}`);
    return 2;
  }
}

/**
 * The config init may overwrite (`--force`): `text` when it is a regular file it can read (never
 * a FIFO or a device: see `readRegularFile`), `existed` when anything is at its path.
 */
function previousConfig(root: string): { existed: boolean; text?: string } {
  const file = path.join(root, INIT_CONFIG_FILE);
  if (!pathExists(file)) return { existed: false };
  try {
    return { existed: true, text: readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES * 16 }) };
  } catch {
    return { existed: true };
  }
}

/**
 * Loads the written config as a run would; when it does not load, puts back what was there (or
 * removes the file when there was none) and rethrows: init never leaves a config every later run
 * refuses. (The text was loaded before the write: this guards against what the write changed.)
 */
function restoreUnlessLoads(root: string, file: string, previous: { existed: boolean; text?: string }): void {
  try {
    loadConfig(root, file);
  } catch (error) {
    if (!previous.existed) rmSync(file, { force: true });
    else if (previous.text !== undefined) writeFileAtomic(file, previous.text, { root });
    throw error;
  }
}
