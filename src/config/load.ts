/** Finds, parses and validates docdrift's JSON/YAML config file; never executes repository code. */
import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { escapesRoot } from '../shared/paths.js';
import { escapeLine } from '../shared/escape.js';
import { checkGlobExpansion, MAX_BRACE_ALTERNATIVES, MAX_EXPANDED_PATTERNS, MAX_GLOB_LENGTH, MAX_SEGMENT_WILDCARDS } from '../shared/globs.js';
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { pathExists, readErrorText, readProjectFile, readRegularFile, stripBom } from '../shared/read-file.js';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, stringify as yamlStringify } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import type { RuleMeta, RuleOptionSchema, Severity } from '../model/rule.js';
import { suggestNames } from '../shared/names.js';
import {
  COMMAND_KEYS,
  FLAG_KEYS,
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  SEVERITIES,
  configFileSchema,
  defaultConfig,
  MAX_CONFIG_LIST_ITEMS,
  normaliseConfig,
  type DocdriftConfig,
} from './schema.js';

/**
 * Config files looked for in the project root, in order. JSON and YAML only: docdrift runs on
 * pull requests from forks and must never execute repository code, so there is no `.js`/`.ts`
 * config. When none of these exists, the `docdrift` key of `package.json` is used.
 */
export const CONFIG_FILES: readonly string[] = Object.freeze([
  'docdrift.config.json',
  'docdrift.config.yaml',
  'docdrift.config.yml',
  '.docdriftrc.json',
  '.docdriftrc.yaml',
  '.docdriftrc.yml',
]);

/** Executable config files that are deliberately never loaded (see {@link CONFIG_FILES}). */
export const REFUSED_CONFIG_FILES: readonly string[] = Object.freeze([
  'docdrift.config.js',
  'docdrift.config.cjs',
  'docdrift.config.mjs',
  'docdrift.config.ts',
  'docdrift.config.cts',
  'docdrift.config.mts',
  '.docdriftrc.js',
  '.docdriftrc.cjs',
  '.docdriftrc.mjs',
  '.docdriftrc.ts',
]);

/** Fields of a {@link ConfigError}. */
export interface ConfigErrorDetails {
  /** The config file, relative to the project root when inside it (POSIX separators), else absolute. */
  file: string;
  /** Dotted key path of the problem (`rules.example-param-unknown`, `sources[1]`); `''` for the whole file. */
  key: string;
  /** What the file gives, rendered for humans (`"warning"`). */
  got: string;
  /** What is expected instead. */
  expected: string;
  /** A corrected snippet in the file's own format (JSON or YAML), when one can be given. */
  example?: string;
  /** One-line headline (`unknown key "source"`). */
  problem: string;
  /** 1-based line of the problem in the file, when known. */
  line?: number;
  /** 1-based column of the problem in the file, when known. */
  column?: number;
  /** Why, when it is not obvious (e.g. why a `.js` config is not loaded). */
  note?: string;
}

/**
 * A config file that cannot be used. The CLI prints `message` and exits with code 2.
 * `message` renders, ESLint-style: the file (with line:column when known) and the problem, then
 * the key path, what was given, what was expected and a corrected example.
 */
export class ConfigError extends Error {
  /** See {@link ConfigErrorDetails.file}. */
  file: string;
  /** See {@link ConfigErrorDetails.key}. */
  key: string;
  /** See {@link ConfigErrorDetails.got}. */
  got: string;
  /** See {@link ConfigErrorDetails.expected}. */
  expected: string;
  /** See {@link ConfigErrorDetails.example}. */
  example?: string;
  /** See {@link ConfigErrorDetails.line}. */
  line?: number;
  /** See {@link ConfigErrorDetails.column}. */
  column?: number;
  /** See {@link ConfigErrorDetails.note}. */
  note?: string;

  constructor(details: ConfigErrorDetails) {
    super(renderConfigError(details));
    this.name = 'ConfigError';
    this.file = details.file;
    this.key = details.key;
    this.got = details.got;
    this.expected = details.expected;
    if (details.example !== undefined) this.example = details.example;
    if (details.line !== undefined) this.line = details.line;
    if (details.column !== undefined) this.column = details.column;
    if (details.note !== undefined) this.note = details.note;
  }
}

function renderConfigError(d: ConfigErrorDetails): string {
  // Every line is escaped whole: the file's name as given (`--config`), a key or a value may hold
  // a line feed, which must not forge a line of output (s25 sweep D7: `--config 'a\n::error::…'`).
  const where = d.line !== undefined ? `${d.file}:${d.line}:${d.column ?? 1}` : d.file;
  const lines = [`Invalid docdrift config in ${where}: ${redactValue(d.problem, 200)}`];
  if (d.key) lines.push(`  key:      ${redactValue(d.key, 120)}`);
  lines.push(`  got:      ${redactValue(d.got)}`);
  lines.push(`  expected: ${d.expected}`);
  if (d.note) lines.push(`  note:     ${d.note}`);
  for (let i = 0; i < lines.length; i++) lines[i] = escapeLine(lines[i]!);
  if (d.example) {
    lines.push('  example:');
    for (const line of d.example.replace(/\n$/, '').split('\n')) lines.push(`    ${line}`);
  }
  return lines.join('\n');
}

/** Known prefixes of credentials (GitHub, GitLab, npm, PyPI, Slack, OpenAI-style, AWS). */
const SECRET_PREFIX = /^(?:gh[pousr]_|github_pat_|glpat-|npm_|pypi-|xox[abprs]-|sk-|AKIA|ASIA)/;

/**
 * A value from the config file as error messages show it (a token pasted in the wrong place must
 * not end up in full in a CI log): every word that looks like a credential (a known token prefix,
 * or 20+ characters mixing letters and digits without separators) keeps its first 4 characters
 * and becomes `ghp_…(redacted, 40 characters)`; then the whole is cut to `max` characters.
 */
export function redactValue(text: string, max = 80): string {
  const redacted = text.replace(/[A-Za-z0-9_+/=-]{20,}/g, (word) => {
    const mixed = /[0-9]/.test(word) && /[A-Za-z]/.test(word) && (/[A-Z]/.test(word) || /^[0-9a-f]+$/.test(word) || word.replace(/[^0-9]/g, '').length >= 4);
    return SECRET_PREFIX.test(word) || mixed ? `${word.slice(0, 4)}…(redacted, ${word.length} characters)` : word;
  });
  return redacted.length > max ? `${redacted.slice(0, max - 1)}…` : redacted;
}

/** The file formats a config can be written in; `package.json` means its `docdrift` key. */
type Format = 'json' | 'yaml' | 'package.json';

/** A config file read from disk, not yet validated. */
interface Source {
  abs: string;
  display: string;
  format: Format;
  text: string;
}

/**
 * Loads the project's config: `explicitFile` when given (resolved against the current working
 * directory; a file named `package.json` means its `docdrift` key), else the first of
 * {@link CONFIG_FILES} in `root`, else `package.json#docdrift`, else the defaults.
 *
 * @param root Project root (absolute or relative to the current directory).
 * @param explicitFile `--config FILE`.
 * @param knownRuleIds When given, `rules` keys must be among them.
 * @returns The defaulted config; when a file was read, its absolute path; `warnings` (only when any), sentences
 *   about what was ignored (YAML tags such as `!!python/object`, which docdrift never constructs).
 * @throws {ConfigError} when the file is missing (explicit only), is a JavaScript/TypeScript
 *   config, cannot be parsed (with line:column), has an unknown key (nearest known key
 *   suggested), a value of the wrong type, an unknown rule id or a bad severity; a key named
 *   `__proto__`, `constructor` or `prototype` (with its key path); a file nested more than
 *   {@link MAX_CONFIG_DEPTH} levels; and when more than one config file exists (ambiguous).
 */
