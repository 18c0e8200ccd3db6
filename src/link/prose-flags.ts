/**
 * CLI flags named in prose (issue #13 item 10): `` Pass the name to the `--vault_password_env_var`
 * CLI arg. `` is a usage of the page's command when the page belongs to exactly one command: the
 * innermost reference section around the sentence names one command, or every command section of
 * the page names the same one, or the project has a single command. Only flag-shaped code spans
 * (`--x`) count, never bare words; names the page's reference documents (a list item
 * `` - `--x`: … ``, its nested example) are left to the reference rules. A flag is another
 * program's when its sentence names that program last before it (`` the Node.js `--disable-warning` ``)
 * or, naming it a flag, only after it (`` The `--experimental-strip-types` flag was introduced in Node.js ``),
 * or when its sentence names no program and its section (heading and paragraphs above it) names
 * another program but never the command (giget's "Git Clone Provider": `` sparse checkout with
 * `--filter=blob:none` `` after "the local `git` command").
 */
import { WELL_KNOWN_PROGRAMS } from '../shared/programs.js';
import type { CommandSpec, DocFile, ProseCode, ProseFlag, ReferenceSection } from '../model/types.js';

import { isHistoryPage } from '../docs/page-kind.js';
import { memoByText } from '../shared/memo.js';

/**
 * The prose flags of the documents, each tied to its page's command.
 *
 * @param isIgnored the config's `ignoreParameters` matcher; ignored names are dropped
 */
export function proseFlags(
  docs: readonly DocFile[],
  sections: readonly ReferenceSection[],
  commands: readonly CommandSpec[],
  commandByName: (name: string) => CommandSpec | undefined,
  isIgnored: (name: string) => boolean,
): ProseFlag[] {
  const runnable = commands.filter((c) => c.paramsKnown && !c.script && c.kind !== 'config-file' && c.kind !== 'environment');
  // A command whose program docdrift stopped reading (a worker past its budget or heap limit, a
  // file too large) is still a command of the project: the one known command left is then no
  // "single command", and a page's flags are not blamed on it (a flags worker stopped on NeMo Gym
  // blamed 8 of `gym`'s prose flags on `nemo_gym_reinstall`).
  const cutShort = commands.some((c) => !c.paramsKnown && (c.unreadProgram?.kind === 'over-budget' || c.unreadProgram?.kind === 'too-large'));
  const only = runnable.length === 1 && !cutShort ? runnable[0] : undefined;
  const out: ProseFlag[] = [];
  const ours = ourPrograms(commands);
  const sectionsByFile = new Map<string, ReferenceSection[]>();
  for (const s of sections) {
    const list = sectionsByFile.get(s.file);
    if (list) list.push(s);
    else sectionsByFile.set(s.file, [s]);
  }
  for (const doc of docs) {
    // Changelogs, upgrade guides and blog posts name the flags of past releases on purpose.
    if (isHistoryPage(doc)) continue;
    const codes = (doc.proseCodes ?? []).filter((p) => p.flag);
    if (codes.length === 0) continue;
    const ofPage = sectionsByFile.get(doc.file) ?? [];
    const own = ofPage.filter((s) => !s.global);
    // A name the page's reference documents is the reference rules' business (a stale row's
    // `Example: \`--proxy …\`` would repeat reference-param-unknown).
    const rowNames = new Set(ofPage.flatMap((s) => s.rows.flatMap((r) => r.names)));
    const one = (list: readonly ReferenceSection[]): CommandSpec | undefined => {
      const found = new Set(list.flatMap((s) => s.commands.map(commandByName)).filter((c): c is CommandSpec => c !== undefined));
      return found.size === 1 ? [...found][0] : undefined;
    };
    const page = one(own);
    const aboutOther = otherProgramMemo(doc, ours);
    for (const code of codes) {
      if (rowNames.has(code.name) || isIgnored(code.name)) continue;
      if (aboutOther(code)) continue;
      const line = code.location.line;
      const around = own.filter((s) => s.heading.location.line <= line && line <= s.endLine).sort((a, b) => b.heading.location.line - a.heading.location.line)[0];
      const inSection = around ? one([around]) : undefined;
      const cmd = inSection ?? page ?? (own.length === 0 ? only : undefined);
      // Flags in prose are CLI flags: never a config file's keys.
      if (!cmd?.paramsKnown || cmd.kind === 'config-file' || cmd.kind === 'environment') continue;
      const scope = inSection ? 'section' : page ? 'page' : 'project';
      out.push({ file: doc.file, command: cmd.name, name: code.name, raw: code.code, scope, location: code.location });
    }
  }
  return out;
}

