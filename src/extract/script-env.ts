/**
 * Environment variables in the project's shell scripts, Dockerfiles, Makefiles and justfiles
 * (issue #31): the names they read, which the linker takes as mentions (a documented variable a
 * wrapper script reads is not "read nowhere"), and the variables a Dockerfile's `ENV` sets in the
 * project's own container image, which users do not set (`EnvExtraction.internal`).
 *
 * Read, by kind ({@link scriptKind}):
 * - shell (`*.sh`, `*.bash`, `*.zsh`, `*.ksh`, extensionless files with a `sh`/`bash`/`zsh`/`dash`/
 *   `ksh` shebang): expansions `$X`, `${X}`, `${X:-d}`, `${X:=d}`, `${#X}`…, and the names the
 *   script assigns or exports (`X=…`, `export X`, `: "${X:=d}"`), which it passes to what it runs;
 * - Dockerfile (`Dockerfile`, `Dockerfile.*`, `*.Dockerfile`, `Containerfile`): `$X`/`${X}` in
 *   `RUN`, `CMD`, `ENTRYPOINT` and `HEALTHCHECK` (continuation lines and heredoc bodies included),
 *   the names of `ARG` (build arguments, documented as such) and of `ENV`; `ENV X=v`, `ENV X v`
 *   and `ENV A=1 B=2` are the image's own settings ({@link InternalEnvVar}, reason
 *   `set by the container image`). `ARG X` alone is not: a build argument is not in the running
 *   container's environment unless an `ENV` copies it (`ENV GIT_COMMIT_HASH=$COMMIT`);
 * - Makefile (`Makefile`, `GNUmakefile`, `makefile`, `*.mk`): `$(X)`, `${X}`, `$$X`/`$${X}` in
 *   recipes, `ifdef X`/`ifndef X`, and `X ?= d` (a variable the environment may set);
 * - justfile (`justfile`, `Justfile`, `.justfile`, `*.just`): `env_var('X')`,
 *   `env_var_or_default('X', d)`, `env('X')`, `env('X', d)`, and `$X`/`${X}` in recipe lines.
 *
 * - server configs (`*.ini`, `*.conf`, `*.service`, `Procfile`: uwsgi, supervisord, systemd,
 *   Heroku): every upper-case name with an underscore ({@link serverConfigEnvWords}).
 *
 * Only upper-case names are taken (`[A-Z_][A-Z0-9_]*` with a letter): lower-case shell and make
 * variables are the script's locals. Not read: what a script reads through another program
 * (`printenv X`, `env | grep X`), indirect expansion (`${!name}`), `.env` files a script sources,
 * systemd units' `Environment=` as supplied variables. Compose files' `environment:` come through the YAML files.
 * Nothing is executed; each file is read as text.
 */
import type { InternalEnvVar } from '../model/types.js';
import { lineIndexAt } from '../shared/strings.js';

/** How a script file is read; undefined for a file that is none of them. */
export type ScriptKind = 'shell' | 'dockerfile' | 'makefile' | 'justfile' | 'server-config';

/** A POSIX-like shell named by a shebang word: `sh`, `/usr/bin/bash`, `zsh`. */
const SHELL_WORD = /^(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|ash|mksh)$/;

/**
 * Whether a file's first line is a shebang that runs a POSIX-like shell, directly or through a
 * wrapper that runs the shell named after it: `#!/bin/sh`, `#!/usr/bin/env bash`, `#!/bin/bash -e`,
 * `#!/usr/bin/env -S zsh -f`, s6-overlay's `#!/command/with-contenv /usr/bin/bash` and
 * `#!/usr/bin/with-contenv bash` (the `run` files of its services).
 */
export function isShellShebang(head: string): boolean {
  const line = head.slice(0, head.indexOf('\n') >= 0 ? head.indexOf('\n') : head.length);
  if (!line.startsWith('#!')) return false;
  return line.slice(2, 300).trim().split(/[ \t]+/).slice(0, 4).some((w) => SHELL_WORD.test(w));
}

/**
 * The kind of a script by its path (project-relative POSIX), and for an extensionless file by
 * its text's shebang (`head`: at least its first line; without it such a file is no script).
 */