export function loadConfig(
  root: string,
  explicitFile?: string,
  knownRuleIds?: string[],
): { config: DocdriftConfig; file?: string; warnings?: string[] } {
  const absRoot = path.resolve(root);
  const source = explicitFile !== undefined ? readExplicit(absRoot, explicitFile) : discover(absRoot);
  // A config file under a name docdrift does not read is ignored: said, never silently (issue #32 item 4).
  const lookalikes = explicitFile === undefined ? lookalikeConfigWarnings(absRoot) : [];
  if (!source) return { config: defaultConfig(), ...(lookalikes.length > 0 ? { warnings: lookalikes } : {}) };
  const config = configOf(source, knownRuleIds);
  const warnings = [...lookalikes, ...yamlTagWarnings(source)];
  return { config, file: source.abs, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The checks every config source goes through once read, in order: nesting, parse, keys, schema. */
function configOf(source: Source, knownRuleIds?: string[]): DocdriftConfig {
  checkNesting(source);
  const raw = parseSource(source);
  checkKeys(source, raw);
  return validate(source, raw, knownRuleIds);
}

/**
 * Loads the text of a JSON config file that is not written yet, as {@link loadConfig} would load
 * it from `root`/`display`: the same size limit ({@link MAX_CONFIG_BYTES}), nesting bound, parser,
 * key checks and schema (list caps included). `docdrift init` checks its proposal with it before
 * writing anything (s26 sweep D3: a 377 KB proposal was written, then refused by every run).
 *
 * @param text the file's text
 * @param display the file's name in error messages (`docdrift.config.json`)
 * @throws {ConfigError} as {@link loadConfig} does for a file of this text
 */
export function loadConfigText(text: string, display: string, knownRuleIds?: string[]): DocdriftConfig {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONFIG_BYTES) {
    throw new ConfigError({
      file: display,
      key: '',
      problem: `the config file cannot be read (${(bytes / 1024).toFixed(0)} KB, over the 256 KB limit)`,
      got: `${bytes.toLocaleString('en-US')} bytes`,
      expected: 'a regular JSON or YAML file of at most 256 KB',
    });
  }
  return configOf({ abs: display, display, format: 'json', text }, knownRuleIds);
}

/** The supported config files, as the look-alike warning lists them. */
const SUPPORTED_FILES_TEXT = `${CONFIG_FILES.join(', ')}, or a "docdrift" key in package.json`;

/**
 * Names of files that look like a docdrift config: `docdrift` or `.docdrift`, optionally with
 * `rc` or `.config`/`-config`, and one extension or none (`.docdriftrc`, `docdrift.toml`,
 * `.docdriftrc.jsonc`, `Docdrift.config.json`).
 */
const LOOKALIKE = /^(\.?docdrift(?:rc|[.-]config)?)(?:\.([A-Za-z0-9]+))?$/i;

/** Extensions a plain `docdrift.<ext>` must have to be taken for a config (not `docdrift.py`, a module). */
const CONFIG_LIKE_EXTENSIONS = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf']);

/**
 * Warnings for files in `root` that look like a docdrift config but are not one it reads (issue
 * #32 item 4): a name of {@link LOOKALIKE} that is neither in {@link CONFIG_FILES} nor a refused
 * executable config, and a `[tool.docdrift]` table in `pyproject.toml`. Each names the supported
 * files and the name to rename it to. Directories (a package named `docdrift`) and the baseline
 * (`.docdrift-baseline.json`) are not configs. Unreadable directories give no warning.
 */
export function lookalikeConfigWarnings(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  const warnings: string[] = [];
  for (const name of names) {
    const match = LOOKALIKE.exec(name);
    if (!match || CONFIG_FILES.includes(name) || REFUSED_CONFIG_FILES.includes(name) || !isFile(path.join(root, name))) continue;
    const stem = match[1]!;
    const ext = match[2]?.toLowerCase();
    const plain = !stem.startsWith('.') && stem.toLowerCase() === 'docdrift';
    if (plain && (ext === undefined || !CONFIG_LIKE_EXTENSIONS.has(ext))) continue;
    // Executable configs are refused elsewhere (and in any case never read).
    if (ext !== undefined && /^[cm]?[jt]sx?$/.test(ext)) continue;
    const rc = stem.startsWith('.') ? '.docdriftrc' : 'docdrift.config';
    let format: 'json' | 'yaml';
    if (ext === 'json' || ext === 'jsonc' || ext === 'json5') format = 'json';
    else if (ext === 'yaml' || ext === 'yml' || ext === 'toml') format = 'yaml';
    else format = /^\s*[{[]/.test(readSourceQuietly(root, name)) ? 'json' : 'yaml';
    const toml = ext === 'toml' ? ' (TOML is not read: write it as YAML or JSON)' : '';
    warnings.push(`${name} looks like a docdrift config but is not read: the supported files are ${SUPPORTED_FILES_TEXT}. Rename it to ${rc}.${format}${toml}.`);
  }
  if (names.includes('pyproject.toml') && hasDocdriftTable(readSourceQuietly(root, 'pyproject.toml'))) {
    warnings.push(`pyproject.toml has a [tool.docdrift] table, which is not read: the supported files are ${SUPPORTED_FILES_TEXT}. Move it to docdrift.config.yaml.`);
  }
  return warnings;
}

/** A line opening `[tool.docdrift` then `]` or `.` (tested per line start only: anchored, multiline). */
const DOCDRIFT_TABLE_OPEN = /^[ \t]*\[tool\.docdrift[.\]]/m;

/**
 * Whether a pyproject.toml's text has a `[tool.docdrift]` (or `[tool.docdrift.sub]`) table, as
 * `/^[ \t]*\[tool\.docdrift(?:\.[^\]]*)?\]/m` read it, in linear time: that pattern's
 * `[^\]]*` crosses lines, so a file of `[tool.docdrift.` lines without a `]` was rescanned to its
 * end from each of them (256 KB, the size read: 7 s). The pattern matches when the first such line
 * start is followed by `]`, or by `.` and a `]` anywhere after it; a later line start could only
 * match with a `]` after the first one's dot too.
 */
export function hasDocdriftTable(text: string): boolean {
  const m = DOCDRIFT_TABLE_OPEN.exec(text);
  return m !== null && text.indexOf(']', m.index + m[0].length - 1) !== -1;
}

/** A file's text for a guess (its format, a table in it); `''` when it cannot be read. */
function readSourceQuietly(root: string, rel: string): string {
  try {
    return readProjectFile(root, rel, { maxBytes: MAX_CONFIG_BYTES });
  } catch {
    return '';
  }
}

function displayPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  if (rel && !escapesRoot(rel)) return rel.split(path.sep).join('/');
  return abs;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}


/** Deepest nesting of objects and lists accepted in a config file (real ones nest four or five). */
export const MAX_CONFIG_DEPTH = 64;

/**
 * Refuses a file whose `{`/`[` nesting (or YAML block indentation) goes deeper than
 * {@link MAX_CONFIG_DEPTH}, before any parser or validator recurses into it (5,000 levels
 * overflowed the stack with no file named). Linear; strings are skipped.
 */
function checkNesting(source: Source): void {
  const text = source.text;
  let depth = 0;
  let max = 0;
  let at = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || (c === "'" && source.format === 'yaml')) quote = c;
    else if (c === '{' || c === '[') {
      depth++;
      if (depth > max) {
        max = depth;
        at = i;
      }
    } else if (c === '}' || c === ']') depth = Math.max(0, depth - 1);
  }
  // YAML block nesting: one level per two columns of indentation at most, the block indicators
  // that open a collection on the same line counted as indentation (`- - - x` and `? ? x` nest
  // one level per indicator: 2,000 of them overflowed the yaml package's stack, s49 sweep L3).
  if (source.format === 'yaml') {
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const levels = blockLevels(text, start, end);
      if (levels > max) {
        max = levels;
        at = start;
      }
      start = end + 1;
    }
  }
  if (max <= MAX_CONFIG_DEPTH) return;
  throw new ConfigError({
    file: source.display,
    key: '',
    problem: `the file nests objects or lists ${max} levels deep`,
    got: `${max} levels`,
    expected: `at most ${MAX_CONFIG_DEPTH} levels`,
    ...lineColumn(text, at),
  });
}

