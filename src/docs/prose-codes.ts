/**
 * Parameter names in prose: the inline code spans of a paragraph that hold one parameter-like
 * token (`` `--vault_password_env_var` ``, `` `++responses_create_params.<field>` ``,
 * `` `num_repeats` ``). A span followed by prose words in its sentence explains the name on the
 * page itself (`` `--resume` continues an interrupted run. ``); a flag-shaped span (`--x`) is a
 * usage of the page's command in prose.
 */
import type { Nodes, Paragraph } from 'mdast';
import type { ProseCode } from '../model/types.js';
import { locationOf } from './position.js';
import { normalizeParamName } from './reference-table.js';
import { trimLeading, trimTrailing } from '../shared/strings.js';

/**
 * One parameter-like token: an optional prefix (`--`, `-`, `+`, `++`, `~`), a name (dots for
 * nested keys, `<field>` placeholders allowed after a dot), then an optional value: `=v`,
 * ` <v>`, ` VALUE`, `[=v]`. No other words: `gym env start --x` is a command line, not a name.
 */
const TOKEN_RE = /^(?:\+\+|\+|~|--|-)?[A-Za-z_][\w-]*(?:\.(?:[\w-]+|<[\w-]+>|\*))*\.?(?:\[?=[^\s]*\]?|\s+<[^>]+>|\s+[A-Z][A-Z0-9_]*|\s+\[[^\]]+\])?$/;
/**
 * A flag with its value (`--threads 8`, `--format=json`, `-m 3-small`), or with up to three value
 * words when it takes several (`--files docs '**\/*.md'`, `--option name value`); a word starting
 * with a dash and a letter is another flag, so `--a --b` is a command line (`--offset -1` is a value), not one flag.
 */
const FLAG_VALUE_RE = /^--?[A-Za-z][\w-]*[= ](?!-[A-Za-z-])\S+(?:[ \t]+(?!-[A-Za-z-])\S+){0,2}$/;
/**
 * Two spellings of one flag in one span: `-c/--content`, `-p, --port`, `--out | -o`, possibly
 * followed by the value (`-o/--option name value`). Group 1 the spellings, group 2 the value part.
 */
