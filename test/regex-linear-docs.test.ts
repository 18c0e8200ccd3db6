/**
 * s27, docs group: the regexes of src/docs/ that recheck reports super-linear, each made linear
 * (a parity test against the old pattern, kept here, and a hostile input) or run on bounded text
 * only (a hostile input showing the cap holds). Times in comments: the old pattern on the attack
 * at ~100 KB, then the code now, measured on the development machine.
 */
import { describe, expect, it } from 'vitest';
import { isExportOption } from '../src/docs/env-usages.js';
import { USAGE_HEADER_RE, USAGE_RE } from '../src/docs/help-text.js';
import { headingAttrsStart, statusWord } from '../src/docs/layouts.js';
import { delegates, selectionCue } from '../src/docs/lead.js';
import { openDirectiveContainers } from '../src/docs/myst.js';
import { isContributorPage, RELEASE_HEADING_RE, RELEASE_PAGE_RE } from '../src/docs/page-kind.js';
import { headingId, parseDoc, yamlTitle } from '../src/docs/parse.js';
import { isJoiner, splitSpellings } from '../src/docs/prose-codes.js';
import { DIRECTIVE_RE, linkTarget } from '../src/docs/rst.js';
import { elapsedMs } from './helpers.js';

const N = 100_000;
/** Generous: the linear code takes a few ms; the patterns replaced took seconds to minutes. */
const BOUND_MS = 2000;

/** A seeded generator of random strings from `alphabet` (`pieces` may hold several characters), up to `max` pieces long. */
function randomStrings(alphabet: readonly string[], count: number, max: number, seed = 27): string[] {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const len = Math.floor(next() * (max + 1));
    let x = '';
    for (let j = 0; j < len; j++) x += alphabet[Math.floor(next() * alphabet.length)]!;
    out.push(x);
  }
  return out;
}

/** The inputs on which `now` and `old` disagree (compared as JSON). */
function differences<T>(inputs: readonly string[], now: (s: string) => T, old: (s: string) => T): string[] {
  const out: string[] = [];
  for (const s of inputs) {
    const a = JSON.stringify(now(s));
    const b = JSON.stringify(old(s));
    if (a !== b) out.push(`${JSON.stringify(s)}: ${a} vs ${b}`);
  }
  return out;
}

const execGroups = (re: RegExp) => (s: string): unknown => {
  const m = re.exec(s);
  return m ? { index: m.index, groups: [...m] } : null;
};