/**
 * The most levels a YAML line from `start` to `end` in `text` can nest its content: one per two
 * columns of its indentation, plus one per block indicator (`-`, `?`, `:` followed by a space or
 * the line's end) before the first other character, each of which opens one more collection on
 * the same line. Linear in the line.
 */
function blockLevels(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === 32) i++;
  let levels = Math.floor((i - start) / 2);
  for (;;) {
    const c = text[i];
    if (!((c === '-' || c === '?' || c === ':') && (i + 1 >= end || text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 13))) return levels;
    levels++;
    for (i++; i < end && text.charCodeAt(i) === 32; ) i++;
  }
}

/**
 * Keys that name JavaScript's object machinery, never a config key, command name or rule id:
 * refused anywhere in a config file (looked up on a plain object they reach its prototype, and
 * the schema's records reject them). `docdrift init` leaves out a command of one of these names.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Refuses `__proto__`, `constructor` and `prototype` keys anywhere in the parsed file, with their
 * key path (`rules.__proto__`): looked up on a plain object they reach its prototype.
 */
function checkKeys(source: Source, raw: unknown): void {
  const prefix: Segment[] = source.format === 'package.json' ? ['docdrift'] : [];
  const stack: Array<{ value: unknown; at: Segment[] }> = [{ value: raw, at: [] }];
  while (stack.length > 0) {
    const { value, at } = stack.pop()!;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, at: [...at, i] }));
    else if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        const full = [...prefix, ...at, key];
        if (FORBIDDEN_KEYS.has(key)) {
          throw new ConfigError({
            file: source.display,
            key: keyPath(full),
            problem: `the key "${key}" is not allowed`,
            got: JSON.stringify(key),
            expected: 'a config key, command name or rule id; "__proto__", "constructor" and "prototype" are never valid',
            ...locate(source, full),
          });
        }
        stack.push({ value: value[key], at: [...at, key] });
      }
    }
  }
}

/**
 * Warnings for YAML tags in a YAML config (`!!python/object:os.system`, `!Ref`): docdrift builds
 * plain data only, so a tagged value is read as its plain string, list or mapping, and the tag
 * is ignored. Standard scalar tags (`!!str`, `!!int`…) are not reported.
 */
