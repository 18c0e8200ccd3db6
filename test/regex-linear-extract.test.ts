/**
 * The s27 recheck list, extract group: each regex recheck flagged is either rewritten to run in
 * linear time (a parity test against the old pattern, kept here, on random and real-shaped
 * inputs, and the attack scaled to ~100 KB) or runs only on text capped at its call site (the
 * attack at ~100 KB still finishes fast, through the cap). Times in the comments were measured
 * on the attack at ~100 KB before and after (Node 20, one run).
 */
import { describe, expect, it } from 'vitest';
import { PY_FROM_IMPORT, PY_PLAIN_IMPORT } from '../src/extract/python/imports.js';
import { LINK_URL_RE } from '../src/engine/link-prefetch.js';
import { cliLibraryUses, firstBraces } from '../src/extract/cli-libraries.js';
import { dockerEnvPairs, SHELL_ASSIGNMENT, shellEnvWords } from '../src/extract/script-env.js';
import { docoptDefault } from '../src/extract/python/docopt-usage.js';
import { pythonFileStem } from '../src/extract/python/flags-argparse.js';
import { SLICE } from '../src/extract/python/flags-docopt.js';
import { moduleNameForFile } from '../src/extract/python/module-name.js';
import { binFileKind, withoutVersion } from '../src/extract/typescript/bin-files.js';
import { extractTypeScriptFlags } from '../src/extract/typescript/flags.js';
import { seededRandom, elapsedMs } from './helpers.js';

/** Generous: linear work on 100 KB takes milliseconds; the old patterns took 2-40 s or more. */
const FAST_MS = 2000;
const N = 100_000;

/** `count` random strings of up to `maxPieces` pieces drawn from `pieces`. */
function randomStrings(pieces: readonly string[], count: number, maxPieces = 24, seed = 27): string[] {
  const next = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * (maxPieces + 1));
    let s = '';
    for (let j = 0; j < n; j++) s += pieces[Math.floor(next() * pieces.length)]!;
    out.push(s);
  }
  return out;
}

/** A regex's matches as comparable data: index and groups of each. */
function allMatches(re: RegExp, text: string): Array<[number, Array<string | undefined>]> {
  return [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))].map((m) => [m.index, [...m]]);
}

function execOf(re: RegExp, text: string): [number, Array<string | undefined>] | null {
  const m = new RegExp(re.source, re.flags.replace(/[gy]/g, '')).exec(text);
  return m ? [m.index, [...m]] : null;
}

describe('src/extract/python/imports.ts PY_FROM_IMPORT (a, was discover.ts PY_FROM): the module after the dots starts at a word character', () => {
  it('reads a long `from ....` line in linear time', () => {
    const attack = `from\t${'.'.repeat(N / 2)}${'f'.repeat(N / 2)}\tifrommport\trom\t\t\u0000`;
    // Measured: the pattern before s27 34,700 ms, now < 5 ms.
    expect(elapsedMs(() => [...attack.matchAll(PY_FROM_IMPORT)])).toBeLessThan(FAST_MS);
  });

  it('reads long runs of names, spaces and aliases in linear time', () => {
    for (const attack of [`from a import ${'b, '.repeat(N / 3)}`, `from a import (${' \n'.repeat(N / 2)}`, `import ${'a as b, '.repeat(N / 8)}`, `import a${' '.repeat(N)}as`]) {
      expect(elapsedMs(() => [...attack.matchAll(PY_FROM_IMPORT), ...attack.matchAll(PY_PLAIN_IMPORT)])).toBeLessThan(FAST_MS);
    }
  });
});

