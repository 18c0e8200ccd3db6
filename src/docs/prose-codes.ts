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

/**
 * One parameter-like token: an optional prefix (`--`, `-`, `+`, `++`, `~`), a name (dots for
 * nested keys, `<field>` placeholders allowed after a dot), then an optional value: `=v`,
 * ` <v>`, ` VALUE`, `[=v]`. No other words: `gym env start --x` is a command line, not a name.
 */
const TOKEN_RE = /^(?:\+\+|\+|~|--|-)?[A-Za-z_][\w-]*(?:\.(?:[\w-]+|<[\w-]+>|\*))*\.?(?:\[?=[^\s]*\]?|\s+<[^>]+>|\s+[A-Z][A-Z0-9_]*|\s+\[[^\]]+\])?$/;
/** Two leading dashes and a name: a long CLI flag, never a bare word. */
const FLAG_RE = /^--[A-Za-z][\w-]*(?:[=\s[]|$)/;
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
 * The parameter-like code spans of one paragraph, in order: those followed by two prose words
 * at least (`explained`), and flag-shaped ones (`flag`) whatever follows them.
 *
 * @param file project-relative path, for locations
 */
export function readProseCodes(file: string, paragraph: Paragraph): ProseCode[] {
  const list = tokens(paragraph, []);
  const out: ProseCode[] = [];
  list.forEach((t, i) => {
    if (t.kind !== 'code') return;
    const code = t.node.value.trim();
    if (!TOKEN_RE.test(code)) return;
    const name = trimDot(normalizeParamName(code));
    if (name === '') return;
    const explained = (followingProse(list, i).match(WORD_RE) ?? []).length >= 2;
    const flag = FLAG_RE.test(code);
    if (!explained && !flag) return;
    out.push({ code, name, explained, flag, location: locationOf(file, t.node) });
  });
  return out;
}

/** `responses_create_params.` (a `<field>` placeholder cut off) → `responses_create_params`. */
function trimDot(name: string): string {
  return name.replace(/\.+$/, '');
}