function yamlTagWarnings(source: Source): string[] {
  if (source.format !== 'yaml') return [];
  const out: string[] = [];
  const standard = /^!!(?:str|int|float|bool|null|map|seq|binary|timestamp)$/;
  for (const m of source.text.matchAll(/(^|[\s[{,:-])(!!?[\w./:-]*)/g)) {
    const tag = m[2]!;
    if (tag === '!' || standard.test(tag)) continue;
    const { line, column } = lineColumn(source.text, m.index + (m[1]?.length ?? 0));
    out.push(`${source.display}:${line}:${column}: the YAML tag ${redactValue(tag)} is ignored; docdrift reads plain data and never constructs objects.`);
    if (out.length >= 5) break;
  }
  return out;
}

/**
 * Largest config file read: 256 KiB (a real docdrift config is a few KB). The YAML and JSON
 * readers build a node per list item before the schema can refuse a list: a 2 MB YAML list of a
 * million items took 17 s and 1.86 GB (s25 sweep D10); 256 KB of YAML parses in about 1 s.
 */
export const MAX_CONFIG_BYTES = 256 * 1024;

/** Largest package.json read for its `docdrift` key: 4 MiB (the key itself may hold at most {@link MAX_CONFIG_BYTES} of JSON). */
const MAX_PACKAGE_JSON_BYTES = 4 * 1024 * 1024;

/**
 * A config file's text: a regular file (a committed link to `/dev/zero` or a FIFO must not hang
 * the run) of at most {@link MAX_CONFIG_BYTES}, a UTF-8 BOM removed.
 *
 * @throws {ConfigError} naming the file when it cannot be read
 */
function readSource(abs: string, display: string): string {
  const packageJson = path.basename(abs) === 'package.json';
  try {
    return stripBom(readRegularFile(abs, { maxBytes: packageJson ? MAX_PACKAGE_JSON_BYTES : MAX_CONFIG_BYTES }));
  } catch (error) {
    throw new ConfigError({
      file: display,
      key: '',
      problem: `the config file cannot be read (${readErrorText(error)})`,
      got: display,
      expected: packageJson ? 'a regular package.json of at most 4 MB' : 'a regular JSON or YAML file of at most 256 KB',
    });
  }
}

function formatOf(abs: string): Format | 'refused' {
  const base = path.basename(abs);
  if (base === 'package.json') return 'package.json';
  if (/\.[cm]?[jt]sx?$/i.test(base)) return 'refused';
  if (/\.json$/i.test(base)) return 'json';
  return 'yaml'; // .yaml, .yml and anything else: YAML 1.2 also reads JSON
}

const ACCEPTED_FILES_TEXT =
  'a JSON or YAML config: docdrift.config.json, docdrift.config.yaml, .docdriftrc.json, .docdriftrc.yaml, or a "docdrift" key in package.json';
const EXISTING_FILE_TEXT = 'an existing JSON or YAML config file, or a package.json with a "docdrift" key';
const REFUSED_NOTE =
  'docdrift never executes repository code (it runs on pull requests from forks), so JavaScript and TypeScript config files are not loaded';

function refused(display: string): ConfigError {
  return new ConfigError({
    file: display,
    key: '',
    problem: 'JavaScript/TypeScript config files are not loaded',
    got: `an executable config file (${path.basename(display)})`,
    expected: ACCEPTED_FILES_TEXT,
    note: REFUSED_NOTE,
    example: `# docdrift.config.yaml\n${yamlStringify({ sources: DEFAULT_CONFIG.sources, rules: { 'example-param-unknown': 'error' } })}`,
  });
}

function readExplicit(root: string, file: string): Source {
  const abs = path.resolve(file);
  const display = displayPath(root, abs);
  const format = formatOf(abs);
  if (format === 'refused') throw refused(display);
  refuseLinkOut(root, abs, display);
  if (!pathExists(abs)) {
    throw new ConfigError({
      file: display,
      key: '',
      problem: existsSync(abs) ? 'the config path is not a file' : 'the config file does not exist',
      got: abs,
      expected: EXISTING_FILE_TEXT,
    });
  }
  return { abs, display, format, text: readSource(abs, display) };
}

/**
 * The real path of `abs` when it resolves (through symbolic links) to a regular file outside
 * `root`'s real path; undefined when it stays inside, is no regular file, or cannot be resolved
 * (missing, dangling or a loop: reading it then fails with its own code).
 */
function regularFileOutside(root: string, abs: string): string | undefined {
  try {
    const real = realpathSync(abs);
    if (!statSync(real).isFile()) return undefined;
    return escapesRoot(path.relative(realpathSync(root), real)) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a discovered config file (or package.json) that is a symbolic link to a regular file
 * outside the project, before reading it: a committed `docdrift.config.yaml -> /etc/passwd`
 * would be read and its first line echoed in the parse error (#33 item 12), as packaging links
 * are refused. A link to a device is left to {@link readSource} (`ENOTREG`, nothing read); a file
 * outside named with `--config` by its own path is the user's choice and is read (a `--config`
 * path inside the project that links out is refused: `refuseLinkOut`).
 */
function refuseOutsideLink(root: string, abs: string, display: string): void {
  try {
    if (!lstatSync(abs).isSymbolicLink()) return;
  } catch {
    return;
  }
  const real = regularFileOutside(root, abs);
  if (real === undefined) return;
  throw new ConfigError({
    file: display,
    key: '',
    problem: 'the config file is a symbolic link to a file outside the project; it is not read',
    got: `a link to ${real}`,
    expected: 'a regular file inside the project (a file elsewhere can be passed with --config)',
  });
}

/**
 * Refuses a `--config` path written inside the project that leads, through a symbolic link (the
 * file or a folder on its path), to a file outside it: the link is the repository's, not the
 * user's choice, so it is refused as a discovered config's link is ({@link refuseOutsideLink}).
 * A path outside the project, named directly, is read.
 */
function refuseLinkOut(root: string, abs: string, display: string): void {
  if (escapesRoot(path.relative(root, abs))) return;
  const real = regularFileOutside(root, abs);
  if (real === undefined) return;
  throw new ConfigError({
    file: display,
    key: '',
    problem: 'the config path leads through a symbolic link to a file outside the project; it is not read',
    got: `a link to ${real}`,
    expected: 'a regular file inside the project, or a file outside it named by its own path',
  });
}

/**
 * Refuses a config file found in the root that has more than one name (hard links): it may be a
 * file outside the project (`ln /etc/passwd docdrift.config.yaml`), whose first line an error
 * would echo (s22 sweep D9), as `-o` refuses to write into such a file. Git stores no hard links;
 * a config named with `--config` is read, since the user chose it.
 */
function refuseHardLink(abs: string, name: string): void {
  let links: number;
  try {
    const stat = statSync(abs);
    // A directory's link count is its subfolders plus two, not names of one file: reading it says
    // it is not a regular file (s32 sweep D2: `mkdir docdrift.config.json` was "2 names").
    if (!stat.isFile()) return;
    links = stat.nlink;
  } catch {
    return; // reading it reports why
  }
  if (links > 1) {
    throw new ConfigError({
      file: name,
      key: '',
      problem: `the config file has ${links} names (hard links), so it may be a file outside the project; it is not read`,
      got: `a file with ${links} names`,
      expected: 'a config file with one name (copy it rather than link it), or a file named with --config',
    });
  }
}

function discover(root: string): Source | undefined {
  const found: Source[] = [];
  for (const name of CONFIG_FILES) {
    const abs = path.join(root, name);
    // Anything at a config name is read: a link to a device is an error naming it, not "no config".
    if (pathExists(abs)) {
      refuseOutsideLink(root, abs, name);
      refuseHardLink(abs, name);
      found.push({ abs, display: name, format: formatOf(abs) as Format, text: readSource(abs, name) });
    }
  }
  const pkgAbs = path.join(root, 'package.json');
  if (isFile(pkgAbs)) {
    refuseOutsideLink(root, pkgAbs, 'package.json');
    const text = readSource(pkgAbs, 'package.json');
    const pkg: Source = { abs: pkgAbs, display: 'package.json', format: 'package.json', text };
    let parsed: unknown;
    let parseable = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      parseable = false;
    }
    if (parseable && isPlainObject(parsed) && Object.hasOwn(parsed, 'docdrift')) {
      // The key is the config: bounded as a config file is (s25 sweep D10).
      const size = JSON.stringify(parsed['docdrift'])?.length ?? 0;
      if (size > MAX_CONFIG_BYTES) {
        throw new ConfigError({ file: 'package.json', key: 'docdrift', problem: `the "docdrift" key holds ${(size / 1024).toFixed(0)} KB of JSON, more than a config may`, got: `${(size / 1024).toFixed(0)} KB`, expected: 'a config of at most 256 KB' });
      }
      found.push(pkg);
    }
    // A broken package.json only matters when it may be the config: report it then.
    else if (!parseable && found.length === 0 && text.includes('"docdrift"')) parseSource(pkg);
  }
  if (found.length > 1) {
    const names = found.map((s) => (s.format === 'package.json' ? 'package.json#docdrift' : s.display));
    throw new ConfigError({
      file: found[0]!.display,
      key: '',
      problem: 'more than one config file',
      got: names.join(', '),
      expected: 'exactly one config file (or one passed with --config)',
      note: 'docdrift does not merge config files; keep one and delete the others',
    });
  }
  if (found.length === 1) return found[0];
  for (const name of REFUSED_CONFIG_FILES) {
    if (isFile(path.join(root, name))) throw refused(name);
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Plain words for jsonc-parser's error codes, by their `printParseErrorCode` names (its enum is `const`, so names keep this file free of it). */
const JSON_ERRORS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'no property name (in double quotes) where one belongs; a trailing comma?',
  ValueExpected: 'no value where one belongs',
  ColonExpected: 'no colon after a property name',
  CommaExpected: 'no comma between two entries',
  CloseBraceExpected: 'an object that is not closed',
  CloseBracketExpected: 'an array that is not closed',
  EndOfFileExpected: 'text after the end of the JSON value',
  InvalidCommentToken: 'a comment, which this file may not hold',
  UnexpectedEndOfComment: 'a comment that is not closed',
  UnexpectedEndOfString: 'a string that is not closed',
  UnexpectedEndOfNumber: 'a number that ends too early',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape character',
  InvalidCharacter: 'an invalid character in a string',
};

/** A key an object of a JSON text holds more than once: the path of the object, the key, and the UTF-16 offsets of both. */
export interface JsonDuplicateKey {
  /** The path of the object holding the key (`[]` for the top-level object). */
  path: (string | number)[];
  key: string;
  /** Offset of the later occurrence, whose value `JSON.parse` keeps. */
  offset: number;
  /** Offset of the first occurrence, whose value is lost. */
  firstOffset: number;
}

/**
 * Parses JSON text with jsonc-parser; comments are accepted only when `allowComments`. The first
 * parse error is returned with its offset (UTF-16) as the parser reports it. Objects are built
 * with own properties only (`"__proto__"` becomes an own key, as `JSON.parse` makes it, never a
 * prototype), so key validation sees every key the file holds. A key repeated within one object
 * keeps its last value, as `JSON.parse` does (RFC 8259 section 4: names SHOULD be unique), and the
 * repetitions (the first {@link MAX_LISTED_DUPLICATES}) are returned as `duplicates` for callers that refuse them (the config file).
 */
export function parseJsonText(
  text: string,
  allowComments: boolean,
): { ok: true; value: unknown; duplicates?: JsonDuplicateKey[] } | { ok: false; offset: number; problem: string } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: !allowComments, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const atEnd = first.offset >= text.length;
    const problem = atEnd ? 'the file ends too early' : (JSON_ERRORS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error));
    return { ok: false, offset: first.offset, problem };
  }
  const duplicates: JsonDuplicateKey[] = [];
  const value = tree ? jsonNodeValue(tree, undefined, duplicates) : undefined;
  return { ok: true, value, ...(duplicates.length > 0 ? { duplicates } : {}) };
}

/** Most repeated keys {@link parseJsonText} lists. */
const MAX_LISTED_DUPLICATES = 100;

/** Where a node sits: its key or index and its parent's place (a path built only when a repeated key is met). */
interface JsonPlace {
  parent: JsonPlace | undefined;
  segment: string | number;
}

function placePath(place: JsonPlace | undefined): (string | number)[] {
  const out: (string | number)[] = [];
  for (let p = place; p; p = p.parent) out.push(p.segment);
  return out.reverse();
}

/** The value of a jsonc-parser node, objects as own data properties (see {@link parseJsonText}); repeated keys go to `duplicates`. */
function jsonNodeValue(node: JsonNode, place: JsonPlace | undefined, duplicates: JsonDuplicateKey[]): unknown {
  switch (node.type) {
    case 'object': {
      const obj: Record<string, unknown> = {};
      const offsets = new Map<string, number>();
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (!key || !value) continue;
        const name = String(key.value);
        const firstOffset = offsets.get(name);
        if (firstOffset === undefined) offsets.set(name, key.offset);
        else if (duplicates.length < MAX_LISTED_DUPLICATES) duplicates.push({ path: placePath(place), key: name, offset: key.offset, firstOffset });
        Object.defineProperty(obj, name, { value: jsonNodeValue(value, { parent: place, segment: name }, duplicates), enumerable: true, writable: true, configurable: true });
      }
      return obj;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => jsonNodeValue(child, { parent: place, segment: i }, duplicates));
    default:
      return node.value;
  }
}