/**
 * Programs other than the project's that prose names, written so that an English word cannot be
 * taken for one: proper names and lower-case tool names that are no English words. Inside a code
 * span (`` `node` ``, `` `make build` ``) the span's first word counts, from {@link WELL_KNOWN_PROGRAMS} too.
 */
const TEXT_PROGRAM_RE = /(?<![\w.-])(?:git(?:-[a-z]+)?|Git|Mercurial|hg|Node\.?js|NodeJS|nodejs|npm|npx|pnpm|Yarn|Docker|docker|Podman|podman|pip|pipx|pip3|Python|python3?|cargo|Cargo|rustc|curl|cURL|wget|kubectl|Kubernetes|Terraform|terraform|Deno|deno|Bun|Homebrew|brew|conda|Conda|Maven|mvn|Gradle|gradle|OpenSSL|openssl|ssh|rsync|ffmpeg|FFmpeg|Mocha|mocha|Jest|ESLint|eslint|Prettier|webpack|Webpack|Babel|pytest|Pytest|mypy|Ruff|ruff|tox|Tox)(?![\w-])/g;

/**
 * The programs a text names, in order of appearance: `ours` for the command's program names,
 * else the other program's name.
 */
export function programsIn(text: string, ours: OurPrograms): Array<{ ours: boolean; at: number }> {
  const found: Array<{ ours: boolean; at: number }> = [];
  for (const m of text.matchAll(/`([^`]*)`/g)) {
    const first = (m[1] ?? '').trim().replace(/^\$\s+/, '').split(/[\s:]/)[0] ?? '';
    if (ours.names.has(first)) found.push({ ours: true, at: m.index ?? 0 });
    else if (WELL_KNOWN_PROGRAMS.has(first)) found.push({ ours: false, at: m.index ?? 0 });
  }
  const plain = text.replace(/`[^`]*`/g, (s) => ' '.repeat(s.length));
  for (const m of plain.matchAll(TEXT_PROGRAM_RE)) if (!ours.names.has(m[0])) found.push({ ours: false, at: m.index ?? 0 });
  if (ours.find) for (const at of ours.find(plain)) found.push({ ours: true, at });
  else if (ours.re) for (const m of plain.matchAll(ours.re)) found.push({ ours: true, at: m.index ?? 0 });
  return found.sort((a, b) => a.at - b.at);
}

/**
 * The project's program names, and one case-insensitive pattern finding any of them as a word
 * (longest first). Built once per {@link proseFlags} call: a pattern per name and text cost 2.4 s
 * of a NeMo Gym run (hundreds of commands × thousands of prose flags' texts).
 */
export interface OurPrograms {
  readonly names: ReadonlySet<string>;
  readonly re: RegExp | undefined;
  /**
   * Where `re` matches in a text (start offsets, in order), found with a trie of the names instead
   * of the pattern; present when every name is ASCII (then ASCII case folding is the pattern's `i`).
   * The pattern, an alternation of every program name (NeMo Gym: hundreds of script paths), cost
   * ~70 ms of each language-server lint run over every paragraph.
   */
  readonly find?: (text: string) => number[];
}

/** `[\w]` of a non-Unicode pattern: ASCII letters, digits, `_`. */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** ASCII case folding (to lower case), as a non-Unicode `i` pattern compares ASCII text. */
function foldAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** A trie node of {@link namesFinder}: children by folded char code; `end` when a name ends here. */
interface TrieNode {
  next: Map<number, TrieNode>;
  end: boolean;
}

/**
 * The matcher `(?<![\w.-])(?:names, longest first)(?![\w-])` with flags `gi` as a trie walk:
 * at each start whose previous character is no word character, `.` or `-`, the longest name that
 * matches there (ASCII case-insensitively) and is followed by no word character or `-`; the scan
 * goes on after it, as a global pattern does. Only for ASCII names (see {@link OurPrograms}).
 */