export function scriptKind(file: string, head?: string): ScriptKind | undefined {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (base.endsWith('.dockerignore')) return undefined;
  if (/^(?:Dockerfile|Containerfile)(?:\..+)?$/.test(base) || /\.(?:Dockerfile|Containerfile|dockerfile)$/.test(base)) return 'dockerfile';
  if (/^(?:GNUmakefile|[Mm]akefile)$/.test(base) || base.endsWith('.mk')) return 'makefile';
  if (/^\.?[Jj]ustfile$/.test(base) || base.endsWith('.just')) return 'justfile';
  if (/\.(?:sh|bash|zsh|ksh)$/.test(base)) return 'shell';
  if (/\.(?:ini|conf|service)$/.test(base) || base === 'Procfile') return 'server-config';
  if (!base.includes('.') && head !== undefined && isShellShebang(head)) return 'shell';
  return undefined;
}

/** What {@link scriptEnv} finds in one file. */
export interface ScriptEnv {
  /** Names the file reads, sets or declares (distinct, in order of first appearance). */
  words: string[];
  /** Variables the file sets in the project's container image (Dockerfile `ENV`). */
  internal: InternalEnvVar[];
}

/** An upper-case variable name: a letter somewhere, no lower case (`$1`, `$@` and `$file` are not). */
const UPPER_NAME = /^[A-Z_][A-Z0-9_]*$/;
function isUpperName(name: string): boolean {
  return UPPER_NAME.test(name) && /[A-Z]/.test(name);
}

/** Largest script read: a generated or vendored script says nothing about the project's variables. */
export const MAX_SCRIPT_BYTES = 1_000_000;