/** The 1-based line and column of a character offset in `text` (clamped to the text). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** The error for a config file with no content: an empty file, only whitespace, or (YAML) only comments. */
function emptyConfig(source: Source): ConfigError {
  const json = source.format === 'json';
  return new ConfigError({
    file: source.display,
    key: '',
    problem: 'the config file is empty',
    got: 'no config keys (an empty file, or only comments)',
    expected: json ? 'a JSON object of config keys; `{}` to use every default' : 'a YAML mapping of config keys; `{}` to use every default',
    example: json ? '{}' : yamlStringify({ sources: DEFAULT_CONFIG.sources.slice(0, 1), docs: DEFAULT_CONFIG.docs.slice(0, 1) }).trimEnd(),
  });
}

/**
 * The dotted path (`base.<<`, `docs.0`) of the first place where a value parsed from YAML holds one
 * of its own ancestors (an alias inside the node it names), or undefined when it holds none.
 * Iterative, any depth; a node shared by two places that do not contain each other is no cycle.
 */
export function circularPath(value: unknown): string | undefined {
  const onPath = new Set<object>();
  const stack: Array<{ node: object; path: string; children?: Array<[string, unknown]>; next: number }> = [];
  const enter = (node: unknown, at: string): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (onPath.has(node)) return at;
    onPath.add(node);
    const children: Array<[string, unknown]> = node instanceof Map ? [...node].map(([k, v]) => [String(k), v]) : Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
    stack.push({ node, path: at, children, next: 0 });
    return undefined;
  };
  const first = enter(value, '');
  if (first !== undefined) return first;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const child = top.children![top.next++];
    if (child === undefined) {
      onPath.delete(top.node);
      stack.pop();
      continue;
    }
    const found = enter(child[1], top.path === '' ? child[0] : `${top.path}.${child[0]}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Parses a config file; for package.json returns its `docdrift` value. */
function parseSource(source: Source): unknown {
  if (source.format === 'yaml') {
    const doc = parseDocument(source.text, { prettyErrors: false });
    const error = doc.errors[0];
    if (error) {
      const { line, column } = lineColumn(source.text, error.pos[0]);
      throw new ConfigError({
        file: source.display,
        key: '',
        problem: 'the file is not valid YAML',
        got: error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''),
        expected: 'a YAML mapping of config keys',
        line,
        column,
        example: yamlStringify({ sources: DEFAULT_CONFIG.sources, docs: DEFAULT_CONFIG.docs }),
      });
    }
    let value: unknown;
    try {
      value = doc.toJS();
    } catch (error) {
      // The yaml package refuses to expand an alias bomb (`b: [*a, *a, …]` nested, "billion laughs").
      throw new ConfigError({
        file: source.display,
        key: '',
        problem: 'the YAML file was refused while its aliases were expanded',
        got: (error as Error).message.split('\n')[0]!,
        expected: 'a YAML mapping of config keys whose aliases (`*name`) expand to a few values, not to a resource-exhaustion amount',
        example: yamlStringify({ sources: DEFAULT_CONFIG.sources, docs: DEFAULT_CONFIG.docs }),
      });
    }
    // An alias inside the node it names (`base: &b {x: 1, <<: *b}`: `<<` is a plain key in YAML 1.2,
    // so `base.<<` is `base` itself) makes a circular value, which every later step walked without
    // end (s39 sweep D2: 12 s of CPU and 1.2 GB for a 3-line file; the language server died).
    const cycle = circularPath(value);
    if (cycle !== undefined) {
      throw new ConfigError({
        file: source.display,
        key: cycle,
        problem: 'an alias refers to a mapping or list that contains it, so the value never ends',
        got: `\`${cycle}\` is an alias of one of the nodes around it`,
        expected: 'a YAML mapping of config keys whose aliases (`*name`) name other nodes than their own parents',
        example: yamlStringify({ sources: DEFAULT_CONFIG.sources, docs: DEFAULT_CONFIG.docs }),
      });
    }
    // An empty file (or only comments) is a mistake more often than a wish for the defaults: `{}` says that (issue #32 item 4).
    if (value === null || value === undefined) throw emptyConfig(source);
    return value;
  }
  if (source.text.trim() === '' && source.format === 'json') throw emptyConfig(source);
  // docdrift.config.json may hold comments (JSONC, as tsconfig.json does); package.json may not (npm refuses them).
  const result = parseJsonText(source.text, source.format === 'json');
  if (!result.ok) {
    const { line, column } = lineColumn(source.text, result.offset);
    throw new ConfigError({
      file: source.display,
      key: '',
      problem: 'the file is not valid JSON',
      got: result.problem,
      expected: source.format === 'json' ? 'a JSON object of config keys (comments allowed, no trailing commas)' : 'a JSON object (no comments or trailing commas)',
      line,
      column,
      example: JSON.stringify(
        source.format === 'package.json' ? { docdrift: { sources: DEFAULT_CONFIG.sources } } : { sources: DEFAULT_CONFIG.sources },
        null,
        2,
      ),
    });
  }
  const parsed = result.value;
  // A repeated key keeps its last value silently in JSON.parse; YAML configs refuse one (the yaml
  // package's uniqueKeys), and a lost first value is a config the user did not mean (s47 sweep J10).
  const duplicate = result.duplicates?.find((d) => source.format === 'json' || d.path[0] === 'docdrift' || (d.path.length === 0 && d.key === 'docdrift'));
  if (duplicate) {
    const { line, column } = lineColumn(source.text, duplicate.offset);
    const firstLine = lineColumn(source.text, duplicate.firstOffset).line;
    throw new ConfigError({
      file: source.display,
      key: keyPath([...duplicate.path, duplicate.key]),
      problem: 'the key appears twice in one object, so the first value would be lost',
      got: `\`${duplicate.key}\` on line ${firstLine} and again on line ${line}`,
      expected: 'each key once per object; merge the two values into one',
      line,
      column,
    });
  }
  if (source.format === 'package.json') return isPlainObject(parsed) ? parsed['docdrift'] : undefined;
  return parsed;
}

