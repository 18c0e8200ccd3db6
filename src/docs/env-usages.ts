/**
 * Environment variables set in documentation examples (issue #31), as `Usage`s of syntax `env`
 * on the {@link ENVIRONMENT_COMMAND} pseudo-command: shell assignments (`VAR=v cmd`, `export`,
 * `env`, `docker run -e`), YAML/JSON `environment:`/`env:` maps, `.env` code blocks and the
 * Windows forms (`$env:VAR = …`, `set VAR=…`). Describes what examples set; the linker judges.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Node as YamlNode } from 'yaml';
import { ENVIRONMENT_COMMAND, type CodeBlock, type DataBlock, type SourceLocation, type Usage } from '../model/types.js';
import { scanEnvLines } from './env-file.js';
import type { ShellSource, ShellWord } from './shell.js';

/**
 * A name reported as an environment variable: identifier-like (`^[A-Za-z_][A-Za-z0-9_]*$`) with
 * an upper-case letter. Lower-case assignments (`a=b`, `lr=0.1`) are shell variables or Hydra
 * overrides far more often than environment variables, so they are never reported.
 */
export function isEnvVarName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && /[A-Z]/.test(name);
}

/** First `invocation` number of env usages that belong to no shell invocation (YAML, JSON, `.env` and Windows blocks): one number per block, from here. */
export const ENV_BLOCK_INVOCATION_BASE = 200_000;

const ASSIGNMENT_RE = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/** Wrapper options that take the next word as their value (`sudo -u USER`, `uv run --with PKG`): that word is no assignment. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-u', '-g', '-C', '-h', '-p', '-U', '-D', '-R', '-T', '--unset', '--chdir', '-S', '--with', '--with-editable', '--with-requirements',
  '--project', '--directory', '--python', '--extra', '--group', '--only-group', '--package', '--env-file', '--index', '--index-url',
  '--extra-index-url', '--from', '--config-file', '--cache-dir', '--spec', '--pip-args', '-c', '--call', '-W', '-X', '-Q', '-e', '--env',
]);

/** `docker`/`podman` options (run, create, exec, compose run/exec) that take a value; `-e`/`--env` are read, the rest skipped. */
const DOCKER_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '--env-file', '-v', '--volume', '-p', '--publish', '--name', '-w', '--workdir', '-u', '--user', '--network', '--net', '--mount',
  '--platform', '-l', '--label', '--label-file', '-h', '--hostname', '--add-host', '--cpus', '-m', '--memory', '--gpus', '--restart',
  '--log-driver', '--log-opt', '--device', '--cap-add', '--cap-drop', '--ulimit', '--shm-size', '--pull', '--runtime', '--ipc', '--pid',
  '--security-opt', '--tmpfs', '--dns', '--expose', '--link', '--volumes-from', '--cidfile', '--group-add', '--stop-signal',
  '--stop-timeout', '--health-cmd', '--userns', '--cgroupns', '--uts', '--cpu-shares', '-c', '--cpuset-cpus', '--memory-swap',
  '--attach', '-a', '--entrypoint', '-f', '--file', '--project-name', '--profile', '--project-directory', '--context', '--host', '-H',
]);
/** Words between `docker` and its options that name the sub-command. */
const DOCKER_SUBCOMMANDS: ReadonlySet<string> = new Set(['run', 'create', 'exec', 'container', 'compose']);

/** Where a name inside a word is in the file: `offset` characters after the word's first character as written. */
function nameLocation(file: string, src: ShellSource, w: ShellWord, name: string, from = 0): SourceLocation {
  const at = w.raw.indexOf(name, from);
  const start = w.start + (at < 0 ? 0 : at);
  const last = start + name.length - 1;
  return {
    file,
    line: src.lines[start] ?? 1,
    column: src.columns[start] ?? 1,
    endLine: src.lines[last] ?? src.lines[start] ?? 1,
    endColumn: (src.columns[last] ?? src.columns[start] ?? 0) + 1,
  };
}

