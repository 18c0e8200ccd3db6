/**
 * The baseline (`--baseline`, `--write-baseline`): known findings recorded in a JSON file by
 * line-free identity and count, so that only new drift is reported. Format: docs/baseline.md.
 */
import { escapesRoot } from '../shared/paths.js';
import { statSync, writeFileSync } from 'node:fs';
import { readErrorText, readProjectFile, readRegularFile, stripBom } from '../shared/read-file.js';
import path from 'node:path';
import { visit } from 'jsonc-parser';
import { lineColumn, parseJsonText } from '../config/load.js';
import { jsonNesting } from '../shared/json.js';
import { z } from 'zod';
import { compareStrings } from '../shared/strings.js';
import { baselineEntryStale } from './engine-rules.js';
import { findingKey, findingKeyString } from './fingerprint.js';
import { createMessage } from './run-rules.js';
import type { DriftMessage, Severity } from '../model/rule.js';
import { checkWriteTarget, WriteError, writeFileAtomic, type AtomicFs } from './write.js';

/** The baseline file used when `--baseline` is not given, relative to the project root. */
export const DEFAULT_BASELINE_FILE = '.docdrift-baseline.json';

/** The format version this docdrift reads and writes. */
export const BASELINE_VERSION = 1;

/**
 * One group of known findings: those with this {@link findingKey} (rule id, file, command,
 * subject; never a line), and how many of them there were.
 */
export interface BaselineEntry {
  /** Project-relative POSIX path of the findings. */
  file: string;
  ruleId: string;
  /** The command the findings are about; `''` when none. */
  command: string;
  /** The parameter, key or (for findings about no parameter) message the findings are about. */
  subject: string;
  /** How many findings with this key are known (≥ 1). */
  count: number;
}

/** A baseline file's contents: `{ "version": 1, "entries": [...] }`. */
export interface Baseline {
  version: typeof BASELINE_VERSION;
  entries: BaselineEntry[];
}

/** A baseline file that cannot be read or is not a baseline: the CLI prints it and exits 2. */
/** Deepest nesting of a baseline file that is parsed (a valid one has 3 levels). */
const MAX_BASELINE_DEPTH = 32;

export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineError';
  }
}

const entrySchema = z.strictObject({
  file: z.string().min(1),
  ruleId: z.string().min(1),
  command: z.string(),
  subject: z.string(),
  count: z.int().min(1),
});
/** The file's outer shape; each entry is checked on its own with {@link entrySchema} (no second copy of the whole list). */
const baselineShell = z.strictObject({ version: z.literal(BASELINE_VERSION), entries: z.array(z.unknown()) });

/**
 * Largest baseline file read: 4 MiB, as the config (about 30,000 entries). A 50,000-entry
 * baseline (6 MB) took 778 MB of memory and a 200,000-entry one 17.6 s and 2.8 GB before the
 * cap (#33 fresh sweep defect 6); a project with that much known drift has no use for a baseline.
 */
export const MAX_BASELINE_BYTES = 4 * 1024 * 1024;

/** `entries[3].count` from a zod issue path. */
function keyPath(parts: ReadonlyArray<PropertyKey>): string {
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') || '(the whole file)';
}

/** A baseline entry with the line that holds it in its file (1 when unknown). */
export interface LocatedEntry extends BaselineEntry {
  line: number;
}

/**
 * Parses and validates a baseline file's text. Entries with the same key are merged (their
 * counts added), so a baseline edited by a merge still loads.
 *
 * @param text the file's contents (JSON, RFC 8259).
 * @param displayPath how to name the file in errors.
 * @returns the entries in file order, each with its line.
 * @throws {BaselineError} naming the file and, for invalid JSON, the line and column; for a wrong
 *   shape, the key (`entries[2].count`), what is wrong and the expected shape.
 */