describe('src/engine/link-prefetch.ts LINK_URL_RE (a): a reference label stops at every line terminator', () => {
  const OLD = /\]\(\s*<?([^()\s<>]{1,500})|^ {0,3}\[[^\]\n]{1,200}\]:\s*<?(\S{1,500})|\b(?:href|to)\s*=\s*["']([^"'\s]{1,500})["']/gm;

  it('matches as the old pattern did (LF and CRLF text; a label with a lone CR is no longer one)', () => {
    const pieces = ['[', ']', '(', ')', ':', ' ', '  ', '\n', '\r\n', 'a', 'b/c.md', '<', '>', 'href', 'to', '=', '"', "'", '\t', '[id]: ', '](', 'docs/x.md#y'];
    const real = ['See [the guide](docs/guide.md) and [ref][id].\r\n\r\n[id]: <docs/ref.md>\r\n<a href="api.md">x</a>\n', '   [x]: https://example.com/a\n<Link to="/reference/cli">'];
    for (const text of [...real, ...randomStrings(pieces, 20_000)]) expect(allMatches(LINK_URL_RE, text), JSON.stringify(text)).toEqual(allMatches(OLD, text));
    expect(allMatches(LINK_URL_RE, '[a\rb]: x.md')).toEqual([]);
  });

  it('reads a long run of `[\\r` in linear time', () => {
    // Measured: old 116 ms (200 steps a character), new < 10 ms.
    expect(elapsedMs(() => [...'[\r'.repeat(N / 2).matchAll(LINK_URL_RE)])).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/cli-libraries.ts', () => {
  it('firstBraces (a) finds what /\\{([^}]*)\\}/ found, and removes what its replace removed', () => {
    const pieces = ['{', '}', ' ', 'a', ',', 'b as c', '* as ns', 'type ', 'x: y', '{ a }', '\t'];
    for (const clause of randomStrings(pieces, 20_000)) {
      const old = /\{([^}]*)\}/.exec(clause);
      const found = firstBraces(clause);
      expect(found ? clause.slice(found.open + 1, found.close) : undefined, JSON.stringify(clause)).toEqual(old?.[1]);
      expect(found ? clause.slice(0, found.open) + clause.slice(found.close + 1) : clause).toEqual(clause.replace(/\{[^}]*\}/, ''));
    }
  });

  it('firstBraces reads a long run of `{` in linear time', () => {
    // Measured: old /\{([^}]*)\}/ 32,600 ms, new < 5 ms.
    expect(elapsedMs(() => firstBraces('{'.repeat(N)))).toBeLessThan(FAST_MS);
  });

  it('the import patterns (b) run on lines of at most 2,000 characters: 100 KB hostile lines are skipped fast', () => {
    const lines = [
      `import\te${'\t'.repeat(N)}\n"from"\u0000"`,
      `let\tr${'\t'.repeat(N)}\n(")=require(")")`,
      `import { ${'\t'.repeat(N)}\t } from 'commander'`,
      `import { a${'\t'.repeat(N)}\tas\t } from 'commander'`,
    ];
    for (const line of lines) expect(elapsedMs(() => cliLibraryUses('cli.ts', line))).toBeLessThan(FAST_MS);
    expect(elapsedMs(() => cliLibraryUses('cli.py', `import ${'\t'.repeat(N)}\ts\tas\t`))).toBeLessThan(FAST_MS);
  });

  it('the import patterns at the 2,000-character cap cost under 50 ms', () => {
    const at = (s: string): string => s.slice(0, 2000);
    // Measured at the cap: JS_IMPORT 19 ms, JS_REQUIRE 7 ms, the clause splits 7 ms and 3 ms.
    const cases: Array<() => unknown> = [
      () => /^\s*import\s+(?:type\s+)?(\S.*?)\s*from\s*['"]([^'"]+)['"]/.exec(at(`import\te${'\t'.repeat(N)}`)),
      () => /^\s*(?:const|let|var)\s+(\S.*?)\s*=\s*(?:await\s+import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/.exec(at(`let\tr${'\t'.repeat(N)}`)),
      () => at('\t'.repeat(N)).split(/\s+as\s+|\s*:\s*/),
      () => at(`${'\t'.repeat(N)}\ts\tas\t`).split(/\s+as\s+/),
      () => cliLibraryUses('cli.ts', at(`import { ${'\t'.repeat(N)}`) + " } from 'commander'"),
    ];
    for (const run of cases) {
      run();
      expect(Math.min(elapsedMs(run), elapsedMs(run), elapsedMs(run))).toBeLessThan(50);
    }
  });
});