function namesFinder(names: readonly string[]): (text: string) => number[] {
  const root: TrieNode = { next: new Map(), end: false };
  for (const name of names) {
    let node = root;
    for (let i = 0; i < name.length; i++) {
      const c = foldAscii(name.charCodeAt(i));
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { next: new Map(), end: false }));
      node = child;
    }
    node.end = true;
  }
  return (text) => {
    const found: number[] = [];
    for (let p = 0; p < text.length; ) {
      const before = p > 0 ? text.charCodeAt(p - 1) : -1;
      let length = 0;
      if (before === -1 || !(isWordCode(before) || before === 46 || before === 45)) {
        let node: TrieNode | undefined = root;
        for (let i = p; node !== undefined; ) {
          if (node.end && i > p) {
            const after = i < text.length ? text.charCodeAt(i) : -1;
            if (after === -1 || !(isWordCode(after) || after === 45)) length = i - p;
          }
          if (i >= text.length) break;
          node = node.next.get(foldAscii(text.charCodeAt(i++)));
        }
      }
      if (length > 0) {
        found.push(p);
        p += length;
      } else p++;
    }
    return found;
  };
}

/** The {@link OurPrograms} of the commands: each command's and alias's first word. */
export function ourPrograms(commands: readonly CommandSpec[]): OurPrograms {
  const names = new Set(commands.flatMap((c) => [c.name, ...c.aliases]).map((n) => n.split(' ')[0]!).filter((n) => n !== ''));
  // NUL never occurs in a program name: the key is the set, in its (command) order.
  return ourProgramsOf([...names].join('\0'));
}

/**
 * {@link OurPrograms} of the names in `key` (joined by NUL), kept per key: the same value, so the
 * same object, for the same names from one lint to the next (a language server's lints after an
 * edit to a page), which {@link otherProgramMemo} keys on; the trie and pattern are built once.
 */
const ourProgramsOf = memoByText((key: string): OurPrograms => {
  const names: ReadonlySet<string> = new Set(key === '' ? [] : key.split('\0'));
  const alternatives = [...names].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = alternatives.length > 0 ? new RegExp(`(?<![\\w.-])(?:${alternatives.join('|')})(?![\\w-])`, 'gi') : undefined;
  const ascii = [...names].every((n) => [...n].every((ch) => ch.charCodeAt(0) < 128));
  return { names, re, ...(re && ascii ? { find: namesFinder([...names]) } : {}) };
}, 16);

/**
 * Per page and program names, whether each of its prose flags is about another program
 * ({@link aboutOtherProgram}), computed on first need and kept with the page's `proseCodes`: a
 * language server hands an unchanged page's parsed outcome out again from one lint to the next
 * (src/lsp/pieces.ts `LIVE_KINDS`; the page object is new, with links of its own, but its other
 * arrays are the same), so after an edit to one page only that page's flags are judged again
 * (NeMo Gym: ~25 ms of every lint judged all pages' flags). The verdict reads only the page's
 * prose codes, headings and paragraphs, which one parse gives together. A CLI run parses each
 * page once, so nothing is kept past it.
 */
const otherProgramMemos = new WeakMap<readonly ProseCode[], { ours: OurPrograms; about: Map<ProseCode, boolean> }>();

/** The memoised {@link aboutOtherProgram} of `doc`'s prose flags, for `ours` (see {@link otherProgramMemos}). */
function otherProgramMemo(doc: DocFile, ours: OurPrograms): (code: ProseCode) => boolean {
  const key = doc.proseCodes ?? [];
  let memo = otherProgramMemos.get(key);
  if (memo?.ours !== ours) otherProgramMemos.set(key, (memo = { ours, about: new Map() }));
  const about = memo.about;
  let sectionOf: ((line: number) => SectionNames) | undefined;
  return (code) => {
    let answer = about.get(code);
    if (answer === undefined) about.set(code, (answer = aboutOtherProgram(code, ours, (sectionOf ??= sectionNamesOf(doc, ours)))));
    return answer;
  };
}

/** Whether a text names one of the project's programs, and whether it names another program (see {@link programsIn}). */
export interface SectionNames {
  ours: boolean;
  other: boolean;
}