/**
 * The environment variables one simple command of a shell block sets, in word order:
 *
 * - assignments before the program, after wrappers included (`FOO=1 BAR=2 cmd`, `env -i FOO=1 cmd`,
 *   `sudo FOO=1 cmd`), not a wrapper option's value (`sudo -u X=1`);
 * - `docker`/`podman` `run`/`create`/`exec`/`compose run|exec` options `-e VAR=v`, `-e VAR`,
 *   `--env VAR=v`, `--env=VAR=v` (`--env-file` and other options' values skipped), also after a
 *   `--` (`claude mcp add x -- docker run -e VAR img`);
 * - any other program's `-e VAR=v`, `--env VAR=v`, `--env=VAR=v` (with a value only):
 *   `claude mcp add x -e VAR=v -- uvx server`, `make -e VAR=v`, `kubectl run --env=VAR=v`;
 * - the assignments after `cross-env`/`cross-env-shell` (`cross-env NODE_ENV=production webpack`);
 * - the program `export` (`export A=1 B`), `declare -x`/`typeset -x`, csh `setenv VAR v`, fish
 *   `set -x|-gx|-Ux|--export VAR v…`, and `set VAR=v` (the Windows `cmd` form pasted in a shell block).
 *
 * A command without a program (`FOO=1` alone, a shell variable) gives none. Arguments after the
 * program (`cmd key=v`, `cmd --flag=v`, Hydra overrides) are never env usages, but for the
 * `-e`/`--env` options above; heredoc bodies and
 * quoted strings are single words or skipped by the tokeniser. Names must pass {@link isEnvVarName}.
 * `raw` is the word as the shell passes it (quotes removed, as for flags), `value` the text after
 * the first `=` (absent for `-e VAR`, `export VAR`), `location` the variable name.
 *
 * @param words the command's words; `program` the index of its program word (`programWord`).
 * @param invocation the index of the invocation the program word makes.
 */