type Segment = string | number;

/** `rules.example-param-unknown`, `sources[1]`, `commands["a.b"].config`. */
function keyPath(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[\w$-]+$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function valueAt(root: unknown, segments: readonly Segment[]): unknown {
  let v = root;
  for (const s of segments) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** Renders a given value for the `got:` line. */
function renderGot(v: unknown): string {
  if (v === undefined) return 'nothing';
  const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  let json = JSON.stringify(v) ?? String(v);
  if (json.length > 80) json = `${json.slice(0, 77)}…`;
  return `${json} (${kind})`;
}

/** Position of a key (or list item) in the file, found through YAML's CST (JSON is YAML too). */
function locate(source: Source, segments: readonly Segment[]): { line?: number; column?: number } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source.text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) return {};
  let node: unknown = doc.contents;
  let offset: number | undefined = (doc.contents as YamlNode | null)?.range?.[0];
  for (const s of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === s);
      if (!pair) break;
      offset = isScalar(pair.key) ? pair.key.range?.[0] : offset;
      node = pair.value;
    } else if (isSeq(node) && typeof s === 'number') {
      const item = node.items[s];
      if (!item) break;
      offset = (item as YamlNode).range?.[0] ?? offset;
      node = item;
    } else break;
  }
  if (offset === undefined) return {};
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** Renders a corrected snippet in the source's format. */
function renderExample(source: Source, value: Record<string, unknown>): string {
  if (source.format === 'package.json') return JSON.stringify({ docdrift: value }, null, 2);
  if (source.format === 'json') return JSON.stringify(value, null, 2);
  return yamlStringify(value).replace(/\n$/, '');
}

/** What each field expects, for messages. */
const EXPECTED: Record<string, string> = {
  sources: 'a non-empty list of globs of code files, e.g. ["**/*.py"]',
  docs: 'a non-empty list of globs of Markdown/MDX files, e.g. ["**/*.md", "**/*.mdx"]',
  ignore: 'a list of globs to skip, e.g. ["examples/**"]',
  reference: 'a list of globs of documents that hold reference sections, e.g. ["docs/reference/**"]',
  commands: 'an object mapping command (or config file) names to { "aliases", "config", "params", "kind" }',
  command: 'an object with the optional keys "aliases", "config", "params", "kind" and "sections"',
  sections: 'a list of heading texts, e.g. ["Command line options"]',
  complete: 'true or false',
  kind: '"command" or "config-file"',
  aliases: 'a list of command names',
  config: 'a config class name (qualified or simple) or a list of them',
  params: 'a list of parameter names',
  globalParameters: 'a list of parameter names, e.g. ["config_paths", "hydra"]',
  globalSections: 'a list of heading texts (case-insensitive, * and ? allowed), e.g. ["Common options"]',
  globalFiles: 'a list of globs of whole-page global references, e.g. ["docs/common-options.md"]',
  env: 'an object with the optional keys "check" (true or false) and "sections" (heading texts), e.g. { "sections": ["Configuration"] }',
  check: 'true or false',
  ignoreParameters: 'a list of dotted key patterns, e.g. ["_*", "*_server"]',
  versions: '"current", "all", or a list of version names to check besides the current one, e.g. ["v1"]',
  allowUnchecked: 'true or false (true: a run that checks nothing exits 0 instead of 2)',
  rules: 'an object mapping rule ids to severities, e.g. { "example-param-unknown": "error" }',
  rule: 'a severity ("off", "warn" or "error"), or [severity, { options }]',
  options: 'an object of rule options as the second element: [severity, { options }]',
  $schema: 'a string: the URL or path of a JSON schema, for editors (docdrift ignores it)',
  $comment: 'a string or a list of strings: a note for people (docdrift ignores it)',
  item: 'a non-empty string',
  root: 'an object of config keys ("sources", "docs", "rules", …)',
};

/** A sensible example value for each field: its default, or a typical value when the default is empty. */
function exampleFor(field: string): unknown {
  switch (field) {
    case 'ignore':
      return ['examples/**'];
    case 'reference':
      return ['docs/reference/**'];
    case 'globalFiles':
      return ['docs/common-options.md'];
    case 'commands':
      return { my_command: { aliases: ['my_command_alias'], config: 'my_package.config.MyConfig' } };
    case 'rules':
      return { 'example-param-unknown': 'error' };
    default:
      return (DEFAULT_CONFIG as unknown as Record<string, unknown>)[field];
  }
}

/** The nearest severity to a wrong one (`"warning"` → `"warn"`, `true` → `"error"`). */
function fixSeverity(v: unknown): (typeof SEVERITIES)[number] {
  if (v === true) return 'error';
  if (v === false || v === null) return 'off';
  if (typeof v === 'number') return v <= 0 ? 'off' : v === 1 ? 'warn' : 'error';
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s.startsWith('warn')) return 'warn';
    if (s.startsWith('err')) return 'error';
    if (s === 'disable' || s === 'disabled' || s === 'none' || s === 'false' || s === 'no') return 'off';
    return (suggestNames(s, SEVERITIES, 1)[0] as (typeof SEVERITIES)[number] | undefined) ?? 'warn';
  }
  return 'warn';
}

/** An example `commands.<name>` entry showing the key that was wrong. */
function commandExample(name: string, sub: string): Record<string, unknown> {
  switch (sub) {
    case 'aliases':
      return { aliases: [`${name}_alias`] };
    case 'params':
      return { params: ['extra_param'] };
    case 'config':
      return { config: 'my_package.config.MyConfig' };
    default:
      return { aliases: [`${name}_alias`], config: 'my_package.config.MyConfig' };
  }
}

/** A severity as a file may write it (`"warn"`, or ESLint's `0`/`1`/`2`). */
function isSeverity(v: unknown): boolean {
  return (typeof v === 'string' && (SEVERITIES as readonly string[]).includes(v)) || v === 0 || v === 1 || v === 2;
}

function nearest(name: string, candidates: readonly string[]): string | undefined {
  return suggestNames(name, candidates, 1)[0];
}

