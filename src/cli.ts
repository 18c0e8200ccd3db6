/** The `docdrift` command: parses arguments, loads the config, runs the engine, prints a report, sets the exit code. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, validateRuleOptions } from './config/load.js';
import { summariseCommands } from './engine/cache.js';
import { ChangedSinceError, changedFiles, selectAffected } from './engine/changed.js';
import { lint, toProjectPath } from './engine/lint.js';
import { runInit } from './init.js';
import { describeFix } from './fix/apply.js';
import { BaselineError, finishBaseline, loadBaseline, type LoadedBaseline } from './engine/baseline.js';
import { baselineEntryStale, engineRules, engineRuleSeverity } from './engine/engine-rules.js';
import { appendSummary, formatSummary, formatters } from './report/index.js';
import { formatNotes } from './report/notes.js';
import { fixProject, lintWithCache, ruleIds, rules } from './api.js';

/** Exit codes (ESLint's convention): 0 clean, 1 problems found, 2 usage, config or internal error. */
export const EXIT = { ok: 0, problems: 1, error: 2 } as const;

const HELP = `Usage: docdrift [paths…] [options]
       docdrift init [--root DIR] [--force] [--dry-run]   (write a starter config; see docdrift init --help)

Checks that config classes in code, reference tables and README examples agree.
With paths (files or directories, relative to the current directory), only findings in them are
reported; the whole project is still read. To lint a path named "init", write ./init.

Options:
  --root DIR           project root (default: the current directory)
  --config FILE        config file (default: docdrift.config.json|yaml, .docdriftrc.*, package.json#docdrift)
  --format NAME        stylish | json | sarif | github (default: stylish)
  --summary FILE       append a Markdown summary with coverage tables to FILE (e.g. $GITHUB_STEP_SUMMARY)
  --max-warnings N     exit 1 when there are more than N warnings (default: -1, no limit)
  --quiet              report errors only
  --changed-since REF  report only findings in files changed since the git ref REF (merge base,
                       working tree and untracked files) or made stale by changed code
  --fix                apply the rules' fixes to the docs, then report what remains
  --fix-dry-run        print the fixes as a unified diff; write nothing
  --baseline FILE      report only findings this baseline does not record (default: .docdrift-baseline.json if present)
  --write-baseline     record the current findings in the baseline file and report none
  --no-baseline        ignore any baseline file: report every finding
  --color, --no-color  force colours on or off (NO_COLOR is honoured)
  --cache, --no-cache  reuse the result of an identical earlier run, keyed by file contents (default: on)
  --cache-location DIR
                       cache directory (default: node_modules/.cache/docdrift in the root, else .docdrift-cache)
  --debug              print timings, the discovered commands, and stacks of internal errors
  -h, --help           show this help
  -v, --version        print the version

Exit codes: 0 no errors, 1 problems found, 2 usage, config or internal error.
`;

/**
 * The options of the `docdrift` command, one property per flag, as users spell them. This is the
 * config type docdrift's own reference (README "Usage") is checked against by `npm run lint:docs`;
 * {@link CLI_OPTIONS} must declare exactly these (a test keeps them in step).
 */