/** `$X` and `${X…}` (also `${#X}`, `${X:-d}`, `${X%%.*}`); `$$X` in a Makefile recipe is the same read. */
const SHELL_EXPANSION = /\$\{#?([A-Za-z_][A-Za-z0-9_]*)|\$([A-Za-z_][A-Za-z0-9_]*)/g;
/**
 * `X=…`, `export X=…`, `export X Y`, `local X=`, `readonly X=`, `declare -x X=` at the start of a
 * command. `then`/`do`/`else` right after a `-` start nothing: inside `declare`'s options
 * (`-dodeclare -dodeclare …`) each began a match that read every option after it, quadratic (s27
 * recheck list); `-do X=` is an argument, no assignment.
 */
export const SHELL_ASSIGNMENT = /(?:^|[;&|(]|(?<!-)\b(?:then|do|else))[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)\+?=/gm;
const SHELL_EXPORT = /(?:^|[;&|(])[ \t]*export[ \t]+([^\n;&|#]*)/gm;

/**
 * The upper-case names with an underscore in a server's or service manager's config (uwsgi's
 * `if-env = LD_REQUEST_TIMEOUT` and `$(APP_PORT)`, supervisord's `%(ENV_APP_HOME)s`, systemd
 * `Environment=APP_MODE=prod`, a Procfile's `$WEB_CONCURRENCY`): which of them are variables
 * cannot be told from the many formats, so every such word counts as a mention.
 */
export function serverConfigEnvWords(text: string): string[] {
  const words = new Set<string>();
  for (const m of text.matchAll(/(?<![A-Za-z0-9_])(?:ENV_)?([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])(?![A-Za-z0-9_])/g)) {
    words.add(m[0]);
    if (m[0] !== m[1]) words.add(m[1]!);
  }
  return [...words];
}

/** The names a shell script reads (expansions) and sets or exports. */
export function shellEnvWords(text: string): string[] {
  const words = new Set<string>();
  const add = (name: string | undefined): void => {
    if (name !== undefined && isUpperName(name)) words.add(name);
  };
  for (const m of text.matchAll(SHELL_EXPANSION)) add(m[1] ?? m[2]);
  for (const m of text.matchAll(SHELL_ASSIGNMENT)) add(m[1]);
  // `export A B=1`: every word's name (a quoted value's words are no names: `export X="a b"`).
  for (const m of text.matchAll(SHELL_EXPORT)) for (const word of m[1]!.split(/[ \t]+/)) if (/^[A-Za-z_][A-Za-z0-9_]*(?:=|$)/.test(word)) add(word.split('=')[0]);
  return [...words];
}

/** `$(X)` and `${X}` (make), with `$$X`/`$${X}` (the shell's, in a recipe) taken by {@link SHELL_EXPANSION}. */
const MAKE_REFERENCE = /\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}:]/g;
/** `ifdef X`, `ifndef X`, `X ?= d`, `override X ?= d`, `export X ?= d`. */
const MAKE_CONDITIONAL = /^[ \t]*(?:ifn?def[ \t]+([A-Za-z_][A-Za-z0-9_]*)|(?:(?:export|override)[ \t]+)*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\?=)/gm;

/** The names a Makefile reads: make references, the shell's in recipes, `ifdef`, `?=`. */
export function makefileEnvWords(text: string): string[] {
  const words = new Set<string>();
  const add = (name: string | undefined): void => {
    if (name !== undefined && isUpperName(name)) words.add(name);
  };
  for (const m of text.matchAll(MAKE_REFERENCE)) add(m[1]);
  for (const m of text.matchAll(MAKE_CONDITIONAL)) add(m[1] ?? m[2]);
  for (const m of text.matchAll(/\$\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) add(m[1]);
  return [...words];
}

/** `env_var('X')`, `env_var_or_default("X", …)`, `env('X')`, `env('X', d)` in a justfile. */
const JUST_ENV = /\benv(?:_var(?:_or_default)?)?\(\s*(['"])([A-Za-z_][A-Za-z0-9_]*)\1/g;

/** The names a justfile reads: its env functions and the shell expansions of its recipes. */
export function justfileEnvWords(text: string): string[] {
  const words = new Set<string>();
  for (const m of text.matchAll(JUST_ENV)) if (isUpperName(m[2]!)) words.add(m[2]!);
  for (const name of shellEnvWords(text)) words.add(name);
  return [...words];
}

/** One Dockerfile instruction: its keyword (upper case), its arguments (continuation lines and heredoc bodies joined by newlines) and its first line. */
interface DockerInstruction {
  keyword: string;
  args: string;
  line: number;
  /** Column (1-based) where the arguments start on the first line. */
  argsColumn: number;
}

/** Instructions whose arguments run in a shell (or are a command): their expansions are reads. */
const DOCKER_RUNS = new Set(['RUN', 'CMD', 'ENTRYPOINT', 'HEALTHCHECK']);

/**
 * A Dockerfile's instructions (Dockerfile reference: a line ending in the escape character, `\`
 * or the one a `# escape=` directive names, continues; comment lines inside an instruction are
 * skipped; `<<EOF` heredocs run to their delimiter line).
 */
export function dockerInstructions(text: string): DockerInstruction[] {
  const lines = text.split(/\r?\n/);
  const directive = /^#\s*escape\s*=\s*([\\`])\s*$/im.exec(lines.slice(0, 5).join('\n'));
  const escape = directive?.[1] ?? '\\';
  const out: DockerInstruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!;
    const m = /^([ \t]*)([A-Za-z]+)(?:[ \t]+|$)/.exec(first);
    if (!m || first.trimStart().startsWith('#')) continue;
    const line = i + 1;
    const argsColumn = m[0].length + 1;
    // Continuation lines are joined by a newline each (a comment line inside as an empty one), so
    // an offset in `args` still tells its line. Only the last line read is trimmed and tested: the
    // whole text so far was, once per line (quadratic: a `RUN` continued over 100,000 lines,
    // #33 s27 sweep D7).
    const parts = [first.slice(m[0].length)];
    while (i + 1 < lines.length) {
      const last = parts[parts.length - 1]!.trimEnd();
      if (!last.endsWith(escape)) break;
      parts[parts.length - 1] = last.slice(0, -1);
      i++;
      while (i + 1 < lines.length && /^[ \t]*#/.test(lines[i]!)) {
        parts.push('');
        i++;
      }
      parts.push(lines[i]!);
    }
    let args = parts.join('\n');
    // Heredocs: `RUN <<EOF` … `EOF` (also `<<-EOF`, `<<"EOF"`).
    for (const h of args.matchAll(/<<-?(["']?)([A-Za-z_][A-Za-z0-9_]*)\1/g)) {
      const delimiter = h[2]!;
      while (i + 1 < lines.length) {
        i++;
        if (lines[i]!.trim() === delimiter) break;
        args += `\n${lines[i]!}`;
      }
    }
    out.push({ keyword: m[2]!.toUpperCase(), args, line, argsColumn });
  }
  return out;
}

/**
 * The pairs of an `ENV` instruction: `ENV A=1 B="two words"` (each `key=value`, values quoted or
 * with escaped spaces), or the legacy `ENV KEY value with spaces` (one pair, the rest is the value).
 */
export function dockerEnvPairs(args: string): Array<{ name: string; value: string; offset: number }> {
  const text = args.trim();
  const lead = args.length - args.trimStart().length;
  const legacy = /^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+/.exec(text);
  if (legacy && !/^[A-Za-z_][A-Za-z0-9_.-]*=/.test(text)) return [{ name: legacy[1]!, value: text.slice(legacy[0].length).trim(), offset: lead }];
  const out: Array<{ name: string; value: string; offset: number }> = [];
  // Sticky, so tried at `at` only, after blanks or a value's end: `(?<![\w.-])` changes nothing
  // there, and keeps the pattern linear wherever it is tried (s27 recheck list).
  const pair = /(?<![\w.-])([A-Za-z_][A-Za-z0-9_.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s\\]|\\.)*)/gy;
  let at = 0;
  while (at < text.length) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (at >= text.length) break;
    pair.lastIndex = at;
    const m = pair.exec(text);
    if (!m) break;
    out.push({ name: m[1]!, value: m[2]!.replace(/^(["'])(.*)\1$/s, '$2'), offset: lead + at });
    at = pair.lastIndex;
  }
  return out;
}

/**
 * What a Dockerfile says about the environment: the names its `RUN`/`CMD`/`ENTRYPOINT`/
 * `HEALTHCHECK` instructions expand and the names of its `ARG` and `ENV` (words), and every `ENV`
 * pair as a variable the image sets (internal, located at the name).
 */
export function dockerfileEnv(file: string, text: string): ScriptEnv {
  const words = new Set<string>();
  const internal: InternalEnvVar[] = [];
  for (const ins of dockerInstructions(text)) {
    if (DOCKER_RUNS.has(ins.keyword)) {
      for (const m of ins.args.matchAll(SHELL_EXPANSION)) {
        const name = m[1] ?? m[2];
        if (name !== undefined && isUpperName(name)) words.add(name);
      }
    } else if (ins.keyword === 'ARG') {
      for (const m of ins.args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)(?==|\s|$)/g)) if (isUpperName(m[1]!)) words.add(m[1]!);
    } else if (ins.keyword === 'ENV') {
      // Where each line of the arguments starts (after a `\n`): a pair's line by binary search,
      // not by rescanning the text before it (quadratic: `ENV` of 120,000 pairs, #33 s27 sweep D6).
      const starts = [0];
      for (let k = ins.args.indexOf('\n'); k >= 0; k = ins.args.indexOf('\n', k + 1)) starts.push(k + 1);
      for (const pair of dockerEnvPairs(ins.args)) {
        words.add(pair.name);
        const index = lineIndexAt(starts, pair.offset);
        const line = ins.line + index;
        const column = index === 0 ? ins.argsColumn + pair.offset : pair.offset - starts[index]! + 1;
        internal.push({ name: pair.name, location: { file, line, column }, reason: 'set by the container image' });
      }
    }
  }
  return { words: [...words], internal };
}

/**
 * What one script says about the environment (see the module comment): the names it mentions
 * and, for a Dockerfile, the variables its image sets. A file over {@link MAX_SCRIPT_BYTES} or of
 * no known kind gives nothing.
 *
 * @param file project-relative POSIX path (locations)
 * @param text the file's text
 */
export function scriptEnv(file: string, text: string): ScriptEnv {
  if (text.length > MAX_SCRIPT_BYTES) return { words: [], internal: [] };
  switch (scriptKind(file, text.slice(0, 200))) {
    case 'dockerfile':
      return dockerfileEnv(file, text);
    case 'makefile':
      return { words: makefileEnvWords(text), internal: [] };
    case 'justfile':
      return { words: justfileEnvWords(text), internal: [] };
    case 'shell':
      return { words: shellEnvWords(text), internal: [] };
    case 'server-config':
      return { words: serverConfigEnvWords(text), internal: [] };
    default:
      return { words: [], internal: [] };
  }
}