export function parseBaseline(text: string, displayPath: string): LocatedEntry[] {
  // A baseline nests 3 levels (`{"entries": [{…}]}`): a deeper one is refused before a recursive
  // parse overflows the stack (10,000 `[` was a stack trace and exit 1, #33 sweep s19).
  const nesting = jsonNesting(text);
  if (nesting.depth > MAX_BASELINE_DEPTH) {
    const before = text.slice(0, nesting.offset).split('\n');
    throw new BaselineError(`${displayPath}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}: the baseline nests objects or lists ${nesting.depth} levels deep (a baseline has 3; at most ${MAX_BASELINE_DEPTH} are read). Fix it, or delete it and run \`docdrift --write-baseline\`.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Where and why from jsonc-parser, quoting none of the text: V8's message quotes its first
    // characters, and a baseline hard-linked to a file outside the project echoed them (s23 sweep D6).
    const syntax = parseJsonText(text, false);
    const { line, column } = lineColumn(text, syntax.ok ? 0 : syntax.offset);
    throw new BaselineError(`${displayPath}:${line}:${column}: the baseline is not valid JSON (${syntax.ok ? 'a value JSON does not allow' : syntax.problem}). Fix it, or delete it and run \`docdrift --write-baseline\`.`);
  }
  const fail = (path: ReadonlyArray<PropertyKey>, message: string): BaselineError =>
    new BaselineError(
      `${displayPath}: ${keyPath(path)}: ${message}. A baseline is ` +
        `{"version": ${BASELINE_VERSION}, "entries": [{"file": "README.md", "ruleId": "example-param-undocumented", "command": "tool", "subject": "resume", "count": 1}]} ` +
        '(docs/baseline.md); rewrite it with `docdrift --write-baseline`.',
    );
  const shell = baselineShell.safeParse(raw);
  if (!shell.success) {
    const issue = shell.error.issues[0]!;
    throw fail(issue.path, issue.message);
  }
  // Lines of the entries, for stale-entry reports, from one streaming pass of jsonc-parser (the
  // yaml CST of a 6 MB baseline was most of its 778 MB): the first line of each object at
  // `entries[i]`, in file order. A key given twice (`entries` twice) is read as JSON.parse reads it, the last.
  const lines: number[] = [];
  visit(text, {
    onObjectBegin: (_offset, _length, startLine, _startCharacter, pathSupplier) => {
      const at = pathSupplier();
      if (at.length === 2 && at[0] === 'entries' && typeof at[1] === 'number') lines[at[1]] = startLine + 1;
    },
  });
  const merged = new Map<string, LocatedEntry>();
  shell.data.entries.forEach((item, i) => {
    const parsed = entrySchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw fail(['entries', i, ...issue.path], issue.message);
    }
    const e = parsed.data;
    const key = [e.ruleId, e.file, e.command, e.subject].join('|');
    const seen = merged.get(key);
    if (seen) seen.count += e.count;
    else merged.set(key, { ...e, line: lines[i] ?? 1 });
  });
  return [...merged.values()];
}

/**
 * The baseline for `messages`: one entry per {@link findingKey}, with the number of findings that
 * share it, sorted by file, rule id, command, subject.
 */
export function buildBaseline(messages: readonly DriftMessage[]): BaselineEntry[] {
  const counts = new Map<string, BaselineEntry>();
  for (const m of messages) {
    const k = findingKey(m);
    const key = findingKeyString(m);
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { file: k.file, ruleId: k.ruleId, command: k.command, subject: k.subject, count: 1 });
  }
  return sortEntries([...counts.values()]);
}

function sortEntries(entries: BaselineEntry[]): BaselineEntry[] {
  return [...entries].sort(
    (a, b) =>
      compareStrings(a.file, b.file) ||
      compareStrings(a.ruleId, b.ruleId) ||
      compareStrings(a.command, b.command) ||
      compareStrings(a.subject, b.subject),
  );
}

/**
 * The file text of a baseline: `version` then `entries`, one entry per line with its keys in a
 * fixed order (file, ruleId, command, subject, count), entries sorted, and a final newline, so a
 * change to the baseline is a small diff.
 */