export interface CliOptions {
  /**
   * The project root; paths in JSON output and in message text are relative to it.
   * @default "."
   */
  root: string;
  /** The config file (JSON or YAML); default: found in the root. */
  config?: string;
  /**
   * Output format: `stylish`, `json`, `sarif` (SARIF 2.1.0) or `github` (Actions annotations).
   * @default "stylish"
   */
  format: string;
  /** Append a Markdown summary (totals, findings per rule, per-command coverage tables) to this file, e.g. `$GITHUB_STEP_SUMMARY`. */
  summary?: string;
  /**
   * Exit 1 when there are more than this many warnings; -1 means no limit.
   * @default -1
   */
  'max-warnings': number;
  /**
   * Report errors only.
   * @default false
   */
  quiet: boolean;
  /**
   * Report only findings in files changed since this git ref (committed since the merge base
   * with HEAD, uncommitted, or untracked), and findings in other files made stale by changed
   * code. See `src/engine/changed.ts`.
   */
  'changed-since'?: string;
  /**
   * Apply the fixes of fixable rules to the documents (atomically, inside the root), then report
   * the findings that remain.
   * @default false
   */
  fix: boolean;
  /**
   * Print the fixes `--fix` would make as a unified diff and write nothing.
   * @default false
   */
  'fix-dry-run': boolean;
  /** The baseline file (docs/baseline.md); default: `.docdrift-baseline.json` in the root, when it exists. */
  baseline?: string;
  /**
   * Record the current findings in the baseline file and report none.
   * @default false
   */
  'write-baseline': boolean;
  /**
   * Ignore any baseline file (also `.docdrift-baseline.json` in the root) and report every finding.
   * @default false
   */
  'no-baseline': boolean;
  /** Force colours on. */
  color?: boolean;
  /**
   * Force colours off (`NO_COLOR` also does).
   * @default false
   */
  'no-color': boolean;
  /**
   * Reuse the result of an earlier run when every input file's content, the config and
   * docdrift's version are the same (a content-hash cache, always identical to a cold run).
   * @default true
   */
  cache: boolean;
  /**
   * Do not read or write the cache.
   * @default false
   */
  'no-cache': boolean;
  /** The cache directory; default: `node_modules/.cache/docdrift` in the root, else `.docdrift-cache`. */
  'cache-location'?: string;
  /**
   * Print timings, the discovered commands, and stacks of internal errors.
   * @default false
   */
  debug: boolean;
  /**
   * Show the help.
   * @default false
   */
  help: boolean;
  /**
   * Print the version.
   * @default false
   */
  version: boolean;
}

/** The options the CLI accepts, in `node:util` parseArgs form; keys are those of {@link CliOptions}. */
export const CLI_OPTIONS = {
  root: { type: 'string' },
  config: { type: 'string' },
  format: { type: 'string', default: 'stylish' },
  summary: { type: 'string' },
  'max-warnings': { type: 'string', default: '-1' },
  quiet: { type: 'boolean', default: false },
  'changed-since': { type: 'string' },
  fix: { type: 'boolean', default: false },
  'fix-dry-run': { type: 'boolean', default: false },
  baseline: { type: 'string' },
  'write-baseline': { type: 'boolean', default: false },
  'no-baseline': { type: 'boolean', default: false },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean', default: false },
  cache: { type: 'boolean', default: true },
  'no-cache': { type: 'boolean', default: false },
  'cache-location': { type: 'string' },
  debug: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const satisfies Record<keyof CliOptions, NonNullable<ParseArgsConfig['options']>[string]>;

/**
 * `--max-warnings -1` → `--max-warnings=-1`: node's parseArgs refuses an option value that looks
 * like an option, so a negative number is joined to its option first.
 */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === '--max-warnings' && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Output streams, injectable for tests. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  isTTY: boolean;
}

/** docdrift's version: package.json is two levels up from dist/src/cli.js, one from src/cli.ts (tests run the source). */
function version(): string {
  const built = new URL('../../package.json', import.meta.url);
  const pkgPath = import.meta.url.includes('/dist/') ? built : new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string }).version;
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code.
 * Never throws: every failure is a message on stderr and exit code 2.
 */
