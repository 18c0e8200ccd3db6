/**
 * Flags named in prose (src/link/prose-flags.ts): what the section around a flag names, found from
 * running per-paragraph counts (s29 sweep D5), agrees with rescanning the section's heading and
 * paragraphs for each flag, as it was done before.
 */
import { describe, expect, it } from 'vitest';
import { ourPrograms, programsIn, proseFlags, sectionNamesOf, type OurPrograms } from '../src/link/prose-flags.js';
import { seededRandom } from './random.js';
import type { CommandSpec, DocFile } from '../src/model/types.js';

const command = (name: string, aliases: string[] = []): CommandSpec => ({ name, aliases, configClasses: [], params: [], mappedBy: 'entry-point', paramsKnown: true });

/** The section rule as it was: the nearest heading above, then every paragraph after it up to the line, each scanned. */
function rescanned(doc: DocFile, ours: OurPrograms, line: number): { ours: boolean; other: boolean } {
  let heading: DocFile['headings'][number] | undefined;
  for (const h of doc.headings) {
    if (h.location.line > line) break;
    heading = h;
  }
  const from = heading?.location.line ?? 0;
  const texts = [heading?.text ?? '', ...(doc.paragraphs ?? []).filter((p) => p.line > from && p.line <= line).map((p) => p.text)];
  const named = texts.flatMap((t) => programsIn(t, ours));
  return { ours: named.some((p) => p.ours), other: named.some((p) => !p.ours) };
}

function doc(headings: Array<[number, string]>, paragraphs: Array<[number, string]>): DocFile {
  return {
    file: 'README.md',
    kind: 'md',
    headings: headings.map(([line, text]) => ({ depth: 2, text, codes: [], slug: 's', location: { file: 'README.md', line, column: 1 } })),
    blocks: [],
    codeBlocks: [],
    invocations: [],
    links: [],
    paragraphs: paragraphs.map(([line, text]) => ({ line, text })),
  } as unknown as DocFile;
}

describe('sectionNamesOf (s29 sweep D5)', () => {
  const ours = ourPrograms([command('tool', ['tl']), command('tool run')]);

  it('says what a section names up to a line: its heading and the paragraphs after it', () => {
    const d = doc([[1, 'tool'], [10, 'Git Clone Provider'], [20, 'Other']], [[3, 'Run `tool run` first.'], [12, 'Use the local `git` command.'], [14, 'Then tool again.'], [22, 'Nothing here.']]);
    const at = sectionNamesOf(d, ours);
    expect(at(2)).toEqual({ ours: true, other: false });
    expect(at(11)).toEqual({ ours: false, other: true });
    expect(at(13)).toEqual({ ours: false, other: true });
    expect(at(15)).toEqual({ ours: true, other: true });
    expect(at(25)).toEqual({ ours: false, other: false });
  });

  it('agrees with rescanning the section per flag on random documents, in any order of lines', () => {
    const random = seededRandom(2929);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const WORDS = ['Pass', 'the', 'git', 'Git', 'Node.js', '`tool run`', 'tool', 'tl', '`npm install`', 'docker', 'with', 'here', '`node`', 'flag', 'Python', '`$ tool x`', 'gitlab'];
    const text = (): string => Array.from({ length: Math.floor(random() * 5) }, () => pick(WORDS)).join(' ');
    for (let round = 0; round < 500; round++) {
      const lines = 80;
      const line = (): number => 1 + Math.floor(random() * lines);
      const headings = Array.from({ length: Math.floor(random() * 6) }, (): [number, string] => [line(), text()]).sort((a, b) => a[0] - b[0]);
      const paragraphs = Array.from({ length: Math.floor(random() * 40) }, (): [number, string] => [line(), text()]).sort((a, b) => a[0] - b[0]);
      // Out of order now and then: the answer must not depend on it.
      if (random() < 0.15) headings.reverse();
      if (random() < 0.15) paragraphs.reverse();
      const d = doc(headings, paragraphs);
      const at = sectionNamesOf(d, ours);
      const probes = Array.from({ length: 20 }, line);
      // Asked in any order (the paragraphs are scanned on first need).
      for (const l of probes) expect(at(l), `round ${round} line ${l}`).toEqual(rescanned(d, ours, l));
    }
  });
});