const SPELLINGS_RE = /^(-{1,2}[A-Za-z][\w-]*(?:[ \t]*[/,|][ \t]*-{1,2}[A-Za-z][\w-]*)+)((?:[ \t]+(?!-[A-Za-z-])\S+){0,3})$/;
/** A command line of lower-case words (a program and its sub-commands) ending in one flag: `llm fragments --aliases`. Group 1 the flag. */
const COMMAND_FLAG_RE = /^[a-z][\w.-]*(?:[ \t]+[a-z][\w-]*){0,3}[ \t]+(--?[A-Za-z][\w-]*)$/;
/** Two leading dashes and a name: a long CLI flag, never a bare word. */
const FLAG_RE = /^--[A-Za-z][\w-]*(?:[=\s[]|$)/;
/** A file name's extension: `config.yaml`, `train.py`. */
const FILE_RE = /\.(?:ya?ml|json|jsonl|toml|py|md|mdx|txt|sh|cfg|ini|csv|ts|js)$/i;
/** Nouns that continue a code span's noun phrase (`` `entry` file patterns ``), possibly two. */
const GENERIC_NOUN_RE = /^(?:(?:file|files|pattern|patterns|flag|flags|option|options|key|keys|field|fields|value|values|setting|settings|parameter|parameters|argument|arguments|property|properties|directory|folder|syntax|entry|entries|type|command|section|list|array|object)\b\s*){1,2}/i;
/** Words of prose: two letters at least. */
const WORD_RE = /[A-Za-z]{2,}/g;

type Token = { kind: 'code'; node: Extract<Nodes, { type: 'inlineCode' }> } | { kind: 'text'; value: string };

/** The phrasing content of a paragraph as code spans and text, through emphasis, strong, links and deletions. */
function tokens(node: Nodes, out: Token[]): Token[] {
  if (node.type === 'inlineCode') out.push({ kind: 'code', node });
  else if (node.type === 'text') out.push({ kind: 'text', value: node.value });
  else if ('children' in node) for (const c of node.children) tokens(c as Nodes, out);
  else out.push({ kind: 'text', value: ' ' });
  return out;
}

/**
 * The prose that follows token `i` in its sentence: the text up to the next code span or the end
 * of the sentence (`.`, `!`, `?` followed by a blank or the end).
 */
function followingProse(list: readonly Token[], i: number): string {
  let text = '';
  for (let j = i + 1; j < list.length; j++) {
    const t = list[j]!;
    if (t.kind === 'code') break;
    text += t.value;
  }
  const end = text.search(/[.!?](?:\s|$)/);
  return end >= 0 ? text.slice(0, end) : text;
}

/**
 * The text of token `i`'s sentence before it, code spans in backticks, at most 300 characters:
 * from the end of the previous sentence (`.`, `!`, `?` followed by a blank) on.
 */
function precedingSentence(list: readonly Token[], i: number): string {
  let text = '';
  for (let j = 0; j < i; j++) {
    const t = list[j]!;
    text += t.kind === 'code' ? `\`${t.node.value}\`` : t.value;
  }
  const ends = [...text.matchAll(/[.!?]\s/g)];
  const last = ends[ends.length - 1];
  const sentence = last ? text.slice((last.index ?? 0) + last[0].length) : text;
  return sentence.slice(-300).trim();
}

/**
 * `text` split at each `/`, `,` or `|`, the blanks around each separator dropped: what
 * a split at the pattern `[ \t]*[/,|][ \t]*` gave, without retrying a blank run from each of its positions
 * (quadratic, s27).
 */
export function splitSpellings(text: string): string[] {
  const parts = text.split(/[/,|]/);
  return parts.map((p, k) => {
    const start = k > 0 ? trimLeading(p, ' \t') : p;
    return k < parts.length - 1 ? trimTrailing(start, ' \t') : start;
  });
}

/** Prose that only joins two code spans: blank, `,`, `and`, `or`, `, and` (as `/^\s*(?:,|,?\s*(?:and|or))?\s*$/i`, whose blank runs side by side were quadratic, s27). */
export function isJoiner(text: string): boolean {
  return /^(?:,|,?\s*(?:and|or))?$/i.test(text.trim());
}

/**
 * The parameter-like code spans of one paragraph, in order: those followed by two prose words
 * at least (`explained`), and flag-shaped ones (`flag`) whatever follows them. A span holding
 * two spellings of a flag (`-c/--content`, `-p, --port`) gives one entry per spelling.
 *
 * @param file project-relative path, for locations
 */
export function readProseCodes(file: string, paragraph: Paragraph): ProseCode[] {
  const list = tokens(paragraph, []);
  const out: ProseCode[] = [];
  list.forEach((t, i) => {
    if (t.kind !== 'code') return;
    const written = t.node.value.trim();
    const two = SPELLINGS_RE.exec(written);
    // Each spelling with the value written after them: `-o/--option name value` → `-o name value`, `--option name value`.
    const spellings = two ? splitSpellings(two[1]!).map((sp) => sp + two[2]!) : [written];
    for (const code of spellings) read(t, i, code);
  });
  return out;

  function read(t: Extract<Token, { kind: 'code' }>, i: number, code: string): void {
    // `` Use `llm fragments --aliases` to see a full list… ``: a command line ending in its one
    // flag, followed by what it does, explains that flag (not a usage: the command is written out).
    const line = COMMAND_FLAG_RE.exec(code);
    if (line) {
      if (explains(followingProse(list, i))) {
        const flagName = line[1]!;
        out.push({ code: flagName, name: normalizeParamName(flagName), explained: true, flag: false, prefix: /^--?/.exec(flagName)![0], location: locationOf(file, t.node) });
      }
      return;
    }
    const tokenLike = TOKEN_RE.test(code) || FLAG_VALUE_RE.test(code);
    if (!tokenLike && !ENV_SPAN_RE.test(code)) return;
    const name = trimDot(normalizeParamName(tokenLike ? code : ENV_SPAN_RE.exec(code)![1]!));
    // A file name (`config.yaml`) is not the `config` parameter.
    if (name === '' || FILE_RE.test(name)) return;
    const following = followingProse(list, i);
    // A name ending in a dash (`--no-`, `--with-`) is the start of flags' names, not a flag.
    if (/^-[\w-]*-$/.test(code)) return;
    // `` the `--no` prefix ``, `` the `--with-` form ``: a part of flags' names, not a flag;
    // `` a custom `--foo` unit ``, `` the `--brand-color` variable ``: a CSS custom property or unit.
    if (/^[\s*_]*(?:prefix|suffix|units?|(?:custom\s+)?propert(?:y|ies)|variables?)\b/i.test(following)) return;
    const explained = explains(following);
    const flag = FLAG_RE.test(code);
    const envName = flag ? undefined : envMention(code, following, precedingSentence(list, i));
    // `` using the `--save template_name` option ``, `` using the `-i` and `--binary` options ``:
    // the sentence names the spans as options, short ones and those with a value placeholder too.
    const named = /^-{1,2}[A-Za-z]/.test(code) && namedAsOptions(list, i);
    // A one-letter flag a sentence introduces (`` To view the logs of the most recent conversation, use `-c`: ``)
    // explains it as a long one does; it is no prose flag (`flag`: a `-x` in prose may be anything).
    const shortIntroduced = !flag && !named && /^-[A-Za-z]$/.test(code) && introduces(list, i);
    if ((!explained && !flag && !named && !shortIntroduced && envName === undefined) || (!tokenLike && envName === undefined)) return;
    const prefix = /^(?:\+\+|\+|~|--|-)/.exec(code)?.[0] ?? '';
    // A bare flag only: a flag with its value (`` pass `--auth none` ``) is an inline example, unless the sentence calls it an option.
    const introduced = named || shortIntroduced || (flag && !/[\s=]/.test(code) && introduces(list, i));
    const before = flag ? precedingSentence(list, i) : '';
    // `` The `--x` flag was introduced in Node.js ``: the words after "flag" may name its program.
    const after = flag && /^\s*(?:flag|option|switch)\b/i.test(following) ? following.slice(0, 300) : '';
    out.push({ code, name, explained, flag, prefix, ...(introduced ? { introduced } : {}), ...(before !== '' ? { before } : {}), ...(after !== '' ? { after } : {}), ...(envName !== undefined ? { envName } : {}), location: locationOf(file, t.node) });
  }
}

/** An environment variable's name as prose writes it: `QDRANT_URL`, `$QDRANT_URL`, `${QDRANT_URL}`, `QDRANT_URL=1`. */
const ENV_SPAN_RE = /^(?:\$\{?)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\}?(?:=\S*)?$/;
/** Words that say a name is an environment variable: "environment variable(s)", "env var", "envvar". */
const ENV_WORDS_RE = /\benv(?:ironment)?[\s_-]*var(?:iable)?s?\b|\benvvars?\b/i;

/**
 * The variable a code span names when its sentence says it is an environment variable (issue
 * #31): `` use the `QUAMASH_QTIMPL` environment variable ``, `` set the env var `$APP_HOME` ``.
 * Multi-word upper-case names only (`APP_HOME`, not `PORT`), whose sentence names environment
 * variables before or after the span.
 */
function envMention(code: string, following: string, before: string): string | undefined {
  const m = ENV_SPAN_RE.exec(code);
  if (!m) return undefined;
  return ENV_WORDS_RE.test(following) || ENV_WORDS_RE.test(before) ? m[1]! : undefined;
}

/** Whether a code span names an option: a dash-prefixed token (`--out`, `-p`, `--format=json`). */
/**
 * Whether the sentence names code span `i` as an option or flag: the span, possibly in a list of
 * flag spans joined by commas, "and" or "or", is followed by "option(s)", "flag(s)" or
 * "switch(es)", and two prose words at least come before the list in its sentence
 * (`` using the `-i` and `--binary` options ``, `` is using the `--save name` option ``).
 */
function namedAsOptions(list: readonly Token[], i: number): boolean {
  let j = i + 1;
  for (; j < list.length; j++) {
    const t = list[j]!;
    if (t.kind === 'code') {
      if (!paramLike(t)) return false;
      continue;
    }
    if (isJoiner(t.value)) continue;
    if (!/^\s*(?:options?|flags?|switch(?:es)?)\b/i.test(t.value)) return false;
    break;
  }
  if (j >= list.length) return false;
  let k = i - 1;
  while (k >= 0 && (list[k]!.kind === 'code' ? paramLike(list[k]!) : isJoiner((list[k] as { value: string }).value))) k--;
  let before = '';
  for (; k >= 0; k--) {
    const t = list[k]!;
    if (t.kind === 'code') break;
    const stop = [...t.value.matchAll(/[.!?:]\s/g)].pop();
    before = (stop ? t.value.slice(stop.index + 2) : t.value) + before;
    if (stop) break;
  }
  return (before.match(WORD_RE) ?? []).length >= 2;
}

function paramLike(t: Token): boolean {
  const code = t.kind === 'code' ? t.node.value.trim() : '';
  return /^-/.test(code) && (TOKEN_RE.test(code) || FLAG_VALUE_RE.test(code));
}

/**
 * Whether the sentence around code span `i` introduces it: four prose words at least before it
 * and no other option in code in the sentence (other code, `` (`boolean` only) ``, may follow):
 * `` You can change the output directory using `--out`. ``, and a caption that leads into its
 * example (`` To store binary content, add the `--binary` option: ``, `` Enable notifications
 * with the `--notifications` flag: ``), which tells the reader what the flag does as well; never
 * `` use `--a`, `--b` or `--c` ``, a mere list. The short and long spelling of one option side by
 * side count as one span (`` Pass template variables using `-p` or `--param`: ``, as `-p, --param`
 * in one span does): see {@link spellingPartner}.
 */
function introduces(list: readonly Token[], i: number): boolean {
  const partner = spellingPartner(list, i);
  let before = '';
  for (let j = i - 1; j >= 0; j--) {
    const t = list[j]!;
    if (j === partner) continue;
    if (t.kind === 'code') {
      if (paramLike(t)) return false;
      before = ` x ${before}`;
      continue;
    }
    const stop = [...t.value.matchAll(/[.!?:]\s/g)].pop();
    if (stop) {
      before = t.value.slice(stop.index + 2) + before;
      break;
    }
    before = t.value + before;
  }
  for (let j = i + 1; j < list.length; j++) {
    const t = list[j]!;
    if (t.kind === 'text') {
      if (/[.!?:](?:\s|$)/.test(t.value)) break;
      continue;
    }
    if (j !== partner && paramLike(t)) return false;
  }
  return (before.match(WORD_RE) ?? []).length >= 4;
}

/**
 * The index of the span that is code span `i`'s other spelling, or -1: the span just before or
 * after it, joined by a comma, `or` or `/` alone (`` `-p` or `--param` ``, `` `--param`, `-p` ``),
 * when one of the two is a short flag (`-p`) and the other a long one whose name starts with that
 * letter (`--param`), the usual pairing of an option's two spellings. Two long flags, or a short
 * one with another letter (`` `-a` or `--binary` ``), are two options.
 */
function spellingPartner(list: readonly Token[], i: number): number {
  const own = list[i];
  if (own?.kind !== 'code') return -1;
  for (const j of [i - 2, i + 2]) {
    const other = list[j];
    const between = list[(i + j) / 2];
    if (other?.kind !== 'code' || between?.kind !== 'text' || !(isJoiner(between.value) || between.value.trim() === '/')) continue;
    if (pairedSpellings(own.node.value.trim(), other.node.value.trim())) return j;
  }
  return -1;
}

/** Whether two flags are one option's short and long spelling: `-p` and `--param` (either order). */
function pairedSpellings(a: string, b: string): boolean {
  const [short, long] = a.startsWith('--') ? [b, a] : [a, b];
  const s = /^-([A-Za-z])$/.exec(short);
  const l = /^--([A-Za-z][\w-]*)$/.exec(long);
  return s !== null && l !== null && l[1]![0]!.toLowerCase() === s[1]!.toLowerCase();
}

/**
 * Whether the prose after a code span explains it: two words at least; but when it goes on with
 * a noun naming what the code is (`` `project` patterns suffixed with… ``, `` the `--output` file,
 * matching… ``), only when a definition follows that noun (`` `--sandbox` flag: if you… ``,
 * `` the `--with` flag to specify packages ``,
 * `` `x` field that has no flag… ``). A mention is not an explanation.
 */
function explains(prose: string): boolean {
  const text = prose.replace(/^[\s*_]+/, '');
  const noun = GENERIC_NOUN_RE.exec(text);
  // The noun ate the blank after it (`` `--with` flag to specify… ``): the definition starts the rest.
  // A verb in the third person after the noun defines it too (`` the `-y` flag skips asking… ``,
  // `` that `--no-stream` option causes… ``).
  if (noun && !/^[\s*_]*(?::|—|–|-\s|(?:that|which|is|are|sets?|controls?|lets?|makes?|to\s+(?!the\b|a\b|an\b)[a-z]+)\b|[a-z]{2,}[^su\s]s\b)/i.test(text.slice(noun[0].length))) return false;
  return (text.match(WORD_RE) ?? []).length >= 2;
}

/** `responses_create_params.` (a `<field>` placeholder cut off) → `responses_create_params`. */
function trimDot(name: string): string {
  return trimTrailing(name, '.');
}