export function serializeBaseline(entries: readonly BaselineEntry[]): string {
  const lines = sortEntries([...entries]).map(
    (e) =>
      `    { "file": ${JSON.stringify(e.file)}, "ruleId": ${JSON.stringify(e.ruleId)}, "command": ${JSON.stringify(e.command)}, ` +
      `"subject": ${JSON.stringify(e.subject)}, "count": ${e.count} }`,
  );
  const body = lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n  ]`;
  return `{\n  "version": ${BASELINE_VERSION},\n  "entries": ${body}\n}\n`;
}

/** What {@link applyBaseline} returns. */
export interface BaselineOutcome {
  /** Findings the baseline does not cover, then the `baseline-entry-stale` reports (unsorted). */
  messages: DriftMessage[];
  /** Findings the baseline covers. */
  suppressed: DriftMessage[];
}

/**
 * Drops the findings a baseline knows, ESLint's bulk-suppression semantics
 * (https://eslint.org/docs/latest/use/suppressions): for each key, when there are at most `count`
 * findings, all are dropped; when there are more, all of them are reported, since a count cannot
 * tell which one is new.
 *
 * An entry that matches fewer findings than its count (none, when the drift was fixed) is stale:
 * unless `severity` is `off`, it is a `baseline-entry-stale` finding at the entry's line in the
 * baseline file, so the baseline shrinks (`--write-baseline`) and fixed drift cannot come back
 * unnoticed. ESLint exits 2 on unused suppressions; docdrift keeps exit code 2 for usage and
 * config errors and reports a warning instead (`--max-warnings 0` makes it fail CI).
 *
 * @param messages the run's findings.
 * @param entries the baseline's entries.
 * @param baselineFile the baseline's path as shown in reports (project-relative when inside the project).
 * @param inScope whether a file was linted (with `paths`, entries of other files are not judged stale).
 * @param severity the configured severity of `baseline-entry-stale`.
 */
export function applyBaseline(
  messages: readonly DriftMessage[],
  entries: readonly LocatedEntry[],
  baselineFile: string,
  inScope: (file: string) => boolean,
  severity: Severity,
): BaselineOutcome {
  const byKey = new Map<string, DriftMessage[]>();
  for (const m of messages) {
    const key = findingKeyString(m);
    const list = byKey.get(key);
    if (list) list.push(m);
    else byKey.set(key, [m]);
  }
  const allowed = new Map(entries.map((e) => [[e.ruleId, e.file, e.command, e.subject].join('|'), e]));
  const kept: DriftMessage[] = [];
  const suppressed: DriftMessage[] = [];
  for (const [key, list] of byKey) {
    const entry = allowed.get(key);
    if (entry && list.length <= entry.count) suppressed.push(...list);
    else kept.push(...list);
  }
  if (severity !== 'off') {
    for (const [key, entry] of allowed) {
      const actual = byKey.get(key)?.length ?? 0;
      if (actual >= entry.count || !inScope(entry.file)) continue;
      kept.push(
        createMessage(baselineEntryStale, severity, {
          messageId: 'stale',
          data: {
            file: entry.file,
            ruleId: entry.ruleId,
            command: entry.command,
            commandText: entry.command ? ` (\`${entry.command}\`)` : '',
            name: entry.subject,
            expected: String(entry.count),
            actual: String(actual),
          },
          location: { file: baselineFile, line: entry.line, column: 1 },
        }),
      );
    }
  }
  return { messages: kept, suppressed };
}

/** What the CLI asked for. */
export interface BaselineRequest {
  /** Absolute project root. */
  root: string;
  /** Directory `--baseline` is resolved from. */
  cwd: string;
  /** `--baseline` as given; when undefined, {@link DEFAULT_BASELINE_FILE} in the root, used only if it exists. */
  file?: string;
  /** `--write-baseline`: record the findings instead of filtering them. */
  write: boolean;
  /** The project-relative paths given on the command line (`[]`: the whole project). */
  paths: string[];
  /** Configured severity of `baseline-entry-stale`. */
  staleSeverity: Severity;
}

/** A baseline read before the run: where it lives and what it holds. */
export interface LoadedBaseline {
  request: BaselineRequest;
  /** Absolute path of the file. */
  file: string;
  /** The file as reports name it: project-relative when inside the root, else absolute. */
  shown: string;
  /** Its entries; undefined when the file does not exist and need not (default path, or writing). */
  entries?: LocatedEntry[];
  /** Whether a project-relative file was linted (always true without paths). */
  inScope: (file: string) => boolean;
}

/**
 * Reads the baseline a CLI run asks for, before linting, so a bad file fails fast: the file of
 * `--baseline` (resolved from `cwd`; it must exist unless writing), or `.docdrift-baseline.json`
 * in the root when it exists.
 *
 * @throws {BaselineError} when the file cannot be read (over {@link MAX_BASELINE_BYTES}: `EFBIG`, unless it is about to be rewritten whole) or is malformed.
 */
