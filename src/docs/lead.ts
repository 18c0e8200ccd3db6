/**
 * The lead text of a reference section or table (its heading and the paragraphs between the
 * heading and its first row) and what it says about the rows: that they are a selection ("Here
 * is a list of common options. Run `tool --help` for the full list", "Notable keys:", "### Other
 * flags"), that they show one named config file's values ("Sandboxed harness settings
 * (`configs/agent.yaml`)"), or that the command also takes the options of another page ("Every
 * one of the [Configuration](config.md) options can also be specified through the CLI"). Pure
 * text predicates: the link stage decides what they change.
 */
import type { DocFile, DocLink, Paragraph } from '../model/types.js';

/** Words that qualify the options listed as some of them (English; matched as whole words). */
const SELECTIVE =
  String.raw`(?:notable|common(?:ly[ -]used)?|frequently[ -]used|most[ -]used|most[ -](?:useful|important|common|relevant)|relevant|useful|important|main|key|core|essential|basic|popular|selected|highlighted|some|a[ -]few|several|other|additional|more|further|(?:a[ -])?subset[ -]of(?:[ -]the)?|a[ -]selection[ -]of(?:[ -]the)?)`;

/** Up to two words between a selective word and the noun ("common CLI options"), never a function word ("key of the settings"). */
const BETWEEN = String.raw`(?:(?!(?:of|the|a|an|in|on|to|for|is|are|can|may|and|or|that|which)\b)[\w-]+\s+){0,2}`;

/** Nouns a reference lists. */
const ITEMS = String.raw`(?:options?|flags?|keys?|fields?|settings?|parameters?|params|arguments?|args|properties|knobs|switches|controls|configs?|configuration[ -]options)`;

/** A heading that names a selection: "Other flags", "Notable keys", "Common options", "Key fields", "Highlights". */
const HEADING_RE = new RegExp(String.raw`^\s*(?:${SELECTIVE}\s+${BETWEEN}${ITEMS}|highlights|key\s+(?:${ITEMS})|(?:usage\s+)?examples?(?:\s+usage)?(?:\s+(?:for|of)\b|\s*$))`, 'i');

/**
 * Lead sentences that say the rows are a selection, each with the words it quotes:
 * "Here is a list of common options", "Notable keys:", "The most useful fields are:",
 * "Run `tool --help` for the full list", "see … for all options", "some of the options", "The full
 * schema lives in `Config`. Highlights:",
 * "The verification and retry controls are:" (a category of the options, named by its words).
 */
const LEAD_RES: readonly RegExp[] = [
  new RegExp(String.raw`\b${SELECTIVE}\s+${BETWEEN}${ITEMS}\b`, 'i'),
  new RegExp(String.raw`\b(?:some|a[ -]few|several|many|most)\s+of\s+(?:the|its|our|their)\s+(?:[\w-]+\s+)?${ITEMS}\b`, 'i'),
  /\b(?:for|see|in|lists?)\s+(?:\S+\s+){0,6}?(?:the\s+)?(?:full|complete|entire|whole|exhaustive)\s+(?:list|set|reference|documentation)\b/i,
  /\b(?:the\s+)?(?:full|complete|entire|whole|exhaustive)\s+(?:list|set|reference|documentation|schema|definition)\s+(?:is|lives|can\s+be\s+found|is\s+available)\b/i,
  /\b(?:highlights|for\s+example|e\.g\.)\s*:\s*$/i,
  new RegExp(String.raw`\b(?:for|see|lists?)\s+(?:\S+\s+){0,6}?all\s+(?:(?:the\s+)?available\s+|supported\s+)?${ITEMS}\b`, 'i'),
  /\bamong\s+(?:others|them)\b|\bincluding\b[^.]*:\s*$/i,
  // "The verification and retry controls are:" names a category, unlike "The options are:" or
  // "The following/available/supported options are:".
  new RegExp(String.raw`\bthe\s+(?!(?:following|available|supported|accepted|valid|full|complete|possible|configuration|config|cli|command[ -]line)\b)(?:[\w-]+\s+){1,4}${ITEMS}\s+(?:are|include)\s*:`, 'i'),
  // A paragraph that is only `tool sub --help`: the command's help output shown as an image (its
  // alt text, `![cz bump --help](cz_bump___help.svg)`) holds the full list, which docdrift cannot read.
  /(?:^|\n)[ \t]*(?:[\w.:/-]+[ \t]+){1,4}(?:--help|-h)[ \t]*(?=\n|$)/,
];

/** Words that would make a selective word mean something else ("the key is", "more details"). */
const NOT_SELECTION_RE = /\b(?:all|every|each|complete|full)\s+(?:of\s+)?(?:the\s+)?(?:available\s+|supported\s+)?(?:options?|flags?|keys?|fields?|settings?|parameters?)\s+(?:are|is)\s+(?:listed|documented|shown|described)\b/i;

/** Characters of a heading or lead tested at each end when it is longer than twice this. */
const CUE_TEXT_END = 2000;

/** `text`, or its first and last {@link CUE_TEXT_END} characters joined by a line feed when it is longer than twice that. */
function boundedText(text: string): string {
  return text.length <= 2 * CUE_TEXT_END ? text : `${text.slice(0, CUE_TEXT_END)}\n${text.slice(-CUE_TEXT_END)}`;
}

/**
 * The words of a section's heading or lead text that declare its rows a selection of the
 * parameters, or `undefined` when they do not.
 *
 * @param heading the heading's text
 * @param lead the lead paragraphs, joined
 */