function quoteList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/** Validates parsed contents with zod and turns the first problem (in file order) into a ConfigError. */
function validate(source: Source, raw: unknown, knownRuleIds?: string[]): DocdriftConfig {
  const prefix: Segment[] = source.format === 'package.json' ? ['docdrift'] : [];
  const fail = (details: Omit<ConfigErrorDetails, 'file' | 'key' | 'line' | 'column'>, segments: Segment[]): ConfigError => {
    const full = [...prefix, ...segments];
    return new ConfigError({ file: source.display, key: keyPath(full), ...locate(source, full), ...details });
  };

  if (!isPlainObject(raw)) {
    throw fail(
      {
        problem: 'the config must be an object',
        got: renderGot(raw),
        expected: EXPECTED['root']!,
        example: renderExample(source, { sources: DEFAULT_CONFIG.sources, docs: DEFAULT_CONFIG.docs }),
      },
      [],
    );
  }

  const result = configFileSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const base = issue.path.filter((s): s is Segment => typeof s !== 'symbol');
      const segments = issue.code === 'unrecognized_keys' ? [...base, issue.keys[0]!] : base;
      const loc = locate(source, [...prefix, ...segments]);
      return { issue, segments, loc };
    });
    // Report the problem that comes first in the file, as a reader would meet it.
    problems.sort((a, b) => (a.loc.line ?? Infinity) - (b.loc.line ?? Infinity) || (a.loc.column ?? 0) - (b.loc.column ?? 0));
    const { issue, segments } = problems[0]!;
    throw fail(describeIssue(source, raw, issue.code, segments), segments);
  }

  if (knownRuleIds && result.data.rules) {
    const known = new Set(knownRuleIds);
    for (const [id, setting] of Object.entries(result.data.rules)) {
      if (known.has(id)) continue;
      const suggestion = nearest(id, knownRuleIds);
      const kept = typeof setting === 'string' ? setting : setting.length > 1 ? setting : setting[0];
      throw fail(
        {
          problem: `unknown rule "${id}"`,
          got: JSON.stringify(id),
          expected: suggestion
            ? `a known rule id; did you mean "${suggestion}"?`
            : `a known rule id: ${quoteList([...knownRuleIds].sort())}`,
          example: renderExample(source, { rules: { [suggestion ?? [...knownRuleIds].sort()[0] ?? id]: kept } }),
        },
        ['rules', id],
      );
    }
  }
  for (const key of GLOB_KEYS) {
    const list = result.data[key];
    list?.forEach((pattern, i) => {
      if (!globLeavesRoot(pattern)) return;
      const inside = pattern.replace(/^!/, '').replace(/^(?:\/+|[A-Za-z]:[\\/])/, '').split(/[\\/]/).filter((s) => s !== '..').join('/');
      throw fail(
        {
          problem: `a glob in "${key}" leaves the project root`,
          got: JSON.stringify(pattern),
          expected: 'a glob relative to the project root, without ".." segments or a leading "/"',
          example: renderExample(source, { [key]: [`${pattern.startsWith('!') ? '!' : ''}${inside || '**/*'}`] }),
          note: 'docdrift reads only files inside the root (--root); to check another directory, run it with that --root.',
        },
        [key, i],
      );
    });
  }
  // Brace groups multiply before globby walks (fast-glob expands them into one pattern each):
  // `{a,b}` thirty times in a 170-byte config aborted V8 out of heap (#33 fresh sweep defect 5).
  // `ignoreParameters` patterns are globs over dotted keys (`a.b` is matched as `a/b`), compiled by
  // picomatch as well: bounded the same way (s25 sweep D3: `+(+(a))c` against a 31-`a` field name, 27 s).
  const globs = [
    ...GLOB_KEYS.flatMap((key) => (result.data[key] ?? []).map((pattern, i) => ({ key, i, pattern, checked: pattern }))),
    ...(result.data.ignoreParameters ?? []).map((pattern, i) => ({ key: 'ignoreParameters' as const, i, pattern, checked: pattern.split('.').join('/') })),
  ];
  const tooMany = checkGlobExpansion(globs.map((g) => g.checked));
  if (tooMany) {
    const { key, i, pattern } = globs[tooMany.index]!;
    const shown = pattern.length > 80 ? `${pattern.slice(0, 77)}…` : pattern;
    throw fail(
      {
        problem: `a glob in "${key}" ${tooMany.problem}`,
        got: JSON.stringify(shown),
        expected: tooMany.kind === 'braces'
          ? `globs whose brace groups expand to at most ${MAX_BRACE_ALTERNATIVES.toLocaleString('en-US')} patterns each and ${MAX_EXPANDED_PATTERNS.toLocaleString('en-US')} in all`
          : `globs of at most ${MAX_GLOB_LENGTH.toLocaleString('en-US')} characters, with at most ${MAX_SEGMENT_WILDCARDS} repeating wildcards (\`*\` runs, extglob groups) in one path segment and no extglob group inside another`,
        example: renderExample(source, { [key]: [key === 'sources' ? '**/*.{py,ts}' : key === 'ignore' ? 'examples/**' : key === 'ignoreParameters' ? '**._target_' : 'docs/**/*.{md,mdx}'] }),
        note: tooMany.kind === 'braces' ? 'a wildcard (`*`, `**`) matches what many alternatives list, without multiplying them.' : 'a `**` segment matches any depth of folders; a segment needs few wildcards.',
      },
      [key, i],
    );
  }
  return normaliseConfig(result.data);
}

/** Config keys whose values are globs of project files. */
const GLOB_KEYS = ['sources', 'docs', 'ignore', 'reference', 'globalFiles'] as const;

/** True when a glob (after a leading `!`) is absolute or has a `..` segment, so it could match outside the root. */
function globLeavesRoot(pattern: string): boolean {
  const p = pattern.replace(/^!/, '');
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.split(/[\\/]/).includes('..');
}

function describeIssue(
  source: Source,
  raw: Record<string, unknown>,
  code: string,
  segments: Segment[],
): Omit<ConfigErrorDetails, 'file' | 'key' | 'line' | 'column'> {
  const got = valueAt(raw, segments);
  const [top, second, third, fourth] = segments;
  const field = String(top);

  if (code === 'unrecognized_keys') {
    const name = String(segments.at(-1));
    const inCommand = top === 'commands' && segments.length === 3;
    const inFlag = top === 'commands' && third === 'flags' && segments.length === 5;
    const knownKeys: readonly string[] = inCommand ? COMMAND_KEYS : inFlag ? FLAG_KEYS : CONFIG_KEYS;
    if (inFlag) {
      const suggestion = nearest(name, knownKeys);
      return {
        problem: `unknown key "${name}" in a flag declaration of command "${String(second)}"`,
        got: JSON.stringify(name),
        expected: `${suggestion ? `a known key; did you mean "${suggestion}"? The allowed keys of a flag declaration` : 'one of the known keys of a flag declaration'}: ${quoteList(knownKeys)}`,
        example: renderExample(source, { commands: { [String(second)]: { flags: [{ name: '--limit <n>', description: 'How many rows.' }] } } }),
      };
    }
    const suggestion = nearest(name, knownKeys);
    const command = String(second);
    const entry = (key: string, value: unknown): Record<string, unknown> =>
      inCommand ? { commands: { [command]: { [key]: value } } } : { [key]: value };
    let example: Record<string, unknown>;
    if (suggestion) {
      // Keep the user's value when it is valid under the suggested key (a typo in the key only);
      // otherwise show a value of the right shape rather than repeat the bad one.
      const keepsValue = got !== undefined && configFileSchema.safeParse(entry(suggestion, got)).success;
      const fallback = inCommand ? commandExample(command, suggestion)[suggestion] : exampleFor(suggestion);
      example = entry(suggestion, keepsValue ? got : fallback);
    } else {
      example = inCommand ? { commands: { [command]: commandExample(command, 'command') } } : { sources: DEFAULT_CONFIG.sources };
    }
    return {
      problem: `unknown key "${name}"`,
      got: JSON.stringify(name),
      // Every allowed key of the rejected object, also when one is suggested: the user may have
      // meant another one than the nearest spelling.
      expected: suggestion
        ? `a known key; did you mean "${suggestion}"? The allowed keys${inCommand ? ` of a command` : ''}: ${quoteList(knownKeys)}`
        : `one of the known keys${inCommand ? ` of a command` : ''}: ${quoteList(knownKeys)}`,
      example: renderExample(source, example),
    };
  }

  if (field === 'rules' && second !== undefined) {
    // zod reports a bad setting at the union (`rules.<id>`), so tell what is wrong from the value.
    const id = String(second);
    const setting = valueAt(raw, ['rules', id]);
    let problem = `invalid severity for rule "${id}"`;
    let fixed: unknown = fixSeverity(setting);
    if (Array.isArray(setting)) {
      const severity = isSeverity(setting[0]) ? setting[0] : fixSeverity(setting[0]);
      const options = isPlainObject(setting[1]) ? setting[1] : {};
      fixed = setting.length > 1 ? [severity, options] : [severity];
      if (setting.length === 0) problem = `empty setting for rule "${id}"`;
      else if (!isSeverity(setting[0])) problem = `invalid severity for rule "${id}"`;
      else if (setting.length > 2) problem = `too many elements in the setting of rule "${id}"`;
      else problem = `invalid options for rule "${id}"`;
    }
    return {
      problem,
      got: renderGot(setting),
      expected: problem.startsWith('invalid options') ? EXPECTED['options']! : EXPECTED['rule']!,
      example: renderExample(source, { rules: { [id]: fixed } }),
    };
  }

  if (field === 'commands' && second !== undefined) {
    const name = String(second);
    const sub = third === undefined ? 'command' : String(third);
    const expectedText = fourth !== undefined ? EXPECTED['item']! : (EXPECTED[sub] ?? EXPECTED['command']!);
    return {
      problem: `invalid value for "${keyPath(segments)}"`,
      got: renderGot(got),
      expected: expectedText,
      example: renderExample(source, { commands: { [name]: commandExample(name, sub) } }),
    };
  }

  const emptyList = Array.isArray(got) && got.length === 0 && segments.length === 1;
  const longList = Array.isArray(got) && got.length > MAX_CONFIG_LIST_ITEMS;
  const exampleValue = exampleFor(field);
  return {
    problem: emptyList ? `"${field}" must not be empty`
      : longList ? `"${keyPath(segments)}" has ${got.length.toLocaleString('en-US')} items, more than the ${MAX_CONFIG_LIST_ITEMS.toLocaleString('en-US')} a config list may have`
      : `invalid value for "${keyPath(segments)}"`,
    got: renderGot(got),
    expected: typeof got === 'string' && got.includes('\0') ? 'a glob without a NUL character (no path holds one, so it would match nothing)'
      : segments.length > 1 ? EXPECTED['item']! : (EXPECTED[field] ?? EXPECTED['item']!),
    ...(exampleValue === undefined ? {} : { example: renderExample(source, { [field]: exampleValue }) }),
  };
}

