/** ReDoS: the regexes that run on document text are timed on 100k-character pathological inputs; an opt-in recheck audit covers every regex literal in src/ and rules/. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { defaultFromDescription, namesOf, normalizeParamName } from '../src/docs/reference-table.js';
import { mentionMatcher } from '../src/engine/lint.js';
import { dataBlockKeys } from '../src/docs/config-keys.js';
import { parseEnvFile } from '../src/docs/env-file.js';
import { relativeSpecifiers } from '../src/extract/typescript/programs.js';
import { namesBase } from '../src/link/build.js';
import { declaredDefault } from '../src/link/declared-flags.js';
import { defaultCellValue } from '../src/fix/reference-edits.js';
import { cycloptsName } from '../src/extract/python/flags-cyclopts.js';
import { collectEnvWords } from '../src/shared/env-words.js';
import { trimTrailing } from '../src/shared/strings.js';
import { selectionCue } from '../src/docs/lead.js';
import { cliLibraryUses } from '../src/extract/cli-libraries.js';
import { headingMatchText } from '../src/shared/strings.js';
import { elapsedMs } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** A regular expression written in the code: a `/…/flags` literal or `new RegExp('literal', 'flags')`. */
interface FoundRegex {
  source: string;
  flags: string;
  where: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every regex literal and `new RegExp` with literal arguments in the TypeScript files, found with the TypeScript parser. */
function findRegexes(): FoundRegex[] {
  const out: FoundRegex[] = [];
  for (const file of [...tsFiles(path.join(ROOT, 'src')), ...tsFiles(path.join(ROOT, 'rules'))]) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (n: ts.Node): string => `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    const visit = (n: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(n)) {
        const text = n.text;
        const end = text.lastIndexOf('/');
        out.push({ source: text.slice(1, end), flags: text.slice(end + 1), where: where(n) });
      } else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp') {
        const [pattern, flags] = n.arguments ?? [];
        if (pattern && ts.isStringLiteralLike(pattern)) {
          out.push({ source: pattern.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '', where: where(n) });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

const regexes = findRegexes();

/** Milliseconds one call may take on a 100k-character input: linear work takes a few; the quadratic regexes these replaced took 20 s to minutes. */
const BOUND_MS = 1500;
const N = 100_000;

describe('document text under pathological 100k-character inputs', () => {
  it.each([
    ['namesOf: a long run of blanks before separators (ALIAS_SEPARATOR_RE)', () => namesOf(`a${'\t'.repeat(N)}\t|,`, [])],
    ['namesOf in code spans', () => namesOf('', [`a${' '.repeat(N)}x`, ` ${'/ '.repeat(N / 2)}`])],
    ['normalizeParamName: a long run of trailing punctuation', () => normalizeParamName(`a${','.repeat(N)}\u0000,`)],
    ['defaultFromDescription: a value of dots', () => defaultFromDescription(`Default: ${'.'.repeat(N)}\u0000.`, [])],
    ['mentionMatcher: a heading line of # characters', () => mentionMatcher(['tool'], []).test(`# #${'#'.repeat(N)}\u0000`)],
    ['mentionMatcher: env prose, many backticked names without the words', () => mentionMatcher([], [], [], true).test(`\`A_B\` ${'x'.repeat(50)} `.repeat(N / 60))],
    ['mentionMatcher: env prose, env words then many names', () => mentionMatcher([], [], [], true).test(`env var ${'`A_B '.repeat(N / 5)}`)],
    ['mentionMatcher: many heading lines', () => mentionMatcher([], []).test(`# a${' \t#'.repeat(N / 3)}x\n`.repeat(3))],
    // s26b sweep D6-D10: `\s` crossing lines after `^`, or two blank quantifiers around an optional part, on text no parse budget bounds.
    ['relativeSpecifiers: a program followed by blank lines', () => relativeSpecifiers(`import { a } from './a.js';${'\n'.repeat(N)}x`)],
    ['headingMatchText: a heading of blanks with no id', () => headingMatchText(`x${' '.repeat(N)}y`)],
    ['headingMatchText: many braces before an id', () => headingMatchText(`${'{ '.repeat(N / 4)}{#a}`)],
    ['parseEnvFile: a comment of dashes', () => parseEnvFile('.env.example', `# a${'-'.repeat(N)}x\nA=1\n`)],
    ['namesBase: `extends` then a blank run', () => namesBase(`extends${' '.repeat(N)}x \`A\``, '`A`')],
    ['parseDoc: an RST directive argument with a blank run', () => parseDoc('a.rst', `.. note:: x${' '.repeat(N)}y\n`)],
    ['parseDoc: a pasted --help default with a blank run and no bracket', () => parseDoc('a.md', `\`\`\`\nusage: tool [-h]\n\noptions:\n  --seed SEED  seed [default:${' '.repeat(N / 2)}x (default: ${' '.repeat(N / 2)}x\n  Default: x${' '.repeat(N / 2)}y\n\`\`\`\n`)],
    // s26c sweep D1-D6: names, defaults and URLs are not short when a file says otherwise.
    ['collectEnvWords: a word of `prefix` repeated', () => collectEnvWords(`x: ${'prefix'.repeat(N / 6)}\n`, new Set())],
    ['declaredDefault: a digit run with a bare exponent', () => declaredDefault(`0${'1'.repeat(N)}E`)],
    ['defaultCellValue: a digit run with a bare exponent', () => defaultCellValue(`0${'1'.repeat(N)}e`, ['`1`', '"a"'])],
    ['trimTrailing: a slash run not at the end', () => trimTrailing(`${'/'.repeat(N)}x/`, '/')],
    ['cycloptsName: a run of capitals', () => cycloptsName(`${'A'.repeat(N)}_x`)],
    ['selectionCue: a lead of "including" without a period', () => selectionCue('Options', 'including '.repeat(N / 10))],
    ['cliLibraryUses: an import line of no-break spaces', () => cliLibraryUses('a.py', `import\u00a0type${'\u00a0'.repeat(N / 20)}x\n`)],
    ['cliLibraryUses: a long import line', () => cliLibraryUses('a.ts', `import ${' '.repeat(N)}x\n`)],
    ['dataBlockKeys: a TOML header without its bracket', () => dataBlockKeys({ file: 'a.md', lang: 'toml', value: `[${' '.repeat(N)}x\n`, contentLine: 1, contentIndent: 0 } as never)],
  ])('%s', (_name, fn) => {
    expect(elapsedMs(fn)).toBeLessThan(BOUND_MS);
  });

  it('parseDoc: heading-per-parameter layout with long blank runs after the default and in the anchor', () => {
    const doc = [
      '## `tool`',
      '',
      `### \`seed\`${'\t'.repeat(N / 4)}`,
      '',
      `Default: \`0\`${' '.repeat(N / 4)})`,
      '',
      `### \`name\` ${'{#'.repeat(10)}${' '.repeat(N / 4)}`,
      '',
      `Default: ${'x,'.repeat(N / 8)}${'.'.repeat(N / 8)};`,
      '',
    ].join('\n');
    expect(elapsedMs(() => parseDoc('a.md', doc))).toBeLessThan(BOUND_MS * 4);
  });
});