export async function main(argv: string[], io: CliIO): Promise<number> {
  if (argv[0] === 'init') return runInit(argv.slice(1), io);
  let args;
  try {
    args = parseArgs({ args: joinNegativeValues(argv), options: CLI_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`docdrift: ${(error as Error).message}\nRun \`docdrift --help\` for the options.\n`);
    return EXIT.error;
  }
  const { values, positionals } = args;
  if (values.help) {
    io.stdout(HELP);
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout(`${version()}\n`);
    return EXIT.ok;
  }
  const format = values.format as string;
  if (!(format in formatters)) {
    io.stderr(`docdrift: --format must be one of ${Object.keys(formatters).join(', ')}; got "${format}".\n`);
    return EXIT.error;
  }
  const maxWarnings = Number(values['max-warnings']);
  if (!Number.isInteger(maxWarnings)) {
    io.stderr(`docdrift: --max-warnings takes a whole number; got "${values['max-warnings']}".\n`);
    return EXIT.error;
  }
  const root = path.resolve(io.cwd, (values.root as string | undefined) ?? '.');
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    io.stderr(`docdrift: --root ${root} is not a directory.\n`);
    return EXIT.error;
  }

  const cacheLocation = values['cache-location'] === undefined ? undefined : path.resolve(io.cwd, values['cache-location'] as string);
  if (cacheLocation !== undefined && existsSync(cacheLocation) && !statSync(cacheLocation).isDirectory()) {
    io.stderr(`docdrift: --cache-location takes a directory; ${cacheLocation} is a file.\n`);
    return EXIT.error;
  }

  let config;
  let configFile: string | undefined;
  try {
    const explicit = values.config ? path.resolve(io.cwd, values.config as string) : undefined;
    const loaded = loadConfig(root, explicit, ruleIds);
    config = loaded.config;
    configFile = loaded.file;
    validateRuleOptions(config, [...rules, ...engineRules], loaded.file);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`docdrift: ${error.message}\n`);
      return EXIT.error;
    }
    io.stderr(`docdrift: cannot load the configuration: ${(error as Error).message}\n`);
    return EXIT.error;
  }

  const files: string[] = [];
  for (const p of positionals) {
    const abs = path.resolve(io.cwd, p);
    const rel = path.relative(root, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      io.stderr(`docdrift: ${p} is outside the project root ${root}; paths are resolved from the current directory.\n`);
      return EXIT.error;
    }
    try {
      statSync(abs);
    } catch {
      io.stderr(`docdrift: no such file or directory: ${p} (paths are resolved from the current directory, ${io.cwd}).\n`);
      return EXIT.error;
    }
    files.push(abs);
  }

  let changed: Set<string> | undefined;
  if (values['changed-since'] !== undefined) {
    try {
      changed = await changedFiles(root, values['changed-since'] as string);
    } catch (error) {
      const text = error instanceof ChangedSinceError ? error.message : `--changed-since: ${(error as Error).message}`;
      io.stderr(`docdrift: ${text}\n`);
      return EXIT.error;
    }
  }

  const noBaseline = values['no-baseline'] === true;
  if (noBaseline && (values.baseline !== undefined || values['write-baseline'])) {
    io.stderr('docdrift: --no-baseline cannot be combined with --baseline or --write-baseline.\n');
    return EXIT.error;
  }
  let baseline: LoadedBaseline | undefined;
  if (!noBaseline) {
    try {
      baseline = loadBaseline({
        root,
        cwd: io.cwd,
        file: values.baseline as string | undefined,
        write: values['write-baseline'] === true,
        paths: files.map((f) => toProjectPath(root, f)),
        staleSeverity: engineRuleSeverity(baselineEntryStale, config.rules),
      });
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      io.stderr(`docdrift: ${error.message}\n`);
      return EXIT.error;
    }
  }

  try {
    const dryRun = values['fix-dry-run'] === true;
    const fixed = values.fix || dryRun ? await fixProject({ root, config, files, configFile, dryRun }) : undefined;
    const result = fixed
      ? { ...fixed.result, commands: summariseCommands(fixed.result.model), cache: { status: 'off' as const, written: false, hashed: 0, ms: 0 } }
      : await lintWithCache({
          root,
          config,
          files,
          configFile,
          // The --summary coverage table and --changed-since read the whole model, which a cache hit does not have.
          cache: !values['no-cache'] && values.summary === undefined && changed === undefined,
          location: cacheLocation,
          version: version(),
        });
    if (fixed) {
      const said = describeFix(fixed, dryRun);
      if (said.stdout) io.stdout(said.stdout);
      io.stderr(said.stderr);
    }
    let messages = result.messages;
    let suppressedCount = result.suppressed.length;
    if (!baseline) {
      // --no-baseline: every finding is reported.
    } else if (values['write-baseline'] && (result.failures.length > 0 || result.configProblems.length > 0)) {
      io.stderr('docdrift: the baseline was not written, because this run did not check everything (see below).\n');
    } else {
      try {
        const outcome = finishBaseline(messages, baseline);
        messages = outcome.messages;
        suppressedCount += outcome.suppressed.length;
        if (outcome.notice) io.stderr(`docdrift: ${outcome.notice}\n`);
      } catch (error) {
        if (!(error instanceof BaselineError)) throw error;
        io.stderr(`docdrift: ${error.message}\n`);
        return EXIT.error;
      }
    }
    if (changed) messages = selectAffected(messages, result.model!, changed, configFile && toProjectPath(root, configFile));
    if (values.quiet) messages = messages.filter((m) => m.severity === 'error');
    const color = values['no-color'] ? false : values.color === true || (io.isTTY && !process.env.NO_COLOR);
    const out = formatters[format as keyof typeof formatters](messages, {
      root,
      cwd: io.cwd,
      color,
      suppressedCount,
      notes: result.notes,
      commands: result.commands,
      ...(format === 'sarif' ? { version: version() } : {}),
    });
    // A config problem means the run checked less than asked: exit 2 with no report (the problems follow on stderr).
    if (out && result.configProblems.length === 0) io.stdout(out.endsWith('\n') ? out : `${out}\n`);
    if (values.summary !== undefined) {
      const summaryFile = path.resolve(io.cwd, values.summary as string);
      try {
        appendSummary(summaryFile, formatSummary(messages, result.model!, result.notes));
      } catch (error) {
        io.stderr(`docdrift: --summary cannot write ${summaryFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.\n`);
        return EXIT.error;
      }
    }
    if (values.debug) {
      const t = result.stats.timings;
      io.stderr(
        `docdrift: ${result.stats.sources} source files, ${result.stats.docs} docs; ` +
          `discover ${t.discover.toFixed(0)} ms, extract ${t.extract.toFixed(0)} ms, docs ${t.docs.toFixed(0)} ms, ` +
          `model ${t.model.toFixed(0)} ms, rules ${t.rules.toFixed(0)} ms\n`,
      );
      const c = result.cache;
      if (c.status !== 'off') {
        io.stderr(`docdrift: cache ${c.status} (${c.file}; ${c.hashed} files hashed in ${c.ms.toFixed(0)} ms${c.written ? ', written' : ''}${c.note ? `; ${c.note}` : ''})\n`);
      }
      for (const cmd of result.commands) {
        io.stderr(
          `  command ${[cmd.name, ...cmd.aliases].join(' / ')} → ${cmd.configClasses.join(', ') || (cmd.paramsKnown ? '(CLI flags)' : '(parameters unknown)')}` +
            ` [${cmd.params} params, ${cmd.sections} reference sections]\n`,
        );
      }
    }
    for (const failure of result.failures) {
      const err = failure.error as Error;
      io.stderr(`docdrift: internal error in rule ${failure.ruleId}: ${err?.message ?? String(err)}\n`);
      if (values.debug && err?.stack) io.stderr(`${err.stack}\n`);
    }
    for (const problem of result.configProblems) io.stderr(`docdrift: ${problem}\n`);
    // Saying nothing when nothing was checked would read as "all clear" (src/engine/notes.ts).
    io.stderr(formatNotes(result.notes));
    if (result.failures.length > 0 || result.configProblems.length > 0 || (fixed?.problems.length ?? 0) > 0) return EXIT.error;
    const errors = messages.filter((m) => m.severity === 'error').length;
    const warnings = messages.length - errors;
    if (errors > 0) return EXIT.problems;
    if (maxWarnings >= 0 && warnings > maxWarnings) {
      io.stderr(`docdrift: too many warnings (${warnings}); the maximum is ${maxWarnings}.\n`);
      return EXIT.problems;
    }
    return EXIT.ok;
  } catch (error) {
    const err = error as Error;
    io.stderr(`docdrift: internal error: ${err?.message ?? String(err)}\n`);
    if (values.debug && err?.stack) io.stderr(`${err.stack}\n`);
    else io.stderr('Run again with --debug for the stack trace, and report it.\n');
    return EXIT.error;
  }
}