export function loadBaseline(request: BaselineRequest): LoadedBaseline {
  const file = request.file === undefined ? path.join(request.root, DEFAULT_BASELINE_FILE) : path.resolve(request.cwd, request.file);
  const rel = path.relative(request.root, file);
  const shown = (escapesRoot(rel) ? file : rel || '.').split(path.sep).join('/'); // `--baseline=.` named nothing (s23 sweep O3)
  const inScope = (f: string): boolean =>
    request.paths.length === 0 || request.paths.some((w) => w === '' || f === w || f.startsWith(`${w}/`));
  if (request.write) refuseLinkedTarget(request.root, file);
  let text: string;
  try {
    // A regular file of at most 4 MB (a committed link to /dev/zero must not hang the run), BOM stripped.
    // A path inside the project must stay inside it with every link followed, as the config's
    // (`.docdrift-baseline.json -> /etc/passwd` was read and its first line echoed in the JSON
    // error: sweep15 D8); a file outside named by its own path with --baseline is the user's choice.
    text = stripBom(escapesRoot(rel) ? readRegularFile(file, { maxBytes: MAX_BASELINE_BYTES }) : readProjectFile(request.root, file, { maxBytes: MAX_BASELINE_BYTES }));
    // The baseline found in the root with more than one name (hard links) may be a file outside
    // the project, whose keys an error would echo: refused as the config file is (s24 sweep D12).
    // Git stores no hard links; one named with --baseline is the user's choice.
    if (request.file === undefined) {
      const links = statSync(file).nlink;
      if (links > 1) throw new BaselineError(`the baseline ${shown} has ${links} names (hard links), so it may be a file outside the project; it is not read. Copy it rather than link it, or name it with --baseline.`);
    }
  } catch (error) {
    if (error instanceof BaselineError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && (request.write || request.file === undefined)) return { request, file, shown, inScope };
    // Rewritten whole, an oversized baseline need not be read (with paths, its other entries would be kept: it must).
    if (code === 'EFBIG' && request.write && request.paths.length === 0) return { request, file, shown, inScope };
    throw new BaselineError(
      `cannot read the baseline ${shown}: ${readErrorText(error)}${code === 'EOUTSIDE' ? '; it is not read' : ''}.` +
        (code === 'ENOENT' ? ' Create it with `docdrift --write-baseline`.' : '') +
        (code === 'EFBIG' ? ' A baseline that large hides more drift than it should: fix some of it, or turn off the rules that report most of it.' : ''),
    );
  }
  return { request, file, shown, inScope, entries: parseBaseline(text, shown) };
}

/** {@link checkWriteTarget} as a {@link BaselineError} (exit 2, naming the path). */
function refuseLinkedTarget(root: string, file: string): void {
  try {
    checkWriteTarget(root, file);
  } catch (error) {
    if (error instanceof WriteError) throw new BaselineError(`cannot write the baseline: ${error.message}`);
    throw error;
  }
}

/** What {@link finishBaseline} did. */
export interface BaselineRun extends BaselineOutcome {
  /** A line for stderr (what was written), if any. */
  notice?: string;
}

/**
 * Applies or writes a loaded baseline after the run.
 *
 * - Without `write`: {@link applyBaseline} with the loaded entries (nothing changes when there
 *   is no file).
 * - With `write` (`--write-baseline`): records `messages` in the file. With `paths`, entries of
 *   files outside them are kept from the existing file, since only their findings were computed.
 *   Every finding is then covered, so nothing is reported.
 *
 * The file is written with {@link writeFileAtomic}: a full disk leaves the old file, never a
 * truncated one; a symlink or non-regular file at the path inside the root is refused.
 *
 * @param fs file-system calls of the atomic write (tests inject failures).
 * @throws {BaselineError} when the file cannot be written, or would be over {@link MAX_BASELINE_BYTES} (the old file is kept).
 */
export function finishBaseline(messages: readonly DriftMessage[], loaded: LoadedBaseline, fs?: AtomicFs): BaselineRun {
  const { request, file, shown, inScope } = loaded;
  if (!request.write) {
    if (loaded.entries === undefined) return { messages: [...messages], suppressed: [] };
    return applyBaseline(messages, loaded.entries, shown, inScope, request.staleSeverity);
  }
  const others = request.paths.length > 0 ? (loaded.entries ?? []).filter((e) => !inScope(e.file)) : [];
  const entries = [...others.map(({ line: _line, ...e }) => e), ...buildBaseline(messages)];
  refuseLinkedTarget(request.root, file);
  const text = serializeBaseline(entries);
  // A baseline the next run could not read is not written (the old file stays).
  if (Buffer.byteLength(text) > MAX_BASELINE_BYTES) {
    throw new BaselineError(
      `cannot write the baseline ${shown}: its ${entries.length.toLocaleString('en-US')} entries take ${(Buffer.byteLength(text) / (1024 * 1024)).toFixed(1)} MB, over the ${MAX_BASELINE_BYTES / (1024 * 1024)} MB limit for a baseline. ` +
        'A baseline that large hides more drift than it should: fix some of it, or turn off the rules that report most of it.',
    );
  }
  try {
    // Checked again where the temporary file is made and before the rename (s32 sweep D1).
    writeFileAtomic(file, text, { fs, root: request.root });
  } catch (error) {
    if (error instanceof WriteError) throw new BaselineError(`cannot write the baseline: ${error.message}`);
    throw new BaselineError(`cannot write the baseline ${shown}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const findings = messages.length;
  return {
    messages: [],
    suppressed: [...messages],
    notice: `wrote ${entries.length} baseline entr${entries.length === 1 ? 'y' : 'ies'} (${findings} finding${findings === 1 ? '' : 's'}) to ${shown}.`,
  };
}