describe('the linear rewrites read what the patterns they replaced read (s26b sweep D8, D10)', () => {
  /** Every string of up to `n` characters drawn from `alphabet`, shortest first. */
  function* strings(alphabet: string, n: number): Generator<string> {
    let level = [''];
    for (let len = 0; len <= n; len++) {
      yield* level;
      level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    }
  }
  it('headingMatchText strips a trailing heading id as /\\s*\\{:?\\s*#[^}]*\\}\\s*$/ did', () => {
    const old = (t: string): string => t.replace(/\s*\{:?\s*#[^}]*\}\s*$/, '').replace(/\s+/g, ' ').trim();
    const differ: string[] = [];
    for (const t of strings('a{}#: ', 7)) if (headingMatchText(t) !== old(t)) differ.push(JSON.stringify(t));
    expect(differ).toEqual([]);
  });
  it('cycloptsName splits words as the three patterns of cyclopts did', () => {
    const old = (id: string): string =>
      id.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z])([A-Z])/g, '$1_$2').replace(/([0-9])([A-Z])/g, '$1_$2').toLowerCase().replaceAll('_', '-').replace(/^-+|-+$/g, '');
    const differ: string[] = [];
    for (const id of strings('AaB1_-', 7)) if (cycloptsName(id) !== old(id)) differ.push(JSON.stringify(id));
    expect(differ).toEqual([]);
  });
  it('trimTrailing removes what /[…]+$/ removed', () => {
    const differ: string[] = [];
    for (const t of strings('/.a ', 7)) {
      if (trimTrailing(t, '/') !== t.replace(/\/+$/, '')) differ.push(JSON.stringify(t));
      if (trimTrailing(t, '. ') !== t.replace(/[. ]+$/, '')) differ.push(JSON.stringify(t));
    }
    expect(differ).toEqual([]);
  });
  it('a TOML table header is read as /^\\s*\\[\\[?\\s*([^\\]]+?)\\s*\\]\\]?\\s*(#.*)?$/ read it', () => {
    const TABLE = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
    const differ: string[] = [];
    for (const header of strings('a[] #', 7)) {
      const m = TABLE.exec(header);
      // Headers whose name a dotted-key split would change are left out (no `.` or quote in the alphabet).
      const expected = m ? `${m[1]!.trim()}.k` : 'k';
      const got = dataBlockKeys({ file: 'a.md', lang: 'toml', value: `${header}\nk = 1`, contentLine: 1, contentIndent: 0 } as never).map((k) => k.key);
      if (got.at(-1) !== expected) differ.push(`${JSON.stringify(header)}: ${JSON.stringify(got)} vs ${expected}`);
    }
    expect(differ).toEqual([]);
  });
});