export function shellEnvUsages(file: string, src: ShellSource, words: readonly ShellWord[], program: number, invocation: number, block: CodeBlock): Usage[] {
  const out: Usage[] = [];
  const add = (w: ShellWord, name: string, value: string | undefined, from = 0): void => {
    if (!isEnvVarName(name)) return;
    out.push({
      file,
      command: ENVIRONMENT_COMMAND,
      invocation,
      raw: w.text,
      name,
      key: name,
      syntax: 'env',
      prefix: '',
      ...(value !== undefined ? { value } : {}),
      location: nameLocation(file, src, w, name, from),
      block,
    });
  };
  /** `NAME=v` or `NAME` as a `-e` value. */
  const addSpec = (w: ShellWord, text: string, from = 0): void => {
    const m = ASSIGNMENT_RE.exec(text);
    if (m) add(w, m[1]!, m[2]!, from);
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) add(w, text, undefined, from);
  };
  /** Reads docker options from `j` up to `end` (exclusive): `-e`/`--env` values; stops at the first positional that is no sub-command word. */
  const dockerOptions = (j: number, end: number): void => {
    while (j < end) {
      const t = words[j]!.text;
      if (t === '-e' || t === '--env') {
        const v = words[j + 1];
        if (v && j + 1 < end) addSpec(v, v.text);
        j += 2;
      } else if (t.startsWith('--env=')) {
        addSpec(words[j]!, t.slice('--env='.length), words[j]!.raw.indexOf('=') + 1);
        j++;
      } else if (t.startsWith('-') && t !== '-') {
        j += !t.includes('=') && DOCKER_VALUE_OPTIONS.has(t) ? 2 : 1;
      } else if (DOCKER_SUBCOMMANDS.has(t)) j++;
      else return;
    }
  };
  const isDocker = (t: string): boolean => {
    const base = t.slice(t.lastIndexOf('/') + 1);
    return base === 'docker' || base === 'podman';
  };
  for (let j = 0; j < program; j++) {
    const w = words[j]!;
    if (isDocker(w.text)) {
      dockerOptions(j + 1, program);
      break;
    }
    const m = ASSIGNMENT_RE.exec(w.text);
    if (!m) continue;
    const prev = words[j - 1]?.text;
    if (prev !== undefined && VALUE_OPTIONS.has(prev)) continue;
    add(w, m[1]!, m[2]!);
  }
  const head = words[program];
  if (!head) return out;
  const base = head.text.slice(head.text.lastIndexOf('/') + 1);
  const args = words.slice(program + 1);
  if (!isDocker(base)) {
    // Any program's `-e NAME=v` / `--env NAME=v` / `--env=NAME=v` (`claude mcp add x -e KEY=v -- cmd`,
    // `make -e`, `kubectl run --env`): the value names a variable set for what it runs. Without a
    // value (`-e NAME`) only docker's is read. After `--`, a `docker run …` is read as docker.
    for (let k = program + 1; k < words.length; k++) {
      const t = words[k]!.text;
      if ((t === '-e' || t === '--env') && words[k + 1]) {
        const v = words[k + 1]!;
        const m = ASSIGNMENT_RE.exec(v.text);
        if (m) add(v, m[1]!, m[2]!);
        k++;
      } else if (t.startsWith('--env=')) {
        const m = ASSIGNMENT_RE.exec(t.slice('--env='.length));
        if (m) add(words[k]!, m[1]!, m[2]!, words[k]!.raw.indexOf('=') + 1);
      } else if (t === '--' && words[k + 1] && isDocker(words[k + 1]!.text)) {
        dockerOptions(k + 2, words.length);
        break;
      }
    }
  }
  switch (base) {
    case 'docker': case 'podman':
      dockerOptions(program + 1, words.length);
      break;
    case 'cross-env': case 'cross-env-shell':
      // `cross-env NODE_ENV=production webpack`: the npm wrapper's leading assignments.
      for (const a of args) {
        const m = ASSIGNMENT_RE.exec(a.text);
        if (!m) break;
        add(a, m[1]!, m[2]!);
      }
      break;
    case 'export': case 'declare': case 'typeset': {
      const options = args.filter((a) => a.text.startsWith('-')).map((a) => a.text);
      if (base !== 'export' && !options.some((o) => /^-[a-zA-Z]*x/.test(o))) break;
      if (options.includes('-n') || options.includes('-p')) break;
      for (const a of args) if (!a.text.startsWith('-')) addSpec(a, a.text);
      break;
    }
    case 'setenv': {
      const name = args[0];
      if (name && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)) add(name, name.text, args.slice(1).map((a) => a.text).join(' ') || undefined);
      break;
    }
    case 'set': {
      // fish: `set -x NAME value…`, `set -gx NAME value…`; Windows cmd pasted in a shell block: `set NAME=value`.
      let k = 0;
      let exported = false;
      while (k < args.length && args[k]!.text.startsWith('-')) {
        const o = args[k]!.text;
        if (o === '--export' || isExportOption(o)) exported = true;
        k++;
      }
      const name = args[k];
      if (!name) break;
      if (exported && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)) add(name, name.text, args.slice(k + 1).map((a) => a.text).join(' ') || undefined);
      else if (k === 0 && args.length === 1) {
        const m = ASSIGNMENT_RE.exec(name.text);
        if (m) add(name, m[1]!, m[2]!);
      }
      break;
    }
    default:
      break;
  }
  return out;
}