describe('src/extract/script-env.ts', () => {
  const OLD_ASSIGNMENT = /(?:^|[;&|(]|\bthen|\bdo|\belse)[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)\+?=/gm;

  it('SHELL_ASSIGNMENT (a) matches as the old pattern did, except after `-then`/`-do`/`-else`', () => {
    const pieces = ['do', 'then', 'else', 'declare', 'export', 'local', 'readonly', ' ', '\t', '-x', '-', 'A', 'B_1', '=', '+=', ';', '&', '|', '(', '\n', 'x', ' -r'];
    const real = ['#!/bin/sh\nexport A=1 B\nif x; then C=2; else D=3; fi\nfor i in 1; do E+=x; done\ndeclare -x -r F=1\nlocal G=2\n(H=1)'];
    let compared = 0;
    for (const text of [...real, ...randomStrings(pieces, 30_000)]) {
      if (/-(?:then|do|else)/.test(text)) continue;
      compared++;
      expect(allMatches(SHELL_ASSIGNMENT, text), JSON.stringify(text)).toEqual(allMatches(OLD_ASSIGNMENT, text));
    }
    expect(compared).toBeGreaterThan(10_000);
    // The one difference: an argument spelled like a keyword after a dash starts no command.
    expect(shellEnvWords('run -do X=1')).toEqual([]);
  });

  it('SHELL_ASSIGNMENT reads a long run of `declare` options in linear time', () => {
    const attack = `+${'dodeclare\t-'.repeat(N / 12)}&s=`;
    // Measured: old 2,290 ms (quadratic: ~230 s at the 1 MB script cap), new < 10 ms.
    expect(elapsedMs(() => shellEnvWords(attack))).toBeLessThan(FAST_MS);
  });

  /** dockerEnvPairs as it was, with the old pair pattern. */
  function oldDockerEnvPairs(args: string): Array<{ name: string; value: string; offset: number }> {
    const text = args.trim();
    const lead = args.length - args.trimStart().length;
    const legacy = /^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+/.exec(text);
    if (legacy && !/^[A-Za-z_][A-Za-z0-9_.-]*=/.test(text)) return [{ name: legacy[1]!, value: text.slice(legacy[0].length).trim(), offset: lead }];
    const out: Array<{ name: string; value: string; offset: number }> = [];
    const pair = /([A-Za-z_][A-Za-z0-9_.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s\\]|\\.)*)/gy;
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

  it('the ENV pair pattern (a) reads as before: sticky, tried after blanks or a value, where the lookbehind holds', () => {
    const pieces = ['A', 'b.c', '-', '_', '1', '=', '"', "'", '\\', ' ', '\t', '\\ ', 'x y', '"two words"', 'A=1', '\n'];
    const real = ['A=1 B="two words" C=x\\ y', 'KEY value with spaces', 'PATH=/usr/bin:$PATH \\\n  HOME=/root', "A='q' B=\"e\\\"x\""];
    for (const args of [...real, ...randomStrings(pieces, 20_000)]) expect(dockerEnvPairs(args), JSON.stringify(args)).toEqual(oldDockerEnvPairs(args));
  });

  it('the ENV pair pattern reads a long name run in linear time, sticky or not', () => {
    const attack = `${'A'.repeat(N)}\t"A=`;
    const pair = /(?<![\w.-])([A-Za-z_][A-Za-z0-9_.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s\\]|\\.)*)/g;
    // Measured: old pattern unanchored 41,600 ms, new < 5 ms; dockerEnvPairs (sticky) was fast before too.
    expect(elapsedMs(() => pair.exec(attack))).toBeLessThan(FAST_MS);
    expect(elapsedMs(() => dockerEnvPairs(attack))).toBeLessThan(FAST_MS);
    expect(elapsedMs(() => dockerEnvPairs('A="\\" '.repeat(N / 6)))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/python/docopt-usage.ts docoptDefault (a): by index, as /\\[default: (.*)\\]/i captured', () => {
  it('captures as the old pattern did', () => {
    const pieces = ['[default: ', '[DEFAULT: ', '[Default:', ']', '[', 'x', ' ', '\n', '\r', '\u2028', 'a b', '1.0', ']]'];
    const real = ['Port to use [default: 8080].', 'Speed in knots [default: 10]\n  more text [default: 2]', '--level=<n>  Level [DEFAULT: info]'];
    for (const text of [...real, ...randomStrings(pieces, 20_000)]) expect(docoptDefault(text), JSON.stringify(text)).toEqual(/\[default: (.*)\]/i.exec(text)?.[1]);
  });

  it('reads a long line of `[default: ` in linear time', () => {
    // Measured: old 2,200 ms, new < 10 ms.
    expect(elapsedMs(() => docoptDefault(`${'[DEFAULT: '.repeat(N / 10)}\n[DEFAULT: ]`))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/python/flags-argparse.ts pythonFileStem (a): scanned back from the end', () => {
  it('captures as /([A-Za-z_]\\w*)\\.pyi?$/ did', () => {
    const pieces = ['a', 'B', '_', '1', '.', 'py', 'pyi', '/', '-', '\u0000', '__init__', 'é'];
    const real = ['src/pkg/cli.py', 'pkg/__init__.py', 'stubs/mod.pyi', 'a/2fa.py', 'x/9.py', 'tool.py.bak'];
    const suffixes = ['.py', '.pyi', '', '.py.bak', 'py'];
    const files = randomStrings(pieces, 20_000, 12).map((f, i) => f + suffixes[i % suffixes.length]!);
    for (const file of [...real, ...files]) expect(pythonFileStem(file), JSON.stringify(file)).toEqual(/([A-Za-z_]\w*)\.pyi?$/.exec(file)?.[1]);
  });

  it('reads a long word in linear time', () => {
    // Measured: old 16,100 ms, new < 10 ms.
    expect(elapsedMs(() => pythonFileStem(`${'p'.repeat(N)}\u0000A.py`))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/python/flags-docopt.ts SLICE (a): each bound takes the blanks after it', () => {
  const OLD = /^\s*(-?\d+)?\s*:\s*(-?\d+)?\s*$/;

  it('matches as the old pattern did', () => {
    const pieces = [' ', '\t', '\n', ':', '-', '1', '23', '-4', 'x', '::'];
    for (const text of ['1:', ':-1', ' 2 : 10 ', ':', '::2', ...randomStrings(pieces, 20_000, 10)]) expect(execOf(SLICE, text), JSON.stringify(text)).toEqual(execOf(OLD, text));
  });

  it('reads long blank runs in linear time', () => {
    // Measured: old > 60,000 ms (killed), new < 5 ms.
    expect(elapsedMs(() => SLICE.exec(`${'\t'.repeat(N / 2)}:${'\t'.repeat(N / 2)}-0:`))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/python/module-name.ts (a): a package root\'s trailing slashes trimmed by index', () => {
  it('names modules as before', () => {
    expect(moduleNameForFile('src/pkg/a.py', ['src///'])).toBe('pkg.a');
    expect(moduleNameForFile('lib/pkg/__init__.py', ['./lib/'])).toBe('pkg');
    expect(moduleNameForFile('pkg/a.py', ['/'])).toBe('pkg.a');
  });

  it('reads a long run of slashes in linear time', () => {
    // Measured: old 20,400 ms, new < 5 ms.
    expect(elapsedMs(() => moduleNameForFile('src/a.py', [`${'/'.repeat(N)}\u0000/`]))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/typescript/bin-files.ts withoutVersion (a): scanned back from the end', () => {
  it('strips what name.replace(/\\d+(?:\\.\\d+)*$/, \'\') stripped', () => {
    const pieces = ['0', '1', '23', '.', '..', 'node', 'python', 'x', '-', '/'];
    for (const name of ['python3.11', 'node', 'bash5', 'node18.1.', 'a..1', '1.', ...randomStrings(pieces, 20_000, 12)]) expect(withoutVersion(name), JSON.stringify(name)).toBe(name.replace(/\d+(?:\.\d+)*$/, ''));
  });

  it('reads a long run of digits in linear time', () => {
    // Measured: old 34,600 ms, new < 5 ms.
    expect(elapsedMs(() => binFileKind('bin/x', `#!/usr/bin/${'0'.repeat(N)}\u00000\n`))).toBeLessThan(FAST_MS);
  });
});

describe('src/extract/typescript/flags-meow.ts OPTION_LINE (b): help lines over 2,000 characters are no option lines', () => {
  it('skips a 100 KB hostile help line fast', async () => {
    const hostile = `-0 --${'0\\t--'.repeat(N / 4)}\\r>\\t]\\t0`;
    const text = `import meow from 'meow';\nconst cli = meow('  --port  The port\\n${hostile}', { flags: {} });`;
    // Measured: the pattern alone on the line, old ~400 ms at 100 KB (272 ms at 80 KB; quadratic), at the 2,000 cap 1 ms.
    const start = performance.now();
    const { commands } = await extractTypeScriptFlags([{ file: 'cli.js', text }]);
    expect(performance.now() - start).toBeLessThan(5000);
    expect(commands[0]?.params.map((p) => p.name)).toEqual(['port']);
  });

  it('the pattern at the 2,000-character cap costs under 50 ms', () => {
    const OPTION_LINE = /^([ \t]*)(-{1,2}[A-Za-z0-9][\w.-]*(?:[= ]?(?:<[^>\n]*>|\[[^\]\n]*\]))?(?:,?[ \t]+-{1,2}[A-Za-z0-9][\w.-]*(?:[= ]?(?:<[^>\n]*>|\[[^\]\n]*\]))?)*)(?: {2,}|\t+)(\S.*)$/;
    const line = `-0 --${'0\t--'.repeat(500)}`.slice(0, 1994) + '\r>\t]\t0';
    expect(line.length).toBe(2000);
    const run = (): unknown => OPTION_LINE.exec(line);
    run();
    expect(Math.min(elapsedMs(run), elapsedMs(run), elapsedMs(run))).toBeLessThan(50);
  });
});