describe('linear rewrites read what the old patterns read (s27, docs group)', () => {
  it('env-usages: isExportOption is /^-[a-zA-Z]*x[a-zA-Z]*$/', () => {
    const old = /^-[a-zA-Z]*x[a-zA-Z]*$/;
    const inputs = [...randomStrings(['-', 'x', 'g', 'U', 'X', '1', ' ', '\0'], 4000, 8), '-x', '-gx', '-Ux', '-xU', '--export', '-', '-g', 'x'];
    expect(differences(inputs, isExportOption, (s) => old.test(s))).toEqual([]);
  });

  it('help-text: USAGE_RE and USAGE_HEADER_RE match and capture as the old patterns', () => {
    const oldUsage = /^\s*usage:\s*(.*)$/i;
    const oldHeader = /^\s*(?:usage|synopsis)\s*:?\s*$/i;
    const pieces = ['usage', 'USAGE', 'synopsis', ':', ' ', '\t', '\n', '\r', '\u2028', 'x', 'quill [-h]'];
    const real = ['usage: quill [-h] [--seed SEED]', 'Usage:', '  Usage: llm prompt [OPTIONS]', 'USAGE', 'SYNOPSIS', 'usage:   ', 'Usage :', 'usage: \n x'];
    const inputs = [...randomStrings(pieces, 6000, 7), ...real];
    expect(differences(inputs, execGroups(USAGE_RE), execGroups(oldUsage))).toEqual([]);
    expect(differences(inputs, (s) => USAGE_HEADER_RE.test(s), (s) => oldHeader.test(s))).toEqual([]);
  });

  it('layouts: headingAttrsStart is where /\\s*\\{:?[ \\t]*[#.][^{}\\n]*\\}\\s*$/ matched', () => {
    const old = /\s*\{:?[ \t]*[#.][^{}\n]*\}\s*$/;
    const pieces = ['{', '}', ':', '#', '.', ' ', '\t', '\n', 'a', '`x`'];
    const real = ['`seed` {#seed}', '`--fast` {: #fast .cls }', 'name { .note }', 'a {#x} b', 'a {#x}}', 'a {{#x}'];
    const inputs = [...randomStrings(pieces, 8000, 9), ...real];
    expect(differences(inputs, headingAttrsStart, (s) => old.exec(s)?.index ?? -1)).toEqual([]);
  });

  it('layouts: statusWord matches and captures as the old STATUS_RE', () => {
    const old = /^\s*(?:[([]\s*)?(required|optional|deprecated|experimental|beta|advanced)?\s*(?:[)\]])?\s*$/i;
    const pieces = ['(', ')', '[', ']', ' ', '\t', '\n', 'required', 'Optional', 'beta', 'x'];
    const real = ['', ' (required)', ' [optional] ', ' deprecated', '(beta', 'advanced)', ' ( experimental ) ', '(required) x'];
    const inputs = [...randomStrings(pieces, 8000, 7), ...real];
    expect(differences(inputs, (s) => statusWord(s)?.[1] ?? (statusWord(s) ? 'match' : null), (s) => old.exec(s)?.[1] ?? (old.test(s) ? 'match' : null))).toEqual([]);
  });

  it('page-kind: RELEASE_PAGE_RE and RELEASE_HEADING_RE accept what the old patterns accepted', () => {
    const oldPage = /(?:^|\/)(?:changes|changelog|releases?|release[-_]notes|news|history|whatsnew|whats[-_]new)\/v?\d+(?:\.\d+)+[\w.-]*\.(?:mdx?|rst|txt)$/i;
    const oldHeading = /^\[?(?:v|version\s+|release\s+|[\w@/.-]+@)?\d+\.\d+[\w.+-]*\]?(?:\s|$|[(:—–-])|^\[?unreleased\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b/i;
    const pagePieces = ['news/', 'releases/', 'v', '1', '0', '.', '-', 'a', '/', '.md', '.rst', 'x'];
    const headingPieces = ['v', '1', '2', '.', '-', '+', ']', '[', '@', 'a', ' ', '(', ':', '—', 'x', '/'];
    const pages = [...randomStrings(pagePieces, 8000, 8), 'doc/changes/2.0.rst', 'releases/v1.4.md', 'whatsnew/3.1.rst', 'news/1.2.3-beta.1.md', 'news/1.md'];
    const headings = [...randomStrings(headingPieces, 12000, 9), '1.2.3', 'v2.0.0-beta.1', '[1.2.3](x)', 'Version 2.1', 'create-vite@6.5.0', 'Unreleased', '2024-03-08', 'March 8, 2024', '1.2.3a+b]-', '1.2x'];
    expect(differences(pages, (s) => RELEASE_PAGE_RE.test(s), (s) => oldPage.test(s))).toEqual([]);
    expect(differences(headings, (s) => RELEASE_HEADING_RE.test(s), (s) => oldHeading.test(s))).toEqual([]);
  });

  it('parse: yamlTitle and headingId read what the old patterns read', () => {
    const oldTitle = (yaml: string): string | undefined => {
      const m = /^title:[ \t]*(.+?)[ \t]*$/m.exec(yaml);
      if (!m) return undefined;
      const value = m[1]!.replace(/^(['"])(.*)\1$/, '$2').trim();
      return value === '' ? undefined : value;
    };
    const titlePieces = ['title:', ' ', '\t', '\n', '\r', '"', "'", 'a', ':'];
    const titles = [...randomStrings(titlePieces, 8000, 8), 'title: Hello\n', 'id: x\ntitle: "Quoted" \n', 'title:\ntitle: second', 'title: \t\ntitle: x'];
    expect(differences(titles, yamlTitle, oldTitle)).toEqual([]);

    const oldId = /\{:?[ \t]*#([\w:.-]+)(?:[ \t]+[^{}\n]*)?[ \t]*\}\s*$/;
    const idPieces = ['{', '}', ':', '#', 'a', '-', '.', ' ', '\t', '\n'];
    const ids = [...randomStrings(idPieces, 12000, 9), 'Export {#export}', 'Export {: #export }', 'Export { #export .class }', 'a {#b} c', 'a {#b}}'];
    expect(differences(ids, headingId, (s) => oldId.exec(s)?.[1])).toEqual([]);
  });

  it('prose-codes: splitSpellings and isJoiner are the old split and test', () => {
    const pieces = ['/', ',', '|', ' ', '\t', '-a', '--b', 'x'];
    const inputs = [...randomStrings(pieces, 6000, 8), '-c/--content', '-p, --port', '-q | --quiet'];
    expect(differences(inputs, splitSpellings, (s) => s.split(/[ \t]*[/,|][ \t]*/))).toEqual([]);
    const oldJoiner = /^\s*(?:,|,?\s*(?:and|or))?\s*$/i;
    const joinerPieces = [',', ' ', '\t', '\n', 'and', 'OR', 'a', 'nd'];
    const joiners = [...randomStrings(joinerPieces, 6000, 6), ', and ', ' or ', ', ', ' and the '];
    expect(differences(joiners, isJoiner, (s) => oldJoiner.test(s))).toEqual([]);
  });

  it('rst: DIRECTIVE_RE and linkTarget read what the old patterns read', () => {
    const oldDirective = /^\.\. +([A-Za-z0-9][\w.:+-]*?) ?::(?: +(.*))?$/;
    const dirPieces = ['.. ', ' ', ':', '::', 'a', '0', '-', '\u2028', '\r', 'x y'];
    const directives = [...randomStrings(dirPieces, 8000, 7).map((s) => `.. ${s}`), '.. note:: x', '.. code-block:: python', '.. py:function:: f(x)', '.. note::', '.. note::   x  y'];
    expect(differences(directives, execGroups(DIRECTIVE_RE), execGroups(oldDirective))).toEqual([]);
    const oldLink = (body: string): unknown => {
      const m = /^([\s\S]*?)\s*<([^<>]+)>$/.exec(body);
      return m ? { label: m[1]!, url: m[2]! } : undefined;
    };
    const linkPieces = ['<', '>', ' ', '\t', '\n', 'a', 'http://x'];
    const links = [...randomStrings(linkPieces, 8000, 8), 'Python <https://python.org>', '<https://x>', 'a <b> <c>', 'a<>', 'label  <x\ny>'];
    expect(differences(links, linkTarget, oldLink)).toEqual([]);
  });

  it('lead: delegates tests DELEGATION_RE sentence by sentence as it tested the paragraph', () => {
    const old = /\b(?:every(?:\s+one\s+of)?|all(?:\s+of)?|any(?:\s+of)?|each(?:\s+of)?)\b[^.]{0,80}?\b(?:options?|settings?|keys?|fields?|properties)\b[^.]{0,40}?\bcan\s+(?:also\s+)?be\s+(?:specified|passed|set|given|used|provided|overridden)\b[^.]{0,30}?\b(?:through|via|on|from|as|with|in|using)\s+(?:the\s+)?(?:cli|command[ -]line|command[ -]line\s+(?:flags?|options?|arguments?)|flags?|options)\b/i;
    const pieces = ['all ', 'every one of ', 'options ', 'key ', 'can ', 'be ', 'set ', 'also ', 'via ', 'the ', 'cli', ' flags', '.', 'x', 'all.', '.key'];
    const real = [
      "Every one of Jest's Configuration options can also be specified through the CLI.",
      'All config file options can be passed as flags.',
      'Any setting. can be given on the command line',
      'See the reference. All keys can be set with the command-line flags. Done.',
    ];
    const inputs = [...randomStrings(pieces, 6000, 12), ...real];
    expect(differences(inputs, delegates, (s) => old.test(s))).toEqual([]);
  });
});

describe('hostile inputs at ~100-200 KB finish fast (s27, docs group)', () => {
  it.each([
    // before 683 ms at 20 KB (quadratic: ~17 s at 100 KB); now < 1 ms
    ['env-usages: isExportOption on -xxx…x\\0', () => isExportOption(`-${'x'.repeat(N)}\u0000`)],
    // before 680 ms at 20 KB (~17 s at 100 KB); now < 1 ms
    ['help-text: USAGE_RE on a tab run then a line feed', () => USAGE_RE.exec(`USAGE:${'\t'.repeat(N)}USAGE:\n`)],
    // before 955 ms at 20 KB (~24 s at 100 KB); now < 1 ms
    ['help-text: USAGE_HEADER_RE on a tab run', () => USAGE_HEADER_RE.test(`USAGE${'\t'.repeat(N)}USAGE`)],
    // before 6.8 ms at 2 KB (quadratic: ~17 s at 100 KB); now ~1 ms
    ['layouts: headingAttrsStart on a tab run', () => headingAttrsStart(`${'\t'.repeat(N)}\u0000{#}`)],
    // before 5.7 s at 2 KB (cubic); now < 1 ms
    ['layouts: statusWord on ( and a tab run', () => statusWord(`(${'\t'.repeat(N)}U`)],
    // before 4.2 ms at 2 KB (~10 s at 100 KB); now < 1 ms
    ['page-kind: RELEASE_PAGE_RE on a digit run', () => RELEASE_PAGE_RE.test(`NEWS/0.0${'0'.repeat(N)}O`)],
    // before 21.8 ms at 2 KB (~55 s at 100 KB); now < 1 ms
    ['page-kind: RELEASE_HEADING_RE on a digit run', () => RELEASE_HEADING_RE.test(`0.0${'0'.repeat(N)}\u0000`)],
    ['page-kind: RELEASE_HEADING_RE on many @ versions', () => RELEASE_HEADING_RE.test(`${'a@1.1a'.repeat(N / 6)}\u0000`)],
    // before 18.1 ms at 2 KB (~45 s at 100 KB); now < 1 ms
    ['parse: yamlTitle on a tab run', () => yamlTitle(`title::${'\t'.repeat(N)}\u0000`)],
    // before 2.4 s at 2 KB (cubic); now < 1 ms
    ['parse: headingId on tab runs', () => headingId(`{#:\t${'\t'.repeat(N / 2)}:${'\t'.repeat(N / 2)}`)],
    // before 7.4 ms at 2 KB (~18 s at 100 KB); now < 1 ms
    ['prose-codes: splitSpellings on a tab run', () => splitSpellings(`${'\t'.repeat(N)}\u0000,`)],
    // before 17.5 ms at 2 KB (~44 s at 100 KB); now < 1 ms
    ['prose-codes: isJoiner on a tab run', () => isJoiner(`${'\t'.repeat(N)}\u0000`)],
    // before: quadratic in a blank run before a line separator (21.7 ms at 2 KB); now < 1 ms
    ['rst: DIRECTIVE_RE on a blank run then a line separator', () => DIRECTIVE_RE.exec(`.. 0:: ${' '.repeat(N)}\u2028`)],
    // before 18.9 ms at 2 KB (~47 s at 100 KB); now < 1 ms
    ['rst: linkTarget on a tab run', () => linkTarget(`${'\t'.repeat(N)}\u0000>`)],
    // sentence cap: before 24-42 ms at 100 KB (bounded gaps, linear but 80 × 40 × 30 ends per start); now ~1 ms
    ['lead: delegates on a 100 KB run of "ALL KEY-CAN"', () => delegates(`${'ALL KEY-CAN\t'.repeat(N / 12)}T`)],
    ['lead: delegates on 2,000-character sentences of "all key can be set"', () => delegates(`${'all key can be set '.repeat(100)}.`.repeat(N / 1900))],
    // bounded text (boundedText, <= 4,001 chars): before 1.3 s on the attack at 100 KB with no bound; now ~1 ms
    ['lead: selectionCue on the "including … among them" attack', () => selectionCue('Options', `\u0000${'EM\u0000INCLUDING\u0000'.repeat(N / 15)}EM\tAMONG\tTHEM`)],
    // bounded gaps {0,500}: 68 ms on 100 KB, linear (500 characters per attempt at most)
    ['myst: text directive attributes on :A[} repeated', () => openDirectiveContainers(`${':A[}{'.repeat(N / 5)}\n`)],
    ['myst: text directive attributes, brackets never closed', () => openDirectiveContainers(`${':a['.repeat(N / 3)}{\n`)],
    ['page-kind: isContributorPage on a long file name (255-char cap)', () => isContributorPage(`0${'-CONTRIBUTING-'.repeat(N / 14)}L`)],
  ])('%s', (_name, fn) => {
    expect(elapsedMs(fn)).toBeLessThan(BOUND_MS);
  });

  it('page-kind: the 255-character cap keeps CONTRIBUTING.md names', () => {
    expect(isContributorPage('docs/CONTRIBUTING.md')).toBe(true);
    expect(isContributorPage(`docs/${'a'.repeat(200)}-contributing.md`)).toBe(true);
  });

  it('help-text: a long prompt line and a long option line with an unclosed [default: are skipped fast', () => {
    // HELP_PROMPT_RE (cubic: 2.8 s on a 2,000-character line) runs on lines of <= 200 characters
    // (worst case there ~3 ms); helpDefault's pattern (quadratic: 2.6 s at 100 KB) on lines of
    // <= 2,000 characters (< 1 ms there).
    const prompt = `$\t${'\t'.repeat(N / 4)}#${'\t'.repeat(N / 4)}[]$\t)\t-h`;
    const option = `  --seed SEED  seed ${'([DEFAULT:[A'.repeat(N / 12)}`;
    const doc = `\`\`\`\n${prompt}\nusage: tool [-h] [--seed SEED]\n\noptions:\n${option}\n  --name NAME  a name [default: x]\n\`\`\`\n`;
    // ~0.5 s for the whole 200 KB document on an idle machine; parseDoc does much else with it.
    expect(elapsedMs(() => parseDoc('a.md', doc))).toBeLessThan(BOUND_MS * 4);
  });

  it('help-text: a prompt line at the 200-character cap of HELP_PROMPT_RE', () => {
    // Worst shapes measured on the pattern alone at 200 characters: ~3 ms (300: 24 ms, 2,000: 2.8 s).
    const prompt = `$${'\t'.repeat(197)}x\u2028`;
    expect(prompt.length).toBeLessThanOrEqual(200);
    const doc = `\`\`\`\n${prompt}\nusage: tool [-h]\n\`\`\`\n`;
    expect(elapsedMs(() => parseDoc('a.md', doc))).toBeLessThan(BOUND_MS);
  });

  it('env-usages: a fish `set` with a long option in a document runs fast', () => {
    const doc = `\`\`\`fish\nset -${'x'.repeat(N)}\u0000 A 1\nset -gx TOOL_HOME /opt\n\`\`\`\n`;
    expect(elapsedMs(() => parseDoc('a.md', doc))).toBeLessThan(BOUND_MS);
  });
});