describe('ourPrograms: the trie matcher agrees with the names pattern (s30)', () => {
  it('finds what `(?<![\\w.-])(?:names, longest first)(?![\\w-])` with flags gi finds, on random names and texts', () => {
    const random = seededRandom(3030);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    // Names that share prefixes and differ in case, with the characters the boundaries look at.
    const PARTS = ['ng', 'NG', 'ng_run', 'ng-run', 'tool', 'Tool', 'a', 'a.py', 'scripts/a.py', 'x.y', 'run', 'r', '_', '-', '.', '/'];
    const TEXT = ['ng', 'NG', '_run', '-run', 'run', 'tool', 'TOOL', ' ', ' ', '.', '-', '_', '/', 'a', '.py', 'scripts/', 'x.y', '`', '(', 'é', 'K', 'ſ'];
    for (let round = 0; round < 2000; round++) {
      const names = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(PARTS)).join(''));
      const ours = ourPrograms(names.map((n) => command(n)));
      expect(ours.find, `round ${round}: ${names.join(', ')}`).toBeDefined();
      const text = Array.from({ length: Math.floor(random() * 30) }, () => pick(TEXT)).join('');
      const byPattern = [...text.matchAll(ours.re!)].map((m) => m.index);
      expect(ours.find!(text), `round ${round}: ${JSON.stringify(names)} in ${JSON.stringify(text)}`).toEqual(byPattern);
    }
  });

  it('keeps the pattern when a name is not ASCII', () => {
    const ours = ourPrograms([command('outil-é'), command('tool')]);
    expect(ours.find).toBeUndefined();
    expect(programsIn('run OUTIL-É then tool', ours)).toEqual([
      { ours: true, at: 4 },
      { ours: true, at: 17 },
    ]);
  });
});

describe('proseFlags: the verdicts kept per page follow the project\'s program names (#36)', () => {
  // One page object, linted again as the language server does after an edit to another page: the
  // "about another program" verdict of its flags is kept with it, and must follow the names.
  const page = doc([[1, 'Usage']], [[3, 'Run it with git.']]);
  (page as { proseCodes?: unknown }).proseCodes = [
    { code: '--depth', name: 'depth', explained: true, flag: true, prefix: '--', before: 'Pass git the', location: { file: 'README.md', line: 3, column: 20 } },
    { code: '--fast', name: 'fast', explained: true, flag: true, prefix: '--', location: { file: 'README.md', line: 5, column: 5 } },
  ];
  const flagsOf = (commands: CommandSpec[]): string[] =>
    proseFlags([page], [], commands, (n) => commands.find((c) => c.name === n), () => false).map((f) => `${f.command} ${f.name}`);

  it('a flag after "git" is git\'s while the project has no `git` command, and the project\'s once it has', () => {
    const tool = [command('tool')];
    expect(flagsOf(tool)).toEqual([]);
    const git = [command('git')];
    expect(flagsOf(git)).toEqual(['git depth', 'git fast']);
    // The same names again (new command objects, as a new model has): the same answer; then back.
    expect(flagsOf([command('git')])).toEqual(['git depth', 'git fast']);
    expect(flagsOf(tool)).toEqual([]);
  });

  it('the program names of equal command sets are one object, kept from one model to the next', () => {
    expect(ourPrograms([command('tool', ['tl']), command('tool run')])).toBe(ourPrograms([command('tool', ['tl']), command('tool run')]));
    expect(ourPrograms([command('tool')])).not.toBe(ourPrograms([command('git')]));
  });
});