/** What a value of an option's type looks like, for `expected:` lines. */
function describeOptionType(schema: RuleOptionSchema): string {
  switch (schema.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return schema.items ? `a list of ${schema.items.type}s` : 'a list';
  }
}

function fitsOptionType(value: unknown, schema: RuleOptionSchema): boolean {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && (!schema.items || value.every((item) => typeof item === schema.items!.type));
  }
}

/** A valid value for an option's example: its default when that fits the type, else a placeholder. */
function optionExampleValue(schema: RuleOptionSchema): unknown {
  if (fitsOptionType(schema.default, schema)) return schema.default;
  return { string: 'text', number: 1, boolean: true, array: [] }[schema.type];
}

/** The config file as {@link validateRuleOptions} shows it, read when possible to locate keys. */
function optionsSource(file: string | undefined): Source {
  if (file === undefined) return { abs: '', display: '<config>', format: 'json', text: '' };
  const abs = path.resolve(file);
  const format = formatOf(abs);
  let text = '';
  try {
    text = readSource(abs, abs);
  } catch {
    // Best effort: without the text the error has no line and column.
  }
  return { abs, display: displayPath(process.cwd(), abs), format: format === 'refused' ? 'json' : format, text };
}

/**
 * Checks each configured rule's options (the second element of a `[severity, options]` setting)
 * against the rule's {@link RuleMeta.options} schema: every option must be known to the rule and
 * its value must have the schema's type (`string`, finite `number`, `boolean`, or `array`, whose
 * items must have `items.type` when the schema gives one). Rule ids not among `rules` are skipped
 * (unknown ids are {@link loadConfig}'s to report), as are settings without options. Problems
 * are reported in the order of `config.rules`, then of each options object.
 *
 * @param config The loaded config ({@link loadConfig}'s `config`).
 * @param rules The rule modules (anything with a `meta`); passed in so that `src/config` does not
 *   depend on `rules/`.
 * @param file The config file the settings came from, as {@link loadConfig} returns it (absolute
 *   or relative to the current directory). It is shown relative to the current directory when
 *   inside it, and read (best effort) for the problem's line and column and to write the example
 *   in the file's own format (JSON, YAML, or `package.json`'s `docdrift` key). Without it the
 *   error names `<config>` and the example is JSON.
 * @throws {ConfigError} on the first unknown option (`key` `rules.<id>.<option>`, the nearest
 *   known option suggested) or value of the wrong type (`key` `rules.<id>.<option>`, or
 *   `rules.<id>.<option>[i]` for a wrong list item); the example is the rule's setting with the
 *   option corrected (the user's value when it fits, else the option's default).
 */
export function validateRuleOptions(config: DocdriftConfig, rules: Array<{ meta: RuleMeta }>, file?: string): void {
  const metas = new Map(rules.map((r) => [r.meta.id, r.meta]));
  let source: Source | undefined;
  const fail = (segments: Segment[], details: Omit<ConfigErrorDetails, 'file' | 'key' | 'line' | 'column'>): ConfigError => {
    source ??= optionsSource(file);
    const prefix: Segment[] = source.format === 'package.json' ? ['docdrift', 'rules'] : ['rules'];
    // The key names the option (`rules.<id>.<option>`); in the file it sits in the tuple's element 1.
    const [id, ...rest] = segments;
    const at = source.text ? locate(source, [...prefix, id!, 1, ...rest]) : {};
    return new ConfigError({ file: source.display, key: keyPath([...prefix, ...segments]), ...at, ...details });
  };
  const example = (id: string, severity: Severity, options: Record<string, unknown>): string => {
    source ??= optionsSource(file);
    return renderExample(source, { rules: { [id]: [severity, options] } });
  };

  for (const [id, setting] of Object.entries(config.rules)) {
    if (!Array.isArray(setting)) continue;
    const meta = metas.get(id);
    if (!meta) continue;
    const [severity, options] = setting;
    const known = Object.keys(meta.options);
    for (const [name, value] of Object.entries(options)) {
      const schema = Object.hasOwn(meta.options, name) ? meta.options[name] : undefined;
      if (!schema) {
        const suggestion = nearest(name, known);
        const rest = Object.fromEntries(Object.entries(options).filter(([k]) => k !== name));
        let fixed: Record<string, unknown> = rest;
        if (suggestion) {
          const target = meta.options[suggestion]!;
          fixed = { ...rest, [suggestion]: fitsOptionType(value, target) ? value : optionExampleValue(target) };
        }
        throw fail([id, name], {
          problem: `unknown option "${name}" for rule "${id}"`,
          got: JSON.stringify(name),
          expected:
            known.length === 0
              ? `no options: rule "${id}" takes none`
              : suggestion
                ? `an option of rule "${id}"; did you mean "${suggestion}"?`
                : `one of the options of rule "${id}": ${quoteList(known)}`,
          example: example(id, severity, fixed),
        });
      }
      if (fitsOptionType(value, schema)) continue;
      const badItem =
        schema.type === 'array' && Array.isArray(value) && schema.items
          ? value.findIndex((item) => typeof item !== schema.items!.type)
          : -1;
      throw fail(badItem >= 0 ? [id, name, badItem] : [id, name], {
        problem: `invalid value for option "${name}" of rule "${id}"`,
        got: renderGot(badItem >= 0 ? (value as unknown[])[badItem] : value),
        expected: badItem >= 0 ? `a ${schema.items!.type} (${name} is ${describeOptionType(schema)})` : describeOptionType(schema),
        note: `${name}: ${schema.description}`,
        example: example(id, severity, { ...options, [name]: optionExampleValue(schema) }),
      });
    }
  }
}