/**
 * What the section around a line names, for {@link aboutOtherProgram}: the section is the nearest
 * heading at or above the line (the last before the first heading below it) and the paragraphs
 * after that heading's line up to the line. Each paragraph's programs are found once per document,
 * on first need and in line order, kept as running counts, so a line's answer is two binary
 * searches and a difference of counts. Was a {@link programsIn} scan of every paragraph of the
 * section per flag: N flags in one section, N²/2 scans (s29 sweep D5: 5,000 paragraphs naming a
 * flag, 164 KB README, 20.3 s CPU of model).
 *
 * @returns for a 1-based line of the document, what its section names up to that line
 */
export function sectionNamesOf(doc: DocFile, ours: OurPrograms): (line: number) => SectionNames {
  const headings = doc.headings;
  const headingsSorted = headings.every((h, i) => i === 0 || headings[i - 1]!.location.line <= h.location.line);
  const given = doc.paragraphs ?? [];
  // Only which paragraphs fall in the line range matters, not their order.
  const paragraphs = given.every((p, i) => i === 0 || given[i - 1]!.line <= p.line) ? given : [...given].sort((a, b) => a.line - b.line);
  // oursBefore[k] / otherBefore[k]: how many of the first k paragraphs name one of ours / another program.
  const oursBefore = new Int32Array(paragraphs.length + 1);
  const otherBefore = new Int32Array(paragraphs.length + 1);
  let scanned = 0;
  const scanTo = (k: number): void => {
    for (; scanned < k; scanned++) {
      const found = programsIn(paragraphs[scanned]!.text, ours);
      oursBefore[scanned + 1] = oursBefore[scanned]! + (found.some((p) => p.ours) ? 1 : 0);
      otherBefore[scanned + 1] = otherBefore[scanned]! + (found.some((p) => !p.ours) ? 1 : 0);
    }
  };
  const headingNames = new Map<DocFile['headings'][number], SectionNames>();
  const namesOf = (heading: DocFile['headings'][number]): SectionNames => {
    let names = headingNames.get(heading);
    if (!names) {
      const found = programsIn(heading.text, ours);
      headingNames.set(heading, (names = { ours: found.some((p) => p.ours), other: found.some((p) => !p.ours) }));
    }
    return names;
  };
  /** The number of leading items whose line is at most `line` (items sorted by line). */
  const upTo = <T>(items: readonly T[], lineOf: (item: T) => number, line: number): number => {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lineOf(items[mid]!) <= line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (line) => {
    let heading: DocFile['headings'][number] | undefined;
    if (headingsSorted) heading = headings[upTo(headings, (h) => h.location.line, line) - 1];
    else {
      for (const h of headings) {
        if (h.location.line > line) break;
        heading = h;
      }
    }
    const from = heading?.location.line ?? 0;
    const start = upTo(paragraphs, (p) => p.line, from);
    const end = Math.max(start, upTo(paragraphs, (p) => p.line, line));
    scanTo(end);
    const head = heading ? namesOf(heading) : { ours: false, other: false };
    return { ours: head.ours || oursBefore[end]! - oursBefore[start]! > 0, other: head.other || otherBefore[end]! - otherBefore[start]! > 0 };
  };
}

/**
 * Whether a flag named in prose belongs to another program (see the module comment): the last
 * program its sentence names before it is not the project's; or its sentence names none and its
 * section names another program but none of the project's.
 *
 * @param sectionOf what the section around a line names (see {@link sectionNamesOf}), one per document
 */
function aboutOtherProgram(code: ProseCode, ours: OurPrograms, sectionOf: (line: number) => SectionNames): boolean {
  const inSentence = programsIn(code.before ?? '', ours);
  const last = inSentence[inSentence.length - 1];
  if (last) return !last.ours;
  // `` The `--experimental-strip-types` flag was introduced in Node.js v22.6.0 ``: the flag's
  // sentence goes on to name the program it belongs to, and not the command.
  const named = programsIn(code.after ?? '', ours);
  if (named.length > 0) return named.every((p) => !p.ours);
  // The section: from the nearest heading above the flag.
  const section = sectionOf(code.location.line);
  return section.other && !section.ours;
}