/** Names of env files a code block's info string may give (`title=".env"`, `filename=.env.local`, `env.example`). */
const ENV_FILE_NAME_RE = /(?:^|[\s"'=/:])((?:\.env(?:\.[\w-]+)*|[\w-]+\.env|env\.(?:example|sample|template|dist|defaults)))(?=$|[\s"',}])/;
/** Info-string languages of `.env` content. */
const ENV_LANGS: ReadonlySet<string> = new Set(['dotenv', 'env', '.env']);

/**
 * True when a fenced block holds `.env` file content: its language is `dotenv`/`env`/`.env`, or
 * its info string names an env file (` ```bash title=".env" `, ` ```ini filename=".env.local" `,
 * ` ```text .env.example `).
 */
export function isEnvFileBlock(lang: string | null | undefined, meta: string | null | undefined): boolean {
  if (lang && ENV_LANGS.has(lang.toLowerCase())) return true;
  if (lang && ENV_FILE_NAME_RE.test(`:${lang}`) && /^(?:\.env|[\w-]+\.env)/.test(lang)) return true;
  return meta !== null && meta !== undefined && ENV_FILE_NAME_RE.test(meta);
}

/** A code block's content as the Markdown parser gives it, with where it sits in the file. */
export interface BlockContent {
  /** The content, fence indentation removed. */
  value: string;
  /** 1-based file line of the first content line. */
  contentLine: number;
  /** Columns of indentation removed from each line. */
  contentIndent: number;
  block: CodeBlock;
}

/**
 * The variables a `.env` code block ({@link isEnvFileBlock}) sets: every active `KEY=value` line
 * as {@link scanEnvLines} reads it (dotenv's rules: `export`, quotes, `KEY: value`); commented-out
 * lines (`# KEY=value`) are not set, so they are not usages. Names must pass {@link isEnvVarName}.
 * `raw` is the line's `KEY=value` text as written up to the value's end.
 */
export function envBlockUsages(file: string, content: BlockContent, invocation: number): Usage[] {
  const out: Usage[] = [];
  const lines = content.value.split(/\r\n|\r|\n/);
  for (const l of scanEnvLines(content.value).lines) {
    if (l.commented || !isEnvVarName(l.key)) continue;
    const line = content.contentLine + l.line;
    const column = content.contentIndent + l.column + 1;
    const text = lines[l.line] ?? '';
    const end = l.valueColumn !== undefined ? l.valueColumn + (l.valueLength ?? 0) : l.column + l.key.length;
    out.push({
      file,
      command: ENVIRONMENT_COMMAND,
      invocation,
      raw: text.slice(l.column, Math.max(end, l.column + l.key.length)).trim(),
      name: l.key,
      key: l.key,
      syntax: 'env',
      prefix: '',
      ...(l.value !== undefined ? { value: l.value } : {}),
      location: { file, line, column, endLine: line, endColumn: column + l.key.length },
      block: content.block,
    });
  }
  return out;
}

/** Info-string languages of PowerShell and of Windows `cmd` batch code. */
export const POWERSHELL_LANGS: ReadonlySet<string> = new Set(['powershell', 'pwsh', 'ps1', 'ps', 'posh']);
const BATCH_LANGS: ReadonlySet<string> = new Set(['bat', 'batch', 'cmd', 'dos', 'winbatch', 'doscon']);

/** True when a block's language is PowerShell or Windows batch, read by {@link windowsEnvUsages}. */
export function isWindowsShellLang(lang: string | null | undefined): boolean {
  const l = lang?.toLowerCase();
  return l !== undefined && (POWERSHELL_LANGS.has(l) || BATCH_LANGS.has(l));
}

/** `PS C:\> ` and `C:\dir> ` prompts. */
const WIN_PROMPT = String.raw`(?:PS\s[^>\n]*>\s*|[A-Za-z]:\\[^>\n]*>\s*)?`;
const PS_ENV_RE = new RegExp(String.raw`^(\s*${WIN_PROMPT})\$env:([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("[^"]*"|'[^']*'|[^;\s]*)`, 'i');
/**
 * The head of a batch `set`/`setx` line, up to the separator after the name. The value is taken
 * by {@link matchBatchSet} without a regex: the former `SET_RE` ended in `(.*?)\s*$`, which tried
 * `\s*$` from every position of a blank run inside the value, quadratic (s28 sweep D10: `set
 * TOOL_A=` then 60,000 blanks and `x`: 3.9 s, a 60 KB README dropped as over its parse budget;
 * 100,000 blanks 11.7 s -> 0.4 ms), and cubic on a line it could not match, whose separator run it
 * backtracked too (`setx TOOL_B`, 10,000 tabs, `y\u2028z`: 450 s -> 0.2 ms).
 */
const SET_HEAD_RE = new RegExp(String.raw`^(\s*${WIN_PROMPT})(?:@?set|setx)\s+("?)([A-Za-z_][A-Za-z0-9_]*)(=|\s+)`, 'i');
/** Line separators, which `.` does not match: a value holding one before its last non-blank is not read (as `SET_RE` did not). */
const LINE_SEPARATOR_RE = /[\u2028\u2029]/;

/** The parts of a batch `set` line (see {@link matchBatchSet}). */
export interface BatchSet {
  /** Leading blanks and a `C:\>` prompt, if any. */
  prompt: string;
  /** `"` for `set "NAME=value"`, else `''`. */
  quote: string;
  name: string;
  /** `=`, or the blanks between the name and the value (`setx NAME value`). */
  separator: string;
  /** The rest of the line without trailing blanks (`\s`, as `trimEnd` cuts them); quotes kept. */
  value: string;
}

/**
 * One line of Windows batch read as `[@]set[x] ["]NAME(=| )value`, in linear time: what the
 * former regex `^(\s*PROMPT)(?:@?set|setx)\s+("?)(NAME)(=|\s+)(.*?)\s*$` (flag `i`) matched,
 * group for group (test/env-usages-set.test.ts checks parity on random and real-shaped lines).
 *
 * @param line one line, without its line break
 * @returns the parts, or `undefined` when the line is not such a `set` (the old regex's no-match)
 */
export function matchBatchSet(line: string): BatchSet | undefined {
  const m = SET_HEAD_RE.exec(line);
  if (!m) return undefined;
  // `(.*?)\s*$`: the shortest value whose rest is all blanks, i.e. the rest without its trailing
  // blanks; `.` stops at U+2028/U+2029, so a separator left inside it is no match.
  const value = line.slice(m[0].length).trimEnd();
  if (LINE_SEPARATOR_RE.test(value)) return undefined;
  return { prompt: m[1]!, quote: m[2]!, name: m[3]!, separator: m[4]!, value };
}

/**
 * The variables a PowerShell (`$env:VAR = "v"`, `$Env:VAR="v"`) or Windows batch (`set VAR=v`,
 * `set "VAR=v"`, `setx VAR v`) block sets, one per line, `PS C:\>` / `C:\>` prompts allowed.
 * Values lose one pair of surrounding quotes. Names must pass {@link isEnvVarName}.
 */
export function windowsEnvUsages(file: string, content: BlockContent, lang: string, invocation: number): Usage[] {
  const out: Usage[] = [];
  const powershell = POWERSHELL_LANGS.has(lang.toLowerCase());
  content.value.split(/\r\n|\r|\n/).forEach((text, i) => {
    let lead: string;
    let name: string;
    let value: string;
    if (powershell) {
      const m = PS_ENV_RE.exec(text);
      if (!m) return;
      lead = `${m[1]!}$env:`;
      name = m[2]!;
      value = m[3]!;
    } else {
      const m = matchBatchSet(text);
      if (!m || (m.separator !== '=' && !/^setx/i.test(text.slice(m.prompt.length)))) return;
      lead = text.slice(0, text.indexOf(m.name, m.prompt.length));
      name = m.name;
      value = m.quote === '"' ? m.value.replace(/"$/, '') : m.value;
    }
    if (!isEnvVarName(name)) return;
    value = value.replace(/^(["'])(.*)\1$/, '$2');
    const line = content.contentLine + i;
    const column = content.contentIndent + lead.length + 1;
    out.push({
      file,
      command: ENVIRONMENT_COMMAND,
      invocation,
      raw: text.slice(lead.length).trim(),
      name,
      key: name,
      syntax: 'env',
      prefix: '',
      value,
      location: { file, line, column, endLine: line, endColumn: column + name.length },
      block: content.block,
    });
  });
  return out;
}

/** Keys whose map or list value is a set of environment variables, at any depth of a YAML/JSON block. */
const ENV_KEYS: ReadonlySet<string> = new Set(['env', 'environment', 'containerenv', 'remoteenv']);

/**
 * The variables a YAML or JSON block sets under an `environment:` or `env:` key at any depth (and
 * a devcontainer.json's `containerEnv`/`remoteEnv`; keys matched ignoring case):
 * a map (docker compose `environment: {KEY: v}`, GitHub Actions `env:`, an MCP server's `"env": {…}`),
 * a list of `KEY=value` / `KEY` strings (compose), or a list of `{name: KEY, value: v}` maps
 * (Kubernetes container `env:`; `valueFrom` gives no value), in every document of a multi-document block. A scalar under such a key
 * (`environment: production`) is none. Names must pass {@link isEnvVarName}; `value` is the scalar
 * as YAML reads it (absent for `null` or a non-scalar); `raw` the name's (or list item's) token as
 * written; `location` the name. TOML blocks are not read. Never throws.
 */
export function dataBlockEnvUsages(block: DataBlock, invocation: number): Usage[] {
  if (block.lang === 'toml' || !/env/i.test(block.value)) return [];
  try {
    return yamlEnvUsages(block, invocation);
  } catch {
    return [];
  }
}

function yamlEnvUsages(block: DataBlock, invocation: number): Usage[] {
  const counter = new LineCounter();
  const parsed = parseAllDocuments(block.value, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  const docs = Array.isArray(parsed) ? parsed : [];
  const out: Usage[] = [];
  const codeBlock: CodeBlock = { file: block.file, lang: block.lang, location: block.location };
  const add = (node: YamlNode, name: string, value: string | undefined): void => {
    if (!isEnvVarName(name) || !node.range) return;
    const text = block.value.slice(node.range[0], node.range[1]);
    const raw = text.trim();
    const offset = Math.max(text.indexOf(name), 0);
    const start = counter.linePos(node.range[0] + offset);
    const line = block.contentLine + start.line - 1;
    const column = start.col + block.contentIndent;
    out.push({
      file: block.file,
      command: ENVIRONMENT_COMMAND,
      invocation,
      raw,
      name,
      key: name,
      syntax: 'env',
      prefix: '',
      ...(value !== undefined ? { value } : {}),
      location: { file: block.file, line, column, endLine: line, endColumn: column + name.length },
      block: codeBlock,
    });
  };
  const scalarText = (node: unknown): string | undefined => (isScalar(node) && node.value !== null && node.value !== undefined && typeof node.value !== 'object' ? String(node.value) : undefined);
  const readEnv = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        const value = scalarText(pair.value);
        add(pair.key as YamlNode, name, value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isScalar(item) && typeof item.value === 'string') {
          const m = ASSIGNMENT_RE.exec(item.value);
          if (m) add(item as YamlNode, m[1]!, m[2]!);
          else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.value)) add(item as YamlNode, item.value, undefined);
        } else if (isMap(item)) {
          const nameNode = item.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'name');
          if (!nameNode || !isScalar(nameNode.value) || typeof nameNode.value.value !== 'string') continue;
          const valuePair = item.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'value');
          const value = valuePair ? scalarText(valuePair.value) : undefined;
          const name = nameNode.value.value;
          add(nameNode.value as YamlNode, name, value);
        }
      }
    }
  };
  const visit = (node: unknown, depth: number): void => {
    if (depth > 32) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isScalar(pair.key) && typeof pair.key.value === 'string' && ENV_KEYS.has(pair.key.value.toLowerCase())) readEnv(pair.value);
        visit(pair.value, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, depth + 1);
    }
  };
  for (const d of docs) visit(d.contents, 0);
  return out;
}

/**
 * A fish `set` option that exports (`-x`, `-gx`, `-Ux`): letters only, one of them `x`. A test and
 * an `includes`, not `/^-[a-zA-Z]*x[a-zA-Z]*$/`, whose two letter runs around the `x` backtracked
 * quadratically on `-xxx…x` and a stray character (s27).
 */
export function isExportOption(o: string): boolean {
  return /^-[a-zA-Z]+$/.test(o) && o.includes('x');
}