export function selectionCue(heading: string, lead: string): string | undefined {
  // The cues are a few words: a long heading or lead is tested at its start and its end only, so
  // patterns such as `including[^.]*:\s*$` stay within a bounded text (a lead of 50,000
  // "including " took 22 s on the main thread, s26c sweep D9).
  heading = boundedText(heading);
  lead = boundedText(lead);
  const h = HEADING_RE.exec(heading);
  if (h) return h[0].trim();
  if (NOT_SELECTION_RE.test(lead)) return undefined;
  for (const re of LEAD_RES) {
    const m = re.exec(lead);
    if (m) return m[0].trim();
  }
  return undefined;
}

/** A project config file named with its folder (`configs/agent.yaml`, `conf/app.toml`): one shipped instance, not the file users write. */
const SCOPED_FILE_RE = /(?:^|[\s`'"(])((?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.(?:ya?ml|toml|json|jsonc))(?=$|[\s`'"),.:;])/i;

/**
 * The config file a section's heading or lead text scopes its rows to, when it names one with its
 * folder (`configs/stirrup.yaml`): the Default column then shows that file's values. A bare name
 * (`pyproject.toml`, `.toolrc.json`) is the file users write, whose defaults are the code's.
 */
export function scopedConfigFile(heading: string, lead: string): string | undefined {
  return SCOPED_FILE_RE.exec(heading)?.[1] ?? SCOPED_FILE_RE.exec(lead)?.[1];
}

/**
 * A sentence saying the command also takes the options another page documents: "Every one of
 * Jest's Configuration options can also be specified through the CLI", "All config file options
 * can be passed as flags", "Any setting … may also be given on the command line".
 */
const DELEGATION_RE =
  /\b(?:every(?:\s+one\s+of)?|all(?:\s+of)?|any(?:\s+of)?|each(?:\s+of)?)\b[^.]{0,80}?\b(?:options?|settings?|keys?|fields?|properties)\b[^.]{0,40}?\bcan\s+(?:also\s+)?be\s+(?:specified|passed|set|given|used|provided|overridden)\b[^.]{0,30}?\b(?:through|via|on|from|as|with|in|using)\s+(?:the\s+)?(?:cli|command[ -]line|command[ -]line\s+(?:flags?|options?|arguments?)|flags?|options)\b/i;

/** Characters of the longest sentence {@link delegates} tests: a delegation sentence is one line of prose. */
const MAX_DELEGATION_SENTENCE = 2000;

/**
 * Whether `text` holds a delegation sentence ({@link DELEGATION_RE}), tested on each run of text
 * between periods (no match of the pattern holds a `.`, and a `.` is no word character, so this
 * finds what testing the whole text found) up to {@link MAX_DELEGATION_SENTENCE} characters: the
 * pattern's bounded gaps try up to 80 × 40 × 30 ends from each `all`/`any`/`each` (42 ms on
 * 100 KB of `all key can be set `, s27), so a paragraph of any length is not given to it whole.
 */
export function delegates(text: string): boolean {
  return text.split('.').some((s) => s.length <= MAX_DELEGATION_SENTENCE && DELEGATION_RE.test(s));
}

/**
 * The documents a page defers to for options it does not list itself: the link targets inside a
 * delegation sentence (see {@link DELEGATION_RE}) of the page's intro (before its first heading,
 * or right under its title) or of a paragraph between `from` and `to` (the section's lead). Links
 * to the page itself are left out.
 */
export function delegatedDocs(doc: Pick<DocFile, 'file' | 'links' | 'paragraphs' | 'headings'>, from: number, to: number): string[] {
  // The page's intro: before its first heading, or between its title and the next heading.
  const [first, second] = doc.headings;
  const firstHeading = (first?.depth === 1 ? second : first)?.location.line ?? Infinity;
  const out = new Set<string>();
  for (const p of [...paragraphsBetween(doc, 0, firstHeading), ...paragraphsBetween(doc, from, to)]) {
    if (!delegates(p.text)) continue;
    for (const l of linksIn(doc.links, p)) if (l.targetFile && l.targetFile !== doc.file) out.add(l.targetFile);
  }
  return [...out];
}

/**
 * The paragraphs that start after line `from` and end before line `to`, found by binary search
 * (a page of many sections asks once per section).
 */
function paragraphsBetween(doc: Pick<DocFile, 'paragraphs'>, from: number, to: number): Paragraph[] {
  const ps = doc.paragraphs ?? [];
  let lo = 0;
  let hi = ps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ps[mid]!.line <= from) lo = mid + 1;
    else hi = mid;
  }
  const out: Paragraph[] = [];
  for (let i = lo; i < ps.length && ps[i]!.endLine < to; i++) out.push(ps[i]!);
  return out;
}

function linksIn(links: readonly DocLink[], p: Paragraph): DocLink[] {
  return links.filter((l) => l.location.line >= p.line && l.location.line <= p.endLine);
}

/**
 * The lead text of rows that start at `firstRow`: the last paragraph after `from` (the section's
 * heading line) and before the first row, the one that introduces them ("Here is a list of
 * common options."); empty when there is none. Earlier paragraphs talk about the command in
 * general ("Some options can also be set in a file") and are not read.
 */
export function leadText(doc: Pick<DocFile, 'paragraphs'>, from: number, firstRow: number): string {
  return paragraphsBetween(doc, from, firstRow).pop()?.text ?? '';
}