/**
 * The full recheck audit of every regex literal of src/ and rules/ (issue #33: four adversarial
 * sweeps turned 30 regexes recheck had flagged into 20-60 s hangs, on the main thread, outside the
 * parse budgets). It runs in every test run: about 2 minutes with recheck's native backend
 * (`recheck-linux-x64`, installed by `npm ci` on Linux x64); `RECHECK_BACKEND=pure` works
 * anywhere but takes ~8 minutes; `REGEX_AUDIT=0` skips it for a quick local run. A regex recheck
 * flags must be made linear, or run only on text its call site bounds: the patterns in
 * KNOWN_POLYNOMIAL are super-linear by recheck's analysis but only run on short, bounded text,
 * each with the bound that makes it safe; a new flagged regex fails the audit.
 */
const KNOWN_POLYNOMIAL: ReadonlySet<string> = new Set([
  // Anchored at the text's start (no m flag): one start; the lazy repetition is bounded by 40, so at most 40 x the blank run.
  '/^\\s*([A-Za-z][A-Za-z -]{0,40}?)\\s*:\\s*/',
  '/^\\s*([A-Za-z][A-Za-z -]{0,40}?)\\s*$/',
  // Sticky: tried at one position only, linear there.
  '/[ \\t]*(?:(?:[-*+]|\\d{1,9}[.)])[ \\t]+|>[ \\t]?)/y',
  // One documented type cell, of at most 2,000 characters (normaliseType's MAX_LENGTH, checked first): ~4 M steps at worst.
  '/(?:,\\s*optional|\\s*\\(\\s*optional\\s*\\))\\s*$/i',
  // s27 audit: each runs on one line or one name of a line, whose length the code caps.
  '/^\\s*import\\s+(?:type\\s+)?(\\S.*?)\\s*from\\s*[\'"]([^\'"]+)[\'"]/', // cli-libraries JS_IMPORT: one source line, <= 2,000 chars (MAX_IMPORT_LINE skip in cliLibraryUses); 19 ms at the cap
  '/^\\s*(?:const|let|var)\\s+(\\S.*?)\\s*=\\s*(?:await\\s+import|require)\\s*\\(\\s*[\'"]([^\'"]+)[\'"]\\s*\\)/', // cli-libraries JS_REQUIRE: one source line, <= 2,000 chars (MAX_IMPORT_LINE skip in cliLibraryUses); 7 ms at the cap
  '/\\s+as\\s+|\\s*:\\s*/', // cli-libraries jsBindings: one name of an import clause of one line, <= 2,000 chars (MAX_IMPORT_LINE); 7 ms at the cap
  '/\\s+as\\s+/', // cli-libraries: one name of a Python import line, <= 2,000 chars (MAX_IMPORT_LINE); 3 ms at the cap
  '/^([ \\t]*)(-{1,2}[A-Za-z0-9][\\w.-]*(?:[= ]?(?:<[^>\\n]*>|\\[[^\\]\\n]*\\]))?(?:,?[ \\t]+-{1,2}[A-Za-z0-9][\\w.-]*(?:[= ]?(?:<[^>\\n]*>|\\[[^\\]\\n]*\\]))?)*)(?: {2,}|\\t+)(\\S.*)$/', // flags-meow OPTION_LINE: one line of a meow help text, <= 2,000 chars (MAX_OPTION_LINE skip in helpLines, added s27); ~1 ms at the cap
  // s27 audit, documents: each on one line, sentence or name whose length the code caps, or bounded by the pattern itself.
  '/^\\s*(?:\\([^)\\s]*\\)\\s*)?(?:\\[[^\\]]*\\]\\s*[$#%>]|[\\w.-]+@[\\w.-]+(?::\\S*)?\\s*[$#%>]|[$%>])\\s+(.+?)\\s+(?:--help|-h|help)\\s*$/', // HELP_PROMPT_RE, one line of a code block among the first 12 non-blank ones, <= 200 chars (MAX_HELP_PROMPT_LINE cap in findUsage; cubic: ~3 ms worst at 200)
  '/\\[default:((?:[^[\\]]|\\[[^\\]]*\\])*)\\]|\\(default:?(?=\\s)((?:[^()]|\\([^)]*\\))*)\\)/i', // helpDefault, one option or continuation line of a pasted --help, <= 2,000 chars (MAX_HELP_OPTION_LINE cap; quadratic: < 1 ms at 2,000)
  '/\\bamong\\s+(?:others|them)\\b|\\bincluding\\b[^.]*:\\s*$/i', // LEAD_RES in selectionCue, on boundedText(lead) <= 4,001 chars (CUE_TEXT_END cap; quadratic: <= 5.4 ms worst at 4,000)
  '/\\b(?:every(?:\\s+one\\s+of)?|all(?:\\s+of)?|any(?:\\s+of)?|each(?:\\s+of)?)\\b[^.]{0,80}?\\b(?:options?|settings?|keys?|fields?|properties)\\b[^.]{0,40}?\\bcan\\s+(?:also\\s+)?be\\s+(?:specified|passed|set|given|used|provided|overridden)\\b[^.]{0,30}?\\b(?:through|via|on|from|as|with|in|using)\\s+(?:the\\s+)?(?:cli|command[ -]line|command[ -]line\\s+(?:flags?|options?|arguments?)|flags?|options)\\b/i', // DELEGATION_RE, one '.'-free sentence of a paragraph, <= 2,000 chars (MAX_DELEGATION_SENTENCE cap in delegates; bounded gaps: ~1 ms per 2,000-char sentence)
  '/(?<![\\w:]):{1,2}[A-Za-z][\\w-]*(?:\\[[^\\]\\n]{0,500}\\])?(\\{[^{}\\n]{0,500}\\})/g', // TEXT_DIRECTIVE_ATTRS_RE, one document line; each attempt reads <= 1,003 chars ({0,500} bounds in the pattern), so linear in the line: 68 ms at 100 KB, 150 ms worst measured
  '/^(?:(?:[\\w-]*[-_])?contributing(?:[-_][\\w-]*)?|contribute|contributors|development|hacking)\\.mdx?$/i', // CONTRIBUTOR_BASE_RE, one file name, <= 255 chars (MAX_FILE_NAME cap in isContributorPage; < 0.3 ms at 255)
  // Sticky, tried once at the end of each run of non-blank characters holding `=` (explainingComment) or each word (envPrefixLiterals): the positions do not overlap, so linear in the text (recheck reads them without the y flag).
  '/\\s+#\\s*[A-Za-z][\\w\'-]*\\s+[A-Za-z/]/y',
  '/["\']?\\s*[=:(,]\\s*["\']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)["\']/y',
]);

describe.skipIf(process.env.REGEX_AUDIT === '0')('recheck audit of every regex literal (REGEX_AUDIT=0 skips it)', () => {
  it('finds the regexes of the code base', () => {
    expect(regexes.length).toBeGreaterThan(50);
    expect(regexes.some((r) => r.where.startsWith('src/docs/reference-table.ts'))).toBe(true);
  });

  it('recheck finds no regex with super-linear backtracking beyond the known, bounded ones', { timeout: 900_000 }, () => {
    const vulnerable: string[] = [];
    const seen = new Set<string>();
    for (const r of regexes) {
      const key = `/${r.source}/${r.flags}`;
      if (seen.has(key) || KNOWN_POLYNOMIAL.has(key)) continue;
      seen.add(key);
      const result = checkSync(r.source, r.flags.replace(/[gy]/g, ''), { timeout: 10_000 });
      if (result.status === 'vulnerable') vulnerable.push(`${r.where} ${key} (${result.complexity.type}) attack: ${JSON.stringify(result.attack.pattern)}`);
    }
    expect(vulnerable).toEqual([]);
  });
});
